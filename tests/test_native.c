/*
 * Integration tests of every native call through the extension API
 * (haptixd.h), each against a real haptixd over the Unix socket and TCP.
 * The numbers come from models/test/fixture.xml: keep them in step.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "check.h"
#include "harness.h"
#include "haptixd.h"
#include "rawclient.h"

TestSuite(native, .timeout = 60, .fini = hx_server_cleanup);

/* Sizes of fixture.xml. */
#define NQ 9
#define NV 8
#define NU 2
#define NBODY 5
#define NJNT 3
#define NGEOM 7
#define NSITE 2
#define NSENSOR 7
#define NSENSORDATA 11
#define TIMESTEP 0.002
#define GRAVITY 9.81

/* hinge1's range in fixture.xml (radians). */
#define HINGE1_LIMIT 1.5

/* Ids in fixture.xml. */
enum { BODY_WORLD, BODY_LINK1, BODY_LINK2, BODY_BOX, BODY_MARKER };
enum {
	GEOM_FLOOR,
	GEOM_TERRAIN,
	GEOM_TETRA,
	GEOM_LINK1,
	GEOM_LINK2,
	GEOM_BOX,
	GEOM_MARKER
};
enum { SITE_SITE1, SITE_TIP };

/* Where the box's free joint lives in qpos and qvel. */
#define BOX_QPOS 2
#define BOX_QVEL 2

/* HAPTIX's sensor numbers (haptix.h's mjtSensor). */
enum {
	SENS_ACCELEROMETER = 1,
	SENS_JOINTPOS = 8,
	SENS_JOINTVEL = 9,
	SENS_TENDONPOS = 10,
	SENS_ACTUATORFRC = 14,
	SENS_FRAMEPOS = 17,
};

/* The reference configuration: hinges at 0, the box on the floor. */
static const double qpos0[NQ] = { 0, 0, 0.6, 0, 0.1, 1, 0, 0, 0 };

/* Get the state, checking its sizes; caller frees. */
static hxd_state *
state_get(hxd_conn *c)
{
	hxd_state *s = NULL;

	HX_OK(c, hxd_get_state(c, &s));
	cr_assert_not_null(s);
	cr_assert_eq(s->nq, NQ);
	cr_assert_eq(s->nv, NV);
	cr_assert_eq(s->na, 0);
	return s;
}

/* Set qpos and qvel (the fixture has no activations). */
static void
state_set(hxd_conn *c, const double *qpos, const double *qvel)
{
	double p[NQ], v[NV];
	hxd_state s = { .nq = NQ, .nv = NV, .na = 0, .qpos = p, .qvel = v };

	memcpy(p, qpos, sizeof(p));
	memcpy(v, qvel, sizeof(v));
	HX_OK(c, hxd_set_state(c, &s));
}

/* Assert that two states are bit for bit the same, time included. */
static void
state_same(const hxd_state *a, const hxd_state *b, const char *why)
{
	cr_assert(memcmp(&a->time, &b->time, sizeof(a->time)) == 0,
	    "%s: time %.17g != %.17g", why, a->time, b->time);
	cr_assert(memcmp(a->qpos, b->qpos, NQ * sizeof(double)) == 0,
	    "%s: qpos changed", why);
	cr_assert(memcmp(a->qvel, b->qvel, NV * sizeof(double)) == 0,
	    "%s: qvel changed", why);
}

/* The daemon still answers c correctly. */
static void
still_serving(hxd_conn *c)
{
	hxd_state *s = state_get(c);
	int id = -2;

	cr_assert(isfinite(s->time));
	free(s);
	HX_OK(c, hxd_name2id(c, HXD_OBJ_BODY, "box", &id));
	cr_assert_eq(id, BODY_BOX);
}

/* Return the sensor data; caller frees. */
static hxd_sensor *
sensor_get(hxd_conn *c)
{
	hxd_sensor *s = NULL;

	HX_OK(c, hxd_get_sensor(c, &s));
	cr_assert_not_null(s);
	cr_assert_eq(s->nsensordata, NSENSORDATA);
	return s;
}

/* Return the body poses; caller frees. */
static hxd_poses *
body_get(hxd_conn *c)
{
	hxd_poses *p = NULL;

	HX_OK(c, hxd_get_body(c, &p));
	cr_assert_not_null(p);
	cr_assert_eq(p->count, NBODY);
	return p;
}

/* The state's time. */
static double
time_now(hxd_conn *c)
{
	hxd_state *s = state_get(c);
	double t = s->time;

	free(s);
	return t;
}

/* Put the box at height z, level and at rest, other quantities alone. */
static void
box_place(hxd_conn *c, double z)
{
	hxd_onebody b;

	memset(&b, 0, sizeof(b));
	b.body_id = BODY_BOX;
	b.pos[0] = 0.6;
	b.pos[2] = z;
	b.quat[0] = 1;
	HX_OK(c,
	    hxd_set_onebody(c, &b,
		HXD_ONEBODY_POS | HXD_ONEBODY_QUAT | HXD_ONEBODY_LINVEL |
		    HXD_ONEBODY_ANGVEL));
}

/*-------------------------------------------------------------- info */

/* The fixture's sensors in in, by HAPTIX's numbers. */
static void
expect_info_sensors(const hxd_info *in)
{
	static const char *const sensors[] = { "q1", "q2", "v1", "f1",
		"tip_pos", "sum_len", "acc" };
	static const int stype[] = { SENS_JOINTPOS, SENS_JOINTPOS,
		SENS_JOINTVEL, SENS_ACTUATORFRC, SENS_FRAMEPOS, SENS_TENDONPOS,
		SENS_ACCELEROMETER };
	static const int sdim[] = { 1, 1, 1, 1, 3, 1, 3 };
	static const int sadr[] = { 0, 1, 2, 3, 4, 7, 8 };
	static const int sobjtype[] = { HXD_OBJ_JOINT, HXD_OBJ_JOINT,
		HXD_OBJ_JOINT, HXD_OBJ_ACTUATOR, HXD_OBJ_SITE, HXD_OBJ_TENDON,
		HXD_OBJ_SITE };
	static const int sobjid[] = { 0, 1, 0, 0, SITE_TIP, 0, SITE_TIP };
	int i;

	for (i = 0; i < NSENSOR; i++) {
		cr_assert_str_eq(in->sensor_name[i], sensors[i]);
		cr_assert_eq(in->sensor_type[i], stype[i],
		    "sensor %d (%s) has type %d, expected %d (HAPTIX numbers)",
		    i, sensors[i], in->sensor_type[i], stype[i]);
		cr_assert_eq(in->sensor_dim[i], sdim[i], "sensor %d dim", i);
		cr_assert_eq(in->sensor_adr[i], sadr[i], "sensor %d adr", i);
		cr_assert_eq(in->sensor_objtype[i], sobjtype[i],
		    "sensor %d objtype %d", i, in->sensor_objtype[i]);
		cr_assert_eq(
		    in->sensor_objid[i], sobjid[i], "sensor %d objid", i);
		cr_assert_eq(in->sensor_datatype[i], 0, "sensor %d is real", i);
		cr_assert_eq(in->sensor_noise[i], 0.0);
	}
}

/* The fixture's joints in in: names, types, bodies, addresses, ranges. */
static void
expect_info_joints(const hxd_info *in)
{
	cr_assert_str_eq(in->jnt_name[0], "hinge1");
	cr_assert_str_eq(in->jnt_name[1], "hinge2");
	cr_assert_str_eq(in->jnt_name[2], "box");
	cr_assert_eq(in->jnt_type[0], 3, "hinge");
	cr_assert_eq(in->jnt_type[1], 3, "hinge");
	cr_assert_eq(in->jnt_type[2], 0, "free");
	cr_assert_eq(in->jnt_bodyid[0], BODY_LINK1);
	cr_assert_eq(in->jnt_bodyid[1], BODY_LINK2);
	cr_assert_eq(in->jnt_bodyid[2], BODY_BOX);
	cr_assert_eq(in->jnt_qposadr[2], BOX_QPOS);
	cr_assert_eq(in->jnt_dofadr[1], 1);
	cr_assert_eq(in->jnt_dofadr[2], BOX_QVEL);
	cr_assert_eq(in->jnt_limited[0], 1, "hinge1 has a range");
	cr_assert_eq(in->jnt_limited[1], 0, "hinge2 has no range");
	cr_assert_eq(in->jnt_limited[2], 0, "a free joint has no range");
	/* MJCF angles are in degrees unless the compiler says otherwise. */
	HX_NEAR(in->jnt_range[0], -HINGE1_LIMIT, 1e-15);
	HX_NEAR(in->jnt_range[1], HINGE1_LIMIT, 1e-15);
}

/* The fixture's geoms, bodies, sites and tendon in in. */
static void
expect_info_geoms_and_bodies(const hxd_info *in)
{
	static const char *const bodies[] = { "world", "link1", "link2", "box",
		"marker" };
	static const char *const geoms[] = { "floor", "terrain", "tetra",
		"link1", "link2", "box", "marker" };
	static const int gtype[] = { 0, 1, 7, 3, 3, 6, 2 };
	static const int gbody[] = { 0, 0, 0, 1, 2, 3, 4 };
	int i;

	for (i = 0; i < NGEOM; i++) {
		cr_assert_str_eq(in->geom_name[i], geoms[i]);
		cr_assert_eq(in->geom_type[i], gtype[i], "geom %s type %d",
		    geoms[i], in->geom_type[i]);
		cr_assert_eq(
		    in->geom_bodyid[i], gbody[i], "geom %s body", geoms[i]);
	}
	for (i = 0; i < NBODY; i++)
		cr_assert_str_eq(in->body_name[i], bodies[i]);
	cr_assert_eq(in->body_parentid[BODY_LINK2], BODY_LINK1);
	cr_assert_eq(in->body_parentid[BODY_BOX], BODY_WORLD);
	cr_assert_eq(in->body_mocapid[BODY_MARKER], 0);
	cr_assert_eq(in->body_mocapid[BODY_BOX], -1);
	cr_assert_str_eq(in->site_name[SITE_SITE1], "site1");
	cr_assert_str_eq(in->site_name[SITE_TIP], "tip");
	cr_assert_str_eq(in->tendon_name[0], "sum");
}

