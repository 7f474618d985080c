/*
 * cluster.h -- every tttd that shares a Redis is one service (--redis):
 * the node's name, one queue for all nodes, and the players of a match
 * whose connection is on another node (remote seats), relayed both ways
 * over Redis pub/sub.  docs/cluster.md has the design.
 */
#ifndef CLUSTER_H
#define CLUSTER_H

#include <stddef.h>
#include <stdint.h>

#include "client.h"
#include "lobby.h"
#include "service.h"

#define CLUSTER_PREFIX		"tttd:"	/* default --redis-prefix */
#define CLUSTER_NODE_MAX	64	/* bytes of a node's name */
#define CLUSTER_PREFIX_MAX	32	/* bytes of --redis-prefix */
#define CLUSTER_BEAT_MS		1000	/* a node says it lives this often */
#define CLUSTER_NODE_TIMEOUT_MS	5000	/* default --node-timeout: a dead
					   node's matches are taken up within
					   this (it is dead once silent for
					   this less one beat) */
#define CLUSTER_INST_LEN	16	/* hex digits of a node's instance */
#define CLUSTER_MSG_MAX		(64 * 1024) /* bytes of one message */
#define CLUSTER_ASK_MS		500	/* RESUME, ROOM JOIN, WATCH of
					   nothing here: the other nodes'
					   answer within this, or no such */
#define CLUSTER_TICK_MS		100
#define CLUSTER_OFFER_MS	2000	/* an offer (O) unanswered this long:
					   its node died; post again */
#define CLUSTER_ID_BLOCK	1000000000ULL /* match ids of node k (its
					   start's number): k * this + n */
#define CLUSTER_ADOPT_WAIT_MS	3000	/* a relayed player whose match's
					   node died waits this long for the
					   node that takes the match up */
#define CLUSTER_SETTLE_MS	2000	/* after a death or a take-up seen,
					   a RESUME nobody answers is asked
					   again ... */
#define CLUSTER_RESUME_WAIT_MS	8000	/* ... for up to this */
#define CLUSTER_SUSPECT_MS	1500	/* a node silent this long may be
					   dying ... */
#define CLUSTER_RESUME_SURE_MS	2600	/* ... which a beat shows within
					   this of its death: a RESUME nobody
					   answers is asked again till then */

struct event_base;
struct cluster;
struct match;

struct cluster_config {
	const char	*redis_ip;	/* numeric */
	int		 redis_port;
	const char	*node;		/* its name */
	const char	*prefix;	/* of every key and channel */
	int64_t		 node_timeout;	/* ms: --node-timeout */
};

/* What the cluster needs of the daemon. */
struct cluster_host {
	/* Write out what the world sent (the end of a callback). */
	void	(*flush)(void *);
	/* Hold a player's output till the corks of this callback are due. */
	void	(*cork)(void *, struct client *);
	/* The corks of this callback's changes wait for save seq ... */
	void	(*cork_due)(void *, uint64_t);
	/* ... and let out what saves up to seq held. */
	void	(*uncork)(void *, uint64_t);
	/* Its match is another node's now: drop its output, BYE, close. */
	void	(*restart)(void *, struct client *);
	/* Draining: the matches are given (stand still), or taken (end). */
	void	(*drained)(void *, int);
	void	*arg;
};

int		 cluster_valid_name(const char *);
int		 cluster_valid_prefix(const char *);
int		 cluster_parse_addr(const char *, char *, size_t, int *);
struct cluster	*cluster_new(struct event_base *, struct lobby *,
		    const struct cluster_config *, const struct cluster_host *);
void		 cluster_service(struct cluster *, struct service *);
void		 cluster_drain(struct cluster *);
void		 cluster_seat_hold_out(struct client *);
void		 cluster_seat_release_out(struct client *);

#endif /* CLUSTER_H */
