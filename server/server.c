/*
 * server.c -- the event base, the listeners, signals and shutdown.
 */
#include <sys/socket.h>
#include <sys/types.h>

#include <netinet/in.h>

#include <errno.h>
#include <netdb.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>
#include <event2/listener.h>
#include <event2/util.h>

#include "accounts.h"
#include "cluster.h"
#include "counters.h"
#include "log.h"
#include "server.h"
#include "session.h"

static void	server_accept_cb(struct evconnlistener *, evutil_socket_t,
		    struct sockaddr *, int, void *);
static void	server_accept_http_cb(struct evconnlistener *, evutil_socket_t,
		    struct sockaddr *, int, void *);
static void	server_accept_error_cb(struct evconnlistener *, void *);
static void	server_accept_resume_cb(evutil_socket_t, short, void *);
static void	server_signal_cb(evutil_socket_t, short, void *);
static void	server_log_counters(struct server *);
static void	server_deadline_cb(evutil_socket_t, short, void *);
static struct evconnlistener *server_listen_on(struct server *,
		    struct addrinfo *, int, int, int *);
static int	server_listen_absent(int);
static int	server_listen_try(struct server *,
		    const struct server_config *, int, struct addrinfo *,
		    int *, struct addrinfo **);
static void	server_announce(struct server *);
static void	server_unlisten(struct server *);
static void	server_unlisten_some(struct server *, int);
static int	server_listen(struct server *, const struct server_config *,
		    int);
static int	server_bound_port(struct evconnlistener *);
static uint64_t	server_random(void);
static int	server_join(struct server *, const struct server_config *);
static int	server_accounts(struct server *, const struct server_config *);
static void	server_hold_out_cb(void *, struct client *);
static void	server_release_out_cb(void *, struct client *);
static void	server_flush_cb(void *);
static void	server_drained_cb(void *, int);
static void	server_left_cb(void *);
static int	server_services_start(struct server *);
static void	server_service_added(struct server *);
static void	server_services_shutdown(struct server *);
static int64_t	server_now(void);
static void	server_entropy(void *, size_t);
static void	server_wake(struct lobby *);
static void	server_lobby_cb(evutil_socket_t, short, void *);

/* What the world needs of the daemon. */
static const struct lobby_host server_host = {
	server_now,
	server_entropy,
	server_wake
};

/*
 * A new connection, game (http 0) or HTTP: to server-client.c, of its
 * kind; from a balancer of --proxy-from, its PROXY header first
 * (server-proxy.c).
 */
static void
server_accept(struct server *s, evutil_socket_t fd, struct sockaddr *sa,
    int len, int http)
{
	const struct server_client_io	*io = http ? &server_web_io :
					    &server_client_tcp_io;

	if (s->accept_starved)
		log_info("accepting connections again");
	s->accept_starved = 0;
	if (s->proxy_from.n > 0 && proxy_nets_match(&s->proxy_from, sa))
		server_proxy_accept(s, fd, sa, io);
	else
		server_client_accept(s, fd, sa, len, io);
	server_client_flush_all(s);
}

/* A new connection on the game port. */
static void
server_accept_cb(struct evconnlistener *l, evutil_socket_t fd,
    struct sockaddr *sa, int len, void *arg)
{
	(void)l;
	server_accept(arg, fd, sa, len, 0);
}

/* A new connection on --http-port: an HTTP request, or a WebSocket. */
static void
server_accept_http_cb(struct evconnlistener *l, evutil_socket_t fd,
    struct sockaddr *sa, int len, void *arg)
{
	(void)l;
	server_accept(arg, fd, sa, len, 1);
}

/*
 * accept failed.  Out of descriptors or memory, libevent would call this
 * again at once, forever: pause the listeners for a moment instead (once
 * per burst in the log) and keep serving the open connections.
 */
static void
server_accept_error_cb(struct evconnlistener *l, void *arg)
{
	struct server	*s = arg;
	int		 err = EVUTIL_SOCKET_ERROR(), i;
	struct timeval	 tv = { 0, SERVER_ACCEPT_PAUSE_MS * 1000 };

	(void)l;
	if (err != EMFILE && err != ENFILE && err != ENOBUFS &&
	    err != ENOMEM) {
		log_warn("accept: %s", evutil_socket_error_to_string(err));
		return;
	}
	if (!s->accept_starved)
		log_warn("accept: %s: pausing new connections",
		    evutil_socket_error_to_string(err));
	s->accept_starved = 1;
	for (i = 0; i < s->nlisteners; i++)
		evconnlistener_disable(s->listeners[i]);
	for (i = 0; i < s->nhttp_listeners; i++)
		evconnlistener_disable(s->http_listeners[i]);
	evtimer_add(s->accept_timer, &tv);
}

