/*
 * namecheck.c -- a name's Unicode rules, by ICU (see namecheck.h).
 *
 * proto_name_valid (proto/parse.c) has already refused what no name may
 * hold on any client: controls, spaces, the invisible characters of its
 * table, ASCII punctuation.  What it cannot know without Unicode's
 * character database is checked here, on the server only: a code point
 * not assigned (in ICU's Unicode), one that is default-ignorable, and a
 * first character that is a mark, a format character, a space or a
 * control: a name starts with something that shows.
 *
 * Two names are one when their keys are equal.  A key is the name
 *
 *   1. NFKC_Casefold (full case folding, as u_strFoldCase's default, with
 *      compatibility forms: fullwidth `ｐ１` and bold `𝐩𝟏` are `p1`);
 *   2. with each small capital of a Latin letter as that letter (`ᴀ` as
 *      `a`, by their names): UTS #39 and NFKC leave them apart, or map
 *      them elsewhere (`ᴍ` to `ʍ`), and `ᴀʟɪᴄᴇ` would pass for `alice`;
 *   3. reduced to its UTS #39 confusable skeleton (uspoof_getSkeleton:
 *      Cyrillic `р` is `p`, `1` and `l` are one); if the skeleton holds
 *      small capitals, step 2 and this step once more: the skeleton
 *      makes small capitals of some letters folded (`В`, folded `в`, is
 *      `ʙ`), and `Вob` would pass for `Bob`;
 *   4. NFKC_Casefold again, since a skeleton may hold capitals (`0` is
 *      `O`) and decomposed letters;
 *
 * in UTF-8.  The keys are the same on every node that has the same ICU.
 *
 * Most names are ASCII, and an ASCII name's key is the keys of its
 * characters one after the other (no normalisation joins ASCII, and the
 * skeleton maps one character at a time): they are made by ICU once, at
 * the start, and an ASCII name is keyed from them, not through ICU again.
 */
#include <stdlib.h>
#include <string.h>

#include <unicode/uchar.h>
#include <unicode/uclean.h>
#include <unicode/uscript.h>
#include <unicode/unorm2.h>
#include <unicode/uspoof.h>
#include <unicode/ustring.h>
#include <unicode/utf16.h>
#include <unicode/utf8.h>

#include "namecheck.h"

/* UTF-16 units of a key on its way: ten a byte of a name, and room. */
#define NAMECHECK_U16	(PROTO_NAME_MAX * 12)

/* What a first character may not be: a mark, a control, a space. */
#define NAMECHECK_NOT_BASE	(U_GC_M_MASK | U_GC_C_MASK | U_GC_Z_MASK)

/* An ASCII character's key at most (`m` is `rn`), its NUL included. */
#define NAMECHECK_ASCII_KEY	4

struct namecheck {
	USpoofChecker		*spoof;
	const UNormalizer2	*fold;		/* NFKC_Casefold; ICU's own */
	char			 ascii[128][NAMECHECK_ASCII_KEY];
						/* the keys of the ASCII a
						   name may hold; "" others */
};

static UChar32	namecheck_letter(UChar32);
static int32_t	namecheck_small(const UChar *, int32_t, UChar *, int32_t,
		    int *);
static size_t	namecheck_icu(const struct namecheck *, const char *, size_t,
		    char *, size_t);
static size_t	namecheck_ascii(const struct namecheck *, const char *,
		    size_t, char *, size_t);
static int	namecheck_name_ascii(int);
static int	namecheck_ascii_init(struct namecheck *);

/* Is this an ASCII character a name may hold: a letter, a digit, _ or -? */
static int
namecheck_name_ascii(int ch)
{
	return ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	    (ch >= '0' && ch <= '9') || ch == '_' || ch == '-');
}

/*
 * The keys of the ASCII a name may hold, made by ICU: 0, or -1 if one is
 * not ASCII (none is, in ICU 72), and then ICU keys ASCII names too.
 */
static int
namecheck_ascii_init(struct namecheck *nc)
{
	char	c, k[NAMECHECK_KEY_MAX];
	size_t	i, n;
	int	ch;

	for (ch = 0; ch < 128; ch++) {
		if (!namecheck_name_ascii(ch))
			continue;
		c = (char)ch;
		n = namecheck_icu(nc, &c, 1, k, sizeof k);
		if (n == 0 || n >= NAMECHECK_ASCII_KEY)
			return (-1);
		for (i = 0; i < n; i++) {
			if ((unsigned char)k[i] >= 0x80)
				return (-1);
		}
		memcpy(nc->ascii[ch], k, n + 1);
	}
	return (0);
}

/* A checker, opened once (the lobby's): NULL if ICU cannot give one. */
struct namecheck *
namecheck_new(void)
{
	struct namecheck	*nc;
	UErrorCode		 e = U_ZERO_ERROR;

	if ((nc = calloc(1, sizeof *nc)) == NULL)
		return (NULL);
	nc->fold = unorm2_getNFKCCasefoldInstance(&e);
	nc->spoof = uspoof_open(&e);
	if (U_FAILURE(e)) {
		namecheck_free(nc);
		return (NULL);
	}
	if (namecheck_ascii_init(nc) == -1)
		memset(nc->ascii, 0, sizeof nc->ascii);
	return (nc);
}

/* Close a checker (NULL is nothing). */
void
namecheck_free(struct namecheck *nc)
{
	if (nc == NULL)
		return;
	if (nc->spoof != NULL)
		uspoof_close(nc->spoof);
	free(nc);
}

/*
 * Give back what ICU keeps for the whole process (its data, caches), at
 * the end, once every checker is closed: memory checkers see no leak.
 */
void
namecheck_cleanup(void)
{
	u_cleanup();
}

