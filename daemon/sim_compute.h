/*
 * MuJoCo's computations on a scratch copy of the state (sim_compute.c):
 * mj_forward in a second mjData owned by the simulation, then MuJoCo's
 * own functions on it, so that the live data, its warm start and the
 * counters are never touched.  The caller checks every argument first.
 */
#ifndef HXD_SIM_COMPUTE_H
#define HXD_SIM_COMPUTE_H

#include <stddef.h>
#include <stdint.h>

struct sim;

/* What a query computes; numbered as the protocol's ComputeKind. */
enum sim_compute_kind {
	SIM_COMPUTE_ARRAY,
	SIM_COMPUTE_INVERSE,
	SIM_COMPUTE_FULL_M,
	SIM_COMPUTE_SOLVE_M,
	SIM_COMPUTE_RNE,
	SIM_COMPUTE_JAC,
	SIM_COMPUTE_JAC_BODY,
	SIM_COMPUTE_JAC_BODY_COM,
	SIM_COMPUTE_JAC_GEOM,
	SIM_COMPUTE_JAC_SITE,
	SIM_COMPUTE_OBJECT_VELOCITY,
	SIM_COMPUTE_OBJECT_ACCELERATION,
	SIM_COMPUTE_CONTACT_FORCE,
	SIM_COMPUTE_ENERGY,
	SIM_COMPUTE_RAY,
	SIM_COMPUTE_DIFFERENTIATE_POS,
	SIM_COMPUTE_INTEGRATE_POS,
	SIM_COMPUTE_NKINDS
};

/* A state to compute on: each NULL array is the live data's. */
struct sim_cstate {
	const double *qpos, *qvel, *act, *ctrl, *mocap_pos, *mocap_quat;
	const double *qfrc_applied, *xfrc_applied, *qacc_warmstart, *qacc;
};

/* One query, its names resolved to ids and its sizes checked. */
struct sim_query {
	enum sim_compute_kind kind;
	int objtype;    /* mjtObj: object velocity and acceleration */
	const int *ids; /* the array's id, or the bodies, geoms, sites */
	size_t nids;    /* 1 for every point of a jac: one body */
	const double *args;
	size_t nargs;
	int flag; /* flg_acc, flg_local */
	double dt;
	const unsigned char *geomgroup; /* rays: 6 flags, or NULL for all */
	int flg_static;                 /* rays: include static geoms */
	int bodyexclude;                /* rays: -1 for none */
};

/*
 * One query's result: sim_compute_shape() sets the shape and counts, the
 * caller provides the arrays, sim_compute_query() fills them.
 */
struct sim_result {
	uint32_t shape[4];
	int ndim;
	size_t nvalues, nids, nframes;
	double *values;
	int32_t *ids;   /* rays' geoms; contacts' geom1, geom2, body1, body2 */
	double *frames; /* contacts' dist, pos[3] and frame[9] */
};

/* Columns of a contact's ids and frames. */
#define SIM_CONTACT_IDS 4
#define SIM_CONTACT_FRAMES 13

/*
 * The largest magnitude a state's value may have: MuJoCo's mjMAXVAL, past
 * which mj_step's checks reset the simulation rather than step from it.
 */
double sim_compute_max_value(void);

/* The shortest ray direction mj_ray takes (mjMINVAL; shorter is an error). */
double sim_compute_min_length(void);

/* The state a query's points and positions are counted in. */
int sim_compute_args_per_item(const struct sim *s, enum sim_compute_kind k);

/*
 * Make the scratch data the state: the live inputs, those st gives over
 * them, then mj_forward; with last_step, a copy of the live data as the
 * last step left it (st is NULL then).  Returns 0, or -1 with MuJoCo's
 * error in err.
 */
int sim_compute_state(struct sim *s, const struct sim_cstate *st, int last_step,
    char *err, size_t len);

/* The shape of q's result on the state made last. */
void sim_compute_shape(
    const struct sim *s, const struct sim_query *q, struct sim_result *r);

/*
 * Run q on the state made last, in the order a program linking MuJoCo
 * would call it, into r's arrays.  Returns 0, or -1 with MuJoCo's error
 * in err (the scratch data is reset then).
 */
int sim_compute_query(struct sim *s, const struct sim_query *q,
    struct sim_result *r, char *err, size_t len);

#endif
