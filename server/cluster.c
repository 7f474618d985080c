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
 */
#include <sys/queue.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <event2/buffer.h>
#include <event2/event.h>
#include <hiredis/hiredis.h>

#include "cluster.h"
#include "cmd.h"
#include "conn.h"
#include "keytab.h"
#include "log.h"
#include "match.h"
#include "mix.h"
#include "name.h"
#include "place.h"
#include "rlink.h"
#include "room.h"
#include "session.h"

/* A player connected to another node, seated in a match here. */
struct cluster_remote {
	struct client		 c;		/* first: the ops find it */
	struct cluster		*cl;
	char			 home[CLUSTER_INST_LEN + 1];
	uint64_t		 home_id;	/* its client's id there */
	struct keytab_entry	 entry;		/* cl->remotes */
	struct event		*timer;		/* its clocks, its freeing */
	struct evbuffer		*out;		/* lines not yet published */
	int			 dirty;
	int			 done;		/* closed, handed back or lost:
						   nothing more to its node */
	TAILQ_ENTRY(cluster_remote) dirty_entry;
	TAILQ_ENTRY(cluster_remote) all_entry;
};
TAILQ_HEAD(cluster_remote_list, cluster_remote);

/* A player connected here: posted to the queue, or relayed elsewhere. */
struct cluster_local {
	struct client		*c;
	char			 owner[CLUSTER_INST_LEN + 1]; /* relayed to;
						   "" while posted */
	struct keytab_entry	 entry;		/* cl->locals, by client id */
	int			 asking;	/* its last line went to the
						   other nodes (X), or its NAME
						   to Redis: held */
	int			 naming;	/* ... the NAME */
	int64_t			 ask_until;	/* ms: nobody has it by then */
	struct proto_cmd	 ask;		/* what it asked */
	int64_t			 offer_until;	/* ms: posted, offered a match
						   (O), answered by then or
						   posted again; 0 = none */
	LIST_ENTRY(cluster_local) all_entry;
};
LIST_HEAD(cluster_local_list, cluster_local);

struct cluster {
	struct event_base	*base;
	struct lobby		*lobby;
	struct cluster_host	 host;
	struct rlink		*link;
	char			 node[CLUSTER_NODE_MAX + 1];
	char			 prefix[CLUSTER_PREFIX_MAX + 1];
	char			 inst[CLUSTER_INST_LEN + 1];
	char			 old_inst[CLUSTER_INST_LEN + 1]; /* before the
						   last loss of Redis */
	char			 key_node[CLUSTER_PREFIX_MAX + CLUSTER_NODE_MAX + 8];
	char			 key_nodes[CLUSTER_PREFIX_MAX + 8];
	char			 key_queue[CLUSTER_PREFIX_MAX + 8];
	int			 joined;	/* holds its name in Redis */
	int			 taken_logged;
	struct event		*beat;
	struct event		*tick;		/* asks that time out */
	int			 id_base_set;	/* match ids are the node's */
	char			*games;		/* GAMES: the other nodes' */
	size_t			 games_len;
	struct keytab		 remotes;	/* (home, id) -> remote */
	struct keytab		 locals;	/* client id -> local */
	struct cluster_remote_list all_remotes;
	struct cluster_remote_list dirty;
	struct cluster_local_list all_locals;
	uint64_t		 next_id;	/* remote seats' client ids */
};

static void	cluster_up(void *);
static void	cluster_down(void *);
static void	cluster_message(void *, const char *, size_t);
static void	cluster_beat_cb(evutil_socket_t, short, void *);
static void	cluster_remote_send(struct client *, const char *, size_t);
static void	cluster_remote_close(struct client *);
static void	cluster_remote_rearm(struct client *, int64_t);
static int	cluster_remote_home(struct client *);
static void	cluster_remote_timer_cb(evutil_socket_t, short, void *);
static void	cluster_remote_free(struct cluster_remote *);
static void	cluster_lost_owner(struct cluster *, struct cluster_local *);
static void	cluster_lost_home(struct cluster_remote *);
static void	cluster_forget_dead(struct cluster *, const redisReply *);
static void	cluster_lost_owners(struct cluster *, const redisReply *);
static void	cluster_renew(struct cluster *);
static int	cluster_live(const redisReply *, const char *);
static void	cluster_send_to(struct cluster *, const char *, char,
		    uint64_t, const char *, size_t);
static void	cluster_tick_cb(evutil_socket_t, short, void *);
static void	cluster_games_publish(struct cluster *);
static void	cluster_games_fetch(struct cluster *, const redisReply *);
static void	cluster_ids_claim(struct cluster *);
static void	cluster_ids_from(struct cluster *, uint64_t);
static void	cluster_on_ask(struct cluster *, const char *, uint64_t,
		    const char *, size_t);
static void	cluster_on_answer(struct cluster *, char, const char *,
		    uint64_t);

static const struct rlink_ops cluster_link_ops = {
	cluster_up,
	cluster_down,
	cluster_message
};

static const struct client_ops cluster_remote_ops = {
	cluster_remote_send,
	cluster_remote_close,
	cluster_remote_rearm,
	cluster_remote_home,
	NULL			/* its node holds its lines */
};

/*
 * Renew the node's name (or claim it, if free), note its instance live:
 * the live instances, or -1 if another live node has the name.
 */
static const char cluster_beat_lua[] =
    "local v = redis.call('GET', KEYS[1]) "
    "if v and v ~= ARGV[1] and v ~= ARGV[3] then return -1 end "
    "redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) "
    "local t = redis.call('TIME') "
    "local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) "
    "redis.call('ZADD', KEYS[2], now, ARGV[1]) "
    "redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - tonumber(ARGV[2])) "
    "return redis.call('ZRANGE', KEYS[2], 0, -1)";

/*
 * The oldest player waiting on another live node, taken; or else this
 * node's player queued (ARGV[3]) and nil.  An entry of a dead node (its
 * name no longer its instance's) is dropped on the way.
 */
