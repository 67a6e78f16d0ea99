/*
 * The extension API's view of HAPTIX's simple API (haptixd.h): the robot
 * as hx_robot_info sees the model, and one hx_update.
 */
#include "config.h"

#include "request.h"

static const struct decode_field robot_fields[] = DECODE_TABLE(
    hxd_robot, RobotInfo);
static const struct decode_field robot_sensor_fields[] = DECODE_TABLE(
    hxd_robot_sensor, RobotSensor);

int
hxd_robot_info(hxd_conn *c, hxd_robot **out)
{
	return REQUEST_GET(
	    c, ROBOT_INFO, ROBOT_INFO, hxd_robot, robot_fields, out);
}

int
hxd_robot_update(
    hxd_conn *c, const hxd_robot_command *cmd, hxd_robot_sensor **out)
{
	Haptix__V1__RobotCommand w = HAPTIX__V1__ROBOT_COMMAND__INIT;
	Response *r;
	size_t n;
	int rc;

	*out = NULL;
	if (cmd != NULL) {
		if (cmd->motor_count < 0)
			return conn_fail(c, HXD_BADSIZE,
			    "motor_count is "
			    "negative (%d)",
			    cmd->motor_count);
		n = (size_t)cmd->motor_count;
		w.no_wait = cmd->no_wait != 0;
#define ROBOT_ARRAY(name) \
	if (cmd->name != NULL) { \
		w.name##_enabled = 1; \
		w.n_##name = n; \
		w.name = (double *)cmd->name; \
	}
		ROBOT_ARRAY(ref_pos)
		ROBOT_ARRAY(ref_vel)
		ROBOT_ARRAY(gain_pos)
		ROBOT_ARRAY(gain_vel)
		ROBOT_ARRAY(ref_vel_max)
#undef ROBOT_ARRAY
	}
	rc = request_call(c, HAPTIX__V1__REQUEST__CALL_ROBOT_UPDATE, &w,
	    HAPTIX__V1__RESPONSE__PAYLOAD_ROBOT_SENSOR, &r);
	if (rc != HXD_OK)
		return rc;
	*out = decode_payload(c, r, robot_sensor_fields,
	    NELEM(robot_sensor_fields), sizeof(**out));
	conn_free_response(r);
	return c->result;
}
