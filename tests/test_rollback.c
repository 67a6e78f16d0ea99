/*
 * A step that goes bad is undone (daemon/rollback.h), through a real
 * haptixd: every input a client can feed into a step, found at run time
 * where the protocol lists them (list_arrays' writable arrays) and the
 * others by their calls (controls, applied forces, mocap poses and
 * moves, one body, the state, joints, geom sizes, gains, holds and their
 * paths, World API wrenches, driver forces), gets extreme finite values
 * (+-1e308, +-1e6, 1e-300, huge and tiny durations); after each, the steps that
 * follow leave the simulation finite, or are undone with the writer told, and
 * time goes on.  "hold index_MCP 1e308" was answered OK and froze the time at
 * 0.002 s with every qpos and qvel NaN until the holder left.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "check.h"
#include "harness.h"
#include "haptixd.h"

TestSuite(rollback, .timeout = 300, .fini = hx_server_cleanup);

static const double extremes[] = { 1e308, -1e308, 1e6, -1e6, 1e-300 };
#define NEXTREME (sizeof(extremes) / sizeof(extremes[0]))

/* Counts over a test: writes taken, steps undone and told. */
struct tally {
	int taken, refused, undone;
	char last[2048];
};

/* The state is finite: time, qpos, qvel, act; fails the test if not. */
static void
finite_state(hxd_conn *c, const char *after)
{
	hxd_state *st = NULL;
	int i;

	HX_OK(c, hxd_get_state(c, &st));
	cr_assert(isfinite(st->time), "after %s: time %g", after, st->time);
	for (i = 0; i < st->nq; i++)
		cr_assert(isfinite(st->qpos[i]), "after %s: qpos[%d] %g", after,
		    i, st->qpos[i]);
	for (i = 0; i < st->nv; i++)
		cr_assert(isfinite(st->qvel[i]), "after %s: qvel[%d] %g", after,
		    i, st->qvel[i]);
	for (i = 0; i < st->na; i++)
		cr_assert(isfinite(st->act[i]), "after %s: act[%d] %g", after,
		    i, st->act[i]);
	free(st);
}

/*
 * After a write (rc its answer): steps, each either taken or undone
 * with the error saying so; then the state is finite.
 */
static void
after_write(hxd_conn *c, int rc, const char *what, struct tally *t)
{
	unsigned taken;
	int i, s;

	if (rc != HXD_OK) {
		t->refused++;
		return;
	}
	t->taken++;
	for (i = 0; i < 3; i++) {
		s = hxd_step(c, 2, &taken);
		if (s == HXD_SIMERROR) {
			cr_assert(strstr(hxd_error(c), "was undone") != NULL ||
				strstr(hxd_error(c), "was reset") != NULL,
			    "after %s: %s", what, hxd_error(c));
			snprintf(t->last, sizeof(t->last), "%s: %s", what,
			    hxd_error(c));
			t->undone++;
		} else if (s == HXD_DENIED)
			/* The slow-step guard's, told too; a reset clears it. */
			cr_assert(
			    strstr(hxd_error(c), "steps are refused") != NULL,
			    "after %s: %s", what, hxd_error(c));
		else
			cr_assert_eq(s, HXD_OK, "after %s: step: %s", what,
			    hxd_error(c));
	}
	finite_state(c, what);
}

/* Take n steps, which must all be good. */
static void
step_ok(hxd_conn *c, unsigned n)
{
	unsigned taken;

	HX_OK(c, hxd_step(c, n, &taken));
	cr_assert_eq(taken, n);
}

/* Back to the model as loaded, at rest. */
static void
fresh(hxd_conn *c)
{
	HX_OK(c, hxd_reset(c, -1));
	finite_state(c, "a reset");
}

Test(rollback, every_writable_array_at_extremes)
{
	static const char *const args[] = { "-m", "fixture.xml", "--paused",
		NULL };
	struct tally t = { 0 };
	struct hx_server s;
	hxd_array *a = NULL;
	char what[128];
	hxd_conn *c;
	double v;
	int n = 0, i, k, arrays = 0;

	hx_skip_if_valgrind();
	hx_server_start(&s, args);
	c = hx_connect_ok(s.unix_addr, "extremes");
	HX_OK(c, hxd_list_arrays(c, &a, &n));
	for (i = 0; i < n; i++) {
		if (!a[i].writable || a[i].rows * a[i].cols == 0)
			continue;
		arrays++;
		for (k = 0; k < (int)NEXTREME; k++) {
			v = extremes[k];
			snprintf(what, sizeof(what), "%s.%s = %g", a[i].owner,
			    a[i].name, v);
			after_write(
			    c, hxd_set_array(c, a[i].name, 0, 1, &v), what, &t);
			fresh(c);
		}
	}
	free(a);
	cr_assert_gt(arrays, 50, "only %d writable arrays", arrays);
	cr_assert_gt(
	    t.undone, 0, "no write made a step go bad: %d taken", t.taken);
	cr_log_info("%d arrays: %d writes taken, %d refused, %d steps undone",
	    arrays, t.taken, t.refused, t.undone);
	hxd_close(c);
	hx_server_stop(&s);
}

