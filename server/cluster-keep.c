/*
 * cluster-keep.c -- no match is lost with its node.  Every match's image
 * (match-keep.c) is in Redis, written before its players see what
 * changed; the matches of a node that died, or that drains, are taken up
 * by the live nodes.
 *
 *	<prefix>match:<id>	"<owner> <home> <home> <image>": the instance
 *				that runs it, and where each seat's player
 *				is connected ("<instance>:<client id>", or
 *				"-" when away or gone); or, once the match
 *				ended with a rated game not yet committed,
 *				"<owner> record <record>" (match-keep.c)
 *				until the commit
 *	<prefix>owner:<inst>	the ids of an instance's matches (a set)
 *	<prefix>orphans		the instances dead (or drained) with matches
 *				left: the live nodes take them (SPOP), a
 *				hundred at a time, until none is left
 *
 * A save is one script: it writes each image only if the match is still
 * this node's (or its previous instance's, after a loss of Redis).  The
 * players' connections here are corked until Redis has answered (the host
 * holds their output), so no OK MOVE leaves before its move is kept.  A
 * match with a remote seat is saved at the end of the callback that changed
 * it, and the seat's lines go out once the save is taken (cluster_seat_flush);
 * the others wait for the end of the loop's pass,
 * and every match changed in the pass goes in one script (the call of a
 * script is most of what a save costs Redis).
 * A save refused means another node took the match up (this one was taken
 * for dead): its players here are told to come back (BYE), without the
 * output the save held.
 */
#include <sys/queue.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>
#include <hiredis/hiredis.h>

#include "cluster-int.h"
#include "lobby.h"
#include "log.h"
#include "match-keep.h"
#include "printable.h"
#include "rlink.h"

static int	cluster_keep_remote(const struct match *);
static void	cluster_keep_send(struct cluster *, struct match **, size_t);
static void	cluster_keep_saved(void *, redisReply *);
static void	cluster_keep_lost(struct cluster *, uint64_t);
static void	cluster_keep_failed(struct cluster *, uint64_t, const char *);
static void	cluster_keep_drop(struct cluster *, uint64_t);
static int	cluster_keep_record(struct cluster *, uint64_t,
		    const struct match_record *);
static void	cluster_keep_take_record(struct cluster *, const char *,
		    const char *, uint64_t, const char *);
static void	cluster_keep_home(struct cluster *, const struct match *, int,
		    char *, size_t);
static void	cluster_keep_adopted(void *, redisReply *);
static void	cluster_keep_refused(struct cluster *, const char *,
		    const char *, enum match_keep_error);
static void	cluster_keep_take_up(struct cluster *, const char *,
		    const char *, size_t);
static struct client *cluster_keep_plug(struct cluster *, struct match *,
		    int, const char *, const char *, uint64_t,
		    struct evbuffer **);
static void	cluster_keep_loaded(void *, redisReply *);
static int	cluster_keep_ring_push(struct cluster *, uint64_t);

/* The keys and first arguments of the drop script. */
struct cluster_keep_args {
	char		 id[24];
	char		 kmatch[CLUSTER_PREFIX_MAX + 32];
	char		 kowner[CLUSTER_PREFIX_MAX + 32];
	const char	*argv[6];
};
static void	cluster_keep_args(struct cluster *, uint64_t,
		    struct cluster_keep_args *);

#define CLUSTER_KEEP_TAKE	100	/* matches taken up in one script */
#define CLUSTER_KEEP_BATCH	32	/* matches saved in one script */
/* A match's key, id and value in a save's arguments. */
#define CLUSTER_KEEP_KEY	(CLUSTER_PREFIX_MAX + 32)
#define CLUSTER_KEEP_ID		24
#define CLUSTER_KEEP_VAL	(MATCH_KEEP_MAX + 128)
/* EVALSHA, its SHA, the number of keys, and a batch's keys and arguments. */
#define CLUSTER_EVAL_ARGS	(6 + 3 * CLUSTER_KEEP_BATCH)

/*
 * KEYS[1] this instance's set, KEYS[2..] the matches; ARGV[1] this
 * instance, ARGV[2] the one before it, then each match's image and id.
 * Each image is written if its match is this node's (or its last
 * instance's): 1, else 0.
 */
