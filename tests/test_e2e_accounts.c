/*
 * test_e2e_accounts.c -- accounts, ratings, history and the leaderboard
 * (issue 25) on the real tttd with --db on a file of the test's own: the
 * files it refuses at start, the default file, the commands, rated games,
 * and a result that survives kill -9.
 */
#include <sys/stat.h>
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
 * missing), one that is not SQLite, another program's SQLite, and one of a
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
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
