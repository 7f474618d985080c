/*
 * test_e2e_cluster.c -- tttd nodes sharing a Redis are one service
 * (docs/cluster.md): the real tttd, several of them, and a real
 * redis-server the test starts on a free loopback port.  Two players
 * waiting on two nodes are paired, the match runs on one node and the
 * other relays its player, and neither player can tell: the bytes are the
 * ones a single node sends.  A node's name is its own; Redis may die and
 * come back, and a node may die, without a crash or a stuck player.
 */
#include <sys/types.h>

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
#include "e2e_game.h"
#include "ws_client.h"
#include "cluster_fix.h"

#define SEND(c, ...)		line_send_at(__LINE__, (c), __VA_ARGS__)
#define WANT_QUIET(c, ms)	line_want_quiet_at(__LINE__, (c), (ms))

#define S_FIRST_WINS	"A1 A2 B1 B2 C1"
#define S_TIE		"A1 B1 C1 A2 B2 A3 B3 C3 C2"
#define T_NAME_TAKEN	"That name is taken; choose another."

/* Two players on two nodes play two games and a rematch, as on one. */
static void
test_cluster_pairs_across_nodes(void **state)
{
	struct cl_fix		*f = *state;
	struct tttd_proc	*a = cl_node(f, "a"), *b = cl_node(f, "b");
	struct game		 g;

	char			 log[32768];

	cl_wait_stat(__LINE__, f, a, "cluster_nodes", 2);
	cl_wait_stat(__LINE__, f, b, "cluster_nodes", 2);
	cl_pair_at(__LINE__, f, a, b, &g);
	/* The logs name the other node, and the match its players. */
	log[0] = '\0';
	harness_log_wait(a, log, sizeof log, "to a match on node b");
	if (strstr(log, "to a match on node b") == NULL)
		fail_msg("node a's log: %s", log);
	log[0] = '\0';
	harness_log_wait(b, log, sizeof log, " on node a (p1, X) vs client ");
	if (strstr(log, " on node a (p1, X) vs client ") == NULL)
		fail_msg("node b's log: %s", log);
	GAME_PLAY(&g, S_FIRST_WINS);
	game_rematch_at(__LINE__, &g, !g.winner, "AGAIN y", "AGAIN y",
	    g.winner);
	GAME_PLAY(&g, S_TIE);
	/* Chat crosses too, and QUIT of the relayed player ends it. */
	SEND(g.p[0], "SAY good game");
	WANT_RAW(g.p[0], "OK SAY");
	WANT_RAW(g.p[1], "CHAT p1 good game");
	SEND(g.p[0], "QUIT");
	WANT_RAW(g.p[0], "BYE Thank you for playing!");
	WANT_EOF(g.p[0]);
	WANT_RAW(g.p[1], "INFO p1 left the match.");
}

/*
 * Read everything a connection gets until it has been quiet a while:
 * the TOKEN line (random) aside, the bytes as they came.
 */
static void
cl_drain(struct conn *c, char *out, size_t size, int quiet_ms)
{
	char	line[LINE_SIZE];
	size_t	len = strlen(out);
	int	n;

	while ((n = conn_rawline(c, line, sizeof line, quiet_ms)) >= 0) {
		if (strncmp(line, "TOKEN ", 6) == 0)
			continue;
		if (len + (size_t)n + 2 < size) {
			memcpy(out + len, line, (size_t)n);
			len += (size_t)n;
			out[len++] = '\n';
			out[len] = '\0';
		}
	}
}

/* The same script on x and o, which may be on one node or two. */
static void
cl_script(struct cl_fix *f, struct tttd_proc *ta, struct tttd_proc *tb,
    char *tx, char *to, size_t size)
{
	struct conn	*x, *o, *p[2];
	const char	*moves[] = { "A1", "A2", "B1", "B2", "C1" };
	const struct {
		int		 seat;
		const char	*line;
	} after[] = {
		{ 1, "SAY well played" }, { 0, "NAME anna" }, { 0, "MOVE B3" },
		/* Pipelined, with a refusal between (the relayed player's) */
		{ 0, "BOARD\r\nFOO\r\nBOARD\r\nMOVE Z9\r\nPING" },
		{ 1, "FOO" }, { 1, "maybe" }, { 1, "AGAIN n" }
	};
	int		 i, first;

	tx[0] = to[0] = '\0';
	x = e2e_conn(f->e);
	line_open_at(__LINE__, x, ta->port);
	line_nodelay(x);
	SEND(x, "NAME ann");
	cl_drain(x, tx, size, 700);
	o = e2e_conn(f->e);
	line_open_at(__LINE__, o, tb->port);
	line_nodelay(o);
	SEND(o, "NAME bob");
	cl_drain(o, to, size, 1200);
	cl_drain(x, tx, size, 300);
	p[0] = x;
	p[1] = o;
	first = strstr(tx, "START X") != NULL ? 0 : 1;
	for (i = 0; i < 5; i++) {
		SEND(p[(first + i) % 2], "MOVE %s", moves[i]);
		cl_drain(p[0], tx, size, 250);
		cl_drain(p[1], to, size, 250);
	}
	/* One at a time: the order of two players' lines is the test's. */
	for (i = 0; i < (int)(sizeof after / sizeof after[0]); i++) {
		SEND(p[after[i].seat], "%s", after[i].line);
		cl_drain(p[0], tx, size, 300);
		cl_drain(p[1], to, size, 300);
	}
}

/*
 * A client cannot tell whether its opponent is on its node: the same
 * script gets the same bytes from one node as from two (tokens aside).
 */
static void
test_cluster_same_bytes_as_one_node(void **state)
{
	struct cl_fix		*f = *state;
	const char *const	 alone[] = { "--seed", "7", NULL };
	struct tttd_proc	*one = e2e_server(f->e, alone);
	struct tttd_proc	*a = cl_node(f, "a"), *b = cl_node(f, "b");
	static char		 x1[16384], o1[16384], x2[16384], o2[16384];

	cl_wait_stat(__LINE__, f, a, "cluster_nodes", 2);
	cl_script(f, one, one, x1, o1, sizeof x1);
	cl_script(f, a, b, x2, o2, sizeof x2);
	assert_non_null(strstr(x1, "RESULT WIN"));
	assert_non_null(strstr(x1, "CHAT bob well played"));
	assert_string_equal(x1, x2);
	assert_string_equal(o1, o2);
}

