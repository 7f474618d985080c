/*
 * test_e2e_cluster_pg.c -- accounts across the cluster (issue 27): nodes
 * on a real redis-server (redis_proc.c) sharing a real PostgreSQL
 * (pg_proc.c).  Signed in on one node, rated on the match's node, read on
 * a third; two games of one player ending at once on two nodes; a rated
 * game's record written exactly once across a take-up.
 */
#include <sys/types.h>

#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <libpq-fe.h>

#include "cluster_fix.h"
#include "e2e_line.h"
#include "harness.h"
#include "pg_proc.h"

#define SEND(c, ...)		line_send_at(__LINE__, (c), __VA_ARGS__)
#define WANT_PREFIX(c, p, o)	line_want_prefix_at(__LINE__, (c), (p), (o), \
				    sizeof (o))
#define WANT_QUIET(c, ms)	line_want_quiet_at(__LINE__, (c), (ms))
#define T_TAKEN_OVER	"INFO You signed in on another connection: you " \
			    "are a guest here now."

static struct pg_proc	pg;

/* A node of the cluster on the run's PostgreSQL. */
static struct tttd_proc *
cpg_node(struct cl_fix *f, const char *name)
{
	static char		 uri[160];
	static const char	*args[] = { "--db", uri, NULL };

	pg_proc_uri(&pg, "tttd", uri, sizeof uri);
	return (cl_node_with(f, name, args));
}

/* A player in a room of its own on tp (never paired by the queue). */
static struct conn *
cpg_parked(struct cl_fix *f, struct tttd_proc *tp, char *code)
{
	struct conn	*c = CONNECT(f->e, tp);
	char		 line[LINE_SIZE];

	SEND(c, "ROOM NEW");
	WANT_PREFIX(c, "OK ROOM ", line);
	snprintf(code, 16, "%.15s", line + 8);
	WANT_PREFIX(c, "WAIT ", line);
	return (c);
}

/* NAME n, REGISTER (signed in): its key into key (64 bytes). */
static void
cpg_register(struct conn *c, const char *name, char *key)
{
	char	line[LINE_SIZE];

	SEND(c, "NAME %s", name);
	WANT(c, "OK NAME %s", name);
	SEND(c, "REGISTER");
	WANT(c, "OK REGISTER %s", name);
	WANT_PREFIX(c, "KEY ", line);
	if (sscanf(line, "KEY %63s", key) != 1)
		fail_msg("no key in \"%s\"", line);
}

/* o joins x's room code; both at START: p[0] the one who moves first. */
static void
cpg_join(struct conn *x, struct conn *o, const char *code, struct conn *p[2])
{
	char	line[LINE_SIZE];

	SEND(o, "ROOM JOIN %s", code);
	expect_skip_to(x, "START ", line, sizeof line);
	expect_skip_to(o, "START ", NULL, 0);
	p[0] = strncmp(line, "START X", 7) == 0 ? x : o;
	p[1] = p[0] == x ? o : x;
}

/* p[0] wins down column B: all but the last move (B3). */
static void
cpg_play_to_last(struct conn *p[2])
{
	static const char	*moves[] = { "B1", "A1", "B2", "A2" };
	int			 i;

	for (i = 0; i < 4; i++) {
		SEND(p[i % 2], "%s", moves[i]);
		expect_skip_to(p[i % 2], "OK MOVE", NULL, 0);
	}
}

/* After RESULT: the score, AGAIN?, then a line beginning with want. */
static void
cpg_after_result(struct conn *c, const char *want, char *line, size_t size)
{
	expect_skip_to(c, "RESULT ", NULL, 0);
	line_want_prefix_at(__LINE__, c, "INFO Score: ", line, size);
	line_want_prefix_at(__LINE__, c, "AGAIN? ", line, size);
	line_want_prefix_at(__LINE__, c, want, line, size);
}

/*
 * Signed in on node b (REGISTER there), bob plays in alice's room on node
 * a (a remote seat there): the game is rated on a as both accounts, bob
 * hears his new rating through b, and RATING on node c reads the same
 * numbers from PostgreSQL.  (Before, a game with a remote seat was not
 * rated: no rating line after AGAIN?, nothing written.)
 */
