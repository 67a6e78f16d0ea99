/*
 * A program written for MuJoCo HAPTIX's haptix.h, as its users wrote
 * them: built by the test suite against the installed-style header and
 * run against a real haptixd by test_simple.  It prints what it saw and
 * exits 0 when the calls behaved.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "haptix.h"

#ifndef HAPTIX_LIBHAPTIX
#error "HAPTIX's own haptix.h was found before libhaptix's"
#endif

static hxRobotInfo info;
static hxSensor sensor;
static hxCommand command;
static mjState state;

int
main(void)
{
	int i, body;

	if (hx_connect(NULL, 0) != hxOK) {
		printf("connect: %s\n", hx_last_result());
		return 1;
	}
	if (hx_robot_info(&info) != hxOK) {
		printf("robot_info: %s\n", hx_last_result());
		return 1;
	}
	printf("motors %d joints %d contacts %d imus %d rate %g\n",
	    info.motor_count, info.joint_count, info.contact_sensor_count,
	    info.imu_count, info.update_rate);
	memset(&command, 0, sizeof(command));
	for (i = 0; i < info.motor_count; i++)
		command.ref_pos[i] = 0.5f * info.motor_limit[i][1];
	command.ref_pos_enabled = 1;
	for (i = 0; i < 100; i++) {
		if (hx_update(&command, &sensor) != hxOK) {
			printf("update: %s\n", hx_last_result());
			return 1;
		}
	}
	printf("time %.3f motor0 %.3f target %.3f\n",
	    hx_double_time(&sensor.time_stamp), sensor.motor_pos[0],
	    command.ref_pos[0]);
	if (mj_get_state(&state) != mjCOM_OK)
		return 1;
	body = mj_name2id("body", "box");
	printf("nq %d box %d\n", state.nq, body);
	/* The servo pulled the joint toward its reference. */
	if (sensor.motor_pos[0] < 0.2f * command.ref_pos[0] ||
	    sensor.motor_pos[0] > 2.0f * command.ref_pos[0])
		return 2;
	hx_close();
	return 0;
}
