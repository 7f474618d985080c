/*
 * main.c -- tttd: options, then the server.
 */
#include <sys/resource.h>
#include <sys/types.h>

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "server.h"

#define FD_HEADROOM	32	/* descriptors beyond the clients' */

static void	usage(FILE *);
static void	fit_fd_limit(struct server_config *);
static int	parse_number(const char *, unsigned long long,
		    unsigned long long *);
static int	parse_seconds(const char *, int64_t *);
static int	parse_option(struct server_config *, int, const char *);
static const char *option_name(int);

/* Long options without a short form. */
enum {
	OPT_MAX_PER_ADDR = 256,
	OPT_MAX_OUTPUT,
	OPT_LINE_TIMEOUT,
	OPT_TURN_TIMEOUT,
	OPT_AGAIN_TIMEOUT,
	OPT_IDLE_TIMEOUT,
	OPT_RATE_LIMIT,
	OPT_RATE_BURST
};

static const struct option main_options[] = {
	{ "port",	required_argument,	NULL, 'p' },
	{ "bind",	required_argument,	NULL, 'b' },
	{ "seed",	required_argument,	NULL, 's' },
	{ "max-clients", required_argument,	NULL, 'm' },
	{ "max-per-addr", required_argument,	NULL, OPT_MAX_PER_ADDR },
	{ "max-output",	required_argument,	NULL, OPT_MAX_OUTPUT },
	{ "line-timeout", required_argument,	NULL, OPT_LINE_TIMEOUT },
	{ "turn-timeout", required_argument,	NULL, OPT_TURN_TIMEOUT },
	{ "again-timeout", required_argument,	NULL, OPT_AGAIN_TIMEOUT },
	{ "idle-timeout", required_argument,	NULL, OPT_IDLE_TIMEOUT },
	{ "rate-limit",	required_argument,	NULL, OPT_RATE_LIMIT },
	{ "rate-burst",	required_argument,	NULL, OPT_RATE_BURST },
	{ "help",	no_argument,		NULL, 'h' },
	{ "version",	no_argument,		NULL, 'V' },
	{ NULL,		0,			NULL, 0 }
};

/* The --help text. */
static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: tttd [--port N] [--bind ADDR] [--seed N] [limits...]\n"
	    "A networked two-player Tic Tac Toe server (protocol tttd/1).\n"
	    "\n"
	    "  -p, --port N              TCP port (default 4000; 0 picks a free one)\n"
	    "  -b, --bind ADDR           address to listen on (default: all, IPv4 and IPv6)\n"
	    "  -s, --seed N              seed the random first move (reproducible games)\n"
	    "  -h, --help                show this help\n"
	    "  -V, --version             show the version\n"
	    "\n"
	    "Limits (0 turns one off, except --max-clients, --max-output, --rate-burst;\n"
	    "SECS may have decimals, e.g. 0.5):\n"
	    "  -m, --max-clients N       players connected at once (default %d)\n"
	    "      --max-per-addr N      players from one address or IPv6 /64 (default %d)\n"
	    "      --max-output BYTES    unread output that drops a client (default %d)\n"
	    "      --line-timeout SECS   to finish a line once begun (default %d)\n"
	    "      --turn-timeout SECS   to make a move (default %d)\n"
	    "      --again-timeout SECS  to answer 'Play again?' (default %d)\n"
	    "      --idle-timeout SECS   in the queue without a word (default %d)\n"
	    "      --rate-limit N        commands a second per connection (default %d)\n"
	    "      --rate-burst N        in bursts of up to N (default %d)\n"
	    "\n"
	    "Play with: ttt-client HOST PORT, or nc HOST PORT\n",
	    SERVER_MAX_CLIENTS, SERVER_MAX_PER_ADDR, SERVER_OUTPUT_MAX,
	    LOBBY_LINE_MS / 1000, LOBBY_TURN_MS / 1000, LOBBY_AGAIN_MS / 1000,
	    LOBBY_IDLE_MS / 1000, LOBBY_RATE, LOBBY_BURST);
}

/*
 * Raise the descriptor limit to fit the clients (to the hard limit; as
 * root, the hard limit too), or lower the client cap to fit the limit.
 */
static void
fit_fd_limit(struct server_config *cfg)
{
	struct rlimit	rl;
	rlim_t		want = (rlim_t)cfg->max_clients + FD_HEADROOM;

	if (getrlimit(RLIMIT_NOFILE, &rl) == -1)
		return;
	if (rl.rlim_cur < want) {
		struct rlimit	nrl = rl;

		nrl.rlim_cur = want;
		if (nrl.rlim_max < want)
			nrl.rlim_max = want;
		if (setrlimit(RLIMIT_NOFILE, &nrl) == -1) {
			nrl.rlim_max = rl.rlim_max;
			nrl.rlim_cur = rl.rlim_max < want ? rl.rlim_max : want;
			if (setrlimit(RLIMIT_NOFILE, &nrl) == -1)
				nrl = rl;
		}
		rl = nrl;
	}
	if (rl.rlim_cur < want) {
		unsigned	fit = rl.rlim_cur > FD_HEADROOM ?
				    (unsigned)(rl.rlim_cur - FD_HEADROOM) : 1;

		log_warn("descriptor limit %llu: --max-clients lowered from %u to %u",
		    (unsigned long long)rl.rlim_cur,
		    cfg->max_clients, fit);
		cfg->max_clients = fit;
	}
	log_info("descriptor limit %llu, up to %u clients",
	    (unsigned long long)rl.rlim_cur, cfg->max_clients);
}

