/*
 * cluster-msg.c -- a message from another node parsed and checked
 * (cluster-msg.h).  The rest of each type, as its sender writes it:
 *
 *	O <qid>				S <id> <addr> <who>
 *	L <ack> <line CR LF>...		H <where> <name>
 *	M <name>			I <seq> <line>
 *	E <seq> <error>			D <why> <hold>
 *	X <addr> <who> TAB <line>	T <instance>
 *	U <account>			W <account> <rating>
 *
 * (a name may be empty but in M; a who is a name, then " #<account>:
 * <rating>" for a signed-in player); N, B, C, A, R and G carry nothing
 * their handlers read.
 */
#include <string.h>

#include "cluster-msg.h"
#include "name.h"
#include "proto.h"
#include "ttt.h"
#include "utf8.h"

/* A cursor over the rest of a message. */
struct cluster_msg_cur {
	const char	*p;
	size_t		 left;
};

static int	cluster_msg_number(struct cluster_msg_cur *, uint64_t *);
static int	cluster_msg_char(struct cluster_msg_cur *, char);
static int	cluster_msg_hex(const char *, size_t);
static enum cluster_msg_error cluster_msg_addr(struct cluster_msg_cur *);
static enum cluster_msg_error cluster_msg_name(const char *, size_t, int);
static enum cluster_msg_error cluster_msg_lines(const char *, size_t);
static enum cluster_msg_error cluster_msg_line(const char *, size_t);
static enum cluster_msg_error cluster_msg_rest(const struct cluster_msg *);
static int	cluster_msg_word(struct cluster_msg_cur *, char *, size_t);

/* A decimal number of 1 to 20 digits that fits 64 bits: 0, or -1. */
static int
cluster_msg_number(struct cluster_msg_cur *cur, uint64_t *v)
{
	uint64_t	n = 0;
	size_t		i;

	for (i = 0; i < cur->left && cur->p[i] >= '0' && cur->p[i] <= '9';
	    i++) {
		if (n > (UINT64_MAX - (uint64_t)(cur->p[i] - '0')) / 10)
			return (-1);
		n = n * 10 + (uint64_t)(cur->p[i] - '0');
	}
	if (i == 0)
		return (-1);
	cur->p += i;
	cur->left -= i;
	*v = n;
	return (0);
}

/* One given byte next: 0, or -1. */
static int
cluster_msg_char(struct cluster_msg_cur *cur, char ch)
{
	if (cur->left == 0 || *cur->p != ch)
		return (-1);
	cur->p++;
	cur->left--;
	return (0);
}

/* An instance: CLUSTER_INST_LEN lower-case hex digits. */
static int
cluster_msg_hex(const char *s, size_t len)
{
	size_t	i;

	if (len != CLUSTER_INST_LEN)
		return (0);
	for (i = 0; i < len; i++) {
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' &&
		    s[i] <= 'f')))
			return (0);
	}
	return (1);
}

/* A player's address: 1 to CLUSTER_ADDR_MAX printable bytes to a space. */
static enum cluster_msg_error
cluster_msg_addr(struct cluster_msg_cur *cur)
{
	const char	*sp = memchr(cur->p, ' ', cur->left);
	size_t		 i, n = sp != NULL ? (size_t)(sp - cur->p) : cur->left;

	if (n == 0 || n > CLUSTER_ADDR_MAX)
		return (CLUSTER_MSG_EADDR);
	for (i = 0; i < n; i++) {
		if (cur->p[i] <= ' ' || cur->p[i] > '~')
			return (CLUSTER_MSG_EADDR);
	}
	cur->p += n;
	cur->left -= n;
	return (CLUSTER_MSG_OK);
}

/* A name NAME would take, or none if empty may be. */
static enum cluster_msg_error
cluster_msg_name(const char *s, size_t len, int empty)
{
	if (len == 0 && empty)
		return (CLUSTER_MSG_OK);
	return (name_wellformed(s, len) ? CLUSTER_MSG_OK : CLUSTER_MSG_ENAME);
}

/* Lines for a player: each text ended by CR LF, no longer than a server's. */
static enum cluster_msg_error
cluster_msg_lines(const char *p, size_t len)
{
	const char	*lf;
	size_t		 n;

	while (len > 0) {
		if ((lf = memchr(p, '\n', len)) == NULL)
			return (CLUSTER_MSG_ELINE);
		n = (size_t)(lf - p) + 1;
		if (n < 2 || n >= PROTO_OUT_MAX || p[n - 2] != '\r' ||
		    !utf8_text(p, n - 2))
			return (CLUSTER_MSG_ELINE);
		p += n;
		len -= n;
	}
	return (CLUSTER_MSG_OK);
}

