/*
 * telnet.h -- the telnet a connection speaks once its client does (RFC 854,
 * RFC 860), on libtelnet: negotiation taken out of the bytes read, every
 * option refused but TIMING-MARK, IAC IP (Ctrl-C) told to the caller, and
 * 0xFF escaped in what is sent.  Free of sockets: the caller reads and
 * writes.  The prefix is tn_, since libtelnet's own names take telnet_.
 */
#ifndef TN_H
#define TN_H

#include <stddef.h>

#define TN_COMMANDS_MAX	1024	/* bytes of telnet commands with no line
				   end among the data: then it is broken */

/* What tn_recv found, besides the data. */
#define TN_INTERRUPT	0x1	/* IAC IP: the user pressed Ctrl-C */
#define TN_BROKEN	0x2	/* too many commands, compression turned on,
				   an error: the connection must end */

/* How a connection's telnet writes to its peer: raw bytes, in order. */
typedef void	tn_write_fn(void *, const char *, size_t);

struct tn;

int		 tn_starts(const char *, size_t);
struct tn	*tn_new(tn_write_fn *, void *);
void		 tn_free(struct tn *);
size_t		 tn_recv(struct tn *, const char *, size_t, char *, int *);
void		 tn_marks(struct tn *);
void		 tn_send(struct tn *, const char *, size_t);

#endif /* TN_H */
