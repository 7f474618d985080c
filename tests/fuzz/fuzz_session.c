/*
 * fuzz_session.c -- libFuzzer harness for whole connections without
 * sockets: a lobby with fake ops and a fake clock, a few client slots, and
 * the input read as a script of connects, bytes in, time passing and
 * drops, with the game world's invariants checked after every step.
 *
 * Input: six bytes of limits and seed (whose bits set the limits of
 * protocol.md §9 too), then steps.  A step is an opcode byte, its low two
 * bits a slot and its high bits what to do (the FUZZ_OP_* below), and the
 * step's argument bytes.
 *
 * With FUZZ_TRACE set in the environment, the script and all output are
 * printed: run the harness on one input to see what it does.
 *
 * Built twice more, as other harnesses with the same invariants:
 * fuzz_keep (FUZZ_KEEP) reads a match image first, one line as Redis
 * holds it (match-keep.c), or if the script does not begin with '1', an
 * image built from its bytes (a board of moves played, fields from lists
 * of good and bad values), and takes the match up in the lobby before the
 * steps, its tokens the slots' to RESUME with; fuzz_telnet_line
 * (FUZZ_TELNET) reads a slot's bytes as the daemon does once a client
 * speaks telnet: through telnet.c, its data to the line scanner, IAC IP
 * as Ctrl-C, a broken telnet the end of the connection.
 */
#include <sys/queue.h>

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>

#include "conn.h"
#include "fuzz.h"
#include "lobby.h"
#include "log.h"
#include "match.h"
#include "session.h"
#include "utf8.h"
#ifdef FUZZ_KEEP
#include "keytab.h"
#include "match-keep.h"
#endif
#ifdef FUZZ_TELNET
#include "telnet.h"
#endif


#define FUZZ_SLOTS	4
#define FUZZ_CALLS_MAX	1000	/* conn_input calls for one chunk: a hang */

enum fuzz_op {
	FUZZ_OP_CONNECT,	/* a new client in a free slot */
	FUZZ_OP_BYTES,		/* arg n, then n bytes of input */
	FUZZ_OP_LINE,		/* arg: one of fuzz_lines */
	FUZZ_OP_TIME,		/* arg: 100 ms steps; every client's timer */
	FUZZ_OP_DROP,		/* the connection breaks: lost, freed */
	FUZZ_OP_EOF,		/* the peer half-closes: lost, closing */
	FUZZ_OP_REAP,		/* closed clients are freed */
	FUZZ_OP_REFUSE,		/* a client refused, SERVER_FULL */
	FUZZ_OP_SHUTDOWN,	/* the server stops: every client BYE */
	FUZZ_OP_INTERRUPT,	/* telnet's IAC IP (Ctrl-C): conn_interrupt */
	FUZZ_NOPS
};

/*
 * Lines a player types, so that games are played without luck.  New lines
 * go at the end: a seed's argument below the old count keeps its line.
 * The FUZZ_DYN ones are built when sent, from what the server sent before:
 * RESUME with the last token a slot was given (its own or another's, for a
 * takeover), ROOM JOIN with the last room code handed out.
 */
enum fuzz_dyn {
	FUZZ_DYN_NONE,
	FUZZ_DYN_RESUME0,	/* .. FUZZ_DYN_RESUME0 + FUZZ_SLOTS - 1 */
	FUZZ_DYN_ROOM = FUZZ_DYN_RESUME0 + FUZZ_SLOTS
};

#define L(s)	{ (s), sizeof (s) - 1, FUZZ_DYN_NONE }
#define D(k)	{ NULL, 0, (k) }
static const struct fuzz_line {
	const char	*s;
	size_t		 len;
	enum fuzz_dyn	 dyn;
} fuzz_lines[] = {
	L("a1\n"), L("b1\n"), L("c1\n"), L("a2\n"), L("b2\r\n"), L("c2\n"),
	L("a3\n"), L("b3\n"), L("c3\n"), L("y\n"), L("n\n"), L("AGAIN y\n"),
	L("MOVE B2\n"), L("NAME alice\n"), L("NAME bob\r\n"), L("BOARD\n"),
	L("HELP\n"), L("PING\n"), L("QUIT\n"), L("\n"),
	L("GET / HTTP/1.1\r\n"), L("MOV"), L("\r\n"), L("move d4\n"),
	L("NAME x\xff\n"), L("\0\n"), L("a1\na2\na3\nb1\nb2\nb3\nc1\nc2\nc3\n"),
	/* 27: protocol.md §9 */
	L("ROOM NEW\n"), L("ROOM JOIN 234567\n"), L("GAMES\n"), L("WATCH 1\n"),
	L("WATCH 2\n"), L("UNWATCH\n"), L("RESUME ABCD-EFGH\n"), L("PLAY AI\n"),
	L("PLAY AI easy\n"), L("SAY hi\n"), L("RESIGN\n"), L("PLAY XX\n"),
	L("ROOM\n"), L("SAY \tx\n"),
	/* 41: built when sent */
	D(FUZZ_DYN_RESUME0), D(FUZZ_DYN_RESUME0 + 1), D(FUZZ_DYN_RESUME0 + 2),
	D(FUZZ_DYN_RESUME0 + 3), D(FUZZ_DYN_ROOM),
	/* 46: names and chat in UTF-8: Zoë, ZOË, ¡hola!, RLO, fullwidth p1 */
	L("NAME Zo\xc3\xab\n"), L("NAME ZO\xc3\x8b\n"),
	L("SAY \xc2\xa1hola!\n"), L("NAME \xe2\x80\xae" "x\n"),
	L("NAME \xef\xbd\x90\xef\xbc\x91\n"),
	/* 51: the counters; a line cut short, then the rest */
	L("STATS\n"), L("SAY hello the"), L(" whole room\n"),
};
#undef D
#undef L

