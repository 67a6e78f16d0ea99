/*
 * The guards of hxview serve (clients/hxview_http.c), through the real
 * hxview and a real haptixd over HTTP: strangers refused (a foreign Host
 * or Origin, huge requests), connections capped, streams that never read
 * locking nobody out, the controls refused read-only and under another's
 * lease, the token beyond loopback, the server named as reached, and the
 * addresses it listens on.  hxview needs EGL: without it the suite exits
 * 77 (view_harness.c's main()).
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <criterion/logging.h>

#include "check.h"
#include "harness.h"
#include "haptixd.h"
#include "view_harness.h"

TestSuite(serve_guard, .timeout = 60, .fini = cleanup);

/*
 * The status code of a request of n filler bytes in one header (head)
 * or in the body, or -1 when the server closed without an answer.
 */
static int
http_oversize(int port, size_t n, int head)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	char start[256], answer[512];
	char *filler = malloc(n + 1);
	ssize_t got;
	int fd, code = -1;

	cr_assert_not_null(filler);
	memset(filler, 'a', n);
	filler[n] = '\0';
	sa.sin_port = htons((unsigned short)port);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fd = socket(AF_INET, SOCK_STREAM, 0);
	cr_assert_eq(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	snprintf(start, sizeof(start),
	    "POST /control/pause HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
	    "X-Hxview: 1\r\nConnection: close\r\n",
	    port);
	(void)!send(fd, start, strlen(start), MSG_NOSIGNAL);
	if (head) {
		(void)!send(fd, "X-Filler: ", 10, MSG_NOSIGNAL);
		(void)!send(fd, filler, n, MSG_NOSIGNAL);
		snprintf(start, sizeof(start), "\r\nContent-Length: 0\r\n\r\n");
		(void)!send(fd, start, strlen(start), MSG_NOSIGNAL);
	} else {
		snprintf(
		    start, sizeof(start), "Content-Length: %zu\r\n\r\n", n);
		(void)!send(fd, start, strlen(start), MSG_NOSIGNAL);
		(void)!send(fd, filler, n, MSG_NOSIGNAL);
	}
	got = read(fd, answer, sizeof(answer) - 1);
	if (got > 0) {
		answer[got] = '\0';
		if (sscanf(answer, "HTTP/1.%*d %d", &code) != 1)
			code = -1;
	}
	close(fd);
	free(filler);
	return code;
}

/*
 * A page of another site reaches hxview neither by its own name (DNS
 * rebinding: the Host is not ours) nor from its scripts (an Origin not
 * ours); requests with huge headers or bodies are refused.  Before, a
 * foreign Host was served, and 88 MiB of headers were buffered.
 */
Test(serve_guard, refuses_strangers)
{
	struct hx_server s;
	struct http h;
	char host[64];
	hxd_conn *c;
	pid_t pid;
	int err, port, code;

	hx_server_start(&s, view_args);
	c = hx_connect_ok(hx_server_addr(&s, 0), "watcher");
	port = serve_start(&pid, &err, NULL, hx_server_addr(&s, 1), "serve",
	    "--http", "127.0.0.1:0", NULL);

	snprintf(host, sizeof(host), "Host: rebound.example:%d\r\n", port);
	http(&h, port, "GET", "/status.json", host, 0);
	http_expect(&h, 403, NULL);
	cr_assert(strstr((char *)h.body, "Host") != NULL, "%s", h.body);
	http_free(&h);
	snprintf(host, sizeof(host), "Host: localhost:%d\r\n", port);
	http(&h, port, "GET", "/status.json", host, 0);
	http_expect(&h, 200, "application/json");
	http_free(&h);

	http(&h, port, "POST", "/control/pause",
	    "X-Hxview: 1\r\nOrigin: http://rebound.example\r\n", 0);
	http_expect(&h, 403, NULL);
	http_free(&h);
	expect_running(c, "after a control from another origin");
	snprintf(host, sizeof(host),
	    "X-Hxview: 1\r\nOrigin: http://127.0.0.1:%d\r\n", port);
	http(&h, port, "POST", "/control/pause", host, 0);
	http_expect(&h, 200, "application/json");
	http_free(&h);
	cr_assert(hx_status_ok(c).paused, "our own origin could not pause");

	code = http_oversize(port, 64 * 1024, 1);
	cr_expect(code != 200, "64 KiB of headers were taken (%d)", code);
	code = http_oversize(port, 64 * 1024, 0);
	cr_expect(code != 200, "a 64 KiB body was taken (%d)", code);
	http(&h, port, "GET", "/status.json", "", 0); /* still serving */
	http_expect(&h, 200, "application/json");
	http_free(&h);

	serve_stop(pid, err);
	hxd_close(c);
	hx_server_stop(&s);
}

