/*
 * hxview: the offscreen viewer.  Options, the commands (snapshot,
 * record, frames, serve, bench, egl) and main.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "hxview_common.h"
#include "program.h"
#include "usage.h"

#define VIEW_FPS_MAX 240.0
#define VIEW_SIZE_MAX 8192

/* Set by SIGINT and SIGTERM. */
static volatile sig_atomic_t view_stopped;

/* What the command line gave, beyond the rendering options. */
struct view_cmd {
	const char *output;
	long frames;
	double duration;
	struct http_options http;
	long latency; /* bench: samples */
	int given;    /* options given that only some commands take */
};

enum {
	OPT_SIZE = 256,
	OPT_FPS,
	OPT_EGL,
	OPT_CAMERA,
	OPT_TRACK,
	OPT_AZIMUTH,
	OPT_ELEVATION,
	OPT_DISTANCE,
	OPT_LOOKAT,
	OPT_SHOW,
	OPT_HIDE,
	OPT_GEOM_GROUPS,
	OPT_SITE_GROUPS,
	OPT_NO_INFO,
	OPT_NO_SENSORS,
	OPT_FRAMES,
	OPT_DURATION,
	OPT_HTTP,
	OPT_READ_ONLY,
	OPT_QUALITY,
	OPT_MAX_CONNECTIONS,
	OPT_MAX_UPLOAD,
	OPT_TLS_CERT,
	OPT_TLS_KEY,
	OPT_LATENCY,
};

/* Which command-only options were given, for "does not take" errors. */
#define GIVEN_OUTPUT 0x1
#define GIVEN_FRAMES 0x2
#define GIVEN_DURATION 0x4
#define GIVEN_HTTP 0x8
#define GIVEN_LATENCY 0x10

static void usage_options(FILE *);

/* The help: how to call hxview, its commands, then its options. */
static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: hxview [options] snapshot -o FILE.png\n"
	    "       hxview [options] record -o OUT.y4m|DIR/ [--frames N] "
	    "[--duration S]\n"
	    "       hxview [options] frames\n"
	    "       hxview [options] serve [--http [tls:]ADDR:PORT] "
	    "[--read-only]\n"
	    "                    [--quality Q] [--max-connections N] "
	    "[--max-upload BYTES]\n"
	    "                    [--tls-cert FILE [--tls-key FILE]]\n"
	    "       hxview [options] bench [--frames N] [--latency N]\n"
	    "       hxview [options] egl\n"
	    "\n"
	    "Render a haptixd simulation offscreen (EGL, no window, no X "
	    "server).\n"
	    "\n"
	    "Commands:\n"
	    "  snapshot     one frame of the current state, as PNG\n"
	    "  record       frames at --fps of wall time until --frames, "
	    "--duration or\n"
	    "               Ctrl-C: OUT.y4m is YUV4MPEG2 (ffmpeg and mpv "
	    "read it), a\n"
	    "               directory gets frame-000001.png, ...\n"
	    "  frames       for each line read on standard input, a "
	    "picture of the state at\n"
	    "               that moment as binary PPM on standard output, "
	    "without the\n"
	    "               overlays: for a learning environment that "
	    "steps the simulation\n"
	    "  serve        the workbench: the browser draws the scene "
	    "(three.js), with\n"
	    "               mouse camera and pushing, sliders, sensor "
	    "plots, info,\n"
	    "               profiler, keyframes, recording; also "
	    "/picture (MJPEG),\n"
	    "               /frame.jpg, /frame.png and /status.json\n"
	    "  bench        frames per second, and the latency from a "
	    "step on the server\n"
	    "               to the frame that shows it (pauses and steps "
	    "the simulation)\n"
	    "  egl          say which EGL display and renderer hxview "
	    "uses; exit 1 if none\n"
	    "\n");
	usage_options(f);
}

