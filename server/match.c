/*
 * match.c -- the life of a match: games, results, play again, leaving.
 *
 * Handlers check a command first (match_play judges a move by the rules
 * engine alone; match_check_answer), send its OK reply, and only then
 * tell its events (match_moved, match_again), so that the reply always
 * comes before the events it causes.  The computer's move takes the same
 * road (match_next), at once, when its TURN is sent.  Every way a game
 * ends (enum match_end) goes through one funnel, match_end_game, which
 * records the result and asks AGAIN?.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ai.h"
#include "clock.h"
#include "log.h"
#include "match.h"
#include "place.h"

static const char *match_seat_names[2] = { "p1", "p2" };

static void	match_sit(struct match *, int, struct client *);
static void	match_start(struct match *, enum ttt_mark);
static void	match_send_turns(struct match *);
static enum ttt_mark match_send_turn(const struct match *, struct client *);
static void	match_next(struct match *, int);
static void	match_end_game(struct match *, enum ttt_mark, enum match_end);
static void	match_log_end(const struct match *, enum ttt_mark,
		    enum match_end);
static int	match_fmt_end(const struct match *, enum ttt_mark,
		    enum match_end, char *, size_t);
static void	match_detach(struct match *, int);
static int	match_humans(const struct match *);
static const char *match_addr(const struct match *, int);
static void	match_clock_by(struct match *, int, int64_t);

/* A new, empty match, filed under its id (0: the next one). */
struct match *
match_alloc(struct lobby *lobby, uint64_t id)
{
	struct match	*m;

	if ((m = calloc(1, sizeof *m)) == NULL)
		fatalx("out of memory");
	/* A match taken up (an id from Redis) may hold the next id: skipped. */
	while (id == 0 && keytab_find(&lobby->ids, lobby->next_match_id) !=
	    NULL)
		lobby->next_match_id++;
	m->id = id != 0 ? id : lobby->next_match_id++;
	m->lobby = lobby;
	m->ai = MATCH_HUMAN;
	TAILQ_INIT(&m->watchers);
	ratelimit_init(&m->watch_notes, LOBBY_WATCH_NOTES, lobby->ops->now());
	TAILQ_INSERT_TAIL(&lobby->matches, m, entry);
	lobby->nmatches++;
	m->live = 1;		/* both seats are taken next */
	TAILQ_INSERT_TAIL(&lobby->live, m, live_entry);
	lobby->nlive++;
	keytab_add(&lobby->ids, &m->id_entry, m->id, m);
	match_touch(m);
	return (m);
}

/*
 * The match changed in what its host keeps of it (lobby->keep: its
 * image, match-keep.c): on lobby->touched, once, until the host takes it.
 */
void
match_touch(struct match *m)
{
	struct lobby	*lobby = m->lobby;

	if (!lobby->keep)
		return;
	LOBBY_RAISE(lobby, match_touched, m);
	if (m->touched)
		return;
	m->touched = 1;
	TAILQ_INSERT_TAIL(&lobby->touched, m, touched_entry);
}

/* The account a seat's player is (or was, away) signed in as; 0: none. */
int64_t
match_seat_account(const struct match *m, int seat)
{
	if (m->player[seat] != NULL)
		return (m->player[seat]->account_id);
	return (m->seat[seat].account);
}

/* A rated game's record is on its way: kept with the match until done. */
void
match_record_hold(struct match *m, const struct match_record *r)
{
	m->pending = *r;
	match_touch(m);
}

/*
 * A match's record of game number game is committed (or will never be):
 * the next image of the match, if it is still here, carries it no more;
 * a match ended meanwhile (or never here: a record taken up alone) has
 * its record_settled listeners told, so that its kept record goes.
 */
void
match_record_done(struct lobby *lobby, uint64_t id, unsigned game)
{
	struct match	*m = keytab_find(&lobby->ids, id);

	if (m == NULL) {
		LOBBY_RAISE(lobby, record_settled, id, game);
		return;
	}
	if (m->pending.game != game)
		return;
	memset(&m->pending, 0, sizeof m->pending);
	match_touch(m);
}

