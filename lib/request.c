/* Requests: see request.h. */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "request.h"

int
request_call(hxd_conn *c, Haptix__V1__Request__CallCase call, const void *arg,
    Haptix__V1__Response__PayloadCase want, Response **out)
{
	return request_call_wait(c, call, arg, want, out, c->timeout_ms);
}

int
request_call_wait(hxd_conn *c, Haptix__V1__Request__CallCase call,
    const void *arg, Haptix__V1__Response__PayloadCase want, Response **out,
    int timeout_ms)
{
	Request req = HAPTIX__V1__REQUEST__INIT;
	Haptix__V1__Empty empty = HAPTIX__V1__EMPTY__INIT;
	const ProtobufCFieldDescriptor *fd;
	Response *r = NULL;
	int rc;

	if (out != NULL)
		*out = NULL;
	fd = protobuf_c_message_descriptor_get_field(
	    &haptix__v1__request__descriptor, (unsigned)call);
	if (arg == NULL)
		arg = &empty;
	/* The library's own mistake, said before anything is sent. */
	if (fd == NULL ||
	    ((const ProtobufCMessage *)arg)->descriptor != fd->descriptor)
		return conn_fail(c, HXD_BADTYPE,
		    "call %d: the argument is not its message", (int)call);
	req.call_case = call;
	/* The oneof's members are pointers that share one place. */
	memcpy((char *)&req + fd->offset, &arg, sizeof(arg));
	rc = conn_call_wait(c, &req, &r, timeout_ms);
	if (rc == HXD_OK && want != 0 && r->payload_case != want)
		rc = conn_fail(c, HXD_BADPROTOCOL,
		    "the server answered with payload %d, expected %d",
		    (int)r->payload_case, (int)want);
	if (rc != HXD_OK || out == NULL) {
		conn_free_response(r);
		r = NULL;
	}
	if (out != NULL)
		*out = r;
	return rc;
}

int
request_get(hxd_conn *c, Haptix__V1__Request__CallCase call,
    Haptix__V1__Response__PayloadCase want, const struct decode_field *f,
    size_t nf, size_t head, void **out)
{
	Response *r;
	int rc;

	*out = NULL;
	rc = request_call(c, call, NULL, want, &r);
	if (rc != HXD_OK)
		return rc;
	*out = decode_payload(c, r, f, nf, head);
	conn_free_response(r);
	return c->result;
}

/* The field name of msg, or NULL. */
static const ProtobufCFieldDescriptor *
request_field(const ProtobufCMessage *msg, const char *name)
{
	return protobuf_c_message_descriptor_get_field_by_name(
	    msg->descriptor, name);
}

/* Set an integer or double scalar field from the struct's member. */
static int
request_scalar(hxd_conn *c, const struct decode_field *f, const char *in,
    ProtobufCMessage *msg)
{
	const ProtobufCFieldDescriptor *fd = request_field(msg, f->field);
	char *p;
	int v;

	if (fd == NULL || fd->label == PROTOBUF_C_LABEL_REPEATED)
		return conn_fail(
		    c, HXD_BADTYPE, "no field %s to send", f->field);
	p = (char *)msg + fd->offset;
	if (fd->type == PROTOBUF_C_TYPE_DOUBLE) {
		memcpy(p, in + f->out, sizeof(double));
		return HXD_OK;
	}
	memcpy(&v, in + f->out, sizeof(v));
	switch (fd->type) {
	case PROTOBUF_C_TYPE_UINT32:
		if (v < 0)
			return conn_fail(
			    c, HXD_BADSIZE, "%s is negative (%d)", f->field, v);
		*(uint32_t *)(void *)p = (uint32_t)v;
		return HXD_OK;
	case PROTOBUF_C_TYPE_INT32:
	case PROTOBUF_C_TYPE_ENUM:
	case PROTOBUF_C_TYPE_BOOL:
		*(int32_t *)(void *)p = v;
		return HXD_OK;
	default:
		return conn_fail(
		    c, HXD_BADTYPE, "field %s is not a number", f->field);
	}
}

/* Point a repeated field at the struct's array, count times per values. */
static int
request_array(hxd_conn *c, const struct decode_field *f, const char *in,
    ProtobufCMessage *msg)
{
	const ProtobufCFieldDescriptor *fd = request_field(msg, f->field);
	const ProtobufCFieldDescriptor *cfd = request_field(msg, f->count);
	const void *data;
	size_t n;
	int32_t count;

	if (fd == NULL || cfd == NULL ||
	    fd->label != PROTOBUF_C_LABEL_REPEATED ||
	    (cfd->type != PROTOBUF_C_TYPE_UINT32 &&
		cfd->type != PROTOBUF_C_TYPE_INT32))
		return conn_fail(c, HXD_BADTYPE, "no field %s counted by %s",
		    f->field, f->count);
	memcpy(&count, (const char *)msg + cfd->offset, sizeof(count));
	memcpy(&data, in + f->out, sizeof(data));
	if (count < 0)
		return conn_fail(
		    c, HXD_BADSIZE, "%s is negative (%d)", f->count, count);
	if (count > 0 && data == NULL)
		return conn_fail(c, HXD_BADSIZE, "%s is %d but %s is NULL",
		    f->count, count, f->field);
	n = (size_t)count * f->per;
	memcpy((char *)msg + fd->quantifier_offset, &n, sizeof(n));
	memcpy((char *)msg + fd->offset, &data, sizeof(data));
	return HXD_OK;
}

int
request_encode(hxd_conn *c, const struct decode_field *f, size_t nf,
    const void *in, void *msg)
{
	size_t i;

	for (i = 0; i < nf; i++)
		if (f[i].count == NULL &&
		    request_scalar(c, &f[i], in, msg) != HXD_OK)
			return c->result;
	for (i = 0; i < nf; i++)
		if (f[i].count != NULL &&
		    request_array(c, &f[i], in, msg) != HXD_OK)
			return c->result;
	return conn_ok(c);
}
