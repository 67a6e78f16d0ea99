/*
 * The extension API's streams, events and batch runs (haptixd.h).  A
 * frame from the wire becomes one block: the hxd_frame, then each of its
 * arrays and sub-structs, after checking that their lengths agree.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conn.h"
#include "request.h"

typedef Haptix__V1__StreamFrame StreamFrame;

#define ALIGN16(n) (((n) + 15) & ~(size_t)15)

/* Join n strings as lines into buf (len bytes), cut short if need be. */
static void
stream_lines(char *buf, size_t len, char *const *lines, size_t n)
{
	size_t i, off = 0;
	int k;

	buf[0] = '\0';
	for (i = 0; i < n && off < len; i++) {
		k = snprintf(buf + off, len - off, "%s\n", lines[i]);
		if (k < 0)
			break;
		off += (size_t)k;
	}
}

static const char *const field_names[] = {
	[HXD_FIELD_QPOS] = "qpos",
	[HXD_FIELD_QVEL] = "qvel",
	[HXD_FIELD_ACT] = "act",
	[HXD_FIELD_CTRL] = "ctrl",
	[HXD_FIELD_MOCAP] = "mocap",
	[HXD_FIELD_SENSORDATA] = "sensordata",
	[HXD_FIELD_BODY] = "body",
	[HXD_FIELD_GEOM] = "geom",
	[HXD_FIELD_SITE] = "site",
	[HXD_FIELD_CONTACTS] = "contacts",
	[HXD_FIELD_STATUS] = "status",
	[HXD_FIELD_QFRC_APPLIED] = "qfrc_applied",
	[HXD_FIELD_XFRC_APPLIED] = "xfrc_applied",
};

_Static_assert((int)HXD_FIELD_XFRC_APPLIED ==
	(int)HAPTIX__V1__STREAM_FIELD__STREAM_XFRC_APPLIED,
    "haptixd.h and the protocol disagree on stream fields");

const char *
hxd_field_name(int field)
{
	if (field < 1 || field > HXD_FIELD_MAX)
		return NULL;
	return field_names[field];
}

int
hxd_field_parse(const char *name)
{
	int f;

	for (f = 1; f <= HXD_FIELD_MAX; f++) {
		if (strcmp(name, field_names[f]) == 0)
			return f;
	}
	return 0;
}

/* The wire's list of the fields in a set; n receives their number. */
static int
fields_to_wire(
    hxd_conn *c, unsigned set, Haptix__V1__StreamField *out, size_t *n)
{
	int f;

	*n = 0;
	if (set & ~(unsigned)((2u << HXD_FIELD_MAX) - 2))
		return conn_fail(c, HXD_BADVALUE,
		    "field set 0x%x has bits of no field", set);
	for (f = 1; f <= HXD_FIELD_MAX; f++) {
		if (set & HXD_FIELDS(f))
			out[(*n)++] = (Haptix__V1__StreamField)f;
	}
	return HXD_OK;
}

int
hxd_subscribe(hxd_conn *c, const hxd_subscription *sub, unsigned *id)
{
	Haptix__V1__Subscribe w = HAPTIX__V1__SUBSCRIBE__INIT;
	Haptix__V1__StreamField fields[HXD_FIELD_MAX];
	uint32_t kinds[32];
	Response *r;
	int rc, k;

	if (fields_to_wire(c, sub->fields, fields, &w.n_fields) != HXD_OK)
		return c->result;
	w.fields = fields;
	w.every_steps = sub->every_steps;
	w.sim_hz = sub->sim_hz;
	w.wall_hz = sub->wall_hz;
	w.events = sub->events != 0;
	/* Bits of event kinds name them; bit 0 (events 1, -1) or none: all. */
	for (k = HXD_EVENT_FRAME + 1; k < 32 && !(sub->events & 1); k++) {
		if ((unsigned)sub->events & HXD_EVENTS(k))
			kinds[w.n_event_kinds++] = (uint32_t)k;
	}
	w.event_kinds = kinds;
	rc = request_call(c, HAPTIX__V1__REQUEST__CALL_SUBSCRIBE, &w,
	    HAPTIX__V1__RESPONSE__PAYLOAD_SUBSCRIPTION, &r);
	if (rc != HXD_OK)
		return rc;
	if (id != NULL)
		*id = r->subscription->id;
	conn_free_response(r);
	return rc;
}

