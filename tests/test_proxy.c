/*
 * test_proxy.c -- unit tests for proto/proxy.c: PROXY protocol headers,
 * versions 1 and 2 (HAProxy's doc/proxy-protocol.txt), valid and invalid,
 * fed whole, with what follows them, and one byte more at a time (every
 * prefix needs more, or is already invalid); and the networks of
 * --proxy-from, parsed and matched.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>

#include <cmocka.h>

#include <sys/socket.h>
#include <sys/un.h>

#include <netinet/in.h>
#include <arpa/inet.h>

#include <stdio.h>
#include <string.h>

#include "proxy.h"

#define NCASES(a)	(sizeof (a) / sizeof (a)[0])
#define V2_MAX		(PROXY_V2_HEAD + 65535)

/* A header that is whole: what it must parse to. */
struct good {
	const char	*bytes;
	size_t		 len;		/* 0: strlen */
	enum proxy_kind	 kind;
	const char	*addr;		/* PROXY_ADDR: "IP PORT" */
};

/* A header that is invalid, and the text of why. */
struct bad {
	const char	*bytes;
	size_t		 len;		/* 0: strlen */
	const char	*why;
};

static const struct good v1_good[] = {
	{ "PROXY TCP4 192.168.0.1 192.168.0.11 56324 443\r\n", 0,
	    PROXY_ADDR, "192.168.0.1 56324" },
	{ "PROXY TCP4 255.255.255.255 255.255.255.255 65535 65535\r\n", 0,
	    PROXY_ADDR, "255.255.255.255 65535" },
	{ "PROXY TCP4 0.0.0.0 10.0.0.1 0 0\r\n", 0,
	    PROXY_ADDR, "0.0.0.0 0" },
	{ "PROXY TCP6 2001:db8::1 ::1 40000 4000\r\n", 0,
	    PROXY_ADDR, "2001:db8::1 40000" },
	{ "PROXY TCP6 FFFF:ffff:ffff:ffff:ffff:ffff:ffff:ffff "
	    "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff 65535 65535\r\n", 0,
	    PROXY_ADDR, "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff 65535" },
	{ "PROXY UNKNOWN\r\n", 0, PROXY_UNKNOWN, NULL },
	{ "PROXY UNKNOWN ffff:f...f:ffff anything at all \x01\r\n", 0,
	    PROXY_UNKNOWN, NULL },
	/* The worst case of the spec: 107 bytes, CR LF included. */
	{ "PROXY UNKNOWN ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff "
	    "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff 65535 65535\r\n", 0,
	    PROXY_UNKNOWN, NULL },
};

