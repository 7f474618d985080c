/*
 * e2e_fix.c -- the per-test fixture of the end-to-end suites.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <cmocka.h>

#include "e2e_fix.h"
#include "e2e_line.h"

static int	e2e_setup_as(void **, int);

/* An empty record of servers, connections and children. */
static int
e2e_setup_as(void **state, int v1)
{
	struct e2e	*e;

	signal(SIGPIPE, SIG_IGN);
	if ((e = calloc(1, sizeof *e)) == NULL)
		return (-1);
	e->v1 = v1;
	line_track(e->conns, &e->nconns);
	*state = e;
	return (0);
}

/* Per-test fixture whose servers play as tttd 1.1.0 did. */
int
e2e_setup_v1(void **state)
{
	return (e2e_setup_as(state, 1));
}

/* Per-test fixture whose servers have §9 on. */
int
e2e_setup(void **state)
{
	return (e2e_setup_as(state, 0));
}

/* Close every connection and kill whatever a failed test left running. */
int
e2e_teardown(void **state)
{
	struct e2e	*e = *state;
	int		 i;

	for (i = 0; i < e->nconns; i++) {
		conn_close(e->conns[i]);
		free(e->conns[i]);
	}
	for (i = 0; i < E2E_CHILDREN; i++) {
		if (e->child[i] != 0) {
			kill(e->child[i], SIGKILL);
			waitpid(e->child[i], NULL, 0);
		}
	}
	for (i = 0; i < E2E_SERVERS; i++) {
		if (e->srv[i].pid != 0 && getenv("SOC_LOG") != NULL) {
			/* After a failure: the server's log, on demand. */
			char	*log = malloc(1 << 20);

			if (log != NULL) {
				harness_log(&e->srv[i], log, 1 << 20);
				fprintf(stderr, "--- tttd log ---\n%s", log);
				free(log);
			}
		}
		if (e->srv[i].pid != 0) {
			kill(e->srv[i].pid, SIGKILL);
			waitpid(e->srv[i].pid, NULL, 0);
			close(e->srv[i].err_fd);
		}
	}
	line_track(NULL, NULL);
	free(e);
	return (0);
}

/* Start a tttd with extra arguments in a free slot. */
struct tttd_proc *
e2e_server(struct e2e *e, const char *const *extra)
{
	int	i, rc;

	for (i = 0; i < E2E_SERVERS; i++) {
		if (e->srv[i].pid == 0)
			break;
	}
	if (i == E2E_SERVERS)
		fail_msg("too many servers in one test");
	rc = e->v1 ? harness_start_v1(&e->srv[i], extra) :
	    harness_start(&e->srv[i], extra);
	if (rc != 0) {
		e->srv[i].pid = 0;
		if (e->v1)
			fail_msg("tttd did not start");
		fail_msg("tttd did not start (are the §9 flags known?)");
	}
	return (&e->srv[i]);
}

/*
 * Close the test's connections (so that the server need not wait for them
 * to go), SIGTERM the server and insist on exit status 0.
 */
void
e2e_stop(struct e2e *e, struct tttd_proc *tp)
{
	int	rc, i;

	for (i = 0; i < e->nconns; i++)
		conn_close(e->conns[i]);
	rc = harness_stop(tp);
	tp->pid = 0;
	if (rc != 0)
		fail_msg("tttd exited with status %d after SIGTERM, wanted 0",
		    rc);
}

/* A new, unconnected connection owned by the test. */
struct conn *
e2e_conn(struct e2e *e)
{
	struct conn	*c;

	if (e->nconns == E2E_CONNS)
		fail_msg("too many connections in one test");
	if ((c = calloc(1, sizeof *c)) == NULL)
		fail_msg("out of memory");
	c->fd = -1;
	e->conns[e->nconns++] = c;
	return (c);
}

/* Connect and read the greeting: HELLO, its human line, WAIT. */
struct conn *
e2e_connect_at(int ln, struct e2e *e, struct tttd_proc *tp)
{
	struct conn	*c = e2e_conn(e);

	line_open_at(ln, c, tp->port);
	return (c);
}
