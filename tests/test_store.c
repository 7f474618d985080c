/*
 * test_store.c -- the store (server/store/): SQLite on its own thread, a
 * real event_base and a real file in a temporary directory.  Every
 * request and its result, a game written twice kept once, the results in
 * order on the loop's thread, the files it refuses to open, a full disk
 * and a corrupt page while running, and a kill -9 right after a commit.
 */
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <event2/event.h>
#include <sqlite3.h>

#include "store.h"
#ifdef STORE_TEST_PG
#include <libpq-fe.h>

#include "pg_proc.h"

/*
 * Built as test_store_pg: the same tests of requests on PostgreSQL, one
 * server for the whole run and a database of its own for each test.
 */
static struct pg_proc	pg;
static int		pg_dbs;

/* The run's PostgreSQL, started once. */
static int
pg_group_setup(void **state)
{
	(void)state;
	return (pg_proc_start(&pg));
}

/* The run's PostgreSQL stopped, its directory removed. */
static int
pg_group_teardown(void **state)
{
	(void)state;
	pg_proc_destroy(&pg);
	return (0);
}
#endif

/* One test's directory, loop and store. */
struct fix {
	char			 dir[64];
	char			 path[128];
	struct event_base	*base;
	struct store		*store;
};

/* What one callback saw, copied while it was valid. */
struct seen {
	int			 calls;
	int			 order;	/* its place among all callbacks */
	pthread_t		 thread;
	enum store_op		 op;
	enum store_err		 err;
	char			 why[256];
	struct store_account	 account;
	int			 written;
	struct store_game	 games[STORE_LIST_MAX];
	size_t			 ngames;
	struct store_account	 top[STORE_LIST_MAX];
	size_t			 ntop;
};

static int	seen_count;	/* callbacks so far, in this process */

/* Copy a result into the struct seen that asked for it. */
static void
seen_cb(const struct store_result *r, void *arg)
{
	struct seen	*s = arg;

	s->calls++;
	s->order = seen_count++;
	s->thread = pthread_self();
	s->op = r->op;
	s->err = r->err;
	snprintf(s->why, sizeof s->why, "%s", r->why);
	s->account = r->account;
	s->written = r->written;
	assert_true(r->ngames <= STORE_LIST_MAX && r->ntop <= STORE_LIST_MAX);
	s->ngames = r->ngames;
	if (r->ngames > 0)
		memcpy(s->games, r->games, r->ngames * sizeof *r->games);
	s->ntop = r->ntop;
	if (r->ntop > 0)
		memcpy(s->top, r->top, r->ntop * sizeof *r->top);
}

/* Run the loop until s's callback came. */
static void
wait_for(struct fix *f, struct seen *s)
{
	while (s->calls == 0)
		assert_int_equal(event_base_loop(f->base, EVLOOP_ONCE), 0);
	assert_int_equal(s->calls, 1);
}

/* Remove a directory and the files in it. */
static void
rmtree(const char *dir)
{
	DIR		*d;
	struct dirent	*e;
	char		 p[512];

	if ((d = opendir(dir)) == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
		unlink(p);
	}
	closedir(d);
	rmdir(dir);
}

