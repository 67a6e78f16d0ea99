/*
 * The bundled MPL hand against the HAPTIX manual's tables, through a real
 * haptixd: joint, motor and sensor names and order, counts, limits, the
 * 132 sensor values, and the grasp reflex example closing the hand on
 * the cube of the table scene, holding it through a smooth lift, and
 * starting over after a reset.
 */
#include "config.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <criterion/criterion.h>

#include "check.h"
#include "harness.h"
#include "haptix.h"
#include "haptixd.h"

TestSuite(mpl, .timeout = 120, .fini = hx_server_cleanup);

/* The manual's joint table, in API order. */
static const char *const joints[22] = { "wrist_PRO", "wrist_UDEV", "wrist_FLEX",
	"thumb_ABD", "thumb_MCP", "thumb_PIP", "thumb_DIP", "index_ABD",
	"index_MCP", "index_PIP", "index_DIP", "middle_MCP", "middle_PIP",
	"middle_DIP", "ring_ABD", "ring_MCP", "ring_PIP", "ring_DIP",
	"pinky_ABD", "pinky_MCP", "pinky_PIP", "pinky_DIP" };

/* The manual's motor table: names and control ranges, in API order. */
static const struct {
	const char *name;
	double lo, hi;
} motors[13] = {
	{ "A_wrist_PRO", -1.57, 1.57 },
	{ "A_wrist_UDEV", -0.26, 0.79 },
	{ "A_wrist_FLEX", -1, 1 },
	{ "A_thumb_ABD", 0, 2.1 },
	{ "A_thumb_MCP", 0, 1.0 },
	{ "A_thumb_PIP", 0, 1.0 },
	{ "A_thumb_DIP", -0.82, 1.3 },
	{ "A_index_ABD", 0, 0.34 },
	{ "A_index_MCP", 0, 1.6 },
	{ "A_middle_MCP", 0, 1.6 },
	{ "A_ring_MCP", 0, 1.6 },
	{ "A_pinky_ABD", 0, 0.34 },
	{ "A_pinky_MCP", 0, 1.6 },
};

/* The manual's contact table, in API order. */
static const char *const contacts[19] = { "palm_thumb", "palm_pinky",
	"palm_side", "palm_back", "thumb_proximal", "thumb_medial",
	"thumb_distal", "index_proximal", "index_medial", "index_distal",
	"middle_proximal", "middle_medial", "middle_distal", "ring_proximal",
	"ring_medial", "ring_distal", "pinky_proximal", "pinky_medial",
	"pinky_distal" };

