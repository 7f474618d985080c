/*
 * accounts.h -- the accounts beside the world (--db): the store's
 * listener to the world's events, and the glue of the commands that
 * read and write it (docs/architecture.md, "Storage").
 */
#ifndef ACCOUNTS_H
#define ACCOUNTS_H

#include "lobby.h"
#include "service.h"

struct event_base;
struct accounts;
struct accounts_read;
struct rating_shown;
struct store_account;
struct store_result;

/* A read's answer (accounts_read), valid during the call only. */
typedef void (*accounts_read_cb)(const struct store_result *, void *);

/* What the accounts need of the daemon. */
struct accounts_host {
	/* The end of a store's callback: what it sent, out. */
	void	(*flush)(void *);
	/* A player's output waits until release (counted). */
	void	(*hold_out)(void *, struct client *);
	void	(*release_out)(void *, struct client *);
	void	*arg;
};

struct accounts	*accounts_new(struct event_base *, struct lobby *,
		    const char *, const struct accounts_host *, char *,
		    size_t);
void		 accounts_service(struct accounts *, struct service *);
struct accounts_read *accounts_read(struct accounts *, enum proto_verb,
		    const char *, int, accounts_read_cb, void *);
void		 accounts_read_cancel(struct accounts_read *);
void		 accounts_read_shown(const struct store_account *,
		    struct rating_shown *);

#endif /* ACCOUNTS_H */
