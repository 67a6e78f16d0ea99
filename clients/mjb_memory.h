/*
 * A model from MJB bytes in memory, as the programs that link MuJoCo
 * get it: hxview and hx-foxglove from the daemon (hxd_get_model),
 * hxplay from a recording.
 */
#ifndef HX_MJB_MEMORY_H
#define HX_MJB_MEMORY_H

#include <stddef.h>

#include <mujoco/mujoco.h>

/*
 * Load len bytes of MJB through a MuJoCo VFS; NULL when out of memory,
 * over 2 GiB, or not a model this MuJoCo loads (MJB is only read by the
 * version that wrote it).  MuJoCo's errors go to the caller's
 * mju_user_error.
 */
mjModel *mjb_memory_load(const void *mjb, size_t len);

#endif
