/*
 * test_e2e_telnet.c -- the real tttd and a client that speaks telnet
 * (RFC 854, RFC 860), over raw sockets: Ctrl-C (IAC IP IAC DO TIMING-MARK)
 * is answered and quits politely, negotiation is taken out of lines,
 * options are refused, a client abusing telnet is closed, and a client
 * that never sends 0xFF never gets a telnet byte (protocol.md §1.9).
 */
#include <sys/socket.h>
#include <sys/types.h>

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "harness.h"
#include "e2e_fix.h"
#include "e2e_game.h"
#include "e2e_line.h"
#include "telnet_bytes.h"

#define O_COMPRESS2	"\x56"
#define CTRL_C		IAC IP IAC DO O_TM	/* what telnet sends */

#define E_BAD_CHAR	"ERR BAD_CHAR Only UTF-8 text without control characters is accepted."
#define T_PONG		"OK PONG"
#define QUIET_MS	150

#define WANT_BYTES(c, s)	want_bytes_at(__LINE__, (c), (s), sizeof (s) - 1)
#define WANT_QUIET(c)		line_want_quiet_at(__LINE__, (c), QUIET_MS)
#define SEND(c, s)		line_send_at(__LINE__, (c), "%s", (s))
#define WRITE(c, s)		write_at(__LINE__, (c), (s), sizeof (s) - 1)
#define GAME_MOVE(g, s, c)	game_move_at(__LINE__, (g), (s), (c))
#define PAIR(e, tp, g)		pair_at(__LINE__, (e), (tp), (g))

/* The next bytes from the server are exactly these. */
static void
want_bytes_at(int ln, struct conn *c, const char *want, size_t len)
{
	long	deadline = harness_now_ms() + HARNESS_TIMEOUT_MS;

	while (c->len < len) {
		struct pollfd	pfd = { c->fd, POLLIN, 0 };
		long		left = deadline - harness_now_ms();
		ssize_t		r;

		if (left <= 0 || poll(&pfd, 1, (int)left) <= 0)
			fail_msg("line %d: %s: timeout after %zu of %zu bytes",
			    ln, line_label(c), c->len, len);
		r = recv(c->fd, c->buf + c->len, sizeof c->buf - c->len, 0);
		if (r <= 0)
			fail_msg("line %d: %s: EOF after %zu of %zu bytes",
			    ln, line_label(c), c->len, len);
		c->len += (size_t)r;
	}
	if (memcmp(c->buf, want, len) != 0)
		fail_msg("line %d: %s: expected %zu bytes \"%.*s\", got "
		    "\"%.*s\"", ln, line_label(c), len, (int)len, want,
		    (int)len, c->buf);
	c->len -= len;
	memmove(c->buf, c->buf + len, c->len);
}

/* Send raw bytes. */
static void
write_at(int ln, struct conn *c, const void *data, size_t len)
{
	if (conn_write(c, data, len) != 0)
		fail_msg("line %d: %s: cannot send %zu bytes: %s", ln,
		    line_label(c), len, strerror(errno));
}

/* Two players, paired, the first game started (p[0] is X, p1). */
static void
pair_at(int ln, struct e2e *e, struct tttd_proc *tp, struct game *g)
{
	struct conn	*x, *o;

	x = e2e_connect_at(ln, e, tp);
	o = e2e_connect_at(ln, e, tp);
	game_init(g, x, o, "p1", "p2");
	game_match_at(ln, g);
	game_start_at(ln, g, -1);
}

/* The connection ends (EOF or reset) without another line. */
static void
want_closed_at(int ln, struct conn *c)
{
	if (!conn_wait_closed(c, HARNESS_TIMEOUT_MS))
		fail_msg("line %d: %s: still open", ln, line_label(c));
}

/*
 * 1. Ctrl-C in telnet mid-game: the mark is answered first (WILL
 * TIMING-MARK; telnet throws away what comes before it), then BYE as for
 * QUIT, and the opponent wins because its opponent quit, not because a
 * connection was lost.
 */
