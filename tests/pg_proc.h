/*
 * pg_proc.h -- a real PostgreSQL for the store's tests: Debian's initdb
 * and postgres (/usr/lib/postgresql/<version>/bin, or $TTTD_PG_BINDIR) on
 * a cluster of the test's own in a temporary directory, listening on a
 * free port of 127.0.0.1 and a socket in that directory, run as nobody
 * (uid 65534) when the test runs as root (postgres refuses root), and
 * stopped by the test.
 */
#ifndef PG_PROC_H
#define PG_PROC_H

#include <sys/types.h>

#include <stddef.h>

struct pg_proc {
	pid_t	pid;		/* the postmaster; 0: not running */
	int	port;
	int	fsync;		/* 0: fsync=off (the tests), 1: on (benches) */
	char	dir[64];	/* data/, the socket, the logs */
};

/* initdb, then postgres: 0 once it answers, the database "tttd" made. */
int	pg_proc_start(struct pg_proc *);
/* postgres again on the same data and port (after a stop): 0 once up. */
int	pg_proc_restart(struct pg_proc *);
/* A fast shutdown (SIGINT), waited for (SIGKILL after 10 s). */
void	pg_proc_stop(struct pg_proc *);
/* Stopped, and its directory removed. */
void	pg_proc_destroy(struct pg_proc *);
/* A connection URI to database db, as tttd --db takes it. */
void	pg_proc_uri(const struct pg_proc *, const char *, char *, size_t);
/* Statements run on database db: 0, or -1 (the error on stderr). */
int	pg_proc_exec(const struct pg_proc *, const char *, const char *);
/* The first column of the first row a query of db gives, or -1. */
long	pg_proc_int(const struct pg_proc *, const char *, const char *);

#endif /* PG_PROC_H */
