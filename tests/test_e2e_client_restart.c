/*
 * test_e2e_client_restart.c -- the real ttt-client on a node of a real
 * cluster (a redis-server of the test's own, two tttd nodes) when that
 * node is drained for an upgrade (SIGUSR2: BYE Server restarting, exit 0)
 * and started again on the same port under the same name: in a match the
 * client connects again by itself, RESUMEs, shows the board as it was and
 * plays the game to a result its opponent on the other node sees too;
 * waiting in the queue, it connects again and waits there, under its name.
 *
 * The client is driven as in test_e2e_client.c (piped input, output read
 * from a pipe); its opponent is a raw connection on the other node.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
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

#include "cluster_fix.h"
#include "harness.h"

#define SEND(c, ...)	line_send_at(__LINE__, (c), __VA_ARGS__)
#define UNTIL(c, p)	opp_until_at(__LINE__, (c), (p), NULL, 0)
#define EXPECT(t, at)	player_expect_at(__LINE__, (t), (at), \
			    HARNESS_TIMEOUT_MS)

#define PROMPT_MOVE	"Enter your move (A1, B2, C3) or 'quit' to exit: "
#define PROMPT_AGAIN	"Play again? (y/n) or 'quit' to exit: "
#define C_RESTART	"Server restarting. Reconnect and RESUME to go on.\n"
#define C_LOST		"The connection to the server was lost; " \
			"reconnecting...\n"
#define C_WAIT		"Waiting for an opponent...\n"


/* The ttt-client under test: its input pipe and its output so far. */
struct player {
	pid_t	pid;		/* -1: none */
	int	in;
	int	out;		/* -1 at EOF */
	int	err;		/* -1 at EOF */
	size_t	outlen;
	size_t	errlen;
	char	outbuf[65536];
	char	errbuf[4096];
};

static struct player	pl = { -1, -1, -1, -1, 0, 0, "", "" };

static void	player_start(const char *const *);
static void	player_write(const char *);
static void	player_read(int);
static size_t	player_expect_at(int, const char *, size_t, int);
static int	player_end(void);
static void	player_reap(void);
static void	opp_until_at(int, struct conn *, const char *, char *,
		    size_t);
static void	board_art(char *, size_t, const char *);
static struct tttd_proc *node_drain_restart(struct cl_fix *,
		    struct tttd_proc *, const char *);
static int	teardown(void **);

