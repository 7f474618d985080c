/*
 * client.h -- ttt-client's two programs: the game (client.c: the poll
 * loop, calling down into client-event.c for the server's lines and
 * client-input.c for the player's) and the health check (ping.c).
 */
#ifndef CLIENT_H
#define CLIENT_H

#include "args.h"

int	client_run(const struct client_opts *);
int	ping_run(const struct client_opts *);
int	ping_healthz(const struct client_opts *);

#endif /* CLIENT_H */
