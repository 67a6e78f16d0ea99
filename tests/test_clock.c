/*
 * Unit tests of pacing (daemon/clock.c) and of the slow-step guard
 * (daemon/stepguard.c), in-process: the test fixture
 * loaded into a real sim, a real event loop, and hooks that take real
 * steps and count steps, ticks and changes.  Timing bounds are generous:
 * machines are noisy.
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "clock.h"
#include "daemon.h"
#include "inproc.h"
#include "monotonic.h"
#include "sim.h"
#include "stepguard.h"

TestSuite(clock, .timeout = 10);

/* The fixture's timestep and API rate (models/test/fixture.xml). */
#define FIXTURE_TIMESTEP 0.002
#define FIXTURE_APIRATE 50

static struct daemon d;
static int nsteps, nticks, nrunning, nspeed;
static int tick_at[4096]; /* nsteps at each tick */
static int pause_after;   /* > 0: the step hook pauses after so many */

static int
hook_step(struct daemon *dd, char *err, size_t len)
{
	nsteps++;
	sim_before_step(dd->sim);
	if (pause_after > 0 && nsteps == pause_after)
		clock_pause(dd->clock);
	return sim_step(dd->sim, err, len);
}

static void
hook_tick(struct daemon *dd)
{
	(void)dd;
	if (nticks < 4096)
		tick_at[nticks] = nsteps;
	nticks++;
}

static void
hook_running(struct daemon *dd)
{
	nrunning++;
}

static void
hook_speed(struct daemon *dd)
{
	nspeed++;
}

static const struct clock_hooks test_hooks = {
	.step = hook_step,
	.tick = hook_tick,
	.running = hook_running,
	.speed = hook_speed,
};

static void
reset_counts(void)
{
	nsteps = nticks = nrunning = nspeed = 0;
}

/* The fixture loaded, the clock paused at speed 1, as main() starts. */
static void
setup(void)
{
	inproc_start(&d, NULL);
	inproc_load(&d, "fixture.xml");
	d.clock = clock_create(&d, &test_hooks);
	clock_set_speed(d.clock, 1, 0);
	clock_model_changed(d.clock);
	cr_assert_eq(nticks, 1, "a new model answers the waiters");
	reset_counts();
}

/* After a failed assertion: each test stops its daemon itself. */
static void
teardown(void)
{
	inproc_stop(&d);
}

/* Steps per API tick at an API rate of hz (< 0: the model's). */
static void
check_api_tick(double hz, int every)
{
	int i, ticks;

	sim_set_api_rate(d.sim, hz);
	clock_model_changed(d.clock);
	reset_counts();
	clock_set_speed(d.clock, 1, 1);
	clock_run(d.clock);
	while (nsteps < 5 * every + 100)
		inproc_turn(&d);
	ticks = nticks;
	clock_pause(d.clock);
	cr_assert_eq(ticks, nsteps / every, "%d steps, %d ticks at %g Hz",
	    nsteps, ticks, hz);
	for (i = 0; i < ticks && i < 4096; i++)
		cr_assert_eq(tick_at[i], (i + 1) * every,
		    "tick %d after step %d at %g Hz", i + 1, tick_at[i], hz);
}

Test(clock, api_tick_every_rounded_period, .init = setup, .fini = teardown)
{
	/* round(1 / (apirate * timestep)) steps */
	check_api_tick(-1, 10); /* the model's 50 Hz */
	check_api_tick(30, 17); /* 16.7 */
	check_api_tick(70, 7);  /* 7.1 */
	check_api_tick(1000, 1);
	check_api_tick(5000, 1); /* less than a step: every step */
	inproc_stop(&d);
}

Test(clock, no_api_rate_no_tick, .init = setup, .fini = teardown)
{
	sim_set_api_rate(d.sim, 0);
	clock_model_changed(d.clock);
	reset_counts();
	clock_set_speed(d.clock, 1, 1);
	clock_run(d.clock);
	while (nsteps < 200)
		inproc_turn(&d);
	cr_assert_eq(nticks, 0, "%d ticks in %d steps", nticks, nsteps);
	inproc_stop(&d);
}

Test(clock, pause_answers_waiters_and_says_so_once, .init = setup,
    .fini = teardown)
{
	cr_assert(!clock_running(d.clock), "created paused");
	clock_pause(d.clock);
	cr_assert_eq(nticks, 1, "a pause answers the waiters, paused or not");
	cr_assert_eq(nrunning, 0, "already paused: no change to tell");

	clock_run(d.clock);
	cr_assert(clock_running(d.clock));
	cr_assert_eq(nrunning, 1);
	clock_run(d.clock);
	cr_assert_eq(nrunning, 1, "already running: no change to tell");

	clock_pause(d.clock);
	cr_assert(!clock_running(d.clock));
	cr_assert_eq(nticks, 2);
	cr_assert_eq(nrunning, 2);
	clock_pause(d.clock);
	cr_assert_eq(nticks, 3);
	cr_assert_eq(nrunning, 2);
	cr_assert_eq(nspeed, 0, "no speed change");

	/* Paused, nothing steps. */
	inproc_run_for(&d, 0.02);
	cr_assert_eq(nsteps, 0);
	inproc_stop(&d);
}

