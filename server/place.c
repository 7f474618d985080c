/*
 * place.c -- where a client is, and its transitions.
 *
 * A client enters a place only from PLACE_NONE (lobby.c queues it, room.c
 * opens its room, watch.c and match.c seat it, resume.c seats it again),
 * and goes back to PLACE_NONE when it leaves; place_leave is the one way
 * out of anywhere.  PLACE_GONE is final: a client detached for good
 * (closing, lost, or replaced by a RESUME elsewhere) enters no place
 * again.
 *
 *	NONE -> QUEUE | ROOM | WATCH | MATCH -> NONE
 *	any  -> GONE
 */
#include "clock.h"
#include "lobby.h"
#include "match.h"
#include "place.h"
#include "room.h"

/* Move a client to a place, as the rules above allow. */
void
place_set(struct client *c, enum client_place to)
{
	if (c->place == PLACE_GONE)
		return;
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
		watch_stop(c);
		break;
	case PLACE_MATCH:
		if (why == PROTO_LEAVE_QUIT && match_may_abort(c))
			match_abort(c);
		else if (!hold || !resume_hold(c))
			match_leave(c, why);
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
	c->place = PLACE_GONE;
}
