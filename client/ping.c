/*
 * ping.c -- ttt-client --ping: is a tttd server there and answering?  Meant
 * for health checks (a Docker HEALTHCHECK): connect, wait for HELLO, send
 * PING, expect OK PONG and leave with QUIT, all within PING_TIMEOUT_MS.
 * --healthz asks tttd's HTTP port instead: GET /healthz, expect 200.
 * Silent when the server answers; otherwise one line on stderr says why.
 */
#include <sys/socket.h>
#include <sys/types.h>

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "client.h"
#include "net.h"
#include "proto.h"

#define PING_TIMEOUT_MS	5000	/* the whole of --ping */
#define PING_BUF	4096	/* server bytes waiting for a newline */
#define PING_QUOTE	64	/* how much of an odd line is quoted */

struct ping {
	int		 fd;
	struct tls	*tls;		/* --tls: its session, or NULL */
	long		 deadline;
	size_t		 len;		/* bytes in buf */
	size_t		 used;		/* the last line's bytes */
	size_t		 linelen;	/* that line without CR LF */
	char		 buf[PING_BUF];
	char		 why[256];
};

static int	ping_line(struct ping *, const char **, size_t *);
static int	ping_event(struct ping *, struct proto_event *);
static void	ping_odd(struct ping *, const char *, const char *, size_t);
static int	ping_talk(struct ping *, const char *);
static int	ping_http(struct ping *, const char *);

/*
 * Take the next line from the server, waiting until the deadline: 0 with
 * the line (without CR LF), or -1 with the reason in p->why.
 */
static int
ping_line(struct ping *p, const char **line, size_t *len)
{
	struct pollfd	 pfd;
	char		*lf;
	long		 left;
	ssize_t		 r;

	p->len -= p->used;
	memmove(p->buf, p->buf + p->used, p->len);
	p->used = 0;
	while ((lf = memchr(p->buf, '\n', p->len)) == NULL) {
		if (p->len == sizeof p->buf) {
			snprintf(p->why, sizeof p->why, "the server sent an overlong line");
			return (-1);
		}
		if ((left = p->deadline - net_now_ms()) <= 0) {
			snprintf(p->why, sizeof p->why, "no answer within %d seconds",
			    PING_TIMEOUT_MS / 1000);
			return (-1);
		}
		pfd.fd = p->fd;
		pfd.events = net_events(p->tls);
		if (!net_pending(p->tls) && poll(&pfd, 1, (int)left) == -1 &&
		    errno != EINTR) {
			snprintf(p->why, sizeof p->why, "%s", strerror(errno));
			return (-1);
		}
		r = net_recv(p->fd, p->tls, p->buf + p->len,
		    sizeof p->buf - p->len);
		if (r > 0)
			p->len += (size_t)r;
		else if (r == 0 || (errno != EAGAIN && errno != EWOULDBLOCK &&
		    errno != EINTR)) {
			snprintf(p->why, sizeof p->why, "the server closed the connection without answering");
			return (-1);
		}
	}
	p->used = (size_t)(lf - p->buf) + 1;
	*line = p->buf;
	*len = p->used - 1;
	if (*len > 0 && p->buf[*len - 1] == '\r')
		(*len)--;
	p->linelen = *len;
	return (0);
}

/* Take the next line that is not for people: 0, or -1 with the reason. */
static int
ping_event(struct ping *p, struct proto_event *ev)
{
	const char	*line;
	size_t		 len;

	do {
		if (ping_line(p, &line, &len) == -1)
			return (-1);
		if (proto_event_parse(line, len, ev) != 0)
			ev->kind = PROTO_EV_UNKNOWN;
	} while (ev->kind == PROTO_EV_HUMAN);
	return (0);
}

/* Say why a line ends the check: what, then the line, made printable. */
static void
ping_odd(struct ping *p, const char *what, const char *text, size_t len)
{
	char	quote[PING_QUOTE + 1];
	size_t	i;

	if (len > PING_QUOTE)
		len = PING_QUOTE;
	for (i = 0; i < len; i++) {
		unsigned char	c = (unsigned char)text[i];

		quote[i] = (c < 0x20 || c >= 0x7f) ? '?' : (char)c;
	}
	quote[len] = '\0';
	snprintf(p->why, sizeof p->why, "%s: %s", what, quote);
}

