/*
 * test_e2e_daemon.c -- the real tttd as an operator runs it: STATS,
 * settings from the environment (flags win), and --log-level.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness.h"

#define DAEMON_CONNS	4

struct daemon {
	struct tttd_proc	srv;
	struct conn		c[DAEMON_CONNS];
};

static int
daemon_setup(void **state)
{
	struct daemon	*d;
	int		 i;

	signal(SIGPIPE, SIG_IGN);
	if ((d = calloc(1, sizeof *d)) == NULL)
		return (-1);
	for (i = 0; i < DAEMON_CONNS; i++)
		d->c[i].fd = -1;
	*state = d;
	return (0);
}

/* Close the connections, stop a server left running, clear TTTD_*. */
static int
daemon_teardown(void **state)
{
	struct daemon	*d = *state;
	int		 i;

	for (i = 0; i < DAEMON_CONNS; i++)
		conn_close(&d->c[i]);
	if (d->srv.pid != 0) {
		kill(d->srv.pid, SIGKILL);
		waitpid(d->srv.pid, NULL, 0);
		close(d->srv.err_fd);
	}
	unsetenv("TTTD_MAX_CLIENTS");
	unsetenv("TTTD_LOG_LEVEL");
	unsetenv("TTTD_RATE_LIMIT");
	free(d);
	return (0);
}

/* Connect connection i and read its greeting. */
static struct conn *
daemon_join(struct daemon *d, int i)
{
	assert_int_equal(conn_open(&d->c[i], d->srv.port), 0);
	expect_prefix(&d->c[i], "HELLO ");
	expect_event(&d->c[i], "WAIT Waiting for an opponent...");
	return (&d->c[i]);
}

/* Stop the server and insist on exit status 0. */
static void
daemon_stop(struct daemon *d)
{
	int	i, rc;

	for (i = 0; i < DAEMON_CONNS; i++)
		conn_close(&d->c[i]);
	rc = harness_stop(&d->srv);
	d->srv.pid = 0;
	assert_int_equal(rc, 0);
}

/* STATS: read the block after OK STATS; the value of one STAT. */
static unsigned long long
stat_value(const char *block, const char *name)
{
	char		 key[64];
	const char	*p;

	snprintf(key, sizeof key, "\nSTAT %s ", name);
	if ((p = strstr(block, key)) == NULL)
		fail_msg("no STAT %s in:%s", name, block);
	return (strtoull(p + strlen(key), NULL, 10));
}

/* Send STATS and collect its lines, each after a '\n', up to END. */
static void
stats(struct conn *c, char *block, size_t size)
{
	char	line[256];
	size_t	n = 0;
	int	lines = 0;

	conn_send(c, "STATS");
	expect_event(c, "OK STATS");
	block[0] = '\0';
	for (;;) {
		if (conn_line(c, line, sizeof line, HARNESS_TIMEOUT_MS) < 0)
			fail_msg("no END after %d STAT lines", lines);
		if (strcmp(line, "END") == 0)
			break;
		if (strncmp(line, "STAT ", 5) != 0)
			fail_msg("\"%s\" among the STAT lines", line);
		n += (size_t)snprintf(block + n, size - n, "\n%s", line);
		assert_true(n < size);
		lines++;
	}
	assert_int_equal(lines, 22);
}

