/*
 * render.c -- the text ttt-client shows: the board in the seed layout,
 * server events in words, prompts and notes.  Server text is shown as it
 * comes, with any byte that is not printable ASCII replaced by '?'.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "render.h"

/* A buffer being filled with snprintf semantics. */
struct render_out {
	char	*buf;
	size_t	 size;
	size_t	 len;		/* what the text needs so far */
};

static const char *render_prompts[] = {
	[RENDER_PROMPT_NAME] = "Enter your name: ",
	[RENDER_PROMPT_MOVE] = "Enter your move (A1, B2, C3) or 'quit' to exit: ",
	[RENDER_PROMPT_AGAIN] = "Play again? (y/n) or 'quit' to exit: ",
};

static const char *render_notes[] = {
	[RENDER_NOTE_BAD_MOVE] = "Invalid input. Accepted examples: A1, b2, C3.",
	[RENDER_NOTE_BAD_ANSWER] = "Please enter y or n.",
	[RENDER_NOTE_BAD_NAME] =
	    "A name is 1 to 16 letters, digits, '_' or '-'.",
	[RENDER_NOTE_NOT_YOUR_TURN] = "Please wait for your turn.",
};

static void	render_init(struct render_out *, char *, size_t);
static void	render_char(struct render_out *, char);
static void	render_add(struct render_out *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));
static void	render_text(struct render_out *, const char *, size_t,
		    const char *);
static int	render_done(struct render_out *);
static void	render_result(struct render_out *, const struct proto_event *);

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
 * Append server text and a newline, made printable; the fallback stands in
 * when the server sent no text, and nothing is added if there is neither.
 */
static void
render_text(struct render_out *o, const char *text, size_t len,
    const char *fallback)
{
	size_t	i;

	if (len == 0) {
		if (fallback != NULL)
			render_add(o, "%s\n", fallback);
		return;
	}
	for (i = 0; i < len; i++) {
		unsigned char	c = (unsigned char)text[i];

		render_char(o, (c < 0x20 || c >= 0x7f) ? '?' : (char)c);
	}
	render_char(o, '\n');
}

/* The length the text needed. */
static int
render_done(struct render_out *o)
{
	return ((int)o->len);
}

/* RESULT: the server's words, e.g. "p1 wins! better luck next time p2!". */
static void
render_result(struct render_out *o, const struct proto_event *ev)
{
	char	fallback[PROTO_NAME_MAX + 16];

	if (ev->result == PROTO_RESULT_TIE)
		snprintf(fallback, sizeof fallback, "It's a tie!");
	else
		snprintf(fallback, sizeof fallback, "%s wins!", ev->name);
	render_text(o, ev->text, ev->textlen, fallback);
}

/*
 * Draw the board from BOARD's cells (row-major A1 B1 C1 A2 ... C3): the
 * seed layout, as in the server's board art.  A cell other than X or O, or
 * past the end of a short string, is drawn empty.
 */
int
render_board(char *buf, size_t size, const char *cells)
{
	struct render_out	o;
	char			c[TTT_CELLS];
	size_t			i, n;

	n = (cells == NULL) ? 0 : strnlen(cells, TTT_CELLS);
	for (i = 0; i < TTT_CELLS; i++) {
		c[i] = ' ';
		if (i < n && (cells[i] == 'X' || cells[i] == 'O'))
			c[i] = cells[i];
	}
	render_init(&o, buf, size);
	render_add(&o, "      A   B   C\n");
	for (i = 0; i < 3; i++) {
		if (i > 0)
			render_add(&o, "     ---+---+---\n");
		render_add(&o, "  %zu   %c | %c | %c\n", i + 1, c[i * 3],
		    c[i * 3 + 1], c[i * 3 + 2]);
	}
	return (render_done(&o));
}

/*
 * Turn one server event into what the player sees; mine is the player's
 * mark (TTT_EMPTY before MATCH).  TURN for the player and AGAIN? become
 * their prompts; OK replies, lines for people and unknown lines show
 * nothing, since the client draws the board itself.
 */
int
render_event(char *buf, size_t size, const struct proto_event *ev,
    enum ttt_mark mine)
{
	struct render_out	o;
	char			board[RENDER_MAX];

	render_init(&o, buf, size);
	switch (ev->kind) {
	case PROTO_EV_HELLO:
		render_text(&o, ev->text, ev->textlen,
		    "Welcome to Tic Tac Toe, Ready for a game?");
		render_add(&o, "Type 'quit' at any time to exit.\n");
		break;
	case PROTO_EV_MATCH:
		render_add(&o, "You are %c, playing against %s.\n",
		    ttt_mark_char(ev->mark), ev->name);
		break;
	case PROTO_EV_BOARD:
		render_board(board, sizeof board, ev->cells);
		render_add(&o, "\n%s\n", board);
		break;
	case PROTO_EV_TURN:
		if (mine != TTT_EMPTY && ev->mark == mine)
			render_add(&o, "%s",
			    render_prompts[RENDER_PROMPT_MOVE]);
		else
			render_text(&o, ev->text, ev->textlen, NULL);
		break;
	case PROTO_EV_RESULT:
		render_result(&o, ev);
		break;
	case PROTO_EV_AGAINQ:
		render_add(&o, "%s", render_prompts[RENDER_PROMPT_AGAIN]);
		break;
	case PROTO_EV_BYE:
		render_text(&o, ev->text, ev->textlen, "Goodbye.");
		break;
	case PROTO_EV_ERR:
		render_text(&o, ev->text, ev->textlen,
		    ev->error < PROTO_NERRORS ? proto_error_text(ev->error) :
		    "The server reported an error.");
		break;
	case PROTO_EV_WAIT:
	case PROTO_EV_START:
	case PROTO_EV_INFO:
		render_text(&o, ev->text, ev->textlen, NULL);
		break;
	default:
		break;
	}
	return (render_done(&o));
}

/* One of the client's questions. */
int
render_prompt(char *buf, size_t size, enum render_prompt which)
{
	struct render_out	o;

	render_init(&o, buf, size);
	if ((unsigned)which < sizeof render_prompts / sizeof render_prompts[0])
		render_add(&o, "%s", render_prompts[which]);
	return (render_done(&o));
}

/* One of the client's notes, with its newline. */
int
render_note(char *buf, size_t size, enum render_note which)
{
	struct render_out	o;

	render_init(&o, buf, size);
	if ((unsigned)which < sizeof render_notes / sizeof render_notes[0])
		render_add(&o, "%s\n", render_notes[which]);
	return (render_done(&o));
}
