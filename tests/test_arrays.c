/*
 * Integration tests of the arrays by name (get_array, set_array,
 * list_arrays) through the extension API, each against a real haptixd
 * over the Unix socket and TCP.  The numbers come from
 * models/test/fixture.xml and MuJoCo 2.2's mjxmacro.h.
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

TestSuite(arrays, .timeout = 60, .fini = hx_server_cleanup);

/* Sizes and ids of fixture.xml. */
#define NQ 9
#define NV 8
#define NU 2
#define NBODY 5
#define NGEOM 7
#define NSENSORDATA 11
#define GRAVITY 9.81
enum { BODY_WORLD, BODY_LINK1, BODY_LINK2, BODY_BOX, BODY_MARKER };
enum { GEOM_LINK1 = 3, GEOM_BOX = 5 };
#define BOX_QPOS 2
#define BOX_QVEL 2

/* Get an array, checking that its values match its shape; caller frees. */
static hxd_array *
array_get(hxd_conn *c, const char *name)
{
	hxd_array *a = NULL;

	HX_OK(c, hxd_get_array(c, name, &a));
	cr_assert_not_null(a);
	/* The answer names the array without an owner's prefix. */
	if (strncmp(name, "model.", 6) == 0)
		name += 6;
	else if (strncmp(name, "data.", 5) == 0)
		name += 5;
	cr_assert_str_eq(a->name, name);
	cr_assert(a->rows >= 0 && a->cols >= 0);
	cr_assert(a->rows * a->cols == 0 || a->values != NULL);
	return a;
}

/* One value of an array by name. */
static double
array_value(hxd_conn *c, const char *name, int i)
{
	hxd_array *a = array_get(c, name);
	double v;

	cr_assert(i < a->rows * a->cols, "%s has no element %d", name, i);
	v = a->values[i];
	free(a);
	return v;
}

/* Write one value. */
static int
array_set1(hxd_conn *c, const char *name, int offset, double v)
{
	return hxd_set_array(c, name, offset, 1, &v);
}

/* The state; caller frees. */
static hxd_state *
state_get(hxd_conn *c)
{
	hxd_state *s = NULL;

	HX_OK(c, hxd_get_state(c, &s));
	cr_assert_not_null(s);
	cr_assert_eq(s->nq, NQ);
	return s;
}

/* Body poses; caller frees. */
static hxd_poses *
bodies_get(hxd_conn *c)
{
	hxd_poses *p = NULL;

	HX_OK(c, hxd_get_body(c, &p));
	cr_assert_eq(p->count, NBODY);
	return p;
}

/*-------------------------------------------------------------- reading */

HX_TRANSPORT_TEST(
    arrays, get_matches_the_native_calls, "-m", "fixture.xml", "--paused", NULL)
{
	double qpos[NQ] = { 0.3, -0.2, 0.6, 0, 0.3, 1, 0, 0, 0 };
	double qvel[NV] = { 0.5, -1, 0, 0, 0, 0, 0, 0 };
	double ctrl[NU] = { 0.25, -0.75 };
	hxd_state in = { .nq = NQ, .nv = NV, .qpos = qpos, .qvel = qvel };
	hxd_control cin = { .nu = NU, .ctrl = ctrl };
	hxd_conn *c = hx_connect_ok(addr, "test");
	hxd_state *st;
	hxd_sensor *sen = NULL;
	hxd_poses *p;
	hxd_array *a;
	unsigned taken;

	HX_OK(c, hxd_set_state(c, &in));
	HX_OK(c, hxd_set_control(c, &cin));
	HX_OK(c, hxd_step(c, 5, &taken));
	cr_assert_eq(taken, 5);
	st = state_get(c);

	a = array_get(c, "qpos");
	cr_assert_str_eq(a->owner, "data");
	cr_assert_eq(a->type, HXD_ARRAY_DOUBLE);
	cr_assert_eq(a->rows, NQ);
	cr_assert_eq(a->cols, 1);
	cr_assert(a->writable);
	cr_assert(memcmp(a->values, st->qpos, NQ * sizeof(double)) == 0,
	    "get_array qpos differs from get_state's");
	/* The step moved the hinges: the comparison was not of zeros. */
	cr_assert(a->values[0] != 0.3 && a->values[1] != -0.2);
	free(a);
	a = array_get(c, "qvel");
	cr_assert(memcmp(a->values, st->qvel, NV * sizeof(double)) == 0);
	free(a);
	a = array_get(c, "ctrl");
	cr_assert_eq(a->rows, NU);
	cr_assert_eq(a->values[0], 0.25);
	cr_assert_eq(a->values[1], -0.75);
	free(a);

	p = bodies_get(c);
	a = array_get(c, "xpos");
	cr_assert_eq(a->rows, NBODY);
	cr_assert_eq(a->cols, 3);
	cr_assert(!a->writable);
	cr_assert(memcmp(a->values, p->pos, 3 * NBODY * sizeof(double)) == 0);
	free(a);
	free(p);

	HX_OK(c, hxd_get_sensor(c, &sen));
	a = array_get(c, "sensordata");
	cr_assert_eq(a->rows, NSENSORDATA);
	cr_assert(memcmp(a->values, sen->sensordata,
		      NSENSORDATA * sizeof(double)) == 0);
	free(a);
	free(sen);

	/* A prefix names the owner. */
	a = array_get(c, "model.geom_rgba");
	cr_assert_str_eq(a->owner, "model");
	free(a);
	free(st);
	hxd_close(c);
}

/* What list_arrays must say about one array of the fixture. */
struct expect {
	const char *name, *owner;
	int type, rows, cols, writable;
};

/* What list_arrays must say about some arrays of the fixture. */
static const struct expect listed[] = {
	{ "qpos", "data", HXD_ARRAY_DOUBLE, NQ, 1, 1 },
	{ "qvel", "data", HXD_ARRAY_DOUBLE, NV, 1, 1 },
	{ "act", "data", HXD_ARRAY_DOUBLE, 0, 1, 1 },
	{ "ctrl", "data", HXD_ARRAY_DOUBLE, NU, 1, 1 },
	{ "xfrc_applied", "data", HXD_ARRAY_DOUBLE, NBODY, 6, 1 },
	{ "mocap_quat", "data", HXD_ARRAY_DOUBLE, 1, 4, 1 },
	{ "qacc_warmstart", "data", HXD_ARRAY_DOUBLE, NV, 1, 1 },
	{ "qacc", "data", HXD_ARRAY_DOUBLE, NV, 1, 0 },
	{ "xpos", "data", HXD_ARRAY_DOUBLE, NBODY, 3, 0 },
	{ "xmat", "data", HXD_ARRAY_DOUBLE, NBODY, 9, 0 },
	{ "sensordata", "data", HXD_ARRAY_DOUBLE, NSENSORDATA, 1, 0 },
	{ "ten_J", "data", HXD_ARRAY_DOUBLE, 1, NV, 0 },
	{ "geom_rgba", "model", HXD_ARRAY_FLOAT, NGEOM, 4, 1 },
	{ "geom_size", "model", HXD_ARRAY_DOUBLE, NGEOM, 3, 0 },
	{ "geom_contype", "model", HXD_ARRAY_INT, NGEOM, 1, 1 },
	{ "geom_bodyid", "model", HXD_ARRAY_INT, NGEOM, 1, 0 },
	{ "jnt_type", "model", HXD_ARRAY_INT, 3, 1, 0 },
	{ "jnt_range", "model", HXD_ARRAY_DOUBLE, 3, 2, 1 },
	{ "eq_active", "model", HXD_ARRAY_BYTE, 1, 1, 1 },
	{ "body_simple", "model", HXD_ARRAY_BYTE, NBODY, 1, 0 },
	{ "body_mass", "model", HXD_ARRAY_DOUBLE, NBODY, 1, 1 },
	{ "body_subtreemass", "model", HXD_ARRAY_DOUBLE, NBODY, 1, 0 },
	{ "dof_damping", "model", HXD_ARRAY_DOUBLE, NV, 1, 1 },
	{ "actuator_gainprm", "model", HXD_ARRAY_DOUBLE, NU, 10, 1 },
	{ "actuator_ctrlrange", "model", HXD_ARRAY_DOUBLE, NU, 2, 1 },
	{ "key_qpos", "model", HXD_ARRAY_DOUBLE, 2, NQ, 1 },
	{ "key_mpos", "model", HXD_ARRAY_DOUBLE, 2, 3, 1 },
	{ "key_act", "model", HXD_ARRAY_DOUBLE, 2, 0, 1 },
	{ "mesh_vert", "model", HXD_ARRAY_FLOAT, 4, 3, 0 },
	{ "hfield_data", "model", HXD_ARRAY_FLOAT, 9, 1, 0 },
	{ "mat_rgba", "model", HXD_ARRAY_FLOAT, 2, 4, 1 },
};

