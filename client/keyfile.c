/*
 * keyfile.c -- the rule that names the file ttt-client keeps a server's
 * account key in, and what counts as a key in it.
 *
 * The directory is $XDG_CONFIG_HOME/ttt-client, or ~/.config/ttt-client
 * when XDG_CONFIG_HOME is unset, empty or relative (the XDG Base Directory
 * specification).  The file is HOST_PORT.key: the host as it was typed,
 * its ASCII letters in lower case (DNS names ignore case) and any byte but
 * a letter, a digit, '.', '-' or ':' as '_'; the port as a plain number
 * (07777 is 7777).  So localhost and 127.0.0.1 are two servers, and so
 * are two ports of one host.  The file holds the key on its first line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keyfile.h"

/*
 * The directory of the key files, from XDG_CONFIG_HOME and HOME (either
 * may be NULL): 0, or -1 if neither gives one or it does not fit.
 */
int
keyfile_dir(char *buf, size_t size, const char *xdg, const char *home)
{
	int	n;

	if (xdg != NULL && xdg[0] == '/')
		n = snprintf(buf, size, "%s/ttt-client", xdg);
	else if (home != NULL && home[0] != '\0')
		n = snprintf(buf, size, "%s/.config/ttt-client", home);
	else
		return (-1);
	return (n < 0 || (size_t)n >= size ? -1 : 0);
}

/*
 * The file name for a server: HOST_PORT.key.  -1 for an empty or overlong
 * host or a port that is not 1 to 65535.
 */
int
keyfile_name(char *buf, size_t size, const char *host, const char *port)
{
	char	 safe[KEYFILE_HOST_MAX + 1], *end;
	size_t	 i, len = strlen(host);
	long	 n;
	int	 r;

	if (len == 0 || len > KEYFILE_HOST_MAX || port[0] < '0' ||
	    port[0] > '9')
		return (-1);
	n = strtol(port, &end, 10);
	if (*end != '\0' || n < 1 || n > 65535)
		return (-1);
	for (i = 0; i < len; i++) {
		safe[i] = host[i];
		if (safe[i] >= 'A' && safe[i] <= 'Z')
			safe[i] = (char)(safe[i] - 'A' + 'a');
		else if (!(safe[i] >= 'a' && safe[i] <= 'z') &&
		    !(safe[i] >= '0' && safe[i] <= '9') &&
		    strchr(".-:", safe[i]) == NULL)
			safe[i] = '_';
	}
	safe[len] = '\0';
	r = snprintf(buf, size, "%s_%ld.key", safe, n);
	return (r < 0 || (size_t)r >= size ? -1 : 0);
}

/* The whole path of a server's key file: keyfile_dir, then keyfile_name. */
int
keyfile_path(char *buf, size_t size, const char *xdg, const char *home,
    const char *host, const char *port)
{
	char	name[KEYFILE_HOST_MAX + 16];
	size_t	len;

	if (keyfile_dir(buf, size, xdg, home) == -1 ||
	    keyfile_name(name, sizeof name, host, port) == -1)
		return (-1);
	len = strlen(buf);
	if (len + 1 + strlen(name) >= size)
		return (-1);
	buf[len] = '/';
	memcpy(buf + len + 1, name, strlen(name) + 1);
	return (0);
}

/*
 * The key in a key file's text (len bytes): its first line without the
 * blanks around it, 1 to size - 1 letters and digits.  0 with the key, -1
 * if the file holds none.
 */
int
keyfile_key(const char *text, size_t len, char *key, size_t size)
{
	const char	*lf = memchr(text, '\n', len);
	size_t		 start = 0, end, i;

	end = lf != NULL ? (size_t)(lf - text) : len;
	while (start < end && (text[start] == ' ' || text[start] == '\t'))
		start++;
	while (end > start && strchr(" \t\r", text[end - 1]) != NULL)
		end--;
	if (end == start || end - start >= size)
		return (-1);
	for (i = start; i < end; i++) {
		if (!(text[i] >= 'a' && text[i] <= 'z') &&
		    !(text[i] >= 'A' && text[i] <= 'Z') &&
		    !(text[i] >= '0' && text[i] <= '9'))
			return (-1);
	}
	memcpy(key, text + start, end - start);
	key[end - start] = '\0';
	return (0);
}
