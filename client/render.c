/*
 * render.c -- the text ttt-client shows: the board in the seed layout,
 * server events in words, prompts and notes.  Server text and names are
 * shown as they come, printable ASCII and valid UTF-8 (names and chat may
 * be in any script), with every other byte, control characters (C0, DEL,
 * C1) and malformed UTF-8 each replaced by '?': nothing from the network
 * reaches the terminal as an escape.
 *
 * With colour on, X and O are drawn in two colours and the last move in
 * bold reverse video (ANSI SGR sequences, which every terminal emulator in
 * use understands); with colour off the text is plain ASCII.  On a board
 * with a winning line (the rules engine's ttt_line_of) its three cells are
 * in bold reverse video, or, with colour off, in brackets: "[X]".  The key
 * map of the keypad and digits styles is drawn beside the board.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "render.h"
#include "utf8.h"

/* A buffer being filled with snprintf semantics. */
struct render_out {
	char	*buf;
	size_t	 size;
	size_t	 len;		/* what the text needs so far */
};

#define RENDER_SGR_X		"\033[31m"	/* red */
#define RENDER_SGR_O		"\033[36m"	/* cyan */
#define RENDER_SGR_X_LAST	"\033[1;7;31m"	/* bold, reverse, red */
#define RENDER_SGR_O_LAST	"\033[1;7;36m"	/* bold, reverse, cyan */
#define RENDER_SGR_RESET	"\033[0m"

static const struct render_view render_plain = {
	TTT_EMPTY, -1, 0, KEYS_CELLS, 0, 0, NULL, NULL
};

/* The move prompt and the bad move note are the input style's own. */
static const char *render_prompts[] = {
	[RENDER_PROMPT_NAME] = "Enter your name: ",
	[RENDER_PROMPT_MOVE] = NULL,
	[RENDER_PROMPT_AGAIN] = "Play again? (y/n) or 'quit' to exit: ",
};

static const char *render_move_prompts[] = {
	[KEYS_CELLS] = "Enter your move (A1, B2, C3) or 'quit' to exit: ",
	[KEYS_KEYPAD] = "Enter your move (q, s, c) or 'quit' to exit: ",
	[KEYS_DIGITS] = "Enter your move (row and column, e.g. 1 3) or 'quit' to exit: ",
};

/* Notes that say what the server would: its error's text. */
static const enum proto_error render_note_errors[] = {
	[RENDER_NOTE_BAD_ANSWER] = PROTO_EBAD_ANSWER,
	[RENDER_NOTE_BAD_NAME] = PROTO_EBAD_NAME,
	[RENDER_NOTE_BAD_TEXT] = PROTO_EBAD_TEXT,
};

static const char *render_notes[] = {
	[RENDER_NOTE_NOT_YOUR_TURN] = "Please wait for your turn.",
	[RENDER_NOTE_SLASH_HELP] = "Commands, in the queue or in a match:\n"
	    "  /say TEXT           send TEXT to your opponent\n"
	    "  /resign             give up the game\n"
	    "  /games              list the games being played\n"
	    "  /watch N            watch game N (/leave stops)\n"
	    "  /room               make a private room for a friend\n"
	    "  /join CODE          play in a friend's room\n"
	    "  /ai [easy|perfect]  play the computer\n"
	    "  /name NAME          change your name\n"
	    "  /rating [NAME]      your rating, or NAME's\n"
	    "  /history [NAME] [N] your last N rated games (10), or NAME's\n"
	    "  /top [N]            the N best players (10)\n"
	    "  /help               this list; quit leaves",
	[RENDER_NOTE_SLASH_UNKNOWN] =
	    "Unknown command. Type /help for the list.",
	[RENDER_NOTE_WATCHING] = "You are watching; type 'quit' to leave.",
	[RENDER_NOTE_LOST] =
	    "The connection to the server was lost; reconnecting...",
	[RENDER_NOTE_BAD_GAME] =
	    "Use /watch N, with a game number from /games.",
	[RENDER_NOTE_BAD_CODE] =
	    "Use /join CODE, with your friend's room code, such as K7QX-2M9P.",
	[RENDER_NOTE_BAD_LEVEL] = "Use /ai, /ai easy or /ai perfect.",
	[RENDER_NOTE_BAD_RATING] = "Use /rating, or /rating NAME.",
	[RENDER_NOTE_BAD_HISTORY] =
	    "Use /history [NAME] [N], with N from 1 to 100, such as /history alice 20.",
	[RENDER_NOTE_BAD_TOP] = "Use /top [N], with N from 1 to 100.",
	[RENDER_NOTE_NAME_TO_REGISTER] = "Type the name to register.",
	[RENDER_NOTE_NAME_REFUSED] = "Type /name NAME to choose another.",
};

