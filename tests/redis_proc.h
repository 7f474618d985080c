/*
 * redis_proc.h -- a real redis-server for the cluster tests: started on a
 * free loopback port, empty (no persistence), stopped by the test.
 */
#ifndef REDIS_PROC_H
#define REDIS_PROC_H

#include <sys/types.h>

#include <stddef.h>

struct redis_proc {
	pid_t	pid;		/* 0: not running */
	int	port;
	char	addr[32];	/* "127.0.0.1:<port>", for --redis */
};

/* A port of 127.0.0.1 free now (bound to 0 and let go), or -1. */
int	redis_proc_free_port(void);
/* Start redis-server on a free port of 127.0.0.1: 0 once it answers. */
int	redis_proc_start(struct redis_proc *);
/* The same again on its port (after a stop or kill), empty. */
int	redis_proc_restart(struct redis_proc *);
/* SIGTERM and wait (SIGKILL after 5 s). */
void	redis_proc_stop(struct redis_proc *);
/* SIGKILL and wait: a crash. */
void	redis_proc_kill(struct redis_proc *);
/* One inline command; its reply's first line (CRLF stripped): length. */
int	redis_proc_cmd(const struct redis_proc *, const char *, char *,
	    size_t);
/*
 * A field of one section of INFO (commandstats' cmdstat_evalsha: "calls=3,
 * usec=..."): its value's length, or -1 when it has none.
 */
int	redis_proc_info(const struct redis_proc *, const char *, const char *,
	    char *, size_t);

#endif /* REDIS_PROC_H */