/* The fixture's equality, actuators, keyframes and materials in in. */
static void
expect_info_equality_actuators_and_names(const hxd_info *in)
{
	cr_assert_eq(in->eq_type[0], 2, "a joint equality");
	cr_assert_eq(in->eq_obj1id[0], 1, "joint1 is hinge2");
	cr_assert_eq(in->eq_obj2id[0], 0, "joint2 is hinge1");
	cr_assert_str_eq(in->eq_name[0], "couple");

	cr_assert_str_eq(in->actuator_name[0], "servo1");
	cr_assert_str_eq(in->actuator_name[1], "servo2");
	cr_assert_eq(in->actuator_trntype[0], 0, "joint transmission");
	cr_assert_eq(in->actuator_trnid[0], 0, "servo1 drives hinge1");
	cr_assert_eq(in->actuator_trnid[2], 1, "servo2 drives hinge2");
	cr_assert_eq(in->actuator_ctrllimited[0], 1);
	cr_assert_eq(in->actuator_ctrllimited[1], 1);
	HX_NEAR(in->actuator_ctrlrange[0], -1, 0);
	HX_NEAR(in->actuator_ctrlrange[1], 1, 0);
	HX_NEAR(in->actuator_ctrlrange[2], -2, 0);
	HX_NEAR(in->actuator_ctrlrange[3], 2, 0);

	cr_assert_str_eq(in->key_name[0], "raised");
	cr_assert_str_eq(in->key_name[1], "dropped");
	cr_assert_str_eq(in->mat_name[0], "red");
	cr_assert_str_eq(in->mat_name[1], "green");
}

HX_TRANSPORT_TEST(
    native, info_describes_the_fixture, "-m", "fixture.xml", "--paused", NULL)
{
	hxd_conn *c = hx_connect_ok(addr, "test");
	const hxd_model *w = hxd_welcome_model(c);
	hxd_info *in = NULL;
	const hxd_model *m;

	HX_OK(c, hxd_info_get(c, &in));
	cr_assert_not_null(in);
	m = &in->model;
	cr_assert_str_eq(m->name, "fixture");
	cr_assert_eq(m->nq, NQ);
	cr_assert_eq(m->nv, NV);
	cr_assert_eq(m->na, 0);
	cr_assert_eq(m->nu, NU);
	cr_assert_eq(m->nbody, NBODY);
	cr_assert_eq(m->njnt, NJNT);
	cr_assert_eq(m->ngeom, NGEOM);
	cr_assert_eq(m->nsite, NSITE);
	cr_assert_eq(m->ntendon, 1);
	cr_assert_eq(m->neq, 1);
	cr_assert_eq(m->nkey, 2);
	cr_assert_eq(m->nmocap, 1);
	cr_assert_eq(m->nsensor, NSENSOR);
	cr_assert_eq(m->nsensordata, NSENSORDATA);
	cr_assert_eq(m->nmat, 2);
	HX_NEAR(m->timestep, TIMESTEP, 1e-15);
	HX_NEAR(m->apirate, 50, 1e-12);

	/* The welcome at connect time announced the same model. */
	cr_assert_str_eq(w->name, "fixture");
	cr_assert_eq(w->nq, NQ);
	cr_assert_eq(w->nbody, NBODY);
	cr_assert_eq(w->nsensordata, NSENSORDATA);

	expect_info_sensors(in);
	expect_info_joints(in);
	expect_info_geoms_and_bodies(in);
	expect_info_equality_actuators_and_names(in);
	free(in);
	hxd_close(c);
}

/*------------------------------------------------------------- state */

HX_TRANSPORT_TEST(
    native, state_round_trips_bit_exact, "-m", "fixture.xml", "--paused", NULL)
{
	/* A unit quaternion and values that do not survive float rounding. */
	const double qpos[NQ] = { 0.123456789012345678, -0.987654321098765, 0.3,
		-0.25, 0.7, 0.5, 0.5, 0.5, 0.5 };
	const double qvel[NV] = { 1e-300, -3.3333333333333335, 0.1, 0.2, -0.3,
		0.4, 0.5, -0.6 };
	hxd_conn *c = hx_connect_ok(addr, "test");
	hxd_state *s = state_get(c);
	double t0;
	int i;

	cr_assert_eq(s->time, 0.0, "a paused daemon starts at time 0");
	for (i = 0; i < NQ; i++)
		HX_NEAR(s->qpos[i], qpos0[i], 0);
	for (i = 0; i < NV; i++)
		HX_NEAR(s->qvel[i], 0, 0);
	t0 = s->time;
	free(s);

	state_set(c, qpos, qvel);
	s = state_get(c);
	cr_assert(memcmp(s->qpos, qpos, sizeof(qpos)) == 0,
	    "qpos did not round-trip bit for bit");
	cr_assert(memcmp(s->qvel, qvel, sizeof(qvel)) == 0,
	    "qvel did not round-trip bit for bit");
	cr_assert_eq(s->time, t0, "set_state ignores the time");
	free(s);
	hxd_close(c);
}

HX_TRANSPORT_TEST(native, state_rejects_bad_sizes_and_values, "-m",
    "fixture.xml", "--paused", NULL)
{
	const double qpos[NQ] = { 0.2, -0.1, 0.6, 0, 0.1, 1, 0, 0, 0 };
	const double qvel[NV] = { 0 };
	double p[NQ + 1], v[NV + 1], act[1] = { 0 };
	hxd_state bad = { .qpos = p, .qvel = v };
	hxd_conn *c = hx_connect_ok(addr, "test");
	hxd_state *before, *after;

	state_set(c, qpos, qvel);
	before = state_get(c);
	memcpy(p, qpos, sizeof(qpos));
	p[NQ] = 0;
	memset(v, 0, sizeof(v));

	bad.nq = NQ - 1, bad.nv = NV, bad.na = 0;
	HX_FAILS(c, hxd_set_state(c, &bad), HXD_BADSIZE);
	bad.nq = NQ + 1;
	HX_FAILS(c, hxd_set_state(c, &bad), HXD_BADSIZE);
	bad.nq = NQ, bad.nv = NV - 1;
	HX_FAILS(c, hxd_set_state(c, &bad), HXD_BADSIZE);
	bad.nv = NV + 1;
	HX_FAILS(c, hxd_set_state(c, &bad), HXD_BADSIZE);
	bad.nv = NV, bad.na = 1, bad.act = act;
	HX_FAILS(c, hxd_set_state(c, &bad), HXD_BADSIZE);
	bad.na = -1;
	HX_FAILS(c, hxd_set_state(c, &bad), HXD_BADSIZE);
	bad.na = 0, bad.act = NULL;
	after = state_get(c);
	state_same(before, after, "after size errors");
	free(after);

	p[1] = NAN;
	HX_FAILS(c, hxd_set_state(c, &bad), HXD_BADVALUE);
	p[1] = INFINITY;
	HX_FAILS(c, hxd_set_state(c, &bad), HXD_BADVALUE);
	p[1] = qpos[1];
	v[NV - 1] = -INFINITY;
	HX_FAILS(c, hxd_set_state(c, &bad), HXD_BADVALUE);
	v[NV - 1] = NAN;
	HX_FAILS(c, hxd_set_state(c, &bad), HXD_BADVALUE);
	after = state_get(c);
	state_same(before, after, "after NaN and Inf");
	free(after);
	free(before);

	still_serving(c);
	hxd_close(c);
}

/*----------------------------------------------------------- control */

HX_TRANSPORT_TEST(native, control_round_trips_and_checks, "-m", "fixture.xml",
    "--paused", NULL)
{
	double ctrl[NU + 1] = { 0.25, -1.5, 0 };
	hxd_control in = { .nu = NU, .ctrl = ctrl }, *out = NULL;
	hxd_conn *c = hx_connect_ok(addr, "test");

	HX_OK(c, hxd_get_control(c, &out));
	cr_assert_eq(out->nu, NU);
	cr_assert_eq(out->ctrl[0], 0.0);
	cr_assert_eq(out->ctrl[1], 0.0);
	free(out);

	HX_OK(c, hxd_set_control(c, &in));
	HX_OK(c, hxd_get_control(c, &out));
	cr_assert_eq(out->nu, NU);
	cr_assert_eq(out->ctrl[0], 0.25);
	cr_assert_eq(out->ctrl[1], -1.5);
	free(out);

	in.nu = 1;
	HX_FAILS(c, hxd_set_control(c, &in), HXD_BADSIZE);
	in.nu = 3;
	HX_FAILS(c, hxd_set_control(c, &in), HXD_BADSIZE);
	in.nu = 0, in.ctrl = NULL;
	HX_FAILS(c, hxd_set_control(c, &in), HXD_BADSIZE);
	in.nu = NU, in.ctrl = ctrl;
	ctrl[1] = NAN;
	HX_FAILS(c, hxd_set_control(c, &in), HXD_BADVALUE);
	ctrl[1] = INFINITY;
	HX_FAILS(c, hxd_set_control(c, &in), HXD_BADVALUE);

	HX_OK(c, hxd_get_control(c, &out));
	cr_assert_eq(out->ctrl[0], 0.25, "a refused control changed nothing");
	cr_assert_eq(out->ctrl[1], -1.5, "a refused control changed nothing");
	free(out);
	still_serving(c);
	hxd_close(c);
}

/*----------------------------------------------------------- applied */