static void
test_cluster_pg_rated_across(void **state)
{
	struct cl_fix		*f = *state;
	struct tttd_proc	*na = cpg_node(f, "a"), *nb = cpg_node(f, "b");
	struct tttd_proc	*nc = cpg_node(f, "c");
	struct conn		*a, *b, *c, *p[2];
	char			 code[16], key[64], line[LINE_SIZE];
	const char		*win, *lose;

	cl_wait_stat(__LINE__, f, na, "cluster_nodes", 3);
	a = cpg_parked(f, na, code);
	cpg_register(a, "alice", key);
	b = CONNECT(f->e, nb);
	cpg_register(b, "bob", key);
	cpg_join(a, b, code, p);
	cpg_play_to_last(p);
	SEND(p[0], "B3");
	win = p[0] == a ? "alice" : "bob";
	lose = p[0] == a ? "bob" : "alice";
	cpg_after_result(p[0], "INFO Your rating: ", line, sizeof line);
	assert_string_equal(line, "INFO Your rating: 1741? (+241).");
	cpg_after_result(p[1], "INFO Your rating: ", line, sizeof line);
	assert_string_equal(line, "INFO Your rating: 1259? (-241).");

	c = CONNECT(f->e, nc);
	SEND(c, "RATING %s", win);
	WANT(c, "OK RATING %s 1741? 397 1 1 0 0", win);
	SEND(c, "RATING %s", lose);
	WANT(c, "OK RATING %s 1259? 397 1 0 1 0", lose);
	assert_int_equal(pg_proc_int(&pg, "tttd", "SELECT count(*) FROM games"
	    " WHERE x_id IS NOT NULL AND o_id IS NOT NULL"), 1);
}

/*
 * alice plays bob on node a; she signs in on node b meanwhile: her
 * connection on a is told, as on one node, and goes on as a guest under
 * its seat's name (bob told as for a rename), so the game is not rated.
 * (Before, she was signed in on both nodes and the game was rated.)
 */
static void
test_cluster_pg_takeover_across(void **state)
{
	struct cl_fix		*f = *state;
	struct tttd_proc	*na = cpg_node(f, "a"), *nb = cpg_node(f, "b");
	struct conn		*a1, *a2, *bob, *p[2];
	char			 ca[16], cb[16], key[64], kb[64], line[LINE_SIZE];
	int			 i;

	cl_wait_stat(__LINE__, f, na, "cluster_nodes", 2);
	a1 = cpg_parked(f, na, ca);
	cpg_register(a1, "alice", key);
	bob = CONNECT(f->e, na);
	cpg_register(bob, "bob", kb);
	cpg_join(a1, bob, ca, p);
	a2 = cpg_parked(f, nb, cb);
	SEND(a2, "LOGIN %s", key);
	WANT(a2, "OK LOGIN alice 1500 500");
	expect_skip_to(a1, T_TAKEN_OVER, NULL, 0);
	expect_skip_to(bob, "INFO alice is now known as p", line, sizeof line);
	if (strcmp(line, "INFO alice is now known as p1.") != 0 &&
	    strcmp(line, "INFO alice is now known as p2.") != 0)
		fail_msg("not a seat's name: \"%s\"", line);
	cpg_play_to_last(p);
	SEND(p[0], "B3");
	for (i = 0; i < 2; i++) {
		expect_skip_to(p[i], "RESULT ", NULL, 0);
		WANT_PREFIX(p[i], "INFO Score: ", line);
		WANT_PREFIX(p[i], "AGAIN? ", line);
		WANT_QUIET(p[i], 500);
	}
	SEND(a2, "RATING");
	WANT(a2, "OK RATING alice 1500? 500 0 0 0 0");
	SEND(bob, "RATING");
	WANT(bob, "OK RATING bob 1500? 500 0 0 0 0");
	assert_int_equal(pg_proc_int(&pg, "tttd", "SELECT count(*) FROM games"),
	    0);
}

/*
 * The rating in node b's entry of the shared queue (the last word of a
 * signed-in player's entry, cluster.md), as a Redis integer; -1: none,
 * -2: a guest's.
 */
#define CPG_QUEUED_RATING	"EVAL \"local e = redis.call('lindex', " \
	"KEYS[1], 0) if not e then return -1 end return tonumber(" \
	"string.match(e, '^b %x+ %d+ (%d+)$') or -2)\" 1 tttd:queue"

/*
 * alice, signed in on node b, plays bob in his room on node a (a remote
 * seat there, rated there); bob leaves, she goes back to the queue on b:
 * b pairs her by her new rating, as its entry of her in the shared
 * queue says.  (Before, b kept the rating she signed in with: 1500.)
 */
