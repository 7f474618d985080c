/*
 * store-pg.c -- the store's PostgreSQL back end, on the loop itself:
 * libpq's asynchronous API in pipeline mode, driven by an event on its
 * socket.  Each request is one implicit transaction (its one or two
 * statements, then a sync), sent as soon as it is made while connected;
 * the answers come back in order.  Lost, refused or too slow, the
 * connection is dropped, every request outstanding fails, and a new one is
 * tried after a backoff; meanwhile requests fail at once (STORE_EDOWN).
 */
#include <sys/queue.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <event2/event.h>

#include "log.h"
#include "store-int.h"
#include "store-pglib.h"

#define STORE_PG_DEADLINE_MS	5000	/* a request's answer, from asking */
#define STORE_PG_CONNECT_MS	5000	/* a connection and its schema */
#define STORE_PG_BACKOFF_MS	100	/* the first retry, doubled ... */
#define STORE_PG_BACKOFF_MAX_MS	5000	/* ... up to this */
#define STORE_PG_INFLIGHT	32	/* requests sent, not yet answered */
#define STORE_PG_STMT_MS	"2000"	/* statement_timeout, server side */
#define STORE_PG_LOCK		0x74747464	/* the migration's lock */

enum store_pg_state {
	STORE_PG_DOWN,		/* waiting to retry: requests fail at once */
	STORE_PG_CONNECTING,	/* PQconnectPoll */
	STORE_PG_SETUP,		/* the schema made or checked */
	STORE_PG_READY		/* in pipeline mode, requests sent */
};

struct store_pg {
	struct event_base	*base;
	char			*conninfo;
	char			 name[256];	/* for a log line: no password */
	PGconn			*conn;
	enum store_pg_state	 state;
	struct event		*io;
	int			 io_fd;
	short			 io_what;
	struct event		*timer;		/* deadlines, and the retry */
	struct event		*kick;		/* callbacks of done requests */
	struct store_reqs	 todo;		/* not sent yet */
	struct store_reqs	 sent;		/* in the pipeline, in order */
	struct store_reqs	 done;		/* their callbacks to come */
	struct store_req	*held;		/* a rated record between its
						   round trips: nothing is
						   sent after it meanwhile */
	size_t			 nsent;
	size_t			 pending;
	int			 stmt;		/* the head of sent's, so far */
	long			 connect_by;	/* ms: the attempt's deadline */
	long			 retry_at;	/* ms: the next attempt */
	long			 backoff;	/* ms */
	char			 why[256];	/* why it is down */
	char			 logged[256];	/* the last why logged */
	char			 setup_why[256];	/* the schema's error */
};

/* The schema, one step per version: step i takes version i to i + 1. */
static const char *store_pg_steps[STORE_SCHEMA] = {
	"CREATE TABLE accounts ("
	" id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"
	" name text NOT NULL,"
	" fold text NOT NULL UNIQUE,"
	" key_hash bytea NOT NULL UNIQUE,"
	" rating double precision NOT NULL,"
	" rd double precision NOT NULL,"
	" volatility double precision NOT NULL,"
	" last_game bigint NOT NULL DEFAULT 0,"
	" games integer NOT NULL DEFAULT 0,"
	" wins integer NOT NULL DEFAULT 0,"
	" losses integer NOT NULL DEFAULT 0,"
	" ties integer NOT NULL DEFAULT 0,"
	" created bigint NOT NULL);"
	"CREATE INDEX accounts_top ON accounts (rating DESC) WHERE rd < 110.0;"
	"CREATE TABLE games ("
	" match text NOT NULL,"
	" number integer NOT NULL,"
	" x_id bigint REFERENCES accounts (id) ON DELETE SET NULL,"
	" o_id bigint REFERENCES accounts (id) ON DELETE SET NULL,"
	" result text NOT NULL CHECK (result IN ('X', 'O', 'T')),"
	" ended text NOT NULL,"
	" moves text NOT NULL,"
	" at bigint NOT NULL,"
	" x_before double precision NOT NULL,"
	" x_after double precision NOT NULL,"
	" o_before double precision NOT NULL,"
	" o_after double precision NOT NULL,"
	" seq bigint GENERATED ALWAYS AS IDENTITY,"
	" PRIMARY KEY (match, number));"
	"CREATE INDEX games_x ON games (x_id, at);"
	"CREATE INDEX games_o ON games (o_id, at);"
};

#define STORE_PG_ACCOUNT \
	"id, name, rating, rd, volatility, last_game, created, games, wins," \
	" losses, ties"

/* The statements of the requests, by op. */
static const char store_pg_login[] = "SELECT " STORE_PG_ACCOUNT
	" FROM accounts WHERE key_hash = $1::bytea";
static const char store_pg_by_fold[] = "SELECT " STORE_PG_ACCOUNT
	" FROM accounts WHERE fold = $1";
static const char store_pg_register[] = "INSERT INTO accounts (name, fold,"
	" key_hash, rating, rd, volatility, created)"
	" VALUES ($1, $2, $3::bytea, $4, $5, $6, $7)"
	" ON CONFLICT (fold) DO NOTHING RETURNING " STORE_PG_ACCOUNT;
static const char store_pg_rekey[] = "UPDATE accounts SET key_hash ="
	" $2::bytea WHERE id = $1 RETURNING " STORE_PG_ACCOUNT;