/*
 * Server errors told in the client's words where the server's speak of
 * its commands (the client's are /resign and quit).
 */
static const char *render_errors[] = {
	[PROTO_EIN_GAME] =
	    "You are in a game; finish it, /resign or quit first.",
};

static const char *render_move_notes[] = {
	[KEYS_CELLS] = NULL,		/* the server's BAD_CELL text */
	[KEYS_KEYPAD] = "Invalid input. Accepted keys: q w e, a s d, z x c.",
	[KEYS_DIGITS] = "Invalid input. Type a row and a column from 1 to 3, e.g. 1 3 or 13.",
};

static void	render_init(struct render_out *, char *, size_t);
static void	render_char(struct render_out *, char);
static void	render_add(struct render_out *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));
static size_t	render_utf8(const unsigned char *, size_t);
static void	render_safe(struct render_out *, const char *, size_t);
static size_t	render_width(const char *);
static void	render_text(struct render_out *, const char *, size_t,
		    const char *);
static int	render_done(struct render_out *);
static void	render_mark(struct render_out *, char, int,
		    const struct render_view *);
static void	render_keymap(struct render_out *, size_t,
		    const struct render_view *);
static enum keys_style render_style(const struct render_view *);
static const char *render_question(enum render_prompt,
		    const struct render_view *);
static void	render_result(struct render_out *, const struct proto_event *);
static void	render_ok(struct render_out *, const struct proto_event *,
		    const struct render_view *);
static void	render_server(struct render_out *, const struct render_view *);
static void	render_token(struct render_out *, const struct proto_event *,
		    const struct render_view *);

/* Start filling a caller's buffer. */
static void
render_init(struct render_out *o, char *buf, size_t size)
{
	o->buf = buf;
	o->size = size;
	o->len = 0;
	if (size > 0)
		buf[0] = '\0';
}

/* Append one byte, keeping room for the NUL. */
static void
render_char(struct render_out *o, char c)
{
	if (o->len + 1 < o->size) {
		o->buf[o->len] = c;
		o->buf[o->len + 1] = '\0';
	}
	o->len++;
}

/* Append formatted text. */
static void
render_add(struct render_out *o, const char *fmt, ...)
{
	char	tmp[RENDER_MAX];
	va_list	ap;
	int	n, i;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	for (i = 0; i < n && (size_t)i < sizeof tmp - 1; i++)
		render_char(o, tmp[i]);
}

/*
 * The length of the one printable character at s (len bytes left): 1 for
 * printable ASCII, 2 to 4 for well-formed UTF-8 (proto's decoder: no
 * overlong form, no surrogate, at most U+10FFFF) of a character that is
 * not a C1 control; 0 for anything else.
 */
static size_t
render_utf8(const unsigned char *s, size_t len)
{
	uint32_t	cp;
	size_t		n = utf8_decode((const char *)s, len, &cp);

	if (n == 0 || cp < 0x20 || (cp >= 0x7f && cp < 0xa0))
		return (0);
	return (n);
}

/*
 * Append text from the network as it is, but every byte that does not
 * begin a printable character (render_utf8) as '?'.
 */
