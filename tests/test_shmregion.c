/*
 * Unit tests of the shared memory's region (lib/shmregion.c) and of
 * passing descriptors (lib/fdpass.c): a region made, passed over a Unix
 * socket and mapped is one memory; its receiver can neither shrink nor
 * grow it nor lift the seals; a receiver refuses memory of another size
 * or unsealed; too many descriptors are refused and none of them kept.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "fdpass.h"
#include "shmregion.h"

TestSuite(shmregion, .timeout = 10);

/* The descriptors this process holds. */
static int
open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	cr_assert_not_null(d);
	while (readdir(d) != NULL)
		n++;
	closedir(d);
	return n;
}

/* Make a region, pass it over a socketpair, map what came. */
static void
pass(struct shmregion *made, struct shmregion *got, size_t size)
{
	char why[256], byte = 'S';
	int sv[2], fds[FDPASS_MAX], n;

	cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	cr_assert_eq(shmregion_create(made, size, "test", why, sizeof(why)), 0,
	    "%s", why);
	cr_assert_eq(fdpass_send(sv[0], &byte, 1, &made->fd, 1), 1);
	cr_assert_eq(fdpass_recv(sv[1], &byte, 1, fds, &n), 1);
	cr_assert_eq(n, 1);
	cr_assert(
	    fcntl(fds[0], F_GETFD) & FD_CLOEXEC, "received close-on-exec");
	cr_assert_eq(
	    shmregion_map(got, fds[0], size, why, sizeof(why)), 0, "%s", why);
	close(sv[0]);
	close(sv[1]);
}

Test(shmregion, passed_and_mapped_it_is_one_memory)
{
	struct shmregion made, got;

	pass(&made, &got, 65536);
	((char *)made.base)[100] = 'x';
	cr_assert_eq(((char *)got.base)[100], 'x');
	((char *)got.base)[65535] = 'y';
	cr_assert_eq(((char *)made.base)[65535], 'y');
	shmregion_free(&made);
	shmregion_free(&got);
}

Test(shmregion, the_receiver_cannot_change_its_size)
{
	struct shmregion made, got;

	pass(&made, &got, 8192);
	cr_assert_eq(ftruncate(got.fd, 0), -1, "shrunk under the daemon");
	cr_assert_eq(errno, EPERM);
	cr_assert_eq(ftruncate(got.fd, 1 << 20), -1, "grown");
	cr_assert_eq(fallocate(got.fd, 0, 0, 1 << 20), -1, "grown");
	cr_assert_eq(fcntl(got.fd, F_ADD_SEALS, F_SEAL_WRITE), -1,
	    "the seals are sealed");
	/* Still all there for the daemon. */
	((char *)made.base)[8191] = 'z';
	cr_assert_eq(((char *)got.base)[8191], 'z');
	shmregion_free(&made);
	shmregion_free(&got);
}

Test(shmregion, the_receiver_refuses_what_is_not_as_announced)
{
	struct shmregion made, got;
	char why[256];
	int fd;

	cr_assert_eq(shmregion_create(&made, 4096, "t", why, sizeof(why)), 0);
	cr_assert_eq(
	    shmregion_map(&got, dup(made.fd), 8192, why, sizeof(why)), -1);
	cr_assert(strstr(why, "not of the size announced") != NULL, "%s", why);
	fd = memfd_create("unsealed", MFD_CLOEXEC);
	cr_assert_eq(ftruncate(fd, 4096), 0);
	cr_assert_eq(shmregion_map(&got, fd, 4096, why, sizeof(why)), -1);
	cr_assert(strstr(why, "not sealed") != NULL, "%s", why);
	shmregion_free(&made);
}

Test(shmregion, too_many_descriptors_are_refused_and_closed)
{
	int sv[2], fds[FDPASS_MAX + 2], got[FDPASS_MAX], n, i, before;
	char byte = 'S';
	union {
		struct cmsghdr h;
		char space[CMSG_SPACE(sizeof(fds))];
	} ctl;
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = { .msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = ctl.space,
		.msg_controllen = sizeof(ctl.space) };
	struct cmsghdr *c;

	cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	cr_assert_eq(fdpass_send(sv[0], &byte, 1, fds, FDPASS_MAX + 1), -1);
	cr_assert_eq(errno, EINVAL);
	for (i = 0; i < FDPASS_MAX + 2; i++)
		fds[i] = dup(0);
	memset(&ctl, 0, sizeof(ctl));
	c = CMSG_FIRSTHDR(&msg);
	cr_assert_not_null(c);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(fds));
	memcpy(CMSG_DATA(c), fds, sizeof(fds));
	cr_assert_eq(sendmsg(sv[0], &msg, 0), 1);
	for (i = 0; i < FDPASS_MAX + 2; i++)
		close(fds[i]);
	before = open_fds();
	cr_assert_eq(fdpass_recv(sv[1], &byte, 1, got, &n), -1);
	cr_assert_eq(errno, EMSGSIZE);
	cr_assert_eq(n, 0);
	cr_assert_eq(open_fds(), before, "descriptors refused were kept");
	close(sv[0]);
	close(sv[1]);
}
