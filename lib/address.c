/* Server address parsing: see address.h. */
#include "config.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "address.h"

static int address_set_unix(struct address *, const char *, char *, size_t);
static int address_split_host_port(
    const char *, struct address *, const char *, char *, size_t);

void
address_default_listen_unix(char *buf, size_t len)
{
	const char *xdg = getenv("XDG_RUNTIME_DIR");

	if (xdg != NULL && *xdg == '/')
		snprintf(buf, len, "%s/%s", xdg, ADDRESS_UNIX_NAME);
	else
		snprintf(buf, len, "%s", ADDRESS_UNIX_SYSTEM);
}

void
address_default_server_unix(char *buf, size_t len)
{
	address_default_listen_unix(buf, len);
	if (access(buf, F_OK) != 0 && access(ADDRESS_UNIX_SYSTEM, F_OK) == 0)
		snprintf(buf, len, "%s", ADDRESS_UNIX_SYSTEM);
}

/* Store a Unix socket path, refusing one that does not fit sun_path. */
static int
address_set_unix(struct address *a, const char *path, char *err, size_t errlen)
{
	if (*path == '\0') {
		snprintf(err, errlen, "empty Unix socket path");
		return -1;
	}
	if (strlen(path) >= sizeof(a->path)) {
		snprintf(err, errlen,
		    "Unix socket path too long (%zu bytes, "
		    "at most %zu): %s",
		    strlen(path), sizeof(a->path) - 1, path);
		return -1;
	}
	a->kind = ADDRESS_UNIX;
	snprintf(a->path, sizeof(a->path), "%s", path);
	return 0;
}

/*
 * Split "HOST", "HOST:PORT", "[V6]", "[V6]:PORT" or a bare IPv6 address
 * into host and port; defport is used when no port is given.
 */
static int
address_split_host_port(const char *spec, struct address *a,
    const char *defport, char *err, size_t errlen)
{
	const char *host = spec, *port = NULL, *end;
	size_t hostlen;
	char *ep;
	long n;

	if (*spec == '[') {
		end = strchr(spec, ']');
		if (end == NULL) {
			snprintf(err, errlen, "missing ']' in %s", spec);
			return -1;
		}
		host = spec + 1;
		hostlen = (size_t)(end - host);
		if (end[1] == ':')
			port = end + 2;
		else if (end[1] != '\0') {
			snprintf(err, errlen, "junk after ']' in %s", spec);
			return -1;
		}
	} else {
		end = strchr(spec, ':');
		if (end != NULL && strchr(end + 1, ':') == NULL) {
			hostlen = (size_t)(end - spec);
			port = end + 1;
		} else
			hostlen = strlen(spec); /* no port, or a bare IPv6 */
	}
	if (hostlen == 0 || hostlen >= sizeof(a->host)) {
		snprintf(err, errlen, "bad host in %s", spec);
		return -1;
	}
	if (port == NULL)
		port = defport;
	n = strtol(port, &ep, 10);
	if (*port == '\0' || *ep != '\0' || n < 0 || n > 65535) {
		snprintf(err, errlen, "bad port '%s' in %s", port, spec);
		return -1;
	}
	a->kind = ADDRESS_TCP;
	memcpy(a->host, host, hostlen);
	a->host[hostlen] = '\0';
	snprintf(a->port, sizeof(a->port), "%ld", n);
	return 0;
}

/* Strip prefix from *spec; return 1 if it was there. */
static int
address_prefix(const char **spec, const char *prefix)
{
	size_t n = strlen(prefix);

	if (strncmp(*spec, prefix, n) != 0)
		return 0;
	*spec += n;
	return 1;
}

int
address_parse_server(
    const char *spec, struct address *a, char *err, size_t errlen)
{
	char defport[8], path[sizeof(a->path)];
	const char *env;
	int tls;

	memset(a, 0, sizeof(*a));
	if (spec == NULL || *spec == '\0') {
		env = getenv("HAPTIX_SERVER");
		if (env != NULL && *env != '\0')
			return address_parse_server(env, a, err, errlen);
		address_default_server_unix(path, sizeof(path));
		return address_set_unix(a, path, err, errlen);
	}
	if (address_prefix(&spec, "unix:") || *spec == '/')
		return address_set_unix(a, spec, err, errlen);
	if (address_prefix(&spec, "shm:")) {
		if (address_set_unix(a, spec, err, errlen) != 0)
			return -1;
		a->shm = 1;
		return 0;
	}
	tls = address_prefix(&spec, "tls:");
	if (!tls)
		address_prefix(&spec, "tcp:");
	snprintf(defport, sizeof(defport), "%d", ADDRESS_DEFAULT_PORT);
	if (address_split_host_port(spec, a, defport, err, errlen) != 0)
		return -1;
	if (strcmp(a->port, "0") == 0) {
		snprintf(err, errlen, "port 0 is not a server port: %s", spec);
		return -1;
	}
	a->tls = tls;
	return 0;
}

