/*
 * pg_proc.c -- a real PostgreSQL for the store's tests (pg_proc.h).
 */
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <glob.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libpq-fe.h>

#include "pg_proc.h"
#include "redis_proc.h"

#define PG_PROC_UID	65534	/* nobody, nogroup: Debian's */
#define PG_PROC_WAIT_MS	15000	/* to answer after starting */

static long
pg_proc_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (ts.tv_sec * 1000L + ts.tv_nsec / 1000000L);
}

/* Where initdb and postgres are: $TTTD_PG_BINDIR, or Debian's newest. */
static const char *
pg_proc_bindir(void)
{
	static char	 dir[256];
	const char	*env = getenv("TTTD_PG_BINDIR");
	glob_t		 g;

	if (env != NULL && env[0] != '\0')
		return (env);
	if (dir[0] != '\0')
		return (dir);
	if (glob("/usr/lib/postgresql/*/bin/postgres", 0, NULL, &g) != 0)
		return (NULL);
	snprintf(dir, sizeof dir, "%s", g.gl_pathv[g.gl_pathc - 1]);
	globfree(&g);
	dir[strlen(dir) - strlen("/postgres")] = '\0';
	return (dir);
}

/*
 * In a child about to exec: nobody when root, output to log (in the
 * directory), killed with its parent.
 */
static void
pg_proc_child(const struct pg_proc *p, const char *log)
{
	char	path[128];
	int	fd;

	if (geteuid() == 0 && (setgroups(0, NULL) == -1 ||
	    setgid(PG_PROC_UID) == -1 || setuid(PG_PROC_UID) == -1))
		_exit(126);
	prctl(PR_SET_PDEATHSIG, SIGINT);
	snprintf(path, sizeof path, "%s/%s", p->dir, log);
	if ((fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0600)) != -1) {
		dup2(fd, 1);
		dup2(fd, 2);
		close(fd);
	}
}