/* The help's options, and the exit status. */
static void
usage_options(FILE *f)
{
	fprintf(f,
	    "Options:\n"
	    "  -s, --server ADDR    unix:PATH, HOST, HOST:PORT, "
	    "[V6ADDR]:PORT or\n"
	    "                       tls:HOST[:PORT] (default: "
	    "$HAPTIX_SERVER, else the\n"
	    "                       default Unix socket)\n"
	    "  --size WxH           picture size (default 640x480)\n"
	    "  --fps N              frames per second of wall time "
	    "(default 30; serve 60)\n"
	    "  --egl PLATFORM       auto (default), device (a GPU, or "
	    "Mesa's device) or\n"
	    "                       surfaceless (Mesa, also with its "
	    "software renderer)\n"
	    "  --camera NAME        look through a camera of the model\n"
	    "  --track BODY         the free camera follows a body\n"
	    "  --azimuth DEG, --elevation DEG, --distance M, --lookat "
	    "X,Y,Z\n"
	    "                       the free camera (default: the "
	    "model's)\n"
	    "  --show FLAGS, --hide FLAGS\n"
	    "                       comma lists of render flags:");
	view_flags_names(f);
	fprintf(f,
	    "  --geom-groups LIST, --site-groups LIST\n"
	    "                       the groups (0-5) to show (default "
	    "0,1,2)\n"
	    "  --no-info            no info box (frames: never one)\n"
	    "  --no-sensors         no sensor bar graph (frames: never "
	    "one)\n"
	    "  -o, --output PATH    snapshot and record: where to write\n"
	    "  --frames N           record: stop after N frames; bench: "
	    "frames to time\n"
	    "                       (default 60)\n"
	    "  --duration S         record: stop after S seconds\n"
	    "  --http [tls:]ADDR:PORT\n"
	    "                       serve: where to listen (default "
	    "127.0.0.1:8080), tls:\n"
	    "                       for HTTPS; not a loopback address only "
	    "with\n"
	    "                       --read-only or the daemon's token in "
	    "$HAPTIX_TOKEN_FILE\n"
	    "  --read-only          serve: watch only, no controls\n"
	    "  --quality Q          serve: JPEG quality, 1-100 (default "
	    "80)\n"
	    "  --max-connections N  serve: browser connections at once; "
	    "one more closes\n"
	    "                       the oldest idle one (default 32)\n"
	    "  --max-upload BYTES   serve: the most a model dropped on the "
	    "page may bring,\n"
	    "                       its files with it (default 16777216, "
	    "the daemon's\n"
	    "                       frame; 0: no uploads)\n"
	    "  --tls-cert FILE      serve over tls: the certificate chain "
	    "(PEM)\n"
	    "  --tls-key FILE       serve over tls: its private key (PEM; "
	    "default: in the\n"
	    "                       --tls-cert file)\n"
	    "  --latency N          bench: latency samples (default 50)\n"
	    "  -h, --help           this help\n"
	    "  -V, --version        the version\n"
	    "\n"
	    "Exit status: 0 done, 1 the server, EGL or a file failed, 2 "
	    "usage errors.\n"
	    "See hxview(1).\n");
}

/* SIGINT or SIGTERM: record, frames and bench stop at their next frame. */
static void
on_signal(int sig)
{
	view_stopped = 1;
}

static int
parse_number(const char *s, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	return s[0] == '\0' || *end != '\0' || errno != 0 || !isfinite(*out) ?
	    -1 :
	    0;
}

static int
parse_count(const char *s, long min, long max, long *out)
{
	char *end;

	errno = 0;
	*out = strtol(s, &end, 10);
	return s[0] == '\0' || *end != '\0' || errno != 0 || *out < min ||
		*out > max ?
	    -1 :
	    0;
}

/* "0,2,3": those groups shown, the others hidden. */
static int
parse_groups(const char *s, int *groups)
{
	const char *p;
	int i;

	for (i = 0; i < 6; i++)
		groups[i] = 0;
	/* Digits 0-5, each followed by a comma and another, or the end. */
	for (p = s;; p += 2) {
		if (p[0] < '0' || p[0] > '5')
			return -1;
		groups[p[0] - '0'] = 1;
		if (p[1] == '\0')
			return 0;
		if (p[1] != ',')
			return -1;
	}
}

static int
cmd_snapshot(
    struct view *v, const struct view_options *o, const struct view_cmd *cmd)
{
	unsigned char *rgb = malloc((size_t)o->width * (size_t)o->height * 3);

	if (rgb == NULL) {
		program_warn("out of memory");
		return VIEW_FAIL;
	}
	view_render(v, rgb);
	if (image_png_file(cmd->output, rgb, o->width, o->height) != 0) {
		program_warn(
		    "cannot write %s: %s", cmd->output, strerror(errno));
		free(rgb);
		return VIEW_FAIL;
	}
	free(rgb);
	return VIEW_OK;
}

/* Is path a directory, or meant as one (a trailing slash)? */
static int
is_directory(const char *path)
{
	struct stat st;
	size_t n = strlen(path);

	return (n > 0 && path[n - 1] == '/') ||
	    (stat(path, &st) == 0 && S_ISDIR(st.st_mode));
}