/*
 * Two live nodes may not share a name: the second will not start.  It
 * says only why: no "listening on" (it once printed it, then exited 1),
 * and no match ids for a node that never was.
 */
static void
test_cluster_node_name_taken(void **state)
{
	struct cl_fix		*f = *state;
	struct tttd_proc	*a = cl_node(f, "twin");
	const char		*args[] = { "--port", "0",
				    "--bind", "127.0.0.1", "--http-port", "any",
				    "--redis", f->redis.addr, "--node", "twin",
				    NULL, NULL, NULL };
	char			 out[512], err[4096];
	struct conn		*c;

	assert_int_equal(harness_run2(args, out, sizeof out, err, sizeof err,
	    5000), 1);
	if (out[0] != '\0' || strstr(err, " error node name twin is in use "
	    "by a live node") == NULL || strstr(err, "listening") != NULL ||
	    strstr(err, "http on") != NULL || strstr(err, "match ids") != NULL)
		fail_msg("the name taken: stdout \"%s\", log:\n%s", out, err);
	args[5] = "0";
	/* The first goes on, in the cluster. */
	c = CONNECT(f->e, a);
	assert_int_equal(line_stat_at(__LINE__, c, "redis_connected"), 1);
	/* A bad --redis (a name, not an address) is refused at once. */
	args[7] = "localhost:6379";
	args[9] = "other";
	assert_int_equal(harness_run(args, out, sizeof out, 5000), 2);
	args[7] = "127.0.0.1";		/* no port */
	assert_int_equal(harness_run(args, out, sizeof out, 5000), 2);
	args[7] = "[::1]:0";		/* port 0 */
	assert_int_equal(harness_run(args, out, sizeof out, 5000), 2);
	/* A node name with a blank, or too long; a prefix with a blank. */
	args[7] = f->redis.addr;
	args[9] = "two words";
	assert_int_equal(harness_run(args, out, sizeof out, 5000), 2);
	args[9] = "n12345678901234567890123456789012345678901234567890"
	    "12345678901234567890";	/* 71: over 64 */
	assert_int_equal(harness_run(args, out, sizeof out, 5000), 2);
	args[9] = "other";
	args[10] = "--redis-prefix";
	args[11] = "a b";
	args[12] = NULL;
	assert_int_equal(harness_run(args, out, sizeof out, 5000), 2);
}

/*
 * Redis dies: each node serves its own players (pairing, games), says
 * redis_connected 0; Redis comes back empty: the nodes join again by
 * themselves, and players on two nodes are paired again.
 */
static void
test_cluster_redis_down_and_back(void **state)
{
	struct cl_fix		*f = *state;
	struct tttd_proc	*a = cl_node(f, "a"), *b = cl_node(f, "b");
	struct game		 g;

	cl_wait_stat(__LINE__, f, a, "cluster_nodes", 2);
	redis_proc_kill(&f->redis);
	cl_wait_stat(__LINE__, f, a, "redis_connected", 0);
	cl_pair_at(__LINE__, f, a, a, &g);
	GAME_PLAY(&g, S_FIRST_WINS);
	assert_int_equal(redis_proc_restart(&f->redis), 0);
	cl_wait_stat(__LINE__, f, a, "cluster_nodes", 2);
	cl_wait_stat(__LINE__, f, b, "redis_connected", 1);
	cl_pair_at(__LINE__, f, b, a, &g);
	GAME_PLAY(&g, S_TIE);
}

/*
 * The relayed player's connection drops: its opponent is told, as on one
 * node, and the player takes its seat back with RESUME on the match's
 * node.
 */
static void
test_cluster_remote_player_lost(void **state)
{
	struct cl_fix		*f = *state;
	struct tttd_proc	*a = cl_node(f, "a"), *b = cl_node(f, "b");
	struct game		 g;
	struct conn		*back;

	cl_wait_stat(__LINE__, f, a, "cluster_nodes", 2);
	cl_pair_at(__LINE__, f, a, b, &g);	/* X on a, the match on b */
	conn_close(g.p[0]);
	WANT_RAW(g.p[1], "INFO p1 lost the connection. Waiting up to 30 "
	    "seconds for them to come back.");
	back = CONNECT(f->e, b);
	SEND(back, "RESUME %s", g.token[0]);
	WANT_RAW(back, "OK RESUME");
	WANT_RAW(g.p[1], "INFO p1 is back.");
}

/* GAMES on node tp, until it lists a match of x and o: its id. */
static unsigned long long
cl_find_game(int ln, struct cl_fix *f, struct tttd_proc *tp, struct conn *w,
    const char *x, const char *o)
{
	char			 line[LINE_SIZE], want[96];
	unsigned long long	 id = 0;
	long			 deadline = harness_now_ms() + 5000;
	int			 n;

	(void)f;
	(void)tp;
	snprintf(want, sizeof want, " %s %s ", x, o);
	while (id == 0 && harness_now_ms() < deadline) {
		line_send_at(ln, w, "GAMES");
		if (line_read(w, line, sizeof line, HARNESS_TIMEOUT_MS) < 0 ||
		    sscanf(line, "OK GAMES %d", &n) != 1)
			fail_msg("line %d: GAMES: \"%s\"", ln, line);
		while (n-- > 0) {
			if (line_read(w, line, sizeof line,
			    HARNESS_TIMEOUT_MS) < 0)
				fail_msg("line %d: GAMES cut short", ln);
			if (strstr(line, want) != NULL)
				id = strtoull(line + 5, NULL, 10);
		}
		if (id == 0)
			usleep(200000);
	}
	if (id == 0)
		fail_msg("line %d: no GAME of %s and %s", ln, x, o);
	return (id);
}

