/*
 * test_ai.c -- unit tests for the computer player and the "can anyone
 * still win" check (common/ai.c).
 *
 * Exhaustive where it can be: every reachable position is checked against
 * oracles written here on a plain 3x3 array (full minimax without pruning,
 * and a search for any line at all), and the perfect player is played
 * against every possible opponent.  Samples are left to what is about
 * chance: how evenly rnd spreads the moves, and games against EASY, whose
 * odds are also computed exactly by weighting every game.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "ai.h"
#include "ttt.h"

#define NKEYS		(1 << 18)	/* two 9-bit masks */
#define NRND		64		/* rnd values tried per position */
#define EASY_GAMES	2000

/* The eight lines written out cell by cell, independent of ai.c. */
static const int lines[8][3] = {
	{ 0, 1, 2 }, { 3, 4, 5 }, { 6, 7, 8 },		/* rows 1, 2, 3 */
	{ 0, 3, 6 }, { 1, 4, 7 }, { 2, 5, 8 },		/* columns A to C */
	{ 0, 4, 8 }, { 2, 4, 6 }			/* diagonals */
};

/* A position seen by a walk: the engine's board and the plain grid. */
typedef void	visit_fn(const struct ttt_board *, int [TTT_CELLS], void *);

struct walk {
	visit_fn	*fn;
	void		*arg;
	unsigned char	*seen;		/* NKEYS flags */
	long		 positions;
	long		 ongoing;
};

/* Totals of the perfect player against every opponent. */
struct duel {
	enum ttt_mark	ai;
	long		nodes;		/* positions along every game */
	long		choices;	/* computer turns */
	long		wins;		/* games ended, by the computer's view */
	long		ties;
	long		losses;
};

/* The chances of the simple strategy against easy, over every game. */
struct odds {
	double	win;
	double	tie;
	double	loss;
};

static uint64_t	xorshift(uint64_t *);
static int	grid_line(const int [TTT_CELLS], int);
static int	grid_full(const int [TTT_CELLS]);
static int	grid_over(const int [TTT_CELLS]);
static uint16_t	grid_empty(const int [TTT_CELLS]);
static uint16_t	grid_wins(const int [TTT_CELLS], int);
static int	naive_value(int [TTT_CELLS], int);
static uint16_t	naive_best(int [TTT_CELLS], int);
static int	naive_winnable(int [TTT_CELLS], int);
static int	simple_move(const int [TTT_CELLS], int);
static void	play_ok(struct ttt_board *, enum ttt_mark, int);
static void	board_from(struct ttt_board *, enum ttt_mark, const int *,
		    size_t);
static void	walk_node(struct walk *, const struct ttt_board *,
		    int [TTT_CELLS]);
static void	walk_all(enum ttt_mark, visit_fn *, void *, struct walk *);
static visit_fn	visit_best;
static visit_fn	visit_move;
static visit_fn	visit_winnable;
static int	duel_node(struct duel *, const struct ttt_board *,
		    int [TTT_CELLS]);
static void	odds_node(const struct ttt_board *, int [TTT_CELLS], int,
		    double, struct odds *);

/* Marsaglia's xorshift64: the tests' randomness, reproducible. */
static uint64_t
xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return (*s);
}

/* Does mark m hold a whole line of the grid? */
static int
grid_line(const int g[TTT_CELLS], int m)
{
	int	i;

	for (i = 0; i < 8; i++) {
		if (g[lines[i][0]] == m && g[lines[i][1]] == m &&
		    g[lines[i][2]] == m)
			return (1);
	}
	return (0);
}

/* Is every cell taken? */
static int
grid_full(const int g[TTT_CELLS])
{
	int	k;

	for (k = 0; k < TTT_CELLS; k++) {
		if (g[k] == TTT_EMPTY)
			return (0);
	}
	return (1);
}

/* Has the game on this grid ended? */
static int
grid_over(const int g[TTT_CELLS])
{
	return (grid_line(g, TTT_X) || grid_line(g, TTT_O) || grid_full(g));
}

/* The empty cells as a mask. */
static uint16_t
grid_empty(const int g[TTT_CELLS])
{
	uint16_t	mask = 0;
	int		k;

	for (k = 0; k < TTT_CELLS; k++) {
		if (g[k] == TTT_EMPTY)
			mask |= (uint16_t)(1u << k);
	}
	return (mask);
}