static const char cluster_save_lua[] =
    "local out = {} "
    "for i = 2, #KEYS do "
    "local o = redis.call('GETRANGE', KEYS[i], 0, 15) "
    "if o == '' or o == ARGV[1] or o == ARGV[2] then "
    "redis.call('SET', KEYS[i], ARGV[2 * i - 1]) "
    "redis.call('SADD', KEYS[1], ARGV[2 * i]) "
    "out[i - 1] = 1 else out[i - 1] = 0 end end "
    "return out";

/* A match ended: its image goes, if it is still this node's. */
static const char cluster_drop_lua[] =
    "local v = redis.call('GET', KEYS[1]) "
    "if v then local o = string.sub(v, 1, 16) "
    "if o ~= ARGV[1] and o ~= ARGV[2] then return 0 end "
    "redis.call('DEL', KEYS[1]) end "
    "redis.call('SREM', KEYS[2], ARGV[3]) "
    "return 1";

/*
 * Take up to ARGV[3] matches of one orphaned instance: {dead, "id image",
 * ...}, each now this node's.  An image another instance wrote since (the
 * dead one came back as a new instance) is not taken.
 */
static const char cluster_adopt_lua[] =
    "local dead = redis.call('SRANDMEMBER', KEYS[1]) "
    "if not dead then return {} end "
    "local okey = ARGV[1] .. 'owner:' .. dead "
    "local ids = redis.call('SPOP', okey, tonumber(ARGV[3])) "
    "local out = {dead} "
    "for _, id in ipairs(ids) do "
    "local k = ARGV[1] .. 'match:' .. id "
    "local v = redis.call('GET', k) "
    "if v and string.sub(v, 1, 16) == dead then "
    "v = ARGV[2] .. string.sub(v, 17) "
    "redis.call('SET', k, v) "
    "redis.call('SADD', ARGV[1] .. 'owner:' .. ARGV[2], id) "
    "out[#out + 1] = id .. ' ' .. v end end "
    "if redis.call('SCARD', okey) == 0 then "
    "redis.call('SREM', KEYS[1], dead) end "
    "return out";

void
cluster_keep_init(struct cluster *cl)
{
	cl->lua[CLUSTER_LUA_SAVE].text = cluster_save_lua;
	cl->lua[CLUSTER_LUA_DROP].text = cluster_drop_lua;
	cl->lua[CLUSTER_LUA_ADOPT].text = cluster_adopt_lua;
	cl->lobby->keep = 1;
}

/* Run a script: by its SHA once Redis has it (SCRIPT LOAD), else whole. */
int
cluster_keep_eval(struct cluster *cl, int which, rlink_reply_cb *cb, void *arg,
    int argc, const char **argv, const size_t *lens)
{
	struct cluster_lua	*lua = &cl->lua[which];
	const char		*av[CLUSTER_EVAL_ARGS];
	size_t			 lv[CLUSTER_EVAL_ARGS];
	int			 i;

	if (argc + 2 > CLUSTER_EVAL_ARGS)
		return (-1);
	av[0] = lua->sha[0] != '\0' ? "EVALSHA" : "EVAL";
	av[1] = lua->sha[0] != '\0' ? lua->sha : lua->text;
	lv[0] = strlen(av[0]);
	lv[1] = strlen(av[1]);
	for (i = 0; i < argc; i++) {
		av[i + 2] = argv[i];
		lv[i + 2] = lens != NULL ? lens[i] : strlen(argv[i]);
	}
	return (rlink_cmd(cl->link, cb, arg, argc + 2, av, lv));
}

static void
cluster_keep_loaded(void *arg, redisReply *r)
{
	struct cluster_lua	*lua = arg;

	if (r != NULL && r->type == REDIS_REPLY_STRING && r->len == 40)
		memcpy(lua->sha, r->str, 41);
}

/* The link is up: Redis learns the scripts (it may have restarted). */
void
cluster_keep_up(struct cluster *cl)
{
	const char	*argv[3] = { "SCRIPT", "LOAD", NULL };
	int		 i;

	for (i = 0; i < CLUSTER_NLUA; i++) {
		cl->lua[i].sha[0] = '\0';
		argv[2] = cl->lua[i].text;
		(void)rlink_cmd(cl->link, cluster_keep_loaded, &cl->lua[i], 3,
		    argv, NULL);
	}
}

