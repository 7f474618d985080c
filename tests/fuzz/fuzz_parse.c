/*
 * fuzz_parse.c -- libFuzzer harness for the protocol parsers: proto_scan,
 * proto_parse, proto_name_valid, proto_is_http and proto_event_parse on
 * arbitrary bytes, checked against small independent models, with every
 * accepted command formatted by proto_fmt_ok and parsed back as a server
 * line.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "proto.h"
#include "utf8.h"


#define FUZZ_MAX_WORDS	4

struct fuzz_word {
	const char	*p;
	size_t		 len;
};

int		LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static char	*fuzz_dup(const char *, size_t);
static int	 fuzz_ieq(const struct fuzz_word *, const char *);
static size_t	 fuzz_words(const char *, size_t, struct fuzz_word *);
static size_t	 fuzz_decode_model(const unsigned char *, size_t, uint32_t *);
static int	 fuzz_forbidden_model(uint32_t);
static int	 fuzz_text_model(const char *, size_t);
static int	 fuzz_name_model(const char *, size_t);
static int	 fuzz_is_name_text(const char *, size_t);
static enum proto_scan fuzz_scan(const char *, size_t, size_t *);
static void	 fuzz_cmd_model(const char *, size_t, const struct proto_cmd *);
static void	 fuzz_parse(const char *, size_t);
static void	 fuzz_roundtrip(const struct proto_cmd *);
static int	 fuzz_code_model(const struct fuzz_word *, size_t, const char *);
static unsigned long long fuzz_number_model(const struct fuzz_word *);
static void	 fuzz_event(const char *, size_t);

/* An exact-size heap copy, so that ASan sees any read past the end. */
static char *
fuzz_dup(const char *p, size_t len)
{
	char	*q;

	if ((q = malloc(len)) == NULL && len > 0)
		abort();
	if (len > 0)
		memcpy(q, p, len);
	return (q);
}

/* Does a word equal an upper-case keyword, ignoring ASCII case? */
static int
fuzz_ieq(const struct fuzz_word *w, const char *kw)
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

/* Words split at spaces and TABs: the first few kept, all counted. */
static size_t
fuzz_words(const char *s, size_t len, struct fuzz_word *w)
{
	size_t	i, n = 0;

	for (i = 0; i < len; i++) {
		if (s[i] == ' ' || s[i] == '\t')
			continue;
		if (n < FUZZ_MAX_WORDS) {
			w[n].p = s + i;
			w[n].len = 0;
		}
		while (i < len && s[i] != ' ' && s[i] != '\t') {
			if (n < FUZZ_MAX_WORDS)
				w[n].len++;
			i++;
		}
		n++;
	}
	return (n);
}

/*
 * UTF-8 decoding written out again from its definition (RFC 3629): the
 * bits of one sequence, in its shortest form, no surrogate, at most
 * U+10FFFF; its length, or 0.
 */
static size_t
fuzz_decode_model(const unsigned char *s, size_t len, uint32_t *cp)
{
	size_t		n, i;
	uint32_t	c, min;

	if (len == 0)
		return (0);
	if (s[0] < 0x80) {
		*cp = s[0];
		return (1);
	}
	if ((s[0] & 0xE0) == 0xC0) {
		n = 2;
		c = s[0] & 0x1F;
		min = 0x80;
	} else if ((s[0] & 0xF0) == 0xE0) {
		n = 3;
		c = s[0] & 0x0F;
		min = 0x800;
	} else if ((s[0] & 0xF8) == 0xF0) {
		n = 4;
		c = s[0] & 0x07;
		min = 0x10000;
	} else
		return (0);
	if (len < n)
		return (0);
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return (0);
		c = (c << 6) | (s[i] & 0x3F);
	}
	if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
		return (0);
	*cp = c;
	return (n);
}

