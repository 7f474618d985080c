/*
 * lobby.c -- the queue of waiting players and its pairing: guests first
 * come, first served, signed-in players by rating (common/pairing.c).
 */
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "lobby.h"
#include "match.h"
#include "mix.h"
#include "name.h"
#include "pairing.h"
#include "place.h"
#include "ratelimit.h"

static void	lobby_pair(struct lobby *);
static void	lobby_enqueue(struct lobby *, struct client *, int);
static void	lobby_ripen(struct lobby *, int64_t);
static void	lobby_freshen(struct lobby *, struct client *, int);
static size_t	lobby_weigh(struct lobby *);
static void	lobby_room(struct lobby *);
static uint64_t	lobby_next(uint64_t *);

/* The limits tttd starts with when no flag says otherwise. */
void
lobby_default_limits(struct lobby_limits *l)
{
	l->line_ms = LOBBY_LINE_MS;
	l->turn_ms = LOBBY_TURN_MS;
	l->again_ms = LOBBY_AGAIN_MS;
	l->idle_ms = LOBBY_IDLE_MS;
	l->rate = LOBBY_RATE;
	l->burst = LOBBY_BURST;
	l->room_ms = LOBBY_ROOM_MS;
	l->grace_ms = LOBBY_GRACE_MS;
	l->ai_offer_ms = LOBBY_AI_OFFER_MS;
	l->early_draw = 0;
	l->max_watchers = LOBBY_MAX_WATCHERS;
	l->fresh_ms = LOBBY_FRESH_MS;
}

/* splitmix64: one step of a good mixer, for seeding. */
static uint64_t
lobby_mix(uint64_t x)
{
	return (mix64(x + 0x9e3779b97f4a7c15ULL));
}

/*
 * Set up an empty world with its limits and a seed for its random source;
 * 0, or -1 when out of memory (or ICU gives no name checker).
 */
int
lobby_init(struct lobby *lobby, const struct lobby_host *ops,
    const struct lobby_limits *limits, uint64_t seed)
{
	uint64_t	key;
	int		i;

	memset(lobby, 0, sizeof *lobby);
	lobby->ops = ops;
	lobby->limits = *limits;
	/* Mixed, so that seeds 0, 1, 2 ... differ well. */
	lobby->rng = lobby_mix(seed);
	if (lobby->rng == 0)
		lobby->rng = 1;
	lobby->ai_rng = lobby_mix(lobby->rng) | 1;
	lobby->next_match_id = 1;
	lobby->stats.started = ops->now();
	TAILQ_INIT(&lobby->queue);
	TAILQ_INIT(&lobby->fresh);
	TAILQ_INIT(&lobby->matches);
	TAILQ_INIT(&lobby->live);
	TAILQ_INIT(&lobby->touched);
	TAILQ_INIT(&lobby->away);
	TAILQ_INIT(&lobby->listeners);
	ops->random(&key, sizeof key);
	for (i = 0; i < LOBBY_NSECRETS; i++) {
		ratelimit_init(&lobby->guesses[i], LOBBY_GUESS_BURST,
		    lobby->stats.started);
		if (addrlimit_init(&lobby->guessers[i], LOBBY_RESUME_ADDRS,
		    LOBBY_RESUME_BURST, LOBBY_RESUME_EVERY_MS, key ^ (3 + i)) ==
		    -1) {
			lobby_free(lobby);
			return (-1);
		}
	}
	if (keytab_init(&lobby->rooms, 1024, key) == -1 ||
	    keytab_init(&lobby->tokens, 4096, key ^ 1) == -1 ||
	    keytab_init(&lobby->ids, 4096, key ^ 2) == -1 ||
	    keytab_init(&lobby->names, 4096, mix64(key ^ 5)) == -1 ||
	    name_init(lobby) == -1) {
		lobby_free(lobby);
		return (-1);
	}
	lobby->cands = calloc(LOBBY_CANDS, sizeof *lobby->cands);
	lobby->cand_c = calloc(LOBBY_CANDS, sizeof *lobby->cand_c);
	if (lobby->cands == NULL || lobby->cand_c == NULL) {
		lobby_free(lobby);
		return (-1);
	}
	lobby->cands_max = LOBBY_CANDS;
	return (0);
}

