/*
 * MJCF documents as an element tree: parsed with expat or as MuJoCo reads
 * them, edited in memory, written back as XML.  Plain XML, nothing of
 * MuJoCo: the tree keeps elements, their attributes in order and their
 * character data; comments, processing instructions and whitespace
 * between elements are dropped.
 *
 * Hostile input is refused, never followed: expat refuses a DOCTYPE (and
 * with it any entity declaration or external DTD), the lenient parser
 * skips one as MuJoCo does, no entity is ever declared or loaded, and the
 * input size, the nesting depth and the number of elements are bounded.
 * Parsing, walking, writing and freeing a tree use no recursion.  Memory
 * exhaustion is fatal, as everywhere in the daemon.
 */
#ifndef HXD_MJCF_H
#define HXD_MJCF_H

#include <sys/queue.h>
#include <stddef.h>

/* Limits on what mjcf_parse_*() accept and what the editing calls build. */
#define MJCF_MAX_DEPTH 256          /* elements nested, the root is 1 */
#define MJCF_MAX_NODES 1000000      /* elements in one document */
#define MJCF_MAX_BYTES (256u << 20) /* bytes of XML input */

struct mjcf_attr {
	char *name;
	char *value;
};

struct mjcf_node {
	char *name;              /* element name */
	struct mjcf_attr *attrs; /* in document order */
	size_t nattrs;
	char *text;         /* character data inside the element, or NULL */
	const char *file;   /* file it was parsed from; NULL if created */
	unsigned long line; /* line of its start tag; 0 if created */
	struct mjcf_node *parent; /* NULL for the root */
	TAILQ_HEAD(mjcf_nodes, mjcf_node) children;
	TAILQ_ENTRY(mjcf_node) entry;
	size_t attrcap; /* private: room in attrs */
};

struct mjcf_doc;

/*
 * Documents
 */

/*
 * Parse an XML file.  Returns the document (free with mjcf_free), or NULL
 * with err saying why: "path: line L, column C: problem".
 */
struct mjcf_doc *mjcf_parse_file(const char *path, char *err, size_t errlen);

/*
 * Parse XML from memory; name (NULL: "inline") stands for the file in
 * messages and nodes.
 */
struct mjcf_doc *mjcf_parse_buffer(
    const void *buf, size_t len, const char *name, char *err, size_t errlen);

/*
 * Parse as MuJoCo 2.2 reads a model (TinyXML-2; mjcf_lenient.c): what
 * MuJoCo accepts and expat refuses is read as MuJoCo reads it, such as
 * attributes with no whitespace between them (pos="0"condim="4"), "--"
 * in a comment, bytes that are not UTF-8, an entity it does not know
 * (kept, not expanded), a DOCTYPE (skipped, its entities never declared)
 * or anything after the root element (ignored).  Every attribute value
 * is the bytes MuJoCo gets, so that the file names a model gives are the
 * files MuJoCo opens.  The limits are the same; errors as above.
 */
struct mjcf_doc *mjcf_parse_file_lenient(
    const char *path, char *err, size_t errlen);
struct mjcf_doc *mjcf_parse_buffer_lenient(
    const void *buf, size_t len, const char *name, char *err, size_t errlen);

/* Make a document of one empty root element; NULL if name is not a name. */
struct mjcf_doc *mjcf_create(const char *root_name);

/* Free a document and all its nodes; NULL is fine. */
void mjcf_free(struct mjcf_doc *doc);

/* The root element, which is never deleted. */
struct mjcf_node *mjcf_root(const struct mjcf_doc *doc);

/* The file name given when parsing ("" for mjcf_create). */
const char *mjcf_path(const struct mjcf_doc *doc);

/* The number of elements in the document. */
size_t mjcf_node_count(const struct mjcf_doc *doc);

/*
 * Write the document as XML (UTF-8, no declaration, two-space indents,
 * attribute values and text escaped) into a malloc'd, NUL-terminated buffer
 * that the caller frees; *len excludes the NUL.  Returns 0.
 */
