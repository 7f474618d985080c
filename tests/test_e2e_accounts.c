/*
 * test_e2e_accounts.c -- accounts, ratings, history and the leaderboard
 * (issue 25) on the real tttd with --db on a file of the test's own: the
 * files it refuses at start, the default file, the commands, rated games,
 * and a result that survives kill -9.
 */
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <signal.h>

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

#define SEND(c, ...)		line_send_at(__LINE__, (c), __VA_ARGS__)
#define WANT_PREFIX(c, p, o)	line_want_prefix_at(__LINE__, (c), (p), (o), \
				    sizeof (o))
#define WANT_QUIET(c, ms)	line_want_quiet_at(__LINE__, (c), (ms))
#define PARKED(e, tp)		acc_parked_at(__LINE__, (e), (tp))
#define REGISTER(c, n, k)	acc_register_at(__LINE__, (c), (n), (k), \
				    sizeof (k))

#define E_NAME_TAKEN	"ERR NAME_TAKEN That name is taken; choose another."
#define E_BAD_KEY	"ERR BAD_KEY No account has that key."
#define E_NO_PLAYER	"ERR NO_SUCH_PLAYER No account has that name."
#define E_NOT_SIGNED_IN	"ERR NOT_SIGNED_IN Sign in first: LOGIN <key>, " \
			"or REGISTER your name."
#define T_TAKEN_OVER	"INFO You signed in on another connection: you " \
			"are a guest here now."

/* A directory of the test's own, removed at the end. */
static char	acc_dir[64];

/* A path in the test's directory, into buf. */
static const char *
acc_path(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/%s", acc_dir, name);
	return (buf);
}

/* Run SQL on a file (made if missing) as sqlite3 would. */
static void
acc_sql(const char *path, const char *sql)
{
	sqlite3	*db;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
}

/* One number a query of a file gives. */
static long
acc_sql_int(const char *path, const char *sql)
{
	sqlite3		*db;
	sqlite3_stmt	*stmt;
	long		 v;

	assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY,
	    NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &stmt, NULL),
	    SQLITE_OK);
	assert_int_equal(sqlite3_step(stmt), SQLITE_ROW);
	v = (long)sqlite3_column_int64(stmt, 0);
	sqlite3_finalize(stmt);
	sqlite3_close(db);
	return (v);
}

/*
 * tttd --db path refuses to start: status 1, no "listening" line, and the
 * log says the path and why.
 */
static void
acc_refused(const char *path, const char *why)
{
	const char	*args[] = { "--port", "0", "--bind", "127.0.0.1",
			    "--http-port", "0", "--db", path, NULL };
	char		 out[1024], err[4096], want[512];
	int		 rc;

	rc = harness_run2(args, out, sizeof out, err, sizeof err,
	    HARNESS_START_MS);
	if (rc != 1)
		fail_msg("--db %s: exit %d, not 1; log:\n%s", path, rc, err);
	if (strstr(out, "listening") != NULL)
		fail_msg("--db %s: it listened:\n%s", path, out);
	snprintf(want, sizeof want, "--db: %s: ", path);
	if (strstr(err, want) == NULL || strstr(err, why) == NULL)
		fail_msg("--db %s: the log lacks \"%s\" and \"%s\":\n%s", path,
		    want, why, err);
}

/*
 * Files tttd will not run on: one it cannot open (its directory is
 * missing), one that is not SQLite, another program's SQLite (with an
 * application_id, and without: tables that are not tttd's), and one of a
 * newer schema than this tttd's.
 */
static void
test_accounts_db_refused(void **state)
{
	char	p[128];
	FILE	*f;

	(void)state;
	acc_refused(acc_path(p, sizeof p, "missing/tttd.db"),
	    "unable to open");
	f = fopen(acc_path(p, sizeof p, "text.db"), "w");
	assert_non_null(f);
	fprintf(f, "%0900d\n", 7);
	fclose(f);
	acc_refused(p, "not a tttd database");
	acc_sql(acc_path(p, sizeof p, "other.db"),
	    "PRAGMA application_id = 42; CREATE TABLE t (x)");
	acc_refused(p, "application_id 42");
	acc_sql(acc_path(p, sizeof p, "plain.db"),
	    "CREATE TABLE notes (x); CREATE INDEX notes_x ON notes (x)");
	acc_refused(p, "not a tttd database (another application's SQLite "
	    "file: application_id 0, 2 tables and indexes)");
	acc_sql(acc_path(p, sizeof p, "newer.db"),
	    "PRAGMA application_id = 1953789028; PRAGMA user_version = 99;"
	    "CREATE TABLE t (x)");
	acc_refused(p, "newer than this tttd's");
}

