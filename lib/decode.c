/* Response payloads into result structs: see decode.h. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"

_Static_assert(sizeof(int) == sizeof(int32_t), "int is not 32 bits");
_Static_assert(sizeof(protobuf_c_boolean) == sizeof(int), "bool size");
_Static_assert(sizeof(Haptix__V1__SensorType) == sizeof(int), "enum size");

#define DECODE_MAX_ARRAYS 64
#define ALIGN16(n) (((n) + 15) & ~(size_t)15)

/* One array to copy into the block. */
struct decode_array {
	size_t out;       /* offset of the pointer member in the result */
	size_t count;     /* elements */
	size_t elem;      /* bytes per element; 0 for strings */
	const void *data; /* in the response */
};

/* Bytes that array a takes in the block. */
static size_t
decode_array_size(const struct decode_array *a)
{
	const char *const *s = a->data;
	size_t len, i;

	if (a->elem != 0)
		return a->count * a->elem;
	len = a->count * sizeof(char *);
	for (i = 0; i < a->count; i++)
		len += strlen(s[i]) + 1;
	return len;
}

/* Copy array a to p and point the result's member at it. */
static void
decode_array_copy(char *base, char *p, const struct decode_array *a)
{
	const char *const *s = a->data;
	char **strs = (char **)(void *)p;
	size_t len, i;

	memcpy(base + a->out, &p, sizeof(p));
	if (a->elem != 0) {
		if (a->count != 0)
			memcpy(p, a->data, a->count * a->elem);
		return;
	}
	len = a->count * sizeof(char *);
	for (i = 0; i < a->count; i++) {
		strs[i] = p + len;
		memcpy(p + len, s[i], strlen(s[i]) + 1);
		len += strlen(s[i]) + 1;
	}
}

/* The message of a response's payload, or NULL. */
static const ProtobufCMessage *
decode_message(const Response *r)
{
	const ProtobufCFieldDescriptor *fd;

	fd = protobuf_c_message_descriptor_get_field(
	    &haptix__v1__response__descriptor, (unsigned)r->payload_case);
	if (fd == NULL)
		return NULL;
	return *(ProtobufCMessage *const *)(const void *)((const char *)r +
	    fd->offset);
}

/* Bytes per element of a field in the struct. */
static size_t
decode_elem(const struct decode_field *f)
{
	switch (f->type) {
	case DECODE_T_double:
		return sizeof(double);
	case DECODE_T_uint64:
		return sizeof(unsigned long long);
	case DECODE_T_string:
		return 0;
	default:
		return sizeof(int);
	}
}

#define AT(p, off, type) (*(type *)(void *)((char *)(p) + (off)))
#define CAT(p, off, type) \
	(*(const type *)(const void *)((const char *)(p) + (off)))

/* The count of array f in message m; -1 if its message is missing. */
static long long
decode_count(const void *m, const struct decode_field *f)
{
	if (f->sub != DECODE_NO_SUB && (m = CAT(m, f->sub, void *)) == NULL)
		return -1;
	return CAT(m, f->count_in, uint32_t);
}

/* Describe one array of the payload, checking its length. */
static int
decode_array(hxd_conn *c, const void *m, const struct decode_field *f,
    struct decode_array *a)
{
	long long count = decode_count(m, f);

	if (count < 0)
		return conn_fail(
		    c, HXD_BADPROTOCOL, "the answer lacks %s", f->count);
	a->out = f->out;
	a->elem = decode_elem(f);
	a->count = CAT(m, f->n_in, size_t);
	a->data = CAT(m, f->in, void *);
	if (a->count != (size_t)count * f->per)
		return conn_fail(c, HXD_BADPROTOCOL,
		    "the server sent %zu values "
		    "of %s, expected %lld",
		    a->count, f->name, count * (long long)f->per);
	return HXD_OK;
}

/* Copy one scalar, or a FIXED array, of message m into the struct. */
static int
decode_scalar(
    hxd_conn *c, const void *m, const struct decode_field *f, char *base)
{
	size_t n;

	switch (f->type) {
	case DECODE_T_double:
		if (f->kind == DECODE_FIXED) {
			n = CAT(m, f->n_in, size_t);
			if (n != f->per)
				return conn_fail(c, HXD_BADPROTOCOL,
				    "the server sent %zu values of %s, "
				    "expected %u",
				    n, f->name, f->per);
			memcpy(base + f->out, CAT(m, f->in, double *),
			    n * sizeof(double));
			return HXD_OK;
		}
		AT(base, f->out, double) = CAT(m, f->in, double);
		return HXD_OK;
	case DECODE_T_uint32:
		AT(base, f->out, int) = (int)CAT(m, f->in, uint32_t);
		return HXD_OK;
	case DECODE_T_uint64:
		AT(base, f->out, unsigned long long) = CAT(m, f->in, uint64_t);
		return HXD_OK;
	case DECODE_T_int32:
	case DECODE_T_enum:
	case DECODE_T_bool:
		AT(base, f->out, int) = CAT(m, f->in, int32_t);
		return HXD_OK;
	default:
		return conn_fail(
		    c, HXD_BADPROTOCOL, "%s: not a number", f->name);
	}
}

