/*
 * fuzz_board.c -- libFuzzer harness for the rules engine: arbitrary move
 * sequences (out-of-range marks and cells included) played on a board and
 * on a plain array model, compared after every move; the computer's moves
 * and ttt_board_winnable checked on every position reached; and cell names
 * parsed and printed back.
 *
 * Input: byte 0 picks who moves first; each further byte is one move, its
 * high two bits the mark (0 the side to move, 1 X, 2 O, 3 no mark) and its
 * low four bits the cell minus 3 (-3 .. 12).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ai.h"
#include "fuzz.h"
#include "ttt.h"


/* The model: one mark per cell, whose turn, and the last accepted cell. */
struct fuzz_model {
	enum ttt_mark	cell[TTT_CELLS];
	enum ttt_mark	first;
	enum ttt_mark	turn;
	int		last;
	int		over;
	int		dead;		/* ttt_board_winnable said 0 once */
};

int		LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static enum ttt_mark	fuzz_line_owner(const struct fuzz_model *);
static enum ttt_error	fuzz_expect(const struct fuzz_model *, enum ttt_mark,
			    int);
static void		fuzz_compare(const struct ttt_board *,
			    const struct fuzz_model *);
static void		fuzz_play(struct ttt_board *, struct fuzz_model *,
			    uint8_t);
static void		fuzz_ai(const struct ttt_board *, struct fuzz_model *,
			    uint64_t);
static void		fuzz_cells(const uint8_t *, size_t);

/* Who holds three in a row, by looking at rows, columns and diagonals. */
static enum ttt_mark
fuzz_line_owner(const struct fuzz_model *m)
{
	enum ttt_mark	owner = TTT_EMPTY, a;
	int		i, nlines = 0;

	for (i = 0; i < 3; i++) {
		a = m->cell[i * 3];		/* row i */
		if (a != TTT_EMPTY && a == m->cell[i * 3 + 1] &&
		    a == m->cell[i * 3 + 2]) {
			CHECK(owner == TTT_EMPTY || owner == a);
			owner = a;
			nlines++;
		}
		a = m->cell[i];			/* column i */
		if (a != TTT_EMPTY && a == m->cell[i + 3] &&
		    a == m->cell[i + 6]) {
			CHECK(owner == TTT_EMPTY || owner == a);
			owner = a;
			nlines++;
		}
	}
	a = m->cell[4];
	if (a != TTT_EMPTY && ((a == m->cell[0] && a == m->cell[8]) ||
	    (a == m->cell[2] && a == m->cell[6]))) {
		CHECK(owner == TTT_EMPTY || owner == a);
		owner = a;
		nlines++;
	}
	CHECK(nlines <= 2);		/* one move closes two lines at most */
	return (owner);
}

/* What ttt_board_play must answer, in its documented order of checks. */
static enum ttt_error
fuzz_expect(const struct fuzz_model *m, enum ttt_mark mark, int cell)
{
	if ((mark != TTT_X && mark != TTT_O) || cell < 0 || cell >= TTT_CELLS)
		return (TTT_ERANGE);
	if (m->over)
		return (TTT_EOVER);
	if (mark != m->turn)
		return (TTT_ETURN);
	if (m->cell[cell] != TTT_EMPTY)
		return (TTT_EOCCUPIED);
	return (TTT_OK);
}