HX_TRANSPORT_TEST(
    mpl, tables_of_the_manual, "-m", "mpl_hand.xml", "--paused", NULL)
{
	static const int order[] = { mjSENS_JOINTPOS, mjSENS_JOINTVEL,
		mjSENS_ACTUATORPOS, mjSENS_ACTUATORVEL, mjSENS_ACTUATORFRC,
		mjSENS_ACCELEROMETER, mjSENS_GYRO, mjSENS_TOUCH };
	static const int count[] = { 22, 22, 13, 13, 13, 5, 5, 19 };
	hxd_conn *c = hx_connect_ok(addr, "test_mpl");
	hxd_info *in = NULL;
	int i, k, s = 0, j;

	cr_assert_eq(hxd_info_get(c, &in), HXD_OK, "%s", hxd_error(c));
	cr_expect_str_eq(in->model.name, "MPL");
	cr_expect_eq(in->model.nu, 13);
	cr_expect_eq(in->model.nsensordata, 132);
	cr_expect_float_eq(in->model.apirate, 50, 0);
	/* The 22 hinges in the manual's order, after the forearm's freejoint. */
	for (i = 0; i < 22; i++) {
		j = 1 + i;
		cr_expect_str_eq(in->jnt_name[j], joints[i], "joint %d", i);
		cr_expect_eq(in->jnt_type[j], mjJNT_HINGE);
		cr_expect(in->jnt_limited[j], "%s is limited", joints[i]);
	}
	for (i = 0; i < 13; i++) {
		cr_expect_str_eq(in->actuator_name[i], motors[i].name);
		cr_expect(in->actuator_ctrllimited[i]);
		cr_expect_float_eq(in->actuator_ctrlrange[2 * i], motors[i].lo,
		    1e-9, "%s", motors[i].name);
		cr_expect_float_eq(in->actuator_ctrlrange[2 * i + 1],
		    motors[i].hi, 1e-9, "%s", motors[i].name);
		/* Each motor drives the joint with its name. */
		cr_expect_str_eq(in->jnt_name[in->actuator_trnid[2 * i]],
		    motors[i].name + 2);
	}
	/* The sensors: kinds in the order MATLAB clients hard-code. */
	for (k = 0; k < 8; k++) {
		for (i = 0; i < count[k]; i++, s++) {
			cr_assert_lt(s, in->model.nsensor);
			cr_expect_eq(in->sensor_type[s], order[k],
			    "sensor %d has type %d, expected %d", s,
			    in->sensor_type[s], order[k]);
			if (order[k] == mjSENS_JOINTPOS ||
			    order[k] == mjSENS_JOINTVEL)
				cr_expect_str_eq(
				    in->jnt_name[in->sensor_objid[s]],
				    joints[i]);
			if (order[k] == mjSENS_TOUCH)
				cr_expect_str_eq(
				    in->sensor_name[s], contacts[i]);
		}
	}
	cr_expect_eq(s, in->model.nsensor);
	free(in);
	hxd_close(c);
}

HX_TRANSPORT_TEST(
    mpl, robot_info_of_the_hand, "-m", "mpl_scene.xml", "--paused", NULL)
{
	hxRobotInfo info;
	int i;

	cr_assert_eq(hx_connect(addr, 0), hxOK, "%s", hx_last_result());
	cr_assert_eq(hx_robot_info(&info), hxOK, "%s", hx_last_result());
	cr_expect_eq(info.motor_count, 13);
	cr_expect_eq(info.joint_count, 22);
	cr_expect_eq(info.contact_sensor_count, 19);
	cr_expect_eq(info.imu_count, 5);
	cr_expect_float_eq(info.update_rate, 50, 0);
	for (i = 0; i < 13; i++) {
		cr_expect_float_eq(info.motor_limit[i][0], motors[i].lo, 1e-6);
		cr_expect_float_eq(info.motor_limit[i][1], motors[i].hi, 1e-6);
	}
	for (i = 0; i < 22; i++)
		cr_expect_lt(info.joint_limit[i][0], info.joint_limit[i][1],
		    "joint %s has a range", joints[i]);
	hx_close();
}

HX_TRANSPORT_TEST(mpl, hand_rests_still, "-m", "mpl_hand.xml", "--paused", NULL)
{
	hxd_conn *c = hx_connect_ok(addr, "test_mpl");
	hxd_status st;
	hxd_robot_sensor *s = NULL;
	unsigned taken;
	int i;

	cr_assert_eq(hxd_step(c, 1000, &taken), HXD_OK);
	cr_assert_eq(hxd_status_get(c, &st), HXD_OK);
	cr_expect_eq(st.instability_resets, 0);
	cr_assert_eq(hxd_robot_update(c, NULL, &s), HXD_OK);
	for (i = 0; i < s->joint_count; i++)
		cr_expect_lt(fabs(s->joint_pos[i]), 0.05, "joint %s at %g",
		    joints[i], s->joint_pos[i]);
	for (i = 0; i < s->contact_sensor_count; i++)
		cr_expect_eq(
		    s->contact[i], 0, "%s touches nothing", contacts[i]);
	free(s);
	hxd_close(c);
}

