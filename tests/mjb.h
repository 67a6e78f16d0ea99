/*
 * The daemon's model in the tests that link MuJoCo (test_view,
 * test_compute, test_perturb): MJB bytes loaded as hxview loads them.
 */
#ifndef HX_TESTS_MJB_H
#define HX_TESTS_MJB_H

#include <stddef.h>

#include <mujoco/mujoco.h>

/*
 * Load size bytes of MJB through a VFS, as hxview does; NULL if MuJoCo
 * cannot, with what MuJoCo said (its warnings, not its errors, which
 * end the program) in the caller's mju_user_warning.
 */
mjModel *hx_mjb_load(const void *mjb, size_t size);

#endif
