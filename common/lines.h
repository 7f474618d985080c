/*
 * lines.h -- the board's geometry as masks over cells 0..8 (row-major),
 * shared by the rules (board.c) and the computer player (ai.c); private
 * to common/.
 */
#ifndef TTT_LINES_H
#define TTT_LINES_H

#include <stdint.h>

#define TTT_FULL	0x1ff	/* every cell */
#define TTT_NLINES	8

/* The eight winning lines: rows 1-3, columns A-C, the two diagonals. */
extern const uint16_t ttt_lines[TTT_NLINES];

#endif /* TTT_LINES_H */
