/*
 * test_e2e_proxy.c -- --proxy-from (issue 26) with the real tttd: a
 * client on 127.0.0.1, trusted as a balancer, sends PROXY headers (v1
 * and v2, whole, split, slow, invalid) naming other addresses, and tttd
 * treats each connection as coming from the address named: the
 * per-address cap, the wrong tokens' allowance, the log and the HTTP
 * port go by it.  A header from an address not trusted is an ordinary
 * (unknown) line, and changes nothing.
 */
#include <sys/types.h>

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness.h"

#define PX_CONNS	16
#define E_TOO_MANY	"ERR TOO_MANY_CONNECTIONS Too many connections from " \
			"your address. Please try again later."
#define E_UNKNOWN	"ERR UNKNOWN_COMMAND Unknown command. Type HELP for " \
			"the list of commands."
#define E_BAD_TOKEN	"ERR BAD_TOKEN That code does not match a seat you " \
			"can resume."
#define E_RATE_LIMITED	"ERR RATE_LIMITED Too many commands. Please slow down."

/* A v2 header of TCP over IPv4: 203.0.113.<last>:<port> -> 127.0.0.1:4000. */
#define V2_SIG		"\r\n\r\n\0\r\nQUIT\n"

struct px {
	struct tttd_proc	srv;
	struct conn		conns[PX_CONNS];
	int			nconns;
	char			log[65536];
	size_t			loglen;
};

/* A fresh fixture. */
static int
px_setup(void **state)
{
	struct px	*f = calloc(1, sizeof *f);

	if (f == NULL)
		return (-1);
	*state = f;
	return (0);
}

/* The server stopped (status 0 asserted), the connections closed. */
static int
px_teardown(void **state)
{
	struct px	*f = *state;
	int		 i, rc = 0;

	for (i = 0; i < f->nconns; i++)
		conn_close(&f->conns[i]);
	if (f->srv.pid > 0)
		rc = harness_stop(&f->srv) == 0 ? 0 : -1;
	free(f);
	return (rc);
}

/* tttd with the extra args. */
static void
px_start(struct px *f, const char *const *extra)
{
	assert_int_equal(harness_start(&f->srv, extra), 0);
}

/* A connection to port from 127.0.0.1. */
static struct conn *
px_open(struct px *f, int port)
{
	struct conn	*c;

	assert_true(f->nconns < PX_CONNS);
	c = &f->conns[f->nconns++];
	assert_int_equal(conn_open_nb(c, port, HARNESS_TIMEOUT_MS), 0);
	return (c);
}

/* Bytes sent as they are. */
static void
px_write(struct conn *c, const void *buf, size_t len)
{
	assert_int_equal(conn_write(c, buf, len), 0);
}

/* A v1 header naming ip:port (TCP4 or TCP6 by the address). */
static void
px_v1(struct conn *c, const char *ip, int port)
{
	char	hdr[128];
	int	n;

	n = snprintf(hdr, sizeof hdr, "PROXY %s %s %s %d 4000\r\n",
	    strchr(ip, ':') != NULL ? "TCP6" : "TCP4", ip,
	    strchr(ip, ':') != NULL ? "::1" : "127.0.0.1", port);
	px_write(c, hdr, (size_t)n);
}

/* A v2 header (TCP over IPv4) naming 203.0.113.last:port, with a TLV. */
static size_t
px_v2(uint8_t *out, int last, int port)
{
	static const uint8_t	head[] = V2_SIG "\x21\x11\x00\x13";

	memcpy(out, head, 16);
	memcpy(out + 16, "\xcb\x00\x71", 3);
	out[19] = (uint8_t)last;
	memcpy(out + 20, "\x7f\x00\x00\x01", 4);
	out[24] = (uint8_t)(port >> 8);
	out[25] = (uint8_t)port;
	out[26] = 0x0f;
	out[27] = 0xa0;
	memcpy(out + 28, "\x04\x00\x04" "pad!", 7);	/* PP2_TYPE_NOOP */
	return (35);
}