/* The pause after running out of descriptors is over: accept again. */
static void
server_accept_resume_cb(evutil_socket_t fd, short what, void *arg)
{
	struct server	*s = arg;
	int		 i;

	(void)fd;
	(void)what;
	for (i = 0; i < s->nlisteners; i++)
		evconnlistener_enable(s->listeners[i]);
	for (i = 0; i < s->nhttp_listeners; i++)
		evconnlistener_enable(s->http_listeners[i]);
}

/* The signals tttd handles (server_signal_cb); any other has its default. */
static const int server_signals[SERVER_NSIGNALS] = {
	SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2
};

/*
 * SIGINT or SIGTERM: stop.  SIGHUP: the log is standard error, so there is
 * nothing to reopen; carry on (closing the terminal tttd runs in must not
 * end the games).  SIGUSR1: the counters of STATS to the log.  SIGUSR2:
 * drain (in a cluster: hand the matches to the other nodes, then stop;
 * alone, ignored).
 */
static void
server_signal_cb(evutil_socket_t sig, short what, void *arg)
{
	struct server	*s = arg;

	(void)what;
	switch (sig) {
	case SIGHUP:
		log_info("SIGHUP: the log is standard error, nothing to reopen");
		break;
	case SIGUSR1:
		log_info("SIGUSR1: the counters of STATS");
		server_log_counters(s);
		break;
	case SIGUSR2:
		if (s->cluster == NULL) {
			log_warn("SIGUSR2: no cluster (--redis) to hand the "
			    "matches to: ignored");
			break;
		}
		log_info("SIGUSR2: draining");
		server_drain(s);
		break;
	default:
		log_info("signal %d: shutting down", (int)sig);
		server_shutdown(s);
		break;
	}
}

/* Write the counters to the log, as STATS sends them: "STAT name value". */
static void
server_log_counters(struct server *s)
{
	struct counter	ctr[COUNTERS_MAX];
	size_t		i, n;

	n = counters_get(&s->lobby, ctr, COUNTERS_MAX);
	for (i = 0; i < n; i++)
		log_info("STAT %s %llu", ctr[i].name, ctr[i].value);
}

/* Peers took too long to go after BYE: stop anyway. */
static void
server_deadline_cb(evutil_socket_t fd, short what, void *arg)
{
	struct server	*s = arg;

	(void)fd;
	(void)what;
	event_base_loopbreak(s->base);
}

/* The port a listener is bound to. */
static int
server_bound_port(struct evconnlistener *l)
{
	struct sockaddr_storage	ss;
	socklen_t		len = sizeof ss;

	if (getsockname(evconnlistener_get_fd(l), (struct sockaddr *)&ss,
	    &len) == -1)
		return (-1);
	if (ss.ss_family == AF_INET6)
		return (ntohs(((struct sockaddr_in6 *)&ss)->sin6_port));
	return (ntohs(((struct sockaddr_in *)&ss)->sin_port));
}

/*
 * Bind one listener to an address and port, for players or (http) for
 * HTTP: NULL on failure, with the reason in *err.
 */
static struct evconnlistener *
server_listen_on(struct server *s, struct addrinfo *ai, int port, int http,
    int *err)
{
	struct evconnlistener	*l;
	unsigned		 flags = LEV_OPT_CLOSE_ON_FREE |
				    LEV_OPT_CLOSE_ON_EXEC | LEV_OPT_REUSEABLE;

	if (ai->ai_family == AF_INET6) {
		((struct sockaddr_in6 *)ai->ai_addr)->sin6_port =
		    htons((uint16_t)port);
		flags |= LEV_OPT_BIND_IPV6ONLY;
	} else if (ai->ai_family == AF_INET)
		((struct sockaddr_in *)ai->ai_addr)->sin_port =
		    htons((uint16_t)port);
	l = evconnlistener_new_bind(s->base, http ? server_accept_http_cb :
	    server_accept_cb, s, flags,
	    SERVER_BACKLOG, ai->ai_addr, (int)ai->ai_addrlen);
	if (l == NULL) {
		*err = EVUTIL_SOCKET_ERROR();
		return (NULL);
	}
	evconnlistener_set_error_cb(l, server_accept_error_cb);
	return (l);
}

