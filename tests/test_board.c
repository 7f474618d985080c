/*
 * test_board.c -- unit tests for the rules engine (common/board.c).
 *
 * Table-driven where there are cases to list, and one exhaustive walk over
 * every reachable game, checked against a naive 3x3 checker written here.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>

#include <cmocka.h>

#include <limits.h>
#include <string.h>

#include "ttt.h"

/* The eight lines written out cell by cell, independent of board.c. */
static const int lines[8][3] = {
	{ 0, 1, 2 }, { 3, 4, 5 }, { 6, 7, 8 },		/* rows 1, 2, 3 */
	{ 0, 3, 6 }, { 1, 4, 7 }, { 2, 5, 8 },		/* columns A to C */
	{ 0, 4, 8 }, { 2, 4, 6 }			/* diagonals */
};

struct walk {
	long	nodes;
	long	leaves;
	long	xwins;
	long	owins;
	long	draws;
};

static int	naive_wins(const char [3][3], char);
static enum ttt_outcome naive_outcome(const char [3][3], int);
static void	board_fresh(struct ttt_board *, enum ttt_mark);
static void	play_ok(struct ttt_board *, enum ttt_mark, int);
static void	play_fails(struct ttt_board *, enum ttt_mark, int,
		    enum ttt_error);
static void	walk(struct ttt_board *, char [3][3], enum ttt_mark, int,
		    int, struct walk *);
static void	walk_from(enum ttt_mark, struct walk *);
static size_t	board_index(const struct ttt_board *);
static void	reach(const struct ttt_board *, unsigned char *);

/* Does this mark hold a whole row, column or diagonal of the grid? */
static int
naive_wins(const char g[3][3], char m)
{
	int	i;

	for (i = 0; i < 3; i++) {
		if (g[i][0] == m && g[i][1] == m && g[i][2] == m)
			return (1);
		if (g[0][i] == m && g[1][i] == m && g[2][i] == m)
			return (1);
	}
	if (g[0][0] == m && g[1][1] == m && g[2][2] == m)
		return (1);
	if (g[0][2] == m && g[1][1] == m && g[2][0] == m)
		return (1);
	return (0);
}

/* The outcome of a grid after a number of moves, by the naive checker. */
static enum ttt_outcome
naive_outcome(const char g[3][3], int moves)
{
	if (naive_wins(g, 'X'))
		return (TTT_WIN_X);
	if (naive_wins(g, 'O'))
		return (TTT_WIN_O);
	if (moves == TTT_CELLS)
		return (TTT_DRAW);
	return (TTT_ONGOING);
}

/* Start a board whose padding bytes are known, so memcmp is meaningful. */
static void
board_fresh(struct ttt_board *b, enum ttt_mark first)
{
	memset(b, 0, sizeof *b);
	ttt_board_init(b, first);
}

/* Play a move that must be accepted. */
static void
play_ok(struct ttt_board *b, enum ttt_mark mark, int cell)
{
	enum ttt_error	e = ttt_board_play(b, mark, cell);

	if (e != TTT_OK)
		fail_msg("play mark %d cell %d: error %d, want TTT_OK",
		    mark, cell, e);
}

/* Play a move that must be refused with this error, leaving b unchanged. */
static void
play_fails(struct ttt_board *b, enum ttt_mark mark, int cell,
    enum ttt_error want)
{
	unsigned char	before[sizeof *b];
	enum ttt_error	e;

	memcpy(before, b, sizeof before);
	e = ttt_board_play(b, mark, cell);
	if (e != want)
		fail_msg("play mark %d cell %d: error %d, want %d",
		    mark, cell, e, want);
	if (memcmp(before, b, sizeof before) != 0)
		fail_msg("play mark %d cell %d: board changed on error %d",
		    mark, cell, e);
}

