/*
 * client.c -- one player's session: the server socket and standard input in
 * one poll loop, so the opponent's moves show up while the player thinks.
 *
 * Server lines are taken apart by proto/ and shown through render.c.  Input
 * is read whenever there is room for it: one line answers one prompt, and
 * lines typed ahead wait in a buffer.  On a terminal, a line typed out of
 * turn is answered at once ("quit" quits); from a pipe it waits for the next
 * prompt, unless it is a quit.  The end of input with no line left is a
 * quit, at any time.  A move is read in any input style (keys.c) and always
 * sent as MOVE <CELL>.
 */
#include <sys/socket.h>
#include <sys/types.h>

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "client.h"
#include "keys.h"
#include "render.h"

#define CLIENT_IN_MAX	8192	/* server bytes waiting for a newline */
#define CLIENT_KB_MAX	1024	/* input bytes waiting for a newline */

enum client_prompt {
	CLIENT_PROMPT_NONE,
	CLIENT_PROMPT_NAME,
	CLIENT_PROMPT_MOVE,
	CLIENT_PROMPT_AGAIN
};

struct client {
	int			 fd;
	int			 tty;		/* standard input is a terminal */
	const char		*name;		/* --name, or NULL */
	struct render_view	 view;		/* how to draw */
	char			 cells[TTT_CELLS + 1];	/* last BOARD */
	enum client_prompt	 prompt;	/* the open question */
	int			 shown;		/* its text ends the last line */
	int			 sock_eof;
	int			 in_eof;
	int			 skip;		/* dropping an overlong line */
	int			 quitting;	/* QUIT sent */
	int			 done;
	int			 status;	/* exit status once done */
	const char		*why;		/* failure reason for stderr */
	char			 whybuf[RENDER_MAX];
	size_t			 inlen;
	size_t			 kblen;
	char			 in[CLIENT_IN_MAX];
	char			 kb[CLIENT_KB_MAX];
};

static void	client_print(struct client *, const char *);
static void	client_show(struct client *);
static void	client_send(struct client *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));
static void	client_quit(struct client *);
static void	client_fail(struct client *, const char *);
static void	client_event(struct client *, const struct proto_event *);
static int	client_ready(struct client *);
static void	client_server(struct client *);
static int	client_kbline(struct client *, char *, size_t *);
static int	client_kbquit(struct client *);
static void	client_note(struct client *, enum render_note);
static void	client_name(struct client *, char *, size_t);
static void	client_answer(struct client *, char *, size_t);
static void	client_eof(struct client *);
static void	client_input(struct client *);
static void	client_wait(struct client *);

/* Show text, first ending the line of a prompt that is on screen. */
static void
client_print(struct client *c, const char *text)
{
	if (*text == '\0')
		return;
	if (c->shown)
		fputc('\n', stdout);
	c->shown = 0;
	fputs(text, stdout);
}

/* Show the open question unless it is on screen already. */
static void
client_show(struct client *c)
{
	char	text[RENDER_MAX];

	if (c->prompt == CLIENT_PROMPT_NONE || c->shown)
		return;
	switch (c->prompt) {
	case CLIENT_PROMPT_NAME:
		render_prompt(text, sizeof text, RENDER_PROMPT_NAME, &c->view);
		break;
	case CLIENT_PROMPT_MOVE:
		render_prompt(text, sizeof text, RENDER_PROMPT_MOVE, &c->view);
		break;
	default:
		render_prompt(text, sizeof text, RENDER_PROMPT_AGAIN, &c->view);
		break;
	}
	client_print(c, text);
	c->shown = 1;
}

/* Send one command line; a failure shows up as the socket's end. */
static void
client_send(struct client *c, const char *fmt, ...)
{
	char	line[PROTO_LINE_MAX + 2];
	va_list	ap;
	int	n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof line - 1, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof line - 1)
		return;
	line[n++] = '\n';
	if (net_send(c->fd, line, (size_t)n, CLIENT_SEND_MS) == -1)
		shutdown(c->fd, SHUT_WR);
}

/* Leave: send QUIT and wait for the server's BYE. */
static void
client_quit(struct client *c)
{
	client_send(c, "QUIT");
	c->quitting = 1;
	c->prompt = CLIENT_PROMPT_NONE;
}

/* End with a failure reason for stderr. */
static void
client_fail(struct client *c, const char *why)
{
	snprintf(c->whybuf, sizeof c->whybuf, "%s", why);
	c->why = c->whybuf;
	c->done = 1;
	c->status = 1;
}

