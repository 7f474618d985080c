/*
 * cluster-relay.c -- a relayed player's lines, each answered once.  On
 * the player's node each line relayed to its match's node (I), and each
 * refusal sent there to come back in turn (E), is numbered and kept until
 * that node's answer says it ran it (the number in L, published only once
 * Redis has taken the match's save).  When the match's node dies before
 * answering, the kept lines are sent again to the node that takes the
 * match up (T), or run here when this node takes it up; a match that is
 * lost (nobody takes it up, its player sent back to the queue) gets them
 * refused.  Meanwhile a player whose line has waited a second is told.
 */
#include <sys/queue.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>

#include "cluster-int.h"
#include "lobby.h"
#include "log.h"
#include "place.h"
#include "session.h"

/* One kept item in l->kept: this, then len bytes (a line, or an error). */
struct cluster_kept {
	uint64_t	seq;
	uint32_t	len;
	char		type;		/* 'I' or 'E' */
};

static void	cluster_relay_keep(struct cluster *, struct cluster_local *,
		    char, uint64_t, const char *, size_t);
static int	cluster_kept_next(struct evbuffer *, struct cluster_kept *,
		    char *, size_t);
static void	cluster_relay_refuse(struct client *, const char *, size_t);

/* A checked line of a relayed player: to its match's node, and kept. */
void
cluster_relay(void *arg, struct client *c, const char *line, size_t len)
{
	struct cluster		*cl = arg;
	struct cluster_local	*l = cluster_base_local_find(cl, c->id);

	if (l == NULL || l->owner[0] == '\0')
		return;
	if (len > 0 && line[len - 1] == '\r')
		len--;
	cluster_relay_keep(cl, l, 'I', ++l->relay_seq, line, len);
	cluster_relay_send(cl, l, 'I', l->relay_seq, line, len);
}

/* A refusal for a relayed player: from its match's node, in turn (E). */
void
cluster_relay_error(void *arg, struct client *c, enum proto_error err)
{
	struct cluster		*cl = arg;
	struct cluster_local	*l = cluster_base_local_find(cl, c->id);
	char			 code[16];
	int			 n;

	if (l == NULL || l->owner[0] == '\0')
		return;
	n = snprintf(code, sizeof code, "%d", (int)err);
	cluster_relay_keep(cl, l, 'E', ++l->relay_seq, code, (size_t)n);
	cluster_relay_send(cl, l, 'E', l->relay_seq, code, (size_t)n);
}

/* An item to the match's node: "<seq> <line or error>". */
void
cluster_relay_send(struct cluster *cl, struct cluster_local *l, char type,
    uint64_t seq, const char *p, size_t len)
{
	char	rest[24 + PROTO_SCAN_MAX];
	int	n;

	n = snprintf(rest, sizeof rest, "%" PRIu64 " ", seq);
	if (len > sizeof rest - (size_t)n)
		len = sizeof rest - (size_t)n;
	memcpy(rest + n, p, len);
	cluster_base_send(cl, l->owner, type, l->c->id, rest, (size_t)n + len);
}

/* Keep an item until its match's node says it ran it (a bound on them). */
static void
cluster_relay_keep(struct cluster *cl, struct cluster_local *l, char type,
    uint64_t seq, const char *p, size_t len)
{
	struct cluster_kept	k = { seq, (uint32_t)len, type };

	if (l->nkept >= CLUSTER_KEPT_MAX) {
		log_warn("client %llu: %u lines unanswered by its match's "
		    "node: line %" PRIu64 " not kept", (unsigned long long)
		    l->c->id, l->nkept, seq);
		return;
	}
	if (l->kept == NULL && (l->kept = evbuffer_new()) == NULL)
		return;
	if (evbuffer_add(l->kept, &k, sizeof k) == -1 ||
	    evbuffer_add(l->kept, p, len) == -1)
		return;			/* a line not kept, as over the bound */
	if (l->nkept++ == 0)
		l->kept_since = cl->lobby->ops->now();
}

/* The first kept item (its text in buf, NUL-ended): 0, or -1 if none. */
static int
cluster_kept_next(struct evbuffer *kept, struct cluster_kept *k, char *buf,
    size_t size)
{
	if (kept == NULL || evbuffer_get_length(kept) < sizeof *k ||
	    evbuffer_copyout(kept, k, sizeof *k) != (ssize_t)sizeof *k)
		return (-1);
	if (k->len >= size) {
		evbuffer_drain(kept, sizeof *k + k->len);	/* never */
		k->len = 0;
	} else {
		evbuffer_drain(kept, sizeof *k);
		evbuffer_remove(kept, buf, k->len);
	}
	buf[k->len] = '\0';
	return (0);
}

/*
 * The match's node answered up to item ack (L): those are done.  The
 * wait of those left starts again, and the player may be told again.
 */
void
cluster_relay_acked(struct cluster *cl, struct cluster_local *l, uint64_t ack)
{
	struct cluster_kept	k;

	while (l->nkept > 0 && evbuffer_copyout(l->kept, &k, sizeof k) ==
	    (ssize_t)sizeof k && k.seq <= ack) {
		evbuffer_drain(l->kept, sizeof k + k.len);
		l->nkept--;
	}
	l->kept_since = l->nkept > 0 ? cl->lobby->ops->now() : 0;
	l->slow_told = 0;
}

