/*
 * ws_client.h -- a WebSocket client for the end-to-end tests, framed by
 * hand over a harness connection (the server frames with wslay; the tests
 * check it against the RFC, not against itself): the handshake, masked
 * (or, to be refused, unmasked) frames out, frames in.
 */
#ifndef WS_CLIENT_H
#define WS_CLIENT_H

#include <stddef.h>

#include "harness.h"

#define WSC_TEXT	0x1
#define WSC_BINARY	0x2
#define WSC_CLOSE	0x8
#define WSC_PING	0x9
#define WSC_PONG	0xa

/* Connect to the HTTP port and shake hands (GET /ws): 0 on 101. */
int	wsc_open(struct conn *, int);
/* The handshake alone, on a connection already open: 0 on 101. */
int	wsc_handshake(struct conn *);
/* One whole frame (FIN set): masked, or not (to be refused). */
int	wsc_frame(struct conn *, int, const void *, size_t, int);
/* One line as a masked text message. */
int	wsc_send(struct conn *, const char *);
/*
 * The next frame within the timeout: its payload length (the payload cut
 * to size - 1 and NUL-terminated), its opcode in *op; -1 on EOF, error or
 * timeout.
 */
int	wsc_recv(struct conn *, int *, char *, size_t, int);
/* The next text message that is no art line (led by a space); -1 else. */
int	wsc_event(struct conn *, char *, size_t, int);
/* Skip text messages to a close frame: its status code; -1 if none. */
int	wsc_close_code(struct conn *, int);
/* cmocka: read text messages until one starts with the prefix. */
void	wsc_skip_to(struct conn *, const char *, char *, size_t);
/*
 * One HTTP request (raw bytes), its whole response read to EOF into out
 * (NUL-terminated): its length, or -1.
 */
int	http_fetch(int, const char *, size_t, char *, size_t);

#endif /* WS_CLIENT_H */
