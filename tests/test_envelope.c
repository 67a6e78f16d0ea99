/*
 * The wire's envelopes packed and parsed by hand (lib/envelope.c),
 * against protobuf-c itself: the same bytes for every call and every
 * payload, the same verdict on every prefix of a message and on a
 * hundred thousand damaged ones, and what a parsed envelope holds.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "envelope.h"

TestSuite(envelope, .timeout = 60);

typedef Haptix__V1__Request Request;
typedef Haptix__V1__Response Response;

/* A fresh message of the member's type, as protobuf-c initialises it. */
static ProtobufCMessage *
member_new(const ProtobufCFieldDescriptor *fd)
{
	const ProtobufCMessageDescriptor *md = fd->descriptor;
	ProtobufCMessage *m = calloc(1, md->sizeof_message);

	cr_assert_not_null(m);
	md->message_init(m);
	return m;
}

static void
member_set(void *msg, const ProtobufCFieldDescriptor *fd, ProtobufCMessage *m)
{
	memcpy((char *)msg + fd->offset, &m, sizeof(m));
}

/* Pack r both ways; the two must be the same bytes. */
static void
same_request_bytes(const Request *r)
{
	size_t n = haptix__v1__request__get_packed_size(r);
	uint8_t *a = malloc(n + 1), *b = malloc(n + 1);

	cr_assert_eq(envelope_request_size(r), n, "call %d id %llu",
	    (int)r->call_case, (unsigned long long)r->id);
	cr_assert_eq(haptix__v1__request__pack(r, a), n);
	cr_assert_eq(envelope_request_pack(r, b), n);
	cr_assert_arr_eq(a, b, n, "call %d", (int)r->call_case);
	free(a);
	free(b);
}

static void
same_response_bytes(const Response *r)
{
	size_t n = haptix__v1__response__get_packed_size(r);
	uint8_t *a = malloc(n + 1), *b = malloc(n + 1);

	cr_assert_eq(
	    envelope_response_size(r), n, "payload %d", (int)r->payload_case);
	cr_assert_eq(haptix__v1__response__pack(r, a), n);
	cr_assert_eq(envelope_response_pack(r, b), n);
	cr_assert_arr_eq(a, b, n, "payload %d", (int)r->payload_case);
	free(a);
	free(b);
}

Test(envelope, every_call_packs_as_protobuf_c_packs_it)
{
	const ProtobufCMessageDescriptor *d = &haptix__v1__request__descriptor;
	static const uint64_t ids[] = { 0, 1, 127, 128, 300, 1ull << 40,
		UINT64_MAX };
	Request r;
	ProtobufCMessage *m;
	unsigned f, k, calls = 0;

	for (f = 0; f < d->n_fields; f++) {
		if (!(d->fields[f].flags & PROTOBUF_C_FIELD_FLAG_ONEOF))
			continue;
		calls++;
		for (k = 0; k < sizeof(ids) / sizeof(ids[0]); k++) {
			haptix__v1__request__init(&r);
			r.id = ids[k];
			r.call_case = (Haptix__V1__Request__CallCase)d
					  ->fields[f]
					  .id;
			m = member_new(&d->fields[f]);
			member_set(&r, &d->fields[f], m);
			same_request_bytes(&r);
			/* protobuf-c packs nothing of a NULL member. */
			member_set(&r, &d->fields[f], NULL);
			same_request_bytes(&r);
			free(m);
		}
	}
	cr_assert_gt(calls, 50, "only %u calls in the descriptor", calls);
	/* No call at all, and a member with content. */
	haptix__v1__request__init(&r);
	r.id = 9;
	same_request_bytes(&r);
}

