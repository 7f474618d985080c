/*
 * test_ratelimit.c -- the token bucket: bursts, refill, caps, odd clocks.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>

#include <cmocka.h>

#include "ratelimit.h"

/* Take as many as the bucket gives at one instant. */
static int
drain(struct ratelimit *rl, unsigned rate, unsigned burst, int64_t now)
{
	int	n = 0;

	while (ratelimit_take(rl, rate, burst, now) && n < 1000000)
		n++;
	return (n);
}

/* A full bucket gives its burst at once, then nothing. */
static void
test_burst(void **state)
{
	struct ratelimit	rl;

	(void)state;
	ratelimit_init(&rl, 100, 5000);
	assert_int_equal(drain(&rl, 50, 100, 5000), 100);
	assert_int_equal(ratelimit_take(&rl, 50, 100, 5000), 0);
}

/* Refill is exact: 50/s is one token every 20 ms, fractions kept. */
static void
test_refill(void **state)
{
	struct ratelimit	rl;
	int64_t			t;
	int			n = 0;

	(void)state;
	ratelimit_init(&rl, 100, 0);
	drain(&rl, 50, 100, 0);
	assert_int_equal(ratelimit_take(&rl, 50, 100, 19), 0);
	assert_int_equal(ratelimit_take(&rl, 50, 100, 20), 1);
	assert_int_equal(ratelimit_take(&rl, 50, 100, 20), 0);
	/* Asking every ms for 10 s yields exactly 500 more. */
	for (t = 21; t <= 10020; t++)
		n += ratelimit_take(&rl, 50, 100, t);
	assert_int_equal(n, 500);
}

/* A long pause fills the bucket to the burst, no more. */
static void
test_cap(void **state)
{
	struct ratelimit	rl;

	(void)state;
	ratelimit_init(&rl, 10, 0);
	drain(&rl, 5, 10, 0);
	assert_int_equal(drain(&rl, 5, 10, INT64_C(1) << 50), 10);
	assert_int_equal(drain(&rl, 5, 10, 1000 + (INT64_C(1) << 50)), 5);
}

/* A clock going back refills nothing and breaks nothing. */
static void
test_clock_backwards(void **state)
{
	struct ratelimit	rl;

	(void)state;
	ratelimit_init(&rl, 2, 10000);
	assert_int_equal(drain(&rl, 1, 2, 10000), 2);
	assert_int_equal(drain(&rl, 1, 2, 0), 0);
	assert_int_equal(drain(&rl, 1, 2, 10999), 0);
	assert_int_equal(drain(&rl, 1, 2, 11000), 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_burst),
		cmocka_unit_test(test_refill),
		cmocka_unit_test(test_cap),
		cmocka_unit_test(test_clock_backwards),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
