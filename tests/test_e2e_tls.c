/*
 * test_e2e_tls.c -- TLS at the balancer (issue 26): the repository's own
 * docker/haproxy.cfg run on loopback with TTTD_LB_CERT naming a
 * certificate the test makes with openssl(1) (self-signed, for the name
 * localhost only), its three servers all one tttd.  A whole game through
 * the TLS game frontend between ttt-client --tls and openssl s_client
 * -quiet; ttt-client --ping and --healthz through both TLS frontends; and
 * ttt-client refusing a certificate it does not trust, or one for another
 * name, with one line and exit status 1.  Exits 77 (skipped) when haproxy
 * or openssl is not installed.
 */
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <netinet/in.h>
#include <arpa/inet.h>

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "client_drive.h"
#include "harness.h"

#define TLS_WAIT_MS	8000	/* for HAProxy to serve */
#define OPENSSL_PATH	"/usr/bin/openssl"

/* The group's fixture: the certificate, tttd, HAProxy and its ports. */
struct tls_fix {
	char			 dir[64];	/* the certificate's folder */
	char			 ca[96];	/* the certificate, as a CA */
	char			 pem[96];	/* certificate and key */
	struct tttd_proc	 srv;
	pid_t			 haproxy;
	int			 port;		/* plain game frontend */
	int			 http_port;	/* plain HTTP frontend */
	int			 tls_port;	/* the game inside TLS */
	int			 https_port;	/* https and wss */
};

static struct tls_fix	fx;

/* A free port of 127.0.0.1 (bound to 0, read, let go), or -1. */
static int
tls_free_port(void)
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

/* "127.0.0.1:<port>" into the environment (a child's, before exec). */
static void
tls_setenv(const char *name, int port)
{
	char	addr[32];

	snprintf(addr, sizeof addr, "127.0.0.1:%d", port);
	setenv(name, addr, 1);
}

/*
 * A self-signed certificate for localhost (and no address) with its key,
 * as HAProxy reads them (one PEM file), made by openssl in a new folder.
 */
static int
tls_make_cert(struct tls_fix *f)
{
	char	cmd[1024];

	snprintf(f->dir, sizeof f->dir, "/tmp/tttd-tls-XXXXXX");
	if (mkdtemp(f->dir) == NULL)
		return (-1);
	snprintf(f->ca, sizeof f->ca, "%s/cert.pem", f->dir);
	snprintf(f->pem, sizeof f->pem, "%s/tttd.pem", f->dir);
	snprintf(cmd, sizeof cmd, "cd %s && " OPENSSL_PATH " req -x509 "
	    "-newkey rsa:2048 -nodes -days 2 -subj /CN=localhost "
	    "-addext subjectAltName=DNS:localhost -keyout key.pem "
	    "-out cert.pem 2>/dev/null && cat cert.pem key.pem > tttd.pem",
	    f->dir);
	return (system(cmd) == 0 ? 0 : -1);
}

/* GET /healthz over the plain HTTP frontend: 1 if it answered 200. */
static int
tls_healthz(int port, int timeout_ms)
{
	static const char	req[] = "GET /healthz HTTP/1.1\r\nHost: tttd\r\n"
				    "Connection: close\r\n\r\n";
	struct conn		*c;
	char			 line[256];
	int			 ok = 0;

	if ((c = calloc(1, sizeof *c)) == NULL)
		return (0);
	if (conn_open_nb(c, port, timeout_ms) == 0 &&
	    conn_write(c, req, sizeof req - 1) == 0 &&
	    conn_line(c, line, sizeof line, timeout_ms) > 0)
		ok = strcmp(line, "HTTP/1.1 200 OK") == 0;
	conn_close(c);
	free(c);
	return (ok);
}

/*
 * haproxy -db -f docker/haproxy.cfg with TLS on, its four frontends on
 * free ports and its servers the one tttd: 0 once it serves (all
 * frontends are bound together), -1 if it exited or the time ran out.
 */
