/*
 * Integration tests of hxctl (clients/hxctl.c) against a real haptixd on
 * models/test/fixture.xml, over the Unix socket and TCP: setting and
 * stepping the state: step, set-ctrl and ctrl, reset to keyframes
 * (parameters restored unless kept, --run), set-state, set-body, set-
 * joint, capture, pause/run/speed, update and the model's arrays by
 * name.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pty.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <criterion/criterion.h>

#include "frame.h"
#include "haptix.pb-c.h"
#include "check.h"
#include "harness.h"
#include "haptixd.h"
#include "hxctl_run.h"

TestSuite(hxctl, .timeout = 60, .fini = cleanup);

HX_TRANSPORT_TEST(hxctl, step_advances_time_while_paused, "-m", "fixture.xml",
    "--paused", NULL)
{
	struct hx_run r = { 0 };
	double t0, t1;

	t0 = status_time(addr);
	hxctl(&r, addr, "step", "5", NULL);
	expect_ok(&r);
	cr_assert_str_eq(r.out, "5 steps, time 0.01\n");
	t1 = status_time(addr);
	cr_assert_float_eq(t1 - t0, 5 * FIXTURE_DT, 1e-12,
	    "time went from "
	    "%.17g to %.17g",
	    t0, t1);

	hxctl_json(&r, addr, "step", NULL);
	cr_assert_eq(json_num(r.out, "steps"), 1, "%s", r.out);
	cr_assert_float_eq(json_num(r.out, "time"), 6 * FIXTURE_DT, 1e-12);
	cr_assert_not_null(strstr(r.out, "\"paused\":true"), "%s", r.out);
	hxctl_json(&r, addr, "status", NULL);
	cr_assert_eq(json_num(r.out, "steps"), 6, "%s", r.out);
	hx_run_free(&r);
}

HX_TRANSPORT_TEST(hxctl, set_ctrl_then_ctrl_round_trips, "-m", "fixture.xml",
    "--paused", NULL)
{
	static const double both[2] = { 0.25, -0.5 }, named[2] = { 0.25, 1.5 };
	struct hx_run r = { 0 };
	double v[2];

	hxctl(&r, addr, "set-ctrl", "0.25", "-0.5", NULL);
	expect_ok(&r);
	cr_assert_str_empty(r.out, "a setter printed: %s", r.out);
	hxctl_json(&r, addr, "ctrl", NULL);
	expect_nums(r.out, "ctrl", both, 2);

	hxctl(&r, addr, "set-ctrl", "servo2=1.5", NULL);
	expect_ok(&r);
	hxctl_json(&r, addr, "ctrl", NULL);
	expect_nums(r.out, "ctrl", named, 2);

	hxctl(&r, addr, "ctrl", NULL);
	expect_ok(&r);
	cr_assert_not_null(
	    strstr(r.out, "servo1         0.25  [-1, 1]"), "%s", r.out);
	cr_assert_not_null(
	    strstr(r.out, "servo2          1.5  [-2, 2]"), "%s", r.out);

	hxctl_json(&r, addr, "set-ctrl", "0", "0", NULL);
	cr_assert_str_eq(r.out, "{\"ok\":true}\n");

	/* Numbers go both ways without losing a bit. */
	hxctl(&r, addr, "set-ctrl", "0.1", "-0.12345678901234567", NULL);
	expect_ok(&r);
	hxctl_json(&r, addr, "ctrl", NULL);
	cr_assert_eq(json_nums(r.out, "ctrl", v, 2), 2);
	cr_assert(v[0] == 0.1 && v[1] == -0.12345678901234567,
	    "not exact: "
	    "%s",
	    r.out);
	hx_run_free(&r);
}

