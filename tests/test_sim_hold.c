/*
 * Unit tests of joints held on a path (daemon/sim_hold.c), in-process: a
 * pendulum whose hinge has a reference (qpos0 0.2) and a joint equality
 * on it alone, loaded into a real sim; the target written as the
 * equality's offset, the joint following it, the force it takes; the
 * equalities that cannot hold refused.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <criterion/criterion.h>

#include "daemon.h"
#include "inproc.h"
#include "sim.h"
#include "sim_hold.h"
#include "sim_internal.h"

TestSuite(sim_hold, .timeout = 30);

static struct daemon d;

static const char pendulum
    [] = "<mujoco><compiler angle=\"radian\"/><option timestep=\"0.002\"/>"
	 "<worldbody>"
	 "<body name=\"arm\" pos=\"0 0 1\"><joint name=\"h\" axis=\"0 1 0\" "
	 "ref=\"0.2\" damping=\"1\"/>"
	 "<geom type=\"capsule\" fromto=\"0 0 0 0.5 0 0\" size=\"0.02\" "
	 "mass=\"1\"/>"
	 "<body name=\"arm2\" pos=\"0.5 0 0\"><joint name=\"h2\" "
	 "axis=\"0 1 0\"/><geom size=\"0.02\"/></body></body>"
	 "<body name=\"free\"><freejoint/><geom size=\"0.1\"/></body>"
	 "</worldbody><equality>"
	 "<joint name=\"couple\" joint1=\"h2\" joint2=\"h\" active=\"false\"/>"
	 "<joint name=\"hold\" joint1=\"h\" polycoef=\"0 0 0 0 0\"/>"
	 "<weld name=\"weld\" body1=\"free\"/>"
	 "</equality></mujoco>";

static void
setup(void)
{
	char err[1024] = "";

	inproc_start(&d, NULL);
	cr_assert_eq(
	    sim_load_buffer(d.sim, SIM_FORMAT_MJCF, pendulum, strlen(pendulum),
		"pendulum.xml", NULL, err, sizeof(err)),
	    0, "%s", err);
}

Test(sim_hold, equalities_by_name)
{
	struct sim *s = sim_create();

	cr_assert_eq(sim_equality_id(s, "hold"), -1, "no model");
	sim_free(s);
	setup();
	cr_assert_eq(sim_equality_id(d.sim, "couple"), 0);
	cr_assert_eq(sim_equality_id(d.sim, "hold"), 1);
	cr_assert_eq(sim_equality_id(d.sim, "weld"), 2);
	cr_assert_eq(sim_equality_id(d.sim, "nope"), -1);
	inproc_stop(&d);
}

Test(sim_hold, the_target_is_an_offset_from_qpos0)
{
	const mjModel *m;
	uint64_t edits;

	setup();
	m = d.sim->m;
	edits = sim_counters(d.sim)->model_edits;
	cr_assert_eq(sim_hold_set(d.sim, 1, 0.5), 0);
	cr_assert_eq(m->eq_data[mjNEQDATA * 1], 0.5 - 0.2);
	cr_assert_eq(sim_counters(d.sim)->model_edits, edits + 1);
	cr_assert_eq(sim_hold_set(d.sim, 1, 0.5), 0);
	cr_assert_eq(sim_counters(d.sim)->model_edits, edits + 1,
	    "the same target: no edit");
	cr_assert_eq(sim_hold_set(d.sim, 0, 0.5), -1, "two joints");
	cr_assert_eq(sim_hold_set(d.sim, 2, 0.5), -1, "a weld");
	cr_assert_eq(sim_hold_set(d.sim, 3, 0.5), -1);
	cr_assert_eq(sim_hold_set(d.sim, -1, 0.5), -1);
	cr_assert_eq(m->eq_data[0], 0, "the coupling untouched");
	cr_assert_eq(sim_counters(d.sim)->model_edits, edits + 1);
	inproc_stop(&d);
}

Test(sim_hold, the_joint_follows_and_the_force_is_read)
{
	char err[256] = "";
	double f;
	int i;

	setup();
	cr_assert_eq(sim_hold_position(d.sim, 1), 0.2, "at qpos0");
	cr_assert_eq(sim_hold_set(d.sim, 1, -0.4), 0);
	for (i = 0; i < 1000; i++)
		cr_assert_eq(sim_step(d.sim, err, sizeof(err)), 0, "%s", err);
	cr_assert(fabs(sim_hold_position(d.sim, 1) + 0.4) < 0.01, "%g",
	    sim_hold_position(d.sim, 1));
	cr_assert_eq(sim_hold_position(d.sim, 1), sim_arrays(d.sim)->qpos[0]);
	/* the equality holds the arm up against gravity */
	f = sim_hold_force(d.sim, 1);
	cr_assert(fabs(f) > 0.5, "%g", f);
	cr_assert_eq(sim_hold_force(d.sim, 0), 0, "the coupling is inactive");
	cr_assert_eq(sim_hold_force(d.sim, -1), 0);
	cr_assert_eq(sim_hold_position(d.sim, 2), 0, "a weld holds no joint");
	cr_assert_eq(sim_hold_position(d.sim, 9), 0);
	inproc_stop(&d);
}