/* Where a seat's player is connected: "<instance>:<client id>", or "-". */
static void
cluster_keep_home(struct cluster *cl, const struct match *m, int seat,
    char *buf, size_t size)
{
	const struct client		*c = m->player[seat];
	const struct cluster_remote	*r;

	if (c == NULL)
		snprintf(buf, size, "-");
	else if (c->flags & CLIENT_REMOTE) {
		r = (const struct cluster_remote *)c;
		snprintf(buf, size, "%s:%" PRIu64, r->home, r->home_id);
	} else
		snprintf(buf, size, "%s:%" PRIu64, cl->inst, c->id);
}

/* The ids of the saves awaiting Redis's answer, in order (a ring). */
static int
cluster_keep_ring_push(struct cluster *cl, uint64_t id)
{
	uint64_t	*ring;
	size_t		 cap, i;

	if (cl->ring_len == cl->ring_cap) {
		cap = cl->ring_cap != 0 ? cl->ring_cap * 2 : 64;
		if ((ring = calloc(cap, sizeof *ring)) == NULL)
			return (-1);
		for (i = 0; i < cl->ring_len; i++)
			ring[i] = cl->ring[(cl->ring_head + i) % cl->ring_cap];
		free(cl->ring);
		cl->ring = ring;
		cl->ring_cap = cap;
		cl->ring_head = 0;
	}
	cl->ring[(cl->ring_head + cl->ring_len) % cl->ring_cap] = id;
	cl->ring_len++;
	return (0);
}

/*
 * 2, the match's key, this instance's set; this instance, the one before
 * it (its matches are this one's once written again).
 */
static void
cluster_keep_args(struct cluster *cl, uint64_t id, struct cluster_keep_args *a)
{
	snprintf(a->id, sizeof a->id, "%" PRIu64, id);
	snprintf(a->kmatch, sizeof a->kmatch, "%smatch:%s", cl->prefix, a->id);
	snprintf(a->kowner, sizeof a->kowner, "%sowner:%s", cl->prefix,
	    cl->inst);
	a->argv[0] = "2";
	a->argv[1] = a->kmatch;
	a->argv[2] = a->kowner;
	a->argv[3] = cl->inst;
	a->argv[4] = cl->old_inst[0] != '\0' ? cl->old_inst : cl->inst;
}

/* A remote seat's lines must follow its match's save. */
static int
cluster_keep_remote(const struct match *m)
{
	int	i;

	for (i = 0; i < 2; i++)
		if (m->player[i] != NULL &&
		    (m->player[i]->flags & CLIENT_REMOTE))
			return (1);
	return (0);
}

/*
 * Save matches' images, in one script; their players here hear nothing
 * until they are kept.  The ring holds the count, then the ids.  A match
 * whose image does not fit is left out (never saved); a script the link
 * refuses (too many in flight, out of memory) is tried again in a moment,
 * its players waiting.
 */
