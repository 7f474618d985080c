/*
 * test_e2e_social.c -- the acceptance tests of docs/protocol.md §9 over
 * real sockets: aborting a match before its first move, private rooms,
 * listing and watching matches, reconnection with a token, the computer
 * opponent, the early tie notice, chat and RESIGN.
 *
 * Written from the specification, not from the server: every line the
 * spec fixes is asserted exactly.  Where the spec leaves a choice open, the
 * comment at the assertion says which reading is tested and why.
 *
 * Each test starts its own server with short time flags, so that every
 * wait is bounded and the whole of a test stays within a few seconds.
 */
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>

#include <errno.h>
#include <fcntl.h>
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
#include "e2e_fix.h"
#include "e2e_game.h"

/* Server lines, exactly as docs/protocol.md fixes them. */
#define T_AI_OFFER	"INFO Nobody else is here yet. Type PLAY AI to play " \
			"the computer."
#define T_TAKEN_OVER	"BYE Your seat was taken over by a new connection."
#define T_WATCH_OVER	"INFO Type PLAY to play, or GAMES to watch another game."
#define T_RAN_OUT	"RESULT FORFEIT X alice bob ran out of time. alice wins!"

#define E_RATE_LIMITED	"ERR RATE_LIMITED Too many commands. Please slow down."
#define E_IN_GAME	"ERR IN_GAME You are in a game; finish it, RESIGN or " \
			"QUIT first."
#define E_BAD_ROOM	"ERR BAD_ROOM Use ROOM NEW, or ROOM JOIN <code>."
#define E_NO_ROOM	"ERR NO_ROOM No room with that code is open."
#define E_NO_SUCH_GAME	"ERR NO_SUCH_GAME No match with that number is " \
			"being played."
#define E_NOT_WATCHING	"ERR NOT_WATCHING You are not watching a game."
#define E_NO_NAME	"ERR NO_NAME Choose a name with NAME before you chat."
#define E_BAD_TOKEN	"ERR BAD_TOKEN That code does not match a seat you " \
			"can resume."
#define E_BAD_LEVEL	"ERR BAD_LEVEL Use PLAY AI, PLAY AI easy or PLAY AI " \
			"perfect."
#define E_BAD_ANSWER	"ERR BAD_ANSWER Please enter y or n."
#define E_UNKNOWN	"ERR UNKNOWN_COMMAND Unknown command. Type HELP for " \
			"the list of commands."
#define E_NAME_TAKEN	"ERR NAME_TAKEN That name is taken; choose another."
#define E_WATCHERS_FULL	"ERR WATCHERS_FULL That game has as many watchers " \
			"as it can take."
#define E_BAD_TEXT	"ERR BAD_TEXT A chat line is 1 to 200 characters, " \
			"without TAB."

/* Game scripts, relative to whoever starts: first, second, first, ... */
#define S_FIRST_WINS	"A1 A2 B1 B2 C1"
#define S_SECOND_WINS	"A1 B1 A2 B2 C3 B3"
/*
 * Ties.  S_TIE can no longer be won after its 8th move by any reading of
 * §9.7 (every line then holds both marks), so the tie notice comes there.
 * S_TIE_LATE cannot be won after its 8th move either (the last cell gives
 * the last mover no line), though the C3 line still holds no O: only a
 * search of the moves left, as §9.7 words it, sees that.
 */
#define S_TIE		"A1 B1 C1 A2 B2 A3 B3 C3 C2"
#define S_TIE_LATE	"B2 A1 C1 A3 A2 C2 B1 B3 C3"

#define QUIET_MS	300	/* how long "nothing arrives" is watched */
#define CODE_SIZE	16	/* a room code, XXXX-XXXX, and its NUL */

static void		 soc_game_init(struct game *, struct conn *,
			    struct conn *, const char *, const char *, int);
static void		 soc_match_at(int, struct game *, struct conn *,
			    struct conn *, const char *, const char *, int);
static void		 want_code_at(int, struct conn *, char *);
static void		 pair_at(int, struct e2e *, struct tttd_proc *,
			    struct game *, const char *, const char *, int);
static long		 stat_at(int, struct conn *, const char *);
static unsigned long	 games_at(int, struct conn *, int, char [][64]);
static unsigned long	 game_id_at(int, struct conn *, const char *,
			    const char *);
static int		 pick_cell(const char *, char, int, uint32_t *);
static int		 ai_game_at(int, struct conn *, const char *, int,
			    int, uint32_t *);
static void		 ai_play_at(int, struct conn *, const char *,
			    const char *);

#define AI_GAME(c, me, f, sm, r) ai_game_at(__LINE__, (c), (me), (f), (sm), (r))
#define AI_PLAY(c, cmd, lv)	ai_play_at(__LINE__, (c), (cmd), (lv))

#define WANT_PREFIX(c, p, o)	line_want_prefix_at(__LINE__, (c), (p), (o), \
				    sizeof (o))
#define WANT_TOKEN(c, g, o)	game_want_token_at(__LINE__, (c), (g), (o))
#define WANT_CODE(c, o)		want_code_at(__LINE__, (c), (o))
#define WANT_QUIET(c)		line_want_quiet_at(__LINE__, (c), QUIET_MS)
#define WANT_QUIET_MS(c, ms)	line_want_quiet_at(__LINE__, (c), (ms))
#define SEND(c, ...)		line_send_at(__LINE__, (c), __VA_ARGS__)
/* c: a string literal, sent as MOVE <c>. */
#define GAME_MOVE(g, c) \
	game_move_at(__LINE__, (g), "MOVE " c, game_cell(c))
#define GAME_REMATCH(g, a, f) \
	game_rematch_at(__LINE__, (g), (a), "y", "y", (f))
#define PAIR(s, tp, g, n1, n2, gr) \
	pair_at(__LINE__, (s), (tp), (g), (n1), (n2), (gr))
#define SOC_MATCH(g, x, o, xn, on, gr) \
	soc_match_at(__LINE__, (g), (x), (o), (xn), (on), (gr))
#define STAT(c, n)		stat_at(__LINE__, (c), (n))
#define GAME_ID(c, x, o)	game_id_at(__LINE__, (c), (x), (o))

/*
 * A match between x and o as §9 plays it: TOKEN lines after MATCH if
 * grace >= 0, BOARD always with its art, moves sent as MOVE <cell>, the
 * tie notice before or after TURN.
 */
static void
soc_game_init(struct game *g, struct conn *x, struct conn *o,
    const char *xname, const char *oname, int grace)
{
	game_init(g, x, o, xname, oname);
	g->grace = grace;
	g->art = 1;
	g->plain = 1;
	g->notice_any = 1;
}

/* x and o were just paired: MATCH, then the first game's START. */
static void
soc_match_at(int ln, struct game *g, struct conn *x, struct conn *o,
    const char *xname, const char *oname, int grace)
{
	soc_game_init(g, x, o, xname, oname, grace);
	game_match_at(ln, g);
	game_start_at(ln, g, -1);
}

/*
 * OK ROOM <code>: XXXX-XXXX, of the alphabet; the code to out (CODE_SIZE,
 * as it came).
 */
static void
want_code_at(int ln, struct conn *c, char *out)
{
	char	got[LINE_SIZE];

	line_want_prefix_at(ln, c, "OK ROOM ", got, sizeof got);
	if (strlen(got) != 17 || !game_is_code(got + 8, 4) || got[12] != '-' ||
	    !game_is_code(got + 13, 4))
		fail_msg("line %d: %s: bad room code in \"%s\"", ln,
		    line_label(c), got);
	snprintf(out, CODE_SIZE, "%.9s", got + 8);
}

/*
 * Two new connections, paired: the earlier one is X.  n1 (NULL: p1) is
 * set while x waits alone; o is paired on arrival, so it takes its name
 * n2 (NULL: p2) once the game is on, and x is told of the change.
 */
static void
pair_at(int ln, struct e2e *s, struct tttd_proc *tp, struct game *g,
    const char *n1, const char *n2, int grace)
{
	struct conn	*x, *o;

	x = e2e_connect_at(ln, s, tp);
	if (n1 != NULL) {
		line_send_at(ln, x, "NAME %s", n1);
		line_want_at(ln, 1, x, "OK NAME %s", n1);
	}
	o = e2e_connect_at(ln, s, tp);
	soc_match_at(ln, g, x, o, n1 != NULL ? n1 : "p1", "p2", grace);
	if (n2 != NULL) {
		line_send_at(ln, o, "NAME %s", n2);
		line_want_at(ln, 1, o, "OK NAME %s", n2);
		line_want_at(ln, 1, x, "INFO p2 is now known as %s.", n2);
		snprintf(g->name[1], sizeof g->name[1], "%s", n2);
	}
}

/* STATS: the value of one counter (fails if it is missing). */
static long
stat_at(int ln, struct conn *c, const char *name)
{
	char	got[LINE_SIZE], key[128];
	long	v = -1;
	int	i;

	line_send_at(ln, c, "STATS");
	line_want_at(ln, 1, c, "OK STATS");
	snprintf(key, sizeof key, "STAT %s ", name);
	for (i = 0; i < 200; i++) {
		if (line_read(c, got, sizeof got, HARNESS_TIMEOUT_MS) < 0)
			fail_msg("line %d: %s: STATS ended early", ln,
			    line_label(c));
		if (strcmp(got, "END") == 0)
			break;
		if (strncmp(got, "STAT ", 5) != 0)
			fail_msg("line %d: %s: \"%s\" among the STAT lines",
			    ln, line_label(c), got);
		if (strncmp(got, key, strlen(key)) == 0)
			v = strtol(got + strlen(key), NULL, 10);
	}
	if (v < 0)
		fail_msg("line %d: no STAT %s", ln, name);
	return (v);
}

/*
 * GAMES: OK GAMES <n> and n GAME lines (into lines, up to max), checked
 * for their shape; returns n.
 */
static unsigned long
games_at(int ln, struct conn *c, int max, char lines[][64])
{
	char		 got[LINE_SIZE], *end;
	unsigned long	 n, i;

	line_send_at(ln, c, "GAMES");
	line_want_prefix_at(ln, c, "OK GAMES ", got, sizeof got);
	n = strtoul(got + 9, &end, 10);
	if (*end != '\0' || end == got + 9)
		fail_msg("line %d: bad \"%s\"", ln, got);
	for (i = 0; i < n; i++) {
		line_want_prefix_at(ln, c, "GAME ", got, sizeof got);
		if ((int)i < max)
			snprintf(lines[i], 64, "%.63s", got);
	}
	return (n);
}

/* The id of the listed match between x and o (fails if not listed once). */
static unsigned long
game_id_at(int ln, struct conn *c, const char *x, const char *o)
{
	char		 lines[16][64], names[64], *sp;
	unsigned long	 n, i, id = 0;
	int		 found = 0;

	n = games_at(ln, c, 16, lines);
	snprintf(names, sizeof names, " %s %s ", x, o);
	for (i = 0; i < n && i < 16; i++) {
		sp = strchr(lines[i] + 5, ' ');
		if (sp != NULL && strncmp(sp, names, strlen(names)) == 0) {
			id = strtoul(lines[i] + 5, NULL, 10);
			found++;
		}
	}
	if (found != 1)
		fail_msg("line %d: the match %s-%s is listed %d times", ln, x,
		    o, found);
	return (id);
}

/*
 * A cell for mark m on board b: at random (smart = 0), or a winning cell,
 * else a cell that blocks the other, else the centre, else at random.
 */
static int
pick_cell(const char *b, char m, int smart, uint32_t *rng)
{
	char	t[10], other = m == 'X' ? 'O' : 'X';
	int	free_cells[9], nfree = 0, i, pass;

	for (i = 0; i < 9; i++) {
		if (b[i] == '.')
			free_cells[nfree++] = i;
	}
	if (nfree == 0)
		fail_msg("no free cell on %s", b);
	for (pass = 0; smart && pass < 2; pass++) {
		for (i = 0; i < 9; i++) {
			if (b[i] != '.')
				continue;
			memcpy(t, b, 10);
			t[i] = pass == 0 ? m : other;
			if (game_winner(t))
				return (i);
		}
	}
	if (smart && b[4] == '.')
		return (4);
	return (free_cells[game_rand(rng) % (uint32_t)nfree]);
}

/*
 * The next event of a game against the computer, mover to play on cells:
 * the tie notice is passed over once a game, and only when it is due
 * (§9.7; its place among the move's lines is not fixed).
 */
static void
ai_next_at(int ln, struct conn *c, char *cells, char mover, int *seen,
    char *got, size_t size)
{
	line_want_prefix_at(ln, c, "", got, size);
	if (strcmp(got, T_ONLY_TIE) != 0)
		return;
	if (*seen)
		fail_msg("line %d: %s: a second tie notice in one game", ln,
		    line_label(c));
	if (game_can_win(cells, mover))
		fail_msg("line %d: %s: a tie notice, but %s can still be won",
		    ln, line_label(c), cells);
	*seen = 1;
	line_want_prefix_at(ln, c, "", got, size);
}

/* The next event of a game against the computer must be this. */
static void
ai_want_at(int ln, struct conn *c, char *cells, char mover, int *seen,
    const char *want)
{
	char	got[LINE_SIZE];

	ai_next_at(ln, c, cells, mover, seen, got, sizeof got);
	if (strcmp(got, want) != 0)
		fail_msg("line %d: %s: expected \"%s\", got \"%s\"", ln,
		    line_label(c), want, got);
}

/*
 * One game against the computer, from its START: the player me (X) plays
 * smart or random moves; every line is checked, and the computer's moves
 * must each fill exactly one free cell with O.  first: the seat that must
 * start (-1 either).  Returns 'X', 'O' or 'T'.
 */
