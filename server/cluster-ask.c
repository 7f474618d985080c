/*
 * cluster-ask.c -- what is on another node: a RESUME, ROOM JOIN or WATCH
 * of nothing here goes to every node (X), answered by the one that has it
 * (A, R) or by nobody; GAMES of every node (each node's list in Redis);
 * names unique in the cluster (Redis, one key a name).
 */
#include <sys/queue.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hiredis/hiredis.h>

#include "cluster-int.h"
#include "cluster-msg.h"
#include "cmd.h"
#include "lobby.h"
#include "log.h"
#include "match.h"
#include "name.h"
#include "place.h"
#include "printable.h"
#include "rlink.h"
#include "room.h"
#include "session.h"

static void	cluster_ask_done(struct cluster *, struct cluster_local *);
static int	cluster_ask_post(struct cluster *, struct cluster_local *);
static void	cluster_games_refused(struct cluster *, const char *, size_t);
static void	cluster_games_reply(void *, redisReply *);
static void	cluster_name_args(struct cluster *, const struct client *,
		    const char *, char *, size_t, char *, size_t);
static void	cluster_name_send(struct cluster *, const struct client *,
		    const char *, int, rlink_reply_cb *, void *);
static void	cluster_name_reply(void *, redisReply *);

/*
 * Nothing here for this RESUME, ROOM JOIN or WATCH: send the line to every
 * node (X); the one that has the seat, room or match takes the player (a
 * remote seat there: A), or refuses as it would (its ERR, then R); nobody
 * answering within CLUSTER_ASK_MS means there is none.  The player's next
 * lines wait meanwhile (the hold op).  A RESUME reaching a node that is
 * joining again (taken for dead, its players told to come back) waits for
 * it to be in.  1 if asked.
 */
int
cluster_ask_elsewhere(void *arg, struct client *c,
    const struct proto_cmd *cmd)
{
	struct cluster		*cl = arg;
	struct cluster_local	*l;

	if ((!cl->joined && cmd->verb != PROTO_RESUME) || !rlink_up(cl->link) ||
	    (c->place != PLACE_QUEUE && c->place != PLACE_NONE &&
	    c->place != PLACE_WATCH && c->place != PLACE_MATCH) ||
	    (l = cluster_base_local_add(cl, c)) == NULL ||
	    l->owner[0] != '\0' || l->asking)
		return (0);
	l->ask = *cmd;
	l->ask.text = NULL;
	l->ask_first = cl->lobby->ops->now();
	if (cluster_ask_post(cl, l) == -1) {
		if (!(c->flags & CLIENT_POSTED))
			cluster_base_local_del(cl, l);
		return (0);
	}
	l->asking = 1;
	client_hold(c, CLIENT_HOLD_ASK);
	return (1);
}

/* The player's ask (l->ask) to every node, answered within CLUSTER_ASK_MS. */
static int
cluster_ask_post(struct cluster *cl, struct cluster_local *l)
{
	struct client		*c = l->c;
	const struct proto_cmd	*cmd = &l->ask;
	char			 msg[256], all[CLUSTER_PREFIX_MAX + 8];
	char			 who[PROTO_NAME_MAX + 48];
	int			 n;

	cluster_base_who(c, who, sizeof who);
	switch (cmd->verb) {
	case PROTO_RESUME:
		n = snprintf(msg, sizeof msg, "%s %s\tRESUME %s", c->addr,
		    who, cmd->code);
		break;
	case PROTO_ROOM:
		n = snprintf(msg, sizeof msg, "%s %s\tROOM JOIN %s", c->addr,
		    who, cmd->code);
		break;
	case PROTO_WATCH:
		n = snprintf(msg, sizeof msg, "%s %s\tWATCH %llu", c->addr,
		    who, cmd->game);
		break;
	default:
		n = -1;
		break;
	}
	if (n < 0 || (size_t)n >= sizeof msg)
		return (-1);
	l->ask_until = cl->lobby->ops->now() + CLUSTER_ASK_MS;
	if (!cl->joined)
		return (0);	/* joining: asked again, once it is in */
	snprintf(all, sizeof all, "%sall", cl->prefix);
	cluster_base_send_to(cl, all, 'X', c->id, msg, (size_t)n);
	return (0);
}

/* The ask is over: the player's next lines go on. */
static void
cluster_ask_done(struct cluster *cl, struct cluster_local *l)
{
	struct client	*c = l->c;

	l->asking = l->naming = 0;
	if (l->owner[0] == '\0' && !(c->flags & CLIENT_POSTED))
		cluster_base_local_del(cl, l);
	if (client_release(c, CLIENT_HOLD_ASK) && c->place == PLACE_QUEUE)
		lobby_unheld(cl->lobby);	/* its turn to pair */
}

