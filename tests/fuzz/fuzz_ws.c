/*
 * fuzz_ws.c -- libFuzzer harness for a connection's WebSocket (server/ws.c
 * on wslay): frames in, messages up, frames out.
 *
 * Input: a byte of settings (low six bits: the size of the reads, 1 to
 * 64; bit 6: control frames over the rate from the third on), two bytes
 * of a length and that many bytes of a message, a byte of fragments, then
 * the rest.  The message is framed here as a browser would (masked text
 * frames, a ping between two fragments) and read first: it must come up
 * whole and the same if it is UTF-8 of at most WS_MESSAGE_MAX bytes, or
 * the socket close with 1009 (too long) or 1007 (not UTF-8) if not.  Then the rest is read as
 * it comes: every text message handed up is UTF-8 and bounded, nothing
 * after the socket is over.  Last, a server line sent goes out as one
 * unmasked text frame holding the line without its CR LF.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "utf8.h"
#include "ws.h"

#define FUZZ_MSG_MAX	(WS_MESSAGE_MAX + 64)

int		LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static size_t	fuzz_frame(uint8_t *, int, int, const uint8_t *, size_t);
static int	fuzz_utf8(const uint8_t *, size_t);
static void	fuzz_write(void *, const char *, size_t);
static void	fuzz_message(void *, const char *, size_t);
static int	fuzz_control(void *);
static int	fuzz_recv(struct ws *, const uint8_t *, size_t, size_t);

struct fuzz_state {
	unsigned long	 messages;
	const char	*last;
	size_t		 lastlen;
	int		 over;		/* ws_recv said -1 */
	unsigned	 controls;
	int		 limit;		/* refuse control frames from the 3rd */
	uint8_t		 out[FUZZ_MSG_MAX + 16];
	size_t		 outlen;
};

static struct fuzz_state	fuzz;
static uint8_t			fuzz_frames[3 * (FUZZ_MSG_MAX + 16)];
static char			fuzz_copy[FUZZ_MSG_MAX];

/* A masked client frame (RFC 6455 5.2) into buf: its length. */
static size_t
fuzz_frame(uint8_t *buf, int fin, int opcode, const uint8_t *p, size_t len)
{
	static const uint8_t	mask[4] = { 0x37, 0xfa, 0x21, 0x3d };
	size_t			n = 0, i;

	buf[n++] = (uint8_t)((fin ? 0x80 : 0) | opcode);
	if (len < 126)
		buf[n++] = (uint8_t)(0x80 | len);
	else {
		buf[n++] = 0x80 | 126;
		buf[n++] = (uint8_t)(len >> 8);
		buf[n++] = (uint8_t)len;
	}
	memcpy(buf + n, mask, 4);
	n += 4;
	for (i = 0; i < len; i++)
		buf[n + i] = p[i] ^ mask[i % 4];
	return (n + len);
}

/* Is this valid UTF-8 (RFC 3629: no surrogate, nothing over U+10FFFF)? */
static int
fuzz_utf8(const uint8_t *p, size_t len)
{
	uint32_t	cp;
	size_t		i, n;

	for (i = 0; i < len; i += n) {
		if (p[i] < 0x80) {
			n = 1;
			continue;
		}
		if ((n = utf8_decode((const char *)p + i, len - i, &cp)) == 0)
			return (0);
	}
	return (1);
}

/* What the socket writes: kept (the last frames), never nothing. */
static void
fuzz_write(void *arg, const char *buf, size_t len)
{
	struct fuzz_state	*st = arg;

	CHECK(buf != NULL && len > 0);
	if (len > sizeof st->out)
		len = sizeof st->out;
	if (st->outlen + len > sizeof st->out)
		st->outlen = 0;
	memcpy(st->out + st->outlen, buf, len);
	st->outlen += len;
}

/* A text message: UTF-8, bounded, and never after the socket is over. */
static void
fuzz_message(void *arg, const char *buf, size_t len)
{
	struct fuzz_state	*st = arg;

	CHECK(!st->over);
	CHECK(len <= WS_MESSAGE_MAX);
	CHECK(fuzz_utf8((const uint8_t *)buf, len));
	st->messages++;
	if (len > 0)		/* an empty message may come as NULL */
		memcpy(fuzz_copy, buf, len);
	st->last = fuzz_copy;
	st->lastlen = len;
}

