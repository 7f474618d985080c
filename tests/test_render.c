/*
 * test_render.c -- what ttt-client shows: the board drawn from BOARD cells,
 * each server event in words, prompts and notes, and odd input; colour on
 * and off, the last move, and each input style's prompt, note and key map;
 * the lines of rooms, lists, the computer, chat and resuming, and why a
 * mode's command was refused.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "proto.h"
#include "render.h"

struct event_case {
	const char	*line;		/* server line, without CR LF */
	enum ttt_mark	 mine;
	const char	*want;
};

static const char empty_art[] =
    "      A   B   C\n"
    "  1     |   |  \n"
    "     ---+---+---\n"
    "  2     |   |  \n"
    "     ---+---+---\n"
    "  3     |   |  \n";

/* The board of the design brief's example. */
static const char mixed_art[] =
    "      A   B   C\n"
    "  1   X | O |  \n"
    "     ---+---+---\n"
    "  2     | X |  \n"
    "     ---+---+---\n"
    "  3     |   | O\n";

static const char full_art[] =
    "      A   B   C\n"
    "  1   X | O | X\n"
    "     ---+---+---\n"
    "  2   X | O | O\n"
    "     ---+---+---\n"
    "  3   O | X | X\n";

/* The board of the design brief in colour, C3 the last move. */
static const char mixed_colour[] =
    "      A   B   C\n"
    "  1   \033[31mX\033[0m | \033[36mO\033[0m |  \n"
    "     ---+---+---\n"
    "  2     | \033[31mX\033[0m |  \n"
    "     ---+---+---\n"
    "  3     |   | \033[1;7;36mO\033[0m\n";

/* The same with the keypad's key map beside it (seed 003). */
static const char mixed_keypad[] =
    "      A   B   C\n"
    "  1   X | O |     q w e\n"
    "     ---+---+---\n"
    "  2     | X |     a s d\n"
    "     ---+---+---\n"
    "  3     |   | O   z x c\n";

/* And with the digits' map: row, then column. */
static const char mixed_digits[] =
    "      A   B   C\n"
    "  1   X | O |     11 12 13\n"
    "     ---+---+---\n"
    "  2     | X |     21 22 23\n"
    "     ---+---+---\n"
    "  3     |   | O   31 32 33\n";

/* The plain view of player X. */
static const struct render_view plain_x = { TTT_X, -1, 0, KEYS_CELLS, 0, 0, NULL, NULL };

static void	render_line(const char *, enum ttt_mark, char *, size_t);
static void	strip_cr(char *);
static void	strip_sgr(char *);
static int	count(const char *, const char *);
static void	check_events(const struct event_case *, size_t);

/* Parse a server line and render it. */
static void
render_line(const char *line, enum ttt_mark mine, char *out, size_t size)
{
	struct render_view	v = { mine, -1, 0, KEYS_CELLS, 0, 0, NULL, NULL };
	struct proto_event	ev;
	int			n;

	assert_int_equal(proto_event_parse(line, strlen(line), &ev), 0);
	n = render_event(out, size, &ev, &v);
	assert_int_equal(n, (int)strlen(out));
}

/* Drop every CR, turning the server's CRLF art into the client's LF art. */
static void
strip_cr(char *s)
{
	char	*d = s;

	for (; *s != '\0'; s++) {
		if (*s != '\r')
			*d++ = *s;
	}
	*d = '\0';
}

/* Drop every ANSI SGR sequence (ESC [ digits and ; m). */
static void
strip_sgr(char *s)
{
	char	*d = s;

	while (*s != '\0') {
		if (s[0] == '\033' && s[1] == '[') {
			s += 2;
			while ((*s >= '0' && *s <= '9') || *s == ';')
				s++;
			assert_int_equal(*s, 'm');
			s++;
			continue;
		}
		*d++ = *s++;
	}
	*d = '\0';
}

/* How often the text occurs. */
static int
count(const char *hay, const char *text)
{
	int	n = 0;

	while ((hay = strstr(hay, text)) != NULL) {
		n++;
		hay += strlen(text);
	}
	return (n);
}

/* Render each case's line for its mark: exactly the wanted text. */
static void
check_events(const struct event_case *cases, size_t n)
{
	char	buf[RENDER_MAX];
	size_t	i;

	for (i = 0; i < n; i++) {
		render_line(cases[i].line, cases[i].mine, buf, sizeof buf);
		if (strcmp(buf, cases[i].want) != 0)
			fail_msg("\"%s\": got \"%s\", want \"%s\"",
			    cases[i].line, buf, cases[i].want);
	}
}

/* An empty board: the seed layout with blank cells. */
static void
test_render_board_empty(void **state)
{
	char	buf[RENDER_MAX];

	(void)state;
	assert_int_equal(render_board(buf, sizeof buf, ".........", NULL),
	    (int)strlen(empty_art));
	assert_string_equal(buf, empty_art);
}

/* A game in progress, as in the design brief. */
static void
test_render_board_mixed(void **state)
{
	char	buf[RENDER_MAX];

	(void)state;
	render_board(buf, sizeof buf, "XO..X...O", NULL);
	assert_string_equal(buf, mixed_art);
}

/* A full board. */
static void
test_render_board_full(void **state)
{
	char	buf[RENDER_MAX];

	(void)state;
	render_board(buf, sizeof buf, "XOXXOOOXX", NULL);
	assert_string_equal(buf, full_art);
}

/* The client's board matches the server's art for every position played. */
static void
test_render_board_matches_server_art(void **state)
{
	static const int	 moves[] = { 4, 0, 8, 2, 1, 7, 6, 3, 5 };
	struct ttt_board	 b;
	char			 art[RENDER_MAX], mine[RENDER_MAX];
	char			 cells[TTT_CELLS + 1];
	size_t			 i;
	int			 c;

	(void)state;
	ttt_board_init(&b, TTT_X);
	for (i = 0; i <= sizeof moves / sizeof moves[0]; i++) {
		for (c = 0; c < TTT_CELLS; c++)
			cells[c] = ttt_mark_char(ttt_board_at(&b, c));
		cells[TTT_CELLS] = '\0';
		proto_fmt_board_art(art, sizeof art, &b);
		strip_cr(art);
		render_board(mine, sizeof mine, cells, NULL);
		assert_string_equal(mine, art);
		if (i < sizeof moves / sizeof moves[0] &&
		    ttt_board_outcome(&b) == TTT_ONGOING)
			assert_int_equal(ttt_board_play(&b,
			    ttt_board_turn(&b), moves[i]), TTT_OK);
	}
}