/*
 * No --db and no TTTD_DB: tttd.db in the working directory, made at
 * start as tttd's (its application_id), and kept after a clean stop.
 */
static void
test_accounts_db_default(void **state)
{
	struct e2e		*e = *state;
	struct tttd_proc	*tp;
	struct stat		 sb;
	char			 cwd[256], p[128];

	assert_non_null(getcwd(cwd, sizeof cwd));
	harness_tttd_path();		/* sets TTTD_DB=none ... */
	unsetenv("TTTD_DB");		/* ... undone */
	assert_int_equal(chdir(acc_dir), 0);
	tp = e2e_server(e, NULL);
	assert_int_equal(chdir(cwd), 0);
	setenv("TTTD_DB", "none", 1);
	e2e_stop(e, tp);
	assert_int_equal(stat(acc_path(p, sizeof p, "tttd.db"), &sb), 0);
	assert_int_equal(acc_sql_int(p, "PRAGMA application_id"), 0x74747464);
	unlink(p);
}

/* --db none, and TTTD_DB=none: no file is made. */
static void
test_accounts_db_none(void **state)
{
	struct e2e		*e = *state;
	const char		*args[] = { "--db", "none", NULL };
	struct tttd_proc	*tp;
	struct stat		 sb;
	char			 cwd[256], p[128];

	assert_non_null(getcwd(cwd, sizeof cwd));
	assert_int_equal(chdir(acc_dir), 0);
	tp = e2e_server(e, args);
	assert_int_equal(chdir(cwd), 0);
	e2e_stop(e, tp);
	assert_int_equal(stat(acc_path(p, sizeof p, "tttd.db"), &sb), -1);
}

/* The arguments of a server on the test's own file. */
static const char *const *
acc_args(const char *name)
{
	static char		 path[128];
	static const char	*args[] = { "--db", path, NULL };

	acc_path(path, sizeof path, name);
	return (args);
}

/*
 * A player greeted, then alone in a room of its own: never paired with
 * the test's other players.
 */
static struct conn *
acc_parked_at(int ln, struct e2e *e, struct tttd_proc *tp)
{
	struct conn	*c = e2e_connect_at(ln, e, tp);
	char		 line[LINE_SIZE];

	line_send_at(ln, c, "ROOM NEW");
	line_want_prefix_at(ln, c, "OK ROOM ", line, sizeof line);
	line_want_prefix_at(ln, c, "WAIT ", line, sizeof line);
	return (c);
}

/* NAME n, REGISTER: OK REGISTER n, and its KEY line (the key into key). */
static void
acc_register_at(int ln, struct conn *c, const char *name, char *key,
    size_t size)
{
	char	line[LINE_SIZE], want[LINE_SIZE];

	line_send_at(ln, c, "NAME %s", name);
	line_want_at(ln, 0, c, "OK NAME %s", name);
	line_send_at(ln, c, "REGISTER");
	line_want_at(ln, 0, c, "OK REGISTER %s", name);
	line_want_prefix_at(ln, c, "KEY ", line, sizeof line);
	if (sscanf(line, "KEY %63s", key) != 1 || strlen(key) != 26 ||
	    size <= 26)
		fail_msg("line %d: no key in \"%s\"", ln, line);
	snprintf(want, sizeof want, "KEY %s Keep this key: it is shown once "
	    "and is your account. Sign in with LOGIN %s on any connection.",
	    key, key);
	if (strcmp(line, want) != 0)
		fail_msg("line %d: \"%s\", not \"%s\"", ln, line, want);
}

/* --db none: REGISTER and LOGIN say there are no accounts here. */
static void
test_accounts_none_refused(void **state)
{
	struct e2e		*e = *state;
	const char		*args[] = { "--db", "none", NULL };
	struct tttd_proc	*tp = e2e_server(e, args);
	struct conn		*a = PARKED(e, tp);
	static const char	*verbs[] = { "REGISTER",
				    ("LOGIN abcdefghijklmnopqrstuvwxyz"),
				    "RATING", "TOP" };
	size_t			 i;

	SEND(a, "NAME alice");
	WANT(a, "OK NAME alice");
	for (i = 0; i < sizeof verbs / sizeof verbs[0]; i++) {
		SEND(a, "%s", verbs[i]);
		WANT(a, "ERR NO_ACCOUNTS This server keeps no accounts: "
		    "everyone plays as a guest.");
	}
	e2e_stop(e, tp);
}

