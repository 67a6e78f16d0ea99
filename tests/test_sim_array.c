/*
 * Unit tests of the arrays by name (daemon/sim_array.c), in-process: the
 * test fixture (models/test/fixture.xml) loaded into a real sim, its
 * arrays found, described, read and written, and each kind of refusal
 * by its words with nothing written.
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
#include "sim_state.h"

TestSuite(sim_array, .timeout = 30);

static struct daemon d;

/* The fixture: 3 joints (2 hinges, 1 free), 7 geoms, 5 bodies. */
#define NQ 9
#define NGEOM 7
#define BOX_BODY 3
#define BOX_GEOM 5

static void
setup(void)
{
	inproc_start(&d, NULL);
	inproc_load(&d, "fixture.xml");
}

/* The id of an array that must exist. */
static int
find(const char *name)
{
	const char *why;
	int id = sim_array_find(name, &why);

	cr_assert_geq(id, 0, "no array %s", name);
	cr_assert_null(why);
	return id;
}

/* Describe an array by name. */
static struct sim_array_info
describe(const char *name)
{
	struct sim_array_info info;

	sim_array_describe(d.sim, find(name), &info);
	return info;
}

/* Write v into array name from offset: must succeed. */
static void
set_ok(const char *name, size_t offset, size_t n, const double *v)
{
	char err[512] = "";

	cr_assert_eq(
	    sim_array_set(d.sim, find(name), offset, n, v, err, sizeof(err)), 0,
	    "%s: %s", name, err);
}

/*
 * Write v into array name from offset: must be refused with want, the
 * array unchanged.
 */
static void
set_refused(const char *name, size_t offset, size_t n, const double *v,
    const char *want)
{
	struct sim_array_info info = describe(name);
	size_t total = (size_t)info.rows * (size_t)info.cols;
	double before[256], after[256];
	char err[1024] = "";

	cr_assert_leq(total, 256);
	sim_array_get(d.sim, find(name), before);
	cr_assert_eq(
	    sim_array_set(d.sim, find(name), offset, n, v, err, sizeof(err)),
	    -1, "%s written", name);
	cr_assert_str_eq(err, want);
	sim_array_get(d.sim, find(name), after);
	cr_assert_arr_eq(before, after, total * sizeof(double),
	    "%s changed by a refused write", name);
}

Test(sim_array, find_by_name_and_owner)
{
	const char *why;

	setup();
	cr_assert_gt(sim_array_count(), 100);
	cr_assert_eq(find("qpos"), find("data.qpos"));
	cr_assert_eq(find("geom_rgba"), find("model.geom_rgba"));
	cr_assert_eq(sim_array_find("model.qpos", &why), -1);
	cr_assert_null(why);
	cr_assert_eq(sim_array_find("data.geom_rgba", &why), -1);
	cr_assert_null(why);
	cr_assert_eq(sim_array_find("nope", &why), -1);
	cr_assert_null(why);
	cr_assert_eq(sim_array_find("contact", &why), -1);
	cr_assert_str_eq(why,
	    "is an array of mjContact structs, not numbers: get_contact "
	    "reports the contacts");
	cr_assert_eq(sim_array_find("model.contact", &why), -1);
	cr_assert_null(why);
	cr_assert_eq(sim_array_find("names", &why), -1);
	cr_assert_str_eq(why, "is text, not numbers: id2name reads names");
	cr_assert_eq(sim_array_find("model.text_data", &why), -1);
	cr_assert_str_eq(why, "is text, not numbers: id2name reads names");
	cr_assert_eq(sim_array_find("data.names", &why), -1);
	cr_assert_null(why);
	inproc_stop(&d);
}

Test(sim_array, every_id_is_found_by_its_owner_and_name)
{
	struct sim_array_info info;
	char name[128];
	int id, n = sim_array_count();

	setup();
	for (id = 0; id < n; id++) {
		sim_array_describe(d.sim, id, &info);
		snprintf(name, sizeof(name), "%s.%s", info.owner, info.name);
		cr_assert_eq(find(name), id, "%s", name);
		cr_assert_geq(info.rows, 0, "%s", name);
		cr_assert_geq(info.cols, 0, "%s", name);
	}
	inproc_stop(&d);
}

