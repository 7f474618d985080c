/*
 * account.c -- reading and writing the file that keeps a server's account
 * key (its path: keyfile.c).
 *
 * A key is a secret.  A file that others may read or write (any group or
 * other permission bit), or that another user owns, is not used, as ssh
 * refuses such a private key: the player is told how to fix it.  A new
 * file is written under a temporary name with mode 0600, synced, and
 * renamed into place without replacing a file that is there (so a key is
 * never overwritten), its directory made with mode 0700 if missing.
 */
#define _GNU_SOURCE		/* renameat2 */

#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "account.h"
#include "keyfile.h"

#define ACCOUNT_FILE_MAX	1024	/* a key file's bytes that are read */

static int	account_mkdirs(char *);
static int	account_place(const char *, const char *);
static void	account_sync_dir(char *);

/* Is there a file (or anything) at path? */
int
account_exists(const char *path)
{
	struct stat	sb;

	return (lstat(path, &sb) == 0);
}

/*
 * Read the key kept in path into key (size bytes).  1 with the key; 0 if
 * there is no file; -1 with why if the file is not used (open to others,
 * another user's, unreadable, or holding no key).
 */
int
account_load(const char *path, char *key, size_t size, char *why,
    size_t whysize)
{
	struct stat	sb;
	char		text[ACCOUNT_FILE_MAX];
	ssize_t		n;
	int		fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
		if (errno == ENOENT)
			return (0);
		snprintf(why, whysize, "%s: %s", path, strerror(errno));
		return (-1);
	}
	if (fstat(fd, &sb) == -1 || !S_ISREG(sb.st_mode)) {
		snprintf(why, whysize, "%s is not a file", path);
		close(fd);
		return (-1);
	}
	if (sb.st_uid != getuid() || (sb.st_mode & 077) != 0) {
		snprintf(why, whysize, "%s is open to others (mode %04o%s): its key is not used; make it yours alone with: chmod 600 %s",
		    path, (unsigned)(sb.st_mode & 07777),
		    sb.st_uid != getuid() ? ", another user's" : "", path);
		close(fd);
		return (-1);
	}
	n = read(fd, text, sizeof text);
	close(fd);
	if (n < 0 || keyfile_key(text, (size_t)n, key, size) == -1) {
		snprintf(why, whysize, "%s holds no key: its key is not used",
		    path);
		return (-1);
	}
	return (1);
}

/*
 * Make the directories of path (all but its last part) that are missing,
 * mode 0700.  path is changed while this runs and restored.
 */
static int
account_mkdirs(char *path)
{
	char	*p;

	for (p = strchr(path + 1, '/'); p != NULL; p = strchr(p + 1, '/')) {
		*p = '\0';
		if (mkdir(path, 0700) == -1 && errno != EEXIST) {
			*p = '/';
			return (-1);
		}
		*p = '/';
	}
	return (0);
}

/*
 * Rename tmp to path unless something is at path: 0, or -1 with errno
 * (EEXIST if something is).  Where the file system cannot rename without
 * replacing, a hard link does the same.
 */
static int
account_place(const char *tmp, const char *path)
{
	if (renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE) == 0)
		return (0);
	if (errno != EINVAL && errno != ENOSYS)
		return (-1);
	if (link(tmp, path) == -1)
		return (-1);
	unlink(tmp);
	return (0);
}

/* Sync the directory of path, so that the rename lasts. */
static void
account_sync_dir(char *path)
{
	char	*slash = strrchr(path, '/');
	int	 fd;

	if (slash == NULL)
		return;
	*slash = '\0';
	if ((fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) != -1) {
		fsync(fd);
		close(fd);
	}
	*slash = '/';
}

/*
 * Keep key in a new file at path, mode 0600: 0, or -1 with why (a file
 * already there is not replaced).
 */
int
account_save(const char *path, const char *key, char *why, size_t whysize)
{
	char	tmp[4096], dir[4096];
	size_t	len = strlen(key);
	int	fd, ok;

	if (snprintf(tmp, sizeof tmp, "%s.XXXXXX", path) >= (int)sizeof tmp) {
		snprintf(why, whysize, "the path is too long");
		return (-1);
	}
	snprintf(dir, sizeof dir, "%s", path);
	if (account_mkdirs(dir) == -1 || (fd = mkstemp(tmp)) == -1) {
		snprintf(why, whysize, "%s", strerror(errno));
		return (-1);
	}
	ok = fchmod(fd, 0600) == 0 && write(fd, key, len) == (ssize_t)len &&
	    write(fd, "\n", 1) == 1 && fsync(fd) == 0;
	if (close(fd) == -1)
		ok = 0;
	if (!ok || account_place(tmp, path) == -1) {
		snprintf(why, whysize, "%s", errno == EEXIST ?
		    "a file is there already" : strerror(errno));
		unlink(tmp);
		return (-1);
	}
	account_sync_dir(dir);
	return (0);
}