/* A whole decimal number no larger than max; -1 if it is not one. */
static int
parse_number(const char *s, unsigned long long max, unsigned long long *out)
{
	char			*end;
	unsigned long long	 v;

	if (*s < '0' || *s > '9')
		return (-1);
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0 || *end != '\0' || v > max)
		return (-1);
	*out = v;
	return (0);
}

/*
 * A duration in seconds, with up to three decimals ("120", "0.5", ".5"),
 * as ms;
 * -1 if it is not one (or is over a year).
 */
static int
parse_seconds(const char *s, int64_t *ms)
{
	unsigned long long	whole = 0;
	int64_t			frac = 0, scale = 100;
	char			buf[32];
	const char		*dot = strchr(s, '.');
	size_t			n = dot != NULL ? (size_t)(dot - s) : strlen(s);

	if (n >= sizeof buf || (n == 0 && dot == NULL))
		return (-1);
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (n > 0 && parse_number(buf, 366ULL * 24 * 3600, &whole) == -1)
		return (-1);
	if (dot != NULL) {
		for (s = dot + 1; *s != '\0'; s++, scale /= 10) {
			if (*s < '0' || *s > '9' || scale == 0)
				return (-1);
			frac += (*s - '0') * scale;
		}
		if (s == dot + 1)
			return (-1);
	}
	*ms = (int64_t)whole * 1000 + frac;
	return (0);
}

/* The long name of an option. */
static const char *
option_name(int ch)
{
	const struct option	*o;

	for (o = main_options; o->name != NULL; o++) {
		if (o->val == ch)
			return (o->name);
	}
	return ("option");
}

/* One option's argument into the configuration; -1 if it is bad. */
static int
parse_option(struct server_config *cfg, int ch, const char *arg)
{
	struct lobby_limits	*l = &cfg->limits;
	unsigned long long	 v = 0;
	int64_t			*ms = NULL;

	switch (ch) {
	case OPT_LINE_TIMEOUT:
		ms = &l->line_ms;
		break;
	case OPT_TURN_TIMEOUT:
		ms = &l->turn_ms;
		break;
	case OPT_AGAIN_TIMEOUT:
		ms = &l->again_ms;
		break;
	case OPT_IDLE_TIMEOUT:
		ms = &l->idle_ms;
		break;
	}
	if (ms != NULL)
		return (parse_seconds(arg, ms));

	switch (ch) {
	case 'p':
		if (parse_number(arg, 65535, &v) == -1)
			return (-1);
		cfg->port = (int)v;
		break;
	case 's':
		if (parse_number(arg, UINT64_MAX, &v) == -1)
			return (-1);
		cfg->seed = v;
		break;
	case 'm':
		if (parse_number(arg, 1000000, &v) == -1 || v == 0)
			return (-1);
		cfg->max_clients = (unsigned)v;
		break;
	case OPT_MAX_PER_ADDR:
		if (parse_number(arg, 1000000, &v) == -1)
			return (-1);
		cfg->max_per_addr = (unsigned)v;
		break;
	case OPT_MAX_OUTPUT:
		if (parse_number(arg, 1ULL << 30, &v) == -1 ||
		    v < PROTO_OUT_MAX)
			return (-1);
		cfg->output_max = (size_t)v;
		break;
	case OPT_RATE_LIMIT:
		if (parse_number(arg, 1000000, &v) == -1)
			return (-1);
		l->rate = (unsigned)v;
		break;
	case OPT_RATE_BURST:
		if (parse_number(arg, 1000000, &v) == -1 || v == 0)
			return (-1);
		l->burst = (unsigned)v;
		break;
	}
	return (0);
}

int
main(int argc, char **argv)
{
	struct server_config	cfg;
	struct server		s;
	int			ch, rc;

	memset(&cfg, 0, sizeof cfg);
	cfg.port = 4000;
	cfg.max_clients = SERVER_MAX_CLIENTS;
	cfg.max_per_addr = SERVER_MAX_PER_ADDR;
	cfg.output_max = SERVER_OUTPUT_MAX;
	lobby_default_limits(&cfg.limits);
	cfg.seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);

	while ((ch = getopt_long(argc, argv, "p:b:s:m:hV", main_options,
	    NULL)) != -1) {
		switch (ch) {
		case 'b':
			cfg.bind = optarg;
			break;
		case 'h':
			usage(stdout);
			return (0);
		case 'V':
			printf("tttd %s (protocol tttd/1)\n", TTTD_VERSION);
			return (0);
		case '?':
			usage(stderr);
			return (2);
		default:
			if (parse_option(&cfg, ch, optarg) == -1) {
				fprintf(stderr, "tttd: bad --%s: %s\n",
				    option_name(ch), optarg);
				return (2);
			}
			break;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return (2);
	}

	signal(SIGPIPE, SIG_IGN);
	fit_fd_limit(&cfg);
	if (server_init(&s, &cfg) == -1) {
		server_free(&s);
		return (1);
	}
	rc = server_run(&s);
	/* Freeing the signal events restores the default (fatal) handlers. */
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	server_free(&s);
	log_info("stopped");
	return (rc == 0 ? 0 : 1);
}
