/*
 * test_e2e_client_accounts.c -- ttt-client's side of accounts (issue 25)
 * against the real tttd with --db on a file of the test's own, and a
 * config directory of its own (XDG_CONFIG_HOME): --register keeps a key
 * the server takes, in a file only its owner may read; the next run signs
 * in by itself, --guest does not; a key the server refuses, or a file
 * open to others, leaves the player a guest and the file in place; and
 * /rating, /history and /top show the server's numbers after a rated game
 * between two registered clients; a name refused to --register on a
 * terminal ends the client, not asked again.
 */
#include <sys/stat.h>
#include <sys/types.h>

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "client_drive.h"
#include "harness.h"

#define EXPECT(p, text, from)	drive_expect_at((p), __LINE__, (text), \
				    (from), HARNESS_TIMEOUT_MS)
#define KEY_LEN		26	/* the server's keys (protocol.md §12) */

static char		dir[64];		/* the test's own directory */
static char		db[128];		/* its tttd's --db */
static char		port[16];
static struct tttd_proc	srv;
static int		srv_up;
static struct player	pa = PLAYER_NONE, pb = PLAYER_NONE;
static struct conn	raw;
static const char	*cfg = "cfg";	/* XDG_CONFIG_HOME in dir */

/* The clients started next keep their keys in dir/sub (cfg, or another). */
static void
use_cfg(const char *sub)
{
	char	path[128];

	cfg = sub;
	snprintf(path, sizeof path, "%s/%s", dir, sub);
	setenv("XDG_CONFIG_HOME", path, 1);
}

/* The path of the key file for the test's server, into buf. */
static const char *
key_path(char *buf, size_t size)
{
	snprintf(buf, size, "%s/%s/ttt-client/127.0.0.1_%s.key", dir, cfg,
	    port);
	return (buf);
}

/*
 * A directory of the test's own, with XDG_CONFIG_HOME in it (not made:
 * the client makes it), and tttd on a database file in it.
 */
static int
setup(void **state)
{
	const char	*args[] = { "--db", db, "--seed", "1", NULL };

	(void)state;
	snprintf(dir, sizeof dir, "/tmp/ttt-cacc.XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(db, sizeof db, "%s/t.db", dir);
	use_cfg("cfg");
	assert_int_equal(harness_start(&srv, args), 0);
	srv_up = 1;
	snprintf(port, sizeof port, "%d", srv.port);
	return (0);
}

/* Whatever is left running ends; the directory goes. */
static int
teardown(void **state)
{
	char	cmd[128];

	(void)state;
	drive_reap(&pa);
	drive_reap(&pb);
	conn_close(&raw);
	if (srv_up)
		assert_int_equal(harness_stop(&srv), 0);
	srv_up = 0;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	return (0);
}

/* The key kept in the file at path (KEY_LEN + 1 bytes), with its mode. */
static void
key_read(const char *path, char *key, mode_t *mode)
{
	struct stat	 sb;
	FILE		*f;
	char		 line[128];

	assert_int_equal(stat(path, &sb), 0);
	*mode = sb.st_mode & 07777;
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof line, f));
	fclose(f);
	line[strcspn(line, "\n")] = '\0';
	if (strlen(line) != KEY_LEN)
		fail_msg("the key file holds \"%s\"", line);
	memcpy(key, line, KEY_LEN + 1);
}

/* Write a key file as a player might: text, in a mode. */
static void
key_write(const char *path, const char *text, mode_t mode)
{
	char	 d[160];
	FILE	*f;

	snprintf(d, sizeof d, "%s/cfg", dir);
	mkdir(d, 0700);
	snprintf(d, sizeof d, "%s/cfg/ttt-client", dir);
	mkdir(d, 0700);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	assert_int_equal(chmod(path, mode), 0);
}

/*
 * ttt-client --register --name NAME: registered, the key kept and said
 * where; then it quits.  The key, as the file holds it, into key.
 */
static void
client_register(struct player *p, const char *name, char *key)
{
	const char	*args[] = { "127.0.0.1", port, "--register", "--name",
			    name, NULL };
	char		 want[1024], path[160];
	mode_t		 mode;

	drive_start(p, args, INPUT_PIPE, OUTPUT_PIPE, NULL);
	snprintf(want, sizeof want, "Registered %s.\nYour key is kept in %s\n"
	    "It is the only copy: the server cannot show it again. Copy that "
	    "file to play as %s on another computer.\n", name,
	    key_path(path, sizeof path), name);
	EXPECT(p, want, 0);
	drive_write(p, "quit\n");
	assert_int_equal(drive_end_within(p, HARNESS_TIMEOUT_MS), 0);
	assert_string_equal(p->errbuf, "");
	key_read(path, key, &mode);
	assert_int_equal(mode, 0600);
}

