/*
 * test_bench_ws.c -- ttt-bench's WebSocket transport, the pure part: the
 * handshake's key and accept (RFC 6455's own example), the request, the
 * check of the answer, masked frames out, and frames in turned into lines
 * however the bytes are split between reads.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bench-ws.h"

#define OUT_MAX	4096

/* What a stream of frames came to: its lines, and its control events. */
struct decoded {
	char	out[OUT_MAX];
	size_t	outlen;
	char	events[16];	/* 'P' ping, 'C' close, 'B' bad */
	size_t	nevents;
	char	ping[BENCH_WS_CTL_MAX + 1];
};

static const uint8_t mask_rfc[4] = { 0x37, 0xfa, 0x21, 0x3d };

/*
 * Feed buf to a fresh decoder in pieces: the first cut bytes, then the
 * rest in pieces of step bytes (0: all at once).
 */
static void
decode_split(const uint8_t *buf, size_t len, size_t cut, size_t step,
    struct decoded *d)
{
	struct bench_ws_rx	 rx;
	const uint8_t		*p;
	size_t			 off = 0, n, left;
	char			*out;
	enum bench_ws_got	 got;

	memset(&rx, 0, sizeof rx);
	memset(d, 0, sizeof *d);
	out = d->out;
	left = sizeof d->out;
	while (off < len) {
		if (off == 0 && cut > 0)
			n = cut;
		else
			n = step == 0 ? len - off : step;
		if (n > len - off)
			n = len - off;
		p = buf + off;
		off += n;
		while ((got = bench_ws_decode(&rx, &p, &n, &out, &left)) !=
		    BENCH_WS_MORE) {
			assert_true(d->nevents < sizeof d->events);
			if (got == BENCH_WS_PING) {
				d->events[d->nevents++] = 'P';
				memcpy(d->ping, rx.ctl, rx.ctllen);
				d->ping[rx.ctllen] = '\0';
			} else {
				d->events[d->nevents++] =
				    got == BENCH_WS_CLOSE ? 'C' : 'B';
				d->outlen = (size_t)(out - d->out);
				return;
			}
		}
		assert_int_equal(n, 0);
	}
	d->outlen = (size_t)(out - d->out);
}

