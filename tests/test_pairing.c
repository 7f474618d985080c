/*
 * test_pairing.c -- unit tests for the public queue's rule
 * (common/pairing.c, protocol.md §6.1): the nearest in rating, ranges
 * that must hold each other, widening with time, ties to who waited
 * longest, guests first come first served, a guest and a signed-in
 * player when nothing else can meet; and every queue of up to four
 * players of a few ratings and waits, at a few times, against a model
 * written the other way round (ranges in floating point, every pair
 * ranked).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <sys/types.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pairing.h"

#define G		{ 0, 0, 0 }		/* a guest */
#define R(r, s)		{ 1, (r), (s) }		/* signed in */
#define NONE		((size_t)-1)
#define MAX_N		4

/* A queue at a time and the pair it makes (NONE: none). */
struct choose_case {
	const char		*name;
	struct pairing_cand	 c[6];
	size_t			 n;
	int64_t			 now;
	size_t			 a, b;
};

static const struct choose_case	choose_cases[] = {
	{ "empty", { G }, 0, 0, NONE, NONE },
	{ "a guest alone", { G }, 1, 0, NONE, NONE },
	{ "a signed-in player alone", { R(1500, 0) }, 1, 9999, NONE, NONE },
	{ "nearest in rating, not first in the queue",
	    { R(1500, 0), R(1590, 0), R(1560, 1000) }, 3, 1000, 1, 2 },
	{ "nearest: the newcomer meets 1520, not 1900",
	    { R(1500, 0), R(1900, 0), R(1520, 0) }, 3, 0, 0, 2 },
	{ "100 apart meet at once", { R(1500, 0), R(1600, 0) }, 2, 0, 0, 1 },
	{ "101 apart do not at once", { R(1500, 0), R(1601, 0) }, 2, 19,
	    NONE, NONE },
	{ "101 apart do 20 ms later", { R(1500, 0), R(1601, 0) }, 2, 20,
	    0, 1 },
	{ "400 apart after 6 s", { R(1500, 0), R(1900, 0) }, 2, 6000, 0, 1 },
	{ "... not 1 ms before", { R(1500, 0), R(1900, 0) }, 2, 5999,
	    NONE, NONE },
	{ "the newcomer's range must hold the waiter too",
	    { R(1500, 0), R(1800, 10000) }, 2, 13999, NONE, NONE },
	{ "... and does 4 s after it came",
	    { R(1500, 0), R(1800, 10000) }, 2, 14000, 0, 1 },
	{ "a tie goes to who waited longest",
	    { R(1500, 0), R(1600, 0), R(1550, 0) }, 3, 0, 0, 2 },
	{ "... in the queue's order, not the ratings'",
	    { R(1600, 0), R(1500, 0), R(1550, 0) }, 3, 0, 0, 2 },
	{ "a tie between pairs: the one whose first waited longest",
	    { R(1500, 0), R(2000, 0), R(1530, 0), R(2030, 0) }, 4, 0, 0, 2 },
	{ "guests first come, first served", { G, G, G }, 3, 0, 0, 1 },
	{ "guests between signed-in players",
	    { R(1500, 0), G, R(2000, 0), G }, 4, 0, 1, 3 },
	{ "signed-in players in range before guests",
	    { G, R(1500, 0), G, R(1510, 0) }, 4, 0, 1, 3 },
	{ "a guest meets a signed-in player when no guest waits",
	    { R(1500, 0), R(2000, 0), G }, 3, 0, 0, 2 },
	{ "... the one who waited longest, guest first",
	    { G, R(2000, 0), R(1500, 0) }, 3, 0, 0, 1 },
	{ "... not one in range of another",
	    { R(1500, 0), G, R(2000, 0), R(1550, 0) }, 4, 0, 0, 3 },
};

/* Each case's pair. */
static void
test_choose_cases(void **state)
{
	const struct choose_case	*t;
	size_t				 i, a = NONE, b = NONE;
	int				 got;

	(void)state;
	for (i = 0; i < sizeof choose_cases / sizeof choose_cases[0]; i++) {
		t = &choose_cases[i];
		a = b = NONE;
		got = pairing_choose(t->c, t->n, t->now, &a, &b);
		if (got != (t->a != NONE) || (got && (a != t->a || b != t->b)))
			fail_msg("%s: got %d (%zd, %zd), want (%zd, %zd)",
			    t->name, got, (ssize_t)a, (ssize_t)b,
			    (ssize_t)t->a, (ssize_t)t->b);
	}
}

/* When a pair that may not meet yet will: the later one's wait. */
static void
test_next(void **state)
{
	const struct pairing_cand	one[] = { R(1500, 0), R(1900, 0) };
	const struct pairing_cand	late[] = { R(1500, 0),
					    R(1800, 10000) };
	const struct pairing_cand	two[] = { R(1500, 0), R(1900, 0),
					    R(1700, 500), G };
	const struct pairing_cand	near[] = { R(1500, 0), R(1550, 0) };

	(void)state;
	assert_int_equal(pairing_next(one, 2, 0), 6000);
	assert_int_equal(pairing_next(one, 2, 5999), 6000);
	assert_int_equal(pairing_next(one, 2, 6000), 0);	/* they may */
	assert_int_equal(pairing_next(late, 2, 10000), 14000);
	/* 1700 meets either, 200 apart, 2 s after it came at 500. */
	assert_int_equal(pairing_next(two, 4, 600), 2500);
	assert_int_equal(pairing_next(near, 2, 0), 0);
	assert_int_equal(pairing_next(two, 0, 0), 0);
	/* A guest has no range: it never makes a time. */
	assert_int_equal(pairing_next(two + 3, 1, 0), 0);
}

