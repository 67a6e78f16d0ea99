/*
 * Unit tests of the model's description in the protocol's terms
 * (daemon/sim_describe.c), in-process: the test fixture in a real sim,
 * its ModelSummary and Info filled, every field's count and values
 * checked against the fixture (models/test/fixture.xml), and the
 * numbering of MuJoCo's sensor types in the protocol's.
 */
#include "config.h"

#include <string.h>

#include <criterion/criterion.h>

#include "arena.h"
#include "daemon.h"
#include "haptix.pb-c.h"
#include "inproc.h"
#include "sim.h"
#include "sim_describe.h"

TestSuite(sim_describe, .timeout = 30);

static struct daemon d;

static void
setup(void)
{
	inproc_start(&d, NULL);
	inproc_load(&d, "fixture.xml");
}

Test(sim_describe, summary_of_the_fixture)
{
	Haptix__V1__ModelSummary sum;
	struct sim *s = sim_create();

	sim_describe_summary(s, &sum);
	cr_assert_eq(sum.nq, 0, "no model: an empty summary");
	cr_assert_str_eq(sum.name, "");
	sim_free(s);
	setup();
	sim_describe_summary(d.sim, &sum);
	cr_assert_str_eq(sum.name, "fixture");
	cr_assert_not_null(
	    strstr(sum.path, "/models/test/fixture.xml"), "%s", sum.path);
	cr_assert_eq(sum.nq, 9);
	cr_assert_eq(sum.nv, 8);
	cr_assert_eq(sum.na, 0);
	cr_assert_eq(sum.nu, 2);
	cr_assert_eq(sum.nbody, 5);
	cr_assert_eq(sum.njnt, 3);
	cr_assert_eq(sum.ngeom, 7);
	cr_assert_eq(sum.nsite, 2);
	cr_assert_eq(sum.ntendon, 1);
	cr_assert_eq(sum.neq, 1);
	cr_assert_eq(sum.nkey, 2);
	cr_assert_eq(sum.nmocap, 1);
	cr_assert_eq(sum.nsensor, 7);
	cr_assert_eq(sum.nsensordata, 11);
	cr_assert_eq(sum.nmat, 2);
	cr_assert_eq(sum.timestep, 0.002);
	cr_assert_eq(sum.apirate, 50);
	/* the API rate in effect: an override */
	sim_set_api_rate(d.sim, 25);
	sim_describe_summary(d.sim, &sum);
	cr_assert_eq(sum.apirate, 25);
	inproc_stop(&d);
}

