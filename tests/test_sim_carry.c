/*
 * Unit tests of the state carried across an edit's recompile
 * (daemon/sim_carry.c), in-process: a small model loaded into a real
 * sim, its state set, taken, and given to an edited model loaded in its
 * place, in which bodies, joints and actuators moved, changed type,
 * came and went; and keyframes carried by the same names.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>

#include "daemon.h"
#include "inproc.h"
#include "sim.h"
#include "sim_array.h"
#include "sim_carry.h"
#include "sim_state.h"

TestSuite(sim_carry, .timeout = 30);

static struct daemon d;

/*
 * The model before the edit: qpos a:ja(1) b:slide(1) b:hinge(1) f(7);
 * actuators mot, int (with activation, last); a mocap body; geoms ga,
 * b's two unnamed, m's, f's.
 */
static const char before
    [] = "<mujoco><worldbody>"
	 "<body name=\"a\"><joint name=\"ja\"/><geom name=\"ga\" size=\"0.1\" "
	 "rgba=\"1 0 0 1\"/></body>"
	 "<body name=\"b\" pos=\"1 0 0\"><joint type=\"slide\"/><joint/>"
	 "<geom size=\"0.1\"/><geom size=\"0.2\" pos=\"0 0 1\"/></body>"
	 "<body name=\"m\" mocap=\"true\"><geom size=\"0.1\" contype=\"0\" "
	 "conaffinity=\"0\"/></body>"
	 "<body name=\"f\" pos=\"0 2 1\"><freejoint name=\"f\"/>"
	 "<geom size=\"0.1\"/></body>"
	 "</worldbody>"
	 "<actuator><motor name=\"mot\" joint=\"ja\"/>"
	 "<general name=\"int\" joint=\"ja\" dyntype=\"integrator\"/></actuator>"
	 "<keyframe><key name=\"k\" time=\"2\" qpos=\"0.1 0.2 0.3 5 6 7 1 0 0 "
	 "0\" ctrl=\"0.5 0.25\" act=\"0.75\"/></keyframe>"
	 "</mujoco>";

/*
 * The model after: a new body with a joint first, ja now a slide, the
 * free body before b, mot gone, int kept, a new motor; ga given another
 * colour by the edit.
 */
static const char after
    [] = "<mujoco><worldbody>"
	 "<body name=\"new\"><joint name=\"jn\"/><geom size=\"0.1\"/></body>"
	 "<body name=\"a\"><joint name=\"ja\" type=\"slide\"/><geom "
	 "name=\"ga\" size=\"0.1\" rgba=\"0 0 1 1\"/></body>"
	 "<body name=\"f\" pos=\"0 2 1\"><freejoint name=\"f\"/>"
	 "<geom size=\"0.1\"/></body>"
	 "<body name=\"b\" pos=\"1 0 0\"><joint type=\"slide\"/><joint/>"
	 "<geom size=\"0.1\"/><geom size=\"0.2\" pos=\"0 0 1\"/></body>"
	 "<body name=\"m\" mocap=\"true\"><geom size=\"0.1\" contype=\"0\" "
	 "conaffinity=\"0\"/></body>"
	 "</worldbody>"
	 "<actuator><motor name=\"new\" joint=\"jn\"/>"
	 "<general name=\"int\" joint=\"ja\" dyntype=\"integrator\"/></actuator>"
	 "<keyframe><key name=\"k\"/></keyframe>"
	 "</mujoco>";

/* Load xml into s. */
static void
load(struct sim *s, const char *xml)
{
	char err[1024] = "";

	cr_assert_eq(sim_load_buffer(s, SIM_FORMAT_MJCF, xml, strlen(xml),
			 "carry.xml", NULL, err, sizeof(err)),
	    0, "%s", err);
}

