/*
 * accounts.c -- the accounts beside the world (--db): the store
 * (server/store/, SQLite on a thread of its own) as a service of the
 * daemon, its listener to the world's events, and the commands' glue.
 *
 * A client's command that asks the store holds the client's lines
 * (CLIENT_HOLD_STORE) until the answer, so that its lines keep their
 * order; a client freed meanwhile is forgotten by its requests.  A
 * signed-in client carries its account (client->account).
 */
#include <sys/queue.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "accounts.h"
#include "cmd.h"
#include "log.h"
#include "match.h"
#include "name.h"
#include "rating.h"
#include "store.h"

/* A signed-in player's account, as its connection keeps it. */
struct accounts_user {
	int64_t				 id;
	char				 name[PROTO_NAME_MAX + 1];
	struct client			*c;
	TAILQ_ENTRY(accounts_user)	 entry;		/* accounts.users */
};
TAILQ_HEAD(accounts_users, accounts_user);

/* A request on its way to the store, for a client (NULL once freed). */
struct accounts_req {
	struct accounts			*a;
	struct client			*c;
	enum proto_verb			 verb;		/* PROTO_NAME: NAME */
	char				 name[PROTO_NAME_MAX + 1];
	char				 key[STORE_KEY_LEN + 1];
	TAILQ_ENTRY(accounts_req)	 entry;		/* accounts.reqs */
};
TAILQ_HEAD(accounts_reqs, accounts_req);

/*
 * A game that may be rated: both players' accounts read, their new
 * ratings computed and written with the game, its connected players'
 * output held (RESULT and what follows) until the write is answered.
 */
struct accounts_game {
	struct accounts			*a;
	struct client			*c[2];		/* held; NULL: none,
							   or freed since */
	struct store_account		 acc[2];
	int64_t				 want[2];	/* a connected seat's
							   account id; 0: any */
	int				 found[2];
	int				 reads;		/* answered, of 2 */
	int				 fault;		/* a read failed */
	struct rating			 before[2];	/* aged to the game */
	uint64_t			 match;		/* its id */
	int				 taken;		/* a record a match taken
							   up carried: its
							   players told if here */
	struct store_game		 g;
	TAILQ_ENTRY(accounts_game)	 entry;		/* accounts.games */
};
TAILQ_HEAD(accounts_games, accounts_game);

/*
 * A read for one who is no player (the JSON API, api.c): its answer to
 * cb, unless cancelled (cb NULL) when its asker went first.
 */
struct accounts_read {
	struct accounts			*a;
	accounts_read_cb		 cb;
	void				*arg;
	TAILQ_ENTRY(accounts_read)	 entry;		/* accounts.reads */
};
TAILQ_HEAD(accounts_reads, accounts_read);

struct accounts {
	struct store		*st;
	struct lobby		*lobby;
	struct accounts_host	 host;
	struct lobby_listener	 listener;
	struct accounts_users	 users;		/* signed in */
	struct accounts_reqs	 reqs;		/* clients' requests pending */
	struct accounts_games	 games;		/* rated games on their way */
	struct accounts_reads	 reads;		/* the JSON API's, pending */
	int			 write_failed;	/* logged: rated games are not
						   written (until one is) */
	void			(*done)(void *);	/* stopping: called
							   once none pends */
	void			*done_arg;
};

static int	accounts_start(void *);
static void	accounts_forget(void *, struct client *);
static int	accounts_shutdown(void *, void (*)(void *), void *);
static void	accounts_free(void *);
static int	accounts_command(void *, struct client *,
		    const struct proto_cmd *);
static int	accounts_name_claimed(void *, struct client *, const char *);
static void	accounts_answer(const struct store_result *, void *);
static void	accounts_game_ended(void *, struct match *, enum ttt_mark,
		    enum match_end);
static void	accounts_game_read(const struct store_result *, void *);
static void	accounts_record_taken(void *, struct match *);
static void	accounts_record_orphaned(void *, uint64_t,
		    const struct match_record *);
static void	accounts_game_start(struct accounts *, uint64_t, struct match *,
		    const struct match_record *, int);
static void	accounts_game_tell(struct accounts *, struct accounts_game *,
		    struct client *, int);
static void	accounts_seat_back(void *, struct match *, int);
static void	accounts_player_left(void *, struct client *);
static void	accounts_resumed(struct accounts *, struct client *,
		    const char *, const struct store_result *);
static void	accounts_game_written(const struct store_result *, void *);
static void	accounts_game_unrated(struct accounts *,
		    struct accounts_game *, const struct store_result *);
static void	accounts_settled(struct accounts *);
static void	accounts_named(struct accounts *, struct client *,
		    const char *, const struct store_result *);
static void	accounts_read_answer(const struct store_result *, void *);
static void	accounts_read_free_all(struct accounts *);
static void	accounts_take_over(struct accounts *, struct client *);
static void	accounts_elsewhere(void *, int64_t);

/* What the accounts hear of the world. */
static const struct lobby_events accounts_events = {
	.name_claimed = accounts_name_claimed,
	.game_ended = accounts_game_ended,
	.record_taken = accounts_record_taken,
	.record_orphaned = accounts_record_orphaned,
	.seat_back = accounts_seat_back,
	.player_left = accounts_player_left,
	.account = accounts_command,
	.signed_in_elsewhere = accounts_elsewhere
};

/*
 * Open the store at path: NULL with the reason in why when the file
 * cannot be opened, is not tttd's or is of a newer schema.
 */
