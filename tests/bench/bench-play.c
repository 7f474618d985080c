/*
 * bench-play.c -- what one connection says: PING in a closed loop, or whole
 * tttd games as a real client.
 *
 * Ping mode sends PING, and the next one as soon as the reply is in (or
 * --think ms later).  It counts only reply lines that start with "OK PONG"
 * (tttd, the reference server) or "+PONG" (redis): tttd's greeting and
 * game lines (HELLO, WAIT, MATCH, ...) come unasked and are skipped.  An
 * error line ("ERR ..." or redis's "-ERR ...", "-DENIED ...") ends the
 * request too, and counts as an ERR.
 *
 * Game mode reads every line with proto_event_parse, keeps the board from
 * BOARD lines, and on its own TURN plays the first free cell in a fixed
 * order after --think ms, so games always end; it answers AGAIN? with yes.
 * A game's last move is also timed to its mover's RESULT (the last
 * histogram): tttd holds both players' output at a rated game's end (the
 * mover's OK MOVE, BOARD, RESULT) until the record is committed, so that
 * move waits for the commit, and among all moves it is one in seven.
 * With --resume, bench-resume.c sees each line first (tokens, the answer
 * to RESUME, the restart BYE) and the moves made (--drop-every).
 *
 * Relay mode (against ref-server --relay) is a game at its barest: a
 * connection sends PING only when told its partner has (an "OK PONG" it
 * did not ask for), and the reply to its own counts.
 *
 * Name mode renames in a closed loop, the cost of NAME: each connection
 * opens a private room first (ROOM NEW: never paired, so no rename is
 * told to an opponent or rate-limited), then sends NAME with the names
 * of bench_play_names in turn, each followed by "-" and the connection's
 * number so that no two connections ever want one name; an "OK NAME"
 * reply counts, and goes with the next NAME.
 *
 * With --register PREFIX, a game-mode player first signs in: NAME
 * PREFIX<its number>, then REGISTER (its KEY line is skipped), so that its
 * games against another such player are rated; X counts each game's
 * INFO with its new rating (rated), or that it is not rated.
 */
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "proto.h"

const char *const bench_mode_names[] = { "ping", "game", "relay", "name",
    NULL };
const char *const bench_mode_ops[] = { "pings", "moves", "relays", "names",
    NULL };

/* Name mode's names, in turn: two in ASCII, two beyond it. */
static const char *const bench_play_names[] = {
	"alice", "Zo\xc3\xab", "\xd0\xaf\xd0\xbd\xd0\xb0",
	"Bob_smith"
};
#define BENCH_PLAY_NNAMES \
	(sizeof bench_play_names / sizeof bench_play_names[0])

static int	bench_play_prefix(const char *, size_t, const char *);
static void	bench_play_ping(struct bench *, struct bconn *);
static void	bench_play_name(struct bench *, struct bconn *);
static void	bench_play_ask(struct bench *, struct bconn *);
static void	bench_play_next(struct bench *, struct bconn *);
static void	bench_play_reply(struct bench *, struct bconn *, int);
static void	bench_play_move(struct bench *, struct bconn *);
static void	bench_play_register(struct bench *, struct bconn *);
static int64_t	bench_play_think(struct bench *);
static void	bench_play_pong(struct bench *, struct bconn *, const char *,
		    size_t);
static void	bench_play_named(struct bench *, struct bconn *, const char *,
		    size_t);
static void	bench_play_event(struct bench *, struct bconn *,
		    const struct proto_event *);
static int	bench_play_account(struct bench *, struct bconn *,
		    const char *, size_t);

/* Does a line start with this string? */
static int
bench_play_prefix(const char *line, size_t len, const char *s)
{
	size_t	n = strlen(s);

	return (len >= n && memcmp(line, s, n) == 0);
}

/* Send the next PING and note when it left. */
static void
bench_play_ping(struct bench *b, struct bconn *c)
{
	c->waiting = 1;
	c->sent_ns = bench_loop_stamp(b);
	bench_loop_send(b, c, "PING\n", 5);
}

/* Send the next NAME (name mode) and note when it left. */
static void
bench_play_name(struct bench *b, struct bconn *c)
{
	char	line[BCONN_OUT_MAX];
	int	n;

	n = snprintf(line, sizeof line, "NAME %s-%d\n",
	    bench_play_names[c->named++ % BENCH_PLAY_NNAMES],
	    (int)(c - b->conns));
	c->waiting = 1;
	c->sent_ns = bench_loop_stamp(b);
	bench_loop_send(b, c, line, (size_t)n);
}

