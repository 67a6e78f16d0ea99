/*
 * Integration tests of batch runs, keyframes by name, joints by name and
 * pacing, through the extension API (haptixd.h) against real haptixd
 * daemons.  The numbers come from models/test/fixture.xml: keep them in
 * step.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "check.h"
#include "harness.h"
#include "haptixd.h"
#include "rawclient.h"

TestSuite(batch, .timeout = 60, .fini = hx_server_cleanup);

/* Sizes of fixture.xml. */
#define NQ 9
#define NV 8
#define NU 2
#define NBODY 5
#define NSENSORDATA 11
#define TIMESTEP 0.002

/* Its keyframes, and where the box's free joint lives in qpos and qvel. */
enum { KEY_RAISED, KEY_DROPPED };
#define BOX_QPOS 2
#define BOX_QVEL 2

/* What batch.h allows in one batch. */
#define MAX_STEPS 100000000u

/* A generous bound on how long a read may wait while a batch steps. */
#define READ_LATENCY_MAX 0.5

/* Assert that two arrays of n doubles are bit for bit the same. */
#define SAME(a, b, n, ...) \
	cr_assert( \
	    memcmp((a), (b), (size_t)(n) * sizeof(double)) == 0, __VA_ARGS__)

/* Everything of the fixture's state that the tests compare. */
struct snap {
	double time;
	double qpos[NQ], qvel[NV], ctrl[NU], sensordata[NSENSORDATA];
	double mpos[3], mquat[4];
	unsigned long long steps;
};

/* What a forked client reports of its batch run. */
struct report {
	int rc;
	unsigned long long steps;
	double time, wall;
	char err[256];
};

/* Controls within the servos' ranges, unlike the keyframes'. */
static const double ctrl_a[NU] = { 0.8, -1.2 };
static const double ctrl_b[NU] = { -0.3, 1.7 };

/* Set the controls. */
static void
control_set(hxd_conn *c, const double ctrl[NU])
{
	double v[NU];
	hxd_control w = { .nu = NU, .ctrl = v };

	memcpy(v, ctrl, sizeof(v));
	HX_OK(c, hxd_set_control(c, &w));
}

/* Put the mocap body at pos. */
static void
mocap_set(hxd_conn *c, double x, double y, double z)
{
	double pos[3] = { x, y, z }, quat[4] = { 1, 0, 0, 0 };
	hxd_mocap m = { .nmocap = 1, .pos = pos, .quat = quat };

	HX_OK(c, hxd_set_mocap(c, &m));
}

/* Read the state, controls, sensors, mocap pose and step count. */
static void
snap_take(hxd_conn *c, struct snap *out)
{
	hxd_state *s = NULL;
	hxd_control *u = NULL;
	hxd_sensor *y = NULL;
	hxd_mocap *m = NULL;
	hxd_status st;

	memset(out, 0, sizeof(*out));
	HX_OK(c, hxd_get_state(c, &s));
	cr_assert_eq(s->nq, NQ);
	cr_assert_eq(s->nv, NV);
	HX_OK(c, hxd_get_control(c, &u));
	cr_assert_eq(u->nu, NU);
	HX_OK(c, hxd_get_sensor(c, &y));
	cr_assert_eq(y->nsensordata, NSENSORDATA);
	HX_OK(c, hxd_get_mocap(c, &m));
	cr_assert_eq(m->nmocap, 1);
	HX_OK(c, hxd_status_get(c, &st));
	out->time = s->time;
	memcpy(out->qpos, s->qpos, sizeof(out->qpos));
	memcpy(out->qvel, s->qvel, sizeof(out->qvel));
	memcpy(out->ctrl, u->ctrl, sizeof(out->ctrl));
	memcpy(out->sensordata, y->sensordata, sizeof(out->sensordata));
	memcpy(out->mpos, m->pos, sizeof(out->mpos));
	memcpy(out->mquat, m->quat, sizeof(out->mquat));
	out->steps = st.steps;
	free(s);
	free(u);
	free(y);
	free(m);
}

/*
 * Assert that two snapshots hold bit for bit the same state; sensors
 * too when sensors is set (a step leaves the sensors of the state
 * before its integration, a reset those of the state it restores).
 */
static void
snap_same(
    const struct snap *a, const struct snap *b, int sensors, const char *why)
{
	int i;

	cr_assert(memcmp(&a->time, &b->time, sizeof(a->time)) == 0,
	    "%s: time %.17g != %.17g", why, a->time, b->time);
	for (i = 0; i < NQ; i++)
		cr_assert(memcmp(&a->qpos[i], &b->qpos[i], sizeof(double)) == 0,
		    "%s: qpos[%d] %.17g != %.17g", why, i, a->qpos[i],
		    b->qpos[i]);
	for (i = 0; i < NV; i++)
		cr_assert(memcmp(&a->qvel[i], &b->qvel[i], sizeof(double)) == 0,
		    "%s: qvel[%d] %.17g != %.17g", why, i, a->qvel[i],
		    b->qvel[i]);
	SAME(a->ctrl, b->ctrl, NU, "%s: ctrl differs", why);
	SAME(a->mpos, b->mpos, 3, "%s: mocap pos differs", why);
	SAME(a->mquat, b->mquat, 4, "%s: mocap quat differs", why);
	if (sensors)
		SAME(a->sensordata, b->sensordata, NSENSORDATA,
		    "%s: sensordata differs", why);
}

/* The simulated time. */
static double
time_now(hxd_conn *c)
{
	hxd_state *s = NULL;
	double t;

	HX_OK(c, hxd_get_state(c, &s));
	t = s->time;
	free(s);
	return t;
}

/* Run a batch of steps (or until until_time) and return its result. */
static hxd_batch_result *
batch_ok(hxd_conn *c, const hxd_batch *b)
{
	hxd_batch_result *r = NULL;

	HX_OK(c, hxd_batch_run(c, b, &r));
	cr_assert_not_null(r);
	cr_assert_not_null(r->sensor);
	cr_assert_eq(r->sensor->nsensordata, NSENSORDATA);
	return r;
}

/* Poll status until a batch runs (want 1) or none does (want 0). */
static hxd_status
batch_wait(hxd_conn *c, int want, double seconds)
{
	double end = hx_wall_now() + seconds;
	hxd_status st;

	for (;;) {
		st = hx_status_ok(c);
		if ((st.batch_session != 0) == want || hx_wall_now() > end)
			return st;
		hx_sleep_ms(5);
	}
}

/* The id of the connected client called name, or 0. */
static unsigned long long
client_id(hxd_conn *c, const char *name, unsigned long long *you)
{
	hxd_client *list = NULL;
	unsigned long long id = 0;
	int n = 0, i;

	HX_OK(c, hxd_clients(c, &list, &n, you));
	for (i = 0; i < n; i++) {
		if (strcmp(list[i].name, name) == 0)
			id = list[i].id;
	}
	free(list);
	return id;
}

/*------------------------------------------------- batch equivalence */

#define NSTEPS 60
#define EVERY 7

/* The state after each of NSTEPS single steps from keyframe "raised". */
static struct snap ref[NSTEPS + 1];

/*
 * The trajectory r of qpos and sensordata recorded every EVERY steps
 * from step0: each frame that of the single steps (ref), and only the
 * fields asked for.
 */
static void
expect_two_field_trajectory(const hxd_batch_result *r, unsigned long long step0)
{
	int k, n;

	for (k = 0; k < r->ntrajectory; k++) {
		const hxd_frame *f = r->trajectory[k];

		n = (k + 1) * EVERY;
		cr_assert_not_null(f);
		cr_assert_eq(f->step, step0 + (unsigned long long)n,
		    "frame %d is of step %llu, expected %llu", k, f->step,
		    step0 + (unsigned long long)n);
		cr_assert(memcmp(&f->time, &ref[n].time, sizeof(double)) == 0,
		    "frame %d: time %.17g, expected %.17g", k, f->time,
		    ref[n].time);
		cr_assert_eq(f->nq, NQ);
		cr_assert_not_null(f->qpos);
		SAME(f->qpos, ref[n].qpos, NQ, "frame %d: qpos of step %d", k,
		    n);
		cr_assert_eq(f->nsensordata, NSENSORDATA);
		SAME(f->sensordata, ref[n].sensordata, NSENSORDATA,
		    "frame %d: sensordata of step %d", k, n);
		/* Only the fields asked for. */
		cr_assert(
		    f->nv == 0 && f->qvel == NULL, "frame %d has qvel", k);
		cr_assert(
		    f->nu == 0 && f->ctrl == NULL, "frame %d has ctrl", k);
		cr_assert(f->act == NULL && f->mocap_pos == NULL &&
			f->mocap_quat == NULL && f->qfrc_applied == NULL &&
			f->xfrc_applied == NULL,
		    "frame %d has arrays not asked for", k);
		cr_assert(f->body == NULL && f->geom == NULL &&
			f->site == NULL && f->contacts == NULL &&
			f->status == NULL,
		    "frame %d has poses, contacts or status", k);
	}
}

/* Controls set first (by c), then a batch without: the same again. */
static void
expect_controls_set_first(hxd_conn *c)
{
	hxd_batch b;
	hxd_batch_result *r;
	struct snap now;

	HX_OK(c, hxd_reset(c, KEY_RAISED));
	control_set(c, ctrl_a);
	memset(&b, 0, sizeof(b));
	b.steps = NSTEPS;
	r = batch_ok(c, &b);
	cr_assert_eq(r->steps, NSTEPS);
	cr_assert_eq(r->ntrajectory, 0, "a trajectory nobody asked for");
	snap_take(c, &now);
	snap_same(&now, &ref[NSTEPS], 1, "set_control, then a batch");
	hxd_batch_result_free(r);
}

