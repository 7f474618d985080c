/*
 * test_e2e_chaos_social.c -- the real tttd, with reconnection on, against
 * 300 connections that use the commands of protocol.md §9 at once, driven
 * by one poll() loop: private room pairs playing whole matches (some of
 * them chatting, dropping their connection and resuming it, dropping it
 * for good, or having their seat taken over by a new connection), players
 * of the computer, watchers, resigners, aborters, public players and
 * senders of garbage.  Every reply is matched against the command it
 * answers, every board a player or watcher sees must follow from the one
 * before, and afterwards the server must be empty by its own STATS, back
 * to its starting size, and stop cleanly.
 *
 * Everything is bounded: the loop has a deadline, every client ends by
 * itself, and the random choices come from a fixed seed (printed; set
 * CHAOS_SEED to replay another) so that a failure can be reproduced.  With
 * SC_DEBUG set, each failure also prints the client's last lines.
 */
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <netinet/in.h>
#include <arpa/inet.h>

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness.h"
#include "e2e_chaos.h"
#include "e2e_game.h"

#define SC_SEED			20250309ULL
#define SC_CLIENTS		300
#define SC_WAVES		10
#define SC_WAVE_MS		600	/* between two waves */
#define SC_RUN_MS		24000	/* the loop's deadline */
#define SC_GRACE_MS		1500	/* --resume-grace 1.5 */
#define SC_ROOM_MS		2000	/* --room-ttl 2 */
#define SC_OFFER_MS		1000	/* --ai-offer 1 */
#define SC_QUEUE_MS		2500	/* alone in the queue at the end: go */
#define SC_THINK_MS		120	/* players think up to this */
#define SC_WATCH_LIFE_MS	12000	/* a watcher leaves by then */
#define SC_LATE_MS		3000	/* slack of a clock's upper bound */
#define SC_TURN_MS		4000	/* --turn-timeout 4 */
#define SC_EARLY_MS		150	/* slack of a clock's lower bound */
#define SC_EXP			64	/* replies awaited per connection */
#define SC_RESULTS		16
#define SC_CANDS		100
#define SC_BURST		8	/* the chatters' first burst */
#define SC_CHAT_BURST		5	/* the server's chat burst */
#define SC_GRACE_TEXT		"1.5 seconds"
#define SC_AWAY_TEXT		"2 seconds"	/* INFO ... Waiting up to: 1.5, up */
/* The bound on the server's RSS: see e2e_chaos.h. */

enum sc_role {
	R_PUBLIC,	/* plays public matches; chats a little */
	R_RESIGNER,	/* plays public matches, resigns some games */
	R_ABORTER,	/* leaves its first match for PLAY AI or ROOM NEW;
			   after the room expires, leaves the next one by
			   QUIT or takes the offer of the computer */
	R_GARBAGE,	/* plays, with bad bytes and bad §9 lines mixed in */
	R_AI,		/* PLAY AI easy or perfect, several games */
	R_WATCHER,	/* GAMES, WATCH, UNWATCH, WATCH another */
	R_MAKER,	/* ROOM NEW, then its partner's match */
	R_JOINER,	/* ROOM JOIN with the maker's code */
	R_NROLES
};

static const struct {
	const char	*name;
	const char	*prefix;	/* of the player's name */
	int		 count;
} sc_roles[R_NROLES] = {
	{ "public",		"pub",	50 },
	{ "resigner",		"res",	20 },
	{ "aborter",		"abo",	24 },
	{ "garbage",		"gar",	20 },
	{ "computer",		"cpu",	30 },
	{ "watcher",		"wat",	26 },
	{ "room-maker",		"mk",	65 },
	{ "room-joiner",	"jn",	65 },
};

/* What one member (the actor) of a room pair does in its match. */
enum sc_conduct {
	C_PLAIN,	/* plays it out */
	C_CHAT,		/* both chat, over the limit */
	C_DROP_RESUME,	/* drops mid-game, RESUMEs within the grace */
	C_DROP_GONE,	/* drops mid-game for good */
	C_TAKEOVER,	/* RESUMEs from a new connection, old one open */
	C_NCONDUCTS
};

static const struct {
	const char	*name;
	int		 count;		/* of the 65 pairs */
} sc_conducts[C_NCONDUCTS] = {
	{ "plain", 17 }, { "chat", 14 }, { "drop+resume", 16 },
	{ "drop+gone", 10 }, { "takeover", 8 },
};

/* The replies a connection waits for, in order. */
enum sc_kind {
	K_NAME, K_MOVE, K_AGAIN_Y, K_AGAIN_N, K_ROOM_NEW, K_ROOM_JOIN,
	K_GAMES, K_WATCH, K_UNWATCH, K_RESUME, K_RESUME_OLD, K_PLAY_AI,
	K_SAY, K_SAY_BAD, K_RESIGN, K_QUIT, K_PING,
	/* garbage: each has one fixed error */
	K_G_BAD_CHAR, K_G_BAD_ROOM, K_G_BAD_LEVEL,
	K_G_NO_SUCH_GAME, K_G_NOT_WATCHING, K_G_BAD_TOKEN, K_G_UNKNOWN,
	K_G_BAD_TEXT
};

struct sc_exp {
	enum sc_kind	 kind;
	int		 n;		/* SAY's seq, PLAY AI's level */
	int		 burst;		/* SAY of the first burst */
	int		 epoch;		/* the match it was sent in */
	unsigned long long id;		/* WATCH */
	char		 s[12];		/* MOVE's cell, ROOM JOIN's code */
};

#define E_BAD_CHAR	"ERR BAD_CHAR Only UTF-8 text without control characters is accepted."
#define E_BAD_ROOM	"ERR BAD_ROOM Use ROOM NEW, or ROOM JOIN <code>."
#define E_IN_GAME	"ERR IN_GAME You are in a game; finish it, RESIGN or " \
			"QUIT first."
#define E_BAD_LEVEL	\
	"ERR BAD_LEVEL Use PLAY AI, PLAY AI easy or PLAY AI perfect."
#define E_NO_SUCH_GAME	\
	"ERR NO_SUCH_GAME No match with that number is being played."
#define E_NOT_WATCHING	"ERR NOT_WATCHING You are not watching a game."
#define E_BAD_TOKEN	\
	"ERR BAD_TOKEN That code does not match a seat you can resume."
#define E_BAD_TEXT	\
	"ERR BAD_TEXT A chat line is 1 to 200 characters, without TAB."
#define E_NO_GAME	"ERR NO_GAME You are not in a game right now."
#define E_RATE		"ERR RATE_LIMITED "
#define E_UNKNOWN	"ERR UNKNOWN_COMMAND "
#define T_WAIT		"WAIT Waiting for an opponent..."
#define T_BYE		"BYE Thank you for playing!"
#define T_WATCH_OVER	"INFO Type PLAY to play, or GAMES to watch another game."
#define T_TAKEN_OVER	"BYE Your seat was taken over by a new connection."
#define T_OFFER		\
	"INFO Nobody else is here yet. Type PLAY AI to play the computer."
#define T_TIE_NOTICE	"INFO This game can only end in a tie."
#define T_YOUR_TURN	"Enter your move (A1, B2, C3) or 'quit' to exit:"
#define CODE_CHARS	"23456789ABCDEFGHJKMNPQRSTUVWXYZ"

/* Lines of garbage whose reply does not depend on the game. */
static const struct {
	const char	*line;
	enum sc_kind	 kind;
} sc_garbage[] = {
	{ "ROOM",			K_G_BAD_ROOM },
	{ "room join 0OIL11",		K_G_BAD_ROOM },
	{ "ROOM JOIN 22222",		K_G_BAD_ROOM },
	{ "ROOM JOIN 222222",		K_G_BAD_ROOM },
	{ "PLAY AI medium",		K_G_BAD_LEVEL },
	{ "play ai hard",		K_G_BAD_LEVEL },
	{ "PLAY chess",			K_G_BAD_LEVEL },
	{ "WATCH 99999999999",		K_G_NO_SUCH_GAME },
	{ "WATCH",			K_G_NO_SUCH_GAME },
	{ "UNWATCH",			K_G_NOT_WATCHING },
	{ "RESUME 2222-2222",		K_G_BAD_TOKEN },
	{ "SAY",			K_G_BAD_TEXT },
	{ "say a\tb",			K_G_BAD_TEXT },
	{ "FROBNICATE now",		K_G_UNKNOWN },
	{ "PING",			K_PING },
};

/* A game's end as one player saw it. */
struct sc_result {
	char	kind;		/* 'W'in, 'T'ie, 'F'orfeit, 'R'esigned */
	char	sym;
	char	name[24];
	char	board[10];
	int	room;		/* in its room pair's match */
};

/* What a player knows of the match it is in (saved across a RESUME). */
struct sc_match {
	char	sym;		/* 0: in no match */
	char	opp[24];
	int	playing;	/* plays this match (else: it leaves it) */
	int	room;		/* its room pair's match */
	int	ai;		/* against the computer */
	int	perfect;
	int	games;		/* START lines */
	int	my_moves;	/* in the first game */
	int	moves_game;	/* in this game */
	int	in_game;
	int	fresh;		/* an empty BOARD is next */
	char	board[10];
	char	mover;
	int	asked;
	int	forfeited;
	int	opp_left;
	int	opp_away;
	long	away_at;
	int	tie_due;
	int	tie_told;
	int	resign_at;	/* resigners: after this many moves */
	long	turn_at;	/* our turn began (0: not our turn) */
	long	turn_used;	/* ms of our turn gone before a drop */
	int	score_due;	/* a RESULT came: its score is next */
	unsigned scored;	/* games in the last score seen */
};

enum sc_state { CS_NEW, CS_OPEN, CS_AWAY, CS_DONE };

struct sc_client {
	struct conn		 conn;
	struct conn		 old;		/* taken over, being drained */
	int			 has_old;
	int			 old_bye;
	int			 idx;
	enum sc_role		 role;
	enum sc_conduct		 conduct;
	int			 actor;		/* does the conduct */
	int			 partner;	/* room pairs: the other */
	enum sc_state		 state;
	char			 name[24];
	long			 t_open;

	struct chaos_out	 out;
	struct sc_exp		 exp[SC_EXP];
	int			 exp_head, exp_n;
	int			 switching;	/* switching commands unanswered */
	int			 bye_due;	/* after OK AGAIN n */
	int			 bye;
	int			 named;		/* OK NAME came */
	int			 quitting;	/* QUIT sent */
	int			 epoch;		/* matches and queue stays */
	char			 last[12][120];	/* the last lines, to report */
	int			 nlast;

	int			 queued;
	long			 queued_at;
	int			 offer_seen;
	int			 room_waiting;
	char			 room[16];
	long			 room_at;
	int			 joined;	/* joiner sent ROOM JOIN */
	int			 expect_ai;	/* OK PLAY AI came */
	int			 expect_room;	/* OK ROOM (join) came */
	int			 expect_wait;	/* after an abort INFO */
	int			 expect_hint;	/* after a watched match's end */
	int			 resuming;	/* OK RESUME .. TOKEN */
	int			 resign_pending; /* OK RESIGN came */
	int			 aborted_done;	/* aborters: have left */
	int			 expired_room;	/* aborters: room expired */
	struct sc_match		 m;
	struct sc_match		 saved;		/* before a drop/takeover */
	char			 token[16];
	char			 old_token[16];
	int			 check_old;	/* try the used token: still its
						   seat's */

	int			 to_move, to_answer;
	long			 act_at;
	int			 moving;
	int			 smart;
	int			 act_due;	/* conduct: at the next chance */
	int			 acted;
	int			 act_on_my_turn;
	long			 resume_at;
	long			 dropped_at;
	int			 gone;
	int			 resume_sent;
	int			 rematches, rematch_budget;
	int			 requeues;
	int			 ai_budget;
	struct sc_result	 res[SC_RESULTS];
	int			 nres;

	/* counters */
	int			 aborts_by_me, aborts_seen;
	int			 resumes_ok, takeovers_seen, resume_old_ok;
	int			 resign_ok, resigned_by_opp;
	int			 offers, offer_taken;
	int			 room_expired;
	int			 away_seen, back_seen, grace_forfeits;
	int			 ai_games[2], ai_lost[2], ai_won[2];
	int			 tie_notices;
	int			 watch_notes;	/* watchers come and gone */
	int			 garbage_left, garbage_sent;
	long			 next_garbage;

	/* chat */
	int			 chat_seq;
	uint64_t		 said_ok;	/* seqs the server took */
	uint64_t		 heard;		/* seqs heard by anyone */
	uint64_t		 heard_by_partner;
	int			 last_heard_seq; /* from the current speaker */
	char			 last_speaker[24];
	int			 burst_sent, burst_replies, burst_ok, burst_nogame;
	int			 rate_limited, chats_heard, bad_text;

	/* watchers */
	int			 watching;
	unsigned long long	 w_id, w_prev;
	char			 wx[24], wo[24];
	char			 w_board[10];
	char			 w_mover;
	int			 w_in_game, w_fresh, w_tie_due, w_tie_told;
	int			 w_score_due;	/* a RESULT came: its score next */
	unsigned		 w_scored;	/* games in the last score seen */
	int			 w_snap;	/* the board at OK WATCH */
	int			 w_boards;	/* boards checked */
	int			 games_left;	/* GAME lines to come */
	int			 ncand;
	unsigned long long	 cand[SC_CANDS];
	int			 watches, watch_budget;
	long			 watch_until, next_games;
	int			 games_pending;
	int			 w_over;
};