/* STATS counts what happened: a game, its moves, errors, refusals. */
static void
test_daemon_stats(void **state)
{
	static const char *const	 extra[] = { "--max-clients", "2",
					    "--seed", "3", NULL };
	struct daemon			*d = *state;
	struct conn			*x, *o, *p[2];
	char				 block[2048];

	assert_int_equal(harness_start_v1(&d->srv, extra), 0);
	x = daemon_join(d, 0);
	stats(x, block, sizeof block);
	assert_int_equal(stat_value(block, "connections_current"), 1);
	assert_int_equal(stat_value(block, "players_waiting"), 1);
	assert_int_equal(stat_value(block, "matches_live"), 0);
	assert_int_equal(stat_value(block, "games_finished"), 0);

	o = daemon_join(d, 1);
	harness_play_to_result(x, o, p);
	conn_send(p[1], "MOVE Z9");
	expect_prefix(p[1], "ERR BAD_CELL ");
	/* A third player is refused: the server is full. */
	assert_int_equal(conn_open(&d->c[2], d->srv.port), 0);
	expect_prefix(&d->c[2], "ERR SERVER_FULL ");
	assert_true(conn_wait_closed(&d->c[2], HARNESS_TIMEOUT_MS));

	stats(p[1], block, sizeof block);
	assert_int_equal(stat_value(block, "connections_total"), 3);
	assert_int_equal(stat_value(block, "connections_current"), 2);
	assert_int_equal(stat_value(block, "connections_rejected"), 1);
	assert_int_equal(stat_value(block, "players_waiting"), 0);
	assert_int_equal(stat_value(block, "matches_live"), 1);
	assert_int_equal(stat_value(block, "games_finished"), 1);
	assert_int_equal(stat_value(block, "wins"), 1);
	/* The counters of protocol.md §9: none of it happened here. */
	assert_int_equal(stat_value(block, "rooms_open"), 0);
	assert_int_equal(stat_value(block, "watchers"), 0);
	assert_int_equal(stat_value(block, "players_away"), 0);
	assert_int_equal(stat_value(block, "matches_ai"), 0);
	assert_int_equal(stat_value(block, "aborts"), 0);
	assert_int_equal(stat_value(block, "resigns"), 0);
	assert_int_equal(stat_value(block, "resumes"), 0);
	assert_int_equal(stat_value(block, "chats"), 0);
	assert_int_equal(stat_value(block, "ties"), 0);
	assert_int_equal(stat_value(block, "forfeits"), 0);
	assert_int_equal(stat_value(block, "moves"), 5);
	assert_int_equal(stat_value(block, "errors"), 2);	/* +FULL */
	/* Every byte the players sent: two STATS, five moves, MOVE Z9. */
	assert_int_equal(stat_value(block, "bytes_in"),
	    2 * strlen("STATS\r\n") + 5 * strlen("B1\r\n") +
	    strlen("MOVE Z9\r\n"));
	assert_true(stat_value(block, "bytes_out") > 1000);
	assert_true(stat_value(block, "uptime") < 60);

	/* A forfeit counts as a finished game too. */
	conn_send(p[0], "y");
	conn_send(p[1], "y");
	expect_skip_to(p[0], "TURN ", NULL, 0);
	conn_send(p[0], "QUIT");
	expect_skip_to(p[1], "RESULT FORFEIT ", NULL, 0);
	expect_prefix(p[1], "AGAIN? ");
	stats(p[1], block, sizeof block);
	assert_int_equal(stat_value(block, "games_finished"), 2);
	assert_int_equal(stat_value(block, "forfeits"), 1);
	daemon_stop(d);
}

/* Settings come from TTTD_* variables; a flag wins over its variable. */
static void
test_daemon_environment(void **state)
{
	static const char *const	 extra[] = { "--max-clients", "3",
					    NULL };
	struct daemon			*d = *state;

	setenv("TTTD_MAX_CLIENTS", "1", 1);
	assert_int_equal(harness_start_v1(&d->srv, NULL), 0);
	daemon_join(d, 0);
	assert_int_equal(conn_open(&d->c[1], d->srv.port), 0);
	expect_prefix(&d->c[1], "ERR SERVER_FULL ");
	daemon_stop(d);

	assert_int_equal(harness_start_v1(&d->srv, extra), 0);
	daemon_join(d, 0);
	daemon_join(d, 1);
	daemon_stop(d);

	/* Under a flag, even a bad variable does no harm. */
	setenv("TTTD_MAX_CLIENTS", "lots", 1);
	assert_int_equal(harness_start_v1(&d->srv, extra), 0);
	daemon_join(d, 0);
	daemon_stop(d);
}

/* A bad variable stops tttd with status 2. */
static void
test_daemon_bad_environment(void **state)
{
	const char	*argv[] = { "--version", NULL };
	char		 out[256];

	(void)state;
	setenv("TTTD_RATE_LIMIT", "lots", 1);
	assert_int_equal(harness_run(argv, out, sizeof out,
	    HARNESS_TIMEOUT_MS), 2);
	setenv("TTTD_RATE_LIMIT", "20", 1);
	assert_int_equal(harness_run(argv, out, sizeof out,
	    HARNESS_TIMEOUT_MS), 0);
}

/* --help names every variable and shows the defaults and the values now. */
static void
test_daemon_help_shows_environment(void **state)
{
	const char	*argv[] = { "--help", NULL };
	static char	 out[8192];
	static const char *const want[] = {
		"[TTTD_PORT, default 4000]",
		"[TTTD_BIND, default every address]",
		"[TTTD_LOG_LEVEL, default info]",
		"[TTTD_MAX_CLIENTS, default 10000, now 7]",
		"[TTTD_MAX_PER_ADDR, default 64]",
		"[TTTD_TURN_TIMEOUT, default 120]",
		"[TTTD_RATE_BURST, default 100]",
	};
	size_t		 i;

	(void)state;
	setenv("TTTD_MAX_CLIENTS", "7", 1);
	assert_int_equal(harness_run(argv, out, sizeof out,
	    HARNESS_TIMEOUT_MS), 0);
	for (i = 0; i < sizeof want / sizeof want[0]; i++) {
		if (strstr(out, want[i]) == NULL)
			fail_msg("--help lacks \"%s\":\n%s", want[i], out);
	}
}