/* The empty cells that would give mark m a line, tried one by one. */
static uint16_t
grid_wins(const int g[TTT_CELLS], int m)
{
	int		 h[TTT_CELLS];
	uint16_t	 mask = 0;
	int		 k;

	memcpy(h, g, sizeof h);
	for (k = 0; k < TTT_CELLS; k++) {
		if (h[k] != TTT_EMPTY)
			continue;
		h[k] = m;
		if (grid_line(h, m))
			mask |= (uint16_t)(1u << k);
		h[k] = TTT_EMPTY;
	}
	return (mask);
}

/*
 * Plain minimax, every move to the end, no pruning: 1 if the mark to move
 * wins, 0 a tie, -1 a loss.
 */
static int
naive_value(int g[TTT_CELLS], int mover)
{
	int	other = mover == TTT_X ? TTT_O : TTT_X, best = -2, k, v;

	if (grid_line(g, other))
		return (-1);
	if (grid_full(g))
		return (0);
	for (k = 0; k < TTT_CELLS; k++) {
		if (g[k] != TTT_EMPTY)
			continue;
		g[k] = mover;
		v = -naive_value(g, other);
		g[k] = TTT_EMPTY;
		if (v > best)
			best = v;
	}
	return (best);
}

/* The cells whose move has the best plain-minimax value; 0 if over. */
static uint16_t
naive_best(int g[TTT_CELLS], int mover)
{
	int		 other = mover == TTT_X ? TTT_O : TTT_X;
	int		 v[TTT_CELLS], best = -2, k;
	uint16_t	 mask = 0;

	if (grid_over(g))
		return (0);
	for (k = 0; k < TTT_CELLS; k++) {
		if (g[k] != TTT_EMPTY)
			continue;
		g[k] = mover;
		v[k] = -naive_value(g, other);
		g[k] = TTT_EMPTY;
		if (v[k] > best)
			best = v[k];
	}
	for (k = 0; k < TTT_CELLS; k++) {
		if (g[k] == TTT_EMPTY && v[k] == best)
			mask |= (uint16_t)(1u << k);
	}
	return (mask);
}

/* Does any sequence of moves from here make a line?  Tries them all. */
static int
naive_winnable(int g[TTT_CELLS], int mover)
{
	int	other = mover == TTT_X ? TTT_O : TTT_X, k, found = 0;

	if (grid_line(g, TTT_X) || grid_line(g, TTT_O))
		return (1);
	for (k = 0; k < TTT_CELLS && !found; k++) {
		if (g[k] != TTT_EMPTY)
			continue;
		g[k] = mover;
		found = naive_winnable(g, other);
		g[k] = TTT_EMPTY;
	}
	return (found);
}

/*
 * The straightforward player: win if it can, block if it must, else the
 * centre, a corner, any cell (the first such, in cell order).
 */