/*
 * Every entry of the list of n arrays: no values, an owner and a type,
 * numbers only, each once; a minority writable.
 */
static void
expect_arrays_well_formed(const hxd_array *list, int n)
{
	int i, j, writable = 0;

	for (i = 0; i < n; i++) {
		cr_assert_null(
		    list[i].values, "%s came with values", list[i].name);
		cr_assert(strcmp(list[i].owner, "model") == 0 ||
			strcmp(list[i].owner, "data") == 0,
		    "%s has owner \"%s\"", list[i].name, list[i].owner);
		cr_assert(list[i].type >= HXD_ARRAY_DOUBLE &&
		    list[i].type <= HXD_ARRAY_BYTE);
		/* Structs and text are not numbers: not listed. */
		cr_assert_str_neq(list[i].name, "contact");
		cr_assert_str_neq(list[i].name, "names");
		cr_assert_str_neq(list[i].name, "text_data");
		for (j = 0; j < i; j++)
			cr_assert(strcmp(list[i].name, list[j].name) != 0 ||
				strcmp(list[i].owner, list[j].owner) != 0,
			    "%s listed twice", list[i].name);
		writable += list[i].writable;
	}
	/* A minority is writable; most of mjData is computed. */
	cr_assert(writable > 20 && writable < n / 2, "%d of %d writable",
	    writable, n);
}

/* Each of the arrays of listed is in the list of n, as described. */
static void
expect_arrays_listed(const hxd_array *list, int n)
{
	size_t k;
	int i, found;

	for (k = 0; k < sizeof(listed) / sizeof(listed[0]); k++) {
		found = 0;
		for (i = 0; i < n && !found; i++) {
			if (strcmp(list[i].name, listed[k].name) != 0)
				continue;
			found = 1;
			cr_assert_str_eq(list[i].owner, listed[k].owner,
			    "%s owner", listed[k].name);
			cr_assert_eq(list[i].type, listed[k].type,
			    "%s has type %d, expected %d", listed[k].name,
			    list[i].type, listed[k].type);
			cr_assert_eq(list[i].rows, listed[k].rows,
			    "%s has %d rows, expected %d", listed[k].name,
			    list[i].rows, listed[k].rows);
			cr_assert_eq(list[i].cols, listed[k].cols,
			    "%s has %d cols, expected %d", listed[k].name,
			    list[i].cols, listed[k].cols);
			cr_assert_eq(list[i].writable, listed[k].writable,
			    "%s writable %d, expected %d", listed[k].name,
			    list[i].writable, listed[k].writable);
		}
		cr_assert(found, "%s is not listed", listed[k].name);
	}
}

HX_TRANSPORT_TEST(arrays, list_describes_model_and_data_arrays, "-m",
    "fixture.xml", "--paused", NULL)
{
	hxd_conn *c = hx_connect_ok(addr, "test");
	hxd_array *list = NULL;
	hxd_status st;
	int n = 0, i;

	HX_OK(c, hxd_list_arrays(c, &list, &n));
	cr_assert_not_null(list);
	/* MuJoCo 2.2 has about 370 numeric arrays in mjModel and mjData. */
	cr_assert_gt(n, 300);
	expect_arrays_well_formed(list, n);

	expect_arrays_listed(list, n);

	/* Constraint arrays have the live count of rows. */
	free(list);
	HX_OK(c, array_set1(c, "qpos", BOX_QPOS + 2, 0.09));
	HX_OK(c, hxd_list_arrays(c, &list, &n));
	HX_OK(c, hxd_status_get(c, &st));
	cr_assert_gt(st.nefc, 0, "the box in the floor has contacts");
	for (i = 0; i < n; i++) {
		if (strcmp(list[i].name, "efc_pos") == 0)
			cr_assert_eq(list[i].rows, st.nefc);
		if (strcmp(list[i].name, "efc_AR") == 0) {
			cr_assert_eq(list[i].rows, st.nefc);
			cr_assert_eq(list[i].cols, st.nefc);
		}
	}
	free(list);
	hxd_close(c);
}

HX_TRANSPORT_TEST(arrays, constraint_arrays_follow_the_live_count, "-m",
    "fixture.xml", "--paused", NULL)
{
	hxd_conn *c = hx_connect_ok(addr, "test");
	hxd_status st;
	hxd_array *a;

	/* Sink the box into the floor a little: it has contacts. */
	HX_OK(c, array_set1(c, "qpos", BOX_QPOS + 2, 0.09));
	HX_OK(c, hxd_status_get(c, &st));
	cr_assert_gt(st.nefc, 0);
	a = array_get(c, "efc_pos");
	cr_assert_eq(a->rows, st.nefc);
	cr_assert_eq(a->cols, 1);
	free(a);
	a = array_get(c, "efc_J");
	cr_assert_eq(a->rows, st.nefc);
	cr_assert_eq(a->cols, NV);
	free(a);

	/* Lift the box off the floor: no constraints are left. */
	HX_OK(c, array_set1(c, "qpos", BOX_QPOS + 2, 2.0));
	HX_OK(c, hxd_status_get(c, &st));
	cr_assert_eq(st.nefc, 0);
	cr_assert_eq(st.ncon, 0);
	a = array_get(c, "efc_pos");
	cr_assert_eq(a->rows, 0);
	free(a);
	a = array_get(c, "efc_AR");
	cr_assert_eq(a->rows, 0);
	cr_assert_eq(a->cols, 0);
	free(a);
	hxd_close(c);
}

HX_TRANSPORT_TEST(
    arrays, zero_size_arrays_are_empty, "-m", "fixture.xml", "--paused", NULL)
{
	hxd_conn *c = hx_connect_ok(addr, "test");
	hxd_array *a;

	/* The fixture has no activations (na = 0). */
	a = array_get(c, "act");
	cr_assert_eq(a->rows, 0);
	cr_assert_eq(a->cols, 1);
	free(a);
	a = array_get(c, "key_act");
	cr_assert_eq(a->rows, 2);
	cr_assert_eq(a->cols, 0);
	free(a);
	/* Nothing fits in an empty array. */
	HX_FAILS(c, array_set1(c, "act", 0, 1.0), HXD_BADSIZE);
	hxd_close(c);
}

/*-------------------------------------------------------------- writing */

HX_TRANSPORT_TEST(
    arrays, set_ctrl_reads_back, "-m", "fixture.xml", "--paused", NULL)
{
	hxd_conn *c = hx_connect_ok(addr, "test");
	hxd_control *w = NULL;

	HX_OK(c, array_set1(c, "ctrl", 1, -0.5));
	HX_OK(c, hxd_get_control(c, &w));
	cr_assert_eq(w->ctrl[0], 0);
	cr_assert_eq(w->ctrl[1], -0.5);
	free(w);
	hxd_close(c);
}

