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

hxResult
hx_connect(const char *host, int port)
{
	/* MuJoCo HAPTIX ignored the port; a host with one names it here. */
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
		NULL,
		command->ref_pos_enabled,
		command->ref_vel_enabled,
		command->gain_pos_enabled,
		command->gain_vel_enabled,
		0,
	};
	out = (struct compat_sensor)COMPAT_SENSOR(sensor);
	return COMPAT_HX(compat_robot_update(&cmd, &out, 0));
}

hxResult
hx_read_sensors(hxSensor *sensor)
{
	struct compat_sensor out;

	if (sensor == NULL)
		return COMPAT_HX(compat_null("hx_read_sensors", "sensor"));
	out = (struct compat_sensor)COMPAT_SENSOR(sensor);
	return COMPAT_HX(compat_robot_update(NULL, &out, 0));
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