/* Write frame n of a recording: into the Y4M file f, or as a PNG in dir. */
static int
record_frame(const char *output, int dir, FILE *f, const unsigned char *rgb,
    unsigned char *yuv, const struct view_options *o, long n)
{
	char path[PATH_MAX];
	size_t len = strlen(output);

	if (!dir) {
		if (image_y4m_frame(f, rgb, o->width, o->height, yuv) == 0)
			return 0;
		program_warn("cannot write %s: %s", output, strerror(errno));
		return -1;
	}
	snprintf(path, sizeof(path), "%s%sframe-%06ld.png", output,
	    len > 0 && output[len - 1] == '/' ? "" : "/", n);
	if (image_png_file(path, rgb, o->width, o->height) == 0)
		return 0;
	program_warn("cannot write %s: %s", path, strerror(errno));
	return -1;
}

/*
 * Begin a recording: make the directory of PNG files, or open the Y4M
 * file ("-": standard output) into *f and write its header.  0, or -1
 * having said why.
 */
static int
record_open(
    const struct view_cmd *cmd, const struct view_options *o, int dir, FILE **f)
{
	if (dir) {
		if (mkdir(cmd->output, 0777) == 0 || errno == EEXIST)
			return 0;
		program_warn(
		    "cannot make %s: %s", cmd->output, strerror(errno));
		return -1;
	}
	if (strcmp(cmd->output, "-") == 0)
		*f = stdout;
	else if ((*f = fopen(cmd->output, "wb")) == NULL) {
		program_warn(
		    "cannot write %s: %s", cmd->output, strerror(errno));
		return -1;
	}
	if (image_y4m_header(*f, o->width, o->height, o->fps) == 0)
		return 0;
	program_warn("cannot write %s: %s", cmd->output, strerror(errno));
	return -1;
}

/*
 * Take what the server sends until next (program_now's time) and then
 * what is there.  0; 1 when stopped by a signal; -1 having said why the
 * connection failed.
 */
static int
record_wait(struct view *v, double next)
{
	char why[512];
	double left;

	/* Take what came until this frame is due. */
	while ((left = next - program_now()) > 0 && !view_stopped) {
		if (view_pump(v, (int)ceil(left * 1e3), why, sizeof(why)) < 0) {
			program_warn("record: %s", why);
			return -1;
		}
	}
	if (view_stopped)
		return 1;
	if (view_pump(v, 0, why, sizeof(why)) < 0) {
		program_warn("record: %s", why);
		return -1;
	}
	return 0;
}

/*
 * The frames a recording begun at start should hold now: a frame
 * rendered late stands for the slots it missed too, so that the
 * recording plays at --fps in step with time; no more than --frames or
 * --duration allow.
 */
static long
record_slots(
    const struct view_options *o, const struct view_cmd *cmd, double start)
{
	long slots = (long)floor((program_now() - start) * o->fps) + 1;

	if (cmd->frames != 0 && slots > cmd->frames)
		slots = cmd->frames;
	if (cmd->duration > 0 && slots > (long)ceil(cmd->duration * o->fps))
		slots = (long)ceil(cmd->duration * o->fps);
	return slots;
}

/* hxview record: frames at --fps until --frames, --duration or a signal. */
static int
cmd_record(
    struct view *v, const struct view_options *o, const struct view_cmd *cmd)
{
	size_t npix = (size_t)o->width * (size_t)o->height;
	unsigned char *rgb = malloc(npix * 3), *yuv = malloc(npix * 3 / 2);
	int dir = is_directory(cmd->output), rc = VIEW_FAIL, waited;
	double start, next, end;
	FILE *f = NULL;
	long n = 0, slots;

	if (rgb == NULL || yuv == NULL) {
		program_warn("out of memory");
		goto out;
	}
	if (record_open(cmd, o, dir, &f) != 0)
		goto out;
	start = next = program_now();
	end = cmd->duration > 0 ? start + cmd->duration : INFINITY;
	while (!view_stopped && (cmd->frames == 0 || n < cmd->frames) &&
	    next < end) {
		if ((waited = record_wait(v, next)) < 0)
			goto out;
		if (waited > 0)
			break;
		view_render(v, rgb);
		slots = record_slots(o, cmd, start);
		do {
			if (record_frame(
				cmd->output, dir, f, rgb, yuv, o, ++n) != 0)
				goto out;
		} while (n < slots);
		next = start + (double)n / o->fps;
	}
	if (f != NULL && fflush(f) != 0) {
		program_warn(
		    "cannot write %s: %s", cmd->output, strerror(errno));
		goto out;
	}
	program_warn("recorded %ld frame%s in %.1f s", n, n == 1 ? "" : "s",
	    program_now() - start);
	rc = VIEW_OK;
out:
	if (f != NULL && f != stdout && fclose(f) != 0 && rc == VIEW_OK) {
		program_warn(
		    "cannot write %s: %s", cmd->output, strerror(errno));
		rc = VIEW_FAIL;
	}
	free(rgb);
	free(yuv);
	return rc;
}

