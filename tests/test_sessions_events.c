/*
 * Sessions against a real haptixd: every kind of event reaching a
 * subscriber, messages and who owns them, two event subscriptions,
 * events in the order of their times, subscriptions to some kinds, a
 * MuJoCo error as an instability event.
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

/* A load, a reload and resets by actor, each an event for r. */
static void
expect_model_and_reset_events(struct evreader *r, hxd_conn *actor)
{
	hxd_event *ev;
	hxd_model m;

	HX_OK(actor, hxd_load_file(actor, "fixture.xml", &m));
	ev = expect_event(r, HXD_EVENT_MODEL);
	cr_expect_eq(ev->reload, 0, "a load is not a reload");
	cr_expect_str_eq(ev->model.name, "fixture");
	cr_expect_eq(ev->model.nq, NQ);
	cr_expect_eq(ev->model.nsensordata, NSENSORDATA);
	hxd_event_free(ev);
	HX_OK(actor, hxd_reload(actor, &m));
	ev = expect_event(r, HXD_EVENT_MODEL);
	cr_expect_eq(ev->reload, 1, "a reload says so");
	cr_expect_str_eq(ev->model.name, "fixture");
	cr_expect_neq(ev->model.path[0], '\0');
	hxd_event_free(ev);

	HX_OK(actor, hxd_reset(actor, 1));
	ev = expect_event(r, HXD_EVENT_RESET);
	cr_expect_eq(ev->keyframe, 1);
	cr_expect_str_eq(ev->key_name, "");
	hxd_event_free(ev);
	HX_OK(actor, hxd_reset(actor, -1));
	ev = expect_event(r, HXD_EVENT_RESET);
	cr_expect_eq(ev->keyframe, -1);
	hxd_event_free(ev);
	HX_OK(actor, hxd_reset_name(actor, "raised"));
	ev = expect_event(r, HXD_EVENT_RESET);
	cr_expect_eq(ev->keyframe, 0, "\"raised\" is keyframe 0");
	cr_expect_str_eq(ev->key_name, "raised");
	hxd_event_free(ev);
}

/*
 * Steps, run and pause, speeds, a message and the lease by actor (aid),
 * each an event for r.
 */
static void
expect_run_speed_message_lease_events(
    struct evreader *r, hxd_conn *actor, unsigned long long aid)
{
	unsigned frames, taken;
	hxd_event *ev;

	/* Three steps, three frames, before the next event. */
	frames = r->frames;
	HX_OK(actor, hxd_step(actor, 3, &taken));
	HX_OK(actor, hxd_run(actor));
	ev = expect_event(r, HXD_EVENT_RUN);
	cr_expect_eq(ev->paused, 0);
	cr_expect_eq(r->frames - frames, 3, "%u frames", r->frames - frames);
	hxd_event_free(ev);
	HX_OK(actor, hxd_pause(actor));
	ev = expect_event(r, HXD_EVENT_RUN);
	cr_expect_eq(ev->paused, 1);
	hxd_event_free(ev);

	HX_OK(actor, hxd_set_speed(actor, 2, 0));
	ev = expect_event(r, HXD_EVENT_SPEED);
	cr_expect_eq(ev->speed, 2);
	cr_expect_eq(ev->speed_max, 0);
	hxd_event_free(ev);
	HX_OK(actor, hxd_set_speed(actor, 1, 1));
	ev = expect_event(r, HXD_EVENT_SPEED);
	cr_expect_eq(ev->speed_max, 1);
	hxd_event_free(ev);

	HX_OK(actor, hxd_message(actor, "hello from the actor"));
	ev = expect_event(r, HXD_EVENT_MESSAGE);
	cr_expect_str_eq(ev->text, "hello from the actor");
	cr_expect_eq(ev->from, aid);
	hxd_event_free(ev);

	HX_OK(actor, hxd_lease(actor, HXD_LEASE_TAKE, NULL));
	ev = expect_event(r, HXD_EVENT_LEASE);
	cr_expect_eq(ev->lease.holder, aid);
	cr_expect_str_eq(ev->lease.holder_name, "actor");
	cr_expect_str_eq(ev->lease.on_loss, "pause");
	hxd_event_free(ev);
	HX_OK(actor, hxd_lease(actor, HXD_LEASE_RELEASE, NULL));
	ev = expect_event(r, HXD_EVENT_LEASE);
	cr_expect_eq(ev->lease.holder, 0);
	hxd_event_free(ev);
}

/*
 * The unstable model loaded by actor blows up: an event for r per reset;
 * the next model counts from zero.
 */
