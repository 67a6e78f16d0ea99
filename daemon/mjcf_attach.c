/* Attach a subtree of another MJCF tree: see mjcf_attach.h. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "mjcf.h"
#include "mjcf_attach.h"
#include "mjcf_op.h"
#include "quat.h"

/* Names, each with the kind of MuJoCo object it names ("joint", ...). */
struct attach_names {
	const char **cat; /* static strings */
	char **name;
	size_t n, cap;
};

/* Nodes, in the order they were chosen. */
struct attach_nodes {
	const struct mjcf_node **v;
	size_t n, cap;
};

/* One attach at work. */
struct attach {
	struct mjcf_doc *doc;       /* the tree edited */
	const struct mjcf_doc *src; /* the source: doc itself for this model */
	const struct mjcf_edit_op *op;
	const char *prefix, *suffix;
	struct attach_nodes roots;     /* taken from the source's worldbody */
	struct attach_nodes referrers; /* actuators, sensors, ... that come */
	struct attach_nodes assets;    /* assets that come */
	struct attach_nodes defaults;  /* the source's top-level <default>s */
	struct attach_names names;     /* the names of all that comes */
	struct attach_names classes;   /* the default classes that come */
	int wrap;      /* the source has defaults: its main comes as a class */
	int strippath; /* the source's compiler's */
	char meshdir[4096], texturedir[4096]; /* where its files are */
	char *why;
	size_t whylen;
};

/* The sections whose elements refer to others by name, in MuJoCo's order. */
static const char *const attach_referring[] = { "tendon", "equality", "contact",
	"actuator", "sensor" };

/* The actuator elements, which share one kind of default. */
static const char *const attach_actuators[] = { "general", "motor", "position",
	"velocity", "cylinder", "muscle", "adhesion", "intvelocity", "damper" };

/* What an attribute refers to: the category of the name it holds. */
static const struct {
	const char *attr, *category; /* NULL: by objtype or reftype */
	int asset;
} attach_refs[] = {
	{ "joint", "joint", 0 },
	{ "jointinparent", "joint", 0 },
	{ "joint1", "joint", 0 },
	{ "joint2", "joint", 0 },
	{ "body", "body", 0 },
	{ "body1", "body", 0 },
	{ "body2", "body", 0 },
	{ "target", "body", 0 },
	{ "geom", "geom", 0 },
	{ "geom1", "geom", 0 },
	{ "geom2", "geom", 0 },
	{ "site", "site", 0 },
	{ "cranksite", "site", 0 },
	{ "slidersite", "site", 0 },
	{ "sidesite", "site", 0 },
	{ "tendon", "tendon", 0 },
	{ "tendon1", "tendon", 0 },
	{ "tendon2", "tendon", 0 },
	{ "actuator", "actuator", 0 },
	{ "objname", NULL, 0 },
	{ "refname", NULL, 0 },
	{ "mesh", "mesh", 1 },
	{ "hfield", "hfield", 1 },
	{ "material", "material", 1 },
	{ "texture", "texture", 1 },
};

/*
 * The compiler settings that change what the elements attached mean;
 * the source and the tree must agree on them.  Unset is MuJoCo 2.2's
 * default.
 */
static const struct {
	const char *attr, *dflt;
	int numeric;
} attach_settings[] = {
	{ "angle", "degree", 0 },
	{ "eulerseq", "xyz", 0 },
	{ "coordinate", "local", 0 },
	{ "autolimits", "false", 0 },
	{ "inertiafromgeom", "auto", 0 },
	{ "boundmass", "0", 1 },
	{ "boundinertia", "0", 1 },
	{ "settotalmass", "-1", 1 },
	{ "balanceinertia", "false", 0 },
	{ "fitaabb", "false", 0 },
	{ "discardvisual", "false", 0 },
	{ "convexhull", "true", 0 },
	{ "fusestatic", "false", 0 },
	{ "inertiagrouprange", "0 5", 1 },
	{ "exactmeshinertia", "false", 0 },
};

/* The attributes of a texture that name files. */
static const char *const attach_file_attrs[] = { "file", "fileright",
	"fileleft", "fileup", "filedown", "filefront", "fileback" };

/* The attributes that give a frame's orientation, one at a time. */
static const char *const attach_orient[] = { "quat", "axisangle", "euler",
	"xyaxes", "zaxis" };

static int attach_fail(struct attach *, const char *, ...)
    __attribute__((format(printf, 2, 3)));
static void attach_main_name(const struct attach *, char *, size_t);

/* Say what is wrong; returns -1. */
static int
attach_fail(struct attach *a, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(a->why, a->whylen, fmt, ap);
	va_end(ap);
	return -1;
}

/* Return 1 if s is one of the n strings in v. */
static int
attach_among(const char *s, const char *const *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(s, v[i]) == 0)
			return 1;
	return 0;
}

#define ATTACH_AMONG(s, v) attach_among((s), (v), sizeof(v) / sizeof((v)[0]))

/* Remember name, of category cat (a static string). */
static void
attach_names_add(struct attach_names *s, const char *cat, const char *name)
{
	if (s->n == s->cap) {
		s->cap = s->cap == 0 ? 64 : 2 * s->cap;
		s->cat = realloc(s->cat, s->cap * sizeof(*s->cat));
		s->name = realloc(s->name, s->cap * sizeof(*s->name));
		if (s->cat == NULL || s->name == NULL)
			fatal("out of memory");
	}
	s->cat[s->n] = cat;
	if ((s->name[s->n++] = strdup(name)) == NULL)
		fatal("out of memory");
}

/* Return 1 if s holds name of category cat (NULL: of any). */
static int
attach_names_has(
    const struct attach_names *s, const char *cat, const char *name)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if ((cat == NULL || strcmp(s->cat[i], cat) == 0) &&
		    strcmp(s->name[i], name) == 0)
			return 1;
	return 0;
}

/* Free what s holds. */
static void
attach_names_clear(struct attach_names *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->name[i]);
	free(s->name);
	free(s->cat);
}

/* Remember n. */
static void
attach_nodes_add(struct attach_nodes *s, const struct mjcf_node *n)
{
	if (s->n == s->cap) {
		s->cap = s->cap == 0 ? 64 : 2 * s->cap;
		if ((s->v = realloc(s->v, s->cap * sizeof(*s->v))) == NULL)
			fatal("out of memory");
	}
	s->v[s->n++] = n;
}

/* Return 1 if s holds n. */
static int
attach_nodes_has(const struct attach_nodes *s, const struct mjcf_node *n)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->v[i] == n)
			return 1;
	return 0;
}