/* sc_read's client, for conn_pump's callbacks. */
struct sc_pump {
	struct chaos		*ch;
	struct sc_client	*cl;
};

struct chaos {
	struct tttd_proc	 srv;
	struct sc_client	 cl[SC_CLIENTS];
	uint64_t		 seed;
	uint64_t		 rng;
	int			 nstarted;
	int			 max_open;
	int			 next_addr;	/* RESUMEs come from their own */
	int			 conns;
	long			 t0;
	long			 waves_done_at;
	struct chaos_health	 health;
	struct chaos_fails	 fails;
};

static void	sc_fail(struct chaos *, struct sc_client *, const char *, ...)
		    __attribute__((format(printf, 3, 4)));
static struct sc_exp *sc_send(struct sc_client *, enum sc_kind,
		    const char *, ...) __attribute__((format(printf, 3, 4)));
static int	sc_find(struct chaos *, const char *);
static int	sc_is(const char *, const char *, char *, const char *);
static const char *sc_me(const struct sc_client *);
static int	sc_dead(const char *, char);
static void	sc_chat_text(int, int, char *, size_t);
static void	sc_fresh_conn(struct sc_client *);
static void	sc_open(struct chaos *, struct sc_client *);
static void	sc_reopen(struct chaos *, struct sc_client *, int);
static void	sc_leaving(struct sc_client *);
static void	sc_enter_queue(struct chaos *, struct sc_client *);
static void	sc_move(struct chaos *, struct sc_client *);
static void	sc_answer(struct chaos *, struct sc_client *);
static void	sc_say(struct chaos *, struct sc_client *, int);
static void	sc_act(struct chaos *, struct sc_client *, long);
static void	sc_reply(struct chaos *, struct sc_client *, const char *);
static void	sc_board(struct chaos *, struct sc_client *, const char *);
static void	sc_result(struct chaos *, struct sc_client *, const char *);
static void	sc_chat(struct chaos *, struct sc_client *, const char *);
static void	sc_info(struct chaos *, struct sc_client *, const char *);
static void	sc_watch_line(struct chaos *, struct sc_client *,
		    const char *);
static void	sc_games_done(struct chaos *, struct sc_client *);
static void	sc_line(struct chaos *, struct sc_client *, char *);
static void	sc_old_line(struct chaos *, struct sc_client *,
		    const char *);
static int	sc_line_cb(void *, char *);
static int	sc_old_line_cb(void *, char *);
static void	sc_read(struct chaos *, struct sc_client *);
static void	sc_read_old(struct chaos *, struct sc_client *);
static void	sc_write(struct chaos *, struct sc_client *);
static void	sc_tick(struct chaos *, struct sc_client *, long);
static void	sc_finish(struct sc_client *, int);
static void	sc_quit(struct sc_client *);
static int	sc_valgrind(void);

/* Is tttd run under valgrind (TTTD_BIN, its wrapper)? */
static int
sc_valgrind(void)
{
	const char	*bin = getenv("TTTD_BIN");

	return (bin != NULL && strstr(bin, "valgrind") != NULL);
}

/* Note a failure, naming the client; the test fails at the end. */
static void
sc_fail(struct chaos *ch, struct sc_client *cl, const char *fmt, ...)
{
	va_list	ap;
	char	who[96];

	if (cl != NULL)
		snprintf(who, sizeof who, "%s (%s%s%s)", cl->name,
		    sc_roles[cl->role].name, cl->role >= R_MAKER ? " " : "",
		    cl->role >= R_MAKER ? sc_conducts[cl->conduct].name : "");
	if (ch->fails.n < CHAOS_FAILS) {
		if (cl != NULL && getenv("SC_DEBUG") != NULL) {
			int	i;

			printf("chaos-social: debug %s:", cl->name);
			for (i = 0; i < 12; i++)
				printf(" | %s", cl->last[(cl->nlast + i) % 12]);
			printf(" (pending %d, next %ld, watches %d, aborted "
			    "%d, expired %d, quitting %d)\n",
			    cl->games_pending, cl->next_games, cl->watches,
			    cl->aborted_done, cl->expired_room, cl->quitting);
		}
	}
	va_start(ap, fmt);
	chaos_fails_vadd(&ch->fails, cl != NULL ? who : NULL, fmt, ap);
	va_end(ap);
}

/* Queue a command and the reply it waits for. */
static struct sc_exp *
sc_send(struct sc_client *cl, enum sc_kind kind, const char *fmt, ...)
{
	struct sc_exp	*e;
	char		 line[512];
	va_list		 ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	if (cl->exp_n == SC_EXP || cl->quitting)
		return (NULL);
	if (kind == K_QUIT || kind == K_AGAIN_N)
		cl->quitting = 1;	/* nothing after it is read */
	snprintf(cl->last[cl->nlast++ % 12], sizeof cl->last[0], "> %.100s",
	    line);
	chaos_out_line(&cl->out, line);
	e = &cl->exp[(cl->exp_head + cl->exp_n++) % SC_EXP];
	memset(e, 0, sizeof *e);
	e->kind = kind;
	e->epoch = cl->epoch;
	if (kind == K_ROOM_NEW || kind == K_ROOM_JOIN || kind == K_WATCH ||
	    kind == K_RESUME || kind == K_PLAY_AI)
		cl->switching++;
	return (e);
}

/* The client a player name belongs to, or -1. */
static int
sc_find(struct chaos *ch, const char *name)
{
	int	i = chaos_name_index(name, SC_CLIENTS);

	if (i == -1 || strcmp(ch->cl[i].name, name) != 0)
		return (-1);
	return (i);
}

/*
 * Is the line exactly prefix, one word (into word), suffix?  (sscanf does
 * not check what follows its last conversion.)
 */
static int
sc_is(const char *line, const char *prefix, char *word, const char *suffix)
{
	size_t	n = strlen(prefix), w;

	if (strncmp(line, prefix, n) != 0)
		return (0);
	line += n;
	w = strcspn(line, " ");
	if (w == 0 || w > 63)
		return (0);
	memcpy(word, line, w);
	word[w] = '\0';
	return (strcmp(line + w, suffix) == 0);
}

/* The player's name in its match: its seat's until OK NAME came. */
static const char *
sc_me(const struct sc_client *cl)
{
	if (cl->named)
		return (cl->name);
	return (cl->m.sym == 'X' ? "p1" : "p2");
}

/* After a move by last: does the game go on, unwinnable? */
static int
sc_dead(const char *board, char last)
{
	char	b[10];

	memcpy(b, board, 10);
	if (game_winner(b) != 0 ||
	    strchr(b, '.') == NULL)
		return (0);
	return (!game_can_win(b, last == 'X' ? 'O' : 'X'));
}

/*
 * The seq-th chat line of client idx: "<seq>|" then printable ASCII up to
 * 200 characters in all (every fifth exactly 200), never ending in a blank.
 */
static void
sc_chat_text(int idx, int seq, char *out, size_t size)
{
	uint64_t	h = (uint64_t)(idx + 1) * 0x9e3779b97f4a7c15ULL ^
			    (uint64_t)(seq + 1) * 0xbf58476d1ce4e5b9ULL;
	int		n, len, i;

	n = snprintf(out, size, "%d|", seq);
	h ^= h >> 31;
	len = seq % 5 == 0 ? 200 : n + 1 + (int)(h % (uint64_t)(200 - n));
	for (i = n; i < len && (size_t)i < size - 1; i++) {
		h ^= h << 13;
		h ^= h >> 7;
		h ^= h << 17;
		out[i] = (char)(0x20 + (int)(h % 95));
	}
	if (out[i - 1] == ' ')
		out[i - 1] = '.';
	out[i] = '\0';
}

/* What a new connection knows: nothing. */
static void
sc_fresh_conn(struct sc_client *cl)
{
	cl->out.len = 0;
	cl->exp_head = cl->exp_n = 0;
	cl->switching = cl->bye_due = cl->bye = cl->named = 0;
	cl->quitting = 0;
	cl->queued = cl->offer_seen = cl->room_waiting = 0;
	cl->expect_ai = cl->expect_room = cl->expect_wait = 0;
	cl->expect_hint = 0;
	cl->resuming = cl->resign_pending = 0;
	cl->to_move = cl->to_answer = cl->moving = 0;
	cl->watching = cl->games_left = 0;
	memset(&cl->m, 0, sizeof cl->m);
}

/* QUIT, once. */
static void
sc_quit(struct sc_client *cl)
{
	if (cl->quitting || cl->bye_due)
		return;
	sc_send(cl, K_QUIT, "%s", "QUIT");
}

/* Connect one client and say its first lines. */
static void
sc_open(struct chaos *ch, struct sc_client *cl)
{
	static const char	*ai[] = { "PLAY AI", "play ai PERFECT",
				    "PLAY AI easy", "Play Ai Easy" };
	int			 k;
	struct sc_exp		*e;

	if (conn_open_nb(&cl->conn, ch->srv.port, HARNESS_TIMEOUT_MS) == -1) {
		sc_fail(ch, cl, "cannot connect: %s", strerror(errno));
		cl->state = CS_DONE;
		return;
	}
	ch->conns++;
	sc_fresh_conn(cl);
	cl->state = CS_OPEN;
	cl->t_open = harness_now_ms();
	sc_send(cl, K_NAME, "NAME %s", cl->name);
	cl->rematch_budget = (int)(chaos_rng(&ch->rng) % 3);
	cl->ai_budget = 1 + (int)(chaos_rng(&ch->rng) % 4);
	cl->smart = (int)(chaos_rng(&ch->rng) % 2);
	cl->act_on_my_turn = (int)(chaos_rng(&ch->rng) % 2);
	cl->garbage_left = 8 + (int)(chaos_rng(&ch->rng) % 10);
	cl->watch_budget = 2 + (int)(chaos_rng(&ch->rng) % 3);
	cl->check_old = (int)(chaos_rng(&ch->rng) % 2);
	cl->last_heard_seq = -1;
	switch (cl->role) {
	case R_MAKER:
		sc_send(cl, K_ROOM_NEW, "%s", chaos_rng(&ch->rng) % 2 ?
		    "ROOM NEW" : "room\tnew");
		break;
	case R_AI:
		k = (int)(chaos_rng(&ch->rng) % 4);
		if ((e = sc_send(cl, K_PLAY_AI, "%s", ai[k])) != NULL)
			e->n = k < 2;
		break;
	case R_WATCHER:
		sc_send(cl, K_GAMES, "GAMES");
		cl->games_pending = 1;
		break;
	default:
		break;
	}
}

/*
 * A new connection for a dropped or taken-over seat: RESUME with the token,
 * spelled in one of the ways the server takes.
 */
static void
sc_reopen(struct chaos *ch, struct sc_client *cl, int takeover)
{
	char	tok[16], src[24];
	int	i, k = (int)(chaos_rng(&ch->rng) % 3);

	if (takeover) {
		cl->old = cl->conn;
		cl->has_old = 1;
		cl->old_bye = 0;
	}
	cl->saved = cl->m;
	snprintf(src, sizeof src, "127.77.%d.%d", (ch->next_addr + 1) >> 8,
	    (ch->next_addr + 1) & 0xff);
	ch->next_addr++;
	if (conn_open_from(&cl->conn, ch->srv.port, src,
	    HARNESS_TIMEOUT_MS) == -1) {
		sc_fail(ch, cl, "cannot connect again: %s", strerror(errno));
		cl->state = CS_DONE;
		return;
	}
	ch->conns++;
	sc_fresh_conn(cl);
	cl->state = CS_OPEN;
	snprintf(tok, sizeof tok, "%s", cl->token);
	if (k == 1) {
		for (i = 0; tok[i] != '\0'; i++) {
			if (tok[i] >= 'A' && tok[i] <= 'Z')
				tok[i] = (char)(tok[i] - 'A' + 'a');
		}
	} else if (k == 2 && strlen(tok) == 9)
		memmove(tok + 4, tok + 5, 5);
	snprintf(cl->old_token, sizeof cl->old_token, "%s", cl->token);
	sc_send(cl, K_RESUME, "RESUME %s", tok);
	cl->resume_sent++;
}

/*
 * The reply to a command that leaves the current activity has come: a
 * match whose first game is on and in which this player has not moved yet
 * was aborted (protocol.md §9.2).
 */
static void
sc_leaving(struct sc_client *cl)
{
	if (cl->m.sym != 0 && cl->m.in_game && cl->m.games == 1 &&
	    cl->m.my_moves == 0)
		cl->aborts_by_me++;
	memset(&cl->m, 0, sizeof cl->m);
	cl->epoch++;
	cl->queued = cl->room_waiting = cl->watching = 0;
	cl->to_move = cl->to_answer = cl->moving = 0;
}

