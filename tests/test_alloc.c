/*
 * test_alloc.c -- the move path allocates nothing: parsing a client line,
 * playing it on the board, and formatting every line a move produces are
 * done with malloc, calloc and realloc wrapped (ld --wrap) and counted.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "proto.h"
#include "ttt.h"

void	*__real_malloc(size_t);
void	*__real_calloc(size_t, size_t);
void	*__real_realloc(void *, size_t);
void	*__wrap_malloc(size_t);
void	*__wrap_calloc(size_t, size_t);
void	*__wrap_realloc(void *, size_t);

static volatile int	counting;	/* volatile: malloc reads it */
static volatile size_t	allocs;

void *
__wrap_malloc(size_t n)
{
	allocs += counting;
	return (__real_malloc(n));
}

void *
__wrap_calloc(size_t n, size_t size)
{
	allocs += counting;
	return (__real_calloc(n, size));
}

void *
__wrap_realloc(void *p, size_t n)
{
	allocs += counting;
	return (__real_realloc(p, n));
}

/*
 * What the server does for one move, minus the socket: parse the line,
 * check and play it, format the reply, the board, the art and the next
 * turn or the result.  Returns the bytes formatted.
 */
static size_t
one_move(struct ttt_board *b, const char *line)
{
	struct proto_cmd	cmd;
	char			buf[PROTO_OUT_MAX];
	size_t			n = 0;
	enum ttt_mark		mover = ttt_board_turn(b);

	if (proto_parse(line, strlen(line), &cmd) != PROTO_OK ||
	    cmd.verb != PROTO_MOVE)
		fail_msg("\"%s\" is no move", line);
	if (ttt_board_play(b, mover, cmd.cell) != TTT_OK)
		fail_msg("\"%s\" cannot be played", line);
	n += (size_t)proto_fmt_ok(buf, sizeof buf, &cmd);
	n += (size_t)proto_fmt_board(buf, sizeof buf, b);
	if (ttt_board_outcome(b) == TTT_ONGOING) {
		n += (size_t)proto_fmt_turn(buf, sizeof buf,
		    ttt_board_turn(b), 1, "alice");
		n += (size_t)proto_fmt_turn(buf, sizeof buf,
		    ttt_board_turn(b), 0, "bob");
	} else {
		n += (size_t)proto_fmt_result(buf, sizeof buf, b, "alice",
		    "bob");
		n += (size_t)proto_fmt_again_question(buf, sizeof buf);
	}
	return (n);
}

/* 1000 whole games, every move, and not one allocation. */
static void
test_alloc_move_path(void **state)
{
	static const char *const	games[][9] = {
		{ "MOVE B2\r", "a1", "MOVE c3", "b1", "c1", "A3", "a2", "C2",
		    "b3" },				/* a tie */
		{ "a1", "b1", "a2", "b2", "A3" },	/* X down column A */
	};
	struct ttt_board		b;
	size_t				g, i, k, bytes = 0;
	void *volatile			p;

	(void)state;
	/* The wrapper counts: a control allocation is seen. */
	counting = 1;
	p = malloc(16);
	counting = 0;
	free(p);
	assert_int_equal(allocs, 1);
	allocs = 0;

	counting = 1;
	for (k = 0; k < 1000; k++) {
		for (g = 0; g < 2; g++) {
			ttt_board_init(&b, TTT_X);
			for (i = 0; i < 9 && games[g][i] != NULL; i++)
				bytes += one_move(&b, games[g][i]);
			if (ttt_board_outcome(&b) == TTT_ONGOING)
				fail_msg("game %zu did not end", g);
		}
	}
	counting = 0;
	assert_true(bytes > 1000 * 1000);
	assert_int_equal(allocs, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alloc_move_path),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
