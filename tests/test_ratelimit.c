/*
 * test_ratelimit.c -- the token bucket: bursts, refill, caps, odd clocks.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>

#include <cmocka.h>

#include "ratelimit.h"

static int	drain(struct ratelimit *, unsigned, unsigned, int64_t);
static int	drain_every(struct ratelimit *, int64_t, unsigned, int64_t);

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

/* Take as many as the slow bucket gives at one instant. */
static int
drain_every(struct ratelimit *rl, int64_t every_ms, unsigned burst,
    int64_t now)
{
	int	n = 0;

	while (ratelimit_take_every(rl, every_ms, burst, now) && n < 1000000)
		n++;
	return (n);
}

/* SAY's bucket: 5 at once, then one every 2 s, exactly. */
static void
test_every_burst_then_one_per_period(void **state)
{
	struct ratelimit	rl;

	(void)state;
	ratelimit_init(&rl, 5, 1000);
	assert_int_equal(drain_every(&rl, 2000, 5, 1000), 5);
	assert_int_equal(ratelimit_take_every(&rl, 2000, 5, 1000), 0);
	assert_int_equal(ratelimit_take_every(&rl, 2000, 5, 2000), 0);
	assert_int_equal(ratelimit_take_every(&rl, 2000, 5, 3000), 1);
	assert_int_equal(ratelimit_take_every(&rl, 2000, 5, 3000), 0);
	assert_int_equal(ratelimit_take_every(&rl, 2000, 5, 4000), 0);
	assert_int_equal(ratelimit_take_every(&rl, 2000, 5, 5000), 1);
	/* Two periods unasked: two tokens. */
	assert_int_equal(drain_every(&rl, 2000, 5, 9000), 2);
}

/* A long idle refills the bucket to its burst, and no more. */
static void
test_every_long_idle_refills_fully(void **state)
{
	struct ratelimit	rl;

	(void)state;
	ratelimit_init(&rl, 5, 0);
	assert_int_equal(drain_every(&rl, 2000, 5, 0), 5);
	assert_int_equal(drain_every(&rl, 2000, 5, 8000), 4);
	assert_int_equal(drain_every(&rl, 2000, 5, 8000 + 10000), 5);
	assert_int_equal(drain_every(&rl, 2000, 5, INT64_C(1) << 50), 5);
	/* RESUME's bucket: 5, then one every 10 s. */
	ratelimit_init(&rl, 5, 0);
	assert_int_equal(drain_every(&rl, 10000, 5, 0), 5);
	assert_int_equal(drain_every(&rl, 10000, 5, 3600 * 1000), 5);
	assert_int_equal(drain_every(&rl, 10000, 5, 3600 * 1000 + 5000), 0);
	assert_int_equal(drain_every(&rl, 10000, 5, 3600 * 1000 + 10000), 1);
}

/* A clock going back refills nothing, and the bucket goes on after. */
static void
test_every_clock_backwards(void **state)
{
	struct ratelimit	rl;

	(void)state;
	ratelimit_init(&rl, 5, 100000);
	assert_int_equal(drain_every(&rl, 2000, 5, 100000), 5);
	assert_int_equal(drain_every(&rl, 2000, 5, 0), 0);
	assert_int_equal(drain_every(&rl, 2000, 5, 50000), 0);
	assert_int_equal(drain_every(&rl, 2000, 5, 101000), 0);
	assert_int_equal(drain_every(&rl, 2000, 5, 102000), 1);
}

/*
 * Asking a moment too early must not delay the next token: a SAY refused
 * at 1999 ms into the period leaves the token due at 2000 ms.
 */