/* A fresh directory and loop, and the store opened in it. */
static int
setup(void **state)
{
	struct fix	*f = calloc(1, sizeof *f);
	char		 why[512];

	assert_non_null(f);
	snprintf(f->dir, sizeof f->dir, "/tmp/test_store.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->path, sizeof f->path, "%s/tttd.db", f->dir);
#ifdef STORE_TEST_PG
	{
		char	db[32], sql[64];

		snprintf(db, sizeof db, "t%d", ++pg_dbs);
		snprintf(sql, sizeof sql, "CREATE DATABASE %s", db);
		assert_int_equal(pg_proc_exec(&pg, "postgres", sql), 0);
		pg_proc_uri(&pg, db, f->path, sizeof f->path);
	}
#endif
	assert_non_null(f->base = event_base_new());
	f->store = store_open(f->base, f->path, why, sizeof why);
	if (f->store == NULL)
		fail_msg("store_open: %s", why);
	*state = f;
	return (0);
}

/* Close the store, free the loop, remove the directory. */
static int
teardown(void **state)
{
	struct fix	*f = *state;

	store_free(f->store);
	event_base_free(f->base);
	rmtree(f->dir);
	free(f);
	return (0);
}

#ifndef STORE_TEST_PG
/* A directory and loop without a store. */
static int
setup_bare(void **state)
{
	struct fix	*f = calloc(1, sizeof *f);

	assert_non_null(f);
	snprintf(f->dir, sizeof f->dir, "/tmp/test_store.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->path, sizeof f->path, "%s/tttd.db", f->dir);
	assert_non_null(f->base = event_base_new());
	*state = f;
	return (0);
}
#endif

/* A key's hash from a word, for the tests' accounts. */
static void
hash_of(const char *word, uint8_t *hash)
{
	store_key_hash(word, hash);
}

/* Register name (fold, key) and wait: the result. */
static void
do_register(struct fix *f, const char *name, const char *fold,
    const char *key, struct seen *s)
{
	uint8_t	hash[STORE_HASH_LEN];

	memset(s, 0, sizeof *s);
	hash_of(key, hash);
	assert_int_equal(store_register(f->store, name, fold, hash, 1000,
	    seen_cb, s), 0);
	wait_for(f, s);
}

/* A name's account by its fold, waited for. */
static void
do_rating(struct fix *f, const char *fold, struct seen *s)
{
	memset(s, 0, sizeof *s);
	assert_int_equal(store_rating(f->store, fold, seen_cb, s), 0);
	wait_for(f, s);
}

/* A name's history, waited for. */
static void
do_history(struct fix *f, const char *fold, int n, struct seen *s)
{
	memset(s, 0, sizeof *s);
	assert_int_equal(store_history(f->store, fold, n, seen_cb, s), 0);
	wait_for(f, s);
}

/* A game of match "m<n>": x beat o (or tied), at time at. */
static void
game_of(struct store_game *g, const char *match, int number, int64_t x,
    int64_t o, char result, int64_t at)
{
	memset(g, 0, sizeof *g);
	snprintf(g->match, sizeof g->match, "%s", match);
	g->number = number;
	g->x.id = x;
	g->x.before = 1500;
	g->x.rating = result == 'X' ? 1662.21 : result == 'O' ? 1337.79 : 1500;
	g->x.rd = 290.2305;
	g->x.volatility = 0.0899;
	g->o.id = o;
	g->o.before = 1500;
	g->o.rating = result == 'O' ? 1662.21 : result == 'X' ? 1337.79 : 1500;
	g->o.rd = 290.2305;
	g->o.volatility = 0.0899;
	g->result = result;
	snprintf(g->ended, sizeof g->ended, "%s", "line");
	snprintf(g->moves, sizeof g->moves, "%s", "B2,A1,C3,A3,A2,C1,C2");
	g->at = at;
}

/* Record a game and wait. */
static void
do_record(struct fix *f, const struct store_game *g, struct seen *s)
{
	memset(s, 0, sizeof *s);
	assert_int_equal(store_record(f->store, g, seen_cb, s), 0);
	wait_for(f, s);
}

/* One integer read by a statement from the file (after store_free). */
static int
file_int(const char *path, const char *sql)
{
#ifdef STORE_TEST_PG
	PGconn		*c = PQconnectdb(path);
	PGresult	*r;
	int		 v;

	assert_int_equal(PQstatus(c), CONNECTION_OK);
	r = PQexec(c, sql);
	assert_int_equal(PQresultStatus(r), PGRES_TUPLES_OK);
	assert_int_equal(PQntuples(r), 1);
	v = atoi(PQgetvalue(r, 0, 0));
	PQclear(r);
	PQfinish(c);
	return (v);
#else
	sqlite3		*db;
	sqlite3_stmt	*st;
	int		 v;

	assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY,
	    NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL),
	    SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return (v);
#endif
}

#ifndef STORE_TEST_PG
/* Run statements on a file of the tests' own making. */
static void
file_exec(const char *path, const char *sql)
{
	sqlite3	*db;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
}

#endif
/* A key: 26 characters of RFC 4648's base32 from 16 bytes; its SHA-256. */
static void
test_store_key(void **state)
{
	uint8_t		 b[STORE_KEY_RANDOM], hash[STORE_HASH_LEN];
	char		 key[64];
	unsigned	 i;
	static const uint8_t	want[STORE_HASH_LEN] = {
		0x71, 0xc4, 0x80, 0xdf, 0x93, 0xd6, 0xae, 0x2f, 0x1e, 0xfa,
		0xd1, 0x44, 0x7c, 0x66, 0xc9, 0x52, 0x5e, 0x31, 0x62, 0x18,
		0xcf, 0x51, 0xfc, 0x8d, 0x9e, 0xd8, 0x32, 0xf2, 0xda, 0xf1,
		0x8b, 0x73
	};

	(void)state;
	for (i = 0; i < sizeof b; i++)
		b[i] = i;
	assert_int_equal(store_key_make(key, sizeof key, b, sizeof b), 0);
	assert_string_equal(key, "aaaqeayeaudaocajbifqydiob4");
	assert_int_equal(strlen(key), STORE_KEY_LEN);
	assert_true(store_key_valid(key));
	memset(b, 0xff, sizeof b);
	assert_int_equal(store_key_make(key, sizeof key, b, sizeof b), 0);
	assert_string_equal(key, "77777777777777777777777774");
	/* Fewer than 128 bits, or no room: refused. */
	assert_int_equal(store_key_make(key, sizeof key, b, 15), -1);
	assert_int_equal(store_key_make(key, 26, b, sizeof b), -1);
	assert_false(store_key_valid("aaaqeayeaudaocajbifqydiob"));
	assert_false(store_key_valid("aaaqeayeaudaocajbifqydiob1"));
	assert_false(store_key_valid("Aaaqeayeaudaocajbifqydiob4"));
	hash_of("abcdefghijklmnopqrstuvwxyz", hash);
	assert_memory_equal(hash, want, sizeof want);
}

/* Register: a new account at 1500/500/0.09; the name (folded) once. */
static void
test_store_register(void **state)
{
	struct fix	*f = *state;
	struct seen	 s;

	do_register(f, "Alice", "alice", "key-of-alice-0123456789012", &s);
	assert_int_equal(s.op, STORE_REGISTER);
	assert_int_equal(s.err, STORE_OK);
	assert_true(s.account.id > 0);
	assert_string_equal(s.account.name, "Alice");
	assert_true(s.account.rating == 1500.0 && s.account.rd == 500.0 &&
	    s.account.volatility == 0.09);
	assert_int_equal(s.account.games, 0);
	assert_int_equal(s.account.created, 1000);
	do_register(f, "ALICE", "alice", "another-key-0123456789012345", &s);
	assert_int_equal(s.err, STORE_ETAKEN);
	do_register(f, "Bob", "bob", "key-of-bob-012345678901234", &s);
	assert_int_equal(s.err, STORE_OK);
	assert_string_equal(s.account.name, "Bob");
	/* Out of bounds: refused at once, no callback. */
	assert_int_equal(store_register(f->store, "", "x", (uint8_t *)"x",
	    0, seen_cb, &s), -1);
	assert_int_equal(store_history(f->store, "bob", 101, seen_cb, &s), -1);
	assert_int_equal(store_top(f->store, 0, seen_cb, &s), -1);
	assert_int_equal(store_pending(f->store), 0);
}

/* Login by the key's hash; rekey kills the old key. */
static void
test_store_login_rekey(void **state)
{
	struct fix	*f = *state;
	struct seen	 s;
	uint8_t		 hash[STORE_HASH_LEN];
	int64_t		 id;

	do_register(f, "Alice", "alice", "old-key-of-alice-012345678", &s);
	id = s.account.id;
	memset(&s, 0, sizeof s);
	hash_of("old-key-of-alice-012345678", hash);
	assert_int_equal(store_login(f->store, hash, seen_cb, &s), 0);
	wait_for(f, &s);
	assert_int_equal(s.err, STORE_OK);
	assert_int_equal(s.account.id, id);
	assert_string_equal(s.account.name, "Alice");

	memset(&s, 0, sizeof s);
	hash_of("new-key-of-alice-012345678", hash);
	assert_int_equal(store_rekey(f->store, id, hash, seen_cb, &s), 0);
	wait_for(f, &s);
	assert_int_equal(s.op, STORE_REKEY);
	assert_int_equal(s.err, STORE_OK);

	memset(&s, 0, sizeof s);
	hash_of("old-key-of-alice-012345678", hash);
	assert_int_equal(store_login(f->store, hash, seen_cb, &s), 0);
	wait_for(f, &s);
	assert_int_equal(s.err, STORE_ENOTFOUND);
	memset(&s, 0, sizeof s);
	hash_of("new-key-of-alice-012345678", hash);
	assert_int_equal(store_login(f->store, hash, seen_cb, &s), 0);
	wait_for(f, &s);
	assert_int_equal(s.err, STORE_OK);
	assert_int_equal(s.account.id, id);

	memset(&s, 0, sizeof s);
	assert_int_equal(store_rekey(f->store, id + 100, hash, seen_cb, &s),
	    0);
	wait_for(f, &s);
	assert_int_equal(s.err, STORE_ENOTFOUND);
}

/* A rated game: the row and both ratings; written twice, kept once. */
static void
test_store_record(void **state)
{
	struct fix		*f = *state;
	struct seen		 s;
	struct store_game	 g;
	int64_t			 a, b;

	do_register(f, "Alice", "alice", "key-of-alice-0123456789012", &s);
	a = s.account.id;
	do_register(f, "Bob", "bob", "key-of-bob-012345678901234", &s);
	b = s.account.id;
	game_of(&g, "17", 1, a, b, 'X', 5000);
	do_record(f, &g, &s);
	assert_int_equal(s.op, STORE_RECORD);
	assert_int_equal(s.err, STORE_OK);
	assert_int_equal(s.written, 1);
	/* The same game again (a retry): nothing changes. */
	g.x.rating = 9999;
	do_record(f, &g, &s);
	assert_int_equal(s.err, STORE_OK);
	assert_int_equal(s.written, 0);

	do_rating(f, "alice", &s);
	assert_int_equal(s.err, STORE_OK);
	assert_true(s.account.rating == 1662.21);
	assert_true(s.account.rd == 290.2305);
	assert_true(s.account.volatility == 0.0899);
	assert_int_equal(s.account.games, 1);
	assert_int_equal(s.account.wins, 1);
	assert_int_equal(s.account.losses, 0);
	assert_int_equal(s.account.last_game, 5000);
	do_rating(f, "bob", &s);
	assert_true(s.account.rating == 1337.79);
	assert_int_equal(s.account.games, 1);
	assert_int_equal(s.account.losses, 1);
	assert_int_equal(s.account.wins, 0);

	/* Game 2 of the match, a tie: a second row. */
	game_of(&g, "17", 2, a, b, 'T', 5100);
	g.x.before = 1662.21;
	g.x.rating = 1650;
	do_record(f, &g, &s);
	assert_int_equal(s.written, 1);
	do_rating(f, "alice", &s);
	assert_int_equal(s.account.games, 2);
	assert_int_equal(s.account.ties, 1);
	do_rating(f, "nobody", &s);
	assert_int_equal(s.err, STORE_ENOTFOUND);

	store_free(f->store);
	f->store = NULL;
	assert_int_equal(file_int(f->path, "SELECT count(*) FROM games"), 2);
	assert_int_equal(file_int(f->path,
	    "SELECT count(*) FROM games WHERE match = '17' AND number = 1"), 1);
}

static int	rate_calls;	/* test_rate's, in this process */

/*
 * A rating rule for the tests, as the store sees one (store_rate_fn): the
 * winner 10 up and the loser 10 down from their ratings as read; a
 * match named "norate" is not rated.
 */
static int
test_rate(const struct store_account *x, const struct store_account *o,
    struct store_game *g)
{
	double	d = g->result == 'X' ? 10 : g->result == 'O' ? -10 : 0;

	rate_calls++;
	if (strcmp(g->match, "norate") == 0)
		return (-1);
	g->x.before = x->rating;
	g->x.rating = x->rating + d;
	g->x.rd = x->rd - 1;
	g->x.volatility = x->volatility;
	g->o.before = o->rating;
	g->o.rating = o->rating - d;
	g->o.rd = o->rd - 1;
	g->o.volatility = o->volatility;
	snprintf(g->x.name, sizeof g->x.name, "%s", x->name);
	snprintf(g->o.name, sizeof g->o.name, "%s", o->name);
	return (0);
}

/* Record a game rated inside the store's transaction, and wait. */
static void
do_record_rated(struct fix *f, const struct store_game *g, struct seen *s)
{
	memset(s, 0, sizeof *s);
	assert_int_equal(store_record_rated(f->store, g, test_rate, seen_cb,
	    s), 0);
	wait_for(f, s);
}

/*
 * A rated game whose ratings the store computes from the accounts as its
 * own transaction reads them: a game written meanwhile counts; written
 * twice, kept once (rated once); a side missing or not rated: nothing
 * written, and the store goes on.
 */
static void
test_store_record_rated(void **state)
{
	struct fix		*f = *state;
	struct seen		 s;
	struct store_game	 g;
	int64_t			 a, b;

	do_register(f, "Alice", "alice", "key-of-alice-0123456789012", &s);
	a = s.account.id;
	do_register(f, "Bob", "bob", "key-of-bob-012345678901234", &s);
	b = s.account.id;
	game_of(&g, "17", 1, a, b, 'X', 5000);
	do_record(f, &g, &s);		/* alice 1662.21, bob 1337.79 */
	assert_int_equal(s.written, 1);

	game_of(&g, "17", 2, a, b, 'X', 5100);	/* its ratings ignored */
	rate_calls = 0;
	do_record_rated(f, &g, &s);
	assert_int_equal(s.err, STORE_OK);
	assert_int_equal(s.written, 1);
	assert_int_equal(rate_calls, 1);
	do_rating(f, "alice", &s);
	assert_true(s.account.rating == 1672.21);
	assert_true(s.account.rd == 289.2305);
	assert_int_equal(s.account.games, 2);
	assert_int_equal(s.account.wins, 2);
	do_rating(f, "bob", &s);
	assert_true(s.account.rating == 1327.79);
	assert_int_equal(s.account.losses, 2);

	/* Again (a node that took the match up): nothing, not rated. */
	rate_calls = 0;
	do_record_rated(f, &g, &s);
	assert_int_equal(s.err, STORE_OK);
	assert_int_equal(s.written, 0);
	assert_int_equal(rate_calls, 0);
	do_rating(f, "alice", &s);
	assert_true(s.account.rating == 1672.21);
	assert_int_equal(s.account.games, 2);

	game_of(&g, "17", 3, a, b + 1000, 'X', 5200);
	do_record_rated(f, &g, &s);
	assert_int_equal(s.err, STORE_ENOTFOUND);
	assert_int_equal(s.written, 0);
	game_of(&g, "norate", 1, a, b, 'O', 5300);
	do_record_rated(f, &g, &s);
	assert_int_equal(s.err, STORE_ENOTFOUND);
	assert_int_equal(s.written, 0);
	/* Its transaction was rolled back: the store answers as before. */
	do_rating(f, "alice", &s);
	assert_int_equal(s.err, STORE_OK);
	assert_true(s.account.rating == 1672.21);
	assert_int_equal(s.account.games, 2);
	game_of(&g, "17", 3, b, a, 'T', 5400);
	do_record_rated(f, &g, &s);
	assert_int_equal(s.err, STORE_OK);
	assert_int_equal(s.written, 1);
	assert_true(s.account.rating == 0);	/* a record fills no account */

	store_free(f->store);
	f->store = NULL;
	assert_int_equal(file_int(f->path, "SELECT count(*) FROM games"), 3);
}

/* History: newest first, at most n, with names, moves and ratings. */
static void
test_store_history(void **state)
{
	struct fix		*f = *state;
	struct seen		 s;
	struct store_game	 g;
	int64_t			 a, b, c;
	char			 m[16];
	int			 i;

	do_register(f, "Alice", "alice", "key-of-alice-0123456789012", &s);
	a = s.account.id;
	do_register(f, "Bob", "bob", "key-of-bob-012345678901234", &s);
	b = s.account.id;
	do_register(f, "Carol", "carol", "key-of-carol-0123456789012", &s);
	c = s.account.id;
	for (i = 1; i <= 5; i++) {
		snprintf(m, sizeof m, "m%d", i);
		game_of(&g, m, 1, i % 2 ? a : b, i % 2 ? b : a,
		    i == 3 ? 'T' : 'X', 100 * i);
		do_record(f, &g, &s);
		assert_int_equal(s.written, 1);
	}
	game_of(&g, "other", 1, b, c, 'O', 50);
	do_record(f, &g, &s);

	do_history(f, "alice", 10, &s);
	assert_int_equal(s.op, STORE_HISTORY);
	assert_int_equal(s.err, STORE_OK);
	assert_int_equal(s.ngames, 5);
	for (i = 0; i < 5; i++) {
		snprintf(m, sizeof m, "m%d", 5 - i);
		assert_string_equal(s.games[i].match, m);
		assert_int_equal(s.games[i].at, 100 * (5 - i));
	}
	assert_string_equal(s.games[0].x.name, "Alice");
	assert_string_equal(s.games[0].o.name, "Bob");
	assert_int_equal(s.games[0].result, 'X');
	assert_int_equal(s.games[2].result, 'T');
	assert_string_equal(s.games[0].moves, "B2,A1,C3,A3,A2,C1,C2");
	assert_string_equal(s.games[0].ended, "line");
	assert_int_equal(s.games[0].number, 1);
	assert_true(s.games[0].x.before == 1500 &&
	    s.games[0].x.rating == 1662.21 && s.games[0].o.rating == 1337.79);
	do_history(f, "alice", 2, &s);
	assert_int_equal(s.ngames, 2);
	assert_string_equal(s.games[1].match, "m4");
	do_history(f, "carol", 10, &s);
	assert_int_equal(s.ngames, 1);
	assert_string_equal(s.games[0].o.name, "Carol");
	do_history(f, "dave", 10, &s);
	assert_int_equal(s.err, STORE_ENOTFOUND);
	assert_int_equal(s.ngames, 0);
}

/* Forget: the account gone, its name free, its games "(deleted)". */
static void
test_store_forget(void **state)
{
	struct fix		*f = *state;
	struct seen		 s;
	struct store_game	 g;
	int64_t			 a, b;
	uint8_t			 hash[STORE_HASH_LEN];

	do_register(f, "Alice", "alice", "key-of-alice-0123456789012", &s);
	a = s.account.id;
	do_register(f, "Bob", "bob", "key-of-bob-012345678901234", &s);
	b = s.account.id;
	game_of(&g, "9", 1, a, b, 'O', 100);
	do_record(f, &g, &s);

	memset(&s, 0, sizeof s);
	assert_int_equal(store_forget(f->store, b, seen_cb, &s), 0);
	wait_for(f, &s);
	assert_int_equal(s.op, STORE_FORGET);
	assert_int_equal(s.err, STORE_OK);
	assert_string_equal(s.account.name, "Bob");
	do_rating(f, "bob", &s);
	assert_int_equal(s.err, STORE_ENOTFOUND);
	memset(&s, 0, sizeof s);
	hash_of("key-of-bob-012345678901234", hash);
	assert_int_equal(store_login(f->store, hash, seen_cb, &s), 0);
	wait_for(f, &s);
	assert_int_equal(s.err, STORE_ENOTFOUND);
	do_history(f, "alice", 10, &s);
	assert_int_equal(s.ngames, 1);
	assert_string_equal(s.games[0].x.name, "Alice");
	assert_string_equal(s.games[0].o.name, STORE_DELETED);
	assert_int_equal(s.games[0].result, 'O');

	/* The name is free again: a new account, not the old games. */
	do_register(f, "bob", "bob", "new-key-of-bob-01234567890", &s);
	assert_int_equal(s.err, STORE_OK);
	assert_true(s.account.id != b);
	do_history(f, "bob", 10, &s);
	assert_int_equal(s.err, STORE_OK);
	assert_int_equal(s.ngames, 0);
	do_history(f, "alice", 10, &s);
	assert_string_equal(s.games[0].o.name, STORE_DELETED);

	memset(&s, 0, sizeof s);
	assert_int_equal(store_forget(f->store, b, seen_cb, &s), 0);
	wait_for(f, &s);
	assert_int_equal(s.err, STORE_ENOTFOUND);
}

/* Top: the accounts that are not provisional (rd < 110), best first. */
static void
test_store_top(void **state)
{
	struct fix		*f = *state;
	struct seen		 s;
	struct store_game	 g;
	int64_t			 id[4];
	static const char	*names[4] = { "A", "B", "C", "D" };
	static const char	*folds[4] = { "a", "b", "c", "d" };
	char			 key[40];
	int			 i;

	for (i = 0; i < 4; i++) {
		snprintf(key, sizeof key, "key-%d-0123456789012345678901", i);
		do_register(f, names[i], folds[i], key, &s);
		id[i] = s.account.id;
	}
	memset(&s, 0, sizeof s);
	assert_int_equal(store_top(f->store, 10, seen_cb, &s), 0);
	wait_for(f, &s);
	assert_int_equal(s.err, STORE_OK);
	assert_int_equal(s.ntop, 0);	/* all provisional (RD 500) */

	/* A: 1700/60, B: 1600/109.9, C: 1800/110 (provisional), D: 1650/80. */
	game_of(&g, "t", 1, id[0], id[1], 'X', 10);
	g.x.rating = 1700, g.x.rd = 60, g.o.rating = 1600, g.o.rd = 109.9;
	do_record(f, &g, &s);
	game_of(&g, "t", 2, id[2], id[3], 'X', 20);
	g.x.rating = 1800, g.x.rd = 110, g.o.rating = 1650, g.o.rd = 80;
	do_record(f, &g, &s);
	memset(&s, 0, sizeof s);
	assert_int_equal(store_top(f->store, 10, seen_cb, &s), 0);
	wait_for(f, &s);
	assert_int_equal(s.op, STORE_TOP);
	assert_int_equal(s.ntop, 3);
	assert_string_equal(s.top[0].name, "A");
	assert_string_equal(s.top[1].name, "D");
	assert_string_equal(s.top[2].name, "B");
	assert_true(s.top[0].rating == 1700 && s.top[0].rd == 60);
	assert_int_equal(s.top[0].games, 1);
	memset(&s, 0, sizeof s);
	assert_int_equal(store_top(f->store, 2, seen_cb, &s), 0);
	wait_for(f, &s);
	assert_int_equal(s.ntop, 2);
	assert_string_equal(s.top[1].name, "D");
}

/*
 * Many requests at once: their callbacks come in the order asked, on the
 * loop's thread, none before the loop runs; pending counts them.
 */
static void
test_store_order(void **state)
{
	struct fix	*f = *state;
	static struct seen s[60];
	uint8_t		 hash[STORE_HASH_LEN];
	char		 name[16], key[40];
	int		 i, first;

	memset(s, 0, sizeof s);
	first = seen_count;
	for (i = 0; i < 60; i++) {
		snprintf(name, sizeof name, "p%d", i / 3);
		snprintf(key, sizeof key, "key-%d-0123456789012345678901",
		    i / 3);
		hash_of(key, hash);
		switch (i % 3) {
		case 0:
			assert_int_equal(store_register(f->store, name, name,
			    hash, 1, seen_cb, &s[i]), 0);
			break;
		case 1:
			assert_int_equal(store_login(f->store, hash, seen_cb,
			    &s[i]), 0);
			break;
		case 2:
			assert_int_equal(store_top(f->store, 5, seen_cb,
			    &s[i]), 0);
			break;
		}
	}
	assert_int_equal(store_pending(f->store), 60);
	for (i = 0; i < 60; i++)
		assert_int_equal(s[i].calls, 0);
	while (store_pending(f->store) > 0)
		assert_int_equal(event_base_loop(f->base, EVLOOP_ONCE), 0);
	for (i = 0; i < 60; i++) {
		assert_int_equal(s[i].calls, 1);
		assert_int_equal(s[i].order, first + i);
		assert_true(pthread_equal(s[i].thread, pthread_self()));
		assert_int_equal(s[i].err, STORE_OK);
		if (i % 3 == 1) {
			snprintf(name, sizeof name, "p%d", i / 3);
			assert_string_equal(s[i].account.name, name);
		}
	}
}

#ifndef STORE_TEST_PG
/* A new file: WAL, tttd's application_id, the schema's version. */
static void
test_store_schema(void **state)
{
	struct fix	*f = *state;
	char		 why[512];

	store_free(f->store);
	f->store = NULL;
	assert_int_equal(file_int(f->path, "PRAGMA user_version"),
	    STORE_SCHEMA);
	assert_int_equal(file_int(f->path, "PRAGMA application_id"),
	    STORE_APP_ID);
	assert_int_equal(file_int(f->path, "SELECT count(*) FROM "
	    "pragma_journal_mode WHERE journal_mode = 'wal'"), 1);
	/* Opened again: as it was, nothing migrated twice. */
	f->store = store_open(f->base, f->path, why, sizeof why);
	assert_non_null(f->store);
}

/* Open path and expect it refused, for a reason that says want. */
static void
open_refused(struct fix *f, const char *path, const char *want)
{
	char	why[512] = "";

	assert_null(store_open(f->base, path, why, sizeof why));
	if (strstr(why, want) == NULL)
		fail_msg("why \"%s\" lacks \"%s\"", why, want);
	if (strstr(why, path) == NULL)
		fail_msg("why \"%s\" lacks the path", why);
}

/* Files refused: not SQLite, another's SQLite, newer, unopenable. */
static void
test_store_open_errors(void **state)
{
	struct fix	*f = *state;
	char		 p[256];
	int		 fd;
	const char	 text[] = "this is a text file, not a database\n"
	    "with a second line, long enough to be read as a header......\n"
	    "................................................................";

	snprintf(p, sizeof p, "%s/text.db", f->dir);
	assert_true((fd = open(p, O_WRONLY | O_CREAT, 0644)) >= 0);
	assert_int_equal(write(fd, text, sizeof text), sizeof text);
	close(fd);
	open_refused(f, p, "not a tttd database");

	snprintf(p, sizeof p, "%s/other.db", f->dir);
	file_exec(p, "CREATE TABLE notes (body TEXT)");
	open_refused(f, p, "another application's SQLite file");
	/* Untouched: still not WAL, its table alone. */
	assert_int_equal(file_int(p, "SELECT count(*) FROM sqlite_schema"), 1);
	assert_int_equal(file_int(p, "SELECT count(*) FROM "
	    "pragma_journal_mode WHERE journal_mode = 'delete'"), 1);

	snprintf(p, sizeof p, "%s/app.db", f->dir);
	file_exec(p, "PRAGMA application_id = 42");
	open_refused(f, p, "application_id 42");

	snprintf(p, sizeof p, "%s/newer.db", f->dir);
	file_exec(p, "PRAGMA application_id = 1953789028;"
	    "PRAGMA user_version = 99");
	open_refused(f, p, "newer than this tttd's");

	snprintf(p, sizeof p, "%s/no/such/dir/tttd.db", f->dir);
	open_refused(f, p, "cannot be opened");
	/* An empty file is a new database. */
	snprintf(p, sizeof p, "%s/empty.db", f->dir);
	assert_true((fd = open(p, O_WRONLY | O_CREAT, 0644)) >= 0);
	close(fd);
	{
		char		 why[512];
		struct store	*st = store_open(f->base, p, why, sizeof why);

		assert_non_null(st);
		store_free(st);
	}
	assert_int_equal(file_int(p, "PRAGMA user_version"), STORE_SCHEMA);
}

/*
 * The disk full (a file size limit): the request says so, the store goes
 * on reading, and writes again once there is room.
 */
static void
test_store_full(void **state)
{
	struct fix	*f = *state;
	struct seen	 s;
	struct rlimit	 old, lim;
	void		(*was)(int);
	struct stat	 sb;
	char		 wal[160], name[32], key[64];
	int		 i;

	do_register(f, "Alice", "alice", "key-of-alice-0123456789012", &s);
	snprintf(wal, sizeof wal, "%s-wal", f->path);
	assert_int_equal(stat(wal, &sb), 0);
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	was = signal(SIGXFSZ, SIG_IGN);
	lim = old;
	lim.rlim_cur = sb.st_size + 8192;
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	for (i = 0; i < 1000; i++) {
		snprintf(name, sizeof name, "p%d", i);
		snprintf(key, sizeof key, "key-%d-0123456789012345678", i);
		do_register(f, name, name, key, &s);
		if (s.err != STORE_OK)
			break;
	}
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, was);
	/* EFBIG is an I/O error to SQLite; a short write, a full disk. */
	if (s.err != STORE_EFULL && s.err != STORE_EWRITE)
		fail_msg("a write past the limit: %d (%s)", s.err, s.why);
	assert_true(s.why[0] != '\0');
	/* Reads go on; writes too, once there is room. */
	do_rating(f, "alice", &s);
	assert_int_equal(s.err, STORE_OK);
	do_register(f, "Late", "late", "key-of-late-01234567890123", &s);
	assert_int_equal(s.err, STORE_OK);
	do_rating(f, "late", &s);
	assert_int_equal(s.err, STORE_OK);
}

