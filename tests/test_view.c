/*
 * Integration tests of hxview (clients/hxview*.c) and of the get_model
 * call it depends on: the real binary renders models/test/view.xml (a
 * red box at the centre of the camera "front", on a mocap body) from a
 * real haptixd, and the tests read back what it wrote: PNG files
 * (libpng, through view_harness.c), Y4M streams and the PPM pictures of
 * hxview frames, asked for on a pipe.  hxview serve is
 * tested in test_serve.c, its guards in test_serve_guard.c.  hxview needs
 * EGL: without it the suite exits 77, which automake counts as skipped,
 * with hxview's reason (view_harness.c's main()).
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <mujoco/mujoco.h>

#include "check.h"
#include "harness.h"
#include "haptixd.h"
#include "mjb_memory.h"
#include "view_harness.h"

TestSuite(view, .timeout = 60, .fini = cleanup);

/* A whole file, or NULL if it cannot be opened. */
static char *
slurp_file(const char *path, size_t *lenp)
{
	int fd = open(path, O_RDONLY);
	char *buf;

	if (fd == -1)
		return NULL;
	buf = hx_slurp_fd(fd, lenp);
	close(fd);
	return buf;
}

/*---------------------------------------------------------- pictures */

/* Read a PNG file of w x h; fails the test unless it is one. */
static void
png_load(struct image *im, const char *path, int w, int h)
{
	size_t len;
	char *data = slurp_file(path, &len);

	cr_assert_not_null(data, "%s: %s", path, strerror(errno));
	png_decode(im, data, len, path);
	free(data);
	cr_assert(im->w == w && im->h == h, "%s is %dx%d, expected %dx%d", path,
	    im->w, im->h, w, h);
}

/* The red pixels: how many, and where their centre is. */
static int
red_area(const struct image *im, double *cx, double *cy)
{
	double sx = 0, sy = 0;
	int x, y, n = 0;

	for (y = 0; y < im->h; y++)
		for (x = 0; x < im->w; x++)
			if (is_red(pixel(im, x, y))) {
				sx += x;
				sy += y;
				n++;
			}
	*cx = n > 0 ? sx / n : -1;
	*cy = n > 0 ? sy / n : -1;
	return n;
}

/* How many distinct colours the picture has. */
static int
distinct_colours(const struct image *im)
{
	unsigned char *seen = calloc(1 << 21, 1);
	const unsigned char *p;
	unsigned v;
	int i, n = 0;

	cr_assert_not_null(seen);
	for (i = 0; i < im->w * im->h; i++) {
		p = im->px + (size_t)i * 3;
		v = (unsigned)p[0] << 16 | (unsigned)p[1] << 8 | p[2];
		if (!(seen[v >> 3] & (1 << (v & 7)))) {
			seen[v >> 3] |= (unsigned char)(1 << (v & 7));
			n++;
		}
	}
	free(seen);
	return n;
}

/* The standard deviation of the pixels' brightness. */
static double
brightness_sd(const struct image *im)
{
	double s = 0, ss = 0, v;
	int i, n = im->w * im->h;

	for (i = 0; i < n; i++) {
		v = im->px[i * 3] + im->px[i * 3 + 1] + im->px[i * 3 + 2];
		s += v;
		ss += v * v;
	}
	return sqrt(ss / n - (s / n) * (s / n)) / 3;
}

/* The share of pixels in columns [x0, x1) that differ by more than 24. */
static double
changed_share(const struct image *a, const struct image *b, int x0, int x1)
{
	const unsigned char *p, *q;
	int x, y, c, n = 0;

	for (y = 0; y < a->h; y++)
		for (x = x0; x < x1; x++) {
			p = pixel(a, x, y);
			q = pixel(b, x, y);
			for (c = 0; c < 3; c++)
				if (abs(p[c] - q[c]) > 24) {
					n++;
					break;
				}
		}
	return (double)n / ((double)a->h * (x1 - x0));
}

/* Snapshot through the camera "front" into name; decode it. */
static void
snapshot_front(struct image *im, const char *addr, const char *name)
{
	struct hx_run r = { 0 };
	char path[256];

	snprintf(path, sizeof(path), "%s", scratch_path(name));
	view(&r, "--server", addr, "--size", SIZE, "--camera", "front",
	    "--no-info", "--no-sensors", "snapshot", "-o", path, NULL);
	expect_exit(&r, 0, NULL);
	hx_run_free(&r);
	png_load(im, path, W, H);
}

/* Move the mocap box to x (it starts at 0; y 0, z 0.5). */
static void
move_box(hxd_conn *c, double x)
{
	double pos[3] = { x, 0, 0.5 }, quat[4] = { 1, 0, 0, 0 };
	hxd_mocap m = { 1, 0, pos, quat };

	HX_OK(c, hxd_set_mocap(c, &m));
}

/*--------------------------------------------------------- snapshots */

/* The box is red at the centre of "front", the corners are not. */
Test(view, snapshot_shows_the_scene)
{
	struct hx_server s;
	struct hx_run r = { 0 };
	struct image im;
	double cx, cy;
	int n, colours;

	hx_server_start(&s, view_args);
	snapshot_front(&im, hx_server_addr(&s, 0), "front.png");
	colours = distinct_colours(&im);
	cr_assert_geq(colours, 8, "only %d colours: a blank picture", colours);
	cr_assert_gt(brightness_sd(&im), 10, "a flat picture (sd %g)",
	    brightness_sd(&im));
	cr_assert(is_red(pixel(&im, W / 2, H / 2)),
	    "the centre is %d,%d,%d, not the red box",
	    pixel(&im, W / 2, H / 2)[0], pixel(&im, W / 2, H / 2)[1],
	    pixel(&im, W / 2, H / 2)[2]);
	cr_assert(!is_red(pixel(&im, 0, 0)), "the top left corner is red");
	cr_assert(!is_red(pixel(&im, W - 1, H - 1)),
	    "the bottom right corner is red");
	/* A box 0.4 wide 1.8 in front of a 45 degree camera: ~30 pixels. */
	n = red_area(&im, &cx, &cy);
	cr_assert(n > 400 && n < 2500, "%d red pixels", n);
	cr_assert(fabs(cx - W / 2.0) < 4 && fabs(cy - H / 2.0) < 4,
	    "the box is centred at %g,%g", cx, cy);
	image_free(&im);

	/* Over TCP, the default camera looks at the centre of <statistic>. */
	view(&r, "--server", hx_server_addr(&s, 1), "--size", "96x64",
	    "--no-info", "--no-sensors", "snapshot", "-o",
	    scratch_path("free.png"), NULL);
	expect_exit(&r, 0, NULL);
	hx_run_free(&r);
	png_load(&im, scratch_path("free.png"), 96, 64);
	cr_assert(is_red(pixel(&im, 48, 32)), "the default camera: no box");
	image_free(&im);
	hx_server_stop(&s);
}

