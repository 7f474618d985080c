/*
 * test_e2e_utf8.c -- people's names and chat in UTF-8, over real sockets
 * against the real tttd (protocol.md §1.5, §3.4, §9.8): names beyond
 * ASCII shown byte for byte in MATCH, INFO, GAME, CHAT and RESULT; names
 * unique in any case, Greek and fullwidth included, and in look-alike
 * letters; names that look empty refused; control, bidi and
 * invalid sequences refused with BAD_CHAR; limits in characters and
 * bytes; the longest names whole in every INFO text the server builds.
 *
 * Names are written as their bytes, with what they spell beside them.
 */
#include <sys/types.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "harness.h"
#include "e2e_fix.h"
#include "e2e_game.h"

#define ZOE		"Zo\xc3\xab"				/* Zoë */
#define ZOE_UP		"ZO\xc3\x8b"				/* ZOË */
#define ZOE_LOW		"zo\xc3\xab"				/* zoë */
#define YANA		"\xd0\xaf\xd0\xbd\xd0\xb0"		/* Яна */
#define SOFIA_UP	"\xce\xa3\xce\x9f\xce\xa6\xce\x8a\xce\x91"	/* ΣΟΦΊΑ */
#define SOFIA		"\xcf\x83\xce\xbf\xcf\x86\xce\xaf\xce\xb1"	/* σοφία */
#define HOLA		"\xc2\xa1hola!"				/* ¡hola! */
#define WATCHER		"\xc3\x91" "and\xc3\xba"		/* Ñandú */
#define E2		"\xc3\xa9\xc3\xa9"			/* éé */
#define E8		E2 E2 E2 E2
#define E16		E8 E8		/* 16 characters, 32 bytes */
#define YA2		"\xd0\xaf\xd0\xaf"			/* ЯЯ */
#define YA16		YA2 YA2 YA2 YA2 YA2 YA2 YA2 YA2
#define ZHE2		"\xd0\xb6\xd0\xb6"			/* жж */
#define ZHE16		ZHE2 ZHE2 ZHE2 ZHE2 ZHE2 ZHE2 ZHE2 ZHE2
#define ZH		"\xe4\xb8\xad"				/* 中 */
#define ZH10		ZH ZH ZH ZH ZH ZH ZH ZH ZH ZH	/* 30 bytes */
#define ALICE_SC	"\xe1\xb4\x80\xca\x9f\xc9\xaa\xe1\xb4\x84\xe1\xb4\x87"
							/* ᴀʟɪᴄᴇ */
#define ARAM		"\xd4\xb1\xd6\x80\xd5\xa1\xd5\xb4"	/* Արամ */
#define ARAM_UP		"\xd4\xb1\xd5\x90\xd4\xb1\xd5\x84"	/* ԱՐԱՄ */
#define ARAM_LOW	"\xd5\xa1\xd6\x80\xd5\xa1\xd5\xb4"	/* արամ */
#define GIORGI_UP	"\xe1\xb2\x92\xe1\xb2\x98\xe1\xb2\x9d" \
			"\xe1\xb2\xa0\xe1\xb2\x92\xe1\xb2\x98"	/* ᲒᲘᲝᲠᲒᲘ */
#define GIORGI		"\xe1\x83\x92\xe1\x83\x98\xe1\x83\x9d" \
			"\xe1\x83\xa0\xe1\x83\x92\xe1\x83\x98"	/* გიორგი */

#define E_BAD_CHAR	"ERR BAD_CHAR Only UTF-8 text without control " \
			"characters is accepted."
#define E_BAD_NAME	"ERR BAD_NAME A name is 1 to 16 letters, digits, " \
			"'_' or '-'."
#define E_BAD_TEXT	"ERR BAD_TEXT A chat line is 1 to 200 characters, " \
			"without TAB."
#define E_BAD_CELL	"ERR BAD_CELL Invalid input. Accepted examples: A1, " \
			"b2, C3."
#define E_UNKNOWN	"ERR UNKNOWN_COMMAND Unknown command. Type HELP for " \
			"the list of commands."
#define E_NAME_TAKEN	"ERR NAME_TAKEN That name is taken; choose another."
#define T_PONG		"OK PONG"

#define QUIET_MS	300
#define GRACE		30