static void
test_cluster_pg_remote_rating(void **state)
{
	struct cl_fix		*f = *state;
	struct tttd_proc	*na = cpg_node(f, "a"), *nb = cpg_node(f, "b");
	struct conn		*alice, *bob, *p[2];
	char			 code[16], key[64], line[LINE_SIZE];

	cl_wait_stat(__LINE__, f, na, "cluster_nodes", 2);
	bob = cpg_parked(f, na, code);
	cpg_register(bob, "bob", key);
	alice = CONNECT(f->e, nb);
	cpg_register(alice, "alice", key);
	cpg_join(bob, alice, code, p);
	cpg_play_to_last(p);
	SEND(p[0], "B3");
	cpg_after_result(alice, "INFO Your rating: ", line, sizeof line);
	cpg_after_result(bob, "INFO Your rating: ", line, sizeof line);
	SEND(bob, "QUIT");
	expect_skip_to(alice, "INFO bob left the match.", NULL, 0);
	SEND(alice, "AGAIN y");
	WANT(alice, "OK AGAIN y");
	WANT_PREFIX(alice, "WAIT ", line);
	cl_wait_redis_at(__LINE__, f, CPG_QUEUED_RATING,
	    p[0] == alice ? 1741 : 1259);
}

/* Rows of a query on the run's database, or fail. */
static PGresult *
cpg_query(PGconn *pc, const char *sql, ExecStatusType want)
{
	PGresult	*r = PQexec(pc, sql);

	if (PQresultStatus(r) != want)
		fail_msg("%s: %s", sql, PQerrorMessage(pc));
	return (r);
}

/*
 * p[0] of p and p[1] of it to play; p[win] to move next, its next move
 * (into last, 3 bytes) winning: column B for p[0], column A for p[1].
 */
static void
cpg_play_to_win(struct conn *p[2], int win, char *last)
{
	static const char	*moves[2][5] = {
		{ "B1", "A1", "B2", "A2", NULL },
		{ "C1", "A1", "C2", "A2", "B3" }
	};
	int			 i;

	for (i = 0; i < 5 && moves[win][i] != NULL; i++) {
		SEND(p[i % 2], "%s", moves[win][i]);
		expect_skip_to(p[i % 2], "OK MOVE", NULL, 0);
	}
	snprintf(last, 3, "%s", win == 0 ? "B3" : "A3");
}

/*
 * One account (alice) plays on two nodes at once: her connection on node
 * a lost mid-game (her seat held under her name), she signs in on node b
 * and plays there too; her row held locked by the test until both nodes
 * wait on it (the games ended at once), then let go: both games are
 * rated, one after the other, each from the rating the other left
 * (before, a rating read before the lock was used: the second game's
 * "before" was 1500 again).  Signed in on both nodes at once she cannot
 * be: a sign-in on one takes the account over from the other.
 */
