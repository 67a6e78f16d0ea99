/*
 * The haptixd extension API (haptixd.h): each call builds one Request,
 * runs it through request_call() and turns the Response into the public
 * double-precision structs.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conn.h"
#include "decode.h"
#include "request.h"

_Static_assert(HXD_DEFAULT_PORT == ADDRESS_DEFAULT_PORT,
    "haptixd.h and address.h disagree on the default port");

static const char *const result_names[] = {
	"mjCOM_OK",
	"mjCOM_BADSIZE",
	"mjCOM_BADINDEX",
	"mjCOM_BADTYPE",
	"mjCOM_BADCOMMAND",
	"mjCOM_NOMODEL",
	"mjCOM_CANNOTSEND",
	"mjCOM_CANNOTRECV",
	"mjCOM_TIMEOUT",
	"mjCOM_NOCONNECTION",
	"mjCOM_CONNECTED",
	"mjCOM_BADVALUE",
	"mjCOM_DENIED",
	"mjCOM_LOADFAILED",
	"mjCOM_BADPROTOCOL",
	"mjCOM_SIMERROR",
};

static const char *const result_texts[] = {
	"success",
	"data has invalid size",
	"object has invalid index",
	"invalid object type",
	"unknown command",
	"model has not been loaded",
	"could not send data",
	"could not receive data",
	"receive timeout",
	"connection not established",
	"already connected",
	"invalid value (NaN, Inf or out of range)",
	"permission denied",
	"model failed to load",
	"protocol error",
	"simulation error",
};

static const char *const obj_names[] = {
	"unknown",
	"body",
	"xbody",
	"joint",
	"dof",
	"geom",
	"site",
	"camera",
	"light",
	"mesh",
	"skin",
	"hfield",
	"texture",
	"material",
	"pair",
	"exclude",
	"equality",
	"tendon",
	"actuator",
	"sensor",
	"numeric",
	"text",
	"tuple",
	"key",
};

const char *
hxd_result_name(int result)
{
	if (result > 0 || (size_t)-result >= NELEM(result_names))
		return "mjCOM_UNKNOWN";
	return result_names[-result];
}

const char *
hxd_result_text(int result)
{
	if (result > 0 || (size_t)-result >= NELEM(result_texts))
		return "unknown result";
	return result_texts[-result];
}

int
hxd_obj_parse(const char *s)
{
	size_t i;

	if (s == NULL)
		return HXD_OBJ_UNKNOWN;
	for (i = 1; i < NELEM(obj_names); i++) {
		if (strcmp(s, obj_names[i]) == 0)
			return (int)i;
	}
	if (strcmp(s, "keyframe") == 0)
		return HXD_OBJ_KEY;
	return HXD_OBJ_UNKNOWN;
}

const char *
hxd_obj_name(int type)
{
	if (type < 0 || (size_t)type >= NELEM(obj_names))
		return "unknown";
	return obj_names[type];
}

/* Run a get call with an Empty argument and decode its payload into *out. */
static int
get_decoded(hxd_conn *c, Haptix__V1__Request__CallCase call,
    Haptix__V1__Response__PayloadCase want, const struct decode_field *f,
    size_t nf, size_t head, void **out)
{
	Response *r;
	int rc;

	*out = NULL;
	rc = request_call(c, call, NULL, want, &r);
	if (rc != HXD_OK)
		return rc;
	*out = decode_payload(c, r, f, nf, head);
	conn_free_response(r);
	return c->result;
}

#define GET(c, CALL, PAYLOAD, type, table, out) \
	get_decoded((c), HAPTIX__V1__REQUEST__CALL_##CALL, \
	    HAPTIX__V1__RESPONSE__PAYLOAD_##PAYLOAD, (table), NELEM(table), \
	    sizeof(type), (void **)(out))

/* Check a caller's count before it goes on the wire. */
static int
check_arg(hxd_conn *c, const char *what, int n, const void *p)
{
	if (n < 0)
		return conn_fail(
		    c, HXD_BADSIZE, "%s is negative (%d)", what, n);
	if (n > 0 && p == NULL)
		return conn_fail(c, HXD_BADSIZE,
		    "%s is %d but its array is "
		    "NULL",
		    what, n);
	return HXD_OK;
}

/*-------------------------------------------------------------- info */

