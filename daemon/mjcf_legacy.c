/*
 * Legacy MJCF translation: see mjcf_legacy.h.  The rules follow MuJoCo
 * 2.2.2's reader (xml_native_reader.cc, xml.cc) and compiler
 * (user_objects.cc): how it finds includes and assets, how default classes
 * inherit, and when it refuses a range without a limited flag.
 */
#include "config.h"

#include <sys/stat.h>
#include <dirent.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "log.h"
#include "mjcf.h"
#include "mjcf_legacy.h"

struct mjcf_legacy_log {
	char **lines;
	size_t n, cap;
};

/* What a default class can say about limits, by attribute. */
enum legacy_key {
	LEGACY_JOINT_TYPE,
	LEGACY_JOINT_LIMITED,
	LEGACY_JOINT_RANGE,
	LEGACY_TENDON_LIMITED,
	LEGACY_TENDON_RANGE,
	LEGACY_CTRLLIMITED,
	LEGACY_CTRLRANGE,
	LEGACY_FORCELIMITED,
	LEGACY_FORCERANGE,
	LEGACY_NKEYS
};

struct legacy_attr {
	const char *attr;
	enum legacy_key key;
};

static const struct legacy_attr legacy_joint_attrs[] = {
	{ "type", LEGACY_JOINT_TYPE },
	{ "limited", LEGACY_JOINT_LIMITED },
	{ "range", LEGACY_JOINT_RANGE },
	{ NULL, LEGACY_NKEYS },
};

static const struct legacy_attr legacy_tendon_attrs[] = {
	{ "limited", LEGACY_TENDON_LIMITED },
	{ "range", LEGACY_TENDON_RANGE },
	{ NULL, LEGACY_NKEYS },
};

static const struct legacy_attr legacy_actuator_attrs[] = {
	{ "ctrllimited", LEGACY_CTRLLIMITED },
	{ "ctrlrange", LEGACY_CTRLRANGE },
	{ "forcelimited", LEGACY_FORCELIMITED },
	{ "forcerange", LEGACY_FORCERANGE },
	{ NULL, LEGACY_NKEYS },
};

/* A range attribute and the flag that says whether it limits. */
struct legacy_limit {
	const char *range, *limited;
	enum legacy_key range_key, limited_key;
};

static const struct legacy_limit legacy_joint_limit = { "range", "limited",
	LEGACY_JOINT_RANGE, LEGACY_JOINT_LIMITED };
static const struct legacy_limit legacy_tendon_limit = { "range", "limited",
	LEGACY_TENDON_RANGE, LEGACY_TENDON_LIMITED };
static const struct legacy_limit legacy_ctrl_limit = { "ctrlrange",
	"ctrllimited", LEGACY_CTRLRANGE, LEGACY_CTRLLIMITED };
static const struct legacy_limit legacy_force_limit = { "forcerange",
	"forcelimited", LEGACY_FORCERANGE, LEGACY_FORCELIMITED };

/* Actuator elements; 2.2.2 reads all but adhesion in a default class. */
static const char *const legacy_actuators[] = { "general", "motor", "position",
	"velocity", "intvelocity", "damper", "cylinder", "muscle", "adhesion",
	NULL };

/* An attribute's value in a class, and the class that set it. */
struct legacy_value {
	const char *value;
	const char *from;
};

/* A default class, with what it inherited already copied in. */
struct legacy_class {
	const char *name;
	struct legacy_value v[LEGACY_NKEYS];
};

/* The state of one translation. */
struct legacy {
	struct mjcf_doc *doc;
	struct mjcf_legacy_log *log;
	char dir[PATH_MAX]; /* the model's directory: "" or ending in '/' */
	char **included;    /* files read so far, as MuJoCo names them */
	size_t nincluded;
	struct mjcf_node *meshdir, *texturedir; /* compilers that set them */
	int autolimits, strippath;
	struct legacy_class *classes; /* [0] is "main" */
	size_t nclasses;
	char *err;
	size_t errlen;
};

static void legacy_where(
    const struct legacy *, const struct mjcf_node *, char *, size_t);
static void legacy_label(const struct mjcf_node *, char *, size_t);
static void legacy_log(struct legacy *, const struct mjcf_node *, const char *,
    ...) __attribute__((format(printf, 3, 4)));
