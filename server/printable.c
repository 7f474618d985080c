/*
 * printable.c -- client bytes made safe to print in a log line.
 */
#include "printable.h"

/*
 * Copy len bytes of s into out (size bytes, NUL-terminated): printable
 * ASCII as it is, a backslash and anything else as \xHH; cut to fit.
 * Returns out.
 */
const char *
printable(const char *s, size_t len, char *out, size_t size)
{
	static const char	hex[] = "0123456789abcdef";
	size_t			i, n = 0;

	if (size == 0)
		return (out);
	for (i = 0; i < len; i++) {
		unsigned char	c = (unsigned char)s[i];

		if (c >= 0x20 && c < 0x7f && c != '\\') {
			if (n + 1 >= size)
				break;
			out[n++] = (char)c;
		} else {
			if (n + 4 >= size)
				break;
			out[n++] = '\\';
			out[n++] = 'x';
			out[n++] = hex[c >> 4];
			out[n++] = hex[c & 15];
		}
	}
	out[n] = '\0';
	return (out);
}
