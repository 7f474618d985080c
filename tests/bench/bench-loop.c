/*
 * bench-loop.c -- ttt-bench's event loop: one level-triggered epoll set,
 * nonblocking sockets, the connection ramp, the think timers, and the
 * measured window.
 *
 * First every connection is started (all at once, or --ramp a second),
 * to the next of PORT's ports, each bound to the next --src address so
 * that many connections do not run out of ephemeral ports on one address
 * pair.  Connections start talking as soon as they are up, but nothing is
 * counted as an operation until every connection is up or has failed;
 * then, after --warmup seconds, --duration seconds are measured (or fewer:
 * until --games games or --ops operations have been counted), and
 * everything is closed.
 *
 * With --ws a connection is not up until it has upgraded to a WebSocket
 * (a connect error if refused); from then on its reads go through
 * bench_ws_decode into lines and its lines through bench_ws_line into
 * frames, here at the read and write points, so that bench-play.c sees
 * the same lines either way.
 *
 * With --resume a game-mode connection that is lost (once it has been up)
 * is not a drop: bench-resume.c has it connect again, from a timer, to
 * the next port, and take its seat back.
 */
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/types.h>

#include <netinet/in.h>
#include <netinet/tcp.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

#define BENCH_EVENTS		1024	/* epoll events taken at once */
#define BENCH_START_BATCH	256	/* connections begun per round */
#define BENCH_READ_MAX		65536	/* bytes read at once */
#define BENCH_TICK_NS		100000000LL	/* connect timeouts checked */
#define BENCH_PROGRESS_NS	1000000000LL

#ifndef IP_BIND_ADDRESS_NO_PORT
#define IP_BIND_ADDRESS_NO_PORT	24
#endif

static volatile sig_atomic_t bench_loop_stopped;

static void	bench_loop_stop_cb(int);
static void	bench_loop_start(struct bench *, int, int64_t);
static void	bench_loop_connected(struct bench *, struct bconn *);
static void	bench_loop_up(struct bench *, struct bconn *);
static ssize_t	bench_loop_read(struct bench *, struct bconn *, char *, size_t);
static void	bench_loop_write(struct bench *, struct bconn *, const char *,
		    size_t);
static uint64_t	bench_loop_ws_random(struct bench *);
static void	bench_loop_ws_upgrade(struct bench *, struct bconn *);
static void	bench_loop_ws_refused(struct bench *, struct bconn *,
		    const uint8_t *, size_t);
static ssize_t	bench_loop_ws_read(struct bench *, struct bconn *, char *,
		    size_t);
static void	bench_loop_input(struct bench *, struct bconn *);
static void	bench_loop_output(struct bench *, struct bconn *);
static void	bench_loop_watch(struct bench *, struct bconn *, int);
static void	bench_loop_ramp(struct bench *, int64_t);
static void	bench_loop_expire(struct bench *, int64_t);
static void	bench_loop_reexpire(struct bench *, int64_t, int64_t *);
static void	bench_loop_timers(struct bench *, int64_t);
static int	bench_loop_wait_ms(const struct bench *, int64_t, int64_t);
static void	bench_loop_poll(struct bench *, int);
static void	bench_loop_close_all(struct bench *);
static void	bench_loop_count_loss(struct bench *, struct bconn *, int);

/* Nanoseconds on the monotonic clock. */
int64_t
bench_loop_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec);
}

/*
 * The time a request leaves, for latencies: the monotonic clock, or with
 * --kstamp the real-time clock, which the kernel's receive timestamps use.
 */
