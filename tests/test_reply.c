/*
 * Unit tests of the answers (daemon/reply.c), in-process: Responses
 * packed into real sessions on socketpairs, read from the far ends and
 * decoded.  The id, code and reason each answer carries, the frame
 * limit at and past its value, the fill's scratch memory, and sessions
 * no longer served or whose client has gone.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "arena.h"
#include "daemon.h"
#include "envelope.h"
#include "haptix.pb-c.h"
#include "inproc.h"
#include "monotonic.h"
#include "options.h"
#include "reply.h"
#include "result.h"
#include "session.h"

TestSuite(reply, .timeout = 10);

static struct daemon d;
static int nleft;

static void
hook_frame(struct session *s, const uint8_t *p, size_t len)
{
}

static void
hook_drained(struct session *s)
{
}

static void
hook_left(struct session *s)
{
	nleft++;
}

static const struct session_hooks hooks = {
	.frame = hook_frame,
	.refuse = reply_refuse,
	.drained = hook_drained,
	.left = hook_left,
};

static void
setup(void)
{
	inproc_start(&d, NULL);
	sessions_init(&hooks);
}

/* After a failed assertion: each test stops its daemon itself. */
static void
teardown(void)
{
	inproc_stop(&d);
}

/* Set --max-frame to bytes as the daemon runs (no lower bound here). */
static void
set_max_frame(size_t bytes)
{
	((struct options *)(uintptr_t)d.opts)->max_frame = bytes;
}

/* A served session past its Hello. */
static struct session *
ready_session(int *peer)
{
	struct session *s = inproc_session(&d, peer, 0);

	session_set_state(s, SESSION_READY);
	return s;
}