static int
simple_move(const int g[TTT_CELLS], int me)
{
	static const int	 prefs[] = { 4, 0, 2, 6, 8, 1, 3, 5, 7 };
	uint16_t		 mask;
	size_t			 i;

	mask = grid_wins(g, me);
	if (mask == 0)
		mask = grid_wins(g, me == TTT_X ? TTT_O : TTT_X);
	if (mask != 0)
		return (__builtin_ctz(mask));
	for (i = 0; i < sizeof prefs / sizeof prefs[0]; i++) {
		if (g[prefs[i]] == TTT_EMPTY)
			return (prefs[i]);
	}
	fail_msg("simple_move on a full board");
	return (-1);
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

/* A board after these moves, first mover given, turns alternating. */
static void
board_from(struct ttt_board *b, enum ttt_mark first, const int *cells,
    size_t n)
{
	size_t	i;

	memset(b, 0, sizeof *b);
	ttt_board_init(b, first);
	for (i = 0; i < n; i++)
		play_ok(b, ttt_board_turn(b), cells[i]);
}

/* Visit a position once, then every position a move away. */
static void
walk_node(struct walk *w, const struct ttt_board *b, int g[TTT_CELLS])
{
	struct ttt_board	next;
	enum ttt_mark		mover;
	unsigned		key = 0;
	int			k;

	for (k = 0; k < TTT_CELLS; k++) {
		if (g[k] == TTT_X)
			key |= 1u << k;
		else if (g[k] == TTT_O)
			key |= 1u << (k + TTT_CELLS);
	}
	if (w->seen[key])
		return;
	w->seen[key] = 1;
	w->positions++;
	w->fn(b, g, w->arg);
	if (grid_over(g))
		return;
	w->ongoing++;
	mover = ttt_board_turn(b);
	for (k = 0; k < TTT_CELLS; k++) {
		if (g[k] != TTT_EMPTY)
			continue;
		next = *b;
		play_ok(&next, mover, k);
		g[k] = mover;
		walk_node(w, &next, g);
		g[k] = TTT_EMPTY;
	}
}

/*
 * Call fn once on every position reachable with this mark first.  The
 * mark first fixes whose turn it is in each, so the cells are the key.
 */
static void
walk_all(enum ttt_mark first, visit_fn *fn, void *arg, struct walk *w)
{
	struct ttt_board	b;
	int			g[TTT_CELLS] = { 0 };

	memset(w, 0, sizeof *w);
	w->fn = fn;
	w->arg = arg;
	w->seen = calloc(NKEYS, 1);
	assert_non_null(w->seen);
	board_from(&b, first, NULL, 0);
	walk_node(w, &b, g);
	free(w->seen);
	w->seen = NULL;
}

/* Visitor: ttt_ai_best equals plain minimax; counts unequal choices. */
static void
visit_best(const struct ttt_board *b, int g[TTT_CELLS], void *arg)
{
	long		*partial = arg;
	uint16_t	 got, want;

	got = ttt_ai_best(b);
	want = grid_over(g) ? 0 : naive_best(g, ttt_board_turn(b));
	if (got != want)
		fail_msg("x %#x o %#x: ttt_ai_best %#x, minimax %#x",
		    b->x, b->o, got, want);
	if (!grid_over(g) && want != grid_empty(g))
		(*partial)++;
}

/* ttt_ai_best agrees with plain minimax on every reachable position. */
static void
test_ai_best_matches_minimax(void **state)
{
	static const enum ttt_mark	firsts[] = { TTT_X, TTT_O };
	struct walk			w;
	size_t				f;
	long				partial;

	(void)state;
	for (f = 0; f < 2; f++) {
		partial = 0;
		walk_all(firsts[f], visit_best, &partial, &w);
		/* The 5,478 legal positions, 958 of them finished. */
		assert_int_equal(w.positions, 5478);
		assert_int_equal(w.ongoing, 5478 - 958);
		/*
		 * Open positions where some move is worse than another, so
		 * the masks are not just the empty cells (3,191 by a
		 * separate Python minimax).
		 */
		assert_int_equal(partial, 3191);
	}
}

/* Every first move ties under perfect play: the oracle, spelled out. */
static void
test_ai_best_empty_board_is_all(void **state)
{
	struct ttt_board	b;
	int			g[TTT_CELLS] = { 0 };

	(void)state;
	assert_int_equal(naive_best(g, TTT_X), 0x1ff);
	assert_int_equal(naive_value(g, TTT_X), 0);
	board_from(&b, TTT_X, NULL, 0);
	assert_int_equal(ttt_ai_best(&b), 0x1ff);
	board_from(&b, TTT_O, NULL, 0);
	assert_int_equal(ttt_ai_best(&b), 0x1ff);
}

/*
 * The perfect player's every choice against every opponent move, below one
 * position.  Returns the worst result the computer can get from here (1,
 * 0, -1), which at its own turns must be the minimax value: it never loses
 * what it could hold, and it wins what it can, not only in principle.
 */
static int
duel_node(struct duel *d, const struct ttt_board *b, int g[TTT_CELLS])
{
	struct ttt_board	next;
	enum ttt_mark		mover;
	uint16_t		moves;
	int			worst = 2, v, k, value = 0;

	d->nodes++;
	if (grid_over(g)) {
		if (grid_line(g, d->ai)) {
			d->wins++;
			return (1);
		}
		if (grid_full(g) && !grid_line(g, ttt_mark_other(d->ai))) {
			d->ties++;
			return (0);
		}
		d->losses++;
		fail_msg("the computer (%c) lost: x %#x o %#x",
		    ttt_mark_char(d->ai), b->x, b->o);
		return (-1);
	}
	mover = ttt_board_turn(b);
	if (mover == d->ai) {
		d->choices++;
		moves = ttt_ai_best(b);
		if (moves == 0 || (moves & ~grid_empty(g)) != 0)
			fail_msg("ttt_ai_best %#x with empty cells %#x",
			    moves, grid_empty(g));
		value = naive_value(g, mover);
	} else
		moves = grid_empty(g);
	for (k = 0; k < TTT_CELLS; k++) {
		if ((moves & (1u << k)) == 0)
			continue;
		next = *b;
		play_ok(&next, mover, k);
		g[k] = mover;
		v = duel_node(d, &next, g);
		g[k] = TTT_EMPTY;
		if (v < worst)
			worst = v;
	}
	if (mover == d->ai && worst != value)
		fail_msg("x %#x o %#x: the computer's worst %d, minimax %d",
		    b->x, b->o, worst, value);
	return (worst);
}

/* The perfect player never loses, as X or O, moving first or second. */
static void
test_ai_perfect_never_loses(void **state)
{
	static const struct {
		enum ttt_mark	ai;
		enum ttt_mark	first;
		long		nodes;
		long		choices;
		long		wins;
		long		ties;
	} cases[] = {
		/* Counted again by a separate Python minimax: the same. */
		{ TTT_X, TTT_X, 68326, 27297, 27456, 3584 },
		{ TTT_O, TTT_O, 68326, 27297, 27456, 3584 },
		{ TTT_X, TTT_O, 23802, 8281, 5856, 3584 },
		{ TTT_O, TTT_X, 23802, 8281, 5856, 3584 },
	};
	struct ttt_board	b;
	struct duel		d;
	size_t			i;
	int			g[TTT_CELLS] = { 0 }, worst;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		memset(&d, 0, sizeof d);
		d.ai = cases[i].ai;
		board_from(&b, cases[i].first, NULL, 0);
		worst = duel_node(&d, &b, g);
		print_message("computer %c, %c first: %ld positions, %ld "
		    "choices, %ld games won, %ld tied\n",
		    ttt_mark_char(d.ai), ttt_mark_char(cases[i].first),
		    d.nodes, d.choices, d.wins, d.ties);
		assert_int_equal(worst, 0);
		assert_int_equal(d.losses, 0);
		assert_int_equal(d.nodes, cases[i].nodes);
		assert_int_equal(d.choices, cases[i].choices);
		assert_int_equal(d.wins, cases[i].wins);
		assert_int_equal(d.ties, cases[i].ties);
	}
}

