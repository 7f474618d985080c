/*
 * ttt-bench.c -- load generator for tttd: options, the descriptor limit,
 * the run, the report.
 *
 *	ttt-bench HOST PORT[,PORT...] --conns N --duration S [--games N]
 *	    [--ops N] [--ramp R] [--think MS] [--think-jitter PCT]
 *	    [--mode game|ping|relay|name] [--src ADDR,ADDR,...]
 *	    [--connect-timeout S] [--warmup S] [--ws] [--busy-poll]
 *	    [--kstamp] [--resume [--reconnect-for S] [--drop-every N]]
 *	    [--progress] [--json]
 *
 * With several ports (the nodes of a cluster, say), connection i goes to
 * the (i mod n)th.  With --ws, PORT is tttd's HTTP port: each connection
 * upgrades with GET /ws and then sends and reads its lines as WebSocket
 * text messages.  With --resume (game mode) a player whose connection is
 * lost reconnects, to the next port first, and sends RESUME <token>;
 * --drop-every N makes each player close its own connection after every
 * Nth move, to exercise that path against a single tttd.
 *
 * Exit status 0 when there was no connect error, drop, ERR line or bad
 * line, no player gave up reconnecting, and --games or --ops (if given)
 * was reached within --duration; 1 otherwise (and for usage errors).
 */
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/types.h>

#include <errno.h>
#include <getopt.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

#define BENCH_FD_HEADROOM	16	/* descriptors beyond the connections */

enum bench_opt {
	OPT_CONNS = 256,
	OPT_DURATION,
	OPT_GAMES,
	OPT_OPS,
	OPT_RAMP,
	OPT_THINK,
	OPT_JITTER,
	OPT_MODE,
	OPT_SRC,
	OPT_CONNECT_TIMEOUT,
	OPT_WARMUP,
	OPT_WS,
	OPT_BUSY_POLL,
	OPT_KSTAMP,
	OPT_RESUME,
	OPT_RECONNECT_FOR,
	OPT_DROP_EVERY,
	OPT_REGISTER,
	OPT_PROGRESS,
	OPT_JSON,
	OPT_HELP
};

static const struct option bench_longopts[] = {
	{ "conns",		required_argument,	NULL, OPT_CONNS },
	{ "duration",		required_argument,	NULL, OPT_DURATION },
	{ "games",		required_argument,	NULL, OPT_GAMES },
	{ "ops",		required_argument,	NULL, OPT_OPS },
	{ "ramp",		required_argument,	NULL, OPT_RAMP },
	{ "think",		required_argument,	NULL, OPT_THINK },
	{ "think-jitter",	required_argument,	NULL, OPT_JITTER },
	{ "mode",		required_argument,	NULL, OPT_MODE },
	{ "src",		required_argument,	NULL, OPT_SRC },
	{ "connect-timeout",	required_argument,	NULL,
	    OPT_CONNECT_TIMEOUT },
	{ "warmup",		required_argument,	NULL, OPT_WARMUP },
	{ "ws",			no_argument,		NULL, OPT_WS },
	{ "busy-poll",		no_argument,		NULL, OPT_BUSY_POLL },
	{ "kstamp",		no_argument,		NULL, OPT_KSTAMP },
	{ "resume",		no_argument,		NULL, OPT_RESUME },
	{ "reconnect-for",	required_argument,	NULL,
	    OPT_RECONNECT_FOR },
	{ "drop-every",		required_argument,	NULL, OPT_DROP_EVERY },
	{ "register",		required_argument,	NULL, OPT_REGISTER },
	{ "progress",		no_argument,		NULL, OPT_PROGRESS },
	{ "json",		no_argument,		NULL, OPT_JSON },
	{ "help",		no_argument,		NULL, OPT_HELP },
	{ NULL,			0,			NULL, 0 }
};

static void	usage(FILE *);
static const char *opt_name(int);
static int	parse_number(const char *, double, double, double *);
static int	parse_dst(struct bench_opts *);
static int	parse_src(struct bench_opts *, const char *);
static int	parse_args(int, char **, struct bench_opts *, const char **);
static int	check_args(const struct bench_opts *);
static int	fit_fd_limit(int);
static uint64_t	ws_seed(void);

