/*
 * cluster_fix.c -- what the cluster suites share: a real redis-server per
 * test, nodes of the cluster on it, and two players paired across two
 * nodes.
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

#include "cluster_fix.h"

int
cl_setup(void **state)
{
	struct cl_fix	*f;

	if ((f = calloc(1, sizeof *f)) == NULL)
		return (-1);
	if (e2e_setup((void **)&f->e) != 0)
		return (-1);
	if (redis_proc_start(&f->redis) == -1) {
		fprintf(stderr, "cannot start redis-server\n");
		return (-1);
	}
	*state = f;
	return (0);
}

int
cl_teardown(void **state)
{
	struct cl_fix	*f = *state;
	int		 rc;

	rc = e2e_teardown((void **)&f->e);
	redis_proc_stop(&f->redis);
	free(f);
	return (rc);
}

/* A node of the cluster: --redis, --node name, a fixed seed. */
struct tttd_proc *
cl_node(struct cl_fix *f, const char *name)
{
	return (cl_node_with(f, name, NULL));
}

/* The same, with up to 8 more arguments (NULL-terminated; NULL: none). */
struct tttd_proc *
cl_node_with(struct cl_fix *f, const char *name, const char *const *more)
{
	const char	*args[16] = { "--redis", f->redis.addr, "--node", name,
			    "--seed", "7" };
	int		 n = 6;

	while (more != NULL && *more != NULL && n < 14)
		args[n++] = *more++;
	args[n] = NULL;
	return (e2e_server(f->e, args));
}

/* Ask STATS on a fresh connection until the stat is v (or the time). */
void
cl_wait_stat(int ln, struct cl_fix *f, struct tttd_proc *tp, const char *name,
    long v)
{
	long	deadline = harness_now_ms() + CLUSTER_WAIT_MS, got = -1;
	struct conn *c;

	while (harness_now_ms() < deadline) {
		c = e2e_connect_at(ln, f->e, tp);
		got = line_stat_at(ln, c, name);
		line_send_at(ln, c, "QUIT");
		if (got == v)
			return;
		usleep(200000);
	}
	fail_msg("line %d: STAT %s stayed %ld, not %ld", ln, name, got, v);
}

/* A game on two nodes' players: §9's lines, tokens and art. */
void
cl_game_init(struct game *g, struct conn *x, struct conn *o)
{
	game_init(g, x, o, "p1", "p2");
	g->grace = 30;
	g->art = 1;
	g->plain = 1;
	g->notice_any = 1;
}

/*
 * x waits alone on one node; o comes to another: they are paired within
 * a second of o's half second, x (who waited) playing X.
 */
void
cl_pair_at(int ln, struct cl_fix *f, struct tttd_proc *ta,
    struct tttd_proc *tb, struct game *g)
{
	struct conn	*x = e2e_connect_at(ln, f->e, ta), *o;
	long		 t0;

	line_want_quiet_at(ln, x, 700);
	o = e2e_connect_at(ln, f->e, tb);
	t0 = harness_now_ms();
	cl_game_init(g, x, o);
	game_match_at(ln, g);
	if (harness_now_ms() - t0 > 1500)
		fail_msg("line %d: paired after %ld ms", ln,
		    harness_now_ms() - t0);
	game_start_at(ln, g, -1);
}


/* Stop a process and wait until it is stopped (kill returns before). */
void
cl_stop_at(int ln, pid_t pid)
{
	char	path[64], buf[256], *p;
	FILE	*f;
	int	 i;

	kill(pid, SIGSTOP);
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	for (i = 0; i < 200; i++) {
		if ((f = fopen(path, "r")) != NULL) {
			p = fgets(buf, sizeof buf, f);
			fclose(f);
			/* "pid (comm) state ...": comm may hold spaces. */
			if (p != NULL && (p = strrchr(buf, ')')) != NULL &&
			    p[1] == ' ' && p[2] == 'T')
				return;
		}
		usleep(5 * 1000);
	}
	fail_msg("line %d: process %d did not stop", ln, (int)pid);
}

/* An inline command to the test's Redis whose reply is an integer. */
long
cl_redis_int(int ln, struct cl_fix *f, const char *cmd)
{
	char	reply[256], *end = NULL;
	long	v = 0;

	if (redis_proc_cmd(&f->redis, cmd, reply, sizeof reply) >= 2 &&
	    reply[0] == ':')
		v = strtol(reply + 1, &end, 10);
	if (end == NULL || *end != '\0')
		fail_msg("line %d: %s: \"%s\"", ln, cmd, reply);
	return (v);
}

/* Ask Redis until the command's integer is v (or the time is up). */
void
cl_wait_redis_at(int ln, struct cl_fix *f, const char *cmd, long v)
{
	long	deadline = harness_now_ms() + CLUSTER_WAIT_MS, got = -1;

	while (harness_now_ms() < deadline) {
		if ((got = cl_redis_int(ln, f, cmd)) == v)
			return;
		usleep(20 * 1000);
	}
	fail_msg("line %d: %s stayed %ld, not %ld", ln, cmd, got, v);
}
