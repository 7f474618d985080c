/*
 * log.h -- one line per event on stderr, with a UTC timestamp and level.
 */
#ifndef LOG_H
#define LOG_H

void	log_error(const char *, ...) __attribute__((format(printf, 1, 2)));
void	log_warn(const char *, ...) __attribute__((format(printf, 1, 2)));
void	log_info(const char *, ...) __attribute__((format(printf, 1, 2)));
void	fatalx(const char *, ...) __attribute__((format(printf, 1, 2),
	    noreturn));

#endif /* LOG_H */
