/*
 * Sessions against a real haptixd: the control lease letting one client
 * write while all read, its token shared through the Hello, a holder
 * leaving mid-batch, and each --lease-loss policy.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <criterion/logging.h>

#include "check.h"
#include "harness.h"
#include "haptixd.h"
#include "rawclient.h"
#include "sessions_check.h"

TestSuite(sessions, .timeout = 90, .fini = hx_server_cleanup);

/* Assert that a write by c is refused because of the lease's holder. */
#define DENIED(c, call) \
	do { \
		HX_FAILS_WITH(c, call, HXD_DENIED, "holds the control lease"); \
		cr_assert_not_null(strstr(hxd_error(c), "(holder)"), \
		    "%s: the reason does not name the holder: %s", #call, \
		    hxd_error(c)); \
	} while (0)

/* Every kind of write by other (not the lease's holder) is refused. */
static void
expect_writes_denied(hxd_conn *other, hxd_state *st0)
{
	double ctrl[NU] = { 0.25, -0.5 }, rgba[4] = { 1, 1, 0, 1 };
	double size[3] = { 0.2, 0.2, 0.2 }, q = 0.3, vals[NU] = { 0.1, 0.1 };
	hxd_control ctl = { NU, 0, ctrl };
	hxd_robot_command cmd = { .motor_count = NU, .ref_pos = ctrl };
	hxd_batch batch = { .control = &ctl, .steps = 5 };
	hxd_batch_result *res = NULL;
	hxd_onebody body = { .body_id = 3 };
	hxd_robot_sensor *rs = NULL;
	hxd_applied *app = NULL;
	hxd_mocap *mocap = NULL;
	hxd_sensor *sen = NULL;
	unsigned taken = 0;
	hxd_model m;

	HX_OK(other, hxd_get_applied(other, &app));
	HX_OK(other, hxd_get_mocap(other, &mocap));
	DENIED(other, hxd_set_control(other, &ctl));
	DENIED(other, hxd_set_state(other, st0));
	DENIED(other, hxd_step(other, 1, &taken));
	DENIED(other, hxd_update(other, &ctl, &sen));
	DENIED(other, hxd_update(other, NULL, &sen));
	DENIED(other, hxd_pause(other));
	DENIED(other, hxd_run(other));
	DENIED(other, hxd_reset(other, -1));
	DENIED(other, hxd_reset_name(other, "raised"));
	DENIED(other, hxd_capture_key(other, "mine", 0));
	DENIED(other, hxd_load_file(other, "fixture.xml", &m));
	DENIED(other, hxd_reload(other, &m));
	DENIED(other, hxd_set_speed(other, 2, 0));
	DENIED(other, hxd_batch_run(other, &batch, &res));
	DENIED(other, hxd_set_applied(other, app));
	DENIED(other, hxd_set_mocap(other, mocap));
	DENIED(other, hxd_set_onebody(other, &body, HXD_ONEBODY_FORCE));
	DENIED(other, hxd_set_joint(other, "hinge1", &q, 1, NULL, 0));
	DENIED(other, hxd_equality(other, 0, 1));
	DENIED(other, hxd_set_rgba(other, HXD_OBJ_GEOM, GEOM_BOX, rgba));
	DENIED(other, hxd_set_geomsize(other, GEOM_BOX, size));
	DENIED(other, hxd_set_array(other, "ctrl", 0, NU, vals));
	DENIED(other, hxd_robot_update(other, &cmd, &rs));
	free(app);
	free(mocap);
}

/*
 * Reads by other work, and nothing changed since st0; the status and
 * the list of clients name hid as the holder.
 */
