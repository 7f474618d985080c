/*
 * proxy.c -- the PROXY protocol's header (HAProxy's doc/proxy-protocol.txt,
 * versions 1 and 2), parsed from the bytes received so far, and the
 * networks of --proxy-from.
 *
 * Version 1 is one line, "PROXY TCP4|TCP6 SRC DST SPORT DPORT" or "PROXY
 * UNKNOWN ..." and CR LF, at most 107 bytes: each field exactly as the
 * spec writes it (one space between fields, no leading zeros, addresses
 * of the family named).  Version 2 is the 12-byte signature, version 2
 * and the command (LOCAL or PROXY), the family and transport, a length,
 * then the addresses and TLVs; the TLVs are skipped, each one checked to
 * end within the header.  A header is invalid as soon as its bytes can
 * begin no valid one.
 */
#include <sys/socket.h>
#include <sys/types.h>

#include <netinet/in.h>
#include <arpa/inet.h>

#include <string.h>

#include "proxy.h"

#define PROXY_V1_SIG	"PROXY "
#define PROXY_V1_SIGLEN	6
#define PROXY_V2_SIGLEN	12
#define PROXY_V2_LOCAL	0x0
#define PROXY_V2_PROXY	0x1
#define PROXY_V2_INET	0x1
#define PROXY_V2_INET6	0x2
#define PROXY_V2_UNIX	0x3
#define PROXY_V2_STREAM	0x1
#define PROXY_V2_DGRAM	0x2
#define PROXY_ADDR_MAX	45	/* INET6_ADDRSTRLEN less its NUL */

/* A field of a v1 line: its bytes, not NUL-terminated. */
struct proxy_field {
	const char	*p;
	size_t		 n;
};

static enum proxy_status proxy_bad(struct proxy_hdr *, const char *);
static enum proxy_status proxy_v1(const uint8_t *, size_t,
		    struct proxy_hdr *);
static enum proxy_status proxy_v1_line(const char *, size_t,
		    struct proxy_hdr *);
static int	proxy_v1_split(const char *, size_t, struct proxy_field *,
		    int);
static int	proxy_v1_addr(const struct proxy_field *, int, void *);
static int	proxy_v1_port(const struct proxy_field *, uint16_t *);
static enum proxy_status proxy_v2(const uint8_t *, size_t,
		    struct proxy_hdr *);
static int	proxy_v2_tlvs(const uint8_t *, size_t);
static void	proxy_v2_src(const uint8_t *, int, struct proxy_hdr *);
static int	proxy_net_parse(struct proxy_net *, const char *, size_t);
static void	proxy_mapped(uint8_t *, const void *);

/* Version 2's signature: CR LF CR LF NUL CR LF "QUIT" LF. */
static const uint8_t proxy_v2_sig[PROXY_V2_SIGLEN] = {
	0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A
};

/* An invalid header, and why. */
static enum proxy_status
proxy_bad(struct proxy_hdr *h, const char *why)
{
	h->why = why;
	return (PROXY_BAD);
}

/* The header at the start of buf (len bytes received so far). */
enum proxy_status
proxy_parse(const void *buf, size_t len, struct proxy_hdr *h)
{
	const uint8_t	*p = buf;

	memset(h, 0, sizeof *h);
	if (len == 0)
		return (PROXY_MORE);
	if (p[0] == 'P')
		return (proxy_v1(p, len, h));
	if (p[0] == proxy_v2_sig[0])
		return (proxy_v2(p, len, h));
	return (proxy_bad(h, "not a PROXY header"));
}

/* Version 1: the line, once its CR LF has come within 107 bytes. */
static enum proxy_status
proxy_v1(const uint8_t *p, size_t len, struct proxy_hdr *h)
{
	const uint8_t	*lf;
	size_t		 scan, end;

	h->version = 1;
	if (memcmp(p, PROXY_V1_SIG, len < PROXY_V1_SIGLEN ? len :
	    PROXY_V1_SIGLEN) != 0)
		return (proxy_bad(h, "not a PROXY header"));
	scan = len < PROXY_V1_MAX ? len : PROXY_V1_MAX;
	if ((lf = memchr(p, '\n', scan)) == NULL) {
		if (scan == PROXY_V1_MAX)
			return (proxy_bad(h, "no CR LF within 107 bytes"));
		return (PROXY_MORE);
	}
	end = (size_t)(lf - p) + 1;
	if (end < PROXY_V1_SIGLEN + 2 || p[end - 2] != '\r')
		return (proxy_bad(h, "a line not ended by CR LF"));
	h->len = end;
	return (proxy_v1_line((const char *)p + PROXY_V1_SIGLEN,
	    end - 2 - PROXY_V1_SIGLEN, h));
}

