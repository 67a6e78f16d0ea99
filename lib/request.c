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
