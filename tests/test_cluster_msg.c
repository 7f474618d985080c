/*
 * test_cluster_msg.c -- unit tests for server/cluster-msg.c: a message
 * from another node, and a line of another node's GAMES list, read as
 * whoever can write to the shared Redis might write them: what the nodes
 * send is taken, and a name, address or line a player could not have is
 * refused with its reason.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "cluster-msg.h"

#define INST	"0123456789abcdef"

static enum cluster_msg_error parse(const char *, size_t,
		    struct cluster_msg *);

/* Parse a message of len bytes (NUL-ended, as the daemon's copy is). */
static enum cluster_msg_error
parse(const char *s, size_t len, struct cluster_msg *m)
{
	static char		buf[PROTO_OUT_MAX + 128]; /* m points in */
	enum cluster_msg_error	why = CLUSTER_MSG_NERRORS;
	int			rc;

	assert_true(len < sizeof buf);
	memcpy(buf, s, len);
	buf[len] = '\0';
	rc = cluster_msg_parse(buf, len, m, &why);
	assert_int_equal(rc, why == CLUSTER_MSG_OK ? 0 : -1);
	return (why);
}

#define P(s, m)	parse((s), sizeof (s) - 1, (m))

/* What the nodes send is taken, its head and rest as they were. */
static void
test_cluster_msg_takes_what_nodes_send(void **state)
{
	static const char *const good[] = {
		"O " INST " 12 34",
		"S " INST " 12 34 127.0.0.1:5000 ann",
		"S " INST " 12 34 [::1]:5000 ",
		"S " INST " 12 34 [::1]:5000",
		"N " INST " 7",
		"B " INST " 7",
		"L " INST " 7 3 OK MOVE\r\nBOARD X........\r\n",
		"L " INST " 7 3 ",
		"L " INST " 7 0 INFO Zo\xc3\xab says \xc2\xa1hola!\r\n",
		"C " INST " 7",
		"H " INST " 7 1 ann",
		"H " INST " 7 0 ",
		"M " INST " 7 Zo\xc3\xab",
		"I " INST " 7 4 MOVE B2",
		"I " INST " 7 5 SAY \thi",
		"E " INST " 7 4 3",
		"D " INST " 7 1 1",
		"X " INST " 7 127.0.0.1:5000 ann\tRESUME ABCD-EFGH",
		"X " INST " 7 127.0.0.1:5000 \tWATCH 3",
		"A " INST " 7",
		"R " INST " 7",
		"T " INST " 7 fedcba9876543210",
		"G " INST " 0",
	};
	struct cluster_msg	m;
	size_t			i;

	(void)state;
	for (i = 0; i < sizeof good / sizeof good[0]; i++) {
		if (parse(good[i], strlen(good[i]), &m) != CLUSTER_MSG_OK)
			fail_msg("refused \"%s\"", good[i]);
	}
	assert_int_equal(P("S " INST " 12 34 127.0.0.1:5000 ann", &m),
	    CLUSTER_MSG_OK);
	assert_int_equal(m.type, 'S');
	assert_string_equal(m.from, INST);
	assert_true(m.id == 12);
	assert_int_equal(m.len, strlen("34 127.0.0.1:5000 ann"));
	assert_memory_equal(m.rest, "34 127.0.0.1:5000 ann", m.len);
	assert_int_equal(P("N " INST " 18446744073709551615", &m),
	    CLUSTER_MSG_OK);
	assert_true(m.id == UINT64_MAX && m.len == 0);
}

