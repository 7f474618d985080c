/*
 * slash.c -- telling the client's own commands from moves and answers.  A
 * line whose first non-blank byte is '/' is one of them: /say sends a chat
 * line (checked here by the server's own parser, protocol.md §9.8, so a
 * refused text gets a note and is not sent), /resign gives the game up;
 * /games, /watch N, /leave, /room, /join CODE, /ai [LEVEL] and /name NAME
 * do what the options do (and /leave stops watching), their arguments
 * checked as the options' are; /rating, /history and /top ask for the
 * accounts' numbers (protocol.md §12), their arguments checked by the
 * server's parser; /help lists them.  Command words are case-insensitive.
 */
#include <stdio.h>
#include <string.h>

#include "keys.h"
#include "proto.h"
#include "slash.h"

/* The commands without an argument, and the ones the parser judges. */
static const struct {
	const char	*word;
	enum slash_kind	 kind;
} slash_words[] = {
	{ "resign",	SLASH_RESIGN },
	{ "help",	SLASH_HELP },
	{ "games",	SLASH_GAMES },
	{ "leave",	SLASH_LEAVE },
	{ "room",	SLASH_ROOM },
};

static int	slash_arg(const char *, const char *, const char **,
		    size_t *);
static enum slash_kind slash_with_arg(const char *, size_t, const char *,
		    const char *, struct slash *);
static enum slash_kind slash_account(const char *, size_t, const char *,
		    struct slash *);

/* The accounts' commands: the verb each sends, and its kinds. */
static const struct {
	const char	*word;
	enum proto_verb	 verb;
	enum slash_kind	 kind;
	enum slash_kind	 bad;
} slash_accounts[] = {
	{ "rating",	PROTO_RATING,	SLASH_RATING,	SLASH_BAD_RATING },
	{ "history",	PROTO_HISTORY,	SLASH_HISTORY,	SLASH_BAD_HISTORY },
	{ "top",	PROTO_TOP,	SLASH_TOP,	SLASH_BAD_TOP },
};

/*
 * The one word after the command word (p to end): 1 with it, 0 if there is
 * none, -1 if there is more than one.
 */
static int
slash_arg(const char *p, const char *end, const char **w, size_t *wlen)
{
	while (p < end && keys_blank(*p))
		p++;
	*w = p;
	while (p < end && !keys_blank(*p))
		p++;
	*wlen = (size_t)(p - *w);
	while (p < end && keys_blank(*p))
		p++;
	if (p != end)
		return (-1);
	return (*wlen > 0);
}

/*
 * The commands with an argument: cmd is the command word's start, p its
 * end.  SLASH_UNKNOWN if the word is none of them.
 */
static enum slash_kind
slash_with_arg(const char *cmd, size_t cmdlen, const char *p,
    const char *end, struct slash *sl)
{
	struct proto_cmd	 pc;
	const char		*w;
	size_t			 wlen;
	int			 n;
	char			 code[PROTO_CODE_LEN + 1];

	n = slash_arg(p, end, &w, &wlen);
	if (keys_word(cmd, cmdlen, "watch")) {
		if (n != 1 || wlen > 20 || strspn(w, "0123456789") < wlen)
			return (SLASH_BAD_GAME);
		snprintf(sl->arg, sizeof sl->arg, "%.*s", (int)wlen, w);
		return (SLASH_WATCH);
	}
	if (keys_word(cmd, cmdlen, "join")) {
		if (n != 1 || !proto_code_valid(w, wlen, PROTO_CODE_LEN, code))
			return (SLASH_BAD_CODE);
		proto_fmt_code(sl->arg, code);
		return (SLASH_JOIN);
	}
	if (keys_word(cmd, cmdlen, "ai")) {
		if (n == 0)
			return (SLASH_AI);
		if (n == 1 && keys_word(w, wlen, "easy"))
			snprintf(sl->arg, sizeof sl->arg, "easy");
		else if (n == 1 && keys_word(w, wlen, "perfect"))
			snprintf(sl->arg, sizeof sl->arg, "perfect");
		else
			return (SLASH_BAD_LEVEL);
		return (SLASH_AI);
	}
	if (keys_word(cmd, cmdlen, "name")) {
		/* The name, as the server will judge NAME <name>. */
		if (proto_parse(cmd, (size_t)(end - cmd), &pc) != PROTO_OK)
			return (SLASH_BAD_NAME);
		snprintf(sl->arg, sizeof sl->arg, "%s", pc.name);
		return (SLASH_NAME);
	}
	return (slash_account(cmd, cmdlen, end, sl));
}

/*
 * /rating [NAME], /history [NAME] [N], /top [N], judged as the server
 * will judge the line they send: the arguments as sent ("alice 5"; a
 * count of 10, the server's default, is left out).  SLASH_UNKNOWN if the
 * word is none of them.
 */
static enum slash_kind
slash_account(const char *cmd, size_t cmdlen, const char *end,
    struct slash *sl)
{
	struct proto_cmd	pc;
	size_t			i;

	for (i = 0; i < sizeof slash_accounts / sizeof slash_accounts[0];
	    i++) {
		if (!keys_word(cmd, cmdlen, slash_accounts[i].word))
			continue;
		if (proto_parse(cmd, (size_t)(end - cmd), &pc) != PROTO_OK ||
		    pc.verb != slash_accounts[i].verb)
			return (slash_accounts[i].bad);
		snprintf(sl->arg, sizeof sl->arg, "%s%s", pc.name,
		    pc.name[0] != '\0' && pc.count != PROTO_LIST_DEFAULT ?
		    " " : "");
		if (pc.count != PROTO_LIST_DEFAULT)
			snprintf(sl->arg + strlen(sl->arg), sizeof sl->arg -
			    strlen(sl->arg), "%d", pc.count);
		return (slash_accounts[i].kind);
	}
	return (SLASH_UNKNOWN);
}

/*
 * Take an input line (without its newline) apart: its kind, and for /say
 * the text without the blanks around it, for the others their argument.
 */
enum slash_kind
slash_parse(const char *line, size_t len, struct slash *sl)
{
	const char		*w, *end = line + len;
	size_t			 wlen, i;
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
	for (i = 0; i < sizeof slash_words / sizeof slash_words[0]; i++) {
		if (keys_word(w, wlen, slash_words[i].word))
			return (sl->kind = slash_words[i].kind);
	}
	if (!keys_word(w, wlen, "say"))
		return (sl->kind = slash_with_arg(w, wlen, line, end, sl));
	/* The text, as the server will judge SAY <text>. */
	if (proto_parse(w, (size_t)(end - w), &cmd) != PROTO_OK)
		return (sl->kind = SLASH_BAD_TEXT);
	sl->text = cmd.text;
	sl->textlen = cmd.textlen;
	return (sl->kind = SLASH_SAY);
}

/*
 * Is this a command that works anywhere, in the queue as in a match, and
 * so is acted on at once even from a pipe (not /say and /resign, which
 * wait for a game)?
 */
int
slash_queued(enum slash_kind kind)
{
	return (kind != SLASH_NONE && kind != SLASH_SAY &&
	    kind != SLASH_RESIGN && kind != SLASH_BAD_TEXT);
}
