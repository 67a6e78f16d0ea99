/*
 * Events: what changed, told to every client subscribed to events (as a
 * Response with id 0 whose payload is an Event), each built here from
 * the state and delivered by the streams.
 */
#ifndef HXD_EVENT_H
#define HXD_EVENT_H

#include <stdint.h>

#include "haptix.pb-c.h"

struct arena;
struct daemon;
struct events;

/* The events' state (d->event); events_free takes NULL. */
struct events *events_create(void);
void events_free(struct events *es);
struct session;
struct tracking_info;
struct perturb_info;

/*
 * After every step: MuJoCo reset the simulation (instability, error), or
 * a bad step was undone; undone is what its undoing said ("" if none).
 */
void event_after_step(struct daemon *d, const char *undone);

/* A model was loaded (reload: the same file again). */
void event_model(struct daemon *d, int reload);

/*
 * The simulation was reset, to keyframe key (named name) or -1, from the
 * simulated time left.
 */
void event_reset(struct daemon *d, int key, const char *name, double left);

/* The run resumed from a state of the history (a reset with history). */
void event_resume(struct daemon *d, double left);

/* The simulation paused or ran; its speed changed. */
void event_run(struct daemon *d);
void event_speed(struct daemon *d);

/* The slow-step guard paused the simulation (stepguard.h). */
void event_slow_step(
    struct daemon *d, double step_s, double usual_s, const char *why);

/* The daemon ended the recording by itself (record.h): quota, full disk. */
void event_recording_ended(struct daemon *d);

/*
 * As event_model(), for an edit when operations is not NULL: the
 * operations ("add body box" lines) and what they removed ("type name"
 * lines) go with the new sizes.
 */
void event_model_edited(
    struct daemon *d, int reload, const char *operations, const char *removed);

/* The viewers' message changed. */
void event_message(struct daemon *d);

/* The view camera was set (is_default: back to the model's own). */
void event_camera(struct daemon *d, const double pos[3], const double quat[4],
    int is_default);

/* The lease was taken or given up. */
void event_lease(struct daemon *d);

/* Client s joined (said Hello) or left. */
void event_client(struct daemon *d, struct session *s, int joined);

/* Tracking connected or disconnected (why; by: the session that asked). */
void event_tracking(struct daemon *d, const struct tracking_info *t,
    const char *why, uint64_t by);

/* A driver's perturbation dropped (why). */
void event_perturbation(
    struct daemon *d, const struct perturb_info *p, const char *why);

/* One client as the clients list and join/leave events show it. */
Haptix__V1__ClientInfo *event_client_info(
    struct daemon *d, struct arena *a, struct session *s);

#endif