/*
 * Visitor: ttt_ai_move at both levels, over many rnd values.  PERFECT
 * stays inside ttt_ai_best, narrowed to a win now or else to the blocks
 * among them, and reaches all of that; EASY takes a cell of its
 * own line when there is one (reaching each), else reaches every empty
 * cell.  Finished games give -1.  Counts the positions where EASY has no
 * line to complete and the opponent has one: where it does not block.
 */
static void
visit_move(const struct ttt_board *b, int g[TTT_CELLS], void *arg)
{
	enum ttt_mark	 mover;
	uint64_t	 s = 0x9e3779b97f4a7c15ull, rnd;
	uint16_t	 best, easy, seenp = 0, seene = 0;
	long		*unblocked = arg;
	int		 i, p, e;

	if (grid_over(g)) {
		for (i = 0; i < 4; i++) {
			rnd = i < 2 ? (uint64_t)i : xorshift(&s);
			assert_int_equal(ttt_ai_move(b, TTT_AI_PERFECT, rnd),
			    -1);
			assert_int_equal(ttt_ai_move(b, TTT_AI_EASY, rnd), -1);
		}
		return;
	}
	mover = ttt_board_turn(b);
	/*
	 * PERFECT's choice within ttt_ai_best: a win now if it has one, a
	 * block if one is among the best (as when every move loses anyway).
	 */
	best = ttt_ai_best(b);
	if (grid_wins(g, mover) != 0)
		best = grid_wins(g, mover);
	else if ((best & grid_wins(g, ttt_mark_other(mover))) != 0)
		best &= grid_wins(g, ttt_mark_other(mover));
	easy = grid_wins(g, mover);
	if (easy == 0) {
		easy = grid_empty(g);
		if (grid_wins(g, ttt_mark_other(mover)) != 0)
			(*unblocked)++;
	}
	for (i = 0; i < 2 * NRND; i++) {
		/* Small numbers, then large ones. */
		rnd = i < NRND ? (uint64_t)i : xorshift(&s);
		p = ttt_ai_move(b, TTT_AI_PERFECT, rnd);
		e = ttt_ai_move(b, TTT_AI_EASY, rnd);
		if (p < 0 || p >= TTT_CELLS || (best & (1u << p)) == 0)
			fail_msg("x %#x o %#x rnd %#llx: PERFECT %d, best "
			    "%#x", b->x, b->o, (unsigned long long)rnd, p,
			    best);
		if (e < 0 || e >= TTT_CELLS || (easy & (1u << e)) == 0)
			fail_msg("x %#x o %#x rnd %#llx: EASY %d, want one "
			    "of %#x", b->x, b->o, (unsigned long long)rnd, e,
			    easy);
		seenp |= (uint16_t)(1u << p);
		seene |= (uint16_t)(1u << e);
	}
	if (seenp != best || seene != easy)
		fail_msg("x %#x o %#x: PERFECT reached %#x of %#x, EASY %#x "
		    "of %#x", b->x, b->o, seenp, best, seene, easy);
}

