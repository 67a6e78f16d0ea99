/*
 * One step of the simulation and what follows it, whoever takes it (the
 * clock, a client's step or update, a batch run): the services are
 * called by name around sim_step, so that it reads as mj_step does.
 */
#ifndef HXD_LIFECYCLE_STEP_H
#define HXD_LIFECYCLE_STEP_H

#include <stddef.h>

struct daemon;

/*
 * One mj_step: the inputs brought up to it and journaled if a recording
 * keeps a journal, the step, then the tracking's latency, the stream
 * frames and the record it is due for; the slow-step guard times it.
 * Returns 0; -1 with MuJoCo's error in err (the data was reset); or -2,
 * taking no step, when the slow-step guard refuses steps (err says why).
 */
int lifecycle_step(struct daemon *d, char *err, size_t len);

/*
 * The model's timestep or API rate may have changed within the model (a
 * write of opt.timestep or opt.apirate, a reset restoring them, a bad
 * step undoing them; the sizes already say so): pacing takes them
 * (clock_follow) and the streams' rates in simulated time follow.
 * Nothing happens when they are what pacing has.  lifecycle_step calls
 * it before each step and after an undone one; a write calls it at once.
 */
void lifecycle_rates(struct daemon *d);

#endif
