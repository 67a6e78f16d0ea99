/*
 * Integration tests of hxview serve, the workbench's server
 * (clients/hxview_http.c, hxview_routes.c, hxview_web.c), through the
 * real hxview and a real haptixd over HTTP: its pages, frames and
 * stream, the Watch and Physics panels, its controls, the decorations
 * each page asks for, outliving the daemon, following a new model, and
 * uploads.  What it refuses (strangers, connections past the cap, the
 * token beyond loopback) is tested in test_serve_guard.c.  hxview needs
 * EGL: without it the suite exits 77 (view_harness.c's main()).
 */
#include "config.h"

#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "check.h"
#include "harness.h"
#include "haptixd.h"
#include "view_harness.h"

TestSuite(serve, .timeout = 60, .fini = cleanup);

/* /frame.png, decoded. */
static void
http_png(struct image *im, int port)
{
	struct http h;

	http(&h, port, "GET", "/frame.png", "", 0);
	http_expect(&h, 200, "image/png");
	png_decode(im, h.body, h.len, "/frame.png");
	cr_assert(
	    im->w == W && im->h == H, "/frame.png is %dx%d", im->w, im->h);
	http_free(&h);
}

/* GET path: the code and type expected, and needle in the body unless NULL. */
static void
get_has(
    int port, const char *path, int code, const char *type, const char *needle)
{
	struct http h;

	http(&h, port, "GET", path, "", 0);
	http_expect(&h, code, type);
	cr_assert(needle == NULL || strstr((char *)h.body, needle) != NULL,
	    "GET %s: no %s in %s", path, needle, h.body);
	http_free(&h);
}

/* The page, the frames, the status, the stream, and a 404. */
Test(serve, pages)
{
	struct hx_server s;
	struct image im;
	struct http h;
	pid_t pid;
	int err, port, parts = 0;
	unsigned char *p, *next, *end;
	char *type, *length;
	size_t n;

	hx_server_start(&s, view_args);
	port = serve_start(&pid, &err, NULL, hx_server_addr(&s, 0), "--camera",
	    "front", "serve", "--http", "127.0.0.1:0", NULL);

	http(&h, port, "GET", "/picture", "", 0);
	http_expect(&h, 200, "text/html");
	cr_assert(strstr((char *)h.body, "<img") != NULL &&
		strstr((char *)h.body, "src=\"/stream.mjpg\"") != NULL,
	    "the page shows no stream: %s", h.body);
	http_free(&h);

	http_png(&im, port);
	cr_assert(is_red(pixel(&im, W / 2, H / 2)), "/frame.png: no box");
	cr_assert(!is_red(pixel(&im, 0, 0)), "/frame.png: a red corner");
	image_free(&im);

	http(&h, port, "GET", "/frame.jpg", "", 0);
	http_expect(&h, 200, "image/jpeg");
	cr_assert(h.len > 100 && h.body[0] == 0xff && h.body[1] == 0xd8 &&
		h.body[h.len - 2] == 0xff && h.body[h.len - 1] == 0xd9,
	    "/frame.jpg is not a JPEG (%zu bytes)", h.len);
	http_free(&h);

	http(&h, port, "GET", "/status.json", "", 0);
	http_expect(&h, 200, "application/json");
	cr_assert(strstr((char *)h.body, "\"paused\":false") != NULL &&
		strstr((char *)h.body, "\"time\":") != NULL,
	    "/status.json: %s", h.body);
	http_free(&h);

	http(&h, port, "GET", "/nosuchpage", "", 0);
	http_expect(&h, 404, "application/json");
	cr_assert(strstr((char *)h.body, "\"error\"") != NULL, "%s", h.body);
	http_free(&h);

	/* About a second of the stream: JPEG after JPEG. */
	http(&h, port, "GET", "/stream.mjpg", "", 1.2);
	http_expect(&h, 200, "multipart/x-mixed-replace; boundary=hxviewframe");
	end = h.body + h.len;
	for (p = h.body; p < end; p = next) {
		next = memmem(p, (size_t)(end - p), "--hxviewframe\r\n", 15);
		if (next == NULL)
			break;
		p = (unsigned char *)strstr((char *)next, "\r\n\r\n");
		type = strcasestr((char *)next, "Content-Type: image/jpeg");
		length = strcasestr((char *)next, "Content-Length: ");
		if (p == NULL)
			break; /* cut off by the end of the second */
		cr_assert(type != NULL && type < (char *)p,
		    "part %d is not image/jpeg", parts + 1);
		cr_assert(length != NULL && length < (char *)p &&
			sscanf(length, "Content-Length: %zu", &n) == 1,
		    "part %d has no length", parts + 1);
		cr_assert_gt(n, 4, "part %d is empty", parts + 1);
		if (p + 4 + n > end)
			break;
		p += 4;
		cr_assert(p[0] == 0xff && p[1] == 0xd8 && p[n - 2] == 0xff &&
			p[n - 1] == 0xd9,
		    "part %d is not a JPEG", parts + 1);
		parts++;
		next = p + n;
	}
	cr_assert_geq(parts, 4, "%d JPEGs in 1.2 s of the stream", parts);
	http_free(&h);

	serve_stop(pid, err);
	hx_server_stop(&s);
}

/*
 * The Watch panel's /watch.json: an array as the last step left it, read
 * through the daemon's compute call, equal to the live array bit for
 * bit; a whole array; every refusal with its reason.  The workbench page
 * loads the panel's script.
 */
Test(serve, watch)
{
	struct hx_server s;
	struct http h;
	hxd_array *a = NULL;
	hxd_conn *c;
	double v;
	pid_t pid;
	int err, port;
	char *p;

	hx_server_start(&s, view_args);
	c = hx_connect_ok(s.unix_addr, "test_view");
	port = serve_start(&pid, &err, NULL, hx_server_addr(&s, 0), "serve",
	    "--http", "127.0.0.1:0", NULL);
	HX_OK(c, hxd_pause(c));
	HX_OK(c, hxd_get_array(c, "xpos", &a));

	http(&h, port, "GET", "/watch.json?field=xpos&index=5", "", 0);
	http_expect(&h, 200, "application/json");
	p = strstr((char *)h.body, "\"value\":");
	cr_assert(
	    p != NULL && sscanf(p, "\"value\":%lf", &v) == 1, "%s", h.body);
	cr_assert_eq(
	    v, a->values[5], "watch %.17g, the array %.17g", v, a->values[5]);
	cr_assert(strstr((char *)h.body, "\"rows\":2,\"cols\":3") != NULL, "%s",
	    h.body);
	http_free(&h);

	http(&h, port, "GET", "/watch.json?field=xpos", "", 0);
	http_expect(&h, 200, "application/json");
	cr_assert(strstr((char *)h.body, "\"values\":[") != NULL, "%s", h.body);
	http_free(&h);

	get_has(port, "/watch.json?field=nosuch&index=0", 404,
	    "application/json", "nosuch");

	get_has(port, "/watch.json?field=xpos&index=6", 404, "application/json",
	    "beyond");

	get_has(port, "/watch.json?field=xpos&index=-1", 400,
	    "application/json", NULL);

	get_has(port, "/watch.json", 400, "application/json", "field=");

	get_has(port, "/", 200, "text/html", "watch-field");
	get_has(
	    port, "/watch.js", 200, "text/javascript", "/watch.json?field=");

	free(a);
	hxd_close(c);
	serve_stop(pid, err);
	hx_server_stop(&s);
}

