/*
 * What both HAPTIX API flavours (haptix_native.c, haptix_simple.c) and
 * both header dialects (MuJoCo's haptix.h, OSRF's haptix/comm/haptix.h)
 * share: the process-wide connection, the last result and its text, the
 * user's error handler, and the simple API's core.  Internal to
 * libhaptix; it includes neither dialect's header, so codes are ints with
 * the values of mjtResult (and hxd_result).
 */
#ifndef HX_HAPTIX_COMPAT_H
#define HX_HAPTIX_COMPAT_H

#include "haptixd.h"

/* Return the connection, or NULL after recording HXD_NOCONNECTION. */
hxd_conn *compat_connection(void);

/*
 * Connect the process-wide connection to host (see mj_connect()); a
 * positive port is used when host names no port.
 */
int compat_connect(const char *host, int port);

/* Return 1 if the process-wide connection is usable, else 0. */
int compat_connection_ok(void);

/* Connect to the default server unless connected (OSRF's first use). */
int compat_ensure_connected(void);

/* Close the process-wide connection. */
int compat_close(void);

/* Record the result of an extension call on the connection. */
int compat_done(int rc);

/* Record a failure found in the compatibility layer itself. */
int compat_fail(int code, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Record a NULL argument of call as mjCOM_BADVALUE, saying which. */
int compat_null(const char *call, const char *arg);

/* The last result and its text ("mjCOM_BADSIZE: ..."). */
int compat_last(void);
const char *compat_text(void);

/* Install the function called with the code of every failing call. */
void compat_set_handler(void (*handler)(int));

/* Where the fields of an hxRobotInfo are, in either dialect. */
struct compat_info {
	int *motor_count, *joint_count, *contact_sensor_count, *imu_count;
	float (*motor_limit)[2], (*joint_limit)[2];
	float *update_rate;
};

/* Where the fields of an hxSensor are, in either dialect. */
struct compat_sensor {
	int *sec, *nsec;
	float *motor_pos, *motor_vel, *motor_torque;
	float *joint_pos, *joint_vel, *contact;
	float (*imu_linear_acc)[3], (*imu_angular_vel)[3];
	float (*imu_orientation)[4];
};

/*
 * Initialisers pointing the descriptions above at a dialect's structs:
 * both dialects name the fields alike, so one macro serves both.
 */
#define COMPAT_INFO(i) \
	{ \
		&(i)->motor_count, &(i)->joint_count, \
		    &(i)->contact_sensor_count, &(i)->imu_count, \
		    (i)->motor_limit, (i)->joint_limit, &(i)->update_rate \
	}
#define COMPAT_SENSOR(s) \
	{ \
		&(s)->time_stamp.sec, &(s)->time_stamp.nsec, (s)->motor_pos, \
		    (s)->motor_vel, (s)->motor_torque, (s)->joint_pos, \
		    (s)->joint_vel, (s)->contact, (s)->imu_linear_acc, \
		    (s)->imu_angular_vel, (s)->imu_orientation \
	}

/* A dialect's hxResult for a result code. */
#define COMPAT_HX(rc) ((rc) == HXD_OK ? hxOK : hxERROR)

/* An hxCommand of either dialect; enabled means > 0, as HAPTIX says. */
struct compat_command {
	const float *ref_pos, *ref_vel, *gain_pos, *gain_vel, *ref_vel_max;
	int ref_pos_enabled, ref_vel_enabled, gain_pos_enabled;
	int gain_vel_enabled, ref_vel_max_enabled;
};

/* hx_robot_info: fetch, check against hxMAX*, remember, fill out. */
int compat_robot_info(const struct compat_info *out);

/* hx_update: cmd may be NULL (hx_read_sensors); no_wait for Gazebo's semantics.
 */
int compat_robot_update(const struct compat_command *cmd,
    const struct compat_sensor *out, int no_wait);

#endif
