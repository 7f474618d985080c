/*
 * test_e2e_chaos.c -- the real tttd against 500 connections of mixed
 * conduct at once, driven by one poll() loop: honest players, players who
 * mix invalid commands in, players who vanish mid-game, clients that never
 * read, slowloris, 1 MiB lines and binary noise.  Afterwards every game
 * must have come out as the moves both players saw say it should, each
 * misbehaving client must have been dealt with as documented, and the
 * server must be alive, back to its starting size, and stop cleanly.
 *
 * Everything is bounded: the loop has a deadline, every client ends by
 * itself, and the random choices come from a fixed seed (printed; set
 * CHAOS_SEED to replay another) so that a failure can be reproduced.
 */
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <netinet/in.h>
#include <netinet/tcp.h>

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

#define CHAOS_SEED		20240611ULL
#define CHAOS_CLIENTS		500
#define CHAOS_WAVES		10
#define CHAOS_WAVE_MS		700	/* between two waves */
#define CHAOS_RUN_MS		40000	/* the loop's deadline */
#define CHAOS_QUEUE_MS		3000	/* alone in the queue: go */
#define CHAOS_DRIP_MS		300	/* slowloris: a byte each */
#define CHAOS_LINE_TIMEOUT_MS	2000	/* --line-timeout 2 */
#define CHAOS_TURN_MS		4000	/* --turn-timeout 4 */
#define CHAOS_AGAIN_MS		4000	/* --again-timeout 4 */
#define CHAOS_GARBAGE_MS	50	/* a garbage line this often */
#define CHAOS_THINK_MS		150	/* players think up to this */
#define CHAOS_DEAF_MS		8000	/* non-readers gone by then */
#define CHAOS_BIG		(1024 * 1024)
#define CHAOS_RESULTS		16
/* The bound on the server's RSS: see e2e_chaos.h. */

enum chaos_role {
	R_HONEST,	/* plays whole games, answers AGAIN?, some rematches */
	R_ONEBYTE,	/* the same, writing one byte per write() */
	R_INVALID,	/* plays too, with invalid commands mixed in */
	R_CLOSER,	/* vanishes mid-game: close or RST */
	R_DEAF,		/* floods commands and never reads */
	R_SLOWLORIS,	/* drips one line a byte at a time, never an LF */
	R_BIG,		/* sends a 1 MiB line */
	R_GARBAGE,	/* sends lines of random bytes, then QUIT */
	R_IDLE,		/* never moves nor answers: the clocks run out */
	R_NROLES
};

static const struct {
	const char	*name;
	const char	*prefix;	/* of the player's name */
	int		 count;
} chaos_roles[R_NROLES] = {
	{ "honest",		"hon",	160 },
	{ "honest-1-byte",	"one",	60 },
	{ "invalid",		"inv",	60 },
	{ "closer",		"clo",	60 },
	{ "non-reader",		"deaf",	30 },
	{ "slowloris",		"slow",	40 },
	{ "1MiB-line",		"big",	20 },
	{ "garbage",		"gar",	50 },
	{ "idle",		"idle",	20 },
};

/* Replies whose number an invalid-command sender counts. */
enum chaos_reply {
	Y_UNKNOWN, Y_BAD_CELL, Y_BAD_NAME, Y_BAD_ANSWER, Y_PONG, Y_HELP,
	Y_BOARD, Y_NREPLIES
};

static const char *chaos_reply_prefix[Y_NREPLIES] = {
	"ERR UNKNOWN_COMMAND ", "ERR BAD_CELL ", "ERR BAD_NAME ",
	"ERR BAD_ANSWER ", "OK PONG", "OK HELP", "OK BOARD"
};

/* Lines whose reply does not depend on the state of the game. */
static const struct {
	const char		*line;
	enum chaos_reply	 reply;
} chaos_invalid[] = {
	{ "FROBNICATE",			Y_UNKNOWN },
	{ "hello there",		Y_UNKNOWN },
	{ "MOVE d4",			Y_BAD_CELL },
	{ "move",			Y_BAD_CELL },
	{ "zz",				Y_BAD_CELL },
	{ "MOVE a1 b2",			Y_BAD_CELL },
	{ "NAME",			Y_BAD_NAME },
	{ "NAME bad!name",		Y_BAD_NAME },
	{ "name abcdefghijklmnopq",	Y_BAD_NAME },
	{ "AGAIN maybe",		Y_BAD_ANSWER },
	{ "again",			Y_BAD_ANSWER },
	{ "PING",			Y_PONG },
	{ "\thelp ",			Y_HELP },
};

#define E_BAD_CHAR	"ERR BAD_CHAR Only UTF-8 text without control characters is accepted."
#define E_TOO_LONG	\
	"ERR LINE_TOO_LONG Lines are limited to 256 bytes."
#define E_NO_GAME	"ERR NO_GAME You are not in a game right now."
#define T_WAIT		"WAIT Waiting for an opponent..."

/* A game's end as one player saw it. */
struct chaos_result {
	char	kind;		/* 'W'in, 'T'ie, 'F'orfeit */
	char	sym;		/* the winner's */
	char	name[24];	/* the winner's */
	char	board[10];	/* the last BOARD before RESULT */
	int	opp;		/* the opponent's index, -1 if unknown */
};

enum chaos_state { CS_NEW, CS_OPEN, CS_DONE };

struct chaos_client {
	char			 last[12][96];	/* its last lines, sent '>' or
						   read, for a failure */
	int			 nlast;
	struct conn		 conn;
	int			 idx;
	enum chaos_role		 role;
	enum chaos_state	 state;
	char			 name[24];
	long			 t_open;

	struct chaos_out	 out;		/* to be written */
	long			 next_write;	/* one-byte pacing */
	int			 wdead;		/* writing failed */
	size_t			 big_sent;
	size_t			 deaf_sent;

	int			 named;		/* OK NAME seen */
	int			 queued;	/* waiting for an opponent */
	long			 queued_at;
	int			 queue_left;	/* left the queue */
	char			 sym;		/* 0: in no match */
	char			 opp_name[24];
	int			 in_game;
	int			 games;		/* started in this match */
	int			 aborts;	/* opponents gone before moving */
	int			 fresh;		/* empty BOARD next */
	char			 board[10];
	char			 mover;		/* symbol to move */
	int			 moving;	/* move unanswered */
	int			 to_move;	/* move at act_at */
	int			 to_answer;	/* answer at act_at */
	long			 act_at;
	int			 forfeited;	/* game forfeited */
	int			 board_crossing; /* BOARD lines of ours that
					   crossed an abort: NO_GAME */
	int			 crossing;	/* a move of ours crossed the
						   game's end (abort, forfeit):
						   its reply is still to come */
	int			 asked;		/* AGAIN? open */
	int			 moves;
	int			 close_after;	/* closers' moves */
	int			 rematches;
	int			 rematch_budget;
	int			 requeues;
	struct chaos_result	 res[CHAOS_RESULTS];
	int			 nres;

