/*
 * Motion-capture tracking, as MuJoCo HAPTIX's hand tool did it: a driver
 * sends the pose of a physical body, and while tracking is connected the
 * mocap body follows it through the offset between the two captured from
 * the first pose after connecting, so the virtual body does not jump (a
 * mouse put down).  Disconnected, the physical body moves nothing (the
 * mouse lifted).  A reset keeps the connection (the next pose puts the
 * body back), so a reset while disconnected leaves the model's pose; a
 * model load, or the feeding driver leaving, disconnects.  A pose from
 * another driver takes the offset afresh, like a first pose.
 *
 * The offset keeps translation and rotation in world axes, one to one:
 * pos = pos0 + (p - p0), quat = (q * conj(q0)) * quat0, where p0, q0 are
 * the physical pose and pos0, quat0 the virtual one when it was captured.
 */
#ifndef HXD_TRACKING_H
#define HXD_TRACKING_H

#include <stdint.h>

struct daemon;
struct tracking;

/* The tracking's state (d->tracking); tracking_free takes NULL. */
struct tracking *tracking_create(void);
void tracking_free(struct tracking *tk);
struct session;

struct tracking_info {
	int mocap;
	int body;
	int connected;
	int offset_set;  /* connected, and a pose has come since */
	uint64_t driver; /* session of the newest pose, 0: none */
	char driver_name[64];
	uint64_t poses; /* since the model loaded */
	double rate;    /* poses per second over the last second */
	double age;     /* seconds from sampling the newest pose until now */
	double latency; /* from sampling to the first step using it; < 0: none */
	double source_time;
};

/*
 * A physical pose for mocap body i (valid index; quat unit) from driver
 * s, sampled at sample_us (µs of the Unix epoch, 0: now).  Moves the
 * mocap body when connected.
 */
void tracking_pose(struct daemon *d, struct session *s, int i,
    const double pos[3], const double quat[4], int64_t sample_us,
    double source_time);

/*
 * Connect or disconnect mocap body i for session by (0: the daemon);
 * announced when it changes, with why.  Returns 1 if it changed.
 */
int tracking_connect(
    struct daemon *d, int i, int connect, uint64_t by, const char *why);

/*
 * The mocap bodies worth reporting (fed by a driver, or connected): up
 * to max indices into out; returns how many.
 */
int tracking_reported(struct daemon *d, int *out, int max);

/* The tracking of mocap body i (valid index). */
void tracking_get(struct daemon *d, int i, struct tracking_info *out);

/* After a step: the latency of poses that step used. */
void tracking_after_step(struct daemon *d);

/* A model was loaded: disconnect everything and forget the poses. */
void tracking_model_changed(struct daemon *d);

/* A session closed: a connected body it fed disconnects. */
void tracking_session_closed(struct daemon *d, struct session *s);

/* Told of each connection or disconnection (why; by: the session). */
typedef void (*tracking_notify_fn)(struct daemon *d,
    const struct tracking_info *t, const char *why, uint64_t by);

/* Set who is told; before the first client. */
void tracking_set_notify(tracking_notify_fn fn);

#endif