/* GET path until the answer is code (or seconds pass); the last answer. */
static void
http_until(struct http *h, int port, const char *path, int code, double seconds)
{
	double end = hx_wall_now() + seconds;

	for (;;) {
		http(h, port, "GET", path, "", 0);
		if (h->code == code || hx_wall_now() > end)
			return;
		http_free(h);
		hx_sleep_ms(100);
	}
}

/*
 * serve outlives the daemon (issue 38): it exited when the daemon
 * stopped, and the page kept saying "Running".  Now the pages are told
 * the server went away, the calls that ask it answer 503 saying so, the
 * picture and the model stay, and when a daemon is back at the address
 * (here with another model) serve connects again by itself and the
 * pages are told that too.
 */
Test(serve, outlives_the_daemon)
{
	char dir[] = "/tmp/hxview-outlives.XXXXXX", sock[128], addr[160];
	const char *args1[] = { "-m", "view.xml", "--unix", sock, NULL };
	const char *args2[] = { "-m", "view_green.xml", "--unix", sock, NULL };
	struct hx_server s;
	struct http h;
	pid_t pid;
	int err, port;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(sock, sizeof(sock), "%s/hx.sock", dir);
	snprintf(addr, sizeof(addr), "unix:%s", sock);
	hx_server_start(&s, args1);
	port = serve_start(
	    &pid, &err, NULL, addr, "serve", "--http", "127.0.0.1:0", NULL);
	get_has(port, "/status.json", 200, "application/json", NULL);

	/* The daemon stops: serve stays, and says so. */
	hx_server_stop(&s);
	http_until(&h, port, "/status.json", 503, hx_wait_ms(10000) / 1e3);
	http_expect(&h, 503, "application/json");
	cr_assert(strstr((char *)h.body, "went away") != NULL &&
		strstr((char *)h.body, "connects again") != NULL,
	    "%s", h.body);
	http_free(&h);
	cr_assert_eq(waitpid(pid, NULL, WNOHANG), 0,
	    "serve exited when the daemon stopped");
	http(&h, port, "GET", "/events", "", 0.5);
	cr_assert(strstr((char *)h.body, "event: hello") != NULL &&
		strstr((char *)h.body, "\"up\":false") != NULL &&
		strstr((char *)h.body, "\"why\":") != NULL,
	    "the page is not told the server is gone: %.500s", h.body);
	http_free(&h);
	/* What serve holds is still served: the picture, the model. */
	get_has(port, "/frame.png", 200, "image/png", NULL);
	get_has(port, "/scene.json", 200, "application/json", NULL);
	/* A control is refused with the reason, not sent nowhere. */
	http(&h, port, "POST", "/control/pause", "", 0);
	cr_assert_eq(
	    h.code, 503, "a control while gone: %d %s", h.code, h.body);
	http_free(&h);

	/* A daemon is back at the address, with another model. */
	hx_server_start(&s, args2);
	http_until(&h, port, "/status.json", 200, hx_wait_ms(15000) / 1e3);
	http_expect(&h, 200, "application/json");
	http_free(&h);
	http(&h, port, "GET", "/events", "", 0.5);
	cr_assert(strstr((char *)h.body, "\"up\":true") != NULL,
	    "the page is not told the server is back: %.500s", h.body);
	http_free(&h);
	/* The new model's green box, in the picture serve renders. */
	http_until(&h, port, "/frame.png", 200, 5);
	http_free(&h);
	{
		struct image im;
		double end = hx_wall_now() + hx_wait_ms(5000) / 1e3;

		for (;;) {
			http_png(&im, port);
			if (is_green(pixel(&im, W / 2, H / 2)))
				break;
			image_free(&im);
			cr_assert(hx_wall_now() < end,
			    "the picture is not the new model's");
			hx_sleep_ms(200);
		}
		image_free(&im);
	}

	serve_stop(pid, err);
	hx_server_stop(&s);
	rmdir(dir);
}

/*
 * The Physics panel's route and control (issue 38): /physics.json lists
 * every mjOption field with its value, and the array control writes one
 * as any client's set_array, refusals with the server's reason.
 */
Test(serve, physics)
{
	struct hx_server s;
	struct http h;
	hxd_array *a = NULL;
	hxd_conn *c;
	pid_t pid;
	int err, port;

	hx_server_start(&s, view_args);
	c = hx_connect_ok(hx_server_addr(&s, 0), "test_view");
	port = serve_start(&pid, &err, NULL, hx_server_addr(&s, 1), "serve",
	    "--http", "127.0.0.1:0", NULL);

	http(&h, port, "GET", "/physics.json", "", 0);
	http_expect(&h, 200, "application/json");
	cr_assert(
	    strstr((char *)h.body,
		"{\"name\":\"opt.timestep\",\"type\":0,"
		"\"writable\":true,\"refusal\":\"\",\"values\":[0.002]}") !=
		NULL,
	    "%.800s", h.body);
	cr_assert(strstr((char *)h.body, "\"name\":\"opt.gravity\"") != NULL &&
		strstr((char *)h.body,
		    "\"values\":[0,0,-9.8100000000000005]") != NULL,
	    "%.2000s", h.body);
	http_free(&h);

	http(&h, port, "POST", "/control/array?name=opt.timestep&values=0.001",
	    "X-Hxview: 1\r\n", 0);
	http_expect(&h, 200, "application/json");
	http_free(&h);
	HX_OK(c, hxd_get_array(c, "opt.timestep", &a));
	cr_assert_eq(a->values[0], 0.001);
	free(a);
	cr_assert_eq(hx_status_ok(c).model.timestep, 0.001);

	http(&h, port, "POST",
	    "/control/array?name=opt.gravity&offset=2&values=-1.5",
	    "X-Hxview: 1\r\n", 0);
	http_expect(&h, 200, "application/json");
	http_free(&h);
	HX_OK(c, hxd_get_array(c, "opt.gravity", &a));
	cr_assert(a->values[0] == 0 && a->values[2] == -1.5, "gravity %g %g",
	    a->values[0], a->values[2]);
	free(a);

	/* The server's refusals, with its reason. */
	http(&h, port, "POST", "/control/array?name=opt.timestep&values=-1",
	    "X-Hxview: 1\r\n", 0);
	/* The server's refusal is a conflict (409), its text kept. */
	cr_assert_eq(h.code, 409, "%d %s", h.code, h.body);
	cr_assert(strstr((char *)h.body, "opt.timestep[0] is -1") != NULL, "%s",
	    h.body);
	http_free(&h);
	http(&h, port, "POST", "/control/array?name=opt.nosuch&values=1",
	    "X-Hxview: 1\r\n", 0);
	cr_assert_geq(h.code, 400, "%d %s", h.code, h.body);
	http_free(&h);
	http(&h, port, "POST", "/control/array?values=1", "X-Hxview: 1\r\n", 0);
	http_expect(&h, 400, "application/json");
	http_free(&h);

	serve_stop(pid, err);
	hxd_close(c);
	hx_server_stop(&s);
}

