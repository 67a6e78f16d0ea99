/*
 * The haptixd extension API (haptixd.h): each call builds one Request,
 * runs it through conn_call() and turns the Response into the public
 * double-precision structs.
 */
#include "config.h"

#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conn.h"

_Static_assert(HXD_DEFAULT_PORT == ADDRESS_DEFAULT_PORT,
    "haptixd.h and address.h disagree on the default port");
_Static_assert(sizeof(int) == sizeof(int32_t), "int is not 32 bits");
_Static_assert(sizeof(protobuf_c_boolean) == sizeof(int), "bool size");
_Static_assert(sizeof(Haptix__V1__SensorType) == sizeof(int), "enum size");

/* One array copied from a response into a result block. */
struct field {
	size_t offset; /* of the pointer member in the result struct */
	size_t count;  /* elements */
	size_t elem;   /* bytes per element; 0 marks an array of strings */
	const void *src;
};

#define F_DBL(type, member, n, p) \
	{ \
		offsetof(type, member), (n), sizeof(double), (p) \
	}
#define F_INT(type, member, n, p) \
	{ \
		offsetof(type, member), (n), sizeof(int), (p) \
	}
#define F_STR(type, member, n, p) \
	{ \
		offsetof(type, member), (n), 0, (p) \
	}

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

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

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

/*
 * Allocate one block holding a head struct of head bytes followed by the
 * arrays in f, copy the arrays in and point the struct's members at them.
 * Returns NULL when memory is exhausted.
 */
static void *
block_build(size_t head, const struct field *f, size_t nf)
{
	size_t total, i, k, off, len;
	char *base, *p, **strs;
	const char *const *src;

	total = (head + 15) & ~(size_t)15;
	for (i = 0; i < nf; i++) {
		if (f[i].elem != 0)
			len = f[i].count * f[i].elem;
		else {
			src = f[i].src;
			len = f[i].count * sizeof(char *);
			for (k = 0; k < f[i].count; k++)
				len += strlen(src[k]) + 1;
		}
		total += (len + 15) & ~(size_t)15;
	}
	base = calloc(1, total);
	if (base == NULL)
		return NULL;
	off = (head + 15) & ~(size_t)15;
	for (i = 0; i < nf; i++) {
		p = base + off;
		memcpy(base + f[i].offset, &p, sizeof(p));
		if (f[i].elem != 0) {
			len = f[i].count * f[i].elem;
			if (len != 0)
				memcpy(p, f[i].src, len);
		} else {
			src = f[i].src;
			strs = (char **)(void *)p;
			len = f[i].count * sizeof(char *);
			for (k = 0; k < f[i].count; k++) {
				strs[k] = p + len;
				memcpy(p + len, src[k], strlen(src[k]) + 1);
				len += strlen(src[k]) + 1;
			}
		}
		off += (len + 15) & ~(size_t)15;
	}
	return base;
}

/* Run req and require the named payload in the answer. */
static int
call_expect(hxd_conn *c, Request *req, Haptix__V1__Response__PayloadCase want,
    Response **out)
{
	int rc, got;

	rc = conn_call(c, req, out);
	if (rc != HXD_OK) {
		conn_free_response(*out);
		*out = NULL;
		return rc;
	}
	if ((*out)->payload_case != want) {
		got = (int)(*out)->payload_case;
		conn_free_response(*out);
		*out = NULL;
		return conn_fail(c, HXD_BADPROTOCOL,
		    "the server answered "
		    "with payload %d, expected %d",
		    got, (int)want);
	}
	return rc;
}

/* Run a call that answers with a result only. */
static int
call_plain(hxd_conn *c, Request *req)
{
	Response *r;
	int rc;

	rc = conn_call(c, req, &r);
	conn_free_response(r);
	return rc;
}

/* Run a call with an Empty argument, expecting payload want. */
static int
call_empty(hxd_conn *c, Haptix__V1__Request__CallCase call,
    Haptix__V1__Response__PayloadCase want, Response **out)
{
	Request req = HAPTIX__V1__REQUEST__INIT;
	Haptix__V1__Empty empty = HAPTIX__V1__EMPTY__INIT;

	req.call_case = call;
	/* Every Empty member of the oneof shares the same storage. */
	req.info = &empty;
	return call_expect(c, &req, want, out);
}

/* Check that the server sent n elements where the model has want. */
static int
check_count(hxd_conn *c, const char *what, size_t n, size_t want)
{
	if (n != want)
		return conn_fail(c, HXD_BADPROTOCOL,
		    "the server sent %zu "
		    "values of %s, expected %zu",
		    n, what, want);
	return HXD_OK;
}

/* Finish a get call: fail on allocation failure, else succeed. */
static int
finish_block(hxd_conn *c, void *block, Response *r)
{
	conn_free_response(r);
	if (block == NULL)
		return conn_fail(c, HXD_CANNOTRECV, "out of memory");
	return conn_ok(c);
}

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

/*---------------------------------------------------------------- info */

