/*
 * http.c -- one HTTP/1.1 request, parsed by http-parser (nodejs
 * http-parser 2.9, Debian's libhttp-parser-dev), and its answer.
 *
 * Why http-parser and not libevent's evhttp: evhttp in libevent 2.1 owns
 * its connections (a bufferevent of its own, its own limits and timeouts)
 * and cannot hand one over to a WebSocket after the handshake; http-parser
 * is a parser only, so the connection stays tttd's: counted against
 * --max-clients and --max-per-addr, cut off by --line-timeout, and the
 * same connection goes on as a WebSocket after GET /ws.
 *
 * One request per connection: the answer says "Connection: close" and
 * the connection closes once it is written (no keep-alive; a browser
 * opens another for its next request).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <http_parser.h>
#include <nettle/base64.h>
#include <nettle/sha1.h>

#include "counters.h"
#include "http.h"
#include "page.h"

#define HTTP_PATH_MAX		256	/* longer paths are 404 anyway */
#define HTTP_QUERY_MAX		128	/* and so are longer queries */
#define HTTP_FIELD_MAX		32	/* the names of the headers we read */
#define HTTP_VALUE_MAX		256	/* and their values */

/* The headers a WebSocket handshake needs, as they came. */
enum http_header {
	HTTP_H_NONE = 0,
	HTTP_H_UPGRADE,
	HTTP_H_CONNECTION,
	HTTP_H_WS_VERSION,
	HTTP_H_WS_KEY,
	HTTP_H_COUNT
};

struct http_req {
	http_parser		 parser;
	size_t			 head;		/* bytes parsed: the request
						   line and headers */
	int			 headers_done;
	int			 done;
	int			 bad;		/* refused as it stands: 400 */
	char			 path[HTTP_PATH_MAX + 1];
	size_t			 path_len;
	int			 path_long;	/* over HTTP_PATH_MAX, or its
						   query over HTTP_QUERY_MAX */
	int			 query;		/* the '?' has come */
	char			 args[HTTP_QUERY_MAX + 1];	/* after it */
	size_t			 args_len;
	char			 field[HTTP_FIELD_MAX + 1];
	size_t			 field_len;
	int			 in_value;
	enum http_header	 which;		/* the header being read */
	char			 value[HTTP_H_COUNT][HTTP_VALUE_MAX + 1];
	size_t			 value_len[HTTP_H_COUNT];
};

static int	http_on_url(http_parser *, const char *, size_t);
static int	http_keep(char *, size_t *, size_t, const char *, size_t);
static int	http_on_field(http_parser *, const char *, size_t);
static int	http_on_value(http_parser *, const char *, size_t);
static int	http_on_headers(http_parser *);
static int	http_on_complete(http_parser *);
static void	http_field_end(struct http_req *);
static int	http_has_token(const char *, const char *);
static const char *http_reason(int);
static void	http_reply(struct evbuffer *, int, const char *,
		    const char *, const void *, size_t);
static void	http_metrics(const struct lobby *, struct evbuffer *);
static enum http_next http_upgrade(struct http_req *, struct evbuffer *);

static const http_parser_settings http_settings = {
	.on_url = http_on_url,
	.on_header_field = http_on_field,
	.on_header_value = http_on_value,
	.on_headers_complete = http_on_headers,
	.on_message_complete = http_on_complete,
};

/* The GUID of RFC 6455, section 1.3. */
static const char http_ws_guid[] = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

/* A new request, before its first byte. */
struct http_req *
http_req_new(void)
{
	struct http_req	*r;

	if ((r = calloc(1, sizeof *r)) == NULL)
		return (NULL);
	http_parser_init(&r->parser, HTTP_REQUEST);
	r->parser.data = r;
	return (r);
}

void
http_req_free(struct http_req *r)
{
	free(r);
}

/* Bytes onto a bounded string: 0, or -1 when they do not fit. */
static int
http_keep(char *buf, size_t *len, size_t max, const char *at, size_t n)
{
	if (n > max - *len)
		return (-1);
	memcpy(buf + *len, at, n);
	*len += n;
	buf[*len] = '\0';
	return (0);
}

/* Part of the request target: its path, then its query, are kept. */
static int
http_on_url(http_parser *p, const char *at, size_t len)
{
	struct http_req	*r = p->data;
	const char	*q;
	size_t		 n = len;

	if (r->path_long)
		return (0);
	if (!r->query) {
		if ((q = memchr(at, '?', len)) != NULL)
			n = (size_t)(q - at);
		if (http_keep(r->path, &r->path_len, HTTP_PATH_MAX, at,
		    n) == -1) {
			r->path_long = 1;
			return (0);
		}
		if (q == NULL)
			return (0);
		r->query = 1;
		at = q + 1;
		n = len - n - 1;
	}
	if (http_keep(r->args, &r->args_len, HTTP_QUERY_MAX, at, n) == -1)
		r->path_long = 1;
	return (0);
}