HX_TRANSPORT_TEST(native, applied_round_trips_and_pushes_bodies, "-m",
    "fixture.xml", "--paused", NULL)
{
	double qfrc[NV + 1], xfrc[6 * (NBODY + 1)];
	hxd_applied in = { .nv = NV,
		.nbody = NBODY,
		.qfrc_applied = qfrc,
		.xfrc_applied = xfrc },
		    *out = NULL;
	hxd_conn *c = hx_connect_ok(addr, "test");
	hxd_dynamics *dyn = NULL;
	hxd_force *f = NULL;
	int i;

	HX_OK(c, hxd_get_applied(c, &out));
	cr_assert_eq(out->nv, NV);
	cr_assert_eq(out->nbody, NBODY);
	for (i = 0; i < 6 * NBODY; i++)
		cr_assert_eq(out->xfrc_applied[i], 0.0);
	free(out);

	/* Let the box settle on the floor first: its z acceleration is ~0. */
	HX_OK(c, hxd_step(c, 200, NULL));
	HX_OK(c, hxd_get_dynamics(c, &dyn));
	cr_assert(fabs(dyn->qacc[BOX_QVEL + 2]) < 1, "box at rest: qacc z %g",
	    dyn->qacc[BOX_QVEL + 2]);
	free(dyn);

	for (i = 0; i < NV + 1; i++)
		qfrc[i] = 0.0;
	for (i = 0; i < 6 * (NBODY + 1); i++)
		xfrc[i] = 0.0;
	qfrc[0] = 0.125;
	qfrc[1] = -0.0625;
	/* 30 N upwards on the 1 kg box lifts it off at ~20 m/s^2. */
	xfrc[6 * BODY_BOX + 2] = 30;
	xfrc[6 * BODY_LINK2 + 4] = 0.75;
	HX_OK(c, hxd_set_applied(c, &in));
	HX_OK(c, hxd_get_applied(c, &out));
	cr_assert(memcmp(out->qfrc_applied, qfrc, NV * sizeof(double)) == 0,
	    "qfrc_applied round trip");
	cr_assert(
	    memcmp(out->xfrc_applied, xfrc, 6 * NBODY * sizeof(double)) == 0,
	    "xfrc_applied round trip");
	free(out);

	HX_OK(c, hxd_step(c, 1, NULL));
	HX_OK(c, hxd_get_dynamics(c, &dyn));
	HX_NEAR(dyn->qacc[BOX_QVEL + 2], 30 / 1.0 - GRAVITY, 0.5);
	free(dyn);
	/* The generalized applied force includes the mapped body force. */
	HX_OK(c, hxd_get_force(c, &f));
	HX_NEAR(f->applied[BOX_QVEL + 2], 30, 1e-9);
	/* link2's torque about y turns both hinges. */
	HX_NEAR(f->applied[0], 0.125 + 0.75, 1e-9);
	HX_NEAR(f->applied[1], -0.0625 + 0.75, 1e-9);
	free(f);

	in.nv = NV - 1;
	HX_FAILS(c, hxd_set_applied(c, &in), HXD_BADSIZE);
	in.nv = NV, in.nbody = NBODY + 1;
	HX_FAILS(c, hxd_set_applied(c, &in), HXD_BADSIZE);
	in.nbody = NBODY;
	xfrc[3] = NAN;
	HX_FAILS(c, hxd_set_applied(c, &in), HXD_BADVALUE);
	xfrc[3] = 0;
	qfrc[2] = INFINITY;
	HX_FAILS(c, hxd_set_applied(c, &in), HXD_BADVALUE);
	HX_OK(c, hxd_get_applied(c, &out));
	cr_assert_eq(out->qfrc_applied[2], 0.0, "refused input was applied");
	cr_assert_eq(out->xfrc_applied[6 * BODY_BOX + 2], 30.0);
	free(out);
	still_serving(c);
	hxd_close(c);
}

/*---------------------------------------------------------- one body */

HX_TRANSPORT_TEST(native, onebody_moves_the_floating_box, "-m", "fixture.xml",
    "--paused", NULL)
{
	/* normalise(1, 0.2, 0.3, 0) */
	const double n = 1.0630145812734649;
	const double quat[4] = { 1 / n, 0.2 / n, 0.3 / n, 0 };
	hxd_conn *c = hx_connect_ok(addr, "test");
	hxd_onebody b, g;
	hxd_applied *ap = NULL;
	hxd_state *s;
	int i;

	HX_OK(c, hxd_get_onebody(c, BODY_BOX, &g));
	cr_assert_eq(g.body_id, BODY_BOX);
	cr_assert_eq(g.is_floating, 1);
	s = state_get(c);
	for (i = 0; i < 3; i++)
		HX_NEAR(g.pos[i], s->qpos[BOX_QPOS + i], 1e-12);
	for (i = 0; i < 4; i++)
		HX_NEAR(g.quat[i], s->qpos[BOX_QPOS + 3 + i], 1e-12);
	free(s);

	memset(&b, 0, sizeof(b));
	b.body_id = BODY_BOX;
	b.pos[0] = 0.3, b.pos[1] = -0.2, b.pos[2] = 0.7;
	/* Sent unnormalised: the daemon normalises. */
	b.quat[0] = 2, b.quat[1] = 0.4, b.quat[2] = 0.6, b.quat[3] = 0;
	b.linvel[0] = 0.1, b.linvel[1] = 0.2, b.linvel[2] = -0.3;
	b.angvel[0] = 0.4, b.angvel[1] = -0.5, b.angvel[2] = 0.6;
	HX_OK(c,
	    hxd_set_onebody(c, &b,
		HXD_ONEBODY_POS | HXD_ONEBODY_QUAT | HXD_ONEBODY_LINVEL |
		    HXD_ONEBODY_ANGVEL));
	HX_OK(c, hxd_get_onebody(c, BODY_BOX, &g));
	for (i = 0; i < 3; i++) {
		HX_NEAR(g.pos[i], b.pos[i], 1e-12);
		HX_NEAR(g.linvel[i], b.linvel[i], 1e-9);
		/* Set in the world frame, read in the world frame. */
		HX_NEAR(g.angvel[i], b.angvel[i], 1e-9);
	}
	for (i = 0; i < 4; i++)
		HX_NEAR(g.quat[i], quat[i], 1e-12);
	s = state_get(c);
	for (i = 0; i < 3; i++)
		HX_NEAR(s->qpos[BOX_QPOS + i], b.pos[i], 0);
	for (i = 0; i < 4; i++)
		HX_NEAR(s->qpos[BOX_QPOS + 3 + i], quat[i], 1e-12);
	for (i = 0; i < 3; i++)
		HX_NEAR(s->qvel[BOX_QVEL + i], b.linvel[i], 1e-12);
	free(s);

	/* Force and torque, alone: the pose stays. */
	memset(&b, 0, sizeof(b));
	b.body_id = BODY_BOX;
	b.force[0] = 1, b.force[1] = 2, b.force[2] = 3;
	b.torque[0] = -1, b.torque[2] = 0.5;
	HX_OK(
	    c, hxd_set_onebody(c, &b, HXD_ONEBODY_FORCE | HXD_ONEBODY_TORQUE));
	HX_OK(c, hxd_get_onebody(c, BODY_BOX, &g));
	for (i = 0; i < 3; i++) {
		cr_assert_eq(g.force[i], b.force[i]);
		cr_assert_eq(g.torque[i], b.torque[i]);
	}
	HX_NEAR(g.pos[2], 0.7, 1e-12);
	HX_OK(c, hxd_get_applied(c, &ap));
	for (i = 0; i < 3; i++) {
		cr_assert_eq(ap->xfrc_applied[6 * BODY_BOX + i], b.force[i]);
		cr_assert_eq(
		    ap->xfrc_applied[6 * BODY_BOX + 3 + i], b.torque[i]);
	}
	free(ap);

	/* The box falls when stepped: the pose set is the pose simulated. */
	HX_OK(c, hxd_step(c, 10, NULL));
	HX_OK(c, hxd_get_onebody(c, BODY_BOX, &g));
	cr_assert_lt(g.pos[2], 0.7);
	hxd_close(c);
}

HX_TRANSPORT_TEST(native, onebody_on_a_jointed_body_sets_force_only, "-m",
    "fixture.xml", "--paused", NULL)
{
	hxd_conn *c = hx_connect_ok(addr, "test");
	hxd_state *before, *after;
	hxd_applied *ap = NULL;
	hxd_force *f = NULL;
	hxd_onebody b, g;
	int i;

	HX_OK(c, hxd_get_onebody(c, BODY_LINK1, &g));
	cr_assert_eq(g.is_floating, 0);
	HX_NEAR(g.pos[0], 0, 1e-12);
	HX_NEAR(g.pos[1], 0, 1e-12);
	HX_NEAR(g.pos[2], 1, 1e-12);
	before = state_get(c);

	memset(&b, 0, sizeof(b));
	b.body_id = BODY_LINK1;
	b.pos[0] = 5, b.pos[1] = 5, b.pos[2] = 5;
	b.quat[0] = 0, b.quat[1] = 1;
	b.linvel[0] = 3;
	b.angvel[1] = 4;
	b.force[2] = 7;
	b.torque[1] = 5; /* about hinge1's axis */
	HX_OK(c, hxd_set_onebody(c, &b, HXD_ONEBODY_ALL));
	HX_OK(c, hxd_get_onebody(c, BODY_LINK1, &g));
	HX_NEAR(g.pos[0], 0, 1e-12);
	HX_NEAR(g.pos[2], 1, 1e-12);
	HX_NEAR(g.quat[0], 1, 1e-12);
	HX_NEAR(g.linvel[0], 0, 1e-12);
	HX_NEAR(g.angvel[1], 0, 1e-12);
	cr_assert_eq(g.force[2], 7.0);
	cr_assert_eq(g.torque[1], 5.0);
	after = state_get(c);
	state_same(before, after, "pose fields of a jointed body");
	free(before);
	free(after);

	HX_OK(c, hxd_get_applied(c, &ap));
	cr_assert_eq(ap->xfrc_applied[6 * BODY_LINK1 + 2], 7.0);
	cr_assert_eq(ap->xfrc_applied[6 * BODY_LINK1 + 4], 5.0);
	for (i = 0; i < 6; i++)
		cr_assert_eq(ap->xfrc_applied[6 * BODY_BOX + i], 0.0);
	free(ap);
	/* set_onebody recomputes: the torque already acts on hinge1. */
	HX_OK(c, hxd_get_force(c, &f));
	HX_NEAR(f->applied[0], 5, 1e-9);
	free(f);
	hxd_close(c);
}

