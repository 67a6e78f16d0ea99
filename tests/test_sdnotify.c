/*
 * Unit tests of the service manager's protocols (daemon/sdnotify.c),
 * written in place of libsystemd: notifications to a path or an
 * abstract socket, sockets passed at start, and the watchdog interval.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "sdnotify.h"

TestSuite(sdnotify, .timeout = 10);

/* A datagram socket bound at name (a path, or "@..." abstract). */
static int
listener(const char *name)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	size_t len = strlen(name);
	int fd = socket(AF_UNIX, SOCK_DGRAM, 0);

	cr_assert_geq(fd, 0);
	memcpy(sa.sun_path, name, len);
	if (name[0] == '@')
		sa.sun_path[0] = '\0';
	else
		unlink(name);
	cr_assert_eq(bind(fd, (struct sockaddr *)&sa,
			 (socklen_t)(offsetof(struct sockaddr_un, sun_path) +
			     len + (name[0] != '@'))),
	    0, "bind %s: %s", name, strerror(errno));
	return fd;
}

/* What arrived at fd, as a string. */
static void
received(int fd, char *buf, size_t len)
{
	ssize_t n = recv(fd, buf, len - 1, MSG_DONTWAIT);

	cr_assert_gt(n, 0, "nothing arrived: %s", strerror(errno));
	buf[n] = '\0';
}

Test(sdnotify, a_path_and_an_abstract_socket_receive)
{
	char path[64], abstract[64], buf[128];
	int fd;

	snprintf(path, sizeof(path), "/tmp/hxsdnotify.%d", (int)getpid());
	fd = listener(path);
	setenv("NOTIFY_SOCKET", path, 1);
	cr_expect_eq(sdnotify_send("READY=1\nSTATUS=up"), 1);
	received(fd, buf, sizeof(buf));
	cr_expect_str_eq(buf, "READY=1\nSTATUS=up");
	close(fd);
	unlink(path);

	snprintf(abstract, sizeof(abstract), "@hxsdnotify.%d", (int)getpid());
	fd = listener(abstract);
	setenv("NOTIFY_SOCKET", abstract, 1);
	cr_expect_eq(sdnotify_send("WATCHDOG=1"), 1);
	received(fd, buf, sizeof(buf));
	cr_expect_str_eq(buf, "WATCHDOG=1");
	close(fd);
}

Test(sdnotify, nothing_is_sent_outside_systemd)
{
	unsetenv("NOTIFY_SOCKET");
	cr_expect_eq(sdnotify_send("READY=1"), 0);
	setenv("NOTIFY_SOCKET", "relative/path", 1);
	cr_expect_eq(sdnotify_send("READY=1"), -EAFNOSUPPORT);
	setenv("NOTIFY_SOCKET", "/nonexistent/haptixd.notify", 1);
	cr_expect_lt(sdnotify_send("READY=1"), 0);
}

/*
 * In a child (fds 3 and 4 are Criterion's own here): two sockets at 3
 * and 4, as systemd passes them.  Returns 0, or the number of the first
 * check that failed.
 */
static int
passed_sockets_child(void)
{
	const char *names[SDNOTIFY_MAX_FDS];
	char pid[32];
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0 ||
	    dup2(sv[0], 3) != 3 || dup2(sv[1], 4) != 4)
		return 1;
	fcntl(3, F_SETFD, 0);
	fcntl(4, F_SETFD, 0);
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	setenv("LISTEN_PID", pid, 1);
	setenv("LISTEN_FDS", "2", 1);
	setenv("LISTEN_FDNAMES", "unix:tcp", 1);
	if (sdnotify_listen_fds(names) != 2)
		return 2;
	if (strcmp(names[0], "unix") != 0 || strcmp(names[1], "tcp") != 0)
		return 3;
	if (!(fcntl(3, F_GETFD) & FD_CLOEXEC) ||
	    !(fcntl(4, F_GETFD) & FD_CLOEXEC))
		return 4;
	if (getenv("LISTEN_FDS") != NULL) /* children must not see them */
		return 5;
	/* Without names, each is "unknown". */
	setenv("LISTEN_PID", pid, 1);
	setenv("LISTEN_FDS", "1", 1);
	if (sdnotify_listen_fds(names) != 1 || strcmp(names[0], "unknown") != 0)
		return 6;
	return 0;
}

Test(sdnotify, sockets_passed_with_their_names)
{
	pid_t pid = fork();
	int status;

	cr_assert_geq(pid, 0);
	if (pid == 0)
		_exit(passed_sockets_child());
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	    "check %d failed", WEXITSTATUS(status));
}

Test(sdnotify, sockets_meant_for_another_or_malformed)
{
	const char *names[SDNOTIFY_MAX_FDS];

	unsetenv("LISTEN_PID");
	unsetenv("LISTEN_FDS");
	cr_expect_eq(sdnotify_listen_fds(names), 0);
	setenv("LISTEN_PID", "1", 1);
	setenv("LISTEN_FDS", "2", 1);
	cr_expect_eq(sdnotify_listen_fds(names), 0, "another process's");
	setenv("LISTEN_PID", "12x", 1);
	setenv("LISTEN_FDS", "2", 1);
	cr_expect_eq(sdnotify_listen_fds(names), -EINVAL);
}

Test(sdnotify, the_watchdog_interval)
{
	char pid[32];

	unsetenv("WATCHDOG_USEC");
	unsetenv("WATCHDOG_PID");
	cr_expect_eq(sdnotify_watchdog_usec(), 0);
	setenv("WATCHDOG_USEC", "400000", 1);
	cr_expect_eq(sdnotify_watchdog_usec(), 400000);
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	setenv("WATCHDOG_PID", pid, 1);
	cr_expect_eq(sdnotify_watchdog_usec(), 400000);
	setenv("WATCHDOG_PID", "1", 1);
	cr_expect_eq(sdnotify_watchdog_usec(), 0, "another process's");
	unsetenv("WATCHDOG_PID");
	setenv("WATCHDOG_USEC", "-5", 1);
	cr_expect_eq(sdnotify_watchdog_usec(), 0);
}