Test(sim_describe, info_of_the_fixture)
{
	static const Haptix__V1__SensorType sensors[7] = {
		HAPTIX__V1__SENSOR_TYPE__SENSOR_JOINTPOS,
		HAPTIX__V1__SENSOR_TYPE__SENSOR_JOINTPOS,
		HAPTIX__V1__SENSOR_TYPE__SENSOR_JOINTVEL,
		HAPTIX__V1__SENSOR_TYPE__SENSOR_ACTUATORFRC,
		HAPTIX__V1__SENSOR_TYPE__SENSOR_FRAMEPOS,
		HAPTIX__V1__SENSOR_TYPE__SENSOR_TENDONPOS,
		HAPTIX__V1__SENSOR_TYPE__SENSOR_ACCELEROMETER,
	};
	struct arena a = { 0 };
	Haptix__V1__Info info;
	size_t i;

	setup();
	sim_describe_info(d.sim, &a, &info);
	cr_assert_str_eq(info.model->name, "fixture");
	cr_assert_eq(info.model->nq, 9);
	cr_assert_eq(info.n_sensor_type, 7);
	for (i = 0; i < 7; i++)
		cr_assert_eq(info.sensor_type[i], sensors[i], "sensor %zu", i);
	cr_assert_arr_eq(info.sensor_dim,
	    ((const int32_t[]){ 1, 1, 1, 1, 3, 1, 3 }), 7 * sizeof(int32_t));
	cr_assert_arr_eq(info.sensor_adr,
	    ((const int32_t[]){ 0, 1, 2, 3, 4, 7, 8 }), 7 * sizeof(int32_t));
	cr_assert_eq(info.sensor_objtype[4], HAPTIX__V1__OBJ_TYPE__OBJ_SITE);
	cr_assert_eq(info.sensor_objid[4], 1, "the site tip");
	cr_assert_eq(info.n_sensor_noise, 7);
	cr_assert_eq(info.n_jnt_type, 3);
	cr_assert_eq(info.jnt_type[0], HAPTIX__V1__JOINT_TYPE__JOINT_HINGE);
	cr_assert_eq(info.jnt_type[2], HAPTIX__V1__JOINT_TYPE__JOINT_FREE);
	cr_assert_arr_eq(info.jnt_qposadr, ((const int32_t[]){ 0, 1, 2 }),
	    3 * sizeof(int32_t));
	cr_assert_arr_eq(info.jnt_dofadr, ((const int32_t[]){ 0, 1, 2 }),
	    3 * sizeof(int32_t));
	cr_assert_arr_eq(info.jnt_bodyid, ((const int32_t[]){ 1, 2, 3 }),
	    3 * sizeof(int32_t));
	cr_assert_eq(info.n_jnt_limited, 3);
	cr_assert(info.jnt_limited[0] && !info.jnt_limited[1] &&
	    !info.jnt_limited[2]);
	cr_assert_eq(info.n_jnt_range, 6);
	cr_assert_eq(info.jnt_range[0], -1.5);
	cr_assert_eq(info.jnt_range[1], 1.5);
	cr_assert_eq(info.n_geom_type, 7);
	cr_assert_eq(info.geom_type[0], HAPTIX__V1__GEOM_TYPE__GEOM_PLANE);
	cr_assert_eq(info.geom_type[2], HAPTIX__V1__GEOM_TYPE__GEOM_MESH);
	cr_assert_eq(info.geom_type[5], HAPTIX__V1__GEOM_TYPE__GEOM_BOX);
	cr_assert_eq(info.geom_bodyid[5], 3);
	cr_assert_eq(info.n_eq_type, 1);
	cr_assert_eq(info.eq_type[0], HAPTIX__V1__EQ_TYPE__EQ_JOINT);
	cr_assert_eq(info.eq_obj1id[0], 1, "hinge2");
	cr_assert_eq(info.eq_obj2id[0], 0, "hinge1");
	cr_assert_eq(info.n_actuator_trnid, 4);
	cr_assert_arr_eq(info.actuator_trnid,
	    ((const int32_t[]){ 0, -1, 1, -1 }), 4 * sizeof(int32_t));
	cr_assert(info.actuator_ctrllimited[0] && info.actuator_ctrllimited[1]);
	cr_assert_eq(info.actuator_ctrlrange[3], 2);
	cr_assert_arr_eq(info.body_parentid,
	    ((const int32_t[]){ 0, 0, 1, 0, 0 }), 5 * sizeof(int32_t));
	cr_assert_arr_eq(info.body_mocapid,
	    ((const int32_t[]){ -1, -1, -1, -1, 0 }), 5 * sizeof(int32_t));
	cr_assert_eq(info.n_body_name, 5);
	cr_assert_str_eq(info.body_name[0], "world");
	cr_assert_str_eq(info.body_name[4], "marker");
	cr_assert_str_eq(info.jnt_name[2], "box");
	cr_assert_str_eq(info.geom_name[1], "terrain");
	cr_assert_str_eq(info.site_name[1], "tip");
	cr_assert_str_eq(info.tendon_name[0], "sum");
	cr_assert_str_eq(info.actuator_name[1], "servo2");
	cr_assert_str_eq(info.sensor_name[6], "acc");
	cr_assert_str_eq(info.eq_name[0], "couple");
	cr_assert_str_eq(info.key_name[1], "dropped");
	cr_assert_eq(info.n_mat_name, 2);
	cr_assert_str_eq(info.mat_name[1], "green");
	arena_free(&a);
	inproc_stop(&d);
}

Test(sim_describe, unnamed_objects_are_empty_names)
{
	static const char
	    xml[] = "<mujoco><worldbody><body><geom size=\"1\"/></body></worldbody>"
		    "<sensor><clock/></sensor></mujoco>";
	struct arena a = { 0 };
	Haptix__V1__Info info;
	char err[512] = "";

	inproc_start(&d, NULL);
	cr_assert_eq(sim_load_buffer(d.sim, SIM_FORMAT_MJCF, xml, strlen(xml),
			 "unnamed.xml", NULL, err, sizeof(err)),
	    0, "%s", err);
	sim_describe_info(d.sim, &a, &info);
	cr_assert_str_eq(info.body_name[1], "");
	cr_assert_str_eq(info.geom_name[0], "");
	cr_assert_eq(
	    info.sensor_type[0], HAPTIX__V1__SENSOR_TYPE__SENSOR_CLOCK);
	cr_assert_eq(info.n_jnt_type, 0);
	cr_assert_eq(info.n_actuator_name, 0);
	arena_free(&a);
	inproc_stop(&d);
}