int
hxd_info_get(hxd_conn *c, hxd_info **out)
{
	Response *r;
	Haptix__V1__Info *in;
	hxd_info *o;
	size_t ns, nj, ng, ne, nu, nb;
	int rc;

	*out = NULL;
	rc = call_empty(c, HAPTIX__V1__REQUEST__CALL_INFO,
	    HAPTIX__V1__RESPONSE__PAYLOAD_INFO, &r);
	if (rc != HXD_OK)
		return rc;
	in = r->info;
	if (in->model == NULL) {
		conn_free_response(r);
		return conn_fail(c, HXD_BADPROTOCOL, "info without a model");
	}
	ns = in->model->nsensor;
	nj = in->model->njnt;
	ng = in->model->ngeom;
	ne = in->model->neq;
	nu = in->model->nu;
	nb = in->model->nbody;
	if (check_count(c, "sensor_type", in->n_sensor_type, ns) ||
	    check_count(c, "sensor_datatype", in->n_sensor_datatype, ns) ||
	    check_count(c, "sensor_objtype", in->n_sensor_objtype, ns) ||
	    check_count(c, "sensor_objid", in->n_sensor_objid, ns) ||
	    check_count(c, "sensor_dim", in->n_sensor_dim, ns) ||
	    check_count(c, "sensor_adr", in->n_sensor_adr, ns) ||
	    check_count(c, "sensor_noise", in->n_sensor_noise, ns) ||
	    check_count(c, "jnt_type", in->n_jnt_type, nj) ||
	    check_count(c, "jnt_bodyid", in->n_jnt_bodyid, nj) ||
	    check_count(c, "jnt_qposadr", in->n_jnt_qposadr, nj) ||
	    check_count(c, "jnt_dofadr", in->n_jnt_dofadr, nj) ||
	    check_count(c, "jnt_limited", in->n_jnt_limited, nj) ||
	    check_count(c, "jnt_range", in->n_jnt_range, 2 * nj) ||
	    check_count(c, "geom_type", in->n_geom_type, ng) ||
	    check_count(c, "geom_bodyid", in->n_geom_bodyid, ng) ||
	    check_count(c, "eq_type", in->n_eq_type, ne) ||
	    check_count(c, "eq_obj1id", in->n_eq_obj1id, ne) ||
	    check_count(c, "eq_obj2id", in->n_eq_obj2id, ne) ||
	    check_count(c, "actuator_trntype", in->n_actuator_trntype, nu) ||
	    check_count(c, "actuator_trnid", in->n_actuator_trnid, 2 * nu) ||
	    check_count(
		c, "actuator_ctrllimited", in->n_actuator_ctrllimited, nu) ||
	    check_count(
		c, "actuator_ctrlrange", in->n_actuator_ctrlrange, 2 * nu) ||
	    check_count(c, "body_parentid", in->n_body_parentid, nb) ||
	    check_count(c, "body_mocapid", in->n_body_mocapid, nb) ||
	    check_count(c, "body_name", in->n_body_name, nb) ||
	    check_count(c, "jnt_name", in->n_jnt_name, nj) ||
	    check_count(c, "geom_name", in->n_geom_name, ng) ||
	    check_count(c, "site_name", in->n_site_name, in->model->nsite) ||
	    check_count(
		c, "tendon_name", in->n_tendon_name, in->model->ntendon) ||
	    check_count(c, "actuator_name", in->n_actuator_name, nu) ||
	    check_count(c, "sensor_name", in->n_sensor_name, ns) ||
	    check_count(c, "eq_name", in->n_eq_name, ne) ||
	    check_count(c, "key_name", in->n_key_name, in->model->nkey) ||
	    check_count(c, "mat_name", in->n_mat_name, in->model->nmat)) {
		conn_free_response(r);
		return c->result;
	}
	{
		const struct field f[] = {
			F_INT(hxd_info, sensor_type, ns, in->sensor_type),
			F_INT(
			    hxd_info, sensor_datatype, ns, in->sensor_datatype),
			F_INT(hxd_info, sensor_objtype, ns, in->sensor_objtype),
			F_INT(hxd_info, sensor_objid, ns, in->sensor_objid),
			F_INT(hxd_info, sensor_dim, ns, in->sensor_dim),
			F_INT(hxd_info, sensor_adr, ns, in->sensor_adr),
			F_DBL(hxd_info, sensor_noise, ns, in->sensor_noise),
			F_INT(hxd_info, jnt_type, nj, in->jnt_type),
			F_INT(hxd_info, jnt_bodyid, nj, in->jnt_bodyid),
			F_INT(hxd_info, jnt_qposadr, nj, in->jnt_qposadr),
			F_INT(hxd_info, jnt_dofadr, nj, in->jnt_dofadr),
			F_INT(hxd_info, jnt_limited, nj, in->jnt_limited),
			F_DBL(hxd_info, jnt_range, 2 * nj, in->jnt_range),
			F_INT(hxd_info, geom_type, ng, in->geom_type),
			F_INT(hxd_info, geom_bodyid, ng, in->geom_bodyid),
			F_INT(hxd_info, eq_type, ne, in->eq_type),
			F_INT(hxd_info, eq_obj1id, ne, in->eq_obj1id),
			F_INT(hxd_info, eq_obj2id, ne, in->eq_obj2id),
			F_INT(hxd_info, actuator_trntype, nu,
			    in->actuator_trntype),
			F_INT(hxd_info, actuator_trnid, 2 * nu,
			    in->actuator_trnid),
			F_INT(hxd_info, actuator_ctrllimited, nu,
			    in->actuator_ctrllimited),
			F_DBL(hxd_info, actuator_ctrlrange, 2 * nu,
			    in->actuator_ctrlrange),
			F_INT(hxd_info, body_parentid, nb, in->body_parentid),
			F_INT(hxd_info, body_mocapid, nb, in->body_mocapid),
			F_STR(hxd_info, body_name, nb, in->body_name),
			F_STR(hxd_info, jnt_name, nj, in->jnt_name),
			F_STR(hxd_info, geom_name, ng, in->geom_name),
			F_STR(hxd_info, site_name, in->n_site_name,
			    in->site_name),
			F_STR(hxd_info, tendon_name, in->n_tendon_name,
			    in->tendon_name),
			F_STR(hxd_info, actuator_name, nu, in->actuator_name),
			F_STR(hxd_info, sensor_name, ns, in->sensor_name),
			F_STR(hxd_info, eq_name, ne, in->eq_name),
			F_STR(hxd_info, key_name, in->n_key_name, in->key_name),
			F_STR(hxd_info, mat_name, in->n_mat_name, in->mat_name),
		};
		o = block_build(sizeof(*o), f, NELEM(f));
	}
	if (o != NULL)
		conn_model_from_wire(&o->model, in->model);
	*out = o;
	return finish_block(c, o, r);
}

