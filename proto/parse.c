/*
 * parse.c -- framing and parsing of client lines.
 *
 * A line is judged on its own, knowing nothing of the game: length, then
 * bytes, then the verb, then the verb's argument.  Game state is checked by
 * the caller, and only for a well-formed command.
 */
#include <string.h>

#include "proto.h"
#include "utf8.h"

#define PROTO_MAX_WORDS	3	/* more than this is "too many" for anyone */

struct proto_word {
	const char	*p;
	size_t		 len;
};

/* The verb table, indexed by enum proto_verb: verbs.h's entries. */
const struct proto_verb_entry proto_verbs[PROTO_NVERBS] = {
	[PROTO_NONE] = { "", 0, PROTO_ARGS_NONE, "", 0 },
#define PROTO_VERB_ENTRY(v, w, a, h, ok)				\
	[PROTO_##v] = { w, sizeof w - 1, a, ok, sizeof ok - 1 },
	PROTO_VERBS(PROTO_VERB_ENTRY)
#undef PROTO_VERB_ENTRY
};

static int	proto_is_blank(char);
static int	proto_word_is(const struct proto_word *, const char *);
static enum proto_verb proto_verb_find(const struct proto_word *);
static int	proto_answer(const struct proto_word *);
static size_t	proto_split(const char *, size_t, struct proto_word *, size_t);
static unsigned long long proto_number(const struct proto_word *);
static enum proto_error proto_parse_list(enum proto_verb,
		    const struct proto_word *, size_t, struct proto_cmd *);
static enum proto_error proto_parse_text(const char *,
		    const struct proto_word *, size_t, struct proto_cmd *);

/* Space and TAB separate words. */
static int
proto_is_blank(char c)
{
	return (c == ' ' || c == '\t');
}

/* Does a word (no NUL in it) equal an upper-case keyword, ignoring case? */
static int
proto_word_is(const struct proto_word *w, const char *kw)
{
	size_t	i;

	for (i = 0; i < w->len; i++) {
		char	c = w->p[i];

		if (c >= 'a' && c <= 'z')
			c = (char)(c - 'a' + 'A');
		if (c != kw[i])
			return (0);
	}
	return (kw[i] == '\0');
}

/*
 * The verb a word names, or PROTO_NONE.  Every line starts here, so the
 * first letter is upper-cased once, and the length and the first letter rule
 * out most verbs before any other letters are compared.
 */
static enum proto_verb
proto_verb_find(const struct proto_word *w)
{
	char	c0;
	int	v;

	if (w->len == 0)
		return (PROTO_NONE);
	c0 = w->p[0];
	if (c0 >= 'a' && c0 <= 'z')
		c0 = (char)(c0 - 'a' + 'A');
	for (v = PROTO_NONE + 1; v < PROTO_NVERBS; v++) {
		if (proto_verbs[v].len == w->len &&
		    proto_verbs[v].word[0] == c0 &&
		    proto_word_is(w, proto_verbs[v].word))
			return ((enum proto_verb)v);
	}
	return (PROTO_NONE);
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

/*
 * Is this a legal player name: 1 to PROTO_NAME_CHARS characters and at
 * most PROTO_NAME_MAX bytes of valid UTF-8, each an ASCII letter or digit,
 * '_', '-', or a character beyond ASCII that is text (utf8_class): a
 * letter of any script, but no space, nothing invisible, no control?
 */
int
proto_name_valid(const char *s, size_t len)
{
	uint32_t	cp;
	size_t		i, n, chars = 0;

	if (len < 1 || len > PROTO_NAME_MAX)
		return (0);
	for (i = 0; i < len; i += n, chars++) {
		char	c = s[i];

		if ((unsigned char)c >= 0x80) {
			if ((n = utf8_decode(s + i, len - i, &cp)) == 0 ||
			    utf8_class(cp) != UTF8_TEXT)
				return (0);
			continue;
		}
		n = 1;
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '_' || c == '-'))
			return (0);
	}
	return (chars <= PROTO_NAME_CHARS);
}

/*
 * Is this line an HTTP request line ("GET / HTTP/1.1")?  A method word in
 * upper case followed by a target, or any three words ending in HTTP/x:
 * a browser or a cross-protocol attack, never a player.
 */
