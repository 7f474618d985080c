/*
 * proxy.h -- HAProxy's PROXY protocol, versions 1 (a text line) and 2
 * (binary), as a load balancer puts it before a connection's first byte
 * (HAProxy's doc/proxy-protocol.txt), and the networks trusted to send it
 * (--proxy-from).
 *
 * Pure: no sockets, no printing, no state.  proxy_parse is fed the bytes
 * received so far, from the connection's first one, and answers that it
 * needs more, that the header is whole (its length, and whom it names),
 * or that it is invalid (and why).
 */
#ifndef PROXY_H
#define PROXY_H

#include <sys/socket.h>

#include <stddef.h>
#include <stdint.h>

#define PROXY_V1_MAX	107	/* a v1 line at most, CR LF included */
#define PROXY_V2_HEAD	16	/* v2: signature, command, family, length */
#define PROXY_NETS_MAX	32	/* networks in --proxy-from */

/* What the bytes so far are. */
enum proxy_status {
	PROXY_MORE,		/* a header begun: read on */
	PROXY_DONE,		/* a whole header: struct proxy_hdr */
	PROXY_BAD		/* not a valid header: close */
};

/* Whom a whole header names. */
enum proxy_kind {
	PROXY_ADDR,		/* a TCP client: src */
	PROXY_LOCAL,		/* v2 LOCAL: the proxy itself (a health
				   check): the connection's own address */
	PROXY_UNKNOWN		/* v1 UNKNOWN, v2 AF_UNSPEC, AF_UNIX, UDP:
				   the connection's own address */
};

struct proxy_hdr {
	int			 version;	/* 1 or 2 */
	enum proxy_kind		 kind;
	size_t			 len;		/* bytes of the header */
	struct sockaddr_storage	 src;		/* PROXY_ADDR: sockaddr_in
						   or sockaddr_in6 */
	const char		*why;		/* PROXY_BAD: a constant */
};

/* One network of --proxy-from. */
struct proxy_net {
	uint8_t		addr[16];	/* IPv4 as IPv4-mapped IPv6 */
	unsigned	bits;		/* of the 128 */
};

struct proxy_nets {
	unsigned		n;	/* 0: nobody is trusted */
	struct proxy_net	net[PROXY_NETS_MAX];
};

enum proxy_status	proxy_parse(const void *, size_t, struct proxy_hdr *);
int			proxy_nets_parse(struct proxy_nets *, const char *,
			    const char **);
int			proxy_nets_match(const struct proxy_nets *,
			    const struct sockaddr *);

#endif /* PROXY_H */