Test(clock, set_speed_says_so, .init = setup, .fini = teardown)
{
	struct clock_status st;

	clock_set_speed(d.clock, 2, 0);
	cr_assert_eq(nspeed, 1);
	clock_status(d.clock, &st);
	cr_assert_eq(st.speed, 2);
	cr_assert_eq(st.speed_max, 0);

	clock_set_speed(d.clock, 3, 1);
	cr_assert_eq(nspeed, 2);
	clock_status(d.clock, &st);
	cr_assert_eq(st.speed_max, 1);
	cr_assert_eq(st.speed, 2, "max keeps the factor for later");

	clock_set_speed(d.clock, 0.5, 0);
	cr_assert_eq(nspeed, 3);
	clock_status(d.clock, &st);
	cr_assert_eq(st.speed, 0.5);
	cr_assert_eq(st.speed_max, 0);
	cr_assert_eq(nrunning, 0, "a speed is not a pause or a run");
	cr_assert_eq(nticks, 0);
	inproc_stop(&d);
}

Test(clock, max_speed_steps_in_slices, .init = setup, .fini = teardown)
{
	double t0, took;
	int i, was;

	clock_set_speed(d.clock, 1, 1);
	clock_run(d.clock);
	for (i = 0; i < 3; i++) {
		was = nsteps;
		t0 = monotonic_s();
		inproc_turn(&d);
		took = monotonic_s() - t0;
		cr_assert_gt(nsteps, was, "turn %d stepped", i);
		/* One slice of 5 ms, then the loop has its turn. */
		cr_assert_geq(took, 0.005, "turn %d took %g s", i, took);
		cr_assert_lt(took, 0.2, "turn %d took %g s", i, took);
	}
	cr_assert_eq(sim_counters(d.sim)->steps, (uint64_t)nsteps);
	clock_pause(d.clock);
	was = nsteps;
	inproc_run_for(&d, 0.02);
	cr_assert_eq(nsteps, was, "paused: no more slices");
	inproc_stop(&d);
}

Test(clock, pause_during_a_slice_stops_it, .init = setup, .fini = teardown)
{
	int turns = 0;

	pause_after = 3;
	clock_set_speed(d.clock, 1, 1);
	clock_run(d.clock);
	/* One slice, unless steps are slow (valgrind). */
	while (clock_running(d.clock) && turns++ < 100)
		inproc_turn(&d);
	cr_assert_eq(nsteps, 3, "%d steps", nsteps);
	cr_assert(!clock_running(d.clock));
	inproc_run_for(&d, 0.02);
	cr_assert_eq(nsteps, 3);
	inproc_stop(&d);
}

/* Run at speed for about 50 ms; check the steps against the schedule. */
static void
check_schedule(double speed)
{
	double period = FIXTURE_TIMESTEP / speed, t0, t1, due;
	struct clock_status st;

	clock_set_speed(d.clock, speed, 0);
	t0 = monotonic_s();
	clock_run(d.clock);
	inproc_run_for(&d, 0.05);
	t1 = monotonic_s();
	clock_pause(d.clock);
	due = floor((t1 - t0) / period);
	/* Never ahead of the schedule; behind only on a busy machine. */
	cr_assert_leq(nsteps, due + 1, "%d steps, %g due at speed %g", nsteps,
	    due, speed);
	cr_assert_geq(nsteps, 0.6 * due, "%d steps, %g due at speed %g", nsteps,
	    due, speed);
	clock_status(d.clock, &st);
	cr_assert_gt(st.ticks, 0, "wakeups counted");
	cr_assert_leq(st.ticks, (uint64_t)nsteps, "a wakeup finds a step due");
	cr_assert(st.lateness_p50 >= 0 && st.lateness_p50 <= st.lateness_p99 &&
		st.lateness_p99 <= st.lateness_max,
	    "lateness p50 %g, p99 %g, max %g", st.lateness_p50, st.lateness_p99,
	    st.lateness_max);
}

Test(clock, steps_on_schedule_at_speed_1, .init = setup, .fini = teardown)
{
	inproc_skip_if_valgrind();
	check_schedule(1);
	cr_assert_geq(nsteps, 10, "about 25 steps in 50 ms");
	inproc_stop(&d);
}

Test(clock, steps_on_schedule_at_speed_4, .init = setup, .fini = teardown)
{
	inproc_skip_if_valgrind();
	check_schedule(4);
	cr_assert_geq(nsteps, 50, "about 100 steps in 50 ms");
	inproc_stop(&d);
}