#define SEND(c, ...)		line_send_at(__LINE__, (c), __VA_ARGS__)
#define WANT_PREFIX(c, p, o)	line_want_prefix_at(__LINE__, (c), (p), (o), \
				    sizeof (o))
#define WANT_QUIET(c)		line_want_quiet_at(__LINE__, (c), QUIET_MS)
#define PAIR(s, tp, g, n1)	pair_at(__LINE__, (s), (tp), (g), (n1))
#define RENAME(g, seat, n)	rename_at(__LINE__, (g), (seat), (n))
#define WATCH(s, tp, g)		watch_at(__LINE__, (s), (tp), (g))

static void		 pair_at(int, struct e2e *, struct tttd_proc *,
			    struct game *, const char *);
static size_t		 say_line(char *, size_t, size_t);
static void		 rename_at(int, struct game *, int, const char *);
static unsigned long	 watch_at(int, struct e2e *, struct tttd_proc *,
			    struct game *);

/*
 * Two new connections, paired: x goes by n1 (NULL: p1) before o comes,
 * o is p2.  MATCH, TOKEN, START, BOARD and TURN are read and checked.
 */
static void
pair_at(int ln, struct e2e *s, struct tttd_proc *tp, struct game *g,
    const char *n1)
{
	struct conn	*x, *o;

	x = e2e_connect_at(ln, s, tp);
	if (n1 != NULL) {
		line_send_at(ln, x, "NAME %s", n1);
		line_want_at(ln, 1, x, "OK NAME %s", n1);
	}
	o = e2e_connect_at(ln, s, tp);
	game_init(g, x, o, n1 != NULL ? n1 : "p1", "p2");
	g->grace = GRACE;
	g->art = 1;
	g->plain = 1;
	g->notice_any = 1;
	game_match_at(ln, g);
	game_start_at(ln, g, -1);
}

/* A player of g takes a new name; the other and the watchers are told. */
static void
rename_at(int ln, struct game *g, int seat, const char *name)
{
	int	i;

	line_send_at(ln, g->p[seat], "NAME %s", name);
	line_want_at(ln, 1, g->p[seat], "OK NAME %s", name);
	line_want_at(ln, 1, g->p[!seat], "INFO %s is now known as %s.",
	    g->name[seat], name);
	for (i = 0; i < g->nw; i++)
		line_want_at(ln, 1, g->w[i], "INFO %s is now known as %s.",
		    g->name[seat], name);
	snprintf(g->name[seat], sizeof g->name[seat], "%s", name);
}

/* "SAY " and two-byte é characters, then ASCII a's: its length. */
static size_t
say_line(char *buf, size_t two, size_t one)
{
	size_t	n = 4, i;

	memcpy(buf, "SAY ", 4);
	for (i = 0; i < two; i++) {
		buf[n++] = '\xc3';
		buf[n++] = '\xa9';
	}
	for (i = 0; i < one; i++)
		buf[n++] = 'a';
	buf[n] = '\0';
	return (n);
}

/*
 * A new connection lists the games (g's is the only one: its names must
 * be there byte for byte), then watches g: its id.
 */
static unsigned long
watch_at(int ln, struct e2e *s, struct tttd_proc *tp, struct game *g)
{
	struct conn	*w = e2e_connect_at(ln, s, tp);
	char		 got[LINE_SIZE], rest[LINE_SIZE];
	unsigned long	 id;
	int		 n = 0;

	line_send_at(ln, w, "GAMES");
	line_want_at(ln, 1, w, "OK GAMES 1");
	line_want_prefix_at(ln, w, "GAME ", got, sizeof got);
	if (sscanf(got, "GAME %lu %n", &id, &n) != 1 || n == 0)
		fail_msg("line %d: bad GAME line \"%s\"", ln, got);
	snprintf(rest, sizeof rest, "%s %s 0", g->name[0], g->name[1]);
	if (strcmp(got + n, rest) != 0)
		fail_msg("line %d: \"%s\", want the names \"%s\"", ln, got,
		    rest);
	/* A watcher with a name of its own: the players are told it. */
	line_send_at(ln, w, "NAME " WATCHER);
	line_want_at(ln, 1, w, "OK NAME " WATCHER);
	line_send_at(ln, w, "WATCH %lu", id);
	line_want_at(ln, 1, w, "OK WATCH %lu", id);
	line_want_at(ln, 1, w, "INFO You are watching game %lu: %s (X) "
	    "against %s (O).", id, g->name[0], g->name[1]);
	game_want_board_at(ln, w, g->cells);
	line_want_at(ln, 1, w, "TURN %c Waiting for %s to move...",
	    game_mark(g->turn), g->name[g->turn]);
	game_watched_at(ln, g, WATCHER, "is watching");
	g->w[g->nw++] = w;
	return (id);
}

