/*
 * hxview: the offscreen viewer.  Options, the commands (snapshot,
 * record, serve, bench, egl) and main.
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
#include <time.h>

#include "hxview.h"
#include "usage.h"

#define VIEW_FPS_MAX 240.0
#define VIEW_SIZE_MAX 8192

volatile int view_stopped;

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
	OPT_LATENCY,
};

/* Which command-only options were given, for "does not take" errors. */
#define GIVEN_OUTPUT 0x1
#define GIVEN_FRAMES 0x2
#define GIVEN_DURATION 0x4
#define GIVEN_HTTP 0x8
#define GIVEN_LATENCY 0x10

static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: hxview [options] snapshot -o FILE.png\n"
	    "       hxview [options] record -o OUT.y4m|DIR/ [--frames N] "
	    "[--duration S]\n"
	    "       hxview [options] serve [--http ADDR:PORT] [--read-only] "
	    "[--quality Q]\n"
	    "                    [--max-connections N]\n"
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
	    "\n"
	    "Options:\n"
	    "  -s, --server ADDR    unix:PATH, HOST, HOST:PORT or "
	    "[V6ADDR]:PORT (default:\n"
	    "                       $HAPTIX_SERVER, else the default Unix "
	    "socket)\n"
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
	    "  --no-info            no info box\n"
	    "  --no-sensors         no sensor bar graph\n"
	    "  -o, --output PATH    snapshot and record: where to write\n"
	    "  --frames N           record: stop after N frames; bench: "
	    "frames to time\n"
	    "                       (default 60)\n"
	    "  --duration S         record: stop after S seconds\n"
	    "  --http ADDR:PORT     serve: where to listen (default "
	    "127.0.0.1:8080); not\n"
	    "                       a loopback address only with "
	    "--read-only or the\n"
	    "                       daemon's token in $HAPTIX_TOKEN_FILE\n"
	    "  --read-only          serve: watch only, no controls\n"
	    "  --quality Q          serve: JPEG quality, 1-100 (default "
	    "80)\n"
	    "  --max-connections N  serve: browser connections at once; "
	    "one more closes\n"
	    "                       the oldest idle one (default 32)\n"
	    "  --latency N          bench: latency samples (default 50)\n"
	    "  -h, --help           this help\n"
	    "  -V, --version        the version\n"
	    "\n"
	    "Exit status: 0 done, 1 the server, EGL or a file failed, 2 "
	    "usage errors.\n"
	    "See hxview(1).\n");
}

static int usage_error(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

static int
usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("hxview: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nhxview: see hxview --help\n", stderr);
	return VIEW_USAGE;
}

double
view_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

double
view_epoch_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

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
		fprintf(stderr, "hxview: out of memory\n");
		return VIEW_FAIL;
	}
	view_render(v, rgb);
	if (image_png_file(cmd->output, rgb, o->width, o->height) != 0) {
		fprintf(stderr, "hxview: cannot write %s: %s\n", cmd->output,
		    strerror(errno));
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
		fprintf(stderr, "hxview: cannot write %s: %s\n", output,
		    strerror(errno));
		return -1;
	}
	snprintf(path, sizeof(path), "%s%sframe-%06ld.png", output,
	    len > 0 && output[len - 1] == '/' ? "" : "/", n);
	if (image_png_file(path, rgb, o->width, o->height) == 0)
		return 0;
	fprintf(stderr, "hxview: cannot write %s: %s\n", path, strerror(errno));
	return -1;
}

static int
cmd_record(
    struct view *v, const struct view_options *o, const struct view_cmd *cmd)
{
	size_t npix = (size_t)o->width * (size_t)o->height;
	unsigned char *rgb = malloc(npix * 3), *yuv = malloc(npix * 3 / 2);
	int dir = is_directory(cmd->output), rc = VIEW_FAIL;
	double start, next, end, left;
	char why[512];
	FILE *f = NULL;
	long n = 0, slots;