static void
expect_reads_unchanged(
    hxd_conn *other, const hxd_state *st0, unsigned long long hid)
{
	hxd_control *got = NULL;
	hxd_robot_sensor *rs = NULL;
	hxd_sensor *sen = NULL;
	hxd_state *st1 = NULL;
	const hxd_client *e;
	hxd_client *list;
	hxd_status s;
	int n;

	HX_OK(other, hxd_get_state(other, &st1));
	cr_expect_eq(st1->time, st0->time);
	cr_expect_eq(memcmp(st1->qpos, st0->qpos, NQ * sizeof(double)), 0);
	free(st1);
	HX_OK(other, hxd_get_control(other, &got));
	cr_expect(got->ctrl[0] == 0 && got->ctrl[1] == 0, "controls untouched");
	free(got);
	HX_OK(other, hxd_get_sensor(other, &sen));
	cr_expect_eq(sen->nsensordata, NSENSORDATA);
	free(sen);
	HX_OK(other, hxd_robot_update(other, NULL, &rs));
	free(rs);
	s = hx_status_ok(other);
	cr_expect(s.paused);
	cr_expect_eq(s.steps, 0);
	cr_expect_eq(s.speed, 1);
	cr_expect_str_eq(s.model.name, "fixture");
	cr_expect_eq(s.lease_holder, hid);
	cr_expect_str_eq(s.lease_holder_name, "holder");
	list = hx_clients_ok(other, &n, NULL);
	e = client_named(list, n, "holder");
	cr_assert_not_null(e);
	cr_expect_eq(e->lease, 1);
	e = client_named(list, n, "other");
	cr_assert_not_null(e);
	cr_expect_eq(e->lease, 0);
	cr_expect_geq(e->errors, 25, "each refusal is an error");
	free(list);
}

/*
 * A holder (other, oid) that disconnects gives the lease up at once:
 * holder (hid) is told, and takes it.
 */
static void
expect_lease_leaves_with(hxd_conn *holder, hxd_conn *other,
    unsigned long long hid, unsigned long long oid)
{
	struct evreader r = { 0 };
	hxd_lease_info li;
	unsigned taken = 0;
	hxd_event *ev;

	subscribe_ok(holder, 0, 0, 0, 0, 1);
	r.c = holder;
	r.nq = NQ;
	hxd_close(other);
	ev = expect_event(&r, HXD_EVENT_CLIENT_LEFT);
	cr_expect_eq(ev->client.id, oid);
	hxd_event_free(ev);
	ev = expect_event(&r, HXD_EVENT_LEASE);
	cr_expect_eq(ev->lease.holder, 0, "the lease went with its holder");
	hxd_event_free(ev);
	HX_OK(holder, hxd_lease(holder, HXD_LEASE_TAKE, &li));
	cr_expect_eq(li.holder, hid);
	HX_OK(holder, hxd_step(holder, 1, &taken));
}

/* The holder releases the lease: anyone may write, other (oid) take it. */
static void
expect_released(hxd_conn *holder, hxd_conn *other, unsigned long long oid)
{
	hxd_lease_info li;
	unsigned taken = 0;

	/* Released, anyone may write, and take it. */
	HX_OK(holder, hxd_lease(holder, HXD_LEASE_RELEASE, &li));
	cr_expect_eq(li.holder, 0);
	HX_OK(other, hxd_lease(other, HXD_LEASE_QUERY, &li));
	cr_expect_eq(li.holder, 0);
	cr_expect_eq(hx_status_ok(other).lease_holder, 0);
	HX_OK(other, hxd_step(other, 1, &taken));
	HX_OK(other, hxd_lease(other, HXD_LEASE_TAKE, &li));
	cr_expect_eq(li.holder, oid);
	HX_FAILS_WITH(holder, hxd_step(holder, 1, &taken), HXD_DENIED,
	    "(other) holds the control lease");
}

