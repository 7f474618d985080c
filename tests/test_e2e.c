/*
 * test_e2e.c -- the real tttd over real sockets: what a client can observe,
 * checked line by line against the protocol brief (protocol-v1.md).
 *
 * Each test starts its own server through a per-test fixture, so the tests
 * do not depend on their order; the fixture's teardown kills whatever a
 * failed test left behind.  Every read is bounded by HARNESS_TIMEOUT_MS.
 * The first game of a match starts with a random player, so the helpers
 * read START and play a script relative to whoever starts.
 */
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>

#include <errno.h>
#include <poll.h>
#include <regex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "harness.h"
#include "e2e_fix.h"
#include "e2e_game.h"

/* Server lines, exactly as the brief fixes them. */
#define T_BYE_SHUTDOWN	"BYE Server shutting down."
#define T_PONG		"OK PONG"

#define E_TOO_LONG	"ERR LINE_TOO_LONG Lines are limited to 256 bytes."
#define E_BAD_CHAR	"ERR BAD_CHAR Only UTF-8 text without control characters is accepted."
#define E_UNKNOWN	"ERR UNKNOWN_COMMAND Unknown command. Type HELP for the list of commands."
#define E_BAD_CELL	"ERR BAD_CELL Invalid input. Accepted examples: A1, b2, C3."
#define E_BAD_NAME	"ERR BAD_NAME A name is 1 to 16 letters, digits, '_' or '-'."
#define E_BAD_ANSWER	"ERR BAD_ANSWER Please enter y or n."
#define E_TAKEN		"ERR TAKEN That square is already taken. Try again."
#define E_SERVER_FULL	"ERR SERVER_FULL The server is full. Please try again later."

/* Game scripts, relative to whoever starts: first, second, first, ... */
#define S_FIRST_WINS	"A1 A2 B1 B2 C1"
#define S_SECOND_WINS	"A1 B1 A2 B2 C3 B3"
#define S_TIE		"B2 A1 C1 A3 A2 C2 B1 B3 C3"

#define QUIET_MS	150	/* how long "nothing arrives" is watched */

static void		 want_bytes_at(int, struct conn *, const char *,
			    size_t);
static void		 write_at(int, struct conn *, const void *, size_t);
static void		 conn_reset(struct conn *);
static void		 pair_at(int, struct e2e *, struct tttd_proc *,
			    struct game *);
static void		 seeded_starters(struct e2e *, const char *,
			    char[4]);
static int		 garbage_chunk(struct conn *, uint32_t *, int *, int);
static int		 log_has(struct tttd_proc *, char *, size_t,
			    const char *, const char *, const char *);

#define WANT_PREFIX(c, p)	line_want_prefix_at(__LINE__, (c), (p), NULL, 0)
#define WANT_BYTES(c, s) \
	want_bytes_at(__LINE__, (c), (s), sizeof (s) - 1)
#define WANT_QUIET(c)		line_want_quiet_at(__LINE__, (c), QUIET_MS)
#define SEND(c, s)		line_send_at(__LINE__, (c), "%s", (s))
#define WRITE(c, s)		write_at(__LINE__, (c), (s), sizeof (s) - 1)
#define GAME_MOVE(g, s, c)	game_move_at(__LINE__, (g), (s), (c))
#define GAME_REMATCH(g, a, s1, s2, f) \
	game_rematch_at(__LINE__, (g), (a), (s1), (s2), (f))
#define PAIR(e, tp, g)		pair_at(__LINE__, (e), (tp), (g))

/* The next bytes on the wire must be exactly these. */
static void
want_bytes_at(int ln, struct conn *c, const char *want, size_t len)
{
	long	deadline = harness_now_ms() + HARNESS_TIMEOUT_MS;

	while (c->len < len) {
		struct pollfd	pfd = { c->fd, POLLIN, 0 };
		long		left = deadline - harness_now_ms();
		ssize_t		r;

		if (left <= 0 || poll(&pfd, 1, (int)left) <= 0)
			fail_msg("line %d: %s: timeout after %zu of %zu bytes",
			    ln, line_label(c), c->len, len);
		r = recv(c->fd, c->buf + c->len, sizeof c->buf - c->len, 0);
		if (r <= 0)
			fail_msg("line %d: %s: EOF after %zu of %zu bytes",
			    ln, line_label(c), c->len, len);
		c->len += (size_t)r;
	}
	if (memcmp(c->buf, want, len) != 0)
		fail_msg("line %d: %s: expected bytes \"%s\", got \"%.*s\"",
		    ln, line_label(c), want, (int)len, c->buf);
	c->len -= len;
	memmove(c->buf, c->buf + len, c->len);
}

/* Send raw bytes. */
static void
write_at(int ln, struct conn *c, const void *data, size_t len)
{
	if (conn_write(c, data, len) != 0)
		fail_msg("line %d: %s: cannot send %zu bytes: %s", ln,
		    line_label(c), len, strerror(errno));
}

/* Close with a reset (SO_LINGER 0), the harshest way to drop. */
static void
conn_reset(struct conn *c)
{
	struct linger	l = { 1, 0 };

	setsockopt(c->fd, SOL_SOCKET, SO_LINGER, &l, sizeof l);
	conn_close(c);
}

/* Two new connections, paired: the earlier one is X. */
static void
pair_at(int ln, struct e2e *e, struct tttd_proc *tp, struct game *g)
{
	struct conn	*x, *o;

	x = e2e_connect_at(ln, e, tp);
	o = e2e_connect_at(ln, e, tp);
	game_init(g, x, o, "p1", "p2");
	game_match_at(ln, g);
	game_start_at(ln, g, -1);
}

/* 1. The greeting, and first come first served pairing. */
static void
test_e2e_greeting_and_pairing(void **state)
{
	struct e2e		*e = *state;
	struct tttd_proc	*tp = e2e_server(e, NULL);
	struct conn		*a, *b;
	struct game		 g;

	a = e2e_conn(e);
	assert_int_equal(conn_open(a, tp->port), 0);
	line_nodelay(a);
	/* Exact bytes: every server line ends in CRLF. */
	WANT_BYTES(a, T_HELLO "\r\n" T_HELLO_HUMAN "\r\n" T_WAIT "\r\n");
	WANT_QUIET(a);

	/* The second gets WAIT too, although an opponent is waiting. */
	b = e2e_conn(e);
	assert_int_equal(conn_open(b, tp->port), 0);
	line_nodelay(b);
	WANT_BYTES(b, T_HELLO "\r\n" T_HELLO_HUMAN "\r\n" T_WAIT "\r\n");
	WANT_RAW(a, "MATCH X p2 You play X against p2.");
	WANT_RAW(b, "MATCH O p1 You play O against p1.");

	game_init(&g, a, b, "p1", "p2");
	g.art = 1;	/* every line after MATCH read raw, art included */
	GAME_START(&g, -1);
	WANT_QUIET(a);
	WANT_QUIET(b);
	e2e_stop(e, tp);
}

/* 2. A game to a win, every move's lines checked, the art every time. */
static void
test_e2e_full_game_win(void **state)
{
	struct e2e		*e = *state;
	struct tttd_proc	*tp = e2e_server(e, NULL);
	struct game		 g;
	int			 first;

	PAIR(e, tp, &g);
	first = g.turn;
	g.art = 1;
	GAME_PLAY(&g, S_SECOND_WINS);
	assert_int_equal(g.state, GAME_WON);
	assert_int_equal(g.winner, !first);
	WANT_QUIET(g.p[0]);
	WANT_QUIET(g.p[1]);
	e2e_stop(e, tp);
}

/* 3. A game to a tie. */
static void
test_e2e_full_game_tie(void **state)
{
	struct e2e		*e = *state;
	struct tttd_proc	*tp = e2e_server(e, NULL);
	struct game		 g;

	PAIR(e, tp, &g);
	GAME_PLAY(&g, S_TIE);
	assert_int_equal(g.state, GAME_TIE);
	WANT_QUIET(g.p[0]);
	WANT_QUIET(g.p[1]);
	e2e_stop(e, tp);
}

