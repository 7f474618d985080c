/*
 * test_stage.c -- server-stage.c, a callback's output staged in the
 * server's arena, on real sockets (socketpairs): pieces per connection, a
 * line after a connection's last piece extending it, what cannot be
 * staged going to the evbuffer in order, and what the kernel does not
 * take (or all, after a write error) moved there too.  Every byte comes
 * out once, in the order it was given.
 */
#include <sys/socket.h>

#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <event2/buffer.h>

#include "server.h"

struct fix {
	struct server		s;
	struct server_client	c[2];
	int			fd[2][2];	/* [client][0: ours, 1: peer] */
};

static int
setup(void **state)
{
	struct fix	*f = calloc(1, sizeof *f);
	int		 i;

	assert_non_null(f);
	assert_int_equal(server_stage_init(&f->s), 0);
	for (i = 0; i < 2; i++) {
		f->c[i].server = &f->s;
		f->c[i].out = evbuffer_new();
		assert_non_null(f->c[i].out);
		assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0,
		    f->fd[i]), 0);
		fcntl(f->fd[i][0], F_SETFL, O_NONBLOCK);
		fcntl(f->fd[i][1], F_SETFL, O_NONBLOCK);
	}
	*state = f;
	return (0);
}

static int
teardown(void **state)
{
	struct fix	*f = *state;
	int		 i;

	for (i = 0; i < 2; i++) {
		evbuffer_free(f->c[i].out);
		if (f->fd[i][0] != -1)
			close(f->fd[i][0]);
		close(f->fd[i][1]);
	}
	server_stage_free(&f->s);
	free(f);
	return (0);
}

static void
add(struct server_client *sc, const char *s)
{
	assert_int_equal(server_stage_add(sc, s, strlen(s)), 0);
}

/* All a peer end has to read now, NUL-ended into buf. */
static size_t
peer_read(int fd, char *buf, size_t size)
{
	size_t	n = 0;
	ssize_t	r;

	while (n + 1 < size && (r = read(fd, buf + n, size - 1 - n)) > 0)
		n += (size_t)r;
	buf[n] = '\0';
	return (n);
}

/* A move's lines, interleaved as match.c sends them, one writev each. */
static void
test_stage_interleaved(void **state)
{
	struct fix	*f = *state;
	char		 buf[256];

	add(&f->c[0], "OK MOVE B2\n");
	add(&f->c[0], "BOARD ....X....\n");	/* follows its piece */
	add(&f->c[1], "BOARD ....X....\n");
	add(&f->c[0], "TURN O wait\n");		/* a piece of its own */
	add(&f->c[1], "TURN O move\n");
	assert_int_equal(f->c[0].nseg, 2);
	assert_int_equal(f->c[1].nseg, 2);
	assert_int_equal(server_stage_len(&f->c[0]),
	    strlen("OK MOVE B2\nBOARD ....X....\nTURN O wait\n"));
	server_stage_write(&f->c[0], f->fd[0][0]);
	server_stage_write(&f->c[1], f->fd[1][0]);
	assert_int_equal(f->c[0].nseg, 0);
	assert_int_equal(evbuffer_get_length(f->c[0].out), 0);
	peer_read(f->fd[0][1], buf, sizeof buf);
	assert_string_equal(buf, "OK MOVE B2\nBOARD ....X....\nTURN O wait\n");
	peer_read(f->fd[1][1], buf, sizeof buf);
	assert_string_equal(buf, "BOARD ....X....\nTURN O move\n");
	server_stage_reset(&f->s);
	assert_int_equal(f->s.stage_used, 0);
}

/*
 * A piece more than SERVER_STAGE_SEGS is refused; spilled, the pieces
 * go first to the evbuffer; then nothing more is staged while the
 * evbuffer holds output.
 */
