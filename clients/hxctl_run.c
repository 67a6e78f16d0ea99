/*
 * Running the simulation: step and run, plain or as lock-step batch
 * runs (in chunks with a progress line on a terminal), update, reset,
 * capture and speed.
 */
#include "config.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "haptixd.h"
#include "hxctl_common.h"
#include "program.h"

/* The server takes at most this many steps in one request. */
#define CTL_STEP_CHUNK 10000u

/* The most steps of one batch request (the server's BATCH_MAX_STEPS). */
#define CTL_BATCH_MAX 100000000u

/* On a terminal: steps of the first chunk of a batch, and the wall time
 * each later chunk aims at, in seconds. */
#define CTL_BATCH_FIRST 100u
#define CTL_BATCH_SECONDS 0.2

/* Runs shorter than this (seconds) show no progress line. */
#define CTL_PROGRESS_AFTER 0.5

/* What step (with batch options) and run --until ask of batch runs. */
struct batch_plan {
	unsigned long steps;   /* steps to take, or 0 to step until `until` */
	double until;          /* simulated time */
	hxd_control *control;  /* set before the first step, or NULL */
	unsigned record;       /* HXD_FIELDS() to print after steps */
	unsigned record_every; /* after every K-th step */
};

/* The options step and run share; each blanks the row it does not take. */
enum batch_opt { BO_CTRL, BO_RECORD, BO_EVERY, BO_SENSORS, BO_UNTIL, BO_COUNT };

static int step_plain(struct ctl *, unsigned long);
static int batch_prepare(struct ctl *, struct ctl_opt *, struct batch_plan *);
static int batch_run(struct ctl *, const struct batch_plan *);
static void batch_show(struct ctl *, const struct batch_plan *,
    unsigned long long, double, const hxd_sensor *);
static int batch_progress(
    struct ctl *, const struct batch_plan *, unsigned long long, double);
static void progress_clear(int);
static void batch_frames(const hxd_batch_result *, unsigned);
static unsigned batch_chunk(unsigned, unsigned, unsigned long long, double);

/*---------------------------------------------------------- stepping */

/* The options of step and run; each blanks the one it does not take. */
#define BATCH_OPTS \
	{ \
		[BO_CTRL] = { "--ctrl", OPT_LIST, 0, NULL, 0, 0 }, \
		[BO_RECORD] = { "--record", OPT_STRING, 0, NULL, 0, 0 }, \
		[BO_EVERY] = { "--record-every", OPT_STRING, 0, NULL, 0, 0 }, \
		[BO_SENSORS] = { "--sensors", OPT_FLAG, 0, NULL, 0, 0 }, \
		[BO_UNTIL] = { "--until", OPT_STRING, 0, NULL, 0, 0 }, \
	}

/*
 * Take N steps.  Plain, as HAPTIX's mj_step: while paused, in requests
 * the server accepts; while running, none.  With a batch option, one
 * lock-step batch run that prints the sensors.
 */
int
cmd_step(struct ctl *ctl)
{
	struct ctl_opt opts[BO_COUNT] = BATCH_OPTS;
	struct batch_plan plan;
	int i, k, rc, have_n = 0;
	long v;

	memset(&plan, 0, sizeof(plan));
	plan.steps = 1;
	opts[BO_UNTIL].name = NULL;
	if ((rc = ctl_options(ctl, opts, NELEM(opts))) != 0)
		return rc;
	/* N, wherever it stands; the other arguments are NAME=V. */
	for (i = k = 0; i < ctl->npos; i++) {
		if (strchr(ctl->pos[i], '=') != NULL) {
			ctl->pos[k++] = ctl->pos[i];
			continue;
		}
		if (have_n)
			return ctl_usage_error(
			    ctl, "unexpected argument '%s'", ctl->pos[i]);
		if (parse_long(ctl->pos[i], 1, LONG_MAX, &v) != 0 ||
		    (unsigned long)v > UINT_MAX)
			return ctl_usage_error(ctl,
			    "'%s' is not a number of steps (1 to %u)",
			    ctl->pos[i], UINT_MAX);
		plan.steps = (unsigned long)v;
		have_n = 1;
	}
	ctl->npos = k;
	for (i = 0; i < BO_COUNT && !opts[i].given; i++)
		;
	if (i == BO_COUNT && ctl->npos == 0)
		return step_plain(ctl, plan.steps);
	if ((rc = batch_prepare(ctl, opts, &plan)) == 0)
		rc = batch_run(ctl, &plan);
	free(plan.control);
	return rc;
}