/*
 * NAME Zoë: OK NAME Zoë, and the opponent's MATCH says Zoë byte for byte;
 * an opponent's rename, GAMES, the watcher's INFO, SAY ¡hola! relayed to
 * the opponent and the watcher, RESIGN's RESULT: all the exact bytes.
 */
static void
test_utf8_names_and_chat_shown_exactly(void **state)
{
	struct e2e		*s = *state;
	struct tttd_proc	*tp = e2e_server(s, NULL);
	struct game		 g;
	int			 i;

	PAIR(s, tp, &g, ZOE);		/* o's MATCH: "MATCH O Zoë ..." */
	RENAME(&g, 1, YANA);
	WATCH(s, tp, &g);

	SEND(g.p[0], "SAY " HOLA);
	WANT_RAW(g.p[0], "OK SAY");
	WANT_RAW(g.p[1], "CHAT " ZOE " " HOLA);
	WANT_RAW(g.w[0], "CHAT " ZOE " " HOLA);
	SEND(g.p[1], "SAY \xe4\xbd\xa0\xe5\xa5\xbd \xf0\x9f\x98\x80");
	WANT_RAW(g.p[1], "OK SAY");
	WANT_RAW(g.p[0], "CHAT " YANA " \xe4\xbd\xa0\xe5\xa5\xbd "
	    "\xf0\x9f\x98\x80");				/* 你好 😀 */
	WANT_RAW(g.w[0], "CHAT " YANA " \xe4\xbd\xa0\xe5\xa5\xbd "
	    "\xf0\x9f\x98\x80");

	SEND(g.p[0], "RESIGN");
	WANT_RAW(g.p[0], "OK RESIGN");
	for (i = 0; i < 2; i++) {
		WANT_RAW(g.p[i], "RESULT WIN O " YANA " " ZOE " resigned.");
		WANT_RAW(g.p[i], "INFO Score: " ZOE " 0, " YANA " 1, ties 0.");
		WANT_RAW(g.p[i], T_AGAIN);
	}
	WANT_RAW(g.w[0], "RESULT WIN O " YANA " " ZOE " resigned.");
	WANT_RAW(g.w[0], "INFO Score: " ZOE " 0, " YANA " 1, ties 0.");
	e2e_stop(s, tp);
}

/*
 * One name, one player, in any case: ZOË and zoë are Zoë's while Zoë is
 * connected, σοφία is ΣΟΦΊΑ's; p1, p2 and ai in fullwidth letters are the
 * seats'; a player may respell its own name; a name is free once its
 * player has gone.
 */
static void
test_utf8_name_taken_in_any_case(void **state)
{
	static const char *const taken[] = {
		ZOE_UP, ZOE_LOW, "zo\xc3\x8b",
		"\xef\xbd\x90\xef\xbc\x91",		/* ｐ１ */
		"\xef\xbc\xb0\xef\xbc\x92",		/* Ｐ２ */
		"\xef\xbc\xa1\xef\xbd\x89",		/* Ａｉ */
		"P2", "aI",
	};
	struct e2e		*s = *state;
	struct tttd_proc	*tp = e2e_server(s, NULL);
	struct game		 g;
	size_t			 i;

	PAIR(s, tp, &g, ZOE);
	for (i = 0; i < sizeof taken / sizeof taken[0]; i++) {
		SEND(g.p[1], "NAME %s", taken[i]);
		WANT_RAW(g.p[1], E_NAME_TAKEN);
	}
	WANT_QUIET(g.p[0]);
	/* Zoë herself may write her name in capitals. */
	RENAME(&g, 0, ZOE_UP);
	RENAME(&g, 1, SOFIA_UP);
	SEND(g.p[0], "NAME " SOFIA);
	WANT_RAW(g.p[0], E_NAME_TAKEN);
	/* ΣΟΦΊΑ leaves: the name is free again. */
	SEND(g.p[1], "QUIT");
	WANT_RAW(g.p[1], T_BYE);
	WANT_EOF(g.p[1]);
	WANT_RAW(g.p[0], "INFO " SOFIA_UP " left before the first move. "
	    "No result.");
	WANT_RAW(g.p[0], T_WAIT);
	SEND(g.p[0], "NAME " SOFIA);
	WANT_RAW(g.p[0], "OK NAME " SOFIA);
	e2e_stop(s, tp);
}

