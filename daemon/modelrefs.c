/* The files a model names: see modelrefs.h. */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "mjcf.h"
#include "modelassets.h"
#include "modeldir.h"
#include "modelrefs.h"
#include "result.h"

/* Includes within includes: MuJoCo refuses loops; this bounds the work. */
#define MODELREFS_MAX_DEPTH 16

/*
 * A model is walked twice, includes and all, in MuJoCo's order (an
 * included file's elements stand where its <include> is): the last
 * <compiler> in that order sets meshdir and texturedir for every file,
 * even one named before it.
 */
enum modelrefs_pass {
	MODELREFS_DIRS,  /* take meshdir and texturedir */
	MODELREFS_NAMES, /* check every file named */
	MODELREFS_FIND,  /* count the names of no file inside */
};

/* Where relative names resolve. */
struct modelrefs_dirs {
	char base[PATH_MAX];    /* the main model file's directory */
	char mesh[PATH_MAX];    /* compiler meshdir, resolved */
	char texture[PATH_MAX]; /* compiler texturedir, resolved */
	size_t missing;         /* MODELREFS_FIND: files not there */
	/* The files the model carries (modelassets.h): MuJoCo reads a name
	 * they serve from memory, never from the disk. */
	const struct model_asset *assets;
	size_t nassets;
};

/*
 * The attributes that name files, by element.  Each is checked against
 * the model's directory, meshdir and texturedir alike: which one MuJoCo
 * uses for which kind of file does not matter if all three are inside.
 */
static const struct {
	const char *element;
	const char *attr;
} modelrefs_attrs[] = {
	{ "mesh", "file" }, { "hfield", "file" }, { "skin", "file" },
	{ "texture", "file" }, { "texture", "fileright" },
	{ "texture", "fileleft" }, { "texture", "fileup" },
	{ "texture", "filedown" }, { "texture", "filefront" },
	{ "texture", "fileback" }, { "mesh", "filename" }, /* URDF */
};

static int modelrefs_doc(const struct mjcf_doc *, struct modelrefs_dirs *,
    enum modelrefs_pass, int, char *, size_t);

/* name resolved against dir, as MuJoCo joins them; -1 if too long. */
static int
modelrefs_join(const char *dir, const char *name, char *out, size_t len)
{
	size_t d = name[0] == '/' ? 0 : strlen(dir), n = strlen(name);

	if (d + n + 2 > len)
		return -1;
	memmove(out + (d != 0 ? d + 1 : 0), name, n + 1);
	if (d != 0) {
		memcpy(out, dir, d);
		out[d] = '/';
	}
	return 0;
}

/* Refuse name (from node) unless it resolves inside a model directory. */
static int
modelrefs_name(const struct mjcf_node *n, const char *dir, const char *name,
    char *out, size_t outlen, char *err, size_t len)
{
	char cwd[PATH_MAX], rel[PATH_MAX];

	/* Relative to a relative directory: to the working directory. */
	if (modelrefs_join(dir, name, rel, sizeof(rel)) == 0 &&
	    (rel[0] == '/' || getcwd(cwd, sizeof(cwd)) != NULL) &&
	    modelrefs_join(cwd, rel, out, outlen) == 0 &&
	    modeldir_contains(out))
		return 0;
	snprintf(err, len,
	    "the model names %s (<%s> on line %lu of %s), which is outside "
	    "the model directories (%s)",
	    name, n->name, n->line, n->file != NULL ? n->file : "the model",
	    modeldir_list());
	return RESULT_DENIED;
}

/*
 * Return 1 if name, resolved against one of the ndir in dir, is a file
 * inside the model directories: one outside counts as missing, so that
 * what exists there never sways where an inline model stands (and so
 * what the answer says).
 */
static int
modelrefs_found(const char *const *dir, size_t ndir, const char *name)
{
	char path[PATH_MAX];
	size_t j;

	for (j = 0; j < ndir; j++)
		if (modelrefs_join(dir[j], name, path, sizeof(path)) == 0 &&
		    modeldir_contains(path) && access(path, R_OK) == 0)
			return 1;
	return 0;
}

/*
 * The value of n's k-th attribute called name in any letter case, or
 * NULL: MuJoCo matches some names without regard to case, so the check
 * takes every spelling.
 */
