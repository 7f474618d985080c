/*
 * match.c -- the life of a match: games, results, play again, leaving.
 *
 * Handlers check a command first (match_check_*), send its OK reply, and
 * only then act (match_play, match_again), so that the reply always comes
 * before the events it causes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "log.h"
#include "match.h"
#include "session.h"

static const char *match_seat_names[2] = { "p1", "p2" };

static void	match_start(struct match *, enum ttt_mark);
static void	match_broadcast(struct match *, const char *, int);
static void	match_send_turns(struct match *);
static void	match_end(struct match *);
static void	match_detach(struct client *);

/* Pair two players: p1 waited longer and plays X. */
void
match_new(struct lobby *lobby, struct client *p1, struct client *p2)
{
	struct match	*m;
	char		 buf[PROTO_OUT_MAX];
	int		 i;

	if ((m = calloc(1, sizeof *m)) == NULL)
		fatalx("out of memory");
	m->id = lobby->next_match_id++;
	m->lobby = lobby;
	m->player[0] = p1;
	m->player[1] = p2;
	TAILQ_INSERT_TAIL(&lobby->matches, m, entry);
	lobby->nmatches++;
	for (i = 0; i < 2; i++) {
		m->player[i]->match = m;
		m->player[i]->seat = i;
	}
	log_info("match %llu: client %llu %s (%s, X) vs client %llu %s (%s, O)",
	    (unsigned long long)m->id, (unsigned long long)p1->id, p1->addr,
	    match_name(m, 0), (unsigned long long)p2->id, p2->addr,
	    match_name(m, 1));
	for (i = 0; i < 2; i++) {
		session_sendn(m->player[i], buf, proto_fmt_match(buf,
		    sizeof buf, i == 0 ? TTT_X : TTT_O, match_name(m, !i)));
	}
	match_start(m, lobby_coin(lobby) ? TTT_X : TTT_O);
}

/* Free a match, detaching any player still in it. */
void
match_free(struct match *m)
{
	int	i;

	for (i = 0; i < 2; i++) {
		if (m->player[i] != NULL)
			m->player[i]->match = NULL;
	}
	TAILQ_REMOVE(&m->lobby->matches, m, entry);
	m->lobby->nmatches--;
	free(m);
}

/* The mark a player in a match plays. */
enum ttt_mark
match_mark(const struct client *c)
{
	return (c->seat == 0 ? TTT_X : TTT_O);
}

/* A seat's name: the player's own, or p1/p2; also after it has left. */
const char *
match_name(const struct match *m, int seat)
{
	const struct client	*c = m->player[seat];

	if (c != NULL && c->name[0] != '\0')
		return (c->name);
	return (match_seat_names[seat]);
}

/* Send the same bytes to every player still in the match. */
static void
match_broadcast(struct match *m, const char *buf, int len)
{
	int	i;

	for (i = 0; i < 2; i++) {
		if (m->player[i] != NULL)
			session_sendn(m->player[i], buf, len);
	}
}

/* Begin a game: START, BOARD and TURN to both. */
static void
match_start(struct match *m, enum ttt_mark first)
{
	char	buf[PROTO_OUT_MAX];

	ttt_board_init(&m->board, first);
	m->state = MATCH_PLAYING;
	m->answer[0] = m->answer[1] = MATCH_UNANSWERED;
	m->games++;
	match_broadcast(m, buf, proto_fmt_start(buf, sizeof buf, first,
	    match_name(m, first == TTT_X ? 0 : 1)));
	match_broadcast(m, buf, proto_fmt_board(buf, sizeof buf, &m->board));
	match_send_turns(m);
}

/* TURN to both: the prompt to the mover, a wait line to the other. */
static void
match_send_turns(struct match *m)
{
	enum ttt_mark	 mover = ttt_board_turn(&m->board);
	int		 seat = (mover == TTT_X) ? 0 : 1, i;
	char		 buf[PROTO_OUT_MAX];

	for (i = 0; i < 2; i++) {
		if (m->player[i] == NULL)
			continue;
		session_sendn(m->player[i], buf, proto_fmt_turn(buf, sizeof buf,
		    mover, i == seat, match_name(m, seat)));
		if (i == seat)
			clock_start(m->player[i], CLIENT_CLOCK_TURN);
		else
			clock_stop(m->player[i]);
	}
}

/* A game has ended on the board: RESULT and AGAIN? to both. */
static void
match_end(struct match *m)
{
	char		buf[PROTO_OUT_MAX];
	enum ttt_mark	w = ttt_board_winner(&m->board);
	int		seat = (w == TTT_O) ? 1 : 0;

	m->state = MATCH_ASKING;
	m->winner = w;
	m->lobby->stats.games_finished++;
	if (w == TTT_EMPTY)
		m->lobby->stats.ties++;
	else
		m->lobby->stats.wins++;
	if (w == TTT_EMPTY)
		log_info("match %llu: game %u is a tie (%s vs %s)",
		    (unsigned long long)m->id, m->games, m->player[0]->addr,
		    m->player[1]->addr);
	else
		log_info("match %llu: game %u won by %s (%c) from %s",
		    (unsigned long long)m->id, m->games, match_name(m, seat),
		    ttt_mark_char(w), m->player[seat]->addr);
	match_broadcast(m, buf, proto_fmt_result(buf, sizeof buf, &m->board,
	    match_name(m, seat), match_name(m, !seat)));
	match_broadcast(m, buf, proto_fmt_again_question(buf, sizeof buf));
	clock_start(m->player[0], CLIENT_CLOCK_AGAIN);
	clock_start(m->player[1], CLIENT_CLOCK_AGAIN);
}