struct fuzz_slot {
	struct client	*c;
	struct evbuffer	*in;
	size_t		 sent;		/* bytes of output */
	int		 closed;	/* closing: no more output */
	int		 bye;		/* BYE was sent */
#ifdef FUZZ_TELNET
	struct tn	*tn;		/* once it speaks telnet */
#endif
};

struct fuzz_script {
	const uint8_t	*p;
	size_t		 left;
};

int		LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static struct fuzz_slot	*fuzz_slot_of(const struct client *);
static void	fuzz_send(struct client *, const char *, size_t);
static void	fuzz_close(struct client *);
static void	fuzz_rearm(struct client *, int64_t);
static int64_t	fuzz_clock(void);
static uint8_t	fuzz_byte(struct fuzz_script *);
static void	fuzz_connect(int, int);
static void	fuzz_free(int);
static void	fuzz_feed(int, const uint8_t *, size_t);
static int	fuzz_chunk(int, const uint8_t *, size_t);
#ifdef FUZZ_KEEP
static void	fuzz_keep(struct fuzz_script *);
static void	fuzz_keep_board(const struct ttt_board *);
static void	fuzz_keep_build(struct fuzz_script *, char *, size_t);
#endif
#ifdef FUZZ_TELNET
static void	fuzz_tn_write(void *, const char *, size_t);
#endif
static void	fuzz_time(int64_t);
static void	fuzz_check_world(void);
static void	fuzz_logv(const char *, va_list);

static void	fuzz_random(void *, size_t);
static void	fuzz_wake(struct lobby *);

static const struct client_ops fuzz_client_ops = {
	fuzz_send,
	fuzz_close,
	fuzz_rearm,
	NULL,
	NULL
};
static const struct lobby_host fuzz_ops = {
	fuzz_clock,
	fuzz_random,
	fuzz_wake
};

static struct lobby		fuzz_lobby;
static struct fuzz_slot		fuzz_slots[FUZZ_SLOTS];
static int64_t			fuzz_now;
static uint64_t			fuzz_next_id;
static int			fuzz_trace = -1;
/* The last token sent to each slot, kept after it is freed; the last code. */
static char			fuzz_tokens[FUZZ_SLOTS][PROTO_TOKEN_LEN + 2];
static char			fuzz_room[PROTO_CODE_LEN + 2];

/*
 * The logs, silenced for speed but still formatted (so that bad arguments
 * show); client bytes must reach them as text: printable ASCII, or the
 * UTF-8 of a name, with no control or bidi character.
 */
static void
fuzz_logv(const char *fmt, va_list ap)
{
	char	buf[1024];
	size_t	len;
	int	n;

	n = vsnprintf(buf, sizeof buf, fmt, ap);
	CHECK(n >= 0);
	len = utf8_trim(buf, (size_t)n < sizeof buf ? (size_t)n :
	    sizeof buf - 1);		/* what fits, whole characters */
	CHECK(utf8_text(buf, len) && memchr(buf, '\t', len) == NULL);
}

/* Every level's line, to fuzz_logv. */
void
log_at(enum log_level level, const char *fmt, ...)
{
	va_list	ap;

	(void)level;
	va_start(ap, fmt);
	fuzz_logv(fmt, ap);
	va_end(ap);
}

/* Debug lines are on, so that their arguments are built and checked. */
int
log_debugging(void)
{
	return (1);
}

