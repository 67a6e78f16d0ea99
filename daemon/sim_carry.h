/*
 * What an edit's new model takes over from the running one, by names
 * (sim_carry.c): the state, and the keyframes.
 */
#ifndef HXD_SIM_CARRY_H
#define HXD_SIM_CARRY_H

#include <stddef.h>
#include <stdint.h>

struct sim;

/*
 * The state of the running model by names (sim_carry.c), taken before an
 * edit's model replaces it and given to the new one: time, joints, the
 * actuators' ctrl and act, mocap poses, applied forces, the colours
 * clients gave geoms (unless the edit gave them others).  take returns
 * NULL with no model; give and free take NULL.  The carry holds the
 * running model itself, which the next install (sim_load_buffer, ...)
 * leaves to it rather than freeing; free the carry before another.
 */
struct sim_carry;

struct sim_carry *sim_carry_take(struct sim *s);
void sim_carry_give(struct sim *s, const struct sim_carry *c);
void sim_carry_free(struct sim_carry *c);

/*
 * Carry the keyframes of from's model into to's by the same names (a
 * joint's values, an actuator's, a mocap body's; what is new starts as
 * the model does), keyframe k to keyframe k.  set (may be NULL) is told
 * each keyframe's new values as MJCF attributes ("qpos", "0 0.1 ...") to
 * write them into the model's text.  Returns the keyframes carried.
 */
int sim_carry_keys(struct sim *to, const struct sim *from,
    void (*set)(void *arg, int key, const char *attr, const char *value),
    void *arg);

#endif
