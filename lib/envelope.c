/* The wire's envelopes: see envelope.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "envelope.h"

/* Wire types of the protobuf encoding. */
enum { WIRE_VARINT = 0, WIRE_64BIT = 1, WIRE_LEN = 2, WIRE_32BIT = 5 };

/* Field numbers of the envelopes' own fields. */
enum { FIELD_ID = 1, FIELD_RESULT = 2, FIELD_ERROR = 3 };

/* An envelope while it is parsed: its fields, then its one member. */
struct envelope {
	const ProtobufCMessageDescriptor *desc;
	int response; /* fields 2 and 3 are result and error */
	uint64_t id;
	int32_t result;
	char *error;
	const ProtobufCFieldDescriptor *member_fd;
	ProtobufCMessage *member;
	uint32_t unknown; /* the last field of a number it does not have */
	unsigned unknown_wire;
};

static size_t
varint_size(uint64_t v)
{
	size_t n = 1;

	for (; v >= 0x80; v >>= 7)
		n++;
	return n;
}

static uint8_t *
varint_put(uint8_t *p, uint64_t v)
{
	for (; v >= 0x80; v >>= 7)
		*p++ = (uint8_t)(v | 0x80);
	*p++ = (uint8_t)v;
	return p;
}

/* At most ten bytes, as protobuf-c reads them; -1 past the end. */
static int
varint_get(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	uint64_t r = 0;
	unsigned shift;
	uint8_t b;

	for (shift = 0; shift < 70; shift += 7) {
		if (*p == end)
			return -1;
		b = *(*p)++;
		r |= (uint64_t)(b & 0x7f) << shift;
		if ((b & 0x80) == 0) {
			*v = r;
			return 0;
		}
	}
	return -1;
}

static uint64_t
tag(uint32_t field, unsigned wire)
{
	return (uint64_t)field << 3 | wire;
}

/* The member of the oneof whose case is which, or NULL with none. */
static const ProtobufCFieldDescriptor *
member_field(const ProtobufCMessageDescriptor *desc, uint32_t which)
{
	const ProtobufCFieldDescriptor *fd;

	if (which == 0)
		return NULL;
	fd = protobuf_c_message_descriptor_get_field(desc, which);
	return fd != NULL && (fd->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) &&
		fd->type == PROTOBUF_C_TYPE_MESSAGE ?
	    fd :
	    NULL;
}

static const ProtobufCMessage *
member_of(const void *msg, const ProtobufCFieldDescriptor *fd)
{
	const ProtobufCMessage *m;

	memcpy(&m, (const char *)msg + fd->offset, sizeof(m));
	return m;
}

/* The member's bytes, tag and length included (none for a NULL member,
 * as protobuf-c has it); *inner gets the message's own size. */
static size_t
member_size(const void *msg, const ProtobufCFieldDescriptor *fd, size_t *inner)
{
	const ProtobufCMessage *m;

	*inner = 0;
	if (fd == NULL || (m = member_of(msg, fd)) == NULL)
		return 0;
	*inner = protobuf_c_message_get_packed_size(m);
	return varint_size(tag(fd->id, WIRE_LEN)) + varint_size(*inner) +
	    *inner;
}

static uint8_t *
member_pack(const void *msg, const ProtobufCFieldDescriptor *fd, size_t inner,
    uint8_t *p)
{
	const ProtobufCMessage *m;

	if (fd == NULL || (m = member_of(msg, fd)) == NULL)
		return p;
	p = varint_put(p, tag(fd->id, WIRE_LEN));
	p = varint_put(p, inner);
	return p + protobuf_c_message_pack(m, p);
}

/* Skip a field of another number; -1 if it cannot be. */
static int
skip(const uint8_t **p, const uint8_t *end, unsigned wire)
{
	uint64_t v;
	size_t n;

	switch (wire) {
	case WIRE_VARINT:
		return varint_get(p, end, &v);
	case WIRE_64BIT:
		n = 8;
		break;
	case WIRE_32BIT:
		n = 4;
		break;
	case WIRE_LEN:
		if (varint_get(p, end, &v) != 0)
			return -1;
		if (v > (uint64_t)(end - *p))
			return -1;
		n = (size_t)v;
		break;
	default: /* groups, as protobuf-c, and the undefined */
		return -1;
	}
	if (n > (size_t)(end - *p))
		return -1;
	*p += n;
	return 0;
}