static const struct bad v1_bad[] = {
	{ "PROXY TCP4 1.2.3.4 5.6.7.8 1 2\n", 0, "a line not ended by CR LF" },
	{ "PROXY\r\n", 0, "not a PROXY header" },
	{ "PROXY \r\n", 0, "not TCP4, TCP6 or UNKNOWN" },
	{ "PROXY  TCP4 1.2.3.4 5.6.7.8 1 2\r\n", 0,
	    "not TCP4, TCP6 or UNKNOWN" },
	{ "PROXY TCP4\r\n", 0, "not TCP4, TCP6 or UNKNOWN" },
	{ "PROXY TCP4 1.2.3.4  5.6.7.8 1 2\r\n", 0,
	    "not SRC DST SPORT DPORT after TCP4 or TCP6" },
	{ "PROXY TCP4 1.2.3.4 5.6.7.8 1 2 \r\n", 0,
	    "not SRC DST SPORT DPORT after TCP4 or TCP6" },
	{ "PROXY TCP4 1.2.3.4 5.6.7.8 1\r\n", 0,
	    "not SRC DST SPORT DPORT after TCP4 or TCP6" },
	{ "PROXY TCP4 1.2.3.4 5.6.7.8 1 2 3\r\n", 0,
	    "not SRC DST SPORT DPORT after TCP4 or TCP6" },
	{ "PROXY tcp4 1.2.3.4 5.6.7.8 1 2\r\n", 0,
	    "not TCP4, TCP6 or UNKNOWN" },
	{ "PROXY UDP4 1.2.3.4 5.6.7.8 1 2\r\n", 0,
	    "not TCP4, TCP6 or UNKNOWN" },
	{ "PROXY UNKNOWNX\r\n", 0, "not TCP4, TCP6 or UNKNOWN" },
	{ "PROXY TCP4 01.2.3.4 5.6.7.8 1 2\r\n", 0, "a bad source address" },
	{ "PROXY TCP4 1.2.3.04 5.6.7.8 1 2\r\n", 0, "a bad source address" },
	{ "PROXY TCP4 1.2.3 5.6.7.8 1 2\r\n", 0, "a bad source address" },
	{ "PROXY TCP4 1.2.3.256 5.6.7.8 1 2\r\n", 0, "a bad source address" },
	{ "PROXY TCP4 ::1 5.6.7.8 1 2\r\n", 0, "a bad source address" },
	{ "PROXY TCP6 1.2.3.4 ::1 1 2\r\n", 0, "a bad source address" },
	{ "PROXY TCP6 ::ffff:1.2.3.4 ::1 1 2\r\n", 0,
	    "a bad source address" },
	{ "PROXY TCP6 fe80::1%lo ::1 1 2\r\n", 0, "a bad source address" },
	{ "PROXY TCP6 1::2::3 ::1 1 2\r\n", 0, "a bad source address" },
	{ "PROXY TCP4 1.2.3.4 5.6.7.08 1 2\r\n", 0,
	    "a bad destination address" },
	{ "PROXY TCP4 1.2.3.4 ::1 1 2\r\n", 0, "a bad destination address" },
	{ "PROXY TCP4 1.2.3.4 5.6.7.8 01 2\r\n", 0, "a bad port" },
	{ "PROXY TCP4 1.2.3.4 5.6.7.8 1 65536\r\n", 0, "a bad port" },
	{ "PROXY TCP4 1.2.3.4 5.6.7.8 -1 2\r\n", 0, "a bad port" },
	{ "PROXY TCP4 1.2.3.4 5.6.7.8 1 2\r\r\n", 0, "a bad port" },
	{ "PROXY TCP4 1.2.3.4 5.6.7.8 100000 2\r\n", 0, "a bad port" },
	{ "PROXY TCP4 1.2.3.4\0 5.6.7.8 1 2\r\n", 33, "a bad source address" },
	{ "PROXX TCP4", 0, "not a PROXY header" },
	{ "PING\r\n", 0, "not a PROXY header" },
	{ "GET / HTTP/1.1\r\n", 0, "not a PROXY header" },
	{ "NAME alice\r\n", 0, "not a PROXY header" },
	{ "\r\n\r\n\x01", 5, "not a PROXY header" },
	/* 107 bytes and no LF among them. */
	{ "PROXY UNKNOWN ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff "
	    "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff 65535 655355\r\n", 0,
	    "no CR LF within 107 bytes" },
};

/* A v2 header: signature, vercmd, family, length, then body bytes. */
static size_t
v2(uint8_t *out, uint8_t vercmd, uint8_t fam, size_t len, const void *body,
    size_t blen)
{
	static const uint8_t	sig[12] = { 0x0D, 0x0A, 0x0D, 0x0A, 0x00,
				    0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54,
				    0x0A };

	memcpy(out, sig, 12);
	out[12] = vercmd;
	out[13] = fam;
	out[14] = (uint8_t)(len >> 8);
	out[15] = (uint8_t)len;
	if (blen > 0)
		memcpy(out + 16, body, blen);
	return (16 + blen);
}

/* "IP PORT" of a parsed source. */
static void
show(const struct proxy_hdr *h, char *buf, size_t size)
{
	char	ip[INET6_ADDRSTRLEN];

	if (h->src.ss_family == AF_INET) {
		const struct sockaddr_in *sin = (const void *)&h->src;

		inet_ntop(AF_INET, &sin->sin_addr, ip, sizeof ip);
		snprintf(buf, size, "%s %u", ip, ntohs(sin->sin_port));
	} else if (h->src.ss_family == AF_INET6) {
		const struct sockaddr_in6 *sin6 = (const void *)&h->src;

		inet_ntop(AF_INET6, &sin6->sin6_addr, ip, sizeof ip);
		snprintf(buf, size, "%s %u", ip, ntohs(sin6->sin6_port));
	} else
		snprintf(buf, size, "family %d", h->src.ss_family);
}

/*
 * A whole header: every shorter prefix needs more; whole, and with bytes
 * after it, it is done, of len bytes, naming kind (and addr).
 */