/*
 * REGISTER: the current name (a seat's own: NO_NAME), shown a key once,
 * signed in; a registered name again: NAME_TAKEN; RATING of a new
 * account; HISTORY and TOP with nothing in them.
 */
static void
test_accounts_register(void **state)
{
	struct e2e		*e = *state;
	struct tttd_proc	*tp = e2e_server(e, acc_args("t.db"));
	struct conn		*a = PARKED(e, tp), *b = PARKED(e, tp);
	char			 key[64];

	SEND(a, "REGISTER");
	WANT(a, "ERR NO_NAME Choose a name with NAME before you REGISTER.");
	REGISTER(a, "alice", key);
	SEND(a, "REGISTER");
	WANT(a, "ERR SIGNED_IN You are signed in: your name is your "
	    "account's.");
	SEND(a, "RATING");
	WANT(a, "OK RATING alice 1500? 500 0 0 0 0");
	SEND(a, "rating ALICE");
	WANT(a, "OK RATING alice 1500? 500 0 0 0 0");
	SEND(a, "HISTORY");
	WANT(a, "OK HISTORY 0");
	SEND(a, "TOP");
	WANT(a, "OK TOP 0");
	SEND(b, "RATING");
	WANT(b, E_NO_PLAYER);
	SEND(b, "RATING bob");
	WANT(b, E_NO_PLAYER);
	SEND(b, "HISTORY bob 5");
	WANT(b, E_NO_PLAYER);
	SEND(b, "REKEY");
	WANT(b, E_NOT_SIGNED_IN);
	SEND(b, "FORGET alice");
	WANT(b, E_NOT_SIGNED_IN);
	e2e_stop(e, tp);
}

/*
 * A registered name is its owner's: NAME of it, or of one like it, by
 * anyone else is refused while the owner is here, once it has gone, and
 * after a restart on the same file.
 */
static void
test_accounts_name_reserved(void **state)
{
	struct e2e		*e = *state;
	struct tttd_proc	*tp = e2e_server(e, acc_args("t.db"));
	struct conn		*a = PARKED(e, tp), *b = PARKED(e, tp);
	char			 key[64];

	REGISTER(a, "alice", key);
	SEND(a, "QUIT");		/* gone once BYE comes */
	WANT(a, "BYE Thank you for playing!");
	SEND(b, "NAME alice");
	WANT(b, E_NAME_TAKEN);
	SEND(b, "NAME ALICE");
	WANT(b, E_NAME_TAKEN);
	SEND(b, "NAME bob");
	WANT(b, "OK NAME bob");
	e2e_stop(e, tp);
	tp = e2e_server(e, acc_args("t.db"));
	b = PARKED(e, tp);
	SEND(b, "NAME Alice");
	WANT(b, E_NAME_TAKEN);
	SEND(b, "NAME alice2");
	WANT(b, "OK NAME alice2");
	e2e_stop(e, tp);
}

/*
 * LOGIN: a wrong key is refused; the key signs in on another connection,
 * which takes the account's name; the connection signed in before is told
 * and is a guest from then on (its name its seat's).  REKEY: a new key,
 * the old one dead.
 */
static void
test_accounts_login_rekey(void **state)
{
	struct e2e		*e = *state;
	struct tttd_proc	*tp = e2e_server(e, acc_args("t.db"));
	struct conn		*a = PARKED(e, tp), *b = PARKED(e, tp);
	struct conn		*c = PARKED(e, tp);
	char			 key[64], key2[64], line[LINE_SIZE];

	REGISTER(a, "alice", key);
	SEND(b, "LOGIN abcdefghijklmnopqrstuvwxyz");
	WANT(b, E_BAD_KEY);
	SEND(b, "LOGIN short");
	WANT(b, E_BAD_KEY);
	SEND(b, "NAME bob");
	WANT(b, "OK NAME bob");
	SEND(b, "LOGIN %s", key);
	WANT(b, "OK LOGIN alice 1500 500");
	WANT(a, T_TAKEN_OVER);
	SEND(b, "RATING");
	WANT(b, "OK RATING alice 1500? 500 0 0 0 0");
	SEND(a, "RATING");
	WANT(a, E_NO_PLAYER);
	SEND(a, "REKEY");
	WANT(a, E_NOT_SIGNED_IN);
	SEND(b, "REKEY");
	WANT(b, "OK REKEY");
	WANT_PREFIX(b, "KEY ", line);
	assert_int_equal(sscanf(line, "KEY %63s", key2), 1);
	assert_string_not_equal(key, key2);
	SEND(c, "LOGIN %s", key);
	WANT(c, E_BAD_KEY);
	SEND(c, "LOGIN %s", key2);
	WANT(c, "OK LOGIN alice 1500 500");
	WANT(b, T_TAKEN_OVER);
	e2e_stop(e, tp);
}

