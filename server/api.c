/*
 * api.c -- the read-only JSON API on --http-port (protocol.md §10.3):
 * a request whose path is under /api/ (http.c says so) is read
 * (proto/json.c), asked of the accounts (accounts_read: the store's
 * thread, so the loop never waits on the disk) and answered as JSON
 * once they answer; the connection stays open meanwhile.  A connection
 * freed before the answer cancels its read (api_forget), so that the
 * answer touches nothing freed.
 */
#include <sys/types.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/event.h>

#include "accounts.h"
#include "api.h"
#include "http.h"
#include "json.h"
#include "log.h"
#include "rating.h"
#include "server.h"
#include "store.h"

#define API_NOT_FOUND	"There is no such path: the API has /api/top, " \
			"/api/player/<name> and /api/player/<name>/games."

static void	api_send(struct server_client *, int, char *, int);
static void	api_error(struct server_client *, int, enum proto_error);
static void	api_answer(const struct store_result *, void *);
static void	api_player(struct server_client *,
		    const struct store_result *);
static void	api_top(struct server_client *, const struct store_result *);
static void	api_games(struct server_client *, const struct store_result *);
static void	api_done(struct server_client *, size_t);
static void	api_shown(const struct store_account *, struct rating_shown *,
		    struct json_player *);
static long	api_round(double);

/*
 * A whole request under /api/: answered now into the output (an error:
 * 0, the caller closes as after any request), or asked of the accounts
 * (1: the answer closes the connection, api_answer).
 */
int
api_ask(struct server_client *sc)
{
	struct accounts		*acc = sc->server->accounts;
	struct json_req		 req;
	enum proto_error	 e;
	char			 buf[256];
	int			 n;

	e = json_parse(http_req_path(sc->http), http_req_query(sc->http),
	    &req);
	if (e != PROTO_OK) {
		api_error(sc, 400, e);
		return (0);
	}
	if (req.route == JSON_NONE) {
		n = json_error(buf, sizeof buf, "NOT_FOUND", API_NOT_FOUND);
		http_json(sc->out, 404, buf, (size_t)n);
		return (0);
	}
	if (acc == NULL) {
		api_error(sc, 503, PROTO_ENO_ACCOUNTS);
		return (0);
	}
	sc->api = accounts_read(acc, req.route == JSON_TOP ? PROTO_TOP :
	    req.route == JSON_GAMES ? PROTO_HISTORY : PROTO_RATING, req.name,
	    req.n, api_answer, sc);
	if (sc->api == NULL) {
		api_error(sc, 503, PROTO_EACCOUNTS_DOWN);
		return (0);
	}
	evtimer_del(sc->timer);		/* the store answers: no 408 now */
	return (1);
}

/* A connection is freed: its read, if any, answers nobody. */
void
api_forget(struct server_client *sc)
{
	if (sc->api != NULL)
		accounts_read_cancel(sc->api);
	sc->api = NULL;
}

/* A response with an error's code and text (as its ERR line's). */
static void
api_error(struct server_client *sc, int status, enum proto_error e)
{
	char	buf[256];
	int	n;

	n = json_error(buf, sizeof buf, proto_error_code(e),
	    proto_error_text(e));
	http_json(sc->out, status, buf, (size_t)n);
}

/* A body built at its length (n, from a first pass), sent, freed. */
static void
api_send(struct server_client *sc, int status, char *body, int n)
{
	if (body == NULL) {
		api_error(sc, 503, PROTO_EACCOUNTS_DOWN);	/* no memory */
		return;
	}
	http_json(sc->out, status, body, (size_t)n);
	free(body);
}

