/*
 * bench-report.c -- ttt-bench's output: a progress line a second on
 * request, and the final report, for people and as one RESULT line (or one
 * JSON object with --json) for scripts; with several ports, each port's
 * ops and latencies besides (PORT lines, or the object's "ports"); with
 * --resume, the reconnections, resumes and games lost, and the time from
 * a loss to OK RESUME (more fields on the RESULT line, or in the object).
 */
#include <stdio.h>
#include <string.h>

#include "bench.h"

/* A histogram's percentiles, in microseconds. */
struct bench_lat {
	uint64_t	 p50, p90, p99, p999, max;
};

struct bench_summary {
	const char	*mode;
	const char	*what;		/* "moves" or "pings" */
	double		 seconds;	/* measured */
	double		 ramp;		/* seconds before measuring */
	double		 ops_per_s;
	uint64_t	 p50, p90, p99, p999, max;	/* microseconds */
};

static uint64_t	bench_report_us(uint64_t);
static void	bench_report_lat(const struct hist *, struct bench_lat *);
static int	bench_report_port_conns(const struct bench *, int);
static void	bench_report_sum(const struct bench *, struct bench_summary *);
static void	bench_report_ports_human(const struct bench *,
		    const struct bench_summary *);
static void	bench_report_ports_result(const struct bench *,
		    const struct bench_summary *);
static void	bench_report_ports_json(const struct bench *,
		    const struct bench_summary *);
static void	bench_report_resume_human(const struct bench *);
static void	bench_report_resume_fields(const struct bench *, int);
static void	bench_report_human(const struct bench *,
		    const struct bench_summary *);
static void	bench_report_json(const struct bench *,
		    const struct bench_summary *);

/* Nanoseconds to whole microseconds, rounded. */
static uint64_t
bench_report_us(uint64_t ns)
{
	return ((ns + 500) / 1000);
}

/* The percentiles of a histogram of nanoseconds, in microseconds. */
static void
bench_report_lat(const struct hist *h, struct bench_lat *l)
{
	l->p50 = bench_report_us(hist_percentile(h, 0.50));
	l->p90 = bench_report_us(hist_percentile(h, 0.90));
	l->p99 = bench_report_us(hist_percentile(h, 0.99));
	l->p999 = bench_report_us(hist_percentile(h, 0.999));
	l->max = bench_report_us(h->max);
}

/* How many connections went to port i: those numbered i mod n. */
static int
bench_report_port_conns(const struct bench *b, int i)
{
	const struct bench_opts	*o = b->opts;

	return (o->conns / o->ndst + (i < o->conns % o->ndst));
}

/* The figures derived from the counters. */
static void
bench_report_sum(const struct bench *b, struct bench_summary *s)
{
	const struct hist	*h = &b->st.lat;

	memset(s, 0, sizeof *s);
	s->mode = bench_mode_names[b->opts->mode];
	s->what = bench_mode_ops[b->opts->mode];
	s->seconds = (double)(b->stop_ns - b->start_ns) / 1e9;
	s->ramp = (double)(b->start_ns - b->t0_ns) / 1e9;
	if (s->seconds > 0)
		s->ops_per_s = (double)b->st.ops / s->seconds;
	s->p50 = bench_report_us(hist_percentile(h, 0.50));
	s->p90 = bench_report_us(hist_percentile(h, 0.90));
	s->p99 = bench_report_us(hist_percentile(h, 0.99));
	s->p999 = bench_report_us(hist_percentile(h, 0.999));
	s->max = bench_report_us(h->max);
}

/* One line a second: what is up, and the rate since the last line. */
void
bench_report_progress(struct bench *b, int64_t now)
{
	if (!b->measuring) {
		fprintf(stderr, "ttt-bench: %.1f s: ramp: %d open, %d connecting, %llu connect errors\n",
		    (double)(now - b->t0_ns) / 1e9, b->nopen, b->nconnecting,
		    (unsigned long long)b->st.connect_errors);
		return;
	}
	fprintf(stderr, "ttt-bench: %.1f s: %d open, %llu %s/s, %llu drops, %llu ERR\n",
	    (double)(now - b->start_ns) / 1e9, b->nopen,
	    (unsigned long long)(b->st.ops - b->prog_ops),
	    bench_mode_ops[b->opts->mode],
	    (unsigned long long)b->st.drops, (unsigned long long)b->st.errs);
	b->prog_ops = b->st.ops;
}