/* Run ttt-client with the arguments, input and output through pipes. */
static void
player_start(const char *const *args)
{
	const char	*argv[16];
	int		 in[2], out[2], err[2], n = 0, fd;

	pl.outlen = pl.errlen = 0;
	pl.outbuf[0] = pl.errbuf[0] = '\0';
	assert_int_equal(pipe(in), 0);
	assert_int_equal(pipe(out), 0);
	assert_int_equal(pipe(err), 0);
	argv[n++] = harness_client_path();
	while (*args != NULL && n < 15)
		argv[n++] = *args++;
	argv[n] = NULL;
	pl.pid = fork();
	assert_true(pl.pid != -1);
	if (pl.pid == 0) {
		unsetenv("NO_COLOR");
		dup2(in[0], STDIN_FILENO);
		dup2(out[1], STDOUT_FILENO);
		dup2(err[1], STDERR_FILENO);
		for (fd = 3; fd < 1024; fd++)
			close(fd);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	close(err[1]);
	pl.in = in[1];
	pl.out = out[0];
	pl.err = err[0];
	fcntl(pl.out, F_SETFL, O_NONBLOCK);
	fcntl(pl.err, F_SETFL, O_NONBLOCK);
}

/* Pipe text into the client. */
static void
player_write(const char *s)
{
	size_t	len = strlen(s);
	ssize_t	w;

	while (len > 0) {
		w = write(pl.in, s, len);
		if (w == -1 && errno == EINTR)
			continue;
		assert_true(w > 0);
		s += w;
		len -= (size_t)w;
	}
}

/* Read what the client printed, waiting up to ms for something. */
static void
player_read(int ms)
{
	struct pollfd	 pfd[2];
	ssize_t		 r;
	int		 i, *fd;
	char		*buf;
	size_t		*len, size;

	if (pl.out == -1 && pl.err == -1)
		return;
	pfd[0].fd = pl.out;
	pfd[1].fd = pl.err;
	pfd[0].events = pfd[1].events = POLLIN;
	if (poll(pfd, 2, ms) <= 0)
		return;
	for (i = 0; i < 2; i++) {
		fd = i == 0 ? &pl.out : &pl.err;
		buf = i == 0 ? pl.outbuf : pl.errbuf;
		len = i == 0 ? &pl.outlen : &pl.errlen;
		size = i == 0 ? sizeof pl.outbuf : sizeof pl.errbuf;
		if (*fd == -1 || pfd[i].revents == 0)
			continue;
		r = read(*fd, buf + *len, size - 1 - *len);
		if (r > 0)
			*len += (size_t)r;
		else if (r == 0 || errno != EAGAIN) {
			close(*fd);
			*fd = -1;
		}
		buf[*len] = '\0';
	}
}

/*
 * Wait up to ms for the client's output to hold the text at or after
 * offset from: the offset just past it.
 */
static size_t
player_expect_at(int ln, const char *text, size_t from, int ms)
{
	long	 deadline = harness_now_ms() + ms;
	char	*at;

	for (;;) {
		at = strstr(pl.outbuf + from, text);
		if (at != NULL)
			return ((size_t)(at - pl.outbuf) + strlen(text));
		if (harness_now_ms() >= deadline ||
		    (pl.out == -1 && pl.err == -1))
			fail_msg("line %d: client output lacks \"%s\"; it "
			    "printed:\n%s\nstderr:\n%s", ln, text,
			    pl.outbuf + from, pl.errbuf);
		player_read(50);
	}
}

/* Read the client's output to its end and reap it: its exit status. */
static int
player_end(void)
{
	long	deadline = harness_now_ms() + HARNESS_TIMEOUT_MS;
	int	status;

	while ((pl.out != -1 || pl.err != -1) && harness_now_ms() < deadline)
		player_read(50);
	while (waitpid(pl.pid, &status, WNOHANG) == 0) {
		if (harness_now_ms() >= deadline)
			fail_msg("ttt-client did not end; it printed:\n%s",
			    pl.outbuf);
		usleep(10000);
	}
	pl.pid = -1;
	if (!WIFEXITED(status))
		fail_msg("ttt-client died of signal %d", WTERMSIG(status));
	return (WEXITSTATUS(status));
}

/* End the client if it is left running, and close its pipes. */
static void
player_reap(void)
{
	if (pl.pid > 0) {
		kill(pl.pid, SIGKILL);
		waitpid(pl.pid, NULL, 0);
	}
	pl.pid = -1;
	if (pl.in != -1)
		close(pl.in);
	if (pl.out != -1)
		close(pl.out);
	if (pl.err != -1)
		close(pl.err);
	pl.in = pl.out = pl.err = -1;
}

/*
 * Read the raw opponent's events until one starts with the prefix, within
 * CLUSTER_WAIT_MS; copy it out if out is not NULL.
 */
static void
opp_until_at(int ln, struct conn *c, const char *prefix, char *out,
    size_t size)
{
	char	line[LINE_SIZE], last[LINE_SIZE] = "(none)";
	long	deadline = harness_now_ms() + CLUSTER_WAIT_MS;

	for (;;) {
		if (harness_now_ms() >= deadline || line_read_event(c, line,
		    sizeof line, (int)(deadline - harness_now_ms())) < 0)
			fail_msg("line %d: %s: no \"%s\" within %d ms; the "
			    "last line: \"%s\"", ln, line_label(c), prefix,
			    CLUSTER_WAIT_MS, last);
		if (strncmp(line, prefix, strlen(prefix)) == 0)
			break;
		snprintf(last, sizeof last, "%s", line);
	}
	if (out != NULL)
		snprintf(out, size, "%s", line);
}

/* A board's cells ("X.O......") as the client draws them without colour. */
static void
board_art(char *buf, size_t size, const char *c)
{
	snprintf(buf, size, "      A   B   C\n"
	    "  1   %c | %c | %c\n     ---+---+---\n"
	    "  2   %c | %c | %c\n     ---+---+---\n"
	    "  3   %c | %c | %c\n",
	    c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8]);
	for (; *buf != '\0'; buf++)
		if (*buf == '.')
			*buf = ' ';
}

/*
 * Drain the node (SIGUSR2), see it exit 0, and start the upgrade: the same
 * name on the same port (a later --port wins over the harness's --port 0).
 */
static struct tttd_proc *
node_drain_restart(struct cl_fix *f, struct tttd_proc *tp, const char *name)
{
	struct tttd_proc	*up;
	const char		*more[3] = { "--port", NULL, NULL };
	char			 port[16];
	int			 p = tp->port, rc;

	snprintf(port, sizeof port, "%d", p);
	more[1] = port;
	kill(tp->pid, SIGUSR2);
	rc = harness_wait(tp, CLUSTER_WAIT_MS);
	tp->pid = 0;
	assert_int_equal(rc, 0);
	up = cl_node_with(f, name, more);
	assert_int_equal(up->port, p);
	return (up);
}

/*
 * In a match, the client's node is drained and started again: the client
 * says so, connects again to the same port by itself, takes its seat back
 * with RESUME, shows the board as it was, and the game ends with one
 * result that both players see.  (Before ttt-client knew the restart BYE,
 * it ended there with status 0.)
 */
