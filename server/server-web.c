/*
 * server-web.c -- a connection of --http-port: one request is read
 * (http.c), answered and the connection closed; or, for GET /ws, the same
 * connection goes on as a WebSocket (ws.c), a player like any other but
 * for its client_ops (server_web_ws_ops): each line it is sent is one
 * text message, each text message it sends is one line for the session.
 * It holds a player slot from its accept (an HTTP request too, while it
 * is open), and has the same output buffer, cap, timer and lingering
 * close as a TCP player (server-client.c).
 */
#include <sys/types.h>

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/event.h>

#include "api.h"
#include "conn.h"
#include "http.h"
#include "log.h"
#include "server.h"
#include "session.h"
#include "ws.h"

static void	server_web_open(struct server_client *, enum proto_error);
static void	server_web_http_read(struct server_client *);
static void	server_web_http_wait(struct server_client *);
static void	server_web_http_due(struct server_client *);
static void	server_web_discard(struct server_client *);
static void	server_web_http_end(struct server_client *, int);
static void	server_web_http_reply(struct server_client *, size_t);
static void	server_web_ws_open(struct server_client *, const char *,
		    size_t);
static void	server_web_ws_read(struct server_client *);
static void	server_web_ws_feed(struct server_client *, const char *,
		    size_t);
static void	server_web_ws_send(struct client *, const char *, size_t);
static void	server_web_ws_close(struct client *);
static void	server_web_ws_message(void *, const char *, size_t);
static int	server_web_ws_control(void *);

/* An HTTP connection: its request read, answered, or upgraded. */
const struct server_client_io server_web_io = {
	server_web_open,
	server_web_http_read,
	server_web_http_due,
	server_web_discard,
	"HTTP/1.1 503 Service Unavailable\r\n"	/* refused at once */
	"Content-Length: 0\r\n"
	"Connection: close\r\n\r\n"
};
/* After GET /ws: a player's clocks, but its input in frames. */
static const struct server_client_io server_web_ws_io = {
	NULL,
	server_web_ws_read,
	server_client_due,
	server_web_discard,
	NULL
};
/* How the world reaches a WebSocket player: a TCP one's but send, close. */
static const struct client_ops server_web_ws_ops = {
	server_web_ws_send,
	server_web_ws_close,
	server_client_rearm,
	NULL,
	server_client_hold
};

/*
 * An HTTP connection is open: its request is read within --line-timeout,
 * from the start; with no line limit, within its default all the same (it
 * holds a player slot, and no clock of the game ever runs for it).
 * Refused (over --max-clients or --max-per-addr): 503, then closed.
 */
static void
server_web_open(struct server_client *sc, enum proto_error why)
{
	struct server	*s = sc->server;

	if ((sc->http = http_req_new()) == NULL) {
		log_error("out of memory: refusing a connection");
		server_client_shut(sc);
		return;
	}
	if (why != PROTO_OK) {
		log_warn("client %llu: refused http from %s: %s",
		    (unsigned long long)sc->c.id, sc->c.addr,
		    why == PROTO_ESERVER_FULL ? "server full" :
		    "too many connections from its address");
		s->lobby.stats.errors++;
		server_web_http_end(sc, 503);
		return;
	}
	log_debug("client %llu: http from %s",
	    (unsigned long long)sc->c.id, sc->c.addr);
	server_client_aim(s, sc->timer, s->lobby.ops->now() +
	    (s->lobby.limits.line_ms > 0 ? s->lobby.limits.line_ms :
	    LOBBY_LINE_MS));
}

/* The request is not whole in time: 408, and closed. */
static void
server_web_http_due(struct server_client *sc)
{
	log_info("client %llu: %s sent no whole HTTP request in time, "
	    "closing", (unsigned long long)sc->c.id, sc->c.addr);
	server_web_http_end(sc, 408);
}

/* Free the request being read (its API read cancelled), or the WebSocket. */
static void
server_web_discard(struct server_client *sc)
{
	api_forget(sc);
	http_req_free(sc->http);
	ws_free(sc->ws);
}

