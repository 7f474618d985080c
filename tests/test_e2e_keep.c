/*
 * test_e2e_keep.c -- in a cluster no game is lost with a node
 * (docs/cluster.md, "No game lost"): the real tttd nodes on a real
 * redis-server.  A node killed with SIGKILL in the middle of games, one
 * drained with SIGUSR2, and Redis restarted empty: every game goes on
 * where it was, and ends with one result that both players see.
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

#include "harness.h"
#include "cluster_fix.h"

#define SEND(c, ...)		line_send_at(__LINE__, (c), __VA_ARGS__)

#define T_RESTART	"BYE Server restarting. Reconnect and RESUME to go on."
#define T_LOST_TOUCH	"INFO Lost touch with your match's server."
#define T_SLOW		"INFO Waiting for your match's server to answer..."

/* Some moves of a game, by whoever is to move: the game goes on. */
static void
keep_moves_at(int ln, struct game *g, const char *script)
{
	char	copy[64], text[16], *w, *save = NULL;

	snprintf(copy, sizeof copy, "%s", script);
	for (w = strtok_r(copy, " ", &save); w != NULL;
	    w = strtok_r(NULL, " ", &save)) {
		snprintf(text, sizeof text, "MOVE %s", w);
		game_move_at(ln, g, text, game_cell(w));
	}
	if (g->state != GAME_ON)
		fail_msg("line %d: the game ended after \"%s\"", ln, script);
}

/*
 * A seat's player sees its match as after RESUME: MATCH, BOARD + art,
 * TURN, then a fresh TOKEN (kept in g).  The first line may take wait_ms.
 */
static void
keep_state_at(int ln, struct game *g, struct conn *c, int seat, int wait_ms)
{
	char	line[LINE_SIZE], want[LINE_SIZE];

	if (line_read(c, line, sizeof line, wait_ms) < 0)
		fail_msg("line %d: %s: no MATCH within %d ms", ln,
		    line_label(c), wait_ms);
	snprintf(want, sizeof want, "MATCH %c %s You play %c against %s.",
	    game_mark(seat), g->name[!seat], game_mark(seat), g->name[!seat]);
	if (strcmp(line, want) != 0)
		fail_msg("line %d: %s: expected \"%s\", got \"%s\"", ln,
		    line_label(c), want, line);
	game_want_board_at(ln, c, g->cells);
	if (g->turn == seat)
		line_want_at(ln, 0, c, "TURN %c " T_PROMPT, game_mark(seat));
	else
		line_want_at(ln, 0, c, "TURN %c Waiting for %s to move...",
		    game_mark(g->turn), g->name[g->turn]);
	game_want_token_at(ln, c, g->grace, g->token[seat]);
}

/*
 * The match of a connected player was taken up by another node: it sees
 * where it stands, and that its opponent (on the gone node) is away.
 */
static void
keep_taken_up_at(int ln, struct game *g, int seat)
{
	char	want[LINE_SIZE], got[LINE_SIZE];

	keep_state_at(ln, g, g->p[seat], seat, CLUSTER_WAIT_MS);
	/*
	 * The grace period counts from the take-up: 30 s, or a ms less,
	 * said in whole seconds (protocol.md §9.5): 30.
	 */
	snprintf(want, sizeof want, "INFO %s lost the connection. Waiting up "
	    "to ", g->name[!seat]);
	line_want_prefix_at(ln, g->p[seat], want, got, sizeof got);
	snprintf(want + strlen(want), sizeof want - strlen(want), "30 "
	    "seconds for them to come back.");
	if (strcmp(got, want) != 0)
		fail_msg("line %d: \"%s\", wanted \"%s\"", ln, got, want);
}

/*
 * A player of a gone node connects to node tp and takes its seat back
 * with RESUME (the answer may wait for the match to be taken up); its
 * opponent, if connected, hears it is back.
 */
static void
keep_resume_at(int ln, struct cl_fix *f, struct tttd_proc *tp, struct game *g,
    int seat, int opponent_here)
{
	struct conn	*n = e2e_connect_at(ln, f->e, tp);
	char		 line[LINE_SIZE];

	line_send_at(ln, n, "RESUME %s", g->token[seat]);
	if (line_read(n, line, sizeof line, CLUSTER_WAIT_MS) < 0 ||
	    strcmp(line, "OK RESUME") != 0)
		fail_msg("line %d: %s: RESUME %s: \"%s\"", ln, line_label(n),
		    g->token[seat], line);
	keep_state_at(ln, g, n, seat, HARNESS_TIMEOUT_MS);
	if (opponent_here)
		line_want_at(ln, 1, g->p[!seat], "INFO %s is back.",
		    g->name[seat]);
	else
		line_want_prefix_at(ln, n, "INFO", line, sizeof line);
	g->p[seat] = n;
}

/*
 * Both players of a gone node's match come back to one node at once, each
 * RESUME held while the match is taken up: neither is paired meanwhile
 * (its first line is OK RESUME), and both see their match.
 */
static void
keep_resume_both_at(int ln, struct cl_fix *f, struct tttd_proc *tp,
    struct game *g)
{
	struct conn	*n[2];
	char		 line[LINE_SIZE];
	int		 i;

	for (i = 0; i < 2; i++)
		n[i] = e2e_connect_at(ln, f->e, tp);
	for (i = 0; i < 2; i++)
		line_send_at(ln, n[i], "RESUME %s", g->token[i]);
	for (i = 0; i < 2; i++) {
		if (line_read(n[i], line, sizeof line, CLUSTER_WAIT_MS) < 0 ||
		    strcmp(line, "OK RESUME") != 0)
			fail_msg("line %d: %s: RESUME %s: \"%s\"", ln,
			    line_label(n[i]), g->token[i], line);
		keep_state_at(ln, g, n[i], i, HARNESS_TIMEOUT_MS);
	}
	/* Away, back: in the order the two came, which is theirs. */
	for (i = 0; i < 2; i++) {
		while (line_read(n[i], line, sizeof line, 300) >= 0) {
			if (strncmp(line, "INFO ", 5) != 0)
				fail_msg("line %d: %s: \"%s\"", ln,
				    line_label(n[i]), line);
		}
		g->p[i] = n[i];
	}
}

