/*
 * test_match_keep.c -- a match's image (server/match-keep.c) as a line and
 * back: format, parse and format again give the same line and the same
 * image, field by field (the board, whose turn, the game's number, the
 * score, the answers, the tie notice, each seat's hold, tokens, clock
 * left and name in UTF-8); an image restored into a lobby and taken
 * again is the same image; the widest image fits MATCH_KEEP_MAX; a rated
 * record kept alone (its match ended) as a line and back.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lobby.h"
#include "match.h"
#include "match-keep.h"

#define KEEP_IMAGES	5

static int64_t	fake_clock = 5000000;

static int64_t
fake_now(void)
{
	return (fake_clock);
}

static void
fake_random(void *buf, size_t len)
{
	memset(buf, 7, len);
}

static void
fake_wake(struct lobby *lobby)
{
	(void)lobby;
}

static const struct lobby_host fake_ops = {
	fake_now, fake_random, fake_wake
};

/*
 * A resume token's key, as tokens are kept: its eight characters of the
 * code alphabet, end to end (an image with any other is refused).
 */
static uint64_t
keep_tok(const char *code)
{
	uint64_t	k;

	memcpy(&k, code, sizeof k);
	return (k);
}

/*
 * A 32-byte name in UTF-8 that NAME takes (16 characters at most): "Zoë"
 * and nine CJK characters, filled.
 */
#define NAME_UTF8_32	"Zo\xc3\xab" "\xe6\x9d\x8e\xe5\xb0\x8f\xe9\xbe\x8d" \
			"\xe5\xbc\xb5\xe5\x81\x89\xe7\x8e\x8b" \
			"\xe8\x8a\xb3\xe5\x8a\x89\xe6\xb4\x8b" "a"

