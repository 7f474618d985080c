/*
 * args.c -- ttt-client's command line, read into struct client_opts with
 * every value checked, and the command that starts the chosen mode.  The
 * caller prints: a failure comes back as a reason without the program's
 * name.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"

/* The options that choose a mode, and the mode each chooses. */
static const struct {
	const char	*opt;
	enum client_mode mode;
	int		 value;		/* 1: a value, 2: an optional one */
} args_modes[] = {
	{ "--room",	CLIENT_MODE_ROOM,	0 },
	{ "--join",	CLIENT_MODE_JOIN,	1 },
	{ "--ai",	CLIENT_MODE_AI,		2 },
	{ "--watch",	CLIENT_MODE_WATCH,	1 },
	{ "--games",	CLIENT_MODE_GAMES,	0 },
	{ "--resume",	CLIENT_MODE_RESUME,	1 },
	{ "--ping",	CLIENT_MODE_PING,	0 },
	{ "--healthz",	CLIENT_MODE_HEALTHZ,	0 },
};

static int	args_value(int, char **, int *, const char *, const char **,
		    char *, size_t);
static int	args_port(const char *);
static int	args_code(const char *, char *);
static int	args_digits(const char *, size_t);
static int	args_level(const char *, char *, size_t);
static int	args_mode(int, char **, int *, struct client_opts *,
		    const char **, const char **, char *, size_t);
static void	args_missing(const struct client_opts *, int, char *,
		    size_t);
static int	args_account(const char *, struct client_opts *, char *,
		    size_t);
static enum args_action args_check(struct client_opts *, const char *,
		    const char *, const char *, char *, size_t);

/*
 * Is argv[*i] the option, as "--opt VALUE" or "--opt=VALUE"?  1 with the
 * value (and *i past it), 0 if it is another argument, -1 if the value is
 * missing.
 */
static int
args_value(int argc, char **argv, int *i, const char *opt,
    const char **value, char *why, size_t whysize)
{
	size_t	len = strlen(opt);

	if (strncmp(argv[*i], opt, len) != 0)
		return (0);
	if (argv[*i][len] == '=') {
		*value = argv[*i] + len + 1;
		return (1);
	}
	if (argv[*i][len] != '\0')
		return (0);
	if (*i + 1 == argc) {
		snprintf(why, whysize, "%s needs a value", opt);
		return (-1);
	}
	*value = argv[++*i];
	return (1);
}

/* Is this a port number, 1 to 65535? */
static int
args_port(const char *s)
{
	char	*end;
	long	 n;

	if (*s < '0' || *s > '9')
		return (0);
	n = strtol(s, &end, 10);
	return (*end == '\0' && n >= 1 && n <= 65535);
}

/*
 * Copy a room code or a resume token (8 characters of the codes'
 * alphabet, any case, with or without the dash after the fourth) to out
 * (PROTO_CODE_LEN + 2 bytes at least) as the server shows it: upper
 * case, with its dash.  1 if it has that shape.
 */
static int
args_code(const char *s, char *out)
{
	char	code[PROTO_CODE_LEN + 1];

	if (!proto_code_valid(s, strlen(s), PROTO_CODE_LEN, code))
		return (0);
	proto_fmt_code(out, code);
	return (1);
}

/* Is this 1 to max decimal digits? */
static int
args_digits(const char *s, size_t max)
{
	size_t	len = strlen(s);

	return (len >= 1 && len <= max && strspn(s, "0123456789") == len);
}

/* Copy the computer's level in lower case: 1 if it is easy or perfect. */
static int
args_level(const char *s, char *out, size_t size)
{
	static const char *const	levels[] = { "easy", "perfect" };
	size_t				i;

	for (i = 0; i < sizeof levels / sizeof levels[0]; i++) {
		if (keys_word(s, strlen(s), levels[i])) {
			snprintf(out, size, "%s", levels[i]);
			return (1);
		}
	}
	return (0);
}

/*
 * Is argv[*i] an option that chooses a mode?  1 if it is (the mode set,
 * its raw value in *value, *i past it), 0 if not, -1 with why if its value
 * is missing or another mode was chosen already.
 */
static int
args_mode(int argc, char **argv, int *i, struct client_opts *opts,
    const char **modeopt, const char **value, char *why, size_t whysize)
{
	size_t	k, len;
	int	r;
	char	level[ARGS_ARG_MAX];

	for (k = 0; k < sizeof args_modes / sizeof args_modes[0]; k++) {
		len = strlen(args_modes[k].opt);
		if (strncmp(argv[*i], args_modes[k].opt, len) != 0 ||
		    (argv[*i][len] != '\0' && (argv[*i][len] != '=' ||
		    args_modes[k].value == 0)))
			continue;
		if (*modeopt != NULL && strcmp(*modeopt, args_modes[k].opt)) {
			snprintf(why, whysize, "%s and %s cannot be used "
			    "together", *modeopt, args_modes[k].opt);
			return (-1);
		}
		*modeopt = args_modes[k].opt;
		opts->mode = args_modes[k].mode;
		*value = NULL;
		if (args_modes[k].value == 1) {
			r = args_value(argc, argv, i, args_modes[k].opt, value,
			    why, whysize);
			return (r == 1 ? 1 : -1);
		}
		if (argv[*i][len] == '=')
			*value = argv[*i] + len + 1;
		else if (args_modes[k].value == 2 && *i + 1 < argc &&
		    args_level(argv[*i + 1], level, sizeof level))
			*value = argv[++*i];	/* --ai LEVEL */
		return (1);
	}
	return (0);
}

