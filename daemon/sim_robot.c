/*
 * The model as HAPTIX's simple API sees it ("Restrictions" in the HAPTIX
 * manual): motors are the actuators, all servos of the kind of the first;
 * joints are the joint position and velocity sensors in model order;
 * contacts the touch sensors; IMUs the accelerometer and gyro pairs.  The
 * map is built when a model loads, and the servo references it keeps
 * (ref_vel integration, OSRF's speed limit) are advanced before each step.
 *
 * Servo gains set by clients are on probation: when a step goes bad
 * after a client set them, the step is undone with them (rollback.h), and
 * when the simulation goes unstable by itself with gains set by clients
 * in force, MuJoCo resets it and the gains go back to the model's own (a
 * shared simulation must not stay broken by one client's gains); either
 * way, each client whose gains went hears so at its next update.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "sim_internal.h"
#include "sim_robot.h"

/* One motor's reference generator. */
struct sim_ref {
	double target; /* where the reference goes (speed-limited) */
	double vel;    /* reference velocity being integrated */
	int vel_steps; /* steps of the API period left to integrate vel */
	double vmax;   /* speed limit of the reference; 0: none */
};

/* The most clients remembered for having set gains; the oldest goes. */
#define SIM_ROBOT_NOTES 16

/* A client that set servo gains, and whether they were undone. */
struct sim_robot_note {
	uint64_t client;
	const char *what; /* NULL: in force; else "qpos", "qvel" or "qacc" */
	int fresh;        /* set since the last good state was kept */
	int reset;        /* undone by a reset, not by undoing a step */
};

struct sim_robot {
	int nmotor, njoint, ncontact, nimu;
	int servo;       /* SIM_SERVO_POSITION or SIM_SERVO_VELOCITY */
	int *jointpos;   /* per joint: sensor address or -1 */
	int *jointvel;   /* per joint: sensor address or -1 */
	int *joint_id;   /* per joint: the sensed joint, for limits */
	int *touch;      /* per contact sensor: address */
	int *acc, *gyro; /* per IMU: address or -1 */
	int *motor_pos, *motor_vel, *motor_frc; /* per motor: address or -1 */
	struct sim_ref *ref;
	int refs_active;
	struct sim_robot_note notes[SIM_ROBOT_NOTES];
	int nnotes;
};

/* Collect the addresses of every sensor of one type, in model order. */
static int
robot_collect(const mjModel *m, int type, int *adr, int *objid)
{
	int i, n = 0;

	for (i = 0; i < m->nsensor; i++) {
		if (m->sensor_type[i] != type)
			continue;
		adr[n] = m->sensor_adr[i];
		if (objid != NULL)
			objid[n] = m->sensor_objid[i];
		n++;
	}
	return n;
}

/* The address of the sensor of type on actuator u, or -1. */
static int
robot_motor_sensor(const mjModel *m, int type, int u)
{
	int i;

	for (i = 0; i < m->nsensor; i++) {
		if (m->sensor_type[i] == type && m->sensor_objid[i] == u)
			return m->sensor_adr[i];
	}
	return -1;
}

/* Fill n entries of a with -1. */
static void
robot_unset(int *a, int n)
{
	int i;

	for (i = 0; i < n; i++)
		a[i] = -1;
}

void
sim_robot_free(struct sim_robot *r)
{
	if (r == NULL)
		return;
	free(r->jointpos);
	free(r->jointvel);
	free(r->joint_id);
	free(r->touch);
	free(r->acc);
	free(r->gyro);
	free(r->motor_pos);
	free(r->motor_vel);
	free(r->motor_frc);
	free(r->ref);
	free(r);
}

/* Allocate n ints, at least one, or exit. */
static int *
robot_ints(int n)
{
	int *p = calloc((size_t)(n > 0 ? n : 1), sizeof(int));

	if (p == NULL)
		fatal("out of memory");
	return p;
}

