/*
 * parse.c -- framing and parsing of client lines.
 *
 * A line is judged on its own, knowing nothing of the game: length, then
 * bytes, then the verb, then the verb's argument.  Game state is checked by
 * the caller, and only for a well-formed command.
 */
#include <string.h>

#include "proto.h"

#define PROTO_MAX_WORDS	3	/* more than this is "too many" for anyone */

struct proto_word {
	const char	*p;
	size_t		 len;
};

struct proto_verb_entry {
	const char	*word;
	size_t		 len;
	enum proto_verb	 verb;
};
#define PROTO_VERB(word, verb)	{ word, sizeof word - 1, verb }

/* The verb table: the first word of a line, matched case-insensitively. */
#define PROTO_NVERB_WORDS (sizeof proto_verbs / sizeof proto_verbs[0])
static const struct proto_verb_entry proto_verbs[] = {
	PROTO_VERB("MOVE", PROTO_MOVE),
	PROTO_VERB("BOARD", PROTO_BOARD),
	PROTO_VERB("AGAIN", PROTO_AGAIN),
	PROTO_VERB("NAME", PROTO_NAME),
	PROTO_VERB("QUIT", PROTO_QUIT),
	PROTO_VERB("HELP", PROTO_HELP),
	PROTO_VERB("PING", PROTO_PING),
	PROTO_VERB("STATS", PROTO_STATS),
	PROTO_VERB("ROOM", PROTO_ROOM),
	PROTO_VERB("GAMES", PROTO_GAMES),
	PROTO_VERB("WATCH", PROTO_WATCH),
	PROTO_VERB("UNWATCH", PROTO_UNWATCH),
	PROTO_VERB("RESUME", PROTO_RESUME),
	PROTO_VERB("PLAY", PROTO_PLAY),
	PROTO_VERB("SAY", PROTO_SAY),
	PROTO_VERB("RESIGN", PROTO_RESIGN),
};

static int	proto_is_blank(char);
static int	proto_word_is(const struct proto_word *, const char *);
static size_t	proto_verb_find(const struct proto_word *);
static int	proto_answer(const struct proto_word *);
static size_t	proto_split(const char *, size_t, struct proto_word *, size_t);
static enum proto_error proto_parse_move(const struct proto_word *, size_t,
		    struct proto_cmd *);
static unsigned long long proto_number(const struct proto_word *);
static enum proto_error proto_parse_say(const char *, size_t,
		    const struct proto_word *, struct proto_cmd *);

/* Space and TAB separate words. */
static int
proto_is_blank(char c)
{
	return (c == ' ' || c == '\t');
}

/* Does a word equal an upper-case keyword, ignoring case? */
static int
proto_word_is(const struct proto_word *w, const char *kw)
{
	size_t	i;

	if (strlen(kw) != w->len)
		return (0);
	for (i = 0; i < w->len; i++) {
		char	c = w->p[i];

		if (c >= 'a' && c <= 'z')
			c = (char)(c - 'a' + 'A');
		if (c != kw[i])
			return (0);
	}
	return (1);
}

/*
 * The verb a word names: its index in proto_verbs, or PROTO_NVERB_WORDS.
 * Every line starts here, so the length and the first letter rule out
 * most verbs before any letters are compared.
 */
static size_t
proto_verb_find(const struct proto_word *w)
{
	char	c0;
	size_t	i;

	if (w->len == 0)
		return (PROTO_NVERB_WORDS);
	c0 = w->p[0];
	if (c0 >= 'a' && c0 <= 'z')
		c0 = (char)(c0 - 'a' + 'A');
	for (i = 0; i < PROTO_NVERB_WORDS; i++) {
		if (proto_verbs[i].len == w->len &&
		    proto_verbs[i].word[0] == c0 &&
		    proto_word_is(w, proto_verbs[i].word))
			break;
	}
	return (i);
}

/* 1 for y/yes, 0 for n/no, -1 for anything else. */
static int
proto_answer(const struct proto_word *w)
{
	if (proto_word_is(w, "Y") || proto_word_is(w, "YES"))
		return (1);
	if (proto_word_is(w, "N") || proto_word_is(w, "NO"))
		return (0);
	return (-1);
}

/*
 * Split a line into words at runs of blanks.  Fills at most max words and
 * returns how many there are in all, so the caller can tell "too many".
 */
static size_t
proto_split(const char *s, size_t len, struct proto_word *w, size_t max)
{
	size_t	i = 0, n = 0, start;

	for (;;) {
		while (i < len && proto_is_blank(s[i]))
			i++;
		if (i == len)
			return (n);
		start = i;
		while (i < len && !proto_is_blank(s[i]))
			i++;
		if (n < max) {
			w[n].p = s + start;
			w[n].len = i - start;
		}
		n++;
	}
}