/*
 * The conversation: HELLO, PING, OK PONG, QUIT.  Lines between PING and its
 * answer (WAIT, a MATCH, ...) are passed over; an ERR or BYE ends the check.
 * 0, or -1 with the reason in p->why.
 */
static int
ping_talk(struct ping *p, const char *host)
{
	struct proto_event	ev;

	(void)host;
	if (ping_event(p, &ev) == -1)
		return (-1);
	if (ev.kind == PROTO_EV_ERR || ev.kind == PROTO_EV_BYE) {
		ping_odd(p, "the server said", ev.text, ev.textlen);
		return (-1);
	}
	if (ev.kind != PROTO_EV_HELLO) {
		ping_odd(p, "not a tttd server; it said", p->buf, p->linelen);
		return (-1);
	}
	if (ev.version != PROTO_VERSION) {
		snprintf(p->why, sizeof p->why, "the server speaks protocol tttd/%d; this client speaks tttd/%d",
		    ev.version,
		    PROTO_VERSION);
		return (-1);
	}
	if (net_send(p->fd, p->tls, "PING\n", 5, PING_TIMEOUT_MS) == -1) {
		snprintf(p->why, sizeof p->why, "the server closed the connection without answering");
		return (-1);
	}
	for (;;) {
		if (ping_event(p, &ev) == -1)
			return (-1);
		if (ev.kind == PROTO_EV_OK && ev.verb == PROTO_PING)
			break;
		if (ev.kind == PROTO_EV_ERR || ev.kind == PROTO_EV_BYE) {
			ping_odd(p, "the server said", ev.text, ev.textlen);
			return (-1);
		}
	}
	/* Leave politely, and wait for BYE so the server sees a quit. */
	if (net_send(p->fd, p->tls, "QUIT\n", 5, PING_TIMEOUT_MS) == 0) {
		while (ping_event(p, &ev) == 0 && ev.kind != PROTO_EV_BYE)
			continue;
	}
	return (0);
}

/*
 * Connect to the options' host and port (with --tls, inside TLS) and hold
 * the conversation talk, all within PING_TIMEOUT_MS.  Returns the exit
 * status: 0 if it went well, 1 with a one-line reason on stderr if not.
 */
static int
ping_check(const struct client_opts *opts, int (*talk)(struct ping *,
    const char *))
{
	static struct ping	p;
	int			rc;

	memset(&p, 0, sizeof p);
	p.deadline = net_now_ms() + PING_TIMEOUT_MS;
	p.fd = net_connect(opts, PING_TIMEOUT_MS, &p.tls, p.why, sizeof p.why);
	if (p.fd == -1) {
		fprintf(stderr, "ttt-client: %s\n", p.why);
		return (1);
	}
	rc = talk(&p, opts->host);
	net_close(p.fd, p.tls);
	if (rc == -1) {
		fprintf(stderr, "ttt-client: %s:%s: %s\n", opts->host,
		    opts->port, p.why);
		return (1);
	}
	return (0);
}

/* --ping: the server of the options answers PING within PING_TIMEOUT_MS. */
int
ping_run(const struct client_opts *opts)
{
	return (ping_check(opts, ping_talk));
}

/*
 * GET /healthz, and a 200 for it: 0, or -1 with the reason in p->why.
 * (tttd's HTTP port answers it without joining the queue.)
 */
static int
ping_http(struct ping *p, const char *host)
{
	char		 req[512];
	const char	*line;
	size_t		 len;
	int		 n;

	n = snprintf(req, sizeof req, "GET /healthz HTTP/1.1\r\nHost: %s\r\n"
	    "Connection: close\r\n\r\n", host);
	if (n < 0 || (size_t)n >= sizeof req) {
		snprintf(p->why, sizeof p->why, "host name too long");
		return (-1);
	}
	if (net_send(p->fd, p->tls, req, (size_t)n, PING_TIMEOUT_MS) == -1) {
		snprintf(p->why, sizeof p->why, "the server closed the connection without answering");
		return (-1);
	}
	if (ping_line(p, &line, &len) == -1)
		return (-1);
	if (len >= 12 && memcmp(line, "HTTP/1.", 7) == 0 &&
	    memcmp(line + 8, " 200", 4) == 0)
		return (0);
	ping_odd(p, "the server answered", line, len);
	return (-1);
}

/* --healthz: tttd's HTTP port of the options answers GET /healthz, 200. */
int
ping_healthz(const struct client_opts *opts)
{
	return (ping_check(opts, ping_http));
}
