/*
 * The call handlers, one file per area, each a line of api_calls.h.
 * Handlers take their request's arguments, check them, call the sim and
 * fill the response (call.h); they never touch a socket.
 */
#ifndef HXD_API_H
#define HXD_API_H

#include "call.h"
#include "daemon.h"
#include "sim.h"

/* int api_fn(struct call *) for every call, and api_fn_writes. */
#define CALL(CASE, fn, needs) int api_##fn(struct call *);
#define CALL_SOMETIMES(CASE, fn, needs) \
	int api_##fn(struct call *); \
	int api_##fn##_writes(const struct call *);
#include "api_calls.h"
#undef CALL
#undef CALL_SOMETIMES

/* The model's sizes and arrays, as handlers read them. */
static inline const struct sim_sizes *
sizes(struct call *c)
{
	return sim_sizes(c->d->sim);
}

static inline const struct sim_arrays *
arrays(struct call *c)
{
	return sim_arrays(c->d->sim);
}

/* Check a Control from the client and apply it (api_set.c). */
int api_control_apply(struct call *c, const Haptix__V1__Control *w);

/*
 * Fail the call with RESULT_SIMERROR, once, if the calling client's servo
 * gains were undone for making the simulation unstable; else 0
 * (api_simple.c; hx_update and mj_update check it).
 */
int api_gains_undone(struct call *c);

#endif