/* The next request of ping or name mode: PING or NAME. */
static void
bench_play_ask(struct bench *b, struct bconn *c)
{
	if (b->opts->mode == BENCH_NAME)
		bench_play_name(b, c);
	else
		bench_play_ping(b, c);
}

/* Ping and name mode: the next request, at once or after --think ms. */
static void
bench_play_next(struct bench *b, struct bconn *c)
{
	if (b->opts->think_ms == 0) {
		bench_play_ask(b, c);
		return;
	}
	c->thinking = 1;
	bench_loop_after(b, c, bench_play_think(b));
}

/*
 * The reply to the request out: count it and its latency if measuring,
 * and with several ports, in its port's figures too.
 */
static void
bench_play_reply(struct bench *b, struct bconn *c, int ok)
{
	struct bench_port_stats	*ps;
	uint64_t		 ns;

	if (!c->waiting)
		return;
	c->waiting = 0;
	if (!ok || !b->measuring)
		return;
	ns = (uint64_t)(bench_loop_rx(b) - c->sent_ns);
	b->st.ops++;
	hist_record(&b->st.lat, ns);
	if (b->ports != NULL) {
		ps = &b->ports[c->dst];
		ps->ops++;
		hist_record(&ps->lat, ns);
	}
	bench_loop_limit(b);
}

/* Play the first free cell, in the order A1 B1 C1 A2 ... C3. */
static void
bench_play_move(struct bench *b, struct bconn *c)
{
	char	line[16];
	int	i;

	c->thinking = 0;
	for (i = 0; i < TTT_CELLS; i++) {
		if (c->cells[i] == '.')
			break;
	}
	if (i == TTT_CELLS)
		return;		/* a full board is never our turn */
	memcpy(line, "MOVE ", 5);
	ttt_cell_name(i, line + 5);
	line[7] = '\n';
	c->waiting = 1;
	c->sent_ns = bench_loop_stamp(b);
	bench_loop_send(b, c, line, 8);
}

/*
 * The think time of one move, in ns: --think ms, or with --think-jitter
 * drawn evenly from think +- jitter % (the same mean), so that moves that
 * happened to come back together do not stay in step forever.
 */
static int64_t
bench_play_think(struct bench *b)
{
	int64_t		think = (int64_t)b->opts->think_ms * 1000000;
	int64_t		span = think * b->opts->jitter / 100;
	uint64_t	x = b->rng;

	if (span == 0)
		return (think);
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	b->rng = x;
	return (think - span + (int64_t)(x % (uint64_t)(2 * span + 1)));
}

/* --register: sign in as PREFIX and the connection's number. */
static void
bench_play_register(struct bench *b, struct bconn *c)
{
	char	line[BCONN_OUT_MAX];
	int	n;

	n = snprintf(line, sizeof line, "NAME %s%d\nREGISTER\n",
	    b->opts->reg, (int)(c - b->conns));
	bench_loop_send(b, c, line, (size_t)n);
}

/*
 * --register: the lines of an account (OK REGISTER, KEY, and the INFO
 * after a game of two players signed in): 1 when taken, 0 for others.
 */
static int
bench_play_account(struct bench *b, struct bconn *c, const char *line,
    size_t len)
{
	if (bench_play_prefix(line, len, "OK REGISTER ")) {
		b->st.registered++;
		return (1);
	}
	if (bench_play_prefix(line, len, "KEY "))
		return (1);
	if (c->mark != TTT_X || !b->measuring)
		return (0);
	if (bench_play_prefix(line, len, "INFO Your rating: "))
		b->st.rated++;
	else if (bench_play_prefix(line, len, "INFO This game is not rated"))
		b->st.unrated++;
	return (0);
}

/* A connection is up: ping mode sends its first PING, name mode its room. */
void
bench_play_open(struct bench *b, struct bconn *c)
{
	memset(c->cells, '.', sizeof c->cells);
	if (b->opts->mode == BENCH_PING)
		bench_play_ping(b, c);
	else if (b->opts->mode == BENCH_NAME)
		bench_loop_send(b, c, "ROOM NEW\n", 9);
	else if (b->res != NULL)
		bench_resume_open(b, c);
	else if (b->opts->reg != NULL)
		bench_play_register(b, c);
}

/* A think time is over: play the move (if still our turn), or PING. */
void
bench_play_due(struct bench *b, struct bconn *c)
{
	if (!c->thinking || c->state != BCONN_OPEN)
		return;
	c->thinking = 0;
	if (b->opts->mode != BENCH_GAME)
		bench_play_ask(b, c);
	else
		bench_play_move(b, c);
}

