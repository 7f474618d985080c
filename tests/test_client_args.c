/*
 * test_client_args.c -- ttt-client's command line (client/args.c): every
 * option with its value checked, the modes and their conflicts, and the
 * first command each mode sends; the client's own commands
 * (client/slash.c); the reconnection schedule (client/backoff.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "args.h"
#include "backoff.h"
#include "slash.h"

#define NCASES(a)	(sizeof (a) / sizeof (a)[0])
#define ARGV_MAX	12

/* One command line (NULL-terminated, without argv[0]) and its outcome. */
struct args_case {
	const char		*argv[ARGV_MAX];
	enum args_action	 action;
	enum client_mode	 mode;
	const char		*arg;		/* opts.arg, for ARGS_RUN */
	const char		*command;	/* args_command's line */
	const char		*why;		/* ARGS_ERROR and ARGS_USAGE */
};

static enum args_action	run(const char *const *, struct client_opts *,
			    char *, size_t);

/* Run args_parse on a NULL-terminated list, with argv[0] added. */
static enum args_action
run(const char *const *list, struct client_opts *opts, char *why,
    size_t size)
{
	char	*argv[ARGV_MAX + 1];
	int	 argc = 0;

	argv[argc++] = (char *)"ttt-client";
	while (list[argc - 1] != NULL && argc < ARGV_MAX)
		argv[argc] = (char *)list[argc - 1], argc++;
	argv[argc] = NULL;
	return (args_parse(argc, argv, opts, why, size));
}

/* The modes, each value's shapes, and the command each mode sends. */
static void
test_client_args_modes(void **state)
{
	static const struct args_case	cases[] = {
		{ { "h", "4000", NULL }, ARGS_RUN, CLIENT_MODE_QUEUE, "", "",
		    "" },
		{ { "h", "4000", "--room", NULL }, ARGS_RUN, CLIENT_MODE_ROOM,
		    "", "ROOM NEW", "" },
		{ { "--room", "h", "4000", NULL }, ARGS_RUN, CLIENT_MODE_ROOM,
		    "", "ROOM NEW", "" },
		{ { "h", "4000", "--join", "k7qx2m9p", NULL }, ARGS_RUN,
		    CLIENT_MODE_JOIN, "K7QX-2M9P", "ROOM JOIN K7QX-2M9P", "" },
		{ { "h", "4000", "--join=k7qx-2m9p", NULL }, ARGS_RUN,
		    CLIENT_MODE_JOIN, "K7QX-2M9P", "ROOM JOIN K7QX-2M9P", "" },
		{ { "h", "4000", "--ai", NULL }, ARGS_RUN, CLIENT_MODE_AI, "",
		    "PLAY AI", "" },
		{ { "h", "4000", "--ai", "easy", NULL }, ARGS_RUN,
		    CLIENT_MODE_AI, "easy", "PLAY AI easy", "" },
		{ { "--ai", "PERFECT", "h", "4000", NULL }, ARGS_RUN,
		    CLIENT_MODE_AI, "perfect", "PLAY AI perfect", "" },
		{ { "--ai", "h", "4000", NULL }, ARGS_RUN, CLIENT_MODE_AI, "",
		    "PLAY AI", "" },
		{ { "h", "4000", "--ai=Easy", NULL }, ARGS_RUN,
		    CLIENT_MODE_AI, "easy", "PLAY AI easy", "" },
		{ { "h", "4000", "--watch", "4", NULL }, ARGS_RUN,
		    CLIENT_MODE_WATCH, "4", "WATCH 4", "" },
		{ { "h", "4000", "--watch=18446744073709551615", NULL },
		    ARGS_RUN, CLIENT_MODE_WATCH, "18446744073709551615",
		    "WATCH 18446744073709551615", "" },
		{ { "h", "4000", "--games", NULL }, ARGS_RUN,
		    CLIENT_MODE_GAMES, "", "GAMES", "" },
		{ { "h", "4000", "--resume", "k7qx-2m9p", NULL }, ARGS_RUN,
		    CLIENT_MODE_RESUME, "K7QX-2M9P", "RESUME K7QX-2M9P", "" },
		{ { "h", "4000", "--resume", "K7QX2M9P", NULL }, ARGS_RUN,
		    CLIENT_MODE_RESUME, "K7QX-2M9P", "RESUME K7QX-2M9P", "" },
		{ { "--ping", "h", "4000", NULL }, ARGS_RUN, CLIENT_MODE_PING,
		    "", "PING", "" },
		{ { "h", "4000", "--room", "--room", NULL }, ARGS_RUN,
		    CLIENT_MODE_ROOM, "", "ROOM NEW", "" },
		/* After "--" an option is an argument: a third one. */
		{ { "h", "--", "4000", "--room", NULL }, ARGS_USAGE,
		    CLIENT_MODE_QUEUE, NULL, NULL,
		    "unexpected argument --room" },
	};
	struct client_opts	opts;
	char			why[256], line[PROTO_LINE_MAX];
	size_t			i;
	enum args_action	a;

	(void)state;
	for (i = 0; i < NCASES(cases); i++) {
		a = run(cases[i].argv, &opts, why, sizeof why);
		if (a != cases[i].action)
			fail_msg("case %zu: action %d, want %d (%s)", i, a,
			    cases[i].action, why);
		assert_string_equal(why, cases[i].why);
		if (a != ARGS_RUN)
			continue;
		assert_int_equal(opts.mode, cases[i].mode);
		assert_string_equal(opts.arg, cases[i].arg);
		assert_string_equal(opts.host, "h");
		assert_string_equal(opts.port, "4000");
		args_command(&opts, line, sizeof line);
		assert_string_equal(line, cases[i].command);
	}
}