/* Wrong keys from one address: 5, then RATE_LIMITED, as RESUME tokens. */
static void
test_accounts_bad_keys_limited(void **state)
{
	struct e2e		*e = *state;
	struct tttd_proc	*tp = e2e_server(e, acc_args("t.db"));
	struct conn		*a = PARKED(e, tp);
	int			 i;

	for (i = 0; i < 5; i++) {
		SEND(a, "LOGIN abcdefghijklmnopqrstuvwxy%c", 'a' + i);
		WANT(a, E_BAD_KEY);
	}
	SEND(a, "LOGIN abcdefghijklmnopqrstuvwxyz");
	WANT(a, "ERR RATE_LIMITED Too many commands. Please slow down.");
	e2e_stop(e, tp);
}

/*
 * FORGET: the name typed again, signed in; the account is gone (RATING
 * of it: NO_SUCH_PLAYER), its key dead, its name free once its last
 * connection leaves it.
 */
static void
test_accounts_forget(void **state)
{
	struct e2e		*e = *state;
	struct tttd_proc	*tp = e2e_server(e, acc_args("t.db"));
	struct conn		*a = PARKED(e, tp), *b = PARKED(e, tp);
	char			 key[64];

	REGISTER(a, "alice", key);
	SEND(a, "FORGET bob");
	WANT(a, "ERR BAD_NAME To delete your account, type its name: FORGET "
	    "<name>.");
	SEND(a, "FORGET Alice");
	WANT(a, "OK FORGET alice");
	SEND(a, "RATING");
	WANT(a, E_NO_PLAYER);
	SEND(b, "RATING alice");
	WANT(b, E_NO_PLAYER);
	SEND(b, "LOGIN %s", key);
	WANT(b, E_BAD_KEY);
	SEND(a, "QUIT");		/* gone once BYE comes */
	WANT(a, "BYE Thank you for playing!");
	SEND(b, "NAME alice");
	WANT(b, "OK NAME alice");
	e2e_stop(e, tp);
}

/*
 * Two players just connected to the queue (they are paired): p[0] gets
 * the one who moves first, p[1] the other; names into n[].
 */
static void
acc_paired(struct conn *a, struct conn *b, const char *na, const char *nb,
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
}

/* p[0] wins down column B; both read up to RESULT. */
static void
acc_play_win(struct conn *p[2])
{
	static const char	*moves[] = { "B1", "A1", "B2", "A2", "B3" };
	int			 i;

	for (i = 0; i < 5; i++) {
		conn_send(p[i % 2], moves[i]);
		expect_skip_to(p[i % 2], "OK MOVE", NULL, 0);
	}
	expect_skip_to(p[0], "RESULT WIN ", NULL, 0);
	expect_skip_to(p[1], "RESULT WIN ", NULL, 0);
}

/*
 * A PLAYED line of game 1.1: a UTC time, the winner's and the loser's
 * names as X and O (either way), the winner's mark, the moves.
 */
static void
acc_want_played(const char *line, const char *winner, const char *loser,
    const char *moves)
{
	char	when[64], x[64], o[64], res[8], mv[64];

	if (sscanf(line, "PLAYED 1.1 %63s %63s %63s %7s %63s", when, x, o, res,
	    mv) != 5)
		fail_msg("not a PLAYED line: \"%s\"", line);
	if (strlen(when) != 20 || when[4] != '-' || when[10] != 'T' ||
	    when[19] != 'Z')
		fail_msg("not a UTC time: \"%s\"", line);
	if (!((strcmp(x, winner) == 0 && strcmp(o, loser) == 0 &&
	    strcmp(res, "X") == 0) || (strcmp(o, winner) == 0 &&
	    strcmp(x, loser) == 0 && strcmp(res, "O") == 0)))
		fail_msg("\"%s\": not won by %s from %s", line, winner, loser);
	if (strcmp(mv, moves) != 0)
		fail_msg("\"%s\": moves not %s", line, moves);
}

/* After RESULT: the score, AGAIN?, then the new rating. */
static void
acc_want_rated(struct conn *c, const char *rating)
{
	char	line[LINE_SIZE];

	WANT_PREFIX(c, "INFO Score: ", line);
	WANT_PREFIX(c, "AGAIN? ", line);
	WANT(c, "INFO Your rating: %s", rating);
}

