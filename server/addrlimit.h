/*
 * addrlimit.h -- a slow token bucket per peer address (IPv4, or IPv6 /64),
 * for guesses at secrets (RESUME's tokens, ROOM JOIN's codes).  Each
 * address has its own: one address that guesses wrong never limits
 * another.
 */
#ifndef ADDRLIMIT_H
#define ADDRLIMIT_H

#include <sys/queue.h>

#include <stddef.h>
#include <stdint.h>

#include "addrtab.h"

struct addrlimit_entry;
LIST_HEAD(addrlimit_bucket, addrlimit_entry);
TAILQ_HEAD(addrlimit_list, addrlimit_entry);

struct addrlimit {
	struct addrlimit_bucket	*buckets;
	size_t			 nbuckets;	/* a power of two */
	size_t			 n;		/* records held */
	size_t			 max;
	struct addrlimit_list	 byage;		/* oldest try first */
	uint64_t		 hashkey;
	unsigned		 burst;
	int64_t			 every_ms;	/* one token back each */
};

int	addrlimit_init(struct addrlimit *, size_t, unsigned, int64_t,
	    uint64_t);
void	addrlimit_free(struct addrlimit *);
int	addrlimit_ready(struct addrlimit *, const struct addrkey *, int64_t);
int	addrlimit_held(const struct addrlimit *, const struct addrkey *,
	    int64_t);
int	addrlimit_take(struct addrlimit *, const struct addrkey *, int64_t);

#endif /* ADDRLIMIT_H */
