/*
 * test_e2e_client.c -- the real ttt-client against the real tttd: whole
 * matches played from piped input against a scripted socket opponent, bad
 * input, quitting (in the queue too), a lost server, a server of another
 * protocol version, and the terminal mode through a pty; the input styles,
 * colour on a terminal and none otherwise or with NO_COLOR, and --ping.
 */
#define _XOPEN_SOURCE 700	/* posix_openpt */

#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <netinet/in.h>
#include <arpa/inet.h>

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
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness.h"

#define PROMPT_MOVE	"Enter your move (A1, B2, C3) or 'quit' to exit: "
#define PROMPT_AGAIN	"Play again? (y/n) or 'quit' to exit: "
#define BAD_MOVE	"Invalid input. Accepted examples: A1, b2, C3.\n"
#define THANKS		"Thank you for playing!\n"

/* Where the client's standard input comes from. */
enum player_input {
	INPUT_PIPE,		/* a pipe the test writes to */
	INPUT_PTY,		/* a pseudo-terminal */
	INPUT_NULL		/* /dev/null */
};

/* Where its standard output goes. */
enum player_output {
	OUTPUT_PIPE,		/* a pipe: no colour */
	OUTPUT_TTY		/* a pty: colour, unless NO_COLOR */
};

/* The ttt-client under test, its output as read so far. */
struct player {
	pid_t	pid;
	int	in;		/* its standard input: a pipe or a pty master */
	int	out;		/* its standard output, -1 at EOF */
	int	err;		/* its standard error, -1 at EOF */
	size_t	outlen;
	size_t	errlen;
	char	outbuf[65536];
	char	errbuf[4096];
};

/*
 * The opponent's cells, in order of preference.  Against a client that
 * plays A1, A2, A3 they never block column A and never win first, whoever
 * starts, so the client wins every game.
 */
static const char *const opponent_order[] = {
	"C1", "B2", "C3", "B1", "B3", "C2", "A1", "A2", "A3", NULL
};

static struct tttd_proc	srv;
static int		srv_up;
static struct player	pl;
static struct conn	opp;
static int		fake_lfd = -1, fake_fd = -1;	/* a fake server */

static void	server_start(const char *);
static int	server_exit(void);
static void	player_start(const char *const *, enum player_input);
static void	player_start_env(const char *const *, enum player_input,
		    enum player_output, const char *);
static void	pty_open(int *, int *);
static void	player_write(const char *);
static void	player_close_input(void);
static void	player_read(int);
static size_t	player_expect(const char *, size_t);
static int	player_end(void);
static int	player_end_within(int);
static void	strip_terminal(char *);
static void	play_to_the_end(const char *const *, enum player_output,
		    const char *);
static void	output_has(const char *);
static void	port_string(char *, size_t, int);
static void	opponent_join(const char *);
static char	opponent_mark(void);
static void	opponent_play(char, char *, size_t);
static int	fake_listen(int *);
static int	fake_accept(int);
static int	teardown(void **);

/* Start tttd with a seed for the random first mover. */
static void
server_start(const char *seed)
{
	const char *const	extra[] = { "--seed", seed, NULL };

	assert_int_equal(harness_start(&srv, extra), 0);
	srv_up = 1;
}

