/*
 * framing.h -- taking protocol lines off a libevent input buffer.
 */
#ifndef FRAMING_H
#define FRAMING_H

#include <stddef.h>

#include "proto.h"

struct evbuffer;

enum proto_scan	framing_next_line(struct evbuffer *, char [PROTO_SCAN_MAX],
		    size_t *);

#endif /* FRAMING_H */
