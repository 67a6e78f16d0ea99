/*
 * Unit tests of the simulation's life (daemon/sim.c), in-process: the
 * test fixture loaded from its file, from memory and as MJB into a real
 * sim; a failed load keeping the model that runs; MJB recognised and
 * written byte-exact; names and paths; resets; MuJoCo's errors caught;
 * the API rate override; the small setters and readers.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "daemon.h"
#include "inproc.h"
#include "sim.h"
#include "sim_array.h"
#include "sim_internal.h"
#include "sim_state.h"

TestSuite(sim, .timeout = 30);

static struct daemon d;

static void
setup(void)
{
	inproc_start(&d, NULL);
	inproc_load(&d, "fixture.xml");
}

Test(sim, a_sim_without_a_model)
{
	struct sim *s = sim_create();

	cr_assert_eq(sim_loaded(s), 0);
	cr_assert_eq(sim_time(s), 0);
	cr_assert_str_eq(sim_model_name(s), "");
	cr_assert_eq(sim_counters(s)->steps, 0);
	sim_free(s);
	sim_free(NULL);
}

Test(sim, the_fixture_from_its_file)
{
	const struct sim_sizes *z;

	setup();
	cr_assert_eq(sim_loaded(d.sim), 1);
	cr_assert_str_eq(sim_model_name(d.sim), "fixture");
	cr_assert_not_null(
	    strstr(sim_model_path(d.sim), "/models/test/fixture.xml"));
	z = sim_sizes(d.sim);
	cr_assert_eq(z->nq, 9);
	cr_assert_eq(z->nv, 8);
	cr_assert_eq(z->nu, 2);
	cr_assert_eq(z->nbody, 5);
	cr_assert_eq(z->nkey, 2);
	cr_assert_eq(z->nmocap, 1);
	cr_assert_eq(z->nsensordata, 11);
	cr_assert_eq(z->timestep, 0.002);
	cr_assert_eq(z->apirate, 50);
	cr_assert_eq(sim_arrays(d.sim)->qpos[2], 0.6);
	cr_assert_eq(sim_counters(d.sim)->steps, 0);
	inproc_stop(&d);
}

Test(sim, a_failed_load_keeps_the_model_that_runs)
{
	static const char bad[] = "<mujoco><worldbody><geom type=\"nope\"/>"
				  "</worldbody></mujoco>";
	static const char broken[] = "<mujoco><worldbody>";
	char err[1024] = "";
	char path[4096];

	setup();
	cr_assert_eq(sim_load_buffer(d.sim, SIM_FORMAT_MJCF, bad, strlen(bad),
			 "bad", NULL, err, sizeof(err)),
	    -1);
	cr_assert_not_null(strstr(err, "nope"), "MuJoCo's words: %s", err);
	cr_assert_eq(sim_load_buffer(d.sim, SIM_FORMAT_MJCF, broken,
			 strlen(broken), "broken", NULL, err, sizeof(err)),
	    -1);
	cr_assert_neq(err[0], '\0');
	cr_assert_eq(sim_load_buffer(d.sim, SIM_FORMAT_MJCF, bad, 0, "empty",
			 NULL, err, sizeof(err)),
	    -1);
	cr_assert_str_eq(err, "model of 0 bytes cannot be loaded");
	snprintf(path, sizeof(path), "%s/no-such-model.xml",
	    getenv("HX_TEST_MODELS"));
	cr_assert_eq(sim_load_file(d.sim, path, err, sizeof(err)), -1);
	cr_assert_neq(err[0], '\0');
	cr_assert_str_eq(sim_model_name(d.sim), "fixture");
	cr_assert_eq(sim_sizes(d.sim)->nq, 9);
	cr_assert_eq(sim_arrays(d.sim)->qpos[2], 0.6);
	inproc_stop(&d);
}

Test(sim, names_of_models_from_memory)
{
	static const char unnamed[] = "<mujoco><worldbody><geom size=\"1\"/>"
				      "</worldbody></mujoco>";
	static const char named[] = "<mujoco model=\"mine\"><worldbody/>"
				    "</mujoco>";
	char err[1024] = "";

	inproc_start(&d, NULL);
	cr_assert_eq(sim_load_buffer(d.sim, SIM_FORMAT_AUTO, unnamed,
			 strlen(unnamed), "thing", NULL, err, sizeof(err)),
	    0, "%s", err);
	cr_assert_str_eq(sim_model_name(d.sim), "thing");
	cr_assert_str_eq(sim_model_path(d.sim), "");
	cr_assert_eq(sim_load_buffer(d.sim, SIM_FORMAT_MJCF, unnamed,
			 strlen(unnamed), NULL, NULL, err, sizeof(err)),
	    0, "%s", err);
	cr_assert_str_eq(sim_model_name(d.sim), "inline");
	cr_assert_eq(
	    sim_load_buffer(d.sim, SIM_FORMAT_MJCF, unnamed, strlen(unnamed),
		"ignored", "/no/such/dir/arm.v2.xml", err, sizeof(err)),
	    0, "%s", err);
	cr_assert_str_eq(sim_model_name(d.sim), "arm.v2");
	cr_assert_str_eq(sim_model_path(d.sim), "/no/such/dir/arm.v2.xml");
	cr_assert_eq(sim_load_buffer(d.sim, SIM_FORMAT_MJCF, named,
			 strlen(named), "thing", NULL, err, sizeof(err)),
	    0, "%s", err);
	cr_assert_str_eq(sim_model_name(d.sim), "mine", "the model's own");
	/*
	 * The file in memory goes by the name MuJoCo looks for: the base
	 * name in lower case, whatever the path's case and separators.
	 */
	cr_assert_eq(
	    sim_load_buffer(d.sim, SIM_FORMAT_MJCF, unnamed, strlen(unnamed),
		NULL, "/No/Such/DIR/Arm.XML", err, sizeof(err)),
	    0, "%s", err);
	cr_assert_str_eq(sim_model_path(d.sim), "/No/Such/DIR/Arm.XML");
	cr_assert_eq(
	    sim_load_buffer(d.sim, SIM_FORMAT_MJCF, unnamed, strlen(unnamed),
		NULL, "C:\\models\\Hand.xml", err, sizeof(err)),
	    0, "%s", err);
	inproc_stop(&d);
}

