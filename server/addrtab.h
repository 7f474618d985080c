/*
 * addrtab.h -- connections counted per peer address, for --max-per-addr.
 *
 * An IPv4 address counts on its own; IPv6 addresses count per /64, the
 * block one host or household is given, so that one machine cannot dodge
 * the cap by using many of its addresses.
 */
#ifndef ADDRTAB_H
#define ADDRTAB_H

#include <stddef.h>
#include <stdint.h>

struct addrkey {
	uint8_t	b[16];		/* IPv4-mapped IPv6, or an IPv6 /64 */
};

struct addrtab_entry;
struct sockaddr;

struct addrtab {
	struct addrtab_entry	**buckets;
	size_t			  nbuckets;	/* a power of two */
	size_t			  nentries;
	uint64_t		  key;		/* hash key: random per run */
};

void		addrkey_from(struct addrkey *, const struct sockaddr *);
uint64_t	addrkey_hash(const struct addrkey *, uint64_t);
int		addrtab_init(struct addrtab *, uint64_t);
void		addrtab_free(struct addrtab *);
unsigned	addrtab_count(const struct addrtab *, const struct addrkey *);
int		addrtab_add(struct addrtab *, const struct addrkey *);
void		addrtab_del(struct addrtab *, const struct addrkey *);

#endif /* ADDRTAB_H */
