/*
 * pairing.c -- the public queue's rule: signed-in players by rating
 * within ranges that widen with time, guests first come, first served,
 * a guest and a signed-in player when nothing else can meet.
 */
#include "pairing.h"

static int64_t	pairing_diff(const struct pairing_cand *,
		    const struct pairing_cand *);
static int	pairing_rated(const struct pairing_cand *, size_t, int64_t,
		    size_t *, size_t *);
static int	pairing_first(const struct pairing_cand *, size_t, int,
		    size_t *);

/* The distance of two ratings. */
static int64_t
pairing_diff(const struct pairing_cand *a, const struct pairing_cand *b)
{
	int64_t	d = (int64_t)a->rating - b->rating;

	return (d < 0 ? -d : d);
}

/*
 * May two signed-in players meet at now: does each one's range hold the
 * other's rating?  1 or 0; 0 for a guest.
 */
int
pairing_admits(const struct pairing_cand *a, const struct pairing_cand *b,
    int64_t now)
{
	int64_t	since = a->since > b->since ? a->since : b->since;
	int64_t	waited = now > since ? now - since : 0;

	if (!a->rated || !b->rated)
		return (0);
	return ((pairing_diff(a, b) - PAIRING_RANGE) * PAIRING_WIDEN_MS <=
	    waited);
}

/*
 * The two signed-in players who may meet and are nearest in rating; of
 * pairs as near, the one whose first has waited longest, then whose
 * second has.  1 and their indexes, or 0.
 */
static int
pairing_rated(const struct pairing_cand *c, size_t n, int64_t now,
    size_t *a, size_t *b)
{
	size_t	i, j;
	int64_t	d, best = -1;

	for (i = 0; i < n; i++) {
		for (j = i + 1; c[i].rated && j < n; j++) {
			if (!pairing_admits(&c[i], &c[j], now))
				continue;
			d = pairing_diff(&c[i], &c[j]);
			if (best == -1 || d < best) {
				best = d;
				*a = i;
				*b = j;
			}
		}
	}
	return (best != -1);
}

/* The first player from index from on who is (rated) or is not: 1, or 0. */
static int
pairing_first(const struct pairing_cand *c, size_t n, int rated, size_t *at)
{
	size_t	i;

	for (i = *at; i < n; i++) {
		if ((c[i].rated != 0) == (rated != 0)) {
			*at = i;
			return (1);
		}
	}
	return (0);
}

/*
 * Which two of the n players meet at now, a before b in the queue (a
 * plays X): 1, or 0 when none may.  First two signed-in players who
 * admit each other, nearest in rating; else the two guests who have
 * waited longest; else the one guest and the signed-in player who has
 * waited longest.
 */
int
pairing_choose(const struct pairing_cand *c, size_t n, int64_t now,
    size_t *a, size_t *b)
{
	size_t	g = 0, g2, r = 0;

	if (pairing_rated(c, n, now, a, b))
		return (1);
	if (!pairing_first(c, n, 0, &g))
		return (0);
	g2 = g + 1;
	if (pairing_first(c, n, 0, &g2)) {
		*a = g;
		*b = g2;
		return (1);
	}
	if (!pairing_first(c, n, 1, &r))
		return (0);
	*a = g < r ? g : r;
	*b = g < r ? r : g;
	return (1);
}

/*
 * When two signed-in players who may not meet at now will (the later
 * to come of the two has waited long enough): the soonest such time
 * after now, in ms, or 0 when there is none.
 */
int64_t
pairing_next(const struct pairing_cand *c, size_t n, int64_t now)
{
	size_t	i, j;
	int64_t	at, since, next = 0;

	for (i = 0; i < n; i++) {
		for (j = i + 1; c[i].rated && j < n; j++) {
			if (!c[j].rated || pairing_admits(&c[i], &c[j], now))
				continue;
			since = c[i].since > c[j].since ? c[i].since :
			    c[j].since;
			at = since + (pairing_diff(&c[i], &c[j]) -
			    PAIRING_RANGE) * PAIRING_WIDEN_MS;
			if (at > now && (next == 0 || at < next))
				next = at;
		}
	}
	return (next);
}
