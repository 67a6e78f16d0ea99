/*
 * The World API's server calls (haptixd.h): forces the server keeps
 * applying, the view camera the viewers share, collide modes.  The
 * hxs_ calls of haptix/comm/haptix_sim.h (haptix_sim.c) are built on
 * them and on the other extension calls.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "haptixd.h"
#include "request.h"

int
hxd_world_force(hxd_conn *c, const hxd_wrench *in, int **gravity_off,
    int *ngravity_off, int *wrenches)
{
	Haptix__V1__WorldForce w = HAPTIX__V1__WORLD_FORCE__INIT;
	Response *r;
	int rc, n;

	if (in != NULL) {
		w.body = in->body;
		if (in->apply) {
			w.n_force = 3;
			w.force = (double *)in->force;
			w.n_torque = 3;
			w.torque = (double *)in->torque;
		}
		w.duration = in->duration;
		w.gravity = in->gravity;
		w.clear_all = in->clear_all;
	} else
		w.body = -1;
	rc = request_call(c, HAPTIX__V1__REQUEST__CALL_WORLD_FORCE, &w,
	    HAPTIX__V1__RESPONSE__PAYLOAD_WORLD_FORCES, &r);
	if (rc != HXD_OK)
		return rc;
	n = (int)r->world_forces->n_gravity_off;
	if (wrenches != NULL)
		*wrenches = r->world_forces->wrenches;
	if (ngravity_off != NULL)
		*ngravity_off = n;
	if (gravity_off != NULL) {
		*gravity_off = malloc((size_t)n * sizeof(int) + 1);
		if (*gravity_off == NULL) {
			conn_free_response(r);
			return conn_fail(c, HXD_CANNOTRECV, "out of memory");
		}
		for (int i = 0; i < n; i++)
			(*gravity_off)[i] = r->world_forces->gravity_off[i];
	}
	conn_free_response(r);
	return HXD_OK;
}

/* Run the camera call (set: write pos and quat) and read the answer. */
static int
world_camera(hxd_conn *c, int set, const double pos[3], const double quat[4],
    double pos_out[3], double quat_out[4], int *is_default)
{
	Haptix__V1__Camera w = HAPTIX__V1__CAMERA__INIT;
	Response *r;
	int rc;

	if (set) {
		w.set = 1;
		w.n_pos = 3;
		w.pos = (double *)pos;
		w.n_quat = 4;
		w.quat = (double *)quat;
	}
	rc = request_call(c, HAPTIX__V1__REQUEST__CALL_CAMERA, &w,
	    HAPTIX__V1__RESPONSE__PAYLOAD_CAMERA, &r);
	if (rc != HXD_OK)
		return rc;
	if (r->camera->n_pos != 3 || r->camera->n_quat != 4) {
		rc = conn_fail(c, HXD_BADPROTOCOL,
		    "the camera came with %zu and %zu numbers, not 3 and 4",
		    r->camera->n_pos, r->camera->n_quat);
		conn_free_response(r);
		return rc;
	}
	if (pos_out != NULL)
		memcpy(pos_out, r->camera->pos, 3 * sizeof(double));
	if (quat_out != NULL)
		memcpy(quat_out, r->camera->quat, 4 * sizeof(double));
	if (is_default != NULL)
		*is_default = r->camera->is_default;
	conn_free_response(r);
	return HXD_OK;
}

int
hxd_get_camera(hxd_conn *c, double pos[3], double quat[4], int *is_default)
{
	return world_camera(c, 0, NULL, NULL, pos, quat, is_default);
}

int
hxd_set_camera(hxd_conn *c, const double pos[3], const double quat[4])
{
	if (pos == NULL || quat == NULL)
		return conn_fail(c, HXD_BADVALUE, "hxd_set_camera: %s is NULL",
		    pos == NULL ? "pos" : "quat");
	return world_camera(c, 1, pos, quat, NULL, NULL, NULL);
}

int
hxd_collide_mode(hxd_conn *c, int body, int mode, int *out)
{
	Haptix__V1__CollideMode w = HAPTIX__V1__COLLIDE_MODE__INIT;
	Response *r;
	int rc;

	w.body = body;
	w.mode = mode;
	rc = request_call(c, HAPTIX__V1__REQUEST__CALL_COLLIDE_MODE, &w,
	    HAPTIX__V1__RESPONSE__PAYLOAD_COLLIDE_MODE, &r);
	if (rc != HXD_OK)
		return rc;
	if (out != NULL)
		*out = r->collide_mode->mode;
	conn_free_response(r);
	return HXD_OK;
}