/* The greeting (HELLO, then WAIT). */
static void
px_greeted(struct conn *c)
{
	expect_prefix(c, "HELLO tttd/1 ");
	expect_event(c, "WAIT Waiting for an opponent...");
}

/* The log holds text by now (read on for a while): 1, else 0. */
static int
px_logged(struct px *f, const char *text)
{
	long	deadline = harness_now_ms() + HARNESS_TIMEOUT_MS;

	for (;;) {
		f->loglen += harness_log(&f->srv, f->log + f->loglen,
		    sizeof f->log - f->loglen);
		if (strstr(f->log, text) != NULL)
			return (1);
		if (harness_now_ms() >= deadline ||
		    f->loglen + 1 >= sizeof f->log)
			return (0);
		usleep(20000);
	}
}

/* A STAT of the server, asked on c. */
static long
px_stat(struct conn *c, const char *name)
{
	char	prefix[64], line[256];

	assert_int_equal(conn_send(c, "STATS"), 0);
	snprintf(prefix, sizeof prefix, "STAT %s ", name);
	expect_skip_to(c, prefix, line, sizeof line);
	return (atol(line + strlen(prefix)));
}

/*
 * v1 headers from the one trusted address name others: --max-per-addr 2
 * counts per address named (the third naming 203.0.113.7 is refused,
 * logged with its address), while 127.0.0.1 itself holds five.  STATS
 * and the log count and name them.
 */
static void
test_proxy_v1_per_named_address(void **state)
{
	static const char *const	 extra[] = { "--proxy-from",
					    "127.0.0.1/32", "--max-per-addr",
					    "2", NULL };
	struct px			*f = *state;
	struct conn			*c[5];

	px_start(f, extra);
	c[0] = px_open(f, f->srv.port);
	px_v1(c[0], "203.0.113.7", 5000);
	px_greeted(c[0]);
	c[1] = px_open(f, f->srv.port);
	px_v1(c[1], "203.0.113.7", 5001);
	px_greeted(c[1]);
	c[2] = px_open(f, f->srv.port);
	px_v1(c[2], "203.0.113.7", 5002);
	expect_event(c[2], E_TOO_MANY);
	assert_true(conn_wait_closed(c[2], HARNESS_TIMEOUT_MS));
	c[3] = px_open(f, f->srv.port);
	px_v1(c[3], "198.51.100.1", 6000);
	px_greeted(c[3]);
	c[4] = px_open(f, f->srv.port);
	px_v1(c[4], "2001:db8::1", 7000);
	px_greeted(c[4]);
	assert_int_equal(px_stat(c[4], "connections_current"), 4);
	assert_int_equal(px_stat(c[4], "connections_rejected"), 1);
	assert_true(px_logged(f, "connect from 203.0.113.7:5000"));
	assert_true(px_logged(f, "connect from 203.0.113.7:5001"));
	assert_true(px_logged(f, "refused 203.0.113.7:5002: too many "
	    "connections from its address"));
	assert_true(px_logged(f, "connect from 198.51.100.1:6000"));
	assert_true(px_logged(f, "connect from [2001:db8::1]:7000"));
	assert_true(px_logged(f, "203.0.113.7:5000 through the balancer "
	    "127.0.0.1:"));
}

/*
 * v2 headers: TCP over IPv4 with a TLV, counted per address named; LOCAL
 * (a balancer's health check) is the balancer's own address, and counts
 * as it.
 */
static void
test_proxy_v2_and_local(void **state)
{
	static const char *const	 extra[] = { "--proxy-from",
					    "10.0.0.0/8,127.0.0.0/8",
					    "--max-per-addr", "1", NULL };
	static const uint8_t		 local[] = V2_SIG "\x20\x00\x00\x00";
	struct px			*f = *state;
	struct conn			*c[4];
	uint8_t				 hdr[64];

	px_start(f, extra);
	c[0] = px_open(f, f->srv.port);
	px_write(c[0], hdr, px_v2(hdr, 9, 40000));
	px_greeted(c[0]);
	c[1] = px_open(f, f->srv.port);
	px_write(c[1], hdr, px_v2(hdr, 9, 40001));
	expect_event(c[1], E_TOO_MANY);
	c[2] = px_open(f, f->srv.port);
	px_write(c[2], local, sizeof local - 1);
	px_greeted(c[2]);
	c[3] = px_open(f, f->srv.port);
	px_write(c[3], local, sizeof local - 1);
	expect_event(c[3], E_TOO_MANY);
	assert_true(px_logged(f, "connect from 203.0.113.9:40000"));
	assert_true(px_logged(f, "refused 203.0.113.9:40001"));
	assert_true(px_logged(f, "203.0.113.9:40000 through the balancer "
	    "127.0.0.1:"));
	assert_true(px_logged(f, "refused 127.0.0.1:"));
}

