/*
 * Tests of the HAPTIX-compatible API (haptix.h) used the way an old
 * MuJoCo HAPTIX program uses it: one process-wide connection, float
 * structs capped at mjMAXSZ, mjtResult codes, mj_result() and the error
 * handler.  Criterion runs each test in its own process, so each starts
 * unconnected.  The numbers come from models/test/fixture.xml.
 *
 * Only haptix.h is used to talk to the daemon.  haptix.h has no call that
 * reads the on-screen message back, so the message test looks at the
 * daemon's status through the raw protocol client (rawclient.h) as an
 * independent observer; that is the only use of anything beyond haptix.h
 * (check.h is here for HX_NEAR alone).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "check.h"
#include "harness.h"
#include "haptix.h"
#include "rawclient.h"

/* Sizes and ids of fixture.xml. */
#define NQ 9
#define NV 8
#define NU 2
#define NBODY 5
#define NGEOM 7
#define NSENSORDATA 11
#define BODY_LINK1 1
#define BODY_BOX 3
#define GEOM_FLOOR 0
#define GEOM_TETRA 2
#define GEOM_BOX 5
#define BOX_QPOS 2
#define BOX_QVEL 2

/* hinge1's range in fixture.xml (radians). */
#define HINGE1_LIMIT 1.5f

/* Bodies besides the world in the model that exceeds mjMAXSZ. */
#define BIG_BODIES (mjMAXSZ + 1)

static const float qpos0[NQ] = { 0, 0, 0.6f, 0, 0.1f, 1, 0, 0, 0 };

/* A temporary model directory of the running test, if any. */
static char compat_tmpdir[64];

/*
 * A failed assertion leaves the test before its daemon is stopped: stop
 * it here, and remove the model file.
 */
static void
compat_cleanup(void)
{
	char path[128];

	hx_server_cleanup();
	if (compat_tmpdir[0] != '\0') {
		snprintf(path, sizeof(path), "%s/big.xml", compat_tmpdir);
		unlink(path);
		rmdir(compat_tmpdir);
		compat_tmpdir[0] = '\0';
	}
}

TestSuite(compat, .timeout = 60, .fini = compat_cleanup);