static int
compare_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* How fast frames are rendered and read back, and encoded as JPEG. */
static void
bench_speed(struct view *v, const struct view_options *o, long frames,
    unsigned char *rgb)
{
	unsigned char *jpeg = NULL;
	double t0, render, encode;
	size_t jlen;
	long i;

	view_render(v, rgb); /* the first frame builds the GL objects */
	t0 = program_now();
	for (i = 0; i < frames; i++)
		view_render(v, rgb);
	render = (program_now() - t0) / (double)frames;
	t0 = program_now();
	for (i = 0; i < frames; i++) {
		if (image_jpeg(rgb, o->width, o->height, 80, &jpeg, &jlen) != 0)
			break;
		free(jpeg);
	}
	encode = (program_now() - t0) / (double)frames;
	printf("hxview bench: %dx%d, %s\n", o->width, o->height,
	    egl_description());
	printf("render+read:  %.1f frames/s (%.2f ms a frame)\n", 1 / render,
	    render * 1e3);
	printf("with JPEG:    %.1f frames/s (JPEG q80 %.2f ms)\n",
	    1 / (render + encode), encode * 1e3);
	fflush(stdout);
}

/*
 * Step the paused simulation once and wait for the step's state: in
 * *recv the seconds until it arrived, in *lat until its frame was read
 * back.  0, or -1 having said why.
 */
static int
bench_step(struct view *v, unsigned char *rgb, double *recv, double *lat)
{
	hxd_conn *c = view_conn(v);
	unsigned long long want = view_step(v) + 1;
	double t0 = program_now();
	char why[512];
	int rc;

	if (hxd_step(c, 1, NULL) != HXD_OK) {
		program_warn("bench: cannot step: %s", hxd_error(c));
		return -1;
	}
	while (view_step(v) < want) {
		rc = view_pump(v, 1000, why, sizeof(why));
		if (rc < 0 || (rc == 0 && program_now() - t0 > 5)) {
			program_warn("bench: no frame of step %llu: %s", want,
			    rc < 0 ? why : "none within 5 s");
			return -1;
		}
	}
	*recv = program_now() - t0;
	view_render(v, rgb);
	*lat = program_now() - t0;
	return 0;
}

/*
 * Pause the simulation and time up to samples steps (fewer when
 * stopped by a signal); then leave it as it was.  The count timed, or
 * -1 having said why.
 */
static long
bench_latency(
    struct view *v, long samples, unsigned char *rgb, double *recv, double *lat)
{
	hxd_conn *c = view_conn(v);
	hxd_status st;
	long i;

	if (hxd_status_get(c, &st) != HXD_OK) {
		program_warn("bench: %s", hxd_error(c));
		return -1;
	}
	if (hxd_pause(c) != HXD_OK) {
		program_warn("bench: cannot pause: %s", hxd_error(c));
		return -1;
	}
	for (i = 0; i < samples && !view_stopped; i++) {
		if (bench_step(v, rgb, &recv[i], &lat[i]) != 0) {
			if (!st.paused)
				hxd_run(c);
			return -1;
		}
	}
	/* Leave the simulation as it was. */
	if (!st.paused && hxd_run(c) != HXD_OK)
		program_warn("bench: cannot run again: %s", hxd_error(c));
	return i;
}

/* The latencies' median, 90th percentile and maximum, of n samples. */
static void
bench_report(double *lat, double *recv, long n)
{
	qsort(lat, (size_t)n, sizeof(*lat), compare_double);
	qsort(recv, (size_t)n, sizeof(*recv), compare_double);
	if (n == 0)
		return;
	printf("latency:      median %.2f ms, p90 %.2f ms, max %.2f ms "
	       "(%ld steps: step call to frame read back)\n",
	    lat[n / 2] * 1e3, lat[(n * 9) / 10] * 1e3, lat[n - 1] * 1e3, n);
	printf("of which:     median %.3f ms, p90 %.3f ms until the "
	       "step's state arrived\n",
	    recv[n / 2] * 1e3, recv[(n * 9) / 10] * 1e3);
}

