/*
 * printable.h -- client bytes made safe to print in a log line.
 */
#ifndef PRINTABLE_H
#define PRINTABLE_H

#include <stddef.h>

const char	*printable(const char *, size_t, char *, size_t);

#endif /* PRINTABLE_H */