struct accounts *
accounts_new(struct event_base *base, struct lobby *lobby, const char *path,
    const struct accounts_host *host, char *why, size_t whylen)
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
	a->host = *host;
	TAILQ_INIT(&a->users);
	TAILQ_INIT(&a->reqs);
	TAILQ_INIT(&a->games);
	TAILQ_INIT(&a->reads);
	lobby_listen(lobby, &a->listener, &accounts_events, a);
	log_info("accounts: %s", store_name(a->st));
	return (a);
}

/* Now, in Unix seconds (UTC). */
static int64_t
accounts_now(void)
{
	return ((int64_t)time(NULL));
}

/* A line to a client: an error. */
static void
accounts_error(struct client *c, enum proto_error err)
{
	char	buf[PROTO_OUT_MAX];

	client_send(c, buf, proto_fmt_error(buf, sizeof buf, err));
}

/* A name's folded key, as NAME compares names, into b. */
static void
accounts_fold(struct accounts *a, const char *name, char *b)
{
	name_keyed(a->lobby, name, b);
}

/* The signed-in account of a client, or NULL: a guest. */
static struct accounts_user *
accounts_user(const struct client *c)
{
	return (c->account);
}

/* What the world pairs a signed-in client by: its rating, as shown. */
static void
accounts_rate(struct accounts *a, struct client *c, double rating)
{
	struct rating		r = { rating, RATING_START_RD,
				    RATING_START_VOL };
	struct rating_shown	sh;

	rating_show(&r, &sh);
	lobby_rated(a->lobby, c, 1, (int)sh.r);
}

/*
 * Sign a client in as an account (it goes by the account's name, and
 * is paired by its rating).
 */
static int
accounts_sign_in(struct accounts *a, struct client *c,
    const struct store_account *acc)
{
	struct accounts_user	*u;

	if ((u = calloc(1, sizeof *u)) == NULL)
		return (-1);
	u->id = acc->id;
	snprintf(u->name, sizeof u->name, "%.*s", PROTO_NAME_MAX, acc->name);
	u->c = c;
	c->account = u;
	c->account_id = acc->id;
	TAILQ_INSERT_TAIL(&a->users, u, entry);
	accounts_rate(a, c, acc->rating);
	return (0);
}

/* A client is a guest again (paired as one). */
static void
accounts_sign_out(struct accounts *a, struct client *c)
{
	struct accounts_user	*u = accounts_user(c);

	if (u == NULL)
		return;
	TAILQ_REMOVE(&a->users, u, entry);
	c->account = NULL;
	c->account_id = 0;
	free(u);
	lobby_rated(a->lobby, c, 0, 0);
}

/* The connection signed in as this account, or NULL. */
static struct client *
accounts_signed_in(struct accounts *a, int64_t id)
{
	struct accounts_user	*u;

	TAILQ_FOREACH(u, &a->users, entry) {
		if (u->id == id)
			return (u->c);
	}
	return (NULL);
}

/*
 * A request for a client: its lines wait for the answer
 * (CLIENT_HOLD_STORE); NULL when memory is short.
 */
static struct accounts_req *
accounts_req_new(struct accounts *a, struct client *c, enum proto_verb verb)
{
	struct accounts_req	*r;

	if ((r = calloc(1, sizeof *r)) == NULL)
		return (NULL);
	r->a = a;
	r->c = c;
	r->verb = verb;
	TAILQ_INSERT_TAIL(&a->reqs, r, entry);
	client_hold(c, CLIENT_HOLD_STORE);
	return (r);
}

/* The store would not take a request: nothing waits for it. */
static void
accounts_req_drop(struct accounts_req *r)
{
	TAILQ_REMOVE(&r->a->reqs, r, entry);
	client_release(r->c, CLIENT_HOLD_STORE);
	accounts_error(r->c, PROTO_EACCOUNTS_DOWN);
	free(r);
}

/* A new key into key (its text) and hash; from the OS random source. */
static void
accounts_key(struct accounts *a, char *key, size_t size, uint8_t *hash)
{
	uint8_t	b[STORE_KEY_RANDOM];

	a->lobby->ops->random(b, sizeof b);
	store_key_make(key, size, b, sizeof b);
	store_key_hash(key, hash);
}

/* REGISTER: the client's name, if it has its own and nobody has it. */
static int
accounts_register(struct accounts *a, struct client *c,
    struct accounts_req *r)
{
	char	fold[NAME_KEY_MAX];
	uint8_t	hash[STORE_HASH_LEN];

	accounts_fold(a, c->name, fold);
	snprintf(r->name, sizeof r->name, "%s", c->name);
	accounts_key(a, r->key, sizeof r->key, hash);
	return (store_register(a->st, c->name, fold, hash, accounts_now(),
	    accounts_answer, r));
}

/* LOGIN <key>: its account, within the limits on wrong keys. */
static int
accounts_login(struct accounts *a, const struct proto_cmd *cmd,
    struct accounts_req *r)
{
	uint8_t	hash[STORE_HASH_LEN];

	store_key_hash(cmd->key, hash);
	return (store_login(a->st, hash, accounts_answer, r));
}