static void
check_good(const uint8_t *p, size_t len, int version, enum proxy_kind kind,
    const char *addr)
{
	static uint8_t		buf[V2_MAX + 64];
	struct proxy_hdr	h;
	char			got[128];
	size_t			k;

	for (k = 0; k < len; k++) {
		if (proxy_parse(p, k, &h) != PROXY_MORE)
			fail_msg("prefix of %zu of %zu bytes: not MORE (%s)",
			    k, len, h.why);
	}
	memcpy(buf, p, len);
	memcpy(buf + len, "PING\r\n\r\n\0", 9);
	for (k = len; k <= len + 9; k++) {
		assert_int_equal(proxy_parse(buf, k, &h), PROXY_DONE);
		assert_int_equal(h.len, len);
		assert_int_equal(h.version, version);
		assert_int_equal(h.kind, kind);
		if (kind == PROXY_ADDR) {
			show(&h, got, sizeof got);
			assert_string_equal(got, addr);
		}
	}
}

/*
 * An invalid header: no prefix is whole, the first invalid one stays
 * invalid with every byte more, and the whole is invalid for why.
 */
static void
check_bad(const uint8_t *p, size_t len, const char *why)
{
	struct proxy_hdr	h;
	enum proxy_status	st;
	size_t			k;
	int			seen = 0;

	for (k = 0; k <= len; k++) {
		st = proxy_parse(p, k, &h);
		if (st == PROXY_DONE)
			fail_msg("prefix of %zu of %zu bytes: DONE", k, len);
		if (seen && st != PROXY_BAD)
			fail_msg("prefix of %zu bytes: valid again", k);
		seen = st == PROXY_BAD;
	}
	assert_int_equal(proxy_parse(p, len, &h), PROXY_BAD);
	assert_non_null(h.why);
	assert_string_equal(h.why, why);
}

/* Version 1: the spec's lines, its limits, whole and byte by byte. */
static void
test_proxy_v1_good(void **state)
{
	size_t	i;

	(void)state;
	for (i = 0; i < NCASES(v1_good); i++)
		check_good((const uint8_t *)v1_good[i].bytes,
		    v1_good[i].len ? v1_good[i].len : strlen(v1_good[i].bytes),
		    1, v1_good[i].kind, v1_good[i].addr);
}

/* Version 1: every way a line breaks the spec. */
static void
test_proxy_v1_bad(void **state)
{
	size_t	i;

	(void)state;
	for (i = 0; i < NCASES(v1_bad); i++) {
		check_bad((const uint8_t *)v1_bad[i].bytes,
		    v1_bad[i].len ? v1_bad[i].len : strlen(v1_bad[i].bytes),
		    v1_bad[i].why);
	}
}

/* Version 1: 106 bytes without LF need more; the 107th decides. */
static void
test_proxy_v1_limit(void **state)
{
	uint8_t			 buf[PROXY_V1_MAX + 1];
	struct proxy_hdr	 h;

	(void)state;
	memset(buf, 'f', sizeof buf);
	memcpy(buf, "PROXY UNKNOWN ", 14);
	assert_int_equal(proxy_parse(buf, PROXY_V1_MAX - 1, &h), PROXY_MORE);
	buf[PROXY_V1_MAX - 2] = '\r';
	buf[PROXY_V1_MAX - 1] = '\n';
	assert_int_equal(proxy_parse(buf, PROXY_V1_MAX, &h), PROXY_DONE);
	assert_int_equal(h.len, PROXY_V1_MAX);
	buf[PROXY_V1_MAX - 1] = 'f';
	buf[PROXY_V1_MAX] = '\n';
	assert_int_equal(proxy_parse(buf, PROXY_V1_MAX + 1, &h), PROXY_BAD);
	assert_string_equal(h.why, "no CR LF within 107 bytes");
}