/*
 * Does the error say that the host lacks the address or its family (IPv6
 * on a host without it), rather than that listening failed?
 */
static int
server_listen_absent(int err)
{
	return (err == EAFNOSUPPORT || err == EPROTONOSUPPORT ||
	    err == EADDRNOTAVAIL);
}

/*
 * One try at listening on every address of res, or with --bind on its
 * first one the host has: 0 (the port in *port, the first address in
 * *first), -1 (logged), or 1 when --port 0 picked a port on the first
 * address that is taken on another one, to try again.  The game port, or
 * (http) --http-port.
 */
static int
server_listen_try(struct server *s, const struct server_config *cfg,
    int http, struct addrinfo *res, int *port, struct addrinfo **first)
{
	struct addrinfo		 *ai;
	struct evconnlistener	 *l;
	struct evconnlistener	**ls = http ? s->http_listeners : s->listeners;
	int			 *nls = http ? &s->nhttp_listeners :
				     &s->nlisteners;
	char			  host[NI_MAXHOST];
	int			  err = 0, want = http ? (cfg->http_port ==
				     SERVER_HTTP_ANY ? 0 : cfg->http_port) :
				     cfg->port, p = want;

	*first = NULL;
	for (ai = res; ai != NULL && *nls < SERVER_MAX_LISTENERS;
	    ai = ai->ai_next) {
		if ((l = server_listen_on(s, ai, p, http, &err)) == NULL) {
			if (getnameinfo(ai->ai_addr, ai->ai_addrlen, host,
			    sizeof host, NULL, 0, NI_NUMERICHOST) != 0)
				snprintf(host, sizeof host, "?");
			if (server_listen_absent(err)) {
				log_info("not listening on %s: %s", host,
				    evutil_socket_error_to_string(err));
				continue;
			}
			if (want == 0 && p != 0 && err == EADDRINUSE)
				return (1);
			log_error("cannot listen on %s port %d: %s", host, p,
			    evutil_socket_error_to_string(err));
			return (-1);
		}
		ls[(*nls)++] = l;
		if (p == 0)
			p = server_bound_port(l);
		if (*first == NULL)
			*first = ai;
		if (cfg->bind != NULL)
			break;
	}
	*port = p;
	return (0);
}

/* Close the listeners of one port (http: --http-port's). */
static void
server_unlisten_some(struct server *s, int http)
{
	struct evconnlistener	**ls = http ? s->http_listeners : s->listeners;
	int			 *nls = http ? &s->nhttp_listeners :
				     &s->nlisteners, i;

	for (i = 0; i < *nls; i++)
		evconnlistener_free(ls[i]);
	*nls = 0;
}

/* Close the listeners, of both ports. */
static void
server_unlisten(struct server *s)
{
	server_unlisten_some(s, 0);
	server_unlisten_some(s, 1);
}

/*
 * Listen on --bind, or on every IPv4 and IPv6 address when it is not
 * given: on all of them or on none.  Only an address the host lacks (IPv6
 * on a host without it) is skipped; any other failure (the port taken on
 * one of them, say) ends tttd, for a server that half listens refuses
 * whole families of players.  With --port 0, the first listener picks a
 * free port and the others take the same one, or all try again.  Where,
 * for server_announce, in s->where: "*:4000", or "[::1]:4000" with --bind.
 */