/* Each of the 8 lines wins for X and for O; the loser never wins first. */
static void
test_board_win_every_line(void **state)
{
	struct ttt_board	b;
	enum ttt_mark		winner, loser;
	int			l, w, i, k, n, nother;
	int			used[TTT_CELLS], other[3], seq[TTT_CELLS];

	(void)state;
	for (w = 0; w < 2; w++) {
		winner = w == 0 ? TTT_X : TTT_O;
		loser = ttt_mark_other(winner);
		for (l = 0; l < 8; l++) {
			char	g[3][3];

			/*
			 * The loser moves first when O is to win, so each
			 * case is a legal game from X's first move.  The
			 * loser's cells are picked off the line, skipping
			 * any that would complete a line of its own.
			 */
			memset(used, 0, sizeof used);
			memset(g, '.', sizeof g);
			for (i = 0; i < 3; i++) {
				used[lines[l][i]] = 1;
				g[lines[l][i] / 3][lines[l][i] % 3] = '#';
			}
			nother = 0;
			for (k = 0; k < TTT_CELLS && nother < w + 2; k++) {
				if (used[k])
					continue;
				g[k / 3][k % 3] = 'L';
				if (naive_wins(g, 'L')) {
					g[k / 3][k % 3] = '.';
					continue;
				}
				other[nother++] = k;
			}
			assert_int_equal(nother, w + 2);

			n = 0;
			for (i = 0; i < 3; i++) {
				if (w == 1)
					seq[n++] = other[i];
				seq[n++] = lines[l][i];
				if (w == 0 && i < 2)
					seq[n++] = other[i];
			}

			board_fresh(&b, TTT_X);
			for (i = 0; i < n; i++) {
				enum ttt_mark	m;

				m = (i % 2) == 0 ? TTT_X : TTT_O;

				assert_int_equal(ttt_board_outcome(&b),
				    TTT_ONGOING);
				assert_int_equal(ttt_board_turn(&b), m);
				play_ok(&b, m, seq[i]);
			}
			if (ttt_board_outcome(&b) !=
			    (winner == TTT_X ? TTT_WIN_X : TTT_WIN_O))
				fail_msg("line %d for %c: outcome %d", l,
				    ttt_mark_char(winner),
				    ttt_board_outcome(&b));
			assert_int_equal(ttt_board_winner(&b), winner);
			assert_int_equal(ttt_board_turn(&b), TTT_EMPTY);
			assert_int_equal(ttt_board_moves(&b), n);
			assert_int_equal(ttt_board_last(&b), lines[l][2]);
			for (i = 0; i < 3; i++)
				assert_int_equal(ttt_board_at(&b, lines[l][i]),
				    winner);
			/* Neither mark may move on any cell now. */
			for (k = 0; k < TTT_CELLS; k++) {
				play_fails(&b, loser, k, TTT_EOVER);
				play_fails(&b, winner, k, TTT_EOVER);
			}
		}
	}
}

/*
 * ttt_line_of, for every set of cells: a line of the eight wholly inside
 * the set when there is one (the first, in the table's order), else 0.
 */
static void
test_board_line_of(void **state)
{
	unsigned	mask, want, l, line;

	(void)state;
	for (mask = 0; mask < 512; mask++) {
		want = 0;
		for (l = 0; l < 8 && want == 0; l++) {
			line = (1u << lines[l][0]) | (1u << lines[l][1]) |
			    (1u << lines[l][2]);
			if ((mask & line) == line)
				want = line;
		}
		if (ttt_line_of((uint16_t)mask) != want)
			fail_msg("mask %03x: line %03x, want %03x", mask,
			    ttt_line_of((uint16_t)mask), want);
	}
}

/* A full board with no line is a draw with no winner. */
static void
test_board_draw_full_board(void **state)
{
	/* X O X / X O O / O X X */
	static const int	 seq[TTT_CELLS] = { 0, 1, 2, 4, 3, 5, 7, 6, 8 };
	struct ttt_board	 b;
	int			 i;

	(void)state;
	board_fresh(&b, TTT_X);
	for (i = 0; i < TTT_CELLS; i++) {
		assert_int_equal(ttt_board_outcome(&b), TTT_ONGOING);
		play_ok(&b, (i % 2) == 0 ? TTT_X : TTT_O, seq[i]);
	}
	assert_int_equal(ttt_board_outcome(&b), TTT_DRAW);
	assert_int_equal(ttt_board_winner(&b), TTT_EMPTY);
	assert_int_equal(ttt_board_turn(&b), TTT_EMPTY);
	assert_int_equal(ttt_board_moves(&b), TTT_CELLS);
	assert_int_equal(ttt_board_last(&b), 8);
	for (i = 0; i < TTT_CELLS; i++) {
		assert_int_not_equal(ttt_board_at(&b, i), TTT_EMPTY);
		play_fails(&b, TTT_X, i, TTT_EOVER);
		play_fails(&b, TTT_O, i, TTT_EOVER);
	}
}

