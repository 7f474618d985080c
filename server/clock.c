/*
 * clock.c -- a player's clock.  At most one runs at a time: the mover's in
 * a game, each unanswered player's after RESULT, a queued player's while
 * it waits.  The transport is told (the timer op) whenever the next
 * deadline moves, and calls back through conn_timer when it is due.
 */
#include "clock.h"
#include "lobby.h"
#include "session.h"

/* Start (or restart) a clock; a limit of 0 means no clock at all. */
void
clock_start(struct client *c, enum client_clock kind)
{
	clock_resume(c, kind, 0);
}

/*
 * Start a clock with ms left (0: all of its time), as after a paused turn.
 * The mover is warned when two thirds of its time are gone; a player
 * alone in the queue is offered the computer after --ai-offer.
 */
void
clock_resume(struct client *c, enum client_clock kind, int64_t ms)
{
	const struct lobby_limits	*l = &c->lobby->limits;
	int64_t				 full = 0, now;

	switch (kind) {
	case CLIENT_CLOCK_IDLE:
		full = l->idle_ms;
		/* No queue limit: the clock runs for the computer's offer. */
		if (full <= 0 && l->ai_offer_ms > 0 &&
		    !(c->flags & CLIENT_OFFERED))
			full = CLOCK_NEVER;
		break;
	case CLIENT_CLOCK_TURN:
		full = l->turn_ms;
		break;
	case CLIENT_CLOCK_AGAIN:
		full = l->again_ms;
		break;
	case CLIENT_CLOCK_ROOM:
		full = l->room_ms;
		break;
	case CLIENT_CLOCK_NONE:
		break;
	}
	if (full <= 0) {
		clock_stop(c);
		return;
	}
	if (ms <= 0 || ms > full)
		ms = full;
	now = c->lobby->ops->now();
	c->clock = kind;
	c->clock_end = now + ms;
	c->clock_warn = 0;
	if (kind == CLIENT_CLOCK_TURN && ms > full / 3)
		c->clock_warn = c->clock_end - full / 3;
	else if (kind == CLIENT_CLOCK_IDLE && l->ai_offer_ms > 0 &&
	    !(c->flags & CLIENT_OFFERED))
		c->clock_warn = c->queued_at + l->ai_offer_ms;
	if (c->clock_warn >= c->clock_end)
		c->clock_warn = 0;
	c->lobby->ops->timer(c);
}

/* What is left of a running turn clock in ms (at least 1); 0 if none. */
int64_t
clock_turn_left(const struct client *c)
{
	int64_t	now = c->lobby->ops->now();

	if (c->clock != CLIENT_CLOCK_TURN)
		return (0);
	return (c->clock_end > now ? c->clock_end - now : 1);
}

/* Stop the clock, if one runs. */
void
clock_stop(struct client *c)
{
	if (c->clock == CLIENT_CLOCK_NONE)
		return;
	c->clock = CLIENT_CLOCK_NONE;
	c->clock_end = c->clock_warn = 0;
	c->lobby->ops->timer(c);
}

/* When the clock next wants attention, in ms; 0 when none runs. */
int64_t
clock_next(const struct client *c)
{
	if (c->clock == CLIENT_CLOCK_NONE)
		return (0);
	return (c->clock_warn != 0 ? c->clock_warn : c->clock_end);
}

/* The time is now: warn the mover, or let the session act on a clock out. */
void
clock_expire(struct client *c, int64_t now)
{
	enum client_clock	kind = c->clock;

	if (kind == CLIENT_CLOCK_NONE)
		return;
	if (now < c->clock_end) {
		if (c->clock_warn != 0 && now >= c->clock_warn) {
			c->clock_warn = 0;
			session_clock_warn(c, kind, c->clock_end - now);
			c->lobby->ops->timer(c);
		}
		return;
	}
	clock_stop(c);
	session_clock_out(c, kind);
}
