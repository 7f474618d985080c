/*
 * test_e2e_ws.c -- tttd's --http-port over real sockets: the page, its
 * icon, /healthz, /metrics and the HTTP errors, and WebSocket players (framed by
 * hand, tests/ws_client.c) in the same queue and matches as TCP ones,
 * under the same limits, and refused with the RFC's close codes when their
 * frames are bad or their control frames too many.
 */
#include <sys/socket.h>
#include <sys/types.h>

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness.h"
#include "ws_client.h"

#define HTTP_OUT	(256 * 1024)
#define WS_RATE		10	/* --rate-limit of ws_setup_rate ... */
#define WS_BURST	20	/* ... and its --rate-burst */
#define WS_FLOOD	5000	/* control frames in one write */

/* The server, started with HTTP on a free port, and the test's buffers. */
struct wsfix {
	struct tttd_proc	 srv;
	struct conn		 a, b, c;
	char			 out[HTTP_OUT];
	size_t			 out_len;	/* bytes in out */
};

static const char *const ws_extra[] = {
	"--http-port", "any", NULL
};

static int
ws_setup_with(void **state, const char *const *extra)
{
	struct wsfix	*f;

	if ((f = calloc(1, sizeof *f)) == NULL)
		return (-1);
	f->a.fd = f->b.fd = f->c.fd = -1;
	if (harness_start(&f->srv, extra) == -1) {
		free(f);
		return (-1);
	}
	*state = f;
	return (0);
}

static int
ws_setup(void **state)
{
	return (ws_setup_with(state, ws_extra));
}

/* A per-address cap of 2 players, TCP and WebSocket together. */
static int
ws_setup_cap(void **state)
{
	static const char *const	extra[] = {
		"--http-port", "any", "--max-per-addr", "2", NULL
	};

	return (ws_setup_with(state, extra));
}

/* A slow request is cut off like a slow line. */
static int
ws_setup_slow(void **state)
{
	static const char *const	extra[] = {
		"--http-port", "any", "--line-timeout", "0.3", NULL
	};

	return (ws_setup_with(state, extra));
}

/* No limit on lines: HTTP requests keep one of their own. */
static int
ws_setup_noline(void **state)
{
	static const char *const	extra[] = {
		"--http-port", "any", "--line-timeout", "0", NULL
	};

	return (ws_setup_with(state, extra));
}

/* No rate limit: the output cap is what stops a flood of HELP. */
static int
ws_setup_norate(void **state)
{
	static const char *const	extra[] = {
		"--http-port", "any", "--rate-limit", "0", NULL
	};

	return (ws_setup_with(state, extra));
}

/* A small rate limit, for floods of control frames. */
static int
ws_setup_rate(void **state)
{
	static const char *const	extra[] = {
		"--http-port", "any", "--rate-limit", "10", "--rate-burst",
		"20", NULL
	};

	return (ws_setup_with(state, extra));
}

static int
ws_teardown(void **state)
{
	struct wsfix	*f = *state;

	if (f->a.fd != -1)
		conn_close(&f->a);
	if (f->b.fd != -1)
		conn_close(&f->b);
	if (f->c.fd != -1)
		conn_close(&f->c);
	assert_int_equal(harness_stop(&f->srv), 0);
	free(f);
	return (0);
}

/* GET path: the whole response (to EOF) in f->out; its status code. */
static int
ws_get(struct wsfix *f, const char *path)
{
	char	req[512];
	int	n;

	n = snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: t\r\n\r\n",
	    path);
	n = http_fetch(f->srv.http_port, req, (size_t)n, f->out,
	    sizeof f->out);
	if (n < 12 || strncmp(f->out, "HTTP/1.1 ", 9) != 0)
		fail_msg("no HTTP response to GET %s: \"%s\"", path, f->out);
	f->out_len = (size_t)n;
	return (atoi(f->out + 9));
}

/* The body of the response in f->out. */
static const char *
ws_body(struct wsfix *f)
{
	const char	*p = strstr(f->out, "\r\n\r\n");

	assert_non_null(p);
	return (p + 4);
}

/* A STAT counter's value, asked with STATS by a TCP player. */
static unsigned long long
ws_stat(struct conn *c, const char *name)
{
	char	line[512], want[128];

	conn_send(c, "STATS");
	snprintf(want, sizeof want, "STAT %s ", name);
	expect_skip_to(c, want, line, sizeof line);
	expect_skip_to(c, "END", NULL, 0);
	return (strtoull(line + strlen(want), NULL, 10));
}

