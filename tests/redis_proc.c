/*
 * redis_proc.c -- a real redis-server for the cluster tests.
 */
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <netinet/in.h>
#include <arpa/inet.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "redis_proc.h"

#define REDIS_WAIT_MS	5000	/* to answer PING after starting */

static long
redis_proc_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (ts.tv_sec * 1000L + ts.tv_nsec / 1000000L);
}

/* A port of 127.0.0.1 free now (bound to 0 and let go). */
int
redis_proc_free_port(void)
{
	struct sockaddr_in	sin;
	socklen_t		len = sizeof sin;
	int			fd, port = -1;

	if ((fd = socket(AF_INET, SOCK_STREAM, 0)) == -1)
		return (-1);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *)&sin, sizeof sin) == 0 &&
	    getsockname(fd, (struct sockaddr *)&sin, &len) == 0)
		port = ntohs(sin.sin_port);
	close(fd);
	return (port);
}

/*
 * Send one inline command and read its reply into buf, NUL-terminated: a
 * bulk reply whole (as much as fits), anything else its first line.  Its
 * length, or -1 (no reply within 2 s).
 */
static int
redis_proc_talk(const struct redis_proc *r, const char *cmd, char *buf,
    size_t size)
{
	struct sockaddr_in	 sin;
	struct pollfd		 pfd;
	size_t			 len = 0, want;
	ssize_t			 n;
	char			*crlf;
	int			 fd;
	long			 deadline = redis_proc_now() + 2000;

	if ((fd = socket(AF_INET, SOCK_STREAM, 0)) == -1)
		return (-1);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_port = htons((uint16_t)r->port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (connect(fd, (struct sockaddr *)&sin, sizeof sin) == -1 ||
	    write(fd, cmd, strlen(cmd)) == -1 || write(fd, "\r\n", 2) == -1) {
		close(fd);
		return (-1);
	}
	pfd.fd = fd;
	pfd.events = POLLIN;
	while (len < size - 1 && redis_proc_now() < deadline) {
		if ((crlf = memchr(buf, '\n', len)) != NULL) {
			if (buf[0] != '$')
				break;
			want = (size_t)(crlf - buf) + 1 +
			    strtoul(buf + 1, NULL, 10) + 2;
			if (len >= want)
				break;
		}
		if (poll(&pfd, 1, 100) <= 0)
			continue;
		if ((n = read(fd, buf + len, size - 1 - len)) <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	return (memchr(buf, '\n', len) != NULL ? (int)len : -1);
}

int
redis_proc_cmd(const struct redis_proc *r, const char *cmd, char *reply,
    size_t size)
{
	char	 buf[4096];
	size_t	 len;
	char	*crlf;

	if (redis_proc_talk(r, cmd, buf, sizeof buf) == -1)
		return (-1);
	crlf = strchr(buf, '\n');
	len = (size_t)(crlf - buf);
	if (len > 0 && buf[len - 1] == '\r')
		len--;
	if (len >= size)
		len = size - 1;
	memcpy(reply, buf, len);
	reply[len] = '\0';
	return ((int)len);
}

int
redis_proc_info(const struct redis_proc *r, const char *section,
    const char *field, char *value, size_t size)
{
	char	 cmd[64], buf[16384], *at, *end;
	size_t	 flen = strlen(field), len;

	snprintf(cmd, sizeof cmd, "INFO %s", section);
	if (redis_proc_talk(r, cmd, buf, sizeof buf) == -1)
		return (-1);
	for (at = strstr(buf, field); at != NULL; at = strstr(at + 1, field)) {
		if (at > buf && at[-1] == '\n' && at[flen] == ':')
			break;
	}
	if (at == NULL)
		return (-1);
	at += flen + 1;
	end = at + strcspn(at, "\r\n");
	len = (size_t)(end - at) < size ? (size_t)(end - at) : size - 1;
	memcpy(value, at, len);
	value[len] = '\0';
	return ((int)len);
}

/* Run redis-server on r->port; 0 once it answers PING, else -1. */
static int
redis_proc_spawn(struct redis_proc *r)
{
	char		 port[16], pong[64];
	const char	*argv[] = { "redis-server", "--port", port, "--bind",
			    "127.0.0.1", "--save", "", "--appendonly", "no",
			    "--daemonize", "no", NULL };
	long		 deadline;
	int		 status, fd;

	snprintf(port, sizeof port, "%d", r->port);
	if ((r->pid = fork()) == -1) {
		r->pid = 0;
		return (-1);
	}
	if (r->pid == 0) {
		/* Killed with the test, even by SIGKILL (a ctest timeout). */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if ((fd = open("/dev/null", O_WRONLY)) != -1) {
			dup2(fd, STDOUT_FILENO);
			dup2(fd, STDERR_FILENO);
		}
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	deadline = redis_proc_now() + REDIS_WAIT_MS;
	while (redis_proc_now() < deadline) {
		if (waitpid(r->pid, &status, WNOHANG) == r->pid) {
			r->pid = 0;	/* the port was taken, say */
			return (-1);
		}
		if (redis_proc_cmd(r, "PING", pong, sizeof pong) > 0 &&
		    strcmp(pong, "+PONG") == 0)
			return (0);
		usleep(20000);
	}
	redis_proc_kill(r);
	return (-1);
}

int
redis_proc_start(struct redis_proc *r)
{
	int	tries;

	memset(r, 0, sizeof *r);
	for (tries = 0; tries < 5; tries++) {
		if ((r->port = redis_proc_free_port()) == -1)
			continue;
		snprintf(r->addr, sizeof r->addr, "127.0.0.1:%d", r->port);
		if (redis_proc_spawn(r) == 0)
			return (0);
	}
	return (-1);
}

int
redis_proc_restart(struct redis_proc *r)
{
	if (r->pid != 0)
		redis_proc_stop(r);
	return (redis_proc_spawn(r));
}

static void
redis_proc_end(struct redis_proc *r, int sig)
{
	long	deadline = redis_proc_now() + 5000;
	int	status;

	if (r->pid == 0)
		return;
	kill(r->pid, sig);
	while (waitpid(r->pid, &status, WNOHANG) == 0) {
		if (redis_proc_now() >= deadline) {
			kill(r->pid, SIGKILL);
			waitpid(r->pid, &status, 0);
			break;
		}
		usleep(10000);
	}
	r->pid = 0;
}

void
redis_proc_stop(struct redis_proc *r)
{
	redis_proc_end(r, SIGTERM);
}

void
redis_proc_kill(struct redis_proc *r)
{
	redis_proc_end(r, SIGKILL);
}
