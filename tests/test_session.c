/*
 * test_session.c -- a connection's logic without sockets, on a fake clock:
 * lines per call, the partial-line deadline, the turn, AGAIN? and queue
 * clocks, the rate limit and the HTTP first line.
 *
 * The lobby talks to fake ops that record each client's output; time
 * moves only when a test says so, so no test sleeps.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <event2/buffer.h>

#include "conn.h"
#include "lobby.h"
#include "match.h"
#include "session.h"

#define FAKE_CLIENTS	4
#define FAKE_OUT	16384

/* A client with what it was sent; the client comes first (see fake_of). */
struct fake {
	struct client	 c;
	struct evbuffer	*in;
	char		 out[FAKE_OUT];
	size_t		 outlen;
	int		 open;
	int		 closed;
};

struct world {
	struct lobby	lobby;
	struct fake	f[FAKE_CLIENTS];
};

static int64_t	fake_clock;

static struct fake *
fake_of(struct client *c)
{
	return ((struct fake *)c);
}

static void
fake_send(struct client *c, const char *buf, size_t len)
{
	struct fake	*f = fake_of(c);

	assert_false(f->closed);		/* nothing after close */
	assert_true(f->outlen + len < sizeof f->out);
	memcpy(f->out + f->outlen, buf, len);
	f->outlen += len;
	f->out[f->outlen] = '\0';
}

static void
fake_close(struct client *c)
{
	fake_of(c)->closed = 1;
}

static void
fake_timer(struct client *c)
{
	(void)c;
}

static int64_t
fake_now(void)
{
	return (fake_clock);
}

/* Codes and tokens: a fixed sequence, so that tests can predict them. */
static void
fake_random(void *buf, size_t len)
{
	static unsigned char	next;
	unsigned char		*p = buf;

	while (len-- > 0)
		*p++ = next++;
}

static void
fake_wake(struct lobby *lobby)
{
	(void)lobby;
}

static const struct lobby_ops fake_ops = {
	fake_send, fake_close, fake_timer, fake_now, fake_random, fake_wake
};

/* A world with these limits; the default ones when NULL. */
static struct world *
world_new(const struct lobby_limits *limits)
{
	struct world		*w = calloc(1, sizeof *w);
	struct lobby_limits	 l;
	int			 i;

	assert_non_null(w);
	lobby_default_limits(&l);
	lobby_init(&w->lobby, &fake_ops, limits != NULL ? limits : &l, 7);
	for (i = 0; i < FAKE_CLIENTS; i++) {
		w->f[i].in = evbuffer_new();
		w->f[i].c.id = (uint64_t)i + 1;
		snprintf(w->f[i].c.addr, sizeof w->f[i].c.addr, "fake%d", i);
	}
	fake_clock = 1000000;
	return (w);
}

static int
world_free(void **state)
{
	struct world	*w = *state;
	int		 i;

	for (i = 0; i < FAKE_CLIENTS; i++) {
		if (w->f[i].open)
			session_lost(&w->f[i].c);
		evbuffer_free(w->f[i].in);
	}
	lobby_free(&w->lobby);
	free(w);
	return (0);
}

/* Connect client i: HELLO, WAIT, maybe MATCH. */
static struct fake *
world_open(struct world *w, int i)
{
	w->f[i].open = 1;
	session_open(&w->lobby, &w->f[i].c);
	return (&w->f[i]);
}

/* Bytes from the client; conn_input as often as it asks. */
static void
feed(struct fake *f, const char *bytes)
{
	evbuffer_add(f->in, bytes, strlen(bytes));
	while (conn_input(&f->c, f->in))
		;
}

/* Move the clock to an absolute offset (ms) and run every timer. */
static void
at(struct world *w, int64_t ms)
{
	int	i;

	fake_clock = 1000000 + ms;
	for (i = 0; i < FAKE_CLIENTS; i++) {
		if (w->f[i].open)
			conn_timer(&w->f[i].c);
	}
}

/* How often a line occurs in the client's output. */
static int
count(const struct fake *f, const char *line)
{
	const char	*p = f->out;
	size_t		 n = strlen(line);
	int		 k = 0;

	while ((p = strstr(p, line)) != NULL) {
		if ((p == f->out || p[-1] == '\n') &&
		    (p[n] == '\r' || p[n] == '\0'))
			k++;
		p += n;
	}
	return (k);
}

/* The output contains the line (a whole line, or its start with '*'). */
static void
want(const struct fake *f, const char *line)
{
	if (strstr(f->out, line) == NULL)
		fail_msg("expected \"%s\" in:\n%s", line, f->out);
}

static void
clear(struct fake *f)
{
	f->outlen = 0;
	f->out[0] = '\0';
}

