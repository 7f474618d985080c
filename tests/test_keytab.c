/*
 * test_keytab.c -- the table of 64-bit keys (server/keytab.c) that files
 * room codes and resume tokens (packed by keytab_code) and match ids: add,
 * find, del, many keys, the packing of codes, the empty key, the count.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "keytab.h"
#include "proto.h"

#define MANY		50000
#define MANY_BUCKETS	4096

/* An owner with its entry inside it, as clients and matches hold them. */
struct thing {
	int			 n;
	char			 code[24];
	struct keytab_entry	 entry;
};

static void	code_of(unsigned, char *);
static size_t	longest_chain(const struct keytab *);
static int	keytab_chain_has(const struct keytab_bucket *, uint64_t);

/* Is this key in this chain? */
static int
keytab_chain_has(const struct keytab_bucket *b, uint64_t key)
{
	const struct keytab_entry	*e;

	SLIST_FOREACH(e, b, link) {
		if (e->key == key)
			return (1);
	}
	return (0);
}

/* The i-th six-character code of the room-code alphabet: all distinct. */
static void
code_of(unsigned i, char *out)
{
	static const char	alphabet[] = PROTO_CODE_ALPHABET;
	const unsigned		n = sizeof alphabet - 1;
	int			k;

	for (k = 5; k >= 0; k--) {
		out[k] = alphabet[i % n];
		i /= n;
	}
	out[6] = '\0';
}

/* The most entries in one bucket. */
static size_t
longest_chain(const struct keytab *t)
{
	const struct keytab_entry	*e;
	size_t				 i, len, max = 0;

	for (i = 0; i < t->nbuckets; i++) {
		len = 0;
		SLIST_FOREACH(e, &t->buckets[i], link)
			len++;
		if (len > max)
			max = len;
	}
	return (max);
}

/* The bucket count is a power of two, at least the one asked for. */
static void
test_keytab_init(void **state)
{
	static const struct {
		size_t	ask, want;
	} cases[] = {
		{ 0, 16 }, { 1, 16 }, { 16, 16 }, { 17, 32 }, { 1000, 1024 },
		{ 1024, 1024 }, { 4096, 4096 }, { 4097, 8192 },
	};
	struct keytab	t;
	size_t		i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		assert_int_equal(keytab_init(&t, cases[i].ask, 42), 0);
		assert_int_equal(t.nbuckets, cases[i].want);
		assert_int_equal(t.n, 0);
		assert_null(keytab_find(&t, keytab_code("K7QX2M")));
		keytab_free(&t);
		assert_null(t.buckets);
	}
}

/* Add, find, del: an owner is found under its key, and only there. */
static void
test_keytab_add_find_del(void **state)
{
	struct keytab	t;
	struct thing	a = { .n = 1 }, b = { .n = 2 }, c = { .n = 3 };

	(void)state;
	assert_int_equal(keytab_init(&t, 64, 0x1234), 0);
	keytab_add(&t, &a.entry, keytab_code("K7QX2M"), &a);
	keytab_add(&t, &b.entry, keytab_code("K7QX2MAB"), &b);
	keytab_add(&t, &c.entry, keytab_code("17"), &c);
	assert_int_equal(t.n, 3);
	assert_ptr_equal(keytab_find(&t, keytab_code("K7QX2M")), &a);
	assert_ptr_equal(keytab_find(&t, keytab_code("K7QX2MAB")), &b);
	assert_ptr_equal(keytab_find(&t, keytab_code("17")), &c);
	/* Keys are exact: no prefix, no other case, no neighbour. */
	assert_null(keytab_find(&t, keytab_code("K7QX2")));
	assert_null(keytab_find(&t, keytab_code("K7QX2MA")));
	assert_null(keytab_find(&t, keytab_code("k7qx2m")));
	assert_null(keytab_find(&t, keytab_code("1")));
	assert_null(keytab_find(&t, keytab_code("170")));
	/* The entry keeps its key. */
	assert_true(a.entry.key == keytab_code("K7QX2M"));

	keytab_del(&t, &a.entry);
	assert_int_equal(t.n, 2);
	assert_null(keytab_find(&t, keytab_code("K7QX2M")));
	assert_true(a.entry.key == 0);		/* in no table now */
	assert_ptr_equal(keytab_find(&t, keytab_code("K7QX2MAB")), &b);
	assert_ptr_equal(keytab_find(&t, keytab_code("17")), &c);

	/* Deleting again is harmless and counts nothing. */
	keytab_del(&t, &a.entry);
	assert_int_equal(t.n, 2);

	/* The same entry can be filed again, under another key. */
	keytab_add(&t, &a.entry, keytab_code("ZZZZZZ"), &a);
	assert_int_equal(t.n, 3);
	assert_ptr_equal(keytab_find(&t, keytab_code("ZZZZZZ")), &a);
	assert_null(keytab_find(&t, keytab_code("K7QX2M")));

	keytab_del(&t, &b.entry);
	keytab_del(&t, &c.entry);
	keytab_del(&t, &a.entry);
	assert_int_equal(t.n, 0);
	assert_null(keytab_find(&t, keytab_code("ZZZZZZ")));
	assert_null(keytab_find(&t, keytab_code("17")));
	keytab_free(&t);
}