/* Version 2: TCP over IPv4 and IPv6, TLVs, LOCAL, the fallbacks. */
static void
test_proxy_v2_good(void **state)
{
	static uint8_t	buf[V2_MAX];
	uint8_t		body[300];
	size_t		n;

	(void)state;
	/* TCP4: 10.1.2.3:5555 -> 10.0.0.1:4000. */
	memcpy(body, "\x0a\x01\x02\x03\x0a\x00\x00\x01\x15\xb3\x0f\xa0", 12);
	n = v2(buf, 0x21, 0x11, 12, body, 12);
	check_good(buf, n, 2, PROXY_ADDR, "10.1.2.3 5555");
	/* The same with TLVs: NOOP of 4 bytes, UNIQUE_ID empty, custom. */
	memcpy(body + 12, "\x04\x00\x04" "abcd" "\x05\x00\x00"
	    "\xe0\x00\x01" "z", 14);
	n = v2(buf, 0x21, 0x11, 26, body, 26);
	check_good(buf, n, 2, PROXY_ADDR, "10.1.2.3 5555");
	/* TCP6: 2001:db8::7 port 65535. */
	memset(body, 0, 36);
	memcpy(body, "\x20\x01\x0d\xb8", 4);
	body[15] = 7;
	body[31] = 1;
	body[32] = body[33] = 0xff;
	n = v2(buf, 0x21, 0x21, 36, body, 36);
	check_good(buf, n, 2, PROXY_ADDR, "2001:db8::7 65535");
	/* LOCAL (a health check): no block, or one skipped unread. */
	n = v2(buf, 0x20, 0x00, 0, NULL, 0);
	check_good(buf, n, 2, PROXY_LOCAL, NULL);
	n = v2(buf, 0x20, 0xff, 5, "\xff\xff\xff\xff\xff", 5);
	check_good(buf, n, 2, PROXY_LOCAL, NULL);
	/* PROXY with AF_UNSPEC, AF_UNIX, UDP: the real endpoints. */
	n = v2(buf, 0x21, 0x00, 0, NULL, 0);
	check_good(buf, n, 2, PROXY_UNKNOWN, NULL);
	n = v2(buf, 0x21, 0x00, 3, "\x04\x00\x00", 3);
	check_good(buf, n, 2, PROXY_UNKNOWN, NULL);
	memset(body, 'u', 216);
	n = v2(buf, 0x21, 0x31, 216, body, 216);
	check_good(buf, n, 2, PROXY_UNKNOWN, NULL);
	memcpy(body, "\x0a\x01\x02\x03\x0a\x00\x00\x01\x15\xb3\x0f\xa0", 12);
	n = v2(buf, 0x21, 0x12, 12, body, 12);
	check_good(buf, n, 2, PROXY_UNKNOWN, NULL);
	n = v2(buf, 0x21, 0x10, 12, body, 12);
	check_good(buf, n, 2, PROXY_UNKNOWN, NULL);
}

/* Version 2: the longest header there is, one TLV of 65,523 bytes. */
static void
test_proxy_v2_longest(void **state)
{
	static uint8_t		buf[V2_MAX + 1];
	struct proxy_hdr	h;
	size_t			vlen = 65535 - 12 - 3;

	(void)state;
	memset(buf, 0, sizeof buf);
	v2(buf, 0x21, 0x11, 65535,
	    "\x7f\x00\x00\x02\x7f\x00\x00\x01\x00\x50\x00\x51", 12);
	buf[28] = 0xe1;
	buf[29] = (uint8_t)(vlen >> 8);
	buf[30] = (uint8_t)vlen;
	assert_int_equal(proxy_parse(buf, V2_MAX - 1, &h), PROXY_MORE);
	assert_int_equal(proxy_parse(buf, V2_MAX + 1, &h), PROXY_DONE);
	assert_int_equal(h.len, V2_MAX);
	assert_int_equal(h.kind, PROXY_ADDR);
	/* One byte more in the TLV's length: past the end. */
	buf[30] = (uint8_t)(vlen + 1);
	assert_int_equal(proxy_parse(buf, V2_MAX, &h), PROXY_BAD);
	assert_string_equal(h.why, "a TLV past the header's end");
}