/* The trajectory r of other fields, every step: those of ref. */
static void
expect_other_fields_every_step(const hxd_batch_result *r)
{
	int k;

	for (k = 0; k < r->ntrajectory; k++) {
		const hxd_frame *f = r->trajectory[k];

		cr_assert(
		    memcmp(&f->time, &ref[k + 1].time, sizeof(double)) == 0,
		    "frame %d: time %.17g", k, f->time);
		cr_assert(
		    f->nq == 0 && f->qpos == NULL, "frame %d has qpos", k);
		cr_assert(f->sensordata == NULL, "frame %d has sensors", k);
		cr_assert_eq(f->nv, NV);
		SAME(f->qvel, ref[k + 1].qvel, NV, "frame %d: qvel", k);
		cr_assert_eq(f->nu, NU);
		SAME(f->ctrl, ctrl_a, NU, "frame %d: ctrl", k);
		cr_assert_eq(f->nmocap, 1);
		SAME(f->mocap_pos, ref[k + 1].mpos, 3, "frame %d: mocap", k);
		cr_assert_not_null(f->body, "frame %d: no body poses", k);
		cr_assert_eq(f->body->count, NBODY);
	}
}

/* The controls matter: without them the run (by c) goes elsewhere. */
static void
expect_controls_matter(hxd_conn *c)
{
	hxd_batch b;
	struct snap now;

	HX_OK(c, hxd_reset(c, KEY_RAISED));
	memset(&b, 0, sizeof(b));
	b.steps = NSTEPS;
	hxd_batch_result_free(batch_ok(c, &b));
	snap_take(c, &now);
	cr_assert(memcmp(now.qpos, ref[NSTEPS].qpos, sizeof(now.qpos)) != 0,
	    "the controls made no difference: the comparison proves nothing");
}

/* The reference (ref): the controls, then NSTEPS single steps by c. */
static void
reference_take(hxd_conn *c)
{
	unsigned taken;
	int i;

	HX_OK(c, hxd_reset(c, KEY_RAISED));
	control_set(c, ctrl_a);
	snap_take(c, &ref[0]);
	for (i = 1; i <= NSTEPS; i++) {
		taken = 0;
		HX_OK(c, hxd_step(c, 1, &taken));
		cr_assert_eq(taken, 1);
		snap_take(c, &ref[i]);
	}
	cr_assert(memcmp(ref[0].qpos, ref[NSTEPS].qpos, sizeof(ref[0].qpos)),
	    "the fixture did not move in %d steps", NSTEPS);
}

/*
 * A batch takes the same steps as single hxd_step calls from the same
 * state with the same controls: the states, sensors and recorded frames
 * are bit for bit those of the step-by-step run.
 */
HX_TRANSPORT_TEST(
    batch, steps_equal_single_steps, "-m", "fixture.xml", "--paused", NULL)
{
	hxd_conn *c = hx_connect_ok(addr, "test");
	hxd_control ctl = { .nu = NU, .ctrl = (double *)ctrl_a };
	hxd_batch b;
	hxd_batch_result *r;
	struct snap now;
	unsigned long long step0;

	reference_take(c);

	/* A batch with the controls and a trajectory of two fields. */
	HX_OK(c, hxd_reset(c, KEY_RAISED));
	step0 = hx_status_ok(c).steps;
	memset(&b, 0, sizeof(b));
	b.control = &ctl;
	b.steps = NSTEPS;
	b.record = HXD_FIELDS(HXD_FIELD_QPOS) |
	    HXD_FIELDS(HXD_FIELD_SENSORDATA);
	b.record_every = EVERY;
	r = batch_ok(c, &b);
	cr_assert_eq(r->steps, NSTEPS);
	cr_assert(memcmp(&r->time, &ref[NSTEPS].time, sizeof(double)) == 0,
	    "batch time %.17g, single steps %.17g", r->time, ref[NSTEPS].time);
	SAME(r->sensor->sensordata, ref[NSTEPS].sensordata, NSENSORDATA,
	    "the batch's sensors differ from the single steps'");
	snap_take(c, &now);
	snap_same(&now, &ref[NSTEPS], 1, "batch with controls");
	cr_assert_eq(now.steps, step0 + NSTEPS);
	cr_assert_eq(r->ntrajectory, NSTEPS / EVERY,
	    "%d frames for %d steps recorded every %d", r->ntrajectory, NSTEPS,
	    EVERY);
	expect_two_field_trajectory(r, step0);
	hxd_batch_result_free(r);

	expect_controls_set_first(c);

	/* Every step (record_every 0) of other fields. */
	HX_OK(c, hxd_reset(c, KEY_RAISED));
	memset(&b, 0, sizeof(b));
	b.control = &ctl;
	b.steps = NSTEPS;
	b.record = HXD_FIELDS(HXD_FIELD_QVEL) | HXD_FIELDS(HXD_FIELD_CTRL) |
	    HXD_FIELDS(HXD_FIELD_MOCAP) | HXD_FIELDS(HXD_FIELD_BODY);
	r = batch_ok(c, &b);
	cr_assert_eq(r->ntrajectory, NSTEPS);
	expect_other_fields_every_step(r);
	hxd_batch_result_free(r);

	expect_controls_matter(c);
	hxd_close(c);
}

/*
 * until_time lands within half a step of the time asked for, from time
 * 0 and from later, with as many steps as that takes, and records
 * floor(steps / record_every) frames even when the goal is a tie.
 */
HX_TRANSPORT_TEST(batch, until_time_lands_within_half_a_step, "-m",
    "fixture.xml", "--paused", NULL)
{
	hxd_conn *c = hx_connect_ok(addr, "test");
	hxd_batch b;
	hxd_batch_result *r;
	double t0;

	HX_OK(c, hxd_reset(c, KEY_RAISED));
	memset(&b, 0, sizeof(b));
	b.until_time = 0.1234;
	b.record = HXD_FIELDS(HXD_FIELD_QPOS);
	b.record_every = 5;
	r = batch_ok(c, &b);
	HX_NEAR(r->time, 0.1234, TIMESTEP / 2 + 1e-12);
	cr_assert_eq(r->steps, 62, "%llu steps to 0.1234 s", r->steps);
	cr_assert_eq(r->ntrajectory, 62 / 5);
	HX_NEAR(r->trajectory[r->ntrajectory - 1]->time, 60 * TIMESTEP, 1e-12);
	cr_assert(memcmp(&r->time, &r->sensor->time, sizeof(double)) == 0);
	t0 = time_now(c);
	cr_assert(memcmp(&t0, &r->time, sizeof(double)) == 0,
	    "the state's time %.17g is not the batch's %.17g", t0, r->time);
	hxd_batch_result_free(r);

	/* From a later time, and from the keyframe at time 1. */
	b.until_time = t0 + 0.0511;
	r = batch_ok(c, &b);
	HX_NEAR(r->time, t0 + 0.0511, TIMESTEP / 2 + 1e-12);
	cr_assert_eq(r->steps, 26, "%llu steps for 0.0511 s", r->steps);
	hxd_batch_result_free(r);
	HX_OK(c, hxd_reset(c, KEY_DROPPED));
	HX_NEAR(time_now(c), 1.0, 0);
	b.until_time = 1.5;
	b.record = 0;
	r = batch_ok(c, &b);
	HX_NEAR(r->time, 1.5, TIMESTEP / 2 + 1e-12);
	cr_assert_eq(r->steps, 250);
	hxd_batch_result_free(r);
	hxd_close(c);
}

/*
 * A goal half way between two steps may end on either, but every step
 * taken has its frame in the trajectory: recording may not stop at the
 * number of steps the daemon expected.
 */
HX_TRANSPORT_TEST(batch, until_time_ties_record_every_step, "-m", "fixture.xml",
    "--paused", NULL)
{
	hxd_conn *c = hx_connect_ok(addr, "test");
	hxd_batch b;
	hxd_batch_result *r;
	unsigned long long step0;
	double t0, goal;
	int i;

	HX_OK(c, hxd_reset(c, KEY_DROPPED));
	memset(&b, 0, sizeof(b));
	b.until_time = 1.5;
	hxd_batch_result_free(batch_ok(c, &b));
	memset(&b, 0, sizeof(b));
	b.record = HXD_FIELDS(HXD_FIELD_QPOS);
	b.record_every = 1;
	for (i = 0; i < 40; i++) {
		t0 = time_now(c);
		step0 = hx_status_ok(c).steps;
		goal = t0 + (10 + i + 0.5) * TIMESTEP;
		b.until_time = goal;
		r = batch_ok(c, &b);
		HX_NEAR(r->time, goal, TIMESTEP / 2 + 1e-9);
		cr_assert(r->steps == (unsigned long long)(10 + i) ||
			r->steps == (unsigned long long)(11 + i),
		    "%llu steps for %d.5 steps' time", r->steps, 10 + i);
		cr_assert_eq(hx_status_ok(c).steps, step0 + r->steps);
		cr_assert_eq((unsigned long long)r->ntrajectory, r->steps,
		    "until_time %.17g from %.17g: %llu steps but %d frames "
		    "recorded every step",
		    goal, t0, r->steps, r->ntrajectory);
		hxd_batch_result_free(r);
	}
	hxd_close(c);
}