/* pairing_admits: both ranges, guests never. */
static void
test_admits(void **state)
{
	const struct pairing_cand	a = R(1500, 0), b = R(1650, 1000);
	const struct pairing_cand	g = G;

	(void)state;
	assert_false(pairing_admits(&a, &b, 1999));
	assert_true(pairing_admits(&a, &b, 2000));
	assert_true(pairing_admits(&b, &a, 2000));
	assert_false(pairing_admits(&a, &g, 100000));
	assert_false(pairing_admits(&g, &g, 0));
}

/* The model: may i and j meet, each range in floating point. */
static int
model_admits(const struct pairing_cand *i, const struct pairing_cand *j,
    int64_t now)
{
	double	d = fabs((double)i->rating - j->rating);

	if (!i->rated || !j->rated)
		return (0);
	return (d <= 100.0 + 50.0 * (double)(now - i->since) / 1000.0 &&
	    d <= 100.0 + 50.0 * (double)(now - j->since) / 1000.0);
}

/*
 * The model's pair: every pair ranked by (kind, distance, i, j), kinds
 * being signed-in in range, two guests, a guest and a signed-in player
 * (only when one guest waits); 0 when no pair has a kind.
 */
static int
model_choose(const struct pairing_cand *c, size_t n, int64_t now, size_t *a,
    size_t *b)
{
	size_t	i, j, guests = 0;
	int64_t	key[4], best[4] = { 9, 0, 0, 0 };
	int	k;

	for (i = 0; i < n; i++)
		guests += !c[i].rated;
	for (i = 0; i < n; i++) {
		for (j = i + 1; j < n; j++) {
			if (model_admits(&c[i], &c[j], now))
				key[0] = 0;
			else if (!c[i].rated && !c[j].rated)
				key[0] = 1;
			else if (guests == 1 && c[i].rated != c[j].rated)
				key[0] = 2;
			else
				continue;
			key[1] = key[0] == 0 ? llabs((long long)c[i].rating -
			    c[j].rating) : 0;
			key[2] = (int64_t)i;
			key[3] = (int64_t)j;
			for (k = 0; k < 4 && key[k] == best[k]; k++)
				;
			if (k < 4 && key[k] < best[k])
				memcpy(best, key, sizeof best);
		}
	}
	*a = (size_t)best[2];
	*b = (size_t)best[3];
	return (best[0] != 9);
}

/* How many signed-in pairs may meet at t, in the model. */
static int
model_rated_pairs(const struct pairing_cand *c, size_t n, int64_t t)
{
	size_t	i, j;
	int	count = 0;

	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			count += model_admits(&c[i], &c[j], t);
	return (count);
}

/* One queue: pairing_choose as the model, pairing_next the first change. */
static void
exhaust_one(const struct pairing_cand *c, size_t n, int64_t now)
{
	size_t	a = NONE, b = NONE, ma = NONE, mb = NONE;
	int	got, want;
	int64_t	next;

	got = pairing_choose(c, n, now, &a, &b);
	want = model_choose(c, n, now, &ma, &mb);
	if (got != want || (got && (a != ma || b != mb)))
		fail_msg("n %zu at %lld: got %d (%zd, %zd), model %d "
		    "(%zd, %zd)", n, (long long)now, got, (ssize_t)a,
		    (ssize_t)b, want, (ssize_t)ma, (ssize_t)mb);
	next = pairing_next(c, n, now);
	if (next == 0) {
		/* Nothing new ever: as many pairs an hour later. */
		assert_int_equal(model_rated_pairs(c, n, now + 3600000),
		    model_rated_pairs(c, n, now));
		return;
	}
	assert_true(next > now);
	assert_int_equal(model_rated_pairs(c, n, next - 1),
	    model_rated_pairs(c, n, now));
	assert_true(model_rated_pairs(c, n, next) >
	    model_rated_pairs(c, n, now));
}

/*
 * Every queue of up to four, each a guest or one of five ratings, each
 * come at one of three times, at three times: 18^4 queues of four.
 */
static void
test_exhaustive(void **state)
{
	static const int	ratings[] = { 1400, 1500, 1550, 1600, 1730 };
	static const int64_t	sinces[] = { 0, 2000, 5000 };
	static const int64_t	nows[] = { 5000, 6000, 12000 };
	struct pairing_cand	c[MAX_N];
	size_t			n, i, kinds = 18, combos, k, x;
	unsigned long		runs = 0;

	(void)state;
	for (n = 0; n <= MAX_N; n++) {
		for (combos = 1, i = 0; i < n; i++)
			combos *= kinds;
		for (k = 0; k < combos; k++) {
			for (x = k, i = 0; i < n; i++, x /= kinds) {
				c[i].rated = x % kinds < 15;
				c[i].rating = c[i].rated ?
				    ratings[x % kinds / 3] : 0;
				c[i].since = sinces[x % 3];
			}
			for (i = 0; i < 3; i++, runs++)
				exhaust_one(c, n, nows[i]);
		}
	}
	assert_int_equal(runs, 3 * (1 + 18 + 324 + 5832 + 104976));
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_choose_cases),
		cmocka_unit_test(test_next),
		cmocka_unit_test(test_admits),
		cmocka_unit_test(test_exhaustive),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
