/*
 * Unit tests of what the native API computes from MuJoCo's data
 * (daemon/sim_access.c), in-process: the test fixture in a real sim; one
 * body read and written (a free body's velocities in its own frame),
 * contacts and their forces, the applied force, geom sizes with their
 * bounding radius and refusals, colours, names and ids by object type.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <criterion/criterion.h>

#include "daemon.h"
#include "inproc.h"
#include "sim.h"
#include "sim_access.h"
#include "sim_internal.h"
#include "sim_state.h"

TestSuite(sim_access, .timeout = 30);

static struct daemon d;

/* The fixture's bodies and geoms. */
#define LINK1 1
#define BOX 3
#define G_FLOOR 0
#define G_TERRAIN 1
#define G_TETRA 2
#define G_LINK1 3
#define G_BOX 5
#define G_MARKER 6

static void
setup(void)
{
	inproc_start(&d, NULL);
	inproc_load(&d, "fixture.xml");
}

Test(sim_access, one_body_read)
{
	struct sim_onebody b;
	double xfrc[5 * 6] = { 0 };

	setup();
	xfrc[6 * BOX + 0] = 1;
	xfrc[6 * BOX + 5] = -2;
	sim_set_applied(d.sim, (const double[8]){ 0 }, xfrc);
	sim_onebody_get(d.sim, BOX, &b);
	cr_assert_eq(b.is_floating, 1);
	cr_assert_arr_eq(
	    b.pos, ((const double[]){ 0.6, 0, 0.1 }), sizeof(b.pos));
	cr_assert_arr_eq(
	    b.quat, ((const double[]){ 1, 0, 0, 0 }), sizeof(b.quat));
	cr_assert_arr_eq(
	    b.force, ((const double[]){ 1, 0, 0 }), sizeof(b.force));
	cr_assert_arr_eq(
	    b.torque, ((const double[]){ 0, 0, -2 }), sizeof(b.torque));
	sim_onebody_get(d.sim, LINK1, &b);
	cr_assert_eq(b.is_floating, 0);
	cr_assert_arr_eq(b.pos, ((const double[]){ 0, 0, 1 }), sizeof(b.pos));
	inproc_stop(&d);
}

Test(sim_access, one_body_written)
{
	struct sim_onebody in = { .pos = { 1, 2, 3 },
		.quat = { 2, 0, 0, 2 },
		.linvel = { 0.5, 0, 0 },
		.angvel = { 1, 0, 0 },
		.force = { 0, 0, 7 },
		.torque = { 0, 1, 0 } };
	const double *qpos, *qvel, *xfrc;
	const double h = sqrt(0.5);

	setup();
	qpos = sim_arrays(d.sim)->qpos;
	qvel = sim_arrays(d.sim)->qvel;
	xfrc = sim_arrays(d.sim)->xfrc_applied;
	sim_onebody_set(d.sim, BOX, &in, SIM_BODY_POS | SIM_BODY_QUAT);
	cr_assert_arr_eq(
	    qpos + 2, ((const double[]){ 1, 2, 3 }), 3 * sizeof(double));
	cr_assert(fabs(qpos[5] - h) < 1e-15 && fabs(qpos[8] - h) < 1e-15,
	    "normalised");
	cr_assert_eq(qvel[2], 0, "velocities not asked for");
	/* a quarter turn about z: world x is the body's -y */
	sim_onebody_set(d.sim, BOX, &in, SIM_BODY_LINVEL | SIM_BODY_ANGVEL);
	cr_assert_eq(qvel[2], 0.5);
	cr_assert(fabs(qvel[5]) < 1e-12);
	cr_assert(fabs(qvel[6] + 1) < 1e-12, "%g", qvel[6]);
	cr_assert(fabs(qvel[7]) < 1e-12);
	cr_assert_eq(xfrc[6 * BOX + 2], 0, "force not asked for");
	sim_onebody_set(d.sim, BOX, &in, SIM_BODY_FORCE | SIM_BODY_TORQUE);
	cr_assert_eq(xfrc[6 * BOX + 2], 7);
	cr_assert_eq(xfrc[6 * BOX + 4], 1);
	/* a body that does not float: its pose is the joints' */
	sim_onebody_set(d.sim, LINK1, &in, SIM_BODY_POS | SIM_BODY_FORCE);
	cr_assert_eq(qpos[0], 0);
	cr_assert_eq(xfrc[6 * LINK1 + 2], 7);
	inproc_stop(&d);
}

