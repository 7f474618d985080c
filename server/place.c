/*
 * place.c -- where a client is, and its transitions.
 *
 * A client enters a place only from PLACE_NONE (lobby.c queues it, room.c
 * opens its room, watch.c and match.c seat it, resume.c seats it again),
 * and goes back to PLACE_NONE when it leaves, through place_set, which
 * enforces that.  place_leave is the way a client leaves whatever it is
 * doing itself; the world also moves clients out of their places (a
 * pairing, a room joined or expired, a match that ends).  PLACE_GONE is
 * final: a client detached for good (it quit, was refused, lost its
 * connection, or was replaced by a RESUME elsewhere) enters no place
 * again.
 *
 *	NONE -> QUEUE | ROOM | WATCH | MATCH | RELAY -> NONE
 *	any  -> GONE
 */
#include "clock.h"
#include "lobby.h"
#include "log.h"
#include "match.h"
#include "name.h"
#include "place.h"
#include "room.h"

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

/*
 * Leave the queue, a room, watching, or a match: aborted before one's
 * first move when leaving on purpose (QUIT), held for a lost connection
 * (hold) when there is a grace period, else left for good.
 */
void
place_leave(struct client *c, enum proto_leave why, int hold)
{
	switch (c->place) {
	case PLACE_QUEUE:
		lobby_leave(c->lobby, c);
		break;
	case PLACE_ROOM:
		room_close(c);
		break;
	case PLACE_WATCH:
		watch_leave(c);
		break;
	case PLACE_MATCH:
		if (why == PROTO_LEAVE_QUIT && match_may_abort(c))
			match_abort(c);
		else if (!hold || !resume_hold(c))
			match_leave(c, why);
		break;
	case PLACE_RELAY:
		place_set(c, PLACE_NONE);
		LOBBY_RAISE(c->lobby, relay_left, c, why, hold);
		break;
	case PLACE_NONE:
	case PLACE_GONE:
		break;
	}
	clock_stop(c);
}

/* Leave whatever the client is doing, once, for good. */
void
place_detach(struct client *c, enum proto_leave why, int hold)
{
	if (c->place == PLACE_GONE)
		return;
	place_leave(c, why, hold);
	name_drop(c);
	c->place = PLACE_GONE;
}