/* The verb of each mode's command: what the client awaits as its reply. */
static void
test_client_args_command_verbs(void **state)
{
	static const struct {
		enum client_mode	mode;
		enum proto_verb		verb;
	} cases[] = {
		{ CLIENT_MODE_QUEUE, PROTO_NONE },
		{ CLIENT_MODE_ROOM, PROTO_ROOM },
		{ CLIENT_MODE_JOIN, PROTO_ROOM },
		{ CLIENT_MODE_AI, PROTO_PLAY },
		{ CLIENT_MODE_WATCH, PROTO_WATCH },
		{ CLIENT_MODE_GAMES, PROTO_GAMES },
		{ CLIENT_MODE_RESUME, PROTO_RESUME },
		{ CLIENT_MODE_PING, PROTO_PING },
	};
	struct client_opts	opts;
	char			line[8];
	size_t			i;

	(void)state;
	memset(&opts, 0, sizeof opts);
	snprintf(opts.arg, sizeof opts.arg, "K7QX-2M9P");
	for (i = 0; i < NCASES(cases); i++) {
		opts.mode = cases[i].mode;
		assert_int_equal(args_command(&opts, line, sizeof line),
		    cases[i].verb);
		/* snprintf semantics: a short buffer is cut, and ends. */
		assert_true(strlen(line) < sizeof line);
	}
}

