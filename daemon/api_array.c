/*
 * Arrays by name: any numeric mjModel or mjData array, read as doubles
 * and written where sim_array.c allows it.  An unknown name is BADTYPE
 * (the name is the array's type, in a sense: list_arrays lists them), a
 * write outside the array BADSIZE, a value its type or domain cannot take
 * BADVALUE, and a write to an array that is not safe to write between
 * steps DENIED with the reason.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "api.h"
#include "arena.h"
#include "daemon.h"
#include "lifecycle_step.h"
#include "options.h"
#include "sim_array.h"

#define SAME(a, b) _Static_assert((int)(a) == (int)(b), #a " != " #b)
SAME(SIM_ARRAY_DOUBLE, HAPTIX__V1__ARRAY_TYPE__ARRAY_DOUBLE);
SAME(SIM_ARRAY_FLOAT, HAPTIX__V1__ARRAY_TYPE__ARRAY_FLOAT);
SAME(SIM_ARRAY_INT, HAPTIX__V1__ARRAY_TYPE__ARRAY_INT);
SAME(SIM_ARRAY_BYTE, HAPTIX__V1__ARRAY_TYPE__ARRAY_BYTE);
#undef SAME

/* Find the array a request names; 0, or BADTYPE saying what exists. */
static int
array_find(struct call *c, const char *name, int *id)
{
	const char *why;

	*id = sim_array_find(name, &why);
	if (*id >= 0)
		return 0;
	if (why != NULL)
		return call_fail(c, RESULT_BADTYPE, "%.64s %s", name, why);
	return call_fail(c, RESULT_BADTYPE,
	    "no array named \"%.64s\": list_arrays lists them (MuJoCo's "
	    "names, optionally prefixed model. or data.)",
	    name);
}

/* An Array message describing ai, without values. */
static Haptix__V1__Array *
array_message(struct call *c, const struct sim_array_info *ai)
{
	Haptix__V1__Array *a = NEW(
	    c, Haptix__V1__Array, haptix__v1__array__init);

	/* The strings are sim_array.c's constants. */
	a->name = (char *)ai->name;
	a->owner = (char *)ai->owner;
	a->type = (Haptix__V1__ArrayType)ai->type;
	a->rows = (uint32_t)ai->rows;
	a->cols = (uint32_t)ai->cols;
	a->writable = ai->refusal == NULL;
	a->refusal = (char *)(ai->refusal != NULL ? ai->refusal : "");
	return a;
}

int
api_get_array(struct call *c)
{
	const Haptix__V1__ArrayRef *ref = c->req->get_array;
	struct sim_array_info ai;
	Haptix__V1__Array *a;
	size_t n, max = c->d->opts->max_frame;
	int rc, id;

	if ((rc = array_find(c, ref->name, &id)) != 0)
		return rc;
	sim_array_describe(c->d->sim, id, &ai);
	n = (size_t)ai.rows * (size_t)ai.cols;
	/* Refuse before allocating what could never be sent. */
	if (n > max / sizeof(double))
		return call_fail(c, RESULT_BADSIZE,
		    "%s has %zu values (%d x %d): more than a frame of %zu "
		    "bytes holds (--max-frame)",
		    ai.name, n, ai.rows, ai.cols, max);
	a = array_message(c, &ai);
	a->n_values = n;
	if (n > 0) {
		a->values = arena_alloc(c->arena, n * sizeof(double));
		sim_array_get(c->d->sim, id, a->values);
	}
	PAYLOAD(c, array, ARRAY, a);
	return RESULT_OK;
}

int
api_set_array(struct call *c)
{
	const Haptix__V1__Array *w = c->req->set_array;
	struct sim_array_info ai;
	size_t size;
	int rc, id;

	if ((rc = array_find(c, w->name, &id)) != 0)
		return rc;
	sim_array_describe(c->d->sim, id, &ai);
	if (ai.refusal != NULL)
		return call_fail(c, RESULT_DENIED, "%s is not writable: %s",
		    ai.name, ai.refusal);
	size = (size_t)ai.rows * (size_t)ai.cols;
	/* A client may state the shape it expects: rows and cols, or 0. */
	if ((w->rows != 0 || w->cols != 0) &&
	    (w->rows != (uint32_t)ai.rows || w->cols != (uint32_t)ai.cols))
		return call_fail(c, RESULT_BADSIZE,
		    "%s is %d x %d, not %u x %u", ai.name, ai.rows, ai.cols,
		    w->rows, w->cols);
	if (w->n_values == 0)
		return call_fail(c, RESULT_BADSIZE, "no values to write");
	if (w->offset > size || w->n_values > size - w->offset)
		return call_fail(c, RESULT_BADSIZE,
		    "%zu values from offset %u do not fit in %s, which has "
		    "%zu (%d x %d)",
		    w->n_values, w->offset, ai.name, size, ai.rows, ai.cols);
	if ((rc = check_finite(c, ai.name, w->values, w->n_values)) != 0)
		return rc;
	if (sim_array_set(c->d->sim, id, w->offset, w->n_values, w->values,
		c->err, sizeof(c->err)) != 0)
		return RESULT_BADVALUE;
	/* opt.timestep, opt.apirate: pacing and streams follow at once. */
	lifecycle_rates(c->d);
	return RESULT_OK;
}

int
api_list_arrays(struct call *c)
{
	Haptix__V1__ArrayList *l = NEW(
	    c, Haptix__V1__ArrayList, haptix__v1__array_list__init);
	struct sim_array_info ai;
	size_t i, n = (size_t)sim_array_count();

	l->n_arrays = n;
	l->arrays = arena_alloc(c->arena, n * sizeof(*l->arrays));
	for (i = 0; i < n; i++) {
		sim_array_describe(c->d->sim, (int)i, &ai);
		l->arrays[i] = array_message(c, &ai);
	}
	PAYLOAD(c, arrays, ARRAYS, l);
	return RESULT_OK;
}
