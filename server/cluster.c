/*
 * cluster.c -- one service of every node that shares a Redis (--redis).
 *
 * Redis holds what the nodes share, and nothing else does:
 *
 *	<prefix>node:<name>	its instance (random hex), for 5 s: a name
 *				is one live node's (SET NX), renewed each
 *				second
 *	<prefix>nodes		the live nodes' instances, by Redis's
 *				time (a sorted set): STAT cluster_nodes, and
 *				a node silent for 5 s is dead
 *	<prefix>queue		the players waiting alone on their node, at
 *				most one per node: "<name> <instance> <id>"
 *	<prefix>to:<instance>	each node's channel (pub/sub): the lines
 *				below
 *
 * A node whose ripe player waits alone runs one script that takes the
 * oldest player waiting on another live node, or else queues its own.
 * The taker offers its node the match (O); that node hands its player
 * over (S), or says it is gone (N).  The taker runs the match: the player
 * from the other node is a remote seat here, a struct client whose ops
 * publish its lines to its node (L), close it (C), or hand it back to its
 * node's queue (H); its node relays the player's checked lines (I), and
 * says when the connection is lost (D).  If the taker's own player left
 * meanwhile, the handed player goes back to its queue (B).
 *
 * Every message: "<type> <sender's instance> <client id> [<more>]".
 *
 * This file is the node: its name, its link to Redis, its heartbeat, and
 * the messages in, each to its part (cluster-queue.c, cluster-seat.c,
 * cluster-ask.c; cluster-base.c has what they share).
 */
#include <sys/queue.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>
#include <hiredis/hiredis.h>

#include "cluster-int.h"
#include "cluster-msg.h"
#include "lobby.h"
#include "log.h"
#include "printable.h"
#include "rlink.h"
#include "session.h"

static void	cluster_ids_from(struct cluster *, uint64_t);
static void	cluster_ids_reply(void *, redisReply *);
static void	cluster_ids_claim(struct cluster *);
static void	cluster_ids_random(struct cluster *);
static void	cluster_ids_keep(struct cluster *);
static int	cluster_claim_now(struct cluster *);
static int	cluster_start(void *);
static void	cluster_pass_end(void *);
static int	cluster_shutdown(void *, void (*)(void *), void *);
static void	cluster_free(void *);
static void	cluster_message(void *, const char *, size_t);
static void	cluster_refused(struct cluster *, const char *, size_t,
		    enum cluster_msg_error);
static void	cluster_renew(struct cluster *);
static void	cluster_up(void *);
static void	cluster_down(void *);
static void	cluster_forget_dead(struct cluster *, const redisReply *);
static void	cluster_beat_cb(evutil_socket_t, short, void *);
static void	cluster_tick_cb(evutil_socket_t, short, void *);
static void	cluster_beat(struct cluster *);
static void	cluster_beat_reply(void *, redisReply *);
static void	cluster_cut(struct cluster *);
static void	cluster_beat_counts(struct cluster *, const redisReply *);
static void	cluster_names_keep(struct cluster *, const redisReply *,
		    const redisReply *);
static void	cluster_leave(struct cluster *);
static void	cluster_left(void *, redisReply *);

static const struct rlink_ops cluster_link_ops = {
	cluster_up,
	cluster_down,
	cluster_message
};

/* What the cluster hears of the world. */
static const struct lobby_events cluster_events = {
	.waits_alone = cluster_queue_alone,
	.left_queue = cluster_queue_unqueued,
	.relay_line = cluster_relay,
	.relay_refused = cluster_relay_error,
	.relay_left = cluster_relay_end,
	.not_found = cluster_ask_elsewhere,
	.name_claimed = cluster_ask_name_check,
	.name_changed = cluster_ask_name_changed,
	.match_touched = cluster_keep_touched,
	.match_freed = cluster_keep_ended,
	.record_settled = cluster_keep_settled,
	.signed_in = cluster_account_signed_in,
	.rated = cluster_account_rated
};

/*
 * Renew the node's name (or claim it, if free), note its instance live,
 * orphan the matches of the instances silent for ARGV[5] ms (dead; only
 * if this node was in the cluster all that time, ARGV[8], and was not
 * silent itself: after a stall of Redis every node looks silent, and a
 * beat sent before it runs after it): the
 * live instances, their nodes' names (ARGV[9] is this one's, kept as
 * long as its name), then the number of orphaned instances and of those
 * silent for ARGV[7] ms (maybe dying).  -1 if another live node has the
 * name; -2 if this instance, in the cluster (ARGV[6]), was taken for dead.
 */