/*
 * The owner of two matches is killed (SIGKILL) halfway through them: one
 * between a player of a live node and one of its own, one between two of
 * its own.  A live node takes both up: the player still connected sees
 * its board again and its opponent away; the others come back through
 * other nodes with RESUME; both games end, each with one result.
 */
static void
test_keep_owner_killed(void **state)
{
	struct cl_fix		*f = *state;
	struct tttd_proc	*a = cl_node(f, "a"), *b = cl_node(f, "b");
	struct tttd_proc	*c = cl_node(f, "c");
	struct game		 g1, g2;

	cl_wait_stat(__LINE__, f, a, "cluster_nodes", 3);
	cl_wait_stat(__LINE__, f, c, "cluster_nodes", 3);
	cl_pair_at(__LINE__, f, a, b, &g1);	/* X on a, the match on b */
	cl_pair_at(__LINE__, f, b, b, &g2);	/* both on b */
	keep_moves_at(__LINE__, &g1, "A1 A2");
	keep_moves_at(__LINE__, &g2, "A1 A2");
	kill(b->pid, SIGKILL);
	keep_resume_both_at(__LINE__, f, a, &g2);	/* at once */
	keep_taken_up_at(__LINE__, &g1, 0);
	keep_resume_at(__LINE__, f, c, &g1, 1, 1);
	GAME_PLAY(&g1, "B1 B2 C1");
	GAME_PLAY(&g2, "B1 B2 C1");
}

/*
 * SIGUSR2 drains the owner: its players hear BYE (come back), it exits 0
 * once the other node has its matches, and its name is free at once for
 * the upgraded node.  Its player in a match of the other node is a lost
 * connection there.  The games go on, and end.  Its log says so: each
 * match handed to another node, by its players' names; no forfeit, no
 * seat held (it once logged "game 1 forfeited by p1" for a game that
 * went on elsewhere), and "its 2 matches" / "its 1 match".
 */
static void
test_keep_drain(void **state)
{
	struct cl_fix		*f = *state;
	struct tttd_proc	*a = cl_node(f, "a"), *b = cl_node(f, "b");
	struct game		 g1, g2, g3;
	static char		 log[1 << 16];
	char			 want[256];
	const char		*drain, *p;
	int			 rc, n;

	cl_wait_stat(__LINE__, f, a, "cluster_nodes", 2);
	cl_pair_at(__LINE__, f, a, b, &g1);	/* the match on b */
	cl_pair_at(__LINE__, f, b, b, &g2);	/* on b */
	cl_pair_at(__LINE__, f, b, a, &g3);	/* on a, X relayed from b */
	keep_moves_at(__LINE__, &g1, "A1 A2");
	keep_moves_at(__LINE__, &g2, "A1");
	keep_moves_at(__LINE__, &g3, "A1");
	kill(b->pid, SIGUSR2);
	WANT_RAW(g1.p[1], T_RESTART);
	WANT_EOF(g1.p[1]);
	WANT_RAW(g2.p[0], T_RESTART);
	WANT_RAW(g2.p[1], T_RESTART);
	WANT_RAW(g3.p[0], T_RESTART);
	harness_log_wait(b, log, sizeof log, " info stopped");
	rc = harness_wait(b, CLUSTER_WAIT_MS);
	b->pid = 0;
	assert_int_equal(rc, 0);
	if ((drain = strstr(log, " info SIGUSR2: draining")) == NULL ||
	    strstr(drain, " info node b: draining: its 2 matches to the "
	    "other nodes\n") == NULL || strstr(drain, " forfeited ") != NULL ||
	    strstr(drain, "seat held") != NULL)
		fail_msg("the drained node's log:\n%s", log);
	snprintf(want, sizeof want, " (%s vs %s): handed to another node\n",
	    g1.name[0], g1.name[1]);
	for (n = 0, p = drain; (p = strstr(p, want)) != NULL; p++)
		n++;
	if (n != 2)
		fail_msg("%d lines \"%s\", not 2:\n%s", n, want, log);
	keep_taken_up_at(__LINE__, &g1, 0);
	WANT_RAW(g3.p[1], "INFO p1 lost the connection. Waiting up to 30 "
	    "seconds for them to come back.");
	keep_resume_at(__LINE__, f, a, &g1, 1, 1);
	keep_resume_at(__LINE__, f, a, &g2, 1, 0);
	keep_resume_at(__LINE__, f, a, &g2, 0, 1);
	keep_resume_at(__LINE__, f, a, &g3, 0, 1);
	b = cl_node(f, "b");			/* the upgrade, same name */
	cl_wait_stat(__LINE__, f, b, "cluster_nodes", 2);
	GAME_PLAY(&g1, "B1 B2 C1");
	GAME_PLAY(&g2, "A2 B1 B2 C1");
	GAME_PLAY(&g3, "A2 B1 B2 C1");
}

/*
 * Redis restarted empty while games run: nothing crashes, the game on one
 * node goes on (a move made meanwhile is kept), the game across two nodes
 * is lost (its relayed player is told), and once the nodes are back in
 * the cluster their matches are in Redis again: the node killed then
 * loses no game.
 */
