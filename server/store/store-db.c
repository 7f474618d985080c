/*
 * store-db.c -- the store's SQLite, run on its thread only: the file
 * opened and checked, its schema made or migrated (PRAGMA user_version),
 * and each request as one transaction.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "store-int.h"

/* The schema, one step per version: step i takes user_version i to i+1. */
static const char *store_db_steps[STORE_SCHEMA] = {
	"CREATE TABLE accounts ("
	" id INTEGER PRIMARY KEY AUTOINCREMENT,"
	" name TEXT NOT NULL,"
	" fold TEXT NOT NULL UNIQUE,"		/* the name's folded key */
	" key_hash BLOB NOT NULL UNIQUE,"	/* SHA-256 of its key */
	" rating REAL NOT NULL,"
	" rd REAL NOT NULL,"
	" volatility REAL NOT NULL,"
	" last_game INTEGER NOT NULL DEFAULT 0,"	/* Unix seconds, UTC */
	" games INTEGER NOT NULL DEFAULT 0,"
	" wins INTEGER NOT NULL DEFAULT 0,"
	" losses INTEGER NOT NULL DEFAULT 0,"
	" ties INTEGER NOT NULL DEFAULT 0,"
	" created INTEGER NOT NULL"
	") STRICT;"
	"CREATE INDEX accounts_top ON accounts (rating DESC) WHERE rd < 110.0;"
	"CREATE TABLE games ("
	" match TEXT NOT NULL,"
	" number INTEGER NOT NULL,"
	" x_id INTEGER REFERENCES accounts (id) ON DELETE SET NULL,"
	" o_id INTEGER REFERENCES accounts (id) ON DELETE SET NULL,"
	" result TEXT NOT NULL CHECK (result IN ('X', 'O', 'T')),"
	" ended TEXT NOT NULL,"
	" moves TEXT NOT NULL,"
	" at INTEGER NOT NULL,"			/* Unix seconds, UTC */
	" x_before REAL NOT NULL, x_after REAL NOT NULL,"
	" o_before REAL NOT NULL, o_after REAL NOT NULL,"
	" PRIMARY KEY (match, number)"
	") STRICT;"
	"CREATE INDEX games_x ON games (x_id, at);"
	"CREATE INDEX games_o ON games (o_id, at);"
};

#define STORE_DB_ACCOUNT \
	"id, name, rating, rd, volatility, last_game, created, games, wins," \
	" losses, ties"

static int	 store_db_int(sqlite3 *, const char *, int *);
static int	 store_db_check(sqlite3 *, const char *, char *, size_t);
static int	 store_db_migrate(sqlite3 *, int, char *, size_t);
static void	 store_db_error(sqlite3 *, int, struct store_req *);
static int	 store_db_account(sqlite3 *, struct store_req *,
		     const char *, int);
static int	 store_db_register(sqlite3 *, struct store_req *);
static int	 store_db_rekey(sqlite3 *, struct store_req *);
static int	 store_db_forget(sqlite3 *, struct store_req *);
static int	 store_db_rate(sqlite3 *, struct store_req *, int *);
static int	 store_db_record(sqlite3 *, struct store_req *);
static int	 store_db_side(sqlite3 *, const struct store_game *,
		     const struct store_side *, char);
static int	 store_db_history(sqlite3 *, struct store_req *);
static int	 store_db_top(sqlite3 *, struct store_req *);
static void	 store_db_row(sqlite3_stmt *, struct store_account *);

/* Read one integer a statement gives (a PRAGMA): an SQLite code. */
static int
store_db_int(sqlite3 *db, const char *sql, int *out)
{
	sqlite3_stmt	*st;
	int		 rc;

	if ((rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL)) != SQLITE_OK)
		return (rc);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		*out = sqlite3_column_int(st, 0);
		rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	return (rc);
}

/* Open path, check it is tttd's and bring its schema up to date. */
sqlite3 *
store_db_open(const char *path, char *why, size_t len)
{
	sqlite3	*db;
	int	 rc, version;

	rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK) {
		snprintf(why, len, "%s: cannot be opened: %s", path,
		    db != NULL ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
		sqlite3_close(db);
		return (NULL);
	}
	sqlite3_extended_result_codes(db, 1);
	sqlite3_busy_timeout(db, 5000);
	if ((version = store_db_check(db, path, why, len)) == -1 ||
	    store_db_migrate(db, version, why, len) == -1) {
		sqlite3_close(db);
		return (NULL);
	}
	return (db);
}