/* Render speed, then the latency from a step to the frame showing it. */
static int
cmd_bench(
    struct view *v, const struct view_options *o, const struct view_cmd *cmd)
{
	size_t npix = (size_t)o->width * (size_t)o->height;
	unsigned char *rgb = malloc(npix * 3);
	long frames = cmd->frames > 0 ? cmd->frames : 60, n;
	long samples = cmd->latency > 0 ? cmd->latency : 50;
	double *lat, *recv;
	int rc = VIEW_FAIL;

	lat = calloc((size_t)samples, sizeof(*lat));
	recv = calloc((size_t)samples, sizeof(*recv));
	if (rgb == NULL || lat == NULL || recv == NULL) {
		program_warn("out of memory");
		goto out;
	}
	bench_speed(v, o, frames, rgb);
	if ((n = bench_latency(v, samples, rgb, recv, lat)) < 0)
		goto out;
	bench_report(lat, recv, n);
	rc = VIEW_OK;
out:
	free(rgb);
	free(lat);
	free(recv);
	return rc;
}

static const struct option view_longopts[] = {
	{ "server", required_argument, NULL, 's' },
	{ "output", required_argument, NULL, 'o' },
	{ "help", no_argument, NULL, 'h' },
	{ "size", required_argument, NULL, OPT_SIZE },
	{ "fps", required_argument, NULL, OPT_FPS },
	{ "egl", required_argument, NULL, OPT_EGL },
	{ "camera", required_argument, NULL, OPT_CAMERA },
	{ "track", required_argument, NULL, OPT_TRACK },
	{ "azimuth", required_argument, NULL, OPT_AZIMUTH },
	{ "elevation", required_argument, NULL, OPT_ELEVATION },
	{ "distance", required_argument, NULL, OPT_DISTANCE },
	{ "lookat", required_argument, NULL, OPT_LOOKAT },
	{ "show", required_argument, NULL, OPT_SHOW },
	{ "hide", required_argument, NULL, OPT_HIDE },
	{ "geom-groups", required_argument, NULL, OPT_GEOM_GROUPS },
	{ "site-groups", required_argument, NULL, OPT_SITE_GROUPS },
	{ "no-info", no_argument, NULL, OPT_NO_INFO },
	{ "no-sensors", no_argument, NULL, OPT_NO_SENSORS },
	{ "frames", required_argument, NULL, OPT_FRAMES },
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "http", required_argument, NULL, OPT_HTTP },
	{ "read-only", no_argument, NULL, OPT_READ_ONLY },
	{ "quality", required_argument, NULL, OPT_QUALITY },
	{ "max-connections", required_argument, NULL, OPT_MAX_CONNECTIONS },
	{ "max-upload", required_argument, NULL, OPT_MAX_UPLOAD },
	{ "tls-cert", required_argument, NULL, OPT_TLS_CERT },
	{ "tls-key", required_argument, NULL, OPT_TLS_KEY },
	{ "latency", required_argument, NULL, OPT_LATENCY },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

/* The options' defaults: 640x480 at 30 frames a second, the model's
 * free camera, both overlays; serve on 127.0.0.1:8080. */
static void
options_default(struct view_options *o, struct view_cmd *cmd)
{
	memset(o, 0, sizeof(*o));
	memset(cmd, 0, sizeof(*cmd));
	o->egl = "auto";
	o->width = 640;
	o->height = 480;
	o->fps = 30;
	o->azimuth = o->elevation = o->distance = NAN;
	o->lookat[0] = o->lookat[1] = o->lookat[2] = NAN;
	o->info = o->sensors = 1;
	cmd->http.listen = "127.0.0.1:8080";
	cmd->http.quality = 80;
	cmd->http.max_connections = 32;
	cmd->http.max_upload = HTTP_UPLOAD_DEFAULT;
}

/*
 * The camera's options: --camera or --track (one of them), and the free
 * camera's azimuth, elevation, distance and lookat.  0, or VIEW_USAGE.
 */
