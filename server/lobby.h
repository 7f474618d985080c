/*
 * lobby.h -- the game world: the queue of waiting players, the live
 * matches, the random source, what it needs of its host (its ops; clients
 * are reached through their own, client.h), and its events.
 */
#ifndef LOBBY_H
#define LOBBY_H

#include <sys/queue.h>

#include <stddef.h>
#include <stdint.h>

#include "addrlimit.h"
#include "client.h"
#include "keytab.h"
#include "ratelimit.h"
#include "stats.h"
#include "ttt.h"

struct match;
struct match_record;
TAILQ_HEAD(match_list, match);

/* What the world needs of its host: time, randomness, its timer. */
struct lobby_host {
	/* Now, in ms on a clock that never goes back. */
	int64_t	(*now)(void);
	/* Fill a buffer from the OS random source (codes, tokens). */
	void	(*random)(void *, size_t);
	/* The lobby's own next deadline changed (lobby_next_deadline). */
	void	(*wake)(struct lobby *);
};

/*
 * How a game ended: every way goes through one funnel (match.c's
 * match_end_game), which raises game_ended.  From MATCH_END_QUIT on, the
 * loser has left the match.
 */
enum match_end {
	MATCH_END_LINE,		/* three in a row */
	MATCH_END_FULL,		/* a full board and no line: a tie */
	MATCH_END_EARLY_DRAW,	/* nobody could win any more (--early-draw) */
	MATCH_END_RESIGN,	/* the loser resigned */
	MATCH_END_TIME,		/* the loser's turn clock ran out */
	MATCH_END_QUIT,		/* the loser left: QUIT */
	MATCH_END_DROP,		/* the loser left: its connection was lost */
	MATCH_END_GONE_TIME	/* the loser left, out of time as its node
				   said (PROTO_LEAVE_TIMEOUT) */
};

/*
 * What happened in the world, for the services beside it (the cluster;
 * none when tttd is alone): a listener is a table of these, any of them
 * NULL, with its argument (lobby_listen).  Every listener hears an event,
 * in the order they came, but an event that asks (not_found,
 * name_claimed): the first listener that answers 1 takes it.
 */
struct lobby_events {
	/*
	 * A player ready to pair has nobody to meet in the queue: it waits
	 * alone, or signed in with nobody in range here (pairing.h).
	 */
	void	(*waits_alone)(void *, struct client *);
	/* A player posted elsewhere (CLIENT_POSTED) left the queue. */
	void	(*left_queue)(void *, struct client *);
	/* A checked line of a player whose match is elsewhere (PLACE_RELAY). */
	void	(*relay_line)(void *, struct client *, const char *, size_t);
	/* A refusal for it: to be sent in turn, from there. */
	void	(*relay_refused)(void *, struct client *, enum proto_error);
	/* It leaves (lost, hold: its seat may be held there). */
	void	(*relay_left)(void *, struct client *, enum proto_leave, int);
	/*
	 * RESUME, ROOM JOIN or WATCH found nothing here: 1 if the listener
	 * asks elsewhere (it answers the client then), 0 to refuse now.
	 */
	int	(*not_found)(void *, struct client *,
		    const struct proto_cmd *);
	/*
	 * NAME, free here: 1 if the listener asks whether it is free
	 * elsewhere (then it renames the client with cmd_rename, or
	 * refuses).
	 */
	int	(*name_claimed)(void *, struct client *, const char *);
	/* A player's name changed: old gone, new on (either NULL). */
	void	(*name_changed)(void *, struct client *, const char *,
		    const char *);
	/*
	 * With lobby->keep: the match changed; what its players are sent
	 * from now on must wait until it is kept (even if they leave it).
	 */
	void	(*match_touched)(void *, struct match *);
	/* A match is freed. */
	void	(*match_freed)(void *, struct match *);
	/*
	 * A game ended, won by the mark (TTT_EMPTY: a tie), however it came:
	 * once a game, its result recorded and counted, before its players
	 * are told.  When the winner is leaving too the match keeps no
	 * result: the arguments are the result.
	 */
	void	(*game_ended)(void *, struct match *, enum ttt_mark,
		    enum match_end);
	/*
	 * A match taken up from a dead node carries a rated game's record
	 * (m->pending) that node may not have committed.
	 */
	void	(*record_taken)(void *, struct match *);
	/*
	 * A rated game's record whose match ended before its commit, taken
	 * up alone from a dead node (its match's id): that node may not
	 * have committed it.
	 */
	void	(*record_orphaned)(void *, uint64_t,
		    const struct match_record *);
	/*
	 * A record of game number game of a match no longer here (ended,
	 * or a record taken up alone) is committed, or will never be.
	 */
	void	(*record_settled)(void *, uint64_t, unsigned);
	/* A player's connection was lost: its seat is held for it. */
	void	(*seat_lost)(void *, struct match *, int);
	/* A player took its seat back (RESUME). */
	void	(*seat_back)(void *, struct match *, int);
	/* A player leaves the world for good (its connection ends). */
	void	(*player_left)(void *, struct client *);
	/*
	 * An account's command (REGISTER, LOGIN, REKEY, FORGET, RATING,
	 * HISTORY, TOP): 1 if the listener takes it (it answers the
	 * client then), 0: no accounts here.
	 */
	int	(*account)(void *, struct client *, const struct proto_cmd *);
	/* A player signed in as an account here (client->account_id). */
	void	(*signed_in)(void *, struct client *);
	/*
	 * An account signed in on another node (a cluster's): a connection
	 * signed in as it here is taken over, as by a LOGIN here.
	 */
	void	(*signed_in_elsewhere)(void *, int64_t);
	/* A player's rating, as it is paired by, changed (lobby_rated). */
	void	(*rated)(void *, struct client *);
};