/* Pair clients 0 and 1; returns the mover's index. */
static int
pair(struct world *w)
{
	world_open(w, 0);
	world_open(w, 1);
	want(&w->f[0], "MATCH X p2");
	return (strstr(w->f[0].out, "TURN X Enter") != NULL ? 0 : 1);
}

/* Fairness: one call takes at most CONN_LINES_PER_CALL lines. */
static void
test_lines_per_call_bounded(void **state)
{
	struct world	*w = *state = world_new(NULL);
	struct fake	*f = world_open(w, 0);
	int		 i, calls = 0;

	clear(f);
	for (i = 0; i < 40; i++)
		evbuffer_add(f->in, "PING\n", 5);
	assert_int_equal(conn_input(&f->c, f->in), 1);
	assert_int_equal(count(f, "OK PONG"), CONN_LINES_PER_CALL);
	while (conn_input(&f->c, f->in))
		calls++;
	assert_int_equal(calls, 40 / CONN_LINES_PER_CALL - 1);
	assert_int_equal(count(f, "OK PONG"), 40);
	assert_int_equal(evbuffer_get_length(f->in), 0);
}

/* Slowloris: the deadline runs from the first byte; more bytes don't help. */
static void
test_partial_line_deadline(void **state)
{
	struct lobby_limits	 l;
	struct world		*w;
	struct fake		*f;

	lobby_default_limits(&l);
	l.line_ms = 1000;
	l.ai_offer_ms = 0;	/* the idle clock is the next deadline */
	w = *state = world_new(&l);
	f = world_open(w, 0);
	assert_int_equal(conn_next_deadline(&f->c), fake_clock + 900000);
	feed(f, "PI");
	assert_int_equal(conn_next_deadline(&f->c), fake_clock + 1000);
	at(w, 600);
	feed(f, "N");
	assert_int_equal(conn_next_deadline(&f->c), 1000000 + 1000);
	at(w, 999);
	assert_false(f->closed);
	at(w, 1000);
	assert_true(f->closed);
	want(f, "ERR LINE_TIMEOUT Your line was not finished in time. "
	    "Goodbye.\r\n");
	assert_int_equal(conn_next_deadline(&f->c), 0);
}

/* A finished line ends the deadline; the next partial line starts anew. */
static void
test_finished_line_restarts_deadline(void **state)
{
	struct lobby_limits	 l;
	struct world		*w;
	struct fake		*f;

	lobby_default_limits(&l);
	l.line_ms = 1000;
	l.idle_ms = 0;
	w = *state = world_new(&l);
	f = world_open(w, 0);
	assert_int_equal(conn_next_deadline(&f->c), 0);
	feed(f, "PI");
	at(w, 500);
	feed(f, "NG\nPI");
	want(f, "OK PONG");
	assert_int_equal(conn_next_deadline(&f->c), 1000000 + 1500);
	at(w, 1000);
	assert_false(f->closed);
	feed(f, "NG\n");
	assert_int_equal(count(f, "OK PONG"), 2);
	assert_int_equal(conn_next_deadline(&f->c), 0);
	at(w, 5000);
	assert_false(f->closed);
}

/* The mover is warned at two thirds of its time and loses at the end. */
static void
test_turn_clock(void **state)
{
	struct lobby_limits	 l;
	struct world		*w;
	struct fake		*mover, *other;
	int			 m;

	lobby_default_limits(&l);
	l.turn_ms = 3000;
	w = *state = world_new(&l);
	m = pair(w);
	mover = &w->f[m];
	other = &w->f[!m];
	assert_int_equal(conn_next_deadline(&mover->c), 1000000 + 2000);
	assert_int_equal(conn_next_deadline(&other->c), 0);
	clear(mover);
	at(w, 1999);
	assert_int_equal(mover->outlen, 0);
	at(w, 2000);
	want(mover, "INFO You have 1 second left to move.\r\n");
	assert_int_equal(count(mover, "INFO You have 1 second left to move."),
	    1);
	at(w, 2500);
	assert_int_equal(count(mover, "INFO You have 1 second left to move."),
	    1);
	assert_false(mover->closed);
	at(w, 3000);
	want(mover, "BYE You ran out of time.\r\n");
	assert_true(mover->closed);
	want(other, m == 0 ?
	    "RESULT FORFEIT O p2 p1 ran out of time. p2 wins!\r\n" :
	    "RESULT FORFEIT X p1 p2 ran out of time. p1 wins!\r\n");
	want(other, "AGAIN? ");
	/* The winner now has its AGAIN? clock. */
	assert_int_equal(conn_next_deadline(&other->c),
	    1000000 + 3000 + LOBBY_AGAIN_MS);
}