static const char store_pg_forget[] = "DELETE FROM accounts WHERE id = $1"
	" RETURNING " STORE_PG_ACCOUNT;
/* Both accounts locked in the order of their ids: no two games cross. */
static const char store_pg_lock[] = "SELECT id FROM accounts"
	" WHERE id IN ($1, $2) ORDER BY id FOR UPDATE";
/* The game once; the ratings only when its row is new. */
static const char store_pg_record[] = "WITH g AS (INSERT INTO games"
	" (match, number, x_id, o_id, result, ended, moves, at, x_before,"
	" x_after, o_before, o_after) VALUES ($1, $2, $3, $4, $5, $6, $7, $8,"
	" $9, $10, $11, $12) ON CONFLICT (match, number) DO NOTHING"
	" RETURNING 1),"
	" s (id, rating, rd, volatility, mark) AS (VALUES"
	" ($3::bigint, $10::float8, $13::float8, $14::float8, 'X'),"
	" ($4::bigint, $12::float8, $15::float8, $16::float8, 'O')),"
	" u AS (UPDATE accounts AS a SET rating = s.rating, rd = s.rd,"
	" volatility = s.volatility, last_game = $8, games = a.games + 1,"
	" wins = a.wins + (s.mark = $5::text)::int,"
	" losses = a.losses + (s.mark <> $5::text AND $5::text <> 'T')::int,"
	" ties = a.ties + ($5::text = 'T')::int"
	" FROM s WHERE a.id = s.id AND EXISTS (SELECT 1 FROM g) RETURNING 1)"
	" SELECT (SELECT count(*) FROM g), (SELECT count(*) FROM u)";
/*
 * A rated record's first round trip, in a transaction of its own: both
 * accounts locked in id order and read, and whether the game is there.
 */
static const char store_pg_lock_read[] = "SELECT " STORE_PG_ACCOUNT
	" FROM accounts WHERE id IN ($1, $2) ORDER BY id FOR UPDATE";
static const char store_pg_there[] = "SELECT count(*) FROM games"
	" WHERE match = $1 AND number = $2";
static const char store_pg_history[] = "WITH me AS (SELECT id FROM accounts"
	" WHERE fold = $1) SELECT g.match, g.number, coalesce(g.x_id, 0),"
	" coalesce(g.o_id, 0), coalesce(x.name, '" STORE_DELETED "'),"
	" coalesce(o.name, '" STORE_DELETED "'), g.result, g.ended, g.moves,"
	" g.at, g.x_before, g.x_after, g.o_before, g.o_after"
	" FROM games AS g LEFT JOIN accounts AS x ON x.id = g.x_id"
	" LEFT JOIN accounts AS o ON o.id = g.o_id"
	" WHERE g.x_id = (SELECT id FROM me) OR g.o_id = (SELECT id FROM me)"
	" ORDER BY g.at DESC, g.seq DESC LIMIT $2";
static const char store_pg_top[] = "SELECT " STORE_PG_ACCOUNT
	" FROM accounts WHERE rd < 110.0 ORDER BY rating DESC, id LIMIT $1";

static long	 store_pg_now(void);
static void	 store_pg_connect(struct store_pg *);
static void	 store_pg_down(struct store_pg *, enum store_err,
		     const char *);
static void	 store_pg_watch(struct store_pg *, short);
static void	 store_pg_arm(struct store_pg *);
static void	 store_pg_io_cb(int, short, void *);
static void	 store_pg_timer_cb(int, short, void *);
static void	 store_pg_kick_cb(int, short, void *);
static void	 store_pg_poll(struct store_pg *);
static void	 store_pg_setup(struct store_pg *);
static void	 store_pg_setup_read(struct store_pg *);
static void	 store_pg_send_todo(struct store_pg *);
static int	 store_pg_send(struct store_pg *, struct store_req *);
static int	 store_pg_send_record(struct store_pg *, struct store_req *);
static int	 store_pg_rated(struct store_pg *, struct store_req *);
static void	 store_pg_rated_rows(struct store_req *, int,
		    const PGresult *);
static void	 store_pg_flush(struct store_pg *);
static void	 store_pg_read(struct store_pg *);
static void	 store_pg_result(struct store_pg *, PGresult *);
static void	 store_pg_error(struct store_req *, const PGresult *);
static void	 store_pg_rows(struct store_req *, int, const PGresult *);
static void	 store_pg_account(const PGresult *, int,
		     struct store_account *);
static void	 store_pg_game(const PGresult *, int, struct store_game *);
static void	 store_pg_finish(struct store_pg *, struct store_req *);
static void	 store_pg_req_free(struct store_req *);

/* Now, in milliseconds of the monotonic clock. */
static long
store_pg_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((long)ts.tv_sec * 1000L + ts.tv_nsec / 1000000L);
}

/* Whether a --db names PostgreSQL: a URI or a keyword string. */
int
store_pg_match(const char *path)
{
	return (strncmp(path, "postgresql://", 13) == 0 ||
	    strncmp(path, "postgres://", 11) == 0 ||
	    strchr(path, '=') != NULL);
}

