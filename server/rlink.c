/*
 * rlink.c -- the daemon's link to Redis.
 *
 * Two hiredis async connections on the daemon's event base: one for
 * commands, one subscribed to the node's own channel (a subscribed
 * connection may send nothing else).  hiredis 0.14 has no timeouts of its
 * own: a watchdog (one timer) gives every connect and every PING a
 * deadline, and takes the link down when one passes.  A context is good
 * for one connection only: down frees both, and the watchdog makes new
 * ones after a backoff.  The address is numeric (checked by the caller),
 * so hiredis's connect never waits on a name lookup.
 */
#include <sys/time.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <event2/event.h>
#include <hiredis/hiredis.h>
#include <hiredis/async.h>
#include <hiredis/adapters/libevent.h>

#include "log.h"
#include "rlink.h"

enum rlink_state {
	RLINK_DOWN,		/* waiting to reconnect */
	RLINK_CONNECTING,	/* both connecting, or subscribing */
	RLINK_UP
};

struct rlink {
	struct event_base	*base;
	char			 ip[64];
	int			 port;
	char			*channel[RLINK_CHANNELS];
	int			 nchannels;
	int			 subscribed;	/* confirmations so far */
	int64_t			 resubscribing;	/* ms: since a renamed channel's
						   SUBSCRIBE went, unconfirmed;
						   0 = none */
	const struct rlink_ops	*ops;
	void			*arg;
	enum rlink_state	 state;
	redisAsyncContext	*cmd;
	redisAsyncContext	*sub;
	int			 cmd_ready;	/* connected */
	int			 sub_ready;	/* subscribed */
	struct event		*timer;		/* the watchdog */
	int64_t			 since;		/* ms: state entered */
	int64_t			 backoff;	/* ms: the next wait when down */
	int64_t			 ping_sent;	/* ms; 0 = none in flight */
	int64_t			 ping_last;	/* ms: the last one answered */
	unsigned		 pending;	/* replies awaited */
	int			 full_logged;
};

/* One command's reply callback. */
struct rlink_call {
	struct rlink	*link;
	rlink_reply_cb	*cb;
	void		*arg;
};

static int64_t	rlink_now(void);
static void	rlink_connect(struct rlink *);
static void	rlink_down(struct rlink *, const redisAsyncContext *,
		    const char *);
static void	rlink_tick_cb(evutil_socket_t, short, void *);
static void	rlink_connect_cb(const redisAsyncContext *, int);
static void	rlink_disconnect_cb(const redisAsyncContext *, int);
static void	rlink_sub_cb(redisAsyncContext *, void *, void *);
static void	rlink_call_cb(redisAsyncContext *, void *, void *);
static void	rlink_done_cb(redisAsyncContext *, void *, void *);
static void	rlink_pong_cb(redisAsyncContext *, void *, void *);

static int64_t
rlink_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

/*
 * A link to Redis at ip:port, subscribed to the channels (NULL-terminated,
 * RLINK_CHANNELS at most) once up.
 */
struct rlink *
rlink_new(struct event_base *base, const char *ip, int port,
    const char *const *channels, const struct rlink_ops *ops, void *arg)
{
	struct rlink		*link;
	int			 i;
	static const struct timeval tick = { 0, RLINK_TICK_MS * 1000 };

	if ((link = calloc(1, sizeof *link)) == NULL)
		return (NULL);
	link->base = base;
	snprintf(link->ip, sizeof link->ip, "%s", ip);
	link->port = port;
	link->ops = ops;
	link->arg = arg;
	link->backoff = RLINK_BACKOFF_MIN_MS;
	for (i = 0; i < RLINK_CHANNELS && channels[i] != NULL; i++) {
		if ((link->channel[i] = strdup(channels[i])) == NULL) {
			rlink_free(link);
			return (NULL);
		}
		link->nchannels++;
	}
	if ((link->timer = event_new(base, -1, EV_PERSIST, rlink_tick_cb,
	    link)) == NULL || event_add(link->timer, &tick) == -1) {
		rlink_free(link);
		return (NULL);
	}
	rlink_connect(link);
	return (link);
}

