/*
 * The client side of one connection to haptixd: socket, handshake, and a
 * blocking request/response exchange with a timeout.  Internal to
 * libhaptix; the public faces are haptixd.h and haptix.h.
 */
#ifndef HX_CONN_H
#define HX_CONN_H

#include <stddef.h>
#include <stdint.h>

#include "address.h"
#include "haptix.pb-c.h"
#include "haptixd.h"

typedef Haptix__V1__Request Request;
typedef Haptix__V1__Response Response;

struct hxd_conn {
	int fd; /* -1 when not connected */
	struct address addr;
	int timeout_ms;
	size_t max_frame;
	uint64_t next_id;

	int result;
	char error[1024];

	uint8_t *rbuf; /* received bytes not yet consumed */
	size_t rlen, rcap;
	uint8_t *sbuf; /* the frame being sent */
	size_t scap;

	uint64_t session_id;
	char server_version[64];
	hxd_model model;
};

/*
 * Send req (its id is assigned here) and wait for the response with the
 * same id, skipping events and stale answers.  Returns the result code;
 * *resp is set whenever a response arrived, even with an error result,
 * and the caller frees it with conn_free_response().
 */
int conn_call(hxd_conn *c, Request *req, Response **resp);

/* Free a response from conn_call(); NULL is fine. */
void conn_free_response(Response *resp);

/* Record a failure on c with printf-style text; returns code. */
int conn_fail(hxd_conn *c, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Record success on c. */
int conn_ok(hxd_conn *c);

/* Copy a wire model summary into the public struct. */
void conn_model_from_wire(hxd_model *out, const Haptix__V1__ModelSummary *m);

#endif