/* An event stream of hxview serve, read as it comes. */
struct events {
	int fd;
	unsigned id; /* the page's, from its hello */
	char *buf;   /* what came and was not taken, NUL-ended */
	size_t len;
};

/* The size of an event stream's buffer: many frames of view.xml. */
#define EVENTS_BUF (1 << 20)

/*
 * The data of the next event what of stream e (caller frees), the
 * events before it dropped; fail after seconds.
 */
static char *
events_next(struct events *e, const char *what, double seconds)
{
	struct pollfd pfd = { .fd = e->fd, .events = POLLIN };
	double end = hx_wall_now() + seconds;
	char mark[64], *p, *q, *data;
	size_t keep;
	ssize_t n;

	snprintf(mark, sizeof(mark), "event: %s\ndata: ", what);
	for (;;) {
		if ((p = strstr(e->buf, mark)) != NULL &&
		    (q = strstr(p + strlen(mark), "\n\n")) != NULL) {
			p += strlen(mark);
			data = strndup(p, (size_t)(q - p));
			cr_assert_not_null(data);
			e->len -= (size_t)(q + 2 - e->buf);
			memmove(e->buf, q + 2, e->len + 1);
			return data;
		}
		/* Room: what cannot hold the mark's start goes. */
		if (e->len > EVENTS_BUF / 2 && p == NULL) {
			keep = strlen(mark);
			memmove(e->buf, e->buf + e->len - keep, keep + 1);
			e->len = keep;
		}
		cr_assert(hx_wall_now() < end, "no '%s' event in %g s", what,
		    seconds);
		if (poll(&pfd, 1, 100) != 1)
			continue;
		n = read(e->fd, e->buf + e->len, EVENTS_BUF - 1 - e->len);
		cr_assert_gt(n, 0, "the event stream ended");
		e->len += (size_t)n;
		e->buf[e->len] = '\0';
	}
}

/* Open the event stream of hxview serve on port: its hello read. */
static void
events_open(struct events *e, int port)
{
	char req[256], *hello;

	memset(e, 0, sizeof(*e));
	e->buf = malloc(EVENTS_BUF);
	cr_assert_not_null(e->buf);
	e->buf[0] = '\0';
	e->fd = http_connect(port);
	snprintf(req, sizeof(req),
	    "GET /events HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n", port);
	cr_assert_eq(write(e->fd, req, strlen(req)), (ssize_t)strlen(req));
	hello = events_next(e, "hello", 10);
	cr_assert_eq(sscanf(hello, "{\"id\":%u", &e->id), 1, "%s", hello);
	free(hello);
}

static void
events_close(struct events *e)
{
	close(e->fd);
	free(e->buf);
}

/* A string member of a frame, as it is written (caller frees), or NULL. */
static char *
frame_member(const char *frame, const char *name)
{
	char key[64];
	const char *p;

	snprintf(key, sizeof(key), "\"%s\":\"", name);
	if ((p = strstr(frame, key)) == NULL)
		return NULL;
	p += strlen(key);
	return strndup(p, strcspn(p, "\""));
}

/* Base64 into floats (caller frees); *n floats. */
static float *
base64_floats(const char *text, size_t *n)
{
	static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklm"
				     "nopqrstuvwxyz0123456789+/";
	size_t len = strlen(text), i, out = 0;
	unsigned char *b = malloc(len + 4);
	unsigned long x = 0;
	const char *d;
	int bits = 0;

	cr_assert_not_null(b);
	for (i = 0; i < len && text[i] != '='; i++) {
		d = strchr(digits, text[i]);
		cr_assert(d != NULL && *d != '\0', "not base64: %s", text);
		x = x << 6 | (unsigned long)(d - digits);
		if ((bits += 6) >= 8) {
			bits -= 8;
			b[out++] = (unsigned char)(x >> bits & 255);
		}
	}
	cr_assert_eq(out % 4, 0, "not float32s: %zu bytes", out);
	*n = out / 4;
	return (float *)(void *)b;
}

/* What a frame's decorations of one kind are: how many, the longest. */
struct decor_kind {
	int n;
	float longest; /* the largest of their sizes */
	int others;    /* decorations of other kinds */
};

static struct decor_kind
frame_decor(const char *frame, int kind)
{
	struct decor_kind k = { 0, 0, 0 };
	char *text = frame_member(frame, "decor");
	size_t n, i, j;
	float *d;

	cr_assert_not_null(text, "a frame without decor: %.300s", frame);
	d = base64_floats(text, &n);
	cr_assert_eq(n % 16, 0, "%zu floats", n);
	for (i = 0; i < n; i += 16) {
		if ((int)d[i] != kind) {
			k.others++;
			continue;
		}
		k.n++;
		for (j = 2; j < 5; j++)
			if (d[i + j] > k.longest)
				k.longest = d[i + j];
	}
	free(d);
	free(text);
	return k;
}

/* The kind number of name in /scene.json's list of decorations. */
static int
decor_kind_of(int port, const char *name)
{
	struct http h;
	char quoted[64];
	const char *list, *at, *p;
	int kind = 0;

	http(&h, port, "GET", "/scene.json", "", 0);
	http_expect(&h, 200, "application/json");
	list = strstr((char *)h.body, "\"decor\":[");
	snprintf(quoted, sizeof(quoted), "\"%s\"", name);
	cr_assert(list != NULL && (at = strstr(list, quoted)) != NULL,
	    "no kind %s: %.300s", name, list);
	for (p = list + strlen("\"decor\":["); p < at; p++)
		kind += *p == ',';
	http_free(&h);
	return kind;
}