static int
options_camera(struct view_options *o, int ch, const char *arg)
{
	const char *what;
	char extra;
	double x;

	switch (ch) {
	case OPT_CAMERA:
	case OPT_TRACK:
		if (o->camera != VIEW_CAMERA_FREE)
			return usage_error("give one of --camera and --track");
		if (snprintf(o->camera_name, sizeof(o->camera_name), "%s",
			arg) >= (int)sizeof(o->camera_name))
			return usage_error("'%s' is too long for a name", arg);
		o->camera = ch == OPT_CAMERA ? VIEW_CAMERA_FIXED :
					       VIEW_CAMERA_TRACK;
		return 0;
	case OPT_LOOKAT:
		if (sscanf(arg, "%lf,%lf,%lf%c", &o->lookat[0], &o->lookat[1],
			&o->lookat[2], &extra) != 3 ||
		    !isfinite(o->lookat[0]) || !isfinite(o->lookat[1]) ||
		    !isfinite(o->lookat[2]))
			return usage_error("--lookat: '%s' is not X,Y,Z", arg);
		return 0;
	}
	what = ch == OPT_AZIMUTH ? "azimuth" :
	    ch == OPT_ELEVATION  ? "elevation" :
				   "distance";
	if (parse_number(arg, &x) != 0 || (ch == OPT_DISTANCE && x <= 0))
		return usage_error("--%s: '%s' is not %s", what, arg,
		    ch == OPT_DISTANCE ? "a distance (> 0)" : "an angle");
	if (ch == OPT_AZIMUTH)
		o->azimuth = x;
	else if (ch == OPT_ELEVATION)
		o->elevation = x;
	else
		o->distance = x;
	return 0;
}

/*
 * What is drawn: --show and --hide, the groups, and the overlays.  0,
 * or VIEW_USAGE.
 */
static int
options_scene(struct view_options *o, int ch, const char *arg)
{
	char err[1024];

	switch (ch) {
	case OPT_SHOW:
	case OPT_HIDE:
		if (view_flags_parse(
			o, arg, ch == OPT_SHOW, err, sizeof(err)) != 0)
			return usage_error(
			    "--%s: %s", ch == OPT_SHOW ? "show" : "hide", err);
		return 0;
	case OPT_GEOM_GROUPS:
	case OPT_SITE_GROUPS:
		if (parse_groups(arg,
			ch == OPT_GEOM_GROUPS ? o->geomgroup : o->sitegroup) !=
		    0)
			return usage_error(
			    "--%s: '%s' is not a list of groups 0 to 5",
			    ch == OPT_GEOM_GROUPS ? "geom-groups" :
						    "site-groups",
			    arg);
		if (ch == OPT_GEOM_GROUPS)
			o->geom_groups_given = 1;
		else
			o->site_groups_given = 1;
		return 0;
	case OPT_NO_INFO:
		o->info = 0;
		return 0;
	default: /* OPT_NO_SENSORS */
		o->sensors = 0;
		return 0;
	}
}

/*
 * The picture's options: --size, --fps (*fps_given set) and --egl.  0,
 * or VIEW_USAGE.
 */
static int
options_picture(struct view_options *o, int ch, const char *arg, int *fps_given)
{
	char extra;

	switch (ch) {
	case OPT_SIZE:
		if (sscanf(arg, "%dx%d%c", &o->width, &o->height, &extra) !=
			2 ||
		    o->width < 16 || o->height < 16 ||
		    o->width > VIEW_SIZE_MAX || o->height > VIEW_SIZE_MAX)
			return usage_error("--size: '%s' is not WIDTHxHEIGHT "
					   "(16 to %d each)",
			    arg, VIEW_SIZE_MAX);
		return 0;
	case OPT_FPS:
		if (parse_number(arg, &o->fps) != 0 || o->fps <= 0 ||
		    o->fps > VIEW_FPS_MAX)
			return usage_error("--fps: '%s' is not a rate "
					   "(more than 0, at most %g)",
			    arg, VIEW_FPS_MAX);
		*fps_given = 1;
		return 0;
	default: /* OPT_EGL */
		if (strcmp(arg, "auto") != 0 && strcmp(arg, "device") != 0 &&
		    strcmp(arg, "surfaceless") != 0)
			return usage_error(
			    "--egl: '%s' is not auto, device or surfaceless",
			    arg);
		o->egl = arg;
		return 0;
	}
}

/*
 * serve's options: --http, --read-only, --quality, --max-connections,
 * --max-upload, --tls-cert and --tls-key.
 */
