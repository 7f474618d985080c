/*
 * clock.h -- a player's clock: the time it has to move, to answer AGAIN?,
 * or to say something while it waits in the queue.
 */
#ifndef CLOCK_H
#define CLOCK_H

#include <stdint.h>

#include "client.h"

/* A clock with no end of its own: only its warning (the offer) is due. */
#define CLOCK_NEVER	(INT64_MAX / 4)

/* What clock_due found: nothing yet, the early word, or the end. */
enum clock_due {
	CLOCK_DUE_NONE = 0,
	CLOCK_DUE_WARN,
	CLOCK_DUE_OUT
};

void	clock_start(struct client *, enum client_clock);
void	clock_resume(struct client *, enum client_clock, int64_t);
void	clock_stop(struct client *);
void	clock_cap(struct client *, int64_t);
void	clock_rewarn(struct client *, int64_t);
int64_t	clock_turn_left(const struct client *);
enum clock_due clock_due(struct client *, int64_t, enum client_clock *,
	    int64_t *);

#endif /* CLOCK_H */
