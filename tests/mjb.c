/* MJB bytes loaded as hxview loads them: see mjb.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "mjb.h"

mjModel *
hx_mjb_load(const void *mjb, size_t size)
{
	mjVFS *vfs = malloc(sizeof(*vfs));
	mjModel *m = NULL;
	int id;

	cr_assert_not_null(vfs);
	mj_defaultVFS(vfs);
	if (mj_makeEmptyFileVFS(vfs, "daemon.mjb", (int)size) == 0 &&
	    (id = mj_findFileVFS(vfs, "daemon.mjb")) >= 0) {
		memcpy(vfs->filedata[id], mjb, size);
		m = mj_loadModel("daemon.mjb", vfs);
	}
	mj_deleteVFS(vfs);
	free(vfs);
	return m;
}
