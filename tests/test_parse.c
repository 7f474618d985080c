/*
 * test_parse.c -- unit tests for client line framing and parsing
 * (proto/parse.c): proto_parse, proto_scan and proto_name_valid.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "proto.h"

/* One proto_parse case: a line (len 0 means strlen) and what it gives. */
struct parse_case {
	const char		*line;
	size_t			 len;
	enum proto_error	 error;
	enum proto_verb		 verb;	/* if error is PROTO_OK */
	int			 arg;	/* MOVE: cell, AGAIN: yes */
	const char		*name;	/* NAME */
};

struct cmd_case;

struct scan_case {
	const char		*what;
	size_t			 len;		/* bytes in the buffer */
	long			 lf;		/* offset of an LF, or -1 */
	long			 cr;		/* offset of a CR, or -1 */
	enum proto_scan		 want;
	size_t			 linelen;	/* when want is LINE */
};

static int	parse_head(const char *, size_t, enum proto_error,
		    enum proto_verb, struct proto_cmd *);
static void	check_parse(const char *, size_t, const struct parse_case *);
static void	run_parse_cases(const struct parse_case *, size_t);
static void	fill(char *, size_t, const char *);
static void	check_cmd(const char *, size_t, const struct cmd_case *);
static void	run_cmd_cases(const struct cmd_case *, size_t);

#define NCASES(a)	(sizeof (a) / sizeof (a)[0])
#define OK(l, v)	{ (l), 0, PROTO_OK, (v), -1, NULL }
#define MOVE(l, c)	{ (l), 0, PROTO_OK, PROTO_MOVE, (c), NULL }
#define AGAIN(l, y)	{ (l), 0, PROTO_OK, PROTO_AGAIN, (y), NULL }
#define NAME(l, n)	{ (l), 0, PROTO_OK, PROTO_NAME, -1, (n) }
#define ERR(l, e)	{ (l), 0, (e), PROTO_NONE, -1, NULL }
#define ERRN(l, n, e)	{ (l), (n), (e), PROTO_NONE, -1, NULL }

/*
 * Parse one line (it may hold NUL bytes) into cmd and insist on the error
 * and, if it parsed, the verb: 1 if the verb's fields are to be checked.
 */
static int
parse_head(const char *line, size_t len, enum proto_error error,
    enum proto_verb verb, struct proto_cmd *cmd)
{
	enum proto_error	e;

	memset(cmd, 0xa5, sizeof *cmd);
	e = proto_parse(line, len, cmd);
	if (e != error)
		fail_msg("\"%.*s\" (len %zu): error %d, want %d",
		    (int)(len > 60 ? 60 : len), line, len, e, error);
	if (e != PROTO_OK)
		return (0);
	if (cmd->verb != verb)
		fail_msg("\"%.*s\": verb %d, want %d", (int)len, line,
		    cmd->verb, verb);
	return (1);
}

/* Parse one line and compare with a case; the line may hold NUL bytes. */
static void
check_parse(const char *line, size_t len, const struct parse_case *c)
{
	struct proto_cmd	cmd;

	if (!parse_head(line, len, c->error, c->verb, &cmd))
		return;
	if (c->verb == PROTO_MOVE && cmd.cell != c->arg)
		fail_msg("\"%.*s\": cell %d, want %d", (int)len, line,
		    cmd.cell, c->arg);
	if (c->verb == PROTO_AGAIN && cmd.yes != c->arg)
		fail_msg("\"%.*s\": yes %d, want %d", (int)len, line,
		    cmd.yes, c->arg);
	if (c->verb == PROTO_NAME && (memchr(cmd.name, '\0',
	    sizeof cmd.name) == NULL || strcmp(cmd.name, c->name) != 0))
		fail_msg("\"%.*s\": name \"%.*s\", want \"%s\"", (int)len,
		    line, (int)sizeof cmd.name, cmd.name, c->name);
}

/* Run each case as given, then with a trailing CR, as a CRLF line. */
static void
run_parse_cases(const struct parse_case *cases, size_t n)
{
	char	buf[PROTO_LINE_MAX * 2];
	size_t	i, len;

	for (i = 0; i < n; i++) {
		len = cases[i].len != 0 ? cases[i].len :
		    strlen(cases[i].line);
		assert_true(len + 1 <= sizeof buf);
		memcpy(buf, cases[i].line, len);
		check_parse(buf, len, &cases[i]);
		buf[len] = '\r';
		check_parse(buf, len + 1, &cases[i]);
	}
}

/* Fill a buffer: a prefix, then spaces up to len bytes. */
static void
fill(char *buf, size_t len, const char *prefix)
{
	size_t	plen = strlen(prefix);

	memset(buf, ' ', len);
	memcpy(buf, prefix, plen < len ? plen : len);
}

/*
 * One case for the commands of protocol.md §9, whose arguments the
 * parse_case above cannot hold: designated initializers, so a case names
 * only what it checks.
 */
struct cmd_case {
	const char		*line;
	enum proto_error	 error;
	enum proto_verb		 verb;		/* if error is PROTO_OK */
	int			 join;		/* ROOM */
	const char		*code;		/* ROOM JOIN, RESUME */
	unsigned long long	 game;		/* WATCH */
	enum proto_level	 level;		/* PLAY */
	const char		*text;		/* SAY */
};

#define C_VERB(l, v)	{ .line = (l), .verb = (v) }
#define C_NEW(l)	{ .line = (l), .verb = PROTO_ROOM, .join = 0 }
#define C_JOIN(l, c)	{ .line = (l), .verb = PROTO_ROOM, .join = 1, \
			  .code = (c) }
#define C_WATCH(l, g)	{ .line = (l), .verb = PROTO_WATCH, .game = (g) }
#define C_RESUME(l, c)	{ .line = (l), .verb = PROTO_RESUME, .code = (c) }
#define C_PLAY(l, v)	{ .line = (l), .verb = PROTO_PLAY, .level = (v) }
#define C_SAY(l, t)	{ .line = (l), .verb = PROTO_SAY, .text = (t) }
#define C_ERR(l, e)	{ .line = (l), .error = (e) }

/* Parse one line and compare every field the case's verb fills. */
static void
check_cmd(const char *line, size_t len, const struct cmd_case *c)
{
	struct proto_cmd	cmd;

	if (!parse_head(line, len, c->error, c->verb, &cmd))
		return;
	switch (c->verb) {
	case PROTO_ROOM:
		if (cmd.join != c->join)
			fail_msg("\"%.*s\": join %d, want %d", (int)len, line,
			    cmd.join, c->join);
		if (!c->join)
			break;
		/* FALLTHROUGH */
	case PROTO_RESUME:
		if (memchr(cmd.code, '\0', sizeof cmd.code) == NULL ||
		    strcmp(cmd.code, c->code) != 0)
			fail_msg("\"%.*s\": code \"%.*s\", want \"%s\"",
			    (int)len, line, (int)sizeof cmd.code, cmd.code,
			    c->code);
		break;
	case PROTO_WATCH:
		if (cmd.game != c->game)
			fail_msg("\"%.*s\": game %llu, want %llu", (int)len,
			    line, cmd.game, c->game);
		break;
	case PROTO_PLAY:
		if (cmd.level != c->level)
			fail_msg("\"%.*s\": level %d, want %d", (int)len, line,
			    cmd.level, c->level);
		break;
	case PROTO_SAY:
		/* The text points into the line itself: no copy. */
		if (cmd.text < line || cmd.textlen > len ||
		    cmd.text + cmd.textlen > line + len)
			fail_msg("\"%.*s\": text not inside the line",
			    (int)len, line);
		if (cmd.textlen != strlen(c->text) ||
		    memcmp(cmd.text, c->text, cmd.textlen) != 0)
			fail_msg("\"%.*s\": text \"%.*s\" (%zu), want \"%s\"",
			    (int)len, line, (int)cmd.textlen, cmd.text,
			    cmd.textlen, c->text);
		break;
	default:
		break;
	}
}

/* Run each case as given, then with a trailing CR, as a CRLF line. */
static void
run_cmd_cases(const struct cmd_case *cases, size_t n)
{
	char	buf[PROTO_LINE_MAX * 2];
	size_t	i, len;

	for (i = 0; i < n; i++) {
		len = strlen(cases[i].line);
		assert_true(len + 1 <= sizeof buf);
		memcpy(buf, cases[i].line, len);
		check_cmd(buf, len, &cases[i]);
		buf[len] = '\r';
		check_cmd(buf, len + 1, &cases[i]);
	}
}