/* Return 1 if the server closes fd within ms, reading what comes. */
static int
http_closed(int fd, int ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char buf[4096];

	for (;;) {
		if (poll(&pfd, 1, ms) != 1)
			return 0;
		if (read(fd, buf, sizeof(buf)) <= 0)
			return 1;
	}
}

/* Return 1 if fd brings bytes and no end for a second. */
static int
http_flowing(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	double end = hx_wall_now() + 1;
	size_t total = 0;
	char buf[65536];
	ssize_t n;
	int left;

	while ((left = (int)((end - hx_wall_now()) * 1e3)) > 0) {
		if (poll(&pfd, 1, left) != 1)
			break;
		if ((n = read(fd, buf, sizeof(buf))) <= 0)
			return 0;
		total += (size_t)n;
	}
	return total > 0;
}

/* The default of hxview serve --max-connections (hxview(1)). */
#define SERVE_MAX_CONNECTIONS 32

/*
 * Connections are capped (--max-connections, 32 by default): past it, each
 * newcomer closes the oldest idle connection (silent, or a request
 * begun and never ended), never a stream being watched; a request is
 * served all along.  Before, every connection was kept: 2,000 idle ones
 * were accepted and buffered.
 */
Test(serve_guard, caps_connections)
{
	static const char begun[] = "GET /status.json HTTP/1.1\r\nX-Slow: ";
	struct hx_server s;
	struct http h;
	char req[128];
	int idle[SERVE_MAX_CONNECTIONS + 8], watch, err, port, i;
	const int n = SERVE_MAX_CONNECTIONS + 8,
		  gone = n - (SERVE_MAX_CONNECTIONS - 1);
	pid_t pid;

	hx_server_start(&s, view_args);
	port = serve_start(&pid, &err, NULL, hx_server_addr(&s, 0), "serve",
	    "--http", "127.0.0.1:0", NULL);

	/* A watcher of the stream, then 40 idle connections. */
	watch = http_connect(port);
	snprintf(req, sizeof(req),
	    "GET /stream.mjpg HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n", port);
	cr_assert_eq(write(watch, req, strlen(req)), (ssize_t)strlen(req));
	hx_sleep_ms(300); /* it is a stream before the others come */
	for (i = 0; i < n; i++) {
		idle[i] = http_connect(port);
		if (i % 2)
			cr_assert_eq(write(idle[i], begun, strlen(begun)),
			    (ssize_t)strlen(begun));
	}
	/* 32 places: the watcher's and the 31 newest idle ones. */
	for (i = 0; i < gone; i++)
		cr_expect(http_closed(idle[i], 5000),
		    "idle connection %d of %d is still open", i + 1, n);
	for (i = gone; i < n; i++)
		cr_expect(!http_closed(idle[i], i == gone ? 300 : 0),
		    "idle connection %d of %d, one of the newest, was closed",
		    i + 1, n);
	http(&h, port, "GET", "/status.json", "", 0);
	http_expect(&h, 200, "application/json");
	http_free(&h);
	cr_expect(
	    http_closed(idle[gone], 5000), "a request closed no idle one");
	cr_expect(http_flowing(watch), "the stream was closed");
	for (i = 0; i < n; i++)
		close(idle[i]);
	close(watch);
	serve_stop(pid, err);
	hx_server_stop(&s);
}

/* A connection whose kernel buffer for what it receives is small. */
static int
http_connect_small(int port)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	int fd, small = 4096;

	fd = socket(AF_INET, SOCK_STREAM, 0);
	cr_assert_geq(fd, 0);
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof(small));
	sa.sin_port = htons((uint16_t)port);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	cr_assert_eq(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	return fd;
}

/* How many times text occurs in s. */
static int
count(const unsigned char *s, const char *text)
{
	const char *p = (const char *)s;
	int n = 0;

	while ((p = strstr(p, text)) != NULL) {
		n++;
		p += strlen(text);
	}
	return n;
}

/* The streams /status.json lists. */
static int
serve_streams(int port)
{
	struct http h;
	int n;

	http(&h, port, "GET", "/status.json", "", 0);
	http_expect(&h, 200, "application/json");
	n = count(h.body, "\"kind\":");
	http_free(&h);
	return n;
}

/*
 * 32 connections to /stream.mjpg or /events that never read locked every
 * other request out for 70 s, and streams were never dropped.  Now 40
 * such streams from one address get 8 places (the rest are told 503 at
 * once), a page load and a control are each answered within 1 s, and
 * the stalled streams are dropped within seconds.
 */
