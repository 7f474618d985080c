/*
 * test_e2e_accounts_pg.c -- accounts on PostgreSQL (issue 27) on the real
 * tttd with --db postgresql://... against a real postgres of the test's
 * own (pg_proc.c): the same lines as on SQLite, and PostgreSQL stopped
 * mid-game and started again.
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

#include "harness.h"
#include "e2e_fix.h"
#include "e2e_line.h"
#include "pg_proc.h"

#define SEND(c, ...)		line_send_at(__LINE__, (c), __VA_ARGS__)
#define WANT_PREFIX(c, p, o)	line_want_prefix_at(__LINE__, (c), (p), (o), \
				    sizeof (o))
#define REGISTER(c, n, k)	pga_register_at(__LINE__, (c), (n), (k))

#define E_DOWN		"ERR ACCOUNTS_DOWN The accounts cannot be reached " \
			"now; try again later."
#define T_UNRATED	"INFO This game is not rated: the accounts cannot " \
			"be written now."

static struct pg_proc	pg;

/* --db and the URI of the test's database. */
static const char *const *
pga_args(void)
{
	static char		 uri[160];
	static const char	*args[] = { "--db", uri, NULL };

	pg_proc_uri(&pg, "tttd", uri, sizeof uri);
	return (args);
}

/* NAME n, REGISTER: OK REGISTER n, and its key into key (64 bytes). */
static void
pga_register_at(int ln, struct conn *c, const char *name, char *key)
{
	char	line[LINE_SIZE];

	line_send_at(ln, c, "NAME %s", name);
	line_want_at(ln, 0, c, "OK NAME %s", name);
	line_send_at(ln, c, "REGISTER");
	line_want_at(ln, 0, c, "OK REGISTER %s", name);
	line_want_prefix_at(ln, c, "KEY ", line, sizeof line);
	if (sscanf(line, "KEY %63s", key) != 1 || strlen(key) != 26)
		fail_msg("line %d: no key in \"%s\"", ln, line);
}

/* Both have START: p[0] the one who moves first (named na or nb). */
static void
pga_started(struct conn *a, struct conn *b, const char *na,
    struct conn *p[2])
{
	char	line[LINE_SIZE];

	expect_skip_to(a, "START ", line, sizeof line);
	expect_skip_to(b, "START ", NULL, 0);
	p[0] = strncmp(line + 8, na, strlen(na)) == 0 &&
	    line[8 + strlen(na)] == ' ' ? a : b;
	p[1] = p[0] == a ? b : a;
}

/* A player greeted, then alone in a room of its own: never paired. */
static struct conn *
pga_parked(struct e2e *e, struct tttd_proc *tp)
{
	struct conn	*c = CONNECT(e, tp);
	char		 line[LINE_SIZE];

	SEND(c, "ROOM NEW");
	WANT_PREFIX(c, "OK ROOM ", line);
	WANT_PREFIX(c, "WAIT ", line);
	return (c);
}

/* p[0] wins down column B from move i on; both read up to RESULT. */
static void
pga_play_win(struct conn *p[2], int from)
{
	static const char	*moves[] = { "B1", "A1", "B2", "A2", "B3" };
	int			 i;

	for (i = from; i < 5; i++) {
		conn_send(p[i % 2], moves[i]);
		expect_skip_to(p[i % 2], "OK MOVE", NULL, 0);
	}
	expect_skip_to(p[0], "RESULT WIN ", NULL, 0);
	expect_skip_to(p[1], "RESULT WIN ", NULL, 0);
}

/* After RESULT: the score, AGAIN?, then want. */
static void
pga_after_result(struct conn *c, const char *want)
{
	char	line[LINE_SIZE];

	WANT_PREFIX(c, "INFO Score: ", line);
	WANT_PREFIX(c, "AGAIN? ", line);
	WANT_PREFIX(c, want, line);
}

/*
 * The lines of SQLite's test_accounts_rated_game, on PostgreSQL: the
 * ratings after a game (+241, -241), RATING, HISTORY, TOP, LOGIN; and the
 * same accounts through a keyword string after a restart of tttd.
 */