static int
ai_game_at(int ln, struct conn *c, const char *me, int first, int smart,
    uint32_t *rng)
{
	char	got[LINE_SIZE], cells[10] = ".........", mine[LINE_SIZE];
	char	want[LINE_SIZE];
	int	xturn = 0, cell, i, diff, seen = 0;

	line_want_prefix_at(ln, c, "START ", got, sizeof got);
	snprintf(mine, sizeof mine, "START X %s (X) moves first.", me);
	if (strcmp(got, "START O ai (O) moves first.") == 0)
		xturn = 0;
	else if (strcmp(got, mine) == 0)
		xturn = 1;
	else
		fail_msg("line %d: %s: expected \"%s\" or the computer's "
		    "START, got \"%s\"", ln, line_label(c), mine, got);
	if (first >= 0 && xturn != (first == 0))
		fail_msg("line %d: \"%s\", but %c should start", ln, got,
		    game_mark(first));
	game_want_board_at(ln, c, cells);
	for (;;) {
		if (!xturn) {
			ai_want_at(ln, c, cells, 'O', &seen,
			    "TURN O Waiting for ai to move...");
			ai_next_at(ln, c, cells, 'O', &seen, got, sizeof got);
			if (strncmp(got, "BOARD ", 6) != 0 || strlen(got) != 15)
				fail_msg("line %d: expected the computer's "
				    "BOARD, got \"%s\"", ln, got);
			for (i = 0, diff = 0; i < 9; i++) {
				if (got[6 + i] == cells[i])
					continue;
				if (cells[i] != '.' || got[6 + i] != 'O')
					fail_msg("line %d: the computer turned "
					    "%s into %s", ln, cells, got + 6);
				diff++;
			}
			if (diff != 1)
				fail_msg("line %d: the computer made %d moves: "
				    "%s to %s", ln, diff, cells, got + 6);
			/* Both levels take a win they have (§9.6). */
			for (i = 0; i < 9; i++) {
				char	t[10];

				memcpy(t, cells, sizeof t);
				if (t[i] != '.')
					continue;
				t[i] = 'O';
				if (game_winner(t) && !game_winner(got + 6))
					fail_msg("line %d: the computer could "
					    "win on %s and played %s", ln,
					    cells, got + 6);
			}
			memcpy(cells, got + 6, 9);
			game_want_art_at(ln, c, cells);
			if (game_winner(cells)) {
				line_want_at(ln, 0, c, "RESULT WIN O ai ai wins! "
				    "better luck next time %s!", me);
				line_want_prefix_at(ln, c, T_SCORE, NULL, 0);
			line_want_at(ln, 0, c, T_AGAIN);
				return ('O');
			}
			if (strchr(cells, '.') == NULL) {
				line_want_at(ln, 0, c, T_TIE);
				line_want_prefix_at(ln, c, T_SCORE, NULL, 0);
			line_want_at(ln, 0, c, T_AGAIN);
				return ('T');
			}
			xturn = 1;
			continue;
		}
		ai_want_at(ln, c, cells, 'X', &seen, "TURN X " T_PROMPT);
		cell = pick_cell(cells, 'X', smart, rng);
		line_send_at(ln, c, "%c%c", 'a' + cell % 3, '1' + cell / 3);
		snprintf(want, sizeof want, "OK MOVE %c%c", 'A' + cell % 3,
		    '1' + cell / 3);
		ai_want_at(ln, c, cells, 'X', &seen, want);
		cells[cell] = 'X';
		game_want_board_at(ln, c, cells);
		if (game_winner(cells)) {
			line_want_at(ln, 0, c, "RESULT WIN X %s %s wins! better "
			    "luck next time ai!", me, me);
			line_want_prefix_at(ln, c, T_SCORE, NULL, 0);
			line_want_at(ln, 0, c, T_AGAIN);
			return ('X');
		}
		if (strchr(cells, '.') == NULL) {
			line_want_at(ln, 0, c, T_TIE);
			line_want_prefix_at(ln, c, T_SCORE, NULL, 0);
			line_want_at(ln, 0, c, T_AGAIN);
			return ('T');
		}
		xturn = 0;
	}
}

/*
 * A queued connection sends the PLAY line and reads OK PLAY AI <level>,
 * MATCH and TOKEN (the default grace, 30 s).
 */
static void
ai_play_at(int ln, struct conn *c, const char *cmd, const char *level)
{
	char	tok[16];

	line_send_at(ln, c, "%s", cmd);
	line_want_at(ln, 1, c, "OK PLAY AI %s", level);
	line_want_at(ln, 0, c, "MATCH X ai You play X against ai.");
	game_want_token_at(ln, c, 30, tok);
}

/* The code with its i-th character changed: same shape, not that room. */
static void
other_code(const char *code, char *out, size_t size)
{
	const char	*p;

	snprintf(out, size, "%s", code);
	p = strchr(CODE_ALPHABET, code[0]);
	out[0] = p != NULL && p[1] != '\0' ? p[1] : CODE_ALPHABET[0];
}

/* The text in lower case (room codes and tokens are case-insensitive). */
static const char *
lower(const char *s)
{
	static char	bufs[4][64];
	static int	next;
	char		*b = bufs[next++ % 4];
	size_t		 i;

	for (i = 0; s[i] != '\0' && i < 63; i++)
		b[i] = (char)(s[i] >= 'A' && s[i] <= 'Z' ? s[i] | 0x20 : s[i]);
	b[i] = '\0';
	return (b);
}

/* "K7QX-2M9P" without its dash, in lower case. */
static const char *
token_plain(const char *tok)
{
	static char	b[16];

	snprintf(b, sizeof b, "%.4s%.4s", lower(tok), lower(tok) + 5);
	return (b);
}

/*
 * §9.2: ROOM NEW by a player who has not moved aborts the match: the
 * other gets the abort lines and is paired with the next arrival; no game
 * is counted, an abort is.
 */
static void
test_social_abort_by_room_new(void **state)
{
	struct e2e		*s = *state;
	struct tttd_proc	*tp = e2e_server(s, NULL);
	struct game		 g, g2, g3;
	struct conn		*e, *f;
	char			 code[CODE_SIZE];

	PAIR(s, tp, &g, NULL, NULL, 30);
	SEND(g.p[1], "ROOM NEW");
	WANT_CODE(g.p[1], code);
	WANT_RAW(g.p[1], "WAIT Waiting for a friend to join room %s...", code);
	WANT_RAW(g.p[0], "INFO p2 left before the first move. No result.");
	WANT_RAW(g.p[0], T_WAIT);
	WANT_QUIET(g.p[0]);
	/* Out of the match: BOARD is NO_GAME now. */
	SEND(g.p[0], "BOARD");
	WANT_RAW(g.p[0], E_NO_GAME);

	/* The next arrival is paired with it. */
	e = CONNECT(s, tp);
	SOC_MATCH(&g2, g.p[0], e, "p1", "p2", 30);

	/* The aborter's room is open: its maker is p1 there. */
	f = CONNECT(s, tp);
	SEND(f, "ROOM JOIN %s", code);
	WANT_RAW(f, "OK ROOM %s", code);
	SOC_MATCH(&g3, g.p[1], f, "p1", "p2", 30);

	assert_int_equal(STAT(e, "aborts"), 1);
	assert_int_equal(STAT(e, "games_finished"), 0);
	assert_int_equal(STAT(e, "forfeits"), 0);
	e2e_stop(s, tp);
}

/*
 * §9.2: an abort by QUIT; the other goes to the FRONT of the queue.
 *
 * The queue never holds two players for long (they are paired at once),
 * so "front" shows only in the seats: a third player c is already waiting
 * when the abort happens.  Reading: the aborted-on player is put ahead of
 * c, so it is the one that "has waited longest" (§6.1) and takes seat p1,
 * X.  Put at the back, it would be O.
 */
static void
test_social_abort_by_quit_goes_to_front(void **state)
{
	struct e2e		*s = *state;
	struct tttd_proc	*tp = e2e_server(s, NULL);
	struct game		 g, g2;
	struct conn		*c;

	PAIR(s, tp, &g, "alice", "bob", 30);
	c = CONNECT(s, tp);
	WANT_QUIET(c);
	SEND(g.p[1], "QUIT");
	WANT_RAW(g.p[1], T_BYE);
	WANT_EOF(g.p[1]);
	WANT_RAW(g.p[0], "INFO bob left before the first move. No result.");
	WANT_RAW(g.p[0], T_WAIT);
	SOC_MATCH(&g2, g.p[0], c, "alice", "p2", 30);
	/* An abort is no forfeit and no game. */
	assert_int_equal(STAT(c, "aborts"), 1);
	assert_int_equal(STAT(c, "forfeits"), 0);
	assert_int_equal(STAT(c, "games_finished"), 0);
	e2e_stop(s, tp);
}

/*
 * §9.2, §9.4: aborts by PLAY AI and by WATCH; the aborted match's watcher
 * is released (INFO Game <id> is over., what it may do next) and queued
 * nowhere; once it asks (PLAY), it is queued behind the player who went
 * to the front.
 */
static void
test_social_abort_by_play_ai_and_watch(void **state)
{
	struct e2e		*s = *state;
	struct tttd_proc	*tp = e2e_server(s, NULL);
	struct game		 g, h, g2;
	struct conn		*w;
	char			 got[LINE_SIZE], tok[16];
	unsigned long		 id1, id3;

	PAIR(s, tp, &g, "alice", "bob", 30);
	PAIR(s, tp, &h, "carol", "dave", 30);
	w = CONNECT(s, tp);
	id1 = GAME_ID(w, "alice", "bob");
	SEND(w, "WATCH %lu", id1);
	WANT_RAW(w, "OK WATCH %lu", id1);
	WANT_RAW(w, "INFO You are watching game %lu: alice (X) against bob "
	    "(O).", id1);
	WANT_BOARD(w, ".........");
	WANT_RAW(w, "TURN %c Waiting for %s to move...", game_mark(g.turn),
	    g.name[g.turn]);
	GAME_WATCHED(&g, "Someone");

	/* bob goes to play the computer: an abort. */
	SEND(g.p[1], "PLAY AI");
	WANT_RAW(g.p[1], "OK PLAY AI perfect");
	WANT_RAW(g.p[1], "MATCH X ai You play X against ai.");
	WANT_TOKEN(g.p[1], 30, tok);
	WANT_PREFIX(g.p[1], "START ", got);
	WANT_RAW(g.p[0], "INFO bob left before the first move. No result.");
	WANT_RAW(g.p[0], T_WAIT);
	WANT_RAW(w, "INFO Game %lu is over.", id1);
	WANT_RAW(w, T_WATCH_OVER);
	WANT_QUIET(w);				/* not queued: not paired */
	assert_int_equal(STAT(w, "players_waiting"), 1);	/* alice */
	SEND(w, "PLAY");
	WANT_RAW(w, "OK PLAY");
	WANT_RAW(w, T_WAIT);
	/* alice is at the front, the released watcher behind her. */
	SOC_MATCH(&g2, g.p[0], w, "alice", "p2", 30);

	/* dave leaves to watch bob's game against the computer. */
	id3 = GAME_ID(h.p[1], "bob", "ai");
	SEND(h.p[1], "WATCH %lu", id3);
	WANT_RAW(h.p[1], "OK WATCH %lu", id3);
	WANT_RAW(h.p[1], "INFO You are watching game %lu: bob (X) against ai "
	    "(O).", id3);
	WANT_PREFIX(h.p[1], "BOARD ", got);
	WANT(h.p[1], "TURN X Waiting for bob to move...");
	WANT_RAW(h.p[0], "INFO dave left before the first move. No result.");
	WANT_RAW(h.p[0], T_WAIT);
	WANT_QUIET(h.p[0]);
	assert_int_equal(STAT(h.p[0], "aborts"), 2);
	assert_int_equal(STAT(h.p[0], "matches_ai"), 1);
	e2e_stop(s, tp);
}

/*
 * §9.2: a move sent before its player could see its match aborted never
 * lands in its next match.  bob leaves before the first move; alice's
 * MOVE, sent before she read that (her lines unread), reaches her in the
 * queue: ERR NO_GAME.  Half a second later she is paired with the player
 * who was waiting, at the front (X), on an empty board.
 */
static void
test_social_abort_move_in_flight(void **state)
{
	struct e2e		*s = *state;
	struct tttd_proc	*tp = e2e_server(s, NULL);
	struct game		 g, g2;
	struct conn		*carol;

	PAIR(s, tp, &g, "alice", "bob", 30);
	carol = CONNECT(s, tp);
	WANT_QUIET_MS(carol, 700);		/* waiting, ripe */
	SEND(g.p[1], "QUIT");
	WANT_RAW(g.p[1], T_BYE);		/* the abort is done */
	SEND(g.p[0], "MOVE B2");		/* alice has not read it */
	WANT_RAW(g.p[0], "INFO bob left before the first move. No result.");
	WANT_RAW(g.p[0], T_WAIT);
	WANT_RAW(g.p[0], "ERR NO_GAME You are not in a game right now.");
	SOC_MATCH(&g2, g.p[0], carol, "alice", "p2", 30);
	GAME_PLAY(&g2, "A1 B1 A2 B2 A3");
	e2e_stop(s, tp);
}

/*
 * §9.4: a watcher is no phantom opponent.  A room's match is watched
 * while a third player waits in the public queue; the match ends and both
 * players quit: the watcher is told the game is over and what it may do,
 * and is queued nowhere, so the waiting player stays waiting (it was
 * paired with the watcher, and told its opponent left before the first
 * move).  The watcher plays once it asks to (PLAY).
 */
static void
test_social_watcher_not_queued(void **state)
{
	struct e2e		*s = *state;
	struct tttd_proc	*tp = e2e_server(s, NULL);
	struct game		 g, g2;
	struct conn		*r, *j, *w, *t;
	char			 code[CODE_SIZE], line[LINE_SIZE], want[64];
	unsigned long		 id;

	r = CONNECT(s, tp);
	SEND(r, "ROOM NEW");
	WANT_CODE(r, code);
	WANT_RAW(r, "WAIT Waiting for a friend to join room %s...", code);
	j = CONNECT(s, tp);
	SEND(j, "ROOM JOIN %s", code);
	WANT_RAW(j, "OK ROOM %s", code);
	SOC_MATCH(&g, r, j, "p1", "p2", 30);
	w = CONNECT(s, tp);
	id = GAME_ID(w, "p1", "p2");
	SEND(w, "WATCH %lu", id);
	WANT_RAW(w, "OK WATCH %lu", id);
	GAME_WATCHED(&g, "Someone");
	t = CONNECT(s, tp);			/* waits in the public queue */
	WANT_QUIET_MS(t, 700);
	GAME_PLAY(&g, "A1 B1 A2 B2 A3");
	SEND(g.p[0], "QUIT");
	WANT_RAW(g.p[0], T_BYE);
	WANT_RAW(g.p[1], "INFO p1 left the match.");
	SEND(g.p[1], "QUIT");
	WANT_RAW(g.p[1], T_BYE);
	snprintf(want, sizeof want, "INFO Game %lu is over.", id);
	do {
		if (line_read(w, line, sizeof line, HARNESS_TIMEOUT_MS) < 0)
			fail_msg("the watcher never heard the game end");
	} while (strcmp(line, want) != 0);
	WANT_RAW(w, T_WATCH_OVER);
	WANT_QUIET(w);
	WANT_QUIET(t);				/* no phantom opponent */
	assert_int_equal(STAT(t, "players_waiting"), 1);
	SEND(w, "PLAY");
	WANT_RAW(w, "OK PLAY");
	WANT_RAW(w, T_WAIT);
	SOC_MATCH(&g2, t, w, "p1", "p2", 30);	/* t waited longer: X */
	GAME_PLAY(&g2, "A1 B1 A2 B2 A3");
	e2e_stop(s, tp);
}

/*
 * §9.2: once a player has moved, ROOM, WATCH, RESUME and PLAY AI get
 * IN_GAME and change nothing -- but a wrong target gets its own error
 * first; watching one's own match is IN_GAME even before moving.  The
 * opponent, who has not moved, can still abort.
 */
