/*
 * test_e2e_accounts_faults.c -- the accounts' store failing under a
 * running tttd (issue 25, "Bad input and faults"): writes refused (a file
 * size limit put on tttd from outside: EFBIG; a full tmpfs: ENOSPC) and
 * corrupt pages; rated games end unrated with an INFO, guests play on,
 * the warning is logged once, and once writes work the next rated game is
 * rated.  Also: the loop's thread never writes nor syncs the disk during
 * rated games (strace by thread of the real tttd).
 */
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
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
#define REGISTER(c, n, k)	fault_register_at(__LINE__, (c), (n), (k))

#define T_UNRATED	"INFO This game is not rated: the accounts cannot " \
			"be written now."
#define T_WON		"INFO Your rating: 1741? (+241)."
#define T_LOST		"INFO Your rating: 1259? (-241)."
#define L_NOT_WRITTEN	"accounts: rated games are not written: "
#define L_AGAIN		"accounts: rated games are written again"
#define FAULT_PAGES	8	/* pages a test corrupts, at most */

/* A directory of the test's own, removed at the end. */
static char	fault_dir[64];

/* What tttd logged so far, all of it. */
static char	fault_logbuf[1 << 16];
static size_t	fault_loglen;

/* A path in the test's directory, into buf. */
static const char *
fault_path(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/%s", fault_dir, name);
	return (buf);
}

/* tttd's log read on (nonblocking): all of it so far. */
static const char *
fault_log(struct tttd_proc *tp)
{
	fault_loglen += harness_log(tp, fault_logbuf + fault_loglen,
	    sizeof fault_logbuf - fault_loglen);
	return (fault_logbuf);
}

/* Read the log on until it holds text, or fail. */
static void
fault_log_wait(struct tttd_proc *tp, const char *text)
{
	long	deadline = harness_now_ms() + HARNESS_TIMEOUT_MS;

	while (strstr(fault_log(tp), text) == NULL) {
		if (harness_now_ms() >= deadline)
			fail_msg("the log lacks \"%s\":\n%s", text,
			    fault_logbuf);
		usleep(20000);
	}
}

/* NAME n, REGISTER: OK REGISTER n, and its key into key (64 bytes). */
static void
fault_register_at(int ln, struct conn *c, const char *name, char *key)
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

/*
 * One game of a and b's match, from its START: whoever moves first wins
 * down column B; both read RESULT, the score and AGAIN?, then the winner
 * must hear won and the loser lost (exact lines; NULL: a new rating).
 */
static void
fault_game(struct conn *a, struct conn *b, const char *na, const char *won,
    const char *lost)
{
	static const char	*moves[] = { "B1", "A1", "B2", "A2", "B3" };
	struct conn		*p[2];
	char			 line[LINE_SIZE];
	int			 i;

	expect_skip_to(a, "START ", line, sizeof line);
	expect_skip_to(b, "START ", NULL, 0);
	/* "START X alice (X) moves first." */
	p[0] = strncmp(line + 8, na, strlen(na)) == 0 &&
	    line[8 + strlen(na)] == ' ' ? a : b;
	p[1] = p[0] == a ? b : a;
	for (i = 0; i < 5; i++) {
		conn_send(p[i % 2], moves[i]);
		expect_skip_to(p[i % 2], "OK MOVE", NULL, 0);
	}
	for (i = 0; i < 2; i++) {
		expect_skip_to(p[i], "RESULT WIN ", NULL, 0);
		WANT_PREFIX(p[i], "INFO Score: ", line);
		WANT_PREFIX(p[i], "AGAIN? ", line);
		if (won == NULL)
			WANT_PREFIX(p[i], "INFO Your rating: ", line);
		else
			WANT(p[i], "%s", i == 0 ? won : lost);
	}
}

/* Both say yes to another game. */
static void
fault_again(struct conn *a, struct conn *b)
{
	SEND(a, "AGAIN y");
	WANT(a, "OK AGAIN y");
	SEND(b, "AGAIN y");
	WANT(b, "OK AGAIN y");
}

/*
 * The store fails (broken): two rated games of a and b's match end
 * unrated, each player told so; two guests play a game meanwhile; the
 * log says it once, with logged.
 */
static void
fault_while_broken(struct e2e *e, struct tttd_proc *tp, struct conn *a,
    struct conn *b, const char *logged)
{
	struct conn	*g1, *g2, *p[2];
	char		 want[256];

