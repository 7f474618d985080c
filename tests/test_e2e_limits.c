/*
 * test_e2e_limits.c -- the real tttd under pressure from its own peers:
 * a client that never reads, a client that half-closes, a seat given back
 * the moment its player leaves, and a server out of descriptors.
 */
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness.h"

#define LIMITS_CONNS	128

/* Per-test fixture: one server and the test's connections. */
struct limits {
	struct tttd_proc	srv;
	struct conn		conns[LIMITS_CONNS];
	int			nconns;
};

static int
limits_setup(void **state)
{
	struct limits	*l;

	signal(SIGPIPE, SIG_IGN);
	if ((l = calloc(1, sizeof *l)) == NULL)
		return (-1);
	*state = l;
	return (0);
}

/* Close every connection; kill a server a failed test left running. */
static int
limits_teardown(void **state)
{
	struct limits	*l = *state;
	int		 i;

	for (i = 0; i < l->nconns; i++)
		conn_close(&l->conns[i]);
	if (l->srv.pid != 0) {
		kill(l->srv.pid, SIGKILL);
		waitpid(l->srv.pid, NULL, 0);
		close(l->srv.err_fd);
	}
	free(l);
	return (0);
}

/* A new connection to the server, owned by the fixture. */
static struct conn *
limits_connect(struct limits *l)
{
	struct conn	*c;

	assert_true(l->nconns < LIMITS_CONNS);
	c = &l->conns[l->nconns++];
	if (conn_open(c, l->srv.port) != 0)
		fail_msg("cannot connect: %s", strerror(errno));
	return (c);
}

/* Close the connections, SIGTERM the server, insist on exit status 0. */
static void
limits_stop(struct limits *l)
{
	int	i, rc;

	for (i = 0; i < l->nconns; i++)
		conn_close(&l->conns[i]);
	rc = harness_stop(&l->srv);
	l->srv.pid = 0;
	assert_int_equal(rc, 0);
}

/* Two connections paired into a match: x waited longer and plays X. */
static void
limits_pair(struct limits *l, struct conn **x, struct conn **o)
{
	*x = limits_connect(l);
	expect_prefix(*x, "HELLO ");
	expect_event(*x, "WAIT Waiting for an opponent...");
	*o = limits_connect(l);
	expect_prefix(*o, "HELLO ");
	expect_event(*o, "WAIT Waiting for an opponent...");
	expect_event(*x, "MATCH X p2 You play X against p2.");
	expect_event(*o, "MATCH O p1 You play O against p1.");
}

/*
 * Regression: a client that floods commands and never reads its replies
 * is closed once its pending output passes the cap; the server's memory
 * stays bounded and the opponent wins by forfeit.
 */
static void
test_limits_non_reader_is_dropped(void **state)
{
	/* Off, so that the output cap is what stops the flood. */
	static const char *const	 extra[] = { "--rate-limit", "0", NULL };
	struct limits			*l = *state;
	struct conn			*x, *o;
	char				 chunk[5 * 1000], line[512];
	char				 log[16384];
	long				 rss0, rss1, deadline;
	size_t				 sent = 0;
	int				 i;

	assert_int_equal(harness_start(&l->srv, extra), 0);
	limits_pair(l, &x, &o);
	rss0 = harness_rss_kb(&l->srv);
	for (i = 0; i < 1000; i++)
		memcpy(chunk + 5 * i, "help\n", 5);
	/* 4 MB of HELP asks for ~380 MB of replies; x reads none of them. */
	deadline = harness_now_ms() + HARNESS_TIMEOUT_MS;
	while (sent < 4 * 1000 * 1000 && harness_now_ms() < deadline) {
		ssize_t	w = send(x->fd, chunk, sizeof chunk,
			    MSG_DONTWAIT | MSG_NOSIGNAL);

		if (w > 0)
			sent += (size_t)w;
		else if (w == -1 && errno != EAGAIN && errno != EWOULDBLOCK)
			break;		/* the server has closed: done */
		else
			usleep(1000);
	}
	expect_skip_to(o, "RESULT FORFEIT ", line, sizeof line);
	assert_string_equal(line,
	    "RESULT FORFEIT O p2 p1 lost the connection. p2 wins!");
	harness_log(&l->srv, log, sizeof log);
	if (strstr(log, "is not reading") == NULL)
		fail_msg("the output cap did not fire:\n%s", log);
	/*
	 * Unbounded, the replies would take hundreds of MiB; the bound leaves
	 * room for allocator and sanitizer (ASan quarantine) slack.
	 */
	rss1 = harness_rss_kb(&l->srv);
	if (rss1 - rss0 > 64 * 1024)
		fail_msg("server RSS grew from %ld to %ld KiB", rss0, rss1);
	/* The server still serves. */
	conn_send(o, "PING");
	expect_skip_to(o, "OK PONG", NULL, 0);
	limits_stop(l);
}

/*
 * Regression: a client that sends its commands and then closes its
 * sending side still gets every reply, and then EOF.
 */