static void
render_safe(struct render_out *o, const char *text, size_t len)
{
	const unsigned char	*s = (const unsigned char *)text;
	size_t			 i, n, k;

	for (i = 0; i < len; i += n) {
		n = render_utf8(s + i, len - i);
		if (n == 0) {
			render_char(o, '?');
			n = 1;
			continue;
		}
		for (k = 0; k < n; k++)
			render_char(o, text[i + k]);
	}
}

/*
 * How many characters the text takes on screen as render_safe shows it: a
 * UTF-8 sequence is one, like a byte shown as '?'.
 */
static size_t
render_width(const char *text)
{
	const unsigned char	*s = (const unsigned char *)text;
	size_t			 i, n, len = strlen(text), w = 0;

	for (i = 0; i < len; i += n, w++) {
		if ((n = render_utf8(s + i, len - i)) == 0)
			n = 1;
	}
	return (w);
}

/*
 * Append server text and a newline, made printable; the fallback stands in
 * when the server sent no text, and nothing is added if there is neither.
 */
static void
render_text(struct render_out *o, const char *text, size_t len,
    const char *fallback)
{
	if (len == 0) {
		if (fallback != NULL)
			render_add(o, "%s\n", fallback);
		return;
	}
	render_safe(o, text, len);
	render_char(o, '\n');
}

/* The length the text needed. */
static int
render_done(struct render_out *o)
{
	return ((int)o->len);
}

/* One mark, coloured and, if it is the last move, highlighted. */
static void
render_mark(struct render_out *o, char mark, int last,
    const struct render_view *v)
{
	const char	*sgr;

	if (!v->colour || (mark != 'X' && mark != 'O')) {
		render_char(o, mark);
		return;
	}
	if (mark == 'X')
		sgr = last ? RENDER_SGR_X_LAST : RENDER_SGR_X;
	else
		sgr = last ? RENDER_SGR_O_LAST : RENDER_SGR_O;
	render_add(o, "%s%c%s", sgr, mark, RENDER_SGR_RESET);
}

/* One row of the key map beside the board: "q w e", "11 12 13". */
static void
render_keymap(struct render_out *o, size_t row, const struct render_view *v)
{
	char	label[8];
	int	col;

	if (render_style(v) == KEYS_CELLS)
		return;		/* the board's own labels are the map */
	render_add(o, "  ");
	for (col = 0; col < 3; col++) {
		keys_label(label, sizeof label, v->keys, (int)row * 3 + col);
		render_add(o, " %s", label);
	}
}

/* The view's input style; cells if it is out of range. */
static enum keys_style
render_style(const struct render_view *v)
{
	return ((unsigned)v->keys < KEYS_NSTYLES ? v->keys : KEYS_CELLS);
}

/* The text of a question; "" for an unknown one. */
static const char *
render_question(enum render_prompt which, const struct render_view *v)
{
	if (which == RENDER_PROMPT_MOVE)
		return (render_move_prompts[render_style(v)]);
	if ((unsigned)which >= sizeof render_prompts / sizeof render_prompts[0])
		return ("");
	return (render_prompts[which]);
}

/* RESULT: the server's words, e.g. "p1 wins! better luck next time p2!". */
static void
render_result(struct render_out *o, const struct proto_event *ev)
{
	if (ev->textlen == 0 && ev->result != PROTO_RESULT_TIE) {
		render_safe(o, ev->name, strlen(ev->name));
		render_add(o, " wins!\n");
		return;
	}
	render_text(o, ev->text, ev->textlen, "It's a tie!");
}

/*
 * The OK replies that tell the player something, by argument shape: a room's
 * code, the games' count, the computer's level, a seat taken back with a
 * token.  The others say nothing; the lines after them do.
 */
