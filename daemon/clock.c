/*
 * Pacing.  Step k after the schedule's anchor is due at anchor + k *
 * period on the monotonic clock, so timer jitter never accumulates.  A
 * wakeup takes every step that is due, within a time slice; when the
 * CPU cannot keep up, or the process was stopped, the debt is dropped
 * and counted as an overrun, and the real-time factor shows the loss.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <time.h>

#include <event2/event.h>

#include "clock.h"
#include "daemon.h"
#include "monotonic.h"
#include "latency.h"
#include "log.h"
#include "ptimer.h"
#include "sim.h"

/* Most wall time one wakeup spends stepping on schedule. */
#define CLOCK_SLICE_NS 20000000LL

/* Most wall time one wakeup spends stepping at maximum speed. */
#define CLOCK_MAX_SLICE_NS 5000000LL

/* A debt larger than this is dropped at once. */
#define CLOCK_MAX_BEHIND_NS 100000000LL

/* The real-time factor is measured over windows this long. */
#define CLOCK_WINDOW_NS 1000000000LL

/* Below this share of the requested speed, the clock is lagging. */
#define CLOCK_LAG_RATIO 0.9

struct clock {
	struct daemon *d;
	const struct clock_hooks *hooks;
	struct ptimer *timer; /* at the next step's due time */
	int running;
	double speed;
	int max;

	int64_t anchor_ns;  /* wall time of the schedule's origin */
	uint64_t done;      /* steps taken since the anchor */
	double period_ns;   /* wall time per step */
	unsigned api_every; /* steps per API tick; 0: no tick */
	unsigned api_phase;
	double timestep,
	    apirate;    /* the sim's, as period_ns and api_every took them */
	uint64_t epoch; /* anchors so far: a step's loop ends */
	int stepping;   /* within the step hook */

	int64_t window_ns; /* start of the measuring window */
	double window_sim; /* simulated seconds in the window */
	double rtf;
	uint64_t overruns;
	uint64_t window_overruns; /* in the measuring window */
	int lagging;              /* the last window fell behind */

	/*
	 * How late each wakeup started the step that was due, since the
	 * anchor: the pacing's jitter, which the real-time factor hides.
	 */
	struct latency lateness;
};

static void clock_tick(struct ptimer *, void *);

struct clock *
clock_create(struct daemon *d, const struct clock_hooks *hooks)
{
	struct clock *k;

	k = calloc(1, sizeof(*k));
	if (k == NULL)
		fatal("out of memory");
	k->d = d;
	k->hooks = hooks;
	k->speed = 1;
	k->timer = ptimer_new(d->base, clock_tick, k);
	return k;
}

void
clock_free(struct clock *k)
{
	if (k == NULL)
		return;
	ptimer_free(k->timer);
	free(k);
}

/* Start a new schedule (and measuring window) at now. */
static void
clock_anchor(struct clock *k, int64_t now)
{
	k->anchor_ns = now;
	k->done = 0;
	k->epoch++;
	k->window_ns = now;
	k->window_sim = 0;
	k->window_overruns = 0;
	latency_reset(&k->lateness);
}

/* Take the model's timestep and API rate. */
static void
clock_rates(struct clock *k)
{
	const struct sim_sizes *z = sim_sizes(k->d->sim);
	double every;

	k->timestep = z->timestep;
	k->apirate = z->apirate;
	k->period_ns = z->timestep * 1e9 / k->speed;
	k->api_every = 0;
	if (z->apirate >= 1) {
		every = floor(1.0 / (z->apirate * z->timestep) + 0.5);
		k->api_every = every < 1 ? 1 : (unsigned)every;
	}
	k->api_phase = 0;
}

/* Arm the timer for the next step that is due (at once at max speed). */
static void
clock_arm(struct clock *k, int64_t now)
{
	if (!k->running || !sim_loaded(k->d->sim))
		ptimer_stop(k->timer);
	else if (k->max)
		ptimer_at(k->timer, now);
	else
		ptimer_at(k->timer,
		    k->anchor_ns +
			(int64_t)((double)(k->done + 1) * k->period_ns));
}

/* Take one step and fire the API tick when its period is complete. */
static void
clock_step(struct clock *k)
{
	char err[1100];
	int rc;

	k->stepping = 1;
	rc = k->hooks->step(k->d, err, sizeof(err));
	k->stepping = 0;
	if (rc != 0)
		return; /* logged by the sim; the data was reset */
	k->done++;
	k->window_sim += sim_sizes(k->d->sim)->timestep;
	if (k->api_every != 0 && ++k->api_phase >= k->api_every) {
		k->api_phase = 0;
		k->hooks->tick(k->d);
	}
}

