/*
 * The HAPTIX native API, one handler per call: check every size, index
 * and number from the client, then read or write the simulation.
 * Get calls point the response's arrays straight at MuJoCo's data; the
 * response is encoded before anything can change it.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "api.h"
#include "arena.h"
#include "clock.h"
#include "daemon.h"
#include "event.h"
#include "log.h"
#include "step.h"
#include "session.h"
#include "sim.h"
#include "sim_describe.h"
#include "snapshot.h"

/* The most steps one step request may take while paused. */
#define API_MAX_STEPS 10000

/* The protocol's name of an object type, for error texts. */
static const char *
objtype_name(int type)
{
	const ProtobufCEnumValue *v;

	v = protobuf_c_enum_descriptor_get_value(
	    &haptix__v1__obj_type__descriptor, type);
	return v != NULL ? v->name : "(unknown type)";
}

static const struct sim_sizes *
sizes(struct call *c)
{
	return sim_sizes(c->d->sim);
}

static const struct sim_arrays *
arrays(struct call *c)
{
	return sim_arrays(c->d->sim);
}

int
api_info(struct call *c)
{
	Haptix__V1__Info *info = NEW(
	    c, Haptix__V1__Info, haptix__v1__info__init);

	sim_describe_info(c->d->sim, c->arena, info);
	PAYLOAD(c, info, INFO, info);
	return RESULT_OK;
}

/*------------------------------------------------------------- state */

int
api_get_state(struct call *c)
{
	const struct sim_sizes *z = sizes(c);
	const struct sim_arrays *a = arrays(c);
	Haptix__V1__State *st = NEW(
	    c, Haptix__V1__State, haptix__v1__state__init);

	st->nq = (uint32_t)z->nq;
	st->nv = (uint32_t)z->nv;
	st->na = (uint32_t)z->na;
	st->time = sim_time(c->d->sim);
	st->n_qpos = (size_t)z->nq;
	st->qpos = (double *)a->qpos;
	st->n_qvel = (size_t)z->nv;
	st->qvel = (double *)a->qvel;
	st->n_act = (size_t)z->na;
	st->act = (double *)a->act;
	PAYLOAD(c, state, STATE, st);
	return RESULT_OK;
}

int
api_set_state(struct call *c)
{
	const Haptix__V1__State *st = c->req->set_state;
	const struct sim_sizes *z = sizes(c);
	int rc;

	if ((rc = check_count(c, "nq", st->nq, z->nq)) ||
	    (rc = check_count(c, "nv", st->nv, z->nv)) ||
	    (rc = check_count(c, "na", st->na, z->na)) ||
	    (rc = check_len(c, "qpos", st->n_qpos, (size_t)z->nq)) ||
	    (rc = check_len(c, "qvel", st->n_qvel, (size_t)z->nv)) ||
	    (rc = check_len(c, "act", st->n_act, (size_t)z->na)) ||
	    (rc = check_finite(c, "qpos", st->qpos, st->n_qpos)) ||
	    (rc = check_finite(c, "qvel", st->qvel, st->n_qvel)) ||
	    (rc = check_finite(c, "act", st->act, st->n_act)))
		return rc;
	sim_set_state(c->d->sim, st->qpos, st->qvel, st->act);
	return RESULT_OK;
}

/*----------------------------------------------------------- control */

int
api_get_control(struct call *c)
{
	PAYLOAD(c, control, CONTROL, snapshot_control(c->d, c->arena));
	return RESULT_OK;
}

int
api_control_apply(struct call *c, const Haptix__V1__Control *w)
{
	int rc, nu = sizes(c)->nu;

	if ((rc = check_count(c, "nu", w->nu, nu)) ||
	    (rc = check_len(c, "ctrl", w->n_ctrl, (size_t)nu)) ||
	    (rc = check_finite(c, "ctrl", w->ctrl, w->n_ctrl)))
		return rc;
	sim_set_ctrl(c->d->sim, w->ctrl);
	return RESULT_OK;
}

int
api_set_control(struct call *c)
{
	return api_control_apply(c, c->req->set_control);
}