/*---------------------------------------------------------- errors */

/* Run a batch that must fail with code and a reason mentioning word. */
#define BATCH_FAILS(c, b, code, word) \
	do { \
		hxd_batch_result *r_ = (hxd_batch_result *)1; \
		HX_FAILS_WITH(c, hxd_batch_run(c, (b), &r_), code, word); \
		cr_assert_null(r_, "a failed batch left a result"); \
	} while (0)

/*
 * Send a batch recording field past the library's checks: the server
 * must refuse it with BADVALUE and say which record is wrong.
 */
static void
raw_bad_field(const char *addr, int field)
{
	Haptix__V1__Batch w = HAPTIX__V1__BATCH__INIT;
	Haptix__V1__StreamField rec[2] = {
		HAPTIX__V1__STREAM_FIELD__STREAM_QPOS,
		(Haptix__V1__StreamField)field
	};
	Haptix__V1__Response *resp;
	int fd;

	w.steps = 5;
	w.n_record = 2;
	w.record = rec;
	fd = raw_batch_client(addr, "raw", &w, 7);
	resp = raw_recv(fd, 5000);
	cr_assert_not_null(
	    resp, "no answer to a batch recording field %d", field);
	cr_assert_eq(resp->result, HAPTIX__V1__RESULT__RESULT_BADVALUE,
	    "recording field %d: result %d (%s)", field, resp->result,
	    resp->error);
	cr_assert(strstr(resp->error, "record") != NULL,
	    "recording field %d: \"%s\"", field, resp->error);
	haptix__v1__response__free_unpacked(resp, NULL);
	close(fd);
}

/*
 * Each refused batch says why with the documented code, and takes no
 * step and sets no control.
 */
HX_TRANSPORT_TEST(batch, refusals_say_why, "-m", "fixture.xml", "--paused",
    "--max-frame", "65536", NULL)
{
	hxd_conn *c = hx_connect_ok(addr, "test");
	double nan_ctrl[NU] = { 0.1, NAN }, inf_ctrl[NU] = { INFINITY, 0 };
	double one[1] = { 0.2 }, three[3] = { 0.1, 0.2, 0.3 };
	hxd_control ctl = { .nu = NU, .ctrl = (double *)ctrl_b };
	hxd_batch b;
	hxd_batch_result *r;
	struct snap before, after;

	/* Running. */
	HX_OK(c, hxd_run(c));
	memset(&b, 0, sizeof(b));
	b.steps = 10;
	BATCH_FAILS(c, &b, HXD_DENIED, "running");
	HX_OK(c, hxd_pause(c));
	HX_OK(c, hxd_reset(c, KEY_RAISED));
	snap_take(c, &before);

	/* Both or neither of steps and until_time, or a bad time. */
	b.control = &ctl;
	b.steps = 10;
	b.until_time = 0.5;
	BATCH_FAILS(c, &b, HXD_BADVALUE, "not both");
	b.steps = 0;
	b.until_time = 0;
	BATCH_FAILS(c, &b, HXD_BADVALUE, "until_time");
	b.until_time = NAN;
	BATCH_FAILS(c, &b, HXD_BADVALUE, "until_time");
	b.until_time = INFINITY;
	BATCH_FAILS(c, &b, HXD_BADVALUE, "until_time");
	b.until_time = -1;
	BATCH_FAILS(c, &b, HXD_BADVALUE, "until_time");

	/* Too many steps, by count or by time. */
	b.until_time = 0;
	b.steps = MAX_STEPS + 1;
	BATCH_FAILS(c, &b, HXD_BADVALUE, "more than");
	b.steps = 0;
	b.until_time = 1e6;
	BATCH_FAILS(c, &b, HXD_BADVALUE, "more than");

	/* Fields that are none. */
	b.until_time = 0;
	b.steps = 10;
	b.record = HXD_FIELDS(HXD_FIELD_MAX + 1);
	BATCH_FAILS(c, &b, HXD_BADVALUE, "field");
	b.record = HXD_FIELDS(HXD_FIELD_QPOS) | 1u;
	BATCH_FAILS(c, &b, HXD_BADVALUE, "field");
	b.record = 0;
	raw_bad_field(addr, HXD_FIELD_MAX + 1);
	raw_bad_field(addr, 0);
	raw_bad_field(addr, 99);

	/* Controls that are not numbers or not the model's size. */
	ctl.ctrl = nan_ctrl;
	BATCH_FAILS(c, &b, HXD_BADVALUE, "finite");
	ctl.ctrl = inf_ctrl;
	BATCH_FAILS(c, &b, HXD_BADVALUE, "finite");
	ctl.nu = 1;
	ctl.ctrl = one;
	BATCH_FAILS(c, &b, HXD_BADSIZE, "nu");
	ctl.nu = 3;
	ctl.ctrl = three;
	BATCH_FAILS(c, &b, HXD_BADSIZE, "nu");
	ctl.nu = NU;
	ctl.ctrl = (double *)ctrl_b;

	/* A trajectory larger than the 64 KiB frame limit. */
	b.steps = 1000;
	b.record = HXD_FIELDS(HXD_FIELD_QPOS);
	b.record_every = 1;
	BATCH_FAILS(c, &b, HXD_BADSIZE, "--max-frame");
	b.steps = 10000000;
	b.record = (HXD_FIELDS(HXD_FIELD_MAX) << 1) - 2;
	BATCH_FAILS(c, &b, HXD_BADSIZE, "--max-frame");

	/* None of that stepped or set the controls. */
	snap_take(c, &after);
	snap_same(&after, &before, 1, "after refused batches");
	cr_assert_eq(after.steps, before.steps, "refused batches stepped");

	/* The same trajectory every tenth step fits. */
	b.steps = 1000;
	b.record = HXD_FIELDS(HXD_FIELD_QPOS);
	b.record_every = 10;
	r = batch_ok(c, &b);
	cr_assert_eq(r->steps, 1000);
	cr_assert_eq(r->ntrajectory, 100);
	hxd_batch_result_free(r);
	snap_take(c, &after);
	SAME(after.ctrl, ctrl_b, NU, "the batch's controls were not applied");
	hxd_close(c);
}

/*
 * The trajectory's size is judged before the batch from a frame of the
 * moment; contacts that appear during the run make frames larger.  The
 * answer must still be BADSIZE naming --max-frame, never an oversize
 * frame, and the daemon keeps serving.
 */
HX_TRANSPORT_TEST(batch, trajectory_that_grows_past_the_frame_limit, "-m",
    "fixture.xml", "--paused", "--max-frame", "65536", NULL)
{
	hxd_conn *c = hx_connect_ok(addr, "test");
	double high[7] = { 0.6, 0, 0.5, 1, 0, 0, 0 }, zero6[6] = { 0 };
	hxd_batch b = { .steps = 1500,
		.record = HXD_FIELDS(HXD_FIELD_CONTACTS),
		.record_every = 1 };
	hxd_batch_result *r = (hxd_batch_result *)1;
	hxd_contacts *k = NULL;
	hxd_status st;
	char err[1024];
	int rc;

	/* The box in the air, nothing touching. */
	HX_OK(c, hxd_reset(c, -1));
	HX_OK(c, hxd_set_joint(c, "box", high, 7, zero6, 6));
	HX_OK(c, hxd_get_contact(c, &k));
	cr_assert_eq(k->ncon, 0, "contacts before the fall");
	free(k);
	rc = hxd_batch_run(c, &b, &r);
	snprintf(err, sizeof(err), "%s", hxd_error(c));
	st = hx_status_ok(c);
	if (rc == HXD_OK) {
		cr_assert_eq(r->ntrajectory, 1500);
		cr_assert_gt(r->trajectory[1499]->contacts->ncon, 0,
		    "the box never landed: the test proves nothing");
		hxd_batch_result_free(r);
	} else {
		cr_assert_eq(rc, HXD_BADSIZE, "%s", err);
		cr_assert(strstr(err, "--max-frame") != NULL, "%s", err);
	}
	cr_assert(hxd_connected(c));
	cr_assert_eq(st.batch_session, 0);
	HX_OK(c, hxd_step(c, 1, NULL));
	hxd_close(c);
}

/*------------------------------------------------ long batch, others */

/*
 * In a child: connect with a 200 ms timeout, run a batch of steps and
 * write what came back to fd.  Never returns.
 */
static void
batch_child(const char *addr, unsigned steps, int fd)
{
	struct report rep;
	hxd_batch b = { .steps = steps };
	hxd_batch_result *r = NULL;
	hxd_conn *c;
	double t;

	memset(&rep, 0, sizeof(rep));
	c = hxd_connect_timeout(addr, "batcher", 200);
	rep.rc = c != NULL ? hxd_result(c) : HXD_CANNOTSEND;
	if (rep.rc == HXD_OK) {
		t = hx_wall_now();
		rep.rc = hxd_batch_run(c, &b, &r);
		rep.wall = hx_wall_now() - t;
	}
	if (r != NULL) {
		rep.steps = r->steps;
		rep.time = r->time;
	}
	snprintf(rep.err, sizeof(rep.err), "%s",
	    c != NULL ? hxd_error(c) : "no memory");
	if (write(fd, &rep, sizeof(rep)) != (ssize_t)sizeof(rep))
		_exit(2);
	_exit(0);
}

/*
 * Check a write made while client id's batch seemed to run: it must be
 * refused with a reason naming the batch and its client, or accepted
 * only because the batch ended in the meantime (then return 0).
 */