/* A move stops the mover's clock and starts the other's, afresh. */
static void
test_turn_clock_moves_with_the_turn(void **state)
{
	struct lobby_limits	 l;
	struct world		*w;
	int			 m;

	lobby_default_limits(&l);
	l.turn_ms = 3000;
	w = *state = world_new(&l);
	m = pair(w);
	at(w, 2500);		/* warned */
	feed(&w->f[m], "B2\n");
	want(&w->f[m], "OK MOVE B2");
	assert_int_equal(conn_next_deadline(&w->f[m].c), 0);
	assert_int_equal(conn_next_deadline(&w->f[!m].c),
	    1000000 + 2500 + 2000);
	at(w, 5499);
	assert_false(w->f[!m].closed);
	at(w, 5500);
	want(&w->f[!m], "INFO You have 1 second left to move.");
	at(w, 6500);
	assert_true(w->f[!m].closed);
	assert_false(w->f[m].closed);
}

/* Play a quick game to its RESULT: the mover wins down the B column. */
static void
play_to_result(struct world *w, int m)
{
	feed(&w->f[m], "B1\n");
	feed(&w->f[!m], "A1\n");
	feed(&w->f[m], "B2\n");
	feed(&w->f[!m], "A2\n");
	feed(&w->f[m], "B3\n");
	want(&w->f[m], "RESULT WIN");
	want(&w->f[!m], "AGAIN? ");
}

/* No answer to AGAIN? in time counts as no. */
static void
test_again_clock(void **state)
{
	struct lobby_limits	 l;
	struct world		*w;
	int			 m;

	lobby_default_limits(&l);
	l.again_ms = 4000;
	l.turn_ms = 0;
	w = *state = world_new(&l);
	m = pair(w);
	at(w, 100);
	play_to_result(w, m);
	at(w, 1000);
	feed(&w->f[m], "y\n");
	want(&w->f[m], "OK AGAIN y");
	assert_int_equal(conn_next_deadline(&w->f[m].c), 0);
	at(w, 4099);
	assert_false(w->f[!m].closed);
	clear(&w->f[m]);
	at(w, 4100);
	want(&w->f[!m], "BYE No answer in time, taken as no. "
	    "Thank you for playing!\r\n");
	assert_true(w->f[!m].closed);
	/* The one who said yes is told and goes back to the queue. */
	want(&w->f[m], m == 0 ? "INFO p2 left the match.\r\n" :
	    "INFO p1 left the match.\r\n");
	want(&w->f[m], "WAIT Waiting for an opponent...\r\n");
	/* Its next deadline: the offer of the computer (§9.6). */
	assert_int_equal(conn_next_deadline(&w->f[m].c),
	    1000000 + 4100 + LOBBY_AI_OFFER_MS);
}

/* Waiting alone in the queue: any line restarts the idle clock. */
static void
test_idle_clock(void **state)
{
	struct lobby_limits	 l;
	struct world		*w;
	struct fake		*f;

	lobby_default_limits(&l);
	l.idle_ms = 5000;
	w = *state = world_new(&l);
	f = world_open(w, 0);
	at(w, 4000);
	feed(f, "PING\n");
	at(w, 8999);
	assert_false(f->closed);
	at(w, 9000);
	assert_true(f->closed);
	want(f, "BYE Nobody came to play in time. Please try again later.\r\n");
}

/* Over the rate: RATE_LIMITED and dropped; kept up: BYE. */
static void
test_rate_limit(void **state)
{
	struct lobby_limits	 l;
	struct world		*w;
	struct fake		*f;
	int			 i;

	lobby_default_limits(&l);
	l.rate = 1;
	l.burst = 10;
	w = *state = world_new(&l);
	f = world_open(w, 0);
	clear(f);
	for (i = 0; i < 15; i++)
		feed(f, "PING\n");
	assert_int_equal(count(f, "OK PONG"), 10);
	assert_int_equal(count(f, "ERR RATE_LIMITED Too many commands. "
	    "Please slow down."), 5);
	/* A second later there is one token again. */
	at(w, 1000);
	feed(f, "PING\n");
	assert_int_equal(count(f, "OK PONG"), 11);
	assert_false(f->closed);
	/*
	 * Refusals drain a bucket of their own (10, refilled at the same
	 * rate): 5 were used, the second gave one back, so 6 more are
	 * refused and the 7th line ends the connection.
	 */
	for (i = 0; i < 6; i++)
		feed(f, "PING\n");
	assert_false(f->closed);
	feed(f, "PING\n");
	assert_int_equal(count(f, "ERR RATE_LIMITED Too many commands. "
	    "Please slow down."), 11);
	want(f, "BYE Too many commands. Goodbye.\r\n");
	assert_true(f->closed);
}