/* Every verb in upper, lower and mixed case, alone and with arguments. */
static void
test_parse_verbs_any_case(void **state)
{
	static const struct parse_case cases[] = {
		OK("BOARD", PROTO_BOARD), OK("board", PROTO_BOARD),
		OK("BoArD", PROTO_BOARD), OK("bOARd", PROTO_BOARD),
		OK("QUIT", PROTO_QUIT), OK("quit", PROTO_QUIT),
		OK("QuIt", PROTO_QUIT), OK("qUIT", PROTO_QUIT),
		OK("HELP", PROTO_HELP), OK("help", PROTO_HELP),
		OK("HeLp", PROTO_HELP), OK("hELP", PROTO_HELP),
		OK("PING", PROTO_PING), OK("ping", PROTO_PING),
		OK("PiNg", PROTO_PING), OK("pINg", PROTO_PING),
		MOVE("MOVE B2", 4), MOVE("move b2", 4), MOVE("MoVe B2", 4),
		MOVE("mOVE c3", 8),
		AGAIN("AGAIN Y", 1), AGAIN("again y", 1), AGAIN("AgAiN yEs", 1),
		AGAIN("aGAIN N", 0), AGAIN("AGAIN no", 0), AGAIN("again NO", 0),
		AGAIN("AGAIN YES", 1), AGAIN("again n", 0),
		NAME("NAME bob", "bob"), NAME("name bob", "bob"),
		NAME("NaMe bob", "bob"), NAME("nAME Bob", "Bob"),
	};

	(void)state;
	run_parse_cases(cases, NCASES(cases));
}

/* MOVE accepts every cell in both cases. */
static void
test_parse_move_every_cell(void **state)
{
	static const char	*cols = "ABC", *lcols = "abc";
	struct parse_case	 c = MOVE(NULL, 0);
	char			 line[16];
	int			 cell;

	(void)state;
	for (cell = 0; cell < TTT_CELLS; cell++) {
		c.arg = cell;
		snprintf(line, sizeof line, "MOVE %c%d", cols[cell % 3],
		    cell / 3 + 1);
		check_parse(line, strlen(line), &c);
		snprintf(line, sizeof line, "move %c%d", lcols[cell % 3],
		    cell / 3 + 1);
		check_parse(line, strlen(line), &c);
		snprintf(line, sizeof line, "%c%d", cols[cell % 3],
		    cell / 3 + 1);
		check_parse(line, strlen(line), &c);
		snprintf(line, sizeof line, "%c%d", lcols[cell % 3],
		    cell / 3 + 1);
		check_parse(line, strlen(line), &c);
	}
}

/* Leading, trailing and repeated blanks (space and TAB) are ignored. */
static void
test_parse_blanks(void **state)
{
	static const struct parse_case cases[] = {
		OK("  PING", PROTO_PING), OK("PING  ", PROTO_PING),
		OK("\tPING\t", PROTO_PING), OK(" \t PING \t ", PROTO_PING),
		MOVE("MOVE\tb2", 4), MOVE("MOVE  \t  b2", 4),
		MOVE("\t move \t B2 \t", 4), MOVE("  b2  ", 4),
		MOVE("\tb2", 4),
		AGAIN("AGAIN\t\ty", 1), AGAIN(" \tn\t ", 0),
		AGAIN("  yes", 1),
		NAME("\tNAME \t Bob\t", "Bob"), NAME("NAME   x", "x"),
		OK("  board  \t please  ", PROTO_BOARD),
	};

	(void)state;
	run_parse_cases(cases, NCASES(cases));
}

/* Empty and all-blank lines are OK with no verb: they want no reply. */
static void
test_parse_blank_line_is_none(void **state)
{
	static const struct parse_case cases[] = {
		OK("", PROTO_NONE), OK(" ", PROTO_NONE),
		OK("\t", PROTO_NONE), OK(" \t \t  ", PROTO_NONE),
	};

	(void)state;
	run_parse_cases(cases, NCASES(cases));
}

/* A bare cell is MOVE; a bare y/n/yes/no in any case is AGAIN. */
static void
test_parse_bare_cell_and_answer(void **state)
{
	static const struct parse_case cases[] = {
		MOVE("b2", 4), MOVE("B2", 4), MOVE("a1", 0), MOVE("C3", 8),
		AGAIN("y", 1), AGAIN("Y", 1), AGAIN("yes", 1),
		AGAIN("YES", 1), AGAIN("Yes", 1), AGAIN("yEs", 1),
		AGAIN("n", 0), AGAIN("N", 0), AGAIN("no", 0),
		AGAIN("NO", 0), AGAIN("No", 0), AGAIN("nO", 0),
		/* Other two-character words are cells, and bad ones. */
		ERR("ye", PROTO_EBAD_CELL), ERR("ok", PROTO_EBAD_CELL),
		/* Only alone on the line. */
		ERR("y y", PROTO_EUNKNOWN_COMMAND),
		ERR("b2 c3", PROTO_EUNKNOWN_COMMAND),
		ERR("yes please", PROTO_EUNKNOWN_COMMAND),
		ERR("yess", PROTO_EUNKNOWN_COMMAND),
	};

	(void)state;
	run_parse_cases(cases, NCASES(cases));
}

/* Regression guard: a bare "no" is the answer no, never a cell. */
static void
test_parse_bare_no_is_answer_not_cell(void **state)
{
	static const struct parse_case cases[] = {
		AGAIN("no", 0), AGAIN("NO", 0), AGAIN(" No ", 0),
	};

	(void)state;
	run_parse_cases(cases, NCASES(cases));
}

/* Malformed cells, bare and after MOVE, and MOVE with 0 or 2 words. */
static void
test_parse_bad_cell(void **state)
{
	static const struct parse_case cases[] = {
		ERR("D1", PROTO_EBAD_CELL), ERR("A4", PROTO_EBAD_CELL),
		ERR("A0", PROTO_EBAD_CELL), ERR("AA", PROTO_EBAD_CELL),
		ERR("1A", PROTO_EBAD_CELL), ERR("d1", PROTO_EBAD_CELL),
		/* Not two characters: no bare cell, so no command. */
		ERR("B22", PROTO_EUNKNOWN_COMMAND),
		ERR("B", PROTO_EUNKNOWN_COMMAND),
		ERR("MOVE D1", PROTO_EBAD_CELL),
		ERR("MOVE A4", PROTO_EBAD_CELL),
		ERR("MOVE A0", PROTO_EBAD_CELL),
		ERR("MOVE AA", PROTO_EBAD_CELL),
		ERR("MOVE B22", PROTO_EBAD_CELL),
		ERR("MOVE B", PROTO_EBAD_CELL),
		ERR("MOVE no", PROTO_EBAD_CELL), ERR("move y", PROTO_EBAD_CELL),
		ERR("MOVE", PROTO_EBAD_CELL), ERR("move   ", PROTO_EBAD_CELL),
		ERR("MOVE a1 b2", PROTO_EBAD_CELL),
		ERR("MOVE b2 b2", PROTO_EBAD_CELL),
		ERR("MOVE a1 b2 c3", PROTO_EBAD_CELL),
	};

	(void)state;
	run_parse_cases(cases, NCASES(cases));
}

/* AGAIN takes exactly one y/n/yes/no. */
static void
test_parse_bad_answer(void **state)
{
	static const struct parse_case cases[] = {
		ERR("AGAIN maybe", PROTO_EBAD_ANSWER),
		ERR("AGAIN", PROTO_EBAD_ANSWER),
		ERR("again \t ", PROTO_EBAD_ANSWER),
		ERR("AGAIN y y", PROTO_EBAD_ANSWER),
		ERR("AGAIN yes no", PROTO_EBAD_ANSWER),
		ERR("AGAIN b2", PROTO_EBAD_ANSWER),
		ERR("AGAIN yess", PROTO_EBAD_ANSWER),
		ERR("AGAIN ye", PROTO_EBAD_ANSWER),
	};

	(void)state;
	run_parse_cases(cases, NCASES(cases));
}