/*
 * A v1 line after "PROXY " and before its CR LF: UNKNOWN (the rest
 * ignored), or TCP4 or TCP6 and its four fields.
 */
static enum proxy_status
proxy_v1_line(const char *s, size_t n, struct proxy_hdr *h)
{
	struct proxy_field	 f[5];
	struct sockaddr_in	*sin = (struct sockaddr_in *)&h->src;
	struct sockaddr_in6	*sin6 = (struct sockaddr_in6 *)&h->src;
	uint8_t			 dst[16];
	uint16_t		 sport, dport;
	int			 af;

	if (n >= 7 && memcmp(s, "UNKNOWN", 7) == 0 && (n == 7 || s[7] == ' ')) {
		h->kind = PROXY_UNKNOWN;
		return (PROXY_DONE);
	}
	if (n >= 5 && memcmp(s, "TCP4 ", 5) == 0)
		af = AF_INET;
	else if (n >= 5 && memcmp(s, "TCP6 ", 5) == 0)
		af = AF_INET6;
	else
		return (proxy_bad(h, "not TCP4, TCP6 or UNKNOWN"));
	if (proxy_v1_split(s, n, f, 5) == -1)
		return (proxy_bad(h, "not SRC DST SPORT DPORT after TCP4 or "
		    "TCP6"));
	if (af == AF_INET ? proxy_v1_addr(&f[1], af, &sin->sin_addr) :
	    proxy_v1_addr(&f[1], af, &sin6->sin6_addr))
		return (proxy_bad(h, "a bad source address"));
	if (proxy_v1_addr(&f[2], af, dst) == -1)
		return (proxy_bad(h, "a bad destination address"));
	if (proxy_v1_port(&f[3], &sport) == -1 ||
	    proxy_v1_port(&f[4], &dport) == -1)
		return (proxy_bad(h, "a bad port"));
	if (af == AF_INET) {
		sin->sin_family = AF_INET;
		sin->sin_port = htons(sport);
	} else {
		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons(sport);
	}
	h->kind = PROXY_ADDR;
	return (PROXY_DONE);
}

/*
 * Exactly nf fields, each one byte or more, separated by exactly one
 * space; -1 if not.
 */
static int
proxy_v1_split(const char *s, size_t n, struct proxy_field *f, int nf)
{
	const char	*end = s + n, *sp;
	int		 i;

	for (i = 0; i < nf; i++) {
		sp = memchr(s, ' ', (size_t)(end - s));
		if ((i == nf - 1) != (sp == NULL))
			return (-1);
		f[i].p = s;
		f[i].n = (size_t)((sp != NULL ? sp : end) - s);
		if (f[i].n == 0)
			return (-1);
		s = sp != NULL ? sp + 1 : end;
	}
	return (0);
}

/*
 * An address of a v1 line in the family named: dotted quad without
 * leading zeros, or IPv6 in hexadecimal groups (no dotted tail, no
 * scope); -1 if it is not one.
 */
static int
proxy_v1_addr(const struct proxy_field *f, int af, void *out)
{
	const char	*ok = af == AF_INET ? "0123456789." :
			    "0123456789abcdefABCDEF:";
	char		 text[PROXY_ADDR_MAX + 1];
	size_t		 i;

	if (f->n > PROXY_ADDR_MAX)
		return (-1);
	for (i = 0; i < f->n; i++) {
		if (f->p[i] == '\0' || strchr(ok, f->p[i]) == NULL)
			return (-1);
		if (af == AF_INET && f->p[i] == '0' && i + 1 < f->n &&
		    f->p[i + 1] != '.' && (i == 0 || f->p[i - 1] == '.'))
			return (-1);		/* a leading zero */
	}
	memcpy(text, f->p, f->n);
	text[f->n] = '\0';
	return (inet_pton(af, text, out) == 1 ? 0 : -1);
}

