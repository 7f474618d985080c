/*
 * keytab.c -- a chained hash of 64-bit keys, with intrusive entries.
 *
 * The bucket count is fixed at start-up (no rehashing under load) and the
 * chains are singly linked (short, and an entry is 8 bytes smaller); the
 * hash is keyed with a random value per run, so that keys a client
 * chooses (a game id to WATCH) cannot be aimed at one chain.
 */
#include <stdlib.h>
#include <string.h>

#include "keytab.h"
#include "mix.h"

static size_t	keytab_slot(const struct keytab *, uint64_t);

/* An empty table of at least n buckets; 0 on success, -1 without memory. */
int
keytab_init(struct keytab *t, size_t n, uint64_t hashkey)
{
	size_t	i;

	for (t->nbuckets = 16; t->nbuckets < n; t->nbuckets <<= 1)
		;
	t->buckets = calloc(t->nbuckets, sizeof *t->buckets);
	if (t->buckets == NULL)
		return (-1);
	for (i = 0; i < t->nbuckets; i++)
		SLIST_INIT(&t->buckets[i]);
	t->n = 0;
	t->hashkey = hashkey;
	return (0);
}

/* Free the buckets; the entries belong to their owners. */
void
keytab_free(struct keytab *t)
{
	free(t->buckets);
	t->buckets = NULL;
	t->nbuckets = t->n = 0;
}

/* The key mixed with the table's secret (splitmix64's finaliser). */
static size_t
keytab_slot(const struct keytab *t, uint64_t key)
{
	return ((size_t)mix64(key ^ t->hashkey) & (t->nbuckets - 1));
}

/* File an owner under a key (not 0). */
void
keytab_add(struct keytab *t, struct keytab_entry *e, uint64_t key,
    void *owner)
{
	e->key = key;
	e->owner = owner;
	SLIST_INSERT_HEAD(&t->buckets[keytab_slot(t, key)], e, link);
	t->n++;
}

/* Take an entry out of the table; harmless if it is in none. */
void
keytab_del(struct keytab *t, struct keytab_entry *e)
{
	if (e->key == 0)
		return;
	SLIST_REMOVE(&t->buckets[keytab_slot(t, e->key)], e, keytab_entry,
	    link);
	e->key = 0;
	t->n--;
}

/* The owner filed under a key, or NULL. */
void *
keytab_find(const struct keytab *t, uint64_t key)
{
	struct keytab_entry	*e;

	if (key == 0)
		return (NULL);
	SLIST_FOREACH(e, &t->buckets[keytab_slot(t, key)], link) {
		if (e->key == key)
			return (e->owner);
	}
	return (NULL);
}

/* A code of 1 to KEYTAB_CODE_MAX characters as a key; 0 for any other. */
uint64_t
keytab_code(const char *code)
{
	uint64_t	key = 0;
	size_t		len = strlen(code);

	if (len == 0 || len > KEYTAB_CODE_MAX)
		return (0);
	memcpy(&key, code, len);
	return (key);
}
