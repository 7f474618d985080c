/*
 * server-client.c -- one connection on libevent: a read event, an output
 * buffer with a write event for when the kernel is full, line framing, an
 * output cap, and a graceful close.
 *
 * Input is read by us: at most what fits in one line (PROTO_SCAN_MAX
 * bytes, with what is pending) with one read(2).  A bufferevent would ask
 * the kernel first how much there is (an ioctl per read), and its output
 * buffer's callbacks and locking cost more than the game does.
 *
 * Output: replies and events pile up in a connection's output buffer while
 * a callback runs, and at its end each connection that got any is written
 * in one write(2).  Only when the kernel takes less is the write event
 * added, until it has sent the rest.  A request so costs one read and one
 * write, with no epoll_ctl in between.
 *
 * Lines are framed by conn.c in the bytes read, without allocating.  A line
 * over the limit is never left in the input: it is answered, the input is
 * drained and reading stops, else the read event would fire again at once,
 * forever.  Closing flushes the output, shuts down writing,
 * and drains what the peer still sends for a moment, so that the peer reads
 * our last line instead of a reset.
 *
 * Telnet (telnet.c) is spoken once the client does, from its first IAC
 * byte on: the bytes read are filtered, the marks it asks for answered,
 * Ctrl-C taken as QUIT, and what is sent escaped.  Until then it costs a
 * memchr per read, and a client that never sends 0xFF never gets a
 * telnet byte.
 *
 * Each connection has one timer, armed for its next deadline (a partial
 * line, its clock); conn.c decides what is due.  Once the connection is
 * closing, the timer takes it out of its match at once (it may have been
 * closed from another connection's callback) and frees it after
 * SERVER_CLOSE_MS at the latest, however slowly the peer reads.
 *
 * A connection is freed only from its own callbacks (EOF, error, timeout,
 * the end of lingering), never while the game logic is running for another
 * connection: a client that must go because of what another one did (its
 * output over the cap) is only marked closing, and goes from its own
 * callbacks.
 *
 * What reads a connection is its kind's (struct server_client_io): a
 * player's lines here; an HTTP request, then maybe a WebSocket player, in
 * server-web.c, with the same output buffer, cap, timer and lingering
 * close.
 */
#include <sys/socket.h>
#include <sys/types.h>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/event.h>
#include <event2/util.h>

#include "conn.h"
#include "log.h"
#include "server.h"
#include "session.h"
#include "telnet.h"

static void	server_client_read_cb(evutil_socket_t, short, void *);
static void	server_client_input(struct server_client *);
static ssize_t	server_client_telnet(struct server_client *, char *, size_t,
		    int *);
static int	server_client_telnet_done(struct server_client *, int);
static void	server_client_eof(struct server_client *);
static void	server_client_push(struct server_client *);
static void	server_client_write_cb(evutil_socket_t, short, void *);
static void	server_client_timer_cb(evutil_socket_t, short, void *);
static void	server_client_closing(struct server_client *);
static void	server_client_send(struct client *, const char *, size_t);
static void	server_client_close(struct client *);
static void	server_client_flush(struct server_client *);
static void	server_client_linger(struct server_client *);
static void	server_client_drain(struct server_client *);
static void	server_client_release_seat(struct server_client *);
static void	server_client_discard(struct server_client *);
static void	server_client_tune(int);
static enum proto_error server_client_admit(struct server *,
		    const struct addrkey *);
static void	server_client_refuse_fast(struct server *, int,
		    enum proto_error, const char *);
static void	server_client_open(struct server_client *, enum proto_error);

/* How the world reaches a connection. */
static const struct client_ops server_client_client_ops = {
	server_client_send,
	server_client_close,
	server_client_rearm,
	NULL,			/* connected here: queued here */
	server_client_hold
};
/* A player's connection: lines, maybe telnet. */
const struct server_client_io server_client_tcp_io = {
	server_client_open,
	server_client_input,
	server_client_due,
	NULL,
	NULL			/* refused at once: its ERR line */
};

/* How long a closing connection may take to flush, and then to linger. */
static const struct timeval server_client_linger_tv = {
	SERVER_LINGER_MS / 1000, (SERVER_LINGER_MS % 1000) * 1000
};