/*
 * Headers split over several reads (v1 in three pieces, the first line
 * in the last; v2 a byte at a time) are read on; a header and a line in
 * one read: the line is the first one read.
 */
static void
test_proxy_split_header(void **state)
{
	static const char *const	 extra[] = { "--proxy-from",
					    "127.0.0.1", NULL };
	struct px			*f = *state;
	struct conn			*c;
	uint8_t				 hdr[64];
	size_t				 i, n;

	px_start(f, extra);
	c = px_open(f, f->srv.port);
	px_write(c, "PROXY TCP4 192.0.2", 18);
	usleep(100000);
	px_write(c, ".77 127.0.0.1 1234 4000\r", 24);
	usleep(100000);
	px_write(c, "\nPING\r\n", 7);
	px_greeted(c);
	expect_event(c, "OK PONG");

	c = px_open(f, f->srv.port);
	n = px_v2(hdr, 78, 2345);
	for (i = 0; i < n; i++) {
		px_write(c, hdr + i, 1);
		usleep(5000);
	}
	px_greeted(c);
	assert_int_equal(conn_send(c, "PING"), 0);
	expect_event(c, "OK PONG");

	c = px_open(f, f->srv.port);
	px_write(c, "PROXY TCP4 192.0.2.79 127.0.0.1 3456 4000\r\nNAME "
	    "carol\r\n", 56);
	px_greeted(c);
	expect_event(c, "OK NAME carol");
	assert_true(px_logged(f, "connect from 192.0.2.77:1234"));
	assert_true(px_logged(f, "connect from 203.0.113.78:2345"));
	assert_true(px_logged(f, "connect from 192.0.2.79:3456"));
}

/*
 * A header not whole within --line-timeout (1 s here) is closed, and
 * logged; so is a connection that sends nothing.  Neither got a line.
 */
static void
test_proxy_slow_header_deadline(void **state)
{
	static const char *const	 extra[] = { "--proxy-from",
					    "127.0.0.1/32", "--line-timeout",
					    "1", NULL };
	struct px			*f = *state;
	struct conn			*c, *d;
	char				 line[256];

	px_start(f, extra);
	c = px_open(f, f->srv.port);
	d = px_open(f, f->srv.port);
	px_write(c, "PROXY TCP4 192.0.2.1 127.0.0.1 1", 32);
	assert_true(conn_wait_closed(c, HARNESS_TIMEOUT_MS));
	assert_true(conn_wait_closed(d, HARNESS_TIMEOUT_MS));
	assert_int_equal(conn_line(c, line, sizeof line, 100), -1);
	assert_true(px_logged(f, "sent no whole PROXY header in time, "
	    "closing"));
	assert_int_equal(harness_count(f->log, "sent no whole PROXY header "
	    "in time"), 2);
}

/*
 * Invalid headers from the trusted address (a bare LF, a game line, v2
 * of another version) are closed at once, without a line, and logged
 * with why; nothing is counted for them.
 */
