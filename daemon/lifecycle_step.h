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

#endif