static void
cluster_keep_send(struct cluster *cl, struct match **ms, size_t n)
{
	struct match_keep	 k;
	const char		*argv[CLUSTER_EVAL_ARGS - 2];
	char			 nkeys[8], kowner[CLUSTER_KEEP_KEY];
	char			 key[CLUSTER_KEEP_BATCH][CLUSTER_KEEP_KEY];
	char			 id[CLUSTER_KEEP_BATCH][CLUSTER_KEEP_ID];
	char			 val[CLUSTER_KEEP_BATCH][CLUSTER_KEEP_VAL];
	char			 home[2][CLUSTER_INST_LEN + 24];
	const char		*vals[2 * CLUSTER_KEEP_BATCH];
	size_t			 i, m = 0, len = cl->ring_len;
	int			 argc, w, f;

	if (cluster_keep_ring_push(cl, 0) == -1)	/* the count, below */
		goto again;
	for (i = 0; i < n; i++) {
		snprintf(id[m], sizeof id[m], "%" PRIu64, ms[i]->id);
		snprintf(key[m], sizeof key[m], "%smatch:%s", cl->prefix,
		    id[m]);
		match_keep_take(ms[i], &k);
		cluster_keep_home(cl, ms[i], 0, home[0], sizeof home[0]);
		cluster_keep_home(cl, ms[i], 1, home[1], sizeof home[1]);
		w = snprintf(val[m], sizeof val[m], "%s %s %s ", cl->inst,
		    home[0], home[1]);
		if ((f = match_keep_fmt(&k, val[m] + w,
		    sizeof val[m] - (size_t)w)) == -1) {
			log_warn("node %s: match %" PRIu64 " has no image: "
			    "not kept", cl->node, ms[i]->id);
			continue;
		}
		if (cluster_keep_ring_push(cl, ms[i]->id) == -1)
			goto again;
		argv[2 + m] = key[m];
		vals[2 * m] = val[m];
		vals[2 * m + 1] = id[m];
		m++;
	}
	if (m == 0) {
		cl->ring_len = len;
		return;
	}
	cl->ring[(cl->ring_head + len) % cl->ring_cap] = m;
	snprintf(nkeys, sizeof nkeys, "%zu", m + 1);
	snprintf(kowner, sizeof kowner, "%sowner:%s", cl->prefix, cl->inst);
	argv[0] = nkeys;
	argv[1] = kowner;
	argc = 2 + (int)m;
	argv[argc++] = cl->inst;
	argv[argc++] = cl->old_inst[0] != '\0' ? cl->old_inst : cl->inst;
	for (i = 0; i < 2 * m; i++)
		argv[argc++] = vals[i];
	if (cluster_keep_eval(cl, CLUSTER_LUA_SAVE, cluster_keep_saved, cl,
	    argc, argv, NULL) == -1)
		goto again;
	cl->saves_sent++;
	/* A remote seat hears, as a player here does, once it is kept. */
	for (i = 0; i < n; i++) {
		for (w = 0; w < 2; w++) {
			if (ms[i]->player[w] != NULL &&
			    (ms[i]->player[w]->flags & CLIENT_REMOTE))
				((struct cluster_remote *)ms[i]->player[w])->
				    save_seq = cl->saves_sent;
		}
	}
	return;

again:
	cl->ring_len = len;
	log_warn("node %s: saving %zu match%s: no room to send; again soon",
	    cl->node, n, n == 1 ? "" : "es");
	cl->retry_at = cl->lobby->ops->now() + CLUSTER_TICK_MS;
	for (i = 0; i < n; i++)
		match_touch(ms[i]);	/* their players corked again */
}

/*
 * Redis kept matches (or refused some, or the link went down: NULL): their
 * players hear.
 */
static void
cluster_keep_saved(void *arg, redisReply *r)
{
	struct cluster	*cl = arg;
	uint64_t	 id, n, i;

	if (cl->ring_len == 0)
		return;
	n = cl->ring[cl->ring_head];
	for (i = 0; i <= n && cl->ring_len > 0; i++) {
		id = cl->ring[cl->ring_head];
		cl->ring_head = (cl->ring_head + 1) % cl->ring_cap;
		cl->ring_len--;
		if (i == 0 || r == NULL)
			continue;
		if (r->type == REDIS_REPLY_ERROR)
			cluster_keep_failed(cl, id, r->str);
		else if (r->type == REDIS_REPLY_ARRAY && i <= r->elements &&
		    r->element[i - 1]->type == REDIS_REPLY_INTEGER &&
		    r->element[i - 1]->integer == 0)
			cluster_keep_lost(cl, id);
	}
	cl->saves_acked++;
	cl->host.uncork(cl->host.arg, cl->saves_acked);
	if (cl->drain == CLUSTER_DRAIN_SAVING)
		cluster_drain_step(cl);
	cl->host.flush(cl->host.arg);
}

/*
 * Redis answered a save with an error (out of memory, a script flushed,
 * ...): the match is written again in a moment, its players waiting.
 */
static void
cluster_keep_failed(struct cluster *cl, uint64_t id, const char *why)
{
	struct match	*m = keytab_find(&cl->lobby->ids, id);
	int		 i;

	log_warn("node %s: saving match %" PRIu64 ": %s; again soon", cl->node,
	    id, why);
	if (strncmp(why, "NOSCRIPT", 8) == 0)
		for (i = 0; i < CLUSTER_NLUA; i++)
			cl->lua[i].sha[0] = '\0';
	cl->retry_at = cl->lobby->ops->now() + CLUSTER_TICK_MS;
	if (m != NULL)
		match_touch(m);		/* its players corked again */
}

/*
 * A save refused: another node took the match up, this one having been
 * taken for dead.  Its players here go, told to come back, without what
 * the save held; a remote seat's node heard from the taker already.
 */
