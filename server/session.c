/*
 * session.c -- one connection's protocol life: the greeting, each line
 * parsed and dispatched, and leaving the game by any road.
 */
#include <string.h>

#include "cmd.h"
#include "lobby.h"
#include "log.h"
#include "match.h"
#include "session.h"

static void	session_detach(struct client *, enum proto_leave);

/* A new connection: greet it and queue it for an opponent. */
void
session_open(struct lobby *lobby, struct client *c)
{
	char	buf[PROTO_OUT_MAX];

	c->lobby = lobby;
	log_info("client %llu: connect from %s", (unsigned long long)c->id,
	    c->addr);
	session_sendn(c, buf, proto_fmt_hello(buf, sizeof buf));
	lobby_join(lobby, c);
}

/* The server is full: say so instead of HELLO, and close. */
void
session_refuse(struct lobby *lobby, struct client *c)
{
	char	buf[PROTO_OUT_MAX];

	c->lobby = lobby;
	log_warn("client %llu: refused %s: server full",
	    (unsigned long long)c->id, c->addr);
	session_sendn(c, buf, proto_fmt_error(buf, sizeof buf,
	    PROTO_ESERVER_FULL));
	c->flags |= CLIENT_GONE;
	session_close(c);
}

/* Send formatted output; a no-op once the client is closing. */
void
session_sendn(struct client *c, const char *buf, int len)
{
	if (c->flags & CLIENT_CLOSING)
		return;
	if (len < 0)
		len = 0;
	if ((size_t)len >= PROTO_OUT_MAX)
		fatalx("client %llu: output line too long",
		    (unsigned long long)c->id);
	c->lobby->ops->send(c, buf, (size_t)len);
}

/* One complete line from the client (without its LF). */
void
session_line(struct client *c, const char *line, size_t len)
{
	struct proto_cmd	cmd;
	enum proto_error	err;
	char			buf[PROTO_OUT_MAX];

	if (c->flags & CLIENT_CLOSING)
		return;
	err = proto_parse(line, len, &cmd);
	if (err == PROTO_ELINE_TOO_LONG) {
		session_too_long(c);
		return;
	}
	if (err == PROTO_OK && cmd.verb != PROTO_NONE)
		err = cmd_dispatch(c, &cmd);
	if (err != PROTO_OK)
		session_sendn(c, buf, proto_fmt_error(buf, sizeof buf, err));
}

/* A line over the limit: say why, then close. */
void
session_too_long(struct client *c)
{
	char	buf[PROTO_OUT_MAX];

	log_info("client %llu: line too long from %s, closing",
	    (unsigned long long)c->id, c->addr);
	session_sendn(c, buf, proto_fmt_error(buf, sizeof buf,
	    PROTO_ELINE_TOO_LONG));
	session_detach(c, PROTO_LEAVE_DROP);
	session_close(c);
}

/* Leave the queue or the match, once; the opponent is told. */
static void
session_detach(struct client *c, enum proto_leave why)
{
	if (c->flags & CLIENT_GONE)
		return;
	lobby_leave(c->lobby, c);
	if (c->match != NULL)
		match_leave(c, why);
	c->flags |= CLIENT_GONE;
}

/* Say nothing more, flush, and close: after BYE or a fatal error. */
void
session_close(struct client *c)
{
	if (c->flags & CLIENT_CLOSING)
		return;
	session_detach(c, PROTO_LEAVE_QUIT);
	c->flags |= CLIENT_CLOSING;
	c->lobby->ops->close(c);
}

/* The connection dropped (or is being freed): forfeit whatever is open. */
void
session_lost(struct client *c)
{
	session_detach(c, PROTO_LEAVE_DROP);
}

/*
 * The server is stopping: BYE and close.  The match is left when the
 * connection is freed, by which time the opponent is closing too and hears
 * nothing of it.
 */
void
session_shutdown(struct client *c)
{
	char	buf[PROTO_OUT_MAX];

	if (c->flags & CLIENT_CLOSING)
		return;		/* already on its way out */
	session_sendn(c, buf, proto_fmt_bye(buf, sizeof buf,
	    "Server shutting down."));
	c->flags |= CLIENT_CLOSING;
	c->lobby->ops->close(c);
}
