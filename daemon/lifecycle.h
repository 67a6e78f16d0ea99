/*
 * The simulation's lifecycle: a step taken, a model loaded or edited, a
 * client gone.  Whoever causes it (the clock, a client's step or update,
 * a batch run, a load, a reload, an edit, the transport) goes through
 * here, so that streams, the recording and pacing all hear of it in the
 * same order.  A step is lifecycle_step.h's, which calls each service by
 * name, as mj_step reads; the other changes go down one ordered table of
 * the services (lifecycle.c), so that a new service adds itself in one
 * place.
 */
#ifndef HXD_LIFECYCLE_H
#define HXD_LIFECYCLE_H

#include <stddef.h>

struct daemon;
struct session;

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

/*
 * A client is no longer served: its waiting call, load and batch run
 * stop, its drivers let go and its subscriptions end, its holds are
 * released, the lease's loss policy applies if it held the lease, its
 * message is taken down, and the others hear that it left.
 */
void lifecycle_client_left(struct session *s);

#endif
