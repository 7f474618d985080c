/*
 * test_render.c -- what ttt-client shows: the board drawn from BOARD cells,
 * each server event in words, prompts and notes, and odd input.
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

static void	render_line(const char *, enum ttt_mark, char *, size_t);
static void	strip_cr(char *);

/* Parse a server line and render it. */
static void
render_line(const char *line, enum ttt_mark mine, char *out, size_t size)
{
	struct proto_event	ev;
	int			n;

	assert_int_equal(proto_event_parse(line, strlen(line), &ev), 0);
	n = render_event(out, size, &ev, mine);
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

/* An empty board: the seed layout with blank cells. */
static void
test_render_board_empty(void **state)
{
	char	buf[RENDER_MAX];

	(void)state;
	assert_int_equal(render_board(buf, sizeof buf, "........."),
	    (int)strlen(empty_art));
	assert_string_equal(buf, empty_art);
}

/* A game in progress, as in the design brief. */
static void
test_render_board_mixed(void **state)
{
	char	buf[RENDER_MAX];

	(void)state;
	render_board(buf, sizeof buf, "XO..X...O");
	assert_string_equal(buf, mixed_art);
}

/* A full board. */
static void
test_render_board_full(void **state)
{
	char	buf[RENDER_MAX];

	(void)state;
	render_board(buf, sizeof buf, "XOXXOOOXX");
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
		render_board(mine, sizeof mine, cells);
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
	render_board(buf, sizeof buf, NULL);
	assert_string_equal(buf, empty_art);
	render_board(buf, sizeof buf, "");
	assert_string_equal(buf, empty_art);
	render_board(buf, sizeof buf, "XO");
	assert_memory_equal(buf, "      A   B   C\n  1   X | O |  \n", 32);
	assert_string_equal(buf + 32, empty_art + 32);
	render_board(buf, sizeof buf, "Zx o?\t\n\x80.");
	assert_string_equal(buf, empty_art);
	/* Only the first nine cells count. */
	render_board(buf, sizeof buf, "XO..X...OXXXX");
	assert_string_equal(buf, mixed_art);
}

/* snprintf semantics: the full length back, a cut and terminated text. */
static void
test_render_board_small_buffer(void **state)
{
	char	buf[16];

	(void)state;
	memset(buf, '#', sizeof buf);
	assert_int_equal(render_board(buf, 0, "XO..X...O"),
	    (int)strlen(mixed_art));
	assert_int_equal(buf[0], '#');
	assert_int_equal(render_board(buf, 10, "XO..X...O"),
	    (int)strlen(mixed_art));
	assert_string_equal(buf, "      A  ");
	assert_int_equal(buf[10], '#');
	assert_int_equal(render_board(buf, 1, "XO..X...O"),
	    (int)strlen(mixed_art));
	assert_string_equal(buf, "");
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
	char	buf[RENDER_MAX];
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		render_line(cases[i].line, cases[i].mine, buf, sizeof buf);
		if (strcmp(buf, cases[i].want) != 0)
			fail_msg("\"%s\": got \"%s\", want \"%s\"",
			    cases[i].line, buf, cases[i].want);
	}
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
	char	buf[RENDER_MAX];
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		render_line(cases[i].line, cases[i].mine, buf, sizeof buf);
		if (strcmp(buf, cases[i].want) != 0)
			fail_msg("\"%s\": got \"%s\", want \"%s\"",
			    cases[i].line, buf, cases[i].want);
	}
}

/* A server cannot move the cursor or clear the screen through its text. */
static void
test_render_event_control_bytes(void **state)
{
	char	buf[RENDER_MAX];

	(void)state;
	render_line("INFO a\x1b[2Jb\x7f\x01\xc3\xa9!", TTT_X, buf, sizeof buf);
	assert_string_equal(buf, "a?[2Jb?\?\?\?!\n");
	render_line("RESULT TIE tie\tgame\r", TTT_X, buf, sizeof buf);
	assert_string_equal(buf, "tie?game\n");
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
	assert_int_equal(render_event(buf, sizeof buf, &ev, TTT_X), 0);
	assert_string_equal(buf, "");
	ev.kind = (enum proto_kind)99;
	assert_int_equal(render_event(buf, sizeof buf, &ev, TTT_X), 0);
	ev.kind = PROTO_EV_INFO;
	assert_int_equal(render_event(buf, sizeof buf, &ev, TTT_X), 8);
	assert_string_equal(buf, "ignored");
	assert_int_equal(render_event(NULL, 0, &ev, TTT_X), 8);
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
	render_event(buf, sizeof buf, &ev, TTT_EMPTY);
	assert_string_equal(buf, "Waiting for p1 to move...\n");
	ev.mark = TTT_X;
	render_event(buf, sizeof buf, &ev, TTT_X);
	assert_string_equal(buf,
	    "Enter your move (A1, B2, C3) or 'quit' to exit: ");
}

