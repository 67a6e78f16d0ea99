/*
 * Mocap bodies moved smoothly by the daemon: a move goes from the pose
 * a body has to a target over a span of simulated time, on a
 * minimum-jerk profile for the position and a slerp for the rotation,
 * set before each step.  Another write of the body's pose ends it.
 */
#ifndef HXD_MOTION_H
#define HXD_MOTION_H

struct daemon;
struct motions;

/* The moves' state (d->motion); motion_free takes NULL. */
struct motions *motion_create(void);
void motion_free(struct motions *mo);

/* The longest move, in seconds of simulated time. */
#define MOTION_MAX_SECONDS 3600

/*
 * Move mocap body i to pos and quat (NULL: keep its orientation) over
 * seconds of simulated time (0: at once), replacing a move it had.
 */
void motion_start(struct daemon *d, int i, const double pos[3],
    const double quat[4], double seconds);

/* Before each step: every move sets its body's pose for the step. */
void motion_before_step(struct daemon *d);

/* A model was loaded, or the simulation reset: every move ends. */
void motion_stop_all(struct daemon *d);

#endif
