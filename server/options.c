/*
 * options.c -- tttd's flags and environment variables, from one table.
 *
 * Every flag --some-name can also be given as TTTD_SOME_NAME in the
 * environment; a flag on the command line wins.  --help is generated from
 * the table, with each variable and the default actually in force.
 */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cluster.h"
#include "log.h"
#include "options.h"

enum options_kind {
	OPTIONS_NUMBER,		/* whole number within [min, max] */
	OPTIONS_SECONDS,	/* seconds, up to three decimals */
	OPTIONS_TEXT,		/* a string, kept as it is */
	OPTIONS_LEVEL,		/* a log level name */
	OPTIONS_SWITCH		/* on when given; 1 or 0 in the environment */
};

/* Options, in --help order; id is getopt's value for the flag. */
enum options_id {
	OPT_PORT = 'p',
	OPT_BIND = 'b',
	OPT_SEED = 's',
	OPT_MAX_CLIENTS = 'm',
	OPT_LOG_LEVEL = 256,
	OPT_MAX_PER_ADDR,
	OPT_MAX_OUTPUT,
	OPT_LINE_TIMEOUT,
	OPT_TURN_TIMEOUT,
	OPT_AGAIN_TIMEOUT,
	OPT_IDLE_TIMEOUT,
	OPT_RATE_LIMIT,
	OPT_RATE_BURST,
	OPT_ROOM_TTL,
	OPT_RESUME_GRACE,
	OPT_AI_OFFER,
	OPT_EARLY_DRAW,
	OPT_MAX_WATCHERS,
	OPT_HTTP_PORT,
	OPT_REDIS,
	OPT_NODE,
	OPT_REDIS_PREFIX,
	OPT_NODE_TIMEOUT,
	OPT_DB,
	OPT_PROXY_FROM
};

struct options_spec {
	enum options_id		 id;
	const char		*name;		/* --name, TTTD_NAME */
	const char		*arg;		/* its placeholder in --help */
	enum options_kind	 kind;
	unsigned long long	 min, max;	/* OPTIONS_NUMBER */
	const char		*help;
};

static const struct options_spec options_table[] = {
	{ OPT_PORT, "port", "N", OPTIONS_NUMBER, 0, 65535,
	    "TCP port; 0 picks a free one" },
	{ OPT_HTTP_PORT, "http-port", "N", OPTIONS_NUMBER, 0, 65535,
	    "HTTP port (the page, /ws, /healthz, /metrics); 0: off; any: a "
	    "free one" },
	{ OPT_BIND, "bind", "ADDR", OPTIONS_TEXT, 0, 0,
	    "address to listen on (\"\": every IPv4 and IPv6 one)" },
	{ OPT_SEED, "seed", "N", OPTIONS_NUMBER, 0, UINT64_MAX,
	    "seed of the random first move (reproducible games)" },
	{ OPT_LOG_LEVEL, "log-level", "LEVEL", OPTIONS_LEVEL, 0, 0,
	    "error, warn, info or debug" },
	{ OPT_MAX_CLIENTS, "max-clients", "N", OPTIONS_NUMBER, 1, 1000000,
	    "players connected at once" },
	{ OPT_MAX_PER_ADDR, "max-per-addr", "N", OPTIONS_NUMBER, 0, 1000000,
	    "players from one IPv4 address or IPv6 /64; 0: any" },
	{ OPT_MAX_OUTPUT, "max-output", "BYTES", OPTIONS_NUMBER, PROTO_OUT_MAX,
	    1ULL << 30, "unread output that drops a client" },
	{ OPT_LINE_TIMEOUT, "line-timeout", "SECS", OPTIONS_SECONDS, 0, 0,
	    "to finish a line once begun; 0: no limit" },
	{ OPT_TURN_TIMEOUT, "turn-timeout", "SECS", OPTIONS_SECONDS, 0, 0,
	    "to make a move; 0: no limit" },
	{ OPT_AGAIN_TIMEOUT, "again-timeout", "SECS", OPTIONS_SECONDS, 0, 0,
	    "to answer 'Play again?'; 0: no limit" },
	{ OPT_IDLE_TIMEOUT, "idle-timeout", "SECS", OPTIONS_SECONDS, 0, 0,
	    "in the queue without a word; 0: no limit" },
	{ OPT_RATE_LIMIT, "rate-limit", "N", OPTIONS_NUMBER, 0, 1000000,
	    "commands a second per connection; 0: no limit" },
	{ OPT_RATE_BURST, "rate-burst", "N", OPTIONS_NUMBER, 1, 1000000,
	    "... in bursts of up to N" },
	{ OPT_ROOM_TTL, "room-ttl", "SECS", OPTIONS_SECONDS, 0, 0,
	    "a private room closes after; 0: never" },
	{ OPT_RESUME_GRACE, "resume-grace", "SECS", OPTIONS_SECONDS, 0, 0,
	    "a lost player may RESUME within; 0: forfeit at once" },
	{ OPT_AI_OFFER, "ai-offer", "SECS", OPTIONS_SECONDS, 0, 0,
	    "alone in the queue: offer PLAY AI after; 0: never" },
	{ OPT_EARLY_DRAW, "early-draw", "", OPTIONS_SWITCH, 0, 1,
	    "end a game that only a tie can end as a tie" },
	{ OPT_MAX_WATCHERS, "max-watchers", "N", OPTIONS_NUMBER, 0, 1000000,
	    "watchers of one match; 0: any" },
	{ OPT_REDIS, "redis", "IP:PORT", OPTIONS_TEXT, 0, 0,
	    "join the cluster of the nodes sharing this Redis (\"\": "
	    "alone)" },
	{ OPT_NODE, "node", "NAME", OPTIONS_TEXT, 0, 0,
	    "this node's name in the cluster, unique among the live ones" },
	{ OPT_REDIS_PREFIX, "redis-prefix", "P", OPTIONS_TEXT, 0, 0,
	    "of the cluster's Redis keys and channels" },
	{ OPT_NODE_TIMEOUT, "node-timeout", "SECS", OPTIONS_SECONDS, 0, 0,
	    "a dead node's matches are taken up by the others within (2 to "
	    "60; the same on every node)" },
	{ OPT_DB, "db", "PATH", OPTIONS_TEXT, 0, 0,
	    "the accounts' SQLite database; none: no accounts" },
	{ OPT_PROXY_FROM, "proxy-from", "CIDR,...", OPTIONS_TEXT, 0, 0,
	    "balancers whose connections begin with a PROXY header (\"\": "
	    "none)" },
};
#define OPTIONS_COUNT	(sizeof options_table / sizeof options_table[0])

