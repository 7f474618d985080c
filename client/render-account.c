/*
 * render-account.c -- what ttt-client shows of accounts (protocol.md §12):
 * signing in, a rating, the rated games of /history and the leaderboard
 * of /top as small tables, and what became of the key.  The names in the
 * lines have passed proto_name_valid (or are "(deleted)"), and the other
 * words the event parser's checks, so they are shown as they are.
 *
 * Pure functions with snprintf semantics, like render.c's.
 */
#include <stdio.h>
#include <string.h>

#include "render.h"
#include "utf8.h"

/* A rating this uncertain or more is provisional (protocol.md §12.3). */
#define RENDER_PROVISIONAL_RD	110

static int	render_name(char *, size_t, const char *, int);
static int	render_login(char *, size_t, const struct proto_event *);
static int	render_rating(char *, size_t, const struct proto_event *);
static int	render_list(char *, size_t, const struct proto_event *);
static int	render_played(char *, size_t, const struct proto_event *);
static int	render_ranked(char *, size_t, const struct proto_event *);

/* A name padded with blanks to width characters (UTF-8 counted as one). */
static int
render_name(char *buf, size_t size, const char *name, int width)
{
	int	chars = (int)utf8_count(name, strlen(name));

	return (snprintf(buf, size, "%s%*s", name,
	    chars < width ? width - chars : 0, ""));
}

/* OK LOGIN: who the player is now, and how it is rated. */
static int
render_login(char *buf, size_t size, const struct proto_event *ev)
{
	return (snprintf(buf, size, "Signed in as %s (rating %ld%s).\n",
	    ev->name, ev->acct.rating, ev->acct.rd >= RENDER_PROVISIONAL_RD ?
	    ", provisional" : ""));
}

/* OK RATING: the rating, its RD and the record, on two lines. */
static int
render_rating(char *buf, size_t size, const struct proto_event *ev)
{
	const struct proto_account	*a = &ev->acct;

	return (snprintf(buf, size, "%s: rating %ld%s, RD %ld\n"
	    "  %u game%s: %u won, %u lost, %u tied\n", ev->name, a->rating,
	    a->provisional ? "? (provisional)" : "", a->rd, a->games,
	    a->games == 1 ? "" : "s", a->wins, a->losses, a->ties));
}

/* OK HISTORY k, OK TOP k: the table's heading, or why there is none. */
static int
render_list(char *buf, size_t size, const struct proto_event *ev)
{
	if (ev->verb == PROTO_HISTORY && ev->number == 0)
		return (snprintf(buf, size, "No rated games yet.\n"));
	if (ev->verb == PROTO_HISTORY)
		return (snprintf(buf, size, "Rated games, newest first:\n"
		    "  ended (UTC)       %-16s  %-16s  winner  moves\n", "X",
		    "O"));
	if (ev->number == 0)
		return (snprintf(buf, size, "Nobody is ranked yet: a player is ranked once its rating is no longer provisional.\n"));
	return (snprintf(buf, size, "  rank  %-16s  rating    RD  games\n",
	    "name"));
}

/* PLAYED: one row of /history's table. */
static int
render_played(char *buf, size_t size, const struct proto_event *ev)
{
	const struct proto_account	*a = &ev->acct;
	char				 x[64], o[64];
	const char			*winner;

	render_name(x, sizeof x, ev->name, PROTO_NAME_CHARS);
	render_name(o, sizeof o, ev->name2, PROTO_NAME_CHARS);
	winner = a->winner == 'X' ? "X" : a->winner == 'O' ? "O" : "tie";
	/* 2026-11-29T02:24:26Z is shown as 2026-11-29 02:24. */
	return (snprintf(buf, size, "  %.10s %.5s  %s  %s  %-6s  %s\n",
	    a->when, a->when + 11, x, o, winner, a->moves));
}

/* RANKED: one row of /top's table. */
static int
render_ranked(char *buf, size_t size, const struct proto_event *ev)
{
	char	name[64];

	render_name(name, sizeof name, ev->name, PROTO_NAME_CHARS);
	return (snprintf(buf, size, "  %4u  %s  %6ld  %4ld  %5u\n",
	    ev->acct.rank, name, ev->acct.rating, ev->acct.rd,
	    ev->acct.games));
}

/*
 * The accounts' lines as the player sees them: OK LOGIN, OK REGISTER,
 * OK RATING, OK HISTORY and OK TOP with their PLAYED and RANKED rows.
 * Nothing ("") for any other line (KEY is the client's: render_key_kept).
 */
int
render_account(char *buf, size_t size, const struct proto_event *ev)
{
	if (size > 0)
		buf[0] = '\0';
	if (ev->kind == PROTO_EV_PLAYED)
		return (render_played(buf, size, ev));
	if (ev->kind == PROTO_EV_RANKED)
		return (render_ranked(buf, size, ev));
	if (ev->kind != PROTO_EV_OK)
		return (0);
	switch (ev->verb) {
	case PROTO_LOGIN:
		return (render_login(buf, size, ev));
	case PROTO_REGISTER:
		return (snprintf(buf, size, "Registered %s.\n", ev->name));
	case PROTO_RATING:
		return (render_rating(buf, size, ev));
	case PROTO_HISTORY:
	case PROTO_TOP:
		return (render_list(buf, size, ev));
	default:
		return (0);
	}
}

/* Where a new account's key is kept, and that it is the only copy. */
int
render_key_kept(char *buf, size_t size, const char *name, const char *path)
{
	return (snprintf(buf, size, "Your key is kept in %s\n"
	    "It is the only copy: the server cannot show it again. Copy that file to play as %s on another computer.\n",
	    path, name));
}

/*
 * A new account's key that could not be kept (why: the reason): shown, so
 * that it is not lost.
 */
int
render_key_unkept(char *buf, size_t size, const char *key, const char *path,
    const char *why)
{
	return (snprintf(buf, size, "Your key could not be kept in %s: %s\n"
	    "Your key is %s -- write it down: it is the only copy. To sign in with it, put it alone in that file, readable by you only (chmod 600).\n",
	    path, why, key));
}

/*
 * The server did not sign the player in with the key kept in path (ev:
 * its ERR): the player goes on as a guest, and the file is kept.
 */
int
render_key_refused(char *buf, size_t size, const struct proto_event *ev,
    const char *path)
{
	const char	*text = ev->error < PROTO_NERRORS ?
			    proto_error_text(ev->error) :
			    "The server reported an error.";

	if (ev->error == PROTO_EBAD_KEY)
		return (snprintf(buf, size, "The server refused the key kept in %s: %s\n"
		    "You play as a guest; the key file is kept.\n", path,
		    text));
	return (snprintf(buf, size, "Not signed in: %s\nYou play as a guest.\n",
	    text));
}
