/*
 * Operational-space control of the MPL's index fingertip, over the API:
 * the controller that needs MuJoCo's Jacobian and mass matrix, written
 * against haptixd instead of a linked MuJoCo (docs/compute.md).
 *
 * In lock-step with a paused simulation, each step asks for the site's
 * position, its Jacobian, the mass matrix and the bias forces in one
 * request (hxd_compute), computes joint torques
 *
 *	tau = J' L (xdd + Kp e + Kd (xd' - J qvel)) + qfrc_bias
 *	    - qfrc_passive - Kn qvel,
 *	L = inv(J inv(M) J'),
 *
 * applies them through qfrc_applied and takes one step.  The fingertip
 * (site index_distal) follows a circle of 1 cm; the tracking error is
 * printed at the end, and the exit status is 1 if its RMS is over the
 * bound.
 *
 * The MPL's actuators are position servos, which would pull the joints
 * back to their references: the example turns their gains to zero
 * (actuator_gainprm and actuator_biasprm), so the torques alone move
 * the hand, and the equalities that make the finger's PIP and DIP follow
 * its MCP off; it puts both back at the end, and leaves the simulation
 * paused.
 *
 *	osc_fingertip [SERVER [STEPS]]
 *
 * with the MPL scene loaded (haptixd -m mpl_scene.xml).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "haptixd.h"

#define SITE "index_distal"
#define RADIUS 0.01     /* m */
#define PERIOD 1.0      /* s, once round */
#define KP 6400.0       /* 1/s^2 */
#define KD 160.0        /* 1/s: 2 sqrt(KP), critically damped */
#define KN 0.05         /* joint damping, N m s */
#define BOUND_RMS 0.002 /* m */

enum { Q_POS, Q_JAC, Q_M, Q_BIAS, Q_PASSIVE, Q_QVEL, NQUERIES };

static void
fail(hxd_conn *c, const char *what)
{
	fprintf(stderr, "osc_fingertip: %s: %s\n", what,
	    c != NULL ? hxd_error(c) : "out of memory");
	exit(2);
}

/* Cholesky factor of the n x n matrix a in place (lower); -1 if not PD. */
static int
cholesky(double *a, int n)
{
	int i, j, k;
	double s;

	for (j = 0; j < n; j++) {
		s = a[j * n + j];
		for (k = 0; k < j; k++)
			s -= a[j * n + k] * a[j * n + k];
		if (s <= 0)
			return -1;
		a[j * n + j] = sqrt(s);
		for (i = j + 1; i < n; i++) {
			s = a[i * n + j];
			for (k = 0; k < j; k++)
				s -= a[i * n + k] * a[j * n + k];
			a[i * n + j] = s / a[j * n + j];
		}
	}
	return 0;
}

/* Solve L L' x = b in place with the factor of cholesky(). */
static void
cholesky_solve(const double *l, int n, double *b)
{
	int i, k;

	for (i = 0; i < n; i++) {
		for (k = 0; k < i; k++)
			b[i] -= l[i * n + k] * b[k];
		b[i] /= l[i * n + i];
	}
	for (i = n - 1; i >= 0; i--) {
		for (k = i + 1; k < n; k++)
			b[i] -= l[k * n + i] * b[k];
		b[i] /= l[i * n + i];
	}
}

/*
 * The servos' gains to zero: gainprm[0], biasprm[1] and [2] of each;
 * *gain and *bias keep the arrays as they were, for servos_on().
 */
static void
servos_off(hxd_conn *c, int nu, hxd_array **gain, hxd_array **bias)
{
	double zero[2] = { 0, 0 };
	int i;

	if (hxd_get_array(c, "actuator_gainprm", gain) != HXD_OK ||
	    hxd_get_array(c, "actuator_biasprm", bias) != HXD_OK)
		fail(c, "reading the servos' gains");
	for (i = 0; i < nu; i++) {
		if (hxd_set_array(c, "actuator_gainprm", 10 * i, 1, zero) !=
			HXD_OK ||
		    hxd_set_array(c, "actuator_biasprm", 10 * i + 1, 2, zero) !=
			HXD_OK)
			fail(c, "turning the servos off");
	}
}

/* The servos' gains and the finger's couplings as they were. */
static void
servos_on(hxd_conn *c, hxd_array *gain, hxd_array *bias)
{
	static const char *const eq[] = { "index_PIP", "index_DIP" };
	int i, id;

	if (hxd_set_array(c, "actuator_gainprm", 0, gain->rows * gain->cols,
		gain->values) != HXD_OK ||
	    hxd_set_array(c, "actuator_biasprm", 0, bias->rows * bias->cols,
		bias->values) != HXD_OK)
		fail(c, "putting the servos' gains back");
	for (i = 0; i < 2; i++)
		if (hxd_name2id(c, HXD_OBJ_EQUALITY, eq[i], &id) != HXD_OK ||
		    hxd_equality(c, id, 1) != HXD_OK)
			fail(c, "turning the finger's coupling on");
}

