/*
 * Integration tests of hxctl (clients/hxctl.c) against a real haptixd on
 * models/test/fixture.xml, over the Unix socket and TCP: the Simple
 * API's robot: robot info, hx-update commanding the servos and reading
 * the sensors, waiting for the tick unless --no-wait.
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

Test(hxctl, robot_is_the_model_as_the_simple_api_sees_it)
{
	struct hx_run r = { 0 };
	const char *a;

	a = start(fixture_args);
	hxctl_json(&r, a, "robot", NULL);
	cr_assert_eq(json_num(r.out, "motor_count"), 2, "%s", r.out);
	cr_assert_eq(json_num(r.out, "joint_count"), 2, "%s", r.out);
	cr_assert_eq(json_num(r.out, "contact_sensor_count"), 0, "%s", r.out);
	cr_assert_eq(json_num(r.out, "imu_count"), 1, "%s", r.out);
	cr_assert_eq(json_num(r.out, "update_rate"), 50, "%s", r.out);
	cr_assert_not_null(
	    strstr(r.out, "\"servo\":\"position\""), "%s", r.out);
	expect_nums(r.out, "motor_limit", (const double[]){ -1, 1, -2, 2 }, 4);
	/* hinge2, which q2 senses, is not limited: 0 and 0. */
	expect_nums(
	    r.out, "joint_limit", (const double[]){ -1.5, 1.5, 0, 0 }, 4);

	hxctl(&r, a, "robot", NULL);
	expect_ok(&r);
	cr_assert(strncmp(r.out, "motors       2, position servos\n", 32) == 0,
	    "%s", r.out);
	cr_assert_not_null(strstr(r.out, "update rate  50 Hz\n"), "%s", r.out);
	cr_assert_not_null(
	    strstr(r.out, "   1  servo2           -2            2\n"), "%s",
	    r.out);
	cr_assert_not_null(
	    strstr(r.out, "   0  q1             -1.5          1.5\n"), "%s",
	    r.out);

	/* One jointpos and two jointvel sensors, all unnamed: joint 1 is
	 * the second jointvel sensor, sensor 2, on slide2. */
	hxctl(&r, a, "load", "velservo.xml", NULL);
	expect_ok(&r);
	hxctl_json(&r, a, "robot", NULL);
	cr_assert_not_null(
	    strstr(r.out, "\"servo\":\"velocity\""), "%s", r.out);
	expect_nums(r.out, "motor_limit", (const double[]){ -2, 2, 0, 0 }, 4);
	expect_nums(r.out, "joint_limit", (const double[]){ 0, 0, -1, 1 }, 4);
	hxctl(&r, a, "robot", NULL);
	expect_ok(&r);
	cr_assert_not_null(
	    strstr(r.out, "   1  #2               -1            1\n"), "%s",
	    r.out);
	hx_run_free(&r);
}

Test(hxctl, hx_update_commands_the_servos_and_reads_the_sensors)
{
	struct hx_run r = { 0 };
	const char *a;
	double v[4];

	a = start(fixture_args);
	hxctl(&r, a, "hx-update", "--ref-pos", "0.5,-1", NULL);
	expect_ok(&r);
	/* Paused: no step. */
	cr_assert(strncmp(r.out, "time 0\nmotors\n", 14) == 0, "%s", r.out);
	cr_assert_not_null(strstr(r.out, "   0  servo1 "), "%s", r.out);
	cr_assert_not_null(strstr(r.out, "   1  servo2 "), "%s", r.out);
	cr_assert_not_null(strstr(r.out, "   1  q2 "), "%s", r.out);
	cr_assert_not_null(strstr(r.out, "   0  acc "), "%s", r.out);
	hxctl_json(&r, a, "ctrl", NULL);
	expect_nums(r.out, "ctrl", (const double[]){ 0.5, -1 }, 2);

	/* References are clamped to the control range. */
	hxctl(&r, a, "hx-update", "--ref-pos=5,0", NULL);
	expect_ok(&r);
	hxctl_json(&r, a, "ctrl", NULL);
	expect_nums(r.out, "ctrl", (const double[]){ 1, 0 }, 2);

	/* The position gain reaches the servo: f1 = kp (ctrl - q). */
	hxctl(&r, a, "hx-update", "--ref-pos", "0.1,0", "--gain-pos", "100,20",
	    "--gain-vel", "0,0", NULL);
	expect_ok(&r);
	hxctl(&r, a, "step", NULL);
	expect_ok(&r);
	hxctl_json(&r, a, "hx-update", NULL);
	cr_assert_float_eq(json_num(r.out, "time"), FIXTURE_DT, 1e-15);
	cr_assert_eq(json_num(r.out, "motor_count"), 2, "%s", r.out);
	cr_assert_eq(json_num(r.out, "contact_sensor_count"), 0, "%s", r.out);
	cr_assert_eq(json_nums(r.out, "motor_torque", v, 4), 2, "%s", r.out);
	cr_assert_float_eq(v[0], 10, 1e-9, "%s", r.out);
	expect_nums(r.out, "contact", NULL, 0);
	expect_nums(r.out, "imu_angular_vel", (const double[]){ 0, 0, 0 }, 3);

	/* A wrong count fails before the command is sent, as in set-ctrl. */
	hxctl(&r, a, "hx-update", "--ref-pos", "1", NULL);
	expect_fail(&r, "hx-update", "mjCOM_BADSIZE", "motor_count = 2");
	hxctl(&r, a, "hx-update", "--ref-pos", "0,0", "--gain-vel", "1,2,3",
	    NULL);
	expect_fail(&r, "hx-update", "mjCOM_BADSIZE", "--gain-vel");
	/* The server refuses the whole command. */
	hxctl(&r, a, "hx-update", "--ref-pos", "0.2,0.2", "--gain-pos", "-1,0",
	    NULL);
	expect_fail(&r, "hx-update", "mjCOM_BADVALUE", "gain_pos");
	hxctl_json(&r, a, "ctrl", NULL);
	expect_nums(r.out, "ctrl", (const double[]){ 0.1, 0 }, 2);
	hx_run_free(&r);
}

/*
 * At speed 0.001 the fixture steps every 2 s and reaches its first API
 * tick 20 s after it starts: hx-update waits for it, --no-wait does not.
 */
Test(hxctl, hx_update_waits_for_the_tick_unless_no_wait)
{
	struct hx_run r = { 0 };
	const char *a;

	a = start(
	    (const char *[]){ "-m", "fixture.xml", "--speed", "0.001", NULL });
	hxctl(&r, a, "--timeout", "1000", "hx-update", "--no-wait", NULL);
	expect_ok(&r);
	cr_assert(strncmp(r.out, "time ", 5) == 0, "%s", r.out);
	hxctl(&r, a, "--timeout", "1000", "hx-update", NULL);
	expect_fail(&r, "hx-update", "mjCOM_TIMEOUT", NULL);
	hxctl(&r, a, "--timeout", "1000", "hx-update", "--ref-pos", "0.5,0.5",
	    "--no-wait", NULL);
	expect_ok(&r);
	hxctl_json(&r, a, "ctrl", NULL);
	expect_nums(r.out, "ctrl", (const double[]){ 0.5, 0.5 }, 2);
	hx_run_free(&r);
}
