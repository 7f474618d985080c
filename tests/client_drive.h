/*
 * client_drive.h -- the real ttt-client run by a test: its input from a
 * pipe, a pty or /dev/null, its output read from a pipe or a pty.
 */
#ifndef CLIENT_DRIVE_H
#define CLIENT_DRIVE_H

#include <sys/types.h>

#include <stddef.h>

/* Where the client's standard input comes from. */
enum player_input {
	INPUT_PIPE,		/* a pipe the test writes to */
	INPUT_PTY,		/* a pseudo-terminal */
	INPUT_NULL		/* /dev/null */
};

/* Where its standard output goes. */
enum player_output {
	OUTPUT_PIPE,		/* a pipe: no colour */
	OUTPUT_TTY		/* a pty: colour, unless NO_COLOR */
};

/* The ttt-client under test, its output as read so far. */
struct player {
	pid_t	pid;		/* -1: none */
	int	in;		/* its standard input: a pipe or a pty master */
	int	out;		/* its standard output, -1 at EOF */
	int	err;		/* its standard error, -1 at EOF */
	size_t	outlen;
	size_t	errlen;
	char	outbuf[65536];
	char	errbuf[4096];
};

#define PLAYER_NONE	{ -1, -1, -1, -1, 0, 0, "", "" }

void	drive_pty_open(int *, int *);
void	drive_start(struct player *, const char *const *, enum player_input,
	    enum player_output, const char *);
void	drive_write(struct player *, const char *);
void	drive_close_input(struct player *);
void	drive_read(struct player *, int);
size_t	drive_expect_at(struct player *, int, const char *, size_t, int);
int	drive_end_within(struct player *, int);
void	drive_reap(struct player *);

#endif