/* A port of a v1 line: 0 to 65535, without leading zeros; -1 if not. */
static int
proxy_v1_port(const struct proxy_field *f, uint16_t *port)
{
	unsigned long	v = 0;
	size_t		i;

	if (f->n > 5 || (f->n > 1 && f->p[0] == '0'))
		return (-1);
	for (i = 0; i < f->n; i++) {
		if (f->p[i] < '0' || f->p[i] > '9')
			return (-1);
		v = v * 10 + (unsigned long)(f->p[i] - '0');
	}
	if (v > 65535)
		return (-1);
	*port = (uint16_t)v;
	return (0);
}

/*
 * Version 2: the signature, version 2, LOCAL or PROXY; for PROXY a known
 * family and transport, the addresses within the length, and TLVs that
 * fill the rest exactly.  LOCAL's block is skipped unread, as the spec
 * says.
 */
static enum proxy_status
proxy_v2(const uint8_t *p, size_t len, struct proxy_hdr *h)
{
	size_t	total, alen;
	int	cmd, fam, tr;

	h->version = 2;
	if (memcmp(p, proxy_v2_sig, len < PROXY_V2_SIGLEN ? len :
	    PROXY_V2_SIGLEN) != 0)
		return (proxy_bad(h, "not a PROXY header"));
	if (len <= PROXY_V2_SIGLEN)
		return (PROXY_MORE);
	if ((p[12] >> 4) != 2)
		return (proxy_bad(h, "not version 2"));
	if ((cmd = p[12] & 0xF) != PROXY_V2_LOCAL && cmd != PROXY_V2_PROXY)
		return (proxy_bad(h, "neither LOCAL nor PROXY"));
	if (len <= 13)
		return (PROXY_MORE);
	fam = p[13] >> 4;
	tr = p[13] & 0xF;
	if (cmd == PROXY_V2_PROXY && fam > PROXY_V2_UNIX)
		return (proxy_bad(h, "an unknown address family"));
	if (cmd == PROXY_V2_PROXY && tr > PROXY_V2_DGRAM)
		return (proxy_bad(h, "an unknown transport"));
	if (len < PROXY_V2_HEAD)
		return (PROXY_MORE);
	total = PROXY_V2_HEAD + ((size_t)p[14] << 8 | p[15]);
	alen = fam == PROXY_V2_INET ? 12 : fam == PROXY_V2_INET6 ? 36 :
	    fam == PROXY_V2_UNIX ? 216 : 0;
	if (cmd == PROXY_V2_PROXY && total - PROXY_V2_HEAD < alen)
		return (proxy_bad(h, "a length too short for its addresses"));
	if (len < total)
		return (PROXY_MORE);
	h->len = total;
	h->kind = PROXY_UNKNOWN;
	if (cmd == PROXY_V2_LOCAL) {
		h->kind = PROXY_LOCAL;
		return (PROXY_DONE);
	}
	if (proxy_v2_tlvs(p + PROXY_V2_HEAD + alen,
	    total - PROXY_V2_HEAD - alen) == -1)
		return (proxy_bad(h, "a TLV past the header's end"));
	if ((fam == PROXY_V2_INET || fam == PROXY_V2_INET6) &&
	    tr == PROXY_V2_STREAM)
		proxy_v2_src(p + PROXY_V2_HEAD, fam, h);
	return (PROXY_DONE);
}

/* TLVs (type, 16-bit length, value) filling n bytes exactly; -1 if not. */
static int
proxy_v2_tlvs(const uint8_t *p, size_t n)
{
	size_t	vlen;

	while (n > 0) {
		if (n < 3)
			return (-1);
		vlen = (size_t)p[1] << 8 | p[2];
		if (vlen > n - 3)
			return (-1);
		p += 3 + vlen;
		n -= 3 + vlen;
	}
	return (0);
}

/* A v2 TCP source: its address (4 or 16 bytes) and port. */
static void
proxy_v2_src(const uint8_t *a, int fam, struct proxy_hdr *h)
{
	struct sockaddr_in	*sin = (struct sockaddr_in *)&h->src;
	struct sockaddr_in6	*sin6 = (struct sockaddr_in6 *)&h->src;

	h->kind = PROXY_ADDR;
	if (fam == PROXY_V2_INET) {
		sin->sin_family = AF_INET;
		memcpy(&sin->sin_addr, a, 4);
		memcpy(&sin->sin_port, a + 8, 2);
	} else {
		sin6->sin6_family = AF_INET6;
		memcpy(&sin6->sin6_addr, a, 16);
		memcpy(&sin6->sin6_port, a + 32, 2);
	}
}