/* Seat a connected player. */
static void
match_sit(struct match *m, int i, struct client *c)
{
	m->player[i] = c;
	c->match = m;
	c->seat = i;
	place_set(c, PLACE_MATCH);
	snprintf(m->seat[i].name, sizeof m->seat[i].name, "%s", c->name);
}

/* Pair two players: p1 waited longer and plays X. */
void
match_new(struct lobby *lobby, struct client *p1, struct client *p2)
{
	struct match	*m = match_alloc(lobby, 0);
	char		 buf[PROTO_OUT_MAX];
	int		 i;

	match_sit(m, 0, p1);
	match_sit(m, 1, p2);
	log_info("match %llu: client %llu %s (%s, X) vs client %llu %s (%s, O)",
	    (unsigned long long)m->id, (unsigned long long)p1->id, p1->addr,
	    match_name(m, 0), (unsigned long long)p2->id, p2->addr,
	    match_name(m, 1));
	for (i = 0; i < 2; i++) {
		client_send(m->player[i], buf, proto_fmt_match(buf,
		    sizeof buf, i == 0 ? TTT_X : TTT_O, match_name(m, !i)));
		match_send_token(m, i);
	}
	match_start(m, lobby_coin(lobby) ? TTT_X : TTT_O);
}

/* A player against the computer, which takes seat 1 (O). */
void
match_new_ai(struct lobby *lobby, struct client *c, enum proto_level level)
{
	struct match	*m = match_alloc(lobby, 0);
	char		 buf[PROTO_OUT_MAX];

	m->ai = (int)level;
	lobby->nai++;
	match_sit(m, 0, c);
	log_info("match %llu: client %llu %s (%s, X) vs the computer (%s)",
	    (unsigned long long)m->id, (unsigned long long)c->id, c->addr,
	    match_name(m, 0), level == PROTO_LEVEL_EASY ? "easy" : "perfect");
	client_send(c, buf, proto_fmt_match(buf, sizeof buf, TTT_X,
	    match_name(m, 1)));
	match_send_token(m, 0);
	match_start(m, lobby_coin(lobby) ? TTT_X : TTT_O);
}

/*
 * Free a match.  Its players and watchers must be gone already, except
 * when the whole lobby is being freed.
 */
void
match_free(struct match *m)
{
	struct lobby	*lobby = m->lobby;
	struct client	*w;
	int		 i;

	for (i = 0; i < 2; i++) {
		if (m->player[i] != NULL) {
			m->player[i]->match = NULL;
			place_set(m->player[i], PLACE_NONE);
		}
		resume_forget(m, i);
	}
	while ((w = TAILQ_FIRST(&m->watchers)) != NULL)
		watch_stop(w);
	keytab_del(&lobby->ids, &m->id_entry);
	match_unlive(m);
	if (m->touched)
		TAILQ_REMOVE(&lobby->touched, m, touched_entry);
	LOBBY_RAISE(lobby, match_freed, m);
	if (m->ai != MATCH_HUMAN)
		lobby->nai--;
	TAILQ_REMOVE(&lobby->matches, m, entry);
	lobby->nmatches--;
	free(m);
}

/* The mark a player in a match plays. */
enum ttt_mark
match_mark(const struct client *c)
{
	return (c->seat == 0 ? TTT_X : TTT_O);
}

/* A seat's name: its player's own, "ai", or p1/p2; also after it left. */
const char *
match_name(const struct match *m, int seat)
{
	if (m->seat[seat].name[0] != '\0')
		return (m->seat[seat].name);
	if (seat == 1 && m->ai != MATCH_HUMAN)
		return ("ai");
	return (match_seat_names[seat]);
}

/* For the log: where a seat's player connects from. */
static const char *
match_addr(const struct match *m, int seat)
{
	if (m->player[seat] != NULL)
		return (m->player[seat]->addr);
	if (seat == 1 && m->ai != MATCH_HUMAN)
		return ("the computer");
	return ("(away)");
}

/* Is the seat still in the match: connected, away, or the computer's? */
int
match_seat_taken(const struct match *m, int seat)
{
	return (m->player[seat] != NULL || m->seat[seat].away != NULL ||
	    (seat == 1 && m->ai != MATCH_HUMAN));
}

/*
 * Are both seats taken (GAMES lists it, WATCH may watch it)?  From the
 * pairing until a seat is emptied for good, which is never taken again.
 */
