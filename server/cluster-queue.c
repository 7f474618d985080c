/*
 * cluster-queue.c -- one queue for every node: a ripe player with nobody
 * to meet on its node takes the player on another node the queue's rule
 * gives it (protocol.md §6.1: a guest the oldest guest, a signed-in
 * player the nearest in rating in range), or is queued for the others
 * to take (one Lua script); signed-in players weighed again each beat;
 * the offer (O) and the hand-over of the player (S), or why not (N, B).
 */
#include <sys/queue.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hiredis/hiredis.h>

#include "cluster-int.h"
#include "cluster-msg.h"
#include "lobby.h"
#include "log.h"
#include "match.h"
#include "place.h"
#include "rlink.h"

static void	cluster_entry(struct cluster *, const struct client *, char *,
		    size_t);
static void	cluster_pair_cb(void *, redisReply *);
static int	cluster_queue_post(struct cluster *, struct client *, int);

/*
 * The player on another live node this node's player (ARGV[3]) meets,
 * taken; or else this node's player queued, and nil.  An entry of a
 * dead node (its name no longer its instance's) is dropped on the way.
 * A guest's entry is "<node> <instance> <id>" and takes the oldest
 * guest's, or else the oldest signed-in player's.  A signed-in player's
 * ends in " <rating>", and the time it began to wait (Redis's clock, in
 * ms: now less ARGV[4], the ms it has waited) is kept in KEYS[2]; it
 * takes the signed-in player nearest in rating whose range and its own
 * hold each other (|a - b| - 100 <= ms / 20, ms waited by the later to
 * come; ties: who came first), or else the oldest guest.  ARGV[5] "1":
 * weighed again (a beat), only if its entry is still there.
 */
static const char cluster_pair_lua[] =
    "local q = redis.call('LRANGE', KEYS[1], 0, -1) "
    "local t = redis.call('TIME') "
    "local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) "
    "local pat = '^%S+ %S+ %S+ (%-?%d+)$' "
    "local me = ARGV[3] "
    "local mr = tonumber(string.match(me, pat)) "
    "local ms = now - tonumber(ARGV[4]) "
    "local mine, guest, rated, take, bd, bs = false "
    "local cands = {} "
    "for _, e in ipairs(q) do "
    "  local name, inst = string.match(e, '^(%S+) (%S+) ') "
    "  if e == me then "
    "    mine = true "
    "    ms = tonumber(redis.call('HGET', KEYS[2], e)) or ms "
    "  elseif inst ~= ARGV[2] then "
    "    if name and redis.call('GET', ARGV[1] .. 'node:' .. name) == inst "
    "    then "
    "      local r = tonumber(string.match(e, pat)) "
    "      if r == nil then guest = guest or e "
    "      else "
    "        rated = rated or e "
    "        cands[#cands + 1] = { e, r, "
    "            tonumber(redis.call('HGET', KEYS[2], e)) or now } "
    "      end "
    "    else "
    "      redis.call('LREM', KEYS[1], 1, e) "
    "      redis.call('HDEL', KEYS[2], e) "
    "    end "
    "  end "
    "end "
    "if ARGV[5] == '1' and not mine then return false end "
    "if mr == nil then take = guest or rated "
    "else "
    "  for _, c in ipairs(cands) do "
    "    local d = math.abs(c[2] - mr) "
    "    if (d - 100) * 20 <= now - math.max(c[3], ms) and (bd == nil or "
    "        d < bd or (d == bd and c[3] < bs)) then "
    "      take, bd, bs = c[1], d, c[3] "
    "    end "
    "  end "
    "  take = take or guest "
    "end "
    "if take then "
    "  redis.call('LREM', KEYS[1], 1, take) "
    "  redis.call('HDEL', KEYS[2], take) "
    "  if mine then "
    "    redis.call('LREM', KEYS[1], 1, me) "
    "    redis.call('HDEL', KEYS[2], me) "
    "  end "
    "  return take "
    "end "
    "if not mine then "
    "  redis.call('RPUSH', KEYS[1], me) "
    "  if mr then redis.call('HSET', KEYS[2], me, ms) end "
    "end "
    "return false";

/* A signed-in player's entry out of the shared queue, with its time. */
static const char cluster_unqueue_lua[] =
    "redis.call('LREM', KEYS[1], 0, ARGV[1]) "
    "redis.call('HDEL', KEYS[2], ARGV[1])";

