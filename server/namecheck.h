/*
 * namecheck.h -- a name's Unicode rules, by ICU (protocol.md §3.4): the
 * code points a name refuses beyond those proto refuses (unassigned,
 * default-ignorable, and a first character that is no visible base), and
 * the key that makes names that look alike one name: the UTS #39
 * confusable skeleton of the name case-folded.
 */
#ifndef NAMECHECK_H
#define NAMECHECK_H

#include <stddef.h>

#include "proto.h"

/*
 * A key's bytes at most, its NUL included.  A code point's key is at
 * most ten times as long as the code point in UTF-8 (U+FDFA, 3 bytes, has
 * a key of 30; ICU 72), so a name's key fits; namecheck_key would return
 * 0 for one that did not (name.c then keys the name by its own bytes).
 */
#define NAMECHECK_KEY_MAX	(PROTO_NAME_MAX * 10 + 1)

struct namecheck;

struct namecheck	*namecheck_new(void);
void			 namecheck_free(struct namecheck *);
void			 namecheck_cleanup(void);
int			 namecheck_valid(const char *, size_t);
size_t			 namecheck_key(const struct namecheck *, const char *,
			    size_t, char *, size_t);

#endif /* NAMECHECK_H */