/*---------------------------------------------------------------- state */

int
hxd_get_state(hxd_conn *c, hxd_state **out)
{
	Haptix__V1__State *s;
	Response *r;
	hxd_state *o;
	int rc;

	*out = NULL;
	rc = call_empty(c, HAPTIX__V1__REQUEST__CALL_GET_STATE,
	    HAPTIX__V1__RESPONSE__PAYLOAD_STATE, &r);
	if (rc != HXD_OK)
		return rc;
	s = r->state;
	if (check_count(c, "qpos", s->n_qpos, s->nq) ||
	    check_count(c, "qvel", s->n_qvel, s->nv) ||
	    check_count(c, "act", s->n_act, s->na)) {
		conn_free_response(r);
		return c->result;
	}
	{
		const struct field f[] = {
			F_DBL(hxd_state, qpos, s->nq, s->qpos),
			F_DBL(hxd_state, qvel, s->nv, s->qvel),
			F_DBL(hxd_state, act, s->na, s->act),
		};
		o = block_build(sizeof(*o), f, NELEM(f));
	}
	if (o != NULL) {
		o->nq = (int)s->nq;
		o->nv = (int)s->nv;
		o->na = (int)s->na;
		o->time = s->time;
	}
	*out = o;
	return finish_block(c, o, r);
}

int
hxd_set_state(hxd_conn *c, const hxd_state *st)
{
	Request req = HAPTIX__V1__REQUEST__INIT;
	Haptix__V1__State s = HAPTIX__V1__STATE__INIT;

	if (check_arg(c, "nq", st->nq, st->qpos) ||
	    check_arg(c, "nv", st->nv, st->qvel) ||
	    check_arg(c, "na", st->na, st->act))
		return c->result;
	s.nq = (uint32_t)st->nq;
	s.nv = (uint32_t)st->nv;
	s.na = (uint32_t)st->na;
	s.n_qpos = (size_t)st->nq;
	s.qpos = st->qpos;
	s.n_qvel = (size_t)st->nv;
	s.qvel = st->qvel;
	s.n_act = (size_t)st->na;
	s.act = st->act;
	req.call_case = HAPTIX__V1__REQUEST__CALL_SET_STATE;
	req.set_state = &s;
	return call_plain(c, &req);
}

/*---------------------------------------------------------------- control */

/* Turn a Control payload into an hxd_control block. */
static int
control_from_wire(
    hxd_conn *c, Response *r, const Haptix__V1__Control *w, hxd_control **out)
{
	hxd_control *o;

	if (check_count(c, "ctrl", w->n_ctrl, w->nu)) {
		conn_free_response(r);
		return c->result;
	}
	{
		const struct field f[] = {
			F_DBL(hxd_control, ctrl, w->nu, w->ctrl),
		};
		o = block_build(sizeof(*o), f, NELEM(f));
	}
	if (o != NULL) {
		o->nu = (int)w->nu;
		o->time = w->time;
	}
	*out = o;
	return finish_block(c, o, r);
}

int
hxd_get_control(hxd_conn *c, hxd_control **out)
{
	Response *r;
	int rc;

	*out = NULL;
	rc = call_empty(c, HAPTIX__V1__REQUEST__CALL_GET_CONTROL,
	    HAPTIX__V1__RESPONSE__PAYLOAD_CONTROL, &r);
	if (rc != HXD_OK)
		return rc;
	return control_from_wire(c, r, r->control, out);
}