/* Free the matches left, and the tables; the clients are the transport's. */
void
lobby_free(struct lobby *lobby)
{
	struct match	*m;
	int		 i;

	while ((m = TAILQ_FIRST(&lobby->matches)) != NULL)
		match_free(m);
	keytab_free(&lobby->rooms);
	keytab_free(&lobby->tokens);
	keytab_free(&lobby->ids);
	keytab_free(&lobby->names);
	name_free(lobby);
	for (i = 0; i < LOBBY_NSECRETS; i++)
		addrlimit_free(&lobby->guessers[i]);
	free(lobby->cands);
	free(lobby->cand_c);
}

/* One step of xorshift64*: the next 64-bit draw of a generator. */
static uint64_t
lobby_next(uint64_t *state)
{
	uint64_t	x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return (x * 0x2545f4914f6cdd1dULL);
}

/* A 64-bit draw for the computer's choices, from its own generator. */
uint64_t
lobby_ai_random(struct lobby *lobby)
{
	return (lobby_next(&lobby->ai_rng));
}

/*
 * A code of len characters from the code alphabet, from the OS random
 * source, without bias (bytes past the last whole alphabet are redrawn).
 */
void
lobby_code(struct lobby *lobby, char *out, size_t len)
{
	static const char	 alphabet[] = PROTO_CODE_ALPHABET;
	const unsigned		 n = sizeof alphabet - 1;
	unsigned char		 bytes[32];
	size_t			 i = 0, j;

	while (i < len) {
		lobby->ops->random(bytes, sizeof bytes);
		for (j = 0; j < sizeof bytes && i < len; j++) {
			if (bytes[j] < 256 / n * n)
				out[i++] = alphabet[bytes[j] % n];
		}
	}
	out[len] = '\0';
}

/*
 * May this client guess at a secret (a RESUME token, a ROOM JOIN code)
 * now?  Judged before the guess is looked at, so that an address out of
 * tries learns nothing.  Only wrong guesses are charged
 * (lobby_guess_failed), each to its own address, and only the addresses
 * that guessed wrong lately share the cap of them all: a right guess from
 * any other address is never refused for what others did.
 */
int
lobby_guess_allowed(struct lobby *lobby, enum lobby_secret what,
    const struct client *c)
{
	struct addrlimit	*al = &lobby->guessers[what];
	int64_t			 now = lobby->ops->now();

	if (!addrlimit_ready(al, &c->addrkey, now))
		return (0);
	return (!addrlimit_held(al, &c->addrkey, now) ||
	    ratelimit_ready_every(&lobby->guesses[what], LOBBY_GUESS_EVERY_MS,
	    LOBBY_GUESS_BURST, now));
}

/* A guess was wrong: charge the try. */
void
lobby_guess_failed(struct lobby *lobby, enum lobby_secret what,
    const struct client *c)
{
	int64_t	now = lobby->ops->now();

	ratelimit_take_every(&lobby->guesses[what], LOBBY_GUESS_EVERY_MS,
	    LOBBY_GUESS_BURST, now);
	addrlimit_take(&lobby->guessers[what], &c->addrkey, now);
}

/*
 * The lobby's next deadline in ms, 0 when none: a grace period's end,
 * the oldest new connection's time to be paired, or two signed-in
 * players' ranges wide enough for them to meet.
 */
int64_t
lobby_next_deadline(const struct lobby *lobby)
{
	const struct match_absence	*a = TAILQ_FIRST(&lobby->away);
	const struct client		*c = TAILQ_FIRST(&lobby->fresh);
	int64_t				 at[3], next = 0;
	int				 i;

	at[0] = a != NULL ? a->until : 0;
	at[1] = c != NULL ? c->queued_at + lobby->limits.fresh_ms : 0;
	at[2] = lobby->widen_at;
	for (i = 0; i < 3; i++) {
		if (at[i] != 0 && (next == 0 || at[i] < next))
			next = at[i];
	}
	return (next);
}

/*
 * The lobby's deadline may have come: grace periods that ran out, new
 * connections old enough to be paired, ranges that widened (the queue
 * is weighed again).
 */
