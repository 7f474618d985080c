/*
 * slash.c -- telling the client's own commands from moves and answers.  A
 * line whose first non-blank byte is '/' is one of them: /say sends a chat
 * line (checked here by the server's own parser, protocol.md §9.8, so a
 * refused text gets a note and is not sent), /resign gives the game up and
 * /help lists them.  Command words are case-insensitive.
 */
#include <string.h>

#include "keys.h"
#include "proto.h"
#include "slash.h"

/*
 * Take an input line (without its newline) apart: its kind, and for /say
 * the text without the blanks around it.
 */
enum slash_kind
slash_parse(const char *line, size_t len, struct slash *sl)
{
	const char		*w, *end = line + len;
	size_t			 wlen;
	struct proto_cmd	 cmd;

	memset(sl, 0, sizeof *sl);
	sl->text = "";
	while (line < end && keys_blank(*line))
		line++;
	if (line == end || *line != '/')
		return (sl->kind = SLASH_NONE);
	w = ++line;
	while (line < end && !keys_blank(*line))
		line++;
	wlen = (size_t)(line - w);
	if (keys_word(w, wlen, "resign"))
		return (sl->kind = SLASH_RESIGN);
	if (keys_word(w, wlen, "help"))
		return (sl->kind = SLASH_HELP);
	if (!keys_word(w, wlen, "say"))
		return (sl->kind = SLASH_UNKNOWN);
	/* The text, as the server will judge SAY <text>. */
	if (proto_parse(w, (size_t)(end - w), &cmd) != PROTO_OK)
		return (sl->kind = SLASH_BAD_TEXT);
	sl->text = cmd.text;
	sl->textlen = cmd.textlen;
	return (sl->kind = SLASH_SAY);
}
