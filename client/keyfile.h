/*
 * keyfile.h -- where ttt-client keeps an account's key (keyfile.c): the
 * file's path for a server, and the key in the file's text.
 *
 * Pure functions: no I/O, no allocation, no globals.
 */
#ifndef KEYFILE_H
#define KEYFILE_H

#include <stddef.h>

#define KEYFILE_HOST_MAX	200	/* a host's bytes in a file name */

int	keyfile_dir(char *, size_t, const char *, const char *);
int	keyfile_name(char *, size_t, const char *, const char *);
int	keyfile_path(char *, size_t, const char *, const char *,
	    const char *, const char *);
int	keyfile_key(const char *, size_t, char *, size_t);

#endif /* KEYFILE_H */