/* NULL, short strings and stray characters draw as empty cells. */
static void
test_render_board_bad_cells(void **state)
{
	char	buf[RENDER_MAX];

	(void)state;
	render_board(buf, sizeof buf, NULL, NULL);
	assert_string_equal(buf, empty_art);
	render_board(buf, sizeof buf, "", NULL);
	assert_string_equal(buf, empty_art);
	render_board(buf, sizeof buf, "XO", NULL);
	assert_memory_equal(buf, "      A   B   C\n  1   X | O |  \n", 32);
	assert_string_equal(buf + 32, empty_art + 32);
	render_board(buf, sizeof buf, "Zx o?\t\n\x80.", NULL);
	assert_string_equal(buf, empty_art);
	/* Only the first nine cells count. */
	render_board(buf, sizeof buf, "XO..X...OXXXX", NULL);
	assert_string_equal(buf, mixed_art);
}

/* snprintf semantics: the full length back, a cut and terminated text. */
static void
test_render_board_small_buffer(void **state)
{
	char	buf[16];

	(void)state;
	memset(buf, '#', sizeof buf);
	assert_int_equal(render_board(buf, 0, "XO..X...O", NULL),
	    (int)strlen(mixed_art));
	assert_int_equal(buf[0], '#');
	assert_int_equal(render_board(buf, 10, "XO..X...O", NULL),
	    (int)strlen(mixed_art));
	assert_string_equal(buf, "      A  ");
	assert_int_equal(buf[10], '#');
	assert_int_equal(render_board(buf, 1, "XO..X...O", NULL),
	    (int)strlen(mixed_art));
	assert_string_equal(buf, "");
}

/* Colour on: X red, O cyan, the last move (C3) in bold reverse. */
static void
test_render_board_colour(void **state)
{
	const struct render_view	v = { TTT_X, 8, 1, KEYS_CELLS, 0, 0, NULL, NULL };
	char				buf[RENDER_MAX];

	(void)state;
	assert_int_equal(render_board(buf, sizeof buf, "XO..X...O", &v),
	    (int)strlen(mixed_colour));
	assert_string_equal(buf, mixed_colour);
	strip_sgr(buf);
	assert_string_equal(buf, mixed_art);
}

/*
 * Colour off: the plain board, byte for byte, whatever the last move; no
 * escape sequence at all.
 */
static void
test_render_board_colour_off(void **state)
{
	struct render_view	v = { TTT_O, -1, 0, KEYS_CELLS, 0, 0, NULL, NULL };
	char			buf[RENDER_MAX];

	(void)state;
	for (v.last = -1; v.last < TTT_CELLS; v.last++) {
		render_board(buf, sizeof buf, "XO..X...O", &v);
		assert_string_equal(buf, mixed_art);
		render_board(buf, sizeof buf, "XOXXOOOXX", &v);
		assert_string_equal(buf, full_art);
		assert_null(strchr(buf, '\033'));
	}
}

/*
 * Exactly the last move is highlighted, whichever it is, at its square of
 * the plain art; -1 highlights none.
 */
static void
test_render_board_last_move(void **state)
{
	static const char	 cells[] = "XOXXOOOXX";
	struct render_view	 v = { TTT_X, -1, 1, KEYS_CELLS, 0, 0, NULL, NULL };
	char			 buf[RENDER_MAX], before[RENDER_MAX];
	char			 want[32];
	const char		*hl;
	int			 row, col;

	(void)state;
	render_board(buf, sizeof buf, cells, &v);
	assert_null(strstr(buf, "\033[1;7;"));
	assert_int_equal(count(buf, "\033[31mX\033[0m"), 5);
	assert_int_equal(count(buf, "\033[36mO\033[0m"), 4);
	for (v.last = 0; v.last < TTT_CELLS; v.last++) {
		render_board(buf, sizeof buf, cells, &v);
		assert_int_equal(count(buf, "\033[1;7;"), 1);
		snprintf(want, sizeof want, "\033[1;7;%sm%c\033[0m",
		    cells[v.last] == 'X' ? "31" : "36", cells[v.last]);
		hl = strstr(buf, want);
		assert_non_null(hl);
		/* What comes before it, drawn plain, ends at its square. */
		snprintf(before, sizeof before, "%.*s", (int)(hl - buf), buf);
		strip_sgr(before);
		row = v.last / 3;
		col = v.last % 3;
		assert_int_equal(strlen(before), 16 + row * 33 + 6 + col * 4);
		strip_sgr(buf);
		assert_string_equal(buf, full_art);
	}
}

/* The keypad and digits styles draw their key map beside the board. */
static void
test_render_board_key_maps(void **state)
{
	struct render_view	v = { TTT_X, -1, 0, KEYS_KEYPAD, 0, 0, NULL, NULL };
	char			buf[RENDER_MAX];

	(void)state;
	assert_int_equal(render_board(buf, sizeof buf, "XO..X...O", &v),
	    (int)strlen(mixed_keypad));
	assert_string_equal(buf, mixed_keypad);
	v.keys = KEYS_DIGITS;
	render_board(buf, sizeof buf, "XO..X...O", &v);
	assert_string_equal(buf, mixed_digits);
	/* In colour, the same once the colours are taken out. */
	v.colour = 1;
	v.last = 4;
	v.keys = KEYS_KEYPAD;
	render_board(buf, sizeof buf, "XO..X...O", &v);
	assert_non_null(strstr(buf, "\033[1;7;31mX\033[0m |     a s d\n"));
	strip_sgr(buf);
	assert_string_equal(buf, mixed_keypad);
	/* The cells style needs none: the board's labels are its map. */
	v.keys = KEYS_CELLS;
	v.colour = 0;
	render_board(buf, sizeof buf, "XO..X...O", &v);
	assert_string_equal(buf, mixed_art);
	/* An unknown style is drawn as cells. */
	v.keys = KEYS_NSTYLES;
	render_board(buf, sizeof buf, "XO..X...O", &v);
	assert_string_equal(buf, mixed_art);
}

/* snprintf semantics hold with colour codes too. */
static void
test_render_board_colour_small_buffer(void **state)
{
	const struct render_view	v = { TTT_X, 8, 1, KEYS_KEYPAD, 0, 0, NULL, NULL };
	char				buf[RENDER_MAX], small[20];
	int				n;

	(void)state;
	n = render_board(buf, sizeof buf, "XO..X...O", &v);
	assert_int_equal(n, (int)strlen(buf));
	assert_int_equal(render_board(small, sizeof small, "XO..X...O", &v),
	    n);
	assert_int_equal(strlen(small), sizeof small - 1);
	assert_memory_equal(small, buf, sizeof small - 1);
}