static void
test_keep_redis_restarted_empty(void **state)
{
	struct cl_fix		*f = *state;
	struct tttd_proc	*a = cl_node(f, "a"), *b = cl_node(f, "b");
	struct game		 g1, g2;

	cl_wait_stat(__LINE__, f, a, "cluster_nodes", 2);
	cl_pair_at(__LINE__, f, a, b, &g1);
	cl_pair_at(__LINE__, f, a, a, &g2);
	keep_moves_at(__LINE__, &g2, "A1");
	redis_proc_kill(&f->redis);
	WANT_RAW(g1.p[0], T_LOST_TOUCH);
	WANT_RAW(g1.p[0], T_WAIT);
	keep_moves_at(__LINE__, &g2, "A2");
	assert_int_equal(redis_proc_restart(&f->redis), 0);
	cl_wait_stat(__LINE__, f, a, "cluster_nodes", 2);
	cl_wait_stat(__LINE__, f, b, "cluster_nodes", 2);
	keep_moves_at(__LINE__, &g2, "B1");
	kill(a->pid, SIGKILL);
	keep_resume_at(__LINE__, f, b, &g2, 0, 0);
	keep_resume_at(__LINE__, f, b, &g2, 1, 1);
	GAME_PLAY(&g2, "B2 C1");
}

/*
 * No OK MOVE before the move is kept: with Redis stopped a moment, a move
 * and QUIT in one write get nothing until Redis answers (the close does
 * not write the reply out early); with Redis refusing writes (out of
 * memory), the move's reply waits until a write is taken.
 */
static void
test_keep_no_ok_before_kept(void **state)
{
	struct cl_fix		*f = *state;
	struct tttd_proc	*a = cl_node(f, "a");
	struct game		 g, h;
	char			 reply[64];
	int			 mover;

	cl_wait_stat(__LINE__, f, a, "redis_connected", 1);
	cl_pair_at(__LINE__, f, a, a, &g);
	mover = g.turn;
	kill(f->redis.pid, SIGSTOP);
	SEND(g.p[mover], "MOVE B2\r\nQUIT");
	line_want_quiet_at(__LINE__, g.p[mover], 800);
	line_want_quiet_at(__LINE__, g.p[!mover], 10);
	kill(f->redis.pid, SIGCONT);
	WANT(g.p[mover], "OK MOVE B2");

	cl_pair_at(__LINE__, f, a, a, &h);
	assert_true(redis_proc_cmd(&f->redis, "CONFIG SET maxmemory 1", reply,
	    sizeof reply) > 0);
	SEND(h.p[h.turn], "MOVE A1");
	line_want_quiet_at(__LINE__, h.p[h.turn], 800);
	assert_true(redis_proc_cmd(&f->redis, "CONFIG SET maxmemory 0", reply,
	    sizeof reply) > 0);
	game_moved_at(__LINE__, &h, game_cell("A1"));
}

/* Put a line back: the next read gets it again. */
static void
keep_unread(struct conn *c, const char *line)
{
	size_t	n = strlen(line);

	if (c->len + n + 2 > sizeof c->buf)
		fail_msg("%s: no room to put \"%s\" back", line_label(c), line);
	memmove(c->buf + n + 2, c->buf, c->len);
	memcpy(c->buf, line, n);
	memcpy(c->buf + n, "\r\n", 2);
	c->len += n + 2;
}

/*
 * After a take-up that plugged both players back (each on a live node):
 * no INFO, neither being away, nor "back" (a player once heard its
 * opponent had lost the connection and was back); once also may come, 1
 * if it did.  The first other line is left to be read.
 */
static int
keep_no_info_at(int ln, struct conn *c, const char *also)
{
	char	line[LINE_SIZE];
	int	seen = 0;

	for (;;) {
		if (line_read(c, line, sizeof line, HARNESS_TIMEOUT_MS) < 0)
			fail_msg("line %d: %s: no line after the match shown "
			    "again", ln, line_label(c));
		if (also != NULL && !seen && strcmp(line, also) == 0)
			seen = 1;
		else if (strncmp(line, "INFO ", 5) == 0)
			fail_msg("line %d: %s: \"%s\" after the take-up, both "
			    "players on live nodes", ln, line_label(c), line);
		else
			break;
	}
	keep_unread(c, line);
	return (seen);
}

/* A T_SLOW line next, if one came: taken (a line waited a second). */
static void
keep_skip_slow(struct conn *c)
{
	char	line[LINE_SIZE];

	if (line_read(c, line, sizeof line, HARNESS_TIMEOUT_MS) >= 0 &&
	    strcmp(line, T_SLOW) != 0)
		keep_unread(c, line);
}

/*
 * A match across two nodes whose save Redis refuses (out of memory) says
 * nothing to either player, the relayed one included (its lines wait with
 * the save, though PUBLISH is still taken), until a write is taken.
 */
static void
test_keep_relayed_waits_for_save(void **state)
{
	struct cl_fix		*f = *state;
	struct tttd_proc	*a = cl_node(f, "a"), *b = cl_node(f, "b");
	struct game		 h;
	char			 reply[64];

	cl_wait_stat(__LINE__, f, a, "cluster_nodes", 2);
	cl_wait_stat(__LINE__, f, b, "cluster_nodes", 2);
	cl_pair_at(__LINE__, f, a, b, &h);	/* X on a, the match on b */
	assert_true(redis_proc_cmd(&f->redis, "CONFIG SET maxmemory 1", reply,
	    sizeof reply) > 0);
	SEND(h.p[h.turn], "MOVE A1");
	line_want_quiet_at(__LINE__, h.p[0], 800);
	line_want_quiet_at(__LINE__, h.p[1], 10);
	assert_true(redis_proc_cmd(&f->redis, "CONFIG SET maxmemory 0", reply,
	    sizeof reply) > 0);
	if (h.turn == 0)	/* relayed: told, if its line waited a second */
		keep_skip_slow(h.p[0]);
	game_moved_at(__LINE__, &h, game_cell("A1"));
	GAME_PLAY(&h, "A2 B1 B2 C1");
}

/*
 * A line sent while its match's node is dead is never lost: its player
 * is told it waits (after a second), sees its match again once a live
 * node takes it up, and then gets the line's answer: the move played.
 * Both players are relayed (X from a, O from c, the match on b), and
 * each sends a line 0.2 s after b is killed: whichever node takes the
 * match up runs its own player's line and gets the other's again from
 * that player's node (T), so both ways are taken.  Neither hears the other
 * lost the connection and is back: neither was on b (protocol.md §11).
 */
