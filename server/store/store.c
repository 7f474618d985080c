/*
 * store.c -- the store's queue and thread: the loop's requests in, under a
 * mutex and a condition variable; their results back, in order, through
 * an eventfd the loop reads, each to its callback on the loop's thread.
 */
#include <sys/eventfd.h>
#include <sys/queue.h>

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>

#include "store-int.h"

struct store {
	const struct store_ops	*ops;	/* a back end on the loop, or NULL */
	void			*be;
	const char		*path;	/* the file, for log lines */
	struct event_base	*base;
	struct event		*ev;
	int			 efd;
	struct sqlite3		*db;	/* the thread's once it runs */
	pthread_t		 thread;
	int			 running;	/* the thread was started */
	pthread_mutex_t		 lock;
	pthread_cond_t		 cond;
	struct store_reqs	 todo;	/* the loop's, for the thread */
	struct store_reqs	 done;	/* the thread's, for the loop */
	int			 stop;
	size_t			 pending;	/* the loop's count */
};

static void	*store_main(void *);
static int	 store_start(struct store *);
static void	 store_done_cb(int, short, void *);
static struct store_req *store_req_new(enum store_op, store_cb, void *);
static int	 store_submit(struct store *, struct store_req *);
static void	 store_req_free(struct store_req *);
static int	 store_copy(char *, size_t, const char *);
static int	 store_game_ok(const struct store_game *);

/* The thread: run requests until told to stop, then close the file. */
static void *
store_main(void *arg)
{
	struct store		*st = arg;
	struct store_req	*req;
	uint64_t		 one = 1;

	for (;;) {
		pthread_mutex_lock(&st->lock);
		while (TAILQ_EMPTY(&st->todo) && !st->stop)
			pthread_cond_wait(&st->cond, &st->lock);
		req = TAILQ_FIRST(&st->todo);
		if (req != NULL)
			TAILQ_REMOVE(&st->todo, req, entry);
		pthread_mutex_unlock(&st->lock);
		if (req == NULL)
			break;
		store_db_run(st->db, req);
		pthread_mutex_lock(&st->lock);
		TAILQ_INSERT_TAIL(&st->done, req, entry);
		pthread_mutex_unlock(&st->lock);
		while (write(st->efd, &one, sizeof one) == -1 && errno == EINTR)
			continue;
	}
	store_db_close(st->db);
	return (NULL);
}

/*
 * Open the store: the file opened, checked and migrated here, before the
 * loop runs.  Its thread starts with the first request (store_start): a
 * tttd whose players are all guests has one thread, and glibc's system
 * calls stay on their single-threaded path.
 */
struct store *
store_open(struct event_base *base, const char *path, char *why,
    size_t whylen)
{
	struct store	*st;

	if ((st = calloc(1, sizeof *st)) == NULL) {
		snprintf(why, whylen, "out of memory");
		return (NULL);
	}
	if (store_pg_match(path)) {
		st->ops = &store_pg_ops;
		if ((st->be = st->ops->open(base, path, why, whylen)) != NULL)
			return (st);
		free(st);
		return (NULL);
	}
	st->base = base;
	st->path = path;
	TAILQ_INIT(&st->todo);
	TAILQ_INIT(&st->done);
	pthread_mutex_init(&st->lock, NULL);
	pthread_cond_init(&st->cond, NULL);
	st->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (st->efd == -1 || (st->ev = event_new(base, st->efd,
	    EV_READ | EV_PERSIST, store_done_cb, st)) == NULL ||
	    event_add(st->ev, NULL) == -1) {
		snprintf(why, whylen, "eventfd: %s", strerror(errno));
		goto fail;
	}
	if ((st->db = store_db_open(path, why, whylen)) == NULL)
		goto fail;
	return (st);
fail:
	if (st->ev != NULL)
		event_free(st->ev);
	if (st->efd != -1)
		close(st->efd);
	pthread_cond_destroy(&st->cond);
	pthread_mutex_destroy(&st->lock);
	free(st);
	return (NULL);
}

/* Start the thread, which owns the file from now on: 0, or -1. */
static int
store_start(struct store *st)
{
	if (st->running)
		return (0);
	if (pthread_create(&st->thread, NULL, store_main, st) != 0)
		return (-1);
	st->running = 1;
	return (0);
}

