/*
 * Unit tests of the model as loaded, kept to put clients' changes back
 * (daemon/sim_pristine.c), in-process: the test fixture in a real sim,
 * model arrays written by name, then restored and listed, keyframes
 * kept, the list cut to its buffer, the gains alone restored.
 */
#include "config.h"

#include <string.h>

#include <criterion/criterion.h>

#include "daemon.h"
#include "inproc.h"
#include "sim.h"
#include "sim_array.h"
#include "sim_internal.h"
#include "sim_robot.h"
#include "sim_state.h"

TestSuite(sim_pristine, .timeout = 30);

static struct daemon d;

static void
setup(void)
{
	inproc_start(&d, NULL);
	inproc_load(&d, "fixture.xml");
}

Test(sim_pristine, nothing_changed_nothing_restored)
{
	char names[256] = "x";
	uint64_t edits;

	setup();
	edits = sim_counters(d.sim)->model_edits;
	cr_assert_eq(sim_pristine_restore(d.sim, names, sizeof(names)), 0);
	cr_assert_str_eq(names, "");
	cr_assert_eq(sim_counters(d.sim)->model_edits, edits);
	inproc_stop(&d);
}

Test(sim_pristine, changed_arrays_put_back_and_named)
{
	static const double rgba = 0.25, kp = 99, damping = 3, t = 7;
	char names[256];
	double v[64];
	uint64_t edits;

	setup();
	inproc_array_set(&d, "geom_rgba", 4 * 5, 1, &rgba);
	inproc_array_set(&d, "dof_damping", 0, 1, &damping);
	inproc_array_set(&d, "actuator_gainprm", 0, 1, &kp);
	inproc_array_set(&d, "key_time", 0, 1, &t);
	edits = sim_counters(d.sim)->model_edits;
	cr_assert_eq(sim_pristine_restore(d.sim, names, sizeof(names)), 3);
	cr_assert_str_eq(names, "dof_damping, geom_rgba, actuator_gainprm");
	cr_assert_eq(sim_counters(d.sim)->model_edits, edits + 1);
	inproc_array_get(&d, "geom_rgba", v);
	cr_assert_eq(v[4 * 5], (double)0.2f);
	inproc_array_get(&d, "dof_damping", v);
	cr_assert_eq(v[0], 0.1);
	inproc_array_get(&d, "actuator_gainprm", v);
	cr_assert_eq(v[0], 50);
	inproc_array_get(&d, "key_time", v);
	cr_assert_eq(v[0], 7, "a keyframe is a state, not a parameter");
	cr_assert_eq(sim_pristine_restore(d.sim, names, sizeof(names)), 0,
	    "all back already");
	inproc_stop(&d);
}

Test(sim_pristine, a_mass_and_what_setconst_derived)
{
	static const double mass = 4;
	char names[512];
	double v[8];

	setup();
	inproc_array_set(&d, "body_mass", 3, 1, &mass);
	cr_assert_gt(sim_pristine_restore(d.sim, names, sizeof(names)), 2);
	cr_assert_eq(strncmp(names, "body_mass, body_subtreemass, ", 29), 0,
	    "%s", names);
	cr_assert_not_null(strstr(names, "dof_M0"), "%s", names);
	cr_assert_eq(
	    strcmp(names + strlen(names) - 6, ", stat"), 0, "%s", names);
	inproc_array_get(&d, "body_subtreemass", v);
	cr_assert_eq(v[3], 1);
	inproc_stop(&d);
}

Test(sim_pristine, the_list_is_cut_to_its_buffer)
{
	static const double rgba = 0.25, kp = 99;
	char names[12];

	setup();
	inproc_array_set(&d, "geom_rgba", 0, 1, &rgba);
	inproc_array_set(&d, "actuator_gainprm", 0, 1, &kp);
	cr_assert_eq(sim_pristine_restore(d.sim, names, sizeof(names)), 2);
	cr_assert_str_eq(names, "geom_rgba, ");
	inproc_array_set(&d, "geom_rgba", 0, 1, &rgba);
	cr_assert_eq(sim_pristine_restore(d.sim, names, 0), 1, "no list");
	inproc_stop(&d);
}

/*
 * sim_params_restore (sim_state.c) is the restore the daemon calls: the
 * model's parameters back and the servo map told, which ends the
 * probation of the gains clients set; sim_pristine_restore alone does
 * not tell it.
 */
Test(sim_pristine, a_restore_ends_the_gains_probation)
{
	static const double kp[2] = { 1e6, 1e6 };
	struct sim_robot_command c = { .gain_pos = kp, .client = 5 };
	char names[256], why[256];

	setup();
	sim_robot_command(d.sim, &c);
	cr_assert_eq(sim_params_restore(d.sim, names, sizeof(names)), 2);
	cr_assert_str_eq(names, "actuator_gainprm, actuator_biasprm");
	sim_robot_unstable(d.sim, "qvel", 1);
	cr_assert_eq(sim_robot_gains_undone(d.sim, 5, why, sizeof(why)), 0,
	    "the client's gains were gone already");
	inproc_stop(&d);
}

Test(sim_pristine, a_load_takes_a_new_copy)
{
	static const double rgba = 0.25;
	char names[256];

	setup();
	inproc_array_set(&d, "geom_rgba", 0, 1, &rgba);
	inproc_load(&d, "fixture.xml");
	cr_assert_eq(sim_pristine_restore(d.sim, names, sizeof(names)), 0);
	cr_assert_str_eq(names, "");
	inproc_stop(&d);
}
