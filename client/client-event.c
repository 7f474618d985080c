/*
 * client-event.c -- what the client does with each server line: show it
 * (render.c), open or close a question, start the mode the player chose
 * (--room, --join, --ai, --watch, --games, --resume) once the greeting is
 * in, and keep the resume token of the match being played.
 *
 * A node of a cluster drained for an upgrade says BYE Server restarting
 * and closes: a player with a seat comes back with RESUME (client.c), and
 * one waiting in the public queue comes back to wait there again.
 */
#include <stdio.h>
#include <string.h>

#include "client-account.h"
#include "client-event.h"

static int	client_awaited(struct client *, const struct proto_event *);
static void	client_games(struct client *, const struct proto_event *);
static void	client_hello(struct client *);
static void	client_ok(struct client *, const struct proto_event *);
static void	client_event(struct client *, const struct proto_event *);
static int	client_closing_error(enum proto_error);
static int	client_text_is(const struct proto_event *, const char *);
static int	client_restart(struct client *, const struct proto_event *);
static void	client_requeued(struct client *);
static int	client_move_reply(const struct proto_event *);
static int	client_turn_held(struct client *, const struct proto_event *);
static int	client_naming(struct client *, const struct proto_event *);

/*
 * An error after which the server closes the connection.  (LINE_TOO_LONG
 * is not one: an over-long line is refused and the game goes on.)
 */
static int
client_closing_error(enum proto_error e)
{
	return (e == PROTO_ESERVER_FULL || e == PROTO_ETOO_MANY_CONNECTIONS ||
	    e == PROTO_ELINE_TIMEOUT);
}

/* Is the event's text exactly this? */
static int
client_text_is(const struct proto_event *ev, const char *text)
{
	return (ev->textlen == strlen(text) &&
	    memcmp(ev->text, text, ev->textlen) == 0);
}

/*
 * A BYE: 1 if it is a drained node's (BYE Server restarting) and the
 * client comes back (reconnection on, no quit sent): with a seat to take
 * back, or from the public queue (requeue), where no RESUME is needed.
 * The close that follows is then a lost connection (client_lost).
 */
static int
client_restart(struct client *c, const struct proto_event *ev)
{
	if (!c->opts->reconnect || c->quitting ||
	    !client_text_is(ev, PROTO_BYE_RESTART))
		return (0);
	if (c->token[0] != '\0')
		return (1);
	if (!c->queued || c->watching)
		return (0);
	c->requeue = 1;
	return (1);
}

/* Is this INFO the end of the watched match: "Game <id> is over."? */
static int
client_watch_over(const struct proto_event *ev)
{
	static const char	head[] = "Game ", tail[] = " is over.";
	size_t			i, h = sizeof head - 1, t = sizeof tail - 1;

	if (ev->kind != PROTO_EV_INFO || ev->textlen <= h + t ||
	    memcmp(ev->text, head, h) != 0 ||
	    memcmp(ev->text + ev->textlen - t, tail, t) != 0)
		return (0);
	for (i = h; i < ev->textlen - t; i++) {
		if (ev->text[i] < '0' || ev->text[i] > '9')
			return (0);
	}
	return (1);
}

/*
 * The greeting of a connection made again to wait in the queue: the
 * server has put the player there already; its account or name is told
 * again.
 */
static void
client_requeued(struct client *c)
{
	c->requeue = 0;
	c->lost = 0;
	client_account_requeue(c);
}

/*
 * Is this the reply a MOVE gets: OK MOVE, or one of the errors a MOVE can
 * get?  Every line has one reply, in order, so while a MOVE is unanswered
 * the first such line answers it.
 */
