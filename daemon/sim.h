/*
 * The simulation: sole owner of MuJoCo's model and data (sim.c): made,
 * loaded, stepped and freed here; its other parts each have a header of
 * their own (sim_state.h, sim_access.h, sim_array.h, ...), and what the
 * sim files share among themselves is in sim_internal.h.
 *
 * Only the sim_*.c files include MuJoCo.  These interfaces speak plain C:
 * sizes, double arrays and ids.  Callers check sizes and values before
 * calling a setter; the sim trusts its arguments but never lets a MuJoCo
 * error escape (mju_error is caught, the data reset and -1 returned).
 */
#ifndef HXD_SIM_H
#define HXD_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "sim_types.h"

struct sim;

/* Create an empty simulation and install MuJoCo's error hooks. */
struct sim *sim_create(void);

/* Free the simulation; NULL is fine. */
void sim_free(struct sim *s);

/* Set the API rate to use instead of the model's (< 0: the model's). */
void sim_set_api_rate(struct sim *s, double hz);

/*
 * Load a model file (MJCF/URDF by default, MJB by its .mjb suffix).  On
 * failure the old model stays and err holds MuJoCo's message.
 */
int sim_load_file(struct sim *s, const char *path, char *err, size_t len);

/*
 * Load a model from memory.  With path (else NULL), the data stands for
 * that file: MuJoCo resolves its assets against the file's directory and
 * it is the model's path; otherwise name names it in logs.
 */
int sim_load_buffer(struct sim *s, enum sim_format fmt, const void *data,
    size_t size, const char *name, const char *path, char *err, size_t len);

/* A file MuJoCo reads from memory beside the model (its VFS). */
struct sim_file {
	const char *name; /* as the model names it: only its last part,
			     in any letter case, counts (modelassets.h) */
	const void *data; /* not empty */
	size_t size;
};

/*
 * sim_load_buffer() with nfiles files in MuJoCo's VFS beside the model:
 * what the model names that one of them serves (meshes, textures, height
 * fields, skins, includes) is read from it, not from the disk.  Two of
 * one name, or one of the model's, are refused (-1 with err).
 */
int sim_load_buffer_with(struct sim *s, enum sim_format fmt, const void *data,
    size_t size, const char *name, const char *path,
    const struct sim_file *files, size_t nfiles, char *err, size_t len);

/* Return 1 if sim_load_buffer() would read data as MJB (fmt may be AUTO). */
int sim_is_mjb(enum sim_format fmt, const void *data, size_t size);

/* Return 1 when a model is loaded. */
int sim_loaded(const struct sim *s);

/* Sizes, arrays, name and file of the loaded model. */
const struct sim_sizes *sim_sizes(const struct sim *s);
const struct sim_arrays *sim_arrays(const struct sim *s);
const char *sim_model_name(const struct sim *s);
const char *sim_model_path(const struct sim *s);
double sim_time(const struct sim *s);
const struct sim_counters *sim_counters(const struct sim *s);

/*
 * The loaded model as MuJoCo's MJB: its size, and the bytes written into
 * buf (size = sim_mjb_size() of them): returns how many make the MJB, or
 * 0 if buf is too small.  MuJoCo's version, for readers.
 */
size_t sim_mjb_size(const struct sim *s);
size_t sim_mjb_save(const struct sim *s, void *buf, size_t size);
int sim_mujoco_version(void);

/*
 * Run fn(arg) with MuJoCo's errors caught.  Returns 0, or -1 after an
 * mju_error with its text in err; the data has then been reset.
 */
int sim_protect(
    struct sim *s, void (*fn)(void *), void *arg, char *err, size_t len);

/*
 * Bring the inputs to what the next step uses: servo references that
 * move by themselves (the simple API's ref_vel) advance one step.  Call
 * once before each sim_step; a caller that records the inputs a step
 * takes reads them in between.
 */
void sim_before_step(struct sim *s);

/*
 * Take one step.  Returns 0; 1 with err saying why when the step went
 * bad (sim_rollback.h); -1 with MuJoCo's error in err (data reset).
 */
int sim_step(struct sim *s, char *err, size_t len);

/*
 * 0 (the daemon's): a model installed keeps a copy of itself as loaded
 * (sim_pristine.c).  A loader, which restores nothing, sets 1.
 */
extern int sim_lean;

#endif