/* WAIT Waiting for an opponent...: in the public queue. */
static void
sc_enter_queue(struct chaos *ch, struct sc_client *cl)
{
	long	now = harness_now_ms();

	if (cl->m.sym != 0 && cl->m.room)
		cl->requeues++;
	memset(&cl->m, 0, sizeof cl->m);
	cl->epoch++;
	cl->queued = 1;
	cl->queued_at = now;
	cl->offer_seen = 0;
	cl->expect_wait = 0;
	cl->watching = 0;
	cl->to_move = cl->to_answer = cl->moving = 0;
	if (cl->role == R_WATCHER && !cl->games_pending)
		cl->next_games = now + 50 + (long)(chaos_rng(&ch->rng) % 250);
}

/* Our turn: the computer's opponents look for wins and blocks. */
static void
sc_move(struct chaos *ch, struct sc_client *cl)
{
	struct sc_exp	*e;
	char		 cells[9], b[10], me = cl->m.sym, them;
	int		 i, n = 0, pick = -1, pass;

	them = me == 'X' ? 'O' : 'X';
	for (i = 0; i < 9; i++) {
		if (cl->m.board[i] == '.')
			cells[n++] = (char)i;
	}
	if (n == 0 || cl->moving)
		return;
	for (pass = 0; cl->smart && pass < 2 && pick == -1; pass++) {
		for (i = 0; i < n && pick == -1; i++) {
			memcpy(b, cl->m.board, 10);
			b[(int)cells[i]] = pass == 0 ? me : them;
			if (chaos_has_line(b, pass == 0 ? me : them))
				pick = cells[i];
		}
	}
	if (pick == -1 && cl->smart && cl->m.board[4] == '.')
		pick = 4;
	if (pick == -1)
		pick = cells[chaos_rng(&ch->rng) % (uint32_t)n];
	if (cl->m.room && cl->conduct == C_CHAT && chaos_rng(&ch->rng) % 3 == 0)
		sc_say(ch, cl, 0);
	else if (cl->role == R_PUBLIC && chaos_rng(&ch->rng) % 6 == 0)
		sc_say(ch, cl, 0);
	snprintf(b, sizeof b, "%c%c", "abcABC"[pick % 3 + 3 *
	    (int)(chaos_rng(&ch->rng) % 2)], '1' + pick / 3);
	if ((e = sc_send(cl, K_MOVE, "%s%s", chaos_rng(&ch->rng) % 2 ?
	    "MOVE " : "", b)) == NULL)
		return;
	snprintf(e->s, sizeof e->s, "%c%c", "ABC"[pick % 3], '1' + pick / 3);
	cl->moving = 1;
}

/* AGAIN?: play on, or leave. */
static void
sc_answer(struct chaos *ch, struct sc_client *cl)
{
	const struct sc_client	*maker;
	int			 again;

	if (cl->m.ai)
		again = cl->m.games < cl->ai_budget;
	else if (cl->m.room) {
		maker = cl->role == R_JOINER ? &ch->cl[cl->partner] : cl;
		again = !cl->m.forfeited && !cl->m.opp_left &&
		    cl->m.games <= maker->rematch_budget;
	} else if (cl->m.forfeited || cl->m.opp_left)
		again = ch->waves_done_at == 0 && cl->requeues < 2;
	else
		again = cl->rematches < cl->rematch_budget;
	if (again && !cl->m.forfeited && !cl->m.opp_left)
		cl->rematches++;
	if (again)
		sc_send(cl, K_AGAIN_Y, "%s", chaos_rng(&ch->rng) % 2 ? "y" :
		    "AGAIN yes");
	else
		sc_send(cl, K_AGAIN_N, "%s", chaos_rng(&ch->rng) % 2 ? "n" :
		    "again NO");
	cl->m.asked = 0;
}

/*
 * SAY: one line, or (burst) the first burst: SC_BURST lines at once and
 * a refused one among them.
 */
static void
sc_say(struct chaos *ch, struct sc_client *cl, int burst)
{
	char		 text[256];
	struct sc_exp	*e;
	int		 i, bad = (int)(chaos_rng(&ch->rng) % SC_BURST);

	for (i = 0; i < (burst ? SC_BURST : 1); i++) {
		if (burst && i == bad) {
			if (chaos_rng(&ch->rng) % 2) {
				memset(text, 'x', 201);
				text[201] = '\0';
			} else
				snprintf(text, sizeof text, "tab\there");
			sc_send(cl, K_SAY_BAD, "SAY %s", text);
		}
		if (cl->chat_seq >= 64)
			return;
		sc_chat_text(cl->idx, cl->chat_seq, text, sizeof text);
		if ((e = sc_send(cl, K_SAY, "%sSAY %s",
		    chaos_rng(&ch->rng) % 2 ? "" : " ", text)) == NULL)
			return;
		e->n = cl->chat_seq++;
		e->burst = burst;
		cl->burst_sent += burst;
	}
}

/*
 * The actor of a room pair does its conduct: drop the connection (closed
 * or reset), or take its own seat over from a new connection.
 */
static void
sc_act(struct chaos *ch, struct sc_client *cl, long now)
{
	cl->act_due = 0;
	cl->acted = 1;
	if (cl->conduct == C_TAKEOVER) {
		sc_reopen(ch, cl, 1);
		return;
	}
	cl->saved = cl->m;
	/* The server stops our turn clock until we are back (§9.4). */
	if (cl->saved.turn_at != 0) {
		cl->saved.turn_used = now - cl->saved.turn_at;
		cl->saved.turn_at = 0;
	}
	conn_drop(&cl->conn, chaos_rng(&ch->rng) % 2);
	cl->dropped_at = now;
	if (cl->conduct == C_DROP_GONE) {
		cl->gone = 1;
		cl->state = CS_DONE;
	} else {
		cl->state = CS_AWAY;
		cl->resume_at = now + 100 + (long)(chaos_rng(&ch->rng) % 800);
	}
}

/* An OK, ERR or BYE: the reply to the oldest command unanswered. */
static void
sc_reply(struct chaos *ch, struct sc_client *cl, const char *line)
{
	struct sc_exp	 e;
	char		 code[16], lvl[16];
	unsigned long long id;
	int		 n;

	if (cl->exp_n == 0) {
		if (strcmp(line, T_BYE) == 0 && cl->bye_due) {
			cl->bye = 1;
			return;
		}
		sc_fail(ch, cl, "\"%s\" answers nothing", line);
		return;
	}
	e = cl->exp[cl->exp_head];
	cl->exp_head = (cl->exp_head + 1) % SC_EXP;
	cl->exp_n--;
	if (e.kind == K_ROOM_NEW || e.kind == K_ROOM_JOIN ||
	    e.kind == K_WATCH || e.kind == K_RESUME || e.kind == K_PLAY_AI)
		cl->switching--;
	switch (e.kind) {
	case K_NAME:
		if (strncmp(line, "OK NAME ", 8) != 0 ||
		    strcmp(line + 8, cl->name) != 0)
			break;
		cl->named = 1;
		return;
	case K_MOVE:
		cl->moving = 0;
		if (strncmp(line, "OK MOVE ", 8) == 0 &&
		    strcmp(line + 8, e.s) == 0) {
			if (cl->m.games == 1)
				cl->m.my_moves++;
			cl->m.moves_game++;
			return;
		}
		if (strcmp(line, E_NO_GAME) == 0 && !cl->m.in_game)
			return;		/* crossed a resign */
		/*
		 * Sent in a match its opponent left before the move came:
		 * it lands in the next one, if any, as it may.
		 */
		if (e.epoch != cl->epoch && (strcmp(line, E_NO_GAME) == 0 ||
		    strncmp(line, "ERR NOT_YOUR_TURN ", 18) == 0 ||
		    strncmp(line, "ERR TAKEN ", 10) == 0))
			return;
		break;
	case K_AGAIN_Y:
		if (strcmp(line, "OK AGAIN y") == 0)
			return;
		break;
	case K_AGAIN_N:
		if (strcmp(line, "OK AGAIN n") == 0) {
			cl->bye_due = 1;
			return;
		}
		break;
	case K_ROOM_NEW:
		if (sscanf(line, "OK ROOM %15s", code) == 1 &&
		    strlen(code) == 9 && strspn(code, CODE_CHARS) == 4 &&
		    code[4] == '-' && strspn(code + 5, CODE_CHARS) == 4 &&
		    strlen(line) == 17) {
			sc_leaving(cl);
			cl->room_waiting = 1;
			cl->room_at = harness_now_ms();
			snprintf(cl->room, sizeof cl->room, "%s", code);
			return;
		}
		break;
	case K_ROOM_JOIN:
		if (strncmp(line, "OK ROOM ", 8) == 0 &&
		    strcmp(line + 8, e.s) == 0) {
			sc_leaving(cl);
			cl->expect_room = 1;
			return;
		}
		break;
	case K_GAMES:
		cl->games_pending = 0;
		if (sscanf(line, "OK GAMES %d%n", &n, &cl->ncand) == 1 &&
		    n >= 0 && n <= 100 && line[cl->ncand] == '\0') {
			cl->games_left = n;
			cl->ncand = 0;
			if (n == 0)
				sc_games_done(ch, cl);
			return;
		}
		break;
	case K_WATCH:
		if (sscanf(line, "OK WATCH %llu", &id) == 1 && id == e.id) {
			sc_leaving(cl);
			cl->watching = 1;
			cl->w_id = id;
			cl->w_score_due = 0;
			cl->w_scored = 0;
			cl->wx[0] = cl->wo[0] = '\0';
			cl->w_board[0] = '\0';
			cl->w_mover = 0;
			cl->w_in_game = cl->w_fresh = 0;
			cl->w_tie_due = cl->w_tie_told = 0;
			cl->w_over = 0;
			cl->watches++;
			cl->watch_until = harness_now_ms() + 800 +
			    (long)(chaos_rng(&ch->rng) % 1700);
			return;
		}
		if (strcmp(line, E_NO_SUCH_GAME) == 0) {
			/* It ended between GAMES and WATCH. */
			cl->next_games = harness_now_ms() + 100;
			return;
		}
		break;
	case K_UNWATCH:
		if (strcmp(line, "OK UNWATCH") == 0 && cl->watching) {
			cl->watching = 0;
			return;
		}
		if (strcmp(line, E_NOT_WATCHING) == 0 && !cl->watching)
			return;		/* the game was over first */
		break;
	case K_RESUME:
		if (strcmp(line, "OK RESUME") == 0) {
			sc_leaving(cl);
			cl->named = 1;	/* the seat's name comes back */
			cl->resuming = 1;
			cl->resumes_ok++;
			return;
		}
		break;
	case K_RESUME_OLD:
		/*
		 * The token it used still names its seat, until the fresh
		 * one is used: here, its own match.
		 */
		if (strcmp(line, E_IN_GAME) == 0) {
			cl->resume_old_ok++;
			return;
		}
		break;
	case K_PLAY_AI:
		if (sscanf(line, "OK PLAY AI %15s", lvl) == 1 &&
		    strcmp(lvl, e.n ? "perfect" : "easy") == 0 &&
		    strlen(line) == 11 + strlen(lvl)) {
			sc_leaving(cl);
			cl->expect_ai = 1 + e.n;
			return;
		}
		break;
	case K_SAY:
		if (e.burst)
			cl->burst_replies++;
		if (strcmp(line, "OK SAY") == 0) {
			cl->said_ok |= 1ULL << e.n;
			cl->burst_ok += e.burst;
		} else if (strncmp(line, E_RATE, strlen(E_RATE)) == 0)
			cl->rate_limited++;
		else if (strcmp(line, E_NO_GAME) == 0 && cl->m.sym == 0)
			cl->burst_nogame += e.burst;
		else
			break;
		if (e.burst && cl->burst_replies == cl->burst_sent &&
		    cl->burst_nogame == 0 && cl->burst_ok != SC_CHAT_BURST)
			sc_fail(ch, cl, "%d of a burst of %d SAY taken, not %d",
			    cl->burst_ok, cl->burst_sent, SC_CHAT_BURST);
		return;
	case K_SAY_BAD:
	case K_G_BAD_TEXT:
		if (strcmp(line, E_BAD_TEXT) == 0) {
			cl->bad_text++;
			return;
		}
		break;
	case K_RESIGN:
		if (strcmp(line, "OK RESIGN") == 0 && cl->m.in_game) {
			cl->resign_ok++;
			cl->resign_pending = 1;
			return;
		}
		if (strcmp(line, E_NO_GAME) == 0 && (!cl->m.in_game ||
		    e.epoch != cl->epoch))
			return;
		break;
	case K_QUIT:
		if (strcmp(line, T_BYE) == 0) {
			sc_leaving(cl);
			cl->bye = 1;
			return;
		}
		break;
	case K_PING:
		if (strcmp(line, "OK PONG") == 0)
			return;
		break;
	case K_G_BAD_CHAR:
		if (strcmp(line, E_BAD_CHAR) == 0)
			return;
		break;
	case K_G_BAD_ROOM:
		if (strcmp(line, E_BAD_ROOM) == 0)
			return;
		break;
	case K_G_BAD_LEVEL:
		if (strcmp(line, E_BAD_LEVEL) == 0)
			return;
		break;
	case K_G_NO_SUCH_GAME:
		if (strcmp(line, E_NO_SUCH_GAME) == 0)
			return;
		break;
	case K_G_NOT_WATCHING:
		if (strcmp(line, E_NOT_WATCHING) == 0)
			return;
		break;
	case K_G_BAD_TOKEN:
		/* 127.0.0.1's RESUME allowance is the garbage's to use up. */
		if (strcmp(line, E_BAD_TOKEN) == 0 ||
		    strncmp(line, E_RATE, strlen(E_RATE)) == 0)
			return;
		break;
	case K_G_UNKNOWN:
		if (strncmp(line, E_UNKNOWN, strlen(E_UNKNOWN)) == 0)
			return;
		break;
	}
	sc_fail(ch, cl, "\"%s\" in reply to command kind %d", line,
	    (int)e.kind);
}

