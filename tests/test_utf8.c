/*
 * test_utf8.c -- unit tests for proto/utf8.c: strict decoding against a
 * model over every sequence of up to three bytes and the four-byte ones
 * that matter, encoding every code point back, the classes of code
 * points the protocol refuses, counting and trimming.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "utf8.h"

#define NCASES(a)	(sizeof (a) / sizeof (a)[0])

/*
 * The model of a decoder: the code point the bits of s spell, if s is
 * exactly one sequence whose form is the shortest for that code point,
 * which is no surrogate and at most U+10FFFF.  Written from the
 * definition (RFC 3629 §3), not from the table of byte ranges the code
 * uses.
 */
static size_t
model_decode(const unsigned char *s, size_t len, uint32_t *cp)
{
	size_t		n, i;
	uint32_t	c, min;

	if (len == 0)
		return (0);
	if (s[0] < 0x80) {
		*cp = s[0];
		return (1);
	}
	if ((s[0] & 0xE0) == 0xC0) {
		n = 2; c = s[0] & 0x1F; min = 0x80;
	} else if ((s[0] & 0xF0) == 0xE0) {
		n = 3; c = s[0] & 0x0F; min = 0x800;
	} else if ((s[0] & 0xF8) == 0xF0) {
		n = 4; c = s[0] & 0x07; min = 0x10000;
	} else
		return (0);
	if (len < n)
		return (0);
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return (0);
		c = (c << 6) | (s[i] & 0x3F);
	}
	if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
		return (0);
	*cp = c;
	return (n);
}

/* utf8_decode on len bytes must agree with the model. */
static void
check_decode(const unsigned char *s, size_t len)
{
	uint32_t	got = 0xFFFFFFFF, want = 0xFFFFFFFF;
	size_t		n, m;

	n = utf8_decode((const char *)s, len, &got);
	m = model_decode(s, len, &want);
	if (n != m || (n != 0 && got != want))
		fail_msg("decode %02x %02x %02x %02x (len %zu): %zu U+%04X, "
		    "want %zu U+%04X", len > 0 ? s[0] : 0, len > 1 ? s[1] : 0,
		    len > 2 ? s[2] : 0, len > 3 ? s[3] : 0, len, n,
		    (unsigned)got, m, (unsigned)want);
}

/* Every sequence of one, two and three bytes, decoded as the model says. */
static void
test_utf8_decode_exhaustive_short(void **state)
{
	unsigned char	s[3];
	unsigned	a, b, c;

	(void)state;
	for (a = 0; a < 256; a++) {
		s[0] = (unsigned char)a;
		check_decode(s, 1);
		for (b = 0; b < 256; b++) {
			s[1] = (unsigned char)b;
			check_decode(s, 2);
			for (c = 0; c < 256; c++) {
				s[2] = (unsigned char)c;
				check_decode(s, 3);
			}
		}
	}
}

/*
 * Four bytes: every first and second byte, with third and fourth bytes
 * at and around the edges of the continuation range.
 */
static void
test_utf8_decode_four_bytes(void **state)
{
	static const unsigned char	edge[] = { 0x00, 0x41, 0x7F, 0x80, 0x81,
					    0x9F, 0xA0, 0xBE, 0xBF, 0xC0, 0xF4,
					    0xFF };
	unsigned char			s[4];
	unsigned			a, b;
	size_t				c, d;

	(void)state;
	for (a = 0; a < 256; a++) {
		for (b = 0; b < 256; b++) {
			for (c = 0; c < NCASES(edge); c++) {
				for (d = 0; d < NCASES(edge); d++) {
					s[0] = (unsigned char)a;
					s[1] = (unsigned char)b;
					s[2] = edge[c];
					s[3] = edge[d];
					check_decode(s, 4);
				}
			}
		}
	}
}

/* Every code point encodes and decodes back, but the surrogates. */
static void
test_utf8_encode_every_code_point(void **state)
{
	char		buf[UTF8_MAX];
	uint32_t	cp, got;
	size_t		n, want;

	(void)state;
	for (cp = 0; cp <= 0x10FFFF; cp++) {
		if (cp >= 0xD800 && cp <= 0xDFFF)
			continue;
		n = utf8_encode(cp, buf);
		want = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
		if (n != want || utf8_decode(buf, n, &got) != n || got != cp)
			fail_msg("U+%04X: %zu bytes, want %zu", (unsigned)cp,
			    n, want);
		/* Cut short, it is no character. */
		if (n > 1 && utf8_decode(buf, n - 1, &got) != 0)
			fail_msg("U+%04X cut short decodes", (unsigned)cp);
	}
}

