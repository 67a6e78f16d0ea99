/*
 * The history of the live run (sim_history.c): after each step, the
 * state a restore needs to be exact (what sim_rollback keeps: qpos, qvel,
 * act, ctrl, applied forces, mocap, userdata, the warm start, the time)
 * goes into a ring covering the last seconds of simulated time, within a
 * memory bound: when the bound cannot hold every step of those seconds,
 * one step in stride is kept.  A past state is read by how many kept
 * states back it is (0: the newest), and the run may resume from one:
 * the live data becomes that state exactly, and the newer ones go.
 *
 * The ring holds the states of one model: a new model (a load, or an
 * edit, which compiles the model anew) empties it.  A write into the model (an
 * option, a colour, a gain) does not, but a state from before it can
 * be read and not resumed, since the steps from it would differ.
 */
#ifndef HXD_SIM_HISTORY_H
#define HXD_SIM_HISTORY_H

#include <stddef.h>
#include <stdint.h>

struct sim;

/* The ring's bounds: seconds of simulated time (0: no history), bytes. */
void sim_history_set(struct sim *s, double seconds, size_t max_bytes);

/* Keep the state the step just taken left (the live data). */
void sim_history_push(struct sim *s);

/* Forget every kept state. */
void sim_history_clear(struct sim *s);

struct sim_history_info {
	double seconds;   /* what it is set to cover */
	size_t max_bytes; /* its bound */
	size_t states;    /* kept now */
	size_t capacity;  /* the most it keeps for this model */
	size_t bytes;     /* allocated for this model */
	unsigned stride;  /* one step kept in stride */
	double oldest;    /* simulated time of the oldest kept state */
	double newest;    /* and of the newest */
};
void sim_history_info(const struct sim *s, struct sim_history_info *out);

/* One kept state: the arrays in the order of sim_state_arrays(). */
struct sim_history_state {
	double time;
	uint64_t step; /* the step count then */
	int resumable; /* no write into the model since */
	const double *arrays[10];
	size_t lengths[10];
	size_t narrays;
};

/*
 * The state back kept states before the newest into out, its arrays
 * pointing into the ring until the next push, resume or clear: 0, or
 * -1 when fewer are kept.
 */
int sim_history_get(
    const struct sim *s, size_t back, struct sim_history_state *out);

/*
 * Make the state back kept states before the newest the live state,
 * exactly, and forget the newer ones: 0; -1 with the reason in err when
 * none is kept there or the model was written since.
 */
int sim_history_resume(struct sim *s, size_t back, char *err, size_t len);

/* Free the ring (sim_free). */
void sim_history_free(struct sim *s);

#endif
