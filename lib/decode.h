/*
 * Turning a response payload into one of haptixd.h's result structs,
 * driven by a table per struct and protobuf-c's message descriptors:
 * every array's length is checked against its size field before it is
 * copied.  Internal to libhaptix.
 */
#ifndef HX_DECODE_H
#define HX_DECODE_H

#include <stddef.h>

#include "conn.h"

/* One member of a result struct, filled from a field of the payload. */
struct decode_field {
	const char *field; /* the payload's field, e.g. "qpos" */
	const char *count; /* arrays: the size field ("nq", "model.njnt"); NULL
			      for a scalar */
	unsigned per;      /* arrays: values per counted object */
	size_t out;        /* offset of the member in the result struct */
};

#define DECODE_SCALAR(type, member) \
	{ \
#member, NULL, 0, offsetof(type, member) \
	}
#define DECODE_ARRAY(type, member, count, per) \
	{ \
#member, (count), (per), offsetof(type, member) \
	}

/*
 * Allocate one block of head bytes plus the arrays the table names and
 * fill it from the payload of r.  Scalars of the payload's integer
 * types become int, doubles stay double, string arrays become const char
 * pointer arrays into the block.  Returns the block (free() it), or NULL
 * with the failure recorded on c.
 */
void *decode_payload(hxd_conn *c, Response *r, const struct decode_field *f,
    size_t nf, size_t head);

/*
 * Copy want values of a fixed-size array of the answer (what, n values
 * at src) into dst; HXD_BADPROTOCOL unless n == want.  Returns 0 or -1.
 */
int decode_fixed(hxd_conn *c, const char *what, double *dst, size_t want,
    const double *src, size_t n);

#endif
