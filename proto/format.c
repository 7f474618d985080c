/*
 * format.c -- every line the server sends, board art included.
 *
 * Lines end in CRLF.  Keywords and fixed arguments come first, then free
 * text for people; lines for people only start with a space.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "proto.h"
#include "utf8.h"

/* A CHAT line with the longest name and text fits what a client takes. */
_Static_assert(sizeof "CHAT " - 1 + PROTO_NAME_MAX + 1 + PROTO_LINE_MAX + 2 <
    PROTO_OUT_MAX, "a CHAT line must fit PROTO_OUT_MAX");

struct proto_error_entry {
	const char	*code;
	const char	*text;
};

/* Code and human text of each error, indexed by enum proto_error. */
static const struct proto_error_entry proto_errors[PROTO_NERRORS] = {
	[PROTO_OK] = { "OK", "" },
	[PROTO_ELINE_TOO_LONG] = { "LINE_TOO_LONG",
	    "Lines are limited to 256 bytes." },
	[PROTO_EBAD_CHAR] = { "BAD_CHAR",
	    "Only UTF-8 text without control characters is accepted." },
	[PROTO_EUNKNOWN_COMMAND] = { "UNKNOWN_COMMAND",
	    "Unknown command. Type HELP for the list of commands." },
	[PROTO_EBAD_CELL] = { "BAD_CELL",
	    "Invalid input. Accepted examples: A1, b2, C3." },
	[PROTO_EBAD_NAME] = { "BAD_NAME",
	    "A name is 1 to 16 letters, digits, '_' or '-'." },
	[PROTO_EBAD_ANSWER] = { "BAD_ANSWER", "Please enter y or n." },
	[PROTO_ENO_GAME] = { "NO_GAME", "You are not in a game right now." },
	[PROTO_ENOT_YOUR_TURN] = { "NOT_YOUR_TURN",
	    "It is not your turn. Please wait." },
	[PROTO_ETAKEN] = { "TAKEN", "That square is already taken. Try again." },
	[PROTO_ENOT_NOW] = { "NOT_NOW", "There is no question to answer now." },
	[PROTO_ESERVER_FULL] = { "SERVER_FULL",
	    "The server is full. Please try again later." },
	[PROTO_ETOO_MANY_CONNECTIONS] = { "TOO_MANY_CONNECTIONS",
	    "Too many connections from your address. Please try again later." },
	[PROTO_ERATE_LIMITED] = { "RATE_LIMITED",
	    "Too many commands. Please slow down." },
	[PROTO_ELINE_TIMEOUT] = { "LINE_TIMEOUT",
	    "Your line was not finished in time. Goodbye." },
	[PROTO_ENOT_HTTP] = { "NOT_HTTP",
	    "This is a Tic Tac Toe server, not a web server. Goodbye." },
	[PROTO_EIN_GAME] = { "IN_GAME",
	    "You are in a game; finish it, RESIGN or QUIT first." },
	[PROTO_EBAD_ROOM] = { "BAD_ROOM", "Use ROOM NEW, or ROOM JOIN <code>." },
	[PROTO_ENO_ROOM] = { "NO_ROOM", "No room with that code is open." },
	[PROTO_ENO_SUCH_GAME] = { "NO_SUCH_GAME",
	    "No match with that number is being played." },
	[PROTO_ENOT_WATCHING] = { "NOT_WATCHING",
	    "You are not watching a game." },
	[PROTO_EBAD_TOKEN] = { "BAD_TOKEN",
	    "That code does not match a seat you can resume." },
	[PROTO_EBAD_LEVEL] = { "BAD_LEVEL",
	    "Use PLAY AI, PLAY AI easy or PLAY AI perfect." },
	[PROTO_EBAD_TEXT] = { "BAD_TEXT",
	    "A chat line is 1 to 200 characters, without TAB." },
	[PROTO_ENAME_TAKEN] = { "NAME_TAKEN",
	    "That name is taken; choose another." },
	[PROTO_EWATCHERS_FULL] = { "WATCHERS_FULL",
	    "That game has as many watchers as it can take." },
	[PROTO_ENO_NAME] = { "NO_NAME",
	    "Choose a name with NAME before you chat." },
	[PROTO_ENO_ACCOUNTS] = { "NO_ACCOUNTS",
	    "This server keeps no accounts: everyone plays as a guest." },
	[PROTO_EBAD_KEY] = { "BAD_KEY", "No account has that key." },
	[PROTO_ENO_SUCH_PLAYER] = { "NO_SUCH_PLAYER",
	    "No account has that name." },
	[PROTO_ENOT_SIGNED_IN] = { "NOT_SIGNED_IN",
	    "Sign in first: LOGIN <key>, or REGISTER your name." },
	[PROTO_ESIGNED_IN] = { "SIGNED_IN",
	    "You are signed in: your name is your account's." },
	[PROTO_EBAD_COUNT] = { "BAD_COUNT",
	    "Ask for 1 to 100 lines." },
	[PROTO_EACCOUNTS_DOWN] = { "ACCOUNTS_DOWN",
	    "The accounts cannot be reached now; try again later." },
};

