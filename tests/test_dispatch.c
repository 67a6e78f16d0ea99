/*
 * Unit tests of request dispatch (daemon/dispatch.c), in-process: a call
 * table of the test's own handlers, real sessions on socketpairs whose
 * far ends send encoded Requests and read the Responses.  What reaches
 * a handler, and what is refused before any does, with its exact words.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <mujoco/mujoco.h>

#include "arena.h"
#include "call.h"
#include "daemon.h"
#include "dispatch.h"
#include "envelope.h"
#include "haptix.pb-c.h"
#include "inproc.h"
#include "lease.h"
#include "pending.h"
#include "reply.h"
#include "result.h"
#include "session.h"
#include "sim.h"

TestSuite(dispatch, .timeout = 10);

static struct daemon d;

/* What the handlers saw. */
static int nran;              /* handler calls, any row */
static uint64_t ran_id;       /* the last one's request id */
static struct session *ran_s; /* and its session */
static int sometimes;         /* what writes_sometimes() says */
static int nwrites_asked;     /* how often it was asked */
static int ncleanup;          /* cleanups run */
static uint64_t out_at_clean; /* bytes sent or queued then */
static int nfill;

#define SUB_OK 4242u  /* the subscription id h_ok answers with */
#define SUB_TICK 777u /* and the fill of h_tick */

/* Hello: a client named "bad" is refused, others welcomed. */
static int
h_hello(struct call *c)
{
	nran++;
	ran_id = c->req->id;
	if (strcmp(c->req->hello->client_name, "bad") == 0)
		return call_fail(c, RESULT_DENIED, "no %s clients here", "bad");
	snprintf(
	    c->s->name, sizeof(c->s->name), "%s", c->req->hello->client_name);
	return RESULT_OK;
}

/* Answer with a subscription id: a payload the test can recognise. */
static int
h_ok(struct call *c)
{
	Haptix__V1__SubscriptionId *sub;

	nran++;
	ran_id = c->req->id;
	ran_s = c->s;
	sub = NEW(
	    c, Haptix__V1__SubscriptionId, haptix__v1__subscription_id__init);
	sub->id = SUB_OK;
	PAYLOAD(c, subscription, SUBSCRIPTION, sub);
	return RESULT_OK;
}

static void
fill_tick(struct daemon *dd, struct arena *a, Response *resp)
{
	Haptix__V1__SubscriptionId *sub = arena_alloc(a, sizeof(*sub));

	nfill++;
	haptix__v1__subscription_id__init(sub);
	sub->id = SUB_TICK;
	resp->payload_case = HAPTIX__V1__RESPONSE__PAYLOAD_SUBSCRIPTION;
	resp->subscription = sub;
}

static int
h_tick(struct call *c)
{
	nran++;
	c->fill = fill_tick;
	return CALL_WAIT_TICK;
}

static int
h_busy(struct call *c)
{
	nran++;
	return CALL_BUSY;
}

/* MuJoCo's error inside a handler: caught, not the daemon's end. */
static int
h_mjerror(struct call *c)
{
	nran++;
	mju_error("test handler broke");
	return RESULT_OK; /* not reached */
}

static void
cleanup(void *arg)
{
	struct session *s = arg;

	ncleanup++;
	out_at_clean = s->bytes_out;
}

/* A refusal with a cleanup to run after its answer. */
static int
h_fail(struct call *c)
{
	nran++;
	c->cleanup = cleanup;
	c->cleanup_arg = c->s;
	return call_fail(c, RESULT_BADINDEX, "body %d is not there", 7);
}

static int
writes_sometimes(const struct call *c)
{
	nwrites_asked++;
	return sometimes;
}

/*
 * The test's call table, indexed by call number; the calls are chosen
 * for their Empty argument, the handlers do not care what they mean.
 * Rows 0, 1, get_geom (a name, no handler) and all past get_geom have
 * no handler.
 */
