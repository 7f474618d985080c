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

void	clock_start(struct client *, enum client_clock);
void	clock_resume(struct client *, enum client_clock, int64_t);
void	clock_stop(struct client *);
int64_t	clock_turn_left(const struct client *);
int64_t	clock_next(const struct client *);
void	clock_expire(struct client *, int64_t);

#endif /* CLOCK_H */