static int
tls_spawn_haproxy(struct tls_fix *f)
{
	const char	*argv[] = { TTTD_HAPROXY_PATH, "-db", "-f",
			    TTTD_HAPROXY_CFG, NULL };
	char		 name[32];
	long		 deadline;
	int		 i, fd;

	if ((f->port = tls_free_port()) == -1 ||
	    (f->http_port = tls_free_port()) == -1 ||
	    (f->tls_port = tls_free_port()) == -1 ||
	    (f->https_port = tls_free_port()) == -1)
		return (-1);
	if ((f->haproxy = fork()) == -1)
		return (-1);
	if (f->haproxy == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if ((fd = open("/dev/null", O_WRONLY)) != -1)
			dup2(fd, STDOUT_FILENO);
		tls_setenv("TTTD_LB_BIND", f->port);
		tls_setenv("TTTD_LB_HTTP_BIND", f->http_port);
		tls_setenv("TTTD_LB_TLS_BIND", f->tls_port);
		tls_setenv("TTTD_LB_HTTPS_BIND", f->https_port);
		setenv("TTTD_LB_CERT", f->pem, 1);
		for (i = 1; i <= 3; i++) {
			snprintf(name, sizeof name, "TTTD_NODE%d", i);
			tls_setenv(name, f->srv.port);
			snprintf(name, sizeof name, "TTTD_NODE%d_HTTP", i);
			tls_setenv(name, f->srv.http_port);
		}
		setenv("TTTD_LB_MAXCONN", "1000", 1);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	deadline = harness_now_ms() + TLS_WAIT_MS;
	while (harness_now_ms() < deadline) {
		if (waitpid(f->haproxy, NULL, WNOHANG) == f->haproxy) {
			f->haproxy = 0;
			return (-1);
		}
		if (tls_healthz(f->http_port, 1000))
			return (0);
		usleep(50000);
	}
	return (-1);
}

/* SIGTERM HAProxy and wait (SIGKILL after 5 s). */
static void
tls_stop_haproxy(struct tls_fix *f)
{
	long	deadline = harness_now_ms() + 5000;

	if (f->haproxy == 0)
		return;
	kill(f->haproxy, SIGTERM);
	while (waitpid(f->haproxy, NULL, WNOHANG) == 0) {
		if (harness_now_ms() >= deadline) {
			kill(f->haproxy, SIGKILL);
			waitpid(f->haproxy, NULL, 0);
			break;
		}
		usleep(10000);
	}
	f->haproxy = 0;
}

/* The certificate, tttd, then HAProxy in front of it (a port taken: again). */
static int
tls_setup(void **state)
{
	const char *const	args[] = { "--http-port", "any",
				    "--proxy-from", "127.0.0.1/32", NULL };
	int			tries;

	(void)state;
	if (tls_make_cert(&fx) != 0) {
		fprintf(stderr, "openssl cannot make a certificate\n");
		return (-1);
	}
	if (harness_start(&fx.srv, args) != 0) {
		fprintf(stderr, "cannot start tttd\n");
		return (-1);
	}
	for (tries = 0; tries < 5; tries++) {
		if (tls_spawn_haproxy(&fx) == 0)
			return (0);
		tls_stop_haproxy(&fx);
	}
	fprintf(stderr, "cannot start %s -f %s\n", TTTD_HAPROXY_PATH,
	    TTTD_HAPROXY_CFG);
	return (-1);
}

/* HAProxy, then tttd (exit status 0), then the certificate's folder. */
static int
tls_teardown(void **state)
{
	char	cmd[256];
	int	rc;

	(void)state;
	tls_stop_haproxy(&fx);
	rc = harness_stop(&fx.srv) == 0 ? 0 : -1;
	if (fx.dir[0] != '\0') {
		snprintf(cmd, sizeof cmd, "rm -rf %s", fx.dir);
		if (system(cmd) != 0)
			rc = -1;
	}
	return (rc);
}

/*
 * openssl s_client -quiet on the TLS game frontend, as a person would
 * run it: its standard input and output one end of a socketpair, which
 * the test reads and writes as any connection (c->fd).  Its pid.
 */
static pid_t
tls_s_client(struct conn *c, int port)
{
	char	addr[32];
	int	sv[2], fd;
	pid_t	pid;

	snprintf(addr, sizeof addr, "127.0.0.1:%d", port);
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	pid = fork();
	assert_true(pid != -1);
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		dup2(sv[1], STDIN_FILENO);
		dup2(sv[1], STDOUT_FILENO);
		if ((fd = open("/dev/null", O_WRONLY)) != -1)
			dup2(fd, STDERR_FILENO);	/* verify: self-signed */
		for (fd = 3; fd < 1024; fd++)
			close(fd);
		execl(OPENSSL_PATH, "openssl", "s_client", "-quiet",
		    "-connect", addr, (char *)NULL);
		_exit(127);
	}
	close(sv[1]);
	memset(c, 0, sizeof *c);
	c->fd = sv[0];
	return (pid);
}