/* ttt_ai_move, both levels, on every reachable position. */
static void
test_ai_move_every_position(void **state)
{
	struct walk	w;
	long		unblocked = 0;

	(void)state;
	walk_all(TTT_X, visit_move, &unblocked, &w);
	assert_int_equal(w.positions, 5478);
	walk_all(TTT_O, visit_move, &unblocked, &w);
	assert_int_equal(w.positions, 5478);
	/* Not vacuous: many positions had a block for EASY to skip. */
	print_message("%ld positions where EASY need not block\n",
	    unblocked);
	assert_true(unblocked > 1000);
}

/* On the empty board PERFECT picks each of the nine cells about evenly. */
static void
test_ai_move_perfect_uniform(void **state)
{
	struct ttt_board	b;
	uint64_t		s = 88172645463325252ull;
	int			count[TTT_CELLS] = { 0 }, i, k;
	uint16_t		seen = 0;

	(void)state;
	board_from(&b, TTT_X, NULL, 0);
	/* A handful of consecutive numbers already reach every cell. */
	for (i = 0; i < 64; i++)
		seen |= (uint16_t)(1u << ttt_ai_move(&b, TTT_AI_PERFECT,
		    (uint64_t)i));
	assert_int_equal(seen, 0x1ff);
	/* 9,000 draws: 1,000 expected per cell, sigma about 30. */
	for (i = 0; i < 9000; i++) {
		k = ttt_ai_move(&b, TTT_AI_PERFECT, xorshift(&s));
		assert_in_range(k, 0, TTT_CELLS - 1);
		count[k]++;
	}
	for (k = 0; k < TTT_CELLS; k++) {
		if (count[k] < 850 || count[k] > 1150)
			fail_msg("cell %d chosen %d times of 9000", k,
			    count[k]);
	}
}

/*
 * EASY completes its own line rather than block, and with two such cells
 * plays either.
 */
static void
test_ai_easy_completes_line(void **state)
{
	/* X A1 B1, O A2 B2; X to move: C1 wins (C2 would block). */
	static const int	xwin[] = { 0, 3, 1, 4 };
	/* X A1 B1 C3, O A2 B2; O to move: C2 wins (C1 would block). */
	static const int	owin[] = { 0, 3, 1, 4, 8 };
	/*
	 * O B2 B3 C2, X A1 C1 A3; O to move.  O wins at B1 or A2, and each
	 * is also X's winning cell.
	 */
	static const int	two[] = { 4, 0, 7, 2, 5, 6 };
	struct ttt_board	b;
	uint64_t		s = 1, rnd;
	uint16_t		seen = 0;
	int			i, k;

	(void)state;
	board_from(&b, TTT_X, xwin, sizeof xwin / sizeof xwin[0]);
	for (i = 0; i < 1000; i++) {
		rnd = i < 100 ? (uint64_t)i : xorshift(&s);
		assert_int_equal(ttt_ai_move(&b, TTT_AI_EASY, rnd), 2);
	}
	board_from(&b, TTT_X, owin, sizeof owin / sizeof owin[0]);
	for (i = 0; i < 1000; i++) {
		rnd = i < 100 ? (uint64_t)i : xorshift(&s);
		assert_int_equal(ttt_ai_move(&b, TTT_AI_EASY, rnd), 5);
	}
	board_from(&b, TTT_O, two, sizeof two / sizeof two[0]);
	assert_int_equal(ttt_board_turn(&b), TTT_O);
	for (i = 0; i < 1000; i++) {
		rnd = i < 100 ? (uint64_t)i : xorshift(&s);
		k = ttt_ai_move(&b, TTT_AI_EASY, rnd);
		assert_true(k == 1 || k == 3);
		seen |= (uint16_t)(1u << k);
	}
	assert_int_equal(seen, (1u << 1) | (1u << 3));
}