/* A corrupt page found while running: an error naming integrity_check. */
static void
test_store_corrupt(void **state)
{
	struct fix	*f = *state;
	struct seen	 s;
	struct stat	 sb;
	char		 why[512], name[32], key[64], junk[4096];
	off_t		 off;
	int		 i, fd;

	for (i = 0; i < 200; i++) {
		snprintf(name, sizeof name, "player%d", i);
		snprintf(key, sizeof key, "key-%d-0123456789012345678", i);
		do_register(f, name, name, key, &s);
		assert_int_equal(s.err, STORE_OK);
	}
	store_free(f->store);	/* the WAL checkpointed into the file */
	f->store = NULL;
	/* Every page but the first (the schema) overwritten. */
	assert_int_equal(stat(f->path, &sb), 0);
	assert_true(sb.st_size > 4 * 4096);
	memset(junk, 0xa5, sizeof junk);
	assert_true((fd = open(f->path, O_WRONLY)) >= 0);
	for (off = 4096; off < sb.st_size; off += sizeof junk)
		assert_int_equal(pwrite(fd, junk, sizeof junk, off),
		    sizeof junk);
	close(fd);
	f->store = store_open(f->base, f->path, why, sizeof why);
	assert_non_null(f->store);
	do_rating(f, "player7", &s);
	assert_int_equal(s.err, STORE_ECORRUPT);
	assert_non_null(strstr(s.why, "PRAGMA integrity_check"));
	assert_non_null(strstr(store_strerror(s.err),
	    "PRAGMA integrity_check"));
	/* The store goes on answering. */
	memset(&s, 0, sizeof s);
	assert_int_equal(store_top(f->store, 5, seen_cb, &s), 0);
	wait_for(f, &s);
	assert_int_equal(s.err, STORE_ECORRUPT);
}

