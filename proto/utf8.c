/*
 * utf8.c -- UTF-8 text as the protocol takes it (see utf8.h).
 *
 * Decoding is strict (RFC 3629): an overlong form, a surrogate
 * (U+D800-DFFF), a code point over U+10FFFF, a sequence cut short and a
 * continuation byte on its own are all invalid, and nothing invalid is
 * ever passed on.  The tables are small, sorted and searched in halves.
 */
#include <string.h>

#include "utf8.h"

struct utf8_range {
	uint32_t	first;
	uint32_t	last;
	enum utf8_class	cls;
};

struct utf8_fold_run {
	uint32_t	first;
	uint32_t	last;
	int32_t		delta;
	uint32_t	step;
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

/*
 * The simple case folding (Unicode's CaseFolding.txt, statuses C and S)
 * of U+0000-052F (ASCII, Latin-1 Supplement, Latin Extended-A and -B, IPA,
 * Greek and Coptic, Cyrillic and its supplement), U+1E00-1EFF (Latin
 * Extended Additional) and U+2126-212B (Ohm, Kelvin and Angstrom signs),
 * and fullwidth ASCII U+FF01-FF5E, folded to ASCII and then case-folded.
 * Made by proto/mkfold.py (Unicode 14; 106 runs, 663 code points):
 * every step-th code point from first to last folds to itself plus
 * delta, and the ones between are left alone.
 */
static const struct utf8_fold_run utf8_folds[] = {
	{ 0x0041, 0x005A, 32, 1 },
	{ 0x00B5, 0x00B5, 775, 1 },
	{ 0x00C0, 0x00D6, 32, 1 },
	{ 0x00D8, 0x00DE, 32, 1 },
	{ 0x0100, 0x012E, 1, 2 },
	{ 0x0132, 0x0136, 1, 2 },
	{ 0x0139, 0x0147, 1, 2 },
	{ 0x014A, 0x0176, 1, 2 },
	{ 0x0178, 0x0178, -121, 1 },
	{ 0x0179, 0x017D, 1, 2 },
	{ 0x017F, 0x017F, -268, 1 },
	{ 0x0181, 0x0181, 210, 1 },
	{ 0x0182, 0x0184, 1, 2 },
	{ 0x0186, 0x0186, 206, 1 },
	{ 0x0187, 0x0187, 1, 1 },
	{ 0x0189, 0x018A, 205, 1 },
	{ 0x018B, 0x018B, 1, 1 },
	{ 0x018E, 0x018E, 79, 1 },
	{ 0x018F, 0x018F, 202, 1 },
	{ 0x0190, 0x0190, 203, 1 },
	{ 0x0191, 0x0191, 1, 1 },
	{ 0x0193, 0x0193, 205, 1 },
	{ 0x0194, 0x0194, 207, 1 },
	{ 0x0196, 0x0196, 211, 1 },
	{ 0x0197, 0x0197, 209, 1 },
	{ 0x0198, 0x0198, 1, 1 },
	{ 0x019C, 0x019C, 211, 1 },
	{ 0x019D, 0x019D, 213, 1 },
	{ 0x019F, 0x019F, 214, 1 },
	{ 0x01A0, 0x01A4, 1, 2 },
	{ 0x01A6, 0x01A6, 218, 1 },
	{ 0x01A7, 0x01A7, 1, 1 },
	{ 0x01A9, 0x01A9, 218, 1 },
	{ 0x01AC, 0x01AC, 1, 1 },
	{ 0x01AE, 0x01AE, 218, 1 },
	{ 0x01AF, 0x01AF, 1, 1 },
	{ 0x01B1, 0x01B2, 217, 1 },
	{ 0x01B3, 0x01B5, 1, 2 },
	{ 0x01B7, 0x01B7, 219, 1 },
	{ 0x01B8, 0x01B8, 1, 1 },
	{ 0x01BC, 0x01BC, 1, 1 },
	{ 0x01C4, 0x01C4, 2, 1 },
	{ 0x01C5, 0x01C5, 1, 1 },
	{ 0x01C7, 0x01C7, 2, 1 },
	{ 0x01C8, 0x01C8, 1, 1 },
	{ 0x01CA, 0x01CA, 2, 1 },
	{ 0x01CB, 0x01DB, 1, 2 },
	{ 0x01DE, 0x01EE, 1, 2 },
	{ 0x01F1, 0x01F1, 2, 1 },
	{ 0x01F2, 0x01F4, 1, 2 },
	{ 0x01F6, 0x01F6, -97, 1 },
	{ 0x01F7, 0x01F7, -56, 1 },
	{ 0x01F8, 0x021E, 1, 2 },
	{ 0x0220, 0x0220, -130, 1 },
	{ 0x0222, 0x0232, 1, 2 },
	{ 0x023A, 0x023A, 10795, 1 },
	{ 0x023B, 0x023B, 1, 1 },
	{ 0x023D, 0x023D, -163, 1 },
	{ 0x023E, 0x023E, 10792, 1 },
	{ 0x0241, 0x0241, 1, 1 },
	{ 0x0243, 0x0243, -195, 1 },
	{ 0x0244, 0x0244, 69, 1 },
	{ 0x0245, 0x0245, 71, 1 },
	{ 0x0246, 0x024E, 1, 2 },
	{ 0x0345, 0x0345, 116, 1 },
	{ 0x0370, 0x0372, 1, 2 },
	{ 0x0376, 0x0376, 1, 1 },
	{ 0x037F, 0x037F, 116, 1 },
	{ 0x0386, 0x0386, 38, 1 },
	{ 0x0388, 0x038A, 37, 1 },
	{ 0x038C, 0x038C, 64, 1 },
	{ 0x038E, 0x038F, 63, 1 },
	{ 0x0391, 0x03A1, 32, 1 },
	{ 0x03A3, 0x03AB, 32, 1 },
	{ 0x03C2, 0x03C2, 1, 1 },
	{ 0x03CF, 0x03CF, 8, 1 },
	{ 0x03D0, 0x03D0, -30, 1 },
	{ 0x03D1, 0x03D1, -25, 1 },
	{ 0x03D5, 0x03D5, -15, 1 },
	{ 0x03D6, 0x03D6, -22, 1 },
	{ 0x03D8, 0x03EE, 1, 2 },
	{ 0x03F0, 0x03F0, -54, 1 },
	{ 0x03F1, 0x03F1, -48, 1 },
	{ 0x03F4, 0x03F4, -60, 1 },
	{ 0x03F5, 0x03F5, -64, 1 },
	{ 0x03F7, 0x03F7, 1, 1 },
	{ 0x03F9, 0x03F9, -7, 1 },
	{ 0x03FA, 0x03FA, 1, 1 },
	{ 0x03FD, 0x03FF, -130, 1 },
	{ 0x0400, 0x040F, 80, 1 },
	{ 0x0410, 0x042F, 32, 1 },
	{ 0x0460, 0x0480, 1, 2 },
	{ 0x048A, 0x04BE, 1, 2 },
	{ 0x04C0, 0x04C0, 15, 1 },
	{ 0x04C1, 0x04CD, 1, 2 },
	{ 0x04D0, 0x052E, 1, 2 },
	{ 0x1E00, 0x1E94, 1, 2 },
	{ 0x1E9B, 0x1E9B, -58, 1 },
	{ 0x1E9E, 0x1E9E, -7615, 1 },
	{ 0x1EA0, 0x1EFE, 1, 2 },
	{ 0x2126, 0x2126, -7517, 1 },
	{ 0x212A, 0x212A, -8383, 1 },
	{ 0x212B, 0x212B, -8262, 1 },
	{ 0xFF01, 0xFF20, -65248, 1 },
	{ 0xFF21, 0xFF3A, -65216, 1 },
	{ 0xFF3B, 0xFF5E, -65248, 1 },
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
	const unsigned char	*p = (const unsigned char *)s;
	uint32_t		 cp;
	size_t			 i = 0, n;

	while (i < len) {
		if (p[i] < 0x80) {
			if ((p[i] < 0x20 && p[i] != '\t') || p[i] == 0x7F)
				return (0);
			i++;
			continue;
		}
		if ((n = utf8_decode(s + i, len - i, &cp)) == 0 ||
		    utf8_class(cp) == UTF8_FORBIDDEN)
			return (0);
		i += n;
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

/* A code point's simple case fold, as the names table compares them. */
uint32_t
utf8_fold(uint32_t cp)
{
	size_t				 lo = 0, hi = UTF8_NELEM(utf8_folds), mid;
	const struct utf8_fold_run	*r;

	if (cp < 0x80)
		return (cp >= 'A' && cp <= 'Z' ? cp + ('a' - 'A') : cp);
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		r = &utf8_folds[mid];
		if (cp < r->first)
			hi = mid;
		else if (cp > r->last)
			lo = mid + 1;
		else
			return ((cp - r->first) % r->step == 0 ?
			    (uint32_t)((int32_t)cp + r->delta) : cp);
	}
	return (cp);
}

/*
 * The fold of valid UTF-8 s (len bytes) into out, snprintf's way: what
 * fits of whole characters, NUL-terminated when size > 0; returns the
 * length the whole fold needs.  Folding keeps the number of characters
 * (simple folding is one to one), not always the number of bytes: a name
 * of n characters folds into at most n * UTF8_MAX bytes.  A byte that
 * starts no valid sequence is copied as it is.
 */
size_t
utf8_fold_str(const char *s, size_t len, char *out, size_t size)
{
	char		c[UTF8_MAX];
	uint32_t	cp;
	size_t		i = 0, n, k, total = 0, end = 0;
	int		full = 0;

	while (i < len) {
		if ((n = utf8_decode(s + i, len - i, &cp)) == 0) {
			c[0] = s[i];
			n = k = 1;
		} else
			k = utf8_encode(utf8_fold(cp), c);
		if (!full && total + k < size) {
			memcpy(out + total, c, k);
			end = total + k;
		} else
			full = 1;	/* no part of a character, nor more */
		total += k;
		i += n;
	}
	if (size > 0)
		out[end] = '\0';
	return (total);
}