static int
write_refused(hxd_conn *c, int rc, unsigned long long id, const char *what)
{
	char who[64];

	if (rc == HXD_OK) {
		cr_assert_eq(hx_status_ok(c).batch_session, 0,
		    "%s was accepted while client %llu runs a batch", what, id);
		return 0;
	}
	cr_assert_eq(rc, HXD_DENIED, "%s -> %s (%d), expected DENIED: %s", what,
	    hxd_result_name(rc), rc, hxd_error(c));
	snprintf(who, sizeof(who), "client %llu", id);
	cr_assert(strstr(hxd_error(c), "batch") != NULL &&
		strstr(hxd_error(c), who) != NULL,
	    "%s: \"%s\" does not name the batch of %s", what, hxd_error(c),
	    who);
	cr_assert(hxd_connected(c));
	return 1;
}

/*
 * While one client runs a long batch, the others' reads are answered
 * promptly and their writes refused, naming the batch; status shows the
 * batch's client.  The connection's timeout does not cut the batch
 * short, and once it answers the others may write again.
 */
HX_TRANSPORT_TEST(
    batch, long_batch_serves_others, "-m", "fixture.xml", "--paused", NULL)
{
	hxd_conn *c;
	hxd_control ctl = { .nu = NU, .ctrl = (double *)ctrl_a };
	hxd_batch b = { .steps = 20000 }, b2 = { .steps = 5 };
	hxd_batch_result *r = NULL;
	double qpos1[1] = { 0.1 }, t, lat, lat_max = 0, lat_sum = 0;
	double rate, last = -1, start;
	unsigned long long me = 0, id, steps;
	int fds[2], status, reads = 0, advances = 0, writes = 0, ok = 1;
	struct report rep;
	hxd_status st;
	hxd_state *s;
	pid_t pid;

	hx_skip_if_valgrind();
	c = hx_connect_ok(addr, "test");
	/* How fast does this machine step the fixture? */
	t = hx_wall_now();
	r = batch_ok(c, &b);
	rate = 20000 / (hx_wall_now() - t);
	hxd_batch_result_free(r);
	/* Aim for about 1.5 s of batch, never under 200000 steps. */
	steps = (unsigned long long)(rate * 1.5);
	if (steps < 200000)
		steps = 200000;
	if (steps > 20000000)
		steps = 20000000;
	HX_OK(c, hxd_reset(c, -1));

	cr_assert_eq(pipe(fds), 0, "pipe: %s", strerror(errno));
	pid = fork();
	cr_assert_neq(pid, -1, "fork: %s", strerror(errno));
	if (pid == 0) {
		close(fds[0]);
		batch_child(addr, (unsigned)steps, fds[1]);
	}
	close(fds[1]);

	st = batch_wait(c, 1, 10);
	cr_assert_neq(st.batch_session, 0,
	    "no batch ran within 10 s (%llu steps at %.0f steps/s)", steps,
	    rate);
	id = client_id(c, "batcher", &me);
	cr_assert_neq(id, 0, "the batch's client is not listed");
	cr_assert_eq(st.batch_session, id,
	    "status.batch_session %llu is not the batch's client %llu",
	    st.batch_session, id);
	cr_assert_neq(me, id);
	cr_assert(st.paused, "a batch runs a paused simulation");

	start = hx_wall_now();
	while (hx_wall_now() - start < 40) {
		t = hx_wall_now();
		st = hx_status_ok(c);
		lat = hx_wall_now() - t;
		if (st.batch_session == 0)
			break;
		cr_assert_eq(st.batch_session, id);
		t = hx_wall_now();
		s = NULL;
		HX_OK(c, hxd_get_state(c, &s));
		lat = fmax(lat, hx_wall_now() - t);
		lat_max = fmax(lat_max, lat);
		lat_sum += lat;
		reads++;
		if (s->time > last) {
			advances += last >= 0;
			last = s->time;
		}
		free(s);
		/* Every kind of write, in turn, while the batch runs. */
		if (hx_status_ok(c).batch_session == 0)
			break;
		switch (writes++ % 9) {
		case 0:
			ok = write_refused(c, hxd_set_control(c, &ctl), id,
			    "hxd_set_control(c, &ctl)");
			break;
		case 1:
			ok = write_refused(c, hxd_step(c, 1, NULL), id,
			    "hxd_step(c, 1, NULL)");
			break;
		case 2:
			ok = write_refused(c, hxd_reset(c, KEY_RAISED), id,
			    "hxd_reset(c, KEY_RAISED)");
			break;
		case 3:
			ok = write_refused(c, hxd_run(c), id, "hxd_run(c)");
			break;
		case 4:
			r = (hxd_batch_result *)1;
			ok = write_refused(c, hxd_batch_run(c, &b2, &r), id,
			    "hxd_batch_run(c, &b2, &r)");
			if (ok)
				cr_assert_null(
				    r, "a refused batch left a result");
			hxd_batch_result_free(ok ? NULL : r);
			break;
		case 5:
			ok = write_refused(c, hxd_capture_key(c, "mine", 0), id,
			    "hxd_capture_key(c, \"mine\", 0)");
			break;
		case 6:
			ok = write_refused(c,
			    hxd_set_joint(c, "hinge1", qpos1, 1, NULL, 0), id,
			    "hxd_set_joint(c, \"hinge1\", qpos1, 1, NULL, 0)");
			break;
		case 7:
			ok = write_refused(
			    c, hxd_reload(c, NULL), id, "hxd_reload(c, NULL)");
			break;
		default:
			ok = write_refused(c, hxd_set_speed(c, 2, 0), id,
			    "hxd_set_speed(c, 2, 0)");
			break;
		}
		if (!ok)
			break;
		hx_sleep_ms(20);
	}

	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	    "the batch's client exited with %#x", status);
	cr_assert_eq(read(fds[0], &rep, sizeof(rep)), (ssize_t)sizeof(rep));
	close(fds[0]);
	cr_assert_eq(rep.rc, HXD_OK,
	    "a %.2f s batch behind a 200 ms timeout: %s (%d): %s", rep.wall,
	    hxd_result_name(rep.rc), rep.rc, rep.err);
	cr_assert_eq(rep.steps, steps);
	HX_NEAR(rep.time, (double)steps * TIMESTEP, 1e-6);
	fprintf(stderr,
	    "batch (%s): %llu steps in %.2f s (%.0f steps/s); %d reads "
	    "during it, latency mean %.1f ms, max %.1f ms\n",
	    strncmp(addr, "unix:", 5) == 0 ? "unix" : "tcp", steps, rep.wall,
	    (double)steps / rep.wall, reads, reads ? 1e3 * lat_sum / reads : 0,
	    1e3 * lat_max);

	cr_assert_geq(reads, 5,
	    "only %d reads were answered during a %.2f s "
	    "batch",
	    reads, rep.wall);
	cr_assert_geq(
	    writes, 8, "only %d writes were tried during the batch", writes);
	cr_assert_lt(lat_max, READ_LATENCY_MAX,
	    "a read took %.3f s during the batch", lat_max);
	cr_assert_geq(advances, 2,
	    "the time seen during the batch advanced only %d times: it "
	    "does not run in slices",
	    advances);

	/* Done: the others write again (a write that came just after the
	 * end may have set it running). */
	st = hx_status_ok(c);
	cr_assert_eq(st.batch_session, 0);
	HX_OK(c, hxd_pause(c));
	HX_OK(c, hxd_set_control(c, &ctl));
	HX_OK(c, hxd_reset(c, -1));
	t = time_now(c);
	HX_OK(c, hxd_step(c, 1, NULL));
	HX_NEAR(time_now(c), t + TIMESTEP, 1e-12);
	cr_assert(hx_server_log_has(srv, "batch of"),
	    "the log does not mention the finished batch");
	hxd_close(c);
}

/*
 * A client that leaves in the middle of its batch stops it: the time
 * stands still, the others may write again, and the log says so.
 */
HX_TRANSPORT_TEST(batch, leaving_client_stops_its_batch, "-m", "fixture.xml",
    "--paused", NULL)
{
	Haptix__V1__Batch w = HAPTIX__V1__BATCH__INIT;
	hxd_conn *c = hx_connect_ok(addr, "test");
	hxd_batch b = { .steps = 10 };
	hxd_status st;
	double t1, t2;
	int fd;

	w.steps = 50000000;
	fd = raw_batch_client(addr, "leaver", &w, 2);

	st = batch_wait(c, 1, 10);
	cr_assert_neq(st.batch_session, 0, "the batch did not start");
	cr_assert_eq(st.batch_session, client_id(c, "leaver", NULL));
	hx_sleep_ms(100);
	close(fd);

	st = batch_wait(c, 0, 5);
	cr_assert_eq(
	    st.batch_session, 0, "the batch of a client that left still runs");
	t1 = time_now(c);
	hx_sleep_ms(200);
	t2 = time_now(c);
	cr_assert_eq(t1, t2, "the time still moves: %.6f, then %.6f", t1, t2);
	cr_assert(t1 > 0 && t1 < 50000000 * TIMESTEP,
	    "the batch stopped at time %g", t1);

	HX_OK(c, hxd_step(c, 1, NULL));
	HX_NEAR(time_now(c), t1 + TIMESTEP, 1e-9);
	hxd_batch_result_free(batch_ok(c, &b));
	cr_assert(hx_server_log_has(srv, "batch stopped after"),
	    "the log does not mention the stopped batch");
	hxd_close(c);
}

