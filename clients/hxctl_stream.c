/*
 * Streams and events: subscribe, and the JSON Lines it prints, one
 * object per event or frame (batch runs print their frames alike).
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "haptixd.h"
#include "hxctl_common.h"
#include "program.h"

/* The rate of subscribe when fields are given without one (wall Hz). */
#define CTL_SUBSCRIBE_HZ 30.0

/* What subscribe (or events) asks for, and when it stops. */
struct subscribe_req {
	hxd_subscription sub;
	long count;      /* --count: events to print; 0 for no end */
	double duration; /* --duration: seconds; 0 for no end */
	int kinds;       /* --kinds: the HXD_EVENTS() set printed */
};

static void event_json(const hxd_event *, unsigned);
static void frame_field_json(const hxd_frame *, int);
static int subscribe_kinds(struct ctl *, const char *, int *, int *);
static int subscribe_args(struct ctl *, struct subscribe_req *);
static int subscribe_rates(
    struct ctl *, const struct ctl_opt *, hxd_subscription *);
static int subscribe_print(struct ctl *, const struct subscribe_req *);

/*
 * The "event" of subscribe's lines, by enum hxd_event_kind; a run event
 * that paused is "pause" (KIND_PAUSE), one that started running "run".
 */
static const char *const event_kinds[] = { "unknown", "frame", "model", "reset",
	"run", "speed", "instability", "message", "lease", "client_joined",
	"client_left", "tracking", "perturbation", "slow_step",
	"recording_ended", "pause" };

/* Where "pause" is in event_kinds[]: a name, not a kind of the server's. */
#define KIND_PAUSE ((int)NELEM(event_kinds) - 1)

/* The HXD_EVENTS() set of every kind subscribe knows, pause included. */
#define KINDS_ALL \
	((HXD_EVENTS(KIND_PAUSE + 1) - 1) & \
	    ~(HXD_EVENTS(HXD_EVENT_UNKNOWN) | HXD_EVENTS(HXD_EVENT_FRAME)))

/*
 * Subscribe, and print each frame and event as one JSON object per line,
 * flushed, until enough came, the time is up, a signal stops hxctl or
 * the reader of stdout goes away (all exit 0), or the server does (1).
 * As the events command, without fields.
 */
int
cmd_subscribe(struct ctl *ctl)
{
	struct subscribe_req req;
	int rc;

	memset(&req, 0, sizeof(req));
	req.kinds = KINDS_ALL;
	if ((rc = subscribe_args(ctl, &req)) != 0)
		return rc;
	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	ctl_signals();
	if (hxd_subscribe(ctl->conn, &req.sub, NULL) != HXD_OK)
		return ctl_fail(ctl);
	return subscribe_print(ctl, &req);
}

/* Read subscribe's arguments into req; 0 or CTL_USAGE. */
static int
subscribe_args(struct ctl *ctl, struct subscribe_req *req)
{
	struct ctl_opt opts[] = {
		{ "--every", OPT_STRING, 0, NULL, 0, 0 },
		{ "--sim-hz", OPT_STRING, 0, NULL, 0, 0 },
		{ "--wall-hz", OPT_STRING, 0, NULL, 0, 0 },
		{ "--events", OPT_FLAG, 0, NULL, 0, 0 },
		{ "--count", OPT_STRING, 0, NULL, 0, 0 },
		{ "--duration", OPT_STRING, 0, NULL, 0, 0 },
		{ "--kinds", OPT_STRING, 0, NULL, 0, 0 },
	};
	hxd_subscription *sub = &req->sub;
	int i, rc;

	if ((rc = ctl_options(ctl, opts, NELEM(opts))) != 0)
		return rc;
	if (strcmp(ctl->cmd->name, "events") == 0 &&
	    (ctl->npos > 0 || opts[0].given || opts[1].given || opts[2].given))
		return ctl_usage_error(
		    ctl, "events takes no fields or rates (subscribe does)");
	for (i = 0; i < ctl->npos; i++) {
		if ((rc = ctl_fields(
			 ctl, "field", ctl->pos[i], &sub->fields)) != 0)
			return rc;
	}
	if ((rc = subscribe_rates(ctl, opts, sub)) != 0)
		return rc;
	if (opts[4].given &&
	    parse_long(opts[4].value, 1, LONG_MAX, &req->count) != 0)
		return ctl_usage_error(ctl,
		    "--count: '%s' is not a number of events (1 or more)",
		    opts[4].value);
	if (opts[5].given &&
	    ((rc = ctl_seconds(
		  ctl, "--duration", opts[5].value, &req->duration)) != 0 ||
		req->duration == 0))
		return rc != 0 ? rc :
				 ctl_usage_error(ctl,
				     "--duration: give more than 0 seconds");
	if (opts[6].given &&
	    (rc = subscribe_kinds(
		 ctl, opts[6].value, &req->kinds, &sub->events)) != 0)
		return rc;
	if (!opts[6].given)
		sub->events = opts[3].given || sub->fields == 0;
	return 0;
}

