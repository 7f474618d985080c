/*
 * cluster-account.c -- accounts across the nodes (issue 27): a sign-in
 * here is told to every node (U), where a connection signed in as the
 * same account is taken over as by a LOGIN there; and a remote seat's new
 * rating (a rated game here) is told to its node (W), which pairs its
 * player by it.  docs/cluster.md has the messages.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster-int.h"
#include "cluster-msg.h"
#include "lobby.h"

/* A player signed in here: every other node hears it (U). */
void
cluster_account_signed_in(void *arg, struct client *c)
{
	struct cluster	*cl = arg;
	char		 all[CLUSTER_PREFIX_MAX + 8], rest[32];
	int		 n;

	if (c->account_id <= 0 || (c->flags & CLIENT_REMOTE))
		return;
	snprintf(all, sizeof all, "%sall", cl->prefix);
	n = snprintf(rest, sizeof rest, "%" PRId64, c->account_id);
	cluster_base_send_to(cl, all, 'U', c->id, rest, (size_t)n);
}

/* U: an account signed in on another node; taken over here, if here. */
void
cluster_account_on_signed_in(struct cluster *cl, const char *from,
    const char *rest)
{
	int64_t	id = (int64_t)strtoll(rest, NULL, 10);

	if (strcmp(from, cl->inst) == 0 || id <= 0)
		return;
	LOBBY_RAISE(cl->lobby, signed_in_elsewhere, id);
}

/* A remote seat's rating changed here: its node hears it (W). */
void
cluster_account_rated(void *arg, struct client *c)
{
	struct cluster		*cl = arg;
	struct cluster_remote	*r;
	char			 rest[48];
	int			 n;

	if (!(c->flags & CLIENT_REMOTE) || !c->rated || c->account_id <= 0 ||
	    c->rating < 0 || c->rating > CLUSTER_RATING_MAX)
		return;
	r = (struct cluster_remote *)c;
	if (r->done)
		return;
	n = snprintf(rest, sizeof rest, "%" PRId64 " %d", c->account_id,
	    c->rating);
	cluster_base_send(cl, r->home, 'W', r->home_id, rest, (size_t)n);
}

/*
 * W from a relayed player's match's node: its new rating, if it is still
 * signed in as that account here.
 */
void
cluster_account_on_rated(struct cluster *cl, const char *from, uint64_t id,
    const char *rest)
{
	struct cluster_local	*l = cluster_base_local_find(cl, id);
	char			*end;
	int64_t			 account;
	long			 rating;

	if (l == NULL || strcmp(l->owner, from) != 0)
		return;
	account = (int64_t)strtoll(rest, &end, 10);
	rating = strtol(end, NULL, 10);
	if (account <= 0 || l->c->account_id != account)
		return;
	lobby_rated(cl->lobby, l->c, 1, (int)rating);
}
