/*
 * e2e_line.c -- line expectations for the end-to-end suites, on top of the
 * harness's sockets.
 */
#include <sys/socket.h>
#include <sys/types.h>

#include <netinet/in.h>
#include <netinet/tcp.h>

#include <errno.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "harness.h"
#include "e2e_line.h"
#include "utf8.h"

static struct conn *const	*line_conns;
static const int		*line_nconns;

/* Track the test's connections for line_label (NULL: none). */
void
line_track(struct conn *const *conns, const int *nconns)
{
	line_conns = conns;
	line_nconns = nconns;
}

/* "conn 3": the connection's number in this test, for failure messages. */
const char *
line_label(const struct conn *c)
{
	static char	bufs[4][16];
	static int	next;
	char		*b = bufs[next++ % 4];
	int		 i;

	snprintf(b, sizeof bufs[0], "conn ?");
	for (i = 0; line_nconns != NULL && i < *line_nconns; i++) {
		if (line_conns[i] == c)
			snprintf(b, sizeof bufs[0], "conn %d", i);
	}
	return (b);
}

/* One line, CRLF and text insisted on (see e2e_line.h). */
int
line_read(struct conn *c, char *out, size_t size, int timeout_ms)
{
	int	n, ok;

	n = conn_rawline(c, out, size, timeout_ms);
	if (n < 0)
		return (n);
	ok = n > 0 && out[n - 1] == '\r';
	if (ok)
		out[--n] = '\0';
	if (!utf8_text(out, (size_t)n) || memchr(out, '\t', (size_t)n) != NULL)
		ok = 0;
	return (ok ? n : -2);
}

/* Like line_read, but skip the space-led lines for people. */
int
line_read_event(struct conn *c, char *out, size_t size, int timeout_ms)
{
	int	n;

	do {
		n = line_read(c, out, size, timeout_ms);
	} while (n >= 0 && out[0] == ' ');
	return (n);
}

/* The next line (raw) or event (not raw) must be exactly this. */
void
line_want_at(int ln, int raw, struct conn *c, const char *fmt, ...)
{
	char	want[LINE_SIZE], got[LINE_SIZE];
	va_list	ap;
	int	n;

	va_start(ap, fmt);
	vsnprintf(want, sizeof want, fmt, ap);
	va_end(ap);
	n = raw ? line_read(c, got, sizeof got, HARNESS_TIMEOUT_MS) :
	    line_read_event(c, got, sizeof got, HARNESS_TIMEOUT_MS);
	if (n == -1)
		fail_msg("line %d: %s: expected \"%s\", got EOF or timeout",
		    ln, line_label(c), want);
	if (n == -2)
		fail_msg("line %d: %s: \"%s\" ends in a bare LF or is no "
		    "text (UTF-8 without TAB or control)", ln, line_label(c),
		    got);
	if (strcmp(got, want) != 0)
		fail_msg("line %d: %s: expected \"%s\", got \"%s\"", ln,
		    line_label(c), want, got);
}

/* The next event must start with the prefix; optionally copy it out. */
void
line_want_prefix_at(int ln, struct conn *c, const char *prefix, char *out,
    size_t size)
{
	char	got[LINE_SIZE];
	int	n;

	n = line_read_event(c, got, sizeof got, HARNESS_TIMEOUT_MS);
	if (n == -1)
		fail_msg("line %d: %s: expected \"%s...\", got EOF or timeout",
		    ln, line_label(c), prefix);
	if (n == -2)
		fail_msg("line %d: %s: \"%s\" ends in a bare LF or is no "
		    "text (UTF-8 without TAB or control)", ln, line_label(c),
		    got);
	if (strncmp(got, prefix, strlen(prefix)) != 0)
		fail_msg("line %d: %s: expected \"%s...\", got \"%s\"", ln,
		    line_label(c), prefix, got);
	if (out != NULL)
		snprintf(out, size, "%s", got);
}