static void
test_cluster_pg_same_player_two_nodes(void **state)
{
	struct cl_fix		*f = *state;
	struct tttd_proc	*na = cpg_node(f, "a"), *nb = cpg_node(f, "b");
	struct conn		*a1, *a2, *bob, *carol, *p[2], *q[2];
	char			 ca[16], cb[16], key[64], kb[64], line[LINE_SIZE];
	char			 uri[160], sql[512], last[3];
	PGconn			*pc;
	PGresult		*r;
	double			 before2, after1, after2, rating;
	long			 deadline;

	cl_wait_stat(__LINE__, f, na, "cluster_nodes", 2);
	a1 = cpg_parked(f, na, ca);
	cpg_register(a1, "alice", key);
	bob = CONNECT(f->e, na);
	cpg_register(bob, "bob", kb);
	cpg_join(a1, bob, ca, p);
	cpg_play_to_win(p, p[1] == bob, last);
	conn_drop(a1, 0);
	expect_skip_to(bob, "INFO alice lost the connection.", NULL, 0);
	a2 = cpg_parked(f, nb, cb);
	SEND(a2, "LOGIN %s", key);
	WANT_PREFIX(a2, "OK LOGIN alice ", line);
	carol = CONNECT(f->e, nb);
	cpg_register(carol, "carol", kb);
	cpg_join(a2, carol, cb, q);
	cpg_play_to_last(q);

	pg_proc_uri(&pg, "tttd", uri, sizeof uri);
	pc = PQconnectdb(uri);
	assert_int_equal(PQstatus(pc), CONNECTION_OK);
	PQclear(cpg_query(pc, "BEGIN", PGRES_COMMAND_OK));
	PQclear(cpg_query(pc, "SELECT id FROM accounts WHERE fold = 'alice'"
	    " FOR UPDATE", PGRES_TUPLES_OK));
	SEND(bob, "%s", last);
	SEND(q[0], "B3");
	/* Both nodes wait on alice's row (their statement_timeout: 2 s). */
	deadline = harness_now_ms() + 10000;
	while (pg_proc_int(&pg, "tttd", "SELECT count(*) FROM pg_locks"
	    " WHERE NOT granted") < 2 && harness_now_ms() < deadline)
		usleep(5 * 1000);
	PQclear(cpg_query(pc, "COMMIT", PGRES_COMMAND_OK));
	cpg_after_result(bob, "INFO Your rating: ", line, sizeof line);
	cpg_after_result(q[0], "INFO Your rating: ", line, sizeof line);

	snprintf(sql, sizeof sql, "SELECT CASE WHEN x_id = a.id THEN x_before"
	    " ELSE o_before END, CASE WHEN x_id = a.id THEN x_after ELSE"
	    " o_after END, a.rating, a.games FROM games, accounts AS a WHERE"
	    " a.fold = 'alice' AND (x_id = a.id OR o_id = a.id) ORDER BY seq");
	r = cpg_query(pc, sql, PGRES_TUPLES_OK);
	assert_int_equal(PQntuples(r), 2);
	assert_int_equal(atoi(PQgetvalue(r, 0, 3)), 2);
	after1 = strtod(PQgetvalue(r, 0, 1), NULL);
	before2 = strtod(PQgetvalue(r, 1, 0), NULL);
	after2 = strtod(PQgetvalue(r, 1, 1), NULL);
	rating = strtod(PQgetvalue(r, 1, 2), NULL);
	if (before2 != after1)
		fail_msg("alice's second game began at %.2f, not %.2f (the "
		    "first's end)", before2, after1);
	assert_true(rating == after2);
	PQclear(r);
	PQfinish(pc);
}

/* Skip c's lines to one beginning with prefix, within ms (or fail). */
static void
cpg_skip_within(int ln, struct conn *c, const char *prefix, char *out,
    size_t size, int ms)
{
	char	line[LINE_SIZE];
	long	deadline = harness_now_ms() + ms;

	while (harness_now_ms() < deadline) {
		if (line_read(c, line, sizeof line, ms) < 0)
			break;
		if (strncmp(line, prefix, strlen(prefix)) == 0) {
			if (out != NULL)
				snprintf(out, size, "%s", line);
			return;
		}
	}
	fail_msg("line %d: no \"%s...\" within %d ms", ln, prefix, ms);
}

/* Matches kept in Redis whose image carries a rated record (40 words). */
#define CPG_KEPT_RECORDS "EVAL \"local c = 0 for _, k in ipairs(" \
	"redis.call('KEYS', '*match:*')) do if redis.call('TYPE', k).ok == " \
	"'string' then local n = 0 for _ in string.gmatch(redis.call('GET', " \
	"k), '%S+') do n = n + 1 end if n == 40 then c = c + 1 end end end " \
	"return c\" 0"

/*
 * alice (signed in on node a, her room there) and bob (signed in on node
 * b, a remote seat on a) play a game to its last move; alice's token.
 */
static void
cpg_takeup_game(struct cl_fix *f, struct tttd_proc *na, struct tttd_proc *nb,
    struct conn **a, struct conn **b, struct conn *p[2], char *token)
{
	char	code[16], key[64], line[LINE_SIZE];

	cl_wait_stat(__LINE__, f, na, "cluster_nodes", 2);
	*a = cpg_parked(f, na, code);
	cpg_register(*a, "alice", key);
	*b = CONNECT(f->e, nb);
	cpg_register(*b, "bob", key);
	SEND(*b, "ROOM JOIN %s", code);
	token[0] = '\0';
	do {	/* alice's TOKEN comes with her START */
		cpg_skip_within(__LINE__, *a, "", line, sizeof line,
		    HARNESS_TIMEOUT_MS);
		if (strncmp(line, "TOKEN ", 6) == 0 &&
		    sscanf(line, "TOKEN %15s", token) != 1)
			fail_msg("no token in \"%s\"", line);
	} while (strncmp(line, "START ", 6) != 0 || token[0] == '\0');
	expect_skip_to(*b, "START ", NULL, 0);
	p[0] = strncmp(line, "START X", 7) == 0 ? *a : *b;
	p[1] = p[0] == *a ? *b : *a;
	cpg_play_to_last(p);
}