/* Read and decode the next Response from peer (caller frees). */
static Response *
next_response(struct inproc_rx *rx, int peer, long *len)
{
	const uint8_t *p;
	Response *r;
	long n = inproc_rx_frame(&d, rx, peer, &p, 2);

	cr_assert_geq(n, 0, "no answer (%ld)", n);
	if (len != NULL)
		*len = n;
	r = haptix__v1__response__unpack(NULL, (size_t)n, p);
	cr_assert_not_null(r, "the answer does not decode");
	return r;
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

/* A Response carrying an Array of n values i + 0.5, in arena a. */
static void
array_payload(struct arena *a, Response *resp, size_t n)
{
	Haptix__V1__Array *arr = arena_alloc(a, sizeof(*arr));
	size_t i;

	haptix__v1__array__init(arr);
	arr->n_values = n;
	arr->values = arena_alloc(a, n * sizeof(double));
	for (i = 0; i < n; i++)
		arr->values[i] = (double)i + 0.5;
	resp->payload_case = HAPTIX__V1__RESPONSE__PAYLOAD_ARRAY;
	resp->array = arr;
}

Test(reply, send_carries_id_code_reason_and_payload, .init = setup,
    .fini = teardown)
{
	struct inproc_rx rx = { 0 };
	struct arena a = { 0 };
	Response resp = HAPTIX__V1__RESPONSE__INIT, *r;
	struct session *s;
	int peer;
	size_t i;

	s = ready_session(&peer);
	array_payload(&a, &resp, 3);
	reply_send(s, 0x123456789abcull, RESULT_OK, "ignored when OK", &resp);
	r = next_response(&rx, peer, NULL);
	cr_assert_eq(r->id, 0x123456789abcull);
	cr_assert_eq(r->result, HAPTIX__V1__RESULT__RESULT_OK);
	cr_assert_str_eq(r->error, "", "an OK answer has no reason");
	cr_assert_eq(r->payload_case, HAPTIX__V1__RESPONSE__PAYLOAD_ARRAY);
	cr_assert_eq(r->array->n_values, 3);
	for (i = 0; i < 3; i++)
		cr_assert_eq(r->array->values[i], (double)i + 0.5);
	haptix__v1__response__free_unpacked(r, NULL);
	cr_assert_eq(s->errors, 0);

	haptix__v1__response__init(&resp);
	reply_send(s, 2, RESULT_BADINDEX, "geom 9 is not there", &resp);
	r = next_response(&rx, peer, NULL);
	cr_assert_eq(r->id, 2);
	cr_assert_eq(r->result, HAPTIX__V1__RESULT__RESULT_BADINDEX);
	cr_assert_str_eq(r->error, "geom 9 is not there");
	haptix__v1__response__free_unpacked(r, NULL);
	cr_assert_eq(s->errors, 1, "a refusal is counted");

	haptix__v1__response__init(&resp);
	reply_send(s, 3, RESULT_SIMERROR, NULL, &resp);
	r = next_response(&rx, peer, NULL);
	cr_assert_eq(r->result, HAPTIX__V1__RESULT__RESULT_SIMERROR);
	cr_assert_str_eq(r->error, "", "no reason given: none sent");
	haptix__v1__response__free_unpacked(r, NULL);
	cr_assert_eq(s->errors, 2);
	expect_silence(&rx, peer);
	arena_free(&a);
	inproc_rx_free(&rx);
	close(peer);
	inproc_stop(&d);
}

Test(reply, refuse_answers_no_request, .init = setup, .fini = teardown)
{
	struct inproc_rx rx = { 0 };
	struct session *s;
	Response *r;
	int peer;

	s = ready_session(&peer);
	reply_refuse(s, RESULT_BADPROTOCOL, "that was not a frame");
	r = next_response(&rx, peer, NULL);
	cr_assert_eq(r->id, 0, "id 0: the connection's, no request's");
	cr_assert_eq(r->result, HAPTIX__V1__RESULT__RESULT_BADPROTOCOL);
	cr_assert_str_eq(r->error, "that was not a frame");
	cr_assert_eq(r->payload_case, HAPTIX__V1__RESPONSE__PAYLOAD__NOT_SET);
	haptix__v1__response__free_unpacked(r, NULL);
	cr_assert_eq(s->errors, 1);
	cr_assert_eq(s->state, SESSION_READY, "refusing does not close");
	inproc_rx_free(&rx);
	close(peer);
	inproc_stop(&d);
}

Test(reply, frame_limit_at_and_past, .init = setup, .fini = teardown)
{
	struct inproc_rx rx = { 0 };
	struct arena a = { 0 };
	Response resp = HAPTIX__V1__RESPONSE__INIT, *r;
	struct session *s;
	size_t size;
	char want[200];
	long len;
	int peer;

	s = ready_session(&peer);
	array_payload(&a, &resp, 300);
	resp.id = 41;
	size = envelope_response_size(&resp);
	cr_assert_gt(size, 2400);

	/* Exactly at the limit: it goes. */
	set_max_frame(size);
	reply_send(s, 41, RESULT_OK, NULL, &resp);
	r = next_response(&rx, peer, &len);
	cr_assert_eq((size_t)len, size);
	cr_assert_eq(r->result, HAPTIX__V1__RESULT__RESULT_OK);
	cr_assert_eq(r->array->n_values, 300);
	cr_assert_eq(r->array->values[299], 299.5);
	haptix__v1__response__free_unpacked(r, NULL);
	cr_assert_eq(s->errors, 0);

	/* A byte more than the limit: BADSIZE in its place, no payload. */
	set_max_frame(size - 1);
	array_payload(&a, &resp, 300);
	reply_send(s, 41, RESULT_OK, NULL, &resp);
	r = next_response(&rx, peer, NULL);
	cr_assert_eq(r->id, 41, "still the answer to its request");
	cr_assert_eq(r->result, HAPTIX__V1__RESULT__RESULT_BADSIZE);
	cr_assert_eq(r->payload_case, HAPTIX__V1__RESPONSE__PAYLOAD__NOT_SET);
	snprintf(want, sizeof(want),
	    "the answer (%zu bytes) exceeds the frame limit of %zu bytes "
	    "(--max-frame)",
	    size, size - 1);
	cr_assert_str_eq(r->error, want);
	haptix__v1__response__free_unpacked(r, NULL);
	cr_assert_eq(s->errors, 1, "counted as an error");
	cr_assert_eq(s->state, SESSION_READY);

	/* A refusal too long for the limit is replaced as well. */
	{
		char long_err[4000];

		memset(long_err, 'e', sizeof(long_err) - 1);
		long_err[sizeof(long_err) - 1] = '\0';
		set_max_frame(1024);
		haptix__v1__response__init(&resp);
		reply_send(s, 42, RESULT_DENIED, long_err, &resp);
		r = next_response(&rx, peer, &len);
		cr_assert_eq(r->id, 42);
		cr_assert_eq(r->result, HAPTIX__V1__RESULT__RESULT_BADSIZE);
		cr_assert_leq((size_t)len, 1024);
		cr_assert(strstr(r->error, "frame limit of 1024 bytes") != NULL,
		    "%s", r->error);
		haptix__v1__response__free_unpacked(r, NULL);
	}
	arena_free(&a);
	inproc_rx_free(&rx);
	close(peer);
	inproc_stop(&d);
}

static int nfill;
static size_t fill_total_at_entry[2];
static struct daemon *fill_d;

/* Fills an Array of 1000 values and notes the arena it was given. */
static void
fill_array(struct daemon *dd, struct arena *a, Response *resp)
{
	cr_assert_eq(resp->payload_case, HAPTIX__V1__RESPONSE__PAYLOAD__NOT_SET,
	    "a fresh Response");
	if (nfill < 2)
		fill_total_at_entry[nfill] = a->total;
	nfill++;
	fill_d = dd;
	array_payload(a, resp, 1000);
}

Test(reply, fill_answers_with_its_own_scratch, .init = setup, .fini = teardown)
{
	struct inproc_rx rx = { 0 };
	struct session *s;
	Response *r;
	int peer;

	s = ready_session(&peer);
	reply_fill(s, 7, fill_array);
	reply_fill(s, 8, fill_array);
	cr_assert_eq(nfill, 2);
	cr_assert_eq(fill_d, &d, "the fill is given the session's daemon");
	cr_assert_eq(fill_total_at_entry[0], 0);
	cr_assert_eq(
	    fill_total_at_entry[1], 0, "the scratch was reset after the first");
	r = next_response(&rx, peer, NULL);
	cr_assert_eq(r->id, 7);
	cr_assert_eq(r->result, HAPTIX__V1__RESULT__RESULT_OK);
	cr_assert_eq(r->array->n_values, 1000);
	cr_assert_eq(r->array->values[999], 999.5);
	haptix__v1__response__free_unpacked(r, NULL);
	r = next_response(&rx, peer, NULL);
	cr_assert_eq(r->id, 8);
	haptix__v1__response__free_unpacked(r, NULL);
	cr_assert_eq(s->errors, 0);
	inproc_rx_free(&rx);
	close(peer);
	inproc_stop(&d);
}

Test(reply, nothing_to_a_session_closing, .init = setup, .fini = teardown)
{
	struct inproc_rx rx = { 0 };
	Response resp = HAPTIX__V1__RESPONSE__INIT;
	struct session *s;
	int peer;

	s = ready_session(&peer);
	session_close_after_flush(s, "going");
	reply_send(s, 1, RESULT_DENIED, "too late", &resp);
	reply_refuse(s, RESULT_BADPROTOCOL, "too late");
	reply_fill(s, 2, fill_array);
	cr_assert_eq(s->errors, 0, "nothing sent, nothing counted");
	cr_assert_eq(s->bytes_out, 0);
	cr_assert(inproc_rx_eof(&d, &rx, peer, 2));
	cr_assert_eq(rx.len, 0, "no answer after the close");
	inproc_rx_free(&rx);
	close(peer);
	inproc_stop(&d);
}

Test(reply, client_gone, .init = setup, .fini = teardown)
{
	Response resp = HAPTIX__V1__RESPONSE__INIT;
	struct session *s;
	double end;
	int peer;

	s = ready_session(&peer);
	close(peer);
	reply_send(s, 1, RESULT_OK, NULL, &resp);
	reply_fill(s, 2, fill_array);
	end = monotonic_s() + 2;
	while (nleft == 0 && monotonic_s() < end)
		inproc_run_for(&d, 0.001);
	cr_assert_eq(nleft, 1, "the session left, the daemon did not die");
	cr_assert_eq(sessions_count(&d), 0);
	inproc_stop(&d);
}
