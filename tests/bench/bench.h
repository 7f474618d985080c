/*
 * bench.h -- ttt-bench: many connections on one epoll loop, playing tttd
 * (game mode), sending PING (ping mode) or NAME (name mode) in a closed
 * loop, with latency histograms and counters; over TCP, or over WebSocket
 * (--ws).  With
 * --resume a game-mode player whose connection is lost reconnects and
 * takes its seat back with RESUME <token>.
 */
#ifndef BENCH_H
#define BENCH_H

#include <sys/socket.h>

#include <stddef.h>
#include <stdint.h>

#include "bench-due.h"
#include "bench-ws.h"
#include "hist.h"
#include "proto.h"
#include "ttt.h"

#define BENCH_SRC_MAX	64	/* --src addresses */
#define BENCH_DST_MAX	16	/* ports in PORT,PORT,... */
#define BENCH_PORT_LEN	6	/* "65535" and its NUL */
#define BCONN_IN_MAX	512	/* a partial server line kept between reads */
#define BCONN_OUT_MAX	64	/* unsent bytes of our own short lines */

enum bench_mode {
	BENCH_PING,
	BENCH_GAME,
	BENCH_RELAY,		/* ref-server --relay: PING in pairs, by turns */
	BENCH_NAME		/* tttd: NAME in a closed loop, in a room */
};

extern const char *const bench_mode_names[];	/* by enum bench_mode */
extern const char *const bench_mode_ops[];	/* what an op is called */

struct bench_opts {
	const char		*host;
	const char		*port;		/* PORT as given: one port, or
						   a comma-separated list */
	int			 conns;
	double			 duration;	/* seconds measured (a cap with
						   --games or --ops) */
	uint64_t		 games;		/* game mode: stop after this
						   many games; 0: no limit */
	uint64_t		 ops;		/* stop after this many ops;
						   0: no limit */
	double			 ramp;		/* connections a second; 0: all */
	double			 connect_timeout;	/* seconds */
	double			 warmup;	/* seconds between the ramp
						   and the measurement */
	int			 think_ms;
	int			 jitter;	/* think +- this % at random */
	enum bench_mode		 mode;
	int			 json;
	int			 progress;
	int			 busy_poll;	/* never sleep in epoll_wait */
	int			 kstamp;	/* replies timed by the kernel */
	int			 ws;		/* WebSocket: GET /ws first */
	int			 resume;	/* game: reconnect and RESUME */
	int			 drop_every;	/* --resume: close after every
						   Nth move; 0: never */
	double			 reconnect_for;	/* --resume: seconds from a
						   loss to giving up */
	const char		*reg;		/* --register: each player
						   signs in as this and its
						   number; NULL: guests */
	/* PORT's ports, resolved: connection i goes to dst[i % ndst]. */
	struct sockaddr_storage	 dst[BENCH_DST_MAX];
	socklen_t		 dstlen[BENCH_DST_MAX];
	char			 dstport[BENCH_DST_MAX][BENCH_PORT_LEN];
	int			 ndst;
	struct sockaddr_storage	 src[BENCH_SRC_MAX];
	socklen_t		 srclen[BENCH_SRC_MAX];
	int			 nsrc;
};

enum bconn_state {
	BCONN_IDLE = 0,		/* not started yet */
	BCONN_CONNECTING,
	BCONN_UPGRADING,	/* --ws: connected, the 101 not in yet */
	BCONN_OPEN,
	BCONN_CLOSED,
	BCONN_RETRY		/* --resume: lost, to connect again when due */
};

/* One connection; indexed by its place in struct bench's array. */
struct bconn {
	int		fd;
	uint8_t		state;		/* enum bconn_state */
	uint8_t		mark;		/* game: enum ttt_mark, from MATCH */
	uint8_t		waiting;	/* a request is out, sent at sent_ns */
	uint8_t		thinking;	/* game: a move is due on the timer */
	uint8_t		wantout;	/* EPOLLOUT is on */
	uint8_t		dst;		/* the port it is connected to */
	uint8_t		named;		/* name: NAMEs sent (mod 256) */
	uint8_t		moved;		/* game: OK MOVE in, no TURN since:
					   a RESULT now ends our move's
					   game (sent at sent_ns) */
	char		cells[TTT_CELLS];	/* game: the last BOARD */
	uint16_t	inlen;
	uint16_t	outlen;
	int64_t		sent_ns;
	int64_t		connect_by;	/* connecting: give up at this time */
	char		in[BCONN_IN_MAX];
	char		out[BCONN_OUT_MAX];
};

/*
 * --ws: a connection's WebSocket state, beside its struct bconn (which
 * meanwhile keeps the answer to the upgrade in its in[]).
 */
struct bws {
	struct bench_ws_rx	rx;
	uint8_t			ended;	/* a close, or a bad frame */
	char			accept[BENCH_WS_ACCEPT_LEN + 1];
};

/* How a connection's last BYE line read. */
enum bres_bye {
	BRES_BYE_NONE = 0,
	BRES_BYE_RESTART,	/* the draining node's: reconnect and RESUME */
	BRES_BYE_OTHER		/* any other: the server is done with us */
};

/*
 * --resume: a player's seat and its way back, beside its struct bconn.
 * A loss starts an episode (lost_ns set), which ends at OK RESUME, at a
 * refused RESUME, once a player without a token is queued again, or
 * when the player gives up.
 */
