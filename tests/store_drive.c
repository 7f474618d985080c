/*
 * store_drive.c -- a small program on the store (server/store/) for the
 * tests that must watch a whole process:
 *   store_drive kill PATH N    records games 1, 2, ... one after another,
 *                              prints "committed I" on each callback, and
 *                              kills itself (SIGKILL) right after the N-th
 *   store_drive strace PATH    prints "main TID", opens the file, calls
 *                              getppid(2) once (a mark in the trace: the
 *                              open is before it), then runs every
 *                              request (20 games among them)
 *                              (for strace -f: which thread writes)
 *   store_drive bench PATH N   records N games queued at once, then
 *                              prints how many were committed a second
 *   store_drive full PATH FILL fills the file system with the file FILL,
 *                              registers (a full disk), reads, removes
 *                              FILL and registers again, printing each
 *                              result's error
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>

#include "store.h"

struct drive {
	struct event_base	*base;
	struct store		*store;
	int64_t			 id[2];
	int			 game;
	int			 last;	/* kill: the game to die after */
	int			 failed;
};

static void	drive_next(struct drive *);
static void	drive_game(struct drive *, store_cb);
static void	drive_wait(struct drive *);

/* Fail loudly: the tests read stdout and the exit status. */
static void
drive_check(struct drive *d, const struct store_result *r, const char *what)
{
	if (r->err != STORE_OK) {
		printf("error %s: %s\n", what, r->why);
		d->failed = 1;
	}
}

/* An account made: keep its id. */
static void
drive_registered_cb(const struct store_result *r, void *arg)
{
	struct drive	*d = arg;

	drive_check(d, r, "register");
	d->id[d->id[0] == 0 ? 0 : 1] = r->account.id;
}

/* A game committed: say so, then die or record the next. */
static void
drive_recorded_cb(const struct store_result *r, void *arg)
{
	struct drive	*d = arg;

	drive_check(d, r, "record");
	printf("committed %d\n", d->game);
	fflush(stdout);
	if (d->game == d->last)
		raise(SIGKILL);
	if (d->last > 0)
		drive_next(d);
}

/* Record the next game, its commit told to drive_recorded_cb. */
static void
drive_next(struct drive *d)
{
	drive_game(d, drive_recorded_cb);
}

/* Record game d->game + 1 of match "k", answered to cb. */
static void
drive_game(struct drive *d, store_cb cb)
{
	struct store_game	g;

	memset(&g, 0, sizeof g);
	d->game++;
	snprintf(g.match, sizeof g.match, "k");
	g.number = d->game;
	g.x.id = d->id[0];
	g.o.id = d->id[1];
	g.x.before = 1500 + d->game - 1;
	g.x.rating = 1500 + d->game;
	g.o.before = 1500 - d->game + 1;
	g.o.rating = 1500 - d->game;
	g.x.rd = g.o.rd = 300;
	g.x.volatility = g.o.volatility = 0.09;
	g.result = 'X';
	snprintf(g.ended, sizeof g.ended, "line");
	snprintf(g.moves, sizeof g.moves, "A1,B1,A2,B2,A3");
	g.at = 1000 + d->game;
	if (store_record(d->store, &g, cb, d) == -1) {
		printf("error store_record\n");
		d->failed = 1;
	}
}

/* A game of the benchmark committed: checked. */
static void
drive_bench_cb(const struct store_result *r, void *arg)
{
	struct drive	*d = arg;

	drive_check(d, r, "record");
	if (!r->written)
		drive_check(d, r, "written");
}

/* Record n games queued at once; print how many were committed a second. */
static void
drive_bench(struct drive *d, int n)
{
	struct timespec	a, b;
	double		s;
	int		i;

	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < n; i++)
		drive_game(d, drive_bench_cb);
	drive_wait(d);
	clock_gettime(CLOCK_MONOTONIC, &b);
	s = (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9;
	printf("bench %d games in %.3f s: %.0f committed a second\n", n, s,
	    n / s);
}

/* Print a result's error, as the full test reads it. */
static void
drive_print_cb(const struct store_result *r, void *arg)
{
	(void)arg;
	printf("result %s: %s\n", store_strerror(r->err), r->why);
}

