/*
 * test_format.c -- unit tests for the server lines (proto/format.c) and
 * their inverse, proto_event_parse (proto/event.c).
 *
 * One table of formatter calls with their exact output and the event that
 * the first line parses to drives the exact-output, snprintf, line
 * convention and round-trip tests; loops add every mark, name, cell, error
 * code and board.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "proto.h"
#include "utf8.h"

#define NCASES(a)	(sizeof (a) / sizeof (a)[0])
#define SENTINEL	0x5a

enum fmt_kind {
	F_HELLO,
	F_OK,
	F_ERROR,
	F_WAIT,
	F_MATCH,
	F_START,
	F_BOARD,
	F_ART,
	F_TURN,
	F_RESULT,
	F_FORFEIT,
	F_AGAINQ,
	F_INFO,
	F_SCORE,
	F_BYE,
	F_STAT,
	F_END
};

/* What the first line of an output must parse to. */
struct ev_want {
	enum proto_kind		 kind;
	enum ttt_mark		 mark;
	enum proto_result	 result;	/* RESULT */
	enum proto_error	 error;		/* ERR */
	enum proto_verb		 verb;		/* OK */
	int			 cell;		/* OK MOVE */
	int			 yes;		/* OK AGAIN */
	int			 version;	/* HELLO */
	const char		*name;		/* NULL: not checked */
	const char		*cells;		/* BOARD */
	const char		*text;		/* NULL: not checked */
};

/* One formatter call, its exact output and its parsed first line. */
struct fmt_case {
	const char		*what;
	enum fmt_kind		 kind;
	enum ttt_mark		 mark;		/* MATCH START TURN etc. */
	const char		*a;		/* a name or a text */
	const char		*b;		/* loser or leaver */
	int			 mine;		/* TURN */
	enum proto_error	 err;		/* ERR */
	enum proto_leave	 why;		/* FORFEIT */
	enum proto_verb		 verb;		/* OK */
	int			 cell;		/* OK MOVE */
	int			 yes;		/* OK AGAIN */
	enum ttt_mark		 first;		/* who starts the moves */
	const char		*moves;		/* "a1 b2 ..." */
	unsigned long long	 n;		/* STAT */
	unsigned		 score[3];	/* SCORE: X's wins, O's, ties */
	const char		*want;
	struct ev_want		 ev;
};

#define ART_EMPTY							\
	"      A   B   C\r\n"						\
	"  1     |   |  \r\n"						\
	"     ---+---+---\r\n"						\
	"  2     |   |  \r\n"						\
	"     ---+---+---\r\n"						\
	"  3     |   |  \r\n"
#define ART_MIXED							\
	"      A   B   C\r\n"						\
	"  1   X | O |  \r\n"						\
	"     ---+---+---\r\n"						\
	"  2     | X |  \r\n"						\
	"     ---+---+---\r\n"						\
	"  3     |   | O\r\n"
#define ART_FULL							\
	"      A   B   C\r\n"						\
	"  1   X | O | X\r\n"						\
	"     ---+---+---\r\n"						\
	"  2   X | O | O\r\n"						\
	"     ---+---+---\r\n"						\
	"  3   O | X | X\r\n"
#define HELP_BLOCK							\
	"  Commands (any case; a bare cell or y/n works too):\r\n"	\
	"    MOVE <cell>   play a cell, A1 to C3 (or just type b2)\r\n"	\
	"    BOARD         show the board again\r\n"			\
	"    AGAIN y|n     answer 'Play again?' (or just type y or n)\r\n" \
	"    NAME <name>   set your name: 1-16 letters, digits, _ or -\r\n" \
	"    PING          check that the server is there\r\n"		\
	"    STATS         the server's statistics\r\n"		\
	"    ROOM NEW      make a private room; ROOM JOIN <code> to join one\r\n" \
	"    PLAY AI       play the computer (PLAY AI easy for a gentler one)\r\n" \
	"    PLAY          wait for an opponent again (after watching)\r\n" \
	"    GAMES         list the matches; WATCH <id> to watch one, UNWATCH\r\n" \
	"    SAY <text>    chat with your opponent\r\n"		\
	"    RESIGN        give up this game, stay for the next\r\n"	\
	"    RESUME <code> take your seat back after a lost connection\r\n" \
	"    HELP          this list\r\n"				\
	"    QUIT          leave (the game is forfeited)\r\n"

/* 16 characters, 32 bytes: the longest name (é 16 times). */
#define NAME_LONGEST	("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9" \
			 "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9" \
			 "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9")

#define MOVES_MIXED	"a1 b1 b2 c3"			/* X O X O */
#define MOVES_FULL	"a1 b1 c1 b2 a2 c2 b3 a3 c3"	/* a draw */
#define MOVES_XWINS	"a1 a2 b1 b2 c1"		/* row 1 */
#define MOVES_OWINS	"a1 a3 b1 b3 b2 c3"		/* row 3 */

