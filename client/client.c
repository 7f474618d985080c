/*
 * client.c -- one player's session: the server socket and standard input in
 * one poll loop, so the opponent's moves show up while the player thinks.
 * Server lines are handled in client-event.c, input lines in
 * client-input.c, output in out.c; this file owns the socket's life.
 *
 * When the connection ends without the server's BYE while the client holds
 * a resume token (a match is being played), it connects again by itself,
 * on the schedule of backoff.c within the server's grace period, and sends
 * RESUME <token>; the server answers with the match as it stands (MATCH,
 * BOARD, TURN or AGAIN?), and play goes on.  So it does after BYE Server
 * restarting (a node of a cluster drained), and after that BYE in the
 * public queue it connects again to wait there, with no RESUME
 * (client-event.c).
 *
 * On a terminal (standard input and output) the player's line is
 * libedit's (edit.c).  Control-C leaves politely: QUIT is sent, so the
 * opponent sees a quit and not a lost connection, and the client waits up
 * to CLIENT_BYE_MS for the server's BYE; a second Control-C, or no BYE in
 * time, ends it at once.
 */
#include <sys/socket.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "client.h"
#include "client-account.h"
#include "client-event.h"
#include "client-input.h"
#include "edit.h"
#include "net.h"

#define CLIENT_BYE_MS	2000	/* the wait for BYE after Control-C */

static volatile sig_atomic_t	client_sigint;
static int			client_sigfd[2] = { -1, -1 };	/* wakes
								   the poll */

static void	client_sigint_cb(int);
static void	client_interrupt(struct client *, long *);
static void	client_lost(struct client *);
static void	client_reconnect(struct client *);
static void	client_wait(struct client *, long);

/* Control-C: noted for the poll loop, and its poll woken by the pipe. */
static void
client_sigint_cb(int sig)
{
	int	saved = errno;
	ssize_t	r;

	(void)sig;
	client_sigint++;
	r = write(client_sigfd[1], "", 1);
	(void)r;
	errno = saved;
}

/*
 * Act on Control-C: the first sends QUIT and gives the server until
 * *deadline to say BYE; a second, or the deadline passed, ends the client.
 */
static void
client_interrupt(struct client *c, long *deadline)
{
	if (client_sigint > 0 && *deadline == 0) {
		client_sigint = 0;
		*deadline = net_now_ms() + CLIENT_BYE_MS;
		edit_cancel();
		if (!c->quitting)
			out_quit(c);
		return;
	}
	if (*deadline != 0 && (client_sigint > 0 || net_now_ms() >= *deadline))
		out_fail(c, "interrupted before the server said goodbye");
}

/*
 * The connection ended without BYE, or after a drained node's.  With a
 * seat to take back (a token, reconnection on, no quit sent, no closing
 * error), or a place in the queue after that BYE, reconnect; otherwise
 * fail.  A reconnection that ends before the seat is back counts as a
 * failed try.
 */
static void
client_lost(struct client *c)
{
	long	now = net_now_ms();

	net_close(c->fd, c->tls);
	c->fd = -1;
	c->tls = NULL;
	c->sock_eof = 0;
	c->inlen = 0;
	c->await = PROTO_NONE;
	c->acct = CLIENT_ACCT_NONE;	/* a reply lost: LOGIN again later */
	c->prompt = CLIENT_PROMPT_NONE;
	/*
	 * No reply to a MOVE sent on this connection comes on the next: after
	 * RESUME a TURN of the player's own is a turn, whether the MOVE was
	 * lost or not (played, it is the opponent's TURN that comes).
	 */
	c->moving = 0;
	c->turn_held = 0;
	c->naming = 0;		/* nor to the NAME of the start */
	/*
	 * Refused while reconnecting (SERVER_FULL, or TOO_MANY_CONNECTIONS
	 * while the old connection is still counted): a failed try.
	 */
	if (c->lost && c->why != NULL && !c->quitting)
		c->why = NULL;
	if (!c->opts->reconnect || (c->token[0] == '\0' && !c->requeue) ||
	    c->quitting || c->why != NULL) {
		out_fail(c, c->why != NULL ? c->why :
		    "connection to the server was lost");
		return;
	}
	if (c->lost) {
		if (backoff_failed(&c->backoff, now) == -1)
			out_fail(c, "connection to the server was lost; reconnecting failed: the connection ended again");
		return;
	}
	c->lost = 1;
	backoff_start(&c->backoff, now, c->opts->grace * 1000L);
	out_note(c, RENDER_NOTE_LOST);
}

/*
 * Connect again when a try is due, and ask for the seat back (back in the
 * queue, the greeting is awaited instead: client-event.c).
 */
static void
client_reconnect(struct client *c)
{
	char	why[256], text[RENDER_MAX];
	long	now = net_now_ms(), left;

	if (backoff_wait(&c->backoff, now) > 0)
		return;
	left = backoff_left(&c->backoff, now);
	if (left > CLIENT_CONNECT_MS)
		left = CLIENT_CONNECT_MS;
	c->fd = net_connect(c->opts, (int)left, &c->tls, why, sizeof why);
	if (c->fd == -1) {
		if (backoff_failed(&c->backoff, net_now_ms()) == -1) {
			snprintf(text, sizeof text, "connection to the server was lost; reconnecting failed: %s",
			    why);
			out_fail(c, text);
		}
		return;
	}
	if (c->requeue)
		return;
	c->await = PROTO_RESUME;
	out_send(c, "RESUME %s", c->token);
}

/*
 * Wait for the socket or for input while there is room, and read it; while
 * reconnecting, for input until the next try is due.
 */
