/*
 * place.c -- where a client is, and its transitions: a leaf the world
 * calls, calling nothing of it.
 *
 * A client enters a place only from PLACE_NONE (lobby.c queues it, room.c
 * opens its room, watch.c and match.c seat it, resume.c seats it again),
 * and goes back to PLACE_NONE when it leaves, through place_set, which
 * enforces that.  cmd.c's cmd_leave is the way a client leaves whatever
 * it is doing itself; the world also moves clients out of their places (a
 * pairing, a room joined or expired, a match that ends).  PLACE_GONE is
 * final: a client detached for good (cmd_detach: it quit, was refused,
 * lost its connection; or replaced by a RESUME elsewhere) enters no place
 * again.
 *
 *	NONE -> QUEUE | ROOM | WATCH | MATCH | RELAY -> NONE
 *	any  -> GONE
 */
#include "log.h"
#include "place.h"

/*
 * Move a client to a place, as the rules above allow; anything else is a
 * bug that would leak the place it was in.
 */
void
place_set(struct client *c, enum client_place to)
{
	if (to != PLACE_GONE && ((c->place == PLACE_GONE) ||
	    (c->place != PLACE_NONE && to != PLACE_NONE)))
		fatalx("client %llu: from place %d to %d",
		    (unsigned long long)c->id, (int)c->place, (int)to);
	c->place = to;
}
