/*
 * keytab.h -- 64-bit keys (room codes and resume tokens packed into eight
 * bytes, match ids as they are) to the objects that hold them.  The entry
 * lives inside its owner, so adding and removing allocate nothing; the
 * buckets are allocated once.  Entries are small (24 bytes): every match
 * holds three.
 */
#ifndef KEYTAB_H
#define KEYTAB_H

#include <sys/queue.h>

#include <stddef.h>
#include <stdint.h>

#define KEYTAB_CODE_MAX	8	/* characters a packed code may have */

struct keytab_entry {
	uint64_t		  key;		/* 0 = in no table */
	void			 *owner;
	SLIST_ENTRY(keytab_entry) link;
};
SLIST_HEAD(keytab_bucket, keytab_entry);

struct keytab {
	struct keytab_bucket	*buckets;
	size_t			 nbuckets;	/* a power of two */
	size_t			 n;
	uint64_t		 hashkey;
};

int		 keytab_init(struct keytab *, size_t, uint64_t);
void		 keytab_free(struct keytab *);
void		 keytab_add(struct keytab *, struct keytab_entry *, uint64_t,
		     void *);
void		 keytab_del(struct keytab *, struct keytab_entry *);
void		*keytab_find(const struct keytab *, uint64_t);
uint64_t	 keytab_code(const char *);

#endif /* KEYTAB_H */