	fault_game(a, b, "alice", T_UNRATED, T_UNRATED);
	snprintf(want, sizeof want, "%s%s", L_NOT_WRITTEN, logged);
	fault_log_wait(tp, want);
	fault_again(a, b);
	fault_game(a, b, "alice", T_UNRATED, T_UNRATED);
	g1 = CONNECT(e, tp);
	g2 = CONNECT(e, tp);
	harness_play_to_result(g1, g2, p);
	if (harness_count(fault_log(tp), L_NOT_WRITTEN) != 1)
		fail_msg("the warning is not logged once:\n%s", fault_logbuf);
	if (strstr(fault_logbuf, L_AGAIN) != NULL)
		fail_msg("writes said to work again:\n%s", fault_logbuf);
}

/*
 * The store works again (mended): the next game of the match is rated
 * (both at 1500, RD 500 still: the unrated games changed nothing), and
 * the log says so, once.
 */
static void
fault_mended(struct tttd_proc *tp, struct conn *a, struct conn *b)
{
	fault_again(a, b);
	fault_game(a, b, "alice", T_WON, T_LOST);
	fault_log_wait(tp, L_AGAIN);
	SEND(a, "RATING");
	expect_skip_to(a, "OK RATING alice ", NULL, 0);
	if (harness_count(fault_log(tp), L_NOT_WRITTEN) != 1 ||
	    harness_count(fault_logbuf, L_AGAIN) != 1)
		fail_msg("not once each:\n%s", fault_logbuf);
}

/* A server on the test's file t.db (in dir), its log read from now. */
static struct tttd_proc *
fault_server(struct e2e *e, const char *dir)
{
	static char		 path[256];
	static const char	*args[] = { "--db", path, NULL };

	snprintf(path, sizeof path, "%.200s/t.db", dir);
	fault_loglen = 0;
	fault_logbuf[0] = '\0';
	return (e2e_server(e, args));
}

/* tttd's soft file size limit (RLIMIT_FSIZE) set from outside. */
static void
fault_fsize(struct tttd_proc *tp, rlim_t soft)
{
	struct rlimit	rl = { soft, RLIM_INFINITY };

	if (prlimit(tp->pid, RLIMIT_FSIZE, &rl, NULL) == -1)
		fail_msg("prlimit: %s", strerror(errno));
}

/*
 * The file cannot be written: a file size limit of one byte put on the
 * running tttd (prlimit, as any user may on its own processes; root
 * ignores permissions, not this), so that every write of SQLite fails
 * with EFBIG (and SIGXFSZ, which tttd must ignore); then lifted.
 */
static void
test_accounts_fault_unwritable(void **state)
{
	struct e2e		*e = *state;
	struct tttd_proc	*tp = fault_server(e, fault_dir);
	struct conn		*a = CONNECT(e, tp), *b = CONNECT(e, tp);
	char			 key[64];

	REGISTER(a, "alice", key);
	REGISTER(b, "bob", key);
	fault_fsize(tp, 1);
	fault_while_broken(e, tp, a, b, "the database cannot be written: ");
	fault_fsize(tp, RLIM_INFINITY);
	fault_mended(tp, a, b);
	e2e_stop(e, tp);
}

/*
 * Mount a tmpfs of size bytes on dir, in a mount namespace of this
 * process's own (tttd, its child, shares it): 0, or -1 when it cannot
 * (not root, or no namespaces here).
 */
static int
fault_tmpfs(const char *dir, const char *size)
{
	char	opts[64];

	snprintf(opts, sizeof opts, "size=%s", size);
	if (geteuid() != 0 || unshare(CLONE_NEWNS) == -1 ||
	    mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL) == -1 ||
	    mkdir(dir, 0700) == -1 ||
	    mount("tmpfs", dir, "tmpfs", 0, opts) == -1)
		return (-1);
	return (0);
}

/* Fill the file system of path with a file, up to ENOSPC. */
static void
fault_fill(const char *path)
{
	static char	buf[4096];
	int		fd;
	ssize_t		w;

	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600)) == -1)
		fail_msg("%s: %s", path, strerror(errno));
	while ((w = write(fd, buf, sizeof buf)) > 0)
		continue;
	if (w == -1 && errno != ENOSPC)
		fail_msg("%s: %s", path, strerror(errno));
	close(fd);
}

/*
 * The disk full: t.db on a 512 KiB tmpfs of the test's own, filled by
 * another file once both players are registered (SQLite's writes fail
 * with ENOSPC); the file removed, there is room again.  Root only (a
 * mount namespace), else skipped.
 */