/* The HELP block after "OK HELP": space-led lines for people. */
static const char proto_help[] =
    "  Commands (any case; a bare cell or y/n works too):\r\n"
    "    MOVE <cell>   play a cell, A1 to C3 (or just type b2)\r\n"
    "    BOARD         show the board again\r\n"
    "    AGAIN y|n     answer 'Play again?' (or just type y or n)\r\n"
    "    NAME <name>   set your name: 1-16 letters, digits, _ or -\r\n"
    "    PING          check that the server is there\r\n"
    "    STATS         the server's statistics\r\n"
    "    ROOM NEW      make a private room; ROOM JOIN <code> to join one\r\n"
    "    PLAY AI       play the computer (PLAY AI easy for a gentler one)\r\n"
    "    PLAY          wait for an opponent again (after watching)\r\n"
    "    GAMES         list the matches; WATCH <id> to watch one, UNWATCH\r\n"
    "    SAY <text>    chat with your opponent\r\n"
    "    RESIGN        give up this game, stay for the next\r\n"
    "    RESUME <code> take your seat back after a lost connection\r\n"
    "    HELP          this list\r\n"
    "    QUIT          leave (the game is forfeited)\r\n";

static const char *proto_leave_texts[] = {
	[PROTO_LEAVE_QUIT] = "quit the game",
	[PROTO_LEAVE_DROP] = "lost the connection",
	[PROTO_LEAVE_TIMEOUT] = "ran out of time",
};

static int	proto_fmt(char *, size_t, const char *, ...)
		    __attribute__((format(printf, 3, 4)));
static int	proto_cat(char *, size_t, ...)
		    __attribute__((sentinel));

/* snprintf that returns 0 instead of a negative value. */
static int
proto_fmt(char *buf, size_t size, const char *fmt, ...)
{
	va_list	ap;
	int	n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	if (n < 0)
		return (0);
	if ((size_t)n >= size && size > 0)	/* cut: no half character */
		buf[utf8_trim(buf, size - 1)] = '\0';
	return (n);
}

/*
 * The strings up to a NULL, end to end, snprintf's way (what fits, NUL
 * ended, no half character; returns the whole length): the lines sent on every move and
 * PING are built so, as printf costs more than their sending does.
 */
static int
proto_cat(char *buf, size_t size, ...)
{
	va_list		 ap;
	const char	*s;
	size_t		 n, total = 0;

	va_start(ap, size);
	while ((s = va_arg(ap, const char *)) != NULL) {
		n = strlen(s);
		if (total + 1 < size)
			memcpy(buf + total, s, total + n < size - 1 ? n :
			    size - 1 - total);
		total += n;
	}
	va_end(ap);
	if (size > 0)
		buf[total < size - 1 ? total : utf8_trim(buf, size - 1)] = '\0';
	return ((int)total);
}