/* The invalid sequences by name: each kind, each refused. */
static void
test_utf8_decode_invalid_by_kind(void **state)
{
	static const struct {
		const char	*what;
		const char	*s;
	} cases[] = {
		{ "stray continuation", "\x80" },
		{ "stray continuation, last", "\xbf" },
		{ "two continuations", "\x80\x80" },
		{ "overlong '/' in two", "\xc0\xaf" },
		{ "overlong U+007F in two", "\xc1\xbf" },
		{ "overlong '/' in three", "\xe0\x80\xaf" },
		{ "overlong U+07FF in three", "\xe0\x9f\xbf" },
		{ "overlong '/' in four", "\xf0\x80\x80\xaf" },
		{ "overlong U+FFFF in four", "\xf0\x8f\xbf\xbf" },
		{ "overlong NUL", "\xc0\x80" },
		{ "surrogate U+D800", "\xed\xa0\x80" },
		{ "surrogate U+DBFF", "\xed\xaf\xbf" },
		{ "surrogate U+DC00", "\xed\xb0\x80" },
		{ "surrogate U+DFFF", "\xed\xbf\xbf" },
		{ "U+110000", "\xf4\x90\x80\x80" },
		{ "lead F5", "\xf5\x80\x80\x80" },
		{ "lead F7", "\xf7\xbf\xbf\xbf" },
		{ "lead F8 (five bytes)", "\xf8\x88\x80\x80\x80" },
		{ "lead FC (six bytes)", "\xfc\x84\x80\x80\x80\x80" },
		{ "FE", "\xfe" },
		{ "FF", "\xff" },
		{ "two-byte cut short", "\xc3" },
		{ "three-byte cut short", "\xe2\x82" },
		{ "four-byte cut short", "\xf0\x9f\x98" },
		{ "two-byte, ASCII for continuation", "\xc3\x41" },
		{ "three-byte, lead for continuation", "\xe2\xc2\xac" },
		{ "four-byte, last not continuation", "\xf0\x9f\x98\x20" },
	};
	uint32_t	cp;
	size_t		i, len;

	(void)state;
	for (i = 0; i < NCASES(cases); i++) {
		len = strlen(cases[i].s);
		if (utf8_decode(cases[i].s, len, &cp) != 0)
			fail_msg("%s: decoded", cases[i].what);
		if (utf8_text(cases[i].s, len))
			fail_msg("%s: taken as text", cases[i].what);
	}
	/* The edges that are valid. */
	assert_int_equal(utf8_decode("\xc2\x80", 2, &cp), 2);
	assert_int_equal(cp, 0x80);
	assert_int_equal(utf8_decode("\xe0\xa0\x80", 3, &cp), 3);
	assert_int_equal(cp, 0x800);
	assert_int_equal(utf8_decode("\xed\x9f\xbf", 3, &cp), 3);
	assert_int_equal(cp, 0xD7FF);
	assert_int_equal(utf8_decode("\xee\x80\x80", 3, &cp), 3);
	assert_int_equal(cp, 0xE000);
	assert_int_equal(utf8_decode("\xf0\x90\x80\x80", 4, &cp), 4);
	assert_int_equal(cp, 0x10000);
	assert_int_equal(utf8_decode("\xf4\x8f\xbf\xbf", 4, &cp), 4);
	assert_int_equal(cp, 0x10FFFF);
	assert_int_equal(utf8_decode("", 0, &cp), 0);
}

/* The forbidden code points, written out from protocol.md §1.5. */
static int
model_forbidden(uint32_t cp)
{
	return ((cp < 0x20 && cp != '\t') || (cp >= 0x7F && cp <= 0x9F) ||
	    cp == 0x061C || cp == 0x200E || cp == 0x200F ||
	    (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) ||
	    cp == 0x2028 || cp == 0x2029 || (cp >= 0xFDD0 && cp <= 0xFDEF) ||
	    (cp & 0xFFFF) == 0xFFFE || (cp & 0xFFFF) == 0xFFFF);
}

/* Over every code point: forbidden exactly where the model says. */
static void
test_utf8_class_forbidden_exhaustive(void **state)
{
	char		buf[UTF8_MAX];
	uint32_t	cp;
	size_t		n;
	int		forbidden;

	(void)state;
	for (cp = 0; cp <= 0x10FFFF; cp++) {
		if (cp >= 0xD800 && cp <= 0xDFFF)
			continue;
		forbidden = utf8_class(cp) == UTF8_FORBIDDEN;
		if (forbidden != model_forbidden(cp))
			fail_msg("U+%04X: forbidden %d", (unsigned)cp,
			    forbidden);
		n = utf8_encode(cp, buf);
		if (utf8_text(buf, n) == forbidden)
			fail_msg("U+%04X: utf8_text %d", (unsigned)cp,
			    !forbidden);
	}
	/* Not characters at all. */
	assert_int_equal(utf8_class(0xD800), UTF8_FORBIDDEN);
	assert_int_equal(utf8_class(0xDFFF), UTF8_FORBIDDEN);
	assert_int_equal(utf8_class(0x110000), UTF8_FORBIDDEN);
}