/* The prompts, exactly, and nothing for an unknown one. */
static void
test_render_prompts(void **state)
{
	char	buf[RENDER_MAX];

	(void)state;
	render_prompt(buf, sizeof buf, RENDER_PROMPT_NAME);
	assert_string_equal(buf, "Enter your name: ");
	render_prompt(buf, sizeof buf, RENDER_PROMPT_MOVE);
	assert_string_equal(buf,
	    "Enter your move (A1, B2, C3) or 'quit' to exit: ");
	render_prompt(buf, sizeof buf, RENDER_PROMPT_AGAIN);
	assert_string_equal(buf, "Play again? (y/n) or 'quit' to exit: ");
	assert_int_equal(render_prompt(buf, sizeof buf,
	    (enum render_prompt)42), 0);
	assert_string_equal(buf, "");
}

/* The notes, exactly, and nothing for an unknown one. */
static void
test_render_notes(void **state)
{
	char	buf[RENDER_MAX];

	(void)state;
	render_note(buf, sizeof buf, RENDER_NOTE_BAD_MOVE);
	assert_string_equal(buf,
	    "Invalid input. Accepted examples: A1, b2, C3.\n");
	render_note(buf, sizeof buf, RENDER_NOTE_BAD_ANSWER);
	assert_string_equal(buf, "Please enter y or n.\n");
	render_note(buf, sizeof buf, RENDER_NOTE_BAD_NAME);
	assert_string_equal(buf,
	    "A name is 1 to 16 letters, digits, '_' or '-'.\n");
	render_note(buf, sizeof buf, RENDER_NOTE_NOT_YOUR_TURN);
	assert_string_equal(buf, "Please wait for your turn.\n");
	assert_int_equal(render_note(buf, sizeof buf, (enum render_note)-1),
	    0);
	assert_string_equal(buf, "");
}

/* The client's notes say what the server's errors say. */
static void
test_render_notes_match_server(void **state)
{
	char	buf[RENDER_MAX], want[RENDER_MAX];

	(void)state;
	render_note(buf, sizeof buf, RENDER_NOTE_BAD_MOVE);
	snprintf(want, sizeof want, "%s\n",
	    proto_error_text(PROTO_EBAD_CELL));
	assert_string_equal(buf, want);
	render_note(buf, sizeof buf, RENDER_NOTE_BAD_ANSWER);
	snprintf(want, sizeof want, "%s\n",
	    proto_error_text(PROTO_EBAD_ANSWER));
	assert_string_equal(buf, want);
	render_note(buf, sizeof buf, RENDER_NOTE_BAD_NAME);
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
	assert_int_equal(render_event(buf, sizeof buf, &ev, TTT_X), 12);
	assert_string_equal(buf, "It's a ");
	memset(buf, '#', sizeof buf);
	assert_int_equal(proto_event_parse(bye, strlen(bye), &ev), 0);
	assert_int_equal(render_event(buf, 0, &ev, TTT_X), 23);
	assert_int_equal(buf[0], '#');
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
		cmocka_unit_test(test_render_events),
		cmocka_unit_test(test_render_event_board),
		cmocka_unit_test(test_render_event_fallbacks),
		cmocka_unit_test(test_render_event_control_bytes),
		cmocka_unit_test(test_render_event_bad_kind),
		cmocka_unit_test(test_render_event_turn_without_mark),
		cmocka_unit_test(test_render_prompts),
		cmocka_unit_test(test_render_notes),
		cmocka_unit_test(test_render_notes_match_server),
		cmocka_unit_test(test_render_event_small_buffer),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