/* POST a control (its arguments in the query); the answer's code. */
static int
control(int port, const char *query, char *body, size_t len)
{
	struct http h;
	int code;

	http(&h, port, "POST", query, "X-Hxview: 1\r\n", 0);
	code = h.code;
	if (body != NULL)
		snprintf(body, len, "%s", (const char *)h.body);
	http_free(&h);
	return code;
}

/* The next frame of e in which check(frame, arg) holds; caller frees. */
static char *
frame_when(struct events *e, int (*check)(const char *, int), int arg,
    const char *what)
{
	double end = hx_wall_now() + 10;
	char *f;

	for (;;) {
		f = events_next(e, "frame", 10);
		if (check(f, arg))
			return f;
		cr_assert(
		    hx_wall_now() < end, "%s: the last frame %.600s", what, f);
		free(f);
	}
}

/* Does a frame hold three body frames (view.xml's one body)? */
static int
has_body_frames(const char *f, int kind)
{
	return frame_decor(f, kind).n == 3;
}

/* Does a frame hold decorations of kind? */
static int
has_kind(const char *f, int kind)
{
	return frame_decor(f, kind).n > 0;
}

/* Does a frame hold no decoration and no label? */
static int
has_nothing(const char *f, int unused)
{
	(void)unused;
	return strstr(f, "\"decor\":\"\"") != NULL &&
	    strstr(f, "\"labels\"") == NULL;
}

/* Has a frame body frames longer than arg thousandths? */
static int
has_longer_frames(const char *f, int kind_and_length)
{
	struct decor_kind k = frame_decor(f, kind_and_length & 255);

	return k.n == 3 && k.longest * 1000 > (float)(kind_and_length >> 8);
}

/*
 * The Rendering panel's decorations (issue 38): each page tells hxview
 * what it shows (the show control: simulate's flags, frame and label),
 * hxview makes the frame's decorations once, only of the kinds some page
 * shows, and sends each page its own.  A page that shows body frames and
 * body labels gets MuJoCo's frame axes and the body's name; another page
 * gets frames no bigger than before (no decorations); a scale written
 * (the Visualization panel) makes the axes longer for the pages; turned
 * off, they go.  A read-only viewer refuses the scale but not a page's
 * own choice.
 */
Test(serve, decorations_as_each_page_asks)
{
	struct hx_server s;
	struct events a, b;
	struct decor_kind k;
	char query[256], body[4096], *f;
	pid_t pid;
	int err, port, kind, camkind, i;
	float longest;

	hx_server_start(&s, view_args);
	port = serve_start(&pid, &err, NULL, hx_server_addr(&s, 0), "serve",
	    "--http", "127.0.0.1:0", NULL);
	kind = decor_kind_of(port, "frame-body");
	events_open(&a, port);
	events_open(&b, port);
	cr_assert_neq(a.id, b.id);

	/* By default (MuJoCo's flags: tendons, ...) view.xml shows none. */
	f = frame_when(&a, has_nothing, 0, "a new page's frame");
	free(f);

	/* Body frames and body labels for page a (Static Body on, 1 << 21). */
	snprintf(query, sizeof(query),
	    "/control/show?id=%u&flags=2097152&frame=1&label=1", a.id);
	cr_assert_eq(control(port, query, body, sizeof(body)), 200, "%s", body);
	f = frame_when(&a, has_body_frames, kind, "body frames");
	k = frame_decor(f, kind);
	cr_assert_eq(k.others, 0, "decorations of other kinds: %.400s", f);
	cr_assert(strstr(f, "\"labels\":[[") != NULL &&
		strstr(f, ",\"box\"]") != NULL,
	    "no label of the body: %.800s", f);
	longest = k.longest;
	cr_assert_gt(longest, 0);
	free(f);
	/* Page b shows nothing new: its frames carry none of it. */
	f = events_next(&b, "frame", 10);
	cr_assert(has_nothing(f, 0), "page b got a's decorations: %.600s", f);
	free(f);

	/* A scale of the Visualization panel: the axes twice as long. */
	cr_assert_eq(control(port, "/control/scale?name=framelength&value=2",
			 body, sizeof(body)),
	    200, "%s", body);
	cr_assert(strstr(body, "\"framelength\":2") != NULL, "%s", body);
	f = frame_when(&a, has_longer_frames,
	    kind | (int)(1.9f * longest * 1000) << 8, "longer axes");
	free(f);
	f = events_next(&b, "frame", 10);
	cr_assert(has_nothing(f, 0), "page b got a's decorations: %.600s", f);
	free(f);

	/* Turned off: nothing again. */
	snprintf(query, sizeof(query),
	    "/control/show?id=%u&flags=0&frame=0&label=0", a.id);
	cr_assert_eq(control(port, query, body, sizeof(body)), 200, "%s", body);
	f = frame_when(&a, has_nothing, 0, "the frames and labels gone");
	free(f);

	/* Camera frames, as simulate: only with the Camera flag. */
	camkind = decor_kind_of(port, "frame-camera");
	snprintf(query, sizeof(query),
	    "/control/show?id=%u&flags=0&frame=4&label=0", a.id);
	cr_assert_eq(control(port, query, body, sizeof(body)), 200, "%s", body);
	for (i = 0; i < 5; i++) {
		f = events_next(&a, "frame", 10);
		cr_assert_eq(frame_decor(f, camkind).n, 0,
		    "a camera's frame without the Camera flag: %.300s", f);
		free(f);
	}
	snprintf(query, sizeof(query),
	    "/control/show?id=%u&flags=%u&frame=4&label=0", a.id,
	    1u << 3 /* mjVIS_CAMERA */);
	cr_assert_eq(control(port, query, body, sizeof(body)), 200, "%s", body);
	f = frame_when(
	    &a, has_kind, camkind, "the camera's frame with its flag");
	free(f);
	snprintf(query, sizeof(query),
	    "/control/show?id=%u&flags=0&frame=0&label=0", a.id);
	cr_assert_eq(control(port, query, body, sizeof(body)), 200, "%s", body);

	/* Refusals, with the reason. */
	snprintf(query, sizeof(query),
	    "/control/show?id=%u&flags=0&frame=8&label=0", a.id);
	cr_assert_eq(control(port, query, body, sizeof(body)), 400, "%s", body);
	cr_assert(strstr(body, "mjtFrame") != NULL, "%s", body);
	snprintf(query, sizeof(query),
	    "/control/show?id=%u&flags=16777216&frame=0&label=0", a.id);
	cr_assert_eq(control(port, query, body, sizeof(body)), 400, "%s", body);
	cr_assert_eq(
	    control(port, "/control/show?id=9999&flags=0&frame=0&label=0", body,
		sizeof(body)),
	    400, "%s", body);
	cr_assert_eq(control(port, "/control/scale?name=nosuch&value=1", body,
			 sizeof(body)),
	    400, "%s", body);
	cr_assert(strstr(body, "framelength") != NULL, "%s", body);
	cr_assert_eq(control(port, "/control/scale?name=com&value=-1", body,
			 sizeof(body)),
	    400, "%s", body);
	events_close(&a);
	events_close(&b);
	serve_stop(pid, err);

	/* Read-only: a page's own choice, not the scales of all. */
	port = serve_start(&pid, &err, NULL, hx_server_addr(&s, 0), "serve",
	    "--http", "127.0.0.1:0", "--read-only", NULL);
	events_open(&a, port);
	cr_assert_eq(control(port, "/control/scale?name=framelength&value=2",
			 body, sizeof(body)),
	    403, "%s", body);
	cr_assert(strstr(body, "read-only") != NULL, "%s", body);
	snprintf(query, sizeof(query),
	    "/control/show?id=%u&flags=2097152&frame=1&label=0", a.id);
	cr_assert_eq(control(port, query, body, sizeof(body)), 200, "%s", body);
	f = frame_when(&a, has_body_frames, kind, "body frames, read-only");
	cr_assert_float_eq(frame_decor(f, kind).longest, longest, 1e-6,
	    "the scale changed: %.400s", f);
	free(f);
	events_close(&a);
	serve_stop(pid, err);
	hx_server_stop(&s);
}

