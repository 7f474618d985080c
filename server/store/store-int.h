/*
 * store-int.h -- what store.c (the queue, the thread, the loop's side) and
 * store-db.c (SQLite, on the thread) share; private to server/store/.
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
	int			 n;		/* history, top */
	struct store_game	 game;		/* record */

	struct store_result	 res;
	char			 why[256];
};
TAILQ_HEAD(store_reqs, store_req);

struct sqlite3	*store_db_open(const char *, char *, size_t);
void		 store_db_close(struct sqlite3 *);
void		 store_db_run(struct sqlite3 *, struct store_req *);

#endif /* STORE_INT_H */