static int
client_move_reply(const struct proto_event *ev)
{
	if (ev->kind == PROTO_EV_OK)
		return (ev->verb == PROTO_MOVE);
	if (ev->kind != PROTO_EV_ERR)
		return (0);
	switch (ev->error) {
	case PROTO_EBAD_CELL:
	case PROTO_ENO_GAME:
	case PROTO_ENOT_YOUR_TURN:
	case PROTO_ETAKEN:
	case PROTO_ERATE_LIMITED:
		return (1);
	default:
		return (0);
	}
}

/*
 * A TURN of the player's own while its MOVE is unanswered is not a new
 * turn: when a cluster's node dies, the node that takes its match up shows
 * a player still connected where the match stands (MATCH, BOARD, TURN)
 * and then runs the lines it sent meanwhile, that MOVE among them
 * (protocol.md §11).  Such a TURN is held: neither shown nor a prompt, so
 * that the next line typed ahead is not sent as a second MOVE.  The MOVE's
 * reply says what comes next; if it is an ERR, the move is asked for
 * again, since the held TURN said it is the player's.  1 if held.
 */
static int
client_turn_held(struct client *c, const struct proto_event *ev)
{
	if (ev->kind != PROTO_EV_TURN || !c->moving ||
	    c->view.mine == TTT_EMPTY || ev->mark != c->view.mine)
		return (0);
	c->turn_held = 1;
	return (1);
}

/*
 * The reply to the NAME of the start on a terminal (the name asked, or
 * --name; then the one asked again): that NAME went before any /name and
 * before the mode's command, and every line has one reply, in order, so
 * the first reply a NAME can get is its.  A refusal (NAME_TAKEN, BAD_NAME)
 * is shown; then, while the player only waits (no question open, no
 * match shown), the name is asked again, holding the server's lines as at
 * the start; otherwise the open question is left alone and the player is
 * told how to choose another name.  1 if the line was dealt with here.
 */
static int
client_naming(struct client *c, const struct proto_event *ev)
{
	char	text[RENDER_MAX];

	if (!c->naming)
		return (0);
	if (ev->kind == PROTO_EV_OK && ev->verb == PROTO_NAME)
		c->naming = 0;		/* taken: client_ok goes on */
	if (ev->kind != PROTO_EV_ERR || (ev->error != PROTO_ENAME_TAKEN &&
	    ev->error != PROTO_EBAD_NAME))
		return (0);
	c->naming = 0;
	if (c->quitting)
		return (0);
	render_event(text, sizeof text, ev, &c->view);
	out_print(c, text);
	if (c->prompt == CLIENT_PROMPT_NONE && c->view.mine == TTT_EMPTY &&
	    !c->watching) {
		c->prompt = CLIENT_PROMPT_NAME;
		c->name_again = 1;
	} else
		out_note(c, RENDER_NOTE_NAME_REFUSED);
	return (1);
}

/*
 * While a reply is awaited: 1 if the line goes on to be shown and acted
 * on, 0 if it has been dealt with here.  The awaited OK ends the wait; an
 * ERR refuses the command and ends the client; the lines of a pairing
 * made before the command took effect are passed over.
 */
static int
client_awaited(struct client *c, const struct proto_event *ev)
{
	char	why[RENDER_MAX];

	switch (ev->kind) {
	case PROTO_EV_HELLO:
		return (!c->lost);	/* a reconnection's is not shown */
	case PROTO_EV_BYE:
		return (1);
	case PROTO_EV_OK:
		if (ev->verb != c->await)
			return (0);
		c->await = PROTO_NONE;
		if (ev->verb == PROTO_WATCH)
			c->watching = 1;
		else if (ev->verb == PROTO_RESUME)
			c->lost = 0;
		return (1);
	case PROTO_EV_ERR:
		if (client_closing_error(ev->error))
			return (1);	/* the server closes; said on stderr */
		render_refusal(why, sizeof why, c->await,
		    c->lost ? "" : c->opts->arg, ev);
		out_fail(c, why);
		return (0);
	default:
		return (0);
	}
}

