/*
 * test_e2e_client.c -- the real ttt-client against the real tttd: whole
 * matches played from piped input against a scripted socket opponent, bad
 * input, quitting (in the queue too), a lost server, a server of another
 * protocol version, and the terminal mode through a pty; the input styles,
 * colour on a terminal and none otherwise or with NO_COLOR, and --ping.
 * Then protocol.md §9: the computer (--ai, and "play ai" typed in the
 * queue), a private room (--room and --join, two clients), chat (/say),
 * resigning (/resign), --games and --watch, and reconnection after the
 * link is cut under the client (a proxy in a child process); and, against
 * fake servers, RESUME with the latest token, a refused RESUME, giving up
 * on a server that is gone, a stranger's pairing hidden until ROOM NEW
 * is answered, a TURN shown again while a MOVE is unanswered (a
 * cluster's match taken up) asking for no move, and a name the server
 * refuses asked for again on a terminal (a note instead in a match).
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

#include "client_drive.h"
#include "harness.h"
#include "proto.h"

#define PROMPT_MOVE	"Enter your move (A1, B2, C3) or 'quit' to exit: "
#define PROMPT_AGAIN	"Play again? (y/n) or 'quit' to exit: "
#define BAD_MOVE	"Invalid input. Accepted examples: A1, b2, C3.\n"
#define THANKS		"Thank you for playing!\n"
#define PROXY_PAIRS	4	/* links through the proxy at once */

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
static struct player	pl_other;	/* a second client: player_swap */
static pid_t		proxy_pid = -1;	/* a proxy to cut links: its pid */
static int		proxy_ctl = -1;	/* and its control pipe */
static int		opp_cut;	/* opponent_play cuts the proxy */
static char		opp_chat[1024];	/* CHAT lines the opponent got */

static void	server_start(const char *);
static int	server_exit(void);
static void	player_start(const char *const *, enum player_input);
static void	player_start_env(const char *const *, enum player_input,
		    enum player_output, const char *);
static void	player_write(const char *);
static void	player_close_input(void);
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
static void	player_swap(void);
static void	proxy_loop(int, int, int);
static int	proxy_start(int);
static void	proxy_cut(void);
static void	fake_says(struct conn *, const char *const *);
static void	fake_hears(struct conn *, const char *);
static void	fake_next(struct conn *);
static void	player_reap(void);
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

/*
 * The client in pl (client_drive.c): started with its output to a pipe and
 * NO_COLOR unset, or as given; typed into; read; searched; ended.
 */
static void
player_start(const char *const *args, enum player_input input)
{
	drive_start(&pl, args, input, OUTPUT_PIPE, NULL);
}

static void
player_start_env(const char *const *args, enum player_input input,
    enum player_output output, const char *no_color)
{
	drive_start(&pl, args, input, output, no_color);
}

static void
player_write(const char *s)
{
	drive_write(&pl, s);
}

static void
player_close_input(void)
{
	drive_close_input(&pl);
}

/* The offset just past the text, at or after from, in the output. */
static size_t
player_expect(const char *text, size_t from)
{
	return (drive_expect_at(&pl, 0, text, from, HARNESS_TIMEOUT_MS));
}

/* Read the client's output to its end and reap it: its exit status. */
static int
player_end(void)
{
	return (drive_end_within(&pl, HARNESS_TIMEOUT_MS));
}

static int
player_end_within(int ms)
{
	return (drive_end_within(&pl, ms));
}

