/*
 * edit.c -- the player's line on a terminal, kept by libedit through its
 * readline-compatible callback interface: the poll loop hands it each
 * byte the terminal has, and it keeps the line being typed (UTF-8 and
 * all, in the locale's encoding) with its prompt.  To print, the client
 * hides the line (the terminal's line erased), prints, and shows it again
 * (libedit draws the prompt and the typed text anew, the cursor where it
 * was), so a server line never breaks what the player is typing.
 *
 * libedit catches no signal here: Control-C is the client's (a polite
 * quit, client.c).
 */
#include <sys/types.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <editline/readline.h>

#include "edit.h"

#define EDIT_PROMPT_MAX	256

static char	 edit_prompt_text[EDIT_PROMPT_MAX];
static char	*edit_line;	/* a finished line not yet taken */
static int	 edit_eof;	/* Control-D on an empty line */
static int	 edit_on;
static int	 edit_typed;	/* keys since the last line (rl_end is
				   stale until the next key) */

static void	edit_line_cb(char *);
static void	edit_done(void);
static void	edit_erase(int);

/* libedit has a whole line (NULL: the end of input). */
static void
edit_line_cb(char *line)
{
	if (line == NULL) {
		edit_eof = 1;
		return;
	}
	free(edit_line);
	edit_line = line;
}

/* Take over the terminal's line, with no prompt yet. */
void
edit_start(void)
{
	rl_catch_signals = 0;
	rl_catch_sigwinch = 0;
	edit_prompt_text[0] = '\0';
	edit_typed = 0;
	fflush(stdout);
	rl_callback_handler_install(edit_prompt_text, edit_line_cb);
	edit_on = 1;
}

/*
 * Let libedit read what the terminal has (standard input is readable).
 * Returns the length of a finished line copied into buf with its newline
 * (cut to fit), 0 if none is finished yet, -1 at the end of input.  The
 * finished line stays on screen after its prompt; the next line starts
 * with no prompt, until the client asks a question again.
 */
ssize_t
edit_read(char *buf, size_t size)
{
	size_t	n;

	if (!edit_on || size == 0)
		return (-1);
	rl_callback_read_char();
	if (edit_eof) {
		edit_done();
		return (-1);
	}
	edit_typed = 1;
	if (edit_line == NULL)
		return (0);
	edit_typed = 0;
	n = strlen(edit_line);
	if (n > size - 1)
		n = size - 1;
	memcpy(buf, edit_line, n);
	buf[n++] = '\n';
	free(edit_line);
	edit_line = NULL;
	/*
	 * libedit leaves its character-at-a-time mode after a line; the
	 * handler, installed again, takes it back.
	 */
	edit_prompt_text[0] = '\0';
	fflush(stdout);
	rl_callback_handler_install(edit_prompt_text, edit_line_cb);
	return ((ssize_t)n);
}

/*
 * Control-D on an empty line: libedit has echoed it as "^D" and keeps it
 * in its line, to draw again.  Erase it, leave the prompt as it was asked
 * (its line ended, as edit_end does), and stop editing: nothing is read
 * or drawn after the end of input.
 */
static void
edit_done(void)
{
	edit_typed = 0;
	edit_erase((int)strlen(edit_prompt_text) + 2);
	fputs(edit_prompt_text, stdout);
	edit_end();
}

/* Ask with this prompt ("" for none), keeping what is typed. */
void
edit_prompt(const char *prompt)
{
	if (!edit_on || strcmp(prompt, edit_prompt_text) == 0)
		return;
	snprintf(edit_prompt_text, sizeof edit_prompt_text, "%s", prompt);
	edit_hide();
	rl_set_prompt(edit_prompt_text);
	edit_show();
}

/*
 * Erase the prompt and the typed text from the screen, to print there:
 * up to the row they start on (they may wrap), then to the screen's end.
 */
void
edit_hide(void)
{
	if (!edit_on)
		return;
	edit_erase((int)strlen(edit_prompt_text) +
	    (edit_typed ? rl_point : 0));
}

/*
 * Erase from the row the prompt starts on to the screen's end, the cursor
 * at column at of what was drawn from there.
 */
static void
edit_erase(int at)
{
	int	rows, cols;

	rl_get_screen_size(&rows, &cols);
	if (cols > 0 && at / cols > 0)
		printf("\033[%dA", at / cols);
	fputs("\r\033[J", stdout);
}

/* Draw the prompt and the typed text again, below what was printed. */
void
edit_show(void)
{
	if (!edit_on)
		return;
	fflush(stdout);
	rl_forced_update_display();
	fflush(stdout);
}

/* Drop what is being typed (Control-C), from the screen too. */
void
edit_cancel(void)
{
	if (!edit_on)
		return;
	edit_hide();
	fflush(stdout);
	/* Installed anew, the handler starts an empty line. */
	rl_callback_handler_remove();
	rl_callback_handler_install(edit_prompt_text, edit_line_cb);
	edit_typed = 0;
}

/*
 * Give the terminal back as it was; a prompt or text left on screen has
 * its line ended.
 */
void
edit_end(void)
{
	if (!edit_on)
		return;
	if (edit_prompt_text[0] != '\0' || (edit_typed && rl_end > 0))
		fputc('\n', stdout);
	fflush(stdout);
	rl_callback_handler_remove();
	free(edit_line);
	edit_line = NULL;
	edit_on = 0;
}