int
hxd_unsubscribe(hxd_conn *c, unsigned id)
{
	Haptix__V1__Unsubscribe w = HAPTIX__V1__UNSUBSCRIBE__INIT;

	w.id = id;
	return request_call(
	    c, HAPTIX__V1__REQUEST__CALL_UNSUBSCRIBE, &w, 0, NULL);
}

/*------------------------------------------------------------ frames */

/*
 * Space in a block being measured (p NULL: only count) or filled.  Each
 * piece starts 16-byte aligned.
 */
struct block {
	char *p;
	size_t n;
};

static void *
block_take(struct block *b, size_t size)
{
	void *r = b->p != NULL ? b->p + b->n : NULL;

	b->n += ALIGN16(size);
	return r;
}

static double *
block_doubles(struct block *b, const double *src, size_t n)
{
	double *r;

	if (n == 0)
		return NULL;
	r = block_take(b, n * sizeof(double));
	if (r != NULL)
		memcpy(r, src, n * sizeof(double));
	return r;
}

/* Poses of count objects: n_pos = 3 count, n_mat = 9 count. */
static hxd_poses *
block_poses(struct block *b, const Haptix__V1__Poses *w)
{
	hxd_poses *p;
	double *pos, *mat;

	if (w == NULL)
		return NULL;
	p = block_take(b, sizeof(*p));
	pos = block_doubles(b, w->pos, w->n_pos);
	mat = block_doubles(b, w->mat, w->n_mat);
	if (p != NULL) {
		p->count = (int)w->count;
		p->time = w->time;
		p->pos = pos;
		p->mat = mat;
	}
	return p;
}

static hxd_contacts *
block_contacts(struct block *b, const Haptix__V1__Contacts *w)
{
	hxd_contacts *k;
	double *dist, *pos, *frame, *force;
	int *g1, *g2;
	size_t n;

	if (w == NULL)
		return NULL;
	n = w->ncon;
	k = block_take(b, sizeof(*k));
	dist = block_doubles(b, w->dist, w->n_dist);
	pos = block_doubles(b, w->pos, w->n_pos);
	frame = block_doubles(b, w->frame, w->n_frame);
	force = block_doubles(b, w->force, w->n_force);
	g1 = block_take(b, n * sizeof(int));
	g2 = block_take(b, n * sizeof(int));
	if (k == NULL)
		return NULL;
	k->ncon = (int)n;
	k->time = w->time;
	k->dist = dist;
	k->pos = pos;
	k->frame = frame;
	k->force = force;
	k->geom1 = g1;
	k->geom2 = g2;
	if (n != 0) {
		memcpy(g1, w->geom1, n * sizeof(int));
		memcpy(g2, w->geom2, n * sizeof(int));
	}
	return k;
}

/* Check that a frame's arrays have consistent lengths. */
static int
frame_check(hxd_conn *c, const StreamFrame *w)
{
	const Haptix__V1__Poses *p[3] = { w->body, w->geom, w->site };
	const Haptix__V1__Contacts *k = w->contacts;
	size_t i;

	if (w->n_mocap_pos % 3 != 0 || w->n_mocap_quat % 4 != 0 ||
	    w->n_mocap_pos / 3 != w->n_mocap_quat / 4 ||
	    w->n_xfrc_applied % 6 != 0 ||
	    (w->n_qvel != 0 && w->n_qfrc_applied != 0 &&
		w->n_qvel != w->n_qfrc_applied))
		return conn_fail(c, HXD_BADPROTOCOL,
		    "the server sent a frame whose arrays disagree in size");
	for (i = 0; i < 3; i++) {
		if (p[i] != NULL &&
		    (p[i]->n_pos != 3 * (size_t)p[i]->count ||
			p[i]->n_mat != 9 * (size_t)p[i]->count))
			return conn_fail(c, HXD_BADPROTOCOL,
			    "the server sent poses of the wrong size");
	}
	if (k != NULL &&
	    (k->n_dist != k->ncon || k->n_pos != 3 * (size_t)k->ncon ||
		k->n_frame != 9 * (size_t)k->ncon ||
		k->n_force != 3 * (size_t)k->ncon || k->n_geom1 != k->ncon ||
		k->n_geom2 != k->ncon))
		return conn_fail(c, HXD_BADPROTOCOL,
		    "the server sent contacts of the wrong size");
	return HXD_OK;
}