/* --log-level: warn hides the info lines, debug shows each line read. */
static void
test_daemon_log_level(void **state)
{
	static const char *const	 warn[] = { "--log-level", "warn",
					    NULL };
	static const char *const	 debug[] = { "--log-level", "debug",
					    NULL };
	struct daemon			*d = *state;
	char				 log[16384];
	struct conn			*c;

	assert_int_equal(harness_start_v1(&d->srv, warn), 0);
	c = daemon_join(d, 0);
	conn_send(c, "PING");
	expect_event(c, "OK PONG");
	harness_log(&d->srv, log, sizeof log);	/* written before the reply */
	daemon_stop(d);
	if (strstr(log, " info ") != NULL || strstr(log, " debug ") != NULL)
		fail_msg("info or debug lines at --log-level warn:\n%s", log);

	assert_int_equal(harness_start_v1(&d->srv, debug), 0);
	c = daemon_join(d, 0);
	conn_write(c, "PING\n\x1b[2J\n", 11);
	expect_event(c, "OK PONG");
	expect_prefix(c, "ERR BAD_CHAR ");
	harness_log(&d->srv, log, sizeof log);
	daemon_stop(d);
	if (strstr(log, " info client 1: connect from 127.0.0.1:") == NULL ||
	    strstr(log, " debug client 1: line \"PING\"") == NULL ||
	    strstr(log, " debug client 1: line \"\\x1b[2J\"") == NULL ||
	    strstr(log, " debug client 1: ERR BAD_CHAR") == NULL)
		fail_msg("debug lines missing or raw bytes logged:\n%s", log);
}

/*
 * A log nobody reads does not stop the server: with its stderr pipe never
 * drained (64 KiB), 2,000 connections' log lines (about 300 KB) are
 * written while there is room and dropped after; a PING is still
 * answered, and once the pipe is read the count of the dropped lines comes
 * first.  A blocking write froze every match here.
 */
static void
test_daemon_log_never_blocks(void **state)
{
	struct daemon	*d = *state;
	static char	 log[1 << 20];
	struct conn	*c;
	char		 line[256];
	int		 i;

	assert_int_equal(harness_start_v1(&d->srv, NULL), 0);
	for (i = 0; i < 2000; i++) {
		assert_int_equal(conn_open(&d->c[1], d->srv.port), 0);
		if (conn_line(&d->c[1], line, sizeof line,
		    HARNESS_TIMEOUT_MS) < 0)
			fail_msg("connection %d was not greeted: the server "
			    "is stuck on its log", i);
		conn_close(&d->c[1]);
	}
	c = daemon_join(d, 0);
	conn_send(c, "PING");
	/* The last of the 2,000 may not be gone yet: a MATCH may come first. */
	expect_skip_to(c, "OK PONG", NULL, 0);
	harness_log(&d->srv, log, sizeof log);
	if (strstr(log, "log lines dropped: stderr was full") != NULL)
		fail_msg("the count of dropped lines came before room did");
	/* Room again: the next line is the count, then the line itself. */
	conn_send(c, "QUIT");
	expect_prefix(c, "BYE ");
	harness_log_wait(&d->srv, log, sizeof log,
	    " log lines dropped: stderr was full");
	if (strstr(log, " warn ") == NULL ||
	    strstr(log, " log lines dropped: stderr was full") == NULL ||
	    strstr(log, " info client ") == NULL)
		fail_msg("no count of the dropped lines after the pipe was "
		    "read:\n%.2000s", log);
	daemon_stop(d);
}

/* A bad level stops tttd with status 2. */
static void
test_daemon_bad_log_level(void **state)
{
	const char	*argv[] = { "--log-level", "loud", NULL };
	char		 out[256];

	(void)state;
	assert_int_equal(harness_run(argv, out, sizeof out,
	    HARNESS_TIMEOUT_MS), 2);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_daemon_stats,
		    daemon_setup, daemon_teardown),
		cmocka_unit_test_setup_teardown(test_daemon_environment,
		    daemon_setup, daemon_teardown),
		cmocka_unit_test_setup_teardown(test_daemon_bad_environment,
		    daemon_setup, daemon_teardown),
		cmocka_unit_test_setup_teardown(
		    test_daemon_help_shows_environment, daemon_setup,
		    daemon_teardown),
		cmocka_unit_test_setup_teardown(test_daemon_log_level,
		    daemon_setup, daemon_teardown),
		cmocka_unit_test_setup_teardown(test_daemon_bad_log_level,
		    daemon_setup, daemon_teardown),
		cmocka_unit_test_setup_teardown(test_daemon_log_never_blocks,
		    daemon_setup, daemon_teardown),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
