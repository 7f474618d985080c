/*
 * options.h -- tttd's configuration from its defaults, the environment
 * (TTTD_PORT, ...) and the command line, in that order: flags win.
 */
#ifndef OPTIONS_H
#define OPTIONS_H

#include "server.h"

/* What options_parse found: run, stop (help, version), or a usage error. */
enum options_result {
	OPTIONS_RUN,
	OPTIONS_EXIT,
	OPTIONS_ERROR
};

void			options_defaults(struct server_config *);
enum options_result	options_parse(struct server_config *, int, char **);

#endif /* OPTIONS_H */
