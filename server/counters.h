/*
 * counters.h -- the server's counters by name, as STATS reports them.
 */
#ifndef COUNTERS_H
#define COUNTERS_H

#include <stddef.h>

#define COUNTERS_MAX	32	/* room for every counter */

struct lobby;

/* One counter: its name in STAT lines, and its value now. */
struct counter {
	const char		*name;
	unsigned long long	 value;
};

size_t	counters_get(const struct lobby *, struct counter *, size_t);

#endif /* COUNTERS_H */