/*
 * Say which of HOST and PORT (HTTP-PORT for --healthz) are missing, given
 * how many of them there are.
 */
static void
args_missing(const struct client_opts *opts, int nargs, char *why,
    size_t whysize)
{
	const char	*port = "PORT";

	if (opts->mode == CLIENT_MODE_HEALTHZ)
		port = "HTTP-PORT";
	if (nargs == 0)
		snprintf(why, whysize, "missing HOST and %s", port);
	else
		snprintf(why, whysize, "missing %s", port);
}

/*
 * Is this --register or --guest?  1 if it is (noted in opts), 0 if not,
 * -1 with why if the other one was given too.
 */
static int
args_account(const char *arg, struct client_opts *opts, char *why,
    size_t whysize)
{
	enum args_account	want;

	if (strcmp(arg, "--register") == 0)
		want = ARGS_ACCOUNT_REGISTER;
	else if (strcmp(arg, "--guest") == 0)
		want = ARGS_ACCOUNT_GUEST;
	else
		return (0);
	if (opts->account != ARGS_ACCOUNT_AUTO && opts->account != want) {
		snprintf(why, whysize, "--register and --guest cannot be used together");
		return (-1);
	}
	opts->account = want;
	return (1);
}

/* Check the values once all are read, in the order of the command line. */
static enum args_action
args_check(struct client_opts *opts, const char *value, const char *keys,
    const char *grace, char *why, size_t whysize)
{
	if (!args_port(opts->port)) {
		snprintf(why, whysize, "bad port %s: a number from 1 to 65535 is needed",
		    opts->port);
		return (ARGS_ERROR);
	}
	if (opts->name != NULL &&
	    !proto_name_valid(opts->name, strlen(opts->name))) {
		snprintf(why, whysize, "bad name %s: a name is 1 to 16 letters, digits, '_' or '-'",
		    opts->name);
		return (ARGS_ERROR);
	}
	if (keys != NULL && keys_style_parse(keys, &opts->keys) == -1) {
		snprintf(why, whysize, "bad input style %s: use cells, keypad or digits",
		    keys);
		return (ARGS_ERROR);
	}
	if (opts->cafile != NULL && !opts->tls) {
		snprintf(why, whysize, "--cafile %s without --tls: it names the authorities --tls trusts",
		    opts->cafile);
		return (ARGS_ERROR);
	}
	if (grace != NULL) {
		if (!args_digits(grace, 4) || atoi(grace) > ARGS_GRACE_MAX) {
			snprintf(why, whysize, "bad time %s: --grace takes 0 to %d seconds",
			    grace, ARGS_GRACE_MAX);
			return (ARGS_ERROR);
		}
		opts->grace = atoi(grace);
		if (opts->grace == 0)
			opts->reconnect = 0;
	}
	/* Those modes choose no name to register. */
	if (opts->account == ARGS_ACCOUNT_REGISTER &&
	    (opts->mode == CLIENT_MODE_GAMES ||
	    opts->mode == CLIENT_MODE_RESUME || opts->mode == CLIENT_MODE_PING ||
	    opts->mode == CLIENT_MODE_HEALTHZ)) {
		snprintf(why, whysize, "--register cannot be used with --games, --resume, --ping or --healthz");
		return (ARGS_ERROR);
	}
	switch (opts->mode) {
	case CLIENT_MODE_JOIN:
		if (args_code(value, opts->arg))
			break;
		snprintf(why, whysize, "bad room code %s: a room code is 8 letters and digits, such as K7QX-2M9P",
		    value);
		return (ARGS_ERROR);
	case CLIENT_MODE_RESUME:
		if (args_code(value, opts->arg))
			break;
		snprintf(why, whysize, "bad resume code %s: a resume code is 8 letters and digits, such as K7QX-2M9P",
		    value);
		return (ARGS_ERROR);
	case CLIENT_MODE_WATCH:
		if (args_digits(value, 20)) {
			snprintf(opts->arg, sizeof opts->arg, "%s", value);
			break;
		}
		snprintf(why, whysize, "bad game number %s: use a number from the list of --games",
		    value);
		return (ARGS_ERROR);
	case CLIENT_MODE_AI:
		if (value == NULL ||
		    args_level(value, opts->arg, sizeof opts->arg))
			break;
		snprintf(why, whysize, "bad level %s: use easy or perfect",
		    value);
		return (ARGS_ERROR);
	default:
		break;
	}
	return (ARGS_RUN);
}

/*
 * Read the command line into opts (host, port and every option).  Returns
 * what to do; for ARGS_ERROR and ARGS_USAGE why holds the reason.  colour
 * is left for the caller to decide.
 */
