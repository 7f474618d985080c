/*
 * test_telnet.c -- a connection's telnet (server/telnet.c) without
 * sockets: what it takes out of the bytes read, what it answers, the
 * interrupt, escaping, and the bounds that end a connection.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "telnet.h"
#include "telnet_bytes.h"

/* What the telnet wrote, and what the last tn_recv gave. */
struct fix {
	struct tn	*tn;
	char		 wrote[8192];
	size_t		 nwrote;
	char		 data[8192];
	size_t		 ndata;
	int		 flags;
};

static void
fix_write(void *arg, const char *buf, size_t len)
{
	struct fix	*f = arg;

	assert_true(f->nwrote + len <= sizeof f->wrote);
	memcpy(f->wrote + f->nwrote, buf, len);
	f->nwrote += len;
}

static int
setup(void **state)
{
	struct fix	*f = calloc(1, sizeof *f);

	if (f == NULL || (f->tn = tn_new(fix_write, f)) == NULL)
		return (-1);
	*state = f;
	return (0);
}

static int
teardown(void **state)
{
	struct fix	*f = *state;

	tn_free(f->tn);
	free(f);
	return (0);
}

/* Bytes read: the data out of them, and the marks answered after. */
static void
recv_bytes(struct fix *f, const char *buf, size_t len)
{
	f->ndata = tn_recv(f->tn, buf, len, f->data, &f->flags);
	assert_true(f->ndata <= len);
	tn_marks(f->tn);
}
#define RECV(f, s)	recv_bytes((f), (s), sizeof (s) - 1)

/* The telnet wrote exactly these bytes since the last check. */
static void
wrote(struct fix *f, const char *want, size_t len)
{
	if (f->nwrote != len || memcmp(f->wrote, want, len) != 0)
		fail_msg("wrote %zu bytes, want %zu", f->nwrote, len);
	f->nwrote = 0;
}
#define WROTE(f, s)	wrote((f), (s), sizeof (s) - 1)

static void
data(struct fix *f, const char *want, size_t len)
{
	if (f->ndata != len || memcmp(f->data, want, len) != 0)
		fail_msg("data \"%.*s\", want \"%.*s\"", (int)f->ndata,
		    f->data, (int)len, want);
}
#define DATA(f, s)	data((f), (s), sizeof (s) - 1)

/* Only an IAC byte starts telnet. */
static void
test_telnet_starts_at_iac(void **state)
{
	(void)state;
	assert_false(tn_starts("PING\r\n", 6));
	assert_false(tn_starts("\xfe\xfd\x06\x80", 4));
	assert_true(tn_starts("PI\xffNG", 5));
	assert_false(tn_starts("\xff", 0));
}

/* Negotiation is taken out of the data; each option is refused. */
static void
test_telnet_refuses_and_strips(void **state)
{
	struct fix	*f = *state;

	RECV(f, IAC DO "\x01" "MO" IAC WILL "\x1f" "VE B2\r\n" IAC WONT "\x01"
	    IAC DONT "\x03");
	DATA(f, "MOVE B2\r\n");
	WROTE(f, IAC WONT "\x01" IAC DONT "\x1f");
	assert_int_equal(f->flags, 0);
	/* A subnegotiation goes, and IAC IAC is one 0xff of data. */
	RECV(f, "A" IAC SB "\x18\x00xterm" IAC SE "B" IAC IAC "C" IAC NOP);
	DATA(f, "AB\xff" "C");
	WROTE(f, "");
}

/* Every DO TIMING-MARK is answered, after the data before it. */
static void
test_telnet_every_mark_answered(void **state)
{
	struct fix	*f = *state;
	int		 i;

	for (i = 0; i < 3; i++) {
		RECV(f, IAC DO O_TM);
		WROTE(f, IAC WILL O_TM);
	}
	/* Answered by tn_marks, not while the bytes are read. */
	f->ndata = tn_recv(f->tn, "X\n" IAC DO O_TM IAC DO O_TM, 8, f->data,
	    &f->flags);
	WROTE(f, "");
	tn_marks(f->tn);
	WROTE(f, IAC WILL O_TM IAC WILL O_TM);
	/* DONT TIMING-MARK needs no answer. */
	RECV(f, IAC DONT O_TM);
	WROTE(f, "");
}