/* An impossible state in the game logic: a finding. */
void
fatalx(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

/* The slot of a live client; the ops are never called for another. */
static struct fuzz_slot *
fuzz_slot_of(const struct client *c)
{
	int	i;

	for (i = 0; i < FUZZ_SLOTS; i++) {
		if (fuzz_slots[i].c == c && c != NULL)
			return (&fuzz_slots[i]);
	}
	CHECK(!"an op for a client that is not connected");
	return (NULL);
}

/*
 * The send op: whole CRLF lines of text (UTF-8, no control, no bidi, no
 * TAB), each a well-formed server line; nothing once closing or after BYE.
 */
static void
fuzz_send(struct client *c, const char *buf, size_t len)
{
	struct fuzz_slot	*s = fuzz_slot_of(c);
	struct proto_event	 ev;
	size_t			 i, start;

	if (fuzz_trace)
		fprintf(stderr, "%d < %.*s", (int)(s - fuzz_slots), (int)len,
		    buf);
	CHECK(!s->closed && !s->bye);
	CHECK(!(c->flags & CLIENT_CLOSING));
	CHECK(len >= 2 && len < PROTO_OUT_MAX);
	CHECK(buf[len - 2] == '\r' && buf[len - 1] == '\n');
	if (s->sent == 0)
		CHECK(strncmp(buf, "HELLO ", 6) == 0 ||
		    strncmp(buf, "ERR ", 4) == 0);
	for (start = 0, i = 0; i < len; i++) {
		if (buf[i] == '\r') {
			CHECK(i + 1 < len && buf[i + 1] == '\n');
			CHECK(utf8_text(buf + start, i - start));
			CHECK(proto_event_parse(buf + start, i - start,
			    &ev) == 0);
			CHECK(ev.kind != PROTO_EV_UNKNOWN);
			if (ev.kind == PROTO_EV_ERR)
				CHECK(ev.error != PROTO_NERRORS);
			if (ev.kind == PROTO_EV_BYE)
				s->bye = 1;
			if (ev.kind == PROTO_EV_TOKEN)
				snprintf(fuzz_tokens[s - fuzz_slots],
				    sizeof fuzz_tokens[0], "%s", ev.code);
			if (ev.kind == PROTO_EV_OK && ev.verb == PROTO_ROOM)
				snprintf(fuzz_room, sizeof fuzz_room, "%s",
				    ev.code);
			i++;
			start = i + 1;
		} else
			CHECK(buf[i] != '\t' && buf[i] != '\n');
	}
	s->sent += len;
}

/* The close op: once, for a client that is already marked closing. */
static void
fuzz_close(struct client *c)
{
	struct fuzz_slot	*s = fuzz_slot_of(c);

	CHECK(!s->closed);
	CHECK(c->flags & CLIENT_CLOSING);
	s->closed = 1;
	evbuffer_drain(s->in, evbuffer_get_length(s->in));
}

/*
 * The rearm op: the next deadline, none (0) or a time since the start (a
 * clock may be overdue by a moment: the timer then runs it at once).
 */
static void
fuzz_rearm(struct client *c, int64_t at)
{
	(void)fuzz_slot_of(c);
	CHECK(at >= 0);
}

/* The now op: the fake clock, moved only by FUZZ_OP_TIME. */
static int64_t
fuzz_clock(void)
{
	return (fuzz_now);
}

/* The random op: a fixed sequence (codes and tokens must still differ). */
static void
fuzz_random(void *buf, size_t len)
{
	static uint64_t	 x = 88172645463325252ULL;
	unsigned char	*p = buf;

	while (len-- > 0) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		*p++ = (unsigned char)x;
	}
}

/* The wake op: the lobby's deadline is never in the past. */
static void
fuzz_wake(struct lobby *lobby)
{
	int64_t	at = lobby_next_deadline(lobby);

	CHECK(at == 0 || at >= fuzz_now);
}

/* The next script byte; 0 once the script is over. */
static uint8_t
fuzz_byte(struct fuzz_script *sc)
{
	if (sc->left == 0)
		return (0);
	sc->left--;
	return (*sc->p++);
}

/* A connection arrives in a free slot: greeted, or refused. */
static void
fuzz_connect(int i, int refuse)
{
	struct fuzz_slot	*s = &fuzz_slots[i];
	struct client		*c;
	struct evbuffer		*in;

	if (s->c != NULL)
		return;
	if ((c = calloc(1, sizeof *c)) == NULL || (in = evbuffer_new()) == NULL)
		abort();
	memset(s, 0, sizeof *s);
	s->c = c;
	s->in = in;
	c->id = ++fuzz_next_id;
	c->ops = &fuzz_client_ops;
	snprintf(c->addr, sizeof c->addr, "192.0.2.%d:%d", i, 40000 + i);
	if (refuse) {
		session_refuse(&fuzz_lobby, c, PROTO_ESERVER_FULL);
		CHECK(s->closed);
	} else
		session_open(&fuzz_lobby, c);
}

/* Free a connection the way server-client.c does: lost, then freed. */
static void
fuzz_free(int i)
{
	struct fuzz_slot	*s = &fuzz_slots[i];

	if (s->c == NULL)
		return;
	session_lost(s->c);
	evbuffer_free(s->in);
#ifdef FUZZ_TELNET
	if (s->tn != NULL)
		tn_free(s->tn);
#endif
	free(s->c);
	memset(s, 0, sizeof *s);
}