/* NAME takes one word of 1-16 [A-Za-z0-9_-] and keeps its case. */
static void
test_parse_name(void **state)
{
	static const struct parse_case cases[] = {
		/* 16 characters, then 17. */
		NAME("NAME BoB_-0123456789Z", "BoB_-0123456789Z"),
		NAME("NAME x", "x"), NAME("NAME -", "-"), NAME("NAME _", "_"),
		NAME("name ALICE", "ALICE"), NAME("NAME a-B_9", "a-B_9"),
		ERR("NAME BoB_-0123456789ZZ", PROTO_EBAD_NAME),
		ERR("NAME", PROTO_EBAD_NAME), ERR("name  \t", PROTO_EBAD_NAME),
		ERR("NAME bob alice", PROTO_EBAD_NAME),
		ERR("NAME bob alice carol", PROTO_EBAD_NAME),
		ERR("NAME bo.b", PROTO_EBAD_NAME),
		ERR("NAME bob!", PROTO_EBAD_NAME),
		ERR("NAME b@b", PROTO_EBAD_NAME),
		ERR("NAME 'bob'", PROTO_EBAD_NAME),
	};

	(void)state;
	run_parse_cases(cases, NCASES(cases));
}

/*
 * NAME takes people's names: letters of any script, up to 16 characters
 * and 32 bytes, exactly as given; nothing invisible, no space, no
 * combining diacritic.  Forbidden code points are BAD_CHAR, for the line.
 */
static void
test_parse_name_utf8(void **state)
{
	static const struct parse_case cases[] = {
		NAME("NAME Zo\xc3\xab", "Zo\xc3\xab"),		/* Zoë */
		NAME("NAME ZO\xc3\x8b", "ZO\xc3\x8b"),		/* ZOË */
		NAME("NAME \xc3\x89lodie", "\xc3\x89lodie"),	/* Élodie */
		NAME("NAME \xce\xa9\xce\xbc\xce\xad\xce\xb3\xce\xb1",
		    "\xce\xa9\xce\xbc\xce\xad\xce\xb3\xce\xb1"),	/* Ωμέγα */
		NAME("NAME \xd0\xaf\xd0\xbd\xd0\xb0",
		    "\xd0\xaf\xd0\xbd\xd0\xb0"),		/* Яна */
		NAME("NAME \xe6\x9d\x8e\xe9\x9b\xb7",
		    "\xe6\x9d\x8e\xe9\x9b\xb7"),		/* 李雷 */
		NAME("NAME \xf0\x9f\x98\x80x", "\xf0\x9f\x98\x80x"),	/* 😀x */
		NAME("NAME O\xe2\x80\x99" "Brien", "O\xe2\x80\x99" "Brien"),	/* ’ */
		/* 16 characters of two bytes each: 32 bytes. */
		NAME("NAME \xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
		    "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
		    "\xc3\xa9\xc3\xa9\xc3\xa9",
		    "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
		    "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
		    "\xc3\xa9\xc3\xa9\xc3\xa9"),
		/* 17 of them. */
		ERR("NAME \xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
		    "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
		    "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", PROTO_EBAD_NAME),
		/* 15 two-byte characters and one ASCII: 31 bytes, 16. */
		NAME("NAME a\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
		    "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
		    "\xc3\xa9\xc3\xa9",
		    "a\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
		    "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
		    "\xc3\xa9\xc3\xa9"),
		/* Ten characters of three bytes: 30 bytes; eleven: 33. */
		NAME("NAME \xe4\xb8\xad\xe4\xb8\xad\xe4\xb8\xad\xe4\xb8\xad"
		    "\xe4\xb8\xad\xe4\xb8\xad\xe4\xb8\xad\xe4\xb8\xad"
		    "\xe4\xb8\xad\xe4\xb8\xad",
		    "\xe4\xb8\xad\xe4\xb8\xad\xe4\xb8\xad\xe4\xb8\xad"
		    "\xe4\xb8\xad\xe4\xb8\xad\xe4\xb8\xad\xe4\xb8\xad"
		    "\xe4\xb8\xad\xe4\xb8\xad"),
		ERR("NAME \xe4\xb8\xad\xe4\xb8\xad\xe4\xb8\xad\xe4\xb8\xad"
		    "\xe4\xb8\xad\xe4\xb8\xad\xe4\xb8\xad\xe4\xb8\xad"
		    "\xe4\xb8\xad\xe4\xb8\xad\xe4\xb8\xad", PROTO_EBAD_NAME),
		/* Eight emoji are 32 bytes; nine are 36. */
		NAME("NAME \xf0\x9f\x98\x80\xf0\x9f\x98\x80\xf0\x9f\x98\x80"
		    "\xf0\x9f\x98\x80\xf0\x9f\x98\x80\xf0\x9f\x98\x80"
		    "\xf0\x9f\x98\x80\xf0\x9f\x98\x80",
		    "\xf0\x9f\x98\x80\xf0\x9f\x98\x80\xf0\x9f\x98\x80"
		    "\xf0\x9f\x98\x80\xf0\x9f\x98\x80\xf0\x9f\x98\x80"
		    "\xf0\x9f\x98\x80\xf0\x9f\x98\x80"),
		ERR("NAME \xf0\x9f\x98\x80\xf0\x9f\x98\x80\xf0\x9f\x98\x80"
		    "\xf0\x9f\x98\x80\xf0\x9f\x98\x80\xf0\x9f\x98\x80"
		    "\xf0\x9f\x98\x80\xf0\x9f\x98\x80\xf0\x9f\x98\x80",
		    PROTO_EBAD_NAME),
		/* Invisible, space-like, combining: not in a name. */
		ERR("NAME bob\xe2\x80\x8b", PROTO_EBAD_NAME),	/* ZWSP */
		ERR("NAME b\xe2\x80\x8dob", PROTO_EBAD_NAME),	/* ZWJ */
		ERR("NAME bo\xe2\x81\xa0" "b", PROTO_EBAD_NAME),	/* WJ */
		ERR("NAME \xef\xbb\xbf" "bob", PROTO_EBAD_NAME),	/* BOM */
		ERR("NAME b\xc2\xad" "ob", PROTO_EBAD_NAME),	/* SHY */
		ERR("NAME Mary\xc2\xa0" "Ann", PROTO_EBAD_NAME),	/* NBSP */
		ERR("NAME Mary\xe3\x80\x80" "Ann", PROTO_EBAD_NAME),
		ERR("NAME Zoe\xcc\x88", PROTO_EBAD_NAME),	/* e + U+0308 */
		ERR("NAME \xee\x80\x80", PROTO_EBAD_NAME),	/* private use */
		ERR("NAME \xe3\x85\xa4", PROTO_EBAD_NAME),	/* Hangul filler */
		ERR("NAME bob\xef\xb8\x8f", PROTO_EBAD_NAME),	/* VS16 */
		/* Forbidden anywhere: BAD_CHAR before BAD_NAME. */
		ERR("NAME \xe2\x80\xae" "bob", PROTO_EBAD_CHAR),	/* RLO */
		ERR("NAME bob\xe2\x81\xa6", PROTO_EBAD_CHAR),	/* LRI */
		ERR("NAME bob\xc2\x9b", PROTO_EBAD_CHAR),		/* CSI */
		ERR("NAME b\xc0\xaf" "b", PROTO_EBAD_CHAR),		/* overlong */
		ERR("NAME b\xed\xa0\x80", PROTO_EBAD_CHAR),	/* surrogate */
		ERR("NAME Zo\xc3", PROTO_EBAD_CHAR),		/* cut short */
		/* ASCII punctuation is still not in names. */
		ERR("NAME Zo\xc3\xab!", PROTO_EBAD_NAME),
	};

	(void)state;
	run_parse_cases(cases, NCASES(cases));
}

