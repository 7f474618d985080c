/*
 * ws_client.c -- a WebSocket client for the end-to-end tests, framed by
 * hand (RFC 6455 section 5.2), and one-shot HTTP requests.
 */
#include <sys/socket.h>
#include <sys/types.h>

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "ws_client.h"

static int	wsc_fill(struct conn *, size_t, long);
static char	*wsc_find(char *, size_t, const char *);

/* The first occurrence of text in the len bytes at hay, or NULL. */
static char *
wsc_find(char *hay, size_t len, const char *text)
{
	size_t	n = strlen(text), i;

	for (i = 0; i + n <= len; i++)
		if (memcmp(hay + i, text, n) == 0)
			return (hay + i);
	return (NULL);
}

/* Read until the buffer holds n bytes, or the deadline: 0 or -1. */
static int
wsc_fill(struct conn *c, size_t n, long deadline)
{
	ssize_t	r;

	while (c->len < n) {
		struct pollfd	pfd = { c->fd, POLLIN, 0 };
		long		left = deadline - harness_now_ms();

		if (n > sizeof c->buf || left <= 0 ||
		    poll(&pfd, 1, (int)left) <= 0)
			return (-1);
		r = recv(c->fd, c->buf + c->len, sizeof c->buf - c->len, 0);
		if (r == -1 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (r <= 0)
			return (-1);
		c->len += (size_t)r;
	}
	return (0);
}

int
wsc_handshake(struct conn *c)
{
	static const char	req[] = "GET /ws HTTP/1.1\r\n"
				    "Host: 127.0.0.1\r\n"
				    "Upgrade: websocket\r\n"
				    "Connection: Upgrade\r\n"
				    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
				    "Sec-WebSocket-Version: 13\r\n\r\n";
	long			deadline = harness_now_ms() + HARNESS_TIMEOUT_MS;
	char			*end;
	size_t			 n;

	if (conn_write(c, req, sizeof req - 1) == -1)
		return (-1);
	while ((end = wsc_find(c->buf, c->len, "\r\n\r\n")) == NULL)
		if (wsc_fill(c, c->len + 1, deadline) == -1)
			return (-1);
	n = (size_t)(end + 4 - c->buf);
	if (c->len < 12 || memcmp(c->buf, "HTTP/1.1 101", 12) != 0 ||
	    wsc_find(c->buf, n, "\r\nSec-WebSocket-Accept: "
	    "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n") == NULL)
		return (-1);
	c->len -= n;
	memmove(c->buf, c->buf + n, c->len);
	return (0);
}

int
wsc_open(struct conn *c, int port)
{
	if (conn_open(c, port) == -1)
		return (-1);
	return (wsc_handshake(c));
}

int
wsc_frame(struct conn *c, int op, const void *payload, size_t len, int mask)
{
	static const uint8_t	key[4] = { 0x37, 0xfa, 0x21, 0x3d };
	uint8_t			*f;
	size_t			 n = 0, i;
	int			 rc;

	if ((f = malloc(len + 14)) == NULL)
		return (-1);
	f[n++] = (uint8_t)(0x80 | op);
	if (len < 126)
		f[n++] = (uint8_t)((mask ? 0x80 : 0) | len);
	else if (len < 65536) {
		f[n++] = (uint8_t)((mask ? 0x80 : 0) | 126);
		f[n++] = (uint8_t)(len >> 8);
		f[n++] = (uint8_t)len;
	} else {
		f[n++] = (uint8_t)((mask ? 0x80 : 0) | 127);
		for (i = 0; i < 8; i++)
			f[n++] = (uint8_t)((uint64_t)len >> (56 - 8 * i));
	}
	if (mask) {
		memcpy(f + n, key, 4);
		n += 4;
	}
	for (i = 0; i < len; i++)
		f[n + i] = (uint8_t)(((const uint8_t *)payload)[i] ^
		    (mask ? key[i % 4] : 0));
	rc = conn_write(c, f, n + len);
	free(f);
	return (rc);
}

int
wsc_send(struct conn *c, const char *line)
{
	return (wsc_frame(c, WSC_TEXT, line, strlen(line), 1));
}

int
wsc_recv(struct conn *c, int *op, char *out, size_t size, int timeout_ms)
{
	long		 deadline = harness_now_ms() + timeout_ms;
	const uint8_t	*b = (const uint8_t *)c->buf;
	size_t		 hdr = 2, len, i, k;

	if (wsc_fill(c, 2, deadline) == -1)
		return (-1);
	len = b[1] & 0x7f;
	if (len == 126)
		hdr = 4;
	else if (len == 127)
		hdr = 10;
	if ((b[1] & 0x80) || wsc_fill(c, hdr, deadline) == -1)
		return (-1);		/* a server never masks */
	if (len >= 126)
		for (len = 0, i = 2; i < hdr; i++)
			len = (len << 8) | b[i];
	if (wsc_fill(c, hdr + len, deadline) == -1)
		return (-1);
	*op = b[0] & 0x0f;
	k = len < size ? len : size - 1;
	memcpy(out, c->buf + hdr, k);
	out[k] = '\0';
	c->len -= hdr + len;
	memmove(c->buf, c->buf + hdr + len, c->len);
	return ((int)len);
}

int
wsc_event(struct conn *c, char *out, size_t size, int timeout_ms)
{
	int	n, op;

	for (;;) {
		if ((n = wsc_recv(c, &op, out, size, timeout_ms)) < 0)
			return (-1);
		if (op == WSC_CLOSE)
			return (-1);
		if (op == WSC_TEXT && out[0] != ' ')
			return (n);
	}
}

int
wsc_close_code(struct conn *c, int timeout_ms)
{
	char	buf[1024];
	int	n, op;

	for (;;) {
		if ((n = wsc_recv(c, &op, buf, sizeof buf, timeout_ms)) < 0)
			return (-1);
		if (op == WSC_CLOSE)
			return (n >= 2 ? ((uint8_t)buf[0] << 8) |
			    (uint8_t)buf[1] : 1005);
	}
}

void
wsc_skip_to(struct conn *c, const char *prefix, char *out, size_t size)
{
	char	line[1024];
	int	i;

	for (i = 0; i < 64; i++) {
		if (wsc_event(c, line, sizeof line, HARNESS_TIMEOUT_MS) < 0)
			fail_msg("expected \"%s...\" over the WebSocket, got "
			    "a close, EOF or timeout", prefix);
		if (strncmp(line, prefix, strlen(prefix)) == 0) {
			if (out != NULL)
				snprintf(out, size, "%s", line);
			return;
		}
	}
	fail_msg("no \"%s...\" within 64 messages", prefix);
}

int
http_fetch(int port, const char *req, size_t len, char *out, size_t size)
{
	struct conn	*c;
	long		 deadline = harness_now_ms() + HARNESS_TIMEOUT_MS;
	size_t		 n = 0;
	ssize_t		 r;

	if ((c = calloc(1, sizeof *c)) == NULL)
		return (-1);
	if (conn_open(c, port) == -1 || conn_write(c, req, len) == -1) {
		free(c);
		return (-1);
	}
	for (;;) {
		struct pollfd	pfd = { c->fd, POLLIN, 0 };
		long		left = deadline - harness_now_ms();

		if (n >= size - 1 || left <= 0 || poll(&pfd, 1, (int)left) <= 0)
			break;
		r = recv(c->fd, out + n, size - 1 - n, 0);
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	out[n] = '\0';
	conn_close(c);
	free(c);
	return ((int)n);
}
