/*
 * The model directories: the only places a client may name a model file
 * in.  Paths are resolved with symlinks followed before they are checked.
 */
#ifndef HXD_MODELDIR_H
#define HXD_MODELDIR_H

#include <stddef.h>

/* Resolve and remember the directories; exits if none exists. */
void modeldir_init(const char *const *dirs, int n);

/*
 * Resolve a path a client sent: relative to each directory in turn, or
 * absolute.  Returns 0 with the real path in out, RESULT_DENIED when it
 * leads outside every directory, RESULT_LOADFAILED when it does not
 * exist; err says which.
 */
int modeldir_resolve(
    const char *path, char *out, size_t len, char *err, size_t errlen);

/*
 * Find the file a command-line --model names: an absolute path or a file
 * relative to the current directory as given, else in the model dirs.
 */
int modeldir_find(const char *name, char *out, size_t len);

/*
 * Return 1 if the file at path lies inside a model directory: its real
 * path when it exists, else the real path of the deepest directory on
 * its way that exists and the rest with "." and ".." taken out, so that a
 * missing file outside, or behind a symlink that leads out, is refused
 * like one that is there.
 */
int modeldir_contains(const char *path);

/*
 * Add a client's directory dir (an absolute path) for the user uid, as
 * the setting user-model-dirs allows: it must be a directory that uid
 * owns, that neither its group nor others may write to, on a path where
 * no one else may replace it, and not one already there; it is tried
 * after the others.  Returns 0 with its real path in out, or a result
 * code with err saying why.  The directories of the settings replace it
 * at the next modeldir_init().
 */
int modeldir_add(
    const char *dir, long uid, char *out, size_t len, char *err, size_t errlen);

/* The number of directories, and directory i (0 first) as a real path. */
int modeldir_count(void);
const char *modeldir_get(int i);

/* The directories, joined by ", ", for messages. */
const char *modeldir_list(void);

#endif
