/*
 * test_e2e_api.c -- the read-only JSON API (protocol.md §10.3) on the
 * real tttd with --db on a file of the test's own and --http-port: the
 * numbers of a rated game played over TCP, read back with GET over a
 * real socket; the leaderboard; names percent-decoded and folded; the
 * errors; --db none; and a client gone before the store's answer.
 */
#include <sys/types.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <sqlite3.h>

#include "harness.h"
#include "e2e_fix.h"
#include "e2e_line.h"
#include "ws_client.h"

#define SEND(c, ...)		line_send_at(__LINE__, (c), __VA_ARGS__)
#define GET(tp, p, s, b)	api_want_at(__LINE__, (tp), (p), (s), (b))
#define API_OUT			65536

#define B_NO_PLAYER	"{\"error\":\"NO_SUCH_PLAYER\",\"message\":\"No " \
			"account has that name.\"}\n"
#define B_BAD_COUNT	"{\"error\":\"BAD_COUNT\",\"message\":\"Ask for 1 " \
			"to 100 lines.\"}\n"
#define B_BAD_NAME	"{\"error\":\"BAD_NAME\",\"message\":\"A name is " \
			"1 to 16 letters, digits, '_' or '-'.\"}\n"
#define B_NO_ACCOUNTS	"{\"error\":\"NO_ACCOUNTS\",\"message\":\"This " \
			"server keeps no accounts: everyone plays as a " \
			"guest.\"}\n"
#define B_NOT_FOUND	"{\"error\":\"NOT_FOUND\",\"message\":\"There is " \
			"no such path: the API has /api/top, " \
			"/api/player/<name> and /api/player/<name>/games.\"}\n"

/* A directory of the test's own, removed at the end. */
static char	api_dir[64];
static char	api_out[API_OUT];

/* The arguments of a server on the test's own file, with HTTP. */
static const char *const *
api_args(void)
{
	static char		 path[128];
	static const char	*args[] = { "--db", path, "--http-port", "any",
				    "--log-level", "debug", NULL };

	snprintf(path, sizeof path, "%s/t.db", api_dir);
	return (args);
}

/* GET path over a real socket: the response to EOF in api_out; status. */
static int
api_get(struct tttd_proc *tp, const char *path)
{
	char	req[512];
	int	n;

	n = snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: t\r\n\r\n",
	    path);
	n = http_fetch(tp->http_port, req, (size_t)n, api_out, sizeof api_out);
	if (n < 12 || strncmp(api_out, "HTTP/1.1 ", 9) != 0)
		fail_msg("no HTTP response to GET %s: \"%s\"", path, api_out);
	return (atoi(api_out + 9));
}

/*
 * GET path: this status, the JSON API's headers (JSON in UTF-8, not
 * stored, open to any origin, the body's length) and exactly this body.
 * The body's address, in api_out.
 */
static const char *
api_want_at(int ln, struct tttd_proc *tp, const char *path, int status,
    const char *body)
{
	static const char *const	heads[] = {
		"\r\nContent-Type: application/json; charset=utf-8\r\n",
		"\r\nCache-Control: no-store\r\n",
		"\r\nAccess-Control-Allow-Origin: *\r\n",
		"\r\nConnection: close\r\n"
	};
	const char			*b;
	char				 cl[64];
	size_t				 i;
	int				 got = api_get(tp, path);

	if (got != status)
		fail_msg("line %d: GET %s: %d, not %d:\n%s", ln, path, got,
		    status, api_out);
	if ((b = strstr(api_out, "\r\n\r\n")) == NULL)
		fail_msg("line %d: GET %s: no end of headers", ln, path);
	b += 4;
	for (i = 0; i < sizeof heads / sizeof heads[0]; i++)
		if (strstr(api_out, heads[i]) == NULL)
			fail_msg("line %d: GET %s: no \"%s\" in:\n%s", ln, path,
			    heads[i] + 2, api_out);
	snprintf(cl, sizeof cl, "\r\nContent-Length: %zu\r\n", strlen(b));
	if (strstr(api_out, cl) == NULL)
		fail_msg("line %d: GET %s: no \"%s\":\n%s", ln, path, cl + 2,
		    api_out);
	if (body != NULL && strcmp(b, body) != 0)
		fail_msg("line %d: GET %s: body\n%s\nnot\n%s", ln, path, b,
		    body);
	return (b);
}

