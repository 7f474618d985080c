/*
 * rating.c -- Glicko-2: Glickman's steps 1 to 8, the Illinois algorithm
 * for step 5's volatility, and lichess's bounds around one game.
 */
#include <math.h>

#include "rating.h"

#define RATING_MU0	1500.0		/* Glicko-2's 0 on Glicko's scale */
#define RATING_PI	3.14159265358979323846
#define RATING_DAYS_MAX	1e6		/* any longer is RD 500 all the same */

/* Step 5's constants for one player's period. */
struct rating_vol {
	double	phi2;		/* phi squared */
	double	v;		/* step 3's estimated variance */
	double	delta2;		/* step 4's improvement, squared */
	double	a;		/* ln(sigma^2) */
	double	tau;
};

static double	rating_clamp(double, double, double);
static void	rating_bound(struct rating *);
static double	rating_g(double);
static double	rating_e(double, double, double);
static void	rating_sums(double, const struct rating_result *, size_t,
		    double *, double *);
static double	rating_f(double, const struct rating_vol *);
static int	rating_bracket(const struct rating_vol *, double *);
static int	rating_volatility(const struct rating_vol *, double *);
static int	rating_period_ok(const struct rating *,
		    const struct rating_result *, size_t, double, double);

/* A new account's rating: 1500, RD 500, volatility 0.09. */
void
rating_init(struct rating *r)
{
	r->r = RATING_START;
	r->rd = RATING_START_RD;
	r->vol = RATING_START_VOL;
}

/* Can the formulas take this rating: all finite, RD and volatility > 0? */
int
rating_valid(const struct rating *r)
{
	return (isfinite(r->r) && isfinite(r->rd) && isfinite(r->vol) &&
	    r->rd > 0 && r->vol > 0);
}

/* The value x held within [lo, hi]. */
static double
rating_clamp(double x, double lo, double hi)
{
	if (x < lo)
		return (lo);
	if (x > hi)
		return (hi);
	return (x);
}

/* lichess's bounds: RD within [45, 500], the volatility at most 0.1. */
static void
rating_bound(struct rating *r)
{
	r->rd = rating_clamp(r->rd, RATING_RD_MIN, RATING_RD_MAX);
	if (r->vol > RATING_VOL_MAX)
		r->vol = RATING_VOL_MAX;
}

/* Step 3's g: how much an opponent's uncertainty discounts the result. */
static double
rating_g(double phi)
{
	return (1.0 / sqrt(1.0 + 3.0 * phi * phi / (RATING_PI * RATING_PI)));
}

/* Step 3's E: the expected score of mu against an opponent muj, phij. */
static double
rating_e(double mu, double muj, double phij)
{
	return (1.0 / (1.0 + exp(-rating_g(phij) * (mu - muj))));
}

/*
 * Steps 3 and 4 over a period's games: 1/v, and the sum of g * (s - E)
 * that Delta and step 7 scale.
 */
static void
rating_sums(double mu, const struct rating_result *games, size_t n,
    double *vinv, double *gain)
{
	const struct rating	*o;
	double			 muj, phij, g, e;
	size_t			 i;

	*vinv = 0.0;
	*gain = 0.0;
	for (i = 0; i < n; i++) {
		o = &games[i].opp;
		muj = (o->r - RATING_MU0) / RATING_SCALE;
		phij = o->rd / RATING_SCALE;
		g = rating_g(phij);
		e = rating_e(mu, muj, phij);
		*vinv += g * g * e * (1.0 - e);
		*gain += g * ((double)games[i].score / 2.0 - e);
	}
}

/* Step 5.1's f, whose root is ln of the new volatility squared. */
static double
rating_f(double x, const struct rating_vol *p)
{
	double	ex, d;

	ex = exp(x);
	d = p->phi2 + p->v + ex;
	return (ex * (p->delta2 - p->phi2 - p->v - ex) / (2.0 * d * d) -
	    (x - p->a) / (p->tau * p->tau));
}

/* Step 5.2: B, the root's other bracket, f(A) and f(B) of both signs. */
static int
rating_bracket(const struct rating_vol *p, double *b)
{
	int	k;

	if (p->delta2 > p->phi2 + p->v) {
		*b = log(p->delta2 - p->phi2 - p->v);
		return (0);
	}
	for (k = 1; k <= RATING_ITER_MAX; k++) {
		*b = p->a - k * p->tau;
		if (rating_f(*b, p) >= 0)
			return (0);
	}
	return (-1);
}

/*
 * Step 5: the new volatility, f's root found by the Illinois algorithm
 * (regula falsi that halves the stale end's value).  The test is the
 * 2022 revision's "f(C) f(B) <= 0" (the original "<" can loop forever);
 * the iterations are bounded all the same.
 */
static int
rating_volatility(const struct rating_vol *p, double *sigma)
{
	double	A, B, C, fa, fb, fc;
	int	i;

	A = p->a;
	if (rating_bracket(p, &B) == -1)
		return (-1);
	fa = rating_f(A, p);
	fb = rating_f(B, p);
	for (i = 0; fabs(B - A) > RATING_EPSILON; i++) {
		if (i == RATING_ITER_MAX)
			return (-1);
		C = A + (A - B) * fa / (fb - fa);
		fc = rating_f(C, p);
		if (fc * fb <= 0) {
			A = B;
			fa = fb;
		} else
			fa /= 2.0;
		B = C;
		fb = fc;
	}
	*sigma = exp(A / 2.0);
	return (0);
}

