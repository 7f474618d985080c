/*
 * test_http.c -- the HTTP side without sockets (server/http.c): the
 * WebSocket handshake's accept key against RFC 6455's own example, and
 * the request parser's answers and bounds.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "http.h"

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
		cmocka_unit_test(test_http_upgrade_with_body_refused),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
