/*
 * Sessions against a real haptixd: stream rates (every n steps, sim_hz,
 * wall_hz) and fields, subscriptions belonging to their client, streams
 * waiting for a model, frames beyond the limits and bad subscriptions
 * refused.
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

/* Unsubscribed (from id), c gets no more frames; id is no more. */
static void
expect_unsubscribed(hxd_conn *c, unsigned id)
{
	unsigned taken;
	hxd_frame *f;

	/* Unsubscribed, no more frames. */
	HX_OK(c, hxd_unsubscribe(c, id));
	HX_OK(c, hxd_step(c, 20, &taken));
	f = next_frame(c, 300);
	cr_expect_null(f, "a frame after unsubscribing");
	hxd_frame_free(f);
	HX_FAILS_WITH(
	    c, hxd_unsubscribe(c, id), HXD_BADINDEX, "no subscription");
}

HX_TRANSPORT_TEST(sessions, every_steps_frames_follow_the_steps, "-m",
    "fixture.xml", "--paused", NULL)
{
	hxd_conn *c = hx_connect_ok(addr, "stepper");
	hxd_state *st = NULL;
	hxd_sensor *sen = NULL;
	unsigned id, taken, k;
	hxd_frame *f;
	int i;

	cr_assert_eq(hx_status_ok(c).steps, 0);
	id = subscribe_ok(c,
	    HXD_FIELDS(HXD_FIELD_QPOS) | HXD_FIELDS(HXD_FIELD_SENSORDATA), 5, 0,
	    0, 0);
	f = next_frame(c, 2000);
	cr_assert_not_null(f, "a frame at once");
	cr_expect_eq(f->subscription, id);
	cr_expect_eq(f->step, 0);
	cr_expect_eq(f->time, 0);
	HX_OK(c, hxd_get_state(c, &st));
	cr_expect_eq(memcmp(f->qpos, st->qpos, NQ * sizeof(double)), 0,
	    "the frame holds the state");
	free(st);
	hxd_frame_free(f);

	HX_OK(c, hxd_step(c, 23, &taken));
	for (k = 5; k <= 20; k += 5) {
		f = next_frame(c, 2000);
		cr_assert_not_null(f, "no frame for step %u", k);
		cr_expect_eq(f->subscription, id);
		cr_expect_eq(
		    f->step, k, "frame at step %llu, expected %u", f->step, k);
		HX_NEAR(f->time, k * TIMESTEP, 1e-12);
		cr_expect_eq(f->nsensordata, NSENSORDATA);
		hxd_frame_free(f);
	}
	f = next_frame(c, 200);
	cr_expect_null(f, "no frame between multiples of 5 (step %llu)",
	    f != NULL ? f->step : 0);
	hxd_frame_free(f);
	HX_OK(c, hxd_step(c, 2, &taken));
	f = next_frame(c, 2000);
	cr_assert_not_null(f);
	cr_expect_eq(f->step, 25);
	hxd_frame_free(f);
	/* Steps taken by updates count the same. */
	for (i = 0; i < 5; i++) {
		HX_OK(c, hxd_update(c, NULL, &sen));
		free(sen);
	}
	f = next_frame(c, 2000);
	cr_assert_not_null(f);
	cr_expect_eq(f->step, 30);
	HX_OK(c, hxd_get_state(c, &st));
	cr_expect_eq(memcmp(f->qpos, st->qpos, NQ * sizeof(double)), 0);
	free(st);
	hxd_frame_free(f);

	expect_unsubscribed(c, id);
	hxd_close(c);
}