static void
test_accounts_fault_disk_full(void **state)
{
	struct e2e		*e = *state;
	struct tttd_proc	*tp;
	struct conn		*a, *b;
	char			 fs[128], fill[160], key[64];

	fault_path(fs, sizeof fs, "fs");
	if (fault_tmpfs(fs, "512k") == -1) {
		fprintf(stderr, "disk full: skipped (needs root and a mount "
		    "namespace for a tmpfs): %s\n", strerror(errno));
		skip();
	}
	snprintf(fill, sizeof fill, "%s/fill", fs);
	tp = fault_server(e, fs);
	a = CONNECT(e, tp);
	b = CONNECT(e, tp);
	REGISTER(a, "alice", key);
	REGISTER(b, "bob", key);
	fault_fill(fill);
	fault_while_broken(e, tp, a, b, "the disk is full: ");
	assert_int_equal(unlink(fill), 0);
	fault_mended(tp, a, b);
	e2e_stop(e, tp);
	assert_int_equal(umount(fs), 0);
}

/* One number a query of a file gives. */
static long
fault_sql_int(const char *path, const char *sql)
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

/* The pages of a file to corrupt, and what they held. */
struct fault_pages {
	long	 size;			/* the page size */
	long	 page[FAULT_PAGES];	/* their numbers, from 1 */
	int	 n;
	char	*saved;			/* n pages */
};

/* The root pages of the b-trees (tables, indexes) that where selects. */
static void
fault_roots(const char *path, const char *where, struct fault_pages *fp)
{
	sqlite3		*db;
	sqlite3_stmt	*stmt;
	char		 sql[256];

	fp->size = fault_sql_int(path, "PRAGMA page_size");
	assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY,
	    NULL), SQLITE_OK);
	snprintf(sql, sizeof sql, "SELECT rootpage FROM sqlite_schema WHERE %s"
	    " AND rootpage > 0", where);
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &stmt, NULL),
	    SQLITE_OK);
	for (fp->n = 0; fp->n < FAULT_PAGES &&
	    sqlite3_step(stmt) == SQLITE_ROW; fp->n++)
		fp->page[fp->n] = (long)sqlite3_column_int64(stmt, 0);
	sqlite3_finalize(stmt);
	sqlite3_close(db);
	if (fp->n == 0)
		fail_msg("%s: no pages where %s", path, where);
	fp->saved = malloc((size_t)(fp->n * fp->size));
	assert_non_null(fp->saved);
}

/* Overwrite the pages with garbage (corrupt 1), or put them back (0). */
static void
fault_pages_write(const char *path, struct fault_pages *fp, int corrupt)
{
	char	*junk;
	off_t	 off;
	int	 fd, i;

	junk = malloc((size_t)fp->size);
	assert_non_null(junk);
	memset(junk, 0xa5, (size_t)fp->size);
	if ((fd = open(path, O_RDWR)) == -1)
		fail_msg("%s: %s", path, strerror(errno));
	for (i = 0; i < fp->n; i++) {
		off = (off_t)(fp->page[i] - 1) * fp->size;
		if (corrupt && pread(fd, fp->saved + i * fp->size,
		    (size_t)fp->size, off) != fp->size)
			fail_msg("%s: page %ld unread", path, fp->page[i]);
		if (pwrite(fd, corrupt ? junk : fp->saved + i * fp->size,
		    (size_t)fp->size, off) != fp->size)
			fail_msg("%s: page %ld unwritten", path, fp->page[i]);
	}
	close(fd);
	free(junk);
}

/*
 * Two accounts made in a first run (its clean stop checkpoints the file);
 * a second run, returned, where a and b sign in with their keys.
 */
static struct tttd_proc *
fault_signed_in(struct e2e *e, struct conn **a, struct conn **b)
{
	struct tttd_proc	*tp = fault_server(e, fault_dir);
	char			 ka[64], kb[64];

	*a = CONNECT(e, tp);
	*b = CONNECT(e, tp);
	REGISTER(*a, "alice", ka);
	REGISTER(*b, "bob", kb);
	e2e_stop(e, tp);
	tp = fault_server(e, fault_dir);
	*a = CONNECT(e, tp);
	*b = CONNECT(e, tp);
	SEND(*a, "LOGIN %s", ka);
	WANT(*a, "OK LOGIN alice 1500 500");
	SEND(*b, "LOGIN %s", kb);
	WANT(*b, "OK LOGIN bob 1500 500");
	return (tp);
}