/* A head that is not "<type> <instance> <id>" is refused. */
static void
test_cluster_msg_refuses_bad_heads(void **state)
{
	static const char *const bad[] = {
		"",
		"Z " INST " 7",				/* no such type */
		"O " INST,
		"O  " INST " 7",
		"O 0123456789ABCDEF 7",			/* upper case */
		"O 0123456789abcdeg 7",
		"O " INST " x",
		"O " INST " -7",
		"O " INST " +7 1",
		"O " INST " 18446744073709551616 1",	/* 2^64 */
		"O " INST " 7x 1",
	};
	struct cluster_msg	m;
	size_t			i;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		if (parse(bad[i], strlen(bad[i]), &m) != CLUSTER_MSG_EHEAD)
			fail_msg("took the head of \"%s\"", bad[i]);
	}
	/* A NUL in the head. */
	assert_int_equal(P("O " INST " 7\0 1", &m), CLUSTER_MSG_EHEAD);
}

/*
 * Names are held to NAME's rules: a CR or LF (it would end the line it
 * goes into), invalid UTF-8, a control, a bidi override, too long; in
 * S, M, H and X alike.
 */
static void
test_cluster_msg_refuses_bad_names(void **state)
{
	static const char *const bad[] = {
		"S " INST " 12 34 127.0.0.1:5000 ann\r\nBYE x",
		"S " INST " 12 34 127.0.0.1:5000 a b",
		"M " INST " 7 ",
		"M " INST " 7 ann\n",
		"M " INST " 7 \xff" "ann",
		"M " INST " 7 a\x01",
		"M " INST " 7 \xe2\x80\xae" "x",
		"M " INST " 7 aaaaaaaaaaaaaaaaa",		/* 17 */
		"M " INST " 7 a\xe2\x80\x8b" "b",		/* invisible */
		"H " INST " 7 1 ann\r",
		"H " INST " 7 1 \xc3",
		"X " INST " 7 127.0.0.1:5000 an\rn\tRESUME ABCD-EFGH",
	};
	struct cluster_msg	m;
	size_t			i;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		if (parse(bad[i], strlen(bad[i]), &m) != CLUSTER_MSG_ENAME)
			fail_msg("took the name of \"%s\"", bad[i]);
	}
}

/*
 * A signed-in player's account and rating travel after its name in S and
 * X ("ann #12:1500"): read back; malformed ones refused (EFORM), a name
 * with a space still a bad name.
 */
static void
test_cluster_msg_who(void **state)
{
	static const char *const bad[] = {
		"S " INST " 12 34 127.0.0.1:5000 ann #0:1500",
		"S " INST " 12 34 127.0.0.1:5000 ann #12",
		"S " INST " 12 34 127.0.0.1:5000 ann #12:",
		"S " INST " 12 34 127.0.0.1:5000 ann #:1500",
		"S " INST " 12 34 127.0.0.1:5000 ann #12:100001",
		"S " INST " 12 34 127.0.0.1:5000 ann #12:1500 ",
		"S " INST " 12 34 127.0.0.1:5000 ann #12:15x0",
		"S " INST " 12 34 127.0.0.1:5000 ann #9223372036854775808:1",
		"S " INST " 12 34 127.0.0.1:5000  #12:1500",
		"X " INST " 7 127.0.0.1:5000 ann #-1:1500\tRESUME ABCD-EFGH",
	};
	struct cluster_who	w;
	struct cluster_msg	m;
	size_t			i;

	(void)state;
	assert_int_equal(P("S " INST " 12 34 127.0.0.1:5000 ann #12:1500", &m),
	    CLUSTER_MSG_OK);
	assert_int_equal(P("X " INST " 7 127.0.0.1:5000 Zo\xc3\xab "
	    "#9223372036854775807:0\tROOM JOIN ABCD-EFGH", &m), CLUSTER_MSG_OK);
	assert_int_equal(cluster_msg_who("ann #12:1500", 12, &w),
	    CLUSTER_MSG_OK);
	assert_string_equal(w.name, "ann");
	assert_true(w.account == 12 && w.rating == 1500);
	assert_int_equal(cluster_msg_who("ann", 3, &w), CLUSTER_MSG_OK);
	assert_string_equal(w.name, "ann");
	assert_true(w.account == 0 && w.rating == 0);
	assert_int_equal(cluster_msg_who("", 0, &w), CLUSTER_MSG_OK);
	assert_true(w.name[0] == '\0' && w.account == 0);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		if (parse(bad[i], strlen(bad[i]), &m) != CLUSTER_MSG_EFORM)
			fail_msg("took the account of \"%s\"", bad[i]);
	}
}

