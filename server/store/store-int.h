/*
 * store-int.h -- what store.c (the queue, the thread, the loop's side),
 * store-db.c (SQLite, on the thread) and store-pg.c (PostgreSQL, on the
 * loop) share; private to server/store/.
 */
#ifndef STORE_INT_H
#define STORE_INT_H

#include <sys/queue.h>

#include "store.h"

struct sqlite3;

/* One request: its arguments copied, then its result. */
struct store_req {
	TAILQ_ENTRY(store_req)	 entry;
	enum store_op		 op;
	store_cb		 cb;
	void			*arg;

	char			 name[STORE_NAME_MAX + 1];
	char			 fold[STORE_FOLD_MAX + 1];
	uint8_t			 hash[STORE_HASH_LEN];
	int64_t			 id;		/* rekey, forget */
	int64_t			 now;		/* register */
	long			 deadline;	/* store-pg.c: ms, monotonic */
	int			 n;		/* history, top */
	struct store_game	 game;		/* record */
	store_rate_fn		 rate;		/* record: rated inside */
	int			 phase;		/* store-pg.c: rated record's
						   round trip (0, 1, 2) */
	struct store_account	 acc[2];	/* ... its accounts locked */
	int			 found;		/* ... a bit per side */
	int			 there;		/* ... the game is, already */

	struct store_result	 res;
	char			 why[256];
};
TAILQ_HEAD(store_reqs, store_req);

/*
 * A back end on the loop (PostgreSQL): store.c hands it each request, and
 * it calls each back in order from the loop, then frees it.
 */
struct store_ops {
	void		*(*open)(struct event_base *, const char *, char *,
			    size_t);
	int		 (*submit)(void *, struct store_req *);
	size_t		 (*pending)(void *);
	const char	*(*name)(void *);
	void		 (*free)(void *);
};

extern const struct store_ops store_pg_ops;
int		 store_pg_match(const char *);

struct sqlite3	*store_db_open(const char *, char *, size_t);
void		 store_db_close(struct sqlite3 *);
void		 store_db_run(struct sqlite3 *, struct store_req *);

#endif /* STORE_INT_H */