static void
test_social_in_game_after_moving(void **state)
{
	struct e2e		*s = *state;
	struct tttd_proc	*tp = e2e_server(s, NULL);
	struct game		 g, g2;
	struct conn		*r, *mv, *nm;
	char			 code[CODE_SIZE], wrong[CODE_SIZE], cells[10];
	unsigned long		 id;
	int			 ms;

	PAIR(s, tp, &g, "alice", "bob", 30);
	ms = g.turn;
	mv = g.p[ms];
	nm = g.p[!ms];
	GAME_MOVE(&g, "B2");
	memcpy(cells, g.cells, sizeof cells);
	r = CONNECT(s, tp);
	SEND(r, "ROOM NEW");
	WANT_CODE(r, code);
	WANT_RAW(r, "WAIT Waiting for a friend to join room %s...", code);
	other_code(code, wrong, sizeof wrong);
	id = GAME_ID(mv, "alice", "bob");

	SEND(mv, "ROOM NEW");
	WANT_RAW(mv, E_IN_GAME);
	SEND(mv, "ROOM JOIN %s", code);
	WANT_RAW(mv, E_IN_GAME);
	SEND(mv, "PLAY AI");
	WANT_RAW(mv, E_IN_GAME);
	SEND(mv, "PLAY AI easy");
	WANT_RAW(mv, E_IN_GAME);
	SEND(mv, "WATCH %lu", id);
	WANT_RAW(mv, E_IN_GAME);
	SEND(mv, "RESUME %s", g.token[!ms]);
	WANT_RAW(mv, E_IN_GAME);
	/* The target is checked first. */
	SEND(mv, "ROOM JOIN %s", wrong);
	WANT_RAW(mv, E_NO_ROOM);
	SEND(mv, "WATCH 99999");
	WANT_RAW(mv, E_NO_SUCH_GAME);
	SEND(mv, "RESUME 2222-2222");
	WANT_RAW(mv, E_BAD_TOKEN);
	/* The line alone is judged before the game. */
	SEND(mv, "ROOM OPEN");
	WANT_RAW(mv, E_BAD_ROOM);
	SEND(mv, "PLAY CHESS");
	WANT_RAW(mv, E_BAD_LEVEL);
	/* Nothing changed: same board, still nm's move, nobody told. */
	SEND(mv, "BOARD");
	WANT_RAW(mv, "OK BOARD");
	WANT_BOARD(mv, cells);
	WANT_RAW(mv, "TURN %c Waiting for %s to move...", game_mark(!ms),
	    g.name[!ms]);
	WANT_QUIET(mv);
	WANT_QUIET(nm);
	WANT_QUIET(r);

	/* Watching one's own match is IN_GAME, not an abort. */
	SEND(nm, "WATCH %lu", id);
	WANT_RAW(nm, E_IN_GAME);
	WANT_QUIET(mv);
	/* The one who has not moved may still leave without a result. */
	SEND(nm, "quit");
	WANT_RAW(nm, T_BYE);
	WANT_EOF(nm);
	WANT_RAW(mv, "INFO %s left before the first move. No result.",
	    g.name[!ms]);
	WANT_RAW(mv, T_WAIT);
	/* The room survived the refused ROOM JOIN. */
	SEND(mv, "room join %s", lower(code));
	WANT_RAW(mv, "OK ROOM %s", code);
	SOC_MATCH(&g2, r, mv, "p1", g.name[ms], 30);
	assert_int_equal(STAT(r, "aborts"), 1);
	assert_int_equal(STAT(r, "forfeits"), 0);
	e2e_stop(s, tp);
}

/*
 * §9.2: in a later game of the match nobody can abort (IN_GAME, even
 * before a move); after RESULT, PLAY AI leaves the match as a no would.
 */
static void
test_social_no_abort_in_later_game(void **state)
{
	struct e2e		*s = *state;
	struct tttd_proc	*tp = e2e_server(s, NULL);
	struct game		 g;
	char			 got[LINE_SIZE];
	int			 loser;

	PAIR(s, tp, &g, "alice", "bob", 30);
	GAME_PLAY(&g, S_FIRST_WINS);
	GAME_REMATCH(&g, 0, g.winner);
	loser = !g.winner;
	SEND(g.p[loser], "ROOM NEW");
	WANT_RAW(g.p[loser], E_IN_GAME);
	SEND(g.p[loser], "PLAY AI");
	WANT_RAW(g.p[loser], E_IN_GAME);
	WANT_QUIET(g.p[g.winner]);
	GAME_PLAY(&g, S_TIE);

	/* After RESULT: PLAY AI leaves the match, as an answer of no. */
	SEND(g.p[1], "PLAY AI");
	WANT_RAW(g.p[1], "OK PLAY AI perfect");
	WANT_RAW(g.p[1], "MATCH X ai You play X against ai.");
	WANT_PREFIX(g.p[1], "TOKEN ", got);
	WANT_PREFIX(g.p[1], "START ", got);
	WANT_RAW(g.p[0], "INFO bob left the match.");
	WANT_QUIET(g.p[0]);
	SEND(g.p[0], "y");
	WANT_RAW(g.p[0], "OK AGAIN y");
	WANT_RAW(g.p[0], T_WAIT);
	assert_int_equal(STAT(g.p[0], "aborts"), 0);
	e2e_stop(s, tp);
}

/*
 * §9.3: ROOM NEW gives a code and a WAIT; a public arrival is not paired
 * with the maker; ROOM JOIN (lower case) pairs exactly those two, the
 * maker as X; the code is then gone, and a refused joiner stays queued.
 */
static void
test_social_room_new_and_join(void **state)
{
	struct e2e		*s = *state;
	struct tttd_proc	*tp = e2e_server(s, NULL);
	struct game		 g, g2;
	struct conn		*a, *b, *c, *d;
	char			 code[CODE_SIZE];

	a = CONNECT(s, tp);
	SEND(a, "NAME ann");
	WANT_RAW(a, "OK NAME ann");
	SEND(a, "ROOM NEW");
	WANT_CODE(a, code);
	WANT_RAW(a, "WAIT Waiting for a friend to join room %s...", code);
	assert_int_equal(STAT(a, "rooms_open"), 1);

	b = CONNECT(s, tp);
	WANT_QUIET(a);
	WANT_QUIET(b);
	/* A waiting room is no match. */
	SEND(b, "GAMES");
	WANT_RAW(b, "OK GAMES 0");
	SEND(b, "room join %s", lower(code));
	WANT_RAW(b, "OK ROOM %s", code);
	SOC_MATCH(&g, a, b, "ann", "p2", 30);
	assert_int_equal(STAT(b, "rooms_open"), 0);

	/* Single use. */
	c = CONNECT(s, tp);
	SEND(c, "ROOM JOIN %s", code);
	WANT_RAW(c, E_NO_ROOM);
	SEND(c, "PING");
	WANT_RAW(c, "OK PONG");
	WANT_QUIET(a);
	WANT_QUIET(b);
	/* c is still in the public queue. */
	d = CONNECT(s, tp);
	SOC_MATCH(&g2, c, d, "p1", "p2", 30);

	/* The room's match plays as usual. */
	GAME_PLAY(&g, S_SECOND_WINS);
	GAME_REMATCH(&g, 1, g.winner);
	e2e_stop(s, tp);
}

/*
 * §9.3: BAD_ROOM for a ROOM line of the wrong shape, NO_ROOM for a code
 * that is not open and for one's own; the room stays open through both.
 *
 * Reading: "ROOM NEW now" is BAD_ROOM: the grammar gives ROOM no extra
 * words, and §9.1 names GAMES, UNWATCH and RESIGN as the commands whose
 * extra words are ignored.
 */
static void
test_social_room_errors(void **state)
{
	static const char *const	 bad[] = {
		"ROOM", "ROOM FOO", "ROOM JOIN", "ROOM JOIN ABC",
		"ROOM JOIN ABCDEF", "ROOM JOIN ABCDEFGHJ", "ROOM JOIN ABCDEFG0",
		"ROOM JOIN ABCDEFGI", "ROOM JOIN ABCDEFGL", "ROOM JOIN ABCDEFG1",
		"ROOM JOIN ABC-DEFGH", "ROOM NEW now",
		"ROOM JOIN ABCDEFGH JKMNPQRS"
	};
	struct e2e			*s = *state;
	struct tttd_proc		*tp = e2e_server(s, NULL);
	struct game			 g;
	struct conn			*a, *b;
	char				 code[CODE_SIZE], wrong[CODE_SIZE];
	size_t				 i;

	a = CONNECT(s, tp);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		SEND(a, "%s", bad[i]);
		WANT_RAW(a, E_BAD_ROOM);
	}
	SEND(a, "ROOM JOIN 2345-6789");
	WANT_RAW(a, E_NO_ROOM);
	SEND(a, "room new");
	WANT_CODE(a, code);
	WANT_RAW(a, "WAIT Waiting for a friend to join room %s...", code);
	/* One's own code, a wrong one, a bad line: the room stays. */
	SEND(a, "ROOM JOIN %s", code);
	WANT_RAW(a, E_NO_ROOM);
	other_code(code, wrong, sizeof wrong);
	SEND(a, "ROOM JOIN %s", wrong);
	WANT_RAW(a, E_NO_ROOM);
	SEND(a, "ROOM");
	WANT_RAW(a, E_BAD_ROOM);
	WANT_QUIET(a);

	b = CONNECT(s, tp);
	SEND(b, "ROOM JOIN %s", wrong);
	WANT_RAW(b, E_NO_ROOM);
	SEND(b, "ROOM JOIN %s", code);
	WANT_RAW(b, "OK ROOM %s", code);
	SOC_MATCH(&g, a, b, "p1", "p2", 30);
	e2e_stop(s, tp);
}

/* §9.3: a room expires after --room-ttl; its maker is then queued. */
static void
test_social_room_expires(void **state)
{
	static const char *const	 extra[] = { "--room-ttl", "1", NULL };
	struct e2e			*s = *state;
	struct tttd_proc		*tp = e2e_server(s, extra);
	struct game			 g;
	struct conn			*a, *b, *d;
	char				 code[CODE_SIZE];
	long				 t0, dt;

	a = CONNECT(s, tp);
	SEND(a, "ROOM NEW");
	t0 = harness_now_ms();
	WANT_CODE(a, code);
	WANT_RAW(a, "WAIT Waiting for a friend to join room %s...", code);
	WANT_QUIET_MS(a, 600);
	WANT_RAW(a, "INFO Room %s expired.", code);
	dt = harness_now_ms() - t0;
	if (dt < 800 || dt > 3000)
		fail_msg("a 1 s room expired after %ld ms", dt);
	WANT_RAW(a, T_WAIT);
	/* Back in the public queue: the next arrival is its opponent. */
	d = CONNECT(s, tp);
	SOC_MATCH(&g, a, d, "p1", "p2", 30);
	b = CONNECT(s, tp);
	SEND(b, "ROOM JOIN %s", code);
	WANT_RAW(b, E_NO_ROOM);
	SEND(b, "PING");
	WANT_RAW(b, "OK PONG");
	assert_int_equal(STAT(b, "rooms_open"), 0);
	e2e_stop(s, tp);
}

/*
 * §9.3: a room closes when its maker leaves: another ROOM NEW, QUIT, a
 * lost connection, WATCH.
 */
static void
test_social_room_closes_when_maker_leaves(void **state)
{
	struct e2e		*s = *state;
	struct tttd_proc	*tp = e2e_server(s, NULL);
	struct game		 g, h;
	struct conn		*a, *b, *c, *d, *e;
	char			 code1[CODE_SIZE], code2[CODE_SIZE];
	char			 code3[CODE_SIZE], code4[CODE_SIZE];
	char			 got[LINE_SIZE];
	unsigned long		 id;
	long			 deadline;

	a = CONNECT(s, tp);
	SEND(a, "ROOM NEW");
	WANT_CODE(a, code1);
	WANT_RAW(a, "WAIT Waiting for a friend to join room %s...", code1);
	SEND(a, "ROOM NEW");
	WANT_CODE(a, code2);
	WANT_RAW(a, "WAIT Waiting for a friend to join room %s...", code2);
	if (strcmp(code1, code2) == 0)
		fail_msg("two rooms got the code %s", code1);
	b = CONNECT(s, tp);
	SEND(b, "ROOM JOIN %s", code1);
	WANT_RAW(b, E_NO_ROOM);
	SEND(a, "QUIT");
	WANT_RAW(a, T_BYE);
	WANT_EOF(a);
	SEND(b, "ROOM JOIN %s", code2);
	WANT_RAW(b, E_NO_ROOM);

	/* A maker whose connection is lost. */
	SEND(b, "ROOM NEW");
	WANT_CODE(b, code3);
	WANT_RAW(b, "WAIT Waiting for a friend to join room %s...", code3);
	conn_close(b);
	/* Until the server has seen the close, the room may be open. */
	c = CONNECT(s, tp);
	deadline = harness_now_ms() + 2000;
	while (STAT(c, "rooms_open") != 0 && harness_now_ms() < deadline)
		usleep(20000);
	SEND(c, "ROOM JOIN %s", code3);
	WANT_RAW(c, E_NO_ROOM);

	/* A maker who goes to watch. */
	SEND(c, "ROOM NEW");
	WANT_CODE(c, code4);
	WANT_RAW(c, "WAIT Waiting for a friend to join room %s...", code4);
	PAIR(s, tp, &g, "alice", "bob", 30);
	id = GAME_ID(c, "alice", "bob");
	SEND(c, "WATCH %lu", id);
	WANT_RAW(c, "OK WATCH %lu", id);
	WANT_PREFIX(c, "INFO You are watching game ", got);
	d = CONNECT(s, tp);
	SEND(d, "ROOM JOIN %s", code4);
	WANT_RAW(d, E_NO_ROOM);
	/* d is still queued. */
	e = CONNECT(s, tp);
	soc_game_init(&h, d, e, "p1", "p2", 30);
	GAME_MATCH(&h);
	e2e_stop(s, tp);
}

/*
 * §9.4: GAMES on an idle server, then with matches: oldest first, X's and
 * O's names, the moves of the current game; a computer match is listed; a
 * match with one player left is not live.
 *
 * Match ids are not fixed by the spec: the test reads them and insists
 * that they differ and that the same match keeps its id.
 */
static void
test_social_games_lists_matches(void **state)
{
	struct e2e		*s = *state;
	struct tttd_proc	*tp = e2e_server(s, NULL);
	struct game		 g, h;
	struct conn		*c, *o;
	char			 lines[8][64], want[64], got[LINE_SIZE];
	unsigned long		 n, id1, id2, id3;
	int			 aimoves;

	c = CONNECT(s, tp);
	SEND(c, "GAMES");
	WANT_RAW(c, "OK GAMES 0");
	SEND(c, "games all of them");
	WANT_RAW(c, "OK GAMES 0");
	WANT_QUIET(c);
	SEND(c, "QUIT");
	WANT_RAW(c, T_BYE);

	PAIR(s, tp, &g, "alice", "bob", 30);
	GAME_MOVE(&g, "B2");
	GAME_MOVE(&g, "A1");
	PAIR(s, tp, &h, "carol", NULL, 30);
	o = CONNECT(s, tp);
	SEND(o, "NAME olga");
	WANT_RAW(o, "OK NAME olga");
	n = games_at(__LINE__, o, 8, lines);
	assert_int_equal(n, 2);
	id1 = strtoul(lines[0] + 5, NULL, 10);
	id2 = strtoul(lines[1] + 5, NULL, 10);
	snprintf(want, sizeof want, "GAME %lu alice bob 2", id1);
	assert_string_equal(lines[0], want);
	snprintf(want, sizeof want, "GAME %lu carol p2 0", id2);
	assert_string_equal(lines[1], want);
	assert_true(id1 != id2);

	/* A computer match: olga (X) against ai (O). */
	AI_PLAY(o, "PLAY AI", "perfect");
	WANT_PREFIX(o, "START ", got);
	aimoves = strcmp(got, "START O ai (O) moves first.") == 0;
	n = games_at(__LINE__, h.p[0], 8, lines);
	assert_int_equal(n, 3);
	snprintf(want, sizeof want, "GAME %lu alice bob 2", id1);
	assert_string_equal(lines[0], want);
	snprintf(want, sizeof want, "GAME %lu carol p2 0", id2);
	assert_string_equal(lines[1], want);
	id3 = strtoul(lines[2] + 5, NULL, 10);
	snprintf(want, sizeof want, "GAME %lu olga ai %d", id3, aimoves);
	assert_string_equal(lines[2], want);
	assert_true(id3 != id1 && id3 != id2);

	/* A rematch counts its moves from 0 again. */
	GAME_PLAY(&g, "C1 B1 A3");
	GAME_REMATCH(&g, 1, g.winner);
	n = games_at(__LINE__, h.p[1], 8, lines);
	assert_int_equal(n, 3);
	snprintf(want, sizeof want, "GAME %lu alice bob 0", id1);
	assert_string_equal(lines[0], want);

	/* bob quits: alice is alone in her match, which is no longer live. */
	SEND(g.p[1], "QUIT");
	WANT_RAW(g.p[1], T_BYE);
	WANT_PREFIX(g.p[0], "RESULT FORFEIT X alice bob quit the game.", got);
	g.score[0]++;
	GAME_SCORE(&g, g.p[0]);
	WANT_RAW(g.p[0], T_AGAIN);
	n = games_at(__LINE__, h.p[1], 8, lines);
	assert_int_equal(n, 2);
	snprintf(want, sizeof want, "GAME %lu carol p2 0", id2);
	assert_string_equal(lines[0], want);
	snprintf(want, sizeof want, "GAME %lu olga ai %d", id3, aimoves);
	assert_string_equal(lines[1], want);
	e2e_stop(s, tp);
}

