/*
 * client-event.h -- the server's lines, for the poll loop above.
 */
#ifndef CLIENT_EVENT_H
#define CLIENT_EVENT_H

#include "out.h"

int	client_ready(struct client *);
void	client_server(struct client *);

#endif /* CLIENT_EVENT_H */