static const struct fmt_case cases[] = {
	{ .what = "hello", .kind = F_HELLO,
	  .want = "HELLO tttd/1 Welcome to Tic Tac Toe, Ready for a game?\r\n"
	      "  Type 'quit' at any time to exit.\r\n",
	  .ev = { .kind = PROTO_EV_HELLO, .version = 1,
	      .text = "Welcome to Tic Tac Toe, Ready for a game?" } },

	{ .what = "ok name", .kind = F_OK, .verb = PROTO_NAME, .a = "bob",
	  .want = "OK NAME bob\r\n",
	  .ev = { .kind = PROTO_EV_OK, .verb = PROTO_NAME, .name = "bob",
	      .text = "" } },
	{ .what = "ok name 16", .kind = F_OK, .verb = PROTO_NAME,
	  .a = "BoB_-0123456789Z",
	  .want = "OK NAME BoB_-0123456789Z\r\n",
	  .ev = { .kind = PROTO_EV_OK, .verb = PROTO_NAME,
	      .name = "BoB_-0123456789Z" } },
	{ .what = "ok move a1", .kind = F_OK, .verb = PROTO_MOVE, .cell = 0,
	  .want = "OK MOVE A1\r\n",
	  .ev = { .kind = PROTO_EV_OK, .verb = PROTO_MOVE, .cell = 0 } },
	{ .what = "ok move b2", .kind = F_OK, .verb = PROTO_MOVE, .cell = 4,
	  .want = "OK MOVE B2\r\n",
	  .ev = { .kind = PROTO_EV_OK, .verb = PROTO_MOVE, .cell = 4,
	      .text = "" } },
	{ .what = "ok move c3", .kind = F_OK, .verb = PROTO_MOVE, .cell = 8,
	  .want = "OK MOVE C3\r\n",
	  .ev = { .kind = PROTO_EV_OK, .verb = PROTO_MOVE, .cell = 8 } },
	{ .what = "ok again y", .kind = F_OK, .verb = PROTO_AGAIN, .yes = 1,
	  .want = "OK AGAIN y\r\n",
	  .ev = { .kind = PROTO_EV_OK, .verb = PROTO_AGAIN, .yes = 1,
	      .text = "" } },
	{ .what = "ok again n", .kind = F_OK, .verb = PROTO_AGAIN, .yes = 0,
	  .want = "OK AGAIN n\r\n",
	  .ev = { .kind = PROTO_EV_OK, .verb = PROTO_AGAIN, .yes = 0 } },
	{ .what = "ok board", .kind = F_OK, .verb = PROTO_BOARD,
	  .want = "OK BOARD\r\n",
	  .ev = { .kind = PROTO_EV_OK, .verb = PROTO_BOARD, .text = "" } },
	{ .what = "ok ping", .kind = F_OK, .verb = PROTO_PING,
	  .want = "OK PONG\r\n",
	  .ev = { .kind = PROTO_EV_OK, .verb = PROTO_PING, .text = "" } },
	{ .what = "ok stats", .kind = F_OK, .verb = PROTO_STATS,
	  .want = "OK STATS\r\n",
	  .ev = { .kind = PROTO_EV_OK, .verb = PROTO_STATS, .text = "" } },
	{ .what = "ok help", .kind = F_OK, .verb = PROTO_HELP,
	  .want = "OK HELP\r\n" HELP_BLOCK,
	  .ev = { .kind = PROTO_EV_OK, .verb = PROTO_HELP, .text = "" } },
	{ .what = "ok quit", .kind = F_OK, .verb = PROTO_QUIT,
	  .want = "BYE Thank you for playing!\r\n",
	  .ev = { .kind = PROTO_EV_BYE, .text = "Thank you for playing!" } },

	{ .what = "err line too long", .kind = F_ERROR,
	  .err = PROTO_ELINE_TOO_LONG,
	  .want = "ERR LINE_TOO_LONG Lines are limited to 256 bytes.\r\n",
	  .ev = { .kind = PROTO_EV_ERR, .error = PROTO_ELINE_TOO_LONG,
	      .text = "Lines are limited to 256 bytes." } },
	{ .what = "err bad char", .kind = F_ERROR, .err = PROTO_EBAD_CHAR,
	  .want = "ERR BAD_CHAR Only UTF-8 text without control characters "
	      "is accepted.\r\n",
	  .ev = { .kind = PROTO_EV_ERR, .error = PROTO_EBAD_CHAR,
	      .text = "Only UTF-8 text without control characters is "
	      "accepted." } },
	{ .what = "err unknown command", .kind = F_ERROR,
	  .err = PROTO_EUNKNOWN_COMMAND,
	  .want = "ERR UNKNOWN_COMMAND Unknown command. Type HELP for the "
	      "list of commands.\r\n",
	  .ev = { .kind = PROTO_EV_ERR, .error = PROTO_EUNKNOWN_COMMAND,
	      .text = "Unknown command. Type HELP for the list of "
	      "commands." } },
	{ .what = "err bad cell", .kind = F_ERROR, .err = PROTO_EBAD_CELL,
	  .want = "ERR BAD_CELL Invalid input. Accepted examples: A1, b2, "
	      "C3.\r\n",
	  .ev = { .kind = PROTO_EV_ERR, .error = PROTO_EBAD_CELL,
	      .text = "Invalid input. Accepted examples: A1, b2, C3." } },
	{ .what = "err bad name", .kind = F_ERROR, .err = PROTO_EBAD_NAME,
	  .want = "ERR BAD_NAME A name is 1 to 16 letters, digits, '_' or "
	      "'-'.\r\n",
	  .ev = { .kind = PROTO_EV_ERR, .error = PROTO_EBAD_NAME,
	      .text = "A name is 1 to 16 letters, digits, '_' or '-'." } },
	{ .what = "err bad answer", .kind = F_ERROR, .err = PROTO_EBAD_ANSWER,
	  .want = "ERR BAD_ANSWER Please enter y or n.\r\n",
	  .ev = { .kind = PROTO_EV_ERR, .error = PROTO_EBAD_ANSWER,
	      .text = "Please enter y or n." } },
	{ .what = "err no game", .kind = F_ERROR, .err = PROTO_ENO_GAME,
	  .want = "ERR NO_GAME You are not in a game right now.\r\n",
	  .ev = { .kind = PROTO_EV_ERR, .error = PROTO_ENO_GAME,
	      .text = "You are not in a game right now." } },
	{ .what = "err not your turn", .kind = F_ERROR,
	  .err = PROTO_ENOT_YOUR_TURN,
	  .want = "ERR NOT_YOUR_TURN It is not your turn. Please wait.\r\n",
	  .ev = { .kind = PROTO_EV_ERR, .error = PROTO_ENOT_YOUR_TURN,
	      .text = "It is not your turn. Please wait." } },
	{ .what = "err taken", .kind = F_ERROR, .err = PROTO_ETAKEN,
	  .want = "ERR TAKEN That square is already taken. Try again.\r\n",
	  .ev = { .kind = PROTO_EV_ERR, .error = PROTO_ETAKEN,
	      .text = "That square is already taken. Try again." } },
	{ .what = "err not now", .kind = F_ERROR, .err = PROTO_ENOT_NOW,
	  .want = "ERR NOT_NOW There is no question to answer now.\r\n",
	  .ev = { .kind = PROTO_EV_ERR, .error = PROTO_ENOT_NOW,
	      .text = "There is no question to answer now." } },
	{ .what = "err server full", .kind = F_ERROR,
	  .err = PROTO_ESERVER_FULL,
	  .want = "ERR SERVER_FULL The server is full. Please try again "
	      "later.\r\n",
	  .ev = { .kind = PROTO_EV_ERR, .error = PROTO_ESERVER_FULL,
	      .text = "The server is full. Please try again later." } },
	{ .what = "err too many connections", .kind = F_ERROR,
	  .err = PROTO_ETOO_MANY_CONNECTIONS,
	  .want = "ERR TOO_MANY_CONNECTIONS Too many connections from your "
	      "address. Please try again later.\r\n",
	  .ev = { .kind = PROTO_EV_ERR, .error = PROTO_ETOO_MANY_CONNECTIONS,
	      .text = "Too many connections from your address. Please try "
	      "again later." } },
	{ .what = "err rate limited", .kind = F_ERROR,
	  .err = PROTO_ERATE_LIMITED,
	  .want = "ERR RATE_LIMITED Too many commands. Please slow down.\r\n",
	  .ev = { .kind = PROTO_EV_ERR, .error = PROTO_ERATE_LIMITED,
	      .text = "Too many commands. Please slow down." } },
	{ .what = "err line timeout", .kind = F_ERROR,
	  .err = PROTO_ELINE_TIMEOUT,
	  .want = "ERR LINE_TIMEOUT Your line was not finished in time. "
	      "Goodbye.\r\n",
	  .ev = { .kind = PROTO_EV_ERR, .error = PROTO_ELINE_TIMEOUT,
	      .text = "Your line was not finished in time. Goodbye." } },
	{ .what = "err not http", .kind = F_ERROR, .err = PROTO_ENOT_HTTP,
	  .want = "ERR NOT_HTTP This is a Tic Tac Toe server, not a web "
	      "server. Goodbye.\r\n",
	  .ev = { .kind = PROTO_EV_ERR, .error = PROTO_ENOT_HTTP,
	      .text = "This is a Tic Tac Toe server, not a web server. "
	      "Goodbye." } },

	{ .what = "wait queue", .kind = F_WAIT, .a = NULL,
	  .want = "WAIT Waiting for an opponent...\r\n",
	  .ev = { .kind = PROTO_EV_WAIT,
	      .text = "Waiting for an opponent..." } },
	{ .what = "wait named", .kind = F_WAIT, .a = "bob",
	  .want = "WAIT Waiting for bob to answer...\r\n",
	  .ev = { .kind = PROTO_EV_WAIT,
	      .text = "Waiting for bob to answer..." } },

	{ .what = "match x", .kind = F_MATCH, .mark = TTT_X, .a = "p2",
	  .want = "MATCH X p2 You play X against p2.\r\n",
	  .ev = { .kind = PROTO_EV_MATCH, .mark = TTT_X, .name = "p2",
	      .text = "You play X against p2." } },
	{ .what = "match o", .kind = F_MATCH, .mark = TTT_O, .a = "p1",
	  .want = "MATCH O p1 You play O against p1.\r\n",
	  .ev = { .kind = PROTO_EV_MATCH, .mark = TTT_O, .name = "p1",
	      .text = "You play O against p1." } },
	/* Names beyond ASCII go out as their bytes, and parse back. */
	{ .what = "match utf-8", .kind = F_MATCH, .mark = TTT_X,
	  .a = "Zo\xc3\xab",
	  .want = "MATCH X Zo\xc3\xab You play X against Zo\xc3\xab.\r\n",
	  .ev = { .kind = PROTO_EV_MATCH, .mark = TTT_X, .name = "Zo\xc3\xab",
	      .text = "You play X against Zo\xc3\xab." } },
	{ .what = "match cjk", .kind = F_MATCH, .mark = TTT_O,
	  .a = "\xe6\x9d\x8e\xe9\x9b\xb7",
	  .want = "MATCH O \xe6\x9d\x8e\xe9\x9b\xb7 You play O against "
	      "\xe6\x9d\x8e\xe9\x9b\xb7.\r\n",
	  .ev = { .kind = PROTO_EV_MATCH, .mark = TTT_O,
	      .name = "\xe6\x9d\x8e\xe9\x9b\xb7",
	      .text = "You play O against \xe6\x9d\x8e\xe9\x9b\xb7." } },
	{ .what = "ok name utf-8", .kind = F_OK, .verb = PROTO_NAME,
	  .a = "\xd0\xaf\xd0\xbd\xd0\xb0",
	  .want = "OK NAME \xd0\xaf\xd0\xbd\xd0\xb0\r\n",
	  .ev = { .kind = PROTO_EV_OK, .verb = PROTO_NAME,
	      .name = "\xd0\xaf\xd0\xbd\xd0\xb0" } },
	{ .what = "turn utf-8", .kind = F_TURN, .mark = TTT_O,
	  .a = "\xf0\x9f\x98\x80x",
	  .want = "TURN O Waiting for \xf0\x9f\x98\x80x to move...\r\n",
	  .ev = { .kind = PROTO_EV_TURN, .mark = TTT_O,
	      .text = "Waiting for \xf0\x9f\x98\x80x to move..." } },
	{ .what = "forfeit utf-8", .kind = F_FORFEIT, .mark = TTT_X,
	  .a = "\xc3\x89lodie", .b = "\xce\xa9", .why = PROTO_LEAVE_QUIT,
	  .want = "RESULT FORFEIT X \xc3\x89lodie \xce\xa9 quit the game. "
	      "\xc3\x89lodie wins!\r\n",
	  .ev = { .kind = PROTO_EV_RESULT, .result = PROTO_RESULT_FORFEIT,
	      .mark = TTT_X, .name = "\xc3\x89lodie" } },
	{ .what = "info utf-8", .kind = F_INFO,
	  .a = "Zo\xc3\xab is now known as \xd0\xaf\xd0\xbd\xd0\xb0.",
	  .want = "INFO Zo\xc3\xab is now known as \xd0\xaf\xd0\xbd\xd0\xb0."
	      "\r\n",
	  .ev = { .kind = PROTO_EV_INFO,
	      .text = "Zo\xc3\xab is now known as \xd0\xaf\xd0\xbd\xd0\xb0." } },

	{ .what = "start x", .kind = F_START, .mark = TTT_X, .a = "p1",
	  .want = "START X p1 (X) moves first.\r\n",
	  .ev = { .kind = PROTO_EV_START, .mark = TTT_X,
	      .text = "p1 (X) moves first." } },
	{ .what = "start o", .kind = F_START, .mark = TTT_O, .a = "p2",
	  .want = "START O p2 (O) moves first.\r\n",
	  .ev = { .kind = PROTO_EV_START, .mark = TTT_O,
	      .text = "p2 (O) moves first." } },

	{ .what = "board empty", .kind = F_BOARD, .moves = "",
	  .want = "BOARD .........\r\n" ART_EMPTY,
	  .ev = { .kind = PROTO_EV_BOARD, .cells = ".........",
	      .text = "" } },
	{ .what = "board mixed", .kind = F_BOARD, .moves = MOVES_MIXED,
	  .want = "BOARD XO..X...O\r\n" ART_MIXED,
	  .ev = { .kind = PROTO_EV_BOARD, .cells = "XO..X...O",
	      .text = "" } },
	{ .what = "board full", .kind = F_BOARD, .moves = MOVES_FULL,
	  .want = "BOARD XOXXOOOXX\r\n" ART_FULL,
	  .ev = { .kind = PROTO_EV_BOARD, .cells = "XOXXOOOXX",
	      .text = "" } },
	{ .what = "board o first", .kind = F_BOARD, .first = TTT_O,
	  .moves = MOVES_MIXED,
	  .want = "BOARD OX..O...X\r\n"
	      "      A   B   C\r\n"
	      "  1   O | X |  \r\n"
	      "     ---+---+---\r\n"
	      "  2     | O |  \r\n"
	      "     ---+---+---\r\n"
	      "  3     |   | X\r\n",
	  .ev = { .kind = PROTO_EV_BOARD, .cells = "OX..O...X" } },
	{ .what = "art empty", .kind = F_ART, .moves = "",
	  .want = ART_EMPTY,
	  .ev = { .kind = PROTO_EV_HUMAN, .text = "      A   B   C" } },
	{ .what = "art mixed", .kind = F_ART, .moves = MOVES_MIXED,
	  .want = ART_MIXED,
	  .ev = { .kind = PROTO_EV_HUMAN, .text = "      A   B   C" } },
	{ .what = "art full", .kind = F_ART, .moves = MOVES_FULL,
	  .want = ART_FULL,
	  .ev = { .kind = PROTO_EV_HUMAN, .text = "      A   B   C" } },

	{ .what = "turn x mine", .kind = F_TURN, .mark = TTT_X, .mine = 1,
	  .a = "p1",
	  .want = "TURN X Enter your move (A1, B2, C3) or 'quit' to exit:\r\n",
	  .ev = { .kind = PROTO_EV_TURN, .mark = TTT_X,
	      .text = "Enter your move (A1, B2, C3) or 'quit' to exit:" } },
	{ .what = "turn x theirs", .kind = F_TURN, .mark = TTT_X, .mine = 0,
	  .a = "p1",
	  .want = "TURN X Waiting for p1 to move...\r\n",
	  .ev = { .kind = PROTO_EV_TURN, .mark = TTT_X,
	      .text = "Waiting for p1 to move..." } },
	{ .what = "turn o mine", .kind = F_TURN, .mark = TTT_O, .mine = 1,
	  .a = "p2",
	  .want = "TURN O Enter your move (A1, B2, C3) or 'quit' to exit:\r\n",
	  .ev = { .kind = PROTO_EV_TURN, .mark = TTT_O } },
	{ .what = "turn o theirs", .kind = F_TURN, .mark = TTT_O, .mine = 0,
	  .a = "bob",
	  .want = "TURN O Waiting for bob to move...\r\n",
	  .ev = { .kind = PROTO_EV_TURN, .mark = TTT_O,
	      .text = "Waiting for bob to move..." } },

	{ .what = "result win x", .kind = F_RESULT, .moves = MOVES_XWINS,
	  .a = "p1", .b = "p2",
	  .want = "RESULT WIN X p1 p1 wins! better luck next time p2!\r\n",
	  .ev = { .kind = PROTO_EV_RESULT, .result = PROTO_RESULT_WIN,
	      .mark = TTT_X, .name = "p1",
	      .text = "p1 wins! better luck next time p2!" } },
	{ .what = "result win o", .kind = F_RESULT, .moves = MOVES_OWINS,
	  .a = "bob", .b = "alice",
	  .want = "RESULT WIN O bob bob wins! better luck next time "
	      "alice!\r\n",
	  .ev = { .kind = PROTO_EV_RESULT, .result = PROTO_RESULT_WIN,
	      .mark = TTT_O, .name = "bob",
	      .text = "bob wins! better luck next time alice!" } },
	{ .what = "result tie", .kind = F_RESULT, .moves = MOVES_FULL,
	  .a = "p1", .b = "p2",
	  .want = "RESULT TIE It's a tie!\r\n",
	  .ev = { .kind = PROTO_EV_RESULT, .result = PROTO_RESULT_TIE,
	      .text = "It's a tie!" } },

	{ .what = "forfeit quit", .kind = F_FORFEIT, .mark = TTT_O,
	  .a = "p2", .b = "p1", .why = PROTO_LEAVE_QUIT,
	  .want = "RESULT FORFEIT O p2 p1 quit the game. p2 wins!\r\n",
	  .ev = { .kind = PROTO_EV_RESULT, .result = PROTO_RESULT_FORFEIT,
	      .mark = TTT_O, .name = "p2",
	      .text = "p1 quit the game. p2 wins!" } },
	{ .what = "forfeit drop", .kind = F_FORFEIT, .mark = TTT_O,
	  .a = "p2", .b = "p1", .why = PROTO_LEAVE_DROP,
	  .want = "RESULT FORFEIT O p2 p1 lost the connection. p2 wins!\r\n",
	  .ev = { .kind = PROTO_EV_RESULT, .result = PROTO_RESULT_FORFEIT,
	      .mark = TTT_O, .name = "p2",
	      .text = "p1 lost the connection. p2 wins!" } },
	{ .what = "forfeit timeout", .kind = F_FORFEIT, .mark = TTT_X,
	  .a = "p1", .b = "p2", .why = PROTO_LEAVE_TIMEOUT,
	  .want = "RESULT FORFEIT X p1 p2 ran out of time. p1 wins!\r\n",
	  .ev = { .kind = PROTO_EV_RESULT, .result = PROTO_RESULT_FORFEIT,
	      .mark = TTT_X, .name = "p1",
	      .text = "p2 ran out of time. p1 wins!" } },

	{ .what = "again question", .kind = F_AGAINQ,
	  .want = "AGAIN? Play again? (y/n) or 'quit' to exit:\r\n",
	  .ev = { .kind = PROTO_EV_AGAINQ,
	      .text = "Play again? (y/n) or 'quit' to exit:" } },
	{ .what = "info", .kind = F_INFO, .a = "p1 is now known as bob.",
	  .want = "INFO p1 is now known as bob.\r\n",
	  .ev = { .kind = PROTO_EV_INFO, .text = "p1 is now known as bob." } },
	{ .what = "score", .kind = F_SCORE, .a = "p1", .b = "p2",
	  .score = { 2, 1, 0 },
	  .want = "INFO Score: p1 2, p2 1, ties 0.\r\n",
	  .ev = { .kind = PROTO_EV_INFO, .text = "Score: p1 2, p2 1, ties 0." } },
	{ .what = "score wide", .kind = F_SCORE, .a = "Chlo\xc3\xa9",
	  .b = "\xe5\xbc\xa0\xe4\xbc\x9f", .score = { 4294967295u, 10, 1009 },
	  .want = "INFO Score: Chlo\xc3\xa9 4294967295, \xe5\xbc\xa0\xe4\xbc\x9f 10, "
	      "ties 1009.\r\n",
	  .ev = { .kind = PROTO_EV_INFO } },
	{ .what = "info left", .kind = F_INFO, .a = "bob left the match.",
	  .want = "INFO bob left the match.\r\n",
	  .ev = { .kind = PROTO_EV_INFO, .text = "bob left the match." } },
	{ .what = "bye shutdown", .kind = F_BYE, .a = "Server shutting down.",
	  .want = "BYE Server shutting down.\r\n",
	  .ev = { .kind = PROTO_EV_BYE, .text = "Server shutting down." } },
	{ .what = "stat", .kind = F_STAT, .a = "moves", .n = 12345678901ULL,
	  .want = "STAT moves 12345678901\r\n",
	  .ev = { .kind = PROTO_EV_STAT, .text = "moves 12345678901" } },
	{ .what = "stat zero", .kind = F_STAT, .a = "uptime", .n = 0,
	  .want = "STAT uptime 0\r\n",
	  .ev = { .kind = PROTO_EV_STAT, .text = "uptime 0" } },
	{ .what = "end", .kind = F_END,
	  .want = "END\r\n",
	  .ev = { .kind = PROTO_EV_END, .text = "" } },
};