static const char cluster_beat_lua[] =
    "local v = redis.call('GET', KEYS[1]) "
    "if v and v ~= ARGV[1] and v ~= ARGV[3] then return -1 end "
    "local t = redis.call('TIME') "
    "local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) "
    "local cut = now - tonumber(ARGV[5]) "
    "local mine = redis.call('ZSCORE', KEYS[2], ARGV[1]) "
    "if ARGV[8] == '1' and mine and tonumber(mine) > cut then "
    "for _, d in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', cut)) do "
    "if redis.call('EXISTS', ARGV[4] .. 'owner:' .. d) == 1 then "
    "redis.call('SADD', ARGV[4] .. 'orphans', d) end end "
    "redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', cut) end "
    "if ARGV[6] == '1' and not redis.call('ZSCORE', KEYS[2], ARGV[1]) "
    "then return -2 end "
    "redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) "
    "redis.call('SET', ARGV[4] .. 'nodename:' .. ARGV[1], ARGV[9], 'PX', "
    "ARGV[2]) "
    "redis.call('ZADD', KEYS[2], now, ARGV[1]) "
    "local live = redis.call('ZRANGE', KEYS[2], 0, -1) "
    "local names = {} "
    "for i, d in ipairs(live) do "
    "names[i] = redis.call('GET', ARGV[4] .. 'nodename:' .. d) or '' end "
    "live[#live + 1] = names "
    "live[#live + 1] = redis.call('SCARD', ARGV[4] .. 'orphans') "
    "live[#live + 1] = redis.call('ZCOUNT', KEYS[2], '-inf', "
    "now - tonumber(ARGV[7])) "
    "return live";

/*
 * The live instances' nodes' names, from a beat (the instances, then an
 * array of their names in the same order): kept for cluster_base_node_of, an
 * instance that dies too (its matches are taken up after), until the
 * table is full and it is the oldest.
 */
static void
cluster_names_keep(struct cluster *cl, const redisReply *live,
    const redisReply *names)
{
	const redisReply	*i, *n;
	struct cluster_name	*e;
	size_t			 k, j;

	for (k = 0; k < names->elements && k < live->elements; k++) {
		i = live->element[k];
		n = names->element[k];
		if (i->type != REDIS_REPLY_STRING || i->len != CLUSTER_INST_LEN ||
		    n->type != REDIS_REPLY_STRING || n->len == 0 ||
		    n->len > CLUSTER_NODE_MAX || !cluster_valid_name(n->str))
			continue;
		for (j = 0; j < cl->nnames; j++) {
			if (strcmp(cl->names[j].inst, i->str) == 0)
				break;
		}
		if (j == cl->nnames && cl->nnames < CLUSTER_NAMES_MAX)
			cl->nnames++;
		else if (j == cl->nnames)	/* full: the oldest goes */
			j = cl->names_next++ % CLUSTER_NAMES_MAX;
		e = &cl->names[j];
		memcpy(e->inst, i->str, CLUSTER_INST_LEN + 1);
		memcpy(e->node, n->str, n->len + 1);
	}
}

/* A node's name: 1 to 64 of letters, digits, '.', '_', ':', '-'. */
int
cluster_valid_name(const char *s)
{
	size_t	i, n = strlen(s);

	if (n == 0 || n > CLUSTER_NODE_MAX)
		return (0);
	for (i = 0; i < n; i++) {
		if (!isalnum((unsigned char)s[i]) && strchr("._:-", s[i]) ==
		    NULL)
			return (0);
	}
	return (1);
}

/* A prefix: up to 32 printable bytes, no blank. */
int
cluster_valid_prefix(const char *s)
{
	size_t	i, n = strlen(s);

	if (n > CLUSTER_PREFIX_MAX)
		return (0);
	for (i = 0; i < n; i++) {
		if (s[i] <= ' ' || s[i] > '~')
			return (0);
	}
	return (1);
}

/*
 * "HOST:PORT" with a numeric HOST ("[v6]:PORT" for IPv6): 0, or -1.
 * hiredis 0.14 would look a name up on the event loop, and wait.
 */
int
cluster_parse_addr(const char *s, char *ip, size_t iplen, int *port)
{
	const char	*colon = strrchr(s, ':');
	char		 host[64], *end;
	unsigned char	 bin[sizeof(struct in6_addr)];
	size_t		 n;
	long		 p;

	if (colon == NULL || colon == s)
		return (-1);
	n = (size_t)(colon - s);
	if (s[0] == '[') {
		if (n < 3 || s[n - 1] != ']')
			return (-1);
		s++;
		n -= 2;
	}
	if (n >= sizeof host || n >= iplen)
		return (-1);
	memcpy(host, s, n);
	host[n] = '\0';
	if (inet_pton(AF_INET, host, bin) != 1 &&
	    inet_pton(AF_INET6, host, bin) != 1)
		return (-1);
	p = strtol(colon + 1, &end, 10);
	if (colon[1] == '\0' || *end != '\0' || p < 1 || p > 65535)
		return (-1);
	memcpy(ip, host, n + 1);
	*port = (int)p;
	return (0);
}