static void
render_ok(struct render_out *o, const struct proto_event *ev,
    const struct render_view *v)
{
	switch (proto_verb_info(ev->verb)->args) {
	case PROTO_ARGS_ROOM:
		if (v->joining)
			render_add(o, "You joined room %s.\n", ev->code);
		else {
			render_add(o, "Your room code is %s -- give it to your friend.\n"
			    "They join with: ttt-client --join %s",
			    ev->code, ev->code);
			render_server(o, v);
			render_char(o, '\n');
		}
		break;
	case PROTO_ARGS_COUNT:
		if (ev->number == 0)
			render_add(o, "No games are being played.\n");
		else if (ev->number == 1)
			render_add(o, "1 game is being played:\n");
		else
			render_add(o, "%llu games are being played:\n",
			    ev->number);
		break;
	case PROTO_ARGS_LEVEL:
		if (ev->level == PROTO_LEVEL_QUEUE)
			break;		/* WAIT says it */
		render_add(o, "You play the computer (%s).\n",
		    ev->level == PROTO_LEVEL_EASY ? "easy" : "perfect");
		break;
	case PROTO_ARGS_TOKEN:
		render_add(o, "You have your seat back.\n");
		break;
	default:
		break;
	}
}

/* " HOST PORT" of the view's server, for a command to run. */
static void
render_server(struct render_out *o, const struct render_view *v)
{
	const char	*host = v->host != NULL ? v->host : "HOST";
	const char	*port = v->port != NULL ? v->port : "PORT";

	render_char(o, ' ');
	render_safe(o, host, strlen(host));
	render_char(o, ' ');
	render_safe(o, port, strlen(port));
}

/*
 * TOKEN: how to get the seat back, in the client's words (the server's
 * speak of its RESUME command): a client that reconnects by itself says
 * so, and either way the command line that takes the seat back from a new
 * client, on a line of its own so that an 80-column screen does not break
 * it.
 */
static void
render_token(struct render_out *o, const struct proto_event *ev,
    const struct render_view *v)
{
	if (v->reconnect)
		render_add(o, "If you lose the connection, the client reconnects by itself; or run:\n");
	else
		render_add(o, "If you lose the connection, take your seat back with:\n");
	render_add(o, "  ttt-client --resume %s", ev->code);
	render_server(o, v);
	render_char(o, '\n');
}

/*
 * Draw the board from BOARD's cells (row-major A1 B1 C1 A2 ... C3): the
 * seed layout, as in the server's board art, with the view's colours and
 * key map.  A cell other than X or O, or past the end of a short string, is
 * drawn empty.
 */
int
render_board(char *buf, size_t size, const char *cells,
    const struct render_view *v)
{
	struct render_out	o;
	char			c[TTT_CELLS];
	size_t			i, j, n, k;
	uint16_t		x = 0, oh = 0, line;
	int			win;

	if (v == NULL)
		v = &render_plain;
	n = (cells == NULL) ? 0 : strnlen(cells, TTT_CELLS);
	for (i = 0; i < TTT_CELLS; i++) {
		c[i] = ' ';
		if (i < n && (cells[i] == 'X' || cells[i] == 'O'))
			c[i] = cells[i];
		if (c[i] == 'X')
			x |= (uint16_t)(1u << i);
		else if (c[i] == 'O')
			oh |= (uint16_t)(1u << i);
	}
	/* A finished game's winning line, by the rules engine. */
	if ((line = ttt_line_of(x)) == 0)
		line = ttt_line_of(oh);
	render_init(&o, buf, size);
	render_add(&o, "      A   B   C\n");
	for (i = 0; i < 3; i++) {
		if (i > 0)
			render_add(&o, "     ---+---+---\n");
		render_add(&o, "  %zu  ", i + 1);
		for (j = 0; j < 3; j++) {
			k = i * 3 + j;
			win = (line >> k) & 1;
			if (j > 0)
				render_char(&o, '|');
			render_char(&o, win && !v->colour ? '[' : ' ');
			render_mark(&o, c[k], win || v->last == (int)k, v);
			if (win && !v->colour)
				render_char(&o, ']');
			else if (j < 2)
				render_char(&o, ' ');
		}
		render_keymap(&o, i, v);
		render_char(&o, '\n');
	}
	return (render_done(&o));
}

/*
 * Turn one server event into what the player sees in the view (NULL: the
 * plain one).  TURN for the player and AGAIN? become their prompts; lines
 * for people, unknown lines and most OK replies show nothing, since the
 * client draws the board itself.
 */
