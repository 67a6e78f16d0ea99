/*
 * hx-foxglove's side of the simulation.  It follows the daemon as hxview
 * does: the model as MJB (hxd_get_model, mjb_memory.c), the state as
 * stream frames at --fps of wall time with every event, each frame put
 * into its own mjData and mj_forward run for what a frame does not
 * carry (the bodies' poses, the contacts and their forces); the sensor
 * values are the daemon's own.  Each frame then becomes one message on
 * each state topic, as hxplay export --mcap writes a record
 * (foxglove_msg.c); the scene goes out once per model, and again when a
 * write through the API (set_rgba, set_geomsize, ...) changed it; the
 * events are foxglove.Log messages.
 *
 * Messages are stamped with the wall clock (ns since the epoch), the
 * time Foxglove's live view follows; the simulated time and step are in
 * each message.  A "segment" counts the runs since hx-foxglove started:
 * a reset or a new model begins the next, as in a recording.
 */
#include "config.h"

#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mujoco/mujoco.h>

#include "foxglove_live.h"
#include "foxglove_msg.h"
#include "foxglove_schema.h"
#include "foxglove_ws.h"
#include "haptixd.h"
#include "mjb_memory.h"
#include "program.h"

/* The first wait before connecting again, and the longest. */
#define LIVE_RETRY_FIRST 0.25
#define LIVE_RETRY_MAX 5.0
/* The newest events a late subscriber to /events still gets. */
#define LIVE_EVENTS_KEPT 64

struct live {
	char server[300];
	double fps;
	struct fws *ws;
	int ch[FOX_NTOPIC];
	hxd_conn *c;
	mjModel *m;
	mjData *d;
	char model_name[256];
	unsigned long long edits; /* the status's model_edits of m */
	uint64_t segment;
	struct mmsg j;

	int gone;
	double retry, retry_at;
};

/* MuJoCo's errors come back here instead of ending hx-foxglove. */
static jmp_buf live_jump;
static char live_mujoco_error[512];

static void
live_on_error(const char *msg)
{
	snprintf(live_mujoco_error, sizeof(live_mujoco_error), "%s", msg);
	longjmp(live_jump, 1);
}

static void
live_on_warning(const char *msg)
{
	static int told;

	/* The daemon's simulation says what matters; say ours once. */
	if (!told++)
		program_warn("MuJoCo: %s", msg);
}

/* The wall clock, in ns since the epoch. */
static uint64_t
live_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The message in l->j on topic t. */
static void
live_send(struct live *l, enum fox_topic t, uint64_t ns)
{
	if (mmsg_done(&l->j) != 0 ||
	    fws_publish(l->ws, l->ch[t], ns, l->j.p, l->j.len) != 0)
		program_warn(
		    "out of memory: a %s message lost", fox_topics[t].topic);
	if (mmsg_reset(&l->j) != 0)
		program_warn("out of memory");
}