Test(sim_access, contacts_and_the_box_resting_on_the_floor)
{
	double dist[16], pos[48], frame[144], force[48];
	int32_t g1[16], g2[16];
	const struct sim_contacts out = { dist, pos, frame, force, g1, g2 };
	struct sim_onebody b;
	char err[256];
	int i, n, found = 0;

	setup();
	for (i = 0; i < 500; i++)
		cr_assert_eq(sim_step(d.sim, err, sizeof(err)), 0, "%s", err);
	n = sim_contacts(d.sim, NULL);
	cr_assert_gt(n, 0);
	cr_assert_leq(n, 16);
	cr_assert_eq(sim_contacts(d.sim, &out), n);
	for (i = 0; i < n; i++) {
		if (g1[i] == G_FLOOR && g2[i] == G_BOX) {
			found++;
			cr_assert(fabs(dist[i]) < 0.01, "%g", dist[i]);
			cr_assert(fabs(pos[3 * i + 2]) < 0.01);
			cr_assert(force[3 * i] >= 0, "normal force pushes");
		}
	}
	cr_assert_gt(found, 0, "the box on the floor");
	/* the floor carries the box's weight */
	sim_onebody_get(d.sim, BOX, &b);
	cr_assert(
	    fabs(b.contactforce[2] - 9.81) < 0.1, "%g", b.contactforce[2]);
	/* at rest, read as an accelerometer reads it: gravity's offset */
	cr_assert(fabs(b.linacc[2] - 9.81) < 0.1, "%g", b.linacc[2]);
	inproc_stop(&d);
}

Test(sim_access, the_applied_force_includes_xfrc)
{
	double qfrc[8] = { 0.5, -0.25, 0, 0, 0, 0, 0, 0 }, xfrc[30] = { 0 };
	double out[8];

	setup();
	xfrc[6 * BOX + 2] = 3; /* up on the box: its z dof */
	sim_set_applied(d.sim, qfrc, xfrc);
	sim_forward(d.sim);
	sim_force_applied(d.sim, out);
	cr_assert(fabs(out[0] - 0.5) < 1e-9, "%.17g", out[0]);
	cr_assert(fabs(out[1] + 0.25) < 1e-9);
	cr_assert(fabs(out[4] - 3) < 1e-9, "%.17g", out[4]);
	cr_assert(fabs(out[2]) < 1e-9);
	inproc_stop(&d);
}

Test(sim_access, geom_sizes_and_their_bounding_radius)
{
	const mjModel *m;
	char err[256] = "";
	uint64_t edits;

	setup();
	m = d.sim->m;
	edits = sim_counters(d.sim)->model_edits;
	cr_assert_eq(sim_set_geomsize(d.sim, G_BOX, (const double[]){ 2, 3, 6 },
			 err, sizeof(err)),
	    0, "%s", err);
	cr_assert_arr_eq(m->geom_size + 3 * G_BOX,
	    ((const double[]){ 2, 3, 6 }), 3 * sizeof(double));
	cr_assert_eq(m->geom_rbound[G_BOX], 7);
	cr_assert_eq(sim_set_geomsize(d.sim, G_LINK1,
			 (const double[]){ 0.05, 0.25, -1 }, err, sizeof(err)),
	    0, "the third value is not a capsule's: %s", err);
	cr_assert_eq(m->geom_rbound[G_LINK1], 0.3);
	cr_assert_eq(sim_set_geomsize(d.sim, G_FLOOR,
			 (const double[]){ 0, 0, 0 }, err, sizeof(err)),
	    0);
	cr_assert_eq(m->geom_rbound[G_FLOOR], 0);
	cr_assert_eq(sim_counters(d.sim)->model_edits, edits + 3);
	cr_assert_eq(sim_set_geomsize(d.sim, G_MARKER,
			 (const double[]){ 0, 1, 1 }, err, sizeof(err)),
	    -2);
	cr_assert_str_eq(
	    err, "geom 6 takes 1 positive size value; size[0] is 0");
	cr_assert_eq(sim_set_geomsize(d.sim, G_BOX,
			 (const double[]){ 1, 1, NAN }, err, sizeof(err)),
	    -2);
	cr_assert_str_eq(
	    err, "geom 5 takes 3 positive size values; size[2] is nan");
	cr_assert_eq(sim_set_geomsize(d.sim, G_TETRA,
			 (const double[]){ 1, 1, 1 }, err, sizeof(err)),
	    -1);
	cr_assert_str_eq(err,
	    "geom 2 is a mesh: its size comes from its data and cannot be "
	    "set");
	cr_assert_eq(sim_set_geomsize(d.sim, G_TERRAIN,
			 (const double[]){ 1, 1, 1 }, err, sizeof(err)),
	    -1);
	cr_assert_str_eq(err,
	    "geom 1 is a height field: its size comes from its data and "
	    "cannot be set");
	cr_assert_eq(m->geom_size[3 * G_BOX + 2], 6, "refusals wrote nothing");
	cr_assert_eq(sim_counters(d.sim)->model_edits, edits + 3);
	inproc_stop(&d);
}

