/*
 * log.c -- timestamped log lines on stderr.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "log.h"

enum log_level {
	LOG_ERROR = 0,
	LOG_WARN,
	LOG_INFO
};

static const char *log_names[] = {
	[LOG_ERROR] = "error",
	[LOG_WARN] = "warn",
	[LOG_INFO] = "info",
};

static void	log_vwrite(enum log_level, const char *, va_list);

/* Write one line: ISO-8601 UTC time, level, message. */
static void
log_vwrite(enum log_level level, const char *fmt, va_list ap)
{
	struct timespec	ts;
	struct tm	tm;
	char		when[32];

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%S", &tm);
	fprintf(stderr, "%s.%03ldZ %s ", when, ts.tv_nsec / 1000000L,
	    log_names[level]);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
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