/*
 * Ping mode: a reply goes with the next PING, other lines are skipped.
 * Relay mode: a reply only counts; an "OK PONG" unasked is our turn.
 */
static void
bench_play_pong(struct bench *b, struct bconn *c, const char *line,
    size_t len)
{
	int	relay = b->opts->mode == BENCH_RELAY;
	int	asked = c->waiting;

	if (bench_play_prefix(line, len, "OK PONG") ||
	    bench_play_prefix(line, len, "+PONG")) {
		bench_play_reply(b, c, 1);
		if (!relay || !asked)
			bench_play_next(b, c);
	} else if (bench_play_prefix(line, len, "ERR ") ||
	    bench_play_prefix(line, len, "-")) {
		b->st.errs++;
		if (asked) {
			bench_play_reply(b, c, 0);
			if (!relay)
				bench_play_next(b, c);
		}
	}
}

/*
 * Name mode: the room's OK starts the renames; an OK NAME goes with the
 * next NAME; an ERR counts, and the renames go on.
 */
static void
bench_play_named(struct bench *b, struct bconn *c, const char *line,
    size_t len)
{
	if (bench_play_prefix(line, len, "OK ROOM "))
		bench_play_name(b, c);
	else if (bench_play_prefix(line, len, "OK NAME ")) {
		bench_play_reply(b, c, 1);
		bench_play_next(b, c);
	} else if (bench_play_prefix(line, len, "ERR ")) {
		b->st.errs++;
		if (c->waiting) {
			bench_play_reply(b, c, 0);
			bench_play_next(b, c);
		}
	}
}

/* Game mode: one server line, taken apart. */
static void
bench_play_event(struct bench *b, struct bconn *c,
    const struct proto_event *ev)
{
	if (b->res != NULL && bench_resume_event(b, c, ev))
		return;
	switch (ev->kind) {
	case PROTO_EV_MATCH:
		c->mark = (uint8_t)ev->mark;
		break;
	case PROTO_EV_BOARD:
		memcpy(c->cells, ev->cells, sizeof c->cells);
		break;
	case PROTO_EV_TURN:
		/*
		 * Our move already sent and not answered: this TURN is
		 * older news (a match taken up shows its player where it
		 * stands, then runs the lines it sent meanwhile, our MOVE
		 * among them: protocol.md §11); the MOVE's answer says
		 * what comes next.
		 */
		c->moved = 0;
		if (ev->mark != (enum ttt_mark)c->mark || c->thinking ||
		    c->waiting)
			break;
		c->thinking = 1;
		if (b->opts->think_ms == 0)
			bench_play_move(b, c);
		else
			bench_loop_after(b, c, bench_play_think(b));
		break;
	case PROTO_EV_OK:
		if (ev->verb != PROTO_MOVE)
			break;
		bench_play_reply(b, c, 1);
		c->moved = 1;
		if (b->res != NULL)
			bench_resume_moved(b, c);
		break;
	case PROTO_EV_ERR:
		b->st.errs++;
		bench_play_reply(b, c, 0);
		break;
	case PROTO_EV_RESULT:
		if (c->moved && ev->result != PROTO_RESULT_FORFEIT &&
		    b->measuring)
			hist_record(&b->st.last,
			    (uint64_t)(bench_loop_rx(b) - c->sent_ns));
		c->moved = 0;
		if (ev->result == PROTO_RESULT_FORFEIT)
			b->st.forfeits++;
		else if (c->mark == TTT_X && b->measuring) {
			b->st.games++;	/* each game once: X counts it */
			bench_loop_limit(b);
		}
		break;
	case PROTO_EV_AGAINQ:
		bench_loop_send(b, c, "AGAIN y\n", 8);
		break;
	default:
		break;
	}
}

/* One complete line from the server, without its LF. */
void
bench_play_line(struct bench *b, struct bconn *c, const char *line,
    size_t len)
{
	struct proto_event	ev;

	if (b->opts->mode == BENCH_NAME) {
		bench_play_named(b, c, line, len);
		return;
	}
	if (b->opts->mode != BENCH_GAME) {
		bench_play_pong(b, c, line, len);
		return;
	}
	if (len > 0 && line[0] == ' ')
		return;		/* for people: the board art */
	if (b->res != NULL)
		bench_resume_note(b, c, '<', line, len);
	if (b->opts->reg != NULL && bench_play_account(b, c, line, len))
		return;
	if (proto_event_parse(line, len, &ev) == -1) {
		b->st.bad++;	/* not tttd/1 */
		return;
	}
	bench_play_event(b, c, &ev);
}