/* Regression guard: a line made by the ninth move is a win, not a draw. */
static void
test_board_win_on_ninth_move_is_not_draw(void **state)
{
	/* X O X / O X O / O X X: the last X at C3 completes A1-C3. */
	static const int	 seq[TTT_CELLS] = { 0, 1, 2, 3, 4, 5, 7, 6, 8 };
	struct ttt_board	 b;
	int			 i;

	(void)state;
	board_fresh(&b, TTT_X);
	for (i = 0; i < TTT_CELLS; i++) {
		assert_int_equal(ttt_board_outcome(&b), TTT_ONGOING);
		play_ok(&b, (i % 2) == 0 ? TTT_X : TTT_O, seq[i]);
	}
	assert_int_equal(ttt_board_moves(&b), TTT_CELLS);
	assert_int_equal(ttt_board_outcome(&b), TTT_WIN_X);
	assert_int_equal(ttt_board_winner(&b), TTT_X);
	assert_int_equal(ttt_board_turn(&b), TTT_EMPTY);

	/* The same with O, starting first, winning on the ninth move. */
	board_fresh(&b, TTT_O);
	for (i = 0; i < TTT_CELLS; i++)
		play_ok(&b, (i % 2) == 0 ? TTT_O : TTT_X, seq[i]);
	assert_int_equal(ttt_board_outcome(&b), TTT_WIN_O);
	assert_int_equal(ttt_board_winner(&b), TTT_O);
}

/* A taken cell is refused with EOCCUPIED and the board is untouched. */
static void
test_board_occupied_cell_unchanged(void **state)
{
	struct ttt_board	b;

	(void)state;
	board_fresh(&b, TTT_X);
	play_ok(&b, TTT_X, 4);
	play_fails(&b, TTT_O, 4, TTT_EOCCUPIED);	/* the other's cell */
	play_ok(&b, TTT_O, 0);
	play_fails(&b, TTT_X, 4, TTT_EOCCUPIED);	/* its own cell */
	play_fails(&b, TTT_X, 0, TTT_EOCCUPIED);
	assert_int_equal(ttt_board_turn(&b), TTT_X);
	assert_int_equal(ttt_board_moves(&b), 2);
	assert_int_equal(ttt_board_last(&b), 0);
}

/* Cells outside 0..8 and marks other than X/O are ERANGE, in any state. */
static void
test_board_out_of_range_unchanged(void **state)
{
	static const int		cells[] = {
		-1, 9, 100, INT_MIN, INT_MAX
	};
	static const enum ttt_mark	badmarks[] = {
		TTT_EMPTY, (enum ttt_mark)3
	};
	struct ttt_board		b;
	size_t				i;
	int				k, s;

	(void)state;
	/* s = 0: a fresh board, 1: mid-game, 2: a finished game. */
	for (s = 0; s < 3; s++) {
		board_fresh(&b, TTT_X);
		if (s >= 1) {
			play_ok(&b, TTT_X, 0);
			play_ok(&b, TTT_O, 3);
		}
		if (s == 2) {
			play_ok(&b, TTT_X, 1);
			play_ok(&b, TTT_O, 4);
			play_ok(&b, TTT_X, 2);
			assert_int_equal(ttt_board_outcome(&b), TTT_WIN_X);
		}
		for (i = 0; i < sizeof cells / sizeof cells[0]; i++) {
			play_fails(&b, TTT_X, cells[i], TTT_ERANGE);
			play_fails(&b, TTT_O, cells[i], TTT_ERANGE);
		}
		for (i = 0; i < sizeof badmarks / sizeof badmarks[0]; i++) {
			for (k = 0; k < TTT_CELLS; k++)
				play_fails(&b, badmarks[i], k, TTT_ERANGE);
		}
	}
}

/* Moves after the end are EOVER; the documented check order holds. */
static void
test_board_move_after_end_is_over(void **state)
{
	struct ttt_board	b;

	(void)state;
	board_fresh(&b, TTT_O);
	play_ok(&b, TTT_O, 0);
	play_ok(&b, TTT_X, 3);
	play_ok(&b, TTT_O, 1);
	play_ok(&b, TTT_X, 4);
	play_ok(&b, TTT_O, 2);
	assert_int_equal(ttt_board_outcome(&b), TTT_WIN_O);
	play_fails(&b, TTT_X, 8, TTT_EOVER);	/* would be X's turn */
	play_fails(&b, TTT_O, 8, TTT_EOVER);
	play_fails(&b, TTT_X, 0, TTT_EOVER);	/* over before occupied */
	play_fails(&b, TTT_O, 9, TTT_ERANGE);	/* range before over */
}

