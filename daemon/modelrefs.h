/*
 * The files a model names: MJCF includes (followed), meshes, textures,
 * height fields and skins, and URDF meshes.  A client's model may name
 * only files inside the model directories, as its own path must be, or
 * files it carries; a model sent inline stands in one of them.
 */
#ifndef HXD_MODELREFS_H
#define HXD_MODELREFS_H

#include <stddef.h>

/*
 * Check every file the model at path names, resolved as MuJoCo resolves
 * it: against the model file's directory, and against meshdir and
 * texturedir.  With buf (else NULL), the model is the XML in buf, standing
 * in at path: a model sent inline, at the path modelrefs_home() gives it.
 * Returns 0, or RESULT_DENIED with the file and the line naming it in err.
 * The model is read as MuJoCo reads it (mjcf_parse_*_lenient), so that
 * every name is the one MuJoCo will open; what that cannot read is
 * RESULT_LOADFAILED: what cannot be read cannot be checked (and MuJoCo
 * would not load it either).
 */
int modelrefs_check(
    const char *path, const void *buf, size_t len, char *err, size_t errlen);

/*
 * Where a model sent inline (the XML in buf) stands, as if it were a file
 * there: the first model directory in which every file it names exists,
 * includes followed, else the first.  A model is compiled where it stands,
 * and what it names is checked there, so that it loads as the same file
 * saved there would.  Returns 0 with the directory in home, or
 * RESULT_LOADFAILED with err when buf is not XML that MuJoCo reads.
 */
int modelrefs_home(const void *buf, size_t len, char *home, size_t homelen,
    char *err, size_t errlen);

/*
 * modelrefs_check() and modelrefs_home() for a model that carries n
 * assets (modelassets.h): a name one of them serves (by MuJoCo's VFS
 * rule, its last part in any case) is read from it by MuJoCo, so it is
 * neither checked against the model directories nor looked for on the
 * disk, and an include it serves is walked from its bytes; every other
 * name is judged as before.  A name outside the model directories that
 * no asset serves is still RESULT_DENIED.
 */
struct model_asset;
int modelrefs_check_assets(const char *path, const void *buf, size_t len,
    const struct model_asset *assets, size_t n, char *err, size_t errlen);
int modelrefs_home_assets(const void *buf, size_t len,
    const struct model_asset *assets, size_t n, char *home, size_t homelen,
    char *err, size_t errlen);

#endif