/* Fill a wire Control from the caller's struct; -1 on a bad argument. */
static int
control_to_wire(hxd_conn *c, const hxd_control *in, Haptix__V1__Control *w)
{
	if (check_arg(c, "nu", in->nu, in->ctrl))
		return -1;
	w->nu = (uint32_t)in->nu;
	w->n_ctrl = (size_t)in->nu;
	w->ctrl = in->ctrl;
	return 0;
}

int
hxd_set_control(hxd_conn *c, const hxd_control *in)
{
	Request req = HAPTIX__V1__REQUEST__INIT;
	Haptix__V1__Control w = HAPTIX__V1__CONTROL__INIT;

	if (control_to_wire(c, in, &w) != 0)
		return c->result;
	req.call_case = HAPTIX__V1__REQUEST__CALL_SET_CONTROL;
	req.set_control = &w;
	return call_plain(c, &req);
}

/*---------------------------------------------------------------- applied */

int
hxd_get_applied(hxd_conn *c, hxd_applied **out)
{
	Haptix__V1__Applied *w;
	hxd_applied *o;
	Response *r;
	int rc;

	*out = NULL;
	rc = call_empty(c, HAPTIX__V1__REQUEST__CALL_GET_APPLIED,
	    HAPTIX__V1__RESPONSE__PAYLOAD_APPLIED, &r);
	if (rc != HXD_OK)
		return rc;
	w = r->applied;
	if (check_count(c, "qfrc_applied", w->n_qfrc_applied, w->nv) ||
	    check_count(
		c, "xfrc_applied", w->n_xfrc_applied, 6 * (size_t)w->nbody)) {
		conn_free_response(r);
		return c->result;
	}
	{
		const struct field f[] = {
			F_DBL(
			    hxd_applied, qfrc_applied, w->nv, w->qfrc_applied),
			F_DBL(hxd_applied, xfrc_applied, 6 * (size_t)w->nbody,
			    w->xfrc_applied),
		};
		o = block_build(sizeof(*o), f, NELEM(f));
	}
	if (o != NULL) {
		o->nv = (int)w->nv;
		o->nbody = (int)w->nbody;
		o->time = w->time;
	}
	*out = o;
	return finish_block(c, o, r);
}

int
hxd_set_applied(hxd_conn *c, const hxd_applied *in)
{
	Request req = HAPTIX__V1__REQUEST__INIT;
	Haptix__V1__Applied w = HAPTIX__V1__APPLIED__INIT;

	if (check_arg(c, "nv", in->nv, in->qfrc_applied) ||
	    check_arg(c, "nbody", in->nbody, in->xfrc_applied))
		return c->result;
	w.nv = (uint32_t)in->nv;
	w.nbody = (uint32_t)in->nbody;
	w.n_qfrc_applied = (size_t)in->nv;
	w.qfrc_applied = in->qfrc_applied;
	w.n_xfrc_applied = 6 * (size_t)in->nbody;
	w.xfrc_applied = in->xfrc_applied;
	req.call_case = HAPTIX__V1__REQUEST__CALL_SET_APPLIED;
	req.set_applied = &w;
	return call_plain(c, &req);
}

/*---------------------------------------------------------------- onebody */

/* Copy a fixed-size wire array, failing if its length is wrong. */
static int
copy_fixed(hxd_conn *c, const char *what, double *dst, size_t want,
    const double *src, size_t n)
{
	if (check_count(c, what, n, want))
		return -1;
	memcpy(dst, src, want * sizeof(double));
	return 0;
}

int
hxd_get_onebody(hxd_conn *c, int body_id, hxd_onebody *out)
{
	Request req = HAPTIX__V1__REQUEST__INIT;
	Haptix__V1__ObjectRef ref = HAPTIX__V1__OBJECT_REF__INIT;
	Haptix__V1__OneBody *w;
	Response *r;
	int rc;

	ref.type = HAPTIX__V1__OBJ_TYPE__OBJ_BODY;
	ref.id = body_id;
	req.call_case = HAPTIX__V1__REQUEST__CALL_GET_ONEBODY;
	req.get_onebody = &ref;
	rc = call_expect(c, &req, HAPTIX__V1__RESPONSE__PAYLOAD_ONEBODY, &r);
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
	Request req = HAPTIX__V1__REQUEST__INIT;
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
	req.call_case = HAPTIX__V1__REQUEST__CALL_SET_ONEBODY;
	req.set_onebody = &w;
	return call_plain(c, &req);
}

/*---------------------------------------------------------------- mocap */