Test(serve_guard, stalled_streams_lock_nobody_out)
{
	static const char *const paths[] = { "/stream.mjpg", "/events" };
	struct hx_server s;
	struct http h;
	char req[160], buf[512];
	int fd[40], err, port, i, refused = 0, closed = 0;
	double t0, took;
	ssize_t n;
	pid_t pid;

	hx_skip_if_valgrind();
	hx_server_start(&s, view_args);
	port = serve_start(&pid, &err, NULL, hx_server_addr(&s, 0), "serve",
	    "--http", "127.0.0.1:0", NULL);
	for (i = 0; i < 40; i++) {
		fd[i] = http_connect_small(port);
		snprintf(req, sizeof(req),
		    "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n",
		    paths[i % 2], port);
		cr_assert_eq(
		    write(fd[i], req, strlen(req)), (ssize_t)strlen(req));
		hx_sleep_ms(10);
	}
	hx_sleep_ms(500);
	cr_expect_eq(serve_streams(port), 8, "one address's streams");
	t0 = hx_wall_now();
	http(&h, port, "GET", "/", "", 0);
	took = hx_wall_now() - t0;
	http_expect(&h, 200, "text/html");
	http_free(&h);
	cr_expect_lt(took, 1.0, "a page load took %.2f s", took);
	t0 = hx_wall_now();
	http(&h, port, "POST", "/control/pause", "X-Hxview: 1\r\n", 0);
	took = hx_wall_now() - t0;
	http_expect(&h, 200, "application/json");
	http_free(&h);
	cr_expect_lt(took, 1.0, "a control took %.2f s", took);
	/*
	 * The refused were told why (a stream's answer is a 200), or, on a
	 * loaded machine where connections came faster than their requests
	 * were read, closed as the oldest idle ones past --max-connections.
	 */
	t0 = hx_wall_now();
	for (i = 0; i < 40; i++) {
		struct pollfd pfd = { .fd = fd[i], .events = POLLIN };
		int wait = (int)(1000 * (t0 + 5 - hx_wall_now()));

		if (poll(&pfd, 1, wait > 0 ? wait : 0) != 1)
			continue;
		n = read(fd[i], buf, sizeof(buf) - 1);
		if (n <= 0) {
			closed++;
			continue;
		}
		buf[n] = '\0';
		if (strstr(buf, " 503 ") != NULL &&
		    strstr(buf, "at most 8 an address") != NULL)
			refused++;
	}
	cr_log_info("%d told 503, %d closed unanswered", refused, closed);
	cr_expect_eq(
	    refused + closed, 32, "%d told 503, %d closed", refused, closed);
	cr_expect_gt(refused, 0, "none was told why");
	/*
	 * The 8 that read nothing are dropped (5 s without progress) while
	 * they have something to carry: the simulation runs again, so that
	 * the event streams get events too (paused, a slow machine's few
	 * events before the pause may all fit in the kernel's buffers, and
	 * a stream with nothing waiting is not behind).
	 */
	http(&h, port, "POST", "/control/run", "X-Hxview: 1\r\n", 0);
	http_expect(&h, 200, "application/json");
	http_free(&h);
	t0 = hx_wall_now();
	while (serve_streams(port) > 0 && hx_wall_now() - t0 < 15)
		hx_sleep_ms(250);
	cr_expect_eq(serve_streams(port), 0, "stalled streams still open");
	cr_expect_lt(hx_wall_now() - t0, 15);
	for (i = 0; i < 40; i++)
		close(fd[i]);
	serve_stop(pid, err);
	hx_server_stop(&s);
}

