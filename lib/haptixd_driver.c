/*
 * The input drivers' calls: tracking poses, connecting, perturbations;
 * and a mocap body's smooth move.
 */
#include "config.h"

#include <string.h>

#include "conn.h"
#include "request.h"
#include "haptixd.h"

/* Make a call answered with a Tracking; copy it into out (may be NULL). */
static int
driver_tracking_call(hxd_conn *c, Haptix__V1__Request__CallCase call,
    const void *arg, hxd_tracking *out)
{
	Response *r;
	int rc;

	rc = request_call(
	    c, call, arg, HAPTIX__V1__RESPONSE__PAYLOAD_TRACKING, &r);
	if (rc != HXD_OK)
		return rc;
	if (out != NULL)
		conn_tracking_from_wire(out, r->tracking);
	conn_free_response(r);
	return HXD_OK;
}

int
hxd_mocap_pose(hxd_conn *c, int mocap, const char *body, const double pos[3],
    const double quat[4], long long sample_time_us, double source_time,
    hxd_tracking *out)
{
	Haptix__V1__MocapPose w = HAPTIX__V1__MOCAP_POSE__INIT;

	w.mocap = mocap;
	w.body = (char *)(body != NULL ? body : "");
	w.n_pos = 3;
	w.pos = (double *)pos;
	w.n_quat = 4;
	w.quat = (double *)quat;
	w.sample_time_us = sample_time_us;
	w.source_time = source_time;
	return driver_tracking_call(
	    c, HAPTIX__V1__REQUEST__CALL_MOCAP_POSE, &w, out);
}

int
hxd_mocap_connect(
    hxd_conn *c, int mocap, const char *body, int connect, hxd_tracking *out)
{
	Haptix__V1__MocapConnect w = HAPTIX__V1__MOCAP_CONNECT__INIT;

	w.mocap = mocap;
	w.body = (char *)(body != NULL ? body : "");
	w.connect = connect != 0;
	return driver_tracking_call(
	    c, HAPTIX__V1__REQUEST__CALL_MOCAP_CONNECT, &w, out);
}

int
hxd_perturb(hxd_conn *c, int body, const char *name, const double force[3],
    const double torque[3], hxd_perturbation *out)
{
	Haptix__V1__Perturb w = HAPTIX__V1__PERTURB__INIT;
	Response *r;
	int rc;

	w.body = body;
	w.name = (char *)(name != NULL ? name : "");
	w.n_force = 3;
	w.force = (double *)force;
	w.n_torque = 3;
	w.torque = (double *)torque;
	rc = request_call(c, HAPTIX__V1__REQUEST__CALL_PERTURB, &w,
	    HAPTIX__V1__RESPONSE__PAYLOAD_PERTURBATION, &r);
	if (rc != HXD_OK)
		return rc;
	if (out != NULL)
		conn_perturbation_from_wire(out, r->perturbation);
	conn_free_response(r);
	return HXD_OK;
}

int
hxd_mocap_move(hxd_conn *c, int mocap, const char *body, const double pos[3],
    const double quat[4], double seconds)
{
	Haptix__V1__MocapMove w = HAPTIX__V1__MOCAP_MOVE__INIT;

	w.mocap = mocap;
	w.body = (char *)(body != NULL ? body : "");
	w.n_pos = 3;
	w.pos = (double *)pos;
	w.n_quat = quat != NULL ? 4 : 0;
	w.quat = (double *)quat;
	w.seconds = seconds;
	return request_call(
	    c, HAPTIX__V1__REQUEST__CALL_MOCAP_MOVE, &w, 0, NULL);
}
