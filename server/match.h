/*
 * match.h -- two seats, their games, and the play-again question.
 *
 * A seat is held by a connected player (player[i]), by a player whose
 * connection was lost and who may still RESUME (away), or by the computer
 * (seat 1 of a match against it); or it is empty, once its player has
 * left for good.  A match owns no client; it is freed when no player is
 * left in it.
 */
#ifndef MATCH_H
#define MATCH_H

#include <sys/queue.h>

#include <stdint.h>

#include "client.h"
#include "keytab.h"
#include "lobby.h"
#include "ttt.h"

enum match_state {
	MATCH_PLAYING,		/* a game is on */
	MATCH_ASKING		/* over; AGAIN? is open */
};

#define MATCH_UNANSWERED	(-1)
#define MATCH_HUMAN		(-1)	/* ai: no computer in this match */

struct match;

/* A lost player's seat, held for its grace period (resume.c). */
struct match_absence {
	struct match		*match;
	int			 seat;
	int64_t			 until;		/* ms: the grace period ends */
	int64_t			 turn_left;	/* ms of its paused turn; 0 = all */
	struct chatlog		*chat;		/* its player's, kept for it */
	struct keytab_entry	 name_entry;	/* lobby->names: its name */
	TAILQ_ENTRY(match_absence) entry;	/* lobby->away */
};

struct match_seat {
	char			 name[PROTO_NAME_MAX + 1]; /* "" = seat name */
	uint8_t			 moved;		/* in the first game */
	struct keytab_entry	 token;		/* for RESUME; owner: match */
	struct keytab_entry	 used;		/* the token its last RESUME
						   used: good until token is */
	struct match_absence	*away;		/* NULL unless lost */
	int64_t			 clock_by;	/* ms: its running clock (turn,
						   AGAIN?) ends by then, away
						   or not; 0 = not fixed yet */
	struct ratelimit	 resumes;	/* RESUMEs of it (LOBBY_SEAT_*) */
	int64_t			 account;	/* the account its player was
						   signed in as (while away,
						   or taken up); 0: none */
};

/*
 * A rated game's record not yet committed, kept with the match (its
 * image) so that the node that takes it up writes it (accounts.c).
 */
struct match_record {
	unsigned		 game;		/* its number; 0: none */
	int64_t			 account[2];	/* X's, O's; 0: by the seat's
						   name */
	enum ttt_mark		 winner;
	enum match_end		 how;
	uint8_t			 moves[TTT_CELLS];
	uint8_t			 nmoves;
	int64_t			 at;		/* its end, Unix seconds */
	char			 name[2][PROTO_NAME_MAX + 1];	/* the
						   seats' names (accounts.c
						   reads them by these) */
};

struct match {
	uint64_t		 id;
	struct lobby		*lobby;
	struct client		*player[2];	/* connected players */
	struct match_seat	 seat[2];
	int			 ai;		/* enum proto_level, or
						   MATCH_HUMAN */
	enum match_state	 state;
	struct ttt_board	 board;
	int			 answer[2];	/* MATCH_ASKING: -1 or 1 */
	enum ttt_mark		 winner;	/* of the last game */
	unsigned		 games;
	unsigned		 score[3];	/* games won by X, by O; ties */
	int			 tie_told;	/* this game: only a tie left */
	uint8_t			 moves[TTT_CELLS];	/* this game's cells, in
						   order (a rated game's record) */
	uint8_t			 nmoves;
	struct match_record	 pending;	/* the last game's, until
						   committed */
	int			 live;		/* both seats taken (lobby->nlive) */
	struct keytab_entry	 id_entry;	/* lobby->ids */
	struct client_list	 watchers;
	unsigned		 nwatchers;
	struct ratelimit	 watch_notes;	/* "is watching" and "stopped
						   watching" to the players */
	TAILQ_ENTRY(match)	 entry;		/* lobby->matches */
	TAILQ_ENTRY(match)	 live_entry;	/* lobby->live, while live */
	int			 touched;	/* on lobby->touched */
	TAILQ_ENTRY(match)	 touched_entry;
};

/* match.c */
struct match	*match_alloc(struct lobby *, uint64_t);
void		 match_unlive(struct match *);
void		 match_touch(struct match *);
int64_t		 match_seat_account(const struct match *, int);
void		 match_record_hold(struct match *, const struct match_record *);
void		 match_record_done(struct lobby *, uint64_t, unsigned);
void		 match_new(struct lobby *, struct client *, struct client *);
void		 match_new_ai(struct lobby *, struct client *,
		     enum proto_level);
void		 match_free(struct match *);
enum ttt_mark	 match_mark(const struct client *);
const char	*match_name(const struct match *, int);
int		 match_live(const struct match *);
int		 match_seat_taken(const struct match *, int);
int		 match_may_abort(const struct client *);
void		 match_abort(struct client *);
enum proto_error match_play(struct client *, int);
void		 match_moved(struct client *);
void		 match_lose(struct client *, enum match_end);
enum proto_error match_check_answer(const struct client *);
void		 match_again(struct client *);
void		 match_leave(struct client *, enum proto_leave);
void		 match_leave_seat(struct match *, int, enum proto_leave);
void		 match_renamed(struct client *, const char *);
void		 match_send_board(struct client *);
void		 match_send_state(struct match *, int, int64_t);
void		 match_send_token(struct match *, int);
void		 match_broadcast(struct match *, const char *, int);
void		 match_announce(struct match *, const char *, int);
void		 match_tell_others(struct match *, int, const char *, int);

/* watch.c */
void		 watch_start(struct client *, struct match *, int);
void		 watch_stop(struct client *);
void		 watch_leave(struct client *);
void		 watch_chat(struct client *, const char *, int);
void		 watch_send(struct match *, const char *, int);
void		 watch_release(struct match *);

/* resume.c */
int		 resume_hold(struct client *);
int		 resume_find(struct lobby *, const char *, struct match **);
void		 resume_take(struct client *, struct match *, int, uint64_t);
void		 resume_take_quiet(struct client *, struct match *, int,
		     uint64_t);
void		 resume_tell_away(struct match *, int);
void		 resume_expire(struct lobby *, int64_t);
void		 resume_forget(struct match *, int);
void		 resume_away(struct match *, int, int64_t);

#endif /* MATCH_H */