static void
expect_instability_events(struct evreader *r, hxd_conn *actor)
{
	unsigned long long seen = 0;
	unsigned frames, taken;
	hxd_event *ev;
	hxd_status s;
	hxd_model m;

	/* The unstable model blows up and MuJoCo resets it: one event each. */
	HX_OK(actor, hxd_load_file(actor, "unstable.xml", &m));
	ev = expect_event(r, HXD_EVENT_MODEL);
	cr_expect_str_eq(ev->model.name, "unstable");
	cr_expect_eq(ev->model.nq, 1);
	r->nq = 1;
	hxd_event_free(ev);
	HX_OK(actor, hxd_step(actor, 10, &taken));
	s = hx_status_ok(actor);
	cr_assert_geq(s.instability_resets, 1, "unstable.xml did not blow up");
	for (;;) {
		ev = next_nonframe(r, 2000);
		cr_assert_not_null(ev,
		    "instability events stopped at %llu of "
		    "%llu",
		    seen, s.instability_resets + s.sim_errors);
		if (ev->kind != HXD_EVENT_INSTABILITY) {
			r->pending = ev;
			break;
		}
		cr_expect_eq(ev->resets, seen + 1, "counted from the load");
		cr_expect(strcmp(ev->what, "qpos") == 0 ||
			strcmp(ev->what, "qvel") == 0 ||
			strcmp(ev->what, "qacc") == 0,
		    "what: \"%s\"", ev->what);
		seen = ev->resets;
		hxd_event_free(ev);
		if (seen == s.instability_resets + s.sim_errors)
			break;
	}
	cr_expect_eq(
	    seen, s.instability_resets + s.sim_errors, "one event per reset");

	/* A new model counts from zero: no instability carried over. */
	HX_OK(actor, hxd_load_file(actor, "fixture.xml", &m));
	ev = expect_event(r, HXD_EVENT_MODEL);
	cr_expect_eq(ev->model.nq, NQ);
	r->nq = NQ;
	hxd_event_free(ev);
	cr_expect_eq(hx_status_ok(actor).instability_resets, 0);
	frames = r->frames;
	HX_OK(actor, hxd_step(actor, 5, &taken));
	HX_OK(actor, hxd_pause(actor));
	expect_no_event(r, 300);
	cr_expect_eq(r->frames - frames, 5, "%u frames", r->frames - frames);
}

HX_TRANSPORT_TEST(sessions, every_kind_of_event_reaches_a_subscriber, "-m",
    "fixture.xml", "--paused", NULL)
{
	hxd_conn *obs = hx_connect_ok(addr, "observer"), *actor;
	struct evreader r = { obs, NULL, 0, 0, NQ };
	unsigned long long aid;
	hxd_frame *f;
	hxd_event *ev;
	unsigned id;

	/* A frame of the state as it is when subscribing. */
	id = subscribe_ok(obs, HXD_FIELDS(HXD_FIELD_QPOS), 1, 0, 0, 1);
	f = next_frame(obs, 2000);
	cr_assert_not_null(f, "the first frame comes at once");
	cr_expect_eq(f->subscription, id);
	cr_expect_eq(f->step, 0);
	cr_expect_eq(f->nq, NQ);
	hxd_frame_free(f);

	actor = hx_connect_ok(addr, "actor");
	aid = session_id(actor);
	ev = expect_event(&r, HXD_EVENT_CLIENT_JOINED);
	cr_expect_eq(ev->client.id, aid);
	cr_expect_str_eq(ev->client.name, "actor");
	cr_expect_eq(strncmp(ev->client.peer, addr[0] == 'u' ? "unix" : "tcp",
			 addr[0] == 'u' ? 4 : 3),
	    0, "%s", ev->client.peer);
	hxd_event_free(ev);

	expect_model_and_reset_events(&r, actor);

	expect_run_speed_message_lease_events(&r, actor, aid);

	expect_instability_events(&r, actor);

	/* The actor leaves: the others hear it, and its message goes. */
	hxd_close(actor);
	ev = expect_event(&r, HXD_EVENT_CLIENT_LEFT);
	cr_expect_eq(ev->client.id, aid);
	cr_expect_str_eq(ev->client.name, "actor");
	cr_expect_geq(ev->client.requests, 17, "with its counters");
	hxd_event_free(ev);
	ev = expect_event(&r, HXD_EVENT_MESSAGE);
	cr_expect_str_eq(ev->text, "", "cleared when its owner left");
	cr_expect_eq(ev->from, 0);
	hxd_event_free(ev);
	expect_no_event(&r, 300);
	cr_expect_str_eq(hx_status_ok(obs).message, "");
	cr_expect_eq(hxd_events_lost(obs), 0);
	hxd_close(obs);
}

