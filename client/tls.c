/*
 * tls.c -- ttt-client --tls: the line protocol inside TLS, on OpenSSL.
 * The server's certificate is checked against the system's CAs (or
 * --cafile's) and against the host name or address the player typed; the
 * name goes out as SNI.  After the handshake, reads and writes never
 * block: what OpenSSL wants to wait for (a read may need to write, a
 * write to read) is remembered for the poll loop (tls_events).
 */
#include <sys/types.h>

#include <arpa/inet.h>

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include "tls.h"

/* One TLS session on a connected socket. */
struct tls {
	SSL_CTX	*ctx;
	SSL	*ssl;
	int	 fd;
	short	 events;	/* what the last call waits for */
	int	 failed;	/* a fatal error: no close_notify */
};

static long	 tls_now_ms(void);
static SSL_CTX	*tls_ctx(const char *, char *, size_t);
static int	 tls_name(SSL *, const char *);
static int	 tls_again(struct tls *, int);
static void	 tls_why(struct tls *, const char *, int, char *, size_t);
static int	 tls_handshake(struct tls *, const char *, long, char *,
		    size_t);

/* Milliseconds on the clock of net_now_ms (net.c), which is above. */
static long
tls_now_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (ts.tv_sec * 1000L + ts.tv_nsec / 1000000L);
}

/* A context that checks the peer: the system's CAs, or cafile's. */
static SSL_CTX *
tls_ctx(const char *cafile, char *why, size_t whysize)
{
	SSL_CTX	*ctx;

	if ((ctx = SSL_CTX_new(TLS_client_method())) == NULL) {
		snprintf(why, whysize, "cannot start TLS: %s",
		    ERR_reason_error_string(ERR_get_error()));
		return (NULL);
	}
	SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
	SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, NULL);
	/* A close without close_notify is an end like any: BYE says more. */
	SSL_CTX_set_options(ctx, SSL_OP_IGNORE_UNEXPECTED_EOF);
	SSL_CTX_set_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE |
	    SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
	if (cafile == NULL) {
		if (SSL_CTX_set_default_verify_paths(ctx))
			return (ctx);
		snprintf(why, whysize, "cannot read the system's CA certificates");
	} else if (access(cafile, R_OK) == -1)
		snprintf(why, whysize, "cannot read --cafile %s: %s", cafile,
		    strerror(errno));
	else if (SSL_CTX_load_verify_locations(ctx, cafile, NULL))
		return (ctx);
	else
		snprintf(why, whysize, "--cafile %s: no PEM certificate in it",
		    cafile);
	SSL_CTX_free(ctx);
	return (NULL);
}

/*
 * The name the certificate must carry: an address as an IP address (no
 * SNI, which takes only names), anything else as a DNS name, sent as SNI.
 */
static int
tls_name(SSL *ssl, const char *host)
{
	unsigned char	addr[sizeof(struct in6_addr)];

	if (inet_pton(AF_INET, host, addr) == 1 ||
	    inet_pton(AF_INET6, host, addr) == 1)
		return (X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl),
		    host));
	return (SSL_set_tlsext_host_name(ssl, host) &&
	    SSL_set1_host(ssl, host));
}

/*
 * After an OpenSSL call returned r <= 0: 1 if it only has to wait (what
 * for is kept in t->events), else 0.
 */
static int
tls_again(struct tls *t, int r)
{
	switch (SSL_get_error(t->ssl, r)) {
	case SSL_ERROR_WANT_READ:
		t->events = POLLIN;
		return (1);
	case SSL_ERROR_WANT_WRITE:
		t->events = POLLOUT;
		return (1);
	default:
		return (0);
	}
}

/* Why the handshake failed, in one line for the player. */
static void
tls_why(struct tls *t, const char *host, int r, char *why, size_t whysize)
{
	long		 v = SSL_get_verify_result(t->ssl);
	unsigned long	 e = ERR_peek_last_error();
	const char	*reason = e != 0 ? ERR_reason_error_string(e) : NULL;

	if (v == X509_V_ERR_HOSTNAME_MISMATCH ||
	    v == X509_V_ERR_IP_ADDRESS_MISMATCH)
		snprintf(why, whysize, "refusing %s: its TLS certificate is not for %s (%s)",
		    host, host, X509_verify_cert_error_string(v));
	else if (v != X509_V_OK)
		snprintf(why, whysize, "refusing %s: its TLS certificate is not trusted (%s); --cafile FILE trusts another authority",
		    host, X509_verify_cert_error_string(v));
	else if (SSL_get_error(t->ssl, r) == SSL_ERROR_SYSCALL && errno != 0)
		snprintf(why, whysize, "TLS handshake with %s failed: %s",
		    host, strerror(errno));
	else
		snprintf(why, whysize, "TLS handshake with %s failed: %s",
		    host, reason != NULL ? reason :
		    "the server closed the connection");
}

