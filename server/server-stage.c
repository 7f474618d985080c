/*
 * server-stage.c -- a callback's output, staged where it costs least.
 *
 * A move sends a few short lines to each of two players (OK MOVE, BOARD,
 * TURN), written at the callback's end (server_client_flush_all).  Kept
 * in each connection's evbuffer, every reply cost a chain allocated and
 * freed, and libevent's bookkeeping around one writev: a quarter of a
 * move's instructions.  Instead, while a connection's evbuffer is empty,
 * its lines are copied into one arena of the server's, as up to
 * SERVER_STAGE_SEGS pieces (a line that follows the connection's last
 * piece extends it), and written at the flush with one writev of those
 * pieces.  What the kernel does not take, and any output that cannot be
 * staged (the arena full, too many pieces, a connection corked or with
 * output pending), goes to the evbuffer as before, in order: a
 * connection has staged pieces or evbuffer output, never both.  The arena
 * is empty again after each flush of every connection.
 */
#include <sys/uio.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/event.h>

#include "server.h"

/* The arena: 0, or -1 (out of memory: nothing is staged, all works). */
int
server_stage_init(struct server *s)
{
	s->stage = malloc(SERVER_STAGE_MAX);
	s->stage_used = 0;
	return (s->stage != NULL ? 0 : -1);
}

void
server_stage_free(struct server *s)
{
	free(s->stage);
	s->stage = NULL;
}

/*
 * Stage len bytes of a connection's output: 0, or -1 when they must go
 * to its evbuffer (after server_stage_spill, to keep the order).
 */
int
server_stage_add(struct server_client *sc, const char *buf, size_t len)
{
	struct server		*s = sc->server;
	struct server_stage_seg	*g;

	if (s->stage == NULL || len > SERVER_STAGE_MAX - s->stage_used ||
	    (sc->nseg == 0 && evbuffer_get_length(sc->out) > 0))
		return (-1);
	g = sc->nseg > 0 ? &sc->seg[sc->nseg - 1] : NULL;
	if (g == NULL || g->off + g->len != s->stage_used) {
		if (sc->nseg == SERVER_STAGE_SEGS)
			return (-1);
		g = &sc->seg[sc->nseg++];
		g->off = (uint32_t)s->stage_used;
		g->len = 0;
	}
	memcpy(s->stage + s->stage_used, buf, len);
	g->len += (uint32_t)len;
	s->stage_used += len;
	return (0);
}

/* Move a connection's staged pieces, from byte skip on, to its evbuffer. */
static void
server_stage_move(struct server_client *sc, size_t skip)
{
	struct server_stage_seg	*g;
	unsigned		 i;

	for (i = 0; i < sc->nseg; i++) {
		g = &sc->seg[i];
		if (skip >= g->len) {
			skip -= g->len;
			continue;
		}
		evbuffer_add(sc->out, sc->server->stage + g->off + skip,
		    g->len - skip);
		skip = 0;
	}
	sc->nseg = 0;
}

/* The bytes a connection has staged. */
size_t
server_stage_len(const struct server_client *sc)
{
	size_t		n = 0;
	unsigned	i;

	for (i = 0; i < sc->nseg; i++)
		n += sc->seg[i].len;
	return (n);
}

/* A connection's staged output to its evbuffer, all of it. */
void
server_stage_spill(struct server_client *sc)
{
	server_stage_move(sc, 0);
}

/*
 * Write a connection's staged output to fd (its evbuffer is empty): what
 * the kernel does not take, or all of it after an error, goes to the
 * evbuffer, for the write event (whose callback meets the error).
 */
void
server_stage_write(struct server_client *sc, int fd)
{
	struct iovec	iov[SERVER_STAGE_SEGS];
	size_t		total = 0;
	ssize_t		n;
	unsigned	i;

	for (i = 0; i < sc->nseg; i++) {
		iov[i].iov_base = sc->server->stage + sc->seg[i].off;
		iov[i].iov_len = sc->seg[i].len;
		total += sc->seg[i].len;
	}
	do
		n = writev(fd, iov, (int)sc->nseg);
	while (n == -1 && errno == EINTR);
	if (n == (ssize_t)total) {
		sc->nseg = 0;
		return;
	}
	server_stage_move(sc, n > 0 ? (size_t)n : 0);
}

/* Every connection flushed: the arena is free again. */
void
server_stage_reset(struct server *s)
{
	s->stage_used = 0;
}
