/*
 * HAPTIX's simple API: hx_robot_info and hx_update (hx_read_sensors is an
 * update with no command enabled).  The model-structure mapping itself is
 * the sim's (sim_robot.c); here the arguments are checked and the
 * messages built.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>

#include "api.h"
#include "arena.h"
#include "clock.h"
#include "daemon.h"
#include "session.h"
#include "sim.h"
#include "sim_robot.h"

/* A RobotSensor message of the current sensor data, in arena a. */
static Haptix__V1__RobotSensor *
robot_sensor_now(struct daemon *d, struct arena *a)
{
	Haptix__V1__RobotSensor *w = arena_alloc(a, sizeof(*w));
	struct sim_robot_info info;
	struct sim_robot_sensor out;
	size_t nm, nj, nc, ni;

	sim_robot_info(d->sim, &info, NULL, NULL);
	nm = (size_t)info.nmotor;
	nj = (size_t)info.njoint;
	nc = (size_t)info.ncontact;
	ni = (size_t)info.nimu;
	out.motor_pos = arena_alloc(a, nm * sizeof(double));
	out.motor_vel = arena_alloc(a, nm * sizeof(double));
	out.motor_torque = arena_alloc(a, nm * sizeof(double));
	out.joint_pos = arena_alloc(a, nj * sizeof(double));
	out.joint_vel = arena_alloc(a, nj * sizeof(double));
	out.contact = arena_alloc(a, nc * sizeof(double));
	out.imu_acc = arena_alloc(a, 3 * ni * sizeof(double));
	out.imu_gyro = arena_alloc(a, 3 * ni * sizeof(double));
	sim_robot_sensor(d->sim, &out);

	haptix__v1__robot_sensor__init(w);
	w->time = sim_time(d->sim);
	w->motor_count = (uint32_t)nm;
	w->joint_count = (uint32_t)nj;
	w->contact_sensor_count = (uint32_t)nc;
	w->imu_count = (uint32_t)ni;
	w->n_motor_pos = w->n_motor_vel = w->n_motor_torque = nm;
	w->motor_pos = out.motor_pos;
	w->motor_vel = out.motor_vel;
	w->motor_torque = out.motor_torque;
	w->n_joint_pos = w->n_joint_vel = nj;
	w->joint_pos = out.joint_pos;
	w->joint_vel = out.joint_vel;
	w->n_contact = nc;
	w->contact = out.contact;
	w->n_imu_linear_acc = w->n_imu_angular_vel = 3 * ni;
	w->imu_linear_acc = out.imu_acc;
	w->imu_angular_vel = out.imu_gyro;
	return w;
}

int
api_gains_undone(struct call *c)
{
	char why[sizeof(c->err)];

	if (!sim_robot_gains_undone(c->d->sim, c->s->id, why, sizeof(why)))
		return 0;
	return call_fail(c, RESULT_SIMERROR, "%s", why);
}

int
api_robot_info(struct call *c)
{
	Haptix__V1__RobotInfo *w = NEW(
	    c, Haptix__V1__RobotInfo, haptix__v1__robot_info__init);
	struct sim_robot_info info;

	sim_robot_info(c->d->sim, &info, NULL, NULL);
	w->motor_count = (uint32_t)info.nmotor;
	w->joint_count = (uint32_t)info.njoint;
	w->contact_sensor_count = (uint32_t)info.ncontact;
	w->imu_count = (uint32_t)info.nimu;
	w->n_motor_limit = 2 * (size_t)info.nmotor;
	w->motor_limit = arena_alloc(
	    c->arena, w->n_motor_limit * sizeof(double));
	w->n_joint_limit = 2 * (size_t)info.njoint;
	w->joint_limit = arena_alloc(
	    c->arena, w->n_joint_limit * sizeof(double));
	sim_robot_info(c->d->sim, &info, w->motor_limit, w->joint_limit);
	w->update_rate = info.update_rate;
	w->servo = info.servo == SIM_SERVO_VELOCITY ?
	    HAPTIX__V1__SERVO_KIND__SERVO_VELOCITY :
	    HAPTIX__V1__SERVO_KIND__SERVO_POSITION;
	PAYLOAD(c, robot_info, ROBOT_INFO, w);
	return RESULT_OK;
}

/* The payload of a robot update answered at the API tick. */
static void
robot_fill(struct daemon *d, struct arena *a, Response *resp)
{
	resp->payload_case = HAPTIX__V1__RESPONSE__PAYLOAD_ROBOT_SENSOR;
	resp->robot_sensor = robot_sensor_now(d, a);
}

/*
 * Check one command array when its flag is set: one finite value per
 * motor, and no negative gains.  Sets *use to the array or NULL.
 */
static int
robot_array(struct call *c, const char *what, int enabled, const double *v,
    size_t n, size_t nmotor, int gain, const double **use)
{
	size_t i;
	int rc;

	*use = NULL;
	if (!enabled)
		return 0;
	if ((rc = check_len(c, what, n, nmotor)) != 0 ||
	    (rc = check_finite(c, what, v, n)) != 0)
		return rc;
	for (i = 0; gain && i < n; i++) {
		if (v[i] < 0)
			return call_fail(c, RESULT_BADVALUE,
			    "%s[%zu] is %g: "
			    "gains must not be negative",
			    what, i, v[i]);
	}
	*use = v;
	return 0;
}

int
api_robot_update_writes(const struct call *c)
{
	const Haptix__V1__RobotCommand *w = c->req->robot_update;

	/* A command changes the controls; an empty one only reads. */
	return w->ref_pos_enabled || w->ref_vel_enabled ||
	    w->gain_pos_enabled || w->gain_vel_enabled ||
	    w->ref_vel_max_enabled;
}

int
api_robot_update(struct call *c)
{
	const Haptix__V1__RobotCommand *w = c->req->robot_update;
	struct sim_robot_command cmd;
	struct sim_robot_info info;
	size_t n;
	int rc;

	if ((rc = api_gains_undone(c)) != 0)
		return rc;
	sim_robot_info(c->d->sim, &info, NULL, NULL);
	n = (size_t)info.nmotor;
	if ((rc = robot_array(c, "ref_pos", w->ref_pos_enabled, w->ref_pos,
		 w->n_ref_pos, n, 0, &cmd.ref_pos)) ||
	    (rc = robot_array(c, "ref_vel", w->ref_vel_enabled, w->ref_vel,
		 w->n_ref_vel, n, 0, &cmd.ref_vel)) ||
	    (rc = robot_array(c, "gain_pos", w->gain_pos_enabled, w->gain_pos,
		 w->n_gain_pos, n, 1, &cmd.gain_pos)) ||
	    (rc = robot_array(c, "gain_vel", w->gain_vel_enabled, w->gain_vel,
		 w->n_gain_vel, n, 1, &cmd.gain_vel)) ||
	    (rc = robot_array(c, "ref_vel_max", w->ref_vel_max_enabled,
		 w->ref_vel_max, w->n_ref_vel_max, n, 1, &cmd.ref_vel_max)))
		return rc;
	cmd.client = c->s->id;
	sim_robot_command(c->d->sim, &cmd);

	/* HAPTIX: running, wait one API period; paused, do not step. */
	if (clock_running(c->d->clock) && info.update_rate >= 1 &&
	    !w->no_wait) {
		c->fill = robot_fill;
		return CALL_WAIT_TICK;
	}
	PAYLOAD(
	    c, robot_sensor, ROBOT_SENSOR, robot_sensor_now(c->d, c->arena));
	return RESULT_OK;
}
