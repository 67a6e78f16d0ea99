/*
 * Unit tests of one call in progress (daemon/call.c): the error text,
 * the arena helpers, the argument checks every value from the network
 * goes through (each refusal's code and exact words, the values at and
 * past each bound) and who may write.  No event loop: a call is a
 * struct, its daemon and session only what call.c reads of them.
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include <criterion/criterion.h>

#include "arena.h"
#include "call.h"
#include "daemon.h"
#include "lease.h"
#include "log.h"
#include "result.h"
#include "session.h"

static struct daemon d;
static struct session me, other, third;
static struct arena arena;
static struct call c;

/* A call by session 5 ("me") on a daemon nobody holds; err marked. */
static void
setup(void)
{
	memset(&d, 0, sizeof(d));
	memset(&me, 0, sizeof(me));
	memset(&other, 0, sizeof(other));
	memset(&third, 0, sizeof(third));
	me.id = 5;
	other.id = 6;
	third.id = 9;
	strcpy(me.name, "me");
	strcpy(other.name, "olga");
	strcpy(third.name, "third");
	d.lease = lease_create();
	log_init(-2); /* errors only, as inproc.c's daemons */
	memset(&c, 0, sizeof(c));
	c.d = &d;
	c.s = &me;
	c.arena = &arena;
	strcpy(c.err, "untouched");
}

static void
teardown(void)
{
	arena_free(&arena);
	lease_free(d.lease);
}

TestSuite(call, .init = setup, .fini = teardown, .timeout = 10);

Test(call, fail_formats_and_returns_the_code)
{
	char want[2000];

	cr_assert_eq(
	    call_fail(&c, RESULT_BADTYPE, "%s %d", "type", 3), RESULT_BADTYPE);
	cr_assert_str_eq(c.err, "type 3");

	/* A reason longer than the buffer is cut, still a string. */
	memset(want, 'x', sizeof(want) - 1);
	want[sizeof(want) - 1] = '\0';
	cr_assert_eq(
	    call_fail(&c, RESULT_BADVALUE, "%s", want), RESULT_BADVALUE);
	cr_assert_eq(strlen(c.err), sizeof(c.err) - 1);
	cr_assert_eq(c.err[0], 'x');
}

static int ninit;

static void
init_marked(void *p)
{
	ninit++;
	memset(p, 0xab, 24);
}

Test(call, new_and_copy_take_the_arena)
{
	static const double src[5] = { 1.5, -0.0, 1e-300, -7, 3 };
	uint8_t *p;
	double *v;
	int i;

	p = call_new(&c, 24, init_marked);
	cr_assert_not_null(p);
	cr_assert_eq(ninit, 1, "the init function ran once");
	for (i = 0; i < 24; i++)
		cr_assert_eq(p[i], 0xab);
	cr_assert_geq(arena.total, 24, "from the call's arena");

	v = call_copy(&c, src, 5);
	cr_assert_neq(v, src, "a copy, not the source");
	cr_assert_eq(memcmp(v, src, sizeof(src)), 0, "bit for bit");
	cr_assert_eq((uintptr_t)v % sizeof(double), 0, "aligned");
	cr_assert_geq(arena.total, 24 + sizeof(src));
	arena_reset(&arena);
	cr_assert_eq(arena.total, 0);
}

Test(call, count)
{
	cr_assert_eq(check_count(&c, "nq", 7, 7), 0);
	cr_assert_eq(check_count(&c, "nq", 0, 0), 0);
	cr_assert_str_eq(c.err, "untouched", "a pass says nothing");
	cr_assert_eq(check_count(&c, "nq", 3, 7), RESULT_BADSIZE);
	cr_assert_str_eq(c.err, "nq is 3 but the model has nq = 7");
	cr_assert_eq(check_count(&c, "nu", 4294967295u, 2), RESULT_BADSIZE);
	cr_assert_str_eq(c.err, "nu is 4294967295 but the model has nu = 2");
}

Test(call, len)
{
	cr_assert_eq(check_len(&c, "ctrl", 3, 3), 0);
	cr_assert_eq(check_len(&c, "ctrl", 0, 0), 0);
	cr_assert_str_eq(c.err, "untouched");
	cr_assert_eq(check_len(&c, "ctrl", 2, 3), RESULT_BADSIZE);
	cr_assert_str_eq(c.err, "ctrl has 2 values, expected 3");
	cr_assert_eq(check_len(&c, "ctrl", 4, 3), RESULT_BADSIZE);
	cr_assert_str_eq(c.err, "ctrl has 4 values, expected 3");
}

Test(call, finite)
{
	double v[4] = { 0, -1e308, 1e-320, NAN };

	cr_assert_eq(check_finite(&c, "qpos", v, 3), 0, "only n are read");
	cr_assert_eq(check_finite(&c, "qpos", NULL, 0), 0);
	cr_assert_str_eq(c.err, "untouched");
	cr_assert_eq(check_finite(&c, "qpos", v, 4), RESULT_BADVALUE);
	cr_assert_str_eq(c.err, "qpos[3] is nan: values must be finite");
	v[1] = INFINITY;
	cr_assert_eq(check_finite(&c, "qvel", v, 4), RESULT_BADVALUE);
	cr_assert_str_eq(
	    c.err, "qvel[1] is inf: values must be finite", "the first one");
	v[1] = -INFINITY;
	cr_assert_eq(check_finite(&c, "qvel", v, 2), RESULT_BADVALUE);
	cr_assert_str_eq(c.err, "qvel[1] is -inf: values must be finite");
}