/* The top-level section n is in (n itself for a section), or NULL. */
static const struct mjcf_node *
attach_section(const struct mjcf_node *n)
{
	while (n->parent != NULL && n->parent->parent != NULL)
		n = n->parent;
	return n->parent != NULL ? n : NULL;
}

/*
 * The category of MuJoCo object an element is, which its name must be
 * unique within ("joint" for a freejoint, "equality" for a joint in
 * <equality>), or NULL for one that has no name of its own.
 */
static const char *
attach_category(const struct mjcf_node *n)
{
	static const char *const world[] = { "body", "geom", "site", "camera",
		"light" };
	static const char *const assets[] = { "mesh", "skin", "hfield",
		"texture", "material" };
	static const char *const sections[] = { "actuator", "sensor",
		"equality", "tendon" };
	static const char *const custom[] = { "numeric", "text", "tuple" };
	const struct mjcf_node *sec = attach_section(n);
	size_t i;

	if (sec == NULL || sec == n)
		return NULL;
	if (strcmp(sec->name, "worldbody") == 0) {
		if (strcmp(n->name, "joint") == 0 ||
		    strcmp(n->name, "freejoint") == 0)
			return "joint";
		for (i = 0; i < sizeof(world) / sizeof(world[0]); i++)
			if (strcmp(n->name, world[i]) == 0)
				return world[i];
		return NULL;
	}
	if (n->parent != sec) /* a tendon's path, a skin's bones */
		return NULL;
	for (i = 0; i < sizeof(sections) / sizeof(sections[0]); i++)
		if (strcmp(sec->name, sections[i]) == 0)
			return sections[i];
	if (strcmp(sec->name, "asset") == 0) {
		for (i = 0; i < sizeof(assets) / sizeof(assets[0]); i++)
			if (strcmp(n->name, assets[i]) == 0)
				return assets[i];
	} else if (strcmp(sec->name, "contact") == 0) {
		if (strcmp(n->name, "pair") == 0)
			return "pair";
		if (strcmp(n->name, "exclude") == 0)
			return "exclude";
	} else if (strcmp(sec->name, "keyframe") == 0)
		return "key";
	else if (strcmp(sec->name, "custom") == 0) {
		for (i = 0; i < sizeof(custom) / sizeof(custom[0]); i++)
			if (strcmp(n->name, custom[i]) == 0)
				return custom[i];
	}
	return NULL;
}

/*
 * An element's name: its name attribute, or for an asset read from a
 * file, the file's name without its directory and extension, as MuJoCo
 * names it (in buf).  NULL if it has none.
 */
static const char *
attach_name(const struct mjcf_node *n, char *buf, size_t len)
{
	const struct mjcf_node *sec = attach_section(n);
	const char *v, *slash;
	char *dot;

	if ((v = mjcf_attr_get(n, "name")) != NULL)
		return v;
	if (sec == NULL || attach_category(n) == NULL ||
	    strcmp(n->name, "material") == 0 ||
	    strcmp(sec->name, "asset") != 0 ||
	    (v = mjcf_attr_get(n, "file")) == NULL)
		return NULL;
	if ((slash = strrchr(v, '/')) != NULL)
		v = slash + 1;
	snprintf(buf, len, "%s", v);
	if ((dot = strrchr(buf, '.')) != NULL)
		*dot = '\0';
	return buf;
}

/* The category an object type (objtype=, reftype=) names, or NULL. */
static const char *
attach_objtype(const char *type)
{
	static const char *const types[] = { "body", "geom", "site", "camera",
		"joint", "tendon", "actuator", "light" };
	size_t i;

	if (type == NULL)
		return NULL;
	if (strcmp(type, "xbody") == 0)
		return "body";
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (strcmp(type, types[i]) == 0)
			return types[i];
	return NULL;
}

/* The row of attach_refs for attribute attr, or -1. */
static int
attach_ref(const char *attr)
{
	size_t i;

	for (i = 0; i < sizeof(attach_refs) / sizeof(attach_refs[0]); i++)
		if (strcmp(attr, attach_refs[i].attr) == 0)
			return (int)i;
	return -1;
}

/* The category reference row i of n holds (NULL: any). */
static const char *
attach_ref_category(const struct mjcf_node *n, int i)
{
	if (attach_refs[i].category != NULL)
		return attach_refs[i].category;
	return attach_objtype(mjcf_attr_get(n,
	    strcmp(attach_refs[i].attr, "objname") == 0 ? "objtype" :
							  "reftype"));
}

/* prefix + name + suffix, malloc'd. */
static char *
attach_renamed(const struct attach *a, const char *name)
{
	size_t len = strlen(a->prefix) + strlen(name) + strlen(a->suffix) + 1;
	char *r;

	if ((r = malloc(len)) == NULL)
		fatal("out of memory");
	snprintf(r, len, "%s%s%s", a->prefix, name, a->suffix);
	return r;
}

/* The value the last <compiler> of d gives attr, or NULL. */
static const char *
attach_compiler(const struct mjcf_doc *d, const char *attr)
{
	const struct mjcf_node *root = mjcf_root(d), *n;
	const char *v, *last = NULL;

	for (n = mjcf_walk(root, root); n != NULL; n = mjcf_walk(root, n))
		if (strcmp(n->name, "compiler") == 0 &&
		    (v = mjcf_attr_get(n, attr)) != NULL)
			last = v;
	return last;
}

/* Return 1 if two settings' numbers are the same. */
static int
attach_same_numbers(const char *x, const char *y)
{
	char *ex, *ey;
	double u, v;

	for (;;) {
		u = strtod(x, &ex);
		v = strtod(y, &ey);
		if (ex == x || ey == y)
			return (ex == x) == (ey == y);
		if (u != v)
			return 0;
		x = ex;
		y = ey;
	}
}

/*
 * Refuse a source whose compiler settings differ from the tree's where
 * that changes what its elements mean (angles in other units, other
 * Euler sequences, ...), and take where its files are.
 */