void
rlink_free(struct rlink *link)
{
	int	i;

	if (link == NULL)
		return;
	link->ops = NULL;		/* tell nobody of the end */
	rlink_down(link, NULL, NULL);
	if (link->timer != NULL)
		event_free(link->timer);
	for (i = 0; i < link->nchannels; i++)
		free(link->channel[i]);
	free(link);
}

int
rlink_up(const struct rlink *link)
{
	return (link->state == RLINK_UP);
}

/*
 * Channel i is another from now on.  While up, the subscribed connection
 * subscribes to the new one at once and leaves the old (a subscription
 * lives as long as its connection, which a rename does not end):
 * rlink_subscribed says when Redis has confirmed it.  Down, the next
 * connection subscribes to it.
 */
int
rlink_rename(struct rlink *link, int i, const char *channel)
{
	const char	*argv[2];
	char		*s, *old;

	if (i < 0 || i >= link->nchannels || (s = strdup(channel)) == NULL)
		return (-1);
	old = link->channel[i];
	link->channel[i] = s;
	if (link->state == RLINK_UP && link->sub != NULL) {
		/* Unconfirmed in time (or unsent), the watchdog ends it. */
		link->resubscribing = rlink_now();
		argv[0] = "SUBSCRIBE";
		argv[1] = s;
		(void)redisAsyncCommandArgv(link->sub, rlink_sub_cb, link, 2,
		    argv, NULL);
		argv[0] = "UNSUBSCRIBE";
		argv[1] = old;
		(void)redisAsyncCommandArgv(link->sub, rlink_sub_cb, link, 2,
		    argv, NULL);
	}
	free(old);
	return (0);
}

/* Up, and subscribed to every channel as named now? */
int
rlink_subscribed(const struct rlink *link)
{
	return (link->state == RLINK_UP && !link->resubscribing);
}

/* Is this one of the channels as named now? */
static int
rlink_ours(const struct rlink *link, const char *channel)
{
	int	i;

	for (i = 0; i < link->nchannels; i++) {
		if (strcmp(link->channel[i], channel) == 0)
			return (1);
	}
	return (0);
}

/* Start both connections. */
static void
rlink_connect(struct rlink *link)
{
	redisAsyncContext	*ac[2];
	const char		*argv[1 + RLINK_CHANNELS];
	int			 i;

	link->state = RLINK_CONNECTING;
	link->since = rlink_now();
	link->cmd_ready = link->sub_ready = 0;
	link->subscribed = 0;
	link->resubscribing = 0;
	for (i = 0; i < 2; i++) {
		ac[i] = redisAsyncConnect(link->ip, link->port);
		if (ac[i] == NULL || ac[i]->err) {
			log_warn("redis %s:%d: %s", link->ip, link->port,
			    ac[i] != NULL ? ac[i]->errstr : "out of memory");
			if (ac[i] != NULL)
				redisAsyncFree(ac[i]);
			if (i == 1)
				redisAsyncFree(ac[0]);
			link->state = RLINK_DOWN;
			return;
		}
		ac[i]->data = link;
		redisLibeventAttach(ac[i], link->base);
		redisAsyncSetConnectCallback(ac[i], rlink_connect_cb);
		redisAsyncSetDisconnectCallback(ac[i], rlink_disconnect_cb);
	}
	link->cmd = ac[0];
	link->sub = ac[1];
	/* Sent once connected; a subscription outlives no connection. */
	argv[0] = "SUBSCRIBE";
	for (i = 0; i < link->nchannels; i++)
		argv[1 + i] = link->channel[i];
	redisAsyncCommandArgv(link->sub, rlink_sub_cb, link,
	    1 + link->nchannels, argv, NULL);
}