static void	board_from_moves(struct ttt_board *, enum ttt_mark,
		    const char *);
static int	fmt_case(const struct fmt_case *, char *, size_t);
static void	check_event(const char *, size_t, const struct ev_want *,
		    const char *);
static void	check_lines(const char *, int, const char *);
static void	check_art(const char *, size_t, const struct ttt_board *);
static size_t	line_end(const char *, size_t);

/* Play "a1 b2 ..." alternately from first (X if TTT_EMPTY). */
static void
board_from_moves(struct ttt_board *b, enum ttt_mark first, const char *moves)
{
	enum ttt_mark	m = first == TTT_EMPTY ? TTT_X : first;
	size_t		i;
	int		cell;

	ttt_board_init(b, m);
	for (i = 0; moves[i] != '\0'; i += moves[i + 2] == '\0' ? 2 : 3) {
		cell = ttt_cell_parse(moves + i, 2);
		if (cell < 0 || ttt_board_play(b, m, cell) != TTT_OK)
			fail_msg("bad move list \"%s\" at %zu", moves, i);
		m = ttt_mark_other(m);
	}
}

/* Call the formatter a case names, with snprintf-style buf and size. */
static int
fmt_case(const struct fmt_case *c, char *buf, size_t size)
{
	struct ttt_board	b;
	struct proto_cmd	cmd;

	switch (c->kind) {
	case F_HELLO:
		return (proto_fmt_hello(buf, size));
	case F_OK:
		memset(&cmd, 0, sizeof cmd);
		cmd.verb = c->verb;
		cmd.cell = c->cell;
		cmd.yes = c->yes;
		if (c->a != NULL)
			snprintf(cmd.name, sizeof cmd.name, "%s", c->a);
		return (proto_fmt_ok(buf, size, &cmd));
	case F_ERROR:
		return (proto_fmt_error(buf, size, c->err));
	case F_WAIT:
		return (proto_fmt_wait(buf, size, c->a));
	case F_MATCH:
		return (proto_fmt_match(buf, size, c->mark, c->a));
	case F_START:
		return (proto_fmt_start(buf, size, c->mark, c->a));
	case F_BOARD:
		board_from_moves(&b, c->first, c->moves);
		return (proto_fmt_board(buf, size, &b));
	case F_ART:
		board_from_moves(&b, c->first, c->moves);
		return (proto_fmt_board_art(buf, size, &b));
	case F_TURN:
		return (proto_fmt_turn(buf, size, c->mark, c->mine, c->a));
	case F_RESULT:
		board_from_moves(&b, c->first, c->moves);
		assert_int_not_equal(ttt_board_outcome(&b), TTT_ONGOING);
		return (proto_fmt_result(buf, size, &b, c->a, c->b));
	case F_FORFEIT:
		return (proto_fmt_forfeit(buf, size, c->mark, c->a, c->b,
		    c->why));
	case F_AGAINQ:
		return (proto_fmt_again_question(buf, size));
	case F_INFO:
		return (proto_fmt_info(buf, size, c->a));
	case F_SCORE:
		return (proto_fmt_score(buf, size, c->a, c->score[0], c->b,
		    c->score[1], c->score[2]));
	case F_BYE:
		return (proto_fmt_bye(buf, size, c->a));
	case F_STAT:
		return (proto_fmt_stat(buf, size, c->a, c->n));
	case F_END:
		return (proto_fmt_end(buf, size));
	}
	fail_msg("unknown case kind %d", c->kind);
	return (-1);
}

/* Where the line at the front of s ends: the offset of its CR LF. */
static size_t
line_end(const char *s, size_t len)
{
	size_t	i;

	for (i = 0; i + 1 < len; i++) {
		if (s[i] == '\r' && s[i + 1] == '\n')
			return (i);
	}
	fail_msg("no CR LF in \"%.*s\"", (int)len, s);
	return (len);
}

/* Parse a line, with and without its CR, and compare with what is wanted. */
static void
check_event(const char *line, size_t len, const struct ev_want *w,
    const char *what)
{
	struct proto_event	ev;
	int			rc, withcr;

	for (withcr = 0; withcr < 2; withcr++) {
		rc = proto_event_parse(line, len + (size_t)withcr, &ev);
		if (rc != 0)
			fail_msg("%s: \"%.*s\" parses to %d", what, (int)len,
			    line, rc);
		if (ev.kind != w->kind)
			fail_msg("%s: kind %d, want %d", what, ev.kind,
			    w->kind);
		if (ev.mark != w->mark)
			fail_msg("%s: mark %d, want %d", what, ev.mark,
			    w->mark);
		if (w->kind == PROTO_EV_RESULT && ev.result != w->result)
			fail_msg("%s: result %d, want %d", what, ev.result,
			    w->result);
		if (w->kind == PROTO_EV_ERR && ev.error != w->error)
			fail_msg("%s: error %d, want %d", what, ev.error,
			    w->error);
		if (w->kind == PROTO_EV_OK && ev.verb != w->verb)
			fail_msg("%s: verb %d, want %d", what, ev.verb,
			    w->verb);
		if (w->kind == PROTO_EV_OK && w->verb == PROTO_MOVE &&
		    ev.cell != w->cell)
			fail_msg("%s: cell %d, want %d", what, ev.cell,
			    w->cell);
		if (w->kind == PROTO_EV_OK && w->verb == PROTO_AGAIN &&
		    ev.yes != w->yes)
			fail_msg("%s: yes %d, want %d", what, ev.yes, w->yes);
		if (w->kind == PROTO_EV_HELLO && ev.version != w->version)
			fail_msg("%s: version %d, want %d", what, ev.version,
			    w->version);
		if (w->name != NULL && strcmp(ev.name, w->name) != 0)
			fail_msg("%s: name \"%s\", want \"%s\"", what,
			    ev.name, w->name);
		if (w->kind == PROTO_EV_BOARD && strcmp(ev.cells,
		    w->cells) != 0)
			fail_msg("%s: cells \"%s\", want \"%s\"", what,
			    ev.cells, w->cells);
		if (w->text != NULL && (ev.textlen != strlen(w->text) ||
		    memcmp(ev.text, w->text, ev.textlen) != 0))
			fail_msg("%s: text \"%.*s\", want \"%s\"", what,
			    (int)ev.textlen, ev.text, w->text);
	}
}

/*
 * Check the shape of a formatted block: lines of text (valid UTF-8, no
 * control character, no TAB) ending in CR LF; protocol lines start with an upper-case keyword, use single
 * spaces and have no trailing blank; human lines start with a space and
 * may end in blanks only inside board art.
 */
static void
check_lines(const char *out, int art, const char *what)
{
	size_t	len = strlen(out), pos, end, i, kw;

	if (len < 2 || out[len - 2] != '\r' || out[len - 1] != '\n')
		fail_msg("%s: does not end in CR LF", what);
	for (pos = 0; pos < len; pos = end + 2) {
		const char	*l = out + pos;
		size_t		 n;

		end = line_end(out + pos, len - pos) + pos;
		n = end - pos;
		if (n == 0)
			fail_msg("%s: empty line", what);
		if (!utf8_text(l, n) || memchr(l, '\t', n) != NULL)
			fail_msg("%s: not text: \"%.*s\"", what, (int)n, l);
		if (l[0] == ' ') {
			if (!art && l[n - 1] == ' ')
				fail_msg("%s: trailing blank in \"%.*s\"",
				    what, (int)n, l);
			continue;
		}
		if (!(l[0] >= 'A' && l[0] <= 'Z'))
			fail_msg("%s: \"%.*s\" starts with no keyword", what,
			    (int)n, l);
		for (kw = 0; kw < n && ((l[kw] >= 'A' && l[kw] <= 'Z') ||
		    (l[kw] >= '0' && l[kw] <= '9') || l[kw] == '_'); kw++)
			;
		if (kw < n && l[kw] == '?')
			kw++;
		if (kw < n && l[kw] != ' ')
			fail_msg("%s: bad keyword in \"%.*s\"", what, (int)n,
			    l);
		if (l[n - 1] == ' ')
			fail_msg("%s: trailing blank in \"%.*s\"", what,
			    (int)n, l);
		for (i = 0; i + 1 < n; i++) {
			if (l[i] == ' ' && l[i + 1] == ' ')
				fail_msg("%s: double space in \"%.*s\"", what,
				    (int)n, l);
		}
	}
}