/*----------------------------------------------------------- applied */

int
api_get_applied(struct call *c)
{
	const struct sim_sizes *z = sizes(c);
	Haptix__V1__Applied *w = NEW(
	    c, Haptix__V1__Applied, haptix__v1__applied__init);

	w->nv = (uint32_t)z->nv;
	w->nbody = (uint32_t)z->nbody;
	w->time = sim_time(c->d->sim);
	w->n_qfrc_applied = (size_t)z->nv;
	w->qfrc_applied = (double *)arrays(c)->qfrc_applied;
	w->n_xfrc_applied = 6 * (size_t)z->nbody;
	w->xfrc_applied = (double *)arrays(c)->xfrc_applied;
	PAYLOAD(c, applied, APPLIED, w);
	return RESULT_OK;
}

int
api_set_applied(struct call *c)
{
	const Haptix__V1__Applied *w = c->req->set_applied;
	const struct sim_sizes *z = sizes(c);
	int rc;

	if ((rc = check_count(c, "nv", w->nv, z->nv)) ||
	    (rc = check_count(c, "nbody", w->nbody, z->nbody)) ||
	    (rc = check_len(
		 c, "qfrc_applied", w->n_qfrc_applied, (size_t)z->nv)) ||
	    (rc = check_len(
		 c, "xfrc_applied", w->n_xfrc_applied, 6 * (size_t)z->nbody)) ||
	    (rc = check_finite(
		 c, "qfrc_applied", w->qfrc_applied, w->n_qfrc_applied)) ||
	    (rc = check_finite(
		 c, "xfrc_applied", w->xfrc_applied, w->n_xfrc_applied)))
		return rc;
	sim_set_applied(c->d->sim, w->qfrc_applied, w->xfrc_applied);
	return RESULT_OK;
}

/*---------------------------------------------------------- one body */

int
api_get_onebody(struct call *c)
{
	const Haptix__V1__ObjectRef *ref = c->req->get_onebody;
	Haptix__V1__OneBody *w;
	struct sim_onebody b;
	int rc;

	if ((rc = check_id(c, "body", ref->id, sizes(c)->nbody)))
		return rc;
	sim_onebody_get(c->d->sim, ref->id, &b);
	w = NEW(c, Haptix__V1__OneBody, haptix__v1__one_body__init);
	w->body_id = ref->id;
	w->is_floating = b.is_floating;
	w->time = sim_time(c->d->sim);
#define COPY(name, n) \
	w->n_##name = (n); \
	w->name = call_copy(c, b.name, (n))
	COPY(linacc, 3);
	COPY(angacc, 3);
	COPY(contactforce, 3);
	COPY(pos, 3);
	COPY(quat, 4);
	COPY(linvel, 3);
	COPY(angvel, 3);
	COPY(force, 3);
	COPY(torque, 3);
#undef COPY
	PAYLOAD(c, onebody, ONEBODY, w);
	return RESULT_OK;
}

int
api_set_onebody(struct call *c)
{
	const Haptix__V1__OneBody *w = c->req->set_onebody;
	struct sim_onebody b, now;
	unsigned fields = 0;
	int rc;

	if ((rc = check_id(c, "body", w->body_id, sizes(c)->nbody)) ||
	    (rc = check_optional(c, "pos", w->pos, w->n_pos, 3)) ||
	    (rc = check_optional(c, "quat", w->quat, w->n_quat, 4)) ||
	    (rc = check_optional(c, "linvel", w->linvel, w->n_linvel, 3)) ||
	    (rc = check_optional(c, "angvel", w->angvel, w->n_angvel, 3)) ||
	    (rc = check_optional(c, "force", w->force, w->n_force, 3)) ||
	    (rc = check_optional(c, "torque", w->torque, w->n_torque, 3)))
		return rc;
	sim_onebody_get(c->d->sim, w->body_id, &now);
	memset(&b, 0, sizeof(b));
#define TAKE(name, flag, n) \
	if (w->n_##name != 0) { \
		memcpy(b.name, w->name, (n) * sizeof(double)); \
		fields |= (flag); \
	}
	/* Pose and velocity apply to floating bodies only, as in HAPTIX. */
	if (now.is_floating) {
		if (w->n_quat != 0 &&
		    (rc = check_quats(c, "quat", w->quat, 1)) != 0)
			return rc;
		TAKE(pos, SIM_BODY_POS, 3);
		TAKE(quat, SIM_BODY_QUAT, 4);
		TAKE(linvel, SIM_BODY_LINVEL, 3);
		TAKE(angvel, SIM_BODY_ANGVEL, 3);
	}
	TAKE(force, SIM_BODY_FORCE, 3);
	TAKE(torque, SIM_BODY_TORQUE, 3);
#undef TAKE
	sim_onebody_set(c->d->sim, w->body_id, &b, fields);
	return RESULT_OK;
}