/*
 * Write g, through c, to the controls, the applied forces, the mocap
 * positions, the cube's velocity and force and the state's velocities
 * of model m, each checked as it goes (t); u is scratch space.
 */
static void
write_state_inputs(hxd_conn *c, const hxd_model *m, double g, double *u,
    int cube, struct tally *t)
{
	int j, nbody = m->nbody;
	hxd_state *st = NULL;
	hxd_control ctl;
	hxd_applied ap;
	hxd_mocap mc;
	hxd_onebody ob;
	char what[128];

	/* Controls, every one. */
	for (j = 0; j < m->nu; j++)
		u[j] = g;
	ctl = (hxd_control){ m->nu, 0, u };
	snprintf(what, sizeof(what), "ctrl = %g", g);
	after_write(c, hxd_set_control(c, &ctl), what, t);
	fresh(c);
	/* Applied forces, generalized and Cartesian. */
	for (j = 0; j < 6 * nbody + m->nv; j++)
		u[j] = g;
	ap = (hxd_applied){ m->nv, nbody, 0, u, u + m->nv };
	snprintf(what, sizeof(what), "applied forces = %g", g);
	after_write(c, hxd_set_applied(c, &ap), what, t);
	fresh(c);
	/* Mocap positions (the hand follows its mocap body). */
	for (j = 0; j < 3 * m->nmocap; j++)
		u[j] = g;
	for (j = 0; j < m->nmocap; j++) {
		double *q = u + 3 * m->nmocap + 4 * j;

		q[0] = 1, q[1] = q[2] = q[3] = 0;
	}
	mc = (hxd_mocap){ m->nmocap, 0, u, u + 3 * m->nmocap };
	snprintf(what, sizeof(what), "mocap pos = %g", g);
	after_write(c, hxd_set_mocap(c, &mc), what, t);
	fresh(c);
	/* One free body's velocity and force (the cube). */
	memset(&ob, 0, sizeof(ob));
	ob.body_id = 0;
	HX_OK(c, hxd_get_onebody(c, cube, &ob));
	ob.body_id = cube;
	ob.linvel[0] = ob.force[2] = g;
	snprintf(what, sizeof(what), "onebody velocity = %g", g);
	after_write(c,
	    hxd_set_onebody(c, &ob, HXD_ONEBODY_LINVEL | HXD_ONEBODY_FORCE),
	    what, t);
	fresh(c);
	/* The state's velocities. */
	HX_OK(c, hxd_get_state(c, &st));
	for (j = 0; j < st->nv; j++)
		st->qvel[j] = g;
	snprintf(what, sizeof(what), "qvel = %g", g);
	after_write(c, hxd_set_state(c, st), what, t);
	free(st);
	st = NULL;
	fresh(c);
}

/*
 * Write g (the k-th extreme), through c, to a joint, a geom's size, the
 * simple API's gains, a World API wrench, a mocap move, a hold's path
 * and a driver's force, each checked as it goes (t); u is scratch space.
 */
