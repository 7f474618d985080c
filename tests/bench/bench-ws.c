/*
 * bench-ws.c -- ttt-bench's WebSocket transport (RFC 6455), the pure part.
 *
 * With --ws a connection first upgrades: GET /ws with a random
 * Sec-WebSocket-Key, and the answer must be 101 with Upgrade: websocket,
 * Connection: Upgrade and Sec-WebSocket-Accept the base64 of the SHA-1 of
 * the key and RFC 6455's GUID.  Then one text message is one protocol
 * line, both ways: each line ttt-bench sends becomes one masked text frame
 * without its line end, and each text message the server sends (in one
 * frame or several, a continuation at a time) becomes a line again, with
 * "\r\n" put back, for the line code that TCP uses.  A ping is to be
 * answered with a pong of its payload, a close is the server ending the
 * connection; the server's frames must not be masked.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <nettle/base64.h>
#include <nettle/sha1.h>
#include <nettle/version.h>

#include "bench-ws.h"

#define BENCH_WS_GUID	"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

static size_t	bench_ws_need(const struct bench_ws_rx *);
static enum bench_ws_got bench_ws_start(struct bench_ws_rx *);
static enum bench_ws_got bench_ws_end(struct bench_ws_rx *, char **,
		    size_t *);
static int	bench_ws_status(const char *, size_t, int);
static int	bench_ws_header(const char *, size_t, const char *);
static int	bench_ws_token(const char *, size_t, const char *);

/* Sec-WebSocket-Key: 16 random bytes in base64. */
void
bench_ws_key(const uint8_t raw[BENCH_WS_RAW_KEY], char key[BENCH_WS_KEY_LEN + 1])
{
	base64_encode_raw(key, BENCH_WS_RAW_KEY, raw);
	key[BENCH_WS_KEY_LEN] = '\0';
}

/* The Sec-WebSocket-Accept that answers a key. */
void
bench_ws_accept(const char *key, char accept[BENCH_WS_ACCEPT_LEN + 1])
{
	struct sha1_ctx	ctx;
	uint8_t		digest[SHA1_DIGEST_SIZE];

	sha1_init(&ctx);
	sha1_update(&ctx, strlen(key), (const uint8_t *)key);
	sha1_update(&ctx, sizeof BENCH_WS_GUID - 1,
	    (const uint8_t *)BENCH_WS_GUID);
#if NETTLE_VERSION_MAJOR > 3 || \
    (NETTLE_VERSION_MAJOR == 3 && NETTLE_VERSION_MINOR >= 10)
	sha1_digest(&ctx, digest);
#else
	sha1_digest(&ctx, sizeof digest, digest);
#endif
	base64_encode_raw(accept, sizeof digest, digest);
	accept[BENCH_WS_ACCEPT_LEN] = '\0';
}

/* The upgrade request into buf: its length, or -1 if it does not fit. */
int
bench_ws_request(char *buf, size_t size, const char *host, const char *port,
    const char *key)
{
	int	v6 = strchr(host, ':') != NULL;
	int	n;

	n = snprintf(buf, size,
	    "GET /ws HTTP/1.1\r\n"
	    "Host: %s%s%s:%s\r\n"
	    "Upgrade: websocket\r\n"
	    "Connection: Upgrade\r\n"
	    "Sec-WebSocket-Key: %s\r\n"
	    "Sec-WebSocket-Version: 13\r\n"
	    "\r\n", v6 ? "[" : "", host, v6 ? "]" : "", port, key);
	if (n < 0 || (size_t)n >= size)
		return (-1);
	return (n);
}

/* Is tok one of the comma-separated tokens of a header value? */
static int
bench_ws_token(const char *v, size_t len, const char *tok)
{
	size_t	n = strlen(tok), i = 0, j;

	while (i < len) {
		while (i < len && (v[i] == ' ' || v[i] == '\t' || v[i] == ','))
			i++;
		for (j = i; j < len && v[j] != ','; j++)
			;
		while (j > i && (v[j - 1] == ' ' || v[j - 1] == '\t'))
			j--;
		if (j - i == n && strncasecmp(v + i, tok, n) == 0)
			return (1);
		while (i < len && v[i] != ',')
			i++;
	}
	return (0);
}

/*
 * Is this the status line of a 101, "HTTP/1.1 101 Switching Protocols"
 * (whole), or can it still be one (not whole yet)?
 */
