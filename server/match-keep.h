/*
 * match-keep.h -- a match as one line of text, so that another node can
 * take it up where it was (a cluster keeps every match so in Redis,
 * docs/cluster.md).  The image holds what the players would miss: the
 * board, whose turn, the score, the game's number, the names, the resume
 * tokens, what is left of the running clock, the accounts the seats are
 * signed in as and a rated record not yet committed; not who is connected where
 * (the host adds that), nor watchers, chat limits or rate limits.
 */
#ifndef MATCH_KEEP_H
#define MATCH_KEEP_H

#include <stddef.h>
#include <stdint.h>

#include "match.h"

#define MATCH_KEEP_MAX	480	/* bytes of an image, at most */

struct match_keep_seat {
	int		held;		/* 1: a player or the computer has it;
					   0: left for good */
	int		moved;		/* in the first game */
	uint64_t	token;		/* keys of its resume tokens; 0: none */
	uint64_t	used;
	int64_t		left;		/* ms of its running clock (its turn,
					   its AGAIN?); 0: all of it, or none */
	char		name[PROTO_NAME_MAX + 1];
	int64_t		account;	/* signed in as; 0: none */
};

struct match_keep {
	uint64_t		id;
	int			ai;		/* enum proto_level, MATCH_HUMAN */
	int			state;		/* enum match_state */
	struct ttt_board	board;
	int			answer[2];
	int			winner;		/* enum ttt_mark */
	unsigned		games;
	unsigned		score[3];
	int			tie_told;
	struct match_keep_seat	seat[2];
	struct match_record	pending;	/* game 0: none */
};

/*
 * Why an image is refused.  Whoever can write to Redis writes images: one
 * is checked as strictly as a player's lines (protocol.md's rules).
 */
enum match_keep_error {
	MATCH_KEEP_OK,
	MATCH_KEEP_ESYNTAX,	/* not an image's line */
	MATCH_KEEP_ERANGE,	/* a field out of its range */
	MATCH_KEEP_ENAME,	/* a name NAME would refuse */
	MATCH_KEEP_EBOARD,	/* a board play could not have made */
	MATCH_KEEP_ETOKEN,	/* a resume token malformed, or twice */
	MATCH_KEEP_EHERE,	/* a match of its id is here already */
	MATCH_KEEP_EEMPTY,	/* nobody is left in it */
	MATCH_KEEP_ETAKEN,	/* a resume token of another match here */
	MATCH_KEEP_NERRORS
};

void		 match_keep_take(const struct match *, struct match_keep *);
int		 match_keep_fmt(const struct match_keep *, char *, size_t);
int		 match_keep_parse(const char *, struct match_keep *,
		     enum match_keep_error *);
struct match	*match_keep_restore(struct lobby *, const struct match_keep *,
		     enum match_keep_error *);
const char	*match_keep_strerror(enum match_keep_error);
int		 match_keep_record_fmt(const struct match_record *, char *,
		     size_t);
int		 match_keep_record_parse(const char *, struct match_record *,
		     enum match_keep_error *);

#endif /* MATCH_KEEP_H */