/* The parts of a connection string a log may show: never its password. */
static void
store_pg_describe(struct store_pg *pg, PQconninfoOption *opts)
{
	PQconninfoOption	*o;
	size_t			 n;

	n = (size_t)snprintf(pg->name, sizeof pg->name, "PostgreSQL");
	for (o = opts; o->keyword != NULL && n < sizeof pg->name; o++) {
		if (o->val == NULL || o->val[0] == '\0' ||
		    (strcmp(o->keyword, "host") != 0 &&
		    strcmp(o->keyword, "hostaddr") != 0 &&
		    strcmp(o->keyword, "port") != 0 &&
		    strcmp(o->keyword, "dbname") != 0 &&
		    strcmp(o->keyword, "user") != 0))
			continue;
		n += (size_t)snprintf(pg->name + n, sizeof pg->name - n,
		    " %s=%s", o->keyword, o->val);
	}
}

/*
 * Open the back end: libpq loaded, the connection string checked (NULL and
 * why when either fails), then a connection begun; the store is usable at once,
 * whether or not PostgreSQL answers.
 */
static void *
store_pg_open(struct event_base *base, const char *conninfo, char *why,
    size_t len)
{
	struct store_pg		*pg;
	PQconninfoOption	*opts;
	char			*err = NULL;

	if (store_pglib_load(why, len) == -1)
		return (NULL);
	if ((opts = PQconninfoParse(conninfo, &err)) == NULL) {
		snprintf(why, len, "not a PostgreSQL connection string: %s",
		    err != NULL ? err : "out of memory");
		why[strcspn(why, "\n")] = '\0';
		PQfreemem(err);
		return (NULL);
	}
	if ((pg = calloc(1, sizeof *pg)) == NULL ||
	    (pg->conninfo = strdup(conninfo)) == NULL ||
	    (pg->timer = evtimer_new(base, store_pg_timer_cb, pg)) == NULL ||
	    (pg->kick = event_new(base, -1, 0, store_pg_kick_cb, pg)) == NULL) {
		PQconninfoFree(opts);
		snprintf(why, len, "out of memory");
		if (pg != NULL) {
			if (pg->timer != NULL)
				event_free(pg->timer);
			free(pg->conninfo);
			free(pg);
		}
		return (NULL);
	}
	store_pg_describe(pg, opts);
	PQconninfoFree(opts);
	pg->base = base;
	pg->io_fd = -1;
	pg->backoff = STORE_PG_BACKOFF_MS;
	TAILQ_INIT(&pg->todo);
	TAILQ_INIT(&pg->sent);
	TAILQ_INIT(&pg->done);
	store_pg_connect(pg);
	return (pg);
}

/* Begin a connection: its socket watched, its deadline set. */
static void
store_pg_connect(struct store_pg *pg)
{
	const char	*keys[] = { "dbname", "fallback_application_name",
			    NULL };
	const char	*vals[] = { pg->conninfo, "tttd", NULL };

	pg->state = STORE_PG_CONNECTING;
	pg->connect_by = store_pg_now() + STORE_PG_CONNECT_MS;
	pg->conn = PQconnectStartParams(keys, vals, 1);
	if (pg->conn == NULL || PQstatus(pg->conn) == CONNECTION_BAD) {
		store_pg_down(pg, STORE_EDOWN, pg->conn != NULL ?
		    PQerrorMessage(pg->conn) : "out of memory");
		return;
	}
	store_pg_watch(pg, EV_WRITE);
	store_pg_arm(pg);
}

/*
 * The connection is gone (or never came): every request outstanding
 * fails with err, in order, and a new one is tried after the backoff.
 */
static void
store_pg_down(struct store_pg *pg, enum store_err err, const char *why)
{
	struct store_req	*req;

	snprintf(pg->why, sizeof pg->why, "%s", why);
	pg->why[strcspn(pg->why, "\n")] = '\0';
	if (strcmp(pg->why, pg->logged) != 0) {
		log_warn("store: %s: %s; retrying", pg->name, pg->why);
		snprintf(pg->logged, sizeof pg->logged, "%s", pg->why);
	}
	if (pg->conn != NULL)
		PQfinish(pg->conn);
	pg->conn = NULL;
	store_pg_watch(pg, 0);
	while ((req = TAILQ_FIRST(&pg->sent)) != NULL) {
		TAILQ_REMOVE(&pg->sent, req, entry);
		if (req->res.err == STORE_OK || req->res.err == STORE_ENOTFOUND) {
			req->res.err = err;
			snprintf(req->why, sizeof req->why, "%s", pg->why);
		}
		store_pg_finish(pg, req);
	}
	pg->nsent = 0;
	pg->stmt = 0;
	pg->held = NULL;
	while ((req = TAILQ_FIRST(&pg->todo)) != NULL) {
		TAILQ_REMOVE(&pg->todo, req, entry);
		req->res.err = err;
		snprintf(req->why, sizeof req->why, "%s", pg->why);
		store_pg_finish(pg, req);
	}
	pg->state = STORE_PG_DOWN;
	pg->retry_at = store_pg_now() + pg->backoff;
	pg->backoff *= 2;
	if (pg->backoff > STORE_PG_BACKOFF_MAX_MS)
		pg->backoff = STORE_PG_BACKOFF_MAX_MS;
	store_pg_arm(pg);
}