static int
options_serve(struct http_options *h, int ch, const char *arg, int *given)
{
	long n;

	*given |= GIVEN_HTTP;
	switch (ch) {
	case OPT_HTTP:
		h->listen = arg;
		return 0;
	case OPT_READ_ONLY:
		h->read_only = 1;
		return 0;
	case OPT_TLS_CERT:
		h->cert = arg;
		return 0;
	case OPT_TLS_KEY:
		h->key = arg;
		return 0;
	case OPT_QUALITY:
		if (parse_count(arg, 1, 100, &n) != 0)
			return usage_error(
			    "--quality: '%s' is not 1 to 100", arg);
		h->quality = (int)n;
		return 0;
	case OPT_MAX_UPLOAD:
		if (parse_count(arg, 0, HTTP_UPLOAD_MAX, &n) != 0)
			return usage_error("--max-upload: '%s' is not 0 to %ld "
					   "bytes",
			    arg, (long)HTTP_UPLOAD_MAX);
		h->max_upload = (size_t)n;
		return 0;
	default: /* OPT_MAX_CONNECTIONS */
		if (parse_count(arg, 1, 10000, &n) != 0)
			return usage_error(
			    "--max-connections: '%s' is not 1 to 10000", arg);
		h->max_connections = (int)n;
		return 0;
	}
}

/*
 * The options that only some commands take: -o, --frames, --duration,
 * serve's and bench's; each is noted in cmd->given.  0, or VIEW_USAGE.
 */
static int
options_command(struct view_cmd *cmd, int ch, const char *arg)
{
	long n;

	switch (ch) {
	case 'o':
		cmd->output = arg;
		cmd->given |= GIVEN_OUTPUT;
		return 0;
	case OPT_FRAMES:
		if (parse_count(arg, 1, LONG_MAX, &n) != 0)
			return usage_error(
			    "--frames: '%s' is not a count (1 or more)", arg);
		cmd->frames = n;
		cmd->given |= GIVEN_FRAMES;
		return 0;
	case OPT_DURATION:
		if (parse_number(arg, &cmd->duration) != 0 ||
		    cmd->duration <= 0)
			return usage_error("--duration: '%s' is not a number "
					   "of seconds (> 0)",
			    arg);
		cmd->given |= GIVEN_DURATION;
		return 0;
	case OPT_LATENCY:
		if (parse_count(arg, 1, 100000, &n) != 0)
			return usage_error(
			    "--latency: '%s' is not a count (1 to 100000)",
			    arg);
		cmd->latency = n;
		cmd->given |= GIVEN_LATENCY;
		return 0;
	}
	return options_serve(&cmd->http, ch, arg, &cmd->given);
}

/*
 * Read the command line's options into o and cmd.  Returns -1 when
 * they are read, else the exit status (--help, --version, a usage
 * error).
 */
static int
options_parse(int argc, char **argv, struct view_options *o,
    struct view_cmd *cmd, int *fps_given)
{
	int ch, rc;

	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":s:o:hV", view_longopts, NULL)) !=
	    -1) {
		switch (ch) {
		case 's':
			o->server = optarg;
			continue;
		case 'h':
			usage(stdout);
			return VIEW_OK;
		case 'V':
			usage_version("hxview");
			return VIEW_OK;
		case OPT_SIZE:
		case OPT_FPS:
		case OPT_EGL:
			rc = options_picture(o, ch, optarg, fps_given);
			break;
		case OPT_CAMERA:
		case OPT_TRACK:
		case OPT_AZIMUTH:
		case OPT_ELEVATION:
		case OPT_DISTANCE:
		case OPT_LOOKAT:
			rc = options_camera(o, ch, optarg);
			break;
		case OPT_SHOW:
		case OPT_HIDE:
		case OPT_GEOM_GROUPS:
		case OPT_SITE_GROUPS:
		case OPT_NO_INFO:
		case OPT_NO_SENSORS:
			rc = options_scene(o, ch, optarg);
			break;
		case 'o':
		case OPT_FRAMES:
		case OPT_DURATION:
		case OPT_HTTP:
		case OPT_READ_ONLY:
		case OPT_QUALITY:
		case OPT_MAX_CONNECTIONS:
		case OPT_MAX_UPLOAD:
		case OPT_TLS_CERT:
		case OPT_TLS_KEY:
		case OPT_LATENCY:
			rc = options_command(cmd, ch, optarg);
			break;
		default:
			return usage_bad_option("hxview", ch, argv);
		}
		if (rc != 0)
			return rc;
	}
	return -1;
}

/* The options each command takes (GIVEN_*), or -1 for no command. */
static int
command_takes(const char *what)
{
	if (strcmp(what, "snapshot") == 0)
		return GIVEN_OUTPUT;
	if (strcmp(what, "record") == 0)
		return GIVEN_OUTPUT | GIVEN_FRAMES | GIVEN_DURATION;
	if (strcmp(what, "frames") == 0)
		return 0;
	if (strcmp(what, "serve") == 0)
		return GIVEN_HTTP;
	if (strcmp(what, "bench") == 0)
		return GIVEN_FRAMES | GIVEN_LATENCY;
	if (strcmp(what, "egl") == 0)
		return 0;
	return -1;
}

