/*
 * The HAPTIX native API (the mj_ calls of haptix.h) over the extension
 * API: float structs capped at mjMAXSZ, on the process-wide connection
 * and with the last result of haptix_compat.c.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "haptix.h"
#include "haptixd.h"
#include "haptix_compat.h"

_Static_assert((int)mjCOM_SIMERROR == (int)HXD_SIMERROR, "result codes");
_Static_assert((int)mjSENS_CLOCK == 36, "sensor numbering");

static char native_name[1024];

/* Copy n doubles into floats. */
static void
to_float(float *dst, const double *src, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		dst[i] = (float)src[i];
}

/* Copy n floats into doubles. */
static void
to_double(double *dst, const float *src, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		dst[i] = src[i];
}

/* Fail with BADSIZE unless 0 <= n <= mjMAXSZ. */
static int
fits(const char *what, int n)
{
	if (n >= 0 && n <= mjMAXSZ)
		return 1;
	compat_fail(mjCOM_BADSIZE, "%s is %d, outside 0..mjMAXSZ (%d)", what, n,
	    mjMAXSZ);
	return 0;
}

/* Run a get call, first checking the connection; return on failure. */
#define COMPAT_GET(c, call) \
	do { \
		int rc_; \
		if (((c) = compat_connection()) == NULL) \
			return (mjtResult)compat_last(); \
		rc_ = (call); \
		if (rc_ != HXD_OK) \
			return compat_done(rc_); \
	} while (0)

mjtResult
mj_connect(const char *host)
{
	return (mjtResult)compat_connect(host, 0);
}

mjtResult
mj_close(void)
{
	return (mjtResult)compat_close();
}

mjtResult
mj_result(void)
{
	return (mjtResult)compat_last();
}

int
mj_connected(void)
{
	return compat_connection_ok();
}

void
mj_handler(void (*handler)(int))
{
	compat_set_handler(handler);
}

mjtResult
mj_info(mjInfo *info)
{
	hxd_conn *c;
	hxd_info *in = NULL;
	const hxd_model *m;
	int i, ok;

	COMPAT_GET(c, hxd_info_get(c, &in));
	m = &in->model;
	ok = fits("nbody", m->nbody) && fits("njnt", m->njnt) &&
	    fits("ngeom", m->ngeom) && fits("nsensor", m->nsensor) &&
	    fits("neq", m->neq) && fits("nu", m->nu);
	if (!ok) {
		free(in);
		return (mjtResult)compat_last();
	}
	memset(info, 0, sizeof(*info));
	info->nq = m->nq;
	info->nv = m->nv;
	info->na = m->na;
	info->njnt = m->njnt;
	info->nbody = m->nbody;
	info->ngeom = m->ngeom;
	info->nsite = m->nsite;
	info->ntendon = m->ntendon;
	info->nu = m->nu;
	info->neq = m->neq;
	info->nkey = m->nkey;
	info->nmocap = m->nmocap;
	info->nsensor = m->nsensor;
	info->nsensordata = m->nsensordata;
	info->nmat = m->nmat;
	info->timestep = (float)m->timestep;
	info->apirate = (float)m->apirate;
	for (i = 0; i < m->nsensor; i++) {
		info->sensor_type[i] = in->sensor_type[i];
		info->sensor_datatype[i] = in->sensor_datatype[i];
		info->sensor_objtype[i] = in->sensor_objtype[i];
		info->sensor_objid[i] = in->sensor_objid[i];
		info->sensor_dim[i] = in->sensor_dim[i];
		info->sensor_adr[i] = in->sensor_adr[i];
		info->sensor_noise[i] = (float)in->sensor_noise[i];
	}
	for (i = 0; i < m->njnt; i++) {
		info->jnt_type[i] = in->jnt_type[i];
		info->jnt_bodyid[i] = in->jnt_bodyid[i];
		info->jnt_qposadr[i] = in->jnt_qposadr[i];
		info->jnt_dofadr[i] = in->jnt_dofadr[i];
		if (in->jnt_limited[i])
			to_float(info->jnt_range[i], in->jnt_range + 2 * i, 2);
	}
	for (i = 0; i < m->ngeom; i++) {
		info->geom_type[i] = in->geom_type[i];
		info->geom_bodyid[i] = in->geom_bodyid[i];
	}
	for (i = 0; i < m->neq; i++) {
		info->eq_type[i] = in->eq_type[i];
		info->eq_obj1id[i] = in->eq_obj1id[i];
		info->eq_obj2id[i] = in->eq_obj2id[i];
	}
	for (i = 0; i < m->nu; i++) {
		info->actuator_trntype[i] = in->actuator_trntype[i];
		info->actuator_trnid[i][0] = in->actuator_trnid[2 * i];
		info->actuator_trnid[i][1] = in->actuator_trnid[2 * i + 1];
		if (in->actuator_ctrllimited[i])
			to_float(info->actuator_ctrlrange[i],
			    in->actuator_ctrlrange + 2 * i, 2);
	}
	free(in);
	return compat_done(HXD_OK);
}

