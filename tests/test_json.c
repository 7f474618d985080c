/*
 * test_json.c -- unit tests for the JSON API's bodies and paths
 * (proto/json.c): exact bodies, strings escaped, empty lists, the
 * provisional flag, snprintf's semantics, and the paths read (names
 * percent-decoded and checked, n= read and bounded).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "json.h"

#define NCASES(a)	(sizeof (a) / sizeof (a)[0])

/* A string as JSON: its exact text, and the length returned. */
static void
want_string(const char *in, const char *want)
{
	char	buf[256];
	int	n = json_string(buf, sizeof buf, in);

	assert_string_equal(buf, want);
	assert_int_equal(n, strlen(want));
}

/*
 * The quote, the backslash and every control are escaped (C0 by name or
 * as \u00XX, DEL too); UTF-8 goes as it is but U+2028 and U+2029
 * (escaped: a body may be pasted into a script); a byte that is no
 * UTF-8 becomes U+FFFD.
 */
static void
test_json_escaping(void **state)
{
	(void)state;
	want_string("alice", "\"alice\"");
	want_string("", "\"\"");
	want_string("a\"b\\c/d", "\"a\\\"b\\\\c/d\"");
	want_string("\n\r\t", "\"\\n\\r\\t\"");
	want_string("\x01\x1f\x7f\x08\x0c", "\"\\u0001\\u001f\\u007f"
	    "\\u0008\\u000c\"");
	want_string("\xc3\xa9l\xc3\xa8ve \xf0\x9f\x98\x80",
	    "\"\xc3\xa9l\xc3\xa8ve \xf0\x9f\x98\x80\"");
	want_string("a\xe2\x80\xa8" "b\xe2\x80\xa9", "\"a\\u2028b\\u2029\"");
	want_string("x\xffy\xc3", "\"x\\ufffdy\\ufffd\"");
	want_string("(deleted)", "\"(deleted)\"");
}

/*
 * snprintf's semantics: the whole length whatever the size, what fits
 * written and NUL-terminated, nothing written with size 0.
 */
static void
test_json_snprintf(void **state)
{
	const struct json_player	p = { "bob", 1259, 397, 1, 1, 0, 1, 0 };
	char				full[256], cut[16];
	int				n;

	(void)state;
	n = json_player(full, sizeof full, &p);
	assert_true(n > 16);
	assert_int_equal(json_player(NULL, 0, &p), n);
	memset(cut, 'z', sizeof cut);
	assert_int_equal(json_player(cut, sizeof cut, &p), n);
	assert_int_equal(strlen(cut), sizeof cut - 1);
	assert_memory_equal(cut, full, sizeof cut - 1);
	assert_int_equal(json_player(cut, 1, &p), n);
	assert_int_equal(cut[0], '\0');
}

/* An account, provisional or not, as RATING shows it. */
static void
test_json_player(void **state)
{
	const struct json_player	a = { "alice", 1741, 397, 1, 1, 1, 0,
					    0 };
	const struct json_player	e = { "\xc3\xa9rin", 1900, 80, 0, 3,
					    2, 0, 1 };
	char				buf[512];

	(void)state;
	json_player(buf, sizeof buf, &a);
	assert_string_equal(buf, "{\"name\":\"alice\",\"rating\":1741,"
	    "\"rd\":397,\"provisional\":true,\"games\":1,\"wins\":1,"
	    "\"losses\":0,\"ties\":0}\n");
	json_player(buf, sizeof buf, &e);
	assert_string_equal(buf, "{\"name\":\"\xc3\xa9rin\",\"rating\":1900,"
	    "\"rd\":80,\"provisional\":false,\"games\":3,\"wins\":2,"
	    "\"losses\":0,\"ties\":1}\n");
}

/* The leaderboard: empty, and two places ranked from 1. */
static void
test_json_top(void **state)
{
	const struct json_player	p[2] = {
		{ "erin", 1900, 80, 0, 3, 3, 0, 0 },
		{ "dan", 1650, 100, 0, 9, 5, 3, 1 }
	};
	char				buf[512];

	(void)state;
	assert_int_equal(json_top(buf, sizeof buf, p, 0), 15);
	assert_string_equal(buf, "{\"players\":[]}\n");
	json_top(buf, sizeof buf, p, 2);
	assert_string_equal(buf, "{\"players\":["
	    "{\"rank\":1,\"name\":\"erin\",\"rating\":1900,\"rd\":80,"
	    "\"provisional\":false,\"games\":3,\"wins\":3,\"losses\":0,"
	    "\"ties\":0},"
	    "{\"rank\":2,\"name\":\"dan\",\"rating\":1650,\"rd\":100,"
	    "\"provisional\":false,\"games\":9,\"wins\":5,\"losses\":3,"
	    "\"ties\":1}]}\n");
}

