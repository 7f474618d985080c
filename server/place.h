/*
 * place.h -- where a client is (client.h's enum client_place), and its
 * transitions (the road out of every place is cmd.c's cmd_leave).
 */
#ifndef PLACE_H
#define PLACE_H

#include "client.h"

void	place_set(struct client *, enum client_place);

#endif /* PLACE_H */