/* Move the mocap body to height z in small steps, as a hand would move. */
static void
move_hand(hxd_conn *c, double z0, double z1)
{
	double pos[3] = { 0, 0, z0 }, quat[4] = { 1, 0, 0, 0 };
	hxd_mocap m = { .nmocap = 1, .pos = pos, .quat = quat };
	int i, n = (int)ceil(fabs(z1 - z0) / 0.002);

	for (i = 1; i <= n; i++) {
		pos[2] = z0 + (z1 - z0) * i / n;
		cr_assert_eq(hxd_set_mocap(c, &m), HXD_OK, "%s", hxd_error(c));
		hx_sleep_ms(10);
	}
}

/* The height of the cube (the scene's first free object). */
static double
cube_z(hxd_conn *c)
{
	hxd_state *st = NULL;
	double z;

	cr_assert_eq(hxd_get_state(c, &st), HXD_OK);
	z = st->qpos[29 + 2];
	free(st);
	return z;
}

Test(mpl, grasp_example_closes_the_hand_on_the_cube)
{
	struct hx_server srv;
	const char *args[] = { "-m", "mpl_scene.xml", NULL };
	hxd_robot_sensor *s = NULL;
	char cmd[1024], out[4096];
	double t_close = -1, z_rest, z_lift;
	hxd_conn *c;
	size_t n;
	FILE *p;
	int status;

	cr_assert_not_null(getenv("HX_EXAMPLES"), "run with make check");
	hx_server_start(&srv, args);
	c = hx_connect_ok(srv.unix_addr, "test_mpl");
	/* Lower the palm onto the cube: a touch starts the reflex. */
	move_hand(c, 0.85, 0.825);
	hx_sleep_ms(300);
	z_rest = cube_z(c);
	snprintf(cmd, sizeof(cmd), "%s/grasp %s %g", getenv("HX_EXAMPLES"),
	    srv.unix_addr, 5.0);
	p = popen(cmd, "r");
	cr_assert_not_null(p);
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = '\0';
	status = pclose(p);
	cr_assert_eq(status, 0, "grasp: %s", out);
	cr_assert_not_null(strstr(out, " close (contact "), "%s", out);
	cr_assert_eq(
	    sscanf(strstr(out, " close") - 6, "%lf", &t_close), 1, "%s", out);
	cr_expect_lt(t_close, 3.0, "closed within a bounded time: %g", t_close);

	/* The fingers and the thumb hold the cube. */
	cr_assert_eq(hxd_robot_update(c, NULL, &s), HXD_OK);
	cr_expect_gt(s->contact[6], 0.5, "thumb_distal %g", s->contact[6]);
	cr_expect_gt(s->contact[9] + s->contact[12], 0.5,
	    "index/middle distal %g %g", s->contact[9], s->contact[12]);
	free(s);
	/* And lift it when the hand rises. */
	move_hand(c, 0.825, 0.925);
	hx_sleep_ms(500);
	z_lift = cube_z(c);
	cr_expect_gt(
	    z_lift - z_rest, 0.05, "the cube rose %g m", z_lift - z_rest);
	hxd_close(c);
	hx_server_stop(&srv);
}

static double sim_time(hxd_conn *c);

/*
 * The operational-space example (clients/examples/osc_fingertip.c): a
 * quarter of its circle ends 1 cm behind and 1 cm below the start, and
 * its tracking error stays within its bound.
 */