/* A raw connection to the server, greeted, alone in a room of its own. */
static void
raw_open(void)
{
	char	line[256];

	assert_int_equal(conn_open(&raw, srv.port), 0);
	expect_prefix(&raw, "HELLO tttd/1 ");
	assert_int_equal(conn_send(&raw, "ROOM NEW"), 0);
	expect_skip_to(&raw, "OK ROOM ", line, sizeof line);
	expect_skip_to(&raw, "WAIT ", line, sizeof line);
}

/* The raw connection's reply to a line: its first line, into buf. */
static void
raw_ask(const char *cmd, char *buf, size_t size)
{
	assert_int_equal(conn_send(&raw, cmd), 0);
	assert_true(conn_event(&raw, buf, size, HARNESS_TIMEOUT_MS) > 0);
}

/*
 * --register: a file of mode 0600 in a new directory of mode 0700, holding
 * a key the server signs in with; a second --register for the server is
 * refused and the file left as it was.
 */
static void
test_client_register_keeps_key(void **state)
{
	const char	*args[] = { "127.0.0.1", port, "--register", "--name",
			    "bob", NULL };
	char		 key[KEY_LEN + 1], key2[KEY_LEN + 1], path[160];
	char		 line[256], want[512], d[160];
	struct stat	 sb;
	mode_t		 mode;

	(void)state;
	client_register(&pa, "alice", key);
	snprintf(d, sizeof d, "%s/cfg/ttt-client", dir);
	assert_int_equal(stat(d, &sb), 0);
	assert_int_equal(sb.st_mode & 07777, 0700);
	/* No temporary file is left beside it. */
	snprintf(line, sizeof line, "ls -A '%s' | grep -qv '^127.0.0.1_%s.key$'",
	    d, port);
	assert_int_not_equal(system(line), 0);
	raw_open();
	snprintf(line, sizeof line, "LOGIN %s", key);
	raw_ask(line, line, sizeof line);
	assert_string_equal(line, "OK LOGIN alice 1500 500");

	drive_start(&pb, args, INPUT_PIPE, OUTPUT_PIPE, NULL);
	assert_int_equal(drive_end_within(&pb, HARNESS_TIMEOUT_MS), 1);
	snprintf(want, sizeof want, "ttt-client: --register: a key for "
	    "127.0.0.1 port %s is kept in %s already, and is not replaced; "
	    "run without --register to sign in with it, or move the file "
	    "away first\n", port, key_path(path, sizeof path));
	assert_string_equal(pb.errbuf, want);
	key_read(path, key2, &mode);
	assert_string_equal(key2, key);
}

/*
 * With the key kept, a run signs in by itself (RATING of its own is the
 * server's proof: a guest has none); --guest does not, nor asks.
 */
static void
test_client_signs_in_by_itself(void **state)
{
	const char	*args[] = { "127.0.0.1", port, NULL };
	const char	*guest[] = { "127.0.0.1", port, "--guest", "--name",
			    "carol", NULL };
	char		 key[KEY_LEN + 1];
	size_t		 at;

	(void)state;
	client_register(&pa, "alice", key);
	drive_start(&pa, args, INPUT_PIPE, OUTPUT_PIPE, NULL);
	drive_write(&pa, "/rating\nquit\n");
	at = EXPECT(&pa, "Signed in as alice (rating 1500, provisional).\n",
	    0);
	at = EXPECT(&pa, "/rating\n", at);
	EXPECT(&pa, "alice: rating 1500? (provisional), RD 500\n"
	    "  0 games: 0 won, 0 lost, 0 tied\n", at);
	assert_int_equal(drive_end_within(&pa, HARNESS_TIMEOUT_MS), 0);
	assert_string_equal(pa.errbuf, "");

	drive_start(&pb, guest, INPUT_PIPE, OUTPUT_PIPE, NULL);
	drive_write(&pb, "/rating\nquit\n");
	EXPECT(&pb, "No account has that name.\n", EXPECT(&pb, "/rating\n",
	    0));
	assert_int_equal(drive_end_within(&pb, HARNESS_TIMEOUT_MS), 0);
	assert_null(strstr(pb.outbuf, "Signed in"));
	assert_string_equal(pb.errbuf, "");
}