HX_TRANSPORT_TEST(native, onebody_rejects_bad_ids_and_values, "-m",
    "fixture.xml", "--paused", NULL)
{
	hxd_conn *c = hx_connect_ok(addr, "test");
	hxd_state *before, *after;
	hxd_onebody b, g;

	HX_FAILS(c, hxd_get_onebody(c, -1, &g), HXD_BADINDEX);
	HX_FAILS(c, hxd_get_onebody(c, NBODY, &g), HXD_BADINDEX);
	before = state_get(c);
	memset(&b, 0, sizeof(b));
	b.quat[0] = 1;
	b.body_id = -1;
	HX_FAILS(c, hxd_set_onebody(c, &b, HXD_ONEBODY_ALL), HXD_BADINDEX);
	b.body_id = NBODY;
	HX_FAILS(c, hxd_set_onebody(c, &b, HXD_ONEBODY_FORCE), HXD_BADINDEX);

	b.body_id = BODY_BOX;
	b.pos[0] = 0.1, b.pos[2] = 2;
	b.quat[0] = 0;
	HX_FAILS(c, hxd_set_onebody(c, &b, HXD_ONEBODY_POS | HXD_ONEBODY_QUAT),
	    HXD_BADVALUE);
	b.quat[0] = 1;
	b.pos[1] = NAN;
	HX_FAILS(c, hxd_set_onebody(c, &b, HXD_ONEBODY_POS), HXD_BADVALUE);
	b.pos[1] = 0;
	b.force[0] = INFINITY;
	HX_FAILS(c, hxd_set_onebody(c, &b, HXD_ONEBODY_FORCE), HXD_BADVALUE);
	after = state_get(c);
	state_same(before, after, "refused set_onebody");
	free(before);
	free(after);
	HX_OK(c, hxd_get_onebody(c, BODY_BOX, &g));
	cr_assert_eq(g.force[0], 0.0);
	still_serving(c);
	hxd_close(c);
}

/*------------------------------------------------------------- mocap */

HX_TRANSPORT_TEST(
    native, mocap_round_trips_normalised, "-m", "fixture.xml", "--paused", NULL)
{
	double pos[6] = { 0.5, -0.25, 1.5, 0, 0, 0 };
	double quat[8] = { 0, 0, 0, 2, 1, 0, 0, 0 };
	hxd_mocap in = { .nmocap = 1, .pos = pos, .quat = quat }, *out = NULL;
	hxd_conn *c = hx_connect_ok(addr, "test");
	hxd_poses *bp;

	HX_OK(c, hxd_get_mocap(c, &out));
	cr_assert_eq(out->nmocap, 1);
	HX_NEAR(out->pos[0], 0, 0);
	HX_NEAR(out->pos[1], 1, 0);
	HX_NEAR(out->pos[2], 1, 0);
	HX_NEAR(out->quat[0], 1, 0);
	free(out);

	HX_OK(c, hxd_set_mocap(c, &in));
	HX_OK(c, hxd_get_mocap(c, &out));
	cr_assert_eq(out->pos[0], 0.5);
	cr_assert_eq(out->pos[1], -0.25);
	cr_assert_eq(out->pos[2], 1.5);
	HX_NEAR(out->quat[0], 0, 1e-15);
	HX_NEAR(out->quat[1], 0, 1e-15);
	HX_NEAR(out->quat[2], 0, 1e-15);
	HX_NEAR(out->quat[3], 1, 1e-15);
	free(out);
	/* The mocap body is where the mocap data says, at once. */
	bp = body_get(c);
	HX_NEAR(bp->pos[3 * BODY_MARKER + 0], 0.5, 1e-12);
	HX_NEAR(bp->pos[3 * BODY_MARKER + 2], 1.5, 1e-12);
	free(bp);

	in.nmocap = 2;
	HX_FAILS(c, hxd_set_mocap(c, &in), HXD_BADSIZE);
	in.nmocap = 0;
	HX_FAILS(c, hxd_set_mocap(c, &in), HXD_BADSIZE);
	in.nmocap = 1;
	quat[3] = 0;
	HX_FAILS(c, hxd_set_mocap(c, &in), HXD_BADVALUE);
	quat[3] = NAN;
	HX_FAILS(c, hxd_set_mocap(c, &in), HXD_BADVALUE);
	quat[3] = 1;
	pos[0] = INFINITY;
	HX_FAILS(c, hxd_set_mocap(c, &in), HXD_BADVALUE);
	HX_OK(c, hxd_get_mocap(c, &out));
	cr_assert_eq(out->pos[0], 0.5, "refused mocap changed the pose");
	HX_NEAR(out->quat[3], 1, 1e-15);
	free(out);
	still_serving(c);
	hxd_close(c);
}

/*---------------------------------------------------------- get only */

HX_TRANSPORT_TEST(native, get_calls_have_the_model_sizes, "-m", "fixture.xml",
    "--paused", NULL)
{
	hxd_conn *c = hx_connect_ok(addr, "test");
	hxd_dynamics *dyn = NULL;
	hxd_sensor *sen;
	hxd_poses *p = NULL;
	hxd_tendon *ten = NULL;
	hxd_actuator *act = NULL;
	hxd_force *f = NULL;
	hxd_contacts *con = NULL;
	double t;

	HX_OK(c, hxd_step(c, 3, NULL));
	t = time_now(c);
	HX_NEAR(t, 3 * TIMESTEP, 1e-15);
	HX_OK(c, hxd_get_dynamics(c, &dyn));
	cr_assert_eq(dyn->nv, NV);
	cr_assert_eq(dyn->na, 0);
	cr_assert_eq(dyn->time, t);
	free(dyn);
	sen = sensor_get(c);
	cr_assert_eq(sen->time, t);
	free(sen);
	p = body_get(c);
	cr_assert_eq(p->time, t);
	free(p);
	HX_OK(c, hxd_get_geom(c, &p));
	cr_assert_eq(p->count, NGEOM);
	free(p);
	HX_OK(c, hxd_get_site(c, &p));
	cr_assert_eq(p->count, NSITE);
	free(p);
	HX_OK(c, hxd_get_tendon(c, &ten));
	cr_assert_eq(ten->ntendon, 1);
	cr_assert_eq(ten->time, t);
	free(ten);
	HX_OK(c, hxd_get_actuator(c, &act));
	cr_assert_eq(act->nu, NU);
	free(act);
	HX_OK(c, hxd_get_force(c, &f));
	cr_assert_eq(f->nv, NV);
	cr_assert_eq(f->time, t);
	free(f);
	HX_OK(c, hxd_get_contact(c, &con));
	cr_assert_geq(con->ncon, 0);
	cr_assert_eq(con->time, t);
	free(con);
	hxd_close(c);
}

HX_TRANSPORT_TEST(
    native, kinematics_follow_the_state, "-m", "fixture.xml", "--paused", NULL)
{
	/* sin and cos of the hinge angles a = 0.3 and a + b = -0.2. */
	const double a = 0.3, b = -0.5;
	const double sa = 0.29552020666133955, ca = 0.95533648912560598;
	const double sab = -0.19866933079506122, cab = 0.98006657784124163;
	double qpos[NQ], qvel[NV] = { 0.7, 0.2 };
	double p2[3], tip[3];
	hxd_conn *c = hx_connect_ok(addr, "test");
	hxd_tendon *ten = NULL;
	hxd_sensor *sen;
	hxd_poses *p;
	const double *m;
	int i;

	memcpy(qpos, qpos0, sizeof(qpos));
	qpos[0] = a;
	qpos[1] = b;
	/* set_state runs the forward pass: everything derived follows. */
	state_set(c, qpos, qvel);

	HX_OK(c, hxd_get_tendon(c, &ten));
	HX_NEAR(ten->length[0], a + b, 1e-12);
	HX_NEAR(ten->velocity[0], 0.7 + 0.2, 1e-12);

	sen = sensor_get(c);
	HX_NEAR(sen->sensordata[0], a, 1e-12);
	HX_NEAR(sen->sensordata[1], b, 1e-12);
	HX_NEAR(sen->sensordata[2], 0.7, 1e-12);
	HX_NEAR(sen->sensordata[7], ten->length[0], 1e-12);
	free(ten);

	p2[0] = -0.3 * sa, p2[1] = 0, p2[2] = 1 - 0.3 * ca;
	tip[0] = p2[0] - 0.3 * sab, tip[1] = 0, tip[2] = p2[2] - 0.3 * cab;
	p = body_get(c);
	for (i = 0; i < 3; i++) {
		HX_NEAR(p->pos[3 * BODY_WORLD + i], 0, 0);
		HX_NEAR(p->pos[3 * BODY_LINK1 + i], i == 2 ? 1 : 0, 1e-12);
		HX_NEAR(p->pos[3 * BODY_LINK2 + i], p2[i], 1e-12);
		HX_NEAR(p->pos[3 * BODY_BOX + i], qpos[BOX_QPOS + i], 1e-12);
		HX_NEAR(p->pos[3 * BODY_MARKER + i], i == 0 ? 0 : 1, 1e-12);
	}
	/* link1 turned by a about y: row-major [ca 0 sa; 0 1 0; -sa 0 ca]. */
	m = p->mat + 9 * BODY_LINK1;
	HX_NEAR(m[0], ca, 1e-12);
	HX_NEAR(m[2], sa, 1e-12);
	HX_NEAR(m[4], 1, 1e-12);
	HX_NEAR(m[6], -sa, 1e-12);
	HX_NEAR(m[8], ca, 1e-12);
	free(p);

	HX_OK(c, hxd_get_site(c, &p));
	for (i = 0; i < 3; i++) {
		HX_NEAR(p->pos[3 * SITE_SITE1 + i], p2[i], 1e-12);
		HX_NEAR(p->pos[3 * SITE_TIP + i], tip[i], 1e-12);
		/* The framepos sensor of the tip agrees. */
		HX_NEAR(sen->sensordata[4 + i], tip[i], 1e-12);
	}
	free(p);
	free(sen);

	HX_OK(c, hxd_get_geom(c, &p));
	for (i = 0; i < 3; i++) {
		HX_NEAR(p->pos[3 * GEOM_BOX + i], qpos[BOX_QPOS + i], 1e-12);
		HX_NEAR(p->pos[3 * GEOM_FLOOR + i], 0, 0);
	}
	/* The capsule's centre is half way down link1. */
	HX_NEAR(p->pos[3 * GEOM_LINK1 + 0], -0.15 * sa, 1e-12);
	HX_NEAR(p->pos[3 * GEOM_LINK1 + 2], 1 - 0.15 * ca, 1e-12);
	free(p);
	hxd_close(c);
}

