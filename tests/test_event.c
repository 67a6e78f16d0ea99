/*
 * Unit tests of the events (daemon/event.c), in-process: a daemon wired
 * by core_start() with the test fixture at its keyframe "dropped" (time
 * 1), one client subscribed to events and one that is not.  Each event
 * is built by its function and read from the subscriber's far end as a
 * Response with id 0: its kind, its time and every field it carries.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <mujoco/mujoco.h>

#include "arena.h"
#include "clock.h"
#include "core.h"
#include "daemon.h"
#include "event.h"
#include "haptix.pb-c.h"
#include "inproc.h"
#include "lease.h"
#include "message.h"
#include "perturb.h"
#include "session.h"
#include "sim.h"
#include "sim_state.h"
#include "stream.h"
#include "tracking.h"

TestSuite(event, .timeout = 10);

typedef Haptix__V1__Response Response;
typedef Haptix__V1__Event Event;

static struct daemon d;
static struct inproc_rx rx, rx_other;
static int peer = -1, peer_other = -1;
static struct session *sub, *other;

static void
setup(void)
{
	Haptix__V1__Subscribe req = HAPTIX__V1__SUBSCRIBE__INIT;
	char err[300];

	inproc_start(&d, NULL);
	inproc_load(&d, "fixture.xml");
	core_start(&d);
	sim_reset(d.sim, 1);
	sim_forward(d.sim);

	sub = inproc_session(&d, &peer, 0);
	session_set_state(sub, SESSION_READY);
	snprintf(sub->name, sizeof(sub->name), "watcher");
	req.events = 1;
	cr_assert_gt(
	    stream_subscribe(sub, &req, err, sizeof(err)), 0, "%s", err);
	other = inproc_session(&d, &peer_other, 0);
	session_set_state(other, SESSION_READY);
	snprintf(other->name, sizeof(other->name), "bystander");
}

/* The end of a test: the peers go, then the daemon. */
static void
finish(void)
{
	inproc_rx_free(&rx);
	inproc_rx_free(&rx_other);
	if (peer >= 0)
		close(peer);
	if (peer_other >= 0)
		close(peer_other);
	peer = peer_other = -1;
	inproc_stop(&d);
}

/* After a failed assertion. */
static void
teardown(void)
{
	if (d.base != NULL)
		finish();
}

/* The next event the subscriber got, of kind (caller frees). */
static Response *
next_event(Haptix__V1__Event__KindCase kind)
{
	const uint8_t *p;
	Response *r;
	long n = inproc_rx_frame(&d, &rx, peer, &p, 2);

	cr_assert_geq(n, 0, "no event (%ld)", n);
	r = haptix__v1__response__unpack(NULL, (size_t)n, p);
	cr_assert_not_null(r, "the frame does not decode");
	cr_assert_eq(r->id, 0, "events come with id 0");
	cr_assert_eq(r->result, HAPTIX__V1__RESULT__RESULT_OK);
	cr_assert_eq(r->payload_case, HAPTIX__V1__RESPONSE__PAYLOAD_EVENT);
	cr_assert_eq(r->event->kind_case, kind, "event kind %d, not %d",
	    (int)r->event->kind_case, (int)kind);
	return r;
}

/* Nothing more for the subscriber, and nothing ever for the other. */
static void
expect_quiet(void)
{
	inproc_run_for(&d, 0.01);
	inproc_rx_read(&rx, peer);
	inproc_rx_read(&rx_other, peer_other);
	cr_assert_eq(rx.len - rx.pos, 0, "%zu bytes more", rx.len - rx.pos);
	cr_assert_eq(rx_other.len, 0, "a client not subscribed got %zu bytes",
	    rx_other.len);
}

/* Read and drop what the subscriber got so far. */
static void
drain(void)
{
	const uint8_t *p;

	while (inproc_rx_frame(&d, &rx, peer, &p, 0.05) >= 0)
		;
}

