/*
 * room.h -- private rooms: ROOM NEW gives a code, ROOM JOIN <code> pairs
 * with exactly the player who holds it.
 */
#ifndef ROOM_H
#define ROOM_H

#include "client.h"
#include "keytab.h"
#include "lobby.h"

/* A room: its maker, waiting, filed under its code. */
struct room {
	struct keytab_entry	 entry;
	struct client		*maker;
	char			 code[PROTO_CODE_LEN + 1];
};

void		 room_open(struct client *);
void		 room_close(struct client *);
void		 room_expired(struct client *);
struct client	*room_find(struct lobby *, const char *);

#endif /* ROOM_H */
