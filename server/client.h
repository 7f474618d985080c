/*
 * client.h -- the seat layer: one participant as the game world sees it,
 * and the only way the world reaches it.
 *
 * The world (lobby, match, room, watch, resume, clock, place) sends a
 * client lines, closes it, and has its timer aimed, through the client's
 * ops, and knows nothing else of it: the ops are a TCP connection
 * (server-client.c) or a test's harness, and a WebSocket or a player on
 * another node is one more set of ops.  This layer includes no header of
 * the world above it.
 */
#ifndef TTTD_CLIENT_H
#define TTTD_CLIENT_H

#include <sys/queue.h>

#include <stdint.h>

#include "proto.h"
#include "addrtab.h"
#include "keytab.h"
#include "ratelimit.h"

#define CLIENT_CLOSING	0x1	/* says nothing more; closes after flushing */
#define CLIENT_OFFERED	0x2	/* offered PLAY AI during this queue stay */
#define CLIENT_FRESH	0x4	/* PLACE_QUEUE: just connected, not yet paired
				   (lobby->fresh) */
#define CLIENT_POSTED	0x8	/* PLACE_QUEUE: the host seeks it an opponent
				   on other nodes too (event waits_alone) */
#define CLIENT_REMOTE	0x10	/* a player connected to another node, which
				   checked its lines and their rate */
#define CLIENT_FRONT	0x40	/* CLIENT_FRESH: heads the queue once ripe
				   (its opponent walked away) */

/*
 * Where a client is in the world: one place at a time, changed only
 * through place_set (place.c: its transitions are there).  A connected player holding a
 * seat is PLACE_MATCH; its seat is "away" (match.h) once the connection
 * is gone, and the client is then PLACE_GONE.
 */
enum client_place {
	PLACE_NONE = 0,		/* between places, or not yet anywhere */
	PLACE_QUEUE,		/* waiting in the lobby for an opponent */
	PLACE_ROOM,		/* waiting in its private room */
	PLACE_WATCH,		/* watching a match */
	PLACE_MATCH,		/* holding a seat in a match */
	PLACE_RELAY,		/* playing on another node: its lines are
				   relayed there (event relay_line) */
	PLACE_GONE		/* detached from the world for good */
};

/* Which of a player's clocks is running; at most one at a time. */
enum client_clock {
	CLIENT_CLOCK_NONE = 0,
	CLIENT_CLOCK_IDLE,	/* waiting in the queue, saying nothing */
	CLIENT_CLOCK_TURN,	/* its move */
	CLIENT_CLOCK_AGAIN,	/* its answer to AGAIN? */
	CLIENT_CLOCK_ROOM	/* its private room is open */
};

/*
 * Why a client's next lines wait: bits of its flags (CLIENT_HOLDS), each
 * set and released by its own owner (client_hold, client_release); they
 * go on once no reason is left.
 */
enum client_hold {
	CLIENT_HOLD_ASK = 0x80,		/* its last line went to the other
					   nodes (cluster-ask.c) */
	CLIENT_HOLD_TAKEUP = 0x100,	/* its match's node is gone or drains:
					   a live node is to take the match up
					   (cluster-seat.c, cluster-keep.c) */
	CLIENT_HOLD_STORE = 0x200	/* its last line waits on the
					   accounts' store (accounts.c) */
};
#define CLIENT_HOLDS	(CLIENT_HOLD_ASK | CLIENT_HOLD_TAKEUP |		\
			    CLIENT_HOLD_STORE)

/* Where a client handed back to its node goes there (client_home). */
#define CLIENT_HOME_BACK	0	/* the back of the queue */
#define CLIENT_HOME_FRONT	1	/* its front */
#define CLIENT_HOME_FREE	2	/* nowhere: its next command says */

struct client;
struct lobby;
struct lobby_stats;
struct match;
struct room;
struct chatlog;

/* How a client is reached; provided by its transport. */
struct client_ops {
	/* Queue bytes for the client. */
	void	(*send)(struct client *, const char *, size_t);
	/* Flush what was queued, then close the connection. */
	void	(*close)(struct client *);
	/* The client's next deadline is now this (ms; 0: none): aim at it. */
	void	(*rearm)(struct client *, int64_t);
	/*
	 * Optional: a player connected to another node is to wait in the
	 * queue (CLIENT_HOME_BACK, or at its front: _FRONT), or to be let
	 * go with no place (_FREE): hand it back to that node (1), which
	 * queues it or not; 0: it stays here.
	 */
	int	(*home)(struct client *, int);
	/*
	 * Optional: stop taking the client's lines (1: its first hold)
	 * until told to go on (0: its last released), those already read
	 * kept in order; called by client_hold and client_release only.
	 * NULL: it cannot wait.
	 */
	void	(*hold)(struct client *, int);
};

struct client {
	uint64_t		 id;
	const struct client_ops	*ops;
	struct lobby		*lobby;
	struct lobby_stats	*stats;		/* errors, bytes_out */
	int			 flags;		/* CLIENT_*, CLIENT_HOLD_* */
	enum client_place	 place;		/* place.c */
	int			 seat;		/* 0 = p1 = X, 1 = p2 = O */
	enum client_clock	 clock;		/* which runs (clock.c) */
	char			 addr[64];	/* peer, printable */
	char			 name[PROTO_NAME_MAX + 1]; /* "" = seat name */
	struct keytab_entry	 name_entry;	/* lobby->names (name.c) */
	struct addrkey		 addrkey;	/* for RESUME's limits */

	struct match		*match;		/* PLACE_MATCH */
	struct room		*room;		/* PLACE_ROOM */
	struct match		*watching;	/* PLACE_WATCH */
	TAILQ_ENTRY(client)	 queue_entry;	/* PLACE_QUEUE: the queue, or
						   lobby->fresh */
	int64_t			 queued_at;	/* ms: joined the queue */
	TAILQ_ENTRY(client)	 watch_entry;	/* the match's watchers */
	struct chatlog		*chat;		/* SAY and rename times, once it
						   chats or renames */

	/* Time limits and flood control (clock.c, conn.c, session.c). */
	int64_t			 clock_end;	/* ms: the clock runs out */
	int64_t			 clock_warn;	/* ms: TURN warning; 0 = sent */
	int64_t			 line_deadline;	/* ms: partial line; 0 = none */
	uint32_t		 line_skipped;	/* bytes of an over-long line
						   thrown away; 0 = none */
	struct ratelimit	 rate;		/* lines accepted */
	struct ratelimit	 abuse;		/* lines refused */
	uint64_t		 lines;		/* lines received */
	void			*account;	/* signed in: the accounts'
						   own (accounts.c); NULL: a
						   guest */
	int			 rated;		/* signed in: paired by
						   rating (set by the accounts,
						   lobby_rated) */
	int			 rating;	/* then its rating, rounded */
	int64_t			 account_id;	/* signed in: its account's id
						   (a remote seat's, as its
						   node said); 0: a guest */
};
TAILQ_HEAD(client_list, client);

void	client_send(struct client *, const char *, int);
void	client_close(struct client *);
void	client_rearm(struct client *);
int	client_home(struct client *, int);
void	client_hold(struct client *, enum client_hold);
int	client_release(struct client *, enum client_hold);
int64_t	client_deadline(const struct client *);

#endif /* TTTD_CLIENT_H */