/* Lay out (b->p NULL) or fill a frame in block b. */
static hxd_frame *
frame_layout(struct block *b, const StreamFrame *w)
{
	hxd_frame *f = block_take(b, sizeof(*f));
	hxd_frame tmp;
	hxd_frame *o = f != NULL ? f : &tmp;

	o->subscription = w->subscription;
	o->time = w->time;
	o->step = w->step;
	o->dropped = w->dropped;
	o->nq = (int)w->n_qpos;
	o->nv = (int)(w->n_qvel != 0 ? w->n_qvel : w->n_qfrc_applied);
	o->na = (int)w->n_act;
	o->nu = (int)w->n_ctrl;
	o->nmocap = (int)(w->n_mocap_pos / 3);
	o->nsensordata = (int)w->n_sensordata;
	o->nbody = (int)(w->n_xfrc_applied / 6);
	o->qpos = block_doubles(b, w->qpos, w->n_qpos);
	o->qvel = block_doubles(b, w->qvel, w->n_qvel);
	o->act = block_doubles(b, w->act, w->n_act);
	o->ctrl = block_doubles(b, w->ctrl, w->n_ctrl);
	o->mocap_pos = block_doubles(b, w->mocap_pos, w->n_mocap_pos);
	o->mocap_quat = block_doubles(b, w->mocap_quat, w->n_mocap_quat);
	o->sensordata = block_doubles(b, w->sensordata, w->n_sensordata);
	o->qfrc_applied = block_doubles(b, w->qfrc_applied, w->n_qfrc_applied);
	o->xfrc_applied = block_doubles(b, w->xfrc_applied, w->n_xfrc_applied);
	o->body = block_poses(b, w->body);
	o->geom = block_poses(b, w->geom);
	o->site = block_poses(b, w->site);
	o->contacts = block_contacts(b, w->contacts);
	o->status = NULL;
	if (w->status != NULL) {
		o->status = block_take(b, sizeof(hxd_status));
		if (o->status != NULL)
			conn_status_from_wire(o->status, w->status);
	}
	return f;
}

/* A frame from the wire as one block; NULL with the failure on c. */
static hxd_frame *
frame_from_wire(hxd_conn *c, const StreamFrame *w)
{
	struct block b = { NULL, 0 };

	if (frame_check(c, w) != HXD_OK)
		return NULL;
	frame_layout(&b, w);
	b.p = calloc(1, b.n);
	if (b.p == NULL) {
		conn_fail(c, HXD_CANNOTRECV, "out of memory");
		return NULL;
	}
	b.n = 0;
	return frame_layout(&b, w);
}

void
hxd_frame_free(hxd_frame *f)
{
	free(f);
}

/*------------------------------------------------------------ events */

