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

static const struct decode_field dynamics_fields[] = DECODE_TABLE(
    hxd_dynamics, Dynamics);
static const struct decode_field poses_fields[] = DECODE_TABLE(
    hxd_poses, Poses);
static const struct decode_field tendon_fields[] = DECODE_TABLE(
    hxd_tendon, Tendon);
static const struct decode_field actuator_fields[] = DECODE_TABLE(
    hxd_actuator, Actuator);
static const struct decode_field force_fields[] = DECODE_TABLE(
    hxd_force, Force);
static const struct decode_field contacts_fields[] = DECODE_TABLE(
    hxd_contacts, Contacts);
static const struct decode_field onebody_fields[] = DECODE_TABLE(
    hxd_onebody, OneBody);

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
	Response *r;
	int rc;

	ref.type = HAPTIX__V1__OBJ_TYPE__OBJ_BODY;
	ref.id = body_id;
	rc = request_call(c, HAPTIX__V1__REQUEST__CALL_GET_ONEBODY, &ref,
	    HAPTIX__V1__RESPONSE__PAYLOAD_ONEBODY, &r);
	if (rc != HXD_OK)
		return rc;
	memset(out, 0, sizeof(*out));
	if (decode_into(c, r->onebody, onebody_fields, NELEM(onebody_fields),
		out) != 0) {
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
		rc = conn_fail(c, HXD_BADPROTOCOL,
		    "the server sent a joint of %zu and %zu values", w->n_qpos,
		    w->n_qvel);
		conn_free_response(r);
		return rc;
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
