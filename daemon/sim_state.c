/*
 * The state as the calls write and read it: see sim_state.h.  Above the
 * servo map (sim_robot.c) and the pristine copy (sim_pristine.c), below
 * the keys and the rollback, which reset through here.
 */
#include "config.h"

#include <string.h>

#include "sim_internal.h"
#include "sim_state.h"

void
sim_reset(struct sim *s, int key)
{
	if (key >= 0)
		mj_resetDataKeyframe(s->m, s->d, key);
	else
		mj_resetData(s->m, s->d);
	/* Time starts again, and so does the count of steps. */
	s->counters.steps = 0;
	mj_forward(s->m, s->d);
	sim_robot_reset(s);
}

int
sim_params_restore(struct sim *s, char *names, size_t len)
{
	int n = sim_pristine_restore(s, names, len);

	sim_robot_params_restored(s);
	return n;
}

void
sim_forward(struct sim *s)
{
	mj_forward(s->m, s->d);
}

void
sim_set_state(
    struct sim *s, const double *qpos, const double *qvel, const double *act)
{
	mju_copy(s->d->qpos, qpos, s->m->nq);
	mju_copy(s->d->qvel, qvel, s->m->nv);
	mju_copy(s->d->act, act, s->m->na);
	mj_forward(s->m, s->d);
}

void
sim_set_ctrl(struct sim *s, const double *ctrl)
{
	mju_copy(s->d->ctrl, ctrl, s->m->nu);
	sim_robot_reset(s);
}

void
sim_set_applied(struct sim *s, const double *qfrc, const double *xfrc)
{
	mju_copy(s->d->qfrc_applied, qfrc, s->m->nv);
	mju_copy(s->d->xfrc_applied, xfrc, 6 * s->m->nbody);
}

void
sim_mocap_set_one(
    struct sim *s, int i, const double pos[3], const double quat[4])
{
	mju_copy3(s->d->mocap_pos + 3 * i, pos);
	mju_copy4(s->d->mocap_quat + 4 * i, quat);
}

void
sim_xfrc_set_one(struct sim *s, int body, const double f6[6])
{
	mju_copy(s->d->xfrc_applied + 6 * body, f6, 6);
}

int
sim_mocap_body(const struct sim *s, int i)
{
	int b;

	for (b = 0; b < s->m->nbody; b++)
		if (s->m->body_mocapid[b] == i)
			return b;
	return -1;
}

int
sim_body_mocap(const struct sim *s, int body)
{
	return s->m->body_mocapid[body];
}

void
sim_set_mocap(struct sim *s, const double *pos, const double *quat)
{
	int i;

	mju_copy(s->d->mocap_pos, pos, 3 * s->m->nmocap);
	for (i = 0; i < s->m->nmocap; i++) {
		mju_copy4(s->d->mocap_quat + 4 * i, quat + 4 * i);
		mju_normalize4(s->d->mocap_quat + 4 * i);
	}
	mj_forward(s->m, s->d);
}

void
sim_equality(struct sim *s, int id, int active)
{
	sim_undo_note(s, s->m->eq_active + id, sizeof(mjtByte), 0);
	s->m->eq_active[id] = (mjtByte)(active != 0);
	s->counters.model_edits++;
}

void
sim_energy(struct sim *s, double energy[2])
{
	int flags = s->m->opt.enableflags;

	/* MuJoCo computes energy only when the model asks for it. */
	s->m->opt.enableflags |= mjENBL_ENERGY;
	mj_energyPos(s->m, s->d);
	mj_energyVel(s->m, s->d);
	s->m->opt.enableflags = flags;
	energy[0] = s->d->energy[0];
	energy[1] = s->d->energy[1];
}

void
sim_constraints(const struct sim *s, int *nefc, int *ncon)
{
	*nefc = s->d->nefc;
	*ncon = s->d->ncon;
}

void
sim_quat_mul(const double a[4], const double b[4], double out[4])
{
	mju_mulQuat(out, a, b);
}
