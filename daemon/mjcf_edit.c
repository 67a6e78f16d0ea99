/* Edits of an MJCF tree: see mjcf_edit.h. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "mjcf.h"
#include "mjcf_attach.h"
#include "mjcf_edit.h"

/* Names that removals took away, by what they name. */
struct edit_gone {
	char **category, **name;
	size_t n, cap;
};

/* The sections whose elements refer to others by name. */
static const char *const edit_referring[] = { "actuator", "sensor", "equality",
	"tendon", "contact" };

/* What an attribute refers to: the category of the name it holds. */
static const struct {
	const char *attr, *category;
} edit_refs[] = {
	{ "joint", "joint" }, { "jointinparent", "joint" },
	{ "joint1", "joint" }, { "joint2", "joint" }, { "body", "body" },
	{ "body1", "body" }, { "body2", "body" }, { "geom", "geom" },
	{ "geom1", "geom" }, { "geom2", "geom" }, { "site", "site" },
	{ "cranksite", "site" }, { "slidersite", "site" },
	{ "refsite", "site" }, { "tendon", "tendon" }, { "tendon1", "tendon" },
	{ "tendon2", "tendon" }, { "actuator", "actuator" },
	{ "objname", NULL }, /* a sensor's object: any category */
};

static int edit_fail(char *, size_t, size_t, const struct mjcf_edit_op *,
    const char *, ...) __attribute__((format(printf, 5, 6)));

void
mjcf_edit_describe(
    const struct mjcf_edit_op *op, size_t i, char *buf, size_t len)
{
	static const char *const kinds[] = { "add", "remove", "set", "unset",
		"attach" };

	if (op->kind != MJCF_EDIT_ATTACH &&
	    (op->name == NULL || op->name[0] == '\0') &&
	    op->parent_type != NULL && strcmp(op->parent_type, "default") == 0)
		snprintf(buf, len,
		    "operation %zu (%s %s in default class \"%s\")", i + 1,
		    (unsigned)op->kind < 5 ? kinds[op->kind] : "?",
		    op->type != NULL ? op->type : "",
		    op->parent_name != NULL ? op->parent_name : "");
	else
		snprintf(buf, len, "operation %zu (%s %s \"%s\"%s%s)", i + 1,
		    (unsigned)op->kind < 5 ? kinds[op->kind] : "?",
		    op->type != NULL ? op->type : "",
		    op->name != NULL ? op->name : "",
		    op->kind == MJCF_EDIT_ATTACH ? " from " : "",
		    op->kind != MJCF_EDIT_ATTACH ? "" :
			op->source_label != NULL ? op->source_label :
						   "this model");
}

