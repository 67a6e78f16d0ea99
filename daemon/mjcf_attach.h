/*
 * Attach: a body's subtree, from another MJCF tree or from the tree
 * itself, put under a body or a site of the tree (issue 18's attach, as
 * mjSpec's attach does it).  Every name in it and in what comes with it
 * becomes prefix + name + suffix; with it come, renamed, the assets it
 * uses (their files made absolute paths resolved as the source resolves
 * them), its default classes, and the source's actuators, sensors,
 * equalities, tendons and contact pairs and excludes that refer only to
 * what is attached.  Plain tree work: the compile that follows is
 * MuJoCo's, in the loader.
 */
#ifndef HXD_MJCF_ATTACH_H
#define HXD_MJCF_ATTACH_H

#include <stddef.h>

struct mjcf_doc;
struct mjcf_edit_op;

/*
 * Apply the attach op (MJCF_EDIT_ATTACH, see mjcf_op.h) to doc.
 * Returns 0, or -1 with why saying what is wrong (a name that would
 * collide, a compiler setting the source and the tree do not share, a
 * parent inside what is attached, ...) and doc partly edited (the
 * caller throws it away).
 */
int mjcf_attach(
    struct mjcf_doc *doc, const struct mjcf_edit_op *op, char *why, size_t len);

#endif