HX_TRANSPORT_TEST(sessions, lease_lets_one_client_write, "-m", "fixture.xml",
    "--paused", NULL)
{
	hxd_conn *holder = hx_connect_ok(addr, "holder");
	hxd_conn *other = hx_connect_ok(addr, "other");
	unsigned long long hid = session_id(holder), oid = session_id(other);
	double ctrl[NU] = { 0.25, -0.5 };
	hxd_control ctl = { NU, 0, ctrl }, *got = NULL;
	hxd_batch batch = { .control = &ctl, .steps = 5 };
	hxd_batch_result *res = NULL;
	hxd_state *st0 = NULL;
	hxd_lease_info li;
	unsigned taken = 0;
	char who[64];

	HX_OK(other, hxd_lease(other, HXD_LEASE_QUERY, &li));
	cr_expect_eq(li.holder, 0, "nobody holds it at first");
	cr_expect_str_eq(li.holder_name, "");
	cr_expect_str_eq(li.on_loss, "pause", "the default policy");
	HX_OK(holder, hxd_lease(holder, HXD_LEASE_TAKE, &li));
	cr_expect_eq(li.holder, hid, "the lease names its holder's id");
	cr_expect_str_eq(li.holder_name, "holder");
	HX_OK(holder, hxd_lease(holder, HXD_LEASE_TAKE, &li));
	cr_expect_eq(li.holder, hid, "taking it again is harmless");

	/* The other cannot take it, and is told who has it. */
	HX_FAILS_WITH(other, hxd_lease(other, HXD_LEASE_TAKE, &li), HXD_DENIED,
	    "(holder) holds the control lease");
	snprintf(who, sizeof(who), "client %llu ", hid);
	cr_expect_not_null(
	    strstr(hxd_error(other), who), "%s", hxd_error(other));
	HX_FAILS_WITH(other, hxd_lease(other, HXD_LEASE_RELEASE, &li),
	    HXD_DENIED, "does not hold");

	/* Every kind of write by the other is refused. */
	HX_OK(other, hxd_get_state(other, &st0));
	expect_writes_denied(other, st0);

	/* Reads work, and nothing changed. */
	expect_reads_unchanged(other, st0, hid);

	/* The holder writes. */
	HX_OK(holder, hxd_set_control(holder, &ctl));
	HX_OK(holder, hxd_step(holder, 3, &taken));
	cr_expect_eq(taken, 3);
	HX_OK(holder, hxd_batch_run(holder, &batch, &res));
	cr_expect_eq(res->steps, 5);
	hxd_batch_result_free(res);
	HX_OK(other, hxd_get_control(other, &got));
	cr_expect(got->ctrl[0] == 0.25 && got->ctrl[1] == -0.5,
	    "the holder's controls: %g %g", got->ctrl[0], got->ctrl[1]);
	free(got);
	cr_expect_eq(hx_status_ok(other).steps, 8);

	expect_released(holder, other, oid);

	expect_lease_leaves_with(holder, other, hid, oid);
	free(st0);
	hxd_close(holder);
}

/*
 * The lease of token ends (holder releases it, other takes it anew):
 * sharer may no longer write, and the token lets no one in at addr.
 */
static void
expect_token_ended(const char *addr, hxd_conn *holder, hxd_conn *other,
    hxd_conn *sharer, const char *token)
{
	double ctrl[NU] = { 0.25, -0.5 };
	hxd_control ctl = { NU, 0, ctrl };
	hxd_lease_info li;
	hxd_conn *late;

	/* The lease ends: its token is worth nothing, even when taken anew. */
	HX_OK(holder, hxd_lease(holder, HXD_LEASE_RELEASE, NULL));
	HX_OK(other, hxd_lease(other, HXD_LEASE_TAKE, &li));
	cr_expect_str_neq(li.token, token, "a new lease, a new token");
	HX_FAILS_WITH(sharer, hxd_set_control(sharer, &ctl), HXD_DENIED,
	    "(other) holds the control lease");
	cr_assert_eq(setenv("HAPTIX_LEASE", token, 1), 0);
	late = hxd_connect(addr, "late");
	cr_assert_eq(unsetenv("HAPTIX_LEASE"), 0);
	cr_expect_eq(hxd_result(late), HXD_DENIED, "%s", hxd_error(late));
	cr_expect_not_null(
	    strstr(hxd_error(late), "HAPTIX_LEASE"), "%s", hxd_error(late));
	hxd_close(late);
}

/*
 * The lease's token, told to its holder alone, lets the connections that
 * present it ($HAPTIX_LEASE) write while that lease lasts: hxctl lease
 * run hands it to what it runs.  Without it the only shell-usable lease
 * was a background hxctl holding it, and every later hxctl was refused.
 */
