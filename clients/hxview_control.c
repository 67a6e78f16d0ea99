/*
 * The workbench's control requests: POST /control/NAME, one row of a
 * table each, every one a call of the protocol as any client makes it
 * (the lease applies; the server's answer goes back to the page in
 * words).  hxview_http.c checks who asks before a row is run.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hxview_control.h"

/* A number argument; 0, or -1 with why in r->err. */
static int
control_number(struct control_req *r, const char *name, double *out)
{
	const char *s = control_arg(r, name);
	char *end;

	if (s == NULL) {
		snprintf(r->err, sizeof(r->err), "no %s given", name);
		return -1;
	}
	errno = 0;
	*out = strtod(s, &end);
	if (s[0] == '\0' || *end != '\0' || errno != 0 || !isfinite(*out)) {
		snprintf(r->err, sizeof(r->err), "%s: '%.100s' is not a number",
		    name, s);
		return -1;
	}
	return 0;
}

/* An optional number argument: dflt when absent. */
static int
control_number_or(
    struct control_req *r, const char *name, double dflt, double *out)
{
	if (control_arg(r, name) == NULL) {
		*out = dflt;
		return 0;
	}
	return control_number(r, name, out);
}

/* "X,Y,Z": n numbers; 0, or -1 with why. */
static int
control_vector(struct control_req *r, const char *name, double *out, int n)
{
	const char *s = control_arg(r, name);
	char *end;
	int i;

	if (s == NULL) {
		snprintf(r->err, sizeof(r->err), "no %s given", name);
		return -1;
	}
	for (i = 0; i < n; i++) {
		errno = 0;
		out[i] = strtod(s, &end);
		if (end == s || errno != 0 || !isfinite(out[i]) ||
		    *end != (i + 1 < n ? ',' : '\0')) {
			snprintf(r->err, sizeof(r->err),
			    "%s: '%.100s' is not %d numbers with commas", name,
			    control_arg(r, name), n);
			return -1;
		}
		s = end + 1;
	}
	return 0;
}

/* The server's words for a failed call, as the answer's error. */
static int
control_server(struct control_req *r, int rc)
{
	if (rc == HXD_OK)
		return CONTROL_OK;
	snprintf(r->err, sizeof(r->err), "%s", hxd_error(r->c));
	return rc == HXD_DENIED ? CONTROL_DENIED : CONTROL_REFUSED;
}

static int
control_pause(struct control_req *r)
{
	return control_server(r, hxd_pause(r->c));
}

static int
control_run(struct control_req *r)
{
	return control_server(r, hxd_run(r->c));
}

/*
 * The speed: factor times real time (1e-6 to 1e6; below 1, slow
 * motion), or max=1 for as fast as the CPU allows.
 */
static int
control_speed(struct control_req *r)
{
	double factor, max;

	if (control_number_or(r, "max", 0, &max) != 0 ||
	    control_number_or(r, "factor", 1, &factor) != 0)
		return CONTROL_BAD;
	if (max == 0 && !(factor >= 1e-6 && factor <= 1e6)) {
		snprintf(r->err, sizeof(r->err),
		    "factor: 1e-6 to 1e6 times real time");
		return CONTROL_BAD;
	}
	return control_server(r, hxd_set_speed(r->c, factor, max != 0));
}

/* The most values one array control writes: the Physics panel's. */
#define CONTROL_ARRAY_MAX 16

/*
 * Write values (a comma list) into an array by name from element
 * offset: the Physics panel's mjOption fields (opt.timestep,
 * opt.gravity, ...), checked by the server as any set_array.
 */
