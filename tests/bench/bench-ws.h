/*
 * bench-ws.h -- ttt-bench's WebSocket transport (RFC 6455), the pure part:
 * the upgrade request and the check of its answer, one masked text frame
 * per line out, and the frames in turned back into lines.  No I/O here:
 * bench-loop.c does the reading and writing.
 */
#ifndef BENCH_WS_H
#define BENCH_WS_H

#include <stddef.h>
#include <stdint.h>

#define BENCH_WS_RAW_KEY	16	/* bytes of Sec-WebSocket-Key */
#define BENCH_WS_KEY_LEN	24	/* ... in base64 */
#define BENCH_WS_ACCEPT_LEN	28	/* Sec-WebSocket-Accept: a SHA-1 */
#define BENCH_WS_CTL_MAX	125	/* a control frame's payload */
#define BENCH_WS_HDR_MAX	14	/* a frame's header, mask included */

enum bench_ws_op {
	BENCH_WS_OP_CONT = 0x0,
	BENCH_WS_OP_TEXT = 0x1,
	BENCH_WS_OP_BINARY = 0x2,
	BENCH_WS_OP_CLOSE = 0x8,
	BENCH_WS_OP_PING = 0x9,
	BENCH_WS_OP_PONG = 0xa
};

/* What bench_ws_decode stopped for. */
enum bench_ws_got {
	BENCH_WS_MORE = 0,	/* the input is used up */
	BENCH_WS_PING,		/* a ping: answer rx->ctl, rx->ctllen */
	BENCH_WS_CLOSE,		/* a close: the server is ending it */
	BENCH_WS_BAD		/* not RFC 6455, or a line too long */
};

/*
 * A connection's incoming frames, taken byte by byte, so that a frame may
 * be split anywhere between reads.
 */
struct bench_ws_rx {
	uint64_t	left;		/* payload bytes of this frame to come */
	uint64_t	pos;		/* payload bytes had (for the mask) */
	uint8_t		hdr[BENCH_WS_HDR_MAX];
	uint8_t		hdrlen;		/* header bytes had; 0: between */
	uint8_t		op;		/* this frame's opcode */
	uint8_t		fin;
	uint8_t		masked;
	uint8_t		msg;		/* a text message is unfinished */
	uint8_t		ctllen;
	uint8_t		ctl[BENCH_WS_CTL_MAX];
};

void	bench_ws_key(const uint8_t [BENCH_WS_RAW_KEY],
	    char [BENCH_WS_KEY_LEN + 1]);
void	bench_ws_accept(const char *, char [BENCH_WS_ACCEPT_LEN + 1]);
int	bench_ws_request(char *, size_t, const char *, const char *,
	    const char *);
long	bench_ws_response(const char *, size_t, const char *);
size_t	bench_ws_frame(uint8_t *, size_t, enum bench_ws_op, const void *,
	    size_t, const uint8_t [4]);
size_t	bench_ws_line(uint8_t *, size_t, const char *, size_t,
	    const uint8_t [4]);
enum bench_ws_got bench_ws_decode(struct bench_ws_rx *, const uint8_t **,
	    size_t *, char **, size_t *);

#endif /* BENCH_WS_H */
