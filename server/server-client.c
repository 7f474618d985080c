/*
 * server-client.c -- one connection on libevent: a bufferevent, line
 * framing, an output cap, and a graceful close.
 *
 * Lines are taken off the input by framing.c without allocating.  A line
 * over the limit is never left in the input: it is answered, the input is
 * drained and reading stops, else libevent would call the read callback
 * again at once, forever.  Closing flushes the output, shuts down writing,
 * and drains what the peer still sends for a moment, so that the peer reads
 * our last line instead of a reset.
 *
 * A connection is freed only from its own callbacks (EOF, error, timeout,
 * the end of lingering), never while the game logic is running for another
 * connection: a client that must go because of what another one did (its
 * output over the cap) is only marked closing, and goes from its own
 * callbacks.
 */
#include <sys/socket.h>
#include <sys/types.h>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/util.h>

#include "framing.h"
#include "log.h"
#include "server.h"
#include "session.h"

static void	server_client_read_cb(struct bufferevent *, void *);
static void	server_client_write_cb(struct bufferevent *, void *);
static void	server_client_event_cb(struct bufferevent *, short, void *);
static void	server_client_send(struct client *, const char *, size_t);
static void	server_client_close(struct client *);
static void	server_client_linger(struct client *);
static void	server_client_drain(struct client *);
static void	server_client_release_seat(struct client *);
static void	server_client_tune(int);
static int64_t	server_client_now(void);
static void	server_client_addr(struct sockaddr *, char *, size_t);

const struct lobby_ops server_client_ops = {
	server_client_send,
	server_client_close
};

/* How long a closing connection may take to flush, and then to linger. */
static const struct timeval server_client_linger_tv = {
	SERVER_LINGER_MS / 1000, (SERVER_LINGER_MS % 1000) * 1000
};

/* Milliseconds on the monotonic clock. */
static int64_t
server_client_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

/* Print a peer address as ADDR:PORT or [ADDR]:PORT. */
static void
server_client_addr(struct sockaddr *sa, char *out, size_t size)
{
	char	host[INET6_ADDRSTRLEN];

	if (sa->sa_family == AF_INET6) {
		struct sockaddr_in6	*sin6 = (struct sockaddr_in6 *)sa;

		evutil_inet_ntop(AF_INET6, &sin6->sin6_addr, host, sizeof host);
		snprintf(out, size, "[%s]:%d", host, (int)ntohs(sin6->sin6_port));
	} else if (sa->sa_family == AF_INET) {
		struct sockaddr_in	*sin = (struct sockaddr_in *)sa;

		evutil_inet_ntop(AF_INET, &sin->sin_addr, host, sizeof host);
		snprintf(out, size, "%s:%d", host, (int)ntohs(sin->sin_port));
	} else
		snprintf(out, size, "unknown");
}

/*
 * Socket options for a player: no Nagle delay (each event is a short line
 * somebody waits for), and keepalive probes so that a peer that vanished
 * without a word is noticed within about two minutes.
 */
static void
server_client_tune(int fd)
{
	int	one = 1, idle = 60, intvl = 10, cnt = 6;

	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof one);
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle);
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl, sizeof intvl);
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof cnt);
}

/* A new connection from the listener: a player, or refused when full. */
void
server_client_accept(struct server *s, int fd, struct sockaddr *sa, int len)
{
	struct client	*c;

	(void)len;
	server_client_tune(fd);
	if ((c = calloc(1, sizeof *c)) == NULL) {
		log_error("out of memory: refusing a connection");
		evutil_closesocket(fd);
		return;
	}
	c->bev = bufferevent_socket_new(s->base, fd, BEV_OPT_CLOSE_ON_FREE);
	if (c->bev == NULL) {
		log_error("bufferevent_socket_new failed");
		evutil_closesocket(fd);
		free(c);
		return;
	}
	c->id = s->next_client_id++;
	c->server = s;
	server_client_addr(sa, c->addr, sizeof c->addr);
	TAILQ_INSERT_TAIL(&s->clients, c, entry);
	s->nclients++;

	bufferevent_setcb(c->bev, server_client_read_cb,
	    server_client_write_cb, server_client_event_cb, c);
	/* Never buffer more input than one legal line and its CR LF. */
	bufferevent_setwatermark(c->bev, EV_READ, 0, PROTO_SCAN_MAX);
	bufferevent_enable(c->bev, EV_READ | EV_WRITE);
	if (s->nplayers >= s->max_clients) {
		c->flags |= CLIENT_NOSEAT;
		session_refuse(&s->lobby, c);
		return;
	}
	s->nplayers++;
	session_open(&s->lobby, c);
}

/* Give up the client's player slot, once: it is leaving. */
static void
server_client_release_seat(struct client *c)
{
	if (c->flags & CLIENT_NOSEAT)
		return;
	c->flags |= CLIENT_NOSEAT;
	c->server->nplayers--;
}

