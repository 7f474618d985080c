/*
 * test_hist.c -- ttt-bench's latency histogram: exact small values, under
 * 1% error above, percentiles by rank, heaps of due times (one entry a
 * connection, cancellable).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "bench-due.h"
#include "hist.h"

/* Every value alone comes back within 1% (exactly below 256). */
static void
test_hist_error(void **state)
{
	struct hist	*h = malloc(sizeof *h);
	uint64_t	 v, got;

	(void)state;
	assert_non_null(h);
	for (v = 1; v < (1ULL << 36); v += v / 37 + 1) {
		hist_init(h);
		hist_record(h, v);
		got = hist_percentile(h, 0.5);
		if (v < 256)
			assert_int_equal(got, v);
		assert_true(got >= v && got - v <= v / 100);
	}
	free(h);
}

/* Percentiles go by rank: 1..1000 recorded once each. */
static void
test_hist_rank(void **state)
{
	struct hist	*h = malloc(sizeof *h);
	uint64_t	 v, got;
	static const struct {
		double		p;
		uint64_t	want;
	} cases[] = {
		{ 0.50, 500 }, { 0.90, 900 }, { 0.99, 990 }, { 0.999, 999 },
		{ 1.0, 1000 }, { 0.0, 1 },
	};
	size_t		 i;

	(void)state;
	assert_non_null(h);
	hist_init(h);
	assert_int_equal(hist_percentile(h, 0.5), 0);
	for (v = 1; v <= 1000; v++)
		hist_record(h, v);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		got = hist_percentile(h, cases[i].p);
		assert_true(got >= cases[i].want &&
		    got - cases[i].want <= cases[i].want / 100);
	}
	assert_int_equal(h->max, 1000);
	assert_int_equal(h->min, 1);
	free(h);
}

/* Huge values are clamped into the last bucket, max is kept exact. */
static void
test_hist_huge(void **state)
{
	struct hist	*h = malloc(sizeof *h);

	(void)state;
	assert_non_null(h);
	hist_init(h);
	hist_record(h, UINT64_MAX);
	assert_int_equal(h->max, UINT64_MAX);
	assert_true(hist_percentile(h, 0.5) >= (1ULL << 39));
	free(h);
}

/* The heap gives entries back in time order, only once due. */
static void
test_due_order(void **state)
{
	struct bench_dueq	q;
	static const int64_t	at[] = { 50, 10, 40, 10, 30, 20, 60 };
	int64_t			last = 0;
	int			i, idx;

	(void)state;
	assert_int_equal(bench_due_init(&q, 7), 0);
	for (i = 0; i < 7; i++)
		assert_int_equal(bench_due_push(&q, i, at[i]), 0);
	assert_int_equal(bench_due_push(&q, 7, 1), -1);	/* no such one */
	assert_int_equal(bench_due_next(&q), 10);
	assert_int_equal(bench_due_pop(&q, 9), -1);
	for (i = 0; i < 7; i++) {
		idx = bench_due_pop(&q, 100);
		assert_true(idx >= 0 && idx < 7);
		assert_true(at[idx] >= last);
		last = at[idx];
	}
	assert_int_equal(bench_due_pop(&q, 100), -1);
	assert_int_equal(bench_due_next(&q), INT64_MAX);
	bench_due_free(&q);
}

/*
 * One entry per connection: a second push keeps the earlier time, and a
 * cancelled connection is not given back.
 */
static void
test_due_cancel(void **state)
{
	struct bench_dueq	q;
	int			i;

	(void)state;
	assert_int_equal(bench_due_init(&q, 5), 0);
	for (i = 0; i < 5; i++)
		assert_int_equal(bench_due_push(&q, i, 10 * (i + 1)), 0);
	assert_int_equal(bench_due_push(&q, 4, 5), 0);	/* earlier: moved */
	assert_int_equal(bench_due_push(&q, 0, 99), 0);	/* later: kept */
	assert_int_equal(q.len, 5);
	bench_due_cancel(&q, 1);
	bench_due_cancel(&q, 1);			/* not there: nothing */
	assert_int_equal(bench_due_next(&q), 5);
	assert_int_equal(bench_due_pop(&q, 100), 4);
	assert_int_equal(bench_due_pop(&q, 100), 0);
	assert_int_equal(bench_due_pop(&q, 100), 2);
	assert_int_equal(bench_due_pop(&q, 100), 3);
	assert_int_equal(bench_due_pop(&q, 100), -1);
	assert_int_equal(bench_due_push(&q, 1, 7), 0);	/* again after */
	assert_int_equal(bench_due_pop(&q, 100), 1);
	bench_due_free(&q);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_hist_error),
		cmocka_unit_test(test_hist_rank),
		cmocka_unit_test(test_hist_huge),
		cmocka_unit_test(test_due_order),
		cmocka_unit_test(test_due_cancel),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