int64_t
bench_loop_stamp(const struct bench *b)
{
	struct timespec	ts;

	if (!b->opts->kstamp)
		return (bench_loop_now());
	clock_gettime(CLOCK_REALTIME, &ts);
	return ((int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec);
}

/*
 * The time the reply in hand arrived: when the kernel received it with
 * --kstamp, so that the load generator's own delays (its wake-up, the
 * other connections it serves first) are left out; else now.
 */
int64_t
bench_loop_rx(const struct bench *b)
{
	if (b->rx_ns != 0)
		return (b->rx_ns);
	return (bench_loop_stamp(b));
}

/* SIGINT or SIGTERM: end the run early, with a report. */
static void
bench_loop_stop_cb(int sig)
{
	(void)sig;
	bench_loop_stopped = 1;
}

/*
 * Called after a game or an op is counted: once --games or --ops is
 * reached, the measurement ends here, and nothing more is read, sent or
 * counted; bench_loop_run then closes everything.
 */
void
bench_loop_limit(struct bench *b)
{
	const struct bench_opts	*o = b->opts;

	if (b->finished || !b->measuring)
		return;
	if ((o->games > 0 && b->st.games >= o->games) ||
	    (o->ops > 0 && b->st.ops >= o->ops)) {
		b->finished = 1;
		b->measuring = 0;
		b->stop_ns = bench_loop_now();
	}
}

/* Begin connection idx, to the (idx mod n)th port. */
static void
bench_loop_start(struct bench *b, int idx, int64_t now)
{
	struct bconn	*c = &b->conns[idx];

	b->started++;
	c->dst = (uint8_t)(idx % b->opts->ndst);
	bench_loop_connect(b, c, now);
}

/*
 * Connect a connection to its port c->dst: a socket, its source address,
 * connect(); the first time, or again after a loss (--resume).
 */
void
bench_loop_connect(struct bench *b, struct bconn *c, int64_t now)
{
	const struct bench_opts	*o = b->opts;
	struct epoll_event	 ev;
	int			 one = 1, src, idx = (int)(c - b->conns);
	int			 dst = c->dst, n;
	char			 tag[16];

	b->nconnecting++;
	c->state = BCONN_CONNECTING;
	if (b->res != NULL) {
		n = snprintf(tag, sizeof tag, "connect #%d", dst);
		bench_resume_note(b, c, '#', tag, (size_t)n);
	}
	c->connect_by = now + (int64_t)(o->connect_timeout * 1e9);
	c->inlen = c->outlen = 0;
	c->waiting = c->thinking = 0;
	if (b->ws != NULL)
		memset(&b->ws[idx], 0, sizeof b->ws[idx]);
	c->fd = socket(o->dst[dst].ss_family,
	    SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (c->fd == -1) {
		bench_loop_lost(b, c, 1);
		return;
	}
	setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	if (o->kstamp)
		setsockopt(c->fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one);
	if (o->nsrc > 0) {
		/*
		 * The port is picked at connect(), per address pair; each
		 * destination port gets every source address in turn.
		 */
		src = idx / o->ndst % o->nsrc;
		setsockopt(c->fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one,
		    sizeof one);
		if (bind(c->fd, (const struct sockaddr *)&o->src[src],
		    o->srclen[src]) == -1) {
			bench_loop_lost(b, c, 1);
			return;
		}
	}
	memset(&ev, 0, sizeof ev);
	ev.events = EPOLLIN | EPOLLOUT;
	ev.data.u32 = (uint32_t)idx;
	c->wantout = 1;
	if (epoll_ctl(b->epfd, EPOLL_CTL_ADD, c->fd, &ev) == -1)
		bench_loop_lost(b, c, 1);
	else if (connect(c->fd, (const struct sockaddr *)&o->dst[dst],
	    o->dstlen[dst]) == -1 && errno != EINPROGRESS)
		bench_loop_lost(b, c, 1);
}

/* A connecting socket is writable: connected, or failed. */
static void
bench_loop_connected(struct bench *b, struct bconn *c)
{
	int		err = 0;
	socklen_t	len = sizeof err;

	if (getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &len) == -1)
		err = errno;
	if (err != 0) {
		errno = err;
		bench_loop_lost(b, c, 1);
		return;
	}
	if (b->ws != NULL)
		bench_loop_ws_upgrade(b, c);
	else
		bench_loop_up(b, c);
}

/* A connection is up (connected, and with --ws upgraded): it may talk. */
static void
bench_loop_up(struct bench *b, struct bconn *c)
{
	c->state = BCONN_OPEN;
	b->nconnecting--;
	b->nopen++;
	bench_loop_watch(b, c, 0);
	bench_play_open(b, c);
}

/* --ws: the next 64 random bits for keys and masks (xorshift64). */
static uint64_t
bench_loop_ws_random(struct bench *b)
{
	uint64_t	x = b->ws_rng;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	b->ws_rng = x;
	return (x);
}

/*
 * --ws, connected: ask to upgrade (GET /ws with a fresh key) and wait for
 * the answer; the request is the first thing on a new socket, so the
 * socket takes it whole.
 */
static void
bench_loop_ws_upgrade(struct bench *b, struct bconn *c)
{
	struct bws	*w = &b->ws[c - b->conns];
	uint64_t	 r[2];
	uint8_t		 raw[BENCH_WS_RAW_KEY];
	char		 key[BENCH_WS_KEY_LEN + 1], req[512];
	int		 len;
	ssize_t		 n;

	r[0] = bench_loop_ws_random(b);
	r[1] = bench_loop_ws_random(b);
	memcpy(raw, r, sizeof raw);
	bench_ws_key(raw, key);
	bench_ws_accept(key, w->accept);
	c->state = BCONN_UPGRADING;
	bench_loop_watch(b, c, 0);
	len = bench_ws_request(req, sizeof req, b->opts->host,
	    b->opts->dstport[c->dst], key);
	if (len == -1) {
		errno = ENAMETOOLONG;	/* the host name */
		bench_loop_lost(b, c, 1);
		return;
	}
	n = write(c->fd, req, (size_t)len);
	if (n != len) {
		if (n >= 0)
			errno = EAGAIN;
		bench_loop_lost(b, c, 1);
	}
}

/*
 * --ws: the server did not upgrade: a connect error (EPROTO), and the
 * first time, its first line on stderr.
 */
static void
bench_loop_ws_refused(struct bench *b, struct bconn *c, const uint8_t *ans,
    size_t len)
{
	const uint8_t	*nl;
	size_t		 i;

	if (!b->ws_refused) {
		b->ws_refused = 1;
		if ((nl = memchr(ans, '\n', len)) != NULL)
			len = (size_t)(nl - ans);
		if (len > 0 && ans[len - 1] == '\r')
			len--;
		if (len > 200)
			len = 200;
		fprintf(stderr, "ttt-bench: %s port %s did not upgrade to a WebSocket: \"",
		    b->opts->host, b->opts->dstport[c->dst]);
		for (i = 0; i < len; i++)
			fputc(ans[i] >= 0x20 && ans[i] < 0x7f ? ans[i] : '?',
			    stderr);
		fprintf(stderr, "\"\n");
	}
	errno = EPROTO;
	bench_loop_lost(b, c, 1);
}

/*
 * A connection has ended: a connect error while connecting, a drop once
 * open (when counted: the server closed it, or it broke).  errno holds
 * the reason of a connect error.  With --resume, a player that has been
 * up is neither: it is to connect again (bench-resume.c).
 */
void
bench_loop_lost(struct bench *b, struct bconn *c, int counted)
{
	int	again = b->res != NULL && bench_resume_again(b, c);
	int	was_open = c->state == BCONN_OPEN;

	bench_loop_count_loss(b, c, counted && !again);
	if (c->fd != -1)
		close(c->fd);
	c->fd = -1;
	c->state = BCONN_CLOSED;
	if (again)
		bench_resume_lost(b, c, was_open);
}

/* A connection ends: one fewer up or connecting, and counted if asked. */
static void
bench_loop_count_loss(struct bench *b, struct bconn *c, int counted)
{
	if (c->state == BCONN_CONNECTING || c->state == BCONN_UPGRADING) {
		if (counted && b->connect_errno == 0)
			b->connect_errno = errno != 0 ? errno : ETIMEDOUT;
		b->nconnecting--;
		if (counted)
			b->st.connect_errors++;
	} else if (c->state == BCONN_OPEN) {
		b->nopen--;
		if (counted)
			b->st.drops++;
	}
}

/* Turn EPOLLOUT on or off. */
static void
bench_loop_watch(struct bench *b, struct bconn *c, int out)
{
	struct epoll_event	ev;

	if (c->wantout == out)
		return;
	memset(&ev, 0, sizeof ev);
	ev.events = EPOLLIN | (out ? EPOLLOUT : 0);
	ev.data.u32 = (uint32_t)(c - b->conns);
	c->wantout = (uint8_t)out;
	epoll_ctl(b->epfd, EPOLL_CTL_MOD, c->fd, &ev);
}

/*
 * Read, with --kstamp taking the kernel's receive time of the data (of
 * its last segment, when it is several) into b->rx_ns.
 */
static ssize_t
bench_loop_read(struct bench *b, struct bconn *c, char *buf, size_t len)
{
	union {
		struct cmsghdr	hdr;
		char		buf[CMSG_SPACE(sizeof(struct timespec))];
	}			 ctl;
	struct iovec		 iov;
	struct msghdr		 msg;
	struct cmsghdr		*cm;
	struct timespec		 ts;
	ssize_t			 n;

	b->rx_ns = 0;
	if (!b->opts->kstamp)
		return (read(c->fd, buf, len));
	iov.iov_base = buf;
	iov.iov_len = len;
	memset(&msg, 0, sizeof msg);
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = ctl.buf;
	msg.msg_controllen = sizeof ctl.buf;
	if ((n = recvmsg(c->fd, &msg, 0)) <= 0)
		return (n);
	for (cm = CMSG_FIRSTHDR(&msg); cm != NULL; cm = CMSG_NXTHDR(&msg, cm)) {
		if (cm->cmsg_level == SOL_SOCKET &&
		    cm->cmsg_type == SCM_TIMESTAMPNS) {
			memcpy(&ts, CMSG_DATA(cm), sizeof ts);
			b->rx_ns = (int64_t)ts.tv_sec * 1000000000LL +
			    ts.tv_nsec;
		}
	}
	return (n);
}

/*
 * --ws: one read, while upgrading first the answer to the upgrade (kept
 * in c->in until it is whole), then frames: the lines of their text
 * messages after the partial line kept in c->in, into buf (size bytes);
 * pings are answered.  The length of the lines in buf, or -1 with nothing
 * for the line code (nothing read yet, still upgrading, or lost).  After
 * a close or a bad frame, w->ended: lost once the lines before it are
 * taken.
 */
static ssize_t
bench_loop_ws_read(struct bench *b, struct bconn *c, char *buf, size_t size)
{
	static uint8_t	 raw[BCONN_IN_MAX + BENCH_READ_MAX];
	struct bws	*w = &b->ws[c - b->conns];
	const uint8_t	*p = raw;
	uint8_t		 frame[BENCH_WS_HDR_MAX + BENCH_WS_CTL_MAX];
	uint64_t	 r;
	char		*out;
	size_t		 have = 0, len, left;
	long		 head;
	ssize_t		 n;

	if (c->state == BCONN_UPGRADING) {
		memcpy(raw, c->in, c->inlen);	/* the answer so far */
		have = c->inlen;
	}
	n = bench_loop_read(b, c, (char *)raw + have, BENCH_READ_MAX);
	if (n == -1 && (errno == EAGAIN || errno == EINTR))
		return (-1);
	if (n <= 0) {
		if (n == 0)
			errno = ECONNRESET;
		bench_loop_lost(b, c, 1);
		return (-1);
	}
	len = have + (size_t)n;
	if (c->state == BCONN_UPGRADING) {
		head = bench_ws_response((const char *)raw, len, w->accept);
		if (head == 0 && len <= BCONN_IN_MAX) {
			memcpy(c->in, raw, len);
			c->inlen = (uint16_t)len;
			return (-1);
		}
		if (head <= 0) {
			bench_loop_ws_refused(b, c, raw, len);
			return (-1);
		}
		c->inlen = 0;
		bench_loop_up(b, c);
		if (c->state != BCONN_OPEN)
			return (-1);
		p += head;
		len -= (size_t)head;
	}
	memcpy(buf, c->in, c->inlen);
	out = buf + c->inlen;
	left = size - c->inlen;
	for (;;) {
		switch (bench_ws_decode(&w->rx, &p, &len, &out, &left)) {
		case BENCH_WS_MORE:
			return (out - buf);
		case BENCH_WS_PING:
			r = bench_loop_ws_random(b);
			bench_loop_write(b, c, (const char *)frame,
			    bench_ws_frame(frame, sizeof frame, BENCH_WS_OP_PONG,
			    w->rx.ctl, w->rx.ctllen, (const uint8_t *)&r));
			if (c->state != BCONN_OPEN)
				return (-1);
			break;
		case BENCH_WS_BAD:
			b->st.bad++;
			w->ended = 1;
			return (out - buf);
		case BENCH_WS_CLOSE:
			w->ended = 1;
			return (out - buf);
		}
	}
}

/*
 * Readable: one read, then every complete line to bench-play.c; a partial
 * line is kept for the next read.  EOF or an error is a drop; over a
 * WebSocket, so are a close and a bad frame.
 */
static void
bench_loop_input(struct bench *b, struct bconn *c)
{
	static char	 buf[BCONN_IN_MAX + BENCH_READ_MAX + 2];
	char		*p, *lf;
	size_t		 end, len;
	ssize_t		 n;

	if (b->ws != NULL) {
		if ((n = bench_loop_ws_read(b, c, buf, sizeof buf)) == -1)
			return;
		end = (size_t)n;
	} else {
		memcpy(buf, c->in, c->inlen);
		n = bench_loop_read(b, c, buf + c->inlen, BENCH_READ_MAX);
		if (n == -1 && (errno == EAGAIN || errno == EINTR))
			return;
		if (n <= 0) {
			bench_loop_lost(b, c, 1);
			return;
		}
		end = c->inlen + (size_t)n;
	}
	p = buf;
	while ((lf = memchr(p, '\n', end - (size_t)(p - buf))) != NULL) {
		len = (size_t)(lf - p);
		if (len > 0 && p[len - 1] == '\r')
			len--;
		bench_play_line(b, c, p, len);
		if (c->state != BCONN_OPEN || b->finished)
			return;
		p = lf + 1;
	}
	len = end - (size_t)(p - buf);
	if (len > BCONN_IN_MAX) {
		b->st.bad++;	/* no server line is that long */
		bench_loop_lost(b, c, 1);
		return;
	}
	memmove(c->in, p, len);
	c->inlen = (uint16_t)len;
	b->rx_ns = 0;
	if (b->ws != NULL && b->ws[c - b->conns].ended)
		bench_loop_lost(b, c, 1);	/* the server's close */
}

/*
 * Send a line now, or keep what the socket does not take for EPOLLOUT;
 * with --ws, as one masked text frame.
 */
void
bench_loop_send(struct bench *b, struct bconn *c, const char *s, size_t len)
{
	uint8_t		frame[BCONN_OUT_MAX];
	uint64_t	r;

	if (b->res != NULL)
		bench_resume_note(b, c, '>', s, len);
	if (b->ws != NULL) {
		r = bench_loop_ws_random(b);
		len = bench_ws_line(frame, sizeof frame, s, len,
		    (const uint8_t *)&r);
		s = (const char *)frame;
	}
	bench_loop_write(b, c, s, len);
}

/* Send bytes now, or keep what the socket does not take for EPOLLOUT. */
static void
bench_loop_write(struct bench *b, struct bconn *c, const char *s, size_t len)
{
	ssize_t	n = 0;

	if (c->state != BCONN_OPEN || b->finished)
		return;
	if (c->outlen == 0) {
		n = write(c->fd, s, len);
		if (n == -1 && errno != EAGAIN && errno != EINTR) {
			bench_loop_lost(b, c, 1);
			return;
		}
		if (n == -1)
			n = 0;
	}
	len -= (size_t)n;
	if (len == 0)
		return;
	if (c->outlen + len > BCONN_OUT_MAX) {
		bench_loop_lost(b, c, 1);	/* the server stopped reading */
		return;
	}
	memcpy(c->out + c->outlen, s + n, len);
	c->outlen += (uint16_t)len;
	bench_loop_watch(b, c, 1);
}

/* Writable again: send what was kept. */
static void
bench_loop_output(struct bench *b, struct bconn *c)
{
	ssize_t	n;

	if (c->outlen == 0) {
		bench_loop_watch(b, c, 0);
		return;
	}
	n = write(c->fd, c->out, c->outlen);
	if (n == -1 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n == -1) {
		bench_loop_lost(b, c, 1);
		return;
	}
	memmove(c->out, c->out + n, c->outlen - (size_t)n);
	c->outlen -= (uint16_t)n;
	if (c->outlen == 0)
		bench_loop_watch(b, c, 0);
}

/* Call bench_play_due for a connection after a delay. */
void
bench_loop_after(struct bench *b, struct bconn *c, int64_t ns)
{
	/* One per connection at most: it cannot be full. */
	(void)bench_due_push(&b->dueq, (int)(c - b->conns),
	    bench_loop_now() + ns);
}

/* Run the moves that are due, and with --resume the connects again. */
static void
bench_loop_timers(struct bench *b, int64_t now)
{
	struct bconn	*c;
	int		 idx;

	while (!b->finished && (idx = bench_due_pop(&b->dueq, now)) != -1) {
		c = &b->conns[idx];
		if (c->state == BCONN_RETRY)
			bench_resume_retry(b, c);
		else
			bench_play_due(b, c);
	}
}

/* Start the connections the ramp allows by now. */
static void
bench_loop_ramp(struct bench *b, int64_t now)
{
	int64_t	allowed = b->opts->conns;
	int	batch = 0;

	if (b->opts->ramp > 0) {
		allowed = (int64_t)((double)(now - b->t0_ns) / 1e9 *
		    b->opts->ramp) + 1;
		if (allowed > b->opts->conns)
			allowed = b->opts->conns;
	}
	while (b->started < allowed && batch++ < BENCH_START_BATCH)
		bench_loop_start(b, b->started, now);
}

/* Give up on connections still connecting past their time. */
static void
bench_loop_expire(struct bench *b, int64_t now)
{
	struct bconn	*c;
	int		 i;

	for (i = 0; i < b->started && b->nconnecting > 0; i++) {
		c = &b->conns[i];
		if ((c->state == BCONN_CONNECTING ||
		    c->state == BCONN_UPGRADING) && now >= c->connect_by) {
			errno = ETIMEDOUT;
			bench_loop_lost(b, c, 1);
		}
	}
}

/*
 * After the ramp, only --resume's connects again can still be connecting:
 * give up on those past their time, every tick (*tick: the next check).
 */
static void
bench_loop_reexpire(struct bench *b, int64_t now, int64_t *tick)
{
	if (b->nconnecting == 0 || now < *tick)
		return;
	bench_loop_expire(b, now);
	*tick = now + BENCH_TICK_NS;
}

/*
 * How long epoll may wait: until the next due move or until, in ms; never
 * with --busy-poll.
 */
static int
bench_loop_wait_ms(const struct bench *b, int64_t now, int64_t until)
{
	if (b->opts->busy_poll)
		return (0);
	if (bench_due_next(&b->dueq) < until)
		until = bench_due_next(&b->dueq);
	if (until <= now)
		return (0);
	return ((int)((until - now + 999999) / 1000000));
}

/* Wait for events and hand them out. */
static void
bench_loop_poll(struct bench *b, int ms)
{
	struct epoll_event	 evs[BENCH_EVENTS];
	struct bconn		*c;
	int			 n, i;

	n = epoll_wait(b->epfd, evs, BENCH_EVENTS, ms);
	for (i = 0; i < n && !b->finished; i++) {
		c = &b->conns[evs[i].data.u32];
		if (c->state == BCONN_CONNECTING) {
			bench_loop_connected(b, c);
			continue;
		}
		if (c->state == BCONN_UPGRADING) {
			if (evs[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR))
				bench_loop_input(b, c);
			continue;
		}
		if (c->state == BCONN_OPEN &&
		    (evs[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR)))
			bench_loop_input(b, c);
		if (c->state == BCONN_OPEN && (evs[i].events & EPOLLOUT))
			bench_loop_output(b, c);
	}
}

/* The end: close every connection, counting those still held. */
static void
bench_loop_close_all(struct bench *b)
{
	int	i;

	b->st.held = (uint64_t)b->nopen;
	for (i = 0; i < b->started; i++) {
		if (b->conns[i].fd != -1)
			close(b->conns[i].fd);
		b->conns[i].fd = -1;
		b->conns[i].state = BCONN_CLOSED;
	}
	b->nopen = b->nconnecting = 0;
}

/*
 * The whole run: the ramp until every connection is up or failed, the
 * warm-up, then the measured window; bounded by the ramp, the connect
 * timeout, --warmup and --duration, ended by --games or --ops when
 * reached, or cut short by SIGINT/SIGTERM.  0, or -1 with errno.
 */
int
bench_loop_run(struct bench *b)
{
	struct sigaction	sa;
	int64_t			now, tick, xtick, next, prog, until;
	int			i;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = bench_loop_stop_cb;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	if ((b->epfd = epoll_create1(EPOLL_CLOEXEC)) == -1)
		return (-1);
	for (i = 0; i < b->opts->conns; i++)
		b->conns[i].fd = -1;

	now = tick = b->t0_ns = bench_loop_now();
	prog = now + BENCH_PROGRESS_NS;
	while (!bench_loop_stopped &&
	    (b->started < b->opts->conns || b->nconnecting > 0)) {
		bench_loop_ramp(b, now);
		if (now >= tick) {
			bench_loop_expire(b, now);
			tick = now + BENCH_TICK_NS;
		}
		if (now >= prog) {
			if (b->opts->progress)
				bench_report_progress(b, now);
			prog += BENCH_PROGRESS_NS;
		}
		bench_loop_timers(b, now);
		next = tick;
		if (b->started < b->opts->conns && b->opts->ramp == 0)
			next = now;
		else if (b->started < b->opts->conns)
			next = b->t0_ns + (int64_t)((double)b->started /
			    b->opts->ramp * 1e9);
		bench_loop_poll(b, bench_loop_wait_ms(b, now,
		    next < tick ? next : tick));
		now = bench_loop_now();
	}

	/* --warmup: on as before, not measured yet. */
	until = now + (int64_t)(b->opts->warmup * 1e9);
	while (!bench_loop_stopped && now < until) {
		bench_loop_reexpire(b, now, &tick);
		bench_loop_timers(b, now);
		bench_loop_poll(b, bench_loop_wait_ms(b, now,
		    prog < until ? prog : until));
		now = bench_loop_now();
		if (now >= prog) {
			if (b->opts->progress)
				bench_report_progress(b, now);
			prog += BENCH_PROGRESS_NS;
		}
	}

	b->measuring = 1;
	b->start_ns = now;
	b->stop_ns = now + (int64_t)(b->opts->duration * 1e9);
	xtick = tick;
	tick = now + BENCH_PROGRESS_NS;
	while (!bench_loop_stopped && !b->finished && now < b->stop_ns) {
		bench_loop_reexpire(b, now, &xtick);
		bench_loop_timers(b, now);
		bench_loop_poll(b, bench_loop_wait_ms(b, now,
		    tick < b->stop_ns ? tick : b->stop_ns));
		now = bench_loop_now();
		if (now >= tick) {
			if (b->opts->progress)
				bench_report_progress(b, now);
			tick += BENCH_PROGRESS_NS;
		}
	}
	if (!b->finished) {	/* else stop_ns is when the limit was reached */
		b->measuring = 0;
		b->stop_ns = now;
	}
	bench_loop_close_all(b);
	close(b->epfd);
	return (0);
}
