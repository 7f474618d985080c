/*
 * resume.c -- a player whose connection is lost keeps its seat for the
 * grace period (--resume-grace), its turn clock paused, and takes it back
 * with RESUME <token> on a new connection; after that it has left.
 *
 * An absent seat gets a small record of its own (a match carries none
 * while both players are there).  The lobby keeps them in the order of
 * their deadlines: a grace period, cut short where the seat's clock must
 * end (match.h's clock_by), so that no game outlasts its clock by more
 * than one grace period however often its player goes and comes back.
 */
#include <stdio.h>
#include <stdlib.h>

#include "clock.h"
#include "log.h"
#include "match.h"
#include "name.h"
#include "place.h"

static int64_t	resume_end(struct match *, int, struct chatlog **);
static int64_t	resume_unhold(struct match *, int, struct chatlog **);
static void	resume_fix_clock(struct match *, struct client *);
static void	resume_file(struct lobby *, struct match_absence *);

/*
 * A seat's grace ends: its absence record goes, and its name with it; the
 * turn time it kept, and (chat not NULL) its player's chat times.
 */
static int64_t
resume_unhold(struct match *m, int seat, struct chatlog **chat)
{
	struct lobby		*lobby = m->lobby;
	struct match_absence	*a = m->seat[seat].away;
	int64_t			 left = a->turn_left;

	TAILQ_REMOVE(&lobby->away, a, entry);
	lobby->naway--;
	m->seat[seat].away = NULL;
	keytab_del(&lobby->names, &a->name_entry);
	if (chat != NULL)
		*chat = a->chat;
	else
		free(a->chat);
	free(a);
	return (left);
}

/*
 * A seat's player is leaving it for a while (lost, or taken over): fix
 * when its running clock (turn, AGAIN?) must end at the latest, returns
 * and further losses included: all of its time and one grace period.
 */
static void
resume_fix_clock(struct match *m, struct client *c)
{
	struct match_seat	*s = &m->seat[c->seat];

	if ((c->clock == CLIENT_CLOCK_TURN || c->clock == CLIENT_CLOCK_AGAIN) &&
	    s->clock_by == 0)
		s->clock_by = c->clock_end + m->lobby->limits.grace_ms;
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
	struct match_absence	*a;
	struct client		*oc;
	int64_t			 now;
	char			 buf[PROTO_OUT_MAX];

	if (m == NULL || lobby->limits.grace_ms <= 0 ||
	    !match_seat_taken(m, !c->seat))
		return (0);
	oc = m->player[!c->seat];
	if (oc != NULL && (oc->flags & CLIENT_CLOSING))
		return (0);
	if ((a = calloc(1, sizeof *a)) == NULL)
		fatalx("out of memory");
	s = &m->seat[c->seat];
	now = lobby->ops->now();
	a->match = m;
	a->seat = c->seat;
	a->until = now + lobby->limits.grace_ms;
	a->turn_left = clock_turn_left(c);
	resume_fix_clock(m, c);
	if (c->clock != CLIENT_CLOCK_NONE && s->clock_by != 0 &&
	    a->until > s->clock_by)
		/* Going away and coming back buys one grace period, once. */
		a->until = s->clock_by > now ? s->clock_by : now;
	a->chat = c->chat;		/* its chat limits go on with the seat */
	c->chat = NULL;
	name_hold(lobby, &a->name_entry, s->name, a);
	clock_stop(c);
	s->account = c->account_id;	/* kept while away (match-keep.c) */
	m->player[c->seat] = NULL;
	s->away = a;
	match_touch(m);
	c->match = NULL;
	place_set(c, PLACE_NONE);
	resume_file(lobby, a);
	LOBBY_RAISE(lobby, seat_lost, m, a->seat);
	log_info("match %llu: %s lost the connection, seat held",
	    (unsigned long long)m->id, match_name(m, a->seat));
	match_tell_others(m, a->seat, buf, proto_fmt_info_away(buf, sizeof buf,
	    match_name(m, a->seat), (long long)(a->until - now)));
	lobby->ops->wake(lobby);
	return (1);
}

/* An absence joins the lobby's list, in the order of the deadlines. */
static void
resume_file(struct lobby *lobby, struct match_absence *a)
{
	struct match_absence	*b;

	TAILQ_FOREACH_REVERSE(b, &lobby->away, absence_list, entry) {
		if (b->until <= a->until)
			break;
	}
	if (b == NULL)
		TAILQ_INSERT_HEAD(&lobby->away, a, entry);
	else
		TAILQ_INSERT_AFTER(&lobby->away, b, a, entry);
	lobby->naway++;
}

/*
 * A seat of a match taken over from another node (match-keep.c) is away
 * for a whole grace period from now, with turn_left ms of its turn
 * (0: all of it), whatever it had used there.
 */
void
resume_away(struct match *m, int seat, int64_t turn_left)
{
	struct lobby		*lobby = m->lobby;
	struct match_absence	*a;

	if ((a = calloc(1, sizeof *a)) == NULL)
		fatalx("out of memory");
	a->match = m;
	a->seat = seat;
	a->until = lobby->ops->now() + lobby->limits.grace_ms;
	a->turn_left = turn_left;
	name_hold(lobby, &a->name_entry, m->seat[seat].name, a);
	m->seat[seat].away = a;
	resume_file(lobby, a);
	lobby->ops->wake(lobby);
}

