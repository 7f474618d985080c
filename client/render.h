/*
 * render.h -- what the player of ttt-client sees: the board, the server's
 * events, prompts and notes, drawn into a caller's buffer.
 *
 * Pure functions: no I/O, no allocation, no globals.  They have snprintf
 * semantics: they return the length the text needs (without the NUL) and
 * write at most size bytes, always NUL-terminated when size > 0.
 */
#ifndef RENDER_H
#define RENDER_H

#include <stddef.h>

#include "proto.h"

#define RENDER_MAX	1024	/* enough for any one rendered text */

/* The questions the client asks; the text ends in a blank, no newline. */
enum render_prompt {
	RENDER_PROMPT_NAME,
	RENDER_PROMPT_MOVE,
	RENDER_PROMPT_AGAIN
};

/* The client's own one-line notes, each ending in a newline. */
enum render_note {
	RENDER_NOTE_BAD_MOVE,
	RENDER_NOTE_BAD_ANSWER,
	RENDER_NOTE_BAD_NAME,
	RENDER_NOTE_NOT_YOUR_TURN
};

int	render_board(char *, size_t, const char *);
int	render_event(char *, size_t, const struct proto_event *,
	    enum ttt_mark);
int	render_prompt(char *, size_t, enum render_prompt);
int	render_note(char *, size_t, enum render_note);

#endif /* RENDER_H */
