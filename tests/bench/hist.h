/*
 * hist.h -- a latency histogram with log-linear buckets, HDR-like: values
 * below 256 are exact, above that each power of two is split into 128
 * buckets, so a bucket is under 0.8% wide.  Recording a value costs an
 * increment and never allocates.
 */
#ifndef HIST_H
#define HIST_H

#include <stdint.h>

#define HIST_SUB_BITS	7
#define HIST_SUB	(1 << HIST_SUB_BITS)	/* buckets per power of two */
#define HIST_TOP_BITS	40			/* values up to 2^40 - 1 */
#define HIST_NBUCKETS	(2 * HIST_SUB + \
			    (HIST_TOP_BITS - HIST_SUB_BITS - 1) * HIST_SUB)

struct hist {
	uint64_t	count;
	uint64_t	min;
	uint64_t	max;
	uint64_t	buckets[HIST_NBUCKETS];
};

void		hist_init(struct hist *);
void		hist_record(struct hist *, uint64_t);
uint64_t	hist_percentile(const struct hist *, double);

#endif /* HIST_H */
