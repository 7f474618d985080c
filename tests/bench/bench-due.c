/*
 * bench-due.c -- a binary min-heap of due times: push and pop in
 * O(log n), no allocation after bench_due_init.
 */
#include <stdlib.h>

#include "bench-due.h"

static void	bench_due_swap(struct bench_dueq *, int, int);

/* Room for cap entries; 0, or -1 when out of memory. */
int
bench_due_init(struct bench_dueq *q, int cap)
{
	q->len = 0;
	q->cap = cap;
	q->v = calloc((size_t)(cap > 0 ? cap : 1), sizeof *q->v);
	return (q->v == NULL ? -1 : 0);
}

/* Free the entries. */
void
bench_due_free(struct bench_dueq *q)
{
	free(q->v);
	q->v = NULL;
	q->len = q->cap = 0;
}

/* Exchange two entries. */
static void
bench_due_swap(struct bench_dueq *q, int i, int j)
{
	struct bench_due	t = q->v[i];

	q->v[i] = q->v[j];
	q->v[j] = t;
}

/* Add connection idx, due at a time; -1 when full. */
int
bench_due_push(struct bench_dueq *q, int idx, int64_t at)
{
	int	i, parent;

	if (q->len == q->cap)
		return (-1);
	i = q->len++;
	q->v[i].at = at;
	q->v[i].idx = idx;
	while (i > 0) {
		parent = (i - 1) / 2;
		if (q->v[parent].at <= q->v[i].at)
			break;
		bench_due_swap(q, i, parent);
		i = parent;
	}
	return (0);
}

/* The earliest due time, or INT64_MAX when there is none. */
int64_t
bench_due_next(const struct bench_dueq *q)
{
	return (q->len > 0 ? q->v[0].at : INT64_MAX);
}

/* Take out an entry due by now: its connection, or -1 if none is due. */
int
bench_due_pop(struct bench_dueq *q, int64_t now)
{
	int	idx, i = 0, l, r, m;

	if (q->len == 0 || q->v[0].at > now)
		return (-1);
	idx = q->v[0].idx;
	q->v[0] = q->v[--q->len];
	for (;;) {
		l = 2 * i + 1;
		r = l + 1;
		m = i;
		if (l < q->len && q->v[l].at < q->v[m].at)
			m = l;
		if (r < q->len && q->v[r].at < q->v[m].at)
			m = r;
		if (m == i)
			break;
		bench_due_swap(q, i, m);
		i = m;
	}
	return (idx);
}