/* GET /: the page, byte for byte as web/index.html, as HTML. */
static void
test_ws_http_page(void **state)
{
	struct wsfix	*f = *state;
	FILE		*fp;
	static char	 page[HTTP_OUT];
	size_t		 n;

	assert_int_equal(ws_get(f, "/"), 200);
	assert_non_null(strstr(f->out,
	    "\r\nContent-Type: text/html; charset=utf-8\r\n"));
	assert_non_null(strstr(f->out, "\r\nCache-Control: no-cache\r\n"));
	assert_non_null(fp = fopen(TTTD_PAGE_PATH, "rb"));
	n = fread(page, 1, sizeof page - 1, fp);
	fclose(fp);
	page[n] = '\0';
	assert_true(n > 0);
	assert_string_equal(ws_body(f), page);
}

/*
 * GET /favicon.ico: 200, the icon byte for byte as web/favicon.ico (a
 * binary file: compared by length), as an ICO, so that a browser's
 * console shows no 404 for it.
 */
static void
test_ws_http_favicon(void **state)
{
	struct wsfix	*f = *state;
	FILE		*fp;
	static char	 icon[HTTP_OUT];
	const char	*body;
	size_t		 n;

	assert_int_equal(ws_get(f, "/favicon.ico"), 200);
	assert_non_null(strstr(f->out, "\r\nContent-Type: image/x-icon\r\n"));
	assert_non_null(fp = fopen(TTTD_ICON_PATH, "rb"));
	n = fread(icon, 1, sizeof icon, fp);
	fclose(fp);
	assert_true(n > 6);
	assert_memory_equal(icon, "\0\0\1\0", 4);	/* an ICO file */
	body = ws_body(f);
	assert_int_equal(f->out_len - (size_t)(body - f->out), n);
	assert_memory_equal(body, icon, n);
	assert_int_equal(ws_get(f, "/favicon.ico?v=2"), 200);
}

/*
 * GET /healthz: 200 "ok", and the request is no player: a player waiting
 * is not paired with it, and players_waiting does not change.
 */
static void
test_ws_http_healthz(void **state)
{
	struct wsfix	*f = *state;

	assert_int_equal(conn_open(&f->a, f->srv.port), 0);
	expect_skip_to(&f->a, "WAIT ", NULL, 0);
	usleep(600 * 1000);		/* past its first half second */
	assert_int_equal(ws_stat(&f->a, "players_waiting"), 1);
	assert_int_equal(ws_get(f, "/healthz"), 200);
	assert_string_equal(ws_body(f), "ok\n");
	assert_true(conn_quiet(&f->a, 700));	/* no MATCH */
	assert_int_equal(ws_stat(&f->a, "players_waiting"), 1);
	assert_int_equal(ws_stat(&f->a, "matches_live"), 0);
}

/*
 * GET /metrics: every STATS counter by Prometheus's conventions, a gauge
 * as tttd_<name>, a counter as tttd_<name>_total, with HELP and TYPE,
 * equal to STATS where nothing moves in between; uptime as the start
 * time (a gauge), and the version.
 */
static void
test_ws_http_metrics(void **state)
{
	static const char *const	names[][2] = {
		{ "connections_total", "connections_total" },
		{ "players_waiting", "players_waiting" },
		{ "matches_live", "matches_live" },
		{ "games_finished", "games_finished_total" },
		{ "moves", "moves_total" },
		{ "chats", "chats_total" },
		{ "rooms_open", "rooms_open" },
	};
	struct wsfix			*f = *state;
	char				 want[128];
	const char			*p;
	size_t				 i;
	long long			 now = (long long)time(NULL), start;

	assert_int_equal(conn_open(&f->a, f->srv.port), 0);
	expect_skip_to(&f->a, "WAIT ", NULL, 0);
	conn_send(&f->a, "SAY hi");		/* NO_GAME: an error counted */
	expect_skip_to(&f->a, "ERR NO_GAME", NULL, 0);
	assert_int_equal(ws_get(f, "/metrics"), 200);
	assert_non_null(strstr(f->out, "\r\nContent-Type: text/plain; "
	    "version=0.0.4"));
	assert_non_null(strstr(f->out, "# TYPE tttd_players_waiting gauge\n"));
	assert_non_null(strstr(f->out,
	    "# TYPE tttd_games_finished_total counter\n"));
	/* A number of things now, which goes down as well: a gauge. */
	assert_non_null(strstr(f->out, "# TYPE tttd_matches_ai gauge\n"));
	assert_non_null(strstr(f->out, "# HELP tttd_errors_total "));
	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		snprintf(want, sizeof want, "\ntttd_%s ", names[i][1]);
		assert_non_null(p = strstr(f->out, want));
		assert_int_equal(strtoull(p + strlen(want), NULL, 10),
		    ws_stat(&f->a, names[i][0]));
	}
	snprintf(want, sizeof want, "\ntttd_errors_total ");
	assert_non_null(p = strstr(f->out, want));
	assert_true(strtoull(p + strlen(want), NULL, 10) >= 1);
	/* No uptime typed a counter: the start time, this very minute. */
	assert_null(strstr(f->out, "tttd_uptime"));
	assert_non_null(strstr(f->out,
	    "# TYPE tttd_start_time_seconds gauge\n"));
	assert_non_null(p = strstr(f->out, "\ntttd_start_time_seconds "));
	start = strtoll(p + strlen("\ntttd_start_time_seconds "), NULL, 10);
	if (start > now || start < now - 60)
		fail_msg("tttd_start_time_seconds %lld, now %lld", start, now);
	snprintf(want, sizeof want, "\ntttd_build_info{version=\"%s\"} 1\n",
	    TTTD_VERSION);
	assert_non_null(strstr(f->out, want));
}

