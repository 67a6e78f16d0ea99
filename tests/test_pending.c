/*
 * Unit tests of the calls answered later (daemon/pending.c) and of the
 * answers (daemon/reply.c), in-process: real sessions on socketpairs,
 * the Responses read from the far ends and decoded.
 */
#include "config.h"

#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "arena.h"
#include "daemon.h"
#include "haptix.pb-c.h"
#include "inproc.h"
#include "monotonic.h"
#include "pending.h"
#include "reply.h"
#include "result.h"
#include "session.h"

TestSuite(pending, .timeout = 10);

static struct daemon d;
static int nframes;           /* frames that reached the frame hook */
static uint8_t last_frame[8]; /* the first bytes of the last */
static int nleft;

static void
hook_frame(struct session *s, const uint8_t *p, size_t len)
{
	nframes++;
	memcpy(
	    last_frame, p, len < sizeof(last_frame) ? len : sizeof(last_frame));
}

static void
hook_drained(struct session *s)
{
}

/* As the core does: a session that left waits for nothing. */
static void
hook_left(struct session *s)
{
	nleft++;
	pending_session_left(s);
}

static const struct session_hooks test_hooks = {
	.frame = hook_frame,
	.refuse = reply_refuse,
	.drained = hook_drained,
	.left = hook_left,
};

static void
start(const char *const *args)
{
	inproc_start(&d, args);
	sessions_init(&test_hooks);
}

static void
setup(void)
{
	start(NULL);
}

/* After a failed assertion: each test stops its daemon itself. */
static void
teardown(void)
{
	inproc_stop(&d);
}

/* A served session past its Hello. */
static struct session *
ready_session(int *peer, int sndbuf)
{
	struct session *s = inproc_session(&d, peer, sndbuf);

	session_set_state(s, SESSION_READY);
	return s;
}

/* Fills: each answers with a subscription id of its own, and counts. */
static int nfill_a, nfill_b, nfill_big;

static void
fill_id(struct arena *a, Response *resp, uint32_t id)
{
	Haptix__V1__SubscriptionId *sub = arena_alloc(a, sizeof(*sub));

	haptix__v1__subscription_id__init(sub);
	sub->id = id;
	resp->payload_case = HAPTIX__V1__RESPONSE__PAYLOAD_SUBSCRIPTION;
	resp->subscription = sub;
}

static void
fill_a(struct daemon *dd, struct arena *a, Response *resp)
{
	nfill_a++;
	fill_id(a, resp, 1001);
}

static void
fill_b(struct daemon *dd, struct arena *a, Response *resp)
{
	nfill_b++;
	fill_id(a, resp, 2002);
}

/* An answer of 160 kB: more than --max-queued 65536 in these tests. */
static void
fill_big(struct daemon *dd, struct arena *a, Response *resp)
{
	Haptix__V1__Array *arr = arena_alloc(a, sizeof(*arr));

	nfill_big++;
	haptix__v1__array__init(arr);
	arr->n_values = 20000;
	arr->values = arena_zalloc(a, arr->n_values * sizeof(double));
	resp->payload_case = HAPTIX__V1__RESPONSE__PAYLOAD_ARRAY;
	resp->array = arr;
}

/* Expect the answer to request id, filled with subscription id sub. */
static void
expect_filled(struct inproc_rx *rx, int peer, uint64_t id, uint32_t sub)
{
	Response *r = inproc_rx_response(&d, rx, peer, 1);

	cr_assert_eq(r->id, id);
	cr_assert_eq(r->result, HAPTIX__V1__RESULT__RESULT_OK);
	cr_assert_str_eq(r->error, "");
	cr_assert_eq(
	    r->payload_case, HAPTIX__V1__RESPONSE__PAYLOAD_SUBSCRIPTION);
	cr_assert_eq(r->subscription->id, sub);
	haptix__v1__response__free_unpacked(r, NULL);
}

/* Nothing is waiting to be read on peer, even after a few turns. */
static void
expect_silence(struct inproc_rx *rx, int peer)
{
	inproc_run_for(&d, 0.01);
	inproc_rx_read(rx, peer);
	cr_assert_eq(
	    rx->len - rx->pos, 0, "%zu bytes unexpected", rx->len - rx->pos);
}

