/*
 * name.h -- the names players go by: one connected player per name, in
 * any case, and none of the seats' own (p1, p2, ai).
 */
#ifndef NAME_H
#define NAME_H

#include "client.h"
#include "lobby.h"

int	name_allowed(struct lobby *, const struct client *, const char *);
void	name_take(struct client *, const char *);
void	name_drop(struct client *);

#endif /* NAME_H */
