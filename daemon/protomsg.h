/*
 * Protocol messages of the simulation as it is now, shared by the calls,
 * the streams and batch runs.  Unless a function says it copies, arrays
 * point straight into the simulation: pack the message before anything
 * can step or change it.
 */
#ifndef HXD_PROTOMSG_H
#define HXD_PROTOMSG_H

#include <stddef.h>
#include <stdint.h>

#include "haptix.pb-c.h"

struct arena;
struct daemon;
struct session;

enum protomsg_objects {
	PROTOMSG_BODY,
	PROTOMSG_GEOM,
	PROTOMSG_SITE,
};

/* A stream field's bit in a field set. */
#define PROTOMSG_FIELD(f) (1u << (f))

Haptix__V1__ModelSummary *protomsg_summary(struct daemon *d, struct arena *a);

/* The views that are MuJoCo's arrays as they stand (protomsg_view.c). */
enum protomsg_view {
	PROTOMSG_STATE,    /* Haptix__V1__State */
	PROTOMSG_CONTROL,  /* Haptix__V1__Control */
	PROTOMSG_APPLIED,  /* Haptix__V1__Applied */
	PROTOMSG_MOCAP,    /* Haptix__V1__Mocap */
	PROTOMSG_DYNAMICS, /* Haptix__V1__Dynamics */
	PROTOMSG_SENSOR,   /* Haptix__V1__Sensor */
	PROTOMSG_TENDON,   /* Haptix__V1__Tendon */
	PROTOMSG_ACTUATOR, /* Haptix__V1__Actuator */
	PROTOMSG_FORCE,    /* Haptix__V1__Force */
};

/* The message of view v, as the comment above names it. */
void *protomsg_view(struct daemon *d, struct arena *a, enum protomsg_view v);
Haptix__V1__Poses *protomsg_poses(
    struct daemon *d, struct arena *a, enum protomsg_objects which);

/* The contacts; their arrays are always the arena's. */
Haptix__V1__Contacts *protomsg_contacts(struct daemon *d, struct arena *a);

/* The daemon's status; works with no model loaded. */
Haptix__V1__Status *protomsg_status(struct daemon *d, struct arena *a);

/*
 * The field set of n StreamField values; returns -1, or the index of the
 * first value that is not a field.
 */
int protomsg_field_set(const int *fields, size_t n, uint32_t *out);

/*
 * Fill a StreamFrame with the fields in the set (PROTOMSG_FIELD bits),
 * time and step; with copy, every array is copied into the arena.
 */
void protomsg_frame(struct daemon *d, struct arena *a, uint32_t fields,
    int copy, Haptix__V1__StreamFrame *out);

/* The recording running, or the last one (record.c). */
Haptix__V1__Recording *protomsg_recording(
    const struct daemon *d, struct arena *a);

struct tracking_info;
struct perturb_info;

/* Copies of a mocap body's tracking and of a driver's perturbation. */
Haptix__V1__Tracking *protomsg_tracking(
    struct daemon *d, struct arena *a, const struct tracking_info *t);
Haptix__V1__Perturbation *protomsg_perturbation(
    struct daemon *d, struct arena *a, const struct perturb_info *p);

#endif
