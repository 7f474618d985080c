/*
 * keys.h -- the input styles of ttt-client: the ways a player may name a
 * square, translated to the protocol's cell (0 to 8, row by row: A1 B1 C1
 * A2 ... C3).  The client always sends MOVE <CELL>.
 *
 * Pure functions: no I/O, no allocation, no globals but constant tables.
 */
#ifndef KEYS_H
#define KEYS_H

#include <stddef.h>

/* The style a player chose; every style is accepted whatever the choice. */
enum keys_style {
	KEYS_CELLS,	/* A1, b2, C3: column letter, then row digit */
	KEYS_KEYPAD,	/* q w e / a s d / z x c: one key a square */
	KEYS_DIGITS,	/* row, then column: "1 3" or "13" is C1 */
	KEYS_NSTYLES
};

int		 keys_style_parse(const char *, enum keys_style *);
const char	*keys_style_name(enum keys_style);
int		 keys_move(const char *, size_t);
int		 keys_label(char *, size_t, enum keys_style, int);
int		 keys_blank(char);
int		 keys_word(const char *, size_t, const char *);

#endif /* KEYS_H */
