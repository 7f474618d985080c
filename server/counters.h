/*
 * counters.h -- the server's counters by name, as STATS reports them.
 */
#ifndef COUNTERS_H
#define COUNTERS_H

#include <stddef.h>

#define COUNTERS_MAX	32	/* room for every counter */

struct lobby;

/*
 * One counter: its name in STAT lines, its value now, and whether it is a
 * gauge (a number of things now) or a count since start (/metrics says).
 */
struct counter {
	const char		*name;
	unsigned long long	 value;
	int			 gauge;	/* goes up and down (else only up) */
};

size_t	counters_get(const struct lobby *, struct counter *, size_t);
long long counters_started(const struct lobby *);

#endif /* COUNTERS_H */
