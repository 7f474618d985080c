/*
 * net.c -- the client's connection: resolving and connecting with a time
 * limit (with --tls, the TLS handshake too: tls.c), and reading and
 * sending on a nonblocking socket, in plain TCP or inside TLS.
 */
#include <sys/socket.h>
#include <sys/types.h>

#include <netdb.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "net.h"
#include "tls.h"

static int	net_try(const struct addrinfo *, int);

/* Milliseconds on a clock that only goes forward. */
long
net_now_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (ts.tv_sec * 1000L + ts.tv_nsec / 1000000L);
}

/* Connect to one address within the time; a nonblocking socket, or -1. */
static int
net_try(const struct addrinfo *ai, int timeout_ms)
{
	struct pollfd	pfd;
	socklen_t	len;
	int		fd, err = 0, n;

	fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
	if (fd == -1)
		return (-1);
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) == -1 ||
	    fcntl(fd, F_SETFD, FD_CLOEXEC) == -1)
		goto fail;
	if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0)
		return (fd);
	if (errno != EINPROGRESS)
		goto fail;
	pfd.fd = fd;
	pfd.events = POLLOUT;
	do
		n = poll(&pfd, 1, timeout_ms);
	while (n == -1 && errno == EINTR);
	if (n == 0)
		errno = ETIMEDOUT;
	if (n <= 0)
		goto fail;
	len = sizeof err;
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) == -1)
		goto fail;
	if (err == 0)
		return (fd);
	errno = err;
fail:
	err = errno;
	close(fd);
	errno = err;
	return (-1);
}

/*
 * Resolve the options' host and port (IPv4 or IPv6) and connect to the
 * first address that answers, all within timeout_ms; with --tls, the TLS
 * handshake too, its session in *tls (else NULL).  Returns a nonblocking
 * socket, or -1 with the reason in why.
 */
int
net_connect(const struct client_opts *opts, int timeout_ms, struct tls **tls,
    char *why, size_t whysize)
{
	struct addrinfo	 hints, *res, *ai;
	long		 deadline = net_now_ms() + timeout_ms, left;
	int		 fd = -1, rc;

	*tls = NULL;
	memset(&hints, 0, sizeof hints);
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_NUMERICSERV;
	rc = getaddrinfo(opts->host, opts->port, &hints, &res);
	if (rc != 0) {
		snprintf(why, whysize, "cannot resolve %s: %s", opts->host,
		    rc == EAI_SYSTEM ? strerror(errno) : gai_strerror(rc));
		return (-1);
	}
	errno = ECONNREFUSED;
	for (ai = res; ai != NULL && fd == -1; ai = ai->ai_next) {
		if ((left = deadline - net_now_ms()) <= 0) {
			errno = ETIMEDOUT;
			break;
		}
		fd = net_try(ai, (int)left);
	}
	if (fd == -1)
		snprintf(why, whysize, "cannot connect to %s:%s: %s",
		    opts->host, opts->port, strerror(errno));
	freeaddrinfo(res);
	if (fd != -1 && opts->tls && (*tls = tls_connect(fd, opts->host,
	    opts->cafile, deadline, why, whysize)) == NULL) {
		close(fd);
		fd = -1;
	}
	return (fd);
}

/*
 * Read what has come, as recv(2) does (a count, 0 at the end, -1 with
 * errno EAGAIN when there is nothing yet), from TLS when tls is not NULL.
 */
ssize_t
net_recv(int fd, struct tls *tls, char *buf, size_t len)
{
	if (tls != NULL)
		return (tls_read(tls, buf, len));
	return (recv(fd, buf, len, MSG_DONTWAIT));
}

/*
 * What poll(2) waits for before reading: POLLIN, or POLLOUT when TLS must
 * write before it can read.
 */
short
net_events(const struct tls *tls)
{
	return (tls != NULL ? tls_events(tls) : POLLIN);
}

/* 1 if bytes already read are waiting inside TLS, where poll(2) sees none. */
int
net_pending(const struct tls *tls)
{
	return (tls != NULL && tls_pending(tls));
}

/* End the connection: TLS's close_notify if it can go at once, the socket. */
void
net_close(int fd, struct tls *tls)
{
	tls_free(tls);
	close(fd);
}

/*
 * Send all of a buffer on a nonblocking socket (inside TLS when tls is not
 * NULL), waiting up to timeout_ms for room; 0, or -1 when the connection
 * is gone or stuck.
 */
int
net_send(int fd, struct tls *tls, const char *p, size_t len, int timeout_ms)
{
	long	deadline = net_now_ms() + timeout_ms;
	ssize_t	n;

	while (len > 0) {
		struct pollfd	pfd = { fd, POLLOUT, 0 };
		long		left = deadline - net_now_ms();

		if (tls != NULL)
			n = tls_write(tls, p, len);
		else
			n = send(fd, p, len, MSG_NOSIGNAL);
		if (n > 0) {
			p += n;
			len -= (size_t)n;
			continue;
		}
		if (n == -1 && errno != EAGAIN && errno != EWOULDBLOCK &&
		    errno != EINTR)
			return (-1);
		if (tls != NULL)
			pfd.events = tls_events(tls);	/* may be POLLIN */
		if (left <= 0 || (poll(&pfd, 1, (int)left) == -1 &&
		    errno != EINTR))
			return (-1);
	}
	return (0);
}