/*------------------------------------------------------------- mocap */

int
api_get_mocap(struct call *c)
{
	size_t n = (size_t)sizes(c)->nmocap;
	Haptix__V1__Mocap *w = NEW(
	    c, Haptix__V1__Mocap, haptix__v1__mocap__init);

	w->nmocap = (uint32_t)n;
	w->time = sim_time(c->d->sim);
	w->n_pos = 3 * n;
	w->pos = (double *)arrays(c)->mocap_pos;
	w->n_quat = 4 * n;
	w->quat = (double *)arrays(c)->mocap_quat;
	PAYLOAD(c, mocap, MOCAP, w);
	return RESULT_OK;
}

int
api_set_mocap(struct call *c)
{
	const Haptix__V1__Mocap *w = c->req->set_mocap;
	size_t n = (size_t)sizes(c)->nmocap;
	int rc;

	if ((rc = check_count(c, "nmocap", w->nmocap, (int)n)) ||
	    (rc = check_len(c, "pos", w->n_pos, 3 * n)) ||
	    (rc = check_len(c, "quat", w->n_quat, 4 * n)) ||
	    (rc = check_finite(c, "pos", w->pos, w->n_pos)) ||
	    (rc = check_finite(c, "quat", w->quat, w->n_quat)) ||
	    (rc = check_quats(c, "quat", w->quat, n)))
		return rc;
	sim_set_mocap(c->d->sim, w->pos, w->quat);
	return RESULT_OK;
}

/*---------------------------------------------------------- get only */

int
api_get_dynamics(struct call *c)
{
	const struct sim_sizes *z = sizes(c);
	Haptix__V1__Dynamics *w = NEW(
	    c, Haptix__V1__Dynamics, haptix__v1__dynamics__init);

	w->nv = (uint32_t)z->nv;
	w->na = (uint32_t)z->na;
	w->time = sim_time(c->d->sim);
	w->n_qacc = (size_t)z->nv;
	w->qacc = (double *)arrays(c)->qacc;
	w->n_act_dot = (size_t)z->na;
	w->act_dot = (double *)arrays(c)->act_dot;
	PAYLOAD(c, dynamics, DYNAMICS, w);
	return RESULT_OK;
}

int
api_get_sensor(struct call *c)
{
	PAYLOAD(c, sensor, SENSOR, snapshot_sensor(c->d, c->arena));
	return RESULT_OK;
}

/* Answer with the poses of one kind of object. */
static int
poses(struct call *c, enum snapshot_objects which)
{
	PAYLOAD(c, poses, POSES, snapshot_poses(c->d, c->arena, which));
	return RESULT_OK;
}

int
api_get_body(struct call *c)
{
	return poses(c, SNAPSHOT_BODY);
}

int
api_get_geom(struct call *c)
{
	return poses(c, SNAPSHOT_GEOM);
}

int
api_get_site(struct call *c)
{
	return poses(c, SNAPSHOT_SITE);
}

int
api_get_tendon(struct call *c)
{
	size_t n = (size_t)sizes(c)->ntendon;
	Haptix__V1__Tendon *w = NEW(
	    c, Haptix__V1__Tendon, haptix__v1__tendon__init);

	w->ntendon = (uint32_t)n;
	w->time = sim_time(c->d->sim);
	w->n_length = n;
	w->length = (double *)arrays(c)->ten_length;
	w->n_velocity = n;
	w->velocity = (double *)arrays(c)->ten_velocity;
	PAYLOAD(c, tendon, TENDON, w);
	return RESULT_OK;
}