static void
write_call_inputs(
    hxd_conn *c, double g, int k, double *u, int cube, struct tally *t)
{
	static const char *const index[] = { "index_MCP" };
	hxd_robot_command cmd;
	hxd_robot_sensor *rs = NULL;
	hxd_wrench w;
	double f3[3], hv;
	char what[128];
	int j;

	/* A joint. */
	snprintf(what, sizeof(what), "joint index_MCP = %g", g);
	after_write(c, hxd_set_joint(c, "index_MCP", &g, 1, &g, 1), what, t);
	fresh(c);
	/* A geom's size. */
	f3[0] = f3[1] = f3[2] = fabs(g);
	snprintf(what, sizeof(what), "geom size = %g", fabs(g));
	after_write(c, hxd_set_geomsize(c, 1, f3), what, t);
	fresh(c);
	/* The simple API's gains and references. */
	for (j = 0; j < 13; j++)
		u[j] = fabs(g);
	memset(&cmd, 0, sizeof(cmd));
	cmd.motor_count = 13;
	cmd.ref_pos = cmd.gain_pos = u;
	snprintf(what, sizeof(what), "gain_pos = %g", fabs(g));
	after_write(c, hxd_robot_update(c, &cmd, &rs), what, t);
	free(rs);
	rs = NULL;
	fresh(c);
	/* A World API wrench: huge and tiny durations. */
	memset(&w, 0, sizeof(w));
	w.body = cube;
	w.apply = 1;
	w.force[2] = w.torque[0] = g;
	w.duration = k % 2 ? 1e300 : 1e-300;
	snprintf(what, sizeof(what), "wrench = %g for %g s", g, w.duration);
	after_write(c, hxd_world_force(c, &w, NULL, NULL, NULL), what, t);
	fresh(c);
	/* A mocap move to the extreme, over tiny and long times. */
	f3[0] = f3[1] = f3[2] = g;
	snprintf(what, sizeof(what), "mocap move to %g over %g s", g,
	    k % 2 ? 3600 : 1e-300);
	after_write(c,
	    hxd_mocap_move(c, 0, NULL, f3, NULL, k % 2 ? 3600 : 1e-300), what,
	    t);
	fresh(c);
	/* A hold, and its path: held at 0.5, then sent on to g. */
	hv = 0.5;
	HX_OK(c, hxd_hold_joints(c, index, &hv, 1, NULL));
	step_ok(c, 2);
	snprintf(what, sizeof(what), "hold path to %g", g);
	after_write(c, hxd_hold_joints(c, index, &g, 1, NULL), what, t);
	HX_OK(c, hxd_release_joints(c, NULL, 0, NULL));
	fresh(c);
	/* A driver's force. */
	f3[0] = f3[1] = g, f3[2] = -g;
	snprintf(what, sizeof(what), "driver force = %g", g);
	after_write(c, hxd_perturb(c, cube, NULL, f3, f3, NULL), what, t);
	fresh(c);
}

Test(rollback, every_other_input_at_extremes)
{
	static const char *const args[] = { "-m", "mpl_scene.xml", "--paused",
		NULL };
	struct tally t = { 0 };
	struct hx_server s;
	hxd_conn *c;
	const hxd_model *m;
	hxd_status status;
	double *u, g;
	int k, nbody, cube;

	hx_skip_if_valgrind();
	hx_server_start(&s, args);
	c = hx_connect_ok(s.unix_addr, "extremes");
	HX_OK(c, hxd_name2id(c, HXD_OBJ_BODY, "cube", &cube));
	status = hx_status_ok(c);
	m = &status.model;
	nbody = m->nbody;
	u = calloc((size_t)(6 * nbody + m->nv + m->nu + 7 * m->nmocap + 8),
	    sizeof(double));
	for (k = 0; k < (int)NEXTREME; k++) {
		g = extremes[k];
		write_state_inputs(c, m, g, u, cube, &t);
		write_call_inputs(c, g, k, u, cube, &t);
	}
	cr_assert_gt(t.undone, 0, "no input made a step go bad");
	cr_log_info("%d writes taken, %d refused, %d steps undone; %s", t.taken,
	    t.refused, t.undone, t.last);
	free(u);
	hxd_close(c);
	hx_server_stop(&s);
}

/*
 * The computations (issue 37) at the extremes: every kind, on a state
 * whose every array is g and with every point, vector, ray and dt g,
 * and on the live state.  Each answer is a result (MuJoCo's numbers,
 * inf and NaN included) or a refusal; never a dropped connection, a
 * MuJoCo error counted against the simulation, or a change to the live
 * state, which steps on finite afterwards.
 */
