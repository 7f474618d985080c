/*
 * hist.c -- the log-linear latency histogram.
 *
 * A value v of 256 or more has its highest set bit at msb >= 8; shifted
 * right by msb - 7 it lies in [128, 255].  Its bucket is that shifted value
 * within the group of 128 buckets of its power of two, and the bucket
 * spans 2^(msb - 7) values, less than 1/128 of v.
 */
#include <string.h>

#include "hist.h"

static unsigned	hist_index(uint64_t);
static uint64_t	hist_high(unsigned);

/* Start empty. */
void
hist_init(struct hist *h)
{
	memset(h, 0, sizeof *h);
}

/* The bucket of a value (clamped to the largest one). */
static unsigned
hist_index(uint64_t v)
{
	unsigned	msb, shift;

	if (v >= (1ULL << HIST_TOP_BITS))
		v = (1ULL << HIST_TOP_BITS) - 1;
	if (v < 2 * HIST_SUB)
		return ((unsigned)v);
	msb = 63 - (unsigned)__builtin_clzll(v);
	shift = msb - HIST_SUB_BITS;
	return (2 * HIST_SUB + (shift - 1) * HIST_SUB +
	    (unsigned)((v >> shift) - HIST_SUB));
}

/* The largest value a bucket holds. */
static uint64_t
hist_high(unsigned i)
{
	unsigned	shift;
	uint64_t	top;

	if (i < 2 * HIST_SUB)
		return (i);
	shift = (i - 2 * HIST_SUB) / HIST_SUB + 1;
	top = (i - 2 * HIST_SUB) % HIST_SUB + HIST_SUB;
	return (((top + 1) << shift) - 1);
}

/* Count one value. */
void
hist_record(struct hist *h, uint64_t v)
{
	if (h->count == 0 || v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	h->count++;
	h->buckets[hist_index(v)]++;
}

/*
 * The value at or below which the fraction p (0..1) of the values lie: the
 * top of its bucket, at most the largest value seen; 0 when empty.
 */
uint64_t
hist_percentile(const struct hist *h, double p)
{
	uint64_t	rank, seen = 0, v;
	unsigned	i;

	if (h->count == 0)
		return (0);
	rank = (uint64_t)(p * (double)h->count + 0.999999);
	if (rank < 1)
		rank = 1;
	if (rank > h->count)
		rank = h->count;
	for (i = 0; i < HIST_NBUCKETS; i++) {
		seen += h->buckets[i];
		if (seen >= rank)
			break;
	}
	v = hist_high(i);
	if (v > h->max)
		v = h->max;
	if (v < h->min)
		v = h->min;
	return (v);
}
