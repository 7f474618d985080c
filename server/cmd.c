/*
 * cmd.c -- one handler per verb.  Each checks the command against the game,
 * returns the error (which the caller reports, changing nothing), or sends
 * its OK reply first and then acts.  QUIT's road out of every place
 * (cmd_leave, cmd_detach), which a lost connection and the cluster take
 * too, is here, above the world: it calls the queue, rooms, watching,
 * matches and names, so that they need not call one another for it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "cmd.h"
#include "counters.h"
#include "lobby.h"
#include "log.h"
#include "match.h"
#include "name.h"
#include "place.h"
#include "room.h"

/* A verb's handler; each verb of proto/verbs.h names its own. */
typedef enum proto_error cmd_fn(struct client *, const struct proto_cmd *);
#define CMD_DECLARE(verb, word, args, handler, ...) \
	static cmd_fn cmd_##handler;
PROTO_VERBS(CMD_DECLARE)
#undef CMD_DECLARE

static void		cmd_ok(struct client *, const struct proto_cmd *);
static enum proto_error	cmd_switch(struct client *);
static int		cmd_chat_allowed(struct client *, int);

/*
 * The times of a player's last SAY lines, and of its last renames others
 * were told of, kept once it first does either.
 */
struct chatlog {
	struct chatring {
		int64_t		at[LOBBY_CHAT_MAX];	/* ms; a ring */
		unsigned	next;			/* the oldest */
	}		say, rename;
};

/* The verb table: each verb's handler, by proto/verbs.h. */
#define CMD_ENTRY(verb, word, args, handler, ...) \
	[PROTO_##verb] = cmd_##handler,
static cmd_fn *const cmd_table[] = {
	PROTO_VERBS(CMD_ENTRY)
};
#undef CMD_ENTRY

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

	client_send(c, buf, proto_fmt_ok(buf, sizeof buf, cmd));
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
	struct counter	ctr[COUNTERS_MAX];
	char		buf[PROTO_OUT_MAX];
	size_t		i, n;

	n = counters_get(c->lobby, ctr, COUNTERS_MAX);
	cmd_ok(c, cmd);
	for (i = 0; i < n; i++)
		client_send(c, buf, proto_fmt_stat(buf, sizeof buf,
		    ctr[i].name, ctr[i].value));
	client_send(c, buf, proto_fmt_end(buf, sizeof buf));
	return (PROTO_OK);
}

/*
 * NAME: allowed any time, if the Unicode rules pass it and nobody else
 * here goes by it or one like it; the opponent and the watchers hear of
 * it, a few times in a while (a rename they are told of is a line to
 * them too, as SAY is).
 */
static enum proto_error
cmd_name(struct client *c, const struct proto_cmd *cmd)
{
	if (!name_valid(cmd->name))
		return (PROTO_EBAD_NAME);
	if (!name_allowed(c->lobby, c, cmd->name))
		return (PROTO_ENAME_TAKEN);
	/* Free here; another node's player may have it (a cluster's). */
	if (c->ops->hold != NULL && !(c->flags & CLIENT_REMOTE) &&
	    strcmp(c->name, cmd->name) != 0 &&
	    lobby_name_claimed_after(c->lobby, NULL, c, cmd->name))
		return (PROTO_OK);
	return (cmd_rename(c, cmd->name));
}

/* The rename itself: NAME's checks passed, here and on other nodes. */
enum proto_error
cmd_rename(struct client *c, const char *name)
{
	struct proto_cmd	cmd = { .verb = PROTO_NAME };
	char			old[PROTO_NAME_MAX + 1] = "";

	snprintf(cmd.name, sizeof cmd.name, "%s", name);
	if (c->match != NULL) {
		snprintf(old, sizeof old, "%s", match_name(c->match, c->seat));
		if (strcmp(old, cmd.name) != 0 && !cmd_chat_allowed(c, 1))
			return (PROTO_ERATE_LIMITED);
	}
	name_take(c, cmd.name);
	cmd_ok(c, &cmd);
	if (c->match != NULL)
		match_renamed(c, old);
	return (PROTO_OK);
}

/*
 * REGISTER, LOGIN, REKEY, FORGET, RATING, HISTORY, TOP: the accounts'
 * (a service beside the world) to answer, or none here.
 */
static enum proto_error
cmd_account(struct client *c, const struct proto_cmd *cmd)
{
	if (lobby_account(c->lobby, c, cmd))
		return (PROTO_OK);
	return (PROTO_ENO_ACCOUNTS);
}