HX_TRANSPORT_TEST(sessions, the_lease_token_shares_the_lease, "-m",
    "fixture.xml", "--paused", NULL)
{
	hxd_conn *holder = hx_connect_ok(addr, "holder");
	hxd_conn *other = hx_connect_ok(addr, "other");
	hxd_conn *sharer;
	double ctrl[NU] = { 0.25, -0.5 };
	hxd_control ctl = { NU, 0, ctrl };
	const hxd_client *e;
	hxd_lease_info li, seen;
	hxd_client *list;
	hxd_event *ev;
	char token[40];
	int n;

	subscribe_ok(other, 0, 0, 0, 0, 1);
	HX_OK(holder, hxd_lease(holder, HXD_LEASE_TAKE, &li));
	cr_assert_eq(strlen(li.token), 32, "a 128-bit token: '%s'", li.token);
	snprintf(token, sizeof(token), "%s", li.token);
	HX_OK(holder, hxd_lease(holder, HXD_LEASE_QUERY, &li));
	cr_expect_str_eq(li.token, token, "the holder may ask again");
	HX_OK(other, hxd_lease(other, HXD_LEASE_QUERY, &li));
	cr_expect_str_empty(li.token, "nobody else learns it");
	ev = hx_event_within(other, HXD_EVENT_LEASE, 2000);
	cr_assert_not_null(ev);
	cr_expect_str_empty(ev->lease.token, "nor from the event");
	hxd_event_free(ev);

	/* A connection that presents it shares the lease. */
	cr_assert_eq(setenv("HAPTIX_LEASE", token, 1), 0);
	sharer = hx_connect_ok(addr, "sharer");
	cr_assert_eq(unsetenv("HAPTIX_LEASE"), 0);
	HX_OK(sharer, hxd_set_control(sharer, &ctl));
	DENIED(other, hxd_set_control(other, &ctl));
	list = hx_clients_ok(other, &n, NULL);
	e = client_named(list, n, "sharer");
	cr_assert_not_null(e);
	cr_expect(e->lease_shared && !e->lease, "listed as sharing");
	e = client_named(list, n, "other");
	cr_assert_not_null(e);
	cr_expect(!e->lease_shared);
	free(list);
	/* It may not take the lease as its own, nor release it. */
	HX_FAILS_WITH(sharer, hxd_lease(sharer, HXD_LEASE_TAKE, &seen),
	    HXD_DENIED, "shares it");
	HX_FAILS_WITH(sharer, hxd_lease(sharer, HXD_LEASE_RELEASE, &seen),
	    HXD_DENIED, "does not hold");

	expect_token_ended(addr, holder, other, sharer, token);
	hxd_close(sharer);
	hxd_close(other);
	hxd_close(holder);
}

HX_TRANSPORT_TEST(sessions, lease_allows_reads_while_running, "-m",
    "fixture.xml", "--paused", NULL)
{
	hxd_conn *holder = hx_connect_ok(addr, "holder");
	hxd_conn *other = hx_connect_ok(addr, "other");
	double ctrl[NU] = { 0.1, 0.1 };
	hxd_control ctl = { NU, 0, ctrl };
	hxd_robot_command cmd = { .motor_count = NU, .ref_pos = ctrl };
	hxd_robot_sensor *rs = NULL;
	hxd_sensor *sen = NULL;

	HX_OK(holder, hxd_lease(holder, HXD_LEASE_TAKE, NULL));
	HX_OK(holder, hxd_run(holder));
	/* Waiting for the tick reads; sending controls writes. */
	HX_OK(other, hxd_update(other, NULL, &sen));
	cr_expect_eq(sen->nsensordata, NSENSORDATA);
	free(sen);
	HX_OK(other, hxd_robot_update(other, NULL, &rs));
	free(rs);
	DENIED(other, hxd_update(other, &ctl, &sen));
	DENIED(other, hxd_robot_update(other, &cmd, &rs));
	HX_OK(holder, hxd_update(holder, &ctl, &sen));
	free(sen);
	HX_OK(holder, hxd_pause(holder));
	hxd_close(other);
	hxd_close(holder);
}

