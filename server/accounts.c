/*
 * accounts.c -- the accounts beside the world (--db): the store
 * (server/store/, SQLite on a thread of its own) as a service of the
 * daemon, its listener to the world's events, and the commands' glue.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accounts.h"
#include "log.h"
#include "store.h"

struct accounts {
	struct store		*st;
	struct lobby		*lobby;
	struct lobby_listener	 listener;
	void			(*done)(void *);	/* stopping: called
							   once none pends */
	void			*done_arg;
};

static int	accounts_start(void *);
static void	accounts_flush(void *);
static void	accounts_forget(void *, struct client *);
static int	accounts_shutdown(void *, void (*)(void *), void *);
static void	accounts_free(void *);

/* What the accounts hear of the world. */
static const struct lobby_events accounts_events = {
	.waits_alone = NULL
};

/*
 * Open the store at path: NULL with the reason in why when the file
 * cannot be opened, is not tttd's or is of a newer schema.
 */
struct accounts *
accounts_new(struct event_base *base, struct lobby *lobby, const char *path,
    char *why, size_t whylen)
{
	struct accounts	*a;

	if ((a = calloc(1, sizeof *a)) == NULL) {
		snprintf(why, whylen, "out of memory");
		return (NULL);
	}
	if ((a->st = store_open(base, path, why, whylen)) == NULL) {
		free(a);
		return (NULL);
	}
	a->lobby = lobby;
	lobby_listen(lobby, &a->listener, &accounts_events, a);
	log_info("accounts: %s", path);
	return (a);
}

/* The accounts as the daemon drives them (service.h). */
void
accounts_service(struct accounts *a, struct service *svc)
{
	svc->start = accounts_start;
	svc->flush = accounts_flush;
	svc->forget = accounts_forget;
	svc->shutdown = accounts_shutdown;
	svc->free = accounts_free;
	svc->arg = a;
}

/* Nothing to begin: the store was opened with the daemon. */
static int
accounts_start(void *arg)
{
	(void)arg;
	return (0);
}

/* The end of a callback: nothing of the accounts' waits for it. */
static void
accounts_flush(void *arg)
{
	(void)arg;
}

/* A connection is freed: nothing kept of it yet. */
static void
accounts_forget(void *arg, struct client *c)
{
	(void)arg;
	(void)c;
}

/* The daemon stops: wait for the writes still pending (1), or not (0). */
static int
accounts_shutdown(void *arg, void (*done)(void *), void *done_arg)
{
	struct accounts	*a = arg;

	if (store_pending(a->st) == 0)
		return (0);
	a->done = done;
	a->done_arg = done_arg;
	return (1);
}

/* Close the store (its queued writes land first) and free all. */
static void
accounts_free(void *arg)
{
	struct accounts	*a = arg;

	if (a == NULL)
		return;
	lobby_unlisten(a->lobby, &a->listener);
	store_free(a->st);
	free(a);
}
