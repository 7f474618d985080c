/*
 * ws.h -- the WebSocket a connection speaks after its handshake (RFC
 * 6455), on wslay: frames taken out of the bytes read, one text message
 * handed up per protocol line, one line sent per text message, pings
 * answered, control frames counted by the caller's rate limit, bad frames
 * closed with the RFC's codes.  Free of sockets: the caller reads and
 * writes, as for telnet.h.
 */
#ifndef WS_H
#define WS_H

#include <stddef.h>

#define WS_MESSAGE_MAX	4096	/* a longer message: close 1009 */

#define WS_CLOSE_NORMAL		1000
#define WS_CLOSE_PROTOCOL	1002
#define WS_CLOSE_UNSUPPORTED	1003	/* a binary message */
#define WS_CLOSE_BAD_DATA	1007	/* a text message not in UTF-8 */
#define WS_CLOSE_POLICY		1008	/* control frames over the rate */
#define WS_CLOSE_TOO_BIG	1009
/* A close frame with 1002, for what wslay refuses without a code. */
#define WS_CLOSE_PROTOCOL_FRAME	"\x88\x02\x03\xea"
/* The reason sent with 1008. */
#define WS_REASON_RATE		"Too many control frames."

/* How a WebSocket writes to its peer: raw bytes, in order. */
typedef void	ws_write_fn(void *, const char *, size_t);
/* A text message came: one line, without a line end. */
typedef void	ws_message_fn(void *, const char *, size_t);
/* A control frame begins (ping, pong, close): 0, or -1 to close (1008). */
typedef int	ws_control_fn(void *);

struct ws;

struct ws	*ws_new(ws_write_fn *, ws_message_fn *, ws_control_fn *,
		    void *);
void		 ws_free(struct ws *);
int		 ws_recv(struct ws *, const char *, size_t);
void		 ws_send(struct ws *, const char *, size_t);
void		 ws_close(struct ws *, int, const char *);
int		 ws_close_code(const struct ws *);
unsigned long	 ws_messages(const struct ws *);
int		 ws_pending(const struct ws *);

#endif /* WS_H */