static const struct options_spec *options_find(int);
static int	options_number(const char *, unsigned long long,
		    unsigned long long, unsigned long long *);
static int	options_seconds(const char *, int64_t *);
static int	options_text(struct server_config *,
		    const struct options_spec *, const char *);
static int	options_set(struct server_config *,
		    const struct options_spec *, const char *);
static void	options_show(const struct server_config *,
		    const struct options_spec *, char *, size_t);
static void	options_env_name(const struct options_spec *, char *, size_t);
static int	options_from_env(struct server_config *,
		    const char *const *);
static void	options_usage(FILE *, const struct server_config *);

/* The built-in defaults. */
void
options_defaults(struct server_config *cfg)
{
	memset(cfg, 0, sizeof *cfg);
	cfg->port = 4000;
	cfg->http_port = SERVER_HTTP_PORT;
	cfg->redis_prefix = CLUSTER_PREFIX;
	cfg->node_timeout = CLUSTER_NODE_TIMEOUT_MS;
	cfg->db = SERVER_DB;
	cfg->max_clients = SERVER_MAX_CLIENTS;
	cfg->max_per_addr = SERVER_MAX_PER_ADDR;
	cfg->output_max = SERVER_OUTPUT_MAX;
	cfg->log_level = LOG_INFO;
	lobby_default_limits(&cfg->limits);
	cfg->seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	cfg->seed_given = 0;
}

/* The table entry of an option. */
static const struct options_spec *
options_find(int id)
{
	size_t	i;

	for (i = 0; i < OPTIONS_COUNT; i++) {
		if ((int)options_table[i].id == id)
			return (&options_table[i]);
	}
	return (NULL);
}

/* A whole decimal number in [min, max]; -1 if it is not one. */
static int
options_number(const char *s, unsigned long long min, unsigned long long max,
    unsigned long long *out)
{
	char			*end;
	unsigned long long	 v;

	if (*s < '0' || *s > '9')
		return (-1);
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0 || *end != '\0' || v < min || v > max)
		return (-1);
	*out = v;
	return (0);
}

/*
 * A duration in seconds with up to three decimals ("120", "0.5", ".5") as
 * ms; -1 if it is not one (or is over a year).
 */