static int
server_listen(struct server *s, const struct server_config *cfg, int http)
{
	struct addrinfo		 hints, *res, *first = NULL;
	char			 port[16], host[NI_MAXHOST];
	char			*where = s->where[http ? 1 : 0];
	int			 rc, p = http ? cfg->http_port : cfg->port, tries = 0;
	int			*nls = http ? &s->nhttp_listeners : &s->nlisteners;

	memset(&hints, 0, sizeof hints);
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
	if (p == SERVER_HTTP_ANY)
		p = 0;
	snprintf(port, sizeof port, "%d", p);
	if ((rc = getaddrinfo(cfg->bind, port, &hints, &res)) != 0) {
		log_error("--bind %s: %s", cfg->bind ? cfg->bind : "*",
		    gai_strerror(rc));
		return (-1);
	}
	while ((rc = server_listen_try(s, cfg, http, res, &p, &first)) == 1) {
		server_unlisten_some(s, http);
		if (++tries == SERVER_LISTEN_TRIES) {
			log_error("cannot listen on one free port on every "
			    "address after %d tries", tries);
			rc = -1;
			break;
		}
	}
	if (rc == 0 && *nls == 0) {
		log_error("nothing to listen on");
		rc = -1;
	}
	if (rc == 0 && cfg->bind != NULL) {
		if (getnameinfo(first->ai_addr, first->ai_addrlen, host,
		    sizeof host, NULL, 0, NI_NUMERICHOST) != 0)
			snprintf(host, sizeof host, "%s", cfg->bind);
		snprintf(where, SERVER_WHERE_MAX, first->ai_family ==
		    AF_INET6 ? "[%s]:%d" : "%s:%d", host, p);
	} else if (rc == 0)
		snprintf(where, SERVER_WHERE_MAX, "*:%d", p);
	freeaddrinfo(res);
	return (rc != 0 ? -1 : 0);
}

/*
 * Every listener is up and, with --redis, the node's name is its own:
 * print and log the start-up lines, "listening on" first (tests and
 * scripts read the port from it), then --http-port's "http on".  A start
 * that fails prints none, only its reason to the log.
 */
static void
server_announce(struct server *s)
{
	printf("tttd %s listening on %s\n", TTTD_VERSION, s->where[0]);
	log_info("listening on %s", s->where[0]);
	if (s->nhttp_listeners > 0) {
		printf("tttd %s http on %s\n", TTTD_VERSION, s->where[1]);
		log_info("http on %s: the page at /, a WebSocket at /ws",
		    s->where[1]);
	}
	fflush(stdout);
}

/* 64 unpredictable bits, for hash keys (the clock if the kernel fails). */
static uint64_t
server_random(void)
{
	uint64_t	r;

	if (getentropy(&r, sizeof r) == -1)
		r = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	return (r);
}

/* The lobby's now op: milliseconds on the monotonic clock. */
static int64_t
server_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

/* The lobby's random op: the OS random source (codes, tokens). */
static void
server_entropy(void *buf, size_t len)
{
	if (getentropy(buf, len) == -1)
		fatalx("getentropy failed");
}

/* The lobby's wake op: aim the lobby's timer at its next deadline. */
static void
server_wake(struct lobby *lobby)
{
	struct server	*s = (struct server *)(void *)((char *)lobby -
			    offsetof(struct server, lobby));

	if (s->lobby_timer != NULL)
		server_client_aim(s, s->lobby_timer,
		    lobby_next_deadline(lobby));
}

/* The lobby's timer: grace periods that ran out, new players to pair. */
static void
server_lobby_cb(evutil_socket_t fd, short what, void *arg)
{
	struct server	*s = arg;

	(void)fd;
	(void)what;
	if (s->frozen)
		return;
	lobby_expire(&s->lobby);
	server_client_flush_all(s);
}

