/*
 * The HAPTIX simple API as OSRF's Gazebo HAPTIX declares it
 * (haptix/comm/haptix.h): its own hxCommand, calls exported as hxosrf_*,
 * connection on first use and no waiting for the update period.
 */
#include "config.h"

#include "haptix/comm/haptix.h"
#include "haptix_compat.h"

/* Turn a result code into hxOK or hxERROR. */
static hxResult
osrf_result(int rc)
{
	return rc == HXD_OK ? hxOK : hxERROR;
}

/* Point the core's sensor description at an hxSensor. */
static void
osrf_sensor(hxSensor *s, struct compat_sensor *out)
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
	return osrf_result(compat_connect(host, port));
}

hxResult
hx_close(void)
{
	return osrf_result(compat_close());
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

	if (compat_ensure_connected() != HXD_OK)
		return hxERROR;
	return osrf_result(compat_robot_info(&out));
}

hxResult
hx_update(const hxCommand *command, hxSensor *sensor)
{
	struct compat_command cmd = {
		command->ref_pos,
		command->ref_vel,
		command->gain_pos,
		command->gain_vel,
		command->ref_vel_max,
		command->ref_pos_enabled,
		command->ref_vel_enabled,
		command->gain_pos_enabled,
		command->gain_vel_enabled,
		command->ref_vel_max_enabled,
	};
	struct compat_sensor out;

	if (compat_ensure_connected() != HXD_OK)
		return hxERROR;
	osrf_sensor(sensor, &out);
	return osrf_result(compat_robot_update(&cmd, &out, 1));
}

hxResult
hx_read_sensors(hxSensor *sensor)
{
	struct compat_sensor out;

	if (compat_ensure_connected() != HXD_OK)
		return hxERROR;
	osrf_sensor(sensor, &out);
	return osrf_result(compat_robot_update(NULL, &out, 1));
}

const char *
hx_last_result(void)
{
	return compat_text();
}