/*
 * Take the link down: free both contexts (but the one hiredis is freeing
 * itself), their pending replies called with NULL, and tell the user.
 */
static void
rlink_down(struct rlink *link, const redisAsyncContext *dying,
    const char *why)
{
	redisAsyncContext	*ac[2] = { link->cmd, link->sub };
	enum rlink_state	 was = link->state;
	int			 i;

	link->cmd = link->sub = NULL;
	link->state = RLINK_DOWN;
	link->since = rlink_now();
	link->ping_sent = 0;
	for (i = 0; i < 2; i++) {
		if (ac[i] == NULL)
			continue;
		ac[i]->data = NULL;
		if (ac[i] != dying)
			redisAsyncFree(ac[i]);
	}
	if (why != NULL && was != RLINK_DOWN)
		log_warn("redis %s:%d: %s; retrying in %lld ms", link->ip,
		    link->port, why, (long long)link->backoff);
	if (was == RLINK_UP && link->ops != NULL)
		link->ops->down(link->arg);
}

/* The watchdog: deadlines, PINGs, reconnecting. */
static void
rlink_tick_cb(evutil_socket_t fd, short what, void *arg)
{
	struct rlink	*link = arg;
	int64_t		 now = rlink_now();
	const char	*argv[] = { "PING" };

	(void)fd;
	(void)what;
	switch (link->state) {
	case RLINK_DOWN:
		if (now - link->since < link->backoff)
			return;
		link->backoff *= 2;
		if (link->backoff > RLINK_BACKOFF_MAX_MS)
			link->backoff = RLINK_BACKOFF_MAX_MS;
		rlink_connect(link);
		return;
	case RLINK_CONNECTING:
		if (now - link->since >= RLINK_DEADLINE_MS)
			rlink_down(link, NULL, "no connection in time");
		return;
	case RLINK_UP:
		if (link->resubscribing != 0 &&
		    now - link->resubscribing >= RLINK_DEADLINE_MS) {
			rlink_down(link, NULL, "no subscription in time");
			return;
		}
		if (link->ping_sent != 0) {
			if (now - link->ping_sent >= RLINK_DEADLINE_MS)
				rlink_down(link, NULL, "no answer in time");
			return;
		}
		if (now - link->ping_last >= RLINK_PING_MS &&
		    redisAsyncCommandArgv(link->cmd, rlink_pong_cb, link, 1,
		    argv, NULL) == REDIS_OK) {
			link->ping_sent = now;
			link->pending++;
		}
		return;
	}
}

/* Both ready: up. */
static void
rlink_ready(struct rlink *link)
{
	if (!link->cmd_ready || !link->sub_ready || link->state == RLINK_UP)
		return;
	link->state = RLINK_UP;
	link->backoff = RLINK_BACKOFF_MIN_MS;
	link->ping_last = rlink_now();
	link->full_logged = 0;
	log_info("redis %s:%d: connected", link->ip, link->port);
	if (link->ops != NULL)
		link->ops->up(link->arg);
}

static void
rlink_connect_cb(const redisAsyncContext *ac, int status)
{
	struct rlink	*link = ac->data;

	if (link == NULL)
		return;
	if (status != REDIS_OK) {
		/* hiredis frees this context when the callback returns. */
		if (link->cmd == ac)
			link->cmd = NULL;
		else
			link->sub = NULL;
		rlink_down(link, NULL, ac->errstr);
		return;
	}
	if (ac == link->cmd) {
		link->cmd_ready = 1;
		rlink_ready(link);
	}
}

static void
rlink_disconnect_cb(const redisAsyncContext *ac, int status)
{
	struct rlink	*link = ac->data;

	(void)status;
	if (link == NULL || (link->cmd != ac && link->sub != ac))
		return;
	rlink_down(link, ac, "connection lost");
}

/*
 * The subscribed connection: its confirmations, then each message on a
 * channel of ours (not one left by a rename, whose last messages may
 * still come).
 */
