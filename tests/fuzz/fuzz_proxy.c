/*
 * fuzz_proxy.c -- libFuzzer harness for the PROXY protocol's header
 * (proto/proxy.c), the first bytes a trusted balancer sends, and for
 * --proxy-from's list of networks.
 *
 * Input: a byte, then the bytes.  With the byte's high bit clear, the
 * bytes are a connection's first ones, fed whole and, as the daemon
 * reads them, in reads of 1 to 64 bytes (the byte's low six bits): the
 * reads need more until they answer as the whole does.  A whole header
 * is within its bounds (v1: 15 to 107 bytes ending in CR LF; v2: 16 and
 * its length), parses the same from its own bytes alone, needs more one
 * byte short, and names a source its bytes spell.  An invalid one has a
 * reason and stays invalid.  With the high bit set, the bytes up to a
 * NUL are a --proxy-from list: one taken holds at most 32 networks, each
 * trusting its own address, and is taken again the same.
 */
#include <sys/socket.h>

#include <netinet/in.h>
#include <arpa/inet.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fuzz.h"
#include "proxy.h"

int		LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void	fuzz_header(const uint8_t *, size_t, size_t);
static void	fuzz_done(const uint8_t *, size_t, const struct proxy_hdr *);
static void	fuzz_v1_src(const uint8_t *, const struct proxy_hdr *);
static void	fuzz_v2_src(const uint8_t *, const struct proxy_hdr *);
static void	fuzz_nets(const uint8_t *, size_t);

/* Two results the same. */
static int
fuzz_same(const struct proxy_hdr *a, const struct proxy_hdr *b)
{
	return (a->version == b->version && a->kind == b->kind &&
	    a->len == b->len && memcmp(&a->src, &b->src, sizeof a->src) == 0);
}

/* A connection's first bytes: whole, then read by read. */
static void
fuzz_header(const uint8_t *p, size_t len, size_t chunk)
{
	struct proxy_hdr	whole, h;
	enum proxy_status	st, ws = proxy_parse(p, len, &whole);
	size_t			k;

	if (ws == PROXY_DONE)
		fuzz_done(p, len, &whole);
	else if (ws == PROXY_BAD)
		CHECK(whole.why != NULL && whole.why[0] != '\0');
	for (k = 0; k < len; ) {
		k = k + chunk < len ? k + chunk : len;
		if ((st = proxy_parse(p, k, &h)) == PROXY_MORE)
			continue;
		CHECK(st == ws);
		if (st == PROXY_DONE)
			CHECK(fuzz_same(&h, &whole) && k >= whole.len &&
			    k - whole.len < chunk);
		else
			CHECK(strcmp(h.why, whole.why) == 0);
		return;
	}
	CHECK(ws == PROXY_MORE);
}

/* A whole header: its bounds, its own bytes, its source. */
static void
fuzz_done(const uint8_t *p, size_t len, const struct proxy_hdr *h)
{
	struct proxy_hdr	again;

	CHECK(h->len <= len);
	if (h->version == 1) {
		CHECK(h->len >= 15 && h->len <= PROXY_V1_MAX);
		CHECK(memcmp(p, "PROXY ", 6) == 0);
		CHECK(p[h->len - 2] == '\r' && p[h->len - 1] == '\n');
		CHECK(memchr(p, '\n', h->len - 1) == NULL);
		CHECK(h->kind != PROXY_LOCAL);
	} else {
		CHECK(h->version == 2);
		CHECK(h->len == PROXY_V2_HEAD + ((size_t)p[14] << 8 | p[15]));
		CHECK((p[12] & 0xF) == (h->kind == PROXY_LOCAL ? 0 : 1));
	}
	CHECK(proxy_parse(p, h->len, &again) == PROXY_DONE &&
	    fuzz_same(&again, h));
	CHECK(proxy_parse(p, h->len - 1, &again) == PROXY_MORE);
	if (h->kind != PROXY_ADDR) {
		CHECK(h->src.ss_family == 0);
		return;
	}
	CHECK(h->src.ss_family == AF_INET || h->src.ss_family == AF_INET6);
	if (h->version == 1)
		fuzz_v1_src(p, h);
	else
		fuzz_v2_src(p, h);
}

