/*
 * The public structs that go both ways, as their messages: one table
 * each, read by decode_payload() for answers and by request_encode()
 * for requests.  Internal to libhaptix.
 */
#ifndef HX_TABLES_H
#define HX_TABLES_H

#include "decode.h"

static const struct decode_field state_fields[] = {
	DECODE_SCALAR(hxd_state, nq),
	DECODE_SCALAR(hxd_state, nv),
	DECODE_SCALAR(hxd_state, na),
	DECODE_SCALAR(hxd_state, time),
	DECODE_ARRAY(hxd_state, qpos, "nq", 1),
	DECODE_ARRAY(hxd_state, qvel, "nv", 1),
	DECODE_ARRAY(hxd_state, act, "na", 1),
};

static const struct decode_field control_fields[] = {
	DECODE_SCALAR(hxd_control, nu),
	DECODE_SCALAR(hxd_control, time),
	DECODE_ARRAY(hxd_control, ctrl, "nu", 1),
};

static const struct decode_field applied_fields[] = {
	DECODE_SCALAR(hxd_applied, nv),
	DECODE_SCALAR(hxd_applied, nbody),
	DECODE_SCALAR(hxd_applied, time),
	DECODE_ARRAY(hxd_applied, qfrc_applied, "nv", 1),
	DECODE_ARRAY(hxd_applied, xfrc_applied, "nbody", 6),
};

static const struct decode_field mocap_fields[] = {
	DECODE_SCALAR(hxd_mocap, nmocap),
	DECODE_SCALAR(hxd_mocap, time),
	DECODE_ARRAY(hxd_mocap, pos, "nmocap", 3),
	DECODE_ARRAY(hxd_mocap, quat, "nmocap", 4),
};

static const struct decode_field sensor_fields[] = {
	DECODE_SCALAR(hxd_sensor, nsensordata),
	DECODE_SCALAR(hxd_sensor, time),
	DECODE_ARRAY(hxd_sensor, sensordata, "nsensordata", 1),
};

#endif