/* NAME n, REGISTER: OK REGISTER n and its key. */
static void
api_register_at(int ln, struct conn *c, const char *name)
{
	char	line[LINE_SIZE];

	line_send_at(ln, c, "NAME %s", name);
	line_want_at(ln, 0, c, "OK NAME %s", name);
	line_send_at(ln, c, "REGISTER");
	line_want_at(ln, 0, c, "OK REGISTER %s", name);
	line_want_prefix_at(ln, c, "KEY ", line, sizeof line);
}

/*
 * a and b paired: p[0] moves first (its name n[0]), p[1] second; the
 * mark of the first, 'X' or 'O'.
 */
static char
api_paired(struct conn *a, struct conn *b, const char *na, const char *nb,
    struct conn *p[2], const char *n[2])
{
	char	line[LINE_SIZE];

	expect_skip_to(a, "START ", line, sizeof line);
	expect_skip_to(b, "START ", NULL, 0);
	/* "START X alice (X) moves first." */
	p[0] = strncmp(line + 8, na, strlen(na)) == 0 &&
	    line[8 + strlen(na)] == ' ' ? a : b;
	p[1] = p[0] == a ? b : a;
	n[0] = p[0] == a ? na : nb;
	n[1] = p[0] == a ? nb : na;
	return (line[6]);
}

/* The first wins down column B; both read up to their new ratings. */
static void
api_play_win(struct conn *p[2])
{
	static const char	*moves[] = { "B1", "A1", "B2", "A2", "B3" };
	int			 i;

	for (i = 0; i < 5; i++) {
		conn_send(p[i % 2], moves[i]);
		expect_skip_to(p[i % 2], "OK MOVE", NULL, 0);
	}
	expect_skip_to(p[0], "INFO Your rating: 1741? (+241).", NULL, 0);
	expect_skip_to(p[1], "INFO Your rating: 1259? (-241).", NULL, 0);
}

/*
 * A history's body with its one game's time checked (UTC, ISO 8601) and
 * put as "T" (it is the game's end: now), into buf.
 */
static void
api_untimed(const char *body, char *buf, size_t size)
{
	const char	*t = strstr(body, "\"time\":\"");
	size_t		 head;

	if (t == NULL)
		fail_msg("no time in %s", body);
	t += 8;
	if (strlen(t) < 21 || t[4] != '-' || t[7] != '-' || t[10] != 'T' ||
	    t[13] != ':' || t[16] != ':' || t[19] != 'Z' || t[20] != '"')
		fail_msg("not a UTC time: %s", body);
	head = (size_t)(t - body);
	snprintf(buf, size, "%.*sT%s", (int)head, body, t + 20);
}

/*
 * Two players register over TCP and play a rated game: GET
 * /api/player/<name> has RATING's numbers (1741? 397 1 1 0 0 and 1259?
 * 397 1 0 1 0, provisional), /games has HISTORY's game with its id, time,
 * moves and ratings, /api/top nothing yet (both provisional); a name in
 * another case is the same player; n is bounded.
 */