/* 4. Both say yes: the winner starts the next game; no new MATCH. */
static void
test_e2e_rematch_winner_starts(void **state)
{
	struct e2e		*e = *state;
	struct tttd_proc	*tp = e2e_server(e, NULL);
	struct game		 g;
	int			 w, l;

	PAIR(e, tp, &g);
	GAME_PLAY(&g, S_FIRST_WINS);
	w = g.winner;
	l = !w;

	/* The loser answers first: OK, then WAIT for the winner. */
	SEND(g.p[l], "AGAIN y");
	WANT_RAW(g.p[l], "OK AGAIN y");
	WANT_RAW(g.p[l], "WAIT Waiting for %s to answer...", g.name[w]);
	/* Answered: no question is open for it any more. */
	SEND(g.p[l], "AGAIN y");
	WANT_RAW(g.p[l], E_NOT_NOW);
	SEND(g.p[l], "n");
	WANT_RAW(g.p[l], E_NOT_NOW);
	/* Waiting for the answer: no game, but still in the match. */
	SEND(g.p[l], "MOVE C3");
	WANT_RAW(g.p[l], E_NO_GAME);
	SEND(g.p[l], "BOARD");
	WANT_RAW(g.p[l], "OK BOARD");
	WANT_BOARD(g.p[l], g.cells);
	WANT_QUIET(g.p[w]);

	/* A bare yes from the winner starts game 2, winner first. */
	SEND(g.p[w], "yes");
	WANT_RAW(g.p[w], "OK AGAIN y");
	GAME_START(&g, w);

	/* Now the other one wins, and starts game 3. */
	GAME_PLAY(&g, S_SECOND_WINS);
	assert_int_equal(g.winner, l);
	GAME_REMATCH(&g, l, "AGAIN YES", "Y", l);
	WANT_QUIET(g.p[0]);
	WANT_QUIET(g.p[1]);
	e2e_stop(e, tp);
}

/*
 * One server with --seed: who starts the first game and two rematches
 * after ties, as "XOX".
 */
static void
seeded_starters(struct e2e *e, const char *seed, char out[4])
{
	const char *const	 extra[] = { "--seed", seed, NULL };
	struct tttd_proc	*tp = e2e_server(e, extra);
	struct game		 g;
	int			 i;

	PAIR(e, tp, &g);
	out[0] = game_mark(g.turn);
	for (i = 1; i <= 2; i++) {
		GAME_PLAY(&g, S_TIE);
		GAME_REMATCH(&g, i - 1, "y", "AGAIN yes", -1);
		out[i] = game_mark(g.turn);
	}
	out[3] = '\0';
	conn_close(g.p[0]);
	conn_close(g.p[1]);
	e2e_stop(e, tp);
}

/* 4b. After a tie the rematch start is random, and --seed repeats it. */
static void
test_e2e_tie_rematch_start_is_seeded_random(void **state)
{
	static const char *const	 seeds[] = { "1", "2", "3", "4" };
	struct e2e			*e = *state;
	char				 seq[4][4], again[4];
	int				 i, first[2] = { 0, 0 },
					 rematch[2] = { 0, 0 };

	for (i = 0; i < 4; i++) {
		seeded_starters(e, seeds[i], seq[i]);
		first[seq[i][0] == 'O']++;
		rematch[seq[i][1] == 'O']++;
		rematch[seq[i][2] == 'O']++;
	}
	for (i = 0; i < 4; i++) {
		seeded_starters(e, seeds[i], again);
		if (strcmp(seq[i], again) != 0)
			fail_msg("--seed %s: starters %s, then %s", seeds[i],
			    seq[i], again);
	}
	if (rematch[0] == 0 || rematch[1] == 0)
		fail_msg("tie rematches: X started %d, O started %d; both "
		    "should start some", rematch[0], rematch[1]);
	if (first[0] == 0 || first[1] == 0)
		fail_msg("first games: X started %d, O started %d; both "
		    "should start some", first[0], first[1]);
	/* The spec's example: with seed 7 the first match starts with O. */
	seeded_starters(e, "7", again);
	if (again[0] != 'O')
		fail_msg("--seed 7: the first game starts with %c, not O",
		    again[0]);
}

/* 5. AGAIN no: BYE and close; the other says yes and is paired again. */
static void
test_e2e_again_no_requeues_other(void **state)
{
	struct e2e		*e = *state;
	struct tttd_proc	*tp = e2e_server(e, NULL);
	struct game		 g, g2;
	struct conn		*q, *r, *c;
	char			 board[10];

	PAIR(e, tp, &g);
	GAME_PLAY(&g, S_FIRST_WINS);
	memcpy(board, g.cells, sizeof board);
	q = g.p[0];		/* p1 says no */
	r = g.p[1];

	SEND(q, "AGAIN n");
	WANT_RAW(q, "OK AGAIN n");
	WANT_RAW(q, T_BYE);
	WANT_EOF(q);
	WANT_RAW(r, "INFO p1 left the match.");

	/* Still in its match until it answers: BOARD works. */
	SEND(r, "BOARD");
	WANT_RAW(r, "OK BOARD");
	WANT_BOARD(r, board);
	/* A name set now is kept for the next match. */
	SEND(r, "NAME rita");
	WANT_RAW(r, "OK NAME rita");
	SEND(r, "y");
	WANT_RAW(r, "OK AGAIN y");
	WANT_RAW(r, T_WAIT);
	/* Back in the queue: no game. */
	SEND(r, "BOARD");
	WANT_RAW(r, E_NO_GAME);
	WANT_QUIET(r);

	/* A newcomer: r queued longer, so r is p1 = X now. */
	c = CONNECT(e, tp);
	game_init(&g2, r, c, "rita", "p2");
	GAME_MATCH(&g2);
	GAME_START(&g2, -1);
	GAME_PLAY(&g2, S_TIE);
	e2e_stop(e, tp);
}

/*
 * 5b. The other had said yes before the no: INFO, then WAIT, and it is in
 * the queue again -- behind a newcomer that queued while it was answering.
 */
static void
test_e2e_again_yes_then_other_no_requeues(void **state)
{
	struct e2e		*e = *state;
	struct tttd_proc	*tp = e2e_server(e, NULL);
	struct game		 g, g2;
	struct conn		*q, *r, *c;

	PAIR(e, tp, &g);
	GAME_PLAY(&g, S_SECOND_WINS);
	r = g.p[0];		/* p1 says yes */
	q = g.p[1];		/* p2 says no */

	SEND(r, "yes");
	WANT_RAW(r, "OK AGAIN y");
	WANT_RAW(r, "WAIT Waiting for p2 to answer...");

	/*
	 * A newcomer queues while the question is open: it is alone.  (Past
	 * its first half second, when a new connection joins the queue.)
	 */
	c = CONNECT(e, tp);
	line_want_quiet_at(__LINE__, c, 700);

	SEND(q, "no");
	WANT_RAW(q, "OK AGAIN n");
	WANT_RAW(q, T_BYE);
	WANT_EOF(q);
	WANT_RAW(r, "INFO p2 left the match.");
	WANT_RAW(r, T_WAIT);

	/* c queued first (since r's latest entry): c is p1 = X. */
	game_init(&g2, c, r, "p1", "p2");
	GAME_MATCH(&g2);
	GAME_START(&g2, -1);
	GAME_PLAY(&g2, S_FIRST_WINS);
	e2e_stop(e, tp);
}

/* 6. QUIT mid-game: BYE to the quitter, a forfeit win to the other. */
static void
test_e2e_quit_mid_game_forfeits(void **state)
{
	struct e2e		*e = *state;
	struct tttd_proc	*tp = e2e_server(e, NULL);
	struct game		 g, g2;
	struct conn		*c;

	PAIR(e, tp, &g);
	GAME_MOVE(&g, "MOVE B2", 4);
	/* p1 moves too: a quit before its first move would abort (§9.2). */
	if (g.turn == 0)
		GAME_MOVE(&g, "MOVE A1", 0);
	/* What follows QUIT is discarded. */
	WRITE(g.p[0], "QUIT\r\nPING\r\n");
	WANT_RAW(g.p[0], T_BYE);
	WANT_EOF(g.p[0]);
	WANT_RAW(g.p[1], "RESULT FORFEIT O p2 p1 quit the game. p2 wins!");
	g.score[1]++;
	GAME_SCORE(&g, g.p[1]);
	WANT_RAW(g.p[1], T_AGAIN);

	/* The winner's match lives on until it answers. */
	SEND(g.p[1], "BOARD");
	WANT_RAW(g.p[1], "OK BOARD");
	WANT_BOARD(g.p[1], g.cells);
	SEND(g.p[1], "MOVE C3");
	WANT_RAW(g.p[1], E_NO_GAME);
	SEND(g.p[1], "y");
	WANT_RAW(g.p[1], "OK AGAIN y");
	WANT_RAW(g.p[1], T_WAIT);

	/*
	 * Paired again as X; now O quits, in lower case, before any move:
	 * in the first game of a match that aborts it, no result (§9.2),
	 * and X is back in the queue.
	 */
	c = CONNECT(e, tp);
	game_init(&g2, g.p[1], c, "p1", "p2");
	GAME_MATCH(&g2);
	GAME_START(&g2, -1);
	SEND(c, "quit");
	WANT_RAW(c, T_BYE);
	WANT_EOF(c);
	WANT_RAW(g2.p[0], "INFO p2 left before the first move. No result.");
	WANT_RAW(g2.p[0], T_WAIT);
	WANT_QUIET(g2.p[0]);
	e2e_stop(e, tp);
}

