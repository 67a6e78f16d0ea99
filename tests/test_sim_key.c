/*
 * Unit tests of keyframes by name and joints by name (daemon/sim_key.c),
 * in-process: the test fixture (models/test/fixture.xml, keyframes
 * "raised" and "dropped") in a real sim; states captured into the
 * model's keyframes and under names of their own, reset to, listed,
 * bounded and forgotten at a load; one joint set and described.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>

#include "daemon.h"
#include "inproc.h"
#include "sim.h"
#include "sim_array.h"
#include "sim_key.h"
#include "sim_state.h"

TestSuite(sim_key, .timeout = 30);

static struct daemon d;

/* The fixture: hinge1, hinge2, then the box's free joint. */
#define NQ 9
#define NU 2

static void
setup(void)
{
	inproc_start(&d, NULL);
	inproc_load(&d, "fixture.xml");
}

/* Put a recognisable state in: qpos, qvel, ctrl and time. */
static void
put_state(double x)
{
	double qpos[NQ] = { x, -x, 1, 2, 3, 1, 0, 0, 0 }, qvel[8] = { 0 },
	       ctrl[NU] = { x / 2, -x / 2 };
	char err[256];

	qvel[0] = 10 * x;
	sim_set_state(d.sim, qpos, qvel, NULL);
	sim_set_ctrl(d.sim, ctrl);
	cr_assert_eq(sim_array_set(d.sim,
			 sim_array_find("time", &(const char *){ NULL }), 0, 1,
			 &x, err, sizeof(err)),
	    0, "%s", err);
}

Test(sim_key, capture_into_the_models_keyframe_by_name)
{
	double key_qpos[2 * NQ], key_ctrl[2 * NU], key_time[2];
	uint64_t edits;
	char err[256] = "";

	setup();
	edits = sim_counters(d.sim)->model_edits;
	put_state(0.25);
	cr_assert_eq(sim_key_capture(d.sim, "dropped", -1, err, sizeof(err)), 1,
	    "%s", err);
	inproc_array_get(&d, "key_qpos", key_qpos);
	inproc_array_get(&d, "key_ctrl", key_ctrl);
	inproc_array_get(&d, "key_time", key_time);
	cr_assert_arr_eq(key_qpos + NQ,
	    ((const double[]){ 0.25, -0.25, 1, 2, 3, 1, 0, 0, 0 }),
	    NQ * sizeof(double));
	cr_assert_eq(key_ctrl[NU], 0.125);
	cr_assert_eq(key_ctrl[NU + 1], -0.125);
	cr_assert_eq(key_time[1], 0.25);
	cr_assert_eq(key_time[0], 0, "keyframe 0 untouched");
	cr_assert_eq(key_qpos[0], 0.5, "keyframe 0 untouched");
	cr_assert_eq(sim_counters(d.sim)->model_edits, edits + 1);
	/* an empty name: into the keyframe given */
	put_state(0.75);
	cr_assert_eq(sim_key_capture(d.sim, "", 0, err, sizeof(err)), 0);
	inproc_array_get(&d, "key_qpos", key_qpos);
	cr_assert_eq(key_qpos[0], 0.75);
	cr_assert_eq(key_qpos[NQ], 0.25, "keyframe 1 untouched");
	cr_assert_eq(sim_key_names(d.sim, NULL, 0), 0,
	    "the model's keyframes are no captured states");
	inproc_stop(&d);
}

Test(sim_key, reset_to_a_keyframe_by_name)
{
	const struct sim_arrays *a;

	setup();
	put_state(0.3);
	cr_assert_eq(sim_reset_name(d.sim, "raised"), 0);
	a = sim_arrays(d.sim);
	cr_assert_arr_eq(a->qpos,
	    ((const double[]){ 0.5, -0.5, 0.6, 0, 0.1, 1, 0, 0, 0 }),
	    NQ * sizeof(double));
	cr_assert_eq(a->ctrl[0], 0.5);
	cr_assert_eq(a->ctrl[1], -0.5);
	cr_assert_eq(a->qvel[0], 0);
	cr_assert_eq(sim_reset_name(d.sim, "dropped"), 1);
	cr_assert_eq(sim_time(d.sim), 1);
	cr_assert_eq(sim_arrays(d.sim)->qpos[4], 1.0);
	cr_assert_eq(sim_reset_name(d.sim, "nope"), -2);
	cr_assert(sim_reset_name_exists(d.sim, "raised"));
	cr_assert(!sim_reset_name_exists(d.sim, "nope"));
	inproc_stop(&d);
}

