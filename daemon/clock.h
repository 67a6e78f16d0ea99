/*
 * Pacing: steps the simulation on an absolute monotonic schedule at the
 * model's timestep divided by the speed factor, or as fast as possible,
 * with bounded catch-up; measures the real-time factor; and fires the API
 * tick every 1/apirate of simulated time.
 */
#ifndef HXD_CLOCK_H
#define HXD_CLOCK_H

#include <stdint.h>

#include <stddef.h>

struct daemon;
struct clock;

/* How the clock calls the layers above it. */
struct clock_hooks {
	/* Take one step: 0, or -1 with MuJoCo's error in err. */
	int (*step)(struct daemon *d, char *err, size_t len);
	/* The API tick: every call waiting for it is answered. */
	void (*tick)(struct daemon *d);
	/* The clock paused or ran, or its speed changed. */
	void (*running)(struct daemon *d);
	void (*speed)(struct daemon *d);
};

struct clock_status {
	int running;
	double speed; /* requested factor */
	int speed_max;
	double
	    realtime_factor; /* simulated seconds per wall second, last ~1 s */
	uint64_t overruns;   /* times the schedule was dropped to catch up */
	int lagging; /* running, and the last second fell behind the speed */
	/*
	 * Wakeups that found a step due since the schedule was anchored
	 * (run, speed, model), and how late they started it, in seconds.
	 */
	uint64_t ticks;
	double lateness_p50, lateness_p99, lateness_max;
};

/* Create the clock, paused; it calls up through hooks. */
struct clock *clock_create(struct daemon *d, const struct clock_hooks *hooks);

/* Free the clock; NULL is fine. */
void clock_free(struct clock *k);

/* Pause (no stepping) or run. */
void clock_pause(struct clock *k);
void clock_run(struct clock *k);
int clock_running(const struct clock *k);

/* Set the speed factor, or max != 0 for as fast as possible. */
void clock_set_speed(struct clock *k, double speed, int max);

/* A model was loaded: take its timestep and API rate; tick. */
void clock_model_changed(struct clock *k);

/*
 * The model's timestep or API rate may have changed without a new model
 * (a write of opt.timestep or opt.apirate, a reset restoring them, a bad
 * step undoing them): if they differ from those the clock paces by, take
 * them and anchor the schedule again (from a step in progress, that step
 * is the new schedule's first), and tick if no tick will come any more.
 * Returns 1 if they differed.
 */
int clock_follow(struct clock *k);

void clock_status(const struct clock *k, struct clock_status *out);

#endif