Test(envelope, every_payload_packs_as_protobuf_c_packs_it)
{
	const ProtobufCMessageDescriptor *d = &haptix__v1__response__descriptor;
	static const int results[] = { 0, -1, -14, 5 };
	static const char *const errors[] = { NULL, "",
		"the model is not "
		"loaded: \xc3\xa9" };
	Response r;
	ProtobufCMessage *m;
	unsigned f, k, e;

	for (f = 0; f < d->n_fields; f++) {
		if (!(d->fields[f].flags & PROTOBUF_C_FIELD_FLAG_ONEOF))
			continue;
		for (k = 0; k < 4; k++)
			for (e = 0; e < 3; e++) {
				haptix__v1__response__init(&r);
				r.id = k * 1000;
				r.result = (Haptix__V1__Result)results[k];
				if (errors[e] != NULL)
					r.error = (char *)errors[e];
				r.payload_case = (Haptix__V1__Response__PayloadCase)
						     d->fields[f]
							 .id;
				m = member_new(&d->fields[f]);
				member_set(&r, &d->fields[f], m);
				same_response_bytes(&r);
				free(m);
			}
	}
}

/* A state answer with content, as the daemon sends mj_get_state's. */
static size_t
state_answer(uint8_t *buf, size_t cap)
{
	static double q[38], v[38];
	Haptix__V1__State st = HAPTIX__V1__STATE__INIT;
	Response r = HAPTIX__V1__RESPONSE__INIT;
	size_t i;

	for (i = 0; i < 38; i++) {
		q[i] = 0.1 * (double)i - 1.7;
		v[i] = -0.01 * (double)i;
	}
	st.nq = st.nv = 38;
	st.time = 12.345;
	st.n_qpos = st.n_qvel = 38;
	st.qpos = q;
	st.qvel = v;
	r.id = 4242;
	r.payload_case = HAPTIX__V1__RESPONSE__PAYLOAD_STATE;
	r.state = &st;
	cr_assert_leq(haptix__v1__response__get_packed_size(&r), cap);
	return envelope_response_pack(&r, buf);
}

Test(envelope, a_parsed_answer_holds_what_was_sent)
{
	uint8_t buf[1024], again[1024];
	size_t n = state_answer(buf, sizeof(buf));
	Response *r = envelope_response_parse(buf, n);

	cr_assert_not_null(r);
	cr_expect_eq(r->id, 4242);
	cr_expect_eq(r->result, 0);
	cr_expect_str_eq(r->error, "");
	cr_assert_eq(r->payload_case, HAPTIX__V1__RESPONSE__PAYLOAD_STATE);
	cr_assert_not_null(r->state);
	cr_expect_eq(r->state->n_qpos, 38);
	cr_expect_eq(r->state->qpos[37], 0.1 * 37 - 1.7);
	cr_expect_eq(r->state->time, 12.345);
	cr_assert_eq(envelope_response_pack(r, again), n);
	cr_expect_arr_eq(again, buf, n);
	envelope_response_free(r);
}

Test(envelope, an_error_and_a_request_are_parsed)
{
	Haptix__V1__ObjectRef ref = HAPTIX__V1__OBJECT_REF__INIT;
	Response e = HAPTIX__V1__RESPONSE__INIT, *re;
	Request q = HAPTIX__V1__REQUEST__INIT, *rq;
	uint8_t buf[256];
	size_t n;

	e.id = 7;
	e.result = HAPTIX__V1__RESULT__RESULT_BADPROTOCOL;
	e.error = (char *)"no Hello";
	n = envelope_response_pack(&e, buf);
	re = envelope_response_parse(buf, n);
	cr_assert_not_null(re);
	cr_expect_eq(re->result, HAPTIX__V1__RESULT__RESULT_BADPROTOCOL);
	cr_expect_str_eq(re->error, "no Hello");
	cr_expect_eq(re->payload_case, 0);
	envelope_response_free(re);

	ref.name = (char *)"thumb";
	q.id = 3;
	q.call_case = HAPTIX__V1__REQUEST__CALL_NAME2ID;
	q.name2id = &ref;
	n = envelope_request_pack(&q, buf);
	rq = envelope_request_parse(buf, n);
	cr_assert_not_null(rq);
	cr_expect_eq(rq->id, 3);
	cr_assert_eq(rq->call_case, HAPTIX__V1__REQUEST__CALL_NAME2ID);
	cr_expect_str_eq(rq->name2id->name, "thumb");
	envelope_request_free(rq);
	/* A newer client's call: its number kept, its bytes skipped. */
	{
		static const uint8_t newer[] = { 0x08, 0x05, 0x9a, 0x06, 0x02,
			0x08, 0x01 }; /* id 5, field 99: 2 bytes */

		rq = envelope_request_parse(newer, sizeof(newer));
		cr_assert_not_null(rq);
		cr_expect_eq(rq->id, 5);
		cr_expect_eq(rq->call_case, 0);
		cr_assert_eq(rq->base.n_unknown_fields, 1);
		cr_expect_eq(rq->base.unknown_fields[0].tag, 99);
		envelope_request_free(rq);
	}
	/* Nothing at all is a Request with no call, as protobuf-c has it. */
	rq = envelope_request_parse(buf, 0);
	cr_assert_not_null(rq);
	cr_expect_eq(rq->call_case, 0);
	envelope_request_free(rq);
}

