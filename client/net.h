/*
 * net.h -- ttt-client's socket (net.c): connecting and sending within a
 * time limit, by a clock that only goes forward.  The bottom of the client.
 */
#ifndef NET_H
#define NET_H

#include <stddef.h>

long	net_now_ms(void);
int	net_connect(const char *, const char *, int, char *, size_t);
int	net_send(int, const char *, size_t, int);

#endif /* NET_H */
