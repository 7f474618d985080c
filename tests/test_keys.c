/*
 * test_keys.c -- ttt-client's input styles: what a line typed at the move
 * prompt means (A1/b2 cells, keypad keys, row and column digits), how each
 * style names a square, and the style names --keys takes.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "keys.h"

struct move_case {
	const char	*line;
	int		 cell;		/* -1: names no cell */
};

/* Cells by name, for the tables: A1 is 0, C1 2, A3 6, C3 8. */
enum { A1, B1, C1, A2, B2, C2, A3, B3, C3 };

/* Lines in each style, each case, with blanks around. */
static const struct move_case move_cases[] = {
	/* cells: column letter, row digit (seed 000) */
	{ "A1", A1 }, { "a1", A1 }, { "b2", B2 }, { "B2", B2 }, { "C3", C3 },
	{ "c1", C1 }, { "A3", A3 }, { "b3", B3 }, { "C2", C2 },
	{ " b2 ", B2 }, { "\tC1\t", C1 },
	/* keypad: q w e / a s d / z x c, top row first (seed 003) */
	{ "q", A1 }, { "w", B1 }, { "e", C1 },
	{ "a", A2 }, { "s", B2 }, { "d", C2 },
	{ "z", A3 }, { "x", B3 }, { "c", C3 },
	{ "Q", A1 }, { "S", B2 }, { "C", C3 }, { "  x ", B3 },
	/* digits: row, then column, 1 to 3, together or apart (seed 004) */
	{ "11", A1 }, { "13", C1 }, { "31", A3 }, { "22", B2 }, { "33", C3 },
	{ "1 3", C1 }, { "3 1", A3 }, { "2\t3", C2 }, { "1   2", B1 },
	{ " 3 3 ", C3 },
};

/* Lines that name no cell: other words keep their meaning. */
static const struct move_case no_move_cases[] = {
	{ "", -1 }, { " ", -1 }, { "\t \t", -1 },
	/* the protocol's words: quit, answers, commands */
	{ "quit", -1 }, { "QUIT", -1 }, { "y", -1 }, { "n", -1 },
	{ "yes", -1 }, { "no", -1 }, { "move b2", -1 }, { "help", -1 },
	/* off the board */
	{ "D1", -1 }, { "A4", -1 }, { "A0", -1 }, { "1", -1 },
	{ "0 1", -1 }, { "1 0", -1 }, { "4 4", -1 }, { "14", -1 },
	{ "41", -1 }, { "00", -1 },
	/* not a key, or more than one */
	{ "b", -1 }, { "f", -1 }, { "r", -1 }, { "qq", -1 }, { "q w", -1 },
	{ "sd", -1 }, { "1q", -1 },
	/* mixed or too long */
	{ "123", -1 }, { "1x3", -1 }, { "1,3", -1 }, { "A 1", -1 },
	{ "1 A", -1 }, { "A11", -1 }, { "b2 c3", -1 }, { "1 2 3", -1 },
};

/* Every line of the table means its cell. */
static void
test_keys_move_styles(void **state)
{
	size_t	i;
	int	got;

	(void)state;
	for (i = 0; i < sizeof move_cases / sizeof move_cases[0]; i++) {
		got = keys_move(move_cases[i].line,
		    strlen(move_cases[i].line));
		if (got != move_cases[i].cell)
			fail_msg("\"%s\": got %d, want %d", move_cases[i].line,
			    got, move_cases[i].cell);
	}
}

/* Other words, off-board squares and mixtures are no move. */
static void
test_keys_move_rejects(void **state)
{
	size_t	i;
	int	got;

	(void)state;
	for (i = 0; i < sizeof no_move_cases / sizeof no_move_cases[0]; i++) {
		got = keys_move(no_move_cases[i].line,
		    strlen(no_move_cases[i].line));
		if (got != no_move_cases[i].cell)
			fail_msg("\"%s\": got %d, want %d",
			    no_move_cases[i].line, got, no_move_cases[i].cell);
	}
}

