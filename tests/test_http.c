/*
 * test_http.c -- the HTTP side without sockets (server/http.c): the
 * WebSocket handshake's accept key against RFC 6455's own example, the
 * request parser's answers and bounds, and the handshake's header checks:
 * Upgrade and Connection token lists matched as whole tokens, header
 * values kept up to 256 bytes.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <event2/buffer.h>

#include "http.h"

#define WS_KEY		"dGhlIHNhbXBsZSBub25jZQ=="
#define WS_VALUE_MAX	256	/* http.c's HTTP_VALUE_MAX */

/* RFC 6455, section 1.3: the example key and its accept value. */
static void
test_http_ws_accept_rfc6455(void **state)
{
	static const char	key[] = "dGhlIHNhbXBsZSBub25jZQ==";
	char			out[HTTP_WS_ACCEPT_LEN + 1];

	(void)state;
	assert_int_equal(http_ws_accept(key, strlen(key), out), 0);
	assert_string_equal(out, "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
}

/* A key that is no base64 of 16 bytes is refused (the handshake: 400). */
static void
test_http_ws_accept_bad_keys(void **state)
{
	static const char *const	bad[] = {
		"", "dGhlIHNhbXBsZSBub25jZQ=", "dGhlIHNhbXBsZSBub25jZQ==x",
		"dGhlIHNhbXBsZSBub25j!Q==", "dGhlIHNhbXBsZSBub25jZWVl",
	};
	char				out[HTTP_WS_ACCEPT_LEN + 1];
	size_t				i;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
		assert_int_equal(http_ws_accept(bad[i], strlen(bad[i]), out),
		    -1);
}

/* Feed a request in pieces of n bytes: the state at the end. */
static enum http_state
feed(struct http_req *r, const char *req, size_t n)
{
	enum http_state	st = HTTP_MORE;
	size_t		off = 0, len = strlen(req), used;

	while (off < len && st == HTTP_MORE) {
		size_t	k = len - off < n ? len - off : n;

		st = http_req_feed(r, req + off, k, &used);
		off += k;
	}
	return (st);
}

/* A GET is whole at its empty line, in one piece or byte by byte. */
static void
test_http_req_whole(void **state)
{
	static const char	req[] = "GET /healthz?x=1 HTTP/1.1\r\n"
				    "Host: a\r\n\r\n";
	struct http_req		*r;
	size_t			 n;

	(void)state;
	for (n = 1; n <= sizeof req; n += sizeof req - 2) {
		assert_non_null(r = http_req_new());
		assert_int_equal(feed(r, "GET /healthz?x=1 HTTP/1.1\r\n", n),
		    HTTP_MORE);
		assert_int_equal(feed(r, "Host: a\r\n\r\n", n), HTTP_DONE);
		assert_string_equal(http_req_path(r), "/healthz");
		http_req_free(r);
	}
	assert_non_null(r = http_req_new());
	assert_int_equal(feed(r, req, sizeof req), HTTP_DONE);
	http_req_free(r);
}

/*
 * A path under /api/ is the JSON API's: http_respond writes nothing and
 * says so (HTTP_API), its path and query kept apart, whole or fed byte
 * by byte; a query over 128 bytes is 404 as a path too long is.
 */
static void
test_http_api_routed(void **state)
{
	static const char	req[] = "GET /api/player/%C3%A9lo/games?n=5&x=1 "
				    "HTTP/1.1\r\nHost: a\r\n\r\n";
	struct http_req		*r;
	struct evbuffer		*out;
	char			 big[512];
	size_t			 n;

	(void)state;
	assert_non_null(out = evbuffer_new());
	for (n = 1; n <= sizeof req; n += sizeof req - 1) {
		assert_non_null(r = http_req_new());
		assert_int_equal(feed(r, req, n), HTTP_DONE);
		assert_string_equal(http_req_path(r),
		    "/api/player/%C3%A9lo/games");
		assert_string_equal(http_req_query(r), "n=5&x=1");
		assert_int_equal(http_respond(r, NULL, out), HTTP_API);
		assert_int_equal(evbuffer_get_length(out), 0);
		http_req_free(r);
	}
	assert_non_null(r = http_req_new());
	assert_int_equal(feed(r, "GET /api/top HTTP/1.1\r\n\r\n", 1),
	    HTTP_DONE);
	assert_string_equal(http_req_query(r), "");
	http_req_free(r);
	snprintf(big, sizeof big, "GET /api/top?n=1&%0129d HTTP/1.1\r\n\r\n",
	    7);
	assert_non_null(r = http_req_new());
	assert_int_equal(feed(r, big, 7), HTTP_DONE);
	assert_int_equal(http_respond(r, NULL, out), HTTP_CLOSE);
	assert_int_equal(evbuffer_copyout(out, big, 12), 12);
	assert_memory_equal(big, "HTTP/1.1 404", 12);
	http_req_free(r);
	evbuffer_free(out);
}

/*
 * A JSON API's response: its status, JSON in UTF-8, never cached, open
 * to any site's scripts, the connection closed, the body as given.
 */
static void
test_http_json_head(void **state)
{
	static const char	want[] = "HTTP/1.1 404 Not Found\r\n"
				    "Content-Type: application/json; "
				    "charset=utf-8\r\n"
				    "Content-Length: 3\r\n"
				    "Cache-Control: no-store\r\n"
				    "Access-Control-Allow-Origin: *\r\n"
				    "Connection: close\r\n\r\n{}\n";
	struct evbuffer		*out;

	(void)state;
	assert_non_null(out = evbuffer_new());
	http_json(out, 404, "{}\n", 3);
	assert_int_equal(evbuffer_get_length(out), sizeof want - 1);
	assert_memory_equal(evbuffer_pullup(out, -1), want, sizeof want - 1);
	evbuffer_free(out);
}

/* Headers over HTTP_HEADERS_MAX: 431; not HTTP at all: 400. */
static void
test_http_req_bounds(void **state)
{
	struct http_req	*r;
	char		 big[HTTP_HEADERS_MAX + 64];

	(void)state;
	memset(big, 'a', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	memcpy(big, "GET / HTTP/1.1\r\nX-Big: ", 23);
	assert_non_null(r = http_req_new());
	assert_int_equal(feed(r, big, 1000), HTTP_TOO_BIG);
	http_req_free(r);

	assert_non_null(r = http_req_new());
	assert_int_equal(feed(r, "HELLO there\r\n\r\n", 100), HTTP_BAD);
	http_req_free(r);
}

/*
 * A GET /ws with these Upgrade and Connection values (a good version
 * before them, a good key after), fed in pieces of n bytes and answered: the status code sent (101
 * comes with an upgrade, any other with a close).
 */
static int
ws_code(const char *upgrade, const char *connection, size_t n)
{
	struct http_req	*r;
	struct evbuffer	*out;
	char		 req[2048], head[13];
	int		 len, code;
	enum http_next	 next;

	len = snprintf(req, sizeof req, "GET /ws HTTP/1.1\r\nHost: t\r\n"
	    "Sec-WebSocket-Version: 13\r\nUpgrade: %s\r\nConnection: %s\r\n"
	    "Sec-WebSocket-Key: " WS_KEY "\r\n\r\n", upgrade, connection);
	assert_true(len > 0 && (size_t)len < sizeof req);
	assert_non_null(r = http_req_new());
	assert_non_null(out = evbuffer_new());
	assert_int_equal(feed(r, req, n), HTTP_DONE);
	next = http_respond(r, NULL, out);
	assert_int_equal(evbuffer_copyout(out, head, 12), 12);
	head[12] = '\0';
	evbuffer_free(out);
	http_req_free(r);
	assert_memory_equal(head, "HTTP/1.1 ", 9);
	code = atoi(head + 9);
	assert_int_equal(next == HTTP_UPGRADE, code == 101);
	return (code);
}

/*
 * Upgrade and Connection are lists of tokens, matched whole and in any
 * case: websocket and upgrade among others are taken; a token that only
 * begins with them (websockets, upgraded) or holds them is refused (400).
 */
static void
test_http_ws_tokens(void **state)
{
	static const struct {
		const char	*upgrade, *connection;
		int		 code;
	} t[] = {
		{ "websocket", "Upgrade", 101 },
		{ "WebSocket", "upgrade", 101 },
		{ "websocket", "keep-alive, Upgrade", 101 },
		{ "websocket", "keep-alive,Upgrade", 101 },
		{ "websocket", "Upgrade, keep-alive", 101 },
		{ "h2c, websocket", "Upgrade", 101 },
		{ "websocket , h2c", "Upgrade", 101 },
		{ "websockets", "Upgrade", 400 },
		{ "websocket2", "Upgrade", 400 },
		{ "xwebsocket", "Upgrade", 400 },
		{ "web socket", "Upgrade", 400 },
		{ "h2c", "Upgrade", 400 },
		{ "websocket", "upgraded", 400 },
		{ "websocket", "keep-alive, upgraded", 400 },
		{ "websocket", "keep-alive", 400 },
		{ "websocket", "Upgrade-Insecure", 400 },
		{ "websocket", "x-upgrade", 400 },
	};
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		if (ws_code(t[i].upgrade, t[i].connection, 4096) != t[i].code)
			fail_msg("Upgrade: %s, Connection: %s: not %d",
			    t[i].upgrade, t[i].connection, t[i].code);
		if (ws_code(t[i].upgrade, t[i].connection, 1) != t[i].code)
			fail_msg("byte by byte: Upgrade: %s, Connection: %s: "
			    "not %d", t[i].upgrade, t[i].connection, t[i].code);
	}
}

/* A value of len bytes: "x,x,...", then ", " and the token at its end. */
static void
ws_padded(char *buf, size_t len, const char *token)
{
	size_t	n = strlen(token), i;

	assert_true(len >= n + 3);
	for (i = 0; i < len - n; i++)		/* ... ,x, token */
		buf[i] = (len - n - i) % 2 == 0 ? ',' : 'x';
	buf[len - n - 1] = ' ';
	memcpy(buf + len - n, token, n + 1);
}

/*
 * A header value is kept up to 256 bytes: a token that ends at the 256th
 * byte counts, one that ends at the 257th is cut and does not, whether
 * the value comes whole or byte by byte, and whatever header follows.
 */
static void
test_http_ws_value_bound(void **state)
{
	char	val[WS_VALUE_MAX + 16];
	size_t	n;

	(void)state;
	for (n = 1; n <= 4096; n += 4095) {
		ws_padded(val, WS_VALUE_MAX, "Upgrade");
		assert_int_equal(ws_code("websocket", val, n), 101);
		ws_padded(val, WS_VALUE_MAX + 1, "Upgrade");
		assert_int_equal(ws_code("websocket", val, n), 400);
		ws_padded(val, WS_VALUE_MAX - 1, "Upgrade");
		assert_int_equal(ws_code("websocket", val, n), 101);
		ws_padded(val, WS_VALUE_MAX, "websocket");
		assert_int_equal(ws_code(val, "Upgrade", n), 101);
		ws_padded(val, WS_VALUE_MAX + 1, "websocket");
		assert_int_equal(ws_code(val, "Upgrade", n), 400);
		ws_padded(val, WS_VALUE_MAX + 7, "websocket");
		assert_int_equal(ws_code(val, "Upgrade", n), 400);
		/*
		 * What is cut is not kept anywhere: the token whole in the
		 * first 256 bytes, a 257th (or more) spoils no header read
		 * before (Sec-WebSocket-Version comes first).
		 */
		ws_padded(val, WS_VALUE_MAX, "Upgrade");
		memcpy(val + WS_VALUE_MAX, ",", 2);
		assert_int_equal(ws_code("websocket", val, n), 101);
		memcpy(val + WS_VALUE_MAX, ",,,,,,,", 8);
		assert_int_equal(ws_code("websocket", val, n), 101);
	}
}

/*
 * A WebSocket handshake with a body is refused (400): where the socket's
 * bytes begin (after the headers, or after the body) would depend on how
 * the bytes came.  Without one (Content-Length: 0 too) it is whole at its
 * empty line, and the bytes after it are the socket's, however they come.
 */
static void
test_http_upgrade_with_body_refused(void **state)
{
	static const char	head[] = "GET /ws HTTP/1.1\r\nHost: a\r\n"
				    "Upgrade: websocket\r\nConnection: Upgrade\r\n"
				    "Sec-WebSocket-Version: 13\r\n"
				    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n";
	static const char *const body[] = {
		"Content-Length: 3\r\n\r\nabc\x81\x80",
		"Transfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
	};
	struct http_req	*r;
	char		 req[512];
	size_t		 i, n, off, len, used, total;
	enum http_state	 st;

	(void)state;
	for (i = 0; i < sizeof body / sizeof body[0]; i++) {
		snprintf(req, sizeof req, "%s%s", head, body[i]);
		for (n = 1; n <= strlen(req); n += strlen(req) - 1) {
			assert_non_null(r = http_req_new());
			assert_int_equal(feed(r, req, n), HTTP_BAD);
			http_req_free(r);
		}
	}
	/* No body: the socket begins after the empty line, in any reads. */
	snprintf(req, sizeof req, "%sContent-Length: 0\r\n\r\n\x81\x80", head);
	len = strlen(req);
	for (n = 1; n <= len; n++) {
		assert_non_null(r = http_req_new());
		st = HTTP_MORE;
		for (off = total = 0; off < len && st == HTTP_MORE; off += n) {
			st = http_req_feed(r, req + off, len - off < n ?
			    len - off : n, &used);
			total += used;
		}
		assert_int_equal(st, HTTP_DONE);
		assert_int_equal(total, len - 2);
		http_req_free(r);
	}
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_http_ws_accept_rfc6455),
		cmocka_unit_test(test_http_ws_accept_bad_keys),
		cmocka_unit_test(test_http_req_whole),
		cmocka_unit_test(test_http_req_bounds),
		cmocka_unit_test(test_http_api_routed),
		cmocka_unit_test(test_http_json_head),
		cmocka_unit_test(test_http_ws_tokens),
		cmocka_unit_test(test_http_ws_value_bound),
		cmocka_unit_test(test_http_upgrade_with_body_refused),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