/* Bad values and conflicts: status 2 and the reason, as main prints it. */
static void
test_client_args_errors(void **state)
{
	static const struct args_case	cases[] = {
		{ { "h", "4000", "--join", "K7QX2M9", NULL }, ARGS_ERROR, 0,
		    NULL, NULL, "bad room code K7QX2M9: a room code is 8 letters and digits, such as K7QX-2M9P" },
		{ { "h", "4000", "--join", "K7QX0M9P", NULL }, ARGS_ERROR, 0,
		    NULL, NULL, "bad room code K7QX0M9P: a room code is 8 letters and digits, such as K7QX-2M9P" },
		{ { "h", "4000", "--join", "K7QX2M9PP", NULL }, ARGS_ERROR, 0,
		    NULL, NULL, "bad room code K7QX2M9PP: a room code is 8 letters and digits, such as K7QX-2M9P" },
		{ { "h", "4000", "--join", "K7Q-X2M9P", NULL }, ARGS_ERROR, 0,
		    NULL, NULL, "bad room code K7Q-X2M9P: a room code is 8 letters and digits, such as K7QX-2M9P" },
		{ { "h", "4000", "--join", NULL }, ARGS_ERROR, 0, NULL, NULL,
		    "--join needs a value" },
		{ { "h", "4000", "--resume", "K7QX-2M9", NULL }, ARGS_ERROR,
		    0, NULL, NULL, "bad resume code K7QX-2M9: a resume code is 8 letters and digits, such as K7QX-2M9P" },
		{ { "h", "4000", "--resume", "K7Q-X2M9P", NULL }, ARGS_ERROR,
		    0, NULL, NULL, "bad resume code K7Q-X2M9P: a resume code is 8 letters and digits, such as K7QX-2M9P" },
		{ { "h", "4000", "--resume", "K7QX--2M9P", NULL }, ARGS_ERROR,
		    0, NULL, NULL, "bad resume code K7QX--2M9P: a resume code is 8 letters and digits, such as K7QX-2M9P" },
		{ { "h", "4000", "--resume", "I7QX-2M9P", NULL }, ARGS_ERROR,
		    0, NULL, NULL, "bad resume code I7QX-2M9P: a resume code is 8 letters and digits, such as K7QX-2M9P" },
		{ { "h", "4000", "--watch", "x4", NULL }, ARGS_ERROR, 0, NULL,
		    NULL, "bad game number x4: use a number from the list of --games" },
		{ { "h", "4000", "--watch", "123456789012345678901", NULL },
		    ARGS_ERROR, 0, NULL, NULL, "bad game number 123456789012345678901: use a number from the list of --games" },
		{ { "h", "4000", "--watch=", NULL }, ARGS_ERROR, 0, NULL,
		    NULL, "bad game number : use a number from the list of --games" },
		{ { "h", "4000", "--ai=hard", NULL }, ARGS_ERROR, 0, NULL,
		    NULL, "bad level hard: use easy or perfect" },
		/* A word after --ai beyond HOST and PORT is a bad level. */
		{ { "h", "4000", "--ai", "hard", NULL }, ARGS_ERROR, 0, NULL,
		    NULL, "bad level hard: use easy or perfect" },
		{ { "--ai", "hard", "h", "4000", NULL }, ARGS_ERROR, 0, NULL,
		    NULL, "bad level hard: use easy or perfect" },
		{ { "h", "4000", "x", "--ai", NULL }, ARGS_USAGE, 0, NULL,
		    NULL, "unexpected argument x" },
		{ { "h", "4000", "x", "y", NULL }, ARGS_USAGE, 0, NULL,
		    NULL, "unexpected argument y" },
		{ { "h", "99999", NULL }, ARGS_ERROR, 0, NULL,
		    NULL, "bad port 99999: a number from 1 to 65535 is needed" },
		{ { "h", "4000", "--room", "--join", "K7QX2M9P", NULL },
		    ARGS_ERROR, 0, NULL, NULL,
		    "--room and --join cannot be used together" },
		{ { "--games", "h", "4000", "--ai", NULL }, ARGS_ERROR, 0,
		    NULL, NULL, "--games and --ai cannot be used together" },
		{ { "--ping", "h", "4000", "--watch", "1", NULL }, ARGS_ERROR,
		    0, NULL, NULL, "--ping and --watch cannot be used together" },
		{ { "h", "4000", "--grace", "x", NULL }, ARGS_ERROR, 0, NULL,
		    NULL, "bad time x: --grace takes 0 to 3600 seconds" },
		{ { "h", "4000", "--grace", "3601", NULL }, ARGS_ERROR, 0,
		    NULL, NULL, "bad time 3601: --grace takes 0 to 3600 seconds" },
		{ { "h", "4000", "--cafile", "ca.pem", NULL }, ARGS_ERROR, 0,
		    NULL, NULL, "--cafile ca.pem without --tls: it names the authorities --tls trusts" },
		{ { "h", "4000", "--tls", "--cafile", NULL }, ARGS_ERROR, 0,
		    NULL, NULL, "--cafile needs a value" },
		{ { "h", "4000", "--tls=1", NULL }, ARGS_USAGE, 0, NULL, NULL,
		    "unknown option --tls=1" },
		{ { "h", "4000", "--roomy", NULL }, ARGS_USAGE, 0, NULL, NULL,
		    "unknown option --roomy" },
		{ { "h", "4000", "--room=1", NULL }, ARGS_USAGE, 0, NULL,
		    NULL, "unknown option --room=1" },
		{ { "h", "4x", "--join", "K7QX2M9P", NULL }, ARGS_ERROR, 0, NULL,
		    NULL, "bad port 4x: a number from 1 to 65535 is needed" },
		{ { "h", "4000", "--keys", NULL }, ARGS_ERROR, 0, NULL, NULL,
		    "--keys needs a value" },
		{ { "h", "4000", "--name", "a b", NULL }, ARGS_ERROR, 0, NULL,
		    NULL, "bad name a b: a name is 1 to 16 letters, digits, '_' or '-'" },
		{ { "h", NULL }, ARGS_USAGE, 0, NULL, NULL, "missing PORT" },
		{ { NULL }, ARGS_USAGE, 0, NULL, NULL,
		    "missing HOST and PORT" },
		{ { "--ping", NULL }, ARGS_USAGE, 0, NULL, NULL,
		    "missing HOST and PORT" },
		{ { "--name", "ann", "h", NULL }, ARGS_USAGE, 0, NULL, NULL,
		    "missing PORT" },
		{ { "--healthz", NULL }, ARGS_USAGE, 0, NULL, NULL,
		    "missing HOST and HTTP-PORT" },
		{ { "--healthz", "h", NULL }, ARGS_USAGE, 0, NULL, NULL,
		    "missing HTTP-PORT" },
		{ { "--bogus", NULL }, ARGS_USAGE, 0, NULL, NULL,
		    "unknown option --bogus" },
		{ { "--help", "--room", "--join", NULL }, ARGS_HELP, 0, NULL,
		    NULL, "" },
		{ { "-V", NULL }, ARGS_VERSION, 0, NULL, NULL, "" },
	};
	struct client_opts	opts;
	char			why[256];
	size_t			i;
	enum args_action	a;

	(void)state;
	for (i = 0; i < NCASES(cases); i++) {
		a = run(cases[i].argv, &opts, why, sizeof why);
		if (a != cases[i].action)
			fail_msg("case %zu: action %d, want %d (%s)", i, a,
			    cases[i].action, why);
		assert_string_equal(why, cases[i].why);
	}
}