Test(pending, tick_answers_each_waiter, .init = setup, .fini = teardown)
{
	struct inproc_rx ra = { 0 }, rb = { 0 };
	struct session *a, *b;
	int pa, pb;

	a = ready_session(&pa, 0);
	b = ready_session(&pb, 0);
	pending_tick(&d);
	cr_assert_eq(nfill_a + nfill_b, 0, "nobody waits yet");
	pending_wait_tick(a, 7, fill_a);
	pending_wait_tick(b, 9, fill_b);
	cr_assert_eq(a->state, SESSION_WAITING);
	cr_assert_eq(b->state, SESSION_WAITING);
	cr_assert_eq(pending_waiting(&d), 2);

	/* Input waits with the call. */
	inproc_write_frame(pa, "next", 4);
	expect_silence(&ra, pa);
	expect_silence(&rb, pb);
	cr_assert_eq(nframes, 0, "input held while waiting");
	cr_assert_eq(nfill_a + nfill_b, 0, "not filled before the tick");

	pending_tick(&d);
	cr_assert_eq(nfill_a, 1);
	cr_assert_eq(nfill_b, 1);
	cr_assert_eq(pending_waiting(&d), 0);
	cr_assert_eq(a->state, SESSION_READY);
	cr_assert_eq(b->state, SESSION_READY);
	expect_filled(&ra, pa, 7, 1001);
	expect_filled(&rb, pb, 9, 2002);
	expect_silence(&ra, pa);

	/* Then the held input is read. */
	cr_assert_eq(nframes, 1);
	cr_assert(memcmp(last_frame, "next", 4) == 0);

	/* Each waiter once: another tick sends nothing. */
	pending_tick(&d);
	cr_assert_eq(nfill_a + nfill_b, 2);
	expect_silence(&ra, pa);
	expect_silence(&rb, pb);
	inproc_rx_free(&ra);
	inproc_rx_free(&rb);
	close(pa);
	close(pb);
	inproc_stop(&d);
}

Test(pending, waiter_that_left_is_dropped, .init = setup, .fini = teardown)
{
	struct inproc_rx rb = { 0 };
	struct session *a, *b;
	double end = monotonic_s() + 1;
	int pa, pb;

	a = ready_session(&pa, 0);
	b = ready_session(&pb, 0);
	pending_wait_tick(a, 7, fill_a);
	pending_wait_tick(b, 9, fill_b);
	close(pa); /* a leaves while its call waits */
	while (nleft == 0 && monotonic_s() < end)
		inproc_run_for(&d, 0.001);
	cr_assert_eq(nleft, 1);
	cr_assert_eq(sessions_count(&d), 1);
	cr_assert_eq(pending_waiting(&d), 1, "a's call went with it");
	pending_tick(&d);
	cr_assert_eq(nfill_a, 0, "nothing filled for a client gone");
	cr_assert_eq(nfill_b, 1);
	expect_filled(&rb, pb, 9, 2002);
	cr_assert_eq(b->state, SESSION_READY);
	inproc_rx_free(&rb);
	close(pb);
	inproc_stop(&d);
}

Test(pending, busy_until_finished, .init = setup, .fini = teardown)
{
	struct inproc_rx rx = { 0 };
	Haptix__V1__StepDone done = HAPTIX__V1__STEP_DONE__INIT;
	Response resp = HAPTIX__V1__RESPONSE__INIT, *r;
	struct session *s;
	int peer;

	s = ready_session(&peer, 0);
	pending_busy(s);
	cr_assert_eq(s->state, SESSION_BUSY);
	cr_assert_eq(pending_waiting(&d), 0, "busy is not waiting for a tick");
	inproc_write_frame(peer, "held", 4);
	expect_silence(&rx, peer);
	pending_tick(&d);
	cr_assert_eq(s->state, SESSION_BUSY, "a tick does not end it");
	expect_silence(&rx, peer);
	cr_assert_eq(nframes, 0, "input held while busy");

	done.steps = 3;
	resp.payload_case = HAPTIX__V1__RESPONSE__PAYLOAD_STEP_DONE;
	resp.step_done = &done;
	pending_finish(s, 11, RESULT_OK, NULL, &resp);
	cr_assert_eq(s->state, SESSION_READY);
	r = inproc_rx_response(&d, &rx, peer, 1);
	cr_assert_eq(r->id, 11);
	cr_assert_eq(r->result, HAPTIX__V1__RESULT__RESULT_OK);
	cr_assert_eq(r->payload_case, HAPTIX__V1__RESPONSE__PAYLOAD_STEP_DONE);
	cr_assert_eq(r->step_done->steps, 3);
	haptix__v1__response__free_unpacked(r, NULL);
	expect_silence(&rx, peer);
	cr_assert_eq(nframes, 1, "input read again");
	cr_assert(memcmp(last_frame, "held", 4) == 0);
	cr_assert_eq(s->errors, 0);

	/* A long call that fails: its code and reason, counted. */
	pending_busy(s);
	haptix__v1__response__init(&resp);
	pending_finish(s, 12, RESULT_DENIED, "not now", &resp);
	cr_assert_eq(s->state, SESSION_READY);
	r = inproc_rx_response(&d, &rx, peer, 1);
	cr_assert_eq(r->id, 12);
	cr_assert_eq(r->result, HAPTIX__V1__RESULT__RESULT_DENIED);
	cr_assert_str_eq(r->error, "not now");
	haptix__v1__response__free_unpacked(r, NULL);
	cr_assert_eq(s->errors, 1);
	inproc_rx_free(&rx);
	close(peer);
	inproc_stop(&d);
}