/*
 * §9.4: watching is social.  The players are told who comes and goes; a
 * watcher with a name chats with the other watchers (not the players),
 * one without is told to choose a name; GAMES marks a seat held for a
 * player whose connection was lost.
 */
static void
test_social_watchers_told_chat_and_away(void **state)
{
	struct e2e		*s = *state;
	struct tttd_proc	*tp = e2e_server(s, NULL);
	struct game		 g;
	struct conn		*w1, *w2;
	char			 got[LINE_SIZE], lines[4][64], want[64];
	unsigned long		 id;

	PAIR(s, tp, &g, "alice", "bob", 30);
	w1 = CONNECT(s, tp);
	SEND(w1, "NAME wanda");
	WANT_RAW(w1, "OK NAME wanda");
	id = GAME_ID(w1, "alice", "bob");
	SEND(w1, "WATCH %lu", id);
	WANT_RAW(w1, "OK WATCH %lu", id);
	WANT_PREFIX(w1, "INFO You are watching ", got);
	WANT_BOARD(w1, g.cells);
	WANT_PREFIX(w1, "TURN ", got);
	GAME_WATCHED(&g, "wanda");
	w2 = CONNECT(s, tp);
	SEND(w2, "WATCH %lu", id);
	WANT_RAW(w2, "OK WATCH %lu", id);
	WANT_PREFIX(w2, "INFO You are watching ", got);
	WANT_BOARD(w2, g.cells);
	WANT_PREFIX(w2, "TURN ", got);
	GAME_WATCHED(&g, "Someone");

	/* The watchers talk among themselves. */
	SEND(w2, "SAY who wins?");
	WANT_RAW(w2, E_NO_NAME);
	SEND(w1, "SAY alice, surely");
	WANT_RAW(w1, "OK SAY");
	WANT_RAW(w2, "CHAT wanda alice, surely");
	WANT_QUIET(w1);
	WANT_QUIET(g.p[0]);
	WANT_QUIET(g.p[1]);
	/* A player's chat reaches both watchers, as before. */
	SEND(g.p[0], "SAY thanks");
	WANT_RAW(g.p[0], "OK SAY");
	WANT_RAW(g.p[1], "CHAT alice thanks");
	WANT_RAW(w1, "CHAT alice thanks");
	WANT_RAW(w2, "CHAT alice thanks");

	/* bob's connection drops: his seat is held, and GAMES says so. */
	conn_close(g.p[1]);
	g.p[1] = NULL;
	WANT_RAW(g.p[0], "INFO bob lost the connection. Waiting up to 30 "
	    "seconds for them to come back.");
	WANT_PREFIX(w1, "INFO bob lost the connection.", got);
	WANT_PREFIX(w2, "INFO bob lost the connection.", got);
	assert_int_equal(games_at(__LINE__, w2, 4, lines), 1);
	snprintf(want, sizeof want, "GAME %lu alice bob 0 away=O", id);
	assert_string_equal(lines[0], want);

	/* wanda leaves, then the other one: alice is told each time. */
	SEND(w1, "UNWATCH");
	WANT_RAW(w1, "OK UNWATCH");
	WANT_RAW(w1, T_WAIT);
	WANT_RAW(g.p[0], "INFO wanda stopped watching.");
	SEND(w2, "QUIT");
	WANT_RAW(w2, T_BYE);
	WANT_RAW(g.p[0], "INFO Someone stopped watching.");
	e2e_stop(s, tp);
}

/*
 * §9.4: WATCH shows INFO, BOARD and TURN (the wait form), then streams
 * the match's BOARD, TURN, RESULT, START, CHAT and INFO lines but never
 * AGAIN?; a watcher cannot play, chat or answer; UNWATCH puts it in the
 * queue; when the match ends it is told and queued.
 *
 * Reading: when a player leaves after RESULT the watchers get "INFO Game
 * <id> is over." and WAIT; the remaining player's "INFO <name> left the
 * match." is tolerated before them (it is an INFO about a player).
 */
static void
test_social_watch_streams_match(void **state)
{
	struct e2e		*s = *state;
	struct tttd_proc	*tp = e2e_server(s, NULL);
	struct game		 g, g2;
	struct conn		*w, *w2;
	char			 got[LINE_SIZE], want[LINE_SIZE];
	unsigned long		 id;

	PAIR(s, tp, &g, "alice", "bob", 30);
	GAME_MOVE(&g, "B2");
	w = CONNECT(s, tp);
	SEND(w, "UNWATCH");
	WANT_RAW(w, E_NOT_WATCHING);
	SEND(w, "WATCH 999");
	WANT_RAW(w, E_NO_SUCH_GAME);
	SEND(w, "WATCH");
	WANT_RAW(w, E_NO_SUCH_GAME);
	id = GAME_ID(w, "alice", "bob");
	SEND(w, "watch %lu", id);
	WANT_RAW(w, "OK WATCH %lu", id);
	WANT_RAW(w, "INFO You are watching game %lu: alice (X) against bob "
	    "(O).", id);
	WANT_BOARD(w, g.cells);
	WANT_RAW(w, "TURN %c Waiting for %s to move...", game_mark(g.turn),
	    g.name[g.turn]);
	WANT_QUIET(w);
	GAME_WATCHED(&g, "Someone");
	assert_int_equal(STAT(w, "watchers"), 1);
	g.w[g.nw++] = w;

	/* Read-only; to chat with the other watchers it needs a name. */
	SEND(w, "MOVE a3");
	WANT_RAW(w, E_NO_GAME);
	SEND(w, "c3");
	WANT_RAW(w, E_NO_GAME);
	SEND(w, "SAY hi");
	WANT_RAW(w, E_NO_NAME);
	SEND(w, "RESIGN");
	WANT_RAW(w, E_NO_GAME);
	SEND(w, "AGAIN y");
	WANT_RAW(w, E_NOT_NOW);
	SEND(w, "n");
	WANT_RAW(w, E_NOT_NOW);
	/* BOARD: the board, and whose move it is, as WATCH gave them. */
	SEND(w, "BOARD");
	WANT_RAW(w, "OK BOARD");
	WANT_BOARD(w, g.cells);
	WANT_RAW(w, "TURN %c Waiting for %s to move...", game_mark(g.turn),
	    g.name[g.turn]);
	WANT_QUIET(w);
	WANT_QUIET(g.p[0]);
	WANT_QUIET(g.p[1]);

	/* Chat and renames reach the watcher. */
	SEND(g.p[0], "SAY hello watchers");
	WANT_RAW(g.p[0], "OK SAY");
	WANT_RAW(g.p[1], "CHAT alice hello watchers");
	WANT_RAW(w, "CHAT alice hello watchers");
	SEND(g.p[1], "NAME bobby");
	WANT_RAW(g.p[1], "OK NAME bobby");
	WANT_RAW(g.p[0], "INFO bob is now known as bobby.");
	WANT_RAW(w, "INFO bob is now known as bobby.");
	snprintf(g.name[1], sizeof g.name[1], "bobby");

	/* The rest of the game, the result, a rematch: never AGAIN?. */
	GAME_PLAY(&g, "A1 C1 B1 A3");
	SEND(w, "y");
	WANT_RAW(w, E_NOT_NOW);
	/* Watching between games: no TURN, as no game is on. */
	w2 = CONNECT(s, tp);
	SEND(w2, "WATCH %lu", id);
	WANT_RAW(w2, "OK WATCH %lu", id);
	WANT_RAW(w2, "INFO You are watching game %lu: alice (X) against "
	    "bobby (O).", id);
	WANT_BOARD(w2, g.cells);
	WANT_QUIET(w2);
	GAME_WATCHED(&g, "Someone");
	SEND(w2, "QUIT");
	WANT_RAW(w2, T_BYE);
	GAME_UNWATCHED(&g, "Someone");
	GAME_REMATCH(&g, 0, g.winner);
	GAME_MOVE(&g, "A1");

	/* UNWATCH: back to the queue; the players' lines stop. */
	SEND(w, "UNWATCH please");
	WANT_RAW(w, "OK UNWATCH");
	WANT_RAW(w, T_WAIT);
	GAME_UNWATCHED(&g, "Someone");
	SEND(w, "UNWATCH");
	WANT_RAW(w, E_NOT_WATCHING);
	SEND(w, "BOARD");
	WANT_RAW(w, E_NO_GAME);
	g.nw = 0;
	GAME_MOVE(&g, "B2");
	WANT_QUIET(w);

	/* Watch again; the match ends when bobby leaves after RESULT. */
	SEND(w, "WATCH %lu", id);
	WANT_RAW(w, "OK WATCH %lu", id);
	WANT_RAW(w, "INFO You are watching game %lu: alice (X) against "
	    "bobby (O).", id);
	WANT_BOARD(w, g.cells);
	WANT_RAW(w, "TURN %c Waiting for %s to move...", game_mark(g.turn),
	    g.name[g.turn]);
	GAME_WATCHED(&g, "Someone");
	g.w[g.nw++] = w;
	GAME_PLAY(&g, "A2 B1 A3");
	SEND(g.p[1], "n");
	WANT_RAW(g.p[1], "OK AGAIN n");
	WANT_RAW(g.p[1], T_BYE);
	WANT_RAW(g.p[0], "INFO bobby left the match.");
	WANT_PREFIX(w, "INFO ", got);
	if (strcmp(got, "INFO bobby left the match.") == 0)
		WANT_PREFIX(w, "INFO ", got);
	snprintf(want, sizeof want, "INFO Game %lu is over.", id);
	assert_string_equal(got, want);
	WANT_RAW(w, T_WATCH_OVER);
	assert_int_equal(STAT(w, "watchers"), 0);
	/* Not queued until it asks: then alice, answering yes, meets it. */
	SEND(w, "PLAY");
	WANT_RAW(w, "OK PLAY");
	WANT_RAW(w, T_WAIT);
	SEND(g.p[0], "y");
	WANT_RAW(g.p[0], "OK AGAIN y");
	WANT_RAW(g.p[0], T_WAIT);
	SOC_MATCH(&g2, w, g.p[0], "p1", "alice", 30);
	e2e_stop(s, tp);
}

