/*
 * Reading the simulation (hxctl's views): state, controls, applied
 * forces, one body, mocap bodies, dynamics, sensors, poses, tendons,
 * actuators, forces and contacts; one joint by name.  The views that are
 * MuJoCo's arrays come from protomsg_view(), whose table says where each
 * field comes from.  The answers' arrays point straight into MuJoCo's
 * data and are encoded before anything can change them.
 */
#include "config.h"

#include "api.h"
#include "arena.h"
#include "protomsg.h"
#include "sim_access.h"
#include "sim_key.h"

int
api_get_state(struct call *c)
{
	PAYLOAD(c, state, STATE, protomsg_view(c->d, c->arena, PROTOMSG_STATE));
	return RESULT_OK;
}

int
api_get_control(struct call *c)
{
	PAYLOAD(c, control, CONTROL,
	    protomsg_view(c->d, c->arena, PROTOMSG_CONTROL));
	return RESULT_OK;
}

int
api_get_applied(struct call *c)
{
	PAYLOAD(c, applied, APPLIED,
	    protomsg_view(c->d, c->arena, PROTOMSG_APPLIED));
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
	PAYLOAD(c, mocap, MOCAP, protomsg_view(c->d, c->arena, PROTOMSG_MOCAP));
	return RESULT_OK;
}

int
api_get_dynamics(struct call *c)
{
	PAYLOAD(c, dynamics, DYNAMICS,
	    protomsg_view(c->d, c->arena, PROTOMSG_DYNAMICS));
	return RESULT_OK;
}

int
api_get_sensor(struct call *c)
{
	PAYLOAD(
	    c, sensor, SENSOR, protomsg_view(c->d, c->arena, PROTOMSG_SENSOR));
	return RESULT_OK;
}

/* Answer with the poses of one kind of object. */
static int
poses(struct call *c, enum protomsg_objects which)
{
	PAYLOAD(c, poses, POSES, protomsg_poses(c->d, c->arena, which));
	return RESULT_OK;
}

int
api_get_body(struct call *c)
{
	return poses(c, PROTOMSG_BODY);
}

int
api_get_geom(struct call *c)
{
	return poses(c, PROTOMSG_GEOM);
}

int
api_get_site(struct call *c)
{
	return poses(c, PROTOMSG_SITE);
}

int
api_get_tendon(struct call *c)
{
	PAYLOAD(
	    c, tendon, TENDON, protomsg_view(c->d, c->arena, PROTOMSG_TENDON));
	return RESULT_OK;
}

int
api_get_actuator(struct call *c)
{
	PAYLOAD(c, actuator, ACTUATOR,
	    protomsg_view(c->d, c->arena, PROTOMSG_ACTUATOR));
	return RESULT_OK;
}

int
api_get_force(struct call *c)
{
	PAYLOAD(c, force, FORCE, protomsg_view(c->d, c->arena, PROTOMSG_FORCE));
	return RESULT_OK;
}

int
api_get_contact(struct call *c)
{
	PAYLOAD(c, contacts, CONTACTS, protomsg_contacts(c->d, c->arena));
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
