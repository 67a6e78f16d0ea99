/* Unit tests of the daemon's token, read and compared (lib/token.c). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "token.h"

TestSuite(token, .timeout = 10);

/* A file holding text; its path (free it, unlink it). */
static char *
token_file(const char *text)
{
	char *path = strdup("/tmp/hx-token-test.XXXXXX");
	int fd;

	cr_assert_not_null(path);
	fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

Test(token, read_drops_trailing_space)
{
	char *path = token_file("s3cret \t\r\n\n"), buf[64];
	ssize_t n = token_read(path, buf, sizeof(buf));

	cr_assert_eq(n, 6);
	cr_assert_eq(memcmp(buf, "s3cret", 6), 0);
	unlink(path);
	free(path);
}

Test(token, read_keeps_inner_space_and_bounds)
{
	char *path = token_file("a b\nc\n"), buf[3];

	/* Only size bytes are read: "a b", nothing trimmed inside. */
	cr_assert_eq(token_read(path, buf, sizeof(buf)), 3);
	cr_assert_eq(memcmp(buf, "a b", 3), 0);
	unlink(path);
	free(path);
}

Test(token, read_empty_and_missing)
{
	char *path = token_file("\n\n"), buf[8];

	cr_assert_eq(token_read(path, buf, sizeof(buf)), 0);
	unlink(path);
	errno = 0;
	cr_assert_eq(token_read(path, buf, sizeof(buf)), -1);
	cr_assert_eq(errno, ENOENT);
	free(path);
}

Test(token, equal)
{
	cr_assert(token_equal("abc", 3, "abc", 3));
	cr_assert_not(token_equal("abc", 3, "abd", 3));
	cr_assert_not(token_equal("abc", 3, "ab", 2));
	cr_assert_not(token_equal("ab", 2, "abc", 3));
	/* A prefix repeated is not the token. */
	cr_assert_not(token_equal("abab", 4, "ab", 2));
	cr_assert_not(token_equal("", 0, "a", 1));
	cr_assert_not(token_equal("a", 1, "", 0));
	cr_assert(token_equal("", 0, "", 0));
}
