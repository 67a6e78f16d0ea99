/*
 * A program written for OSRF's Gazebo HAPTIX (haptix/comm/haptix.h), as
 * its users wrote them: no hx_connect, ref_vel_max in the command, a
 * sleep between non-blocking updates, libm (OSRF's examples move in
 * sines).  Built by the test suite against the installed-style header,
 * and with pkg-config's flags alone, and run against a real haptixd.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <haptix/comm/haptix.h>

int
main(void)
{
	hxRobotInfo info;
	hxSensor sensor;
	hxCommand cmd;
	volatile double quarter = 0.25; /* sin() at run time, from libm */
	int i;

	if (hx_robot_info(&info) != hxOK) {
		printf("robot_info: %s\n", hx_last_result());
		return 1;
	}
	printf("motors %d joints %d\n", info.motor_count, info.joint_count);
	memset(&cmd, 0, sizeof(cmd));
	cmd.ref_pos[0] = info.motor_limit[0][1] *
	    (float)sin(2 * M_PI * quarter);
	cmd.ref_pos_enabled = 1;
	cmd.ref_vel_max[0] = 1.0f;
	cmd.ref_vel_max_enabled = 1;
	cmd.ref_vel_enabled = 0;
	cmd.gain_pos_enabled = 0;
	cmd.gain_vel_enabled = 0;
	for (i = 0; i < 20; i++) {
		if (hx_update(&cmd, &sensor) != hxOK) {
			printf("update: %s\n", hx_last_result());
			return 1;
		}
		usleep(10000);
	}
	if (hx_read_sensors(&sensor) != hxOK)
		return 1;
	/* A NULL is an error with a message, not a crash. */
	if (hx_read_sensors(NULL) != hxERROR ||
	    hx_update(NULL, &sensor) != hxERROR ||
	    hx_robot_info(NULL) != hxERROR) {
		printf("NULL accepted\n");
		return 1;
	}
	printf("NULL: %s\n", hx_last_result());
	printf("time %d.%09d motor0 %.3f\n", sensor.time_stamp.sec,
	    sensor.time_stamp.nsec, sensor.motor_pos[0]);
	hx_close();
	return 0;
}