static void
test_proxy_invalid_header_closed(void **state)
{
	static const char *const	 extra[] = { "--proxy-from",
					    "127.0.0.1/32", NULL };
	static const uint8_t		 v3[] = V2_SIG "\x31\x11\x00\x00";
	struct px			*f = *state;
	struct conn			*c;
	char				 line[256];

	px_start(f, extra);
	c = px_open(f, f->srv.port);
	px_write(c, "PROXY TCP4 192.0.2.1 127.0.0.1 1 2\n", 35);
	assert_true(conn_wait_closed(c, HARNESS_TIMEOUT_MS));
	assert_true(px_logged(f, "sent an invalid PROXY header (a line not "
	    "ended by CR LF), closing"));
	c = px_open(f, f->srv.port);
	px_write(c, "NAME mallory\r\n", 14);
	assert_int_equal(conn_line(c, line, sizeof line, HARNESS_TIMEOUT_MS),
	    -1);
	assert_true(px_logged(f, "sent an invalid PROXY header (not a PROXY "
	    "header), closing"));
	c = px_open(f, f->srv.port);
	px_write(c, v3, sizeof v3 - 1);
	assert_true(conn_wait_closed(c, HARNESS_TIMEOUT_MS));
	assert_true(px_logged(f, "sent an invalid PROXY header (not version "
	    "2), closing"));
	c = px_open(f, f->srv.port);
	px_v1(c, "192.0.2.2", 1);
	px_greeted(c);
	assert_int_equal(px_stat(c, "connections_total"), 1);
	assert_int_equal(px_stat(c, "connections_rejected"), 0);
}

/*
 * A PROXY header from an address not in --proxy-from (or with none) is
 * not believed: HELLO first, then the header is an unknown command, and
 * the connection is still 127.0.0.1's (--max-per-addr 1 refuses the
 * second whatever it names).
 */
static void
test_proxy_untrusted_header_is_a_line(void **state)
{
	static const char *const	 extra[] = { "--proxy-from",
					    "127.0.0.2/32,10.0.0.0/8",
					    "--max-per-addr", "1", NULL };
	static const char *const	 none[] = { "--max-per-addr", "1",
					    NULL };
	struct px			*f = *state;
	struct conn			*c, *d;
	int				 round;

	for (round = 0; round < 2; round++) {
		px_start(f, round == 0 ? extra : none);
		c = px_open(f, f->srv.port);
		px_greeted(c);
		px_v1(c, "203.0.113.50", 5000);
		expect_event(c, E_UNKNOWN);
		assert_int_equal(conn_send(c, "PING"), 0);
		expect_event(c, "OK PONG");
		d = px_open(f, f->srv.port);
		px_v1(d, "203.0.113.51", 5001);
		expect_event(d, E_TOO_MANY);
		assert_true(px_logged(f, "refused 127.0.0.1:"));
		assert_null(strstr(f->log, "203.0.113."));
		assert_int_equal(px_stat(c, "errors"), 2);
		assert_int_equal(harness_stop(&f->srv), 0);
		f->srv.pid = 0;
		f->loglen = 0;
		f->log[0] = '\0';
	}
}

/*
 * Wrong RESUME tokens are allowed per address named: five from
 * 203.0.113.20, then RATE_LIMITED; 203.0.113.21, behind the same
 * balancer, still has its own five.
 */
static void
test_proxy_guess_allowance_per_named_address(void **state)
{
	static const char *const	 extra[] = { "--proxy-from",
					    "127.0.0.1/32", NULL };
	struct px			*f = *state;
	struct conn			*c, *d;
	int				 i;

	px_start(f, extra);
	c = px_open(f, f->srv.port);
	px_v1(c, "203.0.113.20", 5000);
	px_greeted(c);
	for (i = 0; i < 5; i++) {
		assert_int_equal(conn_send(c, "RESUME 2222-2222"), 0);
		expect_event(c, E_BAD_TOKEN);
	}
	assert_int_equal(conn_send(c, "RESUME 2222-2222"), 0);
	expect_event(c, E_RATE_LIMITED);
	d = px_open(f, f->srv.port);
	px_v1(d, "203.0.113.21", 5001);
	px_greeted(d);
	assert_int_equal(conn_send(d, "RESUME 2222-2222"), 0);
	expect_event(d, E_BAD_TOKEN);
}

/*
 * The HTTP port: a request behind a header is answered, logged with the
 * address named; an HTTP connection holds its named address's slot
 * (--max-per-addr 1: a player naming it is refused, one naming another
 * is not); an invalid header there is closed too.
 */
