/*
 * match-keep.c -- a match as one line of text, and a match again from it
 * on another node (match-keep.h).
 *
 * The line: "1" (its version), the match, then each seat:
 *
 *	1 <ai> <state> <x> <o> <turn> <outcome> <last> <answer0> <answer1>
 *	  <winner> <games> <score x> <score o> <ties> <tie told>
 *	  { <held> <moved> <token> <used> <left ms> =<name> } x 2
 *
 * tokens in hex (their keys, keytab.h), the rest in decimal; a name is
 * written after '=' so that an empty one is "=".  The match's id is the
 * host's to keep with it.
 *
 * Version 2 (issue 27) begins "2" and adds, after the seats, the accounts
 * they are signed in as and the rated record of its last game not yet
 * committed (its number; 0: none, and nothing after it):
 *
 *	<account x> <account o> <game> [<account x> <account o> <winner>
 *	  <how> <at> <moves>]
 *
 * how an enum match_end, at in Unix seconds, moves the cells played in
 * order as digits 0 to 8 ("-": none).  An image with neither accounts nor
 * a record is written as version 1, which a node of the release before
 * reads.
 *
 * A rated record whose match ended before its commit is kept alone, as
 * version 2's fields after the seats (its accounts as the seats'), then
 * the seats' names:
 *
 *	<account x> <account o> <game> <account x> <account o> <winner>
 *	  <how> <at> <moves> =<name x> =<name o>
 *
 * A match taken up again has both its players away (resume.c), each for a
 * whole grace period from now, and the clock that ran keeps what was left
 * of it when the image was taken: the time a match spends between two
 * nodes counts against nobody.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "log.h"
#include "match-keep.h"
#include "name.h"

static int64_t	match_keep_left(const struct match *, int, int64_t);
static enum match_keep_error match_keep_valid(const struct match_keep *);
static int	match_keep_name_ok(const char *);
static int	match_keep_token_ok(uint64_t);
static int	match_keep_tokens_ok(const struct match_keep *);
static void	match_keep_clock(struct match *, int, int64_t);
static int	match_keep_is_v2(const struct match_keep *);
static int	match_keep_fmt_v2(const struct match_keep *, char *, size_t);
static int	match_keep_parse_v2(const char *, struct match_keep *);
static int	match_keep_record_ok(const struct match_keep *);

/* What is left of a seat's running clock (its turn, its AGAIN?); 0: all. */
static int64_t
match_keep_left(const struct match *m, int seat, int64_t now)
{
	const struct client	*c = m->player[seat];
	const struct match_absence *a = m->seat[seat].away;

	if (c != NULL && (c->clock == CLIENT_CLOCK_TURN ||
	    c->clock == CLIENT_CLOCK_AGAIN))
		return (c->clock_end > now ? c->clock_end - now : 1);
	if (a != NULL && m->state == MATCH_PLAYING)
		return (a->turn_left);
	return (0);
}

/* The image of a match, now. */
void
match_keep_take(const struct match *m, struct match_keep *k)
{
	int64_t	now = m->lobby->ops->now();
	int	i;

	memset(k, 0, sizeof *k);
	k->id = m->id;
	k->ai = m->ai;
	k->state = (int)m->state;
	k->board = m->board;
	k->answer[0] = m->answer[0];
	k->answer[1] = m->answer[1];
	k->winner = (int)m->winner;
	k->games = m->games;
	memcpy(k->score, m->score, sizeof k->score);
	k->tie_told = m->tie_told;
	for (i = 0; i < 2; i++) {
		k->seat[i].held = match_seat_taken(m, i);
		k->seat[i].moved = m->seat[i].moved;
		k->seat[i].token = m->seat[i].token.key;
		k->seat[i].used = m->seat[i].used.key;
		k->seat[i].left = match_keep_left(m, i, now);
		snprintf(k->seat[i].name, sizeof k->seat[i].name, "%s",
		    m->seat[i].name);
		k->seat[i].account = match_seat_account(m, i);
	}
	k->pending = m->pending;
}

/* Is an image version 2's (an account, or a record)? */
static int
match_keep_is_v2(const struct match_keep *k)
{
	return (k->seat[0].account != 0 || k->seat[1].account != 0 ||
	    k->pending.game != 0);
}

