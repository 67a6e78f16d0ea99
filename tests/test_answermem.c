/*
 * Unit tests of the loader's answer in shared memory (daemon/answermem.c):
 * the daemon maps only an answer sealed against writes, growing and
 * shrinking, and no larger than it allows; sealed, the answer can no
 * longer be written, truncated or mapped for writing, which is what
 * lets the daemon read it in place.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "answermem.h"

TestSuite(answermem, .timeout = 10);

static const char answer[] = "an answer of the loader";

/* fd (made for the answer) with the answer written in. */
static int
written(void)
{
	int fd = answermem_create(64);

	cr_assert_neq(fd, -1, "%s", strerror(errno));
	cr_assert_eq(ftruncate(fd, sizeof(answer)), 0);
	cr_assert_eq(pwrite(fd, answer, sizeof(answer), 0), sizeof(answer));
	return fd;
}

Test(answermem, is_made_as_big_as_asked_and_closed_on_exec)
{
	int fd = answermem_create(1 << 20);

	cr_assert_neq(fd, -1);
	cr_expect_eq(lseek(fd, 0, SEEK_END), 1 << 20);
	cr_expect_eq(fcntl(fd, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
	close(fd);
}

/*
 * What a loader can make the daemon hold is the room it was given: the
 * memory cannot grow, by a write past its end or by ftruncate (a loader
 * writing it a window at a time would pass its address-space limit).
 */
Test(answermem, cannot_grow_past_its_room)
{
	char *w;
	int fd = answermem_create(4096);

	cr_assert_neq(fd, -1);
	cr_expect_eq(ftruncate(fd, 8192), -1);
	cr_expect_eq(pwrite(fd, "X", 1, 4096), -1);
	cr_expect_eq(pwrite(fd, "X", 1, 4095), 1, "within the room");
	w = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	cr_assert_neq(w, MAP_FAILED);
	w[0] = 'Y'; /* the page past the end would be a SIGBUS */
	munmap(w, 8192);
	cr_expect_eq(lseek(fd, 0, SEEK_END), 4096);
	/* It may shrink to its answer, and not grow back. */
	cr_expect_eq(ftruncate(fd, 100), 0);
	cr_expect_eq(ftruncate(fd, 4096), -1);
	close(fd);
}

Test(answermem, an_answer_not_sealed_is_not_read)
{
	size_t n = 0;
	int fd = written();

	cr_expect_null(answermem_map(fd, 1 << 20, &n), "not sealed");
	/* Sealed only against changes of size: it could still be written. */
	cr_assert_eq(fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK), 0);
	cr_expect_null(answermem_map(fd, 1 << 20, &n), "writable");
	close(fd);
}

Test(answermem, a_sealed_answer_is_read_in_place_and_cannot_change)
{
	const char *p;
	size_t n = 0;
	int fd = written();

	cr_assert_eq(answermem_seal(fd), 0, "%s", strerror(errno));
	cr_assert_not_null(p = answermem_map(fd, 1 << 20, &n));
	cr_expect_eq(n, sizeof(answer));
	cr_expect_str_eq(p, answer);
	/* What a loader might try after sealing, refused. */
	cr_expect_eq(pwrite(fd, "X", 1, 0), -1);
	cr_expect_eq(ftruncate(fd, 0), -1, "no shrinking under the reader");
	cr_expect_eq(ftruncate(fd, 1 << 20), -1);
	cr_expect_eq(mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0),
	    MAP_FAILED);
	cr_expect_eq(fcntl(fd, F_ADD_SEALS, 0), -1, "the seals are sealed");
	cr_expect_str_eq(p, answer);
	answermem_unmap(p, n);
	close(fd);
}

Test(answermem, a_writable_mapping_left_keeps_it_unsealed)
{
	size_t n = 0;
	char *w;
	int fd = written();

	w = mmap(
	    NULL, sizeof(answer), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	cr_assert_neq(w, MAP_FAILED);
	cr_expect_eq(answermem_seal(fd), -1);
	cr_expect_eq(errno, EBUSY);
	cr_expect_null(answermem_map(fd, 1 << 20, &n));
	munmap(w, sizeof(answer));
	close(fd);
}

Test(answermem, an_answer_past_the_limit_or_empty_is_not_read)
{
	size_t n = 0;
	int fd = written(), empty = answermem_create(0);

	cr_assert_eq(answermem_seal(fd), 0);
	cr_expect_null(answermem_map(fd, sizeof(answer) - 1, &n));
	cr_expect_not_null(answermem_map(fd, sizeof(answer), &n));
	cr_assert_eq(answermem_seal(empty), 0);
	cr_expect_null(answermem_map(empty, 1 << 20, &n));
	close(fd);
	close(empty);
}