/* The exit status of a child, waited for up to the harness's timeout. */
static int
tls_reap(pid_t pid)
{
	long	deadline = harness_now_ms() + HARNESS_TIMEOUT_MS;
	int	status;

	while (waitpid(pid, &status, WNOHANG) == 0) {
		if (harness_now_ms() >= deadline) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			return (-1);
		}
		usleep(10000);
	}
	return (WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

/*
 * X's side of a game, played over c: on each TURN X the next of moves.
 * Returns at AGAIN?, with the RESULT line.
 */
static void
tls_play_x(struct conn *c, const char *const *moves, struct player *p,
    char *result, size_t size)
{
	char	line[1024], move[16];
	int	i, k = 0;

	*result = '\0';
	for (i = 0; i < 64; i++) {
		if (conn_event(c, line, sizeof line, HARNESS_TIMEOUT_MS) < 0)
			fail_msg("s_client: EOF or timeout; the client printed:\n%s\nstderr:\n%s",
			    p->outbuf, p->errbuf);
		if (strncmp(line, "ERR ", 4) == 0)
			fail_msg("s_client got \"%s\"", line);
		if (strncmp(line, "RESULT ", 7) == 0)
			snprintf(result, size, "%s", line);
		else if (strncmp(line, "AGAIN?", 6) == 0)
			return;
		else if (strncmp(line, "TURN X", 6) == 0) {
			assert_non_null(moves[k]);
			snprintf(move, sizeof move, "MOVE %s", moves[k++]);
			assert_int_equal(conn_send(c, move), 0);
		}
	}
	fail_msg("s_client: no AGAIN? within 64 lines");
}

/* The client's whole output holds the text. */
static void
tls_output_has(const struct player *p, const char *text)
{
	if (strstr(p->outbuf, text) == NULL)
		fail_msg("client output lacks \"%s\"; it printed:\n%s\nstderr:\n%s",
		    text, p->outbuf, p->errbuf);
}

/*
 * A whole game inside TLS: sam on openssl s_client -quiet waits, tia on
 * ttt-client --tls (the test's certificate as its CA, the name
 * localhost checked) joins and is O; sam plays C1 C2 B3, tia A1 A2 A3
 * and wins down column A; both say no to another game and get BYE; the
 * client exits 0, and tttd counts the game.
 */
static void
test_tls_game_client_and_s_client(void **state)
{
	const char *const	xmoves[] = { "C1", "C2", "B3", NULL };
	char			port[16], result[1024];
	const char		*args[] = { "--tls", "--cafile", fx.ca,
				    "--name", "tia", "localhost", port, NULL };
	struct player		p = PLAYER_NONE;
	struct conn		x;
	pid_t			sc;

	(void)state;
	sc = tls_s_client(&x, fx.tls_port);
	assert_int_equal(conn_send(&x, "NAME sam"), 0);
	expect_prefix(&x, "HELLO tttd/1 ");
	expect_prefix(&x, "WAIT ");
	snprintf(port, sizeof port, "%d", fx.tls_port);
	drive_start(&p, args, INPUT_PIPE, OUTPUT_PIPE, NULL);
	drive_write(&p, "A1\nA2\nA3\nn\n");
	drive_close_input(&p);
	expect_skip_to(&x, "MATCH X tia ", NULL, 0);
	tls_play_x(&x, xmoves, &p, result, sizeof result);
	assert_string_equal(result,
	    "RESULT WIN O tia tia wins! better luck next time sam!");
	assert_int_equal(conn_send(&x, "n"), 0);
	expect_skip_to(&x, "OK AGAIN n", NULL, 0);
	expect_event(&x, "BYE Thank you for playing!");
	/* s_client ends with the connection HAProxy closes. */
	assert_int_equal(conn_wait_closed(&x, HARNESS_TIMEOUT_MS), 1);
	close(x.fd);
	assert_int_equal(tls_reap(sc), 0);
	assert_int_equal(drive_end_within(&p, HARNESS_TIMEOUT_MS), 0);
	tls_output_has(&p, "You are O, playing against sam.\n");
	tls_output_has(&p, "  1  [O]|   | X\n");
	tls_output_has(&p, "tia wins! better luck next time sam!\n");
	tls_output_has(&p, "Thank you for playing!\n");
	assert_string_equal(p.errbuf, "");
}

/* Run ttt-client with args to its end: its status; stderr in p. */
static int
tls_client_run(struct player *p, const char *const *args)
{
	drive_start(p, args, INPUT_NULL, OUTPUT_PIPE, NULL);
	return (drive_end_within(p, HARNESS_TIMEOUT_MS));
}

/*
 * --ping through the TLS game frontend and --healthz through https: the
 * nodes answer inside TLS, the certificate checked.
 */
static void
test_tls_ping_and_healthz(void **state)
{
	char			port[16], https[16];
	const char *const	ping[] = { "--tls", "--cafile", fx.ca,
				    "--ping", "localhost", port, NULL };
	const char *const	healthz[] = { "--tls", "--cafile", fx.ca,
				    "--healthz", "localhost", https, NULL };
	struct player		p = PLAYER_NONE;

	(void)state;
	snprintf(port, sizeof port, "%d", fx.tls_port);
	snprintf(https, sizeof https, "%d", fx.https_port);
	assert_int_equal(tls_client_run(&p, ping), 0);
	assert_string_equal(p.errbuf, "");
	assert_int_equal(tls_client_run(&p, healthz), 0);
	assert_string_equal(p.errbuf, "");
}

/*
 * A certificate ttt-client does not trust (self-signed, no --cafile: the
 * system's CAs), one for another name (localhost's, asked as 127.0.0.1),
 * an unreadable --cafile, and --tls on a plain port: one line each and
 * exit status 1, before anything is shown.
 */
static void
test_tls_client_refuses(void **state)
{
	char			port[16], plain[16], want[256];
	const char *const	untrusted[] = { "--tls", "--name", "una",
				    "localhost", port, NULL };
	const char *const	other[] = { "--tls", "--cafile", fx.ca,
				    "127.0.0.1", port, NULL };
	const char *const	nofile[] = { "--tls", "--cafile",
				    "/nonexistent/ca.pem", "localhost", port,
				    NULL };
	const char *const	cleartext[] = { "--tls", "--cafile", fx.ca,
				    "localhost", plain, NULL };
	struct player		p = PLAYER_NONE;

	(void)state;
	snprintf(port, sizeof port, "%d", fx.tls_port);
	snprintf(plain, sizeof plain, "%d", fx.port);
	assert_int_equal(tls_client_run(&p, untrusted), 1);
	assert_string_equal(p.errbuf, "ttt-client: refusing localhost: its TLS certificate is not trusted (self-signed certificate); --cafile FILE trusts another authority\n");
	assert_string_equal(p.outbuf, "");
	assert_int_equal(tls_client_run(&p, other), 1);
	assert_string_equal(p.errbuf, "ttt-client: refusing 127.0.0.1: its TLS certificate is not for 127.0.0.1 (IP address mismatch)\n");
	assert_int_equal(tls_client_run(&p, nofile), 1);
	assert_string_equal(p.errbuf, "ttt-client: cannot read --cafile /nonexistent/ca.pem: No such file or directory\n");
	assert_int_equal(tls_client_run(&p, cleartext), 1);
	snprintf(want, sizeof want, "ttt-client: TLS handshake with localhost failed: ");
	if (strncmp(p.errbuf, want, strlen(want)) != 0)
		fail_msg("stderr: \"%s\", not \"%s...\"", p.errbuf, want);
	assert_string_equal(p.outbuf, "");
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_tls_game_client_and_s_client),
		cmocka_unit_test(test_tls_ping_and_healthz),
		cmocka_unit_test(test_tls_client_refuses),
	};

	if (access(TTTD_HAPROXY_PATH, X_OK) != 0 ||
	    access(OPENSSL_PATH, X_OK) != 0) {
		printf("haproxy or openssl is not installed: skipped\n");
		return (77);
	}
	return (cmocka_run_group_tests(tests, tls_setup, tls_teardown));
}
