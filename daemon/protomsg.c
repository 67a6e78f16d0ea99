/* Messages of the simulation as it is now: see protomsg.h. */
#include "config.h"

#include <string.h>

#include "arena.h"
#include "clock.h"
#include "daemon.h"
#include "lease.h"
#include "message.h"
#include "monotonic.h"
#include "options.h"
#include "perturb.h"
#include "protomsg.h"
#include "record.h"
#include "session.h"
#include "sim.h"
#include "sim_access.h"
#include "sim_describe.h"
#include "sim_history.h"
#include "sim_state.h"
#include "stepguard.h"
#include "tracking.h"

typedef Haptix__V1__StreamFrame StreamFrame;

/* n doubles from src: the arena's copy, or src itself. */
static double *
protomsg_doubles(struct arena *a, const double *src, size_t n, int copy)
{
	double *p;

	if (!copy || n == 0)
		return (double *)src;
	p = arena_alloc(a, n * sizeof(double));
	memcpy(p, src, n * sizeof(double));
	return p;
}

Haptix__V1__ModelSummary *
protomsg_summary(struct daemon *d, struct arena *a)
{
	Haptix__V1__ModelSummary *m = arena_alloc(a, sizeof(*m));

	sim_describe_summary(d->sim, m);
	return m;
}

/* Poses of the chosen objects, copied or not. */
static Haptix__V1__Poses *
protomsg_poses_copy(
    struct daemon *d, struct arena *a, enum protomsg_objects which, int copy)
{
	const struct sim_sizes *z = sim_sizes(d->sim);
	const struct sim_arrays *y = sim_arrays(d->sim);
	Haptix__V1__Poses *w = arena_alloc(a, sizeof(*w));
	const double *pos, *mat;
	size_t n;

	switch (which) {
	case PROTOMSG_BODY:
		n = (size_t)z->nbody;
		pos = y->xpos;
		mat = y->xmat;
		break;
	case PROTOMSG_GEOM:
		n = (size_t)z->ngeom;
		pos = y->geom_xpos;
		mat = y->geom_xmat;
		break;
	default:
		n = (size_t)z->nsite;
		pos = y->site_xpos;
		mat = y->site_xmat;
		break;
	}
	haptix__v1__poses__init(w);
	w->count = (uint32_t)n;
	w->time = sim_time(d->sim);
	w->n_pos = 3 * n;
	w->pos = protomsg_doubles(a, pos, 3 * n, copy);
	w->n_mat = 9 * n;
	w->mat = protomsg_doubles(a, mat, 9 * n, copy);
	return w;
}

Haptix__V1__Poses *
protomsg_poses(struct daemon *d, struct arena *a, enum protomsg_objects which)
{
	return protomsg_poses_copy(d, a, which, 0);
}

Haptix__V1__Contacts *
protomsg_contacts(struct daemon *d, struct arena *a)
{
	Haptix__V1__Contacts *w = arena_alloc(a, sizeof(*w));
	struct sim_contacts out;
	size_t n;

	n = (size_t)sim_contacts(d->sim, NULL);
	out.dist = arena_alloc(a, n * sizeof(double));
	out.pos = arena_alloc(a, 3 * n * sizeof(double));
	out.frame = arena_alloc(a, 9 * n * sizeof(double));
	out.force = arena_alloc(a, 3 * n * sizeof(double));
	out.geom1 = arena_alloc(a, n * sizeof(int32_t));
	out.geom2 = arena_alloc(a, n * sizeof(int32_t));
	sim_contacts(d->sim, &out);
	haptix__v1__contacts__init(w);
	w->ncon = (uint32_t)n;
	w->time = sim_time(d->sim);
	w->n_dist = n;
	w->dist = out.dist;
	w->n_pos = 3 * n;
	w->pos = out.pos;
	w->n_frame = 9 * n;
	w->frame = out.frame;
	w->n_force = 3 * n;
	w->force = out.force;
	w->n_geom1 = w->n_geom2 = n;
	w->geom1 = out.geom1;
	w->geom2 = out.geom2;
	return w;
}

Haptix__V1__Recording *
protomsg_recording(const struct daemon *d, struct arena *a)
{
	Haptix__V1__Recording *r = arena_alloc(a, sizeof(*r));
	struct record_info ri;

	haptix__v1__recording__init(r);
	record_info(d, &ri);
	r->active = ri.active;
	r->path = arena_strdup(a, ri.path);
	r->every = ri.every;
	r->journal = ri.journal;
	r->journal_entries = ri.journal_entries;
	r->records = ri.records;
	r->bytes = ri.bytes;
	r->ended = arena_strdup(a, ri.ended);
	r->quota = ri.quota;
	return r;
}

