/*
 * test_e2e_haproxy.c -- the cluster behind HAProxy, from the repository's
 * own docker/haproxy.cfg run on loopback (issue 14): a real redis-server,
 * three tttd nodes sharing it, and haproxy -db, the config's addresses
 * given by its environment variables.  Players connect to the balancer
 * only; they land on all three nodes, are paired across them, and play
 * whole matches with the lines one node sends.  The config sends each
 * node a PROXY v2 header (send-proxy-v2), and the nodes run with
 * --proxy-from 127.0.0.1/32 (HAProxy's address here): players from
 * 127.0.0.2 and 127.0.0.3 are each their own address on every node (the
 * test asks the nodes directly from 127.0.0.9, not trusted).  Exits 77
 * (skipped) when haproxy is not installed.
 */
#define _GNU_SOURCE		/* memmem */
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <netinet/in.h>
#include <arpa/inet.h>

#include <fcntl.h>
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
#include "e2e_fix.h"
#include "e2e_game.h"
#include "redis_proc.h"

#define SEND(c, ...)		line_send_at(__LINE__, (c), __VA_ARGS__)
#define WANT_QUIET(c, ms)	line_want_quiet_at(__LINE__, (c), (ms))

#define S_FIRST_WINS	"A1 A2 B1 B2 C1"
#define S_TIE		"A1 B1 C1 A2 B2 A3 B3 C3 C2"
#define LB_NODES	3
#define LB_PLAYERS	6
#define LB_WAIT_MS	8000	/* for the cluster, HAProxy, a stat */

struct lb_fix {
	struct e2e		*e;
	struct redis_proc	 redis;
	struct tttd_proc	*node[LB_NODES];
	pid_t			 haproxy;	/* also e->child[0] */
	int			 port;		/* the game frontend */
	int			 http_port;	/* the HTTP frontend */
	const char		*max_per_addr;	/* the nodes' */
	char			 log[LB_NODES][65536]; /* each node's, so far */
	size_t			 loglen[LB_NODES];
};

static const char *const lb_names[LB_PLAYERS] = {
	"alma", "bert", "cleo", "dirk", "elsa", "finn"
};

/* "127.0.0.1:<port>" into the environment (a child's, before exec). */
static void
lb_setenv(const char *name, int port)
{
	char	addr[32];

	snprintf(addr, sizeof addr, "127.0.0.1:%d", port);
	setenv(name, addr, 1);
}

/* GET /healthz over the HTTP frontend: 1 if it answered 200. */
static int
lb_healthz(int port, int timeout_ms)
{
	static const char	req[] = "GET /healthz HTTP/1.1\r\nHost: tttd\r\n"
				    "Connection: close\r\n\r\n";
	struct conn		*c;
	char			 line[256];
	int			 ok = 0;

	if ((c = calloc(1, sizeof *c)) == NULL)
		return (0);
	if (conn_open_nb(c, port, timeout_ms) == 0 &&
	    conn_write(c, req, sizeof req - 1) == 0 &&
	    conn_line(c, line, sizeof line, timeout_ms) > 0)
		ok = strcmp(line, "HTTP/1.1 200 OK") == 0;
	conn_close(c);
	free(c);
	return (ok);
}

/*
 * haproxy -db -f docker/haproxy.cfg, its frontends on free ports of
 * 127.0.0.1 and its servers the three nodes: 0 once the HTTP frontend
 * answers GET /healthz (both frontends are bound together, before
 * HAProxy serves either), -1 if it exited (a port taken since) or the
 * time ran out.  Asking the HTTP frontend leaves the game backend's
 * connection counts, which leastconn goes by, untouched.
 */