/* A connection whose socket buffer is small, greeted. */
static struct conn *
connect_small(struct e2e *s, struct tttd_proc *tp)
{
	struct sockaddr_in	 sin;
	struct conn		*c = e2e_conn(s);
	int			 sz = 2048;

	c->fd = socket(AF_INET, SOCK_STREAM, 0);
	if (c->fd == -1)
		fail_msg("socket: %s", strerror(errno));
	setsockopt(c->fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof sz);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_port = htons((uint16_t)tp->port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (connect(c->fd, (struct sockaddr *)&sin, sizeof sin) == -1)
		fail_msg("connect: %s", strerror(errno));
	line_greeted_at(__LINE__, c);
	return (c);
}

/*
 * §9.4, §6.12: a watcher that never reads does not slow the players: they
 * play game after game at full speed, nobody is told anything, and the
 * watcher is closed once its output passes --max-output.
 *
 * The kernel holds a bounded send buffer for each socket besides (see
 * docs/operations.md), so some tens of games' lines fill both.
 */
static void
test_social_watcher_that_never_reads(void **state)
{
	static const char *const	 extra[] = {
		"--max-output", "2048", "--rate-limit", "0", NULL
	};
	struct e2e			*s = *state;
	struct tttd_proc		*tp = e2e_server(s, extra);
	struct game			 g;
	struct conn			*w;
	char				 got[LINE_SIZE], log[8192];
	const char			*bin = getenv("TTTD_BIN");
	unsigned long			 id;
	long				 t0, limit = 8000, watchers = 1;
	int				 games = 0;

	/* Under valgrind everything is some 20 times slower. */
	if (bin != NULL && strstr(bin, "valgrind") != NULL)
		limit *= 20;
	PAIR(s, tp, &g, "alice", "bob", 30);
	w = connect_small(s, tp);
	id = GAME_ID(w, "alice", "bob");
	SEND(w, "WATCH %lu", id);
	WANT_RAW(w, "OK WATCH %lu", id);
	GAME_WATCHED(&g, "Someone");
	/* From now on w reads nothing. */
	t0 = harness_now_ms();
	while (watchers != 0) {
		if (games == 600 || harness_now_ms() - t0 > limit)
			fail_msg("after %d games and %ld ms the watcher that "
			    "never reads is still there", games,
			    harness_now_ms() - t0);
		GAME_PLAY(&g, S_FIRST_WINS);
		games++;
		/* So many games log more than a pipe holds: drain it. */
		harness_log(tp, log, sizeof log);
		watchers = STAT(g.p[0], "watchers");
		GAME_REMATCH(&g, g.winner, g.winner);
	}
	/*
	 * The watcher's lines end in EOF (or a reset): what it was sent
	 * before the close, then nothing.  A read that stops for a timeout
	 * instead leaves the socket open, which conn_wait_closed sees.
	 */
	while (line_read(w, got, sizeof got, HARNESS_TIMEOUT_MS) != -1)
		;
	if (!conn_wait_closed(w, 200))
		fail_msg("the watcher that never reads was not closed");
	WANT_QUIET(g.p[0]);
	WANT_QUIET(g.p[1]);
	GAME_PLAY(&g, S_TIE);
	e2e_stop(s, tp);
}

/*
 * §9.5: the seat's RESUME on a new connection: OK RESUME, MATCH, BOARD +
 * art, TURN, then a fresh TOKEN.  Checks the player whose seat is resumed
 * (seat) while the game is on; returns the new connection.
 */
static struct conn *
resume_at(int ln, struct e2e *s, struct tttd_proc *tp, struct game *g,
    int seat, const char *spelling)
{
	struct conn	*n = e2e_connect_at(ln, s, tp);
	char		 tok[16], turn[LINE_SIZE];
	int		 i;

	line_send_at(ln, n, "RESUME %s", spelling);
	line_want_at(ln, 1, n, "OK RESUME");
	line_want_at(ln, 0, n, "MATCH %c %s You play %c against %s.",
	    game_mark(seat), g->name[!seat], game_mark(seat), g->name[!seat]);
	game_want_board_at(ln, n, g->cells);
	if (g->turn == seat)
		snprintf(turn, sizeof turn, "TURN %c " T_PROMPT,
		    game_mark(seat));
	else
		snprintf(turn, sizeof turn, "TURN %c Waiting for %s to "
		    "move...", game_mark(g->turn), g->name[g->turn]);
	line_want_at(ln, 0, n, "%s", turn);
	game_want_token_at(ln, n, g->grace, tok);
	if (strcmp(tok, g->token[seat]) == 0)
		fail_msg("line %d: RESUME gave the used token %s again", ln,
		    tok);
	snprintf(g->token[seat], sizeof g->token[seat], "%s", tok);
	line_want_at(ln, 0, g->p[!seat], "INFO %s is back.", g->name[seat]);
	for (i = 0; i < g->nw; i++)
		line_want_at(ln, 0, g->w[i], "INFO %s is back.", g->name[seat]);
	g->p[seat] = n;
	return (n);
}

/*
 * §9.5: TOKEN after MATCH; a lost connection keeps its seat (the other is
 * told, the match stays listed); RESUME in lower case without the dash and
 * in upper case with it; the opponent hears "is back"; the game goes on
 * to a RESULT; a token is BAD_TOKEN once the one given for it was used.
 */
static void
test_social_resume_after_drop(void **state)
{
	struct e2e		*s = *state;
	struct tttd_proc	*tp = e2e_server(s, NULL);
	struct game		 g;
	struct conn		*q, *w;
	char			 old[16], old2[16], got[LINE_SIZE];
	unsigned long		 id;

	PAIR(s, tp, &g, "alice", "bob", 30);
	GAME_MOVE(&g, "B2");
	id = GAME_ID(g.p[0], "alice", "bob");
	w = CONNECT(s, tp);
	SEND(w, "WATCH %lu", id);
	WANT_RAW(w, "OK WATCH %lu", id);
	WANT_PREFIX(w, "INFO You are watching ", got);
	WANT_BOARD(w, g.cells);
	WANT_PREFIX(w, "TURN ", got);
	GAME_WATCHED(&g, "Someone");
	g.w[g.nw++] = w;
	snprintf(old, sizeof old, "%s", g.token[1]);
	conn_close(g.p[1]);
	WANT_RAW(g.p[0], "INFO bob lost the connection. Waiting up to 30 "
	    "seconds for them to come back.");
	WANT_RAW(w, "INFO bob lost the connection. Waiting up to 30 "
	    "seconds for them to come back.");
	assert_int_equal(STAT(g.p[0], "players_away"), 1);
	assert_true(GAME_ID(g.p[0], "alice", "bob") == id);
	resume_at(__LINE__, s, tp, &g, 1, token_plain(old));
	assert_int_equal(STAT(g.p[0], "players_away"), 0);
	GAME_MOVE(&g, "A1");

	/* Again, the other way of typing it. */
	snprintf(old2, sizeof old2, "%s", g.token[1]);
	conn_close(g.p[1]);
	WANT_RAW(g.p[0], "INFO bob lost the connection. Waiting up to 30 "
	    "seconds for them to come back.");
	WANT_RAW(w, "INFO bob lost the connection. Waiting up to 30 "
	    "seconds for them to come back.");
	resume_at(__LINE__, s, tp, &g, 1, old2);
	GAME_PLAY(&g, "C1 B1 A3");

	/*
	 * The first token is gone, in any spelling: the one given for it
	 * (old2) was used.
	 */
	q = CONNECT(s, tp);
	SEND(q, "RESUME %s", old);
	WANT_RAW(q, E_BAD_TOKEN);
	SEND(q, "RESUME %s", lower(old));
	WANT_RAW(q, E_BAD_TOKEN);
	WANT_QUIET(g.p[0]);
	WANT_QUIET(g.p[1]);
	assert_int_equal(STAT(q, "resumes"), 2);
	e2e_stop(s, tp);
}

/*
 * §9.5: resuming after RESULT: AGAIN? when the question is still open,
 * WAIT for the opponent's answer when it was answered yes.
 */
static void
test_social_resume_after_result(void **state)
{
	struct e2e		*s = *state;
	struct tttd_proc	*tp = e2e_server(s, NULL);
	struct game		 g;
	struct conn		*n;
	char			 tok[16];

	PAIR(s, tp, &g, "alice", "bob", 30);
	GAME_PLAY(&g, S_FIRST_WINS);
	/* bob answered yes, then dropped. */
	SEND(g.p[1], "y");
	WANT_RAW(g.p[1], "OK AGAIN y");
	WANT_RAW(g.p[1], "WAIT Waiting for alice to answer...");
	conn_close(g.p[1]);
	WANT_RAW(g.p[0], "INFO bob lost the connection. Waiting up to 30 "
	    "seconds for them to come back.");
	n = CONNECT(s, tp);
	SEND(n, "RESUME %s", g.token[1]);
	WANT_RAW(n, "OK RESUME");
	WANT_RAW(n, "MATCH O alice You play O against alice.");
	WANT_BOARD(n, g.cells);
	WANT_RAW(n, "WAIT Waiting for alice to answer...");
	WANT_TOKEN(n, 30, tok);
	WANT_RAW(g.p[0], "INFO bob is back.");
	g.p[1] = n;
	snprintf(g.token[1], sizeof g.token[1], "%s", tok);

	/* alice drops before answering: her question is still open. */
	conn_close(g.p[0]);
	WANT_RAW(g.p[1], "INFO alice lost the connection. Waiting up to 30 "
	    "seconds for them to come back.");
	n = CONNECT(s, tp);
	SEND(n, "RESUME %s", g.token[0]);
	WANT_RAW(n, "OK RESUME");
	WANT_RAW(n, "MATCH X bob You play X against bob.");
	WANT_BOARD(n, g.cells);
	WANT_RAW(n, T_AGAIN);
	WANT_TOKEN(n, 30, tok);
	WANT_RAW(g.p[1], "INFO alice is back.");
	g.p[0] = n;
	SEND(n, "y");
	WANT_RAW(n, "OK AGAIN y");
	GAME_START(&g, g.winner);
	e2e_stop(s, tp);
}

/*
 * §9.5: when the grace period runs out: during a game a forfeit (lost the
 * connection), after RESULT "left the match"; the token is then dead.
 */
static void
test_social_resume_grace_expires(void **state)
{
	static const char *const	 extra[] = { "--resume-grace", "2",
		NULL };
	struct e2e			*s = *state;
	struct tttd_proc		*tp = e2e_server(s, extra);
	struct game			 g, h;
	struct conn			*q;
	char				 tok[16];
	long				 t0, dt;

	PAIR(s, tp, &g, NULL, NULL, 2);
	GAME_MOVE(&g, "B2");
	GAME_MOVE(&g, "A1");
	snprintf(tok, sizeof tok, "%s", g.token[1]);
	conn_close(g.p[1]);
	t0 = harness_now_ms();
	WANT_RAW(g.p[0], "INFO p2 lost the connection. Waiting up to 2 "
	    "seconds for them to come back.");
	WANT_QUIET_MS(g.p[0], 1500);
	WANT_RAW(g.p[0], "RESULT FORFEIT X p1 p2 lost the connection. p1 "
	    "wins!");
	dt = harness_now_ms() - t0;
	if (dt < 1800 || dt > 4000)
		fail_msg("a 2 s grace ran out after %ld ms", dt);
	g.score[0]++;
	GAME_SCORE(&g, g.p[0]);
	WANT_RAW(g.p[0], T_AGAIN);
	q = CONNECT(s, tp);
	SEND(q, "RESUME %s", tok);
	WANT_RAW(q, E_BAD_TOKEN);
	SEND(q, "QUIT");
	WANT_RAW(q, T_BYE);
	SEND(g.p[0], "n");
	WANT_RAW(g.p[0], "OK AGAIN n");
	WANT_RAW(g.p[0], T_BYE);

	/* After RESULT: the one who said yes is told, then requeued. */
	PAIR(s, tp, &h, NULL, NULL, 2);
	GAME_PLAY(&h, S_FIRST_WINS);
	SEND(h.p[0], "y");
	WANT_RAW(h.p[0], "OK AGAIN y");
	WANT_RAW(h.p[0], "WAIT Waiting for p2 to answer...");
	conn_close(h.p[1]);
	WANT_RAW(h.p[0], "INFO p2 lost the connection. Waiting up to 2 "
	    "seconds for them to come back.");
	WANT_QUIET_MS(h.p[0], 1500);
	WANT_RAW(h.p[0], "INFO p2 left the match.");
	WANT_RAW(h.p[0], T_WAIT);
	e2e_stop(s, tp);
}

/* §9.5: QUIT leaves at once, with no grace; its token is dead. */
static void
test_social_quit_skips_grace(void **state)
{
	struct e2e		*s = *state;
	struct tttd_proc	*tp = e2e_server(s, NULL);
	struct game		 g;
	struct conn		*q;
	long			 t0;

	PAIR(s, tp, &g, NULL, NULL, 30);
	/* Both have moved: QUIT is a forfeit, not an abort. */
	GAME_MOVE(&g, "B2");
	GAME_MOVE(&g, "A1");
	t0 = harness_now_ms();
	SEND(g.p[1], "QUIT");
	WANT_RAW(g.p[1], T_BYE);
	WANT_EOF(g.p[1]);
	WANT_RAW(g.p[0], "RESULT FORFEIT X p1 p2 quit the game. p1 wins!");
	g.score[0]++;
	GAME_SCORE(&g, g.p[0]);
	WANT_RAW(g.p[0], T_AGAIN);
	if (harness_now_ms() - t0 > 1000)
		fail_msg("QUIT took %ld ms to forfeit", harness_now_ms() - t0);
	q = CONNECT(s, tp);
	SEND(q, "RESUME %s", g.token[1]);
	WANT_RAW(q, E_BAD_TOKEN);
	assert_int_equal(STAT(q, "players_away"), 0);
	e2e_stop(s, tp);
}

/*
 * §9.5: --resume-grace 0: no TOKEN lines, and a drop forfeits at once.
 *
 * Reading: the one who drops has not moved yet, and that is still a
 * forfeit, not an abort: §9.2 aborts by "the five commands above or by
 * QUIT", and a lost connection is neither.
 */
static void
test_social_grace_zero(void **state)
{
	static const char *const	 extra[] = { "--resume-grace", "0",
		NULL };
	struct e2e			*s = *state;
	struct tttd_proc		*tp = e2e_server(s, extra);
	struct game			 g;
	struct conn			*c;
	char				 got[LINE_SIZE];
	long				 t0;
	int				 dropper;

	/* PAIR with grace -1 insists that START follows MATCH directly. */
	PAIR(s, tp, &g, NULL, NULL, -1);
	dropper = !g.turn;
	GAME_MOVE(&g, "B2");
	t0 = harness_now_ms();
	conn_close(g.p[dropper]);
	WANT_RAW(g.p[!dropper], "RESULT FORFEIT %c %s %s lost the connection. "
	    "%s wins!", game_mark(!dropper), g.name[!dropper], g.name[dropper],
	    g.name[!dropper]);
	g.score[!dropper]++;
	GAME_SCORE(&g, g.p[!dropper]);
	WANT_RAW(g.p[!dropper], T_AGAIN);
	assert_int_equal(STAT(g.p[!dropper], "aborts"), 0);
	if (harness_now_ms() - t0 > 1000)
		fail_msg("the drop took %ld ms to forfeit",
		    harness_now_ms() - t0);
	/* The computer's match has no TOKEN either. */
	c = CONNECT(s, tp);
	SEND(c, "PLAY AI");
	WANT_RAW(c, "OK PLAY AI perfect");
	WANT_RAW(c, "MATCH X ai You play X against ai.");
	WANT_PREFIX(c, "START ", got);
	e2e_stop(s, tp);
}

/*
 * §9.5: RESUME with the token of a seat still connected takes it over:
 * the old connection gets BYE and is closed; the opponent only hears
 * "is back".
 */
static void
test_social_resume_takes_over(void **state)
{
	struct e2e		*s = *state;
	struct tttd_proc	*tp = e2e_server(s, NULL);
	struct game		 g;
	struct conn		*old;

	PAIR(s, tp, &g, "alice", "bob", 30);
	GAME_MOVE(&g, "B2");
	old = g.p[1];
	resume_at(__LINE__, s, tp, &g, 1, g.token[1]);
	WANT_RAW(old, T_TAKEN_OVER);
	WANT_EOF(old);
	WANT_QUIET(g.p[0]);
	GAME_PLAY(&g, "A1 C1 B1 A3");
	e2e_stop(s, tp);
}

/*
 * §9.5: the absent player's turn clock is paused.  bob's turn: bob drops
 * at once and stays away longer than the whole turn time, then resumes;
 * he has not lost.  His clock then goes on from where it stopped, so he
 * runs out of time about a turn time after resuming, not at once.
 */
static void
test_social_turn_clock_paused_while_away(void **state)
{
	static const char *const	 extra[] = { "--turn-timeout", "1.5",
		"--resume-grace", "5", NULL };
	struct e2e			*s = *state;
	struct tttd_proc		*tp = e2e_server(s, extra);
	struct game			 g;
	struct conn			*n;
	char				 got[LINE_SIZE];
	int				 bob;
	long				 t0, dt;

	PAIR(s, tp, &g, "alice", "bob", 5);
	/* Make it bob's turn, whoever started. */
	bob = 1;
	if (g.turn == 0)
		GAME_MOVE(&g, "B2");
	conn_close(g.p[bob]);
	WANT_RAW(g.p[0], "INFO bob lost the connection. Waiting up to 5 "
	    "seconds for them to come back.");
	/* 2.2 s away: longer than the 1.5 s turn. */
	WANT_QUIET_MS(g.p[0], 2200);
	n = resume_at(__LINE__, s, tp, &g, bob, g.token[bob]);
	t0 = harness_now_ms();
	/* The warning at two thirds may come first. */
	WANT_PREFIX(n, "", got);
	if (strncmp(got, "INFO You have ", 14) == 0)
		WANT_PREFIX(n, "", got);
	if (strcmp(got, T_RAN_OUT) != 0)
		fail_msg("expected \"%s\", got \"%s\"", T_RAN_OUT, got);
	dt = harness_now_ms() - t0;
	if (dt < 900 || dt > 3000)
		fail_msg("the resumed turn ran out after %ld ms, wanted about "
		    "1500", dt);
	WANT_RAW(g.p[0], T_RAN_OUT);
	WANT_RAW(g.p[0], "INFO Score: alice 1, bob 0, ties 0.");
	WANT_RAW(g.p[0], T_AGAIN);
	WANT_RAW(n, "INFO Score: alice 1, bob 0, ties 0.");
	WANT_RAW(n, T_AGAIN);
	e2e_stop(s, tp);
}

/*
 * bob (seat 1) leaves his clock running and comes back again and again:
 * each time he drops (or, takeover, leaves his old connection attached),
 * stays away 1.2 s, less than the grace period, and resumes for a moment
 * with his latest token.  Returns when alice reads a line that starts
 * with end; fails if 8 returns (about 10 s) go by first.
 */
static void
stall_at(int ln, struct e2e *s, struct tttd_proc *tp, struct game *g,
    const char *end, int takeover)
{
	struct conn	*n = g->p[1];
	char		 got[LINE_SIZE], tok[16];
	int		 cycle;

	snprintf(tok, sizeof tok, "%s", g->token[1]);
	for (cycle = 0; cycle < 8; cycle++) {
		if (!takeover) {
			conn_close(n);
			line_want_prefix_at(ln, g->p[0], "", got, sizeof got);
			if (strncmp(got, end, strlen(end)) == 0)
				return;
			if (strncmp(got, "INFO bob lost the connection.", 29) !=
			    0)
				fail_msg("line %d: cycle %d: got \"%s\"", ln,
				    cycle, got);
		}
		if (line_read_event(g->p[0], got, sizeof got, 1200) >= 0) {
			if (strncmp(got, end, strlen(end)) != 0)
				fail_msg("line %d: cycle %d: got \"%s\"", ln,
				    cycle, got);
			return;
		}
		n = e2e_connect_at(ln, s, tp);
		line_send_at(ln, n, "RESUME %s", tok);
		line_want_prefix_at(ln, n, "", got, sizeof got);
		if (strcmp(got, "OK RESUME") != 0) {	/* too late */
			line_want_prefix_at(ln, g->p[0], end, NULL, 0);
			return;
		}
		while (line_read(n, got, sizeof got, HARNESS_TIMEOUT_MS) > 0 &&
		    strncmp(got, "TOKEN ", 6) != 0)
			;
		snprintf(tok, sizeof tok, "%.9s", got + 6);
		line_want_at(ln, 1, g->p[0], "INFO bob is back.");
	}
	fail_msg("line %d: still on after %d returns", ln, cycle);
}

/* The clock ran out within t ms of t0: its time, one grace, some slack. */
static void
stall_ended_at(int ln, long t0, long t)
{
	long	dt = harness_now_ms() - t0;

	if (dt > t + 2000)
		fail_msg("line %d: it ended %ld ms after its clock began, "
		    "wanted at most %ld (and some slack)", ln, dt, t);
}

/*
 * §9.5: going away and coming back does not stop the clock.  The mover
 * drops, resumes and drops again and again, each time away for less than
 * the grace period and back for a moment only: the game still ends within
 * the turn time and one grace period of the last move (before, the paused
 * turn was restored each time, and the game went on without a move).
 */
static void
test_social_clock_not_stalled_by_resume(void **state)
{
	static const char *const	 extra[] = { "--turn-timeout", "3",
		"--resume-grace", "2", NULL };
	struct e2e			*s = *state;
	struct tttd_proc		*tp = e2e_server(s, extra);
	struct game			 g;
	long				 t0;

	PAIR(s, tp, &g, "alice", "bob", 2);
	if (g.turn == 0)
		GAME_MOVE(&g, "B2");
	t0 = harness_now_ms();		/* bob's turn from here */
	stall_at(__LINE__, s, tp, &g, "RESULT FORFEIT X alice bob ", 0);
	stall_ended_at(__LINE__, t0, 3000 + 2000);
	g.score[0]++;
	GAME_SCORE(&g, g.p[0]);
	WANT_RAW(g.p[0], T_AGAIN);
	e2e_stop(s, tp);
}

/* alice answers yes to AGAIN?; bob leaves his question open. */
static long
again_asked_at(int ln, struct e2e *s, struct tttd_proc *tp, struct game *g)
{
	long	t0;

	pair_at(ln, s, tp, g, "alice", "bob", 2);
	game_play_at(ln, g, S_FIRST_WINS);
	t0 = harness_now_ms();
	line_send_at(ln, g->p[0], "AGAIN y");
	line_want_at(ln, 1, g->p[0], "OK AGAIN y");
	line_want_at(ln, 1, g->p[0], "WAIT Waiting for bob to answer...");
	return (t0);
}

/*
 * §9.5: the same for AGAIN?: bob leaves the question open and drops and
 * resumes again and again; it still ends within its time and one grace
 * period of being asked (before, it began again in full at each return).
 */
static void
test_social_again_not_stalled_by_resume(void **state)
{
	static const char *const	 extra[] = { "--again-timeout", "3",
		"--resume-grace", "2", NULL };
	struct e2e			*s = *state;
	struct tttd_proc		*tp = e2e_server(s, extra);
	struct game			 g;
	long				 t0 = again_asked_at(__LINE__, s, tp, &g);

	stall_at(__LINE__, s, tp, &g, "INFO bob left the match.", 0);
	stall_ended_at(__LINE__, t0, 3000 + 2000);
	WANT_RAW(g.p[0], T_WAIT);
	e2e_stop(s, tp);
}

/*
 * §9.5: nor by takeovers: bob leaves AGAIN? open and takes his seat over
 * from a new connection again and again, the old one still attached; the
 * question still ends within its time and one grace period.
 */
static void
test_social_again_not_stalled_by_takeover(void **state)
{
	static const char *const	 extra[] = { "--again-timeout", "3",
		"--resume-grace", "2", NULL };
	struct e2e			*s = *state;
	struct tttd_proc		*tp = e2e_server(s, extra);
	struct game			 g;
	long				 t0 = again_asked_at(__LINE__, s, tp, &g);

	stall_at(__LINE__, s, tp, &g, "INFO bob left the match.", 1);
	stall_ended_at(__LINE__, t0, 3000 + 2000);
	e2e_stop(s, tp);
}

/*
 * §3.7: at an open AGAIN?, a bare word that is no command ("maybe") gets
 * the error that says to answer y or n, and changes nothing; more words,
 * or the same word during a game, are an unknown command.
 */
static void
test_social_again_bare_word(void **state)
{
	struct e2e		*s = *state;
	struct tttd_proc	*tp = e2e_server(s, NULL);
	struct game		 g;

	PAIR(s, tp, &g, "alice", "bob", 30);
	SEND(g.p[0], "maybe");
	WANT_RAW(g.p[0], E_UNKNOWN);
	GAME_PLAY(&g, S_FIRST_WINS);
	SEND(g.p[0], "maybe");
	WANT_RAW(g.p[0], E_BAD_ANSWER);
	SEND(g.p[0], " Perhaps ");
	WANT_RAW(g.p[0], E_BAD_ANSWER);
	SEND(g.p[0], "maybe not");
	WANT_RAW(g.p[0], E_UNKNOWN);
	WANT_QUIET(g.p[1]);
	GAME_REMATCH(&g, g.winner, g.winner);
	e2e_stop(s, tp);
}

/*
 * §9.5: a RESUME whose reply is lost: the client never read its new
 * TOKEN, and comes back with the token it used, which still works until
 * the new one is used; then it is gone.
 */
static void
test_social_resume_reply_lost(void **state)
{
	struct e2e		*s = *state;
	struct tttd_proc	*tp = e2e_server(s, NULL);
	struct game		 g;
	struct conn		*n, *q;
	char			 first[16], second[16];

	PAIR(s, tp, &g, "alice", "bob", 30);
	GAME_MOVE(&g, "B2");
	snprintf(first, sizeof first, "%s", g.token[1]);
	conn_close(g.p[1]);
	WANT_RAW(g.p[0], "INFO bob lost the connection. Waiting up to 30 "
	    "seconds for them to come back.");
	n = CONNECT(s, tp);
	SEND(n, "RESUME %s", first);
	WANT_RAW(n, "OK RESUME");
	WANT_RAW(g.p[0], "INFO bob is back.");
	conn_close(n);			/* gone before its TOKEN was read */
	WANT_RAW(g.p[0], "INFO bob lost the connection. Waiting up to 30 "
	    "seconds for them to come back.");
	resume_at(__LINE__, s, tp, &g, 1, first);
	GAME_MOVE(&g, "A1");
	snprintf(second, sizeof second, "%s", g.token[1]);
	conn_close(g.p[1]);
	WANT_RAW(g.p[0], "INFO bob lost the connection. Waiting up to 30 "
	    "seconds for them to come back.");
	resume_at(__LINE__, s, tp, &g, 1, second);
	/* second was used: first, the token before it, is gone. */
	q = CONNECT(s, tp);
	SEND(q, "RESUME %s", first);
	WANT_RAW(q, E_BAD_TOKEN);
	WANT_QUIET(g.p[0]);
	WANT_QUIET(g.p[1]);
	GAME_MOVE(&g, "C1");
	e2e_stop(s, tp);
}

/*
 * §9.5: a player who comes back while its opponent is away too is told
 * so, with the time the opponent has left; the opponent's return is
 * announced to it.
 */
static void
test_social_resume_to_empty_table(void **state)
{
	struct e2e		*s = *state;
	struct tttd_proc	*tp = e2e_server(s, NULL);
	struct game		 g;
	struct conn		*a, *b;
	char			 got[LINE_SIZE];
	long			 secs;

	PAIR(s, tp, &g, "alice", "bob", 30);
	GAME_MOVE(&g, "B2");
	conn_close(g.p[0]);
	WANT_RAW(g.p[1], "INFO alice lost the connection. Waiting up to 30 "
	    "seconds for them to come back.");
	conn_close(g.p[1]);
	a = CONNECT(s, tp);
	SEND(a, "RESUME %s", g.token[0]);
	WANT_RAW(a, "OK RESUME");
	WANT_PREFIX(a, "MATCH X bob ", got);
	game_want_board_at(__LINE__, a, g.cells);
	WANT_PREFIX(a, "TURN ", got);
	WANT_PREFIX(a, "TOKEN ", got);
	WANT_PREFIX(a, "INFO bob lost the connection. Waiting up to ", got);
	secs = strtol(got + strlen("INFO bob lost the connection. Waiting up "
	    "to "), NULL, 10);
	if (secs < 1 || secs > 30)
		fail_msg("bob's time left: \"%s\"", got);
	b = CONNECT(s, tp);
	SEND(b, "RESUME %s", g.token[1]);
	WANT_RAW(b, "OK RESUME");
	WANT_RAW(a, "INFO bob is back.");
	e2e_stop(s, tp);
}

/* A connection from the source address src (one of 127/8), greeted. */
static struct conn *
connect_from_at(int ln, struct e2e *s, struct tttd_proc *tp, const char *src)
{
	struct conn	*c = e2e_conn(s);

	if (conn_open_from(c, tp->port, src, HARNESS_TIMEOUT_MS) != 0 ||
	    fcntl(c->fd, F_SETFL, 0) == -1)
		fail_msg("line %d: cannot connect from %s: %s", ln, src,
		    strerror(errno));
	line_greeted_at(ln, c);
	return (c);
}

/*
 * §9.3: wrong ROOM JOIN codes are limited per address, as wrong tokens
 * are: 5, then RATE_LIMITED, the right code too (it is not looked at);
 * another address joins with it.
 */
static void
test_social_room_guesses_limited(void **state)
{
	struct e2e		*s = *state;
	struct tttd_proc	*tp = e2e_server(s, NULL);
	struct game		 g;
	struct conn		*a, *q, *b;
	char			 code[CODE_SIZE];
	int			 i;

	a = CONNECT(s, tp);
	SEND(a, "ROOM NEW");
	WANT_CODE(a, code);
	WANT_RAW(a, "WAIT Waiting for a friend to join room %s...", code);
	q = CONNECT(s, tp);
	for (i = 0; i < 5; i++) {
		SEND(q, "ROOM JOIN 2222-222%d", i + 2);
		WANT_RAW(q, E_NO_ROOM);
	}
	SEND(q, "ROOM JOIN 2222-2227");
	WANT_RAW(q, E_RATE_LIMITED);
	SEND(q, "ROOM JOIN %s", code);
	WANT_RAW(q, E_RATE_LIMITED);
	SEND(q, "QUIT");		/* out of the queue */
	WANT_RAW(q, T_BYE);
	WANT_QUIET(a);
	/* The room is still open, for whoever has its code elsewhere. */
	b = connect_from_at(__LINE__, s, tp, "127.0.0.2");
	SEND(b, "ROOM JOIN %s", lower(code));
	WANT_RAW(b, "OK ROOM %s", code);
	SOC_MATCH(&g, a, b, "p1", "p2", 30);
	e2e_stop(s, tp);
}

/*
 * §9.5: a right token is never refused for others' guessing.  Wrong
 * tokens from 200 addresses use up the allowance of all guessers
 * together (1,000); their next tries are RATE_LIMITED; bob, whose
 * address never guessed, resumes all the same.
 */
static void
test_social_right_token_despite_guessers(void **state)
{
	struct e2e		*s = *state;
	struct tttd_proc	*tp = e2e_server(s, NULL);
	struct game		 g;
	struct conn		*q;
	char			 src[24];
	int			 i, j;

	PAIR(s, tp, &g, "alice", "bob", 30);
	GAME_MOVE(&g, "B2");
	for (i = 0; i < 200; i++) {
		snprintf(src, sizeof src, "127.88.%d.%d", i / 100, i % 100 + 1);
		q = connect_from_at(__LINE__, s, tp, src);
		for (j = 0; j < 5; j++) {
			SEND(q, "RESUME 2222-%04d", 2222 + j);
			WANT_RAW(q, E_BAD_TOKEN);
		}
		conn_close(q);
		free(q);			/* its slot, for the next */
		s->conns[--s->nconns] = NULL;
	}
	q = connect_from_at(__LINE__, s, tp, "127.88.0.1");
	SEND(q, "RESUME 2222-2222");
	WANT_RAW(q, E_RATE_LIMITED);
	SEND(q, "QUIT");		/* out of the queue */
	WANT_RAW(q, T_BYE);
	conn_close(g.p[1]);
	WANT_RAW(g.p[0], "INFO bob lost the connection. Waiting up to 30 "
	    "seconds for them to come back.");
	q = connect_from_at(__LINE__, s, tp, "127.89.0.1");
	SEND(q, "RESUME %s", g.token[1]);
	WANT_RAW(q, "OK RESUME");
	WANT_RAW(g.p[0], "INFO bob is back.");
	e2e_stop(s, tp);
}

/*
 * §3.4: one name, one connected player, in any case; nobody takes a
 * seat's name (p1, p2, ai); a lost player's seat keeps its name; a name
 * is free again once its player has gone.
 */
static void
test_social_names_unique(void **state)
{
	static const char *const	 taken[] = { "BOB", "bob", "p1", "P2",
		"ai", "AI" };
	struct e2e			*s = *state;
	struct tttd_proc		*tp = e2e_server(s, NULL);
	struct game			 g;
	struct conn			*q, *r;
	char				 got[LINE_SIZE];
	size_t				 i;

	PAIR(s, tp, &g, "alice", "bob", 30);
	q = CONNECT(s, tp);
	SEND(q, "ROOM NEW");		/* out of the queue */
	WANT_PREFIX(q, "OK ROOM ", got);
	WANT_PREFIX(q, "WAIT ", got);
	for (i = 0; i < sizeof taken / sizeof taken[0]; i++) {
		SEND(q, "NAME %s", taken[i]);
		WANT_RAW(q, E_NAME_TAKEN);
	}
	SEND(q, "NAME Alicia");
	WANT_RAW(q, "OK NAME Alicia");
	SEND(q, "NAME alicia");		/* its own, in another case */
	WANT_RAW(q, "OK NAME alicia");
	/* bob is away: his seat keeps his name. */
	conn_close(g.p[1]);
	WANT_RAW(g.p[0], "INFO bob lost the connection. Waiting up to 30 "
	    "seconds for them to come back.");
	SEND(q, "NAME Bob");
	WANT_RAW(q, E_NAME_TAKEN);
	resume_at(__LINE__, s, tp, &g, 1, g.token[1]);
	SEND(q, "NAME bob");
	WANT_RAW(q, E_NAME_TAKEN);
	/* Everyone goes: alice's name is free. */
	SEND(q, "QUIT");
	WANT_RAW(q, T_BYE);
	SEND(g.p[1], "QUIT");
	WANT_RAW(g.p[1], T_BYE);
	SEND(g.p[0], "QUIT");
	while (line_read(g.p[0], got, sizeof got, HARNESS_TIMEOUT_MS) >= 0 &&
	    strcmp(got, T_BYE) != 0)
		;
	r = CONNECT(s, tp);
	SEND(r, "NAME ALICE");
	WANT_RAW(r, "OK NAME ALICE");
	e2e_stop(s, tp);
}

/*
 * §9.8: renames others are told of are limited as SAY is, on a window of
 * their own: 3 in any 10 s (bob's first is his NAME bob, right after the
 * pairing); the 4th is RATE_LIMITED and nobody hears of it; SAY still
 * has its own 5.
 */
static void
test_social_renames_limited(void **state)
{
	struct e2e		*s = *state;
	struct tttd_proc	*tp = e2e_server(s, NULL);
	struct game		 g;
	int			 i;

	PAIR(s, tp, &g, "alice", "bob", 30);
	SEND(g.p[1], "NAME bob1");
	WANT_RAW(g.p[1], "OK NAME bob1");
	WANT_RAW(g.p[0], "INFO bob is now known as bob1.");
	SEND(g.p[1], "NAME bob2");
	WANT_RAW(g.p[1], "OK NAME bob2");
	WANT_RAW(g.p[0], "INFO bob1 is now known as bob2.");
	SEND(g.p[1], "NAME bob3");
	WANT_RAW(g.p[1], E_RATE_LIMITED);
	WANT_QUIET(g.p[0]);
	SEND(g.p[1], "NAME bob2");	/* no change: nobody is told */
	WANT_RAW(g.p[1], "OK NAME bob2");
	for (i = 1; i <= 5; i++) {
		SEND(g.p[1], "SAY hi %d", i);
		WANT_RAW(g.p[1], "OK SAY");
		WANT_RAW(g.p[0], "CHAT bob2 hi %d", i);
	}
	WANT_QUIET(g.p[0]);
	e2e_stop(s, tp);
}

/*
 * §9.4: a match takes --max-watchers watchers at most; one more gets
 * WATCHERS_FULL and stays where it was; once one leaves, it may watch.
 */
static void
test_social_watchers_capped(void **state)
{
	static const char *const	 extra[] = { "--max-watchers", "2",
		NULL };
	struct e2e			*s = *state;
	struct tttd_proc		*tp = e2e_server(s, extra);
	struct game			 g;
	struct conn			*w[3];
	char				 got[LINE_SIZE];
	unsigned long			 id;
	int				 i;

	PAIR(s, tp, &g, "alice", "bob", 30);
	id = GAME_ID(g.p[0], "alice", "bob");
	for (i = 0; i < 3; i++) {
		w[i] = CONNECT(s, tp);
		SEND(w[i], "ROOM NEW");		/* out of the queue */
		WANT_PREFIX(w[i], "OK ROOM ", got);
		WANT_PREFIX(w[i], "WAIT ", got);
	}
	for (i = 0; i < 2; i++) {
		SEND(w[i], "WATCH %lu", id);
		WANT_RAW(w[i], "OK WATCH %lu", id);
		WANT_PREFIX(w[i], "INFO You are watching ", got);
		WANT_BOARD(w[i], g.cells);
		WANT_PREFIX(w[i], "TURN ", got);
	}
	SEND(w[2], "WATCH %lu", id);
	WANT_RAW(w[2], E_WATCHERS_FULL);
	assert_int_equal(STAT(w[2], "watchers"), 2);
	assert_int_equal(STAT(w[2], "rooms_open"), 1);	/* its room stays */
	SEND(w[0], "QUIT");
	WANT_RAW(w[0], T_BYE);
	SEND(w[2], "WATCH %lu", id);
	WANT_RAW(w[2], "OK WATCH %lu", id);
	WANT_PREFIX(w[2], "INFO You are watching ", got);
	e2e_stop(s, tp);
}

/*
 * §9.5: RESUME attempts per address: 5 at once, then one every 10 s; the
 * 6th is RATE_LIMITED even with a live token, which is not looked at.
 */
static void
test_social_resume_rate_limited(void **state)
{
	struct e2e		*s = *state;
	struct tttd_proc	*tp = e2e_server(s, NULL);
	struct game		 g;
	struct conn		*a, *b;
	int			 i;

	PAIR(s, tp, &g, NULL, NULL, 30);
	a = CONNECT(s, tp);
	for (i = 0; i < 3; i++) {
		SEND(a, "RESUME 2222-333%d", i + 2);
		WANT_RAW(a, E_BAD_TOKEN);
	}
	SEND(a, "QUIT");
	WANT_RAW(a, T_BYE);
	b = CONNECT(s, tp);
	for (i = 0; i < 2; i++) {
		SEND(b, "RESUME 4444-555%d", i + 2);
		WANT_RAW(b, E_BAD_TOKEN);
	}
	SEND(b, "RESUME %s", g.token[1]);
	WANT_RAW(b, E_RATE_LIMITED);
	/* The seat was not taken over; b is still queued and usable. */
	WANT_QUIET(g.p[1]);
	WANT_QUIET(g.p[0]);
	SEND(b, "PING");
	WANT_RAW(b, "OK PONG");
	GAME_MOVE(&g, "B2");
	e2e_stop(s, tp);
}

/*
 * §9.6: PLAY AI is perfect: 20 games of random moves never beat it; a yes
 * starts the next game at once, the winner (or the coin) starting; the
 * match is listed.
 */
static void
test_social_ai_perfect_never_loses(void **state)
{
	static const char *const	 extra[] = { "--seed", "11", NULL };
	struct e2e			*s = *state;
	struct tttd_proc		*tp = e2e_server(s, extra);
	struct conn			*c, *o;
	char				 got[LINE_SIZE];
	uint32_t			 rng = 0x9e3779b9u;
	int				 i, r, first = -1, won[3] = { 0, 0, 0 };

	c = CONNECT(s, tp);
	SEND(c, "NAME hum");
	WANT_RAW(c, "OK NAME hum");
	AI_PLAY(c, "PLAY AI", "perfect");
	for (i = 0; i < 20; i++) {
		r = AI_GAME(c, "hum", first, 0, &rng);
		if (r == 'X')
			fail_msg("game %d: the perfect computer lost", i + 1);
		won[r == 'O' ? 1 : 2]++;
		first = r == 'O' ? 1 : -1;
		if (i == 0) {
			o = CONNECT(s, tp);
			SEND(o, "GAMES");
			WANT_RAW(o, "OK GAMES 1");
			WANT_PREFIX(o, "GAME ", got);
			if (strstr(got, " hum ai ") == NULL)
				fail_msg("listed as \"%s\"", got);
			SEND(o, "QUIT");
			WANT_RAW(o, T_BYE);
		}
		if (i == 19)
			break;
		SEND(c, "AGAIN y");
		WANT_RAW(c, "OK AGAIN y");
	}
	/* Random moves against minimax lose some games. */
	if (won[1] == 0)
		fail_msg("the computer won none of 20 games of random moves");
	SEND(c, "AGAIN n");
	WANT_RAW(c, "OK AGAIN n");
	WANT_RAW(c, T_BYE);
	WANT_EOF(c);
	e2e_stop(s, tp);
}

/*
 * §9.6: PLAY AI easy (any case) does not block: taking wins and blocking
 * beats it at least once in 30 games.  Also the explicit "perfect".
 */
static void
test_social_ai_easy_is_beatable(void **state)
{
	struct e2e		*s = *state;
	struct tttd_proc	*tp = e2e_server(s, NULL);
	struct conn		*c, *d;
	uint32_t		 rng = 12345;
	int			 i, r, first = -1, wins = 0;

	c = CONNECT(s, tp);
	AI_PLAY(c, "play ai EASY", "easy");
	for (i = 0; i < 30 && wins == 0; i++) {
		r = AI_GAME(c, "p1", first, 1, &rng);
		if (r == 'X')
			wins++;
		first = r == 'X' ? 0 : r == 'O' ? 1 : -1;
		SEND(c, "y");
		WANT_RAW(c, "OK AGAIN y");
	}
	if (wins == 0)
		fail_msg("a blocking player never beat the easy computer in "
		    "30 games");
	d = CONNECT(s, tp);
	AI_PLAY(d, "Play Ai Perfect", "perfect");
	/* The same player that beats easy does not beat perfect. */
	if (AI_GAME(d, "p1", -1, 1, &rng) == 'X')
		fail_msg("\"Play Ai Perfect\" was beaten: not the perfect level");
	e2e_stop(s, tp);
}

/* §9.6: bad levels are BAD_LEVEL and change nothing. */
static void
test_social_ai_bad_level(void **state)
{
	static const char *const	 bad[] = {
		"PLAY FOO", "PLAY AI hard", "PLAY easy", "PLAY BOT",
		"PLAY AI perfectly"
	};
	struct e2e			*s = *state;
	struct tttd_proc		*tp = e2e_server(s, NULL);
	struct game			 g;
	struct conn			*c, *d;
	size_t				 i;

	c = CONNECT(s, tp);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		SEND(c, "%s", bad[i]);
		WANT_RAW(c, E_BAD_LEVEL);
	}
	/* PLAY alone is the queue, where it is already: its place kept. */
	SEND(c, "PLAY");
	WANT_RAW(c, "OK PLAY");
	WANT_QUIET(c);
	/* Still queued. */
	d = CONNECT(s, tp);
	SOC_MATCH(&g, c, d, "p1", "p2", 30);
	assert_int_equal(STAT(d, "matches_ai"), 0);
	e2e_stop(s, tp);
}

