/*
 * client.h -- ttt-client: one player's connection to tttd, driven from
 * standard input, and the health check.
 */
#ifndef CLIENT_H
#define CLIENT_H

#include <stddef.h>

#include "keys.h"

#define CLIENT_CONNECT_MS	10000	/* how long a connect may take */
#define CLIENT_SEND_MS		10000	/* how long a blocked send may wait */
#define PING_TIMEOUT_MS		5000	/* the whole of --ping */

/* The player's choices from the command line. */
struct client_opts {
	const char	*name;		/* --name, or NULL */
	enum keys_style	 keys;		/* --keys */
	int		 colour;	/* colour on standard output */
};

/* client.c */
int	client_run(const char *, const char *, const struct client_opts *);

/* net.c */
long	net_now_ms(void);
int	net_connect(const char *, const char *, int, char *, size_t);
int	net_send(int, const char *, size_t, int);

/* ping.c */
int	ping_run(const char *, const char *);

#endif /* CLIENT_H */