/*
 * A player's BOARD: the board before plus one mark of the symbol to move
 * in an empty cell; a game's first one empty; after a RESUME, the board
 * left plus at most one mark of the opponent's.
 */
static void
sc_board(struct chaos *ch, struct sc_client *cl, const char *cells)
{
	struct sc_match	*m = &cl->m;
	int		 i, diff = 0, at = -1;
	char		 last;

	if (strlen(cells) != 9 || strspn(cells, "XO.") != 9) {
		sc_fail(ch, cl, "bad BOARD \"%s\"", cells);
		return;
	}
	if (cl->resuming) {
		for (i = 0; i < 9; i++) {
			if (cells[i] != m->board[i]) {
				diff++;
				at = i;
			}
		}
		if (diff > 1 || (diff == 1 && (m->board[at] != '.' ||
		    cells[at] == m->sym)))
			sc_fail(ch, cl, "resumed BOARD %s does not follow %s "
			    "with at most one mark of the opponent", cells,
			    m->board);
		memcpy(m->board, cells, 10);
		/* A notice while away is not repeated. */
		if (sc_dead(cells, 'X') || sc_dead(cells, 'O'))
			m->tie_told = 1;
		m->tie_due = 0;
		return;
	}
	if (m->sym == 0) {
		sc_fail(ch, cl, "BOARD %s outside a match", cells);
		return;
	}
	if (m->in_game && m->fresh) {
		if (strcmp(cells, ".........") != 0)
			sc_fail(ch, cl, "first BOARD of a game is \"%s\"",
			    cells);
		m->fresh = 0;
	} else if (m->in_game) {
		for (i = 0; i < 9; i++) {
			if (cells[i] != m->board[i]) {
				diff++;
				at = i;
			}
		}
		if (diff != 1 || m->board[at] != '.' || cells[at] != m->mover)
			sc_fail(ch, cl, "BOARD %s does not follow %s with one "
			    "%c", cells, m->board, m->mover);
		if (diff == 1) {
			last = m->mover;
			m->mover = m->mover == 'X' ? 'O' : 'X';
			if (!m->tie_told && sc_dead(cells, last))
				m->tie_due = 1;
		}
	} else
		sc_fail(ch, cl, "BOARD %s between games", cells);
	memcpy(m->board, cells, 10);
}

/* A RESULT line: it must agree with the last board, the names, the acts. */
static void
sc_result(struct chaos *ch, struct sc_client *cl, const char *line)
{
	struct sc_match		*m = &cl->m;
	struct sc_result	*r, tmp;
	char			 sym = 0, name[64] = "", other[64] = "";
	char			 want[256];
	int			 opp, n = 0;
	long			 t;

	if (!m->in_game) {
		sc_fail(ch, cl, "\"%s\" outside a game", line);
		return;
	}
	if (m->tie_due)
		sc_fail(ch, cl, "no tie notice after BOARD %s", m->board);
	m->in_game = 0;
	m->score_due = 1;
	opp = sc_find(ch, m->opp);
	r = cl->nres < SC_RESULTS ? &cl->res[cl->nres++] : &tmp;
	memset(r, 0, sizeof *r);
	memcpy(r->board, m->board, 10);
	r->room = m->room;
	if (cl->resign_pending) {
		cl->resign_pending = 0;
		snprintf(want, sizeof want, "RESULT WIN %c %s %s resigned.",
		    m->sym == 'X' ? 'O' : 'X', m->opp, sc_me(cl));
		if (strcmp(line, want) != 0)
			sc_fail(ch, cl, "\"%s\" after OK RESIGN, not \"%s\"",
			    line, want);
		r->kind = 'R';
		r->sym = m->sym == 'X' ? 'O' : 'X';
		return;
	}
	if (strcmp(line, "RESULT TIE It's a tie!") == 0) {
		r->kind = 'T';
		if (strchr(m->board, '.') != NULL ||
		    game_winner(m->board) != 0)
			sc_fail(ch, cl, "TIE on board %s", m->board);
		if (m->ai)
			cl->ai_games[m->perfect]++;
		return;
	}
	if (sscanf(line, "RESULT WIN %c %63s %63s resigned.%n", &sym, name,
	    other, &n) == 3 && n > 0 && line[n] == '\0') {
		/* The opponent resigned: it must be one that does. */
		r->kind = 'R';
		r->sym = sym;
		cl->resigned_by_opp++;
		if (sym != m->sym || strcmp(name, sc_me(cl)) != 0 ||
		    strcmp(other, m->opp) != 0)
			sc_fail(ch, cl, "\"%s\" as %c against %s", line,
			    m->sym, m->opp);
		else if (opp == -1 || ch->cl[opp].role != R_RESIGNER)
			sc_fail(ch, cl, "\"%s\": %s does not resign", line,
			    m->opp);
		return;
	}
	if (sscanf(line, "RESULT WIN %c %63s %n", &sym, name, &n) == 2) {
		r->kind = 'W';
		r->sym = sym;
		snprintf(r->name, sizeof r->name, "%.23s", name);
		snprintf(want, sizeof want, "RESULT WIN %c %s %s wins! better "
		    "luck next time %s!", sym, sym == m->sym ? sc_me(cl) :
		    m->opp, sym == m->sym ? sc_me(cl) : m->opp,
		    sym == m->sym ? m->opp : sc_me(cl));
		if (!chaos_has_line(m->board, sym) ||
		    chaos_has_line(m->board, sym == 'X' ? 'O' : 'X'))
			sc_fail(ch, cl, "WIN %c on board %s", sym, m->board);
		if (strcmp(line, want) != 0)
			sc_fail(ch, cl, "\"%s\", not \"%s\"", line, want);
		if (m->ai) {
			cl->ai_games[m->perfect]++;
			if (sym == m->sym)
				cl->ai_won[m->perfect]++;
			else
				cl->ai_lost[m->perfect]++;
			if (sym == m->sym && m->perfect)
				sc_fail(ch, cl, "the perfect computer lost on "
				    "%s", m->board);
		}
		return;
	}
	if (sscanf(line, "RESULT FORFEIT %c %63s %63s lost the connection.%n",
	    &sym, name, other, &n) == 3 && n > 0) {
		r->kind = 'F';
		r->sym = sym;
		m->forfeited = 1;
		snprintf(want, sizeof want, "RESULT FORFEIT %c %s %s lost the "
		    "connection. %s wins!", m->sym, sc_me(cl), m->opp,
		    sc_me(cl));
		t = harness_now_ms() - m->away_at;
		if (strcmp(line, want) != 0)
			sc_fail(ch, cl, "\"%s\", not \"%s\"", line, want);
		else if (!m->opp_away)
			sc_fail(ch, cl, "\"%s\" without the INFO of the grace",
			    line);
		else if (t < SC_GRACE_MS - 150 || t > SC_GRACE_MS +
		    SC_LATE_MS)
			sc_fail(ch, cl, "forfeit %ld ms after the INFO, the "
			    "grace is %d ms", t, SC_GRACE_MS);
		else if (opp == -1 || !ch->cl[opp].gone)
			sc_fail(ch, cl, "\"%s\": %s is not gone", line, m->opp);
		else
			cl->grace_forfeits++;
		return;
	}
	sc_fail(ch, cl, "unexpected \"%s\"", line);
}

/* CHAT <name> <text>: from the opponent (or a watched player), verbatim. */
static void
sc_chat(struct chaos *ch, struct sc_client *cl, const char *line)
{
	char		 name[64], want[256];
	const char	*text;
	int		 n = 0, from, seq;

	if (sscanf(line, "CHAT %63s %n", name, &n) != 1 || n == 0) {
		sc_fail(ch, cl, "malformed \"%s\"", line);
		return;
	}
	text = line + n;
	if (cl->watching ? strcmp(name, cl->wx) != 0 &&
	    strcmp(name, cl->wo) != 0 : strcmp(name, cl->m.opp) != 0) {
		sc_fail(ch, cl, "\"%s\" from neither player", line);
		return;
	}
	if ((from = sc_find(ch, name)) == -1 || (seq = atoi(text)) < 0 ||
	    seq >= 64) {
		sc_fail(ch, cl, "\"%s\" from nobody who chats", line);
		return;
	}
	sc_chat_text(from, seq, want, sizeof want);
	if (strcmp(text, want) != 0) {
		sc_fail(ch, cl, "\"%s\": the text sent was \"%s\"", line,
		    want);
		return;
	}
	if (strcmp(cl->last_speaker, name) == 0 && seq <= cl->last_heard_seq)
		sc_fail(ch, cl, "CHAT %d of %s after its %d", seq, name,
		    cl->last_heard_seq);
	snprintf(cl->last_speaker, sizeof cl->last_speaker, "%.23s", name);
	cl->last_heard_seq = seq;
	ch->cl[from].heard |= 1ULL << seq;
	if (from == cl->partner && !cl->watching)
		ch->cl[from].heard_by_partner |= 1ULL << seq;
	cl->chats_heard++;
}

/*
 * INFO Score: <x> <a>, <o> <b>, ties <t>. -- right after each RESULT, with
 * the match's names, X first, and more games than the score before.
 */
static void
sc_score(struct chaos *ch, struct sc_client *cl, const char *line,
    const char *x, const char *o, int *due, unsigned *scored)
{
	char		 want[256];
	unsigned	 a, b, t;
	int		 n = 0;

	if (!*due)
		sc_fail(ch, cl, "\"%s\" without a RESULT before it", line);
	*due = 0;
	n = snprintf(want, sizeof want, "INFO Score: %s ", x);
	if (strncmp(line, want, (size_t)n) != 0 ||
	    sscanf(line + n, "%u, %*s %u, ties %u.", &a, &b, &t) != 3) {
		sc_fail(ch, cl, "\"%s\" is no score of %s and %s", line, x,
		    o);
		return;
	}
	snprintf(want, sizeof want, "INFO Score: %s %u, %s %u, ties %u.", x,
	    a, o, b, t);
	if (strcmp(line, want) != 0)
		sc_fail(ch, cl, "\"%s\", not \"%s\"", line, want);
	else if (a + b + t <= *scored)
		sc_fail(ch, cl, "\"%s\" after a score of %u games", line,
		    *scored);
	*scored = a + b + t;
}

