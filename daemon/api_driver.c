/*
 * The input drivers' calls: a tracked body's physical pose, connecting
 * and disconnecting the tracking, a driver's force on a body, and a
 * mocap body's smooth move.  The behaviour is tracking.c's, perturb.c's
 * and motion.c's; here the arguments are checked and the answers built.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "api.h"
#include "arena.h"
#include "daemon.h"
#include "motion.h"
#include "perturb.h"
#include "session.h"
#include "sim.h"
#include "sim_access.h"
#include "sim_state.h"
#include "protomsg.h"
#include "tracking.h"

static int driver_body(struct call *, int, const char *, int *);
static int driver_mocap(struct call *, int, const char *, int *);
static void driver_tracking(struct call *, int);

/* A body by name, or else by id; the world is refused. */
static int
driver_body(struct call *c, int id, const char *name, int *out)
{
	int nbody = sim_sizes(c->d->sim)->nbody;

	if (name != NULL && name[0] != '\0') {
		id = sim_name2id(
		    c->d->sim, HAPTIX__V1__OBJ_TYPE__OBJ_BODY, name);
		if (id < 0)
			return call_fail(c, RESULT_BADINDEX,
			    "the model has no body named '%s'", name);
	} else if (id < 0 || id >= nbody) {
		return call_fail(c, RESULT_BADINDEX,
		    "body id %d is out of range (the model has %d)", id, nbody);
	}
	if (id == 0)
		return call_fail(
		    c, RESULT_BADINDEX, "the world body cannot be moved");
	*out = id;
	return 0;
}

/* A mocap body by name, or else by its mocap index. */
static int
driver_mocap(struct call *c, int index, const char *name, int *out)
{
	int nmocap = sim_sizes(c->d->sim)->nmocap;
	int body;

	if (nmocap == 0)
		return call_fail(
		    c, RESULT_BADINDEX, "the model has no mocap body to track");
	if (name != NULL && name[0] != '\0') {
		body = sim_name2id(
		    c->d->sim, HAPTIX__V1__OBJ_TYPE__OBJ_BODY, name);
		if (body < 0)
			return call_fail(c, RESULT_BADINDEX,
			    "the model has no body named '%s'", name);
		if ((index = sim_body_mocap(c->d->sim, body)) < 0)
			return call_fail(c, RESULT_BADINDEX,
			    "body '%s' is not a mocap body", name);
	} else if (index < 0 || index >= nmocap) {
		return call_fail(c, RESULT_BADINDEX,
		    "mocap index %d is out of range (the model has %d)", index,
		    nmocap);
	}
	*out = index;
	return 0;
}

/* Answer with the tracking of mocap body i. */
static void
driver_tracking(struct call *c, int i)
{
	struct tracking_info t;

	tracking_get(c->d, i, &t);
	PAYLOAD(c, tracking, TRACKING, protomsg_tracking(c->d, c->arena, &t));
}

int
api_mocap_pose(struct call *c)
{
	const Haptix__V1__MocapPose *w = c->req->mocap_pose;
	double quat[4], norm = 0;
	int rc, i = 0, k;

	if ((rc = driver_mocap(c, w->mocap, w->body, &i)) ||
	    (rc = check_len(c, "pos", w->n_pos, 3)) ||
	    (rc = check_len(c, "quat", w->n_quat, 4)) ||
	    (rc = check_finite(c, "pos", w->pos, 3)) ||
	    (rc = check_finite(c, "quat", w->quat, 4)) ||
	    (rc = check_quats(c, "quat", w->quat, 1)) ||
	    (rc = check_finite(c, "source_time", &w->source_time, 1)))
		return rc;
	if (w->sample_time_us < 0)
		return call_fail(c, RESULT_BADVALUE,
		    "sample_time_us %lld is before 1970",
		    (long long)w->sample_time_us);
	for (k = 0; k < 4; k++)
		norm += w->quat[k] * w->quat[k];
	norm = sqrt(norm);
	for (k = 0; k < 4; k++)
		quat[k] = w->quat[k] / norm;
	tracking_pose(
	    c->d, c->s, i, w->pos, quat, w->sample_time_us, w->source_time);
	driver_tracking(c, i);
	return RESULT_OK;
}

int
api_mocap_connect(struct call *c)
{
	const Haptix__V1__MocapConnect *w = c->req->mocap_connect;
	int rc, i = 0;

	if ((rc = driver_mocap(c, w->mocap, w->body, &i)))
		return rc;
	tracking_connect(c->d, i, w->connect, c->s->id,
	    w->connect ? "connect" : "disconnect");
	driver_tracking(c, i);
	return RESULT_OK;
}

int
api_mocap_move(struct call *c)
{
	const Haptix__V1__MocapMove *w = c->req->mocap_move;
	int rc, i = 0;

	if ((rc = driver_mocap(c, w->mocap, w->body, &i)) ||
	    (rc = check_len(c, "pos", w->n_pos, 3)) ||
	    (rc = check_finite(c, "pos", w->pos, 3)) ||
	    (rc = check_optional(c, "quat", w->quat, w->n_quat, 4)) ||
	    (w->n_quat != 0 && (rc = check_quats(c, "quat", w->quat, 1))))
		return rc;
	if (!isfinite(w->seconds) || w->seconds < 0 ||
	    w->seconds > MOTION_MAX_SECONDS)
		return call_fail(c, RESULT_BADVALUE,
		    "seconds %g is not between 0 and %d", w->seconds,
		    MOTION_MAX_SECONDS);
	motion_start(
	    c->d, i, w->pos, w->n_quat != 0 ? w->quat : NULL, w->seconds);
	return RESULT_OK;
}

int
api_perturb(struct call *c)
{
	const Haptix__V1__Perturb *w = c->req->perturb;
	struct perturb_info p;
	double f[6];
	int rc, body = 0;

	if ((rc = driver_body(c, w->body, w->name, &body)) ||
	    (rc = check_len(c, "force", w->n_force, 3)) ||
	    (rc = check_len(c, "torque", w->n_torque, 3)) ||
	    (rc = check_finite(c, "force", w->force, 3)) ||
	    (rc = check_finite(c, "torque", w->torque, 3)))
		return rc;
	memcpy(f, w->force, 3 * sizeof(double));
	memcpy(f + 3, w->torque, 3 * sizeof(double));
	if (perturb_set(c->d, c->s, body, f, c->err, sizeof(c->err)) < 0)
		return RESULT_DENIED;
	/* The perturbation as it now stands; none after a release. */
	perturb_find(c->d, body, &p);
	PAYLOAD(c, perturbation, PERTURBATION,
	    protomsg_perturbation(c->d, c->arena, &p));
	return RESULT_OK;
}