/* The match is on another node now (T): the kept items again, to it. */
void
cluster_relay_resend(struct cluster *cl, struct cluster_local *l)
{
	struct evbuffer		*kept = l->kept;
	struct cluster_kept	 k;
	char			 buf[PROTO_SCAN_MAX + 1];
	unsigned		 n = l->nkept;

	l->kept = NULL;
	l->nkept = 0;
	l->kept_since = 0;
	l->slow_told = 0;
	while (n-- > 0 && cluster_kept_next(kept, &k, buf, sizeof buf) == 0) {
		cluster_relay_keep(cl, l, k.type, k.seq, buf, k.len);
		cluster_relay_send(cl, l, k.type, k.seq, buf, k.len);
	}
	if (kept != NULL)
		evbuffer_free(kept);
}

/* The kept items, taken from the entry (which may go): the caller's. */
struct evbuffer *
cluster_relay_take(struct cluster_local *l)
{
	struct evbuffer	*kept = l->kept;

	l->kept = NULL;
	l->nkept = 0;
	l->kept_since = 0;
	return (kept);
}

/*
 * Items taken from a relayed player that is this node's again: run here
 * (its match was taken up here: each line as if it came now), or, its
 * match lost, refused.  A refusal made here goes as it was.  Frees kept.
 */
void
cluster_relay_settle(struct client *c, struct evbuffer *kept, int run)
{
	struct cluster_kept	k;
	char			buf[PROTO_SCAN_MAX + 1], out[PROTO_OUT_MAX];

	while (cluster_kept_next(kept, &k, buf, sizeof buf) == 0) {
		if (c->flags & CLIENT_CLOSING)
			break;
		if (k.type == 'E') {
			client_send(c, out, proto_fmt_error(out, sizeof out,
			    (enum proto_error)strtol(buf, NULL, 10)));
		} else if (run)
			session_line(c, buf, k.len);
		else
			cluster_relay_refuse(c, buf, k.len);
	}
	if (kept != NULL)
		evbuffer_free(kept);
}

/*
 * A line meant for a match that is gone: one whose answer is the same
 * anywhere (QUIT, NAME, PING, HELP, STATS, GAMES) runs here; any other
 * is refused, NO_GAME, so that it never acts where the player did not
 * mean it to (a match it is paired into next).
 */
static void
cluster_relay_refuse(struct client *c, const char *line, size_t len)
{
	struct proto_cmd	cmd;
	char			out[PROTO_OUT_MAX];

	if (proto_parse(line, len, &cmd) == PROTO_OK) {
		switch (cmd.verb) {
		case PROTO_QUIT:
		case PROTO_NAME:
		case PROTO_PING:
		case PROTO_HELP:
		case PROTO_STATS:
		case PROTO_GAMES:
			session_line(c, line, len);
			return;
		default:
			break;
		}
	}
	client_send(c, out, proto_fmt_error(out, sizeof out, PROTO_ENO_GAME));
}

/*
 * A relayed player back from its match's node: a place here again.  Its
 * items that node never ran are refused (REFUSE), or dropped (DROP: it
 * is being closed).
 */
void
cluster_relay_back(struct cluster *cl, struct cluster_local *l, int how)
{
	struct client	*c = l->c;
	struct evbuffer	*kept = cluster_relay_take(l);

	cluster_base_local_del(cl, l);
	if (c->place == PLACE_RELAY)
		place_set(c, PLACE_NONE);
	if (how == CLUSTER_KEPT_REFUSE)
		cluster_relay_settle(c, kept, 0);
	else if (kept != NULL)
		evbuffer_free(kept);
}

/* A relayed player leaves: its match's node holds its seat, or frees it. */
void
cluster_relay_end(void *arg, struct client *c, enum proto_leave why, int hold)
{
	struct cluster		*cl = arg;
	struct cluster_local	*l = cluster_base_local_find(cl, c->id);
	char			 rest[16];

	if (l == NULL)
		return;
	snprintf(rest, sizeof rest, "%d %d", (int)why, hold);
	if (l->owner[0] != '\0')
		cluster_base_send(cl, l->owner, 'D', c->id, rest, strlen(rest));
	cluster_base_local_del(cl, l);
}

/*
 * Every tick: a relayed player whose line has waited CLUSTER_SLOW_MS for
 * its match's node, or held that long for the node that takes its match
 * up, is told (once a wait).  1 if one was.
 */
int
cluster_relay_tick(struct cluster *cl, int64_t now)
{
	struct cluster_local	*l;
	char			 buf[PROTO_OUT_MAX];
	int64_t			 since;
	int			 told = 0;

	LIST_FOREACH(l, &cl->all_locals, all_entry) {
		if (l->owner[0] == '\0' || l->slow_told)
			continue;
		since = l->kept_since;
		if (l->orphan_until != 0 && (since == 0 || l->orphan_until -
		    CLUSTER_ADOPT_WAIT_MS < since))
			since = l->orphan_until - CLUSTER_ADOPT_WAIT_MS;
		if (since == 0 || now - since < CLUSTER_SLOW_MS)
			continue;
		l->slow_told = told = 1;
		client_send(l->c, buf, proto_fmt_info(buf, sizeof buf,
		    CLUSTER_SLOW_TEXT));
	}
	return (told);
}