static void
test_stage_too_many_pieces(void **state)
{
	struct fix	*f = *state;
	char		 line[16], want[256] = "", buf[256];
	int		 i;

	for (i = 0; i < SERVER_STAGE_SEGS; i++) {
		snprintf(line, sizeof line, "A%d\n", i);
		add(&f->c[0], line);
		strcat(want, line);
		add(&f->c[1], "x\n");		/* breaks A's piece */
	}
	assert_int_equal(server_stage_add(&f->c[0], "A9\n", 3), -1);
	server_stage_spill(&f->c[0]);
	assert_int_equal(f->c[0].nseg, 0);
	evbuffer_add(f->c[0].out, "A9\n", 3);
	strcat(want, "A9\n");
	assert_int_equal(server_stage_add(&f->c[0], "A10\n", 4), -1);
	assert_int_equal(evbuffer_write(f->c[0].out, f->fd[0][0]),
	    (int)strlen(want));
	peer_read(f->fd[0][1], buf, sizeof buf);
	assert_string_equal(buf, want);
}

/* The arena full: refused, and the other connection's bytes stay. */
static void
test_stage_arena_full(void **state)
{
	struct fix	*f = *state;
	char		*big = malloc(SERVER_STAGE_MAX);

	assert_non_null(big);
	memset(big, 'b', SERVER_STAGE_MAX);
	assert_int_equal(server_stage_add(&f->c[1], big,
	    SERVER_STAGE_MAX - 2), 0);
	assert_int_equal(server_stage_add(&f->c[0], "abc", 3), -1);
	assert_int_equal(server_stage_add(&f->c[0], "ab", 2), 0);
	assert_int_equal(server_stage_len(&f->c[1]), SERVER_STAGE_MAX - 2);
	assert_int_equal(f->s.stage_used, SERVER_STAGE_MAX);
	free(big);
}

/*
 * What the kernel does not take goes to the evbuffer, from the first
 * byte it did not take: the peer gets every byte once, in order.
 */
static void
test_stage_partial_write(void **state)
{
	struct fix	*f = *state;
	size_t		 total = 0, got = 0, i;
	char		 line[1000], *want, *seen;
	int		 small = 4096;

	setsockopt(f->fd[0][0], SOL_SOCKET, SO_SNDBUF, &small, sizeof small);
	want = malloc(SERVER_STAGE_MAX);
	seen = malloc(SERVER_STAGE_MAX + 1);
	assert_non_null(want);
	assert_non_null(seen);
	for (i = 0; i < 64 * sizeof line; i += sizeof line) {
		memset(line, 'a' + (int)(i / sizeof line) % 26, sizeof line);
		assert_int_equal(server_stage_add(&f->c[0], line,
		    sizeof line), 0);
		if (i / sizeof line % 16 == 15)
			add(&f->c[1], "-");	/* four pieces */
		memcpy(want + total, line, sizeof line);
		total += sizeof line;
	}
	assert_int_equal(f->c[0].nseg, SERVER_STAGE_SEGS);
	server_stage_write(&f->c[0], f->fd[0][0]);
	assert_int_equal(f->c[0].nseg, 0);
	assert_true(evbuffer_get_length(f->c[0].out) > 0);	/* refused */
	assert_true(evbuffer_get_length(f->c[0].out) < total);
	while (got < total) {
		got += peer_read(f->fd[0][1], seen + got,
		    SERVER_STAGE_MAX + 1 - got);
		if (evbuffer_get_length(f->c[0].out) > 0)
			evbuffer_write(f->c[0].out, f->fd[0][0]);
	}
	assert_int_equal(got, total);
	assert_memory_equal(seen, want, total);
	free(want);
	free(seen);
}

/* A write that fails (the peer gone): all of it waits in the evbuffer. */
static void
test_stage_write_error(void **state)
{
	struct fix	*f = *state;

	add(&f->c[0], "OK MOVE A1\n");
	add(&f->c[1], "x");
	add(&f->c[0], "TURN X\n");
	close(f->fd[0][1]);
	f->fd[0][1] = socket(AF_UNIX, SOCK_STREAM, 0);	/* for teardown */
	server_stage_write(&f->c[0], f->fd[0][0]);
	assert_int_equal(f->c[0].nseg, 0);
	assert_int_equal(evbuffer_get_length(f->c[0].out),
	    strlen("OK MOVE A1\nTURN X\n"));
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test_setup_teardown(test_stage_interleaved,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_stage_too_many_pieces,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_stage_arena_full,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_stage_partial_write,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_stage_write_error,
		    setup, teardown),
	};

	signal(SIGPIPE, SIG_IGN);
	return (cmocka_run_group_tests(tests, NULL, NULL));
}