/* Wait for tttd to end by itself (no second signal): its exit status. */
static int
server_exit(void)
{
	long	deadline = harness_now_ms() + HARNESS_TIMEOUT_MS;
	int	status;

	while (waitpid(srv.pid, &status, WNOHANG) == 0) {
		if (harness_now_ms() >= deadline)
			fail_msg("tttd did not exit");
		usleep(10000);
	}
	close(srv.err_fd);
	srv_up = 0;
	return (WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

/* A pseudo-terminal: its master and slave; the test is skipped without. */
static void
pty_open(int *master, int *slave)
{
	*master = posix_openpt(O_RDWR | O_NOCTTY);
	if (*master == -1)
		skip();		/* no pseudo-terminals here */
	assert_int_equal(grantpt(*master), 0);
	assert_int_equal(unlockpt(*master), 0);
	*slave = open(ptsname(*master), O_RDWR | O_NOCTTY);
	assert_true(*slave != -1);
}

/* Run ttt-client with the arguments, output to a pipe, NO_COLOR unset. */
static void
player_start(const char *const *args, enum player_input input)
{
	player_start_env(args, input, OUTPUT_PIPE, NULL);
}

/*
 * Run ttt-client with the arguments; its input from a pipe, pty or null,
 * its output to a pipe or a pty, and NO_COLOR set to no_color (NULL: unset,
 * whatever the test's own environment says).
 */
static void
player_start_env(const char *const *args, enum player_input input,
    enum player_output output, const char *no_color)
{
	const char	*argv[16];
	int		 in[2], out[2], err[2], n = 0, fd;

	memset(&pl, 0, sizeof pl);
	pl.pid = -1;
	if (input == INPUT_NULL) {
		in[0] = open("/dev/null", O_RDONLY);
		assert_true(in[0] != -1);
		in[1] = -1;
	} else if (input == INPUT_PTY)
		pty_open(&in[1], &in[0]);
	else
		assert_int_equal(pipe(in), 0);
	if (output == OUTPUT_TTY)
		pty_open(&out[0], &out[1]);
	else
		assert_int_equal(pipe(out), 0);
	assert_int_equal(pipe(err), 0);
	argv[n++] = harness_client_path();
	while (*args != NULL && n < 15)
		argv[n++] = *args++;
	argv[n] = NULL;

	pl.pid = fork();
	assert_true(pl.pid != -1);
	if (pl.pid == 0) {
		if (no_color == NULL)
			unsetenv("NO_COLOR");
		else
			setenv("NO_COLOR", no_color, 1);
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

/* Type or pipe text into the client. */
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

/* End the client's input. */
static void
player_close_input(void)
{
	if (pl.in != -1)
		close(pl.in);
	pl.in = -1;
}

/* Read what the client printed, waiting up to ms for something. */
static void
player_read(int ms)
{
	struct pollfd	pfd[2];
	ssize_t		r;
	int		i;

	pfd[0].fd = pl.out;
	pfd[1].fd = pl.err;
	pfd[0].events = pfd[1].events = POLLIN;
	if (pl.out == -1 && pl.err == -1)
		return;
	if (poll(pfd, 2, ms) <= 0)
		return;
	for (i = 0; i < 2; i++) {
		int	*fd = i == 0 ? &pl.out : &pl.err;
		char	*buf = i == 0 ? pl.outbuf : pl.errbuf;
		size_t	*len = i == 0 ? &pl.outlen : &pl.errlen;
		size_t	 size = i == 0 ? sizeof pl.outbuf : sizeof pl.errbuf;

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
 * Wait until the client's output holds the text at or after offset from;
 * returns the offset just past it.
 */
static size_t
player_expect(const char *text, size_t from)
{
	long	 deadline = harness_now_ms() + HARNESS_TIMEOUT_MS;
	char	*at;

	for (;;) {
		at = strstr(pl.outbuf + from, text);
		if (at != NULL)
			return ((size_t)(at - pl.outbuf) + strlen(text));
		if (harness_now_ms() >= deadline || (pl.out == -1 && pl.err == -1))
			fail_msg("client output lacks \"%s\"; it printed:\n%s\n"
			    "stderr:\n%s", text, pl.outbuf + from, pl.errbuf);
		player_read(50);
	}
}

/* Read the client's output to its end and reap it: its exit status. */
static int
player_end(void)
{
	return (player_end_within(HARNESS_TIMEOUT_MS));
}

/* The same, waiting up to ms for the end. */
static int
player_end_within(int ms)
{
	long	deadline = harness_now_ms() + ms;
	int	status;

	while ((pl.out != -1 || pl.err != -1) && harness_now_ms() < deadline)
		player_read(50);
	while (waitpid(pl.pid, &status, WNOHANG) == 0) {
		if (harness_now_ms() >= deadline) {
			kill(pl.pid, SIGKILL);
			waitpid(pl.pid, &status, 0);
			pl.pid = -1;
			fail_msg("ttt-client did not end; it printed:\n%s",
			    pl.outbuf);
		}
		usleep(10000);
	}
	pl.pid = -1;
	player_close_input();
	if (pl.out != -1)
		close(pl.out);
	if (pl.err != -1)
		close(pl.err);
	pl.out = pl.err = -1;
	if (!WIFEXITED(status))
		fail_msg("ttt-client died of signal %d", WTERMSIG(status));
	return (WEXITSTATUS(status));
}

/* The client's whole output holds the text. */
static void
output_has(const char *text)
{
	if (strstr(pl.outbuf, text) == NULL)
		fail_msg("client output lacks \"%s\"; it printed:\n%s", text,
		    pl.outbuf);
}

/* A port number as an argument. */
static void
port_string(char *buf, size_t size, int port)
{
	snprintf(buf, size, "%d", port);
}

/*
 * The socket opponent connects and waits in the queue.  A name is sent at
 * once: its OK may come before or after a MATCH.
 */
static void
opponent_join(const char *name)
{
	char	line[64];

	assert_int_equal(conn_open(&opp, srv.port), 0);
	if (name != NULL) {
		snprintf(line, sizeof line, "NAME %s", name);
		assert_int_equal(conn_send(&opp, line), 0);
	}
	expect_prefix(&opp, "HELLO tttd/1 ");
	expect_prefix(&opp, "WAIT ");
}

/* Wait for the opponent's MATCH: its mark. */
static char
opponent_mark(void)
{
	char	line[1024];

	expect_skip_to(&opp, "MATCH ", line, sizeof line);
	return (line[6]);
}

/*
 * The opponent plays one game: on each TURN of its mark it takes the first
 * free cell of opponent_order.  Returns at AGAIN?, with the RESULT line.
 */
static void
opponent_play(char mark, char *result, size_t size)
{
	char	line[1024], cells[10] = ".........", move[16];
	int	i, k, cell;

	*result = '\0';
	for (i = 0; i < 64; i++) {
		if (conn_event(&opp, line, sizeof line, HARNESS_TIMEOUT_MS) < 0)
			fail_msg("opponent: EOF or timeout; client printed:\n%s",
			    pl.outbuf);
		if (strncmp(line, "ERR ", 4) == 0)
			fail_msg("opponent got \"%s\"", line);
		if (strncmp(line, "BOARD ", 6) == 0)
			memcpy(cells, line + 6, 9);
		else if (strncmp(line, "RESULT ", 7) == 0)
			snprintf(result, size, "%s", line);
		else if (strncmp(line, "AGAIN?", 6) == 0)
			return;
		else if (strncmp(line, "TURN ", 5) == 0 && line[5] == mark) {
			for (k = 0; opponent_order[k] != NULL; k++) {
				cell = (opponent_order[k][1] - '1') * 3 +
				    (opponent_order[k][0] - 'A');
				if (cells[cell] == '.')
					break;
			}
			assert_non_null(opponent_order[k]);
			snprintf(move, sizeof move, "MOVE %s",
			    opponent_order[k]);
			assert_int_equal(conn_send(&opp, move), 0);
		}
	}
	fail_msg("opponent: no AGAIN? within 64 lines");
}

/* A one-shot fake server on 127.0.0.1: the listening socket and its port. */
static int
fake_listen(int *port)
{
	struct sockaddr_in	sin;
	socklen_t		len = sizeof sin;
	int			fd;

	fd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(fd != -1);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(fd, (struct sockaddr *)&sin, sizeof sin), 0);
	assert_int_equal(listen(fd, 1), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&sin, &len), 0);
	*port = ntohs(sin.sin_port);
	return (fd);
}

/* Take the client's connection to the fake server, within the timeout. */
static int
fake_accept(int lfd)
{
	struct pollfd	pfd;
	int		fd;

	pfd.fd = lfd;
	pfd.events = POLLIN;
	if (poll(&pfd, 1, HARNESS_TIMEOUT_MS) != 1)
		fail_msg("ttt-client did not connect");
	fd = accept(lfd, NULL, NULL);
	assert_true(fd != -1);
	return (fd);
}

/* Whatever a failed test left running is ended. */
static int
teardown(void **state)
{
	(void)state;
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
	conn_close(&opp);
	if (fake_fd != -1)
		close(fake_fd);
	if (fake_lfd != -1)
		close(fake_lfd);
	fake_fd = fake_lfd = -1;
	if (srv_up)
		harness_stop(&srv);
	srv_up = 0;
	return (0);
}

/*
 * A whole match from piped input: the opponent joins first (X, p1), the
 * client (O, p2) wins down column A whoever starts, and says no to a
 * rematch.  All input is piped and closed up front: the client must use one
 * line per prompt and keep the rest.
 */
static void
test_client_plays_match(void **state)
{
	char		 port[16], result[1024];
	const char	*args[] = { "127.0.0.1", port, NULL };

	(void)state;
	server_start("1");
	port_string(port, sizeof port, srv.port);
	opponent_join(NULL);
	player_start(args, INPUT_PIPE);
	player_write("A1\nA2\nA3\nn\n");
	player_close_input();
	assert_int_equal(opponent_mark(), 'X');
	opponent_play('X', result, sizeof result);
	assert_string_equal(result,
	    "RESULT WIN O p2 p2 wins! better luck next time p1!");
	assert_int_equal(conn_send(&opp, "n"), 0);
	/* The client's own "n" may come first: then INFO p2 left... */
	expect_skip_to(&opp, "OK AGAIN n", NULL, 0);
	expect_event(&opp, "BYE Thank you for playing!");
	assert_int_equal(player_end(), 0);

	output_has("Welcome to Tic Tac Toe, Ready for a game?\n"
	    "Type 'quit' at any time to exit.\n");
	output_has("You are O, playing against p1.\n");
	output_has("      A   B   C\n"
	    "  1     |   |  \n"
	    "     ---+---+---\n"
	    "  2     |   |  \n"
	    "     ---+---+---\n"
	    "  3     |   |  \n");
	output_has("  1   O |   | X\n");
	output_has("p2 wins! better luck next time p1!\n" PROMPT_AGAIN "n\n"
	    "Thank you for playing!\n");
	/* Prompted on its own turns only: once per move it made. */
	assert_int_equal(harness_count(pl.outbuf, PROMPT_MOVE), 3);
	assert_int_equal(harness_count(pl.outbuf, "Waiting for p1 to move...\n"),
	    harness_count(pl.outbuf, "p1 (X) moves first.") ? 3 : 2);
	/* Output to a pipe is plain, NO_COLOR or not. */
	assert_null(strchr(pl.outbuf, '\033'));
	assert_string_equal(pl.errbuf, "");
}

/* Bad moves and answers are caught locally; a taken square by the server. */
static void
test_client_bad_input_reprompts(void **state)
{
	char		 port[16], result[1024];
	const char	*args[] = { "127.0.0.1", port, NULL };

	(void)state;
	server_start("2");
	port_string(port, sizeof port, srv.port);
	opponent_join(NULL);
	player_start(args, INPUT_PIPE);
	player_write("D1\nhello world\nA1\nA1\nA2\nA3\nmaybe\nyes please\n"
	    "N\n");
	player_close_input();
	opponent_play(opponent_mark(), result, sizeof result);
	assert_string_equal(result,
	    "RESULT WIN O p2 p2 wins! better luck next time p1!");
	assert_int_equal(conn_send(&opp, "n"), 0);
	expect_skip_to(&opp, "BYE ", NULL, 0);
	assert_int_equal(player_end(), 0);

	output_has(PROMPT_MOVE "D1\n" BAD_MOVE
	    PROMPT_MOVE "hello world\n" BAD_MOVE PROMPT_MOVE "A1\n");
	/* A1 again: the server says TAKEN and the client asks again. */
	output_has(PROMPT_MOVE "A1\n"
	    "That square is already taken. Try again.\n" PROMPT_MOVE "A2\n");
	output_has(PROMPT_AGAIN "maybe\n"
	    "Please enter y or n.\n" PROMPT_AGAIN "yes please\n"
	    "Please enter y or n.\n" PROMPT_AGAIN "N\n"
	    "Thank you for playing!\n");
	assert_int_equal(harness_count(pl.outbuf, PROMPT_MOVE), 6);
	assert_string_equal(pl.errbuf, "");
}

/* Both say yes: a second game, which the winner starts; then no. */
static void
test_client_rematch(void **state)
{
	char		 port[16], result[1024];
	const char	*args[] = { "127.0.0.1", port, NULL };
	size_t		 at;

	(void)state;
	server_start("3");
	port_string(port, sizeof port, srv.port);
	opponent_join(NULL);
	player_start(args, INPUT_PIPE);
	player_write("A1\nA2\nA3\ny\nb1\nmove b2\nB3\nno\n");
	player_close_input();
	assert_int_equal(opponent_mark(), 'X');
	opponent_play('X', result, sizeof result);
	assert_string_equal(result,
	    "RESULT WIN O p2 p2 wins! better luck next time p1!");
	assert_int_equal(conn_send(&opp, "y"), 0);
	expect_event(&opp, "OK AGAIN y");
	expect_skip_to(&opp, "START ", result, sizeof result);
	assert_string_equal(result, "START O p2 (O) moves first.");
	opponent_play('X', result, sizeof result);
	assert_string_equal(result,
	    "RESULT WIN O p2 p2 wins! better luck next time p1!");
	assert_int_equal(conn_send(&opp, "n"), 0);
	expect_skip_to(&opp, "BYE ", NULL, 0);
	assert_int_equal(player_end(), 0);

	at = player_expect(PROMPT_AGAIN "y\n", 0);
	at = player_expect("p2 (O) moves first.\n", at);
	at = player_expect("  1     | O | X\n     ---+---+---\n"
	    "  2     | O |  \n     ---+---+---\n  3     | O | X\n", at);
	player_expect("p2 wins! better luck next time p1!\n" PROMPT_AGAIN
	    "no\nThank you for playing!\n", at);
	assert_int_equal(harness_count(pl.outbuf, "p2 wins!"), 2);
	assert_int_equal(harness_count(pl.outbuf, PROMPT_MOVE), 6);
}

/*
 * The client joins first (X, p1) by name through "localhost", which may
 * resolve to ::1 before 127.0.0.1; the opponent is named too.
 */
static void
test_client_named_first(void **state)
{
	char		 port[16], result[1024];
	const char	*args[] = { "localhost", port, "--name", "alice",
			    NULL };

	(void)state;
	server_start("4");
	port_string(port, sizeof port, srv.port);
	player_start(args, INPUT_PIPE);
	player_write("A1\nA2\nA3\nn\n");
	player_close_input();
	player_expect("Waiting for an opponent...\n", 0);
	opponent_join("bob");
	assert_int_equal(opponent_mark(), 'O');
	opponent_play('O', result, sizeof result);
	assert_string_equal(result,
	    "RESULT WIN X alice alice wins! better luck next time bob!");
	assert_int_equal(conn_send(&opp, "n"), 0);
	expect_skip_to(&opp, "BYE ", NULL, 0);
	assert_int_equal(player_end(), 0);
	/* Paired before its NAME arrived, bob is p2 at first. */
	if (strstr(pl.outbuf, "You are X, playing against bob.\n") == NULL) {
		output_has("You are X, playing against p2.\n");
		output_has("p2 is now known as bob.\n");
	}
	output_has("alice wins! better luck next time bob!\n");
	assert_string_equal(pl.errbuf, "");
}

/*
 * "quit" in any case at a move prompt forfeits and ends with status 0.  It
 * is piped in once the prompt is shown: piped earlier, it would quit at once.
 */
static void
test_client_quit_mid_game(void **state)
{
	char		 port[16], line[1024];
	size_t		 at;
	const char	*args[] = { "127.0.0.1", port, NULL };

	(void)state;
	server_start("5");
	port_string(port, sizeof port, srv.port);
	opponent_join(NULL);
	player_start(args, INPUT_PIPE);
	assert_int_equal(opponent_mark(), 'X');
	expect_skip_to(&opp, "START ", line, sizeof line);
	if (line[6] == 'X')
		assert_int_equal(conn_send(&opp, "MOVE C1"), 0);
	/* One move first: a quit before it would abort the match (§9.2). */
	at = player_expect(PROMPT_MOVE, 0);
	player_write("b2\n");
	expect_skip_to(&opp, "TURN X Enter", line, sizeof line);
	assert_int_equal(conn_send(&opp, "MOVE A3"), 0);
	player_expect(PROMPT_MOVE, at);
	player_write("  QuIt \n");
	expect_skip_to(&opp, "RESULT ", line, sizeof line);
	assert_string_equal(line,
	    "RESULT FORFEIT X p1 p2 quit the game. p1 wins!");
	expect_prefix(&opp, "AGAIN? ");
	assert_int_equal(player_end(), 0);
	output_has(PROMPT_MOVE "  QuIt \nThank you for playing!\n");
	assert_string_equal(pl.errbuf, "");
}

/*
 * The end of input is a quit only once no line is left: a line piped ahead
 * still waits for its prompt, and input that ends at a prompt quits there.
 */
static void
test_client_eof_is_quit(void **state)
{
	char		 port[16], line[1024];
	const char	*args[] = { "127.0.0.1", port, NULL };
	int		 x_first;

	(void)state;
	server_start("6");
	port_string(port, sizeof port, srv.port);
	opponent_join(NULL);
	player_start(args, INPUT_PIPE);
	player_write("A1\nD1\n");
	player_close_input();
	assert_int_equal(opponent_mark(), 'X');
	expect_skip_to(&opp, "START ", line, sizeof line);
	x_first = (line[6] == 'X');
	expect_skip_to(&opp, "BOARD ", line, sizeof line);
	assert_string_equal(line, "BOARD .........");
	if (x_first) {
		expect_skip_to(&opp, "TURN X", NULL, 0);
		assert_int_equal(conn_send(&opp, "MOVE C1"), 0);
		expect_skip_to(&opp, "BOARD ", line, sizeof line);
	}
	/* The client's move, the opponent's, then D1 and the end at a prompt. */
	expect_skip_to(&opp, "BOARD ", line, sizeof line);
	assert_string_equal(line, x_first ? "BOARD O.X......" :
	    "BOARD O........");
	expect_skip_to(&opp, "TURN X", NULL, 0);
	assert_int_equal(conn_send(&opp, "MOVE C3"), 0);
	expect_skip_to(&opp, "RESULT ", line, sizeof line);
	assert_string_equal(line,
	    "RESULT FORFEIT X p1 p2 quit the game. p1 wins!");
	assert_int_equal(player_end(), 0);
	assert_int_equal(harness_count(pl.outbuf, PROMPT_MOVE), 3);
	output_has(PROMPT_MOVE "A1\n");
	output_has(PROMPT_MOVE "D1\n" BAD_MOVE PROMPT_MOVE "\n" THANKS);
	assert_string_equal(pl.errbuf, "");
}

/*
 * Piped input that ends with no line left quits at once, even on the
 * opponent's turn: here right after the client's one move.
 */
static void
test_client_eof_quits_on_their_turn(void **state)
{
	char		 port[16], line[1024];
	const char	*args[] = { "127.0.0.1", port, NULL };

	(void)state;
	server_start("6");
	port_string(port, sizeof port, srv.port);
	opponent_join(NULL);
	player_start(args, INPUT_PIPE);
	player_write("A1\n");
	player_close_input();
	assert_int_equal(opponent_mark(), 'X');
	expect_skip_to(&opp, "START ", line, sizeof line);
	if (line[6] == 'X') {
		expect_skip_to(&opp, "TURN X", NULL, 0);
		assert_int_equal(conn_send(&opp, "MOVE C1"), 0);
	}
	/* The opponent does not move again: the client quits by itself. */
	expect_skip_to(&opp, "RESULT ", line, sizeof line);
	assert_string_equal(line,
	    "RESULT FORFEIT X p1 p2 quit the game. p1 wins!");
	assert_int_equal(player_end(), 0);
	assert_int_equal(harness_count(pl.outbuf, PROMPT_MOVE), 1);
	output_has(PROMPT_MOVE "A1\n");
	output_has(THANKS);
	assert_string_equal(pl.errbuf, "");
}

/*
 * "quit" piped in while the client waits in the queue (no opponent ever
 * comes) is acted on at once: BYE, and status 0.  Input stays open, so only
 * the line itself can end the client.
 */
static void
test_client_quit_piped_in_queue(void **state)
{
	static const char *const	quits[] = { "quit\n", "  QuIt \r\n" };
	char				port[16];
	const char			*args[] = { "127.0.0.1", port, NULL };
	size_t				i;

	(void)state;
	server_start("11");
	port_string(port, sizeof port, srv.port);
	for (i = 0; i < sizeof quits / sizeof quits[0]; i++) {
		player_start(args, INPUT_PIPE);
		player_expect("Waiting for an opponent...\n", 0);
		player_write(quits[i]);
		assert_int_equal(player_end(), 0);
		output_has(THANKS);
		assert_int_equal(harness_count(pl.outbuf, THANKS), 1);
		assert_string_equal(pl.errbuf, "");
	}
	/* Nobody is left in the queue: the server still answers at once. */
	assert_int_equal(conn_open(&opp, srv.port), 0);
	expect_prefix(&opp, "HELLO tttd/1 ");
	expect_event(&opp, "WAIT Waiting for an opponent...");
	assert_int_equal(conn_quiet(&opp, 200), 1);
}

/* A quit piped in ahead of the server's first line works the same. */
static void
test_client_quit_piped_at_once(void **state)
{
	char		 port[16];
	const char	*args[] = { "127.0.0.1", port, "--name", "dave", NULL };

	(void)state;
	server_start("12");
	port_string(port, sizeof port, srv.port);
	player_start(args, INPUT_PIPE);
	player_write("quit\n");
	assert_int_equal(player_end(), 0);
	output_has(THANKS);
	assert_string_equal(pl.errbuf, "");
}

/* Input from /dev/null, empty, while in the queue: a quit, at once. */
static void
test_client_null_input_in_queue(void **state)
{
	char		 port[16];
	const char	*args[] = { "127.0.0.1", port, NULL };
	long		 start;

	(void)state;
	server_start("13");
	port_string(port, sizeof port, srv.port);
	start = harness_now_ms();
	player_start(args, INPUT_NULL);
	assert_int_equal(player_end(), 0);
	assert_true(harness_now_ms() - start < HARNESS_TIMEOUT_MS / 2);
	output_has("Type 'quit' at any time to exit.\n");
	output_has(THANKS);
	assert_string_equal(pl.errbuf, "");
}

/*
 * A server that says HELLO with another protocol version is refused: status
 * 1 and one line on stderr, even though it keeps the connection open.
 * tttd/10 guards against reading only the first digit (it was taken as 1).
 */
static void
test_client_refuses_other_version(void **state)
{
	static const char *const	versions[] = { "2", "10", "0" };
	char				port[16], hello[256], want[256];
	const char			*args[] = { "127.0.0.1", port, NULL };
	size_t				i;
	int				p;

	(void)state;
	for (i = 0; i < sizeof versions / sizeof versions[0]; i++) {
		fake_lfd = fake_listen(&p);
		port_string(port, sizeof port, p);
		player_start(args, INPUT_PIPE);
		fake_fd = fake_accept(fake_lfd);
		snprintf(hello, sizeof hello, "HELLO tttd/%s Welcome to Tic "
		    "Tac Toe, Ready for a game?\r\n  Type 'quit' at any time "
		    "to exit.\r\nWAIT Waiting for an opponent...\r\n",
		    versions[i]);
		assert_int_equal(write(fake_fd, hello, strlen(hello)),
		    (ssize_t)strlen(hello));
		assert_int_equal(player_end(), 1);
		close(fake_fd);
		close(fake_lfd);
		fake_fd = fake_lfd = -1;
		snprintf(want, sizeof want, "ttt-client: the server speaks "
		    "protocol tttd/%s; this client speaks tttd/1\n",
		    versions[i]);
		assert_string_equal(pl.errbuf, want);
		assert_string_equal(pl.outbuf, "");
	}
}

/* Nobody listens on the port: status 1 and one line on stderr. */
static void
test_client_unreachable(void **state)
{
	struct sockaddr_in	 sin;
	socklen_t		 len = sizeof sin;
	char			 port[16], want[128];
	const char		*args[] = { "127.0.0.1", port, NULL };
	int			 fd;

	(void)state;
	/* A port that is bound but not listening refuses connections. */
	fd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(fd != -1);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(fd, (struct sockaddr *)&sin, sizeof sin), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&sin, &len), 0);
	port_string(port, sizeof port, ntohs(sin.sin_port));
	player_start(args, INPUT_PIPE);
	player_close_input();
	assert_int_equal(player_end(), 1);
	close(fd);
	snprintf(want, sizeof want, "ttt-client: cannot connect to "
	    "127.0.0.1:%s: Connection refused\n", port);
	assert_string_equal(pl.errbuf, want);
	assert_string_equal(pl.outbuf, "");
}

/* The server dies mid-game without a BYE: status 1 and why on stderr. */
static void
test_client_server_lost(void **state)
{
	char		 port[16], line[1024];
	const char	*args[] = { "127.0.0.1", port, NULL };

	(void)state;
	server_start("7");
	port_string(port, sizeof port, srv.port);
	opponent_join(NULL);
	player_start(args, INPUT_PIPE);	/* input stays open, and unused */
	assert_int_equal(opponent_mark(), 'X');
	expect_skip_to(&opp, "TURN ", line, sizeof line);
	player_expect("You are O, playing against p1.\n", 0);
	player_expect("\n  3     |   |  \n\n", 0);
	kill(srv.pid, SIGKILL);
	harness_stop(&srv);
	srv_up = 0;
	assert_int_equal(player_end(), 1);
	assert_string_equal(pl.errbuf,
	    "ttt-client: connection to the server was lost\n");
}

/* The server shuts down (SIGTERM): its BYE ends the client with status 0. */
static void
test_client_server_shutdown(void **state)
{
	char		 port[16], line[1024];
	const char	*args[] = { "127.0.0.1", port, NULL };

	(void)state;
	server_start("8");
	port_string(port, sizeof port, srv.port);
	opponent_join(NULL);
	player_start(args, INPUT_PIPE);
	assert_int_equal(opponent_mark(), 'X');
	expect_skip_to(&opp, "TURN ", line, sizeof line);
	player_expect("You are O, playing against p1.\n", 0);
	kill(srv.pid, SIGTERM);
	expect_event(&opp, "BYE Server shutting down.");
	assert_int_equal(conn_wait_closed(&opp, HARNESS_TIMEOUT_MS), 1);
	conn_close(&opp);
	assert_int_equal(player_end(), 0);
	assert_int_equal(server_exit(), 0);
	output_has("Server shutting down.\n");
	assert_string_equal(pl.errbuf, "");
}

/*
 * On a terminal: the name is asked (a bad one again), text typed out of
 * turn gets a note, and "quit" at the move prompt ends the game.
 */
static void
test_client_terminal(void **state)
{
	char		 port[16], line[1024];
	const char	*args[] = { "127.0.0.1", port, NULL };
	size_t		 at;

	(void)state;
	server_start("9");
	port_string(port, sizeof port, srv.port);
	opponent_join(NULL);
	player_start(args, INPUT_PTY);
	at = player_expect("Type 'quit' at any time to exit.\n"
	    "Enter your name: ", 0);
	player_write("bad name!\n");
	at = player_expect("A name is 1 to 16 letters, digits, '_' or '-'.\n"
	    "Enter your name: ", at);
	player_write("carol\n");
	assert_int_equal(opponent_mark(), 'X');
	expect_skip_to(&opp, "START ", line, sizeof line);
	if (line[6] == 'O') {
		at = player_expect(PROMPT_MOVE, at);
		player_write("a1\n");
	}
	expect_skip_to(&opp, "TURN X", NULL, 0);
	at = player_expect("Waiting for p1 to move...\n", at);
	player_write("B2\n");
	at = player_expect("Please wait for your turn.\n", at);
	assert_int_equal(conn_send(&opp, "MOVE C1"), 0);
	at = player_expect(PROMPT_MOVE, at);
	player_write("QUIT\n");
	player_expect("Thank you for playing!\n", at);
	expect_skip_to(&opp, "RESULT ", line, sizeof line);
	assert_string_equal(line,
	    "RESULT FORFEIT X p1 carol quit the game. p1 wins!");
	assert_int_equal(player_end(), 0);
	assert_string_equal(pl.errbuf, "");
}

/* On a terminal "quit" works out of turn too; an empty name is no name. */
static void
test_client_terminal_quit_waiting(void **state)
{
	char		 port[16];
	const char	*args[] = { "127.0.0.1", port, NULL };
	size_t		 at;

	(void)state;
	server_start("10");
	port_string(port, sizeof port, srv.port);
	player_start(args, INPUT_PTY);
	at = player_expect("Enter your name: ", 0);
	player_write("\n");
	at = player_expect("Waiting for an opponent...\n", at);
	player_write("quit\n");
	player_expect("Thank you for playing!\n", at);
	assert_int_equal(player_end(), 0);
	assert_string_equal(pl.errbuf, "");
}

/* Drop CRs (a terminal's line ends) and ANSI SGR sequences (colours). */
static void
strip_terminal(char *s)
{
	char	*d = s;

	while (*s != '\0') {
		if (s[0] == '\033' && s[1] == '[') {
			s += 2;
			while ((*s >= '0' && *s <= '9') || *s == ';')
				s++;
			if (*s != '\0')
				s++;
			continue;
		}
		if (*s != '\r')
			*d++ = *s;
		s++;
	}
	*d = '\0';
}

/*
 * The match of test_client_plays_match, output to a pipe or a terminal,
 * with NO_COLOR as given: the client (O, p2) wins down column A and says
 * no.  The server is stopped after; the output stays in pl.outbuf.
 */
static void
play_to_the_end(const char *const *args, enum player_output output,
    const char *no_color)
{
	char	result[1024];

	player_start_env(args, INPUT_PIPE, output, no_color);
	player_write("A1\nA2\nA3\nn\n");
	player_close_input();
	assert_int_equal(opponent_mark(), 'X');
	opponent_play('X', result, sizeof result);
	assert_string_equal(result,
	    "RESULT WIN O p2 p2 wins! better luck next time p1!");
	assert_int_equal(conn_send(&opp, "n"), 0);
	expect_skip_to(&opp, "BYE ", NULL, 0);
	conn_close(&opp);
	assert_int_equal(player_end(), 0);
	assert_string_equal(pl.errbuf, "");
	assert_int_equal(harness_stop(&srv), 0);
	srv_up = 0;
}

/*
 * Standard output a terminal: X red, O cyan, the last move in bold reverse;
 * without the colours and CRs, the text a pipe gets.
 */
static void
test_client_colour_on_terminal(void **state)
{
	char		 port[16];
	const char	*args[] = { "127.0.0.1", port, NULL };

	(void)state;
	server_start("1");
	port_string(port, sizeof port, srv.port);
	opponent_join(NULL);
	play_to_the_end(args, OUTPUT_TTY, NULL);
	output_has("You are \033[36mO\033[0m, playing against p1.\r\n");
	output_has("\033[31mX\033[0m");
	/* The opponent's last move. */
	output_has("\033[1;7;31mX\033[0m");
	/* The winning board: A3, the client's last move, highlighted. */
	output_has("  1   \033[36mO\033[0m | ");
	output_has("  2   \033[36mO\033[0m | ");
	output_has("  3   \033[1;7;36mO\033[0m | ");
	assert_int_equal(harness_count(pl.outbuf, "\033[1;7;36mO"), 3);
	strip_terminal(pl.outbuf);
	output_has("You are O, playing against p1.\n");
	output_has("p2 wins! better luck next time p1!\n" PROMPT_AGAIN "n\n"
	    THANKS);
	assert_int_equal(harness_count(pl.outbuf, PROMPT_MOVE), 3);
}

/*
 * NO_COLOR set to anything but "" turns colour off on a terminal; an empty
 * NO_COLOR does not (https://no-color.org).  A pipe never gets colour.
 */
static void
test_client_no_color(void **state)
{
	static const struct {
		enum player_output	 output;
		const char		*no_color;
		int			 colour;
	} cases[] = {
		{ OUTPUT_TTY, "1", 0 },
		{ OUTPUT_TTY, "no", 0 },
		{ OUTPUT_TTY, "", 1 },
		{ OUTPUT_TTY, NULL, 1 },
		{ OUTPUT_PIPE, NULL, 0 },
		{ OUTPUT_PIPE, "", 0 },
	};
	char		 port[16];
	const char	*args[] = { "127.0.0.1", port, NULL };
	size_t		 i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		server_start("1");
		port_string(port, sizeof port, srv.port);
		opponent_join(NULL);
		play_to_the_end(args, cases[i].output, cases[i].no_color);
		if (cases[i].colour)
			output_has("\033[1;7;36mO\033[0m");
		else if (strchr(pl.outbuf, '\033') != NULL)
			fail_msg("case %zu: escape codes in:\n%s", i,
			    pl.outbuf);
		strip_terminal(pl.outbuf);
		output_has("  1   O |   | X\n");
	}
}

/*
 * Moves in every input style are sent as MOVE <CELL>, whatever --keys says;
 * --keys sets the prompt, the bad move note and the key map.  At "Play
 * again?" a keypad key is no answer.
 */
static void
test_client_input_styles(void **state)
{
	static const struct {
		const char	*keys;		/* --keys, or NULL */
		const char	*input;		/* A1, A2, A3 */
		const char	*prompt;
		const char	*note;
		const char	*map;		/* row 1's key map */
	} cases[] = {
		{ NULL, "D1\nq\n2 1\nA3\nq\nn\n", PROMPT_MOVE, BAD_MOVE,
		    NULL },
		{ "cells", "D1\na1\n21\nz\nq\nn\n", PROMPT_MOVE, BAD_MOVE,
		    NULL },
		{ "keypad", "D1\nQ\na\n3 1\nq\nn\n",
		    "Enter your move (q, s, c) or 'quit' to exit: ",
		    "Invalid input. Accepted keys: q w e, a s d, z x c.\n",
		    "  1     |   |     q w e\n" },
		{ "digits", "D1\n1 1\n  A2 \nz\nq\nn\n",
		    "Enter your move (row and column, e.g. 1 3) or 'quit' to exit: ",
		    "Invalid input. Type a row and a column from 1 to 3, e.g. 1 3 or 13.\n",
		    "  1     |   |     11 12 13\n" },
	};
	char		 port[16], result[1024], want[1024];
	const char	*args[5];
	size_t		 i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		args[0] = "127.0.0.1";
		args[1] = port;
		args[2] = cases[i].keys == NULL ? NULL : "--keys";
		args[3] = cases[i].keys;
		args[4] = NULL;
		server_start("1");
		port_string(port, sizeof port, srv.port);
		opponent_join(NULL);
		player_start(args, INPUT_PIPE);
		player_write(cases[i].input);
		player_close_input();
		assert_int_equal(opponent_mark(), 'X');
		opponent_play('X', result, sizeof result);
		assert_string_equal(result,
		    "RESULT WIN O p2 p2 wins! better luck next time p1!");
		assert_int_equal(conn_send(&opp, "n"), 0);
		expect_skip_to(&opp, "BYE ", NULL, 0);
		conn_close(&opp);
		assert_int_equal(player_end(), 0);
		assert_int_equal(harness_stop(&srv), 0);
		srv_up = 0;

		snprintf(want, sizeof want, "%sD1\n%s%s", cases[i].prompt,
		    cases[i].note, cases[i].prompt);
		output_has(want);
		assert_int_equal(harness_count(pl.outbuf, cases[i].prompt), 4);
		/* Column A is the client's: each style named A1, A2, A3. */
		output_has("  1   O |   | X");
		output_has("  2   O | ");
		output_has("  3   O | ");
		output_has(PROMPT_AGAIN "q\nPlease enter y or n.\n"
		    PROMPT_AGAIN "n\n" THANKS);
		if (cases[i].map != NULL)
			output_has(cases[i].map);
		else
			assert_null(strstr(pl.outbuf, "q w e"));
		assert_string_equal(pl.errbuf, "");
	}
}