static int
attach_settings_check(struct attach *a, const char *source_dir)
{
	const char *s, *t, *v;
	size_t i;
	int same;

	for (i = 0; a->src != a->doc &&
	     i < sizeof(attach_settings) / sizeof(attach_settings[0]);
	     i++) {
		if ((s = attach_compiler(a->src, attach_settings[i].attr)) ==
		    NULL)
			s = attach_settings[i].dflt;
		if ((t = attach_compiler(a->doc, attach_settings[i].attr)) ==
		    NULL)
			t = attach_settings[i].dflt;
		same = attach_settings[i].numeric ? attach_same_numbers(s, t) :
						    strcmp(s, t) == 0;
		/* What compiles without autolimits compiles alike with it. */
		if (strcmp(attach_settings[i].attr, "autolimits") == 0 &&
		    strcmp(s, "false") == 0)
			same = 1;
		if (!same)
			return attach_fail(a,
			    "the source's compiler has %s=\"%s\" and this "
			    "model's %s=\"%s\": what is attached would not "
			    "compile as it does in the source (give the source "
			    "%s=\"%s\")",
			    attach_settings[i].attr, s, attach_settings[i].attr,
			    t, attach_settings[i].attr, t);
	}
	v = attach_compiler(a->src, "strippath");
	a->strippath = v != NULL && strcmp(v, "true") == 0;
	v = attach_compiler(a->src, "meshdir");
	snprintf(a->meshdir, sizeof(a->meshdir), "%s%s%s",
	    v != NULL && v[0] == '/' ? "" : source_dir,
	    v != NULL && v[0] != '/' && v[0] != '\0' ? "/" : "",
	    v != NULL ? v : "");
	v = attach_compiler(a->src, "texturedir");
	snprintf(a->texturedir, sizeof(a->texturedir), "%s%s%s",
	    v != NULL && v[0] == '/' ? "" : source_dir,
	    v != NULL && v[0] != '/' && v[0] != '\0' ? "/" : "",
	    v != NULL ? v : "");
	return 0;
}

/* The first element of d called type whose name is name, or NULL. */
static struct mjcf_node *
attach_find(const struct mjcf_doc *d, const char *type, const char *name)
{
	struct mjcf_node *root = mjcf_root(d), *n;
	const char *v;

	for (n = mjcf_walk(root, root); n != NULL; n = mjcf_walk(root, n))
		if (strcmp(n->name, type) == 0 &&
		    (v = mjcf_attr_get(n, "name")) != NULL &&
		    strcmp(v, name) == 0 && attach_category(n) != NULL)
			return n;
	return NULL;
}

/* What op takes from the source's worldbody: one body, or all it holds. */
static int
attach_roots(struct attach *a)
{
	const struct mjcf_node *root = mjcf_root(a->src), *w, *n;
	const char *name = a->op->name != NULL ? a->op->name : "";

	if (strcmp(a->op->type, "worldbody") == 0) {
		for (w = mjcf_first_child(root, "worldbody"); w != NULL;
		     w = mjcf_next_sibling(w, "worldbody"))
			for (n = mjcf_first_child(w, NULL); n != NULL;
			     n = mjcf_next_sibling(n, NULL))
				attach_nodes_add(&a->roots, n);
		if (a->roots.n == 0)
			return attach_fail(
			    a, "the source's worldbody is empty");
		return 0;
	}
	if (strcmp(a->op->type, "body") != 0)
		return attach_fail(a,
		    "attach takes a body, or \"worldbody\" for all the "
		    "worldbody holds");
	if (name[0] == '\0' || (n = attach_find(a->src, "body", name)) == NULL)
		return attach_fail(
		    a, "the source has no body named \"%s\"", name);
	attach_nodes_add(&a->roots, n);
	return 0;
}

/* Take the names of n and everything below it. */
static void
attach_take_names(struct attach *a, const struct mjcf_node *top)
{
	const struct mjcf_node *n;
	const char *cat, *name;
	char buf[1024];

	for (n = top; n != NULL; n = mjcf_walk(top, n))
		if ((cat = attach_category(n)) != NULL &&
		    (name = attach_name(n, buf, sizeof(buf))) != NULL)
			attach_names_add(&a->names, cat, name);
}

/*
 * Return 1 if n refers to objects (joints, bodies, ...) and all of them
 * come; the world body is in every model.
 */
static int
attach_refers_inside(const struct attach *a, const struct mjcf_node *n)
{
	const struct mjcf_node *k;
	size_t i;
	int r, count = 0;

	for (k = n; k != NULL; k = mjcf_walk(n, k))
		for (i = 0; i < k->nattrs; i++) {
			if ((r = attach_ref(k->attrs[i].name)) < 0 ||
			    attach_refs[r].asset)
				continue;
			if (strcmp(k->attrs[i].value, "world") == 0)
				continue;
			if (!attach_names_has(&a->names,
				attach_ref_category(k, r), k->attrs[i].value))
				return 0;
			count++;
		}
	return count > 0;
}

/*
 * Choose the actuators, sensors, equalities, tendons and contact pairs
 * and excludes that refer only to what comes, until no more do (an
 * actuator on a tendon that came, a sensor on that actuator).
 */
static void
attach_choose_referrers(struct attach *a)
{
	const struct mjcf_node *root = mjcf_root(a->src), *sec, *n;
	const char *cat, *name;
	int more = 1;

	while (more) {
		more = 0;
		for (sec = mjcf_first_child(root, NULL); sec != NULL;
		     sec = mjcf_next_sibling(sec, NULL)) {
			if (!ATTACH_AMONG(sec->name, attach_referring))
				continue;
			for (n = mjcf_first_child(sec, NULL); n != NULL;
			     n = mjcf_next_sibling(n, NULL)) {
				if (attach_nodes_has(&a->referrers, n) ||
				    !attach_refers_inside(a, n))
					continue;
				attach_nodes_add(&a->referrers, n);
				if ((cat = attach_category(n)) != NULL &&
				    (name = mjcf_attr_get(n, "name")) != NULL)
					attach_names_add(&a->names, cat, name);
				more = 1;
			}
		}
	}
}

/* The <default> of class name in d, or NULL ("main" is every top one). */
static const struct mjcf_node *
attach_class(const struct mjcf_doc *d, const char *name)
{
	const struct mjcf_node *root = mjcf_root(d), *n;
	const char *v;

	for (n = mjcf_walk(root, root); n != NULL; n = mjcf_walk(root, n))
		if (strcmp(n->name, "default") == 0 && n->parent != root &&
		    (v = mjcf_attr_get(n, "class")) != NULL &&
		    strcmp(v, name) == 0)
			return n;
	return NULL;
}

/* Take class name, and the classes it inherits from, if it is one. */
static void
attach_need_class(struct attach *a, const char *name)
{
	const struct mjcf_node *root = mjcf_root(a->src), *n;
	const char *v;

	for (n = attach_class(a->src, name); n != NULL && n->parent != root;
	     n = n->parent)
		if ((v = mjcf_attr_get(n, "class")) != NULL &&
		    !attach_names_has(&a->classes, "class", v))
			attach_names_add(&a->classes, "class", v);
}

/* The class a node in a body takes from its bodies' childclass. */
static const char *
attach_inherited(const struct mjcf_node *n)
{
	const char *v;

	for (n = n->parent; n != NULL && strcmp(n->name, "body") == 0;
	     n = n->parent)
		if ((v = mjcf_attr_get(n, "childclass")) != NULL)
			return v;
	return "main";
}