/* A header's name is complete: is it one we read? */
static void
http_field_end(struct http_req *r)
{
	static const char *const	names[HTTP_H_COUNT] = {
		NULL, "upgrade", "connection", "sec-websocket-version",
		"sec-websocket-key"
	};
	int				i;

	r->which = HTTP_H_NONE;
	for (i = 1; i < HTTP_H_COUNT; i++)
		if (strcmp(r->field, names[i]) == 0)
			r->which = (enum http_header)i;
	if (r->which != HTTP_H_NONE)
		r->value_len[r->which] = 0;	/* the last one counts */
	r->field_len = 0;
}

/* Part of a header's name, kept in lower case (up to a length). */
static int
http_on_field(http_parser *p, const char *at, size_t len)
{
	struct http_req	*r = p->data;
	size_t		 i;

	if (r->in_value) {
		r->in_value = 0;
		r->field_len = 0;
	}
	for (i = 0; i < len; i++) {
		if (r->field_len < HTTP_FIELD_MAX)
			r->field[r->field_len] =
			    (char)tolower((unsigned char)at[i]);
		r->field_len++;
	}
	r->field[r->field_len < HTTP_FIELD_MAX ? r->field_len :
	    HTTP_FIELD_MAX] = '\0';
	if (r->field_len > HTTP_FIELD_MAX)
		r->field[0] = '\0';	/* too long to be ours */
	return (0);
}

/* Part of a header's value: kept when it is one we read. */
static int
http_on_value(http_parser *p, const char *at, size_t len)
{
	struct http_req	*r = p->data;
	size_t		*n;

	if (!r->in_value) {
		r->in_value = 1;
		http_field_end(r);
	}
	if (r->which == HTTP_H_NONE)
		return (0);
	n = &r->value_len[r->which];
	if (len > HTTP_VALUE_MAX - *n)
		len = HTTP_VALUE_MAX - *n;
	memcpy(r->value[r->which] + *n, at, len);
	*n += len;
	r->value[r->which][*n] = '\0';
	return (0);
}

/*
 * The headers are whole: that is all we answer by (a body is never read).
 * An upgrade stops the parser by itself, where the WebSocket's bytes
 * begin; any other request stops here.
 */
static int
http_on_headers(http_parser *p)
{
	struct http_req	*r = p->data;

	if (r->in_value)
		r->in_value = 0;
	r->headers_done = 1;
	/*
	 * A handshake with a body: where would the WebSocket begin?  After
	 * the headers or after the body, as the bytes happened to come:
	 * refused.
	 */
	if (p->upgrade && ((p->flags & F_CHUNKED) ||
	    ((p->flags & F_CONTENTLENGTH) && p->content_length > 0))) {
		r->bad = 1;
		http_parser_pause(p, 1);
		return (0);
	}
	if (!p->upgrade) {
		r->done = 1;
		http_parser_pause(p, 1);
	}
	return (0);
}

/* The request is whole: stop there (the rest is not ours to parse). */
static int
http_on_complete(http_parser *p)
{
	struct http_req	*r = p->data;

	r->done = 1;
	http_parser_pause(p, 1);
	return (0);
}

/*
 * Feed bytes read; *used says how many were the request's (what follows
 * an upgrade's headers is the WebSocket's).
 */
enum http_state
http_req_feed(struct http_req *r, const char *buf, size_t len, size_t *used)
{
	size_t	n;

	*used = 0;
	if (r->bad)
		return (HTTP_BAD);
	if (r->done)
		return (HTTP_DONE);
	n = http_parser_execute(&r->parser, &http_settings, buf, len);
	*used = n;
	r->head += n;		/* it stops at the end of the headers */
	if (r->head > HTTP_HEADERS_MAX ||
	    HTTP_PARSER_ERRNO(&r->parser) == HPE_HEADER_OVERFLOW)
		return (HTTP_TOO_BIG);
	if (r->bad)
		return (HTTP_BAD);
	if (r->done || (r->headers_done && r->parser.upgrade)) {
		r->done = 1;
		return (HTTP_DONE);
	}
	if (HTTP_PARSER_ERRNO(&r->parser) != HPE_OK)
		return (HTTP_BAD);
	return (HTTP_MORE);
}