HX_TRANSPORT_TEST(native, actuators_and_forces_are_consistent, "-m",
    "fixture.xml", "--paused", NULL)
{
	double qpos[NQ], qvel[NV] = { 0.5, -0.25 };
	double ctrl[NU] = { 0.2, -0.1 };
	hxd_control in = { .nu = NU, .ctrl = ctrl };
	hxd_conn *c = hx_connect_ok(addr, "test");
	hxd_actuator *act = NULL;
	hxd_dynamics *dyn = NULL;
	hxd_force *f = NULL;
	hxd_sensor *sen;
	int i;

	memcpy(qpos, qpos0, sizeof(qpos));
	qpos[0] = 0.1;
	qpos[1] = 0.3;
	HX_OK(c, hxd_set_control(c, &in));
	state_set(c, qpos, qvel);

	/* Position servos: force = kp (ctrl - q). */
	HX_OK(c, hxd_get_actuator(c, &act));
	HX_NEAR(act->length[0], 0.1, 1e-12);
	HX_NEAR(act->length[1], 0.3, 1e-12);
	HX_NEAR(act->velocity[0], 0.5, 1e-12);
	HX_NEAR(act->velocity[1], -0.25, 1e-12);
	HX_NEAR(act->force[0], 50 * (0.2 - 0.1), 1e-9);
	HX_NEAR(act->force[1], 20 * (-0.1 - 0.3), 1e-9);
	sen = sensor_get(c);
	HX_NEAR(sen->sensordata[3], act->force[0], 1e-12);
	free(sen);
	free(act);

	HX_OK(c, hxd_get_force(c, &f));
	HX_NEAR(f->actuator[0], 5, 1e-9);
	HX_NEAR(f->actuator[1], -8, 1e-9);
	/* Joint damping 0.1. */
	HX_NEAR(f->passive[0], -0.1 * 0.5, 1e-12);
	HX_NEAR(f->passive[1], -0.1 * -0.25, 1e-12);
	/* The 1 kg box's weight, in its z dof. */
	HX_NEAR(f->bias[BOX_QVEL + 2], GRAVITY, 1e-9);
	for (i = 0; i < NV; i++) {
		HX_NEAR(f->applied[i], 0, 1e-9);
		HX_NEAR(f->nonconstraint[i],
		    f->applied[i] + f->passive[i] + f->actuator[i] - f->bias[i],
		    1e-9);
	}
	free(f);

	HX_OK(c, hxd_get_dynamics(c, &dyn));
	cr_assert_eq(dyn->nv, NV);
	for (i = 0; i < NV; i++)
		cr_assert(isfinite(dyn->qacc[i]));
	free(dyn);
	hxd_close(c);
}

/*---------------------------------------------------------- contacts */

HX_TRANSPORT_TEST(
    native, contacts_of_a_dropped_box, "-m", "fixture.xml", "--paused", NULL)
{
	hxd_conn *c = hx_connect_ok(addr, "test");
	hxd_contacts *con = NULL;
	hxd_dynamics *dyn = NULL;
	hxd_force *f = NULL;
	hxd_onebody g;
	hxd_status st;
	double fz = 0;
	int i, nbox = 0, g1, g2;

	box_place(c, 0.5);
	HX_OK(c, hxd_get_contact(c, &con));
	for (i = 0; i < con->ncon; i++)
		cr_assert(
		    con->geom1[i] != GEOM_BOX && con->geom2[i] != GEOM_BOX,
		    "the raised box touches geom %d",
		    con->geom1[i] == GEOM_BOX ? con->geom2[i] : con->geom1[i]);
	free(con);

	HX_OK(c, hxd_step(c, 1000, NULL));
	HX_OK(c, hxd_get_onebody(c, BODY_BOX, &g));
	HX_NEAR(g.pos[2], 0.1, 0.01);
	HX_OK(c, hxd_get_contact(c, &con));
	cr_assert_gt(con->ncon, 0);
	for (i = 0; i < con->ncon; i++) {
		g1 = con->geom1[i];
		g2 = con->geom2[i];
		cr_assert(g1 >= 0 && g1 < NGEOM && g2 >= 0 && g2 < NGEOM,
		    "contact %d between geoms %d and %d", i, g1, g2);
		if (g1 != GEOM_BOX && g2 != GEOM_BOX)
			continue;
		nbox++;
		cr_assert(g1 == GEOM_FLOOR || g2 == GEOM_FLOOR,
		    "the box touches geom %d", g1 == GEOM_BOX ? g2 : g1);
		cr_assert_gt(
		    con->force[3 * i], 0, "normal force of contact %d", i);
		cr_assert(fabs(con->dist[i]) < 0.01, "dist %g", con->dist[i]);
		cr_assert(fabs(con->frame[9 * i + 2]) > 0.99,
		    "the normal is vertical");
		HX_NEAR(con->pos[3 * i + 2], 0, 0.01);
		fz += con->force[3 * i];
	}
	cr_assert_gt(nbox, 0, "no contact between the box and the floor");
	/* Together the contacts carry the box's weight. */
	HX_NEAR(fz, GRAVITY, 0.1 * GRAVITY);
	HX_NEAR(g.contactforce[2], GRAVITY, 0.1 * GRAVITY);
	HX_OK(c, hxd_status_get(c, &st));
	cr_assert_eq(st.ncon, con->ncon);
	free(con);
	/* At rest: the constraint force in the box's z dof is its weight. */
	HX_OK(c, hxd_get_force(c, &f));
	HX_NEAR(f->constraint[BOX_QVEL + 2], GRAVITY, 0.1 * GRAVITY);
	free(f);
	HX_OK(c, hxd_get_dynamics(c, &dyn));
	HX_NEAR(dyn->qacc[BOX_QVEL + 2], 0, 0.5);
	free(dyn);
	hxd_close(c);
}

/*--------------------------------------------------------- geom size */

HX_TRANSPORT_TEST(
    native, geomsize_grows_the_box, "-m", "fixture.xml", "--paused", NULL)
{
	const double big[3] = { 0.2, 0.2, 0.2 };
	hxd_conn *c = hx_connect_ok(addr, "test");
	hxd_onebody g;

	/* Unchanged, the box falls back to its half-size 0.1. */
	box_place(c, 0.25);
	HX_OK(c, hxd_step(c, 300, NULL));
	HX_OK(c, hxd_get_onebody(c, BODY_BOX, &g));
	HX_NEAR(g.pos[2], 0.1, 0.01);

	HX_OK(c, hxd_set_geomsize(c, GEOM_BOX, big));
	box_place(c, 0.25);
	HX_OK(c, hxd_step(c, 300, NULL));
	HX_OK(c, hxd_get_onebody(c, BODY_BOX, &g));
	HX_NEAR(g.pos[2], 0.2, 0.01);
	HX_NEAR(g.contactforce[2], GRAVITY, 0.1 * GRAVITY);
	hxd_close(c);
}

HX_TRANSPORT_TEST(native, geomsize_rejects_bad_geoms_and_sizes, "-m",
    "fixture.xml", "--paused", NULL)
{
	double size[3] = { 0.2, 0.2, 0.2 };
	Haptix__V1__Request req = HAPTIX__V1__REQUEST__INIT;
	Haptix__V1__GeomSize gs = HAPTIX__V1__GEOM_SIZE__INIT;
	Haptix__V1__Response *r;
	hxd_conn *c = hx_connect_ok(addr, "test");
	int fd;

	HX_FAILS(c, hxd_set_geomsize(c, GEOM_TETRA, size), HXD_BADTYPE);
	HX_FAILS(c, hxd_set_geomsize(c, GEOM_TERRAIN, size), HXD_BADTYPE);
	HX_FAILS(c, hxd_set_geomsize(c, NGEOM, size), HXD_BADINDEX);
	HX_FAILS(c, hxd_set_geomsize(c, -1, size), HXD_BADINDEX);
	size[1] = -0.1;
	HX_FAILS(c, hxd_set_geomsize(c, GEOM_BOX, size), HXD_BADVALUE);
	size[1] = 0;
	HX_FAILS(c, hxd_set_geomsize(c, GEOM_BOX, size), HXD_BADVALUE);
	size[1] = NAN;
	HX_FAILS(c, hxd_set_geomsize(c, GEOM_BOX, size), HXD_BADVALUE);
	size[1] = 0.2;
	HX_OK(c, hxd_set_geomsize(c, GEOM_BOX, size));

	/* The library always sends three numbers: send two by hand. */
	fd = raw_connect(addr);
	cr_assert_eq(raw_hello(fd, "raw"), HAPTIX__V1__RESULT__RESULT_OK);
	gs.id = GEOM_BOX;
	gs.n_size = 2;
	gs.size = size;
	req.id = 7;
	req.call_case = HAPTIX__V1__REQUEST__CALL_SET_GEOMSIZE;
	req.set_geomsize = &gs;
	raw_send_request(fd, &req);
	r = raw_recv(fd, 5000);
	cr_assert_not_null(r, "no answer to a two-value geom size");
	cr_assert_eq(r->id, 7);
	cr_assert_eq(r->result, HAPTIX__V1__RESULT__RESULT_BADSIZE,
	    "two sizes gave %d: %s", r->result, r->error);
	haptix__v1__response__free_unpacked(r, NULL);
	close(fd);
	still_serving(c);
	hxd_close(c);
}

/*----------------------------------------------------------- colours */

