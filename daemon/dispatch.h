/*
 * From frames to calls: decode a Request, check that it may run in this
 * session's state, find its row in the call table, run the handler with
 * MuJoCo's errors caught, and answer now or hand the call to the pending
 * calls.  The table is the API's (api_table.c), given at start.
 */
#ifndef HXD_DISPATCH_H
#define HXD_DISPATCH_H

#include <stddef.h>
#include <stdint.h>

#include "call.h"

struct session;

/* The call needs a loaded model. */
#define DISPATCH_MODEL 0x1u

/* The call changes the simulation: the lease and batch runs may forbid it. */
#define DISPATCH_WRITE 0x2u

/* One row of the call table, indexed by the call's field number. */
struct dispatch_entry {
	const char *name;
	call_handler fn;
	unsigned flags; /* DISPATCH_ bits */
	/*
	 * A call that writes only sometimes (not DISPATCH_WRITE): returns 1
	 * when this request would change the simulation, so that dispatch
	 * checks the lease and batch runs first.  NULL: it never writes.
	 */
	int (*writes)(const struct call *c);
};

/* Serve calls through table, n rows; before the first frame. */
void dispatch_init(const struct dispatch_entry *table, size_t n);

/* Handle one frame's payload from s (the transport's frame hook). */
void dispatch_frame(struct session *s, const uint8_t *payload, size_t len);

#endif