/* The board and the model agree on everything the engine exposes. */
static void
fuzz_compare(const struct ttt_board *b, const struct fuzz_model *m)
{
	enum ttt_mark	owner;
	int		i, nx = 0, no = 0, full = 1;

	CHECK((b->x & b->o) == 0);
	CHECK(((b->x | b->o) & ~0x1ffu) == 0);
	for (i = -3; i < TTT_CELLS + 3; i++) {
		if (i < 0 || i >= TTT_CELLS) {
			CHECK(ttt_board_at(b, i) == TTT_EMPTY);
			continue;
		}
		CHECK(ttt_board_at(b, i) == m->cell[i]);
		CHECK(!!(b->x & (1u << i)) == (m->cell[i] == TTT_X));
		CHECK(!!(b->o & (1u << i)) == (m->cell[i] == TTT_O));
		nx += m->cell[i] == TTT_X;
		no += m->cell[i] == TTT_O;
		full &= m->cell[i] != TTT_EMPTY;
	}
	if (m->first == TTT_X)
		CHECK(nx - no == 0 || nx - no == 1);
	else
		CHECK(no - nx == 0 || no - nx == 1);
	CHECK(ttt_board_moves(b) == __builtin_popcount(b->x) +
	    __builtin_popcount(b->o));
	CHECK(ttt_board_moves(b) == nx + no);
	CHECK(ttt_board_last(b) == m->last);

	owner = fuzz_line_owner(m);
	if (owner == TTT_X) {
		CHECK(ttt_board_outcome(b) == TTT_WIN_X);
		CHECK(ttt_board_winner(b) == TTT_X);
	} else if (owner == TTT_O) {
		CHECK(ttt_board_outcome(b) == TTT_WIN_O);
		CHECK(ttt_board_winner(b) == TTT_O);
	} else if (full) {
		CHECK(ttt_board_outcome(b) == TTT_DRAW);
		CHECK(ttt_board_winner(b) == TTT_EMPTY);
	} else {
		CHECK(ttt_board_outcome(b) == TTT_ONGOING);
		CHECK(ttt_board_winner(b) == TTT_EMPTY);
	}
	if (owner != TTT_EMPTY)
		CHECK(m->cell[m->last] == owner);	/* the last move won */
	CHECK(m->over == (ttt_board_outcome(b) != TTT_ONGOING));
	CHECK(ttt_board_turn(b) == (m->over ? TTT_EMPTY : m->turn));
}

/* One move from one input byte, on both the board and the model. */
static void
fuzz_play(struct ttt_board *b, struct fuzz_model *m, uint8_t byte)
{
	struct ttt_board	before;
	enum ttt_mark		mark;
	enum ttt_error		want, got;
	enum ttt_mark		owner;
	int			cell = (int)(byte & 0x0f) - 3, full, i;

	switch (byte >> 6) {
	case 0:
		mark = m->turn;
		break;
	case 1:
		mark = TTT_X;
		break;
	case 2:
		mark = TTT_O;
		break;
	default:
		mark = (byte & 0x20) ? (enum ttt_mark)3 : TTT_EMPTY;
		break;
	}
	want = fuzz_expect(m, mark, cell);
	memcpy(&before, b, sizeof before);
	got = ttt_board_play(b, mark, cell);
	CHECK(got == want);
	if (got != TTT_OK) {
		CHECK(memcmp(&before, b, sizeof before) == 0);
		return;
	}
	CHECK(mark == m->turn);
	m->cell[cell] = mark;
	m->last = cell;
	owner = fuzz_line_owner(m);
	for (full = 1, i = 0; i < TTT_CELLS; i++)
		full &= m->cell[i] != TTT_EMPTY;
	if (owner != TTT_EMPTY || full)
		m->over = 1;
	else
		m->turn = ttt_mark_other(mark);	/* turns alternate */
}

/*
 * The computer on this position: both levels give an empty cell, PERFECT
 * one of ttt_ai_best's, EASY its own winning cell when it has one; -1 and
 * 0 once the game is over.  A game found unwinnable never ends in a line,
 * and until then every move ties.
 */
