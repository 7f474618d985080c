/*
 * json.h -- the read-only JSON API of --http-port (protocol.md §10.3):
 * its paths read (percent-decoded, checked as names are) and its bodies
 * written (the same numbers as RATING, HISTORY and TOP).
 *
 * Pure functions: no I/O, no allocation, no globals but constant tables.
 * The formatters have snprintf's semantics: they write what fits, always
 * NUL-terminated when size > 0, and return the whole body's length, so
 * that a caller may ask with size 0 first and allocate.
 */
#ifndef JSON_H
#define JSON_H

#include <stddef.h>

#include "proto.h"

#define JSON_PREFIX	"/api/"		/* every path of the API */

/* What a path of the API asks for. */
enum json_route {
	JSON_NONE = 0,		/* no path of the API: 404 */
	JSON_TOP,		/* /api/top[?n=] */
	JSON_PLAYER,		/* /api/player/<name> */
	JSON_GAMES		/* /api/player/<name>/games[?n=] */
};

/* A request of the API, read from its path and query. */
struct json_req {
	enum json_route	route;
	char		name[PROTO_NAME_MAX + 1];	/* percent-decoded */
	int		n;		/* 1 to PROTO_LIST_MAX: TOP, GAMES */
};

/* An account as RATING and TOP show it. */
struct json_player {
	const char	*name;
	long		 rating;	/* rounded */
	long		 rd;		/* rounded */
	int		 provisional;
	int		 games;
	int		 wins;
	int		 losses;
	int		 ties;
};

/* One player of a rated game: its name, its rating before and after. */
struct json_side {
	const char	*name;
	long		 before;	/* rounded */
	long		 after;		/* rounded */
};

/* A rated game as HISTORY shows it. */
struct json_game {
	const char	*match;
	int		 number;	/* the id is <match>.<number> */
	long long	 at;		/* its end, Unix seconds (UTC) */
	struct json_side x;
	struct json_side o;
	char		 result;	/* 'X', 'O', 'T' */
	const char	*ended;		/* how: a word */
	const char	*moves;		/* "B2,A1,C3", or "" */
};

enum proto_error json_parse(const char *, const char *, struct json_req *);
int	json_string(char *, size_t, const char *);
int	json_player(char *, size_t, const struct json_player *);
int	json_top(char *, size_t, const struct json_player *, size_t);
int	json_games(char *, size_t, const char *, const struct json_game *,
	    size_t);
int	json_error(char *, size_t, const char *, const char *);

#endif /* JSON_H */
