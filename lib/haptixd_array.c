/*
 * The extension API's arrays by name (haptixd.h): get, set and list any
 * mjModel or mjData array, checking every answer before it is copied.
 */
#include "config.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conn.h"
#include "request.h"

#define ALIGN16(n) (((n) + 15) & ~(size_t)15)

/* Fill the description in out from a, checking it; values are left alone. */
static int
array_from_wire(hxd_conn *c, const Haptix__V1__Array *a, hxd_array *out)
{
	const char *name = a->name != NULL ? a->name : "";
	const char *owner = a->owner != NULL ? a->owner : "";

	if (strlen(name) >= sizeof(out->name) ||
	    strlen(owner) >= sizeof(out->owner))
		return conn_fail(c, HXD_BADPROTOCOL,
		    "the server sent an array name or owner that is too long");
	if ((unsigned)a->type > HXD_ARRAY_BYTE)
		return conn_fail(c, HXD_BADPROTOCOL,
		    "the server sent array type %d", (int)a->type);
	if (a->rows > INT_MAX || a->cols > INT_MAX)
		return conn_fail(c, HXD_BADPROTOCOL,
		    "the server sent an array of %u x %u", a->rows, a->cols);
	memset(out, 0, sizeof(*out));
	memcpy(out->name, name, strlen(name) + 1);
	memcpy(out->owner, owner, strlen(owner) + 1);
	out->type = (int)a->type;
	out->rows = (int)a->rows;
	out->cols = (int)a->cols;
	out->writable = a->writable != 0;
	snprintf(out->refusal, sizeof(out->refusal), "%s",
	    a->refusal != NULL ? a->refusal : "");
	return HXD_OK;
}

int
hxd_get_array(hxd_conn *c, const char *name, hxd_array **out)
{
	Haptix__V1__ArrayRef ref = HAPTIX__V1__ARRAY_REF__INIT;
	const Haptix__V1__Array *a;
	hxd_array head;
	Response *r;
	size_t n;
	char *block;
	int rc;

	*out = NULL;
	ref.name = (char *)(name != NULL ? name : "");
	rc = request_call(c, HAPTIX__V1__REQUEST__CALL_GET_ARRAY, &ref,
	    HAPTIX__V1__RESPONSE__PAYLOAD_ARRAY, &r);
	if (rc != HXD_OK)
		return rc;
	a = r->array;
	if (array_from_wire(c, a, &head) != HXD_OK) {
		conn_free_response(r);
		return c->result;
	}
	n = (size_t)head.rows * (size_t)head.cols;
	if (a->n_values != n) {
		rc = conn_fail(c, HXD_BADPROTOCOL,
		    "the server sent %zu values of %s, expected %zu (%d x %d)",
		    a->n_values, head.name, n, head.rows, head.cols);
		conn_free_response(r);
		return rc;
	}
	block = malloc(ALIGN16(sizeof(head)) + n * sizeof(double));
	if (block == NULL) {
		conn_free_response(r);
		return conn_fail(c, HXD_CANNOTRECV, "out of memory");
	}
	head.values = (double *)(void *)(block + ALIGN16(sizeof(head)));
	if (n > 0)
		memcpy(head.values, a->values, n * sizeof(double));
	memcpy(block, &head, sizeof(head));
	*out = (hxd_array *)(void *)block;
	conn_free_response(r);
	return conn_ok(c);
}

/* The number of elements of array name, from offset, for a count of 0. */
static int
array_rest(hxd_conn *c, const char *name, int offset, int *count,
    uint32_t *rows, uint32_t *cols)
{
	hxd_array *a;
	size_t size;
	int rc;

	if ((rc = hxd_get_array(c, name, &a)) != HXD_OK)
		return rc;
	size = (size_t)a->rows * (size_t)a->cols;
	*rows = (uint32_t)a->rows;
	*cols = (uint32_t)a->cols;
	free(a);
	if ((size_t)offset >= size || size - (size_t)offset > INT_MAX)
		return conn_fail(c, HXD_BADSIZE,
		    "offset %d leaves nothing of %s (%zu values) to write",
		    offset, name, size);
	*count = (int)(size - (size_t)offset);
	return HXD_OK;
}

int
hxd_set_array(
    hxd_conn *c, const char *name, int offset, int count, const double *values)
{
	Haptix__V1__Array w = HAPTIX__V1__ARRAY__INIT;
	int rc;

	if (name == NULL)
		name = "";
	if (offset < 0 || count < 0)
		return conn_fail(c, HXD_BADSIZE,
		    "offset %d and count %d must not be negative", offset,
		    count);
	/*
	 * Count 0: the rest of the array, whose size only the server
	 * knows.  The shape learnt goes along, so that the server refuses
	 * the write if another client loaded a model in between.
	 */
	if (count == 0 &&
	    (rc = array_rest(c, name, offset, &count, &w.rows, &w.cols)) !=
		HXD_OK)
		return rc;
	if (values == NULL)
		return conn_fail(
		    c, HXD_BADSIZE, "count is %d but values is NULL", count);
	w.name = (char *)name;
	w.offset = (uint32_t)offset;
	w.n_values = (size_t)count;
	w.values = (double *)values;
	return request_call(
	    c, HAPTIX__V1__REQUEST__CALL_SET_ARRAY, &w, 0, NULL);
}

int
hxd_list_arrays(hxd_conn *c, hxd_array **out, int *n)
{
	Haptix__V1__Empty empty = HAPTIX__V1__EMPTY__INIT;
	const Haptix__V1__ArrayList *l;
	hxd_array *list;
	Response *r;
	size_t i;
	int rc;

	*out = NULL;
	*n = 0;
	rc = request_call(c, HAPTIX__V1__REQUEST__CALL_LIST_ARRAYS, &empty,
	    HAPTIX__V1__RESPONSE__PAYLOAD_ARRAYS, &r);
	if (rc != HXD_OK)
		return rc;
	l = r->arrays;
	if (l->n_arrays > INT_MAX) {
		rc = conn_fail(c, HXD_BADPROTOCOL,
		    "the server listed %zu arrays", l->n_arrays);
		conn_free_response(r);
		return rc;
	}
	list = calloc(l->n_arrays > 0 ? l->n_arrays : 1, sizeof(*list));
	if (list == NULL) {
		conn_free_response(r);
		return conn_fail(c, HXD_CANNOTRECV, "out of memory");
	}
	for (i = 0; i < l->n_arrays; i++) {
		if (array_from_wire(c, l->arrays[i], &list[i]) != HXD_OK) {
			free(list);
			conn_free_response(r);
			return c->result;
		}
		if (l->arrays[i]->n_values != 0) {
			conn_fail(c, HXD_BADPROTOCOL,
			    "the server listed %s with values", list[i].name);
			free(list);
			conn_free_response(r);
			return c->result;
		}
	}
	*out = list;
	*n = (int)l->n_arrays;
	conn_free_response(r);
	return conn_ok(c);
}