/*
 * After a take-up: alice comes back to node b (signed in again), both
 * play another game of the match, and it is rated (two games in the
 * history, each game's "before" the one before's "after").
 */
static void
cpg_takeup_next_game(struct cl_fix *f, struct tttd_proc *nb, struct conn *b,
    const char *token)
{
	struct conn	*a2, *p[2];
	char		 line[LINE_SIZE];

	a2 = CONNECT(f->e, nb);
	SEND(a2, "RESUME %s", token);
	cpg_skip_within(__LINE__, a2, "OK RESUME", NULL, 0, CLUSTER_WAIT_MS);
	cpg_skip_within(__LINE__, a2, "INFO Signed in as alice again.", NULL,
	    0, CLUSTER_WAIT_MS);
	SEND(a2, "AGAIN YES");
	SEND(b, "AGAIN YES");
	expect_skip_to(a2, "START ", line, sizeof line);
	p[0] = strncmp(line, "START X", 7) == 0 ? a2 : b;
	p[1] = p[0] == a2 ? b : a2;
	expect_skip_to(b, "START ", NULL, 0);
	cpg_play_to_last(p);
	SEND(p[0], "B3");
	cpg_after_result(p[0], "INFO Your rating: ", line, sizeof line);
	cpg_after_result(p[1], "INFO Your rating: ", line, sizeof line);
	assert_int_equal(pg_proc_int(&pg, "tttd", "SELECT count(*) FROM games"),
	    2);
	assert_int_equal(pg_proc_int(&pg, "tttd", "SELECT count(*) FROM games"
	    " AS g2, games AS g1, accounts AS a WHERE g1.number = 1 AND"
	    " g2.number = 2 AND g1.match = g2.match AND a.games = 2 AND"
	    " ((a.id = g1.x_id AND g1.x_after = CASE WHEN a.id = g2.x_id THEN"
	    " g2.x_before ELSE g2.o_before END) OR (a.id = g1.o_id AND"
	    " g1.o_after = CASE WHEN a.id = g2.x_id THEN g2.x_before ELSE"
	    " g2.o_before END)) AND a.rating = CASE WHEN a.id = g2.x_id THEN"
	    " g2.x_after ELSE g2.o_after END"), 2);
}

/* The one game in the history, its ratings both accounts' own, once. */
static void
cpg_rated_once(void)
{
	assert_int_equal(pg_proc_int(&pg, "tttd", "SELECT count(*) FROM games"
	    " WHERE x_id IS NOT NULL AND o_id IS NOT NULL"), 1);
	assert_int_equal(pg_proc_int(&pg, "tttd", "SELECT count(*) FROM"
	    " accounts AS a, games AS g WHERE a.games = 1 AND a.rating <> 1500"
	    " AND ((a.id = g.x_id AND a.rating = g.x_after AND g.x_before ="
	    " 1500) OR (a.id = g.o_id AND a.rating = g.o_after AND g.o_before"
	    " = 1500))"), 2);
}

/*
 * Node a (the match's) is killed after the game's end is kept in Redis
 * but before its record is committed (both accounts' rows held locked by
 * the test): node b takes the match up and writes the game, once; bob,
 * there, hears his new rating; a later game of the match is rated.
 * (Before: the kept match carried no record, and the game was never
 * rated: no row in games.)
 */