static const char *
modelrefs_attr(const struct mjcf_node *n, const char *name, size_t k)
{
	size_t i;

	for (i = 0; i < n->nattrs; i++) {
		if (strcasecmp(n->attrs[i].name, name) == 0 && k-- == 0)
			return n->attrs[i].value;
	}
	return NULL;
}

/* Take meshdir and texturedir from a <compiler>, over earlier ones. */
static void
modelrefs_compiler(const struct mjcf_node *n, struct modelrefs_dirs *dirs)
{
	const char *v;

	if ((v = modelrefs_attr(n, "meshdir", 0)) != NULL)
		modelrefs_join(dirs->base, v, dirs->mesh, sizeof(dirs->mesh));
	if ((v = modelrefs_attr(n, "texturedir", 0)) != NULL)
		modelrefs_join(
		    dirs->base, v, dirs->texture, sizeof(dirs->texture));
}

/*
 * An included file: its name is checked, then what it names.  One the
 * model carries is read from what it carries, as MuJoCo reads it: no
 * name on the disk to check, nothing read there.
 */
static int
modelrefs_include(const struct mjcf_node *n, const char *name,
    struct modelrefs_dirs *dirs, enum modelrefs_pass pass, int depth, char *err,
    size_t len)
{
	const struct model_asset *a = modelassets_find(
	    dirs->assets, dirs->nassets, name);
	const char *base = dirs->base;
	char path[PATH_MAX], why[512];
	struct mjcf_doc *doc;
	int rc;

	if (a != NULL) {
		/* carried */
	} else if (pass == MODELREFS_FIND) {
		if (!modelrefs_found(&base, 1, name)) {
			dirs->missing++;
			return 0;
		}
		modelrefs_join(dirs->base, name, path, sizeof(path));
	} else if ((rc = modelrefs_name(n, dirs->base, name, path, sizeof(path),
			err, len)) != 0)
		return rc;
	if (depth >= MODELREFS_MAX_DEPTH) {
		snprintf(err, len, "includes nested more than %d deep at %s",
		    MODELREFS_MAX_DEPTH, name);
		return RESULT_DENIED;
	}
	doc = a != NULL ? mjcf_parse_buffer_lenient(
			      a->data, a->len, a->name, why, sizeof(why)) :
			  mjcf_parse_file_lenient(path, why, sizeof(why));
	if (doc == NULL)
		return 0; /* missing or not XML: MuJoCo says which */
	rc = modelrefs_doc(doc, dirs, pass, depth + 1, err, len);
	mjcf_free(doc);
	return rc;
}

/* Take the directories from doc, or check every name in it. */
static int
modelrefs_doc(const struct mjcf_doc *doc, struct modelrefs_dirs *dirs,
    enum modelrefs_pass pass, int depth, char *err, size_t len)
{
	const struct mjcf_node *root = mjcf_root(doc), *n;
	const char *v, *dir[3];
	char path[PATH_MAX];
	size_t i, j, k, ndir;
	int rc;

	/* Each distinct one once: usually all three are the same. */
	dir[0] = dirs->base;
	ndir = 1;
	if (strcmp(dirs->mesh, dirs->base) != 0)
		dir[ndir++] = dirs->mesh;
	if (strcmp(dirs->texture, dirs->base) != 0 &&
	    strcmp(dirs->texture, dirs->mesh) != 0)
		dir[ndir++] = dirs->texture;
	for (n = root; n != NULL; n = mjcf_walk(root, n)) {
		if (pass == MODELREFS_DIRS &&
		    strcasecmp(n->name, "compiler") == 0)
			modelrefs_compiler(n, dirs);
		for (k = 0; strcasecmp(n->name, "include") == 0 &&
		     (v = modelrefs_attr(n, "file", k)) != NULL;
		     k++) {
			rc = modelrefs_include(
			    n, v, dirs, pass, depth, err, len);
			if (rc != 0)
				return rc;
		}
		for (i = 0; pass != MODELREFS_DIRS &&
		     i < sizeof(modelrefs_attrs) / sizeof(modelrefs_attrs[0]);
		     i++) {
			if (strcasecmp(n->name, modelrefs_attrs[i].element) !=
			    0)
				continue;
			for (k = 0; (v = modelrefs_attr(n,
					 modelrefs_attrs[i].attr, k)) != NULL;
			     k++) {
				/* Carried: MuJoCo reads it from memory. */
				if (modelassets_find(
					dirs->assets, dirs->nassets, v) != NULL)
					continue;
				if (pass == MODELREFS_FIND) {
					if (!modelrefs_found(dir, ndir, v))
						dirs->missing++;
					continue;
				}
				for (j = 0; j < ndir; j++) {
					rc = modelrefs_name(n, dir[j], v, path,
					    sizeof(path), err, len);
					if (rc != 0)
						return rc;
				}
			}
		}
	}
	return 0;
}

