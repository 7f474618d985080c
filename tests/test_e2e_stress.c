/*
 * test_e2e_stress.c -- the real tttd at scale: SIGTERM in the middle of
 * 1,000 live matches (every player is told, the exit is prompt and clean,
 * and the port can be bound again at once), and 10,000 connections opened
 * and dropped in every way a client can, after which the server must hold
 * no more descriptors than before.
 *
 * Every wait has a deadline.  test_e2e_stress_valgrind runs both tests
 * with tttd under valgrind (TTTD_BIN names its wrapper), where only the
 * bound on the time to exit is relaxed.  With an argument, only the tests
 * whose name matches it run (a cmocka filter: * and ? allowed).
 */
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness.h"

#define STRESS_MATCHES		1000
#define STRESS_PLAYERS		(2 * STRESS_MATCHES)
#define STRESS_BATCH		100	/* greeted before more come */
#define STRESS_EXIT_MS		5000	/* SIGTERM to exit */
#define STRESS_EXIT_VG_MS	60000	/* the same under valgrind */
#define STRESS_CYCLES		10000
#define STRESS_INFLIGHT		100
#define STRESS_SLOT_MS		5000	/* one cycle's longest wait */
#define STRESS_FDS_MS		5000	/* for descriptors to return */

#define T_BYE_SHUTDOWN		"BYE Server shutting down."
#define T_WAIT			"WAIT Waiting for an opponent..."

/* One player of the shutdown test. */
struct stress_player {
	struct conn	conn;
	int		open;
	int		waiting;	/* WAIT seen */
	char		sym;		/* from MATCH */
	int		turns;		/* TURN lines seen */
	char		turn;		/* the last TURN's symbol */
	int		marks;		/* marks on the last BOARD */
	int		bye;
	int		eof;
	int		reset;
	int		stray;		/* other lines after SIGTERM */
	char		first_stray[128];
};

/* The ways a connect/close cycle ends. */
enum stress_mode {
	M_CLOSE,	/* close right after connect */
	M_HELLO,	/* close after reading HELLO */
	M_RST,		/* reset (SO_LINGER 0) right after connect */
	M_RST_HELLO,	/* reset after reading HELLO */
	M_HALF,		/* shutdown(SHUT_WR), then read to EOF */
	M_MIDLINE,	/* half a line sent, then close */
	M_NMODES
};

static const char *stress_mode_names[M_NMODES] = {
	"close", "close after HELLO", "RST", "RST after HELLO",
	"half-close", "close mid-line"
};

/* One connection of the cycle test. */
struct stress_slot {
	struct conn		conn;
	int			busy;
	enum stress_mode	mode;
	long			since;
};

/* What a test owns, so that teardown can clean up after a failure. */
struct stress {
	struct tttd_proc	 srv;
	struct stress_player	*pl;		/* STRESS_PLAYERS */
	struct stress_slot	 slot[STRESS_INFLIGHT];
	char			 log[65536];
};

static int	stress_valgrind(void);
static void	stress_nofile(rlim_t);
static void	stress_line(struct stress_player *, const char *, int);
static int	stress_read(struct stress_player *, int);
static void	stress_pump(struct stress *, int, int,
		    int (*)(const struct stress_player *), const char *);
static int	stress_greeted(const struct stress_player *);
static int	stress_playing(const struct stress_player *);
static int	stress_moved(const struct stress_player *);
static void	stress_slot_end(struct stress_slot *, int);

/* Is tttd run under valgrind (TTTD_BIN, its wrapper)?  It is slow then. */
static int
stress_valgrind(void)
{
	const char	*bin = getenv("TTTD_BIN");

	return (bin != NULL && strstr(bin, "valgrind") != NULL);
}

/* Raise our descriptor limit to its hard limit; fail if it cannot fit n. */
static void
stress_nofile(rlim_t n)
{
	struct rlimit	rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == -1)
		fail_msg("getrlimit: %s", strerror(errno));
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < n)
		fail_msg("this test needs %lu descriptors, but RLIMIT_NOFILE's "
		    "hard limit is %lu: raise it (ulimit -Hn)",
		    (unsigned long)n, (unsigned long)rl.rlim_max);
	rl.rlim_cur = rl.rlim_max;
	if (setrlimit(RLIMIT_NOFILE, &rl) == -1)
		fail_msg("cannot raise RLIMIT_NOFILE to %lu: %s",
		    (unsigned long)rl.rlim_max, strerror(errno));
}