/* The code points no line may carry (protocol.md §1.5), written out. */
static int
fuzz_forbidden_model(uint32_t cp)
{
	return ((cp < 0x20 && cp != '\t') || (cp >= 0x7F && cp <= 0x9F) ||
	    cp == 0x061C || cp == 0x200E || cp == 0x200F ||
	    (cp >= 0x2028 && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) ||
	    (cp >= 0xFDD0 && cp <= 0xFDEF) || (cp & 0xFFFE) == 0xFFFE);
}

/* A line's bytes are text: valid UTF-8, nothing forbidden. */
static int
fuzz_text_model(const char *s, size_t len)
{
	uint32_t	cp;
	size_t		i, n;

	for (i = 0; i < len; i += n) {
		n = fuzz_decode_model((const unsigned char *)s + i, len - i,
		    &cp);
		if (n == 0 || fuzz_forbidden_model(cp))
			return (0);
	}
	return (1);
}

/*
 * The name rule, written out again: 1 to 16 characters and 32 bytes of
 * text, each of [A-Za-z0-9_-] or beyond ASCII and of the text class.
 */
static int
fuzz_name_model(const char *s, size_t len)
{
	static const char	 ok[] = "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-";
	uint32_t		 cp;
	size_t			 i, n, chars = 0;

	if (len == 0 || len > 32)
		return (0);
	for (i = 0; i < len; i += n, chars++) {
		n = fuzz_decode_model((const unsigned char *)s + i, len - i,
		    &cp);
		if (n == 0)
			return (0);
		if (cp < 0x80 && (cp == 0 || strchr(ok, (int)cp) == NULL))
			return (0);
		if (cp >= 0x80 && utf8_class(cp) != UTF8_TEXT)
			return (0);
	}
	return (chars <= 16);
}

/*
 * What a name may be, asserted of every name that comes out: whole
 * characters, no control, no bidi, no space, nothing invisible.
 */
static int
fuzz_is_name_text(const char *s, size_t len)
{
	uint32_t	cp;
	size_t		i, n;

	if (!fuzz_text_model(s, len))
		return (0);
	for (i = 0; i < len; i += n) {
		n = utf8_decode(s + i, len - i, &cp);
		if (n == 0 || utf8_class(cp) != UTF8_TEXT || cp == ' ' ||
		    cp == '\t')
			return (0);
	}
	return (1);
}

/*
 * proto_scan against a model: the first LF ends a legal line if at most
 * PROTO_LINE_MAX bytes come before it, or one more that is a CR.
 */
static enum proto_scan
fuzz_scan(const char *buf, size_t len, size_t *linelen)
{
	enum proto_scan	 rc;
	const char	*lf;
	size_t		 n = SIZE_MAX, lflen;

	rc = proto_scan(buf, len, &n);
	CHECK(rc == PROTO_SCAN_MORE || rc == PROTO_SCAN_LINE ||
	    rc == PROTO_SCAN_TOO_LONG);
	lf = len > 0 ? memchr(buf, '\n', len) : NULL;
	if (lf != NULL && (lflen = (size_t)(lf - buf)) < PROTO_SCAN_MAX) {
		if (lflen <= PROTO_LINE_MAX ||
		    (lflen == PROTO_LINE_MAX + 1 && buf[lflen - 1] == '\r')) {
			CHECK(rc == PROTO_SCAN_LINE);
			CHECK(n == lflen);
			CHECK(n < len && buf[n] == '\n');
		} else
			CHECK(rc == PROTO_SCAN_TOO_LONG);
	} else if (len <= PROTO_LINE_MAX ||
	    (len == PROTO_LINE_MAX + 1 && buf[PROTO_LINE_MAX] == '\r'))
		CHECK(rc == PROTO_SCAN_MORE);
	else
		CHECK(rc == PROTO_SCAN_TOO_LONG);
	*linelen = n;
	return (rc);
}