/* 7. A dropped connection mid-game (FIN or reset) forfeits. */
static void
test_e2e_drop_mid_game_forfeits(void **state)
{
	struct e2e		*e = *state;
	struct tttd_proc	*tp = e2e_server(e, NULL);
	struct game		 g, g2;

	PAIR(e, tp, &g);
	GAME_MOVE(&g, "A1", 0);
	conn_close(g.p[1]);
	WANT_RAW(g.p[0], "RESULT FORFEIT X p1 p2 lost the connection. "
	    "p1 wins!");
	g.score[0]++;
	GAME_SCORE(&g, g.p[0]);
	WANT_RAW(g.p[0], T_AGAIN);
	SEND(g.p[0], "AGAIN no");
	WANT_RAW(g.p[0], "OK AGAIN n");
	WANT_RAW(g.p[0], T_BYE);
	WANT_EOF(g.p[0]);

	/* X resets the connection before any move. */
	PAIR(e, tp, &g2);
	conn_reset(g2.p[0]);
	WANT_RAW(g2.p[1], "RESULT FORFEIT O p2 p1 lost the connection. "
	    "p2 wins!");
	g2.score[1]++;
	GAME_SCORE(&g2, g2.p[1]);
	WANT_RAW(g2.p[1], T_AGAIN);
	e2e_stop(e, tp);
}

/* 7b. A drop while AGAIN? is open counts as an answer of no. */
static void
test_e2e_drop_at_again_is_no(void **state)
{
	struct e2e		*e = *state;
	struct tttd_proc	*tp = e2e_server(e, NULL);
	struct game		 g, g2;

	PAIR(e, tp, &g);
	GAME_PLAY(&g, S_FIRST_WINS);
	conn_close(g.p[0]);
	WANT_RAW(g.p[1], "INFO p1 left the match.");
	WANT_QUIET(g.p[1]);
	SEND(g.p[1], "n");
	WANT_RAW(g.p[1], "OK AGAIN n");
	WANT_RAW(g.p[1], T_BYE);
	WANT_EOF(g.p[1]);

	/* O has said yes; X resets: O goes back to the queue. */
	PAIR(e, tp, &g2);
	GAME_PLAY(&g2, S_TIE);
	SEND(g2.p[1], "AGAIN y");
	WANT_RAW(g2.p[1], "OK AGAIN y");
	WANT_RAW(g2.p[1], "WAIT Waiting for p1 to answer...");
	conn_reset(g2.p[0]);
	WANT_RAW(g2.p[1], "INFO p1 left the match.");
	WANT_RAW(g2.p[1], T_WAIT);
	WANT_QUIET(g2.p[1]);
	e2e_stop(e, tp);
}

/* 8a. Waiting in the queue: no game, no question; syntax comes first. */
static void
test_e2e_errors_while_queued(void **state)
{
	struct e2e		*e = *state;
	struct tttd_proc	*tp = e2e_server(e, NULL);
	struct conn		*a;
	struct game		 g;

	a = CONNECT(e, tp);
	SEND(a, "MOVE A1");
	WANT_RAW(a, E_NO_GAME);
	SEND(a, "b2");
	WANT_RAW(a, E_NO_GAME);
	SEND(a, "BOARD");
	WANT_RAW(a, E_NO_GAME);
	SEND(a, "AGAIN y");
	WANT_RAW(a, E_NOT_NOW);
	SEND(a, "y");
	WANT_RAW(a, E_NOT_NOW);
	SEND(a, "no");
	WANT_RAW(a, E_NOT_NOW);
	/* Syntax before state. */
	SEND(a, "MOVE D1");
	WANT_RAW(a, E_BAD_CELL);
	SEND(a, "AGAIN maybe");
	WANT_RAW(a, E_BAD_ANSWER);
	SEND(a, "PING");
	WANT_RAW(a, T_PONG);
	WANT_QUIET(a);

	/* Still queued, still p1: the next one pairs with it. */
	game_init(&g, a, CONNECT(e, tp), "p1", "p2");
	GAME_MATCH(&g);
	GAME_START(&g, -1);
	e2e_stop(e, tp);
}

/* 8b. Errors in a game change nothing; the precedence of game errors. */
static void
test_e2e_errors_in_game_keep_state(void **state)
{
	struct e2e		*e = *state;
	struct tttd_proc	*tp = e2e_server(e, NULL);
	struct game		 g;
	struct conn		*m, *o;
	int			 i;

	PAIR(e, tp, &g);
	m = g.p[g.turn];	/* the first mover */
	o = g.p[!g.turn];

	SEND(o, "MOVE A1");
	WANT_RAW(o, E_NOT_YOUR_TURN);
	SEND(o, "D1");			/* syntax first */
	WANT_RAW(o, E_BAD_CELL);
	SEND(m, "AGAIN y");
	WANT_RAW(m, E_NOT_NOW);
	SEND(m, "y");
	WANT_RAW(m, E_NOT_NOW);
	SEND(m, "n");			/* not a way to leave mid-game */
	WANT_RAW(m, E_NOT_NOW);
	SEND(m, "no");
	WANT_RAW(m, E_NOT_NOW);
	SEND(m, "AGAIN maybe");		/* syntax first */
	WANT_RAW(m, E_BAD_ANSWER);
	WANT_QUIET(o);

	GAME_MOVE(&g, "move b2", 4);	/* S_TIE's first move */
	SEND(m, "MOVE B2");		/* NOT_YOUR_TURN before TAKEN */
	WANT_RAW(m, E_NOT_YOUR_TURN);
	SEND(o, "MOVE B2");
	WANT_RAW(o, E_TAKEN);
	SEND(o, "b2");
	WANT_RAW(o, E_TAKEN);
	SEND(o, "MOVE A9");
	WANT_RAW(o, E_BAD_CELL);
	SEND(o, "FOO\x1b");		/* BAD_CHAR before UNKNOWN_COMMAND */
	WANT_RAW(o, E_BAD_CHAR);
	WANT_QUIET(m);

	/*
	 * The board is unchanged and o can still move; during a game BOARD
	 * is followed by whose move it is, as each player's TURN said.
	 */
	for (i = 0; i < 2; i++) {
		SEND(g.p[i], "board");
		WANT_RAW(g.p[i], "OK BOARD");
		WANT_BOARD(g.p[i], g.cells);
		if (i == g.turn)
			WANT_RAW(g.p[i], "TURN %c " T_PROMPT,
			    game_mark(g.turn));
		else
			WANT_RAW(g.p[i], "TURN %c Waiting for %s to move...",
			    game_mark(g.turn), g.name[g.turn]);
		WANT_QUIET(g.p[i]);
	}
	GAME_MOVE(&g, "MOVE A1", 0);
	GAME_PLAY(&g, "C1 A3 A2 C2 B1 B3 C3");	/* the rest of S_TIE */
	assert_int_equal(g.state, GAME_TIE);

	/* After RESULT: no game (before TAKEN), but BOARD works. */
	SEND(m, "MOVE A1");
	WANT_RAW(m, E_NO_GAME);
	SEND(o, "c3");
	WANT_RAW(o, E_NO_GAME);
	SEND(m, "MOVE D1");
	WANT_RAW(m, E_BAD_CELL);
	SEND(m, "BOARD");
	WANT_RAW(m, "OK BOARD");
	WANT_BOARD(m, g.cells);
	SEND(m, "AGAIN maybe");
	WANT_RAW(m, E_BAD_ANSWER);
	/* The question is still open after all that. */
	GAME_REMATCH(&g, 1, "AGAIN y", "y", -1);
	e2e_stop(e, tp);
}

