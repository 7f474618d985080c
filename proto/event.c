/*
 * event.c -- taking server lines apart, for clients (ttt-client, tests,
 * benchmarks).  The inverse of format.c.
 */
#include <limits.h>
#include <string.h>

#include "proto.h"

struct proto_cursor {
	const char	*p;
	const char	*end;
};

struct proto_kind_entry {
	const char	*word;
	enum proto_kind	 kind;
};

static const struct proto_kind_entry proto_kinds[] = {
	{ "HELLO",	PROTO_EV_HELLO },
	{ "WAIT",	PROTO_EV_WAIT },
	{ "MATCH",	PROTO_EV_MATCH },
	{ "START",	PROTO_EV_START },
	{ "BOARD",	PROTO_EV_BOARD },
	{ "TURN",	PROTO_EV_TURN },
	{ "RESULT",	PROTO_EV_RESULT },
	{ "AGAIN?",	PROTO_EV_AGAINQ },
	{ "INFO",	PROTO_EV_INFO },
	{ "BYE",	PROTO_EV_BYE },
	{ "OK",		PROTO_EV_OK },
	{ "ERR",	PROTO_EV_ERR },
	{ "STAT",	PROTO_EV_STAT },
	{ "END",	PROTO_EV_END },
	{ "GAME",	PROTO_EV_GAME },
	{ "TOKEN",	PROTO_EV_TOKEN },
	{ "CHAT",	PROTO_EV_CHAT },
	{ "KEY",	PROTO_EV_KEY },
	{ "PLAYED",	PROTO_EV_PLAYED },
	{ "RANKED",	PROTO_EV_RANKED },
};

static int	proto_next(struct proto_cursor *, const char **, size_t *);
static int	proto_is(const char *, size_t, const char *);
static int	proto_next_mark(struct proto_cursor *, enum ttt_mark *);
static int	proto_next_name(struct proto_cursor *, char *);
static int	proto_next_version(struct proto_cursor *, int *);
static int	proto_next_number(struct proto_cursor *, size_t,
		    unsigned long long *);
static int	proto_next_code(struct proto_cursor *, char *, size_t);
static void	proto_rest(struct proto_cursor *, struct proto_event *);
static int	proto_event_ok(struct proto_cursor *, struct proto_event *);
static int	proto_event_result(struct proto_cursor *,
		    struct proto_event *);
static int	proto_event_game(struct proto_cursor *, struct proto_event *);
static int	proto_event_token(struct proto_cursor *,
		    struct proto_event *);
static int	proto_next_signed(struct proto_cursor *, long *, int *);
static int	proto_next_count(struct proto_cursor *, unsigned *);
static int	proto_next_word(struct proto_cursor *, char *, size_t,
		    const char *);
static int	proto_next_player(struct proto_cursor *, char *);
static int	proto_next_when(struct proto_cursor *, char *);
static int	proto_next_moves(struct proto_cursor *, char *);
static int	proto_event_rating(struct proto_cursor *,
		    struct proto_event *);
static int	proto_event_played(struct proto_cursor *,
		    struct proto_event *);
static int	proto_event_ranked(struct proto_cursor *,
		    struct proto_event *);

/* Take the next space-separated word; 0 if there is none. */
static int
proto_next(struct proto_cursor *cur, const char **w, size_t *len)
{
	const char	*sp;

	if (cur->p >= cur->end)
		return (0);
	sp = memchr(cur->p, ' ', (size_t)(cur->end - cur->p));
	if (sp == NULL)
		sp = cur->end;
	*w = cur->p;
	*len = (size_t)(sp - cur->p);
	cur->p = (sp < cur->end) ? sp + 1 : cur->end;
	return (*len > 0);
}

/* Is a word exactly this string? */
static int
proto_is(const char *w, size_t len, const char *s)
{
	return (strlen(s) == len && memcmp(w, s, len) == 0);
}

/* Take a mark word, X or O. */
static int
proto_next_mark(struct proto_cursor *cur, enum ttt_mark *mark)
{
	const char	*w;
	size_t		 len;

	if (!proto_next(cur, &w, &len) || len != 1)
		return (0);
	if (*w == 'X')
		*mark = TTT_X;
	else if (*w == 'O')
		*mark = TTT_O;
	else
		return (0);
	return (1);
}