/* Events in colour: MATCH's mark and BOARD; off, the plain text. */
static void
test_render_event_colour(void **state)
{
	struct render_view	 v = { TTT_EMPTY, 8, 1, KEYS_CELLS, 0, 0, NULL, NULL };
	struct proto_event	 ev;
	const char		*match = "MATCH X bob You play X against "
				    "bob.";
	const char		*board = "BOARD XO..X...O";
	char			 buf[RENDER_MAX], want[RENDER_MAX];

	(void)state;
	assert_int_equal(proto_event_parse(match, strlen(match), &ev), 0);
	render_event(buf, sizeof buf, &ev, &v);
	assert_string_equal(buf,
	    "You are \033[31mX\033[0m, playing against bob.\n");
	v.colour = 0;
	render_event(buf, sizeof buf, &ev, &v);
	assert_string_equal(buf, "You are X, playing against bob.\n");

	v.colour = 1;
	assert_int_equal(proto_event_parse(board, strlen(board), &ev), 0);
	render_event(buf, sizeof buf, &ev, &v);
	snprintf(want, sizeof want, "\n%s\n", mixed_colour);
	assert_string_equal(buf, want);
	v.colour = 0;
	render_event(buf, sizeof buf, &ev, &v);
	snprintf(want, sizeof want, "\n%s\n", mixed_art);
	assert_string_equal(buf, want);
}

/* Each style asks for a move in its own words; other prompts are shared. */
static void
test_render_prompts_styles(void **state)
{
	static const char *const	 want[KEYS_NSTYLES] = {
		"Enter your move (A1, B2, C3) or 'quit' to exit: ",
		"Enter your move (q, s, c) or 'quit' to exit: ",
		"Enter your move (row and column, e.g. 1 3) or 'quit' to exit: ",
	};
	struct render_view		 v = { TTT_O, -1, 0, KEYS_CELLS, 0, 0, NULL, NULL };
	struct proto_event		 ev;
	const char			*turn = "TURN O Enter your move "
					    "(A1, B2, C3) or 'quit' to exit:";
	char				 buf[RENDER_MAX];
	int				 s;

	(void)state;
	assert_int_equal(proto_event_parse(turn, strlen(turn), &ev), 0);
	for (s = 0; s < KEYS_NSTYLES; s++) {
		v.keys = (enum keys_style)s;
		render_prompt(buf, sizeof buf, RENDER_PROMPT_MOVE, &v);
		assert_string_equal(buf, want[s]);
		render_event(buf, sizeof buf, &ev, &v);
		assert_string_equal(buf, want[s]);
		render_prompt(buf, sizeof buf, RENDER_PROMPT_NAME, &v);
		assert_string_equal(buf, "Enter your name: ");
		render_prompt(buf, sizeof buf, RENDER_PROMPT_AGAIN, &v);
		assert_string_equal(buf,
		    "Play again? (y/n) or 'quit' to exit: ");
	}
	v.keys = KEYS_NSTYLES;
	render_prompt(buf, sizeof buf, RENDER_PROMPT_MOVE, &v);
	assert_string_equal(buf, want[KEYS_CELLS]);
}

/* Each style says what a move looks like in its own words. */
static void
test_render_notes_styles(void **state)
{
	static const char *const	want[KEYS_NSTYLES] = {
		"Invalid input. Accepted examples: A1, b2, C3.\n",
		"Invalid input. Accepted keys: q w e, a s d, z x c.\n",
		"Invalid input. Type a row and a column from 1 to 3, e.g. 1 3 or 13.\n",
	};
	struct render_view		v = { TTT_O, -1, 0, KEYS_CELLS, 0, 0, NULL, NULL };
	char				buf[RENDER_MAX];
	int				s;

	(void)state;
	for (s = 0; s < KEYS_NSTYLES; s++) {
		v.keys = (enum keys_style)s;
		render_note(buf, sizeof buf, RENDER_NOTE_BAD_MOVE, &v);
		assert_string_equal(buf, want[s]);
		render_note(buf, sizeof buf, RENDER_NOTE_BAD_ANSWER, &v);
		assert_string_equal(buf, "Please enter y or n.\n");
		render_note(buf, sizeof buf, RENDER_NOTE_NOT_YOUR_TURN, &v);
		assert_string_equal(buf, "Please wait for your turn.\n");
	}
}

/* The last move, found from one board to the next. */
static void
test_render_last(void **state)
{
	static const struct {
		const char	*prev;
		const char	*cells;
		int		 last;		/* on prev */
		int		 want;
	} cases[] = {
		{ ".........", ".........", -1, -1 },	/* a new game */
		{ ".........", "....X....", -1, 4 },	/* the first move */
		{ "....X....", "O...X....", 4, 0 },	/* the next */
		{ "O...X....", "O...X...X", 0, 8 },
		{ "O...X...X", "O...X...X", 8, 8 },	/* drawn again */
		{ "XOXXOOOX.", "XOXXOOOXX", 7, 8 },	/* the last square */
		{ "XOXXOOOXX", ".........", 8, -1 },	/* the rematch */
		{ "O...X...X", "X........", 8, -1 },	/* not a sequel */
		{ "O...X...X", "X...X...X", 8, -1 },	/* a mark changed */
		{ "....X....", "O...X...O", 4, -1 },	/* two moves at once */
		{ NULL, "..X......", -1, 2 },		/* no board before */
		{ "..X......", NULL, 2, -1 },		/* no board now */
		{ "..X......", "..X.??...", 2, 2 },	/* odd bytes: empty */
	};
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		if (render_last(cases[i].prev, cases[i].cells,
		    cases[i].last) != cases[i].want)
			fail_msg("case %zu: got %d, want %d", i,
			    render_last(cases[i].prev, cases[i].cells,
			    cases[i].last), cases[i].want);
	}
}

/* Each server event as the player sees it. */
static void
test_render_events(void **state)
{
	static const struct event_case cases[] = {
		{ "HELLO tttd/1 Welcome to Tic Tac Toe, Ready for a game?",
		    TTT_EMPTY, "Welcome to Tic Tac Toe, Ready for a game?\n"
		    "Type 'quit' at any time to exit.\n" },
		{ "WAIT Waiting for an opponent...", TTT_EMPTY,
		    "Waiting for an opponent...\n" },
		{ "WAIT Waiting for bob to answer...", TTT_X,
		    "Waiting for bob to answer...\n" },
		{ "MATCH X bob You play X against bob.", TTT_EMPTY,
		    "You are X, playing against bob.\n" },
		{ "MATCH O p1 You play O against p1.", TTT_EMPTY,
		    "You are O, playing against p1.\n" },
		{ "START X p1 (X) moves first.", TTT_O,
		    "p1 (X) moves first.\n" },
		{ "TURN X Enter your move (A1, B2, C3) or 'quit' to exit:",
		    TTT_X, "Enter your move (A1, B2, C3) or 'quit' to exit: " },
		{ "TURN O Waiting for p2 to move...", TTT_X,
		    "Waiting for p2 to move...\n" },
		{ "TURN O Waiting for p2 to move...", TTT_EMPTY,
		    "Waiting for p2 to move...\n" },
		{ "RESULT WIN X p1 p1 wins! better luck next time p2!", TTT_O,
		    "p1 wins! better luck next time p2!\n" },
		{ "RESULT TIE It's a tie!", TTT_X, "It's a tie!\n" },
		{ "RESULT FORFEIT O p2 p1 quit the game. p2 wins!", TTT_O,
		    "p1 quit the game. p2 wins!\n" },
		{ "AGAIN? Play again? (y/n) or 'quit' to exit:", TTT_X,
		    "Play again? (y/n) or 'quit' to exit: " },
		{ "INFO p2 left the match.", TTT_X, "p2 left the match.\n" },
		{ "BYE Thank you for playing!", TTT_X,
		    "Thank you for playing!\n" },
		{ "BYE Server shutting down.", TTT_X,
		    "Server shutting down.\n" },
		{ "ERR TAKEN That square is already taken. Try again.", TTT_X,
		    "That square is already taken. Try again.\n" },
		{ "ERR BAD_CELL Invalid input. Accepted examples: A1, b2, C3.",
		    TTT_X, "Invalid input. Accepted examples: A1, b2, C3.\n" },
		{ "ERR NOT_YOUR_TURN It is not your turn. Please wait.", TTT_X,
		    "It is not your turn. Please wait.\n" },
		{ "OK MOVE B2", TTT_X, "" },
		{ "OK NAME bob", TTT_X, "" },
		{ "OK AGAIN y", TTT_X, "" },
		{ "  Type 'quit' at any time to exit.", TTT_X, "" },
		{ "      A   B   C", TTT_X, "" },
		{ "NEWS something from a later server", TTT_X, "" },
	};

	(void)state;
	check_events(cases, sizeof cases / sizeof cases[0]);
}