/* Check board art: 6 human lines, marks under the column letters. */
static void
check_art(const char *art, size_t len, const struct ttt_board *b)
{
	static const char	*rule = "     ---+---+---";
	const char		*l[6], *p;
	size_t			 n[6], i, end, col[3];
	int			 r, k;
	struct proto_event	 ev;

	p = art;
	for (i = 0; i < 6; i++) {
		end = line_end(p, len - (size_t)(p - art));
		l[i] = p;
		n[i] = end;
		assert_int_equal(proto_event_parse(l[i], n[i], &ev), 0);
		assert_int_equal(ev.kind, PROTO_EV_HUMAN);
		assert_int_equal(ev.textlen, n[i]);
		assert_ptr_equal(ev.text, l[i]);
		p += end + 2;
	}
	assert_int_equal((size_t)(p - art), len);

	/* The header names the columns; the marks sit under the letters. */
	for (k = 0; k < 3; k++) {
		const char	*c = memchr(l[0], 'A' + k, n[0]);

		assert_non_null(c);
		col[k] = (size_t)(c - l[0]);
	}
	for (r = 0; r < 3; r++) {
		const char	*row = l[1 + 2 * r];

		assert_true(n[1 + 2 * r] > col[2]);
		assert_int_equal(row[2], '1' + r);
		for (k = 0; k < 3; k++) {
			enum ttt_mark	m = ttt_board_at(b, r * 3 + k);

			assert_int_equal(row[col[k]],
			    m == TTT_EMPTY ? ' ' : ttt_mark_char(m));
		}
		/* The bars line up with the rules' crosses. */
		assert_int_equal(row[col[0] + 2], '|');
		assert_int_equal(row[col[1] + 2], '|');
		if (r < 2) {
			assert_int_equal(n[2 + 2 * r], strlen(rule));
			assert_memory_equal(l[2 + 2 * r], rule, strlen(rule));
			assert_int_equal(l[2 + 2 * r][col[0] + 2], '+');
			assert_int_equal(l[2 + 2 * r][col[1] + 2], '+');
		}
	}
}

/* Every formatter writes exactly its documented text. */
static void
test_format_exact_output(void **state)
{
	char	buf[PROTO_OUT_MAX];
	size_t	i;
	int	n;

	(void)state;
	for (i = 0; i < NCASES(cases); i++) {
		memset(buf, SENTINEL, sizeof buf);
		n = fmt_case(&cases[i], buf, sizeof buf);
		if (strcmp(buf, cases[i].want) != 0)
			fail_msg("%s:\n got \"%s\"\nwant \"%s\"", cases[i].what,
			    buf, cases[i].want);
		if (n != (int)strlen(cases[i].want))
			fail_msg("%s: returned %d, want %zu", cases[i].what, n,
			    strlen(cases[i].want));
		assert_true(n < PROTO_OUT_MAX);
	}
}

/* A blank line wants no reply: proto_fmt_ok of PROTO_NONE writes nothing. */
static void
test_format_ok_none_is_empty(void **state)
{
	struct proto_cmd	cmd;
	char			buf[16];

	(void)state;
	memset(&cmd, 0, sizeof cmd);
	cmd.verb = PROTO_NONE;
	memset(buf, SENTINEL, sizeof buf);
	assert_int_equal(proto_fmt_ok(buf, sizeof buf, &cmd), 0);
	assert_string_equal(buf, "");
}

/* The error code and text tables, and the fallback past their end. */
static void
test_format_error_code_text(void **state)
{
	size_t	i;

	(void)state;
	for (i = 0; i < NCASES(cases); i++) {
		const struct fmt_case	*c = &cases[i];

		if (c->kind != F_ERROR)
			continue;
		/* "ERR " CODE " " text "\r\n" */
		assert_int_equal(strlen(c->want), 4 +
		    strlen(proto_error_code(c->err)) + 1 +
		    strlen(proto_error_text(c->err)) + 2);
		assert_memory_equal(c->want + 4, proto_error_code(c->err),
		    strlen(proto_error_code(c->err)));
		assert_string_equal(c->ev.text, proto_error_text(c->err));
	}
	assert_string_equal(proto_error_code(PROTO_NERRORS), "UNKNOWN");
	assert_string_equal(proto_error_text(PROTO_NERRORS), "");
	assert_string_equal(proto_error_code((enum proto_error)-1),
	    "UNKNOWN");
}

/*
 * snprintf semantics: full length returned, truncated, NUL-terminated;
 * a cut ends on a whole character.
 */
static void
test_format_snprintf_semantics(void **state)
{
	char	buf[PROTO_OUT_MAX + 16];
	size_t	i, size, want, copy, k;
	int	n;

	(void)state;
	for (i = 0; i < NCASES(cases); i++) {
		const struct fmt_case	*c = &cases[i];

		want = strlen(c->want);
		n = fmt_case(c, NULL, 0);
		if (n != (int)want)
			fail_msg("%s: size 0 NULL returned %d, want %zu",
			    c->what, n, want);
		for (size = 0; size <= want + 2; size++) {
			memset(buf, SENTINEL, sizeof buf);
			n = fmt_case(c, buf, size);
			if (n != (int)want)
				fail_msg("%s: size %zu returned %d, want %zu",
				    c->what, size, n, want);
			if (size == 0) {
				assert_int_equal((unsigned char)buf[0],
				    SENTINEL);
				continue;
			}
			copy = utf8_trim(c->want, size - 1 < want ? size - 1 :
			    want);
			if (memcmp(buf, c->want, copy) != 0 ||
			    buf[copy] != '\0')
				fail_msg("%s: size %zu: bad truncation \"%s\"",
				    c->what, size, buf);
			/* Nothing past size, nor past the NUL if not cut. */
			for (k = copy < want ? size : copy + 1; k < sizeof buf;
			    k++) {
				if ((unsigned char)buf[k] != SENTINEL)
					fail_msg("%s: size %zu: byte %zu "
					    "written", c->what, size, k);
			}
		}
	}
}

/* Regression guard: sizes 1 and 5 truncate the board, art included. */
static void
test_format_small_buffer_board(void **state)
{
	struct ttt_board	b;
	char			buf[8];
	int			full;

	(void)state;
	board_from_moves(&b, TTT_X, MOVES_MIXED);
	full = proto_fmt_board(NULL, 0, &b);
	assert_int_equal(full, (int)strlen("BOARD XO..X...O\r\n" ART_MIXED));

	memset(buf, SENTINEL, sizeof buf);
	assert_int_equal(proto_fmt_board(buf, 1, &b), full);
	assert_int_equal(buf[0], '\0');
	assert_int_equal((unsigned char)buf[1], SENTINEL);

	memset(buf, SENTINEL, sizeof buf);
	assert_int_equal(proto_fmt_board(buf, 5, &b), full);
	assert_string_equal(buf, "BOAR");
	assert_int_equal((unsigned char)buf[5], SENTINEL);

	memset(buf, SENTINEL, sizeof buf);
	assert_int_equal(proto_fmt_hello(buf, 5), (int)strlen(cases[0].want));
	assert_string_equal(buf, "HELL");
}

/* CR LF endings, keywords, single spaces, no trailing blanks. */
static void
test_format_line_conventions(void **state)
{
	char	buf[PROTO_OUT_MAX];
	size_t	i;
	int	e;

	(void)state;
	for (i = 0; i < NCASES(cases); i++) {
		fmt_case(&cases[i], buf, sizeof buf);
		check_lines(buf, cases[i].kind == F_BOARD ||
		    cases[i].kind == F_ART, cases[i].what);
	}
	for (e = PROTO_ELINE_TOO_LONG; e < PROTO_NERRORS; e++) {
		proto_fmt_error(buf, sizeof buf, (enum proto_error)e);
		check_lines(buf, 0, proto_error_code((enum proto_error)e));
	}
}

/* Each table output parses back: first line as its event, rest as human. */
static void
test_format_round_trip_table(void **state)
{
	char			 buf[PROTO_OUT_MAX];
	struct proto_event	 ev;
	struct ev_want		 human;
	size_t			 i, len, pos, end;

	(void)state;
	memset(&human, 0, sizeof human);
	human.kind = PROTO_EV_HUMAN;
	for (i = 0; i < NCASES(cases); i++) {
		const struct fmt_case	*c = &cases[i];

		fmt_case(c, buf, sizeof buf);
		len = strlen(buf);
		end = line_end(buf, len);
		check_event(buf, end, &c->ev, c->what);
		for (pos = end + 2; pos < len; pos = end + 2) {
			end = pos + line_end(buf + pos, len - pos);
			check_event(buf + pos, end - pos, &human, c->what);
			assert_int_equal(proto_event_parse(buf + pos,
			    end - pos, &ev), 0);
			assert_int_equal(ev.textlen, end - pos);
			assert_ptr_equal(ev.text, buf + pos);
		}
	}
}

/* MATCH, START, TURN, RESULT and FORFEIT carry marks and names back. */
static void
test_format_round_trip_marks_names(void **state)
{
	static const char	*names[] = {
		"p1", "p2", "bob", "A", "-", "_x-Y_9", "BoB_-0123456789Z",
		"Zo\xc3\xab", "\xe4\xb8\xad", "\xf0\x9f\x98\x80", NAME_LONGEST
	};
	static const enum ttt_mark	 marks[] = { TTT_X, TTT_O };
	static const enum proto_leave	 whys[] = {
		PROTO_LEAVE_QUIT, PROTO_LEAVE_DROP, PROTO_LEAVE_TIMEOUT
	};
	struct ttt_board	 b;
	struct ev_want		 w;
	char			 buf[PROTO_OUT_MAX], text[128];
	size_t			 m, i, j, y;
	int			 mine;

	(void)state;
	for (m = 0; m < NCASES(marks); m++) {
		for (i = 0; i < NCASES(names); i++) {
			const char	*me = names[i];
			const char	*other;

			other = names[(i + 1) % NCASES(names)];

			memset(&w, 0, sizeof w);
			w.kind = PROTO_EV_MATCH;
			w.mark = marks[m];
			w.name = me;
			proto_fmt_match(buf, sizeof buf, marks[m], me);
			check_lines(buf, 0, "match");
			check_event(buf, line_end(buf, strlen(buf)), &w,
			    "match");

			memset(&w, 0, sizeof w);
			w.kind = PROTO_EV_START;
			w.mark = marks[m];
			snprintf(text, sizeof text, "%s (%c) moves first.",
			    me, ttt_mark_char(marks[m]));
			w.text = text;
			proto_fmt_start(buf, sizeof buf, marks[m], me);
			check_lines(buf, 0, "start");
			check_event(buf, line_end(buf, strlen(buf)), &w,
			    "start");

			for (mine = 0; mine < 2; mine++) {
				memset(&w, 0, sizeof w);
				w.kind = PROTO_EV_TURN;
				w.mark = marks[m];
				proto_fmt_turn(buf, sizeof buf, marks[m], mine,
				    me);
				check_lines(buf, 0, "turn");
				check_event(buf, line_end(buf, strlen(buf)),
				    &w, "turn");
			}

			for (y = 0; y < NCASES(whys); y++) {
				memset(&w, 0, sizeof w);
				w.kind = PROTO_EV_RESULT;
				w.result = PROTO_RESULT_FORFEIT;
				w.mark = marks[m];
				w.name = me;
				proto_fmt_forfeit(buf, sizeof buf, marks[m],
				    me, other, whys[y]);
				check_lines(buf, 0, "forfeit");
				check_event(buf, line_end(buf, strlen(buf)),
				    &w, "forfeit");
			}

			/* A won board for this mark: its row 1. */
			ttt_board_init(&b, marks[m]);
			for (j = 0; j < 5; j++) {
				static const int	seq[5] = {
					0, 3, 1, 4, 2
				};

				assert_int_equal(ttt_board_play(&b,
				    (j % 2) == 0 ? marks[m] :
				    ttt_mark_other(marks[m]), seq[j]), TTT_OK);
			}
			memset(&w, 0, sizeof w);
			w.kind = PROTO_EV_RESULT;
			w.result = PROTO_RESULT_WIN;
			w.mark = marks[m];
			w.name = me;
			snprintf(text, sizeof text,
			    "%s wins! better luck next time %s!", me, other);
			w.text = text;
			proto_fmt_result(buf, sizeof buf, &b, me, other);
			check_lines(buf, 0, "result");
			check_event(buf, line_end(buf, strlen(buf)), &w,
			    "result");
		}
	}
}

/* Every error code comes back from ERR with its text. */
static void
test_format_round_trip_errors(void **state)
{
	struct ev_want	w;
	char		buf[PROTO_OUT_MAX];
	int		e;

	(void)state;
	for (e = PROTO_ELINE_TOO_LONG; e < PROTO_NERRORS; e++) {
		memset(&w, 0, sizeof w);
		w.kind = PROTO_EV_ERR;
		w.error = (enum proto_error)e;
		w.text = proto_error_text((enum proto_error)e);
		proto_fmt_error(buf, sizeof buf, (enum proto_error)e);
		check_event(buf, line_end(buf, strlen(buf)), &w,
		    proto_error_code((enum proto_error)e));
	}
}