static const struct dispatch_entry table[] = {
	[HAPTIX__V1__REQUEST__CALL_HELLO] = { "hello", h_hello, 0, NULL },
	[HAPTIX__V1__REQUEST__CALL_INFO] = { "info", h_ok, 0, NULL },
	[HAPTIX__V1__REQUEST__CALL_GET_STATE] = { "needs_model", h_ok,
	    DISPATCH_MODEL, NULL },
	[HAPTIX__V1__REQUEST__CALL_GET_CONTROL] = { "writer", h_ok,
	    DISPATCH_WRITE, NULL },
	[HAPTIX__V1__REQUEST__CALL_GET_APPLIED] = { "sometimes", h_ok, 0,
	    writes_sometimes },
	[HAPTIX__V1__REQUEST__CALL_GET_MOCAP] = { "tick", h_tick, 0, NULL },
	[HAPTIX__V1__REQUEST__CALL_GET_DYNAMICS] = { "busy", h_busy, 0, NULL },
	[HAPTIX__V1__REQUEST__CALL_GET_SENSOR] = { "mjerror", h_mjerror, 0,
	    NULL },
	[HAPTIX__V1__REQUEST__CALL_GET_BODY] = { "fail", h_fail, 0, NULL },
	[HAPTIX__V1__REQUEST__CALL_GET_GEOM] = { "no_handler", NULL, 0, NULL },
};

/* As the core does: a session that left waits for nothing. */
static void
hook_left(struct session *s)
{
	pending_session_left(s);
}

static void
hook_drained(struct session *s)
{
}

static const struct session_hooks hooks = {
	.frame = dispatch_frame,
	.refuse = reply_refuse,
	.drained = hook_drained,
	.left = hook_left,
};

static void
setup(void)
{
	inproc_start(&d, NULL);
	sessions_init(&hooks);
	dispatch_init(table, sizeof(table) / sizeof(table[0]));
}

/* After a failed assertion: each test stops its daemon itself. */
static void
teardown(void)
{
	inproc_stop(&d);
}

/* Send request id calling call (one with an Empty argument). */
static void
send_call(int peer, uint64_t id, Haptix__V1__Request__CallCase call)
{
	static Haptix__V1__Empty empty = HAPTIX__V1__EMPTY__INIT;
	Haptix__V1__Request req = HAPTIX__V1__REQUEST__INIT;
	uint8_t buf[64];
	size_t n;

	req.id = id;
	req.call_case = call;
	if (call != HAPTIX__V1__REQUEST__CALL__NOT_SET)
		req.info = &empty; /* the union's member of every Empty call */
	n = envelope_request_size(&req);
	cr_assert_leq(n, sizeof(buf));
	envelope_request_pack(&req, buf);
	inproc_write_frame(peer, buf, n);
}

/* Send a Hello as name with request id. */
static void
send_hello(int peer, uint64_t id, const char *name)
{
	Haptix__V1__Hello hello = HAPTIX__V1__HELLO__INIT;
	Haptix__V1__Request req = HAPTIX__V1__REQUEST__INIT;
	uint8_t buf[128];
	size_t n;

	hello.protocol_version =
	    HAPTIX__V1__PROTOCOL_VERSION__PROTOCOL_VERSION_CURRENT;
	hello.client_name = (char *)name;
	req.id = id;
	req.call_case = HAPTIX__V1__REQUEST__CALL_HELLO;
	req.hello = &hello;
	n = envelope_request_size(&req);
	cr_assert_leq(n, sizeof(buf));
	envelope_request_pack(&req, buf);
	inproc_write_frame(peer, buf, n);
}

/* Expect the next answer: request id, result code, and its exact error. */
static void
expect(struct inproc_rx *rx, int peer, uint64_t id, int code, const char *error)
{
	Response *r = inproc_rx_response(&d, rx, peer, 2);

	cr_assert_eq(r->id, id, "answer to %llu, not %llu",
	    (unsigned long long)r->id, (unsigned long long)id);
	cr_assert_eq((int)r->result, code, "result %d, not %d (%s)",
	    (int)r->result, code, r->error);
	cr_assert_str_eq(r->error, error);
	if (code != RESULT_OK)
		cr_assert_eq(r->payload_case,
		    HAPTIX__V1__RESPONSE__PAYLOAD__NOT_SET,
		    "a refusal carries no payload");
	haptix__v1__response__free_unpacked(r, NULL);
}