/*
 * The account options: none signs in with a kept key, --register makes an
 * account, --guest does neither; not both, and --register only where a
 * name is chosen.
 */
static void
test_client_args_account(void **state)
{
	static const struct {
		const char		*argv[ARGV_MAX];
		enum args_action	 action;
		enum args_account	 account;
		const char		*why;
	} cases[] = {
		{ { "h", "1", NULL }, ARGS_RUN, ARGS_ACCOUNT_AUTO, "" },
		{ { "h", "1", "--register", "--name", "ann", NULL }, ARGS_RUN,
		    ARGS_ACCOUNT_REGISTER, "" },
		{ { "--register", "h", "1", NULL }, ARGS_RUN,
		    ARGS_ACCOUNT_REGISTER, "" },
		{ { "h", "1", "--guest", NULL }, ARGS_RUN, ARGS_ACCOUNT_GUEST,
		    "" },
		{ { "h", "1", "--guest", "--guest", "--ai", NULL }, ARGS_RUN,
		    ARGS_ACCOUNT_GUEST, "" },
		{ { "h", "1", "--register", "--room", NULL }, ARGS_RUN,
		    ARGS_ACCOUNT_REGISTER, "" },
		{ { "h", "1", "--guest", "--register", NULL }, ARGS_ERROR, 0,
		    "--register and --guest cannot be used together" },
		{ { "h", "1", "--register", "--guest", NULL }, ARGS_ERROR, 0,
		    "--register and --guest cannot be used together" },
		{ { "h", "1", "--register", "--games", NULL }, ARGS_ERROR, 0,
		    "--register cannot be used with --games, --resume, --ping or --healthz" },
		{ { "h", "1", "--register", "--resume", "K7QX-2M9P", NULL },
		    ARGS_ERROR, 0,
		    "--register cannot be used with --games, --resume, --ping or --healthz" },
		{ { "--ping", "h", "1", "--register", NULL }, ARGS_ERROR, 0,
		    "--register cannot be used with --games, --resume, --ping or --healthz" },
		{ { "h", "1", "--register=yes", NULL }, ARGS_USAGE, 0,
		    "unknown option --register=yes" },
		{ { "h", "1", "--guests", NULL }, ARGS_USAGE, 0,
		    "unknown option --guests" },
	};
	struct client_opts	opts;
	char			why[256];
	size_t			i;
	enum args_action	a;

	(void)state;
	for (i = 0; i < NCASES(cases); i++) {
		a = run(cases[i].argv, &opts, why, sizeof why);
		if (a != cases[i].action)
			fail_msg("case %zu: action %d, want %d (%s)", i, a,
			    cases[i].action, why);
		assert_string_equal(why, cases[i].why);
		if (a == ARGS_RUN)
			assert_int_equal(opts.account, cases[i].account);
	}
}