/*
 * /metrics read by Prometheus's own parser and linter, promtool check
 * metrics (Debian's prometheus; .ci/install-deps): no error, and none of
 * its warnings (a counter without _total, say).  Skipped without it.
 */
static void
test_ws_http_metrics_promtool(void **state)
{
	struct wsfix	*f = *state;
	char		 path[] = "/tmp/tttd-metrics.XXXXXX", cmd[256];
	char		 out[4096];
	const char	*body;
	FILE		*p;
	size_t		 n;
	int		 fd, rc;

	if (system("command -v promtool >/dev/null 2>&1") != 0) {
		print_message("promtool not installed (Debian's prometheus): "
		    "skipped\n");
		skip();
	}
	assert_int_equal(conn_open(&f->a, f->srv.port), 0);
	expect_skip_to(&f->a, "WAIT ", NULL, 0);
	assert_int_equal(ws_get(f, "/metrics"), 200);
	body = ws_body(f);
	assert_true((fd = mkstemp(path)) != -1);
	assert_int_equal(write(fd, body, strlen(body)), (ssize_t)strlen(body));
	close(fd);
	snprintf(cmd, sizeof cmd, "promtool check metrics < %s 2>&1", path);
	assert_non_null(p = popen(cmd, "r"));
	n = fread(out, 1, sizeof out - 1, p);
	out[n] = '\0';
	rc = pclose(p);
	unlink(path);
	if (rc != 0 || n != 0)
		fail_msg("promtool check metrics: status %d:\n%s\n/metrics:\n%s",
		    rc, out, body);
}

/* 404, 405 (with Allow), 431, and 400 for a bad handshake. */
static void
test_ws_http_errors(void **state)
{
	struct wsfix	*f = *state;
	static char	 big[HTTP_OUT];
	int		 n;

	assert_int_equal(ws_get(f, "/nope"), 404);
	assert_int_equal(ws_get(f, "/index.php?x=1"), 404);

	snprintf(big, sizeof big, "POST / HTTP/1.1\r\nHost: t\r\n"
	    "Content-Length: 2\r\n\r\nhi");
	n = http_fetch(f->srv.http_port, big, strlen(big), f->out,
	    sizeof f->out);
	assert_true(n > 0);
	assert_memory_equal(f->out, "HTTP/1.1 405 ", 13);
	assert_non_null(strstr(f->out, "\r\nAllow: GET\r\n"));

	n = snprintf(big, sizeof big, "GET / HTTP/1.1\r\nX-Big: ");
	memset(big + n, 'a', 9000);
	memcpy(big + n + 9000, "\r\n\r\n", 5);
	assert_true(http_fetch(f->srv.http_port, big, strlen(big), f->out,
	    sizeof f->out) > 0);
	assert_memory_equal(f->out, "HTTP/1.1 431 ", 13);

	/* GET /ws without Sec-WebSocket-Key: 400, no WebSocket. */
	n = snprintf(big, sizeof big, "GET /ws HTTP/1.1\r\nHost: t\r\n"
	    "Upgrade: websocket\r\nConnection: Upgrade\r\n"
	    "Sec-WebSocket-Version: 13\r\n\r\n");
	assert_true(http_fetch(f->srv.http_port, big, (size_t)n, f->out,
	    sizeof f->out) > 0);
	assert_memory_equal(f->out, "HTTP/1.1 400 ", 13);
	/* And version 8: 400. */
	n = snprintf(big, sizeof big, "GET /ws HTTP/1.1\r\nHost: t\r\n"
	    "Upgrade: websocket\r\nConnection: Upgrade\r\n"
	    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
	    "Sec-WebSocket-Version: 8\r\n\r\n");
	assert_true(http_fetch(f->srv.http_port, big, (size_t)n, f->out,
	    sizeof f->out) > 0);
	assert_memory_equal(f->out, "HTTP/1.1 400 ", 13);
}