HX_TRANSPORT_TEST(sessions, sim_hz_becomes_steps_of_the_timestep, "-m",
    "fixture.xml", "--paused", NULL)
{
	hxd_conn *c = hx_connect_ok(addr, "simhz");
	unsigned long long a[8], b[8];
	unsigned ida, idb, taken;
	int na = 0, nb = 0, i;
	hxd_frame *f;

	/* 100 Hz of simulated time is every 5 steps of 2 ms; 125 Hz every 4. */
	ida = subscribe_ok(c, HXD_FIELDS(HXD_FIELD_QPOS), 0, 100, 0, 0);
	idb = subscribe_ok(c, HXD_FIELDS(HXD_FIELD_QVEL), 0, 125, 0, 0);
	HX_OK(c, hxd_step(c, 20, &taken));
	while ((f = next_frame(c, 300)) != NULL) {
		if (f->subscription == ida) {
			cr_assert_lt(na, 8);
			cr_expect_eq(f->nq, NQ);
			cr_expect_null(f->qvel);
			a[na++] = f->step;
		} else {
			cr_assert_eq(f->subscription, idb);
			cr_assert_lt(nb, 8);
			cr_expect_eq(f->nv, NV);
			cr_expect_null(f->qpos);
			b[nb++] = f->step;
		}
		hxd_frame_free(f);
	}
	cr_assert_eq(na, 5, "100 Hz: the first frame and 4 more, not %d", na);
	cr_assert_eq(nb, 6, "125 Hz: the first frame and 5 more, not %d", nb);
	for (i = 0; i < na; i++)
		cr_expect_eq(a[i], 5u * (unsigned)i,
		    "100 Hz frame %d at step %llu", i, a[i]);
	for (i = 0; i < nb; i++)
		cr_expect_eq(b[i], 4u * (unsigned)i,
		    "125 Hz frame %d at step %llu", i, b[i]);

	/* A new model's timestep: 100 Hz of unstable.xml's 10 ms is every step.
	 */
	HX_OK(c, hxd_unsubscribe(c, idb));
	HX_OK(c, hxd_load_file(c, "unstable.xml", NULL));
	HX_OK(c, hxd_step(c, 3, &taken));
	for (i = 1; i <= 3; i++) {
		f = next_frame(c, 2000);
		cr_assert_not_null(
		    f, "100 Hz at 10 ms: no frame for step %d", i);
		cr_expect_eq(f->subscription, ida);
		cr_expect_eq(f->nq, 1, "the new model's size");
		cr_expect_eq(
		    f->step, (unsigned)i, "frame at step %llu", f->step);
		hxd_frame_free(f);
	}
	f = next_frame(c, 200);
	cr_expect_null(f, "more frames than steps");
	hxd_frame_free(f);
	hxd_close(c);
}

HX_TRANSPORT_TEST(sessions, wall_hz_paces_frames_in_wall_time, "-m",
    "fixture.xml", "--paused", NULL)
{
	hxd_conn *c = hx_connect_ok(addr, "wallhz");
	unsigned ida, idb;
	int na = 0, nb = 0;
	double end;
	hxd_frame *f;

	ida = subscribe_ok(c, HXD_FIELDS(HXD_FIELD_QPOS), 0, 0, 50, 0);
	idb = subscribe_ok(c, HXD_FIELDS(HXD_FIELD_STATUS), 0, 0, 10, 0);
	end = hx_wall_now() + 1.0;
	while (hx_wall_now() < end) {
		f = next_frame(c, 50);
		if (f == NULL)
			continue;
		if (f->subscription == ida) {
			na++;
			cr_expect_eq(f->step, 0, "paused: the same state");
		} else {
			cr_expect_eq(f->subscription, idb);
			cr_expect_not_null(f->status);
			nb++;
		}
		hxd_frame_free(f);
	}
	HX_OK(c, hxd_unsubscribe(c, 0));
	cr_log_info("wall_hz 50 gave %d frames in 1 s, 10 Hz gave %d", na, nb);
	/* Generous: the machines are shared. */
	cr_expect(na >= 15 && na <= 80, "50 Hz for 1 s gave %d frames", na);
	cr_expect(nb >= 3 && nb <= 20, "10 Hz for 1 s gave %d frames", nb);
	/* What came before the answer waits in the library; then nothing. */
	while ((f = next_frame(c, 0)) != NULL)
		hxd_frame_free(f);
	f = next_frame(c, 300);
	cr_expect_null(f, "frames after unsubscribing from all");
	hxd_frame_free(f);
	hxd_close(c);
}

/*
 * The first subscription's frame fa: qpos, ctrl, sensordata and body
 * poses only, equal to what was read.
 */