int
address_parse_listen(
    const char *spec, struct address *a, char *err, size_t errlen)
{
	char defport[8], buf[300];
	const char *p;
	int tls;

	memset(a, 0, sizeof(*a));
	tls = address_prefix(&spec, "tls:");
	if (!tls)
		address_prefix(&spec, "tcp:");
	for (p = spec; *p >= '0' && *p <= '9'; p++)
		;
	if (*spec != '\0' && *p == '\0') {
		/* A bare port: loopback. */
		snprintf(buf, sizeof(buf), "127.0.0.1:%s", spec);
		spec = buf;
	} else if (*spec == ':') {
		snprintf(buf, sizeof(buf), "127.0.0.1%s", spec);
		spec = buf;
	}
	snprintf(defport, sizeof(defport), "%d", ADDRESS_DEFAULT_PORT);
	if (address_split_host_port(spec, a, defport, err, errlen) != 0)
		return -1;
	a->tls = tls;
	return 0;
}

int
address_parse_endpoint(const char *spec, struct address *a)
{
	const char *rest, *colon, *bracket;
	char buf[300], why[300];
	int prefix = 0;

	if (strncmp(spec, "tls:", 4) == 0 || strncmp(spec, "tcp:", 4) == 0)
		prefix = 4;
	rest = spec + prefix;
	colon = strrchr(rest, ':');
	bracket = strrchr(rest, ']');
	if (colon == NULL || colon == rest ||
	    (bracket != NULL && colon < bracket))
		return -1;
	/* V6ADDR:PORT: the last colon ends the address. */
	if (bracket == NULL && strchr(rest, ':') != colon) {
		if (snprintf(buf, sizeof(buf), "%.*s[%.*s]%s", prefix, spec,
			(int)(colon - rest), rest, colon) >= (int)sizeof(buf))
			return -1;
		spec = buf;
	}
	return address_parse_listen(spec, a, why, sizeof(why));
}

const char *
address_format(const struct address *a, char *buf, size_t len)
{
	const char *scheme = a->tls ? "tls" : "tcp";

	if (a->kind == ADDRESS_UNIX)
		snprintf(buf, len, "%s:%s", a->shm ? "shm" : "unix", a->path);
	else if (strchr(a->host, ':') != NULL)
		snprintf(buf, len, "%s:[%s]:%s", scheme, a->host, a->port);
	else
		snprintf(buf, len, "%s:%s:%s", scheme, a->host, a->port);
	return buf;
}

int
address_is_loopback(const struct sockaddr *sa)
{
	const struct sockaddr_in *sin;
	const struct sockaddr_in6 *sin6;
	const uint8_t *b;

	switch (sa->sa_family) {
	case AF_INET:
		sin = (const struct sockaddr_in *)(const void *)sa;
		return (ntohl(sin->sin_addr.s_addr) >> 24) == 127;
	case AF_INET6:
		sin6 = (const struct sockaddr_in6 *)(const void *)sa;
		if (IN6_IS_ADDR_LOOPBACK(&sin6->sin6_addr))
			return 1;
		b = sin6->sin6_addr.s6_addr;
		/* ::ffff:127.x.y.z */
		return IN6_IS_ADDR_V4MAPPED(&sin6->sin6_addr) && b[12] == 127;
	default:
		return 0;
	}
}

int
address_host_is_loopback(const char *host)
{
	struct sockaddr_in sin;
	struct sockaddr_in6 sin6;

	if (strcmp(host, "localhost") == 0)
		return 1;
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	if (inet_pton(AF_INET, host, &sin.sin_addr) == 1)
		return address_is_loopback((struct sockaddr *)&sin);
	memset(&sin6, 0, sizeof(sin6));
	sin6.sin6_family = AF_INET6;
	if (inet_pton(AF_INET6, host, &sin6.sin6_addr) == 1)
		return address_is_loopback((struct sockaddr *)&sin6);
	return 0;
}