/* BOARD is drawn by the client, set off by blank lines. */
static void
test_render_event_board(void **state)
{
	char	buf[RENDER_MAX], want[RENDER_MAX];

	(void)state;
	render_line("BOARD XO..X...O\r", TTT_O, buf, sizeof buf);
	snprintf(want, sizeof want, "\n%s\n", mixed_art);
	assert_string_equal(buf, want);
	render_line("BOARD .........", TTT_EMPTY, buf, sizeof buf);
	snprintf(want, sizeof want, "\n%s\n", empty_art);
	assert_string_equal(buf, want);
}

/* Lines without their free text still say something sensible. */
static void
test_render_event_fallbacks(void **state)
{
	static const struct event_case cases[] = {
		{ "HELLO tttd/1", TTT_EMPTY, "Welcome to Tic Tac Toe, "
		    "Ready for a game?\nType 'quit' at any time to exit.\n" },
		{ "RESULT WIN X bob", TTT_X, "bob wins!\n" },
		{ "RESULT FORFEIT O p2", TTT_X, "p2 wins!\n" },
		{ "RESULT TIE", TTT_X, "It's a tie!\n" },
		{ "ERR TAKEN", TTT_X,
		    "That square is already taken. Try again.\n" },
		{ "ERR BAD_ANSWER", TTT_X, "Please enter y or n.\n" },
		{ "ERR SOMETHING_NEW", TTT_X,
		    "The server reported an error.\n" },
		{ "BYE", TTT_X, "Goodbye.\n" },
		{ "WAIT", TTT_X, "" },
		{ "INFO", TTT_X, "" },
		{ "TURN O", TTT_X, "" },
	};

	(void)state;
	check_events(cases, sizeof cases / sizeof cases[0]);
}

/* A server cannot move the cursor or clear the screen through its text. */
static void
test_render_event_control_bytes(void **state)
{
	char	buf[RENDER_MAX];

	(void)state;
	render_line("INFO a\x1b[2Jb\x7f\x01\xc3\xa9!", TTT_X, buf, sizeof buf);
	assert_string_equal(buf, "a?[2Jb??\xc3\xa9!\n");
	render_line("RESULT TIE tie\tgame\r", TTT_X, buf, sizeof buf);
	assert_string_equal(buf, "tie?game\n");
}

/*
 * Valid UTF-8 is shown as it comes (two, three and four bytes); what is
 * not (a C1 control such as the one-byte CSI U+009B, a lone continuation
 * byte, an overlong form, a surrogate, past U+10FFFF, a sequence cut
 * short) is a '?' a byte, so no escape gets through.
 */
static void
test_render_event_utf8(void **state)
{
	static const struct event_case	cases[] = {
		{ "INFO caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x98\x80",
		    TTT_X, "caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x98\x80\n" },
		{ "INFO a\xc2\x9b" "2Jb", TTT_X, "a??2Jb\n" },
		{ "INFO a\xc2\xa0" "b", TTT_X, "a\xc2\xa0" "b\n" },
		{ "INFO a\x80" "b", TTT_X, "a?b\n" },
		{ "INFO a\xc0\xaf" "b", TTT_X, "a??b\n" },
		{ "INFO a\xe0\x80\xaf" "b", TTT_X, "a???b\n" },
		{ "INFO a\xed\xa0\x80" "b", TTT_X, "a???b\n" },
		{ "INFO a\xf4\x90\x80\x80" "b", TTT_X, "a????b\n" },
		{ "INFO a\xf0\x9f\x98", TTT_X, "a???\n" },
		{ "INFO \xe6\x97x", TTT_X, "??x\n" },
		{ "INFO \xff\xfe", TTT_X, "??\n" },
	};

	(void)state;
	check_events(cases, sizeof cases / sizeof cases[0]);
}

/*
 * A won board shows its line: the three cells in brackets with colour
 * off, in bold reverse with colour on, for either mark and every line; a
 * board without a line (ongoing, a tie) has neither.
 */
static void
test_render_board_winning_line(void **state)
{
	static const char	x_col_a[] =
	    "      A   B   C\n"
	    "  1  [X]|   | O\n"
	    "     ---+---+---\n"
	    "  2  [X]| O |\x20\x20\n"
	    "     ---+---+---\n"
	    "  3  [X]|   |\x20\x20\n";
	static const char	o_diag[] =
	    "      A   B   C\n"
	    "  1   X | X |[O]\n"
	    "     ---+---+---\n"
	    "  2   X |[O]|\x20\x20\n"
	    "     ---+---+---\n"
	    "  3  [O]|   | X\n";
	static const char	x_row_3[] =
	    "      A   B   C\n"
	    "  1   O | O |\x20\x20\n"
	    "     ---+---+---\n"
	    "  2     |   |\x20\x20\n"
	    "     ---+---+---\n"
	    "  3  [X]|[X]|[X]\n";
	struct render_view	 v = { TTT_X, -1, 0, KEYS_CELLS, 0, 0, NULL, NULL };
	char			 buf[RENDER_MAX], cells[TTT_CELLS + 1];
	int			 l, i, k;
	static const int	 lines[8][3] = {
		{ 0, 1, 2 }, { 3, 4, 5 }, { 6, 7, 8 }, { 0, 3, 6 },
		{ 1, 4, 7 }, { 2, 5, 8 }, { 0, 4, 8 }, { 2, 4, 6 }
	};

	(void)state;
	render_board(buf, sizeof buf, "X.OXO.X..", NULL);
	assert_string_equal(buf, x_col_a);
	render_board(buf, sizeof buf, "XXOXO.O.X", &v);
	assert_string_equal(buf, o_diag);
	render_board(buf, sizeof buf, "OO....XXX", &v);
	assert_string_equal(buf, x_row_3);
	/* No line: no brackets, ongoing or tied. */
	render_board(buf, sizeof buf, "XOXXOOOXX", NULL);
	assert_null(strchr(buf, '['));
	render_board(buf, sizeof buf, "XX.OO....", NULL);
	assert_null(strchr(buf, '['));
	/* Colour: the line's three cells highlighted, and only they. */
	v.colour = 1;
	v.last = 6;
	render_board(buf, sizeof buf, "X.OXO.X..", &v);
	assert_int_equal(count(buf, "\033[1;7;31mX\033[0m"), 3);
	assert_int_equal(count(buf, "\033[1;7;"), 3);
	assert_null(strstr(buf, "[X]"));
	strip_sgr(buf);
	assert_non_null(strstr(buf, "  1   X |   | O\n"));
	/* Every line, for each mark, marks exactly its three cells. */
	v.colour = 0;
	for (l = 0; l < 8; l++) {
		for (k = 0; k < 2; k++) {
			memset(cells, '.', TTT_CELLS);
			cells[TTT_CELLS] = '\0';
			for (i = 0; i < 3; i++)
				cells[lines[l][i]] = k == 0 ? 'X' : 'O';
			render_board(buf, sizeof buf, cells, &v);
			assert_int_equal(count(buf, k == 0 ? "[X]" : "[O]"),
			    3);
			assert_int_equal(count(buf, "["), 3);
		}
	}
}