/* A player's line, to be run as typed: text, no line end, not too long. */
static enum cluster_msg_error
cluster_msg_line(const char *p, size_t len)
{
	return (len <= PROTO_LINE_MAX && utf8_text(p, len) ? CLUSTER_MSG_OK :
	    CLUSTER_MSG_ELINE);
}

/* The rest of a message, as its type has it. */
static enum cluster_msg_error
cluster_msg_rest(const struct cluster_msg *m)
{
	struct cluster_msg_cur	 cur = { m->rest, m->len };
	struct cluster_who	 who;
	enum cluster_msg_error	 e;
	const char		*tab;
	uint64_t		 v;

	switch (m->type) {
	case 'O':
		if (cluster_msg_number(&cur, &v) == -1 || cur.left != 0)
			return (CLUSTER_MSG_EFORM);
		return (CLUSTER_MSG_OK);
	case 'S':
		if (cluster_msg_number(&cur, &v) == -1 ||
		    cluster_msg_char(&cur, ' ') == -1)
			return (CLUSTER_MSG_EFORM);
		if ((e = cluster_msg_addr(&cur)) != CLUSTER_MSG_OK)
			return (e);
		if (cur.left == 0)
			return (CLUSTER_MSG_OK);
		if (cluster_msg_char(&cur, ' ') == -1)
			return (CLUSTER_MSG_EFORM);
		return (cluster_msg_who(cur.p, cur.left, &who));
	case 'L':
		if (cluster_msg_number(&cur, &v) == -1 ||
		    cluster_msg_char(&cur, ' ') == -1)
			return (CLUSTER_MSG_EFORM);
		return (cluster_msg_lines(cur.p, cur.left));
	case 'M':
		return (cluster_msg_name(cur.p, cur.left, 0));
	case 'H':
		if (cur.left < 2 || cur.p[0] < '0' ||
		    cur.p[0] > '0' + CLIENT_HOME_FREE || cur.p[1] != ' ')
			return (CLUSTER_MSG_EFORM);
		return (cluster_msg_name(cur.p + 2, cur.left - 2, 1));
	case 'I':
		if (cluster_msg_number(&cur, &v) == -1 ||
		    cluster_msg_char(&cur, ' ') == -1)
			return (CLUSTER_MSG_EFORM);
		return (cluster_msg_line(cur.p, cur.left));
	case 'E':
	case 'D':
		if (cluster_msg_number(&cur, &v) == -1 ||
		    cluster_msg_char(&cur, ' ') == -1 ||
		    cluster_msg_number(&cur, &v) == -1 || cur.left != 0)
			return (CLUSTER_MSG_EFORM);
		return (CLUSTER_MSG_OK);
	case 'X':
		if ((e = cluster_msg_addr(&cur)) != CLUSTER_MSG_OK)
			return (e);
		if (cluster_msg_char(&cur, ' ') == -1 ||
		    (tab = memchr(cur.p, '\t', cur.left)) == NULL)
			return (CLUSTER_MSG_EFORM);
		if ((e = cluster_msg_who(cur.p, (size_t)(tab - cur.p),
		    &who)) != CLUSTER_MSG_OK)
			return (e);
		tab++;
		return (cluster_msg_line(tab, cur.left - (size_t)(tab -
		    cur.p)));
	case 'U':
		if (cluster_msg_number(&cur, &v) == -1 || v == 0 ||
		    v > INT64_MAX || cur.left != 0)
			return (CLUSTER_MSG_EFORM);
		return (CLUSTER_MSG_OK);
	case 'W':
		if (cluster_msg_number(&cur, &v) == -1 || v == 0 ||
		    v > INT64_MAX || cluster_msg_char(&cur, ' ') == -1 ||
		    cluster_msg_number(&cur, &v) == -1 ||
		    v > CLUSTER_RATING_MAX || cur.left != 0)
			return (CLUSTER_MSG_EFORM);
		return (CLUSTER_MSG_OK);
	case 'T':
		return (cluster_msg_hex(cur.p, cur.left) ? CLUSTER_MSG_OK :
		    CLUSTER_MSG_EFORM);
	default:
		return (CLUSTER_MSG_OK);
	}
}

/*
 * A message (len bytes, with a NUL after them) parsed into m, its rest
 * checked: 0, or -1 (why says why).
 */
int
cluster_msg_parse(const char *msg, size_t len, struct cluster_msg *m,
    enum cluster_msg_error *why)
{
	struct cluster_msg_cur	cur;

