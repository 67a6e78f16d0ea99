/*
 * The state as the calls write and read it (sim_state.c): a reset, the
 * model's parameters put back, mj_forward, the setters, one mocap body's
 * pose or one body's applied force, equalities, energies and constraints.
 * Sizes are the model's; values have been checked finite by the caller.
 */
#ifndef HXD_SIM_STATE_H
#define HXD_SIM_STATE_H

#include <stddef.h>
#include <stdint.h>

struct sim;

/* Reset to keyframe key, or to the reference configuration if key < 0. */
void sim_reset(struct sim *s, int key);

/*
 * Put back every model array clients changed since the load (keyframes
 * excepted) and recompute (sim_pristine.c), and forget
 * the servo gains clients set (sim_robot.c).  Returns how many arrays
 * differed; their names, comma-separated, go into names (len bytes).
 */
int sim_params_restore(struct sim *s, char *names, size_t len);

/* Recompute everything derived from the state (mj_forward). */
void sim_forward(struct sim *s);

/* Setters: sizes are the model's; values have been checked finite. */
void sim_set_state(
    struct sim *s, const double *qpos, const double *qvel, const double *act);
void sim_set_ctrl(struct sim *s, const double *ctrl);
void sim_set_applied(struct sim *s, const double *qfrc, const double *xfrc);
void sim_set_mocap(struct sim *s, const double *pos, const double *quat);

/*
 * One mocap body's pose, as given (quat unit), and one body's row of
 * xfrc_applied: plain writes that the next step reads.  Ids valid.
 */
void sim_mocap_set_one(
    struct sim *s, int i, const double pos[3], const double quat[4]);
void sim_xfrc_set_one(struct sim *s, int body, const double f6[6]);

/* The body of mocap index i, or -1; the mocap index of a body, or -1. */
int sim_mocap_body(const struct sim *s, int i);
int sim_body_mocap(const struct sim *s, int body);

/* Enable or disable equality constraint id (valid). */
void sim_equality(struct sim *s, int id, int active);

/* Fill the energies (potential, kinetic) of the current state. */
void sim_energy(struct sim *s, double energy[2]);

/* Return the numbers of active constraints and of contacts. */
void sim_constraints(const struct sim *s, int *nefc, int *ncon);

/* out = a * b of quaternions (w x y z), MuJoCo's; out may alias either. */
void sim_quat_mul(const double a[4], const double b[4], double out[4]);

#endif
