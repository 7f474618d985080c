/*
 * ai.h -- the computer player, and whether a game can still be won.
 *
 * Pure C like ttt.h: no I/O, no allocation, no globals, no libc random;
 * the caller passes the randomness in.
 */
#ifndef TTT_AI_H
#define TTT_AI_H

#include <stdint.h>

#include "ttt.h"

enum ttt_ai_level {
	TTT_AI_PERFECT = 0,
	TTT_AI_EASY
};

/*
 * Bit i set: cell i is a move with the best minimax value for the mark to
 * move (win > tie > loss).  0 when the game is over.
 */
uint16_t	 ttt_ai_best(const struct ttt_board *);

/*
 * The computer's move for the mark to move: 0..8, or -1 when the game is
 * over.  rnd: any random 64-bit number; it chooses among equally good
 * moves.  PERFECT: uniformly among ttt_ai_best's cells, narrowed to a win
 * now when it has one, else to the blocks among them.  EASY: a cell that
 * completes its own line if there is one, else uniformly among all empty
 * cells (it never blocks on purpose).
 */
int		 ttt_ai_move(const struct ttt_board *, enum ttt_ai_level,
		    uint64_t);

/*
 * 1 if some sequence of legal moves from this position ends with three in
 * a row for either mark; 0 if only a tie can come (or the game is over).
 */
int		 ttt_board_winnable(const struct ttt_board *);

#endif /* TTT_AI_H */