/* Only len bytes count: no reading past them, and a NUL is no key. */
static void
test_keys_move_length(void **state)
{
	(void)state;
	assert_int_equal(keys_move("b2c3", 2), B2);
	assert_int_equal(keys_move("s", 0), -1);
	assert_int_equal(keys_move("1 3", 1), -1);
	assert_int_equal(keys_move("\0", 1), -1);
	assert_int_equal(keys_move("\0" "1", 2), -1);
	assert_int_equal(keys_move("q\0", 2), -1);
}

/* How each style names each square, exactly. */
static void
test_keys_labels(void **state)
{
	static const char *const	want[KEYS_NSTYLES][9] = {
		{ "A1", "B1", "C1", "A2", "B2", "C2", "A3", "B3", "C3" },
		{ "q", "w", "e", "a", "s", "d", "z", "x", "c" },
		{ "11", "12", "13", "21", "22", "23", "31", "32", "33" },
	};
	char				buf[8];
	int				style, cell;

	(void)state;
	for (style = 0; style < KEYS_NSTYLES; style++) {
		for (cell = 0; cell < 9; cell++) {
			assert_int_equal(keys_label(buf, sizeof buf,
			    (enum keys_style)style, cell),
			    (int)strlen(want[style][cell]));
			assert_string_equal(buf, want[style][cell]);
		}
	}
	assert_int_equal(keys_label(buf, sizeof buf, KEYS_CELLS, -1), 0);
	assert_string_equal(buf, "");
	assert_int_equal(keys_label(buf, sizeof buf, KEYS_KEYPAD, 9), 0);
	assert_int_equal(keys_label(buf, sizeof buf, KEYS_NSTYLES, 0), 0);
	assert_int_equal(keys_label(buf, 2, KEYS_CELLS, C3), 2);
	assert_string_equal(buf, "C");
}

/* Round trip: every style's name for a square is read back as it. */
static void
test_keys_label_round_trip(void **state)
{
	char	buf[8];
	int	style, cell;

	(void)state;
	for (style = 0; style < KEYS_NSTYLES; style++) {
		for (cell = 0; cell < 9; cell++) {
			keys_label(buf, sizeof buf, (enum keys_style)style,
			    cell);
			assert_int_equal(keys_move(buf, strlen(buf)), cell);
		}
	}
}

/* The names --keys takes, exactly, and back. */
static void
test_keys_style_names(void **state)
{
	static const char *const	bad[] = {
		"", "Cells", "KEYPAD", "cell", "keypads", "digit", "a1",
		" cells"
	};
	enum keys_style			style;
	size_t				i;
	int				s;

	(void)state;
	assert_int_equal(keys_style_parse("cells", &style), 0);
	assert_int_equal(style, KEYS_CELLS);
	assert_int_equal(keys_style_parse("keypad", &style), 0);
	assert_int_equal(style, KEYS_KEYPAD);
	assert_int_equal(keys_style_parse("digits", &style), 0);
	assert_int_equal(style, KEYS_DIGITS);
	for (s = 0; s < KEYS_NSTYLES; s++) {
		assert_int_equal(keys_style_parse(
		    keys_style_name((enum keys_style)s), &style), 0);
		assert_int_equal(style, s);
	}
	style = KEYS_DIGITS;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		assert_int_equal(keys_style_parse(bad[i], &style), -1);
		assert_int_equal(style, KEYS_DIGITS);
	}
	assert_string_equal(keys_style_name(KEYS_NSTYLES), "?");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keys_move_styles),
		cmocka_unit_test(test_keys_move_rejects),
		cmocka_unit_test(test_keys_move_length),
		cmocka_unit_test(test_keys_labels),
		cmocka_unit_test(test_keys_label_round_trip),
		cmocka_unit_test(test_keys_style_names),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