Test(sim_carry, state_follows_names_across_an_edit)
{
	static const double qpos[10] = { 0.1, 0.2, 0.3, 5, 6, 7, 0, 1, 0, 0 };
	static const double qvel[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
	static const double ctrl[2] = { 0.5, 0.25 }, act = 0.75;
	static const double mpos[3] = { 3, 2, 1 }, mquat[4] = { 0, 1, 0, 0 };
	static const double xfrc[6] = { 1, 2, 3, 4, 5, 6 };
	static const double teal[4] = { 0.25, 0.75, 0.5, 1 };
	static const double t = 4.25;
	struct sim_carry *c;
	double v[64];
	char err[256];
	int i;

	inproc_start(&d, NULL);
	load(d.sim, before);
	sim_set_state(d.sim, qpos, qvel, &act);
	sim_set_ctrl(d.sim, ctrl);
	sim_set_mocap(d.sim, mpos, mquat);
	inproc_array_set(&d, "xfrc_applied", 6 * 4, 6, xfrc); /* f is body 4 */
	inproc_array_set(&d, "time", 0, 1, &t);
	/* colours a client gave: ga (named), b's second geom (unnamed) */
	inproc_array_set(&d, "geom_rgba", 0, 4, teal);
	inproc_array_set(&d, "geom_rgba", 4 * 2, 4, teal);
	for (i = 0; i < 2; i++)
		cr_assert_eq(sim_step(d.sim, err, sizeof(err)), 0, "%s", err);
	cr_assert_not_null(c = sim_carry_take(d.sim));
	inproc_array_get(&d, "qpos", v);
	/* the values after the steps are the ones carried */
	{
		double was[10], wasv[9], wasact = sim_arrays(d.sim)->act[0],
					 wastime = sim_time(d.sim);

		memcpy(was, v, sizeof(was));
		inproc_array_get(&d, "qvel", wasv);
		load(d.sim, after);
		sim_carry_give(d.sim, c);
		sim_carry_free(c);
		cr_assert_eq(sim_time(d.sim), wastime);
		cr_assert_eq(sim_counters(d.sim)->steps, 2);
		/* new: jn(0) ja(1, now a slide) f(2..8) b(9, 10) */
		inproc_array_get(&d, "qpos", v);
		cr_assert_eq(v[0], 0, "jn is new: qpos0");
		cr_assert_eq(v[1], 0, "ja changed type: qpos0");
		cr_assert_arr_eq(v + 2, was + 3, 7 * sizeof(double), "f");
		cr_assert_eq(v[9], was[1], "b's slide by its place");
		cr_assert_eq(v[10], was[2], "b's hinge by its place");
		inproc_array_get(&d, "qvel", v);
		cr_assert_eq(v[0], 0);
		cr_assert_eq(v[1], 0);
		cr_assert_arr_eq(v + 2, wasv + 3, 6 * sizeof(double));
		cr_assert_eq(v[8], wasv[1]);
		cr_assert_eq(v[9], wasv[2]);
		cr_assert_eq(sim_arrays(d.sim)->act[0], wasact);
	}
	inproc_array_get(&d, "ctrl", v);
	cr_assert_eq(v[0], 0, "the new motor starts at zero");
	cr_assert_eq(v[1], 0.25, "int by its name");
	inproc_array_get(&d, "mocap_pos", v);
	cr_assert_arr_eq(v, mpos, sizeof(mpos));
	inproc_array_get(&d, "mocap_quat", v);
	cr_assert_arr_eq(v, mquat, sizeof(mquat));
	inproc_array_get(&d, "xfrc_applied", v);
	cr_assert_arr_eq(v + 6 * 3, xfrc, sizeof(xfrc), "f is body 3 now");
	inproc_array_get(&d, "geom_rgba", v);
	cr_assert_eq(v[4 * 1 + 2], 1, "ga: the edit's colour wins");
	cr_assert_eq(v[4 * 1 + 0], 0);
	cr_assert_eq(v[4 * 4 + 0], 0.25, "b's second geom: the client's");
	cr_assert_eq(v[4 * 4 + 1], 0.75);
	cr_assert_eq(v[4 * 3 + 0], 0.5,
	    "b's first geom: as loaded (MuJoCo's default grey)");
	cr_assert_eq(v[4 * 3 + 1], 0.5);
	inproc_stop(&d);
}

/*
 * The carry holds the running model itself: when the model that was to
 * replace it does not load, the model runs on, whole, after the carry is
 * freed; the next model that loads frees it (no leak, no double free:
 * the sanitizer build and valgrind check what this does).
 */
Test(sim_carry, a_model_that_was_not_replaced_runs_on)
{
	static const char broken[] = "<mujoco><worldbody><body><geom "
				     "type=\"nonesuch\"/></body></worldbody>"
				     "</mujoco>";
	struct sim_carry *c;
	char err[1024];
	int i;

	inproc_start(&d, NULL);
	load(d.sim, before);
	cr_assert_not_null(c = sim_carry_take(d.sim));
	cr_assert_neq(sim_load_buffer(d.sim, SIM_FORMAT_MJCF, broken,
			  strlen(broken), "carry.xml", NULL, err, sizeof(err)),
	    0);
	sim_carry_free(c);
	cr_assert_str_eq(sim_model_name(d.sim), "carry.xml");
	for (i = 0; i < 3; i++)
		cr_assert_eq(sim_step(d.sim, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(sim_sizes(d.sim)->nq, 10, "the model before, whole");
	/* A carry given to the model that did replace it: then it is its. */
	cr_assert_not_null(c = sim_carry_take(d.sim));
	load(d.sim, after);
	sim_carry_give(d.sim, c);
	sim_carry_free(c);
	cr_assert_eq(sim_step(d.sim, err, sizeof(err)), 0, "%s", err);
	inproc_stop(&d);
}

Test(sim_carry, nothing_to_take_or_give)
{
	struct sim *s = sim_create();

	cr_assert_null(sim_carry_take(s), "no model");
	sim_carry_give(s, NULL);
	sim_carry_free(NULL);
	sim_free(s);
}

/* What sim_carry_keys tells: the attributes of keyframe 0. */
static char told[6][256];
static int ntold;

static void
tell(void *arg, int key, const char *attr, const char *value)
{
	cr_assert_eq(key, 0);
	cr_assert_lt(ntold, 6);
	snprintf(told[ntold++], sizeof(told[0]), "%s=%s", attr, value);
	(void)arg;
}

Test(sim_carry, keyframes_follow_names)
{
	struct sim *from = sim_create();
	double v[16];

	inproc_start(&d, NULL);
	load(from, before);
	load(d.sim, after);
	ntold = 0;
	cr_assert_eq(sim_carry_keys(d.sim, from, tell, NULL), 1);
	inproc_array_get(&d, "key_qpos", v);
	cr_assert_arr_eq(v,
	    ((const double[]){ 0, 0, 5, 6, 7, 1, 0, 0, 0, 0.2, 0.3 }),
	    11 * sizeof(double));
	inproc_array_get(&d, "key_time", v);
	cr_assert_eq(v[0], 2);
	cr_assert_eq(ntold, 6);
	cr_assert_str_eq(told[0],
	    "qpos=0 0 5 6 7 1 0 0 0 0.20000000000000001 "
	    "0.29999999999999999");
	cr_assert_str_eq(told[1], "qvel=0 0 0 0 0 0 0 0 0 0");
	cr_assert_str_eq(told[2], "act=0.75");
	cr_assert_str_eq(told[3], "ctrl=0 0.25");
	cr_assert_str_eq(told[4], "mpos=0 0 0");
	cr_assert_str_eq(told[5], "mquat=1 0 0 0");
	/* without a model on either side: none */
	sim_free(from);
	from = sim_create();
	cr_assert_eq(sim_carry_keys(d.sim, from, NULL, NULL), 0);
	sim_free(from);
	inproc_stop(&d);
}