/* Act on one server event: show it, then open or close a question. */
static void
client_event(struct client *c, const struct proto_event *ev)
{
	char	text[RENDER_MAX];

	if (c->quitting &&
	    (ev->kind == PROTO_EV_TURN || ev->kind == PROTO_EV_AGAINQ))
		return;
	if (ev->kind == PROTO_EV_HELLO && ev->version != PROTO_VERSION) {
		snprintf(text, sizeof text, "the server speaks protocol tttd/%d; this client speaks tttd/%d",
		    ev->version,
		    PROTO_VERSION);
		client_fail(c, text);
		return;
	}
	if (ev->kind == PROTO_EV_MATCH)
		c->view.mine = ev->mark;
	if (ev->kind == PROTO_EV_BOARD) {
		c->view.last = render_last(c->cells, ev->cells, c->view.last);
		memcpy(c->cells, ev->cells, sizeof c->cells);
	}
	render_event(text, sizeof text, ev, &c->view);
	if (ev->kind == PROTO_EV_ERR && (ev->error == PROTO_ESERVER_FULL ||
	    ev->error == PROTO_ETOO_MANY_CONNECTIONS ||
	    ev->error == PROTO_ELINE_TOO_LONG ||
	    ev->error == PROTO_ELINE_TIMEOUT)) {
		/* The server closes next: say why on stderr, not here. */
		text[strcspn(text, "\n")] = '\0';
		snprintf(c->whybuf, sizeof c->whybuf, "%s", text);
		c->why = c->whybuf;
		return;
	}
	client_print(c, text);

	switch (ev->kind) {
	case PROTO_EV_HELLO:
		if (c->quitting)
			break;		/* quit was piped in before HELLO */
		if (c->name != NULL)
			client_send(c, "NAME %s", c->name);
		else if (c->tty)
			c->prompt = CLIENT_PROMPT_NAME;
		break;
	case PROTO_EV_TURN:
		c->prompt = CLIENT_PROMPT_NONE;
		if (c->view.mine != TTT_EMPTY && ev->mark == c->view.mine) {
			c->prompt = CLIENT_PROMPT_MOVE;
			c->shown = 1;
		}
		break;
	case PROTO_EV_AGAINQ:
		c->prompt = CLIENT_PROMPT_AGAIN;
		c->shown = 1;
		break;
	case PROTO_EV_MATCH:
	case PROTO_EV_START:
	case PROTO_EV_RESULT:
		c->prompt = CLIENT_PROMPT_NONE;
		break;
	case PROTO_EV_ERR:
		/* A rejected move or answer is asked for again. */
		if (c->quitting)
			break;
		if (ev->error == PROTO_ETAKEN || ev->error == PROTO_EBAD_CELL)
			c->prompt = CLIENT_PROMPT_MOVE;
		else if (ev->error == PROTO_EBAD_ANSWER)
			c->prompt = CLIENT_PROMPT_AGAIN;
		break;
	case PROTO_EV_BYE:
		c->done = 1;
		c->status = 0;
		break;
	default:
		break;
	}
}

/* Are there whole server lines to act on now (none while a name is asked)? */
static int
client_ready(struct client *c)
{
	if (c->prompt == CLIENT_PROMPT_NAME && !c->sock_eof)
		return (0);
	return (memchr(c->in, '\n', c->inlen) != NULL);
}

/*
 * Act on every whole line from the server.  While the name is being asked,
 * lines after HELLO wait, unless the server has gone.
 */
static void
client_server(struct client *c)
{
	struct proto_event	 ev;
	char			*lf;
	size_t			 used;

	while (!c->done && client_ready(c)) {
		lf = memchr(c->in, '\n', c->inlen);
		used = (size_t)(lf - c->in) + 1;
		if (proto_event_parse(c->in, used - 1, &ev) == 0)
			client_event(c, &ev);
		c->inlen -= used;
		memmove(c->in, c->in + used, c->inlen);
	}
	if (!c->done && c->inlen == sizeof c->in &&
	    memchr(c->in, '\n', c->inlen) == NULL)
		client_fail(c, "the server sent an overlong line");
}

/*
 * Take the next input line (without CR LF) into a CLIENT_KB_MAX + 1 buffer;
 * 0 if no whole line is there yet.  An overlong line is cut, and the rest
 * of it dropped; at the end of input a last line needs no newline.
 */
