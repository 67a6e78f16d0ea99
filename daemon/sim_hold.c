/*
 * Joints held on a path (hold.c): a joint equality on one joint holds it
 * where its offset says, and MuJoCo computes the force that takes.  The
 * hold writes the target into the equality's data before each step and
 * reads the force back from the equality's constraint rows.
 */
#include "config.h"

#include "sim_hold.h"
#include "sim_internal.h"

int
sim_equality_id(const struct sim *s, const char *name)
{
	if (s->m == NULL)
		return -1;
	return mj_name2id(s->m, mjOBJ_EQUALITY, name);
}

int
sim_hold_set(struct sim *s, int eq, double target)
{
	mjModel *m = s->m;
	mjtNum *data, offset;
	int j;

	if (m == NULL || eq < 0 || eq >= m->neq ||
	    m->eq_type[eq] != mjEQ_JOINT || m->eq_obj2id[eq] >= 0)
		return -1;
	/* MuJoCo holds qpos - qpos0 at polycoef[0], not qpos itself. */
	j = m->eq_obj1id[eq];
	offset = target - m->qpos0[m->jnt_qposadr[j]];
	data = m->eq_data + mjNEQDATA * eq;
	if (data[0] != offset) {
		sim_undo_note(s, data, sizeof(mjtNum), 0);
		data[0] = offset;
		s->counters.model_edits++;
	}
	return 0;
}

double
sim_hold_position(const struct sim *s, int eq)
{
	const mjModel *m = s->m;

	if (m == NULL || eq < 0 || eq >= m->neq || m->eq_type[eq] != mjEQ_JOINT)
		return 0;
	return s->d->qpos[m->jnt_qposadr[m->eq_obj1id[eq]]];
}

double
sim_hold_force(const struct sim *s, int eq)
{
	const mjData *d = s->d;
	double f = 0;
	int i;

	if (s->m == NULL || eq < 0)
		return 0;
	for (i = 0; i < d->nefc; i++)
		if (d->efc_type[i] == mjCNSTR_EQUALITY && d->efc_id[i] == eq)
			f += d->efc_force[i];
	return f;
}