/* The same for a library client killed in the middle of hxd_batch_run. */
Test(batch, killed_client_stops_its_batch, .timeout = 60)
{
	static const char *const args[] = { "-m", "fixture.xml", "--paused",
		NULL };
	struct hx_server srv;
	const char *addr;
	hxd_conn *c;
	hxd_status st;
	double t1, t2;
	int fds[2], status;
	pid_t pid;

	hx_server_start(&srv, args);
	addr = hx_server_addr(&srv, 0);
	c = hx_connect_ok(addr, "test");
	cr_assert_eq(pipe(fds), 0);
	pid = fork();
	cr_assert_neq(pid, -1, "fork: %s", strerror(errno));
	if (pid == 0) {
		close(fds[0]);
		batch_child(addr, 50000000, fds[1]);
	}
	close(fds[1]);
	st = batch_wait(c, 1, 10);
	cr_assert_neq(st.batch_session, 0, "the batch did not start");
	hx_sleep_ms(100);
	kill(pid, SIGKILL);
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	close(fds[0]);

	st = batch_wait(c, 0, 5);
	cr_assert_eq(
	    st.batch_session, 0, "the batch of a killed client still runs");
	t1 = time_now(c);
	hx_sleep_ms(200);
	t2 = time_now(c);
	cr_assert_eq(t1, t2, "the time still moves: %.6f, then %.6f", t1, t2);
	control_set(c, ctrl_a);
	HX_OK(c, hxd_step(c, 1, NULL));
	HX_OK(c, hxd_run(c));
	HX_OK(c, hxd_pause(c));
	cr_assert(hx_server_log_has(&srv, "batch stopped after"));
	hxd_close(c);
	hx_server_stop(&srv);
}

/*
 * What the batch's client sends while its batch steps waits for the
 * batch's answer, and is answered in order afterwards.
 */
HX_TRANSPORT_TEST(batch, pipelined_requests_wait_for_the_batch, "-m",
    "fixture.xml", "--paused", NULL)
{
	Haptix__V1__Batch w = HAPTIX__V1__BATCH__INIT;
	Haptix__V1__Response *first, *second;
	hxd_conn *c = hx_connect_ok(addr, "test");
	int fd;

	hx_skip_if_valgrind();
	w.steps = 50000;
	fd = raw_batch_client(addr, "pipeliner", &w, 2);
	second = raw_call_empty(fd, HAPTIX__V1__REQUEST__CALL_GET_STATE, 3);
	cr_assert_not_null(second, "no answer within 5 s");
	first = second;
	if (first->id == 2)
		second = raw_recv(fd, 5000);
	cr_assert_eq(first->id, 2, "request %llu was answered before the batch",
	    (unsigned long long)first->id);
	cr_assert_eq(
	    first->result, HAPTIX__V1__RESULT__RESULT_OK, "%s", first->error);
	cr_assert_eq(first->payload_case, HAPTIX__V1__RESPONSE__PAYLOAD_BATCH);
	cr_assert_eq(first->batch->steps, 50000);
	cr_assert_not_null(second, "no answer to the pipelined get_state");
	cr_assert_eq(second->id, 3);
	cr_assert_eq(second->payload_case, HAPTIX__V1__RESPONSE__PAYLOAD_STATE);
	cr_assert(second->state->time == first->batch->time,
	    "get_state after the batch saw time %.17g, the batch ended at "
	    "%.17g",
	    second->state->time, first->batch->time);
	haptix__v1__response__free_unpacked(first, NULL);
	haptix__v1__response__free_unpacked(second, NULL);
	close(fd);
	cr_assert_eq(hx_status_ok(c).batch_session, 0);
	hxd_close(c);
}

/* A daemon told to stop while a batch steps exits cleanly. */
Test(batch, shutdown_during_a_batch, .timeout = 60)
{
	static const char *const args[] = { "-m", "fixture.xml", "--paused",
		NULL };
	Haptix__V1__Batch w = HAPTIX__V1__BATCH__INIT;
	struct hx_server srv;
	hxd_conn *c;
	int fd;

	hx_server_start(&srv, args);
	c = hx_connect_ok(hx_server_addr(&srv, 1), "test");
	w.steps = 50000000;
	fd = raw_batch_client(hx_server_addr(&srv, 0), "stopped", &w, 2);
	cr_assert_neq(
	    batch_wait(c, 1, 10).batch_session, 0, "the batch did not start");
	hx_sleep_ms(50);
	hx_server_stop(&srv);
	cr_assert(raw_closed(fd, 5000), "the batch's client was not closed");
	close(fd);
	hxd_close(c);
}

/*
 * MuJoCo's error in the middle of a batch (overflow.xml's stack runs out
 * when the box lands) ends it with SIMERROR and the step it failed at,
 * whether it came in the first slice or a later one; others may write
 * again afterwards.
 */
HX_TRANSPORT_TEST(
    batch, mujoco_error_ends_the_batch, "-m", "overflow.xml", "--paused", NULL)
{
	hxd_conn *c = hx_connect_ok(addr, "test"),
		 *other = hx_connect_ok(addr, "test");
	double high[7] = { 0, 0, 5000, 1, 0, 0, 0 };
	hxd_batch b = { .steps = 2000 };
	hxd_batch_result *r = (hxd_batch_result *)1;
	hxd_state *s0 = NULL;
	hxd_status st;

	/* Soon after the start: answered from the first slice. */
	HX_FAILS_WITH(
	    c, hxd_batch_run(c, &b, &r), HXD_SIMERROR, "Stack overflow");
	cr_assert_null(r);
	cr_assert(strncmp(hxd_error(c), "step ", 5) == 0,
	    "the error does not say at which step: %s", hxd_error(c));
	st = hx_status_ok(other);
	cr_assert_eq(st.sim_errors, 1);
	cr_assert_eq(st.batch_session, 0);
	cr_assert_lt(st.time, 0.01, "the data was not reset");
	HX_OK(other, hxd_step(other, 1, NULL));

	/* From 5 km up the fall takes 32 s, far more than one slice. */
	HX_OK(c, hxd_reset(c, -1));
	HX_OK(c, hxd_get_state(c, &s0));
	cr_assert_eq(s0->nq, 7);
	memcpy(s0->qpos, high, sizeof(high));
	HX_OK(c, hxd_set_state(c, s0));
	free(s0);
	b.steps = 100000;
	r = (hxd_batch_result *)1;
	HX_FAILS_WITH(
	    c, hxd_batch_run(c, &b, &r), HXD_SIMERROR, "Stack overflow");
	cr_assert_null(r);
	st = hx_status_ok(other);
	cr_assert_eq(st.sim_errors, 2);
	cr_assert_eq(
	    st.batch_session, 0, "a failed batch still holds the simulation");
	cr_assert(hx_server_log_has(srv, "batch run from time"),
	    "the second batch did not outlast its first slice");
	cr_assert(hx_server_log_has(srv, "failed"),
	    "the log does not mention the failed batch");
	HX_OK(other, hxd_step(other, 1, NULL));
	HX_OK(c, hxd_step(c, 1, NULL));
	hxd_close(other);
	hxd_close(c);
}

/*
 * A batch until a time on a model that MuJoCo keeps resetting to time 0
 * (unstable.xml) must still end and answer; it may not step forever.
 */
HX_TRANSPORT_TEST(batch, until_time_ends_despite_resets, "-m", "unstable.xml",
    "--paused", NULL)
{
	Haptix__V1__Batch w = HAPTIX__V1__BATCH__INIT;
	Haptix__V1__Response *resp;
	hxd_conn *c = hx_connect_ok(addr, "test");
	hxd_status st;
	int fd;

	w.until_time = 0.5;
	fd = raw_batch_client(addr, "unstable", &w, 2);
	resp = raw_recv(fd, 5000);
	st = hx_status_ok(c);
	cr_assert_not_null(resp,
	    "no answer in 5 s to a batch until time 0.5 on unstable.xml "
	    "(50 steps of 0.01 s): %llu steps and %llu instability resets "
	    "so far, time %g, batch_session %llu",
	    st.steps, st.instability_resets, st.time, st.batch_session);
	cr_assert(resp->result == HAPTIX__V1__RESULT__RESULT_OK ||
		resp->result == HAPTIX__V1__RESULT__RESULT_SIMERROR,
	    "result %d: %s", resp->result, resp->error);
	haptix__v1__response__free_unpacked(resp, NULL);
	close(fd);
	cr_assert_eq(hx_status_ok(c).batch_session, 0);
	HX_OK(c, hxd_step(c, 1, NULL));
	hxd_close(c);
}

/*------------------------------------------------------- keyframes */

/* The fixture's keyframes as the file has them. */
static const double raised_qpos[NQ] = { 0.5, -0.5, 0.6, 0, 0.1, 1, 0, 0, 0 };
static const double raised_ctrl[NU] = { 0.5, -0.5 };
static const double dropped_qpos[NQ] = { 0, 0, 0.6, 0, 1.0, 1, 0, 0, 0 };

/* Take n steps. */
static void
steps_take(hxd_conn *c, unsigned n)
{
	unsigned taken = 0;

	HX_OK(c, hxd_step(c, n, &taken));
	cr_assert_eq(taken, n);
}

/* Assert that the state is keyframe qpos at time t with ctrl and no velocity. */
static void
key_is(hxd_conn *c, const double *qpos, double t, const double *ctrl,
    const char *why)
{
	static const double zero[NV];
	struct snap now;

	snap_take(c, &now);
	cr_assert_eq(now.time, t, "%s: time %g", why, now.time);
	SAME(now.qpos, qpos, NQ, "%s: qpos is not the file's", why);
	SAME(now.qvel, zero, NV, "%s: qvel is not 0", why);
	SAME(now.ctrl, ctrl, NU, "%s: ctrl is not the file's", why);
}

