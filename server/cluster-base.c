/*
 * cluster-base.c -- what every part of the cluster uses: a message out to
 * a node (or to all), and this node's entries of its players (posted to
 * the shared queue, asking the other nodes, or relayed to one).
 */
#include <sys/queue.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <hiredis/hiredis.h>

#include "cluster-int.h"
#include "rlink.h"

/* Publish on a channel: the type, this node, the id, the rest. */
void
cluster_base_send_to(struct cluster *cl, const char *channel, char type,
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
void
cluster_base_send(struct cluster *cl, const char *inst, char type, uint64_t id,
    const char *rest, size_t len)
{
	char	channel[CLUSTER_PREFIX_MAX + 32];

	snprintf(channel, sizeof channel, "%sto:%s", cl->prefix, inst);
	cluster_base_send_to(cl, channel, type, id, rest, len);
}

/*
 * The node an instance is, for the log: its name ("b"), or, before a
 * beat has told it (or for an instance no longer live), "instance <id>".
 */
const char *
cluster_base_node_of(const struct cluster *cl, const char *inst)
{
	static char	buf[CLUSTER_INST_LEN + 16];
	size_t		k;

	if (strcmp(inst, cl->inst) == 0)
		return (cl->node);
	for (k = 0; k < cl->nnames; k++) {
		if (strcmp(cl->names[k].inst, inst) == 0)
			return (cl->names[k].node);
	}
	snprintf(buf, sizeof buf, "instance %.16s", inst);
	return (buf);
}

/*
 * A player as S and X name it (cluster_msg_who): its name, and a signed-in
 * one's account and rating, so that the match's node rates its games.
 */
int
cluster_base_who(const struct client *c, char *buf, size_t size)
{
	if (c->account_id == 0 || c->name[0] == '\0')
		return (snprintf(buf, size, "%s", c->name));
	return (snprintf(buf, size, "%s #%lld:%d", c->name,
	    (long long)c->account_id, c->rating < 0 ? 0 : c->rating));
}

struct cluster_local *
cluster_base_local_find(struct cluster *cl, uint64_t id)
{
	return (keytab_find(&cl->locals, id));
}

struct cluster_local *
cluster_base_local_add(struct cluster *cl, struct client *c)
{
	struct cluster_local	*l;

	if ((l = cluster_base_local_find(cl, c->id)) != NULL)
		return (l);
	if ((l = calloc(1, sizeof *l)) == NULL)
		return (NULL);
	l->c = c;
	keytab_add(&cl->locals, &l->entry, c->id, l);
	LIST_INSERT_HEAD(&cl->all_locals, l, all_entry);
	return (l);
}

void
cluster_base_local_del(struct cluster *cl, struct cluster_local *l)
{
	keytab_del(&cl->locals, &l->entry);
	LIST_REMOVE(l, all_entry);
	if (l->kept != NULL)
		evbuffer_free(l->kept);
	free(l);
}

int
cluster_base_live(const redisReply *r, const char *inst)
{
	size_t	i;

	for (i = 0; i < r->elements; i++) {
		if (r->element[i]->type == REDIS_REPLY_STRING &&
		    strcmp(r->element[i]->str, inst) == 0)
			return (1);
	}
	return (0);
}
