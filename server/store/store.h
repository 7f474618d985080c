/*
 * store.h -- the accounts, their ratings and their rated games, in SQLite
 * on a thread of its own, or in PostgreSQL on the loop (store-pg.c)
 * (docs/architecture.md, "Storage").
 *
 * The loop hands the store a request (its arguments copied) and goes on;
 * the store's thread runs it as one transaction and the loop gets its
 * result back, in the order asked, one callback each, on its own thread
 * (an eventfd the loop reads).  The loop never waits on the disk but in
 * store_open (which opens the file on the caller's thread, before the
 * loop runs) and store_free.  The thread starts with the first request.
 */
#ifndef STORE_H
#define STORE_H

#include <stddef.h>
#include <stdint.h>

struct event_base;
struct store;

#define STORE_SCHEMA		1	/* PRAGMA user_version written */
#define STORE_APP_ID		0x74747464	/* "tttd", PRAGMA application_id */
#define STORE_NAME_MAX		64	/* a name's bytes, at most */
#define STORE_FOLD_MAX		512	/* a name's folded key's bytes */
#define STORE_MATCH_MAX		64	/* a match id's bytes */
#define STORE_ENDED_MAX		16	/* how a game ended, a word */
#define STORE_MOVES_MAX		26	/* nine cells, joined by commas */
#define STORE_HASH_LEN		32	/* a key's SHA-256 */
#define STORE_LIST_MAX		100	/* history and top: n at most */
#define STORE_PROVISIONAL	110.0	/* provisional while rd >= this */
#define STORE_DELETED		"(deleted)"	/* a forgotten player's name */
#define STORE_NEW_RATING	1500.0	/* a new account's (lichess's) */
#define STORE_NEW_RD		500.0
#define STORE_NEW_VOLATILITY	0.09

/* A key: base32 of at least 128 random bits (RFC 4648's, lower case). */
#define STORE_KEY_RANDOM	16	/* random bytes in a key */
#define STORE_KEY_LEN		26	/* its characters */

/* What became of a request. */
enum store_err {
	STORE_OK = 0,
	STORE_ETAKEN,		/* register: the name is an account's */
	STORE_ENOTFOUND,	/* no such account (or key) */
	STORE_EFULL,		/* the disk is full: nothing written */
	STORE_EWRITE,		/* the file cannot be written (I/O, rights) */
	STORE_ECORRUPT,		/* a corrupt page: PRAGMA integrity_check */
	STORE_EBUSY,		/* locked by another process too long */
	STORE_EDOWN,		/* PostgreSQL: not reached, lost, or silent */
	STORE_EDB		/* any other error of the database */
};

enum store_op {
	STORE_REGISTER,
	STORE_LOGIN,
	STORE_REKEY,
	STORE_FORGET,
	STORE_RECORD,
	STORE_RATING,
	STORE_HISTORY,
	STORE_TOP
};

/* An account as stored. */
struct store_account {
	int64_t		id;
	char		name[STORE_NAME_MAX + 1];
	double		rating;
	double		rd;
	double		volatility;
	int64_t		last_game;	/* Unix seconds (UTC), 0: none */
	int64_t		created;	/* Unix seconds (UTC) */
	int		games;
	int		wins;
	int		losses;
	int		ties;
};

/* One player of a rated game: its rating before, and after. */
struct store_side {
	int64_t		id;		/* the account */
	char		name[STORE_NAME_MAX + 1];	/* read: or "(deleted)" */
	double		before;		/* its rating before the game */
	double		rating;		/* after */
	double		rd;		/* after (record only) */
	double		volatility;	/* after (record only) */
};

/* A rated game: written once, keyed by its match and number. */
struct store_game {
	char		match[STORE_MATCH_MAX + 1];
	int		number;		/* the game of the match, from 1 */
	struct store_side x;
	struct store_side o;
	char		result;		/* 'X', 'O', or 'T' for a tie */
	char		ended[STORE_ENDED_MAX + 1];	/* line, resign, time ... */
	char		moves[STORE_MOVES_MAX + 1];	/* "B2,A1,C3" */
	int64_t		at;		/* its end, Unix seconds (UTC) */
};