/* An accepted command must be what its words say. */
static void
fuzz_cmd_model(const char *line, size_t len, const struct proto_cmd *cmd)
{
	struct fuzz_word	w[FUZZ_MAX_WORDS];
	size_t			n = fuzz_words(line, len, w);
	char			name[3];
	int			yes;
	size_t			i;

	if (cmd->verb == PROTO_NONE) {
		CHECK(n == 0);
		return;
	}
	CHECK(n > 0);
	switch (cmd->verb) {
	case PROTO_MOVE:
		CHECK(cmd->cell >= 0 && cmd->cell < TTT_CELLS);
		ttt_cell_name(cmd->cell, name);
		if (n == 1)
			CHECK(fuzz_ieq(&w[0], name));
		else
			CHECK(n == 2 && fuzz_ieq(&w[0], "MOVE") &&
			    fuzz_ieq(&w[1], name));
		break;
	case PROTO_AGAIN:
		CHECK(cmd->yes == 0 || cmd->yes == 1);
		CHECK(n == 1 || (n == 2 && fuzz_ieq(&w[0], "AGAIN")));
		yes = fuzz_ieq(&w[n - 1], "Y") || fuzz_ieq(&w[n - 1], "YES");
		CHECK(yes || fuzz_ieq(&w[n - 1], "N") ||
		    fuzz_ieq(&w[n - 1], "NO"));
		CHECK(cmd->yes == yes);
		break;
	case PROTO_NAME:
		CHECK(memchr(cmd->name, '\0', sizeof cmd->name) != NULL);
		CHECK(proto_name_valid(cmd->name, strlen(cmd->name)));
		CHECK(fuzz_is_name_text(cmd->name, strlen(cmd->name)));
		CHECK(n == 2 && fuzz_ieq(&w[0], "NAME"));
		CHECK(w[1].len == strlen(cmd->name) &&
		    memcmp(w[1].p, cmd->name, w[1].len) == 0);
		break;
	case PROTO_BOARD:
		CHECK(fuzz_ieq(&w[0], "BOARD"));
		break;
	case PROTO_QUIT:
		CHECK(fuzz_ieq(&w[0], "QUIT"));
		break;
	case PROTO_HELP:
		CHECK(fuzz_ieq(&w[0], "HELP"));
		break;
	case PROTO_PING:
		CHECK(fuzz_ieq(&w[0], "PING"));
		break;
	case PROTO_STATS:
		CHECK(fuzz_ieq(&w[0], "STATS"));
		break;
	case PROTO_GAMES:
		CHECK(fuzz_ieq(&w[0], "GAMES"));
		break;
	case PROTO_UNWATCH:
		CHECK(fuzz_ieq(&w[0], "UNWATCH"));
		break;
	case PROTO_RESIGN:
		CHECK(fuzz_ieq(&w[0], "RESIGN"));
		break;
	case PROTO_ROOM:
		CHECK(fuzz_ieq(&w[0], "ROOM"));
		if (!cmd->join) {
			CHECK(n == 2 && fuzz_ieq(&w[1], "NEW"));
			break;
		}
		CHECK(n == 3 && fuzz_ieq(&w[1], "JOIN"));
		CHECK(fuzz_code_model(&w[2], PROTO_CODE_LEN, cmd->code));
		break;
	case PROTO_WATCH:
		CHECK(fuzz_ieq(&w[0], "WATCH"));
		if (cmd->game != 0)
			CHECK(n == 2 && fuzz_number_model(&w[1]) == cmd->game);
		else
			CHECK(n != 2 || fuzz_number_model(&w[1]) == 0);
		break;
	case PROTO_RESUME:
		CHECK(fuzz_ieq(&w[0], "RESUME"));
		if (cmd->code[0] != '\0')
			CHECK(n == 2 && fuzz_code_model(&w[1], PROTO_TOKEN_LEN,
			    cmd->code));
		else
			CHECK(memchr(cmd->code, '\0', sizeof cmd->code) != NULL);
		break;
	case PROTO_PLAY:
		/* PLAY alone: the public queue. */
		CHECK(fuzz_ieq(&w[0], "PLAY"));
		CHECK((cmd->level == PROTO_LEVEL_QUEUE) == (n == 1));
		if (n == 1)
			break;
		CHECK((n == 2 || n == 3) && fuzz_ieq(&w[1], "AI"));
		CHECK((cmd->level == PROTO_LEVEL_EASY) ==
		    (n == 3 && fuzz_ieq(&w[2], "EASY")));
		if (n == 3 && cmd->level != PROTO_LEVEL_EASY)
			CHECK(fuzz_ieq(&w[2], "PERFECT"));
		break;
	case PROTO_SAY:
		/* The text: inside the line, after the verb, trimmed. */
		CHECK(fuzz_ieq(&w[0], "SAY") && n >= 2);
		CHECK(cmd->text > w[0].p + w[0].len &&
		    cmd->text + cmd->textlen <= line + len);
		CHECK(cmd->textlen >= 1 &&
		    utf8_count(cmd->text, cmd->textlen) <= PROTO_CHAT_MAX);
		CHECK(fuzz_text_model(cmd->text, cmd->textlen));
		CHECK(cmd->text == w[1].p);
		CHECK(memchr(cmd->text, '\t', cmd->textlen) == NULL);
		CHECK(cmd->text[cmd->textlen - 1] != ' ');
		for (i = (size_t)(cmd->text + cmd->textlen - line); i < len;
		    i++)
			CHECK(line[i] == ' ' || line[i] == '\t');
		break;
	case PROTO_REGISTER:
		CHECK(fuzz_ieq(&w[0], "REGISTER"));
		break;
	case PROTO_REKEY:
		CHECK(fuzz_ieq(&w[0], "REKEY"));
		break;
	case PROTO_LOGIN:
		/* A key: one word of up to PROTO_KEY_MAX bytes, as it is. */
		CHECK(fuzz_ieq(&w[0], "LOGIN"));
		CHECK(memchr(cmd->key, '\0', sizeof cmd->key) != NULL);
		if (cmd->key[0] != '\0')
			CHECK(n == 2 && w[1].len == strlen(cmd->key) &&
			    memcmp(w[1].p, cmd->key, w[1].len) == 0);
		else
			CHECK(n != 2 || w[1].len > PROTO_KEY_MAX);
		break;
	case PROTO_FORGET:
		CHECK(n == 2 && fuzz_ieq(&w[0], "FORGET"));
		CHECK(proto_name_valid(cmd->name, strlen(cmd->name)));
		CHECK(w[1].len == strlen(cmd->name) &&
		    memcmp(w[1].p, cmd->name, w[1].len) == 0);
		break;
	case PROTO_RATING:
	case PROTO_HISTORY:
	case PROTO_TOP:
		/* [name] [n]: n from 1 to 100, a name as NAME's. */
		CHECK(fuzz_ieq(&w[0], cmd->verb == PROTO_RATING ? "RATING" :
		    cmd->verb == PROTO_HISTORY ? "HISTORY" : "TOP"));
		CHECK(cmd->count >= 1 && cmd->count <= PROTO_LIST_MAX);
		CHECK(n <= 3 && (cmd->verb != PROTO_RATING || n <= 2));
		CHECK(memchr(cmd->name, '\0', sizeof cmd->name) != NULL);
		if (cmd->name[0] != '\0')
			CHECK(cmd->verb != PROTO_TOP && n >= 2 &&
			    proto_name_valid(cmd->name, strlen(cmd->name)) &&
			    w[1].len == strlen(cmd->name) &&
			    memcmp(w[1].p, cmd->name, w[1].len) == 0);
		break;
	default:
		CHECK(!"verb out of range");
	}
}