/* Every one of the 3^9 boards comes back from BOARD; its art matches. */
static void
test_format_round_trip_every_board(void **state)
{
	struct ttt_board	 b;
	struct ev_want		 w;
	char			 buf[PROTO_OUT_MAX], cells[TTT_CELLS + 1];
	int			 code, k, v, n, head;

	(void)state;
	memset(&w, 0, sizeof w);
	w.kind = PROTO_EV_BOARD;
	w.cells = cells;
	w.text = "";
	for (code = 0; code < 19683; code++) {
		ttt_board_init(&b, TTT_X);
		for (k = 0, v = code; k < TTT_CELLS; k++, v /= 3) {
			if (v % 3 == 1)
				b.x |= (uint16_t)(1u << k);
			else if (v % 3 == 2)
				b.o |= (uint16_t)(1u << k);
			cells[k] = ".XO"[v % 3];
		}
		cells[TTT_CELLS] = '\0';
		n = proto_fmt_board(buf, sizeof buf, &b);
		assert_int_equal(n, (int)strlen(buf));
		head = (int)line_end(buf, strlen(buf));
		assert_int_equal(head, 6 + TTT_CELLS);
		check_event(buf, (size_t)head, &w, cells);
		check_art(buf + head + 2, strlen(buf) - (size_t)head - 2, &b);
		/* The art alone is the same as the tail of BOARD. */
		n = proto_fmt_board_art(buf + PROTO_OUT_MAX / 2,
		    PROTO_OUT_MAX / 2, &b);
		assert_int_equal(n, (int)strlen(buf + head + 2));
		assert_string_equal(buf + PROTO_OUT_MAX / 2, buf + head + 2);
	}
}

/* For every parsed client command, its OK reply parses back the same. */
static void
test_format_round_trip_ok_from_parse(void **state)
{
	static const char	*lines[] = {
		"NAME bob", "name BoB_-0123456789Z", "NAME x", "nAmE _-_",
		"MOVE a1", "MOVE B1", "move c1", "MOVE a2", "MOVE B2",
		"MOVE c2", "MOVE A3", "move b3", "MOVE C3",
		"a1", "B1", "c1", "A2", "b2", "C2", "a3", "B3", "c3",
		"y", "Y", "yes", "YES", "n", "N", "no", "No",
		"AGAIN y", "again YES", "AGAIN n", "again no",
		"BOARD", "board please", "PING", "ping", "HELP", "help me",
		"QUIT", "quit now",
	};
	struct proto_cmd	 cmd;
	struct proto_event	 ev;
	char			 buf[PROTO_OUT_MAX];
	size_t			 i, len, end, pos;

	(void)state;
	for (i = 0; i < NCASES(lines); i++) {
		if (proto_parse(lines[i], strlen(lines[i]), &cmd) != PROTO_OK)
			fail_msg("\"%s\" does not parse", lines[i]);
		assert_int_not_equal(cmd.verb, PROTO_NONE);
		proto_fmt_ok(buf, sizeof buf, &cmd);
		check_lines(buf, 0, lines[i]);
		len = strlen(buf);
		end = line_end(buf, len);
		if (proto_event_parse(buf, end, &ev) != 0)
			fail_msg("\"%s\": reply \"%s\" does not parse",
			    lines[i], buf);
		if (cmd.verb == PROTO_QUIT) {
			assert_int_equal(ev.kind, PROTO_EV_BYE);
			continue;
		}
		if (ev.kind != PROTO_EV_OK || ev.verb != cmd.verb)
			fail_msg("\"%s\": kind %d verb %d, want OK %d",
			    lines[i], ev.kind, ev.verb, cmd.verb);
		if (cmd.verb == PROTO_MOVE && ev.cell != cmd.cell)
			fail_msg("\"%s\": cell %d, want %d", lines[i],
			    ev.cell, cmd.cell);
		if (cmd.verb == PROTO_AGAIN && ev.yes != cmd.yes)
			fail_msg("\"%s\": yes %d, want %d", lines[i], ev.yes,
			    cmd.yes);
		if (cmd.verb == PROTO_NAME && strcmp(ev.name, cmd.name) != 0)
			fail_msg("\"%s\": name \"%s\", want \"%s\"", lines[i],
			    ev.name, cmd.name);
		for (pos = end + 2; pos < len; pos = end + 2) {
			end = pos + line_end(buf + pos, len - pos);
			assert_int_equal(proto_event_parse(buf + pos,
			    end - pos, &ev), 0);
			assert_int_equal(ev.kind, PROTO_EV_HUMAN);
		}
	}
}

/* Malformed server lines are refused with -1. */
static void
test_format_event_rejects_malformed(void **state)
{
	static const char	*bad[] = {
		"", "\r",
		"BOARD XO.X.O.X", "BOARD XO.X.O.XO.", "BOARD XO.X.O.Xx",
		"BOARD XO.X.O.X-", "BOARD", "BOARD ",
		"MATCH X", "MATCH X ", "MATCH", "MATCH Z p1 You play Z.",
		"MATCH X bo.b You play X against bo.b.",
		"MATCH X BoB_-0123456789ZZ You play X.",
		"RESULT WIN Z p1 p1 wins! better luck next time p2!",
		"RESULT WIN x p1 p1 wins!", "RESULT WIN . p1 p1 wins!",
		"RESULT WIN XO p1 p1 wins!", "RESULT WIN", "RESULT WIN X",
		"RESULT FORFEIT", "RESULT FORFEIT O", "RESULT FORFEIT Q p2",
		"RESULT LOSE X p1", "RESULT",
		"START", "START Z p1 (Z) moves first.",
		"TURN", "TURN . Waiting for p1 to move...",
		"OK", "OK FOO", "OK MOVE", "OK MOVE D1", "OK MOVE B22",
		"OK MOVE b2", "OK AGAIN", "OK AGAIN maybe", "OK AGAIN Y",
		"OK NAME", "OK NAME bo.b", "OK PING",
		"HELLO", "HELLO ttt/1", "HELLO tttd/",
		"ERR",
	};
	struct proto_event	 ev;
	size_t			 i;

	(void)state;
	for (i = 0; i < NCASES(bad); i++) {
		if (proto_event_parse(bad[i], strlen(bad[i]), &ev) != -1)
			fail_msg("\"%s\" was accepted as kind %d", bad[i],
			    ev.kind);
	}
}

/* Unknown keywords are kind UNKNOWN with rc 0, so newer servers work. */
static void
test_format_event_unknown_keyword(void **state)
{
	static const char	*lines[] = {
		"FROBNICATE 1 2 3", "NEWTHING", "STATS games=3",
		"FUTURE_EVENT X p1 some text\r", "AGAIN Play again?",
	};
	struct proto_event	 ev;
	size_t			 i;

	(void)state;
	for (i = 0; i < NCASES(lines); i++) {
		ev.kind = PROTO_EV_HELLO;
		if (proto_event_parse(lines[i], strlen(lines[i]), &ev) != 0)
			fail_msg("\"%s\" was refused", lines[i]);
		if (ev.kind != PROTO_EV_UNKNOWN)
			fail_msg("\"%s\": kind %d, want UNKNOWN", lines[i],
			    ev.kind);
	}
}

/* A few hand-written lines: human lines, versions, free text. */
static void
test_format_event_hand_lines(void **state)
{
	static const struct {
		const char	*line;
		struct ev_want	 w;
	} cases[] = {
		{ " x", { .kind = PROTO_EV_HUMAN, .text = " x" } },
		{ "  BOARD XO..X...O", { .kind = PROTO_EV_HUMAN,
		    .text = "  BOARD XO..X...O" } },
		{ "HELLO tttd/2 Hi", { .kind = PROTO_EV_HELLO, .version = 2,
		    .text = "Hi" } },
		{ "HELLO tttd/1", { .kind = PROTO_EV_HELLO, .version = 1,
		    .text = "" } },
		{ "WAIT", { .kind = PROTO_EV_WAIT, .text = "" } },
		{ "OK MOVE C1", { .kind = PROTO_EV_OK, .verb = PROTO_MOVE,
		    .cell = 2, .text = "" } },
		{ "OK AGAIN n", { .kind = PROTO_EV_OK, .verb = PROTO_AGAIN,
		    .yes = 0 } },
		{ "RESULT TIE", { .kind = PROTO_EV_RESULT,
		    .result = PROTO_RESULT_TIE, .text = "" } },
		{ "BOARD OOOXXX...", { .kind = PROTO_EV_BOARD,
		    .cells = "OOOXXX...", .text = "" } },
		{ "INFO a  b", { .kind = PROTO_EV_INFO, .text = "a  b" } },
	};
	char	buf[64];
	size_t	i, len;

	(void)state;
	for (i = 0; i < NCASES(cases); i++) {
		/* check_event also parses the byte after the line: a CR. */
		len = strlen(cases[i].line);
		assert_true(len + 1 < sizeof buf);
		memcpy(buf, cases[i].line, len);
		buf[len] = '\r';
		check_event(buf, len, &cases[i].w, cases[i].line);
	}
}

/*
 * The HELLO version is the whole decimal number after "tttd/": digits only,
 * at least one, and within an int.  Once only its first digit was read, so
 * tttd/10 was 1 and tttd/x was 72.
 */
static void
test_format_event_hello_version(void **state)
{
	static const struct {
		const char	*line;
		int		 rc;
		int		 version;
	} cases[] = {
		{ "HELLO tttd/1 Welcome", 0, 1 },
		{ "HELLO tttd/1", 0, 1 },
		{ "HELLO tttd/2 Hi", 0, 2 },
		{ "HELLO tttd/10 Hi", 0, 10 },
		{ "HELLO tttd/12 Hi", 0, 12 },
		{ "HELLO tttd/007 Hi", 0, 7 },
		{ "HELLO tttd/2147483647 Hi", 0, 2147483647 },
		{ "HELLO tttd/x Hi", -1, 0 },
		{ "HELLO tttd/x", -1, 0 },
		{ "HELLO tttd/ Hi", -1, 0 },
		{ "HELLO tttd/", -1, 0 },
		{ "HELLO tttd/1x Hi", -1, 0 },
		{ "HELLO tttd/1x", -1, 0 },
		{ "HELLO tttd/x1 Hi", -1, 0 },
		{ "HELLO tttd/-1 Hi", -1, 0 },
		{ "HELLO tttd/+1 Hi", -1, 0 },
		{ "HELLO tttd/1.0 Hi", -1, 0 },
		{ "HELLO tttd/1\t Hi", -1, 0 },
		{ "HELLO tttd/2147483648 Hi", -1, 0 },
		{ "HELLO tttd/99999999999999999999 Hi", -1, 0 },
		{ "HELLO TTTD/1 Hi", -1, 0 },
	};
	struct proto_event	ev;
	size_t			i;
	int			rc;

	(void)state;
	for (i = 0; i < NCASES(cases); i++) {
		rc = proto_event_parse(cases[i].line, strlen(cases[i].line),
		    &ev);
		if (rc != cases[i].rc)
			fail_msg("\"%s\": rc %d, want %d", cases[i].line, rc,
			    cases[i].rc);
		if (rc == 0 && (ev.kind != PROTO_EV_HELLO ||
		    ev.version != cases[i].version))
			fail_msg("\"%s\": kind %d version %d, want HELLO %d",
			    cases[i].line, ev.kind, ev.version,
			    cases[i].version);
	}
}

/* A §9 server line and what proto_event_parse must take from it. */
struct ev9_case {
	const char		*line;
	enum proto_kind		 kind;
	enum proto_verb		 verb;		/* OK */
	unsigned long long	 number;	/* GAME, OK GAMES, OK WATCH */
	const char		*name;		/* GAME (X), CHAT */
	const char		*name2;		/* GAME (O) */
	int			 moves;		/* GAME */
	const char		*code;		/* OK ROOM, TOKEN */
	enum proto_level	 level;		/* OK PLAY AI */
	const char		*text;
};