HX_TRANSPORT_TEST(hxctl, reset_to_keyframes_by_name_and_index, "-m",
    "fixture.xml", "--paused", NULL)
{
	struct hx_run r = { 0 };
	double q[16];

	hxctl(&r, addr, "reset", "raised", NULL);
	expect_ok(&r);
	hxctl_json(&r, addr, "state", NULL);
	cr_assert_eq(json_nums(r.out, "qpos", q, 16), 9);
	cr_assert_float_eq(q[0], 0.5, 1e-15, "%s", r.out);
	cr_assert_float_eq(q[1], -0.5, 1e-15, "%s", r.out);

	hxctl(&r, addr, "reset", "1", NULL);
	expect_ok(&r);
	hxctl_json(&r, addr, "state", NULL);
	json_nums(r.out, "qpos", q, 16);
	cr_assert_float_eq(q[4], 1.0, 1e-15, "keyframe 1 (dropped): %s", r.out);
	cr_assert_float_eq(json_num(r.out, "time"), 1.0, 1e-15, "%s", r.out);

	hxctl(&r, addr, "reset", NULL);
	expect_ok(&r);
	hxctl_json(&r, addr, "state", NULL);
	expect_nums(r.out, "qpos", fixture_qpos0, 9);
	cr_assert_eq(json_num(r.out, "time"), 0, "%s", r.out);
	hx_run_free(&r);
}

HX_TRANSPORT_TEST(hxctl, reset_restores_parameters_unless_kept, "-m",
    "fixture.xml", "--paused", NULL)
{
	static const double changed[8] = { 2, 2, 0, 0, 0, 0, 0, 0 };
	static const double model[8] = { 0.1, 0.1, 0, 0, 0, 0, 0, 0 };
	struct hx_run r = { 0 };

	hxctl(&r, addr, "set", "dof_damping", "2", "2", NULL);
	expect_ok(&r);
	hxctl(&r, addr, "reset", "raised", "--keep-params", NULL);
	expect_ok(&r);
	hxctl_json(&r, addr, "get", "dof_damping", NULL);
	expect_nums(r.out, "values", changed, 8);
	hxctl(&r, addr, "reset", "--keep-params", NULL);
	expect_ok(&r);
	hxctl_json(&r, addr, "get", "dof_damping", NULL);
	expect_nums(r.out, "values", changed, 8);
	hxctl(&r, addr, "reset", NULL);
	expect_ok(&r);
	hxctl_json(&r, addr, "get", "dof_damping", NULL);
	expect_nums(r.out, "values", model, 8);
	hx_run_free(&r);
}

