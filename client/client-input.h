/*
 * client-input.h -- the player's lines, for the poll loop above.
 */
#ifndef CLIENT_INPUT_H
#define CLIENT_INPUT_H

#include "out.h"

void	client_show(struct client *);
void	client_input(struct client *);

#endif /* CLIENT_INPUT_H */
