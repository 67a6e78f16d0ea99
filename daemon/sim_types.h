/*
 * The simulation's plain types, which its users and the sim files share:
 * the model's sizes, read-only views of MuJoCo's arrays, model formats,
 * counters.  No functions: a header below every sim file.
 */
#ifndef HXD_SIM_TYPES_H
#define HXD_SIM_TYPES_H

#include <stdint.h>

struct sim_sizes {
	int nq, nv, na, nu, nbody, njnt, ngeom, nsite, ntendon, neq, nkey;
	int nmocap, nsensor, nsensordata, nmat;
	double timestep;
	double apirate; /* in effect: the override, else the model's */
};

/* Read-only views of MuJoCo's data arrays, valid until the next load. */
struct sim_arrays {
	const double *qpos, *qvel, *act, *ctrl, *qacc, *act_dot;
	const double *qacc_warmstart;
	const double *qfrc_applied, *xfrc_applied;
	const double *mocap_pos, *mocap_quat;
	const double *sensordata;
	const double *xpos, *xmat, *geom_xpos, *geom_xmat, *site_xpos,
	    *site_xmat;
	const double *ten_length, *ten_velocity;
	const double *actuator_length, *actuator_velocity, *actuator_force;
	const double *qfrc_passive, *qfrc_bias, *qfrc_actuator,
	    *qfrc_constraint, *qfrc_smooth;
};

enum sim_format {
	SIM_FORMAT_AUTO,
	SIM_FORMAT_MJCF,
	SIM_FORMAT_URDF,
	SIM_FORMAT_MJB,
};

struct sim_counters {
	uint64_t steps;               /* since the load or the reset: as time */
	uint64_t instability_resets;  /* bad qpos/qvel/qacc, reset by MuJoCo */
	uint64_t errors;              /* mju_error caught */
	const char *instability_what; /* "qpos", "qvel" or "qacc": the last */
	uint64_t model_edits;         /* writes into the model since loaded */
	double cpu_per_step;          /* seconds, moving average */
};

#endif