/* Images that differ in every field from one another and within. */
static void
images(struct match_keep *k, size_t *n)
{
	struct match_keep	*p;

	memset(k, 0, KEEP_IMAGES * sizeof *k);
	/* Game 2, X to move, X has 13.5 s of its turn left; 1-0 to O. */
	p = &k[0];
	p->ai = MATCH_HUMAN;
	p->state = MATCH_PLAYING;
	p->board.x = 0x001;			/* A1 */
	p->board.o = 0x010;			/* B2 */
	p->board.turn = TTT_X;
	p->board.outcome = TTT_ONGOING;
	p->board.last = 4;
	p->answer[0] = p->answer[1] = MATCH_UNANSWERED;
	p->winner = TTT_O;
	p->games = 2;
	p->score[0] = 0;
	p->score[1] = 1;
	p->score[2] = 0;
	p->tie_told = 0;
	p->seat[0] = (struct match_keep_seat){ 1, 1, keep_tok("23456789"),
	    keep_tok("ABCDEFGH"), 13500, "", 0 };
	p->seat[1] = (struct match_keep_seat){ 1, 1, keep_tok("JKMNPQRS"),
	    0, 0, "", 0 };
	snprintf(p->seat[0].name, sizeof p->seat[0].name, "ann");
	snprintf(p->seat[1].name, sizeof p->seat[1].name, "%s", NAME_UTF8_32);

	/* Asking after game 7: O said yes, X has not; 3-2, 1 tie, told. */
	p = &k[1];
	p->ai = MATCH_HUMAN;
	p->state = MATCH_ASKING;
	p->board.x = 0x054;			/* C1 B2 A3 */
	p->board.o = 0x003;			/* A1 B1 */
	p->board.turn = TTT_X;			/* the mover's, once won */
	p->board.outcome = TTT_WIN_X;
	p->board.last = 6;
	p->answer[0] = MATCH_UNANSWERED;
	p->answer[1] = 1;
	p->winner = TTT_X;
	p->games = 7;
	p->score[0] = 3;
	p->score[1] = 2;
	p->score[2] = 1;
	p->tie_told = 1;
	p->seat[0] = (struct match_keep_seat){ 1, 0, keep_tok("TUVWXYZ2"), keep_tok("3456789A"), 41000,
	    "", 0 };
	p->seat[1] = (struct match_keep_seat){ 1, 1, keep_tok("BCDEFGHJ"), keep_tok("KMNPQRST"), 0, "", 0 };
	snprintf(p->seat[0].name, sizeof p->seat[0].name,
	    "\xd0\xbf\xd0\xb5\xd1\x82\xd1\x8f");	/* петя */
	/* seat 1 unnamed: "=" */
	/* X signed in as account 12; game 7's rated record not committed. */
	p->seat[0].account = 12;
	p->pending.game = 7;
	p->pending.account[0] = 12;
	p->pending.account[1] = 0;	/* gone: by its seat's name */
	p->pending.winner = TTT_X;
	p->pending.how = MATCH_END_LINE;
	p->pending.at = 1700000000;
	memcpy(p->pending.moves, "\4\0\2\1\6", 5);
	p->pending.nmoves = 5;

	/* The computer (easy) as O, X to move with 2 ms left. */
	p = &k[2];
	p->ai = PROTO_LEVEL_EASY;
	p->state = MATCH_PLAYING;
	p->board.x = 0x100;
	p->board.o = 0x001;
	p->board.turn = TTT_X;
	p->board.outcome = TTT_ONGOING;
	p->board.last = 0;
	p->answer[0] = p->answer[1] = MATCH_UNANSWERED;
	p->winner = TTT_EMPTY;
	p->games = 1;
	p->seat[0] = (struct match_keep_seat){ 1, 1, keep_tok("UVWXYZ23"), 0, 2, "", 0 };
	p->seat[1] = (struct match_keep_seat){ 1, 1, 0, 0, 0, "", 0 };
	snprintf(p->seat[0].name, sizeof p->seat[0].name, "bob");
	snprintf(p->seat[1].name, sizeof p->seat[1].name, "computer");

	/* After game 3 (a tie), O left for good, X not answered yet. */
	p = &k[3];
	p->ai = MATCH_HUMAN;
	p->state = MATCH_ASKING;
	p->board.x = 0x18d;			/* X O X / X O O / O X X */
	p->board.o = 0x072;
	p->board.turn = TTT_X;			/* X filled it */
	p->board.outcome = TTT_DRAW;
	p->board.last = 7;
	p->answer[0] = p->answer[1] = MATCH_UNANSWERED;
	p->winner = TTT_EMPTY;
	p->games = 3;
	p->score[0] = 1;
	p->score[1] = 0;
	p->score[2] = 2;
	p->tie_told = 1;
	p->seat[0] = (struct match_keep_seat){ 1, 1, keep_tok("456789AB"), keep_tok("CDEFGHJK"), 0,
	    "", 0 };
	p->seat[1] = (struct match_keep_seat){ 0, 1, 0, 0, 0, "", 0 };
	snprintf(p->seat[0].name, sizeof p->seat[0].name, "caf\xc3\xa9");
	snprintf(p->seat[1].name, sizeof p->seat[1].name, "dan");

	/* The widest: every number at its widest, names of 32 bytes. */
	p = &k[4];
	p->ai = PROTO_LEVEL_PERFECT;
	p->state = MATCH_PLAYING;
	p->board.x = 0x101;			/* A1 C3: three digits */
	p->board.o = 0x082;			/* B1 B3 */
	p->board.turn = TTT_X;
	p->board.outcome = TTT_ONGOING;
	p->board.last = 7;
	p->answer[0] = p->answer[1] = MATCH_UNANSWERED;
	p->winner = TTT_EMPTY;
	p->games = UINT32_MAX;
	p->score[0] = UINT32_MAX;
	p->score[1] = UINT32_MAX - 1;
	p->score[2] = UINT32_MAX - 2;
	p->tie_told = 1;
	p->seat[0] = (struct match_keep_seat){ 1, 1, keep_tok("ZZZZZZZZ"),
	    keep_tok("ZZZZZZZY"), INT64_MAX, "", 0 };
	p->seat[1] = (struct match_keep_seat){ 1, 1, keep_tok("ZZZZZZZX"),
	    keep_tok("ZZZZZZZW"), INT64_MAX - 1, "", 0 };
	snprintf(p->seat[0].name, sizeof p->seat[0].name, "%s", NAME_UTF8_32);
	snprintf(p->seat[1].name, sizeof p->seat[1].name, "%s", NAME_UTF8_32);
	*n = KEEP_IMAGES;
}