/*
 * The lines of protocol.md §9: GAME, TOKEN, CHAT and the new OK replies,
 * each field taken out, with and without the CR.
 */
static void
test_format_event_rooms_watch_chat(void **state)
{
	static const struct ev9_case	cases[] = {
		{ "GAME 4 alice bob 3", PROTO_EV_GAME, 0, 4, "alice", "bob",
		    3, NULL, 0, "" },
		{ "GAME 7 p1 ai 0", PROTO_EV_GAME, 0, 7, "p1", "ai", 0, NULL,
		    0, "" },
		{ "GAME 18446744073709551615 X_-9 o 9", PROTO_EV_GAME, 0,
		    18446744073709551615ULL, "X_-9", "o", 9, NULL, 0, "" },
		{ "GAME 00000000000000000012 a b 1", PROTO_EV_GAME, 0, 12,
		    "a", "b", 1, NULL, 0, "" },
		{ "TOKEN K7QX-2M9P Type RESUME K7QX-2M9P on a new connection "
		    "within 30 seconds of losing this one to get your seat "
		    "back.", PROTO_EV_TOKEN, 0, 0, NULL, NULL, 0, "K7QX-2M9P",
		    0, "Type RESUME K7QX-2M9P on a new connection within 30 "
		    "seconds of losing this one to get your seat back." },
		{ "TOKEN 2345-6789", PROTO_EV_TOKEN, 0, 0, NULL, NULL, 0,
		    "2345-6789", 0, "" },
		{ "CHAT alice good luck!", PROTO_EV_CHAT, 0, 0, "alice", NULL,
		    0, NULL, 0, "good luck!" },
		{ "CHAT bob  two  spaces ", PROTO_EV_CHAT, 0, 0, "bob", NULL,
		    0, NULL, 0, " two  spaces " },
		{ "OK ROOM K7QX-2M9P", PROTO_EV_OK, PROTO_ROOM, 0, NULL, NULL,
		    0, "K7QX-2M9P", 0, "" },
		{ "OK GAMES 2", PROTO_EV_OK, PROTO_GAMES, 2, NULL, NULL, 0,
		    NULL, 0, "" },
		{ "OK GAMES 0", PROTO_EV_OK, PROTO_GAMES, 0, NULL, NULL, 0,
		    NULL, 0, "" },
		{ "OK WATCH 4", PROTO_EV_OK, PROTO_WATCH, 4, NULL, NULL, 0,
		    NULL, 0, "" },
		{ "OK UNWATCH", PROTO_EV_OK, PROTO_UNWATCH, 0, NULL, NULL, 0,
		    NULL, 0, "" },
		{ "OK RESUME", PROTO_EV_OK, PROTO_RESUME, 0, NULL, NULL, 0,
		    NULL, 0, "" },
		{ "OK PLAY AI perfect", PROTO_EV_OK, PROTO_PLAY, 0, NULL, NULL,
		    0, NULL, PROTO_LEVEL_PERFECT, "" },
		{ "OK PLAY AI easy", PROTO_EV_OK, PROTO_PLAY, 0, NULL, NULL, 0,
		    NULL, PROTO_LEVEL_EASY, "" },
		{ "OK PLAY", PROTO_EV_OK, PROTO_PLAY, 0, NULL, NULL, 0,
		    NULL, PROTO_LEVEL_QUEUE, "" },
		{ "OK SAY", PROTO_EV_OK, PROTO_SAY, 0, NULL, NULL, 0, NULL, 0,
		    "" },
		{ "OK RESIGN", PROTO_EV_OK, PROTO_RESIGN, 0, NULL, NULL, 0,
		    NULL, 0, "" },
	};
	struct proto_event	ev;
	char			buf[512];
	size_t			i, len;
	int			withcr;

	(void)state;
	for (i = 0; i < NCASES(cases); i++) {
		const struct ev9_case	*c = &cases[i];

		len = strlen(c->line);
		assert_true(len + 1 < sizeof buf);
		memcpy(buf, c->line, len);
		buf[len] = '\r';
		for (withcr = 0; withcr < 2; withcr++) {
			if (proto_event_parse(buf, len + (size_t)withcr,
			    &ev) != 0)
				fail_msg("\"%s\" was refused", c->line);
			if (ev.kind != c->kind)
				fail_msg("\"%s\": kind %d, want %d", c->line,
				    ev.kind, c->kind);
			if (c->kind == PROTO_EV_OK && ev.verb != c->verb)
				fail_msg("\"%s\": verb %d, want %d", c->line,
				    ev.verb, c->verb);
			if (ev.number != c->number)
				fail_msg("\"%s\": number %llu, want %llu",
				    c->line, ev.number, c->number);
			assert_string_equal(ev.name,
			    c->name == NULL ? "" : c->name);
			assert_string_equal(ev.name2,
			    c->name2 == NULL ? "" : c->name2);
			assert_int_equal(ev.moves, c->moves);
			assert_string_equal(ev.code,
			    c->code == NULL ? "" : c->code);
			assert_int_equal(ev.level, c->level);
			if (ev.textlen != strlen(c->text) ||
			    memcmp(ev.text, c->text, ev.textlen) != 0)
				fail_msg("\"%s\": text \"%.*s\", want \"%s\"",
				    c->line, (int)ev.textlen, ev.text,
				    c->text);
		}
	}
}

/*
 * Malformed §9 lines are refused with -1 (never a crash, never a half
 * filled event taken for a good one); a keyword that merely starts like a
 * new one is UNKNOWN.
 */
static void
test_format_event_rooms_watch_chat_malformed(void **state)
{
	static const char	*bad[] = {
		"GAME", "GAME 4", "GAME 4 alice", "GAME 4 alice bob",
		"GAME x alice bob 3", "GAME -4 alice bob 3",
		"GAME 4 al.ce bob 3", "GAME 4 alice b*b 3",
		"GAME 4 alice bob 10", "GAME 4 alice bob x",
		"GAME 4 alice bob ", "GAME 4  alice bob 3",
		"GAME 18446744073709551616 a b 1",
		"GAME 123456789012345678901 a b 1",
		"GAME 4 alice 0123456789abcdefg 3",
		"TOKEN", "TOKEN K7QX2M9P", "TOKEN K7QX-2M9", "TOKEN K7QX-2M9PP",
		"TOKEN k7qx-2m9p", "TOKEN K7QX_2M9P", "TOKEN K7Q0-2M9P",
		"TOKEN K7QI-2M9P", "TOKEN K7QL-2M9P", "TOKEN K7QO-2M9P",
		"TOKEN K7Q1-2M9P", "TOKEN -K7QX2M9P",
		"CHAT", "CHAT alice", "CHAT alice ", "CHAT al!ce hi",
		"CHAT  alice hi",
		"OK ROOM", "OK ROOM K7QX2", "OK ROOM K7QX2M9P", "OK ROOM K7QX-2M9",
		"OK ROOM K7QX-2M9PP", "OK ROOM k7qx-2m9p", "OK ROOM K7QX-0M9P",
		"OK ROOM K7QX_2M9P", "OK ROOM K7QX2M",
		"OK GAMES", "OK GAMES x", "OK GAMES -1",
		"OK GAMES 18446744073709551616", "OK WATCH", "OK WATCH 4x",
		"OK PLAY AI", "OK PLAY AI hard", "OK PLAY AI EASY",
		"OK PLAY easy", "OK PLAY BI easy",
	};
	static const char	*unknown[] = {
		"GAMES 2", "TOKENS K7QX-2M9P x", "CHATS alice hi", "Game 4",
	};
	struct proto_event	 ev;
	size_t			 i;

	(void)state;
	for (i = 0; i < NCASES(bad); i++) {
		if (proto_event_parse(bad[i], strlen(bad[i]), &ev) != -1)
			fail_msg("\"%s\" was accepted as kind %d", bad[i],
			    ev.kind);
	}
	for (i = 0; i < NCASES(unknown); i++) {
		assert_int_equal(proto_event_parse(unknown[i],
		    strlen(unknown[i]), &ev), 0);
		assert_int_equal(ev.kind, PROTO_EV_UNKNOWN);
	}
}

/* The eight error codes of §9.10, read from their exact lines. */
static void
test_format_event_new_errors(void **state)
{
	static const struct {
		const char		*line;
		enum proto_error	 error;
	} cases[] = {
		{ "ERR IN_GAME You are in a game; finish it, RESIGN or QUIT "
		    "first.", PROTO_EIN_GAME },
		{ "ERR BAD_ROOM Use ROOM NEW, or ROOM JOIN <code>.",
		    PROTO_EBAD_ROOM },
		{ "ERR NO_ROOM No room with that code is open.",
		    PROTO_ENO_ROOM },
		{ "ERR NO_SUCH_GAME No match with that number is being "
		    "played.", PROTO_ENO_SUCH_GAME },
		{ "ERR NOT_WATCHING You are not watching a game.",
		    PROTO_ENOT_WATCHING },
		{ "ERR BAD_TOKEN That code does not match a seat you can "
		    "resume.", PROTO_EBAD_TOKEN },
		{ "ERR BAD_LEVEL Use PLAY AI, PLAY AI easy or PLAY AI "
		    "perfect.", PROTO_EBAD_LEVEL },
		{ "ERR BAD_TEXT A chat line is 1 to 200 characters, without "
		    "TAB.", PROTO_EBAD_TEXT },
		{ "ERR NEW_THING Later servers may add codes.",
		    PROTO_NERRORS },
	};
	struct proto_event	ev;
	size_t			i;

	(void)state;
	for (i = 0; i < NCASES(cases); i++) {
		assert_int_equal(proto_event_parse(cases[i].line,
		    strlen(cases[i].line), &ev), 0);
		assert_int_equal(ev.kind, PROTO_EV_ERR);
		if (ev.error != cases[i].error)
			fail_msg("\"%s\": error %d, want %d", cases[i].line,
			    ev.error, cases[i].error);
		assert_string_equal(ev.text, strchr(cases[i].line + 4, ' ') +
		    1);
	}
}

/*
 * The §9 lines as the server formats them read back to what was formatted:
 * the OK of each new command (from its parsed line), GAME, TOKEN, CHAT,
 * OK GAMES, the room's WAIT and the resign RESULT.
 */