/* The mark not to move gets ETURN, even on a taken cell. */
static void
test_board_wrong_turn(void **state)
{
	struct ttt_board	b;

	(void)state;
	board_fresh(&b, TTT_X);
	play_fails(&b, TTT_O, 4, TTT_ETURN);
	play_ok(&b, TTT_X, 4);
	play_fails(&b, TTT_X, 0, TTT_ETURN);
	play_fails(&b, TTT_X, 4, TTT_ETURN);	/* turn before occupied */
	play_ok(&b, TTT_O, 0);
	play_fails(&b, TTT_O, 8, TTT_ETURN);
}

/* Turns alternate from the first mark given to ttt_board_init. */
static void
test_board_turn_alternates(void **state)
{
	static const enum ttt_mark	firsts[] = { TTT_X, TTT_O };
	struct ttt_board		b;
	enum ttt_mark			m;
	size_t				f;
	int				i;
	/* No line is complete before the board fills: X O X / X O O / O X X */
	static const int		seq[TTT_CELLS] = {
		0, 1, 2, 4, 3, 5, 7, 6, 8
	};

	(void)state;
	for (f = 0; f < sizeof firsts / sizeof firsts[0]; f++) {
		board_fresh(&b, firsts[f]);
		m = firsts[f];
		for (i = 0; i < TTT_CELLS; i++) {
			assert_int_equal(ttt_board_turn(&b), m);
			play_ok(&b, m, seq[i]);
			m = ttt_mark_other(m);
		}
		assert_int_equal(ttt_board_outcome(&b), TTT_DRAW);
		/* The first mover made 5 moves, the other 4. */
		for (i = 0; i < TTT_CELLS; i++) {
			assert_int_equal(ttt_board_at(&b, seq[i]),
			    (i % 2) == 0 ? firsts[f] :
			    ttt_mark_other(firsts[f]));
		}
	}
}

/* A fresh board: empty, ongoing, no moves, no last cell, right mover. */
static void
test_board_init(void **state)
{
	struct ttt_board	b;
	int			i;

	(void)state;
	board_fresh(&b, TTT_O);
	assert_int_equal(ttt_board_turn(&b), TTT_O);
	assert_int_equal(ttt_board_outcome(&b), TTT_ONGOING);
	assert_int_equal(ttt_board_winner(&b), TTT_EMPTY);
	assert_int_equal(ttt_board_moves(&b), 0);
	assert_int_equal(ttt_board_last(&b), -1);
	for (i = 0; i < TTT_CELLS; i++)
		assert_int_equal(ttt_board_at(&b, i), TTT_EMPTY);
	play_fails(&b, TTT_X, 0, TTT_ETURN);

	board_fresh(&b, TTT_X);
	assert_int_equal(ttt_board_turn(&b), TTT_X);
	play_fails(&b, TTT_O, 0, TTT_ETURN);

	/* Re-initialising a played board empties it. */
	play_ok(&b, TTT_X, 4);
	ttt_board_init(&b, TTT_O);
	assert_int_equal(ttt_board_moves(&b), 0);
	assert_int_equal(ttt_board_at(&b, 4), TTT_EMPTY);
	assert_int_equal(ttt_board_last(&b), -1);
	assert_int_equal(ttt_board_turn(&b), TTT_O);
}