static int
lb_spawn(struct lb_fix *f)
{
	const char	*argv[] = { TTTD_HAPROXY_PATH, "-db", "-f",
			    TTTD_HAPROXY_CFG, NULL };
	char		 name[32];
	long		 deadline;
	int		 i, fd;

	if ((f->port = redis_proc_free_port()) == -1 ||
	    (f->http_port = redis_proc_free_port()) == -1)
		return (-1);
	if ((f->haproxy = fork()) == -1)
		return (-1);
	if (f->haproxy == 0) {
		/* Gone with the test, whatever ends it. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if ((fd = open("/dev/null", O_WRONLY)) != -1)
			dup2(fd, STDOUT_FILENO);	/* the log; alerts: stderr */
		lb_setenv("TTTD_LB_BIND", f->port);
		lb_setenv("TTTD_LB_HTTP_BIND", f->http_port);
		for (i = 0; i < LB_NODES; i++) {
			snprintf(name, sizeof name, "TTTD_NODE%d", i + 1);
			lb_setenv(name, f->node[i]->port);
			snprintf(name, sizeof name, "TTTD_NODE%d_HTTP", i + 1);
			lb_setenv(name, f->node[i]->http_port);
		}
		/* Not the 60,000 of the Docker default: the test's limit. */
		setenv("TTTD_LB_MAXCONN", "1000", 1);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	f->e->child[0] = f->haproxy;
	deadline = harness_now_ms() + LB_WAIT_MS;
	while (harness_now_ms() < deadline) {
		if (waitpid(f->haproxy, NULL, WNOHANG) == f->haproxy) {
			f->haproxy = f->e->child[0] = 0;
			return (-1);
		}
		if (lb_healthz(f->http_port, 1000))
			return (0);
		usleep(50000);
	}
	return (-1);
}

/* SIGTERM HAProxy and wait (SIGKILL after 5 s). */
static void
lb_stop(struct lb_fix *f)
{
	long	deadline = harness_now_ms() + 5000;

	if (f->haproxy == 0)
		return;
	kill(f->haproxy, SIGTERM);
	while (waitpid(f->haproxy, NULL, WNOHANG) == 0) {
		if (harness_now_ms() >= deadline) {
			kill(f->haproxy, SIGKILL);
			waitpid(f->haproxy, NULL, 0);
			break;
		}
		usleep(10000);
	}
	f->haproxy = f->e->child[0] = 0;
}

/*
 * A connection straight to a node from 127.0.0.9, an address not in its
 * --proxy-from: no PROXY header.
 */
static struct conn *
lb_direct(int ln, struct lb_fix *f, int i)
{
	struct conn	*c = e2e_conn(f->e);

	if (conn_open_from(c, f->node[i]->port, "127.0.0.9",
	    HARNESS_TIMEOUT_MS) != 0)
		fail_msg("line %d: cannot connect to node n%d from 127.0.0.9",
		    ln, i + 1);
	line_greeted_at(ln, c);
	return (c);
}

/* STAT <name> of a node, on a connection of its own (QUIT at once). */
static long
lb_node_stat(int ln, struct lb_fix *f, int i, const char *name)
{
	struct conn	*c = lb_direct(ln, f, i);
	long		 v;

	v = line_stat_at(ln, c, name);
	line_send_at(ln, c, "QUIT");
	conn_close(c);
	return (v);
}

/*
 * Wait until STAT <name> is v on every node: a health check's connection
 * comes and goes, so a count is asked again until it holds.
 */
static void
lb_wait_stat(int ln, struct lb_fix *f, const char *name, long v)
{
	long	deadline = harness_now_ms() + LB_WAIT_MS, got = -1;
	int	i;

	for (i = 0; i < LB_NODES; i++) {
		while ((got = lb_node_stat(ln, f, i, name)) != v &&
		    harness_now_ms() < deadline)
			usleep(100000);
		if (got != v)
			fail_msg("line %d: node n%d: STAT %s is %ld, not %ld",
			    ln, i + 1, name, got, v);
	}
}

/* The sum of STAT <name> over the nodes. */
static long
lb_sum_stat(int ln, struct lb_fix *f, const char *name)
{
	long	sum = 0;
	int	i;

	for (i = 0; i < LB_NODES; i++)
		sum += lb_node_stat(ln, f, i, name);
	return (sum);
}

/*
 * Redis, three nodes n1-n3 on it (trusting HAProxy's PROXY headers, the
 * per-address cap at max_per_addr, and each with an HTTP port), the
 * cluster whole (each counts three nodes), then HAProxy in front of them.
 */
static int
lb_setup_cap(void **state, const char *max_per_addr)
{
	struct lb_fix	*f;
	const char	*names[LB_NODES] = { "n1", "n2", "n3" };
	int		 i, tries;

	if ((f = calloc(1, sizeof *f)) == NULL)
		return (-1);
	*state = f;
	f->max_per_addr = max_per_addr;
	if (e2e_setup((void **)&f->e) != 0)
		return (-1);
	if (redis_proc_start(&f->redis) == -1) {
		fprintf(stderr, "cannot start redis-server\n");
		return (-1);
	}
	for (i = 0; i < LB_NODES; i++) {
		const char *const	args[] = { "--redis", f->redis.addr,
					    "--node", names[i], "--http-port",
					    "any", "--proxy-from",
					    "127.0.0.1/32", "--max-per-addr",
					    f->max_per_addr, NULL };

		if (harness_start(&f->e->srv[i], args) != 0) {
			f->e->srv[i].pid = 0;
			fprintf(stderr, "cannot start tttd --node %s\n",
			    names[i]);
			return (-1);
		}
		f->node[i] = &f->e->srv[i];
	}
	lb_wait_stat(__LINE__, f, "cluster_nodes", LB_NODES);
	for (tries = 0; tries < 5; tries++) {
		if (lb_spawn(f) == 0)
			return (0);
		lb_stop(f);
	}
	fprintf(stderr, "cannot start %s -f %s\n", TTTD_HAPROXY_PATH,
	    TTTD_HAPROXY_CFG);
	return (-1);
}

/* The cluster as deployed: the per-address cap at its default. */
static int
lb_setup(void **state)
{
	return (lb_setup_cap(state, "64"));
}

/* The cluster with one player per address on each node. */
static int
lb_setup_cap1(void **state)
{
	return (lb_setup_cap(state, "1"));
}

/* HAProxy, then the nodes (e2e_teardown), then Redis. */
static int
lb_teardown(void **state)
{
	struct lb_fix	*f = *state;
	int		 rc = 0;

	if (f->e != NULL) {
		lb_stop(f);
		rc = e2e_teardown((void **)&f->e);
	}
	redis_proc_stop(&f->redis);
	free(f);
	return (rc);
}

/* A player through the balancer: greeted, then named. */
static struct conn *
lb_player(int ln, struct lb_fix *f, const char *name)
{
	struct conn	*c = e2e_conn(f->e);

	if (conn_open_nb(c, f->port, HARNESS_TIMEOUT_MS) != 0)
		fail_msg("line %d: cannot connect to HAProxy's port %d", ln,
		    f->port);
	line_greeted_at(ln, c);
	line_send_at(ln, c, "NAME %s", name);
	line_want_at(ln, 1, c, "OK NAME %s", name);
	return (c);
}

/* A game between two players through the balancer: §9's lines and art. */
static void
lb_game_init(struct game *g, struct conn *x, struct conn *o,
    const char *xname, const char *oname)
{
	game_init(g, x, o, xname, oname);
	g->grace = 30;
	g->art = 1;
	g->plain = 1;
	g->notice_any = 1;
}

/*
 * QUIT, whatever the player was doing (paired meanwhile, say): the lines
 * up to BYE are skipped, then the connection must close cleanly.
 */
static void
lb_quit(int ln, struct conn *c)
{
	char	line[LINE_SIZE];
	int	n = 0;

	line_send_at(ln, c, "QUIT");
	do {
		if (line_read(c, line, sizeof line, HARNESS_TIMEOUT_MS) < 0 ||
		    ++n > 100)
			fail_msg("line %d: %s: no BYE after QUIT", ln,
			    line_label(c));
	} while (strcmp(line, T_BYE) != 0);
	line_want_eof_at(ln, c);
}

/*
 * Every node greets through the balancer: three connections held at once
 * land one on each node (leastconn), each greeted (HELLO, its line,
 * WAIT); and the HTTP frontend answers from every node.
 */
static void
test_haproxy_each_node_greets(void **state)
{
	struct lb_fix	*f = *state;
	struct conn	*c[LB_NODES];
	int		 i;

	for (i = 0; i < LB_NODES; i++)
		c[i] = lb_player(__LINE__, f, lb_names[i]);
	/* One player each, plus the connection asking. */
	lb_wait_stat(__LINE__, f, "connections_current", 2);
	for (i = 0; i < LB_NODES; i++)
		lb_quit(__LINE__, c[i]);
	for (i = 0; i < 2 * LB_NODES; i++)
		assert_true(lb_healthz(f->http_port, HARNESS_TIMEOUT_MS));
}

/*
 * Reads a player's MATCH line: its mark (X or O) and its opponent's name
 * (64 bytes).
 */
static char
lb_matched(int ln, struct conn *c, char *opponent)
{
	char	got[LINE_SIZE], want[LINE_SIZE], mark;
	int	n;

	line_want_prefix_at(ln, c, "MATCH ", got, sizeof got);
	mark = got[6];
	n = sscanf(got + 8, "%63s", opponent);
	snprintf(want, sizeof want, "MATCH %c %s You play %c against %s.",
	    mark, opponent, mark, opponent);
	if ((mark != 'X' && mark != 'O') || n != 1 || strcmp(got, want) != 0)
		fail_msg("line %d: %s: bad MATCH line \"%s\"", ln,
		    line_label(c), got);
	return (mark);
}

/* The match's tokens, read and told apart (game_match_at's second half). */
static void
lb_tokens(int ln, struct game *g)
{
	int	i;

	for (i = 0; i < 2; i++)
		game_want_token_at(ln, g->p[i], g->grace, g->token[i]);
	if (strcmp(g->token[0], g->token[1]) == 0)
		fail_msg("line %d: both seats got the token %s", ln,
		    g->token[0]);
}

/*
 * Players who came at once: their MATCH lines pair them two by two, by
 * name, each X with the O that names it; the games come out X first.
 */
static void
lb_pair_by_name(int ln, struct conn **p, const char *const *names, int n,
    struct game *games)
{
	char	mark[LB_PLAYERS], opp[LB_PLAYERS][64];
	int	i, j, ng = 0, found;

	for (i = 0; i < n; i++)
		mark[i] = lb_matched(ln, p[i], opp[i]);
	for (i = 0; i < n; i++) {
		if (mark[i] != 'X')
			continue;
		found = 0;
		for (j = 0; j < n && !found; j++) {
			found = mark[j] == 'O' &&
			    strcmp(opp[i], names[j]) == 0 &&
			    strcmp(opp[j], names[i]) == 0;
			if (found)
				lb_game_init(&games[ng++], p[i], p[j],
				    names[i], names[j]);
		}
		if (!found)
			fail_msg("line %d: %s plays X against %s, who does "
			    "not play O against it", ln, names[i],
			    opp[i]);
	}
	if (ng * 2 != n)
		fail_msg("line %d: %d players made %d matches", ln, n, ng);
}

/*
 * Six players through the balancer, two on each node: the first waits
 * alone, the second lands on another node (leastconn) and they are
 * paired across nodes within a second; four more come at once and pair
 * off.  Each of the three matches plays a win, a rematch that the winner
 * starts, and a tie; chat crosses; QUIT ends it.  The games are counted
 * once, by the nodes that ran them.
 */
static void
test_haproxy_matches_through_balancer(void **state)
{
	struct lb_fix	*f = *state;
	struct conn	*p[LB_PLAYERS];
	struct game	 g[LB_PLAYERS / 2];
	long		 t0;
	int		 i, k;

	p[0] = lb_player(__LINE__, f, lb_names[0]);
	WANT_QUIET(p[0], 700);
	t0 = harness_now_ms();
	p[1] = lb_player(__LINE__, f, lb_names[1]);
	lb_game_init(&g[0], p[0], p[1], lb_names[0], lb_names[1]);
	game_match_at(__LINE__, &g[0]);
	if (harness_now_ms() - t0 > 1500)
		fail_msg("paired after %ld ms", harness_now_ms() - t0);
	for (i = 2; i < LB_PLAYERS; i++)
		p[i] = lb_player(__LINE__, f, lb_names[i]);
	lb_pair_by_name(__LINE__, p + 2, lb_names + 2, LB_PLAYERS - 2, g + 1);
	for (k = 1; k < LB_PLAYERS / 2; k++)
		lb_tokens(__LINE__, &g[k]);
	/*
	 * Two players on each node, plus the connection asking, which alone
	 * waits (new for half a second): nobody is left out.
	 */
	lb_wait_stat(__LINE__, f, "connections_current", 3);
	lb_wait_stat(__LINE__, f, "players_waiting", 1);

	for (k = 0; k < LB_PLAYERS / 2; k++)
		game_start_at(__LINE__, &g[k], -1);
	for (k = 0; k < LB_PLAYERS / 2; k++)
		GAME_PLAY(&g[k], S_FIRST_WINS);
	for (k = 0; k < LB_PLAYERS / 2; k++)
		game_rematch_at(__LINE__, &g[k], !g[k].winner, "AGAIN y",
		    "AGAIN y", g[k].winner);
	for (k = 0; k < LB_PLAYERS / 2; k++)
		GAME_PLAY(&g[k], S_TIE);
	/* Each game counted once, by the node that ran it. */
	assert_int_equal(lb_sum_stat(__LINE__, f, "games_finished"), 6);
	assert_int_equal(lb_sum_stat(__LINE__, f, "wins"), 3);
	assert_int_equal(lb_sum_stat(__LINE__, f, "ties"), 3);
	assert_int_equal(lb_sum_stat(__LINE__, f, "moves"), 3 * (5 + 9));
	for (k = 0; k < LB_PLAYERS / 2; k++) {
		SEND(g[k].p[1], "SAY good game");
		WANT_RAW(g[k].p[1], "OK SAY");
		WANT_RAW(g[k].p[0], "CHAT %s good game", g[k].name[1]);
		SEND(g[k].p[0], "QUIT");
		WANT_RAW(g[k].p[0], T_BYE);
		WANT_EOF(g[k].p[0]);
		WANT_RAW(g[k].p[1], "INFO %s left the match.", g[k].name[0]);
		lb_quit(__LINE__, g[k].p[1]);
	}
	/* Everything stops in order, the nodes with status 0. */
	lb_stop(f);
	for (i = 0; i < LB_NODES; i++)
		e2e_stop(f->e, f->node[i]);
}

/* A player through the balancer from the source address src. */
static struct conn *
lb_player_from(int ln, struct lb_fix *f, const char *src)
{
	struct conn	*c = e2e_conn(f->e);

	if (conn_open_from(c, f->port, src, HARNESS_TIMEOUT_MS) != 0)
		fail_msg("line %d: cannot connect to HAProxy from %s", ln, src);
	return (c);
}

/* The lines up to one that begins with prefix (a match's go by). */
static void
lb_skip_to(int ln, struct conn *c, const char *prefix, const char *want)
{
	char	line[LINE_SIZE];
	int	n = 0;

	do {
		if (line_read(c, line, sizeof line, HARNESS_TIMEOUT_MS) < 0 ||
		    ++n > 100)
			fail_msg("line %d: %s: no \"%s\"", ln, line_label(c),
			    prefix);
	} while (strncmp(line, prefix, strlen(prefix)) != 0);
	if (want != NULL && strcmp(line, want) != 0)
		fail_msg("line %d: %s: \"%s\", not \"%s\"", ln,
		    line_label(c), line, want);
}

/* How many of the nodes' logs (read on until then) hold text. */
static int
lb_logged(struct lb_fix *f, const char *text, int want)
{
	long	deadline = harness_now_ms() + LB_WAIT_MS;
	int	i, n;

	for (;;) {
		for (i = n = 0; i < LB_NODES; i++) {
			f->loglen[i] += harness_log(f->node[i],
			    f->log[i] + f->loglen[i],
			    sizeof f->log[i] - f->loglen[i]);
			n += harness_count(f->log[i], text);
		}
		if (n >= want || harness_now_ms() >= deadline)
			return (n);
		usleep(50000);
	}
}

/*
 * HAProxy's health checks pass through the PROXY header too: each node
 * logs a check that read its LOCAL header, was greeted and sent QUIT, and
 * none that closed before its header was whole (a check that sent no
 * header: every node marked down after three, nine seconds on).
 */
static void
test_haproxy_checks_send_proxy(void **state)
{
	struct lb_fix	*f = *state;
	int		 i;

	assert_int_equal(lb_logged(f, "quit from 127.0.0.1:", LB_NODES),
	    LB_NODES);
	for (i = 0; i < LB_NODES; i++) {
		assert_int_not_equal(harness_count(f->log[i],
		    "quit from 127.0.0.1:"), 0);
		assert_int_equal(harness_count(f->log[i],
		    "before its PROXY header was whole"), 0);
	}
}

/* How many lines of the nodes' logs (read on until then) hold a and b. */
static int
lb_logged_pair(struct lb_fix *f, const char *a, const char *b, int want)
{
	const char	*p, *nl;
	int		 i, n = 0;

	lb_logged(f, b, want);
	for (i = 0; i < LB_NODES; i++) {
		for (p = f->log[i]; *p != '\0'; p = *nl != '\0' ? nl + 1 : nl) {
			if ((nl = strchr(p, '\n')) == NULL)
				nl = p + strlen(p);
			if (memmem(p, (size_t)(nl - p), a, strlen(a)) != NULL &&
			    memmem(p, (size_t)(nl - p), b, strlen(b)) != NULL)
				n++;
		}
	}
	return (n);
}

/*
 * A player through the balancer from src, greeted, then at once in a
 * private room of its own (never paired: its lines stay on its node).
 */
static struct conn *
lb_roomed(int ln, struct lb_fix *f, const char *src)
{
	struct conn	*c = lb_player_from(ln, f, src);

	line_greeted_at(ln, c);
	line_send_at(ln, c, "ROOM NEW");
	lb_skip_to(ln, c, "WAIT ", NULL);
	return (c);
}

/* RESUME with a wrong token: the ERR line it gets must be want. */
static void
lb_guess(int ln, struct conn *c, const char *want)
{
	line_send_at(ln, c, "RESUME 2222-2222");
	lb_skip_to(ln, c, "ERR ", want);
}

/*
 * Players from 127.0.0.2 and 127.0.0.3 through HAProxy, which reaches
 * every node from 127.0.0.1 with a PROXY v2 header, are each their own
 * address (--max-per-addr 1 on each node).  The first from 127.0.0.2
 * spends its wrong RESUME tokens on its node (5, then RATE_LIMITED);
 * two more land one on each other node (leastconn), a fourth is refused
 * where it lands; then one from 127.0.0.3 on each node is greeted beside
 * them, and has its own allowance of wrong tokens there.  The nodes'
 * logs name both addresses; the HTTP frontend's requests (from 127.0.0.4)
 * are logged with theirs.
 */
static void
test_haproxy_players_own_addresses(void **state)
{
	static const char	 bad_token[] = "ERR BAD_TOKEN That code does "
				    "not match a seat you can resume.";
	static const char	 req[] = "GET /healthz HTTP/1.1\r\n"
				    "Host: tttd\r\nConnection: close\r\n\r\n";
	struct lb_fix		*f = *state;
	struct conn		*two[LB_NODES], *three[LB_NODES], *c;
	char			 line[LINE_SIZE];
	int			 i;

	two[0] = lb_roomed(__LINE__, f, "127.0.0.2");
	for (i = 0; i < 5; i++)
		lb_guess(__LINE__, two[0], bad_token);
	lb_guess(__LINE__, two[0], "ERR RATE_LIMITED Too many commands. "
	    "Please slow down.");
	for (i = 1; i < LB_NODES; i++)
		two[i] = lb_roomed(__LINE__, f, "127.0.0.2");
	assert_int_equal(lb_logged(f, "connect from 127.0.0.2:", LB_NODES),
	    LB_NODES);
	for (i = 0; i < LB_NODES; i++)
		assert_int_equal(harness_count(f->log[i],
		    "connect from 127.0.0.2:"), 1);
	c = lb_player_from(__LINE__, f, "127.0.0.2");
	if (line_read(c, line, sizeof line, HARNESS_TIMEOUT_MS) < 0)
		fail_msg("the fourth from 127.0.0.2: nothing");
	assert_string_equal(line, "ERR TOO_MANY_CONNECTIONS Too many "
	    "connections from your address. Please try again later.");
	line_want_eof_at(__LINE__, c);
	assert_int_equal(lb_logged(f, "refused 127.0.0.2:", 1), 1);

	for (i = 0; i < LB_NODES; i++)
		three[i] = lb_roomed(__LINE__, f, "127.0.0.3");
	assert_int_equal(lb_logged(f, "connect from 127.0.0.3:", LB_NODES),
	    LB_NODES);
	for (i = 0; i < LB_NODES; i++) {
		assert_int_equal(harness_count(f->log[i],
		    "connect from 127.0.0.3:"), 1);
		lb_guess(__LINE__, three[i], bad_token);
	}
	assert_int_equal(lb_logged_pair(f, " 127.0.0.2:",
	    " through the balancer 127.0.0.1:", 0), LB_NODES + 1);
	assert_int_equal(lb_logged_pair(f, " 127.0.0.3:",
	    " through the balancer 127.0.0.1:", 0), LB_NODES);

	/*
	 * The HTTP frontend: /healthz asked from 127.0.0.4 (127.0.0.3 holds
	 * its one slot on each node: an HTTP connection holds one too, and
	 * would get 503), logged so.
	 */
	for (i = 0; i < LB_NODES; i++) {
		c = e2e_conn(f->e);
		assert_int_equal(conn_open_from(c, f->http_port, "127.0.0.4",
		    HARNESS_TIMEOUT_MS), 0);
		assert_int_equal(conn_write(c, req, sizeof req - 1), 0);
		assert_true(conn_line(c, line, sizeof line,
		    HARNESS_TIMEOUT_MS) > 0);
		assert_string_equal(line, "HTTP/1.1 200 OK");
		conn_close(c);
	}
	assert_int_equal(lb_logged_pair(f, "127.0.0.4:", " GET /healthz",
	    LB_NODES), LB_NODES);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test_setup_teardown(test_haproxy_checks_send_proxy,
		    lb_setup, lb_teardown),
		cmocka_unit_test_setup_teardown(test_haproxy_each_node_greets,
		    lb_setup, lb_teardown),
		cmocka_unit_test_setup_teardown(
		    test_haproxy_matches_through_balancer, lb_setup,
		    lb_teardown),
		cmocka_unit_test_setup_teardown(
		    test_haproxy_players_own_addresses, lb_setup_cap1,
		    lb_teardown),
	};

	if (access(TTTD_HAPROXY_PATH, X_OK) != 0) {
		printf("haproxy is not installed: skipped\n");
		return (77);
	}
	return (cmocka_run_group_tests(tests, NULL, NULL));
}
