/*
 * name.c -- the names players go by.  A name is held by the connected
 * player that took it, and by a lost player's seat while it may still
 * come back; nobody else may take it, in any case, and nobody may take a
 * seat's own name (p1, p2, the computer's ai), so that no line can be
 * read as coming from somebody it does not come from.
 *
 * "In any case" is utf8_fold's simple case folding (ASCII, Latin, Greek,
 * Cyrillic; fullwidth ASCII as ASCII): a name in upper case, or p1 typed
 * in fullwidth letters, is the same name.  The names are filed in the
 * lobby's table by a keyed hash of the folded name: a connected player's
 * under its client, a lost player's under its seat's absence record
 * (resume.c).
 */
#include <stdio.h>
#include <string.h>

#include "mix.h"
#include "name.h"
#include "utf8.h"


static const char *const name_reserved[] = { "p1", "p2", "ai" };

static size_t	name_fold(const char *, char *);

/* A name folded into b (NAME_FOLD_MAX bytes): its length. */
static size_t
name_fold(const char *name, char *b)
{
	return (utf8_fold_str(name, strlen(name), b, NAME_FOLD_MAX));
}

/* The table's key for a name: its keyed hash, folded; never 0. */
static uint64_t
name_key(const struct lobby *lobby, const char *name)
{
	char		b[NAME_FOLD_MAX + 8] = { 0 };
	uint64_t	h = lobby->names.hashkey, w;
	size_t		i, len;

	len = name_fold(name, b);
	h = mix64(h ^ len);
	for (i = 0; i < len; i += 8) {
		memcpy(&w, b + i, sizeof w);
		h = mix64(h ^ w);
	}
	return (h != 0 ? h : 1);
}

/*
 * May c go by this name?  Not a seat's, not another connected player's,
 * not a lost player's whose seat is held; its own, in another case, is.
 */
int
name_allowed(struct lobby *lobby, const struct client *c, const char *name)
{
	const void	*holder;
	char		 b[NAME_FOLD_MAX];
	size_t		 i;

	name_fold(name, b);
	for (i = 0; i < sizeof name_reserved / sizeof name_reserved[0]; i++) {
		if (strcmp(b, name_reserved[i]) == 0)
			return (0);
	}
	holder = keytab_find(&lobby->names, name_key(lobby, name));
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
		if (lobby->ops->name_changed != NULL)
			lobby->ops->name_changed(lobby, c, NULL, c->name);
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

	if (c->name_entry.key != 0 && lobby->ops->name_changed != NULL)
		lobby->ops->name_changed(lobby, c, c->name, NULL);
	keytab_del(&lobby->names, &c->name_entry);
}

/* A name folded for other nodes (NAME_FOLD_MAX bytes): its length. */
size_t
name_folded(const char *name, char *b)
{
	return (name_fold(name, b));
}