/*
 * A game between two signed-in players is rated: after RESULT each hears
 * its new rating and the change (1500/500 beats 1500/500: 1741?, +241),
 * and RATING, HISTORY and TOP show it (TOP: both still provisional).
 */
static void
test_accounts_rated_game(void **state)
{
	struct e2e		*e = *state;
	struct tttd_proc	*tp = e2e_server(e, acc_args("t.db"));
	struct conn		*a = CONNECT(e, tp), *b = CONNECT(e, tp);
	struct conn		*p[2];
	const char		*n[2];
	char			 key[64], line[LINE_SIZE];

	REGISTER(a, "alice", key);
	REGISTER(b, "bob", key);
	acc_paired(a, b, "alice", "bob", p, n);
	acc_play_win(p);
	acc_want_rated(p[0], "1741? (+241).");
	acc_want_rated(p[1], "1259? (-241).");
	SEND(p[0], "RATING");
	WANT(p[0], "OK RATING %s 1741? 397 1 1 0 0", n[0]);
	SEND(p[0], "RATING %s", n[1]);
	WANT(p[0], "OK RATING %s 1259? 397 1 0 1 0", n[1]);
	SEND(p[1], "HISTORY %s", n[0]);
	WANT(p[1], "OK HISTORY 1");
	WANT_PREFIX(p[1], "PLAYED 1.1 ", line);
	acc_want_played(line, n[0], n[1], "B1,A1,B2,A2,B3");
	SEND(p[1], "TOP");
	WANT(p[1], "OK TOP 0");
	e2e_stop(e, tp);
}

/*
 * kill -9 right after RESULT: the game is on the disk already (RESULT
 * waited for its commit), in both histories, with the new ratings.
 */
static void
test_accounts_result_survives_kill(void **state)
{
	struct e2e		*e = *state;
	struct tttd_proc	*tp = e2e_server(e, acc_args("t.db"));
	struct conn		*a = CONNECT(e, tp), *b = CONNECT(e, tp);
	struct conn		*p[2];
	const char		*n[2];
	char			 key[64], line[LINE_SIZE];
	int			 i;

	REGISTER(a, "alice", key);
	REGISTER(b, "bob", key);
	acc_paired(a, b, "alice", "bob", p, n);
	for (i = 0; i < 4; i++) {
		conn_send(p[i % 2], (const char *[]){ "B1", "A1", "B2",
		    "A2" }[i]);
		expect_skip_to(p[i % 2], "OK MOVE", NULL, 0);
	}
	conn_send(p[0], "B3");
	expect_skip_to(p[1], "RESULT WIN ", NULL, 0);
	kill(tp->pid, SIGKILL);
	waitpid(tp->pid, NULL, 0);
	close(tp->err_fd);
	tp->pid = 0;
	tp = e2e_server(e, acc_args("t.db"));
	a = PARKED(e, tp);
	for (i = 0; i < 2; i++) {
		SEND(a, "HISTORY %s", n[i]);
		WANT(a, "OK HISTORY 1");
		WANT_PREFIX(a, "PLAYED 1.1 ", line);
		acc_want_played(line, n[0], n[1], "B1,A1,B2,A2,B3");
	}
	SEND(a, "RATING %s", n[0]);
	WANT(a, "OK RATING %s 1741? 397 1 1 0 0", n[0]);
	SEND(a, "RATING %s", n[1]);
	WANT(a, "OK RATING %s 1259? 397 1 0 1 0", n[1]);
	e2e_stop(e, tp);
}

/*
 * A game with a guest is not rated: nothing after AGAIN?, and the
 * account's record is unchanged.
 */
static void
test_accounts_guest_game_unrated(void **state)
{
	struct e2e		*e = *state;
	struct tttd_proc	*tp = e2e_server(e, acc_args("t.db"));
	struct conn		*a = CONNECT(e, tp), *b = CONNECT(e, tp);
	struct conn		*p[2];
	const char		*n[2];
	char			 key[64], line[LINE_SIZE];
	int			 i;

	REGISTER(a, "alice", key);
	SEND(b, "NAME carol");
	WANT(b, "OK NAME carol");
	acc_paired(a, b, "alice", "carol", p, n);
	acc_play_win(p);
	for (i = 0; i < 2; i++) {
		WANT_PREFIX(p[i], "INFO Score: ", line);
		WANT_PREFIX(p[i], "AGAIN? ", line);
		WANT_QUIET(p[i], 500);
	}
	SEND(a, "RATING");
	WANT(a, "OK RATING alice 1500? 500 0 0 0 0");
	SEND(a, "HISTORY");
	WANT(a, "OK HISTORY 0");
	e2e_stop(e, tp);
}