mjtResult
mj_get_state(mjState *state)
{
	hxd_conn *c;
	hxd_state *s = NULL;

	COMPAT_GET(c, hxd_get_state(c, &s));
	if (!fits("nq", s->nq) || !fits("nv", s->nv) || !fits("na", s->na)) {
		free(s);
		return (mjtResult)compat_last();
	}
	state->nq = s->nq;
	state->nv = s->nv;
	state->na = s->na;
	state->time = (float)s->time;
	to_float(state->qpos, s->qpos, (size_t)s->nq);
	to_float(state->qvel, s->qvel, (size_t)s->nv);
	to_float(state->act, s->act, (size_t)s->na);
	free(s);
	return compat_done(HXD_OK);
}

mjtResult
mj_set_state(const mjState *state)
{
	double qpos[mjMAXSZ], qvel[mjMAXSZ], act[mjMAXSZ];
	hxd_state s = { 0 };
	hxd_conn *c;

	if ((c = compat_connection()) == NULL)
		return (mjtResult)compat_last();
	if (!fits("nq", state->nq) || !fits("nv", state->nv) ||
	    !fits("na", state->na))
		return (mjtResult)compat_last();
	s.nq = state->nq;
	s.nv = state->nv;
	s.na = state->na;
	s.qpos = qpos;
	s.qvel = qvel;
	s.act = act;
	to_double(qpos, state->qpos, (size_t)s.nq);
	to_double(qvel, state->qvel, (size_t)s.nv);
	to_double(act, state->act, (size_t)s.na);
	return compat_done(hxd_set_state(c, &s));
}

mjtResult
mj_get_control(mjControl *control)
{
	hxd_conn *c;
	hxd_control *o = NULL;

	COMPAT_GET(c, hxd_get_control(c, &o));
	if (!fits("nu", o->nu)) {
		free(o);
		return (mjtResult)compat_last();
	}
	control->nu = o->nu;
	control->time = (float)o->time;
	to_float(control->ctrl, o->ctrl, (size_t)o->nu);
	free(o);
	return compat_done(HXD_OK);
}

/* Convert a float control into a double one backed by buf. */
static int
control_in(const mjControl *control, hxd_control *out, double *buf)
{
	if (!fits("nu", control->nu))
		return -1;
	out->nu = control->nu;
	out->time = 0;
	out->ctrl = buf;
	to_double(buf, control->ctrl, (size_t)control->nu);
	return 0;
}

mjtResult
mj_set_control(const mjControl *control)
{
	double buf[mjMAXSZ];
	hxd_control in;
	hxd_conn *c;

	if ((c = compat_connection()) == NULL)
		return (mjtResult)compat_last();
	if (control_in(control, &in, buf) != 0)
		return (mjtResult)compat_last();
	return compat_done(hxd_set_control(c, &in));
}

mjtResult
mj_get_applied(mjApplied *applied)
{
	hxd_conn *c;
	hxd_applied *o = NULL;

	COMPAT_GET(c, hxd_get_applied(c, &o));
	if (!fits("nv", o->nv) || !fits("nbody", o->nbody)) {
		free(o);
		return (mjtResult)compat_last();
	}
	applied->nv = o->nv;
	applied->nbody = o->nbody;
	applied->time = (float)o->time;
	to_float(applied->qfrc_applied, o->qfrc_applied, (size_t)o->nv);
	to_float(&applied->xfrc_applied[0][0], o->xfrc_applied,
	    6 * (size_t)o->nbody);
	free(o);
	return compat_done(HXD_OK);
}