int
proto_is_http(const char *line, size_t len)
{
	struct proto_word	 w[PROTO_MAX_WORDS];
	size_t			 n;

	if (len > 0 && line[len - 1] == '\r')
		len--;
	n = proto_split(line, len, w, PROTO_MAX_WORDS);
	if (n < 2)
		return (0);
	if (n == 3 && w[2].len > 5 && memcmp(w[2].p, "HTTP/", 5) == 0)
		return (1);
	return (proto_is_http_start(line, len));
}

/*
 * Does this start of a line begin as an HTTP request does: an HTTP method
 * in upper case, then a blank?  For a first line too long to be read
 * whole, such as a request for a long URL.
 */
int
proto_is_http_start(const char *line, size_t len)
{
	static const char *const	 methods[] = { "GET", "HEAD", "POST",
					    "PUT", "DELETE", "CONNECT", "OPTIONS",
					    "TRACE", "PATCH", "PRI" };
	size_t				 i, m;

	for (i = 0; i < sizeof methods / sizeof methods[0]; i++) {
		m = strlen(methods[i]);
		if (len > m && memcmp(line, methods[i], m) == 0 &&
		    (line[m] == ' ' || line[m] == '\t'))
			return (1);
	}
	return (0);
}

/*
 * A room code or a resume token as a player types it: want (8) characters
 * of the code alphabet, any case, with or without a dash in the middle.
 * Writes it to out (want + 1 bytes) in upper case, without the dash; 1 if
 * well-formed.  The client checks its --join and --resume with it too.
 */
