/*
 * Unit tests of streams and events under back-pressure (daemon/stream.c),
 * in-process: a daemon wired by core_start() (the drained hook is
 * stream_session_drained), the test fixture, and a subscriber on a
 * socketpair with a small send buffer whose far end reads nothing until
 * the test says so.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "core.h"
#include "daemon.h"
#include "event.h"
#include "frame.h"
#include "inproc.h"
#include "lifecycle_step.h"
#include "message.h"
#include "session.h"
#include "stream.h"

TestSuite(stream, .timeout = 10);

typedef Haptix__V1__Response Response;
typedef Haptix__V1__Event Event;

/* The filler frames the test queues itself to congest a session. */
#define FILLER_LEN 996

static struct daemon d;
static struct inproc_rx rx;
static int peer = -1;

/*
 * The fixture, the core's wiring, and --max-queued 65536: the congestion
 * mark is 32768 bytes, and the drained hook runs at 16384.
 */
static void
setup(void)
{
	inproc_start(&d, NULL);
	inproc_max_queued(&d, 65536);
	inproc_load(&d, "fixture.xml");
	core_start(&d);
}

/* The end of a test: the peer goes, then the daemon. */
static void
finish(void)
{
	inproc_rx_free(&rx);
	if (peer >= 0)
		close(peer);
	peer = -1;
	inproc_stop(&d);
}

/* After a failed assertion. */
static void
teardown(void)
{
	if (d.base != NULL)
		finish();
}

/* A served session whose peer reads nothing yet. */
static struct session *
subscriber(void)
{
	struct session *s = inproc_session(&d, &peer, 4096);

	session_set_state(s, SESSION_READY);
	return s;
}

/* Subscribe s to field at every step, with events or not; the id. */
static int
subscribe(struct session *s, Haptix__V1__StreamField field, int events)
{
	Haptix__V1__Subscribe sub = HAPTIX__V1__SUBSCRIBE__INIT;
	char err[300];
	int id;

	sub.n_fields = 1;
	sub.fields = &field;
	sub.every_steps = 1;
	sub.events = events;
	id = stream_subscribe(s, &sub, err, sizeof(err));
	cr_assert_gt(id, 0, "%s", err);
	return id;
}

static void
step(int n)
{
	char err[1100];
	int i;

	for (i = 0; i < n; i++)
		cr_assert_eq(
		    lifecycle_step(&d, err, sizeof(err)), 0, "%s", err);
}

/* Queue filler frames until s is congested; return how many. */
static int
congest(struct session *s)
{
	static uint8_t filler[FILLER_LEN];
	int n = 0;

	memset(filler, 'F', sizeof(filler));
	while (!session_congested(s) && n < 1000) {
		session_send_frame(s, filler, sizeof(filler));
		n++;
	}
	cr_assert(session_congested(s));
	cr_assert(session_served(s), "below --max-queued");
	return n;
}

/*
 * The next frame from the peer, running the loop meanwhile: a filler
 * (returns NULL), or a Response with id 0 and an event (caller frees).
 */
static Response *
next_event(int filler)
{
	const uint8_t *p;
	Response *r;
	long n = inproc_rx_frame(&d, &rx, peer, &p, 2);

	cr_assert_geq(n, 0, "no frame (%ld)", n);
	if (filler) {
		cr_assert_eq(n, FILLER_LEN, "a filler frame");
		cr_assert_eq(p[0], 'F');
		return NULL;
	}
	r = haptix__v1__response__unpack(NULL, (size_t)n, p);
	cr_assert_not_null(r);
	cr_assert_eq(r->id, 0);
	cr_assert_eq(r->payload_case, HAPTIX__V1__RESPONSE__PAYLOAD_EVENT);
	return r;
}

/* Expect a stream frame; return its subscription, and check the rest. */
static unsigned
expect_frame(uint64_t step, uint64_t dropped)
{
	Response *r = next_event(0);
	Haptix__V1__StreamFrame *f;
	unsigned sub;

	cr_assert_eq(r->event->kind_case, HAPTIX__V1__EVENT__KIND_FRAME,
	    "a frame, not event kind %d", r->event->kind_case);
	f = r->event->frame;
	cr_assert_eq(f->step, step, "the state of step %llu, not %llu",
	    (unsigned long long)step, (unsigned long long)f->step);
	cr_assert_eq(f->dropped, dropped, "subscription %u: %llu dropped",
	    f->subscription, (unsigned long long)f->dropped);
	sub = f->subscription;
	haptix__v1__response__free_unpacked(r, NULL);
	return sub;
}

/* Nothing more arrives, even after some turns of the loop. */
static void
expect_silence(void)
{
	inproc_run_for(&d, 0.02);
	inproc_rx_read(&rx, peer);
	cr_assert_eq(rx.len - rx.pos, 0, "%zu more bytes", rx.len - rx.pos);
}

static void
expect_counters(
    struct session *s, uint64_t sent, uint64_t dropped, uint64_t events_dropped)
{
	struct stream_counters c;

	stream_counters(s, &c);
	cr_assert_eq(c.frames_sent, sent, "%llu frames sent",
	    (unsigned long long)c.frames_sent);
	cr_assert_eq(c.frames_dropped, dropped, "%llu frames dropped",
	    (unsigned long long)c.frames_dropped);
	cr_assert_eq(c.events_dropped, events_dropped, "%llu events dropped",
	    (unsigned long long)c.events_dropped);
}