/*
 * A request's result, valid during its callback only.  register, login,
 * rekey and rating fill account; record says whether the game was
 * written now (1) or was there already (0: nothing changed), and the
 * game as written (game: its sides' ratings before and after); history
 * and top fill their lists, best or newest first.
 */
struct store_result {
	enum store_op		 op;
	enum store_err		 err;
	const char		*why;	/* err's text for a log line, or "" */
	struct store_account	 account;
	int			 written;
	struct store_game	 game;
	struct store_game	*games;
	size_t			 ngames;
	struct store_account	*top;
	size_t			 ntop;
};

typedef void (*store_cb)(const struct store_result *, void *);

/*
 * A rated game's new ratings, from its players' accounts (x's, o's) as
 * they are inside the record's transaction, locked: the game's sides
 * (before, rating, rd, volatility, name) filled, 0; -1: not rated
 * (nothing written).  Pure: SQLite's thread may call it.
 */
typedef int (*store_rate_fn)(const struct store_account *,
    const struct store_account *, struct store_game *);

/*
 * Open (or create, or migrate) the database at path, here, and read its
 * results on base (its thread starts with the first request); NULL with
 * the reason in why when the file cannot be opened, is not tttd's or is
 * of a newer schema.  A path that is a PostgreSQL connection string
 * (postgresql://, postgres:// or key=value words) is PostgreSQL's, on the
 * loop without a thread: NULL only when it does not parse; the database
 * is reached (and its schema made) in the background, its requests
 * failing STORE_EDOWN until then.
 */
struct store	*store_open(struct event_base *, const char *, char *, size_t);
/* The database for a log line: the file, or PostgreSQL's, no password. */
const char	*store_name(struct store *);
/*
 * Finish the requests queued (their writes land), stop the thread, free
 * all; no callback is called.  Not from within a callback.
 */
void		 store_free(struct store *);
/* Requests whose callback is still to come. */
size_t		 store_pending(struct store *);
/*
 * 1 when other hosts may share the database (PostgreSQL: an account's id
 * is the same on every node), 0 for a file of this host's (SQLite).
 */
int		 store_shared(struct store *);

/*
 * The requests: 0 when queued (its callback comes later, always), -1 when
 * an argument is out of bounds, memory is short or the thread cannot
 * start (no callback).  A name
 * is looked up by its folded key (the caller folds it, as NAME does); a
 * key is given as its hash (store_key_hash).  Each is one transaction.
 */
/* name, its folded key, the key's hash, now (Unix seconds): ETAKEN. */
int	store_register(struct store *, const char *, const char *,
	    const uint8_t *, int64_t, store_cb, void *);
/* A key's hash: its account, or ENOTFOUND. */
int	store_login(struct store *, const uint8_t *, store_cb, void *);
/* An account's id and its new key's hash: the old key is dead. */
int	store_rekey(struct store *, int64_t, const uint8_t *, store_cb,
	    void *);
/* An account's id: deleted, its name free, its games kept. */
int	store_forget(struct store *, int64_t, store_cb, void *);
/* A rated game and both players' new ratings: written once. */
int	store_record(struct store *, const struct store_game *, store_cb,
	    void *);
/*
 * A rated game (its sides' ids set) whose new ratings rate computes from
 * the accounts read, locked, in the record's own transaction: written
 * once, or nothing when the game is there already (written 0).
 */
int	store_record_rated(struct store *, const struct store_game *,
	    store_rate_fn, store_cb, void *);
/* A folded name: its account. */
int	store_rating(struct store *, const char *, store_cb, void *);
/* A folded name and n (1 to 100): its last n games, newest first. */
int	store_history(struct store *, const char *, int, store_cb, void *);
/* n (1 to 100): the best n accounts with rd < 110, best first. */
int	store_top(struct store *, int, store_cb, void *);

const char	*store_strerror(enum store_err);

/* A key from random bytes (store-key.c): its text, NUL-terminated. */
int	store_key_make(char *, size_t, const uint8_t *, size_t);
/* Whether a word has a key's shape (before it is hashed). */
int	store_key_valid(const char *);
/* A key's SHA-256, what the store keeps. */
void	store_key_hash(const char *, uint8_t *);

#endif /* STORE_H */
