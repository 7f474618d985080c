/*
 * name.c -- the names players go by.  A name is held by the connected
 * player that took it, and by a lost player's seat while it may still
 * come back; nobody else may take it, nor one that looks like it, and
 * nobody may take a seat's own name (p1, p2, the computer's ai) or one
 * that looks like it, so that no line can be read as coming from somebody
 * it does not come from.
 *
 * "Looks like" is namecheck's key (namecheck.c: the UTS #39 skeleton of
 * the name case-folded): `Bob`, `BOB` and `B0b` are one name, `р1`
 * (Cyrillic) and `𝐩𝟏` are the seat's `p1`.  The names are filed in the
 * lobby's table by a keyed hash of their key: a connected player's under
 * its client, a lost player's under its seat's absence record
 * (resume.c).  The key itself is what other nodes of a cluster are told.
 */
#include <stdio.h>
#include <string.h>

#include "mix.h"
#include "name.h"
#include "namecheck.h"

static const char *const name_reserved[LOBBY_SEAT_NAMES] = {
	"p1", "p2", "ai"
};

static size_t	name_skel(const struct lobby *, const char *, char *);
static uint64_t	name_hash(const struct lobby *, const char *, size_t);

/*
 * Open the lobby's name checker and make the seats' keys: 0, or -1 if
 * ICU cannot give a checker.
 */
int
name_init(struct lobby *lobby)
{
	char	b[NAME_KEY_MAX];
	size_t	i, n;

	if ((lobby->namecheck = namecheck_new()) == NULL)
		return (-1);
	for (i = 0; i < LOBBY_SEAT_NAMES; i++) {
		n = name_skel(lobby, name_reserved[i], b);
		if (n >= sizeof lobby->name_seats[i])
			return (-1);	/* never: "pl", "p2", "ai" */
		memcpy(lobby->name_seats[i], b, n + 1);
	}
	return (0);
}

/* Close the lobby's name checker. */
void
name_free(struct lobby *lobby)
{
	namecheck_free(lobby->namecheck);
	lobby->namecheck = NULL;
}

/*
 * Does a name (well-formed: proto_name_valid) pass the Unicode rules: no
 * unassigned or default-ignorable code point, a visible first character?
 */
int
name_valid(const char *name)
{
	return (namecheck_valid(name, strlen(name)));
}

/*
 * Is a name from elsewhere (another node, Redis: len bytes, not ended) one
 * NAME would take: proto_name_valid's bytes, then the Unicode rules?
 */
int
name_wellformed(const char *name, size_t len)
{
	return (proto_name_valid(name, len) && namecheck_valid(name, len));
}

/*
 * A name's key into b (NAME_KEY_MAX bytes, NUL-ended): its length.  A
 * name without one (never one that name_valid passed) is its own key.
 */
static size_t
name_skel(const struct lobby *lobby, const char *name, char *b)
{
	size_t	n;

	n = namecheck_key(lobby->namecheck, name, strlen(name), b,
	    NAME_KEY_MAX);
	if (n == 0)
		n = (size_t)snprintf(b, NAME_KEY_MAX, "%s", name);
	return (n);
}

/* The table's key for a name's key (len bytes): its keyed hash; never 0. */
static uint64_t
name_hash(const struct lobby *lobby, const char *key, size_t len)
{
	uint64_t	h = lobby->names.hashkey, w;
	size_t		i;

	h = mix64(h ^ len);
	for (i = 0; i < len; i += 8) {
		w = 0;
		memcpy(&w, key + i, len - i < 8 ? len - i : 8);
		h = mix64(h ^ w);
	}
	return (h != 0 ? h : 1);
}

/*
 * The table's key for a name: the one name_allowed made last, if it is
 * for this name (a NAME asks, then takes: one key made, not two).
 */
static uint64_t
name_key(const struct lobby *lobby, const char *name)
{
	char	b[NAME_KEY_MAX];

	if (lobby->name_last.hash != 0 &&
	    strcmp(name, lobby->name_last.name) == 0)
		return (lobby->name_last.hash);
	return (name_hash(lobby, b, name_skel(lobby, name, b)));
}

/*
 * May c go by this name?  Not one like a seat's, nor like another
 * connected player's, nor like a lost player's whose seat is held; one
 * like its own (its own in another case) it may.
 */
int
name_allowed(struct lobby *lobby, const struct client *c, const char *name)
{
	const void	*holder;
	char		 b[NAME_KEY_MAX];
	uint64_t	 h;
	size_t		 i, n;

	n = name_skel(lobby, name, b);
	for (i = 0; i < LOBBY_SEAT_NAMES; i++) {
		if (strcmp(b, lobby->name_seats[i]) == 0)
			return (0);
	}
	h = name_hash(lobby, b, n);
	snprintf(lobby->name_last.name, sizeof lobby->name_last.name, "%s",
	    name);
	lobby->name_last.hash = h;
	holder = keytab_find(&lobby->names, h);
	return (holder == NULL || holder == c);
}

/* c goes by this name from now on (name_allowed said it may). */
void
name_take(struct client *c, const char *name)
{
	struct lobby	*lobby = c->lobby;

	if (c->place == PLACE_GONE)
		return;			/* would never be dropped */
	name_drop(c);
	snprintf(c->name, sizeof c->name, "%s", name);
	if (c->name[0] != '\0') {
		keytab_add(&lobby->names, &c->name_entry,
		    name_key(lobby, c->name), c);
		LOBBY_RAISE(lobby, name_changed, c, NULL, c->name);
	}
}

/* File a name (not a seat's own, "") under an owner: a seat held away. */
void
name_hold(struct lobby *lobby, struct keytab_entry *e, const char *name,
    void *owner)
{
	if (name[0] != '\0')
		keytab_add(&lobby->names, e, name_key(lobby, name), owner);
}

/* c leaves its name to others: it is leaving, or takes another. */
void
name_drop(struct client *c)
{
	struct lobby	*lobby = c->lobby;

	if (c->name_entry.key != 0)
		LOBBY_RAISE(lobby, name_changed, c, c->name, NULL);
	keytab_del(&lobby->names, &c->name_entry);
}

/* A name's key for other nodes (NAME_KEY_MAX bytes): its length. */
size_t
name_keyed(const struct lobby *lobby, const char *name, char *b)
{
	return (name_skel(lobby, name, b));
}