/*
 * kill -9 right after a commit is reported: the driver records games and
 * prints each one's callback, then is killed (by itself, with SIGKILL)
 * right after printing the n-th; opened again, all n are there.
 */
static void
test_store_kill9(void **state)
{
	struct fix	*f = *state;
	struct seen	 s;
	FILE		*out;
	char		 line[128], cmd[512];
	int		 status, last = 0, n;
	pid_t		 pid;
	int		 fds[2];

	store_free(f->store);
	f->store = NULL;
	rmtree(f->dir);
	assert_non_null(mkdtemp(strcpy(f->dir, "/tmp/test_store.XXXXXX")));
	snprintf(f->path, sizeof f->path, "%s/tttd.db", f->dir);
	assert_int_equal(pipe(fds), 0);
	snprintf(cmd, sizeof cmd, "%d", 25);
	if ((pid = fork()) == 0) {
		dup2(fds[1], 1);
		close(fds[0]);
		close(fds[1]);
		execl(STORE_DRIVE_PATH, STORE_DRIVE_PATH, "kill", f->path,
		    cmd, (char *)NULL);
		_exit(127);
	}
	assert_true(pid > 0);
	close(fds[1]);
	assert_non_null(out = fdopen(fds[0], "r"));
	while (fgets(line, sizeof line, out) != NULL) {
		if (sscanf(line, "committed %d", &n) == 1)
			last = n;
	}
	fclose(out);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGKILL);
	assert_int_equal(last, 25);

	{
		char	why[512];

		f->store = store_open(f->base, f->path, why, sizeof why);
		assert_non_null(f->store);
	}
	do_history(f, "alice", 100, &s);
	assert_int_equal(s.err, STORE_OK);
	assert_int_equal(s.ngames, 25);
	assert_int_equal(s.games[0].number, 25);
	do_rating(f, "alice", &s);
	assert_int_equal(s.account.games, 25);
}