/* --read-only refuses the controls; so does another client's lease. */
Test(serve_guard, refuses_control)
{
	struct hx_server s;
	struct http h;
	hxd_lease_info lease;
	hxd_conn *c;
	pid_t pid;
	int err, port;

	hx_server_start(&s, view_args);
	c = hx_connect_ok(hx_server_addr(&s, 0), "holder");

	port = serve_start(&pid, &err, NULL, hx_server_addr(&s, 0), "serve",
	    "--http", "127.0.0.1:0", "--read-only", NULL);
	http(&h, port, "POST", "/control/pause", "X-Hxview: 1\r\n", 0);
	http_expect(&h, 403, "application/json");
	cr_assert(strstr((char *)h.body, "read-only") != NULL, "%s", h.body);
	http_free(&h);
	http(&h, port, "GET", "/", "", 0);
	http_expect(&h, 200, "text/html");
	http_free(&h);
	expect_running(c, "--read-only");
	serve_stop(pid, err);

	port = serve_start(&pid, &err, NULL, hx_server_addr(&s, 0), "serve",
	    "--http", "127.0.0.1:0", NULL);
	HX_OK(c, hxd_lease(c, HXD_LEASE_TAKE, &lease));
	http(&h, port, "POST", "/control/pause", "X-Hxview: 1\r\n", 0);
	cr_assert_neq(h.code, 200, "pause under another's lease: %s", h.head);
	http_expect(&h, h.code, "application/json");
	cr_assert(strstr((char *)h.body, "{\"error\":\"") != NULL,
	    "no error: %s", h.body);
	http_free(&h);
	expect_running(c, "under the lease");
	/* Released, the same request works. */
	HX_OK(c, hxd_lease(c, HXD_LEASE_RELEASE, NULL));
	http(&h, port, "POST", "/control/pause", "X-Hxview: 1\r\n", 0);
	http_expect(&h, 200, "application/json");
	http_free(&h);
	cr_assert(hx_status_ok(c).paused, "not paused once released");
	serve_stop(pid, err);
	hxd_close(c);
	hx_server_stop(&s);
}

/*
 * Beyond loopback with the daemon's token ($HAPTIX_TOKEN_FILE): the
 * pages and the stream are served, a control without the token is
 * refused (401) and changes nothing, one with a wrong token too, and one
 * with the token works.
 */
Test(serve_guard, beyond_loopback_needs_the_token)
{
	static const char token[] = "beyond-loopback-token-0123456789";
	struct hx_server s;
	struct http h;
	char path[300], listening[64];
	hxd_conn *c;
	pid_t pid;
	FILE *f;
	int err, port;

	hx_server_start(&s, view_args);
	c = hx_connect_ok(hx_server_addr(&s, 0), "watcher");
	snprintf(path, sizeof(path), "%s", scratch_path("token"));
	cr_assert_not_null(f = fopen(path, "w"));
	fprintf(f, "%s\n", token);
	fclose(f);
	cr_assert_eq(chmod(path, 0600), 0);
	setenv("HAPTIX_TOKEN_FILE", path, 1);
	port = serve_start(&pid, &err, listening, hx_server_addr(&s, 0),
	    "serve", "--http", "0.0.0.0:0", NULL);
	unsetenv("HAPTIX_TOKEN_FILE");
	cr_assert_str_eq(listening, "0.0.0.0");
	http(&h, port, "GET", "/status.json", "", 0);
	http_expect(&h, 200, "application/json");
	http_free(&h);
	/* The stream goes on, frame after frame (a second of it). */
	http(&h, port, "GET", "/events", "", 1.0);
	cr_assert_eq(h.code, 200, "%s", h.head);
	cr_expect_gt(count(h.body, "event: frame"), 5, "%.300s", h.body);
	http_free(&h);
	http(&h, port, "POST", "/control/pause", "X-Hxview: 1\r\n", 0);
	http_expect(&h, 401, "application/json");
	cr_assert(strstr((char *)h.body, "token") != NULL, "%s", h.body);
	http_free(&h);
	http(&h, port, "POST", "/control/pause",
	    "X-Hxview: 1\r\nX-Hxview-Token: not-the-token\r\n", 0);
	http_expect(&h, 401, "application/json");
	http_free(&h);
	expect_running(c, "without the token");
	snprintf(
	    path, sizeof(path), "X-Hxview: 1\r\nX-Hxview-Token: %s\r\n", token);
	http(&h, port, "POST", "/control/pause", path, 0);
	http_expect(&h, 200, "application/json");
	http_free(&h);
	cr_assert(hx_status_ok(c).paused, "not paused with the token");
	serve_stop(pid, err);
	hxd_close(c);
	hx_server_stop(&s);
}

/*
 * The workbench's info box names the server hxview reached, through
 * $HAPTIX_SERVER here: it said "the default socket" whenever --server
 * was not given.
 */
Test(serve_guard, names_the_server_it_reached)
{
	struct hx_server s;
	struct http h;
	char want[128];
	pid_t pid;
	int err, port;

	hx_server_start(&s, view_args);
	setenv("HAPTIX_SERVER", hx_server_addr(&s, 1), 1);
	port = serve_start(
	    &pid, &err, NULL, NULL, "serve", "--http", "127.0.0.1:0", NULL);
	unsetenv("HAPTIX_SERVER");
	http(&h, port, "GET", "/events", "", 0.5);
	snprintf(
	    want, sizeof(want), "\"server\":\"tcp:%s\"", hx_server_addr(&s, 1));
	cr_expect(strstr((char *)h.body, want) != NULL, "no %s in %.400s", want,
	    h.body);
	http_free(&h);
	serve_stop(pid, err);
	hx_server_stop(&s);
}