/* The server moves the box: its pixels move, the rest stays. */
Test(view, snapshot_follows_the_server)
{
	struct image a, b;
	struct hx_server s;
	double ax, ay, bx, by, share;
	int na, nb;
	hxd_conn *c;

	hx_server_start(&s, view_args);
	c = hx_connect_ok(hx_server_addr(&s, 0), "mover");
	snapshot_front(&a, hx_server_addr(&s, 0), "before.png");
	move_box(c, 0.6);
	snapshot_front(&b, hx_server_addr(&s, 0), "after.png");

	cr_assert(is_red(pixel(&a, W / 2, H / 2)), "no box before the move");
	cr_assert(!is_red(pixel(&b, W / 2, H / 2)),
	    "the box is still at the centre after the move");
	na = red_area(&a, &ax, &ay);
	nb = red_area(&b, &bx, &by);
	/* 0.6 to the right at 2 m: 0.54 of the half width, ~43 pixels. */
	cr_assert(nb > na * 0.7 && nb < na * 1.3,
	    "%d red pixels before, %d after", na, nb);
	cr_assert(bx > W / 2.0 + 30 && bx < W / 2.0 + 56,
	    "the box went to x %g, expected about %g", bx, W / 2.0 + 43);
	cr_assert(fabs(by - ay) < 3, "the box moved from y %g to %g", ay, by);
	cr_assert(is_red(pixel(&b, (int)bx, (int)by)), "no red where it went");
	/* Left of the box nothing moved; all in all a small part changed. */
	share = changed_share(&a, &b, 0, W / 2 - 25);
	cr_assert_lt(
	    share, 0.01, "%.1f%% of the left side changed", share * 100);
	share = changed_share(&a, &b, 0, W);
	cr_assert(share > 0.03 && share < 0.2, "%.1f%% of the picture changed",
	    share * 100);
	image_free(&a);
	image_free(&b);
	hxd_close(c);
	hx_server_stop(&s);
}

/* --track follows a body that the free camera does not look at. */
Test(view, track_follows_a_body)
{
	struct hx_server s;
	struct hx_run r = { 0 };
	struct image im;
	const char *addr;
	hxd_conn *c;

	hx_server_start(&s, view_args);
	addr = hx_server_addr(&s, 0);
	c = hx_connect_ok(addr, "mover");
	move_box(c, 1.5);
	view(&r, "--server", addr, "--size", SIZE, "--no-info", "--no-sensors",
	    "snapshot", "-o", scratch_path("free.png"), NULL);
	expect_exit(&r, 0, NULL);
	png_load(&im, scratch_path("free.png"), W, H);
	cr_assert(!is_red(pixel(&im, W / 2, H / 2)),
	    "the free camera sees the box at the centre without --track");
	image_free(&im);
	view(&r, "--server", addr, "--size", SIZE, "--no-info", "--no-sensors",
	    "--track", "box", "snapshot", "-o", scratch_path("track.png"),
	    NULL);
	expect_exit(&r, 0, NULL);
	png_load(&im, scratch_path("track.png"), W, H);
	cr_assert(is_red(pixel(&im, W / 2, H / 2)),
	    "--track box: the box is not at the centre");
	image_free(&im);

	view(&r, "--server", addr, "--track", "nobody", "snapshot", "-o",
	    scratch_path("x.png"), NULL);
	expect_exit(&r, 1, "\"nobody\"");
	view(&r, "--server", addr, "--camera", "nosuchcam", "snapshot", "-o",
	    scratch_path("x.png"), NULL);
	expect_exit(&r, 1, "\"nosuchcam\"");
	cr_assert(access(scratch_path("x.png"), F_OK) != 0,
	    "a snapshot was written for an unknown camera");
	hx_run_free(&r);
	hxd_close(c);
	hx_server_stop(&s);
}

/* --show and --hide take MuJoCo's flags, and nothing else. */
Test(view, render_flags)
{
	struct hx_server s;
	struct hx_run r = { 0 };
	struct image im;
	double cx, cy;
	int n;

	hx_server_start(&s, view_args);
	/* A wireframe box has its edges red, not its faces. */
	view(&r, "--server", hx_server_addr(&s, 0), "--size", SIZE, "--camera",
	    "front", "--no-info", "--no-sensors", "--show",
	    "contact,joint,wireframe", "--hide", "skybox,shadow",
	    "--geom-groups", "0,1,2", "snapshot", "-o",
	    scratch_path("flags.png"), NULL);
	expect_exit(&r, 0, NULL);
	png_load(&im, scratch_path("flags.png"), W, H);
	n = red_area(&im, &cx, &cy);
	cr_assert_lt(n, 400, "--show wireframe: %d red pixels, a solid box", n);
	image_free(&im);
	/* Hiding geom group 0 hides the box and the floor. */
	view(&r, "--server", hx_server_addr(&s, 0), "--size", SIZE, "--camera",
	    "front", "--no-info", "--no-sensors", "--geom-groups", "1,2",
	    "snapshot", "-o", scratch_path("nogeoms.png"), NULL);
	expect_exit(&r, 0, NULL);
	png_load(&im, scratch_path("nogeoms.png"), W, H);
	cr_assert(!is_red(pixel(&im, W / 2, H / 2)),
	    "--geom-groups 1,2 still shows the box of group 0");
	image_free(&im);

	view(&r, "--server", hx_server_addr(&s, 0), "--show", "contact,bogus",
	    "snapshot", "-o", scratch_path("x.png"), NULL);
	expect_exit(&r, 2, "bogus");
	view(&r, "--server", hx_server_addr(&s, 0), "--hide", "nothing",
	    "snapshot", "-o", scratch_path("x.png"), NULL);
	expect_exit(&r, 2, "nothing");
	hx_run_free(&r);
	hx_server_stop(&s);
}

/*
 * Usage errors exit 2 with a message, before hxview looks for a server:
 * the server named does not exist, so a line that parsed would exit 1.
 */