static int
control_array(struct control_req *r)
{
	const char *name = control_arg(r, "name"), *s;
	double v[CONTROL_ARRAY_MAX], offset;
	int n = 1;

	if (name == NULL || name[0] == '\0') {
		snprintf(r->err, sizeof(r->err), "no array name given");
		return CONTROL_BAD;
	}
	if ((s = control_arg(r, "values")) == NULL) {
		snprintf(r->err, sizeof(r->err), "no values given");
		return CONTROL_BAD;
	}
	for (; *s != '\0'; s++)
		n += *s == ',';
	if (n > CONTROL_ARRAY_MAX) {
		snprintf(r->err, sizeof(r->err),
		    "values: at most %d in one write", CONTROL_ARRAY_MAX);
		return CONTROL_BAD;
	}
	if (control_vector(r, "values", v, n) != 0 ||
	    control_number_or(r, "offset", 0, &offset) != 0)
		return CONTROL_BAD;
	if (!(offset >= 0 && offset <= 1e9) || offset != (int)offset) {
		snprintf(r->err, sizeof(r->err), "offset: an element index");
		return CONTROL_BAD;
	}
	return control_server(r, hxd_set_array(r->c, name, (int)offset, n, v));
}

/* Reset: to the reference pose, a keyframe by name, or by index. */
static int
control_reset(struct control_req *r)
{
	const char *key = control_arg(r, "key");
	double index;

	if (key != NULL && key[0] != '\0')
		return control_server(r, hxd_reset_name(r->c, key));
	if (control_number_or(r, "index", -1, &index) != 0)
		return CONTROL_BAD;
	return control_server(r, hxd_reset(r->c, (int)index));
}

/* Resume the run from a kept state of the history (the timeline). */
static int
control_resume(struct control_req *r)
{
	double back;

	if (control_number(r, "back", &back) != 0)
		return CONTROL_BAD;
	if (back < 0 || back != floor(back) || back > 4294967295.0) {
		snprintf(r->err, sizeof(r->err),
		    "back: a count of kept states before the newest");
		return CONTROL_BAD;
	}
	return control_server(r, hxd_history_resume(r->c, (unsigned)back));
}

/* Steps while paused (the right arrow). */
static int
control_step(struct control_req *r)
{
	unsigned taken = 0;
	double count;
	int rc;

	if (control_number_or(r, "count", 1, &count) != 0)
		return CONTROL_BAD;
	if (count < 1 || count > 100000) {
		snprintf(r->err, sizeof(r->err), "count: 1 to 100000");
		return CONTROL_BAD;
	}
	rc = hxd_step(r->c, (unsigned)count, &taken);
	if (rc == HXD_OK)
		fprintf(r->out, ",\"taken\":%u", taken);
	return control_server(r, rc);
}

/* One actuator's control, by index (the Sliders dialog while running). */
static int
control_ctrl(struct control_req *r)
{
	double index, value;

	if (control_number(r, "index", &index) != 0 ||
	    control_number(r, "value", &value) != 0)
		return CONTROL_BAD;
	if (index < 0 || index != floor(index) || index > 1e6) {
		snprintf(r->err, sizeof(r->err), "index: an actuator's number");
		return CONTROL_BAD;
	}
	return control_server(
	    r, hxd_set_array(r->c, "ctrl", (int)index, 1, &value));
}

/* One hinge or slide joint's position (the Sliders dialog, paused). */
static int
control_joint(struct control_req *r)
{
	const char *name = control_arg(r, "name");
	double value;

	if (name == NULL || name[0] == '\0') {
		snprintf(r->err, sizeof(r->err), "no joint name given");
		return CONTROL_BAD;
	}
	if (control_number(r, "value", &value) != 0)
		return CONTROL_BAD;
	return control_server(r, hxd_set_joint(r->c, name, &value, 1, NULL, 0));
}

/* Capture the state as a keyframe of that name (HAPTIX's Sim=>Key). */
static int
control_capture(struct control_req *r)
{
	const char *name = control_arg(r, "name");

	if (name == NULL || name[0] == '\0') {
		snprintf(r->err, sizeof(r->err), "no keyframe name given");
		return CONTROL_BAD;
	}
	return control_server(r, hxd_capture_key(r->c, name, -1));
}

static int
control_record_start(struct control_req *r)
{
	hxd_recording rec;
	int rc;

	rc = hxd_record_start(r->c, 0, 0, 0, &rec);
	if (rc == HXD_OK) {
		fputs(",\"path\":", r->out);
		json_string(r->out, rec.path);
	}
	return control_server(r, rc);
}