static void
test_every_asking_early_does_not_delay(void **state)
{
	struct ratelimit	rl;

	(void)state;
	ratelimit_init(&rl, 5, 0);
	assert_int_equal(drain_every(&rl, 2000, 5, 0), 5);
	assert_int_equal(ratelimit_take_every(&rl, 2000, 5, 1999), 0);
	assert_int_equal(ratelimit_take_every(&rl, 2000, 5, 2000), 1);
	assert_int_equal(ratelimit_take_every(&rl, 2000, 5, 3999), 0);
	assert_int_equal(ratelimit_take_every(&rl, 2000, 5, 4000), 1);
	/* RESUME's bucket, one every 10 s. */
	ratelimit_init(&rl, 5, 0);
	assert_int_equal(drain_every(&rl, 10000, 5, 0), 5);
	assert_int_equal(ratelimit_take_every(&rl, 10000, 5, 9999), 0);
	assert_int_equal(ratelimit_take_every(&rl, 10000, 5, 10000), 1);
}

/*
 * Calls at odd intervals: the fraction of a token each one earns is kept,
 * not rounded away.  Asked every 3 ms with a token every 2000 ms, the
 * first token is due at 2000 ms, so the call at 2001 ms gets it; and over
 * 60 s exactly 30 come in.  The same with a token every 10 s asked every
 * 7 ms (RESUME's rate).
 */
static void
test_every_fractions_accumulate(void **state)
{
	static const struct {
		int64_t	every_ms, step_ms;
	} cases[] = {
		{ 2000, 3 }, { 2000, 1 }, { 2000, 7 }, { 10000, 7 },
		{ 10000, 3 }, { 3000, 1999 },
	};
	struct ratelimit	rl;
	int64_t			t, first, every, step;
	size_t			i;
	int			n;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		every = cases[i].every_ms;
		step = cases[i].step_ms;
		ratelimit_init(&rl, 5, 0);
		assert_int_equal(drain_every(&rl, every, 5, 0), 5);
		first = 0;
		n = 0;
		for (t = step; t <= 30 * every; t += step) {
			if (ratelimit_take_every(&rl, every, 5, t)) {
				if (n++ == 0)
					first = t;
			}
		}
		/* The first call at or after every_ms gets the token. */
		if (first < every || first >= every + step)
			fail_msg("every %lld ms, asked every %lld ms: first "
			    "token at %lld ms, want the first call at or "
			    "after %lld ms", (long long)every, (long long)step,
			    (long long)first, (long long)every);
		/* One per period, none lost to rounding. */
		if (n < 29 || n > 30)
			fail_msg("every %lld ms, asked every %lld ms: %d "
			    "tokens in %lld ms, want 30", (long long)every,
			    (long long)step, n, (long long)(30 * every));
	}
}

/*
 * Asking whether a token is there takes none, however often, and asking
 * early does not put the next one off.
 */
static void
test_every_ready_takes_nothing(void **state)
{
	struct ratelimit	rl;
	int64_t			t;

	(void)state;
	ratelimit_init(&rl, 5, 0);
	for (t = 0; t < 1000; t++)
		assert_int_equal(ratelimit_ready_every(&rl, 10, 5, t), 1);
	assert_int_equal(drain_every(&rl, 10, 5, 1000), 5);
	assert_int_equal(ratelimit_ready_every(&rl, 10, 5, 1000), 0);
	for (t = 1000; t < 1010; t++)
		assert_int_equal(ratelimit_ready_every(&rl, 10, 5, t), 0);
	assert_int_equal(ratelimit_ready_every(&rl, 10, 5, 1010), 1);
	assert_int_equal(ratelimit_ready_every(&rl, 10, 5, 1010), 1);
	assert_int_equal(drain_every(&rl, 10, 5, 1010), 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_burst),
		cmocka_unit_test(test_refill),
		cmocka_unit_test(test_cap),
		cmocka_unit_test(test_clock_backwards),
		cmocka_unit_test(test_every_burst_then_one_per_period),
		cmocka_unit_test(test_every_long_idle_refills_fully),
		cmocka_unit_test(test_every_clock_backwards),
		cmocka_unit_test(test_every_asking_early_does_not_delay),
		cmocka_unit_test(test_every_fractions_accumulate),
		cmocka_unit_test(test_every_ready_takes_nothing),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