/*
 * Look at the front of an input buffer: does a whole line end within the
 * limit?  A legal line is at most PROTO_LINE_MAX bytes, then an optional CR,
 * then LF; *linelen gets the bytes before the LF.
 */
enum proto_scan
proto_scan(const char *buf, size_t len, size_t *linelen)
{
	const char	*lf;
	size_t		 n = len < PROTO_SCAN_MAX ? len : PROTO_SCAN_MAX;

	lf = memchr(buf, '\n', n);
	if (lf != NULL) {
		n = (size_t)(lf - buf);
		if (n > PROTO_LINE_MAX && buf[n - 1] != '\r')
			return (PROTO_SCAN_TOO_LONG);
		*linelen = n;
		return (PROTO_SCAN_LINE);
	}
	if (len > PROTO_LINE_MAX + 1 ||
	    (len == PROTO_LINE_MAX + 1 && buf[PROTO_LINE_MAX] != '\r'))
		return (PROTO_SCAN_TOO_LONG);
	return (PROTO_SCAN_MORE);
}

/* Is this a legal player name: 1-16 of [A-Za-z0-9_-]? */
int
proto_name_valid(const char *s, size_t len)
{
	size_t	i;

	if (len < 1 || len > PROTO_NAME_MAX)
		return (0);
	for (i = 0; i < len; i++) {
		char	c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '_' || c == '-'))
			return (0);
	}
	return (1);
}

/*
 * Is this line an HTTP request line ("GET / HTTP/1.1")?  A method word in
 * upper case followed by a target, or any three words ending in HTTP/x:
 * a browser or a cross-protocol attack, never a player.
 */
int
proto_is_http(const char *line, size_t len)
{
	static const char *const	 methods[] = { "GET", "HEAD", "POST",
					    "PUT", "DELETE", "CONNECT", "OPTIONS",
					    "TRACE", "PATCH", "PRI" };
	struct proto_word		 w[PROTO_MAX_WORDS];
	size_t				 i, n;

	if (len > 0 && line[len - 1] == '\r')
		len--;
	n = proto_split(line, len, w, PROTO_MAX_WORDS);
	if (n < 2)
		return (0);
	if (n == 3 && w[2].len > 5 && memcmp(w[2].p, "HTTP/", 5) == 0)
		return (1);
	for (i = 0; i < sizeof methods / sizeof methods[0]; i++) {
		if (w[0].len == strlen(methods[i]) &&
		    memcmp(w[0].p, methods[i], w[0].len) == 0)
			return (1);
	}
	return (0);
}

/* MOVE <cell>: exactly one well-formed cell. */
static enum proto_error
proto_parse_move(const struct proto_word *arg, size_t nargs,
    struct proto_cmd *cmd)
{
	if (nargs != 1)
		return (PROTO_EBAD_CELL);
	cmd->cell = ttt_cell_parse(arg->p, arg->len);
	if (cmd->cell < 0)
		return (PROTO_EBAD_CELL);
	cmd->verb = PROTO_MOVE;
	return (PROTO_OK);
}

/*
 * A room code (want PROTO_CODE_LEN) or a resume token (PROTO_TOKEN_LEN,
 * which may have a dash in its middle) as a player types it: len
 * characters of the code alphabet, any case.  Writes it to out (want + 1
 * bytes) in upper case, without the dash; 1 if well-formed.  The client
 * checks its --join and --resume with it too.
 */
int
proto_code_valid(const char *s, size_t len, size_t want, char *out)
{
	size_t	i, n = 0;

	for (i = 0; i < len; i++) {
		char	c = s[i];

		if (c == '-' && want == PROTO_TOKEN_LEN && i == want / 2 &&
		    n == i)
			continue;
		if (c >= 'a' && c <= 'z')
			c = (char)(c - 'a' + 'A');
		if (n == want || strchr(PROTO_CODE_ALPHABET, c) == NULL ||
		    c == '\0')
			return (0);
		out[n++] = c;
	}
	out[n] = '\0';
	return (n == want);
}

/* A game id: 1 to 20 digits that fit; 0 (no game has it) otherwise. */
static unsigned long long
proto_number(const struct proto_word *w)
{
	unsigned long long	v = 0;
	size_t			i;

	if (w->len > 20)
		return (0);
	for (i = 0; i < w->len; i++) {
		unsigned	d = (unsigned)(w->p[i] - '0');

		if (d > 9 || v > (~0ULL - d) / 10)
			return (0);
		v = v * 10 + d;
	}
	return (v);
}

/*
 * SAY <text>: the rest of the line after the verb and its blanks, without
 * trailing blanks; 1 to PROTO_CHAT_MAX bytes, no TAB (server lines carry
 * none).
 */