Test(mpl, osc_example_moves_the_fingertip_along_its_path)
{
	struct hx_server srv;
	const char *args[] = { "-m", "mpl_scene.xml", NULL };
	double x0[3], x1[3], rms, worst, t0, t1;
	char cmd[1024], out[4096], *last;
	hxd_array *g0 = NULL, *g1 = NULL;
	hxd_conn *c;
	size_t n;
	FILE *p;
	int status;

	cr_assert_not_null(getenv("HX_EXAMPLES"), "run with make check");
	hx_server_start(&srv, args);
	c = hx_connect_ok(srv.unix_addr, "test_mpl");
	cr_assert_eq(hxd_pause(c), HXD_OK);
	cr_assert_eq(hxd_get_array(c, "actuator_gainprm", &g0), HXD_OK);
	t0 = sim_time(c);
	/* 125 steps of 2 ms: a quarter of the circle's second. */
	snprintf(cmd, sizeof(cmd), "%s/osc_fingertip %s 125",
	    getenv("HX_EXAMPLES"), srv.unix_addr);
	p = popen(cmd, "r");
	cr_assert_not_null(p);
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = '\0';
	status = pclose(p);
	cr_assert_eq(status, 0, "osc_fingertip: %s", out);
	cr_assert_eq(sscanf(out, "step 0: fingertip at %lf %lf %lf", &x0[0],
			 &x0[1], &x0[2]),
	    3, "%s", out);
	last = strstr(out, "step 125:");
	cr_assert_not_null(last, "%s", out);
	cr_assert_eq(sscanf(last, "step 125: fingertip at %lf %lf %lf", &x1[0],
			 &x1[1], &x1[2]),
	    3, "%s", out);
	cr_expect_lt(fabs(x1[0] - (x0[0] - 0.01)), 0.002, "%s", out);
	cr_expect_lt(fabs(x1[1] - x0[1]), 0.002, "%s", out);
	cr_expect_lt(fabs(x1[2] - (x0[2] - 0.01)), 0.002, "%s", out);
	last = strstr(out, "RMS error");
	cr_assert_not_null(last, "%s", out);
	cr_assert_eq(sscanf(last, "RMS error %lf mm, max %lf mm", &rms, &worst),
	    2, "%s", out);
	cr_expect_lt(rms, 2.0, "%s", out);
	/* It stepped the paused simulation, 125 steps of 2 ms. */
	t1 = sim_time(c);
	cr_expect_lt(fabs(t1 - t0 - 0.25), 1e-9, "from %g to %g", t0, t1);
	/* And put the servos' gains back as they were. */
	cr_assert_eq(hxd_get_array(c, "actuator_gainprm", &g1), HXD_OK);
	cr_assert_eq(memcmp(g0->values, g1->values,
			 (size_t)g0->rows * g0->cols * sizeof(double)),
	    0, "the servos' gains stayed changed");
	free(g0);
	free(g1);
	hxd_close(c);
	hx_server_stop(&srv);
}

/* The simulated time, from the status. */
static double
sim_time(hxd_conn *c)
{
	return hx_status_ok(c).time;
}

/* Wait up to ms for the grasp example's output to hold text n times. */
static int
grasp_says(struct hx_proc *p, const char *text, int n, long ms)
{
	double end = hx_wall_now() + ms / 1e3;
	const char *q;
	char *out;
	int k;

	do {
		out = hx_proc_output(p);
		for (k = 0, q = out; (q = strstr(q, text)) != NULL; q++)
			k++;
		free(out);
		if (k >= n)
			return 1;
		hx_sleep_ms(20);
	} while (hx_wall_now() < end);
	return 0;
}

/* Let the simulation run seconds of simulated time past now. */
static void
run_for(hxd_conn *c, double seconds)
{
	double end = sim_time(c) + seconds, wall = hx_wall_now() + 60;

	while (sim_time(c) < end) {
		cr_assert_lt(
		    hx_wall_now(), wall, "the simulation stands still");
		hx_sleep_ms(50);
	}
}

/* Start the grasp example, running until stopped, on srv. */
static void
grasp_start(struct hx_proc *p, struct hx_server *srv)
{
	static char path[1024];
	const char *argv[] = { path, srv->unix_addr, NULL };

	cr_assert_not_null(getenv("HX_EXAMPLES"), "run with make check");
	snprintf(path, sizeof(path), "%s/grasp", getenv("HX_EXAMPLES"));
	hx_proc_start(p, argv, NULL);
}

/*
 * The README's walkthrough: the palm lowered onto the cube and raised
 * with smooth moves (mocap_move) while grasp runs.  Taking the weight
 * makes the fingers slip a little on the cube, each fingertip on its own;
 * the example once summed the IMUs' speeds, read that as a flick, opened
 * the hand and dropped the cube.  A real flick still opens it.
 */