/* proto_name_valid: 1-16 characters, 32 bytes, the allowed ones only. */
static void
test_parse_name_valid(void **state)
{
	static const struct {
		const char	*s;
		size_t		 len;
		int		 valid;
	} cases[] = {
		{ "a", 1, 1 }, { "Z", 1, 1 }, { "0", 1, 1 }, { "9", 1, 1 },
		{ "_", 1, 1 }, { "-", 1, 1 }, { "p1", 2, 1 },
		{ "abcdefghijklmnop", 16, 1 }, { "abcdefghijklmnopq", 17, 0 },
		{ "", 0, 0 }, { "bo.b", 4, 0 }, { "bo b", 4, 0 },
		{ "bo\tb", 4, 0 }, { "/", 1, 0 }, { ":", 1, 0 }, { "@", 1, 0 },
		{ "[", 1, 0 }, { "`", 1, 0 }, { "{", 1, 0 }, { "\x7f", 1, 0 },
		{ "\xc3\xa9", 2, 1 }, { "a\0b", 3, 0 }, { "ab\r", 3, 0 },
		/* Only len bytes count. */
		{ "bob.", 3, 1 },
		/* Beyond ASCII: text, whole characters, 16 and 32 at most. */
		{ "Zo\xc3\xab", 4, 1 }, { "Zo\xc3\xab", 3, 0 },
		{ "\xc3", 1, 0 }, { "\xab", 1, 0 }, { "\xc0\xaf", 2, 0 },
		{ "\xe2\x80\xae", 3, 0 }, { "\xe2\x80\x8b", 3, 0 },
		{ "\xc2\x85", 2, 0 }, { "\xef\xbf\xbe", 3, 0 },
		{ "\xc2\xa0", 2, 0 }, { "\xcc\x88", 2, 0 },
		/* U+FFFC, U+FFFD: stand-ins for something not there. */
		{ "\xef\xbf\xbc", 3, 0 }, { "a\xef\xbf\xbd", 4, 0 },
		{ "\xef\xbf\xbb", 3, 0 },
		{ "abcdefghijklmno\xc3\xa9", 17, 1 },	/* 16 characters */
		{ "abcdefghijklmnop\xc3\xa9", 18, 0 },	/* 17 */
		{ "\xe4\xb8\xad\xe4\xb8\xad\xe4\xb8\xad\xe4\xb8\xad"
		  "\xe4\xb8\xad\xe4\xb8\xad\xe4\xb8\xad\xe4\xb8\xad"
		  "\xe4\xb8\xad\xe4\xb8\xad" "ab", 32, 1 },	/* 32 bytes */
		{ "\xe4\xb8\xad\xe4\xb8\xad\xe4\xb8\xad\xe4\xb8\xad"
		  "\xe4\xb8\xad\xe4\xb8\xad\xe4\xb8\xad\xe4\xb8\xad"
		  "\xe4\xb8\xad\xe4\xb8\xad" "abc", 33, 0 },	/* 33 */
	};
	size_t	i;
	int	got;

	(void)state;
	for (i = 0; i < NCASES(cases); i++) {
		got = proto_name_valid(cases[i].s, cases[i].len);
		if ((got != 0) != cases[i].valid)
			fail_msg("proto_name_valid case %zu: %d, want %d", i,
			    got, cases[i].valid);
	}
}

/* Unknown first words are UNKNOWN_COMMAND. */
static void
test_parse_unknown_command(void **state)
{
	static const struct parse_case cases[] = {
		ERR("FOO", PROTO_EUNKNOWN_COMMAND),
		ERR("MOVES b2", PROTO_EUNKNOWN_COMMAND),
		ERR("PINGPONG", PROTO_EUNKNOWN_COMMAND),
		ERR("QUITT", PROTO_EUNKNOWN_COMMAND),
		ERR("MOV b2", PROTO_EUNKNOWN_COMMAND),
		ERR("PONG", PROTO_EUNKNOWN_COMMAND),
		ERR("AGAIN?", PROTO_EUNKNOWN_COMMAND),
		ERR("~", PROTO_EUNKNOWN_COMMAND),
		ERR("hello world", PROTO_EUNKNOWN_COMMAND),
		ERR("foo D1", PROTO_EUNKNOWN_COMMAND),
	};

	(void)state;
	run_parse_cases(cases, NCASES(cases));
}

/* Commands without an argument ignore extra words. */
static void
test_parse_extra_words_ignored(void **state)
{
	static const struct parse_case cases[] = {
		OK("board please", PROTO_BOARD), OK("QUIT now", PROTO_QUIT),
		OK("HELP me", PROTO_HELP), OK("PING 1 2 3 4 5", PROTO_PING),
		OK("quit D1 bo.b maybe", PROTO_QUIT),
	};

	(void)state;
	run_parse_cases(cases, NCASES(cases));
}

/* 255 and 256 bytes are fine, 257 is too long; a trailing CR is free. */
static void
test_parse_line_length_limit(void **state)
{
	static const size_t	 lens[] = { 255, 256, 257, 258, 300 };
	char			 buf[PROTO_LINE_MAX * 2];
	struct parse_case	 c;
	size_t			 i, len;

	(void)state;
	for (i = 0; i < NCASES(lens); i++) {
		len = lens[i];
		memset(&c, 0, sizeof c);
		c.error = len <= PROTO_LINE_MAX ? PROTO_OK :
		    PROTO_ELINE_TOO_LONG;

		/* "PING" then blanks. */
		c.verb = PROTO_PING;
		fill(buf, len, "PING");
		check_parse(buf, len, &c);
		buf[len] = '\r';
		check_parse(buf, len + 1, &c);

		/* Blanks, then "MOVE b2" ending at the last byte. */
		c.verb = PROTO_MOVE;
		c.arg = 4;
		memset(buf, '\t', len);
		memcpy(buf + len - 7, "MOVE b2", 7);
		check_parse(buf, len, &c);
		buf[len] = '\r';
		check_parse(buf, len + 1, &c);

		/* All blanks: the length still counts. */
		c.verb = PROTO_NONE;
		memset(buf, ' ', len);
		check_parse(buf, len, &c);
	}
}

/*
 * Control bytes other than TAB, DEL, bytes that are no valid UTF-8, and
 * the code points forbidden on a line are BAD_CHAR; other UTF-8 is not.
 */
static void
test_parse_bad_char(void **state)
{
	static const struct parse_case cases[] = {
		ERRN("PI\0NG", 5, PROTO_EBAD_CHAR),
		ERRN("\0", 1, PROTO_EBAD_CHAR),
		ERRN("PING\0", 5, PROTO_EBAD_CHAR),
		ERR("PING\x1b", PROTO_EBAD_CHAR),
		ERR("\x1b[A", PROTO_EBAD_CHAR),
		ERR("PING\x7f", PROTO_EBAD_CHAR),
		ERR("PI\rNG", PROTO_EBAD_CHAR),
		ERR("\rPING", PROTO_EBAD_CHAR),
		ERR("MOVE b2\x80", PROTO_EBAD_CHAR),
		ERR("\xff", PROTO_EBAD_CHAR),
		ERR("NAME b\xc3", PROTO_EBAD_CHAR),
		ERR("SAY \xc0\xaf", PROTO_EBAD_CHAR),		/* overlong */
		ERR("SAY \xe0\x80\xaf", PROTO_EBAD_CHAR),
		ERR("SAY \xf0\x80\x80\xaf", PROTO_EBAD_CHAR),
		ERR("SAY \xed\xb2\x80", PROTO_EBAD_CHAR),	/* surrogate */
		ERR("SAY \xf4\x90\x80\x80", PROTO_EBAD_CHAR),	/* > 10FFFF */
		ERR("SAY \xe2\x82", PROTO_EBAD_CHAR),		/* cut short */
		ERR("SAY \xe2\x82 b", PROTO_EBAD_CHAR),
		ERR("SAY a\x80" "b", PROTO_EBAD_CHAR),		/* stray */
		ERR("SAY \xc2\x80", PROTO_EBAD_CHAR),		/* C1 */
		ERR("SAY \xc2\x9f", PROTO_EBAD_CHAR),
		ERR("SAY \xd8\x9c", PROTO_EBAD_CHAR),		/* ALM */
		ERR("SAY \xe2\x80\x8e", PROTO_EBAD_CHAR),	/* LRM */
		ERR("SAY \xe2\x80\x8f", PROTO_EBAD_CHAR),	/* RLM */
		ERR("SAY \xe2\x80\xaa", PROTO_EBAD_CHAR),	/* LRE */
		ERR("SAY \xe2\x80\xae", PROTO_EBAD_CHAR),	/* RLO */
		ERR("SAY \xe2\x81\xa6", PROTO_EBAD_CHAR),	/* LRI */
		ERR("SAY \xe2\x81\xa9", PROTO_EBAD_CHAR),	/* PDI */
		ERR("SAY \xe2\x80\xa8", PROTO_EBAD_CHAR),	/* LS */
		ERR("SAY \xe2\x80\xa9", PROTO_EBAD_CHAR),	/* PS */
		ERR("SAY \xef\xbf\xbf", PROTO_EBAD_CHAR),	/* U+FFFF */
		ERR("PING \xe2\x80\xae", PROTO_EBAD_CHAR),	/* any line */
		ERR("\xe2\x80\xae", PROTO_EBAD_CHAR),
		/* Valid UTF-8 elsewhere: each command's own error. */
		ERR("MOVE \xc3\xa9", PROTO_EBAD_CELL),
		ERR("MOVE \xc3\xa9\xc3\xa9", PROTO_EBAD_CELL),
		ERR("AGAIN \xc3\xa9", PROTO_EBAD_ANSWER),
		ERR("\xc3\xa9", PROTO_EUNKNOWN_COMMAND),	/* one character */
		ERR("\xc3\xa9\xc3\xa9", PROTO_EBAD_CELL),	/* two: a cell? */
		ERR("a\xc3\xa9", PROTO_EBAD_CELL),
		ERR("\xe4\xb8\xad", PROTO_EUNKNOWN_COMMAND),
		ERR("\xc3\xa9t\xc3\xa9", PROTO_EUNKNOWN_COMMAND),
		OK("PING \xc3\xa9", PROTO_PING),
		OK("PING \xe2\x80\x8b", PROTO_PING),	/* invisible: text */
		ERR("PING\x01", PROTO_EBAD_CHAR),
		ERR("PING\x1f", PROTO_EBAD_CHAR),
		ERR("PING\n", PROTO_EBAD_CHAR),
		ERR("PING\v", PROTO_EBAD_CHAR),
		ERR("PING\f", PROTO_EBAD_CHAR),
		ERR("PING\b", PROTO_EBAD_CHAR),
		/* Blank lines with a bad byte are not blank. */
		ERR(" \x7f ", PROTO_EBAD_CHAR),
		/* TAB is a blank; '~' (0x7e) and ' ' (0x20) are printable. */
		MOVE("MOVE\tb2", 4),
		ERR("~", PROTO_EUNKNOWN_COMMAND),
	};
	struct parse_case	c = ERR(NULL, PROTO_EBAD_CHAR);

	(void)state;
	run_parse_cases(cases, NCASES(cases));
	/* Only one CR is dropped: CR CR leaves a lone CR. */
	check_parse("PING\r\r", 6, &c);
}