/* No line limit: an HTTP request still has 10 s, then 408. */
static void
test_ws_http_no_line_limit(void **state)
{
	struct wsfix	*f = *state;
	char		 line[256];
	long		 t0 = harness_now_ms();

	assert_int_equal(conn_open(&f->a, f->srv.http_port), 0);
	assert_true(conn_quiet(&f->a, 2000));
	assert_true(conn_line(&f->a, line, sizeof line, 12000) > 0);
	assert_string_equal(line, "HTTP/1.1 408 Request Timeout");
	assert_true(conn_wait_closed(&f->a, 3000));
	assert_true(harness_now_ms() - t0 >= 9000);
}

/* A request not whole within --line-timeout: 408, closed. */
static void
test_ws_http_slow(void **state)
{
	struct wsfix	*f = *state;
	char		 line[256];
	long		 t0 = harness_now_ms();

	assert_int_equal(conn_open(&f->a, f->srv.http_port), 0);
	conn_write(&f->a, "GET / HTTP/1.1\r\nHost:", 21);
	assert_true(conn_line(&f->a, line, sizeof line, 3000) > 0);
	assert_string_equal(line, "HTTP/1.1 408 Request Timeout");
	assert_true(conn_wait_closed(&f->a, 3000));
	assert_true(harness_now_ms() - t0 < 2500);
}

/*
 * A WebSocket message begun and not finished within --line-timeout, a
 * frame cut short or a message's first fragment alone, is cut off like a
 * line begun on TCP: ERR LINE_TIMEOUT, then a close (1000).
 */
static void
test_ws_slow_message(void **state)
{
	static const char	 part[] = "\x81\x84\x01\x02\x03";
	static const char	 frag[] = "\x01\x82\x00\x00\x00\x00PI";
	struct wsfix		*f = *state;
	struct conn		*c;
	char			 msg[1024];
	long			 t0;
	int			 i;

	for (i = 0; i < 2; i++) {
		c = i == 0 ? &f->a : &f->b;
		assert_int_equal(wsc_open(c, f->srv.http_port), 0);
		wsc_skip_to(c, "WAIT ", msg, sizeof msg);
		t0 = harness_now_ms();
		if (i == 0)		/* a frame's first 5 bytes */
			conn_write(c, part, sizeof part - 1);
		else			/* "PI", a first fragment (no FIN) */
			conn_write(c, frag, sizeof frag - 1);
		wsc_skip_to(c, "ERR LINE_TIMEOUT ", msg, sizeof msg);
		assert_int_equal(wsc_close_code(c, 3000), 1000);
		assert_true(harness_now_ms() - t0 < 2500);
	}
}

/* The handshake, the greeting, PING as a line, and a ping frame. */
static void
test_ws_ping(void **state)
{
	struct wsfix	*f = *state;
	char		 msg[1024];
	int		 op;

	assert_int_equal(wsc_open(&f->a, f->srv.http_port), 0);
	assert_true(wsc_recv(&f->a, &op, msg, sizeof msg, HARNESS_TIMEOUT_MS)
	    > 0);
	assert_int_equal(op, WSC_TEXT);
	assert_string_equal(msg,
	    "HELLO tttd/1 Welcome to Tic Tac Toe, Ready for a game?");
	wsc_skip_to(&f->a, "WAIT ", NULL, 0);
	wsc_send(&f->a, "PING");
	assert_int_equal(wsc_event(&f->a, msg, sizeof msg, HARNESS_TIMEOUT_MS),
	    7);
	assert_string_equal(msg, "OK PONG");
	/* A ping frame: wslay's pong, with the same payload. */
	wsc_frame(&f->a, WSC_PING, "abc", 3, 1);
	assert_int_equal(wsc_recv(&f->a, &op, msg, sizeof msg,
	    HARNESS_TIMEOUT_MS), 3);
	assert_int_equal(op, WSC_PONG);
	assert_string_equal(msg, "abc");
	/* QUIT: BYE, then a close frame with 1000. */
	wsc_send(&f->a, "QUIT");
	wsc_skip_to(&f->a, "BYE ", NULL, 0);
	assert_int_equal(wsc_close_code(&f->a, HARNESS_TIMEOUT_MS), 1000);
}