int
hxd_get_mocap(hxd_conn *c, hxd_mocap **out)
{
	Haptix__V1__Mocap *w;
	hxd_mocap *o;
	Response *r;
	int rc;

	*out = NULL;
	rc = call_empty(c, HAPTIX__V1__REQUEST__CALL_GET_MOCAP,
	    HAPTIX__V1__RESPONSE__PAYLOAD_MOCAP, &r);
	if (rc != HXD_OK)
		return rc;
	w = r->mocap;
	if (check_count(c, "pos", w->n_pos, 3 * (size_t)w->nmocap) ||
	    check_count(c, "quat", w->n_quat, 4 * (size_t)w->nmocap)) {
		conn_free_response(r);
		return c->result;
	}
	{
		const struct field f[] = {
			F_DBL(hxd_mocap, pos, 3 * (size_t)w->nmocap, w->pos),
			F_DBL(hxd_mocap, quat, 4 * (size_t)w->nmocap, w->quat),
		};
		o = block_build(sizeof(*o), f, NELEM(f));
	}
	if (o != NULL) {
		o->nmocap = (int)w->nmocap;
		o->time = w->time;
	}
	*out = o;
	return finish_block(c, o, r);
}

int
hxd_set_mocap(hxd_conn *c, const hxd_mocap *in)
{
	Request req = HAPTIX__V1__REQUEST__INIT;
	Haptix__V1__Mocap w = HAPTIX__V1__MOCAP__INIT;

	if (check_arg(c, "nmocap", in->nmocap, in->pos) ||
	    check_arg(c, "nmocap", in->nmocap, in->quat))
		return c->result;
	w.nmocap = (uint32_t)in->nmocap;
	w.n_pos = 3 * (size_t)in->nmocap;
	w.pos = in->pos;
	w.n_quat = 4 * (size_t)in->nmocap;
	w.quat = in->quat;
	req.call_case = HAPTIX__V1__REQUEST__CALL_SET_MOCAP;
	req.set_mocap = &w;
	return call_plain(c, &req);
}

/*---------------------------------------------------------------- get only */

int
hxd_get_dynamics(hxd_conn *c, hxd_dynamics **out)
{
	Haptix__V1__Dynamics *w;
	hxd_dynamics *o;
	Response *r;
	int rc;

	*out = NULL;
	rc = call_empty(c, HAPTIX__V1__REQUEST__CALL_GET_DYNAMICS,
	    HAPTIX__V1__RESPONSE__PAYLOAD_DYNAMICS, &r);
	if (rc != HXD_OK)
		return rc;
	w = r->dynamics;
	if (check_count(c, "qacc", w->n_qacc, w->nv) ||
	    check_count(c, "act_dot", w->n_act_dot, w->na)) {
		conn_free_response(r);
		return c->result;
	}
	{
		const struct field f[] = {
			F_DBL(hxd_dynamics, qacc, w->nv, w->qacc),
			F_DBL(hxd_dynamics, act_dot, w->na, w->act_dot),
		};
		o = block_build(sizeof(*o), f, NELEM(f));
	}
	if (o != NULL) {
		o->nv = (int)w->nv;
		o->na = (int)w->na;
		o->time = w->time;
	}
	*out = o;
	return finish_block(c, o, r);
}

/* Turn a Sensor payload into an hxd_sensor block. */
static int
sensor_from_wire(hxd_conn *c, Response *r, hxd_sensor **out)
{
	Haptix__V1__Sensor *w = r->sensor;
	hxd_sensor *o;

	if (check_count(c, "sensordata", w->n_sensordata, w->nsensordata)) {
		conn_free_response(r);
		return c->result;
	}
	{
		const struct field f[] = {
			F_DBL(hxd_sensor, sensordata, w->nsensordata,
			    w->sensordata),
		};
		o = block_build(sizeof(*o), f, NELEM(f));
	}
	if (o != NULL) {
		o->nsensordata = (int)w->nsensordata;
		o->time = w->time;
	}
	*out = o;
	return finish_block(c, o, r);
}

int
hxd_get_sensor(hxd_conn *c, hxd_sensor **out)
{
	Response *r;
	int rc;

	*out = NULL;
	rc = call_empty(c, HAPTIX__V1__REQUEST__CALL_GET_SENSOR,
	    HAPTIX__V1__RESPONSE__PAYLOAD_SENSOR, &r);
	if (rc != HXD_OK)
		return rc;
	return sensor_from_wire(c, r, out);
}

/* Run one of the three pose calls. */
static int
get_poses(hxd_conn *c, Haptix__V1__Request__CallCase call, hxd_poses **out)
{
	Haptix__V1__Poses *w;
	hxd_poses *o;
	Response *r;
	int rc;

	*out = NULL;
	rc = call_empty(c, call, HAPTIX__V1__RESPONSE__PAYLOAD_POSES, &r);
	if (rc != HXD_OK)
		return rc;
	w = r->poses;
	if (check_count(c, "pos", w->n_pos, 3 * (size_t)w->count) ||
	    check_count(c, "mat", w->n_mat, 9 * (size_t)w->count)) {
		conn_free_response(r);
		return c->result;
	}
	{
		const struct field f[] = {
			F_DBL(hxd_poses, pos, 3 * (size_t)w->count, w->pos),
			F_DBL(hxd_poses, mat, 9 * (size_t)w->count, w->mat),
		};
		o = block_build(sizeof(*o), f, NELEM(f));
	}
	if (o != NULL) {
		o->count = (int)w->count;
		o->time = w->time;
	}
	*out = o;
	return finish_block(c, o, r);
}

