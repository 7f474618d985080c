/*
 * utf8.c -- UTF-8 text as the protocol takes it (see utf8.h).
 *
 * Decoding is strict (RFC 3629): an overlong form, a surrogate
 * (U+D800-DFFF), a code point over U+10FFFF, a sequence cut short and a
 * continuation byte on its own are all invalid, and nothing invalid is
 * ever passed on.  The table of classes is small, sorted and searched in
 * halves.
 */
#include <string.h>

#include "utf8.h"

struct utf8_range {
	uint32_t	first;
	uint32_t	last;
	enum utf8_class	cls;
};

/*
 * The code points that are not UTF8_TEXT, in order; noncharacters
 * (U+FDD0-FDEF, and the last two of every plane) are refused by rule in
 * utf8_class, not listed.  UTF8_INVISIBLE is what could make two names
 * that look alike, or a name that looks empty or like two words: spaces
 * other than ASCII's, zero-width and other format characters, fillers
 * that render as nothing, variation selectors and tags, combining
 * diacritics (a letter and its mark look like the precomposed letter),
 * private use, which no font agrees on, and U+FFFC and U+FFFD, which
 * stand for something that is not there (an object; a character lost).
 */
static const struct utf8_range utf8_classes[] = {
	{ 0x0000, 0x0008, UTF8_FORBIDDEN },	/* C0, but TAB */
	{ 0x000A, 0x001F, UTF8_FORBIDDEN },
	{ 0x007F, 0x009F, UTF8_FORBIDDEN },	/* DEL, C1 */
	{ 0x00A0, 0x00A0, UTF8_INVISIBLE },	/* no-break space */
	{ 0x00AD, 0x00AD, UTF8_INVISIBLE },	/* soft hyphen */
	{ 0x0300, 0x036F, UTF8_INVISIBLE },	/* combining diacritics, CGJ */
	{ 0x0600, 0x0605, UTF8_INVISIBLE },	/* Arabic number signs */
	{ 0x061C, 0x061C, UTF8_FORBIDDEN },	/* Arabic letter mark */
	{ 0x06DD, 0x06DD, UTF8_INVISIBLE },
	{ 0x070F, 0x070F, UTF8_INVISIBLE },
	{ 0x0890, 0x0891, UTF8_INVISIBLE },
	{ 0x08E2, 0x08E2, UTF8_INVISIBLE },
	{ 0x115F, 0x1160, UTF8_INVISIBLE },	/* Hangul fillers */
	{ 0x1680, 0x1680, UTF8_INVISIBLE },	/* Ogham space */
	{ 0x17B4, 0x17B5, UTF8_INVISIBLE },	/* Khmer inherent vowels */
	{ 0x180B, 0x180F, UTF8_INVISIBLE },	/* Mongolian selectors */
	{ 0x1AB0, 0x1AFF, UTF8_INVISIBLE },	/* combining, extended */
	{ 0x1DC0, 0x1DFF, UTF8_INVISIBLE },	/* combining, supplement */
	{ 0x2000, 0x200D, UTF8_INVISIBLE },	/* spaces, ZWSP, ZWNJ, ZWJ */
	{ 0x200E, 0x200F, UTF8_FORBIDDEN },	/* LRM, RLM */
	{ 0x2028, 0x2029, UTF8_FORBIDDEN },	/* line, paragraph separator */
	{ 0x202A, 0x202E, UTF8_FORBIDDEN },	/* bidi embeddings, overrides */
	{ 0x202F, 0x202F, UTF8_INVISIBLE },	/* narrow no-break space */
	{ 0x205F, 0x2065, UTF8_INVISIBLE },	/* space, word joiner, ... */
	{ 0x2066, 0x2069, UTF8_FORBIDDEN },	/* bidi isolates */
	{ 0x206A, 0x206F, UTF8_INVISIBLE },	/* deprecated format */
	{ 0x20D0, 0x20FF, UTF8_INVISIBLE },	/* combining, for symbols */
	{ 0x2800, 0x2800, UTF8_INVISIBLE },	/* Braille blank */
	{ 0x3000, 0x3000, UTF8_INVISIBLE },	/* ideographic space */
	{ 0x3164, 0x3164, UTF8_INVISIBLE },	/* Hangul filler */
	{ 0xE000, 0xF8FF, UTF8_INVISIBLE },	/* private use */
	{ 0xFE00, 0xFE0F, UTF8_INVISIBLE },	/* variation selectors */
	{ 0xFE20, 0xFE2F, UTF8_INVISIBLE },	/* combining half marks */
	{ 0xFEFF, 0xFEFF, UTF8_INVISIBLE },	/* BOM, ZWNBSP */
	{ 0xFFA0, 0xFFA0, UTF8_INVISIBLE },	/* halfwidth Hangul filler */
	{ 0xFFF0, 0xFFFD, UTF8_INVISIBLE },	/* interlinear annotation,
						   object replacement,
						   replacement character */
	{ 0x110BD, 0x110BD, UTF8_INVISIBLE },
	{ 0x110CD, 0x110CD, UTF8_INVISIBLE },
	{ 0x13430, 0x1343F, UTF8_INVISIBLE },	/* Egyptian format */
	{ 0x16FE4, 0x16FE4, UTF8_INVISIBLE },	/* Khitan filler */
	{ 0x1BCA0, 0x1BCA3, UTF8_INVISIBLE },	/* shorthand format */
	{ 0x1D173, 0x1D17A, UTF8_INVISIBLE },	/* musical format */
	{ 0xE0000, 0xE0FFF, UTF8_INVISIBLE },	/* tags, selectors */
	{ 0xF0000, 0x10FFFF, UTF8_INVISIBLE },	/* private use planes */
};

