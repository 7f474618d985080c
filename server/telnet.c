/*
 * telnet.c -- the telnet of one connection, on libtelnet.
 *
 * A client speaks telnet when it sends an IAC (0xFF) byte, and only then
 * is this state made (tn_starts): until then its bytes are lines and no
 * more, and it is never sent a telnet byte.  Most telnet programs say
 * nothing of telnet to a port other than 23 until the user presses Ctrl-C,
 * which sends IAC IP IAC DO TIMING-MARK; the program then throws away
 * everything the server sends until the mark is answered.
 *
 * libtelnet runs in its proxy mode: it parses and tells, and every answer
 * is ours.  Its own option states (RFC 1143) would answer the first DO
 * TIMING-MARK only, while RFC 860 wants each one answered (a mark is a
 * question, not a state), and we agree to no other option, so there is
 * no state to keep: DO TIMING-MARK gets WILL TIMING-MARK, any other DO
 * gets WONT and any WILL gets DONT, which is what RFC 1143 answers for an
 * option that stays off.  WONT and DONT need no answer then.
 *
 * Bounds.  The data out of a read is never more than the bytes read (an
 * escaped IAC IAC is one byte of data).  libtelnet holds one thing of its
 * own that grows, a subnegotiation's bytes (up to 16 KiB, in steps of 512,
 * 2048, ...): more than TN_COMMANDS_MAX bytes of commands without a line
 * end in the data between them break the connection, so that buffer stays
 * at 2 KiB at most.  A client may turn on compression (MCCP2,
 * IAC SB COMPRESS2 IAC SE) without asking, and libtelnet would then
 * inflate its input; that breaks the connection too, and the inflated
 * rest of that read is thrown away.
 */
#include <stdlib.h>
#include <string.h>

#include <libtelnet.h>

#include "telnet.h"

struct tn {
	telnet_t	*t;
	tn_write_fn	*write;
	void		*arg;
	char		*data;		/* tn_recv's: where the data goes */
	size_t		 len;		/* ... how much is there */
	size_t		 room;		/* ... and how much fits */
	size_t		 commands;	/* bytes since the data's last LF */
	unsigned	 marks;		/* DO TIMING-MARK not yet answered */
	int		 flags;		/* TN_* */
};

static void	tn_event_cb(telnet_t *, telnet_event_t *, void *);
static void	tn_data(struct tn *, const char *, size_t);

/* Does a client's read start telnet: is there an IAC byte in it? */
int
tn_starts(const char *buf, size_t len)
{
	return (memchr(buf, TELNET_IAC, len) != NULL);
}

/* A connection's telnet, writing through the function given. */
struct tn *
tn_new(tn_write_fn *write, void *arg)
{
	struct tn	*tn;

	if ((tn = calloc(1, sizeof *tn)) == NULL)
		return (NULL);
	tn->write = write;
	tn->arg = arg;
	tn->t = telnet_init(NULL, tn_event_cb, TELNET_FLAG_PROXY, tn);
	if (tn->t == NULL) {
		free(tn);
		return (NULL);
	}
	return (tn);
}

/* Free a connection's telnet, and what libtelnet holds for it. */
void
tn_free(struct tn *tn)
{
	if (tn == NULL)
		return;
	telnet_free(tn->t);
	free(tn);
}

/*
 * Take the telnet out of bytes read: the data is copied to out (which
 * holds len bytes) and its length returned; *flags says what else came
 * (TN_INTERRUPT, TN_BROKEN).  Data after an interrupt in the same bytes
 * is dropped: it was typed after Ctrl-C.  DO TIMING-MARK is answered by
 * tn_marks, once the data before it has been handled.
 */
size_t
tn_recv(struct tn *tn, const char *buf, size_t len, char *out, int *flags)
{
	tn->data = out;
	tn->len = 0;
	tn->room = len;
	tn->flags &= ~TN_INTERRUPT;
	if (!(tn->flags & TN_BROKEN))
		telnet_recv(tn->t, buf, len);
	if (tn->len > 0 && memchr(out, '\n', tn->len) != NULL)
		tn->commands = 0;
	tn->commands += len - tn->len;
	if (tn->commands > TN_COMMANDS_MAX)
		tn->flags |= TN_BROKEN;
	tn->data = NULL;
	*flags = tn->flags;
	return ((tn->flags & TN_BROKEN) ? 0 : tn->len);
}

/* Answer each DO TIMING-MARK of the last bytes read (RFC 860). */
void
tn_marks(struct tn *tn)
{
	for (; tn->marks > 0; tn->marks--) {
		if (!(tn->flags & TN_BROKEN))
			telnet_negotiate(tn->t, TELNET_WILL, TELNET_TELOPT_TM);
	}
}

/* Send bytes to a telnet client: an IAC among them is doubled. */
void
tn_send(struct tn *tn, const char *buf, size_t len)
{
	telnet_send(tn->t, buf, len);
}

/* Data for the caller, unless it comes after Ctrl-C or it is broken. */
static void
tn_data(struct tn *tn, const char *buf, size_t len)
{
	if (tn->flags & (TN_INTERRUPT | TN_BROKEN))
		return;
	if (tn->data == NULL || len > tn->room - tn->len) {
		tn->flags |= TN_BROKEN;		/* more out than in: inflated */
		return;
	}
	memcpy(tn->data + tn->len, buf, len);
	tn->len += len;
}

/* What libtelnet found, and what it has to send. */
static void
tn_event_cb(telnet_t *t, telnet_event_t *ev, void *arg)
{
	struct tn	*tn = arg;

	switch (ev->type) {
	case TELNET_EV_DATA:
		tn_data(tn, ev->data.buffer, ev->data.size);
		break;
	case TELNET_EV_SEND:
		if (!(tn->flags & TN_BROKEN))
			tn->write(tn->arg, ev->data.buffer, ev->data.size);
		break;
	case TELNET_EV_IAC:
		if (ev->iac.cmd == TELNET_IP)
			tn->flags |= TN_INTERRUPT;
		break;
	case TELNET_EV_DO:
		if (ev->neg.telopt == TELNET_TELOPT_TM)
			tn->marks++;	/* at most one per 3 bytes read */
		else
			telnet_negotiate(t, TELNET_WONT, ev->neg.telopt);
		break;
	case TELNET_EV_WILL:
		telnet_negotiate(t, TELNET_DONT, ev->neg.telopt);
		break;
	case TELNET_EV_SUBNEGOTIATION:
		if (ev->sub.telopt == TELNET_TELOPT_COMPRESS2)
			tn->flags |= TN_BROKEN;
		break;
	case TELNET_EV_COMPRESS:
	case TELNET_EV_ERROR:
		tn->flags |= TN_BROKEN;
		break;
	default:
		break;		/* WONT, DONT: nothing was on; warnings */
	}
}