static int legacy_error(struct legacy *, const struct mjcf_node *, const char *,
    ...) __attribute__((format(printf, 3, 4)));
static int legacy_isabs(const char *);
static int legacy_match_case(const char *, const char *, int, char **);
static int legacy_base(
    const struct legacy *, const char *, const char *, char *, size_t);
static void legacy_fix_dir(struct legacy *, struct mjcf_node *, const char *);
static void legacy_fix_file(
    struct legacy *, struct mjcf_node *, const char *, const char *, int);
static int legacy_includes(struct legacy *);
static void legacy_compiler(struct legacy *);
static void legacy_assets(struct legacy *);
static int legacy_class_find(const struct legacy *, const char *);
static void legacy_class_take(struct legacy *, size_t, const struct mjcf_node *,
    const struct legacy_attr *);
static void legacy_default(struct legacy *, const struct mjcf_node *, int);
static const struct legacy_class *legacy_class_of(
    const struct legacy *, const struct mjcf_node *, int);
static int legacy_zero_range(const char *);
static void legacy_check(struct legacy *, struct mjcf_node *,
    const struct legacy_class *, const struct legacy_limit *);
static int legacy_is_actuator(const char *);
static void legacy_limits(struct legacy *);

struct mjcf_legacy_log *
mjcf_legacy_log_create(void)
{
	struct mjcf_legacy_log *log = calloc(1, sizeof(*log));

	if (log == NULL)
		fatal("out of memory");
	return log;
}

void
mjcf_legacy_log_free(struct mjcf_legacy_log *log)
{
	size_t i;

	if (log == NULL)
		return;
	for (i = 0; i < log->n; i++)
		free(log->lines[i]);
	free(log->lines);
	free(log);
}

size_t
mjcf_legacy_log_count(const struct mjcf_legacy_log *log)
{
	return log != NULL ? log->n : 0;
}

const char *
mjcf_legacy_log_line(const struct mjcf_legacy_log *log, size_t i)
{
	return log != NULL && i < log->n ? log->lines[i] : NULL;
}

/*
 * Where n is, for messages: "line 42" in the model file, "hand.xml line 7"
 * in an included file (named as its include names it).
 */
static void
legacy_where(
    const struct legacy *lg, const struct mjcf_node *n, char *buf, size_t len)
{
	const char *file = n->file;
	size_t dl = strlen(lg->dir);

	if (file == NULL)
		snprintf(buf, len, "new element");
	else if (strcmp(file, mjcf_path(lg->doc)) == 0)
		snprintf(buf, len, "line %lu", n->line);
	else
		snprintf(buf, len, "%s line %lu",
		    dl > 0 && strncmp(file, lg->dir, dl) == 0 ? file + dl :
								file,
		    n->line);
}

/* An element as messages name it: `joint "index_PIP"`, or just `joint`. */
static void
legacy_label(const struct mjcf_node *n, char *buf, size_t len)
{
	const char *name = mjcf_attr_get(n, "name");

	if (name != NULL)
		snprintf(buf, len, "%s \"%s\"", n->name, name);
	else
		snprintf(buf, len, "%s", n->name);
}

/* Log one change made to n: "<where>: <what>". */
static void
legacy_log(struct legacy *lg, const struct mjcf_node *n, const char *fmt, ...)
{
	struct mjcf_legacy_log *log = lg->log;
	char where[PATH_MAX + 32], *what, **lines;
	va_list ap;

	if (log == NULL)
		return;
	va_start(ap, fmt);
	if (vasprintf(&what, fmt, ap) < 0)
		fatal("out of memory");
	va_end(ap);
	if (log->n == log->cap) {
		log->cap = log->cap > 0 ? 2 * log->cap : 16;
		lines = realloc(log->lines, log->cap * sizeof(*lines));
		if (lines == NULL)
			fatal("out of memory");
		log->lines = lines;
	}
	legacy_where(lg, n, where, sizeof(where));
	if (asprintf(&log->lines[log->n], "%s: %s", where, what) < 0)
		fatal("out of memory");
	log->n++;
	free(what);
}