/* Print a peer address as ADDR:PORT or [ADDR]:PORT. */
void
server_client_addr(const struct sockaddr *sa, char *out, size_t size)
{
	char	host[INET6_ADDRSTRLEN];

	if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *sin6 = (const void *)sa;

		evutil_inet_ntop(AF_INET6, &sin6->sin6_addr, host, sizeof host);
		snprintf(out, size, "[%s]:%d",
		    host, (int)ntohs(sin6->sin6_port));
	} else if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *sin = (const void *)sa;

		evutil_inet_ntop(AF_INET, &sin->sin_addr, host, sizeof host);
		snprintf(out, size, "%s:%d", host, (int)ntohs(sin->sin_port));
	} else
		snprintf(out, size, "unknown");
}

/*
 * Socket options for a player: no Nagle delay (each event is a short line
 * somebody waits for), and keepalive probes so that a peer that vanished
 * without a word is noticed within about two minutes.  What the kernel
 * holds for it is bounded too: left to itself, it keeps taking output for
 * a peer that does not read, its send buffer grown up to tcp_wmem's
 * maximum (4 MiB), before anything counts against --max-output; and it
 * grows the receive buffer for a fast sender up to tcp_rmem's.  So the
 * receive buffer is fixed (SERVER_RCVBUF), and the kernel takes no more
 * output while SERVER_NOTSENT bytes wait unsent (TCP_NOTSENT_LOWAT: what
 * the peer has acknowledged is no longer ours to hold).  A fixed send
 * buffer (SO_SNDBUF) bounded it as well, and cost every player's writes
 * 4 % of the moves a second (docs/performance.md).
 */
static void
server_client_tune(int fd)
{
	int	one = 1, idle = 60, intvl = 10, cnt = 6;
	int	rcvbuf = SERVER_RCVBUF, notsent = SERVER_NOTSENT;

	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
	setsockopt(fd, IPPROTO_TCP, TCP_NOTSENT_LOWAT, &notsent,
	    sizeof notsent);
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof one);
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle);
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl, sizeof intvl);
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof cnt);
}

/* May a new connection from this address take a player slot? */
static enum proto_error
server_client_admit(struct server *s, const struct addrkey *key)
{
	if (s->lobby.stats.connections_current >= s->max_clients)
		return (PROTO_ESERVER_FULL);
	if (s->max_per_addr != 0 &&
	    addrtab_count(&s->peers, key) >= s->max_per_addr)
		return (PROTO_ETOO_MANY_CONNECTIONS);
	return (PROTO_OK);
}

/*
 * Refuse at once: one try to send the ERR line, then close.  For when
 * SERVER_REFUSED_MAX refused connections are flushing already, so that a
 * host hammering a full server cannot tie up descriptors (or the log) with
 * refusals; they are logged as a count, at most once a second.
 */
static void
server_client_refuse_fast(struct server *s, int fd, enum proto_error why,
    const char *busy)
{
	char			buf[PROTO_OUT_MAX];
	int			n = proto_fmt_error(buf, sizeof buf, why);
	int64_t			now = s->lobby.ops->now();

	if (busy != NULL) {
		n = (int)strlen(busy);
		memcpy(buf, busy, (size_t)n);
	}
	(void)send(fd, buf, (size_t)n, MSG_DONTWAIT | MSG_NOSIGNAL);
	evutil_closesocket(fd);
	s->lobby.stats.connections_total++;
	s->lobby.stats.connections_rejected++;
	s->lobby.stats.errors++;
	s->lobby.stats.bytes_out += (uint64_t)n;
	s->nrefused_fast++;
	if (now - s->refused_logged >= 1000) {
		log_warn("refused %u connections at once (%u refusals pending)",
		    s->nrefused_fast, s->nrefused);
		s->nrefused_fast = 0;
		s->refused_logged = now;
	}
}

/*
 * A new connection from a listener, of the kind io reads (a player, or an
 * HTTP request, which holds a player slot too): open, or refused.
 */
void
server_client_accept(struct server *s, int fd, struct sockaddr *sa, int len,
    const struct server_client_io *io)
{
	struct server_client	*sc;
	struct addrkey		 key;
	enum proto_error	 why;

	(void)len;
	addrkey_from(&key, sa);
	why = server_client_admit(s, &key);
	if (why != PROTO_OK && s->nrefused >= SERVER_REFUSED_MAX) {
		server_client_refuse_fast(s, fd, why, io->busy);
		return;
	}
	if ((sc = server_client_new(s, fd, sa)) != NULL)
		server_client_start(sc, io);
}