/* A player's entry in the shared queue (a signed-in one's: its rating). */
static void
cluster_entry(struct cluster *cl, const struct client *c, char *buf,
    size_t len)
{
	if (c->rated)
		snprintf(buf, len, "%s %s %" PRIu64 " %d", cl->node, cl->inst,
		    c->id, c->rating);
	else
		snprintf(buf, len, "%s %s %" PRIu64, cl->node, cl->inst,
		    c->id);
}

/* A script's reply is for this player of this node. */
struct cluster_ask {
	struct cluster	*cl;
	uint64_t	 id;
};

/*
 * Run the pairing script for a player (again: a beat, only if its entry
 * is still queued); 0, or -1 if it could not be sent.
 */
static int
cluster_queue_post(struct cluster *cl, struct client *c, int again)
{
	struct cluster_ask	*ask;
	char			 entry[CLUSTER_NODE_MAX + 64], waited[24];
	const char		*argv[] = { "EVAL", cluster_pair_lua, "2",
				    cl->key_queue, cl->key_since, cl->prefix,
				    cl->inst, entry, waited, again ? "1" : "0" };
	int64_t			 ms = cl->lobby->ops->now() - c->queued_at;

	if (!cl->joined || !rlink_up(cl->link) ||
	    (ask = malloc(sizeof *ask)) == NULL)
		return (-1);
	ask->cl = cl;
	ask->id = c->id;
	cluster_entry(cl, c, entry, sizeof entry);
	snprintf(waited, sizeof waited, "%" PRId64, ms > 0 ? ms : 0);
	if (rlink_cmd(cl->link, cluster_pair_cb, ask, 10, argv, NULL) == -1) {
		free(ask);
		return (-1);
	}
	return (0);
}

/*
 * A ripe player has nobody to meet here: take one waiting elsewhere, or
 * queue.
 */
void
cluster_queue_alone(void *arg, struct client *c)
{
	struct cluster		*cl = arg;

	if (cluster_queue_post(cl, c, 0) == -1)
		return;
	c->flags |= CLIENT_POSTED;	/* until it leaves the queue */
	if (cluster_base_local_add(cl, c) == NULL)
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
	if ((l = cluster_base_local_find(cl, qid)) == NULL ||
	    l->c->place != PLACE_QUEUE) {
		/* Ours left meanwhile: the taken player goes on waiting. */
		log_debug("cluster: client %llu left; %s's player waits on",
		    (unsigned long long)qid, name);
		cluster_base_send(cl, inst, 'N', id, NULL, 0);
		cl->host.flush(cl->host.arg);
		return;
	}
	log_debug("cluster: client %llu offered %s's client %" PRIu64,
	    (unsigned long long)qid, name, id);
	/* An answer lost (its node died): posted again after this. */
	l->offer_until = cl->lobby->ops->now() + CLUSTER_OFFER_MS;
	snprintf(rest, sizeof rest, "%" PRIu64, qid);
	cluster_base_send(cl, inst, 'O', id, rest, strlen(rest));
	cl->host.flush(cl->host.arg);
}

/* A POSTED player left the queue: out of the shared one too. */
void
cluster_queue_unqueued(void *arg, struct client *c)
{
	struct cluster		*cl = arg;
	struct cluster_local	*l;
	char			 entry[CLUSTER_NODE_MAX + 64];
	const char		*argv[] = { "LREM", cl->key_queue, "0", entry };
	const char		*rated[] = { "EVAL", cluster_unqueue_lua, "2",
				    cl->key_queue, cl->key_since, entry };

	if ((l = cluster_base_local_find(cl, c->id)) != NULL &&
	    l->owner[0] == '\0') {
		l->offer_until = 0;
		if (!l->asking)
			cluster_base_local_del(cl, l);
	}
	if (!rlink_up(cl->link))
		return;
	cluster_entry(cl, c, entry, sizeof entry);
	if (c->rated)
		(void)rlink_cmd(cl->link, NULL, NULL, 6, rated, NULL);
	else
		(void)rlink_cmd(cl->link, NULL, NULL, 4, argv, NULL);
}

/* Post a player again, if it still waits alone (an offer fell through). */
void
cluster_queue_repost(struct cluster *cl, struct client *c)
{
	struct cluster_local	*l;

	if (c->place != PLACE_QUEUE || !(c->flags & CLIENT_POSTED))
		return;
	c->flags &= ~CLIENT_POSTED;
	if ((l = cluster_base_local_find(cl, c->id)) != NULL) {
		l->offer_until = 0;
		if (!l->asking)
			cluster_base_local_del(cl, l);
	}
	if (c->rated)
		lobby_unheld(cl->lobby);	/* weighed here first */
	else if (cl->lobby->nqueued == 1 && TAILQ_FIRST(&cl->lobby->queue) == c)
		cluster_queue_alone(cl, c);
}

