/*
 * api.h -- the read-only JSON API on --http-port (protocol.md §10.3):
 * GET /api/top, /api/player/<name> and /api/player/<name>/games.
 */
#ifndef API_H
#define API_H

struct server_client;

int	api_ask(struct server_client *);
void	api_forget(struct server_client *);

#endif /* API_H */