Test(view, usage_errors)
{
	static const struct {
		const char *args[8];
		const char *says;
	} cases[] = {
		{ { "--size", "10x10", "snapshot", "-o", "x.png" }, "--size" },
		{ { "--size", "640", "snapshot", "-o", "x.png" }, "--size" },
		{ { "--size", "64x48x", "snapshot", "-o", "x.png" }, "--size" },
		{ { "--size", "9000x100", "snapshot", "-o", "x.png" },
		    "--size" },
		{ { "--fps", "0", "snapshot", "-o", "x.png" }, "--fps" },
		{ { "--fps", "fast", "snapshot", "-o", "x.png" }, "--fps" },
		{ { "--fps", "1000", "snapshot", "-o", "x.png" }, "--fps" },
		{ { "--fps", "nan", "snapshot", "-o", "x.png" }, "--fps" },
		{ { "snapshot" }, "-o" },
		{ { "record", "--frames", "3" }, "-o" },
		{ { "shoot", "-o", "x.png" }, "unknown command 'shoot'" },
		{ { "-o", "x.png" }, "no command" },
		{ { "snapshot", "-o", "x.png", "extra" }, "extra" },
		{ { "snapshot", "-o", "x.png", "--frames", "3" },
		    "does not take --frames" },
		{ { "snapshot", "-o", "x.png", "--http", "127.0.0.1:0" },
		    "does not take --http" },
		{ { "serve", "-o", "x.png" }, "does not take -o" },
		{ { "record", "-o", "x.y4m", "--read-only" },
		    "does not take --http" },
		{ { "egl", "--duration", "1" }, "does not take --duration" },
		{ { "frames", "--frames", "3" }, "does not take --frames" },
		{ { "frames", "-o", "x.ppm" }, "does not take -o" },
		{ { "bench", "--latency", "0" }, "--latency" },
		{ { "record", "-o", "x.y4m", "--frames", "0" }, "--frames" },
		{ { "record", "-o", "x.y4m", "--duration", "-1" },
		    "--duration" },
		{ { "serve", "--quality", "101" }, "--quality" },
		{ { "--camera", "a", "--track", "b", "snapshot", "-o", "x" },
		    "one of --camera and --track" },
		{ { "--egl", "x11", "egl" }, "--egl" },
		{ { "--lookat", "1,2", "snapshot", "-o", "x.png" },
		    "--lookat" },
		{ { "--distance", "0", "snapshot", "-o", "x.png" },
		    "--distance" },
		{ { "--geom-groups", "0,7", "snapshot", "-o", "x.png" },
		    "--geom-groups" },
		{ { "--no-such-option", "snapshot", "-o", "x.png" },
		    "no-such-option" },
	};
	const char *server = "unix:/nonexistent/hx.sock";
	struct hx_run r = { 0 };
	size_t i;
	int j;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *argv[MAX_ARGS];
		int fo = temp_file(), fe = temp_file(), n = 0;
		pid_t pid;

		argv[n++] = hx_hxview_path();
		argv[n++] = "--server";
		argv[n++] = server;
		for (j = 0; j < 8 && cases[i].args[j] != NULL; j++)
			argv[n++] = cases[i].args[j];
		argv[n] = NULL;
		pid = spawn_argv(argv, fo, fe);
		r.status = wait_exit(pid, RUN_SECONDS);
		hx_run_free(&r);
		r.out = hx_slurp_fd(fo, NULL);
		r.err = hx_slurp_fd(fe, NULL);
		close(fo);
		close(fe);
		cr_assert_eq(r.status, 2, "case %zu (%s %s ...) exited %d: %s",
		    i, cases[i].args[0], cases[i].args[1], r.status, r.err);
		cr_assert(strstr(r.err, cases[i].says) != NULL,
		    "case %zu (%s %s ...): stderr does not mention \"%s\": %s",
		    i, cases[i].args[0], cases[i].args[1], cases[i].says,
		    r.err);
		cr_assert(strstr(r.err, "no server") == NULL,
		    "case %zu looked for a server", i);
	}
	/* --help is not an error, and names the commands. */
	view(&r, "--help", NULL);
	expect_exit(&r, 0, NULL);
	cr_assert(strstr(r.out, "snapshot") != NULL &&
		strstr(r.out, "serve") != NULL &&
		strstr(r.out, "hxview [options] frames\n") != NULL,
	    "--help: %s", r.out);
	hx_run_free(&r);
}

