/*
 * name.h -- the names players go by: one connected player per name, in
 * any case, and none of the seats' own (p1, p2, ai).
 */
#ifndef NAME_H
#define NAME_H

#include "client.h"
#include "lobby.h"
#include "utf8.h"

int	name_allowed(struct lobby *, const struct client *, const char *);
void	name_take(struct client *, const char *);
void	name_drop(struct client *);
size_t	name_folded(const char *, char *);

/* A folded name's bytes at most, its NUL included. */
#define NAME_FOLD_MAX	(PROTO_NAME_CHARS * UTF8_MAX + 1)
void	name_hold(struct lobby *, struct keytab_entry *, const char *,
	    void *);

#endif /* NAME_H */