int
match_live(const struct match *m)
{
	return (m->live);
}

/* A seat is being emptied for good: the match is live no more. */
void
match_unlive(struct match *m)
{
	if (!m->live)
		return;
	m->live = 0;
	TAILQ_REMOVE(&m->lobby->live, m, live_entry);
	m->lobby->nlive--;
}

/* Players still in the match, connected or away. */
static int
match_humans(const struct match *m)
{
	int	i, n = 0;

	for (i = 0; i < 2; i++)
		n += m->player[i] != NULL || m->seat[i].away != NULL;
	return (n);
}

/*
 * Fix when an away seat's clock of full ms (its turn, its AGAIN?) must end
 * at the latest, returns and further losses included: after all of its
 * time and one grace period.  0 ms: that clock does not run.
 */
static void
match_clock_by(struct match *m, int seat, int64_t ms)
{
	struct lobby	*lobby = m->lobby;

	m->seat[seat].clock_by = ms <= 0 ? 0 :
	    lobby->ops->now() + ms + lobby->limits.grace_ms;
}

/* Send the same bytes to every player connected to the match. */
void
match_broadcast(struct match *m, const char *buf, int len)
{
	int	i;

	for (i = 0; i < 2; i++) {
		if (m->player[i] != NULL)
			client_send(m->player[i], buf, len);
	}
}

/* The same bytes to the players and the watchers. */
void
match_announce(struct match *m, const char *buf, int len)
{
	match_broadcast(m, buf, len);
	watch_send(m, buf, len);
}

/* Begin a game: START, BOARD and TURN to all. */
static void
match_start(struct match *m, enum ttt_mark first)
{
	char	buf[PROTO_OUT_MAX];

	match_touch(m);
	ttt_board_init(&m->board, first);
	m->state = MATCH_PLAYING;
	m->answer[0] = m->answer[1] = MATCH_UNANSWERED;
	m->games++;
	m->tie_told = 0;
	m->nmoves = 0;
	match_announce(m, buf, proto_fmt_start(buf, sizeof buf, first,
	    match_name(m, first == TTT_X ? 0 : 1)));
	match_announce(m, buf, proto_fmt_board(buf, sizeof buf, &m->board));
	match_send_turns(m);
}

/*
 * TURN to all: the prompt to the mover, a wait line to the others.  The
 * mover's clock starts; an absent mover's waits for its return; the
 * computer moves at once.
 */
static void
match_send_turns(struct match *m)
{
	enum ttt_mark	 mover = ttt_board_turn(&m->board);
	int		 seat = (mover == TTT_X) ? 0 : 1, i;
	char		 buf[PROTO_OUT_MAX];

	for (i = 0; i < 2; i++) {
		if (m->player[i] == NULL)
			continue;
		client_send(m->player[i], buf, proto_fmt_turn(buf, sizeof buf,
		    mover, i == seat, match_name(m, seat)));
		if (i == seat)
			clock_start(m->player[i], CLIENT_CLOCK_TURN);
		else
			clock_stop(m->player[i]);
	}
	if (!TAILQ_EMPTY(&m->watchers))
		watch_send(m, buf, proto_fmt_turn(buf, sizeof buf, mover, 0,
		    match_name(m, seat)));
	m->seat[seat].clock_by = 0;	/* fixed when it first goes away */
	if (m->seat[seat].away != NULL) {
		m->seat[seat].away->turn_left = 0;	/* all of its time */
		match_clock_by(m, seat, m->lobby->limits.turn_ms);
	}
	if (seat == 1 && m->ai != MATCH_HUMAN) {
		if (ttt_board_play(&m->board, TTT_O, ttt_ai_move(&m->board,
		    m->ai == PROTO_LEVEL_EASY ? TTT_AI_EASY : TTT_AI_PERFECT,
		    lobby_ai_random(m->lobby))) == TTT_OK)
			match_next(m, 1);
		else
			log_error("match %llu: the computer found no move",
			    (unsigned long long)m->id);
	}
}

/*
 * The line that says how a game ended, won by w (TTT_EMPTY: a tie): its
 * length, 0 if it did not fit.
 */