/*
 * Match ids unique in the cluster: this start of the node is the k-th of
 * all (INCR), and its matches are numbered from k * CLUSTER_ID_BLOCK.
 */
static void
cluster_ids_from(struct cluster *cl, uint64_t k)
{
	if (cl->id_base_set || k == 0)
		return;
	cl->id_base_set = 1;
	cl->id_k = k;
	cl->lobby->next_match_id = k * CLUSTER_ID_BLOCK + 1;
	log_info("node %s: match ids from %llu", cl->node,
	    (unsigned long long)cl->lobby->next_match_id);
}

static void
cluster_ids_reply(void *arg, redisReply *r)
{
	if (r != NULL && r->type == REDIS_REPLY_INTEGER)
		cluster_ids_from(arg, (uint64_t)r->integer);
}

/*
 * Started without Redis: a block of its own at random, far above the
 * counter's (2^31 to 2^32 blocks), so that its matches clash with no
 * other node's when it joins.
 */
static void
cluster_ids_random(struct cluster *cl)
{
	uint64_t	r;

	cl->lobby->ops->random(&r, sizeof r);
	cluster_ids_from(cl, ((uint64_t)1 << 31) + (r & 0x7fffffffULL));
}

/*
 * Joined: the counter is at least this node's number (Redis may have come
 * back empty), so that a node started next takes a block of its own.
 */
static void
cluster_ids_keep(struct cluster *cl)
{
	char		 key[CLUSTER_PREFIX_MAX + 16], k[24];
	const char	*argv[] = { "EVAL", "local v = tonumber(redis.call('GET', "
			    "KEYS[1]) or '0') if v < tonumber(ARGV[1]) then "
			    "redis.call('SET', KEYS[1], ARGV[1]) end return 1",
			    "1", key, k };

	if (!cl->id_base_set || cl->id_k >= ((uint64_t)1 << 31))
		return;
	snprintf(key, sizeof key, "%snode_seq", cl->prefix);
	snprintf(k, sizeof k, "%" PRIu64, cl->id_k);
	(void)rlink_cmd(cl->link, NULL, NULL, 5, argv, NULL);
}

/* Joined later than at start: the number now. */
static void
cluster_ids_claim(struct cluster *cl)
{
	char		 key[CLUSTER_PREFIX_MAX + 16];
	const char	*argv[] = { "INCR", key };

	snprintf(key, sizeof key, "%snode_seq", cl->prefix);
	(void)rlink_cmd(cl->link, cluster_ids_reply, cl, 2, argv, NULL);
}

/*
 * At start, before the loop: is the name free?  -1 if a live node has
 * it.  Redis out of reach is no reason not to start: the node serves its
 * own players and joins when Redis answers.
 */
static int
cluster_claim_now(struct cluster *cl)
{
	struct timeval	 tv = { 1, 0 };
	redisContext	*rc;
	redisReply	*r;
	int		 rv = 0;
	char		 ttl[16];

	rc = redisConnectWithTimeout(cl->redis_ip, cl->redis_port, tv);
	if (rc == NULL || rc->err) {
		log_warn("redis %s:%d: %s; serving this node's players alone "
		    "until it answers", cl->redis_ip, cl->redis_port,
		    rc != NULL ? rc->errstr : "out of memory");
		redisFree(rc);
		cluster_ids_random(cl);
		return (0);
	}
	redisSetTimeout(rc, tv);
	snprintf(ttl, sizeof ttl, "%lld", (long long)cl->node_timeout);
	r = redisCommand(rc, "SET %s %s NX PX %s", cl->key_node, cl->inst,
	    ttl);
	if (r != NULL && r->type == REDIS_REPLY_NIL) {
		log_error("node name %s is in use by a live node (Redis %s:%d, "
		    "prefix %s): give each node its own --node", cl->node,
		    cl->redis_ip, cl->redis_port, cl->prefix);
		rv = -1;
	} else if (r == NULL || r->type == REDIS_REPLY_ERROR)
		log_warn("redis %s:%d: %s", cl->redis_ip, cl->redis_port,
		    r != NULL ? r->str : rc->errstr);
	else
		cl->joined = 1;
	if (r != NULL)
		freeReplyObject(r);
	if (rv == 0 && cl->joined && (r = redisCommand(rc, "INCR %snode_seq",
	    cl->prefix)) != NULL) {
		if (r->type == REDIS_REPLY_INTEGER)
			cluster_ids_from(cl, (uint64_t)r->integer);
		freeReplyObject(r);
	}
	redisFree(rc);
	if (rv == 0 && !cl->id_base_set)
		cluster_ids_random(cl);
	return (rv);
}

