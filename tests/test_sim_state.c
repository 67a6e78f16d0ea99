/*
 * Unit tests of the state as the calls write it (daemon/sim_state.c),
 * in-process with the test fixture (models/test/fixture.xml) in a real
 * sim: resets to the reference and to a keyframe, model arrays put back,
 * the setters read back through sim_arrays(), one mocap body and one
 * body's force, equalities, energies, constraints and the quaternion
 * product.
 */
#include "config.h"

#include <string.h>

#include <criterion/criterion.h>

#include "daemon.h"
#include "inproc.h"
#include "sim.h"
#include "sim_state.h"

TestSuite(sim_state, .timeout = 30);

static struct daemon d;

/* The fixture: hinge1, hinge2, the box's free joint; bodies world,
 * link1, link2, box, marker (the mocap body). */
#define NQ 9
#define NV 8
#define NU 2
#define NBODY 5
#define MARKER 4

static void
setup(void)
{
	inproc_start(&d, NULL);
	inproc_load(&d, "fixture.xml");
}

/* Move the state away from any reset: a few steps from a raised arm. */
static void
disturb(void)
{
	double qpos[NQ] = { 1, -1, 0.6, 0, 0.5, 1, 0, 0, 0 }, qvel[NV] = { 3 };
	char err[256];
	int i;

	sim_set_state(d.sim, qpos, qvel, NULL);
	for (i = 0; i < 5; i++)
		cr_assert_eq(sim_step(d.sim, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(sim_counters(d.sim)->steps, 5);
	cr_assert_gt(sim_time(d.sim), 0);
}

Test(sim_state, reset_to_the_reference)
{
	const double ref[NQ] = { 0, 0, 0.6, 0, 0.1, 1, 0, 0, 0 };

	setup();
	disturb();
	sim_reset(d.sim, -1);
	cr_assert_arr_eq(sim_arrays(d.sim)->qpos, ref, sizeof(ref));
	cr_assert_eq(sim_arrays(d.sim)->qvel[0], 0);
	cr_assert_eq(sim_time(d.sim), 0);
	cr_assert_eq(sim_counters(d.sim)->steps, 0);
	inproc_stop(&d);
}

Test(sim_state, reset_to_a_keyframe)
{
	const double raised[NQ] = { 0.5, -0.5, 0.6, 0, 0.1, 1, 0, 0, 0 },
		     dropped[NQ] = { 0, 0, 0.6, 0, 1.0, 1, 0, 0, 0 };

	setup();
	disturb();
	sim_reset(d.sim, 0);
	cr_assert_arr_eq(sim_arrays(d.sim)->qpos, raised, sizeof(raised));
	cr_assert_eq(sim_arrays(d.sim)->ctrl[0], 0.5);
	cr_assert_eq(sim_arrays(d.sim)->ctrl[1], -0.5);
	cr_assert_eq(sim_time(d.sim), 0);
	cr_assert_eq(sim_counters(d.sim)->steps, 0);
	disturb();
	sim_reset(d.sim, 1);
	cr_assert_arr_eq(sim_arrays(d.sim)->qpos, dropped, sizeof(dropped));
	cr_assert_eq(sim_time(d.sim), 1, "the keyframe's time");
	cr_assert_eq(sim_counters(d.sim)->steps, 0);
	inproc_stop(&d);
}

Test(sim_state, params_restore_puts_back_and_lists)
{
	double damping = 7, back[NV];
	char names[256] = "";

	setup();
	cr_assert_eq(sim_params_restore(d.sim, names, sizeof(names)), 0);
	inproc_array_set(&d, "dof_damping", 0, 1, &damping);
	inproc_array_get(&d, "dof_damping", back);
	cr_assert_eq(back[0], 7);
	cr_assert_eq(sim_params_restore(d.sim, names, sizeof(names)), 1);
	cr_assert_str_eq(names, "dof_damping");
	inproc_array_get(&d, "dof_damping", back);
	cr_assert_eq(back[0], 0.1, "the fixture's damping");
	cr_assert_eq(sim_params_restore(d.sim, names, sizeof(names)), 0);
	inproc_stop(&d);
}

Test(sim_state, setters_read_back)
{
	const double qpos[NQ] = { 0.25, -0.5, 1, 2, 3, 0, 1, 0, 0 },
		     qvel[NV] = { 1, 2, 3, 4, 5, 6, 7, 8 },
		     ctrl[NU] = { 0.75, -1.5 };
	double qfrc[NV] = { 0 }, xfrc[6 * NBODY] = { 0 };
	const double pos[3] = { 1, 2, 3 }, quat[4] = { 0, 0, 0, 2 };
	const struct sim_arrays *a;

	setup();
	a = sim_arrays(d.sim);
	sim_set_state(d.sim, qpos, qvel, NULL);
	cr_assert_arr_eq(a->qpos, qpos, sizeof(qpos));
	cr_assert_arr_eq(a->qvel, qvel, sizeof(qvel));
	sim_set_ctrl(d.sim, ctrl);
	cr_assert_arr_eq(a->ctrl, ctrl, sizeof(ctrl));
	qfrc[1] = -4;
	xfrc[6 * 3 + 2] = 9.5;
	sim_set_applied(d.sim, qfrc, xfrc);
	cr_assert_arr_eq(a->qfrc_applied, qfrc, sizeof(qfrc));
	cr_assert_arr_eq(a->xfrc_applied, xfrc, sizeof(xfrc));
	/* the whole mocap set: quaternions made unit */
	sim_set_mocap(d.sim, pos, quat);
	cr_assert_arr_eq(a->mocap_pos, pos, sizeof(pos));
	cr_assert_arr_eq(a->mocap_quat, ((const double[]){ 0, 0, 0, 1 }),
	    4 * sizeof(double));
	/* and the body moved with it (mj_forward) */
	cr_assert_arr_eq(a->xpos + 3 * MARKER, pos, sizeof(pos));
	inproc_stop(&d);
}

Test(sim_state, one_mocap_body_and_one_force)
{
	const double pos[3] = { -1, 0.5, 2 }, quat[4] = { 0, 1, 0, 0 },
		     f6[6] = { 1, 2, 3, 4, 5, 6 };
	const struct sim_arrays *a;
	int b;

	setup();
	a = sim_arrays(d.sim);
	sim_mocap_set_one(d.sim, 0, pos, quat);
	cr_assert_arr_eq(a->mocap_pos, pos, sizeof(pos));
	cr_assert_arr_eq(a->mocap_quat, quat, sizeof(quat));
	sim_xfrc_set_one(d.sim, 3, f6);
	cr_assert_arr_eq(a->xfrc_applied + 6 * 3, f6, sizeof(f6));
	for (b = 0; b < NBODY; b++)
		if (b != 3)
			cr_assert_arr_eq(a->xfrc_applied + 6 * b,
			    ((const double[6]){ 0 }), 6 * sizeof(double),
			    "body %d untouched", b);
	inproc_stop(&d);
}

Test(sim_state, mocap_body_both_ways)
{
	setup();
	cr_assert_eq(sim_mocap_body(d.sim, 0), MARKER);
	cr_assert_eq(sim_mocap_body(d.sim, 1), -1);
	cr_assert_eq(sim_body_mocap(d.sim, MARKER), 0);
	cr_assert_eq(sim_body_mocap(d.sim, 3), -1);
	cr_assert_eq(sim_body_mocap(d.sim, 0), -1);
	inproc_stop(&d);
}

Test(sim_state, equality_on_and_off)
{
	double active;
	uint64_t edits;

	setup();
	edits = sim_counters(d.sim)->model_edits;
	inproc_array_get(&d, "eq_active", &active);
	cr_assert_eq(active, 0, "off in the fixture");
	sim_equality(d.sim, 0, 5);
	inproc_array_get(&d, "eq_active", &active);
	cr_assert_eq(active, 1);
	cr_assert_eq(sim_counters(d.sim)->model_edits, edits + 1);
	sim_equality(d.sim, 0, 0);
	inproc_array_get(&d, "eq_active", &active);
	cr_assert_eq(active, 0);
	cr_assert_eq(sim_counters(d.sim)->model_edits, edits + 2);
	inproc_stop(&d);
}

Test(sim_state, energy_of_the_state)
{
	double qpos[NQ] = { 0, 0, 0.6, 0, 0.1, 1, 0, 0, 0 }, qvel[NV] = { 0 },
	       e[2], e2[2];

	setup();
	sim_set_state(d.sim, qpos, qvel, NULL);
	sim_energy(d.sim, e);
	cr_assert_eq(e[1], 0, "no kinetic energy at rest");
	/* the box 1 kg raised by 0.5 m: potential up by m g h */
	qpos[4] = 0.6;
	sim_set_state(d.sim, qpos, qvel, NULL);
	sim_energy(d.sim, e2);
	cr_assert_float_eq(e2[0] - e[0], 0.5 * 9.81, 1e-9);
	/* the box moving at 2 m/s: 1/2 m v^2 */
	qvel[2] = 2;
	sim_set_state(d.sim, qpos, qvel, NULL);
	sim_energy(d.sim, e2);
	cr_assert_float_eq(e2[1], 2, 1e-9);
	inproc_stop(&d);
}

Test(sim_state, constraints_counted)
{
	double qpos[NQ] = { 0, 0, 0.6, 0, 0.1, 1, 0, 0, 0 }, qvel[NV] = { 0 };
	int nefc = -1, ncon = -1;

	setup();
	/* the box well above the floor: no contact */
	qpos[4] = 1;
	sim_set_state(d.sim, qpos, qvel, NULL);
	sim_constraints(d.sim, &nefc, &ncon);
	cr_assert_eq(ncon, 0);
	cr_assert_eq(nefc, 0);
	/* resting on it (half-size 0.1): contacts, and rows for them */
	qpos[4] = 0.099;
	sim_set_state(d.sim, qpos, qvel, NULL);
	sim_constraints(d.sim, &nefc, &ncon);
	cr_assert_gt(ncon, 0);
	cr_assert_gt(nefc, 0);
	inproc_stop(&d);
}

Test(sim_state, quat_mul)
{
	const double id[4] = { 1, 0, 0, 0 }, z90[4] = { 0.5, 0, 0, 0.5 },
		     q[4] = { 0.5, 0.5, 0.5, 0.5 };
	double out[4];

	/* z90 unnormalised on purpose: exact in binary, products exact */
	sim_quat_mul(id, q, out);
	cr_assert_arr_eq(out, q, sizeof(q));
	sim_quat_mul(q, id, out);
	cr_assert_arr_eq(out, q, sizeof(q));
	/* 90 degrees about z, twice: 180 (scaled by 1/4 here) */
	sim_quat_mul(z90, z90, out);
	cr_assert_arr_eq(
	    out, ((const double[]){ 0, 0, 0, 0.5 }), 4 * sizeof(double));
	/* order matters: i * j = k, j * i = -k */
	sim_quat_mul((const double[]){ 0, 1, 0, 0 },
	    (const double[]){ 0, 0, 1, 0 }, out);
	cr_assert_arr_eq(
	    out, ((const double[]){ 0, 0, 0, 1 }), 4 * sizeof(double));
	sim_quat_mul((const double[]){ 0, 0, 1, 0 },
	    (const double[]){ 0, 1, 0, 0 }, out);
	cr_assert_arr_eq(
	    out, ((const double[]){ 0, 0, 0, -1 }), 4 * sizeof(double));
	/* out aliasing a, then b */
	{
		double a[4] = { 0, 1, 0, 0 }, b[4] = { 0, 0, 1, 0 };

		sim_quat_mul(a, b, a);
		cr_assert_arr_eq(
		    a, ((const double[]){ 0, 0, 0, 1 }), 4 * sizeof(double));
		a[0] = 0, a[1] = 1, a[2] = 0, a[3] = 0;
		sim_quat_mul(a, b, b);
		cr_assert_arr_eq(
		    b, ((const double[]){ 0, 0, 0, 1 }), 4 * sizeof(double));
	}
}