/* ttt_board_moves, ttt_board_last and ttt_board_at follow each move. */
static void
test_board_moves_last_at(void **state)
{
	static const int	 seq[] = { 8, 0, 6, 7, 2 };
	struct ttt_board	 b;
	int			 i, k;

	(void)state;
	board_fresh(&b, TTT_X);
	for (i = 0; i < (int)(sizeof seq / sizeof seq[0]); i++) {
		enum ttt_mark	m = (i % 2) == 0 ? TTT_X : TTT_O;

		play_ok(&b, m, seq[i]);
		assert_int_equal(ttt_board_moves(&b), i + 1);
		assert_int_equal(ttt_board_last(&b), seq[i]);
		for (k = 0; k < TTT_CELLS; k++) {
			enum ttt_mark	want = TTT_EMPTY;
			int		j;

			for (j = 0; j <= i; j++) {
				if (seq[j] == k)
					want = (j % 2) == 0 ? TTT_X : TTT_O;
			}
			assert_int_equal(ttt_board_at(&b, k), want);
		}
	}
	/* Out-of-range cells read as empty. */
	assert_int_equal(ttt_board_at(&b, -1), TTT_EMPTY);
	assert_int_equal(ttt_board_at(&b, 9), TTT_EMPTY);
	assert_int_equal(ttt_board_at(&b, 100), TTT_EMPTY);
	assert_int_equal(ttt_board_at(&b, INT_MIN), TTT_EMPTY);
}

/* Every cell name parses, upper and lower case, to its row-major index. */
static void
test_board_cell_parse_valid(void **state)
{
	static const struct {
		const char	*s;
		int		 cell;
	} cases[] = {
		{ "A1", 0 }, { "B1", 1 }, { "C1", 2 },
		{ "A2", 3 }, { "B2", 4 }, { "C2", 5 },
		{ "A3", 6 }, { "B3", 7 }, { "C3", 8 },
		{ "a1", 0 }, { "b1", 1 }, { "c1", 2 },
		{ "a2", 3 }, { "b2", 4 }, { "c2", 5 },
		{ "a3", 6 }, { "b3", 7 }, { "c3", 8 },
	};
	size_t	i;
	int	got;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		got = ttt_cell_parse(cases[i].s, strlen(cases[i].s));
		if (got != cases[i].cell)
			fail_msg("ttt_cell_parse(\"%s\") = %d, want %d",
			    cases[i].s, got, cases[i].cell);
	}
	/* Only len bytes are looked at. */
	assert_int_equal(ttt_cell_parse("B2junk", 2), 4);
}

/* Malformed cell names are -1. */
static void
test_board_cell_parse_invalid(void **state)
{
	static const struct {
		const char	*s;
		size_t		 len;
	} cases[] = {
		{ "D1", 2 }, { "d1", 2 }, { "A4", 2 }, { "A0", 2 },
		{ "AA", 2 }, { "11", 2 }, { "B22", 3 }, { "", 0 },
		{ "1A", 2 }, { "a", 1 }, { "B", 1 }, { "\xc1" "1", 2 },
		{ "\xe1" "1", 2 }, { "\xc3" "3", 2 }, { "\x81" "1", 2 },
		{ "@1", 2 }, { "`1", 2 }, { "!1", 2 }, { "A\x31" "0", 3 },
		{ "B2", 1 }, { "B2", 3 }, { " B2", 3 }, { "B2 ", 3 },
		{ "B:", 2 }, { "B/", 2 }, { "A\0", 2 }, { "\0" "1", 2 },
	};
	size_t	i;
	int	got;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		got = ttt_cell_parse(cases[i].s, cases[i].len);
		if (got != -1)
			fail_msg("ttt_cell_parse case %zu (len %zu) = %d, "
			    "want -1", i, cases[i].len, got);
	}
}

/* ttt_cell_name gives upper-case names that parse back to the cell. */
static void
test_board_cell_name_round_trip(void **state)
{
	static const char	*names[TTT_CELLS] = {
		"A1", "B1", "C1", "A2", "B2", "C2", "A3", "B3", "C3"
	};
	char			 name[3];
	int			 cell;

	(void)state;
	for (cell = 0; cell < TTT_CELLS; cell++) {
		memset(name, 'Z', sizeof name);
		ttt_cell_name(cell, name);
		assert_string_equal(name, names[cell]);
		assert_int_equal(ttt_cell_parse(name, strlen(name)), cell);
	}
	ttt_cell_name(-1, name);
	assert_string_equal(name, "??");
	ttt_cell_name(9, name);
	assert_string_equal(name, "??");
}

