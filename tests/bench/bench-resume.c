/*
 * bench-resume.c -- --resume: a game-mode player that loses its connection
 * comes back and takes its seat again, as a client of a cluster whose
 * node died (SIGKILL) or was drained (SIGUSR2) would.
 *
 * A player keeps the token of its seat from its last TOKEN line.  When its
 * connection ends without a BYE (end of file, reset, a WebSocket close),
 * or right after the draining node's BYE line, or when it drops the
 * connection itself (--drop-every: when its turn comes after every Nth
 * move, so that it has read every line of the move before, RESULT
 * included, and no game can end while it is away), it connects again from
 * a timer: to
 * the next port of the list after the one it lost, so that a dead node's
 * players come back through the live ones.  A failed attempt tries the
 * next port after a backoff (25 ms, doubling up to 1 s), until
 * --reconnect-for seconds after the loss; then the player gives up.  Once
 * up, a player with a token sends RESUME <token> and goes on from the
 * lines that follow; one without (still queued) is simply queued again.
 * No line of an episode is waited for with a timer: the server may hold
 * a RESUME for a few seconds while a dead node's matches are adopted.
 */
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "proto.h"

#define BRES_RESTART_BYE	"Server restarting. Reconnect and RESUME to go on."
#define BRES_QUEUED_WAIT	"Waiting for an opponent"
#define BRES_LOST_REASON	"lost the connection"
#define BRES_BACKOFF_MIN_MS	25
#define BRES_BACKOFF_MAX_MS	1000

static struct bres *bench_resume_of(const struct bench *, const struct bconn *);
static int	bench_resume_is(const struct proto_event *, const char *);
static int	bench_resume_has(const struct proto_event *, const char *);
static void	bench_resume_give_up(struct bench *, struct bres *);
static void	bench_resume_answer(struct bench *, struct bres *, int);
static void	bench_resume_show(struct bench *, struct bconn *);

/* A connection's resume state. */
static struct bres *
bench_resume_of(const struct bench *b, const struct bconn *c)
{
	return (&b->res[c - b->conns]);
}

/* Is an event's free text exactly this string? */
static int
bench_resume_is(const struct proto_event *ev, const char *s)
{
	return (ev->textlen == strlen(s) &&
	    memcmp(ev->text, s, ev->textlen) == 0);
}

/* Does an event's free text contain this string? */
static int
bench_resume_has(const struct proto_event *ev, const char *s)
{
	size_t	n = strlen(s), i;

	for (i = 0; i + n <= ev->textlen; i++) {
		if (memcmp(ev->text + i, s, n) == 0)
			return (1);
	}
	return (0);
}

/*
 * Is this ending connection to be connected again?  Yes during an episode
 * (a connect attempt failed, or the new connection was lost too), and for
 * an open player unless the server said a BYE other than the restart one.
 * A first connection that fails stays a connect error.
 */
int
bench_resume_again(const struct bench *b, const struct bconn *c)
{
	const struct bres	*r = bench_resume_of(b, c);

	if (b->finished)
		return (0);
	if (r->lost_ns != 0)
		return (1);
	return (c->state == BCONN_OPEN && r->bye != BRES_BYE_OTHER);
}

/* No connection within the bound: the player stops; its seat is lost. */
static void
bench_resume_give_up(struct bench *b, struct bres *r)
{
	b->st.gave_up++;
	if (r->token[0] != '\0')
		b->st.games_lost++;
	r->token[0] = '\0';
	r->lost_ns = 0;
}

/*
 * A connection was lost and closed (was_open: it had been up): start an
 * episode, or go on with the one under way; connect again from a timer,
 * at once after a connection that was up, after the backoff after a
 * failed attempt.
 */
void
bench_resume_lost(struct bench *b, struct bconn *c, int was_open)
{
	struct bres	*r = bench_resume_of(b, c);
	int64_t		 now = bench_loop_now(), delay = 0;

	if (r->lost_ns == 0) {
		b->st.losses++;
		r->lost_ns = now;
		r->retry_by = now + (int64_t)(b->opts->reconnect_for * 1e9);
		r->backoff_ms = 0;
	} else if (!was_open) {
		if (r->backoff_ms == 0)
			r->backoff_ms = BRES_BACKOFF_MIN_MS;
		delay = (int64_t)r->backoff_ms * 1000000;
		if (r->backoff_ms < BRES_BACKOFF_MAX_MS)
			r->backoff_ms = (uint16_t)(r->backoff_ms * 2);
	}
	r->resuming = 0;
	r->bye = BRES_BYE_NONE;
	r->drop_due = 0;
	bench_resume_note(b, c, '#', "lost", 4);
	bench_due_cancel(&b->dueq, (int)(c - b->conns));
	if (now + delay > r->retry_by) {
		bench_resume_give_up(b, r);
		return;
	}
	c->state = BCONN_RETRY;
	bench_loop_after(b, c, delay);
}

/* The timer of a lost player: connect to the next port. */
void
bench_resume_retry(struct bench *b, struct bconn *c)
{
	c->dst = (uint8_t)((c->dst + 1) % b->opts->ndst);
	bench_loop_connect(b, c, bench_loop_now());
}

/*
 * A connection is up.  After a loss: RESUME with the seat's token, or
 * without one, nothing more (it is queued again, which ends the episode).
 */