HX_TRANSPORT_TEST(
    arrays, set_qpos_range_runs_forward, "-m", "fixture.xml", "--paused", NULL)
{
	const double v[2] = { 0.5, -0.3 };
	const double mocap[3] = { 0.25, 1.5, 0.75 };
	hxd_conn *c = hx_connect_ok(addr, "test");
	hxd_state *before = state_get(c), *after;
	hxd_poses *p0 = bodies_get(c), *p1;
	hxd_sensor *sen = NULL;
	int i;

	HX_OK(c, hxd_set_array(c, "qpos", 0, 2, v));
	after = state_get(c);
	cr_assert_eq(after->qpos[0], 0.5);
	cr_assert_eq(after->qpos[1], -0.3);
	for (i = 2; i < NQ; i++)
		cr_assert_eq(after->qpos[i], before->qpos[i], "qpos[%d]", i);

	/* mj_forward ran: link2 hangs from link1, turned by hinge1. */
	p1 = bodies_get(c);
	for (i = 0; i < 3; i++)
		cr_assert_eq(
		    p1->pos[3 * BODY_LINK1 + i], p0->pos[3 * BODY_LINK1 + i]);
	HX_NEAR(p1->pos[3 * BODY_LINK2 + 0], -0.3 * sin(0.5), 1e-12);
	HX_NEAR(p1->pos[3 * BODY_LINK2 + 2], 1 - 0.3 * cos(0.5), 1e-12);
	HX_NEAR(p0->pos[3 * BODY_LINK2 + 2], 0.7, 1e-12);
	/* And so did the sensors: q1 and q2 are joint positions. */
	HX_OK(c, hxd_get_sensor(c, &sen));
	cr_assert_eq(sen->sensordata[0], 0.5);
	cr_assert_eq(sen->sensordata[1], -0.3);
	free(sen);
	free(p1);

	/* Mocap positions move the mocap body at once too. */
	HX_OK(c, hxd_set_array(c, "mocap_pos", 0, 3, mocap));
	p1 = bodies_get(c);
	for (i = 0; i < 3; i++)
		cr_assert_eq(p1->pos[3 * BODY_MARKER + i], mocap[i]);
	free(p1);
	free(p0);
	free(before);
	free(after);
	hxd_close(c);
}

HX_TRANSPORT_TEST(arrays, qacc_warmstart_is_not_recomputed, "-m", "fixture.xml",
    "--paused", NULL)
{
	const double w[NV] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	hxd_conn *c = hx_connect_ok(addr, "test");
	hxd_array *a;

	HX_OK(c, hxd_set_array(c, "qacc_warmstart", 0, NV, w));
	a = array_get(c, "qacc_warmstart");
	cr_assert(memcmp(a->values, w, sizeof(w)) == 0,
	    "qacc_warmstart was overwritten after the write");
	free(a);
	hxd_close(c);
}

/* The time is a 1 x 1 array: read as the status has it, and written. */
HX_TRANSPORT_TEST(
    arrays, time_is_a_scalar_array, "-m", "fixture.xml", "--paused", NULL)
{
	hxd_conn *c = hx_connect_ok(addr, "test");
	const double t = 12.5, nan = NAN;
	hxd_status st;
	unsigned taken;
	hxd_array *a;

	HX_OK(c, hxd_step(c, 3, &taken));
	HX_OK(c, hxd_status_get(c, &st));
	a = array_get(c, "data.time");
	cr_assert_eq(a->rows, 1);
	cr_assert_eq(a->cols, 1);
	cr_expect(a->writable);
	cr_expect_eq(
	    a->values[0], st.time, "%g, status %g", a->values[0], st.time);
	cr_expect_gt(a->values[0], 0);
	free(a);
	HX_OK(c, hxd_set_array(c, "time", 0, 1, &t));
	HX_OK(c, hxd_status_get(c, &st));
	cr_expect_eq(st.time, t);
	cr_expect_eq(hxd_set_array(c, "time", 0, 1, &nan), HXD_BADVALUE);
	cr_expect_eq(hxd_set_array(c, "time", 1, 1, &t), HXD_BADSIZE);
	hxd_close(c);
}

HX_TRANSPORT_TEST(arrays, structure_and_computed_arrays_are_denied, "-m",
    "fixture.xml", "--paused", NULL)
{
	hxd_conn *c = hx_connect_ok(addr, "test");

	HX_FAILS(c, array_set1(c, "jnt_type", 0, 2), HXD_DENIED);
	HX_SAYS(c, "jnt_type");
	HX_SAYS(c, "model structure");
	cr_assert_eq(array_value(c, "jnt_type", 0), 3, "a hinge still");

	HX_FAILS(c, array_set1(c, "sensordata", 0, 1), HXD_DENIED);
	HX_SAYS(c, "mj_forward");
	HX_FAILS(c, array_set1(c, "xpos", 3, 1), HXD_DENIED);
	HX_SAYS(c, "overwritten");
	HX_FAILS(c, array_set1(c, "efc_type", 0, 1), HXD_DENIED);
	HX_FAILS(c, array_set1(c, "geom_size", 0, 1), HXD_DENIED);
	HX_SAYS(c, "set_geomsize");
	HX_FAILS(c, array_set1(c, "body_subtreemass", 0, 1), HXD_DENIED);
	HX_SAYS(c, "mj_setConst");
	HX_FAILS(c, array_set1(c, "body_pos", 3, 1), HXD_DENIED);
	HX_FAILS(c, array_set1(c, "mesh_vert", 0, 1), HXD_DENIED);
	hxd_close(c);
}

HX_TRANSPORT_TEST(
    arrays, unknown_names_are_refused, "-m", "fixture.xml", "--paused", NULL)
{
	hxd_conn *c = hx_connect_ok(addr, "test");
	hxd_array *a = (hxd_array *)&a;

	HX_FAILS(c, hxd_get_array(c, "no_such_array", &a), HXD_BADTYPE);
	cr_assert_null(a);
	HX_SAYS(c, "list_arrays");
	HX_FAILS(c, array_set1(c, "no_such_array", 0, 1), HXD_BADTYPE);
	HX_FAILS(c, hxd_get_array(c, "", &a), HXD_BADTYPE);
	HX_FAILS(c, hxd_get_array(c, "contact", &a), HXD_BADTYPE);
	HX_SAYS(c, "get_contact");
	HX_FAILS(c, hxd_get_array(c, "names", &a), HXD_BADTYPE);
	HX_SAYS(c, "id2name");
	/* geom_rgba belongs to the model. */
	HX_FAILS(c, hxd_get_array(c, "data.geom_rgba", &a), HXD_BADTYPE);
	hxd_close(c);
}

HX_TRANSPORT_TEST(arrays, writes_beyond_the_array_are_badsize, "-m",
    "fixture.xml", "--paused", NULL)
{
	const double v[2] = { 0.1, 0.2 };
	hxd_conn *c = hx_connect_ok(addr, "test");
	hxd_state *before = state_get(c), *after;

	HX_FAILS(c, hxd_set_array(c, "qpos", NQ - 1, 2, v), HXD_BADSIZE);
	HX_FAILS(c, hxd_set_array(c, "qpos", NQ, 1, v), HXD_BADSIZE);
	HX_FAILS(c, hxd_set_array(c, "qpos", 1000000, 1, v), HXD_BADSIZE);
	HX_FAILS(c, hxd_set_array(c, "qpos", -1, 1, v), HXD_BADSIZE);
	after = state_get(c);
	cr_assert(memcmp(before->qpos, after->qpos, NQ * sizeof(double)) == 0,
	    "a refused write changed qpos");
	/* The last element is within it (of qvel: qpos ends in a
	 * quaternion, which mj_forward normalises). */
	HX_OK(c, hxd_set_array(c, "qvel", NV - 1, 1, v));
	free(after);
	after = state_get(c);
	cr_assert_eq(after->qvel[NV - 1], 0.1);
	free(before);
	free(after);
	hxd_close(c);
}