/* Reconnection is on by default for 30 s; --no-reconnect and --grace 0. */
static void
test_client_args_reconnect(void **state)
{
	static const struct {
		const char	*argv[ARGV_MAX];
		int		 reconnect;
		int		 grace;
	} cases[] = {
		{ { "h", "1", NULL }, 1, ARGS_GRACE },
		{ { "h", "1", "--no-reconnect", NULL }, 0, ARGS_GRACE },
		{ { "h", "1", "--grace", "5", NULL }, 1, 5 },
		{ { "h", "1", "--grace=3600", NULL }, 1, 3600 },
		{ { "h", "1", "--grace", "0", NULL }, 0, 0 },
		{ { "--no-reconnect", "--grace", "9", "h", "1", NULL }, 0, 9 },
	};
	struct client_opts	opts;
	char			why[256];
	size_t			i;

	(void)state;
	assert_int_equal(ARGS_GRACE, 30);
	for (i = 0; i < NCASES(cases); i++) {
		assert_int_equal(run(cases[i].argv, &opts, why, sizeof why),
		    ARGS_RUN);
		assert_int_equal(opts.reconnect, cases[i].reconnect);
		assert_int_equal(opts.grace, cases[i].grace);
	}
}

/* Plain TCP by default; --tls, with the system's CAs or --cafile's. */
static void
test_client_args_tls(void **state)
{
	static const struct {
		const char	*argv[ARGV_MAX];
		int		 tls;
		const char	*cafile;
		enum client_mode mode;
	} cases[] = {
		{ { "h", "1", NULL }, 0, NULL, CLIENT_MODE_QUEUE },
		{ { "--tls", "h", "4443", NULL }, 1, NULL, CLIENT_MODE_QUEUE },
		{ { "h", "4443", "--tls", "--cafile", "ca.pem", NULL }, 1,
		    "ca.pem", CLIENT_MODE_QUEUE },
		{ { "--cafile=/etc/x.pem", "--tls", "--ping", "h", "4443",
		    NULL }, 1, "/etc/x.pem", CLIENT_MODE_PING },
		{ { "--tls", "--healthz", "h", "8443", NULL }, 1, NULL,
		    CLIENT_MODE_HEALTHZ },
	};
	struct client_opts	opts;
	char			why[256];
	size_t			i;

	(void)state;
	for (i = 0; i < NCASES(cases); i++) {
		assert_int_equal(run(cases[i].argv, &opts, why, sizeof why),
		    ARGS_RUN);
		assert_int_equal(opts.tls, cases[i].tls);
		if (cases[i].cafile == NULL)
			assert_null(opts.cafile);
		else
			assert_string_equal(opts.cafile, cases[i].cafile);
		assert_int_equal(opts.mode, cases[i].mode);
	}
}

