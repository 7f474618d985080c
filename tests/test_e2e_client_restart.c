/*
 * test_e2e_client_restart.c -- the real ttt-client on a node of a real
 * cluster (a redis-server of the test's own, two tttd nodes) when that
 * node is drained for an upgrade (SIGUSR2: BYE Server restarting, exit 0)
 * and started again on the same port under the same name: in a match the
 * client connects again by itself, RESUMEs, shows the board as it was and
 * plays the game to a result its opponent on the other node sees too;
 * waiting in the queue, it connects again and waits there, under its name.
 * And when the node that runs its match (not its own) is killed, with
 * three nodes: the match taken up, its move sent meanwhile is played, and
 * the line typed after it waits for its real turn.
 *
 * The client is driven by client_drive.c, as in test_e2e_client.c (piped
 * input, output read from a pipe); its opponent is a raw connection on
 * another node.
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

#include "client_drive.h"
#include "cluster_fix.h"
#include "harness.h"

#define SEND(c, ...)	line_send_at(__LINE__, (c), __VA_ARGS__)
#define UNTIL(c, p)	opp_until_at(__LINE__, (c), (p), NULL, 0)
#define EXPECT(t, at)	drive_expect_at(&pl, __LINE__, (t), (at), \
			    HARNESS_TIMEOUT_MS)

#define PROMPT_MOVE	"Enter your move (A1, B2, C3) or 'quit' to exit: "
#define PROMPT_AGAIN	"Play again? (y/n) or 'quit' to exit: "
#define C_RESTART	"Server restarting. Reconnect and RESUME to go on.\n"
#define C_LOST		"The connection to the server was lost; " \
			"reconnecting...\n"
#define C_WAIT		"Waiting for an opponent...\n"

/* The ttt-client under test (client_drive.c). */
static struct player	pl = PLAYER_NONE;

static void	opp_until_at(int, struct conn *, const char *, char *,
		    size_t);
static void	board_art(char *, size_t, const char *);
static struct tttd_proc *node_drain_restart(struct cl_fix *,
		    struct tttd_proc *, const char *);
static int	count_between(size_t, size_t, const char *);
static int	teardown(void **);

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
	/* bob, on b: the match is b's */
	drive_start(&pl, args, INPUT_PIPE, OUTPUT_PIPE, NULL);
	UNTIL(x, "MATCH X bob ");
	at = EXPECT("You are O, playing against alice.\n", 0);
	/* Whoever the coin picks, bob (O) is to move at the drain. */
	opp_until_at(__LINE__, x, "START ", line, sizeof line);
	o_first = (line[6] == 'O');
	if (o_first) {
		at = EXPECT(PROMPT_MOVE, at);
		drive_write(&pl, "C3\n");
	}
	UNTIL(x, "TURN X " T_PROMPT);
	SEND(x, "MOVE A1");
	at = EXPECT(PROMPT_MOVE, at);
	drive_write(&pl, "B2\n");
	UNTIL(x, "TURN X " T_PROMPT);
	SEND(x, "MOVE A2");
	board_art(art, sizeof art, o_first ? "X..XO...O" : "X..XO....");
	at = EXPECT(art, at);
	at = EXPECT(PROMPT_MOVE, at);

	b = node_drain_restart(f, b, "b");
	at = EXPECT(C_RESTART, at);
	at = EXPECT(C_LOST, at);
	UNTIL(x, "INFO bob lost the connection.");
	at = drive_expect_at(&pl, __LINE__, "You have your seat back.\n", at,
	    CLUSTER_WAIT_MS);
	at = EXPECT("You are O, playing against alice.\n", at);
	at = EXPECT(art, at);
	at = EXPECT(PROMPT_MOVE, at);
	UNTIL(x, "INFO bob is back.");

	drive_write(&pl, o_first ? "C1\n" : "C3\n");
	UNTIL(x, "TURN X " T_PROMPT);
	SEND(x, "MOVE A3");
	UNTIL(x, "RESULT WIN X ");
	at = EXPECT("alice wins!", at);
	at = EXPECT(PROMPT_AGAIN, at);
	drive_write(&pl, "n\n");
	assert_int_equal(drive_end_within(&pl, HARNESS_TIMEOUT_MS), 0);
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
	drive_start(&pl, args, INPUT_PIPE, OUTPUT_PIPE, NULL);
	at = EXPECT(C_WAIT, 0);

	b = node_drain_restart(f, b, "b");
	at = EXPECT(C_RESTART, at);
	at = EXPECT(C_LOST, at);
	at = drive_expect_at(&pl, __LINE__, C_WAIT, at, CLUSTER_WAIT_MS);

	x = e2e_connect_at(__LINE__, f->e, a);
	SEND(x, "NAME alice");
	opp_until_at(__LINE__, x, "MATCH ", line, sizeof line);
	if (strncmp(line + 7, " bob ", 5) != 0)
		fail_msg("alice is paired by: \"%s\"", line);
	snprintf(want, sizeof want, "You are %c, playing against alice.\n",
	    line[6] == 'X' ? 'O' : 'X');
	EXPECT(want, at);
	drive_write(&pl, "quit\n");
	assert_int_equal(drive_end_within(&pl, HARNESS_TIMEOUT_MS), 0);
	assert_null(strstr(pl.errbuf, "ttt-client:"));
	e2e_stop(f->e, b);
	e2e_stop(f->e, a);
}