/* Finish what is queued, stop the thread and free all, calling nothing. */
void
store_free(struct store *st)
{
	struct store_req	*req;

	if (st == NULL)
		return;
	if (st->ops != NULL) {
		st->ops->free(st->be);
		free(st);
		return;
	}
	if (st->running) {
		pthread_mutex_lock(&st->lock);
		st->stop = 1;
		pthread_cond_broadcast(&st->cond);
		pthread_mutex_unlock(&st->lock);
		pthread_join(st->thread, NULL);	/* it closed the file */
	} else
		store_db_close(st->db);
	while ((req = TAILQ_FIRST(&st->done)) != NULL) {
		TAILQ_REMOVE(&st->done, req, entry);
		store_req_free(req);
	}
	event_free(st->ev);
	close(st->efd);
	pthread_cond_destroy(&st->cond);
	pthread_mutex_destroy(&st->lock);
	free(st);
}

/* The requests whose callback is still to come. */
size_t
store_pending(struct store *st)
{
	return (st->ops != NULL ? st->ops->pending(st->be) : st->pending);
}

/* Whether other hosts may share the database: PostgreSQL's, not a file. */
int
store_shared(struct store *st)
{
	return (st->ops != NULL);
}

/* The database for a log line: the file, or PostgreSQL's, no password. */
const char *
store_name(struct store *st)
{
	return (st->ops != NULL ? st->ops->name(st->be) : st->path);
}

/* The eventfd is readable: call back every result done, in order. */
static void
store_done_cb(int fd, short what, void *arg)
{
	struct store		*st = arg;
	struct store_reqs	 done;
	struct store_req	*req;
	uint64_t		 n;

	(void)what;
	while (read(fd, &n, sizeof n) == -1 && errno == EINTR)
		continue;
	TAILQ_INIT(&done);
	pthread_mutex_lock(&st->lock);
	TAILQ_CONCAT(&done, &st->done, entry);
	pthread_mutex_unlock(&st->lock);
	while ((req = TAILQ_FIRST(&done)) != NULL) {
		TAILQ_REMOVE(&done, req, entry);
		st->pending--;
		req->cb(&req->res, req->arg);
		store_req_free(req);
	}
}

/* A new request of op, answered to cb. */
static struct store_req *
store_req_new(enum store_op op, store_cb cb, void *arg)
{
	struct store_req	*req;

	if (cb == NULL || (req = calloc(1, sizeof *req)) == NULL)
		return (NULL);
	req->op = op;
	req->cb = cb;
	req->arg = arg;
	req->res.op = op;
	req->res.why = req->why;
	return (req);
}

/* Queue a request for the thread (started if it is not yet). */
static int
store_submit(struct store *st, struct store_req *req)
{
	if (st->ops != NULL)
		return (st->ops->submit(st->be, req));
	if (store_start(st) == -1) {
		free(req);
		return (-1);
	}
	pthread_mutex_lock(&st->lock);
	TAILQ_INSERT_TAIL(&st->todo, req, entry);
	pthread_cond_signal(&st->cond);
	pthread_mutex_unlock(&st->lock);
	st->pending++;
	return (0);
}

/* Free a request and what its result holds. */
static void
store_req_free(struct store_req *req)
{
	free(req->res.games);
	free(req->res.top);
	free(req);
}

/* Copy a string that must fit: 0, or -1 when it is empty or too long. */
static int
store_copy(char *dst, size_t size, const char *src)
{
	size_t	len;

	if (src == NULL || (len = strlen(src)) == 0 || len >= size)
		return (-1);
	memcpy(dst, src, len + 1);
	return (0);
}

/* Register name (its folded key fold) with a key's hash, at now. */
int
store_register(struct store *st, const char *name, const char *fold,
    const uint8_t *hash, int64_t now, store_cb cb, void *arg)
{
	struct store_req	*req;

	if ((req = store_req_new(STORE_REGISTER, cb, arg)) == NULL)
		return (-1);
	if (store_copy(req->name, sizeof req->name, name) == -1 ||
	    store_copy(req->fold, sizeof req->fold, fold) == -1) {
		free(req);
		return (-1);
	}
	memcpy(req->hash, hash, STORE_HASH_LEN);
	req->now = now;
	return (store_submit(st, req));
}

