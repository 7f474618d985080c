/*
 * framing.c -- taking protocol lines off a libevent input buffer.
 *
 * evbuffer_readln would malloc a copy of every line; instead the front of
 * the buffer (at most one legal line and its CR LF) is copied to the
 * caller's stack buffer and searched there, so framing allocates nothing.
 */
#include <event2/buffer.h>

#include "framing.h"

/*
 * Take the next line off the buffer into line (without its LF; *len bytes,
 * not NUL-terminated) and return PROTO_SCAN_LINE; or PROTO_SCAN_MORE when
 * no whole line is there yet; or PROTO_SCAN_TOO_LONG when what is there can
 * no longer become a legal line.  Only a returned line is drained: on
 * TOO_LONG the caller must drain or close, or the bytes stay forever.
 */
enum proto_scan
framing_next_line(struct evbuffer *in, char line[PROTO_SCAN_MAX], size_t *len)
{
	ev_ssize_t	n;
	enum proto_scan	rc;

	n = evbuffer_copyout(in, line, PROTO_SCAN_MAX);
	if (n <= 0)
		return (PROTO_SCAN_MORE);
	rc = proto_scan(line, (size_t)n, len);
	if (rc == PROTO_SCAN_LINE)
		evbuffer_drain(in, *len + 1);
	return (rc);
}
