/*
 * log.c -- timestamped log lines on stderr, filtered by level.
 *
 * One line per event: ISO-8601 UTC time, level, message.  stderr is what
 * journald and docker collect, so there is no log file and no syslog.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log.h"

static const char *log_names[] = {
	[LOG_ERROR] = "error",
	[LOG_WARN] = "warn",
	[LOG_INFO] = "info",
	[LOG_DEBUG] = "debug",
};

/* The one piece of global state: set once, from the command line. */
static enum log_level	log_level = LOG_INFO;

static void	log_vwrite(enum log_level, const char *, va_list);

/* A level's number from its name ("warn"), or -1. */
int
log_level_parse(const char *name)
{
	size_t	i;

	for (i = 0; i < sizeof log_names / sizeof log_names[0]; i++) {
		if (strcmp(name, log_names[i]) == 0)
			return ((int)i);
	}
	return (-1);
}

/* A level's name. */
const char *
log_level_name(enum log_level level)
{
	return (log_names[level]);
}

/* Log this level and the ones above it from now on. */
void
log_set_level(enum log_level level)
{
	log_level = level;
}

/* Are debug lines written?  For callers that prepare costly arguments. */
int
log_debugging(void)
{
	return (log_level >= LOG_DEBUG);
}

/*
 * Write one line, if the level is wanted: formatted whole, then one
 * write(2) (stderr is unbuffered: fprintf would make one per piece).
 */
static void
log_vwrite(enum log_level level, const char *fmt, va_list ap)
{
	struct timespec	ts;
	struct tm	tm;
	char		line[1024];
	int		n, m;

	if (level > log_level)
		return;
	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	n = (int)strftime(line, sizeof line, "%Y-%m-%dT%H:%M:%S", &tm);
	n += snprintf(line + n, sizeof line - (size_t)n, ".%03ldZ %s ",
	    ts.tv_nsec / 1000000L, log_names[level]);
	m = vsnprintf(line + n, sizeof line - (size_t)n - 1, fmt, ap);
	if (m < 0)
		m = 0;
	n += m;
	if (n > (int)sizeof line - 2)
		n = (int)sizeof line - 2;	/* cut: still one line */
	line[n++] = '\n';
	fwrite(line, 1, (size_t)n, stderr);
}

void
log_error(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	log_vwrite(LOG_ERROR, fmt, ap);
	va_end(ap);
}

void
log_warn(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	log_vwrite(LOG_WARN, fmt, ap);
	va_end(ap);
}

void
log_info(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	log_vwrite(LOG_INFO, fmt, ap);
	va_end(ap);
}

void
log_debug(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	log_vwrite(LOG_DEBUG, fmt, ap);
	va_end(ap);
}

/* Log and exit: for start-up failures and impossible states only. */
void
fatalx(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	log_vwrite(LOG_ERROR, fmt, ap);
	va_end(ap);
	exit(1);
}