	memset(m, 0, sizeof *m);
	*why = CLUSTER_MSG_EHEAD;
	if (len < 2 + CLUSTER_INST_LEN + 2 || len > CLUSTER_MSG_MAX ||
	    strchr("OSNBLCHMIEDXARTGUW", msg[0]) == NULL || msg[0] == '\0' ||
	    msg[1] != ' ' || !cluster_msg_hex(msg + 2, CLUSTER_INST_LEN) ||
	    msg[2 + CLUSTER_INST_LEN] != ' ')
		return (-1);
	m->type = msg[0];
	memcpy(m->from, msg + 2, CLUSTER_INST_LEN);
	m->from[CLUSTER_INST_LEN] = '\0';
	cur.p = msg + 3 + CLUSTER_INST_LEN;
	cur.left = len - (3 + CLUSTER_INST_LEN);
	if (cluster_msg_number(&cur, &m->id) == -1)
		return (-1);
	if (cur.left > 0 && cluster_msg_char(&cur, ' ') == -1)
		return (-1);
	m->rest = cur.p;
	m->len = cur.left;
	*why = cluster_msg_rest(m);
	return (*why == CLUSTER_MSG_OK ? 0 : -1);
}

/* The bytes up to the next space or the end as a name: 0, or -1. */
static int
cluster_msg_word(struct cluster_msg_cur *cur, char *name, size_t size)
{
	const char	*sp = memchr(cur->p, ' ', cur->left);
	size_t		 n = sp != NULL ? (size_t)(sp - cur->p) : cur->left;

	if (n >= size || !name_wellformed(cur->p, n))
		return (-1);
	memcpy(name, cur->p, n);
	name[n] = '\0';
	cur->p += n;
	cur->left -= n;
	return (0);
}

/*
 * A line of another node's GAMES list (len bytes, no LF): "<id> <name>
 * <name> <moves> <away>" as cluster_ask_games_publish writes it, the names
 * NAME's (or a seat's own): 0, or -1.
 */
int
cluster_msg_game_parse(const char *s, size_t len, struct lobby_game *g)
{
	struct cluster_msg_cur	cur = { s, len };
	uint64_t		moves, away;
	int			i;

	memset(g, 0, sizeof *g);
	if (cluster_msg_number(&cur, &g->id) == -1)
		return (-1);
	for (i = 0; i < 2; i++) {
		if (cluster_msg_char(&cur, ' ') == -1 ||
		    cluster_msg_word(&cur, g->name[i], sizeof g->name[i]) == -1)
			return (-1);
	}
	if (cluster_msg_char(&cur, ' ') == -1 ||
	    cluster_msg_number(&cur, &moves) == -1 || moves > TTT_CELLS ||
	    cluster_msg_char(&cur, ' ') == -1 ||
	    cluster_msg_number(&cur, &away) == -1 || away > 3 ||
	    cur.left != 0)
		return (-1);
	g->moves = (int)moves;
	g->away = (int)away;
	return (0);
}

/*
 * A seat's player, "<name>[ #<account>:<rating>]" (len bytes), into w:
 * the name NAME's (or none), an account only with a name, its id from 1
 * and its rating within CLUSTER_RATING_MAX.
 */
enum cluster_msg_error
cluster_msg_who(const char *s, size_t len, struct cluster_who *w)
{
	const char		*sp = memchr(s, ' ', len);
	size_t			 n = sp != NULL ? (size_t)(sp - s) : len;
	struct cluster_msg_cur	 cur;
	uint64_t		 id, rating;

	memset(w, 0, sizeof *w);
	if (cluster_msg_name(s, n, 1) != CLUSTER_MSG_OK)
		return (CLUSTER_MSG_ENAME);
	memcpy(w->name, s, n);
	w->name[n] = '\0';
	if (sp == NULL)
		return (CLUSTER_MSG_OK);
	cur.p = sp + 1;
	cur.left = len - n - 1;
	if (cluster_msg_char(&cur, '#') == -1)
		return (CLUSTER_MSG_ENAME);	/* a space in the name */
	if (n == 0 ||
	    cluster_msg_number(&cur, &id) == -1 || id == 0 ||
	    id > INT64_MAX || cluster_msg_char(&cur, ':') == -1 ||
	    cluster_msg_number(&cur, &rating) == -1 ||
	    rating > CLUSTER_RATING_MAX || cur.left != 0)
		return (CLUSTER_MSG_EFORM);
	w->account = (int64_t)id;
	w->rating = (int)rating;
	return (CLUSTER_MSG_OK);
}

/* What a refusal says, for the log. */
const char *
cluster_msg_strerror(enum cluster_msg_error e)
{
	static const char *const why[CLUSTER_MSG_NERRORS] = {
		"a message",
		"no type, instance and id",
		"not as its type has it",
		"a name NAME refuses",
		"an address not printable or too long",
		"a line no player could type or get"
	};

	return ((unsigned)e < CLUSTER_MSG_NERRORS ? why[e] : "?");
}