static void
fuzz_ai(const struct ttt_board *b, struct fuzz_model *m, uint64_t rnd)
{
	uint16_t	best, empty = 0, wins = 0;
	int		k;

	for (k = 0; k < TTT_CELLS; k++) {
		if (m->cell[k] != TTT_EMPTY)
			continue;
		empty |= (uint16_t)(1u << k);
		m->cell[k] = m->turn;
		if (!m->over && fuzz_line_owner(m) == m->turn)
			wins |= (uint16_t)(1u << k);
		m->cell[k] = TTT_EMPTY;
	}
	k = ttt_ai_move(b, TTT_AI_EASY, rnd);
	if (m->over) {
		CHECK(k == -1 && ttt_board_winnable(b) == 0);
		if (m->dead)
			CHECK(fuzz_line_owner(m) == TTT_EMPTY);
	} else {
		CHECK(k >= 0 && k < TTT_CELLS && (empty & (1u << k)) != 0);
		if (wins != 0)
			CHECK((wins & (1u << k)) != 0);
		if (ttt_board_winnable(b) == 0)
			m->dead = 1;
		else
			CHECK(!m->dead);	/* never winnable again */
	}

	/*
	 * The search costs most early on, and under the sanitizers it would
	 * slow this harness several times over; test_ai checks every one of
	 * those positions, so only the later ones here.
	 */
	if (ttt_board_moves(b) < 3)
		return;
	best = ttt_ai_best(b);
	k = ttt_ai_move(b, TTT_AI_PERFECT, rnd);
	if (m->over)
		CHECK(best == 0 && k == -1);
	else {
		CHECK(best != 0 && (best & ~empty) == 0);
		CHECK(k >= 0 && k < TTT_CELLS && (best & (1u << k)) != 0);
		if (m->dead)
			CHECK(best == empty);	/* every move ties */
	}
}

/* Cell names: parse every two-byte window; names print and parse back. */
static void
fuzz_cells(const uint8_t *data, size_t size)
{
	char	name[3], s[2];
	size_t	i;
	int	cell, col, row, want;

	for (cell = -2; cell < TTT_CELLS + 2; cell++) {
		ttt_cell_name(cell, name);
		CHECK(name[2] == '\0');
		if (cell < 0 || cell >= TTT_CELLS)
			CHECK(strcmp(name, "??") == 0 &&
			    ttt_cell_parse(name, 2) == -1);
		else
			CHECK(ttt_cell_parse(name, 2) == cell);
	}
	for (i = 0; i < size; i++) {
		s[0] = (char)data[i];
		s[1] = i + 1 < size ? (char)data[i + 1] : '1';
		CHECK(ttt_cell_parse(s, 1) == -1);
		CHECK(ttt_cell_parse(s, 0) == -1);
		cell = ttt_cell_parse(s, 2);
		col = (s[0] >= 'a' && s[0] <= 'c') ? s[0] - 'a' :
		    (s[0] >= 'A' && s[0] <= 'C') ? s[0] - 'A' : -1;
		row = (s[1] >= '1' && s[1] <= '3') ? s[1] - '1' : -1;
		want = (col < 0 || row < 0) ? -1 : row * 3 + col;
		CHECK(cell == want);
		if (cell >= 0) {
			ttt_cell_name(cell, name);
			CHECK(name[0] == (s[0] & ~0x20) && name[1] == s[1]);
		}
	}
}

/* One game from the input, compared move by move; then the cell names. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ttt_board	b;
	struct fuzz_model	m;
	size_t			i;
	int			moves;

	if (size == 0)
		return (0);
	memset(&b, 0, sizeof b);	/* padding too: compared bytewise */
	memset(&m, 0, sizeof m);
	m.first = (data[0] & 1) ? TTT_O : TTT_X;
	m.turn = m.first;
	m.last = -1;
	ttt_board_init(&b, m.first);
	fuzz_compare(&b, &m);
	CHECK(ttt_board_moves(&b) == 0 && ttt_board_last(&b) == -1);
	fuzz_ai(&b, &m, data[0]);
	for (i = 1; i < size; i++) {
		moves = ttt_board_moves(&b);
		fuzz_play(&b, &m, data[i]);
		fuzz_compare(&b, &m);
		/* Each position once; rnd from the input that led there. */
		if (ttt_board_moves(&b) != moves)
			fuzz_ai(&b, &m, (uint64_t)data[i] * 0x9e3779b97f4a7c15u +
			    i);
	}

	CHECK(ttt_mark_other(TTT_X) == TTT_O && ttt_mark_other(TTT_O) == TTT_X);
	CHECK(ttt_mark_other(TTT_EMPTY) == TTT_EMPTY);
	CHECK(ttt_mark_char(TTT_X) == 'X' && ttt_mark_char(TTT_O) == 'O' &&
	    ttt_mark_char(TTT_EMPTY) == '.');
	fuzz_cells(data, size);
	return (0);
}
