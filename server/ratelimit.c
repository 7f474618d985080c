/*
 * ratelimit.c -- a token bucket in integer arithmetic.
 *
 * The bucket holds up to burst tokens and refills at rate tokens a second;
 * each event takes one.  Tokens are counted in thousandths so that a
 * refill every millisecond adds exactly rate of them.
 */
#include "ratelimit.h"

/* A full bucket at time now (ms). */
void
ratelimit_init(struct ratelimit *rl, unsigned burst, int64_t now)
{
	rl->tokens = (int64_t)burst * 1000;
	rl->last = now;
}

/*
 * Take a token at time now: 1 if there was one, 0 if the bucket is empty.
 * A clock that goes backwards refills nothing.
 */
int
ratelimit_take(struct ratelimit *rl, unsigned rate, unsigned burst,
    int64_t now)
{
	int64_t	max = (int64_t)burst * 1000;

	if (now > rl->last) {
		/* Cap the gap first: a long-idle bucket is simply full. */
		if (now - rl->last >= max / (rate > 0 ? rate : 1) + 1)
			rl->tokens = max;
		else
			rl->tokens += (now - rl->last) * rate;
		if (rl->tokens > max)
			rl->tokens = max;
		rl->last = now;
	}
	if (rl->tokens < 1000)
		return (0);
	rl->tokens -= 1000;
	return (1);
}

/*
 * The same for slow rates: one token every every_ms, in bursts of at most
 * burst (SAY: 5 at once, then one every 2 s).
 */
int
ratelimit_take_every(struct ratelimit *rl, int64_t every_ms, unsigned burst,
    int64_t now)
{
	int64_t	max = (int64_t)burst * 1000, add;

	if (now > rl->last) {
		/*
		 * Only the time that earned whole thousandths is used up, so
		 * that frequent calls lose no fraction of a token.
		 */
		add = now - rl->last >= every_ms * burst ? max :
		    (now - rl->last) * 1000 / every_ms;
		rl->tokens += add;
		rl->last += add * every_ms / 1000;
		if (rl->tokens >= max) {
			rl->tokens = max;
			rl->last = now;
		}
	}
	if (rl->tokens < 1000)
		return (0);
	rl->tokens -= 1000;
	return (1);
}