/* Copy what an event of each kind carries. */
static int
event_from_wire(hxd_conn *c, const Haptix__V1__Event *w, hxd_event *ev)
{
	ev->time = w->time;
	switch (w->kind_case) {
	case HAPTIX__V1__EVENT__KIND_FRAME:
		ev->kind = HXD_EVENT_FRAME;
		ev->frame = frame_from_wire(c, w->frame);
		return ev->frame != NULL ? HXD_OK : c->result;
	case HAPTIX__V1__EVENT__KIND_MODEL:
		ev->kind = HXD_EVENT_MODEL;
		conn_model_from_wire(&ev->model, w->model->model);
		ev->reload = w->model->reload;
		ev->edited = w->model->edited;
		stream_lines(ev->operations, sizeof(ev->operations),
		    w->model->operations, w->model->n_operations);
		stream_lines(ev->removed, sizeof(ev->removed),
		    w->model->removed, w->model->n_removed);
		break;
	case HAPTIX__V1__EVENT__KIND_RESET:
		ev->kind = HXD_EVENT_RESET;
		ev->keyframe = w->reset->keyframe;
		snprintf(
		    ev->key_name, sizeof(ev->key_name), "%s", w->reset->name);
		ev->reset_to = w->reset->to_time;
		break;
	case HAPTIX__V1__EVENT__KIND_RUN:
		ev->kind = HXD_EVENT_RUN;
		ev->paused = w->run->paused;
		break;
	case HAPTIX__V1__EVENT__KIND_SPEED:
		ev->kind = HXD_EVENT_SPEED;
		ev->speed = w->speed->factor;
		ev->speed_max = w->speed->max;
		break;
	case HAPTIX__V1__EVENT__KIND_INSTABILITY:
		ev->kind = HXD_EVENT_INSTABILITY;
		ev->resets = w->instability->count;
		snprintf(
		    ev->what, sizeof(ev->what), "%s", w->instability->what);
		snprintf(ev->undone, sizeof(ev->undone), "%s",
		    w->instability->undone != NULL ? w->instability->undone :
						     "");
		break;
	case HAPTIX__V1__EVENT__KIND_MESSAGE:
		ev->kind = HXD_EVENT_MESSAGE;
		snprintf(ev->text, sizeof(ev->text), "%s", w->message->text);
		ev->from = w->message->from;
		break;
	case HAPTIX__V1__EVENT__KIND_LEASE:
		ev->kind = HXD_EVENT_LEASE;
		conn_lease_from_wire(&ev->lease, w->lease);
		break;
	case HAPTIX__V1__EVENT__KIND_CLIENT_JOINED:
		ev->kind = HXD_EVENT_CLIENT_JOINED;
		conn_client_from_wire(&ev->client, w->client_joined);
		break;
	case HAPTIX__V1__EVENT__KIND_CLIENT_LEFT:
		ev->kind = HXD_EVENT_CLIENT_LEFT;
		conn_client_from_wire(&ev->client, w->client_left);
		break;
	case HAPTIX__V1__EVENT__KIND_TRACKING:
		ev->kind = HXD_EVENT_TRACKING;
		conn_tracking_from_wire(&ev->tracking, w->tracking->tracking);
		snprintf(ev->why, sizeof(ev->why), "%s", w->tracking->why);
		ev->by = w->tracking->by;
		break;
	case HAPTIX__V1__EVENT__KIND_PERTURBATION:
		ev->kind = HXD_EVENT_PERTURBATION;
		conn_perturbation_from_wire(
		    &ev->perturbation, w->perturbation->perturbation);
		snprintf(ev->why, sizeof(ev->why), "%s", w->perturbation->why);
		break;
	case HAPTIX__V1__EVENT__KIND_SLOW_STEP:
		ev->kind = HXD_EVENT_SLOW_STEP;
		ev->step_seconds = w->slow_step->step_seconds;
		ev->usual_seconds = w->slow_step->usual_seconds;
		snprintf(
		    ev->reason, sizeof(ev->reason), "%s", w->slow_step->why);
		break;
	case HAPTIX__V1__EVENT__KIND_RECORDING_ENDED:
		ev->kind = HXD_EVENT_RECORDING;
		conn_recording_from_wire(&ev->recording, w->recording_ended);
		break;
	case HAPTIX__V1__EVENT__KIND_CAMERA:
		if (w->camera->n_pos != 3 || w->camera->n_quat != 4)
			return conn_fail(c, HXD_BADPROTOCOL,
			    "a camera event with %zu and %zu numbers",
			    w->camera->n_pos, w->camera->n_quat);
		ev->kind = HXD_EVENT_CAMERA;
		memcpy(ev->camera_pos, w->camera->pos, sizeof(ev->camera_pos));
		memcpy(
		    ev->camera_quat, w->camera->quat, sizeof(ev->camera_quat));
		ev->camera_default = w->camera->is_default;
		break;
	default:
		ev->kind = HXD_EVENT_UNKNOWN;
		break;
	}
	return HXD_OK;
}