/* Take the classes that n and what is below it name. */
static void
attach_classes_of(struct attach *a, const struct mjcf_node *top)
{
	const struct mjcf_node *n;
	const char *v;

	for (n = top; n != NULL; n = mjcf_walk(top, n)) {
		if ((v = mjcf_attr_get(n, "class")) != NULL)
			attach_need_class(a, v);
		if ((v = mjcf_attr_get(n, "childclass")) != NULL)
			attach_need_class(a, v);
	}
}

/* Take the asset of category cat named name, if the source has it. */
static void
attach_need_asset(struct attach *a, const char *cat, const char *name)
{
	const struct mjcf_node *root = mjcf_root(a->src), *sec, *n;
	const char *v;
	char buf[1024];

	for (sec = mjcf_first_child(root, "asset"); sec != NULL;
	     sec = mjcf_next_sibling(sec, "asset"))
		for (n = mjcf_first_child(sec, cat); n != NULL;
		     n = mjcf_next_sibling(n, cat)) {
			if ((v = attach_name(n, buf, sizeof(buf))) == NULL ||
			    strcmp(v, name) != 0)
				continue;
			if (!attach_nodes_has(&a->assets, n)) {
				attach_nodes_add(&a->assets, n);
				attach_names_add(
				    &a->names, attach_category(n), name);
			}
			return;
		}
}

/* Take the assets that n and what is below it name. */
static void
attach_assets_of(struct attach *a, const struct mjcf_node *top)
{
	const struct mjcf_node *n;
	size_t i;
	int r;

	for (n = top; n != NULL; n = mjcf_walk(top, n))
		for (i = 0; i < n->nattrs; i++)
			if ((r = attach_ref(n->attrs[i].name)) >= 0 &&
			    attach_refs[r].asset)
				attach_need_asset(a, attach_refs[r].category,
				    n->attrs[i].value);
}

/*
 * Choose the default classes and the assets that come: those what comes
 * names, the classes they inherit from, the assets the classes name, the
 * textures of the materials, until no more come.
 */
static void
attach_choose_uses(struct attach *a)
{
	const struct mjcf_node *n, *c;
	size_t i, before;

	for (i = 0; i < a->roots.n; i++) {
		n = a->roots.v[i];
		if (mjcf_attr_get(n,
			strcmp(n->name, "body") == 0 ? "childclass" :
						       "class") == NULL)
			attach_need_class(a, attach_inherited(n));
	}
	do {
		before = a->classes.n + a->assets.n;
		for (i = 0; i < a->roots.n; i++) {
			attach_classes_of(a, a->roots.v[i]);
			attach_assets_of(a, a->roots.v[i]);
		}
		for (i = 0; i < a->referrers.n; i++) {
			attach_classes_of(a, a->referrers.v[i]);
			attach_assets_of(a, a->referrers.v[i]);
		}
		for (i = 0; i < a->assets.n; i++) {
			attach_classes_of(a, a->assets.v[i]);
			attach_assets_of(a, a->assets.v[i]);
		}
		/* The element defaults of main and of the classes that come. */
		for (i = 0; i < a->defaults.n; i++)
			for (c = mjcf_first_child(a->defaults.v[i], NULL);
			     c != NULL; c = mjcf_next_sibling(c, NULL))
				if (strcmp(c->name, "default") != 0)
					attach_assets_of(a, c);
		for (i = 0; i < a->classes.n; i++) {
			if ((n = attach_class(a->src, a->classes.name[i])) ==
			    NULL)
				continue;
			for (c = mjcf_first_child(n, NULL); c != NULL;
			     c = mjcf_next_sibling(c, NULL))
				if (strcmp(c->name, "default") != 0)
					attach_assets_of(a, c);
		}
	} while (a->classes.n + a->assets.n != before);
}

/* Put the nodes of s in the source's document order. */
static void
attach_in_order(struct attach *a, struct attach_nodes *s)
{
	struct attach_nodes ordered = { 0 };
	const struct mjcf_node *root = mjcf_root(a->src), *n;

	for (n = mjcf_walk(root, root); n != NULL; n = mjcf_walk(root, n))
		if (attach_nodes_has(s, n))
			attach_nodes_add(&ordered, n);
	free(s->v);
	*s = ordered;
}

/* The kind of element default n (in a <default>) gives values for. */
static const char *
attach_default_kind(const char *name)
{
	return ATTACH_AMONG(name, attach_actuators) ? "actuator" : name;
}

/* The kind of default a source's element n takes its values from. */
static const char *
attach_node_kind(const struct mjcf_node *n)
{
	const struct mjcf_node *sec = attach_section(n);

	if (sec != NULL && sec != n && n->parent == sec &&
	    (strcmp(sec->name, "equality") == 0 ||
		strcmp(sec->name, "tendon") == 0 ||
		strcmp(sec->name, "actuator") == 0))
		return sec->name;
	return n->name;
}

/* Return 1 if an element of default kind kind comes. */
static int
attach_kind_comes(const struct attach *a, const char *kind)
{
	const struct attach_nodes *sets[] = { &a->roots, &a->referrers,
		&a->assets };
	const struct mjcf_node *n;
	size_t i, k;

	for (k = 0; k < sizeof(sets) / sizeof(sets[0]); k++)
		for (i = 0; i < sets[k]->n; i++)
			for (n = sets[k]->v[i]; n != NULL;
			     n = mjcf_walk(sets[k]->v[i], n))
				if (strcmp(attach_node_kind(n), kind) == 0)
					return 1;
	return 0;
}

/* Return 1 if d's main class sets attr for elements of default kind. */
static int
attach_main_sets(const struct mjcf_doc *d, const char *kind, const char *attr)
{
	const struct mjcf_node *root = mjcf_root(d), *t, *c;

	for (t = mjcf_first_child(root, "default"); t != NULL;
	     t = mjcf_next_sibling(t, "default"))
		for (c = mjcf_first_child(t, NULL); c != NULL;
		     c = mjcf_next_sibling(c, NULL))
			if (strcmp(c->name, "default") != 0 &&
			    strcmp(attach_default_kind(c->name), kind) == 0 &&
			    mjcf_attr_get(c, attr) != NULL)
				return 1;
	return 0;
}

/*
 * The attached classes inherit from the tree's main class, as every
 * class does in MJCF: refuse when it sets a value the source's main
 * does not, which the attached elements would take.
 */
