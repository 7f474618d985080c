/*
 * main.c -- ttt-client: the terminal client of tttd.  Reads the command
 * line (args.c) and the environment, then hands over to client.c, or to
 * ping.c for --ping.
 */
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "client.h"

static void	usage(FILE *);
static int	colour_wanted(void);

/* Print the usage text. */
static void
usage(FILE *f)
{
	fprintf(f, "usage: ttt-client HOST PORT [--name NAME] [--keys STYLE]\n"
	    "       ttt-client HOST PORT [...] --register | --guest\n"
	    "       ttt-client HOST PORT [...] --room | --join CODE | --ai [LEVEL]\n"
	    "       ttt-client HOST PORT [...] --resume TOKEN\n"
	    "       ttt-client HOST PORT --watch ID | --games\n"
	    "       ttt-client --ping HOST PORT | --healthz HOST HTTP-PORT\n"
	    "       ttt-client --tls [--cafile FILE] HOST PORT [...]\n"
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
	    "  --register    make an account of the name (--name, or asked) and\n"
	    "                keep its key in $XDG_CONFIG_HOME/ttt-client/HOST_PORT.key\n"
	    "                (~/.config/...), mode 600; later runs sign in with it\n"
	    "  --guest       play as a guest: do not sign in with a kept key\n"
	    "  --room        make a private room and show its code; a friend\n"
	    "                joins it with --join CODE\n"
	    "  --join CODE   play in the friend's room CODE (such as K7QX-2M9P)\n"
	    "  --ai [LEVEL]  play the computer: LEVEL perfect (the default: it\n"
	    "                never loses) or easy\n"
	    "  --watch ID    watch game ID (see --games) without playing\n"
	    "  --games       list the games being played, and exit\n"
	    "  --resume TOKEN  take your seat back in a match after losing the\n"
	    "                connection (the code shown as the match began)\n"
	    "  --no-reconnect  do not reconnect by itself when the connection is\n"
	    "                lost during a match\n"
	    "  --grace SECS  try to reconnect for SECS seconds (default 30: the\n"
	    "                server's --resume-grace); 0 is --no-reconnect\n"
	    "  --tls         connect inside TLS (a TLS port of the balancer, such\n"
	    "                as 4443); the server's certificate must be signed by\n"
	    "                a CA the system trusts and name HOST\n"
	    "  --cafile FILE  with --tls, trust the CA certificates in FILE\n"
	    "                (PEM) instead of the system's\n"
	    "  --ping        check that the server answers PING within 5 seconds:\n"
	    "                exit 0 if it does, else 1 with the reason on stderr\n"
	    "  --healthz     the same over HTTP: GET /healthz on tttd's HTTP port\n"
	    "                (--http-port) must answer 200 within 5 seconds\n"
	    "  --help        show this help\n"
	    "  --version     show the version\n"
	    "While playing, /say TEXT sends TEXT to your opponent, /resign gives\n"
	    "up the game; /games, /watch N, /room, /join CODE, /ai [LEVEL] and\n"
	    "/name NAME do what the options do; /rating [NAME], /history [NAME] [N]\n"
	    "and /top [N] show ratings, rated games and the best players; /help\n"
	    "lists them all.\n"
	    "On a terminal X and O are in colour and the last move is highlighted,\n"
	    "unless the environment variable NO_COLOR is set and not empty.\n");
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
	struct client_opts	opts;
	char			why[256];

	switch (args_parse(argc, argv, &opts, why, sizeof why)) {
	case ARGS_HELP:
		usage(stdout);
		return (0);
	case ARGS_VERSION:
		printf("ttt-client %s\n", TTTD_VERSION);
		return (0);
	case ARGS_ERROR:
		fprintf(stderr, "ttt-client: %s\n", why);
		return (2);
	case ARGS_USAGE:
		fprintf(stderr, "ttt-client: %s\nTry 'ttt-client --help'.\n",
		    why);
		return (2);
	case ARGS_RUN:
		break;
	}
	signal(SIGPIPE, SIG_IGN);
	/* What the player types and the names shown, in the terminal's encoding. */
	setlocale(LC_CTYPE, "");
	if (opts.mode == CLIENT_MODE_PING)
		return (ping_run(&opts));
	if (opts.mode == CLIENT_MODE_HEALTHZ)
		return (ping_healthz(&opts));
	opts.colour = colour_wanted();
	return (client_run(&opts));
}