mjtResult
mj_set_applied(const mjApplied *applied)
{
	static double xfrc[6 * mjMAXSZ];
	double qfrc[mjMAXSZ];
	hxd_applied in;
	hxd_conn *c;

	if ((c = compat_connection()) == NULL)
		return (mjtResult)compat_last();
	if (!fits("nv", applied->nv) || !fits("nbody", applied->nbody))
		return (mjtResult)compat_last();
	in.nv = applied->nv;
	in.nbody = applied->nbody;
	in.time = 0;
	in.qfrc_applied = qfrc;
	in.xfrc_applied = xfrc;
	to_double(qfrc, applied->qfrc_applied, (size_t)in.nv);
	to_double(xfrc, &applied->xfrc_applied[0][0], 6 * (size_t)in.nbody);
	return compat_done(hxd_set_applied(c, &in));
}

mjtResult
mj_get_onebody(mjOneBody *onebody)
{
	hxd_conn *c;
	hxd_onebody b;

	COMPAT_GET(c, hxd_get_onebody(c, onebody->bodyid, &b));
	onebody->isfloating = b.is_floating;
	onebody->time = (float)b.time;
	to_float(onebody->linacc, b.linacc, 3);
	to_float(onebody->angacc, b.angacc, 3);
	to_float(onebody->contactforce, b.contactforce, 3);
	to_float(onebody->pos, b.pos, 3);
	to_float(onebody->quat, b.quat, 4);
	to_float(onebody->linvel, b.linvel, 3);
	to_float(onebody->angvel, b.angvel, 3);
	to_float(onebody->force, b.force, 3);
	to_float(onebody->torque, b.torque, 3);
	return compat_done(HXD_OK);
}

mjtResult
mj_set_onebody(const mjOneBody *onebody)
{
	hxd_onebody b;
	hxd_conn *c;

	if ((c = compat_connection()) == NULL)
		return (mjtResult)compat_last();
	memset(&b, 0, sizeof(b));
	b.body_id = onebody->bodyid;
	to_double(b.pos, onebody->pos, 3);
	to_double(b.quat, onebody->quat, 4);
	to_double(b.linvel, onebody->linvel, 3);
	to_double(b.angvel, onebody->angvel, 3);
	to_double(b.force, onebody->force, 3);
	to_double(b.torque, onebody->torque, 3);
	return compat_done(hxd_set_onebody(c, &b, HXD_ONEBODY_ALL));
}

mjtResult
mj_get_mocap(mjMocap *mocap)
{
	hxd_conn *c;
	hxd_mocap *o = NULL;

	COMPAT_GET(c, hxd_get_mocap(c, &o));
	if (!fits("nmocap", o->nmocap)) {
		free(o);
		return (mjtResult)compat_last();
	}
	mocap->nmocap = o->nmocap;
	mocap->time = (float)o->time;
	to_float(&mocap->pos[0][0], o->pos, 3 * (size_t)o->nmocap);
	to_float(&mocap->quat[0][0], o->quat, 4 * (size_t)o->nmocap);
	free(o);
	return compat_done(HXD_OK);
}

mjtResult
mj_set_mocap(const mjMocap *mocap)
{
	static double pos[3 * mjMAXSZ], quat[4 * mjMAXSZ];
	hxd_mocap in;
	hxd_conn *c;

	if ((c = compat_connection()) == NULL)
		return (mjtResult)compat_last();
	if (!fits("nmocap", mocap->nmocap))
		return (mjtResult)compat_last();
	in.nmocap = mocap->nmocap;
	in.time = 0;
	in.pos = pos;
	in.quat = quat;
	to_double(pos, &mocap->pos[0][0], 3 * (size_t)in.nmocap);
	to_double(quat, &mocap->quat[0][0], 4 * (size_t)in.nmocap);
	return compat_done(hxd_set_mocap(c, &in));
}

mjtResult
mj_get_dynamics(mjDynamics *dynamics)
{
	hxd_conn *c;
	hxd_dynamics *o = NULL;

	COMPAT_GET(c, hxd_get_dynamics(c, &o));
	if (!fits("nv", o->nv) || !fits("na", o->na)) {
		free(o);
		return (mjtResult)compat_last();
	}
	dynamics->nv = o->nv;
	dynamics->na = o->na;
	dynamics->time = (float)o->time;
	to_float(dynamics->qacc, o->qacc, (size_t)o->nv);
	to_float(dynamics->actdot, o->act_dot, (size_t)o->na);
	free(o);
	return compat_done(HXD_OK);
}

/* Copy an hxd_sensor into HAPTIX's float struct and free it. */
static mjtResult
sensor_out(hxd_sensor *o, mjSensor *sensor)
{
	if (!fits("nsensordata", o->nsensordata)) {
		free(o);
		return (mjtResult)compat_last();
	}
	sensor->nsensordata = o->nsensordata;
	sensor->time = (float)o->time;
	to_float(sensor->sensordata, o->sensordata, (size_t)o->nsensordata);
	free(o);
	return compat_done(HXD_OK);
}

