/*
 * Unit tests of the model as HAPTIX's simple API sees it
 * (daemon/sim_robot.c), in-process: the test fixture (position servos,
 * joint and actuator sensors, an accelerometer) and models/test/
 * velservo.xml (velocity servos) in a real sim; the robot's description
 * and sensors, commands (clamped references, references integrated over
 * an API period or speed-limited, gains), gains undone after an
 * instability and the client told once, and controls held.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <criterion/criterion.h>

#include "daemon.h"
#include "inproc.h"
#include "sim.h"
#include "sim_internal.h"
#include "sim_robot.h"
#include "sim_state.h"

TestSuite(sim_robot, .timeout = 30);

static struct daemon d;

static void
setup(const char *model)
{
	inproc_start(&d, NULL);
	inproc_load(&d, model);
}

/* Take n steps as the clock does. */
static void
steps(int n)
{
	char err[256];

	while (n-- > 0) {
		sim_before_step(d.sim);
		cr_assert_eq(sim_step(d.sim, err, sizeof(err)), 0, "%s", err);
	}
}

Test(sim_robot, info_of_the_fixture)
{
	struct sim_robot_info info;
	double motor_limit[4], joint_limit[4];

	setup("fixture.xml");
	sim_robot_info(d.sim, &info, motor_limit, joint_limit);
	cr_assert_eq(info.nmotor, 2);
	cr_assert_eq(info.njoint, 2, "two jointpos sensors, one jointvel");
	cr_assert_eq(info.ncontact, 0);
	cr_assert_eq(info.nimu, 1, "an accelerometer, no gyro");
	cr_assert_eq(info.servo, SIM_SERVO_POSITION);
	cr_assert_eq(info.update_rate, 50);
	cr_assert_arr_eq(motor_limit, ((const double[]){ -1, 1, -2, 2 }),
	    sizeof(motor_limit));
	cr_assert_arr_eq(joint_limit, ((const double[]){ -1.5, 1.5, 0, 0 }),
	    sizeof(joint_limit), "hinge2 is not limited");
	/* without arrays: the counts alone */
	sim_robot_info(d.sim, &info, NULL, NULL);
	cr_assert_eq(info.nmotor, 2);
	inproc_stop(&d);
}

Test(sim_robot, sensors_in_the_simple_layout)
{
	static const double qpos[9] = { 0.3, -0.2, 0.6, 0, 0.1, 1, 0, 0, 0 };
	double qvel[8] = { 0.5, 0.7 };
	double mpos[2], mvel[2], mtrq[2], jpos[2], jvel[2], acc[3], gyro[3];
	const struct sim_robot_sensor out = { .motor_pos = mpos,
		.motor_vel = mvel,
		.motor_torque = mtrq,
		.joint_pos = jpos,
		.joint_vel = jvel,
		.contact = NULL,
		.imu_acc = acc,
		.imu_gyro = gyro };
	const double *sd;

	setup("fixture.xml");
	sim_set_state(d.sim, qpos, qvel, NULL);
	gyro[0] = gyro[1] = gyro[2] = 9;
	sim_robot_sensor(d.sim, &out);
	sd = sim_arrays(d.sim)->sensordata;
	cr_assert_eq(jpos[0], 0.3);
	cr_assert_eq(jpos[1], -0.2);
	cr_assert_eq(jvel[0], 0.5);
	cr_assert_eq(jvel[1], 0, "hinge2 has no velocity sensor: zero");
	/* motors: the actuatorfrc sensor of servo1, the actuators' own */
	cr_assert_eq(mtrq[0], sd[3]);
	cr_assert_eq(mtrq[1], sim_arrays(d.sim)->actuator_force[1]);
	cr_assert_eq(mpos[0], 0.3);
	cr_assert_eq(mpos[1], -0.2);
	cr_assert_eq(mvel[1], 0.7);
	/* the IMU: the accelerometer at sensordata 8, no gyro */
	cr_assert_arr_eq(acc, sd + 8, sizeof(acc));
	cr_assert_arr_eq(gyro, ((const double[]){ 0, 0, 0 }), sizeof(gyro));
	inproc_stop(&d);
}