HX_TRANSPORT_TEST(
    arrays, bad_values_are_refused, "-m", "fixture.xml", "--paused", NULL)
{
	const double partial[2] = { 0.4, NAN };
	const double inverted[2] = { 1, -1 };
	const double zero[4] = { 0, 0, 0, 0 };
	hxd_conn *c = hx_connect_ok(addr, "test");

	HX_FAILS(c, array_set1(c, "qpos", 0, NAN), HXD_BADVALUE);
	HX_FAILS(c, array_set1(c, "qvel", 0, INFINITY), HXD_BADVALUE);
	HX_FAILS(c, array_set1(c, "geom_rgba", 0, -INFINITY), HXD_BADVALUE);
	/* Nothing of a write is applied unless all of it is valid. */
	HX_FAILS(c, hxd_set_array(c, "qpos", 0, 2, partial), HXD_BADVALUE);
	cr_assert_eq(array_value(c, "qpos", 0), 0);

	/* Ints and bytes take whole numbers in their range. */
	HX_FAILS(c, array_set1(c, "geom_contype", GEOM_BOX, 0.5), HXD_BADVALUE);
	HX_SAYS(c, "whole");
	HX_FAILS(c, array_set1(c, "geom_contype", GEOM_BOX, 3e9), HXD_BADVALUE);
	HX_FAILS(c, array_set1(c, "eq_active", 0, 256), HXD_BADVALUE);
	HX_FAILS(c, array_set1(c, "eq_active", 0, 2), HXD_BADVALUE);
	HX_FAILS(c, array_set1(c, "eq_active", 0, -1), HXD_BADVALUE);
	cr_assert_eq(array_value(c, "geom_contype", GEOM_BOX), 1);
	cr_assert_eq(array_value(c, "eq_active", 0), 0);

	/* Domains: no negative damping, colours 0 to 1, ordered ranges. */
	HX_FAILS(c, array_set1(c, "dof_damping", 0, -1), HXD_BADVALUE);
	HX_FAILS(c, array_set1(c, "geom_rgba", 0, 1.5), HXD_BADVALUE);
	HX_FAILS(c, hxd_set_array(c, "actuator_ctrlrange", 0, 2, inverted),
	    HXD_BADVALUE);
	/* Half a range is checked with the other half as it is: (2, 1). */
	HX_FAILS(c, array_set1(c, "actuator_ctrlrange", 0, 2), HXD_BADVALUE);
	HX_FAILS(c, hxd_set_array(c, "mocap_quat", 0, 4, zero), HXD_BADVALUE);
	HX_SAYS(c, "quaternion");
	HX_NEAR(array_value(c, "actuator_ctrlrange", 0), -1, 0);
	HX_NEAR(array_value(c, "dof_damping", 0), 0.1, 1e-15);
	hxd_close(c);
}

HX_TRANSPORT_TEST(
    arrays, int_arrays_change_collisions, "-m", "fixture.xml", "--paused", NULL)
{
	hxd_conn *c = hx_connect_ok(addr, "test");
	hxd_state *st;
	unsigned taken;

	/* The box rests on the floor... */
	HX_OK(c, hxd_step(c, 200, &taken));
	st = state_get(c);
	HX_NEAR(st->qpos[BOX_QPOS + 2], 0.1, 0.01);
	free(st);

	/* ...until it collides with nothing: then it falls through. */
	HX_OK(c, array_set1(c, "geom_contype", GEOM_BOX, 0));
	HX_OK(c, array_set1(c, "geom_conaffinity", GEOM_BOX, 0));
	cr_assert_eq(array_value(c, "geom_contype", GEOM_BOX), 0);
	cr_assert_eq(array_value(c, "geom_conaffinity", GEOM_BOX), 0);
	HX_OK(c, hxd_step(c, 200, &taken));
	st = state_get(c);
	cr_assert_lt(st->qpos[BOX_QPOS + 2], -0.5, "the box is at z = %g",
	    st->qpos[BOX_QPOS + 2]);
	free(st);

	/* A byte flag: eq_active enables the equality like `equality`. */
	HX_OK(c, array_set1(c, "eq_active", 0, 1));
	cr_assert_eq(array_value(c, "eq_active", 0), 1);
	hxd_close(c);
}

HX_TRANSPORT_TEST(arrays, model_parameters_change_the_dynamics, "-m",
    "fixture.xml", "--paused", NULL)
{
	const double rgba[4] = { 0.1, 0.2, 0.3, 0.4 };
	double qpos[NQ] = { 0, 0, 0.6, 0, 0.1, 1, 0, 0, 0 };
	double qvel[NV] = { 1, 0 };
	hxd_state in = { .nq = NQ, .nv = NV, .qpos = qpos, .qvel = qvel };
	hxd_conn *c = hx_connect_ok(addr, "test");
	hxd_force *f = NULL;
	double got[4];
	hxd_array *a;
	int i;

	/* Damping 0.1 (the fixture's), then 7: passive force -b qvel. */
	HX_OK(c, hxd_set_state(c, &in));
	HX_OK(c, hxd_get_force(c, &f));
	HX_NEAR(f->passive[0], -0.1, 1e-12);
	free(f);
	HX_OK(c, array_set1(c, "dof_damping", 0, 7));
	HX_OK(c, hxd_get_force(c, &f));
	HX_NEAR(f->passive[0], -7, 1e-12);
	free(f);

	/* Colours are floats: they read back as floats. */
	HX_OK(c, hxd_set_array(c, "geom_rgba", 4 * GEOM_LINK1, 4, rgba));
	a = array_get(c, "geom_rgba");
	for (i = 0; i < 4; i++)
		cr_assert_eq(
		    a->values[4 * GEOM_LINK1 + i], (double)(float)rgba[i]);
	free(a);
	HX_OK(c, hxd_get_rgba(c, HXD_OBJ_GEOM, GEOM_LINK1, got));
	for (i = 0; i < 4; i++)
		HX_NEAR(got[i], rgba[i], 1e-7);
	hxd_close(c);
}

HX_TRANSPORT_TEST(arrays, body_mass_recomputes_the_constants, "-m",
    "fixture.xml", "--paused", NULL)
{
	double qpos[NQ] = { 0.4, -0.2, 0.6, 0, 0.1, 1, 0, 0, 0 };
	hxd_state in = { .nq = NQ, .nv = NV, .qpos = qpos };
	double qvel[NV] = { 0 };
	hxd_conn *c = hx_connect_ok(addr, "test");
	double total;
	hxd_state *st;
	hxd_force *f = NULL;

	in.qvel = qvel;
	HX_OK(c, hxd_set_state(c, &in));
	total = array_value(c, "body_subtreemass", BODY_WORLD);
	HX_NEAR(array_value(c, "body_mass", BODY_BOX), 1, 1e-12);

	HX_OK(c, array_set1(c, "body_mass", BODY_BOX, 3));
	HX_NEAR(array_value(c, "body_mass", BODY_BOX), 3, 0);
	/* mj_setConst ran: the subtree masses include the new mass. */
	HX_NEAR(
	    array_value(c, "body_subtreemass", BODY_WORLD), total + 2, 1e-12);
	HX_NEAR(array_value(c, "body_subtreemass", BODY_BOX), 3, 1e-12);
	/* The state survived it (mj_setConst works at qpos0). */
	st = state_get(c);
	cr_assert(memcmp(st->qpos, qpos, sizeof(qpos)) == 0,
	    "qpos changed: %g %g", st->qpos[0], st->qpos[1]);
	free(st);
	/* And mj_forward: the box's weight is 3 g now. */
	HX_OK(c, hxd_get_force(c, &f));
	HX_NEAR(f->bias[BOX_QVEL + 2], 3 * GRAVITY, 1e-9);
	free(f);
	hxd_close(c);
}

/* Two free balls held together by a connect equality. */
static const char connect_xml
    [] = "<mujoco><worldbody>"
	 "<body name='a' pos='0 0 1'><freejoint/><geom size='.1'/></body>"
	 "<body name='b' pos='1 0 1'><freejoint/><geom size='.1'/></body>"
	 "</worldbody><equality>"
	 "<connect body1='a' body2='b' anchor='0.5 0 0'/>"
	 "</equality></mujoco>";

HX_TRANSPORT_TEST(arrays, body_mass_keeps_written_eq_data, "-m", "fixture.xml",
    "--paused", NULL)
{
	const double anchor2[3] = { -0.2, 0, 0 };
	hxd_conn *c = hx_connect_ok(addr, "test");
	hxd_model m;
	hxd_array *a;

	HX_OK(c,
	    hxd_load_data(c, HXD_FORMAT_MJCF, connect_xml, strlen(connect_xml),
		"connect", &m));
	/* The compiler put the second anchor in body b's frame. */
	HX_NEAR(array_value(c, "eq_data", 3), -0.5, 1e-12);
	HX_OK(c, hxd_set_array(c, "eq_data", 3, 3, anchor2));
	/* mj_setConst would compute it again: the daemon keeps the write. */
	HX_OK(c, array_set1(c, "body_mass", 1, 2));
	a = array_get(c, "eq_data");
	cr_assert_eq(a->values[0], 0.5);
	cr_assert(memcmp(a->values + 3, anchor2, sizeof(anchor2)) == 0,
	    "eq_data[3] is %g after the body_mass write", a->values[3]);
	free(a);
	HX_NEAR(array_value(c, "body_subtreemass", 0),
	    2 + array_value(c, "body_mass", 2), 1e-12);
	hxd_close(c);
}