/*
 * EASY does not block: with the opponent one move from a line and no line
 * of its own, it plays the block only as often as any other empty cell.
 */
static void
test_ai_easy_does_not_block(void **state)
{
	/* X A1 B1, O B2; O to move, and X wins at C1 unless O takes it. */
	static const int	seq[] = { 0, 4, 1 };
	struct ttt_board	b;
	uint64_t		s = 7, rnd;
	int			count[TTT_CELLS] = { 0 }, i, k;

	(void)state;
	board_from(&b, TTT_X, seq, sizeof seq / sizeof seq[0]);
	assert_int_equal(ttt_ai_best(&b), 1u << 2);	/* PERFECT blocks */
	for (i = 0; i < 6000; i++) {
		rnd = i < 60 ? (uint64_t)i : xorshift(&s);
		k = ttt_ai_move(&b, TTT_AI_EASY, rnd);
		assert_int_equal(ttt_board_at(&b, k), TTT_EMPTY);
		count[k]++;
	}
	/* Six empty cells: 1,000 each expected, sigma about 29. */
	for (k = 0; k < TTT_CELLS; k++) {
		if (ttt_board_at(&b, k) != TTT_EMPTY)
			continue;
		if (count[k] < 850 || count[k] > 1150)
			fail_msg("cell %d played %d times of 6000", k,
			    count[k]);
	}
	/* So it leaves X's line open about five times in six. */
	assert_true(6000 - count[2] > 4500);
}

/* Visitor: ttt_board_winnable against trying every sequence of moves. */
static void
visit_winnable(const struct ttt_board *b, int g[TTT_CELLS], void *arg)
{
	long	*dead = arg;
	int	 got, want;

	got = ttt_board_winnable(b);
	want = grid_over(g) ? 0 : naive_winnable(g, ttt_board_turn(b));
	if (got != want)
		fail_msg("x %#x o %#x: ttt_board_winnable %d, oracle %d",
		    b->x, b->o, got, want);
	if (!grid_over(g) && !want)
		(*dead)++;
}

/* ttt_board_winnable agrees with the oracle on every reachable position. */
static void
test_ai_winnable_matches_oracle(void **state)
{
	static const enum ttt_mark	firsts[] = { TTT_X, TTT_O };
	struct walk			w;
	size_t				f;
	long				dead;

	(void)state;
	for (f = 0; f < 2; f++) {
		dead = 0;
		walk_all(firsts[f], visit_winnable, &dead, &w);
		assert_int_equal(w.positions, 5478);
		/* Open but only a tie left (120 by a Python search too). */
		assert_int_equal(dead, 120);
	}
}

/*
 * Every game of the simple strategy (mark `simple') against EASY below this
 * position, each weighted by its chance: EASY's candidate cells (its own
 * winning cells, else every empty one; see visit_move) are equally likely.
 */
static void
odds_node(const struct ttt_board *b, int g[TTT_CELLS], int simple,
    double p, struct odds *o)
{
	struct ttt_board	next;
	enum ttt_mark		mover;
	uint16_t		moves;
	int			k, n;

	if (grid_over(g)) {
		if (grid_line(g, simple))
			o->win += p;
		else if (grid_line(g, simple == TTT_X ? TTT_O : TTT_X))
			o->loss += p;
		else
			o->tie += p;
		return;
	}
	mover = ttt_board_turn(b);
	if ((int)mover == simple)
		moves = (uint16_t)(1u << simple_move(g, simple));
	else if ((moves = grid_wins(g, mover)) == 0)
		moves = grid_empty(g);
	n = __builtin_popcount(moves);
	for (k = 0; k < TTT_CELLS; k++) {
		if ((moves & (1u << k)) == 0)
			continue;
		next = *b;
		play_ok(&next, mover, k);
		g[k] = mover;
		odds_node(&next, g, simple, p / n, o);
		g[k] = TTT_EMPTY;
	}
}