static int
match_fmt_end(const struct match *m, enum ttt_mark w, enum match_end how,
    char *buf, size_t size)
{
	int	win = w == TTT_O, n;

	switch (how) {
	case MATCH_END_LINE:
	case MATCH_END_FULL:
		n = proto_fmt_result(buf, size, &m->board, match_name(m, win),
		    match_name(m, !win));
		break;
	case MATCH_END_EARLY_DRAW:
		n = proto_fmt_tie(buf, size);
		break;
	case MATCH_END_RESIGN:
		n = proto_fmt_resign(buf, size, w, match_name(m, win),
		    match_name(m, !win));
		break;
	default:		/* a forfeit: time, or the loser left */
		n = proto_fmt_forfeit(buf, size, w, match_name(m, win),
		    match_name(m, !win), how == MATCH_END_QUIT ?
		    PROTO_LEAVE_QUIT : how == MATCH_END_DROP ?
		    PROTO_LEAVE_DROP : PROTO_LEAVE_TIMEOUT);
		break;
	}
	return (n < (int)size ? n : 0);
}

/* For the log: how a game ended, won by w (TTT_EMPTY: a tie). */
static void
match_log_end(const struct match *m, enum ttt_mark w, enum match_end how)
{
	int	win = w == TTT_O;

	if (how >= MATCH_END_QUIT)
		log_info("match %llu: game %u forfeited by %s",
		    (unsigned long long)m->id, m->games, match_name(m, !win));
	else if (how == MATCH_END_TIME)
		log_info("match %llu: game %u lost on time by %s",
		    (unsigned long long)m->id, m->games, match_name(m, !win));
	else if (w == TTT_EMPTY)
		log_info("match %llu: game %u is a tie (%s vs %s)",
		    (unsigned long long)m->id, m->games, match_addr(m, 0),
		    match_addr(m, 1));
	else
		log_info("match %llu: game %u won by %s (%c) from %s",
		    (unsigned long long)m->id, m->games, match_name(m, win),
		    ttt_mark_char(w), match_addr(m, win));
}

/*
 * Every game's end, however it came (how), won by w (TTT_EMPTY: a tie):
 * the result recorded and counted; the line that says how and the score
 * to all, and to the players AGAIN? with its clock, one send each (a
 * game's end costs its players one write, as a move does).  A loser who
 * left is told and asked nothing; an opponent leaving too (shutdown, a
 * peer not reading) neither, and the game is only counted (its result is
 * w and how, not kept in m).  The computer always wants another game.
 */
static void
match_end_game(struct match *m, enum ttt_mark w, enum match_end how)
{
	struct lobby	*lobby = m->lobby;
	int		 loser = w == TTT_X, left = how >= MATCH_END_QUIT;
	int		 quiet, i, n;
	struct client	*wc = m->player[!loser];
	char		 buf[PROTO_OUT_MAX];

	match_touch(m);
	m->state = MATCH_ASKING;
	lobby->stats.games_finished++;
	if (how == MATCH_END_RESIGN)
		lobby->stats.resigns++;
	if (how >= MATCH_END_TIME)
		lobby->stats.forfeits++;
	else if (w == TTT_EMPTY)
		lobby->stats.ties++;
	else
		lobby->stats.wins++;
	quiet = left && wc != NULL && (wc->flags & CLIENT_CLOSING);
	if (!quiet) {
		m->winner = w;
		m->score[w == TTT_EMPTY ? 2 : w == TTT_O]++;
		match_log_end(m, w, how);
	}
	LOBBY_RAISE(lobby, game_ended, m, w, how);
	if (quiet)
		return;
	n = match_fmt_end(m, w, how, buf, sizeof buf);
	n += proto_fmt_score(buf + n, sizeof buf - (size_t)n, match_name(m, 0),
	    m->score[0], match_name(m, 1), m->score[1], m->score[2]);
	watch_send(m, buf, n);
	n += proto_fmt_again_question(buf + n, sizeof buf - (size_t)n);
	for (i = 0; i < 2; i++) {
		if (m->player[i] != NULL && !(left && i == loser))
			client_send(m->player[i], buf, n);
	}
	for (i = 0; i < 2; i++) {
		if (left && i == loser)
			continue;
		m->seat[i].clock_by = 0;
		if (m->player[i] != NULL)
			clock_start(m->player[i], CLIENT_CLOCK_AGAIN);
		else if (m->seat[i].away != NULL)
			match_clock_by(m, i, lobby->limits.again_ms);
	}
	if (m->ai != MATCH_HUMAN)
		m->answer[1] = 1;
}