/*
 * §9.6: with --ai-offer 0.5 a player alone in the queue is offered the
 * computer once, about 0.5 s after it queued, and not again.
 */
static void
test_social_ai_offer(void **state)
{
	static const char *const	 extra[] = { "--ai-offer", "0.5",
		NULL };
	struct e2e			*s = *state;
	struct tttd_proc		*tp = e2e_server(s, extra);
	struct game			 g;
	struct conn			*c, *d;
	long				 t0, dt;

	t0 = harness_now_ms();
	c = CONNECT(s, tp);
	WANT_QUIET_MS(c, 250);
	WANT_RAW(c, T_AI_OFFER);
	dt = harness_now_ms() - t0;
	if (dt < 400 || dt > 2500)
		fail_msg("the 0.5 s offer came after %ld ms", dt);
	WANT_QUIET_MS(c, 1500);
	/* An opponent comes: a normal match. */
	d = CONNECT(s, tp);
	SOC_MATCH(&g, c, d, "p1", "p2", 30);
	/* A player in a match is not alone in the queue: no offer. */
	WANT_QUIET_MS(d, 800);
	e2e_stop(s, tp);
}

/*
 * §9.7: the first move after which nobody can win brings the tie notice
 * to both players and the watcher, once; the game goes on to RESULT TIE.
 * S_TIE_LATE pins the reading of "no sequence of legal moves": its notice
 * is due after its 8th move, though a line is still free of O there.
 */