/* Fill the file system with path until it is full: 0, or -1. */
static int
drive_fill(const char *path)
{
	static char	buf[4096];
	int		fd;
	ssize_t		n;

	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644)) == -1)
		return (-1);
	memset(buf, 'x', sizeof buf);
	while ((n = write(fd, buf, sizeof buf)) > 0)
		continue;
	close(fd);
	return (n == -1 && errno == ENOSPC ? 0 : -1);
}

/* The disk full: a register fails, reads go on, then it succeeds. */
static void
drive_full(struct drive *d, const char *fill)
{
	uint8_t	hash[STORE_HASH_LEN];

	if (drive_fill(fill) == -1) {
		printf("error fill: %s\n", strerror(errno));
		d->failed = 1;
		return;
	}
	store_key_hash("key-of-carol-0123456789012", hash);
	store_register(d->store, "Carol", "carol", hash, 2, drive_print_cb, d);
	drive_wait(d);
	store_rating(d->store, "alice", drive_print_cb, d);
	drive_wait(d);
	unlink(fill);
	store_register(d->store, "Carol", "carol", hash, 2, drive_print_cb, d);
	drive_wait(d);
	store_rating(d->store, "carol", drive_print_cb, d);
	drive_wait(d);
}

/* Any other request's callback: checked. */
static void
drive_any_cb(const struct store_result *r, void *arg)
{
	struct drive	*d = arg;

	if (r->err != STORE_OK && r->err != STORE_ENOTFOUND)
		drive_check(d, r, "request");
}

/* Queue one of every request. */
static void
drive_every(struct drive *d)
{
	uint8_t	hash[STORE_HASH_LEN];

	store_key_hash("key-of-alice-0123456789012", hash);
	store_login(d->store, hash, drive_any_cb, d);
	store_key_hash("new-key-of-alice-01234567890", hash);
	store_rekey(d->store, d->id[0], hash, drive_any_cb, d);
	store_rating(d->store, "alice", drive_any_cb, d);
	store_history(d->store, "alice", 10, drive_any_cb, d);
	store_top(d->store, 10, drive_any_cb, d);
	store_forget(d->store, d->id[1], drive_any_cb, d);
}

/* Run the loop until every callback came. */
static void
drive_wait(struct drive *d)
{
	while (store_pending(d->store) > 0 &&
	    event_base_loop(d->base, EVLOOP_ONCE) == 0)
		continue;
}

int
main(int argc, char **argv)
{
	struct drive	d;
	uint8_t		hash[STORE_HASH_LEN];
	char		why[512];
	int		i;

	if (argc < 3 || (strcmp(argv[1], "strace") != 0 && argc != 4)) {
		fprintf(stderr, "usage: store_drive kill|strace|bench PATH "
		    "[N]\n");
		return (2);
	}
	memset(&d, 0, sizeof d);
	printf("main %ld\n", (long)getpid());
	fflush(stdout);
	if ((d.base = event_base_new()) == NULL)
		return (1);
	if ((d.store = store_open(d.base, argv[2], why, sizeof why)) == NULL) {
		printf("error open: %s\n", why);
		return (1);
	}
	(void)getppid();	/* the mark: the open is done */
	store_key_hash("key-of-alice-0123456789012", hash);
	store_register(d.store, "Alice", "alice", hash, 1, drive_registered_cb,
	    &d);
	drive_wait(&d);
	store_key_hash("key-of-bob-012345678901234", hash);
	store_register(d.store, "Bob", "bob", hash, 1, drive_registered_cb,
	    &d);
	drive_wait(&d);
	if (strcmp(argv[1], "kill") == 0) {
		d.last = atoi(argv[3]);
		drive_next(&d);
		drive_wait(&d);
		printf("error not killed\n");
		return (1);
	}
	if (strcmp(argv[1], "bench") == 0 || strcmp(argv[1], "full") == 0) {
		if (strcmp(argv[1], "bench") == 0)
			drive_bench(&d, atoi(argv[3]));
		else
			drive_full(&d, argv[3]);
		store_free(d.store);
		event_base_free(d.base);
		printf("%s\n", d.failed ? "failed" : "done");
		return (d.failed);
	}
	for (i = 0; i < 20; i++) {
		drive_next(&d);
		drive_wait(&d);
	}
	drive_every(&d);
	drive_wait(&d);
	store_free(d.store);
	event_base_free(d.base);
	printf("%s\n", d.failed ? "failed" : "done");
	return (d.failed);
}
