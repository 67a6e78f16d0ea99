/*
 * The HAPTIX simple API as OSRF's Gazebo HAPTIX declares it
 * (haptix/comm/haptix.h): its own hxCommand, calls exported as hxosrf_*,
 * connection on first use and no waiting for the update period.
 */
#include "config.h"

#include "haptix/comm/haptix.h"
#include "haptix_compat.h"

hxResult
hx_connect(const char *host, int port)
{
	return COMPAT_HX(compat_connect(host, port));
}

hxResult
hx_close(void)
{
	return COMPAT_HX(compat_close());
}

hxResult
hx_robot_info(hxRobotInfo *info)
{
	struct compat_info out;

	if (info == NULL)
		return COMPAT_HX(compat_null("hx_robot_info", "info"));
	out = (struct compat_info)COMPAT_INFO(info);
	if (compat_ensure_connected() != HXD_OK)
		return hxERROR;
	return COMPAT_HX(compat_robot_info(&out));
}

hxResult
hx_update(const hxCommand *command, hxSensor *sensor)
{
	struct compat_command cmd;
	struct compat_sensor out;

	if (command == NULL || sensor == NULL)
		return COMPAT_HX(compat_null(
		    "hx_update", command == NULL ? "command" : "sensor"));
	cmd = (struct compat_command){
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
	out = (struct compat_sensor)COMPAT_SENSOR(sensor);
	if (compat_ensure_connected() != HXD_OK)
		return hxERROR;
	return COMPAT_HX(compat_robot_update(&cmd, &out, 1));
}

hxResult
hx_read_sensors(hxSensor *sensor)
{
	struct compat_sensor out;

	if (sensor == NULL)
		return COMPAT_HX(compat_null("hx_read_sensors", "sensor"));
	out = (struct compat_sensor)COMPAT_SENSOR(sensor);
	if (compat_ensure_connected() != HXD_OK)
		return hxERROR;
	return COMPAT_HX(compat_robot_update(NULL, &out, 1));
}

const char *
hx_last_result(void)
{
	return compat_text();
}