Test(hxctl, set_state_keeps_what_is_not_given)
{
	static const double qvel[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	struct hx_run r = { 0 };
	double q[9];
	const char *a;

	a = start(fixture_args);
	memcpy(q, fixture_qpos0, sizeof(q));
	q[0] = 0.3;
	hxctl(&r, a, "set-state", "hinge1=0.3", NULL);
	expect_ok(&r);
	hxctl_json(&r, a, "state", NULL);
	expect_nums(r.out, "qpos", q, 9);

	hxctl(&r, a, "set-state", "--qvel", "1,2,3,4,5,6,7,8", NULL);
	expect_ok(&r);
	hxctl_json(&r, a, "state", NULL);
	expect_nums(r.out, "qpos", q, 9);
	expect_nums(r.out, "qvel", qvel, 8);

	q[2] = -1;
	q[3] = 2.5;
	q[4] = 0.25;
	hxctl(&r, a, "set-state", "--qpos=0,0,0,0,0,1,0,0,0", "hinge1=0.3",
	    "box=-1,2.5,0.25,1,0,0,0", NULL);
	expect_ok(&r);
	hxctl_json(&r, a, "state", NULL);
	expect_nums(r.out, "qpos", q, 9);

	hxctl(&r, a, "set-state", "box=1,2,3", NULL);
	expect_fail(&r, "set-state", "mjCOM_BADSIZE", "7");
	hxctl(&r, a, "set-state", "--qpos", "1,2", NULL);
	expect_fail(&r, "set-state", "mjCOM_BADSIZE", "nq = 9");
	hxctl(&r, a, "set-state", "nosuch=1", NULL);
	expect_fail(&r, "set-state", "mjCOM_BADINDEX", "nosuch");
	hx_run_free(&r);
}

Test(hxctl, set_body_mocap_and_applied)
{
	double x[30];
	struct hx_run r = { 0 };
	const char *a;
	int i;

	a = start(fixture_args);
	hxctl(
	    &r, a, "set-body", "box", "--pos", "1,2,3", "--linvel=0,0,1", NULL);
	expect_ok(&r);
	hxctl_json(&r, a, "body", "box", NULL);
	expect_nums(r.out, "pos", (const double[]){ 1, 2, 3 }, 3);
	expect_nums(r.out, "linvel", (const double[]){ 0, 0, 1 }, 3);

	hxctl(&r, a, "set-body", "1", "--force", "1,2,3", "--torque", "0,0,-1",
	    NULL);
	expect_ok(&r);
	hxctl_json(&r, a, "body", "link1", NULL);
	cr_assert_not_null(strstr(r.out, "\"is_floating\":false"), "%s", r.out);
	expect_nums(r.out, "force", (const double[]){ 1, 2, 3 }, 3);
	expect_nums(r.out, "torque", (const double[]){ 0, 0, -1 }, 3);
	hxctl(&r, a, "set-body", "link1", "--pos", "5,5,5", NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_not_null(
	    strstr(r.err, "not floating"), "no warning: %s", r.err);

	hxctl(&r, a, "set-mocap", "marker", "--pos", "0,2,1", NULL);
	expect_ok(&r);
	hxctl_json(&r, a, "mocap", NULL);
	expect_nums(r.out, "pos", (const double[]){ 0, 2, 1 }, 3);
	expect_nums(r.out, "quat", (const double[]){ 1, 0, 0, 0 }, 4);
	hxctl(&r, a, "set-mocap", "box", "--pos", "0,2,1", NULL);
	expect_fail(&r, "set-mocap", "mjCOM_BADINDEX", "not a mocap body");

	hxctl(&r, a, "set-applied", "--clear", "box=1,2,3,4,5,6", "--qfrc",
	    "7,0,0,0,0,0,0,0", NULL);
	expect_ok(&r);
	hxctl_json(&r, a, "applied", NULL);
	cr_assert_eq(json_nums(r.out, "xfrc_applied", x, 30), 30);
	for (i = 0; i < 30; i++)
		cr_assert_eq(x[i], i >= 18 && i < 24 ? i - 17 : 0,
		    "xfrc_applied[%d] is %g", i, x[i]);
	cr_assert_eq(json_nums(r.out, "qfrc_applied", x, 30), 8);
	cr_assert_eq(x[0], 7);
	hxctl(&r, a, "set-applied", "--clear", NULL);
	expect_ok(&r);
	hxctl_json(&r, a, "applied", NULL);
	json_nums(r.out, "xfrc_applied", x, 30);
	for (i = 0; i < 30; i++)
		cr_assert_eq(x[i], 0, "xfrc_applied[%d] is %g", i, x[i]);
	hxctl(&r, a, "set-applied", "--xfrc", "1,2", NULL);
	expect_fail(&r, "set-applied", "mjCOM_BADSIZE", "nbody");
	hx_run_free(&r);
}

Test(hxctl, update_sets_controls_then_steps)
{
	struct hx_run r = { 0 };
	double v[16];
	const char *a;

	a = start(fixture_args);
	hxctl_json(&r, a, "update", "0.1", "0.2", NULL);
	cr_assert_float_eq(json_num(r.out, "time"), FIXTURE_DT, 1e-15);
	cr_assert_eq(json_nums(r.out, "sensordata", v, 16), 11);
	/* f1 = kp (ctrl - q) = 50 (0.1 - 0) */
	cr_assert_float_eq(v[3], 5, 1e-9, "actuator force %g", v[3]);
	hxctl_json(&r, a, "ctrl", NULL);
	expect_nums(r.out, "ctrl", (const double[]){ 0.1, 0.2 }, 2);
	hxctl(&r, a, "update", "servo1=-0.1", NULL);
	expect_ok(&r);
	cr_assert(strncmp(r.out, "time 0.004\n", 11) == 0, "%s", r.out);
	cr_assert_not_null(strstr(r.out, "tip_pos"), "%s", r.out);
	hxctl_json(&r, a, "ctrl", NULL);
	expect_nums(r.out, "ctrl", (const double[]){ -0.1, 0.2 }, 2);
	hxctl_json(&r, a, "update", NULL);
	cr_assert_float_eq(json_num(r.out, "time"), 3 * FIXTURE_DT, 1e-15);
	hx_run_free(&r);
}

Test(hxctl, pause_run_and_speed)
{
	struct hx_run r = { 0 };
	const char *a;

	a = start(fixture_args);
	hxctl(&r, a, "run", NULL);
	expect_ok(&r);
	hxctl_json(&r, a, "status", NULL);
	cr_assert_not_null(strstr(r.out, "\"paused\":false"), "%s", r.out);
	hxctl(&r, a, "step", "3", NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strncmp(r.out, "0 steps, time ", 14) == 0, "%s", r.out);
	cr_assert_not_null(strstr(r.err, "running"), "%s", r.err);
	hxctl_json(&r, a, "update", NULL);
	cr_assert_gt(json_num(r.out, "time"), 0, "%s", r.out);

	hxctl(&r, a, "pause", NULL);
	expect_ok(&r);
	hxctl_json(&r, a, "status", NULL);
	cr_assert_not_null(strstr(r.out, "\"paused\":true"), "%s", r.out);
	hxctl(&r, a, "speed", "max", NULL);
	expect_ok(&r);
	hxctl_json(&r, a, "status", NULL);
	cr_assert_not_null(strstr(r.out, "\"speed_max\":true"), "%s", r.out);
	hxctl(&r, a, "speed", "2.5", NULL);
	expect_ok(&r);
	hxctl_json(&r, a, "status", NULL);
	cr_assert_not_null(strstr(r.out, "\"speed_max\":false"), "%s", r.out);
	cr_assert_eq(json_num(r.out, "speed"), 2.5, "%s", r.out);
	hx_run_free(&r);
}

/* Refusals of capture and reset; captured states go with the model. */
static void
expect_capture_refusals(const char *a)
{
	struct hx_run r = { 0 };

	hxctl(&r, a, "reset", "nosuch", NULL);
	expect_fail(&r, "reset", "mjCOM_BADINDEX", "\"nosuch\"");
	hxctl(&r, a, "capture", "5", NULL);
	expect_fail(&r, "capture", "mjCOM_BADINDEX", NULL);
	/* Captured states go with the model. */
	hxctl(&r, a, "reload", NULL);
	expect_ok(&r);
	hxctl(&r, a, "reset", "here", NULL);
	expect_fail(&r, "reset", "mjCOM_BADINDEX", "here");
	hx_run_free(&r);
}

Test(hxctl, capture_and_reset_by_name)
{
	static const double here[2] = { 0.4, -0.3 };
	struct hx_run r = { 0 };
	hxd_state *s0, *s1;
	hxd_conn *c;
	const char *a;
	int i;

	a = start(fixture_args);
	c = hx_connect_ok(a, "checker");
	cr_assert_eq(hxd_set_joint(c, "hinge1", here, 1, NULL, 0), HXD_OK);
	cr_assert_eq(hxd_set_joint(c, "hinge2", here + 1, 1, here, 1), HXD_OK);
	cr_assert_eq(hxd_step(c, 7, NULL), HXD_OK);
	cr_assert_eq(hxd_get_state(c, &s0), HXD_OK);

	hxctl(&r, a, "capture", "here", NULL);
	expect_ok(&r);
	cr_assert_str_empty(r.out);
	hxctl(&r, a, "step", "20", NULL);
	expect_ok(&r);
	hxctl(&r, a, "reset", NULL);
	expect_ok(&r);
	hxctl(&r, a, "reset", "here", NULL);
	expect_ok(&r);
	cr_assert_eq(hxd_get_state(c, &s1), HXD_OK);
	cr_assert_eq(s1->time, s0->time);
	for (i = 0; i < 9; i++)
		cr_assert_eq(s1->qpos[i], s0->qpos[i],
		    "qpos[%d]: %.17g, not %.17g", i, s1->qpos[i], s0->qpos[i]);
	for (i = 0; i < 8; i++)
		cr_assert_eq(s1->qvel[i], s0->qvel[i], "qvel[%d]", i);
	free(s1);

	/* Into a keyframe of the model, by name and by index. */
	hxctl(&r, a, "capture", "dropped", NULL);
	expect_ok(&r);
	hxctl(&r, a, "reset", NULL);
	expect_ok(&r);
	hxctl(&r, a, "reset", "1", NULL);
	expect_ok(&r);
	cr_assert_eq(hxd_get_state(c, &s1), HXD_OK);
	cr_assert_eq(s1->qpos[0], s0->qpos[0]);
	cr_assert_eq(s1->time, s0->time, "keyframe 1 kept its time 1");
	free(s1);
	hxctl(&r, a, "capture", "0", NULL);
	expect_ok(&r);
	hxctl(&r, a, "reset", "raised", NULL);
	expect_ok(&r);
	hxctl_json(&r, a, "state", NULL);
	cr_assert_float_eq(json_num(r.out, "time"), s0->time, 1e-15);

	expect_capture_refusals(a);
	free(s0);
	hxd_close(c);
	hx_run_free(&r);
}

Test(hxctl, set_joint_changes_that_joint_only)
{
	struct hx_run r = { 0 };
	hxd_state *s0, *s1;
	hxd_conn *c;
	const char *a;
	int i;

	a = start(fixture_args);
	c = hx_connect_ok(a, "checker");
	cr_assert_eq(hxd_step(c, 3, NULL), HXD_OK);
	cr_assert_eq(hxd_get_state(c, &s0), HXD_OK);
	hxctl(&r, a, "set-joint", "hinge2", "--qpos", "0.7", "--qvel", "-1.5",
	    NULL);
	expect_ok(&r);
	cr_assert_str_empty(r.out);
	cr_assert_eq(hxd_get_state(c, &s1), HXD_OK);
	for (i = 0; i < 9; i++)
		cr_assert_eq(s1->qpos[i], i == 1 ? 0.7 : s0->qpos[i],
		    "qpos[%d] is %.17g", i, s1->qpos[i]);
	for (i = 0; i < 8; i++)
		cr_assert_eq(s1->qvel[i], i == 1 ? -1.5 : s0->qvel[i],
		    "qvel[%d] is %.17g", i, s1->qvel[i]);
	free(s1);

	/* A free joint: 7 values, the quaternion normalized; by id too. */
	hxctl(&r, a, "set-joint", "box", "--qpos", "1,2,3,0,0,0,2", NULL);
	expect_ok(&r);
	hxctl(&r, a, "set-joint", "0", "--qpos", "0.25", NULL);
	expect_ok(&r);
	hxctl_json(&r, a, "state", NULL);
	expect_nums(r.out, "qpos",
	    (const double[]){ 0.25, 0.7, 1, 2, 3, 0, 0, 0, 1 }, 9);

	hxctl(&r, a, "set-joint", "hinge1", "--qpos", "1,2", NULL);
	expect_fail(&r, "set-joint", "mjCOM_BADSIZE", "hinge");
	hxctl(&r, a, "set-joint", "box", "--qpos", "1,2,3,0,0,0,0", NULL);
	expect_fail(&r, "set-joint", "mjCOM_BADVALUE", "quaternion");
	hxctl(&r, a, "set-joint", "nosuch", "--qvel", "1", NULL);
	expect_fail(&r, "set-joint", "mjCOM_BADINDEX", "nosuch");
	free(s0);
	hxd_close(c);
	hx_run_free(&r);
}

/* The list of arrays, as JSON and as a table. */
static void
expect_arrays_listed(const char *a)
{
	struct hx_run r = { 0 };

	hxctl_json(&r, a, "arrays", NULL);
	cr_assert_not_null(strstr(r.out,
			       "{\"name\":\"ctrl\",\"owner\":\"data\",\"type\":"
			       "\"double\",\"rows\":2,\"cols\":1,\"writable\":"
			       "true}"),
	    "%s", r.out);
	cr_assert_not_null(strstr(r.out,
			       "{\"name\":\"geom_rgba\",\"owner\":\"model\","
			       "\"type\":\"float\",\"rows\":7,\"cols\":4,"
			       "\"writable\":true}"),
	    "%s", r.out);
	cr_assert_not_null(strstr(r.out,
			       "\"name\":\"qacc\",\"owner\":\"data\","
			       "\"type\":\"double\",\"rows\":8,"
			       "\"cols\":1,\"writable\":false}"),
	    "%s", r.out);
	hxctl(&r, a, "arrays", NULL);
	expect_ok(&r);
	cr_assert(strncmp(r.out, "name ", 5) == 0, "%s", r.out);
	cr_assert_not_null(strstr(r.out, "\nxfrc_applied "), "%s", r.out);
	cr_assert_not_null(
	    strstr(r.out, "  data   double          5 x 6  yes\n"), "%s",
	    r.out);

	hx_run_free(&r);
}

/* Arrays that cannot be written, or not so, and a name that is none. */
static void
expect_array_refusals(const char *a)
{
	struct hx_run r = { 0 };

	hxctl(&r, a, "set", "qacc", "0", NULL);
	expect_fail(
	    &r, "set", "mjCOM_DENIED", "qacc is not writable: computed");
	hxctl(&r, a, "set", "ctrl", "--offset", "2", "1", NULL);
	expect_fail(&r, "set", "mjCOM_BADSIZE", "ctrl");
	hxctl(&r, a, "get", "nosuch", NULL);
	expect_fail(&r, "get", "mjCOM_BADTYPE", "nosuch");
	hx_run_free(&r);
}

Test(hxctl, arrays_by_name_round_trip)
{
	struct hx_run r = { 0 };
	hxd_applied *ap;
	hxd_conn *c;
	const char *a;
	double v[64];
	int i;

	a = start(fixture_args);
	expect_arrays_listed(a);

	hxctl(&r, a, "set", "qfrc_applied", "--offset", "2", "1.5", "-2.25",
	    NULL);
	expect_ok(&r);
	cr_assert_str_empty(r.out);
	c = hx_connect_ok(a, "checker");
	cr_assert_eq(hxd_get_applied(c, &ap), HXD_OK);
	for (i = 0; i < 8; i++)
		cr_assert_eq(ap->qfrc_applied[i],
		    i == 2     ? 1.5 :
			i == 3 ? -2.25 :
				 0,
		    "qfrc_applied[%d] is %g", i, ap->qfrc_applied[i]);
	free(ap);
	hxctl_json(&r, a, "get", "qfrc_applied", NULL);
	cr_assert(strncmp(r.out,
		      "{\"name\":\"qfrc_applied\",\"owner\":\"data\",\"type\":"
		      "\"double\",\"rows\":8,\"cols\":1,\"writable\":true,",
		      88) == 0,
	    "%s", r.out);
	expect_nums(r.out, "values",
	    (const double[]){ 0, 0, 1.5, -2.25, 0, 0, 0, 0 }, 8);

	hxctl(&r, a, "get", "geom_rgba", NULL);
	expect_ok(&r);
	cr_assert(strncmp(r.out, "geom_rgba (model, float, 7 x 4, writable)\n",
		      42) == 0,
	    "%s", r.out);
	cr_assert_not_null(
	    strstr(r.out,
		"\n   5  box              0.2          0.5          "
		"0.9            1\n"),
	    "%s", r.out);
	hxctl(&r, a, "set", "model.geom_rgba", "--offset", "20", "1", "0", "0",
	    NULL);
	expect_ok(&r);
	hxctl(&r, a, "rgba", "geom", "box", NULL);
	cr_assert_str_eq(r.out, "1 0 0 1\n");
	hxctl_json(&r, a, "get", "geom_rgba", NULL);
	cr_assert_eq(json_nums(r.out, "values", v, 64), 28);

	expect_array_refusals(a);
	hxd_close(c);
	hx_run_free(&r);
}

HX_TRANSPORT_TEST(
    hxctl, reset_run_resets_then_runs, "-m", "fixture.xml", "--paused", NULL)
{
	struct hx_run r = { 0 };
	hxd_conn *c;
	hxd_status st;

	hxctl(&r, addr, "step", "50", NULL);
	expect_ok(&r);
	cr_assert_gt(status_time(addr), 0.09);
	hxctl(&r, addr, "reset", "dropped", "--run", NULL);
	expect_ok(&r);
	c = hx_connect_ok(addr, "test_hxctl");
	st = hx_status_ok(c);
	cr_expect_eq(st.paused, 0, "running after reset --run");
	/* Keyframe "dropped" starts at time 1: the reset came first. */
	cr_expect(st.time >= 1 && st.time < 1.09, "time %g", st.time);
	cr_assert_eq(hxd_pause(c), HXD_OK, "%s", hxd_error(c));
	hxd_close(c);
	/* A failed reset does not run. */
	hxctl(&r, addr, "reset", "nosuchkey", "--run", NULL);
	cr_expect_eq(r.status, 1, "%s", r.err);
	c = hx_connect_ok(addr, "test_hxctl");
	st = hx_status_ok(c);
	cr_expect_eq(st.paused, 1, "a failed reset leaves it paused");
	hxd_close(c);
	hx_run_free(&r);
}

/* hxctl history: what is kept, one state, and resuming from it. */
HX_TRANSPORT_TEST(
    hxctl, history_shows_and_resumes, "-m", "fixture.xml", "--paused", NULL)
{
	struct hx_run r = { 0 };

	hxctl(&r, addr, "step", "10", NULL);
	expect_ok(&r);
	hxctl(&r, addr, "history", NULL);
	expect_ok(&r);
	cr_assert(strncmp(r.out, "10 states of ", 13) == 0, "%s", r.out);
	hxctl_json(&r, addr, "history", "3", NULL);
	cr_assert_eq(json_num(r.out, "step"), 7, "%s", r.out);
	cr_assert_float_eq(json_num(r.out, "time"), 7 * FIXTURE_DT, 1e-12);
	cr_assert_not_null(strstr(r.out, "\"qpos\":["), "%s", r.out);
	hxctl(&r, addr, "history", "resume", "3", NULL);
	expect_ok(&r);
	cr_assert_str_eq(r.out, "resumed from the state 3 back\n");
	hxctl_json(&r, addr, "status", NULL);
	cr_assert_eq(json_num(r.out, "steps"), 7, "%s", r.out);
	hxctl(&r, addr, "history", "99", NULL);
	cr_assert_neq(r.status, 0);
	cr_assert_not_null(strstr(r.err, "holds 7"), "%s", r.err);
	hxctl(&r, addr, "history", "x", NULL);
	cr_assert_eq(r.status, 2, "%s", r.err);
	hx_run_free(&r);
}