/* Does a frame hold n decorations of a kind (arg: kind | n << 8)? */
static int
has_n_of_kind(const char *f, int kind_and_n)
{
	return frame_decor(f, kind_and_n & 255).n == kind_and_n >> 8;
}

/* Page a of port shows flags with the joint and actuator groups given. */
static void
show_groups(int port, unsigned id, unsigned flags, int joints, int actuators)
{
	char query[256], body[4096];

	snprintf(query, sizeof(query),
	    "/control/show?id=%u&flags=%u&frame=0&label=0&jointgroup=%d&"
	    "actuatorgroup=%d",
	    id, flags, joints, actuators);
	cr_assert_eq(control(port, query, body, sizeof(body)), 200, "%s", body);
}

/*
 * simulate's joint, tendon and actuator groups (issue 38): hxview makes a
 * frame's decorations with every group and sends each page those of the
 * groups it shows.  groups.xml has a hinge in group 0, another in group
 * 3 and a motor of group 4 on the second: by default (groups 0, 1 and 2)
 * one joint and no actuator; with group 3 alone the other joint; with
 * group 4 the motor; a mask past six bits refused.  And Static Body:
 * the geoms' frames, without the floor's when it is off.
 */
Test(serve, decorations_by_group)
{
	static const char *const args[] = { "-m", "groups.xml", NULL };
	/* mjtVisFlags */
	const unsigned joint = 1u << 2, actuator = 1u << 4, statics = 1u << 21;
	struct hx_server s;
	struct events a, b;
	char query[256], body[4096], *f;
	pid_t pid;
	int err, port, jkind, akind, gkind, mkind;

	hx_server_start(&s, args);
	port = serve_start(&pid, &err, NULL, hx_server_addr(&s, 0), "serve",
	    "--http", "127.0.0.1:0", NULL);
	jkind = decor_kind_of(port, "joint");
	akind = decor_kind_of(port, "actuator");
	gkind = decor_kind_of(port, "frame-geom");
	mkind = decor_kind_of(port, "frame-geom-moving");
	events_open(&a, port);
	events_open(&b, port);

	/* The Joint and Actuator flags without groups: simulate's 0, 1, 2. */
	snprintf(query, sizeof(query),
	    "/control/show?id=%u&flags=%u&frame=0&label=0", a.id,
	    joint | actuator);
	cr_assert_eq(control(port, query, body, sizeof(body)), 200, "%s", body);
	f = frame_when(
	    &a, has_n_of_kind, jkind | 1 << 8, "one joint by default");
	cr_assert_eq(frame_decor(f, akind).n, 0, "the motor of group 4 shown");
	free(f);
	/* Group 3 alone: the other joint; group 4: the motor. */
	show_groups(port, a.id, joint | actuator, 8, 16);
	f = frame_when(&a, has_n_of_kind, akind | 1 << 8, "the motor");
	cr_assert_eq(frame_decor(f, jkind).n, 1, "%.400s", f);
	free(f);
	/* No group: nothing; page b, which shows no joint, never any. */
	show_groups(port, a.id, joint | actuator, 0, 0);
	f = frame_when(&a, has_nothing, 0, "no group, no decoration");
	free(f);
	f = events_next(&b, "frame", 10);
	cr_assert(has_nothing(f, 0), "page b got a's decorations: %.600s", f);
	free(f);
	/* Every group: both joints. */
	show_groups(port, a.id, joint, 63, 63);
	f = frame_when(&a, has_n_of_kind, jkind | 2 << 8, "both joints");
	free(f);

	/*
	 * Static Body (as MuJoCo: off, no frame of a static body's geom):
	 * the floor's and the two capsules' axes, then the capsules' alone.
	 */
	snprintf(query, sizeof(query),
	    "/control/show?id=%u&flags=%u&frame=2&label=0", a.id, statics);
	cr_assert_eq(control(port, query, body, sizeof(body)), 200, "%s", body);
	f = frame_when(&a, has_n_of_kind, gkind | 9 << 8, "three geoms' axes");
	free(f);
	snprintf(query, sizeof(query),
	    "/control/show?id=%u&flags=0&frame=2&label=0", a.id);
	cr_assert_eq(control(port, query, body, sizeof(body)), 200, "%s", body);
	f = frame_when(
	    &a, has_n_of_kind, mkind | 6 << 8, "the moving geoms' axes alone");
	cr_assert_eq(frame_decor(f, gkind).n, 0, "%.400s", f);
	free(f);

	snprintf(query, sizeof(query),
	    "/control/show?id=%u&flags=0&frame=0&label=0&tendongroup=64", a.id);
	cr_assert_eq(control(port, query, body, sizeof(body)), 400, "%s", body);
	cr_assert(strstr(body, "groups") != NULL, "%s", body);
	events_close(&a);
	events_close(&b);
	serve_stop(pid, err);
	hx_server_stop(&s);
}