static void
test_api_rated_game(void **state)
{
	struct e2e		*e = *state;
	struct tttd_proc	*tp = e2e_server(e, api_args());
	struct conn		*a = CONNECT(e, tp), *b = CONNECT(e, tp);
	struct conn		*p[2];
	const char		*n[2], *body;
	char			 want[2048], path[128], untimed[2048], m;
	int			 i, x;

	api_register_at(__LINE__, a, "alice");
	api_register_at(__LINE__, b, "bob");
	m = api_paired(a, b, "alice", "bob", p, n);
	x = m == 'X' ? 0 : 1;		/* n[x] plays X */
	api_play_win(p);
	snprintf(want, sizeof want, "{\"name\":\"%s\",\"rating\":1741,"
	    "\"rd\":397,\"provisional\":true,\"games\":1,\"wins\":1,"
	    "\"losses\":0,\"ties\":0}\n", n[0]);
	snprintf(path, sizeof path, "/api/player/%s", n[0]);
	GET(tp, path, 200, want);
	GET(tp, strcmp(n[0], "alice") == 0 ? "/api/player/ALICE" :
	    "/api/player/Bob", 200, want);
	snprintf(want, sizeof want, "{\"name\":\"%s\",\"rating\":1259,"
	    "\"rd\":397,\"provisional\":true,\"games\":1,\"wins\":0,"
	    "\"losses\":1,\"ties\":0}\n", n[1]);
	snprintf(path, sizeof path, "/api/player/%s", n[1]);
	GET(tp, path, 200, want);
	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof path, "/api/player/%s/games%s", n[i],
		    i == 0 ? "" : "?n=1");
		body = GET(tp, path, 200, NULL);
		api_untimed(body, untimed, sizeof untimed);
		snprintf(want, sizeof want, "{\"name\":\"%s\",\"games\":["
		    "{\"id\":\"1.1\",\"time\":\"T\",\"x\":\"%s\",\"o\":\"%s\","
		    "\"result\":\"%c\",\"ended\":\"line\",\"moves\":[\"B1\","
		    "\"A1\",\"B2\",\"A2\",\"B3\"],\"ratings\":{\"x\":"
		    "{\"before\":1500,\"after\":%s},\"o\":"
		    "{\"before\":1500,\"after\":%s}}}]}\n",
		    n[i], n[x], n[1 - x], m, x == 0 ?
		    "1741,\"change\":241" : "1259,\"change\":-241", x == 0 ?
		    "1259,\"change\":-241" : "1741,\"change\":241");
		assert_string_equal(untimed, want);
	}
	GET(tp, "/api/top", 200, "{\"players\":[]}\n");
	GET(tp, "/api/player/alice/games?n=101", 400, B_BAD_COUNT);
	GET(tp, "/api/player/alice/games?n=0", 400, B_BAD_COUNT);
	e2e_stop(e, tp);
}

/* Run SQL on a file as sqlite3 would. */
static void
api_sql(const char *sql)
{
	sqlite3	*db;
	char	 path[128];

	snprintf(path, sizeof path, "%s/t.db", api_dir);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
}

/*
 * GET /api/top: TOP's accounts (not provisional), best first, n of them;
 * an established account is not provisional, a new one is; a name with
 * letters beyond ASCII, percent-encoded in another case, is found.
 */