/* An INFO line to a player (not watching). */
static void
sc_info(struct chaos *ch, struct sc_client *cl, const char *line)
{
	struct sc_match	*m = &cl->m;
	char		 a[64], b[64], want[256];
	long		 now = harness_now_ms(), t;
	int		 i, who;

	if (sc_is(line, "INFO ", a, " is watching.") ||
	    sc_is(line, "INFO ", a, " stopped watching.")) {
		/* §9.4: only watchers are announced (unnamed: Someone). */
		if (strcmp(a, "Someone") != 0 && ((who = sc_find(ch, a)) ==
		    -1 || ch->cl[who].role != R_WATCHER))
			sc_fail(ch, cl, "\"%s\": %s watches nothing", line, a);
		cl->watch_notes++;
		return;
	}
	if (strncmp(line, "INFO Score: ", 12) == 0) {
		sc_score(ch, cl, line, m->sym == 'X' ? sc_me(cl) : m->opp,
		    m->sym == 'X' ? m->opp : sc_me(cl), &m->score_due,
		    &m->scored);
		return;
	}
	if (sscanf(line, "INFO %63s is now known as %63s", a, b) == 2) {
		if ((i = (int)strlen(b)) > 0 && b[i - 1] == '.')
			b[i - 1] = '\0';
		if (strcmp(a, m->opp) == 0)
			snprintf(m->opp, sizeof m->opp, "%.23s", b);
		return;
	}
	if (sc_is(line, "INFO ", a, " left before the first move. No "
	    "result.")) {
		if (m->sym == 0 || strcmp(a, m->opp) != 0 || !m->in_game ||
		    m->games != 1)
			sc_fail(ch, cl, "\"%s\" as %c against %s in game %d",
			    line, m->sym ? m->sym : '-', m->opp, m->games);
		cl->aborts_seen++;
		memset(m, 0, sizeof *m);
		cl->to_move = cl->to_answer = 0;
		cl->expect_wait = 1;
		return;
	}
	if (sc_is(line, "INFO ", a, " lost the connection. Waiting up to "
	    SC_AWAY_TEXT " for them to come back.")) {
		snprintf(want, sizeof want, "INFO %s lost the connection. "
		    "Waiting up to " SC_AWAY_TEXT " for them to come back.",
		    m->opp);
		who = sc_find(ch, a);
		if (strcmp(line, want) != 0)
			sc_fail(ch, cl, "\"%s\", not \"%s\"", line, want);
		else if (who == -1 || ch->cl[who].dropped_at == 0 ||
		    !ch->cl[who].actor)
			sc_fail(ch, cl, "\"%s\": %s did not drop", line, a);
		m->opp_away = 1;
		m->away_at = now;
		cl->away_seen++;
		return;
	}
	if (sc_is(line, "INFO ", a, " is back.")) {
		who = sc_find(ch, a);
		if (strcmp(a, m->opp) != 0 || who == -1 ||
		    !ch->cl[who].resume_sent)
			sc_fail(ch, cl, "\"%s\" against %s", line, m->opp);
		else if (ch->cl[who].conduct == C_TAKEOVER && m->opp_away)
			sc_fail(ch, cl, "\"%s\": a takeover was told as a "
			    "lost connection", line);
		else if (ch->cl[who].conduct == C_DROP_RESUME &&
		    !m->opp_away)
			sc_fail(ch, cl, "\"%s\" without the lost connection",
			    line);
		m->opp_away = 0;
		cl->back_seen++;
		return;
	}
	if (sc_is(line, "INFO ", a, " left the match.")) {
		if (strcmp(a, m->opp) != 0 || m->in_game)
			sc_fail(ch, cl, "\"%s\" against %s (in game %d)", line,
			    m->opp, m->in_game);
		if (m->opp_away) {
			t = now - m->away_at;
			if (t < SC_GRACE_MS - 150)
				sc_fail(ch, cl, "\"%s\" %ld ms after the grace "
				    "began", line, t);
		}
		m->opp_left = 1;
		return;
	}
	if (sc_is(line, "INFO Room ", a, " expired.")) {
		t = now - cl->room_at;
		if (!cl->room_waiting || strcmp(a, cl->room) != 0 ||
		    cl->role != R_ABORTER)
			sc_fail(ch, cl, "\"%s\" (room %s)", line, cl->room);
		else if (t < SC_ROOM_MS - 150 || t > SC_ROOM_MS + SC_LATE_MS)
			sc_fail(ch, cl, "room expired after %ld ms", t);
		cl->room_waiting = 0;
		cl->room_expired++;
		cl->expired_room = 1;
		cl->expect_wait = 1;
		return;
	}
	if (strcmp(line, T_OFFER) == 0) {
		t = now - cl->queued_at;
		if (!cl->queued || cl->offer_seen || cl->room_waiting ||
		    t < SC_OFFER_MS - 150)
			sc_fail(ch, cl, "\"%s\" (queued %d for %ld ms, offered "
			    "%d)", line, cl->queued, t, cl->offer_seen);
		cl->offer_seen = 1;
		cl->offers++;
		if (((cl->role == R_PUBLIC && chaos_rng(&ch->rng) % 2) ||
		    (cl->role == R_ABORTER && cl->expired_room)) &&
		    cl->switching == 0) {
			sc_send(cl, K_PLAY_AI, "PLAY AI easy");
			cl->offer_taken++;
		}
		return;
	}
	if (strcmp(line, T_TIE_NOTICE) == 0) {
		if (!m->tie_due)
			sc_fail(ch, cl, "tie notice on board %s (told %d)",
			    m->board, m->tie_told);
		m->tie_due = 0;
		m->tie_told = 1;
		cl->tie_notices++;
		return;
	}
	if (strncmp(line, "INFO You have ", 14) == 0) {
		/*
		 * A slow server: the turn clock's warning, to the mover only,
		 * when two thirds of its turn are gone (§6.11).
		 */
		t = m->turn_at != 0 ? now - m->turn_at : -1;
		if (!m->in_game || m->mover != m->sym || m->turn_at == 0)
			sc_fail(ch, cl, "\"%s\" not on our turn (in game %d, "
			    "%c to move, we are %c)", line, m->in_game,
			    m->mover ? m->mover : '-', m->sym ? m->sym : '-');
		else if (t < SC_TURN_MS * 2 / 3 - SC_EARLY_MS)
			sc_fail(ch, cl, "\"%s\" %ld ms into our turn, due at "
			    "%d ms", line, t, SC_TURN_MS * 2 / 3);
		return;
	}
	sc_fail(ch, cl, "unexpected \"%s\"", line);
}

/*
 * A line to a watcher: each BOARD of a game is the one before plus one
 * mark of the symbol TURN named, or empty after START; never MATCH, TOKEN
 * or AGAIN?.
 */
static void
sc_watch_line(struct chaos *ch, struct sc_client *cl, const char *line)
{
	char			 a[64], b[64], want[256], sym;
	const char		*cells;
	unsigned long long	 id;
	int			 i, diff = 0, at = -1, n = 0;

	if (sscanf(line, "INFO You are watching game %llu: %63s (X) against "
	    "%63s (O).", &id, a, b) == 3) {
		if (id != cl->w_id || cl->wx[0] != '\0')
			sc_fail(ch, cl, "\"%s\" watching %llu", line, cl->w_id);
		snprintf(cl->wx, sizeof cl->wx, "%.23s", a);
		snprintf(cl->wo, sizeof cl->wo, "%.23s", b);
		return;
	}
	if (strncmp(line, "BOARD ", 6) == 0) {
		cells = line + 6;
		if (strlen(cells) != 9 || strspn(cells, "XO.") != 9) {
			sc_fail(ch, cl, "bad \"%s\"", line);
			return;
		}
		if (cl->w_board[0] == '\0') {
			memcpy(cl->w_board, cells, 10);
			cl->w_snap = 1;
			return;
		}
		if (cl->w_fresh) {
			if (strcmp(cells, ".........") != 0)
				sc_fail(ch, cl, "watched game %llu begins with "
				    "%s", cl->w_id, cells);
			cl->w_fresh = 0;
		} else {
			for (i = 0; i < 9; i++) {
				if (cells[i] != cl->w_board[i]) {
					diff++;
					at = i;
				}
			}
			if (!cl->w_in_game || cl->w_mover == 0 || diff != 1 ||
			    cl->w_board[at] != '.' ||
			    cells[at] != cl->w_mover)
				sc_fail(ch, cl, "watched game %llu: BOARD %s "
				    "after %s, %c to move", cl->w_id, cells,
				    cl->w_board, cl->w_mover ? cl->w_mover :
				    '-');
			else if (sc_dead(cells, cl->w_mover) &&
			    !cl->w_tie_told)
				cl->w_tie_due = 1;
			cl->w_mover = 0;
		}
		memcpy(cl->w_board, cells, 10);
		cl->w_boards++;
		return;
	}
	if (sscanf(line, "TURN %c Waiting for %63s to move...", &sym, a) ==
	    2) {
		snprintf(want, sizeof want, "TURN %c Waiting for %s to "
		    "move...", sym, sym == 'X' ? cl->wx : cl->wo);
		if (strcmp(line, want) != 0 || (sym != 'X' && sym != 'O'))
			sc_fail(ch, cl, "\"%s\", not \"%s\"", line, want);
		if (cl->w_tie_due)
			sc_fail(ch, cl, "watched game %llu: no tie notice "
			    "after %s", cl->w_id, cl->w_board);
		/* Joined mid-game: the notice may be behind us. */
		if (cl->w_snap)
			cl->w_tie_told = sc_dead(cl->w_board, sym == 'X' ?
			    'O' : 'X');
		cl->w_snap = 0;
		cl->w_in_game = 1;
		cl->w_mover = sym;
		return;
	}
	if (sscanf(line, "START %c", &sym) == 1) {
		cl->w_snap = 0;
		cl->w_fresh = cl->w_in_game = 1;
		cl->w_mover = sym;
		cl->w_tie_due = cl->w_tie_told = 0;
		return;
	}
	if (strncmp(line, "RESULT ", 7) == 0) {
		if (!cl->w_in_game)
			sc_fail(ch, cl, "\"%s\" between games", line);
		cl->w_score_due = 1;
		if (strcmp(line, "RESULT TIE It's a tie!") == 0) {
			if (strchr(cl->w_board, '.') != NULL ||
			    game_winner(cl->w_board) != 0)
				sc_fail(ch, cl, "watched TIE on %s",
				    cl->w_board);
		} else if (sscanf(line, "RESULT WIN %c %63s %n", &sym, a,
		    &n) == 2) {
			if (strcmp(a, sym == 'X' ? cl->wx : cl->wo) != 0 ||
			    (!chaos_has_line(cl->w_board, sym) &&
			    strstr(line + n, " resigned.") == NULL))
				sc_fail(ch, cl, "watched \"%s\" on %s (%s, %s)",
				    line, cl->w_board, cl->wx, cl->wo);
		} else if (sscanf(line, "RESULT FORFEIT %c %63s", &sym, a) ==
		    2) {
			if (strcmp(a, sym == 'X' ? cl->wx : cl->wo) != 0)
				sc_fail(ch, cl, "watched \"%s\"", line);
		} else
			sc_fail(ch, cl, "malformed \"%s\"", line);
		cl->w_in_game = 0;
		cl->w_mover = 0;
		cl->w_tie_due = 0;
		return;
	}
	if (strncmp(line, "CHAT ", 5) == 0) {
		sc_chat(ch, cl, line);
		return;
	}
	if (strncmp(line, "INFO Score: ", 12) == 0) {
		sc_score(ch, cl, line, cl->wx, cl->wo, &cl->w_score_due,
		    &cl->w_scored);
		return;
	}
	if (sscanf(line, "INFO %63s is now known as %63s", a, b) == 2) {
		if ((i = (int)strlen(b)) > 0 && b[i - 1] == '.')
			b[i - 1] = '\0';
		if (strcmp(a, cl->wx) == 0)
			snprintf(cl->wx, sizeof cl->wx, "%.23s", b);
		else if (strcmp(a, cl->wo) == 0)
			snprintf(cl->wo, sizeof cl->wo, "%.23s", b);
		else
			sc_fail(ch, cl, "\"%s\" about neither player", line);
		return;
	}
	if (sscanf(line, "INFO Game %llu is over.", &id) == 1) {
		if (id != cl->w_id)
			sc_fail(ch, cl, "\"%s\" watching %llu", line, cl->w_id);
		/* Told what it may do next, and queued nowhere. */
		cl->watching = 0;
		cl->w_over = 1;
		cl->expect_hint = 1;
		return;
	}
	if (strcmp(line, T_TIE_NOTICE) == 0) {
		if (!cl->w_tie_due)
			sc_fail(ch, cl, "watched tie notice on %s",
			    cl->w_board);
		cl->w_tie_due = 0;
		cl->w_tie_told = 1;
		return;
	}
	if ((sc_is(line, "INFO ", a, " lost the connection. Waiting up to "
	    SC_AWAY_TEXT " for them to come back.") ||
	    sc_is(line, "INFO ", a, " is back.") ||
	    sc_is(line, "INFO ", a, " left the match.")) &&
	    (strcmp(a, cl->wx) == 0 || strcmp(a, cl->wo) == 0))
		return;
	sc_fail(ch, cl, "\"%s\" while watching %llu", line, cl->w_id);
}

/* The GAME lines are in: WATCH one that is not ours, or wait, or go. */
static void
sc_games_done(struct chaos *ch, struct sc_client *cl)
{
	struct sc_exp		*e;
	unsigned long long	 id;
	long			 now = harness_now_ms();

	if (cl->watches >= cl->watch_budget ||
	    now - cl->t_open > SC_WATCH_LIFE_MS) {
		sc_quit(cl);
		return;
	}
	if (cl->ncand > 0) {
		id = cl->cand[chaos_rng(&ch->rng) % (uint32_t)cl->ncand];
		if ((e = sc_send(cl, K_WATCH, "WATCH %llu", id)) != NULL)
			e->id = id;
		return;
	}
	if ((ch->waves_done_at != 0 && cl->watches > 0) ||
	    now - cl->t_open > SC_WATCH_LIFE_MS)
		sc_quit(cl);
	else
		cl->next_games = now + 200;
}

