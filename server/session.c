/*
 * session.c -- one connection's protocol life: the greeting, each line
 * checked (HTTP, flood), parsed and dispatched to cmd.c, a WebSocket
 * control frame counted, what a clock running out means, and the
 * connection's end.  Called by the transport; calls the commands, the
 * world and the seat layer below it.
 */
#include <stdio.h>
#include <stdlib.h>

#include "clock.h"
#include "cmd.h"
#include "lobby.h"
#include "log.h"
#include "match.h"
#include "place.h"
#include "printable.h"
#include "room.h"
#include "session.h"

static int	session_flooding(struct client *);
static int	session_one_word(const char *, size_t);
static void	session_close(struct client *);
static void	session_clock_warn(struct client *, enum client_clock,
		    int64_t);
static void	session_clock_out(struct client *, enum client_clock);
static void	session_bye(struct client *, const char *);
static void	session_fatal(struct client *, enum proto_error);
static void	session_error(struct client *, enum proto_error);

/* A new connection: greet it and queue it for an opponent. */
void
session_open(struct lobby *lobby, struct client *c)
{
	char	buf[PROTO_OUT_MAX];

	c->lobby = lobby;
	c->stats = &lobby->stats;
	ratelimit_init(&c->rate, lobby->limits.burst, lobby->ops->now());
	c->abuse = c->rate;
	log_info("client %llu: connect from %s", (unsigned long long)c->id,
	    c->addr);
	client_send(c, buf, proto_fmt_hello(buf, sizeof buf));
	lobby_join_new(lobby, c);
}

/*
 * No room (SERVER_FULL, or TOO_MANY_CONNECTIONS from one address): say so
 * instead of HELLO, and close.
 */
void
session_refuse(struct lobby *lobby, struct client *c, enum proto_error why)
{
	char	buf[PROTO_OUT_MAX];

	c->lobby = lobby;
	c->stats = &lobby->stats;
	log_warn("client %llu: refused %s: %s", (unsigned long long)c->id,
	    c->addr, why == PROTO_ESERVER_FULL ? "server full" :
	    "too many connections from its address");
	client_send(c, buf, proto_fmt_error(buf, sizeof buf, why));
	place_set(c, PLACE_GONE);
	client_close(c);
}

/* One complete line from the client (without its LF). */
void
session_line(struct client *c, const char *line, size_t len)
{
	struct proto_cmd	cmd;
	enum proto_error	err;

	if (c->flags & CLIENT_CLOSING)
		return;
	if (log_debugging()) {
		char	text[PROTO_SCAN_MAX * 4 + 1];
		size_t	n = len > 0 && line[len - 1] == '\r' ? len - 1 : len;

		log_debug("client %llu: line \"%s\"", (unsigned long long)c->id,
		    printable(line, n, text, sizeof text));
	}
	if (c->lines++ == 0 && proto_is_http(line, len)) {
		log_warn("client %llu: HTTP request from %s, closing",
		    (unsigned long long)c->id, c->addr);
		session_fatal(c, PROTO_ENOT_HTTP);
		return;
	}
	if (session_flooding(c))
		return;
	if (c->place == PLACE_QUEUE)
		clock_start(c, CLIENT_CLOCK_IDLE);	/* it is still there */
	err = proto_parse(line, len, &cmd);
	if (c->place == PLACE_RELAY && ((err == PROTO_OK &&
	    cmd.verb != PROTO_NONE) || (err == PROTO_EUNKNOWN_COMMAND &&
	    session_one_word(line, len)))) {
		/* Checked here, answered by its match's node. */
		LOBBY_RAISE(c->lobby, relay_line, c, line, len);
		return;
	}
	if (err == PROTO_OK && cmd.verb != PROTO_NONE)
		err = cmd_dispatch(c, &cmd);
	else if (err == PROTO_EUNKNOWN_COMMAND && session_one_word(line, len) &&
	    match_check_answer(c) == PROTO_OK)
		err = PROTO_EBAD_ANSWER;	/* "maybe", to AGAIN? */
	if (err != PROTO_OK) {
		log_debug("client %llu: ERR %s", (unsigned long long)c->id,
		    proto_error_code(err));
		session_error(c, err);
	}
}

/*
 * A refusal.  A player in a match on another node gets it from there, so
 * that it comes after the answers to its lines still on their way.
 */
static void
session_error(struct client *c, enum proto_error err)
{
	char	buf[PROTO_OUT_MAX];

	if (c->place == PLACE_RELAY)
		LOBBY_RAISE(c->lobby, relay_refused, c, err);
	else
		client_send(c, buf, proto_fmt_error(buf, sizeof buf, err));
}