/* Whether a command can be answered now, and its error if not. */
static enum proto_error
accounts_check(struct accounts *a, struct client *c,
    const struct proto_cmd *cmd)
{
	struct accounts_user	*u = accounts_user(c);
	char			 f1[NAME_KEY_MAX], f2[NAME_KEY_MAX];

	switch (cmd->verb) {
	case PROTO_REGISTER:
		if (c->name[0] == '\0')
			return (PROTO_ENO_NAME);
		if (u != NULL)
			return (PROTO_ESIGNED_IN);
		break;
	case PROTO_LOGIN:
		if (!lobby_guess_allowed(a->lobby, LOBBY_KEYS, c))
			return (PROTO_ERATE_LIMITED);
		if (!store_key_valid(cmd->key)) {
			lobby_guess_failed(a->lobby, LOBBY_KEYS, c);
			return (PROTO_EBAD_KEY);
		}
		break;
	case PROTO_REKEY:
		if (u == NULL)
			return (PROTO_ENOT_SIGNED_IN);
		break;
	case PROTO_FORGET:
		if (u == NULL)
			return (PROTO_ENOT_SIGNED_IN);
		accounts_fold(a, cmd->name, f1);
		accounts_fold(a, u->name, f2);
		if (strcmp(f1, f2) != 0)
			return (PROTO_EBAD_NAME);	/* its own text */
		break;
	case PROTO_RATING:
	case PROTO_HISTORY:
		if (cmd->name[0] == '\0' && u == NULL)
			return (PROTO_ENO_SUCH_PLAYER);
		break;
	default:
		break;
	}
	return (PROTO_OK);
}

/*
 * An account's command (the world's event): answered later, from the
 * store; 0 for a client that cannot wait (another node's).
 */
static int
accounts_command(void *arg, struct client *c, const struct proto_cmd *cmd)
{
	struct accounts		*a = arg;
	struct accounts_user	*u = accounts_user(c);
	struct accounts_req	*r;
	enum proto_error	 err;
	char			 fold[NAME_KEY_MAX];
	uint8_t			 hash[STORE_HASH_LEN];
	char			 buf[PROTO_OUT_MAX];
	int			 rc = -1;

	if (c->ops->hold == NULL || (c->flags & CLIENT_REMOTE))
		return (0);
	if ((err = accounts_check(a, c, cmd)) != PROTO_OK) {
		if (err == PROTO_ENO_NAME || err == PROTO_EBAD_NAME)
			client_send(c, buf, proto_fmt_error_text(buf,
			    sizeof buf, err, err == PROTO_ENO_NAME ?
			    PROTO_REGISTER_NO_NAME : PROTO_FORGET_BAD_NAME));
		else
			accounts_error(c, err);
		return (1);
	}
	if ((r = accounts_req_new(a, c, cmd->verb)) == NULL) {
		accounts_error(c, PROTO_EACCOUNTS_DOWN);
		return (1);
	}
	snprintf(r->name, sizeof r->name, "%s", cmd->name[0] != '\0' ?
	    cmd->name : u != NULL ? u->name : "");
	accounts_fold(a, r->name, fold);
	switch (cmd->verb) {
	case PROTO_REGISTER:
		rc = accounts_register(a, c, r);
		break;
	case PROTO_LOGIN:
		rc = accounts_login(a, cmd, r);
		break;
	case PROTO_REKEY:
		accounts_key(a, r->key, sizeof r->key, hash);
		rc = store_rekey(a->st, u->id, hash, accounts_answer, r);
		break;
	case PROTO_FORGET:
		rc = store_forget(a->st, u->id, accounts_answer, r);
		break;
	case PROTO_RATING:
		rc = store_rating(a->st, fold, accounts_answer, r);
		break;
	case PROTO_HISTORY:
		rc = store_history(a->st, fold, cmd->count, accounts_answer, r);
		break;
	case PROTO_TOP:
		rc = store_top(a->st, cmd->count, accounts_answer, r);
		break;
	default:
		break;
	}
	if (rc == -1)
		accounts_req_drop(r);
	return (1);
}

/* A rating as stored, grown with the days since its last game. */
static void
accounts_shown(const struct store_account *acc, struct rating_shown *sh)
{
	struct rating	r = { acc->rating, acc->rd, acc->volatility }, aged;
	double		days = 0;

	if (acc->last_game > 0 && accounts_now() > acc->last_game)
		days = (double)(accounts_now() - acc->last_game) / 86400.0;
	if (rating_age(&r, days, &aged) == 0)
		r = aged;
	rating_show(&r, sh);
}

/*
 * LOGIN's account came: an older connection signed in as it is a guest
 * from now on (told so), and this one goes by the account's name.
 */
static void
accounts_logged_in(struct accounts *a, struct client *c,
    const struct store_account *acc)
{
	struct client		*old = accounts_signed_in(a, acc->id);
	struct rating_shown	 sh;
	char			 buf[PROTO_OUT_MAX], was[PROTO_NAME_MAX + 1];

	if (old == c) {
		accounts_error(c, PROTO_ESIGNED_IN);
		return;
	}
	if (old != NULL)
		accounts_take_over(a, old);
	if (!name_allowed(a->lobby, c, acc->name)) {
		accounts_error(c, PROTO_ENAME_TAKEN);
		return;
	}
	accounts_sign_out(a, c);
	if (accounts_sign_in(a, c, acc) == -1) {
		accounts_error(c, PROTO_EACCOUNTS_DOWN);
		return;
	}
	snprintf(was, sizeof was, "%s", c->match != NULL ?
	    match_name(c->match, c->seat) : c->name);
	if (strcmp(c->name, acc->name) != 0) {
		name_take(c, acc->name);
		if (c->match != NULL)
			match_renamed(c, was);
	}
	accounts_shown(acc, &sh);
	client_send(c, buf, proto_fmt_ok_login(buf, sizeof buf, acc->name,
	    sh.r, sh.rd));
	/*
	 * Other nodes take the account over only from a shared database:
	 * with a file each, an id here is another account there.
	 */
	if (store_shared(a->st))
		LOBBY_RAISE(a->lobby, signed_in, c);
}

