/*
 * lobby.c -- the queue of waiting players and first-come, first-served
 * pairing.
 */
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "lobby.h"
#include "log.h"
#include "match.h"
#include "session.h"

static void	lobby_pair(struct lobby *);

/* The limits tttd starts with when no flag says otherwise. */
void
lobby_default_limits(struct lobby_limits *l)
{
	l->line_ms = LOBBY_LINE_MS;
	l->turn_ms = LOBBY_TURN_MS;
	l->again_ms = LOBBY_AGAIN_MS;
	l->idle_ms = LOBBY_IDLE_MS;
	l->rate = LOBBY_RATE;
	l->burst = LOBBY_BURST;
}

/* Set up an empty world with its limits and a seed for its random source. */
void
lobby_init(struct lobby *lobby, const struct lobby_ops *ops,
    const struct lobby_limits *limits, uint64_t seed)
{
	lobby->ops = ops;
	lobby->limits = *limits;
	/* splitmix64 of the seed, so that seeds 0, 1, 2 ... differ well. */
	seed += 0x9e3779b97f4a7c15ULL;
	seed = (seed ^ (seed >> 30)) * 0xbf58476d1ce4e5b9ULL;
	seed = (seed ^ (seed >> 27)) * 0x94d049bb133111ebULL;
	seed ^= seed >> 31;
	lobby->rng = seed != 0 ? seed : 1;
	lobby->next_match_id = 1;
	memset(&lobby->stats, 0, sizeof lobby->stats);
	lobby->stats.started = ops->now();
	lobby->nmatches = 0;
	TAILQ_INIT(&lobby->queue);
	TAILQ_INIT(&lobby->matches);
	lobby->nqueued = 0;
}

/* Free the matches left; the clients belong to the transport. */
void
lobby_free(struct lobby *lobby)
{
	struct match	*m;

	while ((m = TAILQ_FIRST(&lobby->matches)) != NULL)
		match_free(m);
}

/* A fair coin from the seeded source: 0 or 1. */
int
lobby_coin(struct lobby *lobby)
{
	uint64_t	x = lobby->rng;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	lobby->rng = x;
	return ((int)((x * 0x2545f4914f6cdd1dULL) >> 63));
}

/* Put a player at the back of the queue, say so, and pair if possible. */
void
lobby_join(struct lobby *lobby, struct client *c)
{
	char	buf[PROTO_OUT_MAX];

	if (c->flags & (CLIENT_QUEUED | CLIENT_GONE | CLIENT_CLOSING))
		return;
	session_sendn(c, buf, proto_fmt_wait(buf, sizeof buf, NULL));
	c->flags |= CLIENT_QUEUED;
	clock_start(c, CLIENT_CLOCK_IDLE);
	TAILQ_INSERT_TAIL(&lobby->queue, c, queue_entry);
	lobby->nqueued++;
	lobby_pair(lobby);
}

/* Take a player out of the queue, if it is there. */
void
lobby_leave(struct lobby *lobby, struct client *c)
{
	if (!(c->flags & CLIENT_QUEUED))
		return;
	TAILQ_REMOVE(&lobby->queue, c, queue_entry);
	c->flags &= ~CLIENT_QUEUED;
	clock_stop(c);
	lobby->nqueued--;
}

/* Pair the two players who have waited longest, while there are two. */
static void
lobby_pair(struct lobby *lobby)
{
	struct client	*p1, *p2;

	while (lobby->nqueued >= 2) {
		p1 = TAILQ_FIRST(&lobby->queue);
		lobby_leave(lobby, p1);
		p2 = TAILQ_FIRST(&lobby->queue);
		lobby_leave(lobby, p2);
		match_new(lobby, p1, p2);
	}
}