/*
 * Read the rate of frames (opts: --every, --sim-hz, --wall-hz) into sub,
 * whose fields are read: one rate at most, and CTL_SUBSCRIBE_HZ of wall
 * time when fields are given without one.  0 or CTL_USAGE.
 */
static int
subscribe_rates(
    struct ctl *ctl, const struct ctl_opt *opts, hxd_subscription *sub)
{
	long every = 0;

	if (opts[0].given + opts[1].given + opts[2].given > 1)
		return ctl_usage_error(
		    ctl, "give one rate: --every, --sim-hz or --wall-hz");
	if (sub->fields == 0 &&
	    (opts[0].given || opts[1].given || opts[2].given))
		return ctl_usage_error(ctl, "a rate needs fields to send");
	if (opts[0].given &&
	    parse_long(opts[0].value, 1, UINT_MAX, &every) != 0)
		return ctl_usage_error(ctl,
		    "--every: '%s' is not a number of steps (1 to %u)",
		    opts[0].value, UINT_MAX);
	sub->every_steps = (unsigned)every;
	if (opts[1].given &&
	    (parse_double(opts[1].value, &sub->sim_hz) != 0 ||
		sub->sim_hz <= 0))
		return ctl_usage_error(
		    ctl, "--sim-hz: '%s' is not a rate (> 0)", opts[1].value);
	if (opts[2].given &&
	    (parse_double(opts[2].value, &sub->wall_hz) != 0 ||
		sub->wall_hz <= 0))
		return ctl_usage_error(
		    ctl, "--wall-hz: '%s' is not a rate (> 0)", opts[2].value);
	if (sub->fields != 0 && every == 0 && sub->sim_hz == 0 &&
	    sub->wall_hz == 0)
		sub->wall_hz = CTL_SUBSCRIBE_HZ;
	return 0;
}

/*
 * Print what the subscription sends, until req's count or duration, a
 * signal or a closed stdout (CTL_OK), or the server's end (CTL_FAIL).
 */
static int
subscribe_print(struct ctl *ctl, const struct subscribe_req *req)
{
	hxd_event *ev;
	long seen = 0;
	double end = 0, left;
	int r, wait, shown;

	if (req->duration > 0)
		end = program_now() + req->duration;
	while (!ctl_stopped && (req->count == 0 || seen < req->count)) {
		wait = CTL_POLL_MS;
		if (req->duration > 0) {
			if ((left = end - program_now()) <= 0)
				break;
			if (left * 1e3 < wait)
				wait = (int)ceil(left * 1e3);
		}
		if (ctl_reader_gone()) {
			ctl->stdout_gone = 1;
			break;
		}
		r = hxd_next_event(ctl->conn, wait, &ev);
		if (r == HXD_TIMEOUT)
			continue;
		if (r != HXD_OK)
			return ctl_fail(ctl);
		shown = ev->kind == HXD_EVENT_RUN && ev->paused ? KIND_PAUSE :
								  ev->kind;
		if (ev->kind > HXD_EVENT_UNKNOWN && ev->kind < KIND_PAUSE &&
		    (ev->kind == HXD_EVENT_FRAME ||
			(req->kinds & HXD_EVENTS(shown)) != 0)) {
			event_json(ev, req->sub.fields);
			seen++;
		}
		hxd_event_free(ev);
		if (fflush(stdout) != 0) {
			if (errno != EPIPE)
				return ctl_error(ctl, HXD_CANNOTSEND,
				    "cannot write the output: %s",
				    strerror(errno));
			ctl->stdout_gone = 1;
			break;
		}
	}
	return CTL_OK;
}

