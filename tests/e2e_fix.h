/*
 * e2e_fix.h -- the per-test fixture of the end-to-end suites: what a test
 * owns (servers, connections, child processes), so that teardown can clean
 * up after a failure.
 */
#ifndef E2E_FIX_H
#define E2E_FIX_H

#include <sys/types.h>

#include "harness.h"

#define E2E_SERVERS	4
#define E2E_CONNS	160
#define E2E_CHILDREN	4

struct e2e {
	struct tttd_proc	 srv[E2E_SERVERS];	/* pid 0 = free */
	struct conn		*conns[E2E_CONNS];
	int			 nconns;
	pid_t			 child[E2E_CHILDREN];	/* 0 = none */
	int			 v1;	/* servers start as tttd 1.1.0 */
};

/* cmocka setup: servers start as tttd 1.1.0 (v1) or with §9 on. */
int			 e2e_setup_v1(void **);
int			 e2e_setup(void **);
/* cmocka teardown; with SOC_LOG set, live servers' logs go to stderr. */
int			 e2e_teardown(void **);
/* Start a tttd with extra arguments in a free slot. */
struct tttd_proc	*e2e_server(struct e2e *, const char *const *);
/* Close the connections, SIGTERM the server, insist on status 0. */
void			 e2e_stop(struct e2e *, struct tttd_proc *);
/* A new, unconnected connection owned by the test. */
struct conn		*e2e_conn(struct e2e *);
/* A new connection, connected, its greeting read. */
struct conn		*e2e_connect_at(int, struct e2e *, struct tttd_proc *);

#define CONNECT(e, tp)		e2e_connect_at(__LINE__, (e), (tp))

#endif /* E2E_FIX_H */