static void
envelope_drop(struct envelope *e)
{
	if (e->member != NULL)
		protobuf_c_message_free_unpacked(e->member, NULL);
	e->member = NULL;
	e->member_fd = NULL;
	free(e->error);
	e->error = NULL;
}

/* Parse the bytes into e; 0, or -1 (e's allocations freed). */
static int
envelope_parse(struct envelope *e, const uint8_t *p, size_t len)
{
	const uint8_t *end = p + len;
	const ProtobufCFieldDescriptor *fd;
	ProtobufCMessage *m;
	uint64_t t, v;
	uint32_t field;
	unsigned wire;

	while (p < end) {
		if (varint_get(&p, end, &t) != 0 || (t >> 3) == 0 ||
		    (t >> 3) > 0x1fffffff)
			goto fail;
		field = (uint32_t)(t >> 3);
		wire = (unsigned)(t & 7);
		if (field == FIELD_ID ||
		    (e->response && field == FIELD_RESULT)) {
			if (wire != WIRE_VARINT || varint_get(&p, end, &v) != 0)
				goto fail;
			if (field == FIELD_ID)
				e->id = v;
			else
				e->result = (int32_t)(uint32_t)v;
		} else if (e->response && field == FIELD_ERROR) {
			if (wire != WIRE_LEN || varint_get(&p, end, &v) != 0 ||
			    v > (uint64_t)(end - p))
				goto fail;
			free(e->error);
			if ((e->error = malloc((size_t)v + 1)) == NULL)
				goto fail;
			memcpy(e->error, p, (size_t)v);
			e->error[v] = '\0';
			p += v;
		} else if ((fd = member_field(e->desc, field)) != NULL) {
			if (wire != WIRE_LEN || varint_get(&p, end, &v) != 0 ||
			    v > (uint64_t)(end - p))
				goto fail;
			m = protobuf_c_message_unpack(
			    fd->descriptor, NULL, (size_t)v, p);
			if (m == NULL)
				goto fail;
			if (e->member != NULL)
				protobuf_c_message_free_unpacked(
				    e->member, NULL);
			e->member = m;
			e->member_fd = fd;
			p += v;
		} else if (protobuf_c_message_descriptor_get_field(
			       e->desc, field) != NULL ||
		    skip(&p, end, wire) != 0)
			goto fail; /* a known field of another kind, or bad */
		else {
			e->unknown = field;
			e->unknown_wire = wire;
		}
	}
	return 0;
fail:
	envelope_drop(e);
	return -1;
}

/*
 * Put the parsed member into msg, whose oneof case is at which, and the
 * last unknown field's number (its bytes not kept); 0, or -1 out of
 * memory (nothing placed).
 */
static int
envelope_place(const struct envelope *e, ProtobufCMessage *msg, uint32_t *which)
{
	ProtobufCMessageUnknownField *u;

	if (e->unknown != 0) {
		if ((u = calloc(1, sizeof(*u))) == NULL)
			return -1;
		u->tag = e->unknown;
		u->wire_type = (ProtobufCWireType)e->unknown_wire;
		msg->n_unknown_fields = 1;
		msg->unknown_fields = u;
	}
	if (e->member_fd == NULL)
		return 0;
	*which = e->member_fd->id;
	memcpy(
	    (char *)msg + e->member_fd->offset, &e->member, sizeof(e->member));
	return 0;
}

/*
 * Parse the bytes into a new message of e's descriptor, its member and
 * unknown field placed; the fields of the envelope itself stay in e for
 * the caller.  NULL if the bytes are not one, or out of memory.
 */
static ProtobufCMessage *
envelope_new(struct envelope *e, const uint8_t *p, size_t len, uint32_t *which)
{
	ProtobufCMessage *m;

	*which = 0;
	if (envelope_parse(e, p, len) != 0)
		return NULL;
	if ((m = malloc(e->desc->sizeof_message)) == NULL) {
		envelope_drop(e);
		return NULL;
	}
	e->desc->message_init(m);
	if (envelope_place(e, m, which) != 0) {
		envelope_drop(e);
		free(m);
		return NULL;
	}
	return m;
}

/* Free what envelope_place put into msg. */
static void
envelope_free_placed(const ProtobufCMessageDescriptor *desc,
    ProtobufCMessage *msg, uint32_t which)
{
	const ProtobufCFieldDescriptor *fd = member_field(desc, which);
	const ProtobufCMessage *m;

	if (fd != NULL && (m = member_of(msg, fd)) != NULL)
		protobuf_c_message_free_unpacked((ProtobufCMessage *)m, NULL);
	free(msg->unknown_fields);
}

