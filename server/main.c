/*
 * main.c -- tttd: options, then the server.
 */
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

static void	usage(FILE *);
static int	parse_number(const char *, unsigned long long,
		    unsigned long long *);

static const struct option main_options[] = {
	{ "port",	required_argument,	NULL, 'p' },
	{ "bind",	required_argument,	NULL, 'b' },
	{ "seed",	required_argument,	NULL, 's' },
	{ "help",	no_argument,		NULL, 'h' },
	{ "version",	no_argument,		NULL, 'V' },
	{ NULL,		0,			NULL, 0 }
};

/* The --help text. */
static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: tttd [--port N] [--bind ADDR] [--seed N]\n"
	    "A networked two-player Tic Tac Toe server (protocol tttd/1).\n"
	    "\n"
	    "  -p, --port N     TCP port to listen on (default 4000; 0 picks a"
	    " free port)\n"
	    "  -b, --bind ADDR  address to listen on (default: every IPv4 and"
	    " IPv6 address)\n"
	    "  -s, --seed N     seed the random first move (reproducible"
	    " games)\n"
	    "  -h, --help       show this help\n"
	    "  -V, --version    show the version\n"
	    "\n"
	    "Play with: ttt-client HOST PORT, or nc HOST PORT\n");
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
	cfg.seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);

	while ((ch = getopt_long(argc, argv, "p:b:s:hV", main_options,
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