/* /name's answer, the name made safe. */
static void
test_render_renamed(void **state)
{
	char	buf[RENDER_MAX];

	(void)state;
	assert_int_equal(render_renamed(buf, sizeof buf, "bob"),
	    (int)strlen("You are now called bob.\n"));
	assert_string_equal(buf, "You are now called bob.\n");
	render_renamed(buf, sizeof buf, "J\xc3\xb6rg\x1b");
	assert_string_equal(buf, "You are now called J\xc3\xb6rg?.\n");
}

/* Names are shown in UTF-8, and made safe as any server text. */
static void
test_render_event_utf8_names(void **state)
{
	struct render_view	v = { TTT_X, -1, 0, KEYS_CELLS, 0, 0, NULL, NULL };
	struct proto_event	ev;
	char			buf[RENDER_MAX];

	(void)state;
	memset(&ev, 0, sizeof ev);
	ev.kind = PROTO_EV_CHAT;
	snprintf(ev.name, sizeof ev.name, "J\xc3\xb6rg");
	ev.text = "hall\xc3\xb6";
	ev.textlen = strlen(ev.text);
	render_event(buf, sizeof buf, &ev, &v);
	assert_string_equal(buf, "J\xc3\xb6rg: hall\xc3\xb6\n");
	ev.kind = PROTO_EV_MATCH;
	ev.mark = TTT_X;
	snprintf(ev.name, sizeof ev.name, "a\x1b[2J\xc2\x9b");
	render_event(buf, sizeof buf, &ev, &v);
	assert_string_equal(buf, "You are X, playing against a?[2J??.\n");
	ev.kind = PROTO_EV_GAME;
	ev.number = 4;
	ev.moves = 1;
	snprintf(ev.name, sizeof ev.name, "\xe6\x97\xa5");
	snprintf(ev.name2, sizeof ev.name2, "b\x07");
	render_event(buf, sizeof buf, &ev, &v);
	assert_string_equal(buf, "  4: \xe6\x97\xa5 (X)               "
	    " against b? (O), 1 move\n");
	/* Padded by characters, not bytes: J\xc3\xb6rg is four. */
	snprintf(ev.name, sizeof ev.name, "J\xc3\xb6rg");
	render_event(buf, sizeof buf, &ev, &v);
	assert_string_equal(buf, "  4: J\xc3\xb6rg (X)            "
	    " against b? (O), 1 move\n");
	snprintf(ev.name, sizeof ev.name, "Joerg");
	render_event(buf, sizeof buf, &ev, &v);
	assert_string_equal(buf, "  4: Joerg (X)           "
	    " against b? (O), 1 move\n");
	snprintf(ev.name, sizeof ev.name, "a\x1b");	/* '?' is one too */
	render_event(buf, sizeof buf, &ev, &v);
	assert_string_equal(buf, "  4: a? (X)              "
	    " against b? (O), 1 move\n");
	ev.kind = PROTO_EV_RESULT;
	ev.result = PROTO_RESULT_WIN;
	ev.textlen = 0;
	snprintf(ev.name, sizeof ev.name, "\xc3\xa9\x1b");
	render_event(buf, sizeof buf, &ev, &v);
	assert_string_equal(buf, "\xc3\xa9? wins!\n");
}

/* Events that mean nothing to a player render as nothing at all. */
static void
test_render_event_bad_kind(void **state)
{
	struct proto_event	ev;
	char			buf[8];

	(void)state;
	memset(&ev, 0, sizeof ev);
	ev.text = "ignored";
	ev.textlen = 7;
	ev.kind = PROTO_EV_UNKNOWN;
	strcpy(buf, "#");
	assert_int_equal(render_event(buf, sizeof buf, &ev, &plain_x), 0);
	assert_string_equal(buf, "");
	ev.kind = (enum proto_kind)99;
	assert_int_equal(render_event(buf, sizeof buf, &ev, &plain_x), 0);
	ev.kind = PROTO_EV_INFO;
	assert_int_equal(render_event(buf, sizeof buf, &ev, &plain_x), 8);
	assert_string_equal(buf, "ignored");
	assert_int_equal(render_event(NULL, 0, &ev, &plain_x), 8);
}

/* Before MATCH the player has no mark: no TURN is its own. */
static void
test_render_event_turn_without_mark(void **state)
{
	struct proto_event	ev;
	char			buf[RENDER_MAX];

	(void)state;
	memset(&ev, 0, sizeof ev);
	ev.kind = PROTO_EV_TURN;
	ev.mark = TTT_EMPTY;
	ev.text = "Waiting for p1 to move...";
	ev.textlen = strlen(ev.text);
	render_event(buf, sizeof buf, &ev, NULL);
	assert_string_equal(buf, "Waiting for p1 to move...\n");
	ev.mark = TTT_X;
	render_event(buf, sizeof buf, &ev, &plain_x);
	assert_string_equal(buf,
	    "Enter your move (A1, B2, C3) or 'quit' to exit: ");
}

/* The prompts, exactly, and nothing for an unknown one. */
static void
test_render_prompts(void **state)
{
	char	buf[RENDER_MAX];

	(void)state;
	render_prompt(buf, sizeof buf, RENDER_PROMPT_NAME, NULL);
	assert_string_equal(buf, "Enter your name: ");
	render_prompt(buf, sizeof buf, RENDER_PROMPT_MOVE, NULL);
	assert_string_equal(buf,
	    "Enter your move (A1, B2, C3) or 'quit' to exit: ");
	render_prompt(buf, sizeof buf, RENDER_PROMPT_AGAIN, NULL);
	assert_string_equal(buf, "Play again? (y/n) or 'quit' to exit: ");
	assert_int_equal(render_prompt(buf, sizeof buf,
	    (enum render_prompt)42, NULL), 0);
	assert_string_equal(buf, "");
}