static void
cluster_keep_lost(struct cluster *cl, uint64_t id)
{
	struct match	*m = keytab_find(&cl->lobby->ids, id);
	struct client	*c[2];
	int		 i;

	if (m == NULL)
		return;
	log_warn("node %s: match %" PRIu64 " runs on another node now",
	    cl->node, id);
	for (i = 0; i < 2; i++)
		c[i] = m->player[i];
	match_free(m);
	for (i = 0; i < 2; i++) {
		if (c[i] == NULL)
			continue;
		if (c[i]->flags & CLIENT_REMOTE)
			cluster_seat_remote_done((struct cluster_remote *)c[i]);
		else
			cl->host.restart(cl->host.arg, c[i]);
	}
}

/*
 * The end of a callback: the matches that changed with a remote seat in
 * them saved now, before the seats' lines go out (cluster_seat_flush); the
 * others at the end of the loop's pass (cluster_keep_pass_cb), unless the
 * node drains.  Cut off from Redis, nothing is saved, and the players hear
 * at once.
 */
void
cluster_keep_flush(struct cluster *cl)
{
	struct lobby	*lobby;
	struct match	*m, *next;
	int		 up;

	lobby = cl->lobby;
	up = rlink_up(cl->link) && cl->drain < CLUSTER_DRAIN_GIVEN &&
	    !cl->stopping;
	/* After an error, a moment before writing again (players wait). */
	if (up && lobby->ops->now() < cl->retry_at)
		return;
	for (m = TAILQ_FIRST(&lobby->touched); m != NULL; m = next) {
		next = TAILQ_NEXT(m, touched_entry);
		/* Draining: the last saves, now. */
		if (up && !cluster_keep_remote(m) &&
		    cl->drain == CLUSTER_DRAIN_NONE)
			continue;
		TAILQ_REMOVE(&lobby->touched, m, touched_entry);
		m->touched = 0;
		if (up)
			cluster_keep_send(cl, &m, 1);
		if (up && lobby->ops->now() < cl->retry_at)
			break;		/* not sent: touched again */
	}
	/* The corks wait for the last save of the pass, if one is to come. */
	if (!TAILQ_EMPTY(&lobby->touched))
		event_active(cl->pass, EV_TIMEOUT, 1);
	else
		cl->host.cork_due(cl->host.arg, cl->saves_sent);
	cl->host.uncork(cl->host.arg, cl->saves_acked);
}

/*
 * The end of the loop's pass (an event made active by the callbacks before
 * it, so it runs after them): the saves, and what waited for them.
 */
void
cluster_keep_pass_cb(evutil_socket_t fd, short what, void *arg)
{
	struct cluster	*cl = arg;

	(void)fd;
	(void)what;
	cluster_keep_pass(cl);
	cl->host.flush(cl->host.arg);
}

/* Every match that changed and waits, saved now: a batch a script. */
void
cluster_keep_pass(struct cluster *cl)
{
	struct lobby	*lobby = cl->lobby;
	struct match	*ms[CLUSTER_KEEP_BATCH];
	size_t		 n;
	int		 up;

	up = rlink_up(cl->link) && cl->drain < CLUSTER_DRAIN_GIVEN &&
	    !cl->stopping;
	if (up && lobby->ops->now() < cl->retry_at)
		return;
	do {
		for (n = 0; n < CLUSTER_KEEP_BATCH &&
		    !TAILQ_EMPTY(&lobby->touched); n++) {
			ms[n] = TAILQ_FIRST(&lobby->touched);
			TAILQ_REMOVE(&lobby->touched, ms[n], touched_entry);
			ms[n]->touched = 0;
		}
		if (up && n > 0)
			cluster_keep_send(cl, ms, n);
		if (up && lobby->ops->now() < cl->retry_at)
			break;		/* not sent: touched again */
	} while (n > 0);
	if (TAILQ_EMPTY(&lobby->touched))	/* else they wait on */
		cl->host.cork_due(cl->host.arg, cl->saves_sent);
	cl->host.uncork(cl->host.arg, cl->saves_acked);
}

/* Every match here, saved again (as this instance's, after a loss). */
void
cluster_keep_all(struct cluster *cl)
{
	struct match	*m;

	TAILQ_FOREACH(m, &cl->lobby->matches, entry)
		match_touch(m);
}