static void
test_pg_rated_game(void **state)
{
	struct e2e		*e = *state;
	struct tttd_proc	*tp = e2e_server(e, pga_args());
	struct conn		*a = CONNECT(e, tp), *b = CONNECT(e, tp), *c;
	struct conn		*p[2];
	char			 ka[64], kb[64], line[LINE_SIZE], kw[160];
	const char		*args[] = { "--db", kw, NULL };

	REGISTER(a, "alice", ka);
	REGISTER(b, "bob", kb);
	pga_started(a, b, "alice", p);
	pga_play_win(p, 0);
	pga_after_result(p[0], "INFO Your rating: 1741? (+241).");
	pga_after_result(p[1], "INFO Your rating: 1259? (-241).");
	SEND(a, "RATING %s", p[0] == a ? "alice" : "bob");
	WANT(a, "OK RATING %s 1741? 397 1 1 0 0", p[0] == a ? "alice" : "bob");
	SEND(a, "HISTORY bob");
	WANT(a, "OK HISTORY 1");
	WANT_PREFIX(a, "PLAYED 1.1 ", line);
	if (strstr(line, " B1,A1,B2,A2,B3") == NULL)
		fail_msg("%s", line);
	SEND(a, "TOP");
	WANT(a, "OK TOP 0");
	c = CONNECT(e, tp);
	SEND(c, "LOGIN %s", kb);
	WANT_PREFIX(c, "OK LOGIN bob ", line);
	e2e_stop(e, tp);

	snprintf(kw, sizeof kw, "host=127.0.0.1 port=%d user=tttd "
	    "dbname=tttd", pg.port);
	tp = e2e_server(e, args);
	c = CONNECT(e, tp);
	SEND(c, "RATING %s", p[0] == a ? "alice" : "bob");
	WANT(c, "OK RATING %s 1741? 397 1 1 0 0", p[0] == a ? "alice" : "bob");
	SEND(c, "NAME alice");
	WANT(c, "ERR NAME_TAKEN That name is taken; choose another.");
	assert_int_equal(pg_proc_int(&pg, "tttd",
	    "SELECT count(*) FROM games"), 1);
	e2e_stop(e, tp);
}

/*
 * PostgreSQL stopped mid-game: the game goes on and ends unrated with
 * the INFO; LOGIN is told to try later; a guest's game is as ever; once
 * PostgreSQL is back, LOGIN works and the rematch is rated.
 */
static void
test_pg_down_mid_game(void **state)
{
	struct e2e		*e = *state;
	struct tttd_proc	*tp = e2e_server(e, pga_args());
	struct conn		*a, *b, *c;
	struct conn		*p[2];
	char			 ka[64], kb[64], ke[64], line[LINE_SIZE];
	int			 i;

	c = pga_parked(e, tp);
	REGISTER(c, "erin", ke);
	SEND(c, "QUIT");
	expect_skip_to(c, "BYE ", NULL, 0);
	a = CONNECT(e, tp);
	b = CONNECT(e, tp);
	REGISTER(a, "carol", ka);
	REGISTER(b, "dave", kb);
	pga_started(a, b, "carol", p);
	conn_send(p[0], "B1");
	expect_skip_to(p[0], "OK MOVE", NULL, 0);
	pg_proc_stop(&pg);
	pga_play_win(p, 1);
	pga_after_result(p[0], T_UNRATED);
	pga_after_result(p[1], T_UNRATED);
	c = pga_parked(e, tp);
	SEND(c, "LOGIN %s", ke);
	WANT(c, E_DOWN);

	assert_int_equal(pg_proc_restart(&pg), 0);
	/* Back within the backoff (5 s at most): 300 tries, 0.1 s apart. */
	for (i = 0; i < 300; i++) {
		SEND(c, "RATING dave");
		if (conn_line(c, line, sizeof line, 10000) <= 0)
			fail_msg("no answer to RATING");
		if (strncmp(line, "OK RATING dave ", 15) == 0)
			break;
		if (strcmp(line, E_DOWN) != 0)
			fail_msg("RATING dave: %s", line);
		usleep(100 * 1000);
	}
	assert_true(i < 300);
	SEND(c, "LOGIN %s", ke);
	WANT_PREFIX(c, "OK LOGIN erin ", line);
	SEND(c, "QUIT");
	expect_skip_to(c, "BYE ", NULL, 0);
	SEND(a, "y");
	SEND(b, "y");
	pga_started(a, b, "carol", p);
	pga_play_win(p, 0);
	pga_after_result(p[0], "INFO Your rating: ");
	pga_after_result(p[1], "INFO Your rating: ");
	assert_int_equal(pg_proc_int(&pg, "tttd",
	    "SELECT count(*) FROM games WHERE number = 2"), 1);
	e2e_stop(e, tp);
}

/* The run's PostgreSQL. */
static int
pga_group_setup(void **state)
{
	(void)state;
	return (pg_proc_start(&pg));
}

static int
pga_group_teardown(void **state)
{
	(void)state;
	pg_proc_destroy(&pg);
	return (0);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test_setup_teardown(test_pg_rated_game,
		    e2e_setup, e2e_teardown),
		cmocka_unit_test_setup_teardown(test_pg_down_mid_game,
		    e2e_setup, e2e_teardown),
	};

	return (cmocka_run_group_tests(tests, pga_group_setup,
	    pga_group_teardown));
}