/*
 * The commands that do what the options do: their arguments checked as the
 * options' are, and sent as the server shows them; which of them work
 * anywhere (all but /say and /resign).
 */
static void
test_client_slash_options(void **state)
{
	static const struct {
		const char	*line;
		enum slash_kind	 kind;
		const char	*arg;
		int		 queued;
	} cases[] = {
		{ "/games", SLASH_GAMES, "", 1 },
		{ " /GAMES now", SLASH_GAMES, "", 1 },
		{ "/watch 4", SLASH_WATCH, "4", 1 },
		{ "/watch  12345678901234567890 ", SLASH_WATCH,
		    "12345678901234567890", 1 },
		{ "/watch 123456789012345678901", SLASH_BAD_GAME, "", 1 },
		{ "/watch", SLASH_BAD_GAME, "", 1 },
		{ "/watch x4", SLASH_BAD_GAME, "", 1 },
		{ "/watch 4 5", SLASH_BAD_GAME, "", 1 },
		{ "/leave", SLASH_LEAVE, "", 1 },
		{ "/room", SLASH_ROOM, "", 1 },
		{ "/Room new", SLASH_ROOM, "", 1 },
		{ "/join k7qx2m9p", SLASH_JOIN, "K7QX-2M9P", 1 },
		{ "/JOIN  K7QX-2M9P\t", SLASH_JOIN, "K7QX-2M9P", 1 },
		{ "/join K7QX0M9P", SLASH_BAD_CODE, "", 1 },
		{ "/join", SLASH_BAD_CODE, "", 1 },
		{ "/join K7QX-2M9P x", SLASH_BAD_CODE, "", 1 },
		{ "/ai", SLASH_AI, "", 1 },
		{ "/ai EASY", SLASH_AI, "easy", 1 },
		{ "/AI perfect ", SLASH_AI, "perfect", 1 },
		{ "/ai hard", SLASH_BAD_LEVEL, "", 1 },
		{ "/ai easy now", SLASH_BAD_LEVEL, "", 1 },
		{ "/name bob", SLASH_NAME, "bob", 1 },
		{ "/name  Bob_2-x ", SLASH_NAME, "Bob_2-x", 1 },
		{ "/name", SLASH_BAD_NAME, "", 1 },
		{ "/name a b", SLASH_BAD_NAME, "", 1 },
		{ "/name 12345678901234567", SLASH_BAD_NAME, "", 1 },
		{ "/help", SLASH_HELP, "", 1 },
		{ "/rating", SLASH_RATING, "", 1 },
		{ "/RATING  alice ", SLASH_RATING, "alice", 1 },
		{ "/rating 42", SLASH_RATING, "42", 1 },
		{ "/rating alice bob", SLASH_BAD_RATING, "", 1 },
		{ "/rating a!", SLASH_BAD_RATING, "", 1 },
		{ "/history", SLASH_HISTORY, "", 1 },
		{ "/history alice", SLASH_HISTORY, "alice", 1 },
		{ "/history 20", SLASH_HISTORY, "20", 1 },
		{ "/history alice 5", SLASH_HISTORY, "alice 5", 1 },
		{ "/History 5 5", SLASH_HISTORY, "5 5", 1 },
		{ "/history alice 10", SLASH_HISTORY, "alice", 1 },
		{ "/history 100", SLASH_HISTORY, "100", 1 },
		{ "/history 101", SLASH_BAD_HISTORY, "", 1 },
		{ "/history 0", SLASH_BAD_HISTORY, "", 1 },
		{ "/history alice bob", SLASH_BAD_HISTORY, "", 1 },
		{ "/history a b 5", SLASH_BAD_HISTORY, "", 1 },
		{ "/top", SLASH_TOP, "", 1 },
		{ "/top 3", SLASH_TOP, "3", 1 },
		{ "/TOP 100", SLASH_TOP, "100", 1 },
		{ "/top 0", SLASH_BAD_TOP, "", 1 },
		{ "/top alice", SLASH_BAD_TOP, "", 1 },
		{ "/top 3 4", SLASH_BAD_TOP, "", 1 },
		{ "/toppers", SLASH_UNKNOWN, "", 1 },
		{ "/nope", SLASH_UNKNOWN, "", 1 },
		{ "/say hi", SLASH_SAY, "", 0 },
		{ "/say", SLASH_BAD_TEXT, "", 0 },
		{ "/resign", SLASH_RESIGN, "", 0 },
		{ "games", SLASH_NONE, "", 0 },
	};
	struct slash	sl;
	size_t		i;

	(void)state;
	for (i = 0; i < NCASES(cases); i++) {
		if (slash_parse(cases[i].line, strlen(cases[i].line), &sl) !=
		    cases[i].kind || sl.kind != cases[i].kind)
			fail_msg("\"%s\": kind %d, want %d", cases[i].line,
			    sl.kind, cases[i].kind);
		if (strcmp(sl.arg, cases[i].arg) != 0)
			fail_msg("\"%s\": argument \"%s\", want \"%s\"",
			    cases[i].line, sl.arg, cases[i].arg);
		if (slash_queued(sl.kind) != cases[i].queued)
			fail_msg("\"%s\": queued %d", cases[i].line,
			    slash_queued(sl.kind));
	}
}