/* Version 2's fields after the seats: their length, or -1. */
static int
match_keep_fmt_v2(const struct match_keep *k, char *buf, size_t size)
{
	const struct match_record	*r = &k->pending;
	size_t				 n;
	int				 w;
	uint8_t				 i;

	w = snprintf(buf, size, " %" PRId64 " %" PRId64 " %u",
	    k->seat[0].account, k->seat[1].account, r->game);
	if (w < 0 || (size_t)w >= size)
		return (-1);
	if (r->game == 0)
		return (w);
	n = (size_t)w;
	w = snprintf(buf + n, size - n, " %" PRId64 " %" PRId64 " %d %d %"
	    PRId64 " %s", r->account[0], r->account[1], (int)r->winner,
	    (int)r->how, r->at, r->nmoves == 0 ? "-" : "");
	if (w < 0 || (size_t)w >= size - n)
		return (-1);
	n += (size_t)w;
	for (i = 0; i < r->nmoves; i++) {
		if (n + 1 >= size)
			return (-1);
		buf[n++] = (char)('0' + r->moves[i]);
	}
	buf[n] = '\0';
	return ((int)n);
}

/* The line of a record kept alone (its match ended): its length, or -1. */
int
match_keep_record_fmt(const struct match_record *r, char *buf, size_t size)
{
	struct match_keep	 k;
	size_t			 n;
	int			 w;

	memset(&k, 0, sizeof k);
	k.seat[0].account = r->account[0];
	k.seat[1].account = r->account[1];
	k.pending = *r;
	if (r->game == 0 || (w = match_keep_fmt_v2(&k, buf, size)) == -1)
		return (-1);
	n = (size_t)w;
	w = snprintf(buf + n, size - n, " =%s =%s", r->name[0], r->name[1]);
	if (w < 0 || (size_t)w >= size - n)
		return (-1);
	memmove(buf, buf + 1, n + (size_t)w);	/* no leading space */
	return ((int)n + w - 1);
}

/*
 * A record kept alone from its line, checked as an image's record is
 * (and both names NAME's): 0, or -1 (why says why).
 */
int
match_keep_record_parse(const char *line, struct match_record *r,
    enum match_keep_error *why)
{
	struct match_keep	 k;
	const char		*p;
	int			 i, n;

	*why = MATCH_KEEP_ESYNTAX;
	memset(&k, 0, sizeof k);
	if ((n = match_keep_parse_v2(line, &k)) == -1 || k.pending.game == 0)
		return (-1);
	p = line + n;
	for (i = 0; i < 2; i++) {
		if (p[0] != ' ' || p[1] != '=')
			return (-1);
		p += 2;
		n = (int)strcspn(p, " ");
		if (n > PROTO_NAME_MAX) {
			*why = MATCH_KEEP_ENAME;
			return (-1);
		}
		memcpy(k.pending.name[i], p, (size_t)n);
		k.pending.name[i][n] = '\0';
		p += n;
	}
	if (*p != '\0')
		return (-1);
	k.ai = MATCH_HUMAN;
	k.games = k.pending.game;
	*why = MATCH_KEEP_ERANGE;
	if (!match_keep_record_ok(&k))
		return (-1);
	*why = MATCH_KEEP_ENAME;
	for (i = 0; i < 2; i++)
		if (k.pending.name[i][0] == '\0' ||
		    !match_keep_name_ok(k.pending.name[i]))
			return (-1);
	*r = k.pending;
	*why = MATCH_KEEP_OK;
	return (0);
}

/* The line of an image: its length, or -1 if it does not fit. */
int
match_keep_fmt(const struct match_keep *k, char *buf, size_t size)
{
	size_t	n;
	int	i, w;

	w = snprintf(buf, size, "%d %d %d %u %u %u %u %u %d %d %d %u %u %u %u "
	    "%d", match_keep_is_v2(k) ? 2 : 1, k->ai, k->state, k->board.x,
	    k->board.o, k->board.turn,
	    k->board.outcome, k->board.last, k->answer[0], k->answer[1],
	    k->winner, k->games, k->score[0], k->score[1], k->score[2],
	    k->tie_told);
	if (w < 0 || (size_t)w >= size)
		return (-1);
	n = (size_t)w;
	for (i = 0; i < 2; i++) {
		w = snprintf(buf + n, size - n, " %d %d %" PRIx64 " %" PRIx64
		    " %" PRId64 " =%s", k->seat[i].held, k->seat[i].moved,
		    k->seat[i].token, k->seat[i].used, k->seat[i].left,
		    k->seat[i].name);
		if (w < 0 || (size_t)w >= size - n)
			return (-1);
		n += (size_t)w;
	}
	if (match_keep_is_v2(k)) {
		if ((w = match_keep_fmt_v2(k, buf + n, size - n)) == -1)
			return (-1);
		n += (size_t)w;
	}
	return ((int)n);
}