Test(sim, mjb_recognised)
{
	static const unsigned char magic[] = { 0x31, 0xd4, 0, 0, 7 };

	cr_assert_eq(sim_is_mjb(SIM_FORMAT_AUTO, magic, 5), 1);
	cr_assert_eq(sim_is_mjb(SIM_FORMAT_AUTO, magic, 4), 1);
	cr_assert_eq(sim_is_mjb(SIM_FORMAT_AUTO, magic, 3), 0, "too short");
	cr_assert_eq(sim_is_mjb(SIM_FORMAT_AUTO, "<mujoco/>", 9), 0);
	cr_assert_eq(sim_is_mjb(SIM_FORMAT_MJCF, magic, 5), 0, "as told");
	cr_assert_eq(sim_is_mjb(SIM_FORMAT_MJB, "<mujoco/>", 9), 1, "as told");
}

Test(sim, mjb_written_byte_exact_and_loaded_back)
{
	size_t size, n, n2;
	unsigned char *buf, *again;
	char err[1024] = "";
	double qpos0[9];

	setup();
	memcpy(qpos0, d.sim->m->qpos0, sizeof(qpos0));
	size = sim_mjb_size(d.sim);
	cr_assert_gt(size, 0);
	buf = malloc(size);
	again = malloc(size);
	n = sim_mjb_save(d.sim, buf, size);
	cr_assert_gt(n, 0);
	cr_assert_leq(n, size);
	cr_assert_eq(sim_is_mjb(SIM_FORMAT_AUTO, buf, n), 1);
	/*
	 * Exactly n bytes written: saved over two different fills, the two
	 * agree up to n (the model) and differ from there (untouched).
	 */
	memset(buf, 0xaa, size);
	memset(again, 0x55, size);
	cr_assert_eq(sim_mjb_save(d.sim, buf, size), n);
	n2 = sim_mjb_save(d.sim, again, size);
	cr_assert_eq(n2, n);
	cr_assert_arr_eq(buf, again, n);
	for (size_t i = n; i < size; i++)
		cr_assert(buf[i] == 0xaa && again[i] == 0x55,
		    "byte %zu of %zu written past the %zu counted", i, size, n);
	cr_assert_neq(buf[n - 1] == 0xaa && again[n - 1] == 0x55, 1,
	    "the last byte counted was not written");
	cr_assert_eq(sim_load_buffer(d.sim, SIM_FORMAT_AUTO, buf, n, "copy",
			 NULL, err, sizeof(err)),
	    0, "%s", err);
	cr_assert_str_eq(sim_model_name(d.sim), "fixture");
	cr_assert_eq(sim_sizes(d.sim)->nq, 9);
	cr_assert_arr_eq(d.sim->m->qpos0, qpos0, sizeof(qpos0));
	/* what it writes again is the same bytes */
	cr_assert_eq(sim_mjb_save(d.sim, again, size), n);
	cr_assert_arr_eq(buf, again, n);
	free(buf);
	free(again);
	cr_assert_gt(sim_mujoco_version(), 200);
	inproc_stop(&d);
}

