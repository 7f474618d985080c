/*
 * name.h -- the names players go by: one connected player per name, in
 * any case and in any look-alike letters, and none of the seats' own
 * (p1, p2, ai) nor one like them.
 */
#ifndef NAME_H
#define NAME_H

#include "client.h"
#include "lobby.h"
#include "namecheck.h"

/* A name's key's bytes at most, its NUL included. */
#define NAME_KEY_MAX	NAMECHECK_KEY_MAX

int	name_init(struct lobby *);
void	name_free(struct lobby *);
int	name_valid(const char *);
int	name_wellformed(const char *, size_t);
int	name_allowed(struct lobby *, const struct client *, const char *);
void	name_take(struct client *, const char *);
void	name_drop(struct client *);
size_t	name_keyed(const struct lobby *, const char *, char *);
void	name_hold(struct lobby *, struct keytab_entry *, const char *,
	    void *);

#endif /* NAME_H */