HX_TRANSPORT_TEST(
    native, rgba_gets_sets_and_clamps, "-m", "fixture.xml", "--paused", NULL)
{
	const double wild[4] = { 2, -1, 0.5, 0.25 };
	double rgba[4], bad[4] = { 0.1, 0.2, 0.3, 0.4 };
	hxd_conn *c = hx_connect_ok(addr, "test");
	int id = -2;

	HX_OK(c, hxd_name2id(c, HXD_OBJ_MATERIAL, "red", &id));
	HX_OK(c, hxd_get_rgba(c, HXD_OBJ_MATERIAL, id, rgba));
	cr_assert(rgba[0] == 1 && rgba[1] == 0 && rgba[2] == 0 && rgba[3] == 1,
	    "red is %g %g %g %g", rgba[0], rgba[1], rgba[2], rgba[3]);
	HX_OK(c, hxd_get_rgba(c, HXD_OBJ_MATERIAL, 1, rgba));
	cr_assert(rgba[0] == 0 && rgba[1] == 1 && rgba[2] == 0 && rgba[3] == 1,
	    "green is %g %g %g %g", rgba[0], rgba[1], rgba[2], rgba[3]);
	HX_OK(c, hxd_get_rgba(c, HXD_OBJ_GEOM, GEOM_FLOOR, rgba));
	HX_NEAR(rgba[0], 0.4, 1e-6);
	HX_NEAR(rgba[3], 1, 0);
	HX_OK(c, hxd_get_rgba(c, HXD_OBJ_SITE, SITE_SITE1, rgba));
	cr_assert(rgba[0] == 0 && rgba[2] == 1, "site1 is blue");
	HX_OK(c, hxd_get_rgba(c, HXD_OBJ_TENDON, 0, rgba));
	cr_assert(rgba[3] >= 0 && rgba[3] <= 1);

	HX_OK(c, hxd_set_rgba(c, HXD_OBJ_MATERIAL, 0, wild));
	HX_OK(c, hxd_get_rgba(c, HXD_OBJ_MATERIAL, 0, rgba));
	cr_assert(
	    rgba[0] == 1 && rgba[1] == 0 && rgba[2] == 0.5 && rgba[3] == 0.25,
	    "clamped to %g %g %g %g", rgba[0], rgba[1], rgba[2], rgba[3]);

	HX_FAILS(c, hxd_get_rgba(c, HXD_OBJ_BODY, 0, rgba), HXD_BADTYPE);
	HX_FAILS(c, hxd_set_rgba(c, HXD_OBJ_BODY, 0, bad), HXD_BADTYPE);
	HX_FAILS(c, hxd_get_rgba(c, HXD_OBJ_MATERIAL, 2, rgba), HXD_BADINDEX);
	HX_FAILS(c, hxd_get_rgba(c, HXD_OBJ_GEOM, -1, rgba), HXD_BADINDEX);
	HX_FAILS(c, hxd_set_rgba(c, HXD_OBJ_SITE, NSITE, bad), HXD_BADINDEX);
	bad[2] = NAN;
	HX_FAILS(c, hxd_set_rgba(c, HXD_OBJ_MATERIAL, 0, bad), HXD_BADVALUE);
	bad[2] = INFINITY;
	HX_FAILS(c, hxd_set_rgba(c, HXD_OBJ_MATERIAL, 0, bad), HXD_BADVALUE);
	HX_OK(c, hxd_get_rgba(c, HXD_OBJ_MATERIAL, 0, rgba));
	cr_assert(rgba[2] == 0.5, "a refused colour was applied");
	still_serving(c);
	hxd_close(c);
}

/*---------------------------------------------------------- stepping */

HX_TRANSPORT_TEST(native, step_while_paused_and_running, "-m", "fixture.xml",
    "--paused", NULL)
{
	hxd_conn *c = hx_connect_ok(addr, "test");
	unsigned taken = 99;
	hxd_status st;
	double t0, t1;
	int i;

	/* MuJoCo adds the timestep once per step: so does the expectation. */
	t0 = time_now(c);
	HX_OK(c, hxd_step(c, 5, &taken));
	cr_assert_eq(taken, 5);
	t1 = t0;
	for (i = 0; i < 5; i++)
		t1 += TIMESTEP;
	cr_assert_eq(time_now(c), t1,
	    "5 steps took the time from %.17g to %.17g, expected %.17g", t0,
	    time_now(c), t1);
	HX_OK(c, hxd_step(c, 0, &taken));
	cr_assert_eq(taken, 1, "count 0 means one step");
	cr_assert_eq(time_now(c), t1 + TIMESTEP);

	t0 = time_now(c);
	HX_FAILS(c, hxd_step(c, 10001, &taken), HXD_BADVALUE);
	cr_assert_eq(taken, 0);
	cr_assert_eq(time_now(c), t0, "a refused step stepped");
	HX_OK(c, hxd_step(c, 10000, &taken));
	cr_assert_eq(taken, 10000);
	HX_NEAR(time_now(c), t0 + 10000 * TIMESTEP, 1e-9);

	HX_OK(c, hxd_status_get(c, &st));
	cr_assert_eq(st.paused, 1);
	HX_OK(c, hxd_run(c));
	HX_OK(c, hxd_status_get(c, &st));
	cr_assert_eq(st.paused, 0);
	taken = 99;
	HX_OK(c, hxd_step(c, 5, &taken));
	cr_assert_eq(taken, 0, "stepping while running has no effect");
	HX_OK(c, hxd_pause(c));
	HX_OK(c, hxd_step(c, 1, &taken));
	cr_assert_eq(taken, 1);
	hxd_close(c);
}

HX_TRANSPORT_TEST(native, update_while_paused_steps_once, "-m", "fixture.xml",
    "--paused", NULL)
{
	double ctrl[NU] = { 0.4, -0.3 };
	hxd_control in = { .nu = NU, .ctrl = ctrl }, *out = NULL;
	hxd_conn *c = hx_connect_ok(addr, "test");
	hxd_sensor *u = NULL, *s;
	double t0;

	t0 = time_now(c);
	HX_OK(c, hxd_update(c, &in, &u));
	cr_assert_not_null(u);
	cr_assert_eq(u->nsensordata, NSENSORDATA);
	HX_NEAR(u->time, t0 + TIMESTEP, 1e-15);
	HX_NEAR(time_now(c), t0 + TIMESTEP, 1e-15);
	/* The step used the new controls: servo1's force at q = 0. */
	HX_NEAR(u->sensordata[3], 50 * 0.4, 1e-9);
	s = sensor_get(c);
	cr_assert(memcmp(s->sensordata, u->sensordata,
		      NSENSORDATA * sizeof(double)) == 0,
	    "update and get_sensor disagree");
	free(s);
	free(u);
	HX_OK(c, hxd_get_control(c, &out));
	cr_assert_eq(out->ctrl[0], 0.4);
	cr_assert_eq(out->ctrl[1], -0.3);
	free(out);

	/* No controls: step with the ones in place. */
	HX_OK(c, hxd_update(c, NULL, &u));
	HX_NEAR(u->time, t0 + 2 * TIMESTEP, 1e-15);
	free(u);
	HX_OK(c, hxd_get_control(c, &out));
	cr_assert_eq(out->ctrl[0], 0.4);
	free(out);

	in.nu = 1;
	HX_FAILS(c, hxd_update(c, &in, &u), HXD_BADSIZE);
	cr_assert_null(u);
	in.nu = NU;
	ctrl[0] = NAN;
	HX_FAILS(c, hxd_update(c, &in, &u), HXD_BADVALUE);
	HX_NEAR(time_now(c), t0 + 2 * TIMESTEP, 1e-15);
	still_serving(c);
	hxd_close(c);
}

HX_TRANSPORT_TEST(native, update_while_running_keeps_the_api_rate, "-m",
    "fixture.xml", "--paused", NULL)
{
	double ctrl[NU] = { 0.1, 0.1 };
	hxd_control in = { .nu = NU, .ctrl = ctrl };
	hxd_conn *c = hx_connect_ok(addr, "test");
	hxd_sensor *u = NULL;
	double w0, w1, t0, t1;
	int i;

	HX_OK(c, hxd_run(c));
	/* Align with the API tick first. */
	HX_OK(c, hxd_update(c, &in, &u));
	free(u);
	t0 = time_now(c);
	w0 = hx_wall_now();
	for (i = 0; i < 10; i++) {
		HX_OK(c, hxd_update(c, &in, &u));
		cr_assert_eq(u->nsensordata, NSENSORDATA);
		free(u);
	}
	w1 = hx_wall_now();
	t1 = time_now(c);
	HX_OK(c, hxd_pause(c));
	/* 10 ticks at 50 Hz: about 200 ms of wall and simulated time. */
	cr_assert(
	    w1 - w0 >= 0.1 && w1 - w0 <= 2.0, "10 updates took %g s", w1 - w0);
	cr_assert(t1 - t0 >= 0.1 && t1 - t0 <= 0.5,
	    "10 updates advanced the simulation by %g s", t1 - t0);
	hxd_close(c);
}

HX_TRANSPORT_TEST(native, update_without_api_rate_does_not_wait, "-m",
    "fixture.xml", "--paused", "--api-rate", "0", NULL)
{
	hxd_conn *c = hx_connect_ok(addr, "test");
	hxd_sensor *u = NULL;
	hxd_info *in = NULL;
	double w0, w1;
	int i;

	HX_OK(c, hxd_info_get(c, &in));
	cr_assert_eq(in->model.apirate, 0.0);
	free(in);
	HX_OK(c, hxd_run(c));
	w0 = hx_wall_now();
	for (i = 0; i < 10; i++) {
		HX_OK(c, hxd_update(c, NULL, &u));
		cr_assert_eq(u->nsensordata, NSENSORDATA);
		free(u);
	}
	w1 = hx_wall_now();
	HX_OK(c, hxd_pause(c));
	/*
	 * HAPTIX: below 1 Hz, mj_update returns immediately.  An update that
	 * waited for a tick of a rate below 1 Hz would take a second or more
	 * each; under valgrind on a loaded machine the ten calls themselves
	 * took 0.13 s, so the bound is generous.
	 */
	cr_assert_lt(w1 - w0, 5.0, "10 updates took %g s", w1 - w0);
	hxd_close(c);
}

/*------------------------------------------------------------- reset */