static int
attach_main_check(struct attach *a)
{
	const struct mjcf_node *root = mjcf_root(a->doc), *t, *c;
	const char *kind;
	size_t i;

	if (a->src == a->doc)
		return 0;
	for (t = mjcf_first_child(root, "default"); t != NULL;
	     t = mjcf_next_sibling(t, "default"))
		for (c = mjcf_first_child(t, NULL); c != NULL;
		     c = mjcf_next_sibling(c, NULL)) {
			if (strcmp(c->name, "default") == 0)
				continue;
			kind = attach_default_kind(c->name);
			for (i = 0; i < c->nattrs; i++)
				if (!attach_main_sets(
					a->src, kind, c->attrs[i].name) &&
				    attach_kind_comes(a, kind))
					return attach_fail(a,
					    "this model's main default class "
					    "sets %s %s, which the source's "
					    "does not: the attached elements "
					    "would take it",
					    c->name, c->attrs[i].name);
		}
	return 0;
}

/* Refuse names that the tree has already, once renamed. */
static int
attach_names_check(struct attach *a)
{
	struct attach_names have = { 0 };
	const struct mjcf_node *root = mjcf_root(a->doc), *n;
	const char *cat, *name;
	char buf[1024], *r = NULL;
	size_t i;
	int rc = 0;

	for (n = mjcf_walk(root, root); n != NULL; n = mjcf_walk(root, n)) {
		if ((cat = attach_category(n)) != NULL &&
		    (name = attach_name(n, buf, sizeof(buf))) != NULL)
			attach_names_add(&have, cat, name);
		else if (strcmp(n->name, "default") == 0 &&
		    (name = mjcf_attr_get(n, "class")) != NULL)
			attach_names_add(&have, "class", name);
	}
	attach_names_add(&have, "class", "main");
	for (i = 0; rc == 0 && i < a->names.n + a->classes.n; i++) {
		if (i < a->names.n) {
			cat = a->names.cat[i];
			name = a->names.name[i];
		} else if (i < a->names.n + a->classes.n) {
			cat = "class";
			name = a->classes.name[i - a->names.n];
		} else
			break;
		r = attach_renamed(a, name);
		if (attach_names_has(&have, cat, r))
			rc = attach_fail(a,
			    "the model already has a%s %s named \"%s\"",
			    strchr("aeiou", cat[0]) != NULL ? "n" : "", cat, r);
		free(r);
	}
	if (rc == 0 && a->wrap) {
		attach_main_name(a, buf, sizeof(buf));
		if (attach_names_has(&have, "class", buf))
			rc = attach_fail(a,
			    "the model already has a class named \"%s\"", buf);
	}
	attach_names_clear(&have);
	return rc;
}

/* Set attribute attr of n to the renamed value. */
static int
attach_set_renamed(
    struct attach *a, struct mjcf_node *n, const char *attr, const char *v)
{
	char *r = attach_renamed(a, v);
	int rc = mjcf_attr_set(n, attr, r);

	free(r);
	return rc;
}

/*
 * The class the source's main becomes: main renamed, or when nothing
 * renames, named after what is attached (a class cannot be main).
 */
static void
attach_main_name(const struct attach *a, char *buf, size_t len)
{
	if (a->prefix[0] != '\0' || a->suffix[0] != '\0')
		snprintf(buf, len, "%smain%s", a->prefix, a->suffix);
	else
		snprintf(buf, len, "%s_main",
		    a->op->name != NULL && a->op->name[0] != '\0' ?
			a->op->name :
			"worldbody");
}

/* Set attribute attr of n to the class the source's main becomes. */
static int
attach_set_main(struct attach *a, struct mjcf_node *n, const char *attr)
{
	char name[1024];

	attach_main_name(a, name, sizeof(name));
	return mjcf_attr_set(n, attr, name);
}

/*
 * Give c, the copy of the source's k, its new names: its own and those
 * it refers to that come.
 */
static int
attach_rename(struct attach *a, struct mjcf_node *c, const struct mjcf_node *k)
{
	const char *name, *v;
	char buf[1024];
	size_t i;
	int r, rc = 0;

	if (attach_category(k) != NULL &&
	    (name = attach_name(k, buf, sizeof(buf))) != NULL)
		rc |= attach_set_renamed(a, c, "name", name);
	for (i = 0; i < k->nattrs; i++) {
		v = k->attrs[i].value;
		if (strcmp(k->attrs[i].name, "class") == 0 ||
		    strcmp(k->attrs[i].name, "childclass") == 0) {
			if (strcmp(v, "main") == 0 && a->wrap)
				rc |= attach_set_main(a, c, k->attrs[i].name);
			else if (attach_names_has(&a->classes, "class", v))
				rc |= attach_set_renamed(
				    a, c, k->attrs[i].name, v);
		} else if ((r = attach_ref(k->attrs[i].name)) >= 0 &&
		    attach_names_has(&a->names, attach_ref_category(k, r), v))
			rc |= attach_set_renamed(a, c, k->attrs[i].name, v);
	}
	return rc == 0 ? 0 : -1;
}

/* Name c's files (an asset's) by absolute paths, as the source finds them. */
static int
attach_files(struct attach *a, struct mjcf_node *c)
{
	const char *dir = strcmp(c->name, "texture") == 0 ? a->texturedir :
							    a->meshdir;
	const char *v, *slash;
	char path[8192];
	size_t i;

	for (i = 0;
	     i < sizeof(attach_file_attrs) / sizeof(attach_file_attrs[0]);
	     i++) {
		if ((v = mjcf_attr_get(c, attach_file_attrs[i])) == NULL)
			continue;
		if (a->strippath && (slash = strrchr(v, '/')) != NULL)
			v = slash + 1;
		if (v[0] == '/')
			snprintf(path, sizeof(path), "%s", v);
		else
			snprintf(path, sizeof(path), "%s/%s", dir, v);
		if (mjcf_attr_set(c, attach_file_attrs[i], path) != 0)
			return -1;
	}
	return 0;
}

/*
 * Return 1 if the source's k is left out of a copy: a default class that
 * does not come, a camera or light that targets a body that does not.
 */
static int
attach_skipped(const struct attach *a, const struct mjcf_node *k)
{
	const char *v;

	if (strcmp(k->name, "default") == 0)
		return (v = mjcf_attr_get(k, "class")) != NULL &&
		    strcmp(v, "main") != 0 &&
		    !attach_names_has(&a->classes, "class", v);
	if (strcmp(k->name, "camera") == 0 || strcmp(k->name, "light") == 0)
		return (v = mjcf_attr_get(k, "target")) != NULL &&
		    strcmp(v, "world") != 0 &&
		    !attach_names_has(&a->names, "body", v);
	return 0;
}

/* The node after n's subtree within top's, or NULL. */
static const struct mjcf_node *
attach_after(const struct mjcf_node *top, const struct mjcf_node *n)
{
	for (; n != top && n != NULL; n = n->parent)
		if (TAILQ_NEXT(n, entry) != NULL)
			return TAILQ_NEXT(n, entry);
	return NULL;
}