/* GAMES on w: the reply's lines raw (CR kept), each ended by a LF. */
static void
cl_games_raw(int ln, struct conn *w, char *out, size_t size)
{
	char	line[LINE_SIZE];
	size_t	len = 0;
	int	n = 0, k;

	line_send_at(ln, w, "GAMES");
	if ((k = conn_rawline(w, line, sizeof line, HARNESS_TIMEOUT_MS)) < 0 ||
	    sscanf(line, "OK GAMES %d", &n) != 1)
		fail_msg("line %d: GAMES: \"%s\"", ln, line);
	for (;;) {
		if (len + (size_t)k + 2 > size)
			fail_msg("line %d: GAMES too long", ln);
		memcpy(out + len, line, (size_t)k);
		len += (size_t)k;
		out[len++] = '\n';
		if (n-- == 0)
			break;
		if ((k = conn_rawline(w, line, sizeof line,
		    HARNESS_TIMEOUT_MS)) < 0)
			fail_msg("line %d: GAMES cut short", ln);
	}
	out[len] = '\0';
}

/* x and o (connected to tp) in a room of x's: their game begun. */
static void
cl_room_game(int ln, struct cl_fix *f, struct tttd_proc *tp, struct game *g,
    const char *xname)
{
	struct conn	*x, *o;
	char		 got[LINE_SIZE], code[16];

	x = e2e_connect_at(ln, f->e, tp);
	o = e2e_connect_at(ln, f->e, tp);
	cl_game_init(g, x, o);
	if (xname != NULL) {
		line_send_at(ln, x, "NAME %s", xname);
		line_want_at(ln, 1, x, "OK NAME %s", xname);
		snprintf(g->name[0], sizeof g->name[0], "%s", xname);
	}
	line_send_at(ln, x, "ROOM NEW");
	line_want_prefix_at(ln, x, "OK ROOM ", got, sizeof got);
	snprintf(code, sizeof code, "%.15s", got + 8);
	line_want_at(ln, 1, x, "WAIT Waiting for a friend to join room %s...",
	    code);
	line_send_at(ln, o, "ROOM JOIN %s", code);
	line_want_at(ln, 1, o, "OK ROOM %s", code);
	game_match_at(ln, g);
	game_start_at(ln, g, -1);
}

/* A player connected to tp waiting in a room of its own (not paired). */
static struct conn *
cl_roomed(int ln, struct cl_fix *f, struct tttd_proc *tp)
{
	struct conn	*w = e2e_connect_at(ln, f->e, tp);
	char		 got[LINE_SIZE];

	line_send_at(ln, w, "ROOM NEW");
	line_want_prefix_at(ln, w, "OK ROOM ", got, sizeof got);
	line_want_prefix_at(ln, w, "WAIT ", got, sizeof got);
	return (w);
}

/*
 * GAMES lists the other nodes' matches in the very bytes their own node
 * lists them with, after its own: a UTF-8 name, the moves made, a seat
 * away.
 */
static void
test_cluster_games_same_bytes(void **state)
{
	struct cl_fix		*f = *state;
	struct tttd_proc	*a = cl_node(f, "a"), *b = cl_node(f, "b");
	struct conn		*wa, *wb;
	struct game		 g, h;
	char			 ona[1024], onb[1024], wanta[1024], wantb[1024];
	char			 lg[256], lh[256], *p;
	unsigned long long	 ida = 0, idb = 0;
	long			 deadline;

	cl_wait_stat(__LINE__, f, a, "cluster_nodes", 2);
	cl_wait_stat(__LINE__, f, b, "cluster_nodes", 2);
	/* On a: Zoë against p2, two moves, then p2's connection lost. */
	cl_room_game(__LINE__, f, a, &g, "Zo\xc3\xab");
	game_move_at(__LINE__, &g, "MOVE A1", game_cell("A1"));
	game_move_at(__LINE__, &g, "MOVE B2", game_cell("B2"));
	conn_close(g.p[1]);
	WANT_RAW(g.p[0], "INFO p2 lost the connection. Waiting up to 30 "
	    "seconds for them to come back.");
	/* On b: p1 against p2, no move yet. */
	cl_room_game(__LINE__, f, b, &h, NULL);

	/* Each node's own line, as it formats its own matches. */
	wa = cl_roomed(__LINE__, f, a);
	wb = cl_roomed(__LINE__, f, b);
	cl_games_raw(__LINE__, wa, ona, sizeof ona);
	if ((p = strstr(ona, "\nGAME ")) == NULL ||
	    sscanf(p + 6, "%llu", &ida) != 1)
		fail_msg("no GAME on a: %s", ona);
	cl_games_raw(__LINE__, wb, onb, sizeof onb);
	if ((p = strstr(onb, "\nGAME ")) == NULL ||
	    sscanf(p + 6, "%llu", &idb) != 1)
		fail_msg("no GAME on b: %s", onb);
	snprintf(lg, sizeof lg, "GAME %llu Zo\xc3\xab p2 2 away=O\r\n", ida);
	snprintf(lh, sizeof lh, "GAME %llu p1 p2 0\r\n", idb);
	snprintf(wanta, sizeof wanta, "OK GAMES 2\r\n%s%s", lg, lh);
	snprintf(wantb, sizeof wantb, "OK GAMES 2\r\n%s%s", lh, lg);
	/* Then the other's, byte for byte (the lists are a second old). */
	deadline = harness_now_ms() + 5000;
	while ((strcmp(ona, wanta) != 0 || strcmp(onb, wantb) != 0) &&
	    harness_now_ms() < deadline) {
		usleep(200000);
		cl_games_raw(__LINE__, wa, ona, sizeof ona);
		cl_games_raw(__LINE__, wb, onb, sizeof onb);
	}
	assert_string_equal(ona, wanta);
	assert_string_equal(onb, wantb);
}

/*
 * ROOM NEW on one node, ROOM JOIN on another (a line sent with it waits
 * its turn); GAMES on any node lists the match, and WATCH works from
 * there; RESUME on another node than the match's gives the seat back; a
 * wrong code, token or id is refused as on one node.
 */