/* The synopsis. */
static void
usage(FILE *f)
{
	fprintf(f, "usage: ttt-bench HOST PORT[,PORT...] --conns N --duration SECS [--games N] [--ops N] [--ramp CONNS_PER_SEC] [--think MS] [--think-jitter PCT] [--mode game|ping|relay|name] [--src ADDR,ADDR,...] [--connect-timeout SECS] [--warmup SECS] [--ws] [--busy-poll] [--kstamp] [--resume [--reconnect-for SECS] [--drop-every N]] [--register PREFIX] [--progress] [--json]\n"
	    "PORT,PORT,...: connection i goes to the (i mod n)th port (the nodes of a cluster)\n"
	    "--resume: a lost player reconnects (to the next port first) and sends RESUME <token>\n"
	    "--register PREFIX: each player sends NAME PREFIX<its number> and REGISTER first (its games rated)\n");
}

/* The long name of an option. */
static const char *
opt_name(int val)
{
	const struct option	*lo;

	for (lo = bench_longopts; lo->name != NULL; lo++) {
		if (lo->val == val)
			return (lo->name);
	}
	return ("?");
}

/* A number within [min, max]: 0, or -1. */
static int
parse_number(const char *s, double min, double max, double *out)
{
	char	*end;
	double	 v;

	errno = 0;
	v = strtod(s, &end);
	if (errno != 0 || end == s || *end != '\0' || !(v >= min && v <= max))
		return (-1);
	*out = v;
	return (0);
}

/*
 * Resolve HOST and each port of PORT (one, or a comma-separated list:
 * connection i goes to the (i mod n)th), all of one address family.
 */
static int
parse_dst(struct bench_opts *o)
{
	struct addrinfo	 hints, *ai;
	const char	*p = o->port, *end;
	char		*dp;
	size_t		 len;
	int		 rc;

	memset(&hints, 0, sizeof hints);
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_NUMERICSERV;
	for (;;) {
		end = strchr(p, ',');
		len = end != NULL ? (size_t)(end - p) : strlen(p);
		if (o->ndst == BENCH_DST_MAX) {
			fprintf(stderr, "ttt-bench: at most %d ports\n",
			    BENCH_DST_MAX);
			return (-1);
		}
		dp = o->dstport[o->ndst];
		if (len == 0 || len >= BENCH_PORT_LEN ||
		    strspn(p, "0123456789") != len) {
			fprintf(stderr, "ttt-bench: bad port in %s\n", o->port);
			return (-1);
		}
		memcpy(dp, p, len);
		dp[len] = '\0';
		if (o->ndst > 0)
			hints.ai_family = o->dst[0].ss_family;
		if ((rc = getaddrinfo(o->host, dp, &hints, &ai)) != 0) {
			fprintf(stderr, "ttt-bench: %s port %s: %s\n", o->host,
			    dp, gai_strerror(rc));
			return (-1);
		}
		memcpy(&o->dst[o->ndst], ai->ai_addr, ai->ai_addrlen);
		o->dstlen[o->ndst++] = ai->ai_addrlen;
		freeaddrinfo(ai);
		if (end == NULL)
			return (0);
		p = end + 1;
	}
}

/* --src: numeric addresses of the destination's family, comma-separated. */
static int
parse_src(struct bench_opts *o, const char *list)
{
	struct addrinfo	 hints, *ai;
	char		 buf[1024], *word, *last;
	int		 rc;

	if (strlen(list) >= sizeof buf) {
		fprintf(stderr, "ttt-bench: --src is too long\n");
		return (-1);
	}
	strcpy(buf, list);
	memset(&hints, 0, sizeof hints);
	hints.ai_family = o->dst[0].ss_family;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_NUMERICHOST | AI_PASSIVE;
	for (word = strtok_r(buf, ",", &last); word != NULL;
	    word = strtok_r(NULL, ",", &last)) {
		if (o->nsrc == BENCH_SRC_MAX) {
			fprintf(stderr, "ttt-bench: at most %d --src addresses\n",
			    BENCH_SRC_MAX);
			return (-1);
		}
		if ((rc = getaddrinfo(word, NULL, &hints, &ai)) != 0) {
			fprintf(stderr, "ttt-bench: --src %s: %s\n", word,
			    gai_strerror(rc));
			return (-1);
		}
		memcpy(&o->src[o->nsrc], ai->ai_addr, ai->ai_addrlen);
		o->srclen[o->nsrc++] = ai->ai_addrlen;
		freeaddrinfo(ai);
	}
	return (0);
}