static void
rlink_sub_cb(redisAsyncContext *ac, void *r, void *arg)
{
	struct rlink	*link = arg;
	redisReply	*reply = r;

	if (reply == NULL || ac->data == NULL || link->sub != ac)
		return;
	if (reply->type != REDIS_REPLY_ARRAY || reply->elements != 3 ||
	    reply->element[0]->type != REDIS_REPLY_STRING ||
	    reply->element[1]->type != REDIS_REPLY_STRING)
		return;
	if (strcmp(reply->element[0]->str, "subscribe") == 0) {
		if (link->state == RLINK_UP) {
			/* A renamed channel's. */
			if (rlink_ours(link, reply->element[1]->str))
				link->resubscribing = 0;
			return;
		}
		if (++link->subscribed < link->nchannels)
			return;
		link->sub_ready = 1;
		rlink_ready(link);
	} else if (strcmp(reply->element[0]->str, "message") == 0 &&
	    reply->element[2]->type == REDIS_REPLY_STRING &&
	    link->ops != NULL && rlink_ours(link, reply->element[1]->str))
		link->ops->message(link->arg, reply->element[2]->str,
		    reply->element[2]->len);
}

static void
rlink_pong_cb(redisAsyncContext *ac, void *r, void *arg)
{
	struct rlink	*link = arg;

	(void)ac;
	link->pending--;
	if (r == NULL)
		return;
	link->ping_sent = 0;
	link->ping_last = rlink_now();
}

/* A command with no reply wanted (PUBLISH): only counted. */
static void
rlink_done_cb(redisAsyncContext *ac, void *r, void *arg)
{
	struct rlink	*link = arg;

	(void)ac;
	(void)r;
	link->pending--;
}

static void
rlink_call_cb(redisAsyncContext *ac, void *r, void *arg)
{
	struct rlink_call	*call = arg;

	(void)ac;
	call->link->pending--;
	call->cb(call->arg, r);
	free(call);
}

/* May one more command be sent? */
static int
rlink_room(struct rlink *link)
{
	if (link->state != RLINK_UP)
		return (0);
	if (link->pending >= RLINK_PENDING_MAX) {
		if (!link->full_logged)
			log_warn("redis %s:%d: %u commands unanswered; "
			    "refusing more", link->ip, link->port,
			    link->pending);
		link->full_logged = 1;
		return (0);
	}
	return (1);
}

/*
 * Send a command (its arguments binary-safe); cb gets its reply, or NULL
 * if the link goes down first (no cb: no reply wanted).  -1 if it was not sent (down, or full):
 * cb is then never called.
 */
int
rlink_cmd(struct rlink *link, rlink_reply_cb *cb, void *arg, int argc,
    const char **argv, const size_t *argvlen)
{
	struct rlink_call	*call;

	if (!rlink_room(link))
		return (-1);
	if (cb == NULL) {
		if (redisAsyncCommandArgv(link->cmd, rlink_done_cb, link, argc,
		    argv, argvlen) != REDIS_OK)
			return (-1);
		link->pending++;
		return (0);
	}
	if ((call = malloc(sizeof *call)) == NULL)
		return (-1);
	call->link = link;
	call->cb = cb;
	call->arg = arg;
	if (redisAsyncCommandArgv(link->cmd, rlink_call_cb, call, argc, argv,
	    argvlen) != REDIS_OK) {
		free(call);
		return (-1);
	}
	link->pending++;
	return (0);
}

/* PUBLISH a message; -1 if it was not sent. */
int
rlink_publish(struct rlink *link, const char *channel, const char *msg,
    size_t len)
{
	const char	*argv[] = { "PUBLISH", channel, msg };
	size_t		 lens[] = { 7, strlen(channel), len };

	if (!rlink_room(link) || redisAsyncCommandArgv(link->cmd,
	    rlink_done_cb, link, 3, argv, lens) != REDIS_OK)
		return (-1);
	link->pending++;
	return (0);
}