/* The live run's history, as status shows it. */
static Haptix__V1__History *
protomsg_history(const struct daemon *d, struct arena *a)
{
	Haptix__V1__History *h = arena_alloc(a, sizeof(*h));
	struct sim_history_info hi;

	haptix__v1__history__init(h);
	sim_history_info(d->sim, &hi);
	h->seconds = hi.seconds;
	h->memory = hi.max_bytes;
	h->states = (uint32_t)hi.states;
	h->capacity = (uint32_t)hi.capacity;
	h->bytes = hi.bytes;
	h->stride = hi.stride;
	h->oldest = hi.oldest;
	h->newest = hi.newest;
	return h;
}

Haptix__V1__Tracking *
protomsg_tracking(
    struct daemon *d, struct arena *a, const struct tracking_info *t)
{
	Haptix__V1__Tracking *w = arena_alloc(a, sizeof(*w));
	const char *name = NULL;
	int bad;

	haptix__v1__tracking__init(w);
	if (t->body >= 0)
		name = sim_id2name(
		    d->sim, HAPTIX__V1__OBJ_TYPE__OBJ_BODY, t->body, &bad);
	w->mocap = t->mocap;
	w->body = arena_strdup(a, name != NULL ? name : "");
	w->connected = t->connected;
	w->offset_set = t->offset_set;
	w->driver = t->driver;
	w->driver_name = arena_strdup(a, t->driver_name);
	w->poses = t->poses;
	w->rate = t->rate;
	w->age = t->age;
	w->latency = t->latency;
	w->source_time = t->source_time;
	return w;
}

Haptix__V1__Perturbation *
protomsg_perturbation(
    struct daemon *d, struct arena *a, const struct perturb_info *p)
{
	Haptix__V1__Perturbation *w = arena_alloc(a, sizeof(*w));
	const char *name;
	int bad;

	haptix__v1__perturbation__init(w);
	name = sim_loaded(d->sim) && !p->stale ?
	    sim_id2name(d->sim, HAPTIX__V1__OBJ_TYPE__OBJ_BODY, p->body, &bad) :
	    NULL;
	w->body = p->body;
	w->name = arena_strdup(a, name != NULL ? name : "");
	w->n_force = 3;
	w->force = arena_alloc(a, 3 * sizeof(double));
	memcpy(w->force, p->f, 3 * sizeof(double));
	w->n_torque = 3;
	w->torque = arena_alloc(a, 3 * sizeof(double));
	memcpy(w->torque, p->f + 3, 3 * sizeof(double));
	w->driver = p->driver;
	w->driver_name = arena_strdup(a, p->driver_name);
	w->age = p->age;
	w->timeout = p->timeout;
	return w;
}

/* The tracked mocap bodies and the perturbations into a status. */
static void
protomsg_drivers(struct daemon *d, struct arena *a, Haptix__V1__Status *st)
{
	struct perturb_info p[PERTURB_MAX];
	struct tracking_info t;
	int idx[64], n, k;

	st->perturb_timeout = d->opts->perturb_timeout;
	if (!sim_loaded(d->sim))
		return;
	n = tracking_reported(d, idx, 64);
	st->tracking = arena_alloc(a, (size_t)n * sizeof(*st->tracking) + 1);
	for (k = 0; k < n; k++) {
		tracking_get(d, idx[k], &t);
		st->tracking[k] = protomsg_tracking(d, a, &t);
	}
	st->n_tracking = (size_t)n;
	n = perturb_list(d, p, PERTURB_MAX);
	st->perturbations = arena_alloc(
	    a, (size_t)n * sizeof(*st->perturbations) + 1);
	for (k = 0; k < n; k++)
		st->perturbations[k] = protomsg_perturbation(d, a, &p[k]);
	st->n_perturbations = (size_t)n;
}