/* hxd_info: arrays counted by the model summary's sizes. */
#define INFO(member, count, per) \
	DECODE_ARRAY(hxd_info, member, "model." count, per)
static const struct decode_field info_fields[] = {
	INFO(sensor_type, "nsensor", 1),
	INFO(sensor_datatype, "nsensor", 1),
	INFO(sensor_objtype, "nsensor", 1),
	INFO(sensor_objid, "nsensor", 1),
	INFO(sensor_dim, "nsensor", 1),
	INFO(sensor_adr, "nsensor", 1),
	INFO(sensor_noise, "nsensor", 1),
	INFO(jnt_type, "njnt", 1),
	INFO(jnt_bodyid, "njnt", 1),
	INFO(jnt_qposadr, "njnt", 1),
	INFO(jnt_dofadr, "njnt", 1),
	INFO(jnt_limited, "njnt", 1),
	INFO(jnt_range, "njnt", 2),
	INFO(geom_type, "ngeom", 1),
	INFO(geom_bodyid, "ngeom", 1),
	INFO(eq_type, "neq", 1),
	INFO(eq_obj1id, "neq", 1),
	INFO(eq_obj2id, "neq", 1),
	INFO(actuator_trntype, "nu", 1),
	INFO(actuator_trnid, "nu", 2),
	INFO(actuator_ctrllimited, "nu", 1),
	INFO(actuator_ctrlrange, "nu", 2),
	INFO(body_parentid, "nbody", 1),
	INFO(body_mocapid, "nbody", 1),
	INFO(body_name, "nbody", 1),
	INFO(jnt_name, "njnt", 1),
	INFO(geom_name, "ngeom", 1),
	INFO(site_name, "nsite", 1),
	INFO(tendon_name, "ntendon", 1),
	INFO(actuator_name, "nu", 1),
	INFO(sensor_name, "nsensor", 1),
	INFO(eq_name, "neq", 1),
	INFO(key_name, "nkey", 1),
	INFO(mat_name, "nmat", 1),
};
#undef INFO

int
hxd_info_get(hxd_conn *c, hxd_info **out)
{
	Response *r;
	int rc;

	*out = NULL;
	rc = request_call(c, HAPTIX__V1__REQUEST__CALL_INFO, NULL,
	    HAPTIX__V1__RESPONSE__PAYLOAD_INFO, &r);
	if (rc != HXD_OK)
		return rc;
	*out = decode_payload(
	    c, r, info_fields, NELEM(info_fields), sizeof(**out));
	if (*out != NULL)
		conn_model_from_wire(&(*out)->model, r->info->model);
	conn_free_response(r);
	return c->result;
}

/*------------------------------------------------------------- state */

static const struct decode_field state_fields[] = {
	DECODE_SCALAR(hxd_state, nq),
	DECODE_SCALAR(hxd_state, nv),
	DECODE_SCALAR(hxd_state, na),
	DECODE_SCALAR(hxd_state, time),
	DECODE_ARRAY(hxd_state, qpos, "nq", 1),
	DECODE_ARRAY(hxd_state, qvel, "nv", 1),
	DECODE_ARRAY(hxd_state, act, "na", 1),
};

int
hxd_get_state(hxd_conn *c, hxd_state **out)
{
	return GET(c, GET_STATE, STATE, hxd_state, state_fields, out);
}

int
hxd_set_state(hxd_conn *c, const hxd_state *st)
{
	Haptix__V1__State w = HAPTIX__V1__STATE__INIT;

	return REQUEST_SET(c, SET_STATE, state_fields, st, &w);
}

/*----------------------------------------------------------- control */

static const struct decode_field control_fields[] = {
	DECODE_SCALAR(hxd_control, nu),
	DECODE_SCALAR(hxd_control, time),
	DECODE_ARRAY(hxd_control, ctrl, "nu", 1),
};

int
hxd_get_control(hxd_conn *c, hxd_control **out)
{
	return GET(c, GET_CONTROL, CONTROL, hxd_control, control_fields, out);
}

int
request_control(hxd_conn *c, const hxd_control *in, Haptix__V1__Control *w)
{
	return request_encode(c, control_fields, NELEM(control_fields), in, w);
}

int
hxd_set_control(hxd_conn *c, const hxd_control *in)
{
	Haptix__V1__Control w = HAPTIX__V1__CONTROL__INIT;

	return REQUEST_SET(c, SET_CONTROL, control_fields, in, &w);
}

