/*
 * rating.h -- Glicko-2 ratings, as lichess rates.
 *
 * Pure C: no I/O, no allocation, no globals.  A rating is kept on
 * Glicko's scale (1500, RD 500); the formulas of Glickman's paper
 * ("Example of the Glicko-2 system", glicko.net) run on Glicko-2's scale,
 * 173.7178 times smaller, around 0.
 *
 * Two uses.  rating_period is Glickman's rating period as the paper has
 * it: any number of games, step 6 with the periods passed, no bounds.
 * rating_game is one rated game as lichess rates it (scalachess's
 * GlickoCalculator with skipDeviationIncrease, lila's Glicko.cap): one
 * game is one period, both players updated from their ratings before
 * the game, RD not grown inside the period (step 6 skipped), RD kept in
 * [45, 500] and the volatility at most 0.1, before and after.  RD grows
 * with the time between games instead: rating_age, applied to a record
 * when it is read, before rating_game.
 */
#ifndef RATING_H
#define RATING_H

#include <stddef.h>

#define RATING_START		1500.0	/* a new account's rating */
#define RATING_START_RD		500.0	/* ... its rating deviation */
#define RATING_START_VOL	0.09	/* ... its volatility */
#define RATING_TAU		0.75	/* how fast the volatility moves */
#define RATING_RD_MIN		45.0
#define RATING_RD_MAX		500.0
#define RATING_VOL_MAX		0.1
#define RATING_PERIODS_PER_DAY	0.21436	/* RD 60 -> 110 in a year */
#define RATING_PROVISIONAL_RD	110.0	/* provisional while RD >= this */
#define RATING_SCALE		173.7178 /* Glicko -> Glicko-2 */
#define RATING_EPSILON		0.000001 /* step 5's convergence */
#define RATING_ITER_MAX		1000	/* step 5 gives up past this */

/* A game's result for the player it is scored for. */
enum rating_score {
	RATING_LOSS = 0,
	RATING_TIE = 1,
	RATING_WIN = 2
};

struct rating {
	double	r;		/* rating, Glicko scale */
	double	rd;		/* rating deviation, Glicko scale */
	double	vol;		/* volatility (sigma) */
};

/* One game of a rating period: the opponent as it was, and the result. */
struct rating_result {
	struct rating		opp;
	enum rating_score	score;
};

/* What a player is shown: whole numbers, and "?" while provisional. */
struct rating_shown {
	long	r;
	long	rd;
	int	provisional;
};

void	rating_init(struct rating *);
int	rating_valid(const struct rating *);
int	rating_period(const struct rating *, const struct rating_result *,
	    size_t, double, double, struct rating *);
int	rating_game(const struct rating *, const struct rating *,
	    enum rating_score, double, struct rating *, struct rating *);
int	rating_age(const struct rating *, double, struct rating *);
int	rating_provisional(const struct rating *);
void	rating_show(const struct rating *, struct rating_shown *);
long	rating_change(const struct rating *, const struct rating *);

#endif /* RATING_H */
