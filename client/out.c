/*
 * out.c -- what every part of ttt-client calls: showing text (the line of
 * a prompt on screen ended first), sending a line to the server, starting
 * the player's mode, quitting, and failing with a reason for stderr.
 */
#include <sys/socket.h>
#include <sys/types.h>

#include <stdarg.h>
#include <stdio.h>

#include "edit.h"
#include "net.h"
#include "out.h"

/*
 * Show text, first ending the line of a prompt that is on screen; on a
 * terminal, above the player's line, which is drawn again below it.
 */
void
out_print(struct client *c, const char *text)
{
	if (*text == '\0')
		return;
	if (c->edit) {
		edit_hide();
		fputs(text, stdout);
		edit_show();
		return;
	}
	if (c->shown)
		fputc('\n', stdout);
	c->shown = 0;
	fputs(text, stdout);
}

/* Show one of the client's notes. */
void
out_note(struct client *c, enum render_note which)
{
	char	text[RENDER_MAX];

	render_note(text, sizeof text, which, &c->view);
	out_print(c, text);
}

/*
 * Send one command line; a failure shows up as the socket's end.  Nothing
 * is sent while there is no connection.
 */
void
out_send(struct client *c, const char *fmt, ...)
{
	char	line[PROTO_LINE_MAX + 2];
	va_list	ap;
	int	n;

	if (c->fd == -1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(line, sizeof line - 1, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof line - 1)
		return;
	line[n++] = '\n';
	if (net_send(c->fd, c->tls, line, (size_t)n, CLIENT_SEND_MS) == -1)
		shutdown(c->fd, SHUT_WR);
}

/*
 * Send the command that starts the player's mode, if any, and await its
 * reply.  --games leaves at once: its QUIT follows the list.
 */
void
out_begin(struct client *c)
{
	char	line[PROTO_LINE_MAX];

	c->await = args_command(c->opts, line, sizeof line);
	if (c->await == PROTO_NONE)
		return;
	out_send(c, "%s", line);
	if (c->opts->mode == CLIENT_MODE_GAMES)
		out_quit(c);
}

/*
 * Leave: end the line of a prompt on screen (the end of input brings no
 * newline), send QUIT and wait for the server's BYE.  Without a connection
 * (while reconnecting) there is nobody to tell: the client ends.
 */
void
out_quit(struct client *c)
{
	if (c->shown)
		fputc('\n', stdout);
	c->shown = 0;
	if (c->fd == -1) {
		out_fail(c, "connection to the server was lost");
		return;
	}
	out_send(c, "QUIT");
	c->quitting = 1;
	c->prompt = CLIENT_PROMPT_NONE;
}

/* End with a failure reason for stderr. */
void
out_fail(struct client *c, const char *why)
{
	if (why != c->whybuf)
		snprintf(c->whybuf, sizeof c->whybuf, "%s", why);
	c->why = c->whybuf;
	c->done = 1;
	c->status = 1;
}