/* Watch the connection's socket for what (0: not at all). */
static void
store_pg_watch(struct store_pg *pg, short what)
{
	int	fd = pg->conn != NULL ? PQsocket(pg->conn) : -1;

	if (fd == pg->io_fd && what == pg->io_what)
		return;
	if (pg->io != NULL)
		event_free(pg->io);
	pg->io = NULL;
	pg->io_fd = -1;
	pg->io_what = 0;
	if (fd < 0 || what == 0)
		return;
	if ((pg->io = event_new(pg->base, fd, what | EV_PERSIST,
	    store_pg_io_cb, pg)) == NULL || event_add(pg->io, NULL) == -1) {
		if (pg->io != NULL)
			event_free(pg->io);
		pg->io = NULL;
		return;
	}
	pg->io_fd = fd;
	pg->io_what = what;
}

/* The timer at the next deadline: a request's, the attempt's, a retry. */
static void
store_pg_arm(struct store_pg *pg)
{
	struct store_req	*req;
	struct timeval		 tv;
	long			 at = 0, wait;

	if ((req = TAILQ_FIRST(&pg->sent)) == NULL)
		req = TAILQ_FIRST(&pg->todo);
	if (req != NULL)
		at = req->deadline;
	if (pg->state == STORE_PG_CONNECTING || pg->state == STORE_PG_SETUP)
		at = at == 0 || pg->connect_by < at ? pg->connect_by : at;
	else if (pg->state == STORE_PG_DOWN)
		at = pg->retry_at;
	if (at == 0) {
		evtimer_del(pg->timer);
		return;
	}
	wait = at - store_pg_now();
	if (wait < 0)
		wait = 0;
	tv.tv_sec = wait / 1000;
	tv.tv_usec = (wait % 1000) * 1000;
	evtimer_add(pg->timer, &tv);
}

/* A deadline passed, or the time to retry came. */
static void
store_pg_timer_cb(int fd, short what, void *arg)
{
	struct store_pg		*pg = arg;
	struct store_req	*req;
	long			 now = store_pg_now();

	(void)fd;
	(void)what;
	if (pg->state == STORE_PG_DOWN) {
		store_pg_connect(pg);
		return;
	}
	if ((req = TAILQ_FIRST(&pg->sent)) == NULL)
		req = TAILQ_FIRST(&pg->todo);
	if (req != NULL && req->deadline <= now)
		store_pg_down(pg, STORE_EDOWN, "no answer within 5 seconds");
	else if (pg->state != STORE_PG_READY && pg->connect_by <= now)
		store_pg_down(pg, STORE_EDOWN, "no connection within 5 seconds");
	else
		store_pg_arm(pg);
}

/* The socket is ready: the connection goes on, or answers are read. */
static void
store_pg_io_cb(int fd, short what, void *arg)
{
	struct store_pg	*pg = arg;

	(void)fd;
	switch (pg->state) {
	case STORE_PG_CONNECTING:
		store_pg_poll(pg);
		break;
	case STORE_PG_SETUP:
		if (what & EV_READ)
			store_pg_setup_read(pg);
		break;
	case STORE_PG_READY:
		if (what & EV_WRITE)
			store_pg_flush(pg);
		if (pg->state == STORE_PG_READY && (what & EV_READ))
			store_pg_read(pg);
		break;
	case STORE_PG_DOWN:
		break;
	}
}

/* One step of the connection (PQconnectPoll). */
static void
store_pg_poll(struct store_pg *pg)
{
	switch (PQconnectPoll(pg->conn)) {
	case PGRES_POLLING_READING:
		store_pg_watch(pg, EV_READ);
		break;
	case PGRES_POLLING_WRITING:
		store_pg_watch(pg, EV_WRITE);
		break;
	case PGRES_POLLING_OK:
		store_pg_setup(pg);
		break;
	default:
		store_pg_down(pg, STORE_EDOWN, PQerrorMessage(pg->conn));
		break;
	}
}

/*
 * Connected: the schema made or brought up to date, under a lock so that
 * two nodes starting at once do it once, or refused when it is newer.
 */
static void
store_pg_setup(struct store_pg *pg)
{
	char	sql[4096];
	size_t	n;
	int	i;

	n = (size_t)snprintf(sql, sizeof sql,
	    "SET statement_timeout = " STORE_PG_STMT_MS ";"
	    "SET client_min_messages = warning;"
	    "SELECT pg_advisory_xact_lock(%d);"
	    "CREATE TABLE IF NOT EXISTS tttd_schema (version integer NOT NULL);"
	    "DO $tttd$ DECLARE v integer; BEGIN"
	    " SELECT max(version) INTO v FROM tttd_schema;"
	    " IF v IS NULL THEN v := 0; INSERT INTO tttd_schema VALUES (0);"
	    " END IF;"
	    " IF v > %d THEN RAISE EXCEPTION 'its schema (version %%) is newer"
	    " than this tttd''s (version %d)', v; END IF;",
	    STORE_PG_LOCK, STORE_SCHEMA, STORE_SCHEMA);
	for (i = 0; i < STORE_SCHEMA && n < sizeof sql; i++)
		n += (size_t)snprintf(sql + n, sizeof sql - n,
		    " IF v < %d THEN %s END IF;", i + 1, store_pg_steps[i]);
	if (n < sizeof sql)
		n += (size_t)snprintf(sql + n, sizeof sql - n,
		    " UPDATE tttd_schema SET version = %d; END $tttd$",
		    STORE_SCHEMA);
	if (n >= sizeof sql || PQsetnonblocking(pg->conn, 1) == -1 ||
	    PQsendQuery(pg->conn, sql) == 0) {
		store_pg_down(pg, STORE_EDB, n >= sizeof sql ?
		    "the schema is too long" : PQerrorMessage(pg->conn));
		return;
	}
	pg->state = STORE_PG_SETUP;
	pg->setup_why[0] = '\0';
	store_pg_watch(pg, EV_READ);
	store_pg_flush(pg);
}