/* protobuf-c's message, without its unknown fields, packs to y. */
static void
same_repack(ProtobufCMessage *theirs, const uint8_t *y, size_t ny,
    const char *what, size_t at)
{
	size_t nx, unknown = theirs->n_unknown_fields;
	uint8_t x[2048];

	theirs->n_unknown_fields = 0;
	cr_assert_leq(protobuf_c_message_get_packed_size(theirs), sizeof(x));
	nx = protobuf_c_message_pack(theirs, x);
	theirs->n_unknown_fields = unknown;
	cr_assert(nx == ny && memcmp(x, y, nx) == 0, "%s %zu: the %ss differ",
	    what, at, theirs->descriptor->short_name);
}

/*
 * The verdict protobuf-c gives on these bytes, and ours; when both
 * parse, the two messages pack to the same bytes but for the fields of
 * the envelope that neither knows, which protobuf-c keeps and writes
 * again, and we skip (inside the member protobuf-c parses for both).
 */
static void
same_verdict(const uint8_t *p, size_t n, const char *what, size_t at)
{
	Response *a = haptix__v1__response__unpack(NULL, n, p);
	Response *b = envelope_response_parse(p, n);
	Request *qa = haptix__v1__request__unpack(NULL, n, p);
	Request *qb = envelope_request_parse(p, n);
	uint8_t y[2048];

	cr_assert_eq(a != NULL, b != NULL, "%s %zu: Response: protobuf-c %s",
	    what, at, a != NULL ? "parsed it" : "refused it");
	cr_assert_eq(qa != NULL, qb != NULL, "%s %zu: Request: protobuf-c %s",
	    what, at, qa != NULL ? "parsed it" : "refused it");
	if (a != NULL) {
		cr_assert_leq(envelope_response_size(b), sizeof(y));
		same_repack(
		    &a->base, y, envelope_response_pack(b, y), what, at);
	}
	if (qa != NULL) {
		cr_assert_leq(envelope_request_size(qb), sizeof(y));
		same_repack(
		    &qa->base, y, envelope_request_pack(qb, y), what, at);
	}
	haptix__v1__response__free_unpacked(a, NULL);
	envelope_response_free(b);
	haptix__v1__request__free_unpacked(qa, NULL);
	envelope_request_free(qb);
}

Test(envelope, every_prefix_gets_protobuf_c_s_verdict)
{
	uint8_t buf[1024];
	size_t n = state_answer(buf, sizeof(buf)), i;

	for (i = 0; i <= n; i++)
		same_verdict(buf, i, "prefix", i);
}

/* xorshift64*: the same damaged messages on every run. */
static uint64_t
next_random(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ull;
}

Test(envelope, damaged_messages_get_protobuf_c_s_verdict)
{
	uint8_t good[1024], bad[1024];
	size_t n = state_answer(good, sizeof(good)), at;
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	int i, k, flips;

	for (i = 0; i < 100000; i++) {
		memcpy(bad, good, n);
		flips = 1 + (int)(next_random(&seed) % 3);
		for (k = 0; k < flips; k++) {
			/* Mostly in the envelope's first bytes. */
			at = (size_t)(next_random(&seed) % (k == 0 ? 12 : n));
			bad[at] = (uint8_t)next_random(&seed);
		}
		same_verdict(bad, n, "damaged message", (size_t)i);
	}
}
