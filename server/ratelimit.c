/*
 * ratelimit.c -- a token bucket in integer arithmetic.
 *
 * The bucket holds up to burst tokens and earns n of them every period;
 * each event takes one.  Tokens are counted in thousandths so that a
 * refill every millisecond adds exactly n * 1000 / period of them.
 */
#include "ratelimit.h"

static void	ratelimit_refill(struct ratelimit *, int64_t, int64_t, unsigned,
		    int64_t);
static int	ratelimit_take_per(struct ratelimit *, int64_t, int64_t, unsigned,
		    int64_t);

/* A full bucket at time now (ms). */
void
ratelimit_init(struct ratelimit *rl, unsigned burst, int64_t now)
{
	rl->tokens = (int64_t)burst * 1000;
	rl->last = now;
}

/*
 * Refill at time now: the bucket earns n tokens every period_ms.  Only the
 * time that earned whole thousandths is used up, so frequent calls lose no
 * fraction of a token; a long-idle bucket is simply full.  A clock that
 * goes backwards refills nothing.
 */
static void
ratelimit_refill(struct ratelimit *rl, int64_t n, int64_t period_ms,
    unsigned burst, int64_t now)
{
	int64_t	max = (int64_t)burst * 1000, add;

	if (now <= rl->last || n <= 0)
		return;
	if (now - rl->last > period_ms * burst / n)
		add = max;
	else
		add = (now - rl->last) * n * 1000 / period_ms;
	rl->tokens += add;
	rl->last += add * period_ms / (n * 1000);
	if (rl->tokens >= max) {
		rl->tokens = max;
		rl->last = now;
	}
}

/* Take a token at time now: 1 if there was one, 0 if the bucket is empty. */
static int
ratelimit_take_per(struct ratelimit *rl, int64_t n, int64_t period_ms,
    unsigned burst, int64_t now)
{
	ratelimit_refill(rl, n, period_ms, burst, now);
	if (rl->tokens < 1000)
		return (0);
	rl->tokens -= 1000;
	return (1);
}

/* rate tokens a second, in bursts of at most burst. */
int
ratelimit_take(struct ratelimit *rl, unsigned rate, unsigned burst,
    int64_t now)
{
	return (ratelimit_take_per(rl, rate, 1000, burst, now));
}

/* Slow rates: one token every every_ms (RESUME: one every 10 s). */
int
ratelimit_take_every(struct ratelimit *rl, int64_t every_ms, unsigned burst,
    int64_t now)
{
	return (ratelimit_take_per(rl, 1, every_ms, burst, now));
}

/* Would ratelimit_take_every give a token now?  Takes none. */
int
ratelimit_ready_every(struct ratelimit *rl, int64_t every_ms, unsigned burst,
    int64_t now)
{
	ratelimit_refill(rl, 1, every_ms, burst, now);
	return (rl->tokens >= 1000);
}