static void
test_api_top(void **state)
{
	struct e2e		*e = *state;
	struct tttd_proc	*tp = e2e_server(e, api_args());
	struct conn		*z;

	e2e_stop(e, tp);		/* the schema made */
	api_sql("INSERT INTO accounts (name, fold, key_hash, rating, rd,"
	    " volatility, last_game, games, wins, losses, ties, created)"
	    " VALUES ('carol', 'carol', x'01', 1650.4, 60.2, 0.06,"
	    "  unixepoch(), 40, 25, 10, 5, 1),"
	    " ('dave', 'dave', x'02', 1720.6, 50.0, 0.06, unixepoch(), 90,"
	    "  60, 20, 10, 1),"
	    " ('erin', 'erin', x'03', 1900.0, 150.0, 0.06, unixepoch(), 3,"
	    "  3, 0, 0, 1)");
	tp = e2e_server(e, api_args());
	GET(tp, "/api/top", 200, "{\"players\":["
	    "{\"rank\":1,\"name\":\"dave\",\"rating\":1721,\"rd\":50,"
	    "\"provisional\":false,\"games\":90,\"wins\":60,\"losses\":20,"
	    "\"ties\":10},"
	    "{\"rank\":2,\"name\":\"carol\",\"rating\":1650,\"rd\":60,"
	    "\"provisional\":false,\"games\":40,\"wins\":25,\"losses\":10,"
	    "\"ties\":5}]}\n");
	GET(tp, "/api/top?n=1", 200, "{\"players\":["
	    "{\"rank\":1,\"name\":\"dave\",\"rating\":1721,\"rd\":50,"
	    "\"provisional\":false,\"games\":90,\"wins\":60,\"losses\":20,"
	    "\"ties\":10}]}\n");
	GET(tp, "/api/top?n=0", 400, B_BAD_COUNT);
	GET(tp, "/api/top?n=abc", 400, B_BAD_COUNT);
	GET(tp, "/api/player/erin", 200, "{\"name\":\"erin\",\"rating\":1900,"
	    "\"rd\":150,\"provisional\":true,\"games\":3,\"wins\":3,"
	    "\"losses\":0,\"ties\":0}\n");
	z = CONNECT(e, tp);
	api_register_at(__LINE__, z, "Zo\xc3\xab");
	GET(tp, "/api/player/ZO%C3%8B", 200, "{\"name\":\"Zo\xc3\xab\","
	    "\"rating\":1500,\"rd\":500,\"provisional\":true,\"games\":0,"
	    "\"wins\":0,\"losses\":0,\"ties\":0}\n");
	GET(tp, "/api/player/zo%c3%ab/games", 200,
	    "{\"name\":\"Zo\xc3\xab\",\"games\":[]}\n");
	e2e_stop(e, tp);
}

/*
 * Errors, each with its code and text, and nothing changed: an unknown
 * player (404), a name that no name can be (400), a path of no route
 * (404); a method other than GET is 405 as anywhere.
 */
static void
test_api_errors(void **state)
{
	struct e2e		*e = *state;
	struct tttd_proc	*tp = e2e_server(e, api_args());
	static const char	 post[] = "POST /api/top HTTP/1.1\r\nHost: t\r\n"
				    "Content-Length: 0\r\n\r\n";

	GET(tp, "/api/player/nobody", 404, B_NO_PLAYER);
	GET(tp, "/api/player/nobody/games", 404, B_NO_PLAYER);
	GET(tp, "/api/player/no%20body", 400, B_BAD_NAME);
	GET(tp, "/api/player/%zz", 400, B_BAD_NAME);
	GET(tp, "/api/player/abcdefghijklmnopq", 400, B_BAD_NAME);
	GET(tp, "/api/", 404, B_NOT_FOUND);
	GET(tp, "/api/player/bob/wins", 404, B_NOT_FOUND);
	assert_true(http_fetch(tp->http_port, post, sizeof post - 1, api_out,
	    sizeof api_out) > 12);
	assert_memory_equal(api_out, "HTTP/1.1 405 ", 13);
	GET(tp, "/api/top", 200, "{\"players\":[]}\n");
	e2e_stop(e, tp);
}

/* --db none: every route is 503, saying there are no accounts here. */
static void
test_api_db_none(void **state)
{
	struct e2e		*e = *state;
	const char		*args[] = { "--db", "none", "--http-port", "any",
				    NULL };
	struct tttd_proc	*tp = e2e_server(e, args);

	GET(tp, "/api/top", 503, B_NO_ACCOUNTS);
	GET(tp, "/api/player/alice", 503, B_NO_ACCOUNTS);
	GET(tp, "/api/player/alice/games?n=3", 503, B_NO_ACCOUNTS);
	GET(tp, "/api/player/%zz", 400, B_BAD_NAME);
	e2e_stop(e, tp);
}