/* Take a player name into a PROTO_NAME_MAX + 1 buffer. */
static int
proto_next_name(struct proto_cursor *cur, char *name)
{
	const char	*w;
	size_t		 len;

	if (!proto_next(cur, &w, &len) || !proto_name_valid(w, len))
		return (0);
	memcpy(name, w, len);
	name[len] = '\0';
	return (1);
}

/*
 * Take the HELLO version word, tttd/<digits>: the whole decimal number, which
 * must fit in an int.
 */
static int
proto_next_version(struct proto_cursor *cur, int *version)
{
	const char	*w;
	size_t		 len, i;
	int		 d, v = 0;

	if (!proto_next(cur, &w, &len) || len < 6 || memcmp(w, "tttd/", 5) != 0)
		return (0);
	for (i = 5; i < len; i++) {
		if (w[i] < '0' || w[i] > '9')
			return (0);
		d = w[i] - '0';
		if (v > (INT_MAX - d) / 10)
			return (0);
		v = v * 10 + d;
	}
	*version = v;
	return (1);
}

/*
 * Take a decimal number of 1 to maxdigits digits that fits in an unsigned
 * long long.
 */
static int
proto_next_number(struct proto_cursor *cur, size_t maxdigits,
    unsigned long long *n)
{
	const char		*w;
	size_t			 len, i;
	unsigned long long	 v = 0, d;

	if (!proto_next(cur, &w, &len) || len > maxdigits)
		return (0);
	for (i = 0; i < len; i++) {
		if (w[i] < '0' || w[i] > '9')
			return (0);
		d = (unsigned long long)(w[i] - '0');
		if (v > (ULLONG_MAX - d) / 10)
			return (0);
		v = v * 10 + d;
	}
	*n = v;
	return (1);
}

/*
 * Take a room code (6 characters) or a token (4, a dash, 4): upper-case
 * characters of PROTO_CODE_ALPHABET, as the server writes them, copied into
 * a PROTO_TOKEN_LEN + 2 buffer.  want is the word's length, dash included.
 */
static int
proto_next_code(struct proto_cursor *cur, char *code, size_t want)
{
	const char	*w;
	size_t		 len, i;
	int		 token = (want == PROTO_TOKEN_LEN + 1);

	if (!proto_next(cur, &w, &len) || len != want)
		return (0);
	for (i = 0; i < len; i++) {
		if (token && i == PROTO_TOKEN_LEN / 2) {
			if (w[i] != '-')
				return (0);
		} else if (strchr(PROTO_CODE_ALPHABET, w[i]) == NULL ||
		    w[i] == '\0')
			return (0);
	}
	memcpy(code, w, len);
	code[len] = '\0';
	return (1);
}

/*
 * Take a rating or an rd: an optional '-', 1 to 9 digits and, with
 * provisional not NULL, an optional '?' (noted in *provisional).
 */
static int
proto_next_signed(struct proto_cursor *cur, long *v, int *provisional)
{
	const char	*w;
	size_t		 len, i = 0;
	int		 neg;

	if (!proto_next(cur, &w, &len))
		return (0);
	if (provisional != NULL &&
	    (*provisional = (w[len - 1] == '?')) != 0)
		len--;
	neg = (len > 0 && w[0] == '-');
	i = (size_t)neg;
	if (len == i || len - i > 9)
		return (0);
	for (*v = 0; i < len; i++) {
		if (w[i] < '0' || w[i] > '9')
			return (0);
		*v = *v * 10 + (w[i] - '0');
	}
	if (neg)
		*v = -*v;
	return (1);
}

/* Take a count: 1 to 9 digits. */
static int
proto_next_count(struct proto_cursor *cur, unsigned *n)
{
	unsigned long long	v;

	if (!proto_next_number(cur, 9, &v))
		return (0);
	*n = (unsigned)v;
	return (1);
}

/*
 * Take a word of at most size - 1 bytes, each one of the allowed ones,
 * into a buffer of size bytes.
 */
static int
proto_next_word(struct proto_cursor *cur, char *out, size_t size,
    const char *allowed)
{
	const char	*w;
	size_t		 len, i;

	if (!proto_next(cur, &w, &len) || len >= size)
		return (0);
	for (i = 0; i < len; i++) {
		if (w[i] == '\0' || strchr(allowed, w[i]) == NULL)
			return (0);
	}
	memcpy(out, w, len);
	out[len] = '\0';
	return (1);
}