/* --resume: what the lost players did, and how long they were away. */
static void
bench_report_resume_human(const struct bench *b)
{
	const struct bench_stats	*st = &b->st;
	struct bench_lat		 l;

	if (b->res == NULL)
		return;
	bench_report_lat(&st->resume_lat, &l);
	printf("resume: %llu connections lost, %llu reconnects, %llu resumed, %llu refused, %llu gave up\n",
	    (unsigned long long)st->losses,
	    (unsigned long long)st->reconnects,
	    (unsigned long long)st->resumes,
	    (unsigned long long)st->resume_refused,
	    (unsigned long long)st->gave_up);
	printf("games lost: %llu (refused resumes, players gone holding a seat, %llu forfeits for a lost connection)\n",
	    (unsigned long long)st->games_lost,
	    (unsigned long long)st->lost_forfeits);
	printf("loss to OK RESUME (us): p50 %llu, p99 %llu, max %llu, count %llu\n",
	    (unsigned long long)l.p50, (unsigned long long)l.p99,
	    (unsigned long long)l.max,
	    (unsigned long long)st->resume_lat.count);
}

/*
 * --resume: its fields, appended to the RESULT line (key=value) or, with
 * json, to the JSON object ("key":value); nothing without --resume.
 */
static void
bench_report_resume_fields(const struct bench *b, int json)
{
	static const char *const	 names[] = { "losses", "reconnects",
	    "resumes", "resume_refused", "gave_up", "lost_forfeits",
	    "games_lost", "resume_count", "resume_p50_us", "resume_p99_us",
	    "resume_max_us" };
	const struct bench_stats	*st = &b->st;
	struct bench_lat		 l;
	uint64_t			 v[sizeof names / sizeof names[0]];
	size_t				 i;

	if (b->res == NULL)
		return;
	bench_report_lat(&st->resume_lat, &l);
	v[0] = st->losses;
	v[1] = st->reconnects;
	v[2] = st->resumes;
	v[3] = st->resume_refused;
	v[4] = st->gave_up;
	v[5] = st->lost_forfeits;
	v[6] = st->games_lost;
	v[7] = st->resume_lat.count;
	v[8] = l.p50;
	v[9] = l.p99;
	v[10] = l.max;
	for (i = 0; i < sizeof names / sizeof names[0]; i++)
		printf(json ? ",\"%s\":%llu" : " %s=%llu", names[i],
		    (unsigned long long)v[i]);
}