Test(event, model_loaded_and_edited, .init = setup, .fini = teardown)
{
	Response *r;
	Haptix__V1__ModelEvent *m;

	event_model(&d, 1);
	r = next_event(HAPTIX__V1__EVENT__KIND_MODEL);
	m = r->event->model;
	cr_assert_eq(r->event->time, 1.0, "the simulated time");
	cr_assert_str_eq(m->model->name, "fixture");
	cr_assert_eq(m->model->nq, 9);
	cr_assert_eq(m->model->nu, 2);
	cr_assert_eq(m->reload, 1);
	cr_assert_eq(m->edited, 0);
	cr_assert_eq(m->n_operations, 0);
	cr_assert_eq(m->n_removed, 0);
	haptix__v1__response__free_unpacked(r, NULL);

	event_model_edited(&d, 0, "add body box2\nset geom floor rgba\n",
	    "geom old\nsite older\n");
	r = next_event(HAPTIX__V1__EVENT__KIND_MODEL);
	m = r->event->model;
	cr_assert_eq(m->reload, 0);
	cr_assert_eq(m->edited, 1);
	cr_assert_eq(m->n_operations, 2);
	cr_assert_str_eq(m->operations[0], "add body box2");
	cr_assert_str_eq(m->operations[1], "set geom floor rgba");
	cr_assert_eq(m->n_removed, 2);
	cr_assert_str_eq(m->removed[0], "geom old");
	cr_assert_str_eq(m->removed[1], "site older");
	haptix__v1__response__free_unpacked(r, NULL);

	/* An edit that removed nothing. */
	event_model_edited(&d, 0, "add site s\n", "");
	r = next_event(HAPTIX__V1__EVENT__KIND_MODEL);
	cr_assert_eq(r->event->model->n_operations, 1);
	cr_assert_eq(r->event->model->n_removed, 0);
	haptix__v1__response__free_unpacked(r, NULL);
	expect_quiet();
	finish();
}

Test(event, reset_stamped_when_it_left, .init = setup, .fini = teardown)
{
	Response *r;

	event_reset(&d, 1, "dropped", 2.5);
	r = next_event(HAPTIX__V1__EVENT__KIND_RESET);
	cr_assert_eq(r->event->reset->keyframe, 1);
	cr_assert_str_eq(r->event->reset->name, "dropped");
	cr_assert_eq(r->event->reset->to_time, 1.0, "where it went");
	cr_assert_eq(r->event->time, 2.5, "the time it left");
	haptix__v1__response__free_unpacked(r, NULL);

	sim_reset(d.sim, -1);
	event_reset(&d, -1, NULL, 1.0);
	r = next_event(HAPTIX__V1__EVENT__KIND_RESET);
	cr_assert_eq(r->event->reset->keyframe, -1);
	cr_assert_str_eq(r->event->reset->name, "", "no name: empty");
	cr_assert_eq(r->event->reset->to_time, 0);
	cr_assert_eq(r->event->time, 1.0);
	haptix__v1__response__free_unpacked(r, NULL);
	expect_quiet();
	finish();
}

Test(event, run_and_speed, .init = setup, .fini = teardown)
{
	Response *r;

	event_run(&d);
	r = next_event(HAPTIX__V1__EVENT__KIND_RUN);
	cr_assert_eq(r->event->run->paused, 1, "core_start's clock is paused");
	haptix__v1__response__free_unpacked(r, NULL);

	/* Through the clock's hooks, as the core wires them. */
	clock_set_speed(d.clock, 0.25, 0);
	r = next_event(HAPTIX__V1__EVENT__KIND_SPEED);
	cr_assert_eq(r->event->speed->factor, 0.25);
	cr_assert_eq(r->event->speed->max, 0);
	haptix__v1__response__free_unpacked(r, NULL);
	clock_set_speed(d.clock, 1, 1);
	r = next_event(HAPTIX__V1__EVENT__KIND_SPEED);
	cr_assert_eq(r->event->speed->max, 1);
	haptix__v1__response__free_unpacked(r, NULL);
	clock_set_speed(d.clock, 0.001, 0);
	drain();

	clock_run(d.clock);
	r = next_event(HAPTIX__V1__EVENT__KIND_RUN);
	cr_assert_eq(r->event->run->paused, 0);
	haptix__v1__response__free_unpacked(r, NULL);
	event_run(&d);
	r = next_event(HAPTIX__V1__EVENT__KIND_RUN);
	cr_assert_eq(r->event->run->paused, 0);
	haptix__v1__response__free_unpacked(r, NULL);
	clock_pause(d.clock);
	drain();
	expect_quiet();
	finish();
}

/* Count a MuJoCo error as a step's would be. */
static void
mj_fails(void *arg)
{
	mju_error("broken on purpose");
}

