/*
 * addrtab.c -- a chained hash of peer addresses and their connection
 * counts.  An entry lives while its count is above zero; the table doubles
 * when it holds more entries than buckets.
 */
#include <sys/socket.h>

#include <netinet/in.h>

#include <stdlib.h>
#include <string.h>

#include "addrtab.h"
#include "log.h"
#include "mix.h"

#define ADDRTAB_MIN_BUCKETS	256

struct addrtab_entry {
	struct addrkey		 key;
	unsigned		 count;
	struct addrtab_entry	*next;
};

static struct addrtab_entry **addrtab_find(const struct addrtab *,
		    const struct addrkey *);
static void	addrtab_grow(struct addrtab *);

/* The key of a peer: IPv4 as ::ffff:a.b.c.d, IPv6 cut to its /64. */
void
addrkey_from(struct addrkey *k, const struct sockaddr *sa)
{
	static const uint8_t	v4mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
				    0xff, 0xff };

	memset(k, 0, sizeof *k);
	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in	*sin = (const void *)sa;

		memcpy(k->b, v4mapped, sizeof v4mapped);
		memcpy(k->b + 12, &sin->sin_addr, 4);
	} else if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6	*sin6 = (const void *)sa;

		if (memcmp(sin6->sin6_addr.s6_addr, v4mapped,
		    sizeof v4mapped) == 0)
			memcpy(k->b, sin6->sin6_addr.s6_addr, 16);
		else
			memcpy(k->b, sin6->sin6_addr.s6_addr, 8);
	}
}

/*
 * FNV-1a over the key, started from the table's random key and mixed at
 * the end (splitmix64's finisher): peers often differ in a few bits, and
 * one who could predict the buckets could pile its addresses into one.
 */
uint64_t
addrkey_hash(const struct addrkey *k, uint64_t key)
{
	uint64_t	h = 0xcbf29ce484222325ULL ^ key;
	size_t		i;

	for (i = 0; i < sizeof k->b; i++)
		h = (h ^ k->b[i]) * 0x100000001b3ULL;
	return (mix64(h));
}

/* The link that points at the key's entry, or at NULL where it would go. */
static struct addrtab_entry **
addrtab_find(const struct addrtab *t, const struct addrkey *k)
{
	struct addrtab_entry	**ep;

	ep = &t->buckets[addrkey_hash(k, t->key) & (t->nbuckets - 1)];
	while (*ep != NULL && memcmp(&(*ep)->key, k, sizeof *k) != 0)
		ep = &(*ep)->next;
	return (ep);
}

/* An empty table hashing with a (random) key; -1 when out of memory. */
int
addrtab_init(struct addrtab *t, uint64_t key)
{
	t->key = key;
	t->nbuckets = ADDRTAB_MIN_BUCKETS;
	t->nentries = 0;
	t->buckets = calloc(t->nbuckets, sizeof *t->buckets);
	return (t->buckets == NULL ? -1 : 0);
}

/* Free the table and its entries. */
void
addrtab_free(struct addrtab *t)
{
	struct addrtab_entry	*e, *next;
	size_t			 i;

	for (i = 0; t->buckets != NULL && i < t->nbuckets; i++) {
		for (e = t->buckets[i]; e != NULL; e = next) {
			next = e->next;
			free(e);
		}
	}
	free(t->buckets);
	t->buckets = NULL;
	t->nentries = 0;
}

/* Connections counted for a key. */
unsigned
addrtab_count(const struct addrtab *t, const struct addrkey *k)
{
	struct addrtab_entry	*e = *addrtab_find(t, k);

	return (e != NULL ? e->count : 0);
}

/* Double the buckets, if memory allows; the table works either way. */
static void
addrtab_grow(struct addrtab *t)
{
	struct addrtab_entry	**nb, *e, *next;
	size_t			  n = t->nbuckets * 2, i;

	if ((nb = calloc(n, sizeof *nb)) == NULL)
		return;
	for (i = 0; i < t->nbuckets; i++) {
		for (e = t->buckets[i]; e != NULL; e = next) {
			next = e->next;
			e->next = nb[addrkey_hash(&e->key, t->key) & (n - 1)];
			nb[addrkey_hash(&e->key, t->key) & (n - 1)] = e;
		}
	}
	free(t->buckets);
	t->buckets = nb;
	t->nbuckets = n;
}

/* Count one more connection for a key: 0, or -1 when out of memory. */
int
addrtab_add(struct addrtab *t, const struct addrkey *k)
{
	struct addrtab_entry	**ep = addrtab_find(t, k), *e;

	if (*ep != NULL) {
		(*ep)->count++;
		return (0);
	}
	if ((e = calloc(1, sizeof *e)) == NULL)
		return (-1);
	e->key = *k;
	e->count = 1;
	*ep = e;
	if (++t->nentries > t->nbuckets)
		addrtab_grow(t);
	return (0);
}

/* Count one connection less; the entry goes at zero. */
void
addrtab_del(struct addrtab *t, const struct addrkey *k)
{
	struct addrtab_entry	**ep = addrtab_find(t, k), *e = *ep;

	if (e == NULL)
		fatalx("addrtab: released an address never counted");
	if (--e->count == 0) {
		*ep = e->next;
		free(e);
		t->nentries--;
	}
}
