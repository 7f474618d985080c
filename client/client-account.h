/*
 * client-account.h -- the player's account on the server (client-account.c):
 * the kept key, signing in, --register, for the poll loop and the handlers.
 */
#ifndef CLIENT_ACCOUNT_H
#define CLIENT_ACCOUNT_H

#include "out.h"

int	client_account_open(struct client *);
void	client_account_hello(struct client *);
void	client_account_begin(struct client *);
void	client_account_requeue(struct client *);
int	client_account_event(struct client *, const struct proto_event *);
int	client_account_busy(const struct client *);

#endif /* CLIENT_ACCOUNT_H */
