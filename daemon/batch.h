/*
 * Batch runs: step N, or until a simulated time, in one request.  The
 * simulation must be paused; while a batch steps, no other client may
 * write, and the run goes in slices so that everyone else is still
 * served.  The handler is api_batch() (api.h); a step request's steps
 * run the same way (batch_steps()).
 */
#ifndef HXD_BATCH_H
#define HXD_BATCH_H

struct call;
struct session;

/* The most steps one batch may take. */
#define BATCH_MAX_STEPS 100000000u

/* Wall time one slice of a batch may take before others get a turn. */
#define BATCH_SLICE_NS 5000000LL

/*
 * Take n steps of a paused simulation for a step request, in slices as a
 * batch runs, and answer with its StepDone: the handler's result.
 */
int batch_steps(struct call *c, unsigned n);

/* The session is leaving: stop its batch run, if it has one. */
void batch_session_closed(struct session *s);

#endif