Test(clock, far_behind_drops_the_debt, .init = setup, .fini = teardown)
{
	struct clock_status st;
	uint64_t before;
	int was;

	inproc_skip_if_valgrind();
	clock_run(d.clock);
	inproc_run_for(&d, 0.01);
	clock_status(d.clock, &st);
	/* A loaded machine may have stalled the loop already (a CI run did):
	 * what counts is the one this stall adds. */
	before = st.overruns;
	/* The loop stalls for 150 ms: more than the 100 ms of debt kept. */
	usleep(150000);
	was = nsteps;
	inproc_turn(&d);
	clock_status(d.clock, &st);
	cr_assert_eq(st.overruns, before + 1);
	cr_assert_eq(nsteps - was, 1, "one step due now, not %d", nsteps - was);
	cr_assert_geq(st.lateness_max, 0.1, "the stall is in the lateness");
	inproc_stop(&d);
}

Test(clock, status_fields, .init = setup, .fini = teardown)
{
	struct clock_status st;

	clock_status(d.clock, &st);
	cr_assert_eq(st.running, 0);
	cr_assert_eq(st.speed, 1);
	cr_assert_eq(st.speed_max, 0);
	cr_assert_eq(st.realtime_factor, 0);
	cr_assert_eq(st.lagging, 0);
	cr_assert_eq(st.overruns, 0);
	cr_assert_eq(st.ticks, 0);
	cr_assert_eq(st.lateness_max, 0);

	clock_run(d.clock);
	inproc_run_for(&d, 0.03);
	clock_status(d.clock, &st);
	cr_assert_eq(st.running, 1);
	cr_assert_gt(st.ticks, 0);
	cr_assert_gt(st.lateness_max, 0);

	/* A new speed starts the measures afresh. */
	clock_set_speed(d.clock, 2, 0);
	clock_status(d.clock, &st);
	cr_assert_eq(st.ticks, 0);
	cr_assert_eq(st.speed, 2);

	/* Paused: kept, but no real-time factor. */
	inproc_run_for(&d, 0.02);
	clock_pause(d.clock);
	clock_status(d.clock, &st);
	cr_assert_eq(st.running, 0);
	cr_assert_eq(st.realtime_factor, 0);
	cr_assert_gt(st.ticks, 0, "paused keeps the lateness");
	inproc_stop(&d);
}

Test(clock, no_model_no_steps, .fini = teardown)
{
	inproc_start(&d, NULL);
	d.clock = clock_create(&d, &test_hooks);
	clock_set_speed(d.clock, 1, 1);
	clock_run(d.clock);
	cr_assert_eq(nrunning, 1);
	inproc_run_for(&d, 0.02);
	cr_assert_eq(nsteps, 0);

	/* A model arrives: the waiters are answered, and it steps. */
	inproc_load(&d, "fixture.xml");
	clock_model_changed(d.clock);
	cr_assert_eq(nticks, 1);
	inproc_turn(&d);
	inproc_turn(&d);
	cr_assert_gt(nsteps, 0);
	inproc_stop(&d);
}

/*------------------------------------------------------------ slow steps */

/* Spin for ms of this thread's CPU time. */
static void
spin_cpu_ms(double ms)
{
	struct timespec ts;
	double until;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	until = (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9 + ms * 1e-3;
	do
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	while ((double)ts.tv_sec + (double)ts.tv_nsec * 1e-9 < until);
}

/*
 * The slow-step guard (daemon/stepguard.c) times steps on the monotonic
 * clock and asks for the CPU clock only when that was slow: "steps" that
 * sleep 30 ms (slow on the clock, not in CPU: a preempted step) never
 * trip it, however many.
 */
Test(clock, the_step_guard_ignores_waiting, .init = setup, .fini = teardown)
{
	char err[400];
	int64_t start;
	int i;

	stepguard_model_changed(&d); /* the fixture's step: microseconds */
	for (i = 0; i < 4; i++) {
		start = stepguard_start(&d);
		usleep(30000);
		stepguard_after_step(&d, start);
	}
	cr_assert_eq(stepguard_check(&d, err, sizeof(err)), 0,
	    "four waits of 30 ms tripped the guard: %s", err);
}

/*
 * Three steps that spin 30 ms of CPU each do trip it.  Under valgrind
 * the fixture's usual step is some 40 times longer, and 30 ms not 50
 * times it: a test of timing.
 */
Test(clock, the_step_guard_trips_on_cpu, .init = setup, .fini = teardown)
{
	char err[400];
	int64_t start;
	int i;

	inproc_skip_if_valgrind();
	stepguard_model_changed(&d);
	for (i = 0; i < STEPGUARD_RUN; i++) {
		cr_assert_eq(stepguard_check(&d, err, sizeof(err)), 0,
		    "tripped after %d slow steps: %s", i, err);
		start = stepguard_start(&d);
		spin_cpu_ms(30);
		stepguard_after_step(&d, start);
	}
	cr_assert_eq(stepguard_check(&d, err, sizeof(err)), -1,
	    "three steps of 30 ms of CPU did not trip the guard");
	cr_expect_not_null(strstr(err, "steps are refused"), "%s", err);
	stepguard_reset(&d);
}