static void
test_cluster_pg_takeup_writes_record(void **state)
{
	struct cl_fix		*f = *state;
	struct tttd_proc	*na = cpg_node(f, "a"), *nb = cpg_node(f, "b");
	struct conn		*a, *b, *p[2];
	char			 token[16], uri[160], line[LINE_SIZE];
	PGconn			*pc;
	long			 deadline;

	cpg_takeup_game(f, na, nb, &a, &b, p, token);
	pg_proc_uri(&pg, "tttd", uri, sizeof uri);
	pc = PQconnectdb(uri);
	assert_int_equal(PQstatus(pc), CONNECTION_OK);
	PQclear(cpg_query(pc, "BEGIN", PGRES_COMMAND_OK));
	PQclear(cpg_query(pc, "SELECT id FROM accounts FOR UPDATE",
	    PGRES_TUPLES_OK));
	SEND(p[0], "B3");
	/* Node a waits on the rows (its statement_timeout: 2 s). */
	deadline = harness_now_ms() + 10000;
	while (pg_proc_int(&pg, "tttd", "SELECT count(*) FROM pg_locks"
	    " WHERE NOT granted") < 1 && harness_now_ms() < deadline)
		usleep(5 * 1000);
	cl_wait_redis_at(__LINE__, f, CPG_KEPT_RECORDS, 1);
	kill(na->pid, SIGKILL);
	PQclear(cpg_query(pc, "COMMIT", PGRES_COMMAND_OK));
	PQfinish(pc);

	cpg_skip_within(__LINE__, b, "INFO Your rating: ", line, sizeof line,
	    CLUSTER_WAIT_MS);
	cpg_rated_once();
	cl_wait_redis_at(__LINE__, f, CPG_KEPT_RECORDS, 0);
	(void)a;
	cpg_takeup_next_game(f, nb, b, token);
}

/*
 * Node a is killed right after its commit (both players heard their new
 * ratings): node b takes the match up and writes nothing more (one game,
 * ratings as they were); a later game of the match is rated.
 */
static void
test_cluster_pg_takeup_after_commit(void **state)
{
	struct cl_fix		*f = *state;
	struct tttd_proc	*na = cpg_node(f, "a"), *nb = cpg_node(f, "b");
	struct conn		*a, *b, *p[2];
	char			 token[16], line[LINE_SIZE];

	cpg_takeup_game(f, na, nb, &a, &b, p, token);
	SEND(p[0], "B3");
	cpg_after_result(p[0], "INFO Your rating: ", line, sizeof line);
	cpg_after_result(p[1], "INFO Your rating: ", line, sizeof line);
	kill(na->pid, SIGKILL);
	cpg_rated_once();
	cpg_skip_within(__LINE__, b, "MATCH ", NULL, 0, CLUSTER_WAIT_MS);
	cpg_rated_once();
	cpg_takeup_next_game(f, nb, b, token);
}

/* Kept matches' keys in Redis, and the ids in the instances' sets. */
#define CPG_MATCH_LEFT "EVAL \"local c = #redis.call('KEYS', '*match:*') " \
	"for _, k in ipairs(redis.call('KEYS', '*owner:*')) do " \
	"c = c + redis.call('SCARD', k) end return c\" 0"
/* Kept records of rated games whose match ended ("<owner> record ..."). */
#define CPG_KEPT_ENDED "EVAL \"local c = 0 for _, k in ipairs(" \
	"redis.call('KEYS', '*match:*')) do if redis.call('TYPE', k).ok == " \
	"'string' and string.sub(redis.call('GET', k), 17, 24) == " \
	"' record ' then c = c + 1 end end return c\" 0"

/*
 * bob (node b) loses his connection during the game (his seat on node a
 * away), then alice (node a) QUITs it: bob wins by forfeit, and the match
 * ends with the game, nobody left in it.  The test holds both accounts'
 * rows locked, so the record waits for its commit: kept in Redis alone.
 */
static PGconn *
cpg_quit_held(struct cl_fix *f, struct tttd_proc *na, struct tttd_proc *nb)
{
	struct conn	*a, *b, *p[2];
	char		 token[16], uri[160];
	PGconn		*pc;
	long		 deadline;

	cpg_takeup_game(f, na, nb, &a, &b, p, token);
	conn_close(b);
	cpg_skip_within(__LINE__, a, "INFO bob lost the connection.", NULL, 0,
	    HARNESS_TIMEOUT_MS);
	pg_proc_uri(&pg, "tttd", uri, sizeof uri);
	pc = PQconnectdb(uri);
	assert_int_equal(PQstatus(pc), CONNECTION_OK);
	PQclear(cpg_query(pc, "BEGIN", PGRES_COMMAND_OK));
	PQclear(cpg_query(pc, "SELECT id FROM accounts FOR UPDATE",
	    PGRES_TUPLES_OK));
	SEND(a, "QUIT");
	/* Node a waits on the rows (its statement_timeout: 2 s). */
	deadline = harness_now_ms() + 10000;
	while (pg_proc_int(&pg, "tttd", "SELECT count(*) FROM pg_locks"
	    " WHERE NOT granted") < 1 && harness_now_ms() < deadline)
		usleep(5 * 1000);
	cl_wait_redis_at(__LINE__, f, CPG_KEPT_ENDED, 1);
	assert_int_equal(cl_redis_int(__LINE__, f, CPG_KEPT_RECORDS), 0);
	return (pc);
}

