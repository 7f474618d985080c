/*
 * bench-due.c -- a binary min-heap of due times, one entry per connection
 * at most: push, pop and cancel in O(log n), no allocation after
 * bench_due_init.
 */
#include <stdlib.h>

#include "bench-due.h"

static void	bench_due_swap(struct bench_dueq *, int, int);
static void	bench_due_up(struct bench_dueq *, int);
static void	bench_due_down(struct bench_dueq *, int);
static void	bench_due_remove(struct bench_dueq *, int);

/* Room for connections 0 to cap - 1; 0, or -1 when out of memory. */
int
bench_due_init(struct bench_dueq *q, int cap)
{
	q->len = 0;
	q->cap = cap;
	q->v = calloc((size_t)(cap > 0 ? cap : 1), sizeof *q->v);
	q->pos = calloc((size_t)(cap > 0 ? cap : 1), sizeof *q->pos);
	if (q->v == NULL || q->pos == NULL) {
		bench_due_free(q);
		return (-1);
	}
	return (0);
}

/* Free the entries. */
void
bench_due_free(struct bench_dueq *q)
{
	free(q->v);
	free(q->pos);
	q->v = NULL;
	q->pos = NULL;
	q->len = q->cap = 0;
}

/* Exchange two entries. */
static void
bench_due_swap(struct bench_dueq *q, int i, int j)
{
	struct bench_due	t = q->v[i];

	q->v[i] = q->v[j];
	q->v[j] = t;
	q->pos[q->v[i].idx] = i + 1;
	q->pos[q->v[j].idx] = j + 1;
}

/* Move entry i up to its place. */
static void
bench_due_up(struct bench_dueq *q, int i)
{
	int	parent;

	while (i > 0) {
		parent = (i - 1) / 2;
		if (q->v[parent].at <= q->v[i].at)
			break;
		bench_due_swap(q, i, parent);
		i = parent;
	}
}

/* Move entry i down to its place. */
static void
bench_due_down(struct bench_dueq *q, int i)
{
	int	l, r, m;

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
}

/* Take out entry i: the last one takes its place. */
static void
bench_due_remove(struct bench_dueq *q, int i)
{
	q->pos[q->v[i].idx] = 0;
	if (i == --q->len)
		return;
	q->v[i] = q->v[q->len];
	q->pos[q->v[i].idx] = i + 1;
	bench_due_up(q, i);
	bench_due_down(q, i);
}

/*
 * Connection idx is due at a time; if it already is, at the earlier of
 * the two times.  -1 for a connection out of range.
 */
int
bench_due_push(struct bench_dueq *q, int idx, int64_t at)
{
	int	i;

	if (idx < 0 || idx >= q->cap)
		return (-1);
	if (q->pos[idx] != 0) {
		i = q->pos[idx] - 1;
		if (at < q->v[i].at) {
			q->v[i].at = at;
			bench_due_up(q, i);
		}
		return (0);
	}
	i = q->len++;
	q->v[i].at = at;
	q->v[i].idx = idx;
	q->pos[idx] = i + 1;
	bench_due_up(q, i);
	return (0);
}

/* Connection idx is no longer due (if it was). */
void
bench_due_cancel(struct bench_dueq *q, int idx)
{
	if (idx >= 0 && idx < q->cap && q->pos[idx] != 0)
		bench_due_remove(q, q->pos[idx] - 1);
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
	int	idx;

	if (q->len == 0 || q->v[0].at > now)
		return (-1);
	idx = q->v[0].idx;
	bench_due_remove(q, 0);
	return (idx);
}