/*----------------------------------------------------------- applied */

static const struct decode_field applied_fields[] = {
	DECODE_SCALAR(hxd_applied, nv),
	DECODE_SCALAR(hxd_applied, nbody),
	DECODE_SCALAR(hxd_applied, time),
	DECODE_ARRAY(hxd_applied, qfrc_applied, "nv", 1),
	DECODE_ARRAY(hxd_applied, xfrc_applied, "nbody", 6),
};

int
hxd_get_applied(hxd_conn *c, hxd_applied **out)
{
	return GET(c, GET_APPLIED, APPLIED, hxd_applied, applied_fields, out);
}

int
hxd_set_applied(hxd_conn *c, const hxd_applied *in)
{
	Haptix__V1__Applied w = HAPTIX__V1__APPLIED__INIT;

	return REQUEST_SET(c, SET_APPLIED, applied_fields, in, &w);
}

/*----------------------------------------------------------- onebody */

/* Copy a fixed-size wire array, failing if its length is wrong. */
static int
copy_fixed(hxd_conn *c, const char *what, double *dst, size_t want,
    const double *src, size_t n)
{
	if (n != want)
		return conn_fail(c, HXD_BADPROTOCOL,
		    "the server sent %zu values "
		    "of %s, expected %zu",
		    n, what, want);
	memcpy(dst, src, want * sizeof(double));
	return 0;
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
	if (copy_fixed(c, "linacc", out->linacc, 3, w->linacc, w->n_linacc) ||
	    copy_fixed(c, "angacc", out->angacc, 3, w->angacc, w->n_angacc) ||
	    copy_fixed(c, "contactforce", out->contactforce, 3, w->contactforce,
		w->n_contactforce) ||
	    copy_fixed(c, "pos", out->pos, 3, w->pos, w->n_pos) ||
	    copy_fixed(c, "quat", out->quat, 4, w->quat, w->n_quat) ||
	    copy_fixed(c, "linvel", out->linvel, 3, w->linvel, w->n_linvel) ||
	    copy_fixed(c, "angvel", out->angvel, 3, w->angvel, w->n_angvel) ||
	    copy_fixed(c, "force", out->force, 3, w->force, w->n_force) ||
	    copy_fixed(c, "torque", out->torque, 3, w->torque, w->n_torque)) {
		conn_free_response(r);
		return c->result;
	}
	conn_free_response(r);
	return conn_ok(c);
}

int
hxd_set_onebody(hxd_conn *c, const hxd_onebody *in, unsigned fields)
{
	Haptix__V1__OneBody w = HAPTIX__V1__ONE_BODY__INIT;
	hxd_onebody b = *in;

	w.body_id = b.body_id;
#define ONEBODY_FIELD(flag, name, n) \
	if (fields & (flag)) { \
		w.n_##name = (n); \
		w.name = b.name; \
	}
	ONEBODY_FIELD(HXD_ONEBODY_POS, pos, 3)
	ONEBODY_FIELD(HXD_ONEBODY_QUAT, quat, 4)
	ONEBODY_FIELD(HXD_ONEBODY_LINVEL, linvel, 3)
	ONEBODY_FIELD(HXD_ONEBODY_ANGVEL, angvel, 3)
	ONEBODY_FIELD(HXD_ONEBODY_FORCE, force, 3)
	ONEBODY_FIELD(HXD_ONEBODY_TORQUE, torque, 3)
#undef ONEBODY_FIELD
	return request_call(
	    c, HAPTIX__V1__REQUEST__CALL_SET_ONEBODY, &w, 0, NULL);
}

/*------------------------------------------------------------- mocap */

static const struct decode_field mocap_fields[] = {
	DECODE_SCALAR(hxd_mocap, nmocap),
	DECODE_SCALAR(hxd_mocap, time),
	DECODE_ARRAY(hxd_mocap, pos, "nmocap", 3),
	DECODE_ARRAY(hxd_mocap, quat, "nmocap", 4),
};

int
hxd_get_mocap(hxd_conn *c, hxd_mocap **out)
{
	return GET(c, GET_MOCAP, MOCAP, hxd_mocap, mocap_fields, out);
}