#endif /* !STORE_TEST_PG */

#ifdef STORE_TEST_PG
/* Wait for s's callback while also running the loop of another store. */
static void
wait_both(struct event_base *b1, struct event_base *b2, struct seen *s)
{
	while (s->calls == 0) {
		assert_int_equal(event_base_loop(b1, EVLOOP_NONBLOCK), 0);
		assert_int_equal(event_base_loop(b2, EVLOOP_NONBLOCK), 0);
		usleep(1000);
	}
}

/*
 * The schema made at the first connection (tttd_schema says version 1);
 * a newer one refused (every request fails saying so); a connection
 * string that does not parse refused at once.
 */
static void
test_store_pg_schema(void **state)
{
	struct fix		*f = *state;
	struct store		*st;
	struct seen		 s;
	char			 why[512], sql[64];

	do_rating(f, "nobody", &s);
	assert_int_equal(s.err, STORE_ENOTFOUND);
	assert_int_equal(file_int(f->path, "SELECT version FROM tttd_schema"),
	    STORE_SCHEMA);
	assert_int_equal(file_int(f->path, "SELECT count(*) FROM tttd_schema"),
	    1);
	assert_non_null(strstr(store_name(f->store), "dbname="));
	assert_null(strstr(store_name(f->store), "password"));

	snprintf(sql, sizeof sql, "UPDATE tttd_schema SET version = %d",
	    STORE_SCHEMA + 1);
	assert_int_equal(pg_proc_exec(&pg, strrchr(f->path, '/') + 1, sql),
	    0);
	store_free(f->store);
	assert_non_null(f->store = store_open(f->base, f->path, why,
	    sizeof why));
	do_rating(f, "nobody", &s);
	assert_int_equal(s.err, STORE_EDB);
	if (strstr(s.why, "is newer than this tttd's") == NULL)
		fail_msg("why: %s", s.why);

	st = store_open(f->base, "postgresql://[::1", why, sizeof why);
	assert_null(st);
	if (strstr(why, "not a PostgreSQL connection string") == NULL)
		fail_msg("why: %s", why);
	st = store_open(f->base, "host=127.0.0.1 nosuchword=1", why,
	    sizeof why);
	assert_null(st);
}