int
render_event(char *buf, size_t size, const struct proto_event *ev,
    const struct render_view *v)
{
	struct render_out	o;
	char			board[RENDER_MAX];
	size_t			w;

	if (v == NULL)
		v = &render_plain;
	render_init(&o, buf, size);
	switch (ev->kind) {
	case PROTO_EV_HELLO:
		render_text(&o, ev->text, ev->textlen,
		    "Welcome to Tic Tac Toe, Ready for a game?");
		render_add(&o, "Type 'quit' at any time to exit.\n");
		break;
	case PROTO_EV_MATCH:
		render_add(&o, "You are ");
		render_mark(&o, ttt_mark_char(ev->mark), 0, v);
		render_add(&o, ", playing against ");
		render_safe(&o, ev->name, strlen(ev->name));
		render_add(&o, ".\n");
		break;
	case PROTO_EV_BOARD:
		render_board(board, sizeof board, ev->cells, v);
		render_add(&o, "\n%s\n", board);
		break;
	case PROTO_EV_TURN:
		if (v->mine != TTT_EMPTY && ev->mark == v->mine)
			render_add(&o, "%s",
			    render_question(RENDER_PROMPT_MOVE, v));
		else
			render_text(&o, ev->text, ev->textlen, NULL);
		break;
	case PROTO_EV_RESULT:
		render_result(&o, ev);
		break;
	case PROTO_EV_AGAINQ:
		render_add(&o, "%s", render_question(RENDER_PROMPT_AGAIN, v));
		break;
	case PROTO_EV_BYE:
		render_text(&o, ev->text, ev->textlen, "Goodbye.");
		break;
	case PROTO_EV_ERR:
		if ((unsigned)ev->error < sizeof render_errors /
		    sizeof render_errors[0] && render_errors[ev->error] != NULL)
			render_add(&o, "%s\n", render_errors[ev->error]);
		else
			render_text(&o, ev->text, ev->textlen,
			    ev->error < PROTO_NERRORS ?
			    proto_error_text(ev->error) :
			    "The server reported an error.");
		break;
	case PROTO_EV_WAIT:
	case PROTO_EV_START:
	case PROTO_EV_INFO:
		render_text(&o, ev->text, ev->textlen, NULL);
		break;
	case PROTO_EV_OK:
		if (render_account(board, sizeof board, ev) > 0)
			render_add(&o, "%s", board);
		else
			render_ok(&o, ev, v);
		break;
	case PROTO_EV_PLAYED:
	case PROTO_EV_RANKED:
		render_account(board, sizeof board, ev);
		render_add(&o, "%s", board);
		break;
	case PROTO_EV_CHAT:
		render_safe(&o, ev->name, strlen(ev->name));
		render_add(&o, ": ");
		render_text(&o, ev->text, ev->textlen, "");
		break;
	case PROTO_EV_TOKEN:
		render_token(&o, ev, v);
		break;
	case PROTO_EV_GAME:
		/* "against" in one column whatever X's name, in characters. */
		render_add(&o, "  %llu: ", ev->number);
		render_safe(&o, ev->name, strlen(ev->name));
		w = render_width(ev->name);
		render_add(&o, " (X)%*s against ",
		    w < PROTO_NAME_CHARS ? (int)(PROTO_NAME_CHARS - w) : 0, "");
		render_safe(&o, ev->name2, strlen(ev->name2));
		render_add(&o, " (O), %d move%s", ev->moves,
		    ev->moves == 1 ? "" : "s");
		/* Seats held for players whose connection was lost. */
		if (ev->away & 1) {
			render_add(&o, ", ");
			render_safe(&o, ev->name, strlen(ev->name));
			render_add(&o, "%s", ev->away & 2 ? " and " : " away");
		}
		if (ev->away & 2) {
			render_add(&o, "%s", ev->away & 1 ? "" : ", ");
			render_safe(&o, ev->name2, strlen(ev->name2));
			render_add(&o, " away");
		}
		render_add(&o, "\n");
		break;
	default:
		break;
	}
	return (render_done(&o));
}