/* One line from the server on the client's connection. */
static void
sc_line(struct chaos *ch, struct sc_client *cl, char *line)
{
	struct sc_match		*m = &cl->m;
	struct sc_exp		*e;
	char			 a[64], want[256], sym, sym2;
	unsigned long long	 id;
	long			 now = harness_now_ms();
	int			 i, n = 0;

	for (i = 0; line[i] != '\0'; i++) {
		if ((unsigned char)line[i] < 0x20 ||
		    (unsigned char)line[i] > 0x7e) {
			sc_fail(ch, cl, "byte 0x%02x in a server line",
			    (unsigned char)line[i]);
			return;
		}
	}
	if (line[0] != ' ')
		snprintf(cl->last[cl->nlast++ % 12], sizeof cl->last[0],
		    "%.119s", line);
	if (cl->bye) {
		sc_fail(ch, cl, "\"%s\" after the last line", line);
		return;
	}
	if (line[0] == ' ' || strncmp(line, "HELLO tttd/1 ", 13) == 0)
		return;
	if (cl->expect_wait && strcmp(line, T_WAIT) != 0)
		sc_fail(ch, cl, "\"%s\" where WAIT was due", line);
	if (cl->expect_hint) {
		cl->expect_hint = 0;
		if (strcmp(line, T_WATCH_OVER) != 0)
			sc_fail(ch, cl, "\"%s\" where \"%s\" was due", line,
			    T_WATCH_OVER);
		/* Nowhere now: it looks for another game to watch. */
		if (cl->role == R_WATCHER && !cl->games_pending)
			cl->next_games = harness_now_ms() + 50;
		return;
	}
	if (strncmp(line, "OK ", 3) == 0 || strncmp(line, "ERR ", 4) == 0 ||
	    strncmp(line, "BYE ", 4) == 0) {
		sc_reply(ch, cl, line);
		return;
	}
	if (cl->games_left > 0) {
		if (sscanf(line, "GAME %llu %63s %63s %d", &id, a, want,
		    &n) != 4 || n < 0 || n > 9) {
			sc_fail(ch, cl, "\"%s\" among the GAME lines", line);
			cl->games_left = 0;
			return;
		}
		if (strcmp(a, cl->name) != 0 && strcmp(want, cl->name) != 0 &&
		    id != cl->w_id && cl->ncand < SC_CANDS)
			cl->cand[cl->ncand++] = id;
		if (--cl->games_left == 0)
			sc_games_done(ch, cl);
		return;
	}
	if (strncmp(line, "INFO ", 5) == 0 && strstr(line, " more matches "
	    "not listed.") != NULL)
		return;
	if (cl->watching) {
		if (strncmp(line, "MATCH ", 6) == 0 ||
		    strncmp(line, "TOKEN ", 6) == 0 ||
		    strncmp(line, "AGAIN? ", 7) == 0 ||
		    strncmp(line, "WAIT ", 5) == 0)
			sc_fail(ch, cl, "\"%s\" while watching", line);
		else
			sc_watch_line(ch, cl, line);
		return;
	}
	if (strcmp(line, T_WAIT) == 0) {
		sc_enter_queue(ch, cl);
		return;
	}
	if (strncmp(line, "WAIT Waiting for a friend to join room ", 39) == 0) {
		snprintf(want, sizeof want, "WAIT Waiting for a friend to join "
		    "room %s...", cl->room);
		if (!cl->room_waiting || strcmp(line, want) != 0)
			sc_fail(ch, cl, "\"%s\", not \"%s\"", line, want);
		return;
	}
	if (sc_is(line, "WAIT Waiting for ", a, " to answer...")) {
		if (strcmp(a, m->opp) != 0 || m->sym == 0)
			sc_fail(ch, cl, "\"%s\" against %s", line, m->opp);
		return;
	}
	if (sscanf(line, "MATCH %c %63s", &sym, a) == 2) {
		snprintf(want, sizeof want, "MATCH %c %s You play %c against "
		    "%s.", sym, a, sym, a);
		if (strcmp(line, want) != 0 || (sym != 'X' && sym != 'O'))
			sc_fail(ch, cl, "malformed \"%s\"", line);
		if (cl->resuming) {
			if (sym != cl->saved.sym || strcmp(a, cl->saved.opp))
				sc_fail(ch, cl, "resumed as \"%s\", was %c "
				    "against %s", line, cl->saved.sym,
				    cl->saved.opp);
			*m = cl->saved;
			return;
		}
		memset(m, 0, sizeof *m);
		cl->epoch++;
		m->sym = sym;
		snprintf(m->opp, sizeof m->opp, "%.23s", a);
		cl->queued = 0;
		if (cl->expect_ai) {
			if (sym != 'X' || strcmp(a, "ai") != 0)
				sc_fail(ch, cl, "\"%s\" after OK PLAY AI",
				    line);
			m->ai = 1;
			m->perfect = cl->expect_ai == 2;
			m->playing = 1;
			cl->expect_ai = 0;
		} else if (cl->expect_room || cl->room_waiting) {
			sym2 = cl->role == R_MAKER ? 'X' : 'O';
			if (cl->role < R_MAKER || sym != sym2 ||
			    strcmp(a, ch->cl[cl->partner].name) != 0)
				sc_fail(ch, cl, "\"%s\" in room %s", line,
				    cl->room);
			else
				m->room = 1;
			m->playing = 1;
			cl->expect_room = cl->room_waiting = 0;
		} else if (cl->switching == 0 && (cl->role == R_PUBLIC ||
		    cl->role == R_RESIGNER || cl->role == R_GARBAGE ||
		    ((cl->role == R_MAKER || cl->role == R_JOINER) &&
		    cl->requeues > 0)))
			m->playing = 1;
		else if (cl->role == R_ABORTER && !cl->aborted_done &&
		    cl->switching == 0) {
			/* Leave before the first move, for a room or ai. */
			cl->aborted_done = 1;
			if (chaos_rng(&ch->rng) % 2)
				sc_send(cl, K_ROOM_NEW, "ROOM NEW");
			else if ((e = sc_send(cl, K_PLAY_AI,
			    "PLAY AI perfect")) != NULL)
				e->n = 1;
		} else if (cl->role == R_ABORTER && cl->expired_room &&
		    cl->switching == 0 && !cl->bye_due)
			sc_quit(cl);
		return;
	}
	if (strncmp(line, "TOKEN ", 6) == 0) {
		if (sscanf(line, "TOKEN %15s", a) != 1 || strlen(a) != 9 ||
		    a[4] != '-' || strspn(a, CODE_CHARS "-") != 9) {
			sc_fail(ch, cl, "malformed \"%s\"", line);
			return;
		}
		snprintf(want, sizeof want, "TOKEN %s Type RESUME %s on a new "
		    "connection within " SC_GRACE_TEXT " of losing this one to "
		    "get your seat back.", a, a);
		if (strcmp(line, want) != 0 || m->sym == 0)
			sc_fail(ch, cl, "\"%s\", not \"%s\"", line, want);
		if (cl->resuming) {
			cl->resuming = 0;
			if (strcmp(a, cl->old_token) == 0)
				sc_fail(ch, cl, "the used token %s again", a);
			if (cl->check_old)
				sc_send(cl, K_RESUME_OLD, "RESUME %s",
				    cl->old_token);
		}
		snprintf(cl->token, sizeof cl->token, "%.15s", a);
		return;
	}
	if (sscanf(line, "START %c %63s", &sym, a) == 2) {
		snprintf(want, sizeof want, "START %c %s (%c) moves first.",
		    sym, sym == m->sym ? sc_me(cl) : m->opp, sym);
		if (m->sym == 0 || strcmp(line, want) != 0 || m->in_game)
			sc_fail(ch, cl, "\"%s\", not \"%s\" (in game %d)", line,
			    want, m->in_game);
		m->in_game = m->fresh = 1;
		m->turn_at = m->turn_used = 0;
		m->games++;
		m->moves_game = 0;
		m->mover = sym;
		m->asked = m->forfeited = 0;
		m->tie_due = m->tie_told = 0;
		m->resign_at = cl->role == R_RESIGNER &&
		    chaos_rng(&ch->rng) % 3 ? (int)(chaos_rng(&ch->rng) % 4) :
		    -1;
		memcpy(m->board, ".........", 10);
		if (m->room && cl->conduct == C_CHAT && m->games == 1 &&
		    cl->burst_sent == 0)
			sc_say(ch, cl, 1);
		return;
	}
	if (strncmp(line, "BOARD ", 6) == 0) {
		sc_board(ch, cl, line + 6);
		return;
	}
	if (sscanf(line, "TURN %c", &sym) == 1) {
		snprintf(a, sizeof a, "%.60s", m->opp);
		if (sym == m->sym)
			snprintf(want, sizeof want, "TURN %c " T_YOUR_TURN,
			    sym);
		else
			snprintf(want, sizeof want, "TURN %c Waiting for %s to "
			    "move...", sym, a);
		if (strcmp(line, want) != 0)
			sc_fail(ch, cl, "\"%s\", not \"%s\"", line, want);
		if (m->tie_due)
			sc_fail(ch, cl, "no tie notice after BOARD %s",
			    m->board);
		m->tie_due = 0;
		if (!m->in_game && !cl->resuming) {
			sc_fail(ch, cl, "\"%s\" outside a game", line);
			return;
		}
		if (cl->resuming) {
			m->in_game = 1;
			m->mover = sym;
		} else if (sym != m->mover)
			sc_fail(ch, cl, "\"%s\" when %c is to move", line,
			    m->mover);
		/* Our turn clock: from our TURN (on after a RESUME). */
		if (sym != m->sym)
			m->turn_at = m->turn_used = 0;
		else if (m->turn_at == 0) {
			m->turn_at = harness_now_ms() - m->turn_used;
			m->turn_used = 0;
		}
		if (!m->playing || cl->switching)
			return;
		/* The actor's moment: its turn, or the opponent's. */
		if (m->room && cl->actor && !cl->acted &&
		    cl->conduct >= C_DROP_RESUME && m->games == 1 &&
		    m->my_moves >= 1 && (sym == m->sym) == cl->act_on_my_turn) {
			cl->act_due = 1;
			return;
		}
		if (sym == m->sym && m->resign_at >= 0 &&
		    m->moves_game == m->resign_at && chaos_rng(&ch->rng) % 2) {
			sc_send(cl, K_RESIGN, "%s", chaos_rng(&ch->rng) % 2 ?
			    "RESIGN" : "resign now");
			m->resign_at = -1;
			return;
		}
		if (sym == m->sym) {
			cl->to_move = 1;
			cl->act_at = now +
			    (long)(chaos_rng(&ch->rng) % SC_THINK_MS);
		} else if (m->resign_at >= 0 && m->moves_game >= m->resign_at) {
			sc_send(cl, K_RESIGN, "RESIGN");	/* their turn */
			m->resign_at = -1;
		}
		return;
	}
	if (strncmp(line, "RESULT ", 7) == 0) {
		sc_result(ch, cl, line);
		return;
	}
	if (strncmp(line, "AGAIN? ", 7) == 0) {
		if (strcmp(line, "AGAIN? Play again? (y/n) or 'quit' to "
		    "exit:") != 0 || m->sym == 0)
			sc_fail(ch, cl, "\"%s\" in no match", line);
		if (m->score_due)
			sc_fail(ch, cl, "AGAIN? without the score");
		m->asked = 1;
		m->in_game = 0;
		cl->to_move = 0;
		if (m->playing && cl->switching == 0) {
			cl->to_answer = 1;
			cl->act_at = now +
			    (long)(chaos_rng(&ch->rng) % SC_THINK_MS);
		}
		return;
	}
	if (strncmp(line, "CHAT ", 5) == 0) {
		sc_chat(ch, cl, line);
		return;
	}
	if (strncmp(line, "INFO ", 5) == 0) {
		sc_info(ch, cl, line);
		return;
	}
	sc_fail(ch, cl, "unexpected \"%s\"", line);
}

/* A line on a connection whose seat a new one took over. */
static void
sc_old_line(struct chaos *ch, struct sc_client *cl, const char *line)
{
	if (cl->old_bye) {
		sc_fail(ch, cl, "\"%s\" on the old connection after its BYE",
		    line);
		return;
	}
	if (strcmp(line, T_TAKEN_OVER) == 0) {
		cl->old_bye = 1;
		cl->takeovers_seen++;
		return;
	}
	/*
	 * Until the server reads the RESUME, the old connection is the seat's
	 * and gets what the match sends its players: the moves, the chat, and
	 * a watcher come in meanwhile ("INFO w is watching.", seen under
	 * valgrind).
	 */
	if (line[0] == ' ' || strncmp(line, "BOARD ", 6) == 0 ||
	    strncmp(line, "TURN ", 5) == 0 || strncmp(line, "CHAT ", 5) == 0 ||
	    (strncmp(line, "INFO ", 5) == 0 && strlen(line) > 18 &&
	    strcmp(line + strlen(line) - 13, " is watching.") == 0))
		return;
	sc_fail(ch, cl, "\"%s\" on the old connection", line);
}

/* conn_pump's callback: one line; stop once the connection is done. */
static int
sc_line_cb(void *arg, char *line)
{
	struct sc_pump	*sp = arg;

	sc_line(sp->ch, sp->cl, line);
	return (sp->cl->state != CS_OPEN);
}

/* Input: take every line; EOF or a reset ends the connection. */
static void
sc_read(struct chaos *ch, struct sc_client *cl)
{
	struct sc_pump	sp = { ch, cl };
	int		r;

	r = conn_pump(&cl->conn, sc_line_cb, &sp);
	if (cl->state != CS_OPEN || r == -1)
		return;
	if (!cl->bye)
		sc_fail(ch, cl, "%s without BYE (%d replies awaited)", r == 0 ?
		    "EOF" : "reset", cl->exp_n);
	else if (cl->exp_n != 0)
		sc_fail(ch, cl, "closed with %d replies awaited", cl->exp_n);
	sc_finish(cl, 0);
}

/* conn_pump's callback on the old connection: every line. */
static int
sc_old_line_cb(void *arg, char *line)
{
	struct sc_pump	*sp = arg;

	sc_old_line(sp->ch, sp->cl, line);
	return (0);
}

/* The old connection of a takeover: BYE, then EOF. */
static void
sc_read_old(struct chaos *ch, struct sc_client *cl)
{
	struct sc_pump	sp = { ch, cl };
	int		r;

	if ((r = conn_pump(&cl->old, sc_old_line_cb, &sp)) == -1)
		return;
	if (!cl->old_bye)
		sc_fail(ch, cl, "the old connection closed without BYE");
	else if (r != 0)
		sc_fail(ch, cl, "the old connection reset after its BYE");
	conn_close(&cl->old);
	cl->has_old = 0;
}