/* Say which operation failed and why; returns -1. */
static int
edit_fail(char *err, size_t len, size_t i, const struct mjcf_edit_op *op,
    const char *fmt, ...)
{
	char what[512], why[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	mjcf_edit_describe(op, i, what, sizeof(what));
	snprintf(err, len, "%s: %s", what, why);
	return -1;
}

/* The category a named element's name lives in, or NULL. */
static const char *
edit_category(const char *type)
{
	static const char *const actuators[] = { "motor", "position",
		"velocity", "general", "cylinder", "muscle", "adhesion",
		"intvelocity", "damper" };
	size_t i;

	if (strcmp(type, "freejoint") == 0 || strcmp(type, "joint") == 0)
		return "joint";
	if (strcmp(type, "spatial") == 0 || strcmp(type, "fixed") == 0)
		return "tendon";
	for (i = 0; i < sizeof(actuators) / sizeof(actuators[0]); i++)
		if (strcmp(type, actuators[i]) == 0)
			return "actuator";
	if (strcmp(type, "body") == 0 || strcmp(type, "geom") == 0 ||
	    strcmp(type, "site") == 0)
		return type;
	return NULL;
}

/* The attribute that names an element of type: a default's is "class". */
static const char *
edit_name_attr(const char *type)
{
	return strcmp(type, "default") == 0 ? "class" : "name";
}

/*
 * The element of type named name, or NULL; name "" finds the first.
 * A default class is found by its class; "" and "main" find the
 * top-level default, the class every element is in unless told.
 */
static struct mjcf_node *
edit_find(struct mjcf_doc *doc, const char *type, const char *name)
{
	struct mjcf_node *root = mjcf_root(doc), *n;
	const char *v;

	if (strcmp(type, "mujoco") == 0)
		return root;
	if (strcmp(type, "default") == 0 &&
	    (name == NULL || *name == '\0' || strcmp(name, "main") == 0))
		return mjcf_first_child(root, "default");
	for (n = mjcf_walk(root, root); n != NULL; n = mjcf_walk(root, n)) {
		if (strcmp(n->name, type) != 0)
			continue;
		v = mjcf_attr_get(n, edit_name_attr(type));
		if ((name == NULL || *name == '\0') ?
			1 :
			(v != NULL && strcmp(v, name) == 0))
			return n;
	}
	return NULL;
}

/* Remember that a name of category went. */
static void
edit_gone_add(struct edit_gone *g, const char *category, const char *name)
{
	if (g->n == g->cap) {
		g->cap = g->cap == 0 ? 16 : 2 * g->cap;
		g->category = realloc(g->category, g->cap * sizeof(char *));
		g->name = realloc(g->name, g->cap * sizeof(char *));
		if (g->category == NULL || g->name == NULL)
			fatal("out of memory");
	}
	if ((g->category[g->n] = strdup(category)) == NULL ||
	    (g->name[g->n] = strdup(name)) == NULL)
		fatal("out of memory");
	g->n++;
}

/* Return 1 if a name of category (NULL: any) went. */
static int
edit_gone_has(const struct edit_gone *g, const char *category, const char *name)
{
	size_t i;

	for (i = 0; i < g->n; i++)
		if ((category == NULL ||
			strcmp(g->category[i], category) == 0) &&
		    strcmp(g->name[i], name) == 0)
			return 1;
	return 0;
}

/* Append "type name\n" to what was removed. */
static void
edit_removed_add(
    struct mjcf_edit_removed *r, const char *type, const char *name)
{
	/* "type name\n" and its NUL; an unnamed element is "type -". */
	size_t more = strlen(type) + (name[0] ? strlen(name) : 1) + 3;
	char *t;

	if ((t = realloc(r->text, r->len + more)) == NULL)
		fatal("out of memory");
	r->text = t;
	r->len += (size_t)snprintf(
	    r->text + r->len, more, "%s %s\n", type, name[0] ? name : "-");
}

/*
 * Delete n and everything below it, remembering the names that go and
 * telling removed of n itself.
 */
static void
edit_delete(struct mjcf_doc *doc, struct mjcf_node *n, struct edit_gone *g,
    struct mjcf_edit_removed *removed)
{
	struct mjcf_node *k;
	const char *cat, *v;

	for (k = n; k != NULL; k = mjcf_walk(n, k)) {
		if ((v = mjcf_attr_get(k, "name")) != NULL &&
		    (cat = edit_category(k->name)) != NULL)
			edit_gone_add(g, cat, v);
	}
	v = mjcf_attr_get(n, "name");
	edit_removed_add(removed, n->name, v != NULL ? v : "");
	mjcf_node_delete(doc, n);
}

/* Return 1 if n or anything below it refers to a name that went. */
static int
edit_refers(const struct mjcf_node *n, const struct edit_gone *g)
{
	const struct mjcf_node *k;
	const char *v;
	size_t i;

	for (k = n; k != NULL; k = mjcf_walk(n, k))
		for (i = 0; i < sizeof(edit_refs) / sizeof(edit_refs[0]); i++)
			if ((v = mjcf_attr_get(k, edit_refs[i].attr)) != NULL &&
			    edit_gone_has(g, edit_refs[i].category, v))
				return 1;
	return 0;
}

/*
 * Remove what refers to names that went: actuators, sensors,
 * equalities, tendons, contact pairs and excludes, as mjSpec's delete
 * does; a tendon that goes takes what refers to it too.
 */
static void
edit_remove_referrers(struct mjcf_doc *doc, struct edit_gone *g,
    struct mjcf_edit_removed *removed)
{
	struct mjcf_node *root = mjcf_root(doc), *sec, *n, *next;
	size_t i;
	int again = 1;

	while (again) {
		again = 0;
		for (i = 0;
		     i < sizeof(edit_referring) / sizeof(edit_referring[0]);
		     i++) {
			for (sec = mjcf_first_child(root, edit_referring[i]);
			     sec != NULL;
			     sec = mjcf_next_sibling(sec, edit_referring[i])) {
				for (n = mjcf_first_child(sec, NULL); n != NULL;
				     n = next) {
					next = mjcf_next_sibling(n, NULL);
					if (!edit_refers(n, g))
						continue;
					edit_delete(doc, n, g, removed);
					again = 1;
				}
			}
		}
	}
}

/* The parent an add names; a missing section is made under the root. */
static struct mjcf_node *
edit_parent(struct mjcf_doc *doc, const struct mjcf_edit_op *op)
{
	static const char *const sections[] = { "worldbody", "asset",
		"actuator", "sensor", "equality", "tendon", "contact",
		"keyframe", "default" };
	struct mjcf_node *p;
	size_t i;

	/*
	 * A section is the root's child: a default class holds elements
	 * of a section's name too (<equality>, <tendon>), found first.
	 */
	if (op->parent_name == NULL || *op->parent_name == '\0')
		for (i = 0; i < sizeof(sections) / sizeof(sections[0]); i++) {
			if (strcmp(op->parent_type, sections[i]) != 0)
				continue;
			p = mjcf_first_child(mjcf_root(doc), sections[i]);
			return p != NULL ?
			    p :
			    mjcf_node_add(doc, mjcf_root(doc), sections[i]);
		}
	return edit_find(doc, op->parent_type, op->parent_name);
}

/*
 * The settings of one element type in a default class: the element of
 * op's type directly in the class op's parent names, made when a set
 * finds none.
 */
static struct mjcf_node *
edit_class_settings(struct mjcf_doc *doc, const struct mjcf_edit_op *op)
{
	struct mjcf_node *cls, *n;

	if ((cls = edit_find(doc, "default", op->parent_name)) == NULL)
		return NULL;
	if ((n = mjcf_first_child(cls, op->type)) == NULL &&
	    op->kind == MJCF_EDIT_SET)
		n = mjcf_node_add(doc, cls, op->type);
	return n;
}

/*
 * The first element that still uses a default class of the subtree at
 * n (by class or childclass), outside it; NULL when none does.
 */
static const struct mjcf_node *
edit_class_user(
    struct mjcf_doc *doc, const struct mjcf_node *n, const char **cls)
{
	static const char *const uses[] = { "class", "childclass" };
	const struct mjcf_node *root = mjcf_root(doc), *k, *u, *up;
	const char *v;
	size_t i;

	for (k = n; k != NULL; k = mjcf_walk(n, k)) {
		if (strcmp(k->name, "default") != 0 ||
		    (*cls = mjcf_attr_get(k, "class")) == NULL)
			continue;
		for (u = mjcf_walk(root, root); u != NULL;
		     u = mjcf_walk(root, u)) {
			for (up = u; up != NULL && up != n; up = up->parent)
				;
			if (up == n)
				continue;
			for (i = 0; i < 2; i++)
				if ((v = mjcf_attr_get(u, uses[i])) != NULL &&
				    strcmp(v, *cls) == 0)
					return u;
		}
	}
	return NULL;
}

/* Set op's attributes on n. */
static int
edit_attrs(struct mjcf_node *n, const struct mjcf_edit_op *op, size_t i,
    char *err, size_t len)
{
	size_t k;

	for (k = 0; k < op->nattrs; k++) {
		if (strcmp(op->attr_names[k], "name") == 0 &&
		    op->kind == MJCF_EDIT_SET)
			return edit_fail(err, len, i, op,
			    "a name is set by removing and adding");
		if (mjcf_attr_set(n, op->attr_names[k], op->attr_values[k]) !=
		    0)
			return edit_fail(err, len, i, op,
			    "'%s' is not an attribute name, or its value "
			    "cannot be written",
			    op->attr_names[k]);
	}
	return 0;
}

/* Apply one operation. */
static int
edit_one(struct mjcf_doc *doc, const struct mjcf_edit_op *op, size_t i,
    struct edit_gone *g, struct mjcf_edit_removed *removed, char *err,
    size_t len)
{
	const struct mjcf_node *u;
	struct mjcf_node *n, *p;
	const char *cls, *pn;
	char why[1024];
	size_t k;

	if (op->type == NULL || op->type[0] == '\0')
		return edit_fail(err, len, i, op, "no element type");
	switch (op->kind) {
	case MJCF_EDIT_ATTACH:
		if (mjcf_attach(doc, op, why, sizeof(why)) != 0)
			return edit_fail(err, len, i, op, "%s", why);
		return 0;
	case MJCF_EDIT_ADD:
		if (op->parent_type == NULL || op->parent_type[0] == '\0')
			return edit_fail(err, len, i, op, "no parent given");
		if ((p = edit_parent(doc, op)) == NULL)
			return edit_fail(err, len, i, op,
			    "the model has no %s named \"%s\"", op->parent_type,
			    op->parent_name != NULL ? op->parent_name : "");
		if (op->name != NULL && op->name[0] != '\0' &&
		    edit_find(doc, op->type, op->name) != NULL)
			return edit_fail(err, len, i, op,
			    "the model has a %s named \"%s\" already", op->type,
			    op->name);
		if ((n = mjcf_node_add(doc, p, op->type)) == NULL)
			return edit_fail(err, len, i, op,
			    "'%s' is not an element name, or the model would "
			    "be too large",
			    op->type);
		if (op->name != NULL && op->name[0] != '\0' &&
		    mjcf_attr_set(n, edit_name_attr(op->type), op->name) != 0)
			return edit_fail(err, len, i, op, "a bad name");
		return edit_attrs(n, op, i, err, len);
	case MJCF_EDIT_REMOVE:
	case MJCF_EDIT_SET:
	case MJCF_EDIT_UNSET:
		if (op->kind != MJCF_EDIT_REMOVE && op->parent_type != NULL &&
		    strcmp(op->parent_type, "default") == 0) {
			/* A default class's settings for an element type. */
			pn = op->parent_name != NULL ? op->parent_name : "";
			if (edit_find(doc, "default", pn) == NULL &&
			    (pn[0] == '\0' || strcmp(pn, "main") == 0) &&
			    op->kind == MJCF_EDIT_SET)
				mjcf_node_add(doc, mjcf_root(doc), "default");
			if (edit_find(doc, "default", pn) == NULL)
				return edit_fail(err, len, i, op,
				    "the model has no default class \"%s\"",
				    pn);
			if ((n = edit_class_settings(doc, op)) == NULL)
				return edit_fail(err, len, i, op,
				    "the default class \"%s\" has no %s "
				    "settings",
				    pn, op->type);
		} else if (op->name == NULL || op->name[0] == '\0')
			return edit_fail(err, len, i, op, "no element name");
		else if ((n = edit_find(doc, op->type, op->name)) == NULL)
			return edit_fail(err, len, i, op,
			    "the model has no %s named \"%s\"", op->type,
			    op->name);
		if (op->kind == MJCF_EDIT_SET)
			return edit_attrs(n, op, i, err, len);
		if (op->kind == MJCF_EDIT_UNSET) {
			for (k = 0; k < op->nattrs; k++)
				if (strcmp(op->attr_names[k], "name") == 0 ||
				    mjcf_attr_remove(n, op->attr_names[k]) != 0)
					return edit_fail(err, len, i, op,
					    "it has no attribute '%s' to unset",
					    op->attr_names[k]);
			return 0;
		}
		if (n == mjcf_root(doc) || strcmp(n->name, "worldbody") == 0)
			return edit_fail(err, len, i, op, "cannot be removed");
		if ((u = edit_class_user(doc, n, &cls)) != NULL)
			return edit_fail(err, len, i, op,
			    "the default class \"%s\" is used by %s \"%s\"",
			    cls, u->name,
			    mjcf_attr_get(u, "name") != NULL ?
				mjcf_attr_get(u, "name") :
				"");
		edit_delete(doc, n, g, removed);
		edit_remove_referrers(doc, g, removed);
		return 0;
	}
	return edit_fail(err, len, i, op, "unknown operation");
}

int
mjcf_edit_apply(struct mjcf_doc *doc, const struct mjcf_edit_op *ops, size_t n,
    struct mjcf_edit_removed *removed, char *err, size_t errlen)
{
	struct edit_gone g = { 0 };
	size_t i;
	int rc = 0;

	for (i = 0; i < n && rc == 0; i++)
		rc = edit_one(doc, &ops[i], i, &g, removed, err, errlen);
	for (i = 0; i < g.n; i++) {
		free(g.category[i]);
		free(g.name[i]);
	}
	free(g.category);
	free(g.name);
	return rc;
}