static void
expect_first_fields(const hxd_frame *fa, const hxd_state *st,
    const hxd_control *ctl, const hxd_sensor *sen, const hxd_poses *bodies)
{
	cr_expect_eq(fa->step, 1);
	cr_expect_eq(fa->nq, NQ);
	cr_expect_eq(fa->nu, NU);
	cr_expect_eq(fa->nsensordata, NSENSORDATA);
	cr_assert_not_null(fa->body);
	cr_expect_eq(fa->body->count, NBODY);
	cr_expect_eq(memcmp(fa->qpos, st->qpos, NQ * sizeof(double)), 0);
	cr_expect_eq(memcmp(fa->ctrl, ctl->ctrl, NU * sizeof(double)), 0);
	cr_expect_eq(memcmp(fa->sensordata, sen->sensordata,
			 NSENSORDATA * sizeof(double)),
	    0);
	cr_expect_eq(
	    memcmp(fa->body->pos, bodies->pos, 3 * NBODY * sizeof(double)), 0);
	cr_expect_eq(
	    memcmp(fa->body->mat, bodies->mat, 9 * NBODY * sizeof(double)), 0);
	cr_expect(fa->qvel == NULL && fa->nv == 0 && fa->act == NULL &&
		fa->mocap_pos == NULL && fa->mocap_quat == NULL &&
		fa->nmocap == 0 && fa->qfrc_applied == NULL &&
		fa->xfrc_applied == NULL && fa->nbody == 0 &&
		fa->geom == NULL && fa->site == NULL && fa->contacts == NULL &&
		fa->status == NULL,
	    "only qpos, ctrl, sensordata and body poses");
	cr_expect_eq(fa->dropped, 0);
}

/* The second subscription's frame fb: the other fields, as read. */
static void
expect_second_fields(
    const hxd_frame *fb, const hxd_state *st, const hxd_contacts *con)
{
	cr_expect_eq(fb->nv, NV);
	cr_assert_not_null(fb->qvel);
	cr_expect_eq(memcmp(fb->qvel, st->qvel, NV * sizeof(double)), 0);
	cr_expect_eq(fb->na, 0, "the fixture has no activations");
	cr_expect_eq(fb->nmocap, NMOCAP);
	cr_assert_not_null(fb->mocap_pos);
	cr_expect(fb->mocap_pos[0] == 0 && fb->mocap_pos[1] == 1 &&
		fb->mocap_pos[2] == 1,
	    "the marker at (0, 1, 1)");
	cr_assert_not_null(fb->mocap_quat);
	cr_expect_eq(fb->mocap_quat[0], 1);
	cr_assert(fb->geom != NULL && fb->site != NULL);
	cr_expect_eq(fb->geom->count, NGEOM);
	cr_expect_eq(fb->site->count, NSITE);
	cr_assert_not_null(fb->contacts);
	cr_expect_eq(fb->contacts->ncon, con->ncon);
	cr_expect_gt(con->ncon, 0, "the box rests on the floor");
	cr_assert_not_null(fb->status);
	cr_expect_eq(fb->status->model.nq, NQ);
	cr_expect_eq(fb->status->steps, 1);
	cr_expect(fb->status->paused);
	cr_assert_not_null(fb->qfrc_applied);
	cr_assert_not_null(fb->xfrc_applied);
	cr_expect_eq(fb->nbody, NBODY);
	cr_expect(fb->qpos == NULL && fb->nq == 0 && fb->ctrl == NULL &&
		fb->nu == 0 && fb->sensordata == NULL && fb->nsensordata == 0 &&
		fb->body == NULL,
	    "none of the first subscription's fields");
}