/* The account whose key hashes to hash. */
int
store_login(struct store *st, const uint8_t *hash, store_cb cb, void *arg)
{
	struct store_req	*req;

	if ((req = store_req_new(STORE_LOGIN, cb, arg)) == NULL)
		return (-1);
	memcpy(req->hash, hash, STORE_HASH_LEN);
	return (store_submit(st, req));
}

/* Give account id a new key's hash; the old key is dead. */
int
store_rekey(struct store *st, int64_t id, const uint8_t *hash, store_cb cb,
    void *arg)
{
	struct store_req	*req;

	if ((req = store_req_new(STORE_REKEY, cb, arg)) == NULL)
		return (-1);
	req->id = id;
	memcpy(req->hash, hash, STORE_HASH_LEN);
	return (store_submit(st, req));
}

/* Delete account id; its games stay, its name shown as "(deleted)". */
int
store_forget(struct store *st, int64_t id, store_cb cb, void *arg)
{
	struct store_req	*req;

	if ((req = store_req_new(STORE_FORGET, cb, arg)) == NULL)
		return (-1);
	req->id = id;
	return (store_submit(st, req));
}

/* A record's game within the bounds of its columns: 0, or -1. */
static int
store_game_ok(const struct store_game *game)
{
	if (game->number < 1 || strchr("XOT", game->result) == NULL ||
	    game->result == '\0' || game->x.id == game->o.id ||
	    memchr(game->match, '\0', sizeof game->match) == NULL ||
	    memchr(game->ended, '\0', sizeof game->ended) == NULL ||
	    memchr(game->moves, '\0', sizeof game->moves) == NULL ||
	    game->match[0] == '\0')
		return (-1);
	return (0);
}

/* Record a rated game and both players' new ratings, once. */
int
store_record(struct store *st, const struct store_game *game, store_cb cb,
    void *arg)
{
	return (store_record_rated(st, game, NULL, cb, arg));
}

/*
 * Record a rated game once, its new ratings computed by rate (NULL: as
 * given) from the accounts inside the transaction.
 */
int
store_record_rated(struct store *st, const struct store_game *game,
    store_rate_fn rate, store_cb cb, void *arg)
{
	struct store_req	*req;

	if (store_game_ok(game) == -1)
		return (-1);
	if ((req = store_req_new(STORE_RECORD, cb, arg)) == NULL)
		return (-1);
	req->game = *game;
	req->rate = rate;
	return (store_submit(st, req));
}

/* The account of a name, by its folded key. */
int
store_rating(struct store *st, const char *fold, store_cb cb, void *arg)
{
	struct store_req	*req;

	if ((req = store_req_new(STORE_RATING, cb, arg)) == NULL)
		return (-1);
	if (store_copy(req->fold, sizeof req->fold, fold) == -1) {
		free(req);
		return (-1);
	}
	return (store_submit(st, req));
}

/* A name's last n rated games, newest first. */
int
store_history(struct store *st, const char *fold, int n, store_cb cb,
    void *arg)
{
	struct store_req	*req;

	if (n < 1 || n > STORE_LIST_MAX ||
	    (req = store_req_new(STORE_HISTORY, cb, arg)) == NULL)
		return (-1);
	if (store_copy(req->fold, sizeof req->fold, fold) == -1) {
		free(req);
		return (-1);
	}
	req->n = n;
	return (store_submit(st, req));
}

/* The n best accounts that are not provisional, best first. */
int
store_top(struct store *st, int n, store_cb cb, void *arg)
{
	struct store_req	*req;

	if (n < 1 || n > STORE_LIST_MAX ||
	    (req = store_req_new(STORE_TOP, cb, arg)) == NULL)
		return (-1);
	req->n = n;
	return (store_submit(st, req));
}

/* An error's words, for a log line or an ERR. */
const char *
store_strerror(enum store_err err)
{
	switch (err) {
	case STORE_OK:
		return ("ok");
	case STORE_ETAKEN:
		return ("the name is registered");
	case STORE_ENOTFOUND:
		return ("no such account");
	case STORE_EFULL:
		return ("the disk is full");
	case STORE_EWRITE:
		return ("the database cannot be written");
	case STORE_ECORRUPT:
		return ("the database is corrupt (run PRAGMA integrity_check)");
	case STORE_EBUSY:
		return ("the database is locked");
	case STORE_EDOWN:
		return ("the database cannot be reached");
	case STORE_EDB:
		break;
	}
	return ("database error");
}