/* The command line into options: 0, or -1 after saying why. */
static int
parse_args(int argc, char **argv, struct bench_opts *o, const char **src)
{
	double	v;
	int	ch, i;

	memset(o, 0, sizeof *o);
	o->mode = BENCH_GAME;
	o->connect_timeout = 10;
	o->reconnect_for = 30;
	o->conns = -1;
	o->duration = -1;
	*src = NULL;
	while ((ch = getopt_long(argc, argv, "", bench_longopts, NULL)) != -1) {
		switch (ch) {
		case OPT_CONNS:
			if (parse_number(optarg, 1, 1000000, &v) == -1)
				goto bad;
			o->conns = (int)v;
			break;
		case OPT_DURATION:
			if (parse_number(optarg, 0.001, 86400,
			    &o->duration) == -1)
				goto bad;
			break;
		case OPT_GAMES:
			if (parse_number(optarg, 1, 1e15, &v) == -1 ||
			    v != (double)(uint64_t)v)
				goto bad;
			o->games = (uint64_t)v;
			break;
		case OPT_OPS:
			if (parse_number(optarg, 1, 1e15, &v) == -1 ||
			    v != (double)(uint64_t)v)
				goto bad;
			o->ops = (uint64_t)v;
			break;
		case OPT_RAMP:
			if (parse_number(optarg, 0, 1e9, &o->ramp) == -1)
				goto bad;
			break;
		case OPT_THINK:
			if (parse_number(optarg, 0, 3600000, &v) == -1)
				goto bad;
			o->think_ms = (int)v;
			break;
		case OPT_JITTER:
			if (parse_number(optarg, 0, 100, &v) == -1)
				goto bad;
			o->jitter = (int)v;
			break;
		case OPT_MODE:
			for (i = 0; bench_mode_names[i] != NULL; i++) {
				if (strcmp(optarg, bench_mode_names[i]) == 0)
					break;
			}
			if (bench_mode_names[i] == NULL)
				goto bad;
			o->mode = (enum bench_mode)i;
			break;
		case OPT_SRC:
			*src = optarg;
			break;
		case OPT_CONNECT_TIMEOUT:
			if (parse_number(optarg, 0.001, 3600,
			    &o->connect_timeout) == -1)
				goto bad;
			break;
		case OPT_WARMUP:
			if (parse_number(optarg, 0, 3600, &o->warmup) == -1)
				goto bad;
			break;
		case OPT_WS:
			o->ws = 1;
			break;
		case OPT_BUSY_POLL:
			o->busy_poll = 1;
			break;
		case OPT_KSTAMP:
			o->kstamp = 1;
			break;
		case OPT_RESUME:
			o->resume = 1;
			break;
		case OPT_RECONNECT_FOR:
			if (parse_number(optarg, 0, 3600,
			    &o->reconnect_for) == -1)
				goto bad;
			break;
		case OPT_DROP_EVERY:
			if (parse_number(optarg, 1, 1000000, &v) == -1 ||
			    v != (double)(int)v)
				goto bad;
			o->drop_every = (int)v;
			break;
		case OPT_REGISTER:
			if (strlen(optarg) == 0 || strlen(optarg) > 16 ||
			    strspn(optarg, "abcdefghijklmnopqrstuvwxyz"
			    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") !=
			    strlen(optarg))
				goto bad;
			o->reg = optarg;
			break;
		case OPT_PROGRESS:
			o->progress = 1;
			break;
		case OPT_JSON:
			o->json = 1;
			break;
		case OPT_HELP:
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return (-1);
		}
	}
	if (argc - optind != 2 || o->conns == -1 || o->duration < 0) {
		usage(stderr);
		return (-1);
	}
	if (check_args(o) == -1)
		return (-1);
	o->host = argv[optind];
	o->port = argv[optind + 1];
	return (0);
bad:
	fprintf(stderr, "ttt-bench: bad value for --%s: %s\n",
	    opt_name(ch), optarg);
	return (-1);
}

/* Options that only go with others: 0, or -1 after saying why. */
static int
check_args(const struct bench_opts *o)
{
	if (o->games > 0 && o->mode != BENCH_GAME) {
		fprintf(stderr, "ttt-bench: --games is for --mode game\n");
		return (-1);
	}
	if (o->resume && o->mode != BENCH_GAME) {
		fprintf(stderr, "ttt-bench: --resume is for --mode game\n");
		return (-1);
	}
	if (o->reg != NULL && (o->mode != BENCH_GAME || o->resume)) {
		fprintf(stderr, "ttt-bench: --register is for --mode game, "
		    "without --resume\n");
		return (-1);
	}
	if (o->drop_every > 0 && !o->resume) {
		fprintf(stderr, "ttt-bench: --drop-every needs --resume\n");
		return (-1);
	}
	return (0);
}

/* Raise the descriptor limit to its hard limit; -1 if it cannot fit n. */
static int
fit_fd_limit(int n)
{
	struct rlimit	rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == -1)
		return (-1);
	if (rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		if (setrlimit(RLIMIT_NOFILE, &rl) == -1)
			getrlimit(RLIMIT_NOFILE, &rl);
	}
	if (rl.rlim_cur < (rlim_t)n + BENCH_FD_HEADROOM) {
		fprintf(stderr, "ttt-bench: the descriptor limit (%llu) is too low for %d connections\n",
		    (unsigned long long)rl.rlim_cur, n);
		return (-1);
	}
	return (0);
}

