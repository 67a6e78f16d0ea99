/*
 * Writing the simulation's state: qpos, qvel and act, the controls,
 * applied forces, one body, mocap bodies, one joint by name.  Every
 * size, index and number from the client is checked first.
 */
#include "config.h"

#include <string.h>

#include "api.h"
#include "sim_access.h"
#include "sim_key.h"
#include "sim_state.h"

int
api_set_state(struct call *c)
{
	const Haptix__V1__State *st = c->req->set_state;
	const struct sim_sizes *z = sizes(c);
	int rc;

	if ((rc = check_count(c, "nq", st->nq, z->nq)) ||
	    (rc = check_count(c, "nv", st->nv, z->nv)) ||
	    (rc = check_count(c, "na", st->na, z->na)) ||
	    (rc = check_len(c, "qpos", st->n_qpos, (size_t)z->nq)) ||
	    (rc = check_len(c, "qvel", st->n_qvel, (size_t)z->nv)) ||
	    (rc = check_len(c, "act", st->n_act, (size_t)z->na)) ||
	    (rc = check_finite(c, "qpos", st->qpos, st->n_qpos)) ||
	    (rc = check_finite(c, "qvel", st->qvel, st->n_qvel)) ||
	    (rc = check_finite(c, "act", st->act, st->n_act)))
		return rc;
	sim_set_state(c->d->sim, st->qpos, st->qvel, st->act);
	return RESULT_OK;
}

int
api_control_apply(struct call *c, const Haptix__V1__Control *w)
{
	int rc, nu = sizes(c)->nu;

	if ((rc = check_count(c, "nu", w->nu, nu)) ||
	    (rc = check_len(c, "ctrl", w->n_ctrl, (size_t)nu)) ||
	    (rc = check_finite(c, "ctrl", w->ctrl, w->n_ctrl)))
		return rc;
	sim_set_ctrl(c->d->sim, w->ctrl);
	return RESULT_OK;
}

int
api_set_control(struct call *c)
{
	return api_control_apply(c, c->req->set_control);
}

int
api_set_applied(struct call *c)
{
	const Haptix__V1__Applied *w = c->req->set_applied;
	const struct sim_sizes *z = sizes(c);
	int rc;

	if ((rc = check_count(c, "nv", w->nv, z->nv)) ||
	    (rc = check_count(c, "nbody", w->nbody, z->nbody)) ||
	    (rc = check_len(
		 c, "qfrc_applied", w->n_qfrc_applied, (size_t)z->nv)) ||
	    (rc = check_len(
		 c, "xfrc_applied", w->n_xfrc_applied, 6 * (size_t)z->nbody)) ||
	    (rc = check_finite(
		 c, "qfrc_applied", w->qfrc_applied, w->n_qfrc_applied)) ||
	    (rc = check_finite(
		 c, "xfrc_applied", w->xfrc_applied, w->n_xfrc_applied)))
		return rc;
	sim_set_applied(c->d->sim, w->qfrc_applied, w->xfrc_applied);
	return RESULT_OK;
}

int
api_set_onebody(struct call *c)
{
	const Haptix__V1__OneBody *w = c->req->set_onebody;
	struct sim_onebody b, now;
	unsigned fields = 0;
	int rc;

	if ((rc = check_id(c, "body", w->body_id, sizes(c)->nbody)) ||
	    (rc = check_optional(c, "pos", w->pos, w->n_pos, 3)) ||
	    (rc = check_optional(c, "quat", w->quat, w->n_quat, 4)) ||
	    (rc = check_optional(c, "linvel", w->linvel, w->n_linvel, 3)) ||
	    (rc = check_optional(c, "angvel", w->angvel, w->n_angvel, 3)) ||
	    (rc = check_optional(c, "force", w->force, w->n_force, 3)) ||
	    (rc = check_optional(c, "torque", w->torque, w->n_torque, 3)))
		return rc;
	sim_onebody_get(c->d->sim, w->body_id, &now);
	memset(&b, 0, sizeof(b));
#define TAKE(name, flag, n) \
	if (w->n_##name != 0) { \
		memcpy(b.name, w->name, (n) * sizeof(double)); \
		fields |= (flag); \
	}
	/* Pose and velocity apply to floating bodies only, as in HAPTIX. */
	if (now.is_floating) {
		if (w->n_quat != 0 &&
		    (rc = check_quats(c, "quat", w->quat, 1)) != 0)
			return rc;
		TAKE(pos, SIM_BODY_POS, 3);
		TAKE(quat, SIM_BODY_QUAT, 4);
		TAKE(linvel, SIM_BODY_LINVEL, 3);
		TAKE(angvel, SIM_BODY_ANGVEL, 3);
	}
	TAKE(force, SIM_BODY_FORCE, 3);
	TAKE(torque, SIM_BODY_TORQUE, 3);
#undef TAKE
	sim_onebody_set(c->d->sim, w->body_id, &b, fields);
	return RESULT_OK;
}

int
api_set_mocap(struct call *c)
{
	const Haptix__V1__Mocap *w = c->req->set_mocap;
	size_t n = (size_t)sizes(c)->nmocap;
	int rc;

	if ((rc = check_count(c, "nmocap", w->nmocap, (int)n)) ||
	    (rc = check_len(c, "pos", w->n_pos, 3 * n)) ||
	    (rc = check_len(c, "quat", w->n_quat, 4 * n)) ||
	    (rc = check_finite(c, "pos", w->pos, w->n_pos)) ||
	    (rc = check_finite(c, "quat", w->quat, w->n_quat)) ||
	    (rc = check_quats(c, "quat", w->quat, n)))
		return rc;
	sim_set_mocap(c->d->sim, w->pos, w->quat);
	return RESULT_OK;
}

int
api_set_joint(struct call *c)
{
	const Haptix__V1__JointSet *w = c->req->set_joint;
	int rc;

	if ((rc = check_finite(c, "qpos", w->qpos, w->n_qpos)) ||
	    (rc = check_finite(c, "qvel", w->qvel, w->n_qvel)))
		return rc;
	switch (sim_joint_set(c->d->sim, w->name, w->qpos, w->n_qpos, w->qvel,
	    w->n_qvel, c->err, sizeof(c->err))) {
	case -1:
		return RESULT_BADINDEX;
	case -2:
		return RESULT_BADSIZE;
	case -3:
		return RESULT_BADVALUE;
	default:
		return RESULT_OK;
	}
}