/* The report for people, then the RESULT line. */
static void
bench_report_human(const struct bench *b, const struct bench_summary *s)
{
	const struct bench_opts	*o = b->opts;
	const struct bench_stats *st = &b->st;
	struct bench_lat	 l;

	bench_report_lat(&st->last, &l);
	printf("ttt-bench: %s mode, %d %s connections to %s port%s %s, think %d ms%s%s, %.2f s measured after a %.2f s ramp\n",
	    s->mode, o->conns, o->ws ? "WebSocket" : "TCP", o->host,
	    o->ndst > 1 ? "s" : "", o->port, o->think_ms,
	    o->busy_poll ? ", busy-polling" : "",
	    o->kstamp ? ", kernel receive times" : "", s->seconds, s->ramp);
	printf("connections: %llu held, %llu connect errors, %llu drops\n",
	    (unsigned long long)st->held,
	    (unsigned long long)st->connect_errors,
	    (unsigned long long)st->drops);
	if (b->connect_errno != 0)
		printf("first connect error: %s\n", strerror(b->connect_errno));
	if (o->mode == BENCH_GAME)
		printf("games: %llu finished, %llu forfeits\n",
		    (unsigned long long)st->games,
		    (unsigned long long)st->forfeits);
	if (o->reg != NULL)
		printf("accounts: %llu registered; games %llu rated, %llu "
		    "not rated (%.1f rated/s)\n",
		    (unsigned long long)st->registered,
		    (unsigned long long)st->rated,
		    (unsigned long long)st->unrated,
		    s->seconds > 0 ? (double)st->rated / s->seconds : 0.0);
	printf("%s: %llu acknowledged, %.1f/s, %llu ERR lines, %llu bad lines\n",
	    s->what, (unsigned long long)st->ops, s->ops_per_s,
	    (unsigned long long)st->errs, (unsigned long long)st->bad);
	printf("latency (us): p50 %llu, p90 %llu, p99 %llu, p99.9 %llu, max %llu\n",
	    (unsigned long long)s->p50, (unsigned long long)s->p90,
	    (unsigned long long)s->p99, (unsigned long long)s->p999,
	    (unsigned long long)s->max);
	if (o->mode == BENCH_GAME) {
		bench_report_lat(&st->last, &l);
		printf("a game's last move to its RESULT (us): p50 %llu, p99 %llu, count %llu\n",
		    (unsigned long long)l.p50, (unsigned long long)l.p99,
		    (unsigned long long)st->last.count);
	}
	bench_report_resume_human(b);
	bench_report_ports_human(b, s);
	printf("RESULT mode=%s transport=%s conns=%d held=%llu connect_errors=%llu drops=%llu games=%llu forfeits=%llu ops=%llu ops_per_s=%.1f errs=%llu bad=%llu p50_us=%llu p90_us=%llu p99_us=%llu p999_us=%llu max_us=%llu seconds=%.2f",
	    s->mode, o->ws ? "ws" : "tcp", o->conns, (unsigned long long)st->held,
	    (unsigned long long)st->connect_errors,
	    (unsigned long long)st->drops, (unsigned long long)st->games,
	    (unsigned long long)st->forfeits, (unsigned long long)st->ops,
	    s->ops_per_s, (unsigned long long)st->errs,
	    (unsigned long long)st->bad, (unsigned long long)s->p50,
	    (unsigned long long)s->p90, (unsigned long long)s->p99,
	    (unsigned long long)s->p999, (unsigned long long)s->max,
	    s->seconds);
	bench_report_resume_fields(b, 0);
	if (o->reg != NULL)
		printf(" registered=%llu rated=%llu unrated=%llu",
		    (unsigned long long)st->registered,
		    (unsigned long long)st->rated,
		    (unsigned long long)st->unrated);
	if (o->mode == BENCH_GAME)
		printf(" last_count=%llu last_p50_us=%llu last_p99_us=%llu",
		    (unsigned long long)st->last.count,
		    (unsigned long long)l.p50, (unsigned long long)l.p99);
	printf("\n");
	bench_report_ports_result(b, s);
}

/* With several ports: each port's ops and latencies, for people. */
static void
bench_report_ports_human(const struct bench *b, const struct bench_summary *s)
{
	const struct bench_port_stats	*ps;
	struct bench_lat		 l;
	int				 i;

	for (i = 0; b->ports != NULL && i < b->opts->ndst; i++) {
		ps = &b->ports[i];
		bench_report_lat(&ps->lat, &l);
		printf("port %s (%d connections): %llu %s, %.1f/s; latency (us): p50 %llu, p90 %llu, p99 %llu, p99.9 %llu, max %llu\n",
		    b->opts->dstport[i], bench_report_port_conns(b, i),
		    (unsigned long long)ps->ops, s->what,
		    s->seconds > 0 ? (double)ps->ops / s->seconds : 0,
		    (unsigned long long)l.p50, (unsigned long long)l.p90,
		    (unsigned long long)l.p99, (unsigned long long)l.p999,
		    (unsigned long long)l.max);
	}
}