int
hxd_set_mocap(hxd_conn *c, const hxd_mocap *in)
{
	Haptix__V1__Mocap w = HAPTIX__V1__MOCAP__INIT;

	return REQUEST_SET(c, SET_MOCAP, mocap_fields, in, &w);
}

/*---------------------------------------------------------- get only */

static const struct decode_field dynamics_fields[] = {
	DECODE_SCALAR(hxd_dynamics, nv),
	DECODE_SCALAR(hxd_dynamics, na),
	DECODE_SCALAR(hxd_dynamics, time),
	DECODE_ARRAY(hxd_dynamics, qacc, "nv", 1),
	DECODE_ARRAY(hxd_dynamics, act_dot, "na", 1),
};

static const struct decode_field sensor_fields[] = {
	DECODE_SCALAR(hxd_sensor, nsensordata),
	DECODE_SCALAR(hxd_sensor, time),
	DECODE_ARRAY(hxd_sensor, sensordata, "nsensordata", 1),
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
hxd_get_dynamics(hxd_conn *c, hxd_dynamics **out)
{
	return GET(
	    c, GET_DYNAMICS, DYNAMICS, hxd_dynamics, dynamics_fields, out);
}

int
hxd_get_sensor(hxd_conn *c, hxd_sensor **out)
{
	return GET(c, GET_SENSOR, SENSOR, hxd_sensor, sensor_fields, out);
}

int
hxd_get_body(hxd_conn *c, hxd_poses **out)
{
	return GET(c, GET_BODY, POSES, hxd_poses, poses_fields, out);
}

int
hxd_get_geom(hxd_conn *c, hxd_poses **out)
{
	return GET(c, GET_GEOM, POSES, hxd_poses, poses_fields, out);
}

int
hxd_get_site(hxd_conn *c, hxd_poses **out)
{
	return GET(c, GET_SITE, POSES, hxd_poses, poses_fields, out);
}

int
hxd_get_tendon(hxd_conn *c, hxd_tendon **out)
{
	return GET(c, GET_TENDON, TENDON, hxd_tendon, tendon_fields, out);
}

int
hxd_get_actuator(hxd_conn *c, hxd_actuator **out)
{
	return GET(
	    c, GET_ACTUATOR, ACTUATOR, hxd_actuator, actuator_fields, out);
}

int
hxd_get_force(hxd_conn *c, hxd_force **out)
{
	return GET(c, GET_FORCE, FORCE, hxd_force, force_fields, out);
}

int
hxd_get_contact(hxd_conn *c, hxd_contacts **out)
{
	return GET(
	    c, GET_CONTACT, CONTACTS, hxd_contacts, contacts_fields, out);
}

/*---------------------------------------------------- geoms, colours */

int
hxd_set_geomsize(hxd_conn *c, int geom_id, const double size[3])
{
	Haptix__V1__GeomSize w = HAPTIX__V1__GEOM_SIZE__INIT;

	w.id = geom_id;
	w.n_size = 3;
	w.size = (double *)size;
	return request_call(
	    c, HAPTIX__V1__REQUEST__CALL_SET_GEOMSIZE, &w, 0, NULL);
}

int
hxd_get_rgba(hxd_conn *c, int type, int id, double rgba[4])
{
	Haptix__V1__ObjectRef ref = HAPTIX__V1__OBJECT_REF__INIT;
	Response *r;
	int rc;

	ref.type = (Haptix__V1__ObjType)type;
	ref.id = id;
	rc = request_call(c, HAPTIX__V1__REQUEST__CALL_GET_RGBA, &ref,
	    HAPTIX__V1__RESPONSE__PAYLOAD_RGBA, &r);
	if (rc != HXD_OK)
		return rc;
	if (copy_fixed(c, "rgba", rgba, 4, r->rgba->rgba, r->rgba->n_rgba)) {
		conn_free_response(r);
		return c->result;
	}
	conn_free_response(r);
	return conn_ok(c);
}

int
hxd_set_rgba(hxd_conn *c, int type, int id, const double rgba[4])
{
	Haptix__V1__Rgba w = HAPTIX__V1__RGBA__INIT;

	w.type = (Haptix__V1__ObjType)type;
	w.id = id;
	w.n_rgba = 4;
	w.rgba = (double *)rgba;
	return request_call(c, HAPTIX__V1__REQUEST__CALL_SET_RGBA, &w, 0, NULL);
}

/*---------------------------------------------------------- stepping */

int
hxd_step(hxd_conn *c, unsigned count, unsigned *taken)
{
	Haptix__V1__Step w = HAPTIX__V1__STEP__INIT;
	Response *r;
	int rc;

	if (taken != NULL)
		*taken = 0;
	w.count = count;
	rc = request_call(c, HAPTIX__V1__REQUEST__CALL_STEP, &w,
	    HAPTIX__V1__RESPONSE__PAYLOAD_STEP_DONE, &r);
	if (rc != HXD_OK)
		return rc;
	if (taken != NULL)
		*taken = r->step_done->steps;
	conn_free_response(r);
	return rc;
}

int
hxd_update(hxd_conn *c, const hxd_control *control, hxd_sensor **out)
{
	Haptix__V1__Update u = HAPTIX__V1__UPDATE__INIT;
	Haptix__V1__Control w = HAPTIX__V1__CONTROL__INIT;
	Response *r;
	int rc;

	*out = NULL;
	if (control != NULL) {
		if (request_control(c, control, &w) != HXD_OK)
			return c->result;
		u.control = &w;
	}
	rc = request_call(c, HAPTIX__V1__REQUEST__CALL_UPDATE, &u,
	    HAPTIX__V1__RESPONSE__PAYLOAD_SENSOR, &r);
	if (rc != HXD_OK)
		return rc;
	*out = decode_payload(
	    c, r, sensor_fields, NELEM(sensor_fields), sizeof(**out));
	conn_free_response(r);
	return c->result;
}

int
hxd_reset(hxd_conn *c, int keyframe)
{
	Haptix__V1__Reset w = HAPTIX__V1__RESET__INIT;

	w.keyframe = keyframe;
	return request_call(c, HAPTIX__V1__REQUEST__CALL_RESET, &w, 0, NULL);
}

int
hxd_reset_name(hxd_conn *c, const char *name)
{
	Haptix__V1__Reset w = HAPTIX__V1__RESET__INIT;

	if (name == NULL || *name == '\0')
		return conn_fail(c, HXD_BADVALUE, "no name given");
	w.keyframe = -1;
	w.name = (char *)name;
	return request_call(c, HAPTIX__V1__REQUEST__CALL_RESET, &w, 0, NULL);
}

int
hxd_capture_key(hxd_conn *c, const char *name, int keyframe)
{
	Haptix__V1__KeyCapture w = HAPTIX__V1__KEY_CAPTURE__INIT;

	w.name = (char *)(name != NULL ? name : "");
	w.keyframe = keyframe;
	return request_call(
	    c, HAPTIX__V1__REQUEST__CALL_CAPTURE_KEY, &w, 0, NULL);
}

int
hxd_set_joint(hxd_conn *c, const char *name, const double *qpos, int nqpos,
    const double *qvel, int nqvel)
{
	Haptix__V1__JointSet w = HAPTIX__V1__JOINT_SET__INIT;

	if (name == NULL || check_arg(c, "nqpos", nqpos, qpos) ||
	    check_arg(c, "nqvel", nqvel, qvel))
		return name == NULL ? conn_fail(c, HXD_BADVALUE, "no name") :
				      c->result;
	w.name = (char *)name;
	w.n_qpos = (size_t)nqpos;
	w.qpos = (double *)qpos;
	w.n_qvel = (size_t)nqvel;
	w.qvel = (double *)qvel;
	return request_call(
	    c, HAPTIX__V1__REQUEST__CALL_SET_JOINT, &w, 0, NULL);
}

int
hxd_equality(hxd_conn *c, int eq_id, int state)
{
	Haptix__V1__Equality w = HAPTIX__V1__EQUALITY__INIT;

	w.id = eq_id;
	w.state = state;
	return request_call(c, HAPTIX__V1__REQUEST__CALL_EQUALITY, &w, 0, NULL);
}

int
hxd_message(hxd_conn *c, const char *text)
{
	Haptix__V1__Message w = HAPTIX__V1__MESSAGE__INIT;

	w.text = (char *)(text != NULL ? text : "");
	return request_call(c, HAPTIX__V1__REQUEST__CALL_MESSAGE, &w, 0, NULL);
}

/*------------------------------------------------------------- names */

int
hxd_name2id(hxd_conn *c, int type, const char *name, int *id)
{
	Haptix__V1__ObjectRef ref = HAPTIX__V1__OBJECT_REF__INIT;
	Response *r;
	int rc;

	*id = -2;
	ref.type = (Haptix__V1__ObjType)type;
	ref.name = (char *)(name != NULL ? name : "");
	rc = request_call(c, HAPTIX__V1__REQUEST__CALL_NAME2ID, &ref,
	    HAPTIX__V1__RESPONSE__PAYLOAD_OBJECT, &r);
	if (rc != HXD_OK)
		return rc;
	*id = r->object->id;
	conn_free_response(r);
	return rc;
}

int
hxd_id2name(hxd_conn *c, int type, int id, char *buf, size_t len)
{
	Haptix__V1__ObjectRef ref = HAPTIX__V1__OBJECT_REF__INIT;
	Response *r;
	int rc;

	if (len > 0)
		buf[0] = '\0';
	ref.type = (Haptix__V1__ObjType)type;
	ref.id = id;
	rc = request_call(c, HAPTIX__V1__REQUEST__CALL_ID2NAME, &ref,
	    HAPTIX__V1__RESPONSE__PAYLOAD_OBJECT, &r);
	if (rc != HXD_OK)
		return rc;
	if (len > 0)
		snprintf(buf, len, "%s", r->object->name);
	conn_free_response(r);
	return rc;
}

/*------------------------------------------------ the simple API (hx_) */

static const struct decode_field robot_fields[] = {
	DECODE_SCALAR(hxd_robot, motor_count),
	DECODE_SCALAR(hxd_robot, joint_count),
	DECODE_SCALAR(hxd_robot, contact_sensor_count),
	DECODE_SCALAR(hxd_robot, imu_count),
	DECODE_SCALAR(hxd_robot, update_rate),
	DECODE_SCALAR(hxd_robot, servo),
	DECODE_ARRAY(hxd_robot, motor_limit, "motor_count", 2),
	DECODE_ARRAY(hxd_robot, joint_limit, "joint_count", 2),
};

static const struct decode_field robot_sensor_fields[] = {
	DECODE_SCALAR(hxd_robot_sensor, time),
	DECODE_SCALAR(hxd_robot_sensor, motor_count),
	DECODE_SCALAR(hxd_robot_sensor, joint_count),
	DECODE_SCALAR(hxd_robot_sensor, contact_sensor_count),
	DECODE_SCALAR(hxd_robot_sensor, imu_count),
	DECODE_ARRAY(hxd_robot_sensor, motor_pos, "motor_count", 1),
	DECODE_ARRAY(hxd_robot_sensor, motor_vel, "motor_count", 1),
	DECODE_ARRAY(hxd_robot_sensor, motor_torque, "motor_count", 1),
	DECODE_ARRAY(hxd_robot_sensor, joint_pos, "joint_count", 1),
	DECODE_ARRAY(hxd_robot_sensor, joint_vel, "joint_count", 1),
	DECODE_ARRAY(hxd_robot_sensor, contact, "contact_sensor_count", 1),
	DECODE_ARRAY(hxd_robot_sensor, imu_linear_acc, "imu_count", 3),
	DECODE_ARRAY(hxd_robot_sensor, imu_angular_vel, "imu_count", 3),
};

int
hxd_robot_info(hxd_conn *c, hxd_robot **out)
{
	return GET(c, ROBOT_INFO, ROBOT_INFO, hxd_robot, robot_fields, out);
}

int
hxd_robot_update(
    hxd_conn *c, const hxd_robot_command *cmd, hxd_robot_sensor **out)
{
	Haptix__V1__RobotCommand w = HAPTIX__V1__ROBOT_COMMAND__INIT;
	Response *r;
	size_t n;
	int rc;

	*out = NULL;
	if (cmd != NULL) {
		if (cmd->motor_count < 0)
			return conn_fail(c, HXD_BADSIZE,
			    "motor_count is "
			    "negative (%d)",
			    cmd->motor_count);
		n = (size_t)cmd->motor_count;
		w.no_wait = cmd->no_wait != 0;
#define ROBOT_ARRAY(name) \
	if (cmd->name != NULL) { \
		w.name##_enabled = 1; \
		w.n_##name = n; \
		w.name = (double *)cmd->name; \
	}
		ROBOT_ARRAY(ref_pos)
		ROBOT_ARRAY(ref_vel)
		ROBOT_ARRAY(gain_pos)
		ROBOT_ARRAY(gain_vel)
		ROBOT_ARRAY(ref_vel_max)
#undef ROBOT_ARRAY
	}
	rc = request_call(c, HAPTIX__V1__REQUEST__CALL_ROBOT_UPDATE, &w,
	    HAPTIX__V1__RESPONSE__PAYLOAD_ROBOT_SENSOR, &r);
	if (rc != HXD_OK)
		return rc;
	*out = decode_payload(c, r, robot_sensor_fields,
	    NELEM(robot_sensor_fields), sizeof(**out));
	conn_free_response(r);
	return c->result;
}

/*---------------------------------------------------- administration */

/* Run a load request and keep the new model's summary. */
static int
call_load(hxd_conn *c, Haptix__V1__LoadModel *w, hxd_model *out)
{
	Response *r;
	int rc;

	rc = request_call(c, HAPTIX__V1__REQUEST__CALL_LOAD_MODEL, w,
	    HAPTIX__V1__RESPONSE__PAYLOAD_MODEL, &r);
	if (rc != HXD_OK)
		return rc;
	conn_model_from_wire(&c->model, r->model);
	if (out != NULL)
		*out = c->model;
	conn_free_response(r);
	return rc;
}

int
hxd_load_file(hxd_conn *c, const char *path, hxd_model *out)
{
	Haptix__V1__LoadModel w = HAPTIX__V1__LOAD_MODEL__INIT;

	if (path == NULL || *path == '\0')
		return conn_fail(c, HXD_BADVALUE, "no model path given");
	w.source_case = HAPTIX__V1__LOAD_MODEL__SOURCE_PATH;
	w.path = (char *)path;
	return call_load(c, &w, out);
}

int
hxd_load_legacy(hxd_conn *c, const char *path, hxd_model *out)
{
	Haptix__V1__LoadModel w = HAPTIX__V1__LOAD_MODEL__INIT;

	if (path == NULL || *path == '\0')
		return conn_fail(c, HXD_BADVALUE, "no model path given");
	w.source_case = HAPTIX__V1__LOAD_MODEL__SOURCE_PATH;
	w.path = (char *)path;
	w.legacy = 1;
	return call_load(c, &w, out);
}

int
hxd_load_data(hxd_conn *c, int format, const void *data, size_t len,
    const char *name, hxd_model *out)
{
	Haptix__V1__LoadModel w = HAPTIX__V1__LOAD_MODEL__INIT;
	Haptix__V1__InlineModel m = HAPTIX__V1__INLINE_MODEL__INIT;

	if (data == NULL || len == 0)
		return conn_fail(c, HXD_BADSIZE, "no model data given");
	m.format = (Haptix__V1__ModelFormat)format;
	m.data.data = (uint8_t *)data;
	m.data.len = len;
	m.name = (char *)(name != NULL ? name : "");
	w.source_case = HAPTIX__V1__LOAD_MODEL__SOURCE_INLINE_MODEL;
	w.inline_model = &m;
	return call_load(c, &w, out);
}

int
hxd_reload(hxd_conn *c, hxd_model *out)
{
	Haptix__V1__LoadModel w = HAPTIX__V1__LOAD_MODEL__INIT;

	return call_load(c, &w, out);
}

int
hxd_pause(hxd_conn *c)
{
	return request_call(c, HAPTIX__V1__REQUEST__CALL_PAUSE, NULL, 0, NULL);
}

int
hxd_run(hxd_conn *c)
{
	return request_call(c, HAPTIX__V1__REQUEST__CALL_RUN, NULL, 0, NULL);
}

int
hxd_set_speed(hxd_conn *c, double factor, int max)
{
	Haptix__V1__Speed w = HAPTIX__V1__SPEED__INIT;

	w.factor = factor;
	w.max = max != 0;
	return request_call(
	    c, HAPTIX__V1__REQUEST__CALL_SET_SPEED, &w, 0, NULL);
}

int
hxd_status_get(hxd_conn *c, hxd_status *out)
{
	Response *r;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = request_call(c, HAPTIX__V1__REQUEST__CALL_STATUS, NULL,
	    HAPTIX__V1__RESPONSE__PAYLOAD_STATUS, &r);
	if (rc != HXD_OK)
		return rc;
	conn_status_from_wire(out, r->status);
	conn_free_response(r);
	return rc;
}
