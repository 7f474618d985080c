/*
 * fuzz_cluster.c -- libFuzzer harness for what reaches a node from the
 * shared Redis: a message from another node (cluster_msg_parse, which
 * cluster.c runs before any handler) and a line of another node's GAMES
 * list (cluster_msg_game_parse, cluster-ask.c).
 *
 * Input: a byte whose low bit picks the message (0) or the GAMES line
 * (1), then the bytes.  A message taken is asserted whole (its rest the
 * end of the message), its names, addresses and lines checked again here
 * by the rules a player's have, and written back in the senders' form
 * and parsed again the same.  A GAMES line taken is formatted as the
 * GAME line a player gets, which must parse as one with the same fields.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cluster-msg.h"
#include "fuzz.h"
#include "proto.h"
#include "utf8.h"

int		LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void	fuzz_name(const char *, size_t, int);
static void	fuzz_who(const char *, size_t);
static void	fuzz_line(const char *, size_t);
static void	fuzz_rest(const struct cluster_msg *);
static void	fuzz_msg(const uint8_t *, size_t);
static void	fuzz_game(const uint8_t *, size_t);

static char	fuzz_buf[CLUSTER_MSG_MAX + 1];
static char	fuzz_again[CLUSTER_MSG_MAX + 64];

/* A name taken: NAME's bytes (or none, where none may be). */
static void
fuzz_name(const char *s, size_t len, int empty)
{
	CHECK((empty && len == 0) || proto_name_valid(s, len));
}

/*
 * A seat's player taken, "<name>[ #<account>:<rating>]": the name NAME's
 * (or none), an account only after a name, its id not 0, its rating at
 * most CLUSTER_RATING_MAX; and cluster_msg_who reads the same back.
 */
static void
fuzz_who(const char *s, size_t len)
{
	const char		*sp = memchr(s, ' ', len), *p, *colon;
	const char		*end = s + len;
	size_t			 n = sp != NULL ? (size_t)(sp - s) : len;
	struct cluster_who	 w;
	unsigned long long	 id = 0, rating = 0;

	fuzz_name(s, n, 1);
	CHECK(cluster_msg_who(s, len, &w) == CLUSTER_MSG_OK);
	CHECK(strlen(w.name) == n && memcmp(w.name, s, n) == 0);
	if (sp == NULL) {
		CHECK(w.account == 0 && w.rating == 0);
		return;
	}
	CHECK(n > 0 && sp + 1 < end && sp[1] == '#');
	CHECK((colon = memchr(sp, ':', (size_t)(end - sp))) != NULL);
	CHECK(colon > sp + 2 && colon + 1 < end);
	for (p = sp + 2; p < colon; p++) {
		CHECK(*p >= '0' && *p <= '9');
		id = id * 10 + (unsigned long long)(*p - '0');
	}
	for (p = colon + 1; p < end; p++) {
		CHECK(*p >= '0' && *p <= '9');
		rating = rating * 10 + (unsigned long long)(*p - '0');
	}
	CHECK(id != 0 && (unsigned long long)w.account == id);
	CHECK(rating <= CLUSTER_RATING_MAX &&
	    (unsigned long long)w.rating == rating);
}

/* A player's line taken: text, no line end, not too long. */
static void
fuzz_line(const char *s, size_t len)
{
	CHECK(len <= PROTO_LINE_MAX && utf8_text(s, len));
	CHECK(memchr(s, '\r', len) == NULL && memchr(s, '\n', len) == NULL);
}

/* The rest of a message taken, checked by the senders' forms again. */
static void
fuzz_rest(const struct cluster_msg *m)
{
	const char	*p = m->rest, *end = m->rest + m->len, *sp, *tab, *lf;

	switch (m->type) {
	case 'S':
		/* "<id> <addr>[ <who>]": the player follows the addr. */
		CHECK((sp = memchr(p, ' ', m->len)) != NULL);
		sp = memchr(sp + 1, ' ', (size_t)(end - sp - 1));
		if (sp != NULL)
			fuzz_who(sp + 1, (size_t)(end - sp - 1));
		break;
	case 'M':
		fuzz_name(p, m->len, 0);
		break;
	case 'H':
		CHECK(m->len >= 2 && p[0] >= '0' && p[0] <= '2');
		fuzz_name(p + 2, m->len - 2, 1);
		break;
	case 'I':
		CHECK((sp = memchr(p, ' ', m->len)) != NULL);
		fuzz_line(sp + 1, (size_t)(end - sp - 1));
		break;
	case 'X':
		CHECK((tab = memchr(p, '\t', m->len)) != NULL);
		CHECK((sp = memchr(p, ' ', m->len)) != NULL && sp < tab);
		fuzz_who(sp + 1, (size_t)(tab - sp - 1));
		fuzz_line(tab + 1, (size_t)(end - tab - 1));
		break;
	case 'U':
	case 'W':
		/* An account, not 0 (and for W a space and its rating). */
		sp = memchr(p, ' ', m->len);
		CHECK((sp != NULL) == (m->type == 'W'));
		if (sp == NULL)
			sp = end;
		else
			CHECK(sp + 1 < end);	/* W's rating */
		CHECK(sp > p);
		CHECK(strspn(p, "0") < (size_t)(sp - p));
		for (; p < end; p++)
			CHECK((*p >= '0' && *p <= '9') || p == sp);
		break;
	case 'L':
		/* Whole CR LF lines of text: what a player may be sent. */
		CHECK((sp = memchr(p, ' ', m->len)) != NULL);
		for (p = sp + 1; p < end; p = lf + 1) {
			CHECK((lf = memchr(p, '\n', (size_t)(end - p))) !=
			    NULL);
			CHECK(lf > p && lf[-1] == '\r');
			CHECK(lf - p < PROTO_OUT_MAX);
			CHECK(utf8_text(p, (size_t)(lf - p - 1)));
		}
		break;
	}
}

