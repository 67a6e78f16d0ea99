/*
 * A step that goes bad is undone (docs/security.md, "Unstable
 * simulations"): when MuJoCo finds the state bad after a step (and
 * resets it), or the state is not finite, the state and the inputs are
 * put back as they were after the last good step (sim_rollback.h), the
 * model's arrays too; the holds whose targets moved since are released,
 * the drivers' forces sent since dropped, the World API's wrenches
 * ended; the clients that wrote since are named in the step's error
 * (to a caller that stepped) and in the instability event (to all).
 * The inputs that broke it are gone with it, so the next step goes on
 * from the good state: nothing is left to freeze the time.
 */
#ifndef HXD_ROLLBACK_H
#define HXD_ROLLBACK_H

#include <stddef.h>

struct daemon;
struct rollback;
struct session;

/* The module's state (d->rollback); rollback_free takes NULL. */
struct rollback *rollback_create(void);
void rollback_free(struct rollback *rb);

/* s made a write call (call, its name) since the last step. */
void rollback_wrote(const struct session *s, const char *call);

/*
 * A step went well: what stands now is good, once the writes before it
 * have had ROLLBACK_PROVE_STEPS good steps (rollback.c); a bad step puts
 * back the state from before them, up to that many steps earlier.
 */
void rollback_good(struct daemon *d);

/* A new model (edited: by an edit, a write to be proven as any). */
void rollback_model_changed(struct daemon *d, int edited);

/*
 * The step went bad (why): put everything back as above and return 1,
 * err (len bytes) saying what was undone and who wrote since, as does
 * the instability event (rollback_told).  With nothing written since the
 * good state, the model went bad by itself: MuJoCo's reset stands, the
 * holds and drivers' forces go, and 0 is returned (no error).
 */
int rollback_bad(struct daemon *d, const char *why, char *err, size_t len);

/* What the last undone step's error said ("" if none yet). */
const char *rollback_told(const struct daemon *d);

#endif
