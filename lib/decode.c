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

/* Find field name of *m, following one "sub.field" step into *m. */
static const ProtobufCFieldDescriptor *
decode_find(const ProtobufCMessage **m, const char *name)
{
	const ProtobufCFieldDescriptor *fd;
	const char *dot = strchr(name, '.');
	char sub[64];

	if (dot != NULL) {
		snprintf(sub, sizeof(sub), "%.*s", (int)(dot - name), name);
		fd = protobuf_c_message_descriptor_get_field_by_name(
		    (*m)->descriptor, sub);
		if (fd == NULL || fd->type != PROTOBUF_C_TYPE_MESSAGE)
			return NULL;
		*m = *(
		    ProtobufCMessage *const *)(const void *)((const char *)*m +
		    fd->offset);
		if (*m == NULL)
			return NULL;
		name = dot + 1;
	}
	return protobuf_c_message_descriptor_get_field_by_name(
	    (*m)->descriptor, name);
}

/* Read a scalar integer field; returns -1 for another type. */
static int
decode_int(
    const ProtobufCMessage *m, const ProtobufCFieldDescriptor *fd, long long *v)
{
	const char *p = (const char *)m + fd->offset;

	switch (fd->type) {
	case PROTOBUF_C_TYPE_UINT32:
		*v = *(const uint32_t *)(const void *)p;
		return 0;
	case PROTOBUF_C_TYPE_INT32:
	case PROTOBUF_C_TYPE_ENUM:
		*v = *(const int32_t *)(const void *)p;
		return 0;
	case PROTOBUF_C_TYPE_BOOL:
		*v = *(const protobuf_c_boolean *)(const void *)p;
		return 0;
	case PROTOBUF_C_TYPE_UINT64:
		*v = (long long)*(const uint64_t *)(const void *)p;
		return 0;
	default:
		return -1;
	}
}

/* Bytes per element of a repeated field in the result; -1 if unknown. */
static int
decode_elem(const ProtobufCFieldDescriptor *fd)
{
	switch (fd->type) {
	case PROTOBUF_C_TYPE_DOUBLE:
		return sizeof(double);
	case PROTOBUF_C_TYPE_INT32:
	case PROTOBUF_C_TYPE_ENUM:
	case PROTOBUF_C_TYPE_BOOL:
		return sizeof(int);
	case PROTOBUF_C_TYPE_STRING:
		return 0;
	default:
		return -1;
	}
}

/* Describe one array of the payload, checking its length. */
static int
decode_array(hxd_conn *c, const ProtobufCMessage *m,
    const struct decode_field *f, struct decode_array *a)
{
	const ProtobufCMessage *am = m, *cm = m;
	const ProtobufCFieldDescriptor *fd, *cfd;
	long long count;
	int elem;

	fd = decode_find(&am, f->field);
	cfd = decode_find(&cm, f->count);
	if (fd == NULL || cfd == NULL ||
	    fd->label != PROTOBUF_C_LABEL_REPEATED ||
	    (elem = decode_elem(fd)) < 0 || decode_int(cm, cfd, &count) != 0)
		return conn_fail(c, HXD_BADPROTOCOL,
		    "the answer lacks %s or %s", f->field, f->count);
	a->out = f->out;
	a->elem = (size_t)elem;
	a->count = *(const size_t *)(const void *)((const char *)am +
	    fd->quantifier_offset);
	a->data = *(
	    const void *const *)(const void *)((const char *)am + fd->offset);
	if (count < 0 || a->count != (size_t)count * f->per)
		return conn_fail(c, HXD_BADPROTOCOL,
		    "the server sent %zu values "
		    "of %s, expected %lld",
		    a->count, f->field, count * (long long)f->per);
	return HXD_OK;
}

/* Copy one scalar of the payload into the block. */
static int
decode_scalar(hxd_conn *c, const ProtobufCMessage *m,
    const struct decode_field *f, char *base)
{
	const ProtobufCFieldDescriptor *fd = decode_find(&m, f->field);
	long long v;
	int i;

	if (fd != NULL && fd->type == PROTOBUF_C_TYPE_DOUBLE) {
		memcpy(base + f->out, (const char *)m + fd->offset,
		    sizeof(double));
		return HXD_OK;
	}
	if (fd == NULL || decode_int(m, fd, &v) != 0)
		return conn_fail(
		    c, HXD_BADPROTOCOL, "the answer lacks %s", f->field);
	i = (int)v;
	memcpy(base + f->out, &i, sizeof(i));
	return HXD_OK;
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
		if (f[i].count == NULL)
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
	for (i = 0; i < nf; i++) {
		if (f[i].count == NULL &&
		    decode_scalar(c, m, &f[i], base) != HXD_OK) {
			free(base);
			return NULL;
		}
	}
	conn_ok(c);
	return base;
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
