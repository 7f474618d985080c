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
		    ((l->ops->now() - st->started) / 1000) },
		{ "connections_current", st->connections_current },
		{ "connections_total", st->connections_total },
		{ "connections_rejected", st->connections_rejected },
		{ "players_waiting", l->nqueued + l->nfresh },
		{ "matches_live", l->nmatches },
		{ "games_finished", st->games_finished },
		{ "wins", st->wins },
		{ "ties", st->ties },
		{ "forfeits", st->forfeits },
		{ "moves", st->moves },
		{ "errors", st->errors },
		{ "bytes_in", st->bytes_in },
		{ "bytes_out", st->bytes_out },
		{ "rooms_open", l->rooms.n },
		{ "watchers", l->nwatchers },
		{ "players_away", l->naway },
		{ "matches_ai", l->nai },
		{ "aborts", st->aborts },
		{ "resigns", st->resigns },
		{ "resumes", st->resumes },
		{ "chats", st->chats },
	};
	size_t				 n = sizeof all / sizeof all[0];

	_Static_assert(sizeof all / sizeof all[0] <= COUNTERS_MAX,
	    "COUNTERS_MAX is too small");
	if (n > max)
		n = max;
	memcpy(out, all, n * sizeof all[0]);
	return (n);
}