static void
test_cluster_rooms_watch_resume(void **state)
{
	struct cl_fix		*f = *state;
	struct tttd_proc	*a = cl_node(f, "a"), *b = cl_node(f, "b");
	struct conn		*x, *o, *w, *back;
	struct game		 g;
	char			 got[LINE_SIZE], code[16], line[LINE_SIZE];
	unsigned long long	 id;
	int			 n;

	cl_wait_stat(__LINE__, f, a, "cluster_nodes", 2);
	x = CONNECT(f->e, a);
	SEND(x, "ROOM NEW");
	line_want_prefix_at(__LINE__, x, "OK ROOM ", got, sizeof got);
	snprintf(code, sizeof code, "%.15s", got + 8);
	WANT_RAW(x, "WAIT Waiting for a friend to join room %s...", code);
	o = CONNECT(f->e, b);
	snprintf(line, sizeof line, "ROOM JOIN %s\r\nPING\r\n", code);
	assert_int_equal(conn_write(o, line, strlen(line)), 0);
	WANT_RAW(o, "OK ROOM %s", code);
	cl_game_init(&g, x, o);
	GAME_MATCH(&g);
	GAME_START(&g, -1);
	WANT_RAW(o, "OK PONG");	/* after the join, not before */

	/* A third player on b sees the match of a, and watches it. */
	w = CONNECT(f->e, b);
	id = cl_find_game(__LINE__, f, b, w, "p1", "p2");
	SEND(w, "WATCH %llu", id);
	WANT_RAW(w, "OK WATCH %llu", id);
	WANT_RAW(w, "INFO You are watching game %llu: p1 (X) against p2 (O).",
	    id);
	WANT(w, "BOARD .........");
	WANT(w, "TURN %c Waiting for %s to move...", game_mark(g.turn),
	    g.name[g.turn]);
	GAME_WATCHED(&g, "Someone");

	/* Wrong ones, as one node says (after asking the others). */
	back = CONNECT(f->e, b);
	SEND(back, "WATCH 12345");
	WANT_RAW(back, "ERR NO_SUCH_GAME No match with that number is being "
	    "played.");
	SEND(back, "RESUME ZZZZZZZZ");
	WANT_RAW(back, "ERR BAD_TOKEN That code does not match a seat you can "
	    "resume.");

	/* X (on a, the match's node) comes back through b. */
	conn_close(x);
	WANT_RAW(o, "INFO p1 lost the connection. Waiting up to 30 seconds "
	    "for them to come back.");
	SEND(back, "RESUME %s", g.token[0]);
	WANT_RAW(back, "OK RESUME");
	WANT_RAW(o, "INFO p1 is back.");

	/*
	 * The match ends, both players leave: the watcher on b is told, and
	 * stays where it is, queued nowhere, until it asks to play.
	 */
	do {
		if ((n = line_read(back, line, sizeof line,
		    HARNESS_TIMEOUT_MS)) < 0)
			fail_msg("no TOKEN after RESUME (%d, \"%s\")", n,
			    line);
	} while (strncmp(line, "TOKEN ", 6) != 0);
	g.p[0] = back;
	GAME_PLAY(&g, "A1 B1 A2 B2 A3");
	SEND(g.p[0], "QUIT");
	WANT_RAW(g.p[0], T_BYE);
	SEND(g.p[1], "QUIT");
	snprintf(got, sizeof got, "INFO Game %llu is over.", id);
	do {
		if (line_read(w, line, sizeof line, HARNESS_TIMEOUT_MS) < 0)
			fail_msg("the watcher never heard the game end");
	} while (strcmp(line, got) != 0);
	WANT_RAW(w, "INFO Type PLAY to play, or GAMES to watch another game.");
	line_want_quiet_at(__LINE__, w, 700);
	assert_int_equal(line_stat_at(__LINE__, w, "players_waiting"), 0);
	SEND(w, "PLAY");
	WANT_RAW(w, "OK PLAY");
	WANT_RAW(w, T_WAIT);
}

/*
 * A name is one player's in the whole cluster, in any case and in letters
 * that look alike: taken on one node, refused on another (the lines after
 * NAME wait for the answer); free again once its player has gone.
 */
static void
test_cluster_names_across_nodes(void **state)
{
	struct cl_fix		*f = *state;
	struct tttd_proc	*a = cl_node(f, "a"), *b = cl_node(f, "b");
	struct conn		*x, *y;
	long			 deadline;
	char			 line[LINE_SIZE];
	int			 ok = 0;

	cl_wait_stat(__LINE__, f, a, "cluster_nodes", 2);
	x = CONNECT(f->e, a);
	SEND(x, "NAME Zoë");
	WANT_RAW(x, "OK NAME Zoë");
	y = CONNECT(f->e, b);
	assert_int_equal(conn_write(y, "NAME ZOË\r\nPING\r\n",
	    strlen("NAME ZOË\r\nPING\r\n")), 0);
	WANT_RAW(y, "ERR NAME_TAKEN " T_NAME_TAKEN);
	WANT_RAW(y, "OK PONG");
	/* Nor in letters that look alike: both nodes make one key. */
	SEND(y, "NAME Z\xd0\xbe\xc3\xab");	/* Zоë, a Cyrillic о */
	WANT_RAW(y, "ERR NAME_TAKEN " T_NAME_TAKEN);
	SEND(y, "NAME zed");
	WANT_RAW(y, "OK NAME zed");
	/* Its player gone, the name is free on the other node. */
	SEND(x, "QUIT");
	WANT_RAW(x, "BYE Thank you for playing!");
	deadline = harness_now_ms() + 3000;
	while (!ok && harness_now_ms() < deadline) {
		SEND(y, "NAME zoë");
		if (line_read(y, line, sizeof line, HARNESS_TIMEOUT_MS) < 0)
			fail_msg("no answer to NAME");
		ok = strcmp(line, "OK NAME zoë") == 0;
		if (!ok)
			usleep(100000);
	}
	assert_true(ok);
}

/*
 * A relayed player keeps every limit of its node: a line too long is
 * refused (by its match's node, in turn) and play goes on; a flood is
 * refused, then ends the connection, and the opponent on the other node
 * wins by forfeit.
 */