/*
 * Two stores (two tttd on one database) at once: the same game recorded
 * by both is written once; games of the same two players, each store
 * giving them the other way round, never deadlock and none is lost.
 */
static void
test_store_pg_concurrent(void **state)
{
	struct fix		*f = *state;
	struct event_base	*b2;
	struct store		*s2;
	static struct seen	 s[2][40];
	struct seen		 one;
	struct store_game	 g;
	char			 why[512], m[16];
	int64_t			 a, b;
	int			 i, j, written = 0;

	do_register(f, "Alice", "alice", "key-of-alice-0123456789012", &one);
	a = one.account.id;
	do_register(f, "Bob", "bob", "key-of-bob-012345678901234", &one);
	b = one.account.id;
	assert_non_null(b2 = event_base_new());
	assert_non_null(s2 = store_open(b2, f->path, why, sizeof why));

	memset(s, 0, sizeof s);
	game_of(&g, "same", 1, a, b, 'X', 10);
	assert_int_equal(store_record(f->store, &g, seen_cb, &s[0][0]), 0);
	assert_int_equal(store_record(s2, &g, seen_cb, &s[1][0]), 0);
	wait_both(f->base, b2, &s[0][0]);
	wait_both(f->base, b2, &s[1][0]);
	assert_int_equal(s[0][0].err, STORE_OK);
	assert_int_equal(s[1][0].err, STORE_OK);
	assert_int_equal(s[0][0].written + s[1][0].written, 1);

	for (i = 1; i < 40; i++) {
		snprintf(m, sizeof m, "m%d", i);
		game_of(&g, m, 1, a, b, 'X', 10 + i);
		assert_int_equal(store_record(f->store, &g, seen_cb, &s[0][i]),
		    0);
		game_of(&g, m, 2, b, a, 'T', 10 + i);
		assert_int_equal(store_record(s2, &g, seen_cb, &s[1][i]), 0);
	}
	for (i = 1; i < 40; i++) {
		for (j = 0; j < 2; j++) {
			wait_both(f->base, b2, &s[j][i]);
			if (s[j][i].err != STORE_OK)
				fail_msg("game %d.%d: %s", i, j + 1,
				    s[j][i].why);
			written += s[j][i].written;
		}
	}
	assert_int_equal(written, 78);
	store_free(s2);
	event_base_free(b2);
	do_rating(f, "alice", &one);
	assert_int_equal(one.account.games, 79);
	assert_int_equal(one.account.wins, 40);
	assert_int_equal(one.account.ties, 39);
	do_rating(f, "bob", &one);
	assert_int_equal(one.account.games, 79);
	assert_int_equal(one.account.losses, 40);
}