enum args_action
args_parse(int argc, char **argv, struct client_opts *opts, char *why,
    size_t whysize)
{
	const char	*args[3], *keys = NULL, *grace = NULL;
	const char	*modeopt = NULL, *value = NULL;
	int		 i, r, nargs = 0, opts_on = 1, at[3], ai_next = -1;

	memset(opts, 0, sizeof *opts);
	opts->keys = KEYS_CELLS;
	opts->mode = CLIENT_MODE_QUEUE;
	opts->reconnect = 1;
	opts->grace = ARGS_GRACE;
	if (whysize > 0)
		why[0] = '\0';
	for (i = 1; i < argc; i++) {
		r = 0;
		if (opts_on && strcmp(argv[i], "--") == 0)
			opts_on = 0;
		else if (opts_on && (strcmp(argv[i], "--help") == 0 ||
		    strcmp(argv[i], "-h") == 0))
			return (ARGS_HELP);
		else if (opts_on && (strcmp(argv[i], "--version") == 0 ||
		    strcmp(argv[i], "-V") == 0))
			return (ARGS_VERSION);
		else if (opts_on && strcmp(argv[i], "--no-reconnect") == 0)
			opts->reconnect = 0;
		else if (opts_on &&
		    (r = args_account(argv[i], opts, why, whysize)) != 0) {
			if (r == -1)
				return (ARGS_ERROR);
		} else if (opts_on && strcmp(argv[i], "--tls") == 0)
			opts->tls = 1;
		else if (opts_on && ((r = args_mode(argc, argv, &i, opts,
		    &modeopt, &value, why, whysize)) != 0 ||
		    (r = args_value(argc, argv, &i, "--name", &opts->name,
		    why, whysize)) != 0 ||
		    (r = args_value(argc, argv, &i, "--keys", &keys, why,
		    whysize)) != 0 ||
		    (r = args_value(argc, argv, &i, "--grace", &grace, why,
		    whysize)) != 0 ||
		    (r = args_value(argc, argv, &i, "--cafile", &opts->cafile,
		    why, whysize)) != 0)) {
			if (r == -1)
				return (ARGS_ERROR);
			if (opts->mode == CLIENT_MODE_AI && value == NULL)
				ai_next = i + 1;	/* a word, or a level */
		} else if (opts_on && argv[i][0] == '-' && argv[i][1] != '\0') {
			snprintf(why, whysize, "unknown option %s", argv[i]);
			return (ARGS_USAGE);
		} else if (nargs < 3) {
			at[nargs] = i;
			args[nargs++] = argv[i];
		} else {
			snprintf(why, whysize, "unexpected argument %s",
			    argv[i]);
			return (ARGS_USAGE);
		}
	}
	/* A third word right after --ai is a level that is not one. */
	for (i = 0; nargs == 3 && i < 3; i++) {
		if (at[i] == ai_next) {
			snprintf(why, whysize, "bad level %s: use easy or perfect",
			    args[i]);
			return (ARGS_ERROR);
		}
	}
	if (nargs == 3) {
		snprintf(why, whysize, "unexpected argument %s", args[2]);
		return (ARGS_USAGE);
	}
	if (nargs != 2) {
		args_missing(opts, nargs, why, whysize);
		return (ARGS_USAGE);
	}
	opts->host = args[0];
	opts->port = args[1];
	return (args_check(opts, value, keys, grace, why, whysize));
}

/*
 * The line (without its newline) that starts the mode, and the verb of the
 * reply it gets; PROTO_NONE and "" for the public queue, which every
 * connection joins by itself.
 */
enum proto_verb
args_command(const struct client_opts *opts, char *buf, size_t size)
{
	static const struct {
		enum client_mode	 mode;
		enum proto_verb		 verb;
		const char		*words;
		int			 witharg;
	} cmds[] = {
		{ CLIENT_MODE_ROOM,	PROTO_ROOM,	"ROOM NEW",	0 },
		{ CLIENT_MODE_JOIN,	PROTO_ROOM,	"ROOM JOIN",	1 },
		{ CLIENT_MODE_AI,	PROTO_PLAY,	"PLAY AI",	1 },
		{ CLIENT_MODE_WATCH,	PROTO_WATCH,	"WATCH",	1 },
		{ CLIENT_MODE_GAMES,	PROTO_GAMES,	"GAMES",	0 },
		{ CLIENT_MODE_RESUME,	PROTO_RESUME,	"RESUME",	1 },
		{ CLIENT_MODE_PING,	PROTO_PING,	"PING",		0 },
	};
	size_t	i;
	int	arg;

	if (size > 0)
		buf[0] = '\0';
	for (i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
		if (cmds[i].mode != opts->mode)
			continue;
		/* PLAY AI without a level leaves it to the server. */
		arg = cmds[i].witharg && opts->arg[0] != '\0';
		snprintf(buf, size, "%s%s%s", cmds[i].words, arg ? " " : "",
		    arg ? opts->arg : "");
		return (cmds[i].verb);
	}
	return (PROTO_NONE);
}
