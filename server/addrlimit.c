/*
 * addrlimit.c -- a token bucket per peer address, held only while it is
 * not full.
 *
 * An address without a record has a full bucket, so a record is made at
 * an address's first take and dropped once its bucket must be full again:
 * burst * every_ms after its last take.  Records are kept in the order of
 * their last take, so the ones to drop are always at the front; they are
 * dropped on the next take, and the table never holds more than max.  At
 * max, a new address drops the oldest record early, which gives that
 * address its allowance back a little sooner and can refuse nobody.
 */
#include <stdlib.h>
#include <string.h>

#include "addrlimit.h"
#include "ratelimit.h"

struct addrlimit_entry {
	struct addrkey			 key;
	struct ratelimit		 rl;
	int64_t				 last;	/* ms of its last take */
	LIST_ENTRY(addrlimit_entry)	 chain;
	TAILQ_ENTRY(addrlimit_entry)	 age;
};

static struct addrlimit_entry *addrlimit_find(const struct addrlimit *,
		    const struct addrkey *);
static void	addrlimit_drop(struct addrlimit *, struct addrlimit_entry *);
static void	addrlimit_expire(struct addrlimit *, int64_t);

/*
 * An empty table for at most max (at least 1) addresses, each allowed
 * burst takes and one more every every_ms; -1 without memory.
 */
int
addrlimit_init(struct addrlimit *al, size_t max, unsigned burst,
    int64_t every_ms, uint64_t hashkey)
{
	size_t	i;

	if (max == 0)
		return (-1);
	for (al->nbuckets = 16; al->nbuckets < max / 2; al->nbuckets <<= 1)
		;
	al->buckets = calloc(al->nbuckets, sizeof *al->buckets);
	if (al->buckets == NULL)
		return (-1);
	for (i = 0; i < al->nbuckets; i++)
		LIST_INIT(&al->buckets[i]);
	TAILQ_INIT(&al->byage);
	al->n = 0;
	al->max = max;
	al->hashkey = hashkey;
	al->burst = burst;
	al->every_ms = every_ms;
	return (0);
}

/* Free the table and its records. */
void
addrlimit_free(struct addrlimit *al)
{
	struct addrlimit_entry	*e;

	while ((e = TAILQ_FIRST(&al->byage)) != NULL)
		addrlimit_drop(al, e);
	free(al->buckets);
	al->buckets = NULL;
	al->nbuckets = 0;
}

/* An address's record, or NULL when its bucket is full. */
static struct addrlimit_entry *
addrlimit_find(const struct addrlimit *al, const struct addrkey *k)
{
	struct addrlimit_entry	*e;

	LIST_FOREACH(e, &al->buckets[addrkey_hash(k, al->hashkey) &
	    (al->nbuckets - 1)], chain) {
		if (memcmp(&e->key, k, sizeof *k) == 0)
			return (e);
	}
	return (NULL);
}

static void
addrlimit_drop(struct addrlimit *al, struct addrlimit_entry *e)
{
	LIST_REMOVE(e, chain);
	TAILQ_REMOVE(&al->byage, e, age);
	free(e);
	al->n--;
}

/* Drop the records whose buckets have filled up by now. */
static void
addrlimit_expire(struct addrlimit *al, int64_t now)
{
	struct addrlimit_entry	*e;
	int64_t			 refill = al->every_ms * al->burst;

	while ((e = TAILQ_FIRST(&al->byage)) != NULL && now - e->last >= refill)
		addrlimit_drop(al, e);
}

/* May this address take one now?  Takes nothing, and allocates nothing. */
int
addrlimit_ready(struct addrlimit *al, const struct addrkey *k, int64_t now)
{
	struct addrlimit_entry	*e = addrlimit_find(al, k);

	if (e == NULL)
		return (1);
	return (ratelimit_ready_every(&e->rl, al->every_ms, al->burst, now));
}

/*
 * Has this address taken any lately: is its bucket not full yet?  With
 * the table full, any address counts as having taken (its record may
 * have been dropped early to make room), so that a guesser with more
 * addresses than the table holds is never taken for a new one.
 */
int
addrlimit_held(const struct addrlimit *al, const struct addrkey *k,
    int64_t now)
{
	const struct addrlimit_entry	*e = addrlimit_find(al, k);

	if (e == NULL)
		return (al->n >= al->max);
	return (now - e->last < al->every_ms * al->burst);
}

/*
 * Take one for this address: 1 if its bucket had one, 0 if not (or, for a
 * new address, when there is no memory for its record).
 */
int
addrlimit_take(struct addrlimit *al, const struct addrkey *k, int64_t now)
{
	struct addrlimit_entry	*e;

	addrlimit_expire(al, now);
	if ((e = addrlimit_find(al, k)) == NULL) {
		if (al->n >= al->max)
			addrlimit_drop(al, TAILQ_FIRST(&al->byage));
		if ((e = malloc(sizeof *e)) == NULL)
			return (0);
		e->key = *k;
		ratelimit_init(&e->rl, al->burst, now);
		LIST_INSERT_HEAD(&al->buckets[addrkey_hash(k, al->hashkey) &
		    (al->nbuckets - 1)], e, chain);
		al->n++;
	} else
		TAILQ_REMOVE(&al->byage, e, age);
	e->last = now;
	TAILQ_INSERT_TAIL(&al->byage, e, age);
	return (ratelimit_take_every(&e->rl, al->every_ms, al->burst, now));
}