struct cluster *
cluster_new(struct event_base *base, struct lobby *lobby,
    const struct cluster_config *cfg, const struct cluster_host *host)
{
	struct cluster		*cl;
	uint64_t		 r;

	if ((cl = calloc(1, sizeof *cl)) == NULL)
		return (NULL);
	cl->base = base;
	cl->lobby = lobby;
	cl->host = *host;
	snprintf(cl->redis_ip, sizeof cl->redis_ip, "%s", cfg->redis_ip);
	cl->redis_port = cfg->redis_port;
	snprintf(cl->node, sizeof cl->node, "%s", cfg->node);
	snprintf(cl->prefix, sizeof cl->prefix, "%s", cfg->prefix);
	cl->node_timeout = cfg->node_timeout > 0 ? cfg->node_timeout :
	    CLUSTER_NODE_TIMEOUT_MS;
	lobby->ops->random(&r, sizeof r);
	snprintf(cl->inst, sizeof cl->inst, "%016" PRIx64, r);
	snprintf(cl->key_node, sizeof cl->key_node, "%snode:%s", cl->prefix,
	    cl->node);
	snprintf(cl->key_nodes, sizeof cl->key_nodes, "%snodes", cl->prefix);
	snprintf(cl->key_queue, sizeof cl->key_queue, "%squeue", cl->prefix);
	snprintf(cl->key_since, sizeof cl->key_since, "%squeue:since",
	    cl->prefix);
	TAILQ_INIT(&cl->all_remotes);
	TAILQ_INIT(&cl->dirty);
	LIST_INIT(&cl->all_locals);
	cl->next_id = (uint64_t)1 << 48;
	lobby->cluster.on = 1;
	lobby->cluster.nodes = 1;
	cluster_keep_init(cl);
	lobby_listen(lobby, &cl->listener, &cluster_events, cl);
	log_info("node %s (instance %s): Redis %s:%d, prefix %s", cl->node,
	    cl->inst, cfg->redis_ip, cfg->redis_port, cl->prefix);
	if (keytab_init(&cl->remotes, 64, r ^ 0x9e3779b97f4a7c15ULL) == -1 ||
	    keytab_init(&cl->locals, 64, r ^ 0x5851f42d4c957f2dULL) == -1) {
		cluster_free(cl);
		return (NULL);
	}
	return (cl);
}

/* The cluster as the daemon drives it (service.h). */
void
cluster_service(struct cluster *cl, struct service *svc)
{
	svc->start = cluster_start;
	svc->flush = cluster_pass_end;
	svc->forget = cluster_seat_forget;
	svc->shutdown = cluster_shutdown;
	svc->free = cluster_free;
	svc->arg = cl;
}

/*
 * Claim the node's name (before the loop), then its heartbeat, its tick
 * and the link to Redis: 0, or -1 when it cannot start.
 */
static int
cluster_start(void *arg)
{
	struct cluster		*cl = arg;
	char			 channel[CLUSTER_PREFIX_MAX + 32];
	char			 all[CLUSTER_PREFIX_MAX + 8];
	const char		*channels[] = { channel, all, NULL };
	static const struct timeval beat = { CLUSTER_BEAT_MS / 1000,
				    (CLUSTER_BEAT_MS % 1000) * 1000 };
	static const struct timeval tick = { 0, CLUSTER_TICK_MS * 1000 };

	snprintf(channel, sizeof channel, "%sto:%s", cl->prefix, cl->inst);
	snprintf(all, sizeof all, "%sall", cl->prefix);
	if (cluster_claim_now(cl) == -1 ||
	    (cl->beat = event_new(cl->base, -1, EV_PERSIST, cluster_beat_cb,
	    cl)) == NULL || event_add(cl->beat, &beat) == -1 ||
	    (cl->tick = event_new(cl->base, -1, EV_PERSIST, cluster_tick_cb,
	    cl)) == NULL || event_add(cl->tick, &tick) == -1 ||
	    (cl->pass = event_new(cl->base, -1, 0, cluster_keep_pass_cb,
	    cl)) == NULL ||
	    (cl->link = rlink_new(cl->base, cl->redis_ip, cl->redis_port,
	    channels, &cluster_link_ops, cl)) == NULL)
		return (-1);
	return (0);
}

