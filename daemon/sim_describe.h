/*
 * The model's description as protocol messages (see sim_describe.c, the
 * one file that includes both MuJoCo and the generated code).
 */
#ifndef HXD_SIM_DESCRIBE_H
#define HXD_SIM_DESCRIBE_H

#include "haptix.pb-c.h"

struct sim;
struct arena;

/* Fill the model's sizes and timing; strings point into the sim. */
void sim_describe_summary(const struct sim *s, Haptix__V1__ModelSummary *out);

/* Fill the model's description; arrays live in the arena or the model. */
void sim_describe_info(
    const struct sim *s, struct arena *a, Haptix__V1__Info *out);

#endif
