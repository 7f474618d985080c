/*
 * server-proxy.c -- a connection from a balancer of --proxy-from, on the
 * game port or the HTTP port: its PROXY header (proto/proxy.c, HAProxy's
 * versions 1 and 2) is read before anything else, and the connection
 * then begins (server_client_start) as the kind it was accepted for,
 * under the address the header names: --max-per-addr, the guesses'
 * allowances, the logs and every line that names the peer go by it.
 *
 * Nothing but the header is taken off the socket: the bytes there are
 * peeked, parsed with those taken before, and only the header's own are
 * read, so that the first line or HTTP request behind it stays in the
 * kernel for its reader.  A header split over several reads is read on;
 * one not whole within --line-timeout (or its default, as an HTTP
 * request's), invalid, or cut off by the peer's close ends the
 * connection, logged.  LOCAL (a health check) and UNKNOWN keep the
 * balancer's own address, as the spec says.
 */
#include <sys/socket.h>
#include <sys/types.h>

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/event.h>

#include "log.h"
#include "server.h"

static void	server_proxy_read(struct server_client *);
static void	server_proxy_due(struct server_client *);
static void	server_proxy_done(struct server_client *,
		    const struct proxy_hdr *);

/* Awaiting its PROXY header: read that, nothing else. */
static const struct server_client_io server_proxy_io = {
	NULL,			/* begun by server_proxy_accept */
	server_proxy_read,
	server_proxy_due,
	NULL,
	NULL
};

/*
 * Accepted from a balancer: no player slot yet, and the header due
 * within the line time (no line limit: its default).
 */
void
server_proxy_accept(struct server *s, int fd, const struct sockaddr *sa,
    const struct server_client_io *io)
{
	struct server_client	*sc;

	if ((sc = server_client_new(s, fd, sa)) == NULL)
		return;
	sc->proxied = io;
	sc->io = &server_proxy_io;
	server_client_aim(s, sc->timer, s->lobby.ops->now() +
	    (s->lobby.limits.line_ms > 0 ? s->lobby.limits.line_ms :
	    LOBBY_LINE_MS));
}

/*
 * Readable: peek at what is there, parse it after the header's bytes
 * taken already (sc->in), and take off the socket only what belongs to
 * the header.
 */
static void
server_proxy_read(struct server_client *sc)
{
	struct server		*s = sc->server;
	struct proxy_hdr	 h;
	char			 buf[SERVER_HTTP_READ];
	size_t			 have = evbuffer_get_length(sc->in), take;
	ssize_t			 n;
	enum proxy_status	 st;
	int			 fd = event_get_fd(sc->rev);

	n = recv(fd, buf, sizeof buf, MSG_PEEK);
	if (n == -1 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		log_info("client %llu: %s closed before its PROXY header was "
		    "whole", (unsigned long long)sc->c.id, sc->c.addr);
		server_client_free(sc);
		return;
	}
	if (evbuffer_add(sc->in, buf, (size_t)n) == -1) {
		log_warn("client %llu: out of memory for its PROXY header, "
		    "closing", (unsigned long long)sc->c.id);
		server_client_free(sc);
		return;
	}
	st = proxy_parse(evbuffer_pullup(sc->in, -1), have + (size_t)n, &h);
	if (st == PROXY_BAD) {
		log_warn("client %llu: %s sent an invalid PROXY header (%s), "
		    "closing", (unsigned long long)sc->c.id, sc->c.addr, h.why);
		server_client_free(sc);
		return;
	}
	take = st == PROXY_DONE ? h.len - have : (size_t)n;
	if (read(fd, buf, take) != (ssize_t)take) {
		server_client_free(sc);		/* what it peeked is gone */
		return;
	}
	s->lobby.stats.bytes_in += take;
	if (st == PROXY_DONE)
		server_proxy_done(sc, &h);
}

/*
 * The header is whole: the connection is the client's it names (or the
 * balancer's own), and begins as the kind it was accepted for.
 */
static void
server_proxy_done(struct server_client *sc, const struct proxy_hdr *h)
{
	char	addr[sizeof sc->c.addr];

	evbuffer_drain(sc->in, evbuffer_get_length(sc->in));
	evtimer_del(sc->timer);
	if (h->kind == PROXY_ADDR) {
		server_client_addr((const struct sockaddr *)&h->src, addr,
		    sizeof addr);
		log_info("client %llu: %s through the balancer %s (PROXY "
		    "v%d)", (unsigned long long)sc->c.id, addr, sc->c.addr,
		    h->version);
		memcpy(sc->c.addr, addr, sizeof addr);
		addrkey_from(&sc->c.addrkey, (const struct sockaddr *)&h->src);
	} else
		log_debug("client %llu: the balancer %s itself (PROXY v%d %s)",
		    (unsigned long long)sc->c.id, sc->c.addr, h->version,
		    h->kind == PROXY_LOCAL ? "LOCAL" : "UNKNOWN");
	server_client_start(sc, sc->proxied);
}

/* No whole header in time: closed. */
static void
server_proxy_due(struct server_client *sc)
{
	log_warn("client %llu: %s sent no whole PROXY header in time, closing",
	    (unsigned long long)sc->c.id, sc->c.addr);
	server_client_free(sc);
}