/* A seat's name: none (""), or one NAME would take (protocol.md §3.4). */
static int
match_keep_name_ok(const char *name)
{
	size_t	len = strlen(name);

	return (len == 0 || name_wellformed(name, len));
}

/* A resume token's key: none (0), or PROTO_TOKEN_LEN of the alphabet. */
static int
match_keep_token_ok(uint64_t key)
{
	unsigned char	b[sizeof key];
	size_t		i;

	if (key == 0)
		return (1);
	memcpy(b, &key, sizeof b);
	for (i = 0; i < PROTO_TOKEN_LEN; i++) {
		if (b[i] == '\0' || strchr(PROTO_CODE_ALPHABET, b[i]) == NULL)
			return (0);
	}
	return (1);
}

/* The tokens: each well formed, and none of them twice. */
static int
match_keep_tokens_ok(const struct match_keep *k)
{
	uint64_t	t[4];
	int		i, j;

	for (i = 0; i < 2; i++) {
		t[2 * i] = k->seat[i].token;
		t[2 * i + 1] = k->seat[i].used;
	}
	for (i = 0; i < 4; i++) {
		if (!match_keep_token_ok(t[i]))
			return (0);
		for (j = 0; j < i; j++) {
			if (t[i] != 0 && t[i] == t[j])
				return (0);
		}
	}
	return (1);
}

/*
 * The accounts and the record: ids from 1 (or none), a record of a game
 * played (one of the match's, human), its cells each once.
 */
static int
match_keep_record_ok(const struct match_keep *k)
{
	const struct match_record	*r = &k->pending;
	unsigned			 seen = 0;
	uint8_t				 i;

	if (k->seat[0].account < 0 || k->seat[1].account < 0)
		return (0);
	if (r->game == 0)
		return (1);
	if (r->game > k->games || k->ai != MATCH_HUMAN ||
	    r->account[0] < 0 || r->account[1] < 0 ||
	    (int)r->winner < TTT_EMPTY || (int)r->winner > TTT_O ||
	    (int)r->how < MATCH_END_LINE || (int)r->how > MATCH_END_GONE_TIME ||
	    r->at < 0 || r->nmoves > TTT_CELLS)
		return (0);
	for (i = 0; i < r->nmoves; i++) {
		if (r->moves[i] >= TTT_CELLS || (seen & (1u << r->moves[i])))
			return (0);
		seen |= 1u << r->moves[i];
	}
	return (1);
}

/*
 * Does an image make a match the rules could have made?  Its fields in
 * range, its names NAME's, its board one of play (and over while its
 * players are asked AGAIN?, with the winner it says), its tokens good.
 */
static enum match_keep_error
match_keep_valid(const struct match_keep *k)
{
	const struct ttt_board	*b = &k->board;
	int			 i;

	if ((k->ai != MATCH_HUMAN && k->ai != PROTO_LEVEL_PERFECT &&
	    k->ai != PROTO_LEVEL_EASY) ||
	    (k->state != MATCH_PLAYING && k->state != MATCH_ASKING) ||
	    b->x > 0x1ff || b->o > 0x1ff || (b->x & b->o) != 0 ||
	    (b->turn != TTT_X && b->turn != TTT_O) ||
	    b->outcome > TTT_DRAW || b->last > TTT_CELLS ||
	    k->winner < TTT_EMPTY || k->winner > TTT_O || k->games == 0 ||
	    (!k->seat[0].held && !k->seat[1].held))
		return (MATCH_KEEP_ERANGE);
	for (i = 0; i < 2; i++) {
		if ((k->answer[i] != MATCH_UNANSWERED && k->answer[i] != 1) ||
		    k->seat[i].left < 0 || k->seat[i].held < 0 ||
		    k->seat[i].held > 1 || k->seat[i].moved < 0 ||
		    k->seat[i].moved > 1)
			return (MATCH_KEEP_ERANGE);
		if (!match_keep_name_ok(k->seat[i].name))
			return (MATCH_KEEP_ENAME);
	}
	/*
	 * The computer's seat is always held.  A game on has both its seats
	 * (one who leaves for good loses it), nobody answered yet; AGAIN?
	 * asked is not answered by both (the next game would have begun).
	 */
	if ((k->ai != MATCH_HUMAN && !k->seat[1].held) ||
	    (k->state == MATCH_PLAYING ? !k->seat[0].held || !k->seat[1].held ||
	    k->answer[0] != MATCH_UNANSWERED ||
	    k->answer[1] != MATCH_UNANSWERED :
	    k->answer[0] == 1 && k->answer[1] == 1))
		return (MATCH_KEEP_ERANGE);
	if (!ttt_board_valid(b) || (k->state == MATCH_PLAYING &&
	    b->outcome != TTT_ONGOING) || (b->outcome != TTT_ONGOING &&
	    k->winner != (int)ttt_board_winner(b)))
		return (MATCH_KEEP_EBOARD);
	if (!match_keep_tokens_ok(k))
		return (MATCH_KEEP_ETOKEN);
	if (!match_keep_record_ok(k))
		return (MATCH_KEEP_ERANGE);
	return (MATCH_KEEP_OK);
}