/* The notes, exactly, and nothing for an unknown one. */
static void
test_render_notes(void **state)
{
	char	buf[RENDER_MAX];

	(void)state;
	render_note(buf, sizeof buf, RENDER_NOTE_BAD_MOVE, NULL);
	assert_string_equal(buf,
	    "Invalid input. Accepted examples: A1, b2, C3.\n");
	render_note(buf, sizeof buf, RENDER_NOTE_BAD_ANSWER, NULL);
	assert_string_equal(buf, "Please enter y or n.\n");
	render_note(buf, sizeof buf, RENDER_NOTE_BAD_NAME, NULL);
	assert_string_equal(buf,
	    "A name is 1 to 16 letters, digits, '_' or '-'.\n");
	render_note(buf, sizeof buf, RENDER_NOTE_NOT_YOUR_TURN, NULL);
	assert_string_equal(buf, "Please wait for your turn.\n");
	assert_int_equal(render_note(buf, sizeof buf, (enum render_note)-1,
	    NULL), 0);
	assert_string_equal(buf, "");
}

/* The client's notes say what the server's errors say. */
static void
test_render_notes_match_server(void **state)
{
	char	buf[RENDER_MAX], want[RENDER_MAX];

	(void)state;
	render_note(buf, sizeof buf, RENDER_NOTE_BAD_MOVE, NULL);
	snprintf(want, sizeof want, "%s\n",
	    proto_error_text(PROTO_EBAD_CELL));
	assert_string_equal(buf, want);
	render_note(buf, sizeof buf, RENDER_NOTE_BAD_ANSWER, NULL);
	snprintf(want, sizeof want, "%s\n",
	    proto_error_text(PROTO_EBAD_ANSWER));
	assert_string_equal(buf, want);
	render_note(buf, sizeof buf, RENDER_NOTE_BAD_NAME, NULL);
	snprintf(want, sizeof want, "%s\n",
	    proto_error_text(PROTO_EBAD_NAME));
	assert_string_equal(buf, want);
}

/* A cut event text is still terminated, and its full length returned. */
static void
test_render_event_small_buffer(void **state)
{
	struct proto_event	 ev;
	const char		*tie = "RESULT TIE It's a tie!";
	const char		*bye = "BYE Thank you for playing!";
	char			 buf[8];

	(void)state;
	assert_int_equal(proto_event_parse(tie, strlen(tie), &ev), 0);
	assert_int_equal(render_event(buf, sizeof buf, &ev, &plain_x), 12);
	assert_string_equal(buf, "It's a ");
	memset(buf, '#', sizeof buf);
	assert_int_equal(proto_event_parse(bye, strlen(bye), &ev), 0);
	assert_int_equal(render_event(buf, 0, &ev, &plain_x), 23);
	assert_int_equal(buf[0], '#');
}

/* The lines of rooms, lists, the computer, chat and resuming (§9). */
static void
test_render_events_rooms_chat(void **state)
{
	static const struct event_case cases[] = {
		{ "CHAT alice good luck!", TTT_X, "alice: good luck!\n" },
		{ "CHAT bob a\x1b[2Jb", TTT_O, "bob: a?[2Jb\n" },
		/* X's name padded to 16 characters: "against" lines up. */
		{ "GAME 4 alice bob 3", TTT_EMPTY, "  4: alice (X)           "
		    " against bob (O), 3 moves\n" },
		{ "GAME 7 p1 ai 1", TTT_EMPTY, "  7: p1 (X)              "
		    " against ai (O), 1 move\n" },
		{ "GAME 9 abcdefghijklmnop p2 0", TTT_EMPTY,
		    "  9: abcdefghijklmnop (X) against p2 (O), 0 moves\n" },
		/* Seats held for lost players (§9.4). */
		{ "GAME 4 alice bob 3 away=O", TTT_EMPTY, "  4: alice (X)     "
		    "       against bob (O), 3 moves, bob away\n" },
		{ "GAME 4 alice bob 3 away=X", TTT_EMPTY, "  4: alice (X)     "
		    "       against bob (O), 3 moves, alice away\n" },
		{ "GAME 4 alice bob 3 away=XO", TTT_EMPTY, "  4: alice (X)    "
		    "        against bob (O), 3 moves, alice and bob away\n" },
		{ "OK GAMES 0", TTT_EMPTY, "No games are being played.\n" },
		{ "OK GAMES 1", TTT_EMPTY, "1 game is being played:\n" },
		{ "OK GAMES 12", TTT_EMPTY, "12 games are being played:\n" },
		{ "OK ROOM K7QX-2M9P", TTT_EMPTY, "Your room code is K7QX-2M9P "
		    "-- give it to your friend.\nThey join with: ttt-client "
		    "--join K7QX-2M9P HOST PORT\n" },
		{ "OK PLAY AI perfect", TTT_EMPTY,
		    "You play the computer (perfect).\n" },
		{ "OK PLAY AI easy", TTT_EMPTY,
		    "You play the computer (easy).\n" },
		{ "OK RESUME", TTT_X, "You have your seat back.\n" },
		{ "OK WATCH 4", TTT_EMPTY, "" },
		{ "OK UNWATCH", TTT_EMPTY, "" },
		{ "OK SAY", TTT_X, "" },
		{ "OK RESIGN", TTT_X, "" },
		{ "TOKEN K7QX-2M9P Type RESUME K7QX-2M9P on a new connection "
		    "within 30 seconds of losing this one to get your seat "
		    "back.", TTT_X, "If you lose the connection, take your "
		    "seat back with:\n  ttt-client --resume K7QX-2M9P HOST "
		    "PORT\n" },
		{ "TOKEN K7QX-2M9P", TTT_X, "If you lose the connection, take "
		    "your seat back with:\n  ttt-client --resume K7QX-2M9P "
		    "HOST PORT\n" },
		{ "ERR NO_ROOM No room with that code is open.", TTT_EMPTY,
		    "No room with that code is open.\n" },
		/* The client's commands, not the protocol's. */
		{ "ERR IN_GAME You are in a game; finish it, RESIGN or QUIT "
		    "first.", TTT_X, "You are in a game; finish it, /resign "
		    "or quit first.\n" },
		{ "ERR IN_GAME", TTT_X, "You are in a game; finish it, /resign "
		    "or quit first.\n" },
		{ "RESULT WIN O bob alice resigned.", TTT_X,
		    "alice resigned.\n" },
		{ "INFO bob lost the connection. Waiting up to 30 seconds for "
		    "them to come back.", TTT_X, "bob lost the connection. "
		    "Waiting up to 30 seconds for them to come back.\n" },
	};

	(void)state;
	check_events(cases, sizeof cases / sizeof cases[0]);
}