int
hxd_get_body(hxd_conn *c, hxd_poses **out)
{
	return get_poses(c, HAPTIX__V1__REQUEST__CALL_GET_BODY, out);
}

int
hxd_get_geom(hxd_conn *c, hxd_poses **out)
{
	return get_poses(c, HAPTIX__V1__REQUEST__CALL_GET_GEOM, out);
}

int
hxd_get_site(hxd_conn *c, hxd_poses **out)
{
	return get_poses(c, HAPTIX__V1__REQUEST__CALL_GET_SITE, out);
}

int
hxd_get_tendon(hxd_conn *c, hxd_tendon **out)
{
	Haptix__V1__Tendon *w;
	hxd_tendon *o;
	Response *r;
	int rc;

	*out = NULL;
	rc = call_empty(c, HAPTIX__V1__REQUEST__CALL_GET_TENDON,
	    HAPTIX__V1__RESPONSE__PAYLOAD_TENDON, &r);
	if (rc != HXD_OK)
		return rc;
	w = r->tendon;
	if (check_count(c, "length", w->n_length, w->ntendon) ||
	    check_count(c, "velocity", w->n_velocity, w->ntendon)) {
		conn_free_response(r);
		return c->result;
	}
	{
		const struct field f[] = {
			F_DBL(hxd_tendon, length, w->ntendon, w->length),
			F_DBL(hxd_tendon, velocity, w->ntendon, w->velocity),
		};
		o = block_build(sizeof(*o), f, NELEM(f));
	}
	if (o != NULL) {
		o->ntendon = (int)w->ntendon;
		o->time = w->time;
	}
	*out = o;
	return finish_block(c, o, r);
}

int
hxd_get_actuator(hxd_conn *c, hxd_actuator **out)
{
	Haptix__V1__Actuator *w;
	hxd_actuator *o;
	Response *r;
	int rc;

	*out = NULL;
	rc = call_empty(c, HAPTIX__V1__REQUEST__CALL_GET_ACTUATOR,
	    HAPTIX__V1__RESPONSE__PAYLOAD_ACTUATOR, &r);
	if (rc != HXD_OK)
		return rc;
	w = r->actuator;
	if (check_count(c, "length", w->n_length, w->nu) ||
	    check_count(c, "velocity", w->n_velocity, w->nu) ||
	    check_count(c, "force", w->n_force, w->nu)) {
		conn_free_response(r);
		return c->result;
	}
	{
		const struct field f[] = {
			F_DBL(hxd_actuator, length, w->nu, w->length),
			F_DBL(hxd_actuator, velocity, w->nu, w->velocity),
			F_DBL(hxd_actuator, force, w->nu, w->force),
		};
		o = block_build(sizeof(*o), f, NELEM(f));
	}
	if (o != NULL) {
		o->nu = (int)w->nu;
		o->time = w->time;
	}
	*out = o;
	return finish_block(c, o, r);
}

int
hxd_get_force(hxd_conn *c, hxd_force **out)
{
	Haptix__V1__Force *w;
	hxd_force *o;
	Response *r;
	int rc;

	*out = NULL;
	rc = call_empty(c, HAPTIX__V1__REQUEST__CALL_GET_FORCE,
	    HAPTIX__V1__RESPONSE__PAYLOAD_FORCE, &r);
	if (rc != HXD_OK)
		return rc;
	w = r->force;
	if (check_count(c, "applied", w->n_applied, w->nv) ||
	    check_count(c, "passive", w->n_passive, w->nv) ||
	    check_count(c, "bias", w->n_bias, w->nv) ||
	    check_count(c, "actuator", w->n_actuator, w->nv) ||
	    check_count(c, "constraint", w->n_constraint, w->nv) ||
	    check_count(c, "nonconstraint", w->n_nonconstraint, w->nv)) {
		conn_free_response(r);
		return c->result;
	}
	{
		const struct field f[] = {
			F_DBL(hxd_force, applied, w->nv, w->applied),
			F_DBL(hxd_force, passive, w->nv, w->passive),
			F_DBL(hxd_force, bias, w->nv, w->bias),
			F_DBL(hxd_force, actuator, w->nv, w->actuator),
			F_DBL(hxd_force, constraint, w->nv, w->constraint),
			F_DBL(
			    hxd_force, nonconstraint, w->nv, w->nonconstraint),
		};
		o = block_build(sizeof(*o), f, NELEM(f));
	}
	if (o != NULL) {
		o->nv = (int)w->nv;
		o->time = w->time;
	}
	*out = o;
	return finish_block(c, o, r);
}