/*
 * Names that look empty, hold what is not there, or look like another's
 * (protocol.md §3.4): marks alone, a filler, unassigned code points,
 * U+FFFC and U+FFFD are BAD_NAME; р1 (Cyrillic), 𝐩𝟏 and аі (Cyrillic)
 * are the seats' p1 and ai, ᴀʟɪᴄᴇ and аlice (Cyrillic а) are alice's
 * while she is connected, Armenian and Georgian capitals are their small
 * letters: NAME_TAKEN.  Nothing reaches the opponent; a look-alike of
 * one's own name, or of a name nobody has, is a name.
 */
static void
test_utf8_names_that_look_alike(void **state)
{
	static const char *const bad_name[] = {
		"\xd6\xb0\xd6\xb0\xd6\xb0",		/* ְְְ marks alone */
		"\xe0\xb8\xb1\xe0\xb8\xb4\xe0\xb8\xb5",	/* ัิี Thai signs */
		"\xf0\x96\xbf\xa4",			/* U+16FE4 filler */
		"ab\xf0\x96\xbf\xa4",
		"\xcd\xb8",				/* U+0378 unassigned */
		"x\xf0\x9d\x91\x95",			/* U+1D455 unassigned */
		"\xef\xbf\xbc",			/* U+FFFC */
		"bob\xef\xbf\xbd",			/* U+FFFD */
	};
	static const char *const taken[] = {
		"\xd1\x80\x31",			/* р1, Cyrillic er */
		"\xf0\x9d\x90\xa9\xf0\x9d\x9f\x8f",	/* 𝐩𝟏 */
		"\xd0\xb0\xd1\x96",			/* аі, Cyrillic */
		"P1", "pl",
		ALICE_SC, "\xd0\xb0lice", "ALICE",	/* alice's */
	};
	struct e2e		*s = *state;
	struct tttd_proc	*tp = e2e_server(s, NULL);
	struct game		 g;
	size_t			 i;

	PAIR(s, tp, &g, "alice");
	for (i = 0; i < sizeof bad_name / sizeof bad_name[0]; i++) {
		SEND(g.p[1], "NAME %s", bad_name[i]);
		WANT_RAW(g.p[1], E_BAD_NAME);
	}
	for (i = 0; i < sizeof taken / sizeof taken[0]; i++) {
		SEND(g.p[1], "NAME %s", taken[i]);
		WANT_RAW(g.p[1], E_NAME_TAKEN);
	}
	WANT_QUIET(g.p[0]);
	RENAME(&g, 0, ARAM);
	SEND(g.p[1], "NAME " ARAM_UP);
	WANT_RAW(g.p[1], E_NAME_TAKEN);
	SEND(g.p[1], "NAME " ARAM_LOW);
	WANT_RAW(g.p[1], E_NAME_TAKEN);
	RENAME(&g, 1, GIORGI_UP);
	SEND(g.p[0], "NAME " GIORGI);
	WANT_RAW(g.p[0], E_NAME_TAKEN);
	/* One's own name in capitals; alice, now free, in small ones. */
	RENAME(&g, 0, ARAM_UP);
	RENAME(&g, 1, ALICE_SC);
	e2e_stop(s, tp);
}

/*
 * Bidi controls, C0 and C1 controls, line separators and every kind of
 * invalid UTF-8 (overlong, surrogate, past U+10FFFF, cut short, a stray
 * continuation) are BAD_CHAR, in NAME, SAY or anywhere; invisible
 * characters are BAD_NAME in a name; other commands give their own error
 * for UTF-8 they do not take.  Nothing reaches the opponent, and the
 * connection goes on.
 */
