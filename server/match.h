/*
 * match.h -- two players, their games, and the play-again question.
 *
 * A match points at its players but owns neither; it is freed when the
 * last of them has left it.
 */
#ifndef MATCH_H
#define MATCH_H

#include <sys/queue.h>

#include <stdint.h>

#include "client.h"
#include "lobby.h"
#include "ttt.h"

enum match_state {
	MATCH_PLAYING,		/* a game is on */
	MATCH_ASKING		/* over; AGAIN? is open */
};

#define MATCH_UNANSWERED	(-1)

struct match {
	uint64_t		 id;
	struct lobby		*lobby;
	struct client		*player[2];	/* NULL once left */
	enum match_state	 state;
	struct ttt_board	 board;
	int			 answer[2];	/* MATCH_ASKING: -1 or 1 */
	enum ttt_mark		 winner;	/* of the last game */
	unsigned		 games;
	TAILQ_ENTRY(match)	 entry;
};

void		 match_new(struct lobby *, struct client *, struct client *);
void		 match_free(struct match *);
enum ttt_mark	 match_mark(const struct client *);
const char	*match_name(const struct match *, int);
enum proto_error match_check_move(const struct client *, int);
void		 match_play(struct client *, int);
enum proto_error match_check_answer(const struct client *);
void		 match_again(struct client *);
void		 match_leave(struct client *, enum proto_leave);
void		 match_renamed(struct client *, const char *);
void		 match_send_board(struct client *);

#endif /* MATCH_H */