struct syntax_case {
	const char	*bytes;
	size_t		 len;
	const char	*reply;		/* NULL: no reply at all */
};
#define SC(s, r)	{ (s), sizeof (s) - 1, (r) }

/* 8c. Every line judged on its own: syntax errors, case, blanks, CR LF. */
static void
test_e2e_syntax_errors_and_blank_lines(void **state)
{
	static const struct syntax_case	 cases[] = {
		/* BAD_CELL, also for a bare two-character word. */
		SC("MOVE D1\r\n", E_BAD_CELL),
		SC("MOVE A4\r\n", E_BAD_CELL),
		SC("MOVE A0\r\n", E_BAD_CELL),
		SC("MOVE AA\r\n", E_BAD_CELL),
		SC("MOVE 1A\r\n", E_BAD_CELL),
		SC("MOVE A11\r\n", E_BAD_CELL),
		SC("MOVE\r\n", E_BAD_CELL),
		SC("MOVE A1 B2\r\n", E_BAD_CELL),
		SC("move\td1\n", E_BAD_CELL),
		SC("D1\r\n", E_BAD_CELL),
		SC("AA\r\n", E_BAD_CELL),
		SC("a4\n", E_BAD_CELL),
		/* UNKNOWN_COMMAND. */
		SC("FOO\r\n", E_UNKNOWN),
		SC("MOVES A1\r\n", E_UNKNOWN),
		SC("A1B2\r\n", E_UNKNOWN),
		SC("abc\r\n", E_UNKNOWN),
		SC("yess\r\n", E_UNKNOWN),
		SC("y n\r\n", E_UNKNOWN),
		SC("B2 C3\r\n", E_UNKNOWN),
		SC("y please\r\n", E_UNKNOWN),
		SC("q\r\n", E_UNKNOWN),
		SC("exit\r\n", E_UNKNOWN),
		SC("MOV b2\r\n", E_UNKNOWN),
		/* BAD_ANSWER. */
		SC("AGAIN maybe\r\n", E_BAD_ANSWER),
		SC("AGAIN\r\n", E_BAD_ANSWER),
		SC("AGAIN y n\r\n", E_BAD_ANSWER),
		SC("again ja\n", E_BAD_ANSWER),
		/* NAME: good ones keep their case; bad ones are BAD_NAME. */
		SC("NAME abcdefghijklmnop\r\n", "OK NAME abcdefghijklmnop"),
		SC("NAME\r\n", E_BAD_NAME),
		SC("NAME a b\r\n", E_BAD_NAME),
		SC("NAME Mary Ann\r\n", E_BAD_NAME),
		SC("NAME abcdefghijklmnopq\r\n", E_BAD_NAME),
		SC("NAME bad!\r\n", E_BAD_NAME),
		SC("NAME bad.name\r\n", E_BAD_NAME),
		SC("name A-b_9\r\n", "OK NAME A-b_9"),
		/*
		 * BAD_CHAR: NUL, ESC, 0xfe, DEL, a lone CR, invalid UTF-8, a
		 * bidi control; before all else.  (0xff is telnet's IAC:
		 * test_e2e_telnet.c.)
		 */
		SC("PI\0NG\r\n", E_BAD_CHAR),
		SC("\x1b[A\r\n", E_BAD_CHAR),
		SC("\xfe\r\n", E_BAD_CHAR),
		SC("PING \xfe\r\n", E_BAD_CHAR),
		SC("PING\x7f\r\n", E_BAD_CHAR),
		SC("PI\rNG\r\n", E_BAD_CHAR),
		SC("PING\r\r\n", E_BAD_CHAR),
		SC("\x01\n", E_BAD_CHAR),
		SC(" \0 \r\n", E_BAD_CHAR),
		SC("FOO\x01\r\n", E_BAD_CHAR),
		SC("MOVE D1\x80\r\n", E_BAD_CHAR),
		SC("NAME caf\xc3\r\n", E_BAD_CHAR),	/* a character cut short */
		SC("NAME caf\xc3\xa9\xe2\x80\xae\r\n", E_BAD_CHAR),	/* RLO */
		/* Empty and blank lines: no reply at all. */
		SC("\r\n", NULL),
		SC("\n", NULL),
		SC("   \r\n", NULL),
		SC(" \t \t\n", NULL),
		/* Any case, LF or CRLF, blanks around, extra words ignored. */
		SC("PING\r\n", T_PONG),
		SC("PING\n", T_PONG),
		SC("ping\r\n", T_PONG),
		SC("PiNg\n", T_PONG),
		SC("  \tPING \t \r\n", T_PONG),
		SC("PING with extra words\r\n", T_PONG),
	};
	struct e2e			*e = *state;
	struct tttd_proc		*tp = e2e_server(e, NULL);
	struct conn			*a;
	struct game			 g;
	char				 line[LINE_SIZE];
	size_t				 i;
	int				 n, help;
	const char			*words[] = { "MOVE", "BOARD", "AGAIN",
					    "NAME", "PING", "HELP", "QUIT" };

	a = CONNECT(e, tp);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		if (conn_write(a, cases[i].bytes, cases[i].len) != 0)
			fail_msg("case %zu: cannot send", i);
		if (cases[i].reply == NULL) {
			/* The next reply must be the PING's. */
			SEND(a, "PING");
			n = line_read(a, line, sizeof line,
			    HARNESS_TIMEOUT_MS);
			if (n < 0 || strcmp(line, T_PONG) != 0)
				fail_msg("case %zu (a blank line): the reply "
				    "after it is \"%s\", not the PING's",
				    i, n < 0 ? "(none)" : line);
			continue;
		}
		n = line_read(a, line, sizeof line, HARNESS_TIMEOUT_MS);
		if (n < 0 || strcmp(line, cases[i].reply) != 0)
			fail_msg("case %zu \"%.*s\": expected \"%s\", got "
			    "\"%s\"", i, (int)strcspn(cases[i].bytes, "\r\n"),
			    cases[i].bytes, cases[i].reply,
			    n < 0 ? "(EOF or timeout)" : line);
	}

	/* Several lines in one write: one reply each, in order. */
	WRITE(a, "PING\r\nMOVE Z9\nHELLO\r\n\r\nBOARD x\r\nping\n");
	WANT_RAW(a, T_PONG);
	WANT_RAW(a, E_BAD_CELL);
	WANT_RAW(a, E_UNKNOWN);
	WANT_RAW(a, E_NO_GAME);
	WANT_RAW(a, T_PONG);

	/* HELP: OK HELP, then lines for people naming every command. */
	SEND(a, "help me");
	SEND(a, "PING");
	WANT_RAW(a, "OK HELP");
	help = 0;
	memset(line, 0, sizeof line);
	for (;;) {
		char	upper[LINE_SIZE];
		size_t	k;

		n = line_read(a, line, sizeof line, HARNESS_TIMEOUT_MS);
		if (n < 0)
			fail_msg("HELP: EOF, timeout or bare LF");
		if (strcmp(line, T_PONG) == 0)
			break;
		if (line[0] != ' ')
			fail_msg("HELP: \"%s\" does not start with a space",
			    line);
		for (k = 0; line[k] != '\0'; k++)
			upper[k] = (line[k] >= 'a' && line[k] <= 'z') ?
			    (char)(line[k] - 32) : line[k];
		upper[k] = '\0';
		for (k = 0; k < sizeof words / sizeof words[0]; k++) {
			if (strstr(upper, words[k]) != NULL)
				help |= 1 << k;
		}
	}
	if (help != (1 << (sizeof words / sizeof words[0])) - 1)
		fail_msg("HELP does not list every command (mask %#x)", help);
	WANT_QUIET(a);

	/* Nothing changed but the name: paired as p1 = X, named A-b_9. */
	game_init(&g, a, CONNECT(e, tp), "A-b_9", "p2");
	GAME_MATCH(&g);
	GAME_START(&g, -1);
	e2e_stop(e, tp);
}

/*
 * 8d. Leaving the queue (QUIT, close, half-close) tells nobody and takes
 * the player out of it; a line without its LF at EOF is never executed.
 */