static void
test_telnet_ctrl_c_quits_politely(void **state)
{
	struct e2e		*e = *state;
	struct tttd_proc	*tp = e2e_server(e, NULL);
	struct game		 g;

	PAIR(e, tp, &g);
	GAME_MOVE(&g, "MOVE B2", 4);
	if (g.turn == 0)	/* both have moved: a quit is a forfeit */
		GAME_MOVE(&g, "MOVE A1", 0);
	WRITE(g.p[0], CTRL_C);
	WANT_BYTES(g.p[0], IAC WILL O_TM T_BYE "\r\n");
	line_want_eof_at(__LINE__, g.p[0]);
	line_want_at(__LINE__, 1, g.p[1],
	    "RESULT FORFEIT O p2 p1 quit the game. p2 wins!");
	line_want_at(__LINE__, 1, g.p[1], "INFO Score: p1 0, p2 1, ties 0.");
	line_want_at(__LINE__, 1, g.p[1], T_AGAIN);
	e2e_stop(e, tp);
}

/*
 * 2. Ctrl-C while a line is half typed (telnet's character mode) and in
 * the queue: the half line is dropped unanswered, and the client quits.
 */
static void
test_telnet_ctrl_c_drops_partial_line(void **state)
{
	struct e2e		*e = *state;
	struct tttd_proc	*tp = e2e_server(e, NULL);
	struct conn		*a = CONNECT(e, tp);

	WRITE(a, "PING\r\nMOV");
	line_want_at(__LINE__, 1, a, T_PONG);
	WRITE(a, IAC IP);
	WANT_BYTES(a, T_BYE "\r\n");
	line_want_eof_at(__LINE__, a);
	e2e_stop(e, tp);
}

/*
 * 3. Negotiation in the middle of lines is taken out of them: a move with
 * IAC WILL NAWS before it in the same packet, one with IAC DO TTYPE in the
 * middle of its word, a subnegotiation between two lines.  Each option
 * is refused, in the order asked, before the line's reply.
 */
static void
test_telnet_negotiation_stripped_from_lines(void **state)
{
	struct e2e		*e = *state;
	struct tttd_proc	*tp = e2e_server(e, NULL);
	struct game		 g;
	struct conn		*m;

	PAIR(e, tp, &g);
	m = g.p[g.turn];
	WRITE(m, IAC WILL O_NAWS "MOVE B2\r\n");
	WANT_BYTES(m, IAC DONT O_NAWS);
	game_moved_at(__LINE__, &g, 4);
	m = g.p[g.turn];
	WRITE(m, "MO" IAC DO O_TTYPE "VE A1\r\n");
	WANT_BYTES(m, IAC WONT O_TTYPE);
	game_moved_at(__LINE__, &g, 0);
	/* A subnegotiation (never agreed to) is dropped with its bytes. */
	m = g.p[g.turn];
	WRITE(m, IAC SB O_NAWS "\x00\x50\x00\x18" IAC SE "PING\r\n");
	line_want_at(__LINE__, 1, m, T_PONG);
	/* Split across writes: IAC at the end of one, the rest later. */
	WRITE(m, "PI" IAC);
	usleep(50000);
	WRITE(m, NOP "NG\r\n");
	line_want_at(__LINE__, 1, m, T_PONG);
	/* An escaped 0xff is data: a byte no line may hold. */
	WRITE(m, "PING " IAC IAC "\r\n");
	line_want_at(__LINE__, 1, m, E_BAD_CHAR);
	/* The game goes on: C1 B2 A3 wins for the first. */
	game_play_at(__LINE__, &g, "C1 A2 A3");
	e2e_stop(e, tp);
}

/*
 * 4. Options: every DO but TIMING-MARK gets WONT, every WILL gets DONT,
 * every DO TIMING-MARK gets WILL TIMING-MARK (not only the first), and
 * WONT and DONT need no answer.
 */
static void
test_telnet_refuses_options(void **state)
{
	struct e2e		*e = *state;
	struct tttd_proc	*tp = e2e_server(e, NULL);
	struct conn		*a = CONNECT(e, tp);

	WRITE(a, IAC DO O_ECHO IAC WILL O_TTYPE IAC DO O_SGA "PING\r\n");
	WANT_BYTES(a, IAC WONT O_ECHO IAC DONT O_TTYPE IAC WONT O_SGA
	    T_PONG "\r\n");
	WRITE(a, IAC DO O_TM);
	WANT_BYTES(a, IAC WILL O_TM);
	WRITE(a, "PING\r\n" IAC DO O_TM);
	WANT_BYTES(a, T_PONG "\r\n" IAC WILL O_TM);
	WRITE(a, IAC WONT O_ECHO IAC DONT O_SGA IAC DONT O_TM);
	WANT_QUIET(a);
	SEND(a, "PING");
	WANT_BYTES(a, T_PONG "\r\n");
	e2e_stop(e, tp);
}