static void
test_cluster_relayed_limits(void **state)
{
	struct cl_fix		*f = *state;
	const char *const	 args[] = { "--redis", f->redis.addr, "--node",
				    NULL, "--rate-limit", "1", "--rate-burst",
				    "5", NULL };
	const char		*argv[sizeof args / sizeof args[0]];
	struct tttd_proc	*a, *b;
	struct game		 g;
	char			 big[400], line[LINE_SIZE];
	int			 bye = 0;

	memcpy(argv, args, sizeof args);
	argv[3] = "a";
	a = e2e_server(f->e, argv);
	argv[3] = "b";
	b = e2e_server(f->e, argv);
	cl_wait_stat(__LINE__, f, a, "cluster_nodes", 2);
	cl_pair_at(__LINE__, f, a, b, &g);	/* X on a, relayed to b */
	memset(big, 'x', 300);
	memcpy(big + 300, "\r\n", 3);
	assert_int_equal(conn_write(g.p[0], big, 302), 0);
	WANT_RAW(g.p[0], "ERR LINE_TOO_LONG Lines are limited to 256 bytes.");
	usleep(1200000);	/* the rate limit's bucket full again */
	assert_int_equal(conn_write(g.p[0], "PING\nPING\nPING\nPING\nPING\n"
	    "PING\nPING\nPING\nPING\nPING\nPING\nPING\n", 60), 0);
	while (!bye && conn_line(g.p[0], line, sizeof line,
	    HARNESS_TIMEOUT_MS) >= 0) {
		if (strcmp(line, "BYE Too many commands. Goodbye.") == 0)
			bye = 1;
		else if (strcmp(line, "OK PONG") != 0 && strcmp(line,
		    "ERR RATE_LIMITED Too many commands. Please slow down.") !=
		    0)
			fail_msg("unexpected \"%s\"", line);
	}
	assert_true(bye);
	assert_true(conn_wait_closed(g.p[0], HARNESS_TIMEOUT_MS));
	WANT_RAW(g.p[1], "RESULT FORFEIT O p2 p1 lost the connection. p2 "
	    "wins!");
}

/*
 * Found in review.  A player asking the other nodes (WATCH of nothing)
 * while a newcomer pairs with it here still gets its answer, and its next
 * line; a player renamed while a RESUME takes its seat over leaves no name
 * behind (under ASan, the next NAME read freed memory).
 */
static void
test_cluster_review_races(void **state)
{
	struct cl_fix		*f = *state;
	struct tttd_proc	*a = cl_node(f, "a");
	struct conn		*p1, *p2, *p3, *p4;
	struct game		 g;
	char			 line[LINE_SIZE];
	int			 err = 0, pong = 0;

	cl_wait_stat(__LINE__, f, a, "redis_connected", 1);
	p1 = CONNECT(f->e, a);
	WANT_QUIET(p1, 700);		/* posted: alone, ready */
	p2 = CONNECT(f->e, a);
	usleep(250000);			/* p2 is ready in the ask's 500 ms */
	SEND(p1, "WATCH 12345");
	SEND(p1, "PING");
	while ((!err || !pong) && conn_line(p1, line, sizeof line,
	    HARNESS_TIMEOUT_MS) >= 0) {
		err |= strcmp(line, "ERR NO_SUCH_GAME No match with that number "
		    "is being played.") == 0;
		pong |= strcmp(line, "OK PONG") == 0;
	}
	assert_true(err && pong);

	/* NAME and a RESUME of the same seat at once. */
	SEND(p1, "QUIT");
	SEND(p2, "QUIT");
	p1 = CONNECT(f->e, a);
	WANT_QUIET(p1, 700);
	p2 = CONNECT(f->e, a);
	cl_game_init(&g, p1, p2);
	GAME_MATCH(&g);
	GAME_START(&g, -1);
	p3 = CONNECT(f->e, a);
	SEND(p1, "NAME zed");
	SEND(p3, "RESUME %s", g.token[0]);
	WANT_RAW(p3, "OK RESUME");
	usleep(300000);
	p4 = CONNECT(f->e, a);
	SEND(p4, "NAME zed");
	if (line_read(p4, line, sizeof line, HARNESS_TIMEOUT_MS) < 0)
		fail_msg("no answer to NAME zed: the node died?");
	SEND(p4, "PING");
	WANT_RAW(p4, "OK PONG");
}

/*
 * The rest of a match across nodes, as on one node: an abort before the
 * first move (the other player heads its own node's queue again), RESIGN
 * by the relayed player, and the relayed player's clock running out.
 */
static void
test_cluster_abort_resign_clock(void **state)
{
	struct cl_fix		*f = *state;
	const char		*argv[] = { "--redis", f->redis.addr, "--node",
				    NULL, "--turn-timeout", "3", NULL };
	struct tttd_proc	*a, *b;
	struct game		 g, h, k;
	struct conn		*z;
	char			 got[LINE_SIZE];
	int			 x;

	argv[3] = "a";
	a = e2e_server(f->e, argv);
	argv[3] = "b";
	b = e2e_server(f->e, argv);
	cl_wait_stat(__LINE__, f, a, "cluster_nodes", 2);

	/* O (the match's node's own) walks away before moving. */
	cl_pair_at(__LINE__, f, a, b, &g);
	SEND(g.p[1], "QUIT");
	WANT_RAW(g.p[1], "BYE Thank you for playing!");
	WANT_RAW(g.p[0], "INFO p2 left before the first move. No result.");
	WANT_RAW(g.p[0], "WAIT Waiting for an opponent...");
	z = CONNECT(f->e, a);		/* X waits at the front on its node */
	WANT_RAW(g.p[0], "MATCH X p2 You play X against p2.");
	WANT_RAW(z, "MATCH O p1 You play O against p1.");
	SEND(g.p[0], "QUIT");
	SEND(z, "QUIT");

	/* The relayed player resigns. */
	cl_pair_at(__LINE__, f, a, b, &h);
	SEND(h.p[0], "RESIGN");
	WANT_RAW(h.p[0], "OK RESIGN");
	WANT_RAW(h.p[0], "RESULT WIN O p2 p1 resigned.");
	WANT_RAW(h.p[1], "RESULT WIN O p2 p1 resigned.");
	SEND(h.p[0], "QUIT");
	SEND(h.p[1], "QUIT");

	/* The relayed player's clock (run by the match's node) runs out. */
	cl_pair_at(__LINE__, f, a, b, &k);
	if (k.turn == 1) {		/* O first: it moves, X's turn then */
		SEND(k.p[1], "MOVE B2");
		WANT_RAW(k.p[1], "OK MOVE B2");
	}
	for (x = 0; x < 2; x++) {	/* both told, the relayed one too */
		for (;;) {
			if (conn_line(k.p[x], got, sizeof got, 8000) < 0)
				fail_msg("%s was not told X's time ran out",
				    k.name[x]);
			if (strncmp(got, "RESULT ", 7) == 0)
				break;
		}
		assert_string_equal(got, "RESULT FORFEIT O p2 p1 ran out of "
		    "time. p2 wins!");
	}
}

