/*
 * The slow-step guard.  What a client may write (margins, sizes, solver
 * parameters) can make a model's steps far slower than they were: with
 * geom_margin 1e300 every pair of geoms touches, and the MPL scene's
 * 50 us step takes 0.2 s.  No value range prevents that (it depends on
 * the geometry), but the model's own sizes bound one step, and steps are
 * taken in slices: what the guard adds is that such a model is not
 * stepped on unknowingly.  STEPGUARD_RUN steps in a row that each take
 * more than STEPGUARD_FACTOR times the model's usual step, and more than
 * STEPGUARD_FLOOR_NS (or one that takes more than STEPGUARD_ALONE_NS),
 * pause the simulation, are logged and told to the clients, and later
 * steps are refused until a reset, a new model or an explicit run.  One
 * slow step alone is not enough: the first contact, or code run for the
 * first time under valgrind, costs once what later steps do not.
 */
#ifndef HXD_STEPGUARD_H
#define HXD_STEPGUARD_H

#include <stddef.h>
#include <stdint.h>

struct daemon;
struct stepguard;

/* The guard's state (d->stepguard); stepguard_free takes NULL. */
struct stepguard *stepguard_create(void);
void stepguard_free(struct stepguard *sg);

/* How many times its usual cost a step may take before the guard trips. */
#define STEPGUARD_FACTOR 50

/* A step of less CPU time than this never trips it. */
#define STEPGUARD_FLOOR_NS 10000000LL

/* Slow steps in a row that trip it; one this slow trips it alone. */
#define STEPGUARD_RUN 3
#define STEPGUARD_ALONE_NS 1000000000LL

/*
 * A model was installed: its usual step is measured now (an mj_forward),
 * before any client could change it, and steps are allowed.
 */
void stepguard_model_changed(struct daemon *d);

/* Return 0 if a step may be taken, else -1 with the reason in err. */
int stepguard_check(const struct daemon *d, char *err, size_t len);

/*
 * Read before a step for the next call: the monotonic clock, in ns (the
 * CPU clock is read when a step was slow by it, and every 5 ms at most).
 */
int64_t stepguard_start(struct daemon *d);

/* A step that began at start (stepguard_start()) was taken. */
void stepguard_after_step(struct daemon *d, int64_t start);

/* The simulation was reset: steps are allowed again, the usual cost kept. */
void stepguard_reset(struct daemon *d);

/*
 * A client ran the simulation: steps are allowed, and those as slow as
 * the one that tripped the guard are accepted from now on.
 */
void stepguard_run(struct daemon *d);

/* Why steps are refused, or "" when they are not. */
const char *stepguard_refusal(const struct daemon *d);

/* Told when the guard trips: the step's and the usual cost, in s. */
typedef void (*stepguard_notify_fn)(
    struct daemon *d, double step_s, double usual_s, const char *why);

/* Set who is told; before the first step. */
void stepguard_set_notify(stepguard_notify_fn fn);

#endif
