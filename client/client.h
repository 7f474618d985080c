/*
 * client.h -- ttt-client: one player's connection to tttd, driven from
 * standard input.
 */
#ifndef CLIENT_H
#define CLIENT_H

#define CLIENT_CONNECT_MS	10000	/* how long a connect may take */
#define CLIENT_SEND_MS		10000	/* how long a blocked send may wait */

/* client.c */
int	client_run(const char *, const char *, const char *);

/* net.c */
int	net_connect(const char *, const char *, int, char *, size_t);
int	net_send(int, const char *, size_t, int);

#endif /* CLIENT_H */