/* Run initdb: 0 when it succeeded. */
static int
pg_proc_initdb(const struct pg_proc *p, const char *bindir)
{
	char	prog[300], data[96];
	pid_t	pid;
	int	status;

	snprintf(prog, sizeof prog, "%s/initdb", bindir);
	snprintf(data, sizeof data, "%s/data", p->dir);
	if ((pid = fork()) == -1)
		return (-1);
	if (pid == 0) {
		pg_proc_child(p, "initdb.log");
		execl(prog, prog, "-D", data, "-U", "tttd", "-A", "trust",
		    "-E", "UTF8", "--locale=C", "--no-sync", (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0) {
		fprintf(stderr, "pg_proc: initdb failed (%s/initdb.log)\n",
		    p->dir);
		return (-1);
	}
	return (0);
}

/* Start postgres on p's data and port: 0 once it answers. */
static int
pg_proc_run(struct pg_proc *p)
{
	const char	*bindir = pg_proc_bindir();
	char		 prog[300], data[96], port[16], info[160];
	long		 deadline;
	int		 status;

	if (bindir == NULL)
		return (-1);
	snprintf(prog, sizeof prog, "%s/postgres", bindir);
	snprintf(data, sizeof data, "%s/data", p->dir);
	snprintf(port, sizeof port, "%d", p->port);
	if ((p->pid = fork()) == -1)
		return (-1);
	if (p->pid == 0) {
		pg_proc_child(p, "postgres.log");
		execl(prog, prog, "-D", data, "-p", port, "-k", p->dir,
		    "-c", "listen_addresses=127.0.0.1",
		    "-c", p->fsync ? "fsync=on" : "fsync=off",
		    "-c", "max_connections=30", "-c", "shared_buffers=16MB",
		    (char *)NULL);
		_exit(127);
	}
	snprintf(info, sizeof info, "host=127.0.0.1 port=%d user=tttd "
	    "dbname=postgres connect_timeout=2", p->port);
	deadline = pg_proc_now() + PG_PROC_WAIT_MS;
	while (pg_proc_now() < deadline) {
		if (waitpid(p->pid, &status, WNOHANG) == p->pid) {
			fprintf(stderr, "pg_proc: postgres exited (%s/"
			    "postgres.log)\n", p->dir);
			p->pid = 0;
			return (-1);
		}
		if (PQping(info) == PQPING_OK)
			return (0);
		usleep(50 * 1000);
	}
	pg_proc_stop(p);
	return (-1);
}

/* initdb, then postgres: 0 once it answers, the database "tttd" made. */
int
pg_proc_start(struct pg_proc *p)
{
	const char	*bindir = pg_proc_bindir();

	p->pid = 0;
	if (bindir == NULL) {
		fprintf(stderr, "pg_proc: no /usr/lib/postgresql/*/bin/postgres"
		    " (apt-get install postgresql, or set TTTD_PG_BINDIR)\n");
		return (-1);
	}
	snprintf(p->dir, sizeof p->dir, "/tmp/ttt-pg.XXXXXX");
	if (mkdtemp(p->dir) == NULL)
		return (-1);
	if (geteuid() == 0 && chown(p->dir, PG_PROC_UID, PG_PROC_UID) == -1)
		return (-1);
	if ((p->port = redis_proc_free_port()) == -1 ||
	    pg_proc_initdb(p, bindir) == -1 || pg_proc_run(p) == -1)
		return (-1);
	return (pg_proc_exec(p, "postgres", "CREATE DATABASE tttd"));
}

/* postgres again on the same data and port (after a stop): 0 once up. */
int
pg_proc_restart(struct pg_proc *p)
{
	return (pg_proc_run(p));
}

/* A fast shutdown (SIGINT), waited for (SIGKILL after 10 s). */
void
pg_proc_stop(struct pg_proc *p)
{
	long	deadline = pg_proc_now() + 10000;
	int	status;

	if (p->pid <= 0)
		return;
	kill(p->pid, SIGINT);
	while (waitpid(p->pid, &status, WNOHANG) == 0) {
		if (pg_proc_now() > deadline) {
			kill(p->pid, SIGKILL);
			waitpid(p->pid, &status, 0);
			break;
		}
		usleep(20 * 1000);
	}
	p->pid = 0;
}

/* Stopped, and its directory removed. */
void
pg_proc_destroy(struct pg_proc *p)
{
	pid_t	pid;
	int	status;

	pg_proc_stop(p);
	if (p->dir[0] == '\0')
		return;
	if ((pid = fork()) == 0) {
		execlp("rm", "rm", "-rf", p->dir, (char *)NULL);
		_exit(127);
	}
	if (pid > 0)
		waitpid(pid, &status, 0);
	p->dir[0] = '\0';
}

/* A connection URI to database db, as tttd --db takes it. */
void
pg_proc_uri(const struct pg_proc *p, const char *db, char *buf, size_t size)
{
	snprintf(buf, size, "postgresql://tttd@127.0.0.1:%d/%s", p->port, db);
}

/* A blocking connection to db, or NULL (the error on stderr). */
static PGconn *
pg_proc_conn(const struct pg_proc *p, const char *db)
{
	PGconn	*c;
	char	 uri[160];

	pg_proc_uri(p, db, uri, sizeof uri);
	c = PQconnectdb(uri);
	if (PQstatus(c) != CONNECTION_OK) {
		fprintf(stderr, "pg_proc: %s: %s", uri, PQerrorMessage(c));
		PQfinish(c);
		return (NULL);
	}
	return (c);
}

/* Statements run on database db: 0, or -1 (the error on stderr). */
int
pg_proc_exec(const struct pg_proc *p, const char *db, const char *sql)
{
	PGconn		*c;
	PGresult	*r;
	int		 rc = -1;

	if ((c = pg_proc_conn(p, db)) == NULL)
		return (-1);
	r = PQexec(c, sql);
	if (PQresultStatus(r) == PGRES_COMMAND_OK ||
	    PQresultStatus(r) == PGRES_TUPLES_OK)
		rc = 0;
	else
		fprintf(stderr, "pg_proc: %s: %s", sql, PQerrorMessage(c));
	PQclear(r);
	PQfinish(c);
	return (rc);
}

/* The first column of the first row a query of db gives, or -1. */
long
pg_proc_int(const struct pg_proc *p, const char *db, const char *sql)
{
	PGconn		*c;
	PGresult	*r;
	long		 v = -1;

	if ((c = pg_proc_conn(p, db)) == NULL)
		return (-1);
	r = PQexec(c, sql);
	if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) > 0)
		v = strtol(PQgetvalue(r, 0, 0), NULL, 10);
	else
		fprintf(stderr, "pg_proc: %s: %s", sql, PQerrorMessage(c));
	PQclear(r);
	PQfinish(c);
	return (v);
}