/* What a refusal says, for the log. */
const char *
match_keep_strerror(enum match_keep_error e)
{
	static const char *const why[MATCH_KEEP_NERRORS] = {
		"an image",
		"not an image",
		"a field out of range",
		"a name NAME refuses",
		"a board play cannot make",
		"a resume token malformed or twice",
		"a match of its id is here",
		"nobody is left in it",
		"a resume token of another match"
	};

	return ((unsigned)e < MATCH_KEEP_NERRORS ? why[e] : "?");
}

/* Version 2's fields after the seats: the bytes read, or -1. */
static int
match_keep_parse_v2(const char *p, struct match_keep *k)
{
	struct match_record	*r = &k->pending;
	long long		 a0, a1, r0, r1, at;
	unsigned		 game;
	int			 winner, how, n = 0, m = 0;

	if (sscanf(p, " %lld %lld %u%n", &a0, &a1, &game, &n) != 3 || n == 0)
		return (-1);
	k->seat[0].account = (int64_t)a0;
	k->seat[1].account = (int64_t)a1;
	r->game = game;
	if (game == 0)
		return (n);
	if (sscanf(p + n, " %lld %lld %d %d %lld %n", &r0, &r1, &winner,
	    &how, &at, &m) != 5 || m == 0)
		return (-1);
	n += m;
	r->account[0] = (int64_t)r0;
	r->account[1] = (int64_t)r1;
	r->winner = (enum ttt_mark)winner;
	r->how = (enum match_end)how;
	r->at = (int64_t)at;
	if (p[n] == '-')
		return (p[n + 1] == '\0' || p[n + 1] == ' ' ? n + 1 : -1);
	while (p[n] >= '0' && p[n] <= '8') {
		if (r->nmoves >= TTT_CELLS)
			return (-1);
		r->moves[r->nmoves++] = (uint8_t)(p[n++] - '0');
	}
	return (r->nmoves > 0 ? n : -1);
}

/* An image from its line: 0, or -1 if it is not one (why says why). */
int
match_keep_parse(const char *line, struct match_keep *k,
    enum match_keep_error *why)
{
	unsigned		x, o, turn, outcome, last;
	int			i, n = 0, version;
	long long		left;
	const char		*p;
	enum match_keep_error	dummy;

	if (why == NULL)
		why = &dummy;
	*why = MATCH_KEEP_ESYNTAX;
	memset(k, 0, sizeof *k);
	if (sscanf(line, "%d %d %d %u %u %u %u %u %d %d %d %u %u %u %u %d%n",
	    &version, &k->ai, &k->state, &x, &o, &turn, &outcome, &last, &k->answer[0],
	    &k->answer[1], &k->winner, &k->games, &k->score[0], &k->score[1],
	    &k->score[2], &k->tie_told, &n) != 16 ||
	    (version != 1 && version != 2) || line[0] != '0' + version)
		return (-1);
	p = line + n;
	for (i = 0; i < 2; i++) {
		n = 0;
		if (sscanf(p, " %d %d %" SCNx64 " %" SCNx64 " %lld =%n",
		    &k->seat[i].held, &k->seat[i].moved, &k->seat[i].token,
		    &k->seat[i].used, &left, &n) != 5 || n == 0)
			return (-1);
		p += n;
		k->seat[i].left = (int64_t)left;
		n = (int)strcspn(p, " ");
		if (n > PROTO_NAME_MAX) {
			*why = MATCH_KEEP_ENAME;
			return (-1);
		}
		memcpy(k->seat[i].name, p, (size_t)n);
		k->seat[i].name[n] = '\0';
		p += n;
	}
	if (version == 2 && (n = match_keep_parse_v2(p, k)) == -1)
		return (-1);
	if (version == 2)
		p += n;
	if (*p != '\0')
		return (-1);
	*why = MATCH_KEEP_ERANGE;
	if (x > 0x1ff || o > 0x1ff || turn > 2 || outcome > 3 ||
	    last > TTT_CELLS)
		return (-1);
	k->board.x = (uint16_t)x;
	k->board.o = (uint16_t)o;
	k->board.turn = (uint8_t)turn;
	k->board.outcome = (uint8_t)outcome;
	k->board.last = (uint8_t)last;
	*why = match_keep_valid(k);
	return (*why == MATCH_KEEP_OK ? 0 : -1);
}