/* How many times the client printed the text between two offsets. */
static int
count_between(size_t from, size_t to, const char *text)
{
	char	*window;
	int	 n;

	assert_true(from <= to && to <= pl.outlen);
	window = strndup(pl.outbuf + from, to - from);
	assert_non_null(window);
	n = harness_count(window, text);
	free(window);
	return (n);
}

/*
 * The client (bob, X) on node a, its match on node b, its opponent (alice)
 * relayed from node c; bob to move.  b is killed; 0.2 s later bob's move
 * and his next one are piped in at once.  The first is sent and waits for
 * the match; the node that takes it up shows bob his match again, TURN X
 * included, then plays the move.  That TURN is not a new turn: bob prompts
 * once, after alice's move, and only then sends the second line.  (Before,
 * the repeated TURN prompted and the second line went at once, out of
 * turn: ERR NOT_YOUR_TURN if it reached the match before alice's move.)
 */
static void
test_client_take_up_holds_own_turn(void **state)
{
	struct cl_fix		*f = *state;
	struct tttd_proc	*a = cl_node(f, "a"), *b = cl_node(f, "b");
	struct tttd_proc	*c = cl_node(f, "c");
	struct conn		*o, *n;
	const char		*args[] = { "--name", "bob", "127.0.0.1", NULL,
				    NULL };
	char			 port[16], line[LINE_SIZE], token[16], art[256];
	size_t			 at, moved, end;
	int			 o_first;

	cl_wait_stat(__LINE__, f, a, "cluster_nodes", 3);
	cl_wait_stat(__LINE__, f, c, "cluster_nodes", 3);
	snprintf(port, sizeof port, "%d", a->port);
	args[3] = port;
	/* bob waits on a (posted after half a second): he is X. */
	drive_start(&pl, args, INPUT_PIPE, OUTPUT_PIPE, NULL);
	at = EXPECT(C_WAIT, 0);
	usleep(700 * 1000);
	/* alice comes to b, which takes bob's place: the match is b's. */
	o = e2e_connect_at(__LINE__, f->e, b);
	SEND(o, "NAME alice");
	UNTIL(o, "MATCH O bob ");
	opp_until_at(__LINE__, o, "TOKEN ", line, sizeof line);
	snprintf(token, sizeof token, "%.9s", line + 6);
	at = EXPECT("You are X, playing against alice.\n", at);
	opp_until_at(__LINE__, o, "START ", line, sizeof line);
	if ((o_first = (line[6] == 'O'))) {
		UNTIL(o, "TURN O " T_PROMPT);
		SEND(o, "MOVE A1");
	}
	UNTIL(o, "TURN X ");
	at = EXPECT(PROMPT_MOVE, at);

	/* alice comes back through c: relayed from there to b. */
	conn_close(o);
	at = drive_expect_at(&pl, __LINE__, "alice lost the connection.", at,
	    CLUSTER_WAIT_MS);
	n = e2e_connect_at(__LINE__, f->e, c);
	SEND(n, "RESUME %s", token);
	UNTIL(n, "OK RESUME");
	UNTIL(n, "TURN X ");
	at = EXPECT("alice is back.\n", at);
	at = EXPECT(PROMPT_MOVE, at);

	kill(b->pid, SIGKILL);
	usleep(200 * 1000);
	drive_write(&pl, "B2\nC1\n");
	opp_until_at(__LINE__, n, o_first ? "BOARD O...X...." :
	    "BOARD ....X....", NULL, 0);
	UNTIL(n, "TURN O " T_PROMPT);
	SEND(n, "MOVE A3");
	board_art(art, sizeof art, o_first ? "O...X.O.." : "....X.O..");
	moved = EXPECT(art, at);
	board_art(art, sizeof art, o_first ? "O.X.X.O.." : "..X.X.O..");
	end = EXPECT(art, moved);
	opp_until_at(__LINE__, n, o_first ? "BOARD O.X.X.O.." :
	    "BOARD ..X.X.O..", NULL, 0);
	/*
	 * No prompt and no C1 sent before alice's move; then one prompt,
	 * which C1 answered; no refusal.
	 */
	if (count_between(at, moved, PROMPT_MOVE) != 0 ||
	    count_between(at, moved, "C1\n") != 0 ||
	    count_between(moved, end, PROMPT_MOVE "C1\n") != 1 ||
	    count_between(moved, end, PROMPT_MOVE) != 1 ||
	    strstr(pl.outbuf, "It is not your turn") != NULL ||
	    strstr(pl.outbuf, "Please wait for your turn") != NULL)
		fail_msg("bob prompted %d times after the kill, %d before "
		    "alice moved, or was refused; he printed:\n%.*s",
		    count_between(at, end, PROMPT_MOVE), count_between(at,
		    moved, PROMPT_MOVE), (int)(end - at), pl.outbuf + at);

	drive_write(&pl, "quit\n");
	assert_int_equal(drive_end_within(&pl, HARNESS_TIMEOUT_MS), 0);
	assert_null(strstr(pl.errbuf, "ttt-client:"));
	waitpid(b->pid, NULL, 0);
	b->pid = 0;
	e2e_stop(f->e, c);
	e2e_stop(f->e, a);
}

/* The cluster fixture's teardown; the client ended whatever happened. */
static int
teardown(void **state)
{
	drive_reap(&pl);
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
		cmocka_unit_test_setup_teardown(
		    test_client_take_up_holds_own_turn, cl_setup, teardown),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
