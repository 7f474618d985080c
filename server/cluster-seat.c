/*
 * cluster-seat.c -- a match's players on two nodes.  On the match's node
 * a player of another node is a remote seat: a struct client whose ops
 * publish its lines (L), close it (C), or hand it back to its node (H).
 * On the player's node it is relayed: its checked lines go to the match's
 * node (I), its refusals come back from there in turn (E), its end is
 * told (D).  Either side out of reach: the other lets go.
 */
#include <sys/queue.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <time.h>
#include <event2/buffer.h>
#include <event2/event.h>
#include <hiredis/hiredis.h>

#include "cluster-int.h"
#include "cluster-msg.h"
#include "cmd.h"
#include "conn.h"
#include "lobby.h"
#include "log.h"
#include "match.h"
#include "mix.h"
#include "name.h"
#include "session.h"

static uint64_t	cluster_remote_key(const char *, uint64_t);
static void	cluster_remote_send(struct client *, const char *, size_t);
static void	cluster_remote_close(struct client *);
static int	cluster_remote_home(struct client *, int);
static void	cluster_remote_rearm(struct client *, int64_t);
static void	cluster_remote_timer_cb(evutil_socket_t, short, void *);
static void	cluster_lines(struct client *, const char *, size_t);

static const struct client_ops cluster_remote_ops = {
	cluster_remote_send,
	cluster_remote_close,
	cluster_remote_rearm,
	cluster_remote_home,
	NULL			/* its node holds its lines */
};

/* A connection is freed: whatever this node kept of it goes. */
void
cluster_seat_forget(void *arg, struct client *c)
{
	struct cluster		*cl = arg;
	struct cluster_local	*l = cluster_base_local_find(cl, c->id);

	if (l != NULL)
		cluster_base_local_del(cl, l);
}

static uint64_t
cluster_remote_key(const char *home, uint64_t id)
{
	return (mix64(strtoull(home, NULL, 16) ^ mix64(id)));
}

struct cluster_remote *
cluster_seat_remote_find(struct cluster *cl, const char *home, uint64_t id)
{
	struct cluster_remote	*r;

	r = keytab_find(&cl->remotes, cluster_remote_key(home, id));
	if (r == NULL || r->home_id != id || strcmp(r->home, home) != 0)
		return (NULL);
	return (r);
}

/*
 * A seat here for a player of node home (its client id, address, name and
 * account: who, NULL for none yet).
 */