int
proto_code_valid(const char *s, size_t len, size_t want, char *out)
{
	size_t	i, n = 0;

	for (i = 0; i < len; i++) {
		char	c = s[i];

		if (c == '-' && i == want / 2 && n == i)
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
 * Text: the rest of the line from the first word on, up to end, without
 * trailing blanks; 1 to PROTO_CHAT_MAX characters (the line checked them:
 * valid UTF-8), no TAB (server lines carry none).
 */
static enum proto_error
proto_parse_text(const char *end, const struct proto_word *arg,
    size_t nargs, struct proto_cmd *cmd)
{
	if (nargs == 0)
		return (PROTO_EBAD_TEXT);
	while (end > arg->p && proto_is_blank(end[-1]))
		end--;
	if (utf8_count(arg->p, (size_t)(end - arg->p)) > PROTO_CHAT_MAX ||
	    memchr(arg->p, '\t', (size_t)(end - arg->p)) != NULL)
		return (PROTO_EBAD_TEXT);
	cmd->text = arg->p;
	cmd->textlen = (size_t)(end - arg->p);
	return (PROTO_OK);
}

/*
 * RATING [name], HISTORY [name] [n], TOP [n]: a last word of digits is n
 * (1 to 100; HISTORY, TOP), a word before it the name.
 */
static enum proto_error
proto_parse_list(enum proto_verb v, const struct proto_word *arg,
    size_t nargs, struct proto_cmd *cmd)
{
	size_t	names = v == PROTO_TOP ? 0 : 1, counts = v == PROTO_RATING ?
		    0 : 1, i;
	int	digits = nargs > 0;

	if (nargs > names + counts)	/* w[] holds the first ones only */
		return (names ? PROTO_EBAD_NAME : PROTO_EBAD_COUNT);
	for (i = 0; digits && i < arg[nargs - 1].len; i++)
		digits = arg[nargs - 1].p[i] >= '0' &&
		    arg[nargs - 1].p[i] <= '9';
	cmd->count = PROTO_LIST_DEFAULT;
	if (counts && digits) {
		if (arg[nargs - 1].len > 3 ||
		    (cmd->count = (int)proto_number(&arg[nargs - 1])) < 1 ||
		    cmd->count > PROTO_LIST_MAX)
			return (PROTO_EBAD_COUNT);
		nargs--;
	}
	if (nargs > names)
		return (counts && !names ? PROTO_EBAD_COUNT : PROTO_EBAD_NAME);
	if (nargs == 1) {
		if (!proto_name_valid(arg->p, arg->len))
			return (PROTO_EBAD_NAME);
		memcpy(cmd->name, arg->p, arg->len);
	}
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
	struct proto_word	 w[PROTO_MAX_WORDS], *arg = &w[1];
	enum proto_verb		 v;
	enum proto_error	 e = PROTO_OK;
	size_t			 n, nargs;

	memset(cmd, 0, sizeof *cmd);
	cmd->verb = PROTO_NONE;
	cmd->cell = -1;
	cmd->yes = -1;

	if (len > 0 && line[len - 1] == '\r')
		len--;
	if (len > PROTO_LINE_MAX)
		return (PROTO_ELINE_TOO_LONG);
	if (!utf8_text(line, len))
		return (PROTO_EBAD_CHAR);

	n = proto_split(line, len, w, PROTO_MAX_WORDS);
	if (n == 0)
		return (PROTO_OK);
	nargs = n - 1;

	if ((v = proto_verb_find(&w[0])) == PROTO_NONE) {
		/* No verb: a bare answer or a bare cell, alone on the line. */
		if (n == 1 && (cmd->yes = proto_answer(&w[0])) != -1) {
			cmd->verb = PROTO_AGAIN;
			return (PROTO_OK);
		}
		if (n != 1 || utf8_count(w[0].p, w[0].len) != 2)
			return (PROTO_EUNKNOWN_COMMAND);
		v = PROTO_MOVE;
		arg = &w[0];
		nargs = 1;
	}

	/* The argument, by its shape: a verb of a known shape needs no code. */
	switch (proto_verbs[v].args) {
	case PROTO_ARGS_CELL:
		if (nargs != 1 ||
		    (cmd->cell = ttt_cell_parse(arg->p, arg->len)) < 0)
			e = PROTO_EBAD_CELL;
		break;
	case PROTO_ARGS_ANSWER:
		if (nargs != 1 || (cmd->yes = proto_answer(arg)) == -1)
			e = PROTO_EBAD_ANSWER;
		break;
	case PROTO_ARGS_NAME:
		if (nargs != 1 || !proto_name_valid(arg->p, arg->len))
			e = PROTO_EBAD_NAME;
		else	/* the memset above put the NUL after it */
			memcpy(cmd->name, arg->p, arg->len);
		break;
	case PROTO_ARGS_ROOM:
		if (nargs == 1 && proto_word_is(arg, "NEW"))
			cmd->join = 0;
		else if (nargs == 2 && proto_word_is(arg, "JOIN") &&
		    proto_code_valid(arg[1].p, arg[1].len, PROTO_CODE_LEN,
		    cmd->code))
			cmd->join = 1;
		else
			e = PROTO_EBAD_ROOM;
		break;
	case PROTO_ARGS_GAME:
		/* A wrong id is no game's: NO_SUCH_GAME, from the game. */
		if (nargs == 1)
			cmd->game = proto_number(arg);
		break;
	case PROTO_ARGS_TOKEN:
		/*
		 * A malformed token is refused by the game, after the
		 * RESUME limits, and counts as a wrong one.
		 */
		if (nargs != 1 || !proto_code_valid(arg->p, arg->len,
		    PROTO_TOKEN_LEN, cmd->code))
			cmd->code[0] = '\0';
		break;
	case PROTO_ARGS_LEVEL:
		if (nargs == 0)
			cmd->level = PROTO_LEVEL_QUEUE;
		else if (nargs > 2 || !proto_word_is(arg, "AI"))
			e = PROTO_EBAD_LEVEL;
		else if (nargs == 2 && proto_word_is(&arg[1], "EASY"))
			cmd->level = PROTO_LEVEL_EASY;
		else if (nargs == 2 && !proto_word_is(&arg[1], "PERFECT"))
			e = PROTO_EBAD_LEVEL;
		break;
	case PROTO_ARGS_TEXT:
		e = proto_parse_text(line + len, arg, nargs, cmd);
		break;
	case PROTO_ARGS_KEY:
		/* A malformed key counts as a wrong one, after the limits. */
		if (nargs == 1 && arg->len <= PROTO_KEY_MAX)
			memcpy(cmd->key, arg->p, arg->len);
		break;
	case PROTO_ARGS_PLAYER:
	case PROTO_ARGS_LIST:
		e = proto_parse_list(v, arg, nargs, cmd);
		break;
	default:
		break;		/* no argument; extra words are ignored */
	}
	if (e == PROTO_OK)
		cmd->verb = v;
	return (e);
}