/* Are a period's arguments ones the formulas can take? */
static int
rating_period_ok(const struct rating *self, const struct rating_result *games,
    size_t n, double tau, double periods)
{
	size_t	i;

	if (!rating_valid(self) || !isfinite(tau) || !(tau > 0) ||
	    !isfinite(periods) || !(periods >= 0))
		return (0);
	for (i = 0; i < n; i++) {
		if (!rating_valid(&games[i].opp) ||
		    (unsigned)games[i].score > RATING_WIN)
			return (0);
	}
	return (1);
}

/*
 * One rating period as Glickman's paper has it: the player's n games
 * against opponents as they were, tau, and the periods step 6 adds
 * (1 in the paper; 0 for lichess's per-game update).  No bounds.  With
 * no games, only step 6: RD grows, the rest stays.  -1 for arguments the
 * formulas cannot take or a step 5 that does not converge; out is then
 * untouched.
 */
int
rating_period(const struct rating *self, const struct rating_result *games,
    size_t n, double tau, double periods, struct rating *out)
{
	struct rating_vol	p;
	struct rating		res;
	double			mu, phi, vinv, gain, sigma, phis, phin;

	if (!rating_period_ok(self, games, n, tau, periods))
		return (-1);
	mu = (self->r - RATING_MU0) / RATING_SCALE;
	phi = self->rd / RATING_SCALE;
	res = *self;
	if (n == 0) {
		res.rd = RATING_SCALE * sqrt(phi * phi +
		    periods * self->vol * self->vol);
		*out = res;
		return (0);
	}
	rating_sums(mu, games, n, &vinv, &gain);
	p.phi2 = phi * phi;
	p.v = 1.0 / vinv;
	p.delta2 = (p.v * gain) * (p.v * gain);
	p.a = log(self->vol * self->vol);
	p.tau = tau;
	if (rating_volatility(&p, &sigma) == -1)
		return (-1);
	phis = sqrt(p.phi2 + periods * sigma * sigma);
	phin = 1.0 / sqrt(1.0 / (phis * phis) + vinv);
	res.r = RATING_MU0 + RATING_SCALE * (mu + phin * phin * gain);
	res.rd = RATING_SCALE * phin;
	res.vol = sigma;
	if (!rating_valid(&res))
		return (-1);
	*out = res;
	return (0);
}

/*
 * One rated game as lichess rates it: a's score against b, both updated
 * from their ratings before the game, each its own period with RD not
 * grown inside it, the bounds applied to both before and after.  -1 (and
 * nothing written) for a rating the formulas cannot take.
 */
int
rating_game(const struct rating *a, const struct rating *b,
    enum rating_score score, double tau, struct rating *aout,
    struct rating *bout)
{
	struct rating_result	ga, gb;
	struct rating		na, nb;

	if (!rating_valid(a) || !rating_valid(b) ||
	    (unsigned)score > RATING_WIN)
		return (-1);
	ga.opp = *b;
	ga.score = score;
	gb.opp = *a;
	gb.score = RATING_WIN - score;
	rating_bound(&ga.opp);
	rating_bound(&gb.opp);
	if (rating_period(&gb.opp, &ga, 1, tau, 0, &na) == -1 ||
	    rating_period(&ga.opp, &gb, 1, tau, 0, &nb) == -1)
		return (-1);
	rating_bound(&na);
	rating_bound(&nb);
	*aout = na;
	*bout = nb;
	return (0);
}

/*
 * A rating as it is after days without a game: RD grown by step 6 with
 * 0.21436 periods a day (lichess's, so RD 60 becomes 110 in a year), at
 * most 500.  No time, or a negative one (a clock set back), grows
 * nothing: the record comes back as it was, within the bounds; an
 * endless time is RD 500.
 */
int
rating_age(const struct rating *in, double days, struct rating *out)
{
	struct rating	r;

	if (isnan(days) || !rating_valid(in))
		return (-1);
	if (days > RATING_DAYS_MAX)
		days = RATING_DAYS_MAX;
	r = *in;
	if (days > 0 && rating_period(in, NULL, 0, RATING_TAU,
	    days * RATING_PERIODS_PER_DAY, &r) == -1)
		return (-1);
	rating_bound(&r);
	*out = r;
	return (0);
}

/* Is the rating provisional (RD 110 or more)? */
int
rating_provisional(const struct rating *r)
{
	return (r->rd >= RATING_PROVISIONAL_RD);
}

/*
 * What a player is shown of a rating: rating and RD rounded to whole
 * numbers (halves away from zero), provisional as rating_provisional
 * says from the unrounded RD.
 */
void
rating_show(const struct rating *r, struct rating_shown *s)
{
	s->r = lround(r->r);
	s->rd = lround(r->rd);
	s->provisional = rating_provisional(r);
}

/*
 * The change a player is shown after a game: the difference of the
 * shown ratings, so that the old one plus the change is the new one.
 */
long
rating_change(const struct rating *before, const struct rating *after)
{
	return (lround(after->r) - lround(before->r));
}