	int			 want[Y_NREPLIES];
	int			 got[Y_NREPLIES];
	int			 garbage_left;
	int			 garbage_sent;
	int			 bad_char;
	long			 next_garbage;

	int			 bye;
	int			 eof;
	int			 reset;
	int			 line_timeout;
	int			 too_long;
	long			 t_drip0;
	long			 t_timeout;
	long			 next_drip;
	int			 drips;

	long			 t_turn;	/* idlers: our TURN came */
	long			 t_warn;	/* the clock's INFO came */
	long			 t_asked;	/* AGAIN? came */
	int			 turn_out;	/* turn ran out */
	int			 again_out;	/* AGAIN? ran out */
};

struct chaos {
	struct tttd_proc	 srv;
	struct chaos_client	 cl[CHAOS_CLIENTS];
	uint64_t		 rng;
	int			 nstarted;
	int			 max_open;
	int			 turn_outs;	/* idlers' turns out */
	long			 t0;
	long			 waves_done_at;
	struct chaos_health	 health;
	int			 reasons[4];	/* forfeits, by reason */
	struct chaos_fails	 fails;
};

/* chaos_read's client, for conn_pump's callback. */
struct chaos_pump {
	struct chaos		*ch;
	struct chaos_client	*cl;
};

/* The reasons a forfeit gives, as counted in the summary. */
static const char *chaos_reasons[4] = {
	" lost the connection. ", " quit the game. ", " ran out of time. ",
	NULL
};

static void	chaos_fail(struct chaos *, struct chaos_client *,
		    const char *, ...) __attribute__((format(printf, 3, 4)));
static int	chaos_playing(enum chaos_role);
static int	chaos_misbehaving(enum chaos_role);
static void	chaos_finish(struct chaos *, struct chaos_client *, int);
static void	chaos_open(struct chaos *, struct chaos_client *);
static void	chaos_move(struct chaos *, struct chaos_client *);
static void	chaos_answer(struct chaos *, struct chaos_client *);
static int	chaos_find(struct chaos *, const char *);
static void	chaos_board(struct chaos *, struct chaos_client *,
		    const char *);
static void	chaos_result(struct chaos *, struct chaos_client *,
		    const char *);
static void	chaos_idle_bye(struct chaos *, struct chaos_client *);
static void	chaos_turn_out(struct chaos *, struct chaos_client *);
static void	chaos_line(struct chaos *, struct chaos_client *, char *);
static void	chaos_note(struct chaos_client *, char, const char *);
static int	chaos_say(struct chaos_client *, const char *);
static int	chaos_line_cb(void *, char *);
static void	chaos_read(struct chaos *, struct chaos_client *);
static void	chaos_write(struct chaos *, struct chaos_client *, long);
static void	chaos_tick(struct chaos *, struct chaos_client *, long);
static void	chaos_check_pairs(struct chaos *, int *, int *);
static void	chaos_summary(struct chaos *);
static void	chaos_fresh_match(struct chaos *);

/* Note a failure, naming the client; the test fails at the end. */
static void
chaos_fail(struct chaos *ch, struct chaos_client *cl, const char *fmt, ...)
{
	va_list	ap;
	char	who[64];

	int	i, n;

	if (cl != NULL)
		snprintf(who, sizeof who, "%s (%s)", cl->name,
		    chaos_roles[cl->role].name);
	va_start(ap, fmt);
	chaos_fails_vadd(&ch->fails, cl != NULL ? who : NULL, fmt, ap);
	va_end(ap);
	/* The first failure's client: what it said and heard last. */
	if (cl == NULL || ch->fails.n != 1)
		return;
	n = cl->nlast < 12 ? cl->nlast : 12;
	for (i = cl->nlast - n; i < cl->nlast; i++)
		printf("chaos: %s: %s\n", cl->name, cl->last[i % 12]);
}

/* Queue a line to send, and keep it for chaos_fail. */
static int
chaos_say(struct chaos_client *cl, const char *line)
{
	chaos_note(cl, '>', line);
	return (chaos_out_line(&cl->out, line));
}

/* Keep a line for chaos_fail: '<' read, '>' sent. */
static void
chaos_note(struct chaos_client *cl, char dir, const char *line)
{
	snprintf(cl->last[cl->nlast++ % 12], sizeof cl->last[0], "%c %s", dir,
	    line);
}

/* Roles that play their games to the end and answer every question. */
static int
chaos_playing(enum chaos_role r)
{
	return (r == R_HONEST || r == R_ONEBYTE || r == R_INVALID);
}

/* Roles whose opponent may win by forfeit. */
static int
chaos_misbehaving(enum chaos_role r)
{
	return (!chaos_playing(r));
}

/* Close a client's socket; rst: with a reset (SO_LINGER 0). */
static void
chaos_finish(struct chaos *ch, struct chaos_client *cl, int rst)
{
	(void)ch;
	if (cl->state != CS_OPEN)
		return;
	conn_drop(&cl->conn, rst);
	cl->state = CS_DONE;
}

/* Connect one client and say its first line. */
static void
chaos_open(struct chaos *ch, struct chaos_client *cl)
{
	int	one = 1;
	char	line[64];

	if (conn_open_nb(&cl->conn, ch->srv.port, HARNESS_TIMEOUT_MS) == -1) {
		chaos_fail(ch, cl, "cannot connect: %s", strerror(errno));
		cl->state = CS_DONE;
		return;
	}
	if (cl->role == R_ONEBYTE)
		setsockopt(cl->conn.fd, IPPROTO_TCP, TCP_NODELAY, &one,
		    sizeof one);
	cl->state = CS_OPEN;
	cl->t_open = harness_now_ms();
	if (cl->role == R_INVALID)
		snprintf(line, sizeof line, "  name\t%s ", cl->name);
	else
		snprintf(line, sizeof line, "NAME %s", cl->name);
	chaos_say(cl, line);
	cl->close_after = (int)(chaos_rng(&ch->rng) % 4);
	cl->rematch_budget = (int)(chaos_rng(&ch->rng) % 3);
	cl->garbage_left = 10 + (int)(chaos_rng(&ch->rng) % 21);
}

