/*
 * place.h -- where a client is (client.h's enum client_place), and the
 * one road out of every place.
 */
#ifndef PLACE_H
#define PLACE_H

#include "client.h"
#include "proto.h"

void	place_set(struct client *, enum client_place);
void	place_leave(struct client *, enum proto_leave, int);
void	place_detach(struct client *, enum proto_leave, int);

#endif /* PLACE_H */