void
bench_resume_open(struct bench *b, struct bconn *c)
{
	struct bres	*r = bench_resume_of(b, c);
	char		 line[sizeof r->token + 8];
	int		 len;

	if (r->lost_ns == 0)
		return;		/* the first connection */
	b->st.reconnects++;
	r->backoff_ms = 0;
	if (r->token[0] == '\0') {
		r->lost_ns = 0;
		return;
	}
	len = snprintf(line, sizeof line, "RESUME %s\n", r->token);
	r->resuming = 1;
	bench_loop_send(b, c, line, (size_t)len);
}

/*
 * The answer to RESUME: OK (the time since the loss into the histogram)
 * or an ERR (the seat is gone: a game lost).  The episode is over.
 */
static void
bench_resume_answer(struct bench *b, struct bres *r, int ok)
{
	if (ok) {
		b->st.resumes++;
		hist_record(&b->st.resume_lat,
		    (uint64_t)(bench_loop_now() - r->lost_ns));
	} else {
		b->st.resume_refused++;
		b->st.games_lost++;
		r->token[0] = '\0';
	}
	r->resuming = 0;
	r->lost_ns = 0;
}

/*
 * A game-mode line, before the game code: 1 when it was resume business
 * only (a TOKEN, the answer to RESUME, the restart BYE), else 0.  Keeps
 * the token, forgets it once back in the queue, notes other BYEs, counts
 * forfeits for a lost connection, and drops a move thought over when a
 * game ends.
 */
int
bench_resume_event(struct bench *b, struct bconn *c,
    const struct proto_event *ev)
{
	struct bres	*r = bench_resume_of(b, c);

	if (ev->kind == PROTO_EV_ERR && b->st.errs + b->st.resume_refused <
	    BRES_ERR_SHOWN)
		bench_resume_show(b, c);
	switch (ev->kind) {
	case PROTO_EV_TOKEN:
		memcpy(r->token, ev->code, sizeof r->token);
		r->token[sizeof r->token - 1] = '\0';
		return (1);
	case PROTO_EV_OK:
		if (ev->verb != PROTO_RESUME || !r->resuming)
			return (0);
		bench_resume_answer(b, r, 1);
		return (1);
	case PROTO_EV_ERR:
		if (!r->resuming)
			return (0);
		bench_resume_answer(b, r, 0);
		return (1);
	case PROTO_EV_BYE:
		if (!bench_resume_is(ev, BRES_RESTART_BYE)) {
			r->bye = BRES_BYE_OTHER;
			return (0);
		}
		r->bye = BRES_BYE_RESTART;
		bench_loop_lost(b, c, 1);
		return (1);
	case PROTO_EV_TURN:
		if (!r->drop_due || b->finished ||
		    ev->mark != (enum ttt_mark)c->mark)
			return (0);
		r->drop_due = 0;
		bench_loop_lost(b, c, 1);	/* a drop unless taken up again */
		return (1);
	case PROTO_EV_WAIT:
		if (!r->resuming && ev->textlen >= strlen(BRES_QUEUED_WAIT) &&
		    memcmp(ev->text, BRES_QUEUED_WAIT,
		    strlen(BRES_QUEUED_WAIT)) == 0)
			r->token[0] = '\0';	/* the match is over */
		return (0);
	case PROTO_EV_RESULT:
		/*
		 * A forfeit can end the game while we think over a move
		 * (the opponent's seat given up): that move is not sent.
		 */
		c->thinking = 0;
		if (ev->result == PROTO_RESULT_FORFEIT &&
		    bench_resume_has(ev, BRES_LOST_REASON)) {
			b->st.lost_forfeits++;
			b->st.games_lost++;
		}
		return (0);
	default:
		return (0);
	}
}

/*
 * A move was acknowledged: after every Nth, --drop-every closes the
 * connection when the player's turn comes next.
 */
void
bench_resume_moved(struct bench *b, struct bconn *c)
{
	struct bres	*r = bench_resume_of(b, c);

	if (b->opts->drop_every == 0 ||
	    ++r->moved < (uint32_t)b->opts->drop_every)
		return;
	r->moved = 0;
	r->drop_due = 1;
}

/*
 * Keep a line the player sent ('>'), received ('<') or an event of its
 * own ('#'), cut to BRES_HIST_LINE - 1 bytes, in its ring of the last
 * BRES_HIST.
 */
void
bench_resume_note(struct bench *b, struct bconn *c, char dir,
    const char *line, size_t len)
{
	struct bres	*r = bench_resume_of(b, c);
	char		*h = r->hist[r->hist_next];

	while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		len--;
	if (len > BRES_HIST_LINE - 4)
		len = BRES_HIST_LINE - 4;
	h[0] = dir;
	h[1] = ' ';
	memcpy(h + 2, line, len);
	h[2 + len] = '\0';
	r->hist_next = (uint8_t)((r->hist_next + 1) % BRES_HIST);
}

/*
 * An ERR: say which player, on which port, and the lines that led to it
 * (the ERR is the last), so that a failed run tells what happened.
 */
static void
bench_resume_show(struct bench *b, struct bconn *c)
{
	struct bres	*r = bench_resume_of(b, c);
	int		 i, k;

	fprintf(stderr, "ttt-bench: player %d (port #%d) got an ERR at"
	    " %.3f s, after:\n", (int)(c - b->conns), c->dst,
	    (double)(bench_loop_now() - b->t0_ns) / 1e9);
	for (i = 0; i < BRES_HIST; i++) {
		k = (r->hist_next + i) % BRES_HIST;
		if (r->hist[k][0] != '\0')
			fprintf(stderr, "  %s\n", r->hist[k]);
	}
}