/*
 * EASY against the simple strategy: exact odds over every game, then
 * EASY_GAMES games played with ttt_ai_move, which must agree with them.
 * The simple strategy never loses when it moves first; when EASY moves
 * first it can: it answers a corner with the centre, two opposite corners
 * with a third corner, and its forced block then gives EASY two lines.
 */
static void
test_ai_easy_loses_to_simple(void **state)
{
	struct ttt_board	b;
	struct odds		o[2][2], *e;
	enum ttt_mark		first, easy, simple;
	uint64_t		s = 0x2545f4914f6cdd1dull;
	long			won = 0, lost[2] = { 0, 0 };
	double			mean = 0, var = 0;
	int			g[TTT_CELLS], i, k, sf, ss;

	(void)state;
	for (sf = 0; sf < 2; sf++) {
		for (ss = 0; ss < 2; ss++) {
			e = &o[sf][ss];
			memset(e, 0, sizeof *e);
			memset(g, 0, sizeof g);
			first = sf ? TTT_O : TTT_X;
			simple = ss ? TTT_O : TTT_X;
			board_from(&b, first, NULL, 0);
			odds_node(&b, g, simple, 1.0, e);
			print_message("simple %c, %c first: win %.4f tie %.4f "
			    "loss %.4f\n", ttt_mark_char(simple),
			    ttt_mark_char(first), e->win, e->tie, e->loss);
			assert_true(e->win + e->tie + e->loss > 0.999999);
			assert_true(e->win >= 0.30);
			if (first == simple)
				assert_true(e->loss == 0.0);
			else
				assert_true(e->loss > 0.0);
		}
	}

	for (i = 0; i < EASY_GAMES; i++) {
		sf = i & 1;
		ss = (i >> 1) & 1;
		first = sf ? TTT_O : TTT_X;
		simple = ss ? TTT_O : TTT_X;
		easy = ttt_mark_other(simple);
		memset(g, 0, sizeof g);
		board_from(&b, first, NULL, 0);
		while (ttt_board_outcome(&b) == TTT_ONGOING) {
			if (ttt_board_turn(&b) == easy)
				k = ttt_ai_move(&b, TTT_AI_EASY, xorshift(&s));
			else
				k = simple_move(g, simple);
			assert_in_range(k, 0, TTT_CELLS - 1);
			g[k] = ttt_board_turn(&b);
			play_ok(&b, ttt_board_turn(&b), k);
		}
		if (ttt_board_winner(&b) == simple)
			won++;
		else if (ttt_board_winner(&b) == easy)
			lost[first == simple]++;
		mean += o[sf][ss].win;
		var += o[sf][ss].win * (1 - o[sf][ss].win);
	}
	print_message("simple against easy, %d games: won %ld (%.1f%%, %.1f%% "
	    "expected), lost %ld moving second, %ld moving first\n",
	    EASY_GAMES, won, 100.0 * won / EASY_GAMES, 100.0 * mean /
	    EASY_GAMES, lost[0], lost[1]);
	assert_true(won >= EASY_GAMES * 3 / 10);
	assert_int_equal(lost[1], 0);
	/* Within five standard deviations of the exact odds. */
	assert_true((won - mean) * (won - mean) <= 25 * var);
}

/* A finished game has no moves, at either level, and cannot be won. */
static void
test_ai_finished_games(void **state)
{
	static const struct {
		enum ttt_mark	 first;
		int		 n;
		int		 seq[TTT_CELLS];
		enum ttt_outcome outcome;
	} cases[] = {
		{ TTT_X, 5, { 0, 3, 1, 4, 2 }, TTT_WIN_X },
		{ TTT_O, 5, { 0, 3, 1, 4, 2 }, TTT_WIN_O },
		{ TTT_X, 6, { 4, 0, 8, 1, 3, 2 }, TTT_WIN_O },
		/* Full boards: a tie, and a line made by the ninth move. */
		{ TTT_X, 9, { 0, 1, 2, 4, 3, 5, 7, 6, 8 }, TTT_DRAW },
		{ TTT_O, 9, { 0, 1, 2, 4, 3, 5, 7, 6, 8 }, TTT_DRAW },
		{ TTT_X, 9, { 0, 1, 2, 3, 4, 5, 7, 6, 8 }, TTT_WIN_X },
	};
	struct ttt_board	b;
	uint64_t		s = 3, rnd;
	size_t			i;
	int			r;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		board_from(&b, cases[i].first, cases[i].seq,
		    (size_t)cases[i].n);
		assert_int_equal(ttt_board_outcome(&b), cases[i].outcome);
		assert_int_equal(ttt_ai_best(&b), 0);
		assert_int_equal(ttt_board_winnable(&b), 0);
		for (r = 0; r < 100; r++) {
			rnd = r < 50 ? (uint64_t)r : xorshift(&s);
			assert_int_equal(ttt_ai_move(&b, TTT_AI_PERFECT, rnd),
			    -1);
			assert_int_equal(ttt_ai_move(&b, TTT_AI_EASY, rnd), -1);
		}
	}
}

