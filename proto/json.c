/*
 * json.c -- the JSON API's paths read and its bodies written (json.h).
 *
 * Every string goes out through json_out_str, which escapes what RFC 8259
 * requires (the quote, the backslash, C0 controls) and, so that a body is
 * safe to paste into a script too, DEL and U+2028 and U+2029; bytes that
 * are no UTF-8 become U+FFFD (the store holds none, but a body must be
 * JSON whatever it is given).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "json.h"
#include "utf8.h"

#define JSON_ID_MAX	96	/* "<match>.<number>" */

/* A body being written: snprintf's semantics over many calls. */
struct json_out {
	char	*buf;
	size_t	 size;
	size_t	 len;		/* the whole length, written or not */
};

static void	json_out_put(struct json_out *, const char *, size_t);
static void	json_out_cat(struct json_out *, const char *);
static void	json_out_fmt(struct json_out *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));
static void	json_out_str(struct json_out *, const char *);
static void	json_out_player(struct json_out *, const struct json_player *,
		    unsigned);
static void	json_out_game(struct json_out *, const struct json_game *);
static void	json_out_side(struct json_out *, const char *,
		    const struct json_side *);
static int	json_out_end(struct json_out *);
static int	json_hex(char);
static enum proto_error json_name(const char *, size_t, char *);
static enum proto_error json_count(const char *, int *);

/* Bytes onto the body, as many as fit; the length counts them all. */
static void
json_out_put(struct json_out *o, const char *s, size_t n)
{
	size_t	room;

	if (o->size > 0 && o->len < o->size - 1) {
		room = o->size - 1 - o->len;
		memcpy(o->buf + o->len, s, n < room ? n : room);
	}
	o->len += n;
}

/* A NUL-terminated string onto the body, as it is. */
static void
json_out_cat(struct json_out *o, const char *s)
{
	json_out_put(o, s, strlen(s));
}

/* A formatted piece (numbers: short) onto the body. */
static void
json_out_fmt(struct json_out *o, const char *fmt, ...)
{
	char	tmp[64];
	va_list	ap;
	int	n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (n > 0)
		json_out_put(o, tmp, (size_t)n < sizeof tmp ? (size_t)n :
		    sizeof tmp - 1);
}

/* A JSON string: quoted, escaped, valid UTF-8 whatever came. */
static void
json_out_str(struct json_out *o, const char *s)
{
	static const char	 hex[] = "0123456789abcdef";
	size_t			 len = strlen(s), i, n;
	uint32_t		 cp;
	char			 esc[7];

	json_out_put(o, "\"", 1);
	for (i = 0; i < len; i += n) {
		unsigned char	c = (unsigned char)s[i];

		n = 1;
		if (c == '"' || c == '\\') {
			esc[0] = '\\';
			esc[1] = (char)c;
			json_out_put(o, esc, 2);
		} else if (c == '\n')
			json_out_put(o, "\\n", 2);
		else if (c == '\r')
			json_out_put(o, "\\r", 2);
		else if (c == '\t')
			json_out_put(o, "\\t", 2);
		else if (c < 0x20 || c == 0x7f) {
			memcpy(esc, "\\u00", 4);
			esc[4] = hex[c >> 4];
			esc[5] = hex[c & 0xf];
			json_out_put(o, esc, 6);
		} else if (c < 0x80)
			json_out_put(o, s + i, 1);
		else if ((n = utf8_decode(s + i, len - i, &cp)) == 0) {
			n = 1;
			json_out_cat(o, "\\ufffd");
		} else if (cp == 0x2028 || cp == 0x2029)
			json_out_cat(o, cp == 0x2028 ? "\\u2028" : "\\u2029");
		else
			json_out_put(o, s + i, n);
	}
	json_out_put(o, "\"", 1);
}

/* The body is whole: NUL-terminate what was written, its whole length. */
static int
json_out_end(struct json_out *o)
{
	if (o->size > 0)
		o->buf[o->len < o->size ? o->len : o->size - 1] = '\0';
	return ((int)o->len);
}

/* A string alone, as JSON (for tests and callers that build by hand). */
int
json_string(char *buf, size_t size, const char *s)
{
	struct json_out	o = { buf, size, 0 };

	json_out_str(&o, s);
	return (json_out_end(&o));
}

