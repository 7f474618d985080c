/*
 * cluster-drain.c -- SIGUSR2: a node leaves the cluster without ending a
 * game.  It stops accepting (server.c), waits until Redis has answered
 * its last saves, then stands still and puts its instance on the orphans'
 * list, telling the other nodes at once (G): they take its matches up as
 * they would a dead node's (cluster-keep.c).  Once none is left to it (or
 * after the node timeout and two seconds, if no node takes them: the next
 * node to start will), it gives its name back and tells its players to
 * come back (BYE, server.c), and ends.
 */
#include <sys/queue.h>

#include <stdio.h>

#include <hiredis/hiredis.h>

#include "cluster-int.h"
#include "lobby.h"
#include "log.h"
#include "match.h"
#include "rlink.h"

static void	cluster_drain_give(struct cluster *);
static void	cluster_drain_release(struct cluster *, int);
static void	cluster_drain_polled(void *, redisReply *);
static void	cluster_drain_end(struct cluster *);
static void	cluster_drain_left(void *, redisReply *);

/* Orphan this instance's matches, if it has any, and say so (G). */
static const char cluster_give_lua[] =
    "local n = redis.call('SCARD', KEYS[1]) "
    "if n > 0 then redis.call('SADD', KEYS[2], ARGV[1]) "
    "redis.call('PUBLISH', KEYS[3], 'G ' .. ARGV[1] .. ' 0') end "
    "return n";

/* Give the name back (if it is still this instance's), leave the set. */
static const char cluster_leave_lua[] =
    "if redis.call('GET', KEYS[1]) == ARGV[1] then "
    "redis.call('DEL', KEYS[1]) end "
    "redis.call('ZREM', KEYS[2], ARGV[1]) "
    "return 1";

void
cluster_drain(struct cluster *cl)
{
	if (cl->drain != CLUSTER_DRAIN_NONE)
		return;
	cl->drain = CLUSTER_DRAIN_SAVING;
	cl->drain_until = cl->lobby->ops->now() + cl->node_timeout + 2000;
	log_info("node %s: draining: its %u match%s to the other nodes",
	    cl->node, cl->lobby->nmatches, cl->lobby->nmatches == 1 ? "" :
	    "es");
	cl->host.flush(cl->host.arg);		/* the last saves */
	cluster_drain_step(cl);
}

/* Saving: once every save is answered (or Redis is gone), give. */
void
cluster_drain_step(struct cluster *cl)
{
	if (cl->drain != CLUSTER_DRAIN_SAVING)
		return;
	if (!rlink_up(cl->link) || !cl->joined) {
		log_warn("node %s: not in the cluster: its matches end with it",
		    cl->node);
		cluster_drain_end(cl);
		return;
	}
	/* Saves in flight, or to be written again (an error): wait. */
	if (cl->saves_acked < cl->saves_sent ||
	    !TAILQ_EMPTY(&cl->lobby->touched))
		return;
	cluster_drain_give(cl);
}

static void
cluster_drain_give(struct cluster *cl)
{
	char		 kowner[CLUSTER_PREFIX_MAX + 32];
	char		 kor[CLUSTER_PREFIX_MAX + 16], all[CLUSTER_PREFIX_MAX + 8];
	const char	*argv[] = { "EVAL", cluster_give_lua, "3", kowner, kor,
			    all, cl->inst };

	snprintf(kowner, sizeof kowner, "%sowner:%s", cl->prefix, cl->inst);
	snprintf(kor, sizeof kor, "%sorphans", cl->prefix);
	snprintf(all, sizeof all, "%sall", cl->prefix);
	cl->drain = CLUSTER_DRAIN_GIVEN;
	cl->host.drained(cl->host.arg, 0);
	(void)rlink_cmd(cl->link, NULL, NULL, 7, argv, NULL);
	cl->drain_polling = 0;
}

/* Every tick while draining: a deadline, or ask whether all were taken. */
void
cluster_drain_tick(struct cluster *cl)
{
	char		 kowner[CLUSTER_PREFIX_MAX + 32];
	const char	*argv[] = { "SCARD", kowner };

	if (cl->drain == CLUSTER_DRAIN_NONE || cl->drain == CLUSTER_DRAIN_DONE)
		return;
	if (cl->lobby->ops->now() >= cl->drain_until) {
		log_warn("node %s: draining: not every match was taken up in "
		    "time; the next node to start takes the rest", cl->node);
		if (cl->drain == CLUSTER_DRAIN_SAVING)
			cluster_drain_give(cl);	/* orphaned all the same */
		cluster_drain_release(cl, 0);
		cluster_drain_end(cl);
		return;
	}
	if (cl->drain == CLUSTER_DRAIN_SAVING) {
		cluster_drain_step(cl);
		return;
	}
	if (cl->drain_polling)
		return;
	snprintf(kowner, sizeof kowner, "%sowner:%s", cl->prefix, cl->inst);
	if (rlink_cmd(cl->link, cluster_drain_polled, cl, 2, argv, NULL) == 0)
		cl->drain_polling = 1;
}

static void
cluster_drain_polled(void *arg, redisReply *r)
{
	struct cluster	*cl = arg;

	cl->drain_polling = 0;
	if (cl->drain != CLUSTER_DRAIN_GIVEN)
		return;
	if (r == NULL || (r->type == REDIS_REPLY_INTEGER && r->integer == 0)) {
		if (r != NULL)
			log_info("node %s: drained: every match taken up",
			    cl->node);
		cluster_drain_release(cl, r != NULL);
		cluster_drain_end(cl);
	}
}

/*
 * The matches given away leave this node without a word to their players
 * (BYE tells them to come back) and without a forfeit: their games go on
 * elsewhere.  Each is logged as what happened to it: taken up by another
 * node (taken), or left in Redis for the next node to start.
 */
static void
cluster_drain_release(struct cluster *cl, int taken)
{
	struct match	*m;
	struct client	*c[2];
	int		 i;

	while ((m = TAILQ_FIRST(&cl->lobby->matches)) != NULL) {
		log_info("match %llu (%s vs %s): %s", (unsigned long long)m->id,
		    match_name(m, 0), match_name(m, 1), taken ? "handed to "
		    "another node" : "left in Redis for the next node to start");
		for (i = 0; i < 2; i++)
			c[i] = m->player[i];
		match_free(m);
		for (i = 0; i < 2; i++) {
			if (c[i] != NULL && (c[i]->flags & CLIENT_REMOTE))
				cluster_seat_remote_done(
				    (struct cluster_remote *)c[i]);
		}
	}
}

/* The name back to the cluster, and the players told (host). */
static void
cluster_drain_end(struct cluster *cl)
{
	char		 knodes[CLUSTER_PREFIX_MAX + 8];
	const char	*argv[] = { "EVAL", cluster_leave_lua, "2", cl->key_node,
			    knodes, cl->inst };

	if (cl->drain == CLUSTER_DRAIN_DONE)
		return;
	snprintf(knodes, sizeof knodes, "%s", cl->key_nodes);
	if (cl->drain == CLUSTER_DRAIN_SAVING)
		cl->host.drained(cl->host.arg, 0);
	cl->drain = CLUSTER_DRAIN_DONE;
	if (rlink_cmd(cl->link, cluster_drain_left, cl, 6, argv, NULL) == -1)
		cl->host.drained(cl->host.arg, 1);
}

/* Out of the cluster (or Redis gone: NULL): the players are told. */
static void
cluster_drain_left(void *arg, redisReply *r)
{
	struct cluster	*cl = arg;

	(void)r;
	cl->host.drained(cl->host.arg, 1);
}
