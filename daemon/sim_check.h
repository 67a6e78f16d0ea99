/*
 * What a model may declare, checked once it has compiled (sim_check.c):
 * the settings model-max-*.
 */
#ifndef HXD_SIM_CHECK_H
#define HXD_SIM_CHECK_H

#include <stddef.h>
#include <stdint.h>

struct sim;

/* What a model may declare (the settings model-max-*). */
struct sim_limits {
	int64_t bodies;         /* nbody, the world included */
	int64_t keys;           /* nkey */
	int64_t hfield_cells;   /* one height field's rows x columns */
	int64_t texture_pixels; /* one texture's width x height */
	int64_t mesh_vertices;  /* nmeshvert: all meshes' vertices */
};

/*
 * Check the loaded model against the limits.  Returns 0, or -1 with err
 * naming the first limit passed and its setting.
 */
int sim_check_limits(
    const struct sim *s, const struct sim_limits *l, char *err, size_t len);

#endif