/*
 * Copy the source's top and what is below it under parent, renamed, what
 * is left out left out.  Returns the copy, or NULL (with why).
 */
static struct mjcf_node *
attach_copy(
    struct attach *a, struct mjcf_node *parent, const struct mjcf_node *top)
{
	struct mjcf_node *stack[MJCF_MAX_DEPTH + 1], *c, *first = NULL;
	const struct mjcf_node *k = top, *sec;
	int base = mjcf_depth(top), d;
	size_t i;

	while (k != NULL) {
		if (k != top && attach_skipped(a, k)) {
			k = attach_after(top, k);
			continue;
		}
		d = mjcf_depth(k) - base;
		c = mjcf_node_add(
		    a->doc, d == 0 ? parent : stack[d - 1], k->name);
		if (c == NULL) {
			attach_fail(a,
			    "the model would have more than %d elements, or "
			    "elements nested more than %d deep",
			    MJCF_MAX_NODES, MJCF_MAX_DEPTH);
			return NULL;
		}
		for (i = 0; i < k->nattrs; i++)
			mjcf_attr_set(c, k->attrs[i].name, k->attrs[i].value);
		if (k->text != NULL)
			mjcf_node_set_text(c, k->text);
		sec = attach_section(k);
		if (attach_rename(a, c, k) != 0 ||
		    (sec != NULL && k->parent == sec &&
			strcmp(sec->name, "asset") == 0 &&
			attach_files(a, c) != 0)) {
			attach_fail(a,
			    "the prefix or suffix cannot be written in a "
			    "name");
			return NULL;
		}
		stack[d] = c;
		if (first == NULL)
			first = c;
		k = mjcf_walk(top, k);
	}
	return first;
}

/* r = v rotated by the unit quaternion q. */
static void
attach_rotate(double *r, const double *q, const double *v)
{
	double p[4] = { 0, v[0], v[1], v[2] },
	       c[4] = { q[0], -q[1], -q[2], -q[3] };

	quat_mul(q, p, p);
	quat_mul(p, c, p);
	memcpy(r, p + 1, 3 * sizeof(double));
}

/* Read up to n numbers from s into v; returns how many there were. */
static int
attach_numbers(const char *s, double *v, int n)
{
	char *end;
	int i;

	for (i = 0; s != NULL && i < n; i++, s = end) {
		v[i] = strtod(s, &end);
		if (end == s)
			break;
	}
	return i;
}

/* Scale v (n values) to unit length; 0, or -1 if it has none. */
static int
attach_unit(double *v, int n)
{
	double s = 0;
	int i;

	for (i = 0; i < n; i++)
		s += v[i] * v[i];
	if ((s = sqrt(s)) < 1e-15)
		return -1;
	for (i = 0; i < n; i++)
		v[i] /= s;
	return 0;
}

/* The unit quaternion of the rotation whose columns are x, y and z. */
static void
attach_frame2quat(double *q, const double *x, const double *y, const double *z)
{
	double m[9], tr, s;
	int i;

	for (i = 0; i < 3; i++) {
		m[3 * i] = x[i];
		m[3 * i + 1] = y[i];
		m[3 * i + 2] = z[i];
	}
	tr = m[0] + m[4] + m[8];
	if (tr > 0) {
		s = sqrt(tr + 1) * 2;
		q[0] = s / 4;
		q[1] = (m[7] - m[5]) / s;
		q[2] = (m[2] - m[6]) / s;
		q[3] = (m[3] - m[1]) / s;
	} else if (m[0] > m[4] && m[0] > m[8]) {
		s = sqrt(1 + m[0] - m[4] - m[8]) * 2;
		q[0] = (m[7] - m[5]) / s;
		q[1] = s / 4;
		q[2] = (m[1] + m[3]) / s;
		q[3] = (m[2] + m[6]) / s;
	} else if (m[4] > m[8]) {
		s = sqrt(1 + m[4] - m[0] - m[8]) * 2;
		q[0] = (m[2] - m[6]) / s;
		q[1] = (m[1] + m[3]) / s;
		q[2] = s / 4;
		q[3] = (m[5] + m[7]) / s;
	} else {
		s = sqrt(1 + m[8] - m[0] - m[4]) * 2;
		q[0] = (m[3] - m[1]) / s;
		q[1] = (m[2] + m[6]) / s;
		q[2] = (m[5] + m[7]) / s;
		q[3] = s / 4;
	}
}

/*
 * The quaternion an orientation attribute of the tree gives (kind: a row
 * of attach_orient), as MuJoCo 2.2 reads it with the tree's angle unit
 * and Euler sequence.  0, or -1 if it cannot be read.
 */
static int
attach_quat(const struct attach *a, int kind, const char *s, double *q)
{
	const char *unit = attach_compiler(a->doc, "angle"),
		   *seq = attach_compiler(a->doc, "eulerseq");
	double z[3];
	double v[6],
	    f = unit != NULL && strcmp(unit, "radian") == 0 ? 1 : M_PI / 180,
	    t[4], ang, s2;
	int i;

	if (seq == NULL)
		seq = "xyz";
	switch (kind) {
	case 0: /* quat */
		if (attach_numbers(s, q, 4) != 4)
			return -1;
		return attach_unit(q, 4);
	case 1: /* axisangle */
		if (attach_numbers(s, v, 4) != 4 || attach_unit(v, 3) != 0)
			return -1;
		q[0] = cos(v[3] * f / 2);
		for (i = 0; i < 3; i++)
			q[i + 1] = v[i] * sin(v[3] * f / 2);
		return 0;
	case 2: /* euler */
		if (attach_numbers(s, v, 3) != 3 || strlen(seq) != 3 ||
		    strspn(seq, "xyzXYZ") != 3)
			return -1; /* MuJoCo refuses such a sequence too */
		q[0] = 1;
		q[1] = q[2] = q[3] = 0;
		for (i = 0; i < 3; i++) {
			t[0] = cos(v[i] * f / 2);
			t[1] = t[2] = t[3] = 0;
			t[1 + (seq[i] | 0x20) - 'x'] = sin(v[i] * f / 2);
			if (seq[i] >= 'a') /* intrinsic: about the new axes */
				quat_mul(q, t, q);
			else
				quat_mul(t, q, q);
		}
		return 0;
	case 3: /* xyaxes: x, then y made orthogonal to it; z = x × y */
		if (attach_numbers(s, v, 6) != 6 || attach_unit(v, 3) != 0)
			return -1;
		ang = v[0] * v[3] + v[1] * v[4] + v[2] * v[5];
		for (i = 0; i < 3; i++)
			v[3 + i] -= ang * v[i];
		if (attach_unit(v + 3, 3) != 0)
			return -1;
		z[0] = v[1] * v[5] - v[2] * v[4];
		z[1] = v[2] * v[3] - v[0] * v[5];
		z[2] = v[0] * v[4] - v[1] * v[3];
		attach_frame2quat(q, v, v + 3, z);
		return attach_unit(q, 4);
	case 4: /* zaxis: the least rotation taking z there */
		if (attach_numbers(s, v, 3) != 3 || attach_unit(v, 3) != 0)
			return -1;
		t[1] = -v[1];
		t[2] = v[0];
		t[3] = 0;
		if ((s2 = sqrt(t[1] * t[1] + t[2] * t[2])) < 1e-15) {
			t[1] = 1;
			t[2] = 0;
		} else {
			t[1] /= s2;
			t[2] /= s2;
		}
		ang = atan2(s2, v[2]);
		q[0] = cos(ang / 2);
		for (i = 1; i < 4; i++)
			q[i] = t[i] * sin(ang / 2);
		return 0;
	}
	return -1;
}