/* Close the measuring window once it is long enough. */
static void
clock_measure(struct clock *k, int64_t now)
{
	int64_t span = now - k->window_ns;

	if (span < CLOCK_WINDOW_NS)
		return;
	k->rtf = k->window_sim / ((double)span * 1e-9);
	k->lagging = k->window_overruns != 0 ||
	    (!k->max && k->rtf < CLOCK_LAG_RATIO * k->speed);
	k->window_ns = now;
	k->window_sim = 0;
	k->window_overruns = 0;
}

/* Drop the schedule's debt: restart it with its origin at anchor. */
static void
clock_overrun(struct clock *k, int64_t anchor, int64_t owed)
{
	k->overruns++;
	k->window_overruns++;
	log_debug("pacing: %lld steps behind, schedule restarted (%llu "
		  "overruns)",
	    (long long)owed, (unsigned long long)k->overruns);
	k->anchor_ns = anchor;
	k->done = 0;
}

static void
clock_tick(struct ptimer *t, void *arg)
{
	struct clock *k = arg;
	int64_t now = monotonic_ns(), start = now, end, owed;
	uint64_t epoch;
	double elapsed;

	if (k->max) {
		end = now + CLOCK_MAX_SLICE_NS;
		do
			clock_step(k);
		while ((now = monotonic_ns()) < end && k->running);
		clock_measure(k, now);
		clock_arm(k, now);
		return;
	}

	elapsed = (double)(now - k->anchor_ns);
	owed = (int64_t)floor(elapsed / k->period_ns) - (int64_t)k->done;
	if (owed > 0)
		latency_add(&k->lateness,
		    now - k->anchor_ns -
			(int64_t)((double)(k->done + 1) * k->period_ns));
	if ((double)owed * k->period_ns > CLOCK_MAX_BEHIND_NS) {
		/* Far behind (stopped, or a long load): one step is due now. */
		clock_overrun(k, now - (int64_t)k->period_ns, owed);
		owed = 1;
	}
	epoch = k->epoch;
	while (owed-- > 0 && k->running) {
		clock_step(k);
		now = monotonic_ns();
		if (k->epoch != epoch)
			break; /* a new schedule (clock_follow) owes nothing */
		if (now - start > CLOCK_SLICE_NS && owed > 0) {
			/* The CPU cannot keep up: the next step is one period
			 * on. */
			clock_overrun(k, now, owed);
			break;
		}
	}
	clock_measure(k, now);
	clock_arm(k, now);
}

void
clock_pause(struct clock *k)
{
	int was = k->running;

	k->running = 0;
	k->rtf = 0;
	k->lagging = 0;
	ptimer_stop(k->timer);
	/* Nobody waits for a tick that will not come. */
	k->hooks->tick(k->d);
	if (was)
		k->hooks->running(k->d);
}

void
clock_run(struct clock *k)
{
	int64_t now = monotonic_ns();
	int was = k->running;

	k->running = 1;
	k->lagging = 0;
	clock_anchor(k, now);
	clock_arm(k, now);
	if (!was)
		k->hooks->running(k->d);
}

int
clock_running(const struct clock *k)
{
	return k->running;
}

void
clock_set_speed(struct clock *k, double speed, int max)
{
	int64_t now = monotonic_ns();

	k->max = max;
	if (!max)
		k->speed = speed;
	if (sim_loaded(k->d->sim))
		clock_rates(k);
	clock_anchor(k, now);
	clock_arm(k, now);
	k->hooks->speed(k->d);
}

void
clock_model_changed(struct clock *k)
{
	int64_t now = monotonic_ns();

	clock_rates(k);
	clock_anchor(k, now);
	k->hooks->tick(k->d);
	clock_arm(k, now);
}

int
clock_follow(struct clock *k)
{
	const struct sim_sizes *z;
	int64_t now;

	if (!sim_loaded(k->d->sim))
		return 0;
	z = sim_sizes(k->d->sim);
	if (z->timestep == k->timestep && z->apirate == k->apirate)
		return 0;
	now = monotonic_ns();
	clock_rates(k);
	clock_anchor(k, now);
	/* The step being taken is the first of the new schedule, due now. */
	if (k->stepping)
		k->anchor_ns = now - (int64_t)k->period_ns;
	clock_arm(k, now);
	/* Nobody waits for a tick that will not come. */
	if (k->api_every == 0)
		k->hooks->tick(k->d);
	return 1;
}

void
clock_status(const struct clock *k, struct clock_status *out)
{
	out->running = k->running;
	out->speed = k->speed;
	out->speed_max = k->max;
	out->realtime_factor = k->running ? k->rtf : 0;
	out->lagging = k->running && k->lagging;
	out->overruns = k->overruns;
	out->ticks = k->lateness.count;
	out->lateness_p50 = latency_percentile(&k->lateness, 0.5);
	out->lateness_p99 = latency_percentile(&k->lateness, 0.99);
	out->lateness_max = latency_max(&k->lateness);
}