static void
test_e2e_leaving_queue_and_partial_line_at_eof(void **state)
{
	struct e2e		*e = *state;
	struct tttd_proc	*tp = e2e_server(e, NULL);
	struct conn		*a, *b, *c, *d;
	struct game		 g;

	a = CONNECT(e, tp);
	SEND(a, "quit now please");		/* extra words ignored */
	WANT_RAW(a, T_BYE);
	WANT_EOF(a);

	b = CONNECT(e, tp);			/* alone: a has left */
	WANT_QUIET(b);
	conn_close(b);

	/* "PING" without LF, then the client closes its sending side. */
	c = CONNECT(e, tp);
	WRITE(c, "PING");
	usleep(50000);
	shutdown(c->fd, SHUT_WR);
	WANT_EOF(c);

	/* Nobody is queued now: the next two pair as p1 and p2. */
	d = CONNECT(e, tp);
	WANT_QUIET(d);
	game_init(&g, d, CONNECT(e, tp), "p1", "p2");
	GAME_MATCH(&g);
	GAME_START(&g, -1);

	/* In a game a half-close is a lost connection; the partial move is
	 * not played. */
	WRITE(g.p[g.turn], "MOVE B2");
	usleep(50000);
	shutdown(g.p[g.turn]->fd, SHUT_WR);
	WANT_EOF(g.p[g.turn]);
	WANT_RAW(g.p[!g.turn], "RESULT FORFEIT %c %s %s lost the connection. "
	    "%s wins!", game_mark(!g.turn), g.name[!g.turn], g.name[g.turn],
	    g.name[!g.turn]);
	g.score[!g.turn]++;
	GAME_SCORE(&g, g.p[!g.turn]);
	WANT_RAW(g.p[!g.turn], T_AGAIN);
	SEND(g.p[!g.turn], "BOARD");
	WANT_RAW(g.p[!g.turn], "OK BOARD");
	WANT_BOARD(g.p[!g.turn], ".........");
	e2e_stop(e, tp);
}

/*
 * 8e. At capacity (--max-clients 2) a new connection gets SERVER_FULL
 * instead of HELLO and a clean close; once a player has left, a new one
 * is accepted again.
 */
static void
test_e2e_server_full_refuses_then_accepts(void **state)
{
	static const char *const	 extra[] = {
		"--max-clients", "2", NULL
	};
	struct e2e			*e = *state;
	struct tttd_proc		*tp = e2e_server(e, extra);
	struct game			 g, g2;
	struct conn			*c, *d = NULL;
	char				 line[LINE_SIZE];
	long				 deadline;

	PAIR(e, tp, &g);
	c = e2e_conn(e);
	assert_int_equal(conn_open(c, tp->port), 0);
	WANT_RAW(c, E_SERVER_FULL);
	WANT_EOF(c);

	/* p1 quits before its first move: the match is aborted (§9.2). */
	SEND(g.p[0], "QUIT");
	WANT_RAW(g.p[0], T_BYE);
	WANT_EOF(g.p[0]);
	conn_close(g.p[0]);
	WANT_RAW(g.p[1], "INFO p1 left before the first move. No result.");
	WANT_RAW(g.p[1], T_WAIT);

	/* The server may need a moment to notice that p1 has gone. */
	deadline = harness_now_ms() + HARNESS_TIMEOUT_MS;
	for (;;) {
		d = e2e_conn(e);
		assert_int_equal(conn_open(d, tp->port), 0);
		if (line_read(d, line, sizeof line, HARNESS_TIMEOUT_MS) < 0)
			fail_msg("no first line for a new connection");
		if (strcmp(line, T_HELLO) == 0)
			break;
		if (strncmp(line, "ERR SERVER_FULL ", 16) != 0)
			fail_msg("expected HELLO or SERVER_FULL, got \"%s\"",
			    line);
		WANT_EOF(d);
		conn_close(d);
		if (harness_now_ms() > deadline)
			fail_msg("still SERVER_FULL after a player left");
		usleep(20000);
	}
	WANT_RAW(d, T_HELLO_HUMAN);
	WANT_RAW(d, T_WAIT);
	game_init(&g2, g.p[1], d, "p1", "p2");
	GAME_MATCH(&g2);
	GAME_START(&g2, -1);
	e2e_stop(e, tp);
}

/* 9a. NAME in a match: the opponent hears of it; later lines use it. */
static void
test_e2e_name_in_match_renames_everywhere(void **state)
{
	struct e2e		*e = *state;
	struct tttd_proc	*tp = e2e_server(e, NULL);
	struct game		 g;

	PAIR(e, tp, &g);
	SEND(g.p[0], "NAME alice");
	WANT_RAW(g.p[0], "OK NAME alice");
	WANT_RAW(g.p[1], "INFO p1 is now known as alice.");
	snprintf(g.name[0], sizeof g.name[0], "alice");
	/* The same name again: OK, but no INFO. */
	SEND(g.p[0], "NAME alice");
	WANT_RAW(g.p[0], "OK NAME alice");
	WANT_QUIET(g.p[1]);
	/* X (alice) must win: TURN and RESULT use the name. */
	if (g.turn == 0) {
		GAME_PLAY(&g, S_FIRST_WINS);
	} else {
		GAME_MOVE(&g, "MOVE A2", 3);
		/* O: A2; then X wins along the first row. */
		GAME_PLAY(&g, "A1 B2 B1 C3 C1");
	}
	assert_int_equal(g.state, GAME_WON);
	assert_int_equal(g.winner, 0);
	/* WAIT names the opponent by its name too. */
	SEND(g.p[1], "y");
	WANT_RAW(g.p[1], "OK AGAIN y");
	WANT_RAW(g.p[1], "WAIT Waiting for alice to answer...");
	/* NAME while AGAIN? is open: INFO, and the rematch uses it. */
	SEND(g.p[0], "NAME Alice");
	WANT_RAW(g.p[0], "OK NAME Alice");
	WANT_RAW(g.p[1], "INFO alice is now known as Alice.");
	snprintf(g.name[0], sizeof g.name[0], "Alice");
	SEND(g.p[0], "yes");
	WANT_RAW(g.p[0], "OK AGAIN y");
	GAME_START(&g, 0);
	e2e_stop(e, tp);
}

/* 9b. NAME before pairing shows in the opponent's MATCH line. */
static void
test_e2e_name_before_pairing_shows_in_match(void **state)
{
	struct e2e		*e = *state;
	struct tttd_proc	*tp = e2e_server(e, NULL);
	struct conn		*a;
	struct game		 g;

	a = CONNECT(e, tp);
	SEND(a, "NAME bob");
	WANT_RAW(a, "OK NAME bob");
	game_init(&g, a, CONNECT(e, tp), "bob", "p2");
	GAME_MATCH(&g);
	GAME_START(&g, -1);
	SEND(g.p[1], "name Carol");
	WANT_RAW(g.p[1], "OK NAME Carol");
	WANT_RAW(g.p[0], "INFO p2 is now known as Carol.");
	snprintf(g.name[1], sizeof g.name[1], "Carol");
	GAME_PLAY(&g, S_SECOND_WINS);
	e2e_stop(e, tp);
}

/*
 * 10a. Lines: 256 bytes are fine; a longer one is answered when its LF
 * comes, and the connection goes on.
 */