static void
test_utf8_refused_lines(void **state)
{
	static const char *const bad_char[] = {
		"NAME \xe2\x80\xae" "evil",		/* RLO */
		"NAME \xe2\x80\xad" "evil",		/* LRO */
		"SAY \xe2\x81\xa6" "hi\xe2\x81\xa9",	/* LRI ... PDI */
		"SAY hi\xe2\x80\x8f",			/* RLM */
		"SAY hi\xd8\x9c",			/* ALM */
		"NAME \xc0\xbc" "b",			/* '<' in two bytes */
		"SAY \xe0\x80\xbc",			/* '<' in three */
		"SAY \xf0\x80\x80\xbc",			/* '<' in four */
		"NAME \xc1\xbf",			/* overlong DEL */
		"SAY \xed\xa0\x80",			/* a surrogate */
		"SAY \xf4\x90\x80\x80",			/* U+110000 */
		"SAY \xc2\x9b" "31mred",		/* C1 CSI */
		"SAY \xc2\x85",				/* C1 NEL */
		"SAY a\xe2\x80\xa8" "b",		/* LINE SEPARATOR */
		"SAY caf\xc3",				/* cut short */
		"SAY \xa9t\xc3\xa9",			/* stray continuation */
		"NAME \xfe",				/* never in UTF-8 (0xff: telnet) */
		"PING \xe2\x80\xae",
	};
	static const char *const bad_name[] = {
		"bob\xe2\x80\x8b",			/* ZWSP */
		"b\xe2\x80\x8d" "ob",			/* ZWJ */
		"\xe2\x81\xa0" "bob",			/* WORD JOINER */
		"\xef\xbb\xbf" "bob",			/* BOM */
		"b\xc2\xad" "ob",			/* SOFT HYPHEN */
		"Mary\xc2\xa0" "Ann",			/* NO-BREAK SPACE */
		"Zoe\xcc\x88",				/* e + COMBINING DIAERESIS */
		"\xe3\x85\xa4",				/* HANGUL FILLER */
		"\xee\x80\x80",				/* private use */
		ZOE "!",				/* ASCII punctuation */
	};
	struct e2e		*s = *state;
	struct tttd_proc	*tp = e2e_server(s, NULL);
	struct game		 g;
	size_t			 i;

	PAIR(s, tp, &g, NULL);
	for (i = 0; i < sizeof bad_char / sizeof bad_char[0]; i++) {
		SEND(g.p[0], "%s", bad_char[i]);
		WANT_RAW(g.p[0], E_BAD_CHAR);
	}
	for (i = 0; i < sizeof bad_name / sizeof bad_name[0]; i++) {
		SEND(g.p[0], "NAME %s", bad_name[i]);
		WANT_RAW(g.p[0], E_BAD_NAME);
	}
	SEND(g.p[0], "MOVE \xc3\xa9");
	WANT_RAW(g.p[0], E_BAD_CELL);
	SEND(g.p[0], "\xc3\xa9\xc3\xa9");	/* a bare word of two */
	WANT_RAW(g.p[0], E_BAD_CELL);
	SEND(g.p[0], "\xc3\xa9");		/* of one */
	WANT_RAW(g.p[0], E_UNKNOWN);
	WANT_QUIET(g.p[1]);
	SEND(g.p[0], "PING");
	WANT_RAW(g.p[0], T_PONG);
	e2e_stop(s, tp);
}

/*
 * Limits in characters and bytes: 16 characters of two bytes (32 bytes)
 * are a name, 17 are not; ten of three bytes (30) are, eleven (33) are
 * not.  SAY: 200 characters (252 bytes) pass the text check, so the
 * answer is NO_GAME for a player in the queue; 201 are BAD_TEXT.
 */
static void
test_utf8_limits_in_characters(void **state)
{
	struct e2e		*s = *state;
	struct tttd_proc	*tp = e2e_server(s, NULL);
	struct conn		*c = CONNECT(s, tp);
	char			 say[300];

	SEND(c, "NAME " E16);
	WANT_RAW(c, "OK NAME " E16);
	SEND(c, "NAME " E16 "\xc3\xa9");
	WANT_RAW(c, E_BAD_NAME);
	SEND(c, "NAME " ZH10);
	WANT_RAW(c, "OK NAME " ZH10);
	SEND(c, "NAME " ZH10 ZH);
	WANT_RAW(c, E_BAD_NAME);
	SEND(c, "NAME abcdefghijklmno\xc3\xa9");
	WANT_RAW(c, "OK NAME abcdefghijklmno\xc3\xa9");
	SEND(c, "NAME abcdefghijklmnop\xc3\xa9");
	WANT_RAW(c, E_BAD_NAME);

	/* 200 characters, 252 bytes: the longest line. */
	assert_int_equal(say_line(say, 52, 148), 256);
	SEND(c, "%s", say);
	WANT_RAW(c, E_NO_GAME);
	/* 152 characters, 204 bytes: over 200 bytes, under 200 characters. */
	assert_int_equal(say_line(say, 52, 100), 208);
	SEND(c, "%s", say);
	WANT_RAW(c, E_NO_GAME);
	/* 201 characters, 252 bytes. */
	assert_int_equal(say_line(say, 51, 150), 256);
	SEND(c, "%s", say);
	WANT_RAW(c, E_BAD_TEXT);
	e2e_stop(s, tp);
}

