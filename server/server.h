/*
 * server.h -- the daemon: listeners, connections, signals, shutdown.
 */
#ifndef SERVER_H
#define SERVER_H

#include <sys/socket.h>

#include <stddef.h>
#include <stdint.h>

#include "addrtab.h"
#include "client.h"
#include "lobby.h"
#include "proxy.h"
#include "service.h"

/* A connection's own state, apart from the client inside it. */
#define SERVER_CLIENT_LINGER	0x1	/* flushed and shut down; draining */
#define SERVER_CLIENT_NOSEAT	0x2	/* refused or closing: holds no
					   player slot */
#define SERVER_CLIENT_REFUSED	0x4	/* refused: ERR, then closed */
#define SERVER_CLIENT_DIRTY	0x8	/* output queued since the last flush */
#define SERVER_CLIENT_BYE	0x20	/* drained: told, to be closed */
#define SERVER_CLIENT_CORKED	0x10	/* output held until the cluster has
					   kept its match (server.corked) */

#define SERVER_MAX_LISTENERS	8	/* of each port */
#define SERVER_WHERE_MAX	96	/* "[numeric IPv6%scope]:port" */
#define SERVER_HTTP_PORT	8080	/* default --http-port */
#define SERVER_HTTP_ANY		(-1)	/* --http-port any: a free port */
#define SERVER_HTTP_READ	4096	/* bytes read at once, HTTP or a
					   WebSocket */
#define SERVER_LISTEN_TRIES	8	/* --port 0: ports tried, free on
					   every address */
#define SERVER_NSIGNALS		5	/* INT, TERM, HUP, USR1, USR2 */
#define SERVER_BACKLOG		1024	/* listen(2) queue */
#define SERVER_MAX_CLIENTS	10000	/* default --max-clients */
#define SERVER_MAX_PER_ADDR	64	/* default --max-per-addr */
#define SERVER_OUTPUT_MAX	65536	/* default --max-output: pending more
					   means the peer is not reading */
#define SERVER_STAGE_MAX	65536	/* output staged in one callback,
					   all connections together
					   (server-stage.c) */
#define SERVER_STAGE_SEGS	4	/* pieces of one connection's */
#define SERVER_NOTSENT		32768	/* TCP_NOTSENT_LOWAT of a player's
					   socket: lines the kernel keeps
					   unsent; --max-output is for
					   lines not yet written */
#define SERVER_RCVBUF		16384	/* SO_RCVBUF of a player's socket
					   (which the kernel doubles): 63 whole lines */
#define SERVER_LINGER_MS	2000	/* draining input after the last line */
#define SERVER_LINGER_MAX	65536	/* input drained before giving up */
#define SERVER_CLOSE_MS		(2 * SERVER_LINGER_MS)	/* closing, at most:
					   flushing, then lingering */
#define SERVER_REFUSED_MAX	64	/* refused, still flushing: more are
					   told in one send(2) and closed */
#define SERVER_SHUTDOWN_MS	1000	/* the most a shutdown waits for peers */
#define SERVER_ACCEPT_PAUSE_MS	100	/* listeners rest when out of fds */
#define SERVER_MAX_SERVICES	2	/* beside the world: the cluster,
					   the accounts */
#define SERVER_DB		"tttd.db"	/* default --db */

struct event_base;
struct evconnlistener;
struct event;
struct evbuffer;
struct server;
struct tn;
struct http_req;
struct ws;
struct cluster;
struct accounts;
struct accounts_read;

struct server_client;

/*
 * What a kind of connection does of its own (server-client.c: a player's
 * lines; server-web.c: an HTTP request, then maybe a WebSocket player).
 */
