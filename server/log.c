/*
 * log.c -- timestamped log lines on stderr, filtered by level.
 *
 * One line per event: ISO-8601 UTC time, level, message.  stderr is what
 * journald and docker collect, so there is no log file and no syslog.
 *
 * The log never stops the server: a line that stderr cannot take at once
 * (a pipe nobody reads, a stalled collector) is dropped and counted, and
 * the count is written first as soon as stderr takes lines again.  Clients
 * cause log lines, so a blocking write would let them freeze every match.
 */
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "log.h"

static const char *log_names[] = {
	[LOG_ERROR] = "error",
	[LOG_WARN] = "warn",
	[LOG_INFO] = "info",
	[LOG_DEBUG] = "debug",
};

/* The global state: the level, set once; the lines stderr refused. */
static enum log_level	log_level = LOG_INFO;
static unsigned long	log_dropped;

static void	log_vwrite(enum log_level, const char *, va_list);
static int	log_put(enum log_level, const char *, ...)
		    __attribute__((format(printf, 2, 3)));
static int	log_vput(enum log_level, const char *, va_list);

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
 * Write one line, if the level is wanted, and if lines were dropped, say
 * how many first.
 */
static void
log_vwrite(enum log_level level, const char *fmt, va_list ap)
{
	struct pollfd	pfd = { .fd = STDERR_FILENO, .events = POLLOUT };

	if (level > log_level)
		return;
	/* Room for a line (a pipe has PIPE_BUF bytes free), or drop it. */
	if (poll(&pfd, 1, 0) != 1 || !(pfd.revents & POLLOUT)) {
		log_dropped++;
		return;
	}
	if (log_dropped != 0 && (LOG_WARN > log_level || log_put(LOG_WARN,
	    "%lu log lines dropped: stderr was full", log_dropped) == 0))
		log_dropped = 0;
	if (log_vput(level, fmt, ap) == -1)
		log_dropped++;
}

/* log_vput with its arguments. */
static int
log_put(enum log_level level, const char *fmt, ...)
{
	va_list	ap;
	int	rc;

	va_start(ap, fmt);
	rc = log_vput(level, fmt, ap);
	va_end(ap);
	return (rc);
}

/*
 * Format one line whole, then one write(2) (stderr is unbuffered: fprintf
 * would make one per piece); 0, or -1 if it was not written.
 */
static int
log_vput(enum log_level level, const char *fmt, va_list ap)
{
	static time_t	second = (time_t)-1;	/* of the date cached */
	static char	date[32];
	static int	datelen;
	struct timespec	ts;
	struct tm	tm;
	char		line[1024];
	int		n, m;

	clock_gettime(CLOCK_REALTIME, &ts);
	if (ts.tv_sec != second) {	/* the date is formatted once a second */
		gmtime_r(&ts.tv_sec, &tm);
		datelen = (int)strftime(date, sizeof date,
		    "%Y-%m-%dT%H:%M:%S", &tm);
		second = ts.tv_sec;
	}
	memcpy(line, date, (size_t)datelen);
	n = datelen;
	n += snprintf(line + n, sizeof line - (size_t)n, ".%03ldZ %s ",
	    ts.tv_nsec / 1000000L, log_names[level]);
	m = vsnprintf(line + n, sizeof line - (size_t)n - 1, fmt, ap);
	if (m < 0)
		m = 0;
	n += m;
	if (n > (int)sizeof line - 2)
		n = (int)sizeof line - 2;	/* cut: still one line */
	line[n++] = '\n';
	return (write(STDERR_FILENO, line, (size_t)n) == n ? 0 : -1);
}

/* Log one line at a level (log_error, log_warn, log_info, log_debug). */
void
log_at(enum log_level level, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	log_vwrite(level, fmt, ap);
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