/*
 * WS_FLOOD empty control frames of one opcode in one write: read what
 * comes back to the close frame; the number of pongs before it, the
 * close's code in *code and its reason in reason.
 */
static int
ws_flood(struct conn *c, int op, int *code, char *reason, size_t size)
{
	static uint8_t	 flood[WS_FLOOD * 6];
	char		 msg[128];	/* a control frame's 125 bytes */
	int		 i, n, got, pongs = 0;

	for (i = 0; i < WS_FLOOD; i++) {	/* masked by 0, no payload */
		memset(flood + i * 6, 0, 6);
		flood[i * 6] = (uint8_t)(0x80 | op);
		flood[i * 6 + 1] = 0x80;
	}
	(void)conn_write(c, flood, sizeof flood);
	*code = -1;
	for (i = 0; i <= WS_FLOOD; i++) {
		if ((n = wsc_recv(c, &got, msg, sizeof msg,
		    HARNESS_TIMEOUT_MS)) < 0)
			break;
		if (got == WSC_PONG)
			pongs++;
		else if (got == WSC_CLOSE && n >= 2) {
			*code = ((uint8_t)msg[0] << 8) | (uint8_t)msg[1];
			snprintf(reason, size, "%s", msg + 2);
			break;
		}
	}
	return (pongs);
}

/*
 * Control frames count in the rate limit: a flood of pings is answered
 * with no more pongs than the limit allows (its burst, and at most one
 * second of its rate) and then closed with 1008 and the reason; a flood of
 * unsolicited pongs, which have no answer, is closed the same way.
 */
static void
test_ws_control_flood(void **state)
{
	struct wsfix	*f = *state;
	char		 reason[256], log[16384];
	int		 code, pongs;

	assert_int_equal(wsc_open(&f->a, f->srv.http_port), 0);
	wsc_skip_to(&f->a, "WAIT ", NULL, 0);
	pongs = ws_flood(&f->a, WSC_PING, &code, reason, sizeof reason);
	assert_int_equal(code, 1008);
	assert_string_equal(reason, "Too many control frames.");
	assert_true(pongs >= WS_BURST);
	assert_true(pongs <= WS_BURST + WS_RATE);
	assert_true(conn_wait_closed(&f->a, 5000));

	assert_int_equal(wsc_open(&f->b, f->srv.http_port), 0);
	wsc_skip_to(&f->b, "WAIT ", NULL, 0);
	pongs = ws_flood(&f->b, WSC_PONG, &code, reason, sizeof reason);
	assert_int_equal(code, 1008);
	assert_string_equal(reason, "Too many control frames.");
	assert_int_equal(pongs, 0);
	assert_true(conn_wait_closed(&f->b, 5000));

	harness_log_wait(&f->srv, log, sizeof log, "too many control frames");
	assert_int_equal(harness_count(log, "sends too many control frames"),
	    2);
	assert_int_equal(ws_get(f, "/healthz"), 200);
}

/*
 * A message's first fragment, then a ping every 100 ms: each is answered,
 * but none ends the message's --line-timeout (0.3 s), which cuts it off
 * long before the pings stop, as an unfinished line on TCP.
 */
static void
test_ws_ping_keeps_no_fragment(void **state)
{
	static const char	 frag[] = "\x01\x82\x00\x00\x00\x00PI";
	struct wsfix		*f = *state;
	char			 msg[1024];
	int			 i, n, op, timedout = 0;

	assert_int_equal(wsc_open(&f->a, f->srv.http_port), 0);
	wsc_skip_to(&f->a, "WAIT ", msg, sizeof msg);
	conn_write(&f->a, frag, sizeof frag - 1);
	for (i = 0; i < 30 && !timedout; i++) {		/* 3 s of pings */
		(void)wsc_frame(&f->a, WSC_PING, "k", 1, 1);
		for (;;) {
			n = wsc_recv(&f->a, &op, msg, sizeof msg,
			    HARNESS_TIMEOUT_MS);
			assert_true(n >= 0);
			assert_int_not_equal(op, WSC_CLOSE);
			if (op == WSC_PONG)
				break;
			if (op == WSC_TEXT &&
			    strncmp(msg, "ERR LINE_TIMEOUT ", 17) == 0) {
				timedout = 1;
				break;
			}
		}
		usleep(100 * 1000);
	}
	if (!timedout)
		fail_msg("3 s of pings kept a first fragment open under "
		    "--line-timeout 0.3");
	assert_int_equal(wsc_close_code(&f->a, 3000), 1000);
}