/* A refused MOVE changes nothing, and the opponent hears nothing. */
static void
test_rate_limited_move_changes_nothing(void **state)
{
	struct lobby_limits	 l;
	struct world		*w;
	int			 m, i;

	lobby_default_limits(&l);
	l.rate = 1;
	l.burst = 3;
	w = *state = world_new(&l);
	m = pair(w);
	for (i = 0; i < 3; i++)
		feed(&w->f[m], "PING\n");
	clear(&w->f[!m]);
	feed(&w->f[m], "B2\n");
	want(&w->f[m], "ERR RATE_LIMITED");
	assert_int_equal(w->f[!m].outlen, 0);
	assert_int_equal(ttt_board_moves(&w->f[m].c.match->board), 0);
	at(w, 1000);
	feed(&w->f[m], "B2\n");
	want(&w->f[m], "OK MOVE B2");
	assert_int_equal(ttt_board_moves(&w->f[m].c.match->board), 1);
}

/* An HTTP request as the first line closes; later it is just unknown. */
static void
test_http_first_line(void **state)
{
	struct world	*w = *state = world_new(NULL);
	struct fake	*f = world_open(w, 0), *g = world_open(w, 1);

	feed(f, "GET / HTTP/1.1\r\nHost: example\r\n\r\n");
	want(f, "ERR NOT_HTTP This is a Tic Tac Toe server, not a web "
	    "server. Goodbye.\r\n");
	assert_true(f->closed);
	assert_null(strstr(f->out, "UNKNOWN_COMMAND"));	/* Host: unread */
	/* Its opponent won by forfeit. */
	want(g, "RESULT FORFEIT");
	feed(g, "PING\nGET / HTTP/1.1\n");
	want(g, "ERR UNKNOWN_COMMAND");
	assert_false(g->closed);
}

/* Limits of 0: no deadline of any kind, in any state. */
static void
test_limits_off(void **state)
{
	struct lobby_limits	 l;
	struct world		*w;
	int			 m, i;

	memset(&l, 0, sizeof l);
	w = *state = world_new(&l);
	m = pair(w);
	world_open(w, 2);
	feed(&w->f[m], "PI");
	for (i = 0; i < 3; i++)
		assert_int_equal(conn_next_deadline(&w->f[i].c), 0);
	feed(&w->f[m], "NG\n");
	play_to_result(w, m);
	for (i = 0; i < 3; i++)
		assert_int_equal(conn_next_deadline(&w->f[i].c), 0);
	for (i = 0; i < 300; i++)
		feed(&w->f[2], "PING\n");
	assert_int_equal(count(&w->f[2], "OK PONG"), 300);
	at(w, 24 * 3600 * 1000);
	for (i = 0; i < 3; i++)
		assert_false(w->f[i].closed);
}

/* STATS: a game left mid-way counts as forfeited, even when the opponent
 * is closing itself (shutdown, dropped for not reading) and hears nothing. */
static void
test_forfeit_counted_when_opponent_closing(void **state)
{
	struct world	*w = *state = world_new(NULL);
	int		 m = pair(w);

	assert_int_equal(w->lobby.stats.games_finished, 0);
	session_shutdown(&w->f[!m].c);		/* closing, still in the match */
	session_lost(&w->f[m].c);
	assert_int_equal(w->lobby.stats.games_finished, 1);
	assert_int_equal(w->lobby.stats.forfeits, 1);
	session_lost(&w->f[!m].c);		/* and it is not counted twice */
	assert_int_equal(w->lobby.stats.games_finished, 1);
	assert_int_equal(w->lobby.stats.forfeits, 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_lines_per_call_bounded,
		    world_free),
		cmocka_unit_test_teardown(test_partial_line_deadline,
		    world_free),
		cmocka_unit_test_teardown(test_finished_line_restarts_deadline,
		    world_free),
		cmocka_unit_test_teardown(test_turn_clock, world_free),
		cmocka_unit_test_teardown(test_turn_clock_moves_with_the_turn,
		    world_free),
		cmocka_unit_test_teardown(test_again_clock, world_free),
		cmocka_unit_test_teardown(test_idle_clock, world_free),
		cmocka_unit_test_teardown(test_rate_limit, world_free),
		cmocka_unit_test_teardown(
		    test_rate_limited_move_changes_nothing, world_free),
		cmocka_unit_test_teardown(test_http_first_line, world_free),
		cmocka_unit_test_teardown(test_limits_off, world_free),
		cmocka_unit_test_teardown(
		    test_forfeit_counted_when_opponent_closing, world_free),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