void
lobby_expire(struct lobby *lobby)
{
	int64_t	now = lobby->ops->now();

	resume_expire(lobby, now);
	lobby_ripen(lobby, now);
	lobby->ops->wake(lobby);
}

/*
 * New connections that have stayed fresh_ms join the queue proper,
 * in the order they came, and are paired.  (Each waited as long, so the
 * oldest is always first.)
 */
static void
lobby_ripen(struct lobby *lobby, int64_t now)
{
	struct client	*c;

	while ((c = TAILQ_FIRST(&lobby->fresh)) != NULL &&
	    c->queued_at + lobby->limits.fresh_ms <= now) {
		TAILQ_REMOVE(&lobby->fresh, c, queue_entry);
		lobby->nfresh--;
		if (c->flags & CLIENT_FRONT)
			TAILQ_INSERT_HEAD(&lobby->queue, c, queue_entry);
		else
			TAILQ_INSERT_TAIL(&lobby->queue, c, queue_entry);
		c->flags &= ~(CLIENT_FRESH | CLIENT_FRONT);
		lobby->nqueued++;
	}
	lobby_pair(lobby);
}

/* A fair coin from the seeded source: 0 or 1. */
int
lobby_coin(struct lobby *lobby)
{
	return ((int)(lobby_next(&lobby->rng) >> 63));
}

/* Put a player at the back of the queue, say so, and pair if possible. */
void
lobby_join(struct lobby *lobby, struct client *c)
{
	lobby_enqueue(lobby, c, 0);
}

/*
 * A new connection: it waits in the queue like anyone, but is not paired
 * until it is fresh_ms old, so that a probe that only connects (a port
 * scan, a health check, an HTTP request) never becomes an opponent.
 */
void
lobby_join_new(struct lobby *lobby, struct client *c)
{
	if (lobby->limits.fresh_ms <= 0) {
		lobby_join(lobby, c);
		return;
	}
	if (c->place != PLACE_NONE || (c->flags & CLIENT_CLOSING))
		return;
	lobby_freshen(lobby, c, 0);
}

/*
 * The same at the front: a player whose opponent walked away before the
 * first move.  It too waits fresh_ms before it is paired (then ahead of
 * everyone), so that a line it sent before it could see its match end
 * (a MOVE on its way) is answered NO_GAME here, and never acts in the
 * match it is paired into next.
 */
void
lobby_join_front(struct lobby *lobby, struct client *c)
{
	if (lobby->limits.fresh_ms <= 0) {
		lobby_enqueue(lobby, c, 1);
		return;
	}
	if (c->place != PLACE_NONE || (c->flags & CLIENT_CLOSING) ||
	    client_home(c, CLIENT_HOME_FRONT))
		return;
	lobby_freshen(lobby, c, CLIENT_FRONT);
}

/* Into the queue, not to be paired for fresh_ms: WAIT. */
static void
lobby_freshen(struct lobby *lobby, struct client *c, int flags)
{
	char	buf[PROTO_OUT_MAX];

	client_send(c, buf, proto_fmt_wait(buf, sizeof buf, NULL));
	place_set(c, PLACE_QUEUE);
	c->flags &= ~CLIENT_OFFERED;
	c->flags |= CLIENT_FRESH | flags;
	c->queued_at = lobby->ops->now();
	clock_start(c, CLIENT_CLOCK_IDLE);
	TAILQ_INSERT_TAIL(&lobby->fresh, c, queue_entry);
	if (lobby->nfresh++ == 0)
		lobby->ops->wake(lobby);	/* the first deadline may be it */
}

static void
lobby_enqueue(struct lobby *lobby, struct client *c, int front)
{
	char	buf[PROTO_OUT_MAX];

	if (c->place == PLACE_QUEUE || c->place == PLACE_GONE ||
	    (c->flags & CLIENT_CLOSING) || client_home(c, front))
		return;
	client_send(c, buf, proto_fmt_wait(buf, sizeof buf, NULL));
	place_set(c, PLACE_QUEUE);
	c->flags &= ~CLIENT_OFFERED;
	c->queued_at = lobby->ops->now();
	clock_start(c, CLIENT_CLOCK_IDLE);
	if (front)
		TAILQ_INSERT_HEAD(&lobby->queue, c, queue_entry);
	else
		TAILQ_INSERT_TAIL(&lobby->queue, c, queue_entry);
	lobby->nqueued++;
	lobby_pair(lobby);
}

