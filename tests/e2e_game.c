/*
 * e2e_game.c -- the lines of one match, checked for its players and
 * watchers: MATCH (and TOKEN), START, BOARD (and its art), TURN, the tie
 * notice, RESULT and AGAIN?, against the test's own model of the board.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "harness.h"
#include "e2e_game.h"

static void	game_board_at(int, struct game *, struct conn *);
static void	game_turn_at(int, struct game *, struct conn *, const char *,
		    int);
static void	game_turns_at(int, struct game *, int);
static void	game_result_at(int, struct conn *, const char *, int);
static void	game_spell(int, const char *, char *, size_t);

char
game_mark(int seat)
{
	return (seat == 0 ? 'X' : 'O');
}

/* "B2" or "b2": the row-major index 0-8. */
int
game_cell(const char *s)
{
	int	col = (s[0] | 0x20) - 'a', row = s[1] - '1';

	if (col < 0 || col > 2 || row < 0 || row > 2 || s[2] != '\0')
		fail_msg("bad cell \"%s\" in a test script", s);
	return (row * 3 + col);
}

/* 1 if the n bytes are all from the code alphabet (upper case). */
int
game_is_code(const char *s, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		if (s[i] == '\0' || strchr(CODE_ALPHABET, s[i]) == NULL)
			return (0);
	}
	return (1);
}

/* 'X' or 'O' if that mark has three in a row, else 0. */
int
game_winner(const char *b)
{
	static const int	l[8][3] = {
		{ 0, 1, 2 }, { 3, 4, 5 }, { 6, 7, 8 }, { 0, 3, 6 },
		{ 1, 4, 7 }, { 2, 5, 8 }, { 0, 4, 8 }, { 2, 4, 6 }
	};
	int			i;

	for (i = 0; i < 8; i++) {
		if (b[l[i][0]] != '.' && b[l[i][0]] == b[l[i][1]] &&
		    b[l[i][1]] == b[l[i][2]])
			return (b[l[i][0]]);
	}
	return (0);
}

/*
 * 1 if some sequence of legal moves, mover first, still gives a player
 * three in a row (§9.7): plain recursion, the test's own oracle; b is
 * restored.
 */
int
game_can_win(char *b, char mover)
{
	int	i, r;

	if (game_winner(b))
		return (1);
	for (i = 0; i < 9; i++) {
		if (b[i] != '.')
			continue;
		b[i] = mover;
		r = game_can_win(b, mover == 'X' ? 'O' : 'X');
		b[i] = '.';
		if (r)
			return (1);
	}
	return (0);
}

/* A small deterministic random source (xorshift32). */
uint32_t
game_rand(uint32_t *s)
{
	uint32_t	x = *s;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return (*s = x);
}

/*
 * The six art lines after a BOARD line, exactly: the seed layout led by two
 * spaces, an empty cell a space (so a row with C empty ends in two spaces).
 */
void
game_want_art_at(int ln, struct conn *c, const char *cells)
{
	char	want[6][32], got[LINE_SIZE], v[9];
	int	i;

	for (i = 0; i < 9; i++)
		v[i] = cells[i] == '.' ? ' ' : cells[i];
	snprintf(want[0], sizeof want[0], "      A   B   C");
	for (i = 0; i < 3; i++) {
		snprintf(want[2 * i + 1], sizeof want[0], "  %d   %c | %c | %c",
		    i + 1, v[3 * i], v[3 * i + 1], v[3 * i + 2]);
		if (i < 2)
			snprintf(want[2 * i + 2], sizeof want[0],
			    "     ---+---+---");
	}
	for (i = 0; i < 6; i++) {
		if (line_read(c, got, sizeof got, HARNESS_TIMEOUT_MS) < 0)
			fail_msg("line %d: %s: expected art line \"%s\", got "
			    "EOF, timeout, a bare LF or a bad byte", ln,
			    line_label(c), want[i]);
		if (strcmp(got, want[i]) != 0)
			fail_msg("line %d: %s: art line %d: expected \"%s\", "
			    "got \"%s\"", ln, line_label(c), i + 1, want[i],
			    got);
	}
}

/* The next line is BOARD with these cells, then its art. */
void
game_want_board_at(int ln, struct conn *c, const char *cells)
{
	line_want_at(ln, 1, c, "BOARD %s", cells);
	game_want_art_at(ln, c, cells);
}

