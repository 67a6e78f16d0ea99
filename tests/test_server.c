/*
 * Unit tests of the listeners (daemon/server.c), in-process: a Unix
 * socket in a scratch directory, TCP on an ephemeral loopback port,
 * sockets handed over as systemd hands them, and clients that connect
 * to each; the sessions the listeners create, and those they drop past
 * --max-handshakes.  Each refusal with its words.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <criterion/criterion.h>

#include "daemon.h"
#include "haptix.pb-c.h"
#include "harness.h"
#include "inproc.h"
#include "options.h"
#include "monotonic.h"
#include "reply.h"
#include "result.h"
#include "server.h"
#include "session.h"

TestSuite(server, .timeout = 15);

static struct daemon d;
static struct server *sv;
static char dir[64], path[128];
static int nleft;

static void
hook_frame(struct session *s, const uint8_t *p, size_t len)
{
}

static void
hook_drained(struct session *s)
{
}

static void
hook_left(struct session *s)
{
	nleft++;
}

static const struct session_hooks hooks = {
	.frame = hook_frame,
	.refuse = reply_refuse,
	.drained = hook_drained,
	.left = hook_left,
};

/* A daemon with the settings of args, a server and a scratch directory. */
static void
start(const char *const *args)
{
	inproc_start(&d, args);
	sessions_init(&hooks);
	sv = server_create(&d);
	snprintf(dir, sizeof(dir), "/tmp/hx-test-server.XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/haptixd.sock", dir);
}

static void
setup(void)
{
	start(NULL);
}

/* The server, the sessions, then the scratch directory and its sockets. */
static void
finish(void)
{
	char p[200];

	server_free(sv);
	sv = NULL;
	inproc_stop(&d);
	unlink(path);
	snprintf(p, sizeof(p), "%s/run/s.sock", dir);
	unlink(p);
	snprintf(p, sizeof(p), "%s/run", dir);
	rmdir(p);
	rmdir(dir);
}

/* After a failed assertion. */
static void
teardown(void)
{
	if (d.base != NULL)
		finish();
}

/* Connect to the Unix socket at p; the connected fd. */
static int
connect_unix(const char *p)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	cr_assert_geq(fd, 0);
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%.100s", p);
	cr_assert_eq(connect(fd, (struct sockaddr *)&sun, sizeof(sun)), 0,
	    "connect %s: %s", p, strerror(errno));
	return fd;
}