/*
 * Bytes arrive as the daemon reads them: at most one legal line and its CR
 * LF is held at a time.
 */
static void
fuzz_feed(int i, const uint8_t *p, size_t len)
{
	struct fuzz_slot	*s = &fuzz_slots[i];
	size_t			 room, n;

	while (s->c != NULL && len > 0 && !s->closed) {
		room = PROTO_SCAN_MAX - evbuffer_get_length(s->in);
		CHECK(room > 0 && room <= PROTO_SCAN_MAX);
		n = len < room ? len : room;
		if (fuzz_trace)
			fprintf(stderr, "%d > %zu bytes: %.*s\n", i, n, (int)n,
			    (const char *)p);
		if (fuzz_chunk(i, p, n) == -1)
			return;
		p += n;
		len -= n;
	}
}

#ifdef FUZZ_TELNET
/* What telnet answers the client (WILL TIMING-MARK, WONT, DONT). */
static void
fuzz_tn_write(void *arg, const char *buf, size_t len)
{
	(void)arg;
	CHECK(len > 0 && buf != NULL);
}
#endif

/*
 * One read: with nothing pending it goes to conn_input_bytes and only
 * what it leaves is buffered; then conn_input runs until it has taken all
 * it can.  A closing client's input is thrown away.  With FUZZ_TELNET,
 * the read goes through the slot's telnet first, as server-client.c has
 * it: -1 when that broke the connection (the slot is freed).
 */
static int
fuzz_chunk(int i, const uint8_t *p, size_t n)
{
	struct fuzz_slot	*s = &fuzz_slots[i];
	size_t			 used;
	int			 calls, more, tnflags = 0;
#ifdef FUZZ_TELNET
	char			 data[PROTO_SCAN_MAX];

	if (s->tn != NULL || tn_starts((const char *)p, n)) {
		if (s->tn == NULL && (s->tn = tn_new(fuzz_tn_write, s)) ==
		    NULL)
			abort();
		n = tn_recv(s->tn, (const char *)p, n, data, &tnflags);
		CHECK(n <= PROTO_SCAN_MAX);
		if (tnflags & TN_BROKEN) {
			fuzz_free(i);
			fuzz_check_world();
			return (-1);
		}
		p = (const uint8_t *)data;
	}
#endif
	more = 1;
	if (evbuffer_get_length(s->in) == 0) {
		used = conn_input_bytes(s->c, (const char *)p, n, &more);
		CHECK(used <= n);
		CHECK(used == n || !(s->c->flags & CLIENT_CLOSING));
		if (evbuffer_add(s->in, p + used, n - used) == -1)
			abort();
	} else if (evbuffer_add(s->in, p, n) == -1)
		abort();
	for (calls = 0; more && conn_input(s->c, s->in); calls++)
		CHECK(calls < FUZZ_CALLS_MAX);
#ifdef FUZZ_TELNET
	/* Ctrl-C: the line being typed and what is not yet run go. */
	if (s->tn != NULL && !(s->c->flags & CLIENT_CLOSING)) {
		tn_marks(s->tn);
		if (tnflags & TN_INTERRUPT) {
			conn_interrupt(s->c, s->in);
			CHECK(evbuffer_get_length(s->in) == 0);
		}
	}
#else
	(void)tnflags;
#endif
	if (s->c->flags & CLIENT_CLOSING)
		CHECK(s->closed);
	else
		CHECK(evbuffer_get_length(s->in) < PROTO_SCAN_MAX);
	/* An over-long line is skipped, never held, and bounded. */
	CHECK(s->c->line_skipped < CONN_FLOOD_MAX);
	if (s->c->line_skipped != 0 && !s->closed)
		CHECK(evbuffer_get_length(s->in) == 0 &&
		    (s->c->line_deadline != 0 ||
		    fuzz_lobby.limits.line_ms <= 0));
	fuzz_check_world();
	return (0);
}

#ifdef FUZZ_KEEP
/*
 * A board taken from an image is one play makes, by a count of its own:
 * the marks alternate, the outcome is what the eight lines and a full
 * board say, the mark to move is the one that did not move last.
 */
static void
fuzz_keep_board(const struct ttt_board *b)
{
	static const int	line[8][3] = {
		{ 0, 1, 2 }, { 3, 4, 5 }, { 6, 7, 8 }, { 0, 3, 6 },
		{ 1, 4, 7 }, { 2, 5, 8 }, { 0, 4, 8 }, { 2, 4, 6 }
	};
	int			nx = 0, no = 0, xw = 0, ow = 0, i, j, x, o;

	CHECK((b->x & b->o) == 0);
	for (i = 0; i < 9; i++) {
		nx += (b->x >> i) & 1;
		no += (b->o >> i) & 1;
	}
	for (i = 0; i < 8; i++) {
		for (x = o = 1, j = 0; j < 3; j++) {
			x &= (b->x >> line[i][j]) & 1;
			o &= (b->o >> line[i][j]) & 1;
		}
		xw |= x;
		ow |= o;
	}
	CHECK(nx - no <= 1 && no - nx <= 1 && !(xw && ow));
	CHECK(b->outcome == (xw ? TTT_WIN_X : ow ? TTT_WIN_O :
	    nx + no == 9 ? TTT_DRAW : TTT_ONGOING));
	if (b->outcome == TTT_ONGOING && nx != no)
		CHECK(b->turn == (nx > no ? TTT_O : TTT_X));
}

