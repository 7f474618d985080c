/*
 * conn.c -- a connection's input, free of sockets.
 *
 * Fairness: one call handles at most CONN_LINES_PER_CALL lines, so that a
 * client that pipelines a burst cannot hold the event loop; the caller
 * comes back for the rest once the others have had their turn.
 *
 * Slowloris: a line that was begun must end within the line limit,
 * counted from its first byte by a deadline of our own (a read timeout
 * would restart with every byte, and a drip of one byte a second would
 * hold the connection forever).
 *
 * A line over the limit (a paste gone wrong) is thrown away as its bytes
 * come, never held: only their count is kept, up to its LF, which gets it
 * one LINE_TOO_LONG and reading goes on.  A line whose LF has not come
 * within CONN_FLOOD_MAX bytes is no line but a flood: the connection is
 * closed.  Its deadline still runs: it is a line begun.
 */
#include <string.h>

#include <event2/buffer.h>

#include "conn.h"
#include "lobby.h"
#include "session.h"

static size_t	conn_skip(struct client *, const char *, size_t);

/*
 * Start or end the partial-line deadline after the input was framed:
 * pending is what is held of a line (or a WebSocket message) begun.
 */
void
conn_partial(struct client *c, size_t pending)
{
	struct lobby	*lobby = c->lobby;

	if (pending == 0 || lobby->limits.line_ms <= 0) {
		if (c->line_deadline != 0) {
			c->line_deadline = 0;
			client_rearm(c);
		}
		return;
	}
	if (c->line_deadline == 0) {
		c->line_deadline = lobby->ops->now() + lobby->limits.line_ms;
		client_rearm(c);
	}
}

/*
 * Throw away the bytes of an over-long line up to its LF, and count them.
 * Returns how many were used: all of them while the LF has not come, else
 * up to and with the LF, once the line has had its answer.  A line whose
 * LF is not within its first CONN_FLOOD_MAX bytes closes the connection
 * (and everything is used), wherever the reads happen to split it.
 */
static size_t
conn_skip(struct client *c, const char *buf, size_t size)
{
	const char	*lf = memchr(buf, '\n', size);
	size_t		 n = lf != NULL ? (size_t)(lf - buf) : size;

	if (n >= CONN_FLOOD_MAX - c->line_skipped) {
		c->line_skipped = 0;
		session_line_flood(c, CONN_FLOOD_MAX);
		return (size);
	}
	if (lf == NULL) {
		c->line_skipped += (uint32_t)n;
		return (size);
	}
	c->line_skipped = 0;
	c->line_deadline = 0;
	session_too_long(c);
	return (n + 1);
}

/*
 * Hand the complete lines in the buffer (at most one legal line and its CR
 * LF, as the daemon reads) to the session.  Returns 1 when it stopped at
 * the per-call bound with more to do (call again later), else 0.  The
 * bytes are copied out once, so that a line stays valid while the session
 * runs, whatever happens to the buffer meanwhile.
 */
int
conn_input(struct client *c, struct evbuffer *in)
{
	char		buf[PROTO_SCAN_MAX];
	ev_ssize_t	n = evbuffer_copyout(in, buf, sizeof buf);
	int		more;

	evbuffer_drain(in, conn_input_bytes(c, buf, n > 0 ? (size_t)n : 0,
	    &more));
	return (more);
}

/*
 * Hand the complete lines in these bytes to the session.  Returns how many
 * were used: the caller keeps the rest as pending input (a partial line,
 * or lines past the per-call bound, when *more is set: call conn_input
 * later).  A closing connection uses them all: its input is dropped.
 */
size_t
conn_input_bytes(struct client *c, const char *buf, size_t size, int *more)
{
	size_t	off = 0, len;
	int	n;

	*more = 0;
	for (n = 0; !(c->flags & (CLIENT_CLOSING | CLIENT_HOLDS)); n++) {
		if (n == CONN_LINES_PER_CALL) {
			*more = off < size;
			return (off);
		}
		if (c->line_skipped == 0) {
			switch (proto_scan(buf + off, size - off, &len)) {
			case PROTO_SCAN_MORE:
				conn_partial(c, size - off);
				return (off);
			case PROTO_SCAN_LINE:
				c->line_deadline = 0;
				session_line(c, buf + off, len);
				off += len + 1;
				continue;
			case PROTO_SCAN_TOO_LONG:
				/* 257 bytes at least: skip, unless HTTP. */
				if (session_long_start(c, buf + off,
				    size - off))
					return (size);
				break;
			}
		}
		off += conn_skip(c, buf + off, size - off);
		if (off == size) {
			conn_partial(c, c->line_skipped);
			return (size);
		}
	}
	/* Closing: the rest is nobody's.  Held: the rest waits its turn. */
	return ((c->flags & CLIENT_CLOSING) ? size : off);
}

/*
 * The user interrupted (telnet's IAC IP, Ctrl-C): the line being typed and
 * any input not yet handled are dropped, and the client quits as if it had
 * typed QUIT.
 */
void
conn_interrupt(struct client *c, struct evbuffer *in)
{
	evbuffer_drain(in, evbuffer_get_length(in));
	c->line_skipped = 0;
	c->line_deadline = 0;
	if (!(c->flags & CLIENT_CLOSING))
		session_line(c, "QUIT", 4);
}

/* A deadline may have passed: a line left unfinished, or a clock. */
void
conn_timer(struct client *c)
{
	int64_t	now = c->lobby->ops->now();

	if (c->flags & CLIENT_CLOSING)
		return;
	if (c->line_deadline != 0 && now >= c->line_deadline) {
		c->line_deadline = 0;
		session_line_timeout(c);
		return;
	}
	session_clock(c, now);
}