int
hxd_next_event(hxd_conn *c, int timeout_ms, hxd_event **out)
{
	hxd_event *ev;
	Response *r;
	int rc;

	*out = NULL;
	rc = conn_next_event(c, timeout_ms, &r);
	if (rc != HXD_OK)
		return rc;
	ev = calloc(1, sizeof(*ev));
	if (ev == NULL) {
		conn_free_response(r);
		return conn_fail(c, HXD_CANNOTRECV, "out of memory");
	}
	rc = event_from_wire(c, r->event, ev);
	conn_free_response(r);
	if (rc != HXD_OK) {
		hxd_event_free(ev);
		return rc;
	}
	*out = ev;
	return conn_ok(c);
}

void
hxd_event_free(hxd_event *ev)
{
	if (ev == NULL)
		return;
	free(ev->frame);
	free(ev);
}

unsigned long long
hxd_events_lost(const hxd_conn *c)
{
	return c->events_lost;
}

/*-------------------------------------------------------- batch runs */

void
hxd_batch_result_free(hxd_batch_result *r)
{
	int i;

	if (r == NULL)
		return;
	for (i = 0; i < r->ntrajectory; i++)
		free(r->trajectory[i]);
	free(r->trajectory);
	free(r->sensor);
	free(r);
}

/* The public result of a BatchResult; NULL with the failure on c. */
static hxd_batch_result *
batch_from_wire(hxd_conn *c, const Haptix__V1__BatchResult *w)
{
	const Haptix__V1__Sensor *s = w->sensor;
	hxd_batch_result *r;
	size_t i;

	if (s == NULL || s->n_sensordata != s->nsensordata) {
		conn_fail(c, HXD_BADPROTOCOL,
		    "the server sent a batch result without its sensors");
		return NULL;
	}
	r = calloc(1, sizeof(*r));
	if (r == NULL)
		goto nomem;
	r->steps = w->steps;
	r->resets = w->resets;
	r->time = w->time;
	r->sensor = calloc(1,
	    ALIGN16(sizeof(hxd_sensor)) + s->n_sensordata * sizeof(double) + 1);
	r->trajectory = calloc(w->n_trajectory + 1, sizeof(hxd_frame *));
	if (r->sensor == NULL || r->trajectory == NULL)
		goto nomem;
	r->sensor->nsensordata = (int)s->nsensordata;
	r->sensor->time = s->time;
	r->sensor->sensordata = (double *)(void *)((char *)r->sensor +
	    ALIGN16(sizeof(hxd_sensor)));
	if (s->n_sensordata != 0)
		memcpy(r->sensor->sensordata, s->sensordata,
		    s->n_sensordata * sizeof(double));
	for (i = 0; i < w->n_trajectory; i++) {
		r->trajectory[i] = frame_from_wire(c, w->trajectory[i]);
		if (r->trajectory[i] == NULL) {
			hxd_batch_result_free(r);
			return NULL;
		}
		r->ntrajectory++;
	}
	return r;
nomem:
	hxd_batch_result_free(r);
	conn_fail(c, HXD_CANNOTRECV, "out of memory");
	return NULL;
}

int
hxd_batch_run(hxd_conn *c, const hxd_batch *b, hxd_batch_result **out)
{
	Haptix__V1__Batch w = HAPTIX__V1__BATCH__INIT;
	Haptix__V1__Control ctl = HAPTIX__V1__CONTROL__INIT;
	Haptix__V1__StreamField record[HXD_FIELD_MAX];
	Response *r;
	int rc;

	*out = NULL;
	if (b->control != NULL) {
		if (request_control(c, b->control, &ctl) != HXD_OK)
			return c->result;
		w.control = &ctl;
	}
	if (fields_to_wire(c, b->record, record, &w.n_record) != HXD_OK)
		return c->result;
	w.record = record;
	w.steps = b->steps;
	w.until_time = b->until_time;
	w.record_every = b->record_every;
	rc = request_call_wait(c, HAPTIX__V1__REQUEST__CALL_BATCH, &w,
	    HAPTIX__V1__RESPONSE__PAYLOAD_BATCH, &r, 0);
	if (rc == HXD_OK && (*out = batch_from_wire(c, r->batch)) == NULL)
		rc = c->result;
	conn_free_response(r);
	return rc;
}