/* The two subscriptions of c counted, then ended by unsubscribe 0. */
static void
expect_all_unsubscribed(hxd_conn *c)
{
	const hxd_client *me;
	hxd_client *list;
	hxd_frame *f;
	unsigned taken;
	int n;

	list = hx_clients_ok(c, &n, NULL);
	me = client_named(list, n, "fields");
	cr_assert_not_null(me);
	cr_expect_eq(me->subscriptions, 2);
	cr_expect_eq(me->frames_sent, 2);
	cr_expect_eq(me->frames_dropped, 0);
	free(list);
	HX_OK(c, hxd_unsubscribe(c, 0));
	list = hx_clients_ok(c, &n, NULL);
	me = client_named(list, n, "fields");
	cr_assert_not_null(me);
	cr_expect_eq(me->subscriptions, 0, "unsubscribe 0 ends them all");
	free(list);
	HX_OK(c, hxd_step(c, 3, &taken));
	f = next_frame(c, 300);
	cr_expect_null(f, "a frame after unsubscribing from all");
	hxd_frame_free(f);
}

HX_TRANSPORT_TEST(sessions, frames_carry_only_the_requested_fields, "-m",
    "fixture.xml", "--paused", NULL)
{
	hxd_conn *c = hx_connect_ok(addr, "fields");
	unsigned ida, idb, taken;
	hxd_contacts *con = NULL;
	hxd_control *ctl = NULL;
	hxd_sensor *sen = NULL;
	hxd_poses *bodies = NULL;
	hxd_state *st = NULL;
	hxd_frame *fa = NULL, *fb = NULL, *f;
	int i;

	/* Step once so that contacts and sensors are there. */
	HX_OK(c, hxd_step(c, 1, &taken));
	ida = subscribe_ok(c,
	    HXD_FIELDS(HXD_FIELD_QPOS) | HXD_FIELDS(HXD_FIELD_CTRL) |
		HXD_FIELDS(HXD_FIELD_SENSORDATA) | HXD_FIELDS(HXD_FIELD_BODY),
	    1, 0, 0, 0);
	idb = subscribe_ok(c,
	    HXD_FIELDS(HXD_FIELD_QVEL) | HXD_FIELDS(HXD_FIELD_ACT) |
		HXD_FIELDS(HXD_FIELD_MOCAP) | HXD_FIELDS(HXD_FIELD_GEOM) |
		HXD_FIELDS(HXD_FIELD_SITE) | HXD_FIELDS(HXD_FIELD_CONTACTS) |
		HXD_FIELDS(HXD_FIELD_STATUS) |
		HXD_FIELDS(HXD_FIELD_QFRC_APPLIED) |
		HXD_FIELDS(HXD_FIELD_XFRC_APPLIED),
	    1, 0, 0, 0);
	for (i = 0; i < 2; i++) {
		f = next_frame(c, 2000);
		cr_assert_not_null(f);
		if (f->subscription == ida)
			fa = f;
		else if (f->subscription == idb)
			fb = f;
		else
			cr_assert_fail("subscription %u", f->subscription);
	}
	cr_assert(fa != NULL && fb != NULL, "one frame of each");

	HX_OK(c, hxd_get_state(c, &st));
	HX_OK(c, hxd_get_control(c, &ctl));
	HX_OK(c, hxd_get_sensor(c, &sen));
	HX_OK(c, hxd_get_body(c, &bodies));
	HX_OK(c, hxd_get_contact(c, &con));
	expect_first_fields(fa, st, ctl, sen, bodies);

	expect_second_fields(fb, st, con);
	free(st);
	free(ctl);
	free(sen);
	free(bodies);
	free(con);
	hxd_frame_free(fa);
	hxd_frame_free(fb);

	expect_all_unsubscribed(c);
	hxd_close(c);
}

HX_TRANSPORT_TEST(sessions, subscriptions_belong_to_their_client, "-m",
    "fixture.xml", "--paused", NULL)
{
	hxd_conn *a = hx_connect_ok(addr, "a"), *b = hx_connect_ok(addr, "b");
	unsigned ida, idb, taken;
	hxd_frame *f;

	ida = subscribe_ok(a, HXD_FIELDS(HXD_FIELD_QPOS), 1, 0, 0, 0);
	idb = subscribe_ok(b, HXD_FIELDS(HXD_FIELD_QVEL), 1, 0, 0, 0);
	cr_expect_eq(ida, idb, "ids count per client");
	hxd_frame_free(next_frame(a, 2000));
	hxd_frame_free(next_frame(b, 2000));
	/* b ends its own, not a's. */
	HX_OK(b, hxd_unsubscribe(b, idb));
	HX_OK(b, hxd_step(b, 1, &taken));
	f = next_frame(a, 2000);
	cr_assert_not_null(f, "a's subscription was ended by b");
	cr_expect_eq(f->step, 1);
	cr_expect_eq(f->nq, NQ);
	hxd_frame_free(f);
	f = next_frame(b, 300);
	cr_expect_null(f, "b still gets frames");
	hxd_frame_free(f);
	hxd_close(b);
	hxd_close(a);
}