/*
 * Parse --kinds: event kinds by name, comma-separated, or all but those
 * named with a leading '-'; "pause" and "run" are the run event's two
 * ways.  *kinds gets the names (an HXD_EVENTS() set with KIND_PAUSE),
 * *events what the server is asked for.  Returns 0 or CTL_USAGE.
 */
static int
subscribe_kinds(struct ctl *ctl, const char *list, int *kinds, int *events)
{
	char buf[32];
	const char *p = list, *comma;
	size_t len;
	int k, minus, all_minus = -1;

	*kinds = 0;
	for (;;) {
		comma = strchr(p, ',');
		len = comma != NULL ? (size_t)(comma - p) : strlen(p);
		minus = len > 0 && *p == '-';
		snprintf(buf, sizeof(buf), "%.*s", (int)(len - (size_t)minus),
		    p + minus);
		for (k = HXD_EVENT_FRAME + 1; k <= KIND_PAUSE; k++) {
			if (strcmp(buf, event_kinds[k]) == 0)
				break;
		}
		if (k > KIND_PAUSE)
			return ctl_usage_error(ctl,
			    "--kinds: '%.*s' is not a kind of event (model, "
			    "reset, pause, run, speed, instability, message, "
			    "lease, client_joined, client_left, tracking, "
			    "perturbation, slow_step, recording_ended)%s",
			    (int)len, p,
			    ctl_mean(
				buf, event_kinds + 2, NELEM(event_kinds) - 2));
		if (all_minus >= 0 && all_minus != minus)
			return ctl_usage_error(ctl,
			    "--kinds: name kinds to show or, each with '-', "
			    "kinds to leave out, not both");
		all_minus = minus;
		*kinds |= HXD_EVENTS(k);
		if (comma == NULL)
			break;
		p = comma + 1;
	}
	if (all_minus)
		*kinds = KINDS_ALL & ~*kinds;
	/* The server knows no pause: its run event carries both. */
	*events = *kinds & ~HXD_EVENTS(KIND_PAUSE);
	if (*kinds & HXD_EVENTS(KIND_PAUSE))
		*events |= HXD_EVENTS(HXD_EVENT_RUN);
	if (*events == 0)
		return ctl_usage_error(ctl, "--kinds: no kind of event left");
	return CTL_OK;
}

/* Write an event as one JSON line; fields: what frames carry. */
static void
event_json(const hxd_event *ev, unsigned fields)
{
	js_open('{');
	js_ks("event",
	    event_kinds[ev->kind == HXD_EVENT_RUN && ev->paused ? KIND_PAUSE :
								  ev->kind]);
	if (ev->kind == HXD_EVENT_FRAME) {
		stream_frame_json(ev->frame, fields, 1);
		js_close('}');
		return;
	}
	js_kn("time", ev->time);
	switch (ev->kind) {
	case HXD_EVENT_MODEL:
		js_kb("reload", ev->reload);
		if (ev->edited) {
			js_kb("edited", 1);
			js_ks("operations", ev->operations);
			js_ks("removed", ev->removed);
		}
		js_key("model");
		model_json(&ev->model);
		break;
	case HXD_EVENT_RESET:
		js_ki("keyframe", ev->keyframe);
		js_ks("name", ev->key_name);
		js_kn("to_time", ev->reset_to);
		break;
	case HXD_EVENT_RUN:
		js_kb("paused", ev->paused);
		break;
	case HXD_EVENT_SPEED:
		js_kn("speed", ev->speed);
		js_kb("speed_max", ev->speed_max);
		break;
	case HXD_EVENT_INSTABILITY:
		js_ku("resets", ev->resets);
		js_ks("what", ev->what);
		js_ks("undone", ev->undone);
		break;
	case HXD_EVENT_MESSAGE:
		js_ks("text", ev->text);
		js_ku("from", ev->from);
		break;
	case HXD_EVENT_LEASE:
		lease_json(&ev->lease);
		break;
	case HXD_EVENT_CLIENT_JOINED:
	case HXD_EVENT_CLIENT_LEFT:
		client_json(&ev->client, 0);
		break;
	case HXD_EVENT_TRACKING:
		js_ks("why", ev->why);
		js_ku("by", ev->by);
		js_key("tracking");
		tracking_json(&ev->tracking);
		break;
	case HXD_EVENT_PERTURBATION:
		js_ks("why", ev->why);
		js_key("perturbation");
		perturbation_json(&ev->perturbation);
		break;
	case HXD_EVENT_SLOW_STEP:
		js_kn("step_seconds", ev->step_seconds);
		js_kn("usual_seconds", ev->usual_seconds);
		js_ks("why", ev->reason);
		break;
	case HXD_EVENT_RECORDING:
		js_key("recording");
		js_open('{');
		recording_json(&ev->recording);
		js_close('}');
		break;
	default:
		break;
	}
	js_close('}');
}

