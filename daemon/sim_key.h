/*
 * States by name (sim_key.c): keyframes and states captured by clients,
 * reset to by name; one joint read and written by name.
 */
#ifndef HXD_SIM_KEY_H
#define HXD_SIM_KEY_H

#include <stddef.h>
#include <stdint.h>

struct sim;

/* The longest name of a captured state. */
#define SIM_KEY_NAME_MAX 63

/*
 * Capture the current state (time, qpos, qvel, act, mocap, ctrl) under
 * name: into the model's keyframe of that name if it has one, else as a
 * state the sim keeps until the next load.  With an empty name, into
 * keyframe key (valid).  Returns the keyframe, -1 for a kept state, or
 * -2 with the reason in err.
 */
int sim_key_capture(
    struct sim *s, const char *name, int key, char *err, size_t len);

/*
 * Reset to the keyframe or captured state named name.  Returns the
 * keyframe, -1 for a captured state, -2 if there is none of that name.
 */
int sim_reset_name(struct sim *s, const char *name);

/* Return 1 if name is a keyframe or a captured state sim_reset_name knows. */
int sim_reset_name_exists(const struct sim *s, const char *name);

/* The names of the captured states: up to max into names; returns all. */
int sim_key_names(const struct sim *s, const char **names, int max);

/*
 * Set one joint's position and/or velocity (empty: leave) by its name,
 * then recompute.  Quaternions are normalised.  Returns 0; -1 for no
 * such joint, -2 for wrong sizes, -3 for a quaternion of length zero,
 * with the reason in err.  Values have been checked finite.
 */
int sim_joint_set(struct sim *s, const char *name, const double *qpos,
    size_t nqpos, const double *qvel, size_t nqvel, char *err, size_t len);

/* One joint as sim_joint_get() describes it. */
struct sim_joint {
	int id, type; /* type: MuJoCo's mjtJoint (free, ball, slide, hinge) */
	const char *name, *body; /* "" when unnamed */
	int body_id, qpos_adr, dof_adr;
	int nq, nv; /* 7 and 6 (free), 4 and 3 (ball), 1 and 1 */
	double axis[3], range[2];
	int limited;
	const double *qpos, *qvel; /* into the data: valid until it changes */
};

/*
 * Describe a joint by name, or by id when name is empty.  Returns 0, or
 * -1 with the reason in err when there is no such joint.
 */
int sim_joint_get(const struct sim *s, const char *name, int id,
    struct sim_joint *out, char *err, size_t len);

#endif