/* Read to the next pong, over text messages but for an error. */
static void
ws_expect_pong(struct conn *c)
{
	char	msg[1024];
	int	op;

	for (;;) {
		assert_true(wsc_recv(c, &op, msg, sizeof msg,
		    HARNESS_TIMEOUT_MS) >= 0);
		if (op == WSC_PONG)
			return;
		if (op == WSC_TEXT && strncmp(msg, "ERR ", 4) == 0)
			fail_msg("a ping got \"%s\"", msg);
		assert_int_equal(op, WSC_TEXT);
	}
}

/*
 * Pings are not lines: a connection with no message begun that only
 * pings, for five times --line-timeout (0.3 s), is never cut off; nor is
 * one whose ping comes in two reads, or between the two fragments of a
 * message finished in time.
 */
static void
test_ws_pings_keep_alive(void **state)
{
	static const char	 ping[] = "\x89\x81\x00\x00\x00\x00k";
	static const char	 pi[] = "\x01\x82\x00\x00\x00\x00PI";
	static const char	 ng[] = "\x80\x82\x00\x00\x00\x00NG";
	struct wsfix		*f = *state;
	char			 msg[1024];
	int			 i;

	assert_int_equal(wsc_open(&f->a, f->srv.http_port), 0);
	wsc_skip_to(&f->a, "WAIT ", msg, sizeof msg);
	for (i = 0; i < 15; i++) {
		(void)wsc_frame(&f->a, WSC_PING, "k", 1, 1);
		ws_expect_pong(&f->a);
		usleep(100 * 1000);
	}
	/* A ping cut in two, finished within the limit. */
	conn_write(&f->a, ping, 3);
	usleep(100 * 1000);
	conn_write(&f->a, ping + 3, sizeof ping - 1 - 3);
	ws_expect_pong(&f->a);
	/* "PI", a ping, "NG": one line, PING, within the limit. */
	conn_write(&f->a, pi, sizeof pi - 1);
	(void)wsc_frame(&f->a, WSC_PING, "k", 1, 1);
	ws_expect_pong(&f->a);
	conn_write(&f->a, ng, sizeof ng - 1);
	assert_int_equal(wsc_event(&f->a, msg, sizeof msg,
	    HARNESS_TIMEOUT_MS), 7);
	assert_string_equal(msg, "OK PONG");
	/* Three times the limit with nothing begun: no LINE_TIMEOUT. */
	usleep(900 * 1000);
	wsc_send(&f->a, "PING");
	assert_int_equal(wsc_event(&f->a, msg, sizeof msg,
	    HARNESS_TIMEOUT_MS), 7);
	assert_string_equal(msg, "OK PONG");
}

/* A player, on TCP or on a WebSocket, for one game. */
struct player {
	struct conn	*c;
	int		 ws;
};

static void
p_send(struct player *p, const char *line)
{
	if (p->ws)
		wsc_send(p->c, line);
	else
		conn_send(p->c, line);
}

static void
p_skip_to(struct player *p, const char *prefix, char *out, size_t size)
{
	if (p->ws)
		wsc_skip_to(p->c, prefix, out, size);
	else
		expect_skip_to(p->c, prefix, out, size);
}

/*
 * A whole game between a TCP player and a WebSocket player: the same
 * queue, one match, and, midway, a WebSocket message over 256 bytes that
 * gets LINE_TOO_LONG while the game goes on.
 */
static void
test_ws_game_with_tcp(void **state)
{
	static const char	*moves[] = { "B1", "A1", "B2", "A2", "B3" };
	struct wsfix		*f = *state;
	struct player		 tcp = { &f->a, 0 }, ws = { &f->b, 1 }, *p[2];
	char			 line[1024], big[301];
	int			 i;

	assert_int_equal(conn_open(&f->a, f->srv.port), 0);
	conn_send(&f->a, "NAME alice");
	expect_skip_to(&f->a, "OK NAME", NULL, 0);
	assert_int_equal(wsc_open(&f->b, f->srv.http_port), 0);
	wsc_send(&f->b, "NAME bob");
	wsc_skip_to(&f->b, "OK NAME", NULL, 0);
	expect_skip_to(&f->a, "MATCH ", line, sizeof line);
	assert_non_null(strstr(line, " bob "));
	wsc_skip_to(&f->b, "MATCH ", line, sizeof line);
	assert_non_null(strstr(line, " alice "));

	p_skip_to(&tcp, "TURN ", line, sizeof line);
	p[0] = strstr(line, "Enter your move") != NULL ? &tcp : &ws;
	p[1] = p[0] == &tcp ? &ws : &tcp;
	for (i = 0; i < 5; i++) {
		if (i == 1) {
			/* Over the line limit: never executed. */
			memset(big, 'x', sizeof big - 1);
			big[sizeof big - 1] = '\0';
			memcpy(big, "SAY ", 4);
			wsc_send(&f->b, big);
			wsc_skip_to(&f->b, "ERR LINE_TOO_LONG ", NULL, 0);
		}
		p_send(p[i % 2], moves[i]);
		p_skip_to(p[i % 2], "OK MOVE", NULL, 0);
	}
	p_skip_to(p[0], "RESULT WIN ", NULL, 0);
	p_skip_to(p[1], "RESULT WIN ", NULL, 0);
	p_skip_to(p[0], "AGAIN? ", NULL, 0);
	p_skip_to(p[1], "AGAIN? ", NULL, 0);
	assert_int_equal(ws_stat(&f->a, "games_finished"), 1);
}