/* The schema's answer: ready (its requests sent), or down with why. */
static void
store_pg_setup_read(struct store_pg *pg)
{
	PGresult	*r;
	char		*why = pg->setup_why;

	if (PQconsumeInput(pg->conn) == 0) {
		store_pg_down(pg, STORE_EDOWN, PQerrorMessage(pg->conn));
		return;
	}
	for (;;) {
		if (PQisBusy(pg->conn))
			return;		/* the rest is still to come */
		if ((r = PQgetResult(pg->conn)) == NULL)
			break;
		if (PQresultStatus(r) == PGRES_FATAL_ERROR && why[0] == '\0')
			snprintf(why, sizeof pg->setup_why, "%s",
			    PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY));
		PQclear(r);
	}
	if (why[0] != '\0') {
		store_pg_down(pg, STORE_EDB, why);
		return;
	}
	if (PQenterPipelineMode(pg->conn) == 0) {
		store_pg_down(pg, STORE_EDB, PQerrorMessage(pg->conn));
		return;
	}
	log_info("store: %s: connected (schema version %d)", pg->name,
	    STORE_SCHEMA);
	pg->logged[0] = '\0';
	pg->backoff = STORE_PG_BACKOFF_MS;
	pg->state = STORE_PG_READY;
	store_pg_send_todo(pg);
	store_pg_arm(pg);
}

/* Send what waits, as far as the pipeline takes. */
static void
store_pg_send_todo(struct store_pg *pg)
{
	struct store_req	*req;
	int			 sent = 0;

	while (pg->state == STORE_PG_READY && pg->nsent < STORE_PG_INFLIGHT &&
	    pg->held == NULL && (req = TAILQ_FIRST(&pg->todo)) != NULL) {
		TAILQ_REMOVE(&pg->todo, req, entry);
		TAILQ_INSERT_TAIL(&pg->sent, req, entry);
		pg->nsent++;
		if (store_pg_send(pg, req) == -1) {
			store_pg_down(pg, STORE_EDOWN,
			    PQerrorMessage(pg->conn));
			return;
		}
		sent = 1;
		if (req->rate != NULL && req->op == STORE_RECORD)
			pg->held = req;	/* its second trip comes first */
	}
	if (sent)
		store_pg_flush(pg);
}

/* A double as text that reads back the same. */
#define STORE_PG_DBL(buf, v)	(snprintf((buf), sizeof (buf), "%.17g", (v)), \
				    (const char *)(buf))
#define STORE_PG_INT(buf, v)	(snprintf((buf), sizeof (buf), "%" PRId64, \
				    (int64_t)(v)), (const char *)(buf))

/* A key's hash as bytea's text: \x and hex. */
static const char *
store_pg_hex(char *buf, const uint8_t *hash)
{
	int	i;

	buf[0] = '\\';
	buf[1] = 'x';
	for (i = 0; i < STORE_HASH_LEN; i++)
		snprintf(buf + 2 + 2 * i, 3, "%02x", hash[i]);
	return (buf);
}

/* One statement of a request, its parameters as text. */
static int
store_pg_query(struct store_pg *pg, const char *sql, int n,
    const char *const *p)
{
	return (PQsendQueryParams(pg->conn, sql, n, NULL, p, NULL, NULL, 0) ?
	    0 : -1);
}

/* A request's statements and a sync: one implicit transaction. */
static int
store_pg_send(struct store_pg *pg, struct store_req *req)
{
	const struct store_game	*g = &req->game;
	char			 h[2 + 2 * STORE_HASH_LEN + 1], b[16][32];
	int			 rc = 0;

	switch (req->op) {
	case STORE_REGISTER: {
		const char *p[] = { req->name, req->fold,
		    store_pg_hex(h, req->hash),
		    STORE_PG_DBL(b[0], STORE_NEW_RATING),
		    STORE_PG_DBL(b[1], STORE_NEW_RD),
		    STORE_PG_DBL(b[2], STORE_NEW_VOLATILITY),
		    STORE_PG_INT(b[3], req->now) };
		rc = store_pg_query(pg, store_pg_register, 7, p);
		break;
	}
	case STORE_LOGIN: {
		const char *p[] = { store_pg_hex(h, req->hash) };
		rc = store_pg_query(pg, store_pg_login, 1, p);
		break;
	}
	case STORE_REKEY: {
		const char *p[] = { STORE_PG_INT(b[0], req->id),
		    store_pg_hex(h, req->hash) };
		rc = store_pg_query(pg, store_pg_rekey, 2, p);
		break;
	}
	case STORE_FORGET: {
		const char *p[] = { STORE_PG_INT(b[0], req->id) };
		rc = store_pg_query(pg, store_pg_forget, 1, p);
		break;
	}
	case STORE_RECORD:
		if (req->rate != NULL) {
			const char *l[] = { STORE_PG_INT(b[0], g->x.id),
			    STORE_PG_INT(b[1], g->o.id) };
			const char *t[] = { g->match,
			    STORE_PG_INT(b[2], g->number) };
			rc = store_pg_query(pg, "BEGIN", 0, NULL);
			if (rc == 0)
				rc = store_pg_query(pg, store_pg_lock_read, 2,
				    l);
			if (rc == 0)
				rc = store_pg_query(pg, store_pg_there, 2, t);
			break;
		}
		rc = store_pg_send_record(pg, req);
		break;
	case STORE_RATING: {
		const char *p[] = { req->fold };
		rc = store_pg_query(pg, store_pg_by_fold, 1, p);
		break;
	}
	case STORE_HISTORY: {
		const char *p[] = { req->fold, STORE_PG_INT(b[0], req->n) };
		rc = store_pg_query(pg, store_pg_by_fold, 1, p);
		if (rc == 0)
			rc = store_pg_query(pg, store_pg_history, 2, p);
		break;
	}
	case STORE_TOP: {
		const char *p[] = { STORE_PG_INT(b[0], req->n) };
		rc = store_pg_query(pg, store_pg_top, 1, p);
		break;
	}
	}
	if (rc == 0 && PQpipelineSync(pg->conn) == 0)
		rc = -1;
	return (rc);
}