/* Output: what is queued. */
static void
sc_write(struct chaos *ch, struct sc_client *cl)
{
	if (cl->state == CS_OPEN &&
	    chaos_out_flush(&cl->out, &cl->conn) == -1) {
		sc_fail(ch, cl, "cannot write: %s", strerror(errno));
		sc_finish(cl, 0);
	}
}

/* Close the client's connection for good. */
static void
sc_finish(struct sc_client *cl, int rst)
{
	if (cl->state != CS_OPEN)
		return;
	conn_drop(&cl->conn, rst);
	cl->state = CS_DONE;
}

/* Timers: moves, answers, the conducts, garbage, watching, leaving. */
static void
sc_tick(struct chaos *ch, struct sc_client *cl, long now)
{
	const struct sc_client	*p;
	struct sc_exp		*e;
	char			 g[64];
	int			 i, n, k;

	if (cl->state == CS_AWAY) {
		if (now >= cl->resume_at)
			sc_reopen(ch, cl, 0);
		return;
	}
	if (cl->state != CS_OPEN || cl->bye || cl->bye_due || cl->quitting)
		goto out;
	if (cl->act_due && cl->exp_n == 0 && cl->out.len == 0 &&
	    !cl->moving) {
		sc_act(ch, cl, now);
		if (cl->state != CS_OPEN)
			return;
		goto out;
	}
	if (cl->to_move && now >= cl->act_at) {
		cl->to_move = 0;
		if (cl->m.in_game && cl->m.mover == cl->m.sym &&
		    cl->switching == 0)
			sc_move(ch, cl);
	}
	if (cl->to_answer && now >= cl->act_at) {
		cl->to_answer = 0;
		if (cl->m.sym != 0 && cl->switching == 0)
			sc_answer(ch, cl);
		if (cl->quitting)
			goto out;
	}
	switch (cl->role) {
	case R_JOINER:
		p = &ch->cl[cl->partner];
		if (!cl->joined && p->room[0] != '\0') {
			cl->joined = 1;
			snprintf(g, sizeof g, "%s", p->room);
			if (chaos_rng(&ch->rng) % 2) {
				for (i = 0; g[i] != '\0'; i++) {
					if (g[i] >= 'A' && g[i] <= 'Z')
						g[i] = (char)(g[i] - 'A' + 'a');
				}
			}
			if ((e = sc_send(cl, K_ROOM_JOIN, "ROOM JOIN %s",
			    g)) != NULL)
				snprintf(e->s, sizeof e->s, "%s", p->room);
		}
		break;
	case R_GARBAGE:
		if (now < cl->next_garbage || cl->garbage_left <= 0)
			break;
		cl->next_garbage = now + 100 +
		    (long)(chaos_rng(&ch->rng) % 200);
		cl->garbage_left--;
		cl->garbage_sent++;
		if (chaos_rng(&ch->rng) % 2) {
			k = (int)(chaos_rng(&ch->rng) % (sizeof sc_garbage /
			    sizeof sc_garbage[0]));
			sc_send(cl, sc_garbage[k].kind, "%s",
			    sc_garbage[k].line);
			break;
		}
		n = 1 + (int)(chaos_rng(&ch->rng) % 40);
		g[0] = "\x00\xfe\x1b\x01\x7f\x80\r"[chaos_rng(&ch->rng) % 7];
		for (i = 1; i < n; i++) {
			do {
				g[i] = (char)(chaos_rng(&ch->rng) & 0xff);
			} while (g[i] == '\n' || g[i] == '\xff');	/* IAC */
		}
		/*
		 * A lone CR before the LF would make a blank line, which
		 * is ignored (protocol.md §1.4): another CR follows it.
		 */
		if (chaos_rng(&ch->rng) % 2 || (n == 1 && g[0] == '\r'))
			g[n++] = '\r';
		g[n++] = '\n';
		if (cl->out.len + (size_t)n <= sizeof cl->out.buf &&
		    sc_send(cl, K_G_BAD_CHAR, "%s", "") != NULL) {
			/* Replace the empty line sc_send queued. */
			cl->out.len -= 2;
			chaos_out_add(&cl->out, g, (size_t)n);
		}
		break;
	case R_WATCHER:
		if (cl->switching || cl->games_pending || cl->games_left ||
		    cl->exp_n > 0)
			break;
		if (cl->watching && now >= cl->watch_until) {
			if (cl->watches >= cl->watch_budget ||
			    now - cl->t_open > SC_WATCH_LIFE_MS) {
				sc_quit(cl);
				break;
			}
			cl->w_prev = cl->w_id;
			if (chaos_rng(&ch->rng) % 2)
				sc_send(cl, K_UNWATCH, "UNWATCH");
			sc_send(cl, K_GAMES, "GAMES");
			cl->games_pending = 1;
		} else if (!cl->watching && cl->next_games != 0 &&
		    now >= cl->next_games) {
			cl->next_games = 0;
			sc_send(cl, K_GAMES, "games");
			cl->games_pending = 1;
		}
		break;
	default:
		break;
	}
	/* Alone in the queue once everyone has arrived: leave. */
	if (cl->queued && cl->switching == 0 && cl->exp_n == 0 &&
	    cl->role != R_WATCHER && cl->role != R_JOINER &&
	    ch->waves_done_at != 0 && now - (cl->queued_at >
	    ch->waves_done_at ? cl->queued_at : ch->waves_done_at) >
	    SC_QUEUE_MS) {
		cl->queued = 0;
		sc_quit(cl);
	}
out:
	sc_write(ch, cl);
}

static int
sc_setup(void **state)
{
	struct chaos	*ch;

	signal(SIGPIPE, SIG_IGN);
	if ((ch = calloc(1, sizeof *ch)) == NULL)
		return (-1);
	*state = ch;
	return (0);
}

/* Close every connection; kill a server a failed test left running. */
static int
sc_teardown(void **state)
{
	struct chaos	*ch = *state;
	int		 i;

	for (i = 0; i < SC_CLIENTS; i++) {
		if (ch->cl[i].state == CS_OPEN)
			conn_close(&ch->cl[i].conn);
		if (ch->cl[i].has_old)
			conn_close(&ch->cl[i].old);
	}
	if (ch->srv.pid != 0) {
		kill(ch->srv.pid, SIGKILL);
		waitpid(ch->srv.pid, NULL, 0);
		close(ch->srv.err_fd);
	}
	free(ch);
	return (0);
}

/* One STAT value from the lines sc_stats gathered, or -1. */
static long
sc_stat(const char *name, const char *all)
{
	char		 want[64];
	const char	*p;

	snprintf(want, sizeof want, "\nSTAT %s ", name);
	if ((p = strstr(all, want)) == NULL)
		return (-1);
	return (atol(p + strlen(want)));
}

/* STATS on a fresh connection: the lines up to END, joined by '\n'. */
static void
sc_stats(struct chaos *ch, char *all, size_t size)
{
	struct conn	c;
	char		line[256], log[65536];
	size_t		len = 0;

	if (conn_open(&c, ch->srv.port) == -1)
		fail_msg("cannot connect for STATS");
	conn_send(&c, "STATS");
	all[len++] = '\n';
	for (;;) {
		if (conn_event(&c, line, sizeof line, HARNESS_TIMEOUT_MS) < 0)
			fail_msg("no END after STATS");
		harness_log(&ch->srv, log, sizeof log);
		if (strcmp(line, "END") == 0)
			break;
		if (strncmp(line, "STAT ", 5) == 0 && len + strlen(line) + 2 <
		    size) {
			memcpy(all + len, line, strlen(line));
			len += strlen(line);
			all[len++] = '\n';
		}
	}
	all[len] = '\0';
	conn_send(&c, "QUIT");
	expect_skip_to(&c, "BYE ", NULL, 0);
	assert_true(conn_wait_closed(&c, HARNESS_TIMEOUT_MS));
	conn_close(&c);
}

/*
 * 300 clients of eight kinds in waves against one server with §9 on; see
 * the top of the file.
 */