/*
 * An image built from script bytes, for scripts that do not begin with one
 * as text ('1'): a board from moves played (so that most are boards of
 * play), the rest of the fields and the names and tokens picked from
 * lists of good and bad ones, one field spoilt if a flag says so.
 */
static void
fuzz_keep_build(struct fuzz_script *sc, char *line, size_t size)
{
	static const char *const names[] = {
		"", "ann", "Zo\xc3\xab", "p1", "ai", "bob", "an\rn", "\xff",
		"aaaaaaaaaaaaaaaaa", ("\xe2\x80\xae" "x"), "a b", "a\x01"
	};
	static const char *const tokens[] = {
		"", "ABCDEFGH", "23456789", "JKMNPQRS", "TUVWXYZ2", "ABCDEF01",
		"abcdefgh"
	};
	struct match_keep	k;
	uint8_t			f, g, moves;
	int			i;

	f = fuzz_byte(sc);
	g = fuzz_byte(sc);
	memset(&k, 0, sizeof k);
	k.ai = (int)(fuzz_byte(sc) % 3) - 1;
	ttt_board_init(&k.board, (f & 1) ? TTT_O : TTT_X);
	moves = fuzz_byte(sc) % 10;
	for (i = 0; i < moves; i++)
		(void)ttt_board_play(&k.board, ttt_board_turn(&k.board),
		    fuzz_byte(sc) % TTT_CELLS);
	k.state = (ttt_board_outcome(&k.board) != TTT_ONGOING) ^
	    ((f >> 1) & 1) ? MATCH_ASKING : MATCH_PLAYING;
	k.answer[0] = (f & 4) ? 1 : MATCH_UNANSWERED;
	k.answer[1] = (f & 8) ? 1 : MATCH_UNANSWERED;
	k.winner = (f & 16) ? fuzz_byte(sc) % 3 :
	    (int)ttt_board_winner(&k.board);
	k.games = 1 + fuzz_byte(sc) % 4;
	for (i = 0; i < 3; i++)
		k.score[i] = fuzz_byte(sc) % 4;
	k.tie_told = (f >> 5) & 1;
	for (i = 0; i < 2; i++) {
		k.seat[i].held = !((g >> i) & 1);
		k.seat[i].moved = (g >> (2 + i)) & 1;
		k.seat[i].token = keytab_code(tokens[fuzz_byte(sc) % 7]);
		k.seat[i].used = keytab_code(tokens[fuzz_byte(sc) % 7]);
		k.seat[i].left = (int64_t)fuzz_byte(sc) * 1000;
		snprintf(k.seat[i].name, sizeof k.seat[i].name, "%s",
		    names[fuzz_byte(sc) % 12]);
	}
	if (g & 0x80)		/* a cell, the turn or the last cell spoilt */
		switch (fuzz_byte(sc) % 3) {
		case 0:
			k.board.x ^= (uint16_t)(1u << (fuzz_byte(sc) % 9));
			break;
		case 1:
			k.board.turn = (uint8_t)(3 - k.board.turn);
			break;
		default:
			k.board.last = fuzz_byte(sc) % (TTT_CELLS + 1);
			break;
		}
	if (match_keep_fmt(&k, line, size) < 0)
		line[0] = '\0';
}

/*
 * The image of a match, its first line: refused with a reason, or its line
 * again the same (format, parse, format), and taken up in the empty lobby
 * with both seats away, their tokens the slots' to RESUME with.
 */