/*
 * A match changed: its players here say nothing more, even closing, until
 * it is saved (cluster_keep_flush gives their corks the save's seq).
 */
void
cluster_keep_touched(void *arg, struct match *m)
{
	struct cluster	*cl = arg;
	int		 i;

	for (i = 0; i < 2; i++) {
		if (m->player[i] != NULL &&
		    !(m->player[i]->flags & CLIENT_REMOTE))
			cl->host.cork(cl->host.arg, m->player[i]);
	}
}

/*
 * A match ended here (or is freed, the cluster going): its image goes;
 * a rated record it carries, not yet committed, stays in its place until
 * it is (cluster_keep_settled).
 */
void
cluster_keep_ended(void *arg, struct match *m)
{
	struct cluster	*cl = arg;

	if (!cl->lobby->keep || cl->drain >= CLUSTER_DRAIN_GIVEN ||
	    cl->stopping)
		return;
	if (m->pending.game != 0 && cluster_keep_record(cl, m->id,
	    &m->pending) == 0)
		return;
	cluster_keep_drop(cl, m->id);
}

/*
 * Write a rated record whose match ended in the match's place, if the
 * match is still this node's (the save script): 0, or -1 if not sent.
 */
static int
cluster_keep_record(struct cluster *cl, uint64_t id,
    const struct match_record *r)
{
	struct cluster_keep_args	 a;
	char				 val[CLUSTER_KEEP_VAL];
	const char			*argv[7];
	int				 w, f;

	if (!rlink_up(cl->link))
		return (-1);
	cluster_keep_args(cl, id, &a);
	w = snprintf(val, sizeof val, "%s record ", cl->inst);
	if ((f = match_keep_record_fmt(r, val + w, sizeof val - (size_t)w)) ==
	    -1)
		return (-1);
	argv[0] = "2";
	argv[1] = a.kowner;
	argv[2] = a.kmatch;
	argv[3] = a.argv[3];
	argv[4] = a.argv[4];
	argv[5] = val;
	argv[6] = a.id;
	return (cluster_keep_eval(cl, CLUSTER_LUA_SAVE, NULL, NULL, 7, argv,
	    NULL));
}

/*
 * A record of a match no longer here is committed (or never will be):
 * the record kept in its place goes, if it is still this node's.
 */
void
cluster_keep_settled(void *arg, uint64_t id, unsigned game)
{
	struct cluster	*cl = arg;

	(void)game;
	if (!cl->lobby->keep || cl->drain >= CLUSTER_DRAIN_GIVEN ||
	    cl->stopping)
		return;
	cluster_keep_drop(cl, id);
}

/*
 * Forget a match in Redis; cut off from it, when it joins again (else the
 * match would be taken up again, once this instance is seen dead).
 */
static void
cluster_keep_drop(struct cluster *cl, uint64_t id)
{
	struct cluster_keep_args	 a;
	uint64_t			*ended;
	size_t				 cap;

	if (rlink_up(cl->link)) {
		cluster_keep_args(cl, id, &a);
		a.argv[5] = a.id;
		if (cluster_keep_eval(cl, CLUSTER_LUA_DROP, NULL, NULL, 6,
		    a.argv, NULL) == 0)
			return;
	}
	if (cl->nended == cl->ended_cap) {
		cap = cl->ended_cap != 0 ? cl->ended_cap * 2 : 64;
		if ((ended = realloc(cl->ended, cap * sizeof *ended)) == NULL)
			return;
		cl->ended = ended;
		cl->ended_cap = cap;
	}
	cl->ended[cl->nended++] = id;
}

/* Joined again: the matches that ended meanwhile, forgotten in Redis. */
void
cluster_keep_forget_ended(struct cluster *cl)
{
	size_t	i, n = cl->nended;

	cl->nended = 0;
	for (i = 0; i < n; i++)
		cluster_keep_drop(cl, cl->ended[i]);
}

/* Orphaned matches in Redis (a node died or drained): take some up. */
void
cluster_keep_adopt(struct cluster *cl)
{
	char		 kor[CLUSTER_PREFIX_MAX + 16], count[16];
	const char	*argv[] = { "1", kor, cl->prefix, cl->inst, count };

	if (cl->adopting || cl->drain != CLUSTER_DRAIN_NONE || !cl->joined ||
	    !rlink_up(cl->link))
		return;
	snprintf(kor, sizeof kor, "%sorphans", cl->prefix);
	snprintf(count, sizeof count, "%d", CLUSTER_KEEP_TAKE);
	if (cluster_keep_eval(cl, CLUSTER_LUA_ADOPT, cluster_keep_adopted, cl,
	    5, argv, NULL) == 0)
		cl->adopting = 1;
}