/*
 * The view decides three things: a client that reconnects by itself says
 * so at TOKEN, the player who joined a room is not told to hand it on, and
 * the commands to run name the real server, in the client's words (never
 * the protocol's RESUME); the resume command is a line of its own.
 */
static void
test_render_events_view(void **state)
{
	struct render_view	 v = { TTT_X, -1, 0, KEYS_CELLS, 1, 0,
				    "ttt.example.org", "4000" };
	struct proto_event	 ev;
	const char		*token = "TOKEN 2345-ABCD Type RESUME 2345-ABCD "
				    "on a new connection.";
	const char		*room = "OK ROOM K7QX-2M9P";
	char			 buf[RENDER_MAX];

	(void)state;
	assert_int_equal(proto_event_parse(token, strlen(token), &ev), 0);
	render_event(buf, sizeof buf, &ev, &v);
	assert_string_equal(buf, "If you lose the connection, the client "
	    "reconnects by itself; or run:\n"
	    "  ttt-client --resume 2345-ABCD ttt.example.org 4000\n");
	v.reconnect = 0;
	render_event(buf, sizeof buf, &ev, &v);
	assert_string_equal(buf, "If you lose the connection, take your "
	    "seat back with:\n"
	    "  ttt-client --resume 2345-ABCD ttt.example.org 4000\n");
	assert_int_equal(proto_event_parse(room, strlen(room), &ev), 0);
	render_event(buf, sizeof buf, &ev, &v);
	assert_string_equal(buf, "Your room code is K7QX-2M9P -- give it to "
	    "your friend.\nThey join with: ttt-client --join K7QX-2M9P "
	    "ttt.example.org 4000\n");
	v.host = "::1";
	render_event(buf, sizeof buf, &ev, &v);
	assert_non_null(strstr(buf, "--join K7QX-2M9P ::1 4000\n"));
	v.joining = 1;
	render_event(buf, sizeof buf, &ev, &v);
	assert_string_equal(buf, "You joined room K7QX-2M9P.\n");
}

/* The notes of chat, /help, watching and reconnecting. */
static void
test_render_notes_chat(void **state)
{
	static const struct {
		enum render_note	 which;
		const char		*want;
	} cases[] = {
		{ RENDER_NOTE_BAD_TEXT,
		    "A chat line is 1 to 200 characters, without TAB.\n" },
		{ RENDER_NOTE_SLASH_HELP, "Commands, in the queue or in a "
		    "match:\n"
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
		    "  /help               this list; quit leaves\n" },
		{ RENDER_NOTE_BAD_GAME,
		    "Use /watch N, with a game number from /games.\n" },
		{ RENDER_NOTE_BAD_CODE, "Use /join CODE, with your friend's "
		    "room code, such as K7QX-2M9P.\n" },
		{ RENDER_NOTE_BAD_LEVEL, "Use /ai, /ai easy or /ai perfect.\n" },
		{ RENDER_NOTE_SLASH_UNKNOWN,
		    "Unknown command. Type /help for the list.\n" },
		{ RENDER_NOTE_WATCHING,
		    "You are watching; type 'quit' to leave.\n" },
		{ RENDER_NOTE_LOST, "The connection to the server was lost; "
		    "reconnecting...\n" },
		{ RENDER_NOTE_BAD_RATING, "Use /rating, or /rating NAME.\n" },
		{ RENDER_NOTE_BAD_HISTORY, "Use /history [NAME] [N], with N "
		    "from 1 to 100, such as /history alice 20.\n" },
		{ RENDER_NOTE_BAD_TOP, "Use /top [N], with N from 1 to 100.\n" },
		{ RENDER_NOTE_NAME_TO_REGISTER, "Type the name to register.\n" },
		{ RENDER_NOTE_NAME_REFUSED,
		    "Type /name NAME to choose another.\n" },
	};
	char	buf[RENDER_MAX];
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		render_note(buf, sizeof buf, cases[i].which, NULL);
		assert_string_equal(buf, cases[i].want);
	}
}

/*
 * The accounts' lines (protocol.md §12) as the player sees them, through
 * render_event: signing in, a rating, /history's and /top's tables with
 * their columns lined up (a name of 16 characters, one in another
 * script, a deleted account), and the lines that show nothing.
 */
static void
test_render_accounts(void **state)
{
	static const struct event_case	cases[] = {
		{ "OK LOGIN alice 1500 500", TTT_EMPTY,
		    "Signed in as alice (rating 1500, provisional).\n" },
		{ "OK LOGIN bob 1742 109", TTT_EMPTY,
		    "Signed in as bob (rating 1742).\n" },
		{ "OK REGISTER alice", TTT_EMPTY, "Registered alice.\n" },
		{ "OK RATING alice 1741? 397 1 1 0 0", TTT_EMPTY,
		    "alice: rating 1741? (provisional), RD 397\n"
		    "  1 game: 1 won, 0 lost, 0 tied\n" },
		{ "OK RATING bob 1400 79 30 10 15 5", TTT_EMPTY,
		    "bob: rating 1400, RD 79\n"
		    "  30 games: 10 won, 15 lost, 5 tied\n" },
		{ "OK HISTORY 0", TTT_EMPTY, "No rated games yet.\n" },
		{ "OK HISTORY 2", TTT_EMPTY, "Rated games, newest first:\n"
		    "  ended (UTC)       X                 O                 "
		    "winner  moves\n" },
		{ "PLAYED 1.1 2026-11-29T02:24:26Z alice bob X B1,A1,B2,A2,B3",
		    TTT_EMPTY, "  2026-11-29 02:24  alice             bob  "
		    "             X       B1,A1,B2,A2,B3\n" },
		{ "PLAYED 17.2 2026-01-02T23:59:59Z abcdefghijklmnop "
		    "(deleted) TIE A1,B2,C3,B1,A2,A3,C2,C1,B3", TTT_EMPTY,
		    "  2026-01-02 23:59  abcdefghijklmnop  (deleted)         "
		    "tie     A1,B2,C3,B1,A2,A3,C2,C1,B3\n" },
		{ "PLAYED 3.1 2026-11-29T02:24:26Z \xc3\xa9mile bob O -",
		    TTT_EMPTY, "  2026-11-29 02:24  \xc3\xa9mile             "
		    "bob               O       -\n" },
		{ "OK TOP 0", TTT_EMPTY, "Nobody is ranked yet: a player is "
		    "ranked once its rating is no longer provisional.\n" },
		{ "OK TOP 2", TTT_EMPTY,
		    "  rank  name              rating    RD  games\n" },
		{ "RANKED 1 alice 1702 64 31", TTT_EMPTY,
		    "     1  alice               1702    64     31\n" },
		{ "RANKED 100 abcdefghijklmnop 987 45 12345", TTT_EMPTY,
		    "   100  abcdefghijklmnop     987    45  12345\n" },
		{ "KEY q3x7mhd2kzv4lr5bpx6ejwsa4u Keep this key.", TTT_EMPTY,
		    "" },
		{ "OK REKEY", TTT_EMPTY, "" },
	};
	struct proto_event	ev;
	char			buf[RENDER_MAX];
	size_t			i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		assert_int_equal(proto_event_parse(cases[i].line,
		    strlen(cases[i].line), &ev), 0);
		render_event(buf, sizeof buf, &ev, NULL);
		if (strcmp(buf, cases[i].want) != 0)
			fail_msg("\"%s\":\n\"%s\", want\n\"%s\"", cases[i].line,
			    buf, cases[i].want);
	}
}