/* When several errors apply, the first in the documented order wins. */
static void
test_parse_error_precedence(void **state)
{
	char			 buf[300];
	struct parse_case	 c;

	(void)state;
	/* LINE_TOO_LONG before BAD_CHAR. */
	memset(&c, 0, sizeof c);
	c.error = PROTO_ELINE_TOO_LONG;
	fill(buf, sizeof buf, "PING");
	buf[10] = '\0';
	check_parse(buf, sizeof buf, &c);
	buf[10] = '\x1b';
	buf[299] = '\xff';
	check_parse(buf, sizeof buf, &c);

	/* BAD_CHAR before UNKNOWN_COMMAND and the argument errors. */
	c.error = PROTO_EBAD_CHAR;
	check_parse("FOO\x01", 4, &c);
	check_parse("FROB\0nicate", 11, &c);
	check_parse("MOVE D1\x7f", 8, &c);
	check_parse("NAME bo.b\x80", 10, &c);
	check_parse("AGAIN maybe\x1b", 12, &c);

	/* UNKNOWN_COMMAND before a malformed cell in the argument. */
	c.error = PROTO_EUNKNOWN_COMMAND;
	check_parse("FOO D1", 6, &c);
}

/* proto_scan: where a line ends, and when to give up waiting for one. */
static void
test_parse_scan(void **state)
{
	static const struct scan_case cases[] = {
		{ "empty buffer", 0, -1, -1, PROTO_SCAN_MORE, 0 },
		{ "a few bytes", 4, -1, -1, PROTO_SCAN_MORE, 0 },
		{ "LF only", 1, 0, -1, PROTO_SCAN_LINE, 0 },
		{ "PING LF", 5, 4, -1, PROTO_SCAN_LINE, 4 },
		{ "PING CR LF", 6, 5, 4, PROTO_SCAN_LINE, 5 },
		{ "line then more", 20, 5, 4, PROTO_SCAN_LINE, 5 },
		{ "256 LF", 257, 256, -1, PROTO_SCAN_LINE, 256 },
		{ "256 CR LF", 258, 257, 256, PROTO_SCAN_LINE, 257 },
		{ "256 CR LF then more", 400, 257, 256, PROTO_SCAN_LINE, 257 },
		{ "255 no LF", 255, -1, -1, PROTO_SCAN_MORE, 0 },
		{ "256 no LF", 256, -1, -1, PROTO_SCAN_MORE, 0 },
		{ "256 CR no LF", 257, -1, 256, PROTO_SCAN_MORE, 0 },
		{ "257 no LF", 257, -1, -1, PROTO_SCAN_TOO_LONG, 0 },
		{ "257 no LF, CR inside", 257, -1, 255, PROTO_SCAN_TOO_LONG,
		    0 },
		{ "258 no LF", 258, -1, -1, PROTO_SCAN_TOO_LONG, 0 },
		{ "258 no LF, CR last", 258, -1, 257, PROTO_SCAN_TOO_LONG, 0 },
		{ "256 CR then not LF", 258, -1, 256, PROTO_SCAN_TOO_LONG, 0 },
		{ "4096 no LF", 4096, -1, -1, PROTO_SCAN_TOO_LONG, 0 },
		{ "LF at 258", 300, 258, -1, PROTO_SCAN_TOO_LONG, 0 },
		{ "LF at 258 after CR", 300, 258, 257, PROTO_SCAN_TOO_LONG,
		    0 },
		{ "LF at 299", 300, 299, 298, PROTO_SCAN_TOO_LONG, 0 },
	};
	static char	 buf[4096];
	size_t		 i, linelen;
	enum proto_scan	 got;

	(void)state;
	for (i = 0; i < NCASES(cases); i++) {
		const struct scan_case	*c = &cases[i];

		assert_true(c->len <= sizeof buf);
		memset(buf, 'x', sizeof buf);
		if (c->cr >= 0)
			buf[c->cr] = '\r';
		if (c->lf >= 0)
			buf[c->lf] = '\n';
		linelen = 12345;
		got = proto_scan(buf, c->len, &linelen);
		if (got != c->want)
			fail_msg("proto_scan %s: %d, want %d", c->what, got,
			    c->want);
		if (c->want == PROTO_SCAN_LINE && linelen != c->linelen)
			fail_msg("proto_scan %s: linelen %zu, want %zu",
			    c->what, linelen, c->linelen);
	}
}

/* Regression guard: scan then parse accept 256 bytes + CR LF, and only it. */
static void
test_parse_scan_then_parse_limit(void **state)
{
	struct proto_cmd	cmd;
	char			buf[PROTO_SCAN_MAX + 8];
	size_t			linelen;
	enum proto_scan		s;

	(void)state;
	/* 256 bytes, CR, LF: a line, and a good one. */
	fill(buf, PROTO_LINE_MAX, "PING");
	buf[PROTO_LINE_MAX] = '\r';
	buf[PROTO_LINE_MAX + 1] = '\n';
	assert_int_equal(proto_scan(buf, PROTO_LINE_MAX + 2, &linelen),
	    PROTO_SCAN_LINE);
	assert_int_equal(linelen, PROTO_LINE_MAX + 1);
	assert_int_equal(proto_parse(buf, linelen, &cmd), PROTO_OK);
	assert_int_equal(cmd.verb, PROTO_PING);

	/* 257 bytes then LF: refused by the scan or by the parse. */
	fill(buf, PROTO_LINE_MAX + 1, "PING");
	buf[PROTO_LINE_MAX + 1] = '\n';
	s = proto_scan(buf, PROTO_LINE_MAX + 2, &linelen);
	if (s == PROTO_SCAN_LINE)
		assert_int_equal(proto_parse(buf, linelen, &cmd),
		    PROTO_ELINE_TOO_LONG);
	else
		assert_int_equal(s, PROTO_SCAN_TOO_LONG);
}