/* RFC 6455 section 1.3: the example key and its accept. */
static void
test_ws_accept(void **state)
{
	static const uint8_t	nonce[BENCH_WS_RAW_KEY] = "the sample nonce";
	char			key[BENCH_WS_KEY_LEN + 1];
	char			accept[BENCH_WS_ACCEPT_LEN + 1];

	(void)state;
	bench_ws_key(nonce, key);
	assert_string_equal(key, "dGhlIHNhbXBsZSBub25jZQ==");
	bench_ws_accept("dGhlIHNhbXBsZSBub25jZQ==", accept);
	assert_string_equal(accept, "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
}

/* The upgrade request, with the Host as it should be written. */
static void
test_ws_request(void **state)
{
	char	buf[512];
	int	n;

	(void)state;
	n = bench_ws_request(buf, sizeof buf, "127.0.0.1", "8080",
	    "dGhlIHNhbXBsZSBub25jZQ==");
	assert_string_equal(buf,
	    "GET /ws HTTP/1.1\r\n"
	    "Host: 127.0.0.1:8080\r\n"
	    "Upgrade: websocket\r\n"
	    "Connection: Upgrade\r\n"
	    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
	    "Sec-WebSocket-Version: 13\r\n"
	    "\r\n");
	assert_int_equal(n, (int)strlen(buf));
	n = bench_ws_request(buf, sizeof buf, "::1", "80", "k");
	assert_true(n > 0);
	assert_non_null(strstr(buf, "\r\nHost: [::1]:80\r\n"));
	/* Too small: -1, never a request cut short. */
	assert_int_equal(bench_ws_request(buf, (size_t)n, "::1", "80", "k"),
	    -1);
}

/* The answer: whole, in part, refused. */
static void
test_ws_response(void **state)
{
	static const char	accept[] = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=";
	static const char	good[] =
	    "HTTP/1.1 101 Switching Protocols\r\n"
	    "Upgrade: websocket\r\n"
	    "Connection: Upgrade\r\n"
	    "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n"
	    "\r\n"
	    "\x81\x05Hello";
	static const char	*const bad[] = {
		/* not 101 */
		"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n",
		"HTTP/1.1 200 OK\r\n\r\n",
		"HTTP/1.1 1010 x\r\n\r\n",
		/* tttd's line port, or nothing like HTTP */
		"HELLO tttd/1 Welcome to Tic Tac Toe\r\n",
		"ERR ",
		/* a header wrong or missing */
		"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
		"Connection: Upgrade\r\n"
		"Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo\r\n\r\n",
		"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
		"Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n",
		"HTTP/1.1 101 Switching Protocols\r\nUpgrade: h2c\r\n"
		"Connection: Upgrade\r\n"
		"Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n",
	};
	const char	*s;
	size_t		 head = strlen(good) - 7, i;

	(void)state;
	/* Each part short of the empty line: not yet; then its length. */
	for (i = 0; i < head; i++)
		assert_int_equal(bench_ws_response(good, i, accept), 0);
	for (i = head; i <= strlen(good); i++)
		assert_int_equal(bench_ws_response(good, i, accept),
		    (long)head);
	/* Names in any case, tokens in lists, LF alone, a reason or none. */
	s = "HTTP/1.1 101\n"
	    "server: x\n"
	    "CONNECTION: keep-alive, upgrade\n"
	    "upgrade:WebSocket \n"
	    "sec-websocket-accept:   s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\t\n"
	    "\n";
	assert_int_equal(bench_ws_response(s, strlen(s), accept),
	    (long)strlen(s));
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
		assert_int_equal(bench_ws_response(bad[i], strlen(bad[i]),
		    accept), -1);
	/* A refusal is known from its status line, before the rest. */
	assert_int_equal(bench_ws_response(bad[0], 23, accept), -1);
	assert_int_equal(bench_ws_response("HTTP/1.1 10", 11, accept), 0);
	assert_int_equal(bench_ws_response("HEL", 3, accept), -1);
}

/* Frames out: RFC 6455's masked "Hello", a line, the longer lengths. */
static void
test_ws_frame(void **state)
{
	static const uint8_t	hello[] = { 0x81, 0x85, 0x37, 0xfa, 0x21,
		0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58 };
	static const uint8_t	zero[4];
	uint8_t			buf[70000], big[70000];
	size_t			n, i;

	(void)state;
	n = bench_ws_frame(buf, sizeof buf, BENCH_WS_OP_TEXT, "Hello", 5,
	    mask_rfc);
	assert_int_equal(n, sizeof hello);
	assert_memory_equal(buf, hello, sizeof hello);
	/* A line loses its line end, whichever it is. */
	assert_int_equal(bench_ws_line(buf, sizeof buf, "Hello\n", 6,
	    mask_rfc), sizeof hello);
	assert_memory_equal(buf, hello, sizeof hello);
	assert_int_equal(bench_ws_line(buf, sizeof buf, "Hello\r\n", 7,
	    mask_rfc), sizeof hello);
	assert_memory_equal(buf, hello, sizeof hello);
	assert_int_equal(bench_ws_line(buf, sizeof buf, "MOVE B2\n", 8,
	    zero), 13);
	assert_memory_equal(buf, "\x81\x87\0\0\0\0MOVE B2", 13);
	/* An empty pong. */
	assert_int_equal(bench_ws_frame(buf, sizeof buf, BENCH_WS_OP_PONG,
	    "", 0, mask_rfc), 6);
	assert_memory_equal(buf, "\x8a\x80\x37\xfa\x21\x3d", 6);
	/* 126 bytes and up: a 16-bit length; 65536 and up: 64 bits. */
	memset(big, 'x', sizeof big);
	n = bench_ws_frame(buf, sizeof buf, BENCH_WS_OP_TEXT, big, 126, zero);
	assert_int_equal(n, 4 + 4 + 126);
	assert_memory_equal(buf, "\x81\xfe\x00\x7e", 4);
	n = bench_ws_frame(buf, sizeof buf, BENCH_WS_OP_TEXT, big, 65535,
	    zero);
	assert_int_equal(n, 4 + 4 + 65535);
	assert_memory_equal(buf, "\x81\xfe\xff\xff", 4);
	n = bench_ws_frame(buf, sizeof buf, BENCH_WS_OP_TEXT, big, 65536,
	    mask_rfc);
	assert_int_equal(n, 10 + 4 + 65536);
	assert_memory_equal(buf, "\x81\xff\0\0\0\0\0\x01\0\0", 10);
	for (i = 0; i < 65536; i++)
		assert_int_equal(buf[14 + i], 'x' ^ mask_rfc[i % 4]);
	/* No room: 0, and nothing half written counts. */
	assert_int_equal(bench_ws_frame(buf, 10, BENCH_WS_OP_TEXT, "Hello", 5,
	    mask_rfc), 0);
	assert_int_equal(bench_ws_frame(buf, 11, BENCH_WS_OP_TEXT, "Hello", 5,
	    mask_rfc), 11);
}

/*
 * A stream as tttd could send it: a line in one frame; one in three
 * fragments with a ping between them; an empty message; a pong; a line
 * of 200 bytes (a 16-bit length); a ping with no payload; then a close.
 * Split at every byte, and fed a byte at a time, it is the same lines.
 */
static void
test_ws_decode_split(void **state)
{
	uint8_t		stream[512];
	char		want[512];
	size_t		len = 0, wlen = 0, cut;
	struct decoded	d;

#define PUT(s, n)	do { memcpy(stream + len, (s), (n)); len += (n); } while (0)
	(void)state;
	PUT("\x81\x14" "HELLO tttd/1 Welcome", 22);
	PUT("\x01\x03" "WAI", 5);
	PUT("\x89\x04" "ping", 6);
	PUT("\x00\x02" "T ", 4);
	PUT("\x80\x01" "1", 3);
	PUT("\x81\x00", 2);
	PUT("\x8a\x02" "po", 4);
	PUT("\x81\x7e\x00\xc8", 4);
	memset(stream + len, 'b', 200);
	len += 200;
	PUT("\x89\x00", 2);
	PUT("\x88\x02\x03\xe8", 4);
#undef PUT
	memcpy(want, "HELLO tttd/1 Welcome\r\nWAIT 1\r\n\r\n", 32);
	wlen = 32;
	memset(want + wlen, 'b', 200);
	wlen += 200;
	memcpy(want + wlen, "\r\n", 2);
	wlen += 2;

	for (cut = 0; cut <= len; cut++) {
		decode_split(stream, len, cut, 0, &d);
		assert_int_equal(d.outlen, wlen);
		assert_memory_equal(d.out, want, wlen);
		assert_int_equal(d.nevents, 3);
		assert_memory_equal(d.events, "PPC", 3);
		assert_string_equal(d.ping, "");	/* the last ping's */
	}
	decode_split(stream, len, 0, 1, &d);
	assert_int_equal(d.outlen, wlen);
	assert_memory_equal(d.out, want, wlen);
	assert_memory_equal(d.events, "PPC", 3);
	/* The first ping's payload, for the pong. */
	decode_split(stream, 33, 0, 1, &d);
	assert_memory_equal(d.events, "P", 1);
	assert_string_equal(d.ping, "ping");
	assert_int_equal(d.outlen, 25);
	assert_memory_equal(d.out, "HELLO tttd/1 Welcome\r\nWAI", 25);
}

/* A 64-bit length, split anywhere too. */
static void
test_ws_decode_long(void **state)
{
	static uint8_t	stream[10 + 3000];
	struct decoded	*d = malloc(sizeof *d);
	size_t		 cut;

	(void)state;
	assert_non_null(d);
	memcpy(stream, "\x81\x7f\0\0\0\0\0\0\x0b\xb6", 10);	/* 2998 */
	memset(stream + 10, 'z', 2998);
	memcpy(stream + 10 + 2998, "\x81\x00", 2);
	for (cut = 0; cut <= 12; cut++) {
		decode_split(stream, sizeof stream, cut, 0, d);
		assert_int_equal(d->nevents, 0);
		assert_int_equal(d->outlen, 2998 + 4);
		assert_memory_equal(d->out + 2998, "\r\n\r\n", 4);
	}
	free(d);
}

/* Frames that break RFC 6455, or a line that does not fit: bad. */
static void
test_ws_decode_bad(void **state)
{
	static const struct {
		const char	*bytes;
		size_t		 len;
	} bad[] = {
		{ "\x81\x85\x37\xfa\x21\x3d\x7f\x9f\x4d\x51\x58", 11 },	/* masked */
		{ "\xc1\x01x", 3 },		/* RSV1 */
		{ "\x91\x01x", 3 },		/* RSV3 */
		{ "\x80\x01x", 3 },		/* a continuation of nothing */
		{ "\x01\x01x\x81\x01y", 6 },	/* a message in a message */
		{ "\x82\x01x", 3 },		/* binary */
		{ "\x83\x01x", 3 },		/* reserved opcode */
		{ "\x8b\x00", 2 },		/* reserved control opcode */
		{ "\x09\x00", 2 },		/* a ping in fragments */
		{ "\x89\x7e\x00\x7e", 4 },	/* a ping of 126 bytes */
		{ "\x81\x7f\x80\0\0\0\0\0\0\x01", 10 },	/* length's top bit */
	};
	static uint8_t	 huge[4 + 5000];
	struct decoded	*d = malloc(sizeof *d);
	size_t		 i;

	(void)state;
	assert_non_null(d);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		decode_split((const uint8_t *)bad[i].bytes, bad[i].len, 0, 0,
		    d);
		assert_int_equal(d->nevents, 1);
		assert_int_equal(d->events[0], 'B');
		decode_split((const uint8_t *)bad[i].bytes, bad[i].len, 0, 1,
		    d);
		assert_int_equal(d->events[0], 'B');
	}
	/* More than the room for lines: bad, not an overflow. */
	memcpy(huge, "\x81\x7e\x13\x88", 4);	/* 5000 */
	memset(huge + 4, 'h', 5000);
	decode_split(huge, sizeof huge, 0, 0, d);
	assert_int_equal(d->nevents, 1);
	assert_int_equal(d->events[0], 'B');
	assert_true(d->outlen <= OUT_MAX);
	/* Exactly full, line end included, is fine. */
	memcpy(huge, "\x81\x7e\x0f\xfe", 4);	/* 4094 */
	decode_split(huge, 4 + 4094, 0, 0, d);
	assert_int_equal(d->nevents, 0);
	assert_int_equal(d->outlen, OUT_MAX);
	free(d);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_ws_accept),
		cmocka_unit_test(test_ws_request),
		cmocka_unit_test(test_ws_response),
		cmocka_unit_test(test_ws_frame),
		cmocka_unit_test(test_ws_decode_split),
		cmocka_unit_test(test_ws_decode_long),
		cmocka_unit_test(test_ws_decode_bad),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