/* Two images are the same, field by field (the id is the host's). */
static void
same(const struct match_keep *a, const struct match_keep *b)
{
	int	i;

	assert_int_equal(a->ai, b->ai);
	assert_int_equal(a->state, b->state);
	assert_int_equal(a->board.x, b->board.x);
	assert_int_equal(a->board.o, b->board.o);
	assert_int_equal(a->board.turn, b->board.turn);
	assert_int_equal(a->board.outcome, b->board.outcome);
	assert_int_equal(a->board.last, b->board.last);
	assert_int_equal(a->answer[0], b->answer[0]);
	assert_int_equal(a->answer[1], b->answer[1]);
	assert_int_equal(a->winner, b->winner);
	assert_int_equal(a->games, b->games);
	assert_int_equal(a->score[0], b->score[0]);
	assert_int_equal(a->score[1], b->score[1]);
	assert_int_equal(a->score[2], b->score[2]);
	assert_int_equal(a->tie_told, b->tie_told);
	for (i = 0; i < 2; i++) {
		assert_int_equal(a->seat[i].held, b->seat[i].held);
		assert_int_equal(a->seat[i].moved, b->seat[i].moved);
		assert_true(a->seat[i].token == b->seat[i].token);
		assert_true(a->seat[i].used == b->seat[i].used);
		assert_true(a->seat[i].left == b->seat[i].left);
		assert_string_equal(a->seat[i].name, b->seat[i].name);
		assert_true(a->seat[i].account == b->seat[i].account);
	}
	assert_int_equal(a->pending.game, b->pending.game);
	assert_true(a->pending.account[0] == b->pending.account[0]);
	assert_true(a->pending.account[1] == b->pending.account[1]);
	assert_int_equal(a->pending.winner, b->pending.winner);
	assert_int_equal(a->pending.how, b->pending.how);
	assert_true(a->pending.at == b->pending.at);
	assert_int_equal(a->pending.nmoves, b->pending.nmoves);
	assert_memory_equal(a->pending.moves, b->pending.moves,
	    a->pending.nmoves);
}

/*
 * format -> parse -> format: the same line, the same image; and the
 * first image's line, byte for byte, as match-keep.c documents it.
 */
static void
test_keep_round_trip(void **state)
{
	struct match_keep	k[KEEP_IMAGES], back;
	char			line[MATCH_KEEP_MAX], again[MATCH_KEEP_MAX];
	size_t			i, n;
	int			len;

	(void)state;
	images(k, &n);
	for (i = 0; i < n; i++) {
		len = match_keep_fmt(&k[i], line, sizeof line);
		if (len <= 0 || (size_t)len >= sizeof line)
			fail_msg("image %zu: no line (%d)", i, len);
		assert_int_equal(strlen(line), (size_t)len);
		if (match_keep_parse(line, &back, NULL) != 0)
			fail_msg("image %zu: \"%s\" refused", i, line);
		same(&k[i], &back);
		assert_int_equal(match_keep_fmt(&back, again, sizeof again),
		    len);
		assert_string_equal(line, again);
	}
	assert_int_equal(match_keep_fmt(&k[0], line, sizeof line) > 0, 1);
	assert_string_equal(line, "1 -1 0 1 16 1 0 4 -1 -1 2 2 0 1 0 0 "
	    "1 1 3938373635343332 4847464544434241 13500 =ann "
	    "1 1 535251504e4d4b4a 0 0 =" NAME_UTF8_32);
	assert_int_equal(match_keep_fmt(&k[1], line, sizeof line) > 0, 1);
	assert_string_equal(line, "2 -1 1 84 3 1 1 6 -1 1 1 7 3 2 1 1 "
	    "1 0 325a595857565554 4139383736353433 41000 "
	    "=\xd0\xbf\xd0\xb5\xd1\x82\xd1\x8f "
	    "1 1 4a48474645444342 54535251504e4d4b 0 = "
	    "12 0 7 12 0 1 0 1700000000 40216");
	/* Accounts without a record: version 2, the record's number 0. */
	memset(&k[1].pending, 0, sizeof k[1].pending);
	k[1].seat[1].account = 5;
	assert_int_equal(match_keep_fmt(&k[1], line, sizeof line) > 0, 1);
	assert_non_null(strstr(line, "= 12 5 0"));
	assert_int_equal(match_keep_parse(line, &back, NULL), 0);
	same(&k[1], &back);
}

/*
 * The widest image of version 2 (accounts and a record of nine moves, every
 * number at its widest) fits MATCH_KEEP_MAX and comes back the same.
 */