/* Set up the event base, the listeners and the signal events. */
int
server_init(struct server *s, const struct server_config *cfg)
{
	struct timespec	 ts;
	const char	*why;
	int		 i;

	memset(s, 0, sizeof *s);
	TAILQ_INIT(&s->clients);
	TAILQ_INIT(&s->dirty);
	TAILQ_INIT(&s->corked);
	if (server_stage_init(s) == -1)
		log_warn("no memory to stage output: each reply buffered alone");
	s->bye = SESSION_SHUTDOWN;
	s->next_client_id = 1;
	s->max_clients = cfg->max_clients;
	s->max_per_addr = cfg->max_per_addr;
	s->output_max = cfg->output_max;
	if (cfg->proxy_from != NULL && proxy_nets_parse(&s->proxy_from,
	    cfg->proxy_from, &why) == -1) {
		log_error("bad --proxy-from \"%s\": %s", cfg->proxy_from, why);
		return (-1);
	}
	if (lobby_init(&s->lobby, &server_host, &cfg->limits,
	    cfg->seed) == -1 || addrtab_init(&s->peers, server_random()) == -1) {
		log_error("out of memory");
		return (-1);
	}
	clock_gettime(CLOCK_REALTIME, &ts);
	s->lobby.stats.started_wall = (int64_t)ts.tv_sec * 1000 +
	    ts.tv_nsec / 1000000;
	if ((s->base = event_base_new()) == NULL) {
		log_error("event_base_new failed");
		return (-1);
	}
	for (i = 0; i < SERVER_NSIGNALS; i++) {
		s->signals[i] = evsignal_new(s->base, server_signals[i],
		    server_signal_cb, s);
		if (s->signals[i] == NULL || event_add(s->signals[i],
		    NULL) == -1)
			return (-1);
	}
	s->shutdown_timer = evtimer_new(s->base, server_deadline_cb, s);
	s->accept_timer = evtimer_new(s->base, server_accept_resume_cb, s);
	s->lobby_timer = evtimer_new(s->base, server_lobby_cb, s);
	if (s->shutdown_timer == NULL || s->accept_timer == NULL ||
	    s->lobby_timer == NULL)
		return (-1);
	/*
	 * The accounts before the cluster: their listener hears a NAME
	 * first, and passes a name no account has on to the other nodes.
	 */
	if (server_listen(s, cfg, 0) == -1 ||
	    (cfg->http_port != 0 && server_listen(s, cfg, 1) == -1) ||
	    (cfg->db != NULL && server_accounts(s, cfg) == -1) ||
	    (cfg->redis != NULL && server_join(s, cfg) == -1) ||
	    server_services_start(s) == -1)
		return (-1);
	server_announce(s);
	return (0);
}

/* The cluster of --redis; the node's name is HOSTNAME:PORT by default. */
static int
server_join(struct server *s, const struct server_config *cfg)
{
	struct cluster_config	 cc;
	struct cluster_host	 host = { server_flush_cb,
				    server_client_cork_cb,
				    server_client_cork_due_cb,
				    server_client_uncork_cb,
				    server_client_restart_cb, server_drained_cb,
				    s };
	char			 ip[64], node[CLUSTER_NODE_MAX + 1];
	char			 hostname[CLUSTER_NODE_MAX + 1];
	int			 port;

	if (cluster_parse_addr(cfg->redis, ip, sizeof ip, &port) == -1)
		return (-1);		/* options.c checked it */
	if (cfg->node == NULL) {
		if (gethostname(hostname, sizeof hostname) == -1)
			snprintf(hostname, sizeof hostname, "tttd");
		hostname[sizeof hostname - 1] = '\0';
		snprintf(node, sizeof node, "%.57s:%d", hostname,
		    server_bound_port(s->listeners[0]));
		if (!cluster_valid_name(node)) {
			log_error("the host name \"%s\" makes no node name: "
			    "give one with --node", hostname);
			return (-1);
		}
	} else
		snprintf(node, sizeof node, "%s", cfg->node);
	cc.redis_ip = ip;
	cc.redis_port = port;
	cc.node = node;
	cc.prefix = cfg->redis_prefix;
	cc.node_timeout = cfg->node_timeout;
	if ((s->cluster = cluster_new(s->base, &s->lobby, &cc, &host)) == NULL)
		return (-1);
	cluster_service(s->cluster, &s->services[s->nservices++]);
	server_service_added(s);
	return (0);
}

/* The accounts of --db: a file that will not do ends the daemon. */
static int
server_accounts(struct server *s, const struct server_config *cfg)
{
	struct accounts_host	host = { server_flush_cb, server_hold_out_cb,
				    server_release_out_cb, s };
	char			why[256];

	if ((s->accounts = accounts_new(s->base, &s->lobby, cfg->db, &host,
	    why, sizeof why)) == NULL) {
		log_error("--db: %s", why);
		return (-1);
	}
	accounts_service(s->accounts, &s->services[s->nservices++]);
	server_service_added(s);
	return (0);
}

/*
 * The service just added: its flush, if it has one, is listed for the
 * end of each callback (a service without one costs that nothing).
 */
static void
server_service_added(struct server *s)
{
	struct service	*svc = &s->services[s->nservices - 1];

	if (svc->flush == NULL)
		return;
	s->flush[s->nflush] = svc->flush;
	s->flush_arg[s->nflush++] = svc->arg;
}

/* The accounts' hold: a player's output waits for a commit. */
static void
server_hold_out_cb(void *arg, struct client *c)
{
	(void)arg;
	if (c->flags & CLIENT_REMOTE)
		cluster_seat_hold_out(c);	/* its lines, to its node */
	else
		server_client_hold_out(c);
}