/*
 * Copy what fits of n bytes to buf at off, snprintf's way: off + n.  What
 * is cut ends on a whole character.
 */
static size_t
proto_put(char *buf, size_t size, size_t off, const char *s, size_t n)
{
	if (off < size) {
		size_t	k = n < size - 1 - off ? n : size - 1 - off;

		memcpy(buf + off, s, k);
		buf[k < n ? utf8_trim(buf, off + k) : off + k] = '\0';
	}
	return (off + n);
}

/* The protocol code of an error ("BAD_CELL"). */
const char *
proto_error_code(enum proto_error e)
{
	if ((unsigned)e >= PROTO_NERRORS)
		return ("UNKNOWN");
	return (proto_errors[e].code);
}

/* The human text of an error. */
const char *
proto_error_text(enum proto_error e)
{
	if ((unsigned)e >= PROTO_NERRORS)
		return ("");
	return (proto_errors[e].text);
}

/* The greeting: HELLO and its human line. */
int
proto_fmt_hello(char *buf, size_t size)
{
	return (proto_fmt(buf, size, "HELLO tttd/%d Welcome to Tic Tac Toe, "
	    "Ready for a game?\r\n  Type 'quit' at any time to exit.\r\n",
	    PROTO_VERSION));
}

/*
 * The reply to an accepted command: OK, its verb's reply word and what its
 * argument shape carries back, without printf (one goes out on each move).
 * QUIT's reply is BYE; OK GAMES, which carries a count, proto_fmt_ok_games'.
 */
int
proto_fmt_ok(char *buf, size_t size, const struct proto_cmd *cmd)
{
	const struct proto_verb_entry	*e = proto_verb_info(cmd->verb);
	const char			*arg = NULL;
	char				 num[24], *p;
	size_t				 n, alen;

	if (cmd->verb == PROTO_QUIT)
		return (proto_fmt_bye(buf, size, "Thank you for playing!"));
	if (cmd->verb == PROTO_HELP)
		return (proto_fmt(buf, size, "OK HELP\r\n%s", proto_help));
	if (e->oklen == 0 || e->args == PROTO_ARGS_COUNT)
		return ((int)proto_put(buf, size, 0, "", 0));
	switch (e->args) {
	case PROTO_ARGS_NAME:
		arg = cmd->name;
		break;
	case PROTO_ARGS_ROOM:
		proto_fmt_code(num, cmd->code);
		arg = num;
		break;
	case PROTO_ARGS_CELL:
		ttt_cell_name(cmd->cell, num);
		arg = num;
		break;
	case PROTO_ARGS_ANSWER:
		arg = cmd->yes ? "y" : "n";
		break;
	case PROTO_ARGS_GAME:
		proto_fmt(num, sizeof num, "%llu", cmd->game);
		arg = num;
		break;
	case PROTO_ARGS_LEVEL:
		if (cmd->level != PROTO_LEVEL_QUEUE)
			arg = cmd->level == PROTO_LEVEL_EASY ? "AI easy" :
			    "AI perfect";
		break;
	default:
		break;
	}
	alen = arg != NULL ? strlen(arg) : 0;
	n = 3 + e->oklen + (arg != NULL ? 1 + alen : 0) + 2;
	if (n < size) {
		/* It fits (a move's always does): copied at once. */
		memcpy(buf, "OK ", 3);
		memcpy(buf + 3, e->ok, e->oklen);
		p = buf + 3 + e->oklen;
		if (arg != NULL) {
			*p++ = ' ';
			memcpy(p, arg, alen);
			p += alen;
		}
		memcpy(p, "\r\n", 3);
		return ((int)n);
	}
	n = proto_put(buf, size, 0, "OK ", 3);
	n = proto_put(buf, size, n, e->ok, e->oklen);
	if (arg != NULL) {
		n = proto_put(buf, size, n, " ", 1);
		n = proto_put(buf, size, n, arg, alen);
	}
	return ((int)proto_put(buf, size, n, "\r\n", 2));
}