/* HTTP request lines, as browsers and cross-protocol attacks send them. */
static void
test_parse_http(void **state)
{
	static const char *const	yes[] = {
		"GET / HTTP/1.1", "GET / HTTP/1.1\r", "POST /x HTTP/1.0",
		"HEAD /", "OPTIONS * HTTP/1.1", "PRI * HTTP/2.0",
		"CONNECT example.com:443 HTTP/1.1", "FOO /bar HTTP/1.1",
		"PUT  /a\tHTTP/1.1", "DELETE /",
	};
	static const char *const	no[] = {
		"", "GET", "get / http/1.1", "MOVE B2", "PING", "B2", "y",
		"NAME GET", "HELP me", "a b HTTP/", "a b c HTTP/1.1",
		"Host: example.com",
	};
	size_t				i;

	(void)state;
	for (i = 0; i < sizeof yes / sizeof yes[0]; i++) {
		if (!proto_is_http(yes[i], strlen(yes[i])))
			fail_msg("\"%s\" is HTTP", yes[i]);
	}
	for (i = 0; i < sizeof no / sizeof no[0]; i++) {
		if (proto_is_http(no[i], strlen(no[i])))
			fail_msg("\"%s\" is not HTTP", no[i]);
	}
	/* Never reads past the length. */
	assert_false(proto_is_http("GET / HTTP/1.1", 3));
	/* The start of a line too long to read whole: the method, a blank. */
	assert_true(proto_is_http_start("GET /aaaa", 9));
	assert_true(proto_is_http_start("POST\t/x", 8));
	assert_true(proto_is_http_start("GET ", 4));
	assert_false(proto_is_http_start("GET", 3));
	assert_false(proto_is_http_start("GET / HTTP/1.1", 3));
	assert_false(proto_is_http_start("GETTY /", 7));
	assert_false(proto_is_http_start("get /", 5));
	assert_false(proto_is_http_start("SAY GET /", 9));
	assert_false(proto_is_http_start(" GET /", 6));
}

/*
 * ROOM NEW and ROOM JOIN <code>: every code character, any case, with or
 * without the dash in its middle.
 */
static void
test_parse_room(void **state)
{
	static const struct cmd_case cases[] = {
		C_NEW("ROOM NEW"), C_NEW("room new"), C_NEW("Room nEw"),
		C_NEW(" \troom\t \tNEW \t"),
		C_JOIN("ROOM JOIN K7QX2M9P", "K7QX2M9P"),
		C_JOIN("ROOM JOIN K7QX-2M9P", "K7QX2M9P"),
		C_JOIN("room join k7qx-2m9p", "K7QX2M9P"),
		C_JOIN("RoOm JoIn k7Qx2M9p", "K7QX2M9P"),
		C_JOIN("\tROOM  JOIN\tK7QX2M9P  ", "K7QX2M9P"),
		/* All 31 characters of the alphabet, in both cases. */
		C_JOIN("ROOM JOIN 23456789", "23456789"),
		C_JOIN("ROOM JOIN ABCDEFGH", "ABCDEFGH"),
		C_JOIN("ROOM JOIN JKMNPQRS", "JKMNPQRS"),
		C_JOIN("ROOM JOIN TUVWXYZZ", "TUVWXYZZ"),
		C_JOIN("ROOM JOIN abcd-efgh", "ABCDEFGH"),
		C_JOIN("ROOM JOIN jkmnpqrs", "JKMNPQRS"),
		C_JOIN("ROOM JOIN tuvwxyz9", "TUVWXYZ9"),
	};

	(void)state;
	run_cmd_cases(cases, NCASES(cases));
}

/* ROOM without NEW or JOIN <code>, or with a malformed code: BAD_ROOM. */
static void
test_parse_room_bad(void **state)
{
	static const struct cmd_case cases[] = {
		C_ERR("ROOM", PROTO_EBAD_ROOM),
		C_ERR("room \t ", PROTO_EBAD_ROOM),
		C_ERR("ROOM JOIN", PROTO_EBAD_ROOM),
		C_ERR("ROOM OPEN", PROTO_EBAD_ROOM),
		C_ERR("ROOM NEWS", PROTO_EBAD_ROOM),
		C_ERR("ROOM K7QX2M9P", PROTO_EBAD_ROOM),
		C_ERR("ROOM NEW K7QX2M9P", PROTO_EBAD_ROOM),
		C_ERR("ROOM NEW please", PROTO_EBAD_ROOM),
		C_ERR("ROOM JOIN K7QX2M9P extra", PROTO_EBAD_ROOM),
		C_ERR("ROOM JOIN K7QX2M9P K7QX2M9P", PROTO_EBAD_ROOM),
		C_ERR("ROOM JOINK7QX2M9P", PROTO_EBAD_ROOM),
		/* Wrong length. */
		C_ERR("ROOM JOIN K", PROTO_EBAD_ROOM),
		C_ERR("ROOM JOIN K7QX2", PROTO_EBAD_ROOM),
		C_ERR("ROOM JOIN K7QX2M", PROTO_EBAD_ROOM),
		C_ERR("ROOM JOIN K7QX2M9", PROTO_EBAD_ROOM),
		C_ERR("ROOM JOIN K7QX2M9PP", PROTO_EBAD_ROOM),
		/* The dash only in the middle, and once. */
		C_ERR("ROOM JOIN K7Q-X2M9P", PROTO_EBAD_ROOM),
		C_ERR("ROOM JOIN K7QX--2M9P", PROTO_EBAD_ROOM),
		C_ERR("ROOM JOIN -K7QX2M9P", PROTO_EBAD_ROOM),
		/* Letters and digits left out of the alphabet. */
		C_ERR("ROOM JOIN K7QX2M9O", PROTO_EBAD_ROOM),
		C_ERR("ROOM JOIN K7QX2M9I", PROTO_EBAD_ROOM),
		C_ERR("ROOM JOIN K7QX2M9L", PROTO_EBAD_ROOM),
		C_ERR("ROOM JOIN K7QX2M90", PROTO_EBAD_ROOM),
		C_ERR("ROOM JOIN K7QX2M91", PROTO_EBAD_ROOM),
		C_ERR("ROOM JOIN o7qx2m9p", PROTO_EBAD_ROOM),
		C_ERR("ROOM JOIN k7qx2m9i", PROTO_EBAD_ROOM),
		C_ERR("ROOM JOIN k7qxl2m9", PROTO_EBAD_ROOM),
		/* No other punctuation. */
		C_ERR("ROOM JOIN K7QX_2M9P", PROTO_EBAD_ROOM),
		C_ERR("ROOM JOIN K7QX2M9-", PROTO_EBAD_ROOM),
		C_ERR("ROOM JOIN K7QX2M9!", PROTO_EBAD_ROOM),
		C_ERR("ROOM JOIN K7QX2M9_", PROTO_EBAD_ROOM),
		/* Judged from the line, after the bytes. */
		C_ERR("ROOM JOIN K7QX2M9\x01", PROTO_EBAD_CHAR),
		C_ERR("ROOMS NEW", PROTO_EUNKNOWN_COMMAND),
	};

	(void)state;
	run_cmd_cases(cases, NCASES(cases));
}

/* GAMES, UNWATCH and RESIGN take no argument; extra words are ignored. */
static void
test_parse_games_unwatch_resign(void **state)
{
	static const struct cmd_case cases[] = {
		C_VERB("GAMES", PROTO_GAMES), C_VERB("games", PROTO_GAMES),
		C_VERB("GaMeS", PROTO_GAMES),
		C_VERB("GAMES all of them please", PROTO_GAMES),
		C_VERB("games 4", PROTO_GAMES),
		C_VERB("UNWATCH", PROTO_UNWATCH),
		C_VERB("unwatch", PROTO_UNWATCH),
		C_VERB("UnWatch now", PROTO_UNWATCH),
		C_VERB("\tUNWATCH 4 5 6\t", PROTO_UNWATCH),
		C_VERB("RESIGN", PROTO_RESIGN), C_VERB("resign", PROTO_RESIGN),
		C_VERB("ReSiGn", PROTO_RESIGN),
		C_VERB("resign now, sorry", PROTO_RESIGN),
		C_ERR("GAME", PROTO_EUNKNOWN_COMMAND),
		C_ERR("GAMES\x7f", PROTO_EBAD_CHAR),
		C_ERR("UNWATCHED", PROTO_EUNKNOWN_COMMAND),
		C_ERR("RESIGNS", PROTO_EUNKNOWN_COMMAND),
		C_ERR("RESIGN\x1b", PROTO_EBAD_CHAR),
	};

	(void)state;
	run_cmd_cases(cases, NCASES(cases));
}

/*
 * WATCH <id>: up to 20 digits that fit in 64 bits.  Anything else is no
 * game's id: game 0, still PROTO_OK (NO_SUCH_GAME comes from the game).
 */
