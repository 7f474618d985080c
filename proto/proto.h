/*
 * proto.h -- the tttd line protocol, version 1: parsing client lines,
 * formatting server lines, and parsing server lines for clients.
 *
 * Pure functions: no I/O, no allocation, no globals.  Formatters have
 * snprintf semantics: they return the length the output needs (without the
 * terminating NUL) and write at most size bytes, always NUL-terminated when
 * size > 0.
 */
#ifndef PROTO_H
#define PROTO_H

#include <stddef.h>

#include "ttt.h"
#include "verbs.h"

#define PROTO_VERSION		1
#define PROTO_LINE_MAX		256	/* client line, without CR LF */
#define PROTO_SCAN_MAX		(PROTO_LINE_MAX + 2)	/* with CR LF */
#define PROTO_NAME_CHARS	16	/* a name's characters, at most */
#define PROTO_NAME_MAX		32	/* a name's bytes, at most (UTF-8) */
#define PROTO_OUT_MAX		1024	/* the longest formatted block */
#define PROTO_NUM_MAX		24	/* a number's digits and NUL, at most */
#define PROTO_CODE_LEN		8	/* a room code, without its dash */
#define PROTO_TOKEN_LEN		8	/* a resume token, without its dash */
#define PROTO_KEY_MAX		64	/* LOGIN's key: bytes, at most */
#define PROTO_LIST_MAX		100	/* HISTORY, TOP: lines, at most */
#define PROTO_LIST_DEFAULT	10	/* ... when not said */
#define PROTO_GAMEID_MAX	80	/* PLAYED's <match>.<game>: bytes */
#define PROTO_WHEN_LEN		20	/* PLAYED's 2026-11-29T02:15:10Z */
#define PROTO_MOVES_MAX		26	/* PLAYED's moves: B2,A1,...: bytes */
#define PROTO_DELETED		"(deleted)"	/* PLAYED: a forgotten
						   account's name */
#define PROTO_CHAT_MAX		200	/* SAY text: characters, at most; its
					   bytes are bounded by the line's */
#define PROTO_CODE_ALPHABET	"23456789ABCDEFGHJKMNPQRSTUVWXYZ"
/* WAIT's text in the queue or a room (not waiting for an answer). */
#define PROTO_WAIT_QUEUED	"Waiting for an opponent..."
/* BYE's text when a node of a cluster is drained: come back and RESUME. */
#define PROTO_BYE_RESTART	"Server restarting. Reconnect and RESUME to go on."

/* The computer's strength, for PLAY AI; PLAY alone: an opponent. */
enum proto_level {
	PROTO_LEVEL_PERFECT = 0,
	PROTO_LEVEL_EASY,
	PROTO_LEVEL_QUEUE	/* PLAY: the public queue */
};
/* A watched match ended (INFO, to its watchers; %llu: its id) ... */
#define PROTO_INFO_GAME_OVER	"Game %llu is over."
/* ... and what the watcher may do next (INFO). */
#define PROTO_INFO_WATCH_OVER \
	"Type PLAY to play, or GAMES to watch another game."

/* The verbs of verbs.h, in its order; PROTO_NONE is a blank line's. */
enum proto_verb {
	PROTO_NONE = 0,		/* blank line: no reply at all */
#define PROTO_VERB_ENUM(v, ...)	PROTO_##v,
	PROTO_VERBS(PROTO_VERB_ENUM)
#undef PROTO_VERB_ENUM
	PROTO_NVERBS		/* not a verb: how many, PROTO_NONE included */
};

/* Error codes, in the order of precedence when several apply. */
enum proto_error {
	PROTO_OK = 0,
	PROTO_ELINE_TOO_LONG,
	PROTO_EBAD_CHAR,
	PROTO_EUNKNOWN_COMMAND,
	PROTO_EBAD_CELL,
	PROTO_EBAD_NAME,
	PROTO_EBAD_ANSWER,
	PROTO_ENO_GAME,
	PROTO_ENOT_YOUR_TURN,
	PROTO_ETAKEN,
	PROTO_ENOT_NOW,
	PROTO_ESERVER_FULL,
	/* Limits (see docs/operations.md), outside the precedence order. */
	PROTO_ETOO_MANY_CONNECTIONS,
	PROTO_ERATE_LIMITED,
	PROTO_ELINE_TIMEOUT,
	PROTO_ENOT_HTTP,
	/* Rooms, watching, resuming, the computer, chat (protocol.md §9). */
	PROTO_EIN_GAME,
	PROTO_EBAD_ROOM,
	PROTO_ENO_ROOM,
	PROTO_ENO_SUCH_GAME,
	PROTO_ENOT_WATCHING,
	PROTO_EBAD_TOKEN,
	PROTO_EBAD_LEVEL,
	PROTO_EBAD_TEXT,
	/* Names and watchers (protocol.md §9.10). */
	PROTO_ENAME_TAKEN,
	PROTO_EWATCHERS_FULL,
	PROTO_ENO_NAME,
	/* Accounts (protocol.md §12). */
	PROTO_ENO_ACCOUNTS,
	PROTO_EBAD_KEY,
	PROTO_ENO_SUCH_PLAYER,
	PROTO_ENOT_SIGNED_IN,
	PROTO_ESIGNED_IN,
	PROTO_EBAD_COUNT,
	PROTO_EACCOUNTS_DOWN,
	PROTO_NERRORS
};