/*
 * Two stores at once rate games of the same player (alice against bob on
 * one, against carol on the other): none is lost, and each game's ratings
 * before are those the one recorded before it left (in the order of the
 * rows), so alice's rating is the last one's after.
 */
static void
test_store_pg_rated_concurrent(void **state)
{
	struct fix		*f = *state;
	struct event_base	*b2;
	struct store		*s2;
	static struct seen	 s[2][30];
	struct seen		 one;
	struct store_game	 g;
	char			 why[512], m[16], sql[256];
	int64_t			 a, b, c;
	int			 i, j, n = 30;
	PGconn			*pc;
	PGresult		*r;
	double			 last, before, after;

	do_register(f, "Alice", "alice", "key-of-alice-0123456789012", &one);
	a = one.account.id;
	do_register(f, "Bob", "bob", "key-of-bob-012345678901234", &one);
	b = one.account.id;
	do_register(f, "Carol", "carol", "key-of-carol-0123456789012", &one);
	c = one.account.id;
	assert_non_null(b2 = event_base_new());
	assert_non_null(s2 = store_open(b2, f->path, why, sizeof why));
	memset(s, 0, sizeof s);
	for (i = 0; i < n; i++) {
		snprintf(m, sizeof m, "b%d", i);
		game_of(&g, m, 1, a, b, 'X', 10 + i);
		assert_int_equal(store_record_rated(f->store, &g, test_rate,
		    seen_cb, &s[0][i]), 0);
		snprintf(m, sizeof m, "c%d", i);
		game_of(&g, m, 1, c, a, i % 2 ? 'O' : 'T', 10 + i);
		assert_int_equal(store_record_rated(s2, &g, test_rate,
		    seen_cb, &s[1][i]), 0);
	}
	for (i = 0; i < n; i++) {
		for (j = 0; j < 2; j++) {
			wait_both(f->base, b2, &s[j][i]);
			if (s[j][i].err != STORE_OK || !s[j][i].written)
				fail_msg("game %d of store %d: %s", i, j + 1,
				    s[j][i].why);
		}
	}
	store_free(s2);
	event_base_free(b2);

	pc = PQconnectdb(f->path);
	assert_int_equal(PQstatus(pc), CONNECTION_OK);
	snprintf(sql, sizeof sql, "SELECT CASE WHEN x_id = %lld THEN"
	    " x_before ELSE o_before END, CASE WHEN x_id = %lld THEN x_after"
	    " ELSE o_after END FROM games ORDER BY seq", (long long)a,
	    (long long)a);
	r = PQexec(pc, sql);
	assert_int_equal(PQresultStatus(r), PGRES_TUPLES_OK);
	assert_int_equal(PQntuples(r), 2 * n);
	last = 1500;
	for (i = 0; i < PQntuples(r); i++) {
		before = strtod(PQgetvalue(r, i, 0), NULL);
		after = strtod(PQgetvalue(r, i, 1), NULL);
		if (before != last)
			fail_msg("game %d (in order): alice's rating before "
			    "%.2f, not %.2f", i + 1, before, last);
		last = after;
	}
	PQclear(r);
	PQfinish(pc);
	do_rating(f, "alice", &one);
	assert_int_equal(one.account.games, 2 * n);
	assert_true(one.account.rating == last);
	assert_true(one.account.rating == 1500 + 10 * n + 10 * (n / 2));
}

