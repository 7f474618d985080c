/*
 * harness.h -- start the real tttd on an ephemeral port and talk to it over
 * real sockets, for the end-to-end tests.
 */
#ifndef HARNESS_H
#define HARNESS_H

#include <sys/types.h>

#include <stddef.h>

#define HARNESS_TIMEOUT_MS	5000	/* how long to wait for a line */
#define HARNESS_START_MS	20000	/* ... for tttd to start or end (under
					   valgrind on a loaded machine, the
					   ICU libraries' loading takes
					   seconds) */

struct tttd_proc {
	pid_t	pid;
	int	port;
	int	http_port;	/* with --http-port any among the extras */
	int	err_fd;		/* the server's stderr (its log), readable */
};

struct conn {
	int	fd;
	size_t	len;
	char	buf[16384];
};

const char	*harness_tttd_path(void);
const char	*harness_client_path(void);

/*
 * Start tttd --port 0 --bind 127.0.0.1 --http-port 0 plus the
 * NULL-terminated extra args; with "--http-port", "any" among them, HTTP
 * on a free port too (http_port).
 */
int	harness_start(struct tttd_proc *, const char *const *);
/*
 * The same as tttd 1.1.0 played (the suites written for it): with
 * --resume-grace 0 first, so a lost connection forfeits at once and no
 * TOKEN line follows MATCH.
 */
int	harness_start_v1(struct tttd_proc *, const char *const *);
/* The v1 start, with RLIMIT_NOFILE (soft and hard) set to n in the server. */
int	harness_start_nofile(struct tttd_proc *, const char *const *,
	    unsigned long);
/* SIGTERM, then wait: returns the exit status, or -1 if it was killed. */
int	harness_stop(struct tttd_proc *);
/*
 * Wait up to the timeout for tttd to exit on its own (no signal is sent):
 * the exit status, or -1 if it was killed (or had to be, at the timeout).
 */
int	harness_wait(struct tttd_proc *, int);
/*
 * Run tttd with exactly the NULL-terminated args (no --port or --bind added)
 * and capture its stdout, NUL-terminated; stderr goes to /dev/null.  Returns
 * the exit status, or -1 if it was killed (or had to be, at the timeout).
 */
int	harness_run(const char *const *, char *, size_t, int);
/* The same, with stderr (the log) captured too, NUL-terminated, in err. */
int	harness_run2(const char *const *, char *, size_t, char *, size_t,
	    int);
/* The monotonic clock in ms; the server's CPU time (ms) and RSS (KiB). */
long	harness_now_ms(void);
long	harness_cpu_ms(const struct tttd_proc *);
long	harness_rss_kb(const struct tttd_proc *);
/* Read what the server logged so far (nonblocking), NUL-terminated. */
size_t	harness_log(struct tttd_proc *, char *, size_t);
/* Read the log on until it holds text (or the timeout): its length. */
size_t	harness_log_wait(struct tttd_proc *, char *, size_t, const char *);

int	conn_open(struct conn *, int);
/*
 * Connect without blocking past the timeout (a server that stopped
 * accepting makes connect() wait for minutes): 0 with the socket left
 * nonblocking, or -1 (errno ETIMEDOUT at the timeout).
 */
int	conn_open_nb(struct conn *, int, int);
/*
 * conn_open_nb from a source address of the test's choosing (dotted IPv4,
 * such as one of 127/8; NULL: the kernel's choice).
 */
int	conn_open_from(struct conn *, int, const char *, int);
void	conn_close(struct conn *);
/* Close; with rst, by a reset (SO_LINGER 0) rather than a FIN. */
void	conn_drop(struct conn *, int);
/* Send raw bytes. */
int	conn_write(struct conn *, const void *, size_t);
/* Send one line: the text plus "\r\n". */
int	conn_send(struct conn *, const char *);
/*
 * Read one line (CRLF stripped) within the timeout: its length, or -1 on
 * EOF, error or timeout.
 */
int	conn_line(struct conn *, char *, size_t, int);
/* Like conn_line, but a CR before the LF is kept. */
int	conn_rawline(struct conn *, char *, size_t, int);
/* Like conn_line, but skips space-led lines for people. */
int	conn_event(struct conn *, char *, size_t, int);
/* Wait for EOF: 1 if the server closed within the timeout, 0 if not. */
int	conn_wait_closed(struct conn *, int);
/* 1 if nothing arrives within the time (no pending line either). */
int	conn_quiet(struct conn *, int);
/*
 * For tests that drive many connections from one poll() loop: read what
 * is there without waiting (bytes read, 0 on EOF, -1 on error with errno,
 * EAGAIN when nothing is there), and take one buffered line (CRLF
 * stripped) without reading: its length, or -1 if no whole line is in.
 */
int	conn_fill(struct conn *);
int	conn_take_line(struct conn *, char *, size_t);
/*
 * conn_fill and conn_take_line in a loop: every whole line (CRLF stripped,
 * cut at CONN_PUMP_LINE - 1 bytes) goes to cb(arg, line), which returns
 * nonzero to stop.  Returns -1 when there is nothing more for now (or cb
 * stopped), 0 on EOF, 1 on an error such as a reset (errno says).
 */
#define CONN_PUMP_LINE	1024
int	conn_pump(struct conn *, int (*)(void *, char *), void *);
/*
 * Send without waiting: the bytes the socket took, 0 if it takes none now
 * (full, or interrupted), -1 on an error (errno says).
 */
ssize_t	conn_send_nb(struct conn *, const void *, size_t);
/* The number of descriptors the server has open, from /proc/PID/fd. */
int	harness_nfds(const struct tttd_proc *);
/* How often the text occurs in hay. */
int	harness_count(const char *, const char *);
/*
 * x and o have just been paired: the mover (into p[0], the other into
 * p[1]) wins down column B in five moves; both have read their AGAIN?.
 */
void	harness_play_to_result(struct conn *, struct conn *, struct conn *[2]);

/* cmocka assertions: the next event equals / starts with the text. */
void	expect_event(struct conn *, const char *);
void	expect_prefix(struct conn *, const char *);
/* Read events until one starts with the prefix; fail after too many. */
void	expect_skip_to(struct conn *, const char *, char *, size_t);

#endif /* HARNESS_H */