static void
fuzz_keep(struct fuzz_script *sc)
{
	struct match_keep	 k, k2;
	enum match_keep_error	 why = MATCH_KEEP_NERRORS;
	struct match		*m;
	const uint8_t		*lf = memchr(sc->p, '\n', sc->left);
	char			 line[MATCH_KEEP_MAX + 64];
	char			 a[MATCH_KEEP_MAX], b[MATCH_KEEP_MAX];
	size_t			 n = lf != NULL ? (size_t)(lf - sc->p) : sc->left;
	uint64_t		 tok[4];
	int			 i, j;

	if (sc->left > 0 && sc->p[0] != '1') {
		fuzz_keep_build(sc, line, sizeof line);
	} else {
		memcpy(line, sc->p, n < sizeof line ? n : sizeof line - 1);
		line[n < sizeof line ? n : sizeof line - 1] = '\0';
		sc->p += n + (lf != NULL);
		sc->left -= n + (lf != NULL);
	}
	if (fuzz_trace)
		fprintf(stderr, "-- image: %s\n", line);
	if (match_keep_parse(line, &k, &why) == -1) {
		CHECK(why > MATCH_KEEP_OK && why <= MATCH_KEEP_ETOKEN);
		return;
	}
	CHECK(why == MATCH_KEEP_OK);
	CHECK(match_keep_fmt(&k, a, sizeof a) > 0);
	CHECK(match_keep_parse(a, &k2, &why) == 0);
	CHECK(match_keep_fmt(&k2, b, sizeof b) > 0);
	CHECK(strcmp(a, b) == 0);
	for (i = 0; i < 2; i++)
		CHECK(k.seat[i].name[0] == '\0' || proto_name_valid(
		    k.seat[i].name, strlen(k.seat[i].name)));
	fuzz_keep_board(&k.board);
	/* Its resume tokens, each at most once. */
	tok[0] = k.seat[0].token;
	tok[1] = k.seat[0].used;
	tok[2] = k.seat[1].token;
	tok[3] = k.seat[1].used;
	for (i = 0; i < 4; i++) {
		for (j = 0; j < i; j++)
			CHECK(tok[i] == 0 || tok[i] != tok[j]);
	}
	/* The id the lobby would give next: its next match must skip it. */
	k.id = fuzz_lobby.next_match_id;
	if ((m = match_keep_restore(&fuzz_lobby, &k, &why)) == NULL) {
		CHECK(why == MATCH_KEEP_EEMPTY);
		return;
	}
	CHECK(why == MATCH_KEEP_OK && m->id == k.id);
	for (i = 0; i < 2; i++) {
		memcpy(fuzz_tokens[i], &k.seat[i].token, sizeof k.seat[i].token);
		memcpy(fuzz_tokens[i + 2], &k.seat[i].used,
		    sizeof k.seat[i].used);
	}
	fuzz_check_world();
}
#endif

/*
 * Time passes: every client's timer runs (whether due or not, which must
 * be harmless), after which no deadline is left in the past.
 */
static void
fuzz_time(int64_t ms)
{
	int64_t	next;
	int	i;

	fuzz_now += ms;
	if (fuzz_trace)
		fprintf(stderr, "-- %lld ms later\n", (long long)ms);
	for (i = 0; i < FUZZ_SLOTS; i++) {
		if (fuzz_slots[i].c != NULL)
			conn_timer(fuzz_slots[i].c);
		fuzz_check_world();
	}
	next = lobby_next_deadline(&fuzz_lobby);
	if (next != 0 && next <= fuzz_now) {
		lobby_expire(&fuzz_lobby);
		fuzz_check_world();
	}
	next = lobby_next_deadline(&fuzz_lobby);
	CHECK(next == 0 || next > fuzz_now);
	for (i = 0; i < FUZZ_SLOTS; i++) {
		if (fuzz_slots[i].c == NULL)
			continue;
		next = client_deadline(fuzz_slots[i].c);
		CHECK(next == 0 || next > fuzz_now);
	}
}

/*
 * The world agrees with itself: the queue and its count, matches and their
 * players pointing at each other, flags and clocks.
 */