/* No server: exit 1 and say where hxview looked. */
Test(view, no_server)
{
	struct hx_run r = { 0 };
	int fd, port;
	struct sockaddr_in sa;
	socklen_t sl = sizeof(sa);
	char addr[64];

	view(&r, "--server", "unix:/nonexistent/hx.sock", "snapshot", "-o",
	    scratch_path("x.png"), NULL);
	expect_exit(&r, 1, "no server at unix:/nonexistent/hx.sock");
	/* A TCP port nobody listens on: bind one, and close it. */
	fd = socket(AF_INET, SOCK_STREAM, 0);
	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	cr_assert_eq(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	cr_assert_eq(getsockname(fd, (struct sockaddr *)&sa, &sl), 0);
	port = ntohs(sa.sin_port);
	close(fd);
	snprintf(addr, sizeof(addr), "127.0.0.1:%d", port);
	view(&r, "--server", addr, "record", "-o", scratch_path("x.y4m"),
	    "--frames", "1", NULL);
	expect_exit(&r, 1, "no server at");
	cr_assert(
	    strstr(r.err, addr) != NULL, "the address is not named: %s", r.err);
	hx_run_free(&r);
}

/* egl names the renderer; bench times frames and steps the server. */
Test(view, egl_and_bench)
{
	struct hx_server s;
	struct hx_run r = { 0 };
	hxd_status before, after;
	hxd_conn *c;

	view(&r, "egl", NULL);
	expect_exit(&r, 0, NULL);
	cr_assert(strstr(r.out, "EGL") != NULL && strchr(r.out, '\n') != NULL,
	    "egl: %s", r.out);

	hx_server_start(&s, view_args);
	c = hx_connect_ok(hx_server_addr(&s, 0), "watcher");
	before = hx_status_ok(c);
	view(&r, "--server", hx_server_addr(&s, 0), "--size", "64x48", "bench",
	    "--frames", "5", "--latency", "5", NULL);
	expect_exit(&r, 0, NULL);
	cr_assert(strstr(r.out, "frames/s") != NULL &&
		strstr(r.out, "latency:") != NULL &&
		strstr(r.out, "(5 steps") != NULL,
	    "bench: %s", r.out);
	/* It paused to step, and left the server running as it found it. */
	after = hx_status_ok(c);
	cr_assert(!before.paused && !after.paused, "bench left it paused");
	cr_assert_geq(after.steps, before.steps + 5, "steps %llu then %llu",
	    before.steps, after.steps);
	hx_run_free(&r);
	hxd_close(c);
	hx_server_stop(&s);
}

/*------------------------------------------------------------ record */

/* Check a Y4M stream of frames w x h at the rate F rate; return them. */
static int
y4m_check(const char *path, int w, int h, const char *rate)
{
	size_t len, frame = (size_t)w * (size_t)h * 3 / 2, off;
	char header[128], *data = slurp_file(path, &len);
	int n = 0;

	cr_assert_not_null(data, "%s: %s", path, strerror(errno));
	snprintf(header, sizeof(header),
	    "YUV4MPEG2 W%d H%d F%s Ip A1:1 C420jpeg\n", w, h, rate);
	cr_assert(
	    len >= strlen(header) && memcmp(data, header, strlen(header)) == 0,
	    "%s: the header is not %s", path, header);
	for (off = strlen(header); off < len; off += 6 + frame) {
		cr_assert(
		    len - off >= 6 && memcmp(data + off, "FRAME\n", 6) == 0,
		    "%s: no FRAME at byte %zu", path, off);
		cr_assert_geq(len - off - 6, frame,
		    "%s: frame %d is short: %zu bytes", path, n + 1,
		    len - off - 6);
		n++;
	}
	cr_assert_eq(off, len, "%s: bytes after the last frame", path);
	free(data);
	return n;
}

/* The chroma (Cr) of the 2x2 block at x, y of Y4M frame i (0-based). */
static int
y4m_cr(const char *path, int w, int h, int i, int x, int y)
{
	size_t len, frame = (size_t)w * (size_t)h * 3 / 2, hdr;
	char *data = slurp_file(path, &len);
	const unsigned char *f;
	int cr;

	cr_assert_not_null(data);
	hdr = (size_t)(strchr(data, '\n') - data) + 1;
	f = (const unsigned char *)data + hdr + (size_t)i * (6 + frame) + 6;
	/* Y, then Cb, then Cr, each chroma plane w/2 x h/2. */
	cr = f[(size_t)w * h + (size_t)(w / 2) * (h / 2) +
	    (size_t)(y / 2) * (w / 2) + (size_t)(x / 2)];
	free(data);
	return cr;
}

/* --frames N to Y4M: the header and exactly N frames of the picture. */
Test(view, record_y4m)
{
	struct hx_server s;
	struct hx_run r = { 0 };
	const char *addr;
	char path[256];
	int n, cr;

	hx_server_start(&s, view_args);
	addr = hx_server_addr(&s, 0);
	snprintf(path, sizeof(path), "%s", scratch_path("out.y4m"));
	view(&r, "--server", addr, "--size", SIZE, "--fps", "25", "--camera",
	    "front", "--no-info", "--no-sensors", "record", "-o", path,
	    "--frames", "5", NULL);
	expect_exit(&r, 0, "recorded 5 frames");
	n = y4m_check(path, W, H, "25:1");
	cr_assert_eq(n, 5, "%d frames, expected 5", n);
	/* The box is red: strong Cr at the centre, none in the corner. */
	cr = y4m_cr(path, W, H, 4, W / 2, H / 2);
	cr_assert_gt(cr, 180, "Cr %d at the centre: not the red box", cr);
	cr = y4m_cr(path, W, H, 4, 0, 0);
	cr_assert(cr > 118 && cr < 138, "Cr %d in the corner", cr);

	/* Other sizes and rates: a rate in thousandths, --duration. */
	view(&r, "--server", addr, "--size", "96x64", "--fps", "12.5", "record",
	    "-o", path, "--duration", "0.5", NULL);
	expect_exit(&r, 0, "recorded");
	n = y4m_check(path, 96, 64, "12500:1000");
	cr_assert(n >= 2 && n <= 8, "%d frames in 0.5 s at 12.5/s", n);

	/* 4:2:0 needs even sizes. */
	view(&r, "--server", addr, "--size", "161x120", "record", "-o",
	    scratch_path("odd.y4m"), "--frames", "1", NULL);
	expect_exit(&r, 2, "even");
	view(&r, "--server", addr, "--size", "160x121", "record", "-o",
	    scratch_path("odd.y4m"), "--frames", "1", NULL);
	expect_exit(&r, 2, "160x121");
	hx_run_free(&r);
	hx_server_stop(&s);
}

/* A directory gets frame-000001.png, ..., and nothing more. */
Test(view, record_png_directory)
{
	struct hx_server s;
	struct hx_run r = { 0 };
	struct image im;
	char dir[256], path[300];
	int i;

	hx_server_start(&s, view_args);
	snprintf(dir, sizeof(dir), "%s/", scratch_path("frames"));
	view(&r, "--server", hx_server_addr(&s, 0), "--size", "64x48",
	    "--camera", "front", "--no-info", "--no-sensors", "record", "-o",
	    dir, "--frames", "3", NULL);
	expect_exit(&r, 0, "recorded 3 frames");
	for (i = 1; i <= 3; i++) {
		snprintf(path, sizeof(path), "%sframe-%06d.png", dir, i);
		png_load(&im, path, 64, 48);
		cr_assert(is_red(pixel(&im, 32, 24)), "%s: no box", path);
		image_free(&im);
	}
	snprintf(path, sizeof(path), "%sframe-%06d.png", dir, 4);
	cr_assert(access(path, F_OK) != 0, "%s was written", path);
	hx_run_free(&r);
	hx_server_stop(&s);
}

/* Wait up to seconds for pid to write a file, while it runs. */
static void
wait_file(pid_t pid, int err, const char *path, double seconds)
{
	double end = hx_wall_now() + seconds;
	int status;

	while (access(path, F_OK) != 0) {
		if (waitpid(pid, &status, WNOHANG) == pid) {
			child_forget(pid);
			cr_assert_fail(
			    "hxview exited (status %d) before %s: %s", status,
			    path, hx_slurp_fd(err, NULL));
		}
		cr_assert_lt(hx_wall_now(), end, "%s did not appear", path);
		hx_sleep_ms(20);
	}
}

/*
 * The daemon's view camera (hxd_set_camera, the World API's
 * hxs_set_camera_transform) is the picture's free camera: set before
 * hxview comes, or while it records; a model camera named stays.
 */
Test(view, snapshot_follows_the_daemons_camera)
{
	/* From 2 m before the box at x 1.5, looking along +y (x turned 90). */
	double pos[3] = { 1.5, -2, 0.5 },
	       quat[4] = { M_SQRT1_2, 0, 0, M_SQRT1_2 };
	double away[3] = { -1.5, -2, 0.5 };
	struct hx_server s;
	struct hx_run r = { 0 };
	struct image im;
	const char *addr;
	char dir[256], path[300];
	hxd_conn *c;
	pid_t pid;
	int n;

	hx_server_start(&s, view_args);
	addr = hx_server_addr(&s, 0);
	c = hx_connect_ok(addr, "world");
	move_box(c, 1.5);
	HX_OK(c, hxd_set_camera(c, pos, quat));
	view(&r, "--server", addr, "--size", SIZE, "--no-info", "--no-sensors",
	    "snapshot", "-o", scratch_path("shared.png"), NULL);
	expect_exit(&r, 0, NULL);
	png_load(&im, scratch_path("shared.png"), W, H);
	cr_assert(is_red(pixel(&im, W / 2, H / 2)),
	    "the daemon's camera looks at the box: the centre is %d,%d,%d",
	    pixel(&im, W / 2, H / 2)[0], pixel(&im, W / 2, H / 2)[1],
	    pixel(&im, W / 2, H / 2)[2]);
	n = red_area(&im, &(double){ 0 }, &(double){ 0 });
	cr_assert(n > 400 && n < 2500, "%d red pixels at 2 m", n);
	image_free(&im);
	/* A model camera named is not moved by it. */
	snapshot_front(&im, addr, "front.png");
	cr_assert(!is_red(pixel(&im, W / 2, H / 2)),
	    "--camera front follows the daemon's camera");
	image_free(&im);

	/* Set while hxview records: the frames after it look elsewhere. */
	snprintf(dir, sizeof(dir), "%s/", scratch_path("frames"));
	{
		const char *argv[] = { hx_hxview_path(), "--server", addr,
			"--size", SIZE, "--no-info", "--no-sensors", "--fps",
			"10", "record", "-o", dir, "--frames", "40", NULL };
		int fe = temp_file();

		pid = spawn_argv(argv, -1, fe);
		snprintf(path, sizeof(path), "%sframe-%06d.png", dir, 5);
		wait_file(pid, fe, path, 30);
		HX_OK(c, hxd_set_camera(c, away, quat));
		cr_assert_eq(wait_exit(pid, 60), 0, "hxview record failed: %s",
		    hx_slurp_fd(fe, NULL));
		close(fe);
	}
	snprintf(path, sizeof(path), "%sframe-%06d.png", dir, 1);
	png_load(&im, path, W, H);
	cr_assert(is_red(pixel(&im, W / 2, H / 2)), "the first frame: no box");
	image_free(&im);
	snprintf(path, sizeof(path), "%sframe-%06d.png", dir, 40);
	png_load(&im, path, W, H);
	n = red_area(&im, &(double){ 0 }, &(double){ 0 });
	cr_assert_eq(n, 0,
	    "the last frame shows the box (%d red pixels) after the camera "
	    "moved away",
	    n);
	image_free(&im);
	hx_run_free(&r);
	hxd_close(c);
	hx_server_stop(&s);
}

/* Load view_green.xml: the same scene with a green box. */
static void
load_green(hxd_conn *c)
{
	HX_OK(c, hxd_load_file(c, "view_green.xml", NULL));
}

/* Edit the running model: the box's material turns green. */
static void
edit_green(hxd_conn *c)
{
	static const char *const rgba[] = { "rgba", "0 1 0 1" };
	const hxd_edit_op op = { HXD_EDIT_SET, "material", "red", NULL, NULL,
		rgba, 1 };

	HX_OK(c, hxd_edit_model(c, &op, 1, NULL, NULL));
}

/*
 * hxview records view.xml's red box; change makes it green on the
 * server mid-recording, and the last frames show it.
 */
static void
record_across(void (*change)(hxd_conn *))
{
	struct hx_server s;
	struct image im;
	char dir[256], path[300];
	const char *argv[MAX_ARGS] = { hx_hxview_path(), "--server", NULL,
		"--size", "64x48", "--fps", "20", "--camera", "front",
		"--no-info", "--no-sensors", "record", "-o", NULL, "--frames",
		"30", NULL };
	int fe = temp_file(), rc;
	hxd_conn *c;
	pid_t pid;
	char *err;

	hx_server_start(&s, view_args);
	c = hx_connect_ok(hx_server_addr(&s, 0), "loader");
	snprintf(dir, sizeof(dir), "%s/", scratch_path("frames"));
	argv[2] = hx_server_addr(&s, 0);
	argv[13] = dir;
	pid = spawn_argv(argv, -1, fe);
	snprintf(path, sizeof(path), "%sframe-000002.png", dir);
	wait_file(pid, fe, path, 20);
	change(c);
	rc = wait_exit(pid, RUN_SECONDS);
	err = hx_slurp_fd(fe, NULL);
	close(fe);
	cr_assert_eq(rc, 0, "record exited %d: %s", rc, err);
	free(err);

	snprintf(path, sizeof(path), "%sframe-000001.png", dir);
	png_load(&im, path, 64, 48);
	cr_assert(is_red(pixel(&im, 32, 24)), "frame 1 does not show view.xml");
	image_free(&im);
	snprintf(path, sizeof(path), "%sframe-000030.png", dir);
	png_load(&im, path, 64, 48);
	cr_assert(is_green(pixel(&im, 32, 24)),
	    "the last frame does not show the green box: %d,%d,%d",
	    pixel(&im, 32, 24)[0], pixel(&im, 32, 24)[1],
	    pixel(&im, 32, 24)[2]);
	image_free(&im);
	hxd_close(c);
	hx_server_stop(&s);
}

/* A model loaded on the server mid-recording: the frames show it. */
Test(view, record_follows_a_new_model)
{
	record_across(load_green);
}

/* An edit of the running model mid-recording (issue 18): likewise. */
Test(view, record_follows_an_edit)
{
	record_across(edit_green);
}

/*------------------------------------------------------------ frames */

/* hxview frames on pipes: a line to in asks for a picture from out. */
struct frames {
	pid_t pid;
	int in, out; /* our ends */
	int err;     /* its stderr, a file */
};

/* Start hxview frames at SIZE through the camera "front", then args. */
static void
frames_start(struct frames *f, const char *addr, ...)
{
	const char *argv[MAX_ARGS] = { hx_hxview_path(), "--server", addr,
		"--size", SIZE, "--camera", "front" };
	int in[2], out[2], n = 7;
	const char *a;
	va_list ap;

	va_start(ap, addr);
	while ((a = va_arg(ap, const char *)) != NULL)
		argv[n++] = a;
	va_end(ap);
	argv[n++] = "frames";
	argv[n] = NULL;
	/* Close-on-exec: hxview must hold no end but its own. */
	cr_assert_eq(pipe2(in, O_CLOEXEC), 0);
	cr_assert_eq(pipe2(out, O_CLOEXEC), 0);
	f->err = temp_file();
	f->pid = spawn_io(argv, in[0], out[1], f->err);
	close(in[0]);
	close(out[1]);
	f->in = in[1];
	f->out = out[0];
}

/*
 * Read n bytes from f's output within 30 s; the count read, short only
 * when hxview closed it.
 */
static size_t
frames_read(struct frames *f, unsigned char *buf, size_t n)
{
	double end = hx_wall_now() + 30;
	struct pollfd pfd = { f->out, POLLIN, 0 };
	size_t got = 0;
	ssize_t r;

	while (got < n) {
		cr_assert_lt(hx_wall_now(), end,
		    "no picture within 30 s (%zu of %zu bytes): %s", got, n,
		    hx_slurp_fd(f->err, NULL));
		if (poll(&pfd, 1, 100) != 1)
			continue;
		if ((r = read(f->out, buf + got, n - got)) <= 0)
			break;
		got += (size_t)r;
	}
	return got;
}

/* Ask for a picture with line (its newline added); decode it into im. */
static void
frames_ask(struct frames *f, struct image *im, const char *line)
{
	char want[64], text[256];
	size_t hlen, got;
	unsigned char *buf;

	snprintf(text, sizeof(text), "%s\n", line);
	cr_assert_eq(write(f->in, text, strlen(text)), (ssize_t)strlen(text),
	    "hxview frames took no line: %s", strerror(errno));
	hlen = (size_t)snprintf(want, sizeof(want), "P6\n%d %d\n255\n", W, H);
	buf = malloc(hlen + (size_t)W * H * 3);
	cr_assert_not_null(buf);
	got = frames_read(f, buf, hlen);
	cr_assert(got == hlen && memcmp(buf, want, hlen) == 0,
	    "not the PPM header \"P6\\n%d %d\\n255\\n\": \"%.*s\": %s", W, H,
	    (int)got, buf, hx_slurp_fd(f->err, NULL));
	got = frames_read(f, buf, (size_t)W * H * 3);
	cr_assert_eq(got, (size_t)W * H * 3, "%zu bytes of pixels, not %d: %s",
	    got, W * H * 3, hx_slurp_fd(f->err, NULL));
	im->w = W;
	im->h = H;
	im->px = buf;
}

/* Close f's input: hxview must exit 0, having written nothing more. */
static void
frames_end(struct frames *f)
{
	unsigned char extra;
	char *err;
	int rc;

	close(f->in);
	rc = wait_exit(f->pid, RUN_SECONDS);
	err = hx_slurp_fd(f->err, NULL);
	cr_assert_eq(
	    rc, 0, "frames exited %d at the end of its input: %s", rc, err);
	cr_assert_eq(read(f->out, &extra, 1), 0, "bytes after the pictures");
	cr_assert_str_empty(err, "frames said: %s", err);
	free(err);
	close(f->out);
	close(f->err);
}

/* Where the red box is: its centre's x, or -1 when none shows. */
static double
red_x(const struct image *im)
{
	double cx, cy;

	return red_area(im, &cx, &cy) > 200 ? cx : -1;
}

/*
 * One PPM picture a line, rows top down, the same as a snapshot's but
 * for the overlays (none even without --no-info and --no-sensors); each
 * shows the state the moment it was asked for, however soon after a
 * change; the end of the input ends hxview with status 0.
 */
Test(view, frames_on_request)
{
	static const double moves[] = { 0.6, -0.6, 0.6, 0, -0.6 };
	struct hx_server s;
	struct frames f;
	struct image a, b;
	const unsigned char *top, *bottom;
	double share, x;
	hxd_conn *c;
	size_t i;

	hx_server_start(&s, view_args);
	c = hx_connect_ok(hx_server_addr(&s, 0), "mover");
	frames_start(&f, hx_server_addr(&s, 0), NULL);
	frames_ask(&f, &a, "");
	snapshot_front(&b, hx_server_addr(&s, 0), "front.png");
	cr_assert(is_red(pixel(&a, W / 2, H / 2)), "no box at the centre");
	/* The floor is below the box, the black sky above it. */
	top = pixel(&a, W / 2, 2);
	bottom = pixel(&a, W / 2, H - 3);
	cr_assert(
	    bottom[0] + bottom[1] + bottom[2] > top[0] + top[1] + top[2] + 60,
	    "upside down? the top is %d,%d,%d, the bottom %d,%d,%d", top[0],
	    top[1], top[2], bottom[0], bottom[1], bottom[2]);
	share = changed_share(&a, &b, 0, W);
	cr_assert_lt(share, 0.002,
	    "%.2f%% of the picture differs from the snapshot's", share * 100);
	image_free(&a);
	image_free(&b);

	/* No wait between a move and its picture: lock-step. */
	for (i = 0; i < sizeof(moves) / sizeof(moves[0]); i++) {
		move_box(c, moves[i]);
		frames_ask(&f, &a, i % 2 ? "step" : "");
		x = red_x(&a);
		/* 0.6 to a side at 2 m: ~43 pixels off the centre. */
		cr_assert(fabs(x - (W / 2.0 + moves[i] * 72)) < 12,
		    "picture %zu: the box at x %g, not %g (moved to %g)", i, x,
		    W / 2.0 + moves[i] * 72, moves[i]);
		image_free(&a);
	}
	frames_end(&f);
	hxd_close(c);
	hx_server_stop(&s);
}

/* The green pixels: how many, and where their centre is. */
static int
green_area(const struct image *im, double *cx, double *cy)
{
	double sx = 0, sy = 0;
	int x, y, n = 0;

	for (y = 0; y < im->h; y++)
		for (x = 0; x < im->w; x++)
			if (is_green(pixel(im, x, y))) {
				sx += x;
				sy += y;
				n++;
			}
	*cx = n > 0 ? sx / n : -1;
	*cy = n > 0 ? sy / n : -1;
	return n;
}

/* Add a green ball on a free joint "ball" at x -0.6, z 1 (an edit). */
static void
add_ball(hxd_conn *c)
{
	static const char *const body[] = { "pos", "-0.6 0 1" };
	static const char *const geom[] = { "type", "sphere", "size", "0.1",
		"rgba", "0 1 0 1" };
	const hxd_edit_op ops[] = {
		{ HXD_EDIT_ADD, "body", "ball", "worldbody", "", body, 1 },
		{ HXD_EDIT_ADD, "freejoint", "ball", "body", "ball", NULL, 0 },
		{ HXD_EDIT_ADD, "geom", "ball", "body", "ball", geom, 3 },
	};

	HX_OK(c, hxd_edit_model(c, ops, 3, NULL, NULL));
}

/*
 * The environment's loop on a paused server: each picture shows what
 * the call before it did, at once: a body added by an edit, its qpos
 * set, steps taken, a colour written through the API (no event comes
 * of it), another model loaded.
 */
Test(view, frames_follow_each_change)
{
	static const char *const paused[] = { "-m", "view.xml", "--paused",
		NULL };
	const double right[7] = { 0.6, 0, 1, 1, 0, 0, 0 };
	const double green[4] = { 0, 1, 0, 1 };
	struct hx_server s;
	struct frames f;
	struct image im;
	double x, y, x0, y0;
	hxd_conn *c;
	int n, red;

	hx_server_start(&s, paused);
	c = hx_connect_ok(hx_server_addr(&s, 0), "env");
	frames_start(&f, hx_server_addr(&s, 0), NULL);
	frames_ask(&f, &im, "");
	cr_assert(is_red(pixel(&im, W / 2, H / 2)), "no box at the centre");
	cr_assert_eq(green_area(&im, &x, &y), 0, "green before the ball");
	image_free(&im);

	/* A new body, 0.6 left of the box and 0.5 above: ~43 and ~36 pixels. */
	add_ball(c);
	frames_ask(&f, &im, "");
	n = green_area(&im, &x0, &y0);
	cr_assert(n > 50, "the ball added: %d green pixels", n);
	cr_assert(fabs(x0 - 37) < 6 && fabs(y0 - 24) < 6,
	    "the ball at %g,%g, not about 37,24", x0, y0);
	image_free(&im);

	/* Its qpos set: to the right. */
	HX_OK(c, hxd_set_joint(c, "ball", right, 7, NULL, 0));
	frames_ask(&f, &im, "");
	n = green_area(&im, &x, &y);
	cr_assert(n > 50 && fabs(x - (W - x0)) < 8 && fabs(y - y0) < 4,
	    "the ball moved to x 0.6: %d green pixels at %g,%g", n, x, y);
	x0 = x;
	image_free(&im);

	/* 0.3 s of steps: it falls ~0.44 m, ~32 pixels. */
	HX_OK(c, hxd_step(c, 150, NULL));
	frames_ask(&f, &im, "");
	n = green_area(&im, &x, &y);
	cr_assert(n > 50 && fabs(x - x0) < 4 && y > y0 + 20 && y < y0 + 45,
	    "after 150 steps: %d green pixels at %g,%g, from %g,%g", n, x, y,
	    x0, y0);
	image_free(&im);

	/* The box's material turned green through the API. */
	HX_OK(c, hxd_set_rgba(c, HXD_OBJ_MATERIAL, 0, green));
	frames_ask(&f, &im, "");
	cr_assert(is_green(pixel(&im, W / 2, H / 2)),
	    "the material set green: the centre is %d,%d,%d",
	    pixel(&im, W / 2, H / 2)[0], pixel(&im, W / 2, H / 2)[1],
	    pixel(&im, W / 2, H / 2)[2]);
	image_free(&im);

	/* Another model: view.xml again, red and without the ball. */
	HX_OK(c, hxd_load_file(c, "view.xml", NULL));
	frames_ask(&f, &im, "");
	red = red_area(&im, &x, &y);
	n = green_area(&im, &x, &y);
	cr_assert(red > 400 && n == 0,
	    "view.xml loaded again: %d red and %d green pixels", red, n);
	image_free(&im);
	frames_end(&f);
	hxd_close(c);
	hx_server_stop(&s);
}

/*
 * With the perturbation forces shown, the applied forces are fetched
 * too: a force set on the ball draws its arrow in the next picture.
 */
Test(view, frames_draw_applied_forces)
{
	static const char *const paused[] = { "-m", "view.xml", "--paused",
		NULL };
	struct hx_server s;
	struct frames f;
	struct image a, b;
	hxd_applied *ap;
	double share;
	hxd_conn *c;

	hx_server_start(&s, paused);
	c = hx_connect_ok(hx_server_addr(&s, 0), "env");
	add_ball(c);
	frames_start(&f, hx_server_addr(&s, 0), "--show", "pertforce", NULL);
	frames_ask(&f, &a, "");
	/*
	 * Up on the ball (body 2), paused, so that it stays where it is:
	 * a thin arrow from the ball out of the top of the picture.
	 */
	HX_OK(c, hxd_get_applied(c, &ap));
	cr_assert_eq(ap->nbody, 3);
	ap->xfrc_applied[6 * 2 + 2] = 15000;
	HX_OK(c, hxd_set_applied(c, ap));
	free(ap);
	frames_ask(&f, &b, "");
	/* The arrow rises from the ball, left of the box: ~25 pixels. */
	share = changed_share(&a, &b, 0, W / 2 - 25);
	cr_assert_gt(share, 0.002,
	    "the force set: %.2f%% of the left side changed", share * 100);
	share = changed_share(&a, &b, W / 2 + 25, W);
	cr_assert_lt(share, 0.001,
	    "the force set: %.2f%% of the right side changed", share * 100);
	image_free(&a);
	image_free(&b);
	frames_end(&f);
	hxd_close(c);
	hx_server_stop(&s);
}

/*
 * The reader gone: hxview exits 0 and says nothing.  The server gone:
 * it exits 1 and says why.
 */
Test(view, frames_end_when_either_side_goes)
{
	struct hx_server s;
	struct frames f;
	struct image im;
	char *err;
	int rc;

	signal(SIGPIPE, SIG_IGN);
	hx_server_start(&s, view_args);
	frames_start(&f, hx_server_addr(&s, 0), NULL);
	frames_ask(&f, &im, "");
	image_free(&im);
	close(f.out);
	cr_assert_eq(write(f.in, "\n", 1), 1);
	rc = wait_exit(f.pid, RUN_SECONDS);
	err = hx_slurp_fd(f.err, NULL);
	cr_assert_eq(rc, 0, "the reader gone: exit %d: %s", rc, err);
	cr_assert_str_empty(err, "the reader gone: it said %s", err);
	free(err);
	close(f.in);
	close(f.err);

	frames_start(&f, hx_server_addr(&s, 0), NULL);
	frames_ask(&f, &im, "");
	image_free(&im);
	hx_server_stop(&s);
	/* A line, then the end: the end must not hide the failure. */
	cr_assert_eq(write(f.in, "\n", 1), 1);
	close(f.in);
	rc = wait_exit(f.pid, RUN_SECONDS);
	err = hx_slurp_fd(f.err, NULL);
	cr_assert_eq(rc, 1, "the server gone: exit %d: %s", rc, err);
	cr_assert(strncmp(err, "hxview: frames: ", 16) == 0,
	    "the server gone: it said %s", err);
	cr_assert_eq(
	    read(f.out, &(char){ 0 }, 1), 0, "a picture without a server");
	free(err);
	close(f.out);
	close(f.err);
}

/*--------------------------------------------------------- get_model */

static char mujoco_warning[1024];

static void
on_mujoco_warning(const char *msg)
{
	snprintf(mujoco_warning, sizeof(mujoco_warning), "%s", msg);
}

/*
 * Load MJB bytes as hxview does (mjb_memory_load), keeping what MuJoCo warns
 * of.  (Names are looked up in m->names, not with mj_name2id(): this
 * program links libhaptix, whose HAPTIX mj_name2id() would be the one
 * called.)
 */
static mjModel *
mjb_load(const void *mjb, size_t size)
{
	mjModel *m;

	mujoco_warning[0] = '\0';
	mju_user_warning = on_mujoco_warning;
	m = mjb_memory_load(mjb, size);
	mju_user_warning = NULL;
	return m;
}

/* The MJB is the server's model, byte for byte as MuJoCo writes it. */
Test(view, get_model)
{
	struct hx_server s;
	const hxd_model *wm;
	hxd_model_blob blob;
	hxd_info *info = NULL;
	static const char *const args[] = { "-m", "fixture.xml", "--paused",
		NULL };
	const float rgba[4] = { 0.25f, 0.5f, 0.75f, 1 };
	double v[4] = { 0.25, 0.5, 0.75, 1 };
	char path[256], *saved;
	size_t len;
	mjModel *m;
	hxd_conn *c;
	int i;

	hx_server_start(&s, args);
	c = hx_connect_ok(hx_server_addr(&s, 1), "getter");
	wm = hxd_welcome_model(c);
	HX_OK(c, hxd_info_get(c, &info));
	HX_OK(c, hxd_get_model(c, &blob));
	cr_assert_str_eq(blob.name, "fixture");
	cr_assert_eq(blob.mujoco_version, mj_version());
	cr_assert_gt(blob.size, 1000, "an MJB of %zu bytes", blob.size);
	m = mjb_load(blob.mjb, blob.size);
	cr_assert_not_null(m, "MuJoCo cannot load the MJB: %s", mujoco_warning);
	cr_assert_str_empty(
	    mujoco_warning, "loading the MJB: %s", mujoco_warning);
	cr_assert(m->nq == wm->nq && m->nv == wm->nv && m->nu == wm->nu &&
		m->nbody == wm->nbody && m->ngeom == wm->ngeom &&
		m->nsensor == wm->nsensor && m->nmocap == wm->nmocap,
	    "the MJB's sizes (nq %d, nbody %d) are not the server's (nq %d, "
	    "nbody %d)",
	    m->nq, m->nbody, wm->nq, wm->nbody);
	cr_assert_eq(m->nq, 9);
	cr_assert_eq(m->nbody, info->model.nbody);
	for (i = 0; i < m->nbody; i++)
		cr_assert_str_eq(m->names + m->name_bodyadr[i],
		    info->body_name[i], "body %d", i);
	/* Saved again, it is the same bytes: nothing after the model. */
	snprintf(path, sizeof(path), "%s", scratch_path("again.mjb"));
	mj_saveModel(m, path, NULL, 0);
	saved = slurp_file(path, &len);
	cr_assert_not_null(saved);
	cr_assert_eq(len, blob.size,
	    "the MJB is %zu bytes, the model it holds %zu", blob.size, len);
	cr_assert(memcmp(saved, blob.mjb, len) == 0, "the bytes differ");
	free(saved);
	mj_deleteModel(m);
	hxd_model_blob_free(&blob);
	cr_assert_null(blob.mjb);

	/* A change through the API is in the next MJB. */
	HX_OK(c, hxd_set_array(c, "model.geom_rgba", 4, 4, v));
	HX_OK(c, hxd_get_model(c, &blob));
	m = mjb_load(blob.mjb, blob.size);
	cr_assert_not_null(m, "MuJoCo cannot load the MJB: %s", mujoco_warning);
	for (i = 0; i < 4; i++)
		cr_assert_eq(m->geom_rgba[4 + i], rgba[i],
		    "geom_rgba[%d] is %g in the MJB", 4 + i,
		    (double)m->geom_rgba[4 + i]);
	mj_deleteModel(m);
	hxd_model_blob_free(&blob);

	/* Another model: the MJB follows. */
	HX_OK(c, hxd_load_file(c, "view.xml", NULL));
	HX_OK(c, hxd_get_model(c, &blob));
	cr_assert_str_eq(blob.name, "view");
	m = mjb_load(blob.mjb, blob.size);
	cr_assert_not_null(m, "%s", mujoco_warning);
	cr_assert(m->nmocap == 1 && m->ncam == 1 &&
		strcmp(m->names + m->name_camadr[0], "front") == 0,
	    "view.xml's MJB: %d mocap, %d cameras", m->nmocap, m->ncam);
	mj_deleteModel(m);
	hxd_model_blob_free(&blob);
	free(info);
	hxd_close(c);
	hx_server_stop(&s);
}

/* A model larger than a frame: BADSIZE naming --max-frame, still up. */
Test(view, get_model_beyond_max_frame)
{
	struct hx_server s;
	static const char *const args[] = { "-m", "fixture.xml", "--paused",
		"--max-frame", "2048", NULL };
	hxd_model_blob blob;
	hxd_conn *c;

	hx_server_start(&s, args);
	c = hx_connect_ok(hx_server_addr(&s, 0), "getter");
	HX_FAILS_WITH(c, hxd_get_model(c, &blob), HXD_BADSIZE, "--max-frame");
	cr_assert_null(blob.mjb);
	cr_assert_eq(blob.size, 0);
	cr_assert_eq(hx_status_ok(c).model.nq, 9);
	HX_FAILS_WITH(c, hxd_get_model(c, &blob), HXD_BADSIZE, "--max-frame");
	/* view.xml compresses to well under a kilobyte: it fits. */
	HX_OK(c, hxd_load_file(c, "view.xml", NULL));
	HX_OK(c, hxd_get_model(c, &blob));
	cr_assert_str_eq(blob.name, "view");
	hxd_model_blob_free(&blob);
	hxd_close(c);
	hx_server_stop(&s);
}
