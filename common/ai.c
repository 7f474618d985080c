/*
 * ai.c -- the computer player (negamax with alpha-beta over the two cell
 * masks) and the test of whether either mark can still make a line.
 *
 * Values are from the side to move: 1 a win, 0 a tie, -1 a loss.  How soon
 * a game is won does not count, as ttt_ai_best promises.
 */
#include "ai.h"
#include "lines.h"

#define AI_CENTRE	0x010
#define AI_CORNERS	0x145
#define AI_EDGES	0x0aa

/*
 * The order moves are tried in: the centre and the corners lie on more
 * lines, so they give alpha-beta its cut-offs sooner.
 */
static const uint16_t ai_order[3] = { AI_CENTRE, AI_CORNERS, AI_EDGES };

static int	ai_count(unsigned);
static uint16_t	ai_wins(uint16_t, uint16_t);
static int	ai_winnable(uint16_t, uint16_t);
static int	ai_negamax(uint16_t, uint16_t, int, int);
static int	ai_pick(uint16_t, uint64_t);
static void	ai_sides(const struct ttt_board *, uint16_t *, uint16_t *);

/*
 * How many cells a mask holds.  By hand, because __builtin_popcount is a
 * call into libgcc unless the target has POPCNT, and the search counts at
 * every node.
 */
static int
ai_count(unsigned x)
{
	x = x - ((x >> 1) & 0x5555);
	x = (x & 0x3333) + ((x >> 2) & 0x3333);
	x = (x + (x >> 4)) & 0x0f0f;
	return ((int)((x + (x >> 8)) & 0x1f));
}

/*
 * The empty cells where `me' would complete a line.  Whole masks at once
 * rather than line by line, since the search asks this at every node: two
 * cells of a row held give the row's third cell, shifted into place; the
 * same for columns; the diagonals one at a time.
 */
static uint16_t
ai_wins(uint16_t me, uint16_t them)
{
	unsigned	a = me & 0x049, b = me & 0x092, c = me & 0x124;
	unsigned	r1 = me & 0x007, r2 = me & 0x038, r3 = me & 0x1c0;
	unsigned	t, d;

	/* Columns A, B, C as bits 0/3/6, 1/4/7, 2/5/8 of each row. */
	t = ((a << 2) & (b << 1)) | ((a << 1) & (c >> 1)) |
	    ((b >> 1) & (c >> 2));
	/* Rows 1, 2, 3 as bits 0-2, 3-5, 6-8 of each column. */
	t |= ((r1 << 6) & (r2 << 3)) | ((r1 << 3) & (r3 >> 3)) |
	    ((r2 >> 3) & (r3 >> 6));
	/* A diagonal with two cells held adds its third. */
	d = me & 0x111;
	if ((d & (d - 1)) != 0)
		t |= 0x111 & ~d;
	d = me & 0x054;
	if ((d & (d - 1)) != 0)
		t |= 0x054 & ~d;
	return ((uint16_t)(t & ~(me | them) & TTT_FULL));
}

/*
 * Can a line still be made, `me' to move?  A line free of one mark's
 * cells, with k cells still empty, is filled by that mark in k moves; the
 * other mark moves in between, k - 1 times if the line's mark moves first
 * and k times if not, and needs that many empty cells off the line.  If
 * some other line is completed on the way, the answer is yes all the same.
 * Conversely the first line completed in any game had such a count, so
 * this is exact.
 */
static int
ai_winnable(uint16_t me, uint16_t them)
{
	uint16_t	 empty = ~(me | them) & TTT_FULL;
	int		 f = ai_count(empty), k;
	size_t		 i;

	for (i = 0; i < TTT_NLINES; i++) {
		k = ai_count(ttt_lines[i] & empty);
		if ((them & ttt_lines[i]) == 0 && f - k >= k - 1)
			return (1);
		if ((me & ttt_lines[i]) == 0 && f - k >= k)
			return (1);
	}
	return (0);
}

/*
 * The value for `me' to move, neither mark holding a line yet; fail-hard
 * alpha-beta, so a result at alpha or beta is only a bound.
 */
