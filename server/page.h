/*
 * page.h -- the browser page (web/index.html) and its icon
 * (web/favicon.ico), built into tttd: page.c and favicon.c are generated
 * from them at build time (cmake/embed.cmake).
 */
#ifndef PAGE_H
#define PAGE_H

#include <stddef.h>

extern const unsigned char	page_html[];
extern const size_t		page_html_len;
extern const unsigned char	page_favicon[];
extern const size_t		page_favicon_len;

#endif /* PAGE_H */