/* Take a player's name in PLAYED: a name, or that of a deleted account. */
static int
proto_next_player(struct proto_cursor *cur, char *name)
{
	struct proto_cursor	was = *cur;
	const char		*w;
	size_t			 len;

	if (proto_next_name(cur, name))
		return (1);
	*cur = was;
	if (!proto_next(cur, &w, &len) || !proto_is(w, len, PROTO_DELETED))
		return (0);
	memcpy(name, w, len);
	name[len] = '\0';
	return (1);
}

/* Take a time in UTC as PLAYED writes it: 2026-11-29T02:15:10Z. */
static int
proto_next_when(struct proto_cursor *cur, char *when)
{
	static const char	shape[] = "dddd-dd-ddTdd:dd:ddZ";
	size_t			i;

	if (!proto_next_word(cur, when, PROTO_WHEN_LEN + 1,
	    "0123456789-:TZ") || strlen(when) != PROTO_WHEN_LEN)
		return (0);
	for (i = 0; i < PROTO_WHEN_LEN; i++) {
		if ((shape[i] == 'd') != (when[i] >= '0' && when[i] <= '9'))
			return (0);
		if (shape[i] != 'd' && when[i] != shape[i])
			return (0);
	}
	return (1);
}

/* Take PLAYED's moves: cells (A1 to C3) joined by commas, or "-". */
static int
proto_next_moves(struct proto_cursor *cur, char *moves)
{
	size_t	i, len;

	if (!proto_next_word(cur, moves, PROTO_MOVES_MAX + 1,
	    "ABC123,-"))
		return (0);
	len = strlen(moves);
	if (strcmp(moves, "-") == 0)
		return (1);
	if (len % 3 != 2)
		return (0);
	for (i = 0; i < len; i += 3) {
		if (moves[i] < 'A' || moves[i] > 'C' || moves[i + 1] < '1' ||
		    moves[i + 1] > '3' || (i + 2 < len && moves[i + 2] != ','))
			return (0);
	}
	return (1);
}

/*
 * OK LOGIN <name> <rating> <rd>, OK RATING <name> <rating>[?] <rd>
 * <games> <wins> <losses> <ties>.
 */
static int
proto_event_rating(struct proto_cursor *cur, struct proto_event *ev)
{
	struct proto_account	*a = &ev->acct;
	int			 login = (ev->verb == PROTO_LOGIN);

	if (!proto_next_name(cur, ev->name) ||
	    !proto_next_signed(cur, &a->rating, login ? NULL :
	    &a->provisional) || !proto_next_signed(cur, &a->rd, NULL))
		return (-1);
	if (login)
		return (0);
	if (!proto_next_count(cur, &a->games) ||
	    !proto_next_count(cur, &a->wins) ||
	    !proto_next_count(cur, &a->losses) ||
	    !proto_next_count(cur, &a->ties))
		return (-1);
	return (0);
}

/*
 * PLAYED <match>.<game> <time> <X name> <O name> X|O|TIE <moves>, then
 * whatever a newer server adds (the text).
 */
static int
proto_event_played(struct proto_cursor *cur, struct proto_event *ev)
{
	struct proto_account	*a = &ev->acct;
	const char		*w;
	size_t			 len;

	if (!proto_next_word(cur, a->game, sizeof a->game,
	    "0123456789abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ._:-") ||
	    !proto_next_when(cur, a->when) ||
	    !proto_next_player(cur, ev->name) ||
	    !proto_next_player(cur, ev->name2) ||
	    !proto_next(cur, &w, &len))
		return (-1);
	if (proto_is(w, len, "X") || proto_is(w, len, "O"))
		a->winner = w[0];
	else if (proto_is(w, len, "TIE"))
		a->winner = 'T';
	else
		return (-1);
	return (proto_next_moves(cur, a->moves) ? 0 : -1);
}

/* RANKED <rank> <name> <rating> <rd> <games>. */
static int
proto_event_ranked(struct proto_cursor *cur, struct proto_event *ev)
{
	struct proto_account	*a = &ev->acct;

	if (!proto_next_count(cur, &a->rank) ||
	    !proto_next_name(cur, ev->name) ||
	    !proto_next_signed(cur, &a->rating, NULL) ||
	    !proto_next_signed(cur, &a->rd, NULL) ||
	    !proto_next_count(cur, &a->games))
		return (-1);
	return (0);
}

