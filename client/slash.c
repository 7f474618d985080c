/*
 * slash.c -- telling the client's own commands from moves and answers.  A
 * line whose first non-blank byte is '/' is one of them: /say sends a chat
 * line (checked here by the server's own parser, protocol.md §9.8, so a
 * refused text gets a note and is not sent), /resign gives the game up and
 * /help lists them.  Command words are case-insensitive.
 */
#include <string.h>

#include "proto.h"
#include "slash.h"

static int	slash_blank(char);
static int	slash_word(const char *, size_t, const char *);

/* Is this a blank, space or TAB? */
static int
slash_blank(char c)
{
	return (c == ' ' || c == '\t');
}

/* Is the word (len bytes) this lower-case word, in any case? */
static int
slash_word(const char *w, size_t len, const char *word)
{
	size_t	i;
	char	c;

	if (len != strlen(word))
		return (0);
	for (i = 0; i < len; i++) {
		c = w[i];
		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if (c != word[i])
			return (0);
	}
	return (1);
}

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
	while (line < end && slash_blank(*line))
		line++;
	if (line == end || *line != '/')
		return (sl->kind = SLASH_NONE);
	w = ++line;
	while (line < end && !slash_blank(*line))
		line++;
	wlen = (size_t)(line - w);
	if (slash_word(w, wlen, "resign"))
		return (sl->kind = SLASH_RESIGN);
	if (slash_word(w, wlen, "help"))
		return (sl->kind = SLASH_HELP);
	if (!slash_word(w, wlen, "say"))
		return (sl->kind = SLASH_UNKNOWN);
	/* The text, as the server will judge SAY <text>. */
	if (proto_parse(w, (size_t)(end - w), &cmd) != PROTO_OK)
		return (sl->kind = SLASH_BAD_TEXT);
	sl->text = cmd.text;
	sl->textlen = cmd.textlen;
	return (sl->kind = SLASH_SAY);
}