/* The median of n values (sorted in place). */
static double
median_of(double *v, int n)
{
	int i, j;
	double x;

	for (i = 1; i < n; i++)
		for (j = i; j > 0 && v[j - 1] > v[j]; j--) {
			x = v[j];
			v[j] = v[j - 1];
			v[j - 1] = x;
		}
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void
compute_at(
    hxd_conn *c, const hxd_model *m, double g, double *u, struct tally *t)
{
	static const char *const body[] = { "cube" },
				 *site[] = { "index_distal" };
	static const char *const geom[] = { "cube" }, *array[] = { "qacc" };
	int n = 6 * m->nbody + 2 * m->nq + m->nv + 64, i, k, rc;
	double t0, med, ms[17];
	hxd_query q[17];
	hxd_qresult *r;
	hxd_cstate st;

	for (i = 0; i < n; i++)
		u[i] = g;
	hxd_cstate_init(&st, m);
	/* The state's positions, velocities, controls and warm start. */
	st.qpos = st.qvel = st.act = st.ctrl = st.qacc_warmstart = u;
	memset(q, 0, sizeof(q));
	for (k = 0; k < 17; k++) {
		q[k].kind = k;
		q[k].dt = g;
		q[k].flag = k % 2;
	}
	q[HXD_COMPUTE_ARRAY].names = array;
	q[HXD_COMPUTE_SOLVE_M].args = u;
	q[HXD_COMPUTE_SOLVE_M].nargs = m->nv;
	q[HXD_COMPUTE_JAC].names = body;
	q[HXD_COMPUTE_JAC].args = u;
	q[HXD_COMPUTE_JAC].nargs = 3;
	q[HXD_COMPUTE_JAC_BODY].names = q[HXD_COMPUTE_JAC_BODY_COM].names = body;
	q[HXD_COMPUTE_JAC_GEOM].names = geom;
	q[HXD_COMPUTE_JAC_SITE].names = site;
	q[HXD_COMPUTE_OBJECT_VELOCITY].names = body;
	q[HXD_COMPUTE_OBJECT_ACCELERATION].names = body;
	q[HXD_COMPUTE_OBJECT_VELOCITY].objtype = HXD_OBJ_BODY;
	q[HXD_COMPUTE_OBJECT_ACCELERATION].objtype = HXD_OBJ_BODY;
	q[HXD_COMPUTE_RAY].args = u;
	q[HXD_COMPUTE_RAY].nargs = 6;
	q[HXD_COMPUTE_DIFFERENTIATE_POS].args = u;
	q[HXD_COMPUTE_DIFFERENTIATE_POS].nargs = 2 * m->nq;
	q[HXD_COMPUTE_INTEGRATE_POS].args = u;
	q[HXD_COMPUTE_INTEGRATE_POS].nargs = m->nq + m->nv;
	for (k = 0; k < 17; k++)
		if (q[k].names != NULL)
			q[k].nnames = 1;
	/* Each kind alone, on the given state and on the live one. */
	for (k = 0; k < 17; k++) {
		for (i = 0; i < 2; i++) {
			t0 = hx_wall_now();
			rc = hxd_compute(c, &q[k], 1, i ? &st : NULL, i, 0, &r);
			if (i)
				ms[k] = (hx_wall_now() - t0) * 1e3;
			cr_assert(rc == HXD_OK || rc == HXD_BADVALUE ||
				rc == HXD_SIMERROR,
			    "compute kind %d at %g (%s state): %d %s", k, g,
			    i ? "given" : "live", rc, hxd_error(c));
			if (rc == HXD_OK)
				hxd_qresults_free(r, 1);
			t->taken += rc == HXD_OK;
			t->refused += rc != HXD_OK;
		}
	}
	/*
	 * None holds the loop: a forward pass from a given state of 1e308
	 * took 150-230 ms of it.  The median's bound is some ten times a
	 * forward pass from MuJoCo's limit; under valgrind, forty times that.
	 */
	med = median_of(ms, 17);
	cr_assert_lt(med, getenv("HX_VALGRIND") != NULL ? 2000.0 : 50.0,
	    "computations at %g took %.1f ms each (median)", g, med);
	/* All of them at once, on the given state. */
	rc = hxd_compute(c, q, 17, &st, 1, 0, &r);
	cr_assert(rc == HXD_OK || rc == HXD_BADVALUE || rc == HXD_SIMERROR,
	    "every kind at %g: %d %s", g, rc, hxd_error(c));
	if (rc == HXD_OK)
		hxd_qresults_free(r, 17);
}

Test(rollback, computations_at_extremes)
{
	static const char *const args[] = { "-m", "mpl_scene.xml", "--paused",
		NULL };
	struct tally t = { 0 };
	struct hx_server s;
	hxd_status before, after;
	hxd_state *st0 = NULL, *st1 = NULL;
	const hxd_model *m;
	hxd_conn *c;
	double *u;
	int k;

	hx_server_start(&s, args);
	c = hx_connect_ok(s.unix_addr, "extremes");
	step_ok(c, 50);
	before = hx_status_ok(c);
	m = &before.model;
	HX_OK(c, hxd_get_state(c, &st0));
	u = calloc(
	    (size_t)(6 * m->nbody + 2 * m->nq + m->nv + 64), sizeof(double));
	for (k = 0; k < (int)NEXTREME; k++)
		compute_at(c, m, extremes[k], u, &t);
	/* The live state and the counters are as they were. */
	after = hx_status_ok(c);
	HX_OK(c, hxd_get_state(c, &st1));
	cr_assert_eq(memcmp(st0->qpos, st1->qpos, st0->nq * sizeof(double)), 0,
	    "a computation moved the live qpos");
	cr_assert_eq(memcmp(st0->qvel, st1->qvel, st0->nv * sizeof(double)), 0,
	    "a computation moved the live qvel");
	cr_assert_eq(before.time, after.time);
	cr_assert_eq(before.steps, after.steps);
	cr_assert_eq(before.sim_errors, after.sim_errors,
	    "a computation's MuJoCo error was counted against the simulation");
	cr_assert_gt(t.taken, 0, "no computation was answered");
	step_ok(c, 20);
	finite_state(c, "the computations");
	cr_log_info("%d computations answered, %d refused", t.taken, t.refused);
	free(st0);
	free(st1);
	free(u);
	hxd_close(c);
	hx_server_stop(&s);
}

/*
 * The hold: 1e308 (and 1e6) far outside index_MCP's range is
 * refused when sent; a hold in range keeps the time going.  On the
 * fixture's unlimited hinge a target of 1000 (allowed: no range to go
 * by) is held, or, where its force breaks a step, released with the
 * holder told, the step undone, and the time goes on either way: no
 * other client's reset is needed, and another client's reset works.
 */
/* A hold of joint at v is refused, the reason saying word. */
static void
hold_refused(hxd_conn *c, const char *joint, double v, const char *word)
{
	const char *const j[] = { joint };

	cr_assert_eq(hxd_hold_joints(c, j, &v, 1, NULL), HXD_BADVALUE,
	    "a hold of %s at %g", joint, v);
	cr_assert(strstr(hxd_error(c), word) != NULL, "%s", hxd_error(c));
}

/* A hold of joint at v is taken, and over ms the time goes on by more. */
static void
held_and_time_goes_on(
    hxd_conn *c, const char *joint, double v, int ms, double more)
{
	const char *const j[] = { joint };
	char what[64];
	double t0;

	HX_OK(c, hxd_hold_joints(c, j, &v, 1, NULL));
	t0 = hx_status_ok(c).time;
	hx_sleep_ms(ms);
	cr_assert_gt(hx_status_ok(c).time, t0 + more,
	    "the time stopped with %s held at %g", joint, v);
	snprintf(what, sizeof(what), "a hold at %g", v);
	finite_state(c, what);
}

Test(rollback, an_extreme_hold_is_refused_or_released)
{
	static const char *const mpl[] = { "-m", "mpl_scene.xml", NULL };
	static const char *const fix[] = { "-m", "fixture.xml", NULL };
	struct hx_server s;
	hxd_conn *c, *other;
	double t0;

	hx_skip_if_valgrind();
	hx_server_start(&s, mpl);
	c = hx_connect_ok(s.unix_addr, "holder");
	hold_refused(c, "index_MCP", 1e308, "far outside its range");
	hold_refused(c, "index_MCP", 1e6, "far outside its range");
	held_and_time_goes_on(c, "index_MCP", 0.5, 300, 0);
	hxd_close(c);
	hx_server_stop(&s);

	hx_server_start(&s, fix);
	c = hx_connect_ok(s.unix_addr, "holder");
	hold_refused(c, "hinge2", 1001, "no range to go by");
	held_and_time_goes_on(c, "hinge2", 1000, 500, 0.2);
	/* Another client's reset brings the simulation back, hold or not. */
	other = hx_connect_ok(s.unix_addr, "bystander");
	HX_OK(other, hxd_reset(other, -1));
	t0 = hx_status_ok(other).time;
	cr_assert_lt(t0, 0.2, "the reset left the time at %g", t0);
	hx_sleep_ms(500);
	cr_assert_gt(hx_status_ok(other).time, t0 + 0.2, "the time stopped");
	finite_state(other, "another client's reset");
	hxd_close(other);
	hxd_close(c);
	hx_server_stop(&s);
}