Test(sim_array, shapes_and_types_follow_the_model)
{
	struct sim_array_info info;
	int ncon;
	int nefc;

	setup();
	info = describe("qpos");
	cr_assert_str_eq(info.owner, "data");
	cr_assert_eq(info.type, SIM_ARRAY_DOUBLE);
	cr_assert_eq(info.rows, NQ);
	cr_assert_eq(info.cols, 1);
	cr_assert_null(info.refusal);
	info = describe("geom_rgba");
	cr_assert_str_eq(info.owner, "model");
	cr_assert_eq(info.type, SIM_ARRAY_FLOAT);
	cr_assert_eq(info.rows, NGEOM);
	cr_assert_eq(info.cols, 4);
	cr_assert_null(info.refusal);
	info = describe("jnt_type");
	cr_assert_eq(info.type, SIM_ARRAY_INT);
	cr_assert_eq(info.rows, 3);
	cr_assert_str_eq(info.refusal,
	    "model structure: ids, addresses, counts, types and compiled "
	    "flags are fixed when MuJoCo compiles the model");
	info = describe("jnt_limited");
	cr_assert_eq(info.type, SIM_ARRAY_BYTE);
	cr_assert_null(info.refusal);
	info = describe("xpos");
	cr_assert_eq(info.rows, 5);
	cr_assert_eq(info.cols, 3);
	cr_assert_str_eq(info.refusal,
	    "computed from the state by mj_forward and mj_step; a write "
	    "would be overwritten at the next step");
	info = describe("time");
	cr_assert_eq(info.rows, 1);
	cr_assert_eq(info.cols, 1);
	cr_assert_null(info.refusal);
	info = describe("key_qpos");
	cr_assert_eq(info.rows, 2);
	cr_assert_eq(info.cols, NQ);
	info = describe("mesh_vert");
	cr_assert_str_eq(info.refusal,
	    "asset data: compiled once into collision and rendering "
	    "structures");
	info = describe("body_subtreemass");
	cr_assert_str_eq(info.refusal,
	    "computed by mj_setConst from the rest of the model (the daemon "
	    "recomputes it after writes of body_mass, body_inertia and "
	    "dof_armature)");
	/* The constraint arrays are as many rows as this step's. */
	sim_constraints(d.sim, &nefc, &ncon);
	info = describe("efc_J");
	cr_assert_eq(info.rows, nefc);
	cr_assert_eq(info.cols, 8, "nv columns");
	inproc_stop(&d);
}

Test(sim_array, get_reads_each_type_as_doubles)
{
	double v[64];

	setup();
	sim_array_get(d.sim, find("qpos"), v);
	cr_assert_arr_eq(v, ((const double[]){ 0, 0, 0.6, 0, 0.1, 1, 0, 0, 0 }),
	    NQ * sizeof(double));
	sim_array_get(d.sim, find("geom_rgba"), v);
	cr_assert_eq(v[4 * BOX_GEOM + 0], (double)0.2f);
	cr_assert_eq(v[4 * BOX_GEOM + 1], (double)0.5f);
	cr_assert_eq(v[4 * BOX_GEOM + 2], (double)0.9f);
	cr_assert_eq(v[4 * BOX_GEOM + 3], 1);
	sim_array_get(d.sim, find("jnt_type"), v);
	cr_assert_arr_eq(v, ((const double[]){ 3, 3, 0 }), 3 * sizeof(double),
	    "hinge, hinge, free");
	sim_array_get(d.sim, find("jnt_limited"), v);
	cr_assert_arr_eq(v, ((const double[]){ 1, 0, 0 }), 3 * sizeof(double));
	sim_array_get(d.sim, find("actuator_ctrlrange"), v);
	cr_assert_arr_eq(
	    v, ((const double[]){ -1, 1, -2, 2 }), 4 * sizeof(double));
	inproc_stop(&d);
}