/* A command split over reads is put together. */
static void
test_telnet_split_commands(void **state)
{
	struct fix	*f = *state;

	RECV(f, "PI" IAC);
	DATA(f, "PI");
	RECV(f, DO);
	DATA(f, "");
	WROTE(f, "");
	RECV(f, O_TM "NG\r\n" IAC);
	DATA(f, "NG\r\n");
	WROTE(f, IAC WILL O_TM);
	RECV(f, IAC "\n");
	DATA(f, "\xff\n");
}

/* IAC IP: the interrupt, data after it dropped; the next read is new. */
static void
test_telnet_interrupt(void **state)
{
	struct fix	*f = *state;

	RECV(f, "PING\r\nMO" IAC IP "VE" IAC DO O_TM);
	DATA(f, "PING\r\nMO");
	assert_int_equal(f->flags, TN_INTERRUPT);
	WROTE(f, IAC WILL O_TM);
	RECV(f, "PING\r\n");
	DATA(f, "PING\r\n");
	assert_int_equal(f->flags, 0);
}

/* Sent bytes: an IAC is doubled, nothing else changes. */
static void
test_telnet_send_escapes(void **state)
{
	struct fix	*f = *state;

	tn_send(f->tn, "OK\xff" "A\xff\xff\r\n", 8);
	WROTE(f, "OK\xff\xff" "A\xff\xff\xff\xff\r\n");
	tn_send(f->tn, "HELLO\r\n", 7);
	WROTE(f, "HELLO\r\n");
}

/*
 * Up to TN_COMMANDS_MAX bytes of commands without a line end among the
 * data; more break the connection.  A line end starts the count anew.
 */
static void
test_telnet_commands_bounded(void **state)
{
	struct fix	*f = *state;
	char		 buf[256];
	int		 i;

	for (i = 0; i < (int)sizeof buf; i += 2)
		memcpy(buf + i, IAC NOP, 2);
	for (i = 0; i < TN_COMMANDS_MAX / 256; i++)
		recv_bytes(f, buf, sizeof buf);
	assert_int_equal(f->flags, 0);
	RECV(f, "x\n");
	for (i = 0; i < TN_COMMANDS_MAX / 256; i++)
		recv_bytes(f, buf, sizeof buf);
	assert_int_equal(f->flags, 0);
	recv_bytes(f, buf, 2);
	assert_int_equal(f->flags, TN_BROKEN);
	/* Broken: nothing more is read or written. */
	RECV(f, "PING\r\n" IAC DO O_TM);
	assert_int_equal(f->ndata, 0);
	WROTE(f, "");
}

/* A subnegotiation that does not end is broken at the same bound. */
static void
test_telnet_endless_subnegotiation(void **state)
{
	struct fix	*f = *state;
	char		 buf[200];
	int		 i;

	RECV(f, IAC SB "\x18");
	memset(buf, '\n', sizeof buf);
	for (i = 0; i < 5 && f->flags == 0; i++)
		recv_bytes(f, buf, sizeof buf);
	assert_int_equal(f->flags, 0);
	for (i = 0; i < 10 && f->flags == 0; i++)
		recv_bytes(f, buf, sizeof buf);
	assert_int_equal(f->flags, TN_BROKEN);
}

/* Compression turned on unasked: broken, and no inflated data out. */
static void
test_telnet_compression_breaks(void **state)
{
	struct fix	*f = *state;

	/* zlib's "PING\r\nPING\r\n". */
	RECV(f, "PING\r\n" IAC SB "\x56" IAC SE "\x78\x9c\x0b\xf0\xf4\x73"
	    "\xe7\xe5\x0a\x00\x93\x00\x12\xa6\x02\x8b");
	assert_int_equal(f->flags, TN_BROKEN);
	assert_int_equal(f->ndata, 0);
	WROTE(f, "");
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_telnet_starts_at_iac),
		T(test_telnet_refuses_and_strips),
		T(test_telnet_every_mark_answered),
		T(test_telnet_split_commands),
		T(test_telnet_interrupt),
		T(test_telnet_send_escapes),
		T(test_telnet_commands_bounded),
		T(test_telnet_endless_subnegotiation),
		T(test_telnet_compression_breaks),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