static void
test_keep_line_held_for_take_up(void **state)
{
	struct cl_fix		*f = *state;
	struct tttd_proc	*a = cl_node(f, "a"), *b = cl_node(f, "b");
	struct tttd_proc	*c = cl_node(f, "c");
	struct game		 g;
	long			 t0, waited;
	int			 o_first, pong;

	cl_wait_stat(__LINE__, f, a, "cluster_nodes", 3);
	cl_wait_stat(__LINE__, f, c, "cluster_nodes", 3);
	cl_pair_at(__LINE__, f, a, b, &g);	/* X on a, the match on b */
	if ((o_first = g.turn == 1))
		keep_moves_at(__LINE__, &g, "A1");	/* X to move */
	conn_close(g.p[1]);			/* O comes back through c */
	WANT_RAW(g.p[0], "INFO p2 lost the connection. Waiting up to 30 "
	    "seconds for them to come back.");
	keep_resume_at(__LINE__, f, c, &g, 1, 1);
	kill(b->pid, SIGKILL);
	usleep(200 * 1000);
	t0 = harness_now_ms();
	SEND(g.p[0], "MOVE B2");
	SEND(g.p[1], "PING");
	WANT_RAW(g.p[0], T_SLOW);
	waited = harness_now_ms() - t0;
	WANT_RAW(g.p[1], T_SLOW);
	print_message("told it waits after %ld ms\n", waited);
	keep_state_at(__LINE__, &g, g.p[0], 0, CLUSTER_WAIT_MS);
	keep_state_at(__LINE__, &g, g.p[1], 1, CLUSTER_WAIT_MS);
	print_message("the match back %ld ms after the line\n",
	    harness_now_ms() - t0);
	keep_no_info_at(__LINE__, g.p[0], NULL);
	pong = keep_no_info_at(__LINE__, g.p[1], "OK PONG");
	game_moved_at(__LINE__, &g, game_cell("B2"));
	if (!pong)
		WANT_RAW(g.p[1], "OK PONG");
	GAME_PLAY(&g, o_first ? "A3 A2 C3 C2" : "A1 A2 A3 C2");
}

/*
 * The same with both players on one node and the match on the other
 * (they came back there with RESUME): the node that dies owns the match,
 * the live one takes it up and runs the line it kept, neither player told
 * the other was away.
 */
static void
test_keep_line_held_two_nodes(void **state)
{
	struct cl_fix		*f = *state;
	struct tttd_proc	*a = cl_node(f, "a"), *b = cl_node(f, "b");
	struct game		 g;
	int			 i, mover;

	cl_wait_stat(__LINE__, f, a, "cluster_nodes", 2);
	cl_wait_stat(__LINE__, f, b, "cluster_nodes", 2);
	cl_pair_at(__LINE__, f, a, a, &g);	/* the match on a */
	for (i = 0; i < 2; i++) {		/* both come back through b */
		conn_close(g.p[i]);
		WANT_RAW(g.p[!i], "INFO %s lost the connection. Waiting up to "
		    "30 seconds for them to come back.", g.name[i]);
		keep_resume_at(__LINE__, f, b, &g, i, 1);
	}
	kill(a->pid, SIGKILL);
	usleep(200 * 1000);
	mover = g.turn;
	SEND(g.p[mover], "MOVE A2");
	WANT_RAW(g.p[mover], T_SLOW);
	for (i = 0; i < 2; i++) {
		keep_state_at(__LINE__, &g, g.p[i], i, CLUSTER_WAIT_MS);
		keep_no_info_at(__LINE__, g.p[i], NULL);
	}
	game_moved_at(__LINE__, &g, game_cell("A2"));
	GAME_PLAY(&g, "A1 B2 B1 C2");
}

/* Both players of a game over leave (QUIT): BYE, and the end. */
static void
keep_quit_at(int ln, struct game *g)
{
	char	line[LINE_SIZE];
	int	i;

	for (i = 0; i < 2; i++) {
		line_send_at(ln, g->p[i], "QUIT");
		do {
			if (line_read(g->p[i], line, sizeof line,
			    HARNESS_TIMEOUT_MS) < 0)
				fail_msg("line %d: %s: no BYE", ln,
				    line_label(g->p[i]));
		} while (strcmp(line, T_BYE) != 0);
		line_want_eof_at(ln, g->p[i]);
	}
}

/*
 * The matches that change in one pass of a node's loop are kept by one
 * script: two moves that reach a stopped node together cost Redis one
 * EVALSHA (two, one a match, before), and both are kept: the node killed
 * then, the other takes both matches up with the move made.
 */
static void
test_keep_one_script_a_pass(void **state)
{
	struct cl_fix		*f = *state;
	struct tttd_proc	*a = cl_node(f, "a"), *b = cl_node(f, "b");
	struct game		 g1, g2;
	char			 reply[256];

	cl_wait_stat(__LINE__, f, a, "cluster_nodes", 2);
	cl_wait_stat(__LINE__, f, b, "cluster_nodes", 2);
	cl_pair_at(__LINE__, f, a, a, &g1);
	cl_pair_at(__LINE__, f, a, a, &g2);
	assert_true(redis_proc_cmd(&f->redis, "CONFIG RESETSTAT", reply,
	    sizeof reply) > 0);
	cl_stop_at(__LINE__, a->pid);	/* the moves wait together */
	SEND(g1.p[g1.turn], "MOVE A1");
	SEND(g2.p[g2.turn], "MOVE A1");
	usleep(200 * 1000);
	kill(a->pid, SIGCONT);
	game_moved_at(__LINE__, &g1, game_cell("A1"));
	game_moved_at(__LINE__, &g2, game_cell("A1"));
	if (redis_proc_info(&f->redis, "commandstats", "cmdstat_evalsha",
	    reply, sizeof reply) == -1 || strncmp(reply, "calls=1,", 8) != 0)
		fail_msg("EVALSHA after the two moves: \"%s\"", reply);
	kill(a->pid, SIGKILL);
	keep_resume_both_at(__LINE__, f, b, &g1);
	keep_resume_both_at(__LINE__, f, b, &g2);
	GAME_PLAY(&g1, "A2 B1 B2 C1");
	GAME_PLAY(&g2, "A2 B1 B2 C1");
}