/*
 * An HTTP request's bytes: read what is there (never more than
 * SERVER_HTTP_READ at once) and parse it; a whole request is answered,
 * a bad one refused.  A peer that goes before its request is whole is
 * simply freed.
 */
static void
server_web_http_read(struct server_client *sc)
{
	struct server	*s = sc->server;
	char		 buf[SERVER_HTTP_READ];
	ssize_t		 n;
	size_t		 used, before;
	enum http_next	 next;

	if (sc->api != NULL) {
		server_web_http_wait(sc);
		return;
	}
	n = read(event_get_fd(sc->rev), buf, sizeof buf);
	if (n == -1 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		server_client_free(sc);
		return;
	}
	s->lobby.stats.bytes_in += (uint64_t)n;
	switch (http_req_feed(sc->http, buf, (size_t)n, &used)) {
	case HTTP_MORE:
		return;
	case HTTP_BAD:
		server_web_http_end(sc, 400);
		return;
	case HTTP_TOO_BIG:
		server_web_http_end(sc, 431);
		return;
	case HTTP_DONE:
		break;
	}
	before = evbuffer_get_length(sc->out);
	if ((next = http_respond(sc->http, &s->lobby, sc->out)) ==
	    HTTP_UPGRADE) {
		log_debug("client %llu: GET /ws: a WebSocket",
		    (unsigned long long)sc->c.id);
		server_web_http_reply(sc, before);
		server_web_ws_open(sc, buf + used, (size_t)n - used);
		return;
	}
	log_info("client %llu: %s GET %s", (unsigned long long)sc->c.id,
	    sc->c.addr, http_req_path(sc->http));
	if (next == HTTP_API && api_ask(sc))
		return;		/* answered when the store answers */
	sc->c.flags |= CLIENT_CLOSING;
	server_web_http_reply(sc, before);
	server_client_shut(sc);
}

/*
 * Bytes after a JSON API request, while its answer is awaited: dropped
 * (one request per connection).  The peer's end of writing leaves the
 * answer to come (reading stops); a reset frees the connection, its
 * read cancelled (api_forget).
 */
static void
server_web_http_wait(struct server_client *sc)
{
	char	buf[SERVER_HTTP_READ];
	ssize_t	n;

	n = read(event_get_fd(sc->rev), buf, sizeof buf);
	if (n == -1 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n == 0)
		event_del(sc->rev);
	else if (n == -1)
		server_client_free(sc);
}

/* A response is in the output (from before on): count it, write it. */
static void
server_web_http_reply(struct server_client *sc, size_t before)
{
	sc->server->lobby.stats.bytes_out +=
	    evbuffer_get_length(sc->out) - before;
	server_client_out(sc, NULL, 0);		/* on the dirty list */
}

/* End an HTTP connection with an error status (400, 408, 431, 503). */
static void
server_web_http_end(struct server_client *sc, int status)
{
	size_t	before = evbuffer_get_length(sc->out);

	if (status != 503)
		log_info("client %llu: %s: HTTP %d, closing",
		    (unsigned long long)sc->c.id, sc->c.addr, status);
	sc->c.flags |= CLIENT_CLOSING;
	http_status(sc->out, status);
	server_web_http_reply(sc, before);
	server_client_shut(sc);
}

/*
 * The handshake is answered: the connection is a WebSocket player from
 * now on, greeted and queued like any other; bytes that came after the
 * request are its first frames.
 */
static void
server_web_ws_open(struct server_client *sc, const char *rest, size_t len)
{
	http_req_free(sc->http);
	sc->http = NULL;
	evtimer_del(sc->timer);
	if ((sc->ws = ws_new(server_client_out_cb, server_web_ws_message,
	    server_web_ws_control, sc)) == NULL) {
		log_warn("client %llu: out of memory for a WebSocket, closing",
		    (unsigned long long)sc->c.id);
		server_client_shut(sc);
		return;
	}
	sc->c.ops = &server_web_ws_ops;
	sc->io = &server_web_ws_io;
	session_open(&sc->server->lobby, &sc->c);
	if (len > 0)
		server_web_ws_feed(sc, rest, len);
}

