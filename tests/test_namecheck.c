/*
 * test_namecheck.c -- unit tests for server/namecheck.c: the names the
 * Unicode rules refuse (issue 22's examples among them), the names that
 * are one name by their keys (case, look-alike letters, small capitals,
 * Armenian and Georgian), the keys' bounds, and ASCII names keyed from
 * their characters exactly as ICU keys them.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unicode/unorm2.h>
#include <unicode/uspoof.h>
#include <unicode/ustring.h>

#include "namecheck.h"
#include "proto.h"

#define NCASES(a)	(sizeof (a) / sizeof (a)[0])

/* The server's verdict on a name: proto's word, then the Unicode rules. */
static int
name_ok(const char *s)
{
	return (proto_name_valid(s, strlen(s)) &&
	    namecheck_valid(s, strlen(s)));
}

/* A name's key, as a string (a failure if it has none). */
static void
key_of(const struct namecheck *nc, const char *s, char *out)
{
	if (namecheck_key(nc, s, strlen(s), out, NAMECHECK_KEY_MAX) == 0)
		fail_msg("no key for \"%s\"", s);
}

static int
setup(void **state)
{
	*state = namecheck_new();
	return (*state == NULL ? -1 : 0);
}

static int
teardown(void **state)
{
	namecheck_free(*state);
	return (0);
}

/* Issue 22's names that look empty or hold what is not there: refused. */
static void
test_namecheck_refused(void **state)
{
	static const char *const refused[] = {
		"\xd6\xb0\xd6\xb0\xd6\xb0",	/* ְְְ Hebrew sheva, Mn */
		"\xe0\xb8\xb1\xe0\xb8\xb4\xe0\xb8\xb5",	/* ัิี Thai signs */
		"\xf0\x96\xbf\xa4",		/* U+16FE4, a filler (Mn) */
		"ab\xf0\x96\xbf\xa4",		/* ... anywhere (proto's) */
		"\xcd\xb8",			/* U+0378, unassigned */
		"Zo\xcd\xb8",
		"\xf0\x9d\x91\x95",		/* U+1D455, unassigned */
		"x\xf0\x9d\x91\x95y",
		"\xef\xbf\xbc",			/* U+FFFC (proto's table) */
		"bob\xef\xbf\xbc",
		"\xef\xbf\xbd",			/* U+FFFD (proto's table) */
		"\xef\xbf\xbd\x62ob",
		"\xe0\xa4\xbf\x61",		/* ि Devanagari sign (Mc... */
		"\xcc\x88\x61",			/* ... combining diaeresis) */
		"\xe1\x85\x9f\x61",		/* U+115F Hangul filler */
		"\xef\xbf\xbb",			/* U+FFFB, format */
	};
	size_t	i;

	(void)state;
	for (i = 0; i < NCASES(refused); i++) {
		if (name_ok(refused[i]))
			fail_msg("case %zu: \"%s\" allowed", i, refused[i]);
	}
	/* The Unicode rules alone refuse the marks and holes. */
	for (i = 0; i < 8; i++) {
		if (i != 3 && namecheck_valid(refused[i], strlen(refused[i])))
			fail_msg("case %zu: \"%s\" valid", i, refused[i]);
	}
	assert_false(namecheck_valid("", 0));
	assert_false(namecheck_valid("\xff", 1));	/* not UTF-8 */
}

/* Names of many scripts, marks after their base among them, pass. */
static void
test_namecheck_allowed(void **state)
{
	static const char *const allowed[] = {
		"alice", "Bob_2", "-x-", "Zo\xc3\xab",	/* Zoë */
		"\xce\xa9\xce\xbc\xce\xad\xce\xb3\xce\xb1",	/* Ωμέγα */
		"\xd0\xaf\xd0\xbd\xd0\xb0",		/* Яна */
		"\xe6\x9d\x8e\xe9\x9b\xb7",		/* 李雷 */
		"\xe0\xb8\x81\xe0\xb8\xb1\xe0\xb8\x99",	/* กัน: a base first */
		"\xd7\xa9\xd6\xb8\xd7\x9c\xd7\x95\xd6\xb9\xd7\x9d", /* שָלוֹם */
		"\xe0\xa4\x95\xe0\xa4\xbf",		/* कि */
		"\xf0\x9f\x98\x80",			/* 😀 */
		"\xd4\xb1\xd6\x80\xd5\xa1\xd5\xb4",	/* Արամ */
		"\xe1\xb2\x92\xe1\x83\x98",		/* Გი */
	};
	size_t	i;

	(void)state;
	for (i = 0; i < NCASES(allowed); i++) {
		if (!name_ok(allowed[i]))
			fail_msg("case %zu: \"%s\" refused", i, allowed[i]);
	}
}