/*
 * Where the tree's element n reads its values from, most specific first:
 * n itself, then its class's default for its kind and those of the
 * classes that class inherits from, then main's.  Returns the count.
 */
static size_t
attach_levels(const struct mjcf_doc *d, const struct mjcf_node *n,
    const struct mjcf_node **out, size_t max)
{
	const struct mjcf_node *root = mjcf_root(d), *def, *e, *t;
	const char *cls;
	size_t k = 0;

	out[k++] = n;
	if ((cls = mjcf_attr_get(n, "class")) == NULL)
		cls = attach_inherited(n);
	for (def = attach_class(d, cls);
	     def != NULL && def->parent != root && k < max; def = def->parent)
		for (e = mjcf_first_child(def, n->name); e != NULL && k < max;
		     e = mjcf_next_sibling(e, n->name))
			out[k++] = e;
	for (t = mjcf_first_child(root, "default"); t != NULL;
	     t = mjcf_next_sibling(t, "default"))
		for (e = mjcf_first_child(t, n->name); e != NULL && k < max;
		     e = mjcf_next_sibling(e, n->name))
			out[k++] = e;
	return k;
}

/*
 * Put the copied body c where the site is: its frame is the site's
 * frame composed with its own, written as pos and quat.
 */
static int
attach_at_site(
    struct attach *a, struct mjcf_node *c, const struct mjcf_node *site)
{
	const struct mjcf_node *lv[MJCF_MAX_DEPTH + 8];
	double ps[3] = { 0, 0, 0 }, qs[4] = { 1, 0, 0, 0 }, pb[3] = { 0, 0, 0 },
	       qb[4] = { 1, 0, 0, 0 }, r[3];
	const char *v, *coord = attach_compiler(a->doc, "coordinate");
	char buf[256];
	size_t n, i, k;
	int done = 0;

	if (coord != NULL && strcmp(coord, "global") == 0)
		return attach_fail(a,
		    "this model's compiler has coordinate=\"global\": a site's "
		    "frame is not its body's");
	n = attach_levels(a->doc, site, lv, sizeof(lv) / sizeof(lv[0]));
	for (i = 0; i < n; i++)
		if ((v = mjcf_attr_get(lv[i], "pos")) != NULL) {
			attach_numbers(v, ps, 3);
			break;
		}
	for (i = 0; i < n && !done; i++)
		for (k = 0; k < 5 && !done; k++)
			if ((v = mjcf_attr_get(lv[i], attach_orient[k])) !=
			    NULL) {
				if (attach_quat(a, (int)k, v, qs) != 0)
					return attach_fail(a,
					    "the site's %s cannot be read",
					    attach_orient[k]);
				done = 1;
			}
	if ((v = mjcf_attr_get(c, "pos")) != NULL)
		attach_numbers(v, pb, 3);
	for (k = 0; k < 5; k++)
		if ((v = mjcf_attr_get(c, attach_orient[k])) != NULL) {
			if (attach_quat(a, (int)k, v, qb) != 0)
				return attach_fail(a,
				    "the body's %s cannot be read",
				    attach_orient[k]);
			mjcf_attr_remove(c, attach_orient[k]);
		}
	attach_rotate(r, qs, pb);
	for (i = 0; i < 3; i++)
		r[i] += ps[i];
	quat_mul(qs, qb, qb);
	snprintf(buf, sizeof(buf), "%.17g %.17g %.17g", r[0], r[1], r[2]);
	mjcf_attr_set(c, "pos", buf);
	snprintf(buf, sizeof(buf), "%.17g %.17g %.17g %.17g", qb[0], qb[1],
	    qb[2], qb[3]);
	mjcf_attr_set(c, "quat", buf);
	return 0;
}

/*
 * Where the roots go: the worldbody, a body, or a site's body (*site
 * set).  NULL with why if there is none such, or it is inside what is
 * attached from the tree itself.
 */
static struct mjcf_node *
attach_parent(struct attach *a, const struct mjcf_node **site)
{
	const char *pt = a->op->parent_type != NULL ? a->op->parent_type : "",
		   *pn = a->op->parent_name != NULL ? a->op->parent_name : "";
	struct mjcf_node *root = mjcf_root(a->doc), *p, *q;
	size_t i;

	*site = NULL;
	if (strcmp(pt, "worldbody") == 0) {
		if ((p = mjcf_first_child(root, "worldbody")) == NULL &&
		    (p = mjcf_node_add(a->doc, root, "worldbody")) == NULL) {
			attach_fail(a, "the model is too large");
			return NULL;
		}
	} else if (strcmp(pt, "body") == 0 || strcmp(pt, "site") == 0) {
		if ((p = attach_find(a->doc, pt, pn)) == NULL) {
			attach_fail(
			    a, "the model has no %s named \"%s\"", pt, pn);
			return NULL;
		}
		if (strcmp(pt, "site") == 0) {
			*site = p;
			p = p->parent;
		}
	} else {
		attach_fail(a,
		    "attach goes under \"worldbody\", a body or a site, not "
		    "\"%s\"",
		    pt);
		return NULL;
	}
	if (a->src != a->doc)
		return p;
	if (strcmp(a->op->type, "worldbody") == 0) {
		attach_fail(a,
		    "this model's worldbody cannot be attached "
		    "into itself");
		return NULL;
	}
	for (q = p; q != NULL; q = q->parent)
		for (i = 0; i < a->roots.n; i++)
			if (q == a->roots.v[i]) {
				attach_fail(a,
				    "the %s \"%s\" is inside the body "
				    "attached: a body cannot be attached "
				    "into itself",
				    pt, pn);
				return NULL;
			}
	return p;
}