/*
 * Parse the model at path, or buf when it is not NULL; NULL with err
 * saying why when it is not XML.
 */
static struct mjcf_doc *
modelrefs_parse(
    const char *path, const void *buf, size_t len, char *err, size_t errlen)
{
	struct mjcf_doc *doc;
	char why[512];

	if (buf != NULL)
		doc = mjcf_parse_buffer_lenient(
		    buf, len, "the inline model", why, sizeof(why));
	else
		doc = mjcf_parse_file_lenient(path, why, sizeof(why));
	if (doc == NULL)
		snprintf(err, errlen,
		    "the model is not XML that MuJoCo reads: %s", why);
	return doc;
}

/*
 * Walk doc as a model in directory base carrying n assets would be, in
 * pass (after DIRS).
 */
static int
modelrefs_walk(const struct mjcf_doc *doc, const char *base,
    const struct model_asset *assets, size_t n, enum modelrefs_pass pass,
    size_t *missing, char *err, size_t errlen)
{
	struct modelrefs_dirs dirs;
	int rc;

	memset(&dirs, 0, sizeof(dirs));
	dirs.assets = assets;
	dirs.nassets = n;
	snprintf(dirs.base, sizeof(dirs.base), "%s", base);
	snprintf(dirs.mesh, sizeof(dirs.mesh), "%s", dirs.base);
	snprintf(dirs.texture, sizeof(dirs.texture), "%s", dirs.base);
	rc = modelrefs_doc(doc, &dirs, MODELREFS_DIRS, 0, err, errlen);
	if (rc == 0)
		rc = modelrefs_doc(doc, &dirs, pass, 0, err, errlen);
	if (missing != NULL)
		*missing = dirs.missing;
	return rc;
}

int
modelrefs_home(const void *buf, size_t len, char *home, size_t homelen,
    char *err, size_t errlen)
{
	return modelrefs_home_assets(
	    buf, len, NULL, 0, home, homelen, err, errlen);
}

int
modelrefs_home_assets(const void *buf, size_t len,
    const struct model_asset *assets, size_t nassets, char *home,
    size_t homelen, char *err, size_t errlen)
{
	struct mjcf_doc *doc;
	size_t missing;
	int i;

	if ((doc = modelrefs_parse(NULL, buf, len, err, errlen)) == NULL)
		return RESULT_LOADFAILED;
	snprintf(
	    home, homelen, "%s", modeldir_count() > 0 ? modeldir_get(0) : "");
	for (i = 0; i < modeldir_count(); i++) {
		modelrefs_walk(doc, modeldir_get(i), assets, nassets,
		    MODELREFS_FIND, &missing, err, errlen);
		if (missing == 0) {
			snprintf(home, homelen, "%s", modeldir_get(i));
			break;
		}
	}
	mjcf_free(doc);
	return 0;
}

int
modelrefs_check(
    const char *path, const void *buf, size_t len, char *err, size_t errlen)
{
	return modelrefs_check_assets(path, buf, len, NULL, 0, err, errlen);
}

int
modelrefs_check_assets(const char *path, const void *buf, size_t len,
    const struct model_asset *assets, size_t nassets, char *err, size_t errlen)
{
	struct mjcf_doc *doc;
	char base[PATH_MAX], *slash;
	int rc;

	snprintf(base, sizeof(base), "%s", path);
	if ((slash = strrchr(base, '/')) != NULL)
		*slash = '\0';
	else
		base[0] = '\0';
	if ((doc = modelrefs_parse(path, buf, len, err, errlen)) == NULL)
		return RESULT_LOADFAILED;
	rc = modelrefs_walk(
	    doc, base, assets, nassets, MODELREFS_NAMES, NULL, err, errlen);
	mjcf_free(doc);
	return rc;
}