/* An address is printable and short; lines are text, whole, short. */
static void
test_cluster_msg_refuses_bad_addrs_and_lines(void **state)
{
	static const char *const badaddr[] = {
		"S " INST " 12 34 127.0.0.1\x01:5000 ann",
		"S " INST " 12 34  ann",
		("S " INST " 12 34 "
		    "1234567890123456789012345678901234567890123456789012345678901"
		    "234 ann"),
		"X " INST " 7 \x1b[2J ann\tWATCH 1",
	};
	static const char *const badline[] = {
		"L " INST " 7 3 OK MOVE",			/* no CR LF */
		"L " INST " 7 3 OK MOVE\n",			/* no CR */
		"L " INST " 7 3 OK\x1b[2J\r\n",
		"L " INST " 7 3 OK\r\nMORE\x7f\r\n",
		"L " INST " 7 3 \xc0\xaf\r\n",
		"I " INST " 7 4 MOVE B2\r\nQUIT",
		"I " INST " 7 4 MOVE\x01",
		"X " INST " 7 127.0.0.1:5000 ann\tWATCH 1\nQUIT",
	};
	struct cluster_msg	m;
	char			buf[PROTO_OUT_MAX + 64];
	size_t			i, n;

	(void)state;
	for (i = 0; i < sizeof badaddr / sizeof badaddr[0]; i++) {
		if (parse(badaddr[i], strlen(badaddr[i]), &m) !=
		    CLUSTER_MSG_EADDR)
			fail_msg("took the address of \"%s\"", badaddr[i]);
	}
	for (i = 0; i < sizeof badline / sizeof badline[0]; i++) {
		if (parse(badline[i], strlen(badline[i]), &m) !=
		    CLUSTER_MSG_ELINE)
			fail_msg("took the line of \"%s\"", badline[i]);
	}
	/* A line of PROTO_OUT_MAX bytes is longer than any server's. */
	n = (size_t)snprintf(buf, sizeof buf, "L " INST " 7 3 ");
	memset(buf + n, 'a', PROTO_OUT_MAX - 2);
	memcpy(buf + n + PROTO_OUT_MAX - 2, "\r\n", 2);
	assert_int_equal(parse(buf, n + PROTO_OUT_MAX, &m), CLUSTER_MSG_ELINE);
	assert_int_equal(parse(buf, n + 1, &m), CLUSTER_MSG_ELINE);
	memcpy(buf + n + PROTO_OUT_MAX - 3, "\r\n", 2);
	assert_int_equal(parse(buf, n + PROTO_OUT_MAX - 1, &m),
	    CLUSTER_MSG_OK);
	/* A player's line of PROTO_LINE_MAX + 1 bytes. */
	n = (size_t)snprintf(buf, sizeof buf, "I " INST " 7 4 ");
	memset(buf + n, 'a', PROTO_LINE_MAX + 1);
	assert_int_equal(parse(buf, n + PROTO_LINE_MAX + 1, &m),
	    CLUSTER_MSG_ELINE);
	assert_int_equal(parse(buf, n + PROTO_LINE_MAX, &m), CLUSTER_MSG_OK);
}

/* The rest not as its type has it is refused. */
static void
test_cluster_msg_refuses_bad_forms(void **state)
{
	static const char *const bad[] = {
		"O " INST " 7 ",
		"O " INST " 7 x",
		"S " INST " 12 x 127.0.0.1:5000 ann",
		"L " INST " 7 x OK\r\n",
		"H " INST " 7 3 ann",
		"H " INST " 7 1ann",
		"I " INST " 7 MOVE B2",
		"E " INST " 7 4",
		"D " INST " 7 1 x",
		"X " INST " 7 127.0.0.1:5000 ann WATCH 1",
		"T " INST " 7 fedcba987654321",
		"T " INST " 7 FEDCBA9876543210",
	};
	struct cluster_msg	m;
	size_t			i;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		if (parse(bad[i], strlen(bad[i]), &m) != CLUSTER_MSG_EFORM)
			fail_msg("took the form of \"%s\"", bad[i]);
	}
}