Test(pending, finish_after_closing_sends_nothing, .init = setup,
    .fini = teardown)
{
	struct inproc_rx rx = { 0 };
	Response resp = HAPTIX__V1__RESPONSE__INIT;
	struct session *s;
	int peer;

	s = ready_session(&peer, 0);
	pending_busy(s);
	session_close_after_flush(s, "the server is shutting down");
	pending_finish(s, 11, RESULT_OK, NULL, &resp);
	cr_assert_eq(s->state, SESSION_CLOSING, "closing stays closing");
	cr_assert(inproc_rx_eof(&d, &rx, peer, 1));
	cr_assert_eq(rx.len, 0, "no answer after the close");
	inproc_rx_free(&rx);
	close(peer);
	inproc_stop(&d);
}

Test(pending, answer_that_closes_its_session_mid_tick, .fini = teardown)
{
	struct inproc_rx ra = { 0 }, rc = { 0 };
	struct session *a, *b, *c;
	double end;
	int pa, pb, pc;

	start(NULL);
	inproc_max_queued(&d, 65536);
	a = ready_session(&pa, 0);
	b = ready_session(&pb, 4096); /* reads nothing: its answer stays */
	c = ready_session(&pc, 0);
	pending_wait_tick(a, 1, fill_a);
	pending_wait_tick(b, 2, fill_big);
	pending_wait_tick(c, 3, fill_b);

	pending_tick(&d);
	cr_assert_eq(nfill_a, 1);
	cr_assert_eq(nfill_big, 1);
	cr_assert_eq(nfill_b, 1, "the tick went on after b closed");
	cr_assert_eq(pending_waiting(&d), 0);
	cr_assert_eq(b->state, SESSION_DEAD, "b was past --max-queued");
	cr_assert_eq(a->state, SESSION_READY);
	cr_assert_eq(c->state, SESSION_READY);
	cr_assert_eq(nleft, 0, "b leaves from the loop, later");
	expect_filled(&ra, pa, 1, 1001);
	expect_filled(&rc, pc, 3, 2002);

	end = monotonic_s() + 1;
	while (sessions_open(&d) && nleft == 0 && monotonic_s() < end)
		inproc_run_for(&d, 0.001);
	inproc_run_for(&d, 0.01);
	cr_assert_eq(nleft, 1);
	cr_assert_eq(sessions_count(&d), 2);
	pending_tick(&d); /* nothing of b is left to answer */
	cr_assert_eq(nfill_big, 1);
	inproc_rx_free(&ra);
	inproc_rx_free(&rc);
	close(pa);
	close(pb);
	close(pc);
	inproc_stop(&d);
}

Test(pending, answer_over_max_frame_is_badsize, .fini = teardown)
{
	static const char *const args[] = { "--max-frame", "1024", NULL };
	struct inproc_rx rx = { 0 };
	struct session *s;
	Response *r;
	int peer;

	start(args);
	s = ready_session(&peer, 0);
	pending_wait_tick(s, 5, fill_big);
	pending_tick(&d);
	r = inproc_rx_response(&d, &rx, peer, 1);
	cr_assert_eq(r->id, 5);
	cr_assert_eq(r->result, HAPTIX__V1__RESULT__RESULT_BADSIZE);
	cr_assert_eq(r->payload_case, HAPTIX__V1__RESPONSE__PAYLOAD__NOT_SET);
	cr_assert(strstr(r->error, "--max-frame") != NULL, "%s", r->error);
	haptix__v1__response__free_unpacked(r, NULL);
	cr_assert_eq(s->state, SESSION_READY);
	cr_assert_eq(s->errors, 1);
	inproc_rx_free(&rx);
	close(peer);
	inproc_stop(&d);
}