Test(event, instability_told_once_per_reset, .init = setup, .fini = teardown)
{
	char err[300];
	Response *r;

	event_after_step(&d, "");
	expect_quiet(); /* nothing went wrong */

	cr_assert_eq(sim_protect(d.sim, mj_fails, NULL, err, sizeof(err)), -1);
	event_after_step(&d, "the step was undone");
	r = next_event(HAPTIX__V1__EVENT__KIND_INSTABILITY);
	cr_assert_eq(r->event->instability->count, 1);
	cr_assert_str_eq(r->event->instability->what, "error");
	cr_assert_str_eq(r->event->instability->undone, "the step was undone");
	haptix__v1__response__free_unpacked(r, NULL);
	event_after_step(&d, "");
	expect_quiet(); /* told already */

	cr_assert_eq(sim_protect(d.sim, mj_fails, NULL, err, sizeof(err)), -1);
	event_after_step(&d, "");
	r = next_event(HAPTIX__V1__EVENT__KIND_INSTABILITY);
	cr_assert_eq(r->event->instability->count, 2, "counted since loading");
	haptix__v1__response__free_unpacked(r, NULL);
	expect_quiet();
	finish();
}

Test(event, message_camera_lease, .init = setup, .fini = teardown)
{
	const double pos[3] = { 1, 2, 3 }, quat[4] = { 0, 1, 0, 0 };
	char err[200];
	Response *r;

	message_set(&d, sub->id, "look at the box", strlen("look at the box"));
	drain(); /* what the core told of it */
	event_message(&d);
	r = next_event(HAPTIX__V1__EVENT__KIND_MESSAGE);
	cr_assert_str_eq(r->event->message->text, "look at the box");
	cr_assert_eq(r->event->message->from, sub->id);
	haptix__v1__response__free_unpacked(r, NULL);

	event_camera(&d, pos, quat, 0);
	r = next_event(HAPTIX__V1__EVENT__KIND_CAMERA);
	cr_assert_eq(r->event->camera->n_pos, 3);
	cr_assert_eq(r->event->camera->n_quat, 4);
	cr_assert_eq(r->event->camera->pos[2], 3);
	cr_assert_eq(r->event->camera->quat[1], 1);
	cr_assert_eq(r->event->camera->is_default, 0);
	haptix__v1__response__free_unpacked(r, NULL);

	cr_assert_eq(lease_take(&d, other, err, sizeof(err)), 0, "%s", err);
	drain(); /* what the lease told of it */
	event_lease(&d);
	r = next_event(HAPTIX__V1__EVENT__KIND_LEASE);
	cr_assert_eq(r->event->lease->holder, other->id);
	cr_assert_str_eq(r->event->lease->holder_name, "bystander");
	cr_assert_str_eq(r->event->lease->on_loss, "pause", "the default");
	haptix__v1__response__free_unpacked(r, NULL);
	cr_assert_eq(lease_release(&d, other, err, sizeof(err)), 0, "%s", err);
	drain();
	event_lease(&d);
	r = next_event(HAPTIX__V1__EVENT__KIND_LEASE);
	cr_assert_eq(r->event->lease->holder, 0, "given up");
	cr_assert_str_eq(r->event->lease->holder_name, "");
	haptix__v1__response__free_unpacked(r, NULL);
	expect_quiet();
	finish();
}