/* ttt_board_winnable on positions picked by hand. */
static void
test_ai_winnable_examples(void **state)
{
	/*
	 * X O . / O . X / . X O: every line holds both marks but C1-B2-A3,
	 * which is empty; the three moves left alternate, so no mark gets
	 * all three.  Dead, whoever moves.
	 */
	static const int	deadx[] = { 0, 1, 5, 3, 7, 8 };
	static const int	deado[] = { 1, 0, 3, 5, 8, 7 };
	/* X O X / X X O / O . O: B3 makes O's row, not X's. */
	static const int	lastx[] = { 0, 1, 2, 5, 3, 6, 4, 8 };
	static const int	lasto[] = { 1, 0, 5, 2, 6, 3, 8, 4 };
	struct ttt_board	b;

	(void)state;
	board_from(&b, TTT_X, NULL, 0);
	assert_int_equal(ttt_board_winnable(&b), 1);
	board_from(&b, TTT_O, NULL, 0);
	assert_int_equal(ttt_board_winnable(&b), 1);

	board_from(&b, TTT_X, deadx, 6);
	assert_int_equal(ttt_board_turn(&b), TTT_X);
	assert_int_equal(ttt_board_winnable(&b), 0);
	assert_int_equal(ttt_ai_best(&b), 0x054);	/* all tie */
	board_from(&b, TTT_O, deado, 6);
	assert_int_equal(b.x, 0x0a1);
	assert_int_equal(b.o, 0x10a);
	assert_int_equal(ttt_board_winnable(&b), 0);

	/* One cell left: it depends on whose it is. */
	board_from(&b, TTT_X, lastx, 8);
	assert_int_equal(ttt_board_turn(&b), TTT_X);
	assert_int_equal(ttt_board_winnable(&b), 0);
	board_from(&b, TTT_O, lasto, 8);
	assert_int_equal(ttt_board_turn(&b), TTT_O);
	assert_int_equal(b.o, 0x162);
	assert_int_equal(ttt_board_winnable(&b), 1);

	/*
	 * X A1 C3 A3 C2, O B2 C1 A2; O to move.  O's B1-B2-B3 needs both
	 * cells left, and X moves in between: not in time.  X's row 3 needs
	 * B3 only, if O does not take it: winnable.
	 */
	board_from(&b, TTT_X, (const int []){ 0, 4, 8, 2, 6, 3, 5 }, 7);
	assert_int_equal(ttt_board_outcome(&b), TTT_ONGOING);
	assert_int_equal(ttt_board_turn(&b), TTT_O);
	assert_int_equal(ttt_board_winnable(&b), 1);
	/* O takes B3: the last cell, B1, completes nothing. */
	play_ok(&b, TTT_O, 7);
	assert_int_equal(ttt_board_winnable(&b), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ai_best_empty_board_is_all),
		cmocka_unit_test(test_ai_best_matches_minimax),
		cmocka_unit_test(test_ai_perfect_never_loses),
		cmocka_unit_test(test_ai_move_every_position),
		cmocka_unit_test(test_ai_move_perfect_uniform),
		cmocka_unit_test(test_ai_easy_completes_line),
		cmocka_unit_test(test_ai_easy_does_not_block),
		cmocka_unit_test(test_ai_easy_loses_to_simple),
		cmocka_unit_test(test_ai_winnable_matches_oracle),
		cmocka_unit_test(test_ai_winnable_examples),
		cmocka_unit_test(test_ai_finished_games),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