/* Our turn: play a random empty cell (invalid senders say more first). */
static void
chaos_move(struct chaos *ch, struct chaos_client *cl)
{
	static const char	*forms[] = { "", "MOVE ", "move\t",
				    " Move  " };
	char			 line[64], cells[9];
	int			 i, n = 0, k;

	for (i = 0; i < 9; i++) {
		if (cl->board[i] == '.')
			cells[n++] = (char)i;
	}
	if (n == 0 || cl->moving)
		return;
	if (cl->role == R_INVALID) {
		while (chaos_rng(&ch->rng) % 2 == 0) {
			k = (int)(chaos_rng(&ch->rng) % (sizeof chaos_invalid /
			    sizeof chaos_invalid[0]));
			chaos_say(cl, chaos_invalid[k].line);
			cl->want[chaos_invalid[k].reply]++;
		}
		if (chaos_rng(&ch->rng) % 4 == 0) {
			chaos_say(cl, "board");
			cl->want[Y_BOARD]++;
		}
	}
	i = cells[chaos_rng(&ch->rng) % (uint32_t)n];
	k = cl->role == R_HONEST ? 0 : (int)(chaos_rng(&ch->rng) % 4);
	snprintf(line, sizeof line, "%s%c%c", forms[k], "abcABC"[i % 3 + 3 *
	    (int)(chaos_rng(&ch->rng) % 2)], '1' + i / 3);
	chaos_say(cl, line);
	cl->moving = 1;
}

/* AGAIN?: play on, go back to the queue, or leave. */
static void
chaos_answer(struct chaos *ch, struct chaos_client *cl)
{
	static const char	*yes[] = { "y", "yes", "AGAIN y", "Y" };
	static const char	*no[] = { "n", "no", "again N", "NO" };
	int			 again, k = 0;

	if (cl->forfeited)
		again = ch->waves_done_at == 0 && cl->requeues < 2;
	else
		again = cl->rematches < cl->rematch_budget;
	if (cl->role == R_INVALID) {
		k = (int)(chaos_rng(&ch->rng) % 4);
		if (chaos_rng(&ch->rng) % 2 == 0) {
			chaos_say(cl, "AGAIN perhaps");
			cl->want[Y_BAD_ANSWER]++;
		}
	}
	if (again && !cl->forfeited)
		cl->rematches++;
	chaos_say(cl, again ? yes[k] : no[k]);
	cl->asked = 0;
}

/* The client a player name belongs to, or -1. */
static int
chaos_find(struct chaos *ch, const char *name)
{
	int	i = chaos_name_index(name, CHAOS_CLIENTS);

	if (i == -1 || strcmp(ch->cl[i].name, name) != 0)
		return (-1);
	return (i);
}

/*
 * A BOARD line: during a game it must be the board before plus exactly one
 * mark of the symbol to move (or the same board, after OK BOARD).
 */
static void
chaos_board(struct chaos *ch, struct chaos_client *cl, const char *cells)
{
	int	i, diff = 0, at = -1;

	if (strlen(cells) != 9 || strspn(cells, "XO.") != 9) {
		chaos_fail(ch, cl, "bad BOARD \"%s\"", cells);
		return;
	}
	if (cl->in_game && cl->fresh) {
		if (strcmp(cells, ".........") != 0)
			chaos_fail(ch, cl, "first BOARD of a game is \"%s\"",
			    cells);
		cl->fresh = 0;
	} else if (cl->in_game) {
		for (i = 0; i < 9; i++) {
			if (cells[i] != cl->board[i]) {
				diff++;
				at = i;
			}
		}
		if (diff > 1 || (diff == 1 && (cl->board[at] != '.' ||
		    cells[at] != cl->mover)))
			chaos_fail(ch, cl, "BOARD %s does not follow %s with "
			    "one %c", cells, cl->board, cl->mover);
		if (diff == 1) {
			cl->mover = cl->mover == 'X' ? 'O' : 'X';
			cl->t_turn = cl->t_warn = 0;
		}
	}
	memcpy(cl->board, cells, 10);
}

/* A RESULT line: it must agree with the last board and the names. */
static void
chaos_result(struct chaos *ch, struct chaos_client *cl, const char *line)
{
	struct chaos_result	*r;
	char			 sym = 0, name[64] = "", other[64] = "";
	char			 tail[128];
	const char		*me, *seat;
	int			 i, n, opp;

	if (!cl->in_game) {
		chaos_fail(ch, cl, "\"%s\" outside a game", line);
		return;
	}
	cl->in_game = 0;
	cl->crossing = 0;	/* its reply has come, whatever it was */
	opp = chaos_find(ch, cl->opp_name);
	if (cl->nres == CHAOS_RESULTS)
		return;
	r = &cl->res[cl->nres++];
	memset(r, 0, sizeof *r);
	memcpy(r->board, cl->board, 10);
	r->opp = opp;
	seat = cl->sym == 'X' ? "p1" : "p2";
	me = cl->named ? cl->name : seat;
	if (strcmp(line, "RESULT TIE It's a tie!") == 0) {
		r->kind = 'T';
		if (strchr(cl->board, '.') != NULL ||
		    game_winner(cl->board) != 0)
			chaos_fail(ch, cl, "TIE on board %s", cl->board);
		return;
	}
	if (sscanf(line, "RESULT WIN %c %63s %n", &sym, name, &n) == 2) {
		r->kind = 'W';
		r->sym = sym;
		snprintf(r->name, sizeof r->name, "%.23s", name);
		if (!chaos_has_line(cl->board, sym) ||
		    chaos_has_line(cl->board, sym == 'X' ? 'O' : 'X'))
			chaos_fail(ch, cl, "WIN %c on board %s", sym,
			    cl->board);
		if (strcmp(name, sym == cl->sym ? me : cl->opp_name) != 0)
			chaos_fail(ch, cl, "\"%s\": the winner with %c is not "
			    "%s", line, sym, sym == cl->sym ? me :
			    cl->opp_name);
		return;
	}
	if (sscanf(line, "RESULT FORFEIT %c %63s %63s %n", &sym, name, other,
	    &n) == 3) {
		r->kind = 'F';
		r->sym = sym;
		snprintf(r->name, sizeof r->name, "%.23s", name);
		cl->forfeited = 1;
		cl->crossing |= cl->moving;
		for (i = 0; chaos_reasons[i] != NULL; i++) {
			if (strstr(line, chaos_reasons[i]) != NULL)
				break;
		}
		snprintf(tail, sizeof tail, ". %s wins!", name);
		if (i == 2 && sym != cl->sym) {
			/* Our own turn ran out: we lose, and stay. */
			if (strcmp(name, cl->opp_name) != 0 ||
			    strcmp(other, me) != 0 || strlen(line) <
			    strlen(tail) || strcmp(line + strlen(line) -
			    strlen(tail), tail) != 0)
				chaos_fail(ch, cl, "\"%s\" as %c against %s",
				    line, cl->sym, cl->opp_name);
			chaos_turn_out(ch, cl);
			return;
		}
		ch->reasons[i]++;
		if (sym != cl->sym || (strcmp(name, cl->name) != 0 &&
		    strcmp(name, seat) != 0) ||
		    strcmp(other, cl->opp_name) != 0 || strlen(line) <
		    strlen(tail) || strcmp(line + strlen(line) - strlen(tail),
		    tail) != 0)
			chaos_fail(ch, cl, "\"%s\" as %c against %s", line,
			    cl->sym, cl->opp_name);
		/*
		 * A rule-abiding opponent leaves mid-game only when its QUIT,
		 * sent after waiting alone in the queue at the end, crossed
		 * its pairing with us.
		 */
		if (opp == -1)
			chaos_fail(ch, cl, "\"%s\" against an unknown opponent",
			    line);
		else if (!chaos_misbehaving(ch->cl[opp].role) &&
		    !(i == 1 && ch->cl[opp].queue_left))
			chaos_fail(ch, cl, "\"%s\" against %s, who plays by "
			    "the rules", line, ch->cl[opp].name);
		else if (i == 2 && ch->cl[opp].role != R_IDLE &&
		    ch->cl[opp].role != R_DEAF)
			chaos_fail(ch, cl, "\"%s\" against %s, who is no "
			    "idler", line, ch->cl[opp].name);
		return;
	}
	chaos_fail(ch, cl, "malformed \"%s\"", line);
}

