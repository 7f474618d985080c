/*
 * main.c -- ttt-client: the terminal client of tttd.  Reads the command
 * line and hands over to client.c.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"
#include "proto.h"

static void	usage(FILE *);
static int	port_valid(const char *);

/* Print the usage text. */
static void
usage(FILE *f)
{
	fprintf(f, "usage: ttt-client HOST PORT [--name NAME]\n"
	    "       ttt-client --help | --version\n"
	    "Play Tic Tac Toe on the tttd server at HOST:PORT.\n"
	    "  --name NAME   play as NAME (1-16 letters, digits, _ or -);\n"
	    "                without it the name is asked on a terminal\n"
	    "  --help        show this help\n"
	    "  --version     show the version\n");
}

/* Is this a port number, 1 to 65535? */
static int
port_valid(const char *s)
{
	char	*end;
	long	 n;

	if (*s < '0' || *s > '9')
		return (0);
	n = strtol(s, &end, 10);
	return (*end == '\0' && n >= 1 && n <= 65535);
}

/* Parse the arguments, then play. */
int
main(int argc, char **argv)
{
	const char	*args[2], *name = NULL;
	int		 i, nargs = 0, opts = 1;

	for (i = 1; i < argc; i++) {
		if (opts && strcmp(argv[i], "--") == 0)
			opts = 0;
		else if (opts && (strcmp(argv[i], "--help") == 0 ||
		    strcmp(argv[i], "-h") == 0)) {
			usage(stdout);
			return (0);
		} else if (opts && (strcmp(argv[i], "--version") == 0 ||
		    strcmp(argv[i], "-V") == 0)) {
			printf("ttt-client %s\n", TTTD_VERSION);
			return (0);
		} else if (opts && strcmp(argv[i], "--name") == 0) {
			if (++i == argc) {
				fprintf(stderr, "ttt-client: --name needs a value\n");
				return (2);
			}
			name = argv[i];
		} else if (opts && strncmp(argv[i], "--name=", 7) == 0)
			name = argv[i] + 7;
		else if (opts && argv[i][0] == '-' && argv[i][1] != '\0') {
			fprintf(stderr, "ttt-client: unknown option %s\n",
			    argv[i]);
			usage(stderr);
			return (2);
		} else if (nargs < 2)
			args[nargs++] = argv[i];
		else {
			usage(stderr);
			return (2);
		}
	}
	if (nargs != 2) {
		usage(stderr);
		return (2);
	}
	if (!port_valid(args[1])) {
		fprintf(stderr, "ttt-client: bad port %s: a number from 1 to 65535 is needed\n",
		    args[1]);
		return (2);
	}
	if (name != NULL && !proto_name_valid(name, strlen(name))) {
		fprintf(stderr, "ttt-client: bad name %s: a name is 1 to 16 letters, digits, '_' or '-'\n",
		    name);
		return (2);
	}
	signal(SIGPIPE, SIG_IGN);
	return (client_run(args[0], args[1], name));
}