/* Send a frame, expect a close frame with the code, then the end. */
static void
ws_refused(struct wsfix *f, int op, const void *payload, size_t len,
    int mask, int code)
{
	assert_int_equal(wsc_open(&f->a, f->srv.http_port), 0);
	wsc_skip_to(&f->a, "WAIT ", NULL, 0);
	wsc_frame(&f->a, op, payload, len, mask);
	assert_int_equal(wsc_close_code(&f->a, HARNESS_TIMEOUT_MS), code);
	assert_true(conn_wait_closed(&f->a, 5000));
	conn_close(&f->a);
	f->a.fd = -1;
}

/*
 * Bad frames: unmasked (1002), a control frame over 125 bytes (1002),
 * a text frame not in UTF-8 (1007), binary (1003), a message over 4 KiB
 * (1009).  The server goes on serving.
 */
static void
test_ws_bad_frames(void **state)
{
	struct wsfix	*f = *state;
	static char	 big[5000];

	ws_refused(f, WSC_TEXT, "PING", 4, 0, 1002);
	memset(big, 'p', sizeof big);
	ws_refused(f, WSC_PING, big, 126, 1, 1002);
	ws_refused(f, WSC_TEXT, "SAY \xc3\x28", 6, 1, 1007);
	ws_refused(f, WSC_BINARY, "PING", 4, 1, 1003);
	memset(big, 'a', sizeof big);
	ws_refused(f, WSC_TEXT, big, sizeof big, 1, 1009);
	assert_int_equal(ws_get(f, "/healthz"), 200);
}

/*
 * The message bound is 4,096 bytes exactly: a message of 4,096 is a line
 * too long (ERR LINE_TOO_LONG, and the player goes on: PING), one of
 * 4,097 is closed with 1009.
 */
static void
test_ws_message_bound(void **state)
{
	struct wsfix	*f = *state;
	static char	 big[4097];
	char		 msg[1024];

	memset(big, 'a', sizeof big);
	assert_int_equal(wsc_open(&f->a, f->srv.http_port), 0);
	wsc_skip_to(&f->a, "WAIT ", NULL, 0);
	wsc_frame(&f->a, WSC_TEXT, big, 4096, 1);
	assert_true(wsc_event(&f->a, msg, sizeof msg, HARNESS_TIMEOUT_MS) > 0);
	assert_string_equal(msg,
	    "ERR LINE_TOO_LONG Lines are limited to 256 bytes.");
	wsc_send(&f->a, "PING");
	assert_int_equal(wsc_event(&f->a, msg, sizeof msg, HARNESS_TIMEOUT_MS),
	    7);
	assert_string_equal(msg, "OK PONG");
	conn_close(&f->a);
	f->a.fd = -1;
	ws_refused(f, WSC_TEXT, big, 4097, 1, 1009);
	assert_int_equal(ws_get(f, "/healthz"), 200);
}

/*
 * --max-per-addr 2 counts TCP and WebSocket players together: a TCP and a
 * WebSocket player fill it; a third WebSocket is refused (503), and so is
 * a third TCP player.
 */
