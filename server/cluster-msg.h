/*
 * cluster-msg.h -- a message from another node (docs/cluster.md),
 * parsed and checked before any handler sees it: "<type> <instance>
 * <id>[ <rest>]", and the rest as its type has it.  Whoever can write to
 * the shared Redis can publish one, so the names, addresses and lines in
 * it are held to the rules a player's are.  No Redis, no libevent: the
 * daemon (cluster.c) and the fuzzer call it alike.
 */
#ifndef CLUSTER_MSG_H
#define CLUSTER_MSG_H

#include <stddef.h>
#include <stdint.h>

#include "cluster.h"
#include "proto.h"

#define CLUSTER_ADDR_MAX	63	/* bytes of a player's address */

/* Why a message is refused. */
enum cluster_msg_error {
	CLUSTER_MSG_OK,
	CLUSTER_MSG_EHEAD,	/* no type, instance and id */
	CLUSTER_MSG_EFORM,	/* the rest not as its type has it */
	CLUSTER_MSG_ENAME,	/* a name NAME would refuse */
	CLUSTER_MSG_EADDR,	/* an address not printable, or too long */
	CLUSTER_MSG_ELINE,	/* a line a player could not type or get */
	CLUSTER_MSG_NERRORS
};

/*
 * A seat's player as S and X name it: "<name>[ #<account>:<rating>]", the
 * account and rating a signed-in player's on its node (0: a guest).
 */
struct cluster_who {
	char		 name[PROTO_NAME_MAX + 1];
	int64_t		 account;
	int		 rating;
};
#define CLUSTER_RATING_MAX	100000	/* a rating's digits, at most */

struct cluster_msg {
	char		 type;
	char		 from[CLUSTER_INST_LEN + 1];
	uint64_t	 id;
	const char	*rest;		/* in the message, NUL-ended */
	size_t		 len;
};

/* A line of another node's live matches (Redis <prefix>games:<inst>). */
int		 cluster_msg_game_parse(const char *, size_t,
		    struct lobby_game *);
int		 cluster_msg_parse(const char *, size_t, struct cluster_msg *,
		     enum cluster_msg_error *);
const char	*cluster_msg_strerror(enum cluster_msg_error);
enum cluster_msg_error cluster_msg_who(const char *, size_t,
		    struct cluster_who *);

#endif /* CLUSTER_MSG_H */