/* Is the line one word, blanks around it aside? */
static int
session_one_word(const char *line, size_t len)
{
	size_t	i, words = 0;

	for (i = 0; i < len; i++) {
		if (line[i] != ' ' && line[i] != '\t' && line[i] != '\r' &&
		    (i == 0 || line[i - 1] == ' ' || line[i - 1] == '\t'))
			words++;
	}
	return (words == 1);
}

/*
 * The rate limit: a line over it is refused with RATE_LIMITED; refusals
 * drain a second bucket of the same size, so a client that keeps sending
 * faster than twice the rate for a while is closed.  1 = line dropped.
 */
static int
session_flooding(struct client *c)
{
	const struct lobby_limits	*l = &c->lobby->limits;
	int64_t				 now;

	if (l->rate == 0 || (c->flags & CLIENT_REMOTE))
		return (0);	/* a remote player's node counts its lines */
	now = c->lobby->ops->now();
	if (ratelimit_take(&c->rate, l->rate, l->burst, now))
		return (0);
	if (!ratelimit_take(&c->abuse, l->rate, l->burst, now)) {
		log_warn("client %llu: %s keeps flooding, closing",
		    (unsigned long long)c->id, c->addr);
		cmd_detach(c, PROTO_LEAVE_DROP, 0);
		session_bye(c, "Too many commands. Goodbye.");
		return (1);
	}
	session_error(c, PROTO_ERATE_LIMITED);
	return (1);
}

/*
 * A WebSocket control frame (ping, pong, close) began: it counts in the
 * rate limit as a line does, but has no refusal to be sent.  Over the
 * limit the client leaves at once, as a flood of lines does, and -1 tells
 * the transport to close (1008).
 */
int
session_control(struct client *c)
{
	const struct lobby_limits	*l = &c->lobby->limits;

	if (l->rate == 0 || (c->flags & CLIENT_CLOSING) ||
	    ratelimit_take(&c->rate, l->rate, l->burst, c->lobby->ops->now()))
		return (0);
	log_warn("client %llu: %s sends too many control frames, closing",
	    (unsigned long long)c->id, c->addr);
	cmd_detach(c, PROTO_LEAVE_DROP, 0);
	return (-1);
}

/* An error that ends the connection: say why, leave, close. */
static void
session_fatal(struct client *c, enum proto_error err)
{
	char	buf[PROTO_OUT_MAX];

	client_send(c, buf, proto_fmt_error(buf, sizeof buf, err));
	cmd_detach(c, PROTO_LEAVE_DROP, 0);
	session_close(c);
}

/* BYE with a reason, then close. */
static void
session_bye(struct client *c, const char *text)
{
	char	buf[PROTO_OUT_MAX];

	client_send(c, buf, proto_fmt_bye(buf, sizeof buf, text));
	session_close(c);
}

/*
 * The start of a line already too long to be read whole: a first line
 * that begins as an HTTP request does (a long URL) is one, refused as
 * such, so that it is never paired.  1 if so: the connection is closing.
 */
int
session_long_start(struct client *c, const char *start, size_t len)
{
	if (c->lines != 0 || (c->flags & CLIENT_CLOSING) ||
	    !proto_is_http_start(start, len))
		return (0);
	c->lines++;
	log_warn("client %llu: HTTP request from %s, closing",
	    (unsigned long long)c->id, c->addr);
	session_fatal(c, PROTO_ENOT_HTTP);
	return (1);
}

/*
 * A line over the limit has ended (its bytes were thrown away as they
 * came): it counts as a line, and is answered unless over the rate limit.
 */
void
session_too_long(struct client *c)
{
	if (c->flags & CLIENT_CLOSING)
		return;
	c->lines++;
	log_debug("client %llu: line too long", (unsigned long long)c->id);
	if (session_flooding(c))
		return;
	if (c->place == PLACE_QUEUE)
		clock_start(c, CLIENT_CLOCK_IDLE);	/* it is still there */
	session_error(c, PROTO_ELINE_TOO_LONG);
}

/* So many bytes without a line end are no line: say why, then close. */
void
session_line_flood(struct client *c, size_t bytes)
{
	log_info("client %llu: line too long from %s, no LF in %zu bytes, "
	    "closing", (unsigned long long)c->id, c->addr, bytes);
	session_fatal(c, PROTO_ELINE_TOO_LONG);
}