/* Ask for alice's rating until it comes (the store back): its error. */
static enum store_err
rating_until_ok(struct fix *f, int tries)
{
	struct seen	s;

	while (tries-- > 0) {
		do_rating(f, "alice", &s);
		if (s.err == STORE_OK)
			return (STORE_OK);
		assert_int_equal(s.err, STORE_EDOWN);
		usleep(100 * 1000);
	}
	return (s.err);
}

/*
 * PostgreSQL stopped: what was asked fails (STORE_EDOWN), what is asked
 * meanwhile fails at once, nothing waits for it; started again, the
 * store reconnects by itself and a game is recorded.
 */
static void
test_store_pg_down(void **state)
{
	struct fix		*f = *state;
	struct seen		 s;
	struct store_game	 g;
	int64_t			 a, b;
	int			 i;

	do_register(f, "Alice", "alice", "key-of-alice-0123456789012", &s);
	a = s.account.id;
	do_register(f, "Bob", "bob", "key-of-bob-012345678901234", &s);
	b = s.account.id;
	pg_proc_stop(&pg);
	for (i = 0; i < 3; i++) {
		do_rating(f, "alice", &s);
		assert_int_equal(s.err, STORE_EDOWN);
		assert_true(s.why[0] != '\0');
	}
	game_of(&g, "d", 1, a, b, 'X', 10);
	do_record(f, &g, &s);
	assert_int_equal(s.err, STORE_EDOWN);
	assert_int_equal(store_pending(f->store), 0);

	assert_int_equal(pg_proc_restart(&pg), 0);
	/* 300 tries 0.1 s apart: far more than the 5 s backoff at most. */
	assert_int_equal(rating_until_ok(f, 300), STORE_OK);
	do_record(f, &g, &s);
	assert_int_equal(s.err, STORE_OK);
	assert_int_equal(s.written, 1);
	do_rating(f, "alice", &s);
	assert_int_equal(s.account.games, 1);
}

/*
 * PostgreSQL slow: a table locked by another session holds a request
 * until the server's statement_timeout cancels it (STORE_EBUSY); its
 * backend stopped (SIGSTOP), a request fails at its deadline
 * (STORE_EDOWN) rather than waiting forever, and once it runs again
 * the store reconnects.
 */
static void
test_store_pg_slow(void **state)
{
	struct fix	*f = *state;
	struct seen	 s;
	PGconn		*c;
	PGresult	*r;
	long		 pid;
	char		 sql[160];

	do_register(f, "Alice", "alice", "key-of-alice-0123456789012", &s);
	c = PQconnectdb(f->path);
	assert_int_equal(PQstatus(c), CONNECTION_OK);
	r = PQexec(c, "BEGIN; LOCK TABLE accounts IN ACCESS EXCLUSIVE MODE");
	assert_int_equal(PQresultStatus(r), PGRES_COMMAND_OK);
	PQclear(r);
	do_rating(f, "alice", &s);
	assert_int_equal(s.err, STORE_EBUSY);
	if (strstr(s.why, "statement timeout") == NULL)
		fail_msg("why: %s", s.why);
	PQfinish(c);
	do_rating(f, "alice", &s);
	assert_int_equal(s.err, STORE_OK);

	snprintf(sql, sizeof sql, "SELECT pid FROM pg_stat_activity WHERE "
	    "application_name = 'tttd' AND datname = '%s'",
	    strrchr(f->path, '/') + 1);
	pid = pg_proc_int(&pg, "postgres", sql);
	assert_true(pid > 0);
	assert_int_equal(kill((pid_t)pid, SIGSTOP), 0);
	do_rating(f, "alice", &s);
	kill((pid_t)pid, SIGCONT);
	assert_int_equal(s.err, STORE_EDOWN);
	if (strstr(s.why, "no answer within") == NULL)
		fail_msg("why: %s", s.why);
	assert_int_equal(rating_until_ok(f, 300), STORE_OK);
}
#endif


int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_store_key),
		cmocka_unit_test_setup_teardown(test_store_register, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_store_login_rekey, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_store_record, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_store_record_rated, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_store_history, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_store_forget, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_store_top, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_store_order, setup,
		    teardown),
#ifdef STORE_TEST_PG
		cmocka_unit_test_setup_teardown(test_store_pg_schema, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_store_pg_rated_concurrent,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_store_pg_concurrent,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_store_pg_down, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_store_pg_slow, setup,
		    teardown),
#else
		cmocka_unit_test_setup_teardown(test_store_schema, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_store_open_errors,
		    setup_bare, teardown),
		cmocka_unit_test_setup_teardown(test_store_full, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_store_corrupt, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_store_kill9, setup,
		    teardown),
#endif
	};

#ifdef STORE_TEST_PG
	return (cmocka_run_group_tests(tests, pg_group_setup,
	    pg_group_teardown));
#else
	return (cmocka_run_group_tests(tests, NULL, NULL));
#endif
}