static void
cluster_keep_adopted(void *arg, redisReply *r)
{
	struct cluster	*cl = arg;
	const char	*dead;
	size_t		 i;

	cl->adopting = 0;
	if (r == NULL || r->type != REDIS_REPLY_ARRAY || r->elements == 0) {
		if (r != NULL && r->type == REDIS_REPLY_ERROR) {
			log_warn("node %s: taking matches up: %s", cl->node,
			    r->str);
			if (strncmp(r->str, "NOSCRIPT", 8) == 0)
				cl->lua[CLUSTER_LUA_ADOPT].sha[0] = '\0';
		}
		return;
	}
	if (r->element[0]->type != REDIS_REPLY_STRING ||
	    r->element[0]->len != CLUSTER_INST_LEN)
		return;
	dead = r->element[0]->str;
	if (cl->drain != CLUSTER_DRAIN_NONE)
		return;		/* they are this instance's: given with it */
	for (i = 1; i < r->elements; i++) {
		if (r->element[i]->type == REDIS_REPLY_STRING)
			cluster_keep_take_up(cl, dead, r->element[i]->str,
			    r->element[i]->len);
	}
	if (r->elements > 1)
		log_info("node %s: took up %zu match%s of node %s",
		    cl->node, r->elements - 1, r->elements == 2 ? "" : "es",
		    cluster_base_node_of(cl, dead));
	cl->unsettled_until = cl->lobby->ops->now() + CLUSTER_SETTLE_MS;
	/* More of them, or of another: at once. */
	if (r->elements > 1 || cl->orphans > 0)
		cluster_keep_adopt(cl);
	cl->host.flush(cl->host.arg);
}

/*
 * A match read back from Redis is not taken up: logged the first time for
 * each reason (whoever writes to Redis could fill the log otherwise), its
 * bytes made printable.
 */
static void
cluster_keep_refused(struct cluster *cl, const char *dead, const char *buf,
    enum match_keep_error why)
{
	char	safe[256];

	if (cl->keep_refused_logged & (1u << why))
		return;
	cl->keep_refused_logged |= 1u << why;
	log_warn("node %s: a match of instance %s not taken up: %s (once for "
	    "this reason): %s", cl->node, printable(dead, strlen(dead), safe,
	    64), match_keep_strerror(why), printable(buf, strlen(buf),
	    safe + 64, sizeof safe - 64));
}

/* "<id> <owner> <home> <home> <image>": the match here now. */
static void
cluster_keep_take_up(struct cluster *cl, const char *dead, const char *s,
    size_t len)
{
	struct match_keep	 k;
	struct match		*m;
	struct client		*c[2];
	struct evbuffer		*kept[2];
	char			 buf[MATCH_KEEP_MAX + 160];
	char			 home[2][CLUSTER_INST_LEN + 24];
	uint64_t		 id;
	enum match_keep_error	 why;
	int			 n = 0, i;

	if (len >= sizeof buf)
		return;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (sscanf(buf, "%" SCNu64 " %*16s %n", &id, &n) == 1 && n != 0 &&
	    strncmp(buf + n, "record ", 7) == 0) {
		cluster_keep_take_record(cl, dead, buf, id, buf + n + 7);
		return;
	}
	n = 0;
	if (sscanf(buf, "%" SCNu64 " %*16s %39s %39s %n", &id, home[0],
	    home[1], &n) != 3 || n == 0) {
		cluster_keep_refused(cl, dead, buf, MATCH_KEEP_ESYNTAX);
		return;
	}
	if (match_keep_parse(buf + n, &k, &why) == -1) {
		cluster_keep_refused(cl, dead, buf, why);
		return;
	}
	k.id = id;
	if ((m = match_keep_restore(cl->lobby, &k, &why)) == NULL) {
		cluster_keep_refused(cl, dead, buf, why);
		return;
	}
	for (i = 0; i < 2; i++)
		c[i] = cluster_keep_plug(cl, m, i, home[i], dead,
		    k.seat[i].token != 0 ? k.seat[i].token : k.seat[i].used,
		    &kept[i]);
	/*
	 * Only now is a player told its opponent is away: the one whose node
	 * died (a live one was plugged back above, and is not "back").
	 */
	for (i = 0; i < 2; i++)
		resume_tell_away(m, i);
	if (m->pending.game != 0)
		lobby_record_taken(cl->lobby, m);	/* written once, here */
	/*
	 * Both seats back: the lines of this node's players the dead node
	 * never answered run now, in order, then those held meanwhile.
	 */
	for (i = 0; i < 2; i++) {
		if (c[i] == NULL)
			continue;
		cluster_relay_settle(c[i], kept[i], 1);
		client_release(c[i], CLIENT_HOLD_TAKEUP);
	}
}

