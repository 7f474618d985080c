/*
 * cluster_fix.h -- the fixture of the cluster suites (test_e2e_cluster,
 * test_e2e_keep): a redis-server of their own, nodes on it.
 */
#ifndef CLUSTER_FIX_H
#define CLUSTER_FIX_H

#include "e2e_fix.h"
#include "e2e_game.h"
#include "redis_proc.h"

#define CLUSTER_WAIT_MS	12000	/* a node's death seen (5 s), Redis back
				   (backoff up to 5 s), with room */

struct cl_fix {
	struct e2e		*e;
	struct redis_proc	 redis;
};

int		 cl_setup(void **);
int		 cl_teardown(void **);
struct tttd_proc *cl_node(struct cl_fix *, const char *);
struct tttd_proc *cl_node_with(struct cl_fix *, const char *,
		    const char *const *);
void		 cl_wait_stat(int, struct cl_fix *, struct tttd_proc *,
		    const char *, long);
void		 cl_game_init(struct game *, struct conn *, struct conn *);
void		 cl_pair_at(int, struct cl_fix *, struct tttd_proc *,
		    struct tttd_proc *, struct game *);
void		 cl_stop_at(int, pid_t);
long		 cl_redis_int(int, struct cl_fix *, const char *);
void		 cl_wait_redis_at(int, struct cl_fix *, const char *, long);

#endif /* CLUSTER_FIX_H */