Test(sim, resets)
{
	char err[256];
	int i;

	setup();
	for (i = 0; i < 5; i++)
		cr_assert_eq(sim_step(d.sim, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(sim_counters(d.sim)->steps, 5);
	cr_assert(fabs(sim_time(d.sim) - 0.01) < 1e-15);
	sim_reset(d.sim, 1);
	cr_assert_eq(sim_time(d.sim), 1, "keyframe dropped's time");
	cr_assert_eq(sim_arrays(d.sim)->qpos[4], 1.0);
	cr_assert_eq(sim_counters(d.sim)->steps, 0);
	sim_reset(d.sim, -1);
	cr_assert_eq(sim_time(d.sim), 0);
	cr_assert_eq(sim_arrays(d.sim)->qpos[4], 0.1, "qpos0");
	inproc_stop(&d);
}

/* A call that MuJoCo stops with an error. */
static void
raise_error(void *arg)
{
	(void)arg;
	mju_error("boom");
}

/* A call that errs inside another protected call, caught inside. */
static void
nested(void *arg)
{
	char err[128];

	*(int *)arg = sim_protect(d.sim, raise_error, NULL, err, sizeof(err));
}

Test(sim, mujoco_errors_are_caught)
{
	static const double t = 5;
	char err[256] = "";
	int inner = 0;

	setup();
	sim_set_state(d.sim, (const double[9]){ 0.5, 0, 0.6, 0, 0.1, 1 },
	    (const double[8]){ 0 }, NULL);
	cr_assert_eq(sim_array_set(d.sim,
			 sim_array_find("time", &(const char *){ NULL }), 0, 1,
			 &t, err, sizeof(err)),
	    0);
	cr_assert_eq(
	    sim_protect(d.sim, raise_error, NULL, err, sizeof(err)), -1);
	cr_assert_str_eq(err, "MuJoCo error: boom");
	cr_assert_eq(sim_counters(d.sim)->errors, 1);
	cr_assert_eq(sim_time(d.sim), 0, "the data reset");
	cr_assert_eq(sim_arrays(d.sim)->qpos[0], 0);
	cr_assert_eq(sim_protect(d.sim, nested, &inner, err, sizeof(err)), 0);
	cr_assert_eq(inner, -1, "caught by the inner call");
	cr_assert_eq(sim_counters(d.sim)->errors, 2);
	inproc_stop(&d);
}

Test(sim, the_api_rate_override)
{
	setup();
	sim_set_api_rate(d.sim, 25);
	cr_assert_eq(sim_sizes(d.sim)->apirate, 25);
	inproc_load(&d, "fixture.xml");
	cr_assert_eq(sim_sizes(d.sim)->apirate, 25, "kept across a load");
	sim_set_api_rate(d.sim, -1);
	cr_assert_eq(sim_sizes(d.sim)->apirate, 50, "the model's");
	inproc_stop(&d);
}

Test(sim, small_setters_and_readers)
{
	static const double f6[6] = { 1, 2, 3, 4, 5, 6 };
	const double *x;
	double e[2];
	int nefc, ncon;
	uint64_t edits;

	setup();
	cr_assert_eq(sim_mocap_body(d.sim, 0), 4, "marker");
	cr_assert_eq(sim_mocap_body(d.sim, 1), -1);
	cr_assert_eq(sim_body_mocap(d.sim, 4), 0);
	cr_assert_eq(sim_body_mocap(d.sim, 3), -1);
	sim_mocap_set_one(d.sim, 0, (const double[]){ 1, 2, 3 },
	    (const double[]){ 0, 1, 0, 0 });
	x = sim_arrays(d.sim)->mocap_pos;
	cr_assert_arr_eq(x, ((const double[]){ 1, 2, 3 }), 3 * sizeof(double));
	cr_assert_eq(sim_arrays(d.sim)->mocap_quat[1], 1);
	sim_set_mocap(
	    d.sim, (const double[]){ 4, 5, 6 }, (const double[]){ 0, 0, 0, 2 });
	cr_assert_arr_eq(sim_arrays(d.sim)->mocap_quat,
	    ((const double[]){ 0, 0, 0, 1 }), 4 * sizeof(double), "normalised");
	cr_assert_arr_eq(sim_arrays(d.sim)->xpos + 3 * 4,
	    ((const double[]){ 4, 5, 6 }), 3 * sizeof(double),
	    "forward followed");
	sim_xfrc_set_one(d.sim, 3, f6);
	cr_assert_arr_eq(sim_arrays(d.sim)->xfrc_applied + 18, f6, sizeof(f6));
	edits = sim_counters(d.sim)->model_edits;
	sim_equality(d.sim, 0, 7);
	cr_assert_eq(d.sim->m->eq_active[0], 1);
	sim_equality(d.sim, 0, 0);
	cr_assert_eq(d.sim->m->eq_active[0], 0);
	cr_assert_eq(sim_counters(d.sim)->model_edits, edits + 2);
	/* energy: the box 1 kg at 0.1 m, the links and nothing moving */
	sim_energy(d.sim, e);
	cr_assert_eq(e[1], 0, "nothing moves");
	cr_assert_neq(e[0], 0);
	cr_assert_eq(d.sim->m->opt.enableflags & mjENBL_ENERGY, 0,
	    "the model's flags as they were");
	sim_constraints(d.sim, &nefc, &ncon);
	cr_assert_eq(nefc, d.sim->d->nefc);
	cr_assert_eq(ncon, d.sim->d->ncon);
	cr_assert_gt(ncon, 0, "the box touches the floor");
	inproc_stop(&d);
}