static void
test_social_tie_notice(void **state)
{
	struct e2e		*s = *state;
	struct tttd_proc	*tp = e2e_server(s, NULL);
	struct game		 g;
	struct conn		*w;
	char			 got[LINE_SIZE];
	unsigned long		 id;

	PAIR(s, tp, &g, "alice", "bob", 30);
	w = CONNECT(s, tp);
	id = GAME_ID(w, "alice", "bob");
	SEND(w, "WATCH %lu", id);
	WANT_RAW(w, "OK WATCH %lu", id);
	WANT_PREFIX(w, "INFO You are watching ", got);
	WANT_BOARD(w, g.cells);
	WANT_PREFIX(w, "TURN ", got);
	GAME_WATCHED(&g, "Someone");
	g.w[g.nw++] = w;
	GAME_PLAY(&g, S_TIE);
	if (!g.tie_told)
		fail_msg("S_TIE brought no tie notice (test script)");
	GAME_REMATCH(&g, 0, -1);
	GAME_PLAY(&g, S_TIE_LATE);
	GAME_REMATCH(&g, 1, -1);
	/* A won game brings none. */
	GAME_PLAY(&g, S_FIRST_WINS);
	WANT_QUIET(g.p[0]);
	e2e_stop(s, tp);
}

/* §9.7: with --early-draw such a game ends at that move with RESULT TIE. */
static void
test_social_early_draw(void **state)
{
	static const char *const	 extra[] = { "--early-draw", NULL };
	struct e2e			*s = *state;
	struct tttd_proc		*tp = e2e_server(s, extra);
	struct game			 g;

	PAIR(s, tp, &g, NULL, NULL, 30);
	g.early = 1;
	GAME_PLAY(&g, "A1 B1 C1 A2 B2 A3 B3 C3");
	assert_int_equal(g.state, GAME_TIE);
	SEND(g.p[0], "BOARD");
	WANT_RAW(g.p[0], "OK BOARD");
	WANT_BOARD(g.p[0], g.cells);
	GAME_REMATCH(&g, 0, -1);
	GAME_PLAY(&g, "B2 A1 C1 A3 A2 C2 B1 B3");
	assert_int_equal(g.state, GAME_TIE);
	assert_int_equal(STAT(g.p[0], "ties"), 2);
	e2e_stop(s, tp);
}

/*
 * §9.8: SAY reaches the opponent and the watcher as CHAT, the sender gets
 * OK SAY only; the text is kept as typed between its first and last
 * non-blank; bad texts; at most 5 in any 10 s, refused lines not
 * counting (§9.10); no chat outside a match.
 *
 * Reading of STAT chats ("CHAT lines sent"): either one per SAY sent or
 * one per CHAT line delivered (opponent and watcher); both are accepted,
 * nothing else.
 */
