/*
 * ttt.h -- the Tic Tac Toe rules engine.
 *
 * Pure C: no I/O, no allocation, no globals.  A board is two 9-bit masks,
 * one per mark; cells are numbered row-major, A1 B1 C1 A2 ... C3 = 0..8.
 */
#ifndef TTT_H
#define TTT_H

#include <stddef.h>
#include <stdint.h>

#define TTT_CELLS	9

enum ttt_mark {
	TTT_EMPTY = 0,
	TTT_X = 1,
	TTT_O = 2
};

enum ttt_outcome {
	TTT_ONGOING = 0,
	TTT_WIN_X,
	TTT_WIN_O,
	TTT_DRAW
};

enum ttt_error {
	TTT_OK = 0,
	TTT_ERANGE,		/* cell outside 0..8 or mark not X/O */
	TTT_EOCCUPIED,		/* cell already taken */
	TTT_ETURN,		/* not this mark's turn */
	TTT_EOVER		/* the game has ended */
};

struct ttt_board {
	uint16_t	x;		/* cells held by X */
	uint16_t	o;		/* cells held by O */
	uint8_t		turn;		/* enum ttt_mark to move */
	uint8_t		outcome;	/* enum ttt_outcome */
	uint8_t		last;		/* last cell played, TTT_CELLS if none */
};

void		 ttt_board_init(struct ttt_board *, enum ttt_mark);
enum ttt_error	 ttt_board_play(struct ttt_board *, enum ttt_mark, int);
enum ttt_mark	 ttt_board_at(const struct ttt_board *, int);
enum ttt_mark	 ttt_board_turn(const struct ttt_board *);
enum ttt_outcome ttt_board_outcome(const struct ttt_board *);
enum ttt_mark	 ttt_board_winner(const struct ttt_board *);
int		 ttt_board_moves(const struct ttt_board *);
int		 ttt_board_last(const struct ttt_board *);
int		 ttt_board_valid(const struct ttt_board *);

enum ttt_mark	 ttt_mark_other(enum ttt_mark);
char		 ttt_mark_char(enum ttt_mark);

uint16_t	 ttt_line_of(uint16_t);

int		 ttt_cell_parse(const char *, size_t);
void		 ttt_cell_name(int, char [3]);

#endif /* TTT_H */
