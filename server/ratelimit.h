/*
 * ratelimit.h -- a token bucket: so many events a second, in bursts of at
 * most so many.
 */
#ifndef RATELIMIT_H
#define RATELIMIT_H

#include <stdint.h>

struct ratelimit {
	int64_t	tokens;		/* in thousandths of an event */
	int64_t	last;		/* ms of the last refill */
};

void	ratelimit_init(struct ratelimit *, unsigned, int64_t);
int	ratelimit_take(struct ratelimit *, unsigned, unsigned, int64_t);
int	ratelimit_take_every(struct ratelimit *, int64_t, unsigned, int64_t);
int	ratelimit_ready_every(struct ratelimit *, int64_t, unsigned, int64_t);

#endif /* RATELIMIT_H */