/*
 * An away seat's clock that was running must end by now + what was left
 * of it (all of it: 0) + one grace period, however often it comes back.
 */
static void
match_keep_clock(struct match *m, int seat, int64_t left)
{
	struct lobby	*lobby = m->lobby;
	int64_t		 full = m->state == MATCH_PLAYING ?
			    lobby->limits.turn_ms : lobby->limits.again_ms;

	if (full <= 0)
		return;
	if (left <= 0 || left > full)
		left = full;
	m->seat[seat].clock_by = lobby->ops->now() + left +
	    lobby->limits.grace_ms;
}

/*
 * A match again, from its image (valid: match_keep_parse), both players
 * away: NULL if a match of that id is here already, no player is left in
 * it, or a token of its is another match's here (why says which).
 */
struct match *
match_keep_restore(struct lobby *lobby, const struct match_keep *k,
    enum match_keep_error *why)
{
	struct match		*m;
	enum match_keep_error	 dummy;
	int			 i, runs;

	if (why == NULL)
		why = &dummy;
	if (keytab_find(&lobby->ids, k->id) != NULL) {
		*why = MATCH_KEEP_EHERE;
		return (NULL);
	}
	if (!(k->seat[0].held) && !(k->seat[1].held && k->ai == MATCH_HUMAN)) {
		*why = MATCH_KEEP_EEMPTY;
		return (NULL);
	}
	for (i = 0; i < 2; i++) {
		if ((k->seat[i].token != 0 && keytab_find(&lobby->tokens,
		    k->seat[i].token) != NULL) || (k->seat[i].used != 0 &&
		    keytab_find(&lobby->tokens, k->seat[i].used) != NULL)) {
			*why = MATCH_KEEP_ETAKEN;
			return (NULL);
		}
	}
	*why = MATCH_KEEP_OK;
	m = match_alloc(lobby, k->id);
	m->ai = k->ai;
	if (m->ai != MATCH_HUMAN)
		lobby->nai++;
	m->state = (enum match_state)k->state;
	m->board = k->board;
	m->answer[0] = k->answer[0];
	m->answer[1] = k->answer[1];
	m->winner = (enum ttt_mark)k->winner;
	m->games = k->games;
	memcpy(m->score, k->score, sizeof m->score);
	m->tie_told = k->tie_told;
	m->pending = k->pending;
	for (i = 0; i < 2; i++) {
		snprintf(m->seat[i].name, sizeof m->seat[i].name, "%s",
		    k->seat[i].name);
		m->seat[i].moved = (uint8_t)k->seat[i].moved;
		m->seat[i].account = k->seat[i].account;
		if (!k->seat[i].held) {
			match_unlive(m);
			continue;
		}
		if (i == 1 && m->ai != MATCH_HUMAN)
			continue;
		if (k->seat[i].token != 0)
			keytab_add(&lobby->tokens, &m->seat[i].token,
			    k->seat[i].token, m);
		if (k->seat[i].used != 0)
			keytab_add(&lobby->tokens, &m->seat[i].used,
			    k->seat[i].used, m);
		runs = m->state == MATCH_PLAYING ?
		    ttt_board_turn(&m->board) == (i == 0 ? TTT_X : TTT_O) :
		    m->answer[i] != 1;
		resume_away(m, i, runs && m->state == MATCH_PLAYING ?
		    k->seat[i].left : 0);
		if (runs)
			match_keep_clock(m, i, k->seat[i].left);
	}
	log_info("match %llu: taken up again (game %u, %s vs %s)",
	    (unsigned long long)m->id, m->games, match_name(m, 0),
	    match_name(m, 1));
	return (m);
}
