/*
 * test_addrtab.c -- connections counted per address: IPv4 alone, IPv6 per
 * /64, counts up and down, and a table far past its first size.
 */
#include <sys/socket.h>

#include <netinet/in.h>
#include <arpa/inet.h>

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "addrtab.h"

/* The key of a printable address. */
static struct addrkey
key(const char *text)
{
	struct sockaddr_storage	ss;
	struct addrkey		k;

	memset(&ss, 0, sizeof ss);
	if (strchr(text, ':') != NULL) {
		struct sockaddr_in6	*sin6 = (struct sockaddr_in6 *)&ss;

		sin6->sin6_family = AF_INET6;
		assert_int_equal(inet_pton(AF_INET6, text, &sin6->sin6_addr),
		    1);
	} else {
		struct sockaddr_in	*sin = (struct sockaddr_in *)&ss;

		sin->sin_family = AF_INET;
		assert_int_equal(inet_pton(AF_INET, text, &sin->sin_addr), 1);
	}
	addrkey_from(&k, (struct sockaddr *)&ss);
	return (k);
}

/* Counts go up and down per address; other addresses are apart. */
static void
test_counts(void **state)
{
	struct addrtab	t;
	struct addrkey	a = key("127.0.0.1"), b = key("127.0.0.2");

	(void)state;
	assert_int_equal(addrtab_init(&t, 0), 0);
	assert_int_equal(addrtab_count(&t, &a), 0);
	assert_int_equal(addrtab_add(&t, &a), 0);
	assert_int_equal(addrtab_add(&t, &a), 0);
	assert_int_equal(addrtab_add(&t, &b), 0);
	assert_int_equal(addrtab_count(&t, &a), 2);
	assert_int_equal(addrtab_count(&t, &b), 1);
	assert_int_equal(t.nentries, 2);
	addrtab_del(&t, &a);
	assert_int_equal(addrtab_count(&t, &a), 1);
	addrtab_del(&t, &a);
	assert_int_equal(addrtab_count(&t, &a), 0);
	assert_int_equal(t.nentries, 1);
	assert_int_equal(addrtab_count(&t, &b), 1);
	addrtab_free(&t);
}

/* IPv6 counts per /64; an IPv4-mapped address is its IPv4 address. */
static void
test_keys(void **state)
{
	struct addrkey	a, b;

	(void)state;
	a = key("2001:db8:1:2::1");
	b = key("2001:db8:1:2:ffff:ffff:ffff:ffff");
	assert_memory_equal(&a, &b, sizeof a);
	b = key("2001:db8:1:3::1");
	assert_memory_not_equal(&a, &b, sizeof a);
	a = key("::ffff:192.0.2.7");
	b = key("192.0.2.7");
	assert_memory_equal(&a, &b, sizeof a);
	b = key("192.0.2.8");
	assert_memory_not_equal(&a, &b, sizeof a);
	a = key("::1");
	b = key("::2");		/* the same /64, as it should be */
	assert_memory_equal(&a, &b, sizeof a);
}

/* 20000 addresses: the table grows, every count stays right (any key). */
static void
test_many(void **state)
{
	struct addrtab	t;
	struct addrkey	k;
	char		text[32];
	int		i;

	(void)state;
	assert_int_equal(addrtab_init(&t, 0x9e3779b97f4a7c15ULL), 0);
	for (i = 0; i < 20000; i++) {
		snprintf(text, sizeof text, "10.%d.%d.%d", i >> 16,
		    (i >> 8) & 255, i & 255);
		k = key(text);
		assert_int_equal(addrtab_add(&t, &k), 0);
		if (i % 3 == 0)
			assert_int_equal(addrtab_add(&t, &k), 0);
	}
	assert_int_equal(t.nentries, 20000);
	assert_true(t.nbuckets >= 20000);
	for (i = 0; i < 20000; i++) {
		snprintf(text, sizeof text, "10.%d.%d.%d", i >> 16,
		    (i >> 8) & 255, i & 255);
		k = key(text);
		assert_int_equal(addrtab_count(&t, &k), i % 3 == 0 ? 2 : 1);
		addrtab_del(&t, &k);
		if (i % 3 == 0)
			addrtab_del(&t, &k);
	}
	assert_int_equal(t.nentries, 0);
	addrtab_free(&t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_many),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