struct proto_cmd {
	enum proto_verb	verb;
	int		cell;			/* MOVE: 0..8 */
	int		yes;			/* AGAIN: 1 yes, 0 no */
	char		name[PROTO_NAME_MAX + 1];	/* NAME */
	int		join;			/* ROOM: 1 JOIN, 0 NEW */
	char		code[PROTO_TOKEN_LEN + 1];	/* ROOM JOIN, RESUME:
						   upper case, no dash */
	unsigned long long game;		/* WATCH */
	enum proto_level level;			/* PLAY AI */
	const char	*text;			/* SAY: points into the line */
	size_t		 textlen;
	char		 key[PROTO_KEY_MAX + 1];	/* LOGIN; "": malformed */
	int		 count;			/* HISTORY, TOP: 1 to 100 */
};

/* A verb's entry in verbs.h: proto_verbs[verb], or proto_verb_info(). */
struct proto_verb_entry {
	const char	*word;		/* the command word, upper case */
	size_t		 len;
	enum proto_args	 args;
	const char	*ok;		/* the word after OK in its reply */
	size_t		 oklen;		/* 0: the reply is not OK */
};

/* What proto_scan found at the front of a buffer. */
enum proto_scan {
	PROTO_SCAN_MORE,	/* no LF yet, and still within the limit */
	PROTO_SCAN_LINE,	/* a line ends here: *linelen bytes, then LF */
	PROTO_SCAN_TOO_LONG	/* no LF can make this a legal line */
};

/* Why a player left a game, for RESULT FORFEIT. */
enum proto_leave {
	PROTO_LEAVE_QUIT,
	PROTO_LEAVE_DROP,
	PROTO_LEAVE_TIMEOUT
};

/* Server line keywords, as seen by a client. */
enum proto_kind {
	PROTO_EV_UNKNOWN = 0,
	PROTO_EV_HUMAN,		/* space-led line: for people only */
	PROTO_EV_HELLO,
	PROTO_EV_WAIT,
	PROTO_EV_MATCH,
	PROTO_EV_START,
	PROTO_EV_BOARD,
	PROTO_EV_TURN,
	PROTO_EV_RESULT,
	PROTO_EV_AGAINQ,
	PROTO_EV_INFO,
	PROTO_EV_BYE,
	PROTO_EV_OK,
	PROTO_EV_ERR,
	PROTO_EV_STAT,		/* STAT <name> <value>, after OK STATS */
	PROTO_EV_END,		/* the end of the STAT lines */
	PROTO_EV_GAME,		/* GAME <id> <x> <o> <moves> [away=X|O|XO],
				   after OK GAMES */
	PROTO_EV_TOKEN,		/* TOKEN <token> <text>: for RESUME */
	PROTO_EV_CHAT,		/* CHAT <name> <text> */
	PROTO_EV_KEY,		/* KEY <key> <text>: an account's key */
	PROTO_EV_PLAYED,	/* PLAYED ...: a game, after OK HISTORY */
	PROTO_EV_RANKED		/* RANKED ...: a place, after OK TOP */
};

enum proto_result {
	PROTO_RESULT_WIN,
	PROTO_RESULT_TIE,
	PROTO_RESULT_FORFEIT
};

/*
 * An account's numbers (protocol.md §12): OK LOGIN (rating, rd), OK RATING
 * (all but rank), RANKED (rank, rating, rd, games), PLAYED (the game), KEY.
 */
struct proto_account {
	long		 rating;
	long		 rd;
	int		 provisional;	/* OK RATING: a '?' after the rating */
	unsigned	 games;
	unsigned	 wins;
	unsigned	 losses;
	unsigned	 ties;
	unsigned	 rank;
	char		 game[PROTO_GAMEID_MAX + 1];	/* PLAYED: 17.2 */
	char		 when[PROTO_WHEN_LEN + 1];	/* PLAYED: its end */
	char		 winner;	/* PLAYED: 'X', 'O' or 'T' (a tie) */
	char		 moves[PROTO_MOVES_MAX + 1];	/* PLAYED: B2,A1 or - */
	char		 key[PROTO_KEY_MAX + 1];	/* KEY */
};