/*
 * The end of a callback: the matches that changed saved (their players
 * corked), then what the remote seats were sent, out.
 */
static void
cluster_pass_end(void *arg)
{
	cluster_keep_flush(arg);
	cluster_seat_flush(arg);
}

/* Free the cluster: its link, remote seats, timers; it hears no more. */
static void
cluster_free(void *arg)
{
	struct cluster		*cl = arg;
	struct cluster_remote	*r;
	struct cluster_local	*l;

	cl->lobby->keep = 0;	/* what ends now is not forgotten in Redis */
	rlink_free(cl->link);
	cl->link = NULL;
	while ((r = TAILQ_FIRST(&cl->all_remotes)) != NULL)
		cluster_seat_remote_free(r);
	while ((l = LIST_FIRST(&cl->all_locals)) != NULL) {
		LIST_REMOVE(l, all_entry);
		free(l);
	}
	if (cl->beat != NULL)
		event_free(cl->beat);
	if (cl->tick != NULL)
		event_free(cl->tick);
	if (cl->pass != NULL)
		event_free(cl->pass);
	free(cl->games);
	free(cl->ring);
	free(cl->ended);
	cl->lobby->cluster.games = NULL;
	cl->lobby->cluster.ngames = cl->lobby->cluster.games_more = 0;
	keytab_free(&cl->remotes);
	keytab_free(&cl->locals);
	cl->lobby->cluster.on = 0;
	lobby_unlisten(cl->lobby, &cl->listener);
	free(cl);
}

/*
 * The node stops (SIGTERM): its matches end, so Redis forgets them (no
 * node takes them up later), and its name is free at once.  On the link,
 * after the writes before it; the daemon waits for the answer (a second
 * at most: its shutdown's bound).
 */
static const char cluster_leave_lua[] =
    "local ids = redis.call('SMEMBERS', KEYS[1]) "
    "for _, id in ipairs(ids) do "
    "local k = ARGV[1] .. 'match:' .. id "
    "local v = redis.call('GET', k) "
    "if v and string.sub(v, 1, 16) == ARGV[2] then "
    "redis.call('DEL', k) end end "
    "redis.call('DEL', KEYS[1]) "
    "if redis.call('GET', KEYS[2]) == ARGV[2] then "
    "redis.call('DEL', KEYS[2]) end "
    "redis.call('ZREM', KEYS[3], ARGV[2]) "
    "return #ids";

static void
cluster_leave(struct cluster *cl)
{
	char		 kowner[CLUSTER_PREFIX_MAX + 32];
	const char	*argv[] = { "EVAL", cluster_leave_lua, "3", kowner,
			    cl->key_node, cl->key_nodes, cl->prefix, cl->inst };

	if (!cl->joined || !rlink_up(cl->link))
		return;
	snprintf(kowner, sizeof kowner, "%sowner:%s", cl->prefix, cl->inst);
	if (rlink_cmd(cl->link, cluster_left, cl, 8, argv, NULL) == 0)
		cl->leaving = 1;
}

static void
cluster_left(void *arg, redisReply *r)
{
	struct cluster	*cl = arg;

	cl->leaving = 0;
	if (r != NULL && r->type == REDIS_REPLY_INTEGER)
		log_info("node %s: stopping: its %lld match%s end%s, its "
		    "name is free", cl->node, r->integer, r->integer == 1 ?
		    "" : "es", r->integer == 1 ? "s" : "");
	cl->left(cl->left_arg);
}

/*
 * The node is stopping: the remote seats here get BYE, as its own players
 * do, and their connections are closed by their nodes.  1 when done(arg)
 * is called once Redis has forgotten the node's matches (or is gone).
 */
static int
cluster_shutdown(void *arg, void (*done)(void *), void *done_arg)
{
	struct cluster		*cl = arg;
	struct cluster_remote	*r, *next;

	if (cl->drain >= CLUSTER_DRAIN_GIVEN)
		return (0);		/* its remote seats are elsewhere now */
	for (r = TAILQ_FIRST(&cl->all_remotes); r != NULL; r = next) {
		next = TAILQ_NEXT(r, all_entry);
		session_shutdown(&r->c, SESSION_SHUTDOWN);
	}
	cluster_seat_flush(cl);
	cl->stopping = 1;	/* what ends now stays ended */
	cl->left = done;
	cl->left_arg = done_arg;
	cluster_leave(cl);
	return (cl->leaving);
}

