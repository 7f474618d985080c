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

#include "keys.h"
#include "proto.h"

#define RENDER_MAX	1024	/* enough for any one rendered text */

/*
 * What the drawing depends on besides the server's line: the player's mark
 * (TTT_EMPTY before MATCH), the cell last played (-1: none), colour (X and
 * O in two colours, the last move highlighted) and the input style (the
 * move prompt, the bad move note, the key map); whether the client
 * reconnects by itself, whether it joined a room or made it, and the
 * server's host and port, for the commands it tells the player to run.
 * NULL stands for the plain view: no mark, no last move, no colour, the
 * cells style, no reconnection, a room made, "HOST PORT".
 */
struct render_view {
	enum ttt_mark	 mine;
	int		 last;
	int		 colour;
	enum keys_style	 keys;
	int		 reconnect;	/* TOKEN: the client reconnects itself */
	int		 joining;	/* OK ROOM: joined, not made */
	const char	*host;		/* the server, as the player named */
	const char	*port;		/* it; NULL: "HOST" and "PORT" */
};

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
	RENDER_NOTE_NOT_YOUR_TURN,
	RENDER_NOTE_BAD_TEXT,		/* /say with a text the server refuses */
	RENDER_NOTE_SLASH_HELP,		/* /help */
	RENDER_NOTE_SLASH_UNKNOWN,	/* /anything else */
	RENDER_NOTE_WATCHING,		/* a line typed while watching */
	RENDER_NOTE_LOST,		/* reconnecting */
	RENDER_NOTE_BAD_GAME,		/* /watch without a game number */
	RENDER_NOTE_BAD_CODE,		/* /join without a room code */
	RENDER_NOTE_BAD_LEVEL,		/* /ai with another word */
	RENDER_NOTE_BAD_RATING,		/* /rating with more than a name */
	RENDER_NOTE_BAD_HISTORY,	/* /history with a bad name or count */
	RENDER_NOTE_BAD_TOP,		/* /top with a bad count */
	RENDER_NOTE_NAME_TO_REGISTER,	/* --register: an empty name */
	RENDER_NOTE_NAME_REFUSED	/* the name refused, a question open */
};

int	render_board(char *, size_t, const char *,
	    const struct render_view *);
int	render_event(char *, size_t, const struct proto_event *,
	    const struct render_view *);
int	render_prompt(char *, size_t, enum render_prompt,
	    const struct render_view *);
int	render_note(char *, size_t, enum render_note,
	    const struct render_view *);
int	render_last(const char *, const char *, int);
int	render_renamed(char *, size_t, const char *);
int	render_refusal(char *, size_t, enum proto_verb, const char *,
	    const struct proto_event *);

/* render-account.c: accounts, ratings, /history and /top. */
int	render_account(char *, size_t, const struct proto_event *);
int	render_key_kept(char *, size_t, const char *, const char *);
int	render_key_unkept(char *, size_t, const char *, const char *,
	    const char *);
int	render_key_refused(char *, size_t, const struct proto_event *,
	    const char *);

#endif /* RENDER_H */