int mjcf_write(const struct mjcf_doc *doc, char **buf, size_t *len);

/*
 * Like mjcf_write, but every element parsed from the document's own file
 * starts on the line it started on there, and the others follow on the
 * line before them (no indentation then), so that what a parser of the
 * output says about a line is true of the original file.
 */
int mjcf_write_lines(const struct mjcf_doc *doc, char **buf, size_t *len);

/*
 * Attributes
 */

/* The value of attribute name, or NULL if the element has none. */
const char *mjcf_attr_get(const struct mjcf_node *n, const char *name);

/*
 * Set attribute name to value: in place if it exists, else appended.
 * Returns 0, or -1 if name is not an XML name or value holds a control
 * character XML cannot carry.
 */
int mjcf_attr_set(struct mjcf_node *n, const char *name, const char *value);

/* Remove attribute name.  Returns 0, or -1 if the element has none. */
int mjcf_attr_remove(struct mjcf_node *n, const char *name);

/*
 * Navigation.  name NULL matches any element.
 */

/* The first child element called name, or NULL. */
struct mjcf_node *mjcf_first_child(const struct mjcf_node *n, const char *name);

/* The next sibling element called name, or NULL. */
struct mjcf_node *mjcf_next_sibling(
    const struct mjcf_node *n, const char *name);

/*
 * The element after n in document order within top's subtree, or NULL
 * after the last; mjcf_walk(top, top) is the first below top.
 */
struct mjcf_node *mjcf_walk(
    const struct mjcf_node *top, const struct mjcf_node *n);

/* The depth of n: 1 for the root. */
int mjcf_depth(const struct mjcf_node *n);

/*
 * Editing
 */

/*
 * Append a new empty element called name to parent's children.  Returns
 * it, or NULL if name is not an XML name or a limit would be passed.
 */
struct mjcf_node *mjcf_node_add(
    struct mjcf_doc *doc, struct mjcf_node *parent, const char *name);

/* Unlink n (not the root) from doc and free it with everything below. */
void mjcf_node_delete(struct mjcf_doc *doc, struct mjcf_node *n);

/*
 * Set an element's text (NULL: none).  Returns 0, or -1 if it holds a
 * control character XML cannot carry.
 */
int mjcf_node_set_text(struct mjcf_node *n, const char *text);

/*
 * Put the children of from's root where n (not the root) is, and delete n:
 * the way <include> works.  from is consumed, even on failure; its nodes
 * keep their file and line.  Returns 0 with *first set to the first moved
 * element (NULL if there was none), or -1 with err saying which limit the
 * result would pass (doc unchanged).
 */
int mjcf_node_replace(struct mjcf_doc *doc, struct mjcf_node *n,
    struct mjcf_doc *from, struct mjcf_node **first, char *err, size_t errlen);

/*
 * Replace every <include> of doc by the children of the file it names,
 * as MuJoCo 2.2 does (mjcf_include.c): names resolve against dir, the
 * main model's directory ("" or NULL: the current one); each file once;
 * files are read as MuJoCo reads them (lenient).  Returns 0, or -1 with
 * err saying which include failed and why.
 */
int mjcf_include_all(
    struct mjcf_doc *doc, const char *dir, char *err, size_t errlen);

/*
 * A reader of the files MuJoCo takes from memory (its VFS) rather than
 * the disk: the bytes of the file name (as resolved against the model's
 * directory) into *data and *len, and 1; or 0 when it has none.
 */
typedef int (*mjcf_vfs_fn)(
    void *arg, const char *name, const void **data, size_t *len);

/*
 * mjcf_include_all(), reading the files vfs (with arg) has from it, as
 * MuJoCo's parser reads them from its VFS; the others from the disk.
 * vfs NULL: all from the disk.
 */
int mjcf_include_all_vfs(struct mjcf_doc *doc, const char *dir, mjcf_vfs_fn vfs,
    void *arg, char *err, size_t errlen);

#endif