static void
test_client_restart_bye_resumes(void **state)
{
	struct cl_fix		*f = *state;
	struct tttd_proc	*a = cl_node(f, "a"), *b = cl_node(f, "b");
	struct conn		*x;
	const char		*args[] = { "--name", "bob", "127.0.0.1", NULL,
				    NULL };
	char			 port[16], line[LINE_SIZE], art[256];
	size_t			 at;
	int			 o_first;

	cl_wait_stat(__LINE__, f, a, "cluster_nodes", 2);
	x = e2e_connect_at(__LINE__, f->e, a);
	SEND(x, "NAME alice");
	WANT(x, "OK NAME alice");
	line_want_quiet_at(__LINE__, x, 700);	/* alice waits: she is X */
	snprintf(port, sizeof port, "%d", b->port);
	args[3] = port;
	player_start(args);			/* bob, on b: the match is b's */
	UNTIL(x, "MATCH X bob ");
	at = EXPECT("You are O, playing against alice.\n", 0);
	/* Whoever the coin picks, bob (O) is to move at the drain. */
	opp_until_at(__LINE__, x, "START ", line, sizeof line);
	o_first = (line[6] == 'O');
	if (o_first) {
		at = EXPECT(PROMPT_MOVE, at);
		player_write("C3\n");
	}
	UNTIL(x, "TURN X " T_PROMPT);
	SEND(x, "MOVE A1");
	at = EXPECT(PROMPT_MOVE, at);
	player_write("B2\n");
	UNTIL(x, "TURN X " T_PROMPT);
	SEND(x, "MOVE A2");
	board_art(art, sizeof art, o_first ? "X..XO...O" : "X..XO....");
	at = EXPECT(art, at);
	at = EXPECT(PROMPT_MOVE, at);

	b = node_drain_restart(f, b, "b");
	at = EXPECT(C_RESTART, at);
	at = EXPECT(C_LOST, at);
	UNTIL(x, "INFO bob lost the connection.");
	at = player_expect_at(__LINE__, "You have your seat back.\n", at,
	    CLUSTER_WAIT_MS);
	at = EXPECT("You are O, playing against alice.\n", at);
	at = EXPECT(art, at);
	at = EXPECT(PROMPT_MOVE, at);
	UNTIL(x, "INFO bob is back.");

	player_write(o_first ? "C1\n" : "C3\n");
	UNTIL(x, "TURN X " T_PROMPT);
	SEND(x, "MOVE A3");
	UNTIL(x, "RESULT WIN X ");
	at = EXPECT("alice wins!", at);
	at = EXPECT(PROMPT_AGAIN, at);
	player_write("n\n");
	assert_int_equal(player_end(), 0);
	UNTIL(x, "AGAIN? ");
	SEND(x, "QUIT");
	UNTIL(x, "BYE ");
	assert_int_equal(harness_count(pl.outbuf, C_LOST), 1);
	e2e_stop(f->e, b);
	e2e_stop(f->e, a);
}

/*
 * Waiting in the queue, the client's node is drained and started again:
 * the client connects again by itself and waits in the queue (no RESUME:
 * it has no seat), under its name; a player on the other node is then
 * paired with it.
 */
static void
test_client_restart_bye_requeues(void **state)
{
	struct cl_fix		*f = *state;
	struct tttd_proc	*a = cl_node(f, "a"), *b = cl_node(f, "b");
	struct conn		*x;
	const char		*args[] = { "--name", "bob", "127.0.0.1", NULL,
				    NULL };
	char			 port[16], line[LINE_SIZE], want[128];
	size_t			 at;

	cl_wait_stat(__LINE__, f, a, "cluster_nodes", 2);
	snprintf(port, sizeof port, "%d", b->port);
	args[3] = port;
	player_start(args);
	at = EXPECT(C_WAIT, 0);

	b = node_drain_restart(f, b, "b");
	at = EXPECT(C_RESTART, at);
	at = EXPECT(C_LOST, at);
	at = player_expect_at(__LINE__, C_WAIT, at, CLUSTER_WAIT_MS);

	x = e2e_connect_at(__LINE__, f->e, a);
	SEND(x, "NAME alice");
	opp_until_at(__LINE__, x, "MATCH ", line, sizeof line);
	if (strncmp(line + 7, " bob ", 5) != 0)
		fail_msg("alice is paired by: \"%s\"", line);
	snprintf(want, sizeof want, "You are %c, playing against alice.\n",
	    line[6] == 'X' ? 'O' : 'X');
	EXPECT(want, at);
	player_write("quit\n");
	assert_int_equal(player_end(), 0);
	assert_null(strstr(pl.errbuf, "ttt-client:"));
	e2e_stop(f->e, b);
	e2e_stop(f->e, a);
}

/* The cluster fixture's teardown; the client ended whatever happened. */
static int
teardown(void **state)
{
	player_reap();
	return (cl_teardown(state));
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test_setup_teardown(
		    test_client_restart_bye_resumes, cl_setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_client_restart_bye_requeues, cl_setup, teardown),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