static int
ai_negamax(uint16_t me, uint16_t them, int alpha, int beta)
{
	uint16_t	threats, moves, m;
	size_t		i;
	int		v;

	if (ai_wins(me, them) != 0)
		return (1);
	/* Two cells to block, no win of our own: one of them is lost. */
	threats = ai_wins(them, me);
	if ((threats & (threats - 1)) != 0)
		return (-1);
	/* A threat is a line to be made; else, can one be?  (Full: no.) */
	if (threats == 0 && !ai_winnable(me, them))
		return (0);

	for (i = 0; i < sizeof ai_order / sizeof ai_order[0]; i++) {
		/* One threat: any move but the block loses at once. */
		moves = ~(me | them) & ai_order[i];
		if (threats != 0)
			moves &= threats;
		for (; moves != 0; moves &= moves - 1) {
			m = moves & -moves;
			v = -ai_negamax(them, me | m, -beta, -alpha);
			if (v > alpha) {
				alpha = v;
				if (alpha >= beta)
					return (alpha);
			}
		}
	}
	return (alpha);
}

/* The (rnd mod n)th of the n cells in a non-empty mask. */
static int
ai_pick(uint16_t cells, uint64_t rnd)
{
	uint64_t	k;

	/* 2^64 mod n over 2^64: a bias far below anything measurable. */
	k = rnd % (uint64_t)ai_count(cells);
	while (k-- > 0)
		cells &= cells - 1;
	return (__builtin_ctz(cells));
}

/* The cells of the mark to move and of the other. */
static void
ai_sides(const struct ttt_board *b, uint16_t *me, uint16_t *them)
{
	if (b->turn == TTT_O) {
		*me = b->o;
		*them = b->x;
	} else {
		*me = b->x;
		*them = b->o;
	}
}

/* Every move with the best minimax value for the mark to move. */
uint16_t
ttt_ai_best(const struct ttt_board *b)
{
	uint16_t	me, them, empty, wins, moves, m, best = 0;
	int		v, top = -2, lo;

	if (b->outcome != TTT_ONGOING)
		return (0);
	ai_sides(b, &me, &them);
	empty = ~(me | them) & TTT_FULL;
	/*
	 * Every first move ties: the one position that costs most to search
	 * (test_ai_best_empty_board_is_all checks it against full minimax).
	 */
	if (empty == TTT_FULL)
		return (TTT_FULL);
	/* Nobody can make a line: every move ties. */
	if (!ai_winnable(me, them))
		return (empty);

	wins = ai_wins(me, them);
	for (moves = empty; moves != 0; moves &= moves - 1) {
		m = moves & -moves;
		if (wins & m)
			v = 1;
		else {
			/*
			 * Once a win is found, asking "is this a win too?"
			 * is enough, and a narrower window cuts more.
			 */
			lo = top == 1 ? 0 : -1;
			v = -ai_negamax(them, me | m, -1, -lo);
		}
		if (v > top) {
			top = v;
			best = m;
		} else if (v == top)
			best |= m;
	}
	return (best);
}

/* The computer's move at a level; rnd picks among equal moves. */
int
ttt_ai_move(const struct ttt_board *b, enum ttt_ai_level level,
    uint64_t rnd)
{
	uint16_t	me, them, cells, threats;

	if (b->outcome != TTT_ONGOING)
		return (-1);
	ai_sides(b, &me, &them);
	if ((~(me | them) & TTT_FULL) == 0)
		return (-1);
	if (level == TTT_AI_EASY) {
		/* A line of its own if it can; it never blocks on purpose. */
		cells = ai_wins(me, them);
		if (cells == 0)
			cells = ~(me | them) & TTT_FULL;
	} else {
		/*
		 * Any other level: among the best moves, the one a person
		 * expects, a win now rather than a later one, and a block when
		 * every move loses anyway.
		 */
		if ((cells = ai_wins(me, them)) == 0) {
			cells = ttt_ai_best(b);
			threats = ai_wins(them, me);
			if ((cells & threats) != 0)
				cells &= threats;
		}
	}
	return (ai_pick(cells, rnd));
}

/* Can some sequence of legal moves still end in three in a row? */
int
ttt_board_winnable(const struct ttt_board *b)
{
	uint16_t	me, them;

	if (b->outcome != TTT_ONGOING)
		return (0);
	ai_sides(b, &me, &them);
	return (ai_winnable(me, them));
}