HX_TRANSPORT_TEST(native, reset_to_keyframes_and_reference, "-m", "fixture.xml",
    "--paused", NULL)
{
	const double qpos[NQ] = { 0.9, 0.9, 1, 1, 1, 1, 0, 0, 0 };
	const double qvel[NV] = { 1, 1, 1, 1, 1, 1, 1, 1 };
	hxd_conn *c = hx_connect_ok(addr, "test");
	hxd_control *ctl = NULL;
	hxd_state *s, *before;
	int i;

	state_set(c, qpos, qvel);
	HX_OK(c, hxd_step(c, 3, NULL));
	HX_OK(c, hxd_reset(c, 0));
	s = state_get(c);
	HX_NEAR(s->qpos[0], 0.5, 0);
	HX_NEAR(s->qpos[1], -0.5, 0);
	HX_NEAR(s->qpos[BOX_QPOS + 0], 0.6, 0);
	HX_NEAR(s->qpos[BOX_QPOS + 2], 0.1, 0);
	HX_NEAR(s->time, 0, 0);
	for (i = 0; i < NV; i++)
		HX_NEAR(s->qvel[i], 0, 0);
	free(s);
	HX_OK(c, hxd_get_control(c, &ctl));
	HX_NEAR(ctl->ctrl[0], 0.5, 0);
	HX_NEAR(ctl->ctrl[1], -0.5, 0);
	free(ctl);

	HX_OK(c, hxd_reset(c, 1));
	s = state_get(c);
	HX_NEAR(s->time, 1, 0);
	HX_NEAR(s->qpos[BOX_QPOS + 2], 1.0, 0);
	free(s);

	HX_OK(c, hxd_reset(c, -1));
	s = state_get(c);
	for (i = 0; i < NQ; i++)
		HX_NEAR(s->qpos[i], qpos0[i], 0);
	HX_NEAR(s->time, 0, 0);
	free(s);
	HX_OK(c, hxd_get_control(c, &ctl));
	HX_NEAR(ctl->ctrl[0], 0, 0);
	free(ctl);

	state_set(c, qpos, qvel);
	before = state_get(c);
	HX_FAILS(c, hxd_reset(c, 2), HXD_BADINDEX);
	HX_FAILS(c, hxd_reset(c, 1000), HXD_BADINDEX);
	s = state_get(c);
	state_same(before, s, "a refused reset");
	free(s);
	free(before);
	still_serving(c);
	hxd_close(c);
}

/*---------------------------------------------------------- equality */

HX_TRANSPORT_TEST(native, equality_enables_and_disables, "-m", "fixture.xml",
    "--paused", NULL)
{
	double qpos[NQ];
	const double qvel[NV] = { 0 };
	hxd_conn *c = hx_connect_ok(addr, "test");
	hxd_force *f = NULL;

	/* hinge2 = 0.5 hinge1 is violated here. */
	memcpy(qpos, qpos0, sizeof(qpos));
	qpos[0] = 0.4;
	qpos[1] = -0.4;
	state_set(c, qpos, qvel);
	HX_OK(c, hxd_get_force(c, &f));
	HX_NEAR(f->constraint[1], 0, 1e-9);
	free(f);

	HX_OK(c, hxd_equality(c, 0, 1));
	state_set(c, qpos, qvel);
	HX_OK(c, hxd_get_force(c, &f));
	cr_assert(fabs(f->constraint[1]) > 1e-3,
	    "the enabled coupling exerts no force on hinge2 (%g)",
	    f->constraint[1]);
	free(f);

	HX_OK(c, hxd_equality(c, 0, 0));
	state_set(c, qpos, qvel);
	HX_OK(c, hxd_get_force(c, &f));
	HX_NEAR(f->constraint[1], 0, 1e-9);
	free(f);

	HX_FAILS(c, hxd_equality(c, 0, 2), HXD_BADVALUE);
	HX_FAILS(c, hxd_equality(c, 0, -1), HXD_BADVALUE);
	HX_FAILS(c, hxd_equality(c, 1, 1), HXD_BADINDEX);
	HX_FAILS(c, hxd_equality(c, -1, 0), HXD_BADINDEX);
	/* The refused calls left the constraint off. */
	state_set(c, qpos, qvel);
	HX_OK(c, hxd_get_force(c, &f));
	HX_NEAR(f->constraint[1], 0, 1e-9);
	free(f);
	still_serving(c);
	hxd_close(c);
}

/*----------------------------------------------------------- message */

/* Wait up to 2 s for the status message on c to become want. */
static int
message_becomes(hxd_conn *c, const char *want)
{
	hxd_status st;
	int i;

	for (i = 0; i < 200; i++) {
		HX_OK(c, hxd_status_get(c, &st));
		if (strcmp(st.message, want) == 0)
			return 1;
		hx_sleep_ms(10);
	}
	return 0;
}

HX_TRANSPORT_TEST(
    native, message_shows_and_clears, "-m", "fixture.xml", "--paused", NULL)
{
	hxd_conn *c = hx_connect_ok(addr, "test"),
		 *other = hx_connect_ok(addr, "test");
	char text[1002];
	hxd_status st;

	HX_OK(c, hxd_message(c, "grasp the box"));
	HX_OK(c, hxd_status_get(c, &st));
	cr_assert_str_eq(st.message, "grasp the box");
	HX_OK(other, hxd_status_get(other, &st));
	cr_assert_str_eq(st.message, "grasp the box");

	HX_OK(c, hxd_message(c, ""));
	HX_OK(c, hxd_status_get(c, &st));
	cr_assert_str_eq(st.message, "");
	HX_OK(c, hxd_message(c, "again"));
	HX_OK(c, hxd_message(c, NULL));
	HX_OK(c, hxd_status_get(c, &st));
	cr_assert_str_eq(st.message, "");

	memset(text, 'x', sizeof(text));
	text[1000] = '\0';
	HX_OK(c, hxd_message(c, text));
	HX_OK(c, hxd_status_get(c, &st));
	cr_assert_eq(strlen(st.message), 1000);
	text[1000] = 'y';
	text[1001] = '\0';
	HX_FAILS(c, hxd_message(c, text), HXD_BADSIZE);
	HX_OK(c, hxd_status_get(c, &st));
	cr_assert_eq(strlen(st.message), 1000,
	    "a refused message replaced the one on show");

	HX_OK(c, hxd_message(c, "bye"));
	hxd_close(c);
	cr_assert(message_becomes(other, ""),
	    "the message outlived the connection that set it");
	hxd_close(other);
}

/*------------------------------------------------------------- names */

HX_TRANSPORT_TEST(native, names_and_ids, "-m", "fixture.xml", "--paused", NULL)
{
	static const struct {
		int type;
		const char *name;
		int id;
	} known[] = {
		{ HXD_OBJ_BODY, "box", BODY_BOX },
		{ HXD_OBJ_XBODY, "box", BODY_BOX },
		{ HXD_OBJ_BODY, "world", BODY_WORLD },
		{ HXD_OBJ_JOINT, "box", 2 },
		{ HXD_OBJ_JOINT, "hinge2", 1 },
		{ HXD_OBJ_GEOM, "box", GEOM_BOX },
		{ HXD_OBJ_SITE, "tip", SITE_TIP },
		{ HXD_OBJ_MESH, "tetra", 0 },
		{ HXD_OBJ_HFIELD, "bumps", 0 },
		{ HXD_OBJ_MATERIAL, "green", 1 },
		{ HXD_OBJ_EQUALITY, "couple", 0 },
		{ HXD_OBJ_TENDON, "sum", 0 },
		{ HXD_OBJ_ACTUATOR, "servo2", 1 },
		{ HXD_OBJ_SENSOR, "acc", 6 },
		{ HXD_OBJ_KEY, "dropped", 1 },
	};
	hxd_conn *c = hx_connect_ok(addr, "test");
	char buf[64];
	size_t i;
	int id;

	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		id = -5;
		HX_OK(c, hxd_name2id(c, known[i].type, known[i].name, &id));
		cr_assert_eq(id, known[i].id, "%s \"%s\" is %d, expected %d",
		    hxd_obj_name(known[i].type), known[i].name, id,
		    known[i].id);
		HX_OK(c,
		    hxd_id2name(
			c, known[i].type, known[i].id, buf, sizeof(buf)));
		cr_assert_str_eq(buf, known[i].name);
	}

	id = 5;
	HX_OK(c, hxd_name2id(c, HXD_OBJ_BODY, "no such body", &id));
	cr_assert_eq(id, -1, "a missing name is id -1");
	cr_assert_eq(hxd_result(c), HXD_OK);
	HX_OK(c, hxd_name2id(c, HXD_OBJ_GEOM, "", &id));
	cr_assert_eq(id, -1);

	HX_FAILS(c, hxd_name2id(c, HXD_OBJ_DOF, "box", &id), HXD_BADTYPE);
	HX_FAILS(c, hxd_name2id(c, HXD_OBJ_UNKNOWN, "box", &id), HXD_BADTYPE);
	HX_FAILS(
	    c, hxd_id2name(c, HXD_OBJ_DOF, 0, buf, sizeof(buf)), HXD_BADTYPE);
	HX_FAILS(c, hxd_id2name(c, HXD_OBJ_BODY, NBODY, buf, sizeof(buf)),
	    HXD_BADINDEX);
	HX_FAILS(c, hxd_id2name(c, HXD_OBJ_BODY, -1, buf, sizeof(buf)),
	    HXD_BADINDEX);
	HX_FAILS(
	    c, hxd_id2name(c, HXD_OBJ_KEY, 2, buf, sizeof(buf)), HXD_BADINDEX);
	cr_assert_str_eq(buf, "", "a failed id2name leaves an empty name");
	still_serving(c);
	hxd_close(c);
}

HX_TRANSPORT_TEST(native, unnamed_objects_have_empty_names, "-m", "fixture.xml",
    "--paused", NULL)
{
	static const char
	    xml[] = "<mujoco model='anon'><worldbody>"
		    "<body pos='0 0 1'><freejoint/><geom size='0.1'/></body>"
		    "<body name='named' pos='1 0 1'><geom size='0.1'/></body>"
		    "</worldbody></mujoco>";
	hxd_conn *c = hx_connect_ok(addr, "test");
	hxd_model m;
	char buf[64] = "junk";
	int id;

	HX_OK(c,
	    hxd_load_data(
		c, HXD_FORMAT_MJCF, xml, sizeof(xml) - 1, "anon", &m));
	cr_assert_eq(m.nbody, 3);
	HX_OK(c, hxd_id2name(c, HXD_OBJ_BODY, 1, buf, sizeof(buf)));
	cr_assert_str_eq(buf, "", "an unnamed body's name");
	HX_OK(c, hxd_id2name(c, HXD_OBJ_JOINT, 0, buf, sizeof(buf)));
	cr_assert_str_eq(buf, "");
	HX_OK(c, hxd_id2name(c, HXD_OBJ_GEOM, 1, buf, sizeof(buf)));
	cr_assert_str_eq(buf, "");
	HX_OK(c, hxd_id2name(c, HXD_OBJ_BODY, 2, buf, sizeof(buf)));
	cr_assert_str_eq(buf, "named");
	HX_OK(c, hxd_name2id(c, HXD_OBJ_BODY, "named", &id));
	cr_assert_eq(id, 2);
	hxd_close(c);
}

