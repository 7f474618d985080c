/*
 * cmd.h -- the handlers of well-formed client commands.
 */
#ifndef CMD_H
#define CMD_H

#include "client.h"
#include "proto.h"

enum proto_error	cmd_dispatch(struct client *, const struct proto_cmd *);
enum proto_error	cmd_rename(struct client *, const char *);
void			cmd_leave(struct client *, enum proto_leave, int);
void			cmd_detach(struct client *, enum proto_leave, int);

#endif /* CMD_H */