/*
 * GAMES lines from Redis: as cluster_ask_games_publish writes them, names
 * NAME's (or a seat's own): a 64-byte name, a CR, a bad count refused.
 */
/*
 * U (an account signed in on that node) and W (a remote seat's new
 * rating) as the nodes send them are taken; an account of 0 or beyond
 * 63 bits, a rating beyond CLUSTER_RATING_MAX, a missing or extra word
 * are not.
 */
static void
test_cluster_msg_accounts(void **state)
{
	static const char *const good[] = {
		"U " INST " 7 42",
		"U " INST " 7 9223372036854775807",
		"W " INST " 7 42 1741",
		"W " INST " 7 42 0",
		"W " INST " 7 42 100000",
	};
	static const char *const bad[] = {
		"U " INST " 7",
		"U " INST " 7 0",
		"U " INST " 7 9223372036854775808",
		"U " INST " 7 42 1",
		"U " INST " 7 -42",
		"W " INST " 7 42",
		"W " INST " 7 0 1500",
		"W " INST " 7 42 100001",
		"W " INST " 7 42 1500 1",
		"W " INST " 7 42 -1",
	};
	struct cluster_msg	m;
	size_t			i;

	(void)state;
	for (i = 0; i < sizeof good / sizeof good[0]; i++) {
		if (parse(good[i], strlen(good[i]), &m) != CLUSTER_MSG_OK)
			fail_msg("refused \"%s\"", good[i]);
	}
	assert_int_equal(P("W " INST " 7 42 1741", &m), CLUSTER_MSG_OK);
	assert_int_equal(m.type, 'W');
	assert_true(m.id == 7);
	assert_memory_equal(m.rest, "42 1741", m.len);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		if (parse(bad[i], strlen(bad[i]), &m) != CLUSTER_MSG_EFORM)
			fail_msg("took \"%s\"", bad[i]);
	}
}

static void
test_cluster_game_parse(void **state)
{
	static const char *const bad[] = {
		"5 ann",
		"5 ann bob 3",
		"5 ann bob 10 0",
		"5 ann bob 3 4",
		"5 ann bob 3 0 x",
		"5 ann\r bob 3 0",
		"5 \xff bob 3 0",
		"5  bob 3 0",
		("5 aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		    " bob 3 0"),
		"x ann bob 3 0",
	};
	struct lobby_game	g;
	size_t			i;

	(void)state;
	assert_int_equal(cluster_msg_game_parse("42 ann Zo\xc3\xab 9 3", 15,
	    &g), 0);
	assert_true(g.id == 42);
	assert_string_equal(g.name[0], "ann");
	assert_string_equal(g.name[1], "Zo\xc3\xab");
	assert_int_equal(g.moves, 9);
	assert_int_equal(g.away, 3);
	assert_int_equal(cluster_msg_game_parse("1 p1 ai 0 0", 11, &g), 0);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		if (cluster_msg_game_parse(bad[i], strlen(bad[i]), &g) != -1)
			fail_msg("took \"%s\"", bad[i]);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cluster_msg_takes_what_nodes_send),
		cmocka_unit_test(test_cluster_msg_refuses_bad_heads),
		cmocka_unit_test(test_cluster_msg_refuses_bad_names),
		cmocka_unit_test(test_cluster_msg_who),
		cmocka_unit_test(test_cluster_msg_refuses_bad_addrs_and_lines),
		cmocka_unit_test(test_cluster_msg_refuses_bad_forms),
		cmocka_unit_test(test_cluster_msg_accounts),
		cmocka_unit_test(test_cluster_game_parse),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