/* Put "<where n is>: <why>" in the caller's err; returns -1. */
static int
legacy_error(struct legacy *lg, const struct mjcf_node *n, const char *fmt, ...)
{
	char where[PATH_MAX + 32], why[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	legacy_where(lg, n, where, sizeof(where));
	snprintf(lg->err, lg->errlen, "%s: %s", where, why);
	return -1;
}

/* Return 1 for a path MuJoCo takes as absolute (it knows Windows' too). */
static int
legacy_isabs(const char *p)
{
	return p[0] == '/' || p[0] == '\\' || strstr(p, ":/") != NULL ||
	    strstr(p, ":\\") != NULL;
}

/*
 * Look for base + path as a disk that ignores case would find it.  Returns
 * 1 with *fixed (malloc'd) when it does not exist as written but each
 * missing component of path matches exactly one name in its directory
 * ignoring case (a directory where more follows or want_dir says so, a
 * file otherwise); 0 when it exists as written, or nothing (or more than
 * one name) fits.  base is "" or ends in '/'.
 */
static int
legacy_match_case(
    const char *base, const char *path, int want_dir, char **fixed)
{
	char full[PATH_MAX], out[PATH_MAX], comp[NAME_MAX + 1],
	    found[NAME_MAX + 1];
	const char *p = path, *end;
	size_t flen, olen = 0, clen;
	struct dirent *de;
	struct stat st;
	int last, dir, count;
	DIR *d;

	*fixed = NULL;
	if ((size_t)snprintf(full, sizeof(full), "%s%s", base, path) >=
		sizeof(full) ||
	    stat(full, &st) == 0)
		return 0;
	flen = strlen(base);
	full[flen] = '\0';
	while (*p != '\0') {
		clen = *p == '/' ? 1 : strcspn(p, "/");
		if (flen + clen + 1 > sizeof(full) ||
		    olen + clen + 1 > sizeof(out))
			return 0;
		if (*p == '/') {
			full[flen++] = '/';
			out[olen++] = '/';
			p++;
			continue;
		}
		if (clen > NAME_MAX)
			return 0;
		memcpy(comp, p, clen);
		comp[clen] = '\0';
		end = p + clen;
		last = end[strspn(end, "/")] == '\0';
		dir = !last || want_dir;
		memcpy(full + flen, comp, clen + 1);
		if (stat(full, &st) != 0) {
			if (strcmp(comp, ".") == 0 || strcmp(comp, "..") == 0)
				return 0;
			full[flen] = '\0';
			if ((d = opendir(flen > 0 ? full : ".")) == NULL)
				return 0;
			count = 0;
			while ((de = readdir(d)) != NULL) {
				if (strcasecmp(de->d_name, comp) != 0 ||
				    strlen(de->d_name) != clen)
					continue;
				memcpy(full + flen, de->d_name, clen + 1);
				if (stat(full, &st) != 0 ||
				    !S_ISDIR(st.st_mode) != !dir)
					continue;
				memcpy(found, de->d_name, clen + 1);
				count++;
			}
			closedir(d);
			if (count != 1)
				return 0;
			memcpy(comp, found, clen + 1);
			memcpy(full + flen, comp, clen + 1);
		}
		flen += clen;
		memcpy(out + olen, comp, clen);
		olen += clen;
		p = end;
	}
	out[olen] = '\0';
	if ((*fixed = strdup(out)) == NULL)
		fatal("out of memory");
	return 1;
}

/*
 * The directory MuJoCo puts before file: none for an absolute file, else
 * assetdir (the compiler's meshdir or texturedir, NULL if unset) with a
 * '/', after the model's directory unless assetdir is absolute.  Returns
 * 0, or -1 if it does not fit.
 */
static int
legacy_base(const struct legacy *lg, const char *assetdir, const char *file,
    char *buf, size_t len)
{
	const char *sep;
	size_t n;

	if (legacy_isabs(file)) {
		buf[0] = '\0';
		return 0;
	}
	if (assetdir == NULL)
		assetdir = "";
	n = strlen(assetdir);
	sep = n > 0 && assetdir[n - 1] != '/' && assetdir[n - 1] != '\\' ? "/" :
									   "";
	n = (size_t)snprintf(buf, len, "%s%s%s",
	    legacy_isabs(assetdir) ? "" : lg->dir, assetdir, sep);
	return n < len ? 0 : -1;
}

/* Fix the case of the compiler's directory attribute attr on n. */
static void
legacy_fix_dir(struct legacy *lg, struct mjcf_node *n, const char *attr)
{
	const char *dir;
	char label[256], *fixed;

	if (n == NULL || (dir = mjcf_attr_get(n, attr)) == NULL ||
	    *dir == '\0' ||
	    !legacy_match_case(
		legacy_isabs(dir) ? "" : lg->dir, dir, 1, &fixed))
		return;
	legacy_label(n, label, sizeof(label));
	legacy_log(lg, n, "%s: %s \"%s\" -> \"%s\"", label, attr, dir, fixed);
	mjcf_attr_set(n, attr, fixed);
	free(fixed);
}

/*
 * Fix the case of file attribute attr of n, found under assetdir.  With
 * strip (the compiler's strippath, for assets) MuJoCo ignores the file's
 * directories: match its last component only, keep the rest as written.
 */
static void
legacy_fix_file(struct legacy *lg, struct mjcf_node *n, const char *attr,
    const char *assetdir, int strip)
{
	const char *file = mjcf_attr_get(n, attr), *name, *p;
	char base[PATH_MAX], label[256], *fixed, *value;

	if (file == NULL || *file == '\0')
		return;
	name = file;
	if (strip)
		for (p = file; *p != '\0'; p++)
			if (*p == '/' || *p == '\\')
				name = p + 1;
	if (*name == '\0' ||
	    legacy_base(lg, assetdir, name, base, sizeof(base)) != 0 ||
	    !legacy_match_case(base, name, 0, &fixed))
		return;
	if (asprintf(&value, "%.*s%s", (int)(name - file), file, fixed) < 0)
		fatal("out of memory");
	legacy_label(n, label, sizeof(label));
	legacy_log(lg, n, "%s: %s \"%s\" -> \"%s\"", label, attr, file, value);
	mjcf_attr_set(n, attr, value);
	free(value);
	free(fixed);
}

/*
 * Replace each <include> by the children of the file it names, in place,
 * as MuJoCo does: names are relative to the model's directory (also in
 * included files), a file is read once, an include has no children and
 * its file has at least one element below the root.  Returns 0 or -1.
 */
static int
legacy_includes(struct legacy *lg)
{
	struct mjcf_node *root = mjcf_root(lg->doc), *n, *first;
	struct mjcf_doc *inc;
	char full[PATH_MAX], why[1024], **list;
	const char *file;
	size_t i;

	n = mjcf_walk(root, root);
	while (n != NULL) {
		if (strcasecmp(n->name, "include") != 0) {
			n = mjcf_walk(root, n);
			continue;
		}
		if (!TAILQ_EMPTY(&n->children))
			return legacy_error(
			    lg, n, "include element cannot have children");
		if ((file = mjcf_attr_get(n, "file")) == NULL || *file == '\0')
			return legacy_error(lg, n, "include without a file");
		legacy_fix_file(lg, n, "file", NULL, 0);
		file = mjcf_attr_get(n, "file");
		if ((size_t)snprintf(full, sizeof(full), "%s%s",
			legacy_isabs(file) ? "" : lg->dir,
			file) >= sizeof(full))
			return legacy_error(
			    lg, n, "include file name too long");
		for (i = 0; i < lg->nincluded; i++)
			if (strcasecmp(lg->included[i], full) == 0)
				return legacy_error(
				    lg, n, "file '%s' already included", full);
		list = realloc(
		    lg->included, (lg->nincluded + 1) * sizeof(*list));
		if (list == NULL ||
		    (list[lg->nincluded] = strdup(full)) == NULL)
			fatal("out of memory");
		lg->included = list;
		lg->nincluded++;
		if ((inc = mjcf_parse_file_lenient(full, why, sizeof(why))) ==
		    NULL)
			return legacy_error(lg, n, "include: %s", why);
		if (mjcf_first_child(mjcf_root(inc), NULL) == NULL) {
			mjcf_free(inc);
			return legacy_error(
			    lg, n, "include file '%s' is empty", full);
		}
		if (mjcf_node_replace(
			lg->doc, n, inc, &first, why, sizeof(why)) != 0)
			return legacy_error(
			    lg, n, "include '%s': %s", full, why);
		n = first;
	}
	return 0;
}

/*
 * Read the compiler settings that matter here; like MuJoCo, every
 * <compiler> is read in order and a later attribute wins.
 */
static void
legacy_compiler(struct legacy *lg)
{
	struct mjcf_node *c;
	const char *v;

	for (c = mjcf_first_child(mjcf_root(lg->doc), "compiler"); c != NULL;
	     c = mjcf_next_sibling(c, "compiler")) {
		if ((v = mjcf_attr_get(c, "autolimits")) != NULL)
			lg->autolimits = strcmp(v, "true") == 0;
		if ((v = mjcf_attr_get(c, "strippath")) != NULL)
			lg->strippath = strcmp(v, "true") == 0;
		if (mjcf_attr_get(c, "meshdir") != NULL)
			lg->meshdir = c;
		if (mjcf_attr_get(c, "texturedir") != NULL)
			lg->texturedir = c;
	}
}

/* Fix the case of the asset directories and of every asset file. */
static void
legacy_assets(struct legacy *lg)
{
	static const char *const texfiles[] = { "file", "fileright", "fileleft",
		"fileup", "filedown", "filefront", "fileback", NULL };
	struct mjcf_node *root = mjcf_root(lg->doc), *n;
	const char *meshdir, *texturedir;
	size_t i;

	legacy_fix_dir(lg, lg->meshdir, "meshdir");
	legacy_fix_dir(lg, lg->texturedir, "texturedir");
	meshdir = lg->meshdir ? mjcf_attr_get(lg->meshdir, "meshdir") : NULL;
	texturedir = lg->texturedir ?
	    mjcf_attr_get(lg->texturedir, "texturedir") :
	    NULL;
	for (n = mjcf_walk(root, root); n != NULL; n = mjcf_walk(root, n)) {
		if (strcmp(n->name, "mesh") == 0 ||
		    strcmp(n->name, "hfield") == 0 ||
		    strcmp(n->name, "skin") == 0)
			legacy_fix_file(lg, n, "file", meshdir, lg->strippath);
		else if (strcmp(n->name, "texture") == 0)
			for (i = 0; texfiles[i] != NULL; i++)
				legacy_fix_file(lg, n, texfiles[i], texturedir,
				    lg->strippath);
	}
}

/* The index of the class called name, or -1. */
static int
legacy_class_find(const struct legacy *lg, const char *name)
{
	size_t i;

	for (i = 0; i < lg->nclasses; i++)
		if (strcmp(lg->classes[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* Take the attributes listed in attrs from default element e into class. */
static void
legacy_class_take(struct legacy *lg, size_t cls, const struct mjcf_node *e,
    const struct legacy_attr *attrs)
{
	struct legacy_class *c = &lg->classes[cls];
	const char *v;

	for (; attrs->attr != NULL; attrs++) {
		if ((v = mjcf_attr_get(e, attrs->attr)) == NULL)
			continue;
		c->v[attrs->key].value = v;
		c->v[attrs->key].from = c->name;
	}
}

/*
 * Read a <default> section as MuJoCo 2.2.2 does: a top-level one sets the
 * class "main" (or renames it), a nested one starts as a copy of its
 * parent as it stands once the parent's own elements are read, and the
 * nested sections are read after all the elements.  A default <damper>
 * makes its class ctrllimited.
 */
static void
legacy_default(struct legacy *lg, const struct mjcf_node *section, int parent)
{
	const struct mjcf_node *e;
	const char *name = mjcf_attr_get(section, "class");
	struct legacy_class *classes;
	size_t self;

	if (parent < 0) {
		self = 0;
		lg->classes[0].name = name != NULL && *name != '\0' ? name :
								      "main";
	} else {
		/* MuJoCo refuses these; it will say so. */
		if (name == NULL || *name == '\0' ||
		    legacy_class_find(lg, name) >= 0)
			return;
		classes = realloc(
		    lg->classes, (lg->nclasses + 1) * sizeof(*classes));
		if (classes == NULL)
			fatal("out of memory");
		lg->classes = classes;
		self = lg->nclasses++;
		lg->classes[self] = lg->classes[parent];
		lg->classes[self].name = name;
	}
	for (e = mjcf_first_child(section, NULL); e != NULL;
	     e = mjcf_next_sibling(e, NULL)) {
		if (strcmp(e->name, "joint") == 0)
			legacy_class_take(lg, self, e, legacy_joint_attrs);
		else if (strcmp(e->name, "tendon") == 0)
			legacy_class_take(lg, self, e, legacy_tendon_attrs);
		else if (legacy_is_actuator(e->name) &&
		    strcmp(e->name, "adhesion") != 0)
			legacy_class_take(lg, self, e, legacy_actuator_attrs);
		if (strcmp(e->name, "damper") == 0) {
			lg->classes[self].v[LEGACY_CTRLLIMITED].value = "true";
			lg->classes[self]
			    .v[LEGACY_CTRLLIMITED]
			    .from = lg->classes[self].name;
		}
	}
	for (e = mjcf_first_child(section, "default"); e != NULL;
	     e = mjcf_next_sibling(e, "default"))
		legacy_default(lg, e, (int)self);
}

/*
 * The class that applies to element n: its own class, else (in_body) the
 * childclass of the nearest body around it that has one, else "main".
 * NULL for a class that does not exist (MuJoCo refuses that).
 */
static const struct legacy_class *
legacy_class_of(const struct legacy *lg, const struct mjcf_node *n, int in_body)
{
	const char *name = mjcf_attr_get(n, "class");
	const struct mjcf_node *b;
	int i;

	if (name == NULL && in_body)
		for (b = n->parent; b != NULL && strcmp(b->name, "body") == 0;
		     b = b->parent)
			if ((name = mjcf_attr_get(b, "childclass")) != NULL)
				break;
	if (name == NULL)
		return &lg->classes[0];
	i = legacy_class_find(lg, name);
	return i >= 0 ? &lg->classes[i] : NULL;
}

/*
 * Return 1 for a range MuJoCo counts as absent: two numbers, both zero.
 * Anything else counts as a range (MuJoCo refuses what does not parse).
 */
static int
legacy_zero_range(const char *s)
{
	double v[2];
	char *end;
	int i;

	for (i = 0; i < 2; i++) {
		v[i] = strtod(s, &end);
		if (end == s)
			return 0;
		s = end;
	}
	return s[strspn(s, " \t\r\n")] == '\0' && v[0] == 0 && v[1] == 0;
}

/* Add the limited flag of lim to n if n has a range and no flag applies. */
static void
legacy_check(struct legacy *lg, struct mjcf_node *n,
    const struct legacy_class *c, const struct legacy_limit *lim)
{
	const char *range, *from = NULL;
	char label[256], origin[300] = "";

	if (mjcf_attr_get(n, lim->limited) != NULL ||
	    c->v[lim->limited_key].value != NULL)
		return;
	if ((range = mjcf_attr_get(n, lim->range)) == NULL) {
		range = c->v[lim->range_key].value;
		from = c->v[lim->range_key].from;
	}
	if (range == NULL || legacy_zero_range(range))
		return;
	if (from != NULL)
		snprintf(origin, sizeof(origin), " (from class \"%s\")", from);
	mjcf_attr_set(n, lim->limited, "false");
	legacy_label(n, label, sizeof(label));
	legacy_log(lg, n,
	    "%s: %s%s without %s: added %s=\"false\" (MuJoCo 1.x meaning)",
	    label, lim->range, origin, lim->limited, lim->limited);
}

/* Return 1 if name is an actuator element. */
static int
legacy_is_actuator(const char *name)
{
	size_t i;

	for (i = 0; legacy_actuators[i] != NULL; i++)
		if (strcmp(name, legacy_actuators[i]) == 0)
			return 1;
	return 0;
}

/*
 * Add the limited flags 1.x implied: on joints in bodies (not free ones),
 * on tendons, and on actuators (damper and adhesion are always
 * ctrllimited).
 */
static void
legacy_limits(struct legacy *lg)
{
	struct mjcf_node *root = mjcf_root(lg->doc), *s, *n;
	const struct legacy_class *c;
	const char *type;

	if (lg->autolimits)
		return;
	for (s = mjcf_first_child(root, "default"); s != NULL;
	     s = mjcf_next_sibling(s, "default"))
		legacy_default(lg, s, -1);
	for (s = mjcf_first_child(root, "worldbody"); s != NULL;
	     s = mjcf_next_sibling(s, "worldbody")) {
		for (n = mjcf_walk(s, s); n != NULL; n = mjcf_walk(s, n)) {
			if (strcmp(n->name, "joint") != 0 ||
			    strcmp(n->parent->name, "body") != 0 ||
			    (c = legacy_class_of(lg, n, 1)) == NULL)
				continue;
			if ((type = mjcf_attr_get(n, "type")) == NULL)
				type = c->v[LEGACY_JOINT_TYPE].value;
			if (type == NULL || strcmp(type, "free") != 0)
				legacy_check(lg, n, c, &legacy_joint_limit);
		}
	}
	for (s = mjcf_first_child(root, "tendon"); s != NULL;
	     s = mjcf_next_sibling(s, "tendon"))
		for (n = mjcf_first_child(s, NULL); n != NULL;
		     n = mjcf_next_sibling(n, NULL))
			if ((c = legacy_class_of(lg, n, 0)) != NULL)
				legacy_check(lg, n, c, &legacy_tendon_limit);
	for (s = mjcf_first_child(root, "actuator"); s != NULL;
	     s = mjcf_next_sibling(s, "actuator")) {
		for (n = mjcf_first_child(s, NULL); n != NULL;
		     n = mjcf_next_sibling(n, NULL)) {
			if (!legacy_is_actuator(n->name) ||
			    (c = legacy_class_of(lg, n, 0)) == NULL)
				continue;
			if (strcmp(n->name, "damper") != 0 &&
			    strcmp(n->name, "adhesion") != 0)
				legacy_check(lg, n, c, &legacy_ctrl_limit);
			legacy_check(lg, n, c, &legacy_force_limit);
		}
	}
}

int
mjcf_legacy_translate(struct mjcf_doc *doc, const char *model_dir,
    struct mjcf_legacy_log *log, char *err, size_t errlen)
{
	struct legacy lg;
	struct mjcf_node *root = mjcf_root(doc);
	size_t n, i;
	int rc;

	if (root == NULL || strcasecmp(root->name, "mujoco") != 0)
		return 0;
	memset(&lg, 0, sizeof(lg));
	lg.doc = doc;
	lg.log = log;
	lg.err = err;
	lg.errlen = errlen;
	if (model_dir == NULL)
		model_dir = "";
	n = strlen(model_dir);
	if (n + 2 > sizeof(lg.dir)) {
		snprintf(err, errlen, "model directory name too long");
		return -1;
	}
	snprintf(lg.dir, sizeof(lg.dir), "%s%s", model_dir,
	    n > 0 && model_dir[n - 1] != '/' ? "/" : "");
	if ((lg.classes = calloc(1, sizeof(*lg.classes))) == NULL)
		fatal("out of memory");
	lg.classes[0].name = "main";
	lg.nclasses = 1;
	if ((lg.included = malloc(sizeof(*lg.included))) == NULL ||
	    (lg.included[0] = strdup(mjcf_path(doc))) == NULL)
		fatal("out of memory");
	lg.nincluded = 1;

	rc = legacy_includes(&lg);
	if (rc == 0) {
		legacy_compiler(&lg);
		legacy_assets(&lg);
		legacy_limits(&lg);
	}

	for (i = 0; i < lg.nincluded; i++)
		free(lg.included[i]);
	free(lg.included);
	free(lg.classes);
	return rc;
}

int
mjcf_legacy_file(const char *path, char **xml, size_t *len,
    struct mjcf_legacy_log *log, char *err, size_t errlen)
{
	struct mjcf_doc *doc;
	const char *p, *slash = NULL;
	char *dir;
	int rc;

	*xml = NULL;
	*len = 0;
	if ((doc = mjcf_parse_file_lenient(path, err, errlen)) == NULL)
		return -1;
	/* The directory as MuJoCo's mjuu_getfiledir() sees it. */
	for (p = path; *p != '\0'; p++)
		if (*p == '/' || *p == '\\')
			slash = p;
	if ((dir = strndup(
		 path, slash != NULL ? (size_t)(slash - path + 1) : 0)) == NULL)
		fatal("out of memory");
	rc = mjcf_legacy_translate(doc, dir, log, err, errlen);
	if (rc == 0)
		rc = mjcf_write_lines(doc, xml, len);
	free(dir);
	mjcf_free(doc);
	return rc;
}