/*
 * A room code or token, written out again: want characters of the code
 * alphabet in any case (a token may have a dash in its middle); cmp is
 * what the parser made of it, upper case.
 */
static int
fuzz_code_model(const struct fuzz_word *w, size_t want, const char *cmp)
{
	char	code[16];
	size_t	i, n = 0;

	for (i = 0; i < w->len && n < sizeof code - 1; i++) {
		char	c = w->p[i];

		if (c == '-' && want == PROTO_TOKEN_LEN && i == 4 && n == 4)
			continue;
		if (c >= 'a' && c <= 'z')
			c = (char)(c - 'a' + 'A');
		if (c == '\0' || strchr(PROTO_CODE_ALPHABET, c) == NULL)
			return (0);
		code[n++] = c;
	}
	code[n] = '\0';
	return (i == w->len && n == want && strcmp(code, cmp) == 0);
}

/* A decimal number of at most 20 digits that fits; 0 for anything else. */
static unsigned long long
fuzz_number_model(const struct fuzz_word *w)
{
	unsigned long long	v = 0;
	size_t			i;

	if (w->len == 0 || w->len > 20)
		return (0);
	for (i = 0; i < w->len; i++) {
		if (w->p[i] < '0' || w->p[i] > '9')
			return (0);
		if (v > (~0ULL - (unsigned)(w->p[i] - '0')) / 10)
			return (0);
		v = v * 10 + (unsigned)(w->p[i] - '0');
	}
	return (v);
}