/*
 * Back at the front of the queue without a word: a player handed to
 * another node for a match that did not happen after all (its opponent
 * there had gone).  It has been told WAIT already.
 */
void
lobby_join_again(struct lobby *lobby, struct client *c)
{
	if (c->place != PLACE_NONE || (c->flags & CLIENT_CLOSING))
		return;
	place_set(c, PLACE_QUEUE);
	c->queued_at = lobby->ops->now();
	clock_start(c, CLIENT_CLOCK_IDLE);
	TAILQ_INSERT_HEAD(&lobby->queue, c, queue_entry);
	lobby->nqueued++;
	lobby_pair(lobby);
}

/* Take a player out of the queue, if it is there. */
void
lobby_leave(struct lobby *lobby, struct client *c)
{
	if (c->place != PLACE_QUEUE)
		return;
	if (c->flags & CLIENT_POSTED) {
		c->flags &= ~CLIENT_POSTED;
		LOBBY_RAISE(lobby, left_queue, c);
	}
	if (c->flags & CLIENT_FRESH) {
		TAILQ_REMOVE(&lobby->fresh, c, queue_entry);
		c->flags &= ~(CLIENT_FRESH | CLIENT_FRONT);
		lobby->nfresh--;
	} else {
		TAILQ_REMOVE(&lobby->queue, c, queue_entry);
		lobby->nqueued--;
	}
	place_set(c, PLACE_NONE);
	clock_stop(c);
}

/*
 * The first player from c on who may be paired: not one whose lines wait
 * for the other nodes (held: its RESUME, say, may seat it any
 * moment), which keeps its place.
 */
static struct client *
lobby_pairable(struct client *c)
{
	while (c != NULL && (c->flags & CLIENT_HOLDS))
		c = TAILQ_NEXT(c, queue_entry);
	return (c);
}

/* A held player may be paired again (cluster-ask.c): try now. */
void
lobby_unheld(struct lobby *lobby)
{
	lobby_pair(lobby);
}

/*
 * The accounts say who a client is from now on: signed in (rated) with
 * a rating, or a guest.  Waiting in the queue, it is taken back from
 * other nodes, to be weighed (and posted) again as it is now at the
 * next pairing: the accounts call lobby_unheld once its lines go on.
 */
void
lobby_rated(struct lobby *lobby, struct client *c, int rated, int rating)
{
	rating = rated ? rating : 0;
	if (c->rated == rated && c->rating == rating)
		return;
	/* Taken back as it was posted. */
	if (c->place == PLACE_QUEUE && (c->flags & CLIENT_POSTED)) {
		c->flags &= ~CLIENT_POSTED;
		LOBBY_RAISE(lobby, left_queue, c);
	}
	c->rated = rated;
	c->rating = rating;
	LOBBY_RAISE(lobby, rated, c);
}

/* Room in lobby->cands for the whole queue, if memory allows. */
static void
lobby_room(struct lobby *lobby)
{
	size_t	 n = lobby->cands_max;
	void	*p;

	while (n < lobby->nqueued && n < SIZE_MAX / 2 / sizeof (void *))
		n *= 2;
	if (n == lobby->cands_max)
		return;
	if ((p = realloc(lobby->cands, n * sizeof *lobby->cands)) == NULL)
		return;
	lobby->cands = p;
	if ((p = realloc(lobby->cand_c, n * sizeof *lobby->cand_c)) == NULL)
		return;
	lobby->cand_c = p;
	lobby->cands_max = n;
}

/*
 * The queue as the rule weighs it (pairing.h), in its order, but for the
 * held (who keep their place); short of memory, its front only.  Their
 * number.
 */
static size_t
lobby_weigh(struct lobby *lobby)
{
	struct client	*c;
	size_t		 n = 0;

	lobby_room(lobby);
	c = lobby_pairable(TAILQ_FIRST(&lobby->queue));
	for (; c != NULL && n < lobby->cands_max;
	    c = lobby_pairable(TAILQ_NEXT(c, queue_entry))) {
		lobby->cand_c[n] = c;
		lobby->cands[n].rated = c->rated;
		lobby->cands[n].rating = c->rating;
		lobby->cands[n].since = c->queued_at;
		n++;
	}
	return (n);
}