/* ERR <CODE> <text>. */
int
proto_fmt_error(char *buf, size_t size, enum proto_error e)
{
	return (proto_cat(buf, size, "ERR ", proto_error_code(e), " ",
	    proto_error_text(e), "\r\n", (char *)NULL));
}

/* ERR with a text of its own: REGISTER's NO_NAME. */
int
proto_fmt_error_text(char *buf, size_t size, enum proto_error e,
    const char *text)
{
	return (proto_cat(buf, size, "ERR ", proto_error_code(e), " ", text,
	    "\r\n", (char *)NULL));
}

/* WAIT: queued for an opponent, or (with a name) for that one's answer. */
int
proto_fmt_wait(char *buf, size_t size, const char *opponent)
{
	if (opponent == NULL)
		return (proto_cat(buf, size,
		    "WAIT " PROTO_WAIT_QUEUED "\r\n", (char *)NULL));
	return (proto_cat(buf, size, "WAIT Waiting for ", opponent,
	    " to answer...\r\n", (char *)NULL));
}

/* MATCH <your-mark> <opponent> <text>. */
int
proto_fmt_match(char *buf, size_t size, enum ttt_mark mine,
    const char *opponent)
{
	return (proto_fmt(buf, size, "MATCH %c %s You play %c against %s.\r\n",
	    ttt_mark_char(mine), opponent, ttt_mark_char(mine), opponent));
}

/* START <first-mark> <text>. */
int
proto_fmt_start(char *buf, size_t size, enum ttt_mark first,
    const char *name)
{
	const char	mark[2] = { ttt_mark_char(first), '\0' };

	return (proto_cat(buf, size, "START ", mark, " ", name, " (", mark,
	    ") moves first.\r\n", (char *)NULL));
}

/*
 * The board art, a template whose cells are filled in: BOARD goes out
 * after every move, so it is built without printf.
 */
static const char proto_art[] =
    "      A   B   C\r\n"
    "  1   . | . | .\r\n"
    "     ---+---+---\r\n"
    "  2   . | . | .\r\n"
    "     ---+---+---\r\n"
    "  3   . | . | .\r\n";
/* Where cell i sits in proto_art. */
static const unsigned char proto_art_cell[TTT_CELLS] = {
	23, 27, 31, 58, 62, 66, 93, 97, 101
};
#define PROTO_ART_LEN	(sizeof proto_art - 1)

/* The board art into out (PROTO_ART_LEN bytes). */
static void
proto_art_fill(char *out, const struct ttt_board *b)
{
	int	i;

	memcpy(out, proto_art, PROTO_ART_LEN);
	for (i = 0; i < TTT_CELLS; i++) {
		enum ttt_mark	m = ttt_board_at(b, i);

		out[proto_art_cell[i]] = (m == TTT_EMPTY) ? ' ' :
		    ttt_mark_char(m);
	}
}

/* The board art alone: the seed layout, each line led by two spaces. */
int
proto_fmt_board_art(char *buf, size_t size, const struct ttt_board *b)
{
	char	art[PROTO_ART_LEN];

	proto_art_fill(art, b);
	return ((int)proto_put(buf, size, 0, art, sizeof art));
}

/* BOARD <9 cells>, then the board art. */
int
proto_fmt_board(char *buf, size_t size, const struct ttt_board *b)
{
	char	out[6 + TTT_CELLS + 2 + PROTO_ART_LEN];
	int	i;

	memcpy(out, "BOARD ", 6);
	for (i = 0; i < TTT_CELLS; i++)
		out[6 + i] = ttt_mark_char(ttt_board_at(b, i));
	memcpy(out + 6 + TTT_CELLS, "\r\n", 2);
	proto_art_fill(out + 6 + TTT_CELLS + 2, b);
	return ((int)proto_put(buf, size, 0, out, sizeof out));
}