mjtResult
mj_get_sensor(mjSensor *sensor)
{
	hxd_conn *c;
	hxd_sensor *o = NULL;

	COMPAT_GET(c, hxd_get_sensor(c, &o));
	return sensor_out(o, sensor);
}

/* Copy poses into HAPTIX's layout (count, time, pos[][3], mat[][9]). */
static mjtResult
poses_out(hxd_poses *o, const char *what, int *count, float *time, float *pos,
    float *mat)
{
	if (!fits(what, o->count)) {
		free(o);
		return (mjtResult)compat_last();
	}
	*count = o->count;
	*time = (float)o->time;
	to_float(pos, o->pos, 3 * (size_t)o->count);
	to_float(mat, o->mat, 9 * (size_t)o->count);
	free(o);
	return compat_done(HXD_OK);
}

mjtResult
mj_get_body(mjBody *body)
{
	hxd_conn *c;
	hxd_poses *o = NULL;

	COMPAT_GET(c, hxd_get_body(c, &o));
	return poses_out(o, "nbody", &body->nbody, &body->time,
	    &body->pos[0][0], &body->mat[0][0]);
}

mjtResult
mj_get_geom(mjGeom *geom)
{
	hxd_conn *c;
	hxd_poses *o = NULL;

	COMPAT_GET(c, hxd_get_geom(c, &o));
	return poses_out(o, "ngeom", &geom->ngeom, &geom->time,
	    &geom->pos[0][0], &geom->mat[0][0]);
}

mjtResult
mj_get_site(mjSite *site)
{
	hxd_conn *c;
	hxd_poses *o = NULL;

	COMPAT_GET(c, hxd_get_site(c, &o));
	return poses_out(o, "nsite", &site->nsite, &site->time,
	    &site->pos[0][0], &site->mat[0][0]);
}

mjtResult
mj_get_tendon(mjTendon *tendon)
{
	hxd_conn *c;
	hxd_tendon *o = NULL;

	COMPAT_GET(c, hxd_get_tendon(c, &o));
	if (!fits("ntendon", o->ntendon)) {
		free(o);
		return (mjtResult)compat_last();
	}
	tendon->ntendon = o->ntendon;
	tendon->time = (float)o->time;
	to_float(tendon->length, o->length, (size_t)o->ntendon);
	to_float(tendon->velocity, o->velocity, (size_t)o->ntendon);
	free(o);
	return compat_done(HXD_OK);
}

mjtResult
mj_get_actuator(mjActuator *actuator)
{
	hxd_conn *c;
	hxd_actuator *o = NULL;

	COMPAT_GET(c, hxd_get_actuator(c, &o));
	if (!fits("nu", o->nu)) {
		free(o);
		return (mjtResult)compat_last();
	}
	actuator->nu = o->nu;
	actuator->time = (float)o->time;
	to_float(actuator->length, o->length, (size_t)o->nu);
	to_float(actuator->velocity, o->velocity, (size_t)o->nu);
	to_float(actuator->force, o->force, (size_t)o->nu);
	free(o);
	return compat_done(HXD_OK);
}

mjtResult
mj_get_force(mjForce *force)
{
	hxd_conn *c;
	hxd_force *o = NULL;
	size_t n;

	COMPAT_GET(c, hxd_get_force(c, &o));
	if (!fits("nv", o->nv)) {
		free(o);
		return (mjtResult)compat_last();
	}
	n = (size_t)o->nv;
	force->nv = o->nv;
	force->time = (float)o->time;
	to_float(force->applied, o->applied, n);
	to_float(force->passive, o->passive, n);
	to_float(force->bias, o->bias, n);
	to_float(force->actuator, o->actuator, n);
	to_float(force->constraint, o->constraint, n);
	to_float(force->nonconstraint, o->nonconstraint, n);
	free(o);
	return compat_done(HXD_OK);
}

mjtResult
mj_get_contact(mjContact *contact)
{
	hxd_conn *c;
	hxd_contacts *o = NULL;
	size_t n;

	COMPAT_GET(c, hxd_get_contact(c, &o));
	if (!fits("ncon", o->ncon)) {
		free(o);
		return (mjtResult)compat_last();
	}
	n = (size_t)o->ncon;
	contact->ncon = o->ncon;
	contact->time = (float)o->time;
	to_float(contact->dist, o->dist, n);
	to_float(&contact->pos[0][0], o->pos, 3 * n);
	to_float(&contact->frame[0][0], o->frame, 9 * n);
	to_float(&contact->force[0][0], o->force, 3 * n);
	memcpy(contact->geom1, o->geom1, n * sizeof(int));
	memcpy(contact->geom2, o->geom2, n * sizeof(int));
	free(o);
	return compat_done(HXD_OK);
}