/* One message on this node's channel. */
static void
cluster_message(void *arg, const char *msg, size_t len)
{
	struct cluster		*cl = arg;
	struct cluster_msg	 m;
	enum cluster_msg_error	 why;
	char			 buf[CLUSTER_MSG_MAX + 1];

	if (len > CLUSTER_MSG_MAX || cl->drain >= CLUSTER_DRAIN_GIVEN)
		return;
	memcpy(buf, msg, len);
	buf[len] = '\0';
	if (cluster_msg_parse(buf, len, &m, &why) == -1) {
		cluster_refused(cl, buf, len, why);
		return;
	}
	switch (m.type) {
	case 'O':
		cluster_queue_on_offer(cl, m.from, m.id, m.rest);
		break;
	case 'S':
		cluster_queue_on_seat(cl, m.from, m.id, m.rest);
		break;
	case 'N':
		cluster_queue_on_nope(cl, m.id);
		break;
	case 'B':
		cluster_queue_on_back(cl, m.from, m.id);
		break;
	case 'L':
	case 'C':
	case 'H':
	case 'M':
		cluster_seat_on_owner(cl, m.type, m.from, m.id, m.rest, m.len);
		break;
	case 'I':
	case 'E':
	case 'D':
		cluster_seat_on_home(cl, m.type, m.from, m.id, m.rest, m.len);
		break;
	case 'X':
		cluster_ask_on_ask(cl, m.from, m.id, m.rest, m.len);
		break;
	case 'A':
	case 'R':
		cluster_ask_on_answer(cl, m.type, m.from, m.id);
		break;
	case 'T':
		if (m.len == CLUSTER_INST_LEN)
			cluster_keep_on_taken(cl, m.from, m.id, m.rest);
		break;
	case 'U':
		cluster_account_on_signed_in(cl, m.from, m.rest);
		break;
	case 'W':
		cluster_account_on_rated(cl, m.from, m.id, m.rest);
		break;
	case 'G':
		if (strcmp(m.from, cl->inst) != 0) {
			cluster_seat_hold_relayed(cl, m.from);
			cluster_keep_adopt(cl);
		}
		break;
	}
	cl->host.flush(cl->host.arg);
}

/*
 * A message refused (cluster-msg.c): logged the first time for each
 * reason, its bytes made printable; whoever can publish on the shared
 * Redis could fill the log otherwise.
 */
static void
cluster_refused(struct cluster *cl, const char *msg, size_t len,
    enum cluster_msg_error why)
{
	char	safe[256];

	if (cl->msg_refused_logged & (1u << why))
		return;
	cl->msg_refused_logged |= 1u << why;
	log_warn("node %s: a message refused: %s (once for this reason): %s",
	    cl->node, cluster_msg_strerror(why), printable(msg, len, safe,
	    sizeof safe));
}

/*
 * After a loss of Redis: a new instance.  Messages meant for the old one
 * are lost (pub/sub keeps none), so the other nodes must take it for dead
 * and let go of what they shared with it, as this node has.
 */
static void
cluster_renew(struct cluster *cl)
{
	char		channel[CLUSTER_PREFIX_MAX + 32];
	uint64_t	r;

	snprintf(cl->old_inst, sizeof cl->old_inst, "%s", cl->inst);
	cl->lobby->ops->random(&r, sizeof r);
	snprintf(cl->inst, sizeof cl->inst, "%016" PRIx64, r);
	snprintf(channel, sizeof channel, "%sto:%s", cl->prefix, cl->inst);
	rlink_rename(cl->link, 0, channel);
	log_info("node %s: instance %s now", cl->node, cl->inst);
}

static void
cluster_up(void *arg)
{
	struct cluster	*cl = arg;

	cl->lobby->cluster.connected = 1;
	cluster_keep_up(cl);
	cluster_beat(cl);
}

/*
 * Redis is gone: this node's players in matches elsewhere are told and
 * queued here; the remote seats here are lost connections (held for their
 * grace period, as any); a player posted waits on this node alone.
 */
static void
cluster_down(void *arg)
{
	struct cluster	*cl = arg;

	cl->lobby->cluster.connected = 0;
	cluster_cut(cl);
}

/*
 * Cut off from the cluster (Redis lost, or this node taken for dead):
 * what it shared with the others is let go, and it comes back as a new
 * instance, its matches saved again as that one's when it joins.
 */