/*
 * Another connection signed in as old's account: old is told, and goes
 * on as a guest (under its seat's name in a match, its opponent told as
 * for a rename).
 */
static void
accounts_take_over(struct accounts *a, struct client *old)
{
	char	buf[PROTO_OUT_MAX], was[PROTO_NAME_MAX + 1];

	accounts_sign_out(a, old);
	client_send(old, buf, proto_fmt_info(buf, sizeof buf,
	    "You signed in on another connection: you are a guest here now."));
	snprintf(was, sizeof was, "%s", old->match != NULL ?
	    match_name(old->match, old->seat) : old->name);
	name_take(old, "");
	if (old->match != NULL)
		match_renamed(old, was);
}

/*
 * The account signed in on another node (the cluster's event): its
 * connection here, if any, is taken over as by a LOGIN here.
 */
static void
accounts_elsewhere(void *arg, int64_t id)
{
	struct accounts	*a = arg;
	struct client	*old;

	if (id > 0 && (old = accounts_signed_in(a, id)) != NULL)
		accounts_take_over(a, old);
}

/* OK HISTORY and its PLAYED lines. */
static void
accounts_history(struct client *c, const struct store_result *res)
{
	char	buf[PROTO_OUT_MAX];
	size_t	i;

	client_send(c, buf, proto_fmt_ok_list(buf, sizeof buf, PROTO_HISTORY,
	    (unsigned)res->ngames));
	for (i = 0; i < res->ngames; i++) {
		const struct store_game	*g = &res->games[i];

		client_send(c, buf, proto_fmt_played(buf, sizeof buf, g->match,
		    g->number, (long long)g->at, g->x.name, g->o.name,
		    g->result, g->moves));
	}
}

/* OK TOP and its RANKED lines. */
static void
accounts_top(struct client *c, const struct store_result *res)
{
	struct rating_shown	sh;
	char			buf[PROTO_OUT_MAX];
	size_t			i;

	client_send(c, buf, proto_fmt_ok_list(buf, sizeof buf, PROTO_TOP,
	    (unsigned)res->ntop));
	for (i = 0; i < res->ntop; i++) {
		accounts_shown(&res->top[i], &sh);
		client_send(c, buf, proto_fmt_ranked(buf, sizeof buf,
		    (unsigned)i + 1, res->top[i].name, sh.r, sh.rd,
		    res->top[i].games));
	}
}

/* A store's error, for the client and, once a kind, for the log. */
static enum proto_error
accounts_failed(const struct store_result *res)
{
	if (res->err == STORE_ENOTFOUND)
		return (res->op == STORE_LOGIN ? PROTO_EBAD_KEY :
		    PROTO_ENO_SUCH_PLAYER);
	if (res->err == STORE_ETAKEN)
		return (PROTO_ENAME_TAKEN);
	log_warn("accounts: %s: %s", store_strerror(res->err), res->why);
	return (PROTO_EACCOUNTS_DOWN);
}

/* A store's answer to a command, to its client. */
static void
accounts_reply(struct accounts *a, struct accounts_req *r,
    const struct store_result *res)
{
	struct client		*c = r->c;
	struct rating_shown	 sh;
	struct proto_cmd	 cmd = { .verb = r->verb };
	char			 buf[PROTO_OUT_MAX];

	if (r->verb == PROTO_NAME) {
		accounts_named(a, c, r->name, res);
		return;
	}
	if (r->verb == PROTO_RESUME) {
		accounts_resumed(a, c, r->name, res);
		return;
	}
	if (res->err != STORE_OK) {
		if (res->op == STORE_LOGIN && res->err == STORE_ENOTFOUND)
			lobby_guess_failed(a->lobby, LOBBY_KEYS, c);
		accounts_error(c, accounts_failed(res));
		return;
	}
	switch (r->verb) {
	case PROTO_REGISTER:
		if (accounts_sign_in(a, c, &res->account) == -1)
			break;
		client_send(c, buf, proto_fmt_ok_name(buf, sizeof buf,
		    PROTO_REGISTER, res->account.name));
		client_send(c, buf, proto_fmt_key(buf, sizeof buf, r->key));
		break;
	case PROTO_LOGIN:
		accounts_logged_in(a, c, &res->account);
		break;
	case PROTO_REKEY:
		client_send(c, buf, proto_fmt_ok(buf, sizeof buf, &cmd));
		client_send(c, buf, proto_fmt_key(buf, sizeof buf, r->key));
		break;
	case PROTO_FORGET:
		snprintf(cmd.name, sizeof cmd.name, "%s",
		    accounts_user(c) != NULL ? accounts_user(c)->name :
		    r->name);
		accounts_sign_out(a, c);
		client_send(c, buf, proto_fmt_ok(buf, sizeof buf, &cmd));
		break;
	case PROTO_RATING:
		accounts_shown(&res->account, &sh);
		client_send(c, buf, proto_fmt_ok_rating(buf, sizeof buf,
		    res->account.name, sh.r, sh.provisional, sh.rd,
		    res->account.games, res->account.wins,
		    res->account.losses, res->account.ties));
		break;
	case PROTO_HISTORY:
		accounts_history(c, res);
		break;
	case PROTO_TOP:
		accounts_top(c, res);
		break;
	default:
		break;
	}
}