/* The request's path, without its query. */
const char *
http_req_path(const struct http_req *r)
{
	return (r->path);
}

/* The request's query (after '?'), or "". */
const char *
http_req_query(const struct http_req *r)
{
	return (r->args);
}

/* The reason phrase of a status we send. */
static const char *
http_reason(int status)
{
	switch (status) {
	case 101: return ("Switching Protocols");
	case 200: return ("OK");
	case 400: return ("Bad Request");
	case 404: return ("Not Found");
	case 405: return ("Method Not Allowed");
	case 408: return ("Request Timeout");
	case 431: return ("Request Header Fields Too Large");
	case 503: return ("Service Unavailable");
	default: return ("Error");
	}
}

/* A whole response: status line, headers, body; the connection closes. */
static void
http_reply(struct evbuffer *out, int status, const char *type,
    const char *extra, const void *body, size_t len)
{
	evbuffer_add_printf(out, "HTTP/1.1 %d %s\r\n"
	    "Content-Type: %s\r\n"
	    "Content-Length: %zu\r\n"
	    "Cache-Control: no-cache\r\n"
	    "%s"
	    "Connection: close\r\n\r\n", status, http_reason(status), type,
	    len, extra != NULL ? extra : "");
	evbuffer_add(out, body, len);
}

/*
 * A JSON API's response (protocol.md §10.3): never cached, readable by
 * any site's scripts (read-only, no credentials: no cookie is ever set).
 */
void
http_json(struct evbuffer *out, int status, const char *body, size_t len)
{
	evbuffer_add_printf(out, "HTTP/1.1 %d %s\r\n"
	    "Content-Type: application/json; charset=utf-8\r\n"
	    "Content-Length: %zu\r\n"
	    "Cache-Control: no-store\r\n"
	    "Access-Control-Allow-Origin: *\r\n"
	    "Connection: close\r\n\r\n", status, http_reason(status), len);
	evbuffer_add(out, body, len);
}

/* An error (or a refusal) with its reason as the body. */
void
http_status(struct evbuffer *out, int status)
{
	char	body[64];
	int	n = snprintf(body, sizeof body, "%d %s\n", status,
		    http_reason(status));

	http_reply(out, status, "text/plain; charset=utf-8",
	    status == 405 ? "Allow: GET\r\n" : NULL, body, (size_t)n);
}

/*
 * The STATS counters in the Prometheus text format (version 0.0.4), by
 * its conventions: a gauge is tttd_<name>, a counter tttd_<name>_total
 * (connections_total as it is), each with HELP and TYPE; instead of
 * uptime, which only resets, the start time (tttd_start_time_seconds,
 * for time() - it), and the version as tttd_build_info's label.
 */
static void
http_metrics(const struct lobby *lobby, struct evbuffer *out)
{
	struct counter	 ctr[COUNTERS_MAX];
	struct evbuffer	*body;
	size_t		 i, n, len;
	const char	*total;
	long long	 start = counters_started(lobby);

	if ((body = evbuffer_new()) == NULL) {
		http_status(out, 503);
		return;
	}
	evbuffer_add_printf(body, "# HELP tttd_build_info The version of "
	    "tttd, as a label; always 1.\n# TYPE tttd_build_info gauge\n"
	    "tttd_build_info{version=\"%s\"} 1\n", TTTD_VERSION);
	evbuffer_add_printf(body, "# HELP tttd_start_time_seconds When tttd "
	    "started, in seconds since the Unix epoch.\n"
	    "# TYPE tttd_start_time_seconds gauge\n"
	    "tttd_start_time_seconds %lld.%03d\n",
	    start / 1000, (int)(start % 1000));
	n = counters_get(lobby, ctr, COUNTERS_MAX);
	for (i = 0; i < n; i++) {
		if (strcmp(ctr[i].name, "uptime") == 0)
			continue;	/* tttd_start_time_seconds */
		len = strlen(ctr[i].name);
		total = ctr[i].gauge || (len >= 6 &&
		    strcmp(ctr[i].name + len - 6, "_total") == 0) ? "" :
		    "_total";
		evbuffer_add_printf(body, "# HELP tttd_%s%s The STATS counter "
		    "%s (docs/protocol.md).\n# TYPE tttd_%s%s %s\n"
		    "tttd_%s%s %llu\n", ctr[i].name, total, ctr[i].name,
		    ctr[i].name, total, ctr[i].gauge ? "gauge" : "counter",
		    ctr[i].name, total, ctr[i].value);
	}
	evbuffer_add_printf(out, "HTTP/1.1 200 OK\r\n"
	    "Content-Type: text/plain; version=0.0.4; charset=utf-8\r\n"
	    "Content-Length: %zu\r\n"
	    "Cache-Control: no-cache\r\n"
	    "Connection: close\r\n\r\n", evbuffer_get_length(body));
	evbuffer_add_buffer(out, body);
	evbuffer_free(body);
}