Test(mpl, grasp_example_holds_the_cube_through_a_smooth_lift)
{
	struct hx_server srv;
	const char *args[] = { "-m", "mpl_scene.xml", NULL };
	double down[3] = { 0, 0, 0.825 }, up[3] = { 0, 0, 0.95 }, z_rest, z;
	double turned[4] = { cos(0.25), 0, 0, sin(0.25) };
	struct hx_proc g;
	hxd_conn *c;
	char *out;

	hx_server_start(&srv, args);
	c = hx_connect_ok(srv.unix_addr, "test_mpl");
	grasp_start(&g, &srv);
	cr_assert(grasp_says(&g, " motors, ", 1, 10000), "grasp did not start");
	HX_OK(c, hxd_mocap_move(c, 0, "mocap", down, NULL, 0.5));
	cr_assert(grasp_says(&g, " close (contact ", 1, 20000),
	    "the hand did not close on the cube");
	run_for(c, 1.5); /* closed, and settled */
	z_rest = cube_z(c);
	HX_OK(c, hxd_mocap_move(c, 0, "mocap", up, NULL, 2));
	run_for(c, 2.5);
	z = cube_z(c);
	out = hx_proc_output(&g);
	cr_expect_null(strstr(out, " open ("), "grasp let go:\n%s", out);
	cr_expect_gt(
	    z - z_rest, 0.09, "the cube rose %g m:\n%s", z - z_rest, out);
	free(out);
	/* A flick, the hand turned half a radian in 0.2 s, still opens it. */
	HX_OK(c, hxd_mocap_move(c, 0, "mocap", up, turned, 0.2));
	cr_expect(grasp_says(&g, " open (flick ", 1, 10000),
	    "the flick did not open the hand");
	cr_expect_eq(hx_proc_stop(&g, SIGTERM, 5000), 0);
	hxd_close(c);
	hx_server_stop(&srv);
}

/*
 * A reset takes simulated time back: the example starts over, open, and
 * closes again on the next touch.  It once went on with the move begun
 * at the old time: before that time came again its fraction was below
 * zero, driving the motors past the open posture towards the ends of
 * their ranges, and then it closed the hand on nothing, deaf to contact.
 */
Test(mpl, grasp_example_starts_over_after_a_reset)
{
	struct hx_server srv;
	const char *args[] = { "-m", "mpl_scene.xml", NULL };
	double down[3] = { 0, 0, 0.825 };
	hxd_control *u = NULL;
	struct hx_proc g;
	hxd_conn *c;
	char *out;
	int i;

	hx_server_start(&srv, args);
	c = hx_connect_ok(srv.unix_addr, "test_mpl");
	grasp_start(&g, &srv);
	cr_assert(grasp_says(&g, " motors, ", 1, 10000), "grasp did not start");
	HX_OK(c, hxd_mocap_move(c, 0, "mocap", down, NULL, 0.5));
	cr_assert(grasp_says(&g, " close (contact ", 1, 20000),
	    "the hand did not close on the cube");
	run_for(c, 3); /* closed, and time well past the close */
	HX_OK(c, hxd_reset(c, -1));
	run_for(c, 0.5);
	/* Open again: every motor's control where it began (near 0). */
	HX_OK(c, hxd_get_control(c, &u));
	for (i = 0; i < u->nu; i++)
		cr_expect_lt(fabs(u->ctrl[i]), 0.05, "%s's control is %g",
		    motors[i].name, u->ctrl[i]);
	free(u);
	/* And the next touch closes the hand at once. */
	HX_OK(c, hxd_mocap_move(c, 0, "mocap", down, NULL, 0.5));
	out = hx_proc_output(&g);
	cr_expect(grasp_says(&g, " close (contact ", 2, 10000),
	    "no second close within 10 s:\n%s", out);
	free(out);
	cr_expect_eq(hx_proc_stop(&g, SIGTERM, 5000), 0);
	hxd_close(c);
	hx_server_stop(&srv);
}