/* A store's callback came: stopping, the end once none pends. */
static void
accounts_settled(struct accounts *a)
{
	void	(*done)(void *) = a->done;

	if (done == NULL || store_pending(a->st) != 0)
		return;
	a->done = NULL;
	done(a->done_arg);
}

/*
 * A store's answer to a client's request: its reply, then its next lines
 * go on; nothing for a client freed meanwhile.
 */
static void
accounts_answer(const struct store_result *res, void *arg)
{
	struct accounts_req	*r = arg;
	struct accounts		*a = r->a;

	TAILQ_REMOVE(&a->reqs, r, entry);
	if (r->c != NULL) {
		accounts_reply(a, r, res);
		/*
		 * The queue weighed again: the client may be paired now, as
		 * who it is now (and one a LOGIN made a guest).
		 */
		if (client_release(r->c, CLIENT_HOLD_STORE))
			lobby_unheld(a->lobby);
	}
	free(r);
	a->host.flush(a->host.arg);
	accounts_settled(a);
}

/*
 * NAME, free among the connected: a registered name is its owner's even
 * while it is away.  1: the store is asked (the client waits), then the
 * client is renamed or refused (accounts_named).
 */
static int
accounts_name_claimed(void *arg, struct client *c, const char *name)
{
	struct accounts		*a = arg;
	struct accounts_user	*u = accounts_user(c);
	struct accounts_req	*r;
	char			 f1[NAME_KEY_MAX], f2[NAME_KEY_MAX];

	if (u != NULL) {
		accounts_fold(a, name, f1);
		accounts_fold(a, u->name, f2);
		if (strcmp(f1, f2) == 0)
			return (0);	/* its own, in another case */
		accounts_error(c, PROTO_ESIGNED_IN);
		return (1);
	}
	if ((r = accounts_req_new(a, c, PROTO_NAME)) == NULL) {
		accounts_error(c, PROTO_EACCOUNTS_DOWN);
		return (1);
	}
	snprintf(r->name, sizeof r->name, "%s", name);
	accounts_fold(a, name, f1);
	if (store_rating(a->st, f1, accounts_answer, r) == -1)
		accounts_req_drop(r);
	return (1);
}
/* The accounts as the daemon drives them (service.h). */
void
accounts_service(struct accounts *a, struct service *svc)
{
	svc->start = accounts_start;
	svc->flush = NULL;	/* nothing waits for the end of a callback */
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

/* A connection is freed: its account, and its requests' client. */
static void
accounts_forget(void *arg, struct client *c)
{
	struct accounts		*a = arg;
	struct accounts_req	*r;
	struct accounts_game	*g;

	accounts_sign_out(a, c);
	TAILQ_FOREACH(r, &a->reqs, entry) {
		if (r->c == c)
			r->c = NULL;
	}
	TAILQ_FOREACH(g, &a->games, entry) {
		if (g->c[0] == c)
			g->c[0] = NULL;
		if (g->c[1] == c)
			g->c[1] = NULL;
	}
}

/*
 * A player leaves the world: a remote seat is freed soon after, and no
 * daemon's forget tells of it (its connection is another node's).
 */
static void
accounts_player_left(void *arg, struct client *c)
{
	if (c->flags & CLIENT_REMOTE)
		accounts_forget(arg, c);
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
	struct accounts		*a = arg;
	struct accounts_req	*r;
	struct accounts_game	*g;

	if (a == NULL)
		return;
	lobby_unlisten(a->lobby, &a->listener);
	store_free(a->st);	/* no callback: the requests are ours */

	while ((r = TAILQ_FIRST(&a->reqs)) != NULL) {
		TAILQ_REMOVE(&a->reqs, r, entry);
		free(r);
	}
	while ((g = TAILQ_FIRST(&a->games)) != NULL) {
		TAILQ_REMOVE(&a->games, g, entry);
		free(g);
	}
	accounts_read_free_all(a);
	while (!TAILQ_EMPTY(&a->users))
		accounts_sign_out(a, TAILQ_FIRST(&a->users)->c);
	free(a);
}

/*
 * The store's answer to a NAME: an account's name is refused; a free one
 * goes on to the other listeners (a cluster's nodes), then is taken.
 */
static void
accounts_named(struct accounts *a, struct client *c, const char *name,
    const struct store_result *res)
{
	enum proto_error	err;

	if (res->err == STORE_OK) {
		accounts_error(c, PROTO_ENAME_TAKEN);
		return;
	}
	if (res->err != STORE_ENOTFOUND) {
		accounts_error(c, accounts_failed(res));
		return;
	}
	if (!name_allowed(a->lobby, c, name)) {
		accounts_error(c, PROTO_ENAME_TAKEN);
		return;
	}
	if (lobby_name_claimed_after(a->lobby, &a->listener, c, name))
		return;
	if ((err = cmd_rename(c, name)) != PROTO_OK)
		accounts_error(c, err);
}

/* How a game ended, a word for its record. */
static const char *
accounts_ended(enum match_end how)
{
	static const char	*words[] = {
		[MATCH_END_LINE] = "line",
		[MATCH_END_FULL] = "full",
		[MATCH_END_EARLY_DRAW] = "early-draw",
		[MATCH_END_RESIGN] = "resign",
		[MATCH_END_TIME] = "time",
		[MATCH_END_QUIT] = "quit",
		[MATCH_END_DROP] = "drop",
		[MATCH_END_GONE_TIME] = "time"
	};

	return ((unsigned)how < sizeof words / sizeof words[0] ?
	    words[how] : "line");
}

/*
 * The account a connected player is signed in as: here, or on its own
 * node (a remote seat: as that node said, cluster-seat.c); 0: a guest.
 */
static int64_t
accounts_id_of(const struct client *c)
{
	if (c->flags & CLIENT_REMOTE)
		return (c->account_id);
	return (accounts_user(c) != NULL ? accounts_user(c)->id : 0);
}

/*
 * May this game be rated?  Two people, each either connected and signed
 * in (on this node, or on its own for a remote seat), or gone (lost,
 * quit) under a name of its own: an account's, as the store will say,
 * for a registered name is only its owner's.
 */
static int
accounts_rateable(const struct match *m)
{
	int	i;

	if (m->ai != MATCH_HUMAN)
		return (0);
	for (i = 0; i < 2; i++) {
		if (m->seat[i].name[0] == '\0')
			return (0);
		if (m->player[i] != NULL && accounts_id_of(m->player[i]) == 0)
			return (0);
	}
	return (1);
}

/* A rated game's record (match.h's, kept with the match) as the store's. */
static void
accounts_game_fill(struct accounts_game *g, uint64_t id,
    const struct match_record *r)
{
	char	cell[3];
	size_t	n = 0;
	int	i;

	g->match = id;
	snprintf(g->g.match, sizeof g->g.match, "%llu", (unsigned long long)id);
	g->g.number = (int)r->game;
	g->g.result = r->winner == TTT_X ? 'X' : r->winner == TTT_O ? 'O' :
	    'T';
	snprintf(g->g.ended, sizeof g->g.ended, "%s", accounts_ended(r->how));
	for (i = 0; i < r->nmoves && n + 3 < sizeof g->g.moves; i++) {
		ttt_cell_name(r->moves[i], cell);
		n += (size_t)snprintf(g->g.moves + n, sizeof g->g.moves - n,
		    "%s%s", i > 0 ? "," : "", cell);
	}
	g->g.at = r->at;
	g->want[0] = r->account[0];
	g->want[1] = r->account[1];
}

/* A rated game is done with: its players' output goes out. */
static void
accounts_game_done(struct accounts *a, struct accounts_game *g)
{
	uint64_t	id;
	unsigned	number;
	int		i;

	TAILQ_REMOVE(&a->games, g, entry);
	for (i = 0; i < 2; i++) {
		if (g->c[i] != NULL)
			a->host.release_out(a->host.arg, g->c[i]);
	}
	id = g->match;
	number = (unsigned)g->g.number;
	free(g);
	a->host.flush(a->host.arg);
	/* Cleared in the match's next image (after what was sent here). */
	match_record_done(a->lobby, id, number);
	accounts_settled(a);
}

/*
 * A game ended (the world's event, before its players are told): when it
 * may be rated, its record is kept with the match until committed (a
 * node that takes the match up writes it), both accounts are read, and
 * its connected players' output waits (RESULT first) until the game and
 * the new ratings are written.
 */
static void
accounts_game_ended(void *arg, struct match *m, enum ttt_mark w,
    enum match_end how)
{
	struct accounts		*a = arg;
	struct match_record	 r;
	int			 i;

	if (!accounts_rateable(m))
		return;
	memset(&r, 0, sizeof r);
	r.game = m->games;
	for (i = 0; i < 2; i++) {
		if (m->player[i] != NULL)
			r.account[i] = accounts_id_of(m->player[i]);
	}
	r.winner = w;
	r.how = how;
	memcpy(r.moves, m->moves, sizeof r.moves);
	r.nmoves = m->nmoves;
	r.at = accounts_now();
	for (i = 0; i < 2; i++)
		snprintf(r.name[i], sizeof r.name[i], "%s", m->seat[i].name);
	match_record_hold(m, &r);
	accounts_game_start(a, m->id, m, &r, 1);
}

/*
 * A match taken up from a dead node carries the record of a rated game
 * that node may not have committed: written now, once (the store keeps
 * a game once: if it is there, nothing changes and nobody is told).
 */
static void
accounts_record_taken(void *arg, struct match *m)
{
	struct accounts		*a = arg;
	struct match_record	 r = m->pending;
	int			 i;

	for (i = 0; i < 2; i++)
		snprintf(r.name[i], sizeof r.name[i], "%s", m->seat[i].name);
	log_info("match %llu: game %u's rated record taken up",
	    (unsigned long long)m->id, r.game);
	accounts_game_start(a, m->id, m, &r, 0);
}

/*
 * The record of a rated game whose match ended before its commit, taken
 * up alone from a dead node: written now, once, with nobody to tell.
 */
static void
accounts_record_orphaned(void *arg, uint64_t id, const struct match_record *r)
{
	struct accounts	*a = arg;

	log_info("match %llu: game %u's rated record taken up (the match "
	    "ended)", (unsigned long long)id, r->game);
	accounts_game_start(a, id, NULL, r, 0);
}

/*
 * A rated game's record (of match id, m if here) on its way: both
 * accounts read by the seats' names, then written.  With hold, its
 * connected players' output waits until then; without (a record taken
 * up), they are told when written.
 */
static void
accounts_game_start(struct accounts *a, uint64_t id, struct match *m,
    const struct match_record *r, int hold)
{
	struct accounts_game	*g;
	char			 fold[NAME_KEY_MAX];
	int			 i;

	if ((g = calloc(1, sizeof *g)) == NULL) {
		match_record_done(a->lobby, id, r->game);
		return;
	}
	g->a = a;
	g->taken = !hold;
	accounts_game_fill(g, id, r);
	TAILQ_INSERT_TAIL(&a->games, g, entry);
	for (i = 0; i < 2 && hold && m != NULL; i++) {
		if (m->player[i] == NULL ||
		    (m->player[i]->flags & CLIENT_CLOSING))
			continue;
		g->c[i] = m->player[i];
		a->host.hold_out(a->host.arg, g->c[i]);
	}
	for (i = 0; i < 2; i++) {
		accounts_fold(a, r->name[i], fold);
		if (store_rating(a->st, fold, accounts_game_read, g) == -1)
			g->reads++;	/* not found: not rated */
	}
	if (g->reads == 2)
		accounts_game_done(a, g);
}

/* An account as a rating, grown with the days since its last game. */
static void
accounts_aged(const struct store_account *acc, int64_t at, struct rating *r)
{
	struct rating	in = { acc->rating, acc->rd, acc->volatility };

	if (rating_age(&in, acc->last_game > 0 && at > acc->last_game ?
	    (double)(at - acc->last_game) / 86400.0 : 0, r) == -1)
		*r = in;
}

/*
 * A rated game's new ratings (store_rate_fn), from both accounts as the
 * store's transaction reads them, each aged to the game's end.
 */
static int
accounts_rate_game(const struct store_account *x,
    const struct store_account *o, struct store_game *g)
{
	const struct store_account	*acc[2] = { x, o };
	struct store_side		*side[2] = { &g->x, &g->o };
	struct rating			 before[2], after[2];
	enum rating_score		 score;
	int				 i;

	for (i = 0; i < 2; i++)
		accounts_aged(acc[i], g->at, &before[i]);
	score = g->result == 'X' ? RATING_WIN : g->result == 'O' ?
	    RATING_LOSS : RATING_TIE;
	if (rating_game(&before[0], &before[1], score, RATING_TAU,
	    &after[0], &after[1]) == -1)
		return (-1);
	for (i = 0; i < 2; i++) {
		snprintf(side[i]->name, sizeof side[i]->name, "%s",
		    acc[i]->name);
		side[i]->before = before[i].r;
		side[i]->rating = after[i].r;
		side[i]->rd = after[i].rd;
		side[i]->volatility = after[i].vol;
	}
	return (0);
}

/*
 * Both accounts found by name, each a connected seat's own: the game
 * written with the new ratings the store computes inside its transaction
 * (another game of a player, on another node, may land first).
 */
static int
accounts_game_rate(struct accounts *a, struct accounts_game *g)
{
	int	i;

	if (!g->found[0] || !g->found[1] || g->acc[0].id == g->acc[1].id)
		return (-1);
	for (i = 0; i < 2; i++) {
		if (g->want[i] != 0 && g->want[i] != g->acc[i].id)
			return (-1);	/* the name is another's now */
	}
	g->g.x.id = g->acc[0].id;
	g->g.o.id = g->acc[1].id;
	return (store_record_rated(a->st, &g->g, accounts_rate_game,
	    accounts_game_written, g));
}

/* One account of a game read (or not: then the game is not rated). */
static void
accounts_game_read(const struct store_result *res, void *arg)
{
	struct accounts_game	*g = arg;
	struct accounts		*a = g->a;
	int			 i = g->reads++;

	if (res->err == STORE_OK) {
		g->acc[i] = res->account;
		g->found[i] = 1;
	} else if (res->err != STORE_ENOTFOUND) {
		if (!g->fault)			/* told once */
			accounts_game_unrated(a, g, res);
		g->fault = 1;
	}
	if (g->reads < 2)
		return;
	if (g->fault || accounts_game_rate(a, g) == -1)
		accounts_game_done(a, g);
}

/*
 * The store failed a rated game (res): logged once until a game is
 * written again, and each player still here told the game is not rated.
 */
static void
accounts_game_unrated(struct accounts *a, struct accounts_game *g,
    const struct store_result *res)
{
	char	buf[PROTO_OUT_MAX];
	int	i;

	if (!a->write_failed) {
		log_warn("accounts: rated games are not written: %s: %s",
		    store_strerror(res->err), res->why);
		a->write_failed = 1;
	}
	for (i = 0; i < 2; i++) {
		if (g->c[i] != NULL)
			client_send(g->c[i], buf, proto_fmt_info(buf,
			    sizeof buf, "This game is not rated: the "
			    "accounts cannot be written now."));
	}
}

/*
 * The game and the new ratings are written (or not): each player still
 * here hears its new rating, or that the game is not rated; then its
 * output goes out, RESULT first.
 */
static void
accounts_game_written(const struct store_result *res, void *arg)
{
	struct accounts_game	*g = arg;
	struct accounts		*a = g->a;
	struct store_side	*side[2] = { &g->g.x, &g->g.o };
	struct match		*m;
	int			 i;

	if (res->err != STORE_OK) {
		accounts_game_unrated(a, g, res);
		accounts_game_done(a, g);
		return;
	}
	if (a->write_failed) {
		log_info("accounts: rated games are written again");
		a->write_failed = 0;
	}
	if (!res->written) {
		accounts_game_done(a, g);	/* there already: told then */
		return;
	}
	g->g = res->game;
	if (g->taken)
		log_info("match %s: game %d written by the node that took it "
		    "up", g->g.match, g->g.number);
	m = g->taken ? keytab_find(&a->lobby->ids, g->match) : NULL;
	for (i = 0; i < 2; i++) {
		if (g->c[i] != NULL)
			accounts_game_tell(a, g, g->c[i], i);
		else if (m != NULL && m->player[i] != NULL &&
		    !(m->player[i]->flags & CLIENT_CLOSING) &&
		    accounts_id_of(m->player[i]) == side[i]->id)
			accounts_game_tell(a, g, m->player[i], i);
	}
	accounts_game_done(a, g);
}

/* A player of a game written (its seat i) hears its new rating. */
static void
accounts_game_tell(struct accounts *a, struct accounts_game *g,
    struct client *c, int i)
{
	struct store_side	*side = i == 0 ? &g->g.x : &g->g.o;
	struct rating		 after;
	struct rating_shown	 sh;
	char			 buf[PROTO_OUT_MAX];

	g->before[i].r = side->before;
	after.r = side->rating;
	after.rd = side->rd;
	after.vol = side->volatility;
	rating_show(&after, &sh);
	if (accounts_id_of(c) == side->id)
		accounts_rate(a, c, after.r);	/* here, or its node told */
	client_send(c, buf, proto_fmt_info_rating(buf, sizeof buf, sh.r,
	    sh.provisional, rating_change(&g->before[i], &after)));
}

/*
 * A player took its seat back (RESUME: its token is the proof): under an
 * account's name it is signed in as the account again, once the store
 * says the name is one (its lines wait meanwhile).
 */
static void
accounts_seat_back(void *arg, struct match *m, int seat)
{
	struct accounts		*a = arg;
	struct client		*c = m->player[seat];
	struct accounts_req	*r;
	char			 fold[NAME_KEY_MAX];

	if (c == NULL || accounts_user(c) != NULL || c->ops->hold == NULL ||
	    (c->flags & CLIENT_REMOTE) || m->seat[seat].name[0] == '\0' ||
	    (r = accounts_req_new(a, c, PROTO_RESUME)) == NULL)
		return;
	snprintf(r->name, sizeof r->name, "%s", m->seat[seat].name);
	accounts_fold(a, r->name, fold);
	if (store_rating(a->st, fold, accounts_answer, r) == -1) {
		TAILQ_REMOVE(&a->reqs, r, entry);
		client_release(c, CLIENT_HOLD_STORE);
		free(r);
	}
}

/* The store's answer to a seat taken back under a name: signed in. */
static void
accounts_resumed(struct accounts *a, struct client *c, const char *name,
    const struct store_result *res)
{
	char	buf[PROTO_OUT_MAX], text[96], f1[NAME_KEY_MAX];
	char	f2[NAME_KEY_MAX];

	if (res->err != STORE_OK || accounts_user(c) != NULL ||
	    accounts_signed_in(a, res->account.id) != NULL)
		return;
	accounts_fold(a, c->name, f1);
	accounts_fold(a, name, f2);
	if (strcmp(f1, f2) != 0 || accounts_sign_in(a, c, &res->account) == -1)
		return;
	snprintf(text, sizeof text, "Signed in as %s again.", c->name);
	client_send(c, buf, proto_fmt_info(buf, sizeof buf, text));
}

/*
 * A read for one who is no player (the JSON API): RATING (verb
 * PROTO_RATING) or HISTORY of a name as typed (folded here, as NAME
 * folds it), or TOP; n lines for HISTORY and TOP.  Its answer comes to
 * cb later, always, unless cancelled; NULL when the store would not take
 * it (no callback then).
 */
struct accounts_read *
accounts_read(struct accounts *a, enum proto_verb verb, const char *name,
    int n, accounts_read_cb cb, void *arg)
{
	struct accounts_read	*rd;
	char			 fold[NAME_KEY_MAX];
	int			 rc;

	if ((rd = calloc(1, sizeof *rd)) == NULL)
		return (NULL);
	rd->a = a;
	rd->cb = cb;
	rd->arg = arg;
	accounts_fold(a, name, fold);
	if (verb == PROTO_TOP)
		rc = store_top(a->st, n, accounts_read_answer, rd);
	else if (verb == PROTO_HISTORY)
		rc = store_history(a->st, fold, n, accounts_read_answer, rd);
	else
		rc = store_rating(a->st, fold, accounts_read_answer, rd);
	if (rc == -1) {
		free(rd);
		return (NULL);
	}
	TAILQ_INSERT_TAIL(&a->reads, rd, entry);
	return (rd);
}

/* Its asker is gone: the read's answer goes nowhere. */
void
accounts_read_cancel(struct accounts_read *rd)
{
	rd->cb = NULL;
	rd->arg = NULL;
}

/* An account's rating as RATING shows it: aged to now, rounded. */
void
accounts_read_shown(const struct store_account *acc, struct rating_shown *sh)
{
	accounts_shown(acc, sh);
}

/* The store answered a read: to its asker, unless cancelled. */
static void
accounts_read_answer(const struct store_result *res, void *arg)
{
	struct accounts_read	*rd = arg;
	struct accounts		*a = rd->a;

	TAILQ_REMOVE(&a->reads, rd, entry);
	if (rd->cb != NULL)
		rd->cb(res, rd->arg);
	free(rd);
	a->host.flush(a->host.arg);
	accounts_settled(a);
}

/* The reads never answered (the store closed first): freed. */
static void
accounts_read_free_all(struct accounts *a)
{
	struct accounts_read	*rd;

	while ((rd = TAILQ_FIRST(&a->reads)) != NULL) {
		TAILQ_REMOVE(&a->reads, rd, entry);
		free(rd);
	}
}