struct sim_robot *
sim_robot_create(const mjModel *m, const mjData *d)
{
	struct sim_robot *r;
	int ns = m->nsensor, npos, nvel, nacc, ngyro, *pos_joint, *vel_joint;
	int u;
	const mjtNum *b;

	r = calloc(1, sizeof(*r));
	if (r == NULL)
		fatal("out of memory");
	r->jointpos = robot_ints(ns);
	r->jointvel = robot_ints(ns);
	r->joint_id = robot_ints(ns);
	r->touch = robot_ints(ns);
	r->acc = robot_ints(ns);
	r->gyro = robot_ints(ns);
	pos_joint = robot_ints(ns);
	vel_joint = robot_ints(ns);
	robot_unset(r->jointpos, ns);
	robot_unset(r->jointvel, ns);
	robot_unset(r->acc, ns);
	robot_unset(r->gyro, ns);

	npos = robot_collect(m, mjSENS_JOINTPOS, r->jointpos, pos_joint);
	nvel = robot_collect(m, mjSENS_JOINTVEL, r->jointvel, vel_joint);
	r->njoint = npos > nvel ? npos : nvel;
	for (u = 0; u < r->njoint; u++)
		r->joint_id[u] = u < npos ? pos_joint[u] : vel_joint[u];
	free(pos_joint);
	free(vel_joint);
	r->ncontact = robot_collect(m, mjSENS_TOUCH, r->touch, NULL);
	nacc = robot_collect(m, mjSENS_ACCELEROMETER, r->acc, NULL);
	ngyro = robot_collect(m, mjSENS_GYRO, r->gyro, NULL);
	r->nimu = nacc > ngyro ? nacc : ngyro;

	r->nmotor = m->nu;
	r->motor_pos = robot_ints(m->nu);
	r->motor_vel = robot_ints(m->nu);
	r->motor_frc = robot_ints(m->nu);
	r->ref = calloc((size_t)(m->nu > 0 ? m->nu : 1), sizeof(*r->ref));
	if (r->ref == NULL)
		fatal("out of memory");
	for (u = 0; u < m->nu; u++) {
		r->motor_pos[u] = robot_motor_sensor(m, mjSENS_ACTUATORPOS, u);
		r->motor_vel[u] = robot_motor_sensor(m, mjSENS_ACTUATORVEL, u);
		r->motor_frc[u] = robot_motor_sensor(m, mjSENS_ACTUATORFRC, u);
		r->ref[u].target = d->ctrl[u];
	}

	/* The first servo decides: a velocity servo has only a kv bias. */
	r->servo = SIM_SERVO_POSITION;
	if (m->nu > 0) {
		b = m->actuator_biasprm;
		if (m->actuator_biastype[0] == mjBIAS_AFFINE && b[1] == 0 &&
		    b[2] != 0)
			r->servo = SIM_SERVO_VELOCITY;
	}
	return r;
}

void
sim_robot_info(const struct sim *s, struct sim_robot_info *out,
    double *motor_limit, double *joint_limit)
{
	const struct sim_robot *r = s->robot;
	const mjModel *m = s->m;
	int i, j;

	out->nmotor = r->nmotor;
	out->njoint = r->njoint;
	out->ncontact = r->ncontact;
	out->nimu = r->nimu;
	out->servo = r->servo;
	out->update_rate = s->sizes.apirate;
	for (i = 0; motor_limit != NULL && i < r->nmotor; i++) {
		motor_limit[2 * i] = motor_limit[2 * i + 1] = 0;
		if (m->actuator_ctrllimited[i])
			mju_copy(motor_limit + 2 * i,
			    m->actuator_ctrlrange + 2 * i, 2);
	}
	for (i = 0; joint_limit != NULL && i < r->njoint; i++) {
		j = r->joint_id[i];
		joint_limit[2 * i] = joint_limit[2 * i + 1] = 0;
		if (m->jnt_limited[j])
			mju_copy(joint_limit + 2 * i, m->jnt_range + 2 * j, 2);
	}
}

/* Copy n values of sensor data from address adr into out (zeros if -1). */
static void
robot_read(const mjData *d, int adr, double *out, int n)
{
	if (adr >= 0)
		mju_copy(out, d->sensordata + adr, n);
	else
		mju_zero(out, n);
}

void
sim_robot_sensor(const struct sim *s, const struct sim_robot_sensor *out)
{
	const struct sim_robot *r = s->robot;
	const mjData *d = s->d;
	int i;

	for (i = 0; i < r->nmotor; i++) {
		/* Without a sensor, the actuator's own values (noise-free). */
		out->motor_pos[i] = r->motor_pos[i] >= 0 ?
		    d->sensordata[r->motor_pos[i]] :
		    d->actuator_length[i];
		out->motor_vel[i] = r->motor_vel[i] >= 0 ?
		    d->sensordata[r->motor_vel[i]] :
		    d->actuator_velocity[i];
		out->motor_torque[i] = r->motor_frc[i] >= 0 ?
		    d->sensordata[r->motor_frc[i]] :
		    d->actuator_force[i];
	}
	for (i = 0; i < r->njoint; i++) {
		robot_read(d, r->jointpos[i], out->joint_pos + i, 1);
		robot_read(d, r->jointvel[i], out->joint_vel + i, 1);
	}
	for (i = 0; i < r->ncontact; i++)
		out->contact[i] = d->sensordata[r->touch[i]];
	for (i = 0; i < r->nimu; i++) {
		robot_read(d, r->acc[i], out->imu_acc + 3 * i, 3);
		robot_read(d, r->gyro[i], out->imu_gyro + 3 * i, 3);
	}
}

