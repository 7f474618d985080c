/*
 * out.h -- the session every part of ttt-client shares (struct client),
 * and what they all call to act on it (out.c): the screen, the lines sent
 * to the server, the end of the client.  Above it: client.h.
 */
#ifndef OUT_H
#define OUT_H

#include "args.h"
#include "backoff.h"
#include "render.h"

#define CLIENT_CONNECT_MS	10000	/* how long a connect may take */
#define CLIENT_SEND_MS		10000	/* how long a blocked send may wait */

#define CLIENT_IN_MAX	8192	/* server bytes waiting for a newline */
#define CLIENT_PATH_MAX	4096	/* the key file's path */
#define CLIENT_KB_MAX	1024	/* input bytes waiting for a newline */

enum client_prompt {
	CLIENT_PROMPT_NONE,
	CLIENT_PROMPT_NAME,
	CLIENT_PROMPT_MOVE,
	CLIENT_PROMPT_AGAIN
};

/*
 * The account's step under way (client-account.c).  The first two wait
 * for the greeting; from CLIENT_ACCT_SIGNING on a reply is awaited, and
 * the player's lines wait for it.
 */
enum client_acct {
	CLIENT_ACCT_NONE,
	CLIENT_ACCT_LOGIN,	/* a kept key: LOGIN at the greeting */
	CLIENT_ACCT_REGISTER,	/* --register: once the name is chosen */
	CLIENT_ACCT_SIGNING,	/* LOGIN sent; then the name, the mode */
	CLIENT_ACCT_RESIGNING,	/* LOGIN sent again, back in the queue */
	CLIENT_ACCT_NAMING,	/* NAME sent: REGISTER once it is taken */
	CLIENT_ACCT_REGISTERING	/* REGISTER sent: OK REGISTER, then KEY */
};

/* One session: the server connection (replaced on reconnection) and input. */
struct client {
	int			 fd;		/* -1 while reconnecting */
	struct tls		*tls;		/* --tls: its session, or NULL */
	int			 tty;		/* standard input is a terminal */
	int			 edit;		/* its line kept by libedit */
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
	int			 hello;		/* HELLO came */
	int			 renaming;	/* /name lines not answered */
	int			 watching;	/* OK WATCH came */
	int			 games;		/* GAME lines still to come */
	int			 games_end;	/* the list has just ended */
	int			 again_yes;	/* the last line was OK AGAIN y */
	int			 moving;	/* MOVE sent, its reply not in */
	int			 turn_held;	/* meanwhile a TURN of ours came:
						   client_turn_held */
	char			 token[PROTO_TOKEN_LEN + 2];	/* "" if none */
	char			 name[PROTO_NAME_MAX + 1];	/* the name the
							   server took */
	int			 queued;	/* in the public queue */
	int			 requeue;	/* reconnecting to the queue */
	int			 lost;		/* reconnecting: no seat yet */
	struct backoff		 backoff;

	enum client_acct	 acct;
	int			 signed_in;	/* OK LOGIN or KEY came */
	int			 named;		/* NAME sent at the start */
	int			 naming;	/* on a terminal, that NAME (or
						   the one asked again) not
						   answered */
	int			 name_again;	/* the name asked again after
						   a refusal: client_naming */
	char			 key[PROTO_KEY_MAX + 1];	/* "" if none */
	char			 keypath[CLIENT_PATH_MAX];	/* "" if none */

	size_t			 inlen;
	size_t			 kblen;
	char			 in[CLIENT_IN_MAX];
	char			 kb[CLIENT_KB_MAX];
};

void	out_print(struct client *, const char *);
void	out_note(struct client *, enum render_note);
void	out_send(struct client *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
void	out_begin(struct client *);
void	out_quit(struct client *);
void	out_fail(struct client *, const char *);

#endif /* OUT_H */