/*
 * Write a frame's members into the open object: its time and step (and
 * with stream, its subscription and drop count), then each of fields,
 * present or not, keyed by its name.
 */
void
stream_frame_json(const hxd_frame *f, unsigned fields, int stream)
{
	int k;

	js_kn("time", f->time);
	js_ku("step", f->step);
	if (stream) {
		js_ku("subscription", f->subscription);
		js_ku("dropped", f->dropped);
	}
	for (k = 1; k <= HXD_FIELD_MAX; k++) {
		if (fields & HXD_FIELDS(k))
			frame_field_json(f, k);
	}
}

/* Write one field of a frame; an array it lacks is empty, a part null. */
static void
frame_field_json(const hxd_frame *f, int field)
{
	const char *k = hxd_field_name(field);
	const hxd_poses *p = NULL;

/* An array of the frame, or an empty one if the frame lacks it. */
#define FRAME_ARRAY(v, n) js_kv(k, (v), (v) != NULL ? (n) : 0)
	switch (field) {
	case HXD_FIELD_QPOS:
		FRAME_ARRAY(f->qpos, f->nq);
		return;
	case HXD_FIELD_QVEL:
		FRAME_ARRAY(f->qvel, f->nv);
		return;
	case HXD_FIELD_ACT:
		FRAME_ARRAY(f->act, f->na);
		return;
	case HXD_FIELD_CTRL:
		FRAME_ARRAY(f->ctrl, f->nu);
		return;
	case HXD_FIELD_SENSORDATA:
		FRAME_ARRAY(f->sensordata, f->nsensordata);
		return;
	case HXD_FIELD_QFRC_APPLIED:
		FRAME_ARRAY(f->qfrc_applied, f->nv);
		return;
	case HXD_FIELD_XFRC_APPLIED:
		FRAME_ARRAY(f->xfrc_applied, 6 * f->nbody);
		return;
	case HXD_FIELD_MOCAP:
		js_key(k);
		js_open('{');
		js_kv("pos", f->mocap_pos,
		    f->mocap_pos != NULL ? 3 * f->nmocap : 0);
		js_kv("quat", f->mocap_quat,
		    f->mocap_quat != NULL ? 4 * f->nmocap : 0);
		js_close('}');
		return;
	case HXD_FIELD_BODY:
		p = f->body;
		break;
	case HXD_FIELD_GEOM:
		p = f->geom;
		break;
	case HXD_FIELD_SITE:
		p = f->site;
		break;
	case HXD_FIELD_CONTACTS:
		js_key(k);
		if (f->contacts != NULL)
			view_json(&view_contacts, NULL, f->contacts);
		else
			js_null();
		return;
	case HXD_FIELD_STATUS:
		js_key(k);
		if (f->status != NULL)
			status_json(f->status);
		else
			js_null();
		return;
	default:
		return;
	}
#undef FRAME_ARRAY
	if (p == NULL) {
		js_knull(k);
		return;
	}
	js_key(k);
	js_open('{');
	js_ki("count", p->count);
	js_kv("pos", p->pos, 3 * p->count);
	js_kv("mat", p->mat, 9 * p->count);
	js_close('}');
}