static int
bench_ws_status(const char *p, size_t n, int whole)
{
	static const char	want[] = "HTTP/1.? 101";
	size_t			i;

	for (i = 0; i < n && i < sizeof want - 1; i++) {
		if (want[i] != '?' && p[i] != want[i])
			return (0);
	}
	if (n > 12 && p[12] != ' ' && p[12] != '\r')
		return (0);
	return (!whole || n >= 12);
}

/*
 * One header line (without its line end): 1 for Upgrade: websocket, 2
 * for Connection: upgrade, 4 for the right Sec-WebSocket-Accept, else 0.
 */
static int
bench_ws_header(const char *line, size_t len, const char *accept)
{
	const char	*colon, *v;
	size_t		 nlen, vlen;

	if ((colon = memchr(line, ':', len)) == NULL)
		return (0);
	nlen = (size_t)(colon - line);
	v = colon + 1;
	vlen = len - nlen - 1;
	while (vlen > 0 && (*v == ' ' || *v == '\t')) {
		v++;
		vlen--;
	}
	while (vlen > 0 && (v[vlen - 1] == ' ' || v[vlen - 1] == '\t'))
		vlen--;
	if (nlen == 7 && strncasecmp(line, "Upgrade", 7) == 0)
		return (bench_ws_token(v, vlen, "websocket") ? 1 : 0);
	if (nlen == 10 && strncasecmp(line, "Connection", 10) == 0)
		return (bench_ws_token(v, vlen, "upgrade") ? 2 : 0);
	if (nlen == 20 && strncasecmp(line, "Sec-WebSocket-Accept", 20) == 0)
		return (vlen == strlen(accept) &&
		    memcmp(v, accept, vlen) == 0 ? 4 : 0);
	return (0);
}

/*
 * The answer to the upgrade so far, buf[0..len): the length of its head
 * (status line and headers, through the empty line), 0 when that is not
 * all in yet, or -1 when it is not a good 101 (as soon as the status line
 * says so).
 */
long
bench_ws_response(const char *buf, size_t len, const char *accept)
{
	const char	*p = buf, *nl;
	size_t		 n;
	int		 first = 1, seen = 0;

	while ((nl = memchr(p, '\n', len - (size_t)(p - buf))) != NULL) {
		n = (size_t)(nl - p);
		if (n > 0 && p[n - 1] == '\r')
			n--;
		if (first) {
			if (!bench_ws_status(p, n, 1))
				return (-1);
			first = 0;
		} else if (n == 0)
			return (seen == 7 ? (long)(nl + 1 - buf) : -1);
		else
			seen |= bench_ws_header(p, n, accept);
		p = nl + 1;
	}
	/* A refusal is known as soon as its status line shows it. */
	if (first && !bench_ws_status(p, len, 0))
		return (-1);
	return (0);
}

/*
 * One frame from the client, FIN set, masked with mask: its length in
 * out, or 0 if out is too small.
 */
size_t
bench_ws_frame(uint8_t *out, size_t size, enum bench_ws_op op,
    const void *payload, size_t len, const uint8_t mask[4])
{
	const uint8_t	*p = payload;
	size_t		 h = 2, i;

	if (len >= 65536)
		h += 8;
	else if (len >= 126)
		h += 2;
	if (size < h + 4 || size - h - 4 < len)
		return (0);
	out[0] = (uint8_t)(0x80 | op);
	if (len < 126)
		out[1] = (uint8_t)(0x80 | len);
	else if (len < 65536) {
		out[1] = 0x80 | 126;
		out[2] = (uint8_t)(len >> 8);
		out[3] = (uint8_t)len;
	} else {
		out[1] = 0x80 | 127;
		for (i = 0; i < 8; i++)
			out[2 + i] = (uint8_t)((uint64_t)len >> (56 - 8 * i));
	}
	memcpy(out + h, mask, 4);
	h += 4;
	for (i = 0; i < len; i++)
		out[h + i] = p[i] ^ mask[i & 3];
	return (h + len);
}

/* A line as ttt-bench writes it ("MOVE B2\n"): one text frame, no LF. */
size_t
bench_ws_line(uint8_t *out, size_t size, const char *line, size_t len,
    const uint8_t mask[4])
{
	if (len > 0 && line[len - 1] == '\n')
		len--;
	if (len > 0 && line[len - 1] == '\r')
		len--;
	return (bench_ws_frame(out, size, BENCH_WS_OP_TEXT, line, len, mask));
}

/* Header bytes this frame has: 2, then as the length's size says. */
static size_t
bench_ws_need(const struct bench_ws_rx *rx)
{
	if (rx->hdrlen < 2)
		return (2);
	switch (rx->hdr[1] & 0x7f) {
	case 126:
		return (4);
	case 127:
		return (10);
	default:
		return (2);
	}
}