/* The numbers of a frame's array member name, into v (at most n); how many. */
static int
frame_numbers(const char *frame, const char *name, double *v, int n)
{
	char key[64], *end;
	const char *p;
	int i;

	snprintf(key, sizeof(key), "\"%s\":[", name);
	cr_assert_not_null(
	    p = strstr(frame, key), "no %s: %.300s", name, frame);
	p += strlen(key);
	for (i = 0; i < n && *p != ']'; i++) {
		v[i] = strtod(p, &end);
		cr_assert(end != p, "%s: %.100s", name, p);
		p = *end == ',' ? end + 1 : end;
	}
	return i;
}

/* r = v turned by the unit quaternion q (w x y z): v + 2 w t + 2 u x t. */
static void
turn(const double q[4], const double v[3], double r[3])
{
	double t[3];
	int k;

	/* t = u x v, u the quaternion's vector part */
	t[0] = q[2] * v[2] - q[3] * v[1];
	t[1] = q[3] * v[0] - q[1] * v[2];
	t[2] = q[1] * v[1] - q[2] * v[0];
	r[0] = q[2] * t[2] - q[3] * t[1];
	r[1] = q[3] * t[0] - q[1] * t[2];
	r[2] = q[1] * t[1] - q[2] * t[0];
	for (k = 0; k < 3; k++)
		r[k] = v[k] + 2 * (q[0] * t[k] + r[k]);
}

/* Is the skin.xml block, its free joint's qpos, below arg cm? */
static int
block_below(const char *f, int cm)
{
	double q[7];

	return frame_numbers(f, "qpos", q, 7) == 7 && q[2] * 100 < cm;
}

/*
 * Each skin vertex of a frame where MuJoCo puts it with its bone: the
 * block's pose (the frame's qpos) applied to the vertex as skin.xml
 * binds it (bindpos 0, the bone's own frame).
 */
static void
skin_follows_the_block(const char *f)
{
	static const double corner = 0.11;
	double q[7], v[3], r[3];
	float *skin;
	char *text;
	size_t n, i;
	int k;

	cr_assert_eq(frame_numbers(f, "qpos", q, 7), 7);
	cr_assert_not_null(text = frame_member(f, "skin"), "%.300s", f);
	skin = base64_floats(text, &n);
	cr_assert_eq(n, 24, "%zu floats", n);
	for (i = 0; i < 8; i++) {
		/* skin.xml's vertex i: the corners, bottom then top. */
		v[0] = (i == 0 || i == 3 || i == 4 || i == 7) ? -corner :
								corner;
		v[1] = (i % 4 < 2) ? -corner : corner;
		v[2] = i < 4 ? -corner : corner;
		turn(q + 3, v, r);
		for (k = 0; k < 3; k++)
			cr_assert_float_eq(skin[3 * i + k], q[k] + r[k], 1e-5,
			    "vertex %zu, axis %d: %g, the bone puts it at %g",
			    i, k, skin[3 * i + k], q[k] + r[k]);
	}
	free(skin);
	free(text);
}

/*
 * Skins (issue 38: simulate draws them): /scene.json describes each
 * (its vertices' and faces' places, its group and colour), /meshes.bin
 * ends with their faces, and every frame brings their vertices as
 * MuJoCo moves them with their bones: skin.xml's green box on a block
 * that falls and turns, where the block is, before and after it fell.
 */
Test(serve, skins_move_with_their_bones)
{
	static const char *const args[] = { "-m", "skin.xml", NULL };
	static const int faces[36] = { 0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1,
		5, 0, 5, 4, 1, 2, 6, 1, 6, 5, 2, 3, 7, 2, 7, 6, 3, 0, 4, 3, 4,
		7 };
	struct hx_server s;
	struct events e;
	struct http h;
	int tail[36];
	pid_t pid;
	int err, port;
	char *f;

	hx_server_start(&s, args);
	port = serve_start(&pid, &err, NULL, hx_server_addr(&s, 0), "serve",
	    "--http", "127.0.0.1:0", NULL);
	http(&h, port, "GET", "/scene.json", "", 0);
	http_expect(&h, 200, "application/json");
	cr_assert(
	    strstr((char *)h.body,
		"\"skins\":[{\"vert\":[0,8],\"face\":[0,12],"
		"\"texcoord\":-1,\"group\":1,\"rgba\":[0,0.9,0,1]") != NULL &&
		strstr((char *)h.body, "\"nskinface\":12") != NULL,
	    "the skin not described: %.2000s", h.body);
	http_free(&h);
	http(&h, port, "GET", "/meshes.bin", "", 0);
	http_expect(&h, 200, NULL);
	cr_assert_geq(h.len, sizeof(tail));
	memcpy(tail, h.body + h.len - sizeof(tail), sizeof(tail));
	cr_assert_arr_eq(tail, faces, sizeof(faces), "the skin's faces");
	http_free(&h);

	events_open(&e, port);
	f = events_next(&e, "frame", 10);
	skin_follows_the_block(f);
	free(f);
	f = frame_when(&e, block_below, 20, "the block on the floor");
	skin_follows_the_block(f);
	free(f);
	events_close(&e);
	serve_stop(pid, err);
	hx_server_stop(&s);
}

