/* Descriptors over a Unix socket: see fdpass.h. */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "fdpass.h"

ssize_t
fdpass_send(int sock, const void *buf, size_t len, const int *fds, int n)
{
	union {
		struct cmsghdr h;
		char space[CMSG_SPACE(sizeof(int) * FDPASS_MAX)];
	} ctl;
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *c;

	if (n < 0 || n > FDPASS_MAX || len == 0) {
		errno = EINVAL;
		return -1;
	}
	if (n > 0) {
		memset(&ctl, 0, sizeof(ctl));
		msg.msg_control = ctl.space;
		msg.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)n);
		c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)n);
		memcpy(CMSG_DATA(c), fds, sizeof(int) * (size_t)n);
	}
	return sendmsg(sock, &msg, MSG_NOSIGNAL | MSG_DONTWAIT);
}

ssize_t
fdpass_recv(int sock, void *buf, size_t len, int *fds, int *n)
{
	union {
		struct cmsghdr h;
		char space[CMSG_SPACE(sizeof(int) * (FDPASS_MAX + 4))];
	} ctl;
	struct iovec iov = { .iov_base = buf, .iov_len = len };
	struct msghdr msg = { .msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = ctl.space,
		.msg_controllen = sizeof(ctl.space) };
	struct cmsghdr *c;
	int got[FDPASS_MAX + 4], k = 0, i, over = 0;
	size_t m;
	ssize_t r;

	*n = 0;
	r = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
	if (r < 0)
		return -1;
	for (c = CMSG_FIRSTHDR(&msg); c != NULL; c = CMSG_NXTHDR(&msg, c)) {
		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		m = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (i = 0; i < (int)m; i++) {
			if (k < (int)(sizeof(got) / sizeof(got[0])))
				memcpy(&got[k++],
				    CMSG_DATA(c) + i * sizeof(int),
				    sizeof(int));
		}
	}
	if (k > FDPASS_MAX || (msg.msg_flags & MSG_CTRUNC))
		over = 1;
	if (over) {
		for (i = 0; i < k; i++)
			close(got[i]);
		errno = EMSGSIZE;
		return -1;
	}
	memcpy(fds, got, sizeof(int) * (size_t)k);
	*n = k;
	return r;
}