/* The server must close cleanly now: EOF, no more data, no reset. */
void
line_want_eof_at(int ln, struct conn *c)
{
	struct pollfd	pfd = { c->fd, POLLIN, 0 };
	char		tmp[512];
	ssize_t		r;

	if (c->len > 0)
		fail_msg("line %d: %s: expected EOF, got \"%.*s\"", ln,
		    line_label(c), (int)c->len, c->buf);
	if (poll(&pfd, 1, HARNESS_TIMEOUT_MS) <= 0)
		fail_msg("line %d: %s: the server did not close within %d ms",
		    ln, line_label(c), HARNESS_TIMEOUT_MS);
	r = recv(c->fd, tmp, sizeof tmp, 0);
	if (r > 0)
		fail_msg("line %d: %s: expected EOF, got \"%.*s\"", ln,
		    line_label(c), (int)r, tmp);
	if (r < 0)
		fail_msg("line %d: %s: expected a clean EOF, got %s", ln,
		    line_label(c), strerror(errno));
}

/* Nothing at all may arrive for a while (no line, no EOF). */
void
line_want_quiet_at(int ln, struct conn *c, int ms)
{
	struct pollfd	pfd = { c->fd, POLLIN, 0 };
	ssize_t		r;

	if (c->len == 0 && poll(&pfd, 1, ms) == 0)
		return;
	r = recv(c->fd, c->buf + c->len, sizeof c->buf - c->len,
	    MSG_DONTWAIT);
	if (r == 0 && c->len == 0)
		fail_msg("line %d: %s: expected silence, got EOF", ln,
		    line_label(c));
	if (r > 0)
		c->len += (size_t)r;
	fail_msg("line %d: %s: expected silence, got \"%.*s\"", ln,
	    line_label(c), (int)c->len, c->buf);
}

/* Send one line (printf format) with CRLF, in one write. */
void
line_send_at(int ln, struct conn *c, const char *fmt, ...)
{
	char	buf[LINE_SIZE];
	va_list	ap;
	int	n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof buf - 2, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof buf - 2)
		fail_msg("line %d: line too long for the test", ln);
	memcpy(buf + n, "\r\n", 2);
	if (conn_write(c, buf, (size_t)n + 2) != 0)
		fail_msg("line %d: %s: cannot send \"%.*s\": %s", ln,
		    line_label(c), n, buf, strerror(errno));
}

/* Connect and read the greeting: HELLO, its human line, WAIT. */
void
line_open_at(int ln, struct conn *c, int port)
{
	if (conn_open(c, port) != 0)
		fail_msg("line %d: cannot connect to port %d: %s", ln, port,
		    strerror(errno));
	line_greeted_at(ln, c);
}

/* A new connection's greeting: HELLO, its human line, WAIT. */
void
line_greeted_at(int ln, struct conn *c)
{
	line_nodelay(c);
	line_want_at(ln, 1, c, T_HELLO);
	line_want_at(ln, 1, c, T_HELLO_HUMAN);
	line_want_at(ln, 1, c, T_WAIT);
}

/* No Nagle delay: a test sends many small lines and waits for replies. */
void
line_nodelay(struct conn *c)
{
	int	on = 1;

	setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
}

/*
 * STAT <name> asked on a connection: its value (fails the test without
 * END, or without the stat).
 */
long
line_stat_at(int ln, struct conn *c, const char *name)
{
	char	line[LINE_SIZE], want[64];
	long	v = -1;
	size_t	n;

	line_send_at(ln, c, "STATS");
	line_want_at(ln, 1, c, "OK STATS");
	n = (size_t)snprintf(want, sizeof want, "STAT %s ", name);
	for (;;) {
		if (line_read(c, line, sizeof line, HARNESS_TIMEOUT_MS) < 0)
			fail_msg("line %d: no END after STATS", ln);
		if (strcmp(line, "END") == 0)
			break;
		if (strncmp(line, want, n) == 0)
			v = atol(line + n);
	}
	if (v < 0)
		fail_msg("line %d: no STAT %s", ln, name);
	return (v);
}