static void
test_keep_widest_record(void **state)
{
	struct match_keep	k[KEEP_IMAGES], back;
	char			line[MATCH_KEEP_MAX];
	int			i;

	(void)state;
	images(k, &(size_t){ 0 });
	k[4].ai = MATCH_HUMAN;
	for (i = 0; i < 2; i++) {
		k[4].seat[i].account = INT64_MAX - i;
		k[4].pending.account[i] = INT64_MAX - i;
	}
	k[4].pending.game = UINT32_MAX;
	k[4].pending.winner = TTT_EMPTY;
	k[4].pending.how = MATCH_END_GONE_TIME;
	k[4].pending.at = INT64_MAX;
	for (i = 0; i < TTT_CELLS; i++)
		k[4].pending.moves[i] = (uint8_t)(TTT_CELLS - 1 - i);
	k[4].pending.nmoves = TTT_CELLS;
	assert_true(match_keep_fmt(&k[4], line, sizeof line) > 0);
	assert_int_equal(match_keep_parse(line, &back, NULL), 0);
	same(&k[4], &back);
}

/*
 * A record the match cannot have: a later game than the match's, a cell
 * twice, a way to end out of range, a negative account; and version 2's
 * fields on a line of version 1, or missing from one of version 2.
 */
static void
test_keep_record_refused(void **state)
{
	struct match_keep	k[KEEP_IMAGES], back;
	char			line[MATCH_KEEP_MAX];
	enum match_keep_error	why;
	char			*p;

	(void)state;
	images(k, &(size_t){ 0 });
	k[1].pending.game = 8;
	assert_true(match_keep_fmt(&k[1], line, sizeof line) > 0);
	assert_int_equal(match_keep_parse(line, &back, &why), -1);
	assert_int_equal(why, MATCH_KEEP_ERANGE);
	images(k, &(size_t){ 0 });
	k[1].pending.moves[1] = 4;
	assert_true(match_keep_fmt(&k[1], line, sizeof line) > 0);
	assert_int_equal(match_keep_parse(line, &back, &why), -1);
	images(k, &(size_t){ 0 });
	k[1].pending.how = (enum match_end)(MATCH_END_GONE_TIME + 1);
	assert_true(match_keep_fmt(&k[1], line, sizeof line) > 0);
	assert_int_equal(match_keep_parse(line, &back, &why), -1);
	images(k, &(size_t){ 0 });
	k[1].seat[1].account = -3;
	assert_true(match_keep_fmt(&k[1], line, sizeof line) > 0);
	assert_int_equal(match_keep_parse(line, &back, &why), -1);
	images(k, &(size_t){ 0 });
	assert_true(match_keep_fmt(&k[1], line, sizeof line) > 0);
	line[0] = '1';
	assert_int_equal(match_keep_parse(line, &back, &why), -1);
	assert_int_equal(why, MATCH_KEEP_ESYNTAX);
	assert_true(match_keep_fmt(&k[0], line, sizeof line) > 0);
	line[0] = '2';
	assert_int_equal(match_keep_parse(line, &back, &why), -1);
	assert_int_equal(why, MATCH_KEEP_ESYNTAX);
	/* Version 2 with its record cut after the time. */
	images(k, &(size_t){ 0 });
	assert_true(match_keep_fmt(&k[1], line, sizeof line) > 0);
	assert_non_null(p = strrchr(line, ' '));
	*p = '\0';
	assert_int_equal(match_keep_parse(line, &back, &why), -1);
}

/* A buffer one byte short of a line: -1, never a line cut short. */
static void
test_keep_fmt_short_buffer(void **state)
{
	struct match_keep	k[KEEP_IMAGES];
	char			line[MATCH_KEEP_MAX];
	size_t			i, n;
	int			len;

	(void)state;
	images(k, &n);
	for (i = 0; i < n; i++) {
		len = match_keep_fmt(&k[i], line, sizeof line);
		assert_true(len > 0);
		assert_int_equal(match_keep_fmt(&k[i], line, (size_t)len + 1),
		    len);
		assert_int_equal(match_keep_fmt(&k[i], line, (size_t)len), -1);
	}
}

/*
 * Restored into a lobby and taken again, an image is the same: the
 * mover's clock left and the away seats' tokens survive (an AGAIN? clock
 * is whole again: 0), and each seat is away, its grace from now and its
 * running clock bound by what was left and one grace period.
 */
