/*
 * e2e_line.h -- line expectations for the end-to-end suites: read a server
 * line or event and insist on it exactly, send lines, wait for EOF or
 * silence.  Every failure names the test's line (the ln argument, which the
 * macros fill with __LINE__) and the connection's number in the test.
 */
#ifndef E2E_LINE_H
#define E2E_LINE_H

#include <stddef.h>

struct conn;

/* Server lines, exactly as the protocol fixes them. */
#define T_HELLO		"HELLO tttd/1 Welcome to Tic Tac Toe, Ready for a game?"
#define T_HELLO_HUMAN	"  Type 'quit' at any time to exit."
#define T_WAIT		"WAIT Waiting for an opponent..."
#define T_PROMPT	"Enter your move (A1, B2, C3) or 'quit' to exit:"
#define T_AGAIN		"AGAIN? Play again? (y/n) or 'quit' to exit:"
#define T_BYE		"BYE Thank you for playing!"
#define T_TIE		"RESULT TIE It's a tie!"

#define E_NO_GAME	"ERR NO_GAME You are not in a game right now."
#define E_NOT_YOUR_TURN	"ERR NOT_YOUR_TURN It is not your turn. Please wait."
#define E_NOT_NOW	"ERR NOT_NOW There is no question to answer now."

#define LINE_SIZE	2048	/* the longest line a test reads or sends */

/*
 * The test's table of connections (NULL: none), so that failures can say
 * "conn 3"; the table and its count stay the caller's.
 */
void		 line_track(struct conn *const *, const int *);
/* "conn 3": the connection's number in the tracked table. */
const char	*line_label(const struct conn *);
/*
 * Read one line within the timeout, insisting on CRLF and text (valid
 * UTF-8 without TAB, control characters or bidi controls, protocol.md
 * §1.7): its length without CRLF, -1 on EOF, error or timeout, -2 if it
 * ended in a bare LF or held anything else.
 */
int		 line_read(struct conn *, char *, size_t, int);
/* Like line_read, but skip the space-led lines for people. */
int		 line_read_event(struct conn *, char *, size_t, int);
/* The next line (raw) or event (not raw) must be exactly this. */
void		 line_want_at(int, int, struct conn *, const char *, ...)
		    __attribute__((format(printf, 4, 5)));
/* The next event must start with the prefix; optionally copy it out. */
void		 line_want_prefix_at(int, struct conn *, const char *, char *,
		    size_t);
/* The server must close cleanly now: EOF, no more data, no reset. */
void		 line_want_eof_at(int, struct conn *);
/* Nothing at all may arrive for the ms (no line, no EOF). */
void		 line_want_quiet_at(int, struct conn *, int);
/* Send one line (printf format) with CRLF, in one write. */
void		 line_send_at(int, struct conn *, const char *, ...)
		    __attribute__((format(printf, 3, 4)));
/* Connect to the port, no Nagle delay, and read HELLO, its line, WAIT. */
void		 line_open_at(int, struct conn *, int);
/* No Nagle delay: a test sends many small lines and waits for replies. */
void		 line_nodelay(struct conn *);
/* No Nagle delay, then the greeting: HELLO, its human line, WAIT. */
void		 line_greeted_at(int, struct conn *);

/* STAT <name> asked on the connection: its value. */
long		 line_stat_at(int, struct conn *, const char *);

#define WANT(c, ...)		line_want_at(__LINE__, 0, (c), __VA_ARGS__)
#define WANT_RAW(c, ...)	line_want_at(__LINE__, 1, (c), __VA_ARGS__)
#define WANT_EOF(c)		line_want_eof_at(__LINE__, (c))

#endif /* E2E_LINE_H */
