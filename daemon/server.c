/* Listeners and accept: see server.h. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <event2/event.h>
#include <event2/listener.h>

#include "address.h"
#include "daemon.h"
#include "listen.h"
#include "log.h"
#include "options.h"
#include "result.h"
#include "server.h"
#include "session.h"
#include "tls_server.h"

#define SERVER_MAX_LISTENERS (LISTEN_MAX + 8)
#define SERVER_BACKLOG 128

struct listener {
	struct server *sv;
	struct evconnlistener *ev;
	struct event *retry; /* re-enable after running out of fds */
	enum session_transport transport;
	int public; /* TCP beyond loopback */
	int tls;    /* TCP with TLS */
};

struct server {
	struct daemon *d;
	struct listener l[SERVER_MAX_LISTENERS];
	int n;
	struct tls_server *tls; /* the TLS listeners' context, or NULL */
	char unix_path[sizeof(((struct sockaddr_un *)0)->sun_path)];
};

static void server_accept_cb(
    struct evconnlistener *, evutil_socket_t, struct sockaddr *, int, void *);
static void server_error_cb(struct evconnlistener *, void *);
static void server_retry_cb(evutil_socket_t, short, void *);

struct server *
server_create(struct daemon *d)
{
	struct server *sv;

	sv = calloc(1, sizeof(*sv));
	if (sv == NULL)
		fatal("out of memory");
	sv->d = d;
	return sv;
}

/*
 * Accept a connection.  Past --max-handshakes on its transport, the one
 * waiting longest for its Hello goes, not the newest: a client says
 * Hello as soon as it connects, so connections held open without one
 * are pushed out by each newcomer instead of locking everyone out.
 * --max-clients is the Hello's to check (api_hello).
 */
static void
server_accept_cb(struct evconnlistener *ev, evutil_socket_t fd,
    struct sockaddr *sa, int salen, void *arg)
{
	struct listener *l = arg;
	struct daemon *d = l->sv->d;
	struct session *old;
	char why[128];
	SSL *ssl = NULL;

	if (l->tls && (ssl = tls_server_new_ssl(l->sv->tls)) == NULL) {
		log_warn("cannot start TLS with a client: out of memory");
		evutil_closesocket(fd);
		return;
	}
	session_create(d, fd, l->transport, sa, (socklen_t)salen, ssl);
	if (sessions_handshaking(d, l->transport) <= d->opts->max_handshakes)
		return;
	old = sessions_oldest_handshaking(d, l->transport);
	snprintf(why, sizeof(why),
	    "no Hello yet, and too many connections wait for one "
	    "(limit %d, --max-handshakes): the oldest goes",
	    d->opts->max_handshakes);
	session_drop(old, RESULT_DENIED, why);
}

/* accept() failed: on EMFILE and friends, back off for a second. */
static void
server_error_cb(struct evconnlistener *ev, void *arg)
{
	struct listener *l = arg;
	struct timeval tv = { 1, 0 };
	int err = EVUTIL_SOCKET_ERROR();

	log_warn("accept: %s; not accepting for a second",
	    evutil_socket_error_to_string(err));
	evconnlistener_disable(ev);
	evtimer_add(l->retry, &tv);
}

static void
server_retry_cb(evutil_socket_t fd, short events, void *arg)
{
	struct listener *l = arg;

	evconnlistener_enable(l->ev);
}

/* Wrap a bound, listening socket in a libevent listener. */
static int
server_add(struct server *sv, int fd, enum session_transport transport,
    int public, int tls, char *err, size_t len)
{
	struct listener *l;

	if (sv->n == SERVER_MAX_LISTENERS) {
		close(fd);
		snprintf(err, len, "too many listeners");
		return -1;
	}
	l = &sv->l[sv->n];
	l->sv = sv;
	l->transport = transport;
	l->public = public;
	l->tls = tls;
	l->ev = evconnlistener_new(sv->d->base, server_accept_cb, l,
	    LEV_OPT_CLOSE_ON_FREE | LEV_OPT_CLOSE_ON_EXEC, -1, fd);
	l->retry = evtimer_new(sv->d->base, server_retry_cb, l);
	if (l->ev == NULL || l->retry == NULL)
		fatal("cannot create a listener");
	evconnlistener_set_error_cb(l->ev, server_error_cb);
	sv->n++;
	return 0;
}

