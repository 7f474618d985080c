/*
 * client-input.c -- what the client does with the player's lines.
 *
 * Input is read whenever there is room for it: one line answers one
 * prompt, and lines typed ahead wait in a buffer.  On a terminal, a line
 * typed out of turn is answered at once ("quit" quits, /say chats); from a
 * pipe it waits for the next prompt, unless it is a quit.  The end of
 * input with no line left is a quit, at any time.  A move is read in any
 * input style (keys.c) and always sent as MOVE <CELL>; the client's own
 * commands (/say, /resign, /games, /watch, /room, /join, /ai, /name,
 * /help: slash.c) work at every prompt but the name's, and so does "play
 * ai", which the server suggests to a player waiting alone.  From a pipe
 * the ones that work anywhere (all but /say and /resign) are acted on as
 * soon as they are the next line, like a quit, in the queue too.
 */
#include <stdio.h>
#include <string.h>

#include "client-account.h"
#include "client-input.h"
#include "edit.h"
#include "slash.h"

static int	client_kbline(struct client *, char *, size_t *);
static int	client_kbquit(struct client *, int);
static int	client_eof_waits(struct client *);
static void	client_name(struct client *, char *, size_t);
static void	client_slash(struct client *, const struct slash *);
static void	client_answer(struct client *, char *, size_t);

/*
 * Show the open question unless it is on screen already; on a terminal
 * it is the prompt of the player's line (none if no question is open).
 */
void
client_show(struct client *c)
{
	static const enum render_prompt	which[] = {
		[CLIENT_PROMPT_NAME] = RENDER_PROMPT_NAME,
		[CLIENT_PROMPT_MOVE] = RENDER_PROMPT_MOVE,
		[CLIENT_PROMPT_AGAIN] = RENDER_PROMPT_AGAIN
	};
	char				text[RENDER_MAX];

	if (c->edit) {
		text[0] = '\0';
		if (c->prompt != CLIENT_PROMPT_NONE)
			render_prompt(text, sizeof text, which[c->prompt],
			    &c->view);
		edit_prompt(text);
		return;
	}
	if (c->prompt == CLIENT_PROMPT_NONE || c->shown)
		return;
	render_prompt(text, sizeof text, which[c->prompt], &c->view);
	out_print(c, text);
	c->shown = 1;
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
 * Look at the next input line without taking it: 1 if it is a quit (or,
 * with slash_too, a slash command that works anywhere), 0 if not, -1 if no
 * whole line is there yet.
 */
static int
client_kbquit(struct client *c, int slash_too)
{
	struct proto_cmd	 cmd;
	struct slash		 sl;
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
	if (slash_too && slash_queued(slash_parse(p, n, &sl)))
		return (1);
	return (proto_parse(p, n, &cmd) == PROTO_OK && cmd.verb == PROTO_QUIT);
}

/*
 * Does the end of input wait for now?  Until the command of the player's
 * mode (--join, --resume, --watch, ...) has its answer: a refusal then
 * ends the client with its reason and status 1, as it would with input
 * open.  Before the greeting the command is still to be sent.  --watch
 * with its input not a terminal waits for the end of the match.
 */
static int
client_eof_waits(struct client *c)
{
	/* Signing in or registering: until it is done. */
	if (c->acct != CLIENT_ACCT_NONE && c->fd != -1 && !c->lost)
		return (1);
	if (c->opts->mode == CLIENT_MODE_QUEUE || c->lost || c->fd == -1)
		return (0);
	/* --watch from a pipe (or /dev/null): until the match is over. */
	if (c->opts->mode == CLIENT_MODE_WATCH && !c->tty && c->watching)
		return (1);
	return (!c->hello || c->await != PROTO_NONE);
}

/*
 * Answer the name question: empty for none, else a valid name.  Asked
 * again after a refusal, the answer is only sent: the mode has begun
 * already, and empty keeps the name the server gave.
 */
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
		out_note(c, RENDER_NOTE_BAD_NAME);
		return;
	}
	if (len == 0 && c->acct == CLIENT_ACCT_REGISTER) {
		out_note(c, RENDER_NOTE_NAME_TO_REGISTER);
		return;
	}
	c->prompt = CLIENT_PROMPT_NONE;
	if (len > 0)
		out_send(c, "NAME %s", line);
	c->naming = (len > 0);
	if (c->name_again) {
		c->name_again = 0;
		return;
	}
	c->named = (len > 0);
	client_account_begin(c);
}

/*
 * Act on one of the client's own commands.  A chat line leaves the open
 * question open; resigning closes it, since the game is over.  The others
 * leave it open too: the server's answer decides (OK, and what follows,
 * closes it; an ERR, such as IN_GAME in a game, leaves it open).
 */