/*
 * A connection accepted, reading, under its peer's address, but holding
 * no player slot yet (SERVER_CLIENT_NOSEAT) and of no kind; NULL when out
 * of memory (the socket closed).
 */
struct server_client *
server_client_new(struct server *s, int fd, const struct sockaddr *sa)
{
	struct server_client	*sc;

	server_client_tune(fd);
	if ((sc = calloc(1, sizeof *sc)) == NULL) {
		log_error("out of memory: refusing a connection");
		evutil_closesocket(fd);
		return (NULL);
	}
	sc->timer = evtimer_new(s->base, server_client_timer_cb, sc);
	sc->rev = event_new(s->base, fd, EV_READ | EV_PERSIST,
	    server_client_read_cb, sc);
	sc->wev = event_new(s->base, fd, EV_WRITE | EV_PERSIST,
	    server_client_write_cb, sc);
	sc->in = evbuffer_new();
	sc->out = evbuffer_new();
	if (sc->timer == NULL || sc->rev == NULL || sc->wev == NULL ||
	    sc->in == NULL || sc->out == NULL) {
		log_error("out of memory: refusing a connection");
		server_client_discard(sc);
		evutil_closesocket(fd);
		return (NULL);
	}
	sc->flags = SERVER_CLIENT_NOSEAT;
	sc->c.id = s->next_client_id++;
	sc->c.ops = &server_client_client_ops;
	sc->server = s;
	server_client_addr(sa, sc->c.addr, sizeof sc->c.addr);
	addrkey_from(&sc->c.addrkey, sa);
	TAILQ_INSERT_TAIL(&s->clients, sc, entry);
	s->nclients++;
	event_add(sc->rev, NULL);
	return (sc);
}

/*
 * A connection begins as the kind io reads, under its address (the
 * peer's, or the one its PROXY header named): it takes a player slot, or
 * is refused.
 */
void
server_client_start(struct server_client *sc, const struct server_client_io *io)
{
	struct server		*s = sc->server;
	enum proto_error	 why = server_client_admit(s, &sc->c.addrkey);

	sc->io = io;
	s->lobby.stats.connections_total++;
	if (why == PROTO_OK && addrtab_add(&s->peers, &sc->c.addrkey) == -1)
		why = PROTO_ESERVER_FULL;	/* out of memory */
	if (why != PROTO_OK) {
		sc->flags |= SERVER_CLIENT_NOSEAT | SERVER_CLIENT_REFUSED;
		s->nrefused++;
		s->lobby.stats.connections_rejected++;
	} else {
		sc->flags &= ~SERVER_CLIENT_NOSEAT;
		s->lobby.stats.connections_current++;	/* the players counted */
	}
	io->open(sc, why);
}

/* A player's connection is open (or refused: ERR, then closed). */
static void
server_client_open(struct server_client *sc, enum proto_error why)
{
	if (why != PROTO_OK)
		session_refuse(&sc->server->lobby, &sc->c, why);
	else
		session_open(&sc->server->lobby, &sc->c);
}

/* Give up the client's player slot, once: it is leaving. */
static void
server_client_release_seat(struct server_client *sc)
{
	if (sc->flags & SERVER_CLIENT_NOSEAT)
		return;
	sc->flags |= SERVER_CLIENT_NOSEAT;
	sc->server->lobby.stats.connections_current--;
	addrtab_del(&sc->server->peers, &sc->c.addrkey);
}

/* Free what a connection holds, but not its socket. */
static void
server_client_discard(struct server_client *sc)
{
	if (sc->io != NULL && sc->io->discard != NULL)
		sc->io->discard(sc);
	tn_free(sc->telnet);
	if (sc->out != NULL)
		evbuffer_free(sc->out);
	if (sc->in != NULL)
		evbuffer_free(sc->in);
	if (sc->wev != NULL)
		event_free(sc->wev);
	if (sc->rev != NULL)
		event_free(sc->rev);
	if (sc->timer != NULL)
		event_free(sc->timer);
	free(sc);
}