int
api_get_actuator(struct call *c)
{
	size_t n = (size_t)sizes(c)->nu;
	Haptix__V1__Actuator *w = NEW(
	    c, Haptix__V1__Actuator, haptix__v1__actuator__init);

	w->nu = (uint32_t)n;
	w->time = sim_time(c->d->sim);
	w->n_length = n;
	w->length = (double *)arrays(c)->actuator_length;
	w->n_velocity = n;
	w->velocity = (double *)arrays(c)->actuator_velocity;
	w->n_force = n;
	w->force = (double *)arrays(c)->actuator_force;
	PAYLOAD(c, actuator, ACTUATOR, w);
	return RESULT_OK;
}

int
api_get_force(struct call *c)
{
	const struct sim_arrays *a = arrays(c);
	size_t n = (size_t)sizes(c)->nv;
	Haptix__V1__Force *w = NEW(
	    c, Haptix__V1__Force, haptix__v1__force__init);

	w->nv = (uint32_t)n;
	w->time = sim_time(c->d->sim);
	w->applied = arena_alloc(c->arena, n * sizeof(double));
	sim_force_applied(c->d->sim, w->applied);
	w->n_applied = n;
	w->n_passive = w->n_bias = w->n_actuator = w->n_constraint =
	    w->n_nonconstraint = n;
	w->passive = (double *)a->qfrc_passive;
	w->bias = (double *)a->qfrc_bias;
	w->actuator = (double *)a->qfrc_actuator;
	w->constraint = (double *)a->qfrc_constraint;
	w->nonconstraint = (double *)a->qfrc_smooth;
	PAYLOAD(c, force, FORCE, w);
	return RESULT_OK;
}

int
api_get_contact(struct call *c)
{
	PAYLOAD(c, contacts, CONTACTS, snapshot_contacts(c->d, c->arena));
	return RESULT_OK;
}

/*---------------------------------------------------- geoms, colours */

int
api_set_geomsize(struct call *c)
{
	const Haptix__V1__GeomSize *w = c->req->set_geomsize;
	int rc;

	if ((rc = check_id(c, "geom", w->id, sizes(c)->ngeom)) ||
	    (rc = check_len(c, "size", w->n_size, 3)) ||
	    (rc = check_finite(c, "size", w->size, 3)))
		return rc;
	rc = sim_set_geomsize(
	    c->d->sim, w->id, w->size, c->err, sizeof(c->err));
	if (rc == -1)
		return RESULT_BADTYPE;
	if (rc == -2)
		return RESULT_BADVALUE;
	return RESULT_OK;
}

/* Explain a failed colour lookup. */
static int
rgba_fail(struct call *c, int rc, int type, int id)
{
	if (rc == -1)
		return call_fail(c, RESULT_BADTYPE,
		    "%s (%d) has no colour: use "
		    "OBJ_GEOM, OBJ_SITE, OBJ_TENDON or OBJ_MATERIAL",
		    objtype_name(type), type);
	return call_fail(c, RESULT_BADINDEX, "id %d is out of range for %s", id,
	    objtype_name(type));
}

int
api_get_rgba(struct call *c)
{
	const Haptix__V1__ObjectRef *ref = c->req->get_rgba;
	Haptix__V1__Rgba *w;
	double rgba[4];
	int rc;

	rc = sim_rgba_get(c->d->sim, ref->type, ref->id, rgba);
	if (rc != 0)
		return rgba_fail(c, rc, ref->type, ref->id);
	w = NEW(c, Haptix__V1__Rgba, haptix__v1__rgba__init);
	w->type = ref->type;
	w->id = ref->id;
	w->n_rgba = 4;
	w->rgba = call_copy(c, rgba, 4);
	PAYLOAD(c, rgba, RGBA, w);
	return RESULT_OK;
}