/*
 * Capturing into a model keyframe by name, by index, and under a name
 * the model does not have; resetting to each restores time, qpos, qvel,
 * ctrl and mocap exactly; a reload forgets the captures.
 */
HX_TRANSPORT_TEST(
    batch, capture_and_reset_by_name, "-m", "fixture.xml", "--paused", NULL)
{
	static const double zero[NU];
	hxd_conn *c = hx_connect_ok(addr, "test");
	struct snap s1, s2, s3, now;
	char longname[80];
	hxd_info *in = NULL;

	/* A model keyframe, overwritten by name. */
	HX_OK(c, hxd_reset_name(c, "dropped"));
	key_is(c, dropped_qpos, 1.0, zero, "reset to \"dropped\"");
	control_set(c, ctrl_a);
	mocap_set(c, 0.1, 0.9, 1.2);
	steps_take(c, 25);
	snap_take(c, &s1);
	HX_OK(c, hxd_capture_key(c, "raised", 0));
	control_set(c, ctrl_b);
	mocap_set(c, -1, -1, -1);
	steps_take(c, 10);
	HX_OK(c, hxd_reset_name(c, "raised"));
	snap_take(c, &now);
	snap_same(&now, &s1, 0, "reset to the overwritten \"raised\"");
	steps_take(c, 3);
	HX_OK(c, hxd_reset(c, KEY_RAISED));
	snap_take(c, &now);
	snap_same(&now, &s1, 0, "reset to the overwritten keyframe 0");

	/* A name of our own: the model's keyframes stay as they were. */
	steps_take(c, 7);
	control_set(c, ctrl_b);
	mocap_set(c, 0.3, 0.2, 0.1);
	snap_take(c, &s2);
	HX_OK(c, hxd_capture_key(c, "mine", KEY_DROPPED));
	HX_OK(c, hxd_info_get(c, &in));
	cr_assert_eq(in->model.nkey, 2, "a captured name became a keyframe");
	cr_assert_str_eq(in->key_name[0], "raised");
	cr_assert_str_eq(in->key_name[1], "dropped");
	free(in);
	control_set(c, ctrl_a);
	steps_take(c, 12);
	HX_OK(c, hxd_reset_name(c, "mine"));
	snap_take(c, &now);
	snap_same(&now, &s2, 0, "reset to \"mine\"");
	HX_OK(c, hxd_reset_name(c, "raised"));
	snap_take(c, &now);
	snap_same(&now, &s1, 0, "\"raised\" after capturing \"mine\"");
	HX_OK(c, hxd_reset_name(c, "dropped"));
	key_is(
	    c, dropped_qpos, 1.0, zero, "\"dropped\" after capturing \"mine\"");

	/* Capturing a name again replaces it. */
	HX_OK(c, hxd_reset_name(c, "mine"));
	steps_take(c, 4);
	snap_take(c, &s3);
	HX_OK(c, hxd_capture_key(c, "mine", 0));
	steps_take(c, 4);
	HX_OK(c, hxd_reset_name(c, "mine"));
	snap_take(c, &now);
	snap_same(&now, &s3, 0, "reset to \"mine\" captured again");

	/* By index: HAPTIX's Sim=>Key, NULL or "" as the name. */
	HX_OK(c, hxd_capture_key(c, NULL, KEY_DROPPED));
	steps_take(c, 5);
	HX_OK(c, hxd_reset(c, KEY_DROPPED));
	snap_take(c, &now);
	snap_same(&now, &s3, 0, "reset to keyframe 1 captured by index");
	steps_take(c, 5);
	HX_OK(c, hxd_reset_name(c, "dropped"));
	snap_take(c, &now);
	snap_same(&now, &s3, 0, "\"dropped\" captured by index");
	steps_take(c, 2);
	snap_take(c, &s2);
	HX_OK(c, hxd_capture_key(c, "", KEY_DROPPED));
	HX_OK(c, hxd_reset(c, -1));
	HX_OK(c, hxd_reset_name(c, "dropped"));
	snap_take(c, &now);
	snap_same(&now, &s2, 0, "keyframe 1 captured with \"\"");

	/* Errors. */
	snap_take(c, &s3);
	HX_FAILS_WITH(c, hxd_capture_key(c, NULL, 2), HXD_BADINDEX, "keyframe");
	HX_FAILS_WITH(c, hxd_capture_key(c, "", -1), HXD_BADINDEX, "keyframe");
	HX_FAILS_WITH(c, hxd_reset_name(c, "nosuch"), HXD_BADINDEX, "nosuch");
	HX_FAILS_WITH(c, hxd_reset_name(c, "Mine"), HXD_BADINDEX, "Mine");
	memset(longname, 'k', 70);
	longname[70] = '\0';
	HX_FAILS_WITH(
	    c, hxd_capture_key(c, longname, 0), HXD_BADVALUE, "longer");
	HX_FAILS_WITH(c, hxd_reset_name(c, longname), HXD_BADINDEX, "kkkk");
	snap_take(c, &now);
	snap_same(&now, &s3, 1, "after refused captures and resets");

	/* A reload forgets the captures and restores the file's keyframes. */
	HX_OK(c, hxd_reload(c, NULL));
	HX_FAILS_WITH(c, hxd_reset_name(c, "mine"), HXD_BADINDEX, "mine");
	HX_OK(c, hxd_reset_name(c, "raised"));
	key_is(c, raised_qpos, 0, raised_ctrl, "\"raised\" after a reload");
	HX_OK(c, hxd_reset_name(c, "dropped"));
	key_is(c, dropped_qpos, 1.0, zero, "\"dropped\" after a reload");
	hxd_close(c);
}

/* The daemon keeps at most 256 captured names, and says so. */
HX_TRANSPORT_TEST(
    batch, captured_names_are_bounded, "-m", "fixture.xml", "--paused", NULL)
{
	hxd_conn *c = hx_connect_ok(addr, "test");
	char name[32];
	int i;

	for (i = 0; i < 256; i++) {
		snprintf(name, sizeof(name), "k%d", i);
		HX_OK(c, hxd_capture_key(c, name, 0));
	}
	HX_FAILS_WITH(c, hxd_capture_key(c, "k256", 0), HXD_BADVALUE, "reload");
	/* Reusing a name, and model keyframes, still work. */
	HX_OK(c, hxd_capture_key(c, "k17", 0));
	HX_OK(c, hxd_capture_key(c, "raised", 0));
	HX_OK(c, hxd_reset_name(c, "k255"));
	HX_OK(c, hxd_reload(c, NULL));
	HX_OK(c, hxd_capture_key(c, "k256", 0));
	HX_FAILS_WITH(c, hxd_reset_name(c, "k0"), HXD_BADINDEX, "k0");
	hxd_close(c);
}

/*------------------------------------------------------ joints */

/* A ball, a slide and a free joint, to be sent inline. */
static const char joints_xml
    [] = "<mujoco model=\"joints\">"
	 " <worldbody>"
	 "  <body name=\"arm\" pos=\"0 0 1\">"
	 "   <joint name=\"ball\" type=\"ball\"/>"
	 "   <geom type=\"capsule\" fromto=\"0 0 0 0 0 -0.3\" size=\"0.03\"/>"
	 "   <body name=\"slider\" pos=\"0 0 -0.3\">"
	 "    <joint name=\"slide\" type=\"slide\" axis=\"1 0 0\"/>"
	 "    <geom type=\"sphere\" size=\"0.05\"/>"
	 "   </body>"
	 "  </body>"
	 "  <body name=\"free\" pos=\"1 0 1\">"
	 "   <freejoint name=\"free\"/>"
	 "   <geom type=\"box\" size=\"0.1 0.1 0.1\"/>"
	 "  </body>"
	 " </worldbody>"
	 "</mujoco>";

/* Assert that the state is want, bit for bit. */
static void
state_is(hxd_conn *c, const double *qpos, int nq, const double *qvel, int nv,
    const char *why)
{
	hxd_state *s = NULL;
	int i;

	HX_OK(c, hxd_get_state(c, &s));
	cr_assert_eq(s->nq, nq);
	cr_assert_eq(s->nv, nv);
	for (i = 0; i < nq; i++)
		cr_assert(memcmp(&s->qpos[i], &qpos[i], sizeof(double)) == 0,
		    "%s: qpos[%d] = %.17g, expected %.17g", why, i, s->qpos[i],
		    qpos[i]);
	for (i = 0; i < nv; i++)
		cr_assert(memcmp(&s->qvel[i], &qvel[i], sizeof(double)) == 0,
		    "%s: qvel[%d] = %.17g, expected %.17g", why, i, s->qvel[i],
		    qvel[i]);
	free(s);
}

/* Read qpos and qvel into the caller's arrays. */
static void
state_read(hxd_conn *c, double *qpos, int nq, double *qvel, int nv)
{
	hxd_state *s = NULL;

	HX_OK(c, hxd_get_state(c, &s));
	cr_assert_eq(s->nq, nq);
	cr_assert_eq(s->nv, nv);
	memcpy(qpos, s->qpos, (size_t)nq * sizeof(double));
	memcpy(qvel, s->qvel, (size_t)nv * sizeof(double));
	free(s);
}