/* Free a connection: leave the game first, so the opponent is told. */
void
server_client_free(struct server_client *sc)
{
	struct server	*s = sc->server;
	evutil_socket_t	 fd;
	unsigned	 i;

	if (sc->c.lobby != NULL)	/* else an HTTP request, no player */
		session_lost(&sc->c);
	for (i = 0; i < s->nservices; i++)
		s->services[i].forget(s->services[i].arg, &sc->c);
	log_info("client %llu: disconnected from %s", (unsigned long long)sc->c.id,
	    sc->c.addr);
	server_client_release_seat(sc);
	if (sc->flags & SERVER_CLIENT_REFUSED)
		s->nrefused--;
	if (sc->flags & SERVER_CLIENT_DIRTY)
		TAILQ_REMOVE(&s->dirty, sc, dirty_entry);
	if (sc->flags & SERVER_CLIENT_CORKED)
		TAILQ_REMOVE(&s->corked, sc, cork_entry);
	TAILQ_REMOVE(&s->clients, sc, entry);
	s->nclients--;
	fd = event_get_fd(sc->rev);
	server_client_discard(sc);		/* its events first */
	evutil_closesocket(fd);
	if (s->shutting_down && s->nclients == 0 && s->nleaving == 0)
		event_base_loopbreak(s->base);
}

/* The lobby's send op: a line, escaped when the client speaks telnet. */
static void
server_client_send(struct client *c, const char *buf, size_t len)
{
	struct server_client	*sc = server_client_of(c);

	if (sc->telnet != NULL)
		tn_send(sc->telnet, buf, len);	/* server_client_out_cb */
	else
		server_client_out(sc, buf, len);
}

/* How telnet.c and ws.c write: their bytes as they are, under --max-output. */
void
server_client_out_cb(void *arg, const char *buf, size_t len)
{
	server_client_out(arg, buf, len);
}

/*
 * Queue bytes, written at the end of the callback: staged (server-stage.c)
 * or, when they cannot be, in the connection's evbuffer.  A peer that lets
 * more than --max-output pile up is not reading: it is closed (and leaves
 * its match when it is freed), so output never grows without bound.
 */
void
server_client_out(struct server_client *sc, const char *buf, size_t len)
{
	struct evbuffer	*out = sc->out;

	if (len > 0 && server_stage_add(sc, buf, len) == -1) {
		server_stage_spill(sc);		/* in order */
		if (evbuffer_add(out, buf, len) == -1)
			log_warn("client %llu: out of memory for its output",
			    (unsigned long long)sc->c.id);
	}
	if (!(sc->flags & SERVER_CLIENT_DIRTY)) {
		sc->flags |= SERVER_CLIENT_DIRTY;
		TAILQ_INSERT_TAIL(&sc->server->dirty, sc, dirty_entry);
	}
	if (evbuffer_get_length(out) + server_stage_len(sc) <=
	    sc->server->output_max || (sc->c.flags & CLIENT_CLOSING))
		return;
	/*
	 * Over the cap.  Output is written at the end of the callback, so
	 * first offer the kernel what is pending now: only what it refuses
	 * counts against a client that may well be reading.
	 */
	server_client_flush(sc);
	if (evbuffer_get_length(out) > sc->server->output_max) {
		log_warn("client %llu: %s is not reading (%zu bytes pending), closing",
		    (unsigned long long)sc->c.id, sc->c.addr,
		    evbuffer_get_length(out));
		server_client_shut(sc);
	}
}

/*
 * The lobby's close op: stop reading, give up the player slot, and linger
 * once the output is out.  A peer that reads none of it for
 * SERVER_LINGER_MS is dropped (the write event's timeout), and no close
 * takes more than SERVER_CLOSE_MS (the timer).
 */
static void
server_client_close(struct client *c)
{
	server_client_shut(server_client_of(c));
}