/*
 * A key the server refuses: said, the player a guest under --name, the
 * file kept as it was.
 */
static void
test_client_key_refused(void **state)
{
	const char	*args[] = { "127.0.0.1", port, "--name", "carol",
			    NULL };
	char		 path[160], want[512], key[KEY_LEN + 1];
	mode_t		 mode;

	(void)state;
	key_path(path, sizeof path);
	key_write(path, "abcdefghijklmnopqrstuvwxyz\n", 0600);
	drive_start(&pa, args, INPUT_PIPE, OUTPUT_PIPE, NULL);
	drive_write(&pa, "/rating carol\nquit\n");
	snprintf(want, sizeof want, "The server refused the key kept in %s: "
	    "No account has that key.\nYou play as a guest; the key file is "
	    "kept.\n", path);
	EXPECT(&pa, want, 0);
	EXPECT(&pa, "No account has that name.\n", EXPECT(&pa,
	    "/rating carol\n", 0));
	assert_int_equal(drive_end_within(&pa, HARNESS_TIMEOUT_MS), 0);
	assert_string_equal(pa.errbuf, "");
	key_read(path, key, &mode);
	assert_string_equal(key, "abcdefghijklmnopqrstuvwxyz");
	assert_int_equal(mode, 0600);
}

/*
 * A key file others may read is not used, as ssh refuses such a private
 * key: said on stderr with the fix, the player a guest, the file kept.
 */
static void
test_client_key_file_open_to_others(void **state)
{
	const char	*args[] = { "127.0.0.1", port, NULL };
	char		 key[KEY_LEN + 1], path[160], want[512];

	(void)state;
	client_register(&pa, "alice", key);
	key_path(path, sizeof path);
	assert_int_equal(chmod(path, 0644), 0);
	drive_start(&pa, args, INPUT_PIPE, OUTPUT_PIPE, NULL);
	drive_write(&pa, "/rating alice\nquit\n");
	EXPECT(&pa, "alice: rating 1500? (provisional), RD 500\n", EXPECT(&pa,
	    "/rating alice\n", 0));
	assert_int_equal(drive_end_within(&pa, HARNESS_TIMEOUT_MS), 0);
	assert_null(strstr(pa.outbuf, "Signed in"));
	snprintf(want, sizeof want, "ttt-client: %s is open to others (mode "
	    "0644): its key is not used; make it yours alone with: chmod 600 "
	    "%s; you play as a guest\n", path, path);
	assert_string_equal(pa.errbuf, want);
	assert_int_equal(access(path, R_OK), 0);
}