/* TURN <mark> <text>: the prompt for the mover, a wait line for the other. */
int
proto_fmt_turn(char *buf, size_t size, enum ttt_mark mover, int mine,
    const char *mover_name)
{
	const char	mark[2] = { ttt_mark_char(mover), '\0' };

	if (mine)
		return (proto_cat(buf, size, "TURN ", mark, " Enter your move "
		    "(A1, B2, C3) or 'quit' to exit:\r\n", (char *)NULL));
	return (proto_cat(buf, size, "TURN ", mark, " Waiting for ",
	    mover_name, " to move...\r\n", (char *)NULL));
}

/* RESULT WIN or RESULT TIE for a finished board. */
int
proto_fmt_result(char *buf, size_t size, const struct ttt_board *b,
    const char *winner, const char *loser)
{
	enum ttt_mark	w = ttt_board_winner(b);
	const char	mark[2] = { ttt_mark_char(w), '\0' };

	if (w == TTT_EMPTY)
		return (proto_fmt_tie(buf, size));
	return (proto_cat(buf, size, "RESULT WIN ", mark, " ", winner, " ",
	    winner, " wins! better luck next time ", loser, "!\r\n",
	    (char *)NULL));
}

/* RESULT FORFEIT <winner-mark> <winner> <text saying who left and why>. */
int
proto_fmt_forfeit(char *buf, size_t size, enum ttt_mark w, const char *winner,
    const char *leaver, enum proto_leave why)
{
	return (proto_fmt(buf, size, "RESULT FORFEIT %c %s %s %s. %s wins!\r\n",
	    ttt_mark_char(w), winner, leaver, proto_leave_texts[why], winner));
}

/* AGAIN? <text>. */
int
proto_fmt_again_question(char *buf, size_t size)
{
	return (proto_cat(buf, size,
	    "AGAIN? Play again? (y/n) or 'quit' to exit:\r\n", (char *)NULL));
}

/* INFO <text>. */
int
proto_fmt_info(char *buf, size_t size, const char *text)
{
	return (proto_fmt(buf, size, "INFO %s\r\n", text));
}

/* The decimal digits of v, at the end of b (PROTO_NUM_MAX bytes). */
static const char *
proto_utoa(unsigned long long v, char *b)
{
	char	*p = b + PROTO_NUM_MAX - 1;

	*p = '\0';
	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	return (p);
}

/*
 * The match's score after a result, without printf (one goes out after
 * every game): INFO Score: <x> <a>, <o> <b>, ties <t>.
 */
int
proto_fmt_score(char *buf, size_t size, const char *x, unsigned a,
    const char *o, unsigned b, unsigned ties)
{
	char	na[PROTO_NUM_MAX], nb[PROTO_NUM_MAX], nt[PROTO_NUM_MAX];

	return (proto_cat(buf, size, "INFO Score: ", x, " ",
	    proto_utoa(a, na), ", ", o, " ", proto_utoa(b, nb), ", ties ",
	    proto_utoa(ties, nt), ".\r\n", (char *)NULL));
}

/* BYE <text>. */
int
proto_fmt_bye(char *buf, size_t size, const char *text)
{
	return (proto_fmt(buf, size, "BYE %s\r\n", text));
}

/* One statistic, after OK STATS: STAT <name> <value>. */
int
proto_fmt_stat(char *buf, size_t size, const char *name,
    unsigned long long value)
{
	return (proto_fmt(buf, size, "STAT %s %llu\r\n", name, value));
}

/* The end of a list of STAT lines. */
int
proto_fmt_end(char *buf, size_t size)
{
	return (proto_fmt(buf, size, "END\r\n"));
}