static int
options_seconds(const char *s, int64_t *ms)
{
	unsigned long long	whole = 0;
	int64_t			frac = 0, scale = 100;
	char			buf[32];
	const char		*dot = strchr(s, '.');
	size_t			n = dot != NULL ? (size_t)(dot - s) : strlen(s);

	if (n >= sizeof buf || (n == 0 && dot == NULL))
		return (-1);
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (n > 0 && options_number(buf, 0, 366ULL * 24 * 3600, &whole) == -1)
		return (-1);
	if (dot != NULL) {
		for (s = dot + 1; *s != '\0'; s++, scale /= 10) {
			if (*s < '0' || *s > '9' || scale == 0)
				return (-1);
			frac += (*s - '0') * scale;
		}
		if (s == dot + 1)
			return (-1);
	}
	*ms = (int64_t)whole * 1000 + frac;
	return (0);
}

/* A text option: -1 if it is bad. */
static int
options_text(struct server_config *cfg, const struct options_spec *o,
    const char *arg)
{
	char	ip[64];
	int	port;

	switch (o->id) {
	case OPT_REDIS:
		if (arg[0] != '\0' && cluster_parse_addr(arg, ip, sizeof ip,
		    &port) == -1)
			return (-1);	/* a name would block the loop */
		cfg->redis = arg[0] != '\0' ? arg : NULL;
		return (0);
	case OPT_NODE:
		if (!cluster_valid_name(arg))
			return (-1);
		cfg->node = arg;
		return (0);
	case OPT_REDIS_PREFIX:
		if (!cluster_valid_prefix(arg))
			return (-1);
		cfg->redis_prefix = arg;
		return (0);
	case OPT_DB:
		if (arg[0] == '\0')
			return (-1);
		cfg->db = strcmp(arg, "none") == 0 ? NULL : arg;
		return (0);
	case OPT_PROXY_FROM:
		cfg->proxy_from = arg[0] != '\0' ? arg : NULL;
		return (0);	/* checked by server_init: exit status 1 */
	default:
		cfg->bind = arg[0] != '\0' ? arg : NULL;
		return (0);
	}
}

/* Set one option from its text; -1 if the text is bad. */
static int
options_set(struct server_config *cfg, const struct options_spec *o,
    const char *arg)
{
	struct lobby_limits	*l = &cfg->limits;
	unsigned long long	 v = 0;
	int64_t			 ms = 0;
	int			 level;

	if (o->id == OPT_HTTP_PORT && strcmp(arg, "any") == 0) {
		cfg->http_port = SERVER_HTTP_ANY;
		return (0);
	}
	switch (o->kind) {
	case OPTIONS_NUMBER:
	case OPTIONS_SWITCH:
		if (options_number(arg, o->min, o->max, &v) == -1)
			return (-1);
		break;
	case OPTIONS_SECONDS:
		if (options_seconds(arg, &ms) == -1)
			return (-1);
		break;
	case OPTIONS_LEVEL:
		if ((level = log_level_parse(arg)) == -1)
			return (-1);
		cfg->log_level = level;
		return (0);
	case OPTIONS_TEXT:
		return (options_text(cfg, o, arg));
	}
	switch (o->id) {
	case OPT_PORT:
		cfg->port = (int)v;
		break;
	case OPT_HTTP_PORT:
		cfg->http_port = (int)v;
		break;
	case OPT_SEED:
		cfg->seed = v;
		cfg->seed_given = 1;
		break;
	case OPT_MAX_CLIENTS:
		cfg->max_clients = (unsigned)v;
		break;
	case OPT_MAX_PER_ADDR:
		cfg->max_per_addr = (unsigned)v;
		break;
	case OPT_MAX_OUTPUT:
		cfg->output_max = (size_t)v;
		break;
	case OPT_RATE_LIMIT:
		l->rate = (unsigned)v;
		break;
	case OPT_RATE_BURST:
		l->burst = (unsigned)v;
		break;
	case OPT_LINE_TIMEOUT:
		l->line_ms = ms;
		break;
	case OPT_TURN_TIMEOUT:
		l->turn_ms = ms;
		break;
	case OPT_AGAIN_TIMEOUT:
		l->again_ms = ms;
		break;
	case OPT_IDLE_TIMEOUT:
		l->idle_ms = ms;
		break;
	case OPT_ROOM_TTL:
		l->room_ms = ms;
		break;
	case OPT_RESUME_GRACE:
		l->grace_ms = ms;
		break;
	case OPT_AI_OFFER:
		l->ai_offer_ms = ms;
		break;
	case OPT_EARLY_DRAW:
		l->early_draw = (int)v;
		break;
	case OPT_MAX_WATCHERS:
		l->max_watchers = (unsigned)v;
		break;
	case OPT_NODE_TIMEOUT:
		if (ms < 2000 || ms > 60000)
			return (-1);
		cfg->node_timeout = ms;
		break;
	default:
		break;
	}
	return (0);
}

