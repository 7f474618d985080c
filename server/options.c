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
	OPTIONS_SECONDS,	/* seconds, up to three decimals, as ms */
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
	size_t			 off, size;	/* its field in server_config */
	unsigned long long	 min, max;	/* seconds: in ms; 0, 0: any */
	const char		*help;
	const struct options_text *text; /* OPTIONS_TEXT */
};

struct options_text {
	const char	*off;		/* what means NULL */
	const char	*unset;		/* what --help shows for NULL */
	int		(*valid)(const char *);	/* NULL: anything */
};

/* An option's field in struct server_config: where, and how wide. */
#define OPTIONS_AT(f)	offsetof(struct server_config, f),		\
			sizeof ((struct server_config *)NULL)->f

static int	options_redis_valid(const char *);
static int	options_not_empty(const char *);

static const struct options_text options_bind = { "", "every address", NULL };
static const struct options_text options_redis = { "", "none: alone",
    options_redis_valid };
static const struct options_text options_node = { NULL, "HOSTNAME:PORT",
    cluster_valid_name };
static const struct options_text options_prefix = { NULL, NULL,
    cluster_valid_prefix };
static const struct options_text options_db = { "none", "none: no accounts",
    options_not_empty };
/* The list is checked by server_init, which exits 1 with the reason. */
static const struct options_text options_proxy_from = { "", "none", NULL };

