/*
 * Joints held on a path (docs/editing.md): a client holds a hinge or
 * slide joint at a target, or along targets it sends at its own rate;
 * each hold is a joint equality, hxhold:JOINT, that an edit adds to the
 * model, and whose offset the daemon sets to the target before each step
 * so that MuJoCo computes the force.  A release, or its holder leaving,
 * removes the equality by another edit; another model drops every hold.
 */
#ifndef HXD_HOLD_H
#define HXD_HOLD_H

#include <stddef.h>
#include <stdint.h>

#include <sys/queue.h>

#include "loadjob.h"

struct daemon;
struct holds;
struct session;

/* The names of the holds' equalities begin so; a user's may not. */
#define HOLD_PREFIX "hxhold:"

/* The longest joint name a hold takes. */
#define HOLD_NAME_MAX 200

/* Most holds at once, and most joints in one call. */
#define HOLD_MAX 1000

struct hold {
	TAILQ_ENTRY(hold) entry;
	char joint[HOLD_NAME_MAX + 1];
	uint64_t holder; /* its client's id */
	char holder_name[64];
	double target;
	int eq;        /* its equality in the running model, or -1 */
	int adding;    /* the edit adding its equality (hold_edit_start) */
	int releasing; /* the edit removing it */
	int good;      /* held at good_target through the last good step */
	double good_target;
};

TAILQ_HEAD(hold_list, hold);

/* The holds' state (d->hold); hold_free takes NULL. */
struct holds *hold_create(void);
void hold_free(struct holds *hs);

/* Every hold, oldest first. */
struct hold_list *hold_list(struct daemon *d);

/* Number of holds. */
int hold_count(const struct daemon *d);

/* The hold on joint, or NULL. */
struct hold *hold_find(const struct daemon *d, const char *joint);

/* A new hold of s's on joint at target, whose equality is to come. */
struct hold *hold_new(struct daemon *d, const char *joint,
    const struct session *s, double target);

/* Return 1 if name is reserved for the holds' equalities. */
int hold_reserved(const char *name);

/*
 * Start the edit that adds the equalities of the holds marked adding =
 * serial (remove = 0), or removes those of the holds marked releasing =
 * serial, for owner (NULL: the daemon); done is told as for any load.
 * *operations (may be NULL) gets its "add equality hxhold:J" lines,
 * malloc'd.  Returns 0, or a result code with err saying why.
 */
int hold_edit_start(struct daemon *d, const void *owner, int remove, int serial,
    loadjob_done_fn done, void *arg, char **operations, char *err, size_t len);

/* A serial for the next edit's holds. */
int hold_serial(struct daemon *d);

/*
 * The edit with serial is over (ok: it was installed): its added holds
 * hold, its released ones go; failed, the added ones go and the released
 * ones stay.
 */
void hold_edit_over(struct daemon *d, int serial, int ok);

/*
 * Rollback (rollback.h): after a good step, every hold's target stands;
 * after a bad one, the holds whose target moved since (or that came
 * since), or with all every hold, are released, their target first put
 * back to where the joint is, each holder told (hold_dropped_take).
 * Returns how many, their joints in names (len bytes).
 */
void hold_good(struct daemon *d);
int hold_undo(struct daemon *d, int all, char *names, size_t len);

/* Before each step: each hold's target into its equality. */
void hold_before_step(struct daemon *d);

/*
 * Another model is running: every hold whose equality is not on its way
 * ends, and its holder is told at its next answer.
 */
void hold_model_changed(struct daemon *d);

/*
 * The model was edited: the holds find their equalities again; a hold
 * whose equality went (its joint was removed) ends, and its holder is
 * told at its next answer.
 */
void hold_model_edited(struct daemon *d);

/* s left: its holds are released, their equalities removed by one edit. */
void hold_session_closed(struct daemon *d, struct session *s);

/*
 * Told when the release of a client that left has been installed, with
 * its operations and what they removed, as an edit a client asked for
 * is told (core.c: lifecycle_model_edited, which a service may not call up).
 */
typedef void (*hold_edited_fn)(struct daemon *d, const char *operations,
    const char *removed, const char *transaction);

/* Set who is told; before the first client. */
void hold_set_notify(hold_edited_fn fn);

/*
 * Why the holds of holder ended without its asking since it was last
 * told: "JOINT: why" lines, malloc'd, or NULL.  They are forgotten.
 */
char *hold_dropped_take(struct daemon *d, uint64_t holder);

/*
 * The model's text without the holds' equalities (they are the daemon's,
 * not the model's): malloc'd with its length in *len, or NULL when it has
 * none of them.
 */
char *hold_strip_xml(
    const struct daemon *d, const char *xml, size_t xml_len, size_t *len);

/* Forget every hold (the daemon stops). */
void hold_shutdown(struct daemon *d);

#endif