HX_TRANSPORT_TEST(native, unknown_object_types_are_badtype, "-m", "fixture.xml",
    "--paused", NULL)
{
	const double rgba[4] = { 1, 1, 1, 1 };
	static const int types[] = { 99, -1, 24, 1000000 };
	hxd_conn *c = hx_connect_ok(addr, "test");
	double out[4];
	char buf[32];
	size_t i;
	int id;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		HX_FAILS(c, hxd_name2id(c, types[i], "box", &id), HXD_BADTYPE);
		HX_FAILS(c, hxd_id2name(c, types[i], 0, buf, sizeof(buf)),
		    HXD_BADTYPE);
		HX_FAILS(c, hxd_get_rgba(c, types[i], 0, out), HXD_BADTYPE);
		HX_FAILS(c, hxd_set_rgba(c, types[i], 0, rgba), HXD_BADTYPE);
	}
	still_serving(c);
	hxd_close(c);
}

/*---------------------------------------------------------- no model */

HX_TRANSPORT_TEST(native, calls_without_a_model_are_nomodel, "--no-model", NULL)
{
	static const char
	    xml[] = "<mujoco model='late'><worldbody><body name='b'>"
		    "<freejoint/><geom size='0.1'/></body></worldbody></mujoco>";
	const double v4[4] = { 1, 0, 0, 0 };
	hxd_conn *c = hx_connect_ok(addr, "test");
	hxd_state st = { 0 }, *s = NULL;
	hxd_control ctl = { 0 }, *pc = NULL;
	hxd_applied ap = { 0 }, *pa = NULL;
	hxd_mocap mo = { 0 }, *pm = NULL;
	hxd_onebody b = { 0 };
	hxd_info *in = NULL;
	hxd_dynamics *dyn = NULL;
	hxd_sensor *sen = NULL;
	hxd_poses *p = NULL;
	hxd_tendon *ten = NULL;
	hxd_actuator *act = NULL;
	hxd_force *f = NULL;
	hxd_contacts *con = NULL;
	hxd_status status;
	double rgba[4];
	char buf[16];
	unsigned taken;
	int id;

	cr_assert_eq(hxd_welcome_model(c)->nbody, 0);
	HX_FAILS(c, hxd_info_get(c, &in), HXD_NOMODEL);
	cr_assert_null(in);
	HX_FAILS(c, hxd_get_state(c, &s), HXD_NOMODEL);
	cr_assert_null(s);
	HX_FAILS(c, hxd_set_state(c, &st), HXD_NOMODEL);
	HX_FAILS(c, hxd_get_control(c, &pc), HXD_NOMODEL);
	HX_FAILS(c, hxd_set_control(c, &ctl), HXD_NOMODEL);
	HX_FAILS(c, hxd_get_applied(c, &pa), HXD_NOMODEL);
	HX_FAILS(c, hxd_set_applied(c, &ap), HXD_NOMODEL);
	HX_FAILS(c, hxd_get_onebody(c, 0, &b), HXD_NOMODEL);
	HX_FAILS(c, hxd_set_onebody(c, &b, HXD_ONEBODY_FORCE), HXD_NOMODEL);
	HX_FAILS(c, hxd_get_mocap(c, &pm), HXD_NOMODEL);
	HX_FAILS(c, hxd_set_mocap(c, &mo), HXD_NOMODEL);
	HX_FAILS(c, hxd_get_dynamics(c, &dyn), HXD_NOMODEL);
	HX_FAILS(c, hxd_get_sensor(c, &sen), HXD_NOMODEL);
	HX_FAILS(c, hxd_get_body(c, &p), HXD_NOMODEL);
	HX_FAILS(c, hxd_get_geom(c, &p), HXD_NOMODEL);
	HX_FAILS(c, hxd_get_site(c, &p), HXD_NOMODEL);
	cr_assert_null(p);
	HX_FAILS(c, hxd_get_tendon(c, &ten), HXD_NOMODEL);
	HX_FAILS(c, hxd_get_actuator(c, &act), HXD_NOMODEL);
	HX_FAILS(c, hxd_get_force(c, &f), HXD_NOMODEL);
	HX_FAILS(c, hxd_get_contact(c, &con), HXD_NOMODEL);
	HX_FAILS(c, hxd_set_geomsize(c, 0, v4), HXD_NOMODEL);
	HX_FAILS(c, hxd_get_rgba(c, HXD_OBJ_GEOM, 0, rgba), HXD_NOMODEL);
	HX_FAILS(c, hxd_set_rgba(c, HXD_OBJ_GEOM, 0, v4), HXD_NOMODEL);
	HX_FAILS(c, hxd_step(c, 1, &taken), HXD_NOMODEL);
	HX_FAILS(c, hxd_update(c, NULL, &sen), HXD_NOMODEL);
	HX_FAILS(c, hxd_reset(c, -1), HXD_NOMODEL);
	HX_FAILS(c, hxd_equality(c, 0, 1), HXD_NOMODEL);
	HX_FAILS(c, hxd_name2id(c, HXD_OBJ_BODY, "world", &id), HXD_NOMODEL);
	HX_FAILS(
	    c, hxd_id2name(c, HXD_OBJ_BODY, 0, buf, sizeof(buf)), HXD_NOMODEL);

	/* What needs no model still works, and so does the connection. */
	HX_OK(c, hxd_message(c, "waiting for a model"));
	HX_OK(c, hxd_status_get(c, &status));
	cr_assert_str_eq(status.message, "waiting for a model");
	cr_assert_eq(status.model.nbody, 0);

	HX_OK(c,
	    hxd_load_data(
		c, HXD_FORMAT_MJCF, xml, sizeof(xml) - 1, "late", NULL));
	HX_OK(c, hxd_get_state(c, &s));
	cr_assert_eq(s->nq, 7, "the loaded model answers");
	cr_assert_eq(s->nv, 6);
	free(s);
	HX_OK(c, hxd_name2id(c, HXD_OBJ_BODY, "b", &id));
	cr_assert_eq(id, 1);
	hxd_close(c);
}

/*------------------------------------------------------- two clients */

HX_TRANSPORT_TEST(native, bad_input_does_not_disturb_another_client, "-m",
    "fixture.xml", "--paused", NULL)
{
	const double qpos[NQ] = { 0.25, -0.125, 0.6, 0, 0.1, 1, 0, 0, 0 };
	const double qvel[NV] = { 0 };
	double nan3[3] = { NAN, 0, 0 }, p[NQ], v[NV], junk[4] = { 1, 2, 3, 4 };
	hxd_state bad = { .nq = NQ, .nv = NV, .qpos = p, .qvel = v };
	hxd_control ctl = { .nu = NU + 5, .ctrl = p };
	hxd_conn *good = hx_connect_ok(addr, "test"),
		 *evil = hx_connect_ok(addr, "test");
	hxd_state *s;
	hxd_sensor *sen;
	hxd_onebody b;
	hxd_info *in = NULL;
	char buf[16];
	int i, id, fd, rc;
	Haptix__V1__Response *r;

	state_set(good, qpos, qvel);
	memcpy(p, qpos, sizeof(p));
	memset(v, 0, sizeof(v));
	p[0] = NAN;
	for (i = 0; i < 20; i++) {
		switch (i % 8) {
		case 0:
			HX_FAILS(evil, hxd_set_state(evil, &bad), HXD_BADVALUE);
			break;
		case 1:
			HX_FAILS(
			    evil, hxd_set_control(evil, &ctl), HXD_BADSIZE);
			break;
		case 2:
			HX_FAILS(evil, hxd_get_onebody(evil, 1 << 30, &b),
			    HXD_BADINDEX);
			break;
		case 3:
			HX_FAILS(evil, hxd_set_geomsize(evil, GEOM_BOX, nan3),
			    HXD_BADVALUE);
			break;
		case 4:
			HX_FAILS(
			    evil, hxd_set_rgba(evil, 99, 0, junk), HXD_BADTYPE);
			break;
		case 5:
			HX_FAILS(
			    evil, hxd_step(evil, 1u << 31, NULL), HXD_BADVALUE);
			break;
		case 6:
			HX_FAILS(evil, hxd_reset(evil, 7), HXD_BADINDEX);
			break;
		default:
			HX_FAILS(evil,
			    hxd_id2name(evil, HXD_OBJ_DOF, 0, buf, sizeof(buf)),
			    HXD_BADTYPE);
			break;
		}
		/* Meanwhile the other client gets true answers. */
		s = state_get(good);
		cr_assert(memcmp(s->qpos, qpos, sizeof(qpos)) == 0,
		    "round %d: the state changed under bad input", i);
		free(s);
		sen = sensor_get(good);
		HX_NEAR(sen->sensordata[0], qpos[0], 1e-12);
		free(sen);
		HX_OK(good, hxd_name2id(good, HXD_OBJ_GEOM, "tetra", &id));
		cr_assert_eq(id, GEOM_TETRA);
	}

	/* A frame that is not a request at all. */
	fd = raw_connect(addr);
	cr_assert_eq(raw_hello(fd, "garbage"), HAPTIX__V1__RESULT__RESULT_OK);
	raw_send_frame(fd, "\xff\xff\xff\xff\xff", 5);
	r = raw_recv(fd, 5000);
	cr_assert_not_null(r, "no answer to a garbage frame");
	rc = r->result;
	haptix__v1__response__free_unpacked(r, NULL);
	cr_assert_eq(rc, HAPTIX__V1__RESULT__RESULT_BADPROTOCOL);
	close(fd);

	HX_OK(good, hxd_info_get(good, &in));
	cr_assert_eq(in->model.nq, NQ);
	free(in);
	still_serving(evil);
	hxd_close(evil);
	hxd_close(good);
}