/* Closing, by the world's word or the transport's own: CLIENT_CLOSING. */
void
server_client_shut(struct server_client *sc)
{
	struct evbuffer		*in = sc->in;
	static const struct timeval now_tv = { 0, 0 };

	sc->c.flags |= CLIENT_CLOSING;
	event_del(sc->rev);
	evbuffer_drain(in, evbuffer_get_length(in));
	sc->close_by = sc->server->lobby.ops->now() + SERVER_CLOSE_MS;
	evtimer_add(sc->timer, &now_tv);		/* server_client_closing */
	server_client_release_seat(sc);
	server_client_flush(sc);
	if (evbuffer_get_length(sc->out) == 0)
		server_client_linger(sc);
	else
		event_add(sc->wev, &server_client_linger_tv);
}

/*
 * Write a connection's pending output now, as much as the kernel takes;
 * the write event sends the rest (and, should the write have failed, finds
 * the error from the connection's own callback, where it may be freed).
 * A closing connection's write event has its linger timeout already.
 */
static void
server_client_flush(struct server_client *sc)
{
	int	held = (sc->flags & SERVER_CLIENT_CORKED) || sc->out_holds > 0;

	if (sc->flags & SERVER_CLIENT_DIRTY) {
		sc->flags &= ~SERVER_CLIENT_DIRTY;
		TAILQ_REMOVE(&sc->server->dirty, sc, dirty_entry);
	}
	if (sc->nseg > 0 && held)
		server_stage_spill(sc);		/* to wait in out */
	else if (sc->nseg > 0)
		server_stage_write(sc, event_get_fd(sc->wev));
	else if (evbuffer_get_length(sc->out) > 0 && !held)
		evbuffer_write(sc->out, event_get_fd(sc->wev));
	if (held)
		return;
	if (evbuffer_get_length(sc->out) > 0 && !(sc->c.flags & CLIENT_CLOSING))
		event_add(sc->wev, NULL);
}

/* The end of a callback: write out every connection that got output. */
void
server_client_flush_all(struct server *s)
{
	struct server_client	*sc;
	unsigned		 i;

	/* The services first: they may cork players, or write to them. */
	for (i = 0; i < s->nflush; i++)
		s->flush[i](s->flush_arg[i]);
	while ((sc = TAILQ_FIRST(&s->dirty)) != NULL)
		server_client_flush(sc);
	server_stage_reset(s);		/* nothing is staged any more */
}

/* All is sent: shut down writing, then drain the peer's input a while. */
static void
server_client_linger(struct server_client *sc)
{
	if (sc->flags & SERVER_CLIENT_LINGER)
		return;
	sc->flags |= SERVER_CLIENT_LINGER;
	sc->linger_until = sc->server->lobby.ops->now() + SERVER_LINGER_MS;
	shutdown(event_get_fd(sc->rev), SHUT_WR);
	event_del(sc->wev);
	event_add(sc->rev, &server_client_linger_tv);	/* quiet: free */
}

/*
 * Lingering: throw input away; free when the time is up, or sooner when
 * the peer keeps sending (a flooder would keep us reading for nothing).
 */
static void
server_client_drain(struct server_client *sc)
{
	char	buf[4096];
	ssize_t	n;

	n = read(event_get_fd(sc->rev), buf, sizeof buf);
	if (n == -1 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n > 0) {
		sc->linger_drained += (size_t)n;
		sc->server->lobby.stats.bytes_in += (uint64_t)n;
	}
	if (n <= 0 || sc->server->lobby.ops->now() >= sc->linger_until ||
	    sc->linger_drained > SERVER_LINGER_MAX)
		server_client_free(sc);
}

/* The socket is readable (or, lingering, quiet for too long). */
static void
server_client_read_cb(evutil_socket_t fd, short what, void *arg)
{
	struct server_client	*sc = arg;
	struct server		*s = sc->server;

	(void)fd;
	if (what & EV_TIMEOUT)
		server_client_free(sc);
	else if (s->frozen && !(sc->flags & SERVER_CLIENT_LINGER))
		event_del(sc->rev);		/* drained: read no more */
	else if (sc->flags & SERVER_CLIENT_LINGER)
		server_client_drain(sc);		/* may free it */
	else
		sc->io->read(sc);			/* may free it */
	server_client_flush_all(s);
}

/*
 * Read what fits beside the pending bytes (never more than one legal line
 * and its CR LF is held), and hand the complete lines to conn.c: straight
 * from the read when nothing was pending, else through the input buffer.
 * When it stops at its bound with lines left, come back after the
 * connections already waiting have had a turn (an activated event goes to
 * the back of the loop's queue).
 */