/*
 * Two nodes started while Redis is down number their matches apart, so
 * that when Redis comes the matches of one do not overwrite the other's
 * (which would end one of them with BYE): both games go on, and end.
 */
static void
test_keep_ids_apart_without_redis(void **state)
{
	struct cl_fix		*f = *state;
	struct tttd_proc	*a, *b;
	struct game		 g1, g2;

	redis_proc_stop(&f->redis);
	a = cl_node(f, "a");
	b = cl_node(f, "b");
	cl_pair_at(__LINE__, f, a, a, &g1);
	cl_pair_at(__LINE__, f, b, b, &g2);
	keep_moves_at(__LINE__, &g1, "A1");
	keep_moves_at(__LINE__, &g2, "A1");
	assert_int_equal(redis_proc_restart(&f->redis), 0);
	cl_wait_stat(__LINE__, f, a, "cluster_nodes", 2);
	cl_wait_stat(__LINE__, f, b, "cluster_nodes", 2);
	keep_moves_at(__LINE__, &g1, "A2");	/* kept now, both */
	keep_moves_at(__LINE__, &g2, "A2");
	GAME_PLAY(&g1, "B1 B2 C1");
	GAME_PLAY(&g2, "B1 B2 C1");
}

/*
 * SIGTERM ends a node's games (BYE Server shutting down): Redis forgets
 * its matches, so no node takes them up later, and its name is free at
 * once for a node started in its place.
 */
static void
test_keep_sigterm_forgets(void **state)
{
	struct cl_fix		*f = *state;
	struct tttd_proc	*a = cl_node(f, "a");
	struct game		 g;
	char			 reply[64];

	cl_wait_stat(__LINE__, f, a, "redis_connected", 1);
	cl_pair_at(__LINE__, f, a, a, &g);
	keep_moves_at(__LINE__, &g, "A1");
	assert_true(redis_proc_cmd(&f->redis, "KEYS tttd:match:*", reply,
	    sizeof reply) > 0);
	assert_string_equal(reply, "*1");
	e2e_stop(f->e, a);
	assert_true(redis_proc_cmd(&f->redis, "KEYS tttd:match:*", reply,
	    sizeof reply) > 0);
	assert_string_equal(reply, "*0");
	a = cl_node(f, "a");			/* its name, at once */
	cl_wait_stat(__LINE__, f, a, "cluster_nodes", 1);
}

/*
 * A match that ends while its node is cut off from Redis (for less than
 * the node timeout: longer, the others take its matches up) is forgotten
 * in Redis when the node joins again: no node takes it up later.
 */
static void
test_keep_ended_while_cut_off(void **state)
{
	struct cl_fix		*f = *state;
	const char *const	 slow[] = { "--node-timeout", "15", NULL };
	struct tttd_proc	*a = cl_node_with(f, "a", slow);
	struct tttd_proc	*b = cl_node_with(f, "b", slow);
	struct game		 g;
	char			 reply[64] = "";
	int			 i;

	cl_wait_stat(__LINE__, f, b, "cluster_nodes", 2);
	cl_pair_at(__LINE__, f, a, a, &g);
	keep_moves_at(__LINE__, &g, "A1");
	kill(f->redis.pid, SIGSTOP);
	cl_wait_stat(__LINE__, f, a, "redis_connected", 0);
	SEND(g.p[0], "QUIT");
	SEND(g.p[1], "QUIT");
	WANT_RAW(g.p[0], T_BYE);
	kill(f->redis.pid, SIGCONT);
	cl_wait_stat(__LINE__, f, a, "redis_connected", 1);
	cl_wait_stat(__LINE__, f, b, "redis_connected", 1);
	for (i = 0; i < 40 && strcmp(reply, "*0") != 0; i++) {
		usleep(100000);
		assert_true(redis_proc_cmd(&f->redis, "KEYS tttd:match:*",
		    reply, sizeof reply) > 0);
	}
	assert_string_equal(reply, "*0");
}

/*
 * A node taken for dead while alive (stopped longer than --node-timeout)
 * becomes a new instance, and hears its new channel from then on: just
 * after SIGCONT its player is paired with one waiting on the other node,
 * and a seat held on the other node is resumed through it.  Twice in a
 * row (the second new instance too).
 */
static void
test_keep_taken_for_dead_hears_again(void **state)
{
	struct cl_fix		*f = *state;
	const char *const	 quick[] = { "--node-timeout", "2", NULL };
	struct tttd_proc	*a = cl_node_with(f, "a", quick);
	struct tttd_proc	*b = cl_node_with(f, "b", quick);
	struct game		 g, h, k;
	long			 t0;
	int			 round;

	cl_wait_stat(__LINE__, f, a, "cluster_nodes", 2);
	cl_wait_stat(__LINE__, f, b, "cluster_nodes", 2);
	for (round = 0; round < 2; round++) {
		cl_pair_at(__LINE__, f, a, a, &g);	/* the match on a */
		keep_moves_at(__LINE__, &g, "A1");
		cl_stop_at(__LINE__, b->pid);
		usleep(3500 * 1000);		/* a takes b for dead */
		kill(b->pid, SIGCONT);
		t0 = harness_now_ms();
		/* Each way: x waits on one node, o comes to the other. */
		cl_pair_at(__LINE__, f, b, a, &h);	/* within 1.5 s */
		print_message("round %d: paired across %ld ms after SIGCONT\n",
		    round + 1, harness_now_ms() - t0);
		cl_pair_at(__LINE__, f, a, b, &k);
		conn_close(g.p[0]);		/* its seat held on a */
		WANT_RAW(g.p[1], "INFO p1 lost the connection. Waiting up to "
		    "30 seconds for them to come back.");
		keep_resume_at(__LINE__, f, b, &g, 0, 1);
		GAME_PLAY(&g, "A2 B1 B2 C1");
		GAME_PLAY(&h, "A1 A2 B1 B2 C1");
		keep_quit_at(__LINE__, &g);	/* nobody left for round 2 */
		keep_quit_at(__LINE__, &h);
		GAME_PLAY(&k, "A1 A2 B1 B2 C1");
		keep_quit_at(__LINE__, &k);
	}
}

