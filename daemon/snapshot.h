/*
 * Protocol messages of the simulation as it is now, shared by the calls,
 * the streams and batch runs.  Unless a function says it copies, arrays
 * point straight into the simulation: pack the message before anything
 * can step or change it.
 */
#ifndef HXD_SNAPSHOT_H
#define HXD_SNAPSHOT_H

#include <stddef.h>
#include <stdint.h>

#include "haptix.pb-c.h"

struct arena;
struct daemon;
struct session;

enum snapshot_objects {
	SNAPSHOT_BODY,
	SNAPSHOT_GEOM,
	SNAPSHOT_SITE,
};

/* A stream field's bit in a field set. */
#define SNAPSHOT_FIELD(f) (1u << (f))

Haptix__V1__ModelSummary *snapshot_summary(struct daemon *d, struct arena *a);

/* The views that are MuJoCo's arrays as they stand (snapshot_view.c). */
enum snapshot_view {
	SNAPSHOT_STATE,    /* Haptix__V1__State */
	SNAPSHOT_CONTROL,  /* Haptix__V1__Control */
	SNAPSHOT_APPLIED,  /* Haptix__V1__Applied */
	SNAPSHOT_MOCAP,    /* Haptix__V1__Mocap */
	SNAPSHOT_DYNAMICS, /* Haptix__V1__Dynamics */
	SNAPSHOT_SENSOR,   /* Haptix__V1__Sensor */
	SNAPSHOT_TENDON,   /* Haptix__V1__Tendon */
	SNAPSHOT_ACTUATOR, /* Haptix__V1__Actuator */
	SNAPSHOT_FORCE,    /* Haptix__V1__Force */
};

/* The message of view v, as the comment above names it. */
void *snapshot_view(struct daemon *d, struct arena *a, enum snapshot_view v);
Haptix__V1__Poses *snapshot_poses(
    struct daemon *d, struct arena *a, enum snapshot_objects which);

/* The contacts; their arrays are always the arena's. */
Haptix__V1__Contacts *snapshot_contacts(struct daemon *d, struct arena *a);

/* The daemon's status; works with no model loaded. */
Haptix__V1__Status *snapshot_status(struct daemon *d, struct arena *a);

/*
 * The field set of n StreamField values; returns -1, or the index of the
 * first value that is not a field.
 */
int snapshot_field_set(const int *fields, size_t n, uint32_t *out);

/*
 * Fill a StreamFrame with the fields in the set (SNAPSHOT_FIELD bits),
 * time and step; with copy, every array is copied into the arena.
 */
void snapshot_frame(struct daemon *d, struct arena *a, uint32_t fields,
    int copy, Haptix__V1__StreamFrame *out);

/* The recording running, or the last one (record.c). */
Haptix__V1__Recording *snapshot_recording(struct arena *a);

struct tracking_info;
struct perturb_info;

/* Copies of a mocap body's tracking and of a driver's perturbation. */
Haptix__V1__Tracking *snapshot_tracking(
    struct daemon *d, struct arena *a, const struct tracking_info *t);
Haptix__V1__Perturbation *snapshot_perturbation(
    struct daemon *d, struct arena *a, const struct perturb_info *p);

#endif