/* An option's value in force, as --help shows it. */
static void
options_show(const struct server_config *cfg, const struct options_spec *o,
    char *buf, size_t size)
{
	const struct lobby_limits	*l = &cfg->limits;
	int64_t				 ms = -1;
	size_t				 n;

	switch (o->id) {
	case OPT_PORT:
		snprintf(buf, size, "%d", cfg->port);
		return;
	case OPT_HTTP_PORT:
		if (cfg->http_port == SERVER_HTTP_ANY)
			snprintf(buf, size, "any");
		else
			snprintf(buf, size, "%d", cfg->http_port);
		return;
	case OPT_BIND:
		snprintf(buf, size, "%s", cfg->bind != NULL ? cfg->bind :
		    "every address");
		return;
	case OPT_SEED:
		snprintf(buf, size, "%s", cfg->seed_given ? "given" :
		    "random");
		return;
	case OPT_LOG_LEVEL:
		snprintf(buf, size, "%s", log_level_name(cfg->log_level));
		return;
	case OPT_MAX_CLIENTS:
		snprintf(buf, size, "%u", cfg->max_clients);
		return;
	case OPT_MAX_PER_ADDR:
		snprintf(buf, size, "%u", cfg->max_per_addr);
		return;
	case OPT_MAX_OUTPUT:
		snprintf(buf, size, "%zu", cfg->output_max);
		return;
	case OPT_RATE_LIMIT:
		snprintf(buf, size, "%u", l->rate);
		return;
	case OPT_RATE_BURST:
		snprintf(buf, size, "%u", l->burst);
		return;
	case OPT_LINE_TIMEOUT:
		ms = l->line_ms;
		break;
	case OPT_TURN_TIMEOUT:
		ms = l->turn_ms;
		break;
	case OPT_AGAIN_TIMEOUT:
		ms = l->again_ms;
		break;
	case OPT_IDLE_TIMEOUT:
		ms = l->idle_ms;
		break;
	case OPT_ROOM_TTL:
		ms = l->room_ms;
		break;
	case OPT_RESUME_GRACE:
		ms = l->grace_ms;
		break;
	case OPT_NODE_TIMEOUT:
		ms = cfg->node_timeout;
		break;
	case OPT_AI_OFFER:
		ms = l->ai_offer_ms;
		break;
	case OPT_EARLY_DRAW:
		snprintf(buf, size, "%s", l->early_draw ? "1" : "0");
		return;
	case OPT_MAX_WATCHERS:
		snprintf(buf, size, "%u", l->max_watchers);
		return;
	case OPT_REDIS:
		snprintf(buf, size, "%s", cfg->redis != NULL ? cfg->redis :
		    "none: alone");
		return;
	case OPT_NODE:
		snprintf(buf, size, "%s", cfg->node != NULL ? cfg->node :
		    "HOSTNAME:PORT");
		return;
	case OPT_REDIS_PREFIX:
		snprintf(buf, size, "%s", cfg->redis_prefix);
		return;
	case OPT_DB:
		snprintf(buf, size, "%s", cfg->db != NULL ? cfg->db :
		    "none: no accounts");
		return;
	case OPT_PROXY_FROM:
		snprintf(buf, size, "%s", cfg->proxy_from != NULL ?
		    cfg->proxy_from : "none");
		return;
	}
	snprintf(buf, size, "%lld.%03lld", (long long)(ms / 1000),
	    (long long)(ms % 1000));
	buf[strcspn(buf, ".") + 4] = '\0';	/* in case it was cut */
	for (n = strlen(buf); buf[n - 1] == '0'; n--)
		buf[n - 1] = '\0';		/* "5.500" is "5.5" */
	if (buf[n - 1] == '.')
		buf[n - 1] = '\0';		/* "120." is "120" */
}

/* TTTD_ and the long name in upper case, '-' as '_'. */
static void
options_env_name(const struct options_spec *o, char *buf, size_t size)
{
	size_t	i, n = strlen(o->name);

	if (size < n + 6)
		return;
	memcpy(buf, "TTTD_", 5);
	for (i = 0; i < n; i++) {
		char	c = o->name[i];

		buf[5 + i] = c == '-' ? '_' :
		    (c >= 'a' && c <= 'z') ? (char)(c - 'a' + 'A') : c;
	}
	buf[5 + n] = '\0';
}

/*
 * Every TTTD_ variable set in the environment, but for the options given
 * as flags (those win, and a bad variable under them does no harm);
 * -1 after a bad one.
 */