/* --ping against tttd: status 0, silent, and the queue is left empty. */
static void
test_client_ping_live(void **state)
{
	static const char *const	hosts[] = { "127.0.0.1", "localhost" };
	char				port[16];
	const char			*args[] = { "--ping", NULL, port,
					    NULL };
	size_t				i;

	(void)state;
	server_start("14");
	port_string(port, sizeof port, srv.port);
	for (i = 0; i < sizeof hosts / sizeof hosts[0]; i++) {
		args[1] = hosts[i];
		player_start(args, INPUT_NULL);
		assert_int_equal(player_end(), 0);
		assert_string_equal(pl.outbuf, "");
		assert_string_equal(pl.errbuf, "");
	}
	/* Nobody is left in the queue: a newcomer waits alone. */
	assert_int_equal(conn_open(&opp, srv.port), 0);
	expect_prefix(&opp, "HELLO tttd/1 ");
	expect_event(&opp, "WAIT Waiting for an opponent...");
	assert_int_equal(conn_quiet(&opp, 200), 1);
}

/* --ping to a port nobody listens on: status 1 and one line on stderr. */
static void
test_client_ping_refused(void **state)
{
	struct sockaddr_in	 sin;
	socklen_t		 len = sizeof sin;
	char			 port[16], want[128];
	const char		*args[] = { "--ping", "127.0.0.1", port,
				    NULL };
	int			 fd;

	(void)state;
	fd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(fd != -1);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(fd, (struct sockaddr *)&sin, sizeof sin), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&sin, &len), 0);
	port_string(port, sizeof port, ntohs(sin.sin_port));
	player_start(args, INPUT_NULL);
	assert_int_equal(player_end(), 1);
	close(fd);
	snprintf(want, sizeof want, "ttt-client: cannot connect to "
	    "127.0.0.1:%s: Connection refused\n", port);
	assert_string_equal(pl.errbuf, want);
	assert_string_equal(pl.outbuf, "");
}

