/*
 * The files a model names: MJCF includes (followed), meshes, textures,
 * height fields and skins, and URDF meshes.  A client's model may name
 * only files inside the model directories, as its own path must be.
 */
#ifndef HXD_MODELREFS_H
#define HXD_MODELREFS_H

#include <stddef.h>

/*
 * Check every file the model names, resolved as MuJoCo resolves it:
 * against the model file's directory (path), or for a model sent inline
 * (path NULL, the XML in buf) against the daemon's working directory,
 * and against meshdir and texturedir.  Returns 0, or RESULT_DENIED with
 * the file and the line naming it in err.  A document that is not
 * well-formed XML is RESULT_LOADFAILED: what cannot be read cannot be
 * checked (and MuJoCo would not load it either).
 */
int modelrefs_check(
    const char *path, const void *buf, size_t len, char *err, size_t errlen);

#endif
