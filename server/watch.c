/*
 * watch.c -- spectators: a match's watchers get its BOARD, TURN, RESULT,
 * CHAT and INFO lines, read-only.  Each watcher's output goes through its
 * own connection's cap, so a watcher that does not read slows nobody.
 */
#include <stdio.h>

#include "lobby.h"
#include "match.h"
#include "place.h"

/* Start watching a live match. */
void
watch_start(struct client *c, struct match *m)
{
	c->watching = m;
	place_set(c, PLACE_WATCH);
	TAILQ_INSERT_TAIL(&m->watchers, c, watch_entry);
	m->nwatchers++;
	c->lobby->nwatchers++;
}

/* Stop watching, if watching. */
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

/* The match is no longer live: its watchers are told and queued. */
void
watch_release(struct match *m)
{
	struct client	*w;
	char		 buf[PROTO_OUT_MAX], text[64];

	snprintf(text, sizeof text, "Game %llu is over.",
	    (unsigned long long)m->id);
	while ((w = TAILQ_FIRST(&m->watchers)) != NULL) {
		watch_stop(w);
		client_send(w, buf, proto_fmt_info(buf, sizeof buf, text));
		lobby_join(w->lobby, w);
	}
}
