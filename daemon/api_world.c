/*
 * The World API's calls (Gazebo HAPTIX's haptix_sim.h, docs/compat.md):
 * forces that the daemon keeps applying (gravity off per body, timed
 * wrenches), the view camera the viewers share, and the collide mode of
 * a body's subtree.  The behaviour is gazebo_world.c's; here the arguments are
 * checked and the answers built.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "api.h"
#include "arena.h"
#include "daemon.h"
#include "sim.h"
#include "sim_world.h"
#include "gazebo_world.h"

/* A body by id: not the world, which nothing moves. */
static int
api_world_body_check(struct call *c, int id)
{
	int nbody = sim_sizes(c->d->sim)->nbody;

	if (id < 0 || id >= nbody)
		return call_fail(c, RESULT_BADINDEX,
		    "body id %d is out of range (the model has %d)", id, nbody);
	if (id == 0)
		return call_fail(c, RESULT_BADINDEX,
		    "the world body takes no forces and has no collide mode");
	return 0;
}

int
api_world_force_writes(const struct call *c)
{
	const Haptix__V1__WorldForce *w = c->req->world_force;

	return w->body >= 0 || w->clear_all;
}

int
api_world_force(struct call *c)
{
	const Haptix__V1__WorldForce *w = c->req->world_force;
	Haptix__V1__WorldForces *out;
	int gravity[WORLD_BODIES_MAX];
	double f[6];
	int rc, n, wrench = w->n_force != 0 || w->n_torque != 0;

	if (w->clear_all)
		gazebo_world_clear_wrenches(c->d);
	if (w->body >= 0) {
		if ((rc = api_world_body_check(c, w->body)))
			return rc;
		if (wrench &&
		    ((rc = check_len(c, "force", w->n_force, 3)) ||
			(rc = check_len(c, "torque", w->n_torque, 3)) ||
			(rc = check_finite(c, "force", w->force, 3)) ||
			(rc = check_finite(c, "torque", w->torque, 3))))
			return rc;
		if (!isfinite(w->duration) || w->duration < 0)
			return call_fail(c, RESULT_BADVALUE,
			    "duration %g is not a time >= 0 (0: until a reset)",
			    w->duration);
		if (w->gravity < 0 || w->gravity > 2)
			return call_fail(c, RESULT_BADVALUE,
			    "gravity %d is not 0 (leave), 1 (on) or 2 (off)",
			    w->gravity);
		if (wrench) {
			memcpy(f, w->force, 3 * sizeof(double));
			memcpy(f + 3, w->torque, 3 * sizeof(double));
		}
		if (gazebo_world_force(c->d, w->body, wrench ? f : NULL,
			w->duration, w->gravity, c->err, sizeof(c->err)) < 0)
			return RESULT_DENIED;
	}
	out = NEW(c, Haptix__V1__WorldForces, haptix__v1__world_forces__init);
	n = gazebo_world_gravity_off(c->d, gravity, WORLD_BODIES_MAX);
	out->n_gravity_off = n;
	out->gravity_off = arena_alloc(c->arena, n * sizeof(int32_t) + 1);
	memcpy(out->gravity_off, gravity, n * sizeof(int32_t));
	out->wrenches = gazebo_world_wrenches(c->d);
	PAYLOAD(c, world_forces, WORLD_FORCES, out);
	return RESULT_OK;
}

int
api_camera_writes(const struct call *c)
{
	return c->req->camera->set;
}

int
api_camera(struct call *c)
{
	const Haptix__V1__Camera *w = c->req->camera;
	Haptix__V1__Camera *out;
	double pos[3], quat[4], norm;
	int rc, is_default;

	if (w->set) {
		if ((rc = check_len(c, "pos", w->n_pos, 3)) ||
		    (rc = check_len(c, "quat", w->n_quat, 4)) ||
		    (rc = check_finite(c, "pos", w->pos, 3)) ||
		    (rc = check_finite(c, "quat", w->quat, 4)) ||
		    (rc = check_quats(c, "quat", w->quat, 1)))
			return rc;
		norm = sqrt(w->quat[0] * w->quat[0] + w->quat[1] * w->quat[1] +
		    w->quat[2] * w->quat[2] + w->quat[3] * w->quat[3]);
		for (int i = 0; i < 4; i++)
			quat[i] = w->quat[i] / norm;
		gazebo_world_camera_set(c->d, w->pos, quat);
	}
	gazebo_world_camera(c->d, pos, quat, &is_default);
	out = NEW(c, Haptix__V1__Camera, haptix__v1__camera__init);
	out->n_pos = 3;
	out->pos = call_copy(c, pos, 3);
	out->n_quat = 4;
	out->quat = call_copy(c, quat, 4);
	out->is_default = is_default;
	PAYLOAD(c, camera, CAMERA, out);
	return RESULT_OK;
}

int
api_collide_mode_writes(const struct call *c)
{
	return c->req->collide_mode->mode >= 0;
}

int
api_collide_mode(struct call *c)
{
	const Haptix__V1__CollideMode *w = c->req->collide_mode;
	Haptix__V1__CollideMode *out;
	int rc;

	if ((rc = api_world_body_check(c, w->body)))
		return rc;
	if (w->mode > SIM_COLLIDE || w->mode < -1)
		return call_fail(c, RESULT_BADVALUE,
		    "collide mode %d is not -1 (read), 0 (none), 1 (detection "
		    "only) or 2 (collide)",
		    w->mode);
	if (w->mode >= 0 &&
	    gazebo_world_collide_set(
		c->d, w->body, w->mode, c->err, sizeof(c->err)) < 0)
		return RESULT_DENIED;
	out = NEW(c, Haptix__V1__CollideMode, haptix__v1__collide_mode__init);
	out->body = w->body;
	out->mode = sim_collide_get(c->d->sim, w->body);
	PAYLOAD(c, collide_mode, COLLIDE_MODE, out);
	return RESULT_OK;
}