/*
 * The longest names (16 characters, 32 bytes each) come whole in every
 * line that names the players, those the server writes into a text of
 * its own among them: the rename, the watcher's INFO, the lost
 * connection, "is back" after RESUME, the resignation, "left the match"
 * and the watchers' end of the game.
 */
static void
test_utf8_longest_names_whole(void **state)
{
	struct e2e		*s = *state;
	struct tttd_proc	*tp = e2e_server(s, NULL);
	struct game		 g;
	struct conn		*n;
	char			 got[LINE_SIZE], tok[16];
	unsigned long		 id;
	int			 i;

	PAIR(s, tp, &g, E16);
	RENAME(&g, 1, YA16);
	RENAME(&g, 1, ZHE16);
	id = WATCH(s, tp, &g);

	/* O drops, then comes back with its token. */
	snprintf(tok, sizeof tok, "%s", g.token[1]);
	conn_close(g.p[1]);
	WANT_RAW(g.p[0], "INFO " ZHE16 " lost the connection. Waiting up to "
	    "30 seconds for them to come back.");
	WANT_RAW(g.w[0], "INFO " ZHE16 " lost the connection. Waiting up to "
	    "30 seconds for them to come back.");
	n = CONNECT(s, tp);
	SEND(n, "RESUME %s", tok);
	WANT_RAW(n, "OK RESUME");
	WANT_RAW(n, "MATCH O " E16 " You play O against " E16 ".");
	game_want_board_at(__LINE__, n, g.cells);
	WANT_PREFIX(n, "TURN ", got);
	WANT_PREFIX(n, "TOKEN ", got);
	WANT_RAW(g.p[0], "INFO " ZHE16 " is back.");
	WANT_RAW(g.w[0], "INFO " ZHE16 " is back.");
	g.p[1] = n;

	SEND(g.p[0], "RESIGN");
	WANT_RAW(g.p[0], "OK RESIGN");
	for (i = 0; i < 2; i++) {
		WANT_RAW(g.p[i], "RESULT WIN O " ZHE16 " " E16 " resigned.");
		WANT_RAW(g.p[i], "INFO Score: " E16 " 0, " ZHE16 " 1, ties "
		    "0.");
		WANT_RAW(g.p[i], T_AGAIN);
	}
	WANT_RAW(g.w[0], "RESULT WIN O " ZHE16 " " E16 " resigned.");
	WANT_RAW(g.w[0], "INFO Score: " E16 " 0, " ZHE16 " 1, ties 0.");
	SEND(g.p[0], "QUIT");
	WANT_RAW(g.p[0], T_BYE);
	WANT_EOF(g.p[0]);
	WANT_RAW(g.p[1], "INFO " E16 " left the match.");
	WANT_RAW(g.w[0], "INFO Game %lu is over.", id);
	e2e_stop(s, tp);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
		    test_utf8_names_and_chat_shown_exactly, e2e_setup,
		    e2e_teardown),
		cmocka_unit_test_setup_teardown(
		    test_utf8_name_taken_in_any_case, e2e_setup, e2e_teardown),
		cmocka_unit_test_setup_teardown(
		    test_utf8_names_that_look_alike, e2e_setup, e2e_teardown),
		cmocka_unit_test_setup_teardown(test_utf8_refused_lines,
		    e2e_setup, e2e_teardown),
		cmocka_unit_test_setup_teardown(test_utf8_limits_in_characters,
		    e2e_setup, e2e_teardown),
		cmocka_unit_test_setup_teardown(test_utf8_longest_names_whole,
		    e2e_setup, e2e_teardown),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