/* Lines typed at a prompt: the client's commands, and everything else. */
static void
test_client_slash(void **state)
{
	static const struct {
		const char	*line;
		enum slash_kind	 kind;
		const char	*text;		/* SLASH_SAY */
	} cases[] = {
		{ "/say hello", SLASH_SAY, "hello" },
		{ "  /SAY \t good luck!  \t", SLASH_SAY, "good luck!" },
		{ "/Say a  b", SLASH_SAY, "a  b" },
		{ "/say /resign", SLASH_SAY, "/resign" },
		{ "/say", SLASH_BAD_TEXT, NULL },
		{ "/say   ", SLASH_BAD_TEXT, NULL },
		{ "/say a\tb", SLASH_BAD_TEXT, NULL },
		{ "/say caf\xc3\xa9", SLASH_SAY, "caf\xc3\xa9" },
		{ "/say \xe2\x80\xae" "olleh", SLASH_BAD_TEXT, NULL },
		{ "/say \x1b[2J", SLASH_BAD_TEXT, NULL },
		{ "/resign", SLASH_RESIGN, NULL },
		{ "\t/RESIGN now", SLASH_RESIGN, NULL },
		{ "/help", SLASH_HELP, NULL },
		{ "/sayhello", SLASH_UNKNOWN, NULL },
		{ "/", SLASH_UNKNOWN, NULL },
		{ "/ say hi", SLASH_UNKNOWN, NULL },
		{ "/quit", SLASH_UNKNOWN, NULL },
		{ "/gamesx", SLASH_UNKNOWN, NULL },
		{ "say hi", SLASH_NONE, NULL },
		{ "b2", SLASH_NONE, NULL },
		{ "quit", SLASH_NONE, NULL },
		{ "", SLASH_NONE, NULL },
		{ "   ", SLASH_NONE, NULL },
		{ "a/say hi", SLASH_NONE, NULL },
	};
	struct slash	sl;
	size_t		i;

	(void)state;
	for (i = 0; i < NCASES(cases); i++) {
		if (slash_parse(cases[i].line, strlen(cases[i].line), &sl) !=
		    cases[i].kind || sl.kind != cases[i].kind)
			fail_msg("\"%s\": kind %d, want %d", cases[i].line,
			    sl.kind, cases[i].kind);
		if (cases[i].text != NULL &&
		    (sl.textlen != strlen(cases[i].text) ||
		    memcmp(sl.text, cases[i].text, sl.textlen) != 0))
			fail_msg("\"%s\": text \"%.*s\", want \"%s\"",
			    cases[i].line, (int)sl.textlen, sl.text,
			    cases[i].text);
	}
}