int
api_set_rgba(struct call *c)
{
	const Haptix__V1__Rgba *w = c->req->set_rgba;
	double now[4];
	int rc;

	/* Type and index first: they are what HAPTIX documents. */
	rc = sim_rgba_get(c->d->sim, w->type, w->id, now);
	if (rc != 0)
		return rgba_fail(c, rc, w->type, w->id);
	if ((rc = check_len(c, "rgba", w->n_rgba, 4)) ||
	    (rc = check_finite(c, "rgba", w->rgba, 4)))
		return rc;
	sim_rgba_set(c->d->sim, w->type, w->id, w->rgba);
	return RESULT_OK;
}

/*---------------------------------------------------------- stepping */

int
api_step(struct call *c)
{
	Haptix__V1__StepDone *w = NEW(
	    c, Haptix__V1__StepDone, haptix__v1__step_done__init);
	unsigned n = c->req->step->count, i;
	char err[1100];
	int rc;

	if (n == 0)
		n = 1;
	if (n > API_MAX_STEPS)
		return call_fail(c, RESULT_BADVALUE,
		    "count %u is more than "
		    "%d steps in one request (batch takes more)",
		    n, API_MAX_STEPS);
	/* HAPTIX: stepping while running has no effect. */
	if (!clock_running(c->d->clock)) {
		for (i = 0; i < n; i++) {
			rc = step_one(c->d, err, sizeof(err));
			if (rc != 0)
				return call_fail(c, RESULT_SIMERROR,
				    "step %u "
				    "of %u: %s",
				    i + 1, n, err);
		}
		w->steps = n;
	}
	w->time = sim_time(c->d->sim);
	PAYLOAD(c, step_done, STEP_DONE, w);
	return RESULT_OK;
}

/* The payload of an update answered at the API tick. */
static void
update_fill(struct daemon *d, struct arena *a, Response *resp)
{
	resp->payload_case = HAPTIX__V1__RESPONSE__PAYLOAD_SENSOR;
	resp->sensor = snapshot_sensor(d, a);
}

int
api_update_writes(const struct call *c)
{
	/* Without controls, waiting for the tick only reads. */
	return c->req->update->control != NULL || !clock_running(c->d->clock);
}

int
api_update(struct call *c)
{
	const Haptix__V1__Update *u = c->req->update;
	int paused = !clock_running(c->d->clock);
	char err[1100];
	int rc;

	if (u->control != NULL && (rc = api_control_apply(c, u->control)) != 0)
		return rc;
	if (paused) {
		rc = step_one(c->d, err, sizeof(err));
		if (rc != 0)
			return call_fail(c, RESULT_SIMERROR, "%s", err);
	} else if (sizes(c)->apirate >= 1) {
		c->fill = update_fill;
		return CALL_WAIT_TICK;
	}
	PAYLOAD(c, sensor, SENSOR, snapshot_sensor(c->d, c->arena));
	return RESULT_OK;
}

int
api_reset(struct call *c)
{
	const Haptix__V1__Reset *w = c->req->reset;
	int key = w->keyframe, rc;

	if (w->name[0] != '\0') {
		key = sim_reset_name(c->d->sim, w->name);
		if (key == -2)
			return call_fail(c, RESULT_BADINDEX,
			    "no keyframe or captured state is named \"%s\"",
			    w->name);
		log_info("client %llu: reset to \"%s\"",
		    (unsigned long long)c->s->id, w->name);
		event_reset(c->d, key, w->name);
		return RESULT_OK;
	}
	if (key >= 0 && (rc = check_id(c, "keyframe", key, sizes(c)->nkey)))
		return rc;
	sim_reset(c->d->sim, key);
	log_info("client %llu: reset to %s %d", (unsigned long long)c->s->id,
	    key >= 0 ? "keyframe" : "the reference configuration,", key);
	event_reset(c->d, key < 0 ? -1 : key, NULL);
	return RESULT_OK;
}