/*
 * --games: the greeting starts the list, which is shown with the line
 * that may follow it (INFO <k> more matches not listed); the rest is not
 * the player's business, and BYE ends the client quietly.
 */
static void
client_games(struct client *c, const struct proto_event *ev)
{
	char	text[RENDER_MAX];
	int	show = 0, end = 0;

	switch (ev->kind) {
	case PROTO_EV_HELLO:
		out_begin(c);
		break;
	case PROTO_EV_OK:
		show = (ev->verb == PROTO_GAMES);
		if (show)
			c->games = ev->number > 100 ? 100 : (int)ev->number;
		break;
	case PROTO_EV_GAME:
		show = (c->games > 0);
		end = (c->games == 1);
		if (c->games > 0)
			c->games--;
		break;
	case PROTO_EV_INFO:
		show = c->games_end;
		break;
	case PROTO_EV_BYE:
		c->done = 1;
		c->status = 0;
		break;
	default:
		break;
	}
	c->games_end = end;
	if (show) {
		render_event(text, sizeof text, ev, &c->view);
		out_print(c, text);
	}
}

/*
 * The greeting: sign in, or the name (or the name question), then the
 * mode's command (client-account.c).
 */
static void
client_hello(struct client *c)
{
	if (c->quitting)
		return;		/* quit was piped in before HELLO */
	client_account_hello(c);
}

/*
 * An OK to a command that starts something new (a slash command's, or the
 * mode's): what the player was doing is over, with its question and seat;
 * a new name is told.
 */
static void
client_ok(struct client *c, const struct proto_event *ev)
{
	char	text[RENDER_MAX];

	switch (ev->verb) {
	case PROTO_WATCH:
	case PROTO_ROOM:
	case PROTO_PLAY:
		c->watching = (ev->verb == PROTO_WATCH);
		c->queued = 0;
		c->prompt = CLIENT_PROMPT_NONE;
		c->token[0] = '\0';
		c->view.mine = TTT_EMPTY;
		break;
	case PROTO_UNWATCH:
		c->watching = 0;
		break;
	case PROTO_NAME:
		snprintf(c->name, sizeof c->name, "%s", ev->name);
		if (c->renaming > 0) {
			render_renamed(text, sizeof text, ev->name);
			out_print(c, text);
			c->renaming--;
		}
		break;
	default:
		break;
	}
}

