/*
 * Legacy MJCF: make MuJoCo HAPTIX 1.x-era models load under MuJoCo 2.2.2
 * by rewriting what 1.x accepted and 2.2.2 refuses, and nothing else:
 *
 *  - asset file names that differ only in letter case from the file on
 *    disk (models written on Windows): the `file` of <include>, <mesh>,
 *    <hfield>, <skin>, the `file*` attributes of <texture>, and the
 *    compiler's meshdir and texturedir, when the name does not exist as
 *    written and exactly one name in its directory matches it ignoring case;
 *  - `range` on a joint or tendon, `ctrlrange` or `forcerange` on an
 *    actuator, with no `limited`, `ctrllimited` or `forcelimited` from the
 *    element or its default classes: 1.x meant "not limited", so
 *    limited="false" (resp. ctrllimited, forcelimited) is added.  Nothing is
 *    added when the compiler sets autolimits="true".
 *
 * <include> elements are replaced by the children of the files they name
 * (translated with the rest), so the result is one self-contained document
 * that MuJoCo can read from a VFS under the model's original file name.
 * Every change is one line in a log, for the loader to pass on.
 */
#ifndef HXD_MJCF_LEGACY_H
#define HXD_MJCF_LEGACY_H

#include <stddef.h>

struct mjcf_doc;
struct mjcf_legacy_log;

/* Make an empty log of changes. */
struct mjcf_legacy_log *mjcf_legacy_log_create(void);

/* Free a log; NULL is fine. */
void mjcf_legacy_log_free(struct mjcf_legacy_log *log);

/* The number of changes logged (0 for a NULL log). */
size_t mjcf_legacy_log_count(const struct mjcf_legacy_log *log);

/*
 * Change i, as one line: where, which element, what changed, e.g.
 * `line 42: joint "index_PIP": range without limited: added
 * limited="false" (MuJoCo 1.x meaning)`.  NULL if i is out of range.
 */
const char *mjcf_legacy_log_line(const struct mjcf_legacy_log *log, size_t i);

/*
 * Translate doc in place.  model_dir is the directory of the model file,
 * which MuJoCo resolves assets and includes against (NULL or "": the
 * current directory).  log may be NULL.  A document whose root is not
 * <mujoco> (URDF) is left alone.  Returns 0, or -1 with err saying why
 * (an include that cannot be read or parsed, or would pass mjcf.h's
 * limits); doc may then be partly translated.
 */
int mjcf_legacy_translate(struct mjcf_doc *doc, const char *model_dir,
    struct mjcf_legacy_log *log, char *err, size_t errlen);

/*
 * The loader's pipeline: parse the model file at path, translate it and
 * write it with mjcf_write_lines (so MuJoCo's messages cite the lines of
 * path) into a malloc'd, NUL-terminated buffer the caller frees (*len
 * without the NUL).  Give it to mj_loadXML through a VFS under path
 * itself, so that MuJoCo resolves assets against path's directory.
 * Returns 0, or -1 with err saying why.
 */
int mjcf_legacy_file(const char *path, char **xml, size_t *len,
    struct mjcf_legacy_log *log, char *err, size_t errlen);

#endif
