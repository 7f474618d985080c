/*
 * test_e2e_tmux.c -- ttt-client in a real terminal: two players in two
 * tmux sessions (100 x 40, on a private tmux socket) play a whole match
 * against the real tttd, and the test reads their screens with
 * capture-pane, prompts included, as a person would see them.
 *
 * p1 plays in the default style (A1, a2) and once with a keypad key; p2
 * plays with --keys keypad and NO_COLOR=1.  p1 wins down column A whoever
 * starts, quits at "Play again?"; p2 answers a keypad key there, then n.
 *
 * Control-D, at each kind of prompt and at none, on 80-column screens
 * where the resume hint must not wrap.
 *
 * Then two players in the real telnet(1): one presses Ctrl-C mid-game,
 * sees BYE (telnet shows nothing at all until its mark is answered), and
 * the other sees that it quit (protocol.md §1.9).
 *
 * Exits 77 (ctest's SKIP_RETURN_CODE) when tmux is not installed; the
 * telnet test is skipped when telnet is not.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
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

#define TMUX_SKIP	77	/* ctest's SKIP_RETURN_CODE */
#define TMUX_WAIT_MS	10000	/* the longest wait for anything */
#define SCREEN_MAX	65536

/*
 * The command of a pane: sh -c RUN_CLIENT CLIENT-PATH ENV-ARG ARGS... runs
 * "env ENV-ARG CLIENT-PATH ARGS..." and then says how it ended.  The shell
 * stays a second after its last line: a pane whose program ends at once
 * after writing can die before tmux has read that line (seen once in CI:
 * "Pane is dead", status 0, the line never on the screen).
 */
#define RUN_CLIENT	"c=$0; e=$1; shift; env \"$e\" \"$c\" \"$@\"; " \
			"echo \"[ttt-client exited with status $?]\"; sleep 1"

/*
 * The same, for a client that gets Control-C: the shell waits it out (a
 * trap of its own; the client gets the default action, as from a shell
 * prompt) and then says how it ended.
 */
#define RUN_CLIENT_INT	"trap : INT; " RUN_CLIENT

/* Typed text that wraps after a prompt on a 100-column screen. */
#define LONG_TEXT_START	"startOfTheLongText::"
#define LONG_TEXT_END	"ABCDEFGHIJKLMNOPQRST"
#define LONG_TEXT	LONG_TEXT_START "0123456789abcdefghij0123456789" \
			"abcdef" LONG_TEXT_END

/* The alphabet of room codes and resume tokens. */
#define CODE_CHARS	"23456789ABCDEFGHJKMNPQRSTUVWXYZ"

/* Prompts as capture-pane shows them: the blank after the colon is cut. */
#define PROMPT_CELLS	"Enter your move (A1, B2, C3) or 'quit' to exit:"
#define PROMPT_KEYPAD	"Enter your move (q, s, c) or 'quit' to exit:"
#define PROMPT_AGAIN	"Play again? (y/n) or 'quit' to exit:"
#define RESULT_LINE	"p1 wins! better luck next time p2!"
#define SCORE_LINE	"Score: p1 1, p2 0, ties 0."
#define THANKS		"Thank you for playing!"

static struct tttd_proc	srv;
static int		srv_up;
static char		port[16];	/* tttd's, as an argument */
static char		sock[64];	/* tmux -L: a private server */
static char		sock_path[PATH_MAX];	/* where tmux put it */
static int		tmux_up;

static int	installed(const char *);
static int	tmux_run(const char *const *, char *, size_t);
static void	tmux(const char *, ...);
static void	screen(const char *, int, char *, size_t);
static void	screen_wait(const char *, const char *, int);
static void	type(const char *, const char *);
static void	tmux_start(void);
static void	tmux_started(const char *);
static void	tmux_stop(void);
static void	pane_exited(const char *);
static void	play(const char *, const char *, int *);
static void	p1_saw(void);
static void	p2_saw(void);
static int	teardown(void **);
static void	pane_open(const char *, const char *, const char *,
		    const char *, const char *);