static void live_event(struct live *l, int level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A foxglove.Log on /events: level 2 info, 3 warning, 4 error. */
static void
live_event(struct live *l, int level, const char *fmt, ...)
{
	char text[1200];
	va_list ap;
	uint64_t ns = live_ns();

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	mmsg_log(&l->j, ns, level, text);
	live_send(l, FOX_EVENTS, ns);
}

/* The scene of the model, for every subscriber old and new. */
static void
live_scene(struct live *l)
{
	uint64_t ns = live_ns();

	mmsg_scene(&l->j, l->m, ns);
	live_send(l, FOX_SCENE, ns);
}

/*
 * Fetch the daemon's model and make it l's (with the count of writes
 * into it asked first: a write between the two only fetches again).
 * 0, or -1 with why in err.
 */
static int
live_fetch(struct live *l, char *err, size_t len)
{
	mjModel *volatile m = NULL;
	hxd_model_blob blob;
	hxd_status st;
	mjData *d;

	if (hxd_status_get(l->c, &st) != HXD_OK ||
	    hxd_get_model(l->c, &blob) != HXD_OK) {
		snprintf(
		    err, len, "cannot fetch the model: %s", hxd_error(l->c));
		return -1;
	}
	if (blob.mujoco_version != mj_version()) {
		snprintf(err, len,
		    "the server runs MuJoCo %d and hx-foxglove %d: MJB models "
		    "only load in the version that wrote them",
		    blob.mujoco_version, mj_version());
		hxd_model_blob_free(&blob);
		return -1;
	}
	if (setjmp(live_jump) == 0)
		m = mjb_memory_load(blob.mjb, blob.size);
	if (m == NULL || (d = mj_makeData(m)) == NULL) {
		snprintf(err, len,
		    "MuJoCo cannot load the server's model \"%s\" (%zu bytes "
		    "of MJB)",
		    blob.name, blob.size);
		mj_deleteModel(m);
		hxd_model_blob_free(&blob);
		return -1;
	}
	snprintf(l->model_name, sizeof(l->model_name), "%s", blob.name);
	hxd_model_blob_free(&blob);
	mj_deleteData(l->d);
	mj_deleteModel(l->m);
	l->m = m;
	l->d = d;
	l->edits = st.model_edits;
	return 0;
}

/* Connect, fetch the model, subscribe: 0, or -1 with why in err. */
static int
live_attach(struct live *l, char *err, size_t len)
{
	hxd_subscription sub = { 0 };

	l->c = hxd_connect_timeout(
	    l->server[0] != '\0' ? l->server : NULL, "hx-foxglove", 5000);
	if (l->c == NULL || hxd_result(l->c) != HXD_OK) {
		snprintf(err, len, "%s",
		    l->c != NULL ? hxd_error(l->c) : "out of memory");
		return -1;
	}
	if (l->server[0] == '\0')
		snprintf(l->server, sizeof(l->server), "%s",
		    hxd_server_address(l->c));
	if (live_fetch(l, err, len) != 0)
		return -1;
	sub.fields = HXD_FIELDS(HXD_FIELD_QPOS) | HXD_FIELDS(HXD_FIELD_QVEL) |
	    HXD_FIELDS(HXD_FIELD_ACT) | HXD_FIELDS(HXD_FIELD_CTRL) |
	    HXD_FIELDS(HXD_FIELD_MOCAP) | HXD_FIELDS(HXD_FIELD_SENSORDATA) |
	    HXD_FIELDS(HXD_FIELD_QFRC_APPLIED) |
	    HXD_FIELDS(HXD_FIELD_XFRC_APPLIED) | HXD_FIELDS(HXD_FIELD_STATUS);
	sub.wall_hz = l->fps;
	sub.events = 1;
	if (hxd_subscribe(l->c, &sub, NULL) != HXD_OK) {
		snprintf(err, len, "cannot subscribe: %s", hxd_error(l->c));
		return -1;
	}
	l->segment++;
	return 0;
}

/* Whether the frame is of l's model. */
static int
live_fits(const struct live *l, const hxd_frame *f)
{
	const mjModel *m = l->m;

	return f->qpos != NULL && f->nq == m->nq && f->nv == m->nv &&
	    f->na == m->na && f->nu == m->nu && f->nmocap == m->nmocap &&
	    f->nsensordata == m->nsensordata &&
	    (f->xfrc_applied == NULL || f->nbody == m->nbody);
}

static void
live_copy(mjtNum *to, const double *from, int n)
{
	if (from != NULL && n > 0)
		memcpy(to, from, (size_t)n * sizeof(double));
}

/* The frame's state into mjData, and what MuJoCo computes from it. */
static int
live_forward(struct live *l, const hxd_frame *f)
{
	const mjModel *m = l->m;
	mjData *d = l->d;

	if (setjmp(live_jump) != 0) {
		program_warn(
		    "MuJoCo at step %llu: %s", f->step, live_mujoco_error);
		return -1;
	}
	mj_resetData(m, d);
	d->time = f->time;
	live_copy(d->qpos, f->qpos, m->nq);
	live_copy(d->qvel, f->qvel, m->nv);
	live_copy(d->act, f->act, m->na);
	live_copy(d->ctrl, f->ctrl, m->nu);
	live_copy(d->mocap_pos, f->mocap_pos, 3 * m->nmocap);
	live_copy(d->mocap_quat, f->mocap_quat, 4 * m->nmocap);
	live_copy(d->qfrc_applied, f->qfrc_applied, m->nv);
	live_copy(d->xfrc_applied, f->xfrc_applied, 6 * m->nbody);
	mj_forward(m, d);
	live_copy(d->sensordata, f->sensordata, m->nsensordata);
	return 0;
}

/* A frame: a message on each state topic. */
static void
live_frame(struct live *l, const hxd_frame *f)
{
	struct mmsg_record r;
	char err[512];

	if (f->status != NULL && f->status->model_edits != l->edits) {
		/* A write into the model (a colour, a size): its look. */
		if (live_fetch(l, err, sizeof(err)) != 0)
			program_warn("%s", err);
		else
			live_scene(l);
	}
	if (!live_fits(l, f) || live_forward(l, f) != 0)
		return;
	r.step = f->step;
	r.time = f->time;
	r.segment = l->segment;
	r.ns = live_ns();
	mmsg_tf(&l->j, l->m, l->d, &r);
	live_send(l, FOX_TF, r.ns);
	mmsg_joints(&l->j, l->m, l->d, &r, f->qvel != NULL);
	live_send(l, FOX_JOINTS, r.ns);
	mmsg_controls(&l->j, l->m, l->d, &r);
	live_send(l, FOX_CONTROLS, r.ns);
	mmsg_sensors(&l->j, l->m, l->d, &r);
	live_send(l, FOX_SENSORS, r.ns);
	mmsg_contacts(&l->j, l->m, l->d, &r);
	live_send(l, FOX_CONTACTS, r.ns);
}

/* A new model, or an edit of this one: its scene and an event. */
static int
live_model(struct live *l, const hxd_event *ev)
{
	char err[512], ops[sizeof(ev->operations)], *p;
	size_t n;

	if (live_fetch(l, err, sizeof(err)) != 0) {
		program_warn("%s", err);
		live_event(l, 4, "%s", err);
		return -1;
	}
	l->segment++;
	live_scene(l);
	if (ev->edited) {
		/* One operation a line, each ending in a newline: "; ". */
		snprintf(ops, sizeof(ops), "%s", ev->operations);
		for (n = strlen(ops); n > 0 && ops[n - 1] == '\n'; n--)
			ops[n - 1] = '\0';
		for (p = ops; (p = strchr(p, '\n')) != NULL;)
			*p = ';';
		live_event(l, 2, "the model was edited at time %.17g: %s",
		    ev->time, ops);
	} else
		live_event(l, 2, "%s \"%s\" at time %.17g",
		    ev->reload ? "the model reloaded" : "a model loaded",
		    l->model_name, ev->time);
	return 0;
}

/* An event other than a frame or a model, as a log message. */
static void
live_other(struct live *l, const hxd_event *ev)
{
	switch (ev->kind) {
	case HXD_EVENT_RESET:
		l->segment++;
		if (ev->key_name[0] != '\0')
			live_event(l, 2, "reset at time %.17g to keyframe %s",
			    ev->time, ev->key_name);
		else if (ev->keyframe >= 0)
			live_event(l, 2, "reset at time %.17g to keyframe %d",
			    ev->time, ev->keyframe);
		else
			live_event(l, 2, "reset at time %.17g", ev->time);
		break;
	case HXD_EVENT_RUN:
		live_event(l, 2, "%s at time %.17g",
		    ev->paused ? "paused" : "running", ev->time);
		break;
	case HXD_EVENT_SPEED:
		live_event(l, 2, "speed %g%s", ev->speed,
		    ev->speed_max ? " (as fast as it can)" : "");
		break;
	case HXD_EVENT_MESSAGE:
		if (ev->text[0] != '\0')
			live_event(l, 2, "message: %s", ev->text);
		else
			live_event(l, 2, "message cleared");
		break;
	case HXD_EVENT_INSTABILITY:
		live_event(l, 3,
		    "the simulation went bad (%s) at time %.17g and was "
		    "reset",
		    ev->what, ev->time);
		break;
	case HXD_EVENT_SLOW_STEP:
		live_event(l, 3, "a slow step (%.3g s, usually %.3g s): %s",
		    ev->step_seconds, ev->usual_seconds, ev->reason);
		break;
	default:
		break;
	}
}

/* The daemon went away: say so, and try again from time to time. */
static void
live_lost(struct live *l, const char *why)
{
	char text[700];

	snprintf(text, sizeof(text),
	    "the simulation at %s is gone (%s): trying again", l->server, why);
	program_warn("%s", text);
	fws_status(l->ws, 1, text);
	live_event(l, 3, "%s", text);
	hxd_close(l->c);
	l->c = NULL;
	l->gone = 1;
	l->retry = LIVE_RETRY_FIRST;
	l->retry_at = program_now() + l->retry;
}

static void
live_reconnect(struct live *l)
{
	char err[512];

	if (program_now() < l->retry_at)
		return;
	if (live_attach(l, err, sizeof(err)) != 0) {
		hxd_close(l->c);
		l->c = NULL;
		l->retry = l->retry * 2 < LIVE_RETRY_MAX ? l->retry * 2 :
							   LIVE_RETRY_MAX;
		l->retry_at = program_now() + l->retry;
		return;
	}
	l->gone = 0;
	program_warn("the simulation at %s is back", l->server);
	fws_status(l->ws, 0, "the simulation is back");
	live_scene(l);
	live_event(l, 2, "the simulation at %s is back, model \"%s\"",
	    l->server, l->model_name);
}

void
live_tick(void *arg)
{
	struct live *l = arg;
	hxd_frame *newest = NULL;
	hxd_event *ev;
	int rc;

	if (l->gone) {
		live_reconnect(l);
		return;
	}
	while ((rc = hxd_next_event(l->c, 0, &ev)) == HXD_OK) {
		if (ev->kind == HXD_EVENT_FRAME) {
			/* Only the newest of what came is sent. */
			hxd_frame_free(newest);
			newest = ev->frame;
			ev->frame = NULL;
		} else if (ev->kind == HXD_EVENT_MODEL) {
			hxd_frame_free(newest);
			newest = NULL;
			live_model(l, ev);
		} else
			live_other(l, ev);
		hxd_event_free(ev);
	}
	if (newest != NULL) {
		live_frame(l, newest);
		hxd_frame_free(newest);
	}
	if (rc != HXD_TIMEOUT)
		live_lost(l, hxd_error(l->c));
}

struct live *
live_new(const char *server, double fps, struct fws *ws, char *err, size_t len)
{
	const struct foxglove_schema *s;
	struct live *l;
	int t;

	if ((l = calloc(1, sizeof(*l))) == NULL || mmsg_reset(&l->j) != 0) {
		snprintf(err, len, "out of memory");
		free(l);
		return NULL;
	}
	mju_user_error = live_on_error;
	mju_user_warning = live_on_warning;
	snprintf(
	    l->server, sizeof(l->server), "%s", server != NULL ? server : "");
	l->fps = fps;
	l->ws = ws;
	for (t = 0; t < FOX_NTOPIC; t++) {
		s = foxglove_schema_find(fox_topics[t].schema);
		l->ch[t] = fws_channel(ws, fox_topics[t].topic, s->name,
		    s->schema, t == FOX_EVENTS ? LIVE_EVENTS_KEPT : 1);
		if (l->ch[t] < 0) {
			snprintf(err, len, "out of memory");
			live_free(l);
			return NULL;
		}
	}
	if (live_attach(l, err, len) != 0) {
		live_free(l);
		return NULL;
	}
	live_scene(l);
	live_event(l, 2, "hx-foxglove follows %s, model \"%s\"", l->server,
	    l->model_name);
	return l;
}

const char *
live_server(const struct live *l)
{
	return l->server;
}

void
live_free(struct live *l)
{
	if (l == NULL)
		return;
	hxd_close(l->c);
	mj_deleteData(l->d);
	mj_deleteModel(l->m);
	mmsg_free(&l->j);
	free(l);
}