static void
test_e2e_line_too_long_answered(void **state)
{
	struct e2e		*e = *state;
	struct tttd_proc	*tp = e2e_server(e, NULL);
	struct conn		*a, *b, *c, *d;
	struct game		 g;
	char			 buf[512];

	/* 300 bytes; length is judged before bytes.  Nothing until the LF. */
	a = CONNECT(e, tp);
	memset(buf, 'A', 300);
	buf[10] = '\x1b';
	buf[20] = '\x80';
	write_at(__LINE__, a, buf, 300);
	WANT_QUIET(a);
	WRITE(a, "still the same line\r\n");
	WANT_RAW(a, E_TOO_LONG);
	SEND(a, "PING");
	WANT_RAW(a, T_PONG);
	SEND(a, "QUIT");		/* before anyone is paired with it */
	WANT_RAW(a, T_BYE);
	WANT_EOF(a);

	/* 257 bytes, then LF; the next line in the same write is read. */
	b = CONNECT(e, tp);
	memset(buf, ' ', sizeof buf);
	memcpy(buf, "PING", 4);
	buf[257] = '\n';
	memcpy(buf + 258, "PING\n", 5);
	write_at(__LINE__, b, buf, 263);
	WANT_RAW(b, E_TOO_LONG);
	WANT_RAW(b, T_PONG);
	SEND(b, "QUIT");
	WANT_RAW(b, T_BYE);

	/* 256 bytes, a CR and more: too long, answered at its LF. */
	d = CONNECT(e, tp);
	memset(buf, ' ', sizeof buf);
	memcpy(buf, "PING", 4);
	write_at(__LINE__, d, buf, 256);
	WRITE(d, "\rX");
	WANT_QUIET(d);
	WRITE(d, "\nPING\n");
	WANT_RAW(d, E_TOO_LONG);
	WANT_RAW(d, T_PONG);
	SEND(d, "QUIT");
	WANT_RAW(d, T_BYE);

	/* 256 bytes, with CRLF and with LF; then a line in pieces. */
	c = CONNECT(e, tp);
	buf[256] = '\r';
	buf[257] = '\n';
	write_at(__LINE__, c, buf, 258);
	WANT_RAW(c, T_PONG);
	buf[256] = '\n';
	write_at(__LINE__, c, buf, 257);
	WANT_RAW(c, T_PONG);
	WRITE(c, "PI");
	usleep(50000);
	WRITE(c, "NG\r");
	usleep(50000);
	WRITE(c, "\n");
	WANT_RAW(c, T_PONG);
	/* 256 bytes and a CR: the LF may still come. */
	write_at(__LINE__, c, buf, 256);
	WRITE(c, "\r");
	usleep(50000);
	WRITE(c, "\n");
	WANT_RAW(c, T_PONG);

	/* In a game: a pasted line is refused, and the game goes on. */
	game_init(&g, c, CONNECT(e, tp), "p1", "p2");
	GAME_MATCH(&g);
	GAME_START(&g, -1);
	memset(buf, 'b', 300);
	memcpy(buf, "MOVE B2 ", 8);
	buf[299] = '\n';
	write_at(__LINE__, g.p[g.turn], buf, 300);
	WANT_RAW(g.p[g.turn], E_TOO_LONG);
	WANT_QUIET(g.p[1 - g.turn]);
	GAME_PLAY(&g, S_FIRST_WINS);
	e2e_stop(e, tp);
}

/*
 * 10a'. No line end in 4096 bytes is a flood, not a line: ERR, then a
 * graceful close, wherever the reads split it; an LF among the first
 * 4096 bytes still only gets the ERR.  The dropped player's opponent
 * wins by forfeit.
 */
static void
test_e2e_line_flood_closes_gracefully(void **state)
{
	struct e2e		*e = *state;
	struct tttd_proc	*tp = e2e_server(e, NULL);
	struct conn		*a, *b;
	struct game		 g;
	static char		 buf[5000];

	/* 4095 bytes and the LF: the longest line that is only refused. */
	a = CONNECT(e, tp);
	memset(buf, 'A', sizeof buf);
	buf[4095] = '\n';
	write_at(__LINE__, a, buf, 4096);
	WANT_RAW(a, E_TOO_LONG);
	SEND(a, "PING");
	WANT_RAW(a, T_PONG);
	/* 4096 bytes without an LF, in pieces: closed before the LF comes. */
	write_at(__LINE__, a, buf, 1000);
	usleep(50000);
	write_at(__LINE__, a, buf, 3000);
	usleep(50000);
	WANT_QUIET(a);
	write_at(__LINE__, a, buf, 96);
	WANT_RAW(a, E_TOO_LONG);
	WANT_EOF(a);

	/* In a game: 5000 bytes without an LF. */
	PAIR(e, tp, &g);
	b = g.p[0];
	memset(buf, 'b', sizeof buf);
	write_at(__LINE__, b, buf, sizeof buf);
	WANT_RAW(b, E_TOO_LONG);
	WANT_EOF(b);
	WANT_RAW(g.p[1], "RESULT FORFEIT O p2 p1 lost the connection. "
	    "p2 wins!");
	g.score[1]++;
	GAME_SCORE(&g, g.p[1]);
	WANT_RAW(g.p[1], T_AGAIN);
	e2e_stop(e, tp);
}

/*
 * 10b. A client that keeps sending one endless line (32 MiB, no newline)
 * still reads the ERR line and a clean EOF: an error line written just
 * before closing must not be lost to a reset, and the server must go on
 * draining (or close) rather than leave the writer blocked.
 */
static void
test_e2e_line_too_long_error_survives_flood(void **state)
{
	struct e2e		*e = *state;
	struct tttd_proc	*tp = e2e_server(e, NULL);
	struct conn		*a;
	long			 deadline;
	pid_t			 pid;
	int			 rc;

	a = CONNECT(e, tp);
	if ((pid = fork()) == -1)
		fail_msg("fork: %s", strerror(errno));
	if (pid == 0) {
		static char	block[65536];
		int		i;

		alarm(10);
		memset(block, 'A', sizeof block);
		for (i = 0; i < 512; i++) {
			if (conn_write(a, block, sizeof block) != 0)
				_exit(1);
		}
		_exit(0);
	}
	e->child[0] = pid;
	WANT_RAW(a, E_TOO_LONG);
	WANT_EOF(a);
	conn_close(a);
	/* The writer finishes, or fails once the server closes: no hang. */
	deadline = harness_now_ms() + HARNESS_TIMEOUT_MS;
	while ((rc = (int)waitpid(pid, NULL, WNOHANG)) == 0 &&
	    harness_now_ms() < deadline)
		usleep(10000);
	if (rc != pid)
		fail_msg("the flooding writer is still blocked after %d ms: "
		    "the server neither drains nor closes", HARNESS_TIMEOUT_MS);
	e->child[0] = 0;
	/* The server is still serving. */
	CONNECT(e, tp);
	e2e_stop(e, tp);
}

/*
 * 11. No busy loop: with an over-long line being skipped, a flood closed
 * (and more bytes after it) and a partial line pending, the idle server
 * uses (almost) no CPU.
 */
static void
test_e2e_no_spin_after_long_or_partial_line(void **state)
{
	struct e2e		*e = *state;
	struct tttd_proc	*tp = e2e_server(e, NULL);
	struct conn		*a, *b, *s;
	static char		 buf[4096];
	long			 t0, t1;

	a = CONNECT(e, tp);
	memset(buf, 'A', sizeof buf);
	write_at(__LINE__, a, buf, sizeof buf);
	WANT_RAW(a, E_TOO_LONG);
	(void)conn_write(a, buf, sizeof buf);	/* may fail: closing */

	s = CONNECT(e, tp);		/* in a room of its own: not paired */
	SEND(s, "ROOM NEW");
	WANT_PREFIX(s, "OK ROOM ");
	WANT_PREFIX(s, "WAIT ");
	write_at(__LINE__, s, buf, 300);

	b = CONNECT(e, tp);
	memset(buf, ' ', 200);
	memcpy(buf, "PING", 4);
	write_at(__LINE__, b, buf, 200);

	usleep(100000);
	t0 = harness_cpu_ms(tp);
	usleep(1000000);
	t1 = harness_cpu_ms(tp);
	if (t1 - t0 >= 300)
		fail_msg("the idle server used %ld ms of CPU in 1 s "
		    "(a spinning read callback?)", t1 - t0);

	/* The partial line was kept: completing it works. */
	WRITE(b, "\r\n");
	WANT_RAW(b, T_PONG);
	WRITE(s, "\n");
	WANT_RAW(s, E_TOO_LONG);
	WANT_EOF(a);
	e2e_stop(e, tp);
}

/*
 * Send one 4 KiB chunk of garbage lines: random bytes, each line starting
 * with a UTF-8 continuation byte (never valid there, and never 0xff,
 * telnet's IAC, which makes the client a telnet client) and holding no LF
 * but its own; returns the number of complete lines sent so far.
 */
static int
garbage_chunk(struct conn *c, uint32_t *rng, int *left_in_line, int newlines)
{
	char	buf[4096];
	int	i, lines = 0;

	for (i = 0; i < (int)sizeof buf; i++) {
		if (newlines && *left_in_line == 0) {
			buf[i] = '\n';
			lines++;
			*left_in_line = -1;
			continue;
		}
		if (*left_in_line == -1) {
			*left_in_line = (int)(game_rand(rng) % 200);
			buf[i] = (char)(0x80 | (game_rand(rng) & 0x3f));
			continue;
		}
		do {
			buf[i] = (char)(game_rand(rng) & 0xff);
		} while (buf[i] == '\n' || buf[i] == '\xff');
		if (newlines)
			(*left_in_line)--;
	}
	if (conn_write(c, buf, sizeof buf) != 0)
		return (-1);
	return (lines);
}

