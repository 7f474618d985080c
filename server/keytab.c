/*
 * keytab.c -- a chained hash of short string keys, with intrusive entries.
 *
 * The bucket count is fixed at start-up (no rehashing under load); the
 * hash is keyed with a random value per run, so that keys chosen by a
 * client (a game id to WATCH) cannot be aimed at one chain.
 */
#include <stdlib.h>
#include <string.h>

#include "keytab.h"

static size_t	keytab_slot(const struct keytab *, const char *);

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
		LIST_INIT(&t->buckets[i]);
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

/* FNV-1a over the key, started from the table's secret, then mixed. */
static size_t
keytab_slot(const struct keytab *t, const char *key)
{
	uint64_t	h = 0xcbf29ce484222325ULL ^ t->hashkey;

	for (; *key != '\0'; key++) {
		h ^= (unsigned char)*key;
		h *= 0x100000001b3ULL;
	}
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 32;
	return ((size_t)h & (t->nbuckets - 1));
}

/* File an owner under a key (at most KEYTAB_KEY_MAX bytes, not ""). */
void
keytab_add(struct keytab *t, struct keytab_entry *e, const char *key,
    void *owner)
{
	size_t	len = strlen(key);

	if (len > KEYTAB_KEY_MAX)
		len = KEYTAB_KEY_MAX;
	memcpy(e->key, key, len);
	e->key[len] = '\0';
	e->owner = owner;
	LIST_INSERT_HEAD(&t->buckets[keytab_slot(t, e->key)], e, link);
	t->n++;
}

/* Take an entry out of the table; harmless if it is in none. */
void
keytab_del(struct keytab *t, struct keytab_entry *e)
{
	if (e->key[0] == '\0')
		return;
	LIST_REMOVE(e, link);
	e->key[0] = '\0';
	t->n--;
}

/* The owner filed under a key, or NULL. */
void *
keytab_find(const struct keytab *t, const char *key)
{
	struct keytab_entry	*e;

	if (*key == '\0' || strlen(key) > KEYTAB_KEY_MAX)
		return (NULL);
	LIST_FOREACH(e, &t->buckets[keytab_slot(t, key)], link) {
		if (strcmp(e->key, key) == 0)
			return (e->owner);
	}
	return (NULL);
}