/* An account's object; a rank before it when rank > 0 (TOP). */
static void
json_out_player(struct json_out *o, const struct json_player *p,
    unsigned rank)
{
	if (rank > 0)
		json_out_fmt(o, "{\"rank\":%u,\"name\":", rank);
	else
		json_out_cat(o, "{\"name\":");
	json_out_str(o, p->name);
	json_out_fmt(o, ",\"rating\":%ld,\"rd\":%ld,\"provisional\":%s,",
	    p->rating, p->rd, p->provisional ? "true" : "false");
	json_out_fmt(o, "\"games\":%d,\"wins\":%d,\"losses\":%d,\"ties\":%d}",
	    p->games, p->wins, p->losses, p->ties);
}

/* GET /api/player/<name>: an account as RATING shows it. */
int
json_player(char *buf, size_t size, const struct json_player *p)
{
	struct json_out	o = { buf, size, 0 };

	json_out_player(&o, p, 0);
	json_out_cat(&o, "\n");
	return (json_out_end(&o));
}

/* GET /api/top: the leaderboard as TOP shows it, best first. */
int
json_top(char *buf, size_t size, const struct json_player *p, size_t n)
{
	struct json_out	o = { buf, size, 0 };
	size_t		i;

	json_out_cat(&o, "{\"players\":[");
	for (i = 0; i < n; i++) {
		if (i > 0)
			json_out_cat(&o, ",");
		json_out_player(&o, &p[i], (unsigned)i + 1);
	}
	json_out_cat(&o, "]}\n");
	return (json_out_end(&o));
}

/* One player of a game by its mark: "x":"alice". */
static void
json_out_side(struct json_out *o, const char *key, const struct json_side *s)
{
	json_out_fmt(o, "\"%s\":", key);
	json_out_str(o, s->name);
}