/*
 * Return 1 if the source's k, naming no class, is an element that takes
 * one (and so would take this model's main without being given one).
 */
static int
attach_takes_class(const struct mjcf_node *k)
{
	static const char *const world[] = { "geom", "site", "camera",
		"light" };
	static const char *const others[] = { "mesh", "material", "pair",
		"spatial", "fixed" };
	const struct mjcf_node *sec = attach_section(k);

	if (mjcf_attr_get(k, "class") != NULL || sec == NULL)
		return 0;
	if (strcmp(sec->name, "worldbody") == 0)
		return ATTACH_AMONG(k->name, world);
	return strcmp(sec->name, "actuator") == 0 ||
	    strcmp(sec->name, "equality") == 0 || ATTACH_AMONG(k->name, others);
}

/* Put what comes into the tree. */
static int
attach_insert(
    struct attach *a, struct mjcf_node *parent, const struct mjcf_node *site)
{
	struct mjcf_node *root = mjcf_root(a->doc), *wrapper = NULL, *sec, *c,
			 *made[sizeof(attach_referring) /
			     sizeof(attach_referring[0])] = { NULL };
	const struct mjcf_node *k, *t;
	const char *cls;
	size_t i, j;

	if (a->wrap) {
		if ((sec = mjcf_node_add(a->doc, root, "default")) == NULL ||
		    (wrapper = mjcf_node_add(a->doc, sec, "default")) == NULL)
			return attach_fail(a, "the model is too large");
		attach_set_main(a, wrapper, "class");
		/* main's own values, then the classes that come */
		for (j = 0; j < 2; j++)
			for (i = 0; i < a->defaults.n; i++)
				for (t = mjcf_first_child(
					 a->defaults.v[i], NULL);
				     t != NULL; t = mjcf_next_sibling(t, NULL))
					if ((strcmp(t->name, "default") == 0) ==
						(j == 1) &&
					    !attach_skipped(a, t) &&
					    attach_copy(a, wrapper, t) == NULL)
						return -1;
	}
	if (a->assets.n > 0) {
		if ((sec = mjcf_node_add(a->doc, root, "asset")) == NULL)
			return attach_fail(a, "the model is too large");
		for (i = 0; i < a->assets.n; i++) {
			k = a->assets.v[i];
			if ((c = attach_copy(a, sec, k)) == NULL)
				return -1;
			if (a->wrap && attach_takes_class(k))
				attach_set_main(a, c, "class");
		}
	}
	for (i = 0; i < a->roots.n; i++) {
		k = a->roots.v[i];
		if (site != NULL && strcmp(k->name, "body") != 0)
			return attach_fail(a,
			    "only bodies go at a site, and the source's "
			    "worldbody holds a %s",
			    k->name);
		if (attach_skipped(a, k))
			continue;
		if ((c = attach_copy(a, parent, k)) == NULL)
			return -1;
		cls = attach_inherited(k);
		if (a->wrap && strcmp(k->name, "body") == 0 &&
		    mjcf_attr_get(k, "childclass") == NULL &&
		    strcmp(cls, "main") == 0)
			attach_set_main(a, c, "childclass");
		else if (a->wrap && strcmp(k->name, "body") == 0 &&
		    mjcf_attr_get(k, "childclass") == NULL &&
		    attach_names_has(&a->classes, "class", cls))
			attach_set_renamed(a, c, "childclass", cls);
		else if (a->wrap && attach_takes_class(k))
			attach_set_main(a, c, "class");
		if (site != NULL && attach_at_site(a, c, site) != 0)
			return -1;
	}
	for (i = 0; i < a->referrers.n; i++) {
		k = a->referrers.v[i];
		for (j = 0; strcmp(attach_referring[j], k->parent->name) != 0;
		     j++)
			;
		if (made[j] == NULL &&
		    (made[j] = mjcf_node_add(
			 a->doc, root, attach_referring[j])) == NULL)
			return attach_fail(a, "the model is too large");
		if ((c = attach_copy(a, made[j], k)) == NULL)
			return -1;
		if (a->wrap && attach_takes_class(k))
			attach_set_main(a, c, "class");
	}
	return 0;
}

/* Refuse assets with files when the tree strips paths from file names. */
static int
attach_strippath_check(struct attach *a)
{
	const char *v = attach_compiler(a->doc, "strippath");
	size_t i, k;

	if (v == NULL || strcmp(v, "true") != 0)
		return 0;
	for (i = 0; i < a->assets.n; i++)
		for (k = 0; k <
		     sizeof(attach_file_attrs) / sizeof(attach_file_attrs[0]);
		     k++)
			if (mjcf_attr_get(
				a->assets.v[i], attach_file_attrs[k]) != NULL)
				return attach_fail(a,
				    "this model's compiler has "
				    "strippath=\"true\", which would take the "
				    "directories out of the files the "
				    "attached assets name");
	return 0;
}

/* The attach, step by step; what it chose is freed by the caller. */
static int
attach_run(struct attach *a)
{
	const struct mjcf_node *site, *t;
	struct mjcf_node *parent;
	size_t i;

	if (attach_roots(a) != 0 ||
	    (parent = attach_parent(a, &site)) == NULL ||
	    attach_settings_check(
		a, a->op->source_dir != NULL ? a->op->source_dir : "") != 0)
		return -1;
	for (t = mjcf_first_child(mjcf_root(a->src), "default"); t != NULL;
	     t = mjcf_next_sibling(t, "default"))
		attach_nodes_add(&a->defaults, t);
	a->wrap = a->defaults.n > 0;
	for (i = 0; i < a->roots.n; i++)
		attach_take_names(a, a->roots.v[i]);
	attach_choose_referrers(a);
	attach_choose_uses(a);
	attach_in_order(a, &a->referrers);
	attach_in_order(a, &a->assets);
	if (attach_main_check(a) != 0 || attach_strippath_check(a) != 0 ||
	    attach_names_check(a) != 0)
		return -1;
	return attach_insert(a, parent, site);
}

int
mjcf_attach(
    struct mjcf_doc *doc, const struct mjcf_edit_op *op, char *why, size_t len)
{
	struct attach a;
	int rc;

	memset(&a, 0, sizeof(a));
	a.doc = doc;
	a.src = op->source != NULL ? op->source : doc;
	a.op = op;
	a.prefix = op->prefix != NULL ? op->prefix : "";
	a.suffix = op->suffix != NULL ? op->suffix : "";
	a.why = why;
	a.whylen = len;
	rc = attach_run(&a);
	attach_names_clear(&a.names);
	attach_names_clear(&a.classes);
	free(a.roots.v);
	free(a.referrers.v);
	free(a.assets.v);
	free(a.defaults.v);
	return rc;
}
