/*
 * clock.c -- a player's clock.  At most one runs at a time: the mover's in
 * a game, each unanswered player's after RESULT, a queued player's while
 * it waits.  The seat layer is told (client_rearm) whenever the next
 * deadline moves; when it comes, clock_due says what ran out, and the
 * caller decides what that means.
 */
#include "clock.h"
#include "lobby.h"

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
	client_rearm(c);
}

/* A running clock ends no later than by (ms; 0: no bound). */
void
clock_cap(struct client *c, int64_t by)
{
	if (c->clock == CLIENT_CLOCK_NONE || by == 0 || c->clock_end <= by)
		return;
	c->clock_end = by;
	if (c->clock_warn >= c->clock_end)
		c->clock_warn = 0;
	client_rearm(c);
}

/* The clock's early word is due again at ms (if before its end). */
void
clock_rewarn(struct client *c, int64_t at)
{
	if (c->clock == CLIENT_CLOCK_NONE || at >= c->clock_end)
		return;
	c->clock_warn = at;
	client_rearm(c);
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
	client_rearm(c);
}

/*
 * The time is now: what the clock has due, once each.  CLOCK_DUE_WARN:
 * the early word (*left ms are left); CLOCK_DUE_OUT: the clock ran out
 * and is stopped.  *kind says which clock it was.
 */
enum clock_due
clock_due(struct client *c, int64_t now, enum client_clock *kind,
    int64_t *left)
{
	*kind = c->clock;
	if (c->clock == CLIENT_CLOCK_NONE)
		return (CLOCK_DUE_NONE);
	if (now < c->clock_end) {
		if (c->clock_warn == 0 || now < c->clock_warn)
			return (CLOCK_DUE_NONE);
		c->clock_warn = 0;
		*left = c->clock_end - now;
		client_rearm(c);
		return (CLOCK_DUE_WARN);
	}
	clock_stop(c);
	return (CLOCK_DUE_OUT);
}