/*
 * The index finger's PIP and DIP follow its MCP through equality
 * constraints (one servo moves the three): a controller that does not
 * project its torques onto the constraints would fight them, so they go.
 */
static void
couplings_off(hxd_conn *c)
{
	static const char *const eq[] = { "index_PIP", "index_DIP" };
	int i, id;

	for (i = 0; i < 2; i++)
		if (hxd_name2id(c, HXD_OBJ_EQUALITY, eq[i], &id) != HXD_OK ||
		    hxd_equality(c, id, 0) != HXD_OK)
			fail(c, "turning the finger's coupling off");
}

/*
 * A straight finger is a singular arm (its three flexion axes move the
 * tip the same way): start from one bent a little, at rest.
 */
static void
finger_bent(hxd_conn *c)
{
	static const char *const joint[] = { "index_MCP", "index_PIP",
		"index_DIP" };
	double q = 0.4, zero = 0;
	int i;

	for (i = 0; i < 3; i++)
		if (hxd_set_joint(c, joint[i], &q, 1, &zero, 1) != HXD_OK)
			fail(c, "bending the finger");
}

int
main(int argc, char **argv)
{
	const char *server = argc > 1 ? argv[1] : NULL;
	int steps = argc > 2 ? atoi(argv[2]) : 2000;
	const char *pos_name[] = { "site_xpos" }, *site[] = { SITE };
	const char *bias_name[] = { "qfrc_bias" }, *qvel_name[] = { "qvel" };
	const char *passive_name[] = { "qfrc_passive" };
	hxd_query q[NQUERIES] = {
		[Q_POS] = { .kind = HXD_COMPUTE_ARRAY,
		    .names = pos_name,
		    .nnames = 1 },
		[Q_JAC] = { .kind = HXD_COMPUTE_JAC_SITE,
		    .names = site,
		    .nnames = 1 },
		[Q_M] = { .kind = HXD_COMPUTE_FULL_M },
		[Q_BIAS] = { .kind = HXD_COMPUTE_ARRAY,
		    .names = bias_name,
		    .nnames = 1 },
		[Q_PASSIVE] = { .kind = HXD_COMPUTE_ARRAY,
		    .names = passive_name,
		    .nnames = 1 },
		[Q_QVEL] = { .kind = HXD_COMPUTE_ARRAY,
		    .names = qvel_name,
		    .nnames = 1 },
	};
	double x0[3], xd[3], vd[3], ad[3], e[3], v[3], f[3], w, lam[9],
	    *minv_jt, *tau, *mc;
	double t, sum2 = 0, worst = 0, err, dt;
	hxd_applied *ap = NULL;
	hxd_array *gains = NULL, *biases = NULL;
	hxd_qresult *r;
	hxd_info *info;
	hxd_conn *c;
	int nv, nu, nc, sid, i, j, k, n, *dof;

	c = hxd_connect(server, "osc_fingertip");
	if (c == NULL || hxd_result(c) != HXD_OK)
		fail(c, "connect");
	if (hxd_info_get(c, &info) != HXD_OK)
		fail(c, "info");
	nv = info->model.nv;
	nu = info->model.nu;
	dt = info->model.timestep;
	/* The dofs of hinges and slides: the hand's, not free bodies'. */
	if ((dof = calloc((size_t)nv + 1, sizeof(int))) == NULL)
		fail(NULL, "memory");
	for (j = 0, nc = 0; j < info->model.njnt; j++)
		if (info->jnt_type[j] == 2 || info->jnt_type[j] == 3)
			dof[nc++] = info->jnt_dofadr[j];
	free(info);
	if (hxd_name2id(c, HXD_OBJ_SITE, SITE, &sid) != HXD_OK)
		fail(c, "the site " SITE " (load mpl_scene.xml)");
	if (hxd_pause(c) != HXD_OK || hxd_get_applied(c, &ap) != HXD_OK)
		fail(c, "pause");
	servos_off(c, nu, &gains, &biases);
	couplings_off(c);
	finger_bent(c);
	minv_jt = calloc(3 * (size_t)nv, sizeof(double));
	tau = calloc((size_t)nv, sizeof(double));
	mc = calloc((size_t)nc * nc + 1, sizeof(double));
	if (minv_jt == NULL || tau == NULL || mc == NULL)
		fail(NULL, "memory");

	for (n = 0; n <= steps; n++) {
		if (hxd_compute(c, q, NQUERIES, NULL, 0, 0, &r) != HXD_OK)
			fail(c, "compute");
		const double *x = r[Q_POS].values + 3 * sid;
		const double *jacp = r[Q_JAC].values;
		const double *m = r[Q_M].values;
		const double *bias = r[Q_BIAS].values;
		const double *passive = r[Q_PASSIVE].values;
		const double *qvel = r[Q_QVEL].values;

		if (n == 0)
			memcpy(x0, x, sizeof(x0));
		/*
		 * The circle through the start in the world's x-z plane, the
		 * finger's plane of flexion, going down first: the finger
		 * starts straight, against its joints' limits.
		 */
		t = n * dt;
		w = 2 * M_PI / PERIOD;
		xd[0] = x0[0] + RADIUS * (cos(w * t) - 1);
		xd[1] = x0[1];
		xd[2] = x0[2] - RADIUS * sin(w * t);
		/* Its velocity and acceleration, fed forward. */
		vd[0] = -RADIUS * w * sin(w * t);
		vd[1] = 0;
		vd[2] = -RADIUS * w * cos(w * t);
		ad[0] = -RADIUS * w * w * cos(w * t);
		ad[1] = 0;
		ad[2] = RADIUS * w * w * sin(w * t);
		for (i = 0, err = 0; i < 3; i++) {
			e[i] = xd[i] - x[i];
			err += e[i] * e[i];
		}
		err = sqrt(err);
		sum2 += err * err;
		if (n % 500 == 0 || n == steps)
			printf("step %d: fingertip at %.4f %.4f %.4f, %.2f mm "
			       "from the path\n",
			    n, x[0], x[1], x[2], err * 1e3);
		worst = err > worst ? err : worst;
		if (n == steps) {
			hxd_qresults_free(r, NQUERIES);
			break;
		}

		/*
		 * The hand's joints only: the forearm's free joint is welded
		 * to its mocap body and the cube is free, so the arm is
		 * controlled as a fixed-base one on those columns (dof[]).
		 */
		for (i = 0; i < nc; i++)
			for (j = 0; j < nc; j++)
				mc[i * nc + j] = m[dof[i] * nv + dof[j]];
		if (cholesky(mc, nc) != 0)
			fail(NULL, "the mass matrix is not positive definite");
		/* inv(M) J' row by row, then L = inv(J inv(M) J'). */
		for (i = 0; i < 3; i++) {
			for (k = 0; k < nc; k++)
				minv_jt[i * nc + k] = jacp[i * nv + dof[k]];
			cholesky_solve(mc, nc, minv_jt + i * nc);
		}
		for (i = 0; i < 3; i++)
			for (j = 0; j < 3; j++)
				for (k = 0, lam[3 * i + j] = 0; k < nc; k++)
					lam[3 * i + j] += jacp[i * nv + dof[k]] *
					    minv_jt[j * nc + k];
		if (cholesky(lam, 3) != 0)
			fail(NULL, "the fingertip's Jacobian lost rank");
		for (i = 0; i < 3; i++) {
			for (k = 0, v[i] = 0; k < nv; k++)
				v[i] += jacp[i * nv + k] * qvel[k];
			f[i] = ad[i] + KP * e[i] + KD * (vd[i] - v[i]);
		}
		cholesky_solve(lam, 3, f);
		memset(tau, 0, nv * sizeof(double));
		for (k = 0; k < nc; k++) {
			tau[dof[k]] = bias[dof[k]] - passive[dof[k]] -
			    KN * qvel[dof[k]];
			for (i = 0; i < 3; i++)
				tau[dof[k]] += jacp[i * nv + dof[k]] * f[i];
		}
		hxd_qresults_free(r, NQUERIES);

		memcpy(ap->qfrc_applied, tau, nv * sizeof(double));
		if (hxd_set_applied(c, ap) != HXD_OK ||
		    hxd_step(c, 1, NULL) != HXD_OK)
			fail(c, "step");
	}
	err = sqrt(sum2 / (steps + 1));
	printf("tracked %s round a %.0f mm circle for %d steps: RMS error "
	       "%.2f mm, max %.2f mm (bound: RMS %.1f mm)\n",
	    SITE, RADIUS * 1e3, steps, err * 1e3, worst * 1e3, BOUND_RMS * 1e3);
	/* Leave the hand as it was, paused where the path ended. */
	servos_on(c, gains, biases);
	memset(ap->qfrc_applied, 0, nv * sizeof(double));
	if (hxd_set_applied(c, ap) != HXD_OK)
		fail(c, "clearing the torques");
	free(gains);
	free(biases);
	free(minv_jt);
	free(tau);
	free(dof);
	free(mc);
	free(ap);
	hxd_close(c);
	return err <= BOUND_RMS ? 0 : 1;
}
