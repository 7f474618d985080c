/*
 * board.c -- board state, move validation, win and tie detection.
 */
#include "lines.h"
#include "ttt.h"

const uint16_t ttt_lines[TTT_NLINES] = {
	0x007, 0x038, 0x1c0,		/* rows 1, 2, 3 */
	0x049, 0x092, 0x124,		/* columns A, B, C */
	0x111, 0x054			/* diagonals A1-C3, C1-A3 */
};

/*
 * The first winning line wholly inside a mask of cells (one mark's), as a
 * mask; 0 if there is none.
 */
uint16_t
ttt_line_of(uint16_t mask)
{
	size_t	i;

	for (i = 0; i < TTT_NLINES; i++) {
		if ((mask & ttt_lines[i]) == ttt_lines[i])
			return (ttt_lines[i]);
	}
	return (0);
}

/* Start an empty board with the given mark to move first. */
void
ttt_board_init(struct ttt_board *b, enum ttt_mark first)
{
	b->x = 0;
	b->o = 0;
	b->turn = (first == TTT_O) ? TTT_O : TTT_X;
	b->outcome = TTT_ONGOING;
	b->last = TTT_CELLS;
}

/*
 * Play one move for a mark.  Checks, in order: mark and cell in range, game
 * not over, the mark's turn, cell free.  The board is unchanged on error.
 */
enum ttt_error
ttt_board_play(struct ttt_board *b, enum ttt_mark mark, int cell)
{
	uint16_t	 bit, *mine;

	if ((mark != TTT_X && mark != TTT_O) || cell < 0 || cell >= TTT_CELLS)
		return (TTT_ERANGE);
	if (b->outcome != TTT_ONGOING)
		return (TTT_EOVER);
	if (b->turn != mark)
		return (TTT_ETURN);
	bit = (uint16_t)(1u << cell);
	if ((b->x | b->o) & bit)
		return (TTT_EOCCUPIED);

	mine = (mark == TTT_X) ? &b->x : &b->o;
	*mine |= bit;
	b->last = (uint8_t)cell;
	if (ttt_line_of(*mine) != 0)
		b->outcome = (mark == TTT_X) ? TTT_WIN_X : TTT_WIN_O;
	else if ((b->x | b->o) == TTT_FULL)
		b->outcome = TTT_DRAW;
	else
		b->turn = ttt_mark_other(mark);
	return (TTT_OK);
}

/* What stands in a cell; TTT_EMPTY for a free or out-of-range cell. */
enum ttt_mark
ttt_board_at(const struct ttt_board *b, int cell)
{
	if (cell < 0 || cell >= TTT_CELLS)
		return (TTT_EMPTY);
	if (b->x & (1u << cell))
		return (TTT_X);
	if (b->o & (1u << cell))
		return (TTT_O);
	return (TTT_EMPTY);
}

/* Whose move it is; TTT_EMPTY once the game is over. */
enum ttt_mark
ttt_board_turn(const struct ttt_board *b)
{
	if (b->outcome != TTT_ONGOING)
		return (TTT_EMPTY);
	return ((enum ttt_mark)b->turn);
}

/* How the game stands. */
enum ttt_outcome
ttt_board_outcome(const struct ttt_board *b)
{
	return ((enum ttt_outcome)b->outcome);
}

/* The winning mark, or TTT_EMPTY while ongoing or after a draw. */
enum ttt_mark
ttt_board_winner(const struct ttt_board *b)
{
	switch (b->outcome) {
	case TTT_WIN_X:
		return (TTT_X);
	case TTT_WIN_O:
		return (TTT_O);
	default:
		return (TTT_EMPTY);
	}
}

/* How many moves have been played. */
int
ttt_board_moves(const struct ttt_board *b)
{
	return (__builtin_popcount(b->x) + __builtin_popcount(b->o));
}

/* The last cell played, or -1 before the first move. */
int
ttt_board_last(const struct ttt_board *b)
{
	return (b->last < TTT_CELLS ? b->last : -1);
}

/*
 * Could moves from an empty board have made this one (a board read from
 * outside, e.g. a match image)?  Disjoint masks, counts that alternate
 * (either mark may have begun), the outcome the marks say, the mark to
 * move (or, once over, the one that moved last) and the last cell its.
 */
int
ttt_board_valid(const struct ttt_board *b)
{
	int		 nx = __builtin_popcount(b->x);
	int		 no = __builtin_popcount(b->o);
	uint16_t	 xl, ol, mine;
	enum ttt_mark	 last;

	if (b->x > TTT_FULL || b->o > TTT_FULL || (b->x & b->o) != 0 ||
	    nx - no > 1 || no - nx > 1 ||
	    (b->turn != TTT_X && b->turn != TTT_O) || b->last > TTT_CELLS)
		return (0);
	xl = ttt_line_of(b->x);
	ol = ttt_line_of(b->o);
	if (xl != 0 && ol != 0)
		return (0);
	if (b->outcome != (xl != 0 ? TTT_WIN_X : ol != 0 ? TTT_WIN_O :
	    (b->x | b->o) == TTT_FULL ? TTT_DRAW : TTT_ONGOING))
		return (0);
	if ((b->outcome == TTT_WIN_X && b->turn != TTT_X) ||
	    (b->outcome == TTT_WIN_O && b->turn != TTT_O))
		return (0);
	/* Who moved last: the mark to move's opponent, or once over, the mark. */
	last = b->outcome == TTT_ONGOING ?
	    ttt_mark_other((enum ttt_mark)b->turn) : (enum ttt_mark)b->turn;
	if ((last == TTT_X && nx < no) || (last == TTT_O && no < nx))
		return (0);
	if (nx + no == 0)
		return (b->last == TTT_CELLS && b->outcome == TTT_ONGOING);
	mine = last == TTT_X ? b->x : b->o;
	if (b->last == TTT_CELLS || !(mine & (1u << b->last)))
		return (0);
	/* A win came with its last move: none before it. */
	if (b->outcome == TTT_WIN_X || b->outcome == TTT_WIN_O)
		return (ttt_line_of((uint16_t)(mine & ~(1u << b->last))) ==
		    0);
	return (1);
}

/* The opponent's mark. */
enum ttt_mark
ttt_mark_other(enum ttt_mark mark)
{
	switch (mark) {
	case TTT_X:
		return (TTT_O);
	case TTT_O:
		return (TTT_X);
	default:
		return (TTT_EMPTY);
	}
}

/* 'X', 'O' or '.' for an empty cell. */
char
ttt_mark_char(enum ttt_mark mark)
{
	switch (mark) {
	case TTT_X:
		return ('X');
	case TTT_O:
		return ('O');
	default:
		return ('.');
	}
}

/* Parse a two-character cell name (A1 .. C3, any case); -1 if malformed. */
int
ttt_cell_parse(const char *s, size_t len)
{
	int	col, row;

	if (len != 2)
		return (-1);
	col = s[0] | 0x20;		/* ASCII lower case */
	row = s[1];
	if (col < 'a' || col > 'c' || row < '1' || row > '3')
		return (-1);
	return ((row - '1') * 3 + (col - 'a'));
}

/* Write a cell's upper-case name ("B2") into a 3-byte buffer. */
void
ttt_cell_name(int cell, char name[3])
{
	if (cell < 0 || cell >= TTT_CELLS) {
		name[0] = '?';
		name[1] = '?';
	} else {
		name[0] = (char)('A' + cell % 3);
		name[1] = (char)('1' + cell / 3);
	}
	name[2] = '\0';
}
