/* MJB bytes loaded through a VFS: see mjb_memory.h. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mjb_memory.h"

/* The name the bytes have inside the VFS. */
#define MJB_MEMORY_NAME "memory.mjb"

mjModel *
mjb_memory_load(const void *mjb, size_t len)
{
	mjVFS *vfs;
	mjModel *m = NULL;
	int id;

	/* An mjVFS holds its table of names inline: too big for a stack. */
	if (len > INT32_MAX || (vfs = malloc(sizeof(*vfs))) == NULL)
		return NULL;
	mj_defaultVFS(vfs);
	if (mj_makeEmptyFileVFS(vfs, MJB_MEMORY_NAME, (int)len) == 0 &&
	    (id = mj_findFileVFS(vfs, MJB_MEMORY_NAME)) >= 0) {
		memcpy(vfs->filedata[id], mjb, len);
		m = mj_loadModel(MJB_MEMORY_NAME, vfs);
	}
	mj_deleteVFS(vfs);
	free(vfs);
	return m;
}