static void
test_chaos_social_300_clients(void **state)
{
	static const char *const	 extra[] = { "--max-per-addr", "0",
					    "--resume-grace", "1.5",
					    "--room-ttl", "2",
					    "--ai-offer", "1",
					    "--turn-timeout", "4",
					    "--again-timeout", "4",
					    "--line-timeout", "2",
					    "--seed", "9", NULL };
	struct chaos			*ch = *state;
	struct pollfd			 pfd[2 * SC_CLIENTS];
	int				 who[2 * SC_CLIENTS];
	int				 units[SC_CLIENTS];
	char				 log[65536], stats[8192];
	long				 now, deadline, v;
	int				 i, j, k, n, open, nunits;
	int				 roles[R_NROLES] = { 0 };
	int				 conducts[C_NCONDUCTS] = { 0 };
	int				 pair_games = 0, games = 0, results[4] = { 0 };
	int				 aborts_by = 0, aborts_seen = 0;
	int				 resumes = 0, takeovers = 0, old_ok = 0;
	int				 says = 0, heard = 0, limited = 0;
	int				 resigns = 0, resigned_seen = 0;
	int				 offers = 0, offers_taken = 0;
	int				 expired = 0, away = 0, back = 0;
	int				 grace_forfeits = 0, w_boards = 0;
	int				 watches = 0, ai_g[2] = { 0 }, ai_l[2] = { 0 };
	int				 ai_w[2] = { 0 }, ties_told = 0;
	int				 garbage = 0, bad_text = 0, gone = 0;
	int				 watch_notes = 0;
	int				 chat_pairs = 0, na, nb;
	struct sc_result		*ra[SC_RESULTS], *rb[SC_RESULTS];
	const char			*seed;
	static const struct {
		const char	*name;
		long		 want;
	} empty[] = {
		/* The STATS connection itself is the one player left. */
		{ "connections_current", 1 }, { "players_waiting", 1 },
		{ "matches_live", 0 }, { "rooms_open", 0 }, { "watchers", 0 },
		{ "players_away", 0 }, { "matches_ai", 0 },
	};

	ch->rng = SC_SEED;
	if ((seed = getenv("CHAOS_SEED")) != NULL)
		ch->rng = strtoull(seed, NULL, 10);
	ch->seed = ch->rng;
	printf("chaos-social: seed %llu (CHAOS_SEED=N replays another)\n",
	    (unsigned long long)ch->rng);
	if (ch->rng == 0)
		ch->rng = 1;

	/*
	 * Units: a single role, or a room pair (maker then joiner, side by
	 * side); shuffled, then laid out in order so that pairs stay
	 * together and every wave mixes the roles.
	 */
	for (i = nunits = 0; i < R_NROLES; i++) {
		if (i == R_JOINER)
			continue;
		for (j = 0; j < sc_roles[i].count; j++)
			units[nunits++] = i;
	}
	for (i = nunits - 1; i > 0; i--) {
		j = (int)(chaos_rng(&ch->rng) % (uint32_t)(i + 1));
		k = units[i];
		units[i] = units[j];
		units[j] = k;
	}
	{
		int	cpool[65], nc = 0, c;

		for (c = 0; c < C_NCONDUCTS; c++) {
			for (j = 0; j < sc_conducts[c].count; j++)
				cpool[nc++] = c;
		}
		assert_int_equal(nc, sc_roles[R_MAKER].count);
		for (i = nc - 1; i > 0; i--) {
			j = (int)(chaos_rng(&ch->rng) % (uint32_t)(i + 1));
			k = cpool[i];
			cpool[i] = cpool[j];
			cpool[j] = k;
		}
		for (i = k = nc = 0; i < nunits; i++) {
			struct sc_client	*cl = &ch->cl[k];

			cl->role = (enum sc_role)units[i];
			cl->idx = k;
			cl->partner = -1;
			cl->conn.fd = cl->old.fd = -1;
			if (cl->role != R_MAKER) {
				k++;
				continue;
			}
			c = cpool[nc++];
			cl->conduct = (enum sc_conduct)c;
			cl->partner = k + 1;
			ch->cl[k + 1].role = R_JOINER;
			ch->cl[k + 1].idx = k + 1;
			ch->cl[k + 1].partner = k;
			ch->cl[k + 1].conduct = (enum sc_conduct)c;
			ch->cl[k + 1].conn.fd = ch->cl[k + 1].old.fd = -1;
			if (c == C_CHAT)
				cl->actor = ch->cl[k + 1].actor = 1;
			else if (chaos_rng(&ch->rng) % 2)
				cl->actor = 1;
			else
				ch->cl[k + 1].actor = 1;
			k += 2;
		}
		assert_int_equal(k, SC_CLIENTS);
	}
	for (i = 0; i < SC_CLIENTS; i++)
		snprintf(ch->cl[i].name, sizeof ch->cl[i].name, "%s%d",
		    sc_roles[ch->cl[i].role].prefix, i);

	assert_int_equal(harness_start(&ch->srv, extra), 0);
	chaos_health_start(&ch->health, &ch->srv);
	ch->t0 = harness_now_ms();
	deadline = ch->t0 + SC_RUN_MS;

	for (;;) {
		now = harness_now_ms();
		k = (int)((now - ch->t0) / SC_WAVE_MS) + 1;
		if (k > SC_WAVES)
			k = SC_WAVES;
		while (ch->nstarted < k * SC_CLIENTS / SC_WAVES)
			sc_open(ch, &ch->cl[ch->nstarted++]);
		if (ch->nstarted == SC_CLIENTS && ch->waves_done_at == 0)
			ch->waves_done_at = now;

		for (i = n = open = 0; i < ch->nstarted; i++) {
			struct sc_client	*cl = &ch->cl[i];

			if (cl->state == CS_OPEN || cl->state == CS_AWAY)
				sc_tick(ch, cl, now);
			if (cl->has_old) {
				pfd[n].fd = cl->old.fd;
				pfd[n].events = POLLIN;
				pfd[n].revents = 0;
				who[n++] = -1 - i;
				open++;
			}
			if (cl->state == CS_AWAY)
				open++;
			if (cl->state != CS_OPEN)
				continue;
			open++;
			pfd[n].fd = cl->conn.fd;
			pfd[n].events = POLLIN |
			    (cl->out.len > 0 ? POLLOUT : 0);
			pfd[n].revents = 0;
			who[n++] = i;
		}
		if (open > ch->max_open)
			ch->max_open = open;
		if (open == 0 && ch->nstarted == SC_CLIENTS)
			break;
		if (now > deadline) {
			for (i = 0; i < SC_CLIENTS; i++) {
				struct sc_client	*cl = &ch->cl[i];

				if (cl->state == CS_OPEN || cl->has_old)
					sc_fail(ch, cl, "still open at the "
					    "deadline (queued %d, sym %c, in "
					    "game %d, asked %d, watching %d, "
					    "switching %d, awaited %d, old %d; "
					    "last: %s | %s | %s | %s)",
					    cl->queued, cl->m.sym ? cl->m.sym :
					    '-', cl->m.in_game, cl->m.asked,
					    cl->watching, cl->switching,
					    cl->exp_n, cl->has_old,
					    cl->last[(cl->nlast + 8) % 12],
					    cl->last[(cl->nlast + 9) % 12],
					    cl->last[(cl->nlast + 10) % 12],
					    cl->last[(cl->nlast + 11) % 12]);
			}
			break;
		}
		if (poll(pfd, (nfds_t)n, 5) == -1 && errno != EINTR)
			fail_msg("poll: %s", strerror(errno));
		for (i = 0; i < n; i++) {
			struct sc_client	*cl;

			if (pfd[i].revents == 0)
				continue;
			if (who[i] < 0) {
				cl = &ch->cl[-1 - who[i]];
				if (cl->has_old)
					sc_read_old(ch, cl);
				continue;
			}
			cl = &ch->cl[who[i]];
			if (cl->state != CS_OPEN || cl->conn.fd != pfd[i].fd)
				continue;
			sc_read(ch, cl);
			if (cl->state == CS_OPEN && (pfd[i].revents & POLLOUT))
				sc_write(ch, cl);
		}
		/* The server logs every connection: keep its pipe empty. */
		harness_log(&ch->srv, log, sizeof log);
		chaos_health_sample(&ch->health, &ch->srv, now);
	}
	printf("chaos-social: all clients done after %ld ms; at most %d open "
	    "at once; %d connections\n", harness_now_ms() - ch->t0,
	    ch->max_open, ch->conns);

	/* Tallies, and the checks across clients. */
	for (i = 0; i < SC_CLIENTS; i++) {
		struct sc_client	*cl = &ch->cl[i], *pt;

		roles[cl->role]++;
		if (cl->role == R_MAKER)
			conducts[cl->conduct]++;
		for (k = 0; k < cl->nres; k++) {
			games++;
			results[cl->res[k].kind == 'W' ? 0 :
			    cl->res[k].kind == 'T' ? 1 :
			    cl->res[k].kind == 'F' ? 2 : 3]++;
		}
		aborts_by += cl->aborts_by_me;
		aborts_seen += cl->aborts_seen;
		resumes += cl->resumes_ok;
		takeovers += cl->takeovers_seen;
		old_ok += cl->resume_old_ok;
		says += __builtin_popcountll(cl->said_ok);
		heard += cl->chats_heard;
		limited += cl->rate_limited;
		resigns += cl->resign_ok;
		resigned_seen += cl->resigned_by_opp;
		offers += cl->offers;
		offers_taken += cl->offer_taken;
		expired += cl->room_expired;
		away += cl->away_seen;
		back += cl->back_seen;
		grace_forfeits += cl->grace_forfeits;
		w_boards += cl->w_boards;
		watch_notes += cl->watch_notes;
		watches += cl->watches;
		ties_told += cl->tie_notices;
		garbage += cl->garbage_sent;
		bad_text += cl->bad_text;
		gone += cl->gone;
		for (k = 0; k < 2; k++) {
			ai_g[k] += cl->ai_games[k];
			ai_l[k] += cl->ai_lost[k];
			ai_w[k] += cl->ai_won[k];
		}
		/* Every CHAT anyone heard was taken (OK SAY) from its sender. */
		if ((cl->heard & ~cl->said_ok) != 0)
			sc_fail(ch, cl, "CHAT heard that was never taken: "
			    "%#llx, taken %#llx", (unsigned long long)cl->heard,
			    (unsigned long long)cl->said_ok);
		if (cl->role != R_MAKER)
			continue;
		pt = &ch->cl[cl->partner];
		/* The drops and takeovers came back as they should. */
		if (cl->conduct == C_DROP_RESUME || cl->conduct == C_TAKEOVER) {
			struct sc_client	*a = cl->actor ? cl : pt;

			if (a->acted && a->resumes_ok != 1)
				sc_fail(ch, a, "acted, %d OK RESUME",
				    a->resumes_ok);
			if (a->acted && cl->conduct == C_TAKEOVER &&
			    a->takeovers_seen != 1)
				sc_fail(ch, a, "no BYE on the old connection");
		}
		if (cl->conduct == C_CHAT) {
			chat_pairs++;
			/* Within a pair every chat line taken is heard. */
			if (cl->heard_by_partner != cl->said_ok ||
			    pt->heard_by_partner != pt->said_ok)
				sc_fail(ch, cl, "chat taken %#llx/%#llx, heard "
				    "%#llx/%#llx", (unsigned long long)
				    cl->said_ok, (unsigned long long)
				    pt->said_ok, (unsigned long long)
				    cl->heard_by_partner, (unsigned long long)
				    pt->heard_by_partner);
		}
		if (cl->conduct != C_PLAIN && cl->conduct != C_CHAT)
			continue;
		/* Both saw the same games of their match end the same way. */
		for (na = nb = k = 0; k < cl->nres; k++) {
			if (cl->res[k].room)
				ra[na++] = &cl->res[k];
		}
		for (k = 0; k < pt->nres; k++) {
			if (pt->res[k].room)
				rb[nb++] = &pt->res[k];
		}
		if (na != nb || na == 0)
			sc_fail(ch, cl, "%d results, %s saw %d", na, pt->name,
			    nb);
		for (k = 0; k < na && k < nb; k++) {
			pair_games++;
			if (ra[k]->kind != rb[k]->kind ||
			    ra[k]->sym != rb[k]->sym ||
			    strcmp(ra[k]->board, rb[k]->board) != 0)
				sc_fail(ch, cl, "game %d: %c %c %s, %s saw %c "
				    "%c %s", k, ra[k]->kind, ra[k]->sym ?
				    ra[k]->sym : '-', ra[k]->board, pt->name,
				    rb[k]->kind, rb[k]->sym ? rb[k]->sym : '-',
				    rb[k]->board);
		}
	}

	printf("chaos-social: seed %llu, %d clients in %d waves\n",
	    (unsigned long long)ch->seed, SC_CLIENTS, SC_WAVES);
	for (i = 0; i < R_NROLES; i++)
		printf("chaos-social:   %-12s %d\n", sc_roles[i].name, roles[i]);
	for (i = 0; i < C_NCONDUCTS; i++)
		printf("chaos-social:   room pairs %-12s %d\n",
		    sc_conducts[i].name, conducts[i]);
	printf("chaos-social: %d game ends seen by players (%d WIN, %d TIE, "
	    "%d FORFEIT after the grace, %d resigned); %d games of room "
	    "pairs compared\n", games, results[0], results[1], results[2],
	    results[3], pair_games);
	printf("chaos-social: computer: easy %d games (player won %d, lost "
	    "%d), perfect %d games (player won %d, lost %d); %d offers, %d "
	    "taken\n", ai_g[0], ai_w[0], ai_l[0], ai_g[1], ai_w[1], ai_l[1],
	    offers, offers_taken);
	printf("chaos-social: %d drops seen (%d back, %d gone, %d forfeits "
	    "after the grace); %d RESUME taken, %d takeovers, %d used tokens "
	    "still naming their seat\n", away, back, gone, grace_forfeits, resumes, takeovers,
	    old_ok);
	printf("chaos-social: %d aborts made, %d told to the opponent; %d "
	    "rooms expired; %d resigns (%d seen by the opponent); %d tie "
	    "notices\n", aborts_by, aborts_seen, expired, resigns,
	    resigned_seen, ties_told);
	printf("chaos-social: chat: %d SAY taken, %d CHAT heard, %d "
	    "RATE_LIMITED, %d BAD_TEXT; %d chatting pairs\n", says, heard,
	    limited, bad_text, chat_pairs);
	printf("chaos-social: %d watches, %d watched boards checked, %d "
	    "watchers announced to players; %d garbage lines\n", watches,
	    w_boards, watch_notes, garbage);

	chaos_fails_report(&ch->fails, "chaos-social");
	/* The checks above had something to check. */
	if (pair_games < 20 || resumes < 5 || takeovers < 2 ||
	    grace_forfeits < 2 || aborts_seen < 5 || heard < 20 ||
	    limited < 5 || w_boards < 50 || watch_notes < 5 ||
	    ai_g[0] + ai_g[1] < 20 ||
	    resigned_seen < 3 || expired < 2)
		fail_msg("too little was exercised (see the summary)");

	/* The server is alive, and empty by its own count. */
	assert_int_equal(waitpid(ch->srv.pid, NULL, WNOHANG), 0);
	/* The last closes may still be on their way: ask until it is. */
	deadline = harness_now_ms() + 5000;
	for (;;) {
		sc_stats(ch, stats, sizeof stats);
		for (i = 0; i < (int)(sizeof empty / sizeof empty[0]); i++) {
			if (sc_stat(empty[i].name, stats) != empty[i].want)
				break;
		}
		if (i == (int)(sizeof empty / sizeof empty[0]) ||
		    harness_now_ms() >= deadline)
			break;
		usleep(50 * 1000);
	}
	for (i = 0, k = 1; stats[k] != '\0'; k++) {
		if (stats[k] == '\n')
			stats[k] = i++ % 6 == 5 ? '\n' : ';';
	}
	printf("chaos-social: STATS after everyone left:\n%s\n", stats + 1);
	for (k = 0; stats[k] != '\0'; k++) {
		if (stats[k] == ';')
			stats[k] = '\n';
	}
	for (i = 0; i < (int)(sizeof empty / sizeof empty[0]); i++) {
		v = sc_stat(empty[i].name, stats);
		if (v != empty[i].want)
			fail_msg("STAT %s %ld 5 s after everyone left (the "
			    "last STATS above), want %ld", empty[i].name, v,
			    empty[i].want);
	}
	/* Its counters agree with what the clients saw. */
	if ((v = sc_stat("resumes", stats)) != resumes)
		fail_msg("STAT resumes %ld, the clients got %d OK RESUME", v,
		    resumes);
	if ((v = sc_stat("chats", stats)) != says)
		fail_msg("STAT chats %ld, the clients got %d OK SAY", v, says);
	if ((v = sc_stat("resigns", stats)) != resigns)
		fail_msg("STAT resigns %ld, the clients got %d OK RESIGN", v,
		    resigns);
	if ((v = sc_stat("aborts", stats)) != aborts_by ||
	    v < aborts_seen)
		fail_msg("STAT aborts %ld; the clients left %d matches before "
		    "their first move, and %d opponents were told", v,
		    aborts_by, aborts_seen);
	{
		/* Alone in the queue now: PING, then the computer's offer. */
		struct conn	c;
		char		line[256];
		long		t;

		if (conn_open(&c, ch->srv.port) == -1)
			fail_msg("cannot connect after the chaos");
		t = harness_now_ms();
		conn_send(&c, "PING");
		expect_skip_to(&c, "OK PONG", NULL, 0);
		expect_skip_to(&c, "INFO ", line, sizeof line);
		t = harness_now_ms() - t;
		assert_string_equal(line, T_OFFER);
		if (t < SC_OFFER_MS - 100 || t > SC_OFFER_MS + SC_LATE_MS)
			fail_msg("the offer came after %ld ms, --ai-offer is %d "
			    "ms", t, SC_OFFER_MS);
		conn_send(&c, "QUIT");
		expect_skip_to(&c, "BYE ", NULL, 0);
		assert_true(conn_wait_closed(&c, HARNESS_TIMEOUT_MS));
		conn_close(&c);
	}

	/* It lets go of every descriptor and of its memory. */
	chaos_health_end(&ch->health, &ch->srv, "chaos-social",
	    CHAOS_ASAN ? "under ASan" : sc_valgrind() ? "under valgrind" :
	    NULL);

	harness_log(&ch->srv, log, sizeof log);
	i = harness_stop(&ch->srv);
	ch->srv.pid = 0;
	assert_int_equal(i, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_chaos_social_300_clients,
		    sc_setup, sc_teardown),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