/* One listener to the world's events: its owner's to keep. */
struct lobby_listener {
	const struct lobby_events	*ev;
	void				*arg;
	TAILQ_ENTRY(lobby_listener)	 entry;
};
TAILQ_HEAD(lobby_listeners, lobby_listener);

/* An event that asks nothing, to every listener that has it. */
#define LOBBY_RAISE(lobby, event, ...) do {				\
	struct lobby_listener	*lobby_l_;				\
									\
	TAILQ_FOREACH(lobby_l_, &(lobby)->listeners, entry) {		\
		if (lobby_l_->ev->event != NULL)			\
			lobby_l_->ev->event(lobby_l_->arg, __VA_ARGS__);	\
	}								\
} while (0)

/* What STATS tells of the cluster, kept up to date by the host. */
struct lobby_cluster {
	int		on;		/* --redis given */
	unsigned	nodes;		/* live nodes seen */
	int		connected;	/* to Redis */
	const struct lobby_game *games;	/* the other nodes' matches, for
					   GAMES */
	unsigned	ngames;		/* in games */
	unsigned	games_more;	/* their matches not in it */
};

/* A match of another node, as GAMES lists it (proto_fmt_game). */
struct lobby_game {
	uint64_t	id;
	char		name[2][PROTO_NAME_MAX + 1];	/* X's, O's */
	int		moves;		/* 0 to 9 */
	int		away;		/* a bit per seat */
};

/* Time limits and flood control; 0 turns each one off. */
struct lobby_limits {
	int64_t		line_ms;	/* to finish a line once begun */
	int64_t		turn_ms;	/* to move */
	int64_t		again_ms;	/* to answer AGAIN? */
	int64_t		idle_ms;	/* in the queue without a word */
	unsigned	rate;		/* lines a second ... */
	unsigned	burst;		/* ... in bursts of at most this */
	int64_t		room_ms;	/* a private room stays open */
	int64_t		grace_ms;	/* a lost player keeps its seat */
	int64_t		ai_offer_ms;	/* alone in the queue: offer PLAY AI */
	int		early_draw;	/* end a game only a tie can end */
	unsigned	max_watchers;	/* of one match; 0 = any */
	int64_t		fresh_ms;	/* a new connection is paired
					   once this old */
};

/* The defaults of the limits, in the units of struct lobby_limits. */
#define LOBBY_LINE_MS		10000
#define LOBBY_TURN_MS		120000
#define LOBBY_AGAIN_MS		60000
#define LOBBY_IDLE_MS		(15 * 60 * 1000)
#define LOBBY_RATE		50
#define LOBBY_BURST		100
#define LOBBY_ROOM_MS		(10 * 60 * 1000)
#define LOBBY_GRACE_MS		30000
#define LOBBY_AI_OFFER_MS	30000
#define LOBBY_MAX_WATCHERS	100
#define LOBBY_CANDS		64	/* players lobby_pair weighs, at
					   first (it grows) */

/*
 * A new connection is paired only once it is this old: a port probe, a
 * health check or an HTTP request has closed by then, and a NAME sent at
 * once is in the opponent's MATCH line.
 */
#define LOBBY_FRESH_MS		500

/*
 * SAY: at most 5 in any 10 s; renames in a match, 3.  Wrong RESUME tokens, and wrong ROOM JOIN
 * codes, each per address: 5, then 1 every 10 s; from all the addresses
 * that guessed wrong lately together: 1,000, then 100 a second.
 */
#define LOBBY_CHAT_MAX		5
#define LOBBY_RENAME_MAX	3	/* told to others, in the same window */
#define LOBBY_CHAT_WINDOW_MS	10000
#define LOBBY_RESUME_BURST	5
#define LOBBY_RESUME_EVERY_MS	10000
#define LOBBY_RESUME_ADDRS	8192	/* addresses held at most */
#define LOBBY_SEAT_RESUMES	10	/* RESUMEs of one seat at once ... */
#define LOBBY_SEAT_RESUME_MS	10000	/* ... then one every 10 s */
#define LOBBY_GUESS_BURST	1000
#define LOBBY_GUESS_EVERY_MS	10	/* 100 a second */
#define LOBBY_GAMES_MAX		100	/* GAME lines in one reply */
#define LOBBY_WATCH_NOTES	5	/* "is watching" notices of a match at
					   once ... */