static void
server_client_input(struct server_client *sc)
{
	struct evbuffer	*in = sc->in;
	size_t		 pending = evbuffer_get_length(in), used;
	char		 buf[PROTO_SCAN_MAX];
	ssize_t		 n = 0;
	int		 more, tnflags = 0;

	if (sc->c.flags & CLIENT_HOLDS) {
		/* Later: take no more (the kernel holds them) till then. */
		event_del(sc->rev);
		return;
	}
	if (pending < sizeof buf) {
		n = read(event_get_fd(sc->rev), buf, sizeof buf - pending);
		if (n == 0) {
			server_client_eof(sc);
			return;
		}
		if (n == -1 && errno != EAGAIN && errno != EINTR) {
			server_client_free(sc);	/* reset */
			return;
		}
		if (n > 0)
			sc->server->lobby.stats.bytes_in += (uint64_t)n;
	}
	if (n > 0 && (sc->telnet != NULL || tn_starts(buf, (size_t)n)) &&
	    (n = server_client_telnet(sc, buf, (size_t)n, &tnflags)) == -1)
		return;				/* freed */
	if (pending == 0 && n > 0) {
		used = conn_input_bytes(&sc->c, buf, (size_t)n, &more);
		if (used < (size_t)n &&
		    evbuffer_add(in, buf + used, (size_t)n - used) == -1)
			goto nomem;
	} else {
		if (n > 0 && evbuffer_add(in, buf, (size_t)n) == -1)
			goto nomem;
		more = conn_input(&sc->c, in);
	}
	if (sc->telnet != NULL && server_client_telnet_done(sc, tnflags))
		return;				/* Ctrl-C: quitting */
	if (more)
		event_active(sc->rev, EV_READ, 0);
	return;

nomem:
	/* Bytes lost would splice two lines into one: end it instead. */
	log_warn("client %llu: out of memory for its input, closing",
	    (unsigned long long)sc->c.id);
	server_client_free(sc);
}

/*
 * The client speaks telnet (from its first IAC byte on): take the commands
 * out of the bytes read, leaving the data in their place.  Returns how
 * many bytes of data there are, or -1 when the connection was broken by
 * its telnet and is freed.
 */
static ssize_t
server_client_telnet(struct server_client *sc, char *buf, size_t n,
    int *flags)
{
	char	data[PROTO_SCAN_MAX];
	size_t	len;

	if (sc->telnet == NULL) {
		if ((sc->telnet = tn_new(server_client_out_cb, sc)) == NULL) {
			log_warn("client %llu: out of memory for telnet, "
			    "closing", (unsigned long long)sc->c.id);
			server_client_free(sc);
			return (-1);
		}
		log_debug("client %llu: speaks telnet",
		    (unsigned long long)sc->c.id);
	}
	len = tn_recv(sc->telnet, buf, n < sizeof data ? n : sizeof data,
	    data, flags);
	if (*flags & TN_BROKEN) {
		log_warn("client %llu: %s breaks the telnet protocol (too many "
		    "commands, or compression), closing",
		    (unsigned long long)sc->c.id, sc->c.addr);
		server_client_free(sc);
		return (-1);
	}
	memcpy(buf, data, len);
	return ((ssize_t)len);
}

/*
 * Telnet, once the lines read have been handled: answer the marks asked
 * for among them; Ctrl-C (IAC IP) quits.  Returns 1 when it did.
 */
static int
server_client_telnet_done(struct server_client *sc, int flags)
{
	if (sc->c.flags & CLIENT_CLOSING)
		return (0);
	tn_marks(sc->telnet);
	if (!(flags & TN_INTERRUPT))
		return (0);
	conn_interrupt(&sc->c, sc->in);
	return (1);
}

/*
 * The peer closed its side: leave the game now (the opponent is told at
 * once), but still answer the lines it sent and deliver what is queued
 * before closing.
 */
static void
server_client_eof(struct server_client *sc)
{
	while (conn_input(&sc->c, sc->in))
		;
	if (sc->c.flags & CLIENT_CLOSING)
		return;			/* its last line closed it (QUIT) */
	session_lost(&sc->c);
	server_client_shut(sc);
}