/*
 * May a name (len bytes, valid by proto_name_valid) hold these code
 * points: none unassigned or default-ignorable, the first a base?
 */
int
namecheck_valid(const char *s, size_t len)
{
	const uint8_t	*p = (const uint8_t *)s;
	int32_t		 i = 0, n = (int32_t)len;
	UChar32		 cp;
	int		 first = 1;

	if (len == 0 || len > PROTO_NAME_MAX)
		return (0);
	while (i < n) {
		if (p[i] < 0x80) {	/* a letter, digit, _ or -: proto's */
			i++;
			first = 0;
			continue;
		}
		U8_NEXT(p, i, n, cp);
		if (cp < 0 || u_charType(cp) == U_UNASSIGNED ||
		    u_hasBinaryProperty(cp, UCHAR_DEFAULT_IGNORABLE_CODE_POINT))
			return (0);
		if (first && (U_GET_GC_MASK(cp) & NAMECHECK_NOT_BASE))
			return (0);
		first = 0;
	}
	return (1);
}

/*
 * A small capital's letter, by its name ("LATIN LETTER SMALL CAPITAL A"
 * is a); any other code point as it is.  Only the Latin ones of a single
 * letter, the ones that pass for ASCII: a name is looked up, never
 * searched for (u_charFromName reads every name there is).
 */
static UChar32
namecheck_letter(UChar32 cp)
{
	static const char	 prefix[] = "LATIN LETTER SMALL CAPITAL ";
	char			 name[64];
	UErrorCode		 e = U_ZERO_ERROR;
	const size_t		 n = sizeof prefix - 1;

	if (uscript_getScript(cp, &e) != USCRIPT_LATIN || U_FAILURE(e))
		return (cp);
	if (u_charName(cp, U_UNICODE_CHAR_NAME, name, sizeof name, &e) !=
	    (int32_t)n + 1 || U_FAILURE(e) || memcmp(name, prefix, n) != 0 ||
	    name[n] < 'A' || name[n] > 'Z')
		return (cp);
	return (name[n] - 'A' + 'a');
}

/*
 * in (n units) into out (size units) with each small capital as its
 * letter: out's length, or -1 if it does not fit; *changed if any was.
 * Only Latin letters beyond ASCII in lower case are looked up by name.
 */
static int32_t
namecheck_small(const UChar *in, int32_t n, UChar *out, int32_t size,
    int *changed)
{
	int32_t	i = 0, o = 0;
	UChar32	cp, to;
	UBool	full = 0;

	*changed = 0;
	while (i < n) {
		U16_NEXT(in, i, n, cp);
		if (cp >= 0x80 && u_charType(cp) == U_LOWERCASE_LETTER &&
		    (to = namecheck_letter(cp)) != cp) {
			cp = to;
			*changed = 1;
		}
		U16_APPEND(out, o, size, cp, full);
		if (full)
			return (-1);
	}
	return (o);
}

/*
 * A name's key (len bytes of UTF-8) into out (size bytes, NUL-ended): its
 * length; 0 if it cannot be made (invalid UTF-8, or too long for out).
 */
size_t
namecheck_key(const struct namecheck *nc, const char *s, size_t len,
    char *out, size_t size)
{
	size_t	n;

	if (len == 0 || len > PROTO_NAME_MAX || size == 0)
		return (0);
	if ((n = namecheck_ascii(nc, s, len, out, size)) > 0)
		return (n);
	return (namecheck_icu(nc, s, len, out, size));
}

/*
 * An ASCII name's key from its characters' (namecheck_key's way); 0 if
 * the name holds a character without one: ICU's to make.
 */
static size_t
namecheck_ascii(const struct namecheck *nc, const char *s, size_t len,
    char *out, size_t size)
{
	const char	*k;
	size_t		 i, n = 0, kn;

	for (i = 0; i < len; i++) {
		if ((unsigned char)s[i] >= 0x80)
			return (0);
		k = nc->ascii[(unsigned char)s[i]];
		if ((kn = strlen(k)) == 0 || n + kn >= size)
			return (0);
		memcpy(out + n, k, kn);
		n += kn;
	}
	out[n] = '\0';
	return (n);
}

/* A name's key made by ICU, every step (namecheck_key's way). */
static size_t
namecheck_icu(const struct namecheck *nc, const char *s, size_t len,
    char *out, size_t size)
{
	UChar		a[NAMECHECK_U16], b[NAMECHECK_U16], *src = a, *dst = b;
	UErrorCode	e = U_ZERO_ERROR;
	int32_t		na, nb, n;
	int		changed;

	u_strFromUTF8(a, NAMECHECK_U16, &na, s, (int32_t)len, &e);
	nb = unorm2_normalize(nc->fold, a, na, b, NAMECHECK_U16, &e);
	if (U_FAILURE(e) ||
	    (na = namecheck_small(b, nb, a, NAMECHECK_U16, &changed)) < 0)
		return (0);
	nb = uspoof_getSkeleton(nc->spoof, 0, a, na, b, NAMECHECK_U16, &e);
	if (U_FAILURE(e) ||
	    (na = namecheck_small(b, nb, a, NAMECHECK_U16, &changed)) < 0)
		return (0);
	if (changed) {		/* small capitals of the skeleton's own */
		na = uspoof_getSkeleton(nc->spoof, 0, a, na, b, NAMECHECK_U16,
		    &e);
		src = b;
		dst = a;
	}
	nb = unorm2_normalize(nc->fold, src, na, dst, NAMECHECK_U16, &e);
	u_strToUTF8(out, (int32_t)size, &n, dst, nb, &e);
	if (U_FAILURE(e) || n <= 0 || (size_t)n >= size)
		return (0);
	return ((size_t)n);
}