Test(sim_array, writes_of_each_type_land)
{
	static const double q[2] = { 0.25, -0.5 };
	static const double flag = 1, contype = 7, rgba = 0.125, t = 3.5;
	double v[64];
	uint64_t edits;

	setup();
	edits = sim_counters(d.sim)->model_edits;
	set_ok("qpos", 0, 2, q);
	sim_array_get(d.sim, find("qpos"), v);
	cr_assert_eq(v[0], 0.25);
	cr_assert_eq(v[1], -0.5);
	cr_assert_eq(sim_counters(d.sim)->model_edits, edits,
	    "a data write is no model edit");
	/* mj_forward followed: the tip's sensor moved with the joints */
	sim_array_get(d.sim, find("sensordata"), v);
	cr_assert_eq(v[0], 0.25, "jointpos q1");
	cr_assert_eq(v[1], -0.5, "jointpos q2");
	set_ok("eq_active", 0, 1, &flag);
	sim_array_get(d.sim, find("eq_active"), v);
	cr_assert_eq(v[0], 1);
	set_ok("geom_contype", BOX_GEOM, 1, &contype);
	sim_array_get(d.sim, find("geom_contype"), v);
	cr_assert_eq(v[BOX_GEOM], 7);
	set_ok("geom_rgba", 4 * BOX_GEOM + 1, 1, &rgba);
	sim_array_get(d.sim, find("geom_rgba"), v);
	cr_assert_eq(v[4 * BOX_GEOM + 0], (double)0.2f, "its neighbours stay");
	cr_assert_eq(v[4 * BOX_GEOM + 1], 0.125);
	cr_assert_eq(v[4 * BOX_GEOM + 2], (double)0.9f);
	cr_assert_eq(sim_counters(d.sim)->model_edits, edits + 3);
	set_ok("time", 0, 1, &t);
	cr_assert_eq(sim_time(d.sim), 3.5);
	/* zero values: nothing, not even an edit counted */
	set_ok("geom_rgba", 0, 0, &rgba);
	cr_assert_eq(sim_counters(d.sim)->model_edits, edits + 3);
	inproc_stop(&d);
}

Test(sim_array, a_mass_write_recomputes_what_setconst_derives)
{
	static const double mass = 3;
	double v[NQ],
	    qpos[NQ]; /* v holds body_subtreemass (nbody 5), then qpos */

	setup();
	sim_array_get(d.sim, find("body_subtreemass"), v);
	cr_assert_eq(v[BOX_BODY], 1);
	sim_array_get(d.sim, find("qpos"), qpos);
	set_ok("body_mass", BOX_BODY, 1, &mass);
	sim_array_get(d.sim, find("body_subtreemass"), v);
	cr_assert_eq(v[BOX_BODY], 3);
	sim_array_get(d.sim, find("qpos"), v);
	cr_assert_arr_eq(
	    v, qpos, NQ * sizeof(double), "the state kept across setConst");
	inproc_stop(&d);
}

Test(sim_array, refusals_by_type_domain_and_rule)
{
	const double nan = NAN, neg = -1, half = 1.5, two = 2, big = 1e39,
		     low = 2, zero[4] = { 0, 0, 0, 0 }, size[3] = { 1, 1, 1 };

	setup();
	set_refused("geom_size", 0, 3, size,
	    "geom_size is not writable: use set_geomsize: it checks the size "
	    "against the geom's type and keeps geom_rbound consistent");
	set_refused("xpos", 0, 1, &neg,
	    "xpos is not writable: computed from the state by mj_forward and "
	    "mj_step; a write would be overwritten at the next step");
	set_refused("body_pos", 3, 1, &neg,
	    "body_pos is not writable: model geometry: compiled flags "
	    "(body_simple, *_sameframe) and mj_setConst's quantities depend "
	    "on it; move bodies through qpos or mocap_pos instead");
	set_refused(
	    "qpos", 3, 1, &nan, "qpos[3] is nan: values must be finite");
	set_refused("geom_contype", 2, 1, &half,
	    "geom_contype[2] is 1.5: an int array takes whole numbers from "
	    "-2147483648 to 2147483647");
	set_refused(
	    "eq_active", 0, 1, &two, "eq_active[0] is 2: a flag is 0 or 1");
	set_refused("eq_active", 0, 1, &neg,
	    "eq_active[0] is -1: a byte array takes whole numbers from 0 to "
	    "255");
	set_refused("geom_rgba", 5, 1, &half,
	    "geom_rgba[5] is 1.5: values must be from 0 to 1");
	set_refused("geom_rgba", 5, 1, &big,
	    "geom_rgba[5] is 9.9999999999999994e+38: a float array takes "
	    "magnitudes up to 3.4e38");
	set_refused("dof_damping", 1, 1, &neg,
	    "dof_damping[1] is -1: values must not be negative");
	/* hinge1's range is (-1.5, 1.5): a lower bound of 2 inverts it */
	set_refused("jnt_range", 0, 1, &low,
	    "jnt_range row 0 would be (2, 1.5): the lower bound must not "
	    "exceed the upper");
	set_refused("mocap_quat", 0, 4, zero,
	    "mocap_quat row 0 would be the zero quaternion");
	/* one bad value among good ones: none written */
	set_refused("qpos", 0, 4, ((const double[]){ 1, 2, NAN, 4 }),
	    "qpos[2] is nan: values must be finite");
	inproc_stop(&d);
}