/* A line begun and not finished in time (slowloris): say why, close. */
void
session_line_timeout(struct client *c)
{
	log_info("client %llu: unfinished line from %s timed out, closing",
	    (unsigned long long)c->id, c->addr);
	session_fatal(c, PROTO_ELINE_TIMEOUT);
}

/* A deadline of the client's clock came: what is due, if anything. */
void
session_clock(struct client *c, int64_t now)
{
	enum client_clock	kind;
	int64_t			left = 0;

	switch (clock_due(c, now, &kind, &left)) {
	case CLOCK_DUE_WARN:
		session_clock_warn(c, kind, left);
		break;
	case CLOCK_DUE_OUT:
		session_clock_out(c, kind);
		break;
	case CLOCK_DUE_NONE:
		break;
	}
}

/*
 * A clock's early word: a third of the mover's time is left (say how
 * much), or a player has waited alone long enough to be offered the
 * computer.
 */
static void
session_clock_warn(struct client *c, enum client_clock kind, int64_t left_ms)
{
	char		buf[PROTO_OUT_MAX], text[64];
	long long	secs = (left_ms + 999) / 1000;

	if (kind == CLIENT_CLOCK_IDLE) {
		/*
		 * Not alone: a newcomer is about to be paired with it (or it
		 * is the newcomer).  Asked again once that newcomer has had
		 * its half second, in case it was a probe and went.
		 */
		if (c->lobby->nqueued + c->lobby->nfresh > 1) {
			clock_rewarn(c, c->lobby->ops->now() +
			    (c->lobby->limits.fresh_ms > 0 ?
			    c->lobby->limits.fresh_ms : LOBBY_FRESH_MS));
			return;
		}
		c->flags |= CLIENT_OFFERED;
		if (c->lobby->limits.idle_ms <= 0)
			clock_stop(c);		/* it ran for the offer only */
		client_send(c, buf, proto_fmt_info(buf, sizeof buf,
		    "Nobody else is here yet. Type PLAY AI to play the "
		    "computer."));
		return;
	}
	snprintf(text, sizeof text, "You have %lld second%s left to move.",
	    secs, secs == 1 ? "" : "s");
	client_send(c, buf, proto_fmt_info(buf, sizeof buf, text));
}

/*
 * A clock ran out.  The mover loses the game, not its connection: a result
 * and AGAIN? as after any game.  No answer to AGAIN? counts as no, and a
 * player idle in the queue goes: both are let go.
 */
static void
session_clock_out(struct client *c, enum client_clock kind)
{
	switch (kind) {
	case CLIENT_CLOCK_NONE:
		break;
	case CLIENT_CLOCK_ROOM:
		room_expired(c);
		break;
	case CLIENT_CLOCK_TURN:
		log_info("client %llu: %s did not move in time",
		    (unsigned long long)c->id, c->addr);
		match_lose(c, MATCH_END_TIME);
		break;
	case CLIENT_CLOCK_AGAIN:
		log_info("client %llu: %s did not answer AGAIN? in time, "
		    "closing", (unsigned long long)c->id, c->addr);
		session_bye(c, "No answer in time, taken as no. Thank you for "
		    "playing!");
		break;
	case CLIENT_CLOCK_IDLE:
		log_info("client %llu: %s was idle in the queue too long, "
		    "closing", (unsigned long long)c->id, c->addr);
		session_bye(c, "Nobody came to play in time. Please try again "
		    "later.");
		break;
	}
}

/* Leave the world, say nothing more, flush, close: after BYE or an error. */
static void
session_close(struct client *c)
{
	if (c->flags & CLIENT_CLOSING)
		return;
	cmd_detach(c, PROTO_LEAVE_QUIT, 0);
	client_close(c);
}

/*
 * The connection dropped (or is being freed): hold a seat in a match for
 * the grace period, or forfeit whatever is open.
 */
void
session_lost(struct client *c)
{
	cmd_detach(c, PROTO_LEAVE_DROP, 1);
	free(c->chat);
	c->chat = NULL;
}

/*
 * The server is stopping (or draining: text says): BYE and close.  The match is left when the
 * connection is freed, by which time the opponent is closing too and hears
 * nothing of it.
 */
void
session_shutdown(struct client *c, const char *text)
{
	char	buf[PROTO_OUT_MAX];

	if (c->flags & CLIENT_CLOSING)
		return;		/* already on its way out */
	client_send(c, buf, proto_fmt_bye(buf, sizeof buf, text));
	client_close(c);
}
