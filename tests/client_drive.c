/*
 * client_drive.c -- the real ttt-client run by a test (test_e2e_client,
 * test_e2e_client_restart): started with its input and output through
 * pipes or a pty, typed into, its output read and searched, and reaped.
 */
#define _XOPEN_SOURCE 700	/* posix_openpt */

#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
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

#include "client_drive.h"
#include "harness.h"

/* A pseudo-terminal: its master and slave; the test is skipped without. */
void
drive_pty_open(int *master, int *slave)
{
	*master = posix_openpt(O_RDWR | O_NOCTTY);
	if (*master == -1)
		skip();		/* no pseudo-terminals here */
	assert_int_equal(grantpt(*master), 0);
	assert_int_equal(unlockpt(*master), 0);
	*slave = open(ptsname(*master), O_RDWR | O_NOCTTY);
	assert_true(*slave != -1);
}

/*
 * Run ttt-client with the arguments; its input from a pipe, pty or null,
 * its output to a pipe or a pty, and NO_COLOR set to no_color (NULL: unset,
 * whatever the test's own environment says).
 */
void
drive_start(struct player *p, const char *const *args,
    enum player_input input, enum player_output output, const char *no_color)
{
	const char	*argv[16];
	int		 in[2], out[2], err[2], n = 0, fd;

	memset(p, 0, sizeof *p);
	p->pid = -1;
	if (input == INPUT_NULL) {
		in[0] = open("/dev/null", O_RDONLY);
		assert_true(in[0] != -1);
		in[1] = -1;
	} else if (input == INPUT_PTY)
		drive_pty_open(&in[1], &in[0]);
	else
		assert_int_equal(pipe(in), 0);
	if (output == OUTPUT_TTY)
		drive_pty_open(&out[0], &out[1]);
	else
		assert_int_equal(pipe(out), 0);
	assert_int_equal(pipe(err), 0);
	argv[n++] = harness_client_path();
	while (*args != NULL && n < 15)
		argv[n++] = *args++;
	argv[n] = NULL;

	p->pid = fork();
	assert_true(p->pid != -1);
	if (p->pid == 0) {
		if (no_color == NULL)
			unsetenv("NO_COLOR");
		else
			setenv("NO_COLOR", no_color, 1);
		dup2(in[0], STDIN_FILENO);
		dup2(out[1], STDOUT_FILENO);
		dup2(err[1], STDERR_FILENO);
		for (fd = 3; fd < 1024; fd++)
			close(fd);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	close(err[1]);
	p->in = in[1];
	p->out = out[0];
	p->err = err[0];
	fcntl(p->out, F_SETFL, O_NONBLOCK);
	fcntl(p->err, F_SETFL, O_NONBLOCK);
}

/* Type or pipe text into the client. */
void
drive_write(struct player *p, const char *s)
{
	size_t	len = strlen(s);
	ssize_t	w;

	while (len > 0) {
		w = write(p->in, s, len);
		if (w == -1 && errno == EINTR)
			continue;
		assert_true(w > 0);
		s += w;
		len -= (size_t)w;
	}
}

/* End the client's input. */
void
drive_close_input(struct player *p)
{
	if (p->in != -1)
		close(p->in);
	p->in = -1;
}

/* Read what the client printed, waiting up to ms for something. */
void
drive_read(struct player *p, int ms)
{
	struct pollfd	pfd[2];
	ssize_t		r;
	int		i;

	if (p->out == -1 && p->err == -1)
		return;
	pfd[0].fd = p->out;
	pfd[1].fd = p->err;
	pfd[0].events = pfd[1].events = POLLIN;
	if (poll(pfd, 2, ms) <= 0)
		return;
	for (i = 0; i < 2; i++) {
		int	*fd = i == 0 ? &p->out : &p->err;
		char	*buf = i == 0 ? p->outbuf : p->errbuf;
		size_t	*len = i == 0 ? &p->outlen : &p->errlen;
		size_t	 size = i == 0 ? sizeof p->outbuf : sizeof p->errbuf;

		if (*fd == -1 || pfd[i].revents == 0)
			continue;
		r = read(*fd, buf + *len, size - 1 - *len);
		if (r > 0)
			*len += (size_t)r;
		else if (r == 0 || errno != EAGAIN) {
			close(*fd);
			*fd = -1;
		}
		buf[*len] = '\0';
	}
}

/*
 * Wait up to ms until the client's output holds the text at or after
 * offset from: the offset just past it.  ln, if not 0, is the test's line
 * for the failure message.
 */
size_t
drive_expect_at(struct player *p, int ln, const char *text, size_t from,
    int ms)
{
	long	 deadline = harness_now_ms() + ms;
	char	*at;

	for (;;) {
		at = strstr(p->outbuf + from, text);
		if (at != NULL)
			return ((size_t)(at - p->outbuf) + strlen(text));
		if (harness_now_ms() >= deadline ||
		    (p->out == -1 && p->err == -1)) {
			if (ln != 0)
				print_error("line %d: ", ln);
			fail_msg("client output lacks \"%s\"; it printed:\n%s"
			    "\nstderr:\n%s", text, p->outbuf + from, p->errbuf);
		}
		drive_read(p, 50);
	}
}

/*
 * Read the client's output to its end, waiting up to ms, and reap it: its
 * exit status.  Killed if it has not ended by then (a failure).
 */
int
drive_end_within(struct player *p, int ms)
{
	long	deadline = harness_now_ms() + ms;
	int	status;

	while ((p->out != -1 || p->err != -1) && harness_now_ms() < deadline)
		drive_read(p, 50);
	while (waitpid(p->pid, &status, WNOHANG) == 0) {
		if (harness_now_ms() >= deadline) {
			kill(p->pid, SIGKILL);
			waitpid(p->pid, &status, 0);
			p->pid = -1;
			fail_msg("ttt-client did not end; it printed:\n%s",
			    p->outbuf);
		}
		usleep(10000);
	}
	p->pid = -1;
	drive_close_input(p);
	if (p->out != -1)
		close(p->out);
	if (p->err != -1)
		close(p->err);
	p->out = p->err = -1;
	if (!WIFEXITED(status))
		fail_msg("ttt-client died of signal %d", WTERMSIG(status));
	return (WEXITSTATUS(status));
}

/* End the client if one is left running, and close its pipes. */
void
drive_reap(struct player *p)
{
	if (p->pid > 0) {
		kill(p->pid, SIGKILL);
		waitpid(p->pid, NULL, 0);
	}
	p->pid = -1;
	if (p->in != -1)
		close(p->in);
	if (p->out != -1)
		close(p->out);
	if (p->err != -1)
		close(p->err);
	p->in = p->out = p->err = -1;
}
