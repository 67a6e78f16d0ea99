/*
 * The extension API's views of the simulation (haptixd.h): state,
 * controls, applied forces, one body, mocap bodies, dynamics, sensors,
 * poses, tendons, actuators, forces and contacts, each decoded by its
 * table into one block; one joint by name.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "request.h"
#include "tables.h"

static const struct decode_field dynamics_fields[] = {
	DECODE_SCALAR(hxd_dynamics, nv),
	DECODE_SCALAR(hxd_dynamics, na),
	DECODE_SCALAR(hxd_dynamics, time),
	DECODE_ARRAY(hxd_dynamics, qacc, "nv", 1),
	DECODE_ARRAY(hxd_dynamics, act_dot, "na", 1),
};

static const struct decode_field poses_fields[] = {
	DECODE_SCALAR(hxd_poses, count),
	DECODE_SCALAR(hxd_poses, time),
	DECODE_ARRAY(hxd_poses, pos, "count", 3),
	DECODE_ARRAY(hxd_poses, mat, "count", 9),
};

static const struct decode_field tendon_fields[] = {
	DECODE_SCALAR(hxd_tendon, ntendon),
	DECODE_SCALAR(hxd_tendon, time),
	DECODE_ARRAY(hxd_tendon, length, "ntendon", 1),
	DECODE_ARRAY(hxd_tendon, velocity, "ntendon", 1),
};

static const struct decode_field actuator_fields[] = {
	DECODE_SCALAR(hxd_actuator, nu),
	DECODE_SCALAR(hxd_actuator, time),
	DECODE_ARRAY(hxd_actuator, length, "nu", 1),
	DECODE_ARRAY(hxd_actuator, velocity, "nu", 1),
	DECODE_ARRAY(hxd_actuator, force, "nu", 1),
};

static const struct decode_field force_fields[] = {
	DECODE_SCALAR(hxd_force, nv),
	DECODE_SCALAR(hxd_force, time),
	DECODE_ARRAY(hxd_force, applied, "nv", 1),
	DECODE_ARRAY(hxd_force, passive, "nv", 1),
	DECODE_ARRAY(hxd_force, bias, "nv", 1),
	DECODE_ARRAY(hxd_force, actuator, "nv", 1),
	DECODE_ARRAY(hxd_force, constraint, "nv", 1),
	DECODE_ARRAY(hxd_force, nonconstraint, "nv", 1),
};

static const struct decode_field contacts_fields[] = {
	DECODE_SCALAR(hxd_contacts, ncon),
	DECODE_SCALAR(hxd_contacts, time),
	DECODE_ARRAY(hxd_contacts, dist, "ncon", 1),
	DECODE_ARRAY(hxd_contacts, pos, "ncon", 3),
	DECODE_ARRAY(hxd_contacts, frame, "ncon", 9),
	DECODE_ARRAY(hxd_contacts, force, "ncon", 3),
	DECODE_ARRAY(hxd_contacts, geom1, "ncon", 1),
	DECODE_ARRAY(hxd_contacts, geom2, "ncon", 1),
};

int
hxd_get_state(hxd_conn *c, hxd_state **out)
{
	return REQUEST_GET(c, GET_STATE, STATE, hxd_state, state_fields, out);
}

int
hxd_get_control(hxd_conn *c, hxd_control **out)
{
	return REQUEST_GET(
	    c, GET_CONTROL, CONTROL, hxd_control, control_fields, out);
}

int
hxd_get_applied(hxd_conn *c, hxd_applied **out)
{
	return REQUEST_GET(
	    c, GET_APPLIED, APPLIED, hxd_applied, applied_fields, out);
}

int
hxd_get_onebody(hxd_conn *c, int body_id, hxd_onebody *out)
{
	Haptix__V1__ObjectRef ref = HAPTIX__V1__OBJECT_REF__INIT;
	Haptix__V1__OneBody *w;
	Response *r;
	int rc;

	ref.type = HAPTIX__V1__OBJ_TYPE__OBJ_BODY;
	ref.id = body_id;
	rc = request_call(c, HAPTIX__V1__REQUEST__CALL_GET_ONEBODY, &ref,
	    HAPTIX__V1__RESPONSE__PAYLOAD_ONEBODY, &r);
	if (rc != HXD_OK)
		return rc;
	w = r->onebody;
	memset(out, 0, sizeof(*out));
	out->body_id = w->body_id;
	out->is_floating = w->is_floating;
	out->time = w->time;
	if (decode_fixed(c, "linacc", out->linacc, 3, w->linacc, w->n_linacc) ||
	    decode_fixed(c, "angacc", out->angacc, 3, w->angacc, w->n_angacc) ||
	    decode_fixed(c, "contactforce", out->contactforce, 3,
		w->contactforce, w->n_contactforce) ||
	    decode_fixed(c, "pos", out->pos, 3, w->pos, w->n_pos) ||
	    decode_fixed(c, "quat", out->quat, 4, w->quat, w->n_quat) ||
	    decode_fixed(c, "linvel", out->linvel, 3, w->linvel, w->n_linvel) ||
	    decode_fixed(c, "angvel", out->angvel, 3, w->angvel, w->n_angvel) ||
	    decode_fixed(c, "force", out->force, 3, w->force, w->n_force) ||
	    decode_fixed(c, "torque", out->torque, 3, w->torque, w->n_torque)) {
		conn_free_response(r);
		return c->result;
	}
	conn_free_response(r);
	return conn_ok(c);
}

int
hxd_get_mocap(hxd_conn *c, hxd_mocap **out)
{
	return REQUEST_GET(c, GET_MOCAP, MOCAP, hxd_mocap, mocap_fields, out);
}

int
hxd_get_dynamics(hxd_conn *c, hxd_dynamics **out)
{
	return REQUEST_GET(
	    c, GET_DYNAMICS, DYNAMICS, hxd_dynamics, dynamics_fields, out);
}

int
hxd_get_sensor(hxd_conn *c, hxd_sensor **out)
{
	return REQUEST_GET(
	    c, GET_SENSOR, SENSOR, hxd_sensor, sensor_fields, out);
}

int
hxd_get_body(hxd_conn *c, hxd_poses **out)
{
	return REQUEST_GET(c, GET_BODY, POSES, hxd_poses, poses_fields, out);
}

int
hxd_get_geom(hxd_conn *c, hxd_poses **out)
{
	return REQUEST_GET(c, GET_GEOM, POSES, hxd_poses, poses_fields, out);
}

int
hxd_get_site(hxd_conn *c, hxd_poses **out)
{
	return REQUEST_GET(c, GET_SITE, POSES, hxd_poses, poses_fields, out);
}

int
hxd_get_tendon(hxd_conn *c, hxd_tendon **out)
{
	return REQUEST_GET(
	    c, GET_TENDON, TENDON, hxd_tendon, tendon_fields, out);
}

int
hxd_get_actuator(hxd_conn *c, hxd_actuator **out)
{
	return REQUEST_GET(
	    c, GET_ACTUATOR, ACTUATOR, hxd_actuator, actuator_fields, out);
}

int
hxd_get_force(hxd_conn *c, hxd_force **out)
{
	return REQUEST_GET(c, GET_FORCE, FORCE, hxd_force, force_fields, out);
}

int
hxd_get_contact(hxd_conn *c, hxd_contacts **out)
{
	return REQUEST_GET(
	    c, GET_CONTACT, CONTACTS, hxd_contacts, contacts_fields, out);
}

int
hxd_get_joint(hxd_conn *c, const char *name, int id, hxd_joint *out)
{
	Haptix__V1__ObjectRef ref = HAPTIX__V1__OBJECT_REF__INIT;
	Haptix__V1__Joint *w;
	Response *r;
	int rc;

	ref.type = HAPTIX__V1__OBJ_TYPE__OBJ_JOINT;
	ref.id = id;
	ref.name = (char *)(name != NULL ? name : "");
	rc = request_call(c, HAPTIX__V1__REQUEST__CALL_GET_JOINT, &ref,
	    HAPTIX__V1__RESPONSE__PAYLOAD_JOINT, &r);
	if (rc != HXD_OK)
		return rc;
	w = r->joint;
	memset(out, 0, sizeof(*out));
	snprintf(out->name, sizeof(out->name), "%s", w->name);
	snprintf(out->body, sizeof(out->body), "%s", w->body);
	out->id = w->id;
	out->type = (int)w->type;
	out->body_id = w->body_id;
	out->qpos_adr = w->qpos_adr;
	out->dof_adr = w->dof_adr;
	out->limited = w->limited;
	out->nq = (int)w->n_qpos;
	out->nv = (int)w->n_qvel;
	out->time = w->time;
	if (w->n_qpos > 7 || w->n_qvel > 6) {
		conn_free_response(r);
		return conn_fail(c, HXD_BADPROTOCOL,
		    "the server sent a joint of %zu and %zu values", w->n_qpos,
		    w->n_qvel);
	}
	if (decode_fixed(c, "axis", out->axis, 3, w->axis, w->n_axis) ||
	    decode_fixed(c, "range", out->range, 2, w->range, w->n_range) ||
	    decode_fixed(c, "qpos", out->qpos, w->n_qpos, w->qpos, w->n_qpos) ||
	    decode_fixed(c, "qvel", out->qvel, w->n_qvel, w->qvel, w->n_qvel)) {
		conn_free_response(r);
		return c->result;
	}
	conn_free_response(r);
	return conn_ok(c);
}