/* ttt_mark_other swaps X and O; ttt_mark_char draws each mark. */
static void
test_board_mark_other_and_char(void **state)
{
	(void)state;
	assert_int_equal(ttt_mark_other(TTT_X), TTT_O);
	assert_int_equal(ttt_mark_other(TTT_O), TTT_X);
	assert_int_equal(ttt_mark_other(TTT_EMPTY), TTT_EMPTY);
	assert_int_equal(ttt_mark_other((enum ttt_mark)3), TTT_EMPTY);
	assert_int_equal(ttt_mark_char(TTT_X), 'X');
	assert_int_equal(ttt_mark_char(TTT_O), 'O');
	assert_int_equal(ttt_mark_char(TTT_EMPTY), '.');
	assert_int_equal(ttt_mark_char((enum ttt_mark)3), '.');
}

/*
 * Check one node of the game tree against the naive grid, then try every
 * move from it: refused moves must leave the board alone, accepted ones
 * are followed.
 */
static void
walk(struct ttt_board *b, char g[3][3], enum ttt_mark mover, int depth,
    int last, struct walk *w)
{
	enum ttt_outcome	want;
	enum ttt_mark		winner;
	struct ttt_board	next;
	int			k;

	w->nodes++;
	want = naive_outcome((const char (*)[3])g, depth);
	if (ttt_board_outcome(b) != want)
		fail_msg("depth %d: outcome %d, naive %d", depth,
		    ttt_board_outcome(b), want);
	winner = want == TTT_WIN_X ? TTT_X : want == TTT_WIN_O ? TTT_O :
	    TTT_EMPTY;
	if (ttt_board_winner(b) != winner)
		fail_msg("depth %d: winner %d, want %d", depth,
		    ttt_board_winner(b), winner);
	if (ttt_board_moves(b) != depth)
		fail_msg("moves %d, want %d", ttt_board_moves(b), depth);
	if (ttt_board_last(b) != last)
		fail_msg("last %d, want %d", ttt_board_last(b), last);
	for (k = 0; k < TTT_CELLS; k++) {
		char		c = g[k / 3][k % 3];
		enum ttt_mark	m = c == 'X' ? TTT_X : c == 'O' ? TTT_O :
				    TTT_EMPTY;

		if (ttt_board_at(b, k) != m)
			fail_msg("depth %d cell %d: at %d, want %d", depth, k,
			    ttt_board_at(b, k), m);
	}

	if (want != TTT_ONGOING) {
		if (ttt_board_turn(b) != TTT_EMPTY)
			fail_msg("turn %d after the end", ttt_board_turn(b));
		for (k = 0; k < TTT_CELLS; k++) {
			play_fails(b, TTT_X, k, TTT_EOVER);
			play_fails(b, TTT_O, k, TTT_EOVER);
		}
		w->leaves++;
		if (want == TTT_WIN_X)
			w->xwins++;
		else if (want == TTT_WIN_O)
			w->owins++;
		else
			w->draws++;
		return;
	}

	if (ttt_board_turn(b) != mover)
		fail_msg("depth %d: turn %d, want %d", depth,
		    ttt_board_turn(b), mover);
	for (k = 0; k < TTT_CELLS; k++) {
		char	*c = &g[k / 3][k % 3];

		play_fails(b, ttt_mark_other(mover), k, TTT_ETURN);
		if (*c != '.') {
			play_fails(b, mover, k, TTT_EOCCUPIED);
			continue;
		}
		memcpy(&next, b, sizeof next);
		if (ttt_board_play(&next, mover, k) != TTT_OK)
			fail_msg("depth %d: free cell %d refused", depth, k);
		*c = ttt_mark_char(mover);
		walk(&next, g, ttt_mark_other(mover), depth + 1, k, w);
		*c = '.';
	}
}

/* Walk every game from an empty board with this mark to move first. */
static void
walk_from(enum ttt_mark first, struct walk *w)
{
	struct ttt_board	b;
	char			g[3][3];

	memset(w, 0, sizeof *w);
	memset(g, '.', sizeof g);
	board_fresh(&b, first);
	walk(&b, g, first, 0, -1, w);
}

/* Every reachable game from X first agrees with the naive checker. */
static void
test_board_exhaustive_x_first(void **state)
{
	struct walk	w;

	(void)state;
	walk_from(TTT_X, &w);
	assert_int_equal(w.nodes, 549946);
	assert_int_equal(w.leaves, 255168);
	assert_int_equal(w.xwins, 131184);
	assert_int_equal(w.owins, 77904);
	assert_int_equal(w.draws, 46080);
}

