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
 */
#include <sys/socket.h>
#include <sys/types.h>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>

#include <errno.h>
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

static void	server_client_read_cb(evutil_socket_t, short, void *);
static void	server_client_input(struct client *);
static void	server_client_eof(struct client *);
static void	server_client_write_cb(evutil_socket_t, short, void *);
static void	server_client_timer_cb(evutil_socket_t, short, void *);
static void	server_client_closing(struct client *);
static void	server_client_send(struct client *, const char *, size_t);
static void	server_client_close(struct client *);
static void	server_client_rearm(struct client *);
static void	server_client_flush(struct client *);
static void	server_client_aim(struct event *, int64_t);
static void	server_client_linger(struct client *);
static void	server_client_drain(struct client *);
static void	server_client_release_seat(struct client *);
static void	server_client_discard(struct client *);
static void	server_client_tune(int);
static int64_t	server_client_now(void);
static void	server_client_random(void *, size_t);
static void	server_client_wake(struct lobby *);
static void	server_client_addr(struct sockaddr *, char *, size_t);
static enum proto_error server_client_admit(struct server *,
		    const struct addrkey *);
static void	server_client_refuse_fast(struct server *, int,
		    enum proto_error);

const struct lobby_ops server_client_ops = {
	server_client_send,
	server_client_close,
	server_client_rearm,
	server_client_now,
	server_client_random,
	server_client_wake
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
		snprintf(out, size, "[%s]:%d",
		    host, (int)ntohs(sin6->sin6_port));
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
server_client_refuse_fast(struct server *s, int fd, enum proto_error why)
{
	char	buf[PROTO_OUT_MAX];
	int	n = proto_fmt_error(buf, sizeof buf, why);
	int64_t	now = server_client_now();

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

/* A new connection from the listener: a player, or refused. */
void
server_client_accept(struct server *s, int fd, struct sockaddr *sa, int len)
{
	struct client		*c;
	struct addrkey		 key;
	enum proto_error	 why;

	(void)len;
	addrkey_from(&key, sa);
	why = server_client_admit(s, &key);
	if (why != PROTO_OK && s->nrefused >= SERVER_REFUSED_MAX) {
		server_client_refuse_fast(s, fd, why);
		return;
	}
	server_client_tune(fd);
	if ((c = calloc(1, sizeof *c)) == NULL) {
		log_error("out of memory: refusing a connection");
		evutil_closesocket(fd);
		return;
	}
	c->timer = evtimer_new(s->base, server_client_timer_cb, c);
	c->rev = event_new(s->base, fd, EV_READ | EV_PERSIST,
	    server_client_read_cb, c);
	c->wev = event_new(s->base, fd, EV_WRITE | EV_PERSIST,
	    server_client_write_cb, c);
	c->in = evbuffer_new();
	c->out = evbuffer_new();
	if (c->timer == NULL || c->rev == NULL || c->wev == NULL ||
	    c->in == NULL || c->out == NULL) {
		log_error("out of memory: refusing a connection");
		server_client_discard(c);
		evutil_closesocket(fd);
		return;
	}
	c->id = s->next_client_id++;
	c->server = s;
	server_client_addr(sa, c->addr, sizeof c->addr);
	c->addrkey = key;
	TAILQ_INSERT_TAIL(&s->clients, c, entry);
	s->nclients++;
	s->lobby.stats.connections_total++;

	event_add(c->rev, NULL);
	if (why == PROTO_OK && addrtab_add(&s->peers, &key) == -1)
		why = PROTO_ESERVER_FULL;	/* out of memory */
	if (why != PROTO_OK) {
		c->flags |= CLIENT_NOSEAT | CLIENT_REFUSED;
		s->nrefused++;
		s->lobby.stats.connections_rejected++;
		session_refuse(&s->lobby, c, why);
		return;
	}
	s->lobby.stats.connections_current++;	/* the players counted */
	session_open(&s->lobby, c);
}

/* Give up the client's player slot, once: it is leaving. */
static void
server_client_release_seat(struct client *c)
{
	if (c->flags & CLIENT_NOSEAT)
		return;
	c->flags |= CLIENT_NOSEAT;
	c->server->lobby.stats.connections_current--;
	addrtab_del(&c->server->peers, &c->addrkey);
}

/* Free what a connection holds, but not its socket. */
static void
server_client_discard(struct client *c)
{
	if (c->out != NULL)
		evbuffer_free(c->out);
	if (c->in != NULL)
		evbuffer_free(c->in);
	if (c->wev != NULL)
		event_free(c->wev);
	if (c->rev != NULL)
		event_free(c->rev);
	if (c->timer != NULL)
		event_free(c->timer);
	free(c);
}

/* Free a connection: leave the game first, so the opponent is told. */
void
server_client_free(struct client *c)
{
	struct server	*s = c->server;
	evutil_socket_t	 fd;

	session_lost(c);
	log_info("client %llu: disconnected from %s", (unsigned long long)c->id,
	    c->addr);
	server_client_release_seat(c);
	if (c->flags & CLIENT_REFUSED)
		s->nrefused--;
	if (c->flags & CLIENT_DIRTY)
		TAILQ_REMOVE(&s->dirty, c, dirty_entry);
	TAILQ_REMOVE(&s->clients, c, entry);
	s->nclients--;
	fd = event_get_fd(c->rev);
	server_client_discard(c);		/* its events first */
	evutil_closesocket(fd);
	if (s->shutting_down && s->nclients == 0)
		event_base_loopbreak(s->base);
}

/*
 * The lobby's send op: queue bytes, written at the end of the callback.  A
 * peer that lets more than --max-output pile up is not reading: it is
 * closed (and leaves its match when it is freed), so output never grows
 * without bound.
 */
static void
server_client_send(struct client *c, const char *buf, size_t len)
{
	struct evbuffer	*out = c->out;

	if (len > 0 && evbuffer_add(out, buf, len) == -1)
		log_warn("client %llu: out of memory for its output",
		    (unsigned long long)c->id);
	if (!(c->flags & CLIENT_DIRTY)) {
		c->flags |= CLIENT_DIRTY;
		TAILQ_INSERT_TAIL(&c->server->dirty, c, dirty_entry);
	}
	if (evbuffer_get_length(out) <= c->server->output_max ||
	    (c->flags & CLIENT_CLOSING))
		return;
	/*
	 * Over the cap.  Output is written at the end of the callback, so
	 * first offer the kernel what is pending now: only what it refuses
	 * counts against a client that may well be reading.
	 */
	server_client_flush(c);
	if (evbuffer_get_length(out) > c->server->output_max) {
		log_warn("client %llu: %s is not reading (%zu bytes pending), closing",
		    (unsigned long long)c->id, c->addr,
		    evbuffer_get_length(out));
		c->flags |= CLIENT_CLOSING;
		server_client_close(c);
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
	struct evbuffer		*in = c->in;
	static const struct timeval now_tv = { 0, 0 };

	event_del(c->rev);
	evbuffer_drain(in, evbuffer_get_length(in));
	c->close_by = server_client_now() + SERVER_CLOSE_MS;
	evtimer_add(c->timer, &now_tv);		/* server_client_closing */
	server_client_release_seat(c);
	server_client_flush(c);
	if (evbuffer_get_length(c->out) == 0)
		server_client_linger(c);
	else
		event_add(c->wev, &server_client_linger_tv);
}

/*
 * Write a connection's pending output now, as much as the kernel takes;
 * the write event sends the rest (and, should the write have failed, finds
 * the error from the connection's own callback, where it may be freed).
 * A closing connection's write event has its linger timeout already.
 */
static void
server_client_flush(struct client *c)
{
	if (c->flags & CLIENT_DIRTY) {
		c->flags &= ~CLIENT_DIRTY;
		TAILQ_REMOVE(&c->server->dirty, c, dirty_entry);
	}
	if (evbuffer_get_length(c->out) == 0)
		return;
	evbuffer_write(c->out, event_get_fd(c->wev));
	if (evbuffer_get_length(c->out) > 0 && !(c->flags & CLIENT_CLOSING))
		event_add(c->wev, NULL);
}

/* The end of a callback: write out every connection that got output. */
void
server_client_flush_all(struct server *s)
{
	struct client	*c;

	while ((c = TAILQ_FIRST(&s->dirty)) != NULL)
		server_client_flush(c);
}

/* All is sent: shut down writing, then drain the peer's input a while. */
static void
server_client_linger(struct client *c)
{
	if (c->flags & CLIENT_LINGER)
		return;
	c->flags |= CLIENT_LINGER;
	c->linger_until = server_client_now() + SERVER_LINGER_MS;
	shutdown(event_get_fd(c->rev), SHUT_WR);
	event_del(c->wev);
	event_add(c->rev, &server_client_linger_tv);	/* quiet: free */
}

/*
 * Lingering: throw input away; free when the time is up, or sooner when
 * the peer keeps sending (a flooder would keep us reading for nothing).
 */
static void
server_client_drain(struct client *c)
{
	char	buf[4096];
	ssize_t	n;

	n = read(event_get_fd(c->rev), buf, sizeof buf);
	if (n == -1 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n > 0) {
		c->linger_drained += (size_t)n;
		c->server->lobby.stats.bytes_in += (uint64_t)n;
	}
	if (n <= 0 || server_client_now() >= c->linger_until ||
	    c->linger_drained > SERVER_LINGER_MAX)
		server_client_free(c);
}

/* The socket is readable (or, lingering, quiet for too long). */
static void
server_client_read_cb(evutil_socket_t fd, short what, void *arg)
{
	struct client	*c = arg;
	struct server	*s = c->server;

	(void)fd;
	if (what & EV_TIMEOUT)
		server_client_free(c);
	else if (c->flags & CLIENT_LINGER)
		server_client_drain(c);		/* may free it */
	else
		server_client_input(c);		/* may free it */
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
server_client_input(struct client *c)
{
	struct evbuffer	*in = c->in;
	size_t		 pending = evbuffer_get_length(in), used;
	char		 buf[PROTO_SCAN_MAX];
	ssize_t		 n = 0;
	int		 more;

	if (pending < sizeof buf) {
		n = read(event_get_fd(c->rev), buf, sizeof buf - pending);
		if (n == 0) {
			server_client_eof(c);
			return;
		}
		if (n == -1 && errno != EAGAIN && errno != EINTR) {
			server_client_free(c);	/* reset */
			return;
		}
		if (n > 0)
			c->server->lobby.stats.bytes_in += (uint64_t)n;
	}
	if (pending == 0 && n > 0) {
		used = conn_input_bytes(c, buf, (size_t)n, &more);
		if (used < (size_t)n &&
		    evbuffer_add(in, buf + used, (size_t)n - used) == -1)
			goto nomem;
	} else {
		if (n > 0 && evbuffer_add(in, buf, (size_t)n) == -1)
			goto nomem;
		more = conn_input(c, in);
	}
	if (more)
		event_active(c->rev, EV_READ, 0);
	return;

nomem:
	/* Bytes lost would splice two lines into one: end it instead. */
	log_warn("client %llu: out of memory for its input, closing",
	    (unsigned long long)c->id);
	server_client_free(c);
}

/*
 * The peer closed its side: leave the game now (the opponent is told at
 * once), but still answer the lines it sent and deliver what is queued
 * before closing.
 */
static void
server_client_eof(struct client *c)
{
	while (conn_input(c, c->in))
		;
	if (c->flags & CLIENT_CLOSING)
		return;			/* its last line closed it (QUIT) */
	session_lost(c);
	c->flags |= CLIENT_CLOSING;
	server_client_close(c);
}

/* The client's timer: run what is due, then aim at the next deadline. */
static void
server_client_timer_cb(evutil_socket_t fd, short what, void *arg)
{
	struct client	*c = arg;
	struct server	*s = c->server;

	(void)fd;
	(void)what;
	if (c->flags & CLIENT_CLOSING)
		server_client_closing(c);
	else {
		conn_timer(c);
		server_client_rearm(c);
	}
	server_client_flush_all(s);
}

/*
 * A closing connection's timer: leave the match now, so that the opponent
 * is told without waiting for the flush; free at the close deadline.
 */
static void
server_client_closing(struct client *c)
{
	session_lost(c);
	if (server_client_now() >= c->close_by)
		server_client_free(c);
	else
		server_client_aim(c->timer, c->close_by);
}

/* Aim a timer at a time on the monotonic clock (ms), or stop it at 0. */
static void
server_client_aim(struct event *timer, int64_t at)
{
	int64_t		ms = at - server_client_now();
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

/* The lobby's timer op: aim the timer at the next deadline, or stop it. */
static void
server_client_rearm(struct client *c)
{
	if (c->flags & CLIENT_CLOSING)
		return;		/* the timer is server_client_closing's now */
	server_client_aim(c->timer, conn_next_deadline(c));
}

/*
 * Writable again, or (closing) no progress for the linger time: write the
 * rest.  A write error or the timeout ends the connection at once; once
 * all is out, a closing connection lingers.
 */
static void
server_client_write_cb(evutil_socket_t fd, short what, void *arg)
{
	struct client	*c = arg;
	struct server	*s = c->server;

	if ((what & EV_TIMEOUT) || (evbuffer_write(c->out, fd) == -1 &&
	    errno != EAGAIN && errno != EINTR))
		server_client_free(c);
	else if (evbuffer_get_length(c->out) == 0) {
		event_del(c->wev);
		if (c->flags & CLIENT_CLOSING)
			server_client_linger(c);
	}
	server_client_flush_all(s);
}

/* The lobby's random op: the OS random source (codes, tokens). */
static void
server_client_random(void *buf, size_t len)
{
	if (getentropy(buf, len) == -1)
		fatalx("getentropy failed");
}

/* The lobby's wake op: aim the lobby's timer at its next deadline. */
static void
server_client_wake(struct lobby *lobby)
{
	struct server	*s = (struct server *)(void *)((char *)lobby -
			    offsetof(struct server, lobby));

	if (s->lobby_timer != NULL)
		server_client_aim(s->lobby_timer, lobby_next_deadline(lobby));
}

/* The lobby's timer: grace periods that ran out. */
void
server_client_lobby_cb(evutil_socket_t fd, short what, void *arg)
{
	struct server	*s = arg;

	(void)fd;
	(void)what;
	lobby_expire(&s->lobby);
	server_client_flush_all(s);
}