/* The handshake, waiting by poll(2) until the deadline: 0 or -1. */
static int
tls_handshake(struct tls *t, const char *host, long deadline, char *why,
    size_t whysize)
{
	struct pollfd	pfd;
	long		left;
	int		r;

	ERR_clear_error();
	errno = 0;
	while ((r = SSL_connect(t->ssl)) != 1) {
		if (!tls_again(t, r)) {
			tls_why(t, host, r, why, whysize);
			return (-1);
		}
		if ((left = deadline - tls_now_ms()) <= 0) {
			snprintf(why, whysize, "TLS handshake with %s failed: no answer in time",
			    host);
			return (-1);
		}
		pfd.fd = t->fd;
		pfd.events = t->events;
		if (poll(&pfd, 1, (int)left) == -1 && errno != EINTR) {
			snprintf(why, whysize, "TLS handshake with %s failed: %s",
			    host, strerror(errno));
			return (-1);
		}
	}
	t->events = POLLIN;
	return (0);
}

/*
 * TLS on the connected nonblocking socket fd, the certificate checked for
 * host (against cafile's CAs, or the system's when NULL), the handshake
 * done by the deadline (CLOCK_MONOTONIC's milliseconds).  The session, or NULL with
 * the reason in why; fd stays the caller's to close either way.
 */
struct tls *
tls_connect(int fd, const char *host, const char *cafile, long deadline,
    char *why, size_t whysize)
{
	struct tls	*t;

	if ((t = calloc(1, sizeof *t)) == NULL) {
		snprintf(why, whysize, "%s", strerror(errno));
		return (NULL);
	}
	t->fd = fd;
	if ((t->ctx = tls_ctx(cafile, why, whysize)) == NULL)
		goto fail;
	if ((t->ssl = SSL_new(t->ctx)) == NULL || !SSL_set_fd(t->ssl, fd) ||
	    !tls_name(t->ssl, host)) {
		snprintf(why, whysize, "cannot start TLS: %s",
		    ERR_reason_error_string(ERR_get_error()));
		goto fail;
	}
	if (tls_handshake(t, host, deadline, why, whysize) == 0)
		return (t);
fail:
	tls_free(t);
	return (NULL);
}

/*
 * Read what there is, as recv(2) does: a count, 0 at the end, or -1 with
 * errno (EAGAIN: wait for tls_events, then call again).
 */
ssize_t
tls_read(struct tls *t, void *buf, size_t len)
{
	size_t	n;
	int	r;

	ERR_clear_error();
	errno = 0;
	if ((r = SSL_read_ex(t->ssl, buf, len, &n)) == 1) {
		t->events = POLLIN;
		return ((ssize_t)n);
	}
	if (tls_again(t, r)) {
		errno = EAGAIN;
		return (-1);
	}
	if (SSL_get_error(t->ssl, r) == SSL_ERROR_ZERO_RETURN)
		return (0);
	t->failed = 1;
	if (errno == 0)
		errno = EPROTO;
	return (-1);
}

/* Write what fits, as send(2) does: a count, or -1 with errno (EAGAIN). */
ssize_t
tls_write(struct tls *t, const void *buf, size_t len)
{
	size_t	n;
	int	r;

	ERR_clear_error();
	errno = 0;
	if ((r = SSL_write_ex(t->ssl, buf, len, &n)) == 1) {
		t->events = POLLIN;	/* what reading waits for again */
		return ((ssize_t)n);
	}
	if (tls_again(t, r)) {
		errno = EAGAIN;
		return (-1);
	}
	t->failed = 1;
	if (errno == 0)
		errno = EPIPE;
	return (-1);
}

/* What poll(2) must wait for before the last call that waited can go on. */
short
tls_events(const struct tls *t)
{
	return (t->events);
}

/* 1 if OpenSSL holds bytes already read from the socket (poll sees none). */
int
tls_pending(const struct tls *t)
{
	return (SSL_has_pending(t->ssl));
}

/* Say close_notify if it goes at once, and free the session (not fd). */
void
tls_free(struct tls *t)
{
	if (t == NULL)
		return;
	if (t->ssl != NULL) {
		if (SSL_is_init_finished(t->ssl) && !t->failed)
			SSL_shutdown(t->ssl);
		SSL_free(t->ssl);
	}
	SSL_CTX_free(t->ctx);
	free(t);
}