/*------------------------------------------------------------ Request */

size_t
envelope_request_size(const Haptix__V1__Request *r)
{
	size_t inner, n = 0;

	if (r->id != 0)
		n += 1 + varint_size(r->id);
	return n +
	    member_size(r,
		member_field(
		    &haptix__v1__request__descriptor, (uint32_t)r->call_case),
		&inner);
}

size_t
envelope_request_pack(const Haptix__V1__Request *r, uint8_t *out)
{
	const ProtobufCFieldDescriptor *fd = member_field(
	    &haptix__v1__request__descriptor, (uint32_t)r->call_case);
	uint8_t *p = out;
	size_t inner;

	if (r->id != 0) {
		p = varint_put(p, tag(FIELD_ID, WIRE_VARINT));
		p = varint_put(p, r->id);
	}
	member_size(r, fd, &inner);
	p = member_pack(r, fd, inner, p);
	return (size_t)(p - out);
}

Haptix__V1__Request *
envelope_request_parse(const uint8_t *p, size_t len)
{
	struct envelope e = { .desc = &haptix__v1__request__descriptor };
	Haptix__V1__Request *r;
	uint32_t which;

	if ((r = (Haptix__V1__Request *)envelope_new(&e, p, len, &which)) ==
	    NULL)
		return NULL;
	r->id = e.id;
	r->call_case = (Haptix__V1__Request__CallCase)which;
	return r;
}

void
envelope_request_free(Haptix__V1__Request *r)
{
	if (r == NULL)
		return;
	envelope_free_placed(
	    &haptix__v1__request__descriptor, &r->base, (uint32_t)r->call_case);
	free(r);
}

/*------------------------------------------------------------ Response */

/* Whether the error string is written: proto3 leaves out an empty one. */
static size_t
response_error_len(const Haptix__V1__Response *r)
{
	return r->error != NULL ? strlen(r->error) : 0;
}

size_t
envelope_response_size(const Haptix__V1__Response *r)
{
	size_t inner, n = 0, elen = response_error_len(r);

	if (r->id != 0)
		n += 1 + varint_size(r->id);
	if (r->result != 0)
		n += 1 + varint_size((uint64_t)(int64_t)r->result);
	if (elen != 0)
		n += 1 + varint_size(elen) + elen;
	return n +
	    member_size(r,
		member_field(&haptix__v1__response__descriptor,
		    (uint32_t)r->payload_case),
		&inner);
}

size_t
envelope_response_pack(const Haptix__V1__Response *r, uint8_t *out)
{
	const ProtobufCFieldDescriptor *fd = member_field(
	    &haptix__v1__response__descriptor, (uint32_t)r->payload_case);
	size_t inner, elen = response_error_len(r);
	uint8_t *p = out;

	if (r->id != 0) {
		p = varint_put(p, tag(FIELD_ID, WIRE_VARINT));
		p = varint_put(p, r->id);
	}
	if (r->result != 0) {
		p = varint_put(p, tag(FIELD_RESULT, WIRE_VARINT));
		p = varint_put(p, (uint64_t)(int64_t)r->result);
	}
	if (elen != 0) {
		p = varint_put(p, tag(FIELD_ERROR, WIRE_LEN));
		p = varint_put(p, elen);
		memcpy(p, r->error, elen);
		p += elen;
	}
	member_size(r, fd, &inner);
	p = member_pack(r, fd, inner, p);
	return (size_t)(p - out);
}

Haptix__V1__Response *
envelope_response_parse(const uint8_t *p, size_t len)
{
	struct envelope e = { .desc = &haptix__v1__response__descriptor,
		.response = 1 };
	Haptix__V1__Response *r;
	uint32_t which;

	if ((r = (Haptix__V1__Response *)envelope_new(&e, p, len, &which)) ==
	    NULL)
		return NULL;
	r->id = e.id;
	r->result = (Haptix__V1__Result)e.result;
	if (e.error != NULL)
		r->error = e.error;
	r->payload_case = (Haptix__V1__Response__PayloadCase)which;
	return r;
}

void
envelope_response_free(Haptix__V1__Response *r)
{
	if (r == NULL)
		return;
	envelope_free_placed(&haptix__v1__response__descriptor, &r->base,
	    (uint32_t)r->payload_case);
	if (r->error != NULL && r->error != protobuf_c_empty_string)
		free(r->error);
	free(r);
}
