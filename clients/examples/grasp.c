/*
 * grasp: the grasp reflex of the MuJoCo HAPTIX manual, for the MPL hand.
 *
 * When the contact sensors together feel more than CONTACT_N newtons, the
 * hand closes: every finger motor moves to 2/3 of the way from the lower
 * to the upper end of its range, interpolated over half a second.  A
 * flick of the hand opens it again: the IMUs' net angular speed above
 * FLICK_RADS, counting only the speed that all the fingertips share,
 * since a flick turns the whole hand while a finger slipping on what it
 * holds turns one fingertip (as lifting a grasped cube does).  A state
 * machine keeps transitions at least two seconds apart.  The wrist
 * motors keep their posture, so the hand does not turn away from what
 * it holds.  Simulated time that goes back (a reset) starts the reflex
 * over: the hand open, no move under way, no transition to wait for.
 *
 * It uses nothing but haptix.h: the simple API for the reflex, the native
 * API for the motors' names.
 *
 * usage: grasp [SERVER [SECONDS]]
 *   SERVER   as for mj_connect: "" or unix:PATH or HOST[:PORT]
 *   SECONDS  stop after this much simulated time (default: run until ^C)
 */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "haptix.h"

#define CONTACT_N 1.0f  /* summed contact force that closes the hand */
#define FLICK_RADS 8.0f /* summed IMU angular speed that opens it */
#define MOVE_S 0.5      /* time to move between postures */
#define DWELL_S 2.0     /* shortest time between transitions */

enum grasp_state {
	OPEN,
	CLOSED,
};

static volatile sig_atomic_t stop;
static hxRobotInfo info;
static hxSensor sensor;
static hxCommand command;

/* SIGINT, SIGTERM: finish the current update and close. */
static void
on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* Summed normal force of all contact sensors. */
static float
contact_force(void)
{
	float sum = 0;
	int i;

	for (i = 0; i < info.contact_sensor_count; i++)
		sum += sensor.contact[i];
	return sum;
}

/*
 * The IMUs' net angular speed as the whole hand turns: the slowest
 * fingertip's speed, which every IMU shares, times their number.
 */
static float
flick_speed(void)
{
	const float *w;
	float least = 0, v;
	int i;

	for (i = 0; i < info.imu_count; i++) {
		w = sensor.imu_angular_vel[i];
		v = sqrtf(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
		if (i == 0 || v < least)
			least = v;
	}
	return least * (float)info.imu_count;
}

/* Report a failed call and exit. */
static void
fail(const char *what)
{
	fprintf(stderr, "grasp: %s: %s\n", what, hx_last_result());
	hx_close();
	exit(1);
}

int
main(int argc, char **argv)
{
	float open[hxMAXMOTOR], closed[hxMAXMOTOR], from[hxMAXMOTOR];
	float *to = open, lo, hi, a;
	const char *name;
	enum grasp_state state = OPEN;
	double now, last = 0, t_move = -1e9;
	double duration = argc > 2 ? atof(argv[2]) : 0;
	int i;

	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	if (hx_connect(argc > 1 ? argv[1] : NULL, 0) != hxOK)
		fail("connect");
	if (hx_robot_info(&info) != hxOK)
		fail("robot info");
	if (hx_read_sensors(&sensor) != hxOK)
		fail("read sensors");
	printf("grasp: %d motors, %d contact sensors, %d IMUs, %g Hz\n",
	    info.motor_count, info.contact_sensor_count, info.imu_count,
	    info.update_rate);

	/* Open: where the motors are now.  Closed: 2/3 of each range. */
	for (i = 0; i < info.motor_count; i++) {
		open[i] = from[i] = sensor.motor_pos[i];
		lo = info.motor_limit[i][0];
		hi = info.motor_limit[i][1];
		name = mj_id2name("actuator", i);
		if (name != NULL && strstr(name, "wrist") != NULL)
			closed[i] = open[i];
		else
			closed[i] = lo + 2.0f / 3.0f * (hi - lo);
	}

	memset(&command, 0, sizeof(command));
	memcpy(command.ref_pos, open, sizeof(open));
	command.ref_pos_enabled = 1;
	while (!stop) {
		now = hx_double_time(&sensor.time_stamp);
		if (duration > 0 && now >= duration)
			break;
		if (now < last) {
			/* A reset: open again, with nothing to wait for. */
			printf("%.3f reset: open\n", now);
			state = OPEN;
			to = open;
			memcpy(command.ref_pos, open, sizeof(open));
			t_move = -1e9;
		}
		last = now;
		if (state == OPEN && contact_force() > CONTACT_N &&
		    now - t_move >= DWELL_S) {
			printf("%.3f close (contact %.2f N)\n", now,
			    contact_force());
			state = CLOSED;
		} else if (state == CLOSED && flick_speed() > FLICK_RADS &&
		    now - t_move >= DWELL_S) {
			printf("%.3f open (flick %.2f rad/s)\n", now,
			    flick_speed());
			state = OPEN;
		}
		if ((state == CLOSED) != (to == closed)) {
			/* Start a move from the current references. */
			memcpy(from, command.ref_pos, sizeof(from));
			to = state == CLOSED ? closed : open;
			t_move = now;
		}
		a = (float)fmin(1.0, (now - t_move) / MOVE_S);
		for (i = 0; i < info.motor_count; i++)
			command.ref_pos[i] = from[i] + a * (to[i] - from[i]);
		fflush(stdout);
		if (hx_update(&command, &sensor) != hxOK)
			fail("update");
	}
	hx_close();
	return 0;
}