/*
 * A TOKEN line: XXXX-XXXX from the code alphabet, and the text naming it
 * (with the grace period in seconds when grace >= 0).  The token, with its
 * dash, goes to out (16 bytes).
 */
void
game_want_token_at(int ln, struct conn *c, int grace, char *out)
{
	char	got[LINE_SIZE], want[LINE_SIZE];

	line_want_prefix_at(ln, c, "TOKEN ", got, sizeof got);
	if (strlen(got) < 15 || !game_is_code(got + 6, 4) || got[10] != '-' ||
	    !game_is_code(got + 11, 4) || (got[15] != ' ' && got[15] != '\0'))
		fail_msg("line %d: %s: bad TOKEN line \"%s\"", ln,
		    line_label(c), got);
	snprintf(out, 16, "%.9s", got + 6);
	if (grace >= 0)
		snprintf(want, sizeof want, "TOKEN %s Type RESUME %s on a new "
		    "connection within %d seconds of losing this one to get "
		    "your seat back.", out, out, grace);
	else
		snprintf(want, sizeof want, "TOKEN %s Type RESUME %s on a new "
		    "connection within ", out, out);
	if (strncmp(got, want, strlen(want)) != 0 ||
	    (grace >= 0 && strcmp(got, want) != 0))
		fail_msg("line %d: %s: expected \"%s\", got \"%s\"", ln,
		    line_label(c), want, got);
}

/* A match between x and o, with what protocol v1 sends (see e2e_game.h). */
void
game_init(struct game *g, struct conn *x, struct conn *o, const char *xname,
    const char *oname)
{
	memset(g, 0, sizeof *g);
	g->p[0] = x;
	g->p[1] = o;
	snprintf(g->name[0], sizeof g->name[0], "%s", xname);
	snprintf(g->name[1], sizeof g->name[1], "%s", oname);
	snprintf(g->cells, sizeof g->cells, ".........");
	g->state = GAME_ON;
	g->grace = -1;
}

/* MATCH to both (X first), then TOKEN to both unless there is no grace. */
void
game_match_at(int ln, struct game *g)
{
	int	i;

	line_want_at(ln, 0, g->p[0], "MATCH X %s You play X against %s.",
	    g->name[1], g->name[1]);
	line_want_at(ln, 0, g->p[1], "MATCH O %s You play O against %s.",
	    g->name[0], g->name[0]);
	for (i = 0; i < 2 && g->grace >= 0; i++)
		game_want_token_at(ln, g->p[i], g->grace, g->token[i]);
	if (g->grace >= 0 && strcmp(g->token[0], g->token[1]) == 0)
		fail_msg("line %d: both seats got the token %s", ln,
		    g->token[0]);
}

/* BOARD with the current cells: an event, or with g->art raw with art. */
static void
game_board_at(int ln, struct game *g, struct conn *c)
{
	line_want_at(ln, g->art, c, "BOARD %s", g->cells);
	if (g->art)
		game_want_art_at(ln, c, g->cells);
}

/*
 * START, BOARD ........., TURN to both players and the watchers; first is
 * the seat that must start, or -1 for either.  Returns the seat.
 */
int
game_start_at(int ln, struct game *g, int first)
{
	char	got[LINE_SIZE], want[LINE_SIZE];
	int	seat, i;

	line_want_prefix_at(ln, g->p[0], "START ", got, sizeof got);
	if (strncmp(got, "START X ", 8) != 0 &&
	    strncmp(got, "START O ", 8) != 0)
		fail_msg("line %d: bad START line \"%s\"", ln, got);
	seat = (got[6] == 'O');
	snprintf(want, sizeof want, "START %c %s (%c) moves first.",
	    game_mark(seat), g->name[seat], game_mark(seat));
	if (strcmp(got, want) != 0)
		fail_msg("line %d: %s: expected \"%s\", got \"%s\"", ln,
		    line_label(g->p[0]), want, got);
	if (first >= 0 && seat != first)
		fail_msg("line %d: %c starts, but %c should", ln,
		    game_mark(seat), game_mark(first));
	line_want_at(ln, 0, g->p[1], "%s", want);
	for (i = 0; i < g->nw; i++)
		line_want_at(ln, 0, g->w[i], "%s", want);
	snprintf(g->cells, sizeof g->cells, ".........");
	g->state = GAME_ON;
	g->turn = seat;
	g->tie_told = 0;
	for (i = 0; i < 2; i++)
		game_board_at(ln, g, g->p[i]);
	for (i = 0; i < g->nw; i++)
		game_board_at(ln, g, g->w[i]);
	game_turns_at(ln, g, 0);
	return (seat);
}

