/*
 * What the hxview tests (tests/test_view.c, test_serve.c and
 * test_serve_guard.c) share: the real hxview run in the foreground or
 * the background (on pipes, for frames) and stopped after every test,
 * its pictures decoded, hxview serve started and stopped, and HTTP
 * requests to it.  And their main(): without EGL each suite exits 77,
 * which automake counts as skipped, with hxview's reason.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <png.h>

#include "check.h"
#include "harness.h"
#include "haptixd.h"
#include "view_harness.h"

#define MAX_CHILDREN 8

/* The daemon's arguments for models/test/view.xml, the red box. */
const char *const view_args[] = { "-m", "view.xml", NULL };

/* hxviews running in the background, and the test's scratch directory. */
static pid_t children[MAX_CHILDREN];
static char scratch[64];

static int
rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

/* After every test, even a failed one: stop what it left running. */
void
cleanup(void)
{
	int i;

	for (i = 0; i < MAX_CHILDREN; i++) {
		if (children[i] > 0) {
			kill(children[i], SIGKILL);
			waitpid(children[i], NULL, 0);
			children[i] = 0;
		}
	}
	if (scratch[0] != '\0')
		nftw(scratch, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
	scratch[0] = '\0';
	hx_server_cleanup();
}

/* The test's scratch directory, made on first use; path of name in it. */
const char *
scratch_path(const char *name)
{
	static char path[256];

	if (scratch[0] == '\0') {
		snprintf(scratch, sizeof(scratch), "/tmp/hxview-test.XXXXXX");
		cr_assert_not_null(
		    mkdtemp(scratch), "mkdtemp: %s", strerror(errno));
	}
	snprintf(path, sizeof(path), "%s/%s", scratch, name);
	return path;
}

static void
child_add(pid_t pid)
{
	int i;

	for (i = 0; i < MAX_CHILDREN; i++) {
		if (children[i] == 0) {
			children[i] = pid;
			return;
		}
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	cr_assert_fail("too many hxviews in the background");
}

/* Forget pid, a background hxview that exited, for cleanup(). */
void
child_forget(pid_t pid)
{
	int i;

	for (i = 0; i < MAX_CHILDREN; i++)
		if (children[i] == pid)
			children[i] = 0;
}

/* A new unlinked temporary file, open for reading and writing. */
int
temp_file(void)
{
	char path[] = "/tmp/hxview-io.XXXXXX";
	int fd = mkstemp(path);

	cr_assert_neq(fd, -1, "mkstemp: %s", strerror(errno));
	unlink(path);
	return fd;
}

/* hxview's argument vector from a NULL-terminated list. */
static void
build_argv(const char **argv, va_list ap)
{
	const char *a;
	int n = 0;

	argv[n++] = hx_hxview_path();
	while ((a = va_arg(ap, const char *)) != NULL) {
		cr_assert_lt(n, MAX_ARGS - 1, "too many arguments");
		argv[n++] = a;
	}
	argv[n] = NULL;
}

/*
 * Start hxview with stdin on in, stdout on out and stderr on err (-1:
 * /dev/null).  Pipes' other ends must be close-on-exec, or hxview holds
 * them open.
 */
pid_t
spawn_io(const char **argv, int in, int out, int err)
{
	pid_t pid = fork();
	int fd;

	cr_assert_neq(pid, -1, "fork: %s", strerror(errno));
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		fd = open("/dev/null", O_RDWR);
		dup2(in >= 0 ? in : fd, 0);
		dup2(out >= 0 ? out : fd, 1);
		dup2(err >= 0 ? err : fd, 2);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	child_add(pid);
	return pid;
}

/* Start hxview with stdout on out and stderr on err (-1: /dev/null). */
pid_t
spawn_argv(const char **argv, int out, int err)
{
	return spawn_io(argv, -1, out, err);
}

/*
 * Wait up to seconds for pid to exit; its exit status, or 128 + the
 * signal.  Fails the test (killing it) if it does not exit.
 */
int
wait_exit(pid_t pid, double seconds)
{
	double end = hx_wall_now() + seconds;
	int status;

	while (hx_wall_now() < end) {
		if (waitpid(pid, &status, WNOHANG) == pid) {
			child_forget(pid);
			return WIFEXITED(status) ? WEXITSTATUS(status) :
						   128 + WTERMSIG(status);
		}
		hx_sleep_ms(10);
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	child_forget(pid);
	cr_assert_fail("hxview did not exit within %g s", seconds);
	return -1;
}

/* Run hxview with the arguments up to NULL; capture what it did. */
void
view(struct hx_run *r, ...)
{
	const char *argv[MAX_ARGS];
	int fo = temp_file(), fe = temp_file();
	va_list ap;
	pid_t pid;

	hx_run_free(r);
	va_start(ap, r);
	build_argv(argv, ap);
	va_end(ap);
	pid = spawn_argv(argv, fo, fe);
	r->status = wait_exit(pid, RUN_SECONDS);
	r->out = hx_slurp_fd(fo, NULL);
	r->err = hx_slurp_fd(fe, NULL);
	close(fo);
	close(fe);
}

/* Expect a run to have exited with code and said text on stderr. */
void
expect_exit(const struct hx_run *r, int code, const char *text)
{
	cr_assert_eq(r->status, code, "hxview exited %d, expected %d: %s%s",
	    r->status, code, r->out, r->err);
	if (text != NULL)
		cr_assert(strstr(r->err, text) != NULL,
		    "hxview's stderr does not mention \"%s\": %s", text,
		    r->err);
}

/*---------------------------------------------------------- pictures */

/* Free a picture's pixels. */
void
image_free(struct image *im)
{
	free(im->px);
	im->px = NULL;
}

/* Decode a PNG held in memory; fails the test unless it is one. */
void
png_decode(struct image *im, const void *data, size_t len, const char *what)
{
	png_image p;

	memset(&p, 0, sizeof(p));
	p.version = PNG_IMAGE_VERSION;
	cr_assert(png_image_begin_read_from_memory(&p, data, len),
	    "%s is not a PNG: %s", what, p.message);
	p.format = PNG_FORMAT_RGB;
	im->w = (int)p.width;
	im->h = (int)p.height;
	im->px = malloc(PNG_IMAGE_SIZE(p));
	cr_assert_not_null(im->px);
	cr_assert(png_image_finish_read(&p, NULL, im->px, 0, NULL),
	    "%s does not decode: %s", what, p.message);
}

/* The RGB of the pixel at x, y. */
const unsigned char *
pixel(const struct image *im, int x, int y)
{
	return im->px + ((size_t)y * (size_t)im->w + (size_t)x) * 3;
}

/* The box's colours, lit: one channel well above the other two. */
int
is_red(const unsigned char *p)
{
	return p[0] >= 120 && p[0] > p[1] + 80 && p[0] > p[2] + 80;
}

/* The green box of view_green.xml, lit. */
int
is_green(const unsigned char *p)
{
	return p[1] >= 120 && p[1] > p[0] + 80 && p[1] > p[2] + 80;
}

/*------------------------------------------------------------- serve */

/* The line in which the last serve_start() said where it serves. */
char serve_said[1024];

/*
 * Start hxview serve on an ephemeral port; return the port it says it
 * listens on (its first address), and that address in listening (64
 * bytes, may be NULL); serve_said holds the whole line.  A NULL addr
 * gives no --server: $HAPTIX_SERVER, or the default socket.
 */
int
serve_start(pid_t *pid, int *err, char *listening, const char *addr, ...)
{
	const char *argv[MAX_ARGS];
	char buf[1024], *p;
	size_t len = 0;
	int fds[2], n = 0, port;
	struct pollfd pfd;
	double end = hx_wall_now() + 20;
	const char *a;
	va_list ap;
	ssize_t got;

	buf[0] = '\0';
	argv[n++] = hx_hxview_path();
	if (addr != NULL) {
		argv[n++] = "--server";
		argv[n++] = addr;
	}
	argv[n++] = "--size";
	argv[n++] = SIZE;
	argv[n++] = "--no-info";
	argv[n++] = "--no-sensors";
	va_start(ap, addr);
	while ((a = va_arg(ap, const char *)) != NULL)
		argv[n++] = a;
	va_end(ap);
	argv[n] = NULL;
	cr_assert_eq(pipe(fds), 0);
	*err = temp_file();
	*pid = spawn_argv(argv, fds[1], *err);
	close(fds[1]);
	/* Wait for "hxview: serving http://127.0.0.1:PORT/ (...)". */
	while ((p = strstr(buf, "serving http://")) == NULL ||
	    strchr(p, '\n') == NULL) {
		pfd.fd = fds[0];
		pfd.events = POLLIN;
		if (poll(&pfd, 1, 100) == 1) {
			got = read(fds[0], buf + len, sizeof(buf) - 1 - len);
			if (got <= 0) {
				close(fds[0]);
				cr_assert_fail("serve exited (%d): %s",
				    wait_exit(*pid, 5),
				    hx_slurp_fd(*err, NULL));
			}
			len += (size_t)got;
		}
		buf[len] = '\0';
		cr_assert_lt(hx_wall_now(), end, "serve did not start: %s%s",
		    buf, hx_slurp_fd(*err, NULL));
	}
	close(fds[0]);
	snprintf(
	    serve_said, sizeof(serve_said), "%.*s", (int)strcspn(p, "\n"), p);
	/* http://ADDR:PORT/ or http://[V6]:PORT/ */
	p += strlen("serving http://");
	p[strcspn(p, "/")] = '\0';
	cr_assert(strrchr(p, ':') != NULL &&
		sscanf(strrchr(p, ':'), ":%d", &port) == 1,
	    "not a port: %s", buf);
	if (listening != NULL)
		snprintf(listening, 64, "%.*s", (int)(strrchr(p, ':') - p), p);
	cr_assert(port > 0 && port < 65536, "port %d", port);
	return port;
}

/* Stop serve with SIGTERM: it must exit 0. */
void
serve_stop(pid_t pid, int err)
{
	int rc;
	char *text;

	kill(pid, SIGTERM);
	rc = wait_exit(pid, 10);
	text = hx_slurp_fd(err, NULL);
	close(err);
	cr_assert_eq(rc, 0, "serve exited %d on SIGTERM: %s", rc, text);
	free(text);
}

/* Undo chunked transfer coding in place; stops at a truncated chunk. */
static size_t
dechunk(unsigned char *b, size_t len)
{
	size_t in = 0, out = 0, n;
	char *end;

	while (in < len) {
		n = strtoul((char *)b + in, &end, 16);
		if ((unsigned char *)end == b + in)
			break;
		in = (size_t)((unsigned char *)end - b);
		while (in < len && b[in] != '\n')
			in++;
		in++;
		if (n == 0 || in + n > len)
			break;
		memmove(b + out, b + in, n);
		out += n;
		in += n + 2;
	}
	return out;
}

/*
 * Send one request with len bytes of body and read the answer until the
 * server closes or, when seconds > 0, for that long.  extra is more
 * header lines or "".
 */
void
http_send(struct http *h, int port, const char *method, const char *path,
    const char *extra, const void *body, size_t blen, double seconds)
{
	struct sockaddr_in sa;
	char req[1024], *sep, *length;
	unsigned char *buf;
	size_t len = 0, cap = 1 << 16;
	double end = hx_wall_now() + (seconds > 0 ? seconds : 20);
	struct pollfd pfd;
	ssize_t n;
	int fd, left;

	memset(h, 0, sizeof(*h));
	fd = socket(AF_INET, SOCK_STREAM, 0);
	cr_assert_neq(fd, -1);
	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_port = htons((unsigned short)port);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	cr_assert_eq(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), 0,
	    "connect to port %d: %s", port, strerror(errno));
	/* extra may give the Host itself. */
	if (strcasestr(extra, "Host:") != NULL)
		snprintf(req, sizeof(req),
		    "%s %s HTTP/1.1\r\nConnection: close\r\n"
		    "%sContent-Length: %zu\r\n\r\n",
		    method, path, extra, blen);
	else
		snprintf(req, sizeof(req),
		    "%s %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
		    "Connection: close\r\n%sContent-Length: %zu\r\n\r\n",
		    method, path, port, extra, blen);
	cr_assert_eq(write(fd, req, strlen(req)), (ssize_t)strlen(req));
	/* A body refused early may find the connection closed: no matter. */
	if (blen > 0)
		(void)!send(fd, body, blen, MSG_NOSIGNAL);
	buf = malloc(cap);
	cr_assert_not_null(buf);
	for (;;) {
		left = (int)((end - hx_wall_now()) * 1e3);
		if (left <= 0)
			break;
		pfd.fd = fd;
		pfd.events = POLLIN;
		if (poll(&pfd, 1, left) != 1)
			break;
		if (cap - len < 4096) {
			cap *= 2;
			buf = realloc(buf, cap);
			cr_assert_not_null(buf);
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	cr_assert(seconds > 0 || hx_wall_now() < end,
	    "%s %s: no end to the answer", method, path);
	buf[len] = '\0';
	sep = strstr((char *)buf, "\r\n\r\n");
	cr_assert_not_null(sep, "%s %s: no header in %zu bytes: %.200s", method,
	    path, len, buf);
	cr_assert_lt((size_t)(sep - (char *)buf), sizeof(h->head));
	memcpy(h->head, buf, (size_t)(sep - (char *)buf));
	cr_assert_eq(sscanf(h->head, "HTTP/1.%*d %d", &h->code), 1,
	    "%s %s: not an HTTP answer: %s", method, path, h->head);
	h->len = len - (size_t)(sep + 4 - (char *)buf);
	memmove(buf, sep + 4, h->len);
	if (strcasestr(h->head, "Transfer-Encoding: chunked") != NULL) {
		h->len = dechunk(buf, h->len);
	} else if (seconds <= 0) {
		length = strcasestr(h->head, "Content-Length: ");
		cr_assert(
		    length != NULL && strtoul(length + 16, NULL, 10) == h->len,
		    "%s %s: %zu bytes of body: %s", method, path, h->len,
		    h->head);
	}
	buf[h->len] = '\0';
	h->body = buf;
}

/* Send one request without a body, read the answer as http_send(). */
void
http(struct http *h, int port, const char *method, const char *path,
    const char *extra, double seconds)
{
	http_send(h, port, method, path, extra, NULL, 0, seconds);
}

/* Free an answer's body. */
void
http_free(struct http *h)
{
	free(h->body);
	h->body = NULL;
}

/* Expect a code and, when given, this Content-Type. */
void
http_expect(const struct http *h, int code, const char *type)
{
	char line[256];

	cr_assert_eq(h->code, code, "HTTP %d, expected %d: %s\n\n%.300s",
	    h->code, code, h->head, (const char *)h->body);
	if (type != NULL) {
		snprintf(line, sizeof(line), "Content-Type: %s", type);
		cr_assert(strcasestr(h->head, line) != NULL, "not %s: %s", type,
		    h->head);
	}
}

/* Connect to hxview serve on port; returns the socket. */
int
http_connect(int port)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	int fd;

	sa.sin_port = htons((unsigned short)port);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fd = socket(AF_INET, SOCK_STREAM, 0);
	cr_assert_neq(fd, -1);
	cr_assert_eq(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), 0,
	    "connect to port %d: %s", port, strerror(errno));
	return fd;
}

/* Has the simulation time advanced over 300 ms, and is it running? */
void
expect_running(hxd_conn *c, const char *when)
{
	hxd_status a = hx_status_ok(c), b;

	hx_sleep_ms(300);
	b = hx_status_ok(c);
	cr_assert(!b.paused && b.time > a.time,
	    "%s: the simulation stopped (paused %d, time %g then %g)", when,
	    b.paused, a.time, b.time);
}

/*--------------------------------------------------------------- main */

/*
 * Skip the suite, saying why, when hxview cannot render here (no EGL, no
 * OpenGL): automake counts exit 77 as SKIP, not as a pass.
 */
int
main(int argc, char *argv[])
{
	struct criterion_test_set *tests = criterion_initialize();
	const char *hxview = getenv("HXVIEW");
	int fe, status, result = 0;
	char path[] = "/tmp/hxview-egl.XXXXXX", why[4096];
	ssize_t n;
	pid_t pid;

	if (!criterion_handle_args(argc, argv, true)) {
		criterion_finalize(tests);
		return 0;
	}
	if (hxview == NULL || *hxview == '\0') {
		fprintf(stderr,
		    "HXVIEW is not set: run the tests with make check\n");
		criterion_finalize(tests);
		return 1;
	}
	/* hxview egl, its stderr kept to say why it failed. */
	if ((fe = mkstemp(path)) == -1) {
		perror("mkstemp");
		criterion_finalize(tests);
		return 1;
	}
	unlink(path);
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		dup2(null, 0);
		dup2(null, 1);
		dup2(fe, 2);
		execl(hxview, hxview, "egl", (char *)NULL);
		fprintf(stderr, "cannot run %s: %s\n", hxview, strerror(errno));
		_exit(127);
	}
	if (pid == -1 || waitpid(pid, &status, 0) != pid ||
	    !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		n = pread(fe, why, sizeof(why) - 1, 0);
		why[n > 0 ? n : 0] = '\0';
		while (n > 0 && why[n - 1] == '\n')
			why[--n] = '\0';
		fprintf(stderr, "SKIP: hxview cannot render here: %s\n",
		    n > 0 ? why : "hxview egl failed");
		close(fe);
		criterion_finalize(tests);
		return 77;
	}
	close(fe);
	result = !criterion_run_all_tests(tests);
	criterion_finalize(tests);
	return result;
}