/* --ping says PING after HELLO, and QUIT after OK PONG: a fake server. */
static void
test_client_ping_conversation(void **state)
{
	struct conn	 fk;
	char		 port[16], line[1024];
	const char	*args[] = { "--ping", "127.0.0.1", port, NULL };
	int		 p;

	(void)state;
	fake_lfd = fake_listen(&p);
	port_string(port, sizeof port, p);
	player_start(args, INPUT_NULL);
	fake_fd = fake_accept(fake_lfd);
	memset(&fk, 0, sizeof fk);
	fk.fd = fake_fd;
	assert_int_equal(conn_send(&fk, "HELLO tttd/1 Welcome to Tic Tac "
	    "Toe, Ready for a game?\r\n  Type 'quit' at any time to exit."),
	    0);
	assert_int_equal(conn_send(&fk, "WAIT Waiting for an opponent..."),
	    0);
	assert_true(conn_line(&fk, line, sizeof line, HARNESS_TIMEOUT_MS) >=
	    0);
	assert_string_equal(line, "PING");
	/* Lines between PING and its answer are passed over. */
	assert_int_equal(conn_send(&fk, "MATCH X bob You play X against "
	    "bob.\r\nINFO bob says hi.\r\nOK PONG"), 0);
	assert_true(conn_line(&fk, line, sizeof line, HARNESS_TIMEOUT_MS) >=
	    0);
	assert_string_equal(line, "QUIT");
	assert_int_equal(conn_send(&fk, "BYE Thank you for playing!"), 0);
	assert_int_equal(player_end(), 0);
	assert_string_equal(pl.errbuf, "");
	assert_string_equal(pl.outbuf, "");
	close(fake_lfd);
	close(fake_fd);
	fake_fd = fake_lfd = -1;
}