static void
client_slash(struct client *c, const struct slash *sl)
{
	static const enum render_note	notes[] = {
		[SLASH_HELP] = RENDER_NOTE_SLASH_HELP,
		[SLASH_BAD_TEXT] = RENDER_NOTE_BAD_TEXT,
		[SLASH_BAD_GAME] = RENDER_NOTE_BAD_GAME,
		[SLASH_BAD_CODE] = RENDER_NOTE_BAD_CODE,
		[SLASH_BAD_LEVEL] = RENDER_NOTE_BAD_LEVEL,
		[SLASH_BAD_NAME] = RENDER_NOTE_BAD_NAME,
		[SLASH_UNKNOWN] = RENDER_NOTE_SLASH_UNKNOWN,
		[SLASH_BAD_RATING] = RENDER_NOTE_BAD_RATING,
		[SLASH_BAD_HISTORY] = RENDER_NOTE_BAD_HISTORY,
		[SLASH_BAD_TOP] = RENDER_NOTE_BAD_TOP,
	};
	static const char *const	verbs[] = {
		[SLASH_RATING] = "RATING",
		[SLASH_HISTORY] = "HISTORY",
		[SLASH_TOP] = "TOP",
	};

	switch (sl->kind) {
	case SLASH_SAY:
		out_send(c, "SAY %.*s", (int)sl->textlen, sl->text);
		break;
	case SLASH_RESIGN:
		out_send(c, "RESIGN");
		c->prompt = CLIENT_PROMPT_NONE;
		break;
	case SLASH_GAMES:
		out_send(c, "GAMES");
		break;
	case SLASH_WATCH:
		out_send(c, "WATCH %s", sl->arg);
		break;
	case SLASH_LEAVE:
		out_send(c, "UNWATCH");
		break;
	case SLASH_ROOM:
		c->view.joining = 0;
		out_send(c, "ROOM NEW");
		break;
	case SLASH_JOIN:
		c->view.joining = 1;
		out_send(c, "ROOM JOIN %s", sl->arg);
		break;
	case SLASH_AI:
		out_send(c, "PLAY AI%s%s", sl->arg[0] != '\0' ? " " : "",
		    sl->arg);
		break;
	case SLASH_NAME:
		c->renaming++;
		out_send(c, "NAME %s", sl->arg);
		break;
	case SLASH_RATING:
	case SLASH_HISTORY:
	case SLASH_TOP:
		out_send(c, "%s%s%s", verbs[sl->kind],
		    sl->arg[0] != '\0' ? " " : "", sl->arg);
		break;
	default:
		if ((unsigned)sl->kind < sizeof notes / sizeof notes[0] &&
		    sl->kind != SLASH_NONE)
			out_note(c, notes[sl->kind]);
		break;
	}
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
	struct slash		sl;
	enum proto_error	e;
	char			cell[3];
	int			n;

	if (!c->tty)
		printf("%s\n", line);	/* no terminal echoes a pipe */
	c->shown = 0;
	e = proto_parse(line, len, &cmd);
	if (e == PROTO_OK && cmd.verb == PROTO_QUIT) {
		out_quit(c);
		return;
	}
	if (c->prompt != CLIENT_PROMPT_NAME &&
	    slash_parse(line, len, &sl) != SLASH_NONE) {
		client_slash(c, &sl);
		return;
	}
	if (c->prompt != CLIENT_PROMPT_NAME && e == PROTO_OK &&
	    cmd.verb == PROTO_PLAY) {
		/* The server offers it to a player alone in the queue. */
		if (cmd.level == PROTO_LEVEL_QUEUE)
			out_send(c, "PLAY");
		else
			out_send(c, "PLAY AI %s", cmd.level ==
			    PROTO_LEVEL_EASY ? "easy" : "perfect");
		return;
	}
	switch (c->prompt) {
	case CLIENT_PROMPT_NONE:
		if (e != PROTO_OK || cmd.verb != PROTO_NONE)
			out_note(c, c->watching ? RENDER_NOTE_WATCHING :
			    RENDER_NOTE_NOT_YOUR_TURN);
		break;
	case CLIENT_PROMPT_NAME:
		client_name(c, line, len);
		break;
	case CLIENT_PROMPT_MOVE:
		if ((n = keys_move(line, len)) == -1) {
			if (e != PROTO_OK || cmd.verb != PROTO_MOVE) {
				out_note(c, RENDER_NOTE_BAD_MOVE);
				break;
			}
			n = cmd.cell;
		}
		ttt_cell_name(n, cell);
		out_send(c, "MOVE %s", cell);
		c->prompt = CLIENT_PROMPT_NONE;
		c->moving = 1;
		c->turn_held = 0;
		break;
	case CLIENT_PROMPT_AGAIN:
		if (e != PROTO_OK || cmd.verb != PROTO_AGAIN) {
			out_note(c, RENDER_NOTE_BAD_ANSWER);
			break;
		}
		out_send(c, "AGAIN %s", cmd.yes ? "y" : "n");
		c->prompt = CLIENT_PROMPT_NONE;
		break;
	}
}

/*
 * Use the input lines there are: at a prompt one line answers it; on a
 * terminal lines typed out of turn are answered too.  From a pipe, lines
 * wait for their prompt, but a quit is acted on as soon as it is the next
 * line, so that "quit" works at any time, in the queue too.  The same holds
 * on a terminal while the server has yet to answer the mode's command or
 * the connection is being made again, but for the name asked again then
 * (its answer goes after the command, and the server's lines wait for
 * it).  The end of input with no line left is a quit, once the mode's
 * command has its answer.
 */
void
client_input(struct client *c)
{
	char	line[CLIENT_KB_MAX + 1];
	size_t	len;
	int	quit;

	if (c->opts->mode == CLIENT_MODE_GAMES)
		return;		/* the list needs no input, not even its end */
	while (!c->done && !c->quitting) {
		if ((!c->tty && c->prompt == CLIENT_PROMPT_NONE) ||
		    (c->await != PROTO_NONE &&
		    c->prompt != CLIENT_PROMPT_NAME) ||
		    client_account_busy(c) || c->fd == -1) {
			quit = client_kbquit(c, c->await == PROTO_NONE &&
			    !client_account_busy(c) && c->fd != -1 && c->hello);
			if (quit == 1 && client_kbline(c, line, &len)) {
				client_answer(c, line, len);
				continue;
			} else if (quit == -1 && c->in_eof &&
			    !client_eof_waits(c))
				out_quit(c);
			return;
		}
		client_show(c);
		if (client_kbline(c, line, &len)) {
			client_answer(c, line, len);
			continue;
		}
		if (c->in_eof)
			out_quit(c);
		return;
	}
}