/*
 * A player's move, judged by the rules engine alone: PROTO_OK when the
 * board took it (the caller replies, then calls match_moved), else the
 * error, and nothing changed.
 */
enum proto_error
match_play(struct client *c, int cell)
{
	static const enum proto_error	 why[] = {
		[TTT_OK] = PROTO_OK,
		[TTT_ERANGE] = PROTO_EBAD_CELL,
		[TTT_EOCCUPIED] = PROTO_ETAKEN,
		[TTT_ETURN] = PROTO_ENOT_YOUR_TURN,
		[TTT_EOVER] = PROTO_ENO_GAME
	};
	struct match			*m = c->match;
	enum ttt_error			 e;

	if (m == NULL || m->state != MATCH_PLAYING)
		return (PROTO_ENO_GAME);
	e = ttt_board_play(&m->board, match_mark(c), cell);
	if (e == TTT_OK) {
		match_touch(m);		/* kept before OK MOVE is out */
		if (m->nmoves < TTT_CELLS)
			m->moves[m->nmoves++] = (uint8_t)cell;
	}
	return ((size_t)e < sizeof why / sizeof why[0] ? why[e] :
	    PROTO_ENO_GAME);
}

/* A player's move is on the board (match_play): tell everyone. */
void
match_moved(struct client *c)
{
	match_next(c->match, c->seat);
}

/*
 * After a seat's move: BOARD to all, then TURN or RESULT.  A game that
 * nobody can win any more is said so once, or ended there with
 * --early-draw.
 */
static void
match_next(struct match *m, int seat)
{
	char		buf[PROTO_OUT_MAX];
	enum ttt_mark	w;

	if (m->games == 1)
		m->seat[seat].moved = 1;
	m->lobby->stats.moves++;
	match_announce(m, buf, proto_fmt_board(buf, sizeof buf, &m->board));
	if (ttt_board_outcome(&m->board) != TTT_ONGOING) {
		w = ttt_board_winner(&m->board);
		match_end_game(m, w, w == TTT_EMPTY ? MATCH_END_FULL :
		    MATCH_END_LINE);
		return;
	}
	if (!m->tie_told && !ttt_board_winnable(&m->board)) {
		if (m->lobby->limits.early_draw) {
			match_end_game(m, TTT_EMPTY, MATCH_END_EARLY_DRAW);
			return;
		}
		m->tie_told = 1;
		match_announce(m, buf, proto_fmt_info(buf, sizeof buf,
		    "This game can only end in a tie."));
	}
	match_send_turns(m);
}

/*
 * A player loses the game in progress, as how says (it resigned, its turn
 * clock ran out): its opponent wins, and both are asked AGAIN?.
 */
void
match_lose(struct client *c, enum match_end how)
{
	match_end_game(c->match, c->seat == 0 ? TTT_O : TTT_X, how);
}

/*
 * Send this player the board of its match, or of the one it watches, and
 * while a game is on its TURN: whose move it is, as when the turn began.
 */
void
match_send_board(struct client *c)
{
	const struct match	*m = c->match != NULL ? c->match : c->watching;
	char			 buf[PROTO_OUT_MAX];

	client_send(c, buf, proto_fmt_board(buf, sizeof buf, &m->board));
	if (m->state == MATCH_PLAYING)
		match_send_turn(m, c);
}

/*
 * The game's TURN again, to one of its players or watchers (who gets the
 * waiting form); returns the mark to move.
 */
static enum ttt_mark
match_send_turn(const struct match *m, struct client *c)
{
	enum ttt_mark	 mover = ttt_board_turn(&m->board);
	char		 buf[PROTO_OUT_MAX];

	client_send(c, buf, proto_fmt_turn(buf, sizeof buf, mover,
	    c->match == m && mover == match_mark(c),
	    match_name(m, mover == TTT_O)));
	return (mover);
}

