/* One call in progress: see call.h. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "arena.h"
#include "call.h"
#include "daemon.h"
#include "lease.h"
#include "session.h"

int
call_fail(struct call *c, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->err, sizeof(c->err), fmt, ap);
	va_end(ap);
	return code;
}

/* Allocate and initialise a message in the call's arena. */
void *
call_new(struct call *c, size_t size, void (*init)(void *))
{
	void *p = arena_alloc(c->arena, size);

	init(p);
	return p;
}

/* Copy n values into a new arena array. */
double *
call_copy(struct call *c, const double *src, size_t n)
{
	double *p = arena_alloc(c->arena, n * sizeof(*p));

	memcpy(p, src, n * sizeof(*p));
	return p;
}

/* A declared count must equal the model's. */
int
check_count(struct call *c, const char *what, uint32_t n, int want)
{
	if (n == (uint32_t)want)
		return 0;
	return call_fail(c, RESULT_BADSIZE,
	    "%s is %u but the model has %s "
	    "= %d",
	    what, n, what, want);
}

/* An array must have exactly want values. */
int
check_len(struct call *c, const char *what, size_t n, size_t want)
{
	if (n == want)
		return 0;
	return call_fail(c, RESULT_BADSIZE, "%s has %zu values, expected %zu",
	    what, n, want);
}

/* No NaN or infinity. */
int
check_finite(struct call *c, const char *what, const double *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (!isfinite(v[i]))
			return call_fail(c, RESULT_BADVALUE,
			    "%s[%zu] is %g: "
			    "values must be finite",
			    what, i, v[i]);
	}
	return 0;
}

/* 0 <= id < n. */
int
check_id(struct call *c, const char *what, int id, int n)
{
	if (id >= 0 && id < n)
		return 0;
	return call_fail(c, RESULT_BADINDEX,
	    "%s id %d is out of range (the "
	    "model has %d)",
	    what, id, n);
}

/* Every quaternion (count of them) must have a direction. */
int
check_quats(struct call *c, const char *what, const double *q, size_t count)
{
	size_t i;

	for (i = 0; i < count; i++) {
		if (q[4 * i] == 0 && q[4 * i + 1] == 0 && q[4 * i + 2] == 0 &&
		    q[4 * i + 3] == 0)
			return call_fail(c, RESULT_BADVALUE,
			    "%s %zu is the "
			    "zero quaternion",
			    what, i);
	}
	return 0;
}

/* An array that is either absent or has exactly n finite values. */
int
check_optional(
    struct call *c, const char *what, const double *v, size_t len, size_t n)
{
	int rc;

	if (len == 0)
		return 0;
	if ((rc = check_len(c, what, len, n)) != 0 ||
	    (rc = check_finite(c, what, v, len)) != 0)
		return rc;
	return 0;
}

int
call_may_write(struct call *c)
{
	const struct daemon *d = c->d;

	if (!lease_permits(d, c->s))
		return call_fail(c, RESULT_DENIED,
		    "client %llu (%s) holds the control lease: other clients "
		    "may read but not change the simulation",
		    (unsigned long long)lease_holder(d), lease_holder_name(d));
	if (lease_batch(d) != 0 && lease_batch(d) != c->s->id)
		return call_fail(c, RESULT_DENIED,
		    "client %llu is running a batch: the simulation cannot "
		    "change until it is done",
		    (unsigned long long)lease_batch(d));
	return 0;
}
