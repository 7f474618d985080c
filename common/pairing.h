/*
 * pairing.h -- who meets whom in the public queue (protocol.md §6.1).
 *
 * Pure C: no I/O, no allocation, no globals.  The caller gives the
 * players who may be paired, in the queue's order (the one who has
 * waited longest first), each a guest or signed in with its rating, and
 * the time each began to wait; pairing_choose says which two meet now,
 * pairing_next when a pair that may not meet yet will.
 *
 * A signed-in player's range is its rating ± PAIRING_RANGE at first,
 * one point wider each PAIRING_WIDEN_MS it has waited (50 a second).
 * Two signed-in players may meet when each one's range holds the
 * other's rating (lichess's pool: a pairing is refused if either
 * player's range refuses the other; its bonus for waves missed is the
 * smaller of the two players'): |a - b| <= 100 + w / 20, w the ms
 * waited by the one of them who has waited less.
 */
#ifndef PAIRING_H
#define PAIRING_H

#include <stddef.h>
#include <stdint.h>

#define PAIRING_RANGE		100	/* ± a rating, at first */
#define PAIRING_WIDEN_MS	20	/* one point wider each (50 a second) */

/* One player who may be paired. */
struct pairing_cand {
	int	rated;		/* signed in: paired by its rating */
	int	rating;		/* when rated */
	int64_t	since;		/* ms: began to wait (its WAIT) */
};

int	pairing_admits(const struct pairing_cand *,
	    const struct pairing_cand *, int64_t);
int	pairing_choose(const struct pairing_cand *, size_t, int64_t,
	    size_t *, size_t *);
int64_t	pairing_next(const struct pairing_cand *, size_t, int64_t);

#endif /* PAIRING_H */
