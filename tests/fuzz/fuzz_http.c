/*
 * fuzz_http.c -- libFuzzer harness for the first bytes a stranger sends
 * to --http-port (server/http.c on http-parser), and what follows the
 * headers of a WebSocket handshake, handed to server/ws.c as
 * server-web.c hands it.
 *
 * Input: a byte whose low six bits are the size of the reads (1 to 64),
 * then the bytes.  The request is fed whole to one parser and in reads
 * to another: both must end the same (state, bytes taken, response).
 * Every response is a status line we send, headers, a blank line and as
 * many body bytes as Content-Length says; a 101 comes only for GET /ws.
 * After a 101 the rest goes to a WebSocket in the same reads: each text
 * message is valid UTF-8 and at most WS_MESSAGE_MAX bytes.
 */
#define _GNU_SOURCE		/* memmem */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>

#include "fuzz.h"
#include "http.h"
#include "json.h"
#include "lobby.h"
#include "utf8.h"
#include "ws.h"

int		LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static int64_t	fuzz_now(void);
static void	fuzz_random(void *, size_t);
static void	fuzz_wake(struct lobby *);
static int	fuzz_status(struct evbuffer *);
static enum http_state fuzz_feed(struct http_req *, const uint8_t *, size_t,
		    size_t, size_t *);
static void	fuzz_ws_write(void *, const char *, size_t);
static void	fuzz_ws_message(void *, const char *, size_t);
static int	fuzz_ws_control(void *);

static const struct lobby_host fuzz_ops = {
	fuzz_now, fuzz_random, fuzz_wake
};
static struct lobby	fuzz_lobby;
static int		fuzz_lobby_up;

/* The clock: still. */
static int64_t
fuzz_now(void)
{
	return (1000000);
}

/* Random bytes: none needed, zeros. */
static void
fuzz_random(void *buf, size_t len)
{
	memset(buf, 0, len);
}

/* The lobby's deadline: nothing to do. */
static void
fuzz_wake(struct lobby *lobby)
{
	(void)lobby;
}

/*
 * A response as we send it: "HTTP/1.1 <status> <reason>", headers, a
 * blank line, the body Content-Length says.  Its status.
 */
static int
fuzz_status(struct evbuffer *out)
{
	size_t		 len = evbuffer_get_length(out);
	char		*p, *end, *cl;
	int		 status;
	long		 body;

	CHECK(len > 12);
	p = (char *)evbuffer_pullup(out, -1);
	CHECK(memcmp(p, "HTTP/1.1 ", 9) == 0);
	status = atoi(p + 9);
	CHECK(status == 101 || status == 200 || status == 400 ||
	    status == 404 || status == 405 || status == 431);
	CHECK((end = memmem(p, len, "\r\n\r\n", 4)) != NULL);
	end += 4;
	if ((cl = memmem(p, (size_t)(end - p), "Content-Length: ", 16)) !=
	    NULL) {
		body = strtol(cl + 16, NULL, 10);
		CHECK(body == (long)(len - (size_t)(end - p)));
	} else
		CHECK(end == p + len);
	return (status);
}

/* Feed bytes to a request in reads of step bytes, as the daemon reads. */
static enum http_state
fuzz_feed(struct http_req *r, const uint8_t *p, size_t len, size_t step,
    size_t *used)
{
	enum http_state	st = HTTP_MORE;
	size_t		n, u;

	*used = 0;
	while (len > 0) {
		n = len < step ? len : step;
		st = http_req_feed(r, (const char *)p, n, &u);
		CHECK(u <= n);
		*used += u;
		if (st != HTTP_MORE)
			break;
		CHECK(u == n);		/* more: all of it was the request's */
		p += n;
		len -= n;
	}
	return (st);
}

/* What the WebSocket writes: frames, never nothing. */
static void
fuzz_ws_write(void *arg, const char *buf, size_t len)
{
	(void)arg;
	CHECK(buf != NULL && len > 0);
}

/* A text message: one line for the game, valid UTF-8, bounded. */
static void
fuzz_ws_message(void *arg, const char *buf, size_t len)
{
	uint32_t	cp;
	size_t		i, n;

	(*(unsigned long *)arg)++;
	CHECK(len <= WS_MESSAGE_MAX);
	for (i = 0; i < len; i += n) {
		if ((unsigned char)buf[i] < 0x80) {
			n = 1;
			continue;
		}
		CHECK((n = utf8_decode(buf + i, len - i, &cp)) > 0);
	}
}