/*
 * Where a returning player stands: MATCH, BOARD, and its TURN, or its
 * open question, or its wait for the opponent's answer; its clocks go on.
 */
void
match_send_state(struct match *m, int seat, int64_t turn_left)
{
	struct client	*c = m->player[seat];
	enum ttt_mark	 mover;
	char		 buf[PROTO_OUT_MAX];

	client_send(c, buf, proto_fmt_match(buf, sizeof buf, match_mark(c),
	    match_name(m, !seat)));
	client_send(c, buf, proto_fmt_board(buf, sizeof buf, &m->board));
	if (m->state == MATCH_PLAYING) {
		mover = match_send_turn(m, c);
		if (mover == match_mark(c)) {
			clock_resume(c, CLIENT_CLOCK_TURN, turn_left);
			clock_cap(c, m->seat[seat].clock_by);
		}
	} else if (m->answer[seat] != 1) {
		client_send(c, buf, proto_fmt_again_question(buf,
		    sizeof buf));
		clock_start(c, CLIENT_CLOCK_AGAIN);
		clock_cap(c, m->seat[seat].clock_by);
	} else
		client_send(c, buf, proto_fmt_wait(buf, sizeof buf,
		    match_name(m, !seat)));
}

/* A fresh resume token for a seat, if lost players may come back. */
void
match_send_token(struct match *m, int seat)
{
	struct lobby	*lobby = m->lobby;
	char		 code[PROTO_TOKEN_LEN + 1], buf[PROTO_OUT_MAX];

	if (lobby->limits.grace_ms <= 0 || m->player[seat] == NULL)
		return;
	do
		lobby_code(lobby, code, PROTO_TOKEN_LEN);
	while (keytab_find(&lobby->tokens, keytab_code(code)) != NULL);
	keytab_del(&lobby->tokens, &m->seat[seat].token);
	keytab_add(&lobby->tokens, &m->seat[seat].token, keytab_code(code), m);
	match_touch(m);
	client_send(m->player[seat], buf, proto_fmt_token(buf, sizeof buf,
	    code, (long long)lobby->limits.grace_ms));
}

/* Is this player's AGAIN? question open?  PROTO_OK or NOT_NOW. */
enum proto_error
match_check_answer(const struct client *c)
{
	const struct match	*m = c->match;

	if (m == NULL || m->state != MATCH_ASKING ||
	    m->answer[c->seat] != MATCH_UNANSWERED)
		return (PROTO_ENOT_NOW);
	return (PROTO_OK);
}

/*
 * A checked yes to AGAIN?: wait for the opponent, or start the next game,
 * or, if the opponent has left, go back to the queue.  (A no is leaving:
 * see match_leave.)
 */
void
match_again(struct client *c)
{
	struct match	*m = c->match;
	int		 other = !c->seat;
	enum ttt_mark	 first;
	char		 buf[PROTO_OUT_MAX];

	if (!match_seat_taken(m, other)) {
		match_detach(m, c->seat);
		lobby_join(c->lobby, c);
		return;
	}
	match_touch(m);
	m->answer[c->seat] = 1;
	clock_stop(c);
	if (m->answer[other] != 1) {
		client_send(c, buf, proto_fmt_wait(buf, sizeof buf,
		    match_name(m, other)));
		return;
	}
	/* Both said yes: the winner starts; after a tie, a coin decides. */
	first = m->winner;
	if (first == TTT_EMPTY)
		first = lobby_coin(m->lobby) ? TTT_X : TTT_O;
	log_debug("match %llu: rematch", (unsigned long long)m->id);
	match_start(m, first);
}

/*
 * Empty a seat for good: its player (if connected) leaves, its token dies,
 * the watchers are let go (the match is no longer live), and the match is
 * freed when no player is left in it.
 */
static void
match_detach(struct match *m, int seat)
{
	struct client	*c = m->player[seat];

	match_touch(m);
	match_unlive(m);
	if (c != NULL) {
		c->match = NULL;
		place_set(c, PLACE_NONE);
		m->player[seat] = NULL;
	}
	resume_forget(m, seat);
	watch_release(m);
	if (match_humans(m) == 0)
		match_free(m);
}

