/*
 * e2e_chaos.c -- the pieces the chaos suites share: a random source, write
 * queues, failures collected to report once, names, and the server's
 * health before and after.
 */
#include <sys/types.h>

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness.h"
#include "e2e_chaos.h"
#include "e2e_game.h"

/* xorshift64*: a suite's only source of randomness. */
uint32_t
chaos_rng(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return ((uint32_t)((*s * 0x2545f4914f6cdd1dULL) >> 32));
}

/* Three in a row of mark s, whatever the other mark holds. */
int
chaos_has_line(const char *b, char s)
{
	char	only[10];
	int	i;

	for (i = 0; i < 9; i++)
		only[i] = b[i] == s ? s : '.';
	only[9] = '\0';
	return (game_winner(only) != 0);
}

/* Queue raw bytes, all or nothing. */
int
chaos_out_add(struct chaos_out *q, const void *data, size_t len)
{
	if (q->len + len > sizeof q->buf)
		return (-1);
	memcpy(q->buf + q->len, data, len);
	q->len += len;
	return (0);
}

/* Queue one line (CR LF added), all or nothing. */
int
chaos_out_line(struct chaos_out *q, const char *line)
{
	size_t	len = strlen(line);

	if (q->len + len + 2 > sizeof q->buf)
		return (-1);
	chaos_out_add(q, line, len);
	chaos_out_add(q, "\r\n", 2);
	return (0);
}

/* Send from the front of the queue, and shift what went. */
ssize_t
chaos_out_send(struct chaos_out *q, struct conn *c, size_t max)
{
	size_t	len = q->len;
	ssize_t	w;

	if (max != 0 && len > max)
		len = max;
	if ((w = conn_send_nb(c, q->buf, len)) <= 0)
		return (w);
	memmove(q->buf, q->buf + w, q->len - (size_t)w);
	q->len -= (size_t)w;
	return (w);
}

/* Send the whole queue, or as much as the socket takes. */
int
chaos_out_flush(struct chaos_out *q, struct conn *c)
{
	ssize_t	w;

	while (q->len > 0) {
		if ((w = chaos_out_send(q, c, 0)) == -1)
			return (-1);
		if (w == 0)
			break;
	}
	return (0);
}

/* Note a failure (the first CHAOS_FAILS are kept); fail at the end. */
void
chaos_fails_vadd(struct chaos_fails *f, const char *who, const char *fmt,
    va_list ap)
{
	int	n = 0;

	if (f->n < CHAOS_FAILS) {
		if (who != NULL)
			n = snprintf(f->msg[f->n], CHAOS_FAIL_LEN, "%s: ", who);
		if (n < 0 || n >= CHAOS_FAIL_LEN)
			n = 0;
		vsnprintf(f->msg[f->n] + n, (size_t)(CHAOS_FAIL_LEN - n), fmt,
		    ap);
	}
	f->n++;
}

/* Print every failure kept; fail the test if there was one. */
void
chaos_fails_report(const struct chaos_fails *f, const char *tag)
{
	int	i;

	for (i = 0; i < f->n && i < CHAOS_FAILS; i++)
		printf("%s: FAIL %s\n", tag, f->msg[i]);
	if (f->n > 0)
		fail_msg("%d failures (the first %d above)", f->n,
		    f->n < CHAOS_FAILS ? f->n : CHAOS_FAILS);
}

/* The client index a player name carries, if it is in range. */
int
chaos_name_index(const char *name, int n)
{
	const char	*p = name;
	int		 i;

	while (*p != '\0' && (*p < '0' || *p > '9'))
		p++;
	if (*p == '\0')
		return (-1);
	i = atoi(p);
	if (i < 0 || i >= n)
		return (-1);
	return (i);
}

/* The baseline, once the server has served one connection. */
void
chaos_health_start(struct chaos_health *h, struct tttd_proc *srv)
{
	struct conn	c;
	char		log[65536];
	long		deadline;
	int		fds;

	if (conn_open(&c, srv->port) == -1)
		fail_msg("cannot connect for the baseline: %s",
		    strerror(errno));
	conn_send(&c, "PING");
	expect_skip_to(&c, "OK PONG", NULL, 0);
	fds = harness_nfds(srv) - 1;	/* all but this connection */
	conn_send(&c, "QUIT");
	expect_skip_to(&c, "BYE ", NULL, 0);
	assert_true(conn_wait_closed(&c, HARNESS_TIMEOUT_MS));
	conn_close(&c);
	/* The server lingers until our close reaches it. */
	deadline = harness_now_ms() + 5000;
	while ((h->fds0 = harness_nfds(srv)) != fds &&
	    harness_now_ms() < deadline)
		usleep(10 * 1000);
	if (h->fds0 != fds)
		fail_msg("the server holds %d descriptors after the baseline's "
		    "connection closed, %d while it was open", h->fds0,
		    fds + 1);
	harness_log(srv, log, sizeof log);
	h->rss0 = h->rss_peak = harness_rss_kb(srv);
	h->next_sample = 0;
}

/* The peak RSS, sampled now and then. */
void
chaos_health_sample(struct chaos_health *h, struct tttd_proc *srv, long now)
{
	long	rss;

	if (now < h->next_sample)
		return;
	if ((rss = harness_rss_kb(srv)) > h->rss_peak)
		h->rss_peak = rss;
	h->next_sample = now + 250;
}

/* Every descriptor let go of, and the RSS near where it began. */
void
chaos_health_end(struct chaos_health *h, struct tttd_proc *srv,
    const char *tag, const char *why_not)
{
	char	log[65536];
	long	deadline, rss;
	int	fds;

	deadline = harness_now_ms() + 5000;
	while ((fds = harness_nfds(srv)) != h->fds0 &&
	    harness_now_ms() < deadline) {
		harness_log(srv, log, sizeof log);
		usleep(50 * 1000);
	}
	rss = harness_rss_kb(srv);
	printf("%s: server descriptors %d before, %d after; RSS %ld KiB at "
	    "start, %ld KiB at the peak, %ld KiB at the end (bound: start + "
	    "%d KiB%s%s)\n", tag, h->fds0, fds, h->rss0, h->rss_peak, rss,
	    CHAOS_RSS_SLACK_KB, why_not != NULL ? ", not checked " : "",
	    why_not != NULL ? why_not : "");
	if (fds != h->fds0)
		fail_msg("the server holds %d descriptors, %d before the chaos",
		    fds, h->fds0);
	if (why_not == NULL && rss > h->rss0 + CHAOS_RSS_SLACK_KB)
		fail_msg("server RSS %ld KiB after the chaos, %ld KiB before",
		    rss, h->rss0);
}