Test(sim_robot, position_command_clamped_with_gains)
{
	static const double ref[2] = { 5, -5 }, kp[2] = { 7, 8 };
	struct sim_robot_command c = { .ref_pos = ref, .client = 1 };
	const mjModel *m;
	uint64_t edits;

	setup("fixture.xml");
	m = d.sim->m;
	edits = sim_counters(d.sim)->model_edits;
	sim_robot_command(d.sim, &c);
	cr_assert_eq(sim_arrays(d.sim)->ctrl[0], 1, "clamped to ctrlrange");
	cr_assert_eq(sim_arrays(d.sim)->ctrl[1], -2);
	cr_assert_eq(sim_counters(d.sim)->model_edits, edits, "no gains");
	c.ref_pos = NULL;
	c.gain_pos = kp;
	c.gain_vel = ref; /* ignored by position servos */
	sim_robot_command(d.sim, &c);
	cr_assert_eq(m->actuator_gainprm[0], 7);
	cr_assert_eq(m->actuator_biasprm[1], -7);
	cr_assert_eq(m->actuator_gainprm[mjNGAIN], 8);
	cr_assert_eq(m->actuator_biasprm[mjNBIAS + 1], -8);
	cr_assert_eq(m->actuator_biasprm[2], 0, "kv untouched");
	cr_assert_eq(sim_counters(d.sim)->model_edits, edits + 1);
	inproc_stop(&d);
}

Test(sim_robot, ref_vel_is_integrated_over_one_api_period)
{
	static const double zero[2] = { 0, 0 }, vel[2] = { 10, -10 };
	struct sim_robot_command c = { .ref_pos = zero, .ref_vel = vel };
	const double *ctrl;

	setup("fixture.xml");
	ctrl = sim_arrays(d.sim)->ctrl;
	sim_robot_command(d.sim, &c);
	steps(1);
	cr_assert(fabs(ctrl[0] - 0.02) < 1e-12, "%.17g", ctrl[0]);
	/* 1 / (50 Hz x 2 ms) = 10 steps, then it stays */
	steps(9);
	cr_assert(fabs(ctrl[0] - 0.2) < 1e-12, "%.17g", ctrl[0]);
	cr_assert(fabs(ctrl[1] + 0.2) < 1e-12, "%.17g", ctrl[1]);
	steps(5);
	cr_assert(fabs(ctrl[0] - 0.2) < 1e-12, "%.17g", ctrl[0]);
	inproc_stop(&d);
}

Test(sim_robot, ref_vel_max_limits_the_references_speed)
{
	static const double ref[2] = { 0.5, -0.01 }, vmax[2] = { 1, -1 };
	struct sim_robot_command c = { .ref_pos = ref, .ref_vel_max = vmax };
	const double *ctrl;

	setup("fixture.xml");
	ctrl = sim_arrays(d.sim)->ctrl;
	sim_robot_command(d.sim, &c);
	cr_assert_eq(ctrl[0], 0, "not jumped to the target");
	steps(5);
	cr_assert(fabs(ctrl[0] - 0.01) < 1e-12, "%.17g", ctrl[0]);
	cr_assert(fabs(ctrl[1] + 0.01) < 1e-12, "reached: %.17g", ctrl[1]);
	steps(300);
	cr_assert_eq(ctrl[0], 0.5, "there, exactly");
	/* a control write forgets the moving reference */
	sim_robot_command(d.sim, &c);
	c.ref_pos = (const double[]){ -0.5, 0 };
	sim_robot_command(d.sim, &c);
	sim_set_ctrl(d.sim, (const double[]){ 0.25, 0 });
	steps(3);
	cr_assert_eq(ctrl[0], 0.25);
	inproc_stop(&d);
}