/* Clamp a reference to actuator u's control range, if it has one. */
static double
robot_clamp(const mjModel *m, int u, double v)
{
	if (!m->actuator_ctrllimited[u])
		return v;
	return fmin(fmax(v, m->actuator_ctrlrange[2 * u]),
	    m->actuator_ctrlrange[2 * u + 1]);
}

/* Steps in one API period (one when there is no API rate). */
static int
robot_period_steps(const struct sim *s)
{
	double steps;

	if (s->sizes.apirate < 1)
		return 1;
	steps = floor(1.0 / (s->sizes.apirate * s->sizes.timestep) + 0.5);
	return steps < 1 ? 1 : (int)steps;
}

/* Remember that client set gains now in force. */
static void
robot_note(struct sim_robot *r, uint64_t client)
{
	int i;

	for (i = 0; i < r->nnotes; i++) {
		if (r->notes[i].client == client)
			break;
	}
	if (i == r->nnotes && r->nnotes == SIM_ROBOT_NOTES) {
		memmove(r->notes, r->notes + 1,
		    (SIM_ROBOT_NOTES - 1) * sizeof(r->notes[0]));
		i = --r->nnotes;
	}
	if (i == r->nnotes)
		r->nnotes++;
	r->notes[i].client = client;
	r->notes[i].what = NULL;
	r->notes[i].fresh = 1;
}

/* Forget note i. */
static void
robot_note_drop(struct sim_robot *r, int i)
{
	memmove(r->notes + i, r->notes + i + 1,
	    (size_t)(r->nnotes - i - 1) * sizeof(r->notes[0]));
	r->nnotes--;
}

void
sim_robot_command(struct sim *s, const struct sim_robot_command *c)
{
	struct sim_robot *r = s->robot;
	mjModel *m = s->m;
	mjData *d = s->d;
	struct sim_ref *f;
	mjtNum *gain, *bias;
	int u, velocity = r->servo == SIM_SERVO_VELOCITY;

	/* HAPTIX: kp for position servos, kv for velocity servos, no more. */
	if (r->nmotor > 0 &&
	    (velocity ? c->gain_vel != NULL : c->gain_pos != NULL)) {
		s->counters.model_edits++;
		robot_note(r, c->client);
	}
	for (u = 0; u < r->nmotor; u++) {
		f = &r->ref[u];
		gain = m->actuator_gainprm + mjNGAIN * u;
		bias = m->actuator_biasprm + mjNBIAS * u;
		if (c->gain_pos != NULL || c->gain_vel != NULL) {
			sim_undo_note(s, gain, mjNGAIN * sizeof(mjtNum), 0);
			sim_undo_note(s, bias, mjNBIAS * sizeof(mjtNum), 0);
		}
		if (c->ref_vel_max != NULL)
			f->vmax = fabs(c->ref_vel_max[u]);
		if (velocity) {
			/* A velocity servo's reference is the velocity. */
			if (c->ref_vel != NULL)
				d->ctrl[u] = robot_clamp(m, u, c->ref_vel[u]);
			if (c->gain_vel != NULL) {
				gain[0] = c->gain_vel[u];
				bias[2] = -c->gain_vel[u];
			}
			continue;
		}
		if (c->ref_pos != NULL) {
			f->target = robot_clamp(m, u, c->ref_pos[u]);
			if (f->vmax == 0)
				d->ctrl[u] = f->target;
		}
		if (c->ref_vel != NULL) {
			/* Integrated over one API period, from ref_pos if
			 * given. */
			f->vel = c->ref_vel[u];
			f->vel_steps = robot_period_steps(s);
		}
		if (c->gain_pos != NULL) {
			gain[0] = c->gain_pos[u];
			bias[1] = -c->gain_pos[u];
		}
		if (f->vel_steps > 0 ||
		    (f->vmax > 0 && d->ctrl[u] != f->target))
			r->refs_active = 1;
	}
}

