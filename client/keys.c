/*
 * keys.c -- what a line typed at the move prompt means, in any of the
 * three input styles, and how each style names a square.
 *
 * The styles never overlap, so all of them are accepted whatever style was
 * chosen: a cell is a letter then a digit ("b2"), a keypad key is one letter
 * ("s"), and a row and column are two digits ("2 2" or "22").  "quit" is
 * none of these, so it stays the word to quit; the keypad's "q" is A1.
 * Blanks and words in any case are read here for slash.c and args.c too.
 */
#include <stdio.h>
#include <string.h>

#include "keys.h"

/* The keypad: the left-hand keys of a US keyboard, row by row (seed 003). */
static const char keys_keypad[] = "qweasdzxc";

static const char *keys_names[] = {
	[KEYS_CELLS] = "cells",
	[KEYS_KEYPAD] = "keypad",
	[KEYS_DIGITS] = "digits",
};

static char	keys_lower(char);
static int	keys_digit(char);

/* Space and TAB around and between words. */
int
keys_blank(char c)
{
	return (c == ' ' || c == '\t');
}

/* A letter in lower case; anything else as it is. */
static char
keys_lower(char c)
{
	return ((c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c);
}

/* Is the word (len bytes) this lower-case word, in any case? */
int
keys_word(const char *w, size_t len, const char *word)
{
	size_t	i;

	if (len != strlen(word))
		return (0);
	for (i = 0; i < len; i++) {
		if (keys_lower(w[i]) != word[i])
			return (0);
	}
	return (1);
}

/* A row or column number, 1 to 3, as 0 to 2; -1 if it is not one. */
static int
keys_digit(char c)
{
	return ((c >= '1' && c <= '3') ? c - '1' : -1);
}

/* Look up a style by its name; 0, or -1 if there is no such style. */
int
keys_style_parse(const char *name, enum keys_style *style)
{
	int	i;

	for (i = 0; i < KEYS_NSTYLES; i++) {
		if (strcmp(name, keys_names[i]) == 0) {
			*style = (enum keys_style)i;
			return (0);
		}
	}
	return (-1);
}

/* The name of a style, as --keys takes it. */
const char *
keys_style_name(enum keys_style style)
{
	if ((unsigned)style >= KEYS_NSTYLES)
		return ("?");
	return (keys_names[style]);
}

/*
 * The cell a move-prompt line names in any style, blanks around it
 * ignored, letters in any case: A1 to C3, one keypad key, or a row and a
 * column from 1 to 3, together or apart.  Returns 0 to 8, or -1 if the line
 * names no cell.
 */
int
keys_move(const char *line, size_t len)
{
	const char	*p, *end = line + len;
	int		 col, row;

	while (line < end && keys_blank(*line))
		line++;
	while (end > line && keys_blank(end[-1]))
		end--;
	len = (size_t)(end - line);
	if (len == 1 && *line != '\0' &&
	    (p = strchr(keys_keypad, keys_lower(*line))) != NULL)
		return ((int)(p - keys_keypad));
	if (len == 2) {
		col = keys_lower(line[0]) - 'a';
		row = keys_digit(line[1]);
		if (col >= 0 && col <= 2 && row != -1)
			return (row * 3 + col);
	}
	if (len < 2)
		return (-1);
	row = keys_digit(line[0]);
	col = keys_digit(end[-1]);
	for (p = line + 1; p < end - 1; p++) {
		if (!keys_blank(*p))
			return (-1);
	}
	if (row == -1 || col == -1)
		return (-1);
	return (row * 3 + col);
}

/*
 * How a style names a cell ("B1", "w", "12"), with snprintf semantics;
 * nothing for a cell or style out of range.
 */
int
keys_label(char *buf, size_t size, enum keys_style style, int cell)
{
	if (cell < 0 || cell > 8 || (unsigned)style >= KEYS_NSTYLES)
		return (snprintf(buf, size, "%s", ""));
	switch (style) {
	case KEYS_KEYPAD:
		return (snprintf(buf, size, "%c", keys_keypad[cell]));
	case KEYS_DIGITS:
		return (snprintf(buf, size, "%d%d", cell / 3 + 1,
		    cell % 3 + 1));
	default:
		return (snprintf(buf, size, "%c%d", 'A' + cell % 3,
		    cell / 3 + 1));
	}
}
