/*
 * resume.c -- a player whose connection is lost keeps its seat for the
 * grace period (--resume-grace), its turn clock paused, and takes it back
 * with RESUME <token> on a new connection; after that it has left.
 *
 * Every grace period is equally long, so the lobby's list of absent
 * players, appended to as they go, is in the order of their deadlines.
 */
#include <stdio.h>

#include "clock.h"
#include "log.h"
#include "match.h"
#include "session.h"

static void	resume_tell(struct match *, int, const char *, int);

/* A line about a seat to its opponent and the watchers. */
static void
resume_tell(struct match *m, int seat, const char *buf, int len)
{
	if (m->player[!seat] != NULL)
		session_sendn(m->player[!seat], buf, len);
	watch_send(m, buf, len);
}

/*
 * The connection of a player in a match is lost: hold its seat, if lost
 * players may come back and there is a game to come back to.  1 if held.
 */
int
resume_hold(struct client *c)
{
	struct match		*m = c->match;
	struct lobby		*lobby = c->lobby;
	struct match_seat	*s;
	struct client		*oc;
	int64_t			 now;
	char			 buf[PROTO_OUT_MAX];

	if (m == NULL || lobby->limits.grace_ms <= 0 ||
	    !match_seat_taken(m, !c->seat))
		return (0);
	oc = m->player[!c->seat];
	if (oc != NULL && (oc->flags & CLIENT_CLOSING))
		return (0);
	now = lobby->ops->now();
	s = &m->seat[c->seat];
	s->turn_left = 0;
	if (c->clock == CLIENT_CLOCK_TURN)
		s->turn_left = c->clock_end > now ? c->clock_end - now : 1;
	clock_stop(c);
	m->player[c->seat] = NULL;
	c->match = NULL;
	s->away = 1;
	s->away_until = now + lobby->limits.grace_ms;
	TAILQ_INSERT_TAIL(&lobby->away, s, away_entry);
	lobby->naway++;
	log_info("match %llu: %s lost the connection, seat held",
	    (unsigned long long)m->id, match_name(m, s->index));
	resume_tell(m, s->index, buf, proto_fmt_info_away(buf, sizeof buf,
	    match_name(m, s->index), (long long)lobby->limits.grace_ms));
	lobby->ops->wake(lobby);
	return (1);
}

/*
 * RESUME: a (checked, free) connection takes a seat back, from its grace
 * period or from a connection still holding it, which is closed.
 */
void
resume_take(struct client *c, struct match_seat *s)
{
	struct match	*m = s->match;
	struct lobby	*lobby = m->lobby;
	struct client	*old = m->player[s->index];
	int64_t		 now = lobby->ops->now();
	char		 buf[PROTO_OUT_MAX], text[64];

	if (old != NULL) {
		if (old->clock == CLIENT_CLOCK_TURN && old->clock_end > now)
			s->turn_left = old->clock_end - now;
		clock_stop(old);
		m->player[s->index] = NULL;
		old->match = NULL;
		old->flags |= CLIENT_GONE;
		log_info("client %llu: seat taken over by client %llu",
		    (unsigned long long)old->id, (unsigned long long)c->id);
		session_sendn(old, buf, proto_fmt_bye(buf, sizeof buf,
		    "Your seat was taken over by a new connection."));
		session_close(old);
	} else if (s->away) {
		TAILQ_REMOVE(&lobby->away, s, away_entry);
		lobby->naway--;
		s->away = 0;
		lobby->ops->wake(lobby);
	}
	m->player[s->index] = c;
	c->match = m;
	c->seat = s->index;
	snprintf(c->name, sizeof c->name, "%s", s->name);
	lobby->stats.resumes++;
	log_info("match %llu: %s is back from %s", (unsigned long long)m->id,
	    match_name(m, s->index), c->addr);
	match_send_state(m, s->index);
	match_send_token(m, s->index);
	snprintf(text, sizeof text, "%s is back.", match_name(m, s->index));
	resume_tell(m, s->index, buf, proto_fmt_info(buf, sizeof buf, text));
}

/* The seat is emptied for good: its token dies, its grace ends. */
void
resume_forget(struct match_seat *s)
{
	struct lobby	*lobby = s->match->lobby;

	keytab_del(&lobby->tokens, &s->token);
	if (s->away) {
		TAILQ_REMOVE(&lobby->away, s, away_entry);
		lobby->naway--;
		s->away = 0;
	}
}

/* Grace periods that have run out: those players have left. */
void
resume_expire(struct lobby *lobby, int64_t now)
{
	struct match_seat	*s;

	while ((s = TAILQ_FIRST(&lobby->away)) != NULL &&
	    s->away_until <= now) {
		log_info("match %llu: %s did not come back",
		    (unsigned long long)s->match->id,
		    match_name(s->match, s->index));
		match_leave_seat(s->match, s->index, PROTO_LEAVE_DROP);
	}
}