Test(event, clients_joining_and_leaving, .init = setup, .fini = teardown)
{
	Haptix__V1__ClientInfo *ci;
	struct arena a = { 0 };
	char err[200];
	Response *r;

	other->requests = 12;
	other->errors = 3;
	event_client(&d, other, 1);
	r = next_event(HAPTIX__V1__EVENT__KIND_CLIENT_JOINED);
	ci = r->event->client_joined;
	cr_assert_eq(ci->id, other->id);
	cr_assert_str_eq(ci->name, "bystander");
	cr_assert_str_eq(ci->peer, other->peer);
	cr_assert_eq(ci->requests, 12);
	cr_assert_eq(ci->errors, 3);
	cr_assert_eq(ci->lease, 0);
	cr_assert_eq(ci->subscriptions, 0);
	haptix__v1__response__free_unpacked(r, NULL);

	event_client(&d, other, 0);
	r = next_event(HAPTIX__V1__EVENT__KIND_CLIENT_LEFT);
	cr_assert_eq(r->event->client_left->id, other->id);
	haptix__v1__response__free_unpacked(r, NULL);
	expect_quiet();

	/* The info itself: the lease, shared or held, and subscriptions. */
	ci = event_client_info(&d, &a, sub);
	cr_assert_eq(ci->subscriptions, 1);
	cr_assert_eq(ci->lease, 0);
	cr_assert_eq(ci->lease_shared, 0);
	cr_assert_eq(lease_take(&d, sub, err, sizeof(err)), 0, "%s", err);
	ci = event_client_info(&d, &a, sub);
	cr_assert_eq(ci->lease, 1);
	cr_assert_eq(lease_release(&d, sub, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(lease_take(&d, other, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(
	    lease_share(&d, sub, lease_token(&d, other), err, sizeof(err)), 0,
	    "%s", err);
	ci = event_client_info(&d, &a, sub);
	cr_assert_eq(ci->lease, 0);
	cr_assert_eq(ci->lease_shared, 1);
	arena_free(&a);
	finish();
}

Test(event, slow_step_tracking_perturbation_recording, .init = setup,
    .fini = teardown)
{
	struct tracking_info t = { .mocap = 0,
		.body = 4,
		.connected = 0,
		.driver = 0,
		.driver_name = "",
		.latency = -1 };
	struct perturb_info p = { .body = 3,
		.f = { 0, 0, 9, 0, 0, 0 },
		.driver = 77,
		.driver_name = "spacenav",
		.timeout = 1 };
	Response *r;

	event_slow_step(&d, 0.75, 0.001, "a step took 0.75 s");
	r = next_event(HAPTIX__V1__EVENT__KIND_SLOW_STEP);
	cr_assert_eq(r->event->slow_step->step_seconds, 0.75);
	cr_assert_eq(r->event->slow_step->usual_seconds, 0.001);
	cr_assert_str_eq(r->event->slow_step->why, "a step took 0.75 s");
	haptix__v1__response__free_unpacked(r, NULL);

	event_tracking(&d, &t, "disconnected by the client", 42);
	r = next_event(HAPTIX__V1__EVENT__KIND_TRACKING);
	cr_assert_str_eq(r->event->tracking->why, "disconnected by the client");
	cr_assert_eq(r->event->tracking->by, 42);
	cr_assert_str_eq(r->event->tracking->tracking->body, "marker");
	cr_assert_eq(r->event->tracking->tracking->connected, 0);
	haptix__v1__response__free_unpacked(r, NULL);

	event_perturbation(&d, &p, "timed out");
	r = next_event(HAPTIX__V1__EVENT__KIND_PERTURBATION);
	cr_assert_str_eq(r->event->perturbation->why, "timed out");
	cr_assert_eq(r->event->perturbation->perturbation->body, 3);
	cr_assert_str_eq(r->event->perturbation->perturbation->name, "box");
	cr_assert_eq(r->event->perturbation->perturbation->force[2], 9);
	cr_assert_eq(r->event->perturbation->perturbation->driver, 77);
	haptix__v1__response__free_unpacked(r, NULL);

	event_recording_ended(&d);
	r = next_event(HAPTIX__V1__EVENT__KIND_RECORDING_ENDED);
	cr_assert_eq(r->event->recording_ended->active, 0);
	haptix__v1__response__free_unpacked(r, NULL);
	expect_quiet();
	finish();
}

Test(event, only_the_kinds_asked_for, .init = setup, .fini = teardown)
{
	Haptix__V1__Subscribe req = HAPTIX__V1__SUBSCRIBE__INIT;
	uint32_t kinds[1] = { HAPTIX__V1__EVENT__KIND_LEASE };
	char err[300];
	Response *r;
	const uint8_t *p;

	/* The bystander now wants lease events only. */
	req.events = 1;
	req.n_event_kinds = 1;
	req.event_kinds = kinds;
	cr_assert_gt(
	    stream_subscribe(other, &req, err, sizeof(err)), 0, "%s", err);
	event_message(&d);
	event_lease(&d);
	r = next_event(HAPTIX__V1__EVENT__KIND_MESSAGE);
	haptix__v1__response__free_unpacked(r, NULL);
	r = next_event(HAPTIX__V1__EVENT__KIND_LEASE);
	haptix__v1__response__free_unpacked(r, NULL);
	{
		long n = inproc_rx_frame(&d, &rx_other, peer_other, &p, 2);

		cr_assert_geq(n, 0);
		r = haptix__v1__response__unpack(NULL, (size_t)n, p);
		cr_assert_not_null(r);
		cr_assert_eq(r->event->kind_case, HAPTIX__V1__EVENT__KIND_LEASE,
		    "the message was not sent");
		haptix__v1__response__free_unpacked(r, NULL);
	}
	inproc_run_for(&d, 0.01);
	inproc_rx_read(&rx_other, peer_other);
	cr_assert_eq(rx_other.len - rx_other.pos, 0);
	finish();
}