/* Deleting an entry that was never filed changes nothing. */
static void
test_keytab_del_unfiled(void **state)
{
	struct keytab	t;
	struct thing	a = { .n = 1 }, never;

	(void)state;
	memset(&never, 0, sizeof never);
	assert_int_equal(keytab_init(&t, 16, 7), 0);
	keytab_del(&t, &never.entry);		/* in an empty table */
	assert_int_equal(t.n, 0);
	keytab_add(&t, &a.entry, keytab_code("ABCDEF"), &a);
	keytab_del(&t, &never.entry);		/* beside a filed one */
	assert_int_equal(t.n, 1);
	assert_ptr_equal(keytab_find(&t, keytab_code("ABCDEF")), &a);
	keytab_del(&t, &a.entry);
	assert_int_equal(t.n, 0);
	keytab_free(&t);
}

/* "" is no key: never found, whatever the table holds. */
static void
test_keytab_empty_key_never_found(void **state)
{
	struct keytab	t;
	struct thing	a = { .n = 1 };

	(void)state;
	assert_int_equal(keytab_init(&t, 16, 7), 0);
	assert_null(keytab_find(&t, keytab_code("")));
	keytab_add(&t, &a.entry, keytab_code("A"), &a);
	assert_null(keytab_find(&t, keytab_code("")));
	assert_ptr_equal(keytab_find(&t, keytab_code("A")), &a);
	keytab_del(&t, &a.entry);
	assert_null(keytab_find(&t, keytab_code("")));
	keytab_free(&t);
}

/*
 * Codes pack into keys: up to KEYTAB_CODE_MAX characters, each code its
 * own key; "" and longer codes are no key (0), so a client's oversized
 * token cannot match anything.
 */
static void
test_keytab_code_packing(void **state)
{
	struct keytab	t;
	struct thing	a = { .n = 1 };

	(void)state;
	assert_true(keytab_code("") == 0);
	assert_true(keytab_code("K7QX2M9PA") == 0);	/* 9 characters */
	assert_true(keytab_code("K7QX2M9P") != 0);
	assert_true(keytab_code("K") != 0);
	assert_true(keytab_code("K7QX2M9P") == keytab_code("K7QX2M9P"));
	assert_true(keytab_code("K7QX2M9P") != keytab_code("K7QX2M9Q"));
	assert_true(keytab_code("K7QX2M") != keytab_code("K7QX2M9P"));
	assert_true(keytab_code("AB") != keytab_code("BA"));

	assert_int_equal(keytab_init(&t, 16, 99), 0);
	keytab_add(&t, &a.entry, keytab_code("K7QX2M9P"), &a);
	assert_ptr_equal(keytab_find(&t, keytab_code("K7QX2M9P")), &a);
	assert_null(keytab_find(&t, keytab_code("K7QX2M9PZ")));
	assert_null(keytab_find(&t, 0));
	keytab_del(&t, &a.entry);
	assert_int_equal(t.n, 0);
	keytab_free(&t);
}

/*
 * 50,000 distinct codes in 4,096 buckets: every one found, spread over
 * the buckets; deleting half leaves the other half findable.
 */