Test(sim_key, captured_states_of_new_names_come_back)
{
	const struct sim_arrays *a;
	const char *names[4];
	char err[256] = "";
	int i;

	setup();
	put_state(0.4);
	cr_assert_eq(sim_key_capture(d.sim, "mine", -1, err, sizeof(err)), -1,
	    "%s", err);
	cr_assert(sim_reset_name_exists(d.sim, "mine"));
	put_state(0.1);
	cr_assert_eq(sim_key_capture(d.sim, "other", -1, err, sizeof(err)), -1);
	for (i = 0; i < 3; i++) {
		cr_assert_eq(sim_step(d.sim, err, sizeof(err)), 0, "%s", err);
	}
	cr_assert_eq(sim_counters(d.sim)->steps, 3);
	cr_assert_eq(sim_reset_name(d.sim, "mine"), -1);
	a = sim_arrays(d.sim);
	cr_assert_eq(a->qpos[0], 0.4);
	cr_assert_eq(a->qpos[1], -0.4);
	cr_assert_eq(a->qvel[0], 4.0);
	cr_assert_eq(a->ctrl[0], 0.2);
	cr_assert_eq(sim_time(d.sim), 0.4);
	cr_assert_eq(sim_counters(d.sim)->steps, 0, "a reset starts the count");
	/* newest first; the count is all of them, past max */
	cr_assert_eq(sim_key_names(d.sim, names, 4), 2);
	cr_assert_str_eq(names[0], "other");
	cr_assert_str_eq(names[1], "mine");
	cr_assert_eq(sim_key_names(d.sim, names, 1), 2);
	/* a name again: its state replaced, no new one */
	put_state(0.9);
	cr_assert_eq(sim_key_capture(d.sim, "mine", -1, err, sizeof(err)), -1);
	cr_assert_eq(sim_key_names(d.sim, names, 4), 2);
	put_state(0);
	cr_assert_eq(sim_reset_name(d.sim, "mine"), -1);
	cr_assert_eq(sim_arrays(d.sim)->qpos[0], 0.9);
	/* a load forgets them */
	inproc_load(&d, "fixture.xml");
	cr_assert_eq(sim_key_names(d.sim, names, 4), 0);
	cr_assert(!sim_reset_name_exists(d.sim, "mine"));
	cr_assert_eq(sim_reset_name(d.sim, "mine"), -2);
	inproc_stop(&d);
}

Test(sim_key, capture_limits)
{
	char name[80], err[256] = "";
	int i;

	setup();
	memset(name, 'k', 64);
	name[64] = '\0';
	cr_assert_eq(sim_key_capture(d.sim, name, -1, err, sizeof(err)), -2);
	cr_assert_str_eq(err, "the name is longer than 63 bytes");
	name[63] = '\0';
	cr_assert_eq(sim_key_capture(d.sim, name, -1, err, sizeof(err)), -1);
	for (i = 1; i < 256; i++) {
		snprintf(name, sizeof(name), "s%d", i);
		cr_assert_eq(
		    sim_key_capture(d.sim, name, -1, err, sizeof(err)), -1);
	}
	cr_assert_eq(sim_key_names(d.sim, NULL, 0), 256);
	cr_assert_eq(
	    sim_key_capture(d.sim, "one more", -1, err, sizeof(err)), -2);
	cr_assert_str_eq(err,
	    "256 states are captured already: reload the model to forget "
	    "them, or reuse a name");
	cr_assert_eq(sim_key_capture(d.sim, "s7", -1, err, sizeof(err)), -1,
	    "a name reused");
	cr_assert_eq(sim_key_capture(d.sim, "raised", -1, err, sizeof(err)), 0,
	    "the model's keyframes are not counted");
	inproc_stop(&d);
}

