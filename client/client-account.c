/*
 * client-account.c -- the player's account on the server (protocol.md
 * §12), and the start of a session that depends on it.
 *
 * Before connecting, the key kept for the server (keyfile.c, account.c)
 * is read; after the greeting the client signs in with it (LOGIN) and
 * goes by the account's name, asking none.  A key the server refuses is
 * said to be refused, and kept; the player goes on as a guest, named as
 * without a key.  --guest skips all of it.  --register: once the name is
 * taken (OK NAME), REGISTER, and the KEY that follows is kept in a new
 * file, never over one.  The mode's command (out_begin) waits for these
 * replies, and so do the player's lines, so that each reply is known by
 * its place.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "account.h"
#include "client-account.h"
#include "keyfile.h"

static void	client_account_start(struct client *);
static int	client_account_signing(struct client *,
		    const struct proto_event *);
static int	client_account_registering(struct client *,
		    const struct proto_event *);
static void	client_account_key(struct client *, const char *);
static void	client_account_refused(struct client *,
		    const struct proto_event *);

/*
 * Before connecting: the key file of the server, by the options.  0 to go
 * on (a key to sign in with, or none: a file that is not used is said why
 * on stderr); -1 if --register cannot be done (why on stderr).
 */
int
client_account_open(struct client *c)
{
	const struct client_opts	*o = c->opts;
	char				 why[CLIENT_PATH_MAX + 256];
	int				 r;

	if (o->account == ARGS_ACCOUNT_GUEST)
		return (0);
	if (keyfile_path(c->keypath, sizeof c->keypath,
	    getenv("XDG_CONFIG_HOME"), getenv("HOME"), o->host, o->port) == -1) {
		c->keypath[0] = '\0';
		if (o->account != ARGS_ACCOUNT_REGISTER)
			return (0);
		fprintf(stderr, "ttt-client: --register: no place to keep the key: set HOME or XDG_CONFIG_HOME\n");
		return (-1);
	}
	if (o->account == ARGS_ACCOUNT_REGISTER) {
		if (account_exists(c->keypath)) {
			fprintf(stderr, "ttt-client: --register: a key for %s port %s is kept in %s already, and is not replaced; run without --register to sign in with it, or move the file away first\n",
			    o->host, o->port, c->keypath);
			return (-1);
		}
		if (o->name == NULL &&
		    (!c->tty || o->mode == CLIENT_MODE_WATCH)) {
			fprintf(stderr, "ttt-client: --register needs the name to register: add --name NAME\n");
			return (-1);
		}
		c->acct = CLIENT_ACCT_REGISTER;
		return (0);
	}
	if ((r = account_load(c->keypath, c->key, sizeof c->key, why,
	    sizeof why)) == -1)
		fprintf(stderr, "ttt-client: %s; you play as a guest\n", why);
	/* --resume: the server signs the seat's player in again itself. */
	if (r == 1 && o->mode != CLIENT_MODE_GAMES &&
	    o->mode != CLIENT_MODE_RESUME)
		c->acct = CLIENT_ACCT_LOGIN;
	return (0);
}

/* The greeting: sign in with the kept key, or choose the name. */
void
client_account_hello(struct client *c)
{
	if (c->acct == CLIENT_ACCT_LOGIN) {
		out_send(c, "LOGIN %s", c->key);
		c->acct = CLIENT_ACCT_SIGNING;
		return;		/* client_account_start follows the reply */
	}
	client_account_start(c);
}

/*
 * The name, unless signed in (then the account's is the name): --name's,
 * or asked on a terminal; then register it, or begin the mode.  Where
 * the name would be asked, one the server refuses is asked for again
 * (client_naming in client-event.c).
 */
static void
client_account_start(struct client *c)
{
	enum client_mode	mode = c->opts->mode;
	int			ask;

	if (c->signed_in) {
		out_begin(c);
		return;
	}
	ask = c->tty && mode != CLIENT_MODE_WATCH && mode != CLIENT_MODE_RESUME;
	if (c->opts->name != NULL) {
		out_send(c, "NAME %s", c->opts->name);
		c->named = 1;
		c->naming = ask;	/* refused, it is asked for */
	} else if (ask) {
		c->prompt = CLIENT_PROMPT_NAME;
		return;		/* client_account_begin follows the answer */
	}
	client_account_begin(c);
}

/*
 * The name is chosen (c->named if NAME was sent): with --register,
 * REGISTER once the server has taken it; otherwise the mode's command.
 */