Haptix__V1__Status *
protomsg_status(struct daemon *d, struct arena *a)
{
	const struct sim_counters *n = sim_counters(d->sim);
	Haptix__V1__Status *st = arena_alloc(a, sizeof(*st));
	struct clock_status k;
	double energy[2];
	int nefc, ncon;

	haptix__v1__status__init(st);
	clock_status(d->clock, &k);
	st->model = protomsg_summary(d, a);
	st->paused = !k.running;
	st->speed = k.speed;
	st->speed_max = k.speed_max;
	st->realtime_factor = k.realtime_factor;
	st->lagging = k.lagging;
	st->overruns = k.overruns;
	st->pacing = arena_alloc(a, sizeof(*st->pacing));
	haptix__v1__pacing_stats__init(st->pacing);
	st->pacing->ticks = k.ticks;
	st->pacing->lateness_p50 = k.lateness_p50;
	st->pacing->lateness_p99 = k.lateness_p99;
	st->pacing->lateness_max = k.lateness_max;
	st->clients = (uint32_t)sessions_welcomed(d);
	st->message = arena_strdup(a, message_text(d));
	st->uptime = monotonic_s() - d->started;
	st->lease_holder = lease_holder(d);
	st->lease_holder_name = (char *)lease_holder_name(d);
	st->batch_session = lease_batch(d);
	st->steps_refused = arena_strdup(a, stepguard_refusal(d));
	st->recording = protomsg_recording(d, a);
	st->history = protomsg_history(d, a);
	st->limits = arena_alloc(a, sizeof(*st->limits));
	haptix__v1__limits__init(st->limits);
	st->limits->max_clients = (uint32_t)d->opts->max_clients;
	st->limits->max_frame = d->opts->max_frame;
	st->limits->max_queued = d->opts->max_queued;
	st->limits->max_subscriptions = (uint32_t)d->opts->max_subscriptions;
	st->limits->load_timeout = d->opts->load_timeout;
	st->limits->load_memory = (uint64_t)d->opts->load_memory << 20;
	st->limits->model_max_bodies = (uint64_t)d->opts->model_max_bodies;
	st->limits->model_max_keys = (uint64_t)d->opts->model_max_keys;
	st->limits->model_max_hfield = (uint64_t)d->opts->model_max_hfield;
	st->limits->model_max_texture = (uint64_t)d->opts->model_max_texture;
	st->limits->model_max_mesh_vertices = (uint64_t)d->opts
						  ->model_max_mesh_vertices;
	st->limits->max_handshakes = (uint32_t)d->opts->max_handshakes;
	if (sim_loaded(d->sim)) {
		sim_energy(d->sim, energy);
		sim_constraints(d->sim, &nefc, &ncon);
		st->time = sim_time(d->sim);
		st->steps = n->steps;
		st->cpu_per_step = n->cpu_per_step;
		st->nefc = (uint32_t)nefc;
		st->ncon = (uint32_t)ncon;
		st->energy_potential = energy[0];
		st->energy_kinetic = energy[1];
		st->instability_resets = n->instability_resets;
		st->sim_errors = n->errors;
		st->model_edits = n->model_edits;
	}
	protomsg_drivers(d, a, st);
	return st;
}

int
protomsg_field_set(const int *fields, size_t n, uint32_t *out)
{
	size_t i;

	*out = 0;
	for (i = 0; i < n; i++) {
		if (fields[i] <= HAPTIX__V1__STREAM_FIELD__STREAM_NONE ||
		    fields[i] > HAPTIX__V1__STREAM_FIELD__STREAM_XFRC_APPLIED)
			return (int)i;
		*out |= PROTOMSG_FIELD(fields[i]);
	}
	return -1;
}

void
protomsg_frame(struct daemon *d, struct arena *a, uint32_t fields, int copy,
    StreamFrame *f)
{
	const struct sim_sizes *z = sim_sizes(d->sim);
	const struct sim_arrays *y = sim_arrays(d->sim);

	haptix__v1__stream_frame__init(f);
	f->time = sim_time(d->sim);
	f->step = sim_counters(d->sim)->steps;
#define HAS(F) (fields & PROTOMSG_FIELD(HAPTIX__V1__STREAM_FIELD__STREAM_##F))
#define ARRAY(name, src, n) \
	do { \
		f->n_##name = (size_t)(n); \
		f->name = protomsg_doubles(a, (src), (size_t)(n), copy); \
	} while (0)
	if (HAS(QPOS))
		ARRAY(qpos, y->qpos, z->nq);
	if (HAS(QVEL))
		ARRAY(qvel, y->qvel, z->nv);
	if (HAS(ACT))
		ARRAY(act, y->act, z->na);
	if (HAS(CTRL))
		ARRAY(ctrl, y->ctrl, z->nu);
	if (HAS(MOCAP)) {
		ARRAY(mocap_pos, y->mocap_pos, 3 * z->nmocap);
		ARRAY(mocap_quat, y->mocap_quat, 4 * z->nmocap);
	}
	if (HAS(SENSORDATA))
		ARRAY(sensordata, y->sensordata, z->nsensordata);
	if (HAS(QFRC_APPLIED))
		ARRAY(qfrc_applied, y->qfrc_applied, z->nv);
	if (HAS(XFRC_APPLIED))
		ARRAY(xfrc_applied, y->xfrc_applied, 6 * z->nbody);
#undef ARRAY
	if (HAS(BODY))
		f->body = protomsg_poses_copy(d, a, PROTOMSG_BODY, copy);
	if (HAS(GEOM))
		f->geom = protomsg_poses_copy(d, a, PROTOMSG_GEOM, copy);
	if (HAS(SITE))
		f->site = protomsg_poses_copy(d, a, PROTOMSG_SITE, copy);
	if (HAS(CONTACTS))
		f->contacts = protomsg_contacts(d, a);
	if (HAS(STATUS))
		f->status = protomsg_status(d, a);
#undef HAS
}