static const char cluster_pair_lua[] =
    "local q = redis.call('LRANGE', KEYS[1], 0, -1) "
    "for _, e in ipairs(q) do "
    "  local name, inst = string.match(e, '^(%S+) (%S+) ') "
    "  if inst ~= ARGV[2] then "
    "    redis.call('LREM', KEYS[1], 1, e) "
    "    if name and redis.call('GET', ARGV[1] .. 'node:' .. name) == inst "
    "    then return e end "
    "  end "
    "end "
    "redis.call('RPUSH', KEYS[1], ARGV[3]) "
    "return false";

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
cluster_claim_now(struct cluster *cl, const struct cluster_config *cfg)
{
	struct timeval	 tv = { 1, 0 };
	redisContext	*rc;
	redisReply	*r;
	int		 rv = 0;
	char		 ttl[16];

	rc = redisConnectWithTimeout(cfg->redis_ip, cfg->redis_port, tv);
	if (rc == NULL || rc->err) {
		log_warn("redis %s:%d: %s; serving this node's players alone "
		    "until it answers", cfg->redis_ip, cfg->redis_port,
		    rc != NULL ? rc->errstr : "out of memory");
		redisFree(rc);
		return (0);
	}
	redisSetTimeout(rc, tv);
	snprintf(ttl, sizeof ttl, "%d", CLUSTER_NODE_TTL_MS);
	r = redisCommand(rc, "SET %s %s NX PX %s", cl->key_node, cl->inst,
	    ttl);
	if (r != NULL && r->type == REDIS_REPLY_NIL) {
		log_error("node name %s is in use by a live node (Redis %s:%d, "
		    "prefix %s): give each node its own --node", cl->node,
		    cfg->redis_ip, cfg->redis_port, cl->prefix);
		rv = -1;
	} else if (r == NULL || r->type == REDIS_REPLY_ERROR)
		log_warn("redis %s:%d: %s", cfg->redis_ip, cfg->redis_port,
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
	return (rv);
}

struct cluster *
cluster_new(struct event_base *base, struct lobby *lobby,
    const struct cluster_config *cfg, const struct cluster_host *host)
{
	struct cluster		*cl;
	char			 channel[CLUSTER_PREFIX_MAX + 32];
	char			 all[CLUSTER_PREFIX_MAX + 8];
	const char		*channels[] = { channel, all, NULL };
	uint64_t		 r;
	static const struct timeval beat = { CLUSTER_BEAT_MS / 1000,
				    (CLUSTER_BEAT_MS % 1000) * 1000 };
	static const struct timeval tick = { 0, CLUSTER_TICK_MS * 1000 };

	if ((cl = calloc(1, sizeof *cl)) == NULL)
		return (NULL);
	cl->base = base;
	cl->lobby = lobby;
	cl->host = *host;
	snprintf(cl->node, sizeof cl->node, "%s", cfg->node);
	snprintf(cl->prefix, sizeof cl->prefix, "%s", cfg->prefix);
	lobby->ops->random(&r, sizeof r);
	snprintf(cl->inst, sizeof cl->inst, "%016" PRIx64, r);
	snprintf(cl->key_node, sizeof cl->key_node, "%snode:%s", cl->prefix,
	    cl->node);
	snprintf(cl->key_nodes, sizeof cl->key_nodes, "%snodes", cl->prefix);
	snprintf(cl->key_queue, sizeof cl->key_queue, "%squeue", cl->prefix);
	snprintf(channel, sizeof channel, "%sto:%s", cl->prefix, cl->inst);
	snprintf(all, sizeof all, "%sall", cl->prefix);
	TAILQ_INIT(&cl->all_remotes);
	TAILQ_INIT(&cl->dirty);
	LIST_INIT(&cl->all_locals);
	cl->next_id = (uint64_t)1 << 48;
	lobby->cluster.on = 1;
	lobby->cluster.nodes = 1;
	if (cluster_claim_now(cl, cfg) == -1 ||
	    keytab_init(&cl->remotes, 64, r ^ 0x9e3779b97f4a7c15ULL) == -1 ||
	    keytab_init(&cl->locals, 64, r ^ 0x5851f42d4c957f2dULL) == -1 ||
	    (cl->beat = event_new(base, -1, EV_PERSIST, cluster_beat_cb,
	    cl)) == NULL || event_add(cl->beat, &beat) == -1 ||
	    (cl->tick = event_new(base, -1, EV_PERSIST, cluster_tick_cb,
	    cl)) == NULL || event_add(cl->tick, &tick) == -1 ||
	    (cl->link = rlink_new(base, cfg->redis_ip, cfg->redis_port,
	    channels, &cluster_link_ops, cl)) == NULL) {
		cluster_free(cl);
		return (NULL);
	}
	log_info("node %s (instance %s): Redis %s:%d, prefix %s", cl->node,
	    cl->inst, cfg->redis_ip, cfg->redis_port, cl->prefix);
	return (cl);
}

void
cluster_free(struct cluster *cl)
{
	struct cluster_remote	*r;
	struct cluster_local	*l;

	if (cl == NULL)
		return;
	rlink_free(cl->link);
	cl->link = NULL;
	while ((r = TAILQ_FIRST(&cl->all_remotes)) != NULL)
		cluster_remote_free(r);
	while ((l = LIST_FIRST(&cl->all_locals)) != NULL) {
		LIST_REMOVE(l, all_entry);
		free(l);
	}
	if (cl->beat != NULL)
		event_free(cl->beat);
	if (cl->tick != NULL)
		event_free(cl->tick);
	free(cl->games);
	cl->lobby->cluster.games = NULL;
	cl->lobby->cluster.ngames = cl->lobby->cluster.games_more = 0;
	keytab_free(&cl->remotes);
	keytab_free(&cl->locals);
	cl->lobby->cluster.on = 0;
	free(cl);
}

/*
 * The node is stopping: the remote seats here get BYE, as its own players
 * do, and their connections are closed by their nodes.
 */
void
cluster_shutdown(struct cluster *cl)
{
	struct cluster_remote	*r, *next;

	if (cl == NULL)
		return;
	for (r = TAILQ_FIRST(&cl->all_remotes); r != NULL; r = next) {
		next = TAILQ_NEXT(r, all_entry);
		session_shutdown(&r->c);
	}
	cluster_flush(cl);
}

/* ---- messages ---- */

/* Publish on a channel: the type, this node, the id, the rest. */
static void
cluster_send_to(struct cluster *cl, const char *channel, char type,
    uint64_t id, const char *rest, size_t len)
{
	char	head[64];
	char	*msg;
	int	 n;

	if (!rlink_up(cl->link))
		return;
	n = snprintf(head, sizeof head, "%c %s %" PRIu64 "%s", type, cl->inst,
	    id, rest != NULL ? " " : "");
	if (rest == NULL)
		len = 0;
	if ((msg = malloc((size_t)n + len)) == NULL)
		return;
	memcpy(msg, head, (size_t)n);
	if (len > 0)
		memcpy(msg + n, rest, len);
	rlink_publish(cl->link, channel, msg, (size_t)n + len);
	free(msg);
}

/* To a node's own channel. */
static void
cluster_send(struct cluster *cl, const char *inst, char type, uint64_t id,
    const char *rest, size_t len)
{
	char	channel[CLUSTER_PREFIX_MAX + 32];

	snprintf(channel, sizeof channel, "%sto:%s", cl->prefix, inst);
	cluster_send_to(cl, channel, type, id, rest, len);
}

static struct cluster_local *
cluster_local_find(struct cluster *cl, uint64_t id)
{
	return (keytab_find(&cl->locals, id));
}

static struct cluster_local *
cluster_local_add(struct cluster *cl, struct client *c)
{
	struct cluster_local	*l;

	if ((l = cluster_local_find(cl, c->id)) != NULL)
		return (l);
	if ((l = calloc(1, sizeof *l)) == NULL)
		return (NULL);
	l->c = c;
	keytab_add(&cl->locals, &l->entry, c->id, l);
	LIST_INSERT_HEAD(&cl->all_locals, l, all_entry);
	return (l);
}

static void
cluster_local_del(struct cluster *cl, struct cluster_local *l)
{
	keytab_del(&cl->locals, &l->entry);
	LIST_REMOVE(l, all_entry);
	free(l);
}

/* A player's entry in the shared queue. */
static void
cluster_entry(struct cluster *cl, const struct client *c, char *buf,
    size_t len)
{
	snprintf(buf, len, "%s %s %" PRIu64, cl->node, cl->inst, c->id);
}

/* ---- the shared queue ---- */

static void cluster_pair_cb(void *, redisReply *);

/* A script's reply is for this player of this node. */
struct cluster_ask {
	struct cluster	*cl;
	uint64_t	 id;
};

/* A ripe player waits alone here: take one waiting elsewhere, or queue. */
void
cluster_alone(struct cluster *cl, struct client *c)
{
	struct cluster_ask	*ask;
	char			 entry[CLUSTER_NODE_MAX + 64];
	const char		*argv[7];

	if (!cl->joined || !rlink_up(cl->link) ||
	    (ask = malloc(sizeof *ask)) == NULL)
		return;
	ask->cl = cl;
	ask->id = c->id;
	cluster_entry(cl, c, entry, sizeof entry);
	argv[0] = "EVAL";
	argv[1] = cluster_pair_lua;
	argv[2] = "1";
	argv[3] = cl->key_queue;
	argv[4] = cl->prefix;
	argv[5] = cl->inst;
	argv[6] = entry;
	if (rlink_cmd(cl->link, cluster_pair_cb, ask, 7, argv, NULL) == -1) {
		free(ask);
		return;
	}
	c->flags |= CLIENT_POSTED;	/* until it leaves the queue */
	if (cluster_local_add(cl, c) == NULL)
		log_warn("out of memory: client %llu waits on this node only",
		    (unsigned long long)c->id);
}

/*
 * The script's answer: nil, the player is queued for others to take; or
 * an entry of another node: offer that node the match (O), the player
 * waiting here staying POSTED until the answer.
 */
static void
cluster_pair_cb(void *arg, redisReply *r)
{
	struct cluster_ask	*ask = arg;
	struct cluster		*cl = ask->cl;
	struct cluster_local	*l;
	char			 name[CLUSTER_NODE_MAX + 1];
	char			 inst[CLUSTER_INST_LEN + 1], rest[32];
	uint64_t		 id, qid = ask->id;

	free(ask);
	if (r == NULL || r->type != REDIS_REPLY_STRING)
		return;			/* queued, or the link is down */
	if (sscanf(r->str, "%64s %16s %" SCNu64, name, inst, &id) != 3 ||
	    strlen(inst) != CLUSTER_INST_LEN)
		return;
	if ((l = cluster_local_find(cl, qid)) == NULL ||
	    l->c->place != PLACE_QUEUE) {
		/* Ours left meanwhile: the taken player goes on waiting. */
		log_debug("cluster: client %llu left; %s's player waits on",
		    (unsigned long long)qid, name);
		cluster_send(cl, inst, 'N', id, NULL, 0);
		cl->host.flush(cl->host.arg);
		return;
	}
	log_debug("cluster: client %llu offered %s's client %" PRIu64,
	    (unsigned long long)qid, name, id);
	/* An answer lost (its node died): posted again after this. */
	l->offer_until = cl->lobby->ops->now() + CLUSTER_OFFER_MS;
	snprintf(rest, sizeof rest, "%" PRIu64, qid);
	cluster_send(cl, inst, 'O', id, rest, strlen(rest));
	cl->host.flush(cl->host.arg);
}

/* A connection is freed: whatever this node kept of it goes. */
void
cluster_forget(struct cluster *cl, struct client *c)
{
	struct cluster_local	*l = cluster_local_find(cl, c->id);

	if (l != NULL)
		cluster_local_del(cl, l);
}

/* A POSTED player left the queue: out of the shared one too. */
void
cluster_unqueued(struct cluster *cl, struct client *c)
{
	struct cluster_local	*l;
	char			 entry[CLUSTER_NODE_MAX + 64];
	const char		*argv[4];

	if ((l = cluster_local_find(cl, c->id)) != NULL &&
	    l->owner[0] == '\0') {
		l->offer_until = 0;
		if (!l->asking)
			cluster_local_del(cl, l);
	}
	if (!rlink_up(cl->link))
		return;
	cluster_entry(cl, c, entry, sizeof entry);
	argv[0] = "LREM";
	argv[1] = cl->key_queue;
	argv[2] = "0";
	argv[3] = entry;
	(void)rlink_cmd(cl->link, NULL, NULL, 4, argv, NULL);
}

/* Post a player again, if it still waits alone (an offer fell through). */
static void
cluster_repost(struct cluster *cl, struct client *c)
{
	struct cluster_local	*l;

	if (c->place != PLACE_QUEUE || !(c->flags & CLIENT_POSTED))
		return;
	c->flags &= ~CLIENT_POSTED;
	if ((l = cluster_local_find(cl, c->id)) != NULL) {
		l->offer_until = 0;
		if (!l->asking)
			cluster_local_del(cl, l);
	}
	if (cl->lobby->nqueued == 1 && TAILQ_FIRST(&cl->lobby->queue) == c)
		cluster_alone(cl, c);
}

/* ---- remote seats: players of another node, in a match here ---- */

static uint64_t
cluster_remote_key(const char *home, uint64_t id)
{
	return (mix64(strtoull(home, NULL, 16) ^ mix64(id)));
}

static struct cluster_remote *
cluster_remote_find(struct cluster *cl, const char *home, uint64_t id)
{
	struct cluster_remote	*r;

	r = keytab_find(&cl->remotes, cluster_remote_key(home, id));
	if (r == NULL || r->home_id != id || strcmp(r->home, home) != 0)
		return (NULL);
	return (r);
}

/* A seat here for a player of node home (its client id, name, address). */
static struct cluster_remote *
cluster_remote_new(struct cluster *cl, const char *home, uint64_t id,
    const char *addr, const char *name)
{
	struct cluster_remote	*r;
	struct lobby		*lobby = cl->lobby;

	if ((r = calloc(1, sizeof *r)) == NULL)
		return (NULL);
	if ((r->timer = evtimer_new(cl->base, cluster_remote_timer_cb, r)) ==
	    NULL || (r->out = evbuffer_new()) == NULL) {
		if (r->timer != NULL)
			event_free(r->timer);
		free(r);
		return (NULL);
	}
	r->cl = cl;
	snprintf(r->home, sizeof r->home, "%s", home);
	r->home_id = id;
	r->c.id = cl->next_id++;
	r->c.ops = &cluster_remote_ops;
	r->c.lobby = lobby;
	r->c.stats = &lobby->stats;
	r->c.flags = CLIENT_REMOTE;
	r->c.lines = 1;			/* its first line was checked there */
	snprintf(r->c.addr, sizeof r->c.addr, "%s", addr);
	ratelimit_init(&r->c.rate, lobby->limits.burst, lobby->ops->now());
	r->c.abuse = r->c.rate;
	if (name[0] != '\0') {
		if (name_allowed(lobby, &r->c, name))
			name_take(&r->c, name);
		else
			snprintf(r->c.name, sizeof r->c.name, "%s", name);
	}
	keytab_add(&cl->remotes, &r->entry, cluster_remote_key(home, id), r);
	TAILQ_INSERT_TAIL(&cl->all_remotes, r, all_entry);
	return (r);
}

/* Nothing more reaches it; it is freed once the callback returns. */
static void
cluster_remote_done(struct cluster_remote *r)
{
	static const struct timeval now_tv = { 0, 0 };

	r->done = 1;
	r->c.flags |= CLIENT_CLOSING;
	keytab_del(&r->cl->remotes, &r->entry);
	evtimer_add(r->timer, &now_tv);
}

static void
cluster_remote_free(struct cluster_remote *r)
{
	struct cluster	*cl = r->cl;

	if (r->c.place != PLACE_GONE)
		place_detach(&r->c, PROTO_LEAVE_DROP, 0);
	free(r->c.chat);
	keytab_del(&cl->remotes, &r->entry);
	if (r->dirty)
		TAILQ_REMOVE(&cl->dirty, r, dirty_entry);
	TAILQ_REMOVE(&cl->all_remotes, r, all_entry);
	event_free(r->timer);
	evbuffer_free(r->out);
	free(r);
}

/* Its send op: kept until the end of the callback, then one message. */
static void
cluster_remote_send(struct client *c, const char *buf, size_t len)
{
	struct cluster_remote	*r = (struct cluster_remote *)c;

	if (r->done)
		return;
	evbuffer_add(r->out, buf, len);
	if (!r->dirty) {
		r->dirty = 1;
		TAILQ_INSERT_TAIL(&r->cl->dirty, r, dirty_entry);
	}
}

/* Publish one remote seat's lines: to its node, for its connection. */
static void
cluster_remote_flush(struct cluster_remote *r)
{
	struct cluster	*cl = r->cl;
	size_t		 len = evbuffer_get_length(r->out);

	if (r->dirty) {
		r->dirty = 0;
		TAILQ_REMOVE(&cl->dirty, r, dirty_entry);
	}
	if (len == 0)
		return;
	cluster_send(cl, r->home, 'L', r->home_id,
	    (const char *)evbuffer_pullup(r->out, -1), len);
	evbuffer_drain(r->out, len);
}

/* The end of a callback: publish what the remote seats were sent. */
void
cluster_flush(struct cluster *cl)
{
	struct cluster_remote	*r;

	if (cl == NULL)
		return;
	while ((r = TAILQ_FIRST(&cl->dirty)) != NULL)
		cluster_remote_flush(r);
}

/* Its close op: its node closes the connection after the lines sent. */
static void
cluster_remote_close(struct client *c)
{
	struct cluster_remote	*r = (struct cluster_remote *)c;

	if (r->done)
		return;
	cluster_remote_flush(r);
	cluster_send(r->cl, r->home, 'C', r->home_id, NULL, 0);
	cluster_remote_done(r);
}

/* Its home op: back to its node, which queues it (and says WAIT). */
static int
cluster_remote_home(struct client *c)
{
	struct cluster_remote	*r = (struct cluster_remote *)c;

	cluster_remote_flush(r);
	cluster_send(r->cl, r->home, 'H', r->home_id, c->name,
	    strlen(c->name));
	place_detach(c, PROTO_LEAVE_QUIT, 0);
	cluster_remote_done(r);
	return (1);
}

static void
cluster_remote_rearm(struct client *c, int64_t at)
{
	struct cluster_remote	*r = (struct cluster_remote *)c;
	int64_t			 ms;
	struct timeval		 tv;

	if (c->flags & CLIENT_CLOSING)
		return;		/* the timer frees it now */
	if (at == 0) {
		evtimer_del(r->timer);
		return;
	}
	ms = at - c->lobby->ops->now();
	if (ms < 0)
		ms = 0;
	tv.tv_sec = (time_t)(ms / 1000);
	tv.tv_usec = (suseconds_t)(ms % 1000) * 1000;
	evtimer_add(r->timer, &tv);
}

static void
cluster_remote_timer_cb(evutil_socket_t fd, short what, void *arg)
{
	struct cluster_remote	*r = arg;
	struct cluster		*cl = r->cl;

	(void)fd;
	(void)what;
	if (r->c.flags & CLIENT_CLOSING) {
		cluster_remote_free(r);
		cl->host.flush(cl->host.arg);
		return;
	}
	conn_timer(&r->c);
	cluster_remote_rearm(&r->c, client_deadline(&r->c));
	cl->host.flush(cl->host.arg);
}

/* ---- this node's players in another node's match ---- */

/* A checked line of a relayed player: to its match's node. */
void
cluster_relay(struct cluster *cl, struct client *c, const char *line,
    size_t len)
{
	struct cluster_local	*l = cluster_local_find(cl, c->id);

	if (l == NULL || l->owner[0] == '\0')
		return;
	if (len > 0 && line[len - 1] == '\r')
		len--;
	cluster_send(cl, l->owner, 'I', c->id, line, len);
}

/* A refusal for a relayed player: from its match's node, in turn (E). */
void
cluster_relay_error(struct cluster *cl, struct client *c,
    enum proto_error err)
{
	struct cluster_local	*l = cluster_local_find(cl, c->id);
	char			 rest[16];

	if (l == NULL || l->owner[0] == '\0')
		return;
	snprintf(rest, sizeof rest, "%d", (int)err);
	cluster_send(cl, l->owner, 'E', c->id, rest, strlen(rest));
}

/* A relayed player leaves: its match's node holds its seat, or frees it. */
void
cluster_relay_end(struct cluster *cl, struct client *c,
    enum proto_leave why, int hold)
{
	struct cluster_local	*l = cluster_local_find(cl, c->id);
	char			 rest[16];

	if (l == NULL)
		return;
	snprintf(rest, sizeof rest, "%d %d", (int)why, hold);
	if (l->owner[0] != '\0')
		cluster_send(cl, l->owner, 'D', c->id, rest, strlen(rest));
	cluster_local_del(cl, l);
}

/* A relayed player back from its match's node: a place here again. */
static void
cluster_relay_back(struct cluster *cl, struct cluster_local *l)
{
	struct client	*c = l->c;

	cluster_local_del(cl, l);
	if (c->place == PLACE_RELAY)
		place_set(c, PLACE_NONE);
}

/* ---- messages from other nodes ---- */

/* O: a node offers this node's waiting player id a match against qid. */
static void
cluster_on_offer(struct cluster *cl, const char *from, uint64_t id,
    const char *rest)
{
	struct cluster_local	*l = cluster_local_find(cl, id);
	struct client		*c;
	char			 more[CLUSTER_INST_LEN + PROTO_NAME_MAX + 96];
	uint64_t		 qid = strtoull(rest, NULL, 10);
	char			 qs[24];

	snprintf(qs, sizeof qs, "%" PRIu64, qid);
	if (l == NULL || l->owner[0] != '\0' || l->asking || (c = l->c)->place
	    != PLACE_QUEUE || (c->flags & CLIENT_CLOSING)) {
		cluster_send(cl, from, 'N', qid, NULL, 0);
		return;
	}
	c->flags &= ~CLIENT_POSTED;	/* taken from the shared queue */
	lobby_leave(cl->lobby, c);
	place_set(c, PLACE_RELAY);
	snprintf(l->owner, sizeof l->owner, "%s", from);
	snprintf(more, sizeof more, "%" PRIu64 " %s %s", c->id, c->addr,
	    c->name);
	log_info("client %llu: to a match on instance %s",
	    (unsigned long long)c->id, from);
	cluster_send(cl, from, 'S', qid, more, strlen(more));
}

/* S: the offer taken: seat its player here against this node's id. */
static void
cluster_on_seat(struct cluster *cl, const char *from, uint64_t id,
    const char *rest)
{
	struct cluster_local	*l = cluster_local_find(cl, id);
	struct cluster_remote	*r;
	struct client		*c;
	char			 addr[64], name[PROTO_NAME_MAX + 1];
	uint64_t		 wid;
	int			 n = 0;

	name[0] = '\0';
	if (sscanf(rest, "%" SCNu64 " %63s %n", &wid, addr, &n) < 2)
		return;
	if (n > 0)
		snprintf(name, sizeof name, "%s", rest + n);
	if (l == NULL || l->owner[0] != '\0' || l->asking || (c = l->c)->place
	    != PLACE_QUEUE || (c->flags & CLIENT_CLOSING) ||
	    (r = cluster_remote_new(cl, from, wid, addr, name)) == NULL) {
		cluster_send(cl, from, 'B', wid, NULL, 0);
		return;
	}
	c->flags &= ~CLIENT_POSTED;
	cluster_local_del(cl, l);
	lobby_leave(cl->lobby, c);
	/* The one who waited longer is p1, as in the queue. */
	match_new(cl->lobby, &r->c, c);
}

/* N: this node's player id was not matched after all: post it again. */
static void
cluster_on_nope(struct cluster *cl, uint64_t id)
{
	struct cluster_local	*l = cluster_local_find(cl, id);

	if (l != NULL && l->owner[0] == '\0')
		cluster_repost(cl, l->c);
}

/* B: handed over, but the opponent there was gone: wait here again. */
static void
cluster_on_back(struct cluster *cl, const char *from, uint64_t id)
{
	struct cluster_local	*l = cluster_local_find(cl, id);
	struct client		*c;

	if (l == NULL || strcmp(l->owner, from) != 0)
		return;
	c = l->c;
	cluster_relay_back(cl, l);
	lobby_join_again(cl->lobby, c);
}

/*
 * Lines from the match's node, as they came: one client_send a line (a
 * message holds a callback's worth, more than one send may take).
 */
static void
cluster_lines(struct client *c, const char *p, size_t len)
{
	const char	*lf;
	size_t		 n;

	while (len > 0) {
		lf = memchr(p, '\n', len);
		n = lf != NULL ? (size_t)(lf - p) + 1 : len;
		if (n < PROTO_OUT_MAX)
			client_send(c, p, (int)n);
		p += n;
		len -= n;
	}
}

/* L, C, H, M: from a relayed player's match's node. */
static void
cluster_on_owner(struct cluster *cl, char type, const char *from,
    uint64_t id, const char *rest, size_t len)
{
	struct cluster_local	*l = cluster_local_find(cl, id);
	struct client		*c;

	/* Asking, it may hear from the node that has what it asked for. */
	if (l == NULL || (strcmp(l->owner, from) != 0 &&
	    !(l->asking && !l->naming && type != 'H' && type != 'M')))
		return;
	c = l->c;
	if (l->asking && type == 'C') {
		l->asking = 0;		/* and closed: its lines wait no more */
		c->flags &= ~CLIENT_HELD;
	}
	switch (type) {
	case 'L':
		cluster_lines(c, rest, len);
		break;
	case 'C':
		cluster_relay_back(cl, l);
		place_detach(c, PROTO_LEAVE_QUIT, 0);
		client_close(c);
		break;
	case 'M':
		/* Renamed there: the name here too, if it is free here. */
		if (len > 0 && len <= PROTO_NAME_MAX) {
			char	name[PROTO_NAME_MAX + 1];

			memcpy(name, rest, len);
			name[len] = '\0';
			if (strcmp(name, c->name) != 0 &&
			    name_allowed(cl->lobby, c, name))
				name_take(c, name);
		}
		break;
	case 'H':
		cluster_relay_back(cl, l);
		/* Renamed there: the name here too, if it is free here. */
		if (len <= PROTO_NAME_MAX && (len != strlen(c->name) ||
		    memcmp(c->name, rest, len) != 0)) {
			char	name[PROTO_NAME_MAX + 1];

			memcpy(name, rest, len);
			name[len] = '\0';
			if (name_allowed(cl->lobby, c, name))
				name_take(c, name);
		}
		lobby_join(cl->lobby, c);
		break;
	}
}

/* I, E, D: from the node of a remote seat here. */
static void
cluster_on_home(struct cluster *cl, char type, const char *from,
    uint64_t id, const char *rest, size_t len)
{
	struct cluster_remote	*r = cluster_remote_find(cl, from, id);
	int			 why = 0, hold = 0, err;
	char			 buf[PROTO_OUT_MAX];

	if (r == NULL || r->done)
		return;
	if (type == 'I') {
		session_line(&r->c, rest, len);
		return;
	}
	if (type == 'E') {
		err = (int)strtol(rest, NULL, 10);
		if (err > PROTO_OK && err < PROTO_NERRORS)
			client_send(&r->c, buf, proto_fmt_error(buf,
			    sizeof buf, (enum proto_error)err));
		return;
	}
	if (sscanf(rest, "%d %d", &why, &hold) != 2 || why < 0 ||
	    why > PROTO_LEAVE_TIMEOUT)
		why = PROTO_LEAVE_DROP;
	log_info("client %llu: %s left on its node", (unsigned long long)
	    r->c.id, r->c.addr);
	r->done = 1;			/* nothing more reaches it */
	place_detach(&r->c, (enum proto_leave)why, hold);
	cluster_remote_done(r);
}

/* One message on this node's channel. */
static void
cluster_message(void *arg, const char *msg, size_t len)
{
	struct cluster	*cl = arg;
	char		 from[CLUSTER_INST_LEN + 1], buf[CLUSTER_MSG_MAX + 1];
	const char	*rest;
	char		 type, *end;
	uint64_t	 id;

	if (len < 2 + CLUSTER_INST_LEN + 2 || len > CLUSTER_MSG_MAX ||
	    msg[1] != ' ' || msg[2 + CLUSTER_INST_LEN] != ' ')
		return;
	memcpy(buf, msg, len);
	buf[len] = '\0';
	type = buf[0];
	memcpy(from, buf + 2, CLUSTER_INST_LEN);
	from[CLUSTER_INST_LEN] = '\0';
	id = strtoull(buf + 3 + CLUSTER_INST_LEN, &end, 10);
	if (*end == ' ')
		end++;
	else if (*end != '\0')
		return;
	rest = end;
	len -= (size_t)(rest - buf);
	switch (type) {
	case 'O':
		cluster_on_offer(cl, from, id, rest);
		break;
	case 'S':
		cluster_on_seat(cl, from, id, rest);
		break;
	case 'N':
		cluster_on_nope(cl, id);
		break;
	case 'B':
		cluster_on_back(cl, from, id);
		break;
	case 'L':
	case 'C':
	case 'H':
	case 'M':
		cluster_on_owner(cl, type, from, id, rest, len);
		break;
	case 'I':
	case 'E':
	case 'D':
		cluster_on_home(cl, type, from, id, rest, len);
		break;
	case 'X':
		cluster_on_ask(cl, from, id, rest, len);
		break;
	case 'A':
	case 'R':
		cluster_on_answer(cl, type, from, id);
		break;
	}
	cl->host.flush(cl->host.arg);
}

/* ---- the link ---- */

static void cluster_beat(struct cluster *);

/*
 * The relayed players whose match's node is not live (NULL: none is)
 * lose it.  Their ids first: queueing one may pair it, and free entries
 * of the list.
 */
static void
cluster_lost_owners(struct cluster *cl, const redisReply *live)
{
	struct cluster_local	*l;
	uint64_t		*ids;
	size_t			 n = 0, i;

	LIST_FOREACH(l, &cl->all_locals, all_entry)
		n++;
	if (n == 0 || (ids = calloc(n, sizeof *ids)) == NULL)
		return;
	n = 0;
	LIST_FOREACH(l, &cl->all_locals, all_entry) {
		if (l->owner[0] != '\0' && (live == NULL ||
		    !cluster_live(live, l->owner)))
			ids[n++] = l->c->id;
	}
	for (i = 0; i < n; i++) {
		if ((l = cluster_local_find(cl, ids[i])) != NULL &&
		    l->owner[0] != '\0')
			cluster_lost_owner(cl, l);
	}
	free(ids);
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

/* A relayed player's match is out of reach: told, and queued here. */
static void
cluster_lost_owner(struct cluster *cl, struct cluster_local *l)
{
	struct client	*c = l->c;
	char		 buf[PROTO_OUT_MAX];

	log_warn("client %llu: its match's node %s is out of reach",
	    (unsigned long long)c->id, l->owner);
	cluster_relay_back(cl, l);
	client_send(c, buf, proto_fmt_info(buf, sizeof buf,
	    "Lost touch with your match's server."));
	lobby_join(cl->lobby, c);
}

/* A remote seat's node is out of reach: a lost connection. */
static void
cluster_lost_home(struct cluster_remote *r)
{
	log_warn("client %llu: %s's node %s is out of reach",
	    (unsigned long long)r->c.id, r->c.addr, r->home);
	r->done = 1;
	place_detach(&r->c, PROTO_LEAVE_DROP, 1);
	cluster_remote_done(r);
}

static void
cluster_up(void *arg)
{
	struct cluster	*cl = arg;

	cl->lobby->cluster.connected = 1;
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
	struct cluster		*cl = arg;
	struct cluster_local	*l, *next;
	struct cluster_remote	*r, *rnext;
	struct client		*c;

	cl->lobby->cluster.connected = 0;
	cl->lobby->cluster.nodes = 1;
	cl->joined = 0;
	/* Posted players wait here alone (an open ask ends by its clock). */
	for (l = LIST_FIRST(&cl->all_locals); l != NULL; l = next) {
		next = LIST_NEXT(l, all_entry);
		c = l->c;
		if (l->owner[0] == '\0') {
			c->flags &= ~CLIENT_POSTED;
			l->offer_until = 0;
			if (!l->asking)
				cluster_local_del(cl, l);
		}
	}
	cluster_lost_owners(cl, NULL);
	cluster_renew(cl);
	for (r = TAILQ_FIRST(&cl->all_remotes); r != NULL; r = rnext) {
		rnext = TAILQ_NEXT(r, all_entry);
		if (!r->done)
			cluster_lost_home(r);
	}
	cl->host.flush(cl->host.arg);
}

static void cluster_beat_reply(void *, redisReply *);

static int
cluster_live(const redisReply *r, const char *inst)
{
	size_t	i;

	for (i = 0; i < r->elements; i++) {
		if (r->element[i]->type == REDIS_REPLY_STRING &&
		    strcmp(r->element[i]->str, inst) == 0)
			return (1);
	}
	return (0);
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

	cluster_lost_owners(cl, live);
	for (r = TAILQ_FIRST(&cl->all_remotes); r != NULL; r = rnext) {
		rnext = TAILQ_NEXT(r, all_entry);
		if (!r->done && !cluster_live(live, r->home))
			cluster_lost_home(r);
	}
}

/* Renew the name and count the nodes. */
static void
cluster_beat(struct cluster *cl)
{
	char		 ttl[16];
	const char	*argv[8];

	snprintf(ttl, sizeof ttl, "%d", CLUSTER_NODE_TTL_MS);
	argv[0] = "EVAL";
	argv[1] = cluster_beat_lua;
	argv[2] = "2";
	argv[3] = cl->key_node;
	argv[4] = cl->key_nodes;
	argv[5] = cl->inst;
	argv[6] = ttl;
	argv[7] = cl->old_inst[0] != '\0' ? cl->old_inst : cl->inst;
	(void)rlink_cmd(cl->link, cluster_beat_reply, cl, 8, argv, NULL);
}

static void
cluster_beat_reply(void *arg, redisReply *r)
{
	struct cluster	*cl = arg;
	struct lobby	*lobby = cl->lobby;
	int		 was = cl->joined;

	if (r == NULL)
		return;
	if (r->type != REDIS_REPLY_INTEGER && r->type != REDIS_REPLY_ARRAY) {
		log_warn("node %s: Redis says %s", cl->node,
		    r->type == REDIS_REPLY_ERROR ? r->str : "something odd");
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
	lobby->cluster.nodes = (unsigned)r->elements;
	cluster_forget_dead(cl, r);
	cluster_games_publish(cl);
	cluster_games_fetch(cl, r);
	if (!cl->id_base_set)
		cluster_ids_claim(cl);
	if (!was) {
		log_info("node %s: in the cluster (%u nodes)", cl->node,
		    lobby->cluster.nodes);
		/* A player waiting alone meanwhile: others may take it. */
		if (lobby->nqueued == 1 &&
		    !(TAILQ_FIRST(&lobby->queue)->flags & CLIENT_POSTED))
			cluster_alone(cl, TAILQ_FIRST(&lobby->queue));
	}
	cl->host.flush(cl->host.arg);
}

static void
cluster_beat_cb(evutil_socket_t fd, short what, void *arg)
{
	struct cluster	*cl = arg;

	(void)fd;
	(void)what;
	if (rlink_up(cl->link))
		cluster_beat(cl);
}

/* ---- asking the other nodes: RESUME, ROOM JOIN, WATCH ---- */

/*
 * Nothing here for this RESUME, ROOM JOIN or WATCH: send the line to every
 * node (X); the one that has the seat, room or match takes the player (a
 * remote seat there: A), or refuses as it would (its ERR, then R); nobody
 * answering within CLUSTER_ASK_MS means there is none.  The player's next
 * lines wait meanwhile (the hold op).  1 if asked.
 */
int
cluster_elsewhere(struct cluster *cl, struct client *c,
    const struct proto_cmd *cmd)
{
	struct cluster_local	*l;
	char			 msg[256], all[CLUSTER_PREFIX_MAX + 8];
	int			 n;

	if (!cl->joined || !rlink_up(cl->link) ||
	    (c->place != PLACE_QUEUE && c->place != PLACE_NONE &&
	    c->place != PLACE_WATCH && c->place != PLACE_MATCH) ||
	    (l = cluster_local_add(cl, c)) == NULL || l->owner[0] != '\0' ||
	    l->asking)
		return (0);
	switch (cmd->verb) {
	case PROTO_RESUME:
		n = snprintf(msg, sizeof msg, "%s %s\tRESUME %s", c->addr,
		    c->name, cmd->code);
		break;
	case PROTO_ROOM:
		n = snprintf(msg, sizeof msg, "%s %s\tROOM JOIN %s", c->addr,
		    c->name, cmd->code);
		break;
	case PROTO_WATCH:
		n = snprintf(msg, sizeof msg, "%s %s\tWATCH %llu", c->addr,
		    c->name, cmd->game);
		break;
	default:
		n = -1;
		break;
	}
	if (n < 0 || (size_t)n >= sizeof msg) {
		if (!(c->flags & CLIENT_POSTED))
			cluster_local_del(cl, l);
		return (0);
	}
	l->asking = 1;
	l->ask = *cmd;
	l->ask.text = NULL;
	l->ask_until = cl->lobby->ops->now() + CLUSTER_ASK_MS;
	c->ops->hold(c, 1);
	snprintf(all, sizeof all, "%sall", cl->prefix);
	cluster_send_to(cl, all, 'X', c->id, msg, (size_t)n);
	return (1);
}

/* The ask is over: the player's next lines go on. */
static void
cluster_ask_done(struct cluster *cl, struct cluster_local *l)
{
	struct client	*c = l->c;

	l->asking = l->naming = 0;
	if (l->owner[0] == '\0' && !(c->flags & CLIENT_POSTED))
		cluster_local_del(cl, l);
	if (c->flags & CLIENT_HELD)
		c->ops->hold(c, 0);
}

/* Nobody had it: the answer one node gives, and the wrong guess counted. */
static void
cluster_ask_none(struct cluster *cl, struct cluster_local *l)
{
	struct client		*c = l->c;
	struct lobby		*lobby = cl->lobby;
	enum proto_error	 err = PROTO_ENO_SUCH_GAME;
	char			 buf[PROTO_OUT_MAX];

	if (l->ask.verb == PROTO_RESUME) {
		lobby_guess_failed(lobby, LOBBY_TOKENS, c);
		err = PROTO_EBAD_TOKEN;
	} else if (l->ask.verb == PROTO_ROOM) {
		lobby_guess_failed(lobby, LOBBY_ROOMS, c);
		err = PROTO_ENO_ROOM;
	}
	client_send(c, buf, proto_fmt_error(buf, sizeof buf, err));
	cluster_ask_done(cl, l);
}

/* X: another node's player asks for what may be here. */
static void
cluster_on_ask(struct cluster *cl, const char *from, uint64_t id,
    const char *rest, size_t len)
{
	struct lobby		*lobby = cl->lobby;
	struct cluster_remote	*r;
	struct proto_cmd	 cmd;
	struct match		*m;
	const char		*tab, *line;
	char			 addr[64], name[PROTO_NAME_MAX + 1];
	size_t			 n;
	int			 here = 0;

	if (strcmp(from, cl->inst) == 0 ||
	    (tab = memchr(rest, '\t', len)) == NULL ||
	    sscanf(rest, "%63s", addr) != 1)
		return;
	line = tab + 1;
	n = len - (size_t)(line - rest);
	if (proto_parse(line, n, &cmd) != PROTO_OK)
		return;
	switch (cmd.verb) {
	case PROTO_RESUME:
		here = resume_find(lobby, cmd.code, &m) != -1;
		break;
	case PROTO_ROOM:
		here = cmd.join && room_find(lobby, cmd.code) != NULL;
		break;
	case PROTO_WATCH:
		here = (m = keytab_find(&lobby->ids, cmd.game)) != NULL &&
		    match_live(m);
		break;
	default:
		break;
	}
	if (!here)
		return;
	name[0] = '\0';
	rest += strlen(addr) + 1;
	if (rest < tab && (size_t)(tab - rest) <= PROTO_NAME_MAX) {
		memcpy(name, rest, (size_t)(tab - rest));
		name[tab - rest] = '\0';
	}
	if ((r = cluster_remote_find(cl, from, id)) != NULL ||
	    (r = cluster_remote_new(cl, from, id, addr, name)) == NULL)
		return;
	log_info("client %llu: %s's player from instance %s: %.*s",
	    (unsigned long long)r->c.id, addr, from, (int)n, line);
	session_line(&r->c, line, n);
	cluster_remote_flush(r);
	if (r->done)
		return;			/* closed (its node is told) */
	if (r->c.place == PLACE_MATCH || r->c.place == PLACE_ROOM ||
	    r->c.place == PLACE_WATCH) {
		cluster_send(cl, from, 'A', id, NULL, 0);
		return;
	}
	cluster_send(cl, from, 'R', id, NULL, 0);
	cluster_remote_done(r);
}

/* A, R: the node that had it took the player, or refused. */
static void
cluster_on_answer(struct cluster *cl, char type, const char *from,
    uint64_t id)
{
	struct cluster_local	*l = cluster_local_find(cl, id);
	struct client		*c;
	char			 rest[16];

	snprintf(rest, sizeof rest, "%d %d", (int)PROTO_LEAVE_DROP, 1);
	if (l == NULL || !l->asking || l->naming) {
		/* Too late (nobody, it said), or gone: its seat there is lost. */
		if (type == 'A')
			cluster_send(cl, from, 'D', id, rest, strlen(rest));
		return;
	}
	c = l->c;
	if (type == 'R') {
		cluster_ask_done(cl, l);
		return;
	}
	/* Its place here left as for any switch (cmd_switch), and relayed. */
	snprintf(l->owner, sizeof l->owner, "%s", from);
	place_leave(c, PROTO_LEAVE_QUIT, 0);
	if (c->place != PLACE_NONE) {
		cluster_send(cl, from, 'D', id, rest, strlen(rest));
		l->owner[0] = '\0';
		cluster_ask_done(cl, l);
		return;
	}
	place_set(c, PLACE_RELAY);
	log_info("client %llu: to instance %s", (unsigned long long)c->id,
	    from);
	cluster_ask_done(cl, l);
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
	for (l = LIST_FIRST(&cl->all_locals); l != NULL; l = next) {
		next = LIST_NEXT(l, all_entry);
		if (l->asking && now >= l->ask_until) {
			cluster_ask_none(cl, l);
			any = 1;
		}
	}
	/* Offers never answered: post again (ids: posting may pair). */
	for (l = LIST_FIRST(&cl->all_locals); l != NULL; l = next) {
		next = LIST_NEXT(l, all_entry);
		if (l->offer_until != 0 && now >= l->offer_until) {
			l->offer_until = 0;
			cluster_repost(cl, l->c);
			any = 1;
			break;		/* the list may have changed: next tick */
		}
	}
	if (any)
		cl->host.flush(cl->host.arg);
}

/* ---- GAMES: every node's matches ---- */

/* This node's live matches, for the others: "<n>\n" and a line each. */
static void
cluster_games_publish(struct cluster *cl)
{
	struct lobby	*lobby = cl->lobby;
	struct match	*m;
	char		 key[CLUSTER_PREFIX_MAX + 32], ttl[16];
	char		*buf;
	size_t		 size = 32 + LOBBY_GAMES_MAX * (48 + 2 * 33), len;
	const char	*argv[5];
	size_t		 lens[5];
	unsigned	 n = 0;

	if ((buf = malloc(size)) == NULL)
		return;
	len = (size_t)snprintf(buf, size, "%u\n", lobby->nlive);
	TAILQ_FOREACH(m, &lobby->live, live_entry) {
		if (n++ == LOBBY_GAMES_MAX)
			break;
		len += (size_t)snprintf(buf + len, size - len,
		    "%llu %s %s %d %d\n", (unsigned long long)m->id,
		    match_name(m, 0), match_name(m, 1),
		    ttt_board_moves(&m->board), (m->seat[0].away != NULL) |
		    (m->seat[1].away != NULL) << 1);
		if (len >= size)
			break;
	}
	snprintf(key, sizeof key, "%sgames:%s", cl->prefix, cl->inst);
	snprintf(ttl, sizeof ttl, "%d", CLUSTER_NODE_TTL_MS);
	argv[0] = "SET"; lens[0] = 3;
	argv[1] = key; lens[1] = strlen(key);
	argv[2] = buf; lens[2] = len < size ? len : size - 1;
	argv[3] = "PX"; lens[3] = 2;
	argv[4] = ttl; lens[4] = strlen(ttl);
	(void)rlink_cmd(cl->link, NULL, NULL, 5, argv, lens);
	free(buf);
}

static void cluster_games_reply(void *, redisReply *);

/* The other live nodes' lists (MGET). */
static void
cluster_games_fetch(struct cluster *cl, const redisReply *live)
{
	const char	*argv[1 + 64];
	char		 keys[64][CLUSTER_PREFIX_MAX + 32];
	size_t		 i;
	int		 n = 0;

	argv[n++] = "MGET";
	for (i = 0; i < live->elements && n < 1 + 64; i++) {
		if (live->element[i]->type != REDIS_REPLY_STRING ||
		    strcmp(live->element[i]->str, cl->inst) == 0)
			continue;
		snprintf(keys[n - 1], sizeof keys[n - 1], "%sgames:%s",
		    cl->prefix, live->element[i]->str);
		argv[n] = keys[n - 1];
		n++;
	}
	if (n == 1) {
		cluster_games_reply(cl, NULL);
		return;
	}
	(void)rlink_cmd(cl->link, cluster_games_reply, cl, n, argv, NULL);
}

/* Their lists, as GAME lines ready to send: at most LOBBY_GAMES_MAX. */
static void
cluster_games_reply(void *arg, redisReply *r)
{
	struct cluster	*cl = arg;
	struct lobby	*lobby = cl->lobby;
	char		*buf = NULL, x[PROTO_NAME_MAX * 4 + 1];
	char		 o[PROTO_NAME_MAX * 4 + 1], line[PROTO_OUT_MAX];
	const char	*p, *lf;
	size_t		 i, len = 0, size = LOBBY_GAMES_MAX * PROTO_OUT_MAX;
	unsigned	 lines = 0, more = 0, count;
	unsigned long long id;
	int		 moves, away, k;

	if (r != NULL && r->type == REDIS_REPLY_ARRAY &&
	    (buf = malloc(size)) != NULL) {
		for (i = 0; i < r->elements; i++) {
			if (r->element[i]->type != REDIS_REPLY_STRING ||
			    sscanf(r->element[i]->str, "%u", &count) != 1)
				continue;
			p = strchr(r->element[i]->str, '\n');
			while (p != NULL && (lf = strchr(p + 1, '\n')) !=
			    NULL && lines < LOBBY_GAMES_MAX && count > 0) {
				if (sscanf(p + 1, "%llu %64s %64s %d %d", &id,
				    x, o, &moves, &away) == 5 &&
				    (k = proto_fmt_game(line, sizeof line, id, x,
				    o, moves, away)) > 0 &&
				    len + (size_t)k <= size) {
					memcpy(buf + len, line, (size_t)k);
					len += (size_t)k;
					lines++;
					count--;
				}
				p = lf;
			}
			more += count;
		}
	}
	free(cl->games);
	cl->games = buf;
	cl->games_len = len;
	lobby->cluster.games = buf;
	lobby->cluster.games_len = len;
	lobby->cluster.ngames = lines;
	lobby->cluster.games_more = more;
}

/* ---- names: one player a name in the whole cluster ---- */

/*
 * Take a name for a player ("<instance> <client id>") unless a player of
 * a live node has it: 1, or 0.
 */
static const char cluster_name_lua[] =
    "local v = redis.call('GET', KEYS[1]) "
    "if v and v ~= ARGV[1] then "
    "  local inst = string.match(v, '^(%S+) ') "
    "  if inst and redis.call('ZSCORE', KEYS[2], inst) then return 0 end "
    "end "
    "redis.call('SET', KEYS[1], ARGV[1]) "
    "return 1";

/* Give a name back, if it is still the player's. */
static const char cluster_unname_lua[] =
    "if redis.call('GET', KEYS[1]) == ARGV[1] then "
    "  redis.call('DEL', KEYS[1]) end "
    "return 1";

/* A name's key and its holder's value, for this node's client. */
static void
cluster_name_args(struct cluster *cl, const struct client *c,
    const char *name, char *key, size_t keylen, char *val, size_t vallen)
{
	char	folded[NAME_FOLD_MAX];
	size_t	n = name_folded(name, folded);

	snprintf(key, keylen, "%sname:%.*s", cl->prefix, (int)n, folded);
	snprintf(val, vallen, "%s %llu", cl->inst, (unsigned long long)c->id);
}

/* What a NAME check's reply is for. */
struct cluster_naming {
	struct cluster	*cl;
	uint64_t	 id;
	char		 name[PROTO_NAME_MAX + 1];
};

static void
cluster_name_send(struct cluster *cl, const struct client *c,
    const char *name, int claim, rlink_reply_cb *cb, void *arg)
{
	char		 key[CLUSTER_PREFIX_MAX + NAME_FOLD_MAX + 8], val[48];
	char		 nodes[CLUSTER_PREFIX_MAX + 8];
	const char	*argv[7];

	cluster_name_args(cl, c, name, key, sizeof key, val, sizeof val);
	snprintf(nodes, sizeof nodes, "%snodes", cl->prefix);
	argv[0] = "EVAL";
	argv[1] = claim ? cluster_name_lua : cluster_unname_lua;
	argv[2] = claim ? "2" : "1";
	argv[3] = key;
	if (claim) {
		argv[4] = nodes;
		argv[5] = val;
	} else
		argv[4] = val;
	if (rlink_cmd(cl->link, cb, arg, claim ? 6 : 5, argv, NULL) == -1 &&
	    cb != NULL)
		cb(arg, NULL);
}

static void cluster_name_reply(void *, redisReply *);

/*
 * NAME, free on this node: ask Redis whether a player of another node has
 * it, the player's next lines held meanwhile.  1 if asked.
 */
int
cluster_name_check(struct cluster *cl, struct client *c, const char *name)
{
	struct cluster_local	*l;
	struct cluster_naming	*nm;

	if (!cl->joined || !rlink_up(cl->link) ||
	    (l = cluster_local_add(cl, c)) == NULL || l->owner[0] != '\0' ||
	    l->asking)
		return (0);
	if ((nm = malloc(sizeof *nm)) == NULL) {
		if (!(c->flags & CLIENT_POSTED))
			cluster_local_del(cl, l);
		return (0);
	}
	nm->cl = cl;
	nm->id = c->id;
	snprintf(nm->name, sizeof nm->name, "%s", name);
	l->asking = 1;
	l->naming = 1;
	l->ask_until = INT64_MAX;	/* the link's own deadline holds */
	c->ops->hold(c, 1);
	cluster_name_send(cl, c, name, 1, cluster_name_reply, nm);
	return (1);
}

/* Redis's answer (NULL: out of reach; the node's word is enough then). */
static void
cluster_name_reply(void *arg, redisReply *r)
{
	struct cluster_naming	*nm = arg;
	struct cluster		*cl = nm->cl;
	struct cluster_local	*l = cluster_local_find(cl, nm->id);
	struct client		*c;
	enum proto_error	 err = PROTO_OK;
	char			 buf[PROTO_OUT_MAX];
	int			 free_ok = r == NULL ||
				     r->type != REDIS_REPLY_INTEGER ||
				     r->integer == 1;

	if (l == NULL || !l->naming) {
		free(nm);
		return;			/* gone meanwhile: it was let go */
	}
	c = l->c;
	l->naming = 0;
	if (c->place == PLACE_GONE || (c->flags & CLIENT_CLOSING)) {
		/* Replaced (RESUME elsewhere) or leaving: no name to take. */
		if (free_ok && r != NULL)
			cluster_name_send(cl, c, nm->name, 0, NULL, NULL);
		free(nm);
		cluster_ask_done(cl, l);
		return;
	}
	if (!free_ok)
		err = PROTO_ENAME_TAKEN;
	else if (!name_allowed(cl->lobby, c, nm->name))
		err = PROTO_ENAME_TAKEN;	/* taken here meanwhile */
	else
		err = cmd_rename(c, nm->name);
	if (err != PROTO_OK) {
		if (free_ok && r != NULL)
			cluster_name_send(cl, c, nm->name, 0, NULL, NULL);
		client_send(c, buf, proto_fmt_error(buf, sizeof buf, err));
	}
	free(nm);
	cluster_ask_done(cl, l);
	cl->host.flush(cl->host.arg);
}

/*
 * A name changed: this node's player's, claimed and given back in Redis
 * (a remote seat's is its node's to tell Redis: told there, M).
 */
void
cluster_name_changed(struct cluster *cl, struct client *c, const char *old,
    const char *new)
{
	struct cluster_remote	*r;

	if (c->flags & CLIENT_REMOTE) {
		r = (struct cluster_remote *)c;
		if (new != NULL && !r->done)
			cluster_send(cl, r->home, 'M', r->home_id, new,
			    strlen(new));
		return;
	}
	if (!rlink_up(cl->link))
		return;
	if (old != NULL)
		cluster_name_send(cl, c, old, 0, NULL, NULL);
	if (new != NULL)
		cluster_name_send(cl, c, new, 1, NULL, NULL);
}
