/*
 * Loading model files: the command line's model, clients' loads and
 * reloads all come through here, so that the legacy translation of
 * HAPTIX 1.x models (mjcf_legacy.c) is applied the same way everywhere.
 */
#ifndef HXD_LOADER_H
#define HXD_LOADER_H

#include <stddef.h>

struct daemon;

/*
 * Load the model file at path (already confined to the model
 * directories).  With legacy, an MJCF file first goes through the legacy
 * translation, and each change it makes is logged.  On failure the old
 * model stays and err holds MuJoCo's message.
 */
int loader_load_file(
    struct daemon *d, const char *path, int legacy, char *err, size_t len);

/* Return 1 if path names an MJB file (no XML to translate or check). */
int loader_is_mjb(const char *path);

/* Reload the current model's file, translated as it was loaded. */
int loader_reload(struct daemon *d, char *err, size_t len);

#endif