/*
 * --proxy-from: networks ("ADDR/BITS", or an address alone) separated by
 * commas, blanks around them ignored; "" trusts nobody.  -1 and why if
 * the list is bad.
 */
int
proxy_nets_parse(struct proxy_nets *nets, const char *list, const char **why)
{
	const char	*s = list, *end;
	size_t		 n;

	memset(nets, 0, sizeof *nets);
	s += strspn(s, " \t");
	if (*s == '\0')
		return (0);
	for (;;) {
		end = s + strcspn(s, ",");
		n = (size_t)(end - s);
		while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
			n--;
		if (nets->n == PROXY_NETS_MAX) {
			*why = "more than 32 networks";
			return (-1);
		}
		if (proxy_net_parse(&nets->net[nets->n++], s, n) == -1) {
			*why = "not ADDR/BITS (an IPv4 or IPv6 network)";
			return (-1);
		}
		if (*end == '\0')
			return (0);
		s = end + 1;
		s += strspn(s, " \t");
	}
}

/* One network: ADDR or ADDR/BITS, its host bits cleared; -1 if bad. */
static int
proxy_net_parse(struct proxy_net *net, const char *s, size_t n)
{
	const char	*slash = memchr(s, '/', n);
	char		 text[PROXY_ADDR_MAX + 1];
	uint8_t		 a[16];
	size_t		 alen = slash != NULL ? (size_t)(slash - s) : n, i;
	unsigned	 bits = 0, max;
	int		 v4;

	if (alen == 0 || alen > PROXY_ADDR_MAX)
		return (-1);
	memcpy(text, s, alen);
	text[alen] = '\0';
	if ((v4 = inet_pton(AF_INET, text, a) == 1))
		proxy_mapped(net->addr, a);
	else if (inet_pton(AF_INET6, text, net->addr) != 1)
		return (-1);
	max = v4 ? 32 : 128;
	if (slash == NULL)
		bits = max;
	else {
		n -= alen + 1;
		if (n == 0 || n > 3 || (n > 1 && slash[1] == '0'))
			return (-1);
		for (i = 1; i <= n; i++) {
			if (slash[i] < '0' || slash[i] > '9')
				return (-1);
			bits = bits * 10 + (unsigned)(slash[i] - '0');
		}
		if (bits > max)
			return (-1);
	}
	net->bits = v4 ? bits + 96 : bits;
	for (i = 0; i < 16; i++) {
		if (net->bits < 8 * (i + 1))
			net->addr[i] &= (uint8_t)(net->bits <= 8 * i ? 0 :
			    0xFF << (8 * (i + 1) - net->bits));
	}
	return (0);
}

/* An IPv4 address (4 bytes) as IPv4-mapped IPv6 (16). */
static void
proxy_mapped(uint8_t *out, const void *v4)
{
	memset(out, 0, 10);
	out[10] = out[11] = 0xFF;
	memcpy(out + 12, v4, 4);
}

/* Is this peer in one of the networks?  (IPv4-mapped IPv6 is IPv4.) */
int
proxy_nets_match(const struct proxy_nets *nets, const struct sockaddr *sa)
{
	const struct proxy_net	*net;
	uint8_t			 a[16];
	unsigned		 i, full, rest;

	if (sa->sa_family == AF_INET)
		proxy_mapped(a, &((const struct sockaddr_in *)
		    (const void *)sa)->sin_addr);
	else if (sa->sa_family == AF_INET6)
		memcpy(a, &((const struct sockaddr_in6 *)
		    (const void *)sa)->sin6_addr, 16);
	else
		return (0);
	for (i = 0; i < nets->n; i++) {
		net = &nets->net[i];
		full = net->bits / 8;
		rest = net->bits % 8;
		if (memcmp(a, net->addr, full) != 0)
			continue;
		if (rest == 0 || ((a[full] ^ net->addr[full]) &
		    (0xFF << (8 - rest)) & 0xFF) == 0)
			return (1);
	}
	return (0);
}
