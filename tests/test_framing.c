/*
 * test_framing.c -- taking lines off a libevent input buffer: correct
 * lines, the limit, and no allocation per line.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <event2/buffer.h>
#include <event2/event.h>

#include "framing.h"

static size_t	test_allocs;

/* libevent's allocator hooks: count, then do the real thing. */
static void *
count_malloc(size_t n)
{
	test_allocs++;
	return (malloc(n));
}

static void *
count_realloc(void *p, size_t n)
{
	test_allocs++;
	return (realloc(p, n));
}

/* Lines come off one at a time, CR kept for the parser, LF dropped. */
static void
test_framing_lines(void **state)
{
	struct evbuffer	*in = evbuffer_new();
	char		 line[PROTO_SCAN_MAX];
	size_t		 len;

	(void)state;
	evbuffer_add_printf(in, "MOVE B2\r\nPING\n\nBOA");
	assert_int_equal(framing_next_line(in, line, &len), PROTO_SCAN_LINE);
	assert_int_equal(len, 8);
	assert_memory_equal(line, "MOVE B2\r", 8);
	assert_int_equal(framing_next_line(in, line, &len), PROTO_SCAN_LINE);
	assert_int_equal(len, 4);
	assert_memory_equal(line, "PING", 4);
	assert_int_equal(framing_next_line(in, line, &len), PROTO_SCAN_LINE);
	assert_int_equal(len, 0);
	assert_int_equal(framing_next_line(in, line, &len), PROTO_SCAN_MORE);
	assert_int_equal(evbuffer_get_length(in), 3);
	evbuffer_add_printf(in, "RD\n");
	assert_int_equal(framing_next_line(in, line, &len), PROTO_SCAN_LINE);
	assert_memory_equal(line, "BOARD", 5);
	assert_int_equal(evbuffer_get_length(in), 0);
	assert_int_equal(framing_next_line(in, line, &len), PROTO_SCAN_MORE);
	evbuffer_free(in);
}

/* 256 bytes + CRLF is a line; 257 bytes with no LF in sight is not. */
static void
test_framing_limit(void **state)
{
	struct evbuffer	*in = evbuffer_new();
	char		 line[PROTO_SCAN_MAX], big[1024];
	size_t		 len;

	(void)state;
	memset(big, 'x', sizeof big);
	evbuffer_add(in, big, PROTO_LINE_MAX);
	evbuffer_add(in, "\r\n", 2);
	assert_int_equal(framing_next_line(in, line, &len), PROTO_SCAN_LINE);
	assert_int_equal(len, PROTO_LINE_MAX + 1);
	assert_int_equal(evbuffer_get_length(in), 0);

	evbuffer_add(in, big, PROTO_LINE_MAX + 1);
	assert_int_equal(framing_next_line(in, line, &len),
	    PROTO_SCAN_TOO_LONG);
	/* Nothing is drained on TOO_LONG: the caller must act. */
	assert_int_equal(evbuffer_get_length(in), PROTO_LINE_MAX + 1);

	/* A LF further on does not rescue an over-long line. */
	evbuffer_add(in, "\n", 1);
	assert_int_equal(framing_next_line(in, line, &len),
	    PROTO_SCAN_TOO_LONG);
	evbuffer_free(in);
}

/* Regression: framing must not allocate per line (evbuffer_readln does). */
static void
test_framing_no_alloc_per_line(void **state)
{
	struct evbuffer	*in = evbuffer_new();
	char		 line[PROTO_SCAN_MAX];
	size_t		 len, before;
	int		 i, n = 0;

	(void)state;
	for (i = 0; i < 1000; i++)
		evbuffer_add_printf(in, "MOVE %c%d\r\n", 'A' + i % 3,
		    1 + i % 3);
	before = test_allocs;
	while (framing_next_line(in, line, &len) == PROTO_SCAN_LINE)
		n++;
	assert_int_equal(n, 1000);
	assert_int_equal(test_allocs - before, 0);

	/* The counter works: evbuffer_readln does allocate per line. */
	for (i = 0; i < 10; i++)
		evbuffer_add_printf(in, "PING\r\n");
	before = test_allocs;
	for (i = 0; i < 10; i++)
		free(evbuffer_readln(in, NULL, EVBUFFER_EOL_CRLF));
	assert_true(test_allocs - before >= 10);
	evbuffer_free(in);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_framing_lines),
		cmocka_unit_test(test_framing_limit),
		cmocka_unit_test(test_framing_no_alloc_per_line),
	};

	event_set_mem_functions(count_malloc, count_realloc, free);
	return (cmocka_run_group_tests(tests, NULL, NULL));
}