/* --ping against servers that do not answer PING: status 1 and why. */
static void
test_client_ping_failures(void **state)
{
	static const struct {
		const char	*says;		/* the fake server */
		const char	*why;
	} cases[] = {
		{ "SSH-2.0-OpenSSH_9.2p1\r\n",
		    "not a tttd server; it said: SSH-2.0-OpenSSH_9.2p1" },
		{ "HTTP/1.1 400 Bad\x1b[2J\r\n",
		    "not a tttd server; it said: HTTP/1.1 400 Bad?[2J" },
		{ "ERR SERVER_FULL The server is full.\r\n",
		    "the server said: The server is full." },
		{ "HELLO tttd/2 Hi\r\n",
		    "the server speaks protocol tttd/2; this client speaks tttd/1" },
		{ "HELLO tttd/1 Hi\r\nBYE Server shutting down.\r\n",
		    "the server said: Server shutting down." },
		{ "HELLO tttd/1 Hi\r\nERR RATE_LIMITED Slow down.\r\n",
		    "the server said: Slow down." },
		{ "HELLO tttd/1 Hi\r\nOK BOARD\r\n",
		    "the server closed the connection without answering" },
		{ "", "the server closed the connection without answering" },
	};
	char		 port[16], want[256];
	const char	*args[] = { "--ping", "127.0.0.1", port, NULL };
	size_t		 i;
	int		 p;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		fake_lfd = fake_listen(&p);
		port_string(port, sizeof port, p);
		player_start(args, INPUT_NULL);
		fake_fd = fake_accept(fake_lfd);
		assert_int_equal(write(fake_fd, cases[i].says,
		    strlen(cases[i].says)), (ssize_t)strlen(cases[i].says));
		shutdown(fake_fd, SHUT_WR);
		assert_int_equal(player_end(), 1);
		close(fake_fd);
		close(fake_lfd);
		fake_fd = fake_lfd = -1;
		snprintf(want, sizeof want, "ttt-client: 127.0.0.1:%s: %s\n",
		    port, cases[i].why);
		assert_string_equal(pl.errbuf, want);
		assert_string_equal(pl.outbuf, "");
	}
}