/* Take total steps with hxd_step(), the HAPTIX way; show the time. */
static int
step_plain(struct ctl *ctl, unsigned long total)
{
	unsigned long done = 0;
	unsigned chunk, taken;
	hxd_status st;
	int rc;

	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	while (done < total) {
		chunk = total - done > CTL_STEP_CHUNK ?
		    CTL_STEP_CHUNK :
		    (unsigned)(total - done);
		if (hxd_step(ctl->conn, chunk, &taken) != HXD_OK)
			return ctl_fail(ctl);
		done += taken;
		if (taken < chunk)
			break;
	}
	if (hxd_status_get(ctl->conn, &st) != HXD_OK)
		return ctl_fail(ctl);
	if (done == 0 && !st.paused)
		fprintf(stderr,
		    "hxctl: %s: the simulation is running, so no "
		    "step was taken (hxctl pause first)\n",
		    ctl->cmd->name);
	if (ctl->json) {
		js_open('{');
		js_ku("steps", done);
		js_kn("time", st.time);
		js_kb("paused", st.paused);
		js_close('}');
	} else
		printf("%lu step%s, time %.10g\n", done, done == 1 ? "" : "s",
		    st.time);
	return CTL_OK;
}

/* Start the simulation, or with --until step it there in lock step. */
int
cmd_run(struct ctl *ctl)
{
	struct ctl_opt opts[BO_COUNT] = BATCH_OPTS;
	struct batch_plan plan;
	int i, rc;

	if (ctl->argc == 0) {
		if ((rc = ctl_connect(ctl)) != 0)
			return rc;
		return ctl_done(ctl, hxd_run(ctl->conn));
	}
	memset(&plan, 0, sizeof(plan));
	opts[BO_SENSORS].name = NULL;
	if ((rc = ctl_options(ctl, opts, NELEM(opts))) != 0)
		return rc;
	for (i = 0; i < ctl->npos; i++) {
		if (strchr(ctl->pos[i], '=') == NULL)
			return ctl_usage_error(
			    ctl, "unexpected argument '%s'", ctl->pos[i]);
	}
	if (!opts[BO_UNTIL].given)
		return ctl_usage_error(ctl,
		    "controls and --record go with --until T (run alone "
		    "starts the simulation)");
	if (parse_double(opts[BO_UNTIL].value, &plan.until) != 0 ||
	    plan.until <= 0)
		return ctl_usage_error(ctl,
		    "--until: '%s' is not a simulated time (> 0)",
		    opts[BO_UNTIL].value);
	if ((rc = batch_prepare(ctl, opts, &plan)) == 0)
		rc = batch_run(ctl, &plan);
	free(plan.control);
	return rc;
}

/*
 * Check the batch options and the NAME=V arguments in ctl->pos, then
 * build the controls (caller frees plan->control).  Returns 0,
 * CTL_USAGE or CTL_FAIL.
 */
static int
batch_prepare(struct ctl *ctl, struct ctl_opt *opts, struct batch_plan *plan)
{
	char name[CTL_NAME_MAX];
	const char *v;
	double x;
	long every = 1;
	int i, rc;

	for (i = 0; i < ctl->npos; i++) {
		v = parse_assign(ctl->pos[i], name, sizeof(name));
		if (v == NULL)
			return ctl_usage_error(
			    ctl, "'%s' is not NAME=V", ctl->pos[i]);
		if (parse_double(v, &x) != 0)
			return ctl_usage_error(
			    ctl, "%s: '%s' is not a finite number", name, v);
	}
	if (opts[BO_EVERY].given && !opts[BO_RECORD].given)
		return ctl_usage_error(
		    ctl, "--record-every goes with --record");
	if (opts[BO_RECORD].given &&
	    (rc = ctl_fields(
		 ctl, "--record", opts[BO_RECORD].value, &plan->record)) != 0)
		return rc;
	if (opts[BO_EVERY].given &&
	    parse_long(opts[BO_EVERY].value, 1, CTL_BATCH_MAX, &every) != 0)
		return ctl_usage_error(ctl,
		    "--record-every: '%s' is not a number of steps (1 to %u)",
		    opts[BO_EVERY].value, CTL_BATCH_MAX);
	plan->record_every = (unsigned)every;
	return controls_named(
	    ctl, &opts[BO_CTRL], ctl->pos, ctl->npos, &plan->control);
}

/*
 * Run a batch plan: in one request (or several of CTL_BATCH_MAX steps),
 * or on a terminal in chunks of about CTL_BATCH_SECONDS with progress
 * on stderr, which SIGINT and SIGTERM end early (status 1).  Chunks are whole
 * multiples of record_every, so that the recorded steps fall where one request
 * would put them, and only the first sets the controls.  Prints the trajectory
 * as it comes, then the steps, the time and the sensors.
 */
