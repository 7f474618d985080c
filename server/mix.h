/*
 * mix.h -- splitmix64's finaliser: every input bit reaches every output
 * bit.  The hash tables mix their keys with it (after a per-run secret),
 * and the lobby its seeds.
 */
#ifndef MIX_H
#define MIX_H

#include <stdint.h>

static inline uint64_t
mix64(uint64_t x)
{
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return (x ^ (x >> 31));
}

#endif /* MIX_H */