/* A game's object: as a PLAYED line, and the ratings it moved. */
static void
json_out_game(struct json_out *o, const struct json_game *g)
{
	char		 id[JSON_ID_MAX], when[32], cell[3];
	struct tm	 tm;
	time_t		 t = (time_t)g->at;
	const char	*m = g->moves;
	int		 first = 1;

	if (gmtime_r(&t, &tm) == NULL ||
	    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(when, sizeof when, "1970-01-01T00:00:00Z");
	snprintf(id, sizeof id, "%s.%d", g->match, g->number);
	json_out_cat(o, "{\"id\":");
	json_out_str(o, id);
	json_out_fmt(o, ",\"time\":\"%s\",", when);
	json_out_side(o, "x", &g->x);
	json_out_cat(o, ",");
	json_out_side(o, "o", &g->o);
	json_out_fmt(o, ",\"result\":\"%s\",\"ended\":", g->result == 'X' ?
	    "X" : g->result == 'O' ? "O" : "TIE");
	json_out_str(o, g->ended);
	json_out_cat(o, ",\"moves\":[");
	while (m[0] != '\0' && m[0] != '-' && m[1] != '\0') {
		memcpy(cell, m, 2);
		cell[2] = '\0';
		json_out_cat(o, first ? "" : ",");
		json_out_str(o, cell);
		first = 0;
		m += m[2] == ',' ? 3 : 2;
	}
	json_out_fmt(o, "],\"ratings\":{\"x\":{\"before\":%ld,\"after\":%ld,"
	    "\"change\":%ld},", g->x.before, g->x.after,
	    g->x.after - g->x.before);
	json_out_fmt(o, "\"o\":{\"before\":%ld,\"after\":%ld,\"change\":%ld}}}",
	    g->o.before, g->o.after, g->o.after - g->o.before);
}

/* GET /api/player/<name>/games: its last games, newest first. */
int
json_games(char *buf, size_t size, const char *name,
    const struct json_game *g, size_t n)
{
	struct json_out	o = { buf, size, 0 };
	size_t		i;

	json_out_cat(&o, "{\"name\":");
	json_out_str(&o, name);
	json_out_cat(&o, ",\"games\":[");
	for (i = 0; i < n; i++) {
		if (i > 0)
			json_out_cat(&o, ",");
		json_out_game(&o, &g[i]);
	}
	json_out_cat(&o, "]}\n");
	return (json_out_end(&o));
}

/* An error's body: its code (as an ERR line's) and its text. */
int
json_error(char *buf, size_t size, const char *code, const char *text)
{
	struct json_out	o = { buf, size, 0 };

	json_out_cat(&o, "{\"error\":");
	json_out_str(&o, code);
	json_out_cat(&o, ",\"message\":");
	json_out_str(&o, text);
	json_out_cat(&o, "}\n");
	return (json_out_end(&o));
}

/* A hex digit's value, or -1. */
static int
json_hex(char c)
{
	if (c >= '0' && c <= '9')
		return (c - '0');
	if (c >= 'a' && c <= 'f')
		return (c - 'a' + 10);
	if (c >= 'A' && c <= 'F')
		return (c - 'A' + 10);
	return (-1);
}

/*
 * A name from a path's segment: percent-decoded into name, then a name as
 * NAME takes it (proto_name_valid), or BAD_NAME.
 */
static enum proto_error
json_name(const char *seg, size_t len, char *name)
{
	size_t	i, n = 0;
	int	hi, lo;

	for (i = 0; i < len; i++) {
		if (n == PROTO_NAME_MAX)
			return (PROTO_EBAD_NAME);
		if (seg[i] != '%') {
			name[n++] = seg[i];
			continue;
		}
		if (i + 2 >= len || (hi = json_hex(seg[i + 1])) == -1 ||
		    (lo = json_hex(seg[i + 2])) == -1 || (hi | lo) == 0)
			return (PROTO_EBAD_NAME);
		name[n++] = (char)(hi << 4 | lo);
		i += 2;
	}
	name[n] = '\0';
	return (proto_name_valid(name, n) ? PROTO_OK : PROTO_EBAD_NAME);
}

/* n= of a query (pairs joined by '&'; the last n counts), or BAD_COUNT. */
static enum proto_error
json_count(const char *query, int *count)
{
	const char	*p = query, *end;
	int		 v, digits;

	*count = PROTO_LIST_DEFAULT;
	while (p != NULL && *p != '\0') {
		end = strchr(p, '&');
		if (end == NULL)
			end = p + strlen(p);
		if (end - p >= 2 && p[0] == 'n' && p[1] == '=') {
			v = 0;
			digits = 0;
			for (p += 2; p < end && *p >= '0' && *p <= '9'; p++)
				if (++digits <= 3)
					v = v * 10 + (*p - '0');
			if (p != end || digits == 0 || digits > 3 || v < 1 ||
			    v > PROTO_LIST_MAX)
				return (PROTO_EBAD_COUNT);
			*count = v;
		}
		p = *end == '&' ? end + 1 : end;
	}
	return (PROTO_OK);
}

/*
 * A request's path (without its query) and query (NULL or without '?'):
 * PROTO_OK with its route (JSON_NONE: no path of the API), or why it is
 * refused (BAD_NAME, BAD_COUNT).
 */
enum proto_error
json_parse(const char *path, const char *query, struct json_req *req)
{
	static const char	 player[] = JSON_PREFIX "player/";
	static const char	 games[] = "/games";
	const char		*seg, *slash;
	size_t			 len;
	enum proto_error	 e;

	memset(req, 0, sizeof *req);
	if (strcmp(path, JSON_PREFIX "top") == 0) {
		req->route = JSON_TOP;
		return (json_count(query, &req->n));
	}
	if (strncmp(path, player, sizeof player - 1) != 0)
		return (PROTO_OK);
	seg = path + sizeof player - 1;
	if ((slash = strchr(seg, '/')) == NULL)
		len = strlen(seg);
	else if (strcmp(slash, games) == 0)
		len = (size_t)(slash - seg);
	else
		return (PROTO_OK);
	if (len == 0)
		return (PROTO_OK);
	if ((e = json_name(seg, len, req->name)) != PROTO_OK)
		return (e);
	req->route = slash == NULL ? JSON_PLAYER : JSON_GAMES;
	if (req->route == JSON_GAMES)
		return (json_count(query, &req->n));
	return (PROTO_OK);
}
