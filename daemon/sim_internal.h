/*
 * The simulation's insides, shared by the sim_*.c files only: they are
 * the files that include MuJoCo.
 */
#ifndef HXD_SIM_INTERNAL_H
#define HXD_SIM_INTERNAL_H

#include <limits.h>

#include <mujoco/mujoco.h>

#include "sim_types.h"

/* Room for a flag per array of MJDATA_POINTERS (sim_compute.c checks). */
#define SIM_DATA_ARRAYS 256

struct sim {
	mjModel *m; /* NULL until a model loads */
	mjData *d;
	char name[256];
	char path[PATH_MAX];      /* "" for a model sent inline */
	double api_rate_override; /* < 0: the model's apirate */
	struct sim_sizes sizes;
	struct sim_arrays arrays;
	struct sim_counters counters;
	struct sim_robot *robot; /* the simple API's view (sim_robot.c) */
	struct sim_key *keys;    /* states captured by name (sim_key.c) */
	int nkeys;
	mjModel *pristine; /* the model as loaded (sim_pristine.c) */
	mjModel *lent;     /* m, while a carry has it: an install leaves it to
			      the carry (sim_carry.c) */
	struct sim_good *good; /* after the last good step (sim_rollback.c) */
	struct sim_undo *undo; /* the model's writes since (sim_undo.c) */
	mjData *scratch;       /* computations' data (sim_compute.c) */
	struct sim_history *history; /* the live run's (sim_history.c) */
	unsigned generation;         /* counts the models installed */
	/* Its arrays mj_forward leaves alone, by MJDATA_POINTERS index. */
	unsigned char scratch_stale[SIM_DATA_ARRAYS];
	int scratch_probed; /* scratch_stale is known */
};

/*
 * Run fn(arg) with a recovery point for mju_error, leaving the live data
 * and the counters alone: for work on other data.  Returns 0, or -1 with
 * MuJoCo's message in err (sim.c).
 */
int sim_guarded(void (*fn)(void *), void *arg, char *err, size_t len);

/*
 * The undo log (sim_undo.c), the lowest of the sim files: begin a log for
 * the model as it is (the good state was kept), note a write before it
 * happens (the bytes at at; setconst if mj_setConst follows it), put the
 * bytes back in reverse order (returns 1 if mj_setConst must run again),
 * free it.  Nothing is noted until a log begins for the model.
 */
void sim_undo_begin(struct sim *s);
void sim_undo_note(struct sim *s, void *at, size_t len, int setconst);
int sim_undo_apply(struct sim *s);
void sim_undo_free(struct sim *s);

/*
 * The mjData arrays a step reads and a restore must put back to be
 * exact (qpos, qvel, act, ctrl, applied forces, mocap, userdata, the
 * warm start; the time apart), into p with their lengths in n, always
 * in this order; returns how many (sim_rollback.c).
 */
#define SIM_STATE_ARRAYS 10
size_t sim_state_arrays(const mjModel *m, mjData *d, mjtNum **p, size_t *n);

/* Free what sim_rollback.c keeps. */
void sim_rollback_free(struct sim *s);

/*
 * Return 1 with why said when the step just taken went bad: MuJoCo
 * warned of a bad qpos, qvel or qacc since the good state, or the state
 * is not finite (sim_rollback.c).
 */
int sim_step_bad(const struct sim *s, char *why, size_t len);

/*
 * sim_array_describe() and sim_array_get() of data d rather than the
 * live data: the scratch data of sim_compute.c (sim_array.c).
 */
struct sim_array_info;
void sim_array_describe_in(
    const struct sim *s, const mjData *d, int id, struct sim_array_info *out);
void sim_array_get_in(
    const struct sim *s, const mjData *d, int id, double *out);

/* mj_setConst keeping the state and the holds (sim_array.c). */
void sim_array_setconst(struct sim *s);

/*
 * The sizes' timestep and API rate (the override, else the model's) from
 * the model's options, after anything wrote them: a write of opt.timestep
 * or opt.apirate, a reset restoring them, an undone step (sim_array.c).
 */
void sim_array_rates(struct sim *s);

/* Forget the captured states (a new model has other sizes). */
void sim_keys_free(struct sim *s);

/* Build the simple API's map of a model; sim_robot_free() frees it. */
struct sim_robot *sim_robot_create(const mjModel *m, const mjData *d);
void sim_robot_free(struct sim_robot *r);

/* Advance the servo references that move by themselves; before mj_step. */
void sim_robot_before_step(struct sim *s);

/* Forget moving references: the controls are what they are now. */
void sim_robot_reset(struct sim *s);

/*
 * Check what MuJoCo does not before a model's first step (sim_check.c):
 * enumerations, trees, mesh contents.  Returns 0, or -1 with err saying
 * what is wrong.
 */
int sim_check_model(const mjModel *m, char *err, size_t len);

/*
 * Copy the model just installed, to restore clients' changes from (the
 * copy of the previous model is freed); sim_pristine_free() frees it.
 */
void sim_pristine_take(struct sim *s);
void sim_pristine_free(struct sim *s);

/*
 * Put back every model array clients changed since the load (keyframes
 * excepted) and recompute.  Returns how many arrays differed; their
 * names, comma-separated, go into names (len bytes).  sim_params_restore
 * (sim_state.h) is the call: it tells the servo map too.
 */
int sim_pristine_restore(struct sim *s, char *names, size_t len);

/*
 * The simulation went unstable (what: "qpos", "qvel" or "qacc"): forget
 * moving references, and mark the servo gains clients set as undone (for
 * sim_robot_gains_undone).  reset 0: the step was undone, which put back
 * the gains set since the good state; reset 1: MuJoCo reset the data, and
 * every client's gains go back to the model's own (sim_robot.c).
 */
void sim_robot_unstable(struct sim *s, const char *what, int reset);

/* A good state was kept (sim_good): the gains in force are proven. */
void sim_robot_good(struct sim *s);

/* The model's parameters were restored: clients' gains are gone too. */
void sim_robot_params_restored(struct sim *s);

/* Number of objects of a protocol ObjType with names, or -1 if none. */
int sim_object_count(const mjModel *m, int objtype);

#endif