/* The buttons: POST with the page's header pauses and runs the server. */
Test(serve, controls)
{
	struct hx_server s;
	struct http h;
	hxd_status st;
	hxd_conn *c;
	pid_t pid;
	int err, port;

	hx_server_start(&s, view_args);
	c = hx_connect_ok(hx_server_addr(&s, 0), "watcher");
	port = serve_start(&pid, &err, NULL, hx_server_addr(&s, 1), "serve",
	    "--http", "127.0.0.1:0", NULL);

	/* Without the header (a form on another site): refused. */
	http(&h, port, "POST", "/control/pause", "", 0);
	http_expect(&h, 400, "application/json");
	cr_assert(strstr((char *)h.body, "X-Hxview") != NULL, "%s", h.body);
	http_free(&h);
	http(&h, port, "POST", "/control/pause", "X-Hxview: 0\r\n", 0);
	http_expect(&h, 400, NULL);
	http_free(&h);
	http(&h, port, "GET", "/control/pause", "X-Hxview: 1\r\n", 0);
	http_expect(&h, 405, NULL);
	http_free(&h);
	expect_running(c, "after refused controls");

	http(&h, port, "POST", "/control/pause", "X-Hxview: 1\r\n", 0);
	http_expect(&h, 200, "application/json");
	cr_assert(strstr((char *)h.body, "\"ok\":true") != NULL, "%s", h.body);
	http_free(&h);
	st = hx_status_ok(c);
	cr_assert(st.paused, "POST /control/pause: the server is not paused");
	http(&h, port, "GET", "/status.json", "", 0);
	http_expect(&h, 200, "application/json");
	cr_assert(strstr((char *)h.body, "\"paused\":true") != NULL,
	    "/status.json: %s", h.body);
	http_free(&h);

	http(&h, port, "POST", "/control/nosuch", "X-Hxview: 1\r\n", 0);
	http_expect(&h, 404, "application/json");
	http_free(&h);

	http(&h, port, "POST", "/control/run", "X-Hxview: 1\r\n", 0);
	http_expect(&h, 200, "application/json");
	http_free(&h);
	expect_running(c, "after POST /control/run");

	/* The speed slider: slow motion, as fast as it can, refusals. */
	http(&h, port, "POST", "/control/speed?factor=0.25", "X-Hxview: 1\r\n",
	    0);
	http_expect(&h, 200, "application/json");
	http_free(&h);
	st = hx_status_ok(c);
	cr_assert(st.speed == 0.25 && !st.speed_max, "speed %g, max %d",
	    st.speed, st.speed_max);
	http(&h, port, "POST", "/control/speed?max=1", "X-Hxview: 1\r\n", 0);
	http_expect(&h, 200, "application/json");
	http_free(&h);
	cr_assert(hx_status_ok(c).speed_max, "max speed not set");
	http(&h, port, "POST", "/control/speed?factor=0", "X-Hxview: 1\r\n", 0);
	http_expect(&h, 400, "application/json");
	cr_assert(strstr((char *)h.body, "1e-6 to 1e6") != NULL, "%s", h.body);
	http_free(&h);
	http(&h, port, "POST", "/control/speed?factor=1", "X-Hxview: 1\r\n", 0);
	http_expect(&h, 200, "application/json");
	http_free(&h);
	st = hx_status_ok(c);
	cr_assert(st.speed == 1 && !st.speed_max, "speed %g, max %d", st.speed,
	    st.speed_max);

	serve_stop(pid, err);
	hxd_close(c);
	hx_server_stop(&s);
}

/* A model loaded on the server: serve shows it and keeps answering. */
Test(serve, follows_a_new_model)
{
	struct hx_server s;
	struct image im;
	struct http h;
	hxd_conn *c;
	pid_t pid;
	int err, port, green = 0;
	double end;

	hx_server_start(&s, view_args);
	c = hx_connect_ok(hx_server_addr(&s, 0), "loader");
	port = serve_start(&pid, &err, NULL, hx_server_addr(&s, 0), "--camera",
	    "front", "serve", "--http", "127.0.0.1:0", NULL);
	http_png(&im, port);
	cr_assert(is_red(pixel(&im, W / 2, H / 2)), "no red box at first");
	image_free(&im);

	HX_OK(c, hxd_load_file(c, "view_green.xml", NULL));
	end = hx_wall_now() + 10;
	while (!green && hx_wall_now() < end) {
		hx_sleep_ms(100);
		http_png(&im, port);
		green = is_green(pixel(&im, W / 2, H / 2));
		image_free(&im);
	}
	cr_assert(green, "/frame.png never showed the green model");
	http(&h, port, "GET", "/status.json", "", 0);
	http_expect(&h, 200, "application/json");
	cr_assert(strstr((char *)h.body, "\"time\":") != NULL, "%s", h.body);
	http_free(&h);
	/* And again, back: view.xml. */
	HX_OK(c, hxd_load_file(c, "view.xml", NULL));
	end = hx_wall_now() + 10;
	green = 1;
	while (green && hx_wall_now() < end) {
		hx_sleep_ms(100);
		http_png(&im, port);
		green = !is_red(pixel(&im, W / 2, H / 2));
		image_free(&im);
	}
	cr_assert(!green, "/frame.png never showed view.xml again");
	serve_stop(pid, err);
	hxd_close(c);
	hx_server_stop(&s);
}

/*------------------------------------------------------------ upload */

/* POST /upload's body: "HXU1", the count, each name and data. */
static unsigned char *
upload_body(const char *const *names, const void *const *data,
    const size_t *lens, int n, size_t *len)
{
	unsigned char *b, *p;
	uint32_t v;
	int i;

	for (i = 0, *len = 8; i < n; i++)
		*len += 8 + strlen(names[i]) + lens[i];
	cr_assert_not_null(b = malloc(*len));
	memcpy(b, "HXU1", 4);
	v = (uint32_t)n;
	memcpy(b + 4, &v, 4); /* x86 and ARM: little-endian */
	for (i = 0, p = b + 8; i < n; i++) {
		v = (uint32_t)strlen(names[i]);
		memcpy(p, &v, 4);
		v = (uint32_t)lens[i];
		memcpy(p + 4, &v, 4);
		memcpy(p + 8, names[i], strlen(names[i]));
		p += 8 + strlen(names[i]);
		memcpy(p, data[i], lens[i]);
		p += lens[i];
	}
	return b;
}

/* A binary STL of a tetrahedron, faces outward: 4 vertices. */
static void
upload_stl(unsigned char stl[284])
{
	const float s = 0.1f,
		    t[4][3][3] = {
			    { { 0, 0, 0 }, { 0, s, 0 }, { s, 0, 0 } },
			    { { 0, 0, 0 }, { s, 0, 0 }, { 0, 0, s } },
			    { { 0, 0, 0 }, { 0, 0, s }, { 0, s, 0 } },
			    { { s, 0, 0 }, { 0, s, 0 }, { 0, 0, s } },
		    };
	uint32_t n = 4;
	int i;

	memset(stl, 0, 284);
	memcpy(stl + 80, &n, 4);
	for (i = 0; i < 4; i++)
		memcpy(stl + 84 + 50 * i + 12, t[i], sizeof(t[i]));
}

/* The model the uploads send: its mesh is meshes/part.stl. */
static const char upload_xml
    [] = "<mujoco model=\"web_upload\"><asset><mesh name=\"m\" "
	 "file=\"meshes/part.stl\"/></asset><worldbody><body><freejoint/>"
	 "<geom type=\"mesh\" mesh=\"m\"/></body></worldbody></mujoco>";