Test(sim_robot, velocity_servos)
{
	static const double vel[2] = { 5, -3 }, kv[2] = { 4, 6 };
	struct sim_robot_command c = { .ref_vel = vel, .gain_vel = kv };
	struct sim_robot_info info;
	double motor_limit[4];
	const mjModel *m;

	setup("velservo.xml");
	m = d.sim->m;
	sim_robot_info(d.sim, &info, motor_limit, NULL);
	cr_assert_eq(info.servo, SIM_SERVO_VELOCITY);
	cr_assert_eq(info.njoint, 2);
	cr_assert_arr_eq(motor_limit, ((const double[]){ -2, 2, 0, 0 }),
	    sizeof(motor_limit));
	sim_robot_command(d.sim, &c);
	cr_assert_eq(sim_arrays(d.sim)->ctrl[0], 2, "clamped");
	cr_assert_eq(sim_arrays(d.sim)->ctrl[1], -3, "not limited");
	cr_assert_eq(m->actuator_gainprm[0], 4);
	cr_assert_eq(m->actuator_biasprm[2], -4);
	cr_assert_eq(m->actuator_biasprm[mjNBIAS + 2], -6);
	inproc_stop(&d);
}

Test(sim_robot, gains_undone_are_told_once)
{
	static const double kp[2] = { 1e9, 1e9 };
	struct sim_robot_command c = { .gain_pos = kp, .client = 7 };
	const mjModel *m;
	char why[256] = "";

	setup("fixture.xml");
	m = d.sim->m;
	sim_robot_command(d.sim, &c);
	cr_assert_eq(m->actuator_gainprm[0], 1e9);
	cr_assert_eq(sim_robot_gains_undone(d.sim, 7, why, sizeof(why)), 0,
	    "in force, not undone");
	/* MuJoCo reset the data: the gains go back to the model's, alone */
	d.sim->m->geom_rgba[0] = 0.25f;
	sim_robot_unstable(d.sim, "qvel", 1);
	cr_assert_eq(m->actuator_gainprm[0], 50);
	cr_assert_eq(m->actuator_biasprm[1], -50);
	cr_assert_eq(m->actuator_gainprm[mjNGAIN], 20);
	cr_assert_eq(m->geom_rgba[0], 0.25f, "only the gains");
	cr_assert_eq(sim_robot_gains_undone(d.sim, 8, why, sizeof(why)), 0);
	cr_assert_eq(sim_robot_gains_undone(d.sim, 7, why, sizeof(why)), 1);
	cr_assert_str_eq(why,
	    "the servo gains this client set made the simulation unstable "
	    "(bad qvel): MuJoCo reset it, and the gains are back to the "
	    "model's own");
	cr_assert_eq(
	    sim_robot_gains_undone(d.sim, 7, why, sizeof(why)), 0, "told once");
	/* a step undone: only gains set since the last good state */
	sim_robot_command(d.sim, &c);
	c.client = 9;
	sim_robot_good(d.sim);
	sim_robot_command(d.sim, &c);
	sim_robot_unstable(d.sim, "qacc", 0);
	cr_assert_eq(sim_robot_gains_undone(d.sim, 7, why, sizeof(why)), 0,
	    "7's gains were proven by a good state");
	cr_assert_eq(sim_robot_gains_undone(d.sim, 9, why, sizeof(why)), 1);
	cr_assert_str_eq(why,
	    "the servo gains this client set made the simulation unstable "
	    "(bad qacc): the step was undone, and the gains are back to what "
	    "they were before");
	inproc_stop(&d);
}

Test(sim_robot, controls_held_or_zeroed)
{
	static const double qpos[9] = { 0.4, 3, 0.6, 0, 0.1, 1, 0, 0, 0 };
	static const double qvel[8] = { 0 };
	const double *ctrl;

	setup("fixture.xml");
	ctrl = sim_arrays(d.sim)->ctrl;
	sim_set_state(d.sim, qpos, qvel, NULL);
	sim_controls_hold(d.sim, 0);
	cr_assert_eq(ctrl[0], 0.4, "a position servo holds where it is");
	cr_assert_eq(ctrl[1], 2, "within its control range");
	sim_controls_hold(d.sim, 1);
	cr_assert_eq(ctrl[0], 0);
	cr_assert_eq(ctrl[1], 0);
	inproc_stop(&d);
}
