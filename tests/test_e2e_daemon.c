/*
 * test_e2e_daemon.c -- the real tttd as an operator runs it: STATS,
 * settings from the environment (flags win), --log-level, signals, and
 * listening on every address or on none.
 */
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <netinet/in.h>

#include <errno.h>
#include <poll.h>
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
	/* One game each, whichever seat each has. */
	expect_event(p[1], "INFO Score: p1 1, p2 1, ties 0.");
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

/* Is the server still running (not exited, not killed)? */
static int
daemon_alive(struct daemon *d)
{
	return (waitpid(d->srv.pid, NULL, WNOHANG) == 0);
}

/*
 * Send the server a signal and wait for the log line it should write:
 * fails if the line never comes or the server is gone.  The log read is
 * left in log.
 */
static void
daemon_signal(struct daemon *d, int sig, const char *want, char *log,
    size_t size)
{
	assert_int_equal(kill(d->srv.pid, sig), 0);
	harness_log_wait(&d->srv, log, size, want);
	if (!daemon_alive(d))
		fail_msg("signal %d ended tttd", sig);
	if (strstr(log, want) == NULL)
		fail_msg("no \"%s\" in the log after signal %d:\n%s", want, sig,
		    log);
}

/* One move: the mover sends it; both read up to the next TURN. */
static void
daemon_move(struct conn *mover, struct conn *other, const char *cell)
{
	char	want[32];

	conn_send(mover, cell);
	snprintf(want, sizeof want, "OK MOVE %s", cell);
	expect_skip_to(mover, want, NULL, 0);
	expect_skip_to(mover, "TURN ", NULL, 0);
	expect_skip_to(other, "TURN ", NULL, 0);
}

/*
 * Regression: SIGHUP (the terminal tttd ran in closed), SIGUSR1 and
 * SIGUSR2 killed tttd with no BYE and no log line, ending every game.
 * Now each is logged and a live game goes on: SIGHUP reopens nothing (the
 * log is stderr), SIGUSR1 writes the counters of STATS, a STAT line each,
 * the same names in the same order as the STATS command, and SIGUSR2 is
 * reserved and ignored.
 */
static void
test_daemon_signals_keep_games(void **state)
{
	struct daemon	*d = *state;
	struct conn	*x, *o, *p[2];
	char		 line[512], block[2048], want[64];
	static char	 log[65536];
	const char	*b, *nl;
	int		 lines = 0;

	assert_int_equal(harness_start_v1(&d->srv, NULL), 0);
	x = daemon_join(d, 0);
	o = daemon_join(d, 1);
	expect_skip_to(x, "TURN ", line, sizeof line);
	p[0] = strstr(line, "Enter your move") != NULL ? x : o;
	p[1] = p[0] == x ? o : x;
	daemon_move(p[0], p[1], "B1");

	daemon_signal(d, SIGHUP, " info SIGHUP: ", log, sizeof log);
	daemon_move(p[1], p[0], "A1");

	/* STATS, then SIGUSR1: the same counters, moves 2 in both. */
	stats(p[0], block, sizeof block);
	daemon_signal(d, SIGUSR1, " info STAT chats ", log, sizeof log);
	if (strstr(log, " info SIGUSR1: ") == NULL)
		fail_msg("no SIGUSR1 line before the counters:\n%s", log);
	for (b = block; (b = strchr(b, '\n')) != NULL; b = nl) {
		b++;
		nl = strchr(b, ' ');
		nl = strchr(nl + 1, ' ');	/* "STAT name" */
		snprintf(want, sizeof want, " info %.*s ", (int)(nl - b), b);
		if (strstr(log, want) == NULL)
			fail_msg("no \"%s\" in the log after SIGUSR1:\n%s",
			    want, log);
		lines++;
	}
	assert_int_equal(lines, 22);
	assert_int_equal(harness_count(log, " info STAT "), 22);
	assert_non_null(strstr(log, " info STAT moves 2\n"));
	assert_non_null(strstr(log, " info STAT matches_live 1\n"));

	/* Alone: no cluster to hand the matches to, so nothing is done. */
	daemon_signal(d, SIGUSR2, " warn SIGUSR2: no cluster (--redis) to "
	    "hand the matches to: ignored", log, sizeof log);
	/* The game goes on to its end: B1 B2 B3 wins. */
	daemon_move(p[0], p[1], "B2");
	daemon_move(p[1], p[0], "A2");
	conn_send(p[0], "B3");
	expect_skip_to(p[0], "RESULT WIN ", NULL, 0);
	expect_skip_to(p[1], "RESULT WIN ", NULL, 0);
	/* And once more, with all three at once. */
	assert_int_equal(kill(d->srv.pid, SIGHUP), 0);
	assert_int_equal(kill(d->srv.pid, SIGUSR2), 0);
	assert_int_equal(kill(d->srv.pid, SIGUSR1), 0);
	harness_log_wait(&d->srv, log, sizeof log, " info STAT chats ");
	conn_send(p[1], "PING");
	expect_skip_to(p[1], "OK PONG", NULL, 0);
	assert_true(daemon_alive(d));
	daemon_stop(d);
}