/* Every reachable game from O first: the same totals, marks swapped. */
static void
test_board_exhaustive_o_first(void **state)
{
	struct walk	w;

	(void)state;
	walk_from(TTT_O, &w);
	assert_int_equal(w.nodes, 549946);
	assert_int_equal(w.leaves, 255168);
	assert_int_equal(w.owins, 131184);
	assert_int_equal(w.xwins, 77904);
	assert_int_equal(w.draws, 46080);
}

/* A board's index among all the struct's values of x, o, turn, outcome, last. */
static size_t
board_index(const struct ttt_board *b)
{
	return (((((size_t)b->x * 512 + b->o) * 3 + b->turn) * 4 +
	    b->outcome) * (TTT_CELLS + 1) + b->last);
}

/* Mark every board play can reach from this one. */
static void
reach(const struct ttt_board *b, unsigned char *seen)
{
	struct ttt_board	next;
	size_t			i = board_index(b);
	int			k;

	if (seen[i / 8] & (1u << (i % 8)))
		return;
	seen[i / 8] |= (unsigned char)(1u << (i % 8));
	for (k = 0; k < TTT_CELLS; k++) {
		next = *b;
		if (ttt_board_play(&next, (enum ttt_mark)b->turn, k) == TTT_OK)
			reach(&next, seen);
	}
}

/*
 * ttt_board_valid takes exactly the boards play reaches from an empty one
 * (either mark first): every value of the struct with disjoint masks is
 * tried against the set a walk of every game marks.
 */
static void
test_board_valid_exactly_reachable(void **state)
{
	static unsigned char	 seen[512 * 512 * 3 * 4 * (TTT_CELLS + 1) / 8 +
				    1];
	struct ttt_board	 b;
	unsigned		 x, o, turn, outcome, last;
	size_t			 i;
	long			 nvalid = 0;

	(void)state;
	memset(seen, 0, sizeof seen);
	board_fresh(&b, TTT_X);
	reach(&b, seen);
	board_fresh(&b, TTT_O);
	reach(&b, seen);
	for (x = 0; x < 512; x++) {
		for (o = 0; o < 512; o++) {
			if (x & o)
				continue;
			for (turn = 0; turn < 3; turn++)
			for (outcome = 0; outcome < 4; outcome++)
			for (last = 0; last <= TTT_CELLS; last++) {
				board_fresh(&b, TTT_X);
				b.x = (uint16_t)x;
				b.o = (uint16_t)o;
				b.turn = (uint8_t)turn;
				b.outcome = (uint8_t)outcome;
				b.last = (uint8_t)last;
				i = board_index(&b);
				if (ttt_board_valid(&b) !=
				    !!(seen[i / 8] & (1u << (i % 8))))
					fail_msg("x %03x o %03x turn %u "
					    "outcome %u last %u: valid %d",
					    x, o, turn, outcome, last,
					    ttt_board_valid(&b));
				nvalid += ttt_board_valid(&b);
			}
		}
	}
	assert_int_equal(nvalid, 32336);	/* boards with their turn, last */
	/* Out of range, and overlapping masks. */
	board_fresh(&b, TTT_X);
	b.x = 0x200;
	assert_false(ttt_board_valid(&b));
	board_fresh(&b, TTT_X);
	b.x = b.o = 1;
	b.last = 0;
	assert_false(ttt_board_valid(&b));
}

/* Run the board tests. */
int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_board_win_every_line),
		cmocka_unit_test(test_board_draw_full_board),
		cmocka_unit_test(test_board_win_on_ninth_move_is_not_draw),
		cmocka_unit_test(test_board_occupied_cell_unchanged),
		cmocka_unit_test(test_board_out_of_range_unchanged),
		cmocka_unit_test(test_board_move_after_end_is_over),
		cmocka_unit_test(test_board_wrong_turn),
		cmocka_unit_test(test_board_turn_alternates),
		cmocka_unit_test(test_board_init),
		cmocka_unit_test(test_board_moves_last_at),
		cmocka_unit_test(test_board_cell_parse_valid),
		cmocka_unit_test(test_board_cell_parse_invalid),
		cmocka_unit_test(test_board_cell_name_round_trip),
		cmocka_unit_test(test_board_mark_other_and_char),
		cmocka_unit_test(test_board_line_of),
		cmocka_unit_test(test_board_exhaustive_x_first),
		cmocka_unit_test(test_board_exhaustive_o_first),
		cmocka_unit_test(test_board_valid_exactly_reachable),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