static void
test_keytab_many(void **state)
{
	struct keytab	 t;
	struct thing	*things;
	unsigned	 i;

	(void)state;
	things = calloc(MANY, sizeof *things);
	assert_non_null(things);
	assert_int_equal(keytab_init(&t, MANY_BUCKETS, 0x9e3779b97f4a7c15ULL),
	    0);
	assert_int_equal(t.nbuckets, MANY_BUCKETS);
	for (i = 0; i < MANY; i++) {
		things[i].n = (int)i;
		code_of(i * 7919 + 13, things[i].code);
		keytab_add(&t, &things[i].entry, keytab_code(things[i].code),
		    &things[i]);
	}
	assert_int_equal(t.n, MANY);
	for (i = 0; i < MANY; i++) {
		if (keytab_find(&t, keytab_code(things[i].code)) != &things[i])
			fail_msg("code %u (%s) not found", i, things[i].code);
	}
	/* About 12 a bucket: a chain of 64 would mean a broken hash. */
	assert_true(longest_chain(&t) < 64);

	/* Delete the odd ones, in an order unlike the insertion order. */
	for (i = MANY; i-- > 0; ) {
		if (i % 2 == 1)
			keytab_del(&t, &things[i].entry);
	}
	assert_int_equal(t.n, MANY / 2);
	for (i = 0; i < MANY; i++) {
		struct thing	*found = keytab_find(&t,
		    keytab_code(things[i].code));

		if (i % 2 == 0 && found != &things[i])
			fail_msg("code %u (%s) lost by deletions", i,
			    things[i].code);
		if (i % 2 == 1 && found != NULL)
			fail_msg("deleted code %u (%s) still found", i,
			    things[i].code);
	}
	for (i = 0; i < MANY; i += 2)
		keytab_del(&t, &things[i].entry);
	assert_int_equal(t.n, 0);
	assert_int_equal(longest_chain(&t), 0);
	keytab_free(&t);
	free(things);
}

/* Match ids as keys: 1 ... 50000, with another secret, all found. */
static void
test_keytab_many_numbers(void **state)
{
	struct keytab	 t;
	struct thing	*things;
	unsigned	 i;

	(void)state;
	things = calloc(MANY, sizeof *things);
	assert_non_null(things);
	assert_int_equal(keytab_init(&t, MANY_BUCKETS, 2), 0);
	for (i = 0; i < MANY; i++) {
		keytab_add(&t, &things[i].entry, (uint64_t)i + 1, &things[i]);
	}
	assert_int_equal(t.n, MANY);
	for (i = 0; i < MANY; i++)
		assert_ptr_equal(keytab_find(&t, (uint64_t)i + 1), &things[i]);
	assert_null(keytab_find(&t, 0));
	assert_null(keytab_find(&t, MANY + 1));
	assert_null(keytab_find(&t, UINT64_MAX));
	assert_true(longest_chain(&t) < 64);
	for (i = 0; i < MANY; i++)
		keytab_del(&t, &things[i].entry);
	assert_int_equal(t.n, 0);
	/*
	 * Keys alike in their low bits (multiples of 4096) spread too: a
	 * hash of the low bits alone would chain them all in one bucket.
	 */
	for (i = 0; i < MANY; i++)
		keytab_add(&t, &things[i].entry, ((uint64_t)i + 1) << 12,
		    &things[i]);
	assert_true(longest_chain(&t) < 64);
	for (i = 0; i < MANY; i++)
		keytab_del(&t, &things[i].entry);
	keytab_free(&t);
	free(things);
}

/*
 * The secret decides the buckets: two tables that differ only in it
 * place the same keys differently (a client cannot aim at one chain).
 */
static void
test_keytab_secret(void **state)
{
	struct keytab	a, b;
	struct thing	ta[64], tb[64];
	size_t		i, j, moved = 0;

	(void)state;
	assert_int_equal(keytab_init(&a, 16, 1), 0);
	assert_int_equal(keytab_init(&b, 16, 2), 0);
	for (i = 0; i < 64; i++) {
		keytab_add(&a, &ta[i].entry, i + 1, &ta[i]);
		keytab_add(&b, &tb[i].entry, i + 1, &tb[i]);
	}
	/* Keys 1 and k share a bucket in one table: not in the other? */
	for (i = 1; i < 64; i++) {
		int	sa = 0, sb = 0;

		for (j = 0; j < a.nbuckets; j++) {
			sa |= SLIST_FIRST(&a.buckets[j]) != NULL &&
			    keytab_chain_has(&a.buckets[j], 1) &&
			    keytab_chain_has(&a.buckets[j], i + 1);
			sb |= SLIST_FIRST(&b.buckets[j]) != NULL &&
			    keytab_chain_has(&b.buckets[j], 1) &&
			    keytab_chain_has(&b.buckets[j], i + 1);
		}
		moved += sa != sb;
	}
	assert_true(moved > 0);
	for (i = 0; i < 64; i++) {
		keytab_del(&a, &ta[i].entry);
		keytab_del(&b, &tb[i].entry);
	}
	keytab_free(&a);
	keytab_free(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keytab_init),
		cmocka_unit_test(test_keytab_add_find_del),
		cmocka_unit_test(test_keytab_del_unfiled),
		cmocka_unit_test(test_keytab_secret),
		cmocka_unit_test(test_keytab_empty_key_never_found),
		cmocka_unit_test(test_keytab_code_packing),
		cmocka_unit_test(test_keytab_many),
		cmocka_unit_test(test_keytab_many_numbers),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