/*
 * "record <record>": a rated record whose match ended on the dead node
 * before its commit, this node's now: written once, then forgotten
 * (cluster_keep_settled).
 */
static void
cluster_keep_take_record(struct cluster *cl, const char *dead,
    const char *buf, uint64_t id, const char *line)
{
	struct match_record	r;
	enum match_keep_error	why;

	if (match_keep_record_parse(line, &r, &why) == -1) {
		cluster_keep_refused(cl, dead, buf, why);
		cluster_keep_drop(cl, id);
		return;
	}
	lobby_record_orphaned(cl->lobby, id, &r);
}

/*
 * A seat of a match taken up, whose player is connected to a live node:
 * this one (relayed to the dead owner), or another (a remote seat here,
 * its node told to relay here: T).  It resumes its seat at once and sees
 * its match as after a RESUME; whether its opponent is away, the caller
 * says once both seats are plugged.  A player of this node is returned,
 * with the lines it relayed that the dead node never answered (kept, the
 * caller's to run).
 */
static struct client *
cluster_keep_plug(struct cluster *cl, struct match *m, int seat,
    const char *home, const char *dead, uint64_t key, struct evbuffer **kept)
{
	struct cluster_local	*l;
	struct cluster_remote	*r;
	struct client		*c;
	char			 inst[CLUSTER_INST_LEN + 1];
	uint64_t		 id;

	*kept = NULL;
	if (key == 0 || sscanf(home, "%16[0-9a-f]:%" SCNu64, inst, &id) != 2 ||
	    strcmp(inst, dead) == 0)
		return (NULL);		/* away: it comes back with RESUME */
	if (strcmp(inst, cl->inst) == 0) {
		if ((l = cluster_base_local_find(cl, id)) == NULL ||
		    strcmp(l->owner, dead) != 0)
			return (NULL);
		c = l->c;
		*kept = cluster_relay_take(l);
		cluster_relay_back(cl, l, CLUSTER_KEPT_DROP);
		resume_take_quiet(c, m, seat, key);
		return (c);
	} else {
		if (cluster_seat_remote_find(cl, inst, id) != NULL ||
		    (r = cluster_seat_remote_new(cl, inst, id, "-", NULL)) ==
		    NULL)
			return (NULL);
		cluster_base_send(cl, inst, 'T', id, dead, CLUSTER_INST_LEN);
		c = &r->c;
	}
	resume_take_quiet(c, m, seat, key);
	return (NULL);
}

/* T: this node's relayed player's match was taken up by another node. */
void
cluster_keep_on_taken(struct cluster *cl, const char *from, uint64_t id,
    const char *dead)
{
	struct cluster_local	*l = cluster_base_local_find(cl, id);
	struct client		*c;
	char			 rest[16];

	if (l == NULL || strcmp(l->owner, dead) != 0) {
		/* Gone meanwhile (or elsewhere): its seat there is a lost one. */
		snprintf(rest, sizeof rest, "%d %d", (int)PROTO_LEAVE_DROP, 1);
		cluster_base_send(cl, from, 'D', id, rest, strlen(rest));
		return;
	}
	c = l->c;
	log_info("client %llu: its match is on node %s now",
	    (unsigned long long)c->id, cluster_base_node_of(cl, from));
	snprintf(l->owner, sizeof l->owner, "%s", from);
	l->orphan_until = 0;
	cluster_relay_resend(cl, l);	/* what the dead node never answered */
	client_release(c, CLIENT_HOLD_TAKEUP);
}
