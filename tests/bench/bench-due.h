/*
 * bench-due.h -- ttt-bench's timers: connections due at a time, in a
 * binary min-heap of fixed size that holds one entry per connection at
 * most, and can take a connection's entry out again.
 */
#ifndef BENCH_DUE_H
#define BENCH_DUE_H

#include <stdint.h>

struct bench_due {
	int64_t		at;
	int		idx;		/* the connection */
};

struct bench_dueq {
	struct bench_due	*v;
	int			*pos;	/* by connection: its entry's place
					   in v plus 1, or 0 */
	int			 len;
	int			 cap;	/* connections 0 to cap - 1 */
};

int	bench_due_init(struct bench_dueq *, int);
void	bench_due_free(struct bench_dueq *);
int	bench_due_push(struct bench_dueq *, int, int64_t);
void	bench_due_cancel(struct bench_dueq *, int);
int64_t	bench_due_next(const struct bench_dueq *);
int	bench_due_pop(struct bench_dueq *, int64_t);

#endif /* BENCH_DUE_H */