/* Groups of names that are one name: every key of a group is equal. */
static void
test_namecheck_same(void **state)
{
	static const char *const groups[][6] = {
		/* p1: Cyrillic er, bold math, capitals, fullwidth, l for 1 */
		{ "p1", "\xd1\x80\x31", "\xf0\x9d\x90\xa9\xf0\x9d\x9f\x8f",
		  "P1", "\xef\xbd\x90\xef\xbc\x91", "pl" },
		/* ai: Cyrillic a and i; fullwidth capitals */
		{ "ai", "\xd0\xb0\xd1\x96", "AI", "\xef\xbc\xa1\xef\xbc\xa9" },
		{ "p2", "\xd1\x80\x32", "P2" },
		/* alice: small capitals ᴀʟɪᴄᴇ, and in any case */
		{ "alice", "\xe1\xb4\x80\xca\x9f\xc9\xaa\xe1\xb4\x84\xe1\xb4\x87",
		  "ALICE", "Alice", "\xd0\xb0lice" },
		/* Bob: Cyrillic capital Ve (folded: в, whose skeleton is
		   a small capital) and o; all Cyrillic ВОВ */
		{ "Bob", "bob", "BOB", "B0b", "\xd0\x92ob",
		  "\xd0\x92\xd0\xbe\x62" },
		{ "BOB", "\xd0\x92\xd0\x9e\xd0\x92" },
		/* small capitals the skeleton keeps: ᴍ is m, so rn */
		{ "\xe1\xb4\x8d\xe1\xb4\x80\xe1\xb4\x8b\xe1\xb4\x87",
		  "make", "rnake", "MAKE" },
		{ "Zo\xc3\xab", "ZO\xc3\x8b", "zo\xc3\xab" },	/* Zoë */
		/* Armenian: Արամ, ԱՐԱՄ, արամ */
		{ "\xd4\xb1\xd6\x80\xd5\xa1\xd5\xb4",
		  "\xd4\xb1\xd5\x90\xd4\xb1\xd5\x84",
		  "\xd5\xa1\xd6\x80\xd5\xa1\xd5\xb4" },
		/* Georgian: Mtavruli ᲒᲘᲝᲠᲒᲘ, Mkhedruli გიორგი */
		{ "\xe1\xb2\x92\xe1\xb2\x98\xe1\xb2\x9d\xe1\xb2\xa0\xe1\xb2\x92"
		  "\xe1\xb2\x98",
		  "\xe1\x83\x92\xe1\x83\x98\xe1\x83\x9d\xe1\x83\xa0\xe1\x83\x92"
		  "\xe1\x83\x98" },
		/* Georgian: Asomtavruli Ⴀ, Nuskhuri ⴀ */
		{ "\xe1\x82\xa0", "\xe2\xb4\x80" },
		/* Greek with its final sigma: ΣΟΦΊΑ, σοφία; ΟΔΟΣ, οδος */
		{ "\xce\xa3\xce\x9f\xce\xa6\xce\x8a\xce\x91",
		  "\xcf\x83\xce\xbf\xcf\x86\xce\xaf\xce\xb1" },
		{ "\xce\x9f\xce\x94\xce\x9f\xce\xa3",
		  "\xce\xbf\xce\xb4\xce\xbf\xcf\x82" },
		/* ß, ẞ and ss (full case folding) */
		{ "Stra\xc3\x9f\x65", "STRA\xe1\xba\x9e\x45", "strasse" },
		/* µ and μ; Kelvin and k; Ohm and ω; ſ and s */
		{ "\xc2\xb5", "\xce\xbc" }, { "\xe2\x84\xaa", "k", "K" },
		{ "\xe2\x84\xa6", "\xcf\x89" }, { "\xc5\xbf", "s" },
	};
	char	first[NAMECHECK_KEY_MAX], k[NAMECHECK_KEY_MAX];
	size_t	g, i;

	for (g = 0; g < NCASES(groups); g++) {
		key_of(*state, groups[g][0], first);
		for (i = 1; i < NCASES(groups[g]) && groups[g][i] != NULL;
		    i++) {
			key_of(*state, groups[g][i], k);
			if (strcmp(first, k) != 0)
				fail_msg("group %zu: \"%s\" is \"%s\", \"%s\" "
				    "is \"%s\"", g, groups[g][0], first,
				    groups[g][i], k);
		}
	}
}