/* WAIT for a friend to join a private room. */
int
proto_fmt_wait_room(char *buf, size_t size, const char *code)
{
	char	c[PROTO_CODE_LEN + 2];

	proto_fmt_code(c, code);
	return (proto_fmt(buf, size,
	    "WAIT Waiting for a friend to join room %s...\r\n", c));
}

/* OK GAMES <n>: n GAME lines follow. */
int
proto_fmt_ok_games(char *buf, size_t size, unsigned n)
{
	return (proto_fmt(buf, size, "OK GAMES %u\r\n", n));
}

/* GAME <id> <x-name> <o-name> <moves in the current game>. */
int
proto_fmt_game(char *buf, size_t size, unsigned long long id, const char *x,
    const char *o, int moves, int away)
{
	static const char *const	 marks[] = { "", " away=X", " away=O",
					    " away=XO" };

	return (proto_fmt(buf, size, "GAME %llu %s %s %d%s\r\n", id, x, o,
	    moves, marks[away & 3]));
}

/* INFO to a new watcher: which game, who plays X and who O. */
int
proto_fmt_info_watching(char *buf, size_t size, unsigned long long id,
    const char *x, const char *o)
{
	return (proto_fmt(buf, size, "INFO You are watching game %llu: %s (X) "
	    "against %s (O).\r\n", id, x, o));
}

/* A duration for people: "30 seconds", "1 second", "1.5 seconds". */
static int
proto_fmt_seconds(char *buf, size_t size, long long ms)
{
	int	frac = (int)(ms % 1000), digits = 3;

	if (frac == 0)
		return (proto_fmt(buf, size, "%lld second%s", ms / 1000,
		    ms == 1000 ? "" : "s"));
	for (; frac % 10 == 0; frac /= 10)
		digits--;
	return (proto_fmt(buf, size, "%lld.%0*d seconds", ms / 1000, digits,
	    frac));
}

/*
 * A room code or a token as players see it: XXXX-XXXX, from its 8
 * characters; out holds PROTO_CODE_LEN + 2 bytes.
 */
void
proto_fmt_code(char *out, const char *code)
{
	memcpy(out, code, PROTO_CODE_LEN / 2);
	out[PROTO_CODE_LEN / 2] = '-';
	memcpy(out + PROTO_CODE_LEN / 2 + 1, code + PROTO_CODE_LEN / 2,
	    PROTO_CODE_LEN / 2);
	out[PROTO_CODE_LEN + 1] = '\0';
}

/* TOKEN <XXXX-XXXX> <text>; token: PROTO_TOKEN_LEN characters. */
int
proto_fmt_token(char *buf, size_t size, const char *token, long long grace_ms)
{
	char	t[PROTO_TOKEN_LEN + 2], secs[48];

	proto_fmt_code(t, token);
	proto_fmt_seconds(secs, sizeof secs, grace_ms);
	return (proto_fmt(buf, size, "TOKEN %s Type RESUME %s on a new "
	    "connection within %s of losing this one to get your seat back."
	    "\r\n", t, t, secs));
}

/*
 * INFO: a player's connection dropped; its seat is kept a while.  The
 * time left in whole seconds, rounded up ("up to": never less than the
 * seat is held), at least 1: a 30-second grace taken up a millisecond
 * later is still "30 seconds", not "29.999".
 */
int
proto_fmt_info_away(char *buf, size_t size, const char *name,
    long long grace_ms)
{
	long long	secs = (grace_ms + 999) / 1000;

	if (secs < 1)
		secs = 1;
	return (proto_fmt(buf, size, "INFO %s lost the connection. Waiting up "
	    "to %lld second%s for them to come back.\r\n", name, secs,
	    secs == 1 ? "" : "s"));
}