static void
test_proxy_http_port(void **state)
{
	static const char *const	 extra[] = { "--proxy-from",
					    "127.0.0.1/32", "--http-port",
					    "any", "--max-per-addr", "1",
					    NULL };
	static const char		 req[] = "GET /healthz HTTP/1.1\r\n"
					    "Host: tttd\r\n\r\n";
	struct px			*f = *state;
	struct conn			*h, *c;
	char				 line[256];
	uint8_t				 hdr[128];
	size_t				 n;

	px_start(f, extra);
	h = px_open(f, f->srv.http_port);
	n = px_v2(hdr, 30, 8000);
	memcpy(hdr + n, req, sizeof req - 1);
	px_write(h, hdr, n + sizeof req - 1);
	assert_true(conn_line(h, line, sizeof line, HARNESS_TIMEOUT_MS) > 0);
	assert_string_equal(line, "HTTP/1.1 200 OK");
	assert_true(px_logged(f, "203.0.113.30:8000 GET /healthz"));

	h = px_open(f, f->srv.http_port);
	px_v1(h, "203.0.113.31", 8001);		/* its request to come */
	assert_true(px_logged(f, "203.0.113.31:8001 through the balancer"));
	c = px_open(f, f->srv.port);
	px_v1(c, "203.0.113.31", 8002);
	expect_event(c, E_TOO_MANY);
	c = px_open(f, f->srv.port);
	px_v1(c, "203.0.113.32", 8003);
	px_greeted(c);

	h = px_open(f, f->srv.http_port);
	px_write(h, req, sizeof req - 1);
	assert_true(conn_wait_closed(h, HARNESS_TIMEOUT_MS));
	assert_true(px_logged(f, "sent an invalid PROXY header (not a PROXY "
	    "header), closing"));
}

/* A bad --proxy-from (or TTTD_PROXY_FROM) stops tttd at start: status 1. */
static void
test_proxy_bad_list_exits_1(void **state)
{
	static const char *const	 bad[] = { "--port", "0",
					    "--http-port", "0",
					    "--proxy-from", "10.0.0.0/33",
					    NULL };
	static const char *const	 env[] = { "--port", "0",
					    "--http-port", "0", NULL };
	char				 out[256], err[4096];

	(void)state;
	assert_int_equal(harness_run2(bad, out, sizeof out, err, sizeof err,
	    HARNESS_START_MS), 1);
	assert_non_null(strstr(err, "bad --proxy-from \"10.0.0.0/33\": not "
	    "ADDR/BITS (an IPv4 or IPv6 network)"));
	setenv("TTTD_PROXY_FROM", "127.0.0.1/32,nonsense", 1);
	assert_int_equal(harness_run2(env, out, sizeof out, err, sizeof err,
	    HARNESS_START_MS), 1);
	unsetenv("TTTD_PROXY_FROM");
	assert_non_null(strstr(err, "bad --proxy-from \"127.0.0.1/32,"
	    "nonsense\""));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
		    test_proxy_v1_per_named_address, px_setup, px_teardown),
		cmocka_unit_test_setup_teardown(test_proxy_v2_and_local,
		    px_setup, px_teardown),
		cmocka_unit_test_setup_teardown(test_proxy_split_header,
		    px_setup, px_teardown),
		cmocka_unit_test_setup_teardown(
		    test_proxy_slow_header_deadline, px_setup, px_teardown),
		cmocka_unit_test_setup_teardown(
		    test_proxy_invalid_header_closed, px_setup, px_teardown),
		cmocka_unit_test_setup_teardown(
		    test_proxy_untrusted_header_is_a_line, px_setup,
		    px_teardown),
		cmocka_unit_test_setup_teardown(
		    test_proxy_guess_allowance_per_named_address, px_setup,
		    px_teardown),
		cmocka_unit_test_setup_teardown(test_proxy_http_port,
		    px_setup, px_teardown),
		cmocka_unit_test_setup_teardown(test_proxy_bad_list_exits_1,
		    px_setup, px_teardown),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
