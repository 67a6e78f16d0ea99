/*
 * Reading the simulation (hxctl's views): state, controls, applied
 * forces, one body, mocap bodies, dynamics, sensors, poses, tendons,
 * actuators, forces and contacts; one joint by name.  The answers' arrays point
 * straight into MuJoCo's data and are encoded before anything can change them.
 */
#include "config.h"

#include "api.h"
#include "arena.h"
#include "snapshot.h"

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
api_get_control(struct call *c)
{
	PAYLOAD(c, control, CONTROL, snapshot_control(c->d, c->arena));
	return RESULT_OK;
}

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

int
api_get_joint(struct call *c)
{
	const Haptix__V1__ObjectRef *r = c->req->get_joint;
	Haptix__V1__Joint *w;
	struct sim_joint j;

	if (sim_joint_get(
		c->d->sim, r->name, r->id, &j, c->err, sizeof(c->err)) != 0)
		return RESULT_BADINDEX;
	w = NEW(c, Haptix__V1__Joint, haptix__v1__joint__init);
	w->name = (char *)j.name;
	w->id = j.id;
	w->type = (Haptix__V1__JointType)j.type;
	w->body = (char *)j.body;
	w->body_id = j.body_id;
	w->qpos_adr = j.qpos_adr;
	w->dof_adr = j.dof_adr;
	w->n_axis = 3;
	w->axis = call_copy(c, j.axis, 3);
	w->limited = j.limited != 0;
	w->n_range = 2;
	w->range = call_copy(c, j.range, 2);
	w->n_qpos = (size_t)j.nq;
	w->qpos = (double *)j.qpos;
	w->n_qvel = (size_t)j.nv;
	w->qvel = (double *)j.qvel;
	w->time = sim_time(c->d->sim);
	PAYLOAD(c, joint, JOINT, w);
	return RESULT_OK;
}