/* Return 1 if a server answers on the Unix socket at path. */
static int
server_unix_live(const struct sockaddr_un *sun)
{
	int fd, live;

	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd == -1)
		return 0;
	live = connect(fd, (const struct sockaddr *)sun, sizeof(*sun)) == 0;
	close(fd);
	return live;
}

int
server_listen_unix(struct server *sv, const char *path, char *err, size_t len)
{
	struct sockaddr_un sun;
	struct stat st;
	char dir[sizeof(sun.sun_path)], *slash;
	mode_t old;
	int fd;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sun.sun_path)) {
		snprintf(err, len, "%s: path too long for a Unix socket", path);
		return -1;
	}
	memcpy(sun.sun_path, path, strlen(path));

	/* Create the socket's own directory (/run/haptixd) if need be. */
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash != NULL && slash != dir) {
		*slash = '\0';
		if (mkdir(dir, 0755) == 0)
			log_info("created %s", dir);
	}

	if (lstat(path, &st) == 0) {
		if (!S_ISSOCK(st.st_mode)) {
			snprintf(
			    err, len, "%s exists and is not a socket", path);
			return -1;
		}
		if (server_unix_live(&sun)) {
			snprintf(err, len, "another server is listening on %s",
			    path);
			return -1;
		}
		unlink(path);
	}

	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd == -1) {
		snprintf(err, len, "socket: %s", strerror(errno));
		return -1;
	}
	/* Created with mode 0660 from the start: no window for others. */
	old = umask(0117);
	if (bind(fd, (struct sockaddr *)&sun, sizeof(sun)) == -1) {
		umask(old);
		snprintf(err, len, "bind %s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	umask(old);
	if (chmod(path, 0660) == -1 || listen(fd, SERVER_BACKLOG) == -1) {
		snprintf(err, len, "%s: %s", path, strerror(errno));
		close(fd);
		unlink(path);
		return -1;
	}
	snprintf(sv->unix_path, sizeof(sv->unix_path), "%s", path);
	return server_add(sv, fd, SESSION_UNIX, 0, 0, err, len);
}

/* Name a bound address: "unix:PATH", "tcp:HOST:PORT" or "tcp:[V6]:PORT". */
static void
server_name(
    const struct sockaddr_storage *ss, socklen_t sslen, char *buf, size_t len)
{
	const struct sockaddr_un *sun = (const struct sockaddr_un *)ss;
	char host[NI_MAXHOST], port[NI_MAXSERV];

	if (ss->ss_family == AF_UNIX) {
		snprintf(buf, len, "unix:%.*s",
		    (int)(sslen - offsetof(struct sockaddr_un, sun_path)),
		    sun->sun_path);
		return;
	}
	if (getnameinfo((const struct sockaddr *)ss, sslen, host, sizeof(host),
		port, sizeof(port), NI_NUMERICHOST | NI_NUMERICSERV) != 0) {
		snprintf(buf, len, "(family %d)", ss->ss_family);
		return;
	}
	snprintf(buf, len,
	    strchr(host, ':') != NULL ? "tcp:[%s]:%s" : "tcp:%s:%s", host,
	    port);
}

/*
 * The TLS context, made from the settings for the first listener that
 * needs it.
 */
static int
server_tls(struct server *sv, const char *what, char *err, size_t len)
{
	char why[512];

	if (sv->tls == NULL &&
	    (sv->tls = tls_server_create(sv->d->opts, why, sizeof(why))) ==
		NULL) {
		snprintf(err, len, "%s: %s", what, why);
		return -1;
	}
	return 0;
}

/*
 * A token would come in the clear to a listener in the clear beyond
 * loopback: refused, unless --allow-cleartext-token.
 */
static int
server_cleartext(struct server *sv, const char *what, char *err, size_t len)
{
	if (sv->d->opts->allow_cleartext_token)
		return 0;
	snprintf(err, len,
	    "%s: refusing to take the token in the clear beyond loopback: "
	    "listen with tls: (and --tls-cert), or give "
	    "--allow-cleartext-token",
	    what);
	return -1;
}

int
server_listen_tcp(struct server *sv, const char *spec, int have_token,
    char *bound, size_t boundlen, char *err, size_t len)
{
	struct listen_set set;
	struct address a;
	char why[256], what[300];
	int i, rc;

	if (address_parse_listen(spec, &a, why, sizeof(why)) != 0) {
		snprintf(err, len, "--tcp %s: %s", spec, why);
		return -1;
	}
	snprintf(what, sizeof(what), "--tcp %s", spec);
	if (a.tls && server_tls(sv, what, err, len) != 0)
		return -1;
	rc = listen_name(a.host, a.port, SERVER_BACKLOG,
	    have_token ? 0 : LISTEN_LOOPBACK_ONLY, &set, why, sizeof(why));
	if (rc != 0) {
		snprintf(err, len, "--tcp %s: %s%s", spec, why,
		    rc == LISTEN_NOT_LOOPBACK ?
			" (refusing to listen there without --token-file)" :
			"");
		return -1;
	}
	if (sv->n + set.n > SERVER_MAX_LISTENERS) {
		snprintf(err, len, "--tcp %s: more than %d listeners", spec,
		    SERVER_MAX_LISTENERS);
		listen_close(&set);
		return -1;
	}
	for (i = 0; i < set.n; i++) {
		if (!a.tls && !set.loopback[i] &&
		    server_cleartext(sv, what, err, len) != 0) {
			listen_close(&set);
			return -1;
		}
	}
	for (i = 0; i < set.n; i++) {
		if (server_add(sv, set.fds[i], SESSION_TCP, !set.loopback[i],
			a.tls, err, len) != 0) {
			while (++i < set.n)
				close(set.fds[i]);
			return -1;
		}
		/* One line for each address the name resolved to. */
		log_info("listening on %s:%s%s", a.tls ? "tls" : "tcp",
		    set.names[i], have_token ? " (token required)" : "");
	}
	snprintf(bound, boundlen, "%s:%s", a.tls ? "tls" : "tcp", set.names[0]);
	return 0;
}

int
server_adopt(struct server *sv, int fd, int have_token, char *bound,
    size_t boundlen, char *err, size_t len)
{
	struct sockaddr_storage ss;
	socklen_t sslen = sizeof(ss);
	int type = 0, listening = 0, flags, public, tls;
	socklen_t optlen = sizeof(int);

	if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &optlen) == -1 ||
	    getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &optlen) ==
		-1 ||
	    getsockname(fd, (struct sockaddr *)&ss, &sslen) == -1) {
		snprintf(
		    err, len, "fd %d: not a socket (%s)", fd, strerror(errno));
		return -1;
	}
	server_name(&ss, sslen, bound, boundlen);
	if (type != SOCK_STREAM || !listening ||
	    (ss.ss_family != AF_UNIX && ss.ss_family != AF_INET &&
		ss.ss_family != AF_INET6)) {
		snprintf(err, len,
		    "fd %d (%s): not a listening Unix or TCP stream socket "
		    "(ListenStream= in the socket unit)",
		    fd, bound);
		return -1;
	}
	public = ss.ss_family != AF_UNIX &&
	    !address_is_loopback((struct sockaddr *)&ss);
	if (public && !have_token) {
		snprintf(err, len,
		    "refusing to serve %s (not loopback) without "
		    "--token-file",
		    bound);
		return -1;
	}
	/* With a certificate set, systemd's TCP sockets serve TLS. */
	tls = ss.ss_family != AF_UNIX && sv->d->opts->tls_cert != NULL;
	if (tls && server_tls(sv, bound, err, len) != 0)
		return -1;
	if (public && !tls && server_cleartext(sv, bound, err, len) != 0)
		return -1;
	if (tls)
		memcpy(bound, "tls", 3); /* tcp:HOST:PORT is tls:HOST:PORT */
	flags = fcntl(fd, F_GETFL);
	if (flags == -1 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) == -1 ||
	    fcntl(fd, F_SETFD, FD_CLOEXEC) == -1) {
		snprintf(err, len, "fd %d: %s", fd, strerror(errno));
		return -1;
	}
	return server_add(sv, fd,
	    ss.ss_family == AF_UNIX ? SESSION_UNIX : SESSION_TCP, public, tls,
	    err, len);
}

int
server_tls_reload(
    struct server *sv, const struct options *o, char *err, size_t len)
{
	if (sv->tls == NULL)
		return 0;
	return tls_server_reload(sv->tls, o, err, len);
}

int
server_public(const struct server *sv)
{
	int i;

	for (i = 0; i < sv->n; i++) {
		if (sv->l[i].public)
			return 1;
	}
	return 0;
}

void
server_free(struct server *sv)
{
	int i;

	if (sv == NULL)
		return;
	for (i = 0; i < sv->n; i++) {
		evconnlistener_free(sv->l[i].ev);
		event_free(sv->l[i].retry);
	}
	if (sv->unix_path[0] != '\0')
		unlink(sv->unix_path);
	tls_server_free(sv->tls);
	free(sv);
}