/* MOVE: in a game, on this player's turn, to a free cell. */
static enum proto_error
cmd_move(struct client *c, const struct proto_cmd *cmd)
{
	enum proto_error	err;

	if ((err = match_play(c, cmd->cell)) != PROTO_OK)
		return (err);
	cmd_ok(c, cmd);
	match_moved(c);
	return (PROTO_OK);
}

/*
 * BOARD: while in a match, also after its result, or watching one; during
 * a game TURN follows.
 */
static enum proto_error
cmd_board(struct client *c, const struct proto_cmd *cmd)
{
	if (c->match == NULL && c->watching == NULL)
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

/*
 * Not on this node: on another of its cluster, maybe.  1 if the host
 * asks them (and answers the client), as it may when the player could
 * switch (cmd_switch) and is not itself another node's.
 */
static int
cmd_elsewhere(struct client *c, const struct proto_cmd *cmd)
{
	const struct match	*m = c->match;

	if (c->ops->hold == NULL || (c->flags & CLIENT_REMOTE))
		return (0);
	if (m != NULL && m->state == MATCH_PLAYING && !match_may_abort(c))
		return (0);
	return (lobby_not_found(c->lobby, c, cmd));
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
	cmd_detach(c, PROTO_LEAVE_QUIT, 0);
	client_close(c);
	return (PROTO_OK);
}

/*
 * Leave the queue, a room, watching, or a match: aborted before one's
 * first move when leaving on purpose (QUIT), held for a lost connection
 * (hold) when there is a grace period, else left for good.
 */
void
cmd_leave(struct client *c, enum proto_leave why, int hold)
{
	switch (c->place) {
	case PLACE_QUEUE:
		lobby_leave(c->lobby, c);
		break;
	case PLACE_ROOM:
		room_close(c);
		break;
	case PLACE_WATCH:
		watch_leave(c);
		break;
	case PLACE_MATCH:
		if (why == PROTO_LEAVE_QUIT && match_may_abort(c))
			match_abort(c);
		else if (!hold || !resume_hold(c))
			match_leave(c, why);
		break;
	case PLACE_RELAY:
		place_set(c, PLACE_NONE);
		LOBBY_RAISE(c->lobby, relay_left, c, why, hold);
		break;
	case PLACE_NONE:
	case PLACE_GONE:
		break;
	}
	clock_stop(c);
}

/* Leave whatever the client is doing, once, for good. */
void
cmd_detach(struct client *c, enum proto_leave why, int hold)
{
	if (c->place == PLACE_GONE)
		return;
	cmd_leave(c, why, hold);
	name_drop(c);
	c->place = PLACE_GONE;
	LOBBY_RAISE(c->lobby, player_left, c);
}

/*
 * Leave what the player is doing for a room, a match to watch, a seat to
 * resume or the computer: the queue, a room, watching; a match before
 * one's first move is aborted, one after RESULT left as by a no.  Not a
 * game it has begun to play: IN_GAME, and nothing changes.
 */
static enum proto_error
cmd_switch(struct client *c)
{
	const struct match	*m = c->match;

	if (m != NULL && m->state == MATCH_PLAYING && !match_may_abort(c))
		return (PROTO_EIN_GAME);
	cmd_leave(c, PROTO_LEAVE_QUIT, 0);
	return (PROTO_OK);
}

/* ROOM NEW: a private room; ROOM JOIN <code>: play its maker. */
static enum proto_error
cmd_room(struct client *c, const struct proto_cmd *cmd)
{
	struct client	*maker = NULL;
	enum proto_error err;

	if (cmd->join) {
		/* A code is guessed at like a token: the same limits. */
		if (!lobby_guess_allowed(c->lobby, LOBBY_ROOMS, c))
			return (PROTO_ERATE_LIMITED);
		if ((maker = room_find(c->lobby, cmd->code)) == NULL) {
			if (cmd_elsewhere(c, cmd))
				return (PROTO_OK);
			lobby_guess_failed(c->lobby, LOBBY_ROOMS, c);
			return (PROTO_ENO_ROOM);
		}
		if (maker == c)
			return (PROTO_ENO_ROOM);
	}
	if ((err = cmd_switch(c)) != PROTO_OK)
		return (err);
	if (!cmd->join) {
		room_open(c);		/* OK ROOM <code>, WAIT */
		return (PROTO_OK);
	}
	log_info("client %llu: joined room %s", (unsigned long long)c->id,
	    cmd->code);
	room_close(maker);
	cmd_ok(c, cmd);
	match_new(c->lobby, maker, c);
	return (PROTO_OK);
}

/* GAMES: OK GAMES <n>, a GAME line per live match (oldest first). */
static enum proto_error
cmd_games(struct client *c, const struct proto_cmd *cmd)
{
	const struct lobby_cluster *cl = &c->lobby->cluster;
	const struct lobby_game	*g;
	struct match	*m;
	unsigned	 live = c->lobby->nlive, n, total, i;
	char		 buf[PROTO_OUT_MAX], text[64];

	(void)cmd;
	/* This node's matches, then those of the others (a cluster's). */
	total = live + cl->ngames + cl->games_more;
	n = live + cl->ngames;
	if (n > LOBBY_GAMES_MAX)
		n = LOBBY_GAMES_MAX;
	client_send(c, buf, proto_fmt_ok_games(buf, sizeof buf, n));
	TAILQ_FOREACH(m, &c->lobby->live, live_entry) {
		if (n == 0)
			break;
		client_send(c, buf, proto_fmt_game(buf, sizeof buf, m->id,
		    match_name(m, 0), match_name(m, 1),
		    ttt_board_moves(&m->board), (m->seat[0].away != NULL) |
		    (m->seat[1].away != NULL) << 1));
		n--;
	}
	for (i = 0; n > 0 && i < cl->ngames; i++, n--) {
		g = &cl->games[i];
		client_send(c, buf, proto_fmt_game(buf, sizeof buf, g->id,
		    g->name[0], g->name[1], g->moves, g->away));
	}
	if (total > LOBBY_GAMES_MAX) {
		snprintf(text, sizeof text, "%u more matches not listed.",
		    total - LOBBY_GAMES_MAX);
		client_send(c, buf, proto_fmt_info(buf, sizeof buf, text));
	}
	return (PROTO_OK);
}

/* WATCH <id>: the match's board now, then its lines as they come. */
static enum proto_error
cmd_watch(struct client *c, const struct proto_cmd *cmd)
{
	struct match	*m;
	enum proto_error err;
	enum ttt_mark	 mover;
	char		 buf[PROTO_OUT_MAX];
	int		 again;

	m = keytab_find(&c->lobby->ids, cmd->game);
	if (m == NULL || !match_live(m))
		return (cmd_elsewhere(c, cmd) ? PROTO_OK : PROTO_ENO_SUCH_GAME);
	if (c->lobby->limits.max_watchers != 0 &&
	    m->nwatchers >= c->lobby->limits.max_watchers && m != c->watching)
		return (PROTO_EWATCHERS_FULL);
	if (m == c->match)
		return (PROTO_EIN_GAME);
	/* The match it watches already: the snapshot again, no notices. */
	if ((again = m == c->watching))
		watch_stop(c);
	if ((err = cmd_switch(c)) != PROTO_OK)
		return (err);
	cmd_ok(c, cmd);
	client_send(c, buf, proto_fmt_info_watching(buf, sizeof buf, cmd->game,
	    match_name(m, 0), match_name(m, 1)));
	client_send(c, buf, proto_fmt_board(buf, sizeof buf, &m->board));
	if (m->state == MATCH_PLAYING) {
		mover = ttt_board_turn(&m->board);
		client_send(c, buf, proto_fmt_turn(buf, sizeof buf, mover, 0,
		    match_name(m, mover == TTT_O)));
	}
	watch_start(c, m, !again);
	return (PROTO_OK);
}

/* UNWATCH: stop watching, back to the queue. */
static enum proto_error
cmd_unwatch(struct client *c, const struct proto_cmd *cmd)
{
	if (c->watching == NULL)
		return (PROTO_ENOT_WATCHING);
	cmd_ok(c, cmd);
	watch_leave(c);
	lobby_join(c->lobby, c);
	return (PROTO_OK);
}

/* RESUME <token>: a seat back, within the limits on wrong tokens. */
static enum proto_error
cmd_resume(struct client *c, const struct proto_cmd *cmd)
{
	struct match		*m;
	enum proto_error	 err;
	int			 seat;

	if (!lobby_guess_allowed(c->lobby, LOBBY_TOKENS, c))
		return (PROTO_ERATE_LIMITED);
	if ((seat = resume_find(c->lobby, cmd->code, &m)) == -1) {
		if (cmd_elsewhere(c, cmd))
			return (PROTO_OK);
		lobby_guess_failed(c->lobby, LOBBY_TOKENS, c);
		return (PROTO_EBAD_TOKEN);
	}
	if (m == c->match)
		return (PROTO_EIN_GAME);
	/* A seat comes back a few times in a while: each is told to all. */
	if (!ratelimit_take_every(&m->seat[seat].resumes, LOBBY_SEAT_RESUME_MS,
	    LOBBY_SEAT_RESUMES, c->lobby->ops->now()))
		return (PROTO_ERATE_LIMITED);
	if ((err = cmd_switch(c)) != PROTO_OK)
		return (err);
	cmd_ok(c, cmd);
	resume_take(c, m, seat, keytab_code(cmd->code));
	return (PROTO_OK);
}

/*
 * PLAY AI [easy|perfect]: a match against the computer.  PLAY alone: the
 * public queue (a watcher whose match ended is in none); one waiting
 * there already keeps its place.
 */
static enum proto_error
cmd_play(struct client *c, const struct proto_cmd *cmd)
{
	enum proto_error	err;

	if (cmd->level == PROTO_LEVEL_QUEUE && c->place == PLACE_QUEUE) {
		cmd_ok(c, cmd);
		return (PROTO_OK);
	}
	if ((err = cmd_switch(c)) != PROTO_OK)
		return (err);
	cmd_ok(c, cmd);
	if (cmd->level == PROTO_LEVEL_QUEUE)
		lobby_join(c->lobby, c);
	else
		match_new_ai(c->lobby, c, cmd->level);
	return (PROTO_OK);
}

/*
 * At most LOBBY_CHAT_MAX SAY lines (rename: LOBBY_RENAME_MAX renames) in
 * any LOBBY_CHAT_WINDOW_MS: a window that slides, exactly (a token bucket
 * would let twice as many through in the first window).  Only lines sent
 * count.
 */
static int
cmd_chat_allowed(struct client *c, int rename)
{
	struct chatlog	*log = c->chat;
	struct chatring	*r;
	int64_t		 now = c->lobby->ops->now();
	unsigned	 i;

	if (log == NULL) {
		if ((log = c->chat = malloc(sizeof *log)) == NULL)
			fatalx("out of memory");
		for (i = 0; i < LOBBY_CHAT_MAX; i++)
			log->say.at[i] = log->rename.at[i] = INT64_MIN / 2;
		log->say.next = log->rename.next = 0;
	}
	r = rename ? &log->rename : &log->say;
	if (now - r->at[r->next] < LOBBY_CHAT_WINDOW_MS)
		return (0);
	r->at[r->next] = now;
	r->next = (r->next + 1) % (rename ? LOBBY_RENAME_MAX : LOBBY_CHAT_MAX);
	return (1);
}

/*
 * SAY <text>: CHAT to the opponent and the watchers, a few at a time; from
 * a watcher with a name, to the other watchers.
 */
static enum proto_error
cmd_say(struct client *c, const struct proto_cmd *cmd)
{
	struct match	*m = c->match;
	char		 buf[PROTO_OUT_MAX];

	if (m == NULL && c->watching == NULL)
		return (PROTO_ENO_GAME);
	if (m == NULL && c->name[0] == '\0')
		return (PROTO_ENO_NAME);
	if (!cmd_chat_allowed(c, 0))
		return (PROTO_ERATE_LIMITED);
	cmd_ok(c, cmd);
	c->lobby->stats.chats++;
	if (m == NULL) {
		/* A watcher talks to the other watchers, not the players. */
		watch_chat(c, buf, proto_fmt_chat(buf, sizeof buf, c->name,
		    cmd->text, cmd->textlen));
		return (PROTO_OK);
	}
	match_tell_others(m, c->seat, buf, proto_fmt_chat(buf, sizeof buf,
	    match_name(m, c->seat), cmd->text, cmd->textlen));
	return (PROTO_OK);
}

/* RESIGN: give up the game in progress, on either turn. */
static enum proto_error
cmd_resign(struct client *c, const struct proto_cmd *cmd)
{
	if (c->match == NULL || c->match->state != MATCH_PLAYING)
		return (PROTO_ENO_GAME);
	cmd_ok(c, cmd);
	log_info("client %llu: resigned", (unsigned long long)c->id);
	match_lose(c, MATCH_END_RESIGN);
	return (PROTO_OK);
}