/* Has this player not moved yet in the first game: may it walk away? */
int
match_may_abort(const struct client *c)
{
	const struct match	*m = c->match;

	return (m != NULL && m->state == MATCH_PLAYING && m->games == 1 &&
	    !m->seat[c->seat].moved);
}

/*
 * Leave a match before one's first move (match_may_abort): no result.
 * The opponent goes back to the front of the queue.
 */
void
match_abort(struct client *c)
{
	struct match	*m = c->match;
	struct lobby	*lobby = m->lobby;
	int		 other = !c->seat;
	struct client	*oc = m->player[other];
	char		 buf[PROTO_OUT_MAX], text[96];

	lobby->stats.aborts++;
	log_info("match %llu: aborted by %s from %s", (unsigned long long)m->id,
	    match_name(m, c->seat), c->addr);
	snprintf(text, sizeof text, "%s left before the first move. No result.",
	    match_name(m, c->seat));
	clock_stop(c);
	/*
	 * The opponent leaves the match first and heads the queue, before
	 * the watchers the match lets go when it ends.
	 */
	match_unlive(m);
	if (oc != NULL) {
		m->player[other] = NULL;
		oc->match = NULL;
		place_set(oc, PLACE_NONE);
		client_send(oc, buf, proto_fmt_info(buf, sizeof buf, text));
		lobby_join_front(lobby, oc);
	}
	resume_forget(m, other);	/* an absent opponent has no seat */
	match_detach(m, c->seat);	/* nobody left: watchers go, m too */
}

/* A connected player leaves its match for good. */
void
match_leave(struct client *c, enum proto_leave why)
{
	if (c->match != NULL)
		match_leave_seat(c->match, c->seat, why);
}

/*
 * A seat's player leaves for good: by QUIT, a dropped connection (after
 * its grace period), answering no, or its clock.  Mid-game the opponent
 * wins by forfeit (match_end_game) and is asked AGAIN?; while AGAIN? is open the opponent
 * is told, and its own answer decides (one that already said yes goes
 * back to the queue now).  An absent opponent has nothing to come back
 * to: its seat goes too.
 */
void
match_leave_seat(struct match *m, int seat, enum proto_leave why)
{
	int		 other = !seat, other_away = m->seat[other].away != NULL;
	struct client	*oc = m->player[other];
	char		 buf[PROTO_OUT_MAX], text[64];

	if (match_seat_taken(m, other) && m->state == MATCH_PLAYING)
		match_end_game(m, other == 0 ? TTT_X : TTT_O,
		    why == PROTO_LEAVE_QUIT ? MATCH_END_QUIT :
		    why == PROTO_LEAVE_DROP ? MATCH_END_DROP :
		    MATCH_END_GONE_TIME);
	else {
		match_touch(m);
		if (oc != NULL && !(oc->flags & CLIENT_CLOSING)) {
			snprintf(text, sizeof text, "%s left the match.",
			    match_name(m, seat));
			client_send(oc, buf, proto_fmt_info(buf, sizeof buf,
			    text));
		}
	}
	match_detach(m, seat);		/* frees m when nobody is left */
	if (oc == NULL) {
		if (other_away)
			match_detach(m, other);
		return;
	}
	if (m->answer[other] == 1) {
		match_detach(m, other);
		lobby_join(oc->lobby, oc);
	}
}

/* A player changed its name from old: tell the others. */
void
match_renamed(struct client *c, const char *old)
{
	struct match	*m = c->match;
	char		 buf[PROTO_OUT_MAX], text[96];

	match_touch(m);
	snprintf(m->seat[c->seat].name, sizeof m->seat[c->seat].name, "%s",
	    c->name);
	if (strcmp(old, match_name(m, c->seat)) == 0)
		return;
	snprintf(text, sizeof text, "%s is now known as %s.", old,
	    match_name(m, c->seat));	/* its seat's name, for "" */
	match_tell_others(m, c->seat, buf, proto_fmt_info(buf, sizeof buf,
	    text));
}

/* A line about a seat to its opponent and the watchers. */
void
match_tell_others(struct match *m, int seat, const char *buf, int len)
{
	if (m->player[!seat] != NULL)
		client_send(m->player[!seat], buf, len);
	watch_send(m, buf, len);
}