/*
 * A corrupt page found while running: the root pages of the games and
 * their indexes (read first by the first record) overwritten under tttd,
 * so that SQLite says SQLITE_CORRUPT; rated games end unrated and the
 * log names PRAGMA integrity_check; the pages put back, rated again.
 */
static void
test_accounts_fault_corrupt(void **state)
{
	struct e2e		*e = *state;
	struct tttd_proc	*tp;
	struct fault_pages	 fp;
	struct conn		*a, *b;
	char			 path[128];

	fault_path(path, sizeof path, "t.db");
	tp = fault_signed_in(e, &a, &b);
	fault_roots(path, "tbl_name = 'games'", &fp);
	fault_pages_write(path, &fp, 1);
	fault_while_broken(e, tp, a, b, "the database is corrupt (run PRAGMA "
	    "integrity_check): ");
	fault_pages_write(path, &fp, 0);
	fault_mended(tp, a, b);
	e2e_stop(e, tp);
	free(fp.saved);
}

/*
 * A corrupt page found by the reads a rated game begins with: the
 * accounts' indexes (by name: read first when a game ends; LOGIN read
 * the table and its key's index) overwritten under tttd; the same.
 */
static void
test_accounts_fault_corrupt_read(void **state)
{
	struct e2e		*e = *state;
	struct tttd_proc	*tp;
	struct fault_pages	 fp;
	struct conn		*a, *b;
	char			 path[128];

	fault_path(path, sizeof path, "t.db");
	tp = fault_signed_in(e, &a, &b);
	fault_roots(path, "tbl_name = 'accounts' AND type = 'index'", &fp);
	fault_pages_write(path, &fp, 1);
	fault_while_broken(e, tp, a, b, "the database is corrupt (run PRAGMA "
	    "integrity_check): ");
	fault_pages_write(path, &fp, 0);
	fault_mended(tp, a, b);
	e2e_stop(e, tp);
	free(fp.saved);
}

/* Whether a process is traced now (its TracerPid), after at most ms. */
static int
fault_traced(pid_t pid, int ms)
{
	char	path[64], line[256];
	FILE	*f;
	long	deadline = harness_now_ms() + ms, tracer = 0;

	snprintf(path, sizeof path, "/proc/%ld/status", (long)pid);
	while (tracer == 0 && harness_now_ms() < deadline) {
		if ((f = fopen(path, "r")) == NULL)
			return (0);
		while (fgets(line, sizeof line, f) != NULL)
			sscanf(line, "TracerPid: %ld", &tracer);
		fclose(f);
		if (tracer == 0)
			usleep(20000);
	}
	return (tracer != 0);
}

/* strace -f attached to a running tttd, writing to out: its pid. */
static pid_t
fault_strace(struct e2e *e, struct tttd_proc *tp, const char *out)
{
	char	pid[32];
	pid_t	child;

	snprintf(pid, sizeof pid, "%ld", (long)tp->pid);
	if ((child = fork()) == -1)
		fail_msg("fork: %s", strerror(errno));
	if (child == 0) {
		execlp("strace", "strace", "-f", "-qq", "-o", out, "-e",
		    "trace=fsync,fdatasync,pwrite64,pwritev,pwritev2,"
		    "sync_file_range", "-p", pid, (char *)NULL);
		_exit(127);
	}
	e->child[0] = child;
	if (!fault_traced(tp->pid, HARNESS_TIMEOUT_MS))
		fail_msg("strace did not attach to tttd (pid %s)", pid);
	return (child);
}

/*
 * The loop never waits on the disk: strace -f attached to a running tttd
 * (after its start, which opens the file on the main thread) while two
 * accounts are made and two rated games written; every fsync, fdatasync
 * and pwrite comes from another thread than the main one (tttd's pid),
 * at least one sync for each of the four commits (synchronous=FULL).
 */