static void
test_keep_restore_take(void **state)
{
	struct lobby_limits	 l;
	struct lobby		 lobby;
	struct match_keep	 k[KEEP_IMAGES], got;
	struct match		*m;
	size_t			 i, n;

	(void)state;
	images(k, &n);
	lobby_default_limits(&l);
	lobby_init(&lobby, &fake_ops, &l, 7);
	for (i = 0; i < KEEP_IMAGES - 1; i++) {
		k[i].id = 100 + i;
		if (k[i].state == MATCH_ASKING)
			k[i].seat[0].left = 0;
		assert_non_null(m = match_keep_restore(&lobby, &k[i], NULL));
		assert_true(m->id == 100 + i);
		match_keep_take(m, &got);
		assert_true(got.id == 100 + i);
		same(&k[i], &got);
	}
	/* Image 0: X's turn, 13.5 s left, then the grace. */
	m = keytab_find(&lobby.ids, 100);
	assert_non_null(m);
	assert_non_null(m->seat[0].away);
	assert_non_null(m->seat[1].away);
	assert_int_equal(m->seat[0].away->until, fake_clock + l.grace_ms);
	assert_int_equal(m->seat[0].clock_by, fake_clock + 13500 + l.grace_ms);
	assert_int_equal(m->seat[1].clock_by, 0);
	/* Image 1: X's AGAIN? open (all of it), O has said yes. */
	m = keytab_find(&lobby.ids, 101);
	assert_int_equal(m->seat[0].clock_by,
	    fake_clock + l.again_ms + l.grace_ms);
	assert_int_equal(m->seat[1].clock_by, 0);
	assert_null(match_keep_restore(&lobby, &k[0], NULL));	/* once */
	lobby_free(&lobby);
}

/*
 * A record kept alone (its match ended before the commit): its line and
 * back are the same record, names included, at its widest within
 * MATCH_KEEP_MAX; one without a name, with a cell twice or cut short is
 * refused.
 */
static void
test_keep_record_alone(void **state)
{
	struct match_record	r, back;
	char			line[MATCH_KEEP_MAX], bad[MATCH_KEEP_MAX];
	enum match_keep_error	why;
	int			i;

	(void)state;
	memset(&r, 0, sizeof r);
	for (i = 0; i < 2; i++)
		r.account[i] = INT64_MAX - i;
	r.game = UINT32_MAX;
	r.winner = TTT_O;
	r.how = MATCH_END_QUIT;
	r.at = INT64_MAX;
	for (i = 0; i < TTT_CELLS; i++)
		r.moves[i] = (uint8_t)i;
	r.nmoves = TTT_CELLS;
	snprintf(r.name[0], sizeof r.name[0], "alice");
	snprintf(r.name[1], sizeof r.name[1], "%s",
	    "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
	    "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9");
	assert_true(match_keep_record_fmt(&r, line, sizeof line) > 0);
	assert_int_equal(match_keep_record_parse(line, &back, &why), 0);
	assert_int_equal(why, MATCH_KEEP_OK);
	assert_memory_equal(&r, &back, sizeof r);
	r.game = 0;
	assert_int_equal(match_keep_record_fmt(&r, line, sizeof line), -1);

	assert_int_equal(match_keep_record_parse("1 2 3 1 2 2 5 1700000000 "
	    "40 =alice =bob", &back, &why), 0);
	assert_string_equal(back.name[1], "bob");
	assert_int_equal(back.nmoves, 2);
	snprintf(bad, sizeof bad, "1 2 3 1 2 2 5 1700000000 40 =alice =");
	assert_int_equal(match_keep_record_parse(bad, &back, &why), -1);
	assert_int_equal(why, MATCH_KEEP_ENAME);
	snprintf(bad, sizeof bad, "1 2 3 1 2 2 5 1700000000 44 =alice =bob");
	assert_int_equal(match_keep_record_parse(bad, &back, &why), -1);
	assert_int_equal(why, MATCH_KEEP_ERANGE);
	snprintf(bad, sizeof bad, "1 2 3 1 2 2 5 1700000000 40 =alice");
	assert_int_equal(match_keep_record_parse(bad, &back, &why), -1);
	assert_int_equal(why, MATCH_KEEP_ESYNTAX);
	snprintf(bad, sizeof bad, "1 2 0 =alice =bob");
	assert_int_equal(match_keep_record_parse(bad, &back, &why), -1);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_keep_round_trip),
		cmocka_unit_test(test_keep_widest_record),
		cmocka_unit_test(test_keep_record_refused),
		cmocka_unit_test(test_keep_record_alone),
		cmocka_unit_test(test_keep_fmt_short_buffer),
		cmocka_unit_test(test_keep_restore_take),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