static void
cluster_cut(struct cluster *cl)
{
	struct cluster_local	*l, *next;
	struct cluster_remote	*r, *rnext;
	struct client		*c;
	int			 was_in = cl->joined || cl->counted;

	cl->lobby->cluster.nodes = 1;
	cl->counted = 0;
	cl->joined = 0;
	/* Posted players wait here alone (an open ask ends by its clock). */
	for (l = LIST_FIRST(&cl->all_locals); l != NULL; l = next) {
		next = LIST_NEXT(l, all_entry);
		c = l->c;
		if (l->owner[0] == '\0') {
			c->flags &= ~CLIENT_POSTED;
			l->offer_until = 0;
			if (!l->asking)
				cluster_base_local_del(cl, l);
		}
	}
	cluster_seat_lost_owners(cl, NULL);
	/*
	 * Once per cut: the instance before it wrote the matches, and the
	 * next one writes them again as its own (one step back only).
	 */
	if (was_in)
		cluster_renew(cl);
	for (r = TAILQ_FIRST(&cl->all_remotes); r != NULL; r = rnext) {
		rnext = TAILQ_NEXT(r, all_entry);
		if (!r->done)
			cluster_seat_lost_home(r);
	}
	cl->host.flush(cl->host.arg);
}

/*
 * Nodes silent for CLUSTER_NODE_TTL_MS are dead: this node's players in
 * their matches are told and queued here; their players' seats here are
 * lost connections (held for their grace period).
 */
static void
cluster_forget_dead(struct cluster *cl, const redisReply *live)
{
	struct cluster_remote	*r, *rnext;

	cluster_seat_lost_owners(cl, live);
	for (r = TAILQ_FIRST(&cl->all_remotes); r != NULL; r = rnext) {
		rnext = TAILQ_NEXT(r, all_entry);
		if (!r->done && !cluster_base_live(live, r->home))
			cluster_seat_lost_home(r);
	}
}

/* Renew the name and count the nodes. */
static void
cluster_beat(struct cluster *cl)
{
	char		 ttl[24], dead_ms[24], suspect[16];
	const char	*argv[14];
	int64_t		 dead;

	snprintf(ttl, sizeof ttl, "%lld", (long long)cl->node_timeout);
	dead = cl->node_timeout - CLUSTER_BEAT_MS;
	snprintf(dead_ms, sizeof dead_ms, "%lld", (long long)(dead > 1000 ?
	    dead : 1000));
	snprintf(suspect, sizeof suspect, "%d", CLUSTER_SUSPECT_MS);
	argv[0] = "EVAL";
	argv[1] = cluster_beat_lua;
	argv[2] = "2";
	argv[3] = cl->key_node;
	argv[4] = cl->key_nodes;
	argv[5] = cl->inst;
	argv[6] = ttl;
	argv[7] = cl->old_inst[0] != '\0' ? cl->old_inst : cl->inst;
	argv[8] = cl->prefix;
	argv[9] = dead_ms;
	argv[10] = cl->counted ? "1" : "0";
	argv[11] = suspect;
	argv[12] = cl->joined && cl->lobby->ops->now() - cl->joined_at >=
	    cl->node_timeout ? "1" : "0";
	argv[13] = cl->node;
	if (rlink_cmd(cl->link, cluster_beat_reply, cl, 14, argv, NULL) == 0)
		cl->beating = 1;
}

static void
cluster_beat_reply(void *arg, redisReply *r)
{
	struct cluster	*cl = arg;
	struct lobby	*lobby = cl->lobby;
	int		 was = cl->joined;

	cl->beating = 0;
	if (r == NULL || cl->drain >= CLUSTER_DRAIN_GIVEN)
		return;			/* draining: it stands still */
	if (r->type != REDIS_REPLY_INTEGER && r->type != REDIS_REPLY_ARRAY) {
		log_warn("node %s: Redis says %s", cl->node,
		    r->type == REDIS_REPLY_ERROR ? r->str : "something odd");
		return;
	}
	if (r->type == REDIS_REPLY_INTEGER && r->integer == -2) {
		log_warn("node %s: the cluster took this node for dead (silent "
		    "too long): its matches are saved again, or were taken up "
		    "elsewhere", cl->node);
		cluster_cut(cl);
		/* Its players come back: their seats are on other nodes. */
		cl->unsettled_until = cl->lobby->ops->now() + CLUSTER_SETTLE_MS;
		cl->host.flush(cl->host.arg);
		return;
	}
	if (r->type == REDIS_REPLY_INTEGER) {
		if (!cl->taken_logged)
			log_error("node name %s is in use by another live "
			    "node: serving this node's players alone",
			    cl->node);
		cl->taken_logged = 1;
		cl->joined = 0;
		return;
	}
	cl->taken_logged = 0;
	cl->joined = 1;
	cl->counted = 1;
	if (!was) {
		cl->joined_at = lobby->ops->now();
		/*
		 * Before taking any match up (its own previous instance's
		 * among them): what ended meanwhile is forgotten, and what
		 * runs is written as this instance's.
		 */
		cluster_keep_forget_ended(cl);
		cluster_keep_all(cl);
		cluster_keep_pass(cl);	/* now: before the take-up below */
	}
	cluster_beat_counts(cl, r);
	cluster_forget_dead(cl, r);
	cluster_ask_games_publish(cl);
	cluster_ask_games_fetch(cl, r);
	if (!cl->id_base_set)
		cluster_ids_claim(cl);
	if (!was) {
		log_info("node %s: in the cluster (%u nodes)", cl->node,
		    lobby->cluster.nodes);
		cluster_ids_keep(cl);
		/* A player waiting alone meanwhile: others may take it. */
		if (lobby->nqueued == 1 &&
		    !(TAILQ_FIRST(&lobby->queue)->flags & CLIENT_POSTED))
			cluster_queue_alone(cl, TAILQ_FIRST(&lobby->queue));
	}
	cluster_queue_widen(cl);	/* ranges widened */
	cl->host.flush(cl->host.arg);
}