/* --ws: a seed for the keys and masks, never 0 (xorshift). */
static uint64_t
ws_seed(void)
{
	uint64_t	seed = 0;

	if (getrandom(&seed, sizeof seed, 0) != (ssize_t)sizeof seed)
		seed = (uint64_t)time(NULL) << 20 ^ (uint64_t)getpid();
	return (seed != 0 ? seed : 0x9e3779b97f4a7c15ULL);
}

int
main(int argc, char **argv)
{
	struct bench_opts	 o;
	struct bench		 b;
	const char		*src;
	int			 i, ok;

	if (parse_args(argc, argv, &o, &src) == -1 || parse_dst(&o) == -1 ||
	    (src != NULL && parse_src(&o, src) == -1) ||
	    fit_fd_limit(o.conns) == -1)
		return (1);
	memset(&b, 0, sizeof b);
	b.opts = &o;
	hist_init(&b.st.lat);
	hist_init(&b.st.last);
	hist_init(&b.st.resume_lat);
	b.conns = calloc((size_t)o.conns, sizeof *b.conns);
	b.rng = 0x9e3779b97f4a7c15ULL;
	if (o.ws) {
		b.ws = calloc((size_t)o.conns, sizeof *b.ws);
		b.ws_rng = ws_seed();
	}
	if (o.resume)
		b.res = calloc((size_t)o.conns, sizeof *b.res);
	if (o.ndst > 1 &&
	    (b.ports = calloc((size_t)o.ndst, sizeof *b.ports)) != NULL) {
		for (i = 0; i < o.ndst; i++)
			hist_init(&b.ports[i].lat);
	}
	if (b.conns == NULL || (o.ws && b.ws == NULL) ||
	    (o.resume && b.res == NULL) ||
	    (o.ndst > 1 && b.ports == NULL) ||
	    bench_due_init(&b.dueq, o.conns) == -1) {
		fprintf(stderr, "ttt-bench: out of memory\n");
		return (1);
	}
	if (bench_loop_run(&b) == -1) {
		fprintf(stderr, "ttt-bench: epoll: %s\n", strerror(errno));
		return (1);
	}
	bench_report(&b);
	ok = b.st.connect_errors == 0 && b.st.drops == 0 && b.st.errs == 0 &&
	    b.st.bad == 0 && b.st.gave_up == 0;
	if ((o.games > 0 || o.ops > 0) && !b.finished) {
		fprintf(stderr, "ttt-bench: stopped before %s %llu %s were counted\n",
		    o.games > 0 ? "--games" : "--ops",
		    (unsigned long long)(o.games > 0 ? o.games : o.ops),
		    o.games > 0 ? "games" : bench_mode_ops[o.mode]);
		ok = 0;
	}
	bench_due_free(&b.dueq);
	free(b.ports);
	free(b.res);
	free(b.ws);
	free(b.conns);
	return (ok ? 0 : 1);
}
