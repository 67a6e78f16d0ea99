/*
 * The simulation's insides, shared by the sim_*.c files only: they are
 * the files that include MuJoCo.
 */
#ifndef HXD_SIM_INTERNAL_H
#define HXD_SIM_INTERNAL_H

#include <limits.h>

#include <mujoco/mujoco.h>

#include "sim.h"

struct sim {
	mjModel *m; /* NULL until a model loads */
	mjData *d;
	char name[256];
	char path[PATH_MAX];      /* "" for a model sent inline */
	double api_rate_override; /* < 0: the model's apirate */
	struct sim_sizes sizes;
	struct sim_arrays arrays;
	struct sim_counters counters;
};

/* Number of objects of a protocol ObjType with names, or -1 if none. */
int sim_object_count(const mjModel *m, int objtype);

#endif
