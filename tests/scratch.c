/* Scratch files and bits for the tests: see scratch.h. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "harness.h"
#include "scratch.h"

static char scratch[64];

void
hx_scratch_init(void)
{
	snprintf(scratch, sizeof(scratch), "/tmp/hxscratch.XXXXXX");
	cr_assert_not_null(mkdtemp(scratch), "%s", strerror(errno));
}

void
hx_scratch_fini(void)
{
	if (scratch[0] != '\0')
		hx_remove_tree(scratch);
}

const char *
hx_scratch(const char *name)
{
	static char path[4][128];
	static int i;

	i = (i + 1) % 4;
	snprintf(path[i], sizeof(path[i]), "%s/%s", scratch, name);
	return path[i];
}

uint8_t *
hx_read_file(const char *path, size_t *len)
{
	struct stat sb;
	uint8_t *buf;
	int fd;

	fd = open(path, O_RDONLY);
	cr_assert_geq(fd, 0, "%s: %s", path, strerror(errno));
	cr_assert_eq(fstat(fd, &sb), 0);
	buf = malloc((size_t)sb.st_size + 1);
	cr_assert_not_null(buf);
	cr_assert_eq(read(fd, buf, (size_t)sb.st_size), sb.st_size);
	buf[sb.st_size] = '\0';
	close(fd);
	*len = (size_t)sb.st_size;
	return buf;
}

void
hx_write_file(const char *path, const void *buf, size_t len)
{
	int fd;

	unlink(path);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	cr_assert_geq(fd, 0, "%s: %s", path, strerror(errno));
	cr_assert_eq(write(fd, buf, len), (ssize_t)len);
	close(fd);
}

uint64_t
hx_mix64(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t z = a * 0x9e3779b97f4a7c15ull ^ b * 0xbf58476d1ce4e5b9ull ^
	    c * 0x94d049bb133111ebull;

	z += 0x9e3779b97f4a7c15ull;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

uint64_t
hx_bits(double d)
{
	uint64_t u;

	memcpy(&u, &d, sizeof(u));
	return u;
}

double
hx_double(uint64_t u)
{
	double d;

	memcpy(&d, &u, sizeof(d));
	return d;
}