/*
 * The seat (0, 1) and match a token stands for; -1 for no live token.  A
 * seat's token is live, and so is the one its last RESUME used, until the
 * fresh one it was given is used: a client that never read its new TOKEN
 * can come back with the old one.
 */
int
resume_find(struct lobby *lobby, const char *token, struct match **mp)
{
	uint64_t	 key = keytab_code(token);
	struct match	*m = keytab_find(&lobby->tokens, key);

	if (m == NULL)
		return (-1);
	*mp = m;
	return (m->seat[0].token.key == key || m->seat[0].used.key == key ?
	    0 : 1);
}

/*
 * A seat's absence, or its connection, ends: what is left of its turn
 * clock, in ms (0: all of it).
 */
static int64_t
resume_end(struct match *m, int seat, struct chatlog **chat)
{
	struct lobby		*lobby = m->lobby;
	struct match_absence	*a = m->seat[seat].away;
	struct client		*old = m->player[seat];
	int64_t			 left = 0;
	char			 buf[PROTO_OUT_MAX];

	if (a != NULL) {
		left = resume_unhold(m, seat, chat);
		lobby->ops->wake(lobby);
	} else if (old != NULL) {
		/* Still connected, as far as we know: closed in its favour. */
		left = clock_turn_left(old);
		resume_fix_clock(m, old);
		*chat = old->chat;
		old->chat = NULL;
		clock_stop(old);
		m->seat[seat].account = old->account_id;
		m->player[seat] = NULL;
		old->match = NULL;
		place_set(old, PLACE_GONE);
		name_drop(old);
		log_info("client %llu: seat taken over by a new connection",
		    (unsigned long long)old->id);
		client_send(old, buf, proto_fmt_bye(buf, sizeof buf,
		    "Your seat was taken over by a new connection."));
		client_close(old);
	}
	return (left);
}

/*
 * RESUME: a (checked, free) connection takes a seat back with a token (its
 * key), from its grace period or from a connection still holding it; it
 * hears till when its opponent may be away, and the opponent hears it is
 * back.
 */
void
resume_take(struct client *c, struct match *m, int seat, uint64_t key)
{
	char	buf[PROTO_OUT_MAX], text[64];

	resume_take_quiet(c, m, seat, key);
	resume_tell_away(m, seat);
	snprintf(text, sizeof text, "%s is back.", match_name(m, seat));
	match_tell_others(m, seat, buf, proto_fmt_info(buf, sizeof buf, text));
}

/*
 * The seat taken back as by RESUME, the player shown its match and given
 * its token, but neither it nor its opponent told of the other: a match
 * taken up from a dead node plugs both its live players back this way
 * before either would see the other away (cluster-keep.c), then tells.
 */
void
resume_take_quiet(struct client *c, struct match *m, int seat, uint64_t key)
{
	struct lobby		*lobby = m->lobby;
	struct match_seat	*s = &m->seat[seat];
	struct chatlog		*chat = NULL;
	int64_t			 left = resume_end(m, seat, &chat);

	/*
	 * A remote seat its node sent as no account's takes the account the
	 * seat was signed in as (the token is the proof, as accounts.c's
	 * seat_back signs a player of this node in again).
	 */
	if ((c->flags & CLIENT_REMOTE) && c->account_id == 0)
		c->account_id = s->account;
	m->player[seat] = c;
	match_touch(m);
	c->match = m;
	c->seat = seat;
	place_set(c, PLACE_MATCH);
	if (chat != NULL) {		/* the seat's chat limits, not fresh ones */
		free(c->chat);
		c->chat = chat;
	}
	name_take(c, m->seat[seat].name);
	lobby->stats.resumes++;
	LOBBY_RAISE(lobby, seat_back, m, seat);
	log_info("match %llu: %s is back from %s", (unsigned long long)m->id,
	    match_name(m, seat), c->addr);
	match_send_state(m, seat, left);
	keytab_del(&lobby->tokens, &s->token);
	keytab_del(&lobby->tokens, &s->used);
	keytab_add(&lobby->tokens, &s->used, key, m);
	match_send_token(m, seat);
}

/* The seat's player hears till when its opponent may be away, if it is. */
void
resume_tell_away(struct match *m, int seat)
{
	struct match_absence	*oa = m->seat[!seat].away;
	char			 buf[PROTO_OUT_MAX];

	if (oa == NULL || m->player[seat] == NULL)
		return;
	client_send(m->player[seat], buf, proto_fmt_info_away(buf,
	    sizeof buf, match_name(m, !seat), (long long)(oa->until -
	    m->lobby->ops->now())));
}

/* The seat is emptied for good: its token dies, its grace ends. */
void
resume_forget(struct match *m, int seat)
{
	keytab_del(&m->lobby->tokens, &m->seat[seat].token);
	keytab_del(&m->lobby->tokens, &m->seat[seat].used);
	if (m->seat[seat].away != NULL)
		resume_unhold(m, seat, NULL);
}

/* Grace periods that have run out: those players have left. */
void
resume_expire(struct lobby *lobby, int64_t now)
{
	struct match_absence	*a;

	while ((a = TAILQ_FIRST(&lobby->away)) != NULL && a->until <= now) {
		log_info("match %llu: %s did not come back",
		    (unsigned long long)a->match->id,
		    match_name(a->match, a->seat));
		match_leave_seat(a->match, a->seat, PROTO_LEAVE_DROP);
	}
}
