/*
 * Edits of an MJCF tree, as a client's edit transaction names them: add
 * an element under a parent, remove one (and what refers to it), set or
 * unset its attributes, attach a body's subtree from another tree
 * (mjcf_attach.c).  Elements are found by their element name (the
 * type: "body", "geom", "motor", ...) and their name attribute.  Plain
 * tree work: the compile that follows (in the loader) is MuJoCo's.
 */
#ifndef HXD_MJCF_EDIT_H
#define HXD_MJCF_EDIT_H

#include <stddef.h>

#include "mjcf_op.h"

struct mjcf_doc;

/* Elements an edit removed, as "type name" lines, for the answer. */
struct mjcf_edit_removed {
	char *text; /* malloc'd, NUL-terminated; NULL when none */
	size_t len;
};

/*
 * Write what operation i is into buf: "operation 2 (attach body
 * \"forearm\" from mpl_hand.xml)", for messages.
 */
void mjcf_edit_describe(
    const struct mjcf_edit_op *op, size_t i, char *buf, size_t len);

/*
 * Apply ops[0..n) to doc in order.  Returns 0, or -1 with err naming the
 * failing operation ("operation 3 (set geom \"box\"): ...") and doc
 * partly edited (the caller throws it away).  What remove took away,
 * the elements that referred to it included, is added to *removed.
 */
int mjcf_edit_apply(struct mjcf_doc *doc, const struct mjcf_edit_op *ops,
    size_t n, struct mjcf_edit_removed *removed, char *err, size_t errlen);

#endif
