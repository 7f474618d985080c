/*
 * test_addrlimit.c -- a bucket per address: exact (no address limits
 * another), records only while a bucket is not full, and a cap that can
 * only give an address its allowance back early.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "addrlimit.h"

#define BURST	5
#define EVERY	10000
#define REFILL	((int64_t)BURST * EVERY)

/* IPv4 address number n, as the server keys it (::ffff:a.b.c.d). */
static struct addrkey
v4(uint32_t n)
{
	struct addrkey	k;

	memset(&k, 0, sizeof k);
	k.b[10] = k.b[11] = 0xff;
	k.b[12] = (uint8_t)(n >> 24);
	k.b[13] = (uint8_t)(n >> 16);
	k.b[14] = (uint8_t)(n >> 8);
	k.b[15] = (uint8_t)n;
	return (k);
}

static struct addrlimit *
table(size_t max)
{
	static struct addrlimit	al;

	assert_int_equal(addrlimit_init(&al, max, BURST, EVERY, 0x5eed), 0);
	return (&al);
}

/* Takes until refused, at one instant. */
static int
drain(struct addrlimit *al, const struct addrkey *k, int64_t now)
{
	int	n = 0;

	while (addrlimit_take(al, k, now) && n < 100)
		n++;
	return (n);
}

/* Five at once, then one every 10 s; ready agrees with take. */
static void
test_burst_then_every(void **state)
{
	struct addrlimit	*al = table(64);
	struct addrkey		 a = v4(0x7f000001);

	(void)state;
	assert_int_equal(drain(al, &a, 1000), BURST);
	assert_int_equal(addrlimit_ready(al, &a, 1000), 0);
	assert_int_equal(addrlimit_ready(al, &a, 1000 + EVERY - 1), 0);
	assert_int_equal(addrlimit_take(al, &a, 1000 + EVERY - 1), 0);
	assert_int_equal(addrlimit_ready(al, &a, 1000 + EVERY), 1);
	assert_int_equal(addrlimit_take(al, &a, 1000 + EVERY), 1);
	assert_int_equal(addrlimit_take(al, &a, 1000 + EVERY), 0);
	addrlimit_free(al);
}

/*
 * One address out of tries limits no other, however many there are (a
 * table of shared buckets would put some of these 5,000 in its bucket).
 */
static void
test_addresses_apart(void **state)
{
	struct addrlimit	*al = table(8192);
	struct addrkey		 a = v4(0x7f000001), k;
	uint32_t		 i;

	(void)state;
	assert_int_equal(drain(al, &a, 0), BURST);
	for (i = 0; i < 5000; i++) {
		k = v4(0x0a000000 + i);
		if (!addrlimit_ready(al, &k, 1) || drain(al, &k, 1) != BURST)
			fail_msg("address %u limited by another's tries", i);
	}
	assert_int_equal(al->n, 5001);
	assert_int_equal(addrlimit_ready(al, &a, 1), 0);
	/* Addresses that differ in one bit are apart too. */
	k = v4(0x7f000003);
	assert_int_equal(addrlimit_ready(al, &k, 1), 1);
	addrlimit_free(al);
}

/* Asking takes nothing and keeps no record. */
static void
test_ready_takes_nothing(void **state)
{
	struct addrlimit	*al = table(64);
	struct addrkey		 a = v4(1);
	int			 i;

	(void)state;
	for (i = 0; i < 100; i++)
		assert_int_equal(addrlimit_ready(al, &a, i), 1);
	assert_int_equal(al->n, 0);
	assert_int_equal(drain(al, &a, 100), BURST);
	assert_int_equal(al->n, 1);
	addrlimit_free(al);
}

/*
 * A record goes once its bucket must be full again (5 x 10 s after its
 * last take), and the address then has all five tries back.
 */
static void
test_records_go_when_full(void **state)
{
	struct addrlimit	*al = table(1024);
	struct addrkey		 k;
	uint32_t		 i;

	(void)state;
	for (i = 0; i < 100; i++) {
		k = v4(i);
		assert_int_equal(drain(al, &k, 0), BURST);
	}
	assert_int_equal(al->n, 100);
	k = v4(1000);
	assert_int_equal(addrlimit_take(al, &k, REFILL - 1), 1);
	assert_int_equal(al->n, 101);
	k = v4(1001);
	assert_int_equal(addrlimit_take(al, &k, REFILL), 1);
	assert_int_equal(al->n, 2);
	k = v4(7);
	assert_int_equal(drain(al, &k, REFILL), BURST);
	assert_int_equal(al->n, 3);
	/* A refused take counts as a try: the record stays 50 s from it. */
	assert_int_equal(addrlimit_take(al, &k, REFILL + EVERY - 1), 0);
	k = v4(1002);
	addrlimit_take(al, &k, 2 * REFILL + EVERY - 2);
	assert_int_equal(al->n, 2);
	k = v4(1003);
	addrlimit_take(al, &k, 2 * REFILL + EVERY - 1);
	assert_int_equal(al->n, 2);
	k = v4(7);
	assert_int_equal(drain(al, &k, 2 * REFILL + EVERY - 1), BURST);
	addrlimit_free(al);
}

/*
 * held: an address that took lately; one with no record is held too once
 * the table is full (its record may have been dropped to make room), and
 * not once its own has filled up again.
 */
static void
test_held(void **state)
{
	struct addrlimit	*al = table(4);
	struct addrkey		 k;
	uint32_t		 i;

	(void)state;
	k = v4(1);
	assert_int_equal(addrlimit_held(al, &k, 0), 0);
	assert_int_equal(addrlimit_take(al, &k, 0), 1);
	assert_int_equal(addrlimit_held(al, &k, REFILL - 1), 1);
	assert_int_equal(addrlimit_held(al, &k, REFILL), 0);
	for (i = 2; i <= 4; i++) {
		k = v4(i);
		assert_int_equal(addrlimit_take(al, &k, 10), 1);
	}
	k = v4(99);			/* the table holds 4: full */
	assert_int_equal(addrlimit_held(al, &k, 10), 1);
	addrlimit_free(al);
}

/* At the cap a new address drops the oldest record, nobody else's. */
static void
test_cap_drops_oldest(void **state)
{
	struct addrlimit	*al = table(64);
	struct addrkey		 k;
	uint32_t		 i;

	(void)state;
	for (i = 0; i < 64; i++) {
		k = v4(i);
		assert_int_equal(drain(al, &k, i), BURST);
	}
	k = v4(64);
	assert_int_equal(addrlimit_take(al, &k, 100), 1);
	assert_int_equal(al->n, 64);
	k = v4(0);
	assert_int_equal(addrlimit_ready(al, &k, 100), 1);
	for (i = 1; i < 64; i++) {
		k = v4(i);
		assert_int_equal(addrlimit_ready(al, &k, 100), 0);
	}
	assert_int_equal(addrlimit_init(&(struct addrlimit){ 0 }, 0, BURST,
	    EVERY, 1), -1);
	addrlimit_free(al);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_burst_then_every),
		cmocka_unit_test(test_addresses_apart),
		cmocka_unit_test(test_ready_takes_nothing),
		cmocka_unit_test(test_records_go_when_full),
		cmocka_unit_test(test_cap_drops_oldest),
		cmocka_unit_test(test_held),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