HX_TRANSPORT_TEST(sessions, a_message_of_a_client_that_stays_is_kept, "-m",
    "fixture.xml", "--paused", NULL)
{
	hxd_conn *a = hx_connect_ok(addr, "a"), *b = hx_connect_ok(addr, "b");
	struct evreader r = { a, NULL, 0, 0, NQ };
	hxd_event *ev;

	subscribe_ok(a, 0, 0, 0, 0, 1);
	HX_OK(a, hxd_message(a, "mine"));
	ev = expect_event(&r, HXD_EVENT_MESSAGE);
	hxd_event_free(ev);
	/* Someone else leaving does not clear it. */
	hxd_close(b);
	ev = expect_event(&r, HXD_EVENT_CLIENT_LEFT);
	hxd_event_free(ev);
	expect_no_event(&r, 300);
	cr_expect_str_eq(hx_status_ok(a).message, "mine");
	hxd_close(a);
}

HX_TRANSPORT_TEST(sessions, a_message_belongs_to_whoever_set_it_last, "-m",
    "fixture.xml", "--paused", NULL)
{
	hxd_conn *obs = hx_connect_ok(addr, "observer");
	hxd_conn *a = hx_connect_ok(addr, "a"), *b = hx_connect_ok(addr, "b");
	struct evreader r = { obs, NULL, 0, 0, NQ };
	unsigned long long bid = session_id(b);
	hxd_event *ev;

	subscribe_ok(obs, 0, 0, 0, 0, 1);
	HX_OK(a, hxd_message(a, "from a"));
	hxd_event_free(expect_event(&r, HXD_EVENT_MESSAGE));
	HX_OK(b, hxd_message(b, "from b"));
	ev = expect_event(&r, HXD_EVENT_MESSAGE);
	cr_expect_eq(ev->from, bid);
	hxd_event_free(ev);
	/* a's message was replaced: a leaving does not clear b's. */
	hxd_close(a);
	ev = expect_event(&r, HXD_EVENT_CLIENT_LEFT);
	cr_expect_str_eq(ev->client.name, "a");
	hxd_event_free(ev);
	expect_no_event(&r, 300);
	cr_expect_str_eq(hx_status_ok(obs).message, "from b");
	/* b leaving does. */
	hxd_close(b);
	hxd_event_free(expect_event(&r, HXD_EVENT_CLIENT_LEFT));
	ev = expect_event(&r, HXD_EVENT_MESSAGE);
	cr_expect_str_eq(ev->text, "");
	hxd_event_free(ev);
	cr_expect_str_eq(hx_status_ok(obs).message, "");
	hxd_close(obs);
}

HX_TRANSPORT_TEST(sessions, two_event_subscriptions_get_each_event_once, "-m",
    "fixture.xml", "--paused", NULL)
{
	hxd_conn *obs = hx_connect_ok(addr, "observer");
	struct evreader r = { obs, NULL, 0, 0, NQ };
	unsigned id1, id2;
	hxd_event *ev;

	id1 = subscribe_ok(obs, 0, 0, 0, 0, 1);
	id2 = subscribe_ok(obs, 0, 0, 0, 0, 1);
	cr_expect_neq(id1, id2);
	HX_OK(obs, hxd_message(obs, "once"));
	ev = expect_event(&r, HXD_EVENT_MESSAGE);
	cr_expect_str_eq(ev->text, "once");
	hxd_event_free(ev);
	expect_no_event(&r, 300);
	/* With one of them left, events still come; with none, not. */
	HX_OK(obs, hxd_unsubscribe(obs, id1));
	HX_OK(obs, hxd_message(obs, "still"));
	ev = expect_event(&r, HXD_EVENT_MESSAGE);
	cr_expect_str_eq(ev->text, "still");
	hxd_event_free(ev);
	HX_OK(obs, hxd_unsubscribe(obs, id2));
	HX_OK(obs, hxd_message(obs, "unheard"));
	expect_no_event(&r, 300);
	hxd_close(obs);
}

/*
 * Events come in the order of their times: a client joins after a state
 * was captured, then resets to it and leaves.  The reset was stamped
 * with the time it went to, the captured one, and so came after a join
 * stamped later ('reset' at 5.632 after 'client_joined' at 5.646); it is
 * stamped with the time it left, and says where it went.
 */
