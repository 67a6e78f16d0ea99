/*
 * Unit tests of what is checked in a model before its first step
 * (daemon/sim_check.c), in-process: copies of the test fixture's
 * compiled model (models/test/fixture.xml: a mesh, a height field, an
 * equality, two actuators, seven sensors, two keyframes) with one fault
 * each that MuJoCo 2.2.2 does not see, named in the daemon's words; and
 * the limits model-max-* at and past the fixture's sizes.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <criterion/criterion.h>

#include "daemon.h"
#include "inproc.h"
#include "sim.h"
#include "sim_check.h"
#include "sim_internal.h"

TestSuite(sim_check, .timeout = 30);

static struct daemon d;

static void
setup(void)
{
	inproc_start(&d, NULL);
	inproc_load(&d, "fixture.xml");
}

/* A fault: what it does to a copy of the model. */
typedef void (*fault_fn)(mjModel *);

/*
 * Check a copy of the loaded model with fault done to it: refused with
 * want (NULL: accepted).
 */
static void
check_copy(fault_fn fault, const char *want)
{
	mjModel *m = mj_copyModel(NULL, d.sim->m);
	char err[512] = "";
	int rc;

	cr_assert_not_null(m);
	if (fault != NULL)
		fault(m);
	rc = sim_check_model(m, err, sizeof(err));
	mj_deleteModel(m);
	if (want == NULL)
		cr_assert_eq(rc, 0, "%s", err);
	else {
		cr_assert_eq(rc, -1, "accepted; wanted %s", want);
		cr_assert_str_eq(err, want);
	}
}

static void
integrator(mjModel *m)
{
	m->opt.integrator = 7;
}

static void
cone(mjModel *m)
{
	m->opt.cone = -1;
}

static void
geom_type(mjModel *m)
{
	m->geom_type[0] = 100;
}

static void
geom_condim(mjModel *m)
{
	m->geom_condim[1] = 5;
}

static void
eq_type(mjModel *m)
{
	m->eq_type[0] = 9;
}

static void
trntype(mjModel *m)
{
	m->actuator_trntype[1] = 42;
}

static void
gaintype(mjModel *m)
{
	m->actuator_gaintype[0] = 17;
}

static void
sensor_stage(mjModel *m)
{
	m->sensor_needstage[6] = 9;
}

static void
parent_after(mjModel *m)
{
	m->body_parentid[2] = 3;
}

static void
world_parent(mjModel *m)
{
	m->body_parentid[0] = 1;
}

static void
dof_parent(mjModel *m)
{
	m->dof_parentid[0] = 0;
}

static void
mesh_geom_without_mesh(mjModel *m)
{
	m->geom_dataid[2] = -1;
}

static void
plane_with_data(mjModel *m)
{
	m->geom_dataid[0] = 0;
}

static void
hfield_geom_naming_a_mesh_id(mjModel *m)
{
	m->geom_dataid[1] = 1;
}

static void
material_texture(mjModel *m)
{
	m->mat_texid[1] = 0;
}

static void
hfield_rows(mjModel *m)
{
	m->hfield_nrow[0] = 1;
}

static void
sensor_dim(mjModel *m)
{
	m->sensor_dim[3] = m->nsensordata + 1;
}

static void
key_time(mjModel *m)
{
	m->key_time[1] = NAN;
}

static void
mesh_face(mjModel *m)
{
	m->mesh_face[3 * m->mesh_faceadr[0] + 2] = m->mesh_vertnum[0];
}

static void
mesh_graph(mjModel *m)
{
	m->mesh_graph[m->mesh_graphadr[0]] = 0;
}

Test(sim_check, the_fixture_passes)
{
	setup();
	check_copy(NULL, NULL);
	inproc_stop(&d);
}

Test(sim_check, enumerations_out_of_range)
{
	setup();
	check_copy(integrator, "invalid model: integrator 7");
	check_copy(cone, "invalid model: cone -1");
	check_copy(geom_type, "invalid model: geom 0 has type 100");
	check_copy(geom_condim, "invalid model: geom 1 has condim 5");
	check_copy(eq_type, "invalid model: equality 0 has type 9");
	check_copy(trntype, "invalid model: actuator 1 has transmission 42");
	check_copy(gaintype,
	    "invalid model: actuator 0 has dynamics, gain or bias type 0, "
	    "17, 1");
	check_copy(
	    sensor_stage, "invalid model: sensor 6 has data type 0, stage 9");
	inproc_stop(&d);
}