struct server_client_io {
	/* Accepted: begin; or, why not PROTO_OK, refuse it (then close). */
	void		(*open)(struct server_client *, enum proto_error);
	/* Readable: read what is there and act on it (it may be freed). */
	void		(*read)(struct server_client *);
	/* Its timer fired, not closing. */
	void		(*due)(struct server_client *);
	/* Freed: what it holds of its own (NULL: nothing). */
	void		(*discard)(struct server_client *);
	/* Refused at once (SERVER_REFUSED_MAX): these bytes; NULL: ERR. */
	const char	*busy;
};

/*
 * One connection (server-client.c): the seat layer's client, first, so
 * that the client's ops find the connection, and what its socket needs.
 */
struct server_client {
	struct client		 c;
	const struct server_client_io *io;	/* its kind's */
	int			 flags;		/* SERVER_CLIENT_* */
	struct server		*server;
	struct event		*rev;		/* readable (EV_PERSIST) */
	struct event		*wev;		/* writable, while out is stuck */
	struct evbuffer		*out;		/* not yet written */
	struct evbuffer		*in;		/* at most one line, pending */
	struct tn		*telnet;	/* once the client speaks it */
	struct http_req		*http;		/* --http-port: the request
						   being read */
	struct ws		*ws;		/* after GET /ws */
	struct accounts_read	*api;		/* a JSON API request's read,
						   until answered (api.c) */
	struct event		*timer;		/* the next deadline */
	int64_t			 close_by;	/* ms, closing */
	int64_t			 linger_until;	/* ms, SERVER_CLIENT_LINGER */
	size_t			 linger_drained; /* bytes, lingering */
	TAILQ_ENTRY(server_client) entry;	/* all connections */
	TAILQ_ENTRY(server_client) dirty_entry;	/* output to flush */
	const struct server_client_io *proxied;	/* --proxy-from: the kind
						   it is once its PROXY
						   header is read */
	uint64_t		 cork_seq;	/* corked until this save is
						   answered */
	unsigned		 out_holds;	/* output held until the
						   accounts' commits (rated
						   results) are answered */
	TAILQ_ENTRY(server_client) cork_entry;	/* server.corked */
	/* Its output of this callback, in server.stage (server-stage.c):
	   pieces of the one arena, while out is empty. */
	struct server_stage_seg {
		uint32_t	 off;
		uint32_t	 len;
	}			 seg[SERVER_STAGE_SEGS];
	unsigned		 nseg;
};
TAILQ_HEAD(server_client_list, server_client);

/* The connection a client of the seat layer is: it comes first in it. */
_Static_assert(offsetof(struct server_client, c) == 0,
    "struct server_client begins with its client");
static inline struct server_client *
server_client_of(struct client *c)
{
	return ((struct server_client *)(void *)c);
}

struct server_config {
	const char	*bind;		/* NULL = every address */
	int		 port;
	int		 http_port;	/* 0 = off; SERVER_HTTP_ANY: a free one */
	uint64_t	 seed;
	int		 seed_given;	/* else it is random */
	int		 log_level;	/* enum log_level */
	unsigned	 max_clients;	/* players at once; more are refused */
	unsigned	 max_per_addr;	/* players from one address; 0 = any */
	size_t		 output_max;	/* pending output bytes per client */
	struct lobby_limits limits;	/* time limits, rate limit */
	const char	*redis;		/* --redis IP:PORT; NULL = alone */
	const char	*node;		/* NULL = HOSTNAME:PORT */
	const char	*redis_prefix;
	int64_t		 node_timeout;	/* ms: --node-timeout */
	const char	*db;		/* --db PATH; NULL: no accounts */
	const char	*proxy_from;	/* --proxy-from CIDR,...; NULL: none */
};

struct server {
	struct event_base	*base;
	struct evconnlistener	*listeners[SERVER_MAX_LISTENERS];
	int			 nlisteners;
	struct evconnlistener	*http_listeners[SERVER_MAX_LISTENERS];
	int			 nhttp_listeners;
	char			 where[2][SERVER_WHERE_MAX]; /* "*:4000", of
						   the game port, --http-port */
	struct event		*signals[SERVER_NSIGNALS]; /* server.c's
						   server_signals */
	struct event		*shutdown_timer;
	struct event		*accept_timer;	/* resumes paused listeners */
	struct event		*lobby_timer;	/* the lobby's deadlines */
	int			 accept_starved; /* out of fds since last accept */
	int			 shutting_down;

