/*
 * page.h -- the browser page (web/index.html), built into tttd: page.c is
 * generated from it at build time (cmake/embed.cmake).
 */
#ifndef PAGE_H
#define PAGE_H

#include <stddef.h>

extern const unsigned char	page_html[];
extern const size_t		page_html_len;

#endif /* PAGE_H */