static void
test_accounts_strace_by_thread(void **state)
{
	struct e2e		*e = *state;
	struct tttd_proc	*tp;
	struct conn		*a, *b;
	char			 path[128], key[64], line[512], call[64];
	FILE			*f;
	long			 tid;
	int			 status, n, onmain = 0, syncs = 0;
	int			 writes = 0;
	pid_t			 st, pid;

	if (system("strace -V >/dev/null 2>&1") != 0) {
		fprintf(stderr, "strace by thread: skipped (no strace)\n");
		skip();
	}
	tp = fault_server(e, fault_dir);
	st = fault_strace(e, tp, fault_path(path, sizeof path, "trace"));
	a = CONNECT(e, tp);
	b = CONNECT(e, tp);
	REGISTER(a, "alice", key);
	REGISTER(b, "bob", key);
	fault_game(a, b, "alice", T_WON, T_LOST);
	fault_again(a, b);
	fault_game(a, b, "alice", NULL, NULL);
	pid = tp->pid;				/* the main thread's id */
	kill(st, SIGTERM);			/* strace detaches */
	assert_int_equal(waitpid(st, &status, 0), st);
	e->child[0] = 0;
	e2e_stop(e, tp);
	if ((f = fopen(path, "r")) == NULL)
		fail_msg("%s: %s", path, strerror(errno));
	while (fgets(line, sizeof line, f) != NULL) {
		/* "TID call(...": "TID <... call resumed>" counted before. */
		if ((n = sscanf(line, "%ld %63[a-z0-9_]", &tid, call)) == 0)
			fail_msg("%s: no thread in \"%s\"", path, line);
		if (n != 2)
			continue;
		if (tid == (long)pid) {
			fprintf(stderr, "the main thread: %s", line);
			onmain++;
		} else if (strncmp(call, "f", 1) == 0)
			syncs++;
		else
			writes++;
	}
	fclose(f);
	fprintf(stderr, "strace by thread: the store's %d syncs and %d "
	    "writes, the main thread's %d\n", syncs, writes, onmain);
	assert_int_equal(onmain, 0);
	assert_true(syncs >= 4 && writes >= 4);
}

/* The threads of a process (/proc/PID/task). */
static int
fault_threads(pid_t pid)
{
	char		 path[64];
	DIR		*d;
	struct dirent	*de;
	int		 n = 0;

	snprintf(path, sizeof path, "/proc/%ld/task", (long)pid);
	if ((d = opendir(path)) == NULL)
		fail_msg("%s: %s", path, strerror(errno));
	while ((de = readdir(d)) != NULL)
		n += de->d_name[0] != '.';
	closedir(d);
	return (n);
}

/*
 * The store's thread starts with the first request that needs it: a tttd
 * with a store whose players are guests (a whole game) has one thread,
 * as with --db none (glibc's system calls stay single-threaded); the
 * first REGISTER makes it two.  The file is opened at the start all the
 * same (a bad one ends it: test_accounts_db_refused).
 */
static void
test_accounts_thread_lazy(void **state)
{
	struct e2e		*e = *state;
	struct tttd_proc	*tp = fault_server(e, fault_dir);
	struct conn		*a = CONNECT(e, tp), *b = CONNECT(e, tp);
	struct conn		*p[2];
	char			 key[64];

	harness_play_to_result(a, b, p);
	assert_int_equal(fault_threads(tp->pid), 1);
	REGISTER(a, "alice", key);
	assert_int_equal(fault_threads(tp->pid), 2);
	e2e_stop(e, tp);
}

/* The test's directory, made before and removed after. */
static int
fault_setup(void **state)
{
	snprintf(fault_dir, sizeof fault_dir, "%s/tttd-fault.XXXXXX",
	    getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp");
	if (mkdtemp(fault_dir) == NULL)
		return (-1);
	return (e2e_setup(state));
}

/* The servers and connections closed, the tmpfs let go, the files gone. */
static int
fault_teardown(void **state)
{
	char	cmd[128], fs[128];
	int	rc = e2e_teardown(state);

	umount2(fault_path(fs, sizeof fs, "fs"), MNT_DETACH);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", fault_dir);
	if (system(cmd) != 0)
		return (-1);
	return (rc);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test_setup_teardown(test_accounts_fault_unwritable,
		    fault_setup, fault_teardown),
		cmocka_unit_test_setup_teardown(test_accounts_fault_corrupt,
		    fault_setup, fault_teardown),
		cmocka_unit_test_setup_teardown(
		    test_accounts_fault_corrupt_read, fault_setup,
		    fault_teardown),
		cmocka_unit_test_setup_teardown(test_accounts_strace_by_thread,
		    fault_setup, fault_teardown),
		cmocka_unit_test_setup_teardown(test_accounts_thread_lazy,
		    fault_setup, fault_teardown),
		/* Last: it leaves this process in a mount namespace. */
		cmocka_unit_test_setup_teardown(test_accounts_fault_disk_full,
		    fault_setup, fault_teardown),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
