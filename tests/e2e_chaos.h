/*
 * e2e_chaos.h -- what the chaos suites (test_e2e_chaos, test_e2e_chaos_social)
 * share: their random source, a client's write queue, the failures they
 * collect before failing once, player names, and the server's health (its
 * descriptors and RSS) before and after the chaos.
 */
#ifndef E2E_CHAOS_H
#define E2E_CHAOS_H

#include <sys/types.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

struct conn;
struct tttd_proc;

/*
 * The server's RSS once everything has closed may exceed its RSS before
 * the first connection by at most this.  Measured here: 2.1 MiB at the
 * start, 2.4 MiB at the peak, and the same at the end (glibc keeps what was
 * freed for reuse, so the end is near the peak, not near the start).
 * 8 MiB is twenty times that growth, room for other allocators and builds,
 * yet far below what unbounded buffering would hold: the twenty 1 MiB
 * lines alone are 20 MiB, and the non-readers' floods ask for some 75
 * times their size in replies (with the output cap off, the server grew
 * to 1.6 GiB).  Small per-connection leaks are test_e2e_stress_valgrind's
 * job, not this bound's.  Under AddressSanitizer the bound is not checked:
 * freed memory sits in its quarantine (256 MiB), and the server reads and
 * drops megabytes of the floods and 1 MiB lines, so its RSS reached
 * 370 MiB there.  Under valgrind (test_e2e_chaos_social_valgrind) the RSS
 * is valgrind's own (it grew by 15 MiB there), and memcheck's leak check,
 * which makes tttd exit 99, takes the bound's place.
 */
#if defined(__SANITIZE_ADDRESS__)	/* gcc */
#define CHAOS_ASAN		1
#elif defined(__has_feature)		/* clang */
#if __has_feature(address_sanitizer)
#define CHAOS_ASAN		1
#endif
#endif
#ifndef CHAOS_ASAN
#define CHAOS_ASAN		0
#endif
#define CHAOS_RSS_SLACK_KB	(8 * 1024)

#define CHAOS_OUT		4096	/* a client's write queue */
#define CHAOS_FAILS		64	/* failures kept to print */
#define CHAOS_FAIL_LEN		320

/* Bytes a client has yet to write. */
struct chaos_out {
	char	buf[CHAOS_OUT];
	size_t	len;
};

/* The failures noted so far: all are counted, the first CHAOS_FAILS kept. */
struct chaos_fails {
	int	n;
	char	msg[CHAOS_FAILS][CHAOS_FAIL_LEN];
};

/* The server's descriptors and RSS at the start, and its RSS at the peak. */
struct chaos_health {
	int	fds0;
	long	rss0;
	long	rss_peak;
	long	next_sample;
};

/* xorshift64*: a suite's only source of randomness (the state not 0). */
uint32_t chaos_rng(uint64_t *);

/*
 * 1 if that mark has three in a row on the board (e2e_game.c's
 * game_winner on the board with only that mark's cells kept).
 */
int	chaos_has_line(const char *, char);

/* Queue the bytes, or nothing if they do not fit: 0, or -1. */
int	chaos_out_add(struct chaos_out *, const void *, size_t);
/* Queue one line, CR LF added (all or nothing): 0, or -1. */
int	chaos_out_line(struct chaos_out *, const char *);
/*
 * Send at most max bytes (0: all) from the front of the queue without
 * waiting, and drop them from it: the bytes sent, 0 if the socket takes
 * none now, -1 on an error (errno says).
 */
ssize_t	chaos_out_send(struct chaos_out *, struct conn *, size_t);
/* Send until the queue is empty or the socket full: 0, or -1 on an error. */
int	chaos_out_flush(struct chaos_out *, struct conn *);

/* Note a failure, led by who (NULL: no one) and ": ". */
void	chaos_fails_vadd(struct chaos_fails *, const char *, const char *,
	    va_list) __attribute__((format(printf, 3, 0)));
/* Print the failures kept, each led by the tag, and fail if there are any. */
void	chaos_fails_report(const struct chaos_fails *, const char *);

/*
 * The index in a name such as "honest17" (its first digits on) if it is
 * below n, else -1; the caller checks that the client has that name.
 */
int	chaos_name_index(const char *, int);

/*
 * The baseline: the server's descriptors and RSS once it has answered one
 * PING on a connection that has come and gone (and that it has let go of).
 */
void	chaos_health_start(struct chaos_health *, struct tttd_proc *);
/* Note the RSS for the peak, at most every 250 ms. */
void	chaos_health_sample(struct chaos_health *, struct tttd_proc *, long);
/*
 * At the end: wait up to 5 s for the descriptors to come back to the
 * baseline, print what they and the RSS were, and fail if the descriptors
 * did not, or if the RSS grew by more than CHAOS_RSS_SLACK_KB (unless
 * why_not says why it is not checked, e.g. "under valgrind").
 */
void	chaos_health_end(struct chaos_health *, struct tttd_proc *,
	    const char *, const char *);

#endif /* E2E_CHAOS_H */