int
hxd_get_contact(hxd_conn *c, hxd_contacts **out)
{
	Haptix__V1__Contacts *w;
	hxd_contacts *o;
	Response *r;
	size_t n;
	int rc;

	*out = NULL;
	rc = call_empty(c, HAPTIX__V1__REQUEST__CALL_GET_CONTACT,
	    HAPTIX__V1__RESPONSE__PAYLOAD_CONTACTS, &r);
	if (rc != HXD_OK)
		return rc;
	w = r->contacts;
	n = w->ncon;
	if (check_count(c, "dist", w->n_dist, n) ||
	    check_count(c, "pos", w->n_pos, 3 * n) ||
	    check_count(c, "frame", w->n_frame, 9 * n) ||
	    check_count(c, "force", w->n_force, 3 * n) ||
	    check_count(c, "geom1", w->n_geom1, n) ||
	    check_count(c, "geom2", w->n_geom2, n)) {
		conn_free_response(r);
		return c->result;
	}
	{
		const struct field f[] = {
			F_DBL(hxd_contacts, dist, n, w->dist),
			F_DBL(hxd_contacts, pos, 3 * n, w->pos),
			F_DBL(hxd_contacts, frame, 9 * n, w->frame),
			F_DBL(hxd_contacts, force, 3 * n, w->force),
			F_INT(hxd_contacts, geom1, n, w->geom1),
			F_INT(hxd_contacts, geom2, n, w->geom2),
		};
		o = block_build(sizeof(*o), f, NELEM(f));
	}
	if (o != NULL) {
		o->ncon = (int)n;
		o->time = w->time;
	}
	*out = o;
	return finish_block(c, o, r);
}

/*---------------------------------------------------------------- geoms,
 * colours */

int
hxd_set_geomsize(hxd_conn *c, int geom_id, const double size[3])
{
	Request req = HAPTIX__V1__REQUEST__INIT;
	Haptix__V1__GeomSize w = HAPTIX__V1__GEOM_SIZE__INIT;

	w.id = geom_id;
	w.n_size = 3;
	w.size = (double *)size;
	req.call_case = HAPTIX__V1__REQUEST__CALL_SET_GEOMSIZE;
	req.set_geomsize = &w;
	return call_plain(c, &req);
}

int
hxd_get_rgba(hxd_conn *c, int type, int id, double rgba[4])
{
	Request req = HAPTIX__V1__REQUEST__INIT;
	Haptix__V1__ObjectRef ref = HAPTIX__V1__OBJECT_REF__INIT;
	Response *r;
	int rc;

	ref.type = (Haptix__V1__ObjType)type;
	ref.id = id;
	req.call_case = HAPTIX__V1__REQUEST__CALL_GET_RGBA;
	req.get_rgba = &ref;
	rc = call_expect(c, &req, HAPTIX__V1__RESPONSE__PAYLOAD_RGBA, &r);
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
	Request req = HAPTIX__V1__REQUEST__INIT;
	Haptix__V1__Rgba w = HAPTIX__V1__RGBA__INIT;

	w.type = (Haptix__V1__ObjType)type;
	w.id = id;
	w.n_rgba = 4;
	w.rgba = (double *)rgba;
	req.call_case = HAPTIX__V1__REQUEST__CALL_SET_RGBA;
	req.set_rgba = &w;
	return call_plain(c, &req);
}

/*---------------------------------------------------------------- stepping */

int
hxd_step(hxd_conn *c, unsigned count, unsigned *taken)
{
	Request req = HAPTIX__V1__REQUEST__INIT;
	Haptix__V1__Step w = HAPTIX__V1__STEP__INIT;
	Response *r;
	int rc;

	if (taken != NULL)
		*taken = 0;
	w.count = count;
	req.call_case = HAPTIX__V1__REQUEST__CALL_STEP;
	req.step = &w;
	rc = call_expect(c, &req, HAPTIX__V1__RESPONSE__PAYLOAD_STEP_DONE, &r);
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
	Request req = HAPTIX__V1__REQUEST__INIT;
	Haptix__V1__Update u = HAPTIX__V1__UPDATE__INIT;
	Haptix__V1__Control w = HAPTIX__V1__CONTROL__INIT;
	Response *r;
	int rc;

	*out = NULL;
	if (control != NULL) {
		if (control_to_wire(c, control, &w) != 0)
			return c->result;
		u.control = &w;
	}
	req.call_case = HAPTIX__V1__REQUEST__CALL_UPDATE;
	req.update = &u;
	rc = call_expect(c, &req, HAPTIX__V1__RESPONSE__PAYLOAD_SENSOR, &r);
	if (rc != HXD_OK)
		return rc;
	return sensor_from_wire(c, r, out);
}

int
hxd_reset(hxd_conn *c, int keyframe)
{
	Request req = HAPTIX__V1__REQUEST__INIT;
	Haptix__V1__Reset w = HAPTIX__V1__RESET__INIT;

	w.keyframe = keyframe;
	req.call_case = HAPTIX__V1__REQUEST__CALL_RESET;
	req.reset = &w;
	return call_plain(c, &req);
}

int
hxd_equality(hxd_conn *c, int eq_id, int state)
{
	Request req = HAPTIX__V1__REQUEST__INIT;
	Haptix__V1__Equality w = HAPTIX__V1__EQUALITY__INIT;

	w.id = eq_id;
	w.state = state;
	req.call_case = HAPTIX__V1__REQUEST__CALL_EQUALITY;
	req.equality = &w;
	return call_plain(c, &req);
}