static int
client_kbline(struct client *c, char *line, size_t *len)
{
	char	*lf;
	size_t	 n, used;
	int	 cut;

	for (;;) {
		lf = memchr(c->kb, '\n', c->kblen);
		cut = (lf == NULL);
		if (lf != NULL)
			n = (size_t)(lf - c->kb);
		else if (c->kblen == sizeof c->kb ||
		    (c->in_eof && c->kblen > 0))
			n = c->kblen;
		else
			return (0);
		used = n + !cut;
		memcpy(line, c->kb, n);
		if (n > 0 && line[n - 1] == '\r')
			n--;
		line[n] = '\0';
		c->kblen -= used;
		memmove(c->kb, c->kb + used, c->kblen);
		if (c->skip) {
			c->skip = cut;
			continue;
		}
		c->skip = cut && !c->in_eof;
		*len = n;
		return (1);
	}
}

/*
 * Look at the next input line without taking it: 1 if it is a quit, 0 if
 * not, -1 if no whole line is there yet.
 */
static int
client_kbquit(struct client *c)
{
	struct proto_cmd	 cmd;
	const char		*p = c->kb, *lf;
	size_t			 n = c->kblen;

	if (c->skip) {
		/* The rest of an overlong line is being dropped. */
		if ((lf = memchr(p, '\n', n)) == NULL)
			return (-1);
		n -= (size_t)(lf + 1 - p);
		p = lf + 1;
	}
	if ((lf = memchr(p, '\n', n)) != NULL)
		n = (size_t)(lf - p);
	else if (n == sizeof c->kb)
		return (0);	/* overlong, so no quit */
	else if (!c->in_eof || n == 0)
		return (-1);
	if (n > 0 && p[n - 1] == '\r')
		n--;
	return (proto_parse(p, n, &cmd) == PROTO_OK && cmd.verb == PROTO_QUIT);
}

/* Show one of the client's notes. */
static void
client_note(struct client *c, enum render_note which)
{
	char	text[RENDER_MAX];

	render_note(text, sizeof text, which, &c->view);
	client_print(c, text);
}

/* Answer the name question: empty for none, else a valid name. */
static void
client_name(struct client *c, char *line, size_t len)
{
	while (len > 0 && (line[len - 1] == ' ' || line[len - 1] == '\t'))
		len--;
	while (len > 0 && (*line == ' ' || *line == '\t')) {
		line++;
		len--;
	}
	line[len] = '\0';
	if (len > 0 && !proto_name_valid(line, len)) {
		client_note(c, RENDER_NOTE_BAD_NAME);
		return;
	}
	c->prompt = CLIENT_PROMPT_NONE;
	if (len > 0)
		client_send(c, "NAME %s", line);
}

/*
 * Act on one input line: the answer to the open question, if any.  At the
 * move prompt a cell in any input style comes first, then the protocol's
 * own words ("move b2"); at the other prompts only the protocol's words
 * count, so y and n answer "Play again?" and keypad keys mean nothing there.
 */
static void
client_answer(struct client *c, char *line, size_t len)
{
	struct proto_cmd	cmd;
	enum proto_error	e;
	char			cell[3];
	int			n;

	if (!c->tty)
		printf("%s\n", line);	/* no terminal echoes a pipe */
	c->shown = 0;
	e = proto_parse(line, len, &cmd);
	if (e == PROTO_OK && cmd.verb == PROTO_QUIT) {
		client_quit(c);
		return;
	}
	switch (c->prompt) {
	case CLIENT_PROMPT_NONE:
		if (e != PROTO_OK || cmd.verb != PROTO_NONE)
			client_note(c, RENDER_NOTE_NOT_YOUR_TURN);
		break;
	case CLIENT_PROMPT_NAME:
		client_name(c, line, len);
		break;
	case CLIENT_PROMPT_MOVE:
		if ((n = keys_move(line, len)) == -1) {
			if (e != PROTO_OK || cmd.verb != PROTO_MOVE) {
				client_note(c, RENDER_NOTE_BAD_MOVE);
				break;
			}
			n = cmd.cell;
		}
		ttt_cell_name(n, cell);
		client_send(c, "MOVE %s", cell);
		c->prompt = CLIENT_PROMPT_NONE;
		break;
	case CLIENT_PROMPT_AGAIN:
		if (e != PROTO_OK || cmd.verb != PROTO_AGAIN) {
			client_note(c, RENDER_NOTE_BAD_ANSWER);
			break;
		}
		client_send(c, "AGAIN %s", cmd.yes ? "y" : "n");
		c->prompt = CLIENT_PROMPT_NONE;
		break;
	}
}