/*
 * An idler lost on time: its turn ran out after a warning at two thirds
 * of the time (the RESULT is read with the board of its last turn).
 */
static void
chaos_turn_out(struct chaos *ch, struct chaos_client *cl)
{
	long	t;

	if (cl->role != R_IDLE)
		chaos_fail(ch, cl, "lost on time, but it is no idler");
	if (cl->mover != cl->sym || cl->t_turn == 0) {
		chaos_fail(ch, cl, "lost on time when it was not its turn");
		return;
	}
	cl->turn_out = 1;
	t = harness_now_ms() - cl->t_turn;
	if (t < CHAOS_TURN_MS - 100 || t > CHAOS_TURN_MS + 3000)
		chaos_fail(ch, cl, "turn ran out after %ld ms", t);
	if (cl->t_warn == 0)
		chaos_fail(ch, cl, "no INFO before the turn ran out");
	else if ((t = cl->t_warn - cl->t_turn) <
	    CHAOS_TURN_MS * 2 / 3 - 100 || t > CHAOS_TURN_MS - 100)
		chaos_fail(ch, cl, "warned %ld ms into a %d ms turn",
		    t, CHAOS_TURN_MS);
}

/*
 * An idler's BYE: its AGAIN? ran out; nothing else sends it away (its
 * turn running out loses the game, not the connection).
 */
static void
chaos_idle_bye(struct chaos *ch, struct chaos_client *cl)
{
	long	t;

	if (cl->asked) {
		cl->again_out = 1;
		t = harness_now_ms() - cl->t_asked;
		if (t < CHAOS_AGAIN_MS - 100 || t > CHAOS_AGAIN_MS + 3000)
			chaos_fail(ch, cl, "AGAIN? ran out after %ld ms", t);
	} else
		chaos_fail(ch, cl, "BYE when not asked");
}