static enum proto_error
proto_parse_say(const char *line, size_t len, const struct proto_word *verb,
    struct proto_cmd *cmd)
{
	const char	*p = verb->p + verb->len, *end = line + len;

	while (p < end && proto_is_blank(*p))
		p++;
	while (end > p && proto_is_blank(end[-1]))
		end--;
	if (end == p || (size_t)(end - p) > PROTO_CHAT_MAX ||
	    memchr(p, '\t', (size_t)(end - p)) != NULL)
		return (PROTO_EBAD_TEXT);
	cmd->text = p;
	cmd->textlen = (size_t)(end - p);
	cmd->verb = PROTO_SAY;
	return (PROTO_OK);
}

/*
 * Parse one client line (without its LF; a CR before the LF is allowed)
 * into a command.  Returns PROTO_OK and fills cmd, or the error to report;
 * a blank line is PROTO_OK with verb PROTO_NONE, which wants no reply.
 */
enum proto_error
proto_parse(const char *line, size_t len, struct proto_cmd *cmd)
{
	struct proto_word	 w[PROTO_MAX_WORDS];
	size_t			 i, n;
	int			 answer;

	memset(cmd, 0, sizeof *cmd);
	cmd->verb = PROTO_NONE;
	cmd->cell = -1;
	cmd->yes = -1;

	if (len > 0 && line[len - 1] == '\r')
		len--;
	if (len > PROTO_LINE_MAX)
		return (PROTO_ELINE_TOO_LONG);
	for (i = 0; i < len; i++) {
		unsigned char	c = (unsigned char)line[i];

		if ((c < 0x20 && c != '\t') || c >= 0x7f)
			return (PROTO_EBAD_CHAR);
	}

	n = proto_split(line, len, w, PROTO_MAX_WORDS);
	if (n == 0)
		return (PROTO_OK);

	if ((i = proto_verb_find(&w[0])) == PROTO_NVERB_WORDS) {
		/* No verb: a bare answer or a bare cell, alone on the line. */
		if (n == 1 && (answer = proto_answer(&w[0])) != -1) {
			cmd->verb = PROTO_AGAIN;
			cmd->yes = answer;
			return (PROTO_OK);
		}
		if (n == 1 && w[0].len == 2)
			return (proto_parse_move(&w[0], 1, cmd));
		return (PROTO_EUNKNOWN_COMMAND);
	}

	switch (proto_verbs[i].verb) {
	case PROTO_MOVE:
		return (proto_parse_move(&w[1], n - 1, cmd));
	case PROTO_AGAIN:
		if (n != 2 || (answer = proto_answer(&w[1])) == -1)
			return (PROTO_EBAD_ANSWER);
		cmd->yes = answer;
		break;
	case PROTO_NAME:
		if (n != 2 || !proto_name_valid(w[1].p, w[1].len))
			return (PROTO_EBAD_NAME);
		memcpy(cmd->name, w[1].p, w[1].len);
		cmd->name[w[1].len] = '\0';
		break;
	case PROTO_ROOM:
		if (n == 2 && proto_word_is(&w[1], "NEW"))
			cmd->join = 0;
		else if (n == 3 && proto_word_is(&w[1], "JOIN") &&
		    proto_code_valid(w[2].p, w[2].len, PROTO_CODE_LEN, cmd->code))
			cmd->join = 1;
		else
			return (PROTO_EBAD_ROOM);
		break;
	case PROTO_WATCH:
		/* A wrong id is no game's: NO_SUCH_GAME, from the game. */
		if (n == 2)
			cmd->game = proto_number(&w[1]);
		break;
	case PROTO_RESUME:
		/*
		 * A malformed token is refused by the game, after the
		 * RESUME limits, and counts as a wrong one.
		 */
		if (n != 2 || !proto_code_valid(w[1].p, w[1].len,
		    PROTO_TOKEN_LEN, cmd->code))
			cmd->code[0] = '\0';
		break;
	case PROTO_PLAY:
		if (n < 2 || n > 3 || !proto_word_is(&w[1], "AI"))
			return (PROTO_EBAD_LEVEL);
		if (n == 3 && proto_word_is(&w[2], "EASY"))
			cmd->level = PROTO_LEVEL_EASY;
		else if (n == 3 && !proto_word_is(&w[2], "PERFECT"))
			return (PROTO_EBAD_LEVEL);
		break;
	case PROTO_SAY:
		return (proto_parse_say(line, len, &w[0], cmd));
	default:
		break;		/* no argument; extra words are ignored */
	}
	cmd->verb = proto_verbs[i].verb;
	return (PROTO_OK);
}