/* CHAT <name> <text>; text: len bytes of text as SAY takes it. */
int
proto_fmt_chat(char *buf, size_t size, const char *name, const char *text,
    size_t len)
{
	return (proto_fmt(buf, size, "CHAT %s %.*s\r\n", name, (int)len,
	    text));
}

/* RESULT WIN for the opponent of a player who resigned. */
int
proto_fmt_resign(char *buf, size_t size, enum ttt_mark w, const char *winner,
    const char *resigner)
{
	return (proto_fmt(buf, size, "RESULT WIN %c %s %s resigned.\r\n",
	    ttt_mark_char(w), winner, resigner));
}

/* RESULT TIE, whatever the board (a game ended early as a tie). */
int
proto_fmt_tie(char *buf, size_t size)
{
	return (proto_cat(buf, size, "RESULT TIE It's a tie!\r\n",
	    (char *)NULL));
}

/* KEY: an account's key, shown once, and how to sign in with it. */
int
proto_fmt_key(char *buf, size_t size, const char *key)
{
	return (proto_fmt(buf, size, "KEY %s Keep this key: it is shown "
	    "once and is your account. Sign in with LOGIN %s on any "
	    "connection.\r\n", key, key));
}

/* OK LOGIN: the account's name, its rating and rd (whole numbers). */
int
proto_fmt_ok_login(char *buf, size_t size, const char *name, long r, long rd)
{
	return (proto_fmt(buf, size, "OK LOGIN %s %ld %ld\r\n", name, r, rd));
}

/* OK RATING: name, rating ("?" while provisional), rd, games, w, l, t. */
int
proto_fmt_ok_rating(char *buf, size_t size, const char *name, long r,
    int provisional, long rd, int games, int wins, int losses, int ties)
{
	return (proto_fmt(buf, size, "OK RATING %s %ld%s %ld %d %d %d %d\r\n",
	    name, r, provisional ? "?" : "", rd, games, wins, losses, ties));
}

/* OK HISTORY k, OK TOP k: the lines that follow. */
int
proto_fmt_ok_list(char *buf, size_t size, enum proto_verb v, unsigned k)
{
	return (proto_fmt(buf, size, "OK %s %u\r\n", proto_verb_info(v)->ok,
	    k));
}

/*
 * PLAYED: a rated game (match.number), its end (UTC, ISO 8601), X's and
 * O's names, who won (X, O or TIE) and the moves.
 */
int
proto_fmt_played(char *buf, size_t size, const char *match, int number,
    long long at, const char *x, const char *o, char result,
    const char *moves)
{
	char		when[32];
	struct tm	tm;
	time_t		t = (time_t)at;

	if (gmtime_r(&t, &tm) == NULL ||
	    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(when, sizeof when, "1970-01-01T00:00:00Z");
	return (proto_fmt(buf, size, "PLAYED %s.%d %s %s %s %s %s\r\n", match,
	    number, when, x, o, result == 'X' ? "X" : result == 'O' ? "O" :
	    "TIE", moves[0] != '\0' ? moves : "-"));
}

/* RANKED: a place on the leaderboard. */
int
proto_fmt_ranked(char *buf, size_t size, unsigned rank, const char *name,
    long r, long rd, int games)
{
	return (proto_fmt(buf, size, "RANKED %u %s %ld %ld %d\r\n", rank, name,
	    r, rd, games));
}

/* INFO after a rated game's RESULT: the new rating and its change. */
int
proto_fmt_info_rating(char *buf, size_t size, long r, int provisional,
    long change)
{
	return (proto_fmt(buf, size, "INFO Your rating: %ld%s (%s%ld).\r\n",
	    r, provisional ? "?" : "", change >= 0 ? "+" : "", change));
}

/* OK <verb> <name>: REGISTER's reply. */
int
proto_fmt_ok_name(char *buf, size_t size, enum proto_verb v, const char *name)
{
	return (proto_fmt(buf, size, "OK %s %s\r\n", proto_verb_info(v)->ok,
	    name));
}