/* One line from the server. */
static void
chaos_line(struct chaos *ch, struct chaos_client *cl, char *line)
{
	char	a[64], b[64];
	char	sym;
	int	i;

	if (line[0] != ' ')		/* the board's art aside */
		chaos_note(cl, '<', line);
	for (i = 0; line[i] != '\0'; i++) {
		if ((unsigned char)line[i] < 0x20 ||
		    (unsigned char)line[i] > 0x7e) {
			chaos_fail(ch, cl, "byte 0x%02x in a server line",
			    (unsigned char)line[i]);
			return;
		}
	}
	if (cl->bye || cl->line_timeout || cl->too_long) {
		chaos_fail(ch, cl, "\"%s\" after the last line", line);
		return;
	}
	if (line[0] == ' ')
		return;
	if (strcmp(line, T_WAIT) == 0) {
		if (cl->sym != 0)
			cl->requeues++;
		cl->queued = 1;
		cl->queued_at = harness_now_ms();
		cl->sym = 0;
		cl->in_game = cl->asked = 0;
	} else if (sscanf(line, "MATCH %c %63s", &sym, a) == 2) {
		cl->queued = 0;
		cl->sym = sym;
		cl->games = 0;
		snprintf(cl->opp_name, sizeof cl->opp_name, "%.23s", a);
	} else if (sscanf(line, "INFO %63s is now known as %63s", a, b) == 2) {
		if ((i = (int)strlen(b)) > 0 && b[i - 1] == '.')
			b[i - 1] = '\0';
		if (strcmp(a, cl->opp_name) == 0)
			snprintf(cl->opp_name, sizeof cl->opp_name, "%.23s", b);
	} else if (sscanf(line, "INFO %63s left before the first move. No "
	    "result%c", a, &sym) == 2 && sym == '.') {
		/*
		 * protocol.md §9.2: an opponent that quits before its first
		 * move in the first game aborts the match; WAIT follows.
		 */
		if (!cl->in_game || cl->games != 1 ||
		    strcmp(a, cl->opp_name) != 0 ||
		    strchr(cl->board, cl->sym == 'X' ? 'O' : 'X') != NULL)
			chaos_fail(ch, cl, "\"%s\" in game %d on board %s", line,
			    cl->games, cl->board);
		cl->aborts++;
		cl->in_game = cl->to_move = 0;
		cl->forfeited = 1;	/* a move of ours may cross it */
		cl->crossing |= cl->moving;
		/*
		 * And our BOARD lines not answered yet: they reach us in the
		 * queue, where we wait half a second before any new match
		 * (§9.2), and are answered NO_GAME.
		 */
		cl->board_crossing = cl->want[Y_BOARD] - cl->got[Y_BOARD];
	} else if (strncmp(line, "INFO ", 5) == 0 && cl->in_game &&
	    cl->mover == cl->sym && cl->t_turn != 0) {
		/* The clock's warning: only an idler waits long enough. */
		if ((cl->role == R_IDLE && cl->t_warn != 0) ||
		    chaos_playing(cl->role))
			chaos_fail(ch, cl, "\"%s\" on our turn", line);
		cl->t_warn = harness_now_ms();
	} else if (sscanf(line, "START %c", &sym) == 1) {
		if (cl->sym == 0)
			chaos_fail(ch, cl, "START outside a match");
		cl->in_game = cl->fresh = 1;
		cl->games++;
		cl->forfeited = cl->asked = cl->moving = 0;
		cl->t_turn = cl->t_warn = 0;
		cl->mover = sym;
		memcpy(cl->board, ".........", 10);
	} else if (strncmp(line, "BOARD ", 6) == 0) {
		chaos_board(ch, cl, line + 6);
	} else if (sscanf(line, "TURN %c", &sym) == 1) {
		if (!cl->in_game || sym != cl->mover)
			chaos_fail(ch, cl, "\"%s\" when %c is to move", line,
			    cl->mover);
		if (sym == cl->sym && cl->t_turn == 0)
			cl->t_turn = harness_now_ms();
		if (sym == cl->sym && (chaos_playing(cl->role) ||
		    (cl->role == R_CLOSER && cl->moves < cl->close_after))) {
			cl->to_move = 1;
			cl->act_at = harness_now_ms() +
			    (long)(chaos_rng(&ch->rng) % CHAOS_THINK_MS);
		}
	} else if (strncmp(line, "RESULT ", 7) == 0) {
		chaos_result(ch, cl, line);
	} else if (strncmp(line, "AGAIN? ", 7) == 0) {
		cl->asked = 1;
		cl->t_asked = harness_now_ms();
		cl->to_move = 0;
		if (chaos_playing(cl->role)) {
			cl->to_answer = 1;
			cl->act_at = harness_now_ms() +
			    (long)(chaos_rng(&ch->rng) % CHAOS_THINK_MS);
		}
	} else if (strncmp(line, "OK NAME ", 8) == 0) {
		cl->named = 1;
	} else if (strncmp(line, "OK MOVE ", 8) == 0) {
		cl->moving = 0;
		cl->moves++;
	} else if (strcmp(line, E_BAD_CHAR) == 0 && cl->role == R_GARBAGE) {
		cl->bad_char++;
	} else if (strncmp(line, "ERR LINE_TIMEOUT ", 17) == 0 &&
	    cl->role == R_SLOWLORIS) {
		cl->line_timeout = 1;
		cl->t_timeout = harness_now_ms();
	} else if (strcmp(line, E_TOO_LONG) == 0 && cl->role == R_BIG) {
		cl->too_long = 1;
	} else if (strcmp(line, E_NO_GAME) == 0 && cl->board_crossing > 0) {
		/* A BOARD that crossed an abort (sent before any move). */
		cl->board_crossing--;
		cl->got[Y_BOARD]++;
	} else if (strcmp(line, E_NO_GAME) == 0 && cl->moving &&
	    cl->forfeited) {
		cl->moving = 0;	/* our move crossed a leaving */
		cl->crossing = 0;
	} else if ((strcmp(line, E_NO_GAME) == 0 ||
	    strcmp(line, E_NOT_YOUR_TURN) == 0 ||
	    strncmp(line, "ERR TAKEN ", 10) == 0) && cl->crossing) {
		/*
		 * Our move crossed the end of the last match and came after
		 * we were paired again at once (an abort puts us at the
		 * front of the queue): not our turn in the new game, or,
		 * played there, it took the cell our next move chose.
		 */
		cl->crossing = 0;
	} else if (strncmp(line, "BYE ", 4) == 0) {
		cl->bye = 1;
		if (cl->role == R_IDLE)
			chaos_idle_bye(ch, cl);
	} else if (strncmp(line, "OK ", 3) == 0 ||
	    strncmp(line, "ERR ", 4) == 0) {
		for (i = 0; i < Y_NREPLIES; i++) {
			if (strncmp(line, chaos_reply_prefix[i],
			    strlen(chaos_reply_prefix[i])) == 0)
				break;
		}
		if (i < Y_NREPLIES && cl->role == R_INVALID)
			cl->got[i]++;
		else if (strncmp(line, "OK AGAIN ", 9) != 0)
			chaos_fail(ch, cl, "unexpected \"%s\"", line);
	}
}

/* conn_pump's callback: one line; stop once the client is done. */
static int
chaos_line_cb(void *arg, char *line)
{
	struct chaos_pump	*cp = arg;

	chaos_line(cp->ch, cp->cl, line);
	return (cp->cl->state != CS_OPEN);
}

/* Input: take every line; EOF or a reset ends the client. */
static void
chaos_read(struct chaos *ch, struct chaos_client *cl)
{
	struct chaos_pump	cp = { ch, cl };
	int			r;

	r = conn_pump(&cl->conn, chaos_line_cb, &cp);
	if (cl->state != CS_OPEN || r == -1)
		return;
	if (r == 0)
		cl->eof = 1;
	else
		cl->reset = 1;
	switch (cl->role) {
	case R_SLOWLORIS:
		if (!cl->line_timeout)
			chaos_fail(ch, cl, "closed without ERR LINE_TIMEOUT");
		else if (cl->reset)
			chaos_fail(ch, cl, "reset after ERR LINE_TIMEOUT, not "
			    "EOF");
		break;
	case R_BIG:
		if (!cl->too_long)
			chaos_fail(ch, cl, "closed without ERR LINE_TOO_LONG");
		else if (cl->reset)
			chaos_fail(ch, cl, "reset after ERR LINE_TOO_LONG, not "
			    "EOF");
		/* The server drains the rest: send it all, then close. */
		if (cl->big_sent <= CHAOS_BIG && !cl->wdead)
			return;
		break;
	default:
		if (!cl->bye)
			chaos_fail(ch, cl, "%s without BYE", cl->eof ? "EOF" :
			    "reset");
		break;
	}
	if (chaos_playing(cl->role) || cl->role == R_GARBAGE) {
		for (r = 0; r < Y_NREPLIES; r++) {
			if (cl->want[r] != cl->got[r])
				chaos_fail(ch, cl, "%d \"%s\" for %d lines",
				    cl->got[r], chaos_reply_prefix[r],
				    cl->want[r]);
		}
	}
	if (cl->role == R_GARBAGE && cl->bad_char != cl->garbage_sent)
		chaos_fail(ch, cl, "%d BAD_CHAR for %d garbage lines",
		    cl->bad_char, cl->garbage_sent);
	chaos_finish(ch, cl, 0);
}