#define KEEP_TURN_MS	20000	/* --turn-timeout 20 */
#define KEEP_THOUGHT_MS	12000	/* what X thinks before the save */
#define KEEP_IMAGE_MAX	64	/* the words of a match's value */

/*
 * The value of the only match in Redis, split in words: the owner, the
 * seats' homes, then the image (match-keep.c: "1", ai, state, x, o,
 * turn, ...).  The number of words.
 */
static int
keep_image_at(int ln, struct cl_fix *f, char *buf, size_t size,
    char *w[KEEP_IMAGE_MAX])
{
	char	*save = NULL, *p;
	int	 n = 0;

	if (redis_proc_cmd(&f->redis, "EVAL \"local k = redis.call('KEYS', "
	    "'tttd:match:*') if #k ~= 1 then return {err = #k .. ' matches'} "
	    "end return {ok = redis.call('GET', k[1])}\" 0", buf, size) < 1 ||
	    buf[0] != '+')
		fail_msg("line %d: no match in Redis: \"%s\"", ln, buf);
	for (p = strtok_r(buf + 1, " ", &save); p != NULL && n < KEEP_IMAGE_MAX;
	    p = strtok_r(NULL, " ", &save))
		w[n++] = p;
	if (n != 3 + 28)
		fail_msg("line %d: an image of %d words", ln, n);
	return (n);
}

/* The words 3.. of an image (its fields, "1" first) must be these. */
static void
keep_image_want_at(int ln, char *const *w, const char *want)
{
	char	got[512];
	size_t	off = 0;
	int	i;

	for (i = 3; i < 3 + 20; i++)	/* up to seat 0's left, left out */
		if (i != 3 + 18 && i != 3 + 19)
			off += (size_t)snprintf(got + off, sizeof got - off,
			    "%s%s", off > 0 ? " " : "", w[i]);
	if (strcmp(got, want) != 0)
		fail_msg("line %d: image \"%s\", not \"%s\"", ln, got, want);
}

/*
 * A match taken up in its second game with a running clock (--turn-timeout
 * 20): O won game 1, both said yes, O opened game 2 with B2, and X thought
 * 12 s before O's connection closed (the match saved: X has 8 s left).
 * The owner b is killed; a takes the match up: X, still connected, sees
 * game 2's board and its TURN, O comes back with RESUME; X's clock goes on
 * with the 8 s it had (warned at 6.67 s left, out at 0, not 20 s later),
 * and the score line after the time-out carries game 1's point: p2 2.
 */
static void
test_keep_second_game_clock(void **state)
{
	static const char *const more[] = { "--turn-timeout", "20", NULL };
	struct cl_fix		*f = *state;
	struct tttd_proc	*a = cl_node_with(f, "a", more);
	struct tttd_proc	*b = cl_node_with(f, "b", more);
	struct game		 g;
	char			 buf[1024], line[LINE_SIZE], *w[KEEP_IMAGE_MAX];
	long			 t0, t_up, t_warn, t_out, left;
	int			 i;

	cl_wait_stat(__LINE__, f, a, "cluster_nodes", 2);
	cl_wait_stat(__LINE__, f, b, "cluster_nodes", 2);
	cl_pair_at(__LINE__, f, a, b, &g);	/* X on a, O and the match on b */
	/* O wins game 1, whoever opened it. */
	GAME_PLAY(&g, g.turn == 0 ? "A1 B1 A2 B2 C3 B3" : "A1 B1 A2 B2 A3");
	assert_int_equal(g.score[1], 1);
	game_rematch_at(__LINE__, &g, 0, "y", "y", 1);	/* O opens game 2 */
	keep_moves_at(__LINE__, &g, "B2");
	t0 = harness_now_ms();			/* X's 20 s run */
	usleep(KEEP_THOUGHT_MS * 1000);
	conn_close(g.p[1]);			/* saved, O away */
	WANT_RAW(g.p[0], "INFO p2 lost the connection. Waiting up to 30 "
	    "seconds for them to come back.");
	keep_image_at(__LINE__, f, buf, sizeof buf, w);
	/* Game 2, X to move after O's B2, 0-1, O's seat held away. */
	keep_image_want_at(__LINE__, w,
	    "1 -1 0 0 16 1 0 4 -1 -1 2 2 0 1 0 0 1 1");
	left = atol(w[3 + 20]);
	print_message("X's clock in the image: %ld ms left\n", left);
	if (left <= 0 || left > KEEP_TURN_MS - KEEP_THOUGHT_MS ||
	    left < KEEP_TURN_MS - (harness_now_ms() - t0))
		fail_msg("X has %ld ms left after %ld ms", left,
		    harness_now_ms() - t0);
	assert_string_equal(w[2], "-");		/* O: away */
	assert_string_equal(w[3 + 22], "1");	/* its seat held */
	assert_string_equal(w[3 + 26], "0");	/* no clock of its own */

	kill(b->pid, SIGKILL);
	keep_taken_up_at(__LINE__, &g, 0);	/* X's TURN, O away */
	t_up = harness_now_ms();
	keep_resume_at(__LINE__, f, a, &g, 1, 1);
	keep_image_at(__LINE__, f, buf, sizeof buf, w);
	keep_image_want_at(__LINE__, w,
	    "1 -1 0 0 16 1 0 4 -1 -1 2 2 0 1 0 0 1 1");
	if (atol(w[3 + 20]) > left)
		fail_msg("X's clock went back: %s ms, had %ld", w[3 + 20],
		    left);

	/* Warned when two thirds of 20 s are gone: 6,667 ms before the end. */
	if (line_read(g.p[0], line, sizeof line, KEEP_TURN_MS) < 0 ||
	    (strcmp(line, "INFO You have 7 seconds left to move.") != 0 &&
	    strcmp(line, "INFO You have 6 seconds left to move.") != 0))
		fail_msg("X: no warning: \"%s\"", line);
	t_warn = harness_now_ms() - t_up;
	for (i = 0; i < 2; i++) {
		if (line_read(g.p[i], line, sizeof line, KEEP_TURN_MS) < 0 ||
		    strcmp(line, "RESULT FORFEIT O p2 p1 ran out of time. p2 "
		    "wins!") != 0)
			fail_msg("seat %d: \"%s\"", i, line);
		if (i == 0)
			t_out = harness_now_ms() - t_up;
		line_want_at(__LINE__, 1, g.p[i], T_SCORE "p1 0, p2 2, ties "
		    "0.");
		line_want_at(__LINE__, 1, g.p[i], T_AGAIN);
	}
	print_message("after the take-up: warned at %ld ms, out at %ld ms "
	    "(%ld ms left)\n", t_warn, t_out, left);
	/* At its time, give or take the take-up's own wait: not 20 s on. */
	if (t_warn < left - KEEP_TURN_MS / 3 - 500 ||
	    t_warn > left - KEEP_TURN_MS / 3 + 6000)
		fail_msg("warned %ld ms after the take-up, %ld ms left", t_warn,
		    left);
	if (t_out < left - 500 || t_out > left + 6000)
		fail_msg("out %ld ms after the take-up, %ld ms left", t_out,
		    left);
}