/* With several ports: a PORT line each, after the RESULT line. */
static void
bench_report_ports_result(const struct bench *b,
    const struct bench_summary *s)
{
	const struct bench_port_stats	*ps;
	struct bench_lat		 l;
	int				 i;

	for (i = 0; b->ports != NULL && i < b->opts->ndst; i++) {
		ps = &b->ports[i];
		bench_report_lat(&ps->lat, &l);
		printf("PORT port=%s conns=%d ops=%llu ops_per_s=%.1f p50_us=%llu p90_us=%llu p99_us=%llu p999_us=%llu max_us=%llu\n",
		    b->opts->dstport[i], bench_report_port_conns(b, i),
		    (unsigned long long)ps->ops,
		    s->seconds > 0 ? (double)ps->ops / s->seconds : 0,
		    (unsigned long long)l.p50, (unsigned long long)l.p90,
		    (unsigned long long)l.p99, (unsigned long long)l.p999,
		    (unsigned long long)l.max);
	}
}

/* With several ports: the JSON object's "ports", an array. */
static void
bench_report_ports_json(const struct bench *b, const struct bench_summary *s)
{
	const struct bench_port_stats	*ps;
	struct bench_lat		 l;
	int				 i;

	printf(",\"ports\":[");
	for (i = 0; i < b->opts->ndst; i++) {
		ps = &b->ports[i];
		bench_report_lat(&ps->lat, &l);
		printf("%s{\"port\":%s,\"conns\":%d,\"ops\":%llu,\"ops_per_s\":%.1f,\"p50_us\":%llu,\"p90_us\":%llu,\"p99_us\":%llu,\"p999_us\":%llu,\"max_us\":%llu}",
		    i > 0 ? "," : "", b->opts->dstport[i],
		    bench_report_port_conns(b, i),
		    (unsigned long long)ps->ops,
		    s->seconds > 0 ? (double)ps->ops / s->seconds : 0,
		    (unsigned long long)l.p50, (unsigned long long)l.p90,
		    (unsigned long long)l.p99, (unsigned long long)l.p999,
		    (unsigned long long)l.max);
	}
	printf("]");
}

/* The report as one JSON object, for --json. */
static void
bench_report_json(const struct bench *b, const struct bench_summary *s)
{
	const struct bench_stats *st = &b->st;
	struct bench_lat	 l;

	printf("{\"mode\":\"%s\",\"transport\":\"%s\",\"conns\":%d,\"think_ms\":%d,\"seconds\":%.3f,\"ramp_seconds\":%.3f,\"held\":%llu,\"connect_errors\":%llu,\"drops\":%llu,\"games\":%llu,\"forfeits\":%llu,\"ops\":%llu,\"ops_per_s\":%.1f,\"errs\":%llu,\"bad\":%llu,\"p50_us\":%llu,\"p90_us\":%llu,\"p99_us\":%llu,\"p999_us\":%llu,\"max_us\":%llu",
	    s->mode, b->opts->ws ? "ws" : "tcp", b->opts->conns,
	    b->opts->think_ms, s->seconds, s->ramp,
	    (unsigned long long)st->held,
	    (unsigned long long)st->connect_errors,
	    (unsigned long long)st->drops, (unsigned long long)st->games,
	    (unsigned long long)st->forfeits, (unsigned long long)st->ops,
	    s->ops_per_s, (unsigned long long)st->errs,
	    (unsigned long long)st->bad, (unsigned long long)s->p50,
	    (unsigned long long)s->p90, (unsigned long long)s->p99,
	    (unsigned long long)s->p999, (unsigned long long)s->max);
	bench_report_resume_fields(b, 1);
	if (b->opts->reg != NULL)
		printf(",\"registered\":%llu,\"rated\":%llu,\"unrated\":%llu",
		    (unsigned long long)st->registered,
		    (unsigned long long)st->rated,
		    (unsigned long long)st->unrated);
	if (b->opts->mode == BENCH_GAME) {
		bench_report_lat(&st->last, &l);
		printf(",\"last_count\":%llu,\"last_p50_us\":%llu,\"last_p99_us\":%llu",
		    (unsigned long long)st->last.count,
		    (unsigned long long)l.p50, (unsigned long long)l.p99);
	}
	if (b->ports != NULL)
		bench_report_ports_json(b, s);
	printf("}\n");
}

/* The final report, on stdout. */
void
bench_report(const struct bench *b)
{
	struct bench_summary	s;

	bench_report_sum(b, &s);
	if (b->opts->json)
		bench_report_json(b, &s);
	else
		bench_report_human(b, &s);
	fflush(stdout);
}