/*
 * A server that says HELLO, then nothing: --ping gives up after 5 seconds,
 * however the time is split between its steps.
 */
static void
test_client_ping_timeout(void **state)
{
	char		 port[16], want[256];
	const char	*args[] = { "--ping", "127.0.0.1", port, NULL };
	const char	*hello = "HELLO tttd/1 Hi\r\n";
	long		 start, took;
	int		 p;

	(void)state;
	fake_lfd = fake_listen(&p);
	port_string(port, sizeof port, p);
	start = harness_now_ms();
	player_start(args, INPUT_NULL);
	fake_fd = fake_accept(fake_lfd);
	usleep(1000000);
	assert_int_equal(write(fake_fd, hello, strlen(hello)),
	    (ssize_t)strlen(hello));
	assert_int_equal(player_end_within(HARNESS_TIMEOUT_MS + 3000), 1);
	took = harness_now_ms() - start;
	if (took < 4500 || took > 7000)
		fail_msg("--ping took %ld ms", took);
	snprintf(want, sizeof want, "ttt-client: 127.0.0.1:%s: no answer "
	    "within 5 seconds\n", port);
	assert_string_equal(pl.errbuf, want);
}

/* Usage errors are status 2; --help and --version status 0. */
static void
test_client_arguments(void **state)
{
	const char *const	none[] = { NULL };
	const char *const	one[] = { "127.0.0.1", NULL };
	const char *const	badport[] = { "127.0.0.1", "4x", NULL };
	const char *const	badname[] = { "127.0.0.1", "4000", "--name",
				    "no spaces", NULL };
	const char *const	badopt[] = { "--colour", "127.0.0.1", "4000",
				    NULL };
	const char *const	badkeys[] = { "127.0.0.1", "4000", "--keys",
				    "numpad", NULL };
	const char *const	nokeys[] = { "127.0.0.1", "4000", "--keys",
				    NULL };
	const char *const	keyseq[] = { "--keys=digits", "127.0.0.1",
				    "4x", NULL };
	const char *const	pingone[] = { "--ping", "127.0.0.1", NULL };
	const char *const	version[] = { "--version", NULL };
	const char *const	help[] = { "--help", NULL };
	static const char *const helps[] = {
		"usage: ttt-client HOST PORT [--name NAME] [--keys STYLE]\n",
		"       ttt-client --ping HOST PORT\n",
		"       ttt-client --help | --version\n",
		"  --name NAME ", "  --keys STYLE ", "  --ping ",
		"  --help ", "  --version ",
		"cells   A1, b2, C3", "keypad  one key a square",
		"q w e (row 1), a s d (row 2), z x c (row 3)",
		"digits  row, then column: 1 3 or 13 is C1", "NO_COLOR",
	};
	size_t			i;

	(void)state;
	player_start(none, INPUT_PIPE);
	assert_int_equal(player_end(), 2);
	assert_non_null(strstr(pl.errbuf, "usage: ttt-client HOST PORT"));
	player_start(one, INPUT_PIPE);
	assert_int_equal(player_end(), 2);
	player_start(badport, INPUT_PIPE);
	assert_int_equal(player_end(), 2);
	assert_non_null(strstr(pl.errbuf, "bad port 4x"));
	player_start(badname, INPUT_PIPE);
	assert_int_equal(player_end(), 2);
	assert_non_null(strstr(pl.errbuf, "bad name no spaces"));
	player_start(badopt, INPUT_PIPE);
	assert_int_equal(player_end(), 2);
	assert_non_null(strstr(pl.errbuf, "unknown option --colour"));
	player_start(version, INPUT_PIPE);
	assert_int_equal(player_end(), 0);
	assert_string_equal(pl.outbuf, "ttt-client " TTTD_VERSION "\n");
	player_start(badkeys, INPUT_PIPE);
	assert_int_equal(player_end(), 2);
	assert_string_equal(pl.errbuf, "ttt-client: bad input style numpad: "
	    "use cells, keypad or digits\n");
	player_start(nokeys, INPUT_PIPE);
	assert_int_equal(player_end(), 2);
	assert_string_equal(pl.errbuf, "ttt-client: --keys needs a value\n");
	/* --keys=STYLE is taken: the next complaint is the port. */
	player_start(keyseq, INPUT_PIPE);
	assert_int_equal(player_end(), 2);
	assert_non_null(strstr(pl.errbuf, "bad port 4x"));
	player_start(pingone, INPUT_PIPE);
	assert_int_equal(player_end(), 2);
	assert_non_null(strstr(pl.errbuf, "ttt-client --ping HOST PORT"));
	/* --help lists every flag and input style. */
	player_start(help, INPUT_PIPE);
	assert_int_equal(player_end(), 0);
	for (i = 0; i < sizeof helps / sizeof helps[0]; i++)
		output_has(helps[i]);
	assert_string_equal(pl.errbuf, "");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_client_plays_match, teardown),
		cmocka_unit_test_teardown(test_client_bad_input_reprompts,
		    teardown),
		cmocka_unit_test_teardown(test_client_rematch, teardown),
		cmocka_unit_test_teardown(test_client_named_first, teardown),
		cmocka_unit_test_teardown(test_client_quit_mid_game, teardown),
		cmocka_unit_test_teardown(test_client_eof_is_quit, teardown),
		cmocka_unit_test_teardown(test_client_eof_quits_on_their_turn,
		    teardown),
		cmocka_unit_test_teardown(test_client_quit_piped_in_queue,
		    teardown),
		cmocka_unit_test_teardown(test_client_quit_piped_at_once,
		    teardown),
		cmocka_unit_test_teardown(test_client_null_input_in_queue,
		    teardown),
		cmocka_unit_test_teardown(test_client_refuses_other_version,
		    teardown),
		cmocka_unit_test_teardown(test_client_unreachable, teardown),
		cmocka_unit_test_teardown(test_client_server_lost, teardown),
		cmocka_unit_test_teardown(test_client_server_shutdown,
		    teardown),
		cmocka_unit_test_teardown(test_client_terminal, teardown),
		cmocka_unit_test_teardown(test_client_terminal_quit_waiting,
		    teardown),
		cmocka_unit_test_teardown(test_client_colour_on_terminal,
		    teardown),
		cmocka_unit_test_teardown(test_client_no_color, teardown),
		cmocka_unit_test_teardown(test_client_input_styles, teardown),
		cmocka_unit_test_teardown(test_client_ping_live, teardown),
		cmocka_unit_test_teardown(test_client_ping_refused, teardown),
		cmocka_unit_test_teardown(test_client_ping_conversation,
		    teardown),
		cmocka_unit_test_teardown(test_client_ping_failures, teardown),
		cmocka_unit_test_teardown(test_client_ping_timeout, teardown),
		cmocka_unit_test_teardown(test_client_arguments, teardown),
	};

	signal(SIGPIPE, SIG_IGN);
	pl.pid = -1;
	pl.in = pl.out = pl.err = -1;
	opp.fd = -1;
	return (cmocka_run_group_tests(tests, NULL, NULL));
}
