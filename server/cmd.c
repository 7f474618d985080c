/*
 * cmd.c -- one handler per verb.  Each checks the command against the game,
 * returns the error (which the caller reports, changing nothing), or sends
 * its OK reply first and then acts.
 */
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "lobby.h"
#include "log.h"
#include "match.h"
#include "session.h"

typedef enum proto_error (*cmd_fn)(struct client *, const struct proto_cmd *);

static enum proto_error	cmd_name(struct client *, const struct proto_cmd *);
static enum proto_error	cmd_move(struct client *, const struct proto_cmd *);
static enum proto_error	cmd_board(struct client *, const struct proto_cmd *);
static enum proto_error	cmd_again(struct client *, const struct proto_cmd *);
static enum proto_error	cmd_quit(struct client *, const struct proto_cmd *);
static enum proto_error	cmd_reply(struct client *, const struct proto_cmd *);
static enum proto_error	cmd_stats(struct client *, const struct proto_cmd *);
static void		cmd_ok(struct client *, const struct proto_cmd *);

/* The verb table: the handler of each command. */
static const cmd_fn cmd_table[] = {
	[PROTO_NAME] = cmd_name,
	[PROTO_MOVE] = cmd_move,
	[PROTO_BOARD] = cmd_board,
	[PROTO_AGAIN] = cmd_again,
	[PROTO_QUIT] = cmd_quit,
	[PROTO_HELP] = cmd_reply,
	[PROTO_PING] = cmd_reply,
	[PROTO_STATS] = cmd_stats,
};

/* Run a parsed command; PROTO_OK, or the error to report. */
enum proto_error
cmd_dispatch(struct client *c, const struct proto_cmd *cmd)
{
	if ((unsigned)cmd->verb >= sizeof cmd_table / sizeof cmd_table[0] ||
	    cmd_table[cmd->verb] == NULL)
		return (PROTO_EUNKNOWN_COMMAND);
	return (cmd_table[cmd->verb](c, cmd));
}

/* Send the command's OK reply. */
static void
cmd_ok(struct client *c, const struct proto_cmd *cmd)
{
	char	buf[PROTO_OUT_MAX];

	session_sendn(c, buf, proto_fmt_ok(buf, sizeof buf, cmd));
}

/* HELP and PING: the reply is all. */
static enum proto_error
cmd_reply(struct client *c, const struct proto_cmd *cmd)
{
	cmd_ok(c, cmd);
	return (PROTO_OK);
}

/* STATS: OK STATS, a STAT line per counter, END (as memcached does). */
static enum proto_error
cmd_stats(struct client *c, const struct proto_cmd *cmd)
{
	const struct lobby		*l = c->lobby;
	const struct lobby_stats	*st = &l->stats;
	char				 buf[PROTO_OUT_MAX];
	const struct {
		const char		*name;
		unsigned long long	 value;
	} stats[] = {
		{ "uptime", (unsigned long long)
		    ((l->ops->now() - st->started) / 1000) },
		{ "connections_current", st->connections_current },
		{ "connections_total", st->connections_total },
		{ "connections_rejected", st->connections_rejected },
		{ "players_waiting", l->nqueued },
		{ "matches_live", l->nmatches },
		{ "games_finished", st->games_finished },
		{ "wins", st->wins },
		{ "ties", st->ties },
		{ "forfeits", st->forfeits },
		{ "moves", st->moves },
		{ "errors", st->errors },
		{ "bytes_in", st->bytes_in },
		{ "bytes_out", st->bytes_out },
	};
	size_t				 i;

	cmd_ok(c, cmd);
	for (i = 0; i < sizeof stats / sizeof stats[0]; i++)
		session_sendn(c, buf, proto_fmt_stat(buf, sizeof buf,
		    stats[i].name, stats[i].value));
	session_sendn(c, buf, proto_fmt_end(buf, sizeof buf));
	return (PROTO_OK);
}

/* NAME: allowed any time; the opponent hears of it. */
static enum proto_error
cmd_name(struct client *c, const struct proto_cmd *cmd)
{
	char	old[PROTO_NAME_MAX + 1] = "";

	if (c->match != NULL)
		snprintf(old, sizeof old, "%s", match_name(c->match, c->seat));
	memcpy(c->name, cmd->name, sizeof c->name);
	cmd_ok(c, cmd);
	if (c->match != NULL && strcmp(old, c->name) != 0)
		match_renamed(c, old);
	return (PROTO_OK);
}

/* MOVE: in a game, on this player's turn, to a free cell. */
static enum proto_error
cmd_move(struct client *c, const struct proto_cmd *cmd)
{
	enum proto_error	err;

	if ((err = match_check_move(c, cmd->cell)) != PROTO_OK)
		return (err);
	cmd_ok(c, cmd);
	match_play(c, cmd->cell);
	return (PROTO_OK);
}

/* BOARD: while in a match, also after its result. */
static enum proto_error
cmd_board(struct client *c, const struct proto_cmd *cmd)
{
	if (c->match == NULL)
		return (PROTO_ENO_GAME);
	cmd_ok(c, cmd);
	match_send_board(c);
	return (PROTO_OK);
}

/* AGAIN: only while the question is open; no means goodbye. */
static enum proto_error
cmd_again(struct client *c, const struct proto_cmd *cmd)
{
	enum proto_error	err;

	if ((err = match_check_answer(c)) != PROTO_OK)
		return (err);
	cmd_ok(c, cmd);
	if (cmd->yes)
		match_again(c);
	else
		cmd_quit(c, cmd);
	return (PROTO_OK);
}

/* QUIT (or AGAIN no): BYE, leave whatever is open, close. */
static enum proto_error
cmd_quit(struct client *c, const struct proto_cmd *cmd)
{
	static const struct proto_cmd	quit = { .verb = PROTO_QUIT };

	(void)cmd;
	cmd_ok(c, &quit);
	log_info("client %llu: quit from %s", (unsigned long long)c->id,
	    c->addr);
	session_close(c);
	return (PROTO_OK);
}