static void
test_format_event_round_trip_rooms_chat(void **state)
{
	static const struct {
		const char		*cmd;	/* a client line */
		enum proto_verb		 verb;
		const char		*code;	/* OK ROOM */
		unsigned long long	 number;	/* OK WATCH */
		enum proto_level	 level;	/* OK PLAY AI */
	} oks[] = {
		{ "ROOM JOIN k7qx2m9p", PROTO_ROOM, "K7QX-2M9P", 0, 0 },
		{ "watch 18446744073709551615", PROTO_WATCH, "",
		    18446744073709551615ULL, 0 },
		{ "PLAY AI", PROTO_PLAY, "", 0, PROTO_LEVEL_PERFECT },
		{ "play ai EASY", PROTO_PLAY, "", 0, PROTO_LEVEL_EASY },
		{ "UNWATCH", PROTO_UNWATCH, "", 0, 0 },
		{ "RESUME k7qx2m9p", PROTO_RESUME, "", 0, 0 },
		{ "SAY hello there", PROTO_SAY, "", 0, 0 },
		{ "RESIGN now", PROTO_RESIGN, "", 0, 0 },
	};
	struct proto_cmd	cmd;
	struct proto_event	ev;
	char			buf[PROTO_OUT_MAX];
	size_t			i;

	(void)state;
	for (i = 0; i < NCASES(oks); i++) {
		assert_int_equal(proto_parse(oks[i].cmd, strlen(oks[i].cmd),
		    &cmd), PROTO_OK);
		proto_fmt_ok(buf, sizeof buf, &cmd);
		check_lines(buf, 0, oks[i].cmd);
		assert_int_equal(proto_event_parse(buf, line_end(buf,
		    strlen(buf)), &ev), 0);
		assert_int_equal(ev.kind, PROTO_EV_OK);
		if (ev.verb != oks[i].verb)
			fail_msg("\"%s\": verb %d, want %d", buf, ev.verb,
			    oks[i].verb);
		assert_string_equal(ev.code, oks[i].code);
		assert_true(ev.number == oks[i].number);
		assert_int_equal(ev.level, oks[i].level);
	}

	proto_fmt_game(buf, sizeof buf, 12345678901234ULL, "alice",
	    "Bob_-9", 7, 0);
	assert_string_equal(buf, "GAME 12345678901234 alice Bob_-9 7\r\n");
	assert_int_equal(proto_event_parse(buf, line_end(buf, strlen(buf)),
	    &ev), 0);
	assert_int_equal(ev.kind, PROTO_EV_GAME);
	assert_true(ev.number == 12345678901234ULL);
	assert_string_equal(ev.name, "alice");
	assert_string_equal(ev.name2, "Bob_-9");
	assert_int_equal(ev.moves, 7);
	assert_int_equal(ev.away, 0);
	/* A seat held for a lost player is marked: X's, O's, both. */
	for (i = 1; i <= 3; i++) {
		static const char *const	 marks[] = { "", "X", "O", "XO" };
		char				 want[64];

		proto_fmt_game(buf, sizeof buf, 4, "alice", "bob", 3, (int)i);
		snprintf(want, sizeof want, "GAME 4 alice bob 3 away=%s\r\n",
		    marks[i]);
		assert_string_equal(buf, want);
		assert_int_equal(proto_event_parse(buf, line_end(buf,
		    strlen(buf)), &ev), 0);
		assert_int_equal(ev.away, (int)i);
		assert_int_equal(ev.moves, 3);
	}

	proto_fmt_token(buf, sizeof buf, "K7QX2M9P", 30000);
	assert_int_equal(proto_event_parse(buf, line_end(buf, strlen(buf)),
	    &ev), 0);
	assert_int_equal(ev.kind, PROTO_EV_TOKEN);
	assert_string_equal(ev.code, "K7QX-2M9P");
	assert_true(ev.textlen > 0);

	proto_fmt_chat(buf, sizeof buf, "alice", "good luck!", 10);
	assert_int_equal(proto_event_parse(buf, line_end(buf, strlen(buf)),
	    &ev), 0);
	assert_int_equal(ev.kind, PROTO_EV_CHAT);
	assert_string_equal(ev.name, "alice");
	assert_int_equal(ev.textlen, 10);
	assert_memory_equal(ev.text, "good luck!", 10);

	proto_fmt_ok_games(buf, sizeof buf, 100);
	assert_int_equal(proto_event_parse(buf, line_end(buf, strlen(buf)),
	    &ev), 0);
	assert_int_equal(ev.verb, PROTO_GAMES);
	assert_true(ev.number == 100);

	proto_fmt_wait_room(buf, sizeof buf, "K7QX2M9P");
	assert_string_equal(buf,
	    "WAIT Waiting for a friend to join room K7QX-2M9P...\r\n");
	assert_int_equal(proto_event_parse(buf, line_end(buf, strlen(buf)),
	    &ev), 0);
	assert_int_equal(ev.kind, PROTO_EV_WAIT);

	proto_fmt_resign(buf, sizeof buf, TTT_O, "bob", "alice");
	assert_string_equal(buf, "RESULT WIN O bob alice resigned.\r\n");
	assert_int_equal(proto_event_parse(buf, line_end(buf, strlen(buf)),
	    &ev), 0);
	assert_int_equal(ev.kind, PROTO_EV_RESULT);
	assert_int_equal(ev.result, PROTO_RESULT_WIN);
	assert_int_equal(ev.mark, TTT_O);
	assert_string_equal(ev.name, "bob");

	proto_fmt_info_away(buf, sizeof buf, "alice", 30000);
	assert_string_equal(buf, "INFO alice lost the connection. Waiting up "
	    "to 30 seconds for them to come back.\r\n");
	/* Whole seconds, rounded up, at least 1 (protocol.md §9.5). */
	{
		static const struct {
			long long	 ms;
			const char	*secs;
		} away[] = {
			{ 1500, "2 seconds" }, { 29999, "30 seconds" },
			{ 29001, "30 seconds" }, { 29000, "29 seconds" },
			{ 1000, "1 second" }, { 1001, "2 seconds" },
			{ 200, "1 second" }, { 0, "1 second" },
		};
		char	want[128];
		size_t	i;

		for (i = 0; i < sizeof away / sizeof away[0]; i++) {
			proto_fmt_info_away(buf, sizeof buf, "bob",
			    away[i].ms);
			snprintf(want, sizeof want, "INFO bob lost the "
			    "connection. Waiting up to %s for them to come "
			    "back.\r\n", away[i].secs);
			assert_string_equal(buf, want);
		}
	}
	proto_fmt_tie(buf, sizeof buf);
	assert_string_equal(buf, "RESULT TIE It's a tie!\r\n");
}

/* Run the format and event tests. */
/*
 * The lines of protocol.md §9 parse back (proto_event_parse) into the
 * kinds and fields proto.h gives them: GAME, TOKEN, CHAT, and the OK
 * replies of the new commands.  A client (and fuzz_session's invariant
 * that every server line parses) depends on it.
 */
static void
test_format_round_trip_section9(void **state)
{
	struct proto_event	 ev;
	struct proto_cmd	 cmd;
	char			 buf[PROTO_OUT_MAX];
	int			 len;
	static const struct {
		enum proto_verb	 verb;
		const char	*line;
	} oks[] = {
		{ PROTO_UNWATCH, "OK UNWATCH" }, { PROTO_RESUME, "OK RESUME" },
		{ PROTO_SAY, "OK SAY" }, { PROTO_RESIGN, "OK RESIGN" },
	};
	size_t			 i;

	(void)state;
	len = proto_fmt_token(buf, sizeof buf, "K7QX2M9P", 30000);
	assert_int_equal(proto_event_parse(buf, (size_t)len - 2, &ev), 0);
	assert_int_equal(ev.kind, PROTO_EV_TOKEN);
	assert_string_equal(ev.code, "K7QX-2M9P");

	len = proto_fmt_game(buf, sizeof buf, 18446744073709551615ULL,
	    "alice", "ai", 7, 0);
	assert_int_equal(proto_event_parse(buf, (size_t)len - 2, &ev), 0);
	assert_int_equal(ev.kind, PROTO_EV_GAME);
	assert_true(ev.number == 18446744073709551615ULL);
	assert_string_equal(ev.name, "alice");
	assert_string_equal(ev.name2, "ai");
	assert_int_equal(ev.moves, 7);

	len = proto_fmt_chat(buf, sizeof buf, "bob", "good luck!", 10);
	assert_int_equal(proto_event_parse(buf, (size_t)len - 2, &ev), 0);
	assert_int_equal(ev.kind, PROTO_EV_CHAT);
	assert_string_equal(ev.name, "bob");
	assert_int_equal(ev.textlen, 10);
	assert_memory_equal(ev.text, "good luck!", 10);

	len = proto_fmt_ok_games(buf, sizeof buf, 42);
	assert_int_equal(proto_event_parse(buf, (size_t)len - 2, &ev), 0);
	assert_int_equal(ev.kind, PROTO_EV_OK);
	assert_int_equal(ev.verb, PROTO_GAMES);
	assert_true(ev.number == 42);

	memset(&cmd, 0, sizeof cmd);
	cmd.verb = PROTO_ROOM;
	memcpy(cmd.code, "K7QX2M9P", 9);
	len = proto_fmt_ok(buf, sizeof buf, &cmd);
	assert_string_equal(buf, "OK ROOM K7QX-2M9P\r\n");
	assert_int_equal(proto_event_parse(buf, (size_t)len - 2, &ev), 0);
	assert_int_equal(ev.kind, PROTO_EV_OK);
	assert_int_equal(ev.verb, PROTO_ROOM);
	assert_string_equal(ev.code, "K7QX-2M9P");

	memset(&cmd, 0, sizeof cmd);
	cmd.verb = PROTO_WATCH;
	cmd.game = 4;
	len = proto_fmt_ok(buf, sizeof buf, &cmd);
	assert_int_equal(proto_event_parse(buf, (size_t)len - 2, &ev), 0);
	assert_int_equal(ev.verb, PROTO_WATCH);
	assert_true(ev.number == 4);

	memset(&cmd, 0, sizeof cmd);
	cmd.verb = PROTO_PLAY;
	cmd.level = PROTO_LEVEL_EASY;
	len = proto_fmt_ok(buf, sizeof buf, &cmd);
	assert_int_equal(proto_event_parse(buf, (size_t)len - 2, &ev), 0);
	assert_int_equal(ev.kind, PROTO_EV_OK);
	assert_int_equal(ev.verb, PROTO_PLAY);

	for (i = 0; i < sizeof oks / sizeof oks[0]; i++) {
		if (proto_event_parse(oks[i].line, strlen(oks[i].line),
		    &ev) != 0 || ev.kind != PROTO_EV_OK ||
		    ev.verb != oks[i].verb)
			fail_msg("\"%s\" does not parse as OK %d", oks[i].line,
			    oks[i].verb);
	}
}

/*
 * Names and chat beyond ASCII: GAME, CHAT and the watcher's INFO carry
 * them byte for byte, and a client parses them back.
 */
static void
test_format_utf8_names_and_chat(void **state)
{
	struct proto_event	 ev;
	char			 buf[PROTO_OUT_MAX];
	int			 len;

	(void)state;
	len = proto_fmt_game(buf, sizeof buf, 7, "Zo\xc3\xab",
	    "\xd0\xaf\xd0\xbd\xd0\xb0", 3, 0);
	assert_string_equal(buf, "GAME 7 Zo\xc3\xab \xd0\xaf\xd0\xbd\xd0\xb0 3\r\n");
	check_lines(buf, 0, "game");
	assert_int_equal(proto_event_parse(buf, (size_t)len - 2, &ev), 0);
	assert_int_equal(ev.kind, PROTO_EV_GAME);
	assert_string_equal(ev.name, "Zo\xc3\xab");
	assert_string_equal(ev.name2, "\xd0\xaf\xd0\xbd\xd0\xb0");

	len = proto_fmt_chat(buf, sizeof buf, "Zo\xc3\xab", "\xc2\xa1hola!", 7);
	assert_string_equal(buf, "CHAT Zo\xc3\xab \xc2\xa1hola!\r\n");
	check_lines(buf, 0, "chat");
	assert_int_equal(proto_event_parse(buf, (size_t)len - 2, &ev), 0);
	assert_int_equal(ev.kind, PROTO_EV_CHAT);
	assert_string_equal(ev.name, "Zo\xc3\xab");
	assert_int_equal(ev.textlen, 7);
	assert_memory_equal(ev.text, "\xc2\xa1hola!", 7);

	/* The longest names and the longest id fit whole. */
	len = proto_fmt_info_watching(buf, sizeof buf, 18446744073709551615ULL,
	    "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
	    "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9",
	    "\xe4\xb8\xad\xe4\xb8\xad\xe4\xb8\xad\xe4\xb8\xad\xe4\xb8\xad"
	    "\xe4\xb8\xad\xe4\xb8\xad\xe4\xb8\xad\xe4\xb8\xad\xe4\xb8\xad");
	assert_string_equal(buf, "INFO You are watching game "
	    "18446744073709551615: "
	    "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
	    "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
	    " (X) against "
	    "\xe4\xb8\xad\xe4\xb8\xad\xe4\xb8\xad\xe4\xb8\xad\xe4\xb8\xad"
	    "\xe4\xb8\xad\xe4\xb8\xad\xe4\xb8\xad\xe4\xb8\xad\xe4\xb8\xad"
	    " (O).\r\n");
	assert_int_equal(len, (int)strlen(buf));
	check_lines(buf, 0, "watching");
	proto_fmt_info_watching(buf, sizeof buf, 4, "alice", "bob");
	assert_string_equal(buf,
	    "INFO You are watching game 4: alice (X) against bob (O).\r\n");

	/* A cut buffer keeps whole characters: "CHAT Zo", not half an ë. */
	len = proto_fmt_chat(buf, 9, "Zo\xc3\xab", "hi", 2);
	assert_int_equal(len, 14);
	assert_string_equal(buf, "CHAT Zo");
	len = proto_fmt_match(buf, 11, TTT_X, "Zo\xc3\xab");
	assert_string_equal(buf, "MATCH X Zo");
	len = proto_fmt_start(buf, 11, TTT_X, "Zo\xc3\xab");
	assert_string_equal(buf, "START X Zo");
}

