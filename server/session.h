/*
 * session.h -- one connection's protocol life, free of any I/O library:
 * greeting, lines in, replies and events out, leaving.
 */
#ifndef SESSION_H
#define SESSION_H

#include <stddef.h>

#include "client.h"
#include "lobby.h"

void	session_open(struct lobby *, struct client *);
void	session_refuse(struct lobby *, struct client *);
void	session_line(struct client *, const char *, size_t);
void	session_too_long(struct client *);
void	session_lost(struct client *);
void	session_shutdown(struct client *);
void	session_sendn(struct client *, const char *, int);
void	session_close(struct client *);

#endif /* SESSION_H */
