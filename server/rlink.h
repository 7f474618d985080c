/*
 * rlink.h -- the daemon's link to Redis: hiredis's async API on the
 * daemon's event base, with what hiredis 0.14 leaves out (a deadline on
 * every connect and every reply, reconnecting with backoff, a bound on
 * commands in flight).
 */
#ifndef RLINK_H
#define RLINK_H

#include <stddef.h>
#include <stdint.h>

#define RLINK_TICK_MS		250	/* the watchdog's period */
#define RLINK_PING_MS		1000	/* a PING this often while up ... */
#define RLINK_DEADLINE_MS	3000	/* ... answered within this, and a
					   connect done within it, or down */
#define RLINK_BACKOFF_MIN_MS	100	/* reconnecting: first wait ... */
#define RLINK_BACKOFF_MAX_MS	5000	/* ... doubled up to this */
#define RLINK_PENDING_MAX	65536	/* commands awaiting a reply; more
					   are refused (Redis too slow) */

struct event_base;
struct rlink;
struct redisReply;

/* What the link tells its user. */
struct rlink_ops {
	/* Connected and subscribed: commands may be sent. */
	void	(*up)(void *);
	/* Lost (pending replies were each called with NULL first). */
	void	(*down)(void *);
	/* A message on one of the subscribed channels. */
	void	(*message)(void *, const char *, size_t);
};

/* A reply: the hiredis redisReply, or NULL if the link went down. */
typedef void	rlink_reply_cb(void *, struct redisReply *);

#define RLINK_CHANNELS		2	/* subscribed at most */

struct rlink	*rlink_new(struct event_base *, const char *, int,
		    const char *const *, const struct rlink_ops *, void *);
void		 rlink_free(struct rlink *);
int		 rlink_up(const struct rlink *);
int		 rlink_rename(struct rlink *, int, const char *);
int		 rlink_subscribed(const struct rlink *);
int		 rlink_cmd(struct rlink *, rlink_reply_cb *, void *, int,
		    const char **, const size_t *);
int		 rlink_publish(struct rlink *, const char *, const char *,
		    size_t);

#endif /* RLINK_H */