Test(sim_access, colours_by_object_type)
{
	double rgba[4];

	setup();
	cr_assert_eq(sim_rgba_get(d.sim, mjOBJ_MATERIAL, 0, rgba), 0);
	cr_assert_arr_eq(
	    rgba, ((const double[]){ 1, 0, 0, 1 }), sizeof(rgba), "red");
	cr_assert_eq(sim_rgba_get(d.sim, mjOBJ_SITE, 0, rgba), 0);
	cr_assert_arr_eq(rgba, ((const double[]){ 0, 0, 1, 1 }), sizeof(rgba));
	cr_assert_eq(sim_rgba_set(d.sim, mjOBJ_GEOM, G_BOX,
			 (const double[]){ -1, 0.5, 2, 0.25 }),
	    0);
	cr_assert_eq(sim_rgba_get(d.sim, mjOBJ_GEOM, G_BOX, rgba), 0);
	cr_assert_arr_eq(rgba, ((const double[]){ 0, 0.5, 1, 0.25 }),
	    sizeof(rgba), "clamped to 0 and 1");
	cr_assert_eq(sim_rgba_set(d.sim, mjOBJ_TENDON, 0,
			 (const double[]){ 0, 1, 0, 1 }),
	    0);
	cr_assert_eq(sim_rgba_get(d.sim, mjOBJ_TENDON, 0, rgba), 0);
	cr_assert_eq(rgba[1], 1);
	cr_assert_eq(sim_rgba_get(d.sim, mjOBJ_BODY, 0, rgba), -1);
	cr_assert_eq(sim_rgba_set(d.sim, mjOBJ_JOINT, 0, rgba), -1);
	cr_assert_eq(sim_rgba_get(d.sim, mjOBJ_GEOM, 7, rgba), -2);
	cr_assert_eq(sim_rgba_set(d.sim, mjOBJ_MATERIAL, -1, rgba), -2);
	cr_assert_eq(sim_rgba_get(d.sim, mjOBJ_TENDON, 1, rgba), -2);
	inproc_stop(&d);
}

Test(sim_access, names_and_ids)
{
	int bad = -1;

	setup();
	cr_assert_eq(sim_name2id(d.sim, mjOBJ_GEOM, "box"), G_BOX);
	cr_assert_eq(sim_name2id(d.sim, mjOBJ_BODY, "box"), BOX);
	cr_assert_eq(sim_name2id(d.sim, mjOBJ_XBODY, "box"), BOX);
	cr_assert_eq(sim_name2id(d.sim, mjOBJ_KEY, "dropped"), 1);
	cr_assert_eq(sim_name2id(d.sim, mjOBJ_GEOM, "nope"), -1);
	cr_assert_eq(sim_name2id(d.sim, mjOBJ_GEOM, ""), -1);
	cr_assert_eq(sim_name2id(d.sim, mjOBJ_UNKNOWN, "box"), -2);
	cr_assert_eq(sim_name2id(d.sim, 999, "box"), -2);
	cr_assert_str_eq(sim_id2name(d.sim, mjOBJ_SENSOR, 4, &bad), "tip_pos");
	cr_assert_eq(bad, 0);
	cr_assert_str_eq(sim_id2name(d.sim, mjOBJ_XBODY, 2, &bad), "link2");
	cr_assert_str_eq(sim_id2name(d.sim, mjOBJ_EQUALITY, 0, &bad), "couple");
	cr_assert_null(sim_id2name(d.sim, mjOBJ_ACTUATOR, 2, &bad));
	cr_assert_eq(bad, 1);
	cr_assert_null(sim_id2name(d.sim, mjOBJ_ACTUATOR, -1, &bad));
	cr_assert_eq(bad, 1);
	cr_assert_null(sim_id2name(d.sim, mjOBJ_UNKNOWN, 0, &bad));
	cr_assert_eq(bad, 0);
	cr_assert_eq(sim_object_count(d.sim->m, mjOBJ_KEY), 2);
	cr_assert_eq(sim_object_count(d.sim->m, mjOBJ_HFIELD), 1);
	cr_assert_eq(sim_object_count(d.sim->m, mjOBJ_UNKNOWN), -1);
	inproc_stop(&d);
}