/* A record's lock and its write, the ratings as given (or computed). */
static int
store_pg_send_record(struct store_pg *pg, struct store_req *req)
{
	const struct store_game	*g = &req->game;
	char			 b[16][32];
	char			 mark[2] = { g->result, '\0' };
	const char		*l[] = { STORE_PG_INT(b[0], g->x.id),
				    STORE_PG_INT(b[1], g->o.id) };
	const char		*p[] = { g->match,
				    STORE_PG_INT(b[2], g->number),
				    b[0], b[1], mark, g->ended, g->moves,
				    STORE_PG_INT(b[3], g->at),
				    STORE_PG_DBL(b[4], g->x.before),
				    STORE_PG_DBL(b[5], g->x.rating),
				    STORE_PG_DBL(b[6], g->o.before),
				    STORE_PG_DBL(b[7], g->o.rating),
				    STORE_PG_DBL(b[8], g->x.rd),
				    STORE_PG_DBL(b[9], g->x.volatility),
				    STORE_PG_DBL(b[10], g->o.rd),
				    STORE_PG_DBL(b[11], g->o.volatility) };

	if (req->rate == NULL && store_pg_query(pg, store_pg_lock, 2, l) == -1)
		return (-1);
	return (store_pg_query(pg, store_pg_record, 16, p));
}

/*
 * A rated record's first trip answered (its sync): the ratings computed
 * from the accounts it locked, then the write and COMMIT; or ROLLBACK
 * (an error, a side missing, the game there already, not rated).  A
 * transaction left open after the second trip is rolled back in a third.
 * 1: the request goes on (another trip sent), 0: it is done.
 */
static int
store_pg_rated(struct store_pg *pg, struct store_req *req)
{
	int	rc, open = PQtransactionStatus(pg->conn) != PQTRANS_IDLE;

	if (req->phase == 2 || (req->phase == 1 && !open)) {
		pg->held = NULL;
		return (0);
	}
	if (req->phase == 0 && req->res.err == STORE_OK && !req->there) {
		if (req->found != 3) {
			req->res.err = STORE_ENOTFOUND;
			snprintf(req->why, sizeof req->why, "no such account");
		} else if (req->rate(&req->acc[0], &req->acc[1],
		    &req->game) == -1) {
			req->res.err = STORE_ENOTFOUND;
			snprintf(req->why, sizeof req->why, "not rated");
		}
	}
	if (req->phase == 0 && req->res.err == STORE_OK && !req->there) {
		req->phase = 1;
		rc = store_pg_send_record(pg, req);
		if (rc == 0)
			rc = store_pg_query(pg, "COMMIT", 0, NULL);
	} else {
		req->phase = 2;
		rc = store_pg_query(pg, "ROLLBACK", 0, NULL);
	}
	if (rc == 0 && PQpipelineSync(pg->conn) == 0)
		rc = -1;
	if (rc == -1) {
		store_pg_down(pg, STORE_EDOWN, PQerrorMessage(pg->conn));
		return (1);
	}
	store_pg_flush(pg);
	return (1);
}

/* Send what libpq holds; watch for writing while some is left. */
static void
store_pg_flush(struct store_pg *pg)
{
	int	rc;

	if ((rc = PQflush(pg->conn)) == -1) {
		store_pg_down(pg, STORE_EDOWN, PQerrorMessage(pg->conn));
		return;
	}
	store_pg_watch(pg, rc == 1 ? EV_READ | EV_WRITE : EV_READ);
}

/* Answers came: each result to the request at the head, in order. */
static void
store_pg_read(struct store_pg *pg)
{
	PGresult	*r;
	int		 nulls = 0;

	if (PQconsumeInput(pg->conn) == 0) {
		store_pg_down(pg, STORE_EDOWN, PQerrorMessage(pg->conn));
		return;
	}
	while (pg->conn != NULL && pg->nsent > 0 && !PQisBusy(pg->conn) &&
	    nulls < 2) {
		if ((r = PQgetResult(pg->conn)) == NULL) {
			nulls++;	/* a statement's end */
			continue;
		}
		nulls = 0;
		store_pg_result(pg, r);
		PQclear(r);
	}
	if (pg->conn == NULL)
		return;		/* down: a rated record's trip not sent */
	if (PQstatus(pg->conn) == CONNECTION_BAD) {
		store_pg_down(pg, STORE_EDOWN, PQerrorMessage(pg->conn));
		return;
	}
	store_pg_send_todo(pg);
	store_pg_arm(pg);
}