/*
 * A forfeit is a loss for the one who left: QUIT mid-game, the other wins
 * and both ratings move (the one who left is rated though gone).
 */
static void
test_accounts_quit_is_a_loss(void **state)
{
	struct e2e		*e = *state;
	struct tttd_proc	*tp = e2e_server(e, acc_args("t.db"));
	struct conn		*a = CONNECT(e, tp), *b = CONNECT(e, tp);
	struct conn		*p[2];
	const char		*n[2];
	char			 key[64], line[LINE_SIZE];

	REGISTER(a, "alice", key);
	REGISTER(b, "bob", key);
	acc_paired(a, b, "alice", "bob", p, n);
	conn_send(p[0], "B2");
	expect_skip_to(p[0], "OK MOVE", NULL, 0);
	conn_send(p[1], "A1");
	expect_skip_to(p[1], "OK MOVE", NULL, 0);
	SEND(p[0], "QUIT");
	expect_skip_to(p[1], "RESULT FORFEIT ", NULL, 0);
	WANT_PREFIX(p[1], "INFO Score: ", line);
	WANT_PREFIX(p[1], "AGAIN? ", line);
	WANT(p[1], "INFO Your rating: 1741? (+241).");
	SEND(p[1], "RATING %s", n[0]);
	WANT(p[1], "OK RATING %s 1259? 397 1 0 1 0", n[0]);
	SEND(p[1], "HISTORY");
	WANT(p[1], "OK HISTORY 1");
	WANT_PREFIX(p[1], "PLAYED 1.1 ", line);
	acc_want_played(line, n[1], n[0], "B2,A1");
	e2e_stop(e, tp);
}

/*
 * Signing in where the account plays a match: the older connection is
 * told, goes on as a guest under its seat's name (its opponent told as
 * for a rename), and its game is not rated.
 */
static void
test_accounts_takeover_in_match(void **state)
{
	struct e2e		*e = *state;
	struct tttd_proc	*tp = e2e_server(e, acc_args("t.db"));
	struct conn		*a = CONNECT(e, tp), *b = CONNECT(e, tp);
	struct conn		*c = PARKED(e, tp), *p[2];
	const char		*n[2];
	char			 key[64], bkey[64], line[LINE_SIZE];
	int			 i;

	REGISTER(a, "alice", key);
	REGISTER(b, "bob", bkey);
	acc_paired(a, b, "alice", "bob", p, n);
	SEND(c, "LOGIN %s", key);
	WANT(c, "OK LOGIN alice 1500 500");
	expect_skip_to(a, T_TAKEN_OVER, NULL, 0);
	expect_skip_to(b, "INFO alice is now known as p", line, sizeof line);
	if (strcmp(line, "INFO alice is now known as p1.") != 0 &&
	    strcmp(line, "INFO alice is now known as p2.") != 0)
		fail_msg("not a seat's name: \"%s\"", line);
	acc_play_win(p);
	for (i = 0; i < 2; i++) {
		WANT_PREFIX(p[i], "INFO Score: ", line);
		WANT_PREFIX(p[i], "AGAIN? ", line);
		WANT_QUIET(p[i], 500);
	}
	SEND(c, "RATING");
	WANT(c, "OK RATING alice 1500? 500 0 0 0 0");
	e2e_stop(e, tp);
}

/*
 * A signed-in player whose connection drops takes its seat back with
 * RESUME on a new connection: signed in as its account again, and the
 * game is rated (its opponent resigns: a win).
 */