/*
 * A history: empty; a won game (its id, UTC time, moves as an array, the
 * ratings before, after and the change); a forfeit without moves, a tie
 * and a forgotten player's "(deleted)".
 */
static void
test_json_games(void **state)
{
	const struct json_game	g[2] = {
		{ "12", 3, 1795918466LL, { "alice", 1500, 1741 },
		    { "bob", 1500, 1259 }, 'X', "line", "B1,A1,B2,A2,B3" },
		{ "7", 1, 0, { "(deleted)", 1600, 1590 },
		    { "al\"ice", 1400, 1410 }, 'T', "quit", "" }
	};
	char			buf[2048];

	(void)state;
	json_games(buf, sizeof buf, "alice", g, 0);
	assert_string_equal(buf, "{\"name\":\"alice\",\"games\":[]}\n");
	json_games(buf, sizeof buf, "alice", g, 2);
	assert_string_equal(buf, "{\"name\":\"alice\",\"games\":["
	    "{\"id\":\"12.3\",\"time\":\"2026-11-29T02:14:26Z\","
	    "\"x\":\"alice\",\"o\":\"bob\",\"result\":\"X\",\"ended\":\"line\","
	    "\"moves\":[\"B1\",\"A1\",\"B2\",\"A2\",\"B3\"],"
	    "\"ratings\":{\"x\":{\"before\":1500,\"after\":1741,"
	    "\"change\":241},\"o\":{\"before\":1500,\"after\":1259,"
	    "\"change\":-241}}},"
	    "{\"id\":\"7.1\",\"time\":\"1970-01-01T00:00:00Z\","
	    "\"x\":\"(deleted)\",\"o\":\"al\\\"ice\",\"result\":\"TIE\","
	    "\"ended\":\"quit\",\"moves\":[],"
	    "\"ratings\":{\"x\":{\"before\":1600,\"after\":1590,"
	    "\"change\":-10},\"o\":{\"before\":1400,\"after\":1410,"
	    "\"change\":10}}}]}\n");
}

/* An error: its code and its text. */
static void
test_json_error(void **state)
{
	char	buf[256];

	(void)state;
	json_error(buf, sizeof buf, "NO_SUCH_PLAYER",
	    "No account has that name.");
	assert_string_equal(buf, "{\"error\":\"NO_SUCH_PLAYER\","
	    "\"message\":\"No account has that name.\"}\n");
}

/* A path and query, and what json_parse makes of them. */
struct route_case {
	const char		*path;
	const char		*query;
	enum proto_error	 err;
	enum json_route		 route;
	const char		*name;
	int			 n;
};

/*
 * The three routes; names percent-decoded (either case of hex) and
 * checked as NAME checks them; n= read among other pairs, from 1 to
 * 100, default 10; anything else under /api/ is no route (404).
 */