/* One result of the request at the head of the pipeline. */
static void
store_pg_result(struct store_pg *pg, PGresult *r)
{
	struct store_req	*req = TAILQ_FIRST(&pg->sent);

	switch (PQresultStatus(r)) {
	case PGRES_PIPELINE_SYNC:
		pg->stmt = 0;
		if (req->rate != NULL && req->op == STORE_RECORD &&
		    store_pg_rated(pg, req))
			return;
		TAILQ_REMOVE(&pg->sent, req, entry);
		pg->nsent--;
		store_pg_finish(pg, req);
		return;
	case PGRES_TUPLES_OK:
	case PGRES_COMMAND_OK:
		if (req->res.err == STORE_OK)
			store_pg_rows(req, pg->stmt, r);
		break;
	case PGRES_PIPELINE_ABORTED:
		break;
	default:
		store_pg_error(req, r);
		break;
	}
	pg->stmt++;
}

/* What a statement's error means for the request. */
static void
store_pg_error(struct store_req *req, const PGresult *r)
{
	const char	*state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
	const char	*msg = PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY);

	if (state == NULL)
		state = "";
	if (strcmp(state, "53100") == 0)
		req->res.err = STORE_EFULL;
	else if (strcmp(state, "25006") == 0 ||
	    strncmp(state, "58", 2) == 0)
		req->res.err = STORE_EWRITE;
	else if (strcmp(state, "57014") == 0 || strcmp(state, "55P03") == 0 ||
	    strcmp(state, "40P01") == 0 || strcmp(state, "40001") == 0)
		req->res.err = STORE_EBUSY;
	else if (strncmp(state, "08", 2) == 0 || strncmp(state, "57P", 3) == 0)
		req->res.err = STORE_EDOWN;
	else
		req->res.err = STORE_EDB;
	snprintf(req->why, sizeof req->why, "%s (SQLSTATE %s)",
	    msg != NULL ? msg : PQresultErrorMessage(r), state);
	req->why[strcspn(req->why, "\n")] = '\0';
}

/* Statement stmt of a request answered rows: its result filled. */
static void
store_pg_rows(struct store_req *req, int stmt, const PGresult *r)
{
	int	i, n = PQntuples(r);

	switch (req->op) {
	case STORE_RECORD:
		if (req->rate != NULL) {
			store_pg_rated_rows(req, stmt, r);
			return;
		}
		if (stmt == 1 && n == 1)
			req->res.written = atoi(PQgetvalue(r, 0, 0)) == 1;
		if (req->res.written)
			req->res.game = req->game;
		return;
	case STORE_TOP:
		if ((req->res.top = calloc((size_t)n + 1,
		    sizeof *req->res.top)) == NULL) {
			req->res.err = STORE_EDB;
			snprintf(req->why, sizeof req->why, "out of memory");
			return;
		}
		for (i = 0; i < n; i++)
			store_pg_account(r, i, &req->res.top[i]);
		req->res.ntop = (size_t)n;
		return;
	case STORE_HISTORY:
		if (stmt == 1) {
			if ((req->res.games = calloc((size_t)n + 1,
			    sizeof *req->res.games)) == NULL) {
				req->res.err = STORE_EDB;
				snprintf(req->why, sizeof req->why,
				    "out of memory");
				return;
			}
			for (i = 0; i < n; i++)
				store_pg_game(r, i, &req->res.games[i]);
			req->res.ngames = (size_t)n;
			return;
		}
		break;
	default:
		break;
	}
	if (n == 0) {
		req->res.err = req->op == STORE_REGISTER ? STORE_ETAKEN :
		    STORE_ENOTFOUND;
		snprintf(req->why, sizeof req->why, "%s",
		    req->op == STORE_REGISTER ? "the name is registered" :
		    "no such account");
		return;
	}
	store_pg_account(r, 0, &req->res.account);
}

/*
 * A rated record's rows: its accounts locked and whether the game is
 * there (first trip), whether it was written (second).
 */
static void
store_pg_rated_rows(struct store_req *req, int stmt, const PGresult *r)
{
	struct store_account	acc;
	int			i, n = PQntuples(r);

	if (req->phase == 0 && stmt == 1) {
		for (i = 0; i < n; i++) {
			store_pg_account(r, i, &acc);
			if (acc.id == req->game.x.id) {
				req->acc[0] = acc;
				req->found |= 1;
			} else if (acc.id == req->game.o.id) {
				req->acc[1] = acc;
				req->found |= 2;
			}
		}
	} else if (req->phase == 0 && stmt == 2 && n == 1)
		req->there = atoi(PQgetvalue(r, 0, 0)) != 0;
	else if (req->phase == 1 && stmt == 0 && n == 1 &&
	    atoi(PQgetvalue(r, 0, 0)) == 1) {
		req->res.written = 1;
		req->res.game = req->game;
	}
}

