/*
 * Drivers' perturbations: a force and torque a driver (hx-spacenav) puts
 * on a body, written into the body's row of xfrc_applied, which the
 * driver then owns.  A driver must repeat it: after --perturb-timeout of
 * silence (a crash, a lost network) the daemon drops it, and it goes too
 * when the driver disconnects or the model is loaded.  Dropping zeroes
 * the row unless someone else has written it since, and is logged and
 * announced.  Zero force and torque release the body.
 */
#ifndef HXD_PERTURB_H
#define HXD_PERTURB_H

#include <stdint.h>

struct daemon;
struct perturbs;
struct session;

/* The module's state (d->perturb); perturb_free takes NULL. */
struct perturbs *perturb_create(void);
void perturb_free(struct perturbs *pt);

#define PERTURB_MAX 64 /* bodies perturbed at once */

struct perturb_info {
	int body;
	double f[6]; /* force, torque */
	uint64_t driver;
	char driver_name[64];
	double age;     /* seconds since the driver last sent it */
	double timeout; /* seconds of silence before it is dropped */
	int stale;      /* body is an id of the model before the last load */
};

/*
 * Session s puts f (force, torque: finite) on body (valid, not the
 * world), taking it from another driver if one had it.  Returns 0, or -1
 * with the reason in err (too many bodies perturbed at once).
 */
int perturb_set(struct daemon *d, struct session *s, int body,
    const double f[6], char *err, size_t len);

/* The perturbation on body into out: 1, or 0 if none (out says none). */
int perturb_find(struct daemon *d, int body, struct perturb_info *out);

/* The perturbations in effect: up to max into out; returns how many. */
int perturb_list(struct daemon *d, struct perturb_info *out, int max);

/* A session closed: drop what it put. */
void perturb_session_closed(struct daemon *d, struct session *s);

/* A model was loaded: forget everything (the data is new). */
void perturb_model_changed(struct daemon *d);

/*
 * Rollback (rollback.h): a good step was taken, so what drivers sent
 * before it stands; a step went bad, so the forces sent since (with
 * all, every force) are dropped, each driver told why.  Returns how
 * many.
 */
void perturb_good(struct daemon *d);
int perturb_undo(struct daemon *d, int all, const char *why);

/* Stop the timer at exit. */
void perturb_shutdown(struct daemon *d);

/* Told of each perturbation dropped (why). */
typedef void (*perturb_notify_fn)(
    struct daemon *d, const struct perturb_info *p, const char *why);

/* Set who is told; before the first client. */
void perturb_set_notify(perturb_notify_fn fn);

#endif