Test(sim_key, joint_set_by_name)
{
	static const double hinge = 0.3, spin = -2;
	static const double box[7] = { 1, 2, 3, 2, 0, 0, 0 };
	static const double nobox[7] = { 1, 2, 3, 0, 0, 0, 0 };
	const struct sim_arrays *a;
	char err[256] = "";

	setup();
	cr_assert_eq(sim_joint_set(d.sim, "hinge2", &hinge, 1, &spin, 1, err,
			 sizeof(err)),
	    0, "%s", err);
	a = sim_arrays(d.sim);
	cr_assert_eq(a->qpos[1], 0.3);
	cr_assert_eq(a->qvel[1], -2);
	cr_assert_eq(a->qpos[0], 0, "its neighbour stays");
	cr_assert_eq(a->sensordata[1], 0.3, "forward followed: q2 reads it");
	/* free joint: the quaternion normalised; no qvel: left */
	cr_assert_eq(
	    sim_joint_set(d.sim, "box", box, 7, NULL, 0, err, sizeof(err)), 0);
	cr_assert_arr_eq(a->qpos + 2, ((const double[]){ 1, 2, 3, 1, 0, 0, 0 }),
	    7 * sizeof(double));
	cr_assert_eq(a->qvel[1], -2);
	cr_assert_eq(
	    sim_joint_set(d.sim, "box", nobox, 7, NULL, 0, err, sizeof(err)),
	    -3);
	cr_assert_str_eq(err, "joint \"box\": the quaternion has no direction");
	cr_assert_eq(a->qpos[5], 1, "nothing written");
	cr_assert_eq(
	    sim_joint_set(d.sim, "hinge1", box, 2, NULL, 0, err, sizeof(err)),
	    -2);
	cr_assert_str_eq(err,
	    "joint \"hinge1\" is a hinge joint: qpos takes 1 values and qvel "
	    "1 (got 2 and 0)");
	cr_assert_eq(
	    sim_joint_set(d.sim, "box", NULL, 0, box, 3, err, sizeof(err)), -2);
	cr_assert_str_eq(err,
	    "joint \"box\" is a free joint: qpos takes 7 values and qvel 6 "
	    "(got 0 and 3)");
	cr_assert_eq(
	    sim_joint_set(d.sim, "nope", box, 1, NULL, 0, err, sizeof(err)),
	    -1);
	cr_assert_str_eq(err, "the model has no joint named \"nope\"");
	inproc_stop(&d);
}

Test(sim_key, joint_get_by_name_and_id)
{
	struct sim_joint j;
	char err[256] = "";

	setup();
	cr_assert_eq(sim_joint_get(d.sim, "box", -1, &j, err, sizeof(err)), 0,
	    "%s", err);
	cr_assert_eq(j.id, 2);
	cr_assert_eq(j.type, 0, "free");
	cr_assert_str_eq(j.name, "box");
	cr_assert_str_eq(j.body, "box");
	cr_assert_eq(j.body_id, 3);
	cr_assert_eq(j.qpos_adr, 2);
	cr_assert_eq(j.dof_adr, 2);
	cr_assert_eq(j.nq, 7);
	cr_assert_eq(j.nv, 6);
	cr_assert_eq(j.qpos, sim_arrays(d.sim)->qpos + 2);
	cr_assert_eq(j.qpos[0], 0.6);
	cr_assert_eq(sim_joint_get(d.sim, "", 0, &j, err, sizeof(err)), 0);
	cr_assert_str_eq(j.name, "hinge1");
	cr_assert_str_eq(j.body, "link1");
	cr_assert_eq(j.type, 3, "hinge");
	cr_assert_eq(j.nq, 1);
	cr_assert_eq(j.limited, 1);
	cr_assert_eq(j.range[0], -1.5);
	cr_assert_eq(j.range[1], 1.5);
	cr_assert_arr_eq(
	    j.axis, ((const double[]){ 0, 1, 0 }), 3 * sizeof(double));
	cr_assert_eq(sim_joint_get(d.sim, NULL, 1, &j, err, sizeof(err)), 0);
	cr_assert_str_eq(j.name, "hinge2");
	cr_assert_eq(j.limited, 0);
	cr_assert_eq(sim_joint_get(d.sim, "", 3, &j, err, sizeof(err)), -1);
	cr_assert_str_eq(err, "joint 3 is not one of the model's 3");
	cr_assert_eq(sim_joint_get(d.sim, "", -1, &j, err, sizeof(err)), -1);
	cr_assert_str_eq(err, "joint -1 is not one of the model's 3");
	cr_assert_eq(sim_joint_get(d.sim, "nope", 0, &j, err, sizeof(err)), -1);
	cr_assert_str_eq(err, "the model has no joint named \"nope\"");
	inproc_stop(&d);
}
