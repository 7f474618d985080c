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

void	log_at(enum log_level, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
#define log_error(...)	log_at(LOG_ERROR, __VA_ARGS__)
#define log_warn(...)	log_at(LOG_WARN, __VA_ARGS__)
#define log_info(...)	log_at(LOG_INFO, __VA_ARGS__)
#define log_debug(...)	log_at(LOG_DEBUG, __VA_ARGS__)
void	fatalx(const char *, ...) __attribute__((format(printf, 1, 2),
	    noreturn));

#endif /* LOG_H */
