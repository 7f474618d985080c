/*
 * store-pglib.c -- libpq opened with dlopen(3) the first time a store on
 * PostgreSQL is opened, and its functions looked up (store-pglib.h).
 * Loaded once, never unloaded.
 */
#include <dlfcn.h>
#include <stdio.h>

#define STORE_PGLIB_SELF	/* the names below are libpq's own */
#include "store-pglib.h"

struct store_pglib	store_pglib;

/*
 * Load libpq and fill store_pglib: 0, or -1 and why (no libpq on this
 * machine, or one without a function tttd needs: older than 14, which
 * brought pipeline mode).
 */
int
store_pglib_load(char *why, size_t len)
{
	static int	 loaded;
	void		*lib, *fn;
	const char	*err;

	if (loaded)
		return (0);
	if ((lib = dlopen(STORE_PGLIB_SONAME, RTLD_NOW | RTLD_LOCAL)) == NULL) {
		err = dlerror();
		snprintf(why, len, "cannot load %s (Debian's libpq5): %s",
		    STORE_PGLIB_SONAME, err != NULL ? err : "?");
		return (-1);
	}
#define STORE_PGLIB_LOOKUP(f)						\
	if ((fn = dlsym(lib, #f)) == NULL) {				\
		snprintf(why, len, "%s has no %s: libpq 14 or later is"	\
		    " needed", STORE_PGLIB_SONAME, #f);			\
		dlclose(lib);						\
		return (-1);						\
	}								\
	*(void **)&store_pglib.f = fn;
	STORE_PGLIB_FUNCS(STORE_PGLIB_LOOKUP)
#undef STORE_PGLIB_LOOKUP
	loaded = 1;
	return (0);
}