static void
client_wait(struct client *c, long deadline)
{
	struct pollfd	pfd[3];
	nfds_t		n = 0;
	int		sock = -1, in = -1, timeout = -1;
	ssize_t		r;
	char		drain[16];

	if (c->fd == -1)
		timeout = (int)backoff_wait(&c->backoff, net_now_ms());
	else if (c->inlen < sizeof c->in) {
		pfd[n].fd = c->fd;
		pfd[n].events = net_events(c->tls);
		sock = (int)n++;
	}
	if (deadline != 0 && (timeout == -1 ||
	    deadline - net_now_ms() < timeout))
		timeout = (int)(deadline - net_now_ms());
	if (deadline != 0 && timeout < 0)
		timeout = 0;
	if (sock != -1 && net_pending(c->tls))
		timeout = 0;	/* read inside TLS already */
	if (!c->in_eof && !c->quitting && c->kblen < sizeof c->kb &&
	    c->opts->mode != CLIENT_MODE_GAMES) {
		pfd[n].fd = STDIN_FILENO;
		pfd[n].events = POLLIN;
		in = (int)n++;
	}
	if (n == 0 && c->fd != -1) {
		out_fail(c, "the server sent too much at once");
		return;
	}
	/* Control-C wakes the poll even if it came just before it. */
	pfd[n].fd = client_sigfd[0];
	pfd[n].events = POLLIN;
	n++;
	if (poll(pfd, n, timeout) == -1) {
		if (errno != EINTR)
			out_fail(c, strerror(errno));
		return;
	}
	if (pfd[n - 1].revents != 0)
		while (read(client_sigfd[0], drain, sizeof drain) > 0)
			continue;
	if (sock != -1 && (pfd[sock].revents != 0 || net_pending(c->tls))) {
		r = net_recv(c->fd, c->tls, c->in + c->inlen,
		    sizeof c->in - c->inlen);
		if (r > 0)
			c->inlen += (size_t)r;
		else if (r == 0 || (errno != EAGAIN && errno != EWOULDBLOCK &&
		    errno != EINTR))
			c->sock_eof = 1;
	}
	if (in != -1 && pfd[in].revents != 0) {
		if (c->edit)
			r = edit_read(c->kb + c->kblen, sizeof c->kb - c->kblen);
		else
			r = read(STDIN_FILENO, c->kb + c->kblen,
			    sizeof c->kb - c->kblen);
		if (c->edit && r == 0)
			return;		/* a line is being typed */
		if (r > 0)
			c->kblen += (size_t)r;
		else if (r == 0 || (errno != EAGAIN && errno != EINTR))
			c->in_eof = 1;
	}
}

/*
 * Play on the server of the options (no name: ask on a terminal, else
 * none) until the server says BYE.  Returns the exit status: 0 after BYE, 1
 * on failure with a one-line reason on stderr.
 */
int
client_run(const struct client_opts *opts)
{
	static struct client	c;
	struct sigaction	sa;
	char			why[RENDER_MAX];
	long			bye = 0;

	memset(&c, 0, sizeof c);
	c.opts = opts;
	c.tty = isatty(STDIN_FILENO);
	if (client_account_open(&c) == -1)
		return (1);
	c.fd = net_connect(opts, CLIENT_CONNECT_MS, &c.tls, why, sizeof why);
	if (c.fd == -1) {
		fprintf(stderr, "ttt-client: %s\n", why);
		return (1);
	}
	/* Control-C wakes poll(2) through a pipe: see client_interrupt. */
	if (pipe(client_sigfd) == -1 ||
	    fcntl(client_sigfd[0], F_SETFL, O_NONBLOCK) == -1 ||
	    fcntl(client_sigfd[1], F_SETFL, O_NONBLOCK) == -1 ||
	    fcntl(client_sigfd[0], F_SETFD, FD_CLOEXEC) == -1 ||
	    fcntl(client_sigfd[1], F_SETFD, FD_CLOEXEC) == -1) {
		fprintf(stderr, "ttt-client: %s\n", strerror(errno));
		net_close(c.fd, c.tls);
		return (1);
	}
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = client_sigint_cb;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	/* The line editor draws: only with the screen a terminal too. */
	if (c.tty && isatty(STDOUT_FILENO) && opts->mode != CLIENT_MODE_GAMES) {
		c.edit = 1;
		edit_start();
	}
	c.view.mine = TTT_EMPTY;
	c.view.last = -1;
	c.view.colour = opts->colour;
	c.view.keys = opts->keys;
	c.view.reconnect = opts->reconnect;
	c.view.joining = (opts->mode == CLIENT_MODE_JOIN);
	c.view.host = opts->host;
	c.view.port = opts->port;
	memset(c.cells, '.', TTT_CELLS);
	for (;;) {
		client_server(&c);
		if (!c.done)
			client_interrupt(&c, &bye);
		if (!c.done && c.sock_eof)
			client_lost(&c);
		if (!c.done && c.fd == -1)
			client_reconnect(&c);
		if (!c.done)
			client_input(&c);
		if (c.done)
			break;
		if (client_ready(&c))
			continue;	/* e.g. lines held while the name was asked */
		client_show(&c);
		fflush(stdout);
		client_wait(&c, bye);
	}
	if (c.shown)
		fputc('\n', stdout);
	edit_end();
	fflush(stdout);
	if (c.status != 0)
		fprintf(stderr, "ttt-client: %s\n", c.why);
	if (c.fd != -1)
		net_close(c.fd, c.tls);
	signal(SIGINT, SIG_DFL);
	close(client_sigfd[0]);
	close(client_sigfd[1]);
	return (c.status);
}