HX_TRANSPORT_TEST(arrays, whole_array_writes_take_the_rest, "-m", "fixture.xml",
    "--paused", NULL)
{
	const double key[NQ] = { 0.1, 0.2, 0.6, 0, 0.1, 1, 0, 0, 0 };
	hxd_conn *c = hx_connect_ok(addr, "test");
	hxd_state *st;
	hxd_array *a;

	/* Count 0: from offset to the end of the array (row 1 of 2). */
	HX_OK(c, hxd_set_array(c, "key_qpos", NQ, 0, key));
	a = array_get(c, "key_qpos");
	cr_assert(memcmp(a->values + NQ, key, sizeof(key)) == 0);
	cr_assert_eq(a->values[0], 0.5, "keyframe 0 is untouched");
	free(a);
	/* The keyframe is what reset uses. */
	HX_OK(c, hxd_reset(c, 1));
	st = state_get(c);
	cr_assert(memcmp(st->qpos, key, sizeof(key)) == 0);
	free(st);
	hxd_close(c);
}

/*------------------------------------------------------------- robustness */

HX_TRANSPORT_TEST(arrays, bad_calls_leave_other_clients_working, "-m",
    "fixture.xml", "--paused", NULL)
{
	const double two[2] = { 1, 2 };
	hxd_conn *bad = hx_connect_ok(addr, "test"),
		 *good = hx_connect_ok(addr, "test");
	hxd_array *a = NULL;
	int i;

	for (i = 0; i < 20; i++) {
		HX_FAILS(bad, hxd_get_array(bad, "nope", &a), HXD_BADTYPE);
		HX_FAILS(bad, array_set1(bad, "qpos", 0, NAN), HXD_BADVALUE);
		HX_FAILS(bad, array_set1(bad, "jnt_type", 0, 1), HXD_DENIED);
		HX_FAILS(
		    bad, hxd_set_array(bad, "ctrl", 1, 2, two), HXD_BADSIZE);
		HX_OK(good, array_set1(good, "ctrl", 0, 0.01 * i));
		cr_assert_eq(array_value(good, "ctrl", 0), 0.01 * i);
	}
	/* The one that failed so often still works too. */
	HX_OK(bad, array_set1(bad, "ctrl", 1, -1));
	cr_assert_eq(array_value(good, "ctrl", 1), -1);
	hxd_close(bad);
	hxd_close(good);
}

HX_TRANSPORT_TEST(arrays, answers_beyond_the_frame_limit_are_badsize, "-m",
    "fixture.xml", "--paused", "--max-frame", "4096", NULL)
{
	hxd_conn *c = hx_connect_ok(addr, "test");
	hxd_array *list = NULL;
	int n = -1;

	/* Some 370 descriptions do not fit in 4 KiB. */
	HX_FAILS(c, hxd_list_arrays(c, &list, &n), HXD_BADSIZE);
	cr_assert_null(list);
	cr_assert_eq(n, 0);
	cr_assert_eq(array_value(c, "qpos", BOX_QPOS + 2), 0.1);
	hxd_close(c);
}

HX_TRANSPORT_TEST(arrays, writes_need_the_lease_reads_do_not, "-m",
    "fixture.xml", "--paused", NULL)
{
	hxd_conn *holder = hx_connect_ok(addr, "test"),
		 *other = hx_connect_ok(addr, "test");
	hxd_lease_info li;

	HX_OK(holder, hxd_lease(holder, HXD_LEASE_TAKE, &li));
	HX_FAILS(other, array_set1(other, "ctrl", 0, 0.5), HXD_DENIED);
	HX_SAYS(other, "lease");
	cr_assert_eq(array_value(other, "ctrl", 0), 0, "read while leased");
	HX_OK(holder, array_set1(holder, "ctrl", 0, 0.25));
	cr_assert_eq(array_value(other, "ctrl", 0), 0.25);
	HX_OK(holder, hxd_lease(holder, HXD_LEASE_RELEASE, &li));
	HX_OK(other, array_set1(other, "ctrl", 0, 0.5));
	cr_assert_eq(array_value(holder, "ctrl", 0), 0.5);
	hxd_close(holder);
	hxd_close(other);
}

/*
 * A reset after a trial that changed the model's parameters leaves the
 * state a reset of the untouched model does, bit for bit, the solver's
 * warm start included (hxsweep found trials that depended on the one
 * before): the parameters go back before the reset's forward pass, not
 * after it, where that pass had computed the warm start with the
 * trial's gains.
 */
HX_TRANSPORT_TEST(arrays, a_reset_forgets_the_trial_before, "-m",
    "mpl_scene.xml", "--paused", NULL)
{
	hxd_conn *c = hx_connect_ok(addr, "test_arrays");
	unsigned long long fresh, after;
	double gain = 50, damping = 0.3;
	int u, dof;

	HX_OK(c, hxd_reset(c, -1));
	HX_OK(c, hxd_state_hash(c, &fresh, NULL, NULL));
	HX_OK(c, hxd_name2id(c, HXD_OBJ_ACTUATOR, "A_index_MCP", &u));
	HX_OK(c, hxd_name2id(c, HXD_OBJ_JOINT, "index_MCP", &dof));
	HX_OK(c, hxd_set_array(c, "actuator_gainprm", 10 * u, 1, &gain));
	HX_OK(c, hxd_set_array(c, "dof_damping", dof, 1, &damping));
	HX_OK(c, hxd_step(c, 150, NULL));
	HX_OK(c, hxd_reset(c, -1));
	HX_OK(c, hxd_state_hash(c, &after, NULL, NULL));
	cr_expect_eq(after, fresh,
	    "the state after the trial's reset differs from a fresh reset");
	hxd_close(c);
}

/*------------------------------------------------------- the options */

/*
 * Every field of mjOption (mjxmacro.h's MJOPTION_FLOATS, _INTS and
 * _VECTORS) set away from MuJoCo's default, for the options' tests.
 */
static const char opts_xml
    [] = "<mujoco model=\"opts\">"
	 "<option timestep=\"0.004\" apirate=\"25\" impratio=\"2\""
	 " tolerance=\"1e-9\" noslip_tolerance=\"1e-5\" mpr_tolerance=\"2e-6\""
	 " density=\"1.2\" viscosity=\"2e-5\" o_margin=\"0.001\""
	 " integrator=\"RK4\" collision=\"predefined\" cone=\"elliptic\""
	 " jacobian=\"sparse\" solver=\"CG\" iterations=\"77\""
	 " noslip_iterations=\"3\" mpr_iterations=\"40\" gravity=\"0 0 -5\""
	 " wind=\"1 0 0\" magnetic=\"0 0.5 0\" o_solref=\"0.03 1.1\""
	 " o_solimp=\"0.8 0.9 0.002 0.4 3\">"
	 "<flag warmstart=\"disable\" gravity=\"disable\" energy=\"enable\"/>"
	 "</option>"
	 "<worldbody><body name=\"ball\" pos=\"0 0 10\"><freejoint/>"
	 "<geom type=\"sphere\" size=\"0.1\" mass=\"1\"/></body></worldbody>"
	 "</mujoco>";

