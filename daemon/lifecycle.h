/*
 * The simulation changes: a step taken, a model loaded.  Whoever causes
 * it (the clock, a client's step or update, a batch run, a load, a
 * reload) goes through here, so that streams, the recording and pacing
 * all hear of it in the same order.
 */
#ifndef HXD_LIFECYCLE_H
#define HXD_LIFECYCLE_H

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
 * A model was loaded (reload: the same file again): the recording ends
 * with why, the slow-step guard measures the new model's step, pacing
 * takes the new timestep, tracking disconnects, mocap
 * moves end, drivers' forces are forgotten, subscribers get the event.
 */
void lifecycle_model_changed(struct daemon *d, int reload, const char *why);

/*
 * The same after an edit, but a recording goes on, holding the edit
 * (transaction: the operations in full, as text; NULL: operations);
 * the others hear of its operations.
 */
void lifecycle_model_edited(struct daemon *d, const char *operations,
    const char *removed, const char *transaction);

#endif