/* Act on one server event: show it, then open or close a question. */
static void
client_event(struct client *c, const struct proto_event *ev)
{
	char	text[RENDER_MAX];
	int	again_yes = c->again_yes, held = 0;

	c->again_yes = 0;
	if (ev->kind == PROTO_EV_HELLO && ev->version != PROTO_VERSION) {
		snprintf(text, sizeof text, "the server speaks protocol tttd/%d; this client speaks tttd/%d",
		    ev->version,
		    PROTO_VERSION);
		out_fail(c, text);
		return;
	}
	if (client_account_event(c, ev))
		return;
	if (client_naming(c, ev))
		return;
	if (c->await != PROTO_NONE && !client_awaited(c, ev))
		return;
	if (ev->kind == PROTO_EV_HELLO && c->requeue) {
		client_requeued(c);	/* not shown again */
		return;
	}
	if (c->opts->mode == CLIENT_MODE_GAMES) {
		client_games(c, ev);
		return;
	}
	if (c->watching && ev->kind == PROTO_EV_WAIT &&
	    c->opts->mode == CLIENT_MODE_WATCH) {
		/* Back in the queue (a server before 2026-11-28). */
		out_quit(c);
		return;
	}
	if (c->watching && client_watch_over(ev)) {
		/* Watching no more, placed nowhere: --watch is done. */
		c->watching = 0;
		if (c->opts->mode == CLIENT_MODE_WATCH) {
			render_event(text, sizeof text, ev, &c->view);
			out_print(c, text);
			out_quit(c);
			return;
		}
	}
	if (c->quitting &&
	    (ev->kind == PROTO_EV_TURN || ev->kind == PROTO_EV_AGAINQ))
		return;
	if (client_turn_held(c, ev))
		return;
	if (c->moving && client_move_reply(ev)) {
		held = c->turn_held;
		c->moving = c->turn_held = 0;
	}
	if (ev->kind == PROTO_EV_MATCH) {
		c->view.mine = ev->mark;
		c->queued = 0;
	}
	if (ev->kind == PROTO_EV_BOARD) {
		c->view.last = render_last(c->cells, ev->cells, c->view.last);
		memcpy(c->cells, ev->cells, sizeof c->cells);
	}
	render_event(text, sizeof text, ev, &c->view);
	if (ev->kind == PROTO_EV_ERR && client_closing_error(ev->error)) {
		/* The server closes next: say why on stderr, not here. */
		text[strcspn(text, "\n")] = '\0';
		snprintf(c->whybuf, sizeof c->whybuf, "%s", text);
		c->why = c->whybuf;
		return;
	}
	/* On a terminal a question is the player's line's prompt. */
	if (!c->edit || !((ev->kind == PROTO_EV_TURN &&
	    c->view.mine != TTT_EMPTY && ev->mark == c->view.mine) ||
	    ev->kind == PROTO_EV_AGAINQ))
		out_print(c, text);

	switch (ev->kind) {
	case PROTO_EV_HELLO:
		c->hello = 1;
		client_hello(c);
		break;
	case PROTO_EV_TURN:
		c->prompt = CLIENT_PROMPT_NONE;
		if (c->view.mine != TTT_EMPTY && ev->mark == c->view.mine) {
			c->prompt = CLIENT_PROMPT_MOVE;
			c->shown = !c->edit;
		}
		break;
	case PROTO_EV_AGAINQ:
		c->prompt = CLIENT_PROMPT_AGAIN;
		c->shown = !c->edit;
		break;
	case PROTO_EV_MATCH:
	case PROTO_EV_START:
	case PROTO_EV_RESULT:
		c->prompt = CLIENT_PROMPT_NONE;
		c->turn_held = 0;	/* that turn is over */
		break;
	case PROTO_EV_TOKEN:
		memcpy(c->token, ev->code, sizeof c->token);
		break;
	case PROTO_EV_WAIT:
		/*
		 * Waiting for the opponent's answer keeps the seat; any other
		 * wait is in the queue or a room, where no seat is kept (a
		 * yes after the opponent left is "Waiting for an opponent").
		 */
		c->queued = client_text_is(ev, PROTO_WAIT_QUEUED);
		if (!again_yes || c->queued)
			c->token[0] = '\0';
		break;
	case PROTO_EV_OK:
		c->again_yes = (ev->verb == PROTO_AGAIN && ev->yes == 1);
		client_ok(c, ev);
		break;
	case PROTO_EV_ERR:
		if (c->renaming > 0 && (ev->error == PROTO_EBAD_NAME ||
		    ev->error == PROTO_ENAME_TAKEN))
			c->renaming--;
		/*
		 * A rejected move or answer is asked for again; after a held
		 * TURN, any refusal of the move.
		 */
		if (c->quitting)
			break;
		if (ev->error == PROTO_ETAKEN || ev->error == PROTO_EBAD_CELL ||
		    held)
			c->prompt = CLIENT_PROMPT_MOVE;
		else if (ev->error == PROTO_EBAD_ANSWER)
			c->prompt = CLIENT_PROMPT_AGAIN;
		break;
	case PROTO_EV_BYE:
		/* A node drained for an upgrade: the seat goes on elsewhere. */
		if (client_restart(c, ev))
			break;
		c->done = 1;
		c->status = 0;
		break;
	default:
		break;
	}
}

/* Are there whole server lines to act on now (none while a name is asked)? */
int
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
void
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
		out_fail(c, "the server sent an overlong line");
}
