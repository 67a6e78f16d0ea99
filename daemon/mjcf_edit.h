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

struct mjcf_doc;

enum mjcf_edit_kind {
	MJCF_EDIT_ADD,
	MJCF_EDIT_REMOVE,
	MJCF_EDIT_SET,
	MJCF_EDIT_UNSET,
	MJCF_EDIT_ATTACH,
};

/* One operation; strings are the caller's. */
struct mjcf_edit_op {
	enum mjcf_edit_kind kind;
	const char *type; /* the element's name: "body", "geom", ... */
	const char *name; /* its name attribute (add: the new one's, or "") */
	const char *parent_type; /* add: "worldbody" or an element type */
	const char *parent_name; /* add: its name ("" for worldbody, ...) */
	const char *const *attr_names;  /* add, set; unset: the names */
	const char *const *attr_values; /* add, set */
	size_t nattrs;
	/*
	 * attach: type and name are what is taken from source ("body" and
	 * its name, or "worldbody" for all it holds; NULL source: the tree
	 * edited itself), whose files resolve in source_dir (absolute);
	 * source_label names it in messages.
	 */
	const struct mjcf_doc *source;
	const char *source_dir;
	const char *source_label;
	const char *prefix, *suffix; /* NULL: "" */
};

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