/* Nobody had it: the answer one node gives, and the wrong guess counted. */
void
cluster_ask_none(struct cluster *cl, struct cluster_local *l)
{
	struct client		*c = l->c;
	struct lobby		*lobby = cl->lobby;
	enum proto_error	 err = PROTO_ENO_SUCH_GAME;
	char			 buf[PROTO_OUT_MAX];
	int64_t			 now = lobby->ops->now();
	struct match		*m;
	int			 n;

	/* Taken up here meanwhile (this node asks nobody but the others). */
	if (l->ask.verb == PROTO_RESUME && !l->naming &&
	    resume_find(lobby, l->ask.code, &m) != -1) {
		n = snprintf(buf, sizeof buf, "RESUME %s", l->ask.code);
		cluster_ask_done(cl, l);
		session_line(c, buf, (size_t)n);
		return;
	}
	/*
	 * The seat may be in a match of a node that just died, not taken up
	 * yet: ask again until a beat would have shown such a node silent,
	 * and while one is (or its matches are being taken up), for a while,
	 * before saying there is no such seat.
	 */
	if (l->ask.verb == PROTO_RESUME && !l->naming &&
	    (now < l->ask_first + CLUSTER_RESUME_SURE_MS ||
	    (now < cl->unsettled_until &&
	    now < l->ask_first + CLUSTER_RESUME_WAIT_MS)) &&
	    cluster_ask_post(cl, l) == 0)
		return;
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
void
cluster_ask_on_ask(struct cluster *cl, const char *from, uint64_t id,
    const char *rest, size_t len)
{
	struct lobby		*lobby = cl->lobby;
	struct cluster_remote	*r;
	struct proto_cmd	 cmd;
	struct match		*m;
	struct cluster_who	 who;
	const char		*tab, *line;
	char			 addr[64];
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
	rest += strlen(addr) + 1;
	if (rest > tab || cluster_msg_who(rest, (size_t)(tab - rest), &who) !=
	    CLUSTER_MSG_OK)
		return;			/* checked before: never */
	if ((r = cluster_seat_remote_find(cl, from, id)) != NULL ||
	    (r = cluster_seat_remote_new(cl, from, id, addr, &who)) == NULL)
		return;
	log_info("client %llu: %s (%s) asks: %.*s", (unsigned long long)
	    r->c.id, r->c.name[0] != '\0' ? r->c.name : "no name", r->c.addr,
	    (int)n, line);
	session_line(&r->c, line, n);
	cluster_seat_remote_flush(r);
	if (r->done)
		return;			/* closed (its node is told) */
	if (r->c.place == PLACE_MATCH || r->c.place == PLACE_ROOM ||
	    r->c.place == PLACE_WATCH) {
		cluster_base_send(cl, from, 'A', id, NULL, 0);
		return;
	}
	cluster_base_send(cl, from, 'R', id, NULL, 0);
	cluster_seat_remote_done(r);
}

/* A, R: the node that had it took the player, or refused. */
void
cluster_ask_on_answer(struct cluster *cl, char type, const char *from,
    uint64_t id)
{
	struct cluster_local	*l = cluster_base_local_find(cl, id);
	struct client		*c;
	char			 rest[16];

	snprintf(rest, sizeof rest, "%d %d", (int)PROTO_LEAVE_DROP, 1);
	if (l == NULL || !l->asking || l->naming) {
		/* Too late (nobody, it said), or gone: its seat there is lost. */
		if (type == 'A')
			cluster_base_send(cl, from, 'D', id, rest,
			    strlen(rest));
		return;
	}
	c = l->c;
	if (type == 'R') {
		cluster_ask_done(cl, l);
		return;
	}
	/* Its place here left as for any switch (cmd_switch), and relayed. */
	snprintf(l->owner, sizeof l->owner, "%s", from);
	cmd_leave(c, PROTO_LEAVE_QUIT, 0);
	if (c->place != PLACE_NONE) {
		cluster_base_send(cl, from, 'D', id, rest, strlen(rest));
		l->owner[0] = '\0';
		cluster_ask_done(cl, l);
		return;
	}
	place_set(c, PLACE_RELAY);
	log_info("client %llu: relayed to node %s", (unsigned long long)c->id,
	    cluster_base_node_of(cl, from));
	cluster_ask_done(cl, l);
}

/* This node's live matches, for the others: "<n>\n" and a line each. */
void
cluster_ask_games_publish(struct cluster *cl)
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
	snprintf(ttl, sizeof ttl, "%lld", (long long)cl->node_timeout);
	argv[0] = "SET"; lens[0] = 3;
	argv[1] = key; lens[1] = strlen(key);
	argv[2] = buf; lens[2] = len < size ? len : size - 1;
	argv[3] = "PX"; lens[3] = 2;
	argv[4] = ttl; lens[4] = strlen(ttl);
	(void)rlink_cmd(cl->link, NULL, NULL, 5, argv, lens);
	free(buf);
}

