/*
 * watch.c -- spectators: a match's watchers get its BOARD, TURN, RESULT,
 * CHAT and INFO lines, read-only, and chat among themselves; the players
 * are told who comes and goes.  Each watcher's output goes through its
 * own connection's cap, so a watcher that does not read slows nobody.
 */
#include <stdio.h>

#include "lobby.h"
#include "match.h"
#include "place.h"

static void	watch_tell_players(struct client *, const char *);

/* Start watching a live match; its players are told, if tell. */
void
watch_start(struct client *c, struct match *m, int tell)
{
	c->watching = m;
	place_set(c, PLACE_WATCH);
	TAILQ_INSERT_TAIL(&m->watchers, c, watch_entry);
	m->nwatchers++;
	c->lobby->nwatchers++;
	if (tell)
		watch_tell_players(c, "is watching");
}

/*
 * Tell the players of the watched match that this watcher came or went:
 * "<name> is watching." ("Someone", for a watcher without a name).  A few
 * at once, then one every LOBBY_WATCH_NOTE_MS for the match, so that
 * watchers coming and going cannot flood the players.
 */
static void
watch_tell_players(struct client *c, const char *what)
{
	struct match	*m = c->watching;
	char		 buf[PROTO_OUT_MAX], text[PROTO_NAME_MAX + 32];

	if (!ratelimit_take_every(&m->watch_notes, LOBBY_WATCH_NOTE_MS,
	    LOBBY_WATCH_NOTES, c->lobby->ops->now()))
		return;
	snprintf(text, sizeof text, "%s %s.",
	    c->name[0] != '\0' ? c->name : "Someone", what);
	match_broadcast(m, buf, proto_fmt_info(buf, sizeof buf, text));
}

/*
 * A watcher stops watching (UNWATCH, something else, QUIT, its connection
 * lost): the players are told, unless the server is closing it for not
 * reading, which it may have noticed in the middle of a game's lines.
 */
void
watch_leave(struct client *c)
{
	if (c->watching == NULL)
		return;
	if (!(c->flags & CLIENT_CLOSING))
		watch_tell_players(c, "stopped watching");
	watch_stop(c);
}

/* A watcher's CHAT line, to the match's other watchers. */
void
watch_chat(struct client *c, const char *buf, int len)
{
	struct client	*w;

	TAILQ_FOREACH(w, &c->watching->watchers, watch_entry) {
		if (w != c)
			client_send(w, buf, len);
	}
}

/* Stop watching, if watching (nobody is told). */
void
watch_stop(struct client *c)
{
	if (c->watching == NULL)
		return;
	TAILQ_REMOVE(&c->watching->watchers, c, watch_entry);
	c->watching->nwatchers--;
	c->watching = NULL;
	place_set(c, PLACE_NONE);
	c->lobby->nwatchers--;
}

/* The same bytes to every watcher of a match. */
void
watch_send(struct match *m, const char *buf, int len)
{
	struct client	*w;

	TAILQ_FOREACH(w, &m->watchers, watch_entry)
		client_send(w, buf, len);
}

/*
 * The match is no longer live: its watchers are told, and let go with no
 * place.  None is queued: a watcher plays only if it asks to (PLAY, a
 * room, the computer), never because a match it watched ended.  One of
 * another node goes back to it, placed nowhere there too.
 */
void
watch_release(struct match *m)
{
	struct client	*w;
	char		 buf[PROTO_OUT_MAX], text[64];

	snprintf(text, sizeof text, PROTO_INFO_GAME_OVER,
	    (unsigned long long)m->id);
	while ((w = TAILQ_FIRST(&m->watchers)) != NULL) {
		watch_stop(w);
		client_send(w, buf, proto_fmt_info(buf, sizeof buf, text));
		client_send(w, buf, proto_fmt_info(buf, sizeof buf,
		    PROTO_INFO_WATCH_OVER));
		(void)client_home(w, CLIENT_HOME_FREE);
	}
}