/* Free a connection: leave the game first, so the opponent is told. */
void
server_client_free(struct client *c)
{
	struct server	*s = c->server;

	session_lost(c);
	log_info("client %llu: disconnected from %s", (unsigned long long)c->id,
	    c->addr);
	server_client_release_seat(c);
	TAILQ_REMOVE(&s->clients, c, entry);
	s->nclients--;
	bufferevent_free(c->bev);
	free(c);
	if (s->shutting_down && s->nclients == 0)
		event_base_loopbreak(s->base);
}

/*
 * The lobby's send op: queue bytes on the bufferevent.  A peer that lets
 * more than SERVER_OUTPUT_MAX pile up is not reading: it is closed (and
 * leaves its match when it is freed), so output never grows without bound.
 */
static void
server_client_send(struct client *c, const char *buf, size_t len)
{
	struct evbuffer	*out = bufferevent_get_output(c->bev);

	if (len > 0 && bufferevent_write(c->bev, buf, len) == -1)
		log_warn("client %llu: write failed", (unsigned long long)c->id);
	if (evbuffer_get_length(out) > SERVER_OUTPUT_MAX &&
	    !(c->flags & CLIENT_CLOSING)) {
		log_warn("client %llu: %s is not reading (%zu bytes pending), "
		    "closing", (unsigned long long)c->id, c->addr,
		    evbuffer_get_length(out));
		c->flags |= CLIENT_CLOSING;
		server_client_close(c);
	}
}

/*
 * The lobby's close op: stop reading, give up the player slot, and linger
 * once the output is out.  A peer that takes SERVER_LINGER_MS to read it
 * is dropped with it (the write timeout).
 */
static void
server_client_close(struct client *c)
{
	struct evbuffer	*in = bufferevent_get_input(c->bev);

	bufferevent_disable(c->bev, EV_READ);
	evbuffer_drain(in, evbuffer_get_length(in));
	server_client_release_seat(c);
	if (evbuffer_get_length(bufferevent_get_output(c->bev)) == 0)
		server_client_linger(c);
	else
		bufferevent_set_timeouts(c->bev, NULL,
		    &server_client_linger_tv);
}

/* All is sent: shut down writing, then drain the peer's input a while. */
static void
server_client_linger(struct client *c)
{
	if (c->flags & CLIENT_LINGER)
		return;
	c->flags |= CLIENT_LINGER;
	c->linger_until = server_client_now() + SERVER_LINGER_MS;
	shutdown(bufferevent_getfd(c->bev), SHUT_WR);
	bufferevent_set_timeouts(c->bev, &server_client_linger_tv, NULL);
	bufferevent_enable(c->bev, EV_READ);
}

/* Lingering: throw input away; free when the time is up. */
static void
server_client_drain(struct client *c)
{
	struct evbuffer	*in = bufferevent_get_input(c->bev);

	evbuffer_drain(in, evbuffer_get_length(in));
	if (server_client_now() >= c->linger_until)
		server_client_free(c);
}

/* Input: hand each complete line to the session. */
static void
server_client_read_cb(struct bufferevent *bev, void *arg)
{
	struct client	*c = arg;
	struct evbuffer	*in = bufferevent_get_input(bev);
	char		 line[PROTO_SCAN_MAX];
	size_t		 len;

	if (c->flags & CLIENT_LINGER) {
		server_client_drain(c);
		return;
	}
	while (!(c->flags & CLIENT_CLOSING)) {
		switch (framing_next_line(in, line, &len)) {
		case PROTO_SCAN_MORE:
			return;
		case PROTO_SCAN_TOO_LONG:
			session_too_long(c);	/* drains and stops reading */
			return;
		case PROTO_SCAN_LINE:
			session_line(c, line, len);
			break;
		}
	}
}

/* Output drained: a closing client lingers now. */
static void
server_client_write_cb(struct bufferevent *bev, void *arg)
{
	struct client	*c = arg;

	(void)bev;
	if ((c->flags & CLIENT_CLOSING) && !(c->flags & CLIENT_LINGER))
		server_client_linger(c);
}

/*
 * The peer closed its side: leave the game now (the opponent is told at
 * once), but still deliver what is queued before closing.  An error or a
 * timeout ends the connection at once, as does EOF while lingering.
 */
static void
server_client_event_cb(struct bufferevent *bev, short what, void *arg)
{
	struct client	*c = arg;

	(void)bev;
	if ((what & BEV_EVENT_EOF) && !(what & BEV_EVENT_ERROR) &&
	    !(c->flags & CLIENT_CLOSING)) {
		session_lost(c);
		c->flags |= CLIENT_CLOSING;
		server_client_close(c);
		return;
	}
	if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR | BEV_EVENT_TIMEOUT))
		server_client_free(c);
}
