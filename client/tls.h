/*
 * tls.h -- ttt-client's TLS (tls.c, on OpenSSL): a connected socket
 * wrapped in a TLS session whose certificate is checked, then read and
 * written without blocking.  Below net.c, which is all that calls it.
 */
#ifndef TLS_H
#define TLS_H

#include <sys/types.h>

#include <stddef.h>

struct tls;

struct tls	*tls_connect(int, const char *, const char *, long, char *,
		    size_t);
ssize_t		 tls_read(struct tls *, void *, size_t);
ssize_t		 tls_write(struct tls *, const void *, size_t);
short		 tls_events(const struct tls *);
int		 tls_pending(const struct tls *);
void		 tls_free(struct tls *);

#endif /* TLS_H */