/* A holder that leaves in the middle of a long batch stops it. */
HX_TRANSPORT_TEST(sessions, a_holder_leaving_mid_batch_stops_it, "-m",
    "fixture.xml", "--paused", NULL)
{
	hxd_conn *obs = hx_connect_ok(addr, "observer");
	Haptix__V1__Request req = HAPTIX__V1__REQUEST__INIT;
	Haptix__V1__Lease lease = HAPTIX__V1__LEASE__INIT;
	Haptix__V1__Batch batch = HAPTIX__V1__BATCH__INIT;
	struct evreader r = { obs, NULL, 0, 0, NQ };
	Haptix__V1__Response *resp;
	unsigned long long steps;
	unsigned taken;
	hxd_status s;
	hxd_event *ev;
	int fd, i;

	fd = raw_connect(addr);
	cr_assert_eq(raw_hello(fd, "batcher"), HAPTIX__V1__RESULT__RESULT_OK);
	lease.op = HAPTIX__V1__LEASE__OP__TAKE;
	req.id = 2;
	req.call_case = HAPTIX__V1__REQUEST__CALL_LEASE;
	req.lease = &lease;
	raw_send_request(fd, &req);
	resp = raw_recv(fd, 5000);
	cr_assert_not_null(resp);
	cr_assert_eq(resp->result, HAPTIX__V1__RESULT__RESULT_OK);
	haptix__v1__response__free_unpacked(resp, NULL);
	batch.steps = 10000000;
	req.id = 3;
	req.call_case = HAPTIX__V1__REQUEST__CALL_BATCH;
	req.batch = &batch;
	raw_send_request(fd, &req);
	for (i = 0; i < 100 && hx_status_ok(obs).batch_session == 0; i++)
		hx_sleep_ms(10);
	s = hx_status_ok(obs);
	cr_assert_neq(s.batch_session, 0, "the batch did not start");
	cr_expect_eq(s.batch_session, s.lease_holder);
	subscribe_ok(obs, 0, 0, 0, 0, 1);
	close(fd);

	ev = expect_event(&r, HXD_EVENT_CLIENT_LEFT);
	cr_expect_str_eq(ev->client.name, "batcher");
	hxd_event_free(ev);
	ev = expect_event(&r, HXD_EVENT_LEASE);
	cr_expect_eq(ev->lease.holder, 0);
	hxd_event_free(ev);
	s = hx_status_ok(obs);
	cr_expect_eq(s.batch_session, 0, "the batch went with its client");
	cr_expect_eq(s.lease_holder, 0);
	cr_expect(s.paused);
	steps = s.steps;
	cr_expect_lt(steps, 10000000);
	hx_sleep_ms(200);
	cr_expect_eq(hx_status_ok(obs).steps, steps, "it stepped on");
	HX_OK(obs, hxd_step(obs, 1, &taken));
	cr_expect_eq(taken, 1);
	hxd_close(obs);
}

/* The controls obs reads after the holder left under policy. */
static void
expect_controls_after_loss(hxd_conn *obs, const char *policy)
{
	hxd_control *got = NULL;

	HX_OK(obs, hxd_get_control(obs, &got));
	if (strcmp(policy, "zero") == 0) {
		cr_expect(got->ctrl[0] == 0 && got->ctrl[1] == 0, "zero: %g %g",
		    got->ctrl[0], got->ctrl[1]);
	} else if (strcmp(policy, "hold") == 0) {
		cr_expect_eq(got->ctrl[0], 1.0,
		    "hold: servo1 at hinge1's 1.2, clamped to its range: %.17g",
		    got->ctrl[0]);
		HX_NEAR(got->ctrl[1], -0.4, 0.01);
	} else {
		cr_expect(got->ctrl[0] == 0.9 && got->ctrl[1] == 1.5,
		    "%s: controls as the holder left them: %g %g", policy,
		    got->ctrl[0], got->ctrl[1]);
	}
	free(got);
}

/*
 * The holder leaves a running simulation (at a crawl, so the state
 * stays put) with hinge1 beyond servo1's control range, hinge2 at -0.4
 * and the controls at (0.9, 1.5); check what the policy did.
 */