/* One server line taken apart; text points into the parsed line. */
struct proto_event {
	enum proto_kind		kind;
	enum ttt_mark		mark;	/* MATCH, START, TURN, RESULT WIN/FORFEIT */
	enum proto_result	result;	/* RESULT */
	enum proto_error	error;	/* ERR */
	enum proto_verb		verb;	/* OK */
	int			cell;	/* OK MOVE */
	int			yes;	/* OK AGAIN */
	int			version;	/* HELLO */
	char			name[PROTO_NAME_MAX + 1]; /* MATCH, RESULT, OK NAME,
							   CHAT, GAME, OK LOGIN,
							   OK RATING, OK REGISTER,
							   RANKED, PLAYED (X's) */
	char			cells[TTT_CELLS + 1];	/* BOARD */
	char			name2[PROTO_NAME_MAX + 1]; /* GAME, PLAYED: O's
							   name (name: X's) */
	unsigned long long	number;	/* GAME id; OK GAMES n; OK WATCH id;
					   OK HISTORY k; OK TOP k */
	struct proto_account	acct;	/* OK LOGIN, OK RATING, PLAYED, RANKED,
					   KEY */
	int			moves;	/* GAME */
	int			away;	/* GAME: bit 0 X away, bit 1 O */
	char			code[PROTO_TOKEN_LEN + 2]; /* OK ROOM; TOKEN,
							   with its dash */
	enum proto_level	level;	/* OK PLAY AI */
	const char		*text;	/* free text, "" if none */
	size_t			 textlen;
};

/* parse.c */
extern const struct proto_verb_entry proto_verbs[PROTO_NVERBS];
enum proto_scan	 proto_scan(const char *, size_t, size_t *);
enum proto_error proto_parse(const char *, size_t, struct proto_cmd *);
int		 proto_name_valid(const char *, size_t);
int		 proto_code_valid(const char *, size_t, size_t, char *);
int		 proto_is_http(const char *, size_t);
int		 proto_is_http_start(const char *, size_t);

/* format.c */
const char	*proto_error_code(enum proto_error);
const char	*proto_error_text(enum proto_error);
int	proto_fmt_hello(char *, size_t);
int	proto_fmt_ok(char *, size_t, const struct proto_cmd *);
int	proto_fmt_error(char *, size_t, enum proto_error);
int	proto_fmt_wait(char *, size_t, const char *);
int	proto_fmt_match(char *, size_t, enum ttt_mark, const char *);
int	proto_fmt_start(char *, size_t, enum ttt_mark, const char *);
int	proto_fmt_board(char *, size_t, const struct ttt_board *);
int	proto_fmt_board_art(char *, size_t, const struct ttt_board *);
int	proto_fmt_turn(char *, size_t, enum ttt_mark, int, const char *);
int	proto_fmt_result(char *, size_t, const struct ttt_board *,
	    const char *, const char *);
int	proto_fmt_forfeit(char *, size_t, enum ttt_mark, const char *,
	    const char *, enum proto_leave);
int	proto_fmt_again_question(char *, size_t);
int	proto_fmt_info(char *, size_t, const char *);
int	proto_fmt_score(char *, size_t, const char *, unsigned, const char *,
	    unsigned, unsigned);
int	proto_fmt_bye(char *, size_t, const char *);
int	proto_fmt_stat(char *, size_t, const char *, unsigned long long);
int	proto_fmt_end(char *, size_t);
int	proto_fmt_wait_room(char *, size_t, const char *);
int	proto_fmt_ok_games(char *, size_t, unsigned);
/* away: bit 0 X's seat, bit 1 O's, held for a lost player (§9.4) */
int	proto_fmt_game(char *, size_t, unsigned long long, const char *,
	    const char *, int, int);
int	proto_fmt_token(char *, size_t, const char *, long long);
void	proto_fmt_code(char *, const char *);
int	proto_fmt_info_away(char *, size_t, const char *, long long);
int	proto_fmt_info_watching(char *, size_t, unsigned long long,
	    const char *, const char *);
int	proto_fmt_chat(char *, size_t, const char *, const char *, size_t);
int	proto_fmt_resign(char *, size_t, enum ttt_mark, const char *,
	    const char *);
int	proto_fmt_tie(char *, size_t);
int	proto_fmt_key(char *, size_t, const char *);
int	proto_fmt_error_text(char *, size_t, enum proto_error, const char *);
#define PROTO_FORGET_BAD_NAME	"To delete your account, type its name: FORGET <name>."
#define PROTO_REGISTER_NO_NAME	"Choose a name with NAME before you REGISTER."
int	proto_fmt_ok_name(char *, size_t, enum proto_verb, const char *);
int	proto_fmt_ok_login(char *, size_t, const char *, long, long);
int	proto_fmt_ok_rating(char *, size_t, const char *, long, int, long,
	    int, int, int, int);
int	proto_fmt_ok_list(char *, size_t, enum proto_verb, unsigned);
int	proto_fmt_played(char *, size_t, const char *, int, long long,
	    const char *, const char *, char, const char *);
int	proto_fmt_ranked(char *, size_t, unsigned, const char *, long, long,
	    int);
int	proto_fmt_info_rating(char *, size_t, long, int, long);

/* event.c */
int	proto_event_parse(const char *, size_t, struct proto_event *);

/* A verb's entry; PROTO_NONE's (no word, no OK reply) for any other value. */
static inline const struct proto_verb_entry *
proto_verb_info(enum proto_verb v)
{
	return (&proto_verbs[(unsigned)v < PROTO_NVERBS ? v : PROTO_NONE]);
}

#endif /* PROTO_H */