void
sim_robot_before_step(struct sim *s)
{
	struct sim_robot *r = s->robot;
	const mjModel *m = s->m;
	mjData *d = s->d;
	double dt = m->opt.timestep, step;
	struct sim_ref *f;
	int u, active = 0;

	if (r == NULL || !r->refs_active)
		return;
	for (u = 0; u < r->nmotor; u++) {
		f = &r->ref[u];
		if (f->vel_steps > 0) {
			d->ctrl[u] = robot_clamp(
			    m, u, d->ctrl[u] + f->vel * dt);
			f->target = d->ctrl[u];
			f->vel_steps--;
		} else if (f->vmax > 0 && d->ctrl[u] != f->target) {
			step = f->vmax * dt;
			d->ctrl[u] += fmax(
			    -step, fmin(step, f->target - d->ctrl[u]));
		}
		if (f->vel_steps > 0 ||
		    (f->vmax > 0 && d->ctrl[u] != f->target))
			active = 1;
	}
	r->refs_active = active;
}

void
sim_robot_reset(struct sim *s)
{
	struct sim_robot *r = s->robot;
	int u;

	if (r == NULL)
		return;
	for (u = 0; u < r->nmotor; u++) {
		memset(&r->ref[u], 0, sizeof(r->ref[u]));
		r->ref[u].target = s->d->ctrl[u];
	}
	r->refs_active = 0;
}

/* Put the actuators' gain and bias parameters back to the model's. */
static void
robot_gains_pristine(struct sim *s)
{
	const mjModel *p = s->pristine;
	mjModel *m = s->m;

	if (p == NULL)
		return;
	mju_copy(m->actuator_gainprm, p->actuator_gainprm, mjNGAIN * m->nu);
	mju_copy(m->actuator_biasprm, p->actuator_biasprm, mjNBIAS * m->nu);
	s->counters.model_edits++;
}

void
sim_robot_unstable(struct sim *s, const char *what, int reset)
{
	struct sim_robot *r = s->robot;
	char ids[160];
	size_t used = 0;
	int i, undo = 0;

	sim_robot_reset(s);
	if (r == NULL)
		return;
	for (i = 0; i < r->nnotes; i++) {
		if (r->notes[i].what != NULL || !(reset || r->notes[i].fresh))
			continue;
		undo = 1;
		r->notes[i].what = what;
		r->notes[i].reset = reset;
		if (used < sizeof(ids))
			used += (size_t)snprintf(ids + used, sizeof(ids) - used,
			    "%s%llu", used > 0 ? ", " : "",
			    (unsigned long long)r->notes[i].client);
	}
	/* An undone step put the gains back already; a reset does not. */
	if (!undo || !reset)
		return;
	robot_gains_pristine(s);
	log_warn("simulation unstable (bad %s) with servo gains set by "
		 "client %s: the gains are back to the model's",
	    what, ids);
}

void
sim_robot_good(struct sim *s)
{
	struct sim_robot *r = s->robot;
	int i;

	for (i = 0; r != NULL && i < r->nnotes; i++)
		r->notes[i].fresh = 0;
}

void
sim_robot_params_restored(struct sim *s)
{
	struct sim_robot *r = s->robot;
	int i;

	/* Gains in force are the model's again; undone ones are still owed. */
	for (i = 0; r != NULL && i < r->nnotes;) {
		if (r->notes[i].what == NULL)
			robot_note_drop(r, i);
		else
			i++;
	}
}

int
sim_robot_gains_undone(struct sim *s, uint64_t client, char *why, size_t len)
{
	struct sim_robot *r = s->robot;
	int i;

	for (i = 0; r != NULL && i < r->nnotes; i++) {
		if (r->notes[i].client != client || r->notes[i].what == NULL)
			continue;
		snprintf(why, len,
		    "the servo gains this client set made the simulation "
		    "unstable (bad %s): %s",
		    r->notes[i].what,
		    r->notes[i].reset ?
			"MuJoCo reset it, and the gains are back to the "
			"model's own" :
			"the step was undone, and the gains are back to what "
			"they were before");
		robot_note_drop(r, i);
		return 1;
	}
	return 0;
}

/*
 * Position servos (a bias that pulls towards ctrl) hold where they are
 * when ctrl is their current length; every other actuator is safest at
 * zero.  With zero, all controls go to zero.
 */
void
sim_controls_hold(struct sim *s, int zero)
{
	const mjModel *m = s->m;
	mjData *d = s->d;
	const mjtNum *b;
	double v;
	int u;

	for (u = 0; u < m->nu; u++) {
		b = m->actuator_biasprm + u * mjNBIAS;
		v = 0;
		if (!zero && m->actuator_biastype[u] == mjBIAS_AFFINE &&
		    b[1] < 0) {
			v = d->actuator_length[u];
			if (m->actuator_ctrllimited[u])
				v = fmin(fmax(v, m->actuator_ctrlrange[2 * u]),
				    m->actuator_ctrlrange[2 * u + 1]);
		}
		d->ctrl[u] = v;
	}
	sim_robot_reset(s);
}