#define LOBBY_WATCH_NOTE_MS	2000	/* ... then one every 2 s */

struct match_absence;
TAILQ_HEAD(absence_list, match_absence);

/* The secrets a client may guess at, each with limits of its own. */
enum lobby_secret {
	LOBBY_TOKENS,		/* RESUME */
	LOBBY_ROOMS,		/* ROOM JOIN */
	LOBBY_KEYS,		/* LOGIN: an account's key */
	LOBBY_NSECRETS
};

/* The seats' own names (p1, p2, ai), and their keys' room (name.c). */
#define LOBBY_SEAT_NAMES	3
#define LOBBY_SEAT_KEY		8

struct namecheck;
struct pairing_cand;

struct lobby {
	const struct lobby_host	*ops;
	struct lobby_listeners	 listeners;	/* of its events */
	struct lobby_stats	 stats;
	struct lobby_limits	 limits;
	uint64_t		 rng;		/* xorshift64* state */
	uint64_t		 next_match_id;
	uint64_t		 ai_rng;	/* the computer's choices */
	struct client_list	 queue;		/* FIFO of waiting players */
	struct client_list	 fresh;		/* new ones, not yet paired:
						   by arrival */
	unsigned		 nfresh;
	struct match_list	 matches;
	struct match_list	 live;		/* of them, both seats taken */
	unsigned		 nqueued;
	unsigned		 nmatches;
	unsigned		 nlive;		/* of them with both seats taken */
	unsigned		 nwatchers;
	unsigned		 nai;		/* matches against the computer */
	struct keytab		 rooms;		/* code -> struct room */
	struct keytab		 tokens;	/* token -> match */
	struct keytab		 ids;		/* match id -> match */
	struct keytab		 names;		/* name -> its connected player */
	struct namecheck	*namecheck;	/* the names' Unicode rules */
	char			 name_seats[LOBBY_SEAT_NAMES][LOBBY_SEAT_KEY];
						/* the keys of p1, p2, ai */
	struct {
		char		 name[PROTO_NAME_MAX + 1];
		uint64_t	 hash;		/* 0: none yet */
	}			 name_last;	/* the last name asked of
						   name_allowed, hashed */
	struct absence_list	 away;		/* lost players, by deadline */
	unsigned		 naway;
	struct addrlimit	 guessers[LOBBY_NSECRETS]; /* wrong guesses,
						   per address */
	struct ratelimit	 guesses[LOBBY_NSECRETS]; /* ... and from
						   those addresses together */
	struct lobby_cluster	 cluster;
	int			 keep;		/* the host keeps matches: it
						   takes lobby->touched */
	struct match_list	 touched;	/* changed since it took them */
	struct pairing_cand	*cands;		/* the queue as lobby_pair
						   weighs it ... */
	struct client		**cand_c;	/* ... and its players */
	size_t			 cands_max;	/* room in both */
	int64_t			 widen_at;	/* ms: two signed-in players
						   may meet; 0: none */
};

int	lobby_init(struct lobby *, const struct lobby_host *,
	    const struct lobby_limits *, uint64_t);
void	lobby_default_limits(struct lobby_limits *);
void	lobby_free(struct lobby *);
void	lobby_join(struct lobby *, struct client *);
void	lobby_join_new(struct lobby *, struct client *);
void	lobby_join_front(struct lobby *, struct client *);
void	lobby_join_again(struct lobby *, struct client *);
void	lobby_leave(struct lobby *, struct client *);
void	lobby_unheld(struct lobby *);
void	lobby_rated(struct lobby *, struct client *, int, int);
int	lobby_coin(struct lobby *);
uint64_t lobby_ai_random(struct lobby *);
void	lobby_code(struct lobby *, char *, size_t);
int	lobby_guess_allowed(struct lobby *, enum lobby_secret,
	    const struct client *);
void	lobby_guess_failed(struct lobby *, enum lobby_secret,
	    const struct client *);
int64_t	lobby_next_deadline(const struct lobby *);
void	lobby_expire(struct lobby *);
void	lobby_listen(struct lobby *, struct lobby_listener *,
	    const struct lobby_events *, void *);
void	lobby_unlisten(struct lobby *, struct lobby_listener *);
int	lobby_not_found(struct lobby *, struct client *,
	    const struct proto_cmd *);
void	lobby_record_taken(struct lobby *, struct match *);
void	lobby_record_orphaned(struct lobby *, uint64_t,
	    const struct match_record *);
int	lobby_name_claimed_after(struct lobby *, struct lobby_listener *,
	    struct client *, const char *);
int	lobby_account(struct lobby *, struct client *,
	    const struct proto_cmd *);

#endif /* LOBBY_H */