/* What became of a key: kept, not kept (shown), refused by the server. */
static void
test_render_key_notes(void **state)
{
	static const char	path[] = "/home/ann/.config/ttt-client/h_1.key";
	struct proto_event	ev;
	char			buf[RENDER_MAX];
	const char		*bad = "ERR BAD_KEY No account has that key.";
	const char		*none = "ERR NO_ACCOUNTS This server keeps no "
				    "accounts: everyone plays as a guest.";

	(void)state;
	render_key_kept(buf, sizeof buf, "ann", path);
	assert_string_equal(buf, "Your key is kept in "
	    "/home/ann/.config/ttt-client/h_1.key\n"
	    "It is the only copy: the server cannot show it again. Copy that "
	    "file to play as ann on another computer.\n");
	render_key_unkept(buf, sizeof buf, "k3y", path, "No space left on "
	    "device");
	assert_string_equal(buf, "Your key could not be kept in "
	    "/home/ann/.config/ttt-client/h_1.key: No space left on device\n"
	    "Your key is k3y -- write it down: it is the only copy. To sign "
	    "in with it, put it alone in that file, readable by you only "
	    "(chmod 600).\n");
	assert_int_equal(proto_event_parse(bad, strlen(bad), &ev), 0);
	render_key_refused(buf, sizeof buf, &ev, path);
	assert_string_equal(buf, "The server refused the key kept in "
	    "/home/ann/.config/ttt-client/h_1.key: No account has that key.\n"
	    "You play as a guest; the key file is kept.\n");
	assert_int_equal(proto_event_parse(none, strlen(none), &ev), 0);
	render_key_refused(buf, sizeof buf, &ev, path);
	assert_string_equal(buf, "Not signed in: This server keeps no "
	    "accounts: everyone plays as a guest.\nYou play as a guest.\n");
}

/* The bad chat note says what the server's BAD_TEXT says (§9.10). */
static void
test_render_notes_match_server_chat(void **state)
{
	char		 buf[RENDER_MAX], want[RENDER_MAX];
	const char	*text = proto_error_text(PROTO_EBAD_TEXT);

	(void)state;
	assert_non_null(text);
	render_note(buf, sizeof buf, RENDER_NOTE_BAD_TEXT, NULL);
	snprintf(want, sizeof want, "%s\n", text);
	assert_string_equal(buf, want);
}

/* Why the mode's command was refused, one line for stderr. */
static void
test_render_refusal(void **state)
{
	static const struct {
		enum proto_verb	 verb;
		const char	*arg;
		const char	*line;
		const char	*want;
	} cases[] = {
		{ PROTO_ROOM, "K7QX-2M9P",
		    "ERR NO_ROOM No room with that code is open.",
		    "cannot join room K7QX-2M9P: No room with that code is "
		    "open." },
		{ PROTO_ROOM, "", "ERR UNKNOWN_COMMAND Unknown command. Type "
		    "HELP for the list of commands.", "cannot make a room: "
		    "Unknown command. Type HELP for the list of commands." },
		{ PROTO_WATCH, "4", "ERR NO_SUCH_GAME No match with that "
		    "number is being played.", "cannot watch game 4: No match "
		    "with that number is being played." },
		{ PROTO_PLAY, "", "ERR BAD_LEVEL Use PLAY AI, PLAY AI easy or "
		    "PLAY AI perfect.", "cannot play the computer: Use PLAY "
		    "AI, PLAY AI easy or PLAY AI perfect." },
		{ PROTO_GAMES, "", "ERR RATE_LIMITED Slow down.",
		    "cannot list the games: Slow down." },
		{ PROTO_RESUME, "", "ERR BAD_TOKEN That code does not match a "
		    "seat you can resume.", "cannot get the seat back: That "
		    "code does not match a seat you can resume." },
		{ PROTO_NAME, "", "ERR BAD_NAME x\x1b", "the server refused: "
		    "x?" },
	};
	struct proto_event	ev;
	char			buf[RENDER_MAX];
	size_t			i;
	int			n;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		assert_int_equal(proto_event_parse(cases[i].line,
		    strlen(cases[i].line), &ev), 0);
		n = render_refusal(buf, sizeof buf, cases[i].verb,
		    cases[i].arg, &ev);
		assert_string_equal(buf, cases[i].want);
		assert_int_equal(n, (int)strlen(buf));
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_render_board_empty),
		cmocka_unit_test(test_render_board_mixed),
		cmocka_unit_test(test_render_board_full),
		cmocka_unit_test(test_render_board_matches_server_art),
		cmocka_unit_test(test_render_board_bad_cells),
		cmocka_unit_test(test_render_board_small_buffer),
		cmocka_unit_test(test_render_board_colour),
		cmocka_unit_test(test_render_board_colour_off),
		cmocka_unit_test(test_render_board_last_move),
		cmocka_unit_test(test_render_board_key_maps),
		cmocka_unit_test(test_render_board_colour_small_buffer),
		cmocka_unit_test(test_render_event_colour),
		cmocka_unit_test(test_render_prompts_styles),
		cmocka_unit_test(test_render_notes_styles),
		cmocka_unit_test(test_render_last),
		cmocka_unit_test(test_render_events),
		cmocka_unit_test(test_render_event_board),
		cmocka_unit_test(test_render_event_fallbacks),
		cmocka_unit_test(test_render_event_control_bytes),
		cmocka_unit_test(test_render_event_utf8),
		cmocka_unit_test(test_render_event_utf8_names),
		cmocka_unit_test(test_render_renamed),
		cmocka_unit_test(test_render_board_winning_line),
		cmocka_unit_test(test_render_event_bad_kind),
		cmocka_unit_test(test_render_event_turn_without_mark),
		cmocka_unit_test(test_render_prompts),
		cmocka_unit_test(test_render_notes),
		cmocka_unit_test(test_render_notes_match_server),
		cmocka_unit_test(test_render_event_small_buffer),
		cmocka_unit_test(test_render_events_rooms_chat),
		cmocka_unit_test(test_render_events_view),
		cmocka_unit_test(test_render_notes_chat),
		cmocka_unit_test(test_render_notes_match_server_chat),
		cmocka_unit_test(test_render_refusal),
		cmocka_unit_test(test_render_accounts),
		cmocka_unit_test(test_render_key_notes),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
