/*
 * backoff.h -- when ttt-client tries to reconnect after losing the
 * connection: at once, then after 0.25, 0.5, 1, 2 and every 4 seconds, as
 * long as a try can still reach the server within the grace period it
 * keeps the seat for (tttd --resume-grace).
 *
 * Pure functions on a caller's struct; times are milliseconds on any clock
 * that only goes forward.
 */
#ifndef BACKOFF_H
#define BACKOFF_H

#define BACKOFF_FIRST_MS	250	/* the wait after the first failure */
#define BACKOFF_MAX_MS		4000	/* the longest wait */
#define BACKOFF_MARGIN_MS	1000	/* no try starts this close to the end */

struct backoff {
	long	end;		/* the grace period's end */
	long	last;		/* the last moment a try may start */
	long	next;		/* when the next try is due */
	int	tries;		/* failed tries so far */
};

void	backoff_start(struct backoff *, long, long);
long	backoff_wait(const struct backoff *, long);
long	backoff_left(const struct backoff *, long);
int	backoff_failed(struct backoff *, long);

#endif /* BACKOFF_H */