/* Can this player move to this cell now?  PROTO_OK or the error. */
enum proto_error
match_check_move(const struct client *c, int cell)
{
	const struct match	*m = c->match;

	if (m == NULL || m->state != MATCH_PLAYING)
		return (PROTO_ENO_GAME);
	if (ttt_board_turn(&m->board) != match_mark(c))
		return (PROTO_ENOT_YOUR_TURN);
	if (ttt_board_at(&m->board, cell) != TTT_EMPTY)
		return (PROTO_ETAKEN);
	return (PROTO_OK);
}

/* Play a checked move: BOARD to both, then TURN or RESULT. */
void
match_play(struct client *c, int cell)
{
	struct match	*m = c->match;
	char		 buf[PROTO_OUT_MAX];

	if (ttt_board_play(&m->board, match_mark(c), cell) != TTT_OK)
		fatalx("match %llu: unchecked move", (unsigned long long)m->id);
	m->lobby->stats.moves++;
	match_broadcast(m, buf, proto_fmt_board(buf, sizeof buf, &m->board));
	if (ttt_board_outcome(&m->board) == TTT_ONGOING)
		match_send_turns(m);
	else
		match_end(m);
}

/* Send this player the board of its match. */
void
match_send_board(struct client *c)
{
	char	buf[PROTO_OUT_MAX];

	session_sendn(c, buf, proto_fmt_board(buf, sizeof buf,
	    &c->match->board));
}

/* Is a play-again question open for this player?  PROTO_OK or NOT_NOW. */
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
	struct client	*other = m->player[!c->seat];
	enum ttt_mark	 first;
	char		 buf[PROTO_OUT_MAX];

	if (other == NULL) {
		match_detach(c);
		lobby_join(c->lobby, c);
		return;
	}
	m->answer[c->seat] = 1;
	clock_stop(c);
	if (m->answer[other->seat] != 1) {
		session_sendn(c, buf, proto_fmt_wait(buf, sizeof buf,
		    match_name(m, other->seat)));
		return;
	}
	/* Both said yes: the winner starts; after a tie, a coin decides. */
	first = m->winner;
	if (first == TTT_EMPTY)
		first = lobby_coin(m->lobby) ? TTT_X : TTT_O;
	log_info("match %llu: rematch", (unsigned long long)m->id);
	match_start(m, first);
}

/* Take a player out of its match; free the match when it is empty. */
static void
match_detach(struct client *c)
{
	struct match	*m = c->match;

	m->player[c->seat] = NULL;
	c->match = NULL;
	if (m->player[0] == NULL && m->player[1] == NULL)
		match_free(m);
}

/*
 * A player leaves its match: by QUIT, a dropped connection or answering
 * no.  Mid-game the opponent wins by forfeit and is asked AGAIN?; while
 * AGAIN? is open the opponent is told, and its own answer decides (one
 * that already said yes goes back to the queue now).
 */
void
match_leave(struct client *c, enum proto_leave why)
{
	struct match	*m = c->match;
	struct client	*other;
	char		 buf[PROTO_OUT_MAX], text[64];
	int		 seat;

	if (m == NULL)
		return;
	seat = c->seat;
	other = m->player[!seat];
	if (other != NULL && m->state == MATCH_PLAYING) {
		m->lobby->stats.games_finished++;	/* however it is told */
		m->lobby->stats.forfeits++;
	}
	if (other != NULL && (other->flags & CLIENT_CLOSING)) {
		/* Leaving too (shutdown, a peer not reading): tell it nothing. */
		m->state = MATCH_ASKING;
	} else if (other != NULL && m->state == MATCH_PLAYING) {
		m->state = MATCH_ASKING;
		m->winner = match_mark(other);
		log_info("match %llu: game %u forfeited by %s from %s",
		    (unsigned long long)m->id, m->games, match_name(m, seat),
		    c->addr);
		session_sendn(other, buf, proto_fmt_forfeit(buf, sizeof buf,
		    match_mark(other), match_name(m, !seat),
		    match_name(m, seat), why));
		session_sendn(other, buf, proto_fmt_again_question(buf,
		    sizeof buf));
		clock_start(other, CLIENT_CLOCK_AGAIN);
	} else if (other != NULL) {
		snprintf(text, sizeof text, "%s left the match.",
		    match_name(m, seat));
		session_sendn(other, buf, proto_fmt_info(buf, sizeof buf,
		    text));
	}
	match_detach(c);
	if (other != NULL && m->answer[other->seat] == 1) {
		match_detach(other);
		lobby_join(other->lobby, other);
	}
}

/* A player changed its name from old: tell the opponent. */
void
match_renamed(struct client *c, const char *old)
{
	struct match	*m = c->match;
	struct client	*other;
	char		 buf[PROTO_OUT_MAX], text[96];

	if (m == NULL || (other = m->player[!c->seat]) == NULL)
		return;
	snprintf(text, sizeof text, "%s is now known as %s.", old, c->name);
	session_sendn(other, buf, proto_fmt_info(buf, sizeof buf, text));
}
