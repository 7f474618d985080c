/*
 * slash.h -- the lines a player types that are commands to the client
 * rather than answers: /say TEXT, /resign, and what the command line's
 * options do (/games, /watch N, /leave, /room, /join CODE, /ai [LEVEL],
 * /name NAME), the accounts' numbers (/rating [NAME], /history [NAME] [N],
 * /top [N]), and /help.
 *
 * Pure functions: no I/O, no allocation, no globals.
 */
#ifndef SLASH_H
#define SLASH_H

#include <stddef.h>

#include "proto.h"

#define SLASH_ARG_MAX	24	/* a game id, a room code or a level */

enum slash_kind {
	SLASH_NONE,		/* no slash command: a move, an answer, a name */
	SLASH_SAY,		/* /say TEXT: SAY TEXT */
	SLASH_RESIGN,		/* /resign: RESIGN */
	SLASH_HELP,		/* /help: the client's list */
	SLASH_BAD_TEXT,		/* /say with a text the server would refuse */
	SLASH_UNKNOWN,		/* another word after a slash */
	SLASH_GAMES,		/* /games: GAMES */
	SLASH_WATCH,		/* /watch N: WATCH N */
	SLASH_LEAVE,		/* /leave: UNWATCH */
	SLASH_ROOM,		/* /room: ROOM NEW */
	SLASH_JOIN,		/* /join CODE: ROOM JOIN CODE */
	SLASH_AI,		/* /ai [easy|perfect]: PLAY AI [LEVEL] */
	SLASH_NAME,		/* /name NAME: NAME NAME */
	SLASH_BAD_GAME,		/* /watch without a game number */
	SLASH_BAD_CODE,		/* /join without a room code */
	SLASH_BAD_LEVEL,	/* /ai with another word */
	SLASH_BAD_NAME,		/* /name with a name the server would refuse */
	SLASH_RATING,		/* /rating [NAME]: RATING [NAME] */
	SLASH_HISTORY,		/* /history [NAME] [N]: HISTORY [NAME] [N] */
	SLASH_TOP,		/* /top [N]: TOP [N] */
	SLASH_BAD_RATING,	/* /rating with more than a name */
	SLASH_BAD_HISTORY,	/* /history with a bad name or count */
	SLASH_BAD_TOP		/* /top with a bad count */
};

/*
 * A slash command: for /say the text, pointing into the line; for /watch,
 * /join, /ai, /name, /rating, /history and /top the argument as it is
 * sent (4, K7QX-2M9P, easy or "" for none, the name, "alice 5").
 */
struct slash {
	enum slash_kind	 kind;
	const char	*text;
	size_t		 textlen;
	char		 arg[PROTO_NAME_MAX + SLASH_ARG_MAX + 1];
};

enum slash_kind	slash_parse(const char *, size_t, struct slash *);
int		slash_queued(enum slash_kind);

#endif /* SLASH_H */