/* The client's timer: closing, or what its kind does when it is due. */
static void
server_client_timer_cb(evutil_socket_t fd, short what, void *arg)
{
	struct server_client	*sc = arg;
	struct server		*s = sc->server;

	(void)fd;
	(void)what;
	if (sc->c.flags & CLIENT_CLOSING)
		server_client_closing(sc);
	else if (s->frozen)
		return;				/* drained: the clocks stop */
	else
		sc->io->due(sc);
	server_client_flush_all(s);
}

/* A player's timer: run what is due, then aim at the next deadline. */
void
server_client_due(struct server_client *sc)
{
	conn_timer(&sc->c);
	server_client_rearm(&sc->c, client_deadline(&sc->c));
}

/*
 * A closing connection's timer: leave the match now, so that the opponent
 * is told without waiting for the flush; free at the close deadline.
 */
static void
server_client_closing(struct server_client *sc)
{
	if (sc->c.lobby != NULL)
		session_lost(&sc->c);
	if (sc->server->lobby.ops->now() >= sc->close_by)
		server_client_free(sc);
	else
		server_client_aim(sc->server, sc->timer, sc->close_by);
}

/* Aim a timer at a time on the monotonic clock (ms), or stop it at 0. */
void
server_client_aim(struct server *s, struct event *timer, int64_t at)
{
	int64_t		ms = at - s->lobby.ops->now();
	struct timeval	tv;

	if (at == 0) {
		evtimer_del(timer);
		return;
	}
	if (ms < 0)
		ms = 0;
	tv.tv_sec = (time_t)(ms / 1000);
	tv.tv_usec = (suseconds_t)(ms % 1000) * 1000;
	evtimer_add(timer, &tv);
}

/* The client's rearm op: aim its timer at its next deadline, or stop it. */
void
server_client_rearm(struct client *c, int64_t at)
{
	if (c->flags & CLIENT_CLOSING)
		return;		/* the timer is server_client_closing's now */
	server_client_aim(server_client_of(c)->server,
	    server_client_of(c)->timer, at);
}

/*
 * Writable again, or (closing) no progress for the linger time: write the
 * rest.  A write error or the timeout ends the connection at once; once
 * all is out, a closing connection lingers.
 */
static void
server_client_write_cb(evutil_socket_t fd, short what, void *arg)
{
	struct server_client	*sc = arg;
	struct server		*s = sc->server;

	if (((sc->flags & SERVER_CLIENT_CORKED) || sc->out_holds > 0) &&
	    !(what & EV_TIMEOUT))
		event_del(sc->wev);		/* server_client_uncork_cb */
	else if ((what & EV_TIMEOUT) || (evbuffer_write(sc->out, fd) == -1 &&
	    errno != EAGAIN && errno != EINTR))
		server_client_free(sc);
	else if (evbuffer_get_length(sc->out) == 0) {
		event_del(sc->wev);
		if (sc->c.flags & CLIENT_CLOSING)
			server_client_linger(sc);
	}
	server_client_flush_all(s);
}

/*
 * The hold op: read no more of the client while it is held (the read
 * callbacks see it), its lines read already kept (in->, or as lines there
 * for a WebSocket); then take them up again, in order.
 */
void
server_client_hold(struct client *c, int on)
{
	struct server_client	*sc = server_client_of(c);

	if (on || (c->flags & CLIENT_CLOSING))
		return;
	event_add(sc->rev, NULL);
	event_active(sc->rev, EV_READ, 0);		/* the lines kept */
}

/*
 * The cluster's cork_due: the saves of this callback are sent, the last
 * one seq: the corks that waited for them wait for it (the seqs on the
 * list stay in order).
 */
void
server_client_cork_due_cb(void *arg, uint64_t seq)
{
	struct server		*s = arg;
	struct server_client	*sc;

	TAILQ_FOREACH_REVERSE(sc, &s->corked, server_client_list, cork_entry) {
		if (sc->cork_seq != SERVER_CORK_DUE)
			break;
		sc->cork_seq = seq;
	}
}

/*
 * The cluster's cork: hold a player's output until this callback's saves
 * are answered (cork_due gives their seq): the match it sees is kept in
 * Redis before it sees it.  A connection corked again goes to the end of
 * the list (the seqs grow).
 */