static void
test_accounts_resume_signs_in(void **state)
{
	struct e2e		*e = *state;
	const char		*args[] = { "--db", NULL, NULL };
	char			 path[128], key[64], tok[LINE_SIZE];
	char			 token[16], line[LINE_SIZE];
	struct tttd_proc	*tp;
	struct conn		*a, *b, *d, *p[2];
	const char		*n[2];

	args[1] = acc_path(path, sizeof path, "t.db");
	tp = e2e_server(e, args);
	a = CONNECT(e, tp);
	b = CONNECT(e, tp);
	REGISTER(a, "alice", key);
	REGISTER(b, "bob", key);
	expect_skip_to(a, "TOKEN ", tok, sizeof tok);
	assert_int_equal(sscanf(tok, "TOKEN %15s", token), 1);
	acc_paired(a, b, "alice", "bob", p, n);
	conn_send(p[0], "B2");
	expect_skip_to(p[0], "OK MOVE", NULL, 0);
	conn_send(p[1], "A1");
	expect_skip_to(p[1], "OK MOVE", NULL, 0);
	conn_drop(a, 0);
	expect_skip_to(b, "INFO alice lost the connection.", NULL, 0);
	d = PARKED(e, tp);
	SEND(d, "RESUME %s", token);
	expect_skip_to(d, "INFO Signed in as alice again.", NULL, 0);
	SEND(d, "RATING");
	expect_skip_to(d, "OK RATING alice 1500? 500 0 0 0 0", NULL, 0);
	SEND(b, "RESIGN");
	expect_skip_to(d, "RESULT ", line, sizeof line);
	expect_skip_to(d, "INFO Your rating: 1741? (+241).", NULL, 0);
	expect_skip_to(b, "INFO Your rating: 1259? (-241).", NULL, 0);
	e2e_stop(e, tp);
}

/*
 * TOP: the accounts that are not provisional (RD under 110), best first,
 * n of them; RATING of an established one has no "?".  The accounts are
 * written into the file between two runs, as years of games would.
 */
static void
test_accounts_top(void **state)
{
	struct e2e		*e = *state;
	struct tttd_proc	*tp = e2e_server(e, acc_args("t.db"));
	struct conn		*a;
	char			 path[128];

	e2e_stop(e, tp);		/* the schema made */
	acc_sql(acc_path(path, sizeof path, "t.db"),
	    "INSERT INTO accounts (name, fold, key_hash, rating, rd,"
	    " volatility, last_game, games, wins, losses, ties, created)"
	    " VALUES ('carol', 'carol', x'01', 1650.4, 60.2, 0.06,"
	    "  unixepoch(), 40, 25, 10, 5, 1),"
	    " ('dave', 'dave', x'02', 1720.6, 50.0, 0.06, unixepoch(), 90,"
	    "  60, 20, 10, 1),"
	    " ('erin', 'erin', x'03', 1900.0, 150.0, 0.06, unixepoch(), 3,"
	    "  3, 0, 0, 1),"
	    " ('fay', 'fay', x'04', 1400.0, 100.0, 0.06, unixepoch(), 20,"
	    "  5, 15, 0, 1)");
	tp = e2e_server(e, acc_args("t.db"));
	a = PARKED(e, tp);
	SEND(a, "TOP");
	WANT(a, "OK TOP 3");
	WANT(a, "RANKED 1 dave 1721 50 90");
	WANT(a, "RANKED 2 carol 1650 60 40");
	WANT(a, "RANKED 3 fay 1400 100 20");
	SEND(a, "top 2");
	WANT(a, "OK TOP 2");
	WANT(a, "RANKED 1 dave 1721 50 90");
	WANT(a, "RANKED 2 carol 1650 60 40");
	SEND(a, "TOP 0");
	WANT(a, "ERR BAD_COUNT Ask for 1 to 100 lines.");
	SEND(a, "RATING dave");
	WANT(a, "OK RATING dave 1721 50 90 60 20 10");
	SEND(a, "RATING erin");
	WANT(a, "OK RATING erin 1900? 150 3 3 0 0");
	e2e_stop(e, tp);
}

/* A player signed in with a key: greeted, waiting, OK LOGIN. */
static struct conn *
acc_login_at(int ln, struct e2e *e, struct tttd_proc *tp, const char *key,
    const char *ok)
{
	struct conn	*c = e2e_connect_at(ln, e, tp);

	line_send_at(ln, c, "LOGIN %s", key);
	line_want_at(ln, 0, c, "%s", ok);
	return (c);
}

/*
 * Pairing by rating (protocol.md §6.1, issue 27), ratings written into
 * the file between two runs: alice 1500 and bob 2300 wait (400 ms
 * apart, never in each other's range for 14 s); carol 1520 comes and
 * meets alice, not bob; dave 2100 comes and meets bob once dave has
 * waited 2 s (the ranges widened: the lobby's timer); erin 2900 waits
 * and a guest meets her at once.  In each pair the one who waited
 * longer plays X.
 */