HX_TRANSPORT_TEST(sessions, streams_wait_for_a_model, "--no-model", NULL)
{
	hxd_conn *c = hx_connect_ok(addr, "early");
	struct evreader r = { c, NULL, 0, 0, NQ };
	unsigned id, taken;
	hxd_event *ev;
	hxd_frame *f;

	id = subscribe_ok(c, HXD_FIELDS(HXD_FIELD_QPOS), 0, 100, 0, 1);
	ev = next_nonframe(&r, 300);
	cr_expect_null(ev, "an event with no model");
	cr_expect_eq(r.frames, 0, "a frame with no model");
	HX_OK(c, hxd_load_file(c, "fixture.xml", NULL));
	ev = expect_event(&r, HXD_EVENT_MODEL);
	cr_expect_eq(ev->model.nq, NQ);
	hxd_event_free(ev);
	/* 100 Hz of the loaded model's 2 ms: every 5 steps. */
	HX_OK(c, hxd_step(c, 10, &taken));
	f = next_frame(c, 2000);
	cr_assert_not_null(f);
	cr_expect_eq(f->subscription, id);
	cr_expect_eq(f->step, 5, "the first frame at step %llu", f->step);
	hxd_frame_free(f);
	f = next_frame(c, 2000);
	cr_assert_not_null(f);
	cr_expect_eq(f->step, 10);
	hxd_frame_free(f);
	f = next_frame(c, 200);
	cr_expect_null(f, "frames between multiples of 5");
	hxd_frame_free(f);
	hxd_close(c);
}

Test(sessions, a_frame_beyond_the_limits_is_refused)
{
	const char *args[] = { "-m", "fixture.xml", "--paused", "--max-frame",
		"2048", NULL };
	hxd_subscription all = { 0, 1, 0, 0, 0 };
	struct hx_server s;
	unsigned id;
	hxd_conn *c;
	int f;

	for (f = 1; f <= HXD_FIELD_MAX; f++)
		all.fields |= HXD_FIELDS(f);
	hx_server_start(&s, args);
	c = hx_connect_ok(s.unix_addr, "big");
	HX_FAILS_WITH(
	    c, hxd_subscribe(c, &all, &id), HXD_BADSIZE, "more than 2048");
	subscribe_ok(c, HXD_FIELDS(HXD_FIELD_QPOS), 1, 0, 0, 0);
	hxd_close(c);
	hx_server_stop(&s);
}

/* Fields the library would not send, refused by the server at addr. */
static void
expect_raw_fields_refused(const char *addr)
{
	Haptix__V1__Response *resp;
	Haptix__V1__StreamField bad[2] = {
		HAPTIX__V1__STREAM_FIELD__STREAM_QPOS,
		(Haptix__V1__StreamField)99
	};
	Haptix__V1__StreamField none = HAPTIX__V1__STREAM_FIELD__STREAM_NONE;
	int fd;

	/* The server's own check of fields the library would not send. */
	fd = raw_connect(addr);
	cr_assert_eq(raw_hello(fd, "raw"), HAPTIX__V1__RESULT__RESULT_OK);
	raw_subscribe(fd, bad, 2, 1, 0, 0, 7);
	resp = raw_recv(fd, 5000);
	cr_assert_not_null(resp);
	cr_expect_eq(resp->id, 7);
	cr_expect_eq(resp->result, HAPTIX__V1__RESULT__RESULT_BADVALUE);
	cr_expect_not_null(
	    strstr(resp->error, "fields[1] is 99"), "%s", resp->error);
	haptix__v1__response__free_unpacked(resp, NULL);
	raw_subscribe(fd, &none, 1, 1, 0, 0, 8);
	resp = raw_recv(fd, 5000);
	cr_assert_not_null(resp);
	cr_expect_eq(resp->result, HAPTIX__V1__RESULT__RESULT_BADVALUE);
	cr_expect_not_null(
	    strstr(resp->error, "fields[0] is 0"), "%s", resp->error);
	haptix__v1__response__free_unpacked(resp, NULL);
	close(fd);
}