/*
 * A beat: the signed-in players waiting here for nobody in range are
 * weighed again against the other nodes' (the ranges widened), but
 * those with an offer on its way; those not posted yet are.
 */
void
cluster_queue_widen(struct cluster *cl)
{
	struct client		*c;
	struct cluster_local	*l;

	TAILQ_FOREACH(c, &cl->lobby->queue, queue_entry) {
		if (!c->rated || (c->flags & (CLIENT_HOLDS | CLIENT_CLOSING)))
			continue;
		if (!(c->flags & CLIENT_POSTED)) {
			cluster_queue_alone(cl, c);
			continue;
		}
		if ((l = cluster_base_local_find(cl, c->id)) != NULL &&
		    l->owner[0] == '\0' && !l->asking && l->offer_until == 0)
			(void)cluster_queue_post(cl, c, 1);
	}
}

/* O: a node offers this node's waiting player id a match against qid. */
void
cluster_queue_on_offer(struct cluster *cl, const char *from, uint64_t id,
    const char *rest)
{
	struct cluster_local	*l = cluster_base_local_find(cl, id);
	struct client		*c;
	char			 more[CLUSTER_INST_LEN + PROTO_NAME_MAX + 128];
	char			 who[PROTO_NAME_MAX + 48];
	uint64_t		 qid = strtoull(rest, NULL, 10);

	if (l == NULL || l->owner[0] != '\0' || l->asking || (c = l->c)->place
	    != PLACE_QUEUE || (c->flags & CLIENT_CLOSING)) {
		cluster_base_send(cl, from, 'N', qid, NULL, 0);
		return;
	}
	c->flags &= ~CLIENT_POSTED;	/* taken from the shared queue */
	lobby_leave(cl->lobby, c);
	place_set(c, PLACE_RELAY);
	snprintf(l->owner, sizeof l->owner, "%s", from);
	cluster_base_who(c, who, sizeof who);
	snprintf(more, sizeof more, "%" PRIu64 " %s %s", c->id, c->addr, who);
	log_info("client %llu: to a match on node %s",
	    (unsigned long long)c->id, cluster_base_node_of(cl, from));
	cluster_base_send(cl, from, 'S', qid, more, strlen(more));
}

/* S: the offer taken: seat its player here against this node's id. */
void
cluster_queue_on_seat(struct cluster *cl, const char *from, uint64_t id,
    const char *rest)
{
	struct cluster_local	*l = cluster_base_local_find(cl, id);
	struct cluster_remote	*r;
	struct client		*c;
	struct cluster_who	 who;
	char			 addr[64];
	uint64_t		 wid;
	int			 n = 0;

	memset(&who, 0, sizeof who);
	if (sscanf(rest, "%" SCNu64 " %63s %n", &wid, addr, &n) < 2)
		return;
	if (n > 0 && cluster_msg_who(rest + n, strlen(rest + n), &who) !=
	    CLUSTER_MSG_OK)
		return;			/* checked before: never */
	if (l == NULL || l->owner[0] != '\0' || l->asking || (c = l->c)->place
	    != PLACE_QUEUE || (c->flags & CLIENT_CLOSING) ||
	    (r = cluster_seat_remote_new(cl, from, wid, addr, &who)) == NULL) {
		cluster_base_send(cl, from, 'B', wid, NULL, 0);
		return;
	}
	c->flags &= ~CLIENT_POSTED;
	cluster_base_local_del(cl, l);
	lobby_leave(cl->lobby, c);
	/* The one who waited longer is p1, as in the queue. */
	match_new(cl->lobby, &r->c, c);
}

/* N: this node's player id was not matched after all: post it again. */
void
cluster_queue_on_nope(struct cluster *cl, uint64_t id)
{
	struct cluster_local	*l = cluster_base_local_find(cl, id);

	if (l != NULL && l->owner[0] == '\0')
		cluster_queue_repost(cl, l->c);
}

/* B: handed over, but the opponent there was gone: wait here again. */
void
cluster_queue_on_back(struct cluster *cl, const char *from, uint64_t id)
{
	struct cluster_local	*l = cluster_base_local_find(cl, id);
	struct client		*c;

	if (l == NULL || strcmp(l->owner, from) != 0)
		return;
	c = l->c;
	cluster_relay_back(cl, l, CLUSTER_KEPT_REFUSE);
	lobby_join_again(cl->lobby, c);
}