static int
control_record_stop(struct control_req *r)
{
	hxd_recording rec;
	int rc;

	rc = hxd_record_stop(r->c, &rec);
	if (rc == HXD_OK) {
		fputs(",\"path\":", r->out);
		json_string(r->out, rec.path);
		fprintf(r->out, ",\"records\":%llu", rec.records);
	}
	return control_server(r, rc);
}

/* Load a model file of the server's model directories. */
static int
control_load(struct control_req *r)
{
	const char *path = control_arg(r, "path");
	hxd_model m;
	int rc;

	if (path == NULL || path[0] == '\0') {
		snprintf(r->err, sizeof(r->err), "no model path given");
		return CONTROL_BAD;
	}
	rc = hxd_load_file(r->c, path, &m);
	if (rc == HXD_OK) {
		fputs(",\"name\":", r->out);
		json_string(r->out, m.name);
	}
	return control_server(r, rc);
}

/* The browser's selection: a body and the point the click hit. */
static int
control_select(struct control_req *r)
{
	double body, point[3] = { 0, 0, 0 };

	if (r->pert == NULL) {
		snprintf(r->err, sizeof(r->err),
		    "no such browser: id names the page's event stream");
		return CONTROL_BAD;
	}
	if (control_number(r, "body", &body) != 0 ||
	    (body > 0 && control_vector(r, "point", point, 3) != 0))
		return CONTROL_BAD;
	web_pert_stop(r->v, r->pert, r->c);
	if (web_pert_select(
		r->v, r->pert, (int)body, point, r->err, sizeof(r->err)) != 0)
		return CONTROL_BAD;
	/* The selection shows at once, paused too. */
	r->reframe = 1;
	return CONTROL_OK;
}

/* The browser's camera, sent with each perturbation request. */
static int
control_camera(struct control_req *r, struct web_camera *cam)
{
	if (control_vector(r, "pos", cam->pos, 3) != 0 ||
	    control_vector(r, "forward", cam->forward, 3) != 0 ||
	    control_vector(r, "up", cam->up, 3) != 0 ||
	    control_number(r, "fovy", &cam->fovy) != 0)
		return -1;
	if (cam->fovy <= 0 || cam->fovy >= 180) {
		snprintf(r->err, sizeof(r->err), "fovy: 0 to 180 degrees");
		return -1;
	}
	return 0;
}

/*
 * Perturb the selected body: start (rotate=1 to turn it), move by
 * action dx dy (mjtMouse, fractions of the page's height), or end.
 */
static int
control_perturb(struct control_req *r)
{
	const char *what = control_arg(r, "do");
	struct web_camera cam;
	double rotate, action, dx, dy;
	int rc;

	if (r->pert == NULL) {
		snprintf(r->err, sizeof(r->err),
		    "no such browser: id names the page's event stream");
		return CONTROL_BAD;
	}
	if (what != NULL && strcmp(what, "end") == 0)
		return control_server(r, web_pert_stop(r->v, r->pert, r->c));
	if (what == NULL ||
	    (strcmp(what, "start") != 0 && strcmp(what, "move") != 0)) {
		snprintf(r->err, sizeof(r->err), "do: start, move or end");
		return CONTROL_BAD;
	}
	if (control_camera(r, &cam) != 0)
		return CONTROL_BAD;
	if (strcmp(what, "start") == 0) {
		if (control_number_or(r, "rotate", 0, &rotate) != 0)
			return CONTROL_BAD;
		if (web_pert_start(r->v, r->pert, rotate != 0, &cam, r->err,
			sizeof(r->err)) != 0)
			return CONTROL_BAD;
	} else {
		if (control_number(r, "action", &action) != 0 ||
		    control_number(r, "dx", &dx) != 0 ||
		    control_number(r, "dy", &dy) != 0)
			return CONTROL_BAD;
		if (web_pert_move(r->v, r->pert, (int)action, dx, dy, &cam,
			r->err, sizeof(r->err)) != 0)
			return CONTROL_BAD;
	}
	/* At once, not at the next tick: the page sees it move sooner. */
	rc = web_pert_drive(r->v, r->pert, r->c);
	return control_server(r, rc);
}

