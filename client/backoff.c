/*
 * backoff.c -- the schedule of ttt-client's reconnection tries: the first
 * at once, each later one after twice the wait of the one before, up to
 * BACKOFF_MAX_MS, none after the grace period's end minus a margin for the
 * connection itself.
 */
#include "backoff.h"

/* The connection was lost at now; the server keeps the seat grace_ms. */
void
backoff_start(struct backoff *b, long now, long grace_ms)
{
	long	margin = BACKOFF_MARGIN_MS;

	if (grace_ms < 0)
		grace_ms = 0;
	if (margin > grace_ms / 2)
		margin = grace_ms / 2;	/* a short grace keeps half */
	b->end = now + grace_ms;
	b->last = b->end - margin;
	b->next = now;
	b->tries = 0;
}

/* Milliseconds until the next try is due: 0 if it is due now. */
long
backoff_wait(const struct backoff *b, long now)
{
	return (b->next > now ? b->next - now : 0);
}

/* Milliseconds left of the grace period (0 once it is over). */
long
backoff_left(const struct backoff *b, long now)
{
	return (b->end > now ? b->end - now : 0);
}

/*
 * A try that started before now has failed: schedule the next one.  0, or
 * -1 when no try may start any more.
 */
int
backoff_failed(struct backoff *b, long now)
{
	long	wait = BACKOFF_FIRST_MS;
	int	i;

	for (i = 0; i < b->tries && wait < BACKOFF_MAX_MS; i++)
		wait *= 2;
	if (wait > BACKOFF_MAX_MS)
		wait = BACKOFF_MAX_MS;
	b->tries++;
	b->next = now + wait;
	return (b->next > b->last ? -1 : 0);
}
