/*
 * net.c -- the client's socket: resolving and connecting with a time limit,
 * and sending whole lines on a nonblocking socket.
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

#include "net.h"

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
 * Resolve host and port (IPv4 or IPv6) and connect to the first address
 * that answers, all within timeout_ms.  Returns a nonblocking socket, or -1
 * with the reason in why.
 */
int
net_connect(const char *host, const char *port, int timeout_ms, char *why,
    size_t whysize)
{
	struct addrinfo	 hints, *res, *ai;
	long		 deadline = net_now_ms() + timeout_ms, left;
	int		 fd = -1, rc;

	memset(&hints, 0, sizeof hints);
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_NUMERICSERV;
	rc = getaddrinfo(host, port, &hints, &res);
	if (rc != 0) {
		snprintf(why, whysize, "cannot resolve %s: %s", host,
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
		snprintf(why, whysize, "cannot connect to %s:%s: %s", host,
		    port, strerror(errno));
	freeaddrinfo(res);
	return (fd);
}

/*
 * Send all of a buffer on a nonblocking socket, waiting up to timeout_ms
 * for room; 0, or -1 when the connection is gone or stuck.
 */
int
net_send(int fd, const char *p, size_t len, int timeout_ms)
{
	long	deadline = net_now_ms() + timeout_ms;
	ssize_t	n;

	while (len > 0) {
		struct pollfd	pfd = { fd, POLLOUT, 0 };
		long		left = deadline - net_now_ms();

		n = send(fd, p, len, MSG_NOSIGNAL);
		if (n > 0) {
			p += n;
			len -= (size_t)n;
			continue;
		}
		if (n == -1 && errno != EAGAIN && errno != EWOULDBLOCK &&
		    errno != EINTR)
			return (-1);
		if (left <= 0 || (poll(&pfd, 1, (int)left) == -1 &&
		    errno != EINTR))
			return (-1);
	}
	return (0);
}
