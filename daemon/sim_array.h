/*
 * mjModel and mjData arrays by name (sim_array.c), and the model's
 * options (mjOption's fields, "opt.timestep", ...): their types, sizes
 * and which may be written, read and written as doubles.
 */
#ifndef HXD_SIM_ARRAY_H
#define HXD_SIM_ARRAY_H

#include <stddef.h>
#include <stdint.h>

struct sim;

/* Element types, numbered as the protocol's ArrayType (api_array.c checks). */
enum sim_array_type {
	SIM_ARRAY_DOUBLE, /* mjtNum */
	SIM_ARRAY_FLOAT,
	SIM_ARRAY_INT,
	SIM_ARRAY_BYTE, /* mjtByte */
};

/* One mjModel or mjData array as it is now. */
struct sim_array_info {
	const char *name;  /* MuJoCo's, without a prefix */
	const char *owner; /* "model" or "data" (the options: "model") */
	enum sim_array_type type;
	int rows, cols;      /* mjxmacro.h's, with nefc rows/columns for njmax;
				an option: 1 x its values */
	const char *refusal; /* NULL if writable, else why writes are refused */
};

/* The number of arrays: ids run from 0 to this less one. */
int sim_array_count(void);

/*
 * Find an array by its MuJoCo name, optionally prefixed "model." or
 * "data.".  Returns its id, or -1; then *why is NULL for an unknown name
 * or says why a MuJoCo array of that name (names, contact) is not offered.
 */
int sim_array_find(const char *name, const char **why);

/* Describe array id in the loaded model. */
void sim_array_describe(
    const struct sim *s, int id, struct sim_array_info *out);

/* Copy array id's rows x cols values, as doubles, into out. */
void sim_array_get(const struct sim *s, int id, double *out);

/*
 * Write n finite values into array id from element offset; offset + n is
 * within the array.  Data state writes are followed by mj_forward; an
 * option's by mj_forward (but opt.apirate's) and the sizes' timestep and
 * API rate taken again: the caller's pacing must follow them.
 * Returns 0, or -1 with the reason in err when the array is not writable
 * or a value does not fit its type or domain; nothing is written then.
 */
int sim_array_set(struct sim *s, int id, size_t offset, size_t n,
    const double *v, char *err, size_t len);

#endif
