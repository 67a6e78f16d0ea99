/* The slow-step guard: see stepguard.h. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "clock.h"
#include "daemon.h"
#include "log.h"
#include "sim.h"
#include "sim_state.h"
#include "stepguard.h"

static stepguard_notify_fn stepguard_notify; /* core.c: event_slow_step */

/*
 * The thread's CPU clock is a system call (some 400 ns here, 1.5 % of the
 * MPL scene's step if read twice a step); the monotonic clock is not.  A
 * step is timed on the monotonic clock, and its CPU time, which is never
 * more, is asked for only when that time is slow: from an anchor, the
 * CPU and monotonic clocks read together at most STEPGUARD_ANCHOR_NS
 * before the step began, the step's CPU time is at least the CPU time
 * since the anchor less the monotonic time from the anchor to the step's
 * start (exact unless the thread was preempted in between).
 */
#define STEPGUARD_ANCHOR_NS 5000000LL

/* The guard's state (d->stepguard). */
struct stepguard {
	int64_t usual;   /* the model's usual step, ns of CPU; 0: not yet */
	int64_t tripped; /* the step that tripped it, ns; 0: steps allowed */
	char why[320];
	int slow;                        /* slow steps in a row so far */
	int64_t anchor_cpu, anchor_wall; /* the clocks read together */
};

struct stepguard *
stepguard_create(void)
{
	struct stepguard *sg;

	if ((sg = calloc(1, sizeof(*sg))) == NULL)
		fatal("out of memory");
	sg->anchor_wall = INT64_MIN / 2;
	return sg;
}

void
stepguard_free(struct stepguard *sg)
{
	free(sg);
}

static int64_t
stepguard_clock(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int64_t
stepguard_start(struct daemon *d)
{
	struct stepguard *sg = d->stepguard;
	int64_t now = stepguard_clock(CLOCK_MONOTONIC);

	if (now - sg->anchor_wall > STEPGUARD_ANCHOR_NS) {
		sg->anchor_cpu = stepguard_clock(CLOCK_THREAD_CPUTIME_ID);
		sg->anchor_wall = stepguard_clock(CLOCK_MONOTONIC);
	}
	return now;
}

/* At least the CPU time of a step that began at start (monotonic). */
static int64_t
stepguard_cpu_since(const struct stepguard *sg, int64_t start)
{
	int64_t cpu = stepguard_clock(CLOCK_THREAD_CPUTIME_ID) - sg->anchor_cpu;
	int64_t before = start - sg->anchor_wall;

	return cpu - (before > 0 ? before : 0);
}

/* Run an mj_forward for its cost. */
static void
stepguard_forward_fn(void *arg)
{
	sim_forward(arg);
}

/*
 * Measure the model's usual step as it is now: an mj_forward does what a
 * step does but the integration.  Returns the cost in ns, at least 1.
 */
static int64_t
stepguard_measure(struct daemon *d)
{
	int64_t t0 = stepguard_clock(CLOCK_THREAD_CPUTIME_ID), dt;
	char err[256];

	if (sim_protect(
		d->sim, stepguard_forward_fn, d->sim, err, sizeof(err)) != 0)
		log_warn("slow-step guard: mj_forward failed: %s", err);
	dt = stepguard_clock(CLOCK_THREAD_CPUTIME_ID) - t0;
	return dt > 0 ? dt : 1;
}

void
stepguard_model_changed(struct daemon *d)
{
	struct stepguard *sg = d->stepguard;

	sg->tripped = 0;
	sg->slow = 0;
	sg->why[0] = '\0';
	sg->usual = sim_loaded(d->sim) ? stepguard_measure(d) : 0;
}

int
stepguard_check(const struct daemon *d, char *err, size_t len)
{
	const struct stepguard *sg = d->stepguard;

	if (sg->tripped == 0)
		return 0;
	snprintf(err, len, "steps are refused: %s", sg->why);
	return -1;
}

void
stepguard_set_notify(stepguard_notify_fn fn)
{
	stepguard_notify = fn;
}

/* Pause the simulation and refuse steps: one took dt ns. */
static void
stepguard_trip(struct daemon *d, int64_t dt)
{
	struct stepguard *sg = d->stepguard;

	sg->tripped = dt;
	snprintf(sg->why, sizeof(sg->why),
	    "a step at time %g took %.3g s of CPU, %.0f times the model's "
	    "usual %.3g ms (parameters written by a client?); reset, load a "
	    "model or run to step on",
	    sim_time(d->sim), (double)dt * 1e-9, (double)dt / (double)sg->usual,
	    (double)sg->usual * 1e-6);
	log_warn("slow steps: %s", sg->why);
	/* The reason first, then the pause it causes. */
	if (stepguard_notify != NULL)
		stepguard_notify(
		    d, (double)dt * 1e-9, (double)sg->usual * 1e-9, sg->why);
	if (clock_running(d->clock))
		clock_pause(d->clock);
}

/* Whether a step of dt ns (of either clock) is slow. */
static int
stepguard_is_slow(const struct stepguard *sg, int64_t dt)
{
	return dt > STEPGUARD_FLOOR_NS && dt / STEPGUARD_FACTOR > sg->usual;
}

void
stepguard_after_step(struct daemon *d, int64_t start)
{
	struct stepguard *sg = d->stepguard;
	int64_t dt = stepguard_clock(CLOCK_MONOTONIC) - start, cpu;

	if (sg->usual == 0)
		sg->usual = dt > 0 ? dt : 1;
	/* Slow by the monotonic clock: was it by the CPU's? */
	if (stepguard_is_slow(sg, dt) &&
	    stepguard_is_slow(sg, cpu = stepguard_cpu_since(sg, start))) {
		if (++sg->slow >= STEPGUARD_RUN || cpu > STEPGUARD_ALONE_NS)
			stepguard_trip(d, cpu);
		return;
	}
	sg->slow = 0;
	if (dt > 0 && dt < sg->usual)
		sg->usual = dt; /* the cheapest step shows what it costs */
}

void
stepguard_reset(struct daemon *d)
{
	struct stepguard *sg = d->stepguard;

	sg->tripped = 0;
	sg->slow = 0;
	sg->why[0] = '\0';
}

void
stepguard_run(struct daemon *d)
{
	struct stepguard *sg = d->stepguard;

	if (sg->tripped == 0)
		return;
	log_info("slow-step guard: steps of %.3g s accepted",
	    (double)sg->tripped * 1e-9);
	sg->usual = sg->tripped;
	stepguard_reset(d);
}

const char *
stepguard_refusal(const struct daemon *d)
{
	const struct stepguard *sg = d->stepguard;

	return sg->why;
}