/* Read up to len bytes from fd within seconds; the count read. */
static size_t
read_some(int fd, char *buf, size_t len, double seconds)
{
	double end = hx_wall_now() + seconds;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	size_t got = 0;
	ssize_t n;

	while (got < len && hx_wall_now() < end &&
	    poll(&pfd, 1, (int)((end - hx_wall_now()) * 1e3) + 1) == 1) {
		n = read(fd, buf + got, len - got);
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	return got;
}

/*
 * Each address localhost resolves to is named in serve's line and
 * answers /status.json at port, asked for by the name localhost.
 */
static void
serve_every_address(int port)
{
	struct addrinfo hints = { 0 }, *res, *ai;
	char host[NI_MAXHOST], url[NI_MAXHOST + 16], portname[8], req[256];
	char got[64];
	size_t n;
	int fd, naddr = 0;

	snprintf(portname, sizeof(portname), "%d", port);
	hints.ai_socktype = SOCK_STREAM;
	cr_assert_eq(getaddrinfo("localhost", portname, &hints, &res), 0);
	for (ai = res; ai != NULL; ai = ai->ai_next, naddr++) {
		cr_assert_eq(getnameinfo(ai->ai_addr, ai->ai_addrlen, host,
				 sizeof(host), NULL, 0, NI_NUMERICHOST),
		    0);
		snprintf(url, sizeof(url),
		    ai->ai_family == AF_INET6 ? "http://[%s]:%d/" :
						"http://%s:%d/",
		    host, port);
		cr_expect(strstr(serve_said, url) != NULL,
		    "localhost is %s, not named in: %s", host, serve_said);
		fd = socket(ai->ai_family, SOCK_STREAM, 0);
		cr_assert_neq(fd, -1);
		cr_assert_eq(connect(fd, ai->ai_addr, ai->ai_addrlen), 0,
		    "connect to %s: %s (serve said: %s)", url, strerror(errno),
		    serve_said);
		snprintf(req, sizeof(req),
		    "GET /status.json HTTP/1.1\r\nHost: localhost:%d\r\n"
		    "Connection: close\r\n\r\n",
		    port);
		cr_assert_eq(write(fd, req, strlen(req)), (ssize_t)strlen(req));
		n = read_some(fd, got, sizeof(got) - 1, 10);
		close(fd);
		got[n] = '\0';
		cr_expect(strncmp(got, "HTTP/1.1 200", 12) == 0,
		    "%s answered: %s", url, got);
	}
	freeaddrinfo(res);
	cr_log_info("localhost has %d addresses here: %s", naddr, serve_said);
}

/* Not loopback only --read-only; a malformed --http. */
Test(serve_guard, listen_addresses)
{
	struct hx_server s;
	struct hx_run r = { 0 };
	struct http h;
	const char *addr;
	char listening[64];
	pid_t pid;
	int err, port;

	hx_server_start(&s, view_args);
	addr = hx_server_addr(&s, 0);
	view(&r, "--server", addr, "--size", SIZE, "serve", "--http",
	    "0.0.0.0:0", NULL);
	expect_exit(&r, 2, "loopback");
	view(&r, "--server", addr, "--size", SIZE, "serve", "--http",
	    "127.0.0.1", NULL);
	expect_exit(&r, 2, "ADDRESS:PORT");
	view(&r, "--server", addr, "--size", SIZE, "serve", "--http",
	    "127.0.0.1:70000", NULL);
	expect_exit(&r, 2, "ADDRESS:PORT");
	hx_run_free(&r);
	/* With --read-only it may listen on every address. */
	port = serve_start(&pid, &err, listening, addr, "serve", "--http",
	    "0.0.0.0:0", "--read-only", NULL);
	cr_assert_str_eq(listening, "0.0.0.0");
	http(&h, port, "GET", "/frame.jpg", "", 0);
	http_expect(&h, 200, "image/jpeg");
	http_free(&h);
	serve_stop(pid, err);
	/*
	 * ... and the loopback form serves, on every address localhost
	 * has: both 127.0.0.1 and ::1 under Debian's /etc/hosts, where
	 * serve listened on ::1 alone and 127.0.0.1 was refused.
	 */
	port = serve_start(
	    &pid, &err, NULL, addr, "serve", "--http", "localhost:0", NULL);
	http(&h, port, "GET", "/status.json", "", 0);
	http_expect(&h, 200, "application/json");
	http_free(&h);
	serve_every_address(port);
	serve_stop(pid, err);
	hx_server_stop(&s);
}