Test(call, id)
{
	cr_assert_eq(check_id(&c, "body", 0, 3), 0);
	cr_assert_eq(check_id(&c, "body", 2, 3), 0);
	cr_assert_str_eq(c.err, "untouched");
	cr_assert_eq(check_id(&c, "body", 3, 3), RESULT_BADINDEX);
	cr_assert_str_eq(c.err, "body id 3 is out of range (the model has 3)");
	cr_assert_eq(check_id(&c, "geom", -1, 3), RESULT_BADINDEX);
	cr_assert_str_eq(c.err, "geom id -1 is out of range (the model has 3)");
	cr_assert_eq(check_id(&c, "site", INT32_MIN, 3), RESULT_BADINDEX);
	cr_assert_eq(check_id(&c, "site", 0, 0), RESULT_BADINDEX,
	    "nothing is in range of an empty list");
	cr_assert_str_eq(c.err, "site id 0 is out of range (the model has 0)");
}

Test(call, quats)
{
	double q[12] = { 1, 0, 0, 0, 0, 0, 0, 1e-300, 0, 0, 0, 0 };

	cr_assert_eq(check_quats(&c, "quat", q, 2), 0, "tiny is a direction");
	cr_assert_eq(check_quats(&c, "quat", NULL, 0), 0);
	cr_assert_str_eq(c.err, "untouched");
	cr_assert_eq(check_quats(&c, "quat", q, 3), RESULT_BADVALUE);
	cr_assert_str_eq(c.err, "quat 2 is the zero quaternion");
	q[0] = -0.0;
	cr_assert_eq(check_quats(&c, "mocap_quat", q, 1), RESULT_BADVALUE,
	    "-0 is zero too");
	cr_assert_str_eq(c.err, "mocap_quat 0 is the zero quaternion");
}

Test(call, optional)
{
	double v[3] = { 1, 2, 3 };

	cr_assert_eq(check_optional(&c, "act", NULL, 0, 3), 0, "absent");
	cr_assert_eq(check_optional(&c, "act", v, 3, 3), 0);
	cr_assert_str_eq(c.err, "untouched");
	cr_assert_eq(check_optional(&c, "act", v, 2, 3), RESULT_BADSIZE);
	cr_assert_str_eq(c.err, "act has 2 values, expected 3");
	v[2] = NAN;
	cr_assert_eq(check_optional(&c, "act", v, 3, 3), RESULT_BADVALUE);
	cr_assert_str_eq(c.err, "act[2] is nan: values must be finite");
}

Test(call, may_write)
{
	char e[200];

	cr_assert_eq(call_may_write(&c), 0, "nobody holds it");
	cr_assert_eq(lease_take(&d, &me, e, sizeof(e)), 0, "%s", e);
	cr_assert_eq(call_may_write(&c), 0, "the holder writes");
	cr_assert_str_eq(c.err, "untouched");
	cr_assert_eq(lease_release(&d, &me, e, sizeof(e)), 0, "%s", e);

	cr_assert_eq(lease_take(&d, &other, e, sizeof(e)), 0, "%s", e);
	cr_assert_eq(call_may_write(&c), RESULT_DENIED);
	cr_assert_str_eq(c.err,
	    "client 6 (olga) holds the control lease: other clients may read "
	    "but not change the simulation");

	/* A client that presented the holder's token shares it. */
	cr_assert_eq(
	    lease_share(&d, &third, lease_token(&d, &other), e, sizeof(e)), 0,
	    "%s", e);
	cr_assert_eq(call_may_write(&c), RESULT_DENIED, "9 shares, not 5");
	cr_assert_eq(
	    lease_share(&d, &me, lease_token(&d, &other), e, sizeof(e)), 0,
	    "%s", e);
	cr_assert_eq(call_may_write(&c), 0);

	/* The lease is named before a batch run (a new lease: no sharer). */
	cr_assert_eq(lease_release(&d, &other, e, sizeof(e)), 0, "%s", e);
	cr_assert_eq(lease_take(&d, &other, e, sizeof(e)), 0, "%s", e);
	lease_batch_hold(&d, 7);
	cr_assert_eq(call_may_write(&c), RESULT_DENIED);
	cr_assert(
	    strstr(c.err, "holds the control lease") != NULL, "%s", c.err);

	cr_assert_eq(lease_release(&d, &other, e, sizeof(e)), 0, "%s", e);
	cr_assert_eq(call_may_write(&c), RESULT_DENIED);
	cr_assert_str_eq(c.err,
	    "client 7 is running a batch: the simulation cannot change "
	    "until it is done");
	lease_batch_hold(&d, me.id);
	cr_assert_eq(call_may_write(&c), 0, "its own batch");
}