/*
 * Check that the command what takes the options given and has what it
 * needs; serve's options are checked, and its rates set.  0, or
 * VIEW_USAGE.
 */
static int
command_check(const char *what, struct view_options *o, struct view_cmd *cmd,
    int fps_given)
{
	int takes = command_takes(what), extra;
	char err[1024];

	if (takes < 0)
		return usage_error("unknown command '%s': snapshot, record, "
				   "frames, serve, bench or egl",
		    what);
	if ((extra = cmd->given & ~takes) != 0)
		return usage_error("%s does not take %s", what,
		    (extra & GIVEN_OUTPUT) ?
			"-o" :
			(extra & GIVEN_FRAMES) ?
			"--frames" :
			(extra & GIVEN_DURATION) ?
			"--duration" :
			(extra & GIVEN_HTTP) ?
			"--http, --read-only, --quality, --max-connections, "
			"--max-upload or --tls-*" :
			"--latency");
	if ((takes & GIVEN_OUTPUT) && cmd->output == NULL)
		return usage_error("%s needs -o PATH", what);
	if (strcmp(what, "record") == 0 && !is_directory(cmd->output) &&
	    (o->width % 2 != 0 || o->height % 2 != 0))
		return usage_error("record: Y4M (4:2:0) needs an even width "
				   "and height, not %dx%d",
		    o->width, o->height);
	if (strcmp(what, "frames") == 0) {
		/*
		 * A learning agent sees the scene alone; the state comes by
		 * calls when a picture is asked for, not through a stream.
		 */
		o->info = o->sensors = 0;
		o->by_calls = 1;
		return 0;
	}
	if (strcmp(what, "serve") != 0)
		return 0;
	if (http_check(&cmd->http, err, sizeof(err)) != 0)
		return usage_error("serve: %s", err);
	/*
	 * The workbench takes 60 frames a second unless --fps says fewer,
	 * and the state comes four times as often, so that a change
	 * reaches the page a few milliseconds after it happened rather
	 * than a frame later.
	 */
	if (!fps_given)
		o->fps = 60;
	o->stream_hz = fmin(4 * fmin(o->fps, 60), 240);
	return 0;
}

/* hxview egl: say which EGL display and renderer hxview would use. */
static int
cmd_egl(const struct view_options *o)
{
	char err[1024];

	if (egl_start(o->egl, err, sizeof(err)) != 0) {
		program_warn("%s", err);
		return VIEW_FAIL;
	}
	printf("%s\n", egl_description());
	egl_stop();
	return VIEW_OK;
}

int
main(int argc, char **argv)
{
	static const int stops[] = { SIGINT, SIGTERM, 0 };
	struct view_options o;
	struct view_cmd cmd;
	struct view *v;
	const char *what;
	char err[1024];
	int rc, fps_given = 0;

	program_set_name("hxview");
	options_default(&o, &cmd);
	if ((rc = options_parse(argc, argv, &o, &cmd, &fps_given)) >= 0)
		return rc;
	if (optind >= argc)
		return usage_error("no command: snapshot, record, frames, "
				   "serve, bench or egl");
	what = argv[optind];
	if (optind + 1 < argc)
		return usage_error(
		    "%s: unexpected argument '%s'", what, argv[optind + 1]);
	if ((rc = command_check(what, &o, &cmd, fps_given)) != 0)
		return rc;
	if (strcmp(what, "egl") == 0)
		return cmd_egl(&o);
	program_signals(on_signal, stops);
	v = view_open(&o, strcmp(what, "bench") == 0 ? 1 : 0, err, sizeof(err));
	if (v == NULL) {
		program_warn("%s", err);
		return VIEW_FAIL;
	}
	if (strcmp(what, "snapshot") == 0)
		rc = cmd_snapshot(v, &o, &cmd);
	else if (strcmp(what, "record") == 0)
		rc = cmd_record(v, &o, &cmd);
	else if (strcmp(what, "frames") == 0)
		rc = frames_run(v, &view_stopped);
	else if (strcmp(what, "bench") == 0)
		rc = cmd_bench(v, &o, &cmd);
	else
		rc = http_serve(v, &o, &cmd.http);
	view_close(v);
	return rc;
}
