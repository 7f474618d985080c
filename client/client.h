/*
 * client.h -- ttt-client: one player's connection to tttd, driven from
 * standard input (client.c: the loop and the socket's life;
 * client-event.c: the server's lines; client-input.c: the player's), and
 * the health check (ping.c).
 */
#ifndef CLIENT_H
#define CLIENT_H

#include <stddef.h>

#include "args.h"
#include "backoff.h"
#include "keys.h"
#include "render.h"

#define CLIENT_CONNECT_MS	10000	/* how long a connect may take */
#define CLIENT_SEND_MS		10000	/* how long a blocked send may wait */
#define PING_TIMEOUT_MS		5000	/* the whole of --ping */

#define CLIENT_IN_MAX	8192	/* server bytes waiting for a newline */
#define CLIENT_KB_MAX	1024	/* input bytes waiting for a newline */

enum client_prompt {
	CLIENT_PROMPT_NONE,
	CLIENT_PROMPT_NAME,
	CLIENT_PROMPT_MOVE,
	CLIENT_PROMPT_AGAIN
};

/* One session: the server connection (replaced on reconnection) and input. */
struct client {
	int			 fd;		/* -1 while reconnecting */
	int			 tty;		/* standard input is a terminal */
	const struct client_opts *opts;
	struct render_view	 view;		/* how to draw */
	char			 cells[TTT_CELLS + 1];	/* last BOARD */
	enum client_prompt	 prompt;	/* the open question */
	int			 shown;		/* its text ends the last line */
	int			 sock_eof;
	int			 in_eof;
	int			 skip;		/* dropping an overlong line */
	int			 quitting;	/* QUIT sent */
	int			 done;
	int			 status;	/* exit status once done */
	const char		*why;		/* failure reason for stderr */
	char			 whybuf[RENDER_MAX];

	/*
	 * The reply to the command that starts the mode (or to RESUME after
	 * a reconnection) is awaited: until it comes, the lines of the
	 * public queue's pairing (a stranger's match, which the command
	 * aborts) are not shown, and input waits.
	 */
	enum proto_verb		 await;
	int			 watching;	/* OK WATCH came */
	int			 games;		/* GAME lines still to come */
	int			 games_end;	/* the list has just ended */
	int			 again_yes;	/* the last line was OK AGAIN y */
	char			 token[PROTO_TOKEN_LEN + 2];	/* "" if none */
	int			 lost;		/* reconnecting: no seat yet */
	struct backoff		 backoff;

	size_t			 inlen;
	size_t			 kblen;
	char			 in[CLIENT_IN_MAX];
	char			 kb[CLIENT_KB_MAX];
};

/* client.c */
int	client_run(const struct client_opts *);
void	client_print(struct client *, const char *);
void	client_note(struct client *, enum render_note);
void	client_send(struct client *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
void	client_quit(struct client *);
void	client_fail(struct client *, const char *);

/* client-event.c */
int	client_ready(struct client *);
void	client_server(struct client *);
void	client_begin(struct client *);

/* client-input.c */
void	client_show(struct client *);
void	client_input(struct client *);

/* net.c */
long	net_now_ms(void);
int	net_connect(const char *, const char *, int, char *, size_t);
int	net_send(int, const char *, size_t, int);

/* ping.c */
int	ping_run(const char *, const char *);

#endif /* CLIENT_H */