int
hxd_message(hxd_conn *c, const char *text)
{
	Request req = HAPTIX__V1__REQUEST__INIT;
	Haptix__V1__Message w = HAPTIX__V1__MESSAGE__INIT;

	w.text = (char *)(text != NULL ? text : "");
	req.call_case = HAPTIX__V1__REQUEST__CALL_MESSAGE;
	req.message = &w;
	return call_plain(c, &req);
}

/*---------------------------------------------------------------- names */

int
hxd_name2id(hxd_conn *c, int type, const char *name, int *id)
{
	Request req = HAPTIX__V1__REQUEST__INIT;
	Haptix__V1__ObjectRef ref = HAPTIX__V1__OBJECT_REF__INIT;
	Response *r;
	int rc;

	*id = -2;
	ref.type = (Haptix__V1__ObjType)type;
	ref.name = (char *)(name != NULL ? name : "");
	req.call_case = HAPTIX__V1__REQUEST__CALL_NAME2ID;
	req.name2id = &ref;
	rc = call_expect(c, &req, HAPTIX__V1__RESPONSE__PAYLOAD_OBJECT, &r);
	if (rc != HXD_OK)
		return rc;
	*id = r->object->id;
	conn_free_response(r);
	return rc;
}

int
hxd_id2name(hxd_conn *c, int type, int id, char *buf, size_t len)
{
	Request req = HAPTIX__V1__REQUEST__INIT;
	Haptix__V1__ObjectRef ref = HAPTIX__V1__OBJECT_REF__INIT;
	Response *r;
	int rc;

	if (len > 0)
		buf[0] = '\0';
	ref.type = (Haptix__V1__ObjType)type;
	ref.id = id;
	req.call_case = HAPTIX__V1__REQUEST__CALL_ID2NAME;
	req.id2name = &ref;
	rc = call_expect(c, &req, HAPTIX__V1__RESPONSE__PAYLOAD_OBJECT, &r);
	if (rc != HXD_OK)
		return rc;
	if (len > 0)
		snprintf(buf, len, "%s", r->object->name);
	conn_free_response(r);
	return rc;
}

/*----------------------------------------------------------------
 * administration */

/* Run a load request and keep the new model's summary. */
static int
call_load(hxd_conn *c, Haptix__V1__LoadModel *w, hxd_model *out)
{
	Request req = HAPTIX__V1__REQUEST__INIT;
	Response *r;
	int rc;

	req.call_case = HAPTIX__V1__REQUEST__CALL_LOAD_MODEL;
	req.load_model = w;
	rc = call_expect(c, &req, HAPTIX__V1__RESPONSE__PAYLOAD_MODEL, &r);
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

/* Run one of the argument-free administrative calls. */
static int
call_admin(hxd_conn *c, Haptix__V1__Request__CallCase call)
{
	Request req = HAPTIX__V1__REQUEST__INIT;
	Haptix__V1__Empty empty = HAPTIX__V1__EMPTY__INIT;

	req.call_case = call;
	req.pause = &empty;
	return call_plain(c, &req);
}

int
hxd_pause(hxd_conn *c)
{
	return call_admin(c, HAPTIX__V1__REQUEST__CALL_PAUSE);
}

int
hxd_run(hxd_conn *c)
{
	return call_admin(c, HAPTIX__V1__REQUEST__CALL_RUN);
}

int
hxd_set_speed(hxd_conn *c, double factor, int max)
{
	Request req = HAPTIX__V1__REQUEST__INIT;
	Haptix__V1__Speed w = HAPTIX__V1__SPEED__INIT;

	w.factor = factor;
	w.max = max != 0;
	req.call_case = HAPTIX__V1__REQUEST__CALL_SET_SPEED;
	req.set_speed = &w;
	return call_plain(c, &req);
}

int
hxd_status_get(hxd_conn *c, hxd_status *out)
{
	Haptix__V1__Status *w;
	Response *r;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = call_empty(c, HAPTIX__V1__REQUEST__CALL_STATUS,
	    HAPTIX__V1__RESPONSE__PAYLOAD_STATUS, &r);
	if (rc != HXD_OK)
		return rc;
	w = r->status;
	conn_model_from_wire(&out->model, w->model);
	out->time = w->time;
	out->steps = w->steps;
	out->paused = w->paused;
	out->speed = w->speed;
	out->speed_max = w->speed_max;
	out->realtime_factor = w->realtime_factor;
	out->cpu_per_step = w->cpu_per_step;
	out->nefc = (int)w->nefc;
	out->ncon = (int)w->ncon;
	out->energy_potential = w->energy_potential;
	out->energy_kinetic = w->energy_kinetic;
	out->instability_resets = w->instability_resets;
	out->sim_errors = w->sim_errors;
	out->overruns = w->overruns;
	out->clients = (int)w->clients;
	snprintf(out->message, sizeof(out->message), "%s", w->message);
	out->uptime = w->uptime;
	conn_free_response(r);
	return rc;
}