static int
options_from_env(struct server_config *cfg, const char *const *given)
{
	char		 name[64];
	const char	*v;
	size_t		 i;

	for (i = 0; i < OPTIONS_COUNT; i++) {
		options_env_name(&options_table[i], name, sizeof name);
		if (given[i] != NULL || (v = getenv(name)) == NULL)
			continue;
		if (options_set(cfg, &options_table[i], v) == -1) {
			fprintf(stderr, "tttd: bad %s: %s\n", name, v);
			return (-1);
		}
	}
	return (0);
}

/*
 * --help: every option with its variable and its default, and the value
 * in force when the environment or an earlier flag changed it.
 */
static void
options_usage(FILE *f, const struct server_config *cfg)
{
	const struct options_spec	*o;
	struct server_config		 def;
	char				 flag[48], env[64], value[64], now[64];
	size_t				 i;

	options_defaults(&def);
	fprintf(f, "usage: tttd [options]\n");
	fprintf(f, "A networked two-player Tic Tac Toe server (protocol tttd/1).\n\n");
	fprintf(f, "Each option can also be set in the environment (flags win); SECS may have\n");
	fprintf(f, "decimals. In brackets: the variable, the default, the value now if not it.\n\n");
	for (i = 0; i < OPTIONS_COUNT; i++) {
		o = &options_table[i];
		if (o->id < 256)
			snprintf(flag, sizeof flag, "-%c, --%s %s", o->id,
			    o->name, o->arg);
		else
			snprintf(flag, sizeof flag, "    --%s %s", o->name,
			    o->arg);
		options_env_name(o, env, sizeof env);
		options_show(&def, o, value, sizeof value);
		options_show(cfg, o, now, sizeof now);
		fprintf(f, "  %-26s %s\n", flag, o->help);
		if (strcmp(value, now) == 0)
			fprintf(f, "  %-26s [%s, default %s]\n", "", env, value);
		else
			fprintf(f, "  %-26s [%s, default %s, now %s]\n", "", env,
			    value, now);
	}
	fprintf(f, "  -h, --help                 show this help\n");
	fprintf(f, "  -V, --version              show the version\n");
	fprintf(f, "\nLimits and what clients see when they trip: docs/operations.md, tttd(8).\n");
	fprintf(f, "Play with: ttt-client HOST PORT, or nc HOST PORT\n");
}

/* Defaults, then the environment, then the flags. */
enum options_result
options_parse(struct server_config *cfg, int argc, char **argv)
{
	struct option			 longopts[OPTIONS_COUNT + 3];
	const char			*given[OPTIONS_COUNT] = { NULL };
	const struct options_spec	*o;
	size_t				 i;
	int				 ch, help = 0, version = 0;

	options_defaults(cfg);
	for (i = 0; i < OPTIONS_COUNT; i++) {
		longopts[i].name = options_table[i].name;
		longopts[i].has_arg = options_table[i].kind == OPTIONS_SWITCH ?
		    no_argument : required_argument;
		longopts[i].flag = NULL;
		longopts[i].val = (int)options_table[i].id;
	}
	longopts[i++] = (struct option){ "help", no_argument, NULL, 'h' };
	longopts[i++] = (struct option){ "version", no_argument, NULL, 'V' };
	longopts[i] = (struct option){ NULL, 0, NULL, 0 };

	/* First which flags there are: they decide which variables count. */
	while ((ch = getopt_long(argc, argv, "p:b:s:m:hV", longopts,
	    NULL)) != -1) {
		if (ch == 'h')
			help = 1;
		else if (ch == 'V')
			version = 1;
		else if ((o = options_find(ch)) != NULL)
			given[o - options_table] = o->kind == OPTIONS_SWITCH ?
			    "1" : optarg;
		else {
			options_usage(stderr, cfg);
			return (OPTIONS_ERROR);
		}
	}
	if (optind != argc) {
		fprintf(stderr, "tttd: unexpected argument: %s\n",
		    argv[optind]);
		return (OPTIONS_ERROR);
	}
	if (options_from_env(cfg, given) == -1 && !help)
		return (OPTIONS_ERROR);
	for (i = 0; i < OPTIONS_COUNT; i++) {
		o = &options_table[i];
		if (given[i] != NULL && options_set(cfg, o, given[i]) == -1) {
			fprintf(stderr, "tttd: bad --%s: %s\n", o->name,
			    given[i]);
			return (OPTIONS_ERROR);
		}
	}
	if (help) {
		options_usage(stdout, cfg);
		return (OPTIONS_EXIT);
	}
	if (version) {
		printf("tttd %s (protocol tttd/1)\n", TTTD_VERSION);
		return (OPTIONS_EXIT);
	}
	return (OPTIONS_RUN);
}