/*
 * One joint by name: hinge and free joints of the fixture, ball and
 * slide joints of an inline model; other joints stay; quaternions are
 * normalised; wrong sizes, names and values are refused.
 */
HX_TRANSPORT_TEST(
    batch, set_joint_by_name, "-m", "fixture.xml", "--paused", NULL)
{
	hxd_conn *c = hx_connect_ok(addr, "test");
	double q[NQ], v[NV], two[2] = { 0.1, 0.2 };
	double box_q[7] = { 1, 2, 3, 2, 0, 0, 0 };
	double box_v[6] = { 0.1, 0.2, 0.3, -0.4, -0.5, -0.6 };
	double zero4[4] = { 0, 0, 0, 0 }, nan1[1] = { NAN };
	double inf6[6] = { 0, 0, 0, 0, 0, INFINITY };
	double p1[1] = { 0.3 }, v1[1] = { -0.7 };
	double p4[4] = { 0, 0, 0, 2 }, v3[3] = { 1, -2, 3 };
	double bq[7], jq[12], jv[10];
	hxd_sensor *y = NULL;
	hxd_model m;

	HX_OK(c, hxd_reset(c, KEY_RAISED));
	state_read(c, q, NQ, v, NV);

	/* A hinge: position and velocity, then position alone. */
	HX_OK(c, hxd_set_joint(c, "hinge1", p1, 1, v1, 1));
	q[0] = 0.3;
	v[0] = -0.7;
	state_is(c, q, NQ, v, NV, "hinge1 set");
	/* The derived quantities follow without a step. */
	HX_OK(c, hxd_get_sensor(c, &y));
	HX_NEAR(y->sensordata[0], 0.3, 0);
	HX_NEAR(y->sensordata[2], -0.7, 0);
	free(y);
	p1[0] = -0.25;
	HX_OK(c, hxd_set_joint(c, "hinge2", p1, 1, NULL, 0));
	q[1] = -0.25;
	state_is(c, q, NQ, v, NV, "hinge2's position alone");
	v1[0] = 2.5;
	HX_OK(c, hxd_set_joint(c, "hinge2", NULL, 0, v1, 1));
	v[1] = 2.5;
	state_is(c, q, NQ, v, NV, "hinge2's velocity alone");
	HX_OK(c, hxd_set_joint(c, "hinge2", NULL, 0, NULL, 0));
	state_is(c, q, NQ, v, NV, "hinge2 left alone");

	/* The free box: position, a quaternion to normalise, velocity. */
	HX_OK(c, hxd_set_joint(c, "box", box_q, 7, box_v, 6));
	memcpy(bq, box_q, sizeof(bq));
	bq[3] = 1;
	memcpy(q + BOX_QPOS, bq, sizeof(bq));
	memcpy(v + BOX_QVEL, box_v, sizeof(box_v));
	state_is(c, q, NQ, v, NV, "box set");
	box_q[3] = box_q[4] = box_q[5] = box_q[6] = 3;
	HX_OK(c, hxd_set_joint(c, "box", box_q, 7, NULL, 0));
	state_read(c, q, NQ, v, NV);
	HX_NEAR(q[BOX_QPOS + 3], 0.5, 1e-15);
	HX_NEAR(q[BOX_QPOS + 4], 0.5, 1e-15);
	HX_NEAR(q[BOX_QPOS + 6], 0.5, 1e-15);
	SAME(v + BOX_QVEL, box_v, 6, "box velocity changed with its position");

	/* Refusals change nothing. */
	HX_FAILS_WITH(c, hxd_set_joint(c, "hinge1", two, 2, NULL, 0),
	    HXD_BADSIZE, "hinge");
	HX_FAILS_WITH(c, hxd_set_joint(c, "hinge1", NULL, 0, two, 2),
	    HXD_BADSIZE, "hinge");
	HX_FAILS_WITH(
	    c, hxd_set_joint(c, "box", box_q, 4, NULL, 0), HXD_BADSIZE, "free");
	HX_FAILS_WITH(
	    c, hxd_set_joint(c, "box", box_q, 6, NULL, 0), HXD_BADSIZE, "free");
	HX_FAILS_WITH(
	    c, hxd_set_joint(c, "box", NULL, 0, box_v, 3), HXD_BADSIZE, "free");
	HX_FAILS_WITH(
	    c, hxd_set_joint(c, "box", NULL, 0, box_q, 7), HXD_BADSIZE, "free");
	HX_FAILS_WITH(c, hxd_set_joint(c, "nosuch", p1, 1, NULL, 0),
	    HXD_BADINDEX, "nosuch");
	HX_FAILS_WITH(c, hxd_set_joint(c, "link1", p1, 1, NULL, 0),
	    HXD_BADINDEX, "link1");
	memcpy(bq, zero4, sizeof(zero4));
	bq[4] = bq[5] = bq[6] = 0;
	bq[0] = 9;
	HX_FAILS_WITH(c, hxd_set_joint(c, "box", bq, 7, NULL, 0), HXD_BADVALUE,
	    "quaternion");
	HX_FAILS_WITH(c, hxd_set_joint(c, "hinge1", nan1, 1, NULL, 0),
	    HXD_BADVALUE, "finite");
	HX_FAILS_WITH(c, hxd_set_joint(c, "hinge1", NULL, 0, nan1, 1),
	    HXD_BADVALUE, "finite");
	HX_FAILS_WITH(c, hxd_set_joint(c, "box", NULL, 0, inf6, 6),
	    HXD_BADVALUE, "finite");
	state_is(c, q, NQ, v, NV, "after refused joints");

	/* Ball and slide joints of a model sent inline. */
	HX_OK(c,
	    hxd_load_data(c, HXD_FORMAT_MJCF, joints_xml, strlen(joints_xml),
		"joints.xml", &m));
	cr_assert_eq(m.nq, 4 + 1 + 7);
	cr_assert_eq(m.nv, 3 + 1 + 6);
	state_read(c, jq, 12, jv, 10);
	HX_OK(c, hxd_set_joint(c, "ball", p4, 4, v3, 3));
	jq[0] = jq[1] = jq[2] = 0;
	jq[3] = 1;
	memcpy(jv, v3, sizeof(v3));
	state_is(c, jq, 12, jv, 10, "ball set");
	p1[0] = 0.05;
	v1[0] = -0.5;
	HX_OK(c, hxd_set_joint(c, "slide", p1, 1, v1, 1));
	jq[4] = 0.05;
	jv[3] = -0.5;
	state_is(c, jq, 12, jv, 10, "slide set");
	HX_FAILS_WITH(
	    c, hxd_set_joint(c, "ball", p4, 3, NULL, 0), HXD_BADSIZE, "ball");
	HX_FAILS_WITH(
	    c, hxd_set_joint(c, "ball", jq, 7, NULL, 0), HXD_BADSIZE, "ball");
	HX_FAILS_WITH(
	    c, hxd_set_joint(c, "ball", NULL, 0, v3, 1), HXD_BADSIZE, "ball");
	HX_FAILS_WITH(
	    c, hxd_set_joint(c, "slide", p4, 4, NULL, 0), HXD_BADSIZE, "slide");
	HX_FAILS_WITH(c, hxd_set_joint(c, "ball", zero4, 4, NULL, 0),
	    HXD_BADVALUE, "quaternion");
	HX_FAILS_WITH(c, hxd_set_joint(c, "hinge1", p1, 1, NULL, 0),
	    HXD_BADINDEX, "hinge1");
	state_is(c, jq, 12, jv, 10, "after refused ball and slide");
	hxd_close(c);
}

/*
 * One joint read by name, for every joint type: what it is (type, body,
 * addresses, axis, range) and its state as set_joint left it; by id;
 * refusals for names and ids that are no joint's.
 */