/* Control frames: allowed (the rate is the caller's). */
static int
fuzz_ws_control(void *arg)
{
	(void)arg;
	return (0);
}

/* One stranger: a request whole and in reads, the same; then its WebSocket. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct http_req		*whole, *parts;
	struct evbuffer		*out1, *out2;
	struct ws		*ws;
	enum http_state		 st1, st2;
	enum http_next		 next1, next2;
	unsigned long		 messages = 0;
	size_t			 step, used1, used2, n;
	int			 status;

	if (size < 1)
		return (0);
	if (!fuzz_lobby_up) {
		struct lobby_limits	limits;

		lobby_default_limits(&limits);
		if (lobby_init(&fuzz_lobby, &fuzz_ops, &limits, 1) == -1)
			abort();
		fuzz_lobby_up = 1;
	}
	step = 1 + (data[0] & 63);
	data++;
	size--;
	if ((whole = http_req_new()) == NULL ||
	    (parts = http_req_new()) == NULL ||
	    (out1 = evbuffer_new()) == NULL || (out2 = evbuffer_new()) == NULL)
		abort();
	st1 = fuzz_feed(whole, data, size, size > 0 ? size : 1, &used1);
	st2 = fuzz_feed(parts, data, size, step, &used2);
	CHECK(st1 == st2);
	if (st1 == HTTP_DONE) {
		CHECK(used1 == used2);
		/* (A path over HTTP_PATH_MAX is kept in part: only 404.) */
		CHECK(http_req_path(whole) != NULL &&
		    http_req_path(parts) != NULL);
		next1 = http_respond(whole, &fuzz_lobby, out1);
		next2 = http_respond(parts, &fuzz_lobby, out2);
		CHECK(next1 == next2);
		CHECK(evbuffer_get_length(out1) == evbuffer_get_length(out2));
		CHECK(evbuffer_get_length(out1) == 0 ||	/* HTTP_API */
		    memcmp(evbuffer_pullup(out1, -1), evbuffer_pullup(out2,
		    -1), evbuffer_get_length(out1)) == 0);
		if (next1 == HTTP_API) {
			/* api.c answers: here nothing; its path read. */
			struct json_req	req;

			CHECK(evbuffer_get_length(out1) == 0);
			CHECK(strcmp(http_req_query(whole),
			    http_req_query(parts)) == 0);
			CHECK(strncmp(http_req_path(whole), JSON_PREFIX,
			    sizeof JSON_PREFIX - 1) == 0);
			if (json_parse(http_req_path(whole),
			    http_req_query(whole), &req) == PROTO_OK &&
			    req.route != JSON_NONE && req.route != JSON_PLAYER)
				CHECK(req.n >= 1 && req.n <= PROTO_LIST_MAX);
			goto done;
		}
		status = fuzz_status(out1);
		CHECK((status == 101) == (next1 == HTTP_UPGRADE));
		if (next1 == HTTP_UPGRADE) {
			CHECK(strcmp(http_req_path(whole), "/ws") == 0);
			if ((ws = ws_new(fuzz_ws_write, fuzz_ws_message,
			    fuzz_ws_control, &messages)) == NULL)
				abort();
			/* The bytes after the headers: the WebSocket's. */
			data += used1;
			size -= used1;
			while (size > 0) {
				n = size < step ? size : step;
				if (ws_recv(ws, (const char *)data, n) == -1)
					break;
				data += n;
				size -= n;
			}
			/* Those after a close are counted, not handed up. */
			CHECK(messages <= ws_messages(ws));
			ws_free(ws);
		}
	} else if (st1 == HTTP_BAD || st1 == HTTP_TOO_BIG) {
		http_status(out1, st1 == HTTP_BAD ? 400 : 431);
		CHECK(fuzz_status(out1) == (st1 == HTTP_BAD ? 400 : 431));
	}
done:
	evbuffer_free(out1);
	evbuffer_free(out2);
	http_req_free(whole);
	http_req_free(parts);
	return (0);
}