/* Output: what is queued, the 1 MiB line, or the non-reader's flood. */
static void
chaos_write(struct chaos *ch, struct chaos_client *cl, long now)
{
	static char	 big[65536], flood[65536];
	const char	*p;
	size_t		 len;
	ssize_t		 w;
	int		 queued;

	if (big[0] == '\0') {
		memset(big, 'x', sizeof big);
		for (len = 0; len + 6 <= sizeof flood; len += 6)
			memcpy(flood + len, "HELP\r\n", 6);
	}
	while (cl->state == CS_OPEN && !cl->wdead) {
		if ((queued = cl->out.len > 0)) {
			if (cl->role == R_ONEBYTE && now < cl->next_write)
				return;
			p = NULL;
			len = cl->role == R_ONEBYTE ? 1 : 0;
		} else if (cl->role == R_BIG && cl->named &&
		    cl->big_sent <= CHAOS_BIG) {
			p = cl->big_sent == CHAOS_BIG ? "\n" : big;
			len = CHAOS_BIG - cl->big_sent;
			if (len > sizeof big)
				len = sizeof big;
			if (len == 0)
				len = 1;
		} else if (cl->role == R_DEAF) {
			p = flood;
			len = sizeof flood - sizeof flood % 6;
		} else
			return;
		if (queued)
			w = chaos_out_send(&cl->out, &cl->conn, len);
		else
			w = conn_send_nb(&cl->conn, p, len);
		if (w == 0)
			return;
		if (w == -1) {
			cl->wdead = 1;
			if (cl->role == R_DEAF || cl->eof)
				chaos_finish(ch, cl, 0);	/* it is gone */
			return;
		}
		if (queued) {
			if (cl->role == R_ONEBYTE) {
				cl->next_write = now + 2;
				return;
			}
		} else if (cl->role == R_BIG) {
			cl->big_sent += (size_t)w;
			if (cl->big_sent > CHAOS_BIG && cl->eof)
				chaos_finish(ch, cl, 0);
		} else
			cl->deaf_sent += (size_t)w;
	}
}

/* Timers: drips, garbage, closing, and leaving the queue at the end. */
static void
chaos_tick(struct chaos *ch, struct chaos_client *cl, long now)
{
	char	g[64];
	int	i, n;

	if (cl->to_move && now >= cl->act_at) {
		cl->to_move = 0;
		if (cl->in_game && cl->mover == cl->sym)
			chaos_move(ch, cl);
	}
	if (cl->to_answer && now >= cl->act_at) {
		cl->to_answer = 0;
		chaos_answer(ch, cl);
	}
	switch (cl->role) {
	case R_SLOWLORIS:
		if (cl->named && !cl->line_timeout && now >= cl->next_drip &&
		    cl->out.len == 0) {
			if (cl->t_drip0 == 0)
				cl->t_drip0 = now;
			g[0] = "MOVE b2 later"[cl->drips++ % 13];
			if (send(cl->conn.fd, g, 1, MSG_DONTWAIT |
			    MSG_NOSIGNAL) != 1)
				chaos_fail(ch, cl, "cannot drip: %s",
				    strerror(errno));
			cl->next_drip = now + CHAOS_DRIP_MS;
		}
		break;
	case R_GARBAGE:
		if (!cl->named || now < cl->next_garbage || cl->bye)
			break;
		cl->next_garbage = now + CHAOS_GARBAGE_MS;
		if (cl->garbage_left == 0) {
			chaos_say(cl, "QUIT");
			cl->garbage_left = -1;
			break;
		}
		if (cl->garbage_left < 0)
			break;
		n = 1 + (int)(chaos_rng(&ch->rng) % 40);
		g[0] = "\x00\xfe\x1b\x01\x7f\x80"[chaos_rng(&ch->rng) % 6];
		for (i = 1; i < n; i++) {
			do {
				g[i] = (char)(chaos_rng(&ch->rng) & 0xff);
			} while (g[i] == '\n' || g[i] == '\xff');	/* IAC */
		}
		if (chaos_rng(&ch->rng) % 2)
			g[n++] = '\r';
		g[n++] = '\n';
		if (chaos_out_add(&cl->out, g, (size_t)n) == 0) {
			cl->garbage_sent++;
			cl->garbage_left--;
		}
		break;
	case R_CLOSER:
		if (cl->named && ((cl->in_game && cl->mover == cl->sym &&
		    cl->moves >= cl->close_after && !cl->moving &&
		    !cl->to_move) ||
		    cl->asked)) {
			chaos_finish(ch, cl, cl->idx % 2);
			return;
		}
		break;
	case R_DEAF:
		if (now - cl->t_open > CHAOS_DEAF_MS) {
			chaos_fail(ch, cl, "still open after %d ms of flood "
			    "(%zu bytes)", CHAOS_DEAF_MS, cl->deaf_sent);
			chaos_finish(ch, cl, 1);
			return;
		}
		break;
	default:
		break;
	}
	/* Alone in the queue once everyone has arrived: leave. */
	if (cl->queued && !cl->queue_left && ch->waves_done_at != 0 &&
	    now - (cl->queued_at > ch->waves_done_at ? cl->queued_at :
	    ch->waves_done_at) > CHAOS_QUEUE_MS) {
		cl->queue_left = 1;
		if (cl->role == R_CLOSER || cl->role == R_IDLE) {
			chaos_finish(ch, cl, 0);
			return;
		}
		if (chaos_playing(cl->role))
			chaos_say(cl, "QUIT");
	}
	chaos_write(ch, cl, now);
}

/*
 * Both players of a game who play by the rules must have seen the same
 * ends: the same kind, winner and final board, game for game.  (A forfeit
 * between them, checked in chaos_result, is seen by the winner only.)
 */
static void
chaos_check_pairs(struct chaos *ch, int *pairs, int *games)
{
	struct chaos_client	*a, *b;
	int			 i, j, k, na, nb, ia[CHAOS_RESULTS],
				 ib[CHAOS_RESULTS];

	*pairs = *games = 0;
	for (i = 0; i < CHAOS_CLIENTS; i++) {
		a = &ch->cl[i];
		for (j = i + 1; j < CHAOS_CLIENTS; j++) {
			b = &ch->cl[j];
			if (!chaos_playing(a->role) || !chaos_playing(b->role))
				continue;
			for (na = k = 0; k < a->nres; k++) {
				if (a->res[k].opp == j && a->res[k].kind != 'F')
					ia[na++] = k;
			}
			for (nb = k = 0; k < b->nres; k++) {
				if (b->res[k].opp == i && b->res[k].kind != 'F')
					ib[nb++] = k;
			}
			if (na == 0 && nb == 0)
				continue;
			(*pairs)++;
			if (na != nb) {
				chaos_fail(ch, a, "%d results against %s, who "
				    "saw %d", na, b->name, nb);
				continue;
			}
			for (k = 0; k < na; k++) {
				struct chaos_result	*ra = &a->res[ia[k]];
				struct chaos_result	*rb = &b->res[ib[k]];

				(*games)++;
				if (ra->kind != rb->kind ||
				    ra->sym != rb->sym ||
				    strcmp(ra->name, rb->name) != 0 ||
				    strcmp(ra->board, rb->board) != 0)
					chaos_fail(ch, a, "game %d against %s: "
					    "%c %c %s %s, but %c %c %s %s", k,
					    b->name, ra->kind,
					    ra->sym ? ra->sym : '-', ra->name,
					    ra->board, rb->kind,
					    rb->sym ? rb->sym : '-', rb->name,
					    rb->board);
			}
		}
	}
}

