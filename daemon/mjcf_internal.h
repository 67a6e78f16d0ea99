/*
 * The MJCF tree's insides, shared by its parsers only (mjcf.c with expat,
 * mjcf_lenient.c as MuJoCo reads): a document and how nodes are made.
 */
#ifndef HXD_MJCF_INTERNAL_H
#define HXD_MJCF_INTERNAL_H

#include <stddef.h>

#include "mjcf.h"

struct mjcf_doc {
	struct mjcf_node *root;
	size_t nnodes;
	char *path;
	char **files; /* every file a node came from; nodes point here */
	size_t nfiles;
};

/* malloc, or exit: memory exhaustion is fatal in the daemon. */
void *mjcf_alloc(size_t n);

/*
 * Return 1 if a document of len bytes (name: its name for the error,
 * NULL for "inline") may be parsed, else 0 with err saying why.
 */
int mjcf_size_ok(const char *name, size_t len, char *err, size_t errlen);

/* An empty document that remembers path as its first file. */
struct mjcf_doc *mjcf_doc_new(const char *path);

/* A new element, not linked anywhere. */
struct mjcf_node *mjcf_node_new(const char *name);

/*
 * Free n, unlinked from any parent, and everything below it.  Returns the
 * elements freed.
 */
size_t mjcf_subtree_free(struct mjcf_node *n);

/* Append an attribute without checks (the parser checked it). */
void mjcf_attr_append(struct mjcf_node *n, const char *name, const char *value);

/*
 * Keep the text gathered for n (len bytes of buf), unless it is all
 * whitespace; beside child elements, whitespace around it is only layout.
 */
void mjcf_text_keep(struct mjcf_node *n, const char *buf, size_t len);

#endif
