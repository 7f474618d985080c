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

static const struct option main_options[] = {
	{ "port",	required_argument,	NULL, 'p' },
	{ "bind",	required_argument,	NULL, 'b' },
	{ "seed",	required_argument,	NULL, 's' },
	{ "max-clients", required_argument,	NULL, 'm' },
	{ "help",	no_argument,		NULL, 'h' },
	{ "version",	no_argument,		NULL, 'V' },
	{ NULL,		0,			NULL, 0 }
};

/* The --help text. */
static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: tttd [--port N] [--bind ADDR] [--seed N] [--max-clients N]\n"
	    "A networked two-player Tic Tac Toe server (protocol tttd/1).\n"
	    "\n"
	    "  -p, --port N     TCP port to listen on (default 4000; 0 picks a"
	    " free port)\n"
	    "  -b, --bind ADDR  address to listen on (default: every IPv4 and"
	    " IPv6 address)\n"
	    "  -s, --seed N     seed the random first move (reproducible"
	    " games)\n"
	    "  -m, --max-clients N\n"
	    "                   players connected at once (default %d); more"
	    " get\n"
	    "                   ERR SERVER_FULL\n"
	    "  -h, --help       show this help\n"
	    "  -V, --version    show the version\n"
	    "\n"
	    "Play with: ttt-client HOST PORT, or nc HOST PORT\n",
	    SERVER_MAX_CLIENTS);
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

		log_warn("descriptor limit %llu: --max-clients lowered from "
		    "%u to %u", (unsigned long long)rl.rlim_cur,
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

int
main(int argc, char **argv)
{
	struct server_config	cfg;
	struct server		s;
	unsigned long long	v;
	int			ch, rc;

	memset(&cfg, 0, sizeof cfg);
	cfg.port = 4000;
	cfg.max_clients = SERVER_MAX_CLIENTS;
	cfg.seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);

	while ((ch = getopt_long(argc, argv, "p:b:s:m:hV", main_options,
	    NULL)) != -1) {
		switch (ch) {
		case 'p':
			if (parse_number(optarg, 65535, &v) == -1) {
				fprintf(stderr, "tttd: bad --port: %s\n",
				    optarg);
				return (2);
			}
			cfg.port = (int)v;
			break;
		case 'b':
			cfg.bind = optarg;
			break;
		case 's':
			if (parse_number(optarg, UINT64_MAX, &v) == -1) {
				fprintf(stderr, "tttd: bad --seed: %s\n",
				    optarg);
				return (2);
			}
			cfg.seed = v;
			break;
		case 'm':
			if (parse_number(optarg, 1000000, &v) == -1 ||
			    v == 0) {
				fprintf(stderr, "tttd: bad --max-clients: %s\n",
				    optarg);
				return (2);
			}
			cfg.max_clients = (unsigned)v;
			break;
		case 'h':
			usage(stdout);
			return (0);
		case 'V':
			printf("tttd %s (protocol tttd/1)\n", TTTD_VERSION);
			return (0);
		default:
			usage(stderr);
			return (2);
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
