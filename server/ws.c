/*
 * ws.c -- a connection's WebSocket, on wslay's event API (Debian's
 * libwslay-dev): wslay frames and unframes, unmasks, joins fragments,
 * answers pings, checks that text is UTF-8 (else 1007), and closes on a
 * protocol error (an unmasked frame: 1002) or a message over
 * WS_MESSAGE_MAX (1009).  Here: a text message is one line for the
 * caller; a binary message is closed with 1003; each line the server
 * sends is one text message.
 *
 * Control frames (ping, pong, close) are the caller's to count: each one
 * that begins is put to its rate limit, before wslay answers a ping, and
 * one over it is closed with 1008 and a reason, the rest of the read left
 * unread.  And the caller asks, after each read, whether a message is
 * begun and not whole (ws_pending): bytes of a frame cut short, or a
 * text message whose last fragment has not come, so that a control frame
 * between two fragments does not end the message's --line-timeout.
 *
 * One gap is filled by hand: a frame wslay's frame layer refuses (a
 * control frame over 125 bytes, a reserved opcode) makes it queue a
 * close frame without a status code; 1002 is sent in its place (a
 * four-byte frame, WS_CLOSE_PROTOCOL_FRAME), so that every bad frame
 * gets the RFC's code.
 *
 * wslay reads through a callback: ws_recv hands it the bytes the caller
 * read (one read(2) at a time), so that what a connection reads per event
 * stays bounded as it is on TCP.  It writes through another callback,
 * straight to the caller's output buffer, where the --max-output cap is.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include <wslay/wslay.h>

#include "ws.h"

struct ws {
	wslay_event_context_ptr	 ctx;
	ws_write_fn		*write;
	ws_message_fn		*message;
	ws_control_fn		*control;
	void			*arg;
	const char		*in;		/* bytes read, not yet taken */
	size_t			 inlen;
	uint64_t		 taken;		/* bytes wslay has taken, ... */
	uint64_t		 framed;	/* ... those of whole frames */
	uint64_t		 frame;		/* the size of the one begun */
	int			 open;		/* a data message begun */
	int			 close_code;	/* ours, once we close; 0 */
	unsigned long		 messages;	/* text messages come whole */
};

static ssize_t	ws_recv_cb(wslay_event_context_ptr, uint8_t *, size_t, int,
		    void *);
static ssize_t	ws_send_cb(wslay_event_context_ptr, const uint8_t *, size_t,
		    int, void *);
static void	ws_frame_start_cb(wslay_event_context_ptr,
		    const struct wslay_event_on_frame_recv_start_arg *, void *);
static void	ws_frame_end_cb(wslay_event_context_ptr, void *);
static void	ws_msg_cb(wslay_event_context_ptr,
		    const struct wslay_event_on_msg_recv_arg *, void *);

/* wslay wants bytes: those the caller read, then "would block". */
static ssize_t
ws_recv_cb(wslay_event_context_ptr ctx, uint8_t *buf, size_t len, int flags,
    void *arg)
{
	struct ws	*ws = arg;

	(void)flags;
	if (ws->inlen == 0) {
		wslay_event_set_error(ctx, WSLAY_ERR_WOULDBLOCK);
		return (-1);
	}
	if (len > ws->inlen)
		len = ws->inlen;
	memcpy(buf, ws->in, len);
	ws->in += len;
	ws->inlen -= len;
	ws->taken += len;
	return ((ssize_t)len);
}

/* wslay has a frame to send: all of it goes to the caller's output. */
static ssize_t
ws_send_cb(wslay_event_context_ptr ctx, const uint8_t *data, size_t len,
    int flags, void *arg)
{
	struct ws	*ws = arg;

	(void)ctx;
	(void)flags;
	ws->write(ws->arg, (const char *)data, len);
	return ((ssize_t)len);
}

/*
 * A frame begins (its header is read): its size is noted for ws_pending,
 * and a control frame is put to the caller's rate limit before wslay can
 * answer it; over the limit, 1008 and nothing more is read.
 */
static void
ws_frame_start_cb(wslay_event_context_ptr ctx,
    const struct wslay_event_on_frame_recv_start_arg *f, void *arg)
{
	struct ws	*ws = arg;
	uint64_t	 len = f->payload_length;

	/* Masked (wslay refuses others first), its length in fewest bytes. */
	ws->frame = 2 + 4 + len + (len < 126 ? 0 : len < 65536 ? 2 : 8);
	if (f->opcode == WSLAY_TEXT_FRAME || f->opcode == WSLAY_BINARY_FRAME)
		ws->open = 1;
	if ((f->opcode & 0x8) == 0 || ws->close_code != 0 ||
	    ws->control(ws->arg) == 0)
		return;
	ws_close(ws, WS_CLOSE_POLICY, WS_REASON_RATE);
	wslay_event_shutdown_read(ctx);
}

/* A frame is whole: its bytes are no longer a message begun. */
static void
ws_frame_end_cb(wslay_event_context_ptr ctx, void *arg)
{
	struct ws	*ws = arg;

	(void)ctx;
	ws->framed += ws->frame;
	ws->frame = 0;
}

