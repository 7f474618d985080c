/*
 * session.h -- one connection's protocol life, free of any I/O library:
 * greeting, lines in, replies and events out, leaving.
 */
#ifndef SESSION_H
#define SESSION_H

#include <stddef.h>
#include <stdint.h>

#include "client.h"
#include "lobby.h"

/* BYE's texts when the server goes: stopping, or draining (SIGUSR2). */
#define SESSION_SHUTDOWN	"Server shutting down."
#define SESSION_RESTART		PROTO_BYE_RESTART

void	session_open(struct lobby *, struct client *);
void	session_refuse(struct lobby *, struct client *, enum proto_error);
void	session_line(struct client *, const char *, size_t);
int	session_control(struct client *);
void	session_too_long(struct client *);
int	session_long_start(struct client *, const char *, size_t);
void	session_line_flood(struct client *, size_t);
void	session_line_timeout(struct client *);
void	session_clock(struct client *, int64_t);
void	session_lost(struct client *);
void	session_shutdown(struct client *, const char *);

#endif /* SESSION_H */