static void
test_json_parse(void **state)
{
	static const struct route_case	cases[] = {
		{ "/api/top", NULL, PROTO_OK, JSON_TOP, "", 10 },
		{ "/api/top", "", PROTO_OK, JSON_TOP, "", 10 },
		{ "/api/top", "n=3", PROTO_OK, JSON_TOP, "", 3 },
		{ "/api/top", "x=1&n=100&y", PROTO_OK, JSON_TOP, "", 100 },
		{ "/api/top", "n=5&n=7", PROTO_OK, JSON_TOP, "", 7 },
		{ "/api/top", "n=0", PROTO_EBAD_COUNT, JSON_TOP, "", 0 },
		{ "/api/top", "n=101", PROTO_EBAD_COUNT, JSON_TOP, "", 0 },
		{ "/api/top", "n=", PROTO_EBAD_COUNT, JSON_TOP, "", 0 },
		{ "/api/top", "n=5x", PROTO_EBAD_COUNT, JSON_TOP, "", 0 },
		{ "/api/top", "n=0005", PROTO_EBAD_COUNT, JSON_TOP, "", 0 },
		{ "/api/top", "n=-1", PROTO_EBAD_COUNT, JSON_TOP, "", 0 },
		{ "/api/player/alice", NULL, PROTO_OK, JSON_PLAYER, "alice",
		    0 },
		{ "/api/player/alice", "n=0", PROTO_OK, JSON_PLAYER, "alice",
		    0 },
		{ "/api/player/%C3%A9l%c3%a8ve", NULL, PROTO_OK, JSON_PLAYER,
		    "\xc3\xa9l\xc3\xa8ve", 0 },
		{ "/api/player/\xc3\xa9lo", NULL, PROTO_OK, JSON_PLAYER,
		    "\xc3\xa9lo", 0 },
		{ "/api/player/%61b", NULL, PROTO_OK, JSON_PLAYER, "ab", 0 },
		{ "/api/player/bob/games", NULL, PROTO_OK, JSON_GAMES, "bob",
		    10 },
		{ "/api/player/bob/games", "n=2", PROTO_OK, JSON_GAMES, "bob",
		    2 },
		{ "/api/player/bob/games", "n=200", PROTO_EBAD_COUNT,
		    JSON_GAMES, "bob", 0 },
		{ "/api/player/%zz", NULL, PROTO_EBAD_NAME, JSON_NONE, "", 0 },
		{ "/api/player/a%2", NULL, PROTO_EBAD_NAME, JSON_NONE, "", 0 },
		{ "/api/player/a%00b", NULL, PROTO_EBAD_NAME, JSON_NONE, "",
		    0 },
		{ "/api/player/a%20b", NULL, PROTO_EBAD_NAME, JSON_NONE, "",
		    0 },
		{ "/api/player/a%2Fb", NULL, PROTO_EBAD_NAME, JSON_NONE, "",
		    0 },
		{ "/api/player/a.b", NULL, PROTO_EBAD_NAME, JSON_NONE, "", 0 },
		{ "/api/player/%C3", NULL, PROTO_EBAD_NAME, JSON_NONE, "", 0 },
		{ "/api/player/abcdefghijklmnopq", NULL, PROTO_EBAD_NAME,
		    JSON_NONE, "", 0 },
		{ "/api/player/%61%61%61%61%61%61%61%61%61%61%61%61%61%61%61"
		    "%61%61%61%61%61%61%61%61%61%61%61%61%61%61%61%61%61%61",
		    NULL, PROTO_EBAD_NAME, JSON_NONE, "", 0 },
		{ "/api/player/abcdefghijklmnop", NULL, PROTO_OK, JSON_PLAYER,
		    "abcdefghijklmnop", 0 },
		{ "/api/", NULL, PROTO_OK, JSON_NONE, "", 0 },
		{ "/api/top/", NULL, PROTO_OK, JSON_NONE, "", 0 },
		{ "/api/player/", NULL, PROTO_OK, JSON_NONE, "", 0 },
		{ "/api/player//games", NULL, PROTO_OK, JSON_NONE, "", 0 },
		{ "/api/player/a/b", NULL, PROTO_OK, JSON_NONE, "", 0 },
		{ "/api/player/a/games/", NULL, PROTO_OK, JSON_NONE, "", 0 },
		{ "/api/players/a", NULL, PROTO_OK, JSON_NONE, "", 0 },
	};
	struct json_req			r;
	size_t				i;

	(void)state;
	for (i = 0; i < NCASES(cases); i++) {
		enum proto_error	e;

		e = json_parse(cases[i].path, cases[i].query, &r);
		if (e != cases[i].err)
			fail_msg("%s?%s: error %d, not %d", cases[i].path,
			    cases[i].query, (int)e, (int)cases[i].err);
		if (e != PROTO_OK)
			continue;
		if (r.route != cases[i].route ||
		    strcmp(r.name, cases[i].name) != 0 ||
		    (r.route != JSON_PLAYER && r.route != JSON_NONE &&
		    r.n != cases[i].n))
			fail_msg("%s?%s: route %d \"%s\" n %d", cases[i].path,
			    cases[i].query, (int)r.route, r.name, r.n);
	}
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_json_escaping),
		cmocka_unit_test(test_json_snprintf),
		cmocka_unit_test(test_json_player),
		cmocka_unit_test(test_json_top),
		cmocka_unit_test(test_json_games),
		cmocka_unit_test(test_json_error),
		cmocka_unit_test(test_json_parse),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
