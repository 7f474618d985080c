/*
 * client.c -- the seat layer: a line to a client, its close, its timer,
 * the reasons its lines wait.
 * Below the world, and calling nothing but the client's own ops.
 */
#include <string.h>

#include "client.h"
#include "log.h"
#include "stats.h"

/* Send formatted output; a no-op once the client is closing. */
void
client_send(struct client *c, const char *buf, int len)
{
	if (c->flags & CLIENT_CLOSING)
		return;
	if (len < 0)
		len = 0;
	if ((size_t)len >= PROTO_OUT_MAX)
		fatalx("client %llu: output line too long",
		    (unsigned long long)c->id);
	if (len > 4 && memcmp(buf, "ERR ", 4) == 0)
		c->stats->errors++;
	c->stats->bytes_out += (uint64_t)len;
	c->ops->send(c, buf, (size_t)len);
}

/* Say nothing more: flush what is queued, and close. */
void
client_close(struct client *c)
{
	if (c->flags & CLIENT_CLOSING)
		return;
	c->flags |= CLIENT_CLOSING;
	c->ops->close(c);
}

/*
 * The next deadline of a client in ms, 0 when it has none: a partial
 * line's, or its clock's (the warning first).  A closing client has none.
 */
int64_t
client_deadline(const struct client *c)
{
	int64_t	clock = 0, line = c->line_deadline;

	if (c->flags & CLIENT_CLOSING)
		return (0);
	if (c->clock != CLIENT_CLOCK_NONE)
		clock = c->clock_warn != 0 ? c->clock_warn : c->clock_end;
	if (clock == 0 || (line != 0 && line < clock))
		return (line);
	return (clock);
}

/* A deadline moved: have the transport aim the client's timer. */
void
client_rearm(struct client *c)
{
	c->ops->rearm(c, client_deadline(c));
}

/*
 * The world would queue the client (where: CLIENT_HOME_*), or let it go:
 * 1 if its home is another node, which was handed it back (the client
 * is leaving this world).
 */
int
client_home(struct client *c, int where)
{
	return (c->ops->home != NULL && c->ops->home(c, where));
}

/*
 * Hold the client's next lines for this reason: the first reason stops
 * its transport taking them.
 */
void
client_hold(struct client *c, enum client_hold why)
{
	int	was = c->flags & CLIENT_HOLDS;

	c->flags |= why;
	if (was != 0)
		return;
	c->ops->hold(c, 1);
}

/*
 * This reason holds the client no more: 1 if it was the last, and the
 * lines kept go on (in order); 0 if it did not hold it, or another does.
 */
int
client_release(struct client *c, enum client_hold why)
{
	if (!(c->flags & why))
		return (0);
	c->flags &= ~why;
	if (c->flags & CLIENT_HOLDS)
		return (0);
	c->ops->hold(c, 0);
	return (1);
}