/*
 * The invisible class by its edges: every range of protocol.md §3.4 at
 * its first and last code point, and the code points just outside.
 */
static void
test_utf8_class_invisible(void **state)
{
	static const uint32_t	ranges[][2] = {
		{ 0x00A0, 0x00A0 }, { 0x00AD, 0x00AD }, { 0x0300, 0x036F },
		{ 0x0600, 0x0605 }, { 0x06DD, 0x06DD }, { 0x070F, 0x070F },
		{ 0x0890, 0x0891 }, { 0x08E2, 0x08E2 }, { 0x115F, 0x1160 },
		{ 0x1680, 0x1680 }, { 0x17B4, 0x17B5 }, { 0x180B, 0x180F },
		{ 0x1AB0, 0x1AFF }, { 0x1DC0, 0x1DFF }, { 0x2000, 0x200D },
		{ 0x202F, 0x202F }, { 0x205F, 0x2065 }, { 0x206A, 0x206F },
		{ 0x20D0, 0x20FF }, { 0x2800, 0x2800 }, { 0x3000, 0x3000 },
		{ 0x3164, 0x3164 }, { 0xE000, 0xF8FF }, { 0xFE00, 0xFE0F },
		{ 0xFE20, 0xFE2F }, { 0xFEFF, 0xFEFF }, { 0xFFA0, 0xFFA0 },
		{ 0xFFF0, 0xFFFD }, { 0x110BD, 0x110BD }, { 0x110CD, 0x110CD },
		{ 0x13430, 0x1343F }, { 0x16FE4, 0x16FE4 }, { 0x1BCA0, 0x1BCA3 },
		{ 0x1D173, 0x1D17A }, { 0xE0000, 0xE0FFF },
		{ 0xF0000, 0x10FFFD },
	};
	/* Some that look like nothing, or like a space, by name. */
	static const uint32_t	named[] = {
		0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF, 0x00AD, 0x00A0,
		0x034F, 0x0308, 0x3000, 0x2003, 0xE0041, 0xFE0F, 0x16FE4,
	};
	size_t			i;
	uint32_t		lo, hi;

	(void)state;
	for (i = 0; i < NCASES(ranges); i++) {
		lo = ranges[i][0];
		hi = ranges[i][1];
		if (utf8_class(lo) != UTF8_INVISIBLE ||
		    utf8_class(hi) != UTF8_INVISIBLE ||
		    utf8_class(lo + (hi - lo) / 3) != UTF8_INVISIBLE)
			fail_msg("U+%04X-%04X not invisible", (unsigned)lo,
			    (unsigned)hi);
		/* Just outside: text, or the neighbouring range's class. */
		if (utf8_class(lo - 1) == UTF8_INVISIBLE &&
		    (i == 0 || ranges[i - 1][1] != lo - 1))
			fail_msg("U+%04X invisible", (unsigned)(lo - 1));
		if (hi < 0x10FFFD && utf8_class(hi + 1) == UTF8_INVISIBLE &&
		    (i + 1 == NCASES(ranges) || ranges[i + 1][0] != hi + 1))
			fail_msg("U+%04X invisible", (unsigned)(hi + 1));
	}
	for (i = 0; i < NCASES(named); i++)
		assert_int_equal(utf8_class(named[i]), UTF8_INVISIBLE);
	/* Letters of many scripts, symbols and emoji are text. */
	assert_int_equal(utf8_class(' '), UTF8_TEXT);
	assert_int_equal(utf8_class('\t'), UTF8_TEXT);
	assert_int_equal(utf8_class('~'), UTF8_TEXT);
	assert_int_equal(utf8_class(0x00A1), UTF8_TEXT);	/* ¡ */
	assert_int_equal(utf8_class(0x00EB), UTF8_TEXT);	/* ë */
	assert_int_equal(utf8_class(0x03A9), UTF8_TEXT);	/* Ω */
	assert_int_equal(utf8_class(0x042F), UTF8_TEXT);	/* Я */
	assert_int_equal(utf8_class(0x05D0), UTF8_TEXT);	/* א */
	assert_int_equal(utf8_class(0x0627), UTF8_TEXT);	/* ا */
	assert_int_equal(utf8_class(0x0915), UTF8_TEXT);	/* क */
	assert_int_equal(utf8_class(0x093F), UTF8_TEXT);	/* ि */
	assert_int_equal(utf8_class(0x4E2D), UTF8_TEXT);	/* 中 */
	assert_int_equal(utf8_class(0xAC00), UTF8_TEXT);	/* 가 */
	/* Object replacement and replacement character: invisible. */
	assert_int_equal(utf8_class(0xFFFC), UTF8_INVISIBLE);
	assert_int_equal(utf8_class(0xFFFD), UTF8_INVISIBLE);
	assert_int_equal(utf8_class(0x1F600), UTF8_TEXT);	/* 😀 */
	assert_int_equal(utf8_class(0x20000), UTF8_TEXT);
}