/* One line formatted: it is want, and its length is returned. */
static void
format_is(int n, const char *buf, const char *want)
{
	assert_string_equal(buf, want);
	assert_int_equal(n, (int)strlen(want));
}

/* The accounts' lines (issue 25), each as protocol.md §12 has it. */
static void
test_format_accounts(void **state)
{
	struct proto_cmd	cmd = { .verb = PROTO_FORGET, .name = "alice" };
	char			buf[PROTO_OUT_MAX];

	(void)state;
	format_is(proto_fmt_ok_name(buf, sizeof buf, PROTO_REGISTER, "alice"),
	    buf, "OK REGISTER alice\r\n");
	format_is(proto_fmt_key(buf, sizeof buf, "abcdefghijklmnopqrstuvwxyz"),
	    buf, "KEY abcdefghijklmnopqrstuvwxyz Keep this key: it is shown "
	    "once and is your account. Sign in with LOGIN "
	    "abcdefghijklmnopqrstuvwxyz on any connection.\r\n");
	format_is(proto_fmt_ok_login(buf, sizeof buf, "alice", 1662, 290),
	    buf, "OK LOGIN alice 1662 290\r\n");
	format_is(proto_fmt_ok_rating(buf, sizeof buf, "alice", 1662, 1, 290,
	    1, 1, 0, 0), buf, "OK RATING alice 1662? 290 1 1 0 0\r\n");
	format_is(proto_fmt_ok_rating(buf, sizeof buf, "bob", 1400, 0, 79,
	    30, 10, 15, 5), buf, "OK RATING bob 1400 79 30 10 15 5\r\n");
	format_is(proto_fmt_ok_list(buf, sizeof buf, PROTO_HISTORY, 2), buf,
	    "OK HISTORY 2\r\n");
	format_is(proto_fmt_ok_list(buf, sizeof buf, PROTO_TOP, 0), buf,
	    "OK TOP 0\r\n");
	format_is(proto_fmt_played(buf, sizeof buf, "17", 2, 1764374400LL,
	    "alice", "bob", 'X', "B2,A1,B1,C3,B3"), buf,
	    "PLAYED 17.2 2025-11-29T00:00:00Z alice bob X B2,A1,B1,C3,B3\r\n");
	format_is(proto_fmt_played(buf, sizeof buf, "3", 1, 0LL, "(deleted)",
	    "bob", 'T', "A1,B2,C3,B1,A2,A3,C2,C1,B3"), buf,
	    "PLAYED 3.1 1970-01-01T00:00:00Z (deleted) bob TIE "
	    "A1,B2,C3,B1,A2,A3,C2,C1,B3\r\n");
	format_is(proto_fmt_played(buf, sizeof buf, "4", 1, 60LL, "a", "b",
	    'O', ""), buf, "PLAYED 4.1 1970-01-01T00:01:00Z a b O -\r\n");
	format_is(proto_fmt_ranked(buf, sizeof buf, 1, "alice", 1702, 64, 31),
	    buf, "RANKED 1 alice 1702 64 31\r\n");
	format_is(proto_fmt_info_rating(buf, sizeof buf, 1662, 1, 162), buf,
	    "INFO Your rating: 1662? (+162).\r\n");
	format_is(proto_fmt_info_rating(buf, sizeof buf, 1338, 0, -12), buf,
	    "INFO Your rating: 1338 (-12).\r\n");
	format_is(proto_fmt_info_rating(buf, sizeof buf, 1500, 0, 0), buf,
	    "INFO Your rating: 1500 (+0).\r\n");
	format_is(proto_fmt_ok(buf, sizeof buf, &cmd), buf,
	    "OK FORGET alice\r\n");
	cmd.verb = PROTO_REKEY;
	format_is(proto_fmt_ok(buf, sizeof buf, &cmd), buf, "OK REKEY\r\n");
	format_is(proto_fmt_error(buf, sizeof buf, PROTO_EBAD_KEY), buf,
	    "ERR BAD_KEY No account has that key.\r\n");
	format_is(proto_fmt_error(buf, sizeof buf, PROTO_ENO_ACCOUNTS), buf,
	    "ERR NO_ACCOUNTS This server keeps no accounts: everyone plays as "
	    "a guest.\r\n");
	format_is(proto_fmt_error_text(buf, sizeof buf, PROTO_ENO_NAME,
	    PROTO_REGISTER_NO_NAME), buf,
	    "ERR NO_NAME Choose a name with NAME before you REGISTER.\r\n");
}

/* Parse a formatted line (its CR LF dropped) as a client does: 0 or -1. */
static int
format_parse(const char *buf, struct proto_event *ev)
{
	return (proto_event_parse(buf, strcspn(buf, "\r\n"), ev));
}

/*
 * The accounts' lines taken apart again (proto_event_parse of
 * proto_fmt_*): every number, name and word comes back as formatted.
 */
static void
test_format_accounts_round_trip(void **state)
{
	struct proto_event	ev;
	char			buf[PROTO_OUT_MAX];

	(void)state;
	proto_fmt_key(buf, sizeof buf, "q3x7mhd2kzv4lr5bpx6ejwsa4u");
	assert_int_equal(format_parse(buf, &ev), 0);
	assert_int_equal(ev.kind, PROTO_EV_KEY);
	assert_string_equal(ev.acct.key, "q3x7mhd2kzv4lr5bpx6ejwsa4u");
	assert_true(strncmp(ev.text, "Keep this key: ", 15) == 0);

	proto_fmt_ok_name(buf, sizeof buf, PROTO_REGISTER, "alice");
	assert_int_equal(format_parse(buf, &ev), 0);
	assert_int_equal(ev.verb, PROTO_REGISTER);
	assert_string_equal(ev.name, "alice");

	proto_fmt_ok_login(buf, sizeof buf, "alice", 1662, 290);
	assert_int_equal(format_parse(buf, &ev), 0);
	assert_int_equal(ev.verb, PROTO_LOGIN);
	assert_string_equal(ev.name, "alice");
	assert_int_equal(ev.acct.rating, 1662);
	assert_int_equal(ev.acct.rd, 290);

	proto_fmt_ok_rating(buf, sizeof buf, "alice", 1662, 1, 290, 7, 4, 2,
	    1);
	assert_int_equal(format_parse(buf, &ev), 0);
	assert_int_equal(ev.verb, PROTO_RATING);
	assert_string_equal(ev.name, "alice");
	assert_int_equal(ev.acct.rating, 1662);
	assert_int_equal(ev.acct.provisional, 1);
	assert_int_equal(ev.acct.rd, 290);
	assert_int_equal(ev.acct.games, 7);
	assert_int_equal(ev.acct.wins, 4);
	assert_int_equal(ev.acct.losses, 2);
	assert_int_equal(ev.acct.ties, 1);
	proto_fmt_ok_rating(buf, sizeof buf, "bob", 1400, 0, 79, 30, 10, 15,
	    5);
	assert_int_equal(format_parse(buf, &ev), 0);
	assert_int_equal(ev.acct.provisional, 0);
	assert_int_equal(ev.acct.rating, 1400);

	proto_fmt_ok_list(buf, sizeof buf, PROTO_HISTORY, 2);
	assert_int_equal(format_parse(buf, &ev), 0);
	assert_int_equal(ev.verb, PROTO_HISTORY);
	assert_int_equal(ev.number, 2);
	proto_fmt_ok_list(buf, sizeof buf, PROTO_TOP, 100);
	assert_int_equal(format_parse(buf, &ev), 0);
	assert_int_equal(ev.verb, PROTO_TOP);
	assert_int_equal(ev.number, 100);

	proto_fmt_played(buf, sizeof buf, "17", 2, 1764374400LL, "alice",
	    "bob", 'X', "B2,A1,B1,C3,B3");
	assert_int_equal(format_parse(buf, &ev), 0);
	assert_int_equal(ev.kind, PROTO_EV_PLAYED);
	assert_string_equal(ev.acct.game, "17.2");
	assert_string_equal(ev.acct.when, "2025-11-29T00:00:00Z");
	assert_string_equal(ev.name, "alice");
	assert_string_equal(ev.name2, "bob");
	assert_int_equal(ev.acct.winner, 'X');
	assert_string_equal(ev.acct.moves, "B2,A1,B1,C3,B3");
	proto_fmt_played(buf, sizeof buf, "3", 1, 0LL, "(deleted)", "bob",
	    'T', "");
	assert_int_equal(format_parse(buf, &ev), 0);
	assert_string_equal(ev.name, "(deleted)");
	assert_int_equal(ev.acct.winner, 'T');
	assert_string_equal(ev.acct.moves, "-");

	proto_fmt_ranked(buf, sizeof buf, 3, "alice", 1702, 64, 31);
	assert_int_equal(format_parse(buf, &ev), 0);
	assert_int_equal(ev.kind, PROTO_EV_RANKED);
	assert_int_equal(ev.acct.rank, 3);
	assert_string_equal(ev.name, "alice");
	assert_int_equal(ev.acct.rating, 1702);
	assert_int_equal(ev.acct.rd, 64);
	assert_int_equal(ev.acct.games, 31);
}

/* Account lines that are not well formed are refused, not half read. */
static void
test_format_accounts_malformed(void **state)
{
	static const char *const bad[] = {
		"KEY",
		"KEY ABC text",
		"OK LOGIN alice",
		"OK REGISTER",
		"OK LOGIN alice 15x0 500",
		"OK RATING alice 1500? 500 0 0 0",
		"OK RATING alice ? 500 0 0 0 0",
		"OK HISTORY",
		"OK TOP many",
		"PLAYED 1.1 2026-11-29 alice bob X B2",
		"PLAYED 1.1 2026-11-29T02:24:26Z alice bob Y B2",
		"PLAYED 1.1 2026-11-29T02:24:26Z alice bob X B2,D1",
		"PLAYED 1.1 2026-11-29T02:24:26Z alice bob X B2A1",
		"PLAYED 1.1 2026-11-29T02:24:26Z (gone) bob X B2",
		"RANKED 1 alice 1702 64",
		"RANKED one alice 1702 64 31",
	};
	struct proto_event	ev;
	size_t			i;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		if (proto_event_parse(bad[i], strlen(bad[i]), &ev) != -1)
			fail_msg("\"%s\" was taken as well formed", bad[i]);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format_exact_output),
		cmocka_unit_test(test_format_ok_none_is_empty),
		cmocka_unit_test(test_format_error_code_text),
		cmocka_unit_test(test_format_snprintf_semantics),
		cmocka_unit_test(test_format_small_buffer_board),
		cmocka_unit_test(test_format_line_conventions),
		cmocka_unit_test(test_format_round_trip_table),
		cmocka_unit_test(test_format_round_trip_marks_names),
		cmocka_unit_test(test_format_round_trip_errors),
		cmocka_unit_test(test_format_round_trip_every_board),
		cmocka_unit_test(test_format_round_trip_ok_from_parse),
		cmocka_unit_test(test_format_event_rejects_malformed),
		cmocka_unit_test(test_format_event_unknown_keyword),
		cmocka_unit_test(test_format_event_hand_lines),
		cmocka_unit_test(test_format_event_hello_version),
		cmocka_unit_test(test_format_event_rooms_watch_chat),
		cmocka_unit_test(test_format_event_rooms_watch_chat_malformed),
		cmocka_unit_test(test_format_event_new_errors),
		cmocka_unit_test(test_format_event_round_trip_rooms_chat),
		cmocka_unit_test(test_format_round_trip_section9),
		cmocka_unit_test(test_format_utf8_names_and_chat),
		cmocka_unit_test(test_format_accounts),
		cmocka_unit_test(test_format_accounts_round_trip),
		cmocka_unit_test(test_format_accounts_malformed),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
