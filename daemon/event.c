/* Events: see event.h. */
#include "config.h"

#include <stdlib.h>

#include "arena.h"
#include "clock.h"
#include "daemon.h"
#include "event.h"
#include "lease.h"
#include "log.h"
#include "message.h"
#include "monotonic.h"
#include "options.h"
#include "protomsg.h"
#include "session.h"
#include "sim.h"
#include "stream.h"

typedef Haptix__V1__Event Event;

/* What the events keep (d->event). */
struct events {
	struct arena scratch; /* the messages of one event */
	/* Instability resets (with errors) and errors already told. */
	uint64_t seen_resets, seen_errors;
};

struct events *
events_create(void)
{
	struct events *es;

	if ((es = calloc(1, sizeof(*es))) == NULL)
		fatal("out of memory");
	return es;
}

void
events_free(struct events *es)
{
	if (es == NULL)
		return;
	arena_free(&es->scratch);
	free(es);
}

Haptix__V1__ClientInfo *
event_client_info(struct daemon *d, struct arena *a, struct session *s)
{
	Haptix__V1__ClientInfo *ci = arena_alloc(a, sizeof(*ci));
	struct stream_counters n;

	haptix__v1__client_info__init(ci);
	stream_counters(s, &n);
	ci->id = s->id;
	ci->name = s->name;
	ci->peer = s->peer;
	ci->lease = lease_holder(d) == s->id;
	ci->lease_shared = lease_shared(d, s->id);
	ci->connected = monotonic_s() - s->connected_at;
	ci->requests = s->requests;
	ci->errors = s->errors;
	ci->bytes_in = s->bytes_in;
	ci->bytes_out = s->bytes_out;
	ci->queued = s->state != SESSION_DEAD ? session_queued(s) : 0;
	ci->subscriptions = n.subscriptions;
	ci->frames_sent = n.frames_sent;
	ci->frames_dropped = n.frames_dropped;
	ci->events_dropped = n.events_dropped;
	return ci;
}

void
event_after_step(struct daemon *d, const char *undone)
{
	struct events *es = d->event;
	const struct sim_counters *n = sim_counters(d->sim);
	Haptix__V1__InstabilityEvent in;
	Event ev;
	uint64_t resets = n->instability_resets + n->errors;

	if (resets == es->seen_resets)
		return;
	haptix__v1__instability_event__init(&in);
	in.count = resets;
	in.undone = (char *)undone;
	in.what = (char *)(n->errors != es->seen_errors ||
		    n->instability_what == NULL ?
		"error" :
		n->instability_what);
	es->seen_resets = resets;
	es->seen_errors = n->errors;
	haptix__v1__event__init(&ev);
	ev.kind_case = HAPTIX__V1__EVENT__KIND_INSTABILITY;
	ev.instability = &in;
	stream_broadcast(d, &ev);
}

void
event_model(struct daemon *d, int reload)
{
	event_model_edited(d, reload, NULL, NULL);
}

void
event_model_edited(
    struct daemon *d, int reload, const char *operations, const char *removed)
{
	struct events *es = d->event;

	Haptix__V1__ModelEvent m = HAPTIX__V1__MODEL_EVENT__INIT;
	Event ev = HAPTIX__V1__EVENT__INIT;

	/* A new model counts its resets from zero. */
	es->seen_resets = es->seen_errors = 0;
	m.model = protomsg_summary(d, &es->scratch);
	m.reload = reload;
	if (operations != NULL) {
		m.edited = 1;
		m.operations = arena_lines(
		    &es->scratch, operations, &m.n_operations);
		m.removed = arena_lines(&es->scratch, removed, &m.n_removed);
	}
	ev.kind_case = HAPTIX__V1__EVENT__KIND_MODEL;
	ev.model = &m;
	stream_broadcast(d, &ev);
	arena_reset(&es->scratch);
}

void
event_reset(struct daemon *d, int key, const char *name, double left)
{
	Haptix__V1__ResetEvent r = HAPTIX__V1__RESET_EVENT__INIT;
	Event ev = HAPTIX__V1__EVENT__INIT;

	r.keyframe = key;
	r.name = (char *)(name != NULL ? name : "");
	r.to_time = sim_time(d->sim);
	ev.kind_case = HAPTIX__V1__EVENT__KIND_RESET;
	ev.reset = &r;
	/* Stamped when it happened, so events stay in the order of time. */
	stream_broadcast_at(d, &ev, left);
}

void
event_resume(struct daemon *d, double left)
{
	Haptix__V1__ResetEvent r = HAPTIX__V1__RESET_EVENT__INIT;
	Event ev = HAPTIX__V1__EVENT__INIT;

	r.keyframe = -1;
	r.history = 1;
	r.to_time = sim_time(d->sim);
	ev.kind_case = HAPTIX__V1__EVENT__KIND_RESET;
	ev.reset = &r;
	stream_broadcast_at(d, &ev, left);
}

void
event_run(struct daemon *d)
{
	Haptix__V1__RunEvent r = HAPTIX__V1__RUN_EVENT__INIT;
	Event ev = HAPTIX__V1__EVENT__INIT;

	r.paused = !clock_running(d->clock);
	ev.kind_case = HAPTIX__V1__EVENT__KIND_RUN;
	ev.run = &r;
	stream_broadcast(d, &ev);
}

