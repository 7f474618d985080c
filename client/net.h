/*
 * net.h -- ttt-client's connection (net.c): connecting and sending within
 * a time limit, by a clock that only goes forward, in plain TCP or inside
 * TLS (tls.c).  The bottom of the client but for tls.c.
 */
#ifndef NET_H
#define NET_H

#include <sys/types.h>

#include <stddef.h>

struct client_opts;
struct tls;

long	net_now_ms(void);
int	net_connect(const struct client_opts *, int, struct tls **, char *,
	    size_t);
ssize_t	net_recv(int, struct tls *, char *, size_t);
short	net_events(const struct tls *);
int	net_pending(const struct tls *);
int	net_send(int, struct tls *, const char *, size_t, int);
void	net_close(int, struct tls *);

#endif /* NET_H */