/* The matches in Redis whose owner is node name's instance now. */
#define KEEP_OWNED	"EVAL \"local i = redis.call('GET', KEYS[1]) " \
	"local n = 0 for _, k in ipairs(redis.call('KEYS', ARGV[1])) do " \
	"if i and string.sub(redis.call('GET', k), 1, 16) == i then " \
	"n = n + 1 end end return n\" 1 tttd:node:%s tttd:match:*"

/* Wait until node name owns n matches in Redis (has taken them up). */
static void
keep_owned_at(int ln, struct cl_fix *f, const char *name, long n)
{
	char	cmd[512];

	snprintf(cmd, sizeof cmd, KEEP_OWNED, name);
	cl_wait_redis_at(ln, f, cmd, n);
}

/*
 * A node taken for dead while alive (stopped longer than --node-timeout):
 * the other node takes its match up, and the move that reached it while
 * it was stopped is refused with its save (the match is the other's
 * now): no OK MOVE, both players told to come back (BYE), and each comes
 * back, one through either node, to the match as the other node has it,
 * without that move; they play it to the end there.
 */
static void
test_keep_taken_for_dead_refused_save(void **state)
{
	struct cl_fix		*f = *state;
	const char *const	 quick[] = { "--node-timeout", "2", NULL };
	struct tttd_proc	*a = cl_node_with(f, "a", quick);
	struct tttd_proc	*b = cl_node_with(f, "b", quick);
	struct game		 g;
	int			 mover;

	cl_wait_stat(__LINE__, f, a, "cluster_nodes", 2);
	cl_wait_stat(__LINE__, f, b, "cluster_nodes", 2);
	cl_pair_at(__LINE__, f, b, b, &g);	/* the match on b */
	keep_moves_at(__LINE__, &g, "A1");
	keep_owned_at(__LINE__, f, "b", 1);
	cl_stop_at(__LINE__, b->pid);
	mover = g.turn;
	SEND(g.p[mover], "MOVE B2");		/* read once b wakes */
	keep_owned_at(__LINE__, f, "a", 1);	/* a took it up */
	kill(b->pid, SIGCONT);
	WANT_RAW(g.p[mover], T_RESTART);	/* not OK MOVE B2 */
	WANT_EOF(g.p[mover]);
	WANT_RAW(g.p[!mover], T_RESTART);
	WANT_EOF(g.p[!mover]);
	keep_resume_at(__LINE__, f, a, &g, mover, 0);
	keep_resume_at(__LINE__, f, b, &g, !mover, 1);
	GAME_PLAY(&g, "B2 A2 C3 A3");
}

/*
 * The home node of a relayed player dies while its match's node lives:
 * the match's node holds the seat for the grace period, as for any lost
 * connection (the opponent is told so, and nobody forfeits), and the
 * player takes it back with RESUME there.
 */
static void
test_keep_home_dies_seat_held(void **state)
{
	struct cl_fix		*f = *state;
	const char *const	 quick[] = { "--node-timeout", "2", NULL };
	struct tttd_proc	*a = cl_node_with(f, "a", quick);
	struct tttd_proc	*b = cl_node_with(f, "b", quick);
	struct game		 g;
	char			 line[LINE_SIZE];

	cl_wait_stat(__LINE__, f, a, "cluster_nodes", 2);
	cl_wait_stat(__LINE__, f, b, "cluster_nodes", 2);
	cl_pair_at(__LINE__, f, a, b, &g);	/* X on a, the match on b */
	keep_moves_at(__LINE__, &g, "A1");
	kill(a->pid, SIGKILL);
	if (line_read(g.p[1], line, sizeof line, CLUSTER_WAIT_MS) < 0 ||
	    strcmp(line, "INFO p1 lost the connection. Waiting up to 30 "
	    "seconds for them to come back.") != 0)
		fail_msg("p2 after p1's node died: \"%s\"", line);
	line_want_quiet_at(__LINE__, g.p[1], 1500);	/* no forfeit */
	keep_resume_at(__LINE__, f, b, &g, 0, 1);
	GAME_PLAY(&g, "A2 B1 B2 C1");
}

