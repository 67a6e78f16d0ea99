/*
 * The extension API's writes of the simulation's state (haptixd.h):
 * qpos, qvel and act, the controls, applied forces, one body, mocap
 * bodies, one joint by name; the public structs encoded by their tables.
 */
#include "config.h"

#include "request.h"
#include "tables.h"

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

int
hxd_set_state(hxd_conn *c, const hxd_state *st)
{
	Haptix__V1__State w = HAPTIX__V1__STATE__INIT;

	return REQUEST_SET(c, SET_STATE, state_fields, st, &w);
}

int
request_control(hxd_conn *c, const hxd_control *in, Haptix__V1__Control *w)
{
	return decode_encode(c, control_fields, NELEM(control_fields), in, w);
}

int
hxd_set_control(hxd_conn *c, const hxd_control *in)
{
	Haptix__V1__Control w = HAPTIX__V1__CONTROL__INIT;

	return REQUEST_SET(c, SET_CONTROL, control_fields, in, &w);
}

int
hxd_set_applied(hxd_conn *c, const hxd_applied *in)
{
	Haptix__V1__Applied w = HAPTIX__V1__APPLIED__INIT;

	return REQUEST_SET(c, SET_APPLIED, applied_fields, in, &w);
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

int
hxd_set_mocap(hxd_conn *c, const hxd_mocap *in)
{
	Haptix__V1__Mocap w = HAPTIX__V1__MOCAP__INIT;

	return REQUEST_SET(c, SET_MOCAP, mocap_fields, in, &w);
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