/* A whole message (control frames too: wslay has answered those). */
static void
ws_msg_cb(wslay_event_context_ptr ctx,
    const struct wslay_event_on_msg_recv_arg *m, void *arg)
{
	struct ws	*ws = arg;

	(void)ctx;
	if (m->opcode == WSLAY_TEXT_FRAME || m->opcode == WSLAY_BINARY_FRAME)
		ws->open = 0;
	if (m->opcode == WSLAY_TEXT_FRAME)
		ws->messages++;
	if (ws->close_code != 0)
		return;
	switch (m->opcode) {
	case WSLAY_TEXT_FRAME:		/* its UTF-8 checked by wslay */
		ws->message(ws->arg, (const char *)m->msg, m->msg_length);
		break;
	case WSLAY_BINARY_FRAME:
		ws_close(ws, WS_CLOSE_UNSUPPORTED, NULL);
		break;
	default:
		break;		/* ping, pong, close: wslay's */
	}
}

/* A WebSocket over a connection whose handshake is done. */
struct ws *
ws_new(ws_write_fn *write, ws_message_fn *message, ws_control_fn *control,
    void *arg)
{
	static const struct wslay_event_callbacks cb = {
		ws_recv_cb, ws_send_cb, NULL, ws_frame_start_cb, NULL,
		ws_frame_end_cb, ws_msg_cb
	};
	struct ws	*ws;

	if ((ws = calloc(1, sizeof *ws)) == NULL)
		return (NULL);
	ws->write = write;
	ws->message = message;
	ws->control = control;
	ws->arg = arg;
	if (wslay_event_context_server_init(&ws->ctx, &cb, ws) != 0) {
		free(ws);
		return (NULL);
	}
	wslay_event_config_set_max_recv_msg_length(ws->ctx, WS_MESSAGE_MAX);
	return (ws);
}

void
ws_free(struct ws *ws)
{
	if (ws == NULL)
		return;
	wslay_event_context_free(ws->ctx);
	free(ws);
}

/*
 * Bytes read from the peer: their messages go to the caller, and what
 * wslay answers (pongs, a close) to its output.  Returns 0 while the
 * WebSocket goes on, or -1 once it is over (a close sent or received, a
 * bad frame): the caller closes the connection.
 */
int
ws_recv(struct ws *ws, const char *buf, size_t len)
{
	int	rc;

	ws->in = buf;
	ws->inlen = len;
	rc = wslay_event_recv(ws->ctx);
	ws->in = NULL;
	ws->inlen = 0;
	if (rc == WSLAY_ERR_CALLBACK_FAILURE && ws->close_code == 0) {
		/* The frame layer's refusal: 1002, not wslay's empty close. */
		static const char	close1002[] = WS_CLOSE_PROTOCOL_FRAME;

		ws->close_code = WS_CLOSE_PROTOCOL;
		ws->write(ws->arg, close1002, sizeof close1002 - 1);
		return (-1);
	}
	(void)wslay_event_send(ws->ctx);
	if (rc != 0 || ws->close_code != 0 || !wslay_event_want_read(ws->ctx))
		return (-1);
	return (0);
}

/* Send server lines ("...\r\n", one or more): one text message each. */
void
ws_send(struct ws *ws, const char *buf, size_t len)
{
	struct wslay_event_msg	 msg;
	const char		*lf;
	size_t			 n;

	while (len > 0) {
		lf = memchr(buf, '\n', len);
		n = lf != NULL ? (size_t)(lf - buf) + 1 : len;
		msg.opcode = WSLAY_TEXT_FRAME;
		msg.msg = (const uint8_t *)buf;
		msg.msg_length = n;
		if (msg.msg_length > 0 && buf[msg.msg_length - 1] == '\n')
			msg.msg_length--;
		if (msg.msg_length > 0 && buf[msg.msg_length - 1] == '\r')
			msg.msg_length--;
		if (wslay_event_queue_msg(ws->ctx, &msg) != 0)
			break;			/* closing: no more */
		buf += n;
		len -= n;
	}
	(void)wslay_event_send(ws->ctx);
}

/*
 * Close with a status code and a reason (or none): the frame goes now,
 * after what is queued (pongs to this read's pings: wslay would drop
 * them once a close is queued).
 */
void
ws_close(struct ws *ws, int code, const char *reason)
{
	if (ws->close_code != 0)
		return;
	ws->close_code = code;
	(void)wslay_event_send(ws->ctx);
	(void)wslay_event_queue_close(ws->ctx, (uint16_t)code,
	    (const uint8_t *)reason, reason != NULL ? strlen(reason) : 0);
	(void)wslay_event_send(ws->ctx);
}

/* The code we closed with, or wslay's for a bad frame; 0 if none yet. */
int
ws_close_code(const struct ws *ws)
{
	if (ws->close_code != 0)
		return (ws->close_code);
	if (wslay_event_get_close_sent(ws->ctx))
		return (wslay_event_get_status_code_sent(ws->ctx));
	return (0);
}

/* How many text messages have come whole so far (control frames not). */
unsigned long
ws_messages(const struct ws *ws)
{
	return (ws->messages);
}

/*
 * Is a message begun and not whole: bytes of a frame not yet whole (its
 * header too), or a text message waiting for its last fragment?
 */
int
ws_pending(const struct ws *ws)
{
	return (ws->open || ws->taken != ws->framed);
}