/* v1: the source's fields ("PROXY TCPn SRC DST SPORT") spell it. */
static void
fuzz_v1_src(const uint8_t *p, const struct proxy_hdr *h)
{
	char			 line[PROXY_V1_MAX + 1], *f[6], *save = NULL;
	uint8_t			 a[16];
	char			 port[8];
	int			 i, af = h->src.ss_family;
	const void		*want;
	unsigned		 sport;

	memcpy(line, p, h->len - 2);
	line[h->len - 2] = '\0';
	for (i = 0; i < 6; i++) {
		f[i] = strtok_r(i == 0 ? line : NULL, " ", &save);
		CHECK(f[i] != NULL);
	}
	CHECK(strcmp(f[1], af == AF_INET ? "TCP4" : "TCP6") == 0);
	CHECK(inet_pton(af, f[2], a) == 1);
	if (af == AF_INET) {
		const struct sockaddr_in *sin = (const void *)&h->src;

		want = &sin->sin_addr;
		sport = ntohs(sin->sin_port);
		CHECK(memcmp(a, want, 4) == 0);
	} else {
		const struct sockaddr_in6 *sin6 = (const void *)&h->src;

		want = &sin6->sin6_addr;
		sport = ntohs(sin6->sin6_port);
		CHECK(memcmp(a, want, 16) == 0);
	}
	snprintf(port, sizeof port, "%u", sport);
	CHECK(strcmp(f[4], port) == 0);
	CHECK(inet_pton(af, f[3], a) == 1);
}

/* v2: TCP over IPv4 or IPv6, its bytes the source's. */
static void
fuzz_v2_src(const uint8_t *p, const struct proxy_hdr *h)
{
	if (h->src.ss_family == AF_INET) {
		const struct sockaddr_in *sin = (const void *)&h->src;

		CHECK(p[13] == 0x11 && h->len >= 28);
		CHECK(memcmp(&sin->sin_addr, p + 16, 4) == 0);
		CHECK(memcmp(&sin->sin_port, p + 24, 2) == 0);
	} else {
		const struct sockaddr_in6 *sin6 = (const void *)&h->src;

		CHECK(p[13] == 0x21 && h->len >= 52);
		CHECK(memcmp(&sin6->sin6_addr, p + 16, 16) == 0);
		CHECK(memcmp(&sin6->sin6_port, p + 48, 2) == 0);
	}
}

/* A --proxy-from list: bounded, each network trusting its own address. */
static void
fuzz_nets(const uint8_t *p, size_t len)
{
	static char		 list[4096];
	struct proxy_nets	 nets, again;
	struct sockaddr_in6	 sin6;
	const char		*why = NULL;
	unsigned		 i;

	if (len >= sizeof list)
		len = sizeof list - 1;
	memcpy(list, p, len);
	list[len] = '\0';
	if (proxy_nets_parse(&nets, list, &why) == -1) {
		CHECK(why != NULL && why[0] != '\0');
		return;
	}
	CHECK(nets.n <= PROXY_NETS_MAX);
	memset(&sin6, 0, sizeof sin6);
	sin6.sin6_family = AF_INET6;
	for (i = 0; i < nets.n; i++) {
		CHECK(nets.net[i].bits <= 128);
		memcpy(&sin6.sin6_addr, nets.net[i].addr, 16);
		CHECK(proxy_nets_match(&nets, (struct sockaddr *)&sin6));
	}
	CHECK(proxy_nets_parse(&again, list, &why) == 0 &&
	    memcmp(&again, &nets, sizeof nets) == 0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return (0);
	if (data[0] & 0x80)
		fuzz_nets(data + 1, size - 1);
	else
		fuzz_header(data + 1, size - 1, (size_t)(data[0] & 0x3F) + 1);
	return (0);
}