/* POST /upload of the model with one asset named name (NULL: none). */
static void
upload_post(
    struct http *h, int port, const char *extra, const char *name, size_t pad)
{
	static unsigned char stl[284];
	const char *names[3] = { "web/arm.xml", name, "pad.bin" };
	const void *data[3] = { upload_xml, stl, NULL };
	size_t lens[3] = { sizeof(upload_xml) - 1, sizeof(stl), pad }, len;
	unsigned char *body;
	void *zeros = calloc(1, pad + 1);

	cr_assert_not_null(zeros);
	upload_stl(stl);
	data[2] = zeros;
	body = upload_body(names, data, lens,
	    name == NULL ? 1 :
		pad      ? 3 :
			   2,
	    &len);
	http_send(h, port, "POST", "/upload", extra, body, len, 0);
	free(body);
	free(zeros);
}

/* The running model's name, by a client of its own. */
static const char *
model_name(hxd_conn *c)
{
	static char name[256];

	snprintf(name, sizeof(name), "%s", hx_status_ok(c).model.name);
	return name;
}

/*
 * POST /upload (issue 38): a model and the mesh it names, in one body,
 * loaded by the daemon through hxview's connection as any client's
 * inline model; refused without the page's header, with a bad name
 * (the daemon's words), without the mesh (MuJoCo's), under another's
 * lease, read-only, with uploads off, past --max-upload and past the
 * daemon's --max-frame (which would have cost hxview its connection).
 */
Test(serve, uploads_a_model_with_its_files)
{
	const char *args[] = { "-m", "view.xml", "--max-frame", "65536", NULL };
	struct hx_server s;
	struct http h;
	hxd_array *a;
	hxd_conn *c;
	pid_t pid;
	int err, port;

	hx_server_start(&s, args);
	c = hx_connect_ok(hx_server_addr(&s, 0), "watcher");
	port = serve_start(&pid, &err, NULL, hx_server_addr(&s, 1), "serve",
	    "--http", "127.0.0.1:0", NULL);

	upload_post(&h, port, "", "meshes/part.stl", 0);
	http_expect(&h, 400, "application/json");
	cr_assert(strstr((char *)h.body, "X-Hxview") != NULL, "%s", h.body);
	http_free(&h);
	cr_assert_str_neq(model_name(c), "web_upload");
	http(&h, port, "GET", "/upload", "X-Hxview: 1\r\n", 0);
	http_expect(&h, 405, NULL);
	http_free(&h);

	upload_post(&h, port, "X-Hxview: 1\r\n", "meshes/part.stl", 0);
	http_expect(&h, 200, "application/json");
	cr_assert(strstr((char *)h.body, "\"name\":\"web_upload\"") != NULL &&
		strstr((char *)h.body, "\"files\":1") != NULL,
	    "%s", h.body);
	http_free(&h);
	cr_assert_str_eq(model_name(c), "web_upload");
	HX_OK(c, hxd_get_array(c, "mesh_vertnum", &a));
	cr_assert_eq((int)a->values[0], 4, "not the mesh sent");
	free(a);
	HX_OK(c, hxd_load_file(c, "view.xml", NULL));

	/* The daemon's refusals, in its words. */
	upload_post(&h, port, "X-Hxview: 1\r\n", "../part.stl", 0);
	http_expect(&h, 400, "application/json");
	cr_assert(strstr((char *)h.body, "asset 1") != NULL &&
		strstr((char *)h.body, "..") != NULL,
	    "%s", h.body);
	http_free(&h);
	upload_post(&h, port, "X-Hxview: 1\r\n", NULL, 0);
	http_expect(&h, 409, "application/json");
	cr_assert(strstr((char *)h.body, "part.stl") != NULL, "%s", h.body);
	http_free(&h);
	/* hxview's own: not its format. */
	http_send(
	    &h, port, "POST", "/upload", "X-Hxview: 1\r\n", "junk!", 5, 0);
	http_expect(&h, 400, "application/json");
	cr_assert(strstr((char *)h.body, "HXU1") != NULL, "%s", h.body);
	http_free(&h);
	/* The other routes keep their 4 KiB. */
	{
		char big[5000];

		memset(big, 'a', sizeof(big));
		http_send(&h, port, "POST", "/control/pause", "X-Hxview: 1\r\n",
		    big, sizeof(big), 0);
		http_expect(&h, 413, "application/json");
		http_free(&h);
	}
	/* Past the daemon's frame: refused here, hxview still connected. */
	upload_post(&h, port, "X-Hxview: 1\r\n", "meshes/part.stl", 100000);
	http_expect(&h, 413, "application/json");
	cr_assert(strstr((char *)h.body, "--max-frame") != NULL, "%s", h.body);
	http_free(&h);
	cr_assert_str_eq(model_name(c), "view");

	/* Another client's lease: refused, saying whose. */
	HX_OK(c, hxd_lease(c, HXD_LEASE_TAKE, NULL));
	upload_post(&h, port, "X-Hxview: 1\r\n", "meshes/part.stl", 0);
	http_expect(&h, 403, "application/json");
	cr_assert(strstr((char *)h.body, "lease") != NULL &&
		strstr((char *)h.body, "watcher") != NULL,
	    "%s", h.body);
	http_free(&h);
	cr_assert_str_eq(model_name(c), "view");
	HX_OK(c, hxd_lease(c, HXD_LEASE_RELEASE, NULL));
	serve_stop(pid, err);

	port = serve_start(&pid, &err, NULL, hx_server_addr(&s, 0), "serve",
	    "--http", "127.0.0.1:0", "--read-only", NULL);
	upload_post(&h, port, "X-Hxview: 1\r\n", "meshes/part.stl", 0);
	http_expect(&h, 403, "application/json");
	cr_assert(strstr((char *)h.body, "read-only") != NULL, "%s", h.body);
	http_free(&h);
	serve_stop(pid, err);
	port = serve_start(&pid, &err, NULL, hx_server_addr(&s, 0), "serve",
	    "--http", "127.0.0.1:0", "--max-upload", "0", NULL);
	upload_post(&h, port, "X-Hxview: 1\r\n", "meshes/part.stl", 0);
	http_expect(&h, 403, "application/json");
	cr_assert(
	    strstr((char *)h.body, "--max-upload 0") != NULL, "%s", h.body);
	http_free(&h);
	serve_stop(pid, err);
	port = serve_start(&pid, &err, NULL, hx_server_addr(&s, 0), "serve",
	    "--http", "127.0.0.1:0", "--max-upload", "400", NULL);
	upload_post(&h, port, "X-Hxview: 1\r\n", "meshes/part.stl", 0);
	http_expect(&h, 413, NULL);
	http_free(&h);
	cr_assert_str_eq(model_name(c), "view");
	serve_stop(pid, err);
	hxd_close(c);
	hx_server_stop(&s);
}
