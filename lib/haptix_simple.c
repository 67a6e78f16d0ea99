/*
 * The HAPTIX simple API as MuJoCo HAPTIX's haptix.h declares it: the hx_
 * calls over the core in haptix_compat.c, which the native flavour and
 * OSRF's dialect share.
 */
#include "config.h"

#include "haptix.h"
#include "haptix_compat.h"

_Static_assert(hxMAXMOTOR == 32 && hxMAXJOINT == 32 &&
	hxMAXCONTACTSENSOR == 32 && hxMAXIMU == 32,
    "hxMAX* as HAPTIX defines");

/* Turn a result code into the simple API's hxOK or hxERROR. */
static hxResult
simple_result(int rc)
{
	return rc == HXD_OK ? hxOK : hxERROR;
}

/* Point the core's sensor description at an hxSensor. */
static void
simple_sensor(hxSensor *s, struct compat_sensor *out)
{
	out->sec = &s->time_stamp.sec;
	out->nsec = &s->time_stamp.nsec;
	out->motor_pos = s->motor_pos;
	out->motor_vel = s->motor_vel;
	out->motor_torque = s->motor_torque;
	out->joint_pos = s->joint_pos;
	out->joint_vel = s->joint_vel;
	out->contact = s->contact;
	out->imu_linear_acc = s->imu_linear_acc;
	out->imu_angular_vel = s->imu_angular_vel;
	out->imu_orientation = s->imu_orientation;
}

hxResult
hx_connect(const char *host, int port)
{
	(void)port; /* the server address says it, as in MuJoCo HAPTIX */
	return simple_result(compat_connect(host, 0));
}

hxResult
hx_close(void)
{
	return simple_result(compat_close());
}

hxResult
hx_robot_info(hxRobotInfo *info)
{
	struct compat_info out = {
		&info->motor_count,
		&info->joint_count,
		&info->contact_sensor_count,
		&info->imu_count,
		info->motor_limit,
		info->joint_limit,
		&info->update_rate,
	};

	return simple_result(compat_robot_info(&out));
}

hxResult
hx_update(const hxCommand *command, hxSensor *sensor)
{
	struct compat_command cmd = {
		command->ref_pos,
		command->ref_vel,
		command->gain_pos,
		command->gain_vel,
		NULL,
		command->ref_pos_enabled,
		command->ref_vel_enabled,
		command->gain_pos_enabled,
		command->gain_vel_enabled,
		0,
	};
	struct compat_sensor out;

	simple_sensor(sensor, &out);
	return simple_result(compat_robot_update(&cmd, &out, 0));
}

hxResult
hx_read_sensors(hxSensor *sensor)
{
	struct compat_sensor out;

	simple_sensor(sensor, &out);
	return simple_result(compat_robot_update(NULL, &out, 0));
}

const char *
hx_last_result(void)
{
	return compat_text();
}

double
hx_double_time(const hxTime *time)
{
	return (double)time->sec + (double)time->nsec * 1e-9;
}