/* The store answered: the response, then the connection closes. */
static void
api_answer(const struct store_result *res, void *arg)
{
	struct server_client	*sc = arg;
	size_t			 before = evbuffer_get_length(sc->out);

	sc->api = NULL;
	if (sc->c.flags & CLIENT_CLOSING)
		return;			/* shutting down: closed already */
	if (res->err == STORE_ENOTFOUND)
		api_error(sc, 404, PROTO_ENO_SUCH_PLAYER);
	else if (res->err != STORE_OK) {
		log_warn("client %llu: %s: %s", (unsigned long long)sc->c.id,
		    store_strerror(res->err), res->why);
		api_error(sc, 503, PROTO_EACCOUNTS_DOWN);
	} else if (res->op == STORE_TOP)
		api_top(sc, res);
	else if (res->op == STORE_HISTORY)
		api_games(sc, res);
	else
		api_player(sc, res);
	api_done(sc, before);
}

/* An account as JSON wants it: shown as RATING shows it. */
static void
api_shown(const struct store_account *acc, struct rating_shown *sh,
    struct json_player *p)
{
	accounts_read_shown(acc, sh);
	p->name = acc->name;
	p->rating = sh->r;
	p->rd = sh->rd;
	p->provisional = sh->provisional;
	p->games = acc->games;
	p->wins = acc->wins;
	p->losses = acc->losses;
	p->ties = acc->ties;
}

/* GET /api/player/<name>: RATING's numbers. */
static void
api_player(struct server_client *sc, const struct store_result *res)
{
	struct json_player	 p;
	struct rating_shown	 sh;
	char			*body;
	int			 n;

	api_shown(&res->account, &sh, &p);
	n = json_player(NULL, 0, &p);
	if ((body = malloc((size_t)n + 1)) != NULL)
		json_player(body, (size_t)n + 1, &p);
	api_send(sc, 200, body, n);
}

/* GET /api/top: TOP's places. */
static void
api_top(struct server_client *sc, const struct store_result *res)
{
	struct json_player	p[STORE_LIST_MAX];
	struct rating_shown	sh;
	char			*body;
	size_t			 i, k = res->ntop < STORE_LIST_MAX ?
				    res->ntop : STORE_LIST_MAX;
	int			 n;

	for (i = 0; i < k; i++)
		api_shown(&res->top[i], &sh, &p[i]);
	n = json_top(NULL, 0, p, k);
	if ((body = malloc((size_t)n + 1)) != NULL)
		json_top(body, (size_t)n + 1, p, k);
	api_send(sc, 200, body, n);
}

/* A rating of a game as shown: rounded. */
static long
api_round(double r)
{
	struct rating		rt = { r, 0, 0 };
	struct rating_shown	sh;

	rating_show(&rt, &sh);
	return (sh.r);
}

/* GET /api/player/<name>/games: HISTORY's games, and their ratings. */
static void
api_games(struct server_client *sc, const struct store_result *res)
{
	struct json_game	 g[STORE_LIST_MAX];
	const struct store_game	*s;
	char			*body;
	size_t			 i, k = res->ngames < STORE_LIST_MAX ?
				    res->ngames : STORE_LIST_MAX;
	int			 n;

	for (i = 0; i < k; i++) {
		s = &res->games[i];
		g[i].match = s->match;
		g[i].number = s->number;
		g[i].at = (long long)s->at;
		g[i].x.name = s->x.name;
		g[i].x.before = api_round(s->x.before);
		g[i].x.after = api_round(s->x.rating);
		g[i].o.name = s->o.name;
		g[i].o.before = api_round(s->o.before);
		g[i].o.after = api_round(s->o.rating);
		g[i].result = s->result;
		g[i].ended = s->ended;
		g[i].moves = s->moves;
	}
	n = json_games(NULL, 0, res->account.name, g, k);
	if ((body = malloc((size_t)n + 1)) != NULL)
		json_games(body, (size_t)n + 1, res->account.name, g, k);
	api_send(sc, 200, body, n);
}

/* The response is in the output (from before on): sent, then closed. */
static void
api_done(struct server_client *sc, size_t before)
{
	sc->server->lobby.stats.bytes_out +=
	    evbuffer_get_length(sc->out) - before;
	sc->c.flags |= CLIENT_CLOSING;
	server_client_out(sc, NULL, 0);
	server_client_shut(sc);
}
