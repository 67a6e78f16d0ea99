/* Smooth mocap moves: see motion.h. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "daemon.h"
#include "log.h"
#include "motion.h"
#include "sim.h"
#include "sim_state.h"

struct move {
	int mocap;
	double t0, seconds;          /* simulated time it began, its length */
	double p0[3], p1[3];         /* from, to */
	double q0[4], q1[4];         /* from, to (unit, the short way round) */
	double last_p[3], last_q[4]; /* what it wrote last */
};

/* The moves under way (d->motion). */
struct motions {
	struct move *moves;
	int nmoves, maxmoves;
};

struct motions *
motion_create(void)
{
	struct motions *mo;

	if ((mo = calloc(1, sizeof(*mo))) == NULL)
		fatal("out of memory");
	return mo;
}

void
motion_free(struct motions *mo)
{
	if (mo == NULL)
		return;
	free(mo->moves);
	free(mo);
}

/* Scale q to unit length. */
static void
motion_normalize(double q[4])
{
	double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
	int k;

	for (k = 0; k < 4; k++)
		q[k] /= n;
}

/* The rotation a fraction f of the way from unit q0 to unit q1. */
static void
motion_slerp(const double q0[4], const double q1[4], double f, double out[4])
{
	double dot = q0[0] * q1[0] + q0[1] * q1[1] + q0[2] * q1[2] +
	    q0[3] * q1[3];
	double a, s0, s1;
	int k;

	if (dot > 0.9995) { /* nearly the same: a straight line will do */
		for (k = 0; k < 4; k++)
			out[k] = q0[k] + f * (q1[k] - q0[k]);
		motion_normalize(out);
		return;
	}
	a = acos(dot);
	s0 = sin((1 - f) * a) / sin(a);
	s1 = sin(f * a) / sin(a);
	for (k = 0; k < 4; k++)
		out[k] = s0 * q0[k] + s1 * q1[k];
}

/*
 * Return 1 if a is the quaternion b written: MuJoCo normalises
 * mocap_quat in place when it steps, which may change the last bits.
 */
static int
motion_same_quat(const double a[4], const double b[4])
{
	int k;

	for (k = 0; k < 4; k++)
		if (fabs(a[k] - b[k]) > 1e-12)
			return 0;
	return 1;
}

/* Take move k off the list. */
static void
motion_end(struct motions *mo, int k)
{
	mo->moves[k] = mo->moves[--mo->nmoves];
}

void
motion_start(struct daemon *d, int i, const double pos[3], const double quat[4],
    double seconds)
{
	struct motions *mo = d->motion;
	const struct sim_arrays *a = sim_arrays(d->sim);
	struct move *m = NULL;
	double dot;
	int k;

	for (k = 0; k < mo->nmoves; k++)
		if (mo->moves[k].mocap == i)
			m = &mo->moves[k];
	if (m == NULL) {
		if (mo->nmoves == mo->maxmoves) {
			mo->maxmoves = mo->maxmoves == 0 ? 4 : 2 * mo->maxmoves;
			mo->moves = realloc(mo->moves,
			    (size_t)mo->maxmoves * sizeof(*mo->moves));
			if (mo->moves == NULL)
				fatal("out of memory");
		}
		m = &mo->moves[mo->nmoves++];
	}
	m->mocap = i;
	m->t0 = sim_time(d->sim);
	m->seconds = seconds;
	memcpy(m->p0, a->mocap_pos + 3 * i, sizeof(m->p0));
	memcpy(m->q0, a->mocap_quat + 4 * i, sizeof(m->q0));
	motion_normalize(m->q0);
	memcpy(m->p1, pos, sizeof(m->p1));
	memcpy(m->q1, quat != NULL ? quat : m->q0, sizeof(m->q1));
	motion_normalize(m->q1);
	dot = m->q0[0] * m->q1[0] + m->q0[1] * m->q1[1] + m->q0[2] * m->q1[2] +
	    m->q0[3] * m->q1[3];
	if (dot < 0) /* q and -q are one rotation: take the short way */
		for (k = 0; k < 4; k++)
			m->q1[k] = -m->q1[k];
	memcpy(m->last_p, m->p0, sizeof(m->last_p));
	memcpy(m->last_q, a->mocap_quat + 4 * i, sizeof(m->last_q));
	if (seconds == 0) { /* at once: no step needed */
		sim_mocap_set_one(d->sim, i, m->p1, m->q1);
		motion_end(mo, (int)(m - mo->moves));
	}
}

void
motion_before_step(struct daemon *d)
{
	struct motions *mo = d->motion;
	const struct sim_arrays *a;
	double t, f, s, p[3], q[4];
	struct move *m;
	int k, j;

	if (mo->nmoves == 0)
		return;
	a = sim_arrays(d->sim);
	/* The pose the step about to be taken should see. */
	t = sim_time(d->sim) + sim_sizes(d->sim)->timestep;
	for (k = mo->nmoves - 1; k >= 0; k--) {
		m = &mo->moves[k];
		/* Another write of its pose, or time went back: it ends. */
		if (memcmp(a->mocap_pos + 3 * m->mocap, m->last_p,
			sizeof(m->last_p)) != 0 ||
		    !motion_same_quat(
			a->mocap_quat + 4 * m->mocap, m->last_q) ||
		    t < m->t0) {
			motion_end(mo, k);
			continue;
		}
		s = (t - m->t0) / m->seconds;
		s = s > 1 ? 1 : s;
		/* Minimum jerk: no jump in velocity or acceleration. */
		f = s * s * s * (10 - 15 * s + 6 * s * s);
		for (j = 0; j < 3; j++)
			p[j] = m->p0[j] + f * (m->p1[j] - m->p0[j]);
		motion_slerp(m->q0, m->q1, f, q);
		sim_mocap_set_one(d->sim, m->mocap, p, q);
		memcpy(
		    m->last_p, a->mocap_pos + 3 * m->mocap, sizeof(m->last_p));
		memcpy(
		    m->last_q, a->mocap_quat + 4 * m->mocap, sizeof(m->last_q));
		if (s >= 1)
			motion_end(mo, k);
	}
}

void
motion_stop_all(struct daemon *d)
{
	struct motions *mo = d->motion;

	mo->nmoves = 0;
}
