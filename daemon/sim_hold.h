/*
 * Joints held on a path (sim_hold.c): the weld-like equality that holds
 * a joint at a target, moved, read back and its force.
 */
#ifndef HXD_SIM_HOLD_H
#define HXD_SIM_HOLD_H

#include <stddef.h>
#include <stdint.h>

struct sim;

/* The equality named name, or -1 (or no model). */
int sim_equality_id(const struct sim *s, const char *name);

/*
 * Hold the joint of equality eq (a joint equality on one joint) at
 * target from the next step on: its offset, polycoef[0], becomes target
 * less the joint's qpos0.  A change counts as a model edit.  Returns 0,
 * or -1 if eq is not such an equality.
 */
int sim_hold_set(struct sim *s, int eq, double target);

/* Where the joint of hold equality eq is now (its qpos). */
double sim_hold_position(const struct sim *s, int eq);

/* The force of equality eq's constraint rows in the last step (or 0). */
double sim_hold_force(const struct sim *s, int eq);

#endif