/* The rest of the line is free text. */
static void
proto_rest(struct proto_cursor *cur, struct proto_event *ev)
{
	ev->text = cur->p;
	ev->textlen = (size_t)(cur->end - cur->p);
}

/* OK <word> [argument]: the verb whose reply word it is, its argument. */
static int
proto_event_ok(struct proto_cursor *cur, struct proto_event *ev)
{
	const char	*w;
	size_t		 len;
	enum proto_args	 args;

	if (!proto_next(cur, &w, &len))
		return (-1);
	/* if (word is NAME's) ... else if (MOVE's) ... else return (-1); */
#define PROTO_OK_WORD(v, word, a, handler, ok)				\
	if (len == sizeof ok - 1 && memcmp(w, ok, len) == 0) {		\
		ev->verb = PROTO_##v;					\
		args = a;						\
	} else
	PROTO_VERBS(PROTO_OK_WORD)
#undef PROTO_OK_WORD
		return (-1);
	if (ev->verb == PROTO_REGISTER)		/* OK REGISTER <name> */
		return (proto_next_name(cur, ev->name) ? 0 : -1);
	switch (args) {
	case PROTO_ARGS_NAME:
		return (proto_next_name(cur, ev->name) ? 0 : -1);
	case PROTO_ARGS_CELL:
		if (!proto_next(cur, &w, &len))
			return (-1);
		ev->cell = ttt_cell_parse(w, len);
		return (ev->cell < 0 || w[0] > 'C' ? -1 : 0);
	case PROTO_ARGS_ANSWER:
		if (!proto_next(cur, &w, &len) || len != 1 ||
		    (w[0] != 'y' && w[0] != 'n'))
			return (-1);
		ev->yes = (w[0] == 'y');
		return (0);
	case PROTO_ARGS_ROOM:
		return (proto_next_code(cur, ev->code, PROTO_CODE_LEN + 1) ?
		    0 : -1);
	case PROTO_ARGS_COUNT:
	case PROTO_ARGS_GAME:
	case PROTO_ARGS_LIST:		/* OK HISTORY k, OK TOP k */
		return (proto_next_number(cur, 20, &ev->number) ? 0 : -1);
	case PROTO_ARGS_KEY:		/* OK LOGIN */
	case PROTO_ARGS_PLAYER:		/* OK RATING */
		return (proto_event_rating(cur, ev));
	case PROTO_ARGS_LEVEL:
		if (!proto_next(cur, &w, &len)) {
			ev->level = PROTO_LEVEL_QUEUE;	/* OK PLAY */
			return (0);
		}
		if (!proto_is(w, len, "AI") || !proto_next(cur, &w, &len))
			return (-1);
		if (proto_is(w, len, "perfect"))
			ev->level = PROTO_LEVEL_PERFECT;
		else if (proto_is(w, len, "easy"))
			ev->level = PROTO_LEVEL_EASY;
		else
			return (-1);
		return (0);
	default:
		return (0);
	}
}

/* RESULT WIN|FORFEIT <mark> <name> <text> or RESULT TIE <text>. */
static int
proto_event_result(struct proto_cursor *cur, struct proto_event *ev)
{
	const char	*w;
	size_t		 len;

	if (!proto_next(cur, &w, &len))
		return (-1);
	if (proto_is(w, len, "TIE")) {
		ev->result = PROTO_RESULT_TIE;
		return (0);
	}
	if (proto_is(w, len, "WIN"))
		ev->result = PROTO_RESULT_WIN;
	else if (proto_is(w, len, "FORFEIT"))
		ev->result = PROTO_RESULT_FORFEIT;
	else
		return (-1);
	if (!proto_next_mark(cur, &ev->mark) || !proto_next_name(cur, ev->name))
		return (-1);
	return (0);
}

/*
 * GAME <id> <x-name> <o-name> <moves> [away=X|away=O|away=XO], one line
 * of the GAMES list.
 */
