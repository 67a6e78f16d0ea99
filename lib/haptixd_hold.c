/*
 * Joints held on a path (haptixd.h): hold, release and list, each
 * answered with every hold on the server, in one malloc'd block.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "request.h"

/* The Holds answer as one block the caller frees, into *out. */
static int
hold_decode(hxd_conn *c, const Haptix__V1__Holds *w, hxd_holds **out)
{
	hxd_holds *h;
	size_t i, off = 0;

	h = calloc(1, sizeof(*h) + (w->n_holds + 1) * sizeof(hxd_hold));
	if (h == NULL)
		return conn_fail(c, HXD_CANNOTRECV, "out of memory");
	h->holds = (hxd_hold *)(h + 1);
	h->n = (int)w->n_holds;
	h->time = w->time;
	for (i = 0; i < w->n_holds; i++) {
		snprintf(h->holds[i].joint, sizeof(h->holds[i].joint), "%s",
		    w->holds[i]->joint);
		h->holds[i].target = w->holds[i]->target;
		h->holds[i].qpos = w->holds[i]->qpos;
		h->holds[i].force = w->holds[i]->force;
		h->holds[i].holder = w->holds[i]->holder;
		snprintf(h->holds[i].holder_name,
		    sizeof(h->holds[i].holder_name), "%s",
		    w->holds[i]->holder_name);
	}
	for (i = 0; i < w->n_dropped && off < sizeof(h->dropped); i++)
		off += (size_t)snprintf(h->dropped + off,
		    sizeof(h->dropped) - off, "%s\n", w->dropped[i]);
	*out = h;
	return HXD_OK;
}

/* Run a hold or release and decode its answer into *out (may be NULL). */
static int
hold_call(hxd_conn *c, Haptix__V1__Request__CallCase call, const void *msg,
    hxd_holds **out)
{
	Response *r;
	int rc;

	if (out != NULL)
		*out = NULL;
	rc = request_call(
	    c, call, msg, HAPTIX__V1__RESPONSE__PAYLOAD_HOLDS, &r);
	if (rc != HXD_OK)
		return rc;
	rc = out != NULL ? hold_decode(c, r->holds, out) : HXD_OK;
	conn_free_response(r);
	return rc == HXD_OK ? conn_ok(c) : rc;
}

int
hxd_hold_joints(hxd_conn *c, const char *const *joints, const double *values,
    int n, hxd_holds **out)
{
	Haptix__V1__HoldJoints m = HAPTIX__V1__HOLD_JOINTS__INIT;

	if (n < 0 || (n > 0 && (joints == NULL || values == NULL)))
		return conn_fail(
		    c, HXD_BADSIZE, "%d joints without names or values", n);
	m.n_joints = m.n_values = (size_t)n;
	m.joints = (char **)joints;
	m.values = (double *)values;
	return hold_call(c, HAPTIX__V1__REQUEST__CALL_HOLD, &m, out);
}

int
hxd_release_joints(
    hxd_conn *c, const char *const *joints, int n, hxd_holds **out)
{
	Haptix__V1__ReleaseJoints m = HAPTIX__V1__RELEASE_JOINTS__INIT;

	if (n < 0 || (n > 0 && joints == NULL))
		return conn_fail(c, HXD_BADSIZE, "%d joints without names", n);
	m.n_joints = (size_t)n;
	m.joints = (char **)joints;
	return hold_call(c, HAPTIX__V1__REQUEST__CALL_RELEASE, &m, out);
}

int
hxd_get_holds(hxd_conn *c, hxd_holds **out)
{
	return hxd_hold_joints(c, NULL, NULL, 0, out);
}
