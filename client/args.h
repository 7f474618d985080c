/*
 * args.h -- ttt-client's command line: what the player asked for, and the
 * first command that asks the server for it.
 *
 * Pure functions: no I/O, no allocation, no globals but constant tables.
 */
#ifndef ARGS_H
#define ARGS_H

#include <stddef.h>

#include "keys.h"
#include "proto.h"

#define ARGS_ARG_MAX	24	/* a room code, game id, token or level */
#define ARGS_GRACE	30	/* seconds: tttd's default --resume-grace */
#define ARGS_GRACE_MAX	3600

/* What the client does once connected. */
enum client_mode {
	CLIENT_MODE_QUEUE,	/* the public queue: the default */
	CLIENT_MODE_ROOM,	/* --room: ROOM NEW */
	CLIENT_MODE_JOIN,	/* --join CODE: ROOM JOIN CODE */
	CLIENT_MODE_AI,		/* --ai [LEVEL]: PLAY AI [LEVEL] */
	CLIENT_MODE_WATCH,	/* --watch ID: WATCH ID */
	CLIENT_MODE_GAMES,	/* --games: GAMES, then leave */
	CLIENT_MODE_RESUME,	/* --resume TOKEN: RESUME TOKEN */
	CLIENT_MODE_PING,	/* --ping: the health check */
	CLIENT_MODE_HEALTHZ	/* --healthz: the same, over HTTP */
};

/* What the client does with the account key kept for the server. */
enum args_account {
	ARGS_ACCOUNT_AUTO,	/* sign in with it, if there is one */
	ARGS_ACCOUNT_REGISTER,	/* --register: make one and keep its key */
	ARGS_ACCOUNT_GUEST	/* --guest: play as a guest */
};

/* What main does after reading the arguments. */
enum args_action {
	ARGS_RUN,		/* connect and run the mode */
	ARGS_HELP,		/* print the usage on stdout, status 0 */
	ARGS_VERSION,		/* print the version, status 0 */
	ARGS_ERROR,		/* print why, status 2 */
	ARGS_USAGE		/* print why and where the usage is, status 2 */
};

/* The player's choices from the command line. */
struct client_opts {
	const char	*host;
	const char	*port;
	const char	*name;		/* --name, or NULL */
	enum keys_style	 keys;		/* --keys */
	int		 colour;	/* colour on standard output */
	enum client_mode mode;
	char		 arg[ARGS_ARG_MAX];	/* the mode's argument, as
						   sent: K7QX2M9P, 4,
						   K7QX-2M9P, easy or "" */
	int		 reconnect;	/* reconnect by itself: not
					   --no-reconnect */
	int		 grace;		/* --grace: seconds to reconnect in */
	enum args_account account;	/* --register, --guest */
	int		 tls;		/* --tls: the connection inside TLS */
	const char	*cafile;	/* --cafile: the CAs to trust, or
					   NULL for the system's */
};

enum args_action args_parse(int, char **, struct client_opts *, char *,
		    size_t);
enum proto_verb	 args_command(const struct client_opts *, char *, size_t);

#endif /* ARGS_H */