/* The other live nodes' lists (MGET). */
void
cluster_ask_games_fetch(struct cluster *cl, const redisReply *live)
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

/*
 * A line of another node's list refused: logged the first time, its bytes
 * made printable (whoever writes to Redis could fill the log otherwise).
 */
static void
cluster_games_refused(struct cluster *cl, const char *s, size_t len)
{
	char	safe[256];

	cl->games_refused++;
	if (cl->games_refused > 1)
		return;
	log_warn("node %s: a line of another node's games refused (logged "
	    "once): %s", cl->node, printable(s, len, safe, sizeof safe));
}

/* Their lists, parsed for GAMES: at most LOBBY_GAMES_MAX matches. */
static void
cluster_games_reply(void *arg, redisReply *r)
{
	struct cluster		*cl = arg;
	struct lobby		*lobby = cl->lobby;
	struct lobby_game	*games = NULL;
	const char		*p, *lf;
	size_t			 i;
	unsigned		 n = 0, more = 0, count;

	if (r != NULL && r->type == REDIS_REPLY_ARRAY &&
	    (games = calloc(LOBBY_GAMES_MAX, sizeof *games)) != NULL) {
		for (i = 0; i < r->elements; i++) {
			if (r->element[i]->type != REDIS_REPLY_STRING ||
			    sscanf(r->element[i]->str, "%u", &count) != 1)
				continue;
			p = strchr(r->element[i]->str, '\n');
			while (p != NULL && (lf = strchr(p + 1, '\n')) !=
			    NULL && n < LOBBY_GAMES_MAX && count > 0) {
				if (cluster_msg_game_parse(p + 1, (size_t)(lf -
				    p - 1), &games[n]) == -1)
					cluster_games_refused(cl, p + 1,
					    (size_t)(lf - p - 1));
				else {
					n++;
					count--;
				}
				p = lf;
			}
			more += count;
		}
	}
	free(cl->games);
	cl->games = games;
	lobby->cluster.games = games;
	lobby->cluster.ngames = n;
	lobby->cluster.games_more = more;
}

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
	char	skel[NAME_KEY_MAX];
	size_t	n = name_keyed(cl->lobby, name, skel);

	snprintf(key, keylen, "%sname:%.*s", cl->prefix, (int)n, skel);
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
	char		 key[CLUSTER_PREFIX_MAX + NAME_KEY_MAX + 8], val[48];
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

/*
 * NAME, free on this node: ask Redis whether a player of another node has
 * it, the player's next lines held meanwhile.  1 if asked.
 */
int
cluster_ask_name_check(void *arg, struct client *c, const char *name)
{
	struct cluster		*cl = arg;
	struct cluster_local	*l;
	struct cluster_naming	*nm;

	if (!cl->joined || !rlink_up(cl->link) ||
	    (l = cluster_base_local_add(cl, c)) == NULL ||
	    l->owner[0] != '\0' || l->asking)
		return (0);
	if ((nm = malloc(sizeof *nm)) == NULL) {
		if (!(c->flags & CLIENT_POSTED))
			cluster_base_local_del(cl, l);
		return (0);
	}
	nm->cl = cl;
	nm->id = c->id;
	snprintf(nm->name, sizeof nm->name, "%s", name);
	l->asking = 1;
	l->naming = 1;
	l->ask_until = INT64_MAX;	/* the link's own deadline holds */
	client_hold(c, CLIENT_HOLD_ASK);
	cluster_name_send(cl, c, name, 1, cluster_name_reply, nm);
	return (1);
}

/* Redis's answer (NULL: out of reach; the node's word is enough then). */
static void
cluster_name_reply(void *arg, redisReply *r)
{
	struct cluster_naming	*nm = arg;
	struct cluster		*cl = nm->cl;
	struct cluster_local	*l = cluster_base_local_find(cl, nm->id);
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
cluster_ask_name_changed(void *arg, struct client *c, const char *old,
    const char *new)
{
	struct cluster		*cl = arg;
	struct cluster_remote	*r;

	if (c->flags & CLIENT_REMOTE) {
		r = (struct cluster_remote *)c;
		if (new != NULL && !r->done)
			cluster_base_send(cl, r->home, 'M', r->home_id, new,
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
