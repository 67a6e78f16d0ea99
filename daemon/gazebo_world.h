/*
 * The World API's state in the daemon (Gazebo HAPTIX's haptix_sim.h,
 * docs/compat.md): bodies whose weight is cancelled (MuJoCo 2.2 has no
 * body_gravcomp), wrenches on bodies for a span of simulated time or
 * until a reset, collide modes of body subtrees, and the view camera the
 * viewers share.  The forces are added to xfrc_applied for each step and
 * taken out after it, so a client's own applied forces stay as it wrote
 * them.  All of it is kept by body names across an edit and forgotten
 * when another model loads.
 */
#ifndef HXD_GAZEBO_WORLD_H
#define HXD_GAZEBO_WORLD_H

#include <stddef.h>

struct daemon;
struct gazebo_world;

/* The module's state (d->world); gazebo_world_free takes NULL. */
struct gazebo_world *gazebo_world_create(void);
void gazebo_world_free(struct gazebo_world *gw);

#define WORLD_WRENCHES_MAX 256 /* wrenches in effect at once */
#define WORLD_BODIES_MAX 1024  /* bodies with gravity off or a collide mode */

/*
 * Put a wrench (f: force, torque; NULL: none) on body for duration
 * seconds of simulated time (0: until a reset), and turn its gravity on
 * or off (gravity 1 or 2; 0 leaves it).  Returns 0, or -1 with the
 * reason in err (too many).
 */
int gazebo_world_force(struct daemon *d, int body, const double f[6],
    double duration, int gravity, char *err, size_t len);

/* End every wrench. */
void gazebo_world_clear_wrenches(struct daemon *d);

/* The bodies whose gravity is off, up to max; returns how many. */
int gazebo_world_gravity_off(struct daemon *d, int *bodies, int max);

/* The wrenches in effect. */
int gazebo_world_wrenches(struct daemon *d);

/* Set the collide mode (SIM_*) of body's subtree, to be kept by name. */
int gazebo_world_collide_set(
    struct daemon *d, int body, int mode, char *err, size_t len);

/* The view camera: the one set, else the model's own (*is_default). */
void gazebo_world_camera(
    struct daemon *d, double pos[3], double quat[4], int *is_default);

/* Set the view camera; the viewers hear of it. */
void gazebo_world_camera_set(
    struct daemon *d, const double pos[3], const double quat[4]);

/* Before each step: add the forces; after it, take them out. */
void gazebo_world_before_step(struct daemon *d);
void gazebo_world_after_step(struct daemon *d);

/*
 * The simulation was reset: wrenches end, the camera goes back to the
 * model's; unless the model's parameters were kept, gravity and collide
 * modes go back to the model's too.
 */
void gazebo_world_reset(struct daemon *d, int keep_params);

/* Another model: forget everything.  An edit: find the bodies by name. */
void gazebo_world_model_changed(struct daemon *d);
void gazebo_world_model_edited(struct daemon *d);

#endif