static void
server_release_out_cb(void *arg, struct client *c)
{
	(void)arg;
	if (c->flags & CLIENT_REMOTE)
		cluster_seat_release_out(c);
	else
		server_client_release_out(c);
}

/* The cluster's flush: what the world sent, out. */
static void
server_flush_cb(void *arg)
{
	server_client_flush_all(arg);
}

/*
 * Draining: the matches are given to the other nodes (the world stands
 * still: no line read, no clock run), then taken (every player told to
 * come back, and the end).
 */
static void
server_drained_cb(void *arg, int done)
{
	struct server	*s = arg;

	if (!done) {
		s->frozen = 1;
		return;
	}
	s->bye = SESSION_RESTART;
	server_shutdown(s);
}

/* Start the services beside the world: 0, or -1 when one cannot. */
static int
server_services_start(struct server *s)
{
	unsigned	i;

	for (i = 0; i < s->nservices; i++) {
		if (s->services[i].start(s->services[i].arg) == -1)
			return (-1);
	}
	return (0);
}

/*
 * Stopping: a service's last write is taken (the cluster's: Redis forgot
 * this node's matches); the end, if nobody and nothing else is left.
 */
static void
server_left_cb(void *arg)
{
	struct server	*s = arg;

	s->nleaving--;
	if (s->shutting_down && s->nclients == 0 && s->nleaving == 0)
		event_base_loopbreak(s->base);
}

/* Stopping: each service, counted while its last writes are not taken. */
static void
server_services_shutdown(struct server *s)
{
	unsigned	i;

	for (i = 0; i < s->nservices; i++) {
		if (s->services[i].shutdown(s->services[i].arg, server_left_cb,
		    s))
			s->nleaving++;
	}
}

/*
 * SIGUSR2 in a cluster: accept no one more, and hand the matches over
 * (cluster-drain.c), which ends in server_drained_cb.
 */
void
server_drain(struct server *s)
{
	if (s->shutting_down)
		return;
	server_unlisten(s);
	evtimer_del(s->accept_timer);
	cluster_drain(s->cluster);
}

/* Run until shut down. */
int
server_run(struct server *s)
{
	return (event_base_dispatch(s->base) == -1 ? -1 : 0);
}

/*
 * Stop accepting, send every client BYE and close it.  The loop ends when
 * the last connection is gone, or after SERVER_SHUTDOWN_MS at the latest.
 */
void
server_shutdown(struct server *s)
{
	struct server_client	*sc;
	struct timeval		 tv = { SERVER_SHUTDOWN_MS / 1000,
				    (SERVER_SHUTDOWN_MS % 1000) * 1000 };

	if (s->shutting_down)
		return;
	s->shutting_down = 1;
	server_unlisten(s);
	evtimer_del(s->accept_timer);
	evtimer_add(s->shutdown_timer, &tv);
	if (s->nclients == 0) {
		server_services_shutdown(s);	/* their answers end the loop */
		if (s->nleaving == 0)
			event_base_loopbreak(s->base);
		return;
	}
	if (s->frozen) {
		server_client_shutdown_all(s);	/* drained */
		return;
	}
	TAILQ_FOREACH(sc, &s->clients, entry)
		server_client_shutdown(sc);
	server_services_shutdown(s);
}

/* Free everything, connections first. */
void
server_free(struct server *s)
{
	struct server_client	*sc;
	int			 i;

	while ((sc = TAILQ_FIRST(&s->clients)) != NULL)
		server_client_free(sc);
	s->nflush = 0;
	while (s->nservices > 0) {
		s->nservices--;
		s->services[s->nservices].free(s->services[s->nservices].arg);
	}
	s->cluster = NULL;
	s->accounts = NULL;
	lobby_free(&s->lobby);
	addrtab_free(&s->peers);
	server_stage_free(s);
	server_unlisten(s);
	for (i = 0; i < SERVER_NSIGNALS; i++) {
		if (s->signals[i] != NULL)
			event_free(s->signals[i]);
	}
	if (s->shutdown_timer != NULL)
		event_free(s->shutdown_timer);
	if (s->accept_timer != NULL)
		event_free(s->accept_timer);
	if (s->lobby_timer != NULL)
		event_free(s->lobby_timer);
	if (s->base != NULL)
		event_base_free(s->base);
}
