/*
 * main.c -- ttt-client: the terminal client of tttd.  Reads the command
 * line and the environment, then hands over to client.c, or to ping.c for
 * --ping.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client.h"
#include "keys.h"
#include "proto.h"

static void	usage(FILE *);
static int	port_valid(const char *);
static int	option_value(int, char **, int *, const char *,
		    const char **);
static int	colour_wanted(void);

/* Print the usage text. */
static void
usage(FILE *f)
{
	fprintf(f, "usage: ttt-client HOST PORT [--name NAME] [--keys STYLE]\n"
	    "       ttt-client --ping HOST PORT\n"
	    "       ttt-client --help | --version\n"
	    "Play Tic Tac Toe on the tttd server at HOST:PORT.\n"
	    "  --name NAME   play as NAME (1-16 letters, digits, _ or -);\n"
	    "                without it the name is asked on a terminal\n"
	    "  --keys STYLE  how the board and the move prompt name squares:\n"
	    "                  cells   A1, b2, C3: column, then row (the default)\n"
	    "                  keypad  one key a square, drawn beside the board:\n"
	    "                          q w e (row 1), a s d (row 2), z x c (row 3)\n"
	    "                  digits  row, then column: 1 3 or 13 is C1\n"
	    "                every style is accepted at the move prompt whatever\n"
	    "                STYLE is; 'quit' quits, and y or n answer \"Play again?\"\n"
	    "  --ping        check that the server answers PING within 5 seconds:\n"
	    "                exit 0 if it does, else 1 with the reason on stderr\n"
	    "  --help        show this help\n"
	    "  --version     show the version\n"
	    "On a terminal X and O are in colour and the last move is highlighted,\n"
	    "unless the environment variable NO_COLOR is set and not empty.\n");
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

/*
 * Is argv[*i] the option, as "--opt VALUE" or "--opt=VALUE"?  1 with the
 * value (and *i past it), 0 if it is another argument, -1 if the value is
 * missing.
 */
static int
option_value(int argc, char **argv, int *i, const char *opt,
    const char **value)
{
	size_t	len = strlen(opt);

	if (strncmp(argv[*i], opt, len) != 0)
		return (0);
	if (argv[*i][len] == '=') {
		*value = argv[*i] + len + 1;
		return (1);
	}
	if (argv[*i][len] != '\0')
		return (0);
	if (*i + 1 == argc) {
		fprintf(stderr, "ttt-client: %s needs a value\n", opt);
		return (-1);
	}
	*value = argv[++*i];
	return (1);
}

/* Colour on standard output: on a terminal, unless NO_COLOR is set. */
static int
colour_wanted(void)
{
	const char	*no = getenv("NO_COLOR");

	/* https://no-color.org: any non-empty value turns colour off. */
	if (no != NULL && *no != '\0')
		return (0);
	return (isatty(STDOUT_FILENO));
}

/* Parse the arguments, then play or ping. */
int
main(int argc, char **argv)
{
	struct client_opts	 opts;
	const char		*args[2], *keys = NULL;
	int			 i, r, nargs = 0, opts_on = 1, ping = 0;

	memset(&opts, 0, sizeof opts);
	opts.keys = KEYS_CELLS;
	for (i = 1; i < argc; i++) {
		if (opts_on && strcmp(argv[i], "--") == 0)
			opts_on = 0;
		else if (opts_on && (strcmp(argv[i], "--help") == 0 ||
		    strcmp(argv[i], "-h") == 0)) {
			usage(stdout);
			return (0);
		} else if (opts_on && (strcmp(argv[i], "--version") == 0 ||
		    strcmp(argv[i], "-V") == 0)) {
			printf("ttt-client %s\n", TTTD_VERSION);
			return (0);
		} else if (opts_on && strcmp(argv[i], "--ping") == 0)
			ping = 1;
		else if (opts_on && (r = option_value(argc, argv, &i,
		    "--name", &opts.name)) != 0) {
			if (r == -1)
				return (2);
		} else if (opts_on && (r = option_value(argc, argv, &i,
		    "--keys", &keys)) != 0) {
			if (r == -1)
				return (2);
		} else if (opts_on && argv[i][0] == '-' && argv[i][1] != '\0') {
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
	if (opts.name != NULL &&
	    !proto_name_valid(opts.name, strlen(opts.name))) {
		fprintf(stderr, "ttt-client: bad name %s: a name is 1 to 16 letters, digits, '_' or '-'\n",
		    opts.name);
		return (2);
	}
	if (keys != NULL && keys_style_parse(keys, &opts.keys) == -1) {
		fprintf(stderr, "ttt-client: bad input style %s: use cells, keypad or digits\n",
		    keys);
		return (2);
	}
	signal(SIGPIPE, SIG_IGN);
	if (ping)
		return (ping_run(args[0], args[1]));
	opts.colour = colour_wanted();
	return (client_run(args[0], args[1], &opts));
}
