/*
 * test_keyfile.c -- where ttt-client keeps a server's account key
 * (client/keyfile.c): the directory from XDG_CONFIG_HOME or HOME, the file
 * name from the host and port, and the key read back from the file's text.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "keyfile.h"

#define NCASES(a)	(sizeof (a) / sizeof (a)[0])

/*
 * The directory: $XDG_CONFIG_HOME/ttt-client when it is an absolute path,
 * else ~/.config/ttt-client; neither: none.
 */
static void
test_keyfile_dir(void **state)
{
	static const struct {
		const char	*xdg;
		const char	*home;
		const char	*want;		/* NULL: -1 */
	} cases[] = {
		{ "/x/cfg", "/home/ann", "/x/cfg/ttt-client" },
		{ NULL, "/home/ann", "/home/ann/.config/ttt-client" },
		{ "", "/home/ann", "/home/ann/.config/ttt-client" },
		{ "cfg", "/home/ann", "/home/ann/.config/ttt-client" },
		{ "/x/cfg", NULL, "/x/cfg/ttt-client" },
		{ NULL, NULL, NULL },
		{ "", "", NULL },
		{ "rel", NULL, NULL },
	};
	char	buf[256];
	size_t	i;
	int	r;

	(void)state;
	for (i = 0; i < NCASES(cases); i++) {
		r = keyfile_dir(buf, sizeof buf, cases[i].xdg, cases[i].home);
		if (cases[i].want == NULL) {
			assert_int_equal(r, -1);
			continue;
		}
		assert_int_equal(r, 0);
		assert_string_equal(buf, cases[i].want);
	}
	assert_int_equal(keyfile_dir(buf, 10, "/x/cfg", NULL), -1);
}

/*
 * The file name: HOST_PORT.key, the host's letters in lower case and odd
 * bytes as '_', the port as a plain number.
 */
static void
test_keyfile_name(void **state)
{
	static const struct {
		const char	*host;
		const char	*port;
		const char	*want;		/* NULL: -1 */
	} cases[] = {
		{ "localhost", "7777", "localhost_7777.key" },
		{ "TTT.Example.ORG", "4000", "ttt.example.org_4000.key" },
		{ "127.0.0.1", "07777", "127.0.0.1_7777.key" },
		{ "::1", "1", "::1_1.key" },
		{ "fe80::1%eth0", "65535", "fe80::1_eth0_65535.key" },
		{ "../../etc", "22", ".._.._etc_22.key" },
		{ "a b/c", "22", "a_b_c_22.key" },
		{ "", "22", NULL },
		{ "h", "0", NULL },
		{ "h", "65536", NULL },
		{ "h", "x1", NULL },
		{ "h", "1x", NULL },
		{ "h", "-1", NULL },
	};
	char	buf[300], host[KEYFILE_HOST_MAX + 2];
	size_t	i;
	int	r;

	(void)state;
	for (i = 0; i < NCASES(cases); i++) {
		r = keyfile_name(buf, sizeof buf, cases[i].host,
		    cases[i].port);
		if (cases[i].want == NULL) {
			if (r != -1)
				fail_msg("%s %s: %s", cases[i].host,
				    cases[i].port, buf);
			continue;
		}
		assert_int_equal(r, 0);
		assert_string_equal(buf, cases[i].want);
	}
	memset(host, 'a', KEYFILE_HOST_MAX);
	host[KEYFILE_HOST_MAX] = '\0';
	assert_int_equal(keyfile_name(buf, sizeof buf, host, "1"), 0);
	host[KEYFILE_HOST_MAX] = 'a';
	host[KEYFILE_HOST_MAX + 1] = '\0';
	assert_int_equal(keyfile_name(buf, sizeof buf, host, "1"), -1);
}

/* The whole path: the directory, a slash, the name; too long: -1. */
static void
test_keyfile_path(void **state)
{
	char	buf[128];

	(void)state;
	assert_int_equal(keyfile_path(buf, sizeof buf, NULL, "/home/ann",
	    "Localhost", "7777"), 0);
	assert_string_equal(buf,
	    "/home/ann/.config/ttt-client/localhost_7777.key");
	assert_int_equal(keyfile_path(buf, sizeof buf, "/tmp/x", "/home/ann",
	    "h", "1"), 0);
	assert_string_equal(buf, "/tmp/x/ttt-client/h_1.key");
	assert_int_equal(keyfile_path(buf, 25, "/tmp/x", NULL, "h", "1"), -1);
	assert_int_equal(keyfile_path(buf, sizeof buf, NULL, NULL, "h", "1"),
	    -1);
	assert_int_equal(keyfile_path(buf, sizeof buf, "/x", NULL, "", "1"),
	    -1);
}

/* The key: the first line's one word of letters and digits. */
static void
test_keyfile_key(void **state)
{
	static const struct {
		const char	*text;
		const char	*want;		/* NULL: -1 */
	} cases[] = {
		{ "q3x7mhd2kzv4lr5bpx6ejwsa4u\n", "q3x7mhd2kzv4lr5bpx6ejwsa4u" },
		{ "q3x7mhd2kzv4lr5bpx6ejwsa4u", "q3x7mhd2kzv4lr5bpx6ejwsa4u" },
		{ "  abc\t\r\nignored\n", "abc" },
		{ "ABC123\n", "ABC123" },
		{ "\n", NULL },
		{ "", NULL },
		{ "   \n", NULL },
		{ "abc def\n", NULL },
		{ "ab-c\n", NULL },
		{ "\nabc\n", NULL },
		{ "0123456789012345678901234567890123456789", NULL },
	};
	char	key[32];
	size_t	i;
	int	r;

	(void)state;
	for (i = 0; i < NCASES(cases); i++) {
		r = keyfile_key(cases[i].text, strlen(cases[i].text), key,
		    sizeof key);
		if (cases[i].want == NULL) {
			if (r != -1)
				fail_msg("\"%s\" gave \"%s\"", cases[i].text,
				    key);
			continue;
		}
		assert_int_equal(r, 0);
		assert_string_equal(key, cases[i].want);
	}
	/* Only len bytes are read: no NUL is needed. */
	assert_int_equal(keyfile_key("abcdef", 3, key, sizeof key), 0);
	assert_string_equal(key, "abc");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keyfile_dir),
		cmocka_unit_test(test_keyfile_name),
		cmocka_unit_test(test_keyfile_path),
		cmocka_unit_test(test_keyfile_key),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