Test(stream, reader_gets_every_frame, .init = setup, .fini = teardown)
{
	struct session *s = subscriber();
	int id = subscribe(s, HAPTIX__V1__STREAM_FIELD__STREAM_QPOS, 0);

	inproc_turn(&d); /* the first frame: the state as it is now */
	cr_assert_eq(expect_frame(0, 0), (unsigned)id);
	step(3);
	expect_frame(1, 0);
	expect_frame(2, 0);
	expect_frame(3, 0);
	expect_counters(s, 4, 0, 0);
	event_reset(&d, 1, "k", 0);
	expect_silence(); /* events were not asked for */
	finish();
}

Test(stream, congested_owes_frames_and_holds_events, .init = setup,
    .fini = teardown)
{
	struct session *s = subscriber();
	unsigned a, b, first, second;
	Response *r;
	int i, fillers;

	a = (unsigned)subscribe(s, HAPTIX__V1__STREAM_FIELD__STREAM_QPOS, 1);
	b = (unsigned)subscribe(s, HAPTIX__V1__STREAM_FIELD__STREAM_QVEL, 0);
	inproc_turn(&d);
	expect_counters(s, 2, 0, 0);
	fillers = congest(s);

	/* Five steps due: one frame owed per subscription, 4 dropped each. */
	step(5);
	expect_counters(s, 2, 8, 0);
	/* 300 events: the newest 256 held. */
	for (i = 0; i < 300; i++)
		event_reset(&d, i, "k", 0);
	expect_counters(s, 2, 8, 44);
	inproc_run_for(&d, 0.02);
	cr_assert(session_congested(s), "nothing left while the peer sleeps");

	/* The peer reads: what was queued, the held events, the owed frames. */
	first = expect_frame(0, 0);
	second = expect_frame(0, 0);
	cr_assert((first == a && second == b) || (first == b && second == a));
	for (i = 0; i < fillers; i++)
		next_event(1);
	for (i = 44; i < 300; i++) {
		r = next_event(0);
		cr_assert_eq(r->event->kind_case, HAPTIX__V1__EVENT__KIND_RESET,
		    "event %d: kind %d", i, r->event->kind_case);
		cr_assert_eq(
		    r->event->reset->keyframe, i, "the oldest dropped");
		haptix__v1__response__free_unpacked(r, NULL);
	}
	first = expect_frame(5, 4);
	second = expect_frame(5, 4);
	cr_assert((first == a && second == b) || (first == b && second == a),
	    "one owed frame of each, built now");
	expect_silence();
	expect_counters(s, 4, 8, 44);

	/* Drained: frames go at once again. */
	step(1);
	expect_frame(6, 4);
	expect_frame(6, 4);
	expect_counters(s, 6, 8, 44);
	finish();
}

/*
 * Held events of 1000 bytes: draining them takes several turns of the
 * drained hook, and the frames owed meanwhile were dropped only when a
 * newer one fell due (stream.h): 4 of 5 steps.
 */
Test(stream, long_held_events_drain_in_turns, .init = setup, .fini = teardown)
{
	struct session *s = subscriber();
	Response *r;
	int i, fillers;

	subscribe(s, HAPTIX__V1__STREAM_FIELD__STREAM_QPOS, 1);
	inproc_turn(&d);
	fillers = congest(s);
	step(5);
	for (i = 0; i < 300; i++) {
		char text[1001];

		memset(text, 'a' + i % 26, 990);
		snprintf(text + 990, 11, "%d", i);
		message_set(&d, 7, text, strlen(text));
		event_message(&d);
	}
	expect_counters(s, 1, 4, 44);

	expect_frame(0, 0);
	for (i = 0; i < fillers; i++)
		next_event(1);
	for (i = 44; i < 300; i++) {
		r = next_event(0);
		cr_assert_eq(
		    r->event->kind_case, HAPTIX__V1__EVENT__KIND_MESSAGE);
		cr_assert_eq(atoi(r->event->message->text + 990), i);
		cr_assert_eq(strlen(r->event->message->text),
		    990 + (size_t)snprintf(NULL, 0, "%d", i));
		haptix__v1__response__free_unpacked(r, NULL);
	}
	expect_frame(5, 4);
	expect_silence();
	expect_counters(s, 2, 4, 44);
	message_set(&d, 0, "", 0);
	finish();
}

Test(stream, events_only_to_event_subscribers, .init = setup, .fini = teardown)
{
	struct session *s = subscriber(), *other;
	struct inproc_rx orx = { 0 };
	int opeer;
	Response *r;

	other = inproc_session(&d, &opeer, 0);
	session_set_state(other, SESSION_READY);
	subscribe(other, HAPTIX__V1__STREAM_FIELD__STREAM_QPOS, 0);
	subscribe(s, HAPTIX__V1__STREAM_FIELD__STREAM_QPOS, 1);
	inproc_turn(&d);
	expect_frame(0, 0);
	event_reset(&d, 3, "raised", 0);
	r = next_event(0);
	cr_assert_eq(r->event->kind_case, HAPTIX__V1__EVENT__KIND_RESET);
	cr_assert_eq(r->event->reset->keyframe, 3);
	cr_assert_str_eq(r->event->reset->name, "raised");
	haptix__v1__response__free_unpacked(r, NULL);

	/* The other had its first frame, and no event. */
	inproc_rx_read(&orx, opeer);
	cr_assert_gt(orx.len, FRAME_HEADER_SIZE);
	cr_assert_eq(frame_get_length(orx.buf), orx.len - FRAME_HEADER_SIZE,
	    "one frame, nothing after it");
	r = haptix__v1__response__unpack(
	    NULL, orx.len - FRAME_HEADER_SIZE, orx.buf + FRAME_HEADER_SIZE);
	cr_assert_not_null(r);
	cr_assert_eq(r->event->kind_case, HAPTIX__V1__EVENT__KIND_FRAME);
	haptix__v1__response__free_unpacked(r, NULL);
	inproc_rx_free(&orx);
	close(opeer);
	finish();
}