#define BRES_HIST	8	/* lines kept per player */
#define BRES_HIST_LINE	48	/* bytes kept of each */
#define BRES_ERR_SHOWN	5	/* ERRs shown with their lines */

struct bres {
	int64_t		lost_ns;	/* the loss; 0: not away */
	int64_t		retry_by;	/* give up connecting after this */
	uint32_t	moved;		/* moves since the last --drop-every */
	uint16_t	backoff_ms;	/* before the next connect attempt */
	uint8_t		resuming;	/* RESUME sent, not answered yet */
	uint8_t		bye;		/* enum bres_bye */
	uint8_t		drop_due;	/* --drop-every: close at our TURN */
	char		token[PROTO_TOKEN_LEN + 2];	/* XXXX-XXXX, or "" */
	/* The last lines in and out, to tell what led to an ERR: */
	char		hist[BRES_HIST][BRES_HIST_LINE];
	uint8_t		hist_next;	/* the oldest, overwritten next */
};

/* Counters; ops, games and latencies only while measuring. */
struct bench_stats {
	uint64_t	connect_errors;
	uint64_t	drops;		/* open connections the server ended */
	uint64_t	errs;		/* ERR lines */
	uint64_t	bad;		/* lines that are not tttd/1 */
	uint64_t	games;		/* games won or tied */
	uint64_t	forfeits;	/* RESULT FORFEIT lines */
	uint64_t	ops;		/* moves or pings acknowledged */
	uint64_t	held;		/* open at the end */
	/* --register, counted over the whole run (ramp included): */
	uint64_t	registered;	/* OK REGISTER */
	/* --register, while measuring, each game once (X counts it): */
	uint64_t	rated;		/* INFO Your rating: ... */
	uint64_t	unrated;	/* INFO This game is not rated ... */
	struct hist	lat;		/* nanoseconds, request to reply */
	struct hist	last;		/* game: nanoseconds, a game's last
					   MOVE to its mover's RESULT */
	/* --resume, counted over the whole run (ramp included): */
	uint64_t	losses;		/* connections lost: episodes */
	uint64_t	reconnects;	/* connections up again after one */
	uint64_t	resumes;	/* OK RESUME */
	uint64_t	resume_refused;	/* ERR in answer to RESUME */
	uint64_t	gave_up;	/* no connection within the bound */
	uint64_t	lost_forfeits;	/* RESULT FORFEIT ... lost the
					   connection */
	uint64_t	games_lost;	/* refused + gave up with a token +
					   lost_forfeits */
	struct hist	resume_lat;	/* nanoseconds, loss to OK RESUME */
};

/* With several ports: the ops and latencies of each port's connections. */
struct bench_port_stats {
	uint64_t	ops;
	struct hist	lat;
};

struct bench {
	const struct bench_opts	*opts;
	struct bconn		*conns;
	struct bws		*ws;		/* --ws: by connection; else
						   NULL */
	struct bres		*res;		/* --resume: by connection;
						   else NULL */
	int			 epfd;
	int			 started;	/* connections begun */
	int			 nconnecting;
	int			 nopen;
	int			 measuring;
	int			 finished;	/* --games or --ops reached */
	int			 connect_errno;	/* the first connect error */
	int			 ws_refused;	/* an upgrade was refused */
	int64_t			 t0_ns;		/* the first connection */
	int64_t			 start_ns;	/* measuring from */
	int64_t			 stop_ns;	/* measuring until */
	int64_t			 rx_ns;		/* --kstamp: the read's arrival */
	struct bench_dueq	 dueq;		/* moves thought over */
	uint64_t		 rng;		/* --think-jitter's xorshift */
	uint64_t		 ws_rng;	/* --ws: keys and masks */
	uint64_t		 prog_ops;	/* ops at the last progress line */
	struct bench_stats	 st;
	struct bench_port_stats	*ports;		/* by port, with several;
						   else NULL */
};

/* bench-loop.c */
int	bench_loop_run(struct bench *);
int64_t	bench_loop_now(void);
int64_t	bench_loop_stamp(const struct bench *);
int64_t	bench_loop_rx(const struct bench *);
void	bench_loop_connect(struct bench *, struct bconn *, int64_t);
void	bench_loop_send(struct bench *, struct bconn *, const char *, size_t);
void	bench_loop_after(struct bench *, struct bconn *, int64_t);
void	bench_loop_lost(struct bench *, struct bconn *, int);
void	bench_loop_limit(struct bench *);

/* bench-play.c */
void	bench_play_open(struct bench *, struct bconn *);
void	bench_play_line(struct bench *, struct bconn *, const char *, size_t);
void	bench_play_due(struct bench *, struct bconn *);

/* bench-resume.c */
int	bench_resume_again(const struct bench *, const struct bconn *);
void	bench_resume_lost(struct bench *, struct bconn *, int);
void	bench_resume_retry(struct bench *, struct bconn *);
void	bench_resume_open(struct bench *, struct bconn *);
int	bench_resume_event(struct bench *, struct bconn *,
	    const struct proto_event *);
void	bench_resume_moved(struct bench *, struct bconn *);
void	bench_resume_note(struct bench *, struct bconn *, char, const char *,
	    size_t);

/* bench-report.c */
void	bench_report(const struct bench *);
void	bench_report_progress(struct bench *, int64_t);

#endif /* BENCH_H */