/*
 * A WebSocket player joins a room of another node: its next message waits
 * for the join (kept while the node asks), then comes in turn.
 */
static void
test_cluster_websocket_join(void **state)
{
	struct cl_fix		*f = *state;
	const char		*argv[] = { "--redis", f->redis.addr, "--node",
				    NULL, "--http-port", "any", NULL };
	struct tttd_proc	*a, *b;
	struct conn		*x, *w;
	char			 got[LINE_SIZE], code[16], join[64];
	int			 pong = 0, matched = 0;

	argv[3] = "a";
	a = e2e_server(f->e, argv);
	argv[3] = "b";
	b = e2e_server(f->e, argv);
	cl_wait_stat(__LINE__, f, a, "cluster_nodes", 2);
	x = CONNECT(f->e, a);
	SEND(x, "ROOM NEW");
	line_want_prefix_at(__LINE__, x, "OK ROOM ", got, sizeof got);
	snprintf(code, sizeof code, "%.15s", got + 8);
	WANT_RAW(x, "WAIT Waiting for a friend to join room %s...", code);
	w = e2e_conn(f->e);
	assert_int_equal(wsc_open(w, b->http_port), 0);
	wsc_skip_to(w, "WAIT ", got, sizeof got);
	snprintf(join, sizeof join, "ROOM JOIN %s", code);
	assert_int_equal(wsc_send(w, join), 0);
	assert_int_equal(wsc_send(w, "PING"), 0);
	while (!pong && wsc_event(w, got, sizeof got, HARNESS_TIMEOUT_MS) >= 0) {
		if (strncmp(got, "MATCH O p1 ", 11) == 0)
			matched = 1;
		if (strcmp(got, "OK PONG") == 0)
			pong = 1;
		if (pong && !matched)
			fail_msg("OK PONG before the join's MATCH");
	}
	assert_true(matched && pong);
	WANT_RAW(x, "MATCH X p2 You play X against p2.");
}

/* The test's Redis has taken n PUBLISHes since CONFIG RESETSTAT. */
static void
cl_wait_published_at(int ln, struct cl_fix *f, int n)
{
	char	got[256] = "", want[32];
	long	deadline = harness_now_ms() + HARNESS_TIMEOUT_MS;

	snprintf(want, sizeof want, "calls=%d,", n);
	while (harness_now_ms() < deadline) {
		if (redis_proc_info(&f->redis, "commandstats",
		    "cmdstat_publish", got, sizeof got) > 0 &&
		    strncmp(got, want, strlen(want)) == 0)
			return;
		usleep(10 * 1000);
	}
	fail_msg("line %d: PUBLISH: \"%s\", not %d calls", ln, got, n);
}

/*
 * x waits alone on a (posted), a is stopped, and o comes to b: b takes x
 * from the shared queue and offers a the match (O, which waits in a's
 * socket).  Returns once the offer is sent.
 */
static void
cl_offer_to_stopped_at(int ln, struct cl_fix *f, struct tttd_proc *a,
    struct tttd_proc *b, struct conn **x, struct conn **o, int close_x)
{
	char	reply[64];

	*x = e2e_connect_at(ln, f->e, a);
	line_want_quiet_at(ln, *x, 700);
	cl_wait_redis_at(ln, f, "LLEN tttd:queue", 1);	/* x posted */
	assert_true(redis_proc_cmd(&f->redis, "CONFIG RESETSTAT", reply,
	    sizeof reply) > 0);
	cl_stop_at(ln, a->pid);
	if (close_x)		/* gone before a hears the offer */
		conn_close(*x);
	*o = e2e_connect_at(ln, f->e, b);
	cl_wait_redis_at(ln, f, "LLEN tttd:queue", 0);	/* b took x */
	cl_wait_published_at(ln, f, 1);			/* O to a */
}

/*
 * The shared queue's race, both ways.  The offered player leaves before
 * its node hears the offer (its close is read first): its node says so
 * (N), and the taker's player, left waiting, is posted again at once, so
 * a newcomer on the other node is paired with it within its half second.
 * The taker's player leaves between the offer and the hand-over (S): the
 * handed player goes back to the front of its node's queue (B), without
 * a second WAIT, and is paired with the next newcomer.
 */
static void
test_cluster_queue_race(void **state)
{
	struct cl_fix		*f = *state;
	struct tttd_proc	*a = cl_node(f, "a"), *b = cl_node(f, "b");
	struct conn		*x, *o, *z;
	struct game		 g;
	long			 t0;

	cl_wait_stat(__LINE__, f, a, "cluster_nodes", 2);
	cl_wait_stat(__LINE__, f, b, "cluster_nodes", 2);

	/* x leaves: o is posted again. */
	cl_offer_to_stopped_at(__LINE__, f, a, b, &x, &o, 1);
	kill(a->pid, SIGCONT);
	z = CONNECT(f->e, a);
	t0 = harness_now_ms();
	cl_game_init(&g, o, z);
	GAME_MATCH(&g);
	if (harness_now_ms() - t0 > 1500)
		fail_msg("o paired with z after %ld ms", harness_now_ms() - t0);
	GAME_START(&g, -1);
	GAME_PLAY(&g, S_FIRST_WINS);
	SEND(o, "QUIT");
	WANT_RAW(o, T_BYE);
	WANT_RAW(z, "INFO p1 left the match.");
	SEND(z, "QUIT");
	WANT_RAW(z, T_BYE);
	cl_wait_redis_at(__LINE__, f, "LLEN tttd:queue", 0);

	/* o leaves: x waits on a again, at the front. */
	cl_offer_to_stopped_at(__LINE__, f, a, b, &x, &o, 0);
	conn_close(o);
	usleep(300 * 1000);		/* b reads the close (b runs) */
	kill(a->pid, SIGCONT);
	WANT_QUIET(x, 700);		/* no second WAIT */
	z = CONNECT(f->e, b);
	cl_game_init(&g, x, z);
	GAME_MATCH(&g);
	GAME_START(&g, -1);
	GAME_PLAY(&g, S_TIE);
}