void
client_account_begin(struct client *c)
{
	if (c->acct != CLIENT_ACCT_REGISTER) {
		out_begin(c);
		return;
	}
	if (c->named) {
		c->acct = CLIENT_ACCT_NAMING;
		return;
	}
	out_send(c, "REGISTER");
	c->acct = CLIENT_ACCT_REGISTERING;
}

/*
 * Back in the queue on a new connection: signed in again with the key,
 * or named again.
 */
void
client_account_requeue(struct client *c)
{
	if (c->signed_in && c->key[0] != '\0') {
		c->signed_in = 0;
		out_send(c, "LOGIN %s", c->key);
		c->acct = CLIENT_ACCT_RESIGNING;
	} else if (c->name[0] != '\0')
		out_send(c, "NAME %s", c->name);
}

/* Is a reply about the account awaited (the player's lines wait)? */
int
client_account_busy(const struct client *c)
{
	return (c->acct >= CLIENT_ACCT_SIGNING && c->fd != -1);
}

/* The server did not take the kept key: said, and the player a guest. */
static void
client_account_refused(struct client *c, const struct proto_event *ev)
{
	char	text[CLIENT_PATH_MAX + RENDER_MAX];

	render_key_refused(text, sizeof text, ev, c->keypath);
	out_print(c, text);
}

/* LOGIN's reply: signed in, or a guest; then, the first time, the start. */
static int
client_account_signing(struct client *c, const struct proto_event *ev)
{
	char	text[RENDER_MAX];
	int	first = (c->acct == CLIENT_ACCT_SIGNING);

	if (ev->kind == PROTO_EV_OK && ev->verb == PROTO_LOGIN) {
		render_account(text, sizeof text, ev);
		out_print(c, text);
		snprintf(c->name, sizeof c->name, "%s", ev->name);
		c->signed_in = 1;
	} else if (ev->kind == PROTO_EV_ERR)
		client_account_refused(c, ev);
	else
		return (0);
	c->acct = CLIENT_ACCT_NONE;
	if (first)
		client_account_start(c);
	return (1);
}

/* KEY after REGISTER: kept in the new file, or shown if it cannot be. */
static void
client_account_key(struct client *c, const char *key)
{
	char	text[CLIENT_PATH_MAX + RENDER_MAX], why[256];

	snprintf(c->key, sizeof c->key, "%s", key);
	c->signed_in = 1;
	if (account_save(c->keypath, key, why, sizeof why) == 0)
		render_key_kept(text, sizeof text, c->name, c->keypath);
	else
		render_key_unkept(text, sizeof text, key, c->keypath, why);
	out_print(c, text);
}

/*
 * --register's replies: OK NAME (then REGISTER), OK REGISTER, KEY (then
 * the mode); an ERR to NAME or REGISTER ends the client with its reason.
 */
static int
client_account_registering(struct client *c, const struct proto_event *ev)
{
	char	text[RENDER_MAX], why[RENDER_MAX + 32];

	if (ev->kind == PROTO_EV_ERR) {
		render_event(text, sizeof text, ev, NULL);
		text[strcspn(text, "\n")] = '\0';
		snprintf(why, sizeof why, "cannot register: %s", text);
		out_fail(c, why);
		return (1);
	}
	if (ev->kind == PROTO_EV_OK && ev->verb == PROTO_NAME &&
	    c->acct == CLIENT_ACCT_NAMING) {
		out_send(c, "REGISTER");
		c->acct = CLIENT_ACCT_REGISTERING;
	} else if (ev->kind == PROTO_EV_OK && ev->verb == PROTO_REGISTER)
		snprintf(c->name, sizeof c->name, "%s", ev->name);
	else if (ev->kind == PROTO_EV_KEY &&
	    c->acct == CLIENT_ACCT_REGISTERING) {
		client_account_key(c, ev->acct.key);
		c->acct = CLIENT_ACCT_NONE;
		out_begin(c);
		return (1);
	}
	return (0);
}

/*
 * A server line while a reply about the account is awaited: 1 if it has
 * been dealt with here, 0 if it goes on to be shown and acted on.  The
 * errors after which the server closes are not the account's.
 */
int
client_account_event(struct client *c, const struct proto_event *ev)
{
	if (!client_account_busy(c) || (ev->kind == PROTO_EV_ERR &&
	    (ev->error == PROTO_ESERVER_FULL ||
	    ev->error == PROTO_ETOO_MANY_CONNECTIONS ||
	    ev->error == PROTO_ELINE_TIMEOUT)))
		return (0);
	if (c->acct == CLIENT_ACCT_SIGNING || c->acct == CLIENT_ACCT_RESIGNING)
		return (client_account_signing(c, ev));
	return (client_account_registering(c, ev));
}