/* An option as opts_xml sets it: its type, columns and values. */
static const struct opt_expect {
	const char *name;
	int type, cols;
	double v[5];
} opt_expected[] = {
	{ "opt.timestep", HXD_ARRAY_DOUBLE, 1, { 0.004 } },
	{ "opt.apirate", HXD_ARRAY_DOUBLE, 1, { 25 } },
	{ "opt.impratio", HXD_ARRAY_DOUBLE, 1, { 2 } },
	{ "opt.tolerance", HXD_ARRAY_DOUBLE, 1, { 1e-9 } },
	{ "opt.noslip_tolerance", HXD_ARRAY_DOUBLE, 1, { 1e-5 } },
	{ "opt.mpr_tolerance", HXD_ARRAY_DOUBLE, 1, { 2e-6 } },
	{ "opt.density", HXD_ARRAY_DOUBLE, 1, { 1.2 } },
	{ "opt.viscosity", HXD_ARRAY_DOUBLE, 1, { 2e-5 } },
	{ "opt.o_margin", HXD_ARRAY_DOUBLE, 1, { 0.001 } },
	{ "opt.integrator", HXD_ARRAY_INT, 1, { 1 } }, /* mjINT_RK4 */
	{ "opt.collision", HXD_ARRAY_INT, 1, { 1 } },  /* mjCOL_PAIR */
	{ "opt.cone", HXD_ARRAY_INT, 1, { 1 } },       /* mjCONE_ELLIPTIC */
	{ "opt.jacobian", HXD_ARRAY_INT, 1, { 1 } },   /* mjJAC_SPARSE */
	{ "opt.solver", HXD_ARRAY_INT, 1, { 1 } },     /* mjSOL_CG */
	{ "opt.iterations", HXD_ARRAY_INT, 1, { 77 } },
	{ "opt.noslip_iterations", HXD_ARRAY_INT, 1, { 3 } },
	{ "opt.mpr_iterations", HXD_ARRAY_INT, 1, { 40 } },
	/* mjDSBL_GRAVITY | mjDSBL_WARMSTART; mjENBL_ENERGY */
	{ "opt.disableflags", HXD_ARRAY_INT, 1, { 64 + 256 } },
	{ "opt.enableflags", HXD_ARRAY_INT, 1, { 2 } },
	{ "opt.gravity", HXD_ARRAY_DOUBLE, 3, { 0, 0, -5 } },
	{ "opt.wind", HXD_ARRAY_DOUBLE, 3, { 1, 0, 0 } },
	{ "opt.magnetic", HXD_ARRAY_DOUBLE, 3, { 0, 0.5, 0 } },
	{ "opt.o_solref", HXD_ARRAY_DOUBLE, 2, { 0.03, 1.1 } },
	{ "opt.o_solimp", HXD_ARRAY_DOUBLE, 5, { 0.8, 0.9, 0.002, 0.4, 3 } },
};

#define NOPT (sizeof(opt_expected) / sizeof(opt_expected[0]))

HX_TRANSPORT_TEST(arrays, options_are_arrays_with_the_models_values, "-m",
    "fixture.xml", "--paused", NULL)
{
	hxd_conn *c = hx_connect_ok(addr, "test");
	const struct opt_expect *e;
	hxd_array *list = NULL, *a;
	size_t k;
	int n = 0, i, j, found;

	HX_OK(c,
	    hxd_load_data(
		c, HXD_FORMAT_MJCF, opts_xml, strlen(opts_xml), "opts", NULL));
	HX_OK(c, hxd_list_arrays(c, &list, &n));
	for (k = 0; k < NOPT; k++) {
		e = &opt_expected[k];
		for (i = 0, found = 0; i < n && !found; i++) {
			if (strcmp(list[i].name, e->name) != 0)
				continue;
			found = 1;
			cr_expect_str_eq(list[i].owner, "model", "%s", e->name);
			cr_expect_eq(list[i].type, e->type, "%s", e->name);
			cr_expect_eq(list[i].rows, 1, "%s", e->name);
			cr_expect_eq(list[i].cols, e->cols, "%s", e->name);
			cr_expect(list[i].writable, "%s", e->name);
		}
		cr_expect(found, "%s is not listed", e->name);
		/* The values as the MJCF's <option> gave them. */
		a = array_get(c, e->name);
		cr_assert_eq(a->rows * a->cols, e->cols, "%s", e->name);
		for (j = 0; j < e->cols; j++)
			cr_expect_eq(a->values[j], e->v[j], "%s[%d] = %.17g",
			    e->name, j, a->values[j]);
		free(a);
		/* And by the owner's prefix. */
		{
			char name[64];

			snprintf(name, sizeof(name), "model.%s", e->name);
			cr_expect_eq(
			    array_value(c, name, 0), e->v[0], "%s", name);
		}
	}
	/* Every option is listed: no more than these. */
	for (i = 0, found = 0; i < n; i++)
		found += strncmp(list[i].name, "opt.", 4) == 0;
	cr_expect_eq(found, (int)NOPT, "%d options listed", found);
	free(list);
	HX_FAILS_WITH(c, hxd_get_array(c, "data.opt.timestep", &a), HXD_BADTYPE,
	    "list_arrays");
	hxd_close(c);
}

/* The status's timestep and simulated time. */
static void
status_time(hxd_conn *c, double *timestep, double *time)
{
	hxd_status st = hx_status_ok(c);

	*timestep = st.model.timestep;
	*time = st.time;
}

HX_TRANSPORT_TEST(arrays, a_timestep_write_changes_the_step, "-m",
    "fixture.xml", "--paused", NULL)
{
	hxd_conn *c = hx_connect_ok(addr, "test");
	double dt, t, t0;
	hxd_status st;
	unsigned taken;

	status_time(c, &dt, &t0);
	cr_assert_eq(dt, 0.002);
	HX_OK(c, hxd_step(c, 10, &taken));
	status_time(c, &dt, &t);
	HX_NEAR(t - t0, 10 * 0.002, 1e-12);
	/* Twice the timestep: the status says so, and a step goes twice as
	 * far in simulated time. */
	HX_OK(c, array_set1(c, "opt.timestep", 0, 0.004));
	status_time(c, &dt, &t0);
	cr_assert_eq(dt, 0.004);
	HX_OK(c, hxd_step(c, 10, &taken));
	cr_assert_eq(taken, 10);
	status_time(c, &dt, &t);
	HX_NEAR(t - t0, 10 * 0.004, 1e-12);
	/* The API rate too: the status reports the model's new one. */
	HX_OK(c, array_set1(c, "opt.apirate", 0, 100));
	st = hx_status_ok(c);
	cr_assert_eq(st.model.apirate, 100);
	cr_assert_eq(array_value(c, "opt.apirate", 0), 100);
	hxd_close(c);
}

/* Simulated seconds per wall second over about ms milliseconds. */
static double
measured_rate(hxd_conn *c, int ms)
{
	double dt, t0, t1, w0, w1;

	status_time(c, &dt, &t0);
	w0 = hx_wall_now();
	hx_sleep_ms(ms);
	status_time(c, &dt, &t1);
	w1 = hx_wall_now();
	return (t1 - t0) / (w1 - w0);
}

/*
 * Running, a timestep written is the pacing's at once: a step twice as
 * long is taken half as often, and a step four times shorter four times
 * as often, so that simulated time keeps up with the wall clock (the
 * clock did not follow: 2 and 0.25).  The bounds are generous.
 */
HX_TRANSPORT_TEST(
    arrays, pacing_follows_a_timestep_write, "-m", "fixture.xml", NULL)
{
	hxd_conn *c = hx_connect_ok(addr, "test");
	hxd_status st;
	double rate;

	HX_OK(c, array_set1(c, "opt.timestep", 0, 0.004));
	hx_sleep_ms(1200);
	rate = measured_rate(c, 1000);
	cr_expect(rate > 0.6 && rate < 1.5,
	    "timestep 0.004: %g simulated seconds per second", rate);
	st = hx_status_ok(c);
	cr_expect(st.realtime_factor > 0.6 && st.realtime_factor < 1.5,
	    "timestep 0.004: real-time factor %g", st.realtime_factor);
	cr_expect_eq(st.model.timestep, 0.004);
	cr_log_info("timestep 0.004: %.3f s/s, real-time factor %.3f", rate,
	    st.realtime_factor);

	HX_OK(c, array_set1(c, "opt.timestep", 0, 0.0005));
	hx_sleep_ms(1200);
	rate = measured_rate(c, 1000);
	cr_expect(rate > 0.6 && rate < 1.5,
	    "timestep 0.0005: %g simulated seconds per second", rate);
	st = hx_status_ok(c);
	cr_expect(st.realtime_factor > 0.6 && st.realtime_factor < 1.5,
	    "timestep 0.0005: real-time factor %g", st.realtime_factor);
	cr_log_info("timestep 0.0005: %.3f s/s, real-time factor %.3f", rate,
	    st.realtime_factor);
	hxd_close(c);
}

/*
 * The shortest time between the answers of eight updates, running: the
 * API tick's period, unless a slow machine made each miss a tick.
 */
static double
update_period(hxd_conn *c)
{
	double t[8], least = 1e9;
	hxd_sensor *s;
	int i;

	for (i = 0; i < 8; i++) {
		HX_OK(c, hxd_update(c, NULL, &s));
		t[i] = s->time;
		free(s);
		if (i > 0 && t[i] - t[i - 1] < least)
			least = t[i] - t[i - 1];
	}
	return least;
}

