/* Batch runs: see batch.h. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>

#include "api.h"
#include "arena.h"
#include "batch.h"
#include "clock.h"
#include "daemon.h"
#include "lease.h"
#include "lifecycle_step.h"
#include "log.h"
#include "monotonic.h"
#include "options.h"
#include "pending.h"
#include "protomsg.h"
#include "session.h"
#include "sim.h"

typedef Haptix__V1__StreamFrame StreamFrame;

/* The batch in progress; there is at most one. */
struct batch {
	struct daemon *d;
	struct session *s;
	uint64_t request_id;
	uint64_t goal; /* steps to take; by time, the most it may take */
	double until;  /* > 0: step until the time is this */
	uint64_t done;
	double started;  /* simulated time before the first step */
	uint32_t record; /* fields to record (PROTOMSG_FIELD bits) */
	unsigned record_every;
	StreamFrame **traj; /* the recorded frames */
	size_t ntraj, maxtraj;
	size_t traj_bytes;  /* their encoded size so far */
	uint64_t resets0;   /* the sim's resets before the first step */
	struct arena arena; /* what the trajectory points at */
	struct event *ev;
	int steps_only; /* a step request's: answered with StepDone */
	int failed;     /* the result code when it failed, else 0 */
	char err[1200];
};

static void batch_continue_cb(evutil_socket_t, short, void *);

/* Return 1 when the batch has taken all its steps. */
static int
batch_finished(const struct batch *b)
{
	const struct sim *sim = b->d->sim;

	/*
	 * By time, the steps the goal was away bound the run: a simulation
	 * that MuJoCo resets on the way would never get there.
	 */
	if (b->until > 0 &&
	    sim_time(sim) >= b->until - 0.5 * sim_sizes(sim)->timestep)
		return 1;
	return b->done >= b->goal;
}

/*
 * Record a frame after this step.  Returns 0, or -1 when the trajectory
 * has outgrown the frame limit (contacts can multiply on the way).
 */
static int
batch_record(struct batch *b)
{
	struct daemon *d = b->d;
	StreamFrame *f;
	size_t limit = d->opts->max_frame;

	f = arena_alloc(&b->arena, sizeof(*f));
	protomsg_frame(d, &b->arena, b->record, 1, f);
	/* The frame, its tag and length, and room for the sensors. */
	b->traj_bytes += haptix__v1__stream_frame__get_packed_size(f) + 6;
	if (b->traj_bytes + 16 * (size_t)sim_sizes(d->sim)->nsensordata + 64 >
	    limit) {
		snprintf(b->err, sizeof(b->err),
		    "stopped after %llu steps: the trajectory outgrew the "
		    "%zu-byte frame limit (--max-frame); record fewer fields "
		    "or a larger record_every",
		    (unsigned long long)b->done, limit);
		b->failed = RESULT_BADSIZE;
		return -1;
	}
	b->traj[b->ntraj++] = f;
	return 0;
}

/* Step for one slice; return 1 when the batch is over (done or failed). */
static int
batch_slice(struct batch *b)
{
	struct daemon *d = b->d;
	int64_t end = monotonic_ns() + BATCH_SLICE_NS;
	char err[1100];
	int rc;

	while (!batch_finished(b)) {
		if ((rc = lifecycle_step(d, err, sizeof(err))) != 0) {
			if (b->steps_only)
				snprintf(b->err, sizeof(b->err),
				    "step %llu of %llu: %s",
				    (unsigned long long)b->done + 1,
				    (unsigned long long)b->goal, err);
			else
				snprintf(b->err, sizeof(b->err),
				    "step %llu: %s",
				    (unsigned long long)b->done + 1, err);
			b->failed = rc == -2 ? RESULT_DENIED : RESULT_SIMERROR;
			return 1;
		}
		b->done++;
		if (b->record != 0 && b->done % b->record_every == 0 &&
		    b->ntraj < b->maxtraj && batch_record(b) != 0)
			return 1;
		if (monotonic_ns() >= end)
			return batch_finished(b);
	}
	return 1;
}

/* The simulation's resets so far: instabilities and MuJoCo errors. */
static uint64_t
batch_resets(const struct daemon *d)
{
	const struct sim_counters *n = sim_counters(d->sim);

	return n->instability_resets + n->errors;
}