HX_TRANSPORT_TEST(sessions, bad_subscriptions_are_refused, "-m", "fixture.xml",
    "--paused", NULL)
{
	const unsigned Q = HXD_FIELDS(HXD_FIELD_QPOS);
	hxd_conn *c = hx_connect_ok(addr, "checker");
	hxd_subscription sub;
	const hxd_client *me;
	hxd_client *list;
	unsigned id;
	int i, n;

#define SUB(f, e, s, w, ev) \
	(sub = (hxd_subscription){ (f), (e), (s), (w), (ev) }, \
	    hxd_subscribe(c, &sub, &id))
	HX_FAILS_WITH(
	    c, SUB(0, 0, 0, 0, 0), HXD_BADVALUE, "nothing to subscribe");
	HX_FAILS_WITH(c, SUB(Q, 1, 0, 10, 0), HXD_BADVALUE, "exactly one rate");
	HX_FAILS_WITH(
	    c, SUB(Q, 1, 100, 0, 0), HXD_BADVALUE, "exactly one rate");
	HX_FAILS_WITH(
	    c, SUB(Q, 0, 100, 10, 1), HXD_BADVALUE, "exactly one rate");
	HX_FAILS_WITH(c, SUB(Q, 0, 0, 0, 0), HXD_BADVALUE, "exactly one rate");
	HX_FAILS_WITH(
	    c, SUB(0, 1, 0, 0, 1), HXD_BADVALUE, "a rate without fields");
	HX_FAILS_WITH(c, SUB(Q, 0, 0, 1001, 0), HXD_BADVALUE, "wall_hz 1001");
	HX_FAILS_WITH(c, SUB(Q, 0, 0, -5, 0), HXD_BADVALUE, "wall_hz");
	HX_FAILS_WITH(c, SUB(Q, 0, 0, INFINITY, 0), HXD_BADVALUE, "wall_hz");
	HX_FAILS_WITH(c, SUB(Q, 0, -1, 0, 0), HXD_BADVALUE, "sim_hz");
	HX_FAILS_WITH(c, SUB(Q, 0, NAN, 0, 0), HXD_BADVALUE, "sim_hz");
	HX_FAILS_WITH(c, SUB(HXD_FIELDS(HXD_FIELD_MAX + 1), 1, 0, 0, 0),
	    HXD_BADVALUE, "no field");
	HX_FAILS_WITH(c, SUB(1u, 1, 0, 0, 0), HXD_BADVALUE, "no field");

	expect_raw_fields_refused(addr);

	/* The fastest wall rate is fine; the limit of subscriptions holds. */
	HX_OK(c, SUB(Q, 0, 0, 1000, 0));
	for (i = 1; i < 16; i++)
		HX_OK(c, SUB(Q, 1, 0, 0, i % 2));
	HX_FAILS_WITH(c, SUB(Q, 1, 0, 0, 0), HXD_BADSIZE, "16 subscriptions");
	HX_FAILS_WITH(c, SUB(0, 0, 0, 0, 1), HXD_BADSIZE, "16 subscriptions");
	list = hx_clients_ok(c, &n, NULL);
	me = client_named(list, n, "checker");
	cr_assert_not_null(me);
	cr_expect_eq(me->subscriptions, 16, "refused ones are not counted");
	cr_expect_eq(me->errors, 13, "each refusal by the server is an error");
	free(list);
	HX_OK(c, hxd_unsubscribe(c, 0));
	HX_FAILS_WITH(c, hxd_unsubscribe(c, 12345), HXD_BADINDEX, "12345");
	HX_OK(c, SUB(Q, 1, 0, 0, 0));
	cr_expect_gt(id, 16, "ids are not reused");
#undef SUB
	hxd_close(c);
}
