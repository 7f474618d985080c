/*
 * test_e2e_probe.c -- probes are never opponents (protocol.md §6.1): the
 * real tttd, a player waiting in its queue, and the things that connect
 * without coming to play -- a port probe that closes at once, a web
 * request, the client's own health check (ttt-client --ping) -- none of
 * which may become that player's opponent.  A real player still is, within
 * a second, and the name it sends at once is the one its opponent reads.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "harness.h"
#include "e2e_fix.h"
#include "e2e_game.h"

extern char	**environ;

#define E_NOT_HTTP	"ERR NOT_HTTP This is a Tic Tac Toe server, not a " \
			"web server. Goodbye."
#define PROBE_QUIET_MS	1200	/* longer than any pairing delay */

#define SEND(c, ...)		line_send_at(__LINE__, (c), __VA_ARGS__)
#define WANT_QUIET(c, ms)	line_want_quiet_at(__LINE__, (c), (ms))
#define WANT_PREFIX(c, p, o)	line_want_prefix_at(__LINE__, (c), (p), (o), \
				    sizeof (o))

/* A player who has waited alone for a while: the queue's oldest. */
static struct conn *
probe_waiter(struct e2e *e, struct tttd_proc *tp)
{
	struct conn	*a = CONNECT(e, tp);

	WANT_QUIET(a, 700);
	return (a);
}

/*
 * nc -z, a port scanner, a TCP health check: it connects and closes (with
 * or without reading the greeting).  The player waiting never sees it.
 */
static void
test_probe_connect_and_close(void **state)
{
	struct e2e		*e = *state;
	struct tttd_proc	*tp = e2e_server(e, NULL);
	struct conn		*a = probe_waiter(e, tp), *p;
	int			 i;

	for (i = 0; i < 3; i++) {
		p = e2e_conn(e);
		if (conn_open(p, tp->port) != 0)
			fail_msg("cannot connect");
		if (i == 1)
			usleep(200 * 1000);	/* a slower probe */
		conn_drop(p, i == 2);		/* FIN, FIN, reset */
	}
	WANT_QUIET(a, PROBE_QUIET_MS);
	assert_int_equal(line_stat_at(__LINE__, a, "games_finished"), 0);
	assert_int_equal(line_stat_at(__LINE__, a, "aborts"), 0);
	e2e_stop(e, tp);
}

/* curl, a browser: an HTTP request is told off and never paired. */
static void
test_probe_http_request(void **state)
{
	struct e2e		*e = *state;
	struct tttd_proc	*tp = e2e_server(e, NULL);
	struct conn		*a = probe_waiter(e, tp), *h = CONNECT(e, tp);

	SEND(h, "GET / HTTP/1.1");
	SEND(h, "Host: localhost:4000");
	SEND(h, "%s", "");
	line_want_at(__LINE__, 1, h, E_NOT_HTTP);
	line_want_eof_at(__LINE__, h);
	/* A long URL: a first line too long to be read whole. */
	h = CONNECT(e, tp);
	SEND(h, "GET /%0400d HTTP/1.1", 7);
	SEND(h, "Host: localhost:4000");
	line_want_at(__LINE__, 1, h, E_NOT_HTTP);
	line_want_eof_at(__LINE__, h);
	WANT_QUIET(a, PROBE_QUIET_MS);
	assert_int_equal(line_stat_at(__LINE__, a, "matches_live"), 0);
	e2e_stop(e, tp);
}

/* ttt-client --ping (the Docker health check): PING, then QUIT. */
static void
test_probe_client_ping(void **state)
{
	struct e2e		*e = *state;
	struct tttd_proc	*tp = e2e_server(e, NULL);
	struct conn		*a = probe_waiter(e, tp);
	char			 port[16];
	char			*argv[] = { "ttt-client", "--ping", "127.0.0.1",
				    port, NULL };
	pid_t			 pid;
	int			 status, i;

	snprintf(port, sizeof port, "%d", tp->port);
	for (i = 0; i < 2; i++) {
		if (posix_spawn(&pid, harness_client_path(), NULL, NULL, argv,
		    environ) != 0)
			fail_msg("cannot run %s", harness_client_path());
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status) != 0)
			fail_msg("ttt-client --ping failed (status %d)",
			    status);
	}
	WANT_QUIET(a, PROBE_QUIET_MS);
	assert_int_equal(line_stat_at(__LINE__, a, "games_finished"), 0);
	assert_int_equal(line_stat_at(__LINE__, a, "players_waiting"), 1);
	e2e_stop(e, tp);
}

/*
 * ttt-client --healthz (the Docker health check) on the HTTP port: status
 * 0, and nobody is paired with it; on a port that is not HTTP, status 1.
 */
static void
test_probe_client_healthz(void **state)
{
	static const char *const	 extra[] = { "--http-port", "any", NULL };
	struct e2e			*e = *state;
	struct tttd_proc		*tp = e2e_server(e, extra);
	struct conn			*a = probe_waiter(e, tp);
	char				 port[16];
	char				*argv[] = { "ttt-client", "--healthz",
					    "127.0.0.1", port, NULL };
	pid_t				 pid;
	int				 status, i;

	for (i = 0; i < 2; i++) {
		snprintf(port, sizeof port, "%d", i == 0 ? tp->http_port :
		    tp->port);
		if (posix_spawn(&pid, harness_client_path(), NULL, NULL, argv,
		    environ) != 0)
			fail_msg("cannot run %s", harness_client_path());
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status) != i)
			fail_msg("ttt-client --healthz on the %s port: status "
			    "%d", i == 0 ? "HTTP" : "game", status);
	}
	WANT_QUIET(a, PROBE_QUIET_MS);
	assert_int_equal(line_stat_at(__LINE__, a, "games_finished"), 0);
	assert_int_equal(line_stat_at(__LINE__, a, "players_waiting"), 1);
	e2e_stop(e, tp);
}

/*
 * A real player is paired with the one waiting within a second, and the
 * name it sent at once is the name in the waiting player's MATCH line --
 * no "p2 is now known as bob" afterwards.
 */
static void
test_probe_player_paired_with_its_name(void **state)
{
	struct e2e		*e = *state;
	struct tttd_proc	*tp = e2e_server(e, NULL);
	struct conn		*a = probe_waiter(e, tp), *b;
	char			 got[LINE_SIZE];
	long			 t0 = harness_now_ms(), dt;

	b = CONNECT(e, tp);
	SEND(b, "NAME bob");
	line_want_at(__LINE__, 1, b, "OK NAME bob");
	line_want_at(__LINE__, 0, a, "MATCH X bob You play X against bob.");
	dt = harness_now_ms() - t0;
	if (dt > 1000)
		fail_msg("paired %ld ms after the player came", dt);
	line_want_at(__LINE__, 0, b, "MATCH O p1 You play O against p1.");
	WANT_PREFIX(a, "TOKEN ", got);
	WANT_PREFIX(a, "START ", got);
	e2e_stop(e, tp);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_probe_connect_and_close,
		    e2e_setup, e2e_teardown),
		cmocka_unit_test_setup_teardown(test_probe_http_request,
		    e2e_setup, e2e_teardown),
		cmocka_unit_test_setup_teardown(test_probe_client_ping,
		    e2e_setup, e2e_teardown),
		cmocka_unit_test_setup_teardown(test_probe_client_healthz,
		    e2e_setup, e2e_teardown),
		cmocka_unit_test_setup_teardown(
		    test_probe_player_paired_with_its_name, e2e_setup,
		    e2e_teardown),
	};

	signal(SIGPIPE, SIG_IGN);
	return (cmocka_run_group_tests(tests, NULL, NULL));
}