/*
 * The API tick follows the options: every round(1 / (apirate x timestep))
 * steps, an update answered at each.  The fixture's 50 Hz of 2 ms steps
 * is every 10 steps; 20 Hz of 4 ms steps every 13 (0.052 s), where the
 * old timestep's count (25) would give 0.1 s.
 */
HX_TRANSPORT_TEST(
    arrays, the_api_tick_follows_the_options, "-m", "fixture.xml", NULL)
{
	hxd_conn *c = hx_connect_ok(addr, "test");

	HX_NEAR(update_period(c), 10 * 0.002, 1e-9);
	HX_OK(c, array_set1(c, "opt.apirate", 0, 20));
	HX_OK(c, array_set1(c, "opt.timestep", 0, 0.004));
	HX_NEAR(update_period(c), 13 * 0.004, 1e-9);
	/* Below 1 Hz there is no tick: an update is answered at once. */
	HX_OK(c, array_set1(c, "opt.apirate", 0, 0));
	cr_assert_eq(hx_status_ok(c).model.apirate, 0);
	update_period(c);
	hxd_close(c);
}

/* The steps of the frames of subscription id that come within 300 ms. */
static int
frame_steps(hxd_conn *c, unsigned id, unsigned long long *steps, int max)
{
	hxd_event *ev = NULL;
	int n = 0;

	while (hxd_next_event(c, 300, &ev) == HXD_OK) {
		cr_assert_eq(ev->kind, HXD_EVENT_FRAME, "event %d", ev->kind);
		cr_assert_eq(ev->frame->subscription, id);
		cr_assert_lt(n, max);
		steps[n++] = ev->frame->step;
		hxd_event_free(ev);
		ev = NULL;
	}
	return n;
}

/* A stream at a rate in simulated time follows the timestep written. */
HX_TRANSPORT_TEST(arrays, streams_follow_a_timestep_write, "-m", "fixture.xml",
    "--paused", NULL)
{
	hxd_conn *c = hx_connect_ok(addr, "test");
	hxd_subscription sub = { HXD_FIELDS(HXD_FIELD_QPOS), 0, 100, 0, 0 };
	unsigned long long steps[16];
	unsigned id, taken;
	int n;

	/* 100 Hz of 2 ms steps: every 5 steps, from the first frame. */
	HX_OK(c, hxd_subscribe(c, &sub, &id));
	HX_OK(c, hxd_step(c, 10, &taken));
	n = frame_steps(c, id, steps, 16);
	cr_assert_eq(n, 3, "%d frames in 10 steps of 2 ms", n);
	cr_expect_eq(steps[2], 10);
	/* 100 Hz of 5 ms steps: every 2 steps, counted from the write. */
	HX_OK(c, array_set1(c, "opt.timestep", 0, 0.005));
	HX_OK(c, hxd_step(c, 6, &taken));
	n = frame_steps(c, id, steps, 16);
	cr_assert_eq(n, 3, "%d frames in 6 steps of 5 ms", n);
	cr_expect_eq(steps[0], 12);
	cr_expect_eq(steps[1], 14);
	cr_expect_eq(steps[2], 16);
	hxd_close(c);
}

/* Drop the fixture's box from 5 m at rest; its vertical speed after n
 * steps. */
static double
box_fall(hxd_conn *c, unsigned n)
{
	double z = 5, zero = 0;
	unsigned taken;
	int i;

	HX_OK(c, array_set1(c, "qpos", BOX_QPOS + 2, z));
	for (i = 0; i < 6; i++)
		HX_OK(c, array_set1(c, "qvel", i + 2, zero));
	HX_OK(c, hxd_step(c, n, &taken));
	cr_assert_eq(taken, n);
	return array_value(c, "qvel", BOX_QVEL + 2);
}

HX_TRANSPORT_TEST(arrays, a_gravity_write_changes_the_fall, "-m", "fixture.xml",
    "--paused", NULL)
{
	hxd_conn *c = hx_connect_ok(addr, "test");
	const double g[3] = { 0, 0, -2 };

	/* 100 steps of 2 ms in free fall: v = g t. */
	HX_NEAR(box_fall(c, 100), -GRAVITY * 0.2, 1e-9);
	HX_OK(c, hxd_set_array(c, "opt.gravity", 0, 3, g));
	/* mj_forward followed: the acceleration is the new one at once. */
	HX_NEAR(array_value(c, "qacc", BOX_QVEL + 2), -2, 1e-9);
	HX_NEAR(box_fall(c, 100), -2 * 0.2, 1e-9);
	/* Gravity off by its flag (mjDSBL_GRAVITY): no fall at all. */
	HX_OK(c, array_set1(c, "opt.disableflags", 0, 64));
	HX_NEAR(box_fall(c, 100), 0, 1e-12);
	hxd_close(c);
}

HX_TRANSPORT_TEST(arrays, option_refusals_name_the_field, "-m", "fixture.xml",
    "--paused", NULL)
{
	static const struct {
		const char *name;
		int offset;
		double v;
		const char *says;
	} bad[] = {
		{ "opt.timestep", 0, -0.001, "timestep" },
		{ "opt.timestep", 0, 0, "timestep" },
		{ "opt.timestep", 0, 10, "timestep" },
		{ "opt.timestep", 0, NAN, "finite" },
		{ "opt.apirate", 0, -1, "API rate" },
		{ "opt.impratio", 0, 0, "positive" },
		{ "opt.tolerance", 0, -1e-8, "negative" },
		{ "opt.density", 0, -1, "negative" },
		{ "opt.viscosity", 0, -1, "negative" },
		{ "opt.o_margin", 0, -0.1, "negative" },
		{ "opt.integrator", 0, 3, "RK4" },
		{ "opt.integrator", 0, -1, "Euler" },
		{ "opt.integrator", 0, 0.5, "whole" },
		{ "opt.collision", 0, 3, "dynamic" },
		{ "opt.cone", 0, 2, "elliptic" },
		{ "opt.jacobian", 0, 3, "sparse" },
		{ "opt.solver", 0, 3, "Newton" },
		{ "opt.iterations", 0, -1, "iterations" },
		{ "opt.iterations", 0, 1001, "iterations" },
		{ "opt.noslip_iterations", 0, 5000, "iterations" },
		{ "opt.mpr_iterations", 0, -3, "iterations" },
		{ "opt.disableflags", 0, 1 << 13, "mjtDisableBit" },
		{ "opt.disableflags", 0, -1, "mjtDisableBit" },
		{ "opt.enableflags", 0, 1 << 5, "mjtEnableBit" },
		{ "opt.gravity", 2, INFINITY, "finite" },
		{ "opt.wind", 0, NAN, "finite" },
		{ "opt.o_solref", 1, -1, "mixed" },
		{ "opt.o_solimp", 0, 1, "dmin" },
		{ "opt.o_solimp", 2, -1, "width" },
		{ "opt.o_solimp", 3, 0, "midpoint" },
		{ "opt.o_solimp", 4, 0.5, "power" },
	};
	hxd_conn *c = hx_connect_ok(addr, "test");
	hxd_array *before, *after;
	size_t k;

	for (k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		before = array_get(c, bad[k].name);
		HX_FAILS(c, array_set1(c, bad[k].name, bad[k].offset, bad[k].v),
		    HXD_BADVALUE);
		/* The field is named (offset: the element), and why. */
		HX_SAYS(c, bad[k].name);
		HX_SAYS(c, bad[k].says);
		after = array_get(c, bad[k].name);
		cr_assert(memcmp(before->values, after->values,
			      (size_t)before->cols * sizeof(double)) == 0,
		    "%s changed though refused", bad[k].name);
		free(before);
		free(after);
	}
	/* What the domains allow is taken: the bounds themselves. */
	HX_OK(c, array_set1(c, "opt.timestep", 0, 1e-6));
	HX_OK(c, array_set1(c, "opt.timestep", 0, 1));
	HX_OK(c, array_set1(c, "opt.iterations", 0, 1000));
	HX_OK(c, array_set1(c, "opt.integrator", 0, 2));
	HX_OK(c, array_set1(c, "opt.disableflags", 0, (1 << 13) - 1));
	HX_OK(c, array_set1(c, "opt.enableflags", 0, (1 << 5) - 1));
	{
		const double direct[2] = { -1000, -10 };

		HX_OK(c, hxd_set_array(c, "opt.o_solref", 0, 2, direct));
	}
	hxd_close(c);
}