static void
test_limits_half_close_gets_every_reply(void **state)
{
	struct limits	*l = *state;
	struct conn	*c;
	char		 cmds[5 * 100], line[512];
	int		 i, n = 0;

	assert_int_equal(harness_start(&l->srv, NULL), 0);
	c = limits_connect(l);
	expect_prefix(c, "HELLO ");
	expect_event(c, "WAIT Waiting for an opponent...");
	for (i = 0; i < 100; i++)
		memcpy(cmds + 5 * i, "help\n", 5);
	assert_int_equal(conn_write(c, cmds, sizeof cmds), 0);
	assert_int_equal(shutdown(c->fd, SHUT_WR), 0);
	while (conn_line(c, line, sizeof line, HARNESS_TIMEOUT_MS) >= 0) {
		if (strcmp(line, "OK HELP") == 0)
			n++;
		else if (line[0] != ' ')
			fail_msg("unexpected line \"%s\"", line);
	}
	assert_int_equal(n, 100);
	assert_true(conn_wait_closed(c, HARNESS_TIMEOUT_MS));
	limits_stop(l);
}

/*
 * Regression: with --max-clients 2, the seat of a player who quit is free
 * as soon as it has its BYE, not when its socket is finally closed.
 */
static void
test_limits_seat_freed_on_quit(void **state)
{
	static const char *const	 extra[] = { "--max-clients", "2", NULL };
	struct limits			*l = *state;
	struct conn			*x, *o, *c;

	assert_int_equal(harness_start(&l->srv, extra), 0);
	limits_pair(l, &x, &o);
	c = limits_connect(l);
	expect_prefix(c, "ERR SERVER_FULL ");
	assert_true(conn_wait_closed(c, HARNESS_TIMEOUT_MS));

	conn_send(x, "QUIT");
	expect_skip_to(x, "BYE Thank you for playing!", NULL, 0);
	assert_true(conn_wait_closed(x, HARNESS_TIMEOUT_MS));
	c = limits_connect(l);
	expect_prefix(c, "HELLO ");
	expect_event(c, "WAIT Waiting for an opponent...");
	limits_stop(l);
}

/*
 * Regression: out of descriptors, accept fails with EMFILE and libevent
 * would call the listener's error callback in a tight loop.  The server
 * must pause accepting instead (CPU time stays low), keep serving its
 * players, and accept again once descriptors are free.
 */
static void
test_limits_out_of_descriptors(void **state)
{
	static const char *const	 extra[] = { "--max-clients", "40", NULL };
	struct limits			*l = *state;
	struct conn			*x, *o, *c;
	char				 log[65536], *p;
	long				 cpu0, cpu1, deadline;
	int				 i, pauses = 0;
	size_t				 logged = 0, n;

	assert_int_equal(harness_start_nofile(&l->srv, extra, 64), 0);
	limits_pair(l, &x, &o);
	for (i = 0; i < 100; i++)
		limits_connect(l);
	/*
	 * Read the server's log all along: a server logging in a loop would
	 * otherwise block on its full stderr pipe and look idle.  Refusing
	 * and closing the 100 takes about 20 KiB of log; a loop logs MiBs.
	 */
	usleep(300 * 1000);
	cpu0 = harness_cpu_ms(&l->srv);
	for (i = 0; i < 20; i++) {
		usleep(50 * 1000);
		n = harness_log(&l->srv, log, sizeof log);
		logged += n;
		for (p = log; (p = strstr(p, "pausing new connections")) !=
		    NULL; p++)
			pauses++;
	}
	cpu1 = harness_cpu_ms(&l->srv);
	if (cpu1 - cpu0 > 300)
		fail_msg("server used %ld ms of CPU in 1 s while out of "
		    "descriptors", cpu1 - cpu0);
	if (logged > 65536)
		fail_msg("server logged %zu bytes in 1 s while out of "
		    "descriptors", logged);
	harness_log(&l->srv, log, sizeof log);	/* the start-up lines */
	if (pauses > 2)
		fail_msg("%d 'pausing new connections' lines in 1 s", pauses);

	/* The match goes on meanwhile. */
	conn_send(x, "PING");
	expect_skip_to(x, "OK PONG", NULL, 0);

	/* Free the descriptors: a newcomer is greeted again. */
	for (i = 2; i < l->nconns; i++)
		conn_close(&l->conns[i]);
	deadline = harness_now_ms() + 3 * HARNESS_TIMEOUT_MS;
	for (;;) {
		char	line[512];

		c = limits_connect(l);
		if (conn_line(c, line, sizeof line, HARNESS_TIMEOUT_MS) >= 0 &&
		    strncmp(line, "HELLO ", 6) == 0)
			break;
		conn_close(c);
		if (harness_now_ms() > deadline)
			fail_msg("no HELLO after descriptors were freed");
		usleep(100 * 1000);
	}
	limits_stop(l);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
		    test_limits_non_reader_is_dropped, limits_setup,
		    limits_teardown),
		cmocka_unit_test_setup_teardown(
		    test_limits_half_close_gets_every_reply, limits_setup,
		    limits_teardown),
		cmocka_unit_test_setup_teardown(
		    test_limits_seat_freed_on_quit, limits_setup,
		    limits_teardown),
		cmocka_unit_test_setup_teardown(
		    test_limits_out_of_descriptors, limits_setup,
		    limits_teardown),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
