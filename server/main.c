/*
 * main.c -- tttd: options, the descriptor limit, then the server.
 */
#include <sys/resource.h>
#include <sys/types.h>

#include <signal.h>

#include "log.h"
#include "namecheck.h"
#include "options.h"
#include "server.h"

#define FD_HEADROOM	32	/* descriptors beyond the clients' */

static void	fit_fd_limit(struct server_config *);

/*
 * Raise the descriptor limit to fit the clients (to the hard limit; as
 * root, the hard limit too), or lower the client cap to fit the limit.
 */
static void
fit_fd_limit(struct server_config *cfg)
{
	struct rlimit	rl;
	rlim_t		want = (rlim_t)cfg->max_clients + FD_HEADROOM;

	if (getrlimit(RLIMIT_NOFILE, &rl) == -1)
		return;
	if (rl.rlim_cur < want) {
		struct rlimit	nrl = rl;

		nrl.rlim_cur = want;
		if (nrl.rlim_max < want)
			nrl.rlim_max = want;
		if (setrlimit(RLIMIT_NOFILE, &nrl) == -1) {
			nrl.rlim_max = rl.rlim_max;
			nrl.rlim_cur = rl.rlim_max < want ? rl.rlim_max : want;
			if (setrlimit(RLIMIT_NOFILE, &nrl) == -1)
				nrl = rl;
		}
		rl = nrl;
	}
	if (rl.rlim_cur < want) {
		unsigned	fit = rl.rlim_cur > FD_HEADROOM ?
				    (unsigned)(rl.rlim_cur - FD_HEADROOM) : 1;

		log_warn("descriptor limit %llu: --max-clients lowered from %u to %u",
		    (unsigned long long)rl.rlim_cur, cfg->max_clients, fit);
		cfg->max_clients = fit;
	}
	log_info("descriptor limit %llu, up to %u clients",
	    (unsigned long long)rl.rlim_cur, cfg->max_clients);
}

int
main(int argc, char **argv)
{
	struct server_config	cfg;
	struct server		s;
	int			rc;

	switch (options_parse(&cfg, argc, argv)) {
	case OPTIONS_EXIT:
		return (0);
	case OPTIONS_ERROR:
		return (2);
	case OPTIONS_RUN:
		break;
	}
	log_set_level(cfg.log_level);

	/*
	 * A write to a vanished peer is an ordinary error.  SIGHUP, SIGUSR1
	 * and SIGUSR2 are the server's to handle (server.c); until it does,
	 * and after, they are ignored rather than fatal: closing the terminal
	 * must not end the games.  A write past a file size limit (ulimit
	 * -f) is the store's error (EFBIG: the game is not rated), not the
	 * end of every game.
	 */
	signal(SIGPIPE, SIG_IGN);
	signal(SIGXFSZ, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGUSR1, SIG_IGN);
	signal(SIGUSR2, SIG_IGN);
	fit_fd_limit(&cfg);
	if (server_init(&s, &cfg) == -1) {
		server_free(&s);
		namecheck_cleanup();
		return (1);
	}
	rc = server_run(&s);
	/* Freeing the signal events restores the default (fatal) handlers. */
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	server_free(&s);
	namecheck_cleanup();
	log_info("stopped");
	return (rc == 0 ? 0 : 1);
}