/* One line to a player; after: SIGTERM has been sent. */
static void
stress_line(struct stress_player *p, const char *line, int after)
{
	char	sym;
	int	i;

	if (line[0] == ' ')
		return;
	if (after) {
		if (strcmp(line, T_BYE_SHUTDOWN) == 0 && !p->bye)
			p->bye = 1;
		else if (p->stray++ == 0)
			snprintf(p->first_stray, sizeof p->first_stray,
			    "%.100s", line);
		return;
	}
	if (strcmp(line, T_WAIT) == 0)
		p->waiting = 1;
	else if (sscanf(line, "MATCH %c", &sym) == 1)
		p->sym = sym;
	else if (sscanf(line, "TURN %c", &sym) == 1) {
		p->turn = sym;
		p->turns++;
	} else if (strncmp(line, "BOARD ", 6) == 0) {
		for (p->marks = 0, i = 6; line[i] != '\0'; i++)
			p->marks += line[i] == 'X' || line[i] == 'O';
	}
}

/* Read what is there; 1 if the connection ended (EOF or reset). */
static int
stress_read(struct stress_player *p, int after)
{
	char	line[1024];
	int	r;

	for (;;) {
		r = conn_fill(&p->conn);
		while (conn_take_line(&p->conn, line, sizeof line) >= 0)
			stress_line(p, line, after);
		if (r > 0)
			continue;
		if (r == -1 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return (0);
		if (r == 0)
			p->eof = 1;
		else
			p->reset = 1;
		conn_close(&p->conn);
		p->open = 0;
		return (1);
	}
}

/*
 * Read players [from, to) until done() holds for each, or fail after the
 * deadline saying how many are missing what.  The server's log is drained
 * meanwhile: it logs every connection, and would block on a full pipe.
 */
static void
stress_pump(struct stress *st, int from, int to,
    int (*done)(const struct stress_player *), const char *what)
{
	static struct pollfd	 pfd[STRESS_PLAYERS];
	static int		 who[STRESS_PLAYERS];
	long			 deadline;
	int			 i, n;

	deadline = harness_now_ms() + (stress_valgrind() ? 120000 : 20000);
	for (;;) {
		for (i = from, n = 0; i < to; i++) {
			if (done(&st->pl[i]))
				continue;
			if (!st->pl[i].open)
				fail_msg("player %d: connection ended before "
				    "%s", i, what);
			pfd[n].fd = st->pl[i].conn.fd;
			pfd[n].events = POLLIN;
			pfd[n].revents = 0;
			who[n++] = i;
		}
		if (n == 0)
			return;
		if (harness_now_ms() > deadline)
			fail_msg("%d of %d players still without %s", n,
			    to - from, what);
		if (poll(pfd, (nfds_t)n, 20) == -1 && errno != EINTR)
			fail_msg("poll: %s", strerror(errno));
		for (i = 0; i < n; i++) {
			if (pfd[i].revents != 0)
				stress_read(&st->pl[who[i]], 0);
		}
		harness_log(&st->srv, st->log, sizeof st->log);
	}
}

/* HELLO and WAIT have come. */
static int
stress_greeted(const struct stress_player *p)
{
	return (p->waiting);
}

/* Paired, and the first game's first TURN has come. */
static int
stress_playing(const struct stress_player *p)
{
	return (p->sym != 0 && p->turns >= 1);
}

/* The first move is on the board and the next TURN has come. */
static int
stress_moved(const struct stress_player *p)
{
	return (p->marks == 1 && p->turns >= 2);
}

static int
stress_setup(void **state)
{
	struct stress	*st;

	signal(SIGPIPE, SIG_IGN);
	if ((st = calloc(1, sizeof *st)) == NULL)
		return (-1);
	if ((st->pl = calloc(STRESS_PLAYERS, sizeof *st->pl)) == NULL) {
		free(st);
		return (-1);
	}
	*state = st;
	return (0);
}

/* Close every connection; kill a server a failed test left running. */
static int
stress_teardown(void **state)
{
	struct stress	*st = *state;
	int		 i;

	for (i = 0; i < STRESS_PLAYERS; i++) {
		if (st->pl[i].open)
			conn_close(&st->pl[i].conn);
	}
	for (i = 0; i < STRESS_INFLIGHT; i++) {
		if (st->slot[i].busy)
			conn_close(&st->slot[i].conn);
	}
	if (st->srv.pid != 0) {
		kill(st->srv.pid, SIGKILL);
		waitpid(st->srv.pid, NULL, 0);
		close(st->srv.err_fd);
	}
	free(st->pl);
	free(st);
	return (0);
}

/*
 * 1,000 matches in progress when SIGTERM comes: every player reads
 * "BYE Server shutting down." and then EOF, tttd exits 0 soon after (it
 * caps its own wait at 1 s; the bound here allows for a noisy machine),
 * and a new tttd binds the same port at once and greets a player.
 */
static void
test_stress_sigterm_1000_matches(void **state)
{
	static const char *const	 extra[] = { "--max-per-addr", "0",
					    NULL };
	static struct pollfd		 pfd[STRESS_PLAYERS];
	static int			 who[STRESS_PLAYERS];
	struct stress			*st = *state;
	struct tttd_proc		 again;
	struct stress_player		*p;
	struct conn			 c;
	const char			*args[8];
	char				 port[16], line[256];
	long				 t0, t_exit = -1, t_all = -1;
	long				 deadline, bound;
	int				 i, n, status = -1, rc = -1;
	int				 byes = 0;
	int				 eofs = 0, resets = 0, strays = 0;

	stress_nofile(STRESS_PLAYERS + 64);
	assert_int_equal(harness_start_v1(&st->srv, extra), 0);

	/* Connect in batches, each greeted before the next. */
	for (i = 0; i < STRESS_PLAYERS; i += STRESS_BATCH) {
		for (n = i; n < i + STRESS_BATCH; n++) {
			p = &st->pl[n];
			if (conn_open_nb(&p->conn, st->srv.port,
			    HARNESS_TIMEOUT_MS) == -1)
				fail_msg("player %d: cannot connect: %s", n,
				    strerror(errno));
			p->open = 1;
		}
		stress_pump(st, i, i + STRESS_BATCH, stress_greeted,
		    "HELLO and WAIT");
	}
	stress_pump(st, 0, STRESS_PLAYERS, stress_playing, "MATCH and TURN");
	/* Pairing is first come, first served: 2k and 2k+1 play each other. */
	for (i = 0; i < STRESS_PLAYERS; i += 2) {
		if (st->pl[i].sym != 'X' || st->pl[i + 1].sym != 'O')
			fail_msg("players %d and %d are %c and %c", i, i + 1,
			    st->pl[i].sym, st->pl[i + 1].sym);
	}
	/* In every match, whoever is to move plays B2. */
	for (i = 0; i < STRESS_PLAYERS; i++) {
		p = &st->pl[i];
		if (p->turn == p->sym && conn_send(&p->conn, "b2") == -1)
			fail_msg("player %d: cannot send: %s", i,
			    strerror(errno));
	}
	stress_pump(st, 0, STRESS_PLAYERS, stress_moved, "the first move");
	printf("stress: %d matches paired, one move made in each\n",
	    STRESS_MATCHES);

	t0 = harness_now_ms();
	assert_int_equal(kill(st->srv.pid, SIGTERM), 0);
	deadline = t0 + (stress_valgrind() ? 120000 : 20000);
	while (harness_now_ms() < deadline) {
		for (i = n = 0; i < STRESS_PLAYERS; i++) {
			if (!st->pl[i].open)
				continue;
			pfd[n].fd = st->pl[i].conn.fd;
			pfd[n].events = POLLIN;
			pfd[n].revents = 0;
			who[n++] = i;
		}
		if (n == 0 && t_all == -1)
			t_all = harness_now_ms();
		if (t_exit == -1 && waitpid(st->srv.pid, &status, WNOHANG) ==
		    st->srv.pid) {
			t_exit = harness_now_ms();
			st->srv.pid = 0;
			rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
		}
		if (n == 0 && t_exit != -1)
			break;
		if (poll(pfd, (nfds_t)n, n > 0 ? 20 : 1) == -1 &&
		    errno != EINTR)
			fail_msg("poll: %s", strerror(errno));
		for (i = 0; i < n; i++) {
			if (pfd[i].revents != 0)
				stress_read(&st->pl[who[i]], 1);
		}
		if (t_exit == -1)
			harness_log(&st->srv, st->log, sizeof st->log);
	}
	if (t_exit != -1)
		close(st->srv.err_fd);
	for (i = 0; i < STRESS_PLAYERS; i++) {
		p = &st->pl[i];
		byes += p->bye;
		eofs += p->eof;
		resets += p->reset;
		if (p->stray > 0 && strays++ < 5)
			printf("stress: player %d got \"%s\" after SIGTERM\n",
			    i, p->first_stray);
	}
	printf("stress: SIGTERM to exit %ld ms (status %d); %d BYE, %d EOF, "
	    "%d reset, %d with other lines, of %d players; all closed after "
	    "%ld ms\n", t_exit == -1 ? -1 : t_exit - t0, rc, byes, eofs,
	    resets, strays, STRESS_PLAYERS, t_all == -1 ? -1 : t_all - t0);
	if (t_exit == -1)
		fail_msg("tttd still running %ld ms after SIGTERM",
		    harness_now_ms() - t0);
	if (rc != 0)
		fail_msg("tttd exited with status %d after SIGTERM", rc);
	if (byes != STRESS_PLAYERS || eofs != STRESS_PLAYERS || strays != 0)
		fail_msg("of %d players, %d got no \"%s\", %d no EOF, %d "
		    "other lines", STRESS_PLAYERS, STRESS_PLAYERS - byes,
		    T_BYE_SHUTDOWN, STRESS_PLAYERS - eofs, strays);
	bound = stress_valgrind() ? STRESS_EXIT_VG_MS : STRESS_EXIT_MS;
	if (t_exit - t0 > bound)
		fail_msg("tttd took %ld ms to exit after SIGTERM (bound %ld)",
		    t_exit - t0, bound);

	/* The same port, at once. */
	snprintf(port, sizeof port, "%d", st->srv.port);
	args[0] = "--port";
	args[1] = port;
	args[2] = NULL;
	t0 = harness_now_ms();
	if (harness_start_v1(&again, args) != 0)
		fail_msg("tttd cannot start again on port %s", port);
	st->srv = again;
	assert_int_equal(st->srv.port, atoi(port));
	assert_int_equal(conn_open(&c, st->srv.port), 0);
	if (conn_line(&c, line, sizeof line, HARNESS_TIMEOUT_MS *
	    (stress_valgrind() ? 4 : 1)) < 0)
		fail_msg("no HELLO from the restarted tttd");
	assert_true(strncmp(line, "HELLO tttd/1 ", 13) == 0);
	printf("stress: restarted on port %s and greeted in %ld ms\n", port,
	    harness_now_ms() - t0);
	conn_close(&c);
	rc = harness_stop(&st->srv);
	st->srv.pid = 0;
	if (rc != 0)
		fail_msg("the restarted tttd exited with %d on SIGTERM", rc);
}

/* A cycle's connection is done with: close it (with a reset if asked). */
static void
stress_slot_end(struct stress_slot *s, int rst)
{
	struct linger	lg = { 1, 0 };

	if (rst)
		setsockopt(s->conn.fd, SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
	conn_close(&s->conn);
	s->busy = 0;
}

/*
 * 10,000 connections opened and dropped in every way, at most 100 at a
 * time: afterwards (the server lingers up to 2 s over a closing
 * connection) its descriptor count is back to where it was.
 */
static void
test_stress_connect_close_cycles(void **state)
{
	static const char *const	 extra[] = { "--max-per-addr", "0",
					    NULL };
	struct stress			*st = *state;
	struct pollfd			 pfd[STRESS_INFLIGHT];
	struct stress_slot		*s;
	struct conn			 c;
	char				 line[256];
	int				 who[STRESS_INFLIGHT];
	int				 count[M_NMODES] = { 0 };
	int				 started = 0, busy, i, n, r;
	int				 fails = 0;
	int				 fds0, fds1, fds2;
	long				 t0, t1, now, deadline;

	stress_nofile(STRESS_INFLIGHT + 64);
	assert_int_equal(harness_start_v1(&st->srv, extra), 0);
	usleep(100 * 1000);
	fds0 = harness_nfds(&st->srv);
	assert_true(fds0 > 0);
	t0 = harness_now_ms();
	deadline = t0 + 60000;
	for (;;) {
		now = harness_now_ms();
		if (now > deadline)
			fail_msg("%d of %d cycles begun after 60 s", started,
			    STRESS_CYCLES);
		/* Fill the free slots. */
		for (i = 0; i < STRESS_INFLIGHT && started < STRESS_CYCLES;
		    i++) {
			s = &st->slot[i];
			if (s->busy)
				continue;
			s->mode = (enum stress_mode)(started++ % M_NMODES);
			count[s->mode]++;
			if (conn_open_nb(&s->conn, st->srv.port,
			    HARNESS_TIMEOUT_MS) == -1)
				fail_msg("cycle %d: cannot connect: %s",
				    started, strerror(errno));
			s->busy = 1;
			s->since = now;
			if (s->mode == M_CLOSE || s->mode == M_RST) {
				stress_slot_end(s, s->mode == M_RST);
				continue;
			}
			if (s->mode == M_HALF &&
			    shutdown(s->conn.fd, SHUT_WR) == -1)
				fail_msg("shutdown: %s", strerror(errno));
		}
		for (i = n = 0; i < STRESS_INFLIGHT; i++) {
			s = &st->slot[i];
			if (!s->busy)
				continue;
			if (now - s->since > STRESS_SLOT_MS) {
				if (fails++ < 5)
					printf("stress: %s: nothing for %d "
					    "ms\n", stress_mode_names[s->mode],
					    STRESS_SLOT_MS);
				stress_slot_end(s, 0);
				continue;
			}
			pfd[n].fd = s->conn.fd;
			pfd[n].events = POLLIN;
			pfd[n].revents = 0;
			who[n++] = i;
		}
		busy = n;
		if (busy == 0 && started == STRESS_CYCLES)
			break;
		if (poll(pfd, (nfds_t)n, 20) == -1 && errno != EINTR)
			fail_msg("poll: %s", strerror(errno));
		for (i = 0; i < n; i++) {
			if (pfd[i].revents == 0)
				continue;
			s = &st->slot[who[i]];
			r = conn_fill(&s->conn);
			if (r == -1 && (errno == EAGAIN ||
			    errno == EWOULDBLOCK))
				continue;
			if (s->mode == M_HALF) {
				/* Read it all; the server must close. */
				s->conn.len = 0;
				if (r == 0)
					stress_slot_end(s, 0);
				else if (r < 0) {
					if (fails++ < 5)
						printf("stress: half-close: "
						    "%s\n", strerror(errno));
					stress_slot_end(s, 0);
				}
				continue;
			}
			if (r <= 0 || conn_take_line(&s->conn, line,
			    sizeof line) >= 0) {
				if (r <= 0 || strncmp(line, "HELLO ", 6) != 0) {
					if (fails++ < 5)
						printf("stress: %s: no HELLO\n",
						    stress_mode_names[s->mode]);
				} else if (s->mode == M_MIDLINE)
					conn_write(&s->conn, "NAME half", 9);
				stress_slot_end(s, s->mode == M_RST_HELLO);
			}
		}
		harness_log(&st->srv, st->log, sizeof st->log);
	}
	t1 = harness_now_ms();
	fds1 = harness_nfds(&st->srv);
	deadline = t1 + STRESS_FDS_MS;
	while ((fds2 = harness_nfds(&st->srv)) != fds0 &&
	    harness_now_ms() < deadline) {
		harness_log(&st->srv, st->log, sizeof st->log);
		usleep(20 * 1000);
	}
	printf("stress: %d cycles in %ld ms:", STRESS_CYCLES, t1 - t0);
	for (i = 0; i < M_NMODES; i++)
		printf(" %d %s%s", count[i], stress_mode_names[i],
		    i + 1 < M_NMODES ? "," : "\n");
	printf("stress: server descriptors: %d before, %d right after, %d "
	    "%ld ms later\n", fds0, fds1, fds2, harness_now_ms() - t1);
	if (fails != 0)
		fail_msg("%d cycles went wrong (the first 5 above)", fails);
	if (fds2 != fds0)
		fail_msg("the server holds %d descriptors, %d before the "
		    "cycles", fds2, fds0);

	/* Still serving. */
	assert_int_equal(conn_open(&c, st->srv.port), 0);
	expect_prefix(&c, "HELLO ");
	conn_close(&c);
	harness_log(&st->srv, st->log, sizeof st->log);
	i = harness_stop(&st->srv);
	st->srv.pid = 0;
	if (i != 0)
		fail_msg("tttd exited with %d on SIGTERM", i);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
		    test_stress_sigterm_1000_matches, stress_setup,
		    stress_teardown),
		cmocka_unit_test_setup_teardown(
		    test_stress_connect_close_cycles, stress_setup,
		    stress_teardown),
	};

	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	return (cmocka_run_group_tests(tests, NULL, NULL));
}
