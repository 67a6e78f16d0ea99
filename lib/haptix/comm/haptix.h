/*
 * haptix/comm/haptix.h: the HAPTIX simple API as OSRF's Gazebo HAPTIX
 * (haptix-comm) declares it, served by haptixd.
 *
 * Programs written for Gazebo HAPTIX compile against this header
 * unchanged and link with -lhaptix.  Its hxCommand differs from MuJoCo
 * HAPTIX's (it adds ref_vel_max), so its calls are linked under names of
 * their own (hxosrf_*, through the macros below) and both kinds of
 * program share one library.  As in Gazebo, hx_update does not wait for
 * the next update and the hx_ calls connect to the default server on
 * first use.  docs/compat.md lists every difference.
 */
#ifndef HAPTIX_COMM_HAPTIX_H
#define HAPTIX_COMM_HAPTIX_H

#if defined(__cplusplus)
extern "C" {
#endif

#define hxMAXMOTOR 32
#define hxMAXJOINT 32
#define hxMAXCONTACTSENSOR 32
#define hxMAXIMU 32

typedef enum { hxOK = 0, hxERROR } hxResult;

struct _hxTime {
	int sec;
	int nsec;
};
typedef struct _hxTime hxTime;

struct _hxRobotInfo {
	int motor_count;
	int joint_count;
	int contact_sensor_count;
	int imu_count;
	float motor_limit[hxMAXMOTOR][2];
	float joint_limit[hxMAXJOINT][2];
	float update_rate;
};
typedef struct _hxRobotInfo hxRobotInfo;

struct _hxSensor {
	hxTime time_stamp;
	float motor_pos[hxMAXMOTOR];
	float motor_vel[hxMAXMOTOR];
	float motor_torque[hxMAXMOTOR];
	float joint_pos[hxMAXJOINT];
	float joint_vel[hxMAXJOINT];
	float contact[hxMAXCONTACTSENSOR];
	float imu_linear_acc[hxMAXIMU][3];
	float imu_angular_vel[hxMAXIMU][3];
	float imu_orientation[hxMAXIMU][4];
};
typedef struct _hxSensor hxSensor;

/* Each *_enabled > 0 applies its array; ref_vel_max limits the speed. */
struct _hxCommand {
	float ref_pos[hxMAXMOTOR];
	int ref_pos_enabled;
	float ref_vel[hxMAXMOTOR];
	int ref_vel_enabled;
	float ref_vel_max[hxMAXMOTOR];
	int ref_vel_max_enabled;
	float gain_pos[hxMAXMOTOR];
	int gain_pos_enabled;
	float gain_vel[hxMAXMOTOR];
	int gain_vel_enabled;
};
typedef struct _hxCommand hxCommand;

/* This dialect's calls are linked under their own names. */
#define hx_connect hxosrf_connect
#define hx_close hxosrf_close
#define hx_robot_info hxosrf_robot_info
#define hx_update hxosrf_update
#define hx_read_sensors hxosrf_read_sensors
#define hx_last_result hxosrf_last_result

/* Connect to host (NULL: the default server) and port (0: the default). */
hxResult hx_connect(const char *host, int port);

/* Close the connection. */
hxResult hx_close(void);

/* Get the robot's description. */
hxResult hx_robot_info(hxRobotInfo *robotinfo);

/* Send commands and get the latest sensors, without waiting. */
hxResult hx_update(const hxCommand *command, hxSensor *sensor);

/* Get the latest sensors, without waiting. */
hxResult hx_read_sensors(hxSensor *sensor);

/* Describe the result of the last call. */
const char *hx_last_result(void);

#if defined(__cplusplus)
}
#endif

#endif