/*
 * Pair the players the rule pairs (pairing_choose), while it pairs any;
 * then note when ranges will have widened, and tell the host of those
 * left with nobody to meet here.
 */
static void
lobby_pair(struct lobby *lobby)
{
	struct client	*p1, *p2;
	int64_t		 now = lobby->ops->now(), widen;
	size_t		 n, a, b, i;

	for (;;) {
		n = lobby_weigh(lobby);
		if (!pairing_choose(lobby->cands, n, now, &a, &b))
			break;
		p1 = lobby->cand_c[a];
		p2 = lobby->cand_c[b];
		/*
		 * One being closed by the transport (unread output) is
		 * leaving: it goes, and is never paired.
		 */
		if ((p1->flags | p2->flags) & CLIENT_CLOSING) {
			lobby_leave(lobby, p1->flags & CLIENT_CLOSING ? p1 : p2);
			continue;
		}
		lobby_leave(lobby, p1);
		lobby_leave(lobby, p2);
		match_new(lobby, p1, p2);
	}
	if ((widen = pairing_next(lobby->cands, n, now)) != lobby->widen_at) {
		lobby->widen_at = widen;
		lobby->ops->wake(lobby);
	}
	/* Left, ready: the host may know of an opponent elsewhere. */
	for (i = 0; i < n; i++) {
		p1 = lobby->cand_c[i];
		if (!(p1->flags & (CLIENT_POSTED | CLIENT_CLOSING)))
			LOBBY_RAISE(lobby, waits_alone, p1);
	}
}

/* A service listens to the world's events from now on (l is its own). */
void
lobby_listen(struct lobby *lobby, struct lobby_listener *l,
    const struct lobby_events *ev, void *arg)
{
	l->ev = ev;
	l->arg = arg;
	TAILQ_INSERT_TAIL(&lobby->listeners, l, entry);
}

/* ... and no more. */
void
lobby_unlisten(struct lobby *lobby, struct lobby_listener *l)
{
	TAILQ_REMOVE(&lobby->listeners, l, entry);
}

/* RESUME, ROOM JOIN or WATCH found nothing here: 1 if a listener asks on. */
int
lobby_not_found(struct lobby *lobby, struct client *c,
    const struct proto_cmd *cmd)
{
	struct lobby_listener	*l;

	TAILQ_FOREACH(l, &lobby->listeners, entry) {
		if (l->ev->not_found != NULL && l->ev->not_found(l->arg, c, cmd))
			return (1);
	}
	return (0);
}

/* A match taken up carries a record to write: its listeners hear of it. */
void
lobby_record_taken(struct lobby *lobby, struct match *m)
{
	LOBBY_RAISE(lobby, record_taken, m);
}

/* A record taken up without its match (it ended): its listeners hear. */
void
lobby_record_orphaned(struct lobby *lobby, uint64_t id,
    const struct match_record *r)
{
	LOBBY_RAISE(lobby, record_orphaned, id, r);
}

/*
 * NAME, free here: 1 if a listener after this one (NULL: any) asks whether
 * it is free elsewhere; a listener that found it free passes it on.
 */
int
lobby_name_claimed_after(struct lobby *lobby, struct lobby_listener *after,
    struct client *c, const char *name)
{
	struct lobby_listener	*l;

	l = after != NULL ? TAILQ_NEXT(after, entry) :
	    TAILQ_FIRST(&lobby->listeners);
	for (; l != NULL; l = TAILQ_NEXT(l, entry)) {
		if (l->ev->name_claimed != NULL &&
		    l->ev->name_claimed(l->arg, c, name))
			return (1);
	}
	return (0);
}

/* An account's command: 1 if a listener (the accounts) takes it. */
int
lobby_account(struct lobby *lobby, struct client *c,
    const struct proto_cmd *cmd)
{
	struct lobby_listener	*l;

	TAILQ_FOREACH(l, &lobby->listeners, entry) {
		if (l->ev->account != NULL && l->ev->account(l->arg, c, cmd))
			return (1);
	}
	return (0);
}