struct cluster_remote *
cluster_seat_remote_new(struct cluster *cl, const char *home, uint64_t id,
    const char *addr, const struct cluster_who *who)
{
	const char		*name = who != NULL ? who->name : "";
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
	/* For the log: where it is ("127.0.0.1:4711 on node b"). */
	if (strcmp(addr, "-") == 0)
		snprintf(r->c.addr, sizeof r->c.addr, "node %s",
		    cluster_base_node_of(cl, home));
	else
		snprintf(r->c.addr, sizeof r->c.addr, "%s on node %s", addr,
		    cluster_base_node_of(cl, home));
	ratelimit_init(&r->c.rate, lobby->limits.burst, lobby->ops->now());
	r->c.abuse = r->c.rate;
	if (who != NULL && who->account != 0) {
		r->c.account_id = who->account;	/* rated as its node says */
		r->c.rated = 1;
		r->c.rating = who->rating;
	}
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
void
cluster_seat_remote_done(struct cluster_remote *r)
{
	static const struct timeval now_tv = { 0, 0 };

	r->done = 1;
	r->c.flags |= CLIENT_CLOSING;
	keytab_del(&r->cl->remotes, &r->entry);
	evtimer_add(r->timer, &now_tv);
}

void
cluster_seat_remote_free(struct cluster_remote *r)
{
	struct cluster	*cl = r->cl;

	if (r->c.place != PLACE_GONE)
		cmd_detach(&r->c, PROTO_LEAVE_DROP, 0);
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

	if (r->done || r->cl->drain >= CLUSTER_DRAIN_GIVEN)
		return;			/* drained: another node has it */
	evbuffer_add(r->out, buf, len);
	cluster_seat_remote_due(r);
}

/* Its lines, or the ack of its node's items, go at the callback's end. */
void
cluster_seat_remote_due(struct cluster_remote *r)
{
	if (r->dirty || r->done || r->cl->drain >= CLUSTER_DRAIN_GIVEN)
		return;
	r->dirty = 1;
	TAILQ_INSERT_TAIL(&r->cl->dirty, r, dirty_entry);
}

/*
 * A remote seat's lines wait until released (a rated game's RESULT
 * leaves once its record is committed, as a player's here); counted.
 */
void
cluster_seat_hold_out(struct client *c)
{
	((struct cluster_remote *)c)->holds++;
}

/* Released: its lines go at the callback's end once nothing holds them. */
void
cluster_seat_release_out(struct client *c)
{
	struct cluster_remote	*r = (struct cluster_remote *)c;

	if (r->holds > 0 && --r->holds == 0)
		cluster_seat_remote_due(r);
}

/* Publish one remote seat's lines: to its node, for its connection. */
void
cluster_seat_remote_flush(struct cluster_remote *r)
{
	struct cluster	*cl = r->cl;
	size_t		 len = evbuffer_get_length(r->out);

	char			 ack[24];
	int			 n;

	if (r->dirty) {
		r->dirty = 0;
		TAILQ_REMOVE(&cl->dirty, r, dirty_entry);
	}
	if (len == 0 && r->in_seq == r->acked)
		return;
	/* "<ack> <lines>": the last item of its node run here. */
	n = snprintf(ack, sizeof ack, "%" PRIu64 " ", r->in_seq);
	evbuffer_prepend(r->out, ack, (size_t)n);
	len += (size_t)n;
	cluster_base_send(cl, r->home, 'L', r->home_id,
	    (const char *)evbuffer_pullup(r->out, -1), len);
	evbuffer_drain(r->out, len);
	r->acked = r->in_seq;
}

/*
 * The end of a callback: publish what the remote seats were sent, but not
 * before Redis has taken their match's save (one to be written, or written
 * again after an error: they wait), as the players here are corked.
 */
void
cluster_seat_flush(struct cluster *cl)
{
	struct cluster_remote	*r, *next;

	for (r = TAILQ_FIRST(&cl->dirty); r != NULL; r = next) {
		next = TAILQ_NEXT(r, dirty_entry);
		if (r->holds > 0 || (rlink_up(cl->link) &&
		    (r->save_seq > cl->saves_acked || (r->c.match != NULL &&
		    r->c.match->touched))))
			continue;
		cluster_seat_remote_flush(r);
		next = TAILQ_FIRST(&cl->dirty);	/* the list may change */
	}
}

/* Its close op: its node closes the connection after the lines sent. */
static void
cluster_remote_close(struct client *c)
{
	struct cluster_remote	*r = (struct cluster_remote *)c;

	if (r->done)
		return;
	if (r->cl->drain >= CLUSTER_DRAIN_GIVEN) {
		cluster_seat_remote_done(r);
		return;
	}
	cluster_seat_remote_flush(r);
	cluster_base_send(r->cl, r->home, 'C', r->home_id, NULL, 0);
	cluster_seat_remote_done(r);
}

/*
 * Its home op: back to its node, which queues it (at the front, for one
 * whose opponent walked away) and says WAIT, or lets it be (a watcher
 * whose match ended).
 */
static int
cluster_remote_home(struct client *c, int where)
{
	struct cluster_remote	*r = (struct cluster_remote *)c;
	char			 rest[PROTO_NAME_MAX + 3];
	int			 n;

	if (r->cl->drain >= CLUSTER_DRAIN_GIVEN)
		return (0);
	cluster_seat_remote_flush(r);
	n = snprintf(rest, sizeof rest, "%d %s", where, c->name);
	cluster_base_send(r->cl, r->home, 'H', r->home_id, rest, (size_t)n);
	cmd_detach(c, PROTO_LEAVE_QUIT, 0);
	cluster_seat_remote_done(r);
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
		cluster_seat_remote_free(r);
		cl->host.flush(cl->host.arg);
		return;
	}
	if (cl->drain >= CLUSTER_DRAIN_GIVEN)
		return;			/* drained: its clocks run elsewhere */
	conn_timer(&r->c);
	cluster_remote_rearm(&r->c, client_deadline(&r->c));
	cl->host.flush(cl->host.arg);
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
void
cluster_seat_on_owner(struct cluster *cl, char type, const char *from,
    uint64_t id, const char *rest, size_t len)
{
	struct cluster_local	*l = cluster_base_local_find(cl, id);
	struct client		*c;
	uint64_t		 ack;
	char			*end;
	int			 where;

	/* Asking, it may hear from the node that has what it asked for. */
	if (l == NULL || (strcmp(l->owner, from) != 0 &&
	    !(l->asking && !l->naming && type != 'H' && type != 'M')))
		return;
	c = l->c;
	if (l->asking && type == 'C') {
		l->asking = 0;		/* and closed: its lines wait no more */
		client_release(c, CLIENT_HOLD_ASK);
	}
	switch (type) {
	case 'L':
		/* "<ack> <lines>": its items up to ack were run there. */
		ack = strtoull(rest, &end, 10);
		if (*end != ' ')
			break;
		if (strcmp(l->owner, from) == 0)
			cluster_relay_acked(cl, l, ack);
		len -= (size_t)(end + 1 - rest);
		cluster_lines(c, end + 1, len);
		break;
	case 'C':
		cluster_relay_back(cl, l, CLUSTER_KEPT_DROP);
		cmd_detach(c, PROTO_LEAVE_QUIT, 0);
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
		cluster_relay_back(cl, l, CLUSTER_KEPT_REFUSE);
		if (len < 2 || rest[1] != ' ')
			break;
		where = rest[0] - '0';
		rest += 2;
		len -= 2;
		/* Renamed there: the name here too, if it is free here. */
		if (len <= PROTO_NAME_MAX && (len != strlen(c->name) ||
		    memcmp(c->name, rest, len) != 0)) {
			char	name[PROTO_NAME_MAX + 1];

			memcpy(name, rest, len);
			name[len] = '\0';
			if (name_allowed(cl->lobby, c, name))
				name_take(c, name);
		}
		if (where == CLIENT_HOME_FRONT)
			lobby_join_front(cl->lobby, c);
		else if (where == CLIENT_HOME_BACK)
			lobby_join(cl->lobby, c);
		break;			/* FREE: its next command says */
	}
}

/* I, E, D: from the node of a remote seat here. */
void
cluster_seat_on_home(struct cluster *cl, char type, const char *from,
    uint64_t id, const char *rest, size_t len)
{
	struct cluster_remote	*r = cluster_seat_remote_find(cl, from, id);
	int			 why = 0, hold = 0, err;
	uint64_t		 seq;
	char			 buf[PROTO_OUT_MAX], *end;

	if (r == NULL || r->done)
		return;
	if (type == 'I' || type == 'E') {
		/* "<seq> <line or error>": answered, and the seq acked. */
		seq = strtoull(rest, &end, 10);
		if (*end != ' ' || seq <= r->in_seq)
			return;		/* run already (sent again) */
		r->in_seq = seq;
		len -= (size_t)(end + 1 - rest);
		rest = end + 1;
		if (type == 'I')
			session_line(&r->c, rest, len);
		else if ((err = (int)strtol(rest, NULL, 10)) > PROTO_OK &&
		    err < PROTO_NERRORS)
			client_send(&r->c, buf, proto_fmt_error(buf,
			    sizeof buf, (enum proto_error)err));
		cluster_seat_remote_due(r);
		return;
	}
	if (sscanf(rest, "%d %d", &why, &hold) != 2 || why < 0 ||
	    why > PROTO_LEAVE_TIMEOUT)
		why = PROTO_LEAVE_DROP;
	log_info("client %llu: %s (%s) left", (unsigned long long)r->c.id,
	    r->c.name[0] != '\0' ? r->c.name : "no name", r->c.addr);
	r->done = 1;			/* nothing more reaches it */
	cmd_detach(&r->c, (enum proto_leave)why, hold);
	cluster_seat_remote_done(r);
}

/*
 * The relayed players whose match's node is not live (NULL: Redis is
 * gone) lose it: at once without Redis, else unless a live node takes
 * the match up within CLUSTER_ADOPT_WAIT_MS (cluster-keep.c).  Their ids first: queueing one may pair it, and free entries
 * of the list.
 */
void
cluster_seat_lost_owners(struct cluster *cl, const redisReply *live)
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
		    !cluster_base_live(live, l->owner)))
			ids[n++] = l->c->id;
	}
	for (i = 0; i < n; i++) {
		if ((l = cluster_base_local_find(cl, ids[i])) == NULL ||
		    l->owner[0] == '\0' || l->orphan_until != 0)
			continue;
		if (live == NULL || !(l->c->ops->hold != NULL)) {
			cluster_seat_lost_owner(cl, l);
			continue;
		}
		/* Dead: a live node takes its match up (T), or it is lost. */
		l->orphan_until = cl->lobby->ops->now() + CLUSTER_ADOPT_WAIT_MS;
		client_hold(l->c, CLIENT_HOLD_TAKEUP);
	}
	free(ids);
}