/* utf8_text on whole strings: where the forbidden one is does not matter. */
static void
test_utf8_text(void **state)
{
	static const struct {
		const char	*s;
		int		 ok;
	} cases[] = {
		{ "", 1 }, { "PING", 1 }, { "MOVE\tb2", 1 },
		{ "NAME Zo\xc3\xab", 1 }, { "SAY \xc2\xa1hola!", 1 },
		{ "SAY \xe4\xb8\xad\xe6\x96\x87 \xf0\x9f\x98\x80", 1 },
		{ "SAY a\xe2\x80\x8b" "b", 1 },		/* ZWSP: chat may */
		{ "SAY \xe2\x80\xae" "evil", 0 },	/* RLO */
		{ "SAY evil\xe2\x81\xa6", 0 },		/* LRI, last */
		{ "\xd8\x9c", 0 },			/* ALM, alone */
		{ "SAY a\xe2\x80\xa8" "b", 0 },		/* LINE SEPARATOR */
		{ "SAY a\xc2\x85", 0 },			/* NEL, C1 */
		{ "SAY a\xc2\x9b[31m", 0 },		/* CSI, C1 */
		{ "SAY \x1b[31m", 0 }, { "SAY a\x7f", 0 },
		{ "SAY a\r", 0 },
		{ "SAY \xef\xbf\xbe", 0 },		/* U+FFFE */
		{ "NAME Zo\xc3", 0 },			/* cut short */
		{ "NAME Zo\xc3\xab\xab", 0 },		/* stray */
	};
	size_t	i;

	(void)state;
	for (i = 0; i < NCASES(cases); i++) {
		if (utf8_text(cases[i].s, strlen(cases[i].s)) != cases[i].ok)
			fail_msg("case %zu \"%s\": %d", i, cases[i].s,
			    !cases[i].ok);
	}
	/* A NUL is C0: forbidden, and len counts, not the NUL. */
	assert_false(utf8_text("a\0b", 3));
	assert_true(utf8_text("a\0b", 1));
}

/* Characters, not bytes: one for each sequence. */
static void
test_utf8_count(void **state)
{
	(void)state;
	assert_int_equal(utf8_count("", 0), 0);
	assert_int_equal(utf8_count("abc", 3), 3);
	assert_int_equal(utf8_count("Zo\xc3\xab", 4), 3);
	assert_int_equal(utf8_count("\xe4\xb8\xad\xe6\x96\x87", 6), 2);
	assert_int_equal(utf8_count("\xf0\x9f\x98\x80!", 5), 2);
	assert_int_equal(utf8_count("\xc2\xa1hola!", 7), 6);
}

/* A text cut at every byte keeps whole characters only, and all of them. */
static void
test_utf8_trim_every_cut(void **state)
{
	static const char	s[] = "a\xc3\xab\xe4\xb8\xad\xf0\x9f\x98\x80z";
	/* Where each character ends: a cut keeps up to the last one. */
	static const size_t	ends[] = { 0, 1, 3, 6, 10, 11 };
	size_t			len, i, want;

	(void)state;
	for (len = 0; len < sizeof s; len++) {
		want = 0;
		for (i = 0; i < NCASES(ends); i++) {
			if (ends[i] <= len)
				want = ends[i];
		}
		assert_int_equal(utf8_trim(s, len), want);
		assert_true(utf8_text(s, utf8_trim(s, len)));
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_utf8_decode_exhaustive_short),
		cmocka_unit_test(test_utf8_decode_four_bytes),
		cmocka_unit_test(test_utf8_encode_every_code_point),
		cmocka_unit_test(test_utf8_decode_invalid_by_kind),
		cmocka_unit_test(test_utf8_class_forbidden_exhaustive),
		cmocka_unit_test(test_utf8_class_invisible),
		cmocka_unit_test(test_utf8_text),
		cmocka_unit_test(test_utf8_count),
		cmocka_unit_test(test_utf8_trim_every_cut),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