static int
proto_event_game(struct proto_cursor *cur, struct proto_event *ev)
{
	const char	*w;
	size_t		 len;

	if (!proto_next_number(cur, 20, &ev->number) ||
	    !proto_next_name(cur, ev->name) ||
	    !proto_next_name(cur, ev->name2) ||
	    !proto_next(cur, &w, &len) || len != 1 || w[0] < '0' || w[0] > '9')
		return (-1);
	ev->moves = w[0] - '0';
	ev->away = 0;
	if (proto_next(cur, &w, &len))
		ev->away = proto_is(w, len, "away=X") ? 1 :
		    proto_is(w, len, "away=O") ? 2 :
		    proto_is(w, len, "away=XO") ? 3 : 0;
	return (0);
}

/* TOKEN <XXXX-XXXX> <text>: the code that takes the seat back. */
static int
proto_event_token(struct proto_cursor *cur, struct proto_event *ev)
{
	return (proto_next_code(cur, ev->code, PROTO_TOKEN_LEN + 1) ? 0 : -1);
}

/*
 * Take one server line apart (without its LF; a trailing CR is dropped).
 * Returns 0, or -1 when the line is not a well-formed protocol line; an
 * unknown keyword is 0 with kind PROTO_EV_UNKNOWN, so newer servers work.
 */
int
proto_event_parse(const char *line, size_t len, struct proto_event *ev)
{
	struct proto_cursor	 cur;
	const char		*w;
	size_t			 wlen, i;
	enum proto_error	 e;
	int			 rc = 0;

	memset(ev, 0, sizeof *ev);
	ev->cell = -1;
	ev->yes = -1;
	ev->text = "";
	if (len > 0 && line[len - 1] == '\r')
		len--;
	cur.p = line;
	cur.end = line + len;
	if (len > 0 && line[0] == ' ') {
		ev->kind = PROTO_EV_HUMAN;
		ev->text = line;
		ev->textlen = len;
		return (0);
	}
	if (!proto_next(&cur, &w, &wlen))
		return (-1);
	for (i = 0; i < sizeof proto_kinds / sizeof proto_kinds[0]; i++) {
		if (proto_is(w, wlen, proto_kinds[i].word)) {
			ev->kind = proto_kinds[i].kind;
			break;
		}
	}

	switch (ev->kind) {
	case PROTO_EV_HELLO:
		if (!proto_next_version(&cur, &ev->version))
			return (-1);
		break;
	case PROTO_EV_MATCH:
		if (!proto_next_mark(&cur, &ev->mark) ||
		    !proto_next_name(&cur, ev->name))
			rc = -1;
		break;
	case PROTO_EV_START:
	case PROTO_EV_TURN:
		if (!proto_next_mark(&cur, &ev->mark))
			rc = -1;
		break;
	case PROTO_EV_BOARD:
		if (!proto_next(&cur, &w, &wlen) || wlen != TTT_CELLS)
			return (-1);
		for (i = 0; i < TTT_CELLS; i++) {
			if (w[i] != 'X' && w[i] != 'O' && w[i] != '.')
				return (-1);
			ev->cells[i] = w[i];
		}
		break;
	case PROTO_EV_RESULT:
		rc = proto_event_result(&cur, ev);
		break;
	case PROTO_EV_OK:
		rc = proto_event_ok(&cur, ev);
		break;
	case PROTO_EV_ERR:
		if (!proto_next(&cur, &w, &wlen))
			return (-1);
		ev->error = PROTO_NERRORS;
		for (e = PROTO_ELINE_TOO_LONG; e < PROTO_NERRORS; e++) {
			if (proto_is(w, wlen, proto_error_code(e))) {
				ev->error = e;
				break;
			}
		}
		break;
	case PROTO_EV_GAME:
		rc = proto_event_game(&cur, ev);
		break;
	case PROTO_EV_TOKEN:
		rc = proto_event_token(&cur, ev);
		break;
	case PROTO_EV_CHAT:
		/* A chat line without its text says nothing: malformed. */
		if (!proto_next_name(&cur, ev->name) || cur.p >= cur.end)
			rc = -1;
		break;
	case PROTO_EV_KEY:
		if (!proto_next_word(&cur, ev->acct.key, sizeof ev->acct.key,
		    "0123456789abcdefghijklmnopqrstuvwxyz"))
			rc = -1;
		break;
	case PROTO_EV_PLAYED:
		rc = proto_event_played(&cur, ev);
		break;
	case PROTO_EV_RANKED:
		rc = proto_event_ranked(&cur, ev);
		break;
	default:
		break;
	}
	proto_rest(&cur, ev);
	return (rc);
}