static void
fuzz_check_world(void)
{
	struct client		*c;
	struct match		*m, *prev;
	struct match_absence	*a;
	struct fuzz_slot	*s;
	int64_t			 until;
	unsigned		 nqueued = 0, nlive;
	int			 i, found;

	TAILQ_FOREACH(c, &fuzz_lobby.queue, queue_entry) {
		(void)fuzz_slot_of(c);
		CHECK(c->place == PLACE_QUEUE);
		CHECK(!(c->flags & CLIENT_FRESH));
		CHECK(c->match == NULL);
		nqueued++;
	}
	CHECK(nqueued == fuzz_lobby.nqueued);
	/* New connections, not yet paired: in the order they came. */
	until = 0;
	TAILQ_FOREACH(c, &fuzz_lobby.fresh, queue_entry) {
		(void)fuzz_slot_of(c);
		CHECK(c->place == PLACE_QUEUE);
		CHECK(c->flags & CLIENT_FRESH);
		CHECK(c->queued_at >= until);
		until = c->queued_at;
		nqueued++;
	}
	CHECK(nqueued == fuzz_lobby.nqueued + fuzz_lobby.nfresh);
	nlive = 0;
	TAILQ_FOREACH(m, &fuzz_lobby.matches, entry) {
		/* Live (GAMES, WATCH): exactly while both seats are taken. */
		CHECK(match_live(m) == (match_seat_taken(m, 0) &&
		    match_seat_taken(m, 1)));
		nlive += match_live(m);
		/* Someone is in it: connected, or away and may come back. */
		CHECK(m->player[0] != NULL || m->player[1] != NULL ||
		    m->seat[0].away != NULL || m->seat[1].away != NULL);
		CHECK(m->player[0] == NULL || m->player[0] != m->player[1]);
		if (m->state == MATCH_PLAYING)
			CHECK(ttt_board_outcome(&m->board) == TTT_ONGOING);
		for (i = 0; i < 2; i++) {
			CHECK(!(m->player[i] != NULL &&
			    m->seat[i].away != NULL));
			/*
			 * A game goes on without a connected player only for
			 * one away or the computer, or beside a closing one.
			 */
			if ((c = m->player[i]) == NULL) {
				if (m->state == MATCH_PLAYING &&
				    !match_seat_taken(m, i))
					CHECK(m->player[!i]->flags &
					    CLIENT_CLOSING);
				continue;
			}
			(void)fuzz_slot_of(c);
			CHECK(c->match == m && c->seat == i);
		}
	}
	CHECK(nlive == fuzz_lobby.nlive);
	/* The live list: exactly the live matches, oldest first. */
	nlive = 0;
	prev = NULL;
	TAILQ_FOREACH(m, &fuzz_lobby.live, live_entry) {
		CHECK(match_live(m));
		CHECK(prev == NULL || prev->id < m->id);
		prev = m;
		nlive++;
	}
	CHECK(nlive == fuzz_lobby.nlive);
	/* The seats held for lost players, in the order of their ends. */
	until = 0;
	TAILQ_FOREACH(a, &fuzz_lobby.away, entry) {
		CHECK(a->until >= until);
		CHECK(a->match->seat[a->seat].away == a);
		until = a->until;
	}
	for (i = 0; i < FUZZ_SLOTS; i++) {
		s = &fuzz_slots[i];
		if ((c = s->c) == NULL)
			continue;
		CHECK(!!(c->flags & CLIENT_CLOSING) == s->closed);
		nqueued -= c->place == PLACE_QUEUE;
		/* Its place, and only that place, holds it. */
		CHECK((c->place == PLACE_MATCH) == (c->match != NULL));
		CHECK((c->place == PLACE_ROOM) == (c->room != NULL));
		CHECK((c->place == PLACE_WATCH) == (c->watching != NULL));
		if (c->match != NULL) {
			found = 0;
			TAILQ_FOREACH(m, &fuzz_lobby.matches, entry)
				found |= m == c->match;
			CHECK(found && c->match->player[c->seat] == c);
		}
		if (c->flags & CLIENT_CLOSING)
			continue;
		switch (c->clock) {
		case CLIENT_CLOCK_NONE:
			break;
		case CLIENT_CLOCK_IDLE:
			CHECK(c->place == PLACE_QUEUE);
			break;
		case CLIENT_CLOCK_TURN:
			m = c->match;
			CHECK(m != NULL && m->state == MATCH_PLAYING);
			CHECK(ttt_board_turn(&m->board) == match_mark(c));
			break;
		case CLIENT_CLOCK_AGAIN:
			m = c->match;
			CHECK(m != NULL && m->state == MATCH_ASKING);
			CHECK(m->answer[c->seat] == MATCH_UNANSWERED);
			break;
		case CLIENT_CLOCK_ROOM:
			/* Waiting in its own room, and doing nothing else. */
			CHECK(c->room != NULL);
			CHECK(c->place == PLACE_ROOM);
			CHECK(c->match == NULL && c->watching == NULL);
			break;
		default:
			CHECK(!"clock out of range");
		}
	}
	/* Every client marked as queued is in the queue. */
	CHECK(nqueued == 0);
}

/* One script: a fresh lobby, the steps, then everyone gone and freed. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_script	 sc = { data, size };
	struct lobby_limits	 limits;
	const struct fuzz_line	*line;
	uint8_t			 op, arg, seed;
	size_t			 n;
	int			 i;
	char			 dyn[64];

	/*
	 * Limits: 0 turns one off, else 100 ms steps; a rate 0-15 a second.
	 * The seed byte also sets the §9 limits: bits 0-1 the resume grace,
	 * 2-3 the room time, 4-5 the AI offer (each 0, 5, 10 or 15 s), bit 6
	 * the half second before a new connection is paired (else at once),
	 * bit 7 --early-draw.
	 */
	lobby_default_limits(&limits);
	limits.line_ms = fuzz_byte(&sc) * 100;
	limits.turn_ms = fuzz_byte(&sc) * 100;
	limits.again_ms = fuzz_byte(&sc) * 100;
	limits.idle_ms = fuzz_byte(&sc) * 100;
	arg = fuzz_byte(&sc);
	limits.rate = arg >> 4;
	limits.burst = 1 + (arg & 0x0f) * 8;
	if (fuzz_trace == -1)
		fuzz_trace = getenv("FUZZ_TRACE") != NULL;
	seed = fuzz_byte(&sc);
	limits.grace_ms = (seed & 3) * 5000;
	limits.room_ms = ((seed >> 2) & 3) * 5000;
	limits.ai_offer_ms = ((seed >> 4) & 3) * 5000;
	limits.fresh_ms = (seed & 0x40) ? LOBBY_FRESH_MS : 0;
	limits.early_draw = (seed >> 7) & 1;
	memset(fuzz_slots, 0, sizeof fuzz_slots);
	memset(fuzz_tokens, 0, sizeof fuzz_tokens);
	memset(fuzz_room, 0, sizeof fuzz_room);
	fuzz_now = 1000000;
	fuzz_next_id = 0;
	lobby_init(&fuzz_lobby, &fuzz_ops, &limits, seed);
