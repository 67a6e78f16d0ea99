/*
 * One operation of an edit transaction on an MJCF tree, as mjcf_edit.c
 * applies it and mjcf_attach.c attaches a subtree for it: a type both
 * share, below both.
 */
#ifndef HXD_MJCF_OP_H
#define HXD_MJCF_OP_H

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

#endif