	struct lobby		 lobby;
	struct cluster		*cluster;	/* --redis; NULL = alone */
	struct accounts		*accounts;	/* --db; NULL = none */
	struct service		 services[SERVER_MAX_SERVICES];
	unsigned		 nservices;
	/* The services' flushes that are not NULL, called at each
	   callback's end (server_client_flush_all). */
	void			(*flush[SERVER_MAX_SERVICES])(void *);
	void			*flush_arg[SERVER_MAX_SERVICES];
	unsigned		 nflush;
	unsigned		 nleaving;	/* services stopping, not done */
	struct server_client_list clients;
	struct server_client_list dirty;	/* output to write out */
	char			*stage;		/* SERVER_STAGE_MAX bytes: this
						   callback's output, until
						   flushed; NULL: none */
	size_t			 stage_used;
	struct server_client_list corked;	/* by cork_seq */
	int			 frozen;	/* drained: the world stands
						   still until the end */
	const char		*bye;		/* BYE's text at the end */
	unsigned		 nclients;	/* connections, refused too */
	unsigned		 nrefused;	/* refused, not yet closed */
	unsigned		 nrefused_fast;	/* closed at once, not logged yet */
	int64_t			 refused_logged;	/* ms */
	unsigned		 max_clients;
	unsigned		 max_per_addr;
	size_t			 output_max;
	struct addrtab		 peers;		/* players per address */
	struct proxy_nets	 proxy_from;	/* balancers: PROXY headers */
	uint64_t		 next_client_id;
};

int	server_init(struct server *, const struct server_config *);
int	server_run(struct server *);
void	server_free(struct server *);
void	server_shutdown(struct server *);
void	server_drain(struct server *);

/* server-client.c */
extern const struct server_client_io server_client_tcp_io;
void	server_client_accept(struct server *, int, struct sockaddr *, int,
	    const struct server_client_io *);
struct server_client *server_client_new(struct server *, int,
	    const struct sockaddr *);
void	server_client_start(struct server_client *,
	    const struct server_client_io *);
void	server_client_addr(const struct sockaddr *, char *, size_t);
void	server_client_out(struct server_client *, const char *, size_t);
void	server_client_out_cb(void *, const char *, size_t);
void	server_client_shut(struct server_client *);
void	server_client_due(struct server_client *);
void	server_client_rearm(struct client *, int64_t);
void	server_client_hold(struct client *, int);
void	server_client_shutdown(struct server_client *);
void	server_client_shutdown_all(struct server *);
void	server_client_free(struct server_client *);
void	server_client_flush_all(struct server *);
void	server_client_aim(struct server *, struct event *, int64_t);
#define SERVER_CORK_DUE	UINT64_MAX	/* corked until this callback's saves */
void	server_client_cork_cb(void *, struct client *);
void	server_client_cork_due_cb(void *, uint64_t);
void	server_client_uncork_cb(void *, uint64_t);
void	server_client_restart_cb(void *, struct client *);
void	server_client_hold_out(struct client *);
void	server_client_release_out(struct client *);

/* server-stage.c */
int	server_stage_init(struct server *);
void	server_stage_free(struct server *);
int	server_stage_add(struct server_client *, const char *, size_t);
size_t	server_stage_len(const struct server_client *);
void	server_stage_spill(struct server_client *);
void	server_stage_write(struct server_client *, int);
void	server_stage_reset(struct server *);

/* server-web.c */
extern const struct server_client_io server_web_io;

/* server-proxy.c */
void	server_proxy_accept(struct server *, int, const struct sockaddr *,
	    const struct server_client_io *);

#endif /* SERVER_H */