/*
 * A rated game ended by the loser's QUIT, its match with it, and node a
 * killed before the commit: node b writes the game once, and nothing of
 * the match is left in Redis.  (Before: the match's end dropped it from
 * Redis at once, and the game was never rated: no row in games.)
 */
static void
test_cluster_pg_takeup_ended_match(void **state)
{
	struct cl_fix		*f = *state;
	struct tttd_proc	*na = cpg_node(f, "a"), *nb = cpg_node(f, "b");
	PGconn			*pc;
	char			 log[16384];
	long			 deadline;

	pc = cpg_quit_held(f, na, nb);
	kill(na->pid, SIGKILL);
	PQclear(cpg_query(pc, "COMMIT", PGRES_COMMAND_OK));
	PQfinish(pc);
	harness_log_wait(nb, log, sizeof log, "written by the node that took");
	if (strstr(log, "rated record taken up (the match ended)") == NULL ||
	    strstr(log, "written by the node that took it up") == NULL)
		fail_msg("node b wrote no record taken up: %s", log);
	deadline = harness_now_ms() + CLUSTER_WAIT_MS;
	while (pg_proc_int(&pg, "tttd", "SELECT count(*) FROM games") < 1 &&
	    harness_now_ms() < deadline)
		usleep(20 * 1000);
	cpg_rated_once();
	cl_wait_redis_at(__LINE__, f, CPG_MATCH_LEFT, 0);
	usleep(500 * 1000);	/* nothing written twice */
	cpg_rated_once();
}

/*
 * Without a kill, the ended match's kept record goes once node a has
 * committed it: the game written once, nothing of the match in Redis.
 */
static void
test_cluster_pg_ended_match_dropped(void **state)
{
	struct cl_fix		*f = *state;
	struct tttd_proc	*na = cpg_node(f, "a"), *nb = cpg_node(f, "b");
	PGconn			*pc;
	long			 deadline;

	pc = cpg_quit_held(f, na, nb);
	PQclear(cpg_query(pc, "COMMIT", PGRES_COMMAND_OK));
	PQfinish(pc);
	deadline = harness_now_ms() + CLUSTER_WAIT_MS;
	while (pg_proc_int(&pg, "tttd", "SELECT count(*) FROM games") < 1 &&
	    harness_now_ms() < deadline)
		usleep(20 * 1000);
	cpg_rated_once();
	cl_wait_redis_at(__LINE__, f, CPG_MATCH_LEFT, 0);
}

/* A database of the run's PostgreSQL, emptied for each test. */
static int
cpg_setup(void **state)
{
	if (pg_proc_exec(&pg, "tttd", "SET client_min_messages = warning;"
	    " DROP TABLE IF EXISTS games, accounts, tttd_schema") == -1)
		return (-1);
	return (cl_setup(state));
}

static int
cpg_group_setup(void **state)
{
	(void)state;
	return (pg_proc_start(&pg));
}

static int
cpg_group_teardown(void **state)
{
	(void)state;
	pg_proc_destroy(&pg);
	return (0);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test_setup_teardown(test_cluster_pg_rated_across,
		    cpg_setup, cl_teardown),
		cmocka_unit_test_setup_teardown(
		    test_cluster_pg_same_player_two_nodes, cpg_setup,
		    cl_teardown),
		cmocka_unit_test_setup_teardown(
		    test_cluster_pg_takeup_writes_record, cpg_setup,
		    cl_teardown),
		cmocka_unit_test_setup_teardown(
		    test_cluster_pg_takeup_after_commit, cpg_setup,
		    cl_teardown),
		cmocka_unit_test_setup_teardown(
		    test_cluster_pg_takeup_ended_match, cpg_setup,
		    cl_teardown),
		cmocka_unit_test_setup_teardown(
		    test_cluster_pg_ended_match_dropped, cpg_setup,
		    cl_teardown),
		cmocka_unit_test_setup_teardown(
		    test_cluster_pg_takeover_across, cpg_setup, cl_teardown),
		cmocka_unit_test_setup_teardown(
		    test_cluster_pg_remote_rating, cpg_setup, cl_teardown),
	};

	return (cmocka_run_group_tests(tests, cpg_group_setup,
	    cpg_group_teardown));
}
