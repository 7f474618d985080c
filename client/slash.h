/*
 * slash.h -- the lines a player types that are commands to the client
 * rather than answers: /say TEXT, /resign, /help.
 *
 * Pure functions: no I/O, no allocation, no globals.
 */
#ifndef SLASH_H
#define SLASH_H

#include <stddef.h>

enum slash_kind {
	SLASH_NONE,		/* no slash command: a move, an answer, a name */
	SLASH_SAY,		/* /say TEXT: SAY TEXT */
	SLASH_RESIGN,		/* /resign: RESIGN */
	SLASH_HELP,		/* /help: the client's list */
	SLASH_BAD_TEXT,		/* /say with a text the server would refuse */
	SLASH_UNKNOWN		/* another word after a slash */
};

/* A slash command; text points into the line (SAY only). */
struct slash {
	enum slash_kind	 kind;
	const char	*text;
	size_t		 textlen;
};

enum slash_kind	slash_parse(const char *, size_t, struct slash *);

#endif /* SLASH_H */