/* A control frame begins: over the rate from the third, if so set. */
static int
fuzz_control(void *arg)
{
	struct fuzz_state	*st = arg;

	return (st->limit && ++st->controls > 2 ? -1 : 0);
}

/* Bytes in reads of step: 0, or -1 once the socket is over. */
static int
fuzz_recv(struct ws *ws, const uint8_t *p, size_t len, size_t step)
{
	size_t	n;

	while (len > 0 && !fuzz.over) {
		n = len < step ? len : step;
		if (ws_recv(ws, (const char *)p, n) == -1)
			fuzz.over = 1;
		p += n;
		len -= n;
	}
	return (fuzz.over ? -1 : 0);
}

/* One socket: a browser's message, the rest as it comes, a line out. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char	line[] = "OK MOVE B2\r\n";
	struct ws		*ws;
	const uint8_t		*msg;
	size_t			 step, mlen, cut, n = 0;
	unsigned long		 before;
	int			 frags, ok, code;

	if (size < 4)
		return (0);
	memset(&fuzz, 0, sizeof fuzz);
	step = 1 + (data[0] & 63);
	fuzz.limit = (data[0] >> 6) & 1;
	mlen = (size_t)data[1] << 8 | data[2];
	data += 3;
	size -= 3;
	if (mlen > size - 1 || mlen > FUZZ_MSG_MAX)
		mlen = size - 1 < FUZZ_MSG_MAX ? size - 1 : FUZZ_MSG_MAX;
	msg = data;
	frags = data[mlen] & 1;
	data += mlen + 1;
	size -= mlen + 1;
	if ((ws = ws_new(fuzz_write, fuzz_message, fuzz_control, &fuzz)) ==
	    NULL)
		abort();

	/* The browser's message, in one frame or two with a ping between. */
	if (frags && mlen > 1) {
		cut = mlen / 2;
		n = fuzz_frame(fuzz_frames, 0, 0x1, msg, cut);
		n += fuzz_frame(fuzz_frames + n, 1, 0x9, (const uint8_t *)"p",
		    1);
		n += fuzz_frame(fuzz_frames + n, 1, 0x0, msg + cut, mlen - cut);
	} else
		n = fuzz_frame(fuzz_frames, 1, 0x1, msg, mlen);
	before = fuzz.messages;
	(void)fuzz_recv(ws, fuzz_frames, n, step);
	ok = mlen <= WS_MESSAGE_MAX && fuzz_utf8(msg, mlen);
	if (ok) {
		CHECK(fuzz.messages == before + 1 && !fuzz.over);
		CHECK(fuzz.lastlen == mlen && memcmp(fuzz.last, msg, mlen) == 0);
		CHECK(!ws_pending(ws));
	} else {
		/* 1009 for a message too long, 1007 for bad UTF-8: the first
		 * wslay meets (a fragment's bytes are checked as they come). */
		CHECK(fuzz.messages == before && fuzz.over);
		code = ws_close_code(ws);
		CHECK((code == WS_CLOSE_TOO_BIG && mlen > WS_MESSAGE_MAX) ||
		    (code == WS_CLOSE_BAD_DATA && !fuzz_utf8(msg, mlen)));
	}

	/* The rest, as it comes. */
	(void)fuzz_recv(ws, data, size, step);
	CHECK(fuzz.messages <= ws_messages(ws));

	/* A server line out: one unmasked text frame of the line. */
	if (!fuzz.over && ws_close_code(ws) == 0) {
		fuzz.outlen = 0;
		ws_send(ws, line, sizeof line - 1);
		CHECK(fuzz.outlen == 2 + sizeof line - 3);
		CHECK(fuzz.out[0] == 0x81 && fuzz.out[1] == sizeof line - 3);
		CHECK(memcmp(fuzz.out + 2, line, sizeof line - 3) == 0);
	}
	ws_free(ws);
	return (0);
}