/*
 * proto_parse on one line: the error precedence (too long, then bad bytes),
 * the command against a model, case and a final CR changing nothing.
 */
static void
fuzz_parse(const char *data, size_t len)
{
	struct proto_cmd	 cmd, again;
	enum proto_error	 e, e2;
	char			*line, *other;
	size_t			 eff, i;
	int			 bad;

	line = fuzz_dup(data, len);
	e = proto_parse(line, len, &cmd);
	CHECK((unsigned)e < PROTO_NERRORS);
	CHECK(e == PROTO_OK || e == PROTO_ELINE_TOO_LONG ||
	    e == PROTO_EBAD_CHAR || e == PROTO_EUNKNOWN_COMMAND ||
	    e == PROTO_EBAD_CELL || e == PROTO_EBAD_NAME ||
	    e == PROTO_EBAD_ANSWER || e == PROTO_EBAD_ROOM ||
	    e == PROTO_EBAD_LEVEL || e == PROTO_EBAD_TEXT ||
	    e == PROTO_EBAD_COUNT);

	eff = (len > 0 && line[len - 1] == '\r') ? len - 1 : len;
	bad = !fuzz_text_model(line, eff);
	if (eff > PROTO_LINE_MAX)
		CHECK(e == PROTO_ELINE_TOO_LONG);
	else if (bad)
		CHECK(e == PROTO_EBAD_CHAR);
	else
		CHECK(e != PROTO_ELINE_TOO_LONG && e != PROTO_EBAD_CHAR);
	if (e == PROTO_OK) {
		fuzz_cmd_model(line, eff, &cmd);
		fuzz_roundtrip(&cmd);
	}

	/* Upper case: the same verdict and verb (names keep their case). */
	other = fuzz_dup(line, len);
	for (i = 0; i < len; i++) {
		if (other[i] >= 'a' && other[i] <= 'z')
			other[i] = (char)(other[i] - 'a' + 'A');
	}
	e2 = proto_parse(other, len, &again);
	CHECK(e2 == e);
	if (e == PROTO_OK)
		CHECK(again.verb == cmd.verb && again.cell == cmd.cell &&
		    again.yes == cmd.yes);
	free(other);

	/* One more CR at the end is taken off: nothing changes. */
	if (len == 0 || line[len - 1] != '\r') {
		if ((other = malloc(len + 1)) == NULL)
			abort();
		if (len > 0)
			memcpy(other, line, len);
		other[len] = '\r';
		e2 = proto_parse(other, len + 1, &again);
		CHECK(e2 == e);
		if (e == PROTO_OK)
			CHECK(again.verb == cmd.verb &&
			    again.cell == cmd.cell && again.yes == cmd.yes &&
			    strcmp(again.name, cmd.name) == 0);
		free(other);
	}
	free(line);
}

