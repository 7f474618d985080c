/*
 * counters.c -- the server's counters by name, in the order STATS reports
 * them: one table for the STATS command (cmd.c) and for the daemon's
 * SIGUSR1, which writes them to the log (server.c).
 */
#include <string.h>

#include "counters.h"
#include "lobby.h"

/* Fill out with at most max counters, in STATS order; how many. */
size_t
counters_get(const struct lobby *l, struct counter *out, size_t max)
{
	const struct lobby_stats	*st = &l->stats;
	const struct counter		 all[] = {
		{ "uptime", (unsigned long long)
		    ((l->ops->now() - st->started) / 1000), 0 },
		{ "connections_current", st->connections_current, 1 },
		{ "connections_total", st->connections_total, 0 },
		{ "connections_rejected", st->connections_rejected, 0 },
		{ "players_waiting", l->nqueued + l->nfresh, 1 },
		{ "matches_live", l->nmatches, 1 },
		{ "games_finished", st->games_finished, 0 },
		{ "wins", st->wins, 0 },
		{ "ties", st->ties, 0 },
		{ "forfeits", st->forfeits, 0 },
		{ "moves", st->moves, 0 },
		{ "errors", st->errors, 0 },
		{ "bytes_in", st->bytes_in, 0 },
		{ "bytes_out", st->bytes_out, 0 },
		{ "rooms_open", l->rooms.n, 1 },
		{ "watchers", l->nwatchers, 1 },
		{ "players_away", l->naway, 1 },
		{ "matches_ai", l->nai, 1 },
		{ "aborts", st->aborts, 0 },
		{ "resigns", st->resigns, 0 },
		{ "resumes", st->resumes, 0 },
		{ "chats", st->chats, 0 },
		/* With --redis only: the last two. */
		{ "cluster_nodes", l->cluster.nodes, 1 },
		{ "redis_connected", (unsigned long long)l->cluster.connected,
		    1 },
	};
	size_t				 n = sizeof all / sizeof all[0];

	if (!l->cluster.on)
		n -= 2;

	_Static_assert(sizeof all / sizeof all[0] <= COUNTERS_MAX,
	    "COUNTERS_MAX is too small");
	if (n > max)
		n = max;
	memcpy(out, all, n * sizeof all[0]);
	return (n);
}

/* When the server started: ms since the Unix epoch (0 if not told). */
long long
counters_started(const struct lobby *l)
{
	return ((long long)l->stats.started_wall);
}
