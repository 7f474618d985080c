/*
 * harness.c -- the real tttd on an ephemeral port, and socket helpers.
 */
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <netinet/in.h>
#include <arpa/inet.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness.h"

static int	harness_reap(pid_t, int);
static int	harness_run_read(int, char *, size_t, size_t *);

/* Milliseconds on the monotonic clock. */
long
harness_now_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (ts.tv_sec * 1000L + ts.tv_nsec / 1000000L);
}

/*
 * The tttd to run (TTTD_BIN, or the build's).  Every tttd a test starts
 * keeps no accounts unless the test gives --db itself (flags win over
 * TTTD_DB): no test leaves a tttd.db behind, nor shares one.
 */
const char *
harness_tttd_path(void)
{
	const char	*p = getenv("TTTD_BIN");
	static int	 once;

	if (!once++)
		setenv("TTTD_DB", "none", 0);	/* a test may unset it */

	return (p != NULL ? p : TTTD_PATH);
}

const char *
harness_client_path(void)
{
	const char	*p = getenv("TTT_CLIENT_BIN");

	return (p != NULL ? p : TTT_CLIENT_PATH);
}

static int	harness_spawn(struct tttd_proc *, const char *const *,
		    unsigned long, int);

int
harness_start(struct tttd_proc *p, const char *const *extra)
{
	return (harness_spawn(p, extra, 0, 0));
}

int
harness_start_v1(struct tttd_proc *p, const char *const *extra)
{
	return (harness_spawn(p, extra, 0, 1));
}

int
harness_start_nofile(struct tttd_proc *p, const char *const *extra,
    unsigned long nofile)
{
	return (harness_spawn(p, extra, nofile, 1));
}

/* How many line ends the first len bytes of buf hold. */
static int
harness_count_n(const char *buf, size_t len)
{
	int	n = 0;

	while (len-- > 0)
		n += *buf++ == '\n';
	return (n);
}

/*
 * Start tttd on an ephemeral port of 127.0.0.1 with extra flags; v1: as
 * tttd 1.1.0 played, a lost connection forfeiting at once and no TOKEN
 * lines (--resume-grace 0, which a later flag in extra may override).
 */