/* The OK reply to an accepted command parses back to the same command. */
static void
fuzz_roundtrip(const struct proto_cmd *cmd)
{
	struct proto_event	 ev;
	char			 out[PROTO_OUT_MAX], *crlf;
	int			 n;
	size_t			 i, first;

	if (cmd->verb == PROTO_NONE)
		return;
	/*
	 * These replies carry what the server made: a code, a count, an
	 * account's name and numbers (the accounts format them, §12).
	 */
	if ((cmd->verb == PROTO_ROOM && !cmd->join) ||
	    cmd->verb == PROTO_GAMES || cmd->verb == PROTO_REGISTER ||
	    cmd->verb == PROTO_LOGIN || cmd->verb == PROTO_RATING ||
	    cmd->verb == PROTO_HISTORY || cmd->verb == PROTO_TOP)
		return;
	n = proto_fmt_ok(out, sizeof out, cmd);
	CHECK(n >= 2 && (size_t)n < sizeof out);
	CHECK(out[n - 2] == '\r' && out[n - 1] == '\n');
	for (i = 0; i < (size_t)n; i++) {
		unsigned char	c = (unsigned char)out[i];

		if (c == '\r')
			CHECK(i + 1 < (size_t)n && out[i + 1] == '\n');
		else if (c == '\n')
			CHECK(i > 0 && out[i - 1] == '\r');
		else
			CHECK(c != '\t');
	}
	CHECK(fuzz_text_model(out, (size_t)n - 2) || cmd->verb == PROTO_HELP);
	crlf = strstr(out, "\r\n");
	CHECK(crlf != NULL);
	first = (size_t)(crlf - out);
	CHECK(proto_event_parse(out, first + 1, &ev) == 0);
	if (cmd->verb == PROTO_QUIT) {
		CHECK(ev.kind == PROTO_EV_BYE);
		return;
	}
	CHECK(ev.kind == PROTO_EV_OK);
	CHECK(ev.verb == cmd->verb);
	if (cmd->verb == PROTO_MOVE)
		CHECK(ev.cell == cmd->cell);
	if (cmd->verb == PROTO_AGAIN)
		CHECK(ev.yes == cmd->yes);
	if (cmd->verb == PROTO_NAME)
		CHECK(strcmp(ev.name, cmd->name) == 0);

	/* Every further line (HELP's list) is for people. */
	for (i = first + 2; i < (size_t)n; i = first + 2) {
		crlf = strstr(out + i, "\r\n");
		CHECK(crlf != NULL);
		first = (size_t)(crlf - out);
		CHECK(proto_event_parse(out + i, first - i, &ev) == 0);
		CHECK(ev.kind == PROTO_EV_HUMAN);
	}
}