/*
 * A TURN line, and with info the tie notice too: before the TURN line, or
 * with g->notice_any before or after it.  (§9.7 does not say where the
 * notice goes among the lines of the move; tttd sends it before TURN.)
 */
static void
game_turn_at(int ln, struct game *g, struct conn *c, const char *turn,
    int info)
{
	char	got[LINE_SIZE];

	if (info && !g->notice_any)
		line_want_at(ln, 0, c, T_ONLY_TIE);
	if (!info || !g->notice_any) {
		line_want_at(ln, 0, c, "%s", turn);
		return;
	}
	line_want_prefix_at(ln, c, "", got, sizeof got);
	if (strcmp(got, T_ONLY_TIE) == 0) {
		line_want_at(ln, 0, c, "%s", turn);
		return;
	}
	if (strcmp(got, turn) != 0)
		fail_msg("line %d: %s: expected \"%s\" and the tie notice, got "
		    "\"%s\"", ln, line_label(c), turn, got);
	line_want_at(ln, 0, c, T_ONLY_TIE);
}

/* TURN to both and the watchers: the prompt only to the mover. */
static void
game_turns_at(int ln, struct game *g, int info)
{
	char	turn[LINE_SIZE];
	int	i;

	for (i = 0; i < 2 + g->nw; i++) {
		struct conn	*c = i < 2 ? g->p[i] : g->w[i - 2];

		if (i == g->turn)
			snprintf(turn, sizeof turn, "TURN %c " T_PROMPT,
			    game_mark(g->turn));
		else
			snprintf(turn, sizeof turn, "TURN %c Waiting for %s "
			    "to move...", game_mark(g->turn),
			    g->name[g->turn]);
		game_turn_at(ln, g, c, turn, info);
	}
}

/*
 * The RESULT line; with info (the tie notice was due as the game ended
 * early) the notice may come before it or not at all.
 */
static void
game_result_at(int ln, struct conn *c, const char *want, int info)
{
	char	got[LINE_SIZE];

	if (!info) {
		line_want_at(ln, 0, c, "%s", want);
		return;
	}
	line_want_prefix_at(ln, c, "", got, sizeof got);
	if (strcmp(got, T_ONLY_TIE) == 0)
		line_want_prefix_at(ln, c, "", got, sizeof got);
	if (strcmp(got, want) != 0)
		fail_msg("line %d: %s: expected \"%s\", got \"%s\"", ln,
		    line_label(c), want, got);
}

/* The mover sends a move line (checked later by game_moved_at). */
void
game_send_at(int ln, struct game *g, const char *text)
{
	if (g->state != GAME_ON)
		fail_msg("line %d: the game is over, cannot send \"%s\"", ln,
		    text);
	line_send_at(ln, g->p[g->turn], "%s", text);
}

/*
 * An accepted move: OK MOVE to the mover, BOARD to all, then TURN to all,
 * or RESULT to all and AGAIN? to the players (never to watchers).  The
 * first move after which nobody can win brings the tie notice (§9.7), or
 * with g->early the end of the game.
 *
 * Reading: with --early-draw the notice may or may not come before the
 * RESULT TIE ("the game ends there instead" of going on); both pass.
 */