static void
test_social_chat(void **state)
{
	struct e2e		*s = *state;
	struct tttd_proc	*tp = e2e_server(s, NULL);
	struct game		 g;
	struct conn		*w, *q;
	char			 long_text[202], got[LINE_SIZE];
	unsigned long		 id;
	long			 n;
	int			 i;

	PAIR(s, tp, &g, "alice", "bob", 30);
	/* Before anyone watches: one SAY, one CHAT line, by any reading. */
	SEND(g.p[1], "SAY hi");
	WANT_RAW(g.p[1], "OK SAY");
	WANT_RAW(g.p[0], "CHAT bob hi");
	WANT_QUIET(g.p[1]);
	assert_int_equal(STAT(g.p[0], "chats"), 1);
	w = CONNECT(s, tp);
	id = GAME_ID(w, "alice", "bob");
	SEND(w, "WATCH %lu", id);
	WANT_RAW(w, "OK WATCH %lu", id);
	WANT_PREFIX(w, "INFO You are watching ", got);
	WANT_BOARD(w, g.cells);
	WANT_PREFIX(w, "TURN ", got);
	GAME_WATCHED(&g, "Someone");
	g.w[g.nw++] = w;

	/* bob: five in 10 s (one used); the window's timing is test_session's. */
	for (i = 2; i <= 5; i++) {
		SEND(g.p[1], "SAY line %d", i);
		WANT_RAW(g.p[1], "OK SAY");
		WANT_RAW(g.p[0], "CHAT bob line %d", i);
		WANT_RAW(w, "CHAT bob line %d", i);
	}
	SEND(g.p[1], "SAY line 6");
	WANT_RAW(g.p[1], E_RATE_LIMITED);
	/* Still within the 10 s: a token bucket would have one more now. */
	usleep(2200 * 1000);
	SEND(g.p[1], "SAY line 7");
	WANT_RAW(g.p[1], E_RATE_LIMITED);

	/* alice: the text as typed, the limits of its length and bytes. */
	SEND(g.p[0], "say \t Good luck,  bob! :-) \t ");
	WANT_RAW(g.p[0], "OK SAY");
	WANT_RAW(g.p[1], "CHAT alice Good luck,  bob! :-)");
	WANT_RAW(w, "CHAT alice Good luck,  bob! :-)");
	memset(long_text, 'x', 200);
	long_text[200] = '\0';
	SEND(g.p[0], "SAY %s", long_text);
	WANT_RAW(g.p[0], "OK SAY");
	WANT_RAW(g.p[1], "CHAT alice %s", long_text);
	WANT_RAW(w, "CHAT alice %s", long_text);
	long_text[200] = 'y';
	long_text[201] = '\0';
	SEND(g.p[0], "SAY %s", long_text);
	WANT_RAW(g.p[0], E_BAD_TEXT);
	SEND(g.p[0], "SAY tab\there");
	WANT_RAW(g.p[0], E_BAD_TEXT);
	SEND(g.p[0], "SAY");
	WANT_RAW(g.p[0], E_BAD_TEXT);
	SEND(g.p[0], "SAY    ");
	WANT_RAW(g.p[0], E_BAD_TEXT);
	/* Refused lines did not count: alice still has three. */
	for (i = 1; i <= 3; i++) {
		SEND(g.p[0], "SAY more %d", i);
		WANT_RAW(g.p[0], "OK SAY");
		WANT_RAW(g.p[1], "CHAT alice more %d", i);
		WANT_RAW(w, "CHAT alice more %d", i);
	}
	SEND(g.p[0], "SAY too much");
	WANT_RAW(g.p[0], E_RATE_LIMITED);
	/* Nothing refused was sent; the sender gets no copy. */
	WANT_QUIET(g.p[0]);
	WANT_QUIET(g.p[1]);
	WANT_QUIET(w);

	/* Not in a match: NO_GAME (a bad text is judged first). */
	q = CONNECT(s, tp);
	SEND(q, "SAY anyone here?");
	WANT_RAW(q, E_NO_GAME);
	SEND(q, "SAY");
	WANT_RAW(q, E_BAD_TEXT);
	/* The game itself is untouched. */
	GAME_PLAY(&g, S_FIRST_WINS);
	/* 10 SAY sent: 1 before the watcher, 9 to opponent and watcher. */
	n = STAT(q, "chats");
	if (n != 10 && n != 19)
		fail_msg("STAT chats %ld after 10 SAY lines (19 CHAT lines)",
		    n);
	e2e_stop(s, tp);
}

/*
 * §9.9: RESIGN on one's own turn and on the opponent's: OK RESIGN, the
 * win to the other (RESULT WIN ... <resigner> resigned.) and AGAIN? to
 * both; the connection stays; the winner starts the next game; chat works
 * after RESULT; no RESIGN outside a game.
 */
static void
test_social_resign(void **state)
{
	struct e2e		*s = *state;
	struct tttd_proc	*tp = e2e_server(s, NULL);
	struct game		 g;
	struct conn		*q, *w;
	char			 got[LINE_SIZE];
	unsigned long		 id;
	int			 r, i;

	q = CONNECT(s, tp);
	SEND(q, "RESIGN");
	WANT_RAW(q, E_NO_GAME);
	SEND(q, "QUIT");
	WANT_RAW(q, T_BYE);

	PAIR(s, tp, &g, "alice", "bob", 30);
	w = CONNECT(s, tp);
	id = GAME_ID(w, "alice", "bob");
	SEND(w, "WATCH %lu", id);
	WANT_RAW(w, "OK WATCH %lu", id);
	WANT_PREFIX(w, "INFO You are watching ", got);
	WANT_BOARD(w, g.cells);
	WANT_PREFIX(w, "TURN ", got);
	GAME_WATCHED(&g, "Someone");
	g.w[g.nw++] = w;
	GAME_MOVE(&g, "B2");

	/* The player to move resigns. */
	r = g.turn;
	SEND(g.p[r], "RESIGN");
	WANT_RAW(g.p[r], "OK RESIGN");
	g.score[!r]++;
	for (i = 0; i < 3; i++) {
		struct conn	*c = i < 2 ? g.p[i] : w;

		WANT_RAW(c, "RESULT WIN %c %s %s resigned.", game_mark(!r),
		    g.name[!r], g.name[r]);
		GAME_SCORE(&g, c);
		if (i < 2)
			WANT_RAW(c, T_AGAIN);
	}
	SEND(g.p[r], "RESIGN");
	WANT_RAW(g.p[r], E_NO_GAME);
	SEND(g.p[r], "SAY gg");
	WANT_RAW(g.p[r], "OK SAY");
	WANT_RAW(g.p[!r], "CHAT %s gg", g.name[r]);
	WANT_RAW(w, "CHAT %s gg", g.name[r]);
	g.state = GAME_WON;
	g.winner = !r;
	GAME_REMATCH(&g, r, !r);

	/* Now the player waiting for the other's move resigns. */
	r = !g.turn;
	SEND(g.p[r], "resign right now");
	WANT_RAW(g.p[r], "OK RESIGN");
	g.score[!r]++;
	for (i = 0; i < 3; i++) {
		struct conn	*c = i < 2 ? g.p[i] : w;

		WANT_RAW(c, "RESULT WIN %c %s %s resigned.", game_mark(!r),
		    g.name[!r], g.name[r]);
		GAME_SCORE(&g, c);
		if (i < 2)
			WANT_RAW(c, T_AGAIN);
	}
	g.state = GAME_WON;
	g.winner = !r;
	GAME_REMATCH(&g, !r, !r);
	assert_int_equal(STAT(w, "resigns"), 2);
	assert_int_equal(STAT(w, "wins"), 2);
	assert_int_equal(STAT(w, "forfeits"), 0);
	e2e_stop(s, tp);
}

/*
 * §1.8, §9.10: every new command's error changes nothing: in the middle
 * of a game, after each refused line the board, the turn and the
 * opponent are as they were, and the game plays on.
 */
static void
test_social_errors_change_nothing(void **state)
{
	static const char *const	 lines[][2] = {
		{ "ROOM", E_BAD_ROOM },
		{ "ROOM JOIN 2345", E_BAD_ROOM },
		{ "ROOM JOIN 234567", E_BAD_ROOM },
		{ "ROOM JOIN 23456789", E_NO_ROOM },
		{ "WATCH", E_NO_SUCH_GAME },
		{ "WATCH 4294967297", E_NO_SUCH_GAME },
		{ "UNWATCH", E_NOT_WATCHING },
		{ "RESUME 0000-0000", E_BAD_TOKEN },
		{ "RESUME 2345-6789", E_BAD_TOKEN },
		{ "PLAY AI medium", E_BAD_LEVEL },
		{ "SAY", E_BAD_TEXT },
		{ "SAY a\tb", E_BAD_TEXT },
		{ "ROOM NEW", E_IN_GAME },
		{ "PLAY AI", E_IN_GAME },
		{ "PLAY", E_IN_GAME },
		{ "AGAIN y", E_NOT_NOW },
	};
	struct e2e			*s = *state;
	struct tttd_proc		*tp = e2e_server(s, NULL);
	struct game			 g;
	struct conn			*mv, *nm;
	char				 cells[10];
	size_t				 i;

	PAIR(s, tp, &g, NULL, NULL, 30);
	GAME_MOVE(&g, "B2");
	GAME_MOVE(&g, "A1");
	/* Both have moved: nobody can abort any more. */
	mv = g.p[g.turn];
	nm = g.p[!g.turn];
	memcpy(cells, g.cells, sizeof cells);
	for (i = 0; i < sizeof lines / sizeof lines[0]; i++) {
		SEND(mv, "%s", lines[i][0]);
		WANT_RAW(mv, "%s", lines[i][1]);
		SEND(nm, "%s", lines[i][0]);
		WANT_RAW(nm, "%s", lines[i][1]);
		SEND(mv, "BOARD");
		WANT_RAW(mv, "OK BOARD");
		WANT_BOARD(mv, cells);
		WANT_RAW(mv, "TURN %c " T_PROMPT, game_mark(g.turn));
	}
	SEND(nm, "RESIGN");
	WANT_RAW(nm, "OK RESIGN");
	g.score[g.turn]++;
	WANT_RAW(nm, "RESULT WIN %c %s %s resigned.", game_mark(g.turn),
	    g.name[g.turn], g.name[!g.turn]);
	GAME_SCORE(&g, nm);
	WANT_RAW(nm, T_AGAIN);
	WANT_RAW(mv, "RESULT WIN %c %s %s resigned.", game_mark(g.turn),
	    g.name[g.turn], g.name[!g.turn]);
	GAME_SCORE(&g, mv);
	WANT_RAW(mv, T_AGAIN);
	WANT_QUIET(mv);
	assert_int_equal(STAT(mv, "moves"), 2);
	e2e_stop(s, tp);
}

/*
 * §9.4: GAMES lists at most 100 matches, oldest first, then says how many
 * more there are.
 */
static void
test_social_games_lists_at_most_100(void **state)
{
	static const char *const	 extra[] = { "--max-per-addr", "200",
		NULL };
	struct e2e			*s = *state;
	struct tttd_proc		*tp = e2e_server(s, extra);
	struct conn			*c, *q;
	char				 lines[100][64], want[64], name[16];
	unsigned long			 n;
	int				 i;

	for (i = 0; i < 102; i++) {
		c = CONNECT(s, tp);
		snprintf(name, sizeof name, "c%d", i);
		SEND(c, "NAME %s", name);
		WANT_RAW(c, "OK NAME %s", name);
		SEND(c, "PLAY AI");
		WANT_RAW(c, "OK PLAY AI perfect");
	}
	q = CONNECT(s, tp);
	n = games_at(__LINE__, q, 100, lines);
	assert_int_equal(n, 100);
	for (i = 0; i < 100; i++) {
		unsigned long	id;
		int		moves, end = 0;

		/* "GAME <id> c<i> ai <0 or 1>": the computer may open. */
		snprintf(want, sizeof want, "c%d", i);
		if (sscanf(lines[i], "GAME %lu %15s ai %d%n", &id, name, &moves,
		    &end) != 3 || lines[i][end] != '\0' ||
		    strcmp(name, want) != 0 || moves < 0 || moves > 1)
			fail_msg("GAME line %d is \"%s\", wanted the match of "
			    "c%d (oldest first)", i + 1, lines[i], i);
	}
	WANT_RAW(q, "INFO 2 more matches not listed.");
	assert_int_equal(STAT(q, "matches_ai"), 102);
	e2e_stop(s, tp);
}

/*
 * §9.3: a player waiting in a room has no queue clock (--idle-timeout),
 * only the room's own (--room-ttl, here 0: never); a player in the public
 * queue meanwhile times out as usual.
 */
static void
test_social_room_has_no_queue_clock(void **state)
{
	static const char *const	 extra[] = { "--idle-timeout", "1",
		"--room-ttl", "0", NULL };
	struct e2e			*s = *state;
	struct tttd_proc		*tp = e2e_server(s, extra);
	struct game			 g;
	struct conn			*a, *b, *c;
	char				 code[CODE_SIZE];

	a = CONNECT(s, tp);
	SEND(a, "ROOM NEW");
	WANT_CODE(a, code);
	WANT_RAW(a, "WAIT Waiting for a friend to join room %s...", code);
	b = CONNECT(s, tp);
	WANT_RAW(b, "BYE Nobody came to play in time. Please try again "
	    "later.");
	WANT_EOF(b);
	WANT_QUIET_MS(a, 1200);
	c = CONNECT(s, tp);
	SEND(c, "ROOM JOIN %s", code);
	WANT_RAW(c, "OK ROOM %s", code);
	SOC_MATCH(&g, a, c, "p1", "p2", 30);
	e2e_stop(s, tp);
}

/*
 * §9.9, §9.6: RESIGN against the computer gives it the game; a yes starts
 * the next game at once, the computer (the winner) moving first.
 */
static void
test_social_ai_resign(void **state)
{
	struct e2e		*s = *state;
	struct tttd_proc	*tp = e2e_server(s, NULL);
	struct conn		*c;
	char			 got[LINE_SIZE];
	uint32_t		 rng = 77;
	int			 i;

	c = CONNECT(s, tp);
	AI_PLAY(c, "play ai", "perfect");
	for (i = 0; i < 8; i++) {
		WANT_PREFIX(c, "", got);
		if (strncmp(got, "TURN X ", 7) == 0)
			break;
	}
	if (i == 8)
		fail_msg("no TURN X after PLAY AI");
	SEND(c, "RESIGN");
	WANT_RAW(c, "OK RESIGN");
	WANT_RAW(c, "RESULT WIN O ai p1 resigned.");
	WANT_RAW(c, T_SCORE "p1 0, ai 1, ties 0.");
	WANT_RAW(c, T_AGAIN);
	SEND(c, "yes");
	WANT_RAW(c, "OK AGAIN y");
	AI_GAME(c, "p1", 1, 1, &rng);
	assert_int_equal(STAT(c, "resigns"), 1);
	e2e_stop(s, tp);
}

#define T(f)	cmocka_unit_test_setup_teardown(f, e2e_setup, e2e_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_social_abort_by_room_new),
		T(test_social_abort_by_quit_goes_to_front),
		T(test_social_abort_move_in_flight),
		T(test_social_watcher_not_queued),
		T(test_social_abort_by_play_ai_and_watch),
		T(test_social_in_game_after_moving),
		T(test_social_no_abort_in_later_game),
		T(test_social_room_new_and_join),
		T(test_social_room_errors),
		T(test_social_room_expires),
		T(test_social_room_closes_when_maker_leaves),
		T(test_social_room_has_no_queue_clock),
		T(test_social_games_lists_matches),
		T(test_social_watch_streams_match),
		T(test_social_watchers_told_chat_and_away),
		T(test_social_watcher_that_never_reads),
		T(test_social_games_lists_at_most_100),
		T(test_social_resume_after_drop),
		T(test_social_resume_after_result),
		T(test_social_resume_grace_expires),
		T(test_social_quit_skips_grace),
		T(test_social_grace_zero),
		T(test_social_resume_takes_over),
		T(test_social_turn_clock_paused_while_away),
		T(test_social_clock_not_stalled_by_resume),
		T(test_social_again_not_stalled_by_resume),
		T(test_social_again_not_stalled_by_takeover),
		T(test_social_again_bare_word),
		T(test_social_resume_reply_lost),
		T(test_social_resume_to_empty_table),
		T(test_social_room_guesses_limited),
		T(test_social_right_token_despite_guessers),
		T(test_social_names_unique),
		T(test_social_renames_limited),
		T(test_social_watchers_capped),
		T(test_social_resume_rate_limited),
		T(test_social_ai_perfect_never_loses),
		T(test_social_ai_easy_is_beatable),
		T(test_social_ai_bad_level),
		T(test_social_ai_resign),
		T(test_social_ai_offer),
		T(test_social_tie_notice),
		T(test_social_early_draw),
		T(test_social_chat),
		T(test_social_resign),
		T(test_social_errors_change_nothing),
	};

	signal(SIGPIPE, SIG_IGN);
	/* SOC_TEST=pattern runs only the matching tests. */
	if (getenv("SOC_TEST") != NULL)
		cmocka_set_test_filter(getenv("SOC_TEST"));
	return (cmocka_run_group_tests(tests, NULL, NULL));
}