static void
test_accounts_pairing_by_rating(void **state)
{
	static const char	*names[] = { "alice", "bob", "carol", "dave",
				    "erin" };
	struct e2e		*e = *state;
	struct tttd_proc	*tp = e2e_server(e, acc_args("t.db"));
	struct conn		*c[5], *g;
	char			 key[5][64], path[128];
	int			 i;

	for (i = 0; i < 5; i++) {
		c[i] = PARKED(e, tp);
		REGISTER(c[i], names[i], key[i]);
	}
	e2e_stop(e, tp);
	acc_sql(acc_path(path, sizeof path, "t.db"),
	    "UPDATE accounts SET rating = CASE fold WHEN 'alice' THEN 1500"
	    " WHEN 'bob' THEN 2300 WHEN 'carol' THEN 1520"
	    " WHEN 'dave' THEN 2100 ELSE 2900 END");
	tp = e2e_server(e, acc_args("t.db"));
	c[0] = acc_login_at(__LINE__, e, tp, key[0], "OK LOGIN alice 1500 500");
	c[1] = acc_login_at(__LINE__, e, tp, key[1], "OK LOGIN bob 2300 500");
	WANT_QUIET(c[0], 800);		/* both ripe: not paired */
	c[2] = acc_login_at(__LINE__, e, tp, key[2], "OK LOGIN carol 1520 500");
	WANT(c[0], "MATCH X carol You play X against carol.");
	WANT(c[2], "MATCH O alice You play O against alice.");
	WANT_QUIET(c[1], 100);
	c[3] = acc_login_at(__LINE__, e, tp, key[3], "OK LOGIN dave 2100 500");
	/* 200 apart: dave's range holds bob after 2 s (not 1.5 s). */
	WANT_QUIET(c[1], 1500);
	WANT(c[1], "MATCH X dave You play X against dave.");
	WANT(c[3], "MATCH O bob You play O against bob.");
	c[4] = acc_login_at(__LINE__, e, tp, key[4], "OK LOGIN erin 2900 500");
	WANT_QUIET(c[4], 700);
	g = CONNECT(e, tp);
	WANT(c[4], "MATCH X p2 You play X against p2.");
	WANT(g, "MATCH O erin You play O against erin.");
	e2e_stop(e, tp);
}

/* The test's directory, made before and removed after. */
static int
acc_setup(void **state)
{
	snprintf(acc_dir, sizeof acc_dir, "%s/tttd-acc.XXXXXX",
	    getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp");
	if (mkdtemp(acc_dir) == NULL)
		return (-1);
	return (e2e_setup(state));
}

static int
acc_teardown(void **state)
{
	char	cmd[128];
	int	rc = e2e_teardown(state);

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", acc_dir);
	if (system(cmd) != 0)
		return (-1);
	return (rc);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test_setup_teardown(test_accounts_db_refused,
		    acc_setup, acc_teardown),
		cmocka_unit_test_setup_teardown(test_accounts_db_default,
		    acc_setup, acc_teardown),
		cmocka_unit_test_setup_teardown(test_accounts_db_none,
		    acc_setup, acc_teardown),
		cmocka_unit_test_setup_teardown(test_accounts_none_refused,
		    acc_setup, acc_teardown),
		cmocka_unit_test_setup_teardown(test_accounts_register,
		    acc_setup, acc_teardown),
		cmocka_unit_test_setup_teardown(test_accounts_name_reserved,
		    acc_setup, acc_teardown),
		cmocka_unit_test_setup_teardown(test_accounts_login_rekey,
		    acc_setup, acc_teardown),
		cmocka_unit_test_setup_teardown(test_accounts_bad_keys_limited,
		    acc_setup, acc_teardown),
		cmocka_unit_test_setup_teardown(test_accounts_forget,
		    acc_setup, acc_teardown),
		cmocka_unit_test_setup_teardown(test_accounts_rated_game,
		    acc_setup, acc_teardown),
		cmocka_unit_test_setup_teardown(
		    test_accounts_result_survives_kill, acc_setup, acc_teardown),
		cmocka_unit_test_setup_teardown(
		    test_accounts_guest_game_unrated, acc_setup, acc_teardown),
		cmocka_unit_test_setup_teardown(test_accounts_quit_is_a_loss,
		    acc_setup, acc_teardown),
		cmocka_unit_test_setup_teardown(
		    test_accounts_takeover_in_match, acc_setup, acc_teardown),
		cmocka_unit_test_setup_teardown(test_accounts_resume_signs_in,
		    acc_setup, acc_teardown),
		cmocka_unit_test_setup_teardown(
		    test_accounts_pairing_by_rating, acc_setup, acc_teardown),
		cmocka_unit_test_setup_teardown(test_accounts_top, acc_setup,
		    acc_teardown),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