/* A message: refused with a reason, or taken whole, checked, the same again. */
static void
fuzz_msg(const uint8_t *data, size_t size)
{
	struct cluster_msg	m, m2;
	enum cluster_msg_error	why = CLUSTER_MSG_NERRORS, why2;
	size_t			n;
	int			i;

	memcpy(fuzz_buf, data, size);
	fuzz_buf[size] = '\0';
	if (cluster_msg_parse(fuzz_buf, size, &m, &why) == -1) {
		CHECK(why > CLUSTER_MSG_OK && why < CLUSTER_MSG_NERRORS);
		return;
	}
	CHECK(why == CLUSTER_MSG_OK);
	CHECK(strchr("OSNBLCHMIEDXARTGUW", m.type) != NULL && m.type != '\0');
	CHECK(strlen(m.from) == CLUSTER_INST_LEN);
	for (i = 0; i < CLUSTER_INST_LEN; i++)
		CHECK(strchr("0123456789abcdef", m.from[i]) != NULL);
	CHECK(m.rest >= fuzz_buf && m.rest + m.len == fuzz_buf + size);
	fuzz_rest(&m);

	/* As cluster_base_send_to writes it: the same message again. */
	n = (size_t)snprintf(fuzz_again, sizeof fuzz_again, "%c %s %llu%s",
	    m.type, m.from, (unsigned long long)m.id, m.len > 0 ? " " : "");
	memcpy(fuzz_again + n, m.rest, m.len);
	n += m.len;
	fuzz_again[n] = '\0';
	CHECK(cluster_msg_parse(fuzz_again, n, &m2, &why2) == 0);
	CHECK(m2.type == m.type && strcmp(m2.from, m.from) == 0 &&
	    m2.id == m.id && m2.len == m.len &&
	    memcmp(m2.rest, m.rest, m.len) == 0);
}

/* A GAMES line: refused, or a GAME line a player can read, the same. */
static void
fuzz_game(const uint8_t *data, size_t size)
{
	struct lobby_game	g;
	struct proto_event	ev;
	char			line[PROTO_OUT_MAX];
	int			n, i;

	if (size > PROTO_OUT_MAX)
		return;
	memcpy(fuzz_buf, data, size);
	fuzz_buf[size] = '\0';
	if (cluster_msg_game_parse(fuzz_buf, size, &g) == -1)
		return;
	for (i = 0; i < 2; i++)
		fuzz_name(g.name[i], strlen(g.name[i]), 0);
	CHECK(g.moves >= 0 && g.moves <= 9 && g.away >= 0 && g.away <= 3);
	n = proto_fmt_game(line, sizeof line, g.id, g.name[0], g.name[1],
	    g.moves, g.away);
	CHECK(n > 2 && line[n - 2] == '\r' && line[n - 1] == '\n');
	CHECK(utf8_text(line, (size_t)n - 2));
	CHECK(proto_event_parse(line, (size_t)n - 2, &ev) == 0);
	CHECK(ev.kind == PROTO_EV_GAME && ev.number == g.id &&
	    strcmp(ev.name, g.name[0]) == 0 &&
	    strcmp(ev.name2, g.name[1]) == 0 && ev.moves == g.moves &&
	    ev.away == g.away);
}

/* One input: a message or a GAMES line. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || size - 1 > CLUSTER_MSG_MAX)
		return (0);
	if (data[0] & 1)
		fuzz_game(data + 1, size - 1);
	else
		fuzz_msg(data + 1, size - 1);
	return (0);
}