#define UTF8_NELEM(a)	(sizeof (a) / sizeof (a)[0])

/*
 * The code point that starts s (len bytes): its length, 1 to 4, with the
 * code point in *cp; 0 if s is empty or does not start with a valid
 * sequence.
 */
size_t
utf8_decode(const char *s, size_t len, uint32_t *cp)
{
	const unsigned char	*p = (const unsigned char *)s;
	unsigned char		 lo = 0x80, hi = 0xBF;
	uint32_t		 c;
	size_t			 n, i;

	if (len == 0)
		return (0);
	if (p[0] < 0x80) {
		*cp = p[0];
		return (1);
	}
	if (p[0] >= 0xC2 && p[0] <= 0xDF) {
		n = 2;
		c = p[0] & 0x1F;
	} else if (p[0] >= 0xE0 && p[0] <= 0xEF) {
		n = 3;
		c = p[0] & 0x0F;
		if (p[0] == 0xE0)
			lo = 0xA0;	/* else overlong */
		else if (p[0] == 0xED)
			hi = 0x9F;	/* else a surrogate */
	} else if (p[0] >= 0xF0 && p[0] <= 0xF4) {
		n = 4;
		c = p[0] & 0x07;
		if (p[0] == 0xF0)
			lo = 0x90;	/* else overlong */
		else if (p[0] == 0xF4)
			hi = 0x8F;	/* else over U+10FFFF */
	} else
		return (0);	/* a continuation, C0, C1, F5-FF */
	if (len < n || p[1] < lo || p[1] > hi)
		return (0);
	c = (c << 6) | (p[1] & 0x3F);
	for (i = 2; i < n; i++) {
		if ((p[i] & 0xC0) != 0x80)
			return (0);
		c = (c << 6) | (p[i] & 0x3F);
	}
	*cp = c;
	return (n);
}

/* A code point (a valid one) in UTF-8 into out (UTF8_MAX bytes): its length. */
size_t
utf8_encode(uint32_t cp, char *out)
{
	unsigned char	*p = (unsigned char *)out;

	if (cp < 0x80) {
		p[0] = (unsigned char)cp;
		return (1);
	}
	if (cp < 0x800) {
		p[0] = (unsigned char)(0xC0 | (cp >> 6));
		p[1] = (unsigned char)(0x80 | (cp & 0x3F));
		return (2);
	}
	if (cp < 0x10000) {
		p[0] = (unsigned char)(0xE0 | (cp >> 12));
		p[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
		p[2] = (unsigned char)(0x80 | (cp & 0x3F));
		return (3);
	}
	p[0] = (unsigned char)(0xF0 | (cp >> 18));
	p[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
	p[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
	p[3] = (unsigned char)(0x80 | (cp & 0x3F));
	return (4);
}

/* What a code point is to the protocol: text, invisible or forbidden. */
enum utf8_class
utf8_class(uint32_t cp)
{
	size_t	lo = 0, hi = UTF8_NELEM(utf8_classes), mid;

	if (cp >= 0x20 && cp < 0x7F)
		return (UTF8_TEXT);
	if ((cp >= 0xFDD0 && cp <= 0xFDEF) || (cp & 0xFFFE) == 0xFFFE ||
	    cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		return (UTF8_FORBIDDEN);
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (cp < utf8_classes[mid].first)
			hi = mid;
		else if (cp > utf8_classes[mid].last)
			lo = mid + 1;
		else
			return (utf8_classes[mid].cls);
	}
	return (UTF8_TEXT);
}

/*
 * Is s (len bytes) text a line may carry: valid UTF-8 without a forbidden
 * code point?  ASCII, most of what comes, is checked a byte at a time.
 */
int
utf8_text(const char *s, size_t len)
{
	const unsigned char	*p = (const unsigned char *)s, *end = p + len;
	uint32_t		 cp;
	size_t			 n;

	while (p < end) {
		/* A run of printable ASCII (0x20 to 0x7E): a compare a byte. */
		while (p < end && (unsigned char)(*p - 0x20) < 0x5F)
			p++;
		if (p == end)
			break;
		if (*p < 0x80) {
			if (*p != '\t')
				return (0);	/* C0 but TAB, DEL */
			p++;
			continue;
		}
		if ((n = utf8_decode((const char *)p, (size_t)(end - p),
		    &cp)) == 0 || utf8_class(cp) == UTF8_FORBIDDEN)
			return (0);
		p += n;
	}
	return (1);
}

/* The characters of valid UTF-8: the bytes that are no continuation. */
size_t
utf8_count(const char *s, size_t len)
{
	size_t	i, n = 0;

	for (i = 0; i < len; i++) {
		if (((unsigned char)s[i] & 0xC0) != 0x80)
			n++;
	}
	return (n);
}

/*
 * The length of s (len bytes, a prefix of valid UTF-8) without a
 * character cut short at its end: where a text cut at any byte must end
 * so that it is still valid.
 */
size_t
utf8_trim(const char *s, size_t len)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 i = len, want;

	while (i > 0 && len - i < UTF8_MAX - 1 && (p[i - 1] & 0xC0) == 0x80)
		i--;
	if (i == 0 || p[i - 1] < 0xC0)
		return (len);	/* ASCII last, or no lead byte in reach */
	want = p[i - 1] >= 0xF0 ? 4 : p[i - 1] >= 0xE0 ? 3 : 2;
	return (len - (i - 1) < want ? i - 1 : len);
}
