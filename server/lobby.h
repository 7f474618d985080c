/*
 * lobby.h -- the game world: the queue of waiting players, the live
 * matches, the random source, and the ops through which it talks.
 */
#ifndef LOBBY_H
#define LOBBY_H

#include <sys/queue.h>

#include <stddef.h>
#include <stdint.h>

#include "client.h"

struct match;
TAILQ_HEAD(match_list, match);

/* How the game logic reaches a connection; provided by the transport. */
struct lobby_ops {
	/* Queue bytes for the client. */
	void	(*send)(struct client *, const char *, size_t);
	/* Flush what was queued, then close the connection. */
	void	(*close)(struct client *);
};

struct lobby {
	const struct lobby_ops	*ops;
	uint64_t		 rng;		/* xorshift64* state */
	uint64_t		 next_match_id;
	struct client_list	 queue;		/* FIFO of waiting players */
	struct match_list	 matches;
	unsigned		 nqueued;
};

void	lobby_init(struct lobby *, const struct lobby_ops *, uint64_t);
void	lobby_free(struct lobby *);
void	lobby_join(struct lobby *, struct client *);
void	lobby_leave(struct lobby *, struct client *);
int	lobby_coin(struct lobby *);

#endif /* LOBBY_H */