/*
 * The node of these relayed players' matches gives them to the others
 * (G: it drains): their lines wait for the node that takes each up (T).
 */
void
cluster_seat_hold_relayed(struct cluster *cl, const char *inst)
{
	struct cluster_local	*l;

	LIST_FOREACH(l, &cl->all_locals, all_entry) {
		if (strcmp(l->owner, inst) != 0 || l->orphan_until != 0 ||
		    l->c->ops->hold == NULL)
			continue;
		l->orphan_until = cl->lobby->ops->now() + CLUSTER_ADOPT_WAIT_MS;
		client_hold(l->c, CLIENT_HOLD_TAKEUP);
	}
}

/* A relayed player's match is out of reach: told, and queued here. */
void
cluster_seat_lost_owner(struct cluster *cl, struct cluster_local *l)
{
	struct client	*c = l->c;
	char		 buf[PROTO_OUT_MAX];

	l->orphan_until = 0;
	client_release(c, CLIENT_HOLD_TAKEUP);

	log_warn("client %llu: its match's node %s is out of reach",
	    (unsigned long long)c->id, cluster_base_node_of(cl, l->owner));
	client_send(c, buf, proto_fmt_info(buf, sizeof buf,
	    "Lost touch with your match's server."));
	cluster_relay_back(cl, l, CLUSTER_KEPT_REFUSE);
	lobby_join(cl->lobby, c);
}

/* A remote seat's node is out of reach: a lost connection. */
void
cluster_seat_lost_home(struct cluster_remote *r)
{
	log_warn("client %llu: %s (%s): its node is out of reach",
	    (unsigned long long)r->c.id, r->c.name[0] != '\0' ? r->c.name :
	    "no name", r->c.addr);
	r->done = 1;
	cmd_detach(&r->c, PROTO_LEAVE_DROP, 1);
	cluster_seat_remote_done(r);
}
