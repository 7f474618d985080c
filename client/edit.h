/*
 * edit.h -- the player's line on a terminal, kept by libedit (edit.c):
 * what is being typed, and the prompt before it, survive the lines the
 * client prints meanwhile.  Only when standard input is a terminal; from a
 * pipe the client reads plain lines itself.
 */
#ifndef EDIT_H
#define EDIT_H

#include <stddef.h>
#include <sys/types.h>

void	edit_start(void);
ssize_t	edit_read(char *, size_t);
void	edit_prompt(const char *);
void	edit_hide(void);
void	edit_cancel(void);
void	edit_show(void);
void	edit_end(void);

#endif /* EDIT_H */