int
decode_into(hxd_conn *c, const void *m, const struct decode_field *f, size_t nf,
    void *out)
{
	size_t i;

	for (i = 0; i < nf; i++)
		if (f[i].kind != DECODE_ARRAY &&
		    decode_scalar(c, m, &f[i], out) != HXD_OK)
			return -1;
	return 0;
}

void *
decode_payload(hxd_conn *c, Response *r, const struct decode_field *f,
    size_t nf, size_t head)
{
	struct decode_array a[DECODE_MAX_ARRAYS];
	const ProtobufCMessage *m = decode_message(r);
	size_t i, na = 0, total = ALIGN16(head), off;
	char *base;

	if (m == NULL) {
		conn_fail(c, HXD_BADPROTOCOL, "the answer has no payload");
		return NULL;
	}
	for (i = 0; i < nf; i++) {
		if (f[i].kind != DECODE_ARRAY)
			continue;
		if (na == DECODE_MAX_ARRAYS) {
			conn_fail(c, HXD_BADPROTOCOL, "too many arrays");
			return NULL;
		}
		if (decode_array(c, m, &f[i], &a[na]) != HXD_OK)
			return NULL;
		total += ALIGN16(decode_array_size(&a[na]));
		na++;
	}
	base = calloc(1, total);
	if (base == NULL) {
		conn_fail(c, HXD_CANNOTRECV, "out of memory");
		return NULL;
	}
	off = ALIGN16(head);
	for (i = 0; i < na; i++) {
		decode_array_copy(base, base + off, &a[i]);
		off += ALIGN16(decode_array_size(&a[i]));
	}
	if (decode_into(c, m, f, nf, base) != 0) {
		free(base);
		return NULL;
	}
	conn_ok(c);
	return base;
}

/* Set one scalar field of msg from the struct's member. */
static int
decode_encode_scalar(
    hxd_conn *c, const struct decode_field *f, const char *in, void *msg)
{
	int v;

	switch (f->type) {
	case DECODE_T_double:
		AT(msg, f->in, double) = CAT(in, f->out, double);
		return HXD_OK;
	case DECODE_T_uint32:
		if ((v = CAT(in, f->out, int)) < 0)
			return conn_fail(
			    c, HXD_BADSIZE, "%s is negative (%d)", f->name, v);
		AT(msg, f->in, uint32_t) = (uint32_t)v;
		return HXD_OK;
	case DECODE_T_int32:
	case DECODE_T_enum:
	case DECODE_T_bool:
		AT(msg, f->in, int32_t) = CAT(in, f->out, int);
		return HXD_OK;
	default:
		return conn_fail(
		    c, HXD_BADTYPE, "field %s is not a number", f->name);
	}
}

/* Point an array field of msg at the struct's array, count * per values. */
static int
decode_encode_array(
    hxd_conn *c, const struct decode_field *f, const char *in, void *msg)
{
	const void *data = f->kind == DECODE_FIXED ? in + f->out :
						     CAT(in, f->out, void *);
	long long count = f->kind == DECODE_FIXED ? 1 : decode_count(msg, f);

	if (count < 0)
		return conn_fail(
		    c, HXD_BADTYPE, "no %s to count %s", f->count, f->name);
	if (count > 0 && data == NULL)
		return conn_fail(c, HXD_BADSIZE, "%s is %lld but %s is NULL",
		    f->count, count, f->name);
	AT(msg, f->n_in, size_t) = (size_t)count * f->per;
	AT(msg, f->in, const void *) = data;
	return HXD_OK;
}

int
decode_encode(hxd_conn *c, const struct decode_field *f, size_t nf,
    const void *in, void *msg)
{
	size_t i;

	for (i = 0; i < nf; i++)
		if (f[i].kind == DECODE_SCALAR &&
		    decode_encode_scalar(c, &f[i], in, msg) != HXD_OK)
			return c->result;
	for (i = 0; i < nf; i++)
		if (f[i].kind != DECODE_SCALAR &&
		    decode_encode_array(c, &f[i], in, msg) != HXD_OK)
			return c->result;
	return conn_ok(c);
}

int
decode_fixed(hxd_conn *c, const char *what, double *dst, size_t want,
    const double *src, size_t n)
{
	if (n != want)
		return conn_fail(c, HXD_BADPROTOCOL,
		    "the server sent %zu values "
		    "of %s, expected %zu",
		    n, what, want);
	memcpy(dst, src, want * sizeof(double));
	return 0;
}