void
game_moved_at(int ln, struct game *g, int cell)
{
	char	m = game_mark(g->turn), want[LINE_SIZE];
	int	i, s, info = 0;

	line_want_at(ln, 0, g->p[g->turn], "OK MOVE %c%c", 'A' + cell % 3,
	    '1' + cell / 3);
	g->cells[cell] = m;
	for (i = 0; i < 2; i++)
		game_board_at(ln, g, g->p[i]);
	for (i = 0; i < g->nw; i++)
		game_board_at(ln, g, g->w[i]);
	if (game_winner(g->cells)) {
		g->state = GAME_WON;
		g->winner = s = g->turn;
		snprintf(want, sizeof want, "RESULT WIN %c %s %s wins! better "
		    "luck next time %s!", m, g->name[s], g->name[s],
		    g->name[!s]);
	} else if (strchr(g->cells, '.') == NULL) {
		g->state = GAME_TIE;
		snprintf(want, sizeof want, T_TIE);
	} else {
		/* Once only a tie is left, all are told, once (§9.7). */
		if (!g->tie_told && !game_can_win(g->cells, game_mark(!g->turn)))
			g->tie_told = info = 1;
		if (!(info && g->early)) {
			g->turn = !g->turn;
			game_turns_at(ln, g, info);
			return;
		}
		g->state = GAME_TIE;
		snprintf(want, sizeof want, T_TIE);
	}
	g->score[g->state == GAME_WON ? g->winner : 2]++;
	for (i = 0; i < 2 + g->nw; i++) {
		struct conn	*c = i < 2 ? g->p[i] : g->w[i - 2];

		game_result_at(ln, c, want, info);
		game_want_score_at(ln, g, c);
		if (i < 2)
			line_want_at(ln, 0, c, T_AGAIN);
	}
}

/* A watcher came or went: both players are told (§9.4). */
void
game_watched_at(int ln, struct game *g, const char *who, const char *what)
{
	int	i;

	for (i = 0; i < 2; i++) {
		if (g->p[i] != NULL)
			line_want_at(ln, 0, g->p[i], "INFO %s %s.", who, what);
	}
}

/* The match's score after a result, as the game has kept it. */
void
game_want_score_at(int ln, struct game *g, struct conn *c)
{
	line_want_at(ln, 0, c, T_SCORE "%s %u, %s %u, ties %u.", g->name[0],
	    g->score[0], g->name[1], g->score[1], g->score[2]);
}

/* Send a move line and check all it causes. */
void
game_move_at(int ln, struct game *g, const char *text, int cell)
{
	game_send_at(ln, g, text);
	game_moved_at(ln, g, cell);
}

/*
 * The k-th move of a script in its spelling: upper case, a bare lower-case
 * cell, lower case, and mixed case between blanks and TABs, in turn.
 */
static void
game_spell(int k, const char *w, char *text, size_t size)
{
	char	lower[3] = { (char)(w[0] | 0x20), w[1], '\0' };

	switch (k % 4) {
	case 0:
		snprintf(text, size, "MOVE %s", w);
		break;
	case 1:
		snprintf(text, size, "%s", lower);
		break;
	case 2:
		snprintf(text, size, "move %s", lower);
		break;
	default:
		snprintf(text, size, " \tMoVe \t%s\t ", w);
		break;
	}
}

/*
 * Play a script (cells in turn order, whoever starts) to the game's end,
 * each move in another spelling, or with g->plain each as MOVE <cell>.
 */
void
game_play_at(int ln, struct game *g, const char *script)
{
	char	 copy[128], text[64], *w, *save = NULL;
	int	 k = 0;

	snprintf(copy, sizeof copy, "%s", script);
	for (w = strtok_r(copy, " ", &save); w != NULL;
	    w = strtok_r(NULL, " ", &save), k++) {
		if (g->state != GAME_ON)
			fail_msg("line %d: the game ended before move %d "
			    "(\"%s\") of \"%s\"", ln, k + 1, w, script);
		game_spell(g->plain ? 0 : k, w, text, sizeof text);
		game_move_at(ln, g, text, game_cell(w));
	}
	if (g->state == GAME_ON)
		fail_msg("line %d: the game is not over after \"%s\"", ln,
		    script);
}

/*
 * Both answer (ans1, ans2: a yes), seat a first (OK, then WAIT for the
 * other), the other second; then the next game starts with seat first
 * (-1: either).
 */
void
game_rematch_at(int ln, struct game *g, int a, const char *ans1,
    const char *ans2, int first)
{
	line_send_at(ln, g->p[a], "%s", ans1);
	line_want_at(ln, 1, g->p[a], "OK AGAIN y");
	line_want_at(ln, 1, g->p[a], "WAIT Waiting for %s to answer...",
	    g->name[!a]);
	line_send_at(ln, g->p[!a], "%s", ans2);
	line_want_at(ln, 1, g->p[!a], "OK AGAIN y");
	game_start_at(ln, g, first);
}