	if (rgb == NULL || yuv == NULL) {
		fprintf(stderr, "hxview: out of memory\n");
		goto out;
	}
	if (dir) {
		if (mkdir(cmd->output, 0777) != 0 && errno != EEXIST) {
			fprintf(stderr, "hxview: cannot make %s: %s\n",
			    cmd->output, strerror(errno));
			goto out;
		}
	} else {
		if (strcmp(cmd->output, "-") == 0)
			f = stdout;
		else if ((f = fopen(cmd->output, "wb")) == NULL) {
			fprintf(stderr, "hxview: cannot write %s: %s\n",
			    cmd->output, strerror(errno));
			goto out;
		}
		if (image_y4m_header(f, o->width, o->height, o->fps) != 0)
			goto write_failed;
	}
	start = next = view_now();
	end = cmd->duration > 0 ? start + cmd->duration : INFINITY;
	while (!view_stopped && (cmd->frames == 0 || n < cmd->frames) &&
	    next < end) {
		/* Take what came until this frame is due. */
		while ((left = next - view_now()) > 0 && !view_stopped) {
			if (view_pump(v, (int)ceil(left * 1e3), why,
				sizeof(why)) < 0) {
				fprintf(stderr, "hxview: record: %s\n", why);
				goto out;
			}
		}
		if (view_stopped)
			break;
		if (view_pump(v, 0, why, sizeof(why)) < 0) {
			fprintf(stderr, "hxview: record: %s\n", why);
			goto out;
		}
		view_render(v, rgb);
		/*
		 * A frame rendered late stands for the slots it missed too,
		 * so that the recording plays at --fps in step with time.
		 */
		slots = (long)floor((view_now() - start) * o->fps) + 1;
		if (cmd->frames != 0 && slots > cmd->frames)
			slots = cmd->frames;
		if (cmd->duration > 0 &&
		    slots > (long)ceil(cmd->duration * o->fps))
			slots = (long)ceil(cmd->duration * o->fps);
		do {
			if (record_frame(
				cmd->output, dir, f, rgb, yuv, o, ++n) != 0)
				goto out;
		} while (n < slots);
		next = start + (double)n / o->fps;
	}
	if (f != NULL && fflush(f) != 0)
		goto write_failed;
	fprintf(stderr, "hxview: recorded %ld frame%s in %.1f s\n", n,
	    n == 1 ? "" : "s", view_now() - start);
	rc = VIEW_OK;
	goto out;
write_failed:
	fprintf(stderr, "hxview: cannot write %s: %s\n", cmd->output,
	    strerror(errno));
out:
	if (f != NULL && f != stdout && fclose(f) != 0 && rc == VIEW_OK) {
		fprintf(stderr, "hxview: cannot write %s: %s\n", cmd->output,
		    strerror(errno));
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

/* Render speed, then the latency from a step to the frame showing it. */
static int
cmd_bench(
    struct view *v, const struct view_options *o, const struct view_cmd *cmd)
{
	size_t npix = (size_t)o->width * (size_t)o->height;
	unsigned char *rgb = malloc(npix * 3), *jpeg = NULL;
	long frames = cmd->frames > 0 ? cmd->frames : 60, i;
	long samples = cmd->latency > 0 ? cmd->latency : 50;
	hxd_conn *c = view_conn(v);
	double t0, render, encode = 0, *lat = NULL, *recv = NULL, t;
	unsigned long long want;
	hxd_status st;
	char why[512];
	size_t jlen;
	int rc;

	lat = calloc((size_t)samples, sizeof(*lat));
	recv = calloc((size_t)samples, sizeof(*recv));
	if (rgb == NULL || lat == NULL || recv == NULL) {
		fprintf(stderr, "hxview: out of memory\n");
		goto fail;
	}
	view_render(v, rgb); /* the first frame builds the GL objects */
	t0 = view_now();
	for (i = 0; i < frames; i++)
		view_render(v, rgb);
	render = (view_now() - t0) / (double)frames;
	t0 = view_now();
	for (i = 0; i < frames; i++) {
		if (image_jpeg(rgb, o->width, o->height, 80, &jpeg, &jlen) != 0)
			break;
		free(jpeg);
	}
	encode = (view_now() - t0) / (double)frames;
	printf("hxview bench: %dx%d, %s\n", o->width, o->height,
	    egl_description());
	printf("render+read:  %.1f frames/s (%.2f ms a frame)\n", 1 / render,
	    render * 1e3);
	printf("with JPEG:    %.1f frames/s (JPEG q80 %.2f ms)\n",
	    1 / (render + encode), encode * 1e3);
	fflush(stdout);
	if (hxd_status_get(c, &st) != HXD_OK) {
		fprintf(stderr, "hxview: bench: %s\n", hxd_error(c));
		goto fail;
	}
	if (hxd_pause(c) != HXD_OK) {
		fprintf(
		    stderr, "hxview: bench: cannot pause: %s\n", hxd_error(c));
		goto fail;
	}
	for (i = 0; i < samples && !view_stopped; i++) {
		want = view_step(v) + 1;
		t0 = view_now();
		if (hxd_step(c, 1, NULL) != HXD_OK) {
			fprintf(stderr, "hxview: bench: cannot step: %s\n",
			    hxd_error(c));
			if (!st.paused)
				hxd_run(c);
			goto fail;
		}
		while (view_step(v) < want) {
			rc = view_pump(v, 1000, why, sizeof(why));
			if (rc < 0 || (rc == 0 && view_now() - t0 > 5)) {
				fprintf(stderr,
				    "hxview: bench: no frame of step %llu: "
				    "%s\n",
				    want, rc < 0 ? why : "none within 5 s");
				if (!st.paused)
					hxd_run(c);
				goto fail;
			}
		}
		recv[i] = view_now() - t0;
		view_render(v, rgb);
		lat[i] = view_now() - t0;
	}
	/* Leave the simulation as it was. */
	if (!st.paused && hxd_run(c) != HXD_OK)
		fprintf(stderr, "hxview: bench: cannot run again: %s\n",
		    hxd_error(c));
	qsort(lat, (size_t)i, sizeof(*lat), compare_double);
	qsort(recv, (size_t)i, sizeof(*recv), compare_double);
	if (i > 0) {
		t = lat[i / 2];
		printf("latency:      median %.2f ms, p90 %.2f ms, max %.2f ms "
		       "(%ld steps: step call to frame read back)\n",
		    t * 1e3, lat[(i * 9) / 10] * 1e3, lat[i - 1] * 1e3, i);
		printf("of which:     median %.3f ms, p90 %.3f ms until the "
		       "step's state arrived\n",
		    recv[i / 2] * 1e3, recv[(i * 9) / 10] * 1e3);
	}
	free(rgb);
	free(lat);
	free(recv);
	return VIEW_OK;
fail:
	free(rgb);
	free(lat);
	free(recv);
	return VIEW_FAIL;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
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
		{ "max-connections", required_argument, NULL,
		    OPT_MAX_CONNECTIONS },
		{ "latency", required_argument, NULL, OPT_LATENCY },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct view_options o;
	struct view_cmd cmd;
	struct sigaction sa;
	struct view *v;
	const char *what;
	char err[1024], extra;
	double x;
	long n;
	int ch, rc, takes, fps_given = 0;

	memset(&o, 0, sizeof(o));
	memset(&cmd, 0, sizeof(cmd));
	o.egl = "auto";
	o.width = 640;
	o.height = 480;
	o.fps = 30;
	o.azimuth = o.elevation = o.distance = NAN;
	o.lookat[0] = o.lookat[1] = o.lookat[2] = NAN;
	o.info = o.sensors = 1;
	cmd.http.listen = "127.0.0.1:8080";
	cmd.http.quality = 80;
	cmd.http.max_connections = 32;
	opterr = 0;
	while (
	    (ch = getopt_long(argc, argv, ":s:o:hV", longopts, NULL)) != -1) {
		switch (ch) {
		case 's':
			o.server = optarg;
			break;
		case 'o':
			cmd.output = optarg;
			cmd.given |= GIVEN_OUTPUT;
			break;
		case 'h':
			usage(stdout);
			return VIEW_OK;
		case 'V':
			usage_version("hxview");
			return VIEW_OK;
		case OPT_SIZE:
			if (sscanf(optarg, "%dx%d%c", &o.width, &o.height,
				&extra) != 2 ||
			    o.width < 16 || o.height < 16 ||
			    o.width > VIEW_SIZE_MAX || o.height > VIEW_SIZE_MAX)
				return usage_error(
				    "--size: '%s' is not WIDTHxHEIGHT "
				    "(16 to %d each)",
				    optarg, VIEW_SIZE_MAX);
			break;
		case OPT_FPS:
			if (parse_number(optarg, &o.fps) != 0 || o.fps <= 0 ||
			    o.fps > VIEW_FPS_MAX)
				return usage_error("--fps: '%s' is not a rate "
						   "(more than 0, at most %g)",
				    optarg, VIEW_FPS_MAX);
			fps_given = 1;
			break;
		case OPT_EGL:
			if (strcmp(optarg, "auto") != 0 &&
			    strcmp(optarg, "device") != 0 &&
			    strcmp(optarg, "surfaceless") != 0)
				return usage_error("--egl: '%s' is not auto, "
						   "device or surfaceless",
				    optarg);
			o.egl = optarg;
			break;
		case OPT_CAMERA:
		case OPT_TRACK:
			if (o.camera != VIEW_CAMERA_FREE)
				return usage_error(
				    "give one of --camera and --track");
			if (snprintf(o.camera_name, sizeof(o.camera_name), "%s",
				optarg) >= (int)sizeof(o.camera_name))
				return usage_error(
				    "'%s' is too long for a name", optarg);
			o.camera = ch == OPT_CAMERA ? VIEW_CAMERA_FIXED :
						      VIEW_CAMERA_TRACK;
			break;
		case OPT_AZIMUTH:
		case OPT_ELEVATION:
		case OPT_DISTANCE:
			what = ch == OPT_AZIMUTH ? "azimuth" :
			    ch == OPT_ELEVATION  ? "elevation" :
						   "distance";
			if (parse_number(optarg, &x) != 0 ||
			    (ch == OPT_DISTANCE && x <= 0))
				return usage_error("--%s: '%s' is not %s", what,
				    optarg,
				    ch == OPT_DISTANCE ? "a distance (> 0)" :
							 "an angle");
			if (ch == OPT_AZIMUTH)
				o.azimuth = x;
			else if (ch == OPT_ELEVATION)
				o.elevation = x;
			else
				o.distance = x;
			break;
		case OPT_LOOKAT:
			if (sscanf(optarg, "%lf,%lf,%lf%c", &o.lookat[0],
				&o.lookat[1], &o.lookat[2], &extra) != 3 ||
			    !isfinite(o.lookat[0]) || !isfinite(o.lookat[1]) ||
			    !isfinite(o.lookat[2]))
				return usage_error(
				    "--lookat: '%s' is not X,Y,Z", optarg);
			break;
		case OPT_SHOW:
		case OPT_HIDE:
			if (view_flags_parse(&o, optarg, ch == OPT_SHOW, err,
				sizeof(err)) != 0)
				return usage_error("--%s: %s",
				    ch == OPT_SHOW ? "show" : "hide", err);
			break;
		case OPT_GEOM_GROUPS:
		case OPT_SITE_GROUPS:
			if (parse_groups(optarg,
				ch == OPT_GEOM_GROUPS ? o.geomgroup :
							o.sitegroup) != 0)
				return usage_error(
				    "--%s: '%s' is not a list of groups 0 to 5",
				    ch == OPT_GEOM_GROUPS ? "geom-groups" :
							    "site-groups",
				    optarg);
			if (ch == OPT_GEOM_GROUPS)
				o.geom_groups_given = 1;
			else
				o.site_groups_given = 1;
			break;
		case OPT_NO_INFO:
			o.info = 0;
			break;
		case OPT_NO_SENSORS:
			o.sensors = 0;
			break;
		case OPT_FRAMES:
			if (parse_count(optarg, 1, LONG_MAX, &n) != 0)
				return usage_error(
				    "--frames: '%s' is not a count (1 or more)",
				    optarg);
			cmd.frames = n;
			cmd.given |= GIVEN_FRAMES;
			break;
		case OPT_DURATION:
			if (parse_number(optarg, &cmd.duration) != 0 ||
			    cmd.duration <= 0)
				return usage_error("--duration: '%s' is not a "
						   "number of seconds (> 0)",
				    optarg);
			cmd.given |= GIVEN_DURATION;
			break;
		case OPT_HTTP:
			cmd.http.listen = optarg;
			cmd.given |= GIVEN_HTTP;
			break;
		case OPT_READ_ONLY:
			cmd.http.read_only = 1;
			cmd.given |= GIVEN_HTTP;
			break;
		case OPT_QUALITY:
			if (parse_count(optarg, 1, 100, &n) != 0)
				return usage_error(
				    "--quality: '%s' is not 1 to 100", optarg);
			cmd.http.quality = (int)n;
			cmd.given |= GIVEN_HTTP;
			break;
		case OPT_MAX_CONNECTIONS:
			if (parse_count(optarg, 1, 10000, &n) != 0)
				return usage_error("--max-connections: '%s' is "
						   "not 1 to 10000",
				    optarg);
			cmd.http.max_connections = (int)n;
			cmd.given |= GIVEN_HTTP;
			break;
		case OPT_LATENCY:
			if (parse_count(optarg, 1, 100000, &n) != 0)
				return usage_error("--latency: '%s' is not a "
						   "count (1 to 100000)",
				    optarg);
			cmd.latency = n;
			cmd.given |= GIVEN_LATENCY;
			break;
		default:
			return usage_bad_option("hxview", ch, argv);
		}
	}
	if (optind >= argc)
		return usage_error("no command: snapshot, record, serve, "
				   "bench or egl");
	what = argv[optind];
	if (optind + 1 < argc)
		return usage_error(
		    "%s: unexpected argument '%s'", what, argv[optind + 1]);
	if (strcmp(what, "snapshot") == 0)
		takes = GIVEN_OUTPUT;
	else if (strcmp(what, "record") == 0)
		takes = GIVEN_OUTPUT | GIVEN_FRAMES | GIVEN_DURATION;
	else if (strcmp(what, "serve") == 0)
		takes = GIVEN_HTTP;
	else if (strcmp(what, "bench") == 0)
		takes = GIVEN_FRAMES | GIVEN_LATENCY;
	else if (strcmp(what, "egl") == 0)
		takes = 0;
	else
		return usage_error("unknown command '%s': snapshot, record, "
				   "serve, bench or egl",
		    what);
	if ((cmd.given & ~takes) != 0)
		return usage_error("%s does not take %s", what,
		    (cmd.given & ~takes & GIVEN_OUTPUT) ?
			"-o" :
			(cmd.given & ~takes & GIVEN_FRAMES) ?
			"--frames" :
			(cmd.given & ~takes & GIVEN_DURATION) ?
			"--duration" :
			(cmd.given & ~takes & GIVEN_HTTP) ?
			"--http, --read-only or --quality" :
			"--latency");
	if ((takes & GIVEN_OUTPUT) && cmd.output == NULL)
		return usage_error("%s needs -o PATH", what);
	if (strcmp(what, "record") == 0 && !is_directory(cmd.output) &&
	    (o.width % 2 != 0 || o.height % 2 != 0))
		return usage_error(
		    "record: Y4M (4:2:0) needs an even width and "
		    "height, not %dx%d",
		    o.width, o.height);
	if (strcmp(what, "serve") == 0) {
		if (http_check(&cmd.http, err, sizeof(err)) != 0)
			return usage_error("serve: %s", err);
		/*
		 * The workbench takes 60 frames a second unless --fps says
		 * fewer, and the state comes four times as often, so that a
		 * change reaches the page a few milliseconds after it
		 * happened rather than a frame later.
		 */
		if (!fps_given)
			o.fps = 60;
		o.stream_hz = fmin(4 * fmin(o.fps, 60), 240);
	}
	if (strcmp(what, "egl") == 0) {
		if (egl_start(o.egl, err, sizeof(err)) != 0) {
			fprintf(stderr, "hxview: %s\n", err);
			return VIEW_FAIL;
		}
		printf("%s\n", egl_description());
		egl_stop();
		return VIEW_OK;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	v = view_open(&o, strcmp(what, "bench") == 0 ? 1 : 0, err, sizeof(err));
	if (v == NULL) {
		fprintf(stderr, "hxview: %s\n", err);
		return VIEW_FAIL;
	}
	if (strcmp(what, "snapshot") == 0)
		rc = cmd_snapshot(v, &o, &cmd);
	else if (strcmp(what, "record") == 0)
		rc = cmd_record(v, &o, &cmd);
	else if (strcmp(what, "bench") == 0)
		rc = cmd_bench(v, &o, &cmd);
	else
		rc = http_serve(v, &o, &cmd.http);
	view_close(v);
	return rc;
}