/* Assert that an mj_ call returned code, with the library's text if not. */
#define RESULT(call, code) \
	do { \
		mjtResult rc_ = (call); \
		cr_assert_eq(rc_, (code), "%s -> %d, expected %d: %s", #call, \
		    (int)rc_, (int)(code), hx_last_result()); \
		cr_assert_eq(mj_result(), (code), "%s: mj_result", #call); \
	} while (0)

#define OK(call) RESULT(call, mjCOM_OK)

/* Assert that the last result's text contains what. */
#define TEXT_HAS(what) \
	cr_assert_not_null(strstr(hx_last_result(), (what)), \
	    "hx_last_result() is \"%s\", expected it to mention \"%s\"", \
	    hx_last_result(), (what))

/* Allocate a zeroed HAPTIX struct: some are too large for the stack. */
#define NEW(type) ((type *)zalloc(sizeof(type)))

/* calloc() that fails the test when memory is exhausted. */
static void *
zalloc(size_t n)
{
	void *p = calloc(1, n);

	cr_assert_not_null(p, "out of memory");
	return p;
}

/* Connect the process to addr. */
static void
connect_to(const char *addr)
{
	OK(mj_connect(addr));
	cr_assert_eq(mj_connected(), 1);
}

/* Set qpos and qvel with mj_set_state. */
static void
state_set(const float *qpos, const float *qvel)
{
	mjState *s = NEW(mjState);

	s->nq = NQ;
	s->nv = NV;
	s->na = 0;
	memcpy(s->qpos, qpos, NQ * sizeof(float));
	memcpy(s->qvel, qvel, NV * sizeof(float));
	OK(mj_set_state(s));
	free(s);
}

/* The simulation time, from mj_get_state. */
static float
time_now(void)
{
	mjState *s = NEW(mjState);
	float t;

	OK(mj_get_state(s));
	t = s->time;
	free(s);
	return t;
}

/* Error handler: count the calls and keep the last code. */
static int handler_calls;
static int handler_code;

static void
handler(int code)
{
	handler_calls++;
	handler_code = code;
}

/* The message haptixd shows, read by an independent raw client. */
static void
status_message(const char *addr, char *buf, size_t len)
{
	Haptix__V1__Response *r;
	int fd = raw_connect(addr);

	cr_assert_eq(raw_hello(fd, "observer"), HAPTIX__V1__RESULT__RESULT_OK);
	r = raw_call_empty(fd, HAPTIX__V1__REQUEST__CALL_STATUS, 2);
	cr_assert_not_null(r, "no answer to status");
	cr_assert_eq(r->result, HAPTIX__V1__RESULT__RESULT_OK);
	cr_assert_eq(r->payload_case, HAPTIX__V1__RESPONSE__PAYLOAD_STATUS);
	snprintf(buf, len, "%s", r->status->message);
	haptix__v1__response__free_unpacked(r, NULL);
	close(fd);
}

/*-------------------------------------------------------- connection */

Test(compat, calls_before_connect_are_noconnection)
{
	mjState *s = NEW(mjState);
	mjControl *ctl = NEW(mjControl);
	mjInfo *info = NEW(mjInfo);
	float rgba[4];

	cr_assert_eq(mj_connected(), 0);
	RESULT(mj_get_state(s), mjCOM_NOCONNECTION);
	TEXT_HAS("not connected");
	RESULT(mj_info(info), mjCOM_NOCONNECTION);
	RESULT(mj_set_control(ctl), mjCOM_NOCONNECTION);
	RESULT(mj_step(), mjCOM_NOCONNECTION);
	RESULT(mj_reset(-1), mjCOM_NOCONNECTION);
	RESULT(mj_message("hello"), mjCOM_NOCONNECTION);
	RESULT(mj_get_rgba("geom", 0, rgba), mjCOM_NOCONNECTION);
	cr_assert_eq(mj_name2id("body", "box"), -2);
	cr_assert_eq(mj_result(), mjCOM_NOCONNECTION);
	cr_assert_null(mj_id2name("body", 0));
	cr_assert_eq(mj_result(), mjCOM_NOCONNECTION);
	TEXT_HAS("not connected");
	free(s);
	free(ctl);
	free(info);
}

Test(compat, connect_to_no_server_is_noconnection)
{
	mjState *s = NEW(mjState);

	RESULT(mj_connect("unix:/nonexistent-haptixd-dir/hx.sock"),
	    mjCOM_NOCONNECTION);
	TEXT_HAS("no server at");
	cr_assert_eq(mj_connected(), 0);
	RESULT(mj_get_state(s), mjCOM_NOCONNECTION);
	TEXT_HAS("not connected");
	/* Nothing listens on TCP port 1 here. */
	RESULT(mj_connect("127.0.0.1:1"), mjCOM_NOCONNECTION);
	TEXT_HAS("no server at");
	cr_assert_eq(mj_connected(), 0);
	free(s);
}

HX_TRANSPORT_TEST(compat, connect_once_close_and_reconnect, "-m", "fixture.xml",
    "--paused", NULL)
{
	mjState *s = NEW(mjState);

	connect_to(addr);
	RESULT(mj_connect(addr), mjCOM_CONNECTED);
	cr_assert_eq(mj_connected(), 1,
	    "a second mj_connect dropped the first connection");
	OK(mj_get_state(s));
	cr_assert_eq(s->nq, NQ);

	OK(mj_close());
	cr_assert_eq(mj_connected(), 0);
	RESULT(mj_get_state(s), mjCOM_NOCONNECTION);
	TEXT_HAS("not connected");

	OK(mj_connect(addr));
	cr_assert_eq(mj_connected(), 1);
	OK(mj_get_state(s));
	/* The simple API shares the one connection. */
	cr_assert_eq(hx_close(), hxOK);
	cr_assert_eq(mj_connected(), 0);
	cr_assert_eq(hx_connect(addr, 0), hxOK);
	cr_assert_eq(mj_connected(), 1);
	RESULT(mj_connect(addr), mjCOM_CONNECTED);
	OK(mj_close());
	free(s);
}

HX_TRANSPORT_TEST(compat, default_server_comes_from_haptix_server, "-m",
    "fixture.xml", "--paused", NULL)
{
	mjState *s = NEW(mjState);

	setenv("HAPTIX_SERVER", addr, 1);
	OK(mj_connect(NULL));
	OK(mj_get_state(s));
	cr_assert_eq(s->nq, NQ);
	OK(mj_close());
	OK(mj_connect(""));
	OK(mj_get_state(s));
	cr_assert_eq(s->nv, NV);
	OK(mj_close());

	/* The variable is really what is used. */
	setenv("HAPTIX_SERVER", "unix:/nonexistent-haptixd-dir/hx.sock", 1);
	RESULT(mj_connect(NULL), mjCOM_NOCONNECTION);
	TEXT_HAS("no server at");
	unsetenv("HAPTIX_SERVER");
	free(s);
}

HX_TRANSPORT_TEST(compat, handler_sees_every_failure_and_no_success, "-m",
    "fixture.xml", "--paused", NULL)
{
	mjState *s = NEW(mjState);

	mj_handler(handler);
	connect_to(addr);
	OK(mj_get_state(s));
	cr_assert_eq(handler_calls, 0, "the handler ran on success");

	RESULT(mj_reset(2), mjCOM_BADINDEX);
	cr_assert_eq(handler_calls, 1);
	cr_assert_eq(handler_code, mjCOM_BADINDEX);
	TEXT_HAS("mjCOM_BADINDEX");

	OK(mj_step());
	cr_assert_eq(handler_calls, 1, "the handler ran on success");
	cr_assert_str_neq(hx_last_result(), "", "success has a text too");

	cr_assert_eq(mj_name2id("banana", "box"), -2);
	cr_assert_eq(mj_result(), mjCOM_BADTYPE);
	cr_assert_eq(handler_calls, 2);
	cr_assert_eq(handler_code, mjCOM_BADTYPE);

	s->nq = NQ - 1;
	RESULT(mj_set_state(s), mjCOM_BADSIZE);
	cr_assert_eq(handler_calls, 3);
	cr_assert_eq(handler_code, mjCOM_BADSIZE);

	RESULT(mj_connect(addr), mjCOM_CONNECTED);
	cr_assert_eq(handler_calls, 4);
	cr_assert_eq(handler_code, mjCOM_CONNECTED);

	cr_assert_eq(mj_name2id("body", "no such body"), -1);
	cr_assert_eq(mj_result(), mjCOM_OK);
	cr_assert_eq(handler_calls, 4, "a missing name is not an error");

	mj_handler(NULL);
	RESULT(mj_reset(2), mjCOM_BADINDEX);
	cr_assert_eq(handler_calls, 4, "a removed handler ran");
	OK(mj_close());
	free(s);
}

/*-------------------------------------------------------------- info */

HX_TRANSPORT_TEST(
    compat, info_describes_the_fixture, "-m", "fixture.xml", "--paused", NULL)
{
	static const int stype[] = { mjSENS_JOINTPOS, mjSENS_JOINTPOS,
		mjSENS_JOINTVEL, mjSENS_ACTUATORFRC, mjSENS_FRAMEPOS,
		mjSENS_TENDONPOS, mjSENS_ACCELEROMETER };
	static const int sadr[] = { 0, 1, 2, 3, 4, 7, 8 };
	static const int gtype[] = { mjGEOM_PLANE, mjGEOM_HFIELD, mjGEOM_MESH,
		mjGEOM_CAPSULE, mjGEOM_CAPSULE, mjGEOM_BOX, mjGEOM_SPHERE };
	mjInfo *info = NEW(mjInfo);
	int i;

	connect_to(addr);
	OK(mj_info(info));
	cr_assert_eq(info->nq, NQ);
	cr_assert_eq(info->nv, NV);
	cr_assert_eq(info->na, 0);
	cr_assert_eq(info->njnt, 3);
	cr_assert_eq(info->nbody, NBODY);
	cr_assert_eq(info->ngeom, NGEOM);
	cr_assert_eq(info->nsite, 2);
	cr_assert_eq(info->ntendon, 1);
	cr_assert_eq(info->nu, NU);
	cr_assert_eq(info->neq, 1);
	cr_assert_eq(info->nkey, 2);
	cr_assert_eq(info->nmocap, 1);
	cr_assert_eq(info->nsensor, 7);
	cr_assert_eq(info->nsensordata, NSENSORDATA);
	cr_assert_eq(info->nmat, 2);
	cr_assert_eq(info->timestep, 0.002f);
	cr_assert_eq(info->apirate, 50.0f);

	for (i = 0; i < 7; i++) {
		cr_assert_eq(info->sensor_type[i], stype[i],
		    "sensor %d type %d", i, info->sensor_type[i]);
		cr_assert_eq(info->sensor_adr[i], sadr[i]);
	}
	cr_assert_eq(info->sensor_dim[4], 3);
	cr_assert_eq(info->sensor_objid[4], 1, "tip_pos is at site tip");

	cr_assert_eq(info->jnt_type[0], mjJNT_HINGE);
	cr_assert_eq(info->jnt_type[2], mjJNT_FREE);
	cr_assert_eq(info->jnt_bodyid[2], BODY_BOX);
	cr_assert_eq(info->jnt_qposadr[2], BOX_QPOS);
	cr_assert_eq(info->jnt_dofadr[2], BOX_QVEL);
	/* Limited hinge1 has its range; unlimited joints have (0, 0). */
	cr_assert_eq(info->jnt_range[0][0], -HINGE1_LIMIT);
	cr_assert_eq(info->jnt_range[0][1], HINGE1_LIMIT);
	cr_assert_eq(info->jnt_range[1][0], 0.0f);
	cr_assert_eq(info->jnt_range[1][1], 0.0f);
	cr_assert_eq(info->jnt_range[2][0], 0.0f);
	cr_assert_eq(info->jnt_range[2][1], 0.0f);

	for (i = 0; i < NGEOM; i++)
		cr_assert_eq(info->geom_type[i], gtype[i], "geom %d", i);
	cr_assert_eq(info->geom_bodyid[GEOM_BOX], BODY_BOX);

	cr_assert_eq(info->eq_type[0], mjEQ_JOINT);
	cr_assert_eq(info->eq_obj1id[0], 1);
	cr_assert_eq(info->eq_obj2id[0], 0);

	cr_assert_eq(info->actuator_trntype[0], mjTRN_JOINT);
	cr_assert_eq(info->actuator_trnid[1][0], 1);
	cr_assert_eq(info->actuator_ctrlrange[0][0], -1.0f);
	cr_assert_eq(info->actuator_ctrlrange[0][1], 1.0f);
	cr_assert_eq(info->actuator_ctrlrange[1][0], -2.0f);
	cr_assert_eq(info->actuator_ctrlrange[1][1], 2.0f);
	OK(mj_close());
	free(info);
}

/*------------------------------------------- state, control, applied */

HX_TRANSPORT_TEST(
    compat, state_round_trips_in_float, "-m", "fixture.xml", "--paused", NULL)
{
	const float qpos[NQ] = { 0.0123f, -0.987654f, 0.3f, -0.25f, 0.7f, 0.5f,
		0.5f, 0.5f, 0.5f };
	const float qvel[NV] = { 1e-7f, -3.3333333f, 0.1f, 0.2f, -0.3f, 0.4f,
		0.5f, -0.6f };
	mjState *s = NEW(mjState);
	int i;

	connect_to(addr);
	OK(mj_get_state(s));
	cr_assert_eq(s->nq, NQ);
	cr_assert_eq(s->nv, NV);
	cr_assert_eq(s->na, 0);
	cr_assert_eq(s->time, 0.0f);
	for (i = 0; i < NQ; i++)
		cr_assert_eq(
		    s->qpos[i], qpos0[i], "qpos[%d] = %g", i, s->qpos[i]);

	state_set(qpos, qvel);
	memset(s, 0, sizeof(*s));
	OK(mj_get_state(s));
	/* float -> double -> float loses nothing. */
	for (i = 0; i < NQ; i++)
		cr_assert_eq(
		    s->qpos[i], qpos[i], "qpos[%d] = %.9g", i, s->qpos[i]);
	for (i = 0; i < NV; i++)
		cr_assert_eq(
		    s->qvel[i], qvel[i], "qvel[%d] = %.9g", i, s->qvel[i]);

	s->nq = NQ + 1;
	RESULT(mj_set_state(s), mjCOM_BADSIZE);
	s->nq = NQ;
	s->nv = NV - 1;
	RESULT(mj_set_state(s), mjCOM_BADSIZE);
	s->nv = NV;
	s->na = 1;
	RESULT(mj_set_state(s), mjCOM_BADSIZE);
	s->na = 0;
	s->nq = mjMAXSZ + 1;
	RESULT(mj_set_state(s), mjCOM_BADSIZE);
	TEXT_HAS("mjMAXSZ");
	s->nq = -1;
	RESULT(mj_set_state(s), mjCOM_BADSIZE);
	s->nq = NQ;
	s->qpos[0] = NAN;
	RESULT(mj_set_state(s), mjCOM_BADVALUE);

	OK(mj_get_state(s));
	cr_assert_eq(s->qpos[1], qpos[1], "a refused state was applied");
	OK(mj_close());
	free(s);
}

HX_TRANSPORT_TEST(compat, control_and_applied_round_trip, "-m", "fixture.xml",
    "--paused", NULL)
{
	mjControl *ctl = NEW(mjControl);
	mjApplied *ap = NEW(mjApplied);
	int i;

	connect_to(addr);
	OK(mj_get_control(ctl));
	cr_assert_eq(ctl->nu, NU);
	ctl->ctrl[0] = 0.25f;
	ctl->ctrl[1] = -1.5f;
	OK(mj_set_control(ctl));
	memset(ctl, 0, sizeof(*ctl));
	OK(mj_get_control(ctl));
	cr_assert_eq(ctl->ctrl[0], 0.25f);
	cr_assert_eq(ctl->ctrl[1], -1.5f);
	ctl->nu = 3;
	RESULT(mj_set_control(ctl), mjCOM_BADSIZE);
	ctl->nu = mjMAXSZ + 1;
	RESULT(mj_set_control(ctl), mjCOM_BADSIZE);

	OK(mj_get_applied(ap));
	cr_assert_eq(ap->nv, NV);
	cr_assert_eq(ap->nbody, NBODY);
	for (i = 0; i < NBODY; i++)
		cr_assert_eq(ap->xfrc_applied[i][2], 0.0f);
	ap->qfrc_applied[0] = 0.5f;
	ap->xfrc_applied[BODY_BOX][2] = 30.0f;
	ap->xfrc_applied[BODY_LINK1][4] = -2.0f;
	OK(mj_set_applied(ap));
	memset(ap, 0, sizeof(*ap));
	OK(mj_get_applied(ap));
	cr_assert_eq(ap->qfrc_applied[0], 0.5f);
	cr_assert_eq(ap->xfrc_applied[BODY_BOX][2], 30.0f);
	cr_assert_eq(ap->xfrc_applied[BODY_LINK1][4], -2.0f);
	cr_assert_eq(ap->xfrc_applied[BODY_LINK1][2], 0.0f);
	ap->nbody = NBODY - 1;
	RESULT(mj_set_applied(ap), mjCOM_BADSIZE);
	ap->nbody = NBODY;
	ap->nv = NV + 1;
	RESULT(mj_set_applied(ap), mjCOM_BADSIZE);
	OK(mj_close());
	free(ctl);
	free(ap);
}

/*--------------------------------------------------- one body, mocap */

HX_TRANSPORT_TEST(
    compat, onebody_get_and_set, "-m", "fixture.xml", "--paused", NULL)
{
	mjOneBody *b = NEW(mjOneBody);
	mjState *s = NEW(mjState);
	int i;

	connect_to(addr);
	b->bodyid = BODY_BOX;
	OK(mj_get_onebody(b));
	cr_assert_eq(b->isfloating, 1);
	OK(mj_get_state(s));
	for (i = 0; i < 3; i++)
		cr_assert_eq(b->pos[i], s->qpos[BOX_QPOS + i]);
	HX_NEAR(b->quat[0], 1, 1e-6);

	/* The HAPTIX way: get, change, set, get. */
	b->pos[2] = 0.5f;
	b->linvel[0] = 0.25f;
	b->angvel[2] = 0.5f;
	b->force[1] = 2.0f;
	OK(mj_set_onebody(b));
	memset(b, 0, sizeof(*b));
	b->bodyid = BODY_BOX;
	OK(mj_get_onebody(b));
	cr_assert_eq(b->pos[2], 0.5f);
	HX_NEAR(b->linvel[0], 0.25, 1e-6);
	HX_NEAR(b->angvel[2], 0.5, 1e-6);
	cr_assert_eq(b->force[1], 2.0f);

	/* A jointed body keeps its pose but takes the force. */
	memset(b, 0, sizeof(*b));
	b->bodyid = BODY_LINK1;
	OK(mj_get_onebody(b));
	cr_assert_eq(b->isfloating, 0);
	HX_NEAR(b->pos[2], 1, 1e-6);
	b->pos[2] = 3.0f;
	b->force[2] = 7.0f;
	OK(mj_set_onebody(b));
	OK(mj_get_onebody(b));
	HX_NEAR(b->pos[2], 1, 1e-6);
	cr_assert_eq(b->force[2], 7.0f);

	b->bodyid = NBODY;
	RESULT(mj_get_onebody(b), mjCOM_BADINDEX);
	RESULT(mj_set_onebody(b), mjCOM_BADINDEX);
	b->bodyid = -1;
	RESULT(mj_get_onebody(b), mjCOM_BADINDEX);
	OK(mj_close());
	free(b);
	free(s);
}

HX_TRANSPORT_TEST(
    compat, mocap_round_trips, "-m", "fixture.xml", "--paused", NULL)
{
	mjMocap *m = NEW(mjMocap);

	connect_to(addr);
	OK(mj_get_mocap(m));
	cr_assert_eq(m->nmocap, 1);
	cr_assert_eq(m->pos[0][1], 1.0f);
	cr_assert_eq(m->quat[0][0], 1.0f);
	m->pos[0][0] = 0.5f;
	m->quat[0][0] = 0;
	m->quat[0][3] = 2;
	OK(mj_set_mocap(m));
	memset(m, 0, sizeof(*m));
	OK(mj_get_mocap(m));
	cr_assert_eq(m->pos[0][0], 0.5f);
	HX_NEAR(m->quat[0][3], 1, 1e-7);
	HX_NEAR(m->quat[0][0], 0, 1e-7);
	m->nmocap = 2;
	RESULT(mj_set_mocap(m), mjCOM_BADSIZE);
	m->nmocap = 1;
	m->quat[0][3] = 0;
	RESULT(mj_set_mocap(m), mjCOM_BADVALUE);
	OK(mj_close());
	free(m);
}

/*---------------------------------------------------------- get only */

HX_TRANSPORT_TEST(compat, get_calls_fill_the_float_structs, "-m", "fixture.xml",
    "--paused", NULL)
{
	const float qpos[NQ] = { 0.01f, -0.5f, 0.6f, 0, 0.1f, 1, 0, 0, 0 };
	const float qvel[NV] = { 0.5f, -0.25f };
	mjDynamics *dyn = NEW(mjDynamics);
	mjSensor *sen = NEW(mjSensor);
	mjBody *body = NEW(mjBody);
	mjGeom *geom = NEW(mjGeom);
	mjSite *site = NEW(mjSite);
	mjTendon *ten = NEW(mjTendon);
	mjActuator *act = NEW(mjActuator);
	mjForce *f = NEW(mjForce);
	mjControl *ctl = NEW(mjControl);
	int i;

	connect_to(addr);
	ctl->nu = NU;
	ctl->ctrl[0] = 0.2f;
	OK(mj_set_control(ctl));
	state_set(qpos, qvel);

	OK(mj_get_dynamics(dyn));
	cr_assert_eq(dyn->nv, NV);
	cr_assert_eq(dyn->na, 0);
	for (i = 0; i < NV; i++)
		cr_assert(isfinite(dyn->qacc[i]));

	OK(mj_get_sensor(sen));
	cr_assert_eq(sen->nsensordata, NSENSORDATA);
	cr_assert_eq(sen->sensordata[0], qpos[0], "jointpos of hinge1");
	cr_assert_eq(sen->sensordata[1], qpos[1], "jointpos of hinge2");
	cr_assert_eq(sen->sensordata[2], qvel[0], "jointvel of hinge1");

	OK(mj_get_body(body));
	cr_assert_eq(body->nbody, NBODY);
	HX_NEAR(body->pos[BODY_LINK1][0], 0, 1e-7);
	HX_NEAR(body->pos[BODY_LINK1][2], 1, 1e-7);
	HX_NEAR(body->pos[BODY_BOX][0], 0.6, 1e-6);
	HX_NEAR(body->mat[0][0], 1, 1e-7);

	OK(mj_get_geom(geom));
	cr_assert_eq(geom->ngeom, NGEOM);
	HX_NEAR(geom->pos[GEOM_BOX][2], body->pos[BODY_BOX][2], 1e-6);

	OK(mj_get_site(site));
	cr_assert_eq(site->nsite, 2);
	/* The tip's framepos sensor reads the tip site. */
	for (i = 0; i < 3; i++)
		HX_NEAR(sen->sensordata[4 + i], site->pos[1][i], 1e-6);

	OK(mj_get_tendon(ten));
	cr_assert_eq(ten->ntendon, 1);
	HX_NEAR(ten->length[0], qpos[0] + qpos[1], 1e-6);
	HX_NEAR(ten->velocity[0], qvel[0] + qvel[1], 1e-6);

	OK(mj_get_actuator(act));
	cr_assert_eq(act->nu, NU);
	HX_NEAR(act->length[0], qpos[0], 1e-7);
	HX_NEAR(act->force[0], 50 * (0.2 - 0.01), 1e-4);
	HX_NEAR(act->force[1], 20 * (0 + 0.5), 1e-4);

	OK(mj_get_force(f));
	cr_assert_eq(f->nv, NV);
	HX_NEAR(f->passive[0], -0.1 * 0.5, 1e-6);
	HX_NEAR(f->actuator[0], act->force[0], 1e-4);
	HX_NEAR(f->bias[BOX_QVEL + 2], 9.81, 1e-4);
	/* The HAPTIX 1.50 field and the manual's fields agree. */
	for (i = 0; i < NV; i++)
		HX_NEAR(f->nonconstraint[i],
		    f->applied[i] + f->passive[i] + f->actuator[i] - f->bias[i],
		    1e-4);
	cr_assert(isfinite(f->constraint[0]));
	OK(mj_close());
	free(dyn);
	free(sen);
	free(body);
	free(geom);
	free(site);
	free(ten);
	free(act);
	free(f);
	free(ctl);
}

HX_TRANSPORT_TEST(
    compat, contacts_of_the_resting_box, "-m", "fixture.xml", "--paused", NULL)
{
	mjContact *con = NEW(mjContact);
	int i, nbox = 0;

	connect_to(addr);
	for (i = 0; i < 300; i++)
		OK(mj_step());
	OK(mj_get_contact(con));
	cr_assert_gt(con->ncon, 0);
	for (i = 0; i < con->ncon; i++) {
		cr_assert(con->geom1[i] >= 0 && con->geom1[i] < NGEOM);
		cr_assert(con->geom2[i] >= 0 && con->geom2[i] < NGEOM);
		if (con->geom1[i] != GEOM_BOX && con->geom2[i] != GEOM_BOX)
			continue;
		nbox++;
		cr_assert_gt(con->force[i][0], 0.0f, "normal force %d", i);
		cr_assert_lt(fabsf(con->dist[i]), 0.01f);
		cr_assert_gt(fabsf(con->frame[i][2]), 0.99f);
	}
	cr_assert_gt(nbox, 0);
	HX_NEAR(con->time, 300 * 0.002, 1e-4);
	OK(mj_close());
	free(con);
}

/*---------------------------------------------------------- stepping */

HX_TRANSPORT_TEST(
    compat, step_update_reset_equality, "-m", "fixture.xml", "--paused", NULL)
{
	mjControl *ctl = NEW(mjControl);
	mjSensor *sen = NEW(mjSensor);
	mjState *s = NEW(mjState);
	float t0;

	connect_to(addr);
	t0 = time_now();
	OK(mj_step());
	HX_NEAR(time_now(), t0 + 0.002, 1e-6);

	ctl->nu = NU;
	ctl->ctrl[0] = 0.4f;
	ctl->ctrl[1] = -0.3f;
	OK(mj_update(ctl, sen));
	cr_assert_eq(sen->nsensordata, NSENSORDATA);
	HX_NEAR(sen->time, t0 + 0.004, 1e-6);
	HX_NEAR(time_now(), t0 + 0.004, 1e-6);
	/* servo1's force from the new control (hinge1 is still near 0). */
	HX_NEAR(sen->sensordata[3], 50 * 0.4, 0.5);
	ctl->nu = 1;
	RESULT(mj_update(ctl, sen), mjCOM_BADSIZE);
	HX_NEAR(time_now(), t0 + 0.004, 1e-6);

	OK(mj_reset(0));
	OK(mj_get_state(s));
	cr_assert_eq(s->qpos[0], 0.5f);
	cr_assert_eq(s->qpos[1], -0.5f);
	cr_assert_eq(s->time, 0.0f);
	OK(mj_reset(1));
	OK(mj_get_state(s));
	cr_assert_eq(s->time, 1.0f);
	OK(mj_reset(-1));
	OK(mj_get_state(s));
	cr_assert_eq(s->qpos[0], 0.0f);
	cr_assert_eq(s->qpos[BOX_QPOS + 2], 0.1f);
	RESULT(mj_reset(2), mjCOM_BADINDEX);

	OK(mj_equality(0, 1));
	OK(mj_equality(0, 0));
	RESULT(mj_equality(0, 2), mjCOM_BADVALUE);
	RESULT(mj_equality(1, 1), mjCOM_BADINDEX);
	RESULT(mj_equality(-1, 0), mjCOM_BADINDEX);
	OK(mj_step());
	OK(mj_close());
	free(ctl);
	free(sen);
	free(s);
}

/*----------------------------------------------------------- message */

HX_TRANSPORT_TEST(
    compat, message_shows_and_clears, "-m", "fixture.xml", "--paused", NULL)
{
	char shown[1100], text[1002];
	int i;

	connect_to(addr);
	OK(mj_message("press the red button"));
	status_message(addr, shown, sizeof(shown));
	cr_assert_str_eq(shown, "press the red button");
	OK(mj_message(NULL));
	status_message(addr, shown, sizeof(shown));
	cr_assert_str_eq(shown, "", "mj_message(NULL) did not clear");

	memset(text, 'm', sizeof(text));
	text[1001] = '\0';
	RESULT(mj_message(text), mjCOM_BADSIZE);
	OK(mj_message("still here"));
	status_message(addr, shown, sizeof(shown));
	cr_assert_str_eq(shown, "still here");

	/* HAPTIX clears the message when the connection closes. */
	OK(mj_close());
	for (i = 0; i < 200; i++) {
		status_message(addr, shown, sizeof(shown));
		if (shown[0] == '\0')
			break;
		hx_sleep_ms(10);
	}
	cr_assert_str_eq(shown, "", "the message outlived mj_close()");
}

/*--------------------------------------------- names, colours, sizes */

HX_TRANSPORT_TEST(compat, names_and_ids, "-m", "fixture.xml", "--paused", NULL)
{
	const char *name;

	connect_to(addr);
	cr_assert_eq(mj_name2id("body", "box"), BODY_BOX);
	cr_assert_eq(mj_result(), mjCOM_OK);
	cr_assert_eq(mj_name2id("geom", "box"), GEOM_BOX);
	cr_assert_eq(mj_name2id("joint", "hinge2"), 1);
	cr_assert_eq(mj_name2id("site", "tip"), 1);
	cr_assert_eq(mj_name2id("tendon", "sum"), 0);
	cr_assert_eq(mj_name2id("actuator", "servo2"), 1);
	cr_assert_eq(mj_name2id("equality", "couple"), 0);
	cr_assert_eq(mj_name2id("sensor", "acc"), 6);

	cr_assert_eq(mj_name2id("body", "no such body"), -1);
	cr_assert_eq(mj_result(), mjCOM_OK, "a missing name is not an error");
	cr_assert_eq(mj_name2id("banana", "box"), -2);
	cr_assert_eq(mj_result(), mjCOM_BADTYPE);

	name = mj_id2name("body", BODY_BOX);
	cr_assert_not_null(name, "%s", hx_last_result());
	cr_assert_str_eq(name, "box");
	name = mj_id2name("joint", 0);
	cr_assert_not_null(name);
	cr_assert_str_eq(name, "hinge1");
	name = mj_id2name("sensor", 3);
	cr_assert_not_null(name);
	cr_assert_str_eq(name, "f1");
	cr_assert_null(mj_id2name("body", NBODY));
	cr_assert_eq(mj_result(), mjCOM_BADINDEX);
	cr_assert_null(mj_id2name("body", -1));
	cr_assert_eq(mj_result(), mjCOM_BADINDEX);
	cr_assert_null(mj_id2name("banana", 0));
	cr_assert_eq(mj_result(), mjCOM_BADTYPE);
	OK(mj_close());
}

HX_TRANSPORT_TEST(
    compat, rgba_and_geomsize, "-m", "fixture.xml", "--paused", NULL)
{
	const float wild[4] = { 2, -1, 0.5f, 0.25f },
		    big[3] = { 0.2f, 0.2f, 0.2f };
	float rgba[4], bad[3] = { 0.2f, -0.1f, 0.2f };

	connect_to(addr);
	OK(mj_get_rgba("material", 0, rgba));
	cr_assert(rgba[0] == 1 && rgba[1] == 0 && rgba[2] == 0 && rgba[3] == 1,
	    "red is %g %g %g %g", rgba[0], rgba[1], rgba[2], rgba[3]);
	OK(mj_get_rgba("geom", GEOM_FLOOR, rgba));
	cr_assert(rgba[0] == 0.4f && rgba[3] == 1, "floor is %g %g %g %g",
	    rgba[0], rgba[1], rgba[2], rgba[3]);
	OK(mj_set_rgba("material", 1, wild));
	OK(mj_get_rgba("material", 1, rgba));
	cr_assert(
	    rgba[0] == 1 && rgba[1] == 0 && rgba[2] == 0.5f && rgba[3] == 0.25f,
	    "clamped to %g %g %g %g", rgba[0], rgba[1], rgba[2], rgba[3]);
	OK(mj_set_rgba("geom", GEOM_BOX, wild));
	OK(mj_get_rgba("geom", GEOM_BOX, rgba));
	cr_assert_eq(rgba[0], 1.0f);
	/* HAPTIX's Reset keeps model settings; only Re-Load restores them. */
	OK(mj_reset(-1));
	OK(mj_get_rgba("geom", GEOM_BOX, rgba));
	cr_assert_eq(rgba[0], 1.0f, "mj_reset keeps the colour set");
	RESULT(mj_get_rgba("body", 0, rgba), mjCOM_BADTYPE);
	RESULT(mj_set_rgba("body", 0, wild), mjCOM_BADTYPE);
	RESULT(mj_get_rgba("banana", 0, rgba), mjCOM_BADTYPE);
	RESULT(mj_get_rgba("geom", NGEOM, rgba), mjCOM_BADINDEX);
	RESULT(mj_set_rgba("material", 2, wild), mjCOM_BADINDEX);

	OK(mj_set_geomsize(GEOM_BOX, big));
	RESULT(mj_set_geomsize(GEOM_TETRA, big), mjCOM_BADTYPE);
	RESULT(mj_set_geomsize(NGEOM, big), mjCOM_BADINDEX);
	RESULT(mj_set_geomsize(GEOM_BOX, bad), mjCOM_BADVALUE);
	/* The bigger box settles higher. */
	OK(mj_reset(-1));
	OK(mj_set_geomsize(GEOM_BOX, big));
	{
		mjOneBody *b = NEW(mjOneBody);
		int i;

		b->bodyid = BODY_BOX;
		OK(mj_get_onebody(b));
		b->pos[2] = 0.25f;
		OK(mj_set_onebody(b));
		for (i = 0; i < 300; i++)
			OK(mj_step());
		OK(mj_get_onebody(b));
		HX_NEAR(b->pos[2], 0.2, 0.01);
		free(b);
	}
	OK(mj_close());
}

/*----------------------------------------------------------- mjMAXSZ */

/* Write a model with BIG_BODIES bodies (besides the world) to path. */
static void
big_model_write(const char *path)
{
	FILE *f = fopen(path, "w");
	int i;

	cr_assert_not_null(f, "cannot write %s", path);
	fprintf(f,
	    "<mujoco model=\"big\"><worldbody>\n"
	    "<body name=\"b0\" pos=\"0 0 1\"><freejoint/>"
	    "<geom size=\"0.05\"/></body>\n");
	for (i = 1; i < BIG_BODIES; i++)
		fprintf(f,
		    "<body pos=\"%d %d 0.5\"><geom size=\"0.01\" "
		    "contype=\"0\" conaffinity=\"0\"/></body>\n",
		    i % 40, i / 40);
	fprintf(f, "</worldbody></mujoco>\n");
	cr_assert_eq(fclose(f), 0);
}

/* Against a model larger than mjMAXSZ over one transport. */
static void
maxsz_run(int tcp)
{
	char path[128];
	const char *args[] = { "-M", compat_tmpdir, "-m", path, "--paused",
		NULL };
	mjBody *body = NEW(mjBody);
	mjGeom *geom = NEW(mjGeom);
	mjInfo *info = NEW(mjInfo);
	mjApplied *ap = NEW(mjApplied);
	mjState *s = NEW(mjState);
	mjOneBody *b = NEW(mjOneBody);
	mjSensor *sen = NEW(mjSensor);
	struct hx_server srv;

	snprintf(compat_tmpdir, sizeof(compat_tmpdir), "/tmp/hxbig.XXXXXX");
	cr_assert_not_null(mkdtemp(compat_tmpdir));
	snprintf(path, sizeof(path), "%s/big.xml", compat_tmpdir);
	big_model_write(path);
	hx_server_start(&srv, args);
	connect_to(hx_server_addr(&srv, tcp));

	body->nbody = -7;
	RESULT(mj_get_body(body), mjCOM_BADSIZE);
	TEXT_HAS("mjMAXSZ");
	cr_assert_eq(body->nbody, -7, "a refused get wrote the struct");
	RESULT(mj_get_geom(geom), mjCOM_BADSIZE);
	TEXT_HAS("mjMAXSZ");
	RESULT(mj_info(info), mjCOM_BADSIZE);
	TEXT_HAS("mjMAXSZ");
	RESULT(mj_get_applied(ap), mjCOM_BADSIZE);

	/* What fits still works on the same connection. */
	OK(mj_get_state(s));
	cr_assert_eq(s->nq, 7);
	cr_assert_eq(s->qpos[2], 1.0f);
	b->bodyid = BIG_BODIES;
	OK(mj_get_onebody(b));
	cr_assert_eq(b->pos[0], (float)((BIG_BODIES - 1) % 40));
	cr_assert_eq(b->pos[1], (float)((BIG_BODIES - 1) / 40));
	OK(mj_get_sensor(sen));
	cr_assert_eq(sen->nsensordata, 0);
	OK(mj_step());
	OK(mj_get_state(s));
	HX_NEAR(s->time, 0.002, 1e-6);
	cr_assert_eq(mj_name2id("body", "b0"), 1);

	OK(mj_close());
	hx_server_stop(&srv);
	free(body);
	free(geom);
	free(info);
	free(ap);
	free(s);
	free(b);
	free(sen);
}

Test(compat, model_beyond_mjmaxsz_unix, .timeout = 60)
{
	maxsz_run(0);
}

Test(compat, model_beyond_mjmaxsz_tcp, .timeout = 60)
{
	maxsz_run(1);
}