static void
test_parse_watch(void **state)
{
	static const struct cmd_case cases[] = {
		C_WATCH("WATCH 4", 4), C_WATCH("watch 4", 4),
		C_WATCH("WaTcH\t 17 \t", 17), C_WATCH("WATCH 0042", 42),
		C_WATCH("WATCH 1234567890", 1234567890ULL),
		/* 2^64 - 1: 20 digits, the largest that fits. */
		C_WATCH("WATCH 18446744073709551615", 18446744073709551615ULL),
		C_WATCH("WATCH 00000000000000000007", 7),
		/* Over 2^64 - 1, or more than 20 digits. */
		C_WATCH("WATCH 18446744073709551616", 0),
		C_WATCH("WATCH 99999999999999999999", 0),
		C_WATCH("WATCH 000000000000000000007", 0),
		C_WATCH("WATCH 184467440737095516150", 0),
		C_WATCH("WATCH 123456789012345678901234567890", 0),
		/* Missing or not digits. */
		C_WATCH("WATCH", 0), C_WATCH("watch \t ", 0),
		C_WATCH("WATCH 0", 0), C_WATCH("WATCH abc", 0),
		C_WATCH("WATCH 4x", 0), C_WATCH("WATCH x4", 0),
		C_WATCH("WATCH -1", 0), C_WATCH("WATCH +4", 0),
		C_WATCH("WATCH 4.0", 0), C_WATCH("WATCH 0x10", 0),
		C_WATCH("WATCH 4 5", 0), C_WATCH("WATCH 4 please", 0),
		C_ERR("WATCHES 4", PROTO_EUNKNOWN_COMMAND),
	};

	(void)state;
	run_cmd_cases(cases, NCASES(cases));
}

/*
 * RESUME <token>: 8 code characters, a dash allowed exactly in the middle,
 * any case; cmd.code upper case without the dash.  A malformed token is
 * PROTO_OK with code "": the game refuses it after the RESUME rate limit.
 */
static void
test_parse_resume(void **state)
{
	static const struct cmd_case cases[] = {
		C_RESUME("RESUME K7QX2M9P", "K7QX2M9P"),
		C_RESUME("RESUME K7QX-2M9P", "K7QX2M9P"),
		C_RESUME("resume k7qx-2m9p", "K7QX2M9P"),
		C_RESUME("ReSuMe k7Qx2M9p", "K7QX2M9P"),
		C_RESUME("\tRESUME \t K7QX-2M9P \t", "K7QX2M9P"),
		C_RESUME("RESUME 23456789", "23456789"),
		C_RESUME("RESUME ABCD-EFGH", "ABCDEFGH"),
		C_RESUME("RESUME jkmn-pqrs", "JKMNPQRS"),
		C_RESUME("RESUME tuvw-xyz2", "TUVWXYZ2"),
		/* Malformed: OK, with no code. */
		C_RESUME("RESUME", ""), C_RESUME("resume  ", ""),
		C_RESUME("RESUME K7QX2M9", ""),
		C_RESUME("RESUME K7QX-2M9", ""),
		C_RESUME("RESUME K7QX2M9PP", ""),
		C_RESUME("RESUME K7QX-2M9PP", ""),
		C_RESUME("RESUME K7Q-X2M9P", ""),
		C_RESUME("RESUME K7QX2-M9P", ""),
		C_RESUME("RESUME -K7QX2M9P", ""),
		C_RESUME("RESUME K7QX2M9P-", ""),
		C_RESUME("RESUME K7QX--2M9P", ""),
		C_RESUME("RESUME K7QX_2M9P", ""),
		C_RESUME("RESUME K7QX-2M9O", ""),
		C_RESUME("RESUME K7QX-2M9I", ""),
		C_RESUME("RESUME K7QX-2M9L", ""),
		C_RESUME("RESUME K7QX-2M90", ""),
		C_RESUME("RESUME K7QX-2M91", ""),
		C_RESUME("RESUME k7qx-2m9l", ""),
		C_RESUME("RESUME K7QX 2M9P", ""),
		C_RESUME("RESUME K7QX-2M9P extra", ""),
		C_RESUME("RESUME K7QX2M", ""),
		C_ERR("RESUME K7QX-2M9P\x80", PROTO_EBAD_CHAR),
	};

	(void)state;
	run_cmd_cases(cases, NCASES(cases));
}

/*
 * PLAY AI [easy|perfect], any case; PLAY alone: the public queue;
 * anything else is BAD_LEVEL.
 */
static void
test_parse_play(void **state)
{
	static const struct cmd_case cases[] = {
		C_PLAY("PLAY AI", PROTO_LEVEL_PERFECT),
		C_PLAY("play ai", PROTO_LEVEL_PERFECT),
		C_PLAY("Play aI", PROTO_LEVEL_PERFECT),
		C_PLAY("PLAY AI perfect", PROTO_LEVEL_PERFECT),
		C_PLAY("PLAY AI PERFECT", PROTO_LEVEL_PERFECT),
		C_PLAY("play ai PeRfEcT", PROTO_LEVEL_PERFECT),
		C_PLAY("PLAY AI easy", PROTO_LEVEL_EASY),
		C_PLAY("PLAY AI EASY", PROTO_LEVEL_EASY),
		C_PLAY("\tplay\tAi \t eAsY\t", PROTO_LEVEL_EASY),
		C_PLAY("PLAY", PROTO_LEVEL_QUEUE),
		C_PLAY("play  \t", PROTO_LEVEL_QUEUE),
		C_ERR("PLAY XX", PROTO_EBAD_LEVEL),
		C_ERR("PLAY A1", PROTO_EBAD_LEVEL),
		C_ERR("PLAY easy", PROTO_EBAD_LEVEL),
		C_ERR("PLAY AIeasy", PROTO_EBAD_LEVEL),
		C_ERR("PLAY AI hard", PROTO_EBAD_LEVEL),
		C_ERR("PLAY AI eas", PROTO_EBAD_LEVEL),
		C_ERR("PLAY AI perfectly", PROTO_EBAD_LEVEL),
		C_ERR("PLAY AI easy extra", PROTO_EBAD_LEVEL),
		C_ERR("PLAY AI easy perfect", PROTO_EBAD_LEVEL),
		C_ERR("PLAY XX easy", PROTO_EBAD_LEVEL),
		C_ERR("PLAYS AI", PROTO_EUNKNOWN_COMMAND),
	};

	(void)state;
	run_cmd_cases(cases, NCASES(cases));
}

/*
 * SAY <text>: the rest of the line after SAY and its blanks, trailing
 * blanks removed, 1 to 200 bytes, no TAB inside.
 */
static void
test_parse_say(void **state)
{
	static const struct cmd_case cases[] = {
		C_SAY("SAY hi", "hi"), C_SAY("say hi", "hi"),
		C_SAY("SaY Hello", "Hello"),
		C_SAY("SAY good luck!", "good luck!"),
		C_SAY("SAY    spaced   out  ", "spaced   out"),
		C_SAY("SAY\thi there\t", "hi there"),
		C_SAY("SAY \t \t hi", "hi"),
		C_SAY("  \tSAY x", "x"),
		C_SAY("SAY QUIT", "QUIT"), C_SAY("SAY SAY", "SAY"),
		C_SAY("SAY ~!@#$%^&*()_+{}|:\"<>?`-=[]\\;',./",
		    "~!@#$%^&*()_+{}|:\"<>?`-=[]\\;',./"),
		C_ERR("SAY", PROTO_EBAD_TEXT), C_ERR("say   ", PROTO_EBAD_TEXT),
		C_ERR("SAY \t \t", PROTO_EBAD_TEXT),
		C_ERR("SAY hi\tthere", PROTO_EBAD_TEXT),
		C_ERR("SAY \thi \t there", PROTO_EBAD_TEXT),
		C_ERR("SAY hi\x01", PROTO_EBAD_CHAR),
		C_ERR("SAYhi", PROTO_EUNKNOWN_COMMAND),
		/* UTF-8 text, exactly as sent; invisible characters too. */
		C_SAY("SAY \xc2\xa1hola!", "\xc2\xa1hola!"),		/* ¡hola! */
		C_SAY("SAY \xe4\xbd\xa0\xe5\xa5\xbd \xf0\x9f\x98\x80",
		    "\xe4\xbd\xa0\xe5\xa5\xbd \xf0\x9f\x98\x80"),
		C_SAY("SAY \xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9",
		    "\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9"),	/* ZWJ */
		C_SAY("SAY a\xc2\xa0" "b", "a\xc2\xa0" "b"),		/* NBSP */
		C_ERR("SAY \xe2\x80\xae" "olleh", PROTO_EBAD_CHAR),
		C_ERR("SAY \xc0\xa1", PROTO_EBAD_CHAR),
	};

	(void)state;
	run_cmd_cases(cases, NCASES(cases));
}

/*
 * SAY counts characters: 200 of them, whatever their bytes, are fine and
 * 201 are not; the line's 256 bytes bound the bytes.
 */