Test(sim_check, trees_out_of_order)
{
	setup();
	check_copy(parent_after,
	    "invalid model: body 2 names parent 3, root 1, weld 2");
	check_copy(world_parent, "invalid model: no world body");
	check_copy(dof_parent, "invalid model: dof 0 names parent 0");
	inproc_stop(&d);
}

Test(sim_check, objects_naming_what_is_not_there)
{
	setup();
	check_copy(mesh_geom_without_mesh,
	    "invalid model: geom 2 has no mesh or height field");
	check_copy(plane_with_data, "invalid model: geom 0 names data 0");
	check_copy(
	    hfield_geom_naming_a_mesh_id, "invalid model: geom 1 names data 1");
	check_copy(
	    material_texture, "invalid model: material 1 names texture 0");
	check_copy(hfield_rows, "invalid model: height field 0 is 1 x 3");
	check_copy(sensor_dim, "invalid model: sensor 3 has dimension 12");
	check_copy(key_time, "invalid model: key 1 has no time");
	inproc_stop(&d);
}

Test(sim_check, mesh_contents)
{
	setup();
	check_copy(mesh_face, "invalid model: mesh 0: a face names vertex 4");
	check_copy(mesh_graph,
	    "invalid model: mesh 0: graph of 0 vertices, 4 "
	    "faces");
	inproc_stop(&d);
}

Test(sim_check, the_message_is_cut_to_the_buffer)
{
	mjModel *m;
	char err[20];

	setup();
	m = mj_copyModel(NULL, d.sim->m);
	geom_type(m);
	cr_assert_eq(sim_check_model(m, err, sizeof(err)), -1);
	cr_assert_str_eq(err, "invalid model: geom");
	cr_assert_eq(sim_check_model(m, err, 5), -1);
	cr_assert_str_eq(err, "inva");
	mj_deleteModel(m);
	inproc_stop(&d);
}

Test(sim_check, limits_at_and_past_the_models_sizes)
{
	/* The fixture: 5 bodies, 2 keys, a 3 x 3 height field, 4 vertices. */
	const struct sim_limits at = { .bodies = 5,
		.keys = 2,
		.hfield_cells = 9,
		.texture_pixels = 0,
		.mesh_vertices = 4 };
	struct sim_limits l;
	char err[256] = "";

	setup();
	cr_assert_eq(
	    sim_check_limits(d.sim, &at, err, sizeof(err)), 0, "%s", err);
	l = at;
	l.bodies = 4;
	cr_assert_eq(sim_check_limits(d.sim, &l, err, sizeof(err)), -1);
	cr_assert_str_eq(
	    err, "the model has 5 bodies, more than 4 (model-max-bodies)");
	l = at;
	l.keys = 1;
	cr_assert_eq(sim_check_limits(d.sim, &l, err, sizeof(err)), -1);
	cr_assert_str_eq(
	    err, "the model has 2 keys, more than 1 (model-max-keys)");
	l = at;
	l.hfield_cells = 8;
	cr_assert_eq(sim_check_limits(d.sim, &l, err, sizeof(err)), -1);
	cr_assert_str_eq(err,
	    "height field 0 has 3 x 3 cells, more than 8 (model-max-hfield)");
	l = at;
	l.mesh_vertices = 3;
	cr_assert_eq(sim_check_limits(d.sim, &l, err, sizeof(err)), -1);
	cr_assert_str_eq(err,
	    "the meshes have 4 vertices, more than 3 (model-max-mesh-vertices)");
	inproc_stop(&d);
}

Test(sim_check, texture_pixels_limit)
{
	/* models/test/workbench.xml: one texture, 64 x 64. */
	struct sim_limits l = { .bodies = 1000,
		.keys = 1000,
		.hfield_cells = 1000000,
		.texture_pixels = 4096,
		.mesh_vertices = 1000000 };
	char err[256] = "";

	inproc_start(&d, NULL);
	inproc_load(&d, "workbench.xml");
	cr_assert_eq(
	    sim_check_limits(d.sim, &l, err, sizeof(err)), 0, "%s", err);
	l.texture_pixels = 4095;
	cr_assert_eq(sim_check_limits(d.sim, &l, err, sizeof(err)), -1);
	cr_assert_str_eq(err,
	    "texture 0 has 64 x 64 pixels, more than 4095 (model-max-texture)");
	inproc_stop(&d);
}