static int
batch_run(struct ctl *ctl, const struct batch_plan *p)
{
	hxd_batch b;
	hxd_batch_result *r, *last = NULL;
	hxd_status st;
	unsigned long long done = 0;
	unsigned every = p->record_every, chunk;
	double t, dt, left, started, t0;
	int chunked, progress, shown = 0, rc = CTL_OK, final;

	if ((rc = ctl_connect(ctl)) != 0 || (rc = ctl_get_info(ctl)) != 0)
		return rc;
	if (hxd_status_get(ctl->conn, &st) != HXD_OK)
		return ctl_fail(ctl);
	t = st.time;
	dt = st.model.timestep;
	chunked = isatty(STDOUT_FILENO);
	progress = chunked && isatty(STDERR_FILENO);
	/* On a terminal, ^C stops the run between two chunks. */
	if (chunked)
		ctl_signals();
	chunk = CTL_BATCH_FIRST + every - 1 -
	    (CTL_BATCH_FIRST + every - 1) % every;
	started = program_now();
	for (;;) {
		memset(&b, 0, sizeof(b));
		b.control = last == NULL ? p->control : NULL;
		b.record = p->record;
		b.record_every = every;
		if (p->steps != 0)
			left = (double)(p->steps - done);
		else
			left = dt > 0 ? ceil((p->until - t) / dt - 0.5) : 0;
		final = left <= (chunked ? chunk : CTL_BATCH_MAX);
		if (final && p->steps != 0)
			b.steps = (unsigned)left;
		else if (final)
			b.until_time = p->until;
		else
			b.steps = chunked ?
			    chunk :
			    CTL_BATCH_MAX - CTL_BATCH_MAX % every;
		t0 = program_now();
		if (hxd_batch_run(ctl->conn, &b, &r) != HXD_OK) {
			progress_clear(shown);
			shown = 0;
			rc = ctl_fail(ctl);
			break;
		}
		batch_frames(r, p->record);
		done += r->steps;
		t = r->time;
		hxd_batch_result_free(last);
		last = r;
		if (final || r->steps < b.steps)
			break;
		chunk = batch_chunk(chunk, every, r->steps, program_now() - t0);
		if (progress && program_now() - started >= CTL_PROGRESS_AFTER)
			shown = batch_progress(ctl, p, done, t);
		if (ctl_stopped)
			break;
	}
	progress_clear(shown);
	if (rc == CTL_OK)
		batch_show(ctl, p, done, t, last->sensor);
	hxd_batch_result_free(last);
	if (rc == CTL_OK && ctl_stopped) {
		fprintf(stderr, "hxctl: %s: interrupted after %llu steps\n",
		    ctl->cmd->name, done);
		rc = CTL_FAIL;
	}
	return rc;
}

/* Print a chunk's frames (the fields of record) as JSON Lines, flushed. */
static void
batch_frames(const hxd_batch_result *r, unsigned record)
{
	int i;

	for (i = 0; i < r->ntrajectory; i++) {
		js_open('{');
		js_ks("event", "frame");
		stream_frame_json(r->trajectory[i], record, 0);
		js_close('}');
	}
	fflush(stdout);
}

/*
 * The next chunk's size after one of chunk steps made steps in el
 * seconds: what takes CTL_BATCH_SECONDS at that pace, at most eight
 * times as many and CTL_BATCH_MAX, a multiple of every.
 */
static unsigned
batch_chunk(unsigned chunk, unsigned every, unsigned long long steps, double el)
{
	double want;

	if (el <= 0 || steps == 0)
		return chunk;
	want = (double)steps * CTL_BATCH_SECONDS / el;
	if (want > 8.0 * chunk)
		want = 8.0 * chunk;
	if (want > CTL_BATCH_MAX)
		want = CTL_BATCH_MAX;
	chunk = (unsigned)want - (unsigned)want % every;
	if (chunk < every)
		chunk = every;
	return chunk;
}

/* Show how far a batch run is, on one line of stderr; its length. */
static int
batch_progress(struct ctl *ctl, const struct batch_plan *p,
    unsigned long long done, double t)
{
	int n;

	if (p->steps != 0)
		n = fprintf(stderr,
		    "\rhxctl: %s: %llu of %lu steps, time %.6g ",
		    ctl->cmd->name, done, p->steps, t);
	else
		n = fprintf(stderr,
		    "\rhxctl: %s: time %.6g of %.6g, %llu steps ",
		    ctl->cmd->name, t, p->until, done);
	fflush(stderr);
	return n > 0 ? n : 0;
}