static void
lease_loss_check(const char *addr, const char *policy)
{
	hxd_conn *holder = hx_connect_ok(addr, "holder");
	hxd_conn *obs = hx_connect_ok(addr, "observer");
	double ctrl[NU] = { 0.9, 1.5 };
	hxd_control ctl = { NU, 0, ctrl };
	struct evreader r = { obs, NULL, 0, 0, NQ };
	hxd_state *st = NULL;
	hxd_lease_info li;
	hxd_event *ev;
	hxd_status s;

	HX_OK(holder, hxd_lease(holder, HXD_LEASE_TAKE, &li));
	cr_expect_str_eq(li.on_loss, policy);
	HX_OK(holder, hxd_get_state(holder, &st));
	st->qpos[0] = 1.2;
	st->qpos[1] = -0.4;
	memset(st->qvel, 0, NV * sizeof(double));
	HX_OK(holder, hxd_set_state(holder, st));
	free(st);
	HX_OK(holder, hxd_set_control(holder, &ctl));
	HX_OK(holder, hxd_set_speed(holder, 1e-4, 0));
	HX_OK(holder, hxd_run(holder));
	cr_assert_not(hx_status_ok(obs).paused);
	subscribe_ok(obs, 0, 0, 0, 0, 1);

	hxd_close(holder);
	ev = expect_event(&r, HXD_EVENT_CLIENT_LEFT);
	cr_expect_str_eq(ev->client.name, "holder");
	hxd_event_free(ev);
	if (strcmp(policy, "pause") == 0) {
		ev = expect_event(&r, HXD_EVENT_RUN);
		cr_expect_eq(ev->paused, 1, "the loss paused the simulation");
		hxd_event_free(ev);
	}
	ev = expect_event(&r, HXD_EVENT_LEASE);
	cr_expect_eq(ev->lease.holder, 0);
	cr_expect_str_eq(ev->lease.on_loss, policy);
	hxd_event_free(ev);
	expect_no_event(&r, 200);

	s = hx_status_ok(obs);
	cr_expect_eq(s.paused, strcmp(policy, "pause") == 0, "%s: paused is %d",
	    policy, s.paused);
	cr_expect_eq(s.lease_holder, 0);
	expect_controls_after_loss(obs, policy);
	/* Free for the next one. */
	HX_OK(obs, hxd_lease(obs, HXD_LEASE_TAKE, &li));
	HX_OK(obs, hxd_pause(obs));
	hxd_close(obs);
}

HX_TRANSPORT_TEST(sessions, lease_loss_pause, "-m", "fixture.xml", "--paused",
    "--lease-loss", "pause", NULL)
{
	lease_loss_check(addr, "pause");
}

HX_TRANSPORT_TEST(sessions, lease_loss_keep, "-m", "fixture.xml", "--paused",
    "--lease-loss", "keep", NULL)
{
	lease_loss_check(addr, "keep");
}

HX_TRANSPORT_TEST(sessions, lease_loss_hold, "-m", "fixture.xml", "--paused",
    "--lease-loss", "hold", NULL)
{
	lease_loss_check(addr, "hold");
}

HX_TRANSPORT_TEST(sessions, lease_loss_zero, "-m", "fixture.xml", "--paused",
    "--lease-loss", "zero", NULL)
{
	lease_loss_check(addr, "zero");
}

HX_TRANSPORT_TEST(sessions, lease_loss_hold_zeroes_velocity_servos, "-m",
    "velservo.xml", "--paused", "--lease-loss", "hold", NULL)
{
	hxd_conn *holder = hx_connect_ok(addr, "holder");
	hxd_conn *obs = hx_connect_ok(addr, "observer");
	double ctrl[NU] = { 1.0, -0.5 };
	hxd_control ctl = { NU, 0, ctrl }, *got = NULL;
	struct evreader r = { obs, NULL, 0, 0, 2 };

	HX_OK(holder, hxd_lease(holder, HXD_LEASE_TAKE, NULL));
	HX_OK(holder, hxd_set_control(holder, &ctl));
	subscribe_ok(obs, 0, 0, 0, 0, 1);
	hxd_close(holder);
	hxd_event_free(expect_event(&r, HXD_EVENT_CLIENT_LEFT));
	hxd_event_free(expect_event(&r, HXD_EVENT_LEASE));
	HX_OK(obs, hxd_get_control(obs, &got));
	cr_expect(got->ctrl[0] == 0 && got->ctrl[1] == 0,
	    "velocity servos hold still at 0, not %g %g", got->ctrl[0],
	    got->ctrl[1]);
	free(got);
	cr_expect(hx_status_ok(obs).paused, "it was paused and stays so");
	hxd_close(obs);
}