/* Expect h_ok's answer to request id. */
static void
expect_ok(struct inproc_rx *rx, int peer, uint64_t id)
{
	Response *r = inproc_rx_response(&d, rx, peer, 2);

	cr_assert_eq(r->id, id);
	cr_assert_eq(r->result, HAPTIX__V1__RESULT__RESULT_OK, "%s", r->error);
	cr_assert_str_eq(r->error, "");
	cr_assert_eq(
	    r->payload_case, HAPTIX__V1__RESPONSE__PAYLOAD_SUBSCRIPTION);
	cr_assert_eq(r->subscription->id, SUB_OK);
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

/* A session past its Hello, as client "tester". */
static struct session *
ready_session(int *peer)
{
	struct session *s = inproc_session(&d, peer, 0);

	session_set_state(s, SESSION_READY);
	snprintf(s->name, sizeof(s->name), "tester");
	return s;
}

Test(dispatch, hello_welcomes_then_serves, .init = setup, .fini = teardown)
{
	struct inproc_rx rx = { 0 };
	struct session *s;
	int peer;

	s = inproc_session(&d, &peer, 0);
	cr_assert_eq(s->state, SESSION_HELLO);
	send_hello(peer, 1, "alice");
	expect(&rx, peer, 1, RESULT_OK, "");
	cr_assert_eq(s->state, SESSION_READY, "a welcome makes it READY");
	cr_assert_str_eq(s->name, "alice");

	send_call(peer, 2, HAPTIX__V1__REQUEST__CALL_INFO);
	expect_ok(&rx, peer, 2);
	cr_assert_eq(ran_id, 2);
	cr_assert_eq(ran_s, s, "the handler is given its session");

	send_hello(peer, 3, "alice");
	expect(&rx, peer, 3, RESULT_BADPROTOCOL,
	    "Hello was already received on this connection");
	cr_assert_eq(nran, 2, "a second Hello reaches no handler");
	cr_assert_eq(s->state, SESSION_READY, "and the session goes on");
	cr_assert_eq(s->requests, 3);
	cr_assert_eq(s->errors, 1);
	inproc_rx_free(&rx);
	close(peer);
	inproc_stop(&d);
}

Test(dispatch, first_request_must_be_hello, .init = setup, .fini = teardown)
{
	struct inproc_rx rx = { 0 };
	struct session *s;
	int peer;

	s = inproc_session(&d, &peer, 0);
	send_call(peer, 1, HAPTIX__V1__REQUEST__CALL_INFO);
	expect(&rx, peer, 1, RESULT_BADPROTOCOL,
	    "the first request must be Hello");
	cr_assert_eq(nran, 0);
	cr_assert_eq(s->state, SESSION_CLOSING, "then the session closes");
	cr_assert(inproc_rx_eof(&d, &rx, peer, 2), "the client sees the end");
	inproc_rx_free(&rx);
	close(peer);
	inproc_stop(&d);
}

Test(dispatch, hello_refused_closes, .init = setup, .fini = teardown)
{
	struct inproc_rx rx = { 0 };
	struct session *s;
	int peer;

	s = inproc_session(&d, &peer, 0);
	send_hello(peer, 1, "bad");
	expect(&rx, peer, 1, RESULT_DENIED, "no bad clients here");
	cr_assert_eq(nran, 1);
	cr_assert_eq(s->state, SESSION_CLOSING);
	cr_assert(inproc_rx_eof(&d, &rx, peer, 2));
	inproc_rx_free(&rx);
	close(peer);
	inproc_stop(&d);
}

Test(dispatch, garbage_before_hello_is_refused_and_closed, .init = setup,
    .fini = teardown)
{
	static const uint8_t junk[] = { 0xff, 0xff, 0xff };
	struct inproc_rx rx = { 0 };
	struct session *s;
	int peer;

	s = inproc_session(&d, &peer, 0);
	inproc_write_frame(peer, junk, sizeof(junk));
	expect(&rx, peer, 0, RESULT_BADPROTOCOL,
	    "the frame (3 bytes) does not decode as a haptix.v1.Request");
	cr_assert_eq(s->requests, 1);
	cr_assert(inproc_rx_eof(&d, &rx, peer, 2), "closed after the reason");
	inproc_rx_free(&rx);
	close(peer);
	inproc_stop(&d);
}

Test(dispatch, garbage_when_ready_is_answered_and_served_on, .init = setup,
    .fini = teardown)
{
	static const uint8_t junk[] = { 0xff, 0xff, 0xff, 0xff, 0xff };
	struct inproc_rx rx = { 0 };
	struct session *s;
	int peer;

	s = ready_session(&peer);
	inproc_write_frame(peer, junk, sizeof(junk));
	expect(&rx, peer, 0, RESULT_BADPROTOCOL,
	    "the frame (5 bytes) does not decode as a haptix.v1.Request");
	cr_assert_eq(s->state, SESSION_READY);
	send_call(peer, 4, HAPTIX__V1__REQUEST__CALL_INFO);
	expect_ok(&rx, peer, 4);
	cr_assert_eq(s->requests, 2);
	cr_assert_eq(s->errors, 1);
	inproc_rx_free(&rx);
	close(peer);
	inproc_stop(&d);
}

Test(dispatch, unknown_calls_named, .init = setup, .fini = teardown)
{
	/* id 5 and field 999 (a varint 1): a newer client's call. */
	static const uint8_t newer[] = { 0x08, 0x05, 0xb8, 0x3e, 0x01 };
	struct inproc_rx rx = { 0 };
	char want[200];
	int peer;

	ready_session(&peer);

	/* Past the end of the table. */
	send_call(peer, 1, HAPTIX__V1__REQUEST__CALL_GET_SITE);
	snprintf(want, sizeof(want),
	    "unknown call (field %d): this server speaks protocol version %d",
	    HAPTIX__V1__REQUEST__CALL_GET_SITE,
	    HAPTIX__V1__PROTOCOL_VERSION__PROTOCOL_VERSION_CURRENT);
	expect(&rx, peer, 1, RESULT_BADCOMMAND, want);

	/* A row with a name and no handler. */
	send_call(peer, 2, HAPTIX__V1__REQUEST__CALL_GET_GEOM);
	snprintf(want, sizeof(want),
	    "unknown call (field %d): this server speaks protocol version %d",
	    HAPTIX__V1__REQUEST__CALL_GET_GEOM,
	    HAPTIX__V1__PROTOCOL_VERSION__PROTOCOL_VERSION_CURRENT);
	expect(&rx, peer, 2, RESULT_BADCOMMAND, want);

	/* A field this server's protocol does not have. */
	inproc_write_frame(peer, newer, sizeof(newer));
	snprintf(want, sizeof(want),
	    "unknown call (field 999): this server speaks protocol version %d",
	    HAPTIX__V1__PROTOCOL_VERSION__PROTOCOL_VERSION_CURRENT);
	expect(&rx, peer, 5, RESULT_BADCOMMAND, want);

	/* No call at all. */
	send_call(peer, 6, HAPTIX__V1__REQUEST__CALL__NOT_SET);
	expect(&rx, peer, 6, RESULT_BADCOMMAND, "empty request: no call set");
	cr_assert_eq(nran, 0);
	inproc_rx_free(&rx);
	close(peer);
	inproc_stop(&d);
}

Test(dispatch, request_id_zero_refused, .init = setup, .fini = teardown)
{
	struct inproc_rx rx = { 0 };
	struct session *s;
	int peer;

	s = ready_session(&peer);
	send_call(peer, 0, HAPTIX__V1__REQUEST__CALL_INFO);
	expect(&rx, peer, 0, RESULT_BADPROTOCOL,
	    "request id 0 is reserved for events and errors of the "
	    "connection: number requests from 1");
	cr_assert_eq(nran, 0, "the handler did not run");
	cr_assert_eq(s->state, SESSION_READY);
	inproc_rx_free(&rx);
	close(peer);
	inproc_stop(&d);
}

Test(dispatch, model_calls_need_a_model, .init = setup, .fini = teardown)
{
	struct inproc_rx rx = { 0 };
	int peer;

	ready_session(&peer);
	send_call(peer, 1, HAPTIX__V1__REQUEST__CALL_GET_STATE);
	expect(&rx, peer, 1, RESULT_NOMODEL, "no model is loaded");
	cr_assert_eq(nran, 0);
	send_call(peer, 2, HAPTIX__V1__REQUEST__CALL_INFO);
	expect_ok(&rx, peer, 2);
	inproc_load(&d, "fixture.xml");
	send_call(peer, 3, HAPTIX__V1__REQUEST__CALL_GET_STATE);
	expect_ok(&rx, peer, 3);
	cr_assert_eq(nran, 2);
	inproc_rx_free(&rx);
	close(peer);
	inproc_stop(&d);
}

Test(dispatch, writes_need_the_lease, .init = setup, .fini = teardown)
{
	struct inproc_rx rx = { 0 };
	static struct session zed; /* the holder: only its id and name */
	char want[200], err[200];
	int peer;

	ready_session(&peer);
	send_call(peer, 1, HAPTIX__V1__REQUEST__CALL_GET_CONTROL);
	expect_ok(&rx, peer, 1);
	cr_assert_eq(nwrites_asked, 0, "a call that always writes");

	/* Another client holds the lease: reads go on, writes do not. */
	zed.id = 999;
	snprintf(zed.name, sizeof(zed.name), "zed");
	cr_assert_eq(lease_take(&d, &zed, err, sizeof(err)), 0, "%s", err);
	snprintf(want, sizeof(want),
	    "client 999 (zed) holds the control lease: other clients may "
	    "read but not change the simulation");
	send_call(peer, 2, HAPTIX__V1__REQUEST__CALL_GET_CONTROL);
	expect(&rx, peer, 2, RESULT_DENIED, want);
	cr_assert_eq(nran, 1, "a refused write reaches no handler");
	send_call(peer, 3, HAPTIX__V1__REQUEST__CALL_INFO);
	expect_ok(&rx, peer, 3);

	/* A call that writes only sometimes is asked, and checked then. */
	sometimes = 0;
	send_call(peer, 4, HAPTIX__V1__REQUEST__CALL_GET_APPLIED);
	expect_ok(&rx, peer, 4);
	cr_assert_gt(nwrites_asked, 0);
	sometimes = 1;
	send_call(peer, 5, HAPTIX__V1__REQUEST__CALL_GET_APPLIED);
	expect(&rx, peer, 5, RESULT_DENIED, want);
	cr_assert_eq(nran, 3);

	/* Or a batch run holds the simulation. */
	cr_assert_eq(lease_release(&d, &zed, err, sizeof(err)), 0, "%s", err);
	lease_batch_hold(&d, 998);
	send_call(peer, 6, HAPTIX__V1__REQUEST__CALL_GET_CONTROL);
	expect(&rx, peer, 6, RESULT_DENIED,
	    "client 998 is running a batch: the simulation cannot change "
	    "until it is done");
	lease_batch_hold(&d, 0);
	send_call(peer, 7, HAPTIX__V1__REQUEST__CALL_GET_CONTROL);
	expect_ok(&rx, peer, 7);
	cr_assert_eq(nran, 4);
	inproc_rx_free(&rx);
	close(peer);
	inproc_stop(&d);
}

Test(dispatch, wait_tick_answers_at_the_tick, .init = setup, .fini = teardown)
{
	struct inproc_rx rx = { 0 };
	struct session *s;
	Response *r;
	int peer;

	s = ready_session(&peer);
	send_call(peer, 8, HAPTIX__V1__REQUEST__CALL_GET_MOCAP);
	expect_silence(&rx, peer);
	cr_assert_eq(nran, 1);
	cr_assert_eq(s->state, SESSION_WAITING);
	cr_assert_eq(pending_waiting(&d), 1);
	cr_assert_eq(nfill, 0, "not filled before the tick");
	pending_tick(&d);
	cr_assert_eq(nfill, 1);
	r = inproc_rx_response(&d, &rx, peer, 2);
	cr_assert_eq(r->id, 8);
	cr_assert_eq(r->result, HAPTIX__V1__RESULT__RESULT_OK);
	cr_assert_eq(r->subscription->id, SUB_TICK);
	haptix__v1__response__free_unpacked(r, NULL);
	cr_assert_eq(s->state, SESSION_READY);
	inproc_rx_free(&rx);
	close(peer);
	inproc_stop(&d);
}

Test(dispatch, busy_holds_the_session, .init = setup, .fini = teardown)
{
	struct inproc_rx rx = { 0 };
	Response resp = HAPTIX__V1__RESPONSE__INIT;
	struct session *s;
	int peer;

	s = ready_session(&peer);
	send_call(peer, 9, HAPTIX__V1__REQUEST__CALL_GET_DYNAMICS);
	send_call(peer, 10, HAPTIX__V1__REQUEST__CALL_INFO);
	expect_silence(&rx, peer);
	cr_assert_eq(s->state, SESSION_BUSY);
	cr_assert_eq(nran, 1, "the next request waits for the busy call");
	pending_finish(s, 9, RESULT_OK, NULL, &resp);
	expect(&rx, peer, 9, RESULT_OK, "");
	expect_ok(&rx, peer, 10);
	cr_assert_eq(nran, 2);
	inproc_rx_free(&rx);
	close(peer);
	inproc_stop(&d);
}

Test(dispatch, mujoco_error_in_handler_is_simerror, .init = setup,
    .fini = teardown)
{
	struct inproc_rx rx = { 0 };
	struct session *s;
	Response *r;
	int peer;

	inproc_load(&d, "fixture.xml");
	s = ready_session(&peer);
	send_call(peer, 11, HAPTIX__V1__REQUEST__CALL_GET_SENSOR);
	r = inproc_rx_response(&d, &rx, peer, 2);
	cr_assert_eq(r->id, 11);
	cr_assert_eq(r->result, HAPTIX__V1__RESULT__RESULT_SIMERROR);
	cr_assert(
	    strstr(r->error, "test handler broke") != NULL, "%s", r->error);
	haptix__v1__response__free_unpacked(r, NULL);
	cr_assert_eq(sim_counters(d.sim)->errors, 1);
	cr_assert_eq(s->state, SESSION_READY, "the daemon serves on");
	send_call(peer, 12, HAPTIX__V1__REQUEST__CALL_INFO);
	expect_ok(&rx, peer, 12);
	inproc_rx_free(&rx);
	close(peer);
	inproc_stop(&d);
}

Test(dispatch, cleanup_runs_after_the_answer, .init = setup, .fini = teardown)
{
	struct inproc_rx rx = { 0 };
	struct session *s;
	int peer;

	s = ready_session(&peer);
	send_call(peer, 13, HAPTIX__V1__REQUEST__CALL_GET_BODY);
	expect(&rx, peer, 13, RESULT_BADINDEX, "body 7 is not there");
	cr_assert_eq(ncleanup, 1);
	cr_assert_gt(out_at_clean, 0, "the answer went out before it");
	cr_assert_eq(out_at_clean, s->bytes_out, "and nothing after it");

	/* A call's cleanup is its own: the next call runs none. */
	send_call(peer, 14, HAPTIX__V1__REQUEST__CALL_INFO);
	expect_ok(&rx, peer, 14);
	cr_assert_eq(ncleanup, 1);
	inproc_rx_free(&rx);
	close(peer);
	inproc_stop(&d);
}
