/*
 * Turning a response payload into one of haptixd.h's result structs, and
 * a public struct into a request's message: one walker over a table per
 * struct, each table expanded from the message's fields as haptix.proto
 * lists them (proto/fields.awk writes them into haptix_fields.h), with
 * the offsets of both sides compiled in.  Every array's length is
 * checked against its count before it is copied.  Internal to libhaptix.
 */
#ifndef HX_DECODE_H
#define HX_DECODE_H

#include <stddef.h>

#include "conn.h"
#include "haptix_fields.h"

/* A field's type as the proto has it (fields.awk's names). */
enum decode_type {
	DECODE_T_double,
	DECODE_T_uint32,
	DECODE_T_int32,
	DECODE_T_enum,
	DECODE_T_bool,
	DECODE_T_uint64,
	DECODE_T_string,
};

/* How a field is sized. */
enum decode_kind {
	DECODE_SCALAR,
	DECODE_ARRAY, /* count * per values, a pointer in the struct */
	DECODE_FIXED, /* per values, an array in the struct */
};

#define DECODE_NO_SUB ((size_t)-1)

/*
 * One field of a message and the member of the public struct it fills.
 * Scalars of the integer types are int in the struct, uint64 unsigned
 * long long, doubles double, strings const char *; arrays likewise.
 */
struct decode_field {
	const char *name;   /* the field's, for errors */
	unsigned char type; /* enum decode_type */
	unsigned char kind; /* enum decode_kind */
	unsigned per;       /* values per counted object; FIXED: values */
	size_t in;          /* offset of the field in the message */
	size_t n_in;        /* arrays: offset of its n_ member */
	size_t sub;         /* arrays: offset of the message holding the
			       count, or DECODE_NO_SUB: the message itself */
	size_t count_in;    /* arrays: offset of the (uint32) count */
	const char *count;  /* its name, for errors */
	size_t out;         /* offset of the member in the struct */
};

#define DECODE_MSG(M) Haptix__V1__##M
#define DECODE_S(T, M, field, type) \
	{ #field, DECODE_T_##type, DECODE_SCALAR, 0, \
		offsetof(DECODE_MSG(M), field), 0, DECODE_NO_SUB, 0, NULL, \
		offsetof(T, field) },
#define DECODE_A(T, M, field, type, cnt, n) \
	{ #field, DECODE_T_##type, DECODE_ARRAY, n, \
		offsetof(DECODE_MSG(M), field), \
		offsetof(DECODE_MSG(M), n_##field), DECODE_NO_SUB, \
		offsetof(DECODE_MSG(M), cnt), #cnt, offsetof(T, field) },
#define DECODE_F(T, M, field, type, n) \
	{ #field, DECODE_T_##type, DECODE_FIXED, n, \
		offsetof(DECODE_MSG(M), field), \
		offsetof(DECODE_MSG(M), n_##field), DECODE_NO_SUB, 0, NULL, \
		offsetof(T, field) },
#define DECODE_N(T, M, field, type, sub_, Sub, cnt, n) \
	{ #field, DECODE_T_##type, DECODE_ARRAY, n, \
		offsetof(DECODE_MSG(M), field), \
		offsetof(DECODE_MSG(M), n_##field), \
		offsetof(DECODE_MSG(M), sub_), offsetof(DECODE_MSG(Sub), cnt), \
		#sub_ "." #cnt, offsetof(T, field) },

/*
 * The table of public struct T for message M: every field the proto
 * lists (fields.awk), each a member of T by the same name.
 */
#define DECODE_TABLE(T, M) \
	{ \
		HX_FIELDS_##M(DECODE_S, DECODE_A, DECODE_F, DECODE_N, T) \
	}

/*
 * Allocate one block of head bytes plus the arrays the table names and
 * fill it from the payload of r.  Returns the block (free() it), or NULL
 * with the failure recorded on c.
 */
void *decode_payload(hxd_conn *c, Response *r, const struct decode_field *f,
    size_t nf, size_t head);

/*
 * Fill the struct at out (its arrays FIXED only) from message m.
 * Returns 0, or -1 with the failure recorded on c.
 */
int decode_into(hxd_conn *c, const void *m, const struct decode_field *f,
    size_t nf, void *out);

/*
 * Copy want values of a fixed-size array of the answer (what, n values
 * at src) into dst; HXD_BADPROTOCOL unless n == want.  Returns 0 or -1.
 */
int decode_fixed(hxd_conn *c, const char *what, double *dst, size_t want,
    const double *src, size_t n);

/*
 * The other way: point the message's fields at the struct's members
 * (arrays are not copied) and check each array against its count.
 * Returns HXD_OK or the failure recorded on c.
 */
int decode_encode(hxd_conn *c, const struct decode_field *f, size_t nf,
    const void *in, void *msg);

#endif