/*
 * Run tttd with exactly these arguments, its stdout and stderr into out
 * (NUL-terminated): the exit status, or -1 if it was killed (or had to
 * be, still running at the timeout).
 */
static int
daemon_run_log(const char *const *args, char *out, size_t size,
    int timeout_ms)
{
	const char	*argv[16];
	int		 fds[2], n = 0, i, status;
	size_t		 len = 0;
	long		 deadline = harness_now_ms() + timeout_ms;
	pid_t		 pid;
	ssize_t		 r;

	argv[n++] = harness_tttd_path();
	for (i = 0; args[i] != NULL && n < 15; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	if (pipe(fds) == -1)
		fail_msg("pipe: %s", strerror(errno));
	if ((pid = fork()) == -1)
		fail_msg("fork: %s", strerror(errno));
	if (pid == 0) {
		dup2(fds[1], STDOUT_FILENO);
		dup2(fds[1], STDERR_FILENO);
		close(fds[0]);
		close(fds[1]);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	close(fds[1]);
	for (;;) {
		struct pollfd	pfd = { fds[0], POLLIN, 0 };
		long		left = deadline - harness_now_ms();

		if (left <= 0 || poll(&pfd, 1, (int)left) <= 0)
			break;
		if ((r = read(fds[0], out + len, size - 1 - len)) <= 0)
			break;
		len += (size_t)r;
		if (len == size - 1)
			break;
	}
	out[len] = '\0';
	close(fds[0]);
	for (;;) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return (WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		if (harness_now_ms() >= deadline)
			break;
		usleep(10000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	return (-1);
}

/* A socket of the test listening on the wildcard of a family: its port. */
static int
daemon_occupy(int family, int *fd)
{
	struct sockaddr_storage	 ss;
	socklen_t		 len;
	int			 one = 1;

	memset(&ss, 0, sizeof ss);
	ss.ss_family = (sa_family_t)family;
	if ((*fd = socket(family, SOCK_STREAM, 0)) == -1)
		return (-1);
	if (family == AF_INET6)
		setsockopt(*fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
	len = family == AF_INET6 ? sizeof(struct sockaddr_in6) :
	    sizeof(struct sockaddr_in);
	if (bind(*fd, (struct sockaddr *)&ss, len) == -1 ||
	    listen(*fd, 1) == -1 ||
	    getsockname(*fd, (struct sockaddr *)&ss, &len) == -1) {
		close(*fd);
		*fd = -1;
		return (-1);
	}
	return (ntohs(family == AF_INET6 ?
	    ((struct sockaddr_in6 *)&ss)->sin6_port :
	    ((struct sockaddr_in *)&ss)->sin_port));
}

/*
 * Regression: when tttd could not listen on one of its addresses (the
 * IPv4 wildcard taken, say) it warned and served the others: IPv6 only,
 * and every IPv4 player was refused.  Listening is all or nothing: with
 * the port taken on the IPv4 wildcard, or on the IPv6 one, tttd exits 1
 * and says where and why.
 */
static void
test_daemon_listen_all_or_nothing(void **state)
{
	static const int	 families[] = { AF_INET, AF_INET6 };
	static const char	*names[] = { "0.0.0.0", "::" };
	const char		*argv[] = { "--port", NULL, NULL };
	char			 port[16], out[4096], want[128];
	int			 fd, p, rc;
	size_t			 i;

	(void)state;
	for (i = 0; i < 2; i++) {
		if ((p = daemon_occupy(families[i], &fd)) == -1) {
			/* A host without IPv6: nothing to take there. */
			if (families[i] == AF_INET6 && (errno ==
			    EAFNOSUPPORT || errno == EADDRNOTAVAIL)) {
				print_message("no IPv6 here: skipped\n");
				continue;
			}
			fail_msg("cannot listen on %s: %s", names[i],
			    strerror(errno));
		}
		snprintf(port, sizeof port, "%d", p);
		argv[1] = port;
		rc = daemon_run_log(argv, out, sizeof out, HARNESS_TIMEOUT_MS);
		close(fd);
		snprintf(want, sizeof want, " error cannot listen on %s port "
		    "%d: Address already in use", names[i], p);
		if (rc != 1 || strstr(out, want) == NULL)
			fail_msg("port %d taken on %s: status %d (wanted 1), "
			    "output:\n%s", p, names[i], rc, out);
		if (strstr(out, " listening on ") != NULL)
			fail_msg("tttd listened on the rest:\n%s", out);
	}
}

/*
 * Regression: with --http-port taken, tttd printed "tttd ... listening
 * on" to stdout (a script would take it for started) and then exited 1.
 * A start that fails says only why: no "listening", no "http on".
 */
static void
test_daemon_http_port_taken_says_only_why(void **state)
{
	const char	*argv[] = { "--port", "0", "--http-port", NULL, NULL };
	char		 port[16], out[4096], want[128];
	int		 fd, p, rc;

	(void)state;
	if ((p = daemon_occupy(AF_INET, &fd)) == -1)
		fail_msg("cannot listen on 0.0.0.0: %s", strerror(errno));
	snprintf(port, sizeof port, "%d", p);
	argv[3] = port;
	rc = daemon_run_log(argv, out, sizeof out, HARNESS_TIMEOUT_MS);
	close(fd);
	snprintf(want, sizeof want, " error cannot listen on 0.0.0.0 port "
	    "%d: Address already in use", p);
	if (rc != 1 || strstr(out, want) == NULL)
		fail_msg("--http-port %d taken: status %d (wanted 1), "
		    "output:\n%s", p, rc, out);
	if (strstr(out, "listening") != NULL || strstr(out, "http on") != NULL)
		fail_msg("a failed start said it listened:\n%s", out);
}

/* With every address free, the default binds them all: "*:PORT". */
static void
test_daemon_listen_everywhere(void **state)
{
	static const char *const	 extra[] = { "--bind", "", NULL };
	struct daemon			*d = *state;

	assert_int_equal(harness_start_v1(&d->srv, extra), 0);
	daemon_join(d, 0);
	daemon_stop(d);
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
		cmocka_unit_test_setup_teardown(test_daemon_signals_keep_games,
		    daemon_setup, daemon_teardown),
		cmocka_unit_test_setup_teardown(
		    test_daemon_listen_all_or_nothing, daemon_setup,
		    daemon_teardown),
		cmocka_unit_test_setup_teardown(
		    test_daemon_http_port_taken_says_only_why, daemon_setup,
		    daemon_teardown),
		cmocka_unit_test_setup_teardown(test_daemon_listen_everywhere,
		    daemon_setup, daemon_teardown),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