/* Check the file is tttd's, in WAL mode: its schema version, or -1. */
static int
store_db_check(sqlite3 *db, const char *path, char *why, size_t len)
{
	sqlite3_stmt	*st;
	int		 app = 0, version = 0, objects = 0;
	const char	*mode = "";

	if (sqlite3_db_readonly(db, "main") == 1) {
		snprintf(why, len, "%s: cannot be written", path);
		return (-1);
	}
	if (store_db_int(db, "PRAGMA application_id", &app) != SQLITE_OK ||
	    store_db_int(db, "PRAGMA user_version", &version) != SQLITE_OK ||
	    store_db_int(db, "SELECT count(*) FROM sqlite_schema",
	    &objects) != SQLITE_OK) {
		snprintf(why, len, "%s: not a tttd database: %s", path,
		    sqlite3_errmsg(db));
		return (-1);
	}
	if (app != STORE_APP_ID && (app != 0 || objects != 0 || version != 0)) {
		snprintf(why, len, "%s: not a tttd database (another "
		    "application's SQLite file: application_id %d, %d tables "
		    "and indexes)", path, app, objects);
		return (-1);
	}
	if (version > STORE_SCHEMA) {
		snprintf(why, len, "%s: its schema (version %d) is newer than "
		    "this tttd's (version %d)", path, version, STORE_SCHEMA);
		return (-1);
	}
	if (sqlite3_prepare_v2(db, "PRAGMA journal_mode = WAL", -1, &st,
	    NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		mode = (const char *)sqlite3_column_text(st, 0);
	if (mode == NULL || strcmp(mode, "wal") != 0) {
		snprintf(why, len, "%s: cannot use WAL mode: %s", path,
		    sqlite3_errmsg(db));
		sqlite3_finalize(st);
		return (-1);
	}
	sqlite3_finalize(st);
	if (sqlite3_exec(db, "PRAGMA synchronous = FULL;"
	    "PRAGMA foreign_keys = ON", NULL, NULL, NULL) != SQLITE_OK) {
		snprintf(why, len, "%s: %s", path, sqlite3_errmsg(db));
		return (-1);
	}
	return (version);
}

/* Take the schema from version to STORE_SCHEMA, in one transaction. */
static int
store_db_migrate(sqlite3 *db, int version, char *why, size_t len)
{
	char	sql[128];

	if (version == STORE_SCHEMA)
		return (0);
	/* Read again under the write lock: another tttd may have migrated. */
	if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK ||
	    store_db_int(db, "PRAGMA user_version", &version) != SQLITE_OK)
		goto fail;
	if (version > STORE_SCHEMA) {
		snprintf(why, len, "its schema (version %d) is newer than this "
		    "tttd's (version %d)", version, STORE_SCHEMA);
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
		return (-1);
	}
	for (; version < STORE_SCHEMA; version++) {
		if (sqlite3_exec(db, store_db_steps[version], NULL, NULL,
		    NULL) != SQLITE_OK)
			goto fail;
	}
	snprintf(sql, sizeof sql, "PRAGMA user_version = %d;"
	    "PRAGMA application_id = %d", STORE_SCHEMA, STORE_APP_ID);
	if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
		goto fail;
	return (0);
fail:
	snprintf(why, len, "the schema's migration to version %d failed: %s",
	    STORE_SCHEMA, sqlite3_errmsg(db));
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	return (-1);
}

/* Close the database (its WAL checkpointed). */
void
store_db_close(sqlite3 *db)
{
	sqlite3_close(db);
}

/* Say what an SQLite error means for the request. */
static void
store_db_error(sqlite3 *db, int rc, struct store_req *req)
{
	switch (rc & 0xff) {
	case SQLITE_FULL:
		req->res.err = STORE_EFULL;
		break;
	case SQLITE_IOERR:
	case SQLITE_READONLY:
	case SQLITE_CANTOPEN:
	case SQLITE_PERM:
		req->res.err = STORE_EWRITE;
		break;
	case SQLITE_CORRUPT:
	case SQLITE_NOTADB:
		req->res.err = STORE_ECORRUPT;
		break;
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		req->res.err = STORE_EBUSY;
		break;
	default:
		req->res.err = STORE_EDB;
		break;
	}
	if (req->res.err == STORE_ECORRUPT)
		snprintf(req->why, sizeof req->why, "%s (run PRAGMA "
		    "integrity_check)", sqlite3_errmsg(db));
	else
		snprintf(req->why, sizeof req->why, "%s", sqlite3_errmsg(db));
}

/* Run one request as one transaction; its result says how it went. */
void
store_db_run(sqlite3 *db, struct store_req *req)
{
	int	rc;

	if ((rc = sqlite3_exec(db, req->op == STORE_RATING ||
	    req->op == STORE_LOGIN || req->op == STORE_HISTORY ||
	    req->op == STORE_TOP ? "BEGIN" : "BEGIN IMMEDIATE", NULL, NULL,
	    NULL)) != SQLITE_OK) {
		store_db_error(db, rc, req);
		return;
	}
	switch (req->op) {
	case STORE_REGISTER:
		rc = store_db_register(db, req);
		break;
	case STORE_LOGIN:
		rc = store_db_account(db, req, "key_hash", 0);
		break;
	case STORE_REKEY:
		rc = store_db_rekey(db, req);
		break;
	case STORE_FORGET:
		rc = store_db_forget(db, req);
		break;
	case STORE_RECORD:
		rc = store_db_record(db, req);
		break;
	case STORE_RATING:
		rc = store_db_account(db, req, "fold", 0);
		break;
	case STORE_HISTORY:
		rc = store_db_history(db, req);
		break;
	case STORE_TOP:
		rc = store_db_top(db, req);
		break;
	}
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
	if (rc != SQLITE_OK) {
		store_db_error(db, rc, req);
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	}
	/*
	 * A page found corrupt is not kept in the cache: read again from
	 * the disk it may be right (a passing fault, a file put back).
	 */
	if (req->res.err == STORE_ECORRUPT)
		sqlite3_db_release_memory(db);
}

/* An account's columns (STORE_DB_ACCOUNT) into a. */
static void
store_db_row(sqlite3_stmt *st, struct store_account *a)
{
	a->id = sqlite3_column_int64(st, 0);
	snprintf(a->name, sizeof a->name, "%s",
	    (const char *)sqlite3_column_text(st, 1));
	a->rating = sqlite3_column_double(st, 2);
	a->rd = sqlite3_column_double(st, 3);
	a->volatility = sqlite3_column_double(st, 4);
	a->last_game = sqlite3_column_int64(st, 5);
	a->created = sqlite3_column_int64(st, 6);
	a->games = sqlite3_column_int(st, 7);
	a->wins = sqlite3_column_int(st, 8);
	a->losses = sqlite3_column_int(st, 9);
	a->ties = sqlite3_column_int(st, 10);
}

/* The account by a column (key_hash, fold, or id), into the result. */
static int
store_db_account(sqlite3 *db, struct store_req *req, const char *column,
    int byid)
{
	sqlite3_stmt	*st;
	char		 sql[256];
	int		 rc;

	snprintf(sql, sizeof sql, "SELECT " STORE_DB_ACCOUNT
	    " FROM accounts WHERE %s = ?", column);
	if ((rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL)) != SQLITE_OK)
		return (rc);
	if (byid)
		sqlite3_bind_int64(st, 1, req->id);
	else if (strcmp(column, "key_hash") == 0)
		sqlite3_bind_blob(st, 1, req->hash, STORE_HASH_LEN,
		    SQLITE_STATIC);
	else
		sqlite3_bind_text(st, 1, req->fold, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		store_db_row(st, &req->res.account);
		rc = SQLITE_OK;
	} else if (rc == SQLITE_DONE) {
		req->res.err = STORE_ENOTFOUND;
		snprintf(req->why, sizeof req->why, "no such account");
		rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	return (rc);
}

/* A new account, unless its name (folded) is taken. */
static int
store_db_register(sqlite3 *db, struct store_req *req)
{
	sqlite3_stmt	*st;
	int		 rc;

	rc = sqlite3_prepare_v2(db, "INSERT INTO accounts (name, fold,"
	    " key_hash, rating, rd, volatility, created)"
	    " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (fold) DO NOTHING", -1,
	    &st, NULL);
	if (rc != SQLITE_OK)
		return (rc);
	sqlite3_bind_text(st, 1, req->name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, req->fold, -1, SQLITE_STATIC);
	sqlite3_bind_blob(st, 3, req->hash, STORE_HASH_LEN, SQLITE_STATIC);
	sqlite3_bind_double(st, 4, STORE_NEW_RATING);
	sqlite3_bind_double(st, 5, STORE_NEW_RD);
	sqlite3_bind_double(st, 6, STORE_NEW_VOLATILITY);
	sqlite3_bind_int64(st, 7, req->now);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return (rc);
	if (sqlite3_changes(db) == 0) {
		req->res.err = STORE_ETAKEN;
		snprintf(req->why, sizeof req->why, "the name is registered");
		return (SQLITE_OK);
	}
	req->id = sqlite3_last_insert_rowid(db);
	return (store_db_account(db, req, "id", 1));
}

/* A new key's hash for an account. */
static int
store_db_rekey(sqlite3 *db, struct store_req *req)
{
	sqlite3_stmt	*st;
	int		 rc;

	rc = sqlite3_prepare_v2(db, "UPDATE accounts SET key_hash = ?"
	    " WHERE id = ?", -1, &st, NULL);
	if (rc != SQLITE_OK)
		return (rc);
	sqlite3_bind_blob(st, 1, req->hash, STORE_HASH_LEN, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, req->id);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return (rc);
	return (store_db_account(db, req, "id", 1));
}

/* An account deleted: its games keep a NULL where it was. */
static int
store_db_forget(sqlite3 *db, struct store_req *req)
{
	sqlite3_stmt	*st;
	int		 rc;

	if ((rc = store_db_account(db, req, "id", 1)) != SQLITE_OK ||
	    req->res.err != STORE_OK)
		return (rc);
	rc = sqlite3_prepare_v2(db, "DELETE FROM accounts WHERE id = ?", -1,
	    &st, NULL);
	if (rc != SQLITE_OK)
		return (rc);
	sqlite3_bind_int64(st, 1, req->id);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return (rc == SQLITE_DONE ? SQLITE_OK : rc);
}

/*
 * A rated record's ratings from its accounts as this transaction reads
 * them (BEGIN IMMEDIATE: nobody writes meanwhile): SQLITE_OK (there set
 * when the game is there already), or an error (a side not found:
 * ENOTFOUND).
 */
static int
store_db_rate(sqlite3 *db, struct store_req *req, int *there)
{
	struct store_game	*g = &req->game;
	struct store_account	 acc[2];
	sqlite3_stmt		*st;
	int64_t			 ids[2] = { g->x.id, g->o.id };
	int			 rc, i;

	rc = sqlite3_prepare_v2(db, "SELECT 1 FROM games WHERE match = ?"
	    " AND number = ?", -1, &st, NULL);
	if (rc != SQLITE_OK)
		return (rc);
	sqlite3_bind_text(st, 1, g->match, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 2, g->number);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if ((*there = rc == SQLITE_ROW))
		return (SQLITE_OK);
	if (rc != SQLITE_DONE)
		return (rc);
	for (i = 0; i < 2; i++) {
		req->id = ids[i];
		if ((rc = store_db_account(db, req, "id", 1)) != SQLITE_OK ||
		    req->res.err != STORE_OK)
			return (rc);
		acc[i] = req->res.account;
	}
	memset(&req->res.account, 0, sizeof req->res.account);
	if (req->rate(&acc[0], &acc[1], g) == -1) {
		req->res.err = STORE_ENOTFOUND;
		snprintf(req->why, sizeof req->why, "not rated");
	}
	return (SQLITE_OK);
}

/* The game, once; then both players' ratings and counts. */
static int
store_db_record(sqlite3 *db, struct store_req *req)
{
	const struct store_game	*g = &req->game;
	sqlite3_stmt		*st;
	char			 result[2] = { g->result, '\0' };
	int			 rc, there = 0;

	if (req->rate != NULL && ((rc = store_db_rate(db, req, &there)) !=
	    SQLITE_OK || req->res.err != STORE_OK || there))
		return (rc);
	rc = sqlite3_prepare_v2(db, "INSERT INTO games (match, number, x_id,"
	    " o_id, result, ended, moves, at, x_before, x_after, o_before,"
	    " o_after) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
	    " ON CONFLICT (match, number) DO NOTHING", -1, &st, NULL);
	if (rc != SQLITE_OK)
		return (rc);
	sqlite3_bind_text(st, 1, g->match, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 2, g->number);
	sqlite3_bind_int64(st, 3, g->x.id);
	sqlite3_bind_int64(st, 4, g->o.id);
	sqlite3_bind_text(st, 5, result, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, g->ended, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 7, g->moves, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 8, g->at);
	sqlite3_bind_double(st, 9, g->x.before);
	sqlite3_bind_double(st, 10, g->x.rating);
	sqlite3_bind_double(st, 11, g->o.before);
	sqlite3_bind_double(st, 12, g->o.rating);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return (rc);
	if (sqlite3_changes(db) == 0)
		return (SQLITE_OK);	/* written before: nothing changes */
	req->res.written = 1;
	req->res.game = *g;
	if ((rc = store_db_side(db, g, &g->x, 'X')) != SQLITE_OK)
		return (rc);
	return (store_db_side(db, g, &g->o, 'O'));
}

/* One player's new rating and counts after game g, where it was mark. */
static int
store_db_side(sqlite3 *db, const struct store_game *g,
    const struct store_side *s, char mark)
{
	sqlite3_stmt	*st;
	int		 rc;

	rc = sqlite3_prepare_v2(db, "UPDATE accounts SET rating = ?, rd = ?,"
	    " volatility = ?, last_game = ?, games = games + 1,"
	    " wins = wins + ?, losses = losses + ?, ties = ties + ?"
	    " WHERE id = ?", -1, &st, NULL);
	if (rc != SQLITE_OK)
		return (rc);
	sqlite3_bind_double(st, 1, s->rating);
	sqlite3_bind_double(st, 2, s->rd);
	sqlite3_bind_double(st, 3, s->volatility);
	sqlite3_bind_int64(st, 4, g->at);
	sqlite3_bind_int(st, 5, g->result == mark);
	sqlite3_bind_int(st, 6, g->result != mark && g->result != 'T');
	sqlite3_bind_int(st, 7, g->result == 'T');
	sqlite3_bind_int64(st, 8, s->id);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return (rc == SQLITE_DONE ? SQLITE_OK : rc);
}

/* A name's last n games, newest first, names of the forgotten hidden. */
static int
store_db_history(sqlite3 *db, struct store_req *req)
{
	struct store_game	*g;
	sqlite3_stmt		*st;
	int			 rc;

	if ((rc = store_db_account(db, req, "fold", 0)) != SQLITE_OK ||
	    req->res.err != STORE_OK)
		return (rc);
	if ((req->res.games = calloc(req->n, sizeof *g)) == NULL)
		return (SQLITE_NOMEM);
	rc = sqlite3_prepare_v2(db, "SELECT g.match, g.number, g.x_id, g.o_id,"
	    " coalesce(x.name, '" STORE_DELETED "'),"
	    " coalesce(o.name, '" STORE_DELETED "'), g.result, g.ended,"
	    " g.moves, g.at, g.x_before, g.x_after, g.o_before, g.o_after"
	    " FROM games AS g LEFT JOIN accounts AS x ON x.id = g.x_id"
	    " LEFT JOIN accounts AS o ON o.id = g.o_id"
	    " WHERE g.x_id = ?1 OR g.o_id = ?1"
	    " ORDER BY g.at DESC, g.rowid DESC LIMIT ?2", -1, &st, NULL);
	if (rc != SQLITE_OK)
		return (rc);
	sqlite3_bind_int64(st, 1, req->res.account.id);
	sqlite3_bind_int(st, 2, req->n);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		g = &req->res.games[req->res.ngames++];
		snprintf(g->match, sizeof g->match, "%s",
		    (const char *)sqlite3_column_text(st, 0));
		g->number = sqlite3_column_int(st, 1);
		g->x.id = sqlite3_column_int64(st, 2);
		g->o.id = sqlite3_column_int64(st, 3);
		snprintf(g->x.name, sizeof g->x.name, "%s",
		    (const char *)sqlite3_column_text(st, 4));
		snprintf(g->o.name, sizeof g->o.name, "%s",
		    (const char *)sqlite3_column_text(st, 5));
		g->result = ((const char *)sqlite3_column_text(st, 6))[0];
		snprintf(g->ended, sizeof g->ended, "%s",
		    (const char *)sqlite3_column_text(st, 7));
		snprintf(g->moves, sizeof g->moves, "%s",
		    (const char *)sqlite3_column_text(st, 8));
		g->at = sqlite3_column_int64(st, 9);
		g->x.before = sqlite3_column_double(st, 10);
		g->x.rating = sqlite3_column_double(st, 11);
		g->o.before = sqlite3_column_double(st, 12);
		g->o.rating = sqlite3_column_double(st, 13);
	}
	sqlite3_finalize(st);
	return (rc == SQLITE_DONE ? SQLITE_OK : rc);
}

/* The n best accounts that are not provisional. */
static int
store_db_top(sqlite3 *db, struct store_req *req)
{
	sqlite3_stmt	*st;
	int		 rc;

	if ((req->res.top = calloc(req->n, sizeof *req->res.top)) == NULL)
		return (SQLITE_NOMEM);
	rc = sqlite3_prepare_v2(db, "SELECT " STORE_DB_ACCOUNT " FROM accounts"
	    " WHERE rd < 110.0 ORDER BY rating DESC, id LIMIT ?", -1, &st,
	    NULL);
	if (rc != SQLITE_OK)
		return (rc);
	sqlite3_bind_int(st, 1, req->n);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		store_db_row(st, &req->res.top[req->res.ntop++]);
	sqlite3_finalize(st);
	return (rc == SQLITE_DONE ? SQLITE_OK : rc);
}