/* An account's columns (STORE_PG_ACCOUNT) of row i. */
static void
store_pg_account(const PGresult *r, int i, struct store_account *a)
{
	a->id = strtoll(PQgetvalue(r, i, 0), NULL, 10);
	snprintf(a->name, sizeof a->name, "%s", PQgetvalue(r, i, 1));
	a->rating = strtod(PQgetvalue(r, i, 2), NULL);
	a->rd = strtod(PQgetvalue(r, i, 3), NULL);
	a->volatility = strtod(PQgetvalue(r, i, 4), NULL);
	a->last_game = strtoll(PQgetvalue(r, i, 5), NULL, 10);
	a->created = strtoll(PQgetvalue(r, i, 6), NULL, 10);
	a->games = atoi(PQgetvalue(r, i, 7));
	a->wins = atoi(PQgetvalue(r, i, 8));
	a->losses = atoi(PQgetvalue(r, i, 9));
	a->ties = atoi(PQgetvalue(r, i, 10));
}

/* A game of a history (store_pg_history's columns) of row i. */
static void
store_pg_game(const PGresult *r, int i, struct store_game *g)
{
	snprintf(g->match, sizeof g->match, "%s", PQgetvalue(r, i, 0));
	g->number = atoi(PQgetvalue(r, i, 1));
	g->x.id = strtoll(PQgetvalue(r, i, 2), NULL, 10);
	g->o.id = strtoll(PQgetvalue(r, i, 3), NULL, 10);
	snprintf(g->x.name, sizeof g->x.name, "%s", PQgetvalue(r, i, 4));
	snprintf(g->o.name, sizeof g->o.name, "%s", PQgetvalue(r, i, 5));
	g->result = PQgetvalue(r, i, 6)[0];
	snprintf(g->ended, sizeof g->ended, "%s", PQgetvalue(r, i, 7));
	snprintf(g->moves, sizeof g->moves, "%s", PQgetvalue(r, i, 8));
	g->at = strtoll(PQgetvalue(r, i, 9), NULL, 10);
	g->x.before = strtod(PQgetvalue(r, i, 10), NULL);
	g->x.rating = strtod(PQgetvalue(r, i, 11), NULL);
	g->o.before = strtod(PQgetvalue(r, i, 12), NULL);
	g->o.rating = strtod(PQgetvalue(r, i, 13), NULL);
}

/* A request answered: its callback comes from the loop, in order. */
static void
store_pg_finish(struct store_pg *pg, struct store_req *req)
{
	TAILQ_INSERT_TAIL(&pg->done, req, entry);
	event_active(pg->kick, EV_TIMEOUT, 0);
}

/* Call back the requests answered, in order. */
static void
store_pg_kick_cb(int fd, short what, void *arg)
{
	struct store_pg		*pg = arg;
	struct store_req	*req;

	(void)fd;
	(void)what;
	while ((req = TAILQ_FIRST(&pg->done)) != NULL) {
		TAILQ_REMOVE(&pg->done, req, entry);
		pg->pending--;
		req->cb(&req->res, req->arg);
		store_pg_req_free(req);
	}
}

/* Free a request and what its result holds (as store.c does). */
static void
store_pg_req_free(struct store_req *req)
{
	free(req->res.games);
	free(req->res.top);
	free(req);
}

/* A request: sent now, queued while connecting, or failed while down. */
static int
store_pg_submit(void *arg, struct store_req *req)
{
	struct store_pg	*pg = arg;

	pg->pending++;
	req->deadline = store_pg_now() + STORE_PG_DEADLINE_MS;
	if (pg->state == STORE_PG_DOWN) {
		req->res.err = STORE_EDOWN;
		snprintf(req->why, sizeof req->why, "%s", pg->why);
		store_pg_finish(pg, req);
		return (0);
	}
	TAILQ_INSERT_TAIL(&pg->todo, req, entry);
	store_pg_send_todo(pg);
	store_pg_arm(pg);
	return (0);
}

/* Requests whose callback is still to come. */
static size_t
store_pg_pending(void *arg)
{
	return (((struct store_pg *)arg)->pending);
}

/* What a log line may say of the database. */
static const char *
store_pg_name(void *arg)
{
	return (((struct store_pg *)arg)->name);
}

/*
 * Close the connection and free all, calling nothing: a request still in
 * the pipeline may or may not commit (accounts.c waits for them first).
 */
static void
store_pg_free(void *arg)
{
	struct store_pg		*pg = arg;
	struct store_reqs	*qs[] = { &pg->todo, &pg->sent, &pg->done };
	struct store_req	*req;
	size_t			 i;

	if (pg->conn != NULL)
		PQfinish(pg->conn);
	pg->conn = NULL;
	store_pg_watch(pg, 0);
	for (i = 0; i < sizeof qs / sizeof qs[0]; i++) {
		while ((req = TAILQ_FIRST(qs[i])) != NULL) {
			TAILQ_REMOVE(qs[i], req, entry);
			store_pg_req_free(req);
		}
	}
	event_free(pg->timer);
	event_free(pg->kick);
	free(pg->conninfo);
	free(pg);
}

const struct store_ops store_pg_ops = {
	.open = store_pg_open,
	.submit = store_pg_submit,
	.pending = store_pg_pending,
	.name = store_pg_name,
	.free = store_pg_free
};