static void	keys(const char *, const char *);
static size_t	last_at(const char *, const char *);

/* Is there an executable program of this name in PATH? */
static int
installed(const char *prog)
{
	const char	*path = getenv("PATH"), *p, *colon;
	char		 file[PATH_MAX];
	size_t		 len;

	if (path == NULL)
		path = "/usr/bin:/bin";
	for (p = path; *p != '\0'; p = (*colon == '\0') ? colon : colon + 1) {
		colon = strchr(p, ':');
		if (colon == NULL)
			colon = p + strlen(p);
		len = (size_t)(colon - p);
		snprintf(file, sizeof file, "%.*s/%s", (int)len, p, prog);
		if (len > 0 && access(file, X_OK) == 0)
			return (1);
	}
	return (0);
}

/*
 * Run "tmux -L sock -f /dev/null" with the NULL-terminated arguments,
 * within TMUX_WAIT_MS; its stdout (and stderr) into out, NUL-terminated.
 * Returns its exit status, or -1 if it had to be killed.
 */
static int
tmux_run(const char *const *args, char *out, size_t size)
{
	const char	*argv[32];
	struct pollfd	 pfd;
	long		 deadline = harness_now_ms() + TMUX_WAIT_MS;
	size_t		 len = 0;
	ssize_t		 r;
	pid_t		 pid;
	int		 fds[2], n = 0, fd, status, done = 0;

	argv[n++] = "tmux";
	argv[n++] = "-L";
	argv[n++] = sock;
	argv[n++] = "-f";
	argv[n++] = "/dev/null";
	while (*args != NULL && n < 31)
		argv[n++] = *args++;
	argv[n] = NULL;
	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid != -1);
	if (pid == 0) {
		dup2(fds[1], STDOUT_FILENO);
		dup2(fds[1], STDERR_FILENO);
		for (fd = 3; fd < 1024; fd++)
			close(fd);
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	close(fds[1]);
	fcntl(fds[0], F_SETFL, O_NONBLOCK);
	/*
	 * A tmux server it starts keeps no copy of the pipe, but reading stops
	 * once tmux itself has exited anyway.
	 */
	while (!done) {
		pfd.fd = fds[0];
		pfd.events = POLLIN;
		poll(&pfd, 1, 20);
		while (len + 1 < size &&
		    (r = read(fds[0], out + len, size - 1 - len)) > 0)
			len += (size_t)r;
		if (waitpid(pid, &status, WNOHANG) == pid)
			done = 1;
		else if (harness_now_ms() >= deadline) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			close(fds[0]);
			return (-1);
		}
	}
	while (len + 1 < size &&
	    (r = read(fds[0], out + len, size - 1 - len)) > 0)
		len += (size_t)r;
	out[len] = '\0';
	close(fds[0]);
	return (WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

/* A tmux command that must succeed: its arguments, NULL-terminated. */
static void
tmux(const char *first, ...)
{
	const char	*args[32];
	char		 out[4096];
	va_list		 ap;
	int		 n = 0;

	va_start(ap, first);
	for (args[n] = first; args[n] != NULL && n < 31;
	    args[++n] = va_arg(ap, const char *))
		continue;
	va_end(ap);
	args[n] = NULL;
	if (tmux_run(args, out, sizeof out) != 0)
		fail_msg("tmux %s failed: %s", first, out);
}

/*
 * What a session's pane shows, its history too, with trailing blanks cut;
 * with -e, the colours.
 */
static void
screen(const char *session, int escapes, char *buf, size_t size)
{
	const char	*args[] = { "capture-pane", "-p", "-S", "-",
			    "-t", session, escapes ? "-e" : NULL, NULL };

	if (tmux_run(args, buf, size) != 0)
		fail_msg("capture-pane -t %s failed: %s", session, buf);
}

/* Wait until the session's screen shows the text at least n times. */
static void
screen_wait(const char *session, const char *text, int n)
{
	static char	buf[SCREEN_MAX];
	long		deadline = harness_now_ms() + TMUX_WAIT_MS;

	for (;;) {
		screen(session, 0, buf, sizeof buf);
		if (harness_count(buf, text) >= n)
			return;
		if (harness_now_ms() >= deadline) {
			/* cmocka cuts long messages: the screen goes first. */
			fprintf(stderr, "session %s, its screen:\n%s\n",
			    session, buf);
			fail_msg("session %s never showed \"%s\" (%d times)",
			    session, text, n);
		}
		usleep(50000);
	}
}

/* Type a line into a session: the text as it is, then Enter. */
static void
type(const char *session, const char *text)
{
	if (*text != '\0')
		tmux("send-keys", "-t", session, "-l", text, NULL);
	tmux("send-keys", "-t", session, "Enter", NULL);
}

/*
 * Start p1's session, the first, and with it the tmux server; note its
 * socket's path for tmux_stop.
 */
static void
tmux_start(void)
{
	tmux_up = 1;
	tmux("new-session", "-d", "-x", "100", "-y", "40", "-s", "p1", "--",
	    "sh", "-c", RUN_CLIENT, harness_client_path(), "-uNO_COLOR",
	    "127.0.0.1", port, ";", "set-option", "-g", "remain-on-exit", "on",
	    NULL);
	tmux_started("p1");
}

/* The tmux server runs, with this session: note its socket's path. */
static void
tmux_started(const char *session)
{
	const char	*args[] = { "display-message", "-p", "-t", session,
			    "#{socket_path}", NULL };
	char		 out[PATH_MAX];

	assert_int_equal(tmux_run(args, out, sizeof out), 0);
	out[strcspn(out, "\n")] = '\0';
	snprintf(sock_path, sizeof sock_path, "%s", out);
}

/* End the tmux server and remove its socket, which tmux leaves behind. */
static void
tmux_stop(void)
{
	const char	*args[] = { "kill-server", NULL };
	char		 out[256];

	if (tmux_up)
		tmux_run(args, out, sizeof out);
	tmux_up = 0;
	if (sock_path[0] != '\0')
		unlink(sock_path);
	sock_path[0] = '\0';
}

/*
 * The session's ttt-client has exited with status 0, as the shell around
 * it says.  (tmux's own #{pane_dead_status} is sometimes never filled in.)
 */
static void
pane_exited(const char *session)
{
	screen_wait(session, THANKS "\n[ttt-client exited with status 0]\n",
	    1);
}

/*
 * One move: wait for the mover's prompt to show for the (*n + 1)th time,
 * then type the move.
 */
static void
play(const char *session, const char *move, int *n)
{
	screen_wait(session, strcmp(session, "p1") == 0 ? PROMPT_CELLS :
	    PROMPT_KEYPAD, ++*n);
	type(session, move);
}

/*
 * Start a session of cols columns (and 40 rows) running ttt-client on
 * tttd with --name name (none if NULL), the environment variable env set,
 * the tmux server with the first one.
 */
static void
pane_open(const char *session, const char *cols, const char *env,
    const char *name, const char *keys_style)
{
	const char	*args[32];
	char		 out[PATH_MAX];
	int		 n = 0;

	args[n++] = "new-session";
	args[n++] = "-d";
	args[n++] = "-x";
	args[n++] = cols;
	args[n++] = "-y";
	args[n++] = "40";
	args[n++] = "-s";
	args[n++] = session;
	args[n++] = "--";
	args[n++] = "sh";
	args[n++] = "-c";
	args[n++] = RUN_CLIENT_INT;
	args[n++] = harness_client_path();
	args[n++] = env;
	if (name != NULL) {
		args[n++] = "--name";
		args[n++] = name;
	}
	args[n++] = "--keys";
	args[n++] = keys_style;
	args[n++] = "127.0.0.1";
	args[n++] = port;
	if (!tmux_up) {
		args[n++] = ";";
		args[n++] = "set-option";
		args[n++] = "-g";
		args[n++] = "remain-on-exit";
		args[n++] = "on";
	}
	args[n] = NULL;
	if (tmux_run(args, out, sizeof out) != 0)
		fail_msg("tmux new-session %s failed: %s", session, out);
	if (!tmux_up) {
		const char	*where[] = { "display-message", "-p", "-t",
				    session, "#{socket_path}", NULL };

		tmux_up = 1;
		assert_int_equal(tmux_run(where, out, sizeof out), 0);
		out[strcspn(out, "\n")] = '\0';
		snprintf(sock_path, sizeof sock_path, "%s", out);
	}
}

/* Type text into a session without Enter: keys as they are. */
static void
keys(const char *session, const char *text)
{
	tmux("send-keys", "-t", session, "-l", text, NULL);
}

/* Where the text last shows on the screen (its end); 0 if it does not. */
static size_t
last_at(const char *buf, const char *text)
{
	const char	*p, *last = NULL;

	for (p = strstr(buf, text); p != NULL; p = strstr(p + 1, text))
		last = p;
	return (last == NULL ? 0 : (size_t)(last - buf) + strlen(text));
}

/* Whatever a failed test left running is ended. */
static int
teardown(void **state)
{
	(void)state;
	tmux_stop();
	if (srv_up)
		harness_stop(&srv);
	srv_up = 0;
	return (0);
}

/* What p1 saw of the game: its prompts, its moves, the board, in colour. */
static void
p1_saw(void)
{
	static char	buf[SCREEN_MAX];

	screen("p1", 0, buf, sizeof buf);
	assert_non_null(strstr(buf, PROMPT_CELLS " A1\n"));
	assert_non_null(strstr(buf, PROMPT_CELLS " a2\n"));
	assert_non_null(strstr(buf, PROMPT_CELLS " z\n"));
	assert_int_equal(harness_count(buf, PROMPT_CELLS), 3);
	assert_non_null(strstr(buf, "  1   X |   | O\n"));
	assert_non_null(strstr(buf, "  2   X | O |\n"));
	assert_non_null(strstr(buf, "  3   X |   |"));
	assert_null(strstr(buf, "q w e"));
	screen("p1", 1, buf, sizeof buf);
	assert_non_null(strstr(buf, "\033[31mX"));
	assert_non_null(strstr(buf, "\033[36mO"));
	/* The winning line, column A, in bold reverse. */
	assert_non_null(strstr(buf, "  1   \033[1;7m\033[31mX"));
	assert_non_null(strstr(buf, "  2   \033[1;7m\033[31mX"));
	assert_non_null(strstr(buf, "  3   \033[1;7m\033[31mX"));
}

/* What p2 saw: its keypad prompt, moves and map, and no colour at all. */
static void
p2_saw(void)
{
	static char	buf[SCREEN_MAX];

	screen("p2", 0, buf, sizeof buf);
	assert_non_null(strstr(buf, PROMPT_KEYPAD " e\n"));
	assert_non_null(strstr(buf, PROMPT_KEYPAD " s\n"));
	assert_non_null(strstr(buf, "  1   X |   | O   q w e\n"));
	/* NO_COLOR: the winning line in brackets. */
	assert_non_null(strstr(buf, "  1  [X]|   | O   q w e\n"
	    "     ---+---+---\n"
	    "  2  [X]| O |     a s d\n"));
	assert_int_equal(harness_count(buf, PROMPT_CELLS), 0);
	screen("p2", 1, buf, sizeof buf);
	assert_null(strchr(buf, '\033'));
}

/*
 * A whole match in two terminals: what each player sees, from the name
 * prompt to "Thank you for playing!".
 */
static void
test_tmux_match(void **state)
{
	static const char *const	 p1_moves[] = { "A1", "a2", "z" };
	static const char *const	 p2_moves[] = { "e", "s", "c" };
	static const char *const	 seed[] = { "--seed", "5", NULL };
	static char			 buf[SCREEN_MAX];
	int				 p1_first, i1 = 0, i2 = 0;
	int				 n1 = 0, n2 = 0;

	(void)state;
	assert_int_equal(harness_start(&srv, seed), 0);
	srv_up = 1;
	snprintf(port, sizeof port, "%d", srv.port);

	/* p1 comes first and so plays X; colour on, as NO_COLOR is unset. */
	tmux_start();
	screen_wait("p1", "Welcome to Tic Tac Toe, Ready for a game?\n"
	    "Type 'quit' at any time to exit.\nEnter your name:", 1);
	type("p1", "");
	screen_wait("p1", "Waiting for an opponent...", 1);
	tmux("new-session", "-d", "-x", "100", "-y", "40", "-s", "p2", "--",
	    "sh", "-c", RUN_CLIENT, harness_client_path(), "NO_COLOR=1",
	    "--keys", "keypad", "127.0.0.1", port, NULL);
	screen_wait("p2", "Enter your name:", 1);
	type("p2", "");

	screen_wait("p1", "You are X, playing against p2.", 1);
	screen_wait("p2", "You are O, playing against p1.", 1);
	screen_wait("p1", " moves first.", 1);
	screen("p1", 0, buf, sizeof buf);
	p1_first = strstr(buf, "p1 (X) moves first.") != NULL;
	screen_wait("p1", "      A   B   C\n"
	    "  1     |   |\n"
	    "     ---+---+---\n"
	    "  2     |   |\n"
	    "     ---+---+---\n"
	    "  3     |   |\n", 1);
	/* The keypad's map is drawn beside p2's board. */
	screen_wait("p2", "      A   B   C\n"
	    "  1     |   |     q w e\n"
	    "     ---+---+---\n"
	    "  2     |   |     a s d\n"
	    "     ---+---+---\n"
	    "  3     |   |     z x c\n", 1);

	/* p1 wins down column A before p2 can make a line, whoever starts. */
	if (!p1_first)
		play("p2", p2_moves[i2++], &n2);
	while (i1 < 3) {
		play("p1", p1_moves[i1++], &n1);
		if (i1 < 3)
			play("p2", p2_moves[i2++], &n2);
	}
	screen_wait("p1", RESULT_LINE "\n" SCORE_LINE "\n" PROMPT_AGAIN, 1);
	screen_wait("p2", RESULT_LINE "\n" SCORE_LINE "\n" PROMPT_AGAIN, 1);
	p1_saw();
	p2_saw();

	/* p1 quits at "Play again?"; p2 tries a keypad key, then says no. */
	type("p1", "quit");
	screen_wait("p1", PROMPT_AGAIN " quit\n" THANKS "\n", 1);
	pane_exited("p1");
	screen_wait("p2", "p1 left the match.\n" PROMPT_AGAIN, 1);
	type("p2", "x");
	screen_wait("p2", PROMPT_AGAIN " x\nPlease enter y or n.\n", 1);
	type("p2", "n");
	screen_wait("p2", PROMPT_AGAIN " n\n" THANKS "\n", 1);
	pane_exited("p2");

	tmux_stop();
	assert_int_equal(harness_stop(&srv), 0);
	srv_up = 0;
}

/*
 * What the player is typing survives the server's lines: bob types half a
 * chat line while ann moves; the board comes, and below it bob's prompt
 * with his half line, which he finishes.  Typed text is edited by
 * characters (an é takes one BSpace), the client's commands work in a
 * terminal (/help, /name, and /ai refused in a game in the client's
 * words), and Control-C quits politely: its player's opponent sees a
 * quit (before a first move, the match called off), not a lost
 * connection, and the client ends with status 0.
 */
static void
test_tmux_line_editing(void **state)
{
	static const char *const	 seed[] = { "--seed", "5", NULL };
	static char			 buf[SCREEN_MAX];
	const char			*mover, *other;
	char				 moved[32];
	size_t				 board, typed;

	(void)state;
	assert_int_equal(harness_start(&srv, seed), 0);
	srv_up = 1;
	snprintf(port, sizeof port, "%d", srv.port);
	pane_open("ann", "100", "LC_ALL=C.UTF-8", "ann", "cells");
	screen_wait("ann", "Waiting for an opponent...", 1);
	pane_open("bob", "100", "LC_ALL=C.UTF-8", "bob", "cells");
	screen_wait("ann", " moves first.", 1);
	screen_wait("bob", " moves first.", 1);
	screen("ann", 0, buf, sizeof buf);
	mover = strstr(buf, "ann (X) moves first.") != NULL ? "ann" : "bob";
	other = strcmp(mover, "ann") == 0 ? "bob" : "ann";
	snprintf(moved, sizeof moved, "  2     | %c |",
	    strcmp(mover, "ann") == 0 ? 'X' : 'O');
	screen_wait(mover, PROMPT_CELLS, 1);

	/* The other types half a line; the mover's move comes meanwhile. */
	keys(other, "/say hel");
	screen_wait(other, "/say hel", 1);
	type(mover, "B2");
	screen_wait(other, moved, 1);
	screen_wait(other, PROMPT_CELLS " /say hel", 1);
	screen(other, 0, buf, sizeof buf);
	board = last_at(buf, moved);
	typed = last_at(buf, PROMPT_CELLS " /say hel");
	if (board == 0 || typed < board)
		fail_msg("the half line is not below the board:\n%s", buf);
	type(other, "lo");
	screen_wait(mover, ": hello", 1);

	/*
	 * A line that wraps (49 + 75 columns of 100; capture-pane shows the
	 * rows apart) is erased and redrawn whole, both rows.
	 */
	keys(other, "/say " LONG_TEXT);
	screen_wait(other, LONG_TEXT_END "\n", 1);
	type(mover, "/say ping");
	screen_wait(other, ": ping\n", 1);
	screen_wait(other, LONG_TEXT_END "\n", 1);
	screen(other, 0, buf, sizeof buf);
	if (harness_count(buf, LONG_TEXT_START) != 1 ||
	    harness_count(buf, LONG_TEXT_END "\n") != 1)
		fail_msg("the wrapped line is not drawn once:\n%s", buf);
	board = last_at(buf, ": ping\n");
	typed = last_at(buf, LONG_TEXT_END "\n");
	if (typed < board)
		fail_msg("the wrapped line is not below:\n%s", buf);
	tmux("send-keys", "-t", other, "C-u", NULL);

	/* Editing by characters: "caf\xc3\xa9", one BSpace, "e". */
	keys(other, "/say caf\xc3\xa9");
	tmux("send-keys", "-t", other, "BSpace", NULL);
	type(other, "e");
	screen_wait(mover, ": cafe", 1);

	/* The client's commands in a terminal. */
	type(other, "/help");
	screen_wait(other, "Commands, in the queue or in a match:", 1);
	screen_wait(other, "  /name NAME          change your name", 1);
	type(other, "/name zed");
	screen_wait(other, "You are now called zed.", 1);
	type(mover, "/ai");
	screen_wait(mover, "You are in a game; finish it, /resign or quit "
	    "first.", 1);

	/* Control-C, with something typed: a quit the opponent is told. */
	keys(other, "xyz");
	screen_wait(other, "xyz", 1);
	tmux("send-keys", "-t", other, "C-c", NULL);
	screen_wait(other, "You are now called zed.\n" THANKS
	    "\n[ttt-client exited with status 0]\n", 1);
	/* zed had not moved yet: a quit then calls the match off. */
	screen_wait(mover, "zed left before the first move. No result.", 1);
	screen(mover, 0, buf, sizeof buf);
	assert_null(strstr(buf, "lost the connection"));
	type(mover, "quit");
	screen_wait(mover, THANKS "\n[ttt-client exited with status 0]\n", 1);

	tmux_stop();
	assert_int_equal(harness_stop(&srv), 0);
	srv_up = 0;
}

/*
 * The resume hint of a match on an 80-column screen: its command is a row
 * of its own, whole, after the line that says what it is for.
 */
static void
resume_hint_fits(const char *session)
{
	static const char	 intro[] = "If you lose the connection, the "
				    "client reconnects by itself; or run:\n"
				    "  ttt-client --resume ";
	static char		 buf[SCREEN_MAX];
	char			 tail[64];
	const char		*p;

	screen_wait(session, intro, 1);
	screen(session, 0, buf, sizeof buf);
	p = strstr(buf, intro);
	assert_non_null(p);
	p += strlen(intro);
	snprintf(tail, sizeof tail, " 127.0.0.1 %s\n", port);
	if (strspn(p, CODE_CHARS) != 4 || p[4] != '-' ||
	    strspn(p + 5, CODE_CHARS) != 4 ||
	    strncmp(p + 9, tail, strlen(tail)) != 0)
		fail_msg("the resume command is not a row of its own:\n%s",
		    buf);
}

/*
 * Control-D ends the client as quit does, and leaves no "^D" on the
 * screen: at the name prompt (the prompt stays, its line ended), on the
 * move prompt, and with no prompt at all, waiting in the queue.  On the
 * 80-column screens the resume hint's command is a row of its own.
 */
static void
test_tmux_control_d(void **state)
{
	static const char *const	 seed[] = { "--seed", "5", NULL };
	static char			 buf[SCREEN_MAX];
	const char			*mover, *other;

	(void)state;
	assert_int_equal(harness_start(&srv, seed), 0);
	srv_up = 1;
	snprintf(port, sizeof port, "%d", srv.port);

	/* At the name prompt. */
	pane_open("cal", "80", "LC_ALL=C.UTF-8", NULL, "cells");
	screen_wait("cal", "Enter your name:", 1);
	tmux("send-keys", "-t", "cal", "C-d", NULL);
	screen_wait("cal", "[ttt-client exited with status", 1);
	screen("cal", 0, buf, sizeof buf);
	if (strstr(buf, "Enter your name:\nWaiting for an opponent...\n"
	    THANKS "\n[ttt-client exited with status 0]\n") == NULL ||
	    strstr(buf, "^D") != NULL)
		fail_msg("Control-D at the name prompt:\n%s", buf);

	/* At the move prompt: the mover leaves. */
	pane_open("ann", "80", "LC_ALL=C.UTF-8", "ann", "cells");
	screen_wait("ann", "Waiting for an opponent...", 1);
	pane_open("bob", "80", "LC_ALL=C.UTF-8", "bob", "cells");
	screen_wait("ann", " moves first.", 1);
	screen_wait("bob", " moves first.", 1);
	resume_hint_fits("ann");
	resume_hint_fits("bob");
	screen("ann", 0, buf, sizeof buf);
	mover = strstr(buf, "ann (X) moves first.") != NULL ? "ann" : "bob";
	other = strcmp(mover, "ann") == 0 ? "bob" : "ann";
	screen_wait(mover, PROMPT_CELLS, 1);
	tmux("send-keys", "-t", mover, "C-d", NULL);
	screen_wait(mover, "[ttt-client exited with status", 1);
	screen(mover, 0, buf, sizeof buf);
	if (strstr(buf, PROMPT_CELLS "\n" THANKS
	    "\n[ttt-client exited with status 0]\n") == NULL ||
	    strstr(buf, "^D") != NULL)
		fail_msg("Control-D at the move prompt:\n%s", buf);

	/* With no prompt: the other, back in the queue. */
	screen_wait(other, "left before the first move. No result.\n"
	    "Waiting for an opponent...\n", 1);
	tmux("send-keys", "-t", other, "C-d", NULL);
	screen_wait(other, "[ttt-client exited with status", 1);
	screen(other, 0, buf, sizeof buf);
	if (strstr(buf, "No result.\nWaiting for an opponent...\n" THANKS
	    "\n[ttt-client exited with status 0]\n") == NULL ||
	    strstr(buf, "^D") != NULL)
		fail_msg("Control-D in the queue:\n%s", buf);

	tmux_stop();
	assert_int_equal(harness_stop(&srv), 0);
	srv_up = 0;
}

/*
 * A telnet player types a line and waits for the server's reply to it:
 * the nth line starting with OK or ERR on its screen.
 */
static void
telnet_line(const char *session, const char *text, int n)
{
	static char	buf[SCREEN_MAX];
	long		deadline = harness_now_ms() + TMUX_WAIT_MS;

	type(session, text);
	for (;;) {
		screen(session, 0, buf, sizeof buf);
		if (harness_count(buf, "\nOK ") + harness_count(buf, "\nERR ") >=
		    n)
			return;
		if (harness_now_ms() >= deadline) {
			fprintf(stderr, "session %s, its screen:\n%s\n",
			    session, buf);
			fail_msg("session %s: no reply to \"%s\"", session,
			    text);
		}
		usleep(50000);
	}
}

/*
 * Ctrl-C in the real telnet, mid-game: telnet sends IAC IP IAC DO
 * TIMING-MARK and shows nothing more until the mark is answered; the
 * server answers it, says BYE and closes, and the opponent sees a quit.
 */
static void
test_tmux_telnet_ctrl_c(void **state)
{
	static const char *const	 seed[] = { "--seed", "5", NULL };
	int				 i;

	(void)state;
	if (!installed("telnet"))
		skip();
	assert_int_equal(harness_start(&srv, seed), 0);
	srv_up = 1;
	snprintf(port, sizeof port, "%d", srv.port);
	tmux_up = 1;
	tmux("new-session", "-d", "-x", "100", "-y", "40", "-s", "t1", "--",
	    "telnet", "127.0.0.1", port, ";", "set-option", "-g",
	    "remain-on-exit", "on", NULL);
	tmux_started("t1");
	screen_wait("t1", "WAIT Waiting for an opponent...", 1);
	tmux("new-session", "-d", "-x", "100", "-y", "40", "-s", "t2", "--",
	    "telnet", "127.0.0.1", port, NULL);
	screen_wait("t1", "MATCH X p2", 1);
	screen_wait("t2", "MATCH O p1", 1);
	/* Whoever starts, both have moved after these (B2 and A1). */
	for (i = 1; i <= 2; i++) {
		telnet_line("t1", i == 1 ? "b2" : "a1", i);
		telnet_line("t2", i == 1 ? "b2" : "a1", i);
	}
	/* Half a line, then Ctrl-C. */
	tmux("send-keys", "-t", "t1", "-l", "PI", NULL);
	tmux("send-keys", "-t", "t1", "C-c", NULL);
	screen_wait("t1", "BYE Thank you for playing!\n"
	    "Connection closed by foreign host.", 1);
	screen_wait("t2", "RESULT FORFEIT O p2 p1 quit the game. p2 wins!", 1);
	tmux_stop();
	assert_int_equal(harness_stop(&srv), 0);
	srv_up = 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_tmux_match, teardown),
		cmocka_unit_test_teardown(test_tmux_line_editing, teardown),
		cmocka_unit_test_teardown(test_tmux_control_d, teardown),
		cmocka_unit_test_teardown(test_tmux_telnet_ctrl_c, teardown),
	};

	if (!installed("tmux")) {
		printf("tmux is not installed: test_e2e_tmux skipped\n");
		return (TMUX_SKIP);
	}
	snprintf(sock, sizeof sock, "tttd-test-%ld", (long)getpid());
	signal(SIGPIPE, SIG_IGN);
	return (cmocka_run_group_tests(tests, NULL, NULL));
}
