/*
 * stats.h -- the counters STATS reports.  The seat layer counts what it
 * sends, the world its games, the transport its connections and bytes in.
 */
#ifndef STATS_H
#define STATS_H

#include <stdint.h>

struct lobby_stats {
	int64_t		started;		/* ms, ops->now */
	int64_t		started_wall;		/* ms since the epoch (server.c;
						   /metrics) */
	uint64_t	connections_current;	/* players: not refused, not
						   leaving */
	uint64_t	connections_total;
	uint64_t	connections_rejected;
	uint64_t	games_finished;
	uint64_t	wins;
	uint64_t	ties;
	uint64_t	forfeits;
	uint64_t	moves;
	uint64_t	errors;			/* ERR lines sent */
	uint64_t	bytes_in;
	uint64_t	bytes_out;
	uint64_t	aborts;
	uint64_t	resigns;
	uint64_t	resumes;
	uint64_t	chats;
};

#endif /* STATS_H */
