/*
 * utf8.h -- UTF-8 text as the protocol takes it: strict decoding, the
 * code points refused on any line and the ones refused in names, a count
 * of characters and a cut that never splits a character (protocol.md
 * §1.5, §3.4).  Telling names apart is the server's (server/namecheck.c).
 *
 * Pure functions: no I/O, no allocation, no globals but constant tables.
 * A "character" is a code point.
 */
#ifndef UTF8_H
#define UTF8_H

#include <stddef.h>
#include <stdint.h>

#define UTF8_MAX	4	/* bytes of the longest character */

/* What a code point is to the protocol. */
enum utf8_class {
	UTF8_TEXT = 0,		/* allowed in chat and, but for ASCII (whose
				   name rule is its own), in names */
	UTF8_INVISIBLE,		/* allowed in chat, refused in names: spaces,
				   zero-width and other format characters,
				   combining diacritics, private use,
				   U+FFFC, U+FFFD */
	UTF8_FORBIDDEN		/* refused on any line (BAD_CHAR): C0 but
				   TAB, DEL, C1, bidi controls, line and
				   paragraph separators, noncharacters */
};

size_t		 utf8_decode(const char *, size_t, uint32_t *);
size_t		 utf8_encode(uint32_t, char *);
enum utf8_class	 utf8_class(uint32_t);
int		 utf8_text(const char *, size_t);
size_t		 utf8_count(const char *, size_t);
size_t		 utf8_trim(const char *, size_t);

#endif /* UTF8_H */
