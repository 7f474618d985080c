/*
 * fuzz.h -- what the libFuzzer harnesses share: an invariant that aborts
 * (libFuzzer saves the input) with where it failed.
 */
#ifndef FUZZ_H
#define FUZZ_H

#include <stdio.h>
#include <stdlib.h>

#define CHECK(e) do {							\
	if (!(e)) {							\
		fprintf(stderr, "%s:%d: invariant failed: %s\n",	\
		    __FILE__, __LINE__, #e);				\
		abort();						\
	}								\
} while (0)

#endif /* FUZZ_H */