HX_TRANSPORT_TEST(sessions, events_come_in_the_order_of_their_times, "-m",
    "fixture.xml", "--paused", NULL)
{
	hxd_conn *obs = hx_connect_ok(addr, "observer"), *actor, *late;
	struct evreader r = { obs, NULL, 0, 0, NQ };
	double captured, after = -1;
	hxd_event *ev, *prev = NULL;
	int resets = 0, left = 0;

	subscribe_ok(obs, 0, 0, 0, 0, 1);
	actor = hx_connect_ok(addr, "actor");
	HX_OK(actor, hxd_step(actor, 100, NULL));
	captured = hx_status_ok(actor).time;
	HX_OK(actor, hxd_capture_key(actor, "start", -1));
	HX_OK(actor, hxd_step(actor, 50, NULL));
	late = hx_connect_ok(addr, "late");
	HX_OK(late, hxd_reset_name(late, "start"));
	hxd_close(late);
	while (!left) {
		ev = next_nonframe(&r, 5000);
		cr_assert_not_null(ev, "the late client's leaving never came");
		if (prev != NULL) {
			after = prev->kind == HXD_EVENT_RESET ? prev->reset_to :
								prev->time;
			cr_expect_geq(ev->time, after,
			    "a %s event at %.17g after a %s event at %.17g "
			    "(went to %.17g)",
			    kind_name(ev->kind), ev->time,
			    kind_name(prev->kind), prev->time, after);
		}
		if (ev->kind == HXD_EVENT_RESET) {
			resets++;
			cr_expect_eq(ev->reset_to, captured,
			    "went to %.17g, not the captured %.17g",
			    ev->reset_to, captured);
			cr_expect_gt(
			    ev->time, captured, "stamped %.17g", ev->time);
		}
		left = ev->kind == HXD_EVENT_CLIENT_LEFT &&
		    strcmp(ev->client.name, "late") == 0;
		hxd_event_free(prev);
		prev = ev;
	}
	hxd_event_free(prev);
	cr_expect_eq(resets, 1);
	hxd_close(actor);
	hxd_close(obs);
}

HX_TRANSPORT_TEST(sessions, a_subscription_gets_only_the_kinds_it_names, "-m",
    "fixture.xml", "--paused", NULL)
{
	hxd_conn *obs = hx_connect_ok(addr, "observer");
	hxd_conn *w = hx_connect_ok(addr, "writer");
	struct evreader r = { obs, NULL, 0, 0, NQ };
	hxd_subscription bad = { 0, 0, 0, 0, (int)HXD_EVENTS(20) };
	hxd_event *ev;

	subscribe_ok(obs, 0, 0, 0, 0,
	    (int)(HXD_EVENTS(HXD_EVENT_RESET) | HXD_EVENTS(HXD_EVENT_MESSAGE)));
	/* Joins, leaves, runs and pauses are not wanted. */
	hxd_close(hx_connect_ok(addr, "passer-by"));
	HX_OK(w, hxd_run(w));
	HX_OK(w, hxd_pause(w));
	HX_OK(w, hxd_reset(w, -1));
	HX_OK(w, hxd_message(w, "wanted"));
	ev = expect_event(&r, HXD_EVENT_RESET);
	hxd_event_free(ev);
	ev = expect_event(&r, HXD_EVENT_MESSAGE);
	cr_expect_str_eq(ev->text, "wanted");
	hxd_event_free(ev);
	expect_no_event(&r, 300);
	/* A second subscription adds its kinds; events 1 is every kind. */
	subscribe_ok(obs, 0, 0, 0, 0, 1);
	HX_OK(w, hxd_run(w));
	ev = expect_event(&r, HXD_EVENT_RUN);
	hxd_event_free(ev);
	HX_OK(w, hxd_pause(w));
	ev = expect_event(&r, HXD_EVENT_RUN);
	hxd_event_free(ev);
	/* 20 is Event.time, no kind of event. */
	HX_FAILS_WITH(obs, hxd_subscribe(obs, &bad, NULL), HXD_BADVALUE,
	    "not a kind of event");
	hxd_close(w);
	hxd_close(obs);
}

HX_TRANSPORT_TEST(sessions, a_mujoco_error_is_an_instability_event, "-m",
    "overflow.xml", "--paused", NULL)
{
	hxd_conn *obs = hx_connect_ok(addr, "observer");
	hxd_conn *actor = hx_connect_ok(addr, "actor");
	struct evreader r = { obs, NULL, 0, 0, 7 };
	unsigned taken;
	hxd_event *ev;
	int i, rc = HXD_OK;

	subscribe_ok(obs, 0, 0, 0, 0, 1);
	for (i = 0; i < 40 && rc == HXD_OK; i++)
		rc = hxd_step(actor, 10, &taken);
	cr_assert_eq(rc, HXD_SIMERROR, "%s", hxd_error(actor));
	ev = expect_event(&r, HXD_EVENT_INSTABILITY);
	cr_expect_str_eq(ev->what, "error", "a MuJoCo error, not bad numbers");
	cr_expect_eq(ev->resets, 1);
	hxd_event_free(ev);
	expect_no_event(&r, 200);
	cr_expect_eq(hx_status_ok(obs).sim_errors, 1);
	hxd_close(actor);
	hxd_close(obs);
}