/* What the run is called in the log. */
static const char *
batch_what(const struct batch *b)
{
	return b->steps_only ? "step request" : "batch";
}

/* Fill the answer of a finished batch; arrays live in arena a or b's. */
static void
batch_fill(struct batch *b, struct arena *a, Response *resp)
{
	Haptix__V1__BatchResult *r;
	Haptix__V1__StepDone *w;

	if (b->steps_only) {
		w = arena_alloc(a, sizeof(*w));
		haptix__v1__step_done__init(w);
		w->steps = (uint32_t)b->done;
		w->time = sim_time(b->d->sim);
		resp->payload_case = HAPTIX__V1__RESPONSE__PAYLOAD_STEP_DONE;
		resp->step_done = w;
		return;
	}
	r = arena_alloc(a, sizeof(*r));
	haptix__v1__batch_result__init(r);
	r->steps = b->done;
	r->time = sim_time(b->d->sim);
	r->resets = batch_resets(b->d) - b->resets0;
	r->sensor = protomsg_view(b->d, a, PROTOMSG_SENSOR);
	r->n_trajectory = b->ntraj;
	r->trajectory = b->traj;
	resp->payload_case = HAPTIX__V1__RESPONSE__PAYLOAD_BATCH;
	resp->batch = r;
}

static void
batch_free(struct batch *b)
{
	if (b->ev != NULL)
		event_free(b->ev);
	arena_free(&b->arena);
	free(b->traj);
	if (b->d->batch == b) {
		b->d->batch = NULL;
		lease_batch_hold(b->d, 0);
	}
	free(b);
}

/* The batch is over: let the others write again. */
static void
batch_end(struct batch *b)
{
	lease_batch_hold(b->d, 0);
	log_info("client %llu: %s of %llu steps %s at time %g",
	    (unsigned long long)b->s->id, batch_what(b),
	    (unsigned long long)b->done, b->failed ? "failed" : "done",
	    sim_time(b->d->sim));
}

/* Answer a batch that ran over several slices. */
static void
batch_answer(struct batch *b)
{
	Response resp = HAPTIX__V1__RESPONSE__INIT;
	struct session *s = b->s;
	struct arena a = { 0 };

	batch_end(b);
	if (b->failed)
		pending_finish(s, b->request_id, b->failed, b->err, &resp);
	else {
		batch_fill(b, &a, &resp);
		pending_finish(s, b->request_id, RESULT_OK, NULL, &resp);
	}
	arena_free(&a);
	batch_free(b);
}

static void
batch_continue_cb(evutil_socket_t fd, short events, void *arg)
{
	struct batch *b = arg;
	struct timeval zero = { 0, 0 };

	if (batch_slice(b))
		batch_answer(b);
	else
		evtimer_add(b->ev, &zero); /* after the others' input */
}

void
batch_session_closed(struct session *s)
{
	struct batch *b = s->d->batch;

	if (b == NULL || b->s != s)
		return;
	log_info("client %llu: %s stopped after %llu steps: the client left",
	    (unsigned long long)s->id, batch_what(b),
	    (unsigned long long)b->done);
	batch_free(b);
}