/*
 * Wrong RESUME tokens through a node whose seats are elsewhere: each one
 * asked of the other nodes and refused by all is charged to the address
 * at the asking node as one node charges it: 5 at once are answered
 * BAD_TOKEN, and then one more, and a right one, ERR RATE_LIMITED (the
 * token not looked at), exactly as one node answers the same lines.
 */
static void
cl_guess(struct cl_fix *f, struct tttd_proc *tp, const char *right,
    char *out, size_t size)
{
	struct conn	*c[5], *d;
	char		 line[LINE_SIZE];
	int		 i;

	out[0] = '\0';
	for (i = 0; i < 5; i++)
		c[i] = CONNECT(f->e, tp);
	for (i = 0; i < 5; i++)		/* five wrong ones at once */
		SEND(c[i], "RESUME 2222-333%d", i + 2);
	for (i = 0; i < 7; i++) {
		if (i >= 5) {		/* then a wrong one, and a right one */
			c[0] = d = CONNECT(f->e, tp);
			SEND(d, "RESUME %s", i == 5 ? "2222-3339" : right);
		}
		if (line_read(c[i < 5 ? i : 0], line, sizeof line,
		    CLUSTER_WAIT_MS) < 0)
			fail_msg("no answer to RESUME %d", i);
		strncat(out, line, size - strlen(out) - 2);
		strncat(out, "\n", size - strlen(out) - 1);
	}
}

static void
test_cluster_resume_guesses_charged(void **state)
{
	struct cl_fix		*f = *state;
	const char *const	 alone[] = { "--seed", "7", NULL };
	struct tttd_proc	*one = e2e_server(f->e, alone);
	struct tttd_proc	*a = cl_node(f, "a"), *b = cl_node(f, "b");
	struct game		 g1, g2;
	static char		 on_one[2048], on_two[2048];
	const char		*want =
	    "ERR BAD_TOKEN That code does not match a seat you can resume.\n";
	char			 five[2048] = "";
	int			 i;

	cl_wait_stat(__LINE__, f, a, "cluster_nodes", 2);
	cl_wait_stat(__LINE__, f, b, "cluster_nodes", 2);
	cl_pair_at(__LINE__, f, one, one, &g1);
	cl_pair_at(__LINE__, f, a, a, &g2);	/* the seats on a */
	cl_guess(f, one, g1.token[0], on_one, sizeof on_one);
	cl_guess(f, b, g2.token[0], on_two, sizeof on_two);
	for (i = 0; i < 5; i++)
		strcat(five, want);
	strcat(five, "ERR RATE_LIMITED Too many commands. Please slow down.\n"
	    "ERR RATE_LIMITED Too many commands. Please slow down.\n");
	assert_string_equal(on_one, five);
	assert_string_equal(on_two, on_one);
}

/*
 * A name held by a node that dies is refused on the others right after
 * the death, and free within the node timeout (a beat sees the node
 * gone).
 */
static void
test_cluster_name_of_dead_node(void **state)
{
	struct cl_fix		*f = *state;
	const char *const	 quick[] = { "--node-timeout", "3", NULL };
	struct tttd_proc	*a = cl_node_with(f, "a", quick);
	struct tttd_proc	*b = cl_node_with(f, "b", quick);
	struct conn		*x, *y;
	char			 line[LINE_SIZE];
	long			 t0, took = -1;

	cl_wait_stat(__LINE__, f, a, "cluster_nodes", 2);
	cl_wait_stat(__LINE__, f, b, "cluster_nodes", 2);
	usleep(3000 * 1000);	/* b in the cluster a node timeout: it judges */
	x = CONNECT(f->e, a);
	SEND(x, "NAME vera");
	WANT_RAW(x, "OK NAME vera");
	y = CONNECT(f->e, b);
	kill(a->pid, SIGKILL);
	t0 = harness_now_ms();
	SEND(y, "NAME vera");
	WANT_RAW(y, "ERR NAME_TAKEN " T_NAME_TAKEN);
	while (took < 0 && harness_now_ms() - t0 < 3000 + 2000) {
		SEND(y, "NAME vera");
		if (line_read(y, line, sizeof line, HARNESS_TIMEOUT_MS) < 0)
			fail_msg("no answer to NAME");
		if (strcmp(line, "OK NAME vera") == 0)
			took = harness_now_ms() - t0;
		else if (strcmp(line, "ERR NAME_TAKEN " T_NAME_TAKEN) == 0)
			usleep(100 * 1000);
		else
			fail_msg("NAME vera: \"%s\"", line);
	}
	if (took < 0)
		fail_msg("vera still taken %ld ms after its node died",
		    harness_now_ms() - t0);
	print_message("the name free %ld ms after the kill\n", took);
}

/* Register a name on a node (parked in a room): its key into key. */
static void
cl_register_at(int ln, struct cl_fix *f, struct tttd_proc *tp,
    const char *name, char *key)
{
	struct conn	*c = e2e_connect_at(ln, f->e, tp);
	char		 line[LINE_SIZE];

	line_send_at(ln, c, "ROOM NEW");
	line_want_prefix_at(ln, c, "OK ROOM ", line, sizeof line);
	line_want_prefix_at(ln, c, "WAIT ", line, sizeof line);
	line_send_at(ln, c, "NAME %s", name);
	line_want_at(ln, 0, c, "OK NAME %s", name);
	line_send_at(ln, c, "REGISTER");
	line_want_at(ln, 0, c, "OK REGISTER %s", name);
	line_want_prefix_at(ln, c, "KEY ", line, sizeof line);
	if (sscanf(line, "KEY %63s", key) != 1)
		fail_msg("line %d: no key in \"%s\"", ln, line);
}