static void
test_parse_say_length_characters(void **state)
{
	static const struct {
		size_t	two;		/* two-byte characters (é) */
		size_t	one;		/* then ASCII ones */
		int	ok;
	} cases[] = {
		{ 52, 148, 1 },		/* 200 characters, 252 bytes */
		{ 51, 150, 0 },		/* 201, 252 bytes */
		{ 52, 100, 1 },		/* 152, 204 bytes: over 200 bytes */
		{ 126, 0, 1 },		/* 126, 252 bytes */
		{ 1, 199, 1 },		/* 200, 201 bytes */
		{ 1, 200, 0 },		/* 201 */
	};
	char			 line[PROTO_LINE_MAX + 8], text[PROTO_LINE_MAX];
	struct cmd_case		 c;
	size_t			 i, k, n;

	(void)state;
	for (i = 0; i < NCASES(cases); i++) {
		n = 0;
		for (k = 0; k < cases[i].two; k++) {
			text[n++] = '\xc3';
			text[n++] = '\xa9';
		}
		for (k = 0; k < cases[i].one; k++)
			text[n++] = 'a';
		text[n] = '\0';
		memset(&c, 0, sizeof c);
		c.error = cases[i].ok ? PROTO_OK : PROTO_EBAD_TEXT;
		c.verb = PROTO_SAY;
		c.text = text;
		snprintf(line, sizeof line, "SAY %s", text);
		assert_int_equal(strlen(line), 4 + n);
		check_cmd(line, strlen(line), &c);
	}
}

/* SAY: 200 ASCII characters are fine, 201 are not; blanks around are free. */
static void
test_parse_say_length(void **state)
{
	static const size_t	 lens[] = { 1, 199, 200, 201, 202, 240 };
	char			 line[PROTO_LINE_MAX + 1], text[PROTO_LINE_MAX];
	struct cmd_case		 c;
	size_t			 i, n;

	(void)state;
	for (i = 0; i < NCASES(lens); i++) {
		n = lens[i];
		memset(text, 'a', n);
		text[n] = '\0';
		text[n / 2] = ' ';		/* inner blanks count */
		if (n == 1)
			text[0] = 'a';
		memset(&c, 0, sizeof c);
		c.error = n <= PROTO_CHAT_MAX ? PROTO_OK : PROTO_EBAD_TEXT;
		c.verb = PROTO_SAY;
		c.text = text;
		snprintf(line, sizeof line, "SAY %s", text);
		check_cmd(line, strlen(line), &c);
		/* Leading and trailing blanks do not count. */
		snprintf(line, sizeof line, "SAY \t %s \t ", text);
		check_cmd(line, strlen(line), &c);
	}
}

/* One line parsed: its error, and the command when it is OK. */
static enum proto_error
parse_line(const char *line, struct proto_cmd *cmd)
{
	return (proto_parse(line, strlen(line), cmd));
}

/*
 * The accounts' verbs (issue 25): REGISTER and REKEY take nothing, LOGIN a
 * key (malformed: "", refused later as a wrong key), FORGET a name,
 * RATING [name], HISTORY [name] [n], TOP [n] with n 1 to 100 (default 10).
 */
static void
test_parse_accounts(void **state)
{
	struct proto_cmd	cmd;
	char			long_key[80];

	(void)state;
	assert_int_equal(parse_line("register", &cmd), PROTO_OK);
	assert_int_equal(cmd.verb, PROTO_REGISTER);
	assert_int_equal(parse_line("REKEY", &cmd), PROTO_OK);
	assert_int_equal(cmd.verb, PROTO_REKEY);
	assert_int_equal(parse_line("LOGIN abcdefghijklmnopqrstuvwxyz", &cmd),
	    PROTO_OK);
	assert_int_equal(cmd.verb, PROTO_LOGIN);
	assert_string_equal(cmd.key, "abcdefghijklmnopqrstuvwxyz");
	assert_int_equal(parse_line("login", &cmd), PROTO_OK);
	assert_string_equal(cmd.key, "");
	assert_int_equal(parse_line("LOGIN a b", &cmd), PROTO_OK);
	assert_string_equal(cmd.key, "");
	memset(long_key, 'a', 75);
	memcpy(long_key, "LOGIN ", 6);
	long_key[75] = '\0';	/* a 69-byte key */
	assert_int_equal(parse_line(long_key, &cmd), PROTO_OK);
	assert_string_equal(cmd.key, "");
	assert_int_equal(parse_line("FORGET alice", &cmd), PROTO_OK);
	assert_int_equal(cmd.verb, PROTO_FORGET);
	assert_string_equal(cmd.name, "alice");
	assert_int_equal(parse_line("FORGET", &cmd), PROTO_EBAD_NAME);
	assert_int_equal(parse_line("RATING", &cmd), PROTO_OK);
	assert_int_equal(cmd.verb, PROTO_RATING);
	assert_string_equal(cmd.name, "");
	assert_int_equal(parse_line("rating Bob", &cmd), PROTO_OK);
	assert_string_equal(cmd.name, "Bob");
	assert_int_equal(parse_line("RATING a b", &cmd), PROTO_EBAD_NAME);
	assert_int_equal(parse_line("HISTORY", &cmd), PROTO_OK);
	assert_int_equal(cmd.verb, PROTO_HISTORY);
	assert_int_equal(cmd.count, 10);
	assert_string_equal(cmd.name, "");
	assert_int_equal(parse_line("HISTORY 5", &cmd), PROTO_OK);
	assert_int_equal(cmd.count, 5);
	assert_string_equal(cmd.name, "");
	assert_int_equal(parse_line("HISTORY bob 100", &cmd), PROTO_OK);
	assert_int_equal(cmd.count, 100);
	assert_string_equal(cmd.name, "bob");
	assert_int_equal(parse_line("HISTORY bob", &cmd), PROTO_OK);
	assert_int_equal(cmd.count, 10);
	assert_string_equal(cmd.name, "bob");
	assert_int_equal(parse_line("HISTORY bob 101", &cmd), PROTO_EBAD_COUNT);
	assert_int_equal(parse_line("HISTORY bob 0", &cmd), PROTO_EBAD_COUNT);
	assert_int_equal(parse_line("HISTORY 0010", &cmd), PROTO_EBAD_COUNT);
	assert_int_equal(parse_line("HISTORY a b", &cmd), PROTO_EBAD_NAME);
	assert_int_equal(parse_line("HISTORY a 5 6", &cmd), PROTO_EBAD_NAME);
	assert_int_equal(parse_line("TOP", &cmd), PROTO_OK);
	assert_int_equal(cmd.verb, PROTO_TOP);
	assert_int_equal(cmd.count, 10);
	assert_int_equal(parse_line("TOP 3", &cmd), PROTO_OK);
	assert_int_equal(cmd.count, 3);
	assert_int_equal(parse_line("TOP bob", &cmd), PROTO_EBAD_COUNT);
	assert_int_equal(parse_line("TOP 1000", &cmd), PROTO_EBAD_COUNT);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_verbs_any_case),
		cmocka_unit_test(test_parse_move_every_cell),
		cmocka_unit_test(test_parse_blanks),
		cmocka_unit_test(test_parse_blank_line_is_none),
		cmocka_unit_test(test_parse_bare_cell_and_answer),
		cmocka_unit_test(test_parse_bare_no_is_answer_not_cell),
		cmocka_unit_test(test_parse_bad_cell),
		cmocka_unit_test(test_parse_bad_answer),
		cmocka_unit_test(test_parse_name),
		cmocka_unit_test(test_parse_name_utf8),
		cmocka_unit_test(test_parse_name_valid),
		cmocka_unit_test(test_parse_unknown_command),
		cmocka_unit_test(test_parse_extra_words_ignored),
		cmocka_unit_test(test_parse_line_length_limit),
		cmocka_unit_test(test_parse_bad_char),
		cmocka_unit_test(test_parse_error_precedence),
		cmocka_unit_test(test_parse_scan),
		cmocka_unit_test(test_parse_scan_then_parse_limit),
		cmocka_unit_test(test_parse_http),
		cmocka_unit_test(test_parse_room),
		cmocka_unit_test(test_parse_room_bad),
		cmocka_unit_test(test_parse_games_unwatch_resign),
		cmocka_unit_test(test_parse_watch),
		cmocka_unit_test(test_parse_resume),
		cmocka_unit_test(test_parse_play),
		cmocka_unit_test(test_parse_accounts),
		cmocka_unit_test(test_parse_say),
		cmocka_unit_test(test_parse_say_length),
		cmocka_unit_test(test_parse_say_length_characters),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