/* A chat text is 1 to 200 bytes: 200 is sent, 201 refused. */
static void
test_client_slash_length(void **state)
{
	char		line[5 + PROTO_CHAT_MAX + 2];
	struct slash	sl;

	(void)state;
	memcpy(line, "/say ", 5);
	memset(line + 5, 'x', PROTO_CHAT_MAX + 1);
	assert_int_equal(slash_parse(line, 5 + PROTO_CHAT_MAX, &sl),
	    SLASH_SAY);
	assert_int_equal(sl.textlen, PROTO_CHAT_MAX);
	assert_ptr_equal(sl.text, line + 5);
	assert_int_equal(slash_parse(line, 5 + PROTO_CHAT_MAX + 1, &sl),
	    SLASH_BAD_TEXT);
	/* The line's length counts, not a NUL: none is read past it. */
	assert_int_equal(slash_parse("/say hi", 4, &sl), SLASH_BAD_TEXT);
	assert_int_equal(slash_parse("/resign", 3, &sl), SLASH_UNKNOWN);
}

/*
 * Tries at once, then after 0.25, 0.5, 1, 2, 4, 4 ... seconds, none
 * starting within the last second of a 30-second grace period.
 */
static void
test_client_backoff(void **state)
{
	static const long	want[] = {
		0, 250, 750, 1750, 3750, 7750, 11750, 15750, 19750, 23750,
		27750
	};
	struct backoff	b;
	long		now = 1000000;
	size_t		i;

	(void)state;
	backoff_start(&b, now, 30000);
	for (i = 0; i < NCASES(want); i++) {
		if (backoff_wait(&b, now) != 0)
			fail_msg("try %zu not due at %ld", i, now - 1000000);
		assert_int_equal(b.next, 1000000 + want[i]);
		assert_int_equal(backoff_left(&b, now),
		    30000 - (now - 1000000));
		if (i + 1 < NCASES(want)) {
			assert_int_equal(backoff_failed(&b, now), 0);
			assert_int_equal(backoff_wait(&b, now),
			    want[i + 1] - want[i]);
			now += backoff_wait(&b, now);
		}
	}
	/* The next would start at 31.75 s: past the last moment, 29 s. */
	assert_int_equal(backoff_failed(&b, now), -1);
	assert_int_equal(backoff_left(&b, 1000000 + 30000), 0);
	assert_int_equal(backoff_left(&b, 1000000 + 99999), 0);
}

/* A grace of 2 s keeps 1 s for the connection: tries at 0, 0.25, 0.75. */
static void
test_client_backoff_short(void **state)
{
	struct backoff	b;

	(void)state;
	backoff_start(&b, 0, 2000);
	assert_int_equal(backoff_wait(&b, 0), 0);
	assert_int_equal(backoff_failed(&b, 0), 0);
	assert_int_equal(backoff_failed(&b, 250), 0);
	assert_int_equal(b.next, 750);
	assert_int_equal(backoff_failed(&b, 750), -1);
	/* A try that took long is counted from when it failed. */
	backoff_start(&b, 0, 30000);
	assert_int_equal(backoff_failed(&b, 10000), 0);
	assert_int_equal(b.next, 10250);
	assert_int_equal(backoff_failed(&b, 28800), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_client_args_modes),
		cmocka_unit_test(test_client_args_command_verbs),
		cmocka_unit_test(test_client_args_errors),
		cmocka_unit_test(test_client_args_reconnect),
		cmocka_unit_test(test_client_args_account),
		cmocka_unit_test(test_client_args_tls),
		cmocka_unit_test(test_client_slash),
		cmocka_unit_test(test_client_slash_options),
		cmocka_unit_test(test_client_slash_length),
		cmocka_unit_test(test_client_backoff),
		cmocka_unit_test(test_client_backoff_short),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