/* 12. 64 KiB of garbage from two clients does not disturb a game. */
static void
test_e2e_garbage_bytes_do_not_disturb_others(void **state)
{
	static const char	*script[] = {
		"B2", "A1", "C1", "A3", "A2", "C2", "B1", "B3", "C3"
	};
	static const char *const args[] = { "--rate-limit", "0", NULL };
	struct e2e		*e = *state;
	struct tttd_proc	*tp = e2e_server(e, args);	/* >100 lines */
	struct game		 g, gg;
	struct conn		*g1, *g2;
	struct timeval		 tv = { 2, 0 };
	uint32_t		 rng = 0x2545f491;
	int			 i, n, move = 0, left = -1, replies = 0;

	PAIR(e, tp, &g);

	/* Garbage lines, each answered BAD_CHAR, between the moves. */
	g1 = CONNECT(e, tp);
	for (i = 0; i < 16; i++) {
		if ((n = garbage_chunk(g1, &rng, &left, 1)) < 0)
			fail_msg("cannot send garbage: %s", strerror(errno));
		for (; n > 0; n--, replies++)
			WANT_RAW(g1, E_BAD_CHAR);
		if (i % 2 == 0 && move < 9) {
			GAME_MOVE(&g, script[move], game_cell(script[move]));
			move++;
		}
	}
	WRITE(g1, "\n");
	WANT_RAW(g1, E_BAD_CHAR);	/* the partial line's end */
	SEND(g1, "PING");
	WANT_RAW(g1, T_PONG);
	while (move < 9) {
		GAME_MOVE(&g, script[move], game_cell(script[move]));
		move++;
	}
	assert_int_equal(g.state, GAME_TIE);
	assert_true(replies > 100);

	/* g2 pairs with g1, then floods 64 KiB without any newline. */
	g2 = CONNECT(e, tp);
	game_init(&gg, g1, g2, "p1", "p2");
	GAME_MATCH(&gg);
	GAME_START(&gg, -1);
	setsockopt(g2->fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
	left = 0;
	for (i = 0; i < 16; i++) {
		if (garbage_chunk(g2, &rng, &left, 0) < 0)
			break;		/* the server may have closed */
	}
	WANT_RAW(g2, E_TOO_LONG);
	WANT_EOF(g2);
	WANT_RAW(g1, "RESULT FORFEIT X p1 p2 lost the connection. "
	    "p1 wins!");
	WANT_RAW(g1, T_SCORE "p1 1, p2 0, ties 0.");
	WANT_RAW(g1, T_AGAIN);

	/* The first match is unharmed, and newcomers are still greeted. */
	SEND(g.p[0], "BOARD");
	WANT_RAW(g.p[0], "OK BOARD");
	WANT_BOARD(g.p[0], g.cells);
	CONNECT(e, tp);
	e2e_stop(e, tp);
}

/* 13. 50 matches at once, played round-robin to their ends. */
static void
test_e2e_fifty_concurrent_matches(void **state)
{
	static const char	*scripts[] = {
		S_FIRST_WINS, S_SECOND_WINS, S_TIE
	};
	static const char *const args[] = { "--max-per-addr", "0", NULL };
	struct e2e		*e = *state;
	struct tttd_proc	*tp = e2e_server(e, args);	/* 100 clients */
	struct game		*g;
	char			 words[50][9][3];
	int			 nmoves[50], done[50];
	int			 k, m, round, active;

	if ((g = calloc(50, sizeof *g)) == NULL)
		fail_msg("out of memory");
	/*
	 * All connect first, then are paired in the order they came, each
	 * half a second after it came (so in half a second in all).
	 */
	for (m = 0; m < 50; m++) {
		struct conn	*x = CONNECT(e, tp), *o = CONNECT(e, tp);

		game_init(&g[m], x, o, "p1", "p2");
	}
	for (m = 0; m < 50; m++) {
		char		 copy[64], *w, *save = NULL;

		GAME_MATCH(&g[m]);
		snprintf(copy, sizeof copy, "%s", scripts[m % 3]);
		nmoves[m] = 0;
		for (w = strtok_r(copy, " ", &save); w != NULL;
		    w = strtok_r(NULL, " ", &save))
			snprintf(words[m][nmoves[m]++], 3, "%s", w);
		done[m] = 0;
	}
	for (m = 0; m < 50; m++)
		GAME_START(&g[m], -1);

	/* Each round: every match still on sends a move, then all check. */
	for (round = 0, active = 50; active > 0; round++) {
		for (m = 0; m < 50; m++) {
			if (!done[m])
{
				if (round >= nmoves[m])
					fail_msg("match %d is not over after "
					    "its script", m);
				game_send_at(__LINE__, &g[m],
				    words[m][round]);
			}
		}
		for (m = 0; m < 50; m++) {
			if (done[m])
				continue;
			game_moved_at(__LINE__, &g[m],
			    game_cell(words[m][round]));
			if (g[m].state != GAME_ON) {
				done[m] = 1;
				active--;
			}
		}
	}
	for (m = 0; m < 50; m++) {
		int	want = (m % 3 == 2) ? GAME_TIE : GAME_WON;

		if (g[m].state != want || round > 9)
			fail_msg("match %d ended wrongly", m);
	}

	/* All quit: X first (its opponent hears), then O. */
	for (m = 0; m < 50; m++)
		SEND(g[m].p[0], "QUIT");
	for (m = 0; m < 50; m++) {
		WANT_RAW(g[m].p[0], T_BYE);
		WANT_EOF(g[m].p[0]);
		WANT_RAW(g[m].p[1], "INFO p1 left the match.");
	}
	for (m = 0; m < 50; m++)
		SEND(g[m].p[1], "quit now");	/* extra words ignored */
	for (m = 0; m < 50; m++) {
		WANT_RAW(g[m].p[1], T_BYE);
		WANT_EOF(g[m].p[1]);
	}
	for (k = 0; k < e->nconns; k++)
		conn_close(e->conns[k]);
	free(g);
	e2e_stop(e, tp);
}

/* 14. SIGTERM: every client, whatever its state, reads BYE and EOF. */
static void
test_e2e_sigterm_says_bye_to_everyone(void **state)
{
	struct e2e		*e = *state;
	struct tttd_proc	*tp = e2e_server(e, NULL);
	struct game		 asking, playing, waiting;
	struct conn		*queued, *all[7];
	long			 t0;
	int			 i, rc;

	PAIR(e, tp, &asking);			/* at AGAIN? */
	GAME_PLAY(&asking, S_FIRST_WINS);
	PAIR(e, tp, &waiting);			/* said yes, waits */
	GAME_PLAY(&waiting, S_TIE);
	SEND(waiting.p[0], "y");
	WANT_RAW(waiting.p[0], "OK AGAIN y");
	WANT_RAW(waiting.p[0], "WAIT Waiting for p2 to answer...");
	PAIR(e, tp, &playing);			/* mid-game */
	GAME_MOVE(&playing, "B2", 4);
	queued = CONNECT(e, tp);		/* in the queue */

	all[0] = asking.p[0];
	all[1] = asking.p[1];
	all[2] = waiting.p[0];
	all[3] = waiting.p[1];
	all[4] = playing.p[0];
	all[5] = playing.p[1];
	all[6] = queued;
	assert_int_equal(kill(tp->pid, SIGTERM), 0);
	for (i = 0; i < 7; i++) {
		WANT_RAW(all[i], T_BYE_SHUTDOWN);
		WANT_EOF(all[i]);
		conn_close(all[i]);
	}
	rc = harness_wait(tp, HARNESS_TIMEOUT_MS);
	tp->pid = 0;
	assert_int_equal(rc, 0);

	/*
	 * SIGINT does the same; a client that reads BYE but never closes
	 * keeps the server no longer than about two seconds.
	 */
	tp = e2e_server(e, NULL);
	queued = CONNECT(e, tp);
	t0 = harness_now_ms();
	assert_int_equal(kill(tp->pid, SIGINT), 0);
	WANT_RAW(queued, T_BYE_SHUTDOWN);
	WANT_EOF(queued);
	rc = harness_wait(tp, HARNESS_TIMEOUT_MS);
	tp->pid = 0;
	assert_int_equal(rc, 0);
	if (harness_now_ms() - t0 > 3500)
		fail_msg("tttd took %ld ms to stop with an idle client",
		    harness_now_ms() - t0);
}

/* Append the log so far; is there a line with all the words (any case)? */
static int
log_has(struct tttd_proc *tp, char *log, size_t size, const char *w1,
    const char *w2, const char *not)
{
	size_t	len = strlen(log);
	char	*line, *end, lower[1024];
	size_t	n, i;

	harness_log(tp, log + len, size - len);
	for (line = log; *line != '\0'; line = end + (*end != '\0')) {
		end = strchr(line, '\n');
		if (end == NULL)
			end = line + strlen(line);
		n = (size_t)(end - line);
		if (n >= sizeof lower)
			n = sizeof lower - 1;
		for (i = 0; i < n; i++)
			lower[i] = (line[i] >= 'A' && line[i] <= 'Z') ?
			    (char)(line[i] + 32) : line[i];
		lower[n] = '\0';
		if (strstr(lower, w1) != NULL && strstr(lower, w2) != NULL &&
		    (not == NULL || strstr(lower, not) == NULL))
			return (1);
	}
	return (0);
}

/* 15. The log: connect, match, result, disconnect; times; addresses. */
static void
test_e2e_log_lines(void **state)
{
	struct e2e		*e = *state;
	struct tttd_proc	*tp = e2e_server(e, NULL);
	struct game		 g;
	struct sockaddr_in	 sin;
	socklen_t		 len;
	char			*log, addr[2][64], *line, *end;
	regex_t			 iso;
	int			 i, found;
	long			 deadline;
	const size_t		 size = 1 << 16;

	if ((log = calloc(1, size)) == NULL)
		fail_msg("out of memory");
	PAIR(e, tp, &g);
	for (i = 0; i < 2; i++) {
		len = sizeof sin;
		assert_int_equal(getsockname(g.p[i]->fd,
		    (struct sockaddr *)&sin, &len), 0);
		snprintf(addr[i], sizeof addr[i], "127.0.0.1:%u",
		    ntohs(sin.sin_port));
	}
	GAME_PLAY(&g, S_FIRST_WINS);
	conn_close(g.p[0]);
	conn_close(g.p[1]);

	deadline = harness_now_ms() + HARNESS_TIMEOUT_MS;
	do {
		usleep(20000);
		found = log_has(tp, log, size, "disconnect", addr[0], NULL) &&
		    log_has(tp, log, size, "disconnect", addr[1], NULL);
	} while (!found && harness_now_ms() < deadline);
	for (i = 0; i < 2; i++) {
		if (!log_has(tp, log, size, "connect", addr[i], "disconnect"))
			fail_msg("no connect line for %s in:\n%s", addr[i],
			    log);
		if (!log_has(tp, log, size, "disconnect", addr[i], NULL))
			fail_msg("no disconnect line for %s in:\n%s", addr[i],
			    log);
	}
	if (!log_has(tp, log, size, "match", addr[0], NULL) ||
	    !log_has(tp, log, size, "match", addr[1], NULL))
		fail_msg("no match line with both peers in:\n%s", log);
	if (!log_has(tp, log, size, "won", "127.0.0.1:", NULL) &&
	    !log_has(tp, log, size, "wins", "127.0.0.1:", NULL) &&
	    !log_has(tp, log, size, "result", "127.0.0.1:", NULL))
		fail_msg("no result line in:\n%s", log);

	/* Every line starts with an ISO-8601 time stamp. */
	assert_int_equal(regcomp(&iso, "^[0-9]{4}-[0-9]{2}-[0-9]{2}T"
	    "[0-9]{2}:[0-9]{2}:[0-9]{2}", REG_EXTENDED | REG_NOSUB), 0);
	for (line = log; *line != '\0'; line = end + 1) {
		if ((end = strchr(line, '\n')) == NULL)
			break;
		*end = '\0';
		if (regexec(&iso, line, 0, NULL, 0) != 0) {
			regfree(&iso);
			fail_msg("log line without an ISO-8601 time: \"%s\"",
			    line);
		}
	}
	regfree(&iso);
	free(log);
	e2e_stop(e, tp);
}

/* 16. The command line: --help, --version, bad options. */
static void
test_e2e_command_line(void **state)
{
	static const char *const	 help[] = { "--help", NULL };
	static const char *const	 version[] = { "--version", NULL };
	static const char *const	 bad[][8] = {
		{ "--bind", "127.0.0.1", "--port", "0", "--bogus", NULL },
		{ "--bind", "127.0.0.1", "--port", "70000", NULL },
		{ "--bind", "127.0.0.1", "--port", "-1", NULL },
		{ "--bind", "127.0.0.1", "--port", "4x", NULL },
		{ "--bind", "127.0.0.1", "--port", "0", "--seed", "x", NULL },
		{ "--bind", "127.0.0.1", "--port", "0", "--seed",
		    "18446744073709551616", NULL },
		{ "--bind", "127.0.0.1", "--port", "0", "--seed", "-1", NULL },
		{ "--bind", "127.0.0.1", "--port", NULL },
	};
	static const char		*opts[] = {
		"--port", "--bind", "--seed", "--help", "--version",
		"--room-ttl", "--resume-grace", "--ai-offer", "--early-draw"
	};
	static const char *const	 maxseed[] = {
		"--seed", "18446744073709551615", NULL
	};
	struct e2e			*e = *state;
	char				 out[8192], args[256];
	size_t				 i, j;
	int				 rc;

	rc = harness_run(help, out, sizeof out, HARNESS_TIMEOUT_MS);
	assert_int_equal(rc, 0);
	if (strstr(out, "usage") == NULL && strstr(out, "Usage") == NULL)
		fail_msg("--help prints no usage: \"%s\"", out);
	for (i = 0; i < sizeof opts / sizeof opts[0]; i++) {
		if (strstr(out, opts[i]) == NULL)
			fail_msg("--help does not mention %s", opts[i]);
	}

	rc = harness_run(version, out, sizeof out, HARNESS_TIMEOUT_MS);
	assert_int_equal(rc, 0);
	if (strncmp(out, "tttd 1.2.1", 10) != 0 ||
	    (out[10] != '\n' && out[10] != ' '))
		fail_msg("--version printed \"%s\"", out);

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		rc = harness_run(bad[i], out, sizeof out, HARNESS_START_MS);
		args[0] = '\0';
		for (j = 0; bad[i][j] != NULL; j++) {
			strncat(args, " ", sizeof args - strlen(args) - 1);
			strncat(args, bad[i][j],
			    sizeof args - strlen(args) - 1);
		}
		if (rc <= 0)
			fail_msg("tttd%s: status %d, wanted an exit with a "
			    "non-zero status", args, rc);
	}

	/* The largest seed, 2^64 - 1, is a good one. */
	e2e_stop(e, e2e_server(e, maxseed));
}

