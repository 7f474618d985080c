/*
 * e2e_game.h -- one match as an end-to-end test sees it, and every line a
 * move, a start or a rematch must bring to its players and watchers.
 *
 * game_init gives what protocol v1 (test_e2e.c) needs: no TOKEN lines, no
 * watchers, BOARD read as an event, moves in changing spellings, the tie
 * notice before TURN.  A suite that wants more sets the fields after it.
 */
#ifndef E2E_GAME_H
#define E2E_GAME_H

#include <stdint.h>

#include "e2e_line.h"

#define T_ONLY_TIE	"INFO This game can only end in a tie."
#define T_SCORE		"INFO Score: "	/* <x> 1, <o> 0, ties 0. */

/* Room codes and tokens: 31 characters, no 0, O, 1, I or L. */
#define CODE_ALPHABET	"23456789ABCDEFGHJKMNPQRSTUVWXYZ"

#define GAME_ON		0
#define GAME_WON	1
#define GAME_TIE	2

#define GAME_WATCHERS	4

/* One match as the test sees it: seat 0 plays X, seat 1 plays O. */
struct game {
	struct conn	*p[2];
	char		 name[2][64];	/* a name: 32 bytes at most */
	char		 cells[10];
	int		 turn;		/* seat to move */
	int		 state;		/* GAME_* */
	int		 winner;	/* seat, when GAME_WON */
	int		 tie_told;	/* the tie notice was due this game */
	unsigned	 score[3];	/* games won by seat 0, by seat 1; ties */
	char		 token[2][16];	/* the seats' tokens, when grace >= 0 */
	struct conn	*w[GAME_WATCHERS];	/* watchers that read */
	int		 nw;

	/* What to expect beyond protocol v1 (all off after game_init). */
	int		 grace;		/* TOKEN after MATCH: -1 none, else s */
	int		 art;		/* BOARD read raw, art lines included */
	int		 plain;		/* game_play_at sends MOVE <cell> only */
	int		 notice_any;	/* tie notice before or after TURN */
	int		 early;		/* --early-draw: a dead game ends */
};

char	game_mark(int);
/* "B2" or "b2": the row-major index 0-8 (fails on a bad cell). */
int	game_cell(const char *);
/* 1 if the n bytes are all from the code alphabet (upper case). */
int	game_is_code(const char *, size_t);
/* 'X' or 'O' if that mark has three in a row on the cells, else 0. */
int	game_winner(const char *);
/* 1 if some sequence of moves, mover first, still gives a win (§9.7). */
int	game_can_win(char *, char);
/* A small deterministic random source (xorshift32) for scripts. */
uint32_t game_rand(uint32_t *);

void	game_want_art_at(int, struct conn *, const char *);
void	game_want_board_at(int, struct conn *, const char *);
void	game_want_token_at(int, struct conn *, int, char *);
void	game_want_score_at(int, struct game *, struct conn *);
void	game_watched_at(int, struct game *, const char *, const char *);

void	game_init(struct game *, struct conn *, struct conn *, const char *,
	    const char *);
void	game_match_at(int, struct game *);
int	game_start_at(int, struct game *, int);
void	game_send_at(int, struct game *, const char *);
void	game_moved_at(int, struct game *, int);
void	game_move_at(int, struct game *, const char *, int);
void	game_play_at(int, struct game *, const char *);
void	game_rematch_at(int, struct game *, int, const char *, const char *,
	    int);

#define WANT_BOARD(c, s)	game_want_board_at(__LINE__, (c), (s))
#define GAME_MATCH(g)		game_match_at(__LINE__, (g))
#define GAME_START(g, f)	game_start_at(__LINE__, (g), (f))
#define GAME_PLAY(g, s)		game_play_at(__LINE__, (g), (s))
#define GAME_SCORE(g, c)	game_want_score_at(__LINE__, (g), (c))
/* Both players are told: "INFO <who> is watching." (what) */
#define GAME_WATCHED(g, who)	game_watched_at(__LINE__, (g), (who), \
				    "is watching")
#define GAME_UNWATCHED(g, who)	game_watched_at(__LINE__, (g), (who), \
				    "stopped watching")

#endif /* E2E_GAME_H */
