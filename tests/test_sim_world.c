/*
 * Unit tests of what the World API needs of MuJoCo (daemon/sim_world.c),
 * in-process: the test fixture in a real sim; a body's weight, forces
 * added for a step and taken out, the collide modes of a body's subtree
 * (from the model as loaded), and the model's own view camera.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <criterion/criterion.h>

#include "daemon.h"
#include "inproc.h"
#include "sim.h"
#include "sim_internal.h"
#include "sim_state.h"
#include "sim_world.h"

TestSuite(sim_world, .timeout = 30);

static struct daemon d;

/* The fixture's bodies: world, link1, link2 (in link1), box, marker. */
#define NBODY 5
#define LINK1 1
#define BOX 3
#define MARKER 4

static void
setup(void)
{
	inproc_start(&d, NULL);
	inproc_load(&d, "fixture.xml");
}

Test(sim_world, a_bodys_weight)
{
	double f[3];

	setup();
	sim_body_weight(d.sim, BOX, f);
	cr_assert_eq(f[0], 0);
	cr_assert_eq(f[1], 0);
	cr_assert_eq(f[2], 9.81, "1 kg under MuJoCo's default gravity");
	d.sim->m->opt.gravity[0] = 2;
	d.sim->m->body_mass[BOX] = 3;
	sim_body_weight(d.sim, BOX, f);
	cr_assert_eq(f[0], -6);
	cr_assert_eq(f[2], 3 * 9.81);
	inproc_stop(&d);
}

Test(sim_world, forces_pushed_and_popped)
{
	double add[6 * NBODY] = { 0 }, saved[6 * NBODY],
		       mine[6 * NBODY] = { 0 };
	const double *x;

	setup();
	x = sim_arrays(d.sim)->xfrc_applied;
	mine[6 * BOX + 2] = 4;
	sim_set_applied(d.sim, (const double[8]){ 0 }, mine);
	add[6 * BOX + 2] = 1;
	add[6 * LINK1 + 3] = -2;
	sim_xfrc_push(d.sim, add, saved);
	cr_assert_arr_eq(saved, mine, sizeof(mine));
	cr_assert_eq(x[6 * BOX + 2], 5, "added to the client's");
	cr_assert_eq(x[6 * LINK1 + 3], -2);
	sim_xfrc_pop(d.sim, saved);
	cr_assert_arr_eq(x, mine, sizeof(mine));
	inproc_stop(&d);
}

Test(sim_world, collide_modes_of_a_subtree)
{
	const mjModel *m;
	uint64_t edits;

	setup();
	m = d.sim->m;
	cr_assert_eq(sim_collide_get(d.sim, LINK1), SIM_COLLIDE);
	cr_assert_eq(sim_collide_get(d.sim, BOX), SIM_COLLIDE);
	cr_assert_eq(sim_collide_get(d.sim, MARKER), SIM_NOCOLLIDE,
	    "contype and conaffinity 0 in the model");
	edits = sim_counters(d.sim)->model_edits;
	/* link1's subtree: its geom (3) and link2's (4) */
	sim_collide_set(d.sim, LINK1, SIM_DETECT);
	cr_assert_eq(sim_collide_get(d.sim, LINK1), SIM_DETECT);
	cr_assert_eq(m->geom_gap[3], 1e6);
	cr_assert_eq(m->geom_gap[4], 1e6);
	cr_assert_eq(m->geom_gap[5], 0, "the box is not link1's");
	cr_assert_eq(m->geom_contype[3], 1);
	cr_assert_eq(sim_counters(d.sim)->model_edits, edits + 2);
	sim_collide_set(d.sim, LINK1, SIM_DETECT);
	cr_assert_eq(
	    sim_counters(d.sim)->model_edits, edits + 2, "no change, no edit");
	sim_collide_set(d.sim, BOX, SIM_NOCOLLIDE);
	cr_assert_eq(sim_collide_get(d.sim, BOX), SIM_NOCOLLIDE);
	cr_assert_eq(m->geom_contype[5], 0);
	cr_assert_eq(m->geom_conaffinity[5], 0);
	/* back as loaded */
	sim_collide_set(d.sim, LINK1, SIM_COLLIDE);
	sim_collide_set(d.sim, BOX, SIM_COLLIDE);
	cr_assert_eq(m->geom_gap[3], 0);
	cr_assert_eq(m->geom_contype[5], 1);
	cr_assert_eq(m->geom_conaffinity[5], 1);
	cr_assert_eq(sim_collide_get(d.sim, BOX), SIM_COLLIDE);
	/* collide as loaded: the marker never did */
	sim_collide_set(d.sim, MARKER, SIM_COLLIDE);
	cr_assert_eq(sim_collide_get(d.sim, MARKER), SIM_NOCOLLIDE);
	/* the world's subtree is every geom that can collide */
	sim_collide_set(d.sim, 0, SIM_DETECT);
	cr_assert_eq(sim_collide_get(d.sim, 0), SIM_DETECT);
	cr_assert_eq(sim_collide_get(d.sim, BOX), SIM_DETECT);
	cr_assert_eq(m->geom_gap[4], 1e6, "link2's geom, two levels down");
	inproc_stop(&d);
}

Test(sim_world, the_default_camera_looks_at_the_model)
{
	const mjModel *m;
	double pos[3], quat[4], x[3], to[3], dist;

	setup();
	m = d.sim->m;
	sim_camera_default(d.sim, pos, quat);
	cr_assert(fabs(mju_norm(quat, 4) - 1) < 1e-12);
	/* its x axis points at the model's centre, 1.5 extents away */
	mju_rotVecQuat(x, (const double[]){ 1, 0, 0 }, quat);
	mju_sub3(to, m->stat.center, pos);
	dist = mju_norm3(to);
	cr_assert(fabs(dist - 1.5 * m->stat.extent) < 1e-12, "%g", dist);
	mju_scl3(to, to, 1 / dist);
	cr_assert(fabs(mju_dot3(x, to) - 1) < 1e-12);
	/* MuJoCo's default view: azimuth 90, elevation -45 */
	cr_assert(fabs(x[0]) < 1e-12);
	cr_assert(fabs(x[1] - sqrt(0.5)) < 1e-12);
	cr_assert(fabs(x[2] + sqrt(0.5)) < 1e-12);
	/* its z axis (up on the screen) has no sideways part */
	mju_rotVecQuat(x, (const double[]){ 0, 0, 1 }, quat);
	cr_assert(fabs(x[0]) < 1e-12);
	cr_assert_gt(x[2], 0);
	inproc_stop(&d);
}