/* A whole number argument of at most max; 0, or -1 with why. */
static int
control_whole(struct control_req *r, const char *name, double max, long *out)
{
	double x;

	if (control_number(r, name, &x) != 0)
		return -1;
	if (x < 0 || x > max || x != floor(x)) {
		snprintf(r->err, sizeof(r->err),
		    "%s: a whole number, 0 to %.0f", name, max);
		return -1;
	}
	*out = (long)x;
	return 0;
}

/*
 * What the browser shows, as simulate's Rendering panel: its flags
 * (mjtVisFlag bits), frame and label, and the groups of its joints',
 * tendons' and actuators' decorations (jointgroup, tendongroup,
 * actuatorgroup: masks of 6 bits, simulate's 0, 1 and 2 when not
 * given).  hxview makes each frame's decorations for all its browsers,
 * only the kinds some browser shows, and sends each its own.
 */
static int
control_show(struct control_req *r)
{
	static const char *const group_args[3] = { "jointgroup", "tendongroup",
		"actuatorgroup" };
	long flags, frame, label, groups[3];
	int i;

	if (r->pert == NULL) {
		snprintf(r->err, sizeof(r->err),
		    "no such browser: id names the page's event stream");
		return CONTROL_BAD;
	}
	if (control_whole(r, "flags", 4294967295.0, &flags) != 0 ||
	    control_whole(r, "frame", 1000, &frame) != 0 ||
	    control_whole(r, "label", 1000, &label) != 0)
		return CONTROL_BAD;
	for (i = 0; i < 3; i++) {
		groups[i] = WEB_GROUPS_DEFAULT;
		if (control_arg(r, group_args[i]) != NULL &&
		    control_whole(r, group_args[i], 1000, &groups[i]) != 0)
			return CONTROL_BAD;
	}
	if (web_pert_show(r->pert, (unsigned long)flags, frame, label, groups,
		r->err, sizeof(r->err)) != 0)
		return CONTROL_BAD;
	r->reframe = 1;
	return CONTROL_OK;
}

/*
 * A scale of decorations (simulate's Visualization panel) by name:
 * hxview's own, for all its browsers; the scales answered.
 */
static int
control_scale(struct control_req *r)
{
	const char *name = control_arg(r, "name");
	double value;

	if (name == NULL || name[0] == '\0') {
		snprintf(r->err, sizeof(r->err), "no scale name given");
		return CONTROL_BAD;
	}
	if (control_number(r, "value", &value) != 0 ||
	    web_scale_set(r->v, name, value, r->err, sizeof(r->err)) != 0)
		return CONTROL_BAD;
	fputs(",\"scale\":", r->out);
	web_scale_write(r->v, r->out);
	r->reframe = 1;
	return CONTROL_OK;
}

/*
 * The rows: name, whether it writes (the simulation, or what hxview
 * shows every browser), the handler.
 */
static const struct control_row {
	const char *name;
	int writes; /* refused by --read-only */
	int (*fn)(struct control_req *);
} control_rows[] = {
	{ "pause", 1, control_pause },
	{ "run", 1, control_run },
	{ "speed", 1, control_speed },
	{ "array", 1, control_array },
	{ "reset", 1, control_reset },
	{ "step", 1, control_step },
	{ "resume", 1, control_resume },
	{ "ctrl", 1, control_ctrl },
	{ "joint", 1, control_joint },
	{ "capture", 1, control_capture },
	{ "record-start", 1, control_record_start },
	{ "record-stop", 1, control_record_stop },
	{ "load", 1, control_load },
	{ "select", 0, control_select },
	{ "perturb", 1, control_perturb },
	{ "show", 0, control_show },
	{ "scale", 1, control_scale },
};

int
control_find(const char *name, int *writes)
{
	size_t i;

	for (i = 0; i < sizeof(control_rows) / sizeof(control_rows[0]); i++)
		if (strcmp(control_rows[i].name, name) == 0) {
			*writes = control_rows[i].writes;
			return (int)i;
		}
	return -1;
}

int
control_call(int row, struct control_req *r)
{
	return control_rows[row].fn(r);
}

void
control_names(FILE *f)
{
	size_t i;

	for (i = 0; i < sizeof(control_rows) / sizeof(control_rows[0]); i++)
		fprintf(f, "%s%s", i > 0 ? ", " : "", control_rows[i].name);
}