/* The server's log, read on until it holds text (all of it in log). */
static void
api_log_until(struct tttd_proc *tp, char *log, size_t size, size_t *len,
    const char *text)
{
	long	deadline = harness_now_ms() + HARNESS_START_MS;

	while (strstr(log, text) == NULL) {
		if (harness_now_ms() > deadline || *len >= size - 1)
			fail_msg("no \"%s\" in the log:\n%s", text, log);
		*len += harness_log(tp, log + *len, size - *len);
		usleep(20000);
	}
}

/*
 * A client gone before the store's answer: the test holds the database's
 * write lock, so a player's REGISTER waits on the store's thread and a
 * GET after it waits in the store's queue; the GET's connection is reset
 * and freed; then the lock goes, and the GET's answer must touch nothing
 * (ASan, valgrind) -- the next GET is answered, and tttd stops with 0.
 */
static void
test_api_closed_before_answer(void **state)
{
	struct e2e		*e = *state;
	struct tttd_proc	*tp = e2e_server(e, api_args());
	struct conn		*z = CONNECT(e, tp), *h = e2e_conn(e);
	static const char	 req[] = "GET /api/top HTTP/1.1\r\nHost: t\r\n"
				    "\r\n";
	static char		 log[1 << 16];
	size_t			 len = 0;
	sqlite3			*db;
	char			 path[128], line[LINE_SIZE], id[64];
	const char		*p;

	snprintf(path, sizeof path, "%s/t.db", api_dir);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL,
	    NULL), SQLITE_OK);
	SEND(z, "NAME zed");
	WANT(z, "OK NAME zed");
	SEND(z, "REGISTER");
	api_log_until(tp, log, sizeof log, &len, "line \"REGISTER\"");
	assert_int_equal(conn_open(h, tp->http_port), 0);
	assert_int_equal(conn_write(h, req, sizeof req - 1), 0);
	api_log_until(tp, log, sizeof log, &len, " GET /api/top");
	p = strstr(log, " GET /api/top");
	while (p > log && p[-1] != '\n')
		p--;
	if ((p = strstr(p, "client ")) == NULL ||
	    sscanf(p, "client %63[0-9]", id) != 1)
		fail_msg("no client id in the log:\n%s", log);
	conn_drop(h, 1);
	snprintf(line, sizeof line, "client %s: disconnected", id);
	api_log_until(tp, log, sizeof log, &len, line);
	assert_int_equal(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL),
	    SQLITE_OK);
	sqlite3_close(db);
	WANT(z, "OK REGISTER zed");
	GET(tp, "/api/player/zed", 200, "{\"name\":\"zed\",\"rating\":1500,"
	    "\"rd\":500,\"provisional\":true,\"games\":0,\"wins\":0,"
	    "\"losses\":0,\"ties\":0}\n");
	e2e_stop(e, tp);
}

/* The test's directory, made before and removed after. */
static int
api_setup(void **state)
{
	snprintf(api_dir, sizeof api_dir, "%s/tttd-api.XXXXXX",
	    getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp");
	if (mkdtemp(api_dir) == NULL)
		return (-1);
	return (e2e_setup(state));
}

static int
api_teardown(void **state)
{
	char	cmd[128];
	int	rc = e2e_teardown(state);

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", api_dir);
	if (system(cmd) != 0)
		return (-1);
	return (rc);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test_setup_teardown(test_api_rated_game,
		    api_setup, api_teardown),
		cmocka_unit_test_setup_teardown(test_api_top,
		    api_setup, api_teardown),
		cmocka_unit_test_setup_teardown(test_api_errors,
		    api_setup, api_teardown),
		cmocka_unit_test_setup_teardown(test_api_db_none,
		    api_setup, api_teardown),
		cmocka_unit_test_setup_teardown(test_api_closed_before_answer,
		    api_setup, api_teardown),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