mjtResult
mj_set_geomsize(int geomid, const float *geomsize)
{
	double size[3];
	hxd_conn *c;

	if ((c = compat_connection()) == NULL)
		return (mjtResult)compat_last();
	if (geomsize == NULL)
		return compat_fail(mjCOM_BADSIZE, "geomsize is NULL");
	to_double(size, geomsize, 3);
	return compat_done(hxd_set_geomsize(c, geomid, size));
}

/* Parse an object type string, failing with BADTYPE on an unknown one. */
static int
type_in(const char *type)
{
	int t = hxd_obj_parse(type);

	if (t == HXD_OBJ_UNKNOWN)
		compat_fail(mjCOM_BADTYPE, "unknown object type \"%s\"",
		    type != NULL ? type : "(null)");
	return t;
}

mjtResult
mj_get_rgba(const char *type, int id, float *rgba)
{
	double v[4];
	hxd_conn *c;
	int t, rc;

	if ((c = compat_connection()) == NULL)
		return (mjtResult)compat_last();
	if ((t = type_in(type)) == HXD_OBJ_UNKNOWN)
		return (mjtResult)compat_last();
	rc = hxd_get_rgba(c, t, id, v);
	if (rc == HXD_OK)
		to_float(rgba, v, 4);
	return compat_done(rc);
}

mjtResult
mj_set_rgba(const char *type, int id, const float *rgba)
{
	double v[4];
	hxd_conn *c;
	int t;

	if ((c = compat_connection()) == NULL)
		return (mjtResult)compat_last();
	if ((t = type_in(type)) == HXD_OBJ_UNKNOWN)
		return (mjtResult)compat_last();
	to_double(v, rgba, 4);
	return compat_done(hxd_set_rgba(c, t, id, v));
}

mjtResult
mj_step(void)
{
	hxd_conn *c;

	if ((c = compat_connection()) == NULL)
		return (mjtResult)compat_last();
	return compat_done(hxd_step(c, 1, NULL));
}

mjtResult
mj_update(const mjControl *control, mjSensor *sensor)
{
	double buf[mjMAXSZ];
	hxd_control in;
	hxd_sensor *o = NULL;
	hxd_conn *c;
	int rc;

	if ((c = compat_connection()) == NULL)
		return (mjtResult)compat_last();
	if (control_in(control, &in, buf) != 0)
		return (mjtResult)compat_last();
	rc = hxd_update(c, &in, &o);
	if (rc != HXD_OK)
		return compat_done(rc);
	return sensor_out(o, sensor);
}

mjtResult
mj_reset(int keyframe)
{
	hxd_conn *c;

	if ((c = compat_connection()) == NULL)
		return (mjtResult)compat_last();
	/* HAPTIX's Reset keeps model settings; only Re-Load restores them. */
	return compat_done(hxd_reset_keep(c, keyframe, NULL));
}

mjtResult
mj_equality(int eqid, int state)
{
	hxd_conn *c;

	if ((c = compat_connection()) == NULL)
		return (mjtResult)compat_last();
	return compat_done(hxd_equality(c, eqid, state));
}

mjtResult
mj_message(const char *message)
{
	hxd_conn *c;

	if ((c = compat_connection()) == NULL)
		return (mjtResult)compat_last();
	return compat_done(hxd_message(c, message));
}

int
mj_name2id(const char *type, const char *name)
{
	hxd_conn *c;
	int t, id, rc;

	if ((c = compat_connection()) == NULL)
		return -2;
	if ((t = type_in(type)) == HXD_OBJ_UNKNOWN)
		return -2;
	rc = hxd_name2id(c, t, name, &id);
	compat_done(rc);
	return rc == HXD_OK ? id : -2;
}

const char *
mj_id2name(const char *type, int id)
{
	hxd_conn *c;
	int t, rc;

	if ((c = compat_connection()) == NULL)
		return NULL;
	if ((t = type_in(type)) == HXD_OBJ_UNKNOWN)
		return NULL;
	rc = hxd_id2name(c, t, id, native_name, sizeof(native_name));
	compat_done(rc);
	return rc == HXD_OK ? native_name : NULL;
}
