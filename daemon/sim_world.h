/*
 * What Gazebo HAPTIX's World API needs of MuJoCo (sim_world.c): weights,
 * the forces pushed and popped around a step, collide modes by subtree,
 * the model's free camera.
 */
#ifndef HXD_SIM_WORLD_H
#define HXD_SIM_WORLD_H

#include <stddef.h>
#include <stdint.h>

struct sim;

/* The force that cancels body's weight. */
void sim_body_weight(const struct sim *s, int body, double f[3]);

/* Save xfrc_applied into saved (6 x nbody) and add add; put it back. */
void sim_xfrc_push(struct sim *s, const double *add, double *saved);
void sim_xfrc_pop(struct sim *s, const double *saved);

/* Collide modes of a body's subtree, as haptix_sim.h numbers them. */
#define SIM_NOCOLLIDE 0 /* contype and conaffinity 0 */
#define SIM_DETECT 1    /* contacts kept out of the solver (geom_gap) */
#define SIM_COLLIDE 2   /* as the model was loaded */
int sim_collide_get(const struct sim *s, int body);
void sim_collide_set(struct sim *s, int body, int mode);

/* The model's own view: MuJoCo's free camera, looking along its x. */
void sim_camera_default(const struct sim *s, double pos[3], double quat[4]);

#endif