/* Check the request and set up b's goal and recording. */
static int
batch_setup(struct call *c, const Haptix__V1__Batch *w, struct batch *b)
{
	const struct sim_sizes *z = sim_sizes(c->d->sim);
	double t = sim_time(c->d->sim), n;
	uint64_t records;
	StreamFrame f;
	size_t size;
	int bad;

	if (w->steps != 0 && w->until_time != 0)
		return call_fail(
		    c, RESULT_BADVALUE, "give steps or until_time, not both");
	if (w->steps == 0 && w->until_time == 0)
		return call_fail(c, RESULT_BADVALUE,
		    "nothing to do: give steps (> 0) or until_time");
	if (w->steps != 0) {
		if (w->steps > BATCH_MAX_STEPS)
			return call_fail(c, RESULT_BADVALUE,
			    "%u steps is more than %u in one batch", w->steps,
			    BATCH_MAX_STEPS);
		b->goal = w->steps;
	} else {
		if (!isfinite(w->until_time) || w->until_time < 0)
			return call_fail(c, RESULT_BADVALUE,
			    "until_time %g is not a time", w->until_time);
		n = ceil((w->until_time - t) / z->timestep - 0.5);
		if (n > BATCH_MAX_STEPS)
			return call_fail(c, RESULT_BADVALUE,
			    "until_time %g is %.0f steps from time %g: more "
			    "than %u in one batch",
			    w->until_time, n, t, BATCH_MAX_STEPS);
		b->until = w->until_time;
		/* One more than the estimate: rounding may need it. */
		b->goal = n > 0 ? (uint64_t)n + 1 : 1;
	}

	bad = protomsg_field_set(
	    (const int *)w->record, w->n_record, &b->record);
	if (bad >= 0)
		return call_fail(c, RESULT_BADVALUE,
		    "record[%d] is %d: not a stream field", bad,
		    (int)w->record[bad]);
	b->record_every = w->record_every != 0 ? w->record_every : 1;
	if (b->record == 0)
		return 0;
	/* The answer must fit one frame: judge by a frame of now. */
	records = b->goal / b->record_every;
	protomsg_frame(c->d, c->arena, b->record, 0, &f);
	size = haptix__v1__stream_frame__get_packed_size(&f) + 8;
	if ((double)records * (double)size >
	    (double)c->d->opts->max_frame * 0.9)
		return call_fail(c, RESULT_BADSIZE,
		    "recording %llu frames of about %zu bytes would not fit "
		    "the %zu-byte frame limit (--max-frame): record fewer "
		    "fields or a larger record_every",
		    (unsigned long long)records, size, c->d->opts->max_frame);
	b->maxtraj = (size_t)records;
	b->traj = calloc(b->maxtraj + 1, sizeof(*b->traj));
	if (b->traj == NULL)
		return call_fail(c, RESULT_BADSIZE, "out of memory");
	return 0;
}

/* A new batch for the calling client; only one runs at a time. */
static struct batch *
batch_new(struct call *c)
{
	struct batch *b;

	b = calloc(1, sizeof(*b));
	if (b == NULL)
		fatal("out of memory");
	b->d = c->d;
	b->s = c->s;
	b->request_id = c->req->id;
	c->d->batch = b;
	return b;
}

/*
 * Take b's steps: a run that ends within its first slice is answered at
 * once; a longer one goes on over turns of the loop (CALL_BUSY), the
 * others writing nothing meanwhile, and is answered when it ends.
 */
static int
batch_go(struct call *c, struct batch *b)
{
	struct daemon *d = c->d;
	struct timeval zero = { 0, 0 };
	int rc;

	b->started = sim_time(d->sim);
	b->resets0 = batch_resets(d);
	if (batch_slice(b)) {
		rc = b->failed ? call_fail(c, b->failed, "%s", b->err) :
				 RESULT_OK;
		if (!b->failed) {
			batch_fill(b, c->arena, c->resp);
			/* The answer is sent before the arena goes. */
			c->cleanup = (void (*)(void *))batch_free;
			c->cleanup_arg = b;
		} else
			batch_free(b);
		return rc;
	}
	lease_batch_hold(d, c->s->id);
	log_info("client %llu: %s run from time %g (%llu steps)",
	    (unsigned long long)c->s->id, batch_what(b), b->started,
	    (unsigned long long)b->goal);
	b->ev = evtimer_new(d->base, batch_continue_cb, b);
	if (b->ev == NULL)
		fatal("out of memory");
	evtimer_add(b->ev, &zero);
	return CALL_BUSY;
}

int
batch_steps(struct call *c, unsigned n)
{
	struct batch *b = batch_new(c);

	b->steps_only = 1;
	b->goal = n;
	return batch_go(c, b);
}

int
api_batch(struct call *c)
{
	const Haptix__V1__Batch *w = c->req->batch;
	struct batch *b;
	int rc;

	if (clock_running(c->d->clock))
		return call_fail(c, RESULT_DENIED,
		    "the simulation is running: a batch steps a paused "
		    "simulation (pause it first)");
	b = batch_new(c);
	if ((rc = batch_setup(c, w, b)) != 0 ||
	    (w->control != NULL &&
		(rc = api_control_apply(c, w->control)) != 0)) {
		batch_free(b);
		return rc;
	}
	return batch_go(c, b);
}