/*
 * SIGUSR2 while Redis refuses writes (out of memory): the drain waits
 * for its last save, which its move's player waits for too (no OK MOVE,
 * no BYE meanwhile); once Redis takes writes again, the move is answered
 * and kept, the node gives its match up and exits 0, and the players
 * find the move in the match the other node took up.
 */
static void
test_keep_drain_while_refused(void **state)
{
	struct cl_fix		*f = *state;
	struct tttd_proc	*a = cl_node(f, "a"), *b = cl_node(f, "b");
	struct game		 g;
	char			 reply[64];
	int			 rc;

	cl_wait_stat(__LINE__, f, a, "cluster_nodes", 2);
	cl_wait_stat(__LINE__, f, b, "cluster_nodes", 2);
	cl_pair_at(__LINE__, f, b, b, &g);	/* the match on b */
	keep_moves_at(__LINE__, &g, "A1");
	assert_true(redis_proc_cmd(&f->redis, "CONFIG SET maxmemory 1", reply,
	    sizeof reply) > 0);
	SEND(g.p[g.turn], "MOVE B2");
	line_want_quiet_at(__LINE__, g.p[g.turn], 500);
	kill(b->pid, SIGUSR2);
	line_want_quiet_at(__LINE__, g.p[g.turn], 1500);
	line_want_quiet_at(__LINE__, g.p[!g.turn], 10);
	assert_true(redis_proc_cmd(&f->redis, "CONFIG SET maxmemory 0", reply,
	    sizeof reply) > 0);
	game_moved_at(__LINE__, &g, game_cell("B2"));
	WANT_RAW(g.p[0], T_RESTART);
	WANT_RAW(g.p[1], T_RESTART);
	rc = harness_wait(b, CLUSTER_WAIT_MS);
	b->pid = 0;
	assert_int_equal(rc, 0);
	keep_resume_at(__LINE__, f, a, &g, 0, 0);
	keep_resume_at(__LINE__, f, a, &g, 1, 1);
	GAME_PLAY(&g, "A2 C3 A3");
}

/*
 * A match taken up before its first move (its image has no last move),
 * its player to move away: the other comes back at once, and the away
 * player's clock gets what was left of its turn and a whole grace period
 * on top (nobody forfeits because a node died), not the turn alone.
 */
static void
test_keep_taken_up_clock_grace(void **state)
{
	struct cl_fix		*f = *state;
	const char *const	 quick[] = { "--node-timeout", "2",
				    "--turn-timeout", "3", NULL };
	struct tttd_proc	*a = cl_node_with(f, "a", quick);
	struct tttd_proc	*b = cl_node_with(f, "b", quick);
	struct game		 g;
	int			 mover;

	cl_wait_stat(__LINE__, f, a, "cluster_nodes", 2);
	cl_wait_stat(__LINE__, f, b, "cluster_nodes", 2);
	cl_pair_at(__LINE__, f, b, b, &g);	/* the match on b */
	mover = g.turn;
	kill(b->pid, SIGKILL);
	keep_resume_at(__LINE__, f, a, &g, !mover, 0);
	line_want_quiet_at(__LINE__, g.p[!mover], 5000);	/* 3 s + grace */
	keep_resume_at(__LINE__, f, a, &g, mover, 1);
	GAME_PLAY(&g, "A1 B1 A2 B2 A3");
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test_setup_teardown(test_keep_owner_killed,
		    cl_setup, cl_teardown),
		cmocka_unit_test_setup_teardown(test_keep_drain, cl_setup,
		    cl_teardown),
		cmocka_unit_test_setup_teardown(
		    test_keep_redis_restarted_empty, cl_setup, cl_teardown),
		cmocka_unit_test_setup_teardown(test_keep_no_ok_before_kept,
		    cl_setup, cl_teardown),
		cmocka_unit_test_setup_teardown(test_keep_one_script_a_pass,
		    cl_setup, cl_teardown),
		cmocka_unit_test_setup_teardown(
		    test_keep_relayed_waits_for_save, cl_setup, cl_teardown),
		cmocka_unit_test_setup_teardown(
		    test_keep_ids_apart_without_redis, cl_setup, cl_teardown),
		cmocka_unit_test_setup_teardown(test_keep_sigterm_forgets,
		    cl_setup, cl_teardown),
		cmocka_unit_test_setup_teardown(test_keep_ended_while_cut_off,
		    cl_setup, cl_teardown),
		cmocka_unit_test_setup_teardown(
		    test_keep_taken_for_dead_hears_again, cl_setup,
		    cl_teardown),
		cmocka_unit_test_setup_teardown(
		    test_keep_line_held_for_take_up, cl_setup, cl_teardown),
		cmocka_unit_test_setup_teardown(
		    test_keep_line_held_two_nodes, cl_setup, cl_teardown),
		cmocka_unit_test_setup_teardown(test_keep_second_game_clock,
		    cl_setup, cl_teardown),
		cmocka_unit_test_setup_teardown(
		    test_keep_taken_for_dead_refused_save, cl_setup,
		    cl_teardown),
		cmocka_unit_test_setup_teardown(
		    test_keep_home_dies_seat_held, cl_setup, cl_teardown),
		cmocka_unit_test_setup_teardown(
		    test_keep_drain_while_refused, cl_setup, cl_teardown),
		cmocka_unit_test_setup_teardown(
		    test_keep_taken_up_clock_grace, cl_setup, cl_teardown),
	};

	if (getenv("KEEP_TEST") != NULL)
		cmocka_set_test_filter(getenv("KEEP_TEST"));
	return (cmocka_run_group_tests(tests, NULL, NULL));
}