static void
test_ws_per_addr(void **state)
{
	struct wsfix	*f = *state;
	char		 line[256];

	assert_int_equal(conn_open(&f->a, f->srv.port), 0);
	expect_skip_to(&f->a, "WAIT ", NULL, 0);
	assert_int_equal(wsc_open(&f->b, f->srv.http_port), 0);
	wsc_skip_to(&f->b, "WAIT ", NULL, 0);
	assert_int_equal(ws_get(f, "/healthz"), 503);
	assert_int_equal(conn_open(&f->c, f->srv.http_port), 0);
	assert_int_equal(wsc_handshake(&f->c), -1);
	conn_close(&f->c);
	assert_int_equal(conn_open(&f->c, f->srv.port), 0);
	assert_true(conn_line(&f->c, line, sizeof line, HARNESS_TIMEOUT_MS) >
	    0);
	assert_memory_equal(line, "ERR TOO_MANY_CONNECTIONS", 24);
	conn_close(&f->c);
	f->c.fd = -1;
	/* The WebSocket gone, a TCP player fits again. */
	wsc_send(&f->b, "QUIT");
	assert_int_equal(wsc_close_code(&f->b, HARNESS_TIMEOUT_MS), 1000);
	conn_close(&f->b);
	f->b.fd = -1;
	usleep(200 * 1000);
	assert_int_equal(conn_open(&f->c, f->srv.port), 0);
	expect_skip_to(&f->c, "HELLO ", NULL, 0);
}

/*
 * --max-output holds for a WebSocket: one that sends HELP after HELP and
 * reads nothing is closed for not reading, and the server goes on.
 */
static void
test_ws_non_reader_is_dropped(void **state)
{
	static const uint8_t	frame[] = {	/* "HELP", masked by 0 */
		0x81, 0x84, 0, 0, 0, 0, 'H', 'E', 'L', 'P'
	};
	struct wsfix		*f = *state;
	static uint8_t		 chunk[1000 * sizeof frame];
	char			 log[16384];
	long			 deadline;
	size_t			 sent = 0, i;

	assert_int_equal(wsc_open(&f->a, f->srv.http_port), 0);
	for (i = 0; i < 1000; i++)
		memcpy(chunk + i * sizeof frame, frame, sizeof frame);
	deadline = harness_now_ms() + HARNESS_TIMEOUT_MS;
	while (sent < 4 * 1000 * 1000 && harness_now_ms() < deadline) {
		ssize_t	w = send(f->a.fd, chunk, sizeof chunk,
			    MSG_DONTWAIT | MSG_NOSIGNAL);

		if (w > 0)
			sent += (size_t)w;
		else if (w == -1 && errno != EAGAIN && errno != EWOULDBLOCK)
			break;		/* the server has closed */
		else
			usleep(1000);
	}
	harness_log_wait(&f->srv, log, sizeof log, "is not reading");
	if (strstr(log, "is not reading") == NULL)
		fail_msg("the output cap did not fire:\n%s", log);
	assert_int_equal(ws_get(f, "/healthz"), 200);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test_setup_teardown(test_ws_http_page, ws_setup,
		    ws_teardown),
		cmocka_unit_test_setup_teardown(test_ws_http_favicon, ws_setup,
		    ws_teardown),
		cmocka_unit_test_setup_teardown(test_ws_http_healthz, ws_setup,
		    ws_teardown),
		cmocka_unit_test_setup_teardown(test_ws_http_metrics_promtool,
		    ws_setup, ws_teardown),
		cmocka_unit_test_setup_teardown(test_ws_http_metrics, ws_setup,
		    ws_teardown),
		cmocka_unit_test_setup_teardown(test_ws_http_errors, ws_setup,
		    ws_teardown),
		cmocka_unit_test_setup_teardown(test_ws_http_slow,
		    ws_setup_slow, ws_teardown),
		cmocka_unit_test_setup_teardown(test_ws_http_no_line_limit,
		    ws_setup_noline, ws_teardown),
		cmocka_unit_test_setup_teardown(test_ws_slow_message,
		    ws_setup_slow, ws_teardown),
		cmocka_unit_test_setup_teardown(test_ws_ping, ws_setup,
		    ws_teardown),
		cmocka_unit_test_setup_teardown(test_ws_control_flood,
		    ws_setup_rate, ws_teardown),
		cmocka_unit_test_setup_teardown(test_ws_ping_keeps_no_fragment,
		    ws_setup_slow, ws_teardown),
		cmocka_unit_test_setup_teardown(test_ws_pings_keep_alive,
		    ws_setup_slow, ws_teardown),
		cmocka_unit_test_setup_teardown(test_ws_game_with_tcp,
		    ws_setup, ws_teardown),
		cmocka_unit_test_setup_teardown(test_ws_bad_frames, ws_setup,
		    ws_teardown),
		cmocka_unit_test_setup_teardown(test_ws_message_bound, ws_setup,
		    ws_teardown),
		cmocka_unit_test_setup_teardown(test_ws_per_addr, ws_setup_cap,
		    ws_teardown),
		cmocka_unit_test_setup_teardown(test_ws_non_reader_is_dropped,
		    ws_setup_norate, ws_teardown),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