/*
 * The beat's counts: live nodes; orphaned instances (take their matches
 * up); nodes silent for a while (a RESUME of nothing may be one of theirs).
 * And the live nodes' names, for the log.
 */
static void
cluster_beat_counts(struct cluster *cl, const redisReply *r)
{
	size_t	n = r->elements;
	int64_t	now = cl->lobby->ops->now();

	if (n >= 2 && r->element[n - 1]->type == REDIS_REPLY_INTEGER &&
	    r->element[n - 2]->type == REDIS_REPLY_INTEGER) {
		cl->orphans = r->element[n - 2]->integer;
		if (cl->orphans > 0 || r->element[n - 1]->integer > 0)
			cl->unsettled_until = now + CLUSTER_SETTLE_MS;
		n -= 2;
	}
	if (n >= 1 && r->element[n - 1]->type == REDIS_REPLY_ARRAY) {
		cluster_names_keep(cl, r, r->element[n - 1]);
		n--;
	}
	cl->lobby->cluster.nodes = (unsigned)n;
	if (cl->orphans > 0)
		cluster_keep_adopt(cl);
}

static void
cluster_beat_cb(evutil_socket_t fd, short what, void *arg)
{
	struct cluster	*cl = arg;

	(void)fd;
	(void)what;
	/*
	 * One at a time: beats queued in a stalled Redis would all run.  A
	 * new instance beats (and so is counted, offered players, asked)
	 * only once it hears its own channel.
	 */
	if (rlink_subscribed(cl->link) && cl->drain < CLUSTER_DRAIN_DONE &&
	    !cl->beating)
		cluster_beat(cl);
}

/* Every CLUSTER_TICK_MS: asks nobody answered. */
static void
cluster_tick_cb(evutil_socket_t fd, short what, void *arg)
{
	struct cluster		*cl = arg;
	struct cluster_local	*l, *next;
	int64_t			 now = cl->lobby->ops->now();
	int			 any = 0;

	(void)fd;
	(void)what;
	if (cl->drain >= CLUSTER_DRAIN_GIVEN) {
		cluster_drain_tick(cl);
		return;
	}
	for (l = LIST_FIRST(&cl->all_locals); l != NULL; l = next) {
		next = LIST_NEXT(l, all_entry);
		if (l->asking && now >= l->ask_until) {
			cluster_ask_none(cl, l);
			any = 1;
		}
	}
	/* Relayed players whose match nobody took up: their node's gone. */
	for (l = LIST_FIRST(&cl->all_locals); l != NULL; l = next) {
		next = LIST_NEXT(l, all_entry);
		if (l->orphan_until != 0 && now >= l->orphan_until) {
			cluster_seat_lost_owner(cl, l);
			any = 1;
		}
	}
	if (cluster_relay_tick(cl, now))
		any = 1;
	cluster_drain_tick(cl);
	if (!TAILQ_EMPTY(&cl->lobby->touched))
		any = 1;		/* saves waiting to be tried again */
	/* Offers never answered: post again (ids: posting may pair). */
	for (l = LIST_FIRST(&cl->all_locals); l != NULL; l = next) {
		next = LIST_NEXT(l, all_entry);
		if (l->offer_until != 0 && now >= l->offer_until) {
			l->offer_until = 0;
			cluster_queue_repost(cl, l->c);
			any = 1;
			break;		/* the list may have changed: next tick */
		}
	}
	if (any)
		cl->host.flush(cl->host.arg);
}