#ifdef FUZZ_KEEP
	fuzz_keep(&sc);
#endif

	while (sc.left > 0) {
		op = fuzz_byte(&sc);
		i = op & (FUZZ_SLOTS - 1);
		if (fuzz_trace)
			fprintf(stderr, "-- op %d slot %d\n",
			    (op >> 2) % FUZZ_NOPS, i);
		switch ((op >> 2) % FUZZ_NOPS) {
		case FUZZ_OP_CONNECT:
			fuzz_connect(i, 0);
			break;
		case FUZZ_OP_REFUSE:
			fuzz_connect(i, 1);
			break;
		case FUZZ_OP_BYTES:
			n = fuzz_byte(&sc);
			n = n < sc.left ? n : sc.left;
			fuzz_feed(i, sc.p, n);
			sc.p += n;
			sc.left -= n;
			break;
		case FUZZ_OP_LINE:
			arg = fuzz_byte(&sc);
			line = &fuzz_lines[arg % (sizeof fuzz_lines /
			    sizeof fuzz_lines[0])];
			if (line->dyn == FUZZ_DYN_NONE) {
				fuzz_feed(i, (const uint8_t *)line->s,
				    line->len);
				break;
			}
			if (line->dyn == FUZZ_DYN_ROOM)
				n = (size_t)snprintf(dyn, sizeof dyn,
				    "ROOM JOIN %s\n", fuzz_room);
			else
				n = (size_t)snprintf(dyn, sizeof dyn,
				    "RESUME %s\n", fuzz_tokens[line->dyn -
				    FUZZ_DYN_RESUME0]);
			fuzz_feed(i, (const uint8_t *)dyn, n);
			break;
		case FUZZ_OP_TIME:
			fuzz_time((int64_t)fuzz_byte(&sc) * 100);
			break;
		case FUZZ_OP_DROP:
			fuzz_free(i);
			break;
		case FUZZ_OP_EOF:
			if (fuzz_slots[i].c == NULL || fuzz_slots[i].closed)
				break;
			/* As server-client.c: leave now, deliver, close. */
			session_lost(fuzz_slots[i].c);
			fuzz_slots[i].c->flags |= CLIENT_CLOSING;
			fuzz_slots[i].closed = 1;
			evbuffer_drain(fuzz_slots[i].in,
			    evbuffer_get_length(fuzz_slots[i].in));
			break;
		case FUZZ_OP_REAP:
			for (i = 0; i < FUZZ_SLOTS; i++) {
				if (fuzz_slots[i].closed)
					fuzz_free(i);
			}
			break;
		case FUZZ_OP_INTERRUPT:
			if (fuzz_slots[i].c == NULL || fuzz_slots[i].closed)
				break;
			conn_interrupt(fuzz_slots[i].c, fuzz_slots[i].in);
			CHECK(evbuffer_get_length(fuzz_slots[i].in) == 0);
			break;
		case FUZZ_OP_SHUTDOWN:
			for (i = 0; i < FUZZ_SLOTS; i++) {
				if (fuzz_slots[i].c != NULL)
					session_shutdown(fuzz_slots[i].c, SESSION_SHUTDOWN);
			}
			break;
		}
		fuzz_check_world();
	}

	for (i = 0; i < FUZZ_SLOTS; i++)
		fuzz_free(i);
	/* Seats held for lost players go when their grace runs out. */
	fuzz_now += fuzz_lobby.limits.grace_ms + 1;
	lobby_expire(&fuzz_lobby);
	CHECK(fuzz_lobby.nqueued == 0 && TAILQ_EMPTY(&fuzz_lobby.queue));
	CHECK(fuzz_lobby.nfresh == 0 && TAILQ_EMPTY(&fuzz_lobby.fresh));
	CHECK(TAILQ_EMPTY(&fuzz_lobby.matches));
	CHECK(fuzz_lobby.naway == 0 && fuzz_lobby.nwatchers == 0 &&
	    fuzz_lobby.rooms.n == 0 && fuzz_lobby.tokens.n == 0 &&
	    fuzz_lobby.ids.n == 0 && fuzz_lobby.nai == 0 &&
	    fuzz_lobby.nlive == 0);
	lobby_free(&fuzz_lobby);
	return (0);
}