void
server_client_cork_cb(void *arg, struct client *c)
{
	struct server		*s = arg;
	struct server_client	*sc = server_client_of(c);

	if (sc->flags & SERVER_CLIENT_CORKED)
		TAILQ_REMOVE(&s->corked, sc, cork_entry);
	sc->flags |= SERVER_CLIENT_CORKED;
	sc->cork_seq = SERVER_CORK_DUE;
	TAILQ_INSERT_TAIL(&s->corked, sc, cork_entry);
}

/* The cluster's uncork: saves up to seq are answered, their output out. */
void
server_client_uncork_cb(void *arg, uint64_t seq)
{
	struct server		*s = arg;
	struct server_client	*sc;

	while ((sc = TAILQ_FIRST(&s->corked)) != NULL && sc->cork_seq <= seq) {
		TAILQ_REMOVE(&s->corked, sc, cork_entry);
		sc->flags &= ~SERVER_CLIENT_CORKED;
		if (sc->out_holds == 0)
			server_client_push(sc);
	}
}

/*
 * Hold a player's output until the accounts' commit is answered (a rated
 * game's result is on the disk before its player sees RESULT); counted,
 * as several commits may be on their way.
 */
void
server_client_hold_out(struct client *c)
{
	server_client_of(c)->out_holds++;
}

/* A commit is answered: the output goes out once nothing holds it. */
void
server_client_release_out(struct client *c)
{
	struct server_client	*sc = server_client_of(c);

	if (sc->out_holds == 0 || --sc->out_holds > 0 ||
	    (sc->flags & SERVER_CLIENT_CORKED))
		return;
	server_client_push(sc);
}

/* Write out what waited, as a flush would, or a close. */
static void
server_client_push(struct server_client *sc)
{
	if (!(sc->c.flags & CLIENT_CLOSING)) {
		server_client_flush(sc);
		return;
	}
	if (sc->flags & SERVER_CLIENT_LINGER)
		return;
	server_client_flush(sc);
	if (evbuffer_get_length(sc->out) == 0)
		server_client_linger(sc);
	else
		event_add(sc->wev, &server_client_linger_tv);
}

/*
 * The cluster's restart: its match went to another node (this one was
 * taken for dead): what it was not sent yet is dropped, and it is told to
 * come back.
 */
void
server_client_restart_cb(void *arg, struct client *c)
{
	struct server		*s = arg;
	struct server_client	*sc = server_client_of(c);
	char			 buf[PROTO_OUT_MAX];

	if (sc->flags & SERVER_CLIENT_CORKED) {
		TAILQ_REMOVE(&s->corked, sc, cork_entry);
		sc->flags &= ~SERVER_CLIENT_CORKED;
	}
	evbuffer_drain(sc->out, evbuffer_get_length(sc->out));
	sc->nseg = 0;
	client_send(c, buf, proto_fmt_bye(buf, sizeof buf, SESSION_RESTART));
	client_close(c);
}

/*
 * The server is stopping: a player gets BYE and is closed; an HTTP
 * request not answered yet is closed.
 */
void
server_client_shutdown(struct server_client *sc)
{
	if (sc->c.lobby != NULL)
		session_shutdown(&sc->c, sc->server->bye);
	else if (!(sc->c.flags & CLIENT_CLOSING))
		server_client_shut(sc);
}

/*
 * Drained: every player hears BYE (come back) before any of them leaves
 * its match, so that nobody hears of the others leaving.
 */
void
server_client_shutdown_all(struct server *s)
{
	struct server_client	*sc;
	char			 buf[PROTO_OUT_MAX];

	TAILQ_FOREACH(sc, &s->clients, entry) {
		if (sc->c.flags & CLIENT_CLOSING)
			continue;
		if (sc->c.lobby != NULL)
			client_send(&sc->c, buf, proto_fmt_bye(buf, sizeof buf,
			    s->bye));
		sc->c.flags |= CLIENT_CLOSING;
		sc->flags |= SERVER_CLIENT_BYE;
	}
	TAILQ_FOREACH(sc, &s->clients, entry) {
		if (sc->flags & SERVER_CLIENT_BYE) {
			sc->flags &= ~SERVER_CLIENT_BYE;
			server_client_shut(sc);
		}
	}
}