/* Version 2: every way a header breaks the spec. */
static void
test_proxy_v2_bad(void **state)
{
	uint8_t		buf[512], body[64];
	size_t		n;

	(void)state;
	memcpy(body, "\x0a\x01\x02\x03\x0a\x00\x00\x01\x15\xb3\x0f\xa0", 12);
	n = v2(buf, 0x11, 0x11, 12, body, 12);
	check_bad(buf, n, "not version 2");
	n = v2(buf, 0x31, 0x11, 12, body, 12);
	check_bad(buf, n, "not version 2");
	n = v2(buf, 0x22, 0x11, 12, body, 12);
	check_bad(buf, n, "neither LOCAL nor PROXY");
	n = v2(buf, 0x2f, 0x11, 12, body, 12);
	check_bad(buf, n, "neither LOCAL nor PROXY");
	n = v2(buf, 0x21, 0x41, 12, body, 12);
	check_bad(buf, n, "an unknown address family");
	n = v2(buf, 0x21, 0xf1, 12, body, 12);
	check_bad(buf, n, "an unknown address family");
	n = v2(buf, 0x21, 0x13, 12, body, 12);
	check_bad(buf, n, "an unknown transport");
	n = v2(buf, 0x21, 0x11, 11, body, 11);
	check_bad(buf, n, "a length too short for its addresses");
	n = v2(buf, 0x21, 0x21, 35, body, 35);
	check_bad(buf, n, "a length too short for its addresses");
	n = v2(buf, 0x21, 0x31, 215, NULL, 0);
	check_bad(buf, n, "a length too short for its addresses");
	/* TLVs: a header cut, a value past the end, stray bytes. */
	memcpy(body + 12, "\x04\x00\x05" "abcd", 7);
	n = v2(buf, 0x21, 0x11, 19, body, 19);
	check_bad(buf, n, "a TLV past the header's end");
	n = v2(buf, 0x21, 0x11, 14, body, 14);
	check_bad(buf, n, "a TLV past the header's end");
	n = v2(buf, 0x21, 0x11, 13, body, 13);
	check_bad(buf, n, "a TLV past the header's end");
	n = v2(buf, 0x21, 0x00, 1, "\x04", 1);
	check_bad(buf, n, "a TLV past the header's end");
	/* The signature wrong in each of its bytes. */
	for (n = 0; n < 12; n++) {
		v2(buf, 0x21, 0x11, 12, body, 12);
		buf[n] ^= 0x40;
		check_bad(buf, n + 1, "not a PROXY header");
	}
}

/* Signatures: a prefix of either version needs more, nothing else. */
static void
test_proxy_prefixes(void **state)
{
	struct proxy_hdr	h;
	unsigned		b;
	uint8_t			c;

	(void)state;
	assert_int_equal(proxy_parse("", 0, &h), PROXY_MORE);
	for (b = 0; b < 256; b++) {
		c = (uint8_t)b;
		assert_int_equal(proxy_parse(&c, 1, &h),
		    c == 'P' || c == 0x0D ? PROXY_MORE : PROXY_BAD);
	}
	assert_int_equal(proxy_parse("PROXY", 5, &h), PROXY_MORE);
	assert_int_equal(proxy_parse("PROXY TCP4 1.2.3.4", 18, &h),
	    PROXY_MORE);
	assert_int_equal(proxy_parse("\r\n\r\n\0\r\nQUIT\n", 12, &h),
	    PROXY_MORE);
	assert_int_equal(proxy_parse("\r\n\r\n\0\r\nQUIT\n\x21", 13, &h),
	    PROXY_MORE);
	assert_int_equal(proxy_parse("\r\n\r\n\0\r\nQUIT\n\x21\x11\x00", 15,
	    &h), PROXY_MORE);
}

/* A sockaddr of an address text and a port. */
static struct sockaddr_storage
addr(const char *text)
{
	struct sockaddr_storage	ss;
	struct sockaddr_in	*sin = (struct sockaddr_in *)&ss;
	struct sockaddr_in6	*sin6 = (struct sockaddr_in6 *)&ss;

	memset(&ss, 0, sizeof ss);
	if (inet_pton(AF_INET, text, &sin->sin_addr) == 1)
		sin->sin_family = AF_INET;
	else if (inet_pton(AF_INET6, text, &sin6->sin6_addr) == 1)
		sin6->sin6_family = AF_INET6;
	else
		fail_msg("bad address in the test: %s", text);
	return (ss);
}

/* Does the list trust this address? */
static int
trusts(const char *list, const char *peer)
{
	struct proxy_nets	nets;
	struct sockaddr_storage	ss = addr(peer);
	const char		*why = NULL;

	if (proxy_nets_parse(&nets, list, &why) == -1)
		fail_msg("%s: %s", list, why);
	return (proxy_nets_match(&nets, (struct sockaddr *)&ss));
}