#define T(f) \
	cmocka_unit_test_setup_teardown(f, e2e_setup_v1, e2e_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_e2e_greeting_and_pairing),
		T(test_e2e_full_game_win),
		T(test_e2e_full_game_tie),
		T(test_e2e_rematch_winner_starts),
		T(test_e2e_tie_rematch_start_is_seeded_random),
		T(test_e2e_again_no_requeues_other),
		T(test_e2e_again_yes_then_other_no_requeues),
		T(test_e2e_quit_mid_game_forfeits),
		T(test_e2e_drop_mid_game_forfeits),
		T(test_e2e_drop_at_again_is_no),
		T(test_e2e_errors_while_queued),
		T(test_e2e_errors_in_game_keep_state),
		T(test_e2e_syntax_errors_and_blank_lines),
		T(test_e2e_leaving_queue_and_partial_line_at_eof),
		T(test_e2e_server_full_refuses_then_accepts),
		T(test_e2e_name_in_match_renames_everywhere),
		T(test_e2e_name_before_pairing_shows_in_match),
		T(test_e2e_line_too_long_answered),
		T(test_e2e_line_flood_closes_gracefully),
		T(test_e2e_line_too_long_error_survives_flood),
		T(test_e2e_no_spin_after_long_or_partial_line),
		T(test_e2e_garbage_bytes_do_not_disturb_others),
		T(test_e2e_fifty_concurrent_matches),
		T(test_e2e_sigterm_says_bye_to_everyone),
		T(test_e2e_log_lines),
		T(test_e2e_command_line),
	};

	signal(SIGPIPE, SIG_IGN);
	return (cmocka_run_group_tests(tests, NULL, NULL));
}