int
api_capture_key(struct call *c)
{
	const Haptix__V1__KeyCapture *w = c->req->capture_key;
	int key = w->keyframe, rc;

	if (w->name[0] == '\0' &&
	    (rc = check_id(c, "keyframe", key, sizes(c)->nkey)))
		return rc;
	key = sim_key_capture(c->d->sim, w->name, key, c->err, sizeof(c->err));
	if (key == -2)
		return RESULT_BADVALUE;
	if (key >= 0)
		log_info("client %llu: state captured into keyframe %d%s%s",
		    (unsigned long long)c->s->id, key,
		    w->name[0] != '\0' ? " " : "", w->name);
	else
		log_info("client %llu: state captured as \"%s\"",
		    (unsigned long long)c->s->id, w->name);
	return RESULT_OK;
}

int
api_set_joint(struct call *c)
{
	const Haptix__V1__JointSet *w = c->req->set_joint;
	int rc;

	if ((rc = check_finite(c, "qpos", w->qpos, w->n_qpos)) ||
	    (rc = check_finite(c, "qvel", w->qvel, w->n_qvel)))
		return rc;
	switch (sim_joint_set(c->d->sim, w->name, w->qpos, w->n_qpos, w->qvel,
	    w->n_qvel, c->err, sizeof(c->err))) {
	case -1:
		return RESULT_BADINDEX;
	case -2:
		return RESULT_BADSIZE;
	case -3:
		return RESULT_BADVALUE;
	default:
		return RESULT_OK;
	}
}

int
api_equality(struct call *c)
{
	const Haptix__V1__Equality *w = c->req->equality;
	int rc;

	if ((rc = check_id(c, "equality", w->id, sizes(c)->neq)))
		return rc;
	if (w->state != 0 && w->state != 1)
		return call_fail(c, RESULT_BADVALUE,
		    "state %d is neither 0 "
		    "(disable) nor 1 (enable)",
		    w->state);
	sim_equality(c->d->sim, w->id, w->state);
	return RESULT_OK;
}

int
api_message(struct call *c)
{
	const char *text = c->req->message->text;
	struct daemon *d = c->d;
	size_t n = strlen(text);

	if (n > DAEMON_MESSAGE_MAX)
		return call_fail(c, RESULT_BADSIZE,
		    "message of %zu bytes is "
		    "longer than %d",
		    n, DAEMON_MESSAGE_MAX);
	memcpy(d->message, text, n + 1);
	d->message_owner = n != 0 ? c->s->id : 0;
	log_info(
	    "client %llu: message: \"%s\"", (unsigned long long)c->s->id, text);
	event_message(d);
	return RESULT_OK;
}

/*------------------------------------------------------------- names */

int
api_name2id(struct call *c)
{
	const Haptix__V1__ObjectRef *ref = c->req->name2id;
	Haptix__V1__ObjectRef *w;
	int id;

	id = sim_name2id(c->d->sim, ref->type, ref->name);
	if (id == -2)
		return call_fail(c, RESULT_BADTYPE, "%s (%d) has no names",
		    objtype_name(ref->type), ref->type);
	w = NEW(c, Haptix__V1__ObjectRef, haptix__v1__object_ref__init);
	w->type = ref->type;
	w->id = id;
	w->name = ref->name;
	PAYLOAD(c, object, OBJECT, w);
	return RESULT_OK;
}

int
api_id2name(struct call *c)
{
	const Haptix__V1__ObjectRef *ref = c->req->id2name;
	Haptix__V1__ObjectRef *w;
	const char *name;
	int bad_index;

	name = sim_id2name(c->d->sim, ref->type, ref->id, &bad_index);
	if (name == NULL && bad_index)
		return call_fail(c, RESULT_BADINDEX,
		    "id %d is out of range "
		    "for %s",
		    ref->id, objtype_name(ref->type));
	if (name == NULL)
		return call_fail(c, RESULT_BADTYPE, "%s (%d) has no names",
		    objtype_name(ref->type), ref->type);
	w = NEW(c, Haptix__V1__ObjectRef, haptix__v1__object_ref__init);
	w->type = ref->type;
	w->id = ref->id;
	w->name = (char *)name;
	PAYLOAD(c, object, OBJECT, w);
	return RESULT_OK;
}