static const struct options_spec options_table[] = {
	{ OPT_PORT, "port", "N", OPTIONS_NUMBER, OPTIONS_AT(port), 0, 65535,
	    "TCP port; 0 picks a free one", NULL },
	{ OPT_HTTP_PORT, "http-port", "N", OPTIONS_NUMBER,
	    OPTIONS_AT(http_port), 0, 65535,
	    "HTTP port (the page, /ws, /healthz, /metrics); 0: off; any: a "
	    "free one", NULL },
	{ OPT_BIND, "bind", "ADDR", OPTIONS_TEXT, OPTIONS_AT(bind), 0, 0,
	    "address to listen on (\"\": every IPv4 and IPv6 one)",
	    &options_bind },
	{ OPT_SEED, "seed", "N", OPTIONS_NUMBER, OPTIONS_AT(seed), 0,
	    UINT64_MAX, "seed of the random first move (reproducible games)",
	    NULL },
	{ OPT_LOG_LEVEL, "log-level", "LEVEL", OPTIONS_LEVEL,
	    OPTIONS_AT(log_level), 0, 0, "error, warn, info or debug", NULL },
	{ OPT_MAX_CLIENTS, "max-clients", "N", OPTIONS_NUMBER,
	    OPTIONS_AT(max_clients), 1, 1000000, "players connected at once",
	    NULL },
	{ OPT_MAX_PER_ADDR, "max-per-addr", "N", OPTIONS_NUMBER,
	    OPTIONS_AT(max_per_addr), 0, 1000000,
	    "players from one IPv4 address or IPv6 /64; 0: any", NULL },
	{ OPT_MAX_OUTPUT, "max-output", "BYTES", OPTIONS_NUMBER,
	    OPTIONS_AT(output_max), PROTO_OUT_MAX, 1ULL << 30,
	    "unread output that drops a client", NULL },
	{ OPT_LINE_TIMEOUT, "line-timeout", "SECS", OPTIONS_SECONDS,
	    OPTIONS_AT(limits.line_ms), 0, 0,
	    "to finish a line once begun; 0: no limit", NULL },
	{ OPT_TURN_TIMEOUT, "turn-timeout", "SECS", OPTIONS_SECONDS,
	    OPTIONS_AT(limits.turn_ms), 0, 0, "to make a move; 0: no limit",
	    NULL },
	{ OPT_AGAIN_TIMEOUT, "again-timeout", "SECS", OPTIONS_SECONDS,
	    OPTIONS_AT(limits.again_ms), 0, 0,
	    "to answer 'Play again?'; 0: no limit", NULL },
	{ OPT_IDLE_TIMEOUT, "idle-timeout", "SECS", OPTIONS_SECONDS,
	    OPTIONS_AT(limits.idle_ms), 0, 0,
	    "in the queue without a word; 0: no limit", NULL },
	{ OPT_RATE_LIMIT, "rate-limit", "N", OPTIONS_NUMBER,
	    OPTIONS_AT(limits.rate), 0, 1000000,
	    "commands a second per connection; 0: no limit", NULL },
	{ OPT_RATE_BURST, "rate-burst", "N", OPTIONS_NUMBER,
	    OPTIONS_AT(limits.burst), 1, 1000000, "... in bursts of up to N",
	    NULL },
	{ OPT_ROOM_TTL, "room-ttl", "SECS", OPTIONS_SECONDS,
	    OPTIONS_AT(limits.room_ms), 0, 0,
	    "a private room closes after; 0: never", NULL },
	{ OPT_RESUME_GRACE, "resume-grace", "SECS", OPTIONS_SECONDS,
	    OPTIONS_AT(limits.grace_ms), 0, 0,
	    "a lost player may RESUME within; 0: forfeit at once", NULL },
	{ OPT_AI_OFFER, "ai-offer", "SECS", OPTIONS_SECONDS,
	    OPTIONS_AT(limits.ai_offer_ms), 0, 0,
	    "alone in the queue: offer PLAY AI after; 0: never", NULL },
	{ OPT_EARLY_DRAW, "early-draw", "", OPTIONS_SWITCH,
	    OPTIONS_AT(limits.early_draw), 0, 1,
	    "end a game that only a tie can end as a tie", NULL },
	{ OPT_MAX_WATCHERS, "max-watchers", "N", OPTIONS_NUMBER,
	    OPTIONS_AT(limits.max_watchers), 0, 1000000,
	    "watchers of one match; 0: any", NULL },
	{ OPT_REDIS, "redis", "IP:PORT", OPTIONS_TEXT, OPTIONS_AT(redis), 0, 0,
	    "join the cluster of the nodes sharing this Redis (\"\": "
	    "alone)", &options_redis },
	{ OPT_NODE, "node", "NAME", OPTIONS_TEXT, OPTIONS_AT(node), 0, 0,
	    "this node's name in the cluster, unique among the live ones",
	    &options_node },
	{ OPT_REDIS_PREFIX, "redis-prefix", "P", OPTIONS_TEXT,
	    OPTIONS_AT(redis_prefix), 0, 0,
	    "of the cluster's Redis keys and channels", &options_prefix },
	{ OPT_NODE_TIMEOUT, "node-timeout", "SECS", OPTIONS_SECONDS,
	    OPTIONS_AT(node_timeout), 2000, 60000,
	    "a dead node's matches are taken up by the others within (2 to "
	    "60; the same on every node)", NULL },
	{ OPT_DB, "db", "PATH", OPTIONS_TEXT, OPTIONS_AT(db), 0, 0,
	    "the accounts' SQLite database; none: no accounts", &options_db },
	{ OPT_PROXY_FROM, "proxy-from", "CIDR,...", OPTIONS_TEXT,
	    OPTIONS_AT(proxy_from), 0, 0, "balancers whose connections begin "
	    "with a PROXY header (\"\": none)", &options_proxy_from },
};
#define OPTIONS_COUNT	(sizeof options_table / sizeof options_table[0])

static const struct options_spec *options_find(int);
static int	options_number(const char *, unsigned long long,
		    unsigned long long, unsigned long long *);
static int	options_seconds(const char *, int64_t *);
static void	options_store(struct server_config *,
		    const struct options_spec *, unsigned long long);
static unsigned long long options_load(const struct server_config *,
		    const struct options_spec *);
static int	options_set(struct server_config *,
		    const struct options_spec *, const char *);
static void	options_show(const struct server_config *,
		    const struct options_spec *, char *, size_t);
static void	options_show_ms(int64_t, char *, size_t);
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

