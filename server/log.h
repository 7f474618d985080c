/*
 * log.h -- one line per event on stderr, with a UTC timestamp and level.
 */
#ifndef LOG_H
#define LOG_H

enum log_level {
	LOG_ERROR = 0,
	LOG_WARN,
	LOG_INFO,
	LOG_DEBUG
};

int	log_level_parse(const char *);
const char *log_level_name(enum log_level);
void	log_set_level(enum log_level);
int	log_debugging(void);

void	log_error(const char *, ...) __attribute__((format(printf, 1, 2)));
void	log_warn(const char *, ...) __attribute__((format(printf, 1, 2)));
void	log_info(const char *, ...) __attribute__((format(printf, 1, 2)));
void	log_debug(const char *, ...) __attribute__((format(printf, 1, 2)));
void	fatalx(const char *, ...) __attribute__((format(printf, 1, 2),
	    noreturn));

#endif /* LOG_H */
