/*
 * keytab.h -- short string keys (room codes, resume tokens, match ids) to
 * the objects that hold them.  The entry lives inside its owner, so adding
 * and removing allocate nothing; the buckets are allocated once.
 */
#ifndef KEYTAB_H
#define KEYTAB_H

#include <sys/queue.h>

#include <stddef.h>
#include <stdint.h>

#define KEYTAB_KEY_MAX	23	/* a 64-bit number in decimal fits */

struct keytab_entry {
	char			 key[KEYTAB_KEY_MAX + 1];	/* "" = in no table */
	void			*owner;
	LIST_ENTRY(keytab_entry) link;
};
LIST_HEAD(keytab_bucket, keytab_entry);

struct keytab {
	struct keytab_bucket	*buckets;
	size_t			 nbuckets;	/* a power of two */
	size_t			 n;
	uint64_t		 hashkey;
};

int	keytab_init(struct keytab *, size_t, uint64_t);
void	keytab_free(struct keytab *);
void	keytab_add(struct keytab *, struct keytab_entry *, const char *,
	    void *);
void	keytab_del(struct keytab *, struct keytab_entry *);
void	*keytab_find(const struct keytab *, const char *);

#endif /* KEYTAB_H */
