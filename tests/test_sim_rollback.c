/*
 * Unit tests of undoing a step that went bad (daemon/sim_rollback.c),
 * in-process: the test fixture in a real sim, a good state kept, the
 * model and the data written, a step made bad, and everything put back;
 * the verdicts on a bad state in their words; a state that cannot be
 * undone settled.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <criterion/criterion.h>

#include "daemon.h"
#include "inproc.h"
#include "sim.h"
#include "sim_array.h"
#include "sim_internal.h"
#include "sim_rollback.h"
#include "sim_state.h"

TestSuite(sim_rollback, .timeout = 30);

static struct daemon d;

#define NQ 9
#define NV 8

static void
setup(void)
{
	inproc_start(&d, NULL);
	inproc_load(&d, "fixture.xml");
}

Test(sim_rollback, a_bad_step_is_put_back)
{
	static const double qpos[NQ] = { 0.3, -0.2, 0.6, 0, 0.1, 1, 0, 0, 0 };
	static const double qvel[NV] = { 0.5, 0, 0, 0, 0, 0, 0, 0 };
	static const double ctrl[2] = { 0.25, -0.5 };
	static const double damping = 7, mass = 5, huge = 1e300;
	double v[64], kept_qpos[NQ], kept_qvel[NV], kept_time;
	char err[256] = "";
	int i;

	setup();
	sim_set_state(d.sim, qpos, qvel, NULL);
	sim_set_ctrl(d.sim, ctrl);
	for (i = 0; i < 3; i++)
		cr_assert_eq(sim_step(d.sim, err, sizeof(err)), 0, "%s", err);
	sim_good(d.sim);
	cr_assert_eq(sim_good_step(d.sim), 3);
	memcpy(kept_qpos, sim_arrays(d.sim)->qpos, sizeof(kept_qpos));
	memcpy(kept_qvel, sim_arrays(d.sim)->qvel, sizeof(kept_qvel));
	kept_time = sim_time(d.sim);
	/* writes since: the model (one with mj_setConst after), the data */
	inproc_array_set(&d, "dof_damping", 0, 1, &damping);
	inproc_array_set(&d, "body_mass", 3, 1, &mass);
	inproc_array_set(&d, "qvel", 1, 1, &huge);
	inproc_array_set(&d, "ctrl", 0, 1, &damping);
	cr_assert_eq(sim_step(d.sim, err, sizeof(err)), 1, "a bad step");
	cr_assert_str_eq(err, "MuJoCo found qvel bad at index 1");
	cr_assert_eq(sim_rollback(d.sim), 0);
	cr_assert_arr_eq(sim_arrays(d.sim)->qpos, kept_qpos, sizeof(kept_qpos));
	cr_assert_arr_eq(sim_arrays(d.sim)->qvel, kept_qvel, sizeof(kept_qvel));
	cr_assert_eq(sim_time(d.sim), kept_time);
	cr_assert_eq(sim_counters(d.sim)->steps, 3);
	cr_assert_arr_eq(sim_arrays(d.sim)->ctrl, ctrl, sizeof(ctrl));
	inproc_array_get(&d, "dof_damping", v);
	cr_assert_eq(v[0], 0.1);
	inproc_array_get(&d, "body_mass", v);
	cr_assert_eq(v[3], 1);
	inproc_array_get(&d, "body_subtreemass", v);
	cr_assert_eq(v[3], 1, "mj_setConst again after the mass went back");
	/* MuJoCo's count of bad states is not news after the undo */
	cr_assert_eq(sim_step_bad(d.sim, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(sim_step(d.sim, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(sim_counters(d.sim)->steps, 4);
	inproc_stop(&d);
}

Test(sim_rollback, verdicts_on_a_state_that_is_not_finite)
{
	char err[256] = "";

	setup();
	cr_assert_eq(sim_step_bad(d.sim, err, sizeof(err)), 0);
	d.sim->d->qvel[4] = NAN;
	cr_assert_eq(sim_step_bad(d.sim, err, sizeof(err)), 1);
	cr_assert_str_eq(err, "the state is not finite (qvel 4)");
	d.sim->d->qpos[7] = INFINITY;
	cr_assert_eq(sim_step_bad(d.sim, err, sizeof(err)), 1);
	cr_assert_str_eq(err, "the state is not finite (qpos 7)");
	d.sim->d->time = NAN;
	cr_assert_eq(sim_step_bad(d.sim, err, sizeof(err)), 1);
	cr_assert_str_eq(err, "the time is not finite");
	/* what cannot be undone: the reference state */
	sim_settle_unstable(d.sim);
	cr_assert_eq(sim_time(d.sim), 0);
	cr_assert_eq(sim_arrays(d.sim)->qpos[7], 0);
	cr_assert_eq(sim_arrays(d.sim)->qvel[4], 0);
	cr_assert_eq(sim_step_bad(d.sim, err, sizeof(err)), 0);
	inproc_stop(&d);
}

Test(sim_rollback, a_finite_state_settles_as_it_is)
{
	static const double qpos[NQ] = { 0.3, -0.2, 0.6, 0, 0.1, 1, 0, 0, 0 };
	static const double qvel[NV] = { 0 };

	setup();
	sim_set_state(d.sim, qpos, qvel, NULL);
	sim_settle_unstable(d.sim);
	cr_assert_eq(sim_arrays(d.sim)->qpos[0], 0.3, "left as it is");
	inproc_stop(&d);
}

Test(sim_rollback, nothing_kept_nothing_undone)
{
	struct sim *s = sim_create();
	char err[64] = "";

	cr_assert_eq(sim_rollback(s), -1, "no model");
	cr_assert_eq(sim_step_bad(s, err, sizeof(err)), 0);
	cr_assert_eq(sim_good_step(s), 0);
	sim_good(s);
	sim_free(s);
}

Test(sim_rollback, model_writes_undone_in_reverse_order)
{
	static const double first = 2, second = 3;
	double v[8];

	setup();
	sim_good(d.sim);
	inproc_array_set(&d, "dof_damping", 1, 1, &first);
	inproc_array_set(&d, "dof_damping", 1, 1, &second);
	cr_assert_eq(sim_rollback(d.sim), 0);
	inproc_array_get(&d, "dof_damping", v);
	cr_assert_eq(v[1], 0.1, "the bytes before the first write");
	/* the log is cleared: a second rollback puts back nothing more */
	inproc_array_set(&d, "dof_damping", 1, 1, &first);
	sim_good(d.sim);
	cr_assert_eq(sim_rollback(d.sim), 0);
	inproc_array_get(&d, "dof_damping", v);
	cr_assert_eq(v[1], 2, "written before the good state: kept");
	inproc_stop(&d);
}
