/*
 * A step that goes bad is undone (sim_rollback.c).  After each good step,
 * sim_good keeps the state and the inputs of mjData (qpos, qvel, act,
 * ctrl, applied forces, mocap, userdata, the warm start, the time); every
 * write to the model since is noted first (sim_undo.c).  sim_step returns
 * 1, err saying why, when MuJoCo found the state bad (and reset it) or
 * the state is not finite; sim_rollback then puts back the model's bytes
 * and the data as kept.
 */
#ifndef HXD_SIM_ROLLBACK_H
#define HXD_SIM_ROLLBACK_H

#include <stdint.h>

struct sim;

/* Keep the state as good: the step just taken was. */
void sim_good(struct sim *s);

/* Put back the good state: 0, or -1 if nothing was kept for this model. */
int sim_rollback(struct sim *s);

/*
 * A step went bad and is not undone: MuJoCo's reset stands (and the data
 * is reset to the reference if the state is not finite, which MuJoCo does
 * not check), and the servo gains clients set go back to the model's own.
 */
void sim_settle_unstable(struct sim *s);

/* The step count of the last good step. */
uint64_t sim_good_step(const struct sim *s);

#endif