/* Run SQL on the test's database beside the running server. */
static void
db_exec(const char *sql)
{
	sqlite3	*h;

	assert_int_equal(sqlite3_open(db, &h), SQLITE_OK);
	sqlite3_busy_timeout(h, 5000);
	assert_int_equal(sqlite3_exec(h, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(h);
}

/*
 * What /history shows of a PLAYED line, and /top of a RANKED line, from
 * the server's own line (the raw connection's): into want.
 */
static void
want_played(const char *line, char *want, size_t size)
{
	char	id[96], when[32], x[40], o[40], won[8], moves[40];

	assert_int_equal(sscanf(line, "PLAYED %95s %31s %39s %39s %7s %39s",
	    id, when, x, o, won, moves), 6);
	snprintf(want, size, "  %.10s %.5s  %-16s  %-16s  %-6s  %s\n", when,
	    when + 11, x, o, strcmp(won, "TIE") == 0 ? "tie" : won, moves);
}

static void
want_ranked(const char *line, char *want, size_t size)
{
	char	name[40];
	long	rank, rating, rd, games;

	assert_int_equal(sscanf(line, "RANKED %ld %39s %ld %ld %ld", &rank,
	    name, &rating, &rd, &games), 5);
	snprintf(want, size, "  %4ld  %-16s  %6ld  %4ld  %5ld\n", rank, name,
	    rating, rd, games);
}

/*
 * Two registered clients play a rated game in the public queue (alice
 * wins down column A whoever starts; bob, made a player of long standing
 * in the database, is on the leaderboard); at "Play again?" alice asks
 * /rating, /history and /top, and sees the server's numbers, as a raw
 * connection reads them, in the client's tables.
 */
static void
test_client_rated_game_numbers(void **state)
{
	const char	*args[] = { "127.0.0.1", port, NULL };
	char		 ka[KEY_LEN + 1], kb[KEY_LEN + 1], line[512];
	char		 want[1024], rating[64], row[256];
	long		 r, rd, games, w, l, t;
	size_t		 at;

	(void)state;
	client_register(&pa, "alice", ka);
	use_cfg("cfg-bob");		/* bob's own computer */
	client_register(&pb, "bob", kb);
	db_exec("UPDATE accounts SET rating = 1700, rd = 60, "
	    "volatility = 0.06, games = 40, wins = 25, losses = 10, ties = 5, "
	    "last_game = CAST(strftime('%s', 'now') AS INTEGER) "
	    "WHERE name = 'bob'");
	use_cfg("cfg");
	drive_start(&pa, args, INPUT_PIPE, OUTPUT_PIPE, NULL);
	EXPECT(&pa, "Signed in as alice", 0);
	use_cfg("cfg-bob");
	drive_start(&pb, args, INPUT_PIPE, OUTPUT_PIPE, NULL);
	EXPECT(&pb, "Signed in as bob", 0);
	drive_write(&pa, "A1\nA2\nA3\n/rating\n/history\n/top\nn\n");
	drive_write(&pb, "B1\nC2\nB3\nn\n");
	at = EXPECT(&pa, "alice wins!", 0);
	at = EXPECT(&pa, "Your rating: ", at);
	assert_int_equal(drive_end_within(&pa, HARNESS_TIMEOUT_MS), 0);
	assert_int_equal(drive_end_within(&pb, HARNESS_TIMEOUT_MS), 0);
	assert_string_equal(pa.errbuf, "");

	raw_open();
	raw_ask("RATING alice", line, sizeof line);
	assert_int_equal(sscanf(line, "OK RATING alice %63s %ld %ld %ld %ld "
	    "%ld", rating, &rd, &games, &w, &l, &t), 6);
	assert_int_equal(games, 1);
	assert_int_equal(w, 1);
	r = atol(rating);
	assert_true(r > 1500);
	snprintf(want, sizeof want, "alice: rating %ld%s, RD %ld\n"
	    "  1 game: 1 won, 0 lost, 0 tied\n", r,
	    strchr(rating, '?') != NULL ? "? (provisional)" : "", rd);
	/* The lines typed at "Play again?" are echoed before the INFO. */
	at = EXPECT(&pa, want, at);

	raw_ask("HISTORY alice", line, sizeof line);
	assert_string_equal(line, "OK HISTORY 1");
	assert_true(conn_event(&raw, line, sizeof line,
	    HARNESS_TIMEOUT_MS) > 0);
	want_played(line, row, sizeof row);
	snprintf(want, sizeof want, "Rated games, newest first:\n"
	    "  ended (UTC)       X                 O                 winner  "
	    "moves\n%s", row);
	at = EXPECT(&pa, want, at);

	raw_ask("TOP", line, sizeof line);
	assert_string_equal(line, "OK TOP 1");
	assert_true(conn_event(&raw, line, sizeof line,
	    HARNESS_TIMEOUT_MS) > 0);
	assert_true(strncmp(line, "RANKED 1 bob ", 13) == 0);
	want_ranked(line, row, sizeof row);
	snprintf(want, sizeof want,
	    "  rank  name              rating    RD  games\n%s", row);
	EXPECT(&pa, want, at);
}

/*
 * --register on a terminal, a name the server refuses typed at the name
 * prompt: the client ends with the reason and status 1, as the man page
 * says, and does not ask for the name again (that is for guests), nor
 * keeps a key.
 */
static void
test_client_register_name_refused(void **state)
{
	const char	*args[] = { "127.0.0.1", port, "--register", NULL };
	char		 path[160];
	struct stat	 sb;

	(void)state;
	drive_start(&pa, args, INPUT_PTY, OUTPUT_PIPE, NULL);
	EXPECT(&pa, "Enter your name: ", 0);
	drive_write(&pa, "ai\n");
	assert_int_equal(drive_end_within(&pa, HARNESS_TIMEOUT_MS), 1);
	assert_string_equal(pa.errbuf, "ttt-client: cannot register: "
	    "That name is taken; choose another.\n");
	assert_int_equal(harness_count(pa.outbuf, "Enter your name: "), 1);
	assert_int_not_equal(stat(key_path(path, sizeof path), &sb), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_client_register_keeps_key,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_client_signs_in_by_itself,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_client_key_refused,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_client_key_file_open_to_others, setup, teardown),
		cmocka_unit_test_setup_teardown(test_client_rated_game_numbers,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_client_register_name_refused, setup, teardown),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