/* Names that are not one: their keys differ. */
static void
test_namecheck_different(void **state)
{
	static const char *const pairs[][2] = {
		{ "alice", "alicia" }, { "p1", "p2" }, { "ai", "al" },
		{ "bob", "rob" }, { "Zo\xc3\xab", "Zoe" }, { "p1", "p" },
		{ "\xd0\xaf\xd0\xbd\xd0\xb0", "\xd0\xaf\xd0\xbd" },
		{ "\xe6\x9d\x8e\xe9\x9b\xb7", "\xe6\x9d\x8e" },
	};
	char	a[NAMECHECK_KEY_MAX], b[NAMECHECK_KEY_MAX];
	size_t	i;

	for (i = 0; i < NCASES(pairs); i++) {
		key_of(*state, pairs[i][0], a);
		key_of(*state, pairs[i][1], b);
		if (strcmp(a, b) == 0)
			fail_msg("\"%s\" and \"%s\" are one: \"%s\"",
			    pairs[i][0], pairs[i][1], a);
	}
}

/*
 * The longest key: ten U+FDFA (a ligature of 18 letters, 3 bytes each)
 * fit; a key too long for out, or of invalid UTF-8, is none.
 */
static void
test_namecheck_key_bounds(void **state)
{
	char	name[64] = "", k[NAMECHECK_KEY_MAX];
	size_t	i, n;

	for (i = 0; i < 10; i++)
		strcat(name, "\xef\xb7\xba");
	assert_true(name_ok(name));
	n = namecheck_key(*state, name, strlen(name), k, sizeof k);
	assert_true(n > 0 && n < sizeof k && strlen(k) == n);
	assert_int_equal(namecheck_key(*state, name, strlen(name), k, n), 0);
	assert_int_equal(namecheck_key(*state, "ab", 2, k, 2), 0);
	assert_int_equal(namecheck_key(*state, "ab", 2, k, 3), 2);
	assert_int_equal(namecheck_key(*state, "\xff", 1, k, sizeof k), 0);
	assert_int_equal(namecheck_key(*state, "", 0, k, sizeof k), 0);
}

/* ICU's key, every step, as namecheck.c documents it (ASCII: no step 2). */
static void
icu_key(const USpoofChecker *sc, const char *s, char *out)
{
	const UNormalizer2	*f;
	UChar			 a[512], b[512];
	UErrorCode		 e = U_ZERO_ERROR;
	int32_t			 na, nb, n;

	f = unorm2_getNFKCCasefoldInstance(&e);
	u_strFromUTF8(a, 512, &na, s, -1, &e);
	nb = unorm2_normalize(f, a, na, b, 512, &e);
	na = uspoof_getSkeleton(sc, 0, b, nb, a, 512, &e);
	nb = unorm2_normalize(f, a, na, b, 512, &e);
	u_strToUTF8(out, NAMECHECK_KEY_MAX, &n, b, nb, &e);
	if (U_FAILURE(e))
		fail_msg("ICU: %s", u_errorName(e));
}

/*
 * ASCII names are keyed from their characters' keys: the same as ICU's
 * for every name of two characters and for random ones of sixteen.
 */
static void
test_namecheck_ascii_as_icu(void **state)
{
	static const char	set[] = "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-";
	char			name[17], k[NAMECHECK_KEY_MAX];
	char			want[NAMECHECK_KEY_MAX];
	size_t			i, j, n = sizeof set - 1;
	unsigned		seed = 22;
	UErrorCode		e = U_ZERO_ERROR;
	USpoofChecker		*sc = uspoof_open(&e);

	assert_true(U_SUCCESS(e));
	for (i = 0; i < n; i++) {
		for (j = 0; j < n; j++) {
			name[0] = set[i];
			name[1] = set[j];
			name[2] = '\0';
			key_of(*state, name, k);
			icu_key(sc, name, want);
			if (strcmp(k, want) != 0)
				fail_msg("\"%s\": \"%s\", ICU \"%s\"", name,
				    k, want);
		}
	}
	for (i = 0; i < 3000; i++) {
		for (j = 0; j < 16; j++) {
			seed = seed * 1103515245 + 12345;
			name[j] = set[(seed >> 16) % n];
		}
		name[16] = '\0';
		key_of(*state, name, k);
		icu_key(sc, name, want);
		if (strcmp(k, want) != 0)
			fail_msg("\"%s\": \"%s\", ICU \"%s\"", name, k, want);
	}
	uspoof_close(sc);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_namecheck_refused),
		cmocka_unit_test(test_namecheck_allowed),
		cmocka_unit_test_setup_teardown(test_namecheck_same, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_namecheck_different,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_namecheck_key_bounds,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_namecheck_ascii_as_icu,
		    setup, teardown),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
