/*
 * The model as HAPTIX's simple API sees it (sim_robot.c): its map of
 * motors, joints and sensors, commands with servo references and gains,
 * gains undone by an unstable step, sensors in the API's layout.
 */
#ifndef HXD_SIM_ROBOT_H
#define HXD_SIM_ROBOT_H

#include <stddef.h>
#include <stdint.h>

struct sim;

enum {
	SIM_SERVO_POSITION,
	SIM_SERVO_VELOCITY,
};

/* The model as HAPTIX's simple API sees it (see sim_robot.c). */
struct sim_robot_info {
	int nmotor, njoint, ncontact, nimu;
	int servo; /* SIM_SERVO_*, the kind of the first actuator */
	double update_rate;
};

/*
 * Describe the robot; limits (2 per motor, 2 per joint; (0, 0) when not
 * limited) are written when the arrays are not NULL.
 */
void sim_robot_info(const struct sim *s, struct sim_robot_info *out,
    double *motor_limit, double *joint_limit);

/*
 * A simple-API command: NULL arrays are not enabled; others have nmotor
 * values.  client names the sender, for sim_robot_gains_undone().
 */
struct sim_robot_command {
	const double *ref_pos, *ref_vel, *gain_pos, *gain_vel, *ref_vel_max;
	uint64_t client;
};

/*
 * Apply a command as HAPTIX's manual says: references clamped to the
 * control ranges; a position servo takes ref_pos, ref_vel (integrated
 * over one API period) and gain_pos (kp), a velocity servo ref_vel and
 * gain_vel (kv); the other fields are ignored.  Values have been checked
 * finite.
 */
void sim_robot_command(struct sim *s, const struct sim_robot_command *c);

/*
 * Return 1, once, with the reason in why, if the servo gains client set
 * were undone because the simulation went unstable with them; else 0.
 */
int sim_robot_gains_undone(
    struct sim *s, uint64_t client, char *why, size_t len);

/* Sensor values in the simple API's layout, into arrays sized by the info. */
struct sim_robot_sensor {
	double *motor_pos, *motor_vel, *motor_torque;
	double *joint_pos, *joint_vel, *contact;
	double *imu_acc, *imu_gyro; /* 3 per IMU */
};

void sim_robot_sensor(const struct sim *s, const struct sim_robot_sensor *out);

/* Hold the servos at the current pose (zero = 0), or zero all controls. */
void sim_controls_hold(struct sim *s, int zero);

#endif