/* A Redis address as IP:PORT, or "" for none (a name would block). */
static int
options_redis_valid(const char *s)
{
	char	ip[64];
	int	port;

	return (s[0] == '\0' || cluster_parse_addr(s, ip, sizeof ip,
	    &port) == 0);
}

/* Anything but "". */
static int
options_not_empty(const char *s)
{
	return (s[0] != '\0');
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

/* Store a whole number in an option's field, as wide as the field is. */
static void
options_store(struct server_config *cfg, const struct options_spec *o,
    unsigned long long v)
{
	char		*p = (char *)cfg + o->off;
	uint32_t	 v32 = (uint32_t)v;
	uint64_t	 v64 = v;

	if (o->size == sizeof v32)
		memcpy(p, &v32, sizeof v32);
	else
		memcpy(p, &v64, sizeof v64);
}

/* An option's field as a whole number (ms for seconds). */
static unsigned long long
options_load(const struct server_config *cfg, const struct options_spec *o)
{
	const char	*p = (const char *)cfg + o->off;
	uint32_t	 v32;
	uint64_t	 v64;

	if (o->size == sizeof v32) {
		memcpy(&v32, p, sizeof v32);
		return (v32);
	}
	memcpy(&v64, p, sizeof v64);
	return (v64);
}

/* Set one option from its text; -1 if the text is bad. */
static int
options_set(struct server_config *cfg, const struct options_spec *o,
    const char *arg)
{
	unsigned long long	 v = 0;
	int64_t			 ms = 0;
	int			 level;
	const char		*text;

	if (o->id == OPT_HTTP_PORT && strcmp(arg, "any") == 0) {
		cfg->http_port = SERVER_HTTP_ANY;
		return (0);
	}
	switch (o->kind) {
	case OPTIONS_NUMBER:
	case OPTIONS_SWITCH:
		if (options_number(arg, o->min, o->max, &v) == -1)
			return (-1);
		if (o->id == OPT_SEED)
			cfg->seed_given = 1;
		break;
	case OPTIONS_SECONDS:
		if (options_seconds(arg, &ms) == -1 || (o->max != 0 &&
		    (ms < (int64_t)o->min || ms > (int64_t)o->max)))
			return (-1);
		v = (unsigned long long)ms;
		break;
	case OPTIONS_LEVEL:
		if ((level = log_level_parse(arg)) == -1)
			return (-1);
		v = (unsigned long long)level;
		break;
	case OPTIONS_TEXT:
		if (o->text->valid != NULL && !o->text->valid(arg))
			return (-1);
		text = o->text->off != NULL && strcmp(arg, o->text->off) == 0 ?
		    NULL : arg;
		memcpy((char *)cfg + o->off, &text, sizeof text);
		return (0);
	}
	options_store(cfg, o, v);
	return (0);
}

/* An option's value in force, as --help shows it. */
static void
options_show(const struct server_config *cfg, const struct options_spec *o,
    char *buf, size_t size)
{
	unsigned long long	 v = options_load(cfg, o);
	const char		*text;

	if (o->id == OPT_SEED)
		snprintf(buf, size, "%s", cfg->seed_given ? "given" : "random");
	else if (o->id == OPT_HTTP_PORT && cfg->http_port == SERVER_HTTP_ANY)
		snprintf(buf, size, "any");
	else if (o->kind == OPTIONS_SECONDS)
		options_show_ms((int64_t)v, buf, size);
	else if (o->kind == OPTIONS_LEVEL)
		snprintf(buf, size, "%s", log_level_name((int)v));
	else if (o->kind != OPTIONS_TEXT)
		snprintf(buf, size, "%llu", v);
	else {
		memcpy(&text, (const char *)cfg + o->off, sizeof text);
		snprintf(buf, size, "%s", text != NULL ? text : o->text->unset);
	}
}

/* Milliseconds as seconds with no trailing zeros: "5.5", "120". */
static void
options_show_ms(int64_t ms, char *buf, size_t size)
{
	size_t	n;

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