static int
harness_spawn(struct tttd_proc *p, const char *const *extra,
    unsigned long nofile, int v1)
{
	const char	*argv[64];
	int		 out[2], err[2], n = 0, i, lines = 1;
	char		 line[512];
	size_t		 len = 0;
	long		 deadline;
	char		*colon, *nl;

	signal(SIGPIPE, SIG_IGN);
	memset(p, 0, sizeof *p);
	if (pipe(out) == -1 || pipe(err) == -1)
		return (-1);
	argv[n++] = harness_tttd_path();
	argv[n++] = "--port";
	argv[n++] = "0";
	argv[n++] = "--bind";
	argv[n++] = "127.0.0.1";
	argv[n++] = "--http-port";	/* off, unless the test asks */
	argv[n++] = "0";
	if (v1) {
		argv[n++] = "--resume-grace";
		argv[n++] = "0";
	}
	for (i = 0; extra != NULL && extra[i] != NULL && n < 62; i++) {
		argv[n++] = extra[i];
		if (strcmp(extra[i], "--http-port") == 0 && extra[i + 1] !=
		    NULL)
			lines = strcmp(extra[i + 1], "0") != 0 ? 2 : 1;
	}
	argv[n] = NULL;

	p->pid = fork();
	if (p->pid == -1)
		return (-1);
	if (p->pid == 0) {
		/* Killed with the test, even by SIGKILL (a ctest timeout). */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (nofile != 0) {
			struct rlimit	rl = { nofile, nofile };

			if (setrlimit(RLIMIT_NOFILE, &rl) == -1)
				_exit(126);
		}
		dup2(out[1], STDOUT_FILENO);
		dup2(err[1], STDERR_FILENO);
		close(out[0]);
		close(out[1]);
		close(err[0]);
		close(err[1]);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	close(out[1]);
	close(err[1]);
	p->err_fd = err[0];
	fcntl(p->err_fd, F_SETFL, O_NONBLOCK);

	/*
	 * The first stdout line: "tttd <version> listening on ADDR:PORT";
	 * with --http-port, the second: "tttd <version> http on ADDR:PORT".
	 */
	deadline = harness_now_ms() + HARNESS_START_MS;
	while (len < sizeof line - 1 && harness_count_n(line, len) < lines) {
		struct pollfd	pfd = { out[0], POLLIN, 0 };
		ssize_t		r;

		if (poll(&pfd, 1, (int)(deadline - harness_now_ms())) <= 0)
			break;
		r = read(out[0], line + len, sizeof line - 1 - len);
		if (r <= 0)
			break;
		len += (size_t)r;
	}
	close(out[0]);
	line[len] = '\0';
	if ((nl = strchr(line, '\n')) != NULL) {
		*nl = '\0';
		if (lines == 2 && (colon = strrchr(nl + 1, ':')) != NULL &&
		    strstr(nl + 1, " http on ") != NULL)
			p->http_port = atoi(colon + 1);
	}
	colon = strrchr(line, ':');
	if (strncmp(line, "tttd ", 5) != 0 || strstr(line, " listening on ") ==
	    NULL || colon == NULL) {
		kill(p->pid, SIGKILL);
		waitpid(p->pid, NULL, 0);
		return (-1);
	}
	p->port = atoi(colon + 1);
	if (lines == 2 && p->http_port <= 0)
		return (-1);
	return (p->port > 0 ? 0 : -1);
}

int
harness_stop(struct tttd_proc *p)
{
	int	status, i;

	kill(p->pid, SIGTERM);
	for (i = 0; i < 500; i++) {
		if (waitpid(p->pid, &status, WNOHANG) == p->pid) {
			close(p->err_fd);
			if (WIFEXITED(status))
				return (WEXITSTATUS(status));
			return (-1);
		}
		usleep(10000);
	}
	kill(p->pid, SIGKILL);
	waitpid(p->pid, &status, 0);
	close(p->err_fd);
	return (-1);
}

/* Wait for a child to exit within the timeout; SIGKILL it at the end. */
static int
harness_reap(pid_t pid, int timeout_ms)
{
	long	deadline = harness_now_ms() + timeout_ms;
	int	status;

	for (;;) {
		if (waitpid(pid, &status, WNOHANG) == pid) {
			if (WIFEXITED(status))
				return (WEXITSTATUS(status));
			return (-1);
		}
		if (harness_now_ms() >= deadline)
			break;
		usleep(10000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return (-1);
}

int
harness_wait(struct tttd_proc *p, int timeout_ms)
{
	int	rc;

	rc = harness_reap(p->pid, timeout_ms);
	close(p->err_fd);
	return (rc);
}

int
harness_run(const char *const *args, char *out, size_t size, int timeout_ms)
{
	return (harness_run2(args, out, size, NULL, 0, timeout_ms));
}

/* Append what fd has to buf (NUL-terminated, the rest dropped): 0 at EOF. */
static int
harness_run_read(int fd, char *buf, size_t size, size_t *len)
{
	char	tmp[1024];
	ssize_t	r;

	if ((r = read(fd, tmp, sizeof tmp)) <= 0)
		return (0);
	if (size > 0 && *len < size - 1) {
		if ((size_t)r > size - 1 - *len)
			r = (ssize_t)(size - 1 - *len);
		memcpy(buf + *len, tmp, (size_t)r);
		*len += (size_t)r;
		buf[*len] = '\0';
	}
	return (1);
}

int
harness_run2(const char *const *args, char *out, size_t size, char *err,
    size_t errsize, int timeout_ms)
{
	const char	*argv[64];
	int		 fds[2], efds[2] = { -1, -1 }, n = 0, i, devnull;
	size_t		 len = 0, elen = 0;
	long		 deadline;
	pid_t		 pid;

	argv[n++] = harness_tttd_path();
	for (i = 0; args != NULL && args[i] != NULL && n < 63; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	if (size > 0)
		out[0] = '\0';
	if (errsize > 0)
		err[0] = '\0';
	if (pipe(fds) == -1)
		return (-1);
	if (err != NULL && pipe(efds) == -1) {
		close(fds[0]);
		close(fds[1]);
		return (-1);
	}
	if ((pid = fork()) == -1) {
		close(fds[0]);
		close(fds[1]);
		if (efds[0] != -1) {
			close(efds[0]);
			close(efds[1]);
		}
		return (-1);
	}
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		dup2(fds[1], STDOUT_FILENO);
		if (efds[1] != -1)
			dup2(efds[1], STDERR_FILENO);
		else if ((devnull = open("/dev/null", O_WRONLY)) != -1)
			dup2(devnull, STDERR_FILENO);
		close(fds[0]);
		close(fds[1]);
		if (efds[0] != -1) {
			close(efds[0]);
			close(efds[1]);
		}
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	close(fds[1]);
	if (efds[1] != -1)
		close(efds[1]);
	deadline = harness_now_ms() + timeout_ms;
	while (fds[0] != -1 || efds[0] != -1) {
		struct pollfd	pfd[2] = { { fds[0], POLLIN, 0 },
				    { efds[0], POLLIN, 0 } };
		long		left = deadline - harness_now_ms();

		if (left <= 0 || poll(pfd, 2, (int)left) <= 0)
			break;
		if (pfd[0].revents != 0 &&
		    !harness_run_read(fds[0], out, size, &len)) {
			close(fds[0]);
			fds[0] = -1;
		}
		if (pfd[1].revents != 0 &&
		    !harness_run_read(efds[0], err, errsize, &elen)) {
			close(efds[0]);
			efds[0] = -1;
		}
	}
	if (fds[0] != -1)
		close(fds[0]);
	if (efds[0] != -1)
		close(efds[0]);
	timeout_ms = (int)(deadline - harness_now_ms());
	return (harness_reap(pid, timeout_ms > 0 ? timeout_ms : 0));
}

/* The server's CPU time (user + system) so far, in ms, from /proc. */
long
harness_cpu_ms(const struct tttd_proc *p)
{
	char		 path[64], buf[1024], *s;
	unsigned long	 ut = 0, st = 0;
	FILE		*f;
	size_t		 n;

	snprintf(path, sizeof path, "/proc/%d/stat", (int)p->pid);
	if ((f = fopen(path, "r")) == NULL)
		fail_msg("cannot open %s: %s", path, strerror(errno));
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	if ((s = strrchr(buf, ')')) == NULL || sscanf(s + 1,
	    " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu",
	    &ut, &st) != 2)
		fail_msg("cannot parse %s", path);
	return ((long)((ut + st) * 1000UL /
	    (unsigned long)sysconf(_SC_CLK_TCK)));
}

/* The server's resident memory in KiB, from /proc. */
long
harness_rss_kb(const struct tttd_proc *p)
{
	char	 path[64], line[256];
	FILE	*f;
	long	 kb = -1;

	snprintf(path, sizeof path, "/proc/%d/status", (int)p->pid);
	if ((f = fopen(path, "r")) == NULL)
		fail_msg("cannot open %s: %s", path, strerror(errno));
	while (fgets(line, sizeof line, f) != NULL) {
		if (sscanf(line, "VmRSS: %ld kB", &kb) == 1)
			break;
	}
	fclose(f);
	if (kb <= 0)
		fail_msg("no VmRSS in %s", path);
	return (kb);
}

size_t
harness_log(struct tttd_proc *p, char *buf, size_t size)
{
	size_t	len = 0;
	ssize_t	r;

	while (len < size - 1 &&
	    (r = read(p->err_fd, buf + len, size - 1 - len)) > 0)
		len += (size_t)r;
	buf[len] = '\0';
	return (len);
}

int
conn_open(struct conn *c, int port)
{
	struct sockaddr_in	sin;

	memset(c, 0, sizeof *c);
	c->fd = socket(AF_INET, SOCK_STREAM, 0);
	if (c->fd == -1)
		return (-1);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_port = htons((uint16_t)port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (connect(c->fd, (struct sockaddr *)&sin, sizeof sin) == -1) {
		close(c->fd);
		c->fd = -1;
		return (-1);
	}
	return (0);
}

/* Connect to the server, waiting no longer than the timeout. */
int
conn_open_nb(struct conn *c, int port, int timeout_ms)
{
	return (conn_open_from(c, port, NULL, timeout_ms));
}

/*
 * Connect from the source address (NULL: the kernel's choice), waiting no
 * longer than the timeout.
 */
int
conn_open_from(struct conn *c, int port, const char *src, int timeout_ms)
{
	struct sockaddr_in	sin;
	struct pollfd		pfd;
	socklen_t		len;
	int			err = 0, r;

	memset(c, 0, sizeof *c);
	c->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
	if (c->fd == -1)
		return (-1);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	if (src != NULL) {
		if (inet_pton(AF_INET, src, &sin.sin_addr) != 1) {
			errno = EINVAL;
			goto fail;
		}
		if (bind(c->fd, (struct sockaddr *)&sin, sizeof sin) == -1)
			goto fail;
	}
	sin.sin_port = htons((uint16_t)port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (connect(c->fd, (struct sockaddr *)&sin, sizeof sin) == 0)
		return (0);
	if (errno != EINPROGRESS)
		goto fail;
	pfd.fd = c->fd;
	pfd.events = POLLOUT;
	do {
		r = poll(&pfd, 1, timeout_ms);
	} while (r == -1 && errno == EINTR);
	if (r == 0)
		errno = ETIMEDOUT;
	if (r <= 0)
		goto fail;
	len = sizeof err;
	if (getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &len) == -1)
		goto fail;
	if (err == 0)
		return (0);
	errno = err;
fail:
	err = errno;
	close(c->fd);
	c->fd = -1;
	errno = err;
	return (-1);
}

void
conn_close(struct conn *c)
{
	if (c->fd != -1)
		close(c->fd);
	c->fd = -1;
}

/* Close; rst: with a reset (SO_LINGER 0), not a FIN. */
void
conn_drop(struct conn *c, int rst)
{
	struct linger	lg = { 1, 0 };

	if (rst && c->fd != -1)
		setsockopt(c->fd, SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
	conn_close(c);
}

int
conn_write(struct conn *c, const void *data, size_t len)
{
	const char	*p = data;
	ssize_t		 w;

	while (len > 0) {
		w = send(c->fd, p, len, MSG_NOSIGNAL);
		if (w == -1) {
			if (errno == EINTR)
				continue;
			return (-1);
		}
		p += w;
		len -= (size_t)w;
	}
	return (0);
}

int
conn_send(struct conn *c, const char *line)
{
	if (conn_write(c, line, strlen(line)) == -1)
		return (-1);
	return (conn_write(c, "\r\n", 2));
}

int
conn_line(struct conn *c, char *out, size_t size, int timeout_ms)
{
	int	n = conn_rawline(c, out, size, timeout_ms);

	if (n > 0 && out[n - 1] == '\r')
		out[--n] = '\0';
	return (n);
}

int
conn_rawline(struct conn *c, char *out, size_t size, int timeout_ms)
{
	long	 deadline = harness_now_ms() + timeout_ms;
	char	*lf;
	size_t	 n;

	for (;;) {
		lf = memchr(c->buf, '\n', c->len);
		if (lf != NULL) {
			n = (size_t)(lf - c->buf);
			if (n >= size)
				n = size - 1;
			memcpy(out, c->buf, n);
			out[n] = '\0';
			c->len -= (size_t)(lf + 1 - c->buf);
			memmove(c->buf, lf + 1, c->len);
			return ((int)n);
		}
		if (c->len == sizeof c->buf)
			return (-1);
		{
			struct pollfd	pfd = { c->fd, POLLIN, 0 };
			long		left = deadline - harness_now_ms();
			ssize_t		r;

			if (left <= 0 || poll(&pfd, 1, (int)left) <= 0)
				return (-1);
			r = recv(c->fd, c->buf + c->len, sizeof c->buf - c->len,
			    0);
			if (r <= 0)
				return (-1);
			c->len += (size_t)r;
		}
	}
}

int
conn_event(struct conn *c, char *out, size_t size, int timeout_ms)
{
	int	n;

	do {
		n = conn_line(c, out, size, timeout_ms);
	} while (n >= 0 && out[0] == ' ');
	return (n);
}

int
conn_wait_closed(struct conn *c, int timeout_ms)
{
	long	deadline = harness_now_ms() + timeout_ms;
	char	tmp[4096];
	ssize_t	r;

	for (;;) {
		struct pollfd	pfd = { c->fd, POLLIN, 0 };
		long		left = deadline - harness_now_ms();

		if (left <= 0 || poll(&pfd, 1, (int)left) <= 0)
			return (0);
		r = recv(c->fd, tmp, sizeof tmp, 0);
		if (r == 0)
			return (1);
		if (r < 0)
			return (errno == ECONNRESET ? 1 : 0);
	}
}

int
conn_quiet(struct conn *c, int timeout_ms)
{
	struct pollfd	pfd = { c->fd, POLLIN, 0 };

	if (c->len > 0)
		return (0);
	return (poll(&pfd, 1, timeout_ms) == 0);
}

/* Append what the socket holds to the buffer, without waiting. */
int
conn_fill(struct conn *c)
{
	ssize_t	r;

	if (c->len == sizeof c->buf) {
		errno = ENOBUFS;
		return (-1);
	}
	do {
		r = recv(c->fd, c->buf + c->len, sizeof c->buf - c->len,
		    MSG_DONTWAIT);
	} while (r == -1 && errno == EINTR);
	if (r > 0)
		c->len += (size_t)r;
	return ((int)r);
}

/* Take one whole line out of the buffer, if there is one. */
int
conn_take_line(struct conn *c, char *out, size_t size)
{
	char	*lf;
	size_t	 n, used;

	if ((lf = memchr(c->buf, '\n', c->len)) == NULL)
		return (-1);
	used = (size_t)(lf + 1 - c->buf);
	n = (size_t)(lf - c->buf);
	if (n > 0 && c->buf[n - 1] == '\r')
		n--;
	if (n >= size)
		n = size - 1;
	memcpy(out, c->buf, n);
	out[n] = '\0';
	c->len -= used;
	memmove(c->buf, lf + 1, c->len);
	return ((int)n);
}

/*
 * Read until the socket has nothing more, giving each whole line to cb
 * until it asks to stop (nonzero).
 */
int
conn_pump(struct conn *c, int (*cb)(void *, char *), void *arg)
{
	char	line[CONN_PUMP_LINE];
	int	r;

	for (;;) {
		r = conn_fill(c);
		while (conn_take_line(c, line, sizeof line) >= 0) {
			if (cb(arg, line) != 0)
				return (-1);
		}
		if (r > 0)
			continue;
		if (r == 0)
			return (0);
		if (errno == EAGAIN || errno == EWOULDBLOCK)
			return (-1);
		return (1);
	}
}

/* Send what the socket takes now, without waiting. */
ssize_t
conn_send_nb(struct conn *c, const void *data, size_t len)
{
	ssize_t	w;

	w = send(c->fd, data, len, MSG_DONTWAIT | MSG_NOSIGNAL);
	if (w == -1 && (errno == EAGAIN || errno == EWOULDBLOCK ||
	    errno == EINTR))
		return (0);
	return (w);
}

/* Count the entries of /proc/PID/fd: the server's open descriptors. */
int
harness_nfds(const struct tttd_proc *p)
{
	char		 path[64];
	DIR		*d;
	struct dirent	*de;
	int		 n = 0;

	snprintf(path, sizeof path, "/proc/%d/fd", (int)p->pid);
	if ((d = opendir(path)) == NULL)
		return (-1);
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] != '.')
			n++;
	}
	closedir(d);
	return (n);
}

void
expect_event(struct conn *c, const char *want)
{
	char	line[1024];
	int	n;

	n = conn_event(c, line, sizeof line, HARNESS_TIMEOUT_MS);
	if (n < 0)
		fail_msg("expected \"%s\", got EOF or timeout", want);
	if (strcmp(line, want) != 0)
		fail_msg("expected \"%s\", got \"%s\"", want, line);
}

void
expect_prefix(struct conn *c, const char *want)
{
	char	line[1024];
	int	n;

	n = conn_event(c, line, sizeof line, HARNESS_TIMEOUT_MS);
	if (n < 0)
		fail_msg("expected \"%s...\", got EOF or timeout", want);
	if (strncmp(line, want, strlen(want)) != 0)
		fail_msg("expected \"%s...\", got \"%s\"", want, line);
}

void
expect_skip_to(struct conn *c, const char *prefix, char *out, size_t size)
{
	char	line[1024];
	int	i;

	for (i = 0; i < 64; i++) {
		if (conn_event(c, line, sizeof line, HARNESS_TIMEOUT_MS) < 0)
			fail_msg("expected \"%s...\", got EOF or timeout",
			    prefix);
		if (strncmp(line, prefix, strlen(prefix)) == 0) {
			if (out != NULL)
				snprintf(out, size, "%s", line);
			return;
		}
	}
	fail_msg("no \"%s...\" within 64 lines", prefix);
}

int
harness_count(const char *hay, const char *text)
{
	int	n = 0;

	while ((hay = strstr(hay, text)) != NULL) {
		n++;
		hay += strlen(text);
	}
	return (n);
}

void
harness_play_to_result(struct conn *x, struct conn *o, struct conn *p[2])
{
	static const char	*moves[] = { "B1", "A1", "B2", "A2", "B3" };
	char			 line[512];
	int			 i;

	expect_skip_to(x, "TURN ", line, sizeof line);
	p[0] = strstr(line, "Enter your move") != NULL ? x : o;
	p[1] = p[0] == x ? o : x;
	for (i = 0; i < 5; i++) {
		conn_send(p[i % 2], moves[i]);
		expect_skip_to(p[i % 2], "OK MOVE", NULL, 0);
	}
	/* p[0] made B1 B2 B3: the middle column, a win for its mark. */
	expect_skip_to(p[0], "RESULT WIN ", line, sizeof line);
	if (line[11] != (p[0] == x ? 'X' : 'O'))
		fail_msg("the player of B1 B2 B3 did not win: \"%s\"", line);
	expect_skip_to(p[1], "RESULT WIN ", NULL, 0);
	expect_skip_to(p[0], "AGAIN? ", NULL, 0);
	expect_skip_to(p[1], "AGAIN? ", NULL, 0);
}

size_t
harness_log_wait(struct tttd_proc *p, char *buf, size_t size,
    const char *text)
{
	long	deadline = harness_now_ms() + HARNESS_TIMEOUT_MS;
	size_t	len = 0;

	for (;;) {
		len += harness_log(p, buf + len, size - len);
		if (strstr(buf, text) != NULL || len >= size - 1 ||
		    harness_now_ms() >= deadline)
			return (len);
		usleep(20000);
	}
}