static void
player_reap(void)
{
	drive_reap(&pl);
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
 * The CHAT lines it gets are kept in opp_chat; with opp_cut set, on its
 * first turn after the client (O) has moved it cuts the client's link
 * through the proxy and waits for the client to be back.
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
		if (strncmp(line, "CHAT ", 5) == 0 &&
		    strlen(opp_chat) + strlen(line) + 2 < sizeof opp_chat) {
			strcat(opp_chat, line);
			strcat(opp_chat, "\n");
		}
		if (strncmp(line, "BOARD ", 6) == 0)
			memcpy(cells, line + 6, 9);
		else if (strncmp(line, "RESULT ", 7) == 0)
			snprintf(result, size, "%s", line);
		else if (strncmp(line, "AGAIN?", 6) == 0)
			return;
		else if (strncmp(line, "TURN ", 5) == 0 && line[5] == mark) {
			if (opp_cut && memchr(cells, 'O', 9) != NULL) {
				/* The client has moved: cut its link. */
				proxy_cut();
				expect_skip_to(&opp, "INFO p2 is back.", NULL,
				    0);
				opp_cut = 0;
			}
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
	player_reap();
	player_swap();
	player_reap();
	if (proxy_pid > 0) {
		kill(proxy_pid, SIGKILL);
		waitpid(proxy_pid, NULL, 0);
	}
	proxy_pid = -1;
	if (proxy_ctl != -1)
		close(proxy_ctl);
	proxy_ctl = -1;
	opp_cut = 0;
	opp_chat[0] = '\0';
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
	/* The final board: the winning line in brackets, on a pipe. */
	output_has("  1  [O]|   | X\n"
	    "     ---+---+---\n"
	    "  2  [O]| ");
	output_has("  3  [O]| ");
	output_has("p2 wins! better luck next time p1!\n"
	    "Score: p1 0, p2 1, ties 0.\n" PROMPT_AGAIN "n\n"
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
	at = player_expect("  1     |[O]| X\n     ---+---+---\n"
	    "  2     |[O]|  \n     ---+---+---\n  3     |[O]| X\n", at);
	player_expect("p2 wins! better luck next time p1!\n"
	    "Score: p1 0, p2 2, ties 0.\n" PROMPT_AGAIN
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
	/* bob's NAME came with his connection: it is in the MATCH line. */
	output_has("You are X, playing against bob.\n");
	assert_null(strstr(pl.outbuf, "known as"));
	output_has("alice wins! better luck next time bob!\n");
	assert_string_equal(pl.errbuf, "");
}

/*
 * --name, arriving second: the player who was waiting reads the name in
 * its MATCH line (a new connection is paired half a second after it
 * comes, protocol.md §6.1), never "p2 is now known as carol".
 */
static void
test_client_named_second(void **state)
{
	char		 port[16], line[1024];
	const char	*args[] = { "127.0.0.1", port, "--name", "carol",
			    NULL };

	(void)state;
	server_start("4");
	port_string(port, sizeof port, srv.port);
	opponent_join(NULL);
	assert_true(conn_quiet(&opp, 700));	/* alone in the queue */
	player_start(args, INPUT_PIPE);
	expect_skip_to(&opp, "MATCH ", line, sizeof line);
	assert_string_equal(line, "MATCH X carol You play X against carol.");
	player_expect("You are O, playing against p1.\n", 0);
	conn_close(&opp);
	player_close_input();
	assert_int_equal(player_end(), 0);
	assert_null(strstr(pl.outbuf, "known as"));
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
	expect_event(&opp, "INFO Score: p1 1, p2 0, ties 0.");
	expect_prefix(&opp, "AGAIN? ");
	assert_int_equal(player_end(), 0);
	output_has(PROMPT_MOVE "  QuIt \nThank you for playing!\n");
	assert_string_equal(pl.errbuf, "");
}

/*
 * SIGINT (Control-C) mid-game is a quit, not a lost connection: the
 * opponent gets the quit's forfeit at once (no wait for a lost player),
 * and the client ends with the server's goodbye and status 0.
 */
static void
test_client_sigint_quits(void **state)
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
	at = player_expect(PROMPT_MOVE, 0);
	player_write("b2\n");
	expect_skip_to(&opp, "TURN X Enter", line, sizeof line);
	player_expect("Waiting for p1 to move...\n", at);
	assert_int_equal(kill(pl.pid, SIGINT), 0);
	expect_skip_to(&opp, "RESULT ", line, sizeof line);
	assert_string_equal(line,
	    "RESULT FORFEIT X p1 p2 quit the game. p1 wins!");
	assert_int_equal(player_end(), 0);
	output_has("Thank you for playing!\n");
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

/*
 * The server dies mid-game without a BYE: status 1 and why on stderr.
 * (Without --no-reconnect a client holding a resume token would try to
 * connect again first: test_client_reconnect_gives_up.)
 */
static void
test_client_server_lost(void **state)
{
	char		 port[16], line[1024];
	const char	*args[] = { "127.0.0.1", port, "--no-reconnect",
			    NULL };

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
	/* Boards before the end: the client's last move highlighted. */
	output_has("  1   \033[36mO\033[0m | ");
	output_has("  2   \033[36mO\033[0m | ");
	/*
	 * The winning board: its line, column A, highlighted, in no
	 * brackets: A1 and A2 were each the last move once, then the
	 * three cells of the line.
	 */
	output_has("  1   \033[1;7;36mO\033[0m | ");
	output_has("  2   \033[1;7;36mO\033[0m | ");
	output_has("  3   \033[1;7;36mO\033[0m | ");
	assert_int_equal(harness_count(pl.outbuf, "\033[1;7;36mO"), 5);
	assert_null(strstr(pl.outbuf, "[O]"));
	strip_terminal(pl.outbuf);
	output_has("You are O, playing against p1.\n");
	output_has("p2 wins! better luck next time p1!\n"
	    "Score: p1 0, p2 1, ties 0.\n" PROMPT_AGAIN "n\n"
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
		/* The final board, its winning line in brackets. */
		output_has("  1  [O]|   | X");
		output_has("  3  [O]| ");
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

/*
 * With standard input closed (</dev/null) the command of --join, --resume
 * and --watch still gets its answer: a refusal ends the client with the
 * reason and status 1, not with a quiet goodbye.
 */
static void
test_client_refusals_without_input(void **state)
{
	static const struct {
		const char	*opt, *value, *why;
	} cases[] = {
		{ "--join", "zzzz-zzzz", "ttt-client: cannot join room "
		    "ZZZZ-ZZZZ: No room with that code is open.\n" },
		{ "--resume", "ZZZZZZZZ", "ttt-client: cannot get the seat "
		    "back: That code does not match a seat you can resume.\n" },
		{ "--watch", "99", "ttt-client: cannot watch game 99: No match "
		    "with that number is being played.\n" },
	};
	char		 port[16];
	const char	*args[5];
	size_t		 i;

	(void)state;
	server_start("1");
	port_string(port, sizeof port, srv.port);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		args[0] = "127.0.0.1";
		args[1] = port;
		args[2] = cases[i].opt;
		args[3] = cases[i].value;
		args[4] = NULL;
		player_start(args, INPUT_NULL);
		assert_int_equal(player_end(), 1);
		assert_string_equal(pl.errbuf, cases[i].why);
		assert_null(strstr(pl.outbuf, THANKS));
	}
	assert_int_equal(harness_stop(&srv), 0);
	srv_up = 0;
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

/*
 * Usage errors are status 2, with one line saying what is wrong and one
 * saying where the help is; --help and --version status 0.
 */
static void
test_client_arguments(void **state)
{
	const char *const	none[] = { NULL };
	const char *const	one[] = { "127.0.0.1", NULL };
	const char *const	bogus[] = { "127.0.0.1", "4000", "--bogus",
				    NULL };
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
	const char *const	badjoin[] = { "127.0.0.1", "4000", "--join",
				    "K7QX0M9P", NULL };
	const char *const	twomodes[] = { "--ai", "127.0.0.1", "4000",
				    "--watch", "3", NULL };
	const char *const	version[] = { "--version", NULL };
	const char *const	help[] = { "--help", NULL };
	static const char *const helps[] = {
		"usage: ttt-client HOST PORT [--name NAME] [--keys STYLE]\n",
		"       ttt-client --ping HOST PORT | --healthz HOST HTTP-PORT\n",
		"       ttt-client --help | --version\n",
		"  --name NAME ", "  --keys STYLE ", "  --ping ",
		"  --help ", "  --version ",
		"cells   A1, b2, C3", "keypad  one key a square",
		"q w e (row 1), a s d (row 2), z x c (row 3)",
		"digits  row, then column: 1 3 or 13 is C1", "NO_COLOR",
		"  --room ", "  --join CODE ", "  --ai [LEVEL] ",
		"  --watch ID ", "  --games ", "  --resume TOKEN ",
		"  --no-reconnect ", "  --grace SECS ", "/say TEXT",
		"/resign", "/help",
	};
	size_t			i;

	(void)state;
	/* A usage error is one line, and where the help is; no help. */
	player_start(none, INPUT_PIPE);
	assert_int_equal(player_end(), 2);
	assert_string_equal(pl.errbuf, "ttt-client: missing HOST and PORT\n"
	    "Try 'ttt-client --help'.\n");
	assert_string_equal(pl.outbuf, "");
	player_start(one, INPUT_PIPE);
	assert_int_equal(player_end(), 2);
	assert_string_equal(pl.errbuf, "ttt-client: missing PORT\n"
	    "Try 'ttt-client --help'.\n");
	player_start(bogus, INPUT_PIPE);
	assert_int_equal(player_end(), 2);
	assert_string_equal(pl.errbuf, "ttt-client: unknown option --bogus\n"
	    "Try 'ttt-client --help'.\n");
	assert_string_equal(pl.outbuf, "");
	player_start(badport, INPUT_PIPE);
	assert_int_equal(player_end(), 2);
	assert_non_null(strstr(pl.errbuf, "bad port 4x"));
	player_start(badname, INPUT_PIPE);
	assert_int_equal(player_end(), 2);
	assert_non_null(strstr(pl.errbuf, "bad name no spaces"));
	player_start(badopt, INPUT_PIPE);
	assert_int_equal(player_end(), 2);
	assert_string_equal(pl.errbuf, "ttt-client: unknown option --colour\n"
	    "Try 'ttt-client --help'.\n");
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
	assert_string_equal(pl.errbuf, "ttt-client: missing PORT\n"
	    "Try 'ttt-client --help'.\n");
	player_start(badjoin, INPUT_PIPE);
	assert_int_equal(player_end(), 2);
	assert_string_equal(pl.errbuf, "ttt-client: bad room code K7QX0M9P: "
	    "a room code is 8 letters and digits, such as K7QX-2M9P\n");
	player_start(twomodes, INPUT_PIPE);
	assert_int_equal(player_end(), 2);
	assert_string_equal(pl.errbuf, "ttt-client: --ai and --watch cannot "
	    "be used together\n");
	/* --help lists every flag and input style. */
	player_start(help, INPUT_PIPE);
	assert_int_equal(player_end(), 0);
	for (i = 0; i < sizeof helps / sizeof helps[0]; i++)
		output_has(helps[i]);
	assert_string_equal(pl.errbuf, "");
}

/*
 * Two clients at once: the one being driven lives in pl, the other waits
 * here.  player_swap exchanges them.
 */
static void
player_swap(void)
{
	static struct player	tmp;

	tmp = pl;
	pl = pl_other;
	pl_other = tmp;
}

/*
 * The proxy's loop, in its own process: relay every connection made to
 * lfd to a new one to 127.0.0.1:upstream, byte for byte, until a byte on
 * ctl cuts every link at once (both sides closed) or ctl's end stops it.
 */
static void
proxy_loop(int lfd, int ctl, int upstream)
{
	struct sockaddr_in	sin;
	struct pollfd		pfd[2 + 2 * PROXY_PAIRS];
	int			fds[2 * PROXY_PAIRS], slot[2 + 2 * PROXY_PAIRS];
	int			i, k, n, a, b;
	char			buf[4096];
	ssize_t			r;

	for (k = 0; k < 2 * PROXY_PAIRS; k++)
		fds[k] = -1;
	for (;;) {
		n = 0;
		pfd[n].fd = lfd;
		pfd[n++].events = POLLIN;
		pfd[n].fd = ctl;
		pfd[n++].events = POLLIN;
		for (k = 0; k < 2 * PROXY_PAIRS; k++) {
			if (fds[k] == -1)
				continue;
			pfd[n].fd = fds[k];
			pfd[n].events = POLLIN;
			slot[n++] = k;
		}
		if (poll(pfd, (nfds_t)n, -1) == -1)
			continue;
		if (pfd[1].revents != 0) {
			if (read(ctl, buf, 1) != 1)
				_exit(0);
			for (k = 0; k < 2 * PROXY_PAIRS; k++) {
				if (fds[k] != -1)
					close(fds[k]);
				fds[k] = -1;
			}
			continue;
		}
		if (pfd[0].revents != 0 && (a = accept(lfd, NULL, NULL)) != -1) {
			b = socket(AF_INET, SOCK_STREAM, 0);
			memset(&sin, 0, sizeof sin);
			sin.sin_family = AF_INET;
			sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
			sin.sin_port = htons((uint16_t)upstream);
			for (k = 0; k < PROXY_PAIRS && fds[2 * k] != -1; k++)
				;
			if (b == -1 || k == PROXY_PAIRS || connect(b,
			    (struct sockaddr *)&sin, sizeof sin) == -1) {
				close(a);
				if (b != -1)
					close(b);
			} else {
				fds[2 * k] = a;
				fds[2 * k + 1] = b;
			}
		}
		for (i = 2; i < n; i++) {
			k = slot[i];
			if (pfd[i].revents == 0 || fds[k] == -1)
				continue;
			r = read(fds[k], buf, sizeof buf);
			if (r > 0 && write(fds[k ^ 1], buf, (size_t)r) == r)
				continue;
			close(fds[k]);
			close(fds[k ^ 1]);
			fds[k] = fds[k ^ 1] = -1;
		}
	}
}

/*
 * Start a TCP proxy to tttd in a child process, so that the test can cut
 * a client's connection as a network would: its port.  Started before any
 * other socket is opened, it holds no copy of one.
 */
static int
proxy_start(int upstream)
{
	int	lfd, port, ctl[2], fd;

	lfd = fake_listen(&port);
	assert_int_equal(pipe(ctl), 0);
	proxy_pid = fork();
	assert_true(proxy_pid != -1);
	if (proxy_pid == 0) {
		for (fd = 3; fd < 1024; fd++) {
			if (fd != lfd && fd != ctl[0])
				close(fd);
		}
		proxy_loop(lfd, ctl[0], upstream);
		_exit(0);
	}
	close(lfd);
	close(ctl[0]);
	proxy_ctl = ctl[1];
	return (port);
}

/* Cut every connection through the proxy, at both ends. */
static void
proxy_cut(void)
{
	assert_int_equal(write(proxy_ctl, "c", 1), 1);
}

/* The fake server says these lines, each followed by CR LF. */
static void
fake_says(struct conn *fk, const char *const *lines)
{
	for (; *lines != NULL; lines++)
		assert_int_equal(conn_send(fk, *lines), 0);
}

/* The fake server's next line from the client is exactly this. */
static void
fake_hears(struct conn *fk, const char *want)
{
	char	line[1024];

	if (conn_line(fk, line, sizeof line, HARNESS_TIMEOUT_MS) < 0)
		fail_msg("the client did not say \"%s\"; it printed:\n%s",
		    want, pl.outbuf);
	assert_string_equal(line, want);
}

/* The fake server takes the client's next connection. */
static void
fake_next(struct conn *fk)
{
	if (fake_fd != -1)
		close(fake_fd);
	fake_fd = fake_accept(fake_lfd);
	memset(fk, 0, sizeof *fk);
	fk->fd = fake_fd;
}

/*
 * LINE_TOO_LONG no longer ends the connection: the client shows it like
 * any refusal and plays on (a fake server's match, lost by the client).
 */
static void
test_client_line_too_long_goes_on(void **state)
{
	static const char *const lines[] = {
		"HELLO tttd/1 Hi",
		"WAIT Waiting for an opponent...",
		"ERR LINE_TOO_LONG Lines are limited to 256 bytes.",
		"MATCH O ann You play O against ann.",
		"START X ann (X) moves first.",
		"BOARD XXXOO....",
		"RESULT WIN X ann ann wins! better luck next time p2!",
		"AGAIN? Play again? (y/n) or 'quit' to exit:",
		NULL
	};
	static const char *const bye[] = {
		"OK AGAIN n",
		"BYE Thank you for playing!",
		NULL
	};
	struct conn	 fk;
	char		 port[16];
	const char	*args[] = { "127.0.0.1", port, NULL };
	int		 p;

	(void)state;
	fake_lfd = fake_listen(&p);
	port_string(port, sizeof port, p);
	player_start(args, INPUT_PIPE);
	player_write("n\n");
	player_close_input();
	fake_next(&fk);
	fake_says(&fk, lines);
	fake_hears(&fk, "AGAIN n");
	fake_says(&fk, bye);
	assert_int_equal(player_end(), 0);
	output_has("Lines are limited to 256 bytes.\n");
	output_has("ann wins! better luck next time p2!\n");
	assert_string_equal(pl.errbuf, "");
}

/*
 * After a result the match's score comes as an INFO line (UTF-8 in it
 * shown as it is), and the client shows it, under the final board with its winning
 * line marked: a fake server's match, lost by the client.
 */
static void
test_client_score_after_result(void **state)
{
	static const char *const lines[] = {
		"HELLO tttd/1 Hi",
		"WAIT Waiting for an opponent...",
		"MATCH O ann You play O against ann.",
		"START X ann (X) moves first.",
		"BOARD XXXOO....",
		"RESULT WIN X ann ann wins! better luck next "
		"time p2!",
		"INFO Score: ann 1, p2 0, ties 0; J\xc3\xb6rg watches.",
		"AGAIN? Play again? (y/n) or 'quit' to exit:",
		NULL
	};
	static const char *const bye[] = {
		"OK AGAIN n",
		"BYE Thank you for playing!",
		NULL
	};
	struct conn	 fk;
	char		 port[16];
	const char	*args[] = { "127.0.0.1", port, NULL };
	int		 p;

	(void)state;
	fake_lfd = fake_listen(&p);
	port_string(port, sizeof port, p);
	player_start(args, INPUT_PIPE);
	player_write("n\n");
	player_close_input();
	fake_next(&fk);
	fake_says(&fk, lines);
	fake_hears(&fk, "AGAIN n");
	fake_says(&fk, bye);
	assert_int_equal(player_end(), 0);
	output_has("You are O, playing against ann.\n");
	output_has("  1  [X]|[X]|[X]\n"
	    "     ---+---+---\n"
	    "  2   O | O |\x20\x20\n");
	output_has("ann wins! better luck next time p2!\n"
	    "Score: ann 1, p2 0, ties 0; J\xc3\xb6rg watches.\n" PROMPT_AGAIN "n\n"
	    THANKS);
	assert_string_equal(pl.errbuf, "");
}

/*
 * --ai plays the computer to a RESULT, at each level: the player tries the
 * cells in order (a taken one is refused and the next line tried), and the
 * perfect computer never loses.
 */
static void
test_client_ai_plays_to_result(void **state)
{
	static const char *const	levels[] = { NULL, "easy", "PERFECT" };
	char				port[16];
	const char			*args[5];
	size_t				i;
	int				won;

	(void)state;
	for (i = 0; i < sizeof levels / sizeof levels[0]; i++) {
		args[0] = "127.0.0.1";
		args[1] = port;
		args[2] = "--ai";
		args[3] = levels[i];
		args[4] = NULL;
		server_start("17");
		port_string(port, sizeof port, srv.port);
		player_start(args, INPUT_PIPE);
		player_write("A1\nB1\nC1\nA2\nB2\nC2\nA3\nB3\nC3\nn\n");
		player_close_input();
		assert_int_equal(player_end(), 0);
		assert_string_equal(pl.errbuf, "");
		output_has(i == 1 ? "You play the computer (easy).\n" :
		    "You play the computer (perfect).\n");
		output_has("You are X, playing against ai.\n");
		won = strstr(pl.outbuf, " wins! better luck next time ai!\n")
		    != NULL;
		if (strstr(pl.outbuf, "It's a tie!\n") == NULL &&
		    strstr(pl.outbuf, "ai wins! better luck next time ") ==
		    NULL && (!won || i != 1))
			fail_msg("no result against the computer:\n%s",
			    pl.outbuf);
		output_has(PROMPT_AGAIN);
		output_has("n\n" THANKS);
		assert_int_equal(harness_stop(&srv), 0);
		srv_up = 0;
	}
}

/*
 * --room shows a code; --join with it pairs a second client with exactly
 * that one, the room's maker playing X.  A code that is not open is
 * refused: status 1 and why.
 */
static void
test_client_room_and_join(void **state)
{
	char		 port[16], code[PROTO_CODE_LEN + 2], bad[16], want[256];
	const char	*maker[] = { "127.0.0.1", port, "--room", "--name",
			    "alice", NULL };
	const char	*joiner[] = { "127.0.0.1", port, "--join", code,
			    "--name", "bob", NULL };
	const char	*wrong[] = { "127.0.0.1", port, "--join", bad, NULL };
	size_t		 at;

	(void)state;
	server_start("15");
	port_string(port, sizeof port, srv.port);
	player_start(maker, INPUT_PIPE);
	player_write("A1\nA2\nA3\nn\n");
	player_close_input();
	at = player_expect("Your room code is ", 0);
	player_expect(" -- give it to your friend.\n", at);
	memcpy(code, pl.outbuf + at, PROTO_CODE_LEN + 1);	/* XXXX-XXXX */
	code[PROTO_CODE_LEN + 1] = '\0';
	assert_int_equal(strspn(code, PROTO_CODE_ALPHABET), 4);
	assert_int_equal(code[4], '-');
	assert_int_equal(strspn(code + 5, PROTO_CODE_ALPHABET), 4);
	snprintf(want, sizeof want, "They join with: ttt-client --join %s "
	    "127.0.0.1 %s\n", code, port);
	player_expect(want, at);
	snprintf(want, sizeof want, "Waiting for a friend to join room "
	    "%s...\n", code);
	player_expect(want, at);
	player_swap();

	/* Another code (its first character changed), typed in lower case. */
	snprintf(bad, sizeof bad, "%s", code);
	bad[0] = (code[0] == 'Z') ? 'y' : 'z';
	player_start(wrong, INPUT_PIPE);
	assert_int_equal(player_end(), 1);
	bad[0] = (char)(bad[0] - 'a' + 'A');
	snprintf(want, sizeof want, "ttt-client: cannot join room %s: No "
	    "room with that code is open.\n", bad);
	assert_string_equal(pl.errbuf, want);

	player_start(joiner, INPUT_PIPE);
	player_write("C1\nB2\nC3\nn\n");
	player_close_input();
	assert_int_equal(player_end(), 0);
	snprintf(want, sizeof want, "You joined room %s.\n", code);
	output_has(want);
	output_has("You are O, playing against alice.\n");
	output_has("alice wins! better luck next time bob!\n");
	assert_null(strstr(pl.outbuf, "give it to your friend"));
	assert_string_equal(pl.errbuf, "");

	player_swap();
	assert_int_equal(player_end(), 0);
	output_has("You are X, playing against bob.\n");
	output_has("alice wins! better luck next time bob!\n"
	    "Score: alice 1, bob 0, ties 0.\n" PROMPT_AGAIN);
	assert_string_equal(pl.errbuf, "");
}

/*
 * /say reaches the opponent as a CHAT line, and the opponent's chat is
 * shown as "name: text"; a text the server would refuse is caught by the
 * client, and so is an unknown command.  A chat keeps the move prompt.
 */
static void
test_client_say_chat(void **state)
{
	char		 port[16], result[1024];
	const char	*args[] = { "127.0.0.1", port, NULL };

	(void)state;
	server_start("18");
	port_string(port, sizeof port, srv.port);
	opponent_join(NULL);
	player_start(args, INPUT_PIPE);
	player_write("/say good luck!\n/say \tx\ty\n/shout\nA1\nA2\nA3\nn\n");
	player_close_input();
	assert_int_equal(opponent_mark(), 'X');
	assert_int_equal(conn_send(&opp, "SAY have fun, p2 "), 0);
	opponent_play('X', result, sizeof result);
	assert_string_equal(result,
	    "RESULT WIN O p2 p2 wins! better luck next time p1!");
	assert_int_equal(player_end(), 0);
	if (strstr(opp_chat, "CHAT p2 good luck!\n") == NULL)
		fail_msg("the opponent got no chat; it got \"%s\"", opp_chat);
	assert_int_equal(harness_count(opp_chat, "CHAT "), 1);
	output_has("p1: have fun, p2\n");
	output_has(PROMPT_MOVE "/say good luck!\n" PROMPT_MOVE
	    "/say \tx\ty\n"
	    "A chat line is 1 to 200 characters, without TAB.\n"
	    PROMPT_MOVE "/shout\n"
	    "Unknown command. Type /help for the list.\n" PROMPT_MOVE "A1\n");
	output_has("p2 wins! better luck next time p1!\n");
	assert_string_equal(pl.errbuf, "");
}

/*
 * The options' commands from a pipe, in the queue: each acted on as it
 * comes (no prompt is waited for), wrong arguments caught by the client,
 * the server's answers shown; then quit.
 */
static void
test_client_slash_in_queue(void **state)
{
	char		 port[16], want[256];
	const char	*args[] = { "127.0.0.1", port, NULL };
	size_t		 at;

	(void)state;
	server_start("20");
	port_string(port, sizeof port, srv.port);
	player_start(args, INPUT_PIPE);
	player_write("/help\n/games\n/name bob\n/watch x\n/join K7QX0M9P\n"
	    "/ai hard\n/name a b\n/name bo\n/room\n");
	at = player_expect("Your room code is ", 0);
	player_write("quit\n");
	assert_int_equal(player_end(), 0);
	output_has("/help\nCommands, in the queue or in a match:\n"
	    "  /say TEXT           send TEXT to your opponent\n");
	output_has("  /name NAME          change your name\n");
	output_has("/games\n");
	output_has("No games are being played.\n");
	output_has("/name bob\n");
	output_has("You are now called bob.\n");
	output_has("You are now called bo.\n");
	output_has("/watch x\nUse /watch N, with a game number from "
	    "/games.\n");
	output_has("/join K7QX0M9P\nUse /join CODE, with your friend's room "
	    "code, such as K7QX-2M9P.\n");
	output_has("/ai hard\nUse /ai, /ai easy or /ai perfect.\n");
	output_has("/name a b\nA name is 1 to 16 letters, digits, '_' or "
	    "'-'.\n");
	output_has("/room\n");
	snprintf(want, sizeof want, " -- give it to your friend.\nThey join "
	    "with: ttt-client --join %.9s 127.0.0.1 %s\n", pl.outbuf + at,
	    port);
	output_has(want);
	output_has("quit\n" THANKS);
	assert_string_equal(pl.errbuf, "");
	assert_int_equal(harness_stop(&srv), 0);
	srv_up = 0;
}

/*
 * The options' commands in a match: /ai after a move is refused by the
 * server, and told in the client's words; the game goes on.
 */
static void
test_client_slash_in_match(void **state)
{
	char		 port[16], result[1024];
	const char	*args[] = { "127.0.0.1", port, NULL };

	(void)state;
	server_start("21");
	port_string(port, sizeof port, srv.port);
	opponent_join(NULL);
	player_start(args, INPUT_PIPE);
	player_write("A1\n/ai\nA2\nA3\nn\n");
	player_close_input();
	assert_int_equal(opponent_mark(), 'X');
	opponent_play('X', result, sizeof result);
	assert_string_equal(result,
	    "RESULT WIN O p2 p2 wins! better luck next time p1!");
	assert_int_equal(player_end(), 0);
	output_has("/ai\n");
	output_has("You are in a game; finish it, /resign or quit first.\n");
	assert_null(strstr(pl.outbuf, "RESIGN"));
	output_has("p2 wins! better luck next time p1!\n");
	assert_string_equal(pl.errbuf, "");
}

/* /resign gives the game up: the resign RESULT to both, then AGAIN?. */
static void
test_client_resign(void **state)
{
	char		 port[16], line[1024];
	const char	*args[] = { "127.0.0.1", port, NULL };

	(void)state;
	server_start("19");
	port_string(port, sizeof port, srv.port);
	opponent_join(NULL);
	player_start(args, INPUT_PIPE);
	player_write("/resign\nn\n");
	player_close_input();
	assert_int_equal(opponent_mark(), 'X');
	expect_skip_to(&opp, "START ", line, sizeof line);
	if (line[6] == 'X') {
		expect_skip_to(&opp, "TURN X", NULL, 0);
		assert_int_equal(conn_send(&opp, "MOVE C1"), 0);
	}
	expect_skip_to(&opp, "RESULT ", line, sizeof line);
	assert_string_equal(line, "RESULT WIN X p1 p2 resigned.");
	expect_event(&opp, "INFO Score: p1 1, p2 0, ties 0.");
	expect_prefix(&opp, "AGAIN? ");
	/* The client answers no by itself and leaves. */
	assert_int_equal(player_end(), 0);
	expect_event(&opp, "INFO p2 left the match.");
	output_has(PROMPT_MOVE "/resign\np2 resigned.\n"
	    "Score: p1 1, p2 0, ties 0.\n" PROMPT_AGAIN "n\n" THANKS);
	assert_int_equal(harness_count(pl.outbuf, PROMPT_MOVE), 1);
	assert_string_equal(pl.errbuf, "");
}

/*
 * --watch ID shows a client the match's board and moves, read-only, to
 * the RESULT, and leaves, status 0, when the match is over (the server
 * lets it go, INFO Game <id> is over.); its input (a pipe left open, or
 * /dev/null) is never read meanwhile.
 */
static void
client_watch_match(const char *port, const char *id, struct conn *x,
    struct conn *o, enum player_input input)
{
	struct conn	*p[2];
	const char	*watch[] = { "127.0.0.1", port, "--watch", id, NULL };
	char		 want[256];
	size_t		 at;
	char		 w;

	player_start(watch, input);
	snprintf(want, sizeof want, "You are watching game %s: p1 (X) "
	    "against p2 (O).\n", id);
	at = player_expect(want, 0);
	at = player_expect("  3     |   |  \n", at);
	harness_play_to_result(x, o, p);
	w = (p[0] == x) ? 'X' : 'O';
	snprintf(want, sizeof want, "  1   %c | %c |  \n", w == 'X' ? 'O' :
	    'X', w);
	at = player_expect(want, at);
	player_expect(w == 'X' ? "p1 wins! better luck next time p2!\n" :
	    "p2 wins! better luck next time p1!\n", at);
	assert_int_equal(conn_send(x, "n"), 0);
	assert_int_equal(conn_send(o, "n"), 0);
	assert_int_equal(player_end(), 0);
	snprintf(want, sizeof want, "Game %s is over.\n", id);
	output_has(want);
	output_has(THANKS);
	output_has("Waiting for p");
	assert_null(strstr(pl.outbuf, PROMPT_MOVE));
	assert_null(strstr(pl.outbuf, PROMPT_AGAIN));
	assert_int_equal(harness_count(pl.outbuf, "      A   B   C\n"), 6);
	assert_string_equal(pl.errbuf, "");
}

/* Two players paired on the test's server: the match's id, from --games. */
static void
client_watch_pair(const char *port, struct conn *x, struct conn *o,
    char *id, size_t size)
{
	const char	*games[] = { "127.0.0.1", port, "--games", NULL };
	char		 want[256];
	size_t		 at, n;

	assert_int_equal(conn_open(x, srv.port), 0);
	expect_skip_to(x, "WAIT ", NULL, 0);
	assert_int_equal(conn_open(o, srv.port), 0);
	expect_skip_to(x, "MATCH ", NULL, 0);
	expect_skip_to(o, "MATCH ", NULL, 0);
	player_start(games, INPUT_NULL);
	assert_int_equal(player_end(), 0);
	at = player_expect("1 game is being played:\n  ", 0);
	n = strspn(pl.outbuf + at, "0123456789");
	assert_true(n > 0 && n < size);
	memcpy(id, pl.outbuf + at, n);
	id[n] = '\0';
	snprintf(want, sizeof want, "1 game is being played:\n  %s: p1 (X) "
	    "              against p2 (O), 0 moves\n", id);
	assert_string_equal(pl.outbuf, want);
	assert_string_equal(pl.errbuf, "");
}

/* A fresh server, a match on it, and --watch on it with this input. */
static void
client_watch_run(enum player_input input)
{
	struct conn	 x, o;
	char		 port[16], id[32];

	server_start("16");
	port_string(port, sizeof port, srv.port);
	client_watch_pair(port, &x, &o, id, sizeof id);
	client_watch_match(port, id, &x, &o, input);
	conn_close(&x);
	conn_close(&o);
}

/*
 * --games lists a live match (and nothing else); --watch shows a third
 * client its board and moves, read-only, to the RESULT, and leaves when
 * the match is over.
 */
static void
test_client_watch(void **state)
{
	(void)state;
	client_watch_run(INPUT_PIPE);
}

/*
 * --watch </dev/null: the end of its input does not end the watching (it
 * did, after the first board); it leaves, status 0, when the match is.
 */
static void
test_client_watch_input_closed(void **state)
{
	(void)state;
	client_watch_run(INPUT_NULL);
}

/*
 * The TCP link under a client is cut mid-game (a proxy between it and
 * tttd closes both sides): the client connects again by itself, takes its
 * seat back with its token, and the game goes on to the RESULT.
 */
static void
test_client_reconnects(void **state)
{
	char		 port[16], result[1024];
	const char	*args[] = { "127.0.0.1", port, NULL };

	(void)state;
	server_start("20");
	port_string(port, sizeof port, proxy_start(srv.port));
	opponent_join(NULL);
	player_start(args, INPUT_PIPE);
	player_write("A1\nA2\nA3\nn\n");
	player_close_input();
	assert_int_equal(opponent_mark(), 'X');
	opp_cut = 1;
	opponent_play('X', result, sizeof result);
	assert_int_equal(opp_cut, 0);
	assert_string_equal(result,
	    "RESULT WIN O p2 p2 wins! better luck next time p1!");
	assert_int_equal(player_end(), 0);
	output_has("If you lose the connection, the client reconnects by "
	    "itself; or run:\n  ttt-client --resume ");
	output_has("The connection to the server was lost; reconnecting...\n");
	output_has("You have your seat back.\n");
	assert_int_equal(harness_count(pl.outbuf,
	    "You are O, playing against p1.\n"), 2);
	assert_int_equal(harness_count(pl.outbuf, "ttt-client --resume "), 2);
	assert_null(strstr(pl.outbuf, "RESUME"));
	assert_int_equal(harness_count(pl.outbuf, PROMPT_MOVE), 3);
	output_has("p2 wins! better luck next time p1!\n"
	    "Score: p1 0, p2 1, ties 0.\n" PROMPT_AGAIN "n\n"
	    THANKS);
	assert_string_equal(pl.errbuf, "");
}

/*
 * On a terminal, "play ai" typed while waiting in the queue (the server
 * suggests it to a player alone there) starts a match against the computer.
 */
static void
test_client_terminal_play_ai(void **state)
{
	char		 port[16];
	const char	*args[] = { "127.0.0.1", port, NULL };
	size_t		 at;

	(void)state;
	server_start("21");
	port_string(port, sizeof port, srv.port);
	player_start(args, INPUT_PTY);
	at = player_expect("Enter your name: ", 0);
	player_write("\n");
	at = player_expect("Waiting for an opponent...\n", at);
	player_write("Play AI easy\n");
	at = player_expect("You play the computer (easy).\n"
	    "You are X, playing against ai.\n", at);
	player_write("quit\n");
	player_expect(THANKS, at);
	assert_int_equal(player_end(), 0);
	assert_null(strstr(pl.outbuf, "Please wait for your turn."));
	assert_string_equal(pl.errbuf, "");
}

/*
 * Against a fake server: a lost connection is made again and RESUME sent
 * with the latest token; what the server sends before OK RESUME (its
 * greeting, a stranger's pairing) is not shown, the replayed match is,
 * and play goes on.  A refused RESUME ends the client: status 1 and why.
 */
static void
test_client_resume_fake(void **state)
{
	static const char *const first[] = {
		"HELLO tttd/1 Welcome to Tic Tac Toe, Ready for a game?\r\n"
		"  Type 'quit' at any time to exit.",
		"WAIT Waiting for an opponent...",
		"MATCH O bob You play O against bob.",
		"TOKEN 2345-6789 Type RESUME 2345-6789 on a new connection "
		"within 30 seconds of losing this one to get your seat back.",
		"START X bob (X) moves first.",
		"BOARD .........",
		"TURN X Waiting for bob to move...",
		NULL
	};
	static const char *const again[] = {
		"HELLO tttd/1 Welcome to Tic Tac Toe, Ready for a game?\r\n"
		"  Type 'quit' at any time to exit.",
		"WAIT Waiting for an opponent...",
		"MATCH X zed You play X against zed.",
		"START X zed (X) moves first.",
		"TURN X Enter your move (A1, B2, C3) or 'quit' to exit:",
		"OK RESUME",
		"MATCH O bob You play O against bob.",
		"BOARD X........",
		"TURN O Enter your move (A1, B2, C3) or 'quit' to exit:",
		"TOKEN 3456-789A Type RESUME 3456-789A on a new connection "
		"within 30 seconds of losing this one to get your seat back.",
		NULL
	};
	static const char *const refused[] = {
		"HELLO tttd/1 Hi",
		"WAIT Waiting for an opponent...",
		"ERR BAD_TOKEN That code does not match a seat you can "
		"resume.",
		NULL
	};
	struct conn	 fk;
	char		 port[16], want[512];
	const char	*args[] = { "127.0.0.1", port, NULL };
	int		 p;
	size_t		 at;

	(void)state;
	fake_lfd = fake_listen(&p);
	port_string(port, sizeof port, p);
	player_start(args, INPUT_PIPE);	/* input stays open */
	fake_next(&fk);
	fake_says(&fk, first);
	snprintf(want, sizeof want, "If you lose the connection, the client "
	    "reconnects by itself; or run:\n  ttt-client --resume 2345-6789 "
	    "127.0.0.1 %s\n", port);
	at = player_expect(want, 0);
	at = player_expect("Waiting for bob to move...\n", at);
	close(fake_fd);
	fake_fd = -1;
	at = player_expect("The connection to the server was lost; "
	    "reconnecting...\n", at);
	fake_next(&fk);
	fake_hears(&fk, "RESUME 2345-6789");
	fake_says(&fk, again);
	at = player_expect("You have your seat back.\nYou are O, playing "
	    "against bob.\n", at);
	at = player_expect("  1   X |   |  \n", at);
	at = player_expect(PROMPT_MOVE, at);
	player_write("b2\n");
	fake_hears(&fk, "MOVE B2");
	assert_int_equal(conn_send(&fk, "OK MOVE B2"), 0);
	close(fake_fd);
	fake_fd = -1;
	player_expect("The connection to the server was lost; "
	    "reconnecting...\n", at);
	fake_next(&fk);
	fake_hears(&fk, "RESUME 3456-789A");
	fake_says(&fk, refused);
	assert_int_equal(player_end(), 1);
	assert_string_equal(pl.errbuf, "ttt-client: cannot get the seat "
	    "back: That code does not match a seat you can resume.\n");
	assert_null(strstr(pl.outbuf, "zed"));
	assert_int_equal(harness_count(pl.outbuf,
	    "Type 'quit' at any time to exit.\n"), 1);
	/* The fresh TOKEN comes last: the prompt is asked again after it. */
	snprintf(want, sizeof want, PROMPT_MOVE "\nIf you lose the "
	    "connection, the client reconnects by itself; or run:\n"
	    "  ttt-client --resume 3456-789A 127.0.0.1 %s\n" PROMPT_MOVE
	    "b2\n", port);
	output_has(want);
	assert_int_equal(harness_count(pl.outbuf, PROMPT_MOVE), 2);
}

/*
 * A node of a cluster drained for an upgrade says BYE Server restarting
 * and closes: with a seat, the client connects again by itself and sends
 * RESUME, as after a lost connection; any other BYE ends it.
 */
static void
test_client_resume_after_restart_bye(void **state)
{
	static const char *const first[] = {
		"HELLO tttd/1 Welcome to Tic Tac Toe, Ready for a game?\r\n"
		"  Type 'quit' at any time to exit.",
		"WAIT Waiting for an opponent...",
		"MATCH O bob You play O against bob.",
		"TOKEN 2345-6789 Type RESUME 2345-6789 on a new connection "
		"within 30 seconds of losing this one to get your seat back.",
		"START X bob (X) moves first.",
		"BOARD .........",
		"TURN X Waiting for bob to move...",
		"BYE Server restarting. Reconnect and RESUME to go on.",
		NULL
	};
	static const char *const again[] = {
		"HELLO tttd/1 Welcome to Tic Tac Toe, Ready for a game?\r\n"
		"  Type 'quit' at any time to exit.",
		"WAIT Waiting for an opponent...",
		"OK RESUME",
		"MATCH O bob You play O against bob.",
		"BOARD X........",
		"TURN O Enter your move (A1, B2, C3) or 'quit' to exit:",
		"TOKEN 3456-789A Type RESUME 3456-789A on a new connection "
		"within 30 seconds of losing this one to get your seat back.",
		"BYE Server shutting down.",
		NULL
	};
	struct conn	 fk;
	char		 port[16];
	const char	*args[] = { "127.0.0.1", port, NULL };
	int		 p;
	size_t		 at;

	(void)state;
	fake_lfd = fake_listen(&p);
	port_string(port, sizeof port, p);
	player_start(args, INPUT_PIPE);	/* input stays open */
	fake_next(&fk);
	fake_says(&fk, first);
	at = player_expect("Server restarting. Reconnect and RESUME to go "
	    "on.\n", 0);
	close(fake_fd);
	fake_fd = -1;
	at = player_expect("The connection to the server was lost; "
	    "reconnecting...\n", at);
	fake_next(&fk);
	fake_hears(&fk, "RESUME 2345-6789");
	fake_says(&fk, again);
	at = player_expect("You have your seat back.\nYou are O, playing "
	    "against bob.\n", at);
	player_expect("Server shutting down.\n", at);
	close(fake_fd);
	fake_fd = -1;
	assert_int_equal(player_end(), 0);	/* that BYE ends it */
}

/*
 * A match taken up by another node of a cluster, as a fake server plays
 * it: the client's MOVE is held, its match shown again (TURN X, its own),
 * then the MOVE refused (say, RATE_LIMITED).  The repeated TURN is no
 * prompt; the refusal is, since the held TURN said it is the player's
 * move, and the next line is sent as the move.
 */
static void
test_client_held_turn_refused_asks_again(void **state)
{
	static const char *const first[] = {
		"HELLO tttd/1 Hi",
		"WAIT Waiting for an opponent...",
		"MATCH X ann You play X against ann.",
		"TOKEN 2345-6789 Type RESUME 2345-6789 on a new connection "
		"within 30 seconds of losing this one to get your seat back.",
		"START X p1 (X) moves first.",
		"BOARD .........",
		"TURN X Enter your move (A1, B2, C3) or 'quit' to exit:",
		NULL
	};
	static const char *const taken_up[] = {
		"INFO Waiting for your match's server to answer...",
		"MATCH X ann You play X against ann.",
		"BOARD .........",
		"TURN X Enter your move (A1, B2, C3) or 'quit' to exit:",
		"TOKEN 3456-789A Type RESUME 3456-789A on a new connection "
		"within 30 seconds of losing this one to get your seat back.",
		"ERR RATE_LIMITED Too many commands. Please slow down.",
		NULL
	};
	static const char *const moved[] = {
		"OK MOVE C1",
		"BOARD ..X......",
		"TURN O Waiting for ann to move...",
		NULL
	};
	struct conn	 fk;
	char		 port[16];
	const char	*args[] = { "127.0.0.1", port, NULL };
	const char	*prompt;
	int		 p;
	size_t		 at, refused;

	(void)state;
	fake_lfd = fake_listen(&p);
	port_string(port, sizeof port, p);
	player_start(args, INPUT_PIPE);	/* input stays open */
	fake_next(&fk);
	fake_says(&fk, first);
	at = player_expect(PROMPT_MOVE, 0);
	player_write("B2\n");
	fake_hears(&fk, "MOVE B2");
	fake_says(&fk, taken_up);
	refused = player_expect("Too many commands. Please slow down.\n", at);
	player_expect(PROMPT_MOVE, refused);
	prompt = strstr(pl.outbuf + at, PROMPT_MOVE);
	if ((size_t)(prompt - pl.outbuf) < refused)
		fail_msg("the repeated TURN prompted; the client printed:\n%s",
		    pl.outbuf);
	player_write("C1\n");
	fake_hears(&fk, "MOVE C1");
	fake_says(&fk, moved);
	player_expect("Waiting for ann to move...\n", refused);
	player_write("quit\n");
	fake_hears(&fk, "QUIT");
	assert_int_equal(conn_send(&fk, "BYE Thank you for playing!"), 0);
	assert_int_equal(player_end(), 0);
	assert_int_equal(harness_count(pl.outbuf, PROMPT_MOVE), 2);
	assert_string_equal(pl.errbuf, "");
}

/*
 * A MOVE unanswered when the connection is lost gets no reply on the next
 * one: after RESUME the match's TURN X is the player's turn, and prompts.
 */
static void
test_client_move_lost_with_connection(void **state)
{
	static const char *const first[] = {
		"HELLO tttd/1 Hi",
		"WAIT Waiting for an opponent...",
		"MATCH X ann You play X against ann.",
		"TOKEN 2345-6789 Type RESUME 2345-6789 on a new connection "
		"within 30 seconds of losing this one to get your seat back.",
		"START X p1 (X) moves first.",
		"BOARD .........",
		"TURN X Enter your move (A1, B2, C3) or 'quit' to exit:",
		NULL
	};
	static const char *const again[] = {
		"HELLO tttd/1 Hi",
		"WAIT Waiting for an opponent...",
		"OK RESUME",
		"MATCH X ann You play X against ann.",
		"BOARD .........",
		"TURN X Enter your move (A1, B2, C3) or 'quit' to exit:",
		"TOKEN 3456-789A Type RESUME 3456-789A on a new connection "
		"within 30 seconds of losing this one to get your seat back.",
		NULL
	};
	struct conn	 fk;
	char		 port[16];
	const char	*args[] = { "127.0.0.1", port, NULL };
	int		 p;
	size_t		 at;

	(void)state;
	fake_lfd = fake_listen(&p);
	port_string(port, sizeof port, p);
	player_start(args, INPUT_PIPE);	/* input stays open */
	fake_next(&fk);
	fake_says(&fk, first);
	at = player_expect(PROMPT_MOVE, 0);
	player_write("B2\n");
	fake_hears(&fk, "MOVE B2");
	close(fake_fd);			/* no reply */
	fake_fd = -1;
	at = player_expect("The connection to the server was lost; "
	    "reconnecting...\n", at);
	fake_next(&fk);
	fake_hears(&fk, "RESUME 2345-6789");
	fake_says(&fk, again);
	at = player_expect("You have your seat back.\n", at);
	player_expect(PROMPT_MOVE, at);
	player_write("B2\n");
	fake_hears(&fk, "MOVE B2");
	player_write("quit\n");
	fake_hears(&fk, "QUIT");
	assert_int_equal(conn_send(&fk, "BYE Thank you for playing!"), 0);
	assert_int_equal(player_end(), 0);
	assert_string_equal(pl.errbuf, "");
}

/*
 * A yes after the opponent left goes back to the queue: no seat is held
 * any more, so a lost connection then is simply lost (no RESUME with the
 * dead token, no retries).
 */
static void
test_client_no_resume_from_queue(void **state)
{
	static const char *const lines[] = {
		"HELLO tttd/1 Hi",
		"WAIT Waiting for an opponent...",
		"MATCH O bob You play O against bob.",
		"TOKEN 2345-6789 Type RESUME 2345-6789 on a new connection.",
		"START X bob (X) moves first.",
		"BOARD .........",
		"RESULT FORFEIT O p2 bob quit the game. p2 wins!",
		"AGAIN? Play again? (y/n) or 'quit' to exit:",
		NULL
	};
	static const char *const requeued[] = {
		"OK AGAIN y",
		"WAIT Waiting for an opponent...",
		NULL
	};
	struct conn	 fk;
	char		 port[16];
	const char	*args[] = { "127.0.0.1", port, NULL };
	int		 p;
	long		 start;

	(void)state;
	fake_lfd = fake_listen(&p);
	port_string(port, sizeof port, p);
	player_start(args, INPUT_PIPE);
	fake_next(&fk);
	fake_says(&fk, lines);
	player_expect("Play again? (y/n) or 'quit' to exit: ", 0);
	player_write("y\n");
	fake_hears(&fk, "AGAIN y");
	fake_says(&fk, requeued);
	player_expect("Waiting for an opponent...\n", 0);
	close(fake_fd);
	fake_fd = -1;
	start = harness_now_ms();
	assert_int_equal(player_end(), 1);
	if (harness_now_ms() - start > 2000)
		fail_msg("gave up after %ld ms", harness_now_ms() - start);
	assert_string_equal(pl.errbuf, "ttt-client: connection to the server "
	    "was lost\n");
}

/*
 * Refused while reconnecting (the old connection still counted against
 * the address): a failed try, not the end; the next try gets the seat.
 */
static void
test_client_refused_then_resumes(void **state)
{
	static const char *const first[] = {
		"HELLO tttd/1 Hi",
		"WAIT Waiting for an opponent...",
		"MATCH O bob You play O against bob.",
		"TOKEN 2345-6789 Type RESUME 2345-6789 on a new connection.",
		"START X bob (X) moves first.",
		"BOARD .........",
		"TURN X Waiting for bob to move...",
		NULL
	};
	static const char *const refused[] = {
		"ERR TOO_MANY_CONNECTIONS Too many connections from your "
		"address. Please try again later.",
		NULL
	};
	static const char *const back[] = {
		"HELLO tttd/1 Hi",
		"WAIT Waiting for an opponent...",
		"OK RESUME",
		"MATCH O bob You play O against bob.",
		"BOARD X........",
		"TURN O Enter your move (A1, B2, C3) or 'quit' to exit:",
		"TOKEN 3456-789A Type RESUME 3456-789A on a new connection.",
		NULL
	};
	struct conn	 fk;
	char		 port[16];
	const char	*args[] = { "127.0.0.1", port, NULL };
	int		 p;
	size_t		 at;

	(void)state;
	fake_lfd = fake_listen(&p);
	port_string(port, sizeof port, p);
	player_start(args, INPUT_PIPE);
	fake_next(&fk);
	fake_says(&fk, first);
	at = player_expect("Waiting for bob to move...\n", 0);
	close(fake_fd);
	fake_fd = -1;
	fake_next(&fk);
	fake_says(&fk, refused);
	close(fake_fd);
	fake_fd = -1;
	fake_next(&fk);
	fake_hears(&fk, "RESUME 2345-6789");
	fake_says(&fk, back);
	at = player_expect("You have your seat back.\n", at);
	player_expect(PROMPT_MOVE, at);
	player_write("quit\n");
	fake_hears(&fk, "QUIT");
	assert_int_equal(conn_send(&fk, "BYE Thank you for playing!"), 0);
	close(fake_fd);
	fake_fd = -1;
	assert_int_equal(player_end(), 0);
}

/*
 * The server is gone for good: within --grace the client gives up with
 * status 1 and why; with --no-reconnect it does not try at all.
 */
static void
test_client_reconnect_gives_up(void **state)
{
	static const char *const lines[] = {
		"HELLO tttd/1 Hi",
		"WAIT Waiting for an opponent...",
		"MATCH O bob You play O against bob.",
		"TOKEN 2345-6789 Type RESUME 2345-6789 on a new connection.",
		"TURN X Waiting for bob to move...",
		NULL
	};
	static const struct {
		const char	*flag, *value;
		long		 min_ms, max_ms;
	} cases[] = {
		{ "--grace", "2", 500, 2000 },
		{ "--no-reconnect", NULL, 0, 500 },
	};
	struct conn	 fk;
	char		 port[16], want[256];
	const char	*args[5];
	size_t		 i;
	long		 start, took;
	int		 p;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		args[0] = "127.0.0.1";
		args[1] = port;
		args[2] = cases[i].flag;
		args[3] = cases[i].value;
		args[4] = NULL;
		fake_lfd = fake_listen(&p);
		port_string(port, sizeof port, p);
		player_start(args, INPUT_PIPE);
		fake_next(&fk);
		fake_says(&fk, lines);
		player_expect("Waiting for bob to move...\n", 0);
		close(fake_lfd);	/* nobody listens: refused */
		fake_lfd = -1;
		close(fake_fd);
		fake_fd = -1;
		start = harness_now_ms();
		assert_int_equal(player_end(), 1);
		took = harness_now_ms() - start;
		if (took < cases[i].min_ms || took > cases[i].max_ms)
			fail_msg("case %zu: gave up after %ld ms", i, took);
		if (cases[i].value != NULL)
			snprintf(want, sizeof want, "ttt-client: connection to "
			    "the server was lost; reconnecting failed: cannot "
			    "connect to 127.0.0.1:%s: Connection refused\n",
			    port);
		else
			snprintf(want, sizeof want, "ttt-client: connection to "
			    "the server was lost\n");
		assert_string_equal(pl.errbuf, want);
	}
}

/*
 * --room against a fake server that pairs the client with a stranger
 * before ROOM NEW arrives (every connection is queued first): that match
 * is not shown, no move is asked for, and the room's code is.
 */
static void
test_client_room_hides_first_pairing(void **state)
{
	static const char *const before[] = {
		"HELLO tttd/1 Welcome to Tic Tac Toe, Ready for a game?\r\n"
		"  Type 'quit' at any time to exit.",
		"WAIT Waiting for an opponent...",
		"MATCH X zed You play X against zed.",
		"TOKEN 2345-6789 Type RESUME 2345-6789 on a new connection.",
		"START X p1 (X) moves first.",
		"BOARD .........",
		"TURN X Enter your move (A1, B2, C3) or 'quit' to exit:",
		NULL
	};
	static const char *const after[] = {
		"OK ROOM K7QX-2M9P",
		"WAIT Waiting for a friend to join room K7QX-2M9P...",
		NULL
	};
	static const char *const friend[] = {
		"MATCH X amy You play X against amy.",
		"START O amy (O) moves first.",
		"TURN O Waiting for amy to move...",
		"BYE Server shutting down.",
		NULL
	};
	struct conn	 fk;
	char		 port[16], want[512];
	const char	*args[] = { "127.0.0.1", port, "--room", NULL };
	int		 p;

	(void)state;
	fake_lfd = fake_listen(&p);
	port_string(port, sizeof port, p);
	player_start(args, INPUT_PIPE);
	fake_next(&fk);
	fake_says(&fk, before);
	fake_hears(&fk, "ROOM NEW");
	fake_says(&fk, after);
	player_expect("Waiting for a friend to join room K7QX-2M9P...\n", 0);
	fake_says(&fk, friend);
	assert_int_equal(player_end(), 0);
	snprintf(want, sizeof want, "Type 'quit' at any time to exit.\n"
	    "Your room code is K7QX-2M9P -- give it to your friend.\n"
	    "They join with: ttt-client --join K7QX-2M9P 127.0.0.1 %s\n"
	    "Waiting for a friend to join room K7QX-2M9P...\n"
	    "You are X, playing against amy.\n", port);
	output_has(want);
	assert_null(strstr(pl.outbuf, "zed"));
	assert_null(strstr(pl.outbuf, "RESUME"));
	assert_null(strstr(pl.outbuf, PROMPT_MOVE));
	assert_string_equal(pl.errbuf, "");
}

/*
 * On a terminal, a name the server refuses while the player waits (here
 * for a room, with ROOM NEW sent) is asked for again, the server's lines
 * waiting as at the start; each answer is sent as NAME, and ROOM NEW is
 * not sent again.  Refused twice, it is asked twice.
 */
static void
test_client_name_taken_asked_again(void **state)
{
	static const char *const queued[] = {
		"WAIT Waiting for an opponent...",
		"ERR NAME_TAKEN That name is taken; choose another.",
		"OK ROOM K7QX-2M9P",
		"WAIT Waiting for a friend to join room K7QX-2M9P...",
		NULL
	};
	struct conn	 fk;
	char		 port[16];
	const char	*args[] = { "127.0.0.1", port, "--room", NULL };
	int		 p;
	size_t		 at;

	(void)state;
	fake_lfd = fake_listen(&p);
	port_string(port, sizeof port, p);
	player_start(args, INPUT_PTY);
	fake_next(&fk);
	assert_int_equal(conn_send(&fk, "HELLO tttd/1 Hi"), 0);
	at = player_expect("Enter your name: ", 0);
	player_write("alice\n");
	fake_hears(&fk, "NAME alice");
	fake_hears(&fk, "ROOM NEW");
	fake_says(&fk, queued);
	at = player_expect("That name is taken; choose another.\n"
	    "Enter your name: ", at);
	assert_null(strstr(pl.outbuf, "K7QX-2M9P"));	/* held meanwhile */
	player_write("bob\n");
	fake_hears(&fk, "NAME bob");
	at = player_expect("Waiting for a friend to join room K7QX-2M9P...\n",
	    at);
	assert_int_equal(conn_send(&fk,
	    "ERR NAME_TAKEN That name is taken; choose another."), 0);
	at = player_expect("That name is taken; choose another.\n"
	    "Enter your name: ", at);
	player_write("carol\n");
	fake_hears(&fk, "NAME carol");
	assert_int_equal(conn_send(&fk, "OK NAME carol"), 0);
	player_write("quit\n");
	fake_hears(&fk, "QUIT");	/* and no second ROOM NEW before it */
	assert_int_equal(conn_send(&fk, "BYE Thank you for playing!"), 0);
	assert_int_equal(player_end(), 0);
	assert_int_equal(harness_count(pl.outbuf, "Enter your name: "), 3);
	assert_string_equal(pl.errbuf, "");
}

/*
 * --name on a terminal refused with BAD_NAME in the queue: the name is
 * asked for, and an empty answer sends nothing, keeping the server's name.
 */
static void
test_client_bad_name_asked_again(void **state)
{
	static const char *const queued[] = {
		"HELLO tttd/1 Hi",
		"WAIT Waiting for an opponent...",
		"ERR BAD_NAME A name is 1 to 16 letters, digits, '_' or '-'.",
		NULL
	};
	struct conn	 fk;
	char		 port[16];
	const char	*args[] = { "127.0.0.1", port, "--name", "al", NULL };
	int		 p;

	(void)state;
	fake_lfd = fake_listen(&p);
	port_string(port, sizeof port, p);
	player_start(args, INPUT_PTY);
	fake_next(&fk);
	fake_says(&fk, queued);
	fake_hears(&fk, "NAME al");
	player_expect("Waiting for an opponent...\n"
	    "A name is 1 to 16 letters, digits, '_' or '-'.\n"
	    "Enter your name: ", 0);
	player_write("\n");
	player_write("quit\n");
	fake_hears(&fk, "QUIT");	/* the empty answer sent nothing */
	assert_int_equal(conn_send(&fk, "BYE Thank you for playing!"), 0);
	assert_int_equal(player_end(), 0);
	assert_int_equal(harness_count(pl.outbuf, "Enter your name: "), 1);
	assert_string_equal(pl.errbuf, "");
}

/*
 * The name refused once the match is shown, at the move prompt: the
 * prompt is not taken away; the player is told how to choose another
 * name, and the move prompt, asked again, answers a move.
 */
static void
test_client_name_taken_in_match(void **state)
{
	static const char *const matched[] = {
		"WAIT Waiting for an opponent...",
		"MATCH X ann You play X against ann.",
		"START X p1 (X) moves first.",
		"BOARD .........",
		"TURN X Enter your move (A1, B2, C3) or 'quit' to exit:",
		"ERR NAME_TAKEN That name is taken; choose another.",
		NULL
	};
	static const char *const moved[] = {
		"OK MOVE B2",
		"BOARD ....X....",
		"TURN O Waiting for ann to move...",
		NULL
	};
	struct conn	 fk;
	char		 port[16];
	const char	*args[] = { "127.0.0.1", port, NULL };
	int		 p;
	size_t		 at;

	(void)state;
	fake_lfd = fake_listen(&p);
	port_string(port, sizeof port, p);
	player_start(args, INPUT_PTY);
	fake_next(&fk);
	assert_int_equal(conn_send(&fk, "HELLO tttd/1 Hi"), 0);
	at = player_expect("Enter your name: ", 0);
	player_write("ann\n");
	fake_hears(&fk, "NAME ann");
	fake_says(&fk, matched);
	at = player_expect(PROMPT_MOVE "\n"
	    "That name is taken; choose another.\n"
	    "Type /name NAME to choose another.\n" PROMPT_MOVE, at);
	player_write("b2\n");
	fake_hears(&fk, "MOVE B2");
	fake_says(&fk, moved);
	player_expect("Waiting for ann to move...\n", at);
	player_write("quit\n");
	fake_hears(&fk, "QUIT");
	assert_int_equal(conn_send(&fk, "BYE Thank you for playing!"), 0);
	assert_int_equal(player_end(), 0);
	assert_int_equal(harness_count(pl.outbuf, "Enter your name: "), 1);
	assert_string_equal(pl.errbuf, "");
}

/*
 * Against the real tttd: "ai" is a seat's name, taken; typed at the name
 * prompt while alone in the queue, it is refused and the name asked for
 * again, and the next answer is the name the opponent is matched with.
 */
static void
test_client_name_taken_real_server(void **state)
{
	char		 port[16], line[1024];
	const char	*args[] = { "127.0.0.1", port, NULL };
	size_t		 at;

	(void)state;
	server_start("22");
	port_string(port, sizeof port, srv.port);
	player_start(args, INPUT_PTY);
	at = player_expect("Enter your name: ", 0);
	player_write("ai\n");
	at = player_expect("That name is taken; choose another.\n"
	    "Enter your name: ", at);
	player_write("carol\n");
	opponent_join(NULL);
	expect_skip_to(&opp, "MATCH ", line, sizeof line);
	assert_non_null(strstr(line, " carol "));
	player_write("quit\n");
	player_expect(THANKS, at);
	assert_int_equal(player_end(), 0);
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
		cmocka_unit_test_teardown(test_client_named_second, teardown),
		cmocka_unit_test_teardown(test_client_quit_mid_game, teardown),
		cmocka_unit_test_teardown(test_client_sigint_quits, teardown),
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
		cmocka_unit_test_teardown(test_client_resume_fake, teardown),
		cmocka_unit_test_teardown(test_client_resume_after_restart_bye,
		    teardown),
		cmocka_unit_test_teardown(test_client_held_turn_refused_asks_again,
		    teardown),
		cmocka_unit_test_teardown(test_client_move_lost_with_connection,
		    teardown),
		cmocka_unit_test_teardown(test_client_no_resume_from_queue,
		    teardown),
		cmocka_unit_test_teardown(test_client_refused_then_resumes,
		    teardown),
		cmocka_unit_test_teardown(test_client_reconnect_gives_up,
		    teardown),
		cmocka_unit_test_teardown(test_client_room_hides_first_pairing,
		    teardown),
		/* These need the server of protocol.md §9. */
		cmocka_unit_test_teardown(test_client_ai_plays_to_result,
		    teardown),
		cmocka_unit_test_teardown(test_client_room_and_join, teardown),
		cmocka_unit_test_teardown(test_client_refusals_without_input,
		    teardown),
		cmocka_unit_test_teardown(test_client_slash_in_queue, teardown),
		cmocka_unit_test_teardown(test_client_slash_in_match, teardown),
		cmocka_unit_test_teardown(test_client_score_after_result,
		    teardown),
		cmocka_unit_test_teardown(test_client_line_too_long_goes_on,
		    teardown),
		cmocka_unit_test_teardown(test_client_say_chat, teardown),
		cmocka_unit_test_teardown(test_client_resign, teardown),
		cmocka_unit_test_teardown(test_client_watch, teardown),
		cmocka_unit_test_teardown(test_client_watch_input_closed,
		    teardown),
		cmocka_unit_test_teardown(test_client_reconnects, teardown),
		cmocka_unit_test_teardown(test_client_name_taken_asked_again,
		    teardown),
		cmocka_unit_test_teardown(test_client_bad_name_asked_again,
		    teardown),
		cmocka_unit_test_teardown(test_client_name_taken_in_match,
		    teardown),
		cmocka_unit_test_teardown(test_client_name_taken_real_server,
		    teardown),
		cmocka_unit_test_teardown(test_client_terminal_play_ai,
		    teardown),
	};

	signal(SIGPIPE, SIG_IGN);
	pl.pid = pl_other.pid = -1;
	pl.in = pl.out = pl.err = -1;
	pl_other.in = pl_other.out = pl_other.err = -1;
	opp.fd = -1;
	/* CLIENT_TEST=pattern runs only the matching tests. */
	if (getenv("CLIENT_TEST") != NULL)
		cmocka_set_test_filter(getenv("CLIENT_TEST"));
	return (cmocka_run_group_tests(tests, NULL, NULL));
}