/* Blank a progress line len characters long, if one is shown. */
static void
progress_clear(int len)
{
	if (len > 0)
		fprintf(stderr, "\r%*s\r", len, "");
}

/*
 * Show the end of a batch run: with --record a last JSON line, with
 * --json one object, else the steps and time and the sensors by sensor.
 */
static void
batch_show(struct ctl *ctl, const struct batch_plan *p, unsigned long long done,
    double t, const hxd_sensor *s)
{
	if (p->record != 0 || ctl->json) {
		js_open('{');
		if (p->record != 0)
			js_ks("event", "batch");
		js_ku("steps", done);
		js_kn("time", t);
		js_kb("paused", 1);
		js_ki("nsensordata", s->nsensordata);
		js_kv("sensordata", s->sensordata, s->nsensordata);
		if (ctl->info != NULL)
			view_sensor_json(ctl->info, s);
		js_close('}');
		return;
	}
	printf("%llu step%s, time %.10g\n", done, done == 1 ? "" : "s", t);
	view_sensor_print(&view_sensor, ctl->info, s);
}

/*-------------------------------------- the course of the simulation */

/* Set the controls if given, step or wait a tick, show the sensors. */
int
cmd_update(struct ctl *ctl)
{
	hxd_control *c = NULL;
	hxd_sensor *s = NULL;
	int named, rc;

	if ((rc = controls_check(ctl, ctl->argv, ctl->argc, &named)) != 0 ||
	    (ctl->argc > 0 &&
		(rc = controls_build(ctl, ctl->argv, ctl->argc, named, &c)) !=
		    0))
		return rc;
	if ((rc = ctl_connect(ctl)) == 0 && (rc = ctl_get_info(ctl)) == 0) {
		if (hxd_update(ctl->conn, c, &s) != HXD_OK)
			rc = ctl_fail(ctl);
		else
			view_show(ctl, &view_sensor, s);
	}
	free(s);
	free(c);
	return rc;
}

/*
 * Reset to a keyframe by index, to a keyframe or captured state by name,
 * or to the reference pose; the model's parameters too unless
 * --keep-params; with --run, then run, for sweeps from the shell.
 */
int
cmd_reset(struct ctl *ctl)
{
	struct ctl_opt opts[] = {
		{ .name = "--keep-params", .kind = OPT_FLAG },
		{ .name = "--run", .kind = OPT_FLAG },
	};
	const char *name = NULL;
	long key = -1;
	int rc, r;

	if ((rc = ctl_options(ctl, opts, NELEM(opts))) != 0)
		return rc;
	if (ctl->npos > 1)
		return ctl_usage_error(
		    ctl, "unexpected argument '%s'", ctl->pos[1]);
	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	if (ctl->npos == 1 &&
	    parse_long(ctl->pos[0], INT_MIN, INT_MAX, &key) != 0)
		name = ctl->pos[0];
	if (opts[0].given)
		r = hxd_reset_keep(ctl->conn, (int)key, name);
	else if (name != NULL)
		r = hxd_reset_name(ctl->conn, name);
	else
		r = hxd_reset(ctl->conn, (int)key);
	if (r == HXD_OK && opts[1].given)
		r = hxd_run(ctl->conn);
	if (name != NULL)
		return ctl_done_named(ctl, r, HXD_OBJ_KEY, name);
	return ctl_done(ctl, r);
}

/*
 * Capture the state into a keyframe, by index or name, or under a name
 * of its own that the server keeps until the next model load.
 */
int
cmd_capture(struct ctl *ctl)
{
	const char *arg = ctl->argv[0];
	long key;
	int rc;

	if (arg[0] == '\0')
		return ctl_usage_error(ctl, "the name is empty");
	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	if (parse_long(arg, INT_MIN, INT_MAX, &key) == 0)
		return ctl_done(
		    ctl, hxd_capture_key(ctl->conn, NULL, (int)key));
	return ctl_done(ctl, hxd_capture_key(ctl->conn, arg, 0));
}

/* Set the speed factor, or max. */
int
cmd_speed(struct ctl *ctl)
{
	double factor = 1;
	int max, rc;

	max = strcmp(ctl->argv[0], "max") == 0;
	if (!max && parse_double(ctl->argv[0], &factor) != 0)
		return ctl_usage_error(ctl,
		    "'%s' is neither a finite number nor max", ctl->argv[0]);
	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	return ctl_done(ctl, hxd_set_speed(ctl->conn, factor, max));
}
