/*
 * account.h -- the key file on disk (account.c): read with its mode
 * checked, as ssh checks a private key's, and written once, atomically.
 */
#ifndef ACCOUNT_H
#define ACCOUNT_H

#include <stddef.h>

int	account_exists(const char *);
int	account_load(const char *, char *, size_t, char *, size_t);
int	account_save(const char *, const char *, char *, size_t);

#endif /* ACCOUNT_H */