/* The end of input is a quit: end the line of a prompt on screen first. */
static void
client_eof(struct client *c)
{
	if (c->shown)
		fputc('\n', stdout);
	c->shown = 0;
	client_quit(c);
}

/*
 * Use the input lines there are: at a prompt one line answers it; on a
 * terminal lines typed out of turn are answered too.  From a pipe, lines
 * wait for their prompt, but a quit is acted on as soon as it is the next
 * line, so that "quit" works at any time, in the queue too.  The end of
 * input with no line left is a quit.
 */
static void
client_input(struct client *c)
{
	char	line[CLIENT_KB_MAX + 1];
	size_t	len;
	int	quit;

	while (!c->done && !c->quitting) {
		if (!c->tty && c->prompt == CLIENT_PROMPT_NONE) {
			quit = client_kbquit(c);
			if (quit == 1 && client_kbline(c, line, &len))
				client_answer(c, line, len);
			else if (quit == -1 && c->in_eof)
				client_eof(c);
			return;
		}
		client_show(c);
		if (client_kbline(c, line, &len)) {
			client_answer(c, line, len);
			continue;
		}
		if (c->in_eof)
			client_eof(c);
		return;
	}
}

/* Wait for the socket or for input while there is room, and read it. */
static void
client_wait(struct client *c)
{
	struct pollfd	pfd[2];
	nfds_t		n = 0;
	int		sock = -1, in = -1;
	ssize_t		r;

	if (c->inlen < sizeof c->in) {
		pfd[n].fd = c->fd;
		pfd[n].events = POLLIN;
		sock = (int)n++;
	}
	if (!c->in_eof && !c->quitting && c->kblen < sizeof c->kb) {
		pfd[n].fd = STDIN_FILENO;
		pfd[n].events = POLLIN;
		in = (int)n++;
	}
	if (n == 0) {
		client_fail(c, "the server sent too much at once");
		return;
	}
	if (poll(pfd, n, -1) == -1) {
		if (errno != EINTR)
			client_fail(c, strerror(errno));
		return;
	}
	if (sock != -1 && pfd[sock].revents != 0) {
		r = recv(c->fd, c->in + c->inlen, sizeof c->in - c->inlen,
		    MSG_DONTWAIT);
		if (r > 0)
			c->inlen += (size_t)r;
		else if (r == 0 || (errno != EAGAIN && errno != EWOULDBLOCK &&
		    errno != EINTR))
			c->sock_eof = 1;
	}
	if (in != -1 && pfd[in].revents != 0) {
		r = read(STDIN_FILENO, c->kb + c->kblen,
		    sizeof c->kb - c->kblen);
		if (r > 0)
			c->kblen += (size_t)r;
		else if (r == 0 || (errno != EAGAIN && errno != EINTR))
			c->in_eof = 1;
	}
}

/*
 * Play on host:port with the options (no name: ask on a terminal, else
 * none) until the server says BYE.  Returns the exit status: 0 after BYE, 1
 * on failure with a one-line reason on stderr.
 */
int
client_run(const char *host, const char *port, const struct client_opts *opts)
{
	static struct client	c;
	char			why[RENDER_MAX];

	memset(&c, 0, sizeof c);
	c.fd = net_connect(host, port, CLIENT_CONNECT_MS, why, sizeof why);
	if (c.fd == -1) {
		fprintf(stderr, "ttt-client: %s\n", why);
		return (1);
	}
	c.tty = isatty(STDIN_FILENO);
	c.name = opts->name;
	c.view.mine = TTT_EMPTY;
	c.view.last = -1;
	c.view.colour = opts->colour;
	c.view.keys = opts->keys;
	memset(c.cells, '.', TTT_CELLS);
	for (;;) {
		client_server(&c);
		if (!c.done && c.sock_eof) {
			if (c.why == NULL)
				c.why = "connection to the server was lost";
			c.done = 1;
			c.status = 1;
		}
		if (!c.done)
			client_input(&c);
		if (c.done)
			break;
		if (client_ready(&c))
			continue;	/* e.g. lines held while the name was asked */
		client_show(&c);
		fflush(stdout);
		client_wait(&c);
	}
	if (c.shown)
		fputc('\n', stdout);
	fflush(stdout);
	if (c.status != 0)
		fprintf(stderr, "ttt-client: %s\n", c.why);
	close(c.fd);
	return (c.status);
}