void
event_slow_step(
    struct daemon *d, double step_s, double usual_s, const char *why)
{
	Haptix__V1__SlowStepEvent w = HAPTIX__V1__SLOW_STEP_EVENT__INIT;
	Event ev = HAPTIX__V1__EVENT__INIT;

	w.step_seconds = step_s;
	w.usual_seconds = usual_s;
	w.why = (char *)why;
	ev.kind_case = HAPTIX__V1__EVENT__KIND_SLOW_STEP;
	ev.slow_step = &w;
	stream_broadcast(d, &ev);
}

void
event_recording_ended(struct daemon *d)
{
	Event ev = HAPTIX__V1__EVENT__INIT;
	struct arena a = { 0 };

	ev.kind_case = HAPTIX__V1__EVENT__KIND_RECORDING_ENDED;
	ev.recording_ended = protomsg_recording(d, &a);
	stream_broadcast(d, &ev);
	arena_free(&a);
}

void
event_speed(struct daemon *d)
{
	Haptix__V1__Speed sp = HAPTIX__V1__SPEED__INIT;
	Event ev = HAPTIX__V1__EVENT__INIT;
	struct clock_status k;

	clock_status(d->clock, &k);
	sp.factor = k.speed;
	sp.max = k.speed_max;
	ev.kind_case = HAPTIX__V1__EVENT__KIND_SPEED;
	ev.speed = &sp;
	stream_broadcast(d, &ev);
}

void
event_message(struct daemon *d)
{
	Haptix__V1__MessageEvent m = HAPTIX__V1__MESSAGE_EVENT__INIT;
	Event ev = HAPTIX__V1__EVENT__INIT;

	m.text = (char *)message_text(d);
	m.from = message_owner(d);
	ev.kind_case = HAPTIX__V1__EVENT__KIND_MESSAGE;
	ev.message = &m;
	stream_broadcast(d, &ev);
}

void
event_camera(
    struct daemon *d, const double pos[3], const double quat[4], int is_default)
{
	Haptix__V1__Camera c = HAPTIX__V1__CAMERA__INIT;
	Event ev = HAPTIX__V1__EVENT__INIT;

	c.n_pos = 3;
	c.pos = (double *)pos;
	c.n_quat = 4;
	c.quat = (double *)quat;
	c.is_default = is_default;
	ev.kind_case = HAPTIX__V1__EVENT__KIND_CAMERA;
	ev.camera = &c;
	stream_broadcast(d, &ev);
}

void
event_lease(struct daemon *d)
{
	Haptix__V1__LeaseInfo l = HAPTIX__V1__LEASE_INFO__INIT;
	Event ev = HAPTIX__V1__EVENT__INIT;

	l.holder = lease_holder(d);
	l.holder_name = (char *)lease_holder_name(d);
	l.on_loss = (char *)options_lease_loss_name(d->opts->lease_loss);
	ev.kind_case = HAPTIX__V1__EVENT__KIND_LEASE;
	ev.lease = &l;
	stream_broadcast(d, &ev);
}

void
event_client(struct daemon *d, struct session *s, int joined)
{
	struct events *es = d->event;
	Event ev = HAPTIX__V1__EVENT__INIT;
	Haptix__V1__ClientInfo *ci;

	ci = event_client_info(d, &es->scratch, s);
	if (joined) {
		ev.kind_case = HAPTIX__V1__EVENT__KIND_CLIENT_JOINED;
		ev.client_joined = ci;
	} else {
		ev.kind_case = HAPTIX__V1__EVENT__KIND_CLIENT_LEFT;
		ev.client_left = ci;
	}
	stream_broadcast(d, &ev);
	arena_reset(&es->scratch);
}

void
event_tracking(struct daemon *d, const struct tracking_info *t, const char *why,
    uint64_t by)
{
	struct events *es = d->event;

	Haptix__V1__TrackingEvent te = HAPTIX__V1__TRACKING_EVENT__INIT;
	Event ev = HAPTIX__V1__EVENT__INIT;

	te.tracking = protomsg_tracking(d, &es->scratch, t);
	te.why = (char *)why;
	te.by = by;
	ev.kind_case = HAPTIX__V1__EVENT__KIND_TRACKING;
	ev.tracking = &te;
	stream_broadcast(d, &ev);
	arena_reset(&es->scratch);
}

void
event_perturbation(
    struct daemon *d, const struct perturb_info *p, const char *why)
{
	struct events *es = d->event;

	Haptix__V1__PerturbationEvent pe = HAPTIX__V1__PERTURBATION_EVENT__INIT;
	Event ev = HAPTIX__V1__EVENT__INIT;

	pe.perturbation = protomsg_perturbation(d, &es->scratch, p);
	pe.why = (char *)why;
	ev.kind_case = HAPTIX__V1__EVENT__KIND_PERTURBATION;
	ev.perturbation = &pe;
	stream_broadcast(d, &ev);
	arena_reset(&es->scratch);
}
