/*
 * client.h -- one player's connection as the game logic sees it.
 *
 * The game logic (lobby, match, session, cmd) never touches a socket: it
 * sends through the lobby's ops, which the libevent layer (server-client.c)
 * or a test harness provides.
 */
#ifndef TTTD_CLIENT_H
#define TTTD_CLIENT_H

#include <sys/queue.h>

#include <stdint.h>

#include "proto.h"
#include "addrtab.h"
#include "ratelimit.h"

#define CLIENT_QUEUED	0x1	/* waiting in the lobby for an opponent */
#define CLIENT_CLOSING	0x2	/* says nothing more; closes after flushing */
#define CLIENT_GONE	0x4	/* detached from the game for good */
#define CLIENT_LINGER	0x8	/* flushed and shut down; draining input */
#define CLIENT_NOSEAT	0x10	/* refused or closing: holds no player slot */
#define CLIENT_REFUSED	0x20	/* refused: ERR, then closed */
#define CLIENT_DIRTY	0x40	/* output queued since the last flush */
#define CLIENT_OFFERED	0x100	/* offered PLAY AI during this queue stay */

/* Which of a player's clocks is running; at most one at a time. */
enum client_clock {
	CLIENT_CLOCK_NONE = 0,
	CLIENT_CLOCK_IDLE,	/* waiting in the queue, saying nothing */
	CLIENT_CLOCK_TURN,	/* its move */
	CLIENT_CLOCK_AGAIN,	/* its answer to AGAIN? */
	CLIENT_CLOCK_ROOM	/* its private room is open */
};

struct lobby;
struct match;
struct room;
struct chatlog;
struct server;
struct event;
struct evbuffer;

struct client {
	uint64_t		 id;
	struct lobby		*lobby;
	int			 flags;
	int			 seat;		/* 0 = p1 = X, 1 = p2 = O */
	char			 addr[64];	/* peer, printable */
	char			 name[PROTO_NAME_MAX + 1]; /* "" = seat name */
	enum client_clock	 clock;		/* which runs (clock.c) */

	struct match		*match;		/* NULL unless in a match */

	TAILQ_ENTRY(client)	 queue_entry;	/* lobby queue */
	int64_t			 queued_at;	/* ms: joined the queue */
	struct room		*room;		/* its private room, waiting */
	struct match		*watching;	/* NULL unless watching */
	TAILQ_ENTRY(client)	 watch_entry;	/* the match's watchers */
	struct chatlog		*chat;		/* SAY times, once it chats */

	/*
	 * Time limits and flood control (clock.c, conn.c, session.c).  The
	 * fields are ordered to leave no padding: every connection has one.
	 */
	int64_t			 clock_end;	/* ms: the clock runs out */
	int64_t			 clock_warn;	/* ms: TURN warning; 0 = sent */
	int64_t			 line_deadline;	/* ms: partial line; 0 = none */
	struct ratelimit	 rate;		/* lines accepted */
	struct ratelimit	 abuse;		/* lines refused */
	uint64_t		 lines;		/* lines received */

	/* Transport, owned by server-client.c. */
	struct server		*server;
	struct event		*rev;		/* readable (EV_PERSIST) */
	struct event		*wev;		/* writable, while out is stuck */
	struct evbuffer		*out;		/* not yet written */
	struct evbuffer		*in;		/* at most one line, pending */
	struct event		*timer;		/* the next deadline */
	struct addrkey		 addrkey;	/* for --max-per-addr */
	int64_t			 close_by;	/* ms, CLIENT_CLOSING */
	int64_t			 linger_until;	/* ms, CLIENT_LINGER */
	size_t			 linger_drained; /* bytes, CLIENT_LINGER */
	TAILQ_ENTRY(client)	 entry;		/* all clients */
	TAILQ_ENTRY(client)	 dirty_entry;	/* output to flush */
};
TAILQ_HEAD(client_list, client);

#endif /* TTTD_CLIENT_H */