/* proto_event_parse on anything: results in range, text inside the line. */
static void
fuzz_event(const char *data, size_t len)
{
	struct proto_event	 ev;
	char			*line;
	size_t			 i;
	int			 rc;

	line = fuzz_dup(data, len);
	rc = proto_event_parse(line, len, &ev);
	CHECK(rc == 0 || rc == -1);
	CHECK((unsigned)ev.kind <= PROTO_EV_RANKED);
	CHECK(memchr(ev.name, '\0', sizeof ev.name) != NULL);
	/* PLAYED names a deleted account "(deleted)" (§12). */
	if (ev.name[0] != '\0' && !(ev.kind == PROTO_EV_PLAYED &&
	    strcmp(ev.name, PROTO_DELETED) == 0))
		CHECK(proto_name_valid(ev.name, strlen(ev.name)) &&
		    fuzz_is_name_text(ev.name, strlen(ev.name)));
	CHECK(memchr(ev.name2, '\0', sizeof ev.name2) != NULL);
	if (ev.name2[0] != '\0' && !(ev.kind == PROTO_EV_PLAYED &&
	    strcmp(ev.name2, PROTO_DELETED) == 0))
		CHECK(proto_name_valid(ev.name2, strlen(ev.name2)));
	CHECK(memchr(ev.acct.game, '\0', sizeof ev.acct.game) != NULL);
	CHECK(memchr(ev.acct.when, '\0', sizeof ev.acct.when) != NULL);
	CHECK(memchr(ev.acct.moves, '\0', sizeof ev.acct.moves) != NULL);
	CHECK(memchr(ev.acct.key, '\0', sizeof ev.acct.key) != NULL);
	if (rc == 0 && ev.kind == PROTO_EV_PLAYED)
		CHECK(strlen(ev.acct.when) == PROTO_WHEN_LEN &&
		    strchr("XOT", ev.acct.winner) != NULL &&
		    ev.acct.winner != '\0' && ev.acct.moves[0] != '\0');
	if (rc == 0 && ev.kind == PROTO_EV_KEY)
		CHECK(ev.acct.key[0] != '\0');
	CHECK(memchr(ev.code, '\0', sizeof ev.code) != NULL);
	CHECK(ev.text != NULL);
	if (ev.textlen > 0)
		CHECK(ev.text >= line && ev.text + ev.textlen <= line + len);
	if (ev.kind == PROTO_EV_HUMAN)
		CHECK(rc == 0 && len > 0 && line[0] == ' ');
	if (rc == 0 && ev.kind == PROTO_EV_BOARD) {
		for (i = 0; i < TTT_CELLS; i++)
			CHECK(ev.cells[i] == 'X' || ev.cells[i] == 'O' ||
			    ev.cells[i] == '.');
		CHECK(ev.cells[TTT_CELLS] == '\0');
	}
	if (rc == 0 && ev.kind == PROTO_EV_HELLO)
		CHECK(ev.version >= 0);
	if (rc == 0 && ev.kind == PROTO_EV_ERR)
		CHECK(ev.error >= PROTO_ELINE_TOO_LONG &&
		    ev.error <= PROTO_NERRORS);
	if (rc == 0 && ev.kind == PROTO_EV_OK) {
		CHECK(ev.verb != PROTO_NONE && ev.verb < PROTO_NVERBS);
		if (ev.verb == PROTO_ROOM)
			CHECK(strlen(ev.code) == PROTO_CODE_LEN + 1 &&
			    ev.code[PROTO_CODE_LEN / 2] == '-');
		if (ev.verb == PROTO_MOVE)
			CHECK(ev.cell >= 0 && ev.cell < TTT_CELLS);
		if (ev.verb == PROTO_AGAIN)
			CHECK(ev.yes == 0 || ev.yes == 1);
		if (ev.verb == PROTO_NAME)
			CHECK(ev.name[0] != '\0');
	}
	if (rc == 0 && (ev.kind == PROTO_EV_MATCH ||
	    (ev.kind == PROTO_EV_RESULT && ev.result != PROTO_RESULT_TIE)))
		CHECK(ev.name[0] != '\0' &&
		    (ev.mark == TTT_X || ev.mark == TTT_O));
	if (rc == 0 && ev.kind == PROTO_EV_GAME)
		CHECK(ev.name[0] != '\0' && ev.name2[0] != '\0' &&
		    ev.moves >= 0 && ev.moves <= 9);
	if (rc == 0 && ev.kind == PROTO_EV_TOKEN)
		CHECK(strlen(ev.code) == PROTO_TOKEN_LEN + 1 &&
		    ev.code[PROTO_TOKEN_LEN / 2] == '-');
	if (rc == 0 && ev.kind == PROTO_EV_CHAT)
		CHECK(ev.name[0] != '\0' && ev.textlen > 0);
	free(line);
}

/*
 * The whole input as one line, as a name and as a server line; then as a
 * stream, taken apart line by line the way the server frames its input.
 */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char	*p = (const char *)data;
	size_t		 off = 0, n;

	CHECK(proto_name_valid(p, size) == fuzz_name_model(p, size));
	CHECK(proto_is_http(p, size) == 0 || proto_is_http(p, size) == 1);
	fuzz_parse(p, size);
	fuzz_event(p, size);

	while (off <= size) {
		if (fuzz_scan(p + off, size - off, &n) != PROTO_SCAN_LINE)
			break;
		CHECK(n <= size - off);
		fuzz_parse(p + off, n);
		fuzz_event(p + off, n);
		off += n + 1;
	}
	return (0);
}