/* One of the client's questions, as the view asks it. */
int
render_prompt(char *buf, size_t size, enum render_prompt which,
    const struct render_view *v)
{
	struct render_out	o;

	if (v == NULL)
		v = &render_plain;
	render_init(&o, buf, size);
	render_add(&o, "%s", render_question(which, v));
	return (render_done(&o));
}

/* One of the client's notes, with its newline; a bad move's in the style. */
int
render_note(char *buf, size_t size, enum render_note which,
    const struct render_view *v)
{
	struct render_out	o;

	if (v == NULL)
		v = &render_plain;
	render_init(&o, buf, size);
	if (which == RENDER_NOTE_BAD_MOVE)
		render_add(&o, "%s\n", render_style(v) == KEYS_CELLS ?
		    proto_error_text(PROTO_EBAD_CELL) :
		    render_move_notes[render_style(v)]);
	else if ((unsigned)which < sizeof render_note_errors /
	    sizeof render_note_errors[0] && render_note_errors[which] != PROTO_OK)
		render_add(&o, "%s\n", proto_error_text(render_note_errors[which]));
	else if ((unsigned)which < sizeof render_notes / sizeof render_notes[0])
		render_add(&o, "%s\n", render_notes[which]);
	return (render_done(&o));
}

/* What the player sees when the server takes a new name (/name). */
int
render_renamed(char *buf, size_t size, const char *name)
{
	struct render_out	o;

	render_init(&o, buf, size);
	render_add(&o, "You are now called ");
	render_safe(&o, name, strlen(name));
	render_add(&o, ".\n");
	return (render_done(&o));
}

/*
 * The cell to highlight on a new board, given the previous board and its
 * highlighted cell: the one square filled since then; the same cell if the
 * board has not changed (it was only drawn again); otherwise -1 (a new
 * game, or boards that do not follow each other).
 */
int
render_last(const char *prev, const char *cells, int last)
{
	int	i, filled = 0, cell = -1, was, is;

	for (i = 0; i < TTT_CELLS; i++) {
		was = prev != NULL && (prev[i] == 'X' || prev[i] == 'O');
		is = cells != NULL && (cells[i] == 'X' || cells[i] == 'O');
		if (was && (!is || prev[i] != cells[i]))
			return (-1);
		if (!was && is) {
			filled++;
			cell = i;
		}
		if ((prev != NULL && prev[i] == '\0') ||
		    (cells != NULL && cells[i] == '\0'))
			break;
	}
	if (filled == 0)
		return (last);
	return (filled == 1 ? cell : -1);
}

/*
 * Why the command that started the client's mode was refused, for stderr:
 * "cannot join room K7QX2M: No room with that code is open."  arg is the
 * command's argument (the room code of ROOM JOIN, the game of WATCH), or
 * "" for none.
 */
int
render_refusal(char *buf, size_t size, enum proto_verb verb, const char *arg,
    const struct proto_event *ev)
{
	struct render_out	o;
	char			text[RENDER_MAX];

	render_init(&o, buf, size);
	switch (proto_verb_info(verb)->args) {
	case PROTO_ARGS_ROOM:
		if (*arg != '\0')
			render_add(&o, "cannot join room %s: ", arg);
		else
			render_add(&o, "cannot make a room: ");
		break;
	case PROTO_ARGS_LEVEL:
		render_add(&o, "cannot play the computer: ");
		break;
	case PROTO_ARGS_GAME:
		render_add(&o, "cannot watch game %s: ", arg);
		break;
	case PROTO_ARGS_COUNT:
		render_add(&o, "cannot list the games: ");
		break;
	case PROTO_ARGS_TOKEN:
		render_add(&o, "cannot get the seat back: ");
		break;
	default:
		render_add(&o, "the server refused: ");
		break;
	}
	render_event(text, sizeof text, ev, NULL);
	text[strcspn(text, "\n")] = '\0';
	render_add(&o, "%s", text);
	return (render_done(&o));
}
