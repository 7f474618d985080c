/*
 * conn.h -- a connection's input, free of sockets: lines taken off a
 * libevent buffer into the session, a bound on lines per call, the
 * partial-line deadline, an interrupt, and what is due when the client's
 * timer fires.
 *
 * The daemon calls these from its read and timer callbacks; the
 * fuzzer calls them with buffers it fills itself.
 */
#ifndef CONN_H
#define CONN_H

#include <stddef.h>
#include <stdint.h>

#include "client.h"

#define CONN_LINES_PER_CALL	16	/* then other connections get a turn */
#define CONN_FLOOD_MAX		4096	/* bytes with no LF among them: the
					   connection is closed */

struct evbuffer;

void	conn_partial(struct client *, size_t);
int	conn_input(struct client *, struct evbuffer *);
size_t	conn_input_bytes(struct client *, const char *, size_t, int *);
void	conn_timer(struct client *);
void	conn_interrupt(struct client *, struct evbuffer *);

#endif /* CONN_H */
