/* The service manager's protocols: see sdnotify.h. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "sdnotify.h"

int
sdnotify_send(const char *text)
{
	const char *path = getenv("NOTIFY_SOCKET");
	struct sockaddr_un sa;
	socklen_t salen;
	size_t len;
	ssize_t n;
	int fd, err;

	if (path == NULL || *path == '\0')
		return 0;
	len = strlen(path);
	/* A path, or "@name" in the abstract namespace. */
	if ((path[0] != '/' && path[0] != '@') || len >= sizeof(sa.sun_path))
		return -EAFNOSUPPORT;
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	memcpy(sa.sun_path, path, len);
	if (path[0] == '@')
		sa.sun_path[0] = '\0';
	salen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len +
	    (path[0] == '/'));
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	n = sendto(fd, text, strlen(text), MSG_NOSIGNAL,
	    (const struct sockaddr *)&sa, salen);
	err = errno;
	close(fd);
	return n < 0 ? -err : 1;
}

/* Parse a whole decimal number; -1 if s is not one. */
static long long
sdnotify_number(const char *s)
{
	char *end;
	long long v;

	if (s == NULL || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	return errno != 0 || *end != '\0' ? -1 : v;
}

int
sdnotify_listen_fds(const char *names[SDNOTIFY_MAX_FDS])
{
	static char namebuf[4096];
	long long pid = sdnotify_number(getenv("LISTEN_PID"));
	long long n = sdnotify_number(getenv("LISTEN_FDS"));
	const char *fdnames = getenv("LISTEN_FDNAMES");
	char *p;
	int i, rc = 0, flags;

	if (getenv("LISTEN_PID") == NULL || getenv("LISTEN_FDS") == NULL)
		return 0;
	if (pid < 0 || n < 0)
		rc = -EINVAL;
	else if (pid != (long long)getpid())
		rc = 0; /* meant for another process */
	else if (n > SDNOTIFY_MAX_FDS)
		rc = -E2BIG;
	else
		rc = (int)n;
	for (i = 0; i < rc; i++)
		names[i] = "unknown";
	if (rc > 0 && fdnames != NULL && strlen(fdnames) < sizeof(namebuf)) {
		snprintf(namebuf, sizeof(namebuf), "%s", fdnames);
		for (i = 0, p = namebuf; i < rc && p != NULL; i++) {
			names[i] = p;
			if ((p = strchr(p, ':')) != NULL)
				*p++ = '\0';
		}
	}
	for (i = 0; i < rc; i++) {
		flags = fcntl(SDNOTIFY_FDS_START + i, F_GETFD);
		if (flags < 0 ||
		    fcntl(SDNOTIFY_FDS_START + i, F_SETFD, flags | FD_CLOEXEC) <
			0) {
			rc = -errno;
			break;
		}
	}
	unsetenv("LISTEN_PID");
	unsetenv("LISTEN_FDS");
	unsetenv("LISTEN_FDNAMES");
	return rc;
}

uint64_t
sdnotify_watchdog_usec(void)
{
	long long usec = sdnotify_number(getenv("WATCHDOG_USEC"));
	const char *pid = getenv("WATCHDOG_PID");

	if (usec <= 0)
		return 0;
	if (pid != NULL && sdnotify_number(pid) != (long long)getpid())
		return 0;
	return (uint64_t)usec;
}