/* --proxy-from: networks of both families, bare addresses, host bits. */
static void
test_proxy_nets_match(void **state)
{
	struct proxy_nets	nets;
	struct sockaddr_un	sun;
	const char		*why;

	(void)state;
	assert_int_equal(proxy_nets_parse(&nets, "", &why), 0);
	assert_int_equal(nets.n, 0);
	assert_false(trusts("", "127.0.0.1"));
	assert_false(trusts("  ", "127.0.0.1"));
	assert_true(trusts("127.0.0.1/32", "127.0.0.1"));
	assert_false(trusts("127.0.0.1/32", "127.0.0.2"));
	assert_true(trusts("127.0.0.1", "127.0.0.1"));
	assert_false(trusts("127.0.0.1", "127.0.0.3"));
	assert_true(trusts("172.28.14.0/24", "172.28.14.250"));
	assert_false(trusts("172.28.14.0/24", "172.28.15.1"));
	assert_true(trusts("172.28.14.0/23", "172.28.15.1"));
	assert_true(trusts("10.9.9.9/8", "10.1.2.3"));	/* host bits */
	assert_true(trusts("10.0.0.0/12", "10.15.255.255"));
	assert_false(trusts("10.0.0.0/12", "10.16.0.0"));
	assert_true(trusts("0.0.0.0/0", "203.0.113.9"));
	assert_false(trusts("0.0.0.0/0", "2001:db8::1"));
	assert_true(trusts("10.0.0.0/8, 192.168.0.0/16 ,::1",
	    "192.168.200.1"));
	assert_true(trusts("10.0.0.0/8, 192.168.0.0/16 ,::1", "::1"));
	assert_false(trusts("10.0.0.0/8, 192.168.0.0/16 ,::1", "::2"));
	/* A dual-stack socket's IPv4 peer is IPv4. */
	assert_true(trusts("127.0.0.0/8", "::ffff:127.0.0.9"));
	assert_false(trusts("127.0.0.0/8", "::ffff:128.0.0.1"));
	assert_true(trusts("2001:db8::/32", "2001:db8:ffff::1"));
	assert_false(trusts("2001:db8::/32", "2001:db9::1"));
	assert_true(trusts("2001:db8:0:1::/63", "2001:db8:0:0::5"));
	assert_false(trusts("2001:db8:0:1::/64", "2001:db8:0:0::5"));
	assert_true(trusts("::/0", "fe80::1"));
	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	assert_int_equal(proxy_nets_parse(&nets, "0.0.0.0/0,::/0", &why), 0);
	assert_false(proxy_nets_match(&nets, (struct sockaddr *)&sun));
}

/* --proxy-from: lists that are refused, and why. */
static void
test_proxy_nets_bad(void **state)
{
	static const char *const	bad[] = {
		"10.0.0.0/33", "::/129", "10.0.0.0/", "/8", "10.0.0.0/08",
		"10.0.0.0/8x", "a.b.c.d", "10.0.0.0/8,", ",", "10.0.0.0/8,,::1",
		"localhost", "10.0.0.0/-1", "10.0.0.0 /8", "1.2.3.4/1000",
		"fe80::1%lo/64", "10.0.0.0/8 192.168.0.0/16",
	};
	struct proxy_nets		nets;
	char				list[32 * 16];
	const char			*why;
	size_t				i;

	(void)state;
	for (i = 0; i < NCASES(bad); i++) {
		why = NULL;
		if (proxy_nets_parse(&nets, bad[i], &why) != -1)
			fail_msg("\"%s\" was taken", bad[i]);
		assert_string_equal(why,
		    "not ADDR/BITS (an IPv4 or IPv6 network)");
	}
	/* 32 networks are taken, 33 are not. */
	list[0] = '\0';
	for (i = 0; i < PROXY_NETS_MAX; i++)
		snprintf(list + strlen(list), sizeof list - strlen(list),
		    "%s10.0.%zu.0/24", i > 0 ? "," : "", i);
	assert_int_equal(proxy_nets_parse(&nets, list, &why), 0);
	assert_int_equal(nets.n, PROXY_NETS_MAX);
	assert_true(trusts(list, "10.0.31.7"));
	strcat(list, ",::1");
	assert_int_equal(proxy_nets_parse(&nets, list, &why), -1);
	assert_string_equal(why, "more than 32 networks");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_proxy_v1_good),
		cmocka_unit_test(test_proxy_v1_bad),
		cmocka_unit_test(test_proxy_v1_limit),
		cmocka_unit_test(test_proxy_v2_good),
		cmocka_unit_test(test_proxy_v2_longest),
		cmocka_unit_test(test_proxy_v2_bad),
		cmocka_unit_test(test_proxy_prefixes),
		cmocka_unit_test(test_proxy_nets_match),
		cmocka_unit_test(test_proxy_nets_bad),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