/* A WebSocket is readable: one read(2), its frames to ws.c. */
static void
server_web_ws_read(struct server_client *sc)
{
	char	buf[SERVER_HTTP_READ];
	ssize_t	n;

	if (sc->c.flags & CLIENT_HOLDS) {
		event_del(sc->rev);	/* the rest waits in the kernel */
		return;
	}
	if (evbuffer_get_length(sc->in) > 0) {
		/* Messages kept while held, one line each: first. */
		if (conn_input(&sc->c, sc->in) ||
		    (sc->c.flags & CLIENT_HOLDS) ||
		    evbuffer_get_length(sc->in) > 0) {
			if (!(sc->c.flags & (CLIENT_HOLDS | CLIENT_CLOSING)))
				event_active(sc->rev, EV_READ, 0);
			return;
		}
	}
	n = read(event_get_fd(sc->rev), buf, sizeof buf);
	if (n == -1 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n == -1) {
		server_client_free(sc);		/* reset */
		return;
	}
	if (n == 0) {
		/* As server_client_eof: leave now, deliver what is queued. */
		session_lost(&sc->c);
		server_client_shut(sc);
		return;
	}
	sc->server->lobby.stats.bytes_in += (uint64_t)n;
	server_web_ws_feed(sc, buf, (size_t)n);
}

/*
 * Frames read: their messages are lines for the session (ws.c calls
 * server_web_ws_message).  When the WebSocket is over (the peer's
 * close, or a bad frame, answered with its close code), the player has
 * left as if its connection were closed.
 */
static void
server_web_ws_feed(struct server_client *sc, const char *buf, size_t len)
{
	unsigned long	before = ws_messages(sc->ws);

	if (ws_recv(sc->ws, buf, len) == 0 || (sc->c.flags & CLIENT_CLOSING)) {
		/*
		 * A message begun and not whole (a frame cut short, a first
		 * fragment) is a line begun: --line-timeout runs from its
		 * first byte, as on TCP.  Only a text message come whole
		 * ends it (what follows it begins another); a control frame
		 * between two fragments does not.
		 */
		if (!(sc->c.flags & CLIENT_CLOSING)) {
			if (ws_messages(sc->ws) != before)
				conn_partial(&sc->c, 0);
			conn_partial(&sc->c, (size_t)ws_pending(sc->ws));
		}
		return;
	}
	log_info("client %llu: WebSocket from %s closed (code %d)",
	    (unsigned long long)sc->c.id, sc->c.addr, ws_close_code(sc->ws));
	session_lost(&sc->c);
	server_client_shut(sc);
}

/*
 * A text message: one line, as on TCP.  Over the line limit it is never
 * executed: LINE_TOO_LONG, and the game goes on (a message over
 * WS_MESSAGE_MAX never comes this far: wslay closes with 1009).
 */
static void
server_web_ws_message(void *arg, const char *line, size_t len)
{
	struct server_client	*sc = arg;

	if (sc->c.flags & CLIENT_HOLDS) {
		/*
		 * Kept for later, in order, as a line (one read's messages at
		 * most: reading stops while held).
		 */
		if (len <= PROTO_LINE_MAX && memchr(line, '\n', len) == NULL &&
		    evbuffer_add(sc->in, line, len) == 0 &&
		    evbuffer_add(sc->in, "\n", 1) == 0)
			return;
		if (len <= PROTO_LINE_MAX)
			return;		/* out of memory, or a LF: dropped */
	}
	if (len > PROTO_LINE_MAX)
		session_too_long(&sc->c);
	else
		session_line(&sc->c, line, len);
}

/* A control frame began (ws.c): the rate limit's; -1 closes with 1008. */
static int
server_web_ws_control(void *arg)
{
	struct server_client	*sc = arg;

	return (session_control(&sc->c));
}

/* The world's send op for a WebSocket: one text message per line. */
static void
server_web_ws_send(struct client *c, const char *buf, size_t len)
{
	ws_send(server_client_of(c)->ws, buf, len);
}

/* The world's close op for a WebSocket: a close frame (1000), then close. */
static void
server_web_ws_close(struct client *c)
{
	struct server_client	*sc = server_client_of(c);

	ws_close(sc->ws, WS_CLOSE_NORMAL, NULL);
	server_client_shut(sc);
}