/* Counts per role and results, to stdout. */
static void
chaos_summary(struct chaos *ch)
{
	int	 roles[R_NROLES] = { 0 }, wins = 0, ties = 0, forfeits = 0;
	int	 slow_ok = 0, big_ok = 0, deaf_gone = 0, garbage = 0;
	int	 bad = 0, aborts = 0;
	int	 rematches = 0, requeues = 0, invalid = 0, i, k;
	int	 turn_outs = 0, again_outs = 0;
	size_t	 flood = 0;
	long	 tmin = -1, tmax = -1, t;

	for (i = 0; i < CHAOS_CLIENTS; i++) {
		struct chaos_client	*cl = &ch->cl[i];

		roles[cl->role]++;
		if (chaos_playing(cl->role)) {
			for (k = 0; k < cl->nres; k++) {
				if (cl->res[k].kind == 'W')
					wins++;
				else if (cl->res[k].kind == 'T')
					ties++;
				else
					forfeits++;
			}
			rematches += cl->rematches;
			requeues += cl->requeues;
			for (k = 0; k < Y_NREPLIES; k++)
				invalid += cl->want[k];
		}
		if (cl->role == R_SLOWLORIS && cl->line_timeout && cl->eof) {
			slow_ok++;
			t = cl->t_timeout - cl->t_drip0;
			if (tmin == -1 || t < tmin)
				tmin = t;
			if (t > tmax)
				tmax = t;
		}
		if (cl->role == R_BIG && cl->too_long && cl->eof)
			big_ok++;
		if (cl->role == R_DEAF && cl->wdead)
			deaf_gone++;
		flood += cl->deaf_sent;
		turn_outs += cl->turn_out;
		again_outs += cl->again_out;
		garbage += cl->garbage_sent;
		bad += cl->bad_char;
		aborts += cl->aborts;
	}
	printf("chaos: seed %llu, %d clients in %d waves\n",
	    (unsigned long long)CHAOS_SEED, CHAOS_CLIENTS, CHAOS_WAVES);
	for (i = 0; i < R_NROLES; i++)
		printf("chaos:   %-14s %d\n", chaos_roles[i].name, roles[i]);
	printf("chaos: results seen by rule-abiding players: %d WIN, %d TIE, "
	    "%d FORFEIT; %d rematches, %d back to the queue\n", wins, ties,
	    forfeits, rematches, requeues);
	printf("chaos: forfeits seen by everyone: %d lost the connection, %d "
	    "quit the game, %d ran out of time, %d other; %d matches aborted "
	    "before a first move\n", ch->reasons[0], ch->reasons[1],
	    ch->reasons[2], ch->reasons[3], aborts);
	printf("chaos: %d invalid or extra lines answered; %d garbage lines, "
	    "%d BAD_CHAR\n", invalid, garbage, bad);
	printf("chaos: slowloris timed out %d/%d (after %ld..%ld ms); 1 MiB "
	    "lines refused %d/%d; non-readers dropped %d/%d (after %zu KiB of "
	    "flood)\n", slow_ok, roles[R_SLOWLORIS], tmin, tmax, big_ok,
	    roles[R_BIG], deaf_gone, roles[R_DEAF], flood / 1024);
	ch->turn_outs = turn_outs;
	printf("chaos: idlers: %d turns ran out (each warned), %d AGAIN? ran "
	    "out\n", turn_outs, again_outs);
}

/* A fresh pair plays a whole game after the storm, line by line. */
static void
chaos_fresh_match(struct chaos *ch)
{
	static const char	*first[] = { "A1", "B1", "C1" };
	static const char	*second[] = { "A2", "B2" };
	struct conn		 x, o, *mover, *waiter;
	char			 line[256], want[256], sym;
	int			 i;

	/* x is named before o arrives; o keeps its seat's name, p2. */
	if (conn_open(&x, ch->srv.port) == -1)
		fail_msg("cannot connect after the chaos");
	conn_send(&x, "NAME after1");
	expect_skip_to(&x, "OK NAME after1", NULL, 0);
	if (conn_open(&o, ch->srv.port) == -1)
		fail_msg("cannot connect after the chaos");
	expect_skip_to(&x, "MATCH ", line, sizeof line);
	assert_string_equal(line, "MATCH X p2 You play X against p2.");
	expect_skip_to(&o, "MATCH ", line, sizeof line);
	assert_string_equal(line, "MATCH O after1 You play O against after1.");
	expect_skip_to(&x, "START ", line, sizeof line);
	sym = line[6];
	expect_skip_to(&o, "START ", line, sizeof line);
	assert_int_equal(line[6], sym);
	mover = sym == 'X' ? &x : &o;
	waiter = sym == 'X' ? &o : &x;
	for (i = 0; i < 5; i++) {
		expect_skip_to(mover, "TURN ", line, sizeof line);
		expect_skip_to(waiter, "TURN ", line, sizeof line);
		snprintf(want, sizeof want, "OK MOVE %s", i % 2 == 0 ?
		    first[i / 2] : second[i / 2]);
		conn_send(mover, want + 8);
		expect_skip_to(mover, "OK MOVE", line, sizeof line);
		assert_string_equal(line, want);
		waiter = mover;
		mover = mover == &x ? &o : &x;
	}
	snprintf(want, sizeof want, "RESULT WIN %c %s %s wins! better luck "
	    "next time %s!", sym, sym == 'X' ? "after1" : "p2",
	    sym == 'X' ? "after1" : "p2", sym == 'X' ? "p2" : "after1");
	expect_skip_to(&x, "RESULT ", line, sizeof line);
	assert_string_equal(line, want);
	expect_skip_to(&o, "RESULT ", line, sizeof line);
	assert_string_equal(line, want);
	conn_send(&x, "n");
	conn_send(&o, "n");
	expect_skip_to(&x, "BYE Thank you for playing!", NULL, 0);
	expect_skip_to(&o, "BYE Thank you for playing!", NULL, 0);
	assert_true(conn_wait_closed(&x, HARNESS_TIMEOUT_MS));
	assert_true(conn_wait_closed(&o, HARNESS_TIMEOUT_MS));
	conn_close(&x);
	conn_close(&o);
}

static int
chaos_setup(void **state)
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
chaos_teardown(void **state)
{
	struct chaos	*ch = *state;
	int		 i;

	for (i = 0; i < CHAOS_CLIENTS; i++) {
		if (ch->cl[i].state == CS_OPEN)
			conn_close(&ch->cl[i].conn);
	}
	if (ch->srv.pid != 0) {
		kill(ch->srv.pid, SIGKILL);
		waitpid(ch->srv.pid, NULL, 0);
		close(ch->srv.err_fd);
	}
	free(ch);
	return (0);
}

