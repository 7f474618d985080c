/*
 * verbs.h -- the verbs of the protocol, one entry each: a new verb is a
 * line here and its handler in server/cmd.c.
 *
 * V(verb, word, args, handler, ok) per verb, in enum proto_verb's order
 * (PROTO_NONE, 0, is no verb; new ones go last): the enum constant without
 * PROTO_, the command word (in any case), what follows it and what its OK
 * reply carries back, the server's handler cmd_<handler>, and the word
 * after OK in its reply ("": the reply is not OK).  Columns may be added
 * after handler; the first four stay as they are.
 */
#ifndef PROTO_VERBS_H
#define PROTO_VERBS_H

/* A verb's arguments; then, after the ';', its OK reply's. */
enum proto_args {
	PROTO_ARGS_NONE = 0,	/* none, extra words ignored; none */
	PROTO_ARGS_NAME,	/* <name>; the name */
	PROTO_ARGS_CELL,	/* <cell>; the cell in upper case */
	PROTO_ARGS_ANSWER,	/* y|yes|n|no; y or n */
	PROTO_ARGS_ROOM,	/* NEW or JOIN <code>; the room's code */
	PROTO_ARGS_COUNT,	/* none; a count (proto_fmt_ok_games) */
	PROTO_ARGS_GAME,	/* <id>, 0 if malformed; the id */
	PROTO_ARGS_TOKEN,	/* <token>, "" if malformed; none */
	PROTO_ARGS_LEVEL,	/* AI [easy|perfect]; AI easy|perfect */
	PROTO_ARGS_TEXT,	/* the rest of the line; none */
	PROTO_ARGS_KEY,		/* <key>, "" if malformed; none (its own) */
	PROTO_ARGS_PLAYER,	/* [name]; none (its own) */
	PROTO_ARGS_LIST		/* [name] [n], n 1 to 100; none (its own) */
};

#define PROTO_VERBS(V)							\
	V(NAME,    "NAME",    PROTO_ARGS_NAME,   name,    "NAME")	\
	V(MOVE,    "MOVE",    PROTO_ARGS_CELL,   move,    "MOVE")	\
	V(BOARD,   "BOARD",   PROTO_ARGS_NONE,   board,   "BOARD")	\
	V(AGAIN,   "AGAIN",   PROTO_ARGS_ANSWER, again,   "AGAIN")	\
	V(QUIT,    "QUIT",    PROTO_ARGS_NONE,   quit,    "")		\
	V(HELP,    "HELP",    PROTO_ARGS_NONE,   reply,   "HELP")	\
	V(PING,    "PING",    PROTO_ARGS_NONE,   reply,   "PONG")	\
	V(STATS,   "STATS",   PROTO_ARGS_NONE,   stats,   "STATS")	\
	V(ROOM,    "ROOM",    PROTO_ARGS_ROOM,   room,    "ROOM")	\
	V(GAMES,   "GAMES",   PROTO_ARGS_COUNT,  games,   "GAMES")	\
	V(WATCH,   "WATCH",   PROTO_ARGS_GAME,   watch,   "WATCH")	\
	V(UNWATCH, "UNWATCH", PROTO_ARGS_NONE,   unwatch, "UNWATCH")	\
	V(RESUME,  "RESUME",  PROTO_ARGS_TOKEN,  resume,  "RESUME")	\
	V(PLAY,    "PLAY",    PROTO_ARGS_LEVEL,  play,    "PLAY")	\
	V(SAY,     "SAY",     PROTO_ARGS_TEXT,   say,     "SAY")	\
	V(RESIGN,  "RESIGN",  PROTO_ARGS_NONE,   resign,  "RESIGN")	\
	V(REGISTER, "REGISTER", PROTO_ARGS_NONE, account, "REGISTER")	\
	V(LOGIN,   "LOGIN",   PROTO_ARGS_KEY,    account, "LOGIN")	\
	V(REKEY,   "REKEY",   PROTO_ARGS_NONE,   account, "REKEY")	\
	V(FORGET,  "FORGET",  PROTO_ARGS_NAME,   account, "FORGET")	\
	V(RATING,  "RATING",  PROTO_ARGS_PLAYER, account, "RATING")	\
	V(HISTORY, "HISTORY", PROTO_ARGS_LIST,   account, "HISTORY")	\
	V(TOP,     "TOP",     PROTO_ARGS_LIST,   account, "TOP")

#endif /* PROTO_VERBS_H */
