/*
 * test_session.c -- a connection's logic without sockets, on a fake clock:
 * lines per call, the partial-line deadline, the turn, AGAIN? and queue
 * clocks, the rate limit, the HTTP first line and the reasons a player
 * is held.
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
#include <event2/event.h>

#include "conn.h"
#include "keytab.h"
#include "lobby.h"
#include "match.h"
#include "match-keep.h"
#include "room.h"
#include "session.h"

#define FAKE_CLIENTS	10
#define FAKE_OUT	16384

/* A client with what it was sent; the client comes first (see fake_of). */
struct fake {
	struct client	 c;
	struct evbuffer	*in;
	char		 out[FAKE_OUT];
	size_t		 outlen;
	int		 open;
	int		 closed;
	int		 holds;		/* the hold op's count: 1 held, 0 not */
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
fake_rearm(struct client *c, int64_t at)
{
	(void)c;
	(void)at;
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

static const struct client_ops fake_client_ops = {
	fake_send, fake_close, fake_rearm, NULL, NULL	/* no other node */
};
static void	fake_hold(struct client *, int);
/* A client that can wait (the hold op), as a connection of the daemon. */
static const struct client_ops fake_hold_ops = {
	fake_send, fake_close, fake_rearm, NULL, fake_hold
};
static const struct lobby_host fake_ops = {
	fake_now, fake_random, fake_wake
};

/* A world with these limits; the default ones when NULL. */
static int	world_fresh;	/* keep the pairing delay of new players */

static struct world *
world_new(const struct lobby_limits *limits)
{
	struct world		*w = calloc(1, sizeof *w);
	struct lobby_limits	 l;
	int			 i;

	assert_non_null(w);
	if (limits != NULL)
		l = *limits;
	else
		lobby_default_limits(&l);
	/* Paired at once; the delay for new connections has tests of its own. */
	if (!world_fresh)
		l.fresh_ms = 0;
	lobby_init(&w->lobby, &fake_ops, &l, 7);
	for (i = 0; i < FAKE_CLIENTS; i++) {
		w->f[i].in = evbuffer_new();
		w->f[i].c.id = (uint64_t)i + 1;
		w->f[i].c.ops = &fake_client_ops;
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

/*
 * Bytes as the daemon reads them: no more at a time than fits beside what
 * is pending in one line's room (PROTO_SCAN_MAX).
 */
static void
feed_read(struct fake *f, const char *bytes, size_t len)
{
	size_t	n;

	while (len > 0 && !f->closed) {
		n = PROTO_SCAN_MAX - evbuffer_get_length(f->in);
		if (n > len)
			n = len;
		evbuffer_add(f->in, bytes, n);
		bytes += n;
		len -= n;
		while (conn_input(&f->c, f->in))
			;
		assert_true(f->closed ||
		    evbuffer_get_length(f->in) < PROTO_SCAN_MAX);
	}
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

/*
 * How many lines of the client's output start with the text (whole: and
 * end there, at CR or the end of the output).
 */
static int
count_lines(const struct fake *f, const char *text, int whole)
{
	const char	*p = f->out;
	size_t		 n = strlen(text);
	int		 k = 0;

	while ((p = strstr(p, text)) != NULL) {
		if ((p == f->out || p[-1] == '\n') && (!whole ||
		    p[n] == '\r' || p[n] == '\0'))
			k++;
		p += n;
	}
	return (k);
}

/* How often a line occurs in the client's output. */
static int
count(const struct fake *f, const char *line)
{
	return (count_lines(f, line, 1));
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

/* How many lines start with a prefix in the client's output. */
static int
count_prefix(const struct fake *f, const char *prefix)
{
	return (count_lines(f, prefix, 0));
}

/* The client's output has these lines (or line starts), in this order. */
static void
want_seq(const struct fake *f, ...)
{
	va_list		 ap;
	const char	*line, *p = f->out, *q;

	va_start(ap, f);
	while ((line = va_arg(ap, const char *)) != NULL) {
		if ((q = strstr(p, line)) == NULL) {
			va_end(ap);
			fail_msg("expected \"%s\" (in this order) in:\n%s",
			    line, f->out);
		}
		p = q + strlen(line);
	}
	va_end(ap);
}

/* The output does not contain this text. */
static void
want_no(const struct fake *f, const char *text)
{
	if (strstr(f->out, text) != NULL)
		fail_msg("did not expect \"%s\" in:\n%s", text, f->out);
}

/* The last line starting with prefix, without its CR LF; "" if none. */
static const char *
last_line(const struct fake *f, const char *prefix)
{
	static char	 line[PROTO_OUT_MAX];
	const char	*p = f->out, *found = NULL, *end;
	size_t		 n = strlen(prefix);

	while ((p = strstr(p, prefix)) != NULL) {
		if (p == f->out || p[-1] == '\n')
			found = p;
		p += n;
	}
	line[0] = '\0';
	if (found != NULL) {
		end = strstr(found, "\r\n");
		n = end != NULL ? (size_t)(end - found) : strlen(found);
		if (n >= sizeof line)
			n = sizeof line - 1;
		memcpy(line, found, n);
		line[n] = '\0';
	}
	return (line);
}

/* The token of the client's last TOKEN line: XXXX-XXXX. */
static void
token_of(const struct fake *f, char tok[PROTO_TOKEN_LEN + 2])
{
	const char	*line = last_line(f, "TOKEN ");

	if (strlen(line) < 6 + PROTO_TOKEN_LEN + 1)
		fail_msg("no TOKEN line in:\n%s", f->out);
	memcpy(tok, line + 6, PROTO_TOKEN_LEN + 1);
	tok[PROTO_TOKEN_LEN + 1] = '\0';
}

static int	is_code(const char *, size_t);

/*
 * A room code as OK ROOM gives it: XXXX-XXXX, of the code alphabet, upper
 * case; 1 if so, and the code without its dash to plain.
 */
static int
is_room_code(const char *s, char plain[PROTO_CODE_LEN + 1])
{
	if (strlen(s) != PROTO_CODE_LEN + 1 || s[PROTO_CODE_LEN / 2] != '-' ||
	    !is_code(s, PROTO_CODE_LEN / 2) ||
	    !is_code(s + PROTO_CODE_LEN / 2 + 1, PROTO_CODE_LEN / 2))
		return (0);
	memcpy(plain, s, PROTO_CODE_LEN / 2);
	memcpy(plain + PROTO_CODE_LEN / 2, s + PROTO_CODE_LEN / 2 + 1,
	    PROTO_CODE_LEN / 2 + 1);
	return (1);
}

/* Is s made of n characters of the code alphabet, upper case? */
static int
is_code(const char *s, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		if (s[i] == '\0' || strchr(PROTO_CODE_ALPHABET, s[i]) == NULL)
			return (0);
	}
	return (1);
}

/* Of clients a and b, the one whose last TURN line asks it to move. */
static int
mover_of(const struct world *w, int a, int b)
{
	if (strstr(last_line(&w->f[a], "TURN "), "Enter") != NULL)
		return (a);
	if (strstr(last_line(&w->f[b], "TURN "), "Enter") != NULL)
		return (b);
	fail_msg("neither %d nor %d is to move", a, b);
	return (-1);
}

/* A move that must be accepted (the output is kept). */
static void
play(struct world *w, int i, const char *cell)
{
	char	line[32], ok[32];
	size_t	k;
	int	before;

	snprintf(line, sizeof line, "MOVE %s\n", cell);
	snprintf(ok, sizeof ok, "OK MOVE %s", cell);
	for (k = 0; ok[k] != '\0'; k++) {
		if (ok[k] >= 'a' && ok[k] <= 'z')
			ok[k] = (char)(ok[k] - 'a' + 'A');
	}
	before = count(&w->f[i], ok);
	feed(&w->f[i], line);
	if (count(&w->f[i], ok) != before + 1)
		fail_msg("client %d: %s refused:\n%s", i, cell, w->f[i].out);
}

/* The client lost its connection (and is freed by the transport). */
static void
lose(struct world *w, int i)
{
	session_lost(&w->f[i].c);
	w->f[i].open = 0;
}

/*
 * A fresh connection in slot i, whose last one is freed first (as the
 * transport frees a closed one).
 */
static struct fake *
reopen(struct world *w, int i)
{
	struct fake	*f = &w->f[i];
	char		 addr[sizeof f->c.addr];

	if (f->open)
		session_lost(&f->c);
	memcpy(addr, f->c.addr, sizeof addr);
	memset(&f->c, 0, sizeof f->c);
	f->c.id = (uint64_t)i + 100;
	f->c.ops = &fake_client_ops;
	memcpy(f->c.addr, addr, sizeof addr);
	f->outlen = 0;
	f->out[0] = '\0';
	f->closed = 0;
	return (world_open(w, i));
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

static size_t	test_allocs;

/* libevent's allocator hooks: count, then do the real thing. */
static void *
count_malloc(size_t n)
{
	test_allocs++;
	return (malloc(n));
}

static void *
count_realloc(void *p, size_t n)
{
	test_allocs++;
	return (realloc(p, n));
}

/*
 * Taking lines off the input buffer allocates nothing per line (libevent's
 * evbuffer_readln would: the counter is shown to see that).  A partial
 * line stays pending throughout, as it does in the daemon's buffer.
 */
static void
test_input_no_alloc_per_line(void **state)
{
	struct lobby_limits	 l;
	struct world		*w;
	struct fake		*f;
	size_t			 before;
	int			 i;

	lobby_default_limits(&l);
	l.rate = 0;		/* 1,000 lines on a clock that stands still */
	w = *state = world_new(&l);
	f = world_open(w, 0);

	event_set_mem_functions(count_malloc, count_realloc, free);
	evbuffer_add(f->in, "PI", 2);		/* its chain, once */
	before = test_allocs;
	for (i = 0; i < 1000; i++) {
		clear(f);
		evbuffer_add(f->in, "NG\r\nPI", 6);
		while (conn_input(&f->c, f->in))
			;
		assert_int_equal(count(f, "OK PONG"), 1);
	}
	event_set_mem_functions(NULL, NULL, NULL);
	if (test_allocs != before)
		fail_msg("%zu libevent allocations for 1,000 lines",
		    test_allocs - before);
	evbuffer_drain(f->in, evbuffer_get_length(f->in));
	event_set_mem_functions(count_malloc, count_realloc, free);
	evbuffer_add(f->in, "PING\r\nPING\r\n", 12);
	before = test_allocs;
	free(evbuffer_readln(f->in, NULL, EVBUFFER_EOL_CRLF));
	free(evbuffer_readln(f->in, NULL, EVBUFFER_EOL_CRLF));
	event_set_mem_functions(NULL, NULL, NULL);
	assert_true(test_allocs - before >= 2);
}

/*
 * Bytes straight from a read: at most CONN_LINES_PER_CALL lines, the rest
 * left to the caller; a partial line is left and starts its deadline; an
 * overlong one is thrown away as it comes: everything is used.
 */
static void
test_bytes_lines_per_call_bounded(void **state)
{
	struct world	*w = *state = world_new(NULL);
	struct fake	*f = world_open(w, 0);
	char		 buf[PROTO_SCAN_MAX];
	size_t		 used;
	int		 i, more;

	clear(f);
	for (i = 0; i < 40; i++)
		memcpy(buf + 5 * i, "PING\n", 5);
	used = conn_input_bytes(&f->c, buf, 200, &more);
	assert_int_equal(used, 5 * CONN_LINES_PER_CALL);
	assert_int_equal(more, 1);
	assert_int_equal(count(f, "OK PONG"), CONN_LINES_PER_CALL);
	/* Exactly the bound: nothing is left, so no more to do. */
	used = conn_input_bytes(&f->c, buf, 5 * CONN_LINES_PER_CALL, &more);
	assert_int_equal(used, 5 * CONN_LINES_PER_CALL);
	assert_int_equal(more, 0);
	assert_int_equal(count(f, "OK PONG"), 2 * CONN_LINES_PER_CALL);
	/* A partial line is left, and its deadline starts. */
	assert_int_equal(f->c.line_deadline, 0);
	used = conn_input_bytes(&f->c, "PING\r\nPIN", 9, &more);
	assert_int_equal(used, 6);
	assert_int_equal(more, 0);
	assert_int_equal(count(f, "OK PONG"), 2 * CONN_LINES_PER_CALL + 1);
	assert_int_equal(f->c.line_deadline, fake_clock + w->lobby.limits.line_ms);
	/* A line past the limit: every byte used, no answer before its LF. */
	clear(f);
	memset(buf, 'x', sizeof buf);
	used = conn_input_bytes(&f->c, buf, sizeof buf, &more);
	assert_int_equal(used, sizeof buf);
	assert_int_equal(more, 0);
	assert_int_equal(f->outlen, 0);
	/* Its LF: answered; the line after it is read as ever. */
	used = conn_input_bytes(&f->c, "xx\nPING\nPI", 11, &more);
	assert_int_equal(used, 8);
	assert_false(f->closed);
	want_seq(f, "ERR LINE_TOO_LONG Lines are limited to 256 bytes.\r\n",
	    "OK PONG\r\n", NULL);
}

/*
 * An over-long line is skipped up to its LF, however the reads split it,
 * without holding its bytes: one LINE_TOO_LONG, and the connection goes
 * on.  4,096 bytes without an LF are a flood: LINE_TOO_LONG and closed,
 * whether or not the LF comes next in the same read.
 */
static void
test_long_line_skipped_flood_closes(void **state)
{
	struct world	*w = *state = world_new(NULL);
	struct fake	*f = world_open(w, 0), *g = world_open(w, 1);
	char		 buf[CONN_FLOOD_MAX + 8];
	int		 i;

	memset(buf, 'x', sizeof buf);
	clear(f);
	/* 4,095 bytes, then the LF, read in pieces. */
	feed_read(f, buf, CONN_FLOOD_MAX - 1);
	assert_int_equal(f->outlen, 0);
	assert_int_not_equal(f->c.line_deadline, 0);	/* a line begun */
	feed(f, "\nPING\n");
	assert_false(f->closed);
	want_seq(f, "ERR LINE_TOO_LONG Lines are limited to 256 bytes.\r\n",
	    "OK PONG\r\n", NULL);
	assert_int_equal(count(f, "ERR LINE_TOO_LONG Lines are limited to "
	    "256 bytes."), 1);
	assert_int_equal(f->c.line_deadline, 0);
	/* Two over-long lines in one read: two answers. */
	clear(f);
	buf[300] = '\n';
	buf[601] = '\n';
	(void)conn_input_bytes(&f->c, buf, 602, &i);
	assert_int_equal(count(f, "ERR LINE_TOO_LONG Lines are limited to "
	    "256 bytes."), 2);
	assert_false(f->closed);
	/* 4,096 bytes and the LF right after them: a flood all the same. */
	memset(buf, 'x', sizeof buf);
	buf[CONN_FLOOD_MAX] = '\n';
	clear(g);
	assert_int_equal(conn_input_bytes(&g->c, buf, 300, &i), 300);
	(void)conn_input_bytes(&g->c, buf, CONN_FLOOD_MAX - 300 + 1, &i);
	assert_true(g->closed);
	assert_string_equal(g->out,
	    "ERR LINE_TOO_LONG Lines are limited to 256 bytes.\r\n");
}

/* An over-long line counts against the rate limit, as any line does. */
static void
test_long_line_rate_limited(void **state)
{
	struct lobby_limits	 l;
	struct world		*w;
	struct fake		*f;
	char			 buf[301];
	int			 i;

	lobby_default_limits(&l);
	l.rate = 1;
	l.burst = 3;
	w = *state = world_new(&l);
	f = world_open(w, 0);
	clear(f);
	memset(buf, 'x', sizeof buf);
	buf[300] = '\n';
	for (i = 0; i < 5; i++)
		feed_read(f, buf, sizeof buf);
	assert_int_equal(count(f, "ERR LINE_TOO_LONG Lines are limited to "
	    "256 bytes."), 3);
	assert_int_equal(count(f, "ERR RATE_LIMITED Too many commands. "
	    "Please slow down."), 2);
	assert_false(f->closed);
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
	assert_int_equal(client_deadline(&f->c), fake_clock + 900000);
	feed(f, "PI");
	assert_int_equal(client_deadline(&f->c), fake_clock + 1000);
	at(w, 600);
	feed(f, "N");
	assert_int_equal(client_deadline(&f->c), 1000000 + 1000);
	at(w, 999);
	assert_false(f->closed);
	at(w, 1000);
	assert_true(f->closed);
	want(f, "ERR LINE_TIMEOUT Your line was not finished in time. "
	    "Goodbye.\r\n");
	assert_int_equal(client_deadline(&f->c), 0);
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
	l.ai_offer_ms = 0;	/* no queue clock of any kind: lines alone */
	w = *state = world_new(&l);
	f = world_open(w, 0);
	assert_int_equal(client_deadline(&f->c), 0);
	feed(f, "PI");
	at(w, 500);
	feed(f, "NG\nPI");
	want(f, "OK PONG");
	assert_int_equal(client_deadline(&f->c), 1000000 + 1500);
	at(w, 1000);
	assert_false(f->closed);
	feed(f, "NG\n");
	assert_int_equal(count(f, "OK PONG"), 2);
	assert_int_equal(client_deadline(&f->c), 0);
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
	assert_int_equal(client_deadline(&mover->c), 1000000 + 2000);
	assert_int_equal(client_deadline(&other->c), 0);
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
	clear(other);
	at(w, 3000);
	/* It loses the game, not the connection: both see the result. */
	want_no(mover, "BYE");
	assert_false(mover->closed);
	want_seq(mover, m == 0 ?
	    "RESULT FORFEIT O p2 p1 ran out of time. p2 wins!\r\n" :
	    "RESULT FORFEIT X p1 p2 ran out of time. p1 wins!\r\n",
	    m == 0 ? "INFO Score: p1 0, p2 1, ties 0.\r\n" :
	    "INFO Score: p1 1, p2 0, ties 0.\r\n", "AGAIN? ", NULL);
	want_seq(other, m == 0 ?
	    "RESULT FORFEIT O p2 p1 ran out of time. p2 wins!\r\n" :
	    "RESULT FORFEIT X p1 p2 ran out of time. p1 wins!\r\n",
	    "INFO Score: ", "AGAIN? ", NULL);
	assert_int_equal(w->lobby.stats.forfeits, 1);
	assert_int_equal(w->lobby.stats.wins, 0);
	/* Both now have their AGAIN? clocks. */
	assert_int_equal(client_deadline(&other->c),
	    1000000 + 3000 + LOBBY_AGAIN_MS);
	assert_int_equal(client_deadline(&mover->c),
	    1000000 + 3000 + LOBBY_AGAIN_MS);
	/* Both say yes: the winner starts the next game. */
	session_line(&mover->c, "y", 1);
	clear(other);
	session_line(&other->c, "y", 1);
	want(other, m == 0 ? "START O " : "START X ");
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
	assert_int_equal(client_deadline(&w->f[m].c), 0);
	assert_int_equal(client_deadline(&w->f[!m].c),
	    1000000 + 2500 + 2000);
	at(w, 5499);
	want_no(&w->f[m], "RESULT");
	at(w, 5500);
	want(&w->f[!m], "INFO You have 1 second left to move.");
	at(w, 6500);
	want(&w->f[m], "ran out of time.");
	want(&w->f[!m], "ran out of time.");
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
	assert_int_equal(client_deadline(&w->f[m].c), 0);
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
	assert_int_equal(client_deadline(&w->f[m].c),
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

/* An over-long line is a line too: it restarts the idle clock. */
static void
test_idle_clock_long_line(void **state)
{
	struct lobby_limits	 l;
	struct world		*w;
	struct fake		*f;
	char			 buf[301];

	lobby_default_limits(&l);
	l.idle_ms = 5000;
	w = *state = world_new(&l);
	f = world_open(w, 0);
	at(w, 4000);
	memset(buf, 'x', sizeof buf);
	buf[300] = '\n';
	feed_read(f, buf, sizeof buf);
	want(f, "ERR LINE_TOO_LONG");
	at(w, 8999);
	assert_false(f->closed);
	at(w, 9000);
	assert_true(f->closed);
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

/*
 * A WebSocket control frame takes a token of the line rate limit, which
 * lines and control frames share; one over it has no refusal to be sent:
 * the player leaves at once (its opponent wins, as when a connection is
 * lost) and the transport is told to close (1008).  A second later there
 * is a token again; with no rate limit, none is counted.
 */
static void
test_control_frame_rate(void **state)
{
	struct lobby_limits	 l;
	struct world		*w;
	struct fake		*f, *g;
	int			 m, i;

	lobby_default_limits(&l);
	l.rate = 1;
	l.burst = 3;
	w = *state = world_new(&l);
	m = pair(w);
	f = &w->f[m];
	feed(f, "PING\n");
	feed(f, "PING\n");
	assert_int_equal(session_control(&f->c), 0);
	clear(f);
	clear(&w->f[!m]);
	assert_int_equal(session_control(&f->c), -1);
	assert_int_equal(f->c.place, PLACE_GONE);
	assert_int_equal(f->outlen, 0);		/* the close says why */
	assert_false(f->closed);		/* the transport closes */
	want(&w->f[!m], "RESULT FORFEIT ");
	want(&w->f[!m], "lost the connection");

	g = world_open(w, 2);
	for (i = 0; i < 3; i++)
		assert_int_equal(session_control(&g->c), 0);
	at(w, 1000);
	assert_int_equal(session_control(&g->c), 0);
	assert_int_equal(session_control(&g->c), -1);

	w->lobby.limits.rate = 0;
	g = world_open(w, 3);
	for (i = 0; i < 1000; i++)
		assert_int_equal(session_control(&g->c), 0);
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

/* The default limits, new players paired only after LOBBY_FRESH_MS. */
static struct world *
world_new_fresh(void)
{
	struct world	*w;

	world_fresh = 1;
	w = world_new(NULL);
	world_fresh = 0;
	return (w);
}

/*
 * A new connection is paired once it is half a second old: not before,
 * and then with the one that has waited longest.
 */
static void
test_fresh_paired_after_half_second(void **state)
{
	struct world	*w = *state = world_new_fresh();
	struct fake	*a = world_open(w, 0), *b;

	assert_int_equal(lobby_next_deadline(&w->lobby),
	    1000000 + LOBBY_FRESH_MS);
	at(w, 300);
	b = world_open(w, 1);
	at(w, 499);
	lobby_expire(&w->lobby);
	assert_int_equal(w->lobby.nfresh, 2);
	at(w, 500);
	lobby_expire(&w->lobby);		/* a is ripe, b not yet */
	assert_int_equal(w->lobby.nfresh, 1);
	assert_int_equal(w->lobby.nqueued, 1);
	want_no(a, "MATCH");
	assert_int_equal(lobby_next_deadline(&w->lobby), 1000000 + 800);
	at(w, 799);
	lobby_expire(&w->lobby);
	want_no(a, "MATCH");
	at(w, 800);
	lobby_expire(&w->lobby);
	want(a, "MATCH X p2 ");
	want(b, "MATCH O p1 ");
	assert_int_equal(w->lobby.nfresh + w->lobby.nqueued, 0);
	assert_int_equal(lobby_next_deadline(&w->lobby), 0);
}

/* Client i signed in with a rating (as the accounts say it), then open. */
static struct fake *
world_open_rated(struct world *w, int i, int rating)
{
	lobby_rated(&w->lobby, &w->f[i].c, 1, rating);
	return (world_open(w, i));
}

/*
 * Signed-in players by rating (protocol.md §6.1): 1500 and 1900 wait,
 * 1520 meets 1500; 1900 and 1750, 150 apart, meet when the later one
 * has waited 1 s (the lobby's timer aimed there), not 1 ms before; a
 * guest meets a signed-in player left alone at once.
 */
static void
test_rated_pairing(void **state)
{
	struct world	*w = *state = world_new(NULL);
	struct fake	*a, *b, *c, *d, *e;

	a = world_open_rated(w, 0, 1500);
	b = world_open_rated(w, 1, 1900);
	assert_int_equal(w->lobby.nqueued, 2);
	assert_int_equal(lobby_next_deadline(&w->lobby), 1000000 + 6000);
	at(w, 100);
	c = world_open_rated(w, 2, 1520);
	assert_int_equal(a->c.place, PLACE_MATCH);
	assert_ptr_equal(a->c.match, c->c.match);
	assert_int_equal(b->c.place, PLACE_QUEUE);
	want_no(b, "MATCH");
	at(w, 2000);
	d = world_open_rated(w, 3, 1750);
	assert_int_equal(d->c.place, PLACE_QUEUE);
	assert_int_equal(lobby_next_deadline(&w->lobby), 1000000 + 3000);
	at(w, 2999);
	lobby_expire(&w->lobby);
	assert_int_equal(b->c.place, PLACE_QUEUE);
	at(w, 3000);
	lobby_expire(&w->lobby);
	assert_int_equal(b->c.place, PLACE_MATCH);
	assert_ptr_equal(b->c.match, d->c.match);
	want(b, "MATCH X p2 ");		/* b waited longer */
	assert_int_equal(lobby_next_deadline(&w->lobby), 0);
	e = world_open_rated(w, 4, 2400);
	assert_int_equal(e->c.place, PLACE_QUEUE);
	e = world_open(w, 5);		/* a guest */
	assert_int_equal(e->c.place, PLACE_MATCH);
	assert_ptr_equal(e->c.match, w->f[4].c.match);
}

/*
 * A guest meets a signed-in player alone at once; one who signs out
 * while it waits is weighed again as a guest and meets the signed-in
 * player who waited longest; guests meet first come, first served.
 */
static void
test_rated_guests(void **state)
{
	struct world	*w = *state = world_new(NULL);
	struct fake	*g;

	(void)world_open_rated(w, 0, 1500);
	g = world_open(w, 1);			/* with 1500 at once */
	assert_ptr_equal(g->c.match, w->f[0].c.match);
	(void)world_open_rated(w, 2, 1500);
	(void)world_open_rated(w, 3, 2500);
	(void)world_open_rated(w, 4, 1000);
	assert_int_equal(w->lobby.nqueued, 3);	/* none in range */
	lobby_rated(&w->lobby, &w->f[4].c, 0, 0);	/* 1000 signs out */
	assert_int_equal(w->lobby.nqueued, 3);
	lobby_unheld(&w->lobby);
	assert_int_equal(w->lobby.nqueued, 1);
	assert_ptr_equal(w->f[4].c.match, w->f[2].c.match);
	assert_int_equal(w->f[2].c.seat, 0);	/* 1500 waited longer */
	g = world_open(w, 5);			/* with 2500 at once */
	assert_ptr_equal(g->c.match, w->f[3].c.match);
	g = world_open(w, 6);
	assert_int_equal(g->c.place, PLACE_QUEUE);
	(void)world_open(w, 7);
	assert_ptr_equal(g->c.match, w->f[7].c.match);
	assert_int_equal(g->c.seat, 0);		/* the first come plays X */
}

/*
 * A player whose opponent left before the first move waits half a second
 * too before it is paired again (then first, as X): its MOVE sent before
 * it could see the abort is answered NO_GAME, never played in the match
 * it is paired into next.
 */
static void
test_fresh_abort_requeue_waits(void **state)
{
	struct world	*w = *state = world_new_fresh();
	struct fake	*c;
	int		 m;

	world_open(w, 0);
	world_open(w, 1);
	at(w, 500);
	lobby_expire(&w->lobby);
	want(&w->f[0], "MATCH X p2 ");
	m = mover_of(w, 0, 1);
	c = world_open(w, 2);
	at(w, 1000);
	lobby_expire(&w->lobby);		/* c waits, alone */
	clear(&w->f[m]);
	feed(&w->f[!m], "QUIT\n");		/* before its first move */
	want_seq(&w->f[m], "INFO ", "WAIT Waiting for an opponent...\r\n",
	    NULL);
	want_no(&w->f[m], "MATCH");
	feed(&w->f[m], "MOVE B2\n");		/* sent before it saw that */
	want(&w->f[m], "ERR NO_GAME You are not in a game right now.\r\n");
	at(w, 1499);
	lobby_expire(&w->lobby);
	want_no(&w->f[m], "MATCH");
	assert_int_equal(lobby_next_deadline(&w->lobby), 1000000 + 1500);
	at(w, 1500);
	lobby_expire(&w->lobby);
	want(&w->f[m], "MATCH X p2 ");		/* at the front: X */
	want(c, "MATCH O p1 ");
	assert_ptr_equal(w->f[m].c.match, c->c.match);
	assert_int_equal(ttt_board_moves(&c->c.match->board), 0);
	want_no(&w->f[m], "OK MOVE");
}

/*
 * A probe (it connects and closes at once, or asks for a web page) is
 * never the opponent of the player waiting, and counts as no game.
 */
static void
test_fresh_probe_never_paired(void **state)
{
	struct world	*w = *state = world_new_fresh();
	struct fake	*a = world_open(w, 0), *p, *h;

	at(w, 1000);
	lobby_expire(&w->lobby);		/* a waits, alone */
	p = world_open(w, 1);
	at(w, 1100);
	session_lost(&p->c);			/* nc -z */
	p->open = 0;
	h = world_open(w, 2);
	feed(h, "GET / HTTP/1.1\r\n");		/* curl */
	assert_true(h->closed);
	assert_int_equal(w->lobby.nfresh, 0);
	at(w, 2000);
	lobby_expire(&w->lobby);
	want_no(a, "MATCH");
	assert_int_equal(w->lobby.nmatches, 0);
	assert_int_equal(w->lobby.stats.games_finished, 0);
	assert_int_equal(w->lobby.stats.forfeits, 0);
	assert_int_equal(w->lobby.nqueued, 1);
}

/*
 * A request for a long URL: its first line is too long to read whole, and
 * is still an HTTP request, refused as one, and never paired.
 */
static void
test_fresh_long_http_never_paired(void **state)
{
	struct world	*w = *state = world_new_fresh();
	struct fake	*a = world_open(w, 0), *h;
	char		 line[512];

	at(w, 1000);
	lobby_expire(&w->lobby);
	h = world_open(w, 1);
	snprintf(line, sizeof line, "GET /%0300d HTTP/1.1\r\nHost: x\r\n",
	    0);
	feed_read(h, line, strlen(line));
	want(h, "ERR NOT_HTTP ");
	want_no(h, "LINE_TOO_LONG");
	assert_true(h->closed);
	at(w, 2000);
	lobby_expire(&w->lobby);
	want_no(a, "MATCH");
	/* Not on a later line: a player's long line is only too long. */
	world_open(w, 2);
	feed(&w->f[2], "PING\n");
	feed_read(&w->f[2], line, strlen(line));
	want(&w->f[2], "ERR LINE_TOO_LONG ");
	assert_false(w->f[2].closed);
}

/*
 * The offer of the computer goes to a player alone in the queue: due while
 * a newcomer has its half second, it waits for that; the newcomer was a
 * probe and went, so the offer comes.
 */
static void
test_fresh_probe_delays_ai_offer(void **state)
{
	struct lobby_limits	 l;
	struct world		*w;
	struct fake		*a, *p;

	lobby_default_limits(&l);
	l.ai_offer_ms = 2000;
	world_fresh = 1;
	w = *state = world_new(&l);
	world_fresh = 0;
	a = world_open(w, 0);
	at(w, 1000);
	lobby_expire(&w->lobby);
	at(w, 1800);
	p = world_open(w, 1);
	at(w, 2000);
	want_no(a, "PLAY AI");
	at(w, 2100);
	session_lost(&p->c);
	p->open = 0;
	at(w, 2499);
	want_no(a, "PLAY AI");
	at(w, 2500);
	want(a, "INFO Nobody else is here yet. Type PLAY AI to play the "
	    "computer.\r\n");
	assert_int_equal(count_prefix(a, "INFO Nobody"), 1);
}

/* A name sent at once is the name in the opponent's MATCH line. */
static void
test_fresh_name_in_match(void **state)
{
	struct world	*w = *state = world_new_fresh();
	struct fake	*a = world_open(w, 0), *b;

	at(w, 600);
	lobby_expire(&w->lobby);
	b = world_open(w, 1);
	feed(b, "NAME bob\n");
	want(b, "OK NAME bob");
	at(w, 1100);
	lobby_expire(&w->lobby);
	want(a, "MATCH X bob You play X against bob.");
	want_no(a, "known as");
	want(b, "MATCH O p1 ");
}

/*
 * The names rules in the world (name.c): a name that looks like a seat's
 * (р1 in Cyrillic, 𝐩𝟏, аі) or like a connected player's (ᴀʟɪᴄᴇ for
 * alice) is NAME_TAKEN; marks alone and U+0378 are BAD_NAME; alice may
 * write her own name in small capitals.
 */
static void
test_name_look_alikes(void **state)
{
	struct world	*w = *state = world_new(NULL);
	struct fake	*a = world_open(w, 0), *b = world_open(w, 1);
	static const char alice_sc[] =
	    "\xe1\xb4\x80\xca\x9f\xc9\xaa\xe1\xb4\x84\xe1\xb4\x87";
	static const char *const taken[] = {
		"\xd1\x80\x31", "\xf0\x9d\x90\xa9\xf0\x9d\x9f\x8f",
		"\xd0\xb0\xd1\x96", alice_sc,
	};
	char		 line[64];
	size_t		 i;

	feed(a, "NAME alice\n");
	want(a, "OK NAME alice");
	for (i = 0; i < sizeof taken / sizeof taken[0]; i++) {
		clear(b);
		snprintf(line, sizeof line, "NAME %s\n", taken[i]);
		feed(b, line);
		want(b, "ERR NAME_TAKEN ");
	}
	clear(b);
	feed(b, "NAME \xd6\xb0\xd6\xb0\n");
	want(b, "ERR BAD_NAME ");
	clear(b);
	feed(b, "NAME x\xcd\xb8\n");
	want(b, "ERR BAD_NAME ");
	snprintf(line, sizeof line, "NAME %s\n", alice_sc);
	feed(a, line);
	snprintf(line, sizeof line, "OK NAME %s", alice_sc);
	want(a, line);
}

/*
 * A new connection is in the queue from the start (STATS counts it) and
 * may leave it for anything else at once: the computer, a room.
 */
static void
test_fresh_leaves_for_ai(void **state)
{
	struct world	*w = *state = world_new_fresh();
	struct fake	*a = world_open(w, 0), *b = world_open(w, 1);

	assert_int_equal(w->lobby.nfresh, 2);
	feed(a, "STATS\n");
	want(a, "STAT players_waiting 2\r\n");
	feed(a, "PLAY AI\n");
	want(a, "OK PLAY AI");
	want(a, "MATCH X ai ");
	assert_int_equal(w->lobby.nfresh, 1);
	at(w, 500);
	lobby_expire(&w->lobby);
	want_no(b, "MATCH");
	assert_int_equal(w->lobby.nqueued, 1);
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
		assert_int_equal(client_deadline(&w->f[i].c), 0);
	feed(&w->f[m], "NG\n");
	play_to_result(w, m);
	for (i = 0; i < 3; i++)
		assert_int_equal(client_deadline(&w->f[i].c), 0);
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
	session_shutdown(&w->f[!m].c, SESSION_SHUTDOWN);		/* closing, still in the match */
	session_lost(&w->f[m].c);
	assert_int_equal(w->lobby.stats.games_finished, 1);
	assert_int_equal(w->lobby.stats.forfeits, 1);
	session_lost(&w->f[!m].c);		/* and it is not counted twice */
	assert_int_equal(w->lobby.stats.games_finished, 1);
	assert_int_equal(w->lobby.stats.forfeits, 1);
}

/* Names and marks of a pair's seats: client 0 is p1 (X), client 1 p2 (O). */
static const char *const seat_name[2] = { "p1", "p2" };
static const char seat_mark[2] = { 'X', 'O' };

/*
 * §9.2: QUIT before anyone's first move aborts the match: no result, and
 * the opponent goes back to the FRONT of the queue -- ahead of a player
 * already waiting there, so it is p1 (X) of its next match.
 */
static void
test_abort_by_quit_before_first_move(void **state)
{
	struct world	*w = *state = world_new(NULL);

	pair(w);
	world_open(w, 2);			/* waiting alone */
	assert_int_equal(w->lobby.nqueued, 1);
	clear(&w->f[1]);
	clear(&w->f[2]);
	feed(&w->f[0], "QUIT\n");
	want(&w->f[0], "BYE Thank you for playing!\r\n");
	assert_true(w->f[0].closed);
	want_seq(&w->f[1], "INFO p1 left before the first move. No result.\r\n",
	    "WAIT Waiting for an opponent...\r\n", "MATCH X p2 ", NULL);
	want_no(&w->f[1], "RESULT");
	want(&w->f[2], "MATCH O p1 ");
	assert_ptr_equal(w->f[1].c.match, w->f[2].c.match);
	assert_int_equal(w->f[1].c.seat, 0);
	assert_int_equal(w->lobby.stats.aborts, 1);
	assert_int_equal(w->lobby.stats.games_finished, 0);
	assert_int_equal(w->lobby.stats.forfeits, 0);
	clear(&w->f[2]);
	feed(&w->f[2], "STATS\n");
	want(&w->f[2], "STAT aborts 1\r\n");
	want(&w->f[2], "STAT games_finished 0\r\n");
	want(&w->f[2], "STAT forfeits 0\r\n");
}

/*
 * An abort with a watcher: the opponent is paired with the player who was
 * waiting (§9.2: it is paired first); the watcher the abort lets go is
 * told, and queued nowhere (§9.4).
 */
static void
test_abort_opponent_before_watchers(void **state)
{
	struct world	*w = *state = world_new(NULL);

	pair(w);
	world_open(w, 2);
	feed(&w->f[2], "WATCH 1\n");
	want(&w->f[2], "OK WATCH 1\r\n");
	world_open(w, 3);			/* waiting alone */
	assert_int_equal(w->lobby.nqueued, 1);
	clear(&w->f[1]);
	clear(&w->f[2]);
	clear(&w->f[3]);
	feed(&w->f[0], "QUIT\n");
	want_seq(&w->f[1], "INFO p1 left before the first move. No result.\r\n",
	    "WAIT Waiting for an opponent...\r\n", "MATCH X p2 ", NULL);
	want(&w->f[3], "MATCH O p1 ");
	assert_ptr_equal(w->f[1].c.match, w->f[3].c.match);
	want_seq(&w->f[2], "INFO Game 1 is over.\r\n",
	    "INFO " PROTO_INFO_WATCH_OVER "\r\n", NULL);
	want_no(&w->f[2], "WAIT");
	want_no(&w->f[2], "MATCH");
	assert_true(w->f[2].c.place == PLACE_NONE);
	assert_int_equal(w->lobby.nqueued, 0);
}

/*
 * A queued player or room maker the transport is closing (its output went
 * unread: CLIENT_CLOSING, its leaving still to come) is never paired.
 */
static void
test_closing_never_paired(void **state)
{
	struct world	*w = *state = world_new(NULL);

	world_open(w, 0);
	w->f[0].c.flags |= CLIENT_CLOSING;	/* as server_client_send does */
	world_open(w, 1);
	assert_null(w->f[1].c.match);
	want_no(&w->f[1], "MATCH");
	world_open(w, 2);
	want(&w->f[1], "MATCH X p2 ");
	assert_ptr_equal(w->f[1].c.match, w->f[2].c.match);
}

/* A room whose maker the transport is closing cannot be joined. */
static void
test_closing_room_not_joined(void **state)
{
	struct world	*w = *state = world_new(NULL);
	char		 line[32];
	const char	*p;

	world_open(w, 0);
	clear(&w->f[0]);
	feed(&w->f[0], "ROOM NEW\n");
	assert_non_null(p = strstr(w->f[0].out, "OK ROOM "));
	snprintf(line, sizeof line, "ROOM JOIN %.9s\n", p + 8);
	w->f[0].c.flags |= CLIENT_CLOSING;	/* as server_client_send does */
	world_open(w, 1);
	clear(&w->f[1]);
	feed(&w->f[1], line);
	want(&w->f[1], "ERR NO_ROOM No room with that code is open.\r\n");
	assert_null(w->f[1].c.match);
}

/* With nobody else waiting, the aborted player heads the queue. */
static void
test_abort_requeues_alone(void **state)
{
	struct world	*w = *state = world_new(NULL);

	pair(w);
	clear(&w->f[0]);
	feed(&w->f[1], "QUIT\n");
	want_seq(&w->f[0], "INFO p2 left before the first move. No result.\r\n",
	    "WAIT Waiting for an opponent...\r\n", NULL);
	assert_ptr_equal(TAILQ_FIRST(&w->lobby.queue), &w->f[0].c);
	assert_true(w->f[0].c.place == PLACE_QUEUE);
	assert_null(w->f[0].c.match);
	assert_int_equal(w->lobby.nmatches, 0);
	assert_int_equal(w->lobby.stats.aborts, 1);
}

/*
 * Once a player has moved it can no longer walk away: ROOM NEW, PLAY AI
 * and WATCH get IN_GAME and change nothing.  Its opponent, which has not
 * moved yet, still may.
 */
static void
test_no_abort_after_moving(void **state)
{
	struct world	*w = *state = world_new(NULL);
	int		 m = pair(w);
	struct match	*match = w->f[m].c.match;
	char		 line[96];

	play(w, m, "B2");
	clear(&w->f[m]);
	clear(&w->f[!m]);
	feed(&w->f[m], "ROOM NEW\n");
	feed(&w->f[m], "PLAY AI\n");
	feed(&w->f[m], "WATCH 1\n");
	assert_int_equal(count(&w->f[m], "ERR IN_GAME You are in a game; "
	    "finish it, RESIGN or QUIT first."), 3);
	assert_int_equal(w->lobby.rooms.n, 0);
	assert_int_equal(w->lobby.nai, 0);
	assert_ptr_equal(w->f[m].c.match, match);
	assert_int_equal(w->f[!m].outlen, 0);

	feed(&w->f[!m], "ROOM NEW\n");
	want(&w->f[!m], "OK ROOM ");
	snprintf(line, sizeof line, "INFO %s left before the first move. "
	    "No result.\r\n", seat_name[!m]);
	want_seq(&w->f[m], line, "WAIT Waiting for an opponent...\r\n", NULL);
	assert_int_equal(w->lobby.stats.aborts, 1);
	assert_int_equal(w->lobby.stats.forfeits, 0);
}

/* QUIT after one's first move is a forfeit, not an abort. */
static void
test_quit_after_moving_forfeits(void **state)
{
	struct world	*w = *state = world_new(NULL);
	int		 m = pair(w);
	char		 line[128];

	play(w, m, "A1");
	clear(&w->f[!m]);
	feed(&w->f[m], "QUIT\n");
	snprintf(line, sizeof line, "RESULT FORFEIT %c %s %s quit the game. "
	    "%s wins!\r\n", seat_mark[!m], seat_name[!m], seat_name[m],
	    seat_name[!m]);
	want_seq(&w->f[!m], line, "AGAIN? ", NULL);
	want_no(&w->f[!m], "left before the first move");
	assert_int_equal(w->lobby.stats.aborts, 0);
	assert_int_equal(w->lobby.stats.forfeits, 1);
}

/*
 * ROOM NEW: a six-character code of the alphabet, out of the queue, the
 * room's own clock; when it runs out, INFO Room <code> expired. and back
 * to the public queue.  One's own code, and an expired one, are NO_ROOM.
 */
static void
test_room_new_and_expiry(void **state)
{
	struct lobby_limits	 l;
	struct world		*w;
	struct fake		*f, *g;
	char			 code[PROTO_CODE_LEN + 2], plain[PROTO_CODE_LEN + 1];
	char			 line[96];
	const char		*ok;

	lobby_default_limits(&l);
	l.room_ms = 5000;
	w = *state = world_new(&l);
	f = world_open(w, 0);
	at(w, 1000);
	clear(f);
	feed(f, "ROOM NEW\n");
	ok = last_line(f, "OK ROOM ");
	assert_int_equal(strlen(ok), 8 + PROTO_CODE_LEN + 1);
	assert_true(is_room_code(ok + 8, plain));
	memcpy(code, ok + 8, sizeof code);
	snprintf(line, sizeof line, "WAIT Waiting for a friend to join room "
	    "%s...\r\n", code);
	want_seq(f, "OK ROOM ", line, NULL);
	assert_int_equal(w->lobby.rooms.n, 1);
	assert_int_equal(w->lobby.nqueued, 0);
	assert_false(f->c.place == PLACE_QUEUE);
	assert_ptr_equal(room_find(&w->lobby, plain), &f->c);
	/* The room's clock, not the queue's. */
	assert_int_equal(client_deadline(&f->c), 1000000 + 1000 + 5000);

	snprintf(line, sizeof line, "ROOM JOIN %s\n", code);
	feed(f, line);
	want(f, "ERR NO_ROOM No room with that code is open.\r\n");
	assert_int_equal(w->lobby.rooms.n, 1);

	g = world_open(w, 1);		/* alone in the queue meanwhile */
	assert_int_equal(w->lobby.nqueued, 1);
	at(w, 5999);
	want_no(f, "expired");
	clear(f);
	at(w, 6000);
	snprintf(line, sizeof line, "INFO Room %s expired.\r\n", code);
	want_seq(f, line, "WAIT Waiting for an opponent...\r\n", "MATCH O p1 ",
	    NULL);
	assert_int_equal(w->lobby.rooms.n, 0);
	assert_null(room_find(&w->lobby, plain));

	/* The code is gone; the target is checked before anything else. */
	clear(g);
	snprintf(line, sizeof line, "ROOM JOIN %s\n", code);
	feed(g, line);
	want(g, "ERR NO_ROOM No room with that code is open.\r\n");
	assert_ptr_equal(g->c.match, f->c.match);
}

/* ROOM JOIN <code>, any case, pairs the joiner with the maker, who is X. */
static void
test_room_join_pairs_maker_and_joiner(void **state)
{
	struct world	*w = *state = world_new(NULL);
	struct fake	*maker, *joiner, *late;
	char		 code[PROTO_CODE_LEN + 2], plain[PROTO_CODE_LEN + 1];
	char		 line[64];
	size_t		 i;

	maker = world_open(w, 0);
	feed(maker, "ROOM NEW\n");
	memcpy(code, last_line(maker, "OK ROOM ") + 8, sizeof code);
	assert_true(is_room_code(code, plain));
	joiner = world_open(w, 1);
	assert_null(joiner->c.match);		/* not paired with the maker */
	clear(maker);
	clear(joiner);
	snprintf(line, sizeof line, "room join %s\n", code);
	for (i = 0; line[i] != '\0'; i++) {
		if (line[i] >= 'A' && line[i] <= 'Z')
			line[i] = (char)(line[i] - 'A' + 'a');
	}
	feed(joiner, line);
	snprintf(line, sizeof line, "OK ROOM %s\r\n", code);
	want_seq(joiner, line, "MATCH O p1 You play O against p1.\r\n",
	    "TOKEN ", "START ", "BOARD .........\r\n", "TURN ", NULL);
	want_seq(maker, "MATCH X p2 You play X against p2.\r\n", "TOKEN ",
	    "START ", "BOARD .........\r\n", "TURN ", NULL);
	assert_non_null(maker->c.match);
	assert_ptr_equal(maker->c.match, joiner->c.match);
	assert_int_equal(maker->c.seat, 0);
	assert_int_equal(joiner->c.seat, 1);
	assert_int_equal(w->lobby.rooms.n, 0);
	assert_int_equal(w->lobby.nqueued, 0);
	assert_null(maker->c.room);
	assert_true(maker->c.clock != CLIENT_CLOCK_ROOM);

	/* Single use. */
	late = world_open(w, 2);
	clear(late);
	snprintf(line, sizeof line, "ROOM JOIN %s\n", code);
	feed(late, line);
	want(late, "ERR NO_ROOM No room with that code is open.\r\n");
	assert_true(late->c.place == PLACE_QUEUE);
}

/*
 * §9.5: a lost connection keeps its seat for the grace period; the
 * opponent is told, the lobby's deadline is the end of the grace, and
 * when it passes the opponent wins by forfeit.
 */
static void
test_lost_connection_keeps_seat(void **state)
{
	struct world	*w = *state = world_new(NULL);
	struct fake	*o;

	pair(w);
	o = &w->f[1];
	at(w, 1000);
	clear(o);
	lose(w, 0);
	want(o, "INFO p1 lost the connection. Waiting up to 30 seconds for "
	    "them to come back.\r\n");
	want_no(o, "RESULT");
	assert_int_equal(w->lobby.naway, 1);
	assert_int_equal(lobby_next_deadline(&w->lobby),
	    1000000 + 1000 + LOBBY_GRACE_MS);
	assert_non_null(o->c.match);
	assert_true(match_live(o->c.match));
	clear(o);
	feed(o, "GAMES\n");
	/* Its seat is marked away. */
	want_seq(o, "OK GAMES 1\r\n", "GAME 1 p1 p2 0 away=X\r\n", NULL);

	at(w, 1000 + LOBBY_GRACE_MS - 1);
	lobby_expire(&w->lobby);
	want_no(o, "RESULT");
	assert_int_equal(w->lobby.naway, 1);
	at(w, 1000 + LOBBY_GRACE_MS);
	lobby_expire(&w->lobby);
	want_seq(o, "RESULT FORFEIT O p2 p1 lost the connection. p2 wins!\r\n",
	    "AGAIN? ", NULL);
	assert_int_equal(w->lobby.naway, 0);
	assert_int_equal(lobby_next_deadline(&w->lobby), 0);
	assert_int_equal(w->lobby.stats.forfeits, 1);
	assert_false(match_live(o->c.match));
}

/*
 * The absent mover's turn clock is paused, and RESUME <token> (read back
 * from its TOKEN line, sent through session_line) gives it the seat and
 * the rest of its time; the old token is dead, a fresh one is sent.
 */
static void
test_resume_with_paused_turn_clock(void **state)
{
	struct lobby_limits	 l;
	struct world		*w;
	struct fake		*o, *g;
	char			 tok[PROTO_TOKEN_LEN + 2], tok2[PROTO_TOKEN_LEN + 2];
	char			 line[96], match_line[32], turn[32];
	int			 m;

	lobby_default_limits(&l);
	l.turn_ms = 9000;		/* warned at 6 s, out at 9 s */
	w = *state = world_new(&l);
	m = pair(w);
	o = &w->f[!m];
	token_of(&w->f[m], tok);
	at(w, 4000);			/* 5 s left */
	clear(o);
	lose(w, m);
	snprintf(line, sizeof line, "INFO %s lost the connection.",
	    seat_name[m]);
	want(o, line);
	/* Nobody's clock runs: the mover is away, paused. */
	assert_int_equal(client_deadline(&o->c), 0);
	at(w, 20000);
	lobby_expire(&w->lobby);
	want_no(o, "RESULT");
	want_no(o, "ran out of time");

	g = world_open(w, 2);
	clear(g);
	snprintf(line, sizeof line, "RESUME %s", tok);
	session_line(&g->c, line, strlen(line));
	snprintf(match_line, sizeof match_line, "MATCH %c %s ", seat_mark[m],
	    seat_name[!m]);
	snprintf(turn, sizeof turn, "TURN %c Enter your move", seat_mark[m]);
	want_seq(g, "OK RESUME\r\n", match_line, "BOARD .........\r\n", turn,
	    "TOKEN ", NULL);
	token_of(g, tok2);
	assert_string_not_equal(tok, tok2);
	snprintf(line, sizeof line, "INFO %s is back.\r\n", seat_name[m]);
	want(o, line);
	assert_int_equal(w->lobby.naway, 0);
	assert_int_equal(w->lobby.stats.resumes, 1);
	assert_ptr_equal(g->c.match, o->c.match);
	assert_int_equal(g->c.seat, m);
	assert_false(g->c.place == PLACE_QUEUE);
	/* 5 s left: warned when 3 s are left, out when none is. */
	assert_int_equal(client_deadline(&g->c), 1000000 + 20000 + 2000);

	at(w, 21999);
	want_no(g, "INFO You have");
	at(w, 22000);
	want(g, "INFO You have 3 seconds left to move.\r\n");
	at(w, 24999);
	assert_false(g->closed);
	at(w, 25000);
	want(g, "ran out of time.");
	want(g, "AGAIN? ");
	assert_false(g->closed);
	want(o, "ran out of time.");
}

/*
 * Newcomers are paired while a seat is held away: the lobby's next
 * deadline is always the nearest of a grace period's end and a
 * newcomer's half second, whichever comes first, and each is kept.
 */
static void
test_fresh_paired_while_seat_away(void **state)
{
	struct world	*w = *state = world_new_fresh();

	world_open(w, 0);
	world_open(w, 1);
	at(w, 500);
	lobby_expire(&w->lobby);
	want(&w->f[0], "MATCH X p2 ");
	at(w, 1000);
	lose(w, 1);				/* held until 31000 */
	assert_int_equal(lobby_next_deadline(&w->lobby),
	    1000000 + 1000 + LOBBY_GRACE_MS);
	at(w, 2000);
	world_open(w, 2);			/* ripe at 2500 */
	assert_int_equal(lobby_next_deadline(&w->lobby), 1000000 + 2500);
	at(w, 2300);
	world_open(w, 3);			/* ripe at 2800 */
	assert_int_equal(lobby_next_deadline(&w->lobby), 1000000 + 2500);
	at(w, 2500);
	lobby_expire(&w->lobby);
	assert_int_equal(w->lobby.nqueued, 1);
	assert_int_equal(lobby_next_deadline(&w->lobby), 1000000 + 2800);
	at(w, 2800);
	lobby_expire(&w->lobby);
	want(&w->f[2], "MATCH X p2 ");
	want(&w->f[3], "MATCH O p1 ");
	assert_int_equal(w->lobby.naway, 1);
	assert_int_equal(lobby_next_deadline(&w->lobby),
	    1000000 + 1000 + LOBBY_GRACE_MS);
	at(w, 1000 + LOBBY_GRACE_MS);
	lobby_expire(&w->lobby);
	want(&w->f[0], "RESULT FORFEIT X p1 p2 lost the connection. "
	    "p1 wins!\r\n");
	assert_int_equal(lobby_next_deadline(&w->lobby), 0);
}

/*
 * And a grace period that ends before a newcomer is ripe comes first:
 * the seat is lost at its end, the newcomer paired at its own.
 */
static void
test_grace_before_fresh(void **state)
{
	struct lobby_limits	 l;
	struct world		*w;

	lobby_default_limits(&l);
	l.grace_ms = 300;
	world_fresh = 1;
	w = *state = world_new(&l);
	world_fresh = 0;
	world_open(w, 0);
	world_open(w, 1);
	at(w, 500);
	lobby_expire(&w->lobby);
	at(w, 1000);
	lose(w, 1);				/* held until 1300 */
	world_open(w, 2);			/* ripe at 1500 */
	assert_int_equal(lobby_next_deadline(&w->lobby), 1000000 + 1300);
	at(w, 1299);
	lobby_expire(&w->lobby);
	want_no(&w->f[0], "RESULT");
	at(w, 1300);
	lobby_expire(&w->lobby);
	want(&w->f[0], "RESULT FORFEIT X p1 p2 lost the connection. "
	    "p1 wins!\r\n");
	assert_int_equal(lobby_next_deadline(&w->lobby), 1000000 + 1500);
	at(w, 1500);
	lobby_expire(&w->lobby);
	assert_int_equal(w->lobby.nfresh, 0);
	assert_int_equal(lobby_next_deadline(&w->lobby), 0);
}

/* RESUME with a token on a new connection in slot i (as it was taken). */
static struct fake *
come_back(struct world *w, int i, const char *tok)
{
	struct fake	*g = reopen(w, i);
	char		 line[64];

	clear(g);
	snprintf(line, sizeof line, "RESUME %s", tok);
	session_line(&g->c, line, strlen(line));
	want(g, "OK RESUME\r\n");
	return (g);
}

/*
 * A player away while its opponent moved (--turn-timeout 9): its turn
 * clock waits for it and gives it all of its 9 s from its return (warned
 * 3 s before the end); it went away once, so its turn must end by one
 * grace period after the 9 s from the opponent's move: a second loss
 * holds the seat only to then, and a return then has its clock cut to it.
 */
static void
test_resume_after_opponent_moved(void **state)
{
	struct lobby_limits	 l;
	struct world		*w;
	struct fake		*o, *g;
	char			 tok[PROTO_TOKEN_LEN + 2], line[128];
	int			 m;

	lobby_default_limits(&l);
	l.turn_ms = 9000;
	w = *state = world_new(&l);
	m = pair(w);
	o = &w->f[!m];
	at(w, 1000);
	play(w, m, "B2");			/* o to move */
	token_of(&w->f[m], tok);
	at(w, 2000);
	clear(o);
	lose(w, m);				/* held until 32000 */
	snprintf(line, sizeof line, "INFO %s lost the connection. Waiting up "
	    "to 30 seconds for them to come back.\r\n", seat_name[m]);
	want(o, line);
	assert_int_equal(lobby_next_deadline(&w->lobby), 1000000 + 32000);
	at(w, 5000);
	play(w, !m, "A1");			/* m to move, away */
	assert_int_equal(client_deadline(&o->c), 0);
	/* Its turn must end by 5000 + 9000 + the grace. */
	assert_int_equal(o->c.match->seat[m].clock_by,
	    1000000 + 5000 + 9000 + LOBBY_GRACE_MS);
	assert_int_equal(lobby_next_deadline(&w->lobby), 1000000 + 32000);

	at(w, 20000);
	g = come_back(w, m, tok);
	snprintf(line, sizeof line, "TURN %c Enter your move", seat_mark[m]);
	want_seq(g, "BOARD X...O....\r\n", line, "TOKEN ", NULL);
	assert_int_equal(lobby_next_deadline(&w->lobby), 0);
	assert_int_equal(g->c.clock, CLIENT_CLOCK_TURN);
	assert_int_equal(g->c.clock_end, 1000000 + 20000 + 9000);
	assert_int_equal(client_deadline(&g->c), 1000000 + 26000);
	at(w, 25999);
	want_no(g, "INFO You have");
	at(w, 26000);
	want(g, "INFO You have 3 seconds left to move.\r\n");
	token_of(g, tok);

	at(w, 27000);				/* 2 s left: by 44000 */
	clear(o);
	lose(w, m);
	snprintf(line, sizeof line, "INFO %s lost the connection. Waiting up "
	    "to 17 seconds for them to come back.\r\n", seat_name[m]);
	want(o, line);
	assert_int_equal(lobby_next_deadline(&w->lobby), 1000000 + 44000);
	at(w, 43000);
	g = come_back(w, m, tok);
	assert_int_equal(g->c.clock, CLIENT_CLOCK_TURN);
	assert_int_equal(g->c.clock_end, 1000000 + 44000);	/* not 45000 */
	assert_int_equal(client_deadline(&g->c), 1000000 + 44000);
	at(w, 43999);
	want_no(g, "ran out of time");
	at(w, 44000);
	snprintf(line, sizeof line, "RESULT FORFEIT %c %s %s ran out of time. "
	    "%s wins!\r\n", seat_mark[!m], seat_name[!m], seat_name[m],
	    seat_name[!m]);
	want(g, line);
	want(o, line);
}

/*
 * Away while its opponent moved and never back: the seat is lost at the
 * end of its grace period (its turn clock never ran).
 */
static void
test_away_turn_lost_at_grace_end(void **state)
{
	struct lobby_limits	 l;
	struct world		*w;
	struct fake		*o;
	char			 line[128];
	int			 m;

	lobby_default_limits(&l);
	l.turn_ms = 9000;
	w = *state = world_new(&l);
	m = pair(w);
	o = &w->f[!m];
	play(w, m, "B2");
	at(w, 2000);
	lose(w, m);
	at(w, 5000);
	play(w, !m, "A1");
	at(w, 31999);
	lobby_expire(&w->lobby);
	want_no(o, "RESULT");
	at(w, 32000);
	lobby_expire(&w->lobby);
	snprintf(line, sizeof line, "RESULT FORFEIT %c %s %s lost the "
	    "connection. %s wins!\r\n", seat_mark[!m], seat_name[!m],
	    seat_name[m], seat_name[!m]);
	want(o, line);
	assert_int_equal(w->lobby.naway, 0);
}

/* RESUME of the waiting player, token in lower case without its dash. */
static void
test_resume_any_case_no_dash(void **state)
{
	struct world	*w = *state = world_new(NULL);
	struct fake	*g;
	char		 tok[PROTO_TOKEN_LEN + 2], line[64], turn[64];
	size_t		 i, n = 0;
	int		 m = pair(w);

	token_of(&w->f[!m], tok);
	lose(w, !m);
	g = world_open(w, 2);
	clear(g);
	strcpy(line, "resume ");
	n = strlen(line);
	for (i = 0; tok[i] != '\0'; i++) {
		if (tok[i] == '-')
			continue;
		line[n++] = (tok[i] >= 'A' && tok[i] <= 'Z') ?
		    (char)(tok[i] - 'A' + 'a') : tok[i];
	}
	line[n++] = '\n';
	line[n] = '\0';
	feed(g, line);
	snprintf(turn, sizeof turn, "TURN %c Waiting for %s to move...\r\n",
	    seat_mark[m], seat_name[m]);
	want_seq(g, "OK RESUME\r\n", "MATCH ", "BOARD ", turn, "TOKEN ", NULL);
	assert_int_equal(client_deadline(&g->c), 0);	/* not its move */
	/* Back in play: the opponent's move reaches it, and it may move. */
	clear(g);
	play(w, m, "B2");
	want(g, "TURN ");
	want(g, "Enter your move");
	clear(g);
	feed(g, "A1\n");
	want(g, "OK MOVE A1\r\n");
}

/*
 * RESUME of a seat whose connection is still there takes it over: the old
 * connection gets BYE and is closed; the opponent hears only "is back",
 * and nobody forfeits.
 */
static void
test_resume_takeover_of_live_seat(void **state)
{
	struct world	*w = *state = world_new(NULL);
	struct fake	*old = &w->f[0], *o = &w->f[1], *g;
	char		 tok[PROTO_TOKEN_LEN + 2], line[64];
	int		 m = pair(w);

	token_of(old, tok);
	g = world_open(w, 2);
	clear(old);
	clear(o);
	clear(g);
	snprintf(line, sizeof line, "RESUME %s\n", tok);
	feed(g, line);
	want(old, "BYE Your seat was taken over by a new connection.\r\n");
	assert_true(old->closed);
	assert_null(old->c.match);
	want_seq(g, "OK RESUME\r\n", "MATCH X p2 ", "BOARD ", "TURN ", "TOKEN ",
	    NULL);
	want(o, "INFO p1 is back.\r\n");
	assert_int_equal(count_prefix(o, "INFO "), 1);
	want_no(o, "RESULT");
	want_no(o, "lost the connection");
	assert_int_equal(w->lobby.stats.forfeits, 0);
	assert_int_equal(w->lobby.stats.aborts, 0);
	assert_int_equal(w->lobby.naway, 0);
	assert_ptr_equal(g->c.match, o->c.match);
	assert_int_equal(g->c.seat, 0);
	/* The game goes on with the new connection. */
	clear(o);
	play(w, m == 0 ? 2 : 1, "B2");
	want(m == 0 ? o : g, m == 0 ? "BOARD ....X....\r\n" :
	    "BOARD ....O....\r\n");
}

#define E_BAD_TOKEN	"ERR BAD_TOKEN That code does not match a seat you " \
			    "can resume."
#define E_RATE		"ERR RATE_LIMITED Too many commands. Please slow " \
			    "down."

/* Give a fake client its own IPv4 address, n, before it connects. */
static void
fake_addr(struct fake *f, uint32_t n)
{
	memset(&f->c.addrkey, 0, sizeof f->c.addrkey);
	f->c.addrkey.b[10] = f->c.addrkey.b[11] = 0xff;
	f->c.addrkey.b[12] = (uint8_t)(n >> 24);
	f->c.addrkey.b[13] = (uint8_t)(n >> 16);
	f->c.addrkey.b[14] = (uint8_t)(n >> 8);
	f->c.addrkey.b[15] = (uint8_t)n;
}

/*
 * Five wrong tokens use up their own address's tries: its sixth, even a
 * right one, is refused unread; another address's right token works.
 */
static void
test_resume_wrong_tokens_limit_their_address(void **state)
{
	struct world	*w = *state = world_new(NULL);
	struct fake	*g, *h;
	char		 tok[PROTO_TOKEN_LEN + 2], line[64];
	int		 i, m = pair(w);

	token_of(&w->f[m], tok);
	snprintf(line, sizeof line, "RESUME %s\n", tok);
	fake_addr(&w->f[2], 0x0a000002);
	g = world_open(w, 2);
	clear(g);
	for (i = 0; i < 5; i++)
		feed(g, "RESUME 2222-3333\n");
	assert_int_equal(count(g, E_BAD_TOKEN), 5);
	feed(g, line);
	assert_int_equal(count(g, E_RATE), 1);
	assert_false(w->f[m].closed);
	fake_addr(&w->f[3], 0x0a000003);
	h = world_open(w, 3);
	clear(h);
	feed(h, line);
	want(h, "OK RESUME\r\n");
	assert_true(w->f[m].closed);
	/* 10 s later the first address has one try again. */
	at(w, 9999);
	feed(g, "RESUME 2222-3333\n");
	assert_int_equal(count(g, E_RATE), 2);
	at(w, 10000);
	feed(g, "RESUME 2222-3333\n");
	assert_int_equal(count(g, E_BAD_TOKEN), 6);
}

/*
 * Only wrong tokens are charged: a player whose link keeps failing takes
 * its seat back more than five times in a row from one address.
 */
static void
test_resume_right_tokens_not_charged(void **state)
{
	struct world	*w = *state = world_new(NULL);
	struct fake	*g;
	char		 tok[PROTO_TOKEN_LEN + 2], line[64];
	int		 i, m = pair(w), from = m;

	for (i = 2; i < FAKE_CLIENTS; i++) {
		token_of(&w->f[from], tok);
		snprintf(line, sizeof line, "RESUME %s\n", tok);
		g = world_open(w, i);
		clear(g);
		feed(g, line);
		if (strstr(g->out, "OK RESUME\r\n") == NULL)
			fail_msg("resume %d from one address refused:\n%s",
			    i - 1, g->out);
		assert_true(w->f[from].closed);
		from = i;
	}
	assert_int_equal(w->lobby.stats.resumes, FAKE_CLIENTS - 2);
}

/*
 * A seat's chat limits go with it through a takeover (a fresh connection
 * does not bring fresh allowances), and a seat comes back 10 times at
 * once at most, then once every 10 s: each return is told to everyone.
 */
static void
test_resume_keeps_seat_limits(void **state)
{
	struct lobby_limits	 l;
	struct world		*w;
	struct fake		*g;
	char			 tok[PROTO_TOKEN_LEN + 2], line[64];
	int			 i, m;

	lobby_default_limits(&l);
	l.rate = 0;
	w = *state = world_new(&l);
	m = pair(w);
	token_of(&w->f[m], tok);
	for (i = 0; i < 5; i++)
		feed(&w->f[m], "SAY hi\n");
	clear(&w->f[m]);
	feed(&w->f[m], "SAY hi\n");
	want(&w->f[m], E_RATE);
	for (i = 2; i < FAKE_CLIENTS; i++) {
		snprintf(line, sizeof line, "RESUME %s\n", tok);
		g = world_open(w, i);
		clear(g);
		feed(g, line);
		want(g, "OK RESUME\r\n");
		token_of(g, tok);
		if (i == 2) {
			clear(g);
			feed(g, "SAY hi\n");
			want(g, E_RATE);	/* the seat's window */
		}
	}
	/* 8 returns so far; two more at once, then one every 10 s. */
	for (i = 0; i < 4; i++) {
		snprintf(line, sizeof line, "RESUME %s\n", tok);
		if (i == 3)
			at(w, 10000);
		g = reopen(w, 2 + i);
		clear(g);
		feed(g, line);
		if (i == 2) {
			want(g, E_RATE);
			continue;
		}
		want(g, "OK RESUME\r\n");
		token_of(g, tok);
	}
}

/*
 * Wrong tokens from all the addresses that guessed wrong lately together:
 * 1,000 at once, then 100 a second, so that a guesser with many addresses
 * is no faster once each has guessed; a refused try is not looked at.  An
 * address that has not guessed wrong is never refused for the others: its
 * right token is taken however spent the others' allowance is.
 */
static void
test_resume_wrong_tokens_limited_everywhere(void **state)
{
	struct lobby_limits	 l;
	struct world		*w;
	struct fake		*g, *h;
	char			 tok[PROTO_TOKEN_LEN + 2], line[64];
	int			 i, bad = 0, m;

	lobby_default_limits(&l);
	l.rate = 0;			/* one connection stands for many */
	w = *state = world_new(&l);
	m = pair(w);
	token_of(&w->f[m], tok);
	snprintf(line, sizeof line, "RESUME %s\n", tok);
	g = world_open(w, 2);
	for (i = 0; i < 1000; i++) {
		clear(g);
		fake_addr(g, 0x0b000000 + (uint32_t)i);
		feed(g, "RESUME 2222-3333\n");
		bad += count(g, E_BAD_TOKEN);
	}
	assert_int_equal(bad, 1000);
	/* A guesser's second try, within its own allowance: refused. */
	clear(g);
	feed(g, "RESUME 2222-3333\n");
	assert_int_equal(count(g, E_RATE), 1);
	/* The right token from an address that never guessed: taken. */
	fake_addr(&w->f[3], 0x0c000001);
	h = world_open(w, 3);
	clear(h);
	feed(h, line);
	want(h, "OK RESUME\r\n");
	assert_true(w->f[m].closed);
	/* 100 more wrong tries a second from the guessers. */
	for (i = 0; i < 101; i++) {
		clear(g);
		fake_addr(g, 0x0b000000 + (uint32_t)i);
		at(w, 10 + i * 10);
		feed(g, "RESUME 2222-3333\n");
		if (count(g, E_BAD_TOKEN) != 1)
			fail_msg("wrong try %d at %d ms refused:\n%s", i,
			    10 + i * 10, g->out);
	}
	clear(g);
	feed(g, "RESUME 2222-3333\n");
	assert_int_equal(count(g, E_RATE), 1);
	/* A new address still has its own first try. */
	fake_addr(g, 0x0e000001);
	clear(g);
	feed(g, "RESUME 2222-3333\n");
	assert_int_equal(count(g, E_BAD_TOKEN), 1);
}

/*
 * The offer does not need a queue limit: with --idle-timeout 0 the player
 * is still offered the computer, once, and then has no deadline at all.
 */
static void
test_ai_offer_without_idle_limit(void **state)
{
	static const char	 offer[] = "INFO Nobody else is here yet. Type "
				    "PLAY AI to play the computer.";
	struct lobby_limits	 l;
	struct world		*w;
	struct fake		*f;

	lobby_default_limits(&l);
	l.idle_ms = 0;
	w = *state = world_new(&l);
	f = world_open(w, 0);
	assert_int_equal(client_deadline(&f->c),
	    1000000 + LOBBY_AI_OFFER_MS);
	at(w, LOBBY_AI_OFFER_MS - 1);
	assert_int_equal(count(f, offer), 0);
	at(w, LOBBY_AI_OFFER_MS);
	assert_int_equal(count(f, offer), 1);
	assert_int_equal(client_deadline(&f->c), 0);
	feed(f, "PING\n");
	assert_int_equal(client_deadline(&f->c), 0);
	at(w, 100 * LOBBY_AI_OFFER_MS);
	assert_int_equal(count(f, offer), 1);
	assert_false(f->closed);
}

/*
 * §9.6: alone in the queue for ai_offer_ms, the player is offered the
 * computer, once per stay, at queued_at + ai_offer_ms: lines restart the
 * idle clock but do not put the offer off.
 */
static void
test_ai_offer_once_per_stay(void **state)
{
	static const char	 offer[] = "INFO Nobody else is here yet. Type "
				    "PLAY AI to play the computer.";
	struct lobby_limits	 l;
	struct world		*w;
	struct fake		*f;
	int64_t			 t;

	lobby_default_limits(&l);
	l.room_ms = 1000;
	w = *state = world_new(&l);
	f = world_open(w, 0);
	assert_int_equal(client_deadline(&f->c),
	    1000000 + LOBBY_AI_OFFER_MS);
	for (t = 10000; t < LOBBY_AI_OFFER_MS; t += 9500) {
		at(w, t);
		feed(f, "PING\n");
		assert_int_equal(client_deadline(&f->c),
		    1000000 + LOBBY_AI_OFFER_MS);
	}
	at(w, LOBBY_AI_OFFER_MS - 1);
	assert_int_equal(count(f, offer), 0);
	at(w, LOBBY_AI_OFFER_MS);
	assert_int_equal(count(f, offer), 1);
	/* Next: the idle clock, from the last line. */
	assert_int_equal(client_deadline(&f->c),
	    1000000 + (t - 9500) + LOBBY_IDLE_MS);
	for (t = LOBBY_AI_OFFER_MS + 1000; t < 4 * LOBBY_AI_OFFER_MS;
	    t += 7000) {
		at(w, t);
		feed(f, "PING\n");
	}
	at(w, 5 * LOBBY_AI_OFFER_MS);
	assert_int_equal(count(f, offer), 1);
	assert_false(f->closed);

	/* A new stay in the queue (after a room expired): a new offer. */
	t = 5 * LOBBY_AI_OFFER_MS;
	feed(f, "ROOM NEW\n");
	at(w, t + 1000);
	want(f, "expired.");
	assert_true(f->c.place == PLACE_QUEUE);
	assert_int_equal(client_deadline(&f->c),
	    1000000 + t + 1000 + LOBBY_AI_OFFER_MS);
	at(w, t + 1000 + LOBBY_AI_OFFER_MS - 1);
	assert_int_equal(count(f, offer), 1);
	at(w, t + 1000 + LOBBY_AI_OFFER_MS);
	assert_int_equal(count(f, offer), 2);
}

/*
 * §9.8: at most 5 SAY lines in any 10 s, exactly: the window slides (a
 * token bucket would let 10 through in the first 10 s); no copy to oneself.
 */
static void
test_chat_rate(void **state)
{
	struct world	*w = *state = world_new(NULL);
	char		 chat[64];
	int		 m = pair(w), i;

	clear(&w->f[m]);
	clear(&w->f[!m]);
	for (i = 0; i < 3; i++)
		feed(&w->f[m], "SAY   good luck!  \n");
	at(w, 4000);
	for (i = 0; i < 2; i++)
		feed(&w->f[m], "SAY   good luck!  \n");
	snprintf(chat, sizeof chat, "CHAT %s good luck!", seat_name[m]);
	assert_int_equal(count(&w->f[m], "OK SAY"), 5);
	assert_int_equal(count(&w->f[!m], chat), 5);
	assert_int_equal(count_prefix(&w->f[m], "CHAT"), 0);
	/* A sixth within 10 s of the first is refused, and not sent. */
	feed(&w->f[m], "SAY sixth\n");
	assert_int_equal(count(&w->f[m], "ERR RATE_LIMITED Too many commands. "
	    "Please slow down."), 1);
	want_no(&w->f[!m], "sixth");
	at(w, 9999);
	feed(&w->f[m], "SAY seventh\n");
	assert_int_equal(count_prefix(&w->f[m], "ERR RATE_LIMITED"), 2);
	want_no(&w->f[!m], "seventh");
	/* 10 s after the first three: three more, not a fourth. */
	at(w, 10000);
	for (i = 0; i < 4; i++)
		feed(&w->f[m], "SAY later\n");
	assert_int_equal(count(&w->f[m], "OK SAY"), 8);
	snprintf(chat, sizeof chat, "CHAT %s later", seat_name[m]);
	assert_int_equal(count(&w->f[!m], chat), 3);
	assert_int_equal(count_prefix(&w->f[m], "ERR RATE_LIMITED"), 3);
	/* And 10 s after the two at 4 s, two more. */
	at(w, 14000);
	for (i = 0; i < 3; i++)
		feed(&w->f[m], "SAY later\n");
	assert_int_equal(count(&w->f[m], "OK SAY"), 10);
	assert_int_equal(count_prefix(&w->f[m], "ERR RATE_LIMITED"), 4);
	assert_int_equal(w->lobby.stats.chats, 10);
	/* Only a player in a match chats. */
	world_open(w, 2);
	clear(&w->f[2]);
	feed(&w->f[2], "SAY hello\n");
	want(&w->f[2], "ERR NO_GAME You are not in a game right now.\r\n");
}

/* A SAY refused a moment early does not put off the next one. */
static void
test_chat_refused_early_does_not_delay(void **state)
{
	struct world	*w = *state = world_new(NULL);
	int		 m = pair(w), i;

	for (i = 0; i < 5; i++)
		feed(&w->f[m], "SAY hi\n");
	at(w, 9999);
	feed(&w->f[m], "SAY hi\n");
	assert_int_equal(count_prefix(&w->f[m], "ERR RATE_LIMITED"), 1);
	at(w, 10000);
	feed(&w->f[m], "SAY hi\n");
	if (count(&w->f[m], "OK SAY") != 6)
		fail_msg("SAY 10 s after the first five refused, because one "
		    "was tried at 9.999 s:\n%s", w->f[m].out);
}

/* §9.9: RESIGN on the opponent's turn: it wins, and starts the next game. */
static void
test_resign_on_opponents_turn(void **state)
{
	struct world	*w = *state = world_new(NULL);
	int		 m = pair(w), o = !m;
	char		 result[96], start[16];

	clear(&w->f[m]);
	clear(&w->f[o]);
	feed(&w->f[o], "RESIGN\n");
	snprintf(result, sizeof result, "RESULT WIN %c %s %s resigned.\r\n",
	    seat_mark[m], seat_name[m], seat_name[o]);
	want_seq(&w->f[o], "OK RESIGN\r\n", result,
	    "AGAIN? Play again? (y/n) or 'quit' to exit:\r\n", NULL);
	want_seq(&w->f[m], result,
	    "AGAIN? Play again? (y/n) or 'quit' to exit:\r\n", NULL);
	assert_int_equal(w->lobby.stats.resigns, 1);
	assert_int_equal(w->lobby.stats.wins, 1);
	assert_int_equal(w->lobby.stats.games_finished, 1);
	assert_int_equal(w->lobby.stats.forfeits, 0);
	assert_false(w->f[o].closed);
	clear(&w->f[o]);
	feed(&w->f[o], "RESIGN\n");
	want(&w->f[o], "ERR NO_GAME You are not in a game right now.\r\n");
	feed(&w->f[m], "y\n");
	clear(&w->f[m]);
	feed(&w->f[o], "y\n");
	snprintf(start, sizeof start, "START %c ", seat_mark[m]);
	want(&w->f[m], start);
	assert_int_equal(mover_of(w, 0, 1), m);
}

/* §9.6: against the computer, its move follows the player's at once. */
static void
test_play_ai(void **state)
{
	struct world	*w = *state = world_new(NULL);
	struct fake	*f, *g;
	char		 cells[TTT_CELLS + 1], cell[3], ok[16];
	int		 i, xs = 0, os = 0, os_before = 0;

	f = world_open(w, 0);
	clear(f);
	feed(f, "PLAY AI\n");
	want_seq(f, "OK PLAY AI perfect\r\n",
	    "MATCH X ai You play X against ai.\r\n", "TOKEN ", "START ",
	    "BOARD ", NULL);
	assert_int_equal(w->lobby.nai, 1);
	assert_int_equal(w->lobby.nqueued, 0);
	assert_string_equal(last_line(f, "TURN "),
	    "TURN X Enter your move (A1, B2, C3) or 'quit' to exit:");
	memcpy(cells, last_line(f, "BOARD ") + 6, TTT_CELLS);
	cells[TTT_CELLS] = '\0';
	for (i = 0; i < TTT_CELLS; i++)
		os_before += cells[i] == 'O';
	for (i = 0; cells[i] != '.'; i++)
		;
	cell[0] = (char)('A' + i % 3);
	cell[1] = (char)('1' + i / 3);
	cell[2] = '\0';
	snprintf(ok, sizeof ok, "OK MOVE %s\r\n", cell);
	clear(f);
	feed(f, cell);
	feed(f, "\n");
	want_seq(f, ok, "BOARD ", "TURN O Waiting for ai to move...\r\n",
	    "BOARD ", "TURN X Enter your move", NULL);
	assert_int_equal(count_prefix(f, "BOARD "), 2);
	memcpy(cells, last_line(f, "BOARD ") + 6, TTT_CELLS);
	for (i = 0; i < TTT_CELLS; i++) {
		xs += cells[i] == 'X';
		os += cells[i] == 'O';
	}
	assert_int_equal(xs, 1);
	assert_int_equal(os, os_before + 1);

	/* The computer always wants another game: y starts it at once. */
	clear(f);
	feed(f, "RESIGN\n");
	want_seq(f, "OK RESIGN\r\n", "RESULT WIN O ai p1 resigned.\r\n",
	    "AGAIN? ", NULL);
	clear(f);
	feed(f, "y\n");
	want_seq(f, "OK AGAIN y\r\n", "START O ai (O) moves first.\r\n",
	    "BOARD .........\r\n", "TURN O Waiting for ai to move...\r\n",
	    "BOARD ", "TURN X Enter your move", NULL);
	want_no(f, "WAIT");

	/* PLAY AI easy, any case; computer matches are listed. */
	g = world_open(w, 1);
	clear(g);
	feed(g, "play ai EASY\n");
	want_seq(g, "OK PLAY AI easy\r\n", "MATCH X ai ", NULL);
	assert_int_equal(w->lobby.nai, 2);
	clear(g);
	feed(g, "GAMES\n");
	want_seq(g, "OK GAMES 2\r\n", "GAME 1 p1 ai 1\r\n", "GAME 2 p1 ai ",
	    NULL);
}

/* Moves to a game that only a tie can end, after its 6th move. */
static const char *const tie_first6[] = { "A1", "B1", "C1", "A3", "B3", "C3" };
static const char *const tie_last3[] = { "A2", "B2", "C2" };

/* §9.7 with --early-draw: the game ends there, RESULT TIE. */
static void
test_early_draw_ends_in_tie(void **state)
{
	struct lobby_limits	 l;
	struct world		*w;
	int			 m, i;

	lobby_default_limits(&l);
	l.early_draw = 1;
	w = *state = world_new(&l);
	m = pair(w);
	clear(&w->f[0]);
	clear(&w->f[1]);
	for (i = 0; i < 5; i++)
		play(w, i % 2 == 0 ? m : !m, tie_first6[i]);
	want_no(&w->f[m], "RESULT");
	play(w, !m, tie_first6[5]);
	for (i = 0; i < 2; i++) {
		want_seq(&w->f[i], "RESULT TIE It's a tie!\r\n",
		    "AGAIN? Play again? (y/n) or 'quit' to exit:\r\n", NULL);
		want_no(&w->f[i], "can only end in a tie");
	}
	assert_int_equal(w->lobby.stats.ties, 1);
	assert_int_equal(w->lobby.stats.games_finished, 1);
	assert_int_equal(ttt_board_moves(&w->f[0].c.match->board), 6);
	clear(&w->f[m]);
	feed(&w->f[m], "A2\n");
	want(&w->f[m], "ERR NO_GAME");
}

/* Without --early-draw: INFO once per game, to players and watchers. */
static void
test_tie_notice_once_per_game(void **state)
{
	static const char	 notice[] = "INFO This game can only end in a "
				    "tie.";
	struct world		*w = *state = world_new(NULL);
	int			 m = pair(w), i;

	world_open(w, 2);
	feed(&w->f[2], "WATCH 1\n");
	want(&w->f[2], "OK WATCH 1");
	for (i = 0; i < 5; i++)
		play(w, i % 2 == 0 ? m : !m, tie_first6[i]);
	assert_int_equal(count(&w->f[2], notice), 0);
	play(w, !m, tie_first6[5]);
	want(&w->f[!m], notice);
	for (i = 0; i < 3; i++)
		play(w, i % 2 == 0 ? m : !m, tie_last3[i]);
	for (i = 0; i < 3; i++) {
		assert_int_equal(count(&w->f[i], notice), 1);
		want(&w->f[i], "RESULT TIE It's a tie!\r\n");
	}
	/* The next game is told again, once. */
	feed(&w->f[0], "y\n");
	feed(&w->f[1], "y\n");
	m = mover_of(w, 0, 1);
	for (i = 0; i < 6; i++)
		play(w, i % 2 == 0 ? m : !m, tie_first6[i]);
	assert_int_equal(count(&w->f[2], notice), 2);
	want(&w->f[m], notice);
	want(&w->f[!m], notice);
}

/*
 * §9.4: WATCH gets INFO, BOARD and TURN, then the match's lines, read
 * only; when a player leaves for good the watcher is released: INFO Game
 * <id> is over., what it may do next, and no place: it is queued only
 * when it asks (PLAY).
 */
static void
test_watch(void **state)
{
	struct world	*w = *state = world_new(NULL);
	struct fake	*g, *h;
	char		 line[128], all[512];
	int		 m = pair(w);

	g = world_open(w, 2);
	clear(g);
	clear(&w->f[0]);
	clear(&w->f[1]);
	feed(g, "WATCH 1\n");
	snprintf(line, sizeof line, "TURN %c Waiting for %s to move...\r\n",
	    seat_mark[m], seat_name[m]);
	want_seq(g, "OK WATCH 1\r\n",
	    "INFO You are watching game 1: p1 (X) against p2 (O).\r\n",
	    "BOARD .........\r\n", line, NULL);
	/* The players are told. */
	want(&w->f[0], "INFO Someone is watching.\r\n");
	want(&w->f[1], "INFO Someone is watching.\r\n");
	assert_int_equal(w->lobby.nwatchers, 1);
	assert_int_equal(w->lobby.nqueued, 0);
	assert_false(g->c.place == PLACE_QUEUE);

	clear(g);
	play(w, m, "B2");
	snprintf(line, sizeof line, "BOARD ....%c....\r\n", seat_mark[m]);
	want(g, line);
	snprintf(line, sizeof line, "TURN %c Waiting for %s to move...\r\n",
	    seat_mark[!m], seat_name[!m]);
	want(g, line);
	want_no(g, "Enter your move");
	want_no(g, "OK MOVE");

	/* Read-only. */
	clear(g);
	feed(g, "MOVE A1\n");
	feed(g, "RESIGN\n");
	assert_int_equal(count(g, "ERR NO_GAME You are not in a game right "
	    "now."), 2);
	/* A watcher chats with the other watchers, once it has a name. */
	feed(g, "SAY hi\n");
	want(g, "ERR NO_NAME Choose a name with NAME before you chat.\r\n");
	h = world_open(w, 3);
	feed(h, "NAME hal\n");
	clear(&w->f[0]);
	clear(&w->f[1]);
	feed(h, "WATCH 1\n");
	want(&w->f[0], "INFO hal is watching.\r\n");
	want(&w->f[1], "INFO hal is watching.\r\n");
	feed(h, "SAY hello watchers\n");
	want(h, "OK SAY\r\n");
	want(g, "CHAT hal hello watchers\r\n");
	want_no(h, "CHAT hal");
	want_no(&w->f[0], "CHAT");
	want_no(&w->f[1], "CHAT");
	/* WATCH of the match it watches: the snapshot again, no notice. */
	clear(&w->f[0]);
	feed(h, "WATCH 1\n");
	want(h, "OK WATCH 1");
	want_no(&w->f[0], "watching");
	feed(h, "UNWATCH\n");
	want(&w->f[0], "INFO hal stopped watching.\r\n");
	want(&w->f[1], "INFO hal stopped watching.\r\n");
	assert_int_equal(w->lobby.nwatchers, 1);
	feed(h, "QUIT\n");
	clear(g);
	feed(g, "y\n");
	want(g, "ERR NOT_NOW ");
	/* BOARD: the board, then whose move it is, as WATCH gave them. */
	clear(g);
	feed(g, "BOARD\n");
	snprintf(all, sizeof all, "OK BOARD\r\nBOARD ....%c....\r\n"
	    "      A   B   C\r\n  1     |   |  \r\n     ---+---+---\r\n"
	    "  2     | %c |  \r\n     ---+---+---\r\n  3     |   |  \r\n"
	    "TURN %c Waiting for %s to move...\r\n", seat_mark[m],
	    seat_mark[m], seat_mark[!m], seat_name[!m]);
	assert_string_equal(g->out, all);
	assert_int_equal(ttt_board_moves(&w->f[0].c.match->board), 1);

	/* Chat reaches the watchers. */
	feed(&w->f[m], "SAY hello all\n");
	snprintf(line, sizeof line, "CHAT %s hello all\r\n", seat_name[m]);
	want(g, line);

	/* Bad ids, one's own match. */
	clear(g);
	feed(g, "WATCH 99\n");
	want(g, "ERR NO_SUCH_GAME No match with that number is being "
	    "played.\r\n");
	clear(&w->f[m]);
	feed(&w->f[m], "WATCH 1\n");
	want(&w->f[m], "ERR IN_GAME ");

	/* The mover (who has moved) quits: a forfeit, and the end. */
	clear(g);
	feed(&w->f[m], "QUIT\n");
	snprintf(line, sizeof line, "RESULT FORFEIT %c %s %s quit the game. "
	    "%s wins!\r\n", seat_mark[!m], seat_name[!m], seat_name[m],
	    seat_name[!m]);
	want_seq(g, line, "INFO Game 1 is over.\r\n",
	    "INFO " PROTO_INFO_WATCH_OVER "\r\n", NULL);
	want_no(g, "WAIT");
	assert_int_equal(w->lobby.nwatchers, 0);
	assert_null(g->c.watching);
	assert_true(g->c.place == PLACE_NONE);
	clear(g);
	feed(g, "WATCH 1\n");
	want(g, "ERR NO_SUCH_GAME ");
	feed(g, "UNWATCH\n");
	want(g, "ERR NOT_WATCHING You are not watching a game.\r\n");
	/* It plays when it asks to: PLAY, then the queue. */
	clear(g);
	feed(g, "PLAY\n");
	want_seq(g, "OK PLAY\r\n", "WAIT Waiting for an opponent...\r\n",
	    NULL);
	assert_true(g->c.place == PLACE_QUEUE);
	/* PLAY there again: it keeps its place, with no second WAIT. */
	clear(g);
	feed(g, "PLAY\n");
	want(g, "OK PLAY\r\n");
	want_no(g, "WAIT");
	assert_true(g->c.place == PLACE_QUEUE);
}

/*
 * Watchers coming and going cannot flood the players: five notices at
 * once, then one every 2 s for the match.
 */
static void
test_watch_notices_limited(void **state)
{
	struct world	*w = *state = world_new(NULL);
	struct fake	*g;
	int		 i;

	pair(w);
	g = world_open(w, 2);
	clear(&w->f[0]);
	for (i = 0; i < 10; i++)
		feed(g, "WATCH 1\nUNWATCH\n");
	assert_int_equal(count_prefix(&w->f[0], "INFO Someone"), LOBBY_WATCH_NOTES);
	at(w, LOBBY_WATCH_NOTE_MS - 1);
	feed(g, "WATCH 1\n");
	assert_int_equal(count_prefix(&w->f[0], "INFO Someone"), LOBBY_WATCH_NOTES);
	at(w, LOBBY_WATCH_NOTE_MS);
	feed(g, "UNWATCH\n");
	assert_int_equal(count_prefix(&w->f[0], "INFO Someone stopped watching."),
	    3);
	assert_int_equal(count_prefix(&w->f[0], "INFO Someone"),
	    LOBBY_WATCH_NOTES + 1);
	/* It watches all along: nothing else is refused. */
	feed(g, "WATCH 1\n");
	want(g, "OK WATCH 1");
	assert_int_equal(w->lobby.nwatchers, 1);
}

/* UNWATCH goes back to the queue; an aborted match releases watchers. */
static void
test_unwatch_and_release_on_abort(void **state)
{
	struct world	*w = *state = world_new(NULL);
	struct fake	*g;

	pair(w);
	g = world_open(w, 2);
	feed(g, "WATCH 1\n");
	clear(g);
	feed(g, "UNWATCH\n");
	want_seq(g, "OK UNWATCH\r\n", "WAIT Waiting for an opponent...\r\n",
	    NULL);
	assert_int_equal(w->lobby.nwatchers, 0);
	assert_true(g->c.place == PLACE_QUEUE);

	feed(g, "WATCH 1\n");
	assert_int_equal(w->lobby.nwatchers, 1);
	clear(g);
	feed(&w->f[0], "QUIT\n");		/* before any move: aborted */
	want_seq(g, "INFO Game 1 is over.\r\n",
	    "INFO " PROTO_INFO_WATCH_OVER "\r\n", NULL);
	want_no(g, "RESULT");
	want_no(g, "WAIT");
	assert_int_equal(w->lobby.nwatchers, 0);
	assert_null(g->c.watching);
}

/*
 * The world's events (lobby.h): every listener hears one that asks
 * nothing, in the order they came; one that asks (not_found,
 * name_claimed) is taken by the first that answers 1, and the others are
 * not asked; a listener gone hears no more.
 */
static char	heard[256];		/* "<listener><event>" each */
static int	listen_takes[2];	/* what each answers */

static void
listen_hold(struct client *c, int on)
{
	(void)c;
	(void)on;
}

static const struct client_ops listen_client_ops = {
	fake_send, fake_close, fake_rearm, NULL, listen_hold
};

static void
listen_note(void *arg, char ev)
{
	size_t	n = strlen(heard);

	if (n + 2 < sizeof heard) {
		heard[n] = *(const char *)arg;
		heard[n + 1] = ev;
		heard[n + 2] = '\0';
	}
}

static void
listen_named(void *arg, struct client *c, const char *old, const char *new)
{
	(void)c;
	(void)old;
	(void)new;
	listen_note(arg, 'n');
}

static int
listen_not_found(void *arg, struct client *c, const struct proto_cmd *cmd)
{
	(void)c;
	(void)cmd;
	listen_note(arg, 'f');
	return (listen_takes[*(const char *)arg - '1']);
}

static int
listen_claimed(void *arg, struct client *c, const char *name)
{
	(void)c;
	(void)name;
	listen_note(arg, 'c');
	return (listen_takes[*(const char *)arg - '1']);
}

static const struct lobby_events listen_events = {
	.not_found = listen_not_found,
	.name_claimed = listen_claimed,
	.name_changed = listen_named
};
static struct lobby_listener	listeners[2];	/* outlive a failed test */

static void
test_events_listeners(void **state)
{
	struct world	*w = *state = world_new(NULL);
	struct fake	*a = world_open(w, 0);
	static char	 names[2] = { '1', '2' };

	heard[0] = '\0';
	lobby_listen(&w->lobby, &listeners[0], &listen_events, &names[0]);
	lobby_listen(&w->lobby, &listeners[1], &listen_events, &names[1]);
	a->c.ops = &listen_client_ops;
	feed(a, "NAME alice\n");		/* nobody takes it: renamed */
	want(a, "OK NAME alice");
	assert_string_equal(heard, "1c2c1n2n");

	heard[0] = '\0';
	clear(a);
	listen_takes[1] = 1;
	feed(a, "WATCH 99\n");		/* the second takes it: no answer */
	feed(a, "NAME bob\n");
	assert_string_equal(heard, "1f2f1c2c");
	assert_string_equal(a->out, "");

	heard[0] = '\0';
	listen_takes[0] = 1;
	feed(a, "WATCH 99\n");		/* the first does: not the second */
	assert_string_equal(heard, "1f");

	heard[0] = '\0';
	listen_takes[0] = listen_takes[1] = 0;
	lobby_unlisten(&w->lobby, &listeners[0]);
	feed(a, "WATCH 99\n");
	want(a, "ERR NO_SUCH_GAME ");
	feed(a, "NAME carol\n");
	want(a, "OK NAME carol");
	assert_string_equal(heard, "2f2c2n2n");
	lobby_unlisten(&w->lobby, &listeners[1]);
}

/*
 * Issue 24: the world's own events, what a service beside it (a store of
 * results and ratings) hangs on.  Every way a game ends raises game_ended
 * once, its result already counted (the score's sum); a seat lost and
 * taken back; a player gone for good.
 */
static char	world_heard[128];

static void
world_note(const char *s)
{
	size_t	n = strlen(world_heard);

	snprintf(world_heard + n, sizeof world_heard - n, "%s,", s);
}

static void
world_ended(void *arg, struct match *m, enum ttt_mark w, enum match_end how)
{
	char	buf[16];

	(void)arg;
	snprintf(buf, sizeof buf, "e%c%d/%u", w == TTT_X ? 'X' : w == TTT_O ?
	    'O' : '-', (int)how, m->score[0] + m->score[1] + m->score[2]);
	world_note(buf);
}

static void
world_seat(void *arg, struct match *m, int seat)
{
	char	buf[8];

	(void)m;
	snprintf(buf, sizeof buf, "%s%d", (const char *)arg, seat);
	world_note(buf);
}

static void
world_seat_lost(void *arg, struct match *m, int seat)
{
	(void)arg;
	world_seat("l", m, seat);
}

static void
world_seat_back(void *arg, struct match *m, int seat)
{
	(void)arg;
	world_seat("b", m, seat);
}

static void
world_left(void *arg, struct client *c)
{
	char	buf[8];

	(void)arg;
	snprintf(buf, sizeof buf, "g%llu", (unsigned long long)c->id);
	world_note(buf);
}

static const struct lobby_events world_events = {
	.game_ended = world_ended,
	.seat_lost = world_seat_lost,
	.seat_back = world_seat_back,
	.player_left = world_left
};
static struct lobby_listener	world_listener;

static void
test_events_world(void **state)
{
	struct lobby_limits	 l;
	struct world		*w;
	struct fake		*g;
	char			 tok[PROTO_TOKEN_LEN + 2], line[64], want_s[96];
	int			 m, k;

	lobby_default_limits(&l);
	l.turn_ms = 5000;
	w = *state = world_new(&l);
	world_heard[0] = '\0';
	lobby_listen(&w->lobby, &world_listener, &world_events, NULL);
	m = pair(w);
	/* A line: the mover's mark wins (f[0] is X). */
	play(w, m, "A1");
	play(w, !m, "B1");
	play(w, m, "A2");
	play(w, !m, "B2");
	play(w, m, "A3");
	snprintf(want_s, sizeof want_s, "e%c%d/1,", m == 0 ? 'X' : 'O',
	    MATCH_END_LINE);
	assert_string_equal(world_heard, want_s);

	/* A full board: a tie, raised once. */
	world_heard[0] = '\0';
	feed(&w->f[0], "y\n");
	feed(&w->f[1], "y\n");
	k = mover_of(w, 0, 1);
	play(w, k, "A1");
	play(w, !k, "B2");
	play(w, k, "C3");
	play(w, !k, "B1");
	play(w, k, "B3");
	play(w, !k, "A3");
	play(w, k, "C1");
	play(w, !k, "C2");
	play(w, k, "A2");
	snprintf(want_s, sizeof want_s, "e-%d/2,", MATCH_END_FULL);
	assert_string_equal(world_heard, want_s);

	/* RESIGN: the other one wins. */
	world_heard[0] = '\0';
	feed(&w->f[0], "y\n");
	feed(&w->f[1], "y\n");
	k = mover_of(w, 0, 1);
	feed(&w->f[k], "RESIGN\n");
	snprintf(want_s, sizeof want_s, "e%c%d/3,", k == 0 ? 'O' : 'X',
	    MATCH_END_RESIGN);
	assert_string_equal(world_heard, want_s);

	/* The turn's clock runs out: the mover loses on time. */
	world_heard[0] = '\0';
	feed(&w->f[0], "y\n");
	feed(&w->f[1], "y\n");
	k = mover_of(w, 0, 1);
	at(w, 6000);
	snprintf(want_s, sizeof want_s, "e%c%d/4,", k == 0 ? 'O' : 'X',
	    MATCH_END_TIME);
	assert_string_equal(world_heard, want_s);

	/* A lost connection: the seat held, then taken back, no game ended. */
	world_heard[0] = '\0';
	feed(&w->f[0], "y\n");
	feed(&w->f[1], "y\n");
	k = mover_of(w, 0, 1);
	play(w, k, "B2");
	token_of(&w->f[k], tok);
	lose(w, k);
	g = world_open(w, 2);
	snprintf(line, sizeof line, "RESUME %s", tok);
	session_line(&g->c, line, strlen(line));
	want(g, "OK RESUME");
	snprintf(want_s, sizeof want_s, "l%d,g%llu,b%d,", k,
	    (unsigned long long)w->f[k].c.id, k);
	assert_string_equal(world_heard, want_s);

	/* QUIT in a game begun: a forfeit, then the player gone for good. */
	world_heard[0] = '\0';
	feed(&w->f[!k], "B1\n");
	feed(g, "QUIT\n");
	snprintf(want_s, sizeof want_s, "e%c%d/5,g%llu,", k == 0 ? 'O' : 'X',
	    MATCH_END_QUIT, (unsigned long long)g->c.id);
	assert_string_equal(world_heard, want_s);
	lobby_unlisten(&w->lobby, &world_listener);
}

/* §9.4: GAMES lists live matches only, oldest first, names and moves. */
static void
test_games_lists_live_matches_only(void **state)
{
	struct world	*w = *state = world_new(NULL);
	struct fake	*asker = &w->f[2];
	int		 m1, m2;

	m1 = pair(w);
	world_open(w, 2);
	world_open(w, 3);
	m2 = mover_of(w, 2, 3);
	feed(&w->f[2], "NAME alice\n");
	play(w, m2, "A1");
	clear(asker);
	feed(asker, "GAMES\n");
	want_seq(asker, "OK GAMES 2\r\n", "GAME 1 p1 p2 0\r\n",
	    "GAME 2 alice p2 1\r\n", NULL);

	/* A player of match 1 leaves for good: it is no longer live. */
	play(w, m1, "B2");
	feed(&w->f[m1], "QUIT\n");
	assert_int_equal(w->lobby.nmatches, 2);	/* the winner is still in it */
	clear(asker);
	feed(asker, "games please\n");
	want_seq(asker, "OK GAMES 1\r\n", "GAME 2 alice p2 1\r\n", NULL);
	want_no(asker, "GAME 1 ");
	clear(asker);
	feed(asker, "WATCH 1\n");
	want(asker, "ERR NO_SUCH_GAME ");
}

/*
 * The other nodes' matches (lobby->cluster, as the cluster keeps them)
 * come after this node's, in GAME lines made by the same formatter; with
 * those not in the list, past LOBBY_GAMES_MAX, an INFO line says how many.
 */
static void
test_games_lists_other_nodes(void **state)
{
	struct world		*w = *state = world_new(NULL);
	struct fake		*asker = &w->f[2];
	struct lobby_game	*many;
	int			 i;
	static const struct lobby_game others[] = {
		{ 2000000007, { "Zo\xc3\xab", "p2" }, 9, 2 },
		{ 3000000001, { "p1", "ai" }, 0, 3 }
	};

	pair(w);
	world_open(w, 2);
	w->lobby.cluster.games = others;
	w->lobby.cluster.ngames = 2;
	clear(asker);
	feed(asker, "GAMES\n");
	assert_string_equal(asker->out, "OK GAMES 3\r\nGAME 1 p1 p2 0\r\n"
	    "GAME 2000000007 Zo\xc3\xab p2 9 away=O\r\n"
	    "GAME 3000000001 p1 ai 0 away=XO\r\n");

	/* 1 + 2 + 98 not in their lists: 101, one past the 100th. */
	w->lobby.cluster.games_more = 98;
	clear(asker);
	feed(asker, "GAMES\n");
	assert_string_equal(asker->out, "OK GAMES 3\r\nGAME 1 p1 p2 0\r\n"
	    "GAME 2000000007 Zo\xc3\xab p2 9 away=O\r\n"
	    "GAME 3000000001 p1 ai 0 away=XO\r\n"
	    "INFO 1 more matches not listed.\r\n");

	/* 1 + 100 in their lists: the last of theirs is cut. */
	assert_non_null(many = calloc(LOBBY_GAMES_MAX, sizeof *many));
	for (i = 0; i < LOBBY_GAMES_MAX; i++) {
		many[i].id = 100 + (uint64_t)i;
		snprintf(many[i].name[0], sizeof many[i].name[0], "p1");
		snprintf(many[i].name[1], sizeof many[i].name[1], "p2");
	}
	w->lobby.cluster.games = many;
	w->lobby.cluster.ngames = LOBBY_GAMES_MAX;
	w->lobby.cluster.games_more = 0;
	clear(asker);
	feed(asker, "GAMES\n");
	want_seq(asker, "OK GAMES 100\r\nGAME 1 p1 p2 0\r\n",
	    "GAME 100 p1 p2 0\r\n", "GAME 198 p1 p2 0\r\n"
	    "INFO 1 more matches not listed.\r\n", NULL);
	assert_int_equal(count_prefix(asker, "GAME "), LOBBY_GAMES_MAX);
	want_no(asker, "GAME 199 ");
	w->lobby.cluster.games = NULL;
	w->lobby.cluster.ngames = 0;
	free(many);
}

/*
 * lobby->keep: a match is on lobby->touched when it changes (its pairing,
 * a move), not when a move is refused; never without keep (one node).
 */
static void
test_keep_touched(void **state)
{
	struct world	*w = *state = world_new(NULL);
	struct match	*m;
	int		 mv;

	w->lobby.keep = 1;
	mv = pair(w);
	m = TAILQ_FIRST(&w->lobby.touched);
	assert_non_null(m);
	assert_true(m->touched);
	TAILQ_REMOVE(&w->lobby.touched, m, touched_entry);
	m->touched = 0;
	feed(&w->f[!mv], "MOVE A1\r\n");		/* not its turn */
	assert_true(TAILQ_EMPTY(&w->lobby.touched));
	feed(&w->f[mv], "MOVE A1\r\n");
	assert_ptr_equal(TAILQ_FIRST(&w->lobby.touched), m);
	TAILQ_REMOVE(&w->lobby.touched, m, touched_entry);
	m->touched = 0;
	feed(&w->f[!mv], "MOVE A1\r\n");		/* taken */
	assert_true(TAILQ_EMPTY(&w->lobby.touched));
	w->lobby.keep = 0;
	feed(&w->f[!mv], "MOVE B1\r\n");
	assert_true(TAILQ_EMPTY(&w->lobby.touched));
}

/*
 * A match's image, as a line and back, is the same; taken up in another
 * world both seats are away, their tokens good, the board and names as
 * they were, and the mover's clock has what it had left.
 */
static void
test_keep_image_restore(void **state)
{
	struct world		*w = *state = world_new(NULL), *w2;
	struct match_keep	 k, k2;
	struct match		*m, *m2;
	char			 line[MATCH_KEEP_MAX], line2[MATCH_KEEP_MAX];
	char			 tok[2][PROTO_TOKEN_LEN + 2];
	enum match_keep_error	 why;
	void			*p;
	int			 mv, i;

	world_open(w, 0);
	feed(&w->f[0], "NAME ann\r\n");
	world_open(w, 1);
	mv = strstr(w->f[0].out, "TURN X Enter") != NULL ? 0 : 1;
	feed(&w->f[mv], "MOVE B2\r\n");
	feed(&w->f[!mv], "MOVE A1\r\n");
	at(w, 50000);				/* the mover used 50 s */
	for (i = 0; i < 2; i++)
		token_of(&w->f[i], tok[i]);
	m = w->f[0].c.match;
	match_keep_take(m, &k);
	assert_int_equal(k.seat[mv].left, LOBBY_TURN_MS - 50000);
	assert_int_equal(k.seat[!mv].left, 0);
	assert_true(match_keep_fmt(&k, line, sizeof line) > 0);
	assert_int_equal(match_keep_parse(line, &k2, NULL), 0);
	assert_true(match_keep_fmt(&k2, line2, sizeof line2) > 0);
	assert_string_equal(line, line2);
	assert_string_equal(k2.seat[0].name, "ann");
	assert_string_equal(k2.seat[1].name, "");

	w2 = world_new(NULL);
	k2.id = 42;
	m2 = match_keep_restore(&w2->lobby, &k2, &why);
	assert_non_null(m2);
	assert_int_equal(why, MATCH_KEEP_OK);
	assert_null(match_keep_restore(&w2->lobby, &k2, &why));	/* once */
	assert_int_equal(why, MATCH_KEEP_EHERE);
	assert_int_equal(w2->lobby.naway, 2);
	assert_int_equal(m2->board.x, m->board.x);
	assert_int_equal(m2->board.o, m->board.o);
	assert_int_equal(ttt_board_turn(&m2->board), ttt_board_turn(&m->board));
	for (i = 0; i < 2; i++) {
		world_open(w2, i);
		clear(&w2->f[i]);
		feed(&w2->f[i], i == 0 ? "RESUME " : "resume ");
		feed(&w2->f[i], tok[i]);
		feed(&w2->f[i], "\r\n");
		want_seq(&w2->f[i], "OK RESUME", i == 0 ?
		    "MATCH X p2 You play X against p2." :
		    "MATCH O ann You play O against ann.", mv == 0 ?
		    "BOARD O...X...." : "BOARD X...O....", NULL);
	}
	assert_int_equal(w2->f[mv].c.clock, CLIENT_CLOCK_TURN);
	assert_int_equal(w2->f[mv].c.clock_end - fake_now(),
	    LOBBY_TURN_MS - 50000);
	p = w2;
	world_free(&p);
}

/* Lines that are no image are refused whole. */
static void
test_keep_parse_refuses(void **state)
{
	static const char *const bad[] = {
		"",
		"2 -1 0 0 0 1 0 9 -1 -1 0 1 0 0 0 0 1 0 0 0 0 =a 1 0 0 0 0 =b",
		"1 -1 0 3 1 1 0 9 -1 -1 0 1 0 0 0 0 1 0 0 0 0 =a 1 0 0 0 0 =b",
		"1 -1 0 0 0 3 0 9 -1 -1 0 1 0 0 0 0 1 0 0 0 0 =a 1 0 0 0 0 =b",
		"1 -1 0 0 0 1 0 9 -1 -1 0 0 0 0 0 0 1 0 0 0 0 =a 1 0 0 0 0 =b",
		"1 -1 0 0 0 1 0 9 -1 -1 0 1 0 0 0 0 1 0 0 0 0 =a 1 0 0 0 0 =b x",
		"1 -1 0 0 0 1 0 9 -1 -1 0 1 0 0 0 0 0 0 0 0 0 =a 0 0 0 0 0 =b",
		("1 -1 0 0 0 1 0 9 -1 -1 0 1 0 0 0 0 1 0 0 0 0 "
		    "=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa 1 0 0 0 0 =b"),
		"1 -1 0 0 0 1 0 9 -1 -1 0 1 0 0 0 0 1 0 0 0 -5 =a 1 0 0 0 0 =b",
		"1 -1 0 0 0 1 0 9 -1 -1 0 1 0 0 0 0 1 0 0 0 0 =a 1 0 0 0",
	};
	struct match_keep	 k;
	size_t			 i;

	(void)state;
	assert_int_equal(match_keep_parse("1 -1 0 0 0 1 0 9 -1 -1 0 1 0 0 0 0 "
	    "1 0 0 0 0 =a 1 0 0 0 0 =b", &k, NULL), 0);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		if (match_keep_parse(bad[i], &k, NULL) != -1)
			fail_msg("took \"%s\"", bad[i]);
	}
}

/*
 * A good image to change one field of: X on A1, O on B2, X to move, both
 * seats held with their tokens, named.
 */
static void
keep_base(struct match_keep *k)
{
	memset(k, 0, sizeof *k);
	k->ai = MATCH_HUMAN;
	k->state = MATCH_PLAYING;
	k->board.x = 0x001;
	k->board.o = 0x010;
	k->board.turn = TTT_X;
	k->board.outcome = TTT_ONGOING;
	k->board.last = 4;
	k->answer[0] = k->answer[1] = MATCH_UNANSWERED;
	k->winner = TTT_EMPTY;
	k->games = 1;
	k->seat[0].held = k->seat[1].held = 1;
	k->seat[0].moved = k->seat[1].moved = 1;
	k->seat[0].token = keytab_code("ABCDEFGH");
	k->seat[1].token = keytab_code("23456789");
	k->seat[1].used = keytab_code("JKMNPQRS");
	k->seat[0].left = 12345;
	snprintf(k->seat[0].name, sizeof k->seat[0].name, "ann");
	snprintf(k->seat[1].name, sizeof k->seat[1].name, "Zo\xc3\xab");
}

/* An image as its line, then parsed back: the error. */
static enum match_keep_error
keep_reparse(const struct match_keep *k, struct match_keep *out)
{
	enum match_keep_error	why = MATCH_KEEP_NERRORS;
	char			line[MATCH_KEEP_MAX];
	int			rc;

	assert_true(match_keep_fmt(k, line, sizeof line) > 0);
	rc = match_keep_parse(line, out, &why);
	assert_int_equal(rc, why == MATCH_KEEP_OK ? 0 : -1);
	return (why);
}

/*
 * format -> parse -> format keeps every field: each set to a value other
 * than its default (and the other seat's) in turn.
 */
static void
test_keep_round_trip_every_field(void **state)
{
	struct match_keep	 k, k2;
	char			 a[MATCH_KEEP_MAX], b[MATCH_KEEP_MAX];
	int			 step, i;

	(void)state;
	for (step = 0; step < 4; step++) {
		keep_base(&k);
		switch (step) {
		case 1:			/* against the computer, O won: AGAIN? */
			k.ai = PROTO_LEVEL_EASY;
			k.board.x = 0x003;
			k.board.o = 0x1c0;
			k.board.turn = TTT_O;
			k.board.outcome = TTT_WIN_O;
			k.board.last = 8;
			k.state = MATCH_ASKING;
			k.winner = TTT_O;
			k.answer[0] = 1;
			k.seat[1].token = 0;
			k.seat[1].used = 0;
			k.seat[1].name[0] = '\0';
			break;
		case 2:			/* a draw, game 7, a score, told */
			k.board.x = 0x18d;	/* X O X / X O O / O X X */
			k.board.o = 0x072;
			k.board.turn = TTT_X;
			k.board.outcome = TTT_DRAW;
			k.board.last = 8;
			k.state = MATCH_ASKING;
			k.games = 7;
			k.score[0] = 3;
			k.score[1] = 2;
			k.score[2] = 1;
			k.tie_told = 1;
			k.answer[1] = 1;
			k.seat[0].moved = 0;
			break;
		case 3:			/* X won, then left for good */
			k.ai = PROTO_LEVEL_PERFECT;
			k.state = MATCH_ASKING;
			k.board.x = 0x007;
			k.board.o = 0x018;
			k.board.outcome = TTT_WIN_X;
			k.board.last = 2;
			k.winner = TTT_X;
			k.seat[0].held = 0;
			k.seat[0].used = keytab_code("TUVWXYZ2");
			k.seat[1].left = 999;
			break;
		}
		assert_int_equal(keep_reparse(&k, &k2), MATCH_KEEP_OK);
		assert_int_equal(k2.ai, k.ai);
		assert_int_equal(k2.state, k.state);
		assert_int_equal(k2.board.x, k.board.x);
		assert_int_equal(k2.board.o, k.board.o);
		assert_int_equal(k2.board.turn, k.board.turn);
		assert_int_equal(k2.board.outcome, k.board.outcome);
		assert_int_equal(k2.board.last, k.board.last);
		assert_int_equal(k2.answer[0], k.answer[0]);
		assert_int_equal(k2.answer[1], k.answer[1]);
		assert_int_equal(k2.winner, k.winner);
		assert_int_equal(k2.games, k.games);
		for (i = 0; i < 3; i++)
			assert_int_equal(k2.score[i], k.score[i]);
		assert_int_equal(k2.tie_told, k.tie_told);
		for (i = 0; i < 2; i++) {
			assert_int_equal(k2.seat[i].held, k.seat[i].held);
			assert_int_equal(k2.seat[i].moved, k.seat[i].moved);
			assert_true(k2.seat[i].token == k.seat[i].token);
			assert_true(k2.seat[i].used == k.seat[i].used);
			assert_true(k2.seat[i].left == k.seat[i].left);
			assert_string_equal(k2.seat[i].name, k.seat[i].name);
		}
		assert_true(match_keep_fmt(&k, a, sizeof a) > 0);
		assert_true(match_keep_fmt(&k2, b, sizeof b) > 0);
		assert_string_equal(a, b);
	}
}

/*
 * Names from Redis are held to NAME's rules: a CR or LF (it would end the
 * MATCH line it goes into), invalid UTF-8, a control, a space-less but
 * invisible or unassigned code point, too many characters.
 */
static void
test_keep_refuses_bad_names(void **state)
{
	static const char *const bad[] = {
		"ann\r",
		"an\nn",
		"\xff" "ann",
		"an\xc3",
		"a\x01" "b",
		"a\x7f",
		"\xe2\x80\xae" "x",		/* RLO */
		"a\xe2\x80\x8b" "b",		/* zero width space */
		"\xcd\xb8" "x",			/* U+0378, unassigned */
		"\xcc\x81" "a",			/* a combining mark first */
		"abcdefghijklmnopqrstu",	/* 21 characters */
		"a.b",
	};
	struct match_keep	 k, k2;
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		keep_base(&k);
		snprintf(k.seat[i % 2].name, sizeof k.seat[0].name, "%s",
		    bad[i]);
		if (keep_reparse(&k, &k2) != MATCH_KEEP_ENAME)
			fail_msg("took the name \"%s\"", bad[i]);
	}
}

/*
 * Boards from Redis are ones play makes: the turn against the marks, the
 * outcome against the lines, the last cell, the winner of a game over,
 * a game over while still played.
 */
static void
test_keep_refuses_bad_boards(void **state)
{
	struct match_keep	 k, k2;
	int			 step;

	(void)state;
	for (step = 0; step < 8; step++) {
		keep_base(&k);
		switch (step) {
		case 0:		/* X moved, and moves again */
			k.board.o = 0;
			k.board.last = 0;
			break;
		case 1:		/* two more O than X */
			k.board.o = 0x070;
			k.board.last = 4;
			break;
		case 2:		/* X has a row, yet the game goes on */
			k.board.x = 0x007;
			k.board.o = 0x030;
			break;
		case 3:		/* a win nobody has */
			k.state = MATCH_ASKING;
			k.board.outcome = TTT_WIN_X;
			k.winner = TTT_X;
			break;
		case 4:		/* the last cell is empty */
			k.board.last = 8;
			break;
		case 5:		/* X won, but the image says O */
			k.state = MATCH_ASKING;
			k.board.x = 0x007;
			k.board.o = 0x018;
			k.board.outcome = TTT_WIN_X;
			k.board.last = 2;
			k.winner = TTT_O;
			break;
		case 6:		/* over, and still played */
			k.board.x = 0x007;
			k.board.o = 0x018;
			k.board.outcome = TTT_WIN_X;
			k.board.last = 2;
			k.winner = TTT_X;
			break;
		case 7:		/* both have a line */
			k.state = MATCH_ASKING;
			k.board.x = 0x007;
			k.board.o = 0x038;
			k.board.outcome = TTT_WIN_X;
			k.board.last = 2;
			k.winner = TTT_X;
			break;
		}
		if (keep_reparse(&k, &k2) != MATCH_KEEP_EBOARD)
			fail_msg("took board %d", step);
	}
	/*
	 * A game on with a seat left for good, or answered AGAIN?; the
	 * computer's seat left.
	 */
	for (step = 0; step < 4; step++) {
		keep_base(&k);
		if (step == 0)
			k.seat[1].held = 0;
		else if (step == 1)
			k.answer[0] = 1;
		else if (step == 3) {
			k.ai = PROTO_LEVEL_PERFECT;
			k.state = MATCH_ASKING;
			k.board.x = 0x007;
			k.board.o = 0x018;
			k.board.outcome = TTT_WIN_X;
			k.board.last = 2;
			k.winner = TTT_X;
			k.seat[1].held = 0;
		}
		else if (step == 2) {	/* both said yes: no game began */
			k.state = MATCH_ASKING;
			k.board.x = 0x007;
			k.board.o = 0x018;
			k.board.outcome = TTT_WIN_X;
			k.board.last = 2;
			k.winner = TTT_X;
			k.answer[0] = k.answer[1] = 1;
		}
		if (keep_reparse(&k, &k2) != MATCH_KEEP_ERANGE)
			fail_msg("took state %d", step);
	}
	/* The same, right: taken. */
	keep_base(&k);
	k.state = MATCH_ASKING;
	k.board.x = 0x007;
	k.board.o = 0x018;
	k.board.outcome = TTT_WIN_X;
	k.board.last = 2;
	k.winner = TTT_X;
	assert_int_equal(keep_reparse(&k, &k2), MATCH_KEEP_OK);
}

/*
 * Resume tokens from Redis are well formed and each once: not both seats
 * one token, not a seat's token its used one, not outside the alphabet;
 * and none another match here holds (restore).
 */
static void
test_keep_refuses_bad_tokens(void **state)
{
	struct world		*w = *state = world_new(NULL);
	struct match_keep	 k, k2;
	enum match_keep_error	 why;
	int			 step;

	for (step = 0; step < 5; step++) {
		keep_base(&k);
		switch (step) {
		case 0:
			k.seat[1].token = k.seat[0].token;
			break;
		case 1:
			k.seat[0].used = k.seat[0].token;
			break;
		case 2:
			k.seat[1].used = k.seat[0].token;
			break;
		case 3:		/* 0 and 1 are not in the alphabet */
			k.seat[0].token = keytab_code("ABCDEF01");
			break;
		case 4:		/* seven characters */
			k.seat[0].token = keytab_code("ABCDEFG");
			break;
		}
		if (keep_reparse(&k, &k2) != MATCH_KEEP_ETOKEN)
			fail_msg("took tokens %d", step);
	}
	keep_base(&k);
	k.id = 7;
	assert_int_equal(keep_reparse(&k, &k2), MATCH_KEEP_OK);
	k2.id = 7;
	assert_non_null(match_keep_restore(&w->lobby, &k2, &why));
	/* Another match, with a token of match 7's: refused. */
	keep_base(&k);
	k.id = 8;
	k.seat[0].token = keytab_code("WXYZWXYZ");
	k.seat[1].token = keytab_code("23456789");
	k.seat[1].used = 0;
	assert_int_equal(keep_reparse(&k, &k2), MATCH_KEEP_OK);
	k2.id = 8;
	assert_null(match_keep_restore(&w->lobby, &k2, &why));
	assert_int_equal(why, MATCH_KEEP_ETAKEN);
	assert_int_equal(w->lobby.naway, 2);
}

/*
 * A match taken up with the id the lobby would give next (ids in Redis are
 * anybody's to write): the next new match gets another one, and both are
 * found by their ids.
 */
static void
test_keep_restored_id_not_given_again(void **state)
{
	struct world		*w = *state = world_new(NULL);
	struct match_keep	 k, k2;
	struct match		*m;
	enum match_keep_error	 why;
	uint64_t		 id = w->lobby.next_match_id;

	keep_base(&k);
	assert_int_equal(keep_reparse(&k, &k2), MATCH_KEEP_OK);
	k2.id = id;
	assert_non_null(m = match_keep_restore(&w->lobby, &k2, &why));
	world_open(w, 0);
	world_open(w, 1);
	assert_non_null(w->f[0].c.match);
	assert_true(w->f[0].c.match != m);
	assert_true(w->f[0].c.match->id != id);
	assert_ptr_equal(keytab_find(&w->lobby.ids, id), m);
	assert_ptr_equal(keytab_find(&w->lobby.ids, w->f[0].c.match->id),
	    w->f[0].c.match);
}

/* The hold op: on going on, the lines kept run, as the daemon's do. */
static void
fake_hold(struct client *c, int on)
{
	struct fake	*f = fake_of(c);

	f->holds += on ? 1 : -1;
	if (!on)
		while (conn_input(c, f->in))
			;
}

/*
 * Held for two reasons at once (a player's ask to the other nodes, and
 * its match's take-up), its lines wait until both are released, each by
 * its own owner; a reason that does not hold it releases nothing.
 */
static void
test_hold_two_reasons(void **state)
{
	struct world	*w = *state = world_new(NULL);
	struct fake	*a;

	w->f[0].c.ops = &fake_hold_ops;
	a = world_open(w, 0);
	clear(a);
	client_hold(&a->c, CLIENT_HOLD_ASK);
	client_hold(&a->c, CLIENT_HOLD_TAKEUP);
	client_hold(&a->c, CLIENT_HOLD_ASK);
	assert_int_equal(a->holds, 1);		/* told once */
	feed(a, "PING\r\n");
	assert_string_equal(a->out, "");
	assert_int_equal(evbuffer_get_length(a->in), 6);	/* kept */

	assert_int_equal(client_release(&a->c, CLIENT_HOLD_ASK), 0);
	assert_int_equal(client_release(&a->c, CLIENT_HOLD_ASK), 0);
	assert_int_equal(a->c.flags & CLIENT_HOLDS, CLIENT_HOLD_TAKEUP);
	assert_int_equal(a->holds, 1);
	feed(a, "");
	assert_string_equal(a->out, "");

	assert_int_equal(client_release(&a->c, CLIENT_HOLD_TAKEUP), 1);
	assert_int_equal(a->c.flags & CLIENT_HOLDS, 0);
	assert_int_equal(a->holds, 0);
	assert_string_equal(a->out, "OK PONG\r\n");
	assert_int_equal(client_release(&a->c, CLIENT_HOLD_TAKEUP), 0);
	assert_int_equal(a->holds, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_keep_touched, world_free),
		cmocka_unit_test(test_keep_round_trip_every_field),
		cmocka_unit_test(test_keep_refuses_bad_names),
		cmocka_unit_test(test_keep_refuses_bad_boards),
		cmocka_unit_test_teardown(test_keep_refuses_bad_tokens,
		    world_free),
		cmocka_unit_test_teardown(test_keep_restored_id_not_given_again,
		    world_free),
		cmocka_unit_test_teardown(test_keep_image_restore, world_free),
		cmocka_unit_test(test_keep_parse_refuses),
		cmocka_unit_test_teardown(test_lines_per_call_bounded,
		    world_free),
		cmocka_unit_test_teardown(test_input_no_alloc_per_line,
		    world_free),
		cmocka_unit_test_teardown(test_bytes_lines_per_call_bounded,
		    world_free),
		cmocka_unit_test_teardown(test_long_line_skipped_flood_closes,
		    world_free),
		cmocka_unit_test_teardown(test_long_line_rate_limited,
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
		cmocka_unit_test_teardown(test_idle_clock_long_line,
		    world_free),
		cmocka_unit_test_teardown(test_rate_limit, world_free),
		cmocka_unit_test_teardown(test_control_frame_rate, world_free),
		cmocka_unit_test_teardown(
		    test_rate_limited_move_changes_nothing, world_free),
		cmocka_unit_test_teardown(test_http_first_line, world_free),
		cmocka_unit_test_teardown(test_fresh_abort_requeue_waits,
		    world_free),
		cmocka_unit_test_teardown(test_rated_pairing, world_free),
		cmocka_unit_test_teardown(test_rated_guests, world_free),
		cmocka_unit_test_teardown(test_fresh_paired_after_half_second,
		    world_free),
		cmocka_unit_test_teardown(test_fresh_probe_never_paired,
		    world_free),
		cmocka_unit_test_teardown(test_fresh_name_in_match, world_free),
		cmocka_unit_test_teardown(test_name_look_alikes, world_free),
		cmocka_unit_test_teardown(test_fresh_long_http_never_paired,
		    world_free),
		cmocka_unit_test_teardown(test_fresh_probe_delays_ai_offer,
		    world_free),
		cmocka_unit_test_teardown(test_fresh_leaves_for_ai, world_free),
		cmocka_unit_test_teardown(test_limits_off, world_free),
		cmocka_unit_test_teardown(
		    test_forfeit_counted_when_opponent_closing, world_free),
		cmocka_unit_test_teardown(test_closing_never_paired, world_free),
		cmocka_unit_test_teardown(test_closing_room_not_joined,
		    world_free),
		cmocka_unit_test_teardown(test_abort_opponent_before_watchers,
		    world_free),
		cmocka_unit_test_teardown(test_abort_by_quit_before_first_move,
		    world_free),
		cmocka_unit_test_teardown(test_abort_requeues_alone,
		    world_free),
		cmocka_unit_test_teardown(test_no_abort_after_moving,
		    world_free),
		cmocka_unit_test_teardown(test_quit_after_moving_forfeits,
		    world_free),
		cmocka_unit_test_teardown(test_room_new_and_expiry,
		    world_free),
		cmocka_unit_test_teardown(test_room_join_pairs_maker_and_joiner,
		    world_free),
		cmocka_unit_test_teardown(test_lost_connection_keeps_seat,
		    world_free),
		cmocka_unit_test_teardown(test_resume_with_paused_turn_clock,
		    world_free),
		cmocka_unit_test_teardown(test_resume_any_case_no_dash,
		    world_free),
		cmocka_unit_test_teardown(test_fresh_paired_while_seat_away,
		    world_free),
		cmocka_unit_test_teardown(test_grace_before_fresh, world_free),
		cmocka_unit_test_teardown(test_resume_after_opponent_moved,
		    world_free),
		cmocka_unit_test_teardown(test_away_turn_lost_at_grace_end,
		    world_free),
		cmocka_unit_test_teardown(
		    test_resume_wrong_tokens_limit_their_address, world_free),
		cmocka_unit_test_teardown(test_resume_right_tokens_not_charged,
		    world_free),
		cmocka_unit_test_teardown(
		    test_resume_wrong_tokens_limited_everywhere, world_free),
		cmocka_unit_test_teardown(test_resume_takeover_of_live_seat,
		    world_free),
		cmocka_unit_test_teardown(test_resume_keeps_seat_limits,
		    world_free),
		cmocka_unit_test_teardown(test_ai_offer_without_idle_limit,
		    world_free),
		cmocka_unit_test_teardown(test_ai_offer_once_per_stay,
		    world_free),
		cmocka_unit_test_teardown(test_chat_rate,
		    world_free),
		cmocka_unit_test_teardown(test_chat_refused_early_does_not_delay,
		    world_free),
		cmocka_unit_test_teardown(test_resign_on_opponents_turn,
		    world_free),
		cmocka_unit_test_teardown(test_play_ai,
		    world_free),
		cmocka_unit_test_teardown(test_early_draw_ends_in_tie,
		    world_free),
		cmocka_unit_test_teardown(test_tie_notice_once_per_game,
		    world_free),
		cmocka_unit_test_teardown(test_watch,
		    world_free),
		cmocka_unit_test_teardown(test_unwatch_and_release_on_abort,
		    world_free),
		cmocka_unit_test_teardown(test_watch_notices_limited,
		    world_free),
		cmocka_unit_test_teardown(test_games_lists_live_matches_only,
		    world_free),
		cmocka_unit_test_teardown(test_games_lists_other_nodes,
		    world_free),
		cmocka_unit_test_teardown(test_hold_two_reasons, world_free),
		cmocka_unit_test_teardown(test_events_listeners, world_free),
		cmocka_unit_test_teardown(test_events_world, world_free),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