/*
 * 500 clients of eight kinds in waves against one server; see the top of
 * the file.
 */
static void
test_chaos_500_mixed_clients(void **state)
{
	static const char *const	 extra[] = { "--max-per-addr", "0",
					    "--line-timeout", "2",
					    "--turn-timeout", "4",
					    "--again-timeout", "4",
					    "--seed", "7", NULL };
	struct chaos			*ch = *state;
	struct pollfd			 pfd[CHAOS_CLIENTS];
	int				 who[CHAOS_CLIENTS];
	int				 order[CHAOS_CLIENTS];
	char				 log[65536];
	long				 now, deadline;
	int				 i, j, k, n, open, pairs, games;
	const char			*seed;

	ch->rng = CHAOS_SEED;
	if ((seed = getenv("CHAOS_SEED")) != NULL)
		ch->rng = strtoull(seed, NULL, 10);
	printf("chaos: seed %llu (CHAOS_SEED=N replays another)\n",
	    (unsigned long long)ch->rng);
	if (ch->rng == 0)
		ch->rng = 1;
	/* Roles, shuffled so that every wave mixes them. */
	for (i = k = 0; i < R_NROLES; i++) {
		for (j = 0; j < chaos_roles[i].count; j++)
			order[k++] = i;
	}
	assert_int_equal(k, CHAOS_CLIENTS);
	for (i = CHAOS_CLIENTS - 1; i > 0; i--) {
		j = (int)(chaos_rng(&ch->rng) % (uint32_t)(i + 1));
		k = order[i];
		order[i] = order[j];
		order[j] = k;
	}
	for (i = 0; i < CHAOS_CLIENTS; i++) {
		ch->cl[i].idx = i;
		ch->cl[i].role = (enum chaos_role)order[i];
		ch->cl[i].conn.fd = -1;
		snprintf(ch->cl[i].name, sizeof ch->cl[i].name, "%s%d",
		    chaos_roles[order[i]].prefix, i);
	}

	assert_int_equal(harness_start_v1(&ch->srv, extra), 0);
	chaos_health_start(&ch->health, &ch->srv);
	ch->t0 = harness_now_ms();
	deadline = ch->t0 + CHAOS_RUN_MS;

	for (;;) {
		now = harness_now_ms();
		/* The next wave. */
		k = (int)((now - ch->t0) / CHAOS_WAVE_MS) + 1;
		if (k > CHAOS_WAVES)
			k = CHAOS_WAVES;
		while (ch->nstarted < k * CHAOS_CLIENTS / CHAOS_WAVES)
			chaos_open(ch, &ch->cl[ch->nstarted++]);
		if (ch->nstarted == CHAOS_CLIENTS && ch->waves_done_at == 0)
			ch->waves_done_at = now;

		for (i = n = open = 0; i < ch->nstarted; i++) {
			struct chaos_client	*cl = &ch->cl[i];

			if (cl->state == CS_OPEN)
				chaos_tick(ch, cl, now);
			if (cl->state != CS_OPEN)
				continue;
			open++;
			pfd[n].fd = cl->conn.fd;
			pfd[n].events = cl->role == R_DEAF || cl->eof ? 0 :
			    POLLIN;
			if ((cl->out.len > 0 && cl->role != R_ONEBYTE) ||
			    (cl->role == R_BIG && cl->named && !cl->wdead &&
			    cl->big_sent <= CHAOS_BIG) || cl->role == R_DEAF)
				pfd[n].events |= POLLOUT;
			pfd[n].revents = 0;
			who[n++] = i;
		}
		if (open > ch->max_open)
			ch->max_open = open;
		if (open == 0 && ch->nstarted == CHAOS_CLIENTS)
			break;
		if (now > deadline) {
			for (i = 0; i < CHAOS_CLIENTS; i++) {
				struct chaos_client	*cl = &ch->cl[i];

				if (cl->state == CS_OPEN)
					chaos_fail(ch, cl, "still open at the "
					    "deadline (queued %d, sym %c, in "
					    "game %d, asked %d, bye %d)",
					    cl->queued, cl->sym ? cl->sym : '-',
					    cl->in_game, cl->asked, cl->bye);
			}
			break;
		}
		if (poll(pfd, (nfds_t)n, 5) == -1 && errno != EINTR)
			fail_msg("poll: %s", strerror(errno));
		now = harness_now_ms();
		for (i = 0; i < n; i++) {
			struct chaos_client	*cl = &ch->cl[who[i]];

			if (pfd[i].revents == 0 || cl->state != CS_OPEN)
				continue;
			if (cl->role != R_DEAF && !cl->eof)
				chaos_read(ch, cl);
			if (cl->state == CS_OPEN &&
			    (pfd[i].revents & (POLLOUT | POLLERR | POLLHUP)))
				chaos_write(ch, cl, now);
		}
		/* The server logs every connection: keep its pipe empty. */
		harness_log(&ch->srv, log, sizeof log);
		chaos_health_sample(&ch->health, &ch->srv, now);
	}
	printf("chaos: all clients done after %ld ms; at most %d open at "
	    "once\n", harness_now_ms() - ch->t0, ch->max_open);

	chaos_check_pairs(ch, &pairs, &games);
	chaos_summary(ch);
	printf("chaos: %d pairs of rule-abiding players compared over %d "
	    "games\n", pairs, games);
	/* The line timeout is neither early nor much late. */
	for (j = 0; j < CHAOS_CLIENTS; j++) {
		struct chaos_client	*cl = &ch->cl[j];
		long			 t = cl->t_timeout - cl->t_drip0;

		if (cl->role == R_SLOWLORIS && cl->line_timeout &&
		    (t < CHAOS_LINE_TIMEOUT_MS - 100 ||
		    t > CHAOS_LINE_TIMEOUT_MS + 3000))
			chaos_fail(ch, cl, "LINE_TIMEOUT after %ld ms", t);
	}
	chaos_fails_report(&ch->fails, "chaos");
	/* The checks above had something to check. */
	if (games < 20 || ch->turn_outs == 0)
		fail_msg("only %d games compared, %d turns ran out", games,
		    ch->turn_outs);

	/* The server is alive and lets go of every descriptor. */
	assert_int_equal(waitpid(ch->srv.pid, NULL, WNOHANG), 0);
	chaos_health_end(&ch->health, &ch->srv, "chaos",
	    CHAOS_ASAN ? "under ASan" : NULL);

	chaos_fresh_match(ch);
	harness_log(&ch->srv, log, sizeof log);
	i = harness_stop(&ch->srv);
	ch->srv.pid = 0;
	assert_int_equal(i, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_chaos_500_mixed_clients,
		    chaos_setup, chaos_teardown),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