/* Does a comma-separated header value hold the token (any case)? */
static int
http_has_token(const char *value, const char *token)
{
	size_t		 len = strlen(token);
	const char	*p = value;

	while (*p != '\0') {
		while (*p == ' ' || *p == '\t' || *p == ',')
			p++;
		if (strncasecmp(p, token, len) == 0 && (p[len] == '\0' ||
		    p[len] == ',' || p[len] == ' ' || p[len] == '\t'))
			return (1);
		while (*p != '\0' && *p != ',')
			p++;
	}
	return (0);
}

/*
 * Sec-WebSocket-Accept for a key: base64(SHA-1(key GUID)), RFC 6455
 * section 4.2.2.  0, or -1 for a key that is no base64 of 16 bytes.
 */
int
http_ws_accept(const char *key, size_t len, char out[HTTP_WS_ACCEPT_LEN + 1])
{
	struct base64_decode_ctx	dec;
	struct sha1_ctx			sha;
	uint8_t				raw[BASE64_DECODE_LENGTH(24) + 1];
	uint8_t				digest[SHA1_DIGEST_SIZE];
	size_t				rawlen = sizeof raw;

	if (len != 24)
		return (-1);
	base64_decode_init(&dec);
	if (!base64_decode_update(&dec, &rawlen, raw, len, key) ||
	    !base64_decode_final(&dec) || rawlen != 16)
		return (-1);
	sha1_init(&sha);
	sha1_update(&sha, len, (const uint8_t *)key);
	sha1_update(&sha, sizeof http_ws_guid - 1,
	    (const uint8_t *)http_ws_guid);
	sha1_digest(&sha, sizeof digest, digest);
	base64_encode_raw(out, sizeof digest, digest);
	out[HTTP_WS_ACCEPT_LEN] = '\0';
	return (0);
}

/* GET /ws: the handshake of RFC 6455 (section 4.2), or 400. */
static enum http_next
http_upgrade(struct http_req *r, struct evbuffer *out)
{
	char	accept[HTTP_WS_ACCEPT_LEN + 1];

	if (!r->parser.upgrade ||
	    !http_has_token(r->value[HTTP_H_UPGRADE], "websocket") ||
	    !http_has_token(r->value[HTTP_H_CONNECTION], "upgrade") ||
	    strcmp(r->value[HTTP_H_WS_VERSION], "13") != 0 ||
	    http_ws_accept(r->value[HTTP_H_WS_KEY],
	    r->value_len[HTTP_H_WS_KEY], accept) == -1) {
		http_status(out, 400);
		return (HTTP_CLOSE);
	}
	evbuffer_add_printf(out, "HTTP/1.1 101 Switching Protocols\r\n"
	    "Upgrade: websocket\r\n"
	    "Connection: Upgrade\r\n"
	    "Sec-WebSocket-Accept: %s\r\n\r\n", accept);
	return (HTTP_UPGRADE);
}

/*
 * Answer a whole request into out: what the connection does next
 * (HTTP_API: nothing is written, the JSON API answers).
 */
enum http_next
http_respond(struct http_req *r, const struct lobby *lobby,
    struct evbuffer *out)
{
	static const char	ok[] = "ok\n";
	const char		*path = r->path;

	if (r->parser.method != HTTP_GET) {
		http_status(out, 405);
		return (HTTP_CLOSE);
	}
	if (r->path_long)
		http_status(out, 404);
	else if (strcmp(path, "/") == 0)
		http_reply(out, 200, "text/html; charset=utf-8", NULL,
		    page_html, page_html_len);
	else if (strcmp(path, "/favicon.ico") == 0)
		http_reply(out, 200, "image/x-icon", NULL, page_favicon,
		    page_favicon_len);
	else if (strcmp(path, "/healthz") == 0)
		http_reply(out, 200, "text/plain; charset=utf-8", NULL, ok,
		    sizeof ok - 1);
	else if (strcmp(path, "/metrics") == 0)
		http_metrics(lobby, out);
	else if (strcmp(path, "/ws") == 0)
		return (http_upgrade(r, out));
	else if (strncmp(path, "/api/", 5) == 0)
		return (HTTP_API);	/* api.c answers */
	else
		http_status(out, 404);
	return (HTTP_CLOSE);
}
