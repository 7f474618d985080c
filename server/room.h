/*
 * room.h -- private rooms: ROOM NEW gives a code, ROOM JOIN <code> pairs
 * with exactly the player who holds it.
 */
#ifndef ROOM_H
#define ROOM_H

#include "client.h"
#include "lobby.h"

void		 room_open(struct client *);
void		 room_close(struct client *);
void		 room_expired(struct client *);
struct client	*room_find(struct lobby *, const char *);

#endif /* ROOM_H */