/*
 * 5. A client that never sends 0xff never gets a telnet byte, not even
 * while its opponent speaks telnet; the telnet one gets the same lines.
 */
static void
test_telnet_nc_client_gets_no_telnet(void **state)
{
	struct e2e		*e = *state;
	struct tttd_proc	*tp = e2e_server(e, NULL);
	struct game		 g;
	struct conn		*nc, *tn;
	size_t			 i;

	PAIR(e, tp, &g);
	nc = g.p[0];
	tn = g.p[1];
	WRITE(tn, IAC DO O_ECHO IAC WILL O_NAWS "PING\r\n");
	WANT_BYTES(tn, IAC WONT O_ECHO IAC DONT O_NAWS T_PONG "\r\n");
	/* Bytes an nc user might type that are near telnet's: no answer. */
	WRITE(nc, "\xfd\x06\xfb\x1f\r\n");
	line_want_at(__LINE__, 1, nc, E_BAD_CHAR);
	game_play_at(__LINE__, &g, "A1 A2 B1 B2 C1");
	SEND(nc, "BOARD");
	line_want_at(__LINE__, 1, nc, "OK BOARD");
	usleep(100000);
	(void)conn_fill(nc);
	for (i = 0; i < nc->len; i++) {
		if ((unsigned char)nc->buf[i] == 0xff)
			fail_msg("the nc client got a 0xff byte");
	}
	e2e_stop(e, tp);
}

/*
 * 6. Telnet used to hold the server's memory or inflate its input: more
 * than 1 KiB of commands with no line between them (an endless
 * subnegotiation, NOPs) closes the connection; so does turning on
 * compression (MCCP2) that was never agreed to.  The server goes on.
 */
static void
test_telnet_abuse_closes(void **state)
{
	struct e2e		*e = *state;
	struct tttd_proc	*tp = e2e_server(e, NULL);
	struct conn		*a, *b, *c;
	static char		 buf[6000];
	size_t			 i;

	/* A subnegotiation that never ends. */
	a = CONNECT(e, tp);
	memcpy(buf, IAC SB O_TTYPE, 3);
	memset(buf + 3, 'x', sizeof buf - 3);
	for (i = 100; i < sizeof buf; i += 100)
		buf[i] = '\n';	/* line ends inside it are not lines */
	write_at(__LINE__, a, buf, 1000);
	WANT_QUIET(a);
	(void)conn_write(a, buf + 1000, sizeof buf - 1000);	/* closing */
	want_closed_at(__LINE__, a);

	/* NOPs, and a line now and then would have kept it open. */
	b = CONNECT(e, tp);
	for (i = 0; i + 1 < 1200; i += 2)
		memcpy(buf + i, IAC NOP, 2);
	write_at(__LINE__, b, buf, 1000);
	SEND(b, "PING");
	line_want_at(__LINE__, 1, b, T_PONG);
	write_at(__LINE__, b, buf, 700);
	SEND(b, "PING");
	line_want_at(__LINE__, 1, b, T_PONG);
	(void)conn_write(b, buf, 1200);
	want_closed_at(__LINE__, b);

	/* Compression, never asked for, then deflated garbage. */
	c = CONNECT(e, tp);
	WRITE(c, IAC SB O_COMPRESS2 IAC SE "\x78\x9c\xff\xff\xff\xff");
	want_closed_at(__LINE__, c);

	a = CONNECT(e, tp);
	SEND(a, "PING");
	line_want_at(__LINE__, 1, a, T_PONG);
	e2e_stop(e, tp);
}

#define T(f) cmocka_unit_test_setup_teardown(f, e2e_setup_v1, e2e_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_telnet_ctrl_c_quits_politely),
		T(test_telnet_ctrl_c_drops_partial_line),
		T(test_telnet_negotiation_stripped_from_lines),
		T(test_telnet_refuses_options),
		T(test_telnet_nc_client_gets_no_telnet),
		T(test_telnet_abuse_closes),
	};

	signal(SIGPIPE, SIG_IGN);
	return (cmocka_run_group_tests(tests, NULL, NULL));
}
