/* TCP listeners on every address of a name: see listen.h. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "address.h"
#include "listen.h"

/* Tries at a port the kernel chooses, when another takes it meanwhile. */
#define LISTEN_PORT_TRIES 16

static int listen_one(const struct addrinfo *, unsigned short, int,
    struct listen_set *, char *, size_t);
static int listen_all(
    const struct addrinfo *, int, struct listen_set *, char *, size_t);
static int listen_same(const struct addrinfo *, const struct addrinfo *);
static unsigned short listen_port(int);
static void listen_describe(
    const struct sockaddr *, socklen_t, int, char *, size_t);

/* Name an address as "HOST:PORT" or "[V6]:PORT", or HOST alone. */
static void
listen_describe(const struct sockaddr *sa, socklen_t salen, int with_port,
    char *buf, size_t len)
{
	char host[NI_MAXHOST], port[NI_MAXSERV];

	if (getnameinfo(sa, salen, host, sizeof(host), port, sizeof(port),
		NI_NUMERICHOST | NI_NUMERICSERV) != 0) {
		snprintf(buf, len, "(family %d)", sa->sa_family);
		return;
	}
	if (!with_port)
		snprintf(buf, len, "%s", host);
	else
		snprintf(buf, len,
		    strchr(host, ':') != NULL ? "[%s]:%s" : "%s:%s", host,
		    port);
}

/* Return 1 if b's address is a of an earlier entry (a name listed twice). */
static int
listen_same(const struct addrinfo *a, const struct addrinfo *b)
{
	return a->ai_family == b->ai_family && a->ai_addrlen == b->ai_addrlen &&
	    memcmp(a->ai_addr, b->ai_addr, a->ai_addrlen) == 0;
}

/*
 * Bind one address at port (0: the kernel's choice) and listen; 0, 1 if
 * its family is missing from this kernel, or -1 with err.
 */
static int
listen_one(const struct addrinfo *ai, unsigned short port, int backlog,
    struct listen_set *set, char *err, size_t errlen)
{
	struct sockaddr_storage ss;
	socklen_t sslen;
	char name[64];
	int fd, one = 1;

	memcpy(&ss, ai->ai_addr, ai->ai_addrlen);
	sslen = ai->ai_addrlen;
	if (ss.ss_family == AF_INET6)
		((struct sockaddr_in6 *)(void *)&ss)->sin6_port = htons(port);
	else
		((struct sockaddr_in *)(void *)&ss)->sin_port = htons(port);
	listen_describe((struct sockaddr *)&ss, sslen, 1, name, sizeof(name));
	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
	    ai->ai_protocol);
	if (fd == -1) {
		if (errno == EAFNOSUPPORT)
			return 1;
		snprintf(
		    err, errlen, "socket for %s: %s", name, strerror(errno));
		return -1;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	/* "::" is IPv6's alone, so that "0.0.0.0" can be bound beside it. */
	if (ai->ai_family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&ss, sslen) == -1) {
		int e = errno;

		close(fd);
		if (e == EADDRNOTAVAIL && ai->ai_family == AF_INET6)
			return 1;
		snprintf(err, errlen, "%s: %s", name, strerror(e));
		errno = e;
		return -1;
	}
	sslen = sizeof(ss);
	if (listen(fd, backlog) == -1 ||
	    getsockname(fd, (struct sockaddr *)&ss, &sslen) == -1) {
		snprintf(err, errlen, "%s: %s", name, strerror(errno));
		close(fd);
		return -1;
	}
	set->fds[set->n] = fd;
	set->loopback[set->n] = address_is_loopback((struct sockaddr *)&ss);
	listen_describe((struct sockaddr *)&ss, sslen, 1, set->names[set->n],
	    sizeof(set->names[0]));
	set->n++;
	return 0;
}

/* The port a bound socket was given. */
static unsigned short
listen_port(int fd)
{
	struct sockaddr_storage ss;
	socklen_t sslen = sizeof(ss);

	if (getsockname(fd, (struct sockaddr *)&ss, &sslen) == -1)
		return 0;
	if (ss.ss_family == AF_INET6)
		return ntohs(((struct sockaddr_in6 *)(void *)&ss)->sin6_port);
	return ntohs(((struct sockaddr_in *)(void *)&ss)->sin_port);
}

/*
 * Listen on each address of res, the first at its own port and the others
 * at the port it got; 0, or -1 with err (errno EADDRINUSE when a port the
 * kernel chose was taken at another address meanwhile).
 */
static int
listen_all(const struct addrinfo *res, int backlog, struct listen_set *set,
    char *err, size_t errlen)
{
	const struct addrinfo *ai, *seen;
	unsigned short port = 0;
	int rc, first = 1, dup;

	for (ai = res; ai != NULL; ai = ai->ai_next) {
		dup = 0;
		for (seen = res; seen != ai; seen = seen->ai_next)
			dup |= listen_same(seen, ai);
		if (dup)
			continue;
		if (set->n == LISTEN_MAX) {
			snprintf(err, errlen,
			    "the name has more than %d addresses", LISTEN_MAX);
			errno = E2BIG;
			return -1;
		}
		if (first)
			port = ai->ai_family == AF_INET6 ?
			    ntohs(((const struct sockaddr_in6 *)(const void *)
				       ai->ai_addr)
				      ->sin6_port) :
			    ntohs(((const struct sockaddr_in *)(const void *)
				       ai->ai_addr)
				      ->sin_port);
		rc = listen_one(ai, port, backlog, set, err, errlen);
		if (rc == -1)
			return -1;
		if (rc == 0 && first) {
			port = listen_port(set->fds[0]);
			first = 0;
		}
	}
	if (set->n == 0) {
		snprintf(err, errlen, "no address of a family this kernel has");
		errno = EAFNOSUPPORT;
		return -1;
	}
	return 0;
}

int
listen_name(const char *host, const char *port, int backlog, int flags,
    struct listen_set *set, char *err, size_t errlen)
{
	struct addrinfo hints, *res, *ai;
	char name[64];
	int rc, tries, any_port = strcmp(port, "0") == 0;

	memset(set, 0, sizeof(*set));
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
	rc = getaddrinfo(host, port, &hints, &res);
	if (rc != 0) {
		snprintf(err, errlen, "%s: %s", host != NULL ? host : "*",
		    gai_strerror(rc));
		return -1;
	}
	for (ai = res; ai != NULL && (flags & LISTEN_LOOPBACK_ONLY);
	     ai = ai->ai_next) {
		if (!address_is_loopback(ai->ai_addr)) {
			listen_describe(
			    ai->ai_addr, ai->ai_addrlen, 0, name, sizeof(name));
			if (host != NULL && strcmp(host, name) == 0)
				snprintf(
				    err, errlen, "%s is not loopback", name);
			else
				snprintf(err, errlen, "%s is %s, not loopback",
				    host != NULL ? host : "*", name);
			freeaddrinfo(res);
			return LISTEN_NOT_LOOPBACK;
		}
	}
	for (tries = 0;; tries++) {
		rc = listen_all(res, backlog, set, err, errlen);
		if (rc == 0 || !any_port || errno != EADDRINUSE ||
		    set->n == 0 || tries == LISTEN_PORT_TRIES)
			break;
		listen_close(set);
	}
	freeaddrinfo(res);
	if (rc != 0)
		listen_close(set);
	return rc;
}

void
listen_close(struct listen_set *set)
{
	int i;

	for (i = 0; i < set->n; i++)
		close(set->fds[i]);
	set->n = 0;
}
