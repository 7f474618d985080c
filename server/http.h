/*
 * http.h -- the HTTP side of tttd (--http-port): one request parsed with
 * http-parser, answered (the page, /healthz, /metrics, errors), and the
 * WebSocket handshake's accept key (nettle).  No sockets: the caller
 * feeds the bytes it read and writes out the response it gets.
 */
#ifndef HTTP_H
#define HTTP_H

#include <stddef.h>

#define HTTP_HEADERS_MAX	8192	/* request line and headers: 431 */
#define HTTP_WS_ACCEPT_LEN	28	/* base64 of a SHA-1 */

struct evbuffer;
struct lobby;
struct http_req;

/* Where a request stands after a feed. */
enum http_state {
	HTTP_MORE,		/* not complete yet */
	HTTP_DONE,		/* complete: answer it */
	HTTP_BAD,		/* not HTTP as we take it: 400 */
	HTTP_TOO_BIG		/* headers over HTTP_HEADERS_MAX: 431 */
};

/* What the connection does once the response is written. */
enum http_next {
	HTTP_CLOSE,		/* close (no keep-alive) */
	HTTP_UPGRADE,		/* speak WebSocket from now on */
	HTTP_API		/* a path of the JSON API: api.c answers */
};

struct http_req	*http_req_new(void);
void		 http_req_free(struct http_req *);
enum http_state	 http_req_feed(struct http_req *, const char *, size_t,
		    size_t *);
const char	*http_req_path(const struct http_req *);
const char	*http_req_query(const struct http_req *);
enum http_next	 http_respond(struct http_req *, const struct lobby *,
		    struct evbuffer *);
void		 http_status(struct evbuffer *, int);
void		 http_json(struct evbuffer *, int, const char *, size_t);
int		 http_ws_accept(const char *, size_t,
		    char [HTTP_WS_ACCEPT_LEN + 1]);

#endif /* HTTP_H */