/* A frame's header is in: check it and take its length. */
static enum bench_ws_got
bench_ws_start(struct bench_ws_rx *rx)
{
	uint64_t	len = rx->hdr[1] & 0x7f;
	int		i;

	rx->fin = (rx->hdr[0] & 0x80) != 0;
	rx->op = rx->hdr[0] & 0x0f;
	if ((rx->hdr[0] & 0x70) != 0 || (rx->hdr[1] & 0x80) != 0)
		return (BENCH_WS_BAD);	/* extension bits; masked by a server */
	if (len == 126)
		len = (uint64_t)rx->hdr[2] << 8 | rx->hdr[3];
	else if (len == 127) {
		len = 0;
		for (i = 0; i < 8; i++)
			len = len << 8 | rx->hdr[2 + i];
		if (len >> 63)
			return (BENCH_WS_BAD);
	}
	switch (rx->op) {
	case BENCH_WS_OP_CONT:
		if (!rx->msg)
			return (BENCH_WS_BAD);
		break;
	case BENCH_WS_OP_TEXT:
		if (rx->msg)
			return (BENCH_WS_BAD);
		rx->msg = 1;
		break;
	case BENCH_WS_OP_CLOSE:
	case BENCH_WS_OP_PING:
	case BENCH_WS_OP_PONG:
		if (!rx->fin || len > BENCH_WS_CTL_MAX)
			return (BENCH_WS_BAD);
		rx->ctllen = 0;
		break;
	default:
		return (BENCH_WS_BAD);	/* binary, or reserved */
	}
	rx->left = len;
	return (BENCH_WS_MORE);
}

/* A frame is all in: the end of a line, or a control frame to act on. */
static enum bench_ws_got
bench_ws_end(struct bench_ws_rx *rx, char **out, size_t *outleft)
{
	rx->hdrlen = 0;
	switch (rx->op) {
	case BENCH_WS_OP_CONT:
	case BENCH_WS_OP_TEXT:
		if (!rx->fin)
			return (BENCH_WS_MORE);
		if (*outleft < 2)
			return (BENCH_WS_BAD);
		memcpy(*out, "\r\n", 2);
		*out += 2;
		*outleft -= 2;
		rx->msg = 0;
		return (BENCH_WS_MORE);
	case BENCH_WS_OP_PING:
		return (BENCH_WS_PING);
	case BENCH_WS_OP_CLOSE:
		return (BENCH_WS_CLOSE);
	default:
		return (BENCH_WS_MORE);		/* a pong */
	}
}

/*
 * Take frames from *in (*inlen bytes), writing the lines of their text
 * messages to *out (*outleft bytes of room), each with "\r\n"; both are
 * moved on.  It stops when the input is used up (BENCH_WS_MORE), after a
 * ping or a close, to be acted on before calling again, or at a frame that
 * breaks RFC 6455 or a line that does not fit (BENCH_WS_BAD).
 */
enum bench_ws_got
bench_ws_decode(struct bench_ws_rx *rx, const uint8_t **in, size_t *inlen,
    char **out, size_t *outleft)
{
	enum bench_ws_got	 got;
	const uint8_t		*p;
	size_t			 n;

	for (;;) {
		if (rx->hdrlen < bench_ws_need(rx)) {
			if (*inlen == 0)
				return (BENCH_WS_MORE);
			rx->hdr[rx->hdrlen++] = **in;
			(*in)++;
			(*inlen)--;
			if (rx->hdrlen < bench_ws_need(rx))
				continue;
			if ((got = bench_ws_start(rx)) != BENCH_WS_MORE)
				return (got);
		}
		if (rx->left > 0) {
			if (*inlen == 0)
				return (BENCH_WS_MORE);
			n = *inlen < rx->left ? *inlen : (size_t)rx->left;
			p = *in;
			if (rx->op & 0x8) {
				memcpy(rx->ctl + rx->ctllen, p, n);
				rx->ctllen = (uint8_t)(rx->ctllen + n);
			} else {
				if (*outleft < n)
					return (BENCH_WS_BAD);
				memcpy(*out, p, n);
				*out += n;
				*outleft -= n;
			}
			*in += n;
			*inlen -= n;
			rx->left -= n;
			if (rx->left > 0)
				return (BENCH_WS_MORE);
		}
		if ((got = bench_ws_end(rx, out, outleft)) != BENCH_WS_MORE)
			return (got);
	}
}