HX_TRANSPORT_TEST(
    batch, get_joint_by_name, "-m", "fixture.xml", "--paused", NULL)
{
	hxd_conn *c = hx_connect_ok(addr, "test");
	double p1[1] = { 0.3 }, v1[1] = { -0.7 };
	double p4[4] = { 0, 1, 0, 0 }, v3[3] = { 1, -2, 3 };
	double p7[7] = { 1, 2, 3, 0, 0, 1, 0 }, v6[6] = { 1, 2, 3, 4, 5, 6 };
	hxd_joint j;
	hxd_model m;
	int i;

	/* A limited hinge of the fixture, set first. */
	HX_OK(c, hxd_set_joint(c, "hinge1", p1, 1, v1, 1));
	HX_OK(c, hxd_get_joint(c, "hinge1", -1, &j));
	cr_expect_str_eq(j.name, "hinge1");
	cr_expect_str_eq(j.body, "link1");
	cr_expect_eq(j.type, HXD_JOINT_HINGE);
	cr_expect_eq(j.id, 0);
	cr_expect_eq(j.body_id, 1);
	cr_expect_eq(j.qpos_adr, 0);
	cr_expect_eq(j.dof_adr, 0);
	cr_expect(j.axis[0] == 0 && j.axis[1] == 1 && j.axis[2] == 0);
	cr_expect(j.limited && j.range[0] == -1.5 && j.range[1] == 1.5);
	cr_expect(j.nq == 1 && j.nv == 1);
	cr_expect(j.qpos[0] == 0.3 && j.qvel[0] == -0.7, "%g %g", j.qpos[0],
	    j.qvel[0]);
	/* The same by id; the free box by name. */
	HX_OK(c, hxd_get_joint(c, NULL, 0, &j));
	cr_expect_str_eq(j.name, "hinge1");
	HX_OK(c, hxd_get_joint(c, "box", -1, &j));
	cr_expect_eq(j.type, HXD_JOINT_FREE);
	cr_expect(j.nq == 7 && j.nv == 6 && j.qpos_adr == 2 && j.dof_adr == 2);
	cr_expect(!j.limited);
	HX_FAILS_WITH(
	    c, hxd_get_joint(c, "nosuch", -1, &j), HXD_BADINDEX, "nosuch");
	HX_FAILS_WITH(c, hxd_get_joint(c, "", 99, &j), HXD_BADINDEX, "99");
	HX_FAILS_WITH(c, hxd_get_joint(c, NULL, -1, &j), HXD_BADINDEX, "-1");

	/* Ball, slide and free joints of the inline model. */
	HX_OK(c,
	    hxd_load_data(c, HXD_FORMAT_MJCF, joints_xml, strlen(joints_xml),
		"joints.xml", &m));
	HX_OK(c, hxd_set_joint(c, "ball", p4, 4, v3, 3));
	HX_OK(c, hxd_set_joint(c, "slide", p1, 1, v1, 1));
	HX_OK(c, hxd_set_joint(c, "free", p7, 7, v6, 6));
	HX_OK(c, hxd_get_joint(c, "ball", -1, &j));
	cr_expect(j.type == HXD_JOINT_BALL && j.nq == 4 && j.nv == 3);
	cr_expect_str_eq(j.body, "arm");
	for (i = 0; i < 4; i++)
		cr_expect_eq(
		    j.qpos[i], p4[i], "ball qpos[%d] %g", i, j.qpos[i]);
	for (i = 0; i < 3; i++)
		cr_expect_eq(j.qvel[i], v3[i]);
	HX_OK(c, hxd_get_joint(c, "slide", -1, &j));
	cr_expect(j.type == HXD_JOINT_SLIDE && j.nq == 1 && j.nv == 1);
	cr_expect(j.axis[0] == 1 && j.axis[1] == 0 && j.axis[2] == 0);
	cr_expect(j.qpos_adr == 4 && j.dof_adr == 3);
	cr_expect(j.qpos[0] == 0.3 && j.qvel[0] == -0.7);
	HX_OK(c, hxd_get_joint(c, "free", -1, &j));
	cr_expect(
	    j.type == HXD_JOINT_FREE && j.qpos_adr == 5 && j.dof_adr == 4);
	for (i = 0; i < 7; i++)
		cr_expect_eq(
		    j.qpos[i], p7[i], "free qpos[%d] %g", i, j.qpos[i]);
	for (i = 0; i < 6; i++)
		cr_expect_eq(j.qvel[i], v6[i]);
	hxd_close(c);
}

/*---------------------------------------------------------- pacing */

/* Poll status for about seconds, returning the last; track latency. */
static hxd_status
status_after(hxd_conn *c, double seconds, double *lat_max)
{
	double end = hx_wall_now() + seconds, t;
	hxd_status st;

	do {
		t = hx_wall_now();
		st = hx_status_ok(c);
		t = hx_wall_now() - t;
		if (lat_max != NULL && t > *lat_max)
			*lat_max = t;
		hx_sleep_ms(50);
	} while (hx_wall_now() < end);
	return st;
}

/* The speed factor, max, and factors that are not speeds. */
HX_TRANSPORT_TEST(
    batch, set_speed_factors, "-m", "fixture.xml", "--paused", NULL)
{
	static const double bad[] = { 0, -1, -1e-3, 1e-9, 1e9, 2e6 };
	hxd_conn *c = hx_connect_ok(addr, "test");
	hxd_status st;
	size_t i;

	st = hx_status_ok(c);
	HX_NEAR(st.speed, 1, 0);
	cr_assert_eq(st.speed_max, 0);
	HX_OK(c, hxd_set_speed(c, 2.5, 0));
	st = hx_status_ok(c);
	HX_NEAR(st.speed, 2.5, 0);
	cr_assert_eq(st.speed_max, 0);
	HX_OK(c, hxd_set_speed(c, 1, 1));
	st = hx_status_ok(c);
	cr_assert_eq(st.speed_max, 1);
	HX_OK(c, hxd_set_speed(c, 1e6, 0));
	st = hx_status_ok(c);
	HX_NEAR(st.speed, 1e6, 0);
	cr_assert_eq(st.speed_max, 0, "a factor ends max");
	HX_OK(c, hxd_set_speed(c, 0.25, 0));

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		HX_FAILS_WITH(c, hxd_set_speed(c, bad[i], 0), HXD_BADVALUE,
		    "speed factor");
	HX_FAILS_WITH(
	    c, hxd_set_speed(c, NAN, 0), HXD_BADVALUE, "speed factor");
	HX_FAILS_WITH(
	    c, hxd_set_speed(c, INFINITY, 0), HXD_BADVALUE, "speed factor");
	HX_FAILS_WITH(
	    c, hxd_set_speed(c, -INFINITY, 0), HXD_BADVALUE, "speed factor");
	st = hx_status_ok(c);
	HX_NEAR(st.speed, 0.25, 0);
	cr_assert_eq(st.speed_max, 0);
	cr_assert_eq(st.lagging, 0, "paused, nothing lags");
	HX_NEAR(st.realtime_factor, 0, 0);
	hxd_close(c);
}

/*
 * At speed 1 the fixture runs in real time and does not lag; asked for
 * 1e5 it lags, far below the speed asked, and status is still answered
 * promptly; back at speed 1 it keeps time again without catching up.
 */
Test(batch, pacing_lags_only_when_overloaded, .timeout = 60)
{
	static const char *const args[] = { "-m", "fixture.xml", NULL };
	struct hx_server srv;
	double lat = 0, t0, t1, w0, w1;
	hxd_status st;
	hxd_conn *c;

	hx_skip_if_valgrind();
	hx_server_start(&srv, args);
	c = hx_connect_ok(hx_server_addr(&srv, 0), "test");

	st = status_after(c, 1.6, NULL);
	cr_assert_eq(st.paused, 0);
	fprintf(stderr, "pacing: speed 1: rtf %.3f, lagging %d\n",
	    st.realtime_factor, st.lagging);
	cr_assert(st.realtime_factor > 0.5 && st.realtime_factor < 1.5,
	    "speed 1 gives a real-time factor of %g", st.realtime_factor);
	cr_assert_eq(
	    st.lagging, 0, "lagging at speed 1 (rtf %g)", st.realtime_factor);

	HX_OK(c, hxd_set_speed(c, 1e5, 0));
	st = status_after(c, 1.6, &lat);
	fprintf(stderr,
	    "pacing: speed 1e5: rtf %.1f, lagging %d, overruns %llu, "
	    "status latency max %.1f ms\n",
	    st.realtime_factor, st.lagging, st.overruns, 1e3 * lat);
	cr_assert_eq(st.lagging, 1, "not lagging at speed 1e5 (rtf %g)",
	    st.realtime_factor);
	cr_assert(st.realtime_factor > 1 && st.realtime_factor < 0.5e5,
	    "speed 1e5 gives a real-time factor of %g", st.realtime_factor);
	cr_assert_gt(st.overruns, 0);
	cr_assert_lt(
	    lat, READ_LATENCY_MAX, "status took %.3f s while overloaded", lat);

	/* Back to real time: no debt to pay off. */
	HX_OK(c, hxd_set_speed(c, 1, 0));
	t0 = time_now(c);
	w0 = hx_wall_now();
	st = status_after(c, 1.6, NULL);
	t1 = time_now(c);
	w1 = hx_wall_now();
	fprintf(stderr, "pacing: back to speed 1: rtf %.3f, lagging %d\n",
	    st.realtime_factor, st.lagging);
	cr_assert(t1 - t0 < 1.5 * (w1 - w0) + 0.2,
	    "%.3f s simulated in %.3f s after going back to speed 1", t1 - t0,
	    w1 - w0);
	cr_assert(st.realtime_factor > 0.5 && st.realtime_factor < 1.5,
	    "back at speed 1: real-time factor %g", st.realtime_factor);
	cr_assert_eq(st.lagging, 0, "still lagging at speed 1");

	HX_OK(c, hxd_pause(c));
	st = hx_status_ok(c);
	cr_assert_eq(st.lagging, 0, "lagging while paused");
	HX_NEAR(st.realtime_factor, 0, 0);
	hxd_close(c);
	hx_server_stop(&srv);
}

/*
 * A daemon stopped for a second does not run the second's steps when it
 * continues: catching up is bounded, and counted as an overrun.
 */
Test(batch, pacing_catch_up_is_bounded, .timeout = 60)
{
	static const char *const args[] = { "-m", "fixture.xml", NULL };
	struct hx_server srv;
	unsigned long long overruns;
	double t0, t1;
	hxd_conn *c;

	hx_server_start(&srv, args);
	c = hx_connect_ok(hx_server_addr(&srv, 0), "test");
	status_after(c, 0.3, NULL);
	overruns = hx_status_ok(c).overruns;
	t0 = time_now(c);
	cr_assert_eq(kill(srv.pid, SIGSTOP), 0);
	hx_sleep_ms(1000);
	cr_assert_eq(kill(srv.pid, SIGCONT), 0);
	t1 = time_now(c);
	cr_assert(t1 - t0 < 0.5,
	    "stopped for 1 s, the simulation ran %.3f s at once", t1 - t0);
	cr_assert_gt(hx_status_ok(c).overruns, overruns);
	hxd_close(c);
	hx_server_stop(&srv);
}
