/*
 * From frames to calls: decode a Request, check it may run in this
 * session's state, find its handler in the table, run it with MuJoCo's
 * errors caught, and send the Response.
 */
#ifndef HXD_DISPATCH_H
#define HXD_DISPATCH_H

#include <stddef.h>
#include <stdint.h>

#include "result.h"

struct session;

#define DISPATCH_BADPROTOCOL RESULT_BADPROTOCOL
#define DISPATCH_DENIED RESULT_DENIED

/* Handle one frame's payload from s. */
void dispatch_frame(struct session *s, const uint8_t *payload, size_t len);

/* Send an error that answers no particular request (id 0). */
void dispatch_reject(struct session *s, int code, const char *text);

#endif