/* Run SQL on a node's --db file. */
static void
cl_sql(const char *path, const char *sql)
{
	sqlite3	*db;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
}

/* A player signed in on a node with its key: greeted, OK LOGIN. */
static struct conn *
cl_login_at(int ln, struct cl_fix *f, struct tttd_proc *tp, const char *key,
    const char *ok)
{
	struct conn	*c = e2e_connect_at(ln, f->e, tp);

	line_send_at(ln, c, "LOGIN %s", key);
	line_want_at(ln, 0, c, "%s", ok);
	return (c);
}

/*
 * Pairing by rating across nodes (protocol.md §6.1, issue 27): alice
 * 1500 waits on node a, bob 2300 on node b (both posted, with their
 * ratings); carol 1520 comes to node b and meets alice on node a, the
 * nearest in rating, not bob on her own node; bob waits on.  A guest on
 * node a then meets bob, on node b, at once.  Each node has a --db file
 * of its own, its ratings written between two runs.
 */
static void
test_cluster_pairing_by_rating(void **state)
{
	struct cl_fix		*f = *state;
	struct tttd_proc	*a, *b;
	struct conn		*al, *bo, *ca, *g;
	char			 dir[64], pa[96], pb[96], key[3][64];
	char			 cmd[128];
	const char		*args[] = { "--db", pa, NULL };
	const char		*brgs[] = { "--db", pb, NULL };

	snprintf(dir, sizeof dir, "%s/tttd-clr.XXXXXX",
	    getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp");
	assert_non_null(mkdtemp(dir));
	snprintf(pa, sizeof pa, "%s/a.db", dir);
	snprintf(pb, sizeof pb, "%s/b.db", dir);
	a = e2e_server(f->e, args);
	b = e2e_server(f->e, brgs);
	cl_register_at(__LINE__, f, a, "alice", key[0]);
	cl_register_at(__LINE__, f, b, "bob", key[1]);
	cl_register_at(__LINE__, f, b, "carol", key[2]);
	e2e_stop(f->e, a);
	e2e_stop(f->e, b);
	cl_sql(pa, "UPDATE accounts SET rating = 1500");
	cl_sql(pb, "UPDATE accounts SET rating = CASE fold WHEN 'bob' THEN"
	    " 2300 ELSE 1520 END");
	a = cl_node_with(f, "a", args);
	b = cl_node_with(f, "b", brgs);
	cl_wait_stat(__LINE__, f, a, "cluster_nodes", 2);
	cl_wait_stat(__LINE__, f, b, "cluster_nodes", 2);
	al = cl_login_at(__LINE__, f, a, key[0], "OK LOGIN alice 1500 500");
	cl_wait_redis_at(__LINE__, f, "LLEN tttd:queue", 1);
	bo = cl_login_at(__LINE__, f, b, key[1], "OK LOGIN bob 2300 500");
	cl_wait_redis_at(__LINE__, f, "LLEN tttd:queue", 2);
	cl_wait_redis_at(__LINE__, f, "HLEN tttd:queue:since", 2);
	ca = cl_login_at(__LINE__, f, b, key[2], "OK LOGIN carol 1520 500");
	WANT_RAW(ca, "MATCH O alice You play O against alice.");
	WANT_RAW(al, "MATCH X carol You play X against carol.");
	cl_wait_redis_at(__LINE__, f, "LLEN tttd:queue", 1);
	WANT_QUIET(bo, 200);
	g = e2e_connect_at(__LINE__, f->e, a);
	WANT_RAW(g, "MATCH O bob You play O against bob.");
	WANT_RAW(bo, "MATCH X p2 You play X against p2.");
	cl_wait_redis_at(__LINE__, f, "LLEN tttd:queue", 0);
	cl_wait_redis_at(__LINE__, f, "HLEN tttd:queue:since", 0);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test_setup_teardown(test_cluster_pairs_across_nodes,
		    cl_setup, cl_teardown),
		cmocka_unit_test_setup_teardown(
		    test_cluster_same_bytes_as_one_node, cl_setup, cl_teardown),
		cmocka_unit_test_setup_teardown(test_cluster_node_name_taken,
		    cl_setup, cl_teardown),
		cmocka_unit_test_setup_teardown(
		    test_cluster_redis_down_and_back, cl_setup, cl_teardown),
		cmocka_unit_test_setup_teardown(
		    test_cluster_remote_player_lost, cl_setup, cl_teardown),
		cmocka_unit_test_setup_teardown(test_cluster_games_same_bytes,
		    cl_setup, cl_teardown),
		cmocka_unit_test_setup_teardown(test_cluster_rooms_watch_resume,
		    cl_setup, cl_teardown),
		cmocka_unit_test_setup_teardown(test_cluster_names_across_nodes,
		    cl_setup, cl_teardown),
		cmocka_unit_test_setup_teardown(test_cluster_relayed_limits,
		    cl_setup, cl_teardown),
		cmocka_unit_test_setup_teardown(test_cluster_review_races,
		    cl_setup, cl_teardown),
		cmocka_unit_test_setup_teardown(test_cluster_abort_resign_clock,
		    cl_setup, cl_teardown),
		cmocka_unit_test_setup_teardown(test_cluster_websocket_join,
		    cl_setup, cl_teardown),
		cmocka_unit_test_setup_teardown(test_cluster_queue_race,
		    cl_setup, cl_teardown),
		cmocka_unit_test_setup_teardown(
		    test_cluster_resume_guesses_charged, cl_setup, cl_teardown),
		cmocka_unit_test_setup_teardown(test_cluster_name_of_dead_node,
		    cl_setup, cl_teardown),
		cmocka_unit_test_setup_teardown(test_cluster_pairing_by_rating,
		    cl_setup, cl_teardown),
	};

	if (getenv("CLUSTER_TEST") != NULL)
		cmocka_set_test_filter(getenv("CLUSTER_TEST"));
	return (cmocka_run_group_tests(tests, NULL, NULL));
}