/*
 * A value outside an option's domain that the model was loaded with is
 * taken back (a reset restores it, a journal replays that as a write).
 */
HX_TRANSPORT_TEST(arrays, an_option_as_loaded_is_taken_back, "-m",
    "fixture.xml", "--paused", NULL)
{
	static const char
	    xml[] = "<mujoco model=\"slow\"><option timestep=\"2\" "
		    "iterations=\"5000\"/><worldbody><body><freejoint/>"
		    "<geom size=\"0.1\"/></body></worldbody></mujoco>";
	hxd_conn *c = hx_connect_ok(addr, "test");

	HX_OK(c,
	    hxd_load_data(c, HXD_FORMAT_MJCF, xml, strlen(xml), "slow", NULL));
	cr_assert_eq(array_value(c, "opt.timestep", 0), 2);
	HX_OK(c, array_set1(c, "opt.timestep", 0, 0.5));
	HX_FAILS_WITH(c, array_set1(c, "opt.timestep", 0, 3), HXD_BADVALUE,
	    "opt.timestep");
	HX_OK(c, array_set1(c, "opt.timestep", 0, 2));
	HX_OK(c, array_set1(c, "opt.iterations", 0, 100));
	HX_FAILS(c, array_set1(c, "opt.iterations", 0, 4999), HXD_BADVALUE);
	HX_OK(c, array_set1(c, "opt.iterations", 0, 5000));
	hxd_close(c);
}

HX_TRANSPORT_TEST(
    arrays, a_reset_restores_the_options, "-m", "fixture.xml", "--paused", NULL)
{
	const double g[3] = { 1, 2, -3 };
	hxd_conn *c = hx_connect_ok(addr, "test");
	double dt, t;
	hxd_array *a;

	HX_OK(c, array_set1(c, "opt.timestep", 0, 0.001));
	HX_OK(c, hxd_set_array(c, "opt.gravity", 0, 3, g));
	HX_OK(c, array_set1(c, "opt.integrator", 0, 2));
	HX_OK(c, array_set1(c, "opt.enableflags", 0, 1));
	/* A reset that keeps the parameters keeps them. */
	HX_OK(c, hxd_reset_keep(c, -1, NULL));
	cr_assert_eq(array_value(c, "opt.timestep", 0), 0.001);
	cr_assert_eq(array_value(c, "opt.gravity", 2), -3);
	/* A reset restores them, and the status's timestep with them. */
	HX_OK(c, hxd_reset(c, -1));
	cr_assert_eq(array_value(c, "opt.timestep", 0), 0.002);
	a = array_get(c, "opt.gravity");
	cr_assert_eq(a->values[0], 0);
	cr_assert_eq(a->values[1], 0);
	cr_assert_eq(a->values[2], -GRAVITY);
	free(a);
	cr_assert_eq(array_value(c, "opt.integrator", 0), 0);
	cr_assert_eq(array_value(c, "opt.enableflags", 0), 0);
	status_time(c, &dt, &t);
	cr_assert_eq(dt, 0.002);
	HX_OK(c, hxd_step(c, 5, NULL));
	status_time(c, &dt, &t);
	HX_NEAR(t, 5 * 0.002, 1e-12);
	hxd_close(c);
}

/*
 * A step gone bad through an option written since the last good state
 * is undone with the option: gravity of 1e11 makes the box's qacc bad
 * at once, once it is off the floor (60 steps prove that write).
 */
HX_TRANSPORT_TEST(arrays, an_undone_step_undoes_the_options, "-m",
    "fixture.xml", "--paused", NULL)
{
	const double g[3] = { 0, 0, -1e11 };
	hxd_conn *c = hx_connect_ok(addr, "test");
	double dt, t, t0;
	unsigned taken;
	hxd_array *a;

	HX_OK(c, array_set1(c, "qpos", BOX_QPOS + 2, 5));
	HX_OK(c, hxd_step(c, 60, &taken));
	status_time(c, &dt, &t0);
	HX_OK(c, array_set1(c, "opt.timestep", 0, 0.004));
	HX_OK(c, hxd_set_array(c, "opt.gravity", 0, 3, g));
	HX_FAILS_WITH(c, hxd_step(c, 1, &taken), HXD_SIMERROR, "undone");
	a = array_get(c, "opt.gravity");
	cr_expect_eq(
	    a->values[2], -GRAVITY, "gravity %g after the undo", a->values[2]);
	free(a);
	cr_expect_eq(array_value(c, "opt.timestep", 0), 0.002);
	status_time(c, &dt, &t);
	cr_expect_eq(dt, 0.002, "the status's timestep %g after the undo", dt);
	/* The next steps are the model's own again. */
	HX_OK(c, hxd_step(c, 5, &taken));
	status_time(c, &dt, &t);
	HX_NEAR(t - t0, 5 * 0.002, 1e-9);
	hxd_close(c);
}

HX_TRANSPORT_TEST(
    arrays, option_writes_need_the_lease, "-m", "fixture.xml", "--paused", NULL)
{
	hxd_conn *holder = hx_connect_ok(addr, "test"),
		 *other = hx_connect_ok(addr, "test");
	hxd_lease_info li;

	HX_OK(holder, hxd_lease(holder, HXD_LEASE_TAKE, &li));
	HX_FAILS(
	    other, array_set1(other, "opt.timestep", 0, 0.001), HXD_DENIED);
	HX_SAYS(other, "lease");
	cr_assert_eq(array_value(other, "opt.timestep", 0), 0.002);
	HX_OK(holder, array_set1(holder, "opt.timestep", 0, 0.001));
	cr_assert_eq(array_value(other, "opt.timestep", 0), 0.001);
	HX_OK(holder, hxd_lease(holder, HXD_LEASE_RELEASE, &li));
	HX_OK(other, array_set1(other, "opt.timestep", 0, 0.003));
	cr_assert_eq(array_value(holder, "opt.timestep", 0), 0.003);
	hxd_close(holder);
	hxd_close(other);
}

/*
 * A recording with a journal holds option writes as it holds other
 * model writes (model.opt.NAME), and hxplay --verify replays them to the
 * same states bit for bit: a timestep, gravity, the integrator and a
 * flag written between steps, then a reset putting them back.
 */
Test(arrays, a_recording_with_option_writes_verifies)
{
	static const char *const args[] = { "-m", "fixture.xml", "--paused",
		NULL };
	const double g[3] = { 0.5, 0, -4 };
	struct hx_server s;
	struct hx_run r = { 0 };
	hxd_recording rec;
	hxd_conn *c;
	unsigned taken;
	double z = 1.5;

	hx_server_start(&s, args);
	c = hx_connect_ok(s.unix_addr, "driver");
	HX_OK(c, hxd_record_start(c, 0, 0, HXD_RECORD_JOURNAL, &rec));
	HX_OK(c, array_set1(c, "qpos", BOX_QPOS + 2, z));
	HX_OK(c, hxd_step(c, 20, &taken));
	HX_OK(c, array_set1(c, "opt.timestep", 0, 0.003));
	HX_OK(c, hxd_step(c, 20, &taken));
	HX_OK(c, hxd_set_array(c, "opt.gravity", 0, 3, g));
	HX_OK(c, array_set1(c, "opt.integrator", 0, 1));
	HX_OK(c, hxd_step(c, 20, &taken));
	HX_OK(c, array_set1(c, "opt.disableflags", 0, 256)); /* warmstart */
	HX_OK(c, array_set1(c, "opt.integrator", 0, 2));
	HX_OK(c, hxd_step(c, 20, &taken));
	HX_OK(c, hxd_reset(c, -1));
	HX_OK(c, array_set1(c, "qpos", BOX_QPOS + 2, z));
	HX_OK(c, hxd_step(c, 20, &taken));
	HX_OK(c, hxd_record_stop(c, &rec));
	cr_assert_gt(rec.journal_entries, 5);
	hx_run_args(&r, hx_hxplay_path(), "-s", s.unix_addr, "--verify",
	    rec.path, NULL);
	cr_expect_eq(r.status, 0, "exit %d: %s%s", r.status, r.out, r.err);
	cr_expect(strstr(r.out, "bit-identical") != NULL, "%s", r.out);
	hx_run_free(&r);
	hxd_close(c);
	hx_server_stop(&s);
}
