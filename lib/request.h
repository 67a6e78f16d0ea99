/*
 * Requests: the one way an extension call goes on the wire.  A call's
 * argument message is placed in the Request by its call case, and a
 * public struct becomes its message through the same table that decodes
 * the answer (decode.h), read the other way.  Internal to libhaptix.
 */
#ifndef HX_REQUEST_H
#define HX_REQUEST_H

#include <stddef.h>

#include "conn.h"
#include "decode.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Run call with arg as its argument message (NULL: an Empty).  With want
 * != 0 the answer must carry that payload, and *out gets it (free it
 * with conn_free_response()); with want == 0 only the result counts and
 * out may be NULL.
 */
int request_call(hxd_conn *c, Haptix__V1__Request__CallCase call,
    const void *arg, Haptix__V1__Response__PayloadCase want, Response **out);

/* request_call() with its own timeout (ms; 0: as long as it takes). */
int request_call_wait(hxd_conn *c, Haptix__V1__Request__CallCase call,
    const void *arg, Haptix__V1__Response__PayloadCase want, Response **out,
    int timeout_ms);

/* The controls that update and batch runs carry (haptixd.c's table). */
int request_control(hxd_conn *c, const hxd_control *in, Haptix__V1__Control *w);

/*
 * Run call with an Empty argument and decode its payload want into *out,
 * a block of head bytes and the arrays table f names (free() it).
 */
int request_get(hxd_conn *c, Haptix__V1__Request__CallCase call,
    Haptix__V1__Response__PayloadCase want, const struct decode_field *f,
    size_t nf, size_t head, void **out);

/* request_get() of a call, its payload, result type and table. */
#define REQUEST_GET(c, CALL, PAYLOAD, type, table, out) \
	request_get((c), HAPTIX__V1__REQUEST__CALL_##CALL, \
	    HAPTIX__V1__RESPONSE__PAYLOAD_##PAYLOAD, (table), NELEM(table), \
	    sizeof(type), (void **)(out))

/* Encode the public struct in into msg by table, then run call. */
#define REQUEST_SET(c, CALL, table, in, msg) \
	(decode_encode((c), (table), NELEM(table), (in), (msg)) != HXD_OK ? \
		(c)->result : \
		request_call( \
		    (c), HAPTIX__V1__REQUEST__CALL_##CALL, (msg), 0, NULL))

#endif