/* Connect to 127.0.0.1:port; the connected fd. */
static int
connect_tcp(int port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	cr_assert_geq(fd, 0);
	sin.sin_port = htons((uint16_t)port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	cr_assert_eq(connect(fd, (struct sockaddr *)&sin, sizeof(sin)), 0,
	    "connect: %s", strerror(errno));
	return fd;
}

/* Run the loop until n sessions are being served (at most 2 s). */
static void
wait_sessions(int n)
{
	double end = monotonic_s() + 2;

	while (sessions_count(&d) != n && monotonic_s() < end)
		inproc_run_for(&d, 0.005);
	cr_assert_eq(sessions_count(&d), n, "%d sessions, not %d",
	    sessions_count(&d), n);
}

/* Note the session served (the one, or the last). */
static void
one_session(struct session *s, void *arg)
{
	*(struct session **)arg = s;
}

Test(server, unix_socket_accepts_and_goes, .init = setup, .fini = teardown)
{
	struct session *s = NULL;
	struct stat st;
	char err[256];
	int c;

	cr_assert_eq(
	    server_listen_unix(sv, path, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(lstat(path, &st), 0);
	cr_assert(S_ISSOCK(st.st_mode));
	cr_assert_eq(st.st_mode & 07777, 0660, "mode %o", st.st_mode & 07777);
	cr_assert_eq(server_public(sv), 0);

	c = connect_unix(path);
	wait_sessions(1);
	sessions_foreach(&d, one_session, &s);
	cr_assert_eq(s->transport, SESSION_UNIX);
	cr_assert_eq(s->state, SESSION_HELLO, "a newcomer says Hello first");
	cr_assert_eq(sessions_handshaking(&d, SESSION_UNIX), 1);
	close(c);

	server_free(sv);
	sv = NULL;
	cr_assert_eq(lstat(path, &st), -1, "the socket is removed");
	server_free(NULL);
	finish();
}

Test(server, unix_refusals, .init = setup, .fini = teardown)
{
	struct server *second;
	char err[256], want[512], longpath[200];
	struct stat st;
	int fd;

	/* Too long for sun_path. */
	memset(longpath, 'p', sizeof(longpath) - 1);
	longpath[0] = '/';
	longpath[sizeof(longpath) - 1] = '\0';
	cr_assert_eq(server_listen_unix(sv, longpath, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s: path too long for a Unix socket",
	    longpath);
	cr_assert_str_eq(err, want);

	/* Another kind of file: left alone. */
	fd = open(path, O_CREAT | O_WRONLY, 0600);
	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, "keep", 4), 4);
	close(fd);
	cr_assert_eq(server_listen_unix(sv, path, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s exists and is not a socket", path);
	cr_assert_str_eq(err, want);
	cr_assert_eq(stat(path, &st), 0);
	cr_assert_eq(st.st_size, 4, "the file is untouched");
	unlink(path);

	/* A live server: never replaced. */
	cr_assert_eq(
	    server_listen_unix(sv, path, err, sizeof(err)), 0, "%s", err);
	second = server_create(&d);
	cr_assert_eq(server_listen_unix(second, path, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "another server is listening on %s", path);
	cr_assert_str_eq(err, want);
	server_free(second);
	cr_assert_eq(lstat(path, &st), 0, "the refused one removed nothing");
	finish();
}

Test(server, unix_stale_socket_replaced_and_directory_made, .init = setup,
    .fini = teardown)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	char sub[160], subpath[200], err[256];
	int fd, c, c2;

	/* A socket left by a server that died: bound, nobody listening. */
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%.100s", path);
	cr_assert_eq(bind(fd, (struct sockaddr *)&sun, sizeof(sun)), 0);
	close(fd);
	cr_assert_eq(
	    server_listen_unix(sv, path, err, sizeof(err)), 0, "%s", err);
	c = connect_unix(path);
	wait_sessions(1);

	/* Its own directory (as /run/haptixd) is made. */
	snprintf(sub, sizeof(sub), "%s/run", dir);
	snprintf(subpath, sizeof(subpath), "%s/s.sock", sub);
	cr_assert_eq(
	    server_listen_unix(sv, subpath, err, sizeof(err)), 0, "%s", err);
	c2 = connect_unix(subpath);
	wait_sessions(2);
	close(c);
	close(c2);
	server_free(sv);
	sv = NULL;
	rmdir(sub);
	unlink(path); /* the server removes the last of its sockets only */
	finish();
}

/* The port of "tcp:127.0.0.1:PORT". */
static int
bound_port(const char *bound)
{
	const char *colon = strrchr(bound, ':');

	cr_assert_not_null(colon, "%s", bound);
	return atoi(colon + 1);
}

Test(server, tcp_loopback_and_beyond, .init = setup, .fini = teardown)
{
	struct session *s = NULL;
	char bound[128], err[512];
	int c, port;

	cr_assert_eq(server_listen_tcp(sv, "127.0.0.1:0", 0, bound,
			 sizeof(bound), err, sizeof(err)),
	    0, "%s", err);
	cr_assert_eq(strncmp(bound, "tcp:127.0.0.1:", 14), 0, "%s", bound);
	port = bound_port(bound);
	cr_assert_gt(port, 0, "the real port, not 0");
	cr_assert_eq(server_public(sv), 0, "loopback needs no token");
	c = connect_tcp(port);
	wait_sessions(1);
	sessions_foreach(&d, one_session, &s);
	cr_assert_eq(s->transport, SESSION_TCP);
	cr_assert_eq(sessions_handshaking(&d, SESSION_TCP), 1);
	cr_assert_eq(sessions_handshaking(&d, SESSION_UNIX), 0);
	close(c);

	/* Beyond loopback only with a token. */
	err[0] = '\0';
	cr_assert_eq(server_listen_tcp(sv, "0.0.0.0:0", 0, bound, sizeof(bound),
			 err, sizeof(err)),
	    -1);
	cr_assert(strncmp(err, "--tcp 0.0.0.0:0: ", 17) == 0, "%s", err);
	cr_assert(strstr(err,
		      "(refusing to listen there without "
		      "--token-file)") != NULL,
	    "%s", err);
	cr_assert_eq(server_public(sv), 0);
	/* And then over TLS, or in the clear only when allowed. */
	cr_assert_eq(server_listen_tcp(sv, "0.0.0.0:0", 1, bound, sizeof(bound),
			 err, sizeof(err)),
	    -1);
	cr_assert_str_eq(err,
	    "--tcp 0.0.0.0:0: refusing to take the token in the clear beyond "
	    "loopback: listen with tls: (and --tls-cert), or give "
	    "--allow-cleartext-token");
	((struct options *)d.opts)->allow_cleartext_token = 1;
	cr_assert_eq(server_listen_tcp(sv, "0.0.0.0:0", 1, bound, sizeof(bound),
			 err, sizeof(err)),
	    0, "%s", err);
	cr_assert_eq(server_public(sv), 1, "now a listener needs the token");

	/* Not an address. */
	cr_assert_eq(server_listen_tcp(sv, "127.0.0.1:notaport", 0, bound,
			 sizeof(bound), err, sizeof(err)),
	    -1);
	cr_assert(
	    strncmp(err, "--tcp 127.0.0.1:notaport: ", 26) == 0, "%s", err);
	finish();
}

/* A TCP listener on loopback or on any address, port chosen by the system. */
static int
tcp_listener(int any)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	sin.sin_addr.s_addr = htonl(any ? INADDR_ANY : INADDR_LOOPBACK);
	cr_assert_eq(bind(fd, (struct sockaddr *)&sin, sizeof(sin)), 0);
	cr_assert_eq(listen(fd, 4), 0);
	return fd;
}

Test(server, adopted_sockets, .init = setup, .fini = teardown)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	char bound[256], err[512], want[600];
	struct stat st;
	int fd, c, c2, p[2];

	/* A Unix listener systemd made: served, and never removed. */
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%.100s", path);
	cr_assert_eq(bind(fd, (struct sockaddr *)&sun, sizeof(sun)), 0);
	cr_assert_eq(listen(fd, 4), 0);
	cr_assert_eq(
	    server_adopt(sv, fd, 0, bound, sizeof(bound), err, sizeof(err)), 0,
	    "%s", err);
	snprintf(want, sizeof(want), "unix:%s", path);
	cr_assert_str_eq(bound, want);
	cr_assert(fcntl(fd, F_GETFL) & O_NONBLOCK, "made non-blocking");
	cr_assert(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	c = connect_unix(path);
	wait_sessions(1);

	/* TCP on loopback; on any address only with a token. */
	fd = tcp_listener(0);
	cr_assert_eq(
	    server_adopt(sv, fd, 0, bound, sizeof(bound), err, sizeof(err)), 0,
	    "%s", err);
	cr_assert_eq(strncmp(bound, "tcp:127.0.0.1:", 14), 0, "%s", bound);
	c2 = connect_tcp(bound_port(bound));
	wait_sessions(2);
	close(c);
	close(c2);
	cr_assert_eq(server_public(sv), 0);
	fd = tcp_listener(1);
	cr_assert_eq(
	    server_adopt(sv, fd, 0, bound, sizeof(bound), err, sizeof(err)),
	    -1);
	snprintf(want, sizeof(want),
	    "refusing to serve %s (not loopback) without --token-file", bound);
	cr_assert_str_eq(err, want);
	cr_assert_eq(strncmp(bound, "tcp:0.0.0.0:", 12), 0, "%s", bound);
	cr_assert_eq(
	    server_adopt(sv, fd, 1, bound, sizeof(bound), err, sizeof(err)), -1,
	    "a token in the clear beyond loopback");
	snprintf(want, sizeof(want),
	    "%s: refusing to take the token in the clear beyond loopback: "
	    "listen with tls: (and --tls-cert), or give "
	    "--allow-cleartext-token",
	    bound);
	cr_assert_str_eq(err, want);
	((struct options *)d.opts)->allow_cleartext_token = 1;
	cr_assert_eq(
	    server_adopt(sv, fd, 1, bound, sizeof(bound), err, sizeof(err)), 0,
	    "%s", err);
	cr_assert_eq(server_public(sv), 1);

	/* Not a listening stream socket. */
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	cr_assert_eq(
	    server_adopt(sv, fd, 1, bound, sizeof(bound), err, sizeof(err)),
	    -1);
	cr_assert(
	    strstr(err, "not a listening Unix or TCP stream socket") != NULL,
	    "%s", err);
	close(fd);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	cr_assert_eq(
	    server_adopt(sv, fd, 1, bound, sizeof(bound), err, sizeof(err)), -1,
	    "not listening");
	cr_assert(
	    strstr(err, "not a listening Unix or TCP stream socket") != NULL,
	    "%s", err);
	close(fd);
	cr_assert_eq(pipe(p), 0);
	cr_assert_eq(
	    server_adopt(sv, p[0], 1, bound, sizeof(bound), err, sizeof(err)),
	    -1);
	snprintf(want, sizeof(want), "fd %d: not a socket (", p[0]);
	cr_assert_eq(strncmp(err, want, strlen(want)), 0, "%s", err);
	close(p[0]);
	close(p[1]);

	server_free(sv);
	sv = NULL;
	cr_assert_eq(lstat(path, &st), 0, "systemd's socket stays");
	unlink(path);
	finish();
}

Test(server, oldest_handshake_dropped, .fini = teardown)
{
	static const char *const args[] = { "--max-handshakes", "2", NULL };
	struct inproc_rx rx = { 0 };
	Haptix__V1__Response *r;
	const uint8_t *p;
	char err[256];
	int c[3], tcp, port, i;
	char bound[128];
	long n;

	start(args);
	cr_assert_eq(
	    server_listen_unix(sv, path, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(server_listen_tcp(sv, "127.0.0.1:0", 0, bound,
			 sizeof(bound), err, sizeof(err)),
	    0, "%s", err);
	port = bound_port(bound);
	for (i = 0; i < 2; i++) {
		c[i] = connect_unix(path);
		wait_sessions(i + 1);
	}
	/* TCP's handshakes are counted apart: nobody goes for this one. */
	tcp = connect_tcp(port);
	wait_sessions(3);
	cr_assert_eq(nleft, 0);

	/* A third on the Unix socket: the first one goes, told why. */
	c[2] = connect_unix(path);
	n = inproc_rx_frame(&d, &rx, c[0], &p, 2);
	cr_assert_geq(n, 0, "the oldest was told");
	r = haptix__v1__response__unpack(NULL, (size_t)n, p);
	cr_assert_not_null(r);
	cr_assert_eq(r->id, 0);
	cr_assert_eq(r->result, HAPTIX__V1__RESULT__RESULT_DENIED);
	cr_assert_str_eq(r->error,
	    "no Hello yet, and too many connections wait for one (limit 2, "
	    "--max-handshakes): the oldest goes");
	haptix__v1__response__free_unpacked(r, NULL);
	cr_assert(inproc_rx_eof(&d, &rx, c[0], 2), "and closed");
	inproc_rx_free(&rx);
	cr_assert_eq(sessions_handshaking(&d, SESSION_UNIX), 2);
	cr_assert_eq(sessions_handshaking(&d, SESSION_TCP), 1);
	cr_assert_eq(nleft, 1, "only the oldest");

	/* The second and third are still served. */
	inproc_rx_read(&rx, c[1]);
	cr_assert_eq(rx.eof, 0);
	cr_assert_eq(rx.len, 0);
	inproc_rx_free(&rx);
	for (i = 0; i < 3; i++)
		close(c[i]);
	close(tcp);
	finish();
}

/*
 * A tls: listener: not without a certificate, nor with a key that is
 * not the certificate's; with them, bound says tls:, and a TLS client
 * is served (its session says so).  systemd's TCP socket serves TLS when
 * the settings name a certificate.
 */
Test(server, tls_listeners, .fini = teardown)
{
	const char *args[] = { "--tls-cert", hx_test_cert("server.pem"),
		"--tls-key", hx_test_cert("client.key"), NULL };
	char bound[256], err[1024];
	struct session *s = NULL;
	int fd;

	start(NULL);
	cr_assert_eq(server_listen_tcp(sv, "tls:127.0.0.1:0", 0, bound,
			 sizeof(bound), err, sizeof(err)),
	    -1);
	cr_assert_str_eq(
	    err, "--tcp tls:127.0.0.1:0: a tls: listener needs --tls-cert");
	finish();

	start(args);
	cr_assert_eq(server_listen_tcp(sv, "tls:127.0.0.1:0", 0, bound,
			 sizeof(bound), err, sizeof(err)),
	    -1);
	cr_assert(strstr(err, "does not match --tls-cert") != NULL, "%s", err);
	finish();

	args[3] = hx_test_cert("server.key");
	start(args);
	cr_assert_eq(server_listen_tcp(sv, "tls:127.0.0.1:0", 0, bound,
			 sizeof(bound), err, sizeof(err)),
	    0, "%s", err);
	cr_assert_eq(strncmp(bound, "tls:127.0.0.1:", 14), 0, "%s", bound);
	fd = connect_tcp(bound_port(bound));
	wait_sessions(1);
	sessions_foreach(&d, one_session, &s);
	cr_assert(s->tls, "the session is TLS's");
	cr_assert_eq(strncmp(s->peer, "tls 127.0.0.1:", 14), 0, "%s", s->peer);
	cr_assert_eq(sessions_handshaking(&d, SESSION_TCP), 1,
	    "a handshake counts as waiting for Hello");
	close(fd);

	fd = tcp_listener(0);
	cr_assert_eq(
	    server_adopt(sv, fd, 0, bound, sizeof(bound), err, sizeof(err)), 0,
	    "%s", err);
	cr_assert_eq(strncmp(bound, "tls:127.0.0.1:", 14), 0, "%s", bound);
	finish();
}
