/*
 * Models: the summary of one (its sizes and timing) that info, status,
 * events and load show, and the commands that load one.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "haptixd.h"
#include "hxctl_common.h"

/* The largest model file --inline sends: the library's frame limit. */
#define CTL_INLINE_MAX (256L * 1024 * 1024)

static void model_show(struct ctl *, const char *, const hxd_model *);
static int load_inline(
    struct ctl *, const char *, char **, int, int, const char *, hxd_model *);
static int read_local(const char *, unsigned char **, size_t *);
static int edit_attach(struct ctl *, const struct ctl_opt *, hxd_edit_op *,
    const char **, char **);
static int edit_done(struct ctl *, int, const hxd_model *, char *);
/* edit's operations, by HXD_EDIT_*. */
static const char *const edit_kinds[] = { "add", "remove", "set", "unset",
	"attach" };

static int edit_names(struct ctl *, const struct ctl_opt *, int, int,
    hxd_edit_op *, char *, size_t, int *);
static int edit_attrs(
    struct ctl *, int, char **, hxd_edit_op *, const char ***);
static int format_parse(const char *);
static int format_from_suffix(const char *);

/* The sizes of a model, in the order hxctl shows them. */
/* clang-format off */
#define MODEL_SIZE(m) { #m, offsetof(hxd_model, m) }
/* clang-format on */
static const struct {
	const char *name;
	size_t off;
} model_sizes[] = { MODEL_SIZE(nq), MODEL_SIZE(nv), MODEL_SIZE(na),
	MODEL_SIZE(nu), MODEL_SIZE(nbody), MODEL_SIZE(njnt), MODEL_SIZE(ngeom),
	MODEL_SIZE(nsite), MODEL_SIZE(ntendon), MODEL_SIZE(neq),
	MODEL_SIZE(nkey), MODEL_SIZE(nmocap), MODEL_SIZE(nsensor),
	MODEL_SIZE(nsensordata), MODEL_SIZE(nmat) };

/* The size model_print() starts its second line of sizes with. */
#define MODEL_SIZES_BREAK 8

/* Write a model summary as an object. */
void
model_json(const hxd_model *m)
{
	size_t i;

	js_open('{');
	js_ks("name", m->name);
	js_ks("path", m->path);
	for (i = 0; i < NELEM(model_sizes); i++)
		js_ki(model_sizes[i].name, MEMBER(int, m, model_sizes[i].off));
	js_kn("timestep", m->timestep);
	js_kn("apirate", m->apirate);
	js_close('}');
}

/* Print the sizes and timing of a model, after a heading for its name. */
void
model_print(const char *heading, const hxd_model *m)
{
	size_t i;

	printf(
	    "%-10s %s\n", heading, m->name[0] != '\0' ? m->name : "(unnamed)");
	printf("%-10s %s\n", "path",
	    m->path[0] != '\0' ? m->path : "(sent inline)");
	printf("%-10s %g s, API rate %g Hz\n", "timestep", m->timestep,
	    m->apirate);
	printf("%-10s", "sizes");
	for (i = 0; i < NELEM(model_sizes); i++)
		printf("%s %s %d",
		    i == 0                     ? "" :
			i == MODEL_SIZES_BREAK ? ",\n          " :
						 ",",
		    model_sizes[i].name, MEMBER(int, m, model_sizes[i].off));
	putchar('\n');
}

/* Show a model just loaded, after a heading ("loaded"). */
static void
model_show(struct ctl *ctl, const char *heading, const hxd_model *m)
{
	if (!ctl->json) {
		model_print(heading, m);
		return;
	}
	js_open('{');
	js_key("model");
	model_json(m);
	js_close('}');
}

/*----------------------------------------------------------- loading */

/* Parse a --format name; -1 if unknown. */
static int
format_parse(const char *s)
{
	if (strcmp(s, "auto") == 0)
		return HXD_FORMAT_AUTO;
	if (strcmp(s, "mjcf") == 0 || strcmp(s, "xml") == 0)
		return HXD_FORMAT_MJCF;
	if (strcmp(s, "urdf") == 0)
		return HXD_FORMAT_URDF;
	if (strcmp(s, "mjb") == 0)
		return HXD_FORMAT_MJB;
	return -1;
}

/* The format a file name's suffix says, or HXD_FORMAT_AUTO. */
static int
format_from_suffix(const char *path)
{
	const char *dot = strrchr(path, '.');

	if (dot == NULL || strchr(dot, '/') != NULL)
		return HXD_FORMAT_AUTO;
	if (strcmp(dot, ".xml") == 0 || strcmp(dot, ".XML") == 0)
		return HXD_FORMAT_MJCF;
	if (strcmp(dot, ".urdf") == 0 || strcmp(dot, ".URDF") == 0)
		return HXD_FORMAT_URDF;
	if (strcmp(dot, ".mjb") == 0 || strcmp(dot, ".MJB") == 0)
		return HXD_FORMAT_MJB;
	return HXD_FORMAT_AUTO;
}

/*
 * Read a whole local file into *data (caller frees; a NUL follows the
 * *len bytes) and *len.  Returns 0, or an errno value (EFBIG when it is larger
 * than CTL_INLINE_MAX).
 */
static int
read_local(const char *path, unsigned char **data, size_t *len)
{
	unsigned char *buf = NULL, *nb;
	size_t cap = 0, n = 0, got;
	FILE *f;
	int err;

	*data = NULL;
	*len = 0;
	if ((f = fopen(path, "rb")) == NULL)
		return errno;
	for (;;) {
		if (n == cap) {
			if (cap >= (size_t)CTL_INLINE_MAX) {
				err = EFBIG;
				goto fail;
			}
			cap = cap == 0 ? 65536 : 2 * cap;
			if ((nb = realloc(buf, cap)) == NULL) {
				err = ENOMEM;
				goto fail;
			}
			buf = nb;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		err = EIO;
		goto fail;
	}
	fclose(f);
	buf[n] = '\0'; /* the last read stopped short of cap */
	*data = buf;
	*len = n;
	return 0;
fail:
	fclose(f);
	free(buf);
	return err;
}

/* Load a model from the server's directories, or send a local file. */
int
cmd_load(struct ctl *ctl)
{
	struct ctl_opt opts[] = {
		{ "--inline", OPT_FLAG, 0, NULL, 0, 0 },
		{ "--format", OPT_STRING, 0, NULL, 0, 0 },
		{ "--name", OPT_STRING, 0, NULL, 0, 0 },
		{ "--legacy", OPT_FLAG, 0, NULL, 0, 0 },
	};
	const char *file;
	hxd_model m;
	int format, rc;

	if ((rc = ctl_options(ctl, opts, NELEM(opts))) != 0)
		return rc;
	/* --inline sends the files after the model with it. */
	if (!(opts[0].given && ctl->npos > 1) &&
	    (rc = ctl_which(ctl, "file")) != 0)
		return rc;
	file = ctl->pos[0];
	if (!opts[0].given && (opts[1].given || opts[2].given))
		return ctl_usage_error(
		    ctl, "--format and --name go with --inline");
	if (opts[0].given && opts[3].given)
		return ctl_usage_error(ctl,
		    "--legacy translates files on the server, not --inline");
	format = opts[1].given ? format_parse(opts[1].value) :
				 format_from_suffix(file);
	if (format < 0)
		return ctl_usage_error(ctl,
		    "format '%s' is not mjcf, urdf, mjb or auto",
		    opts[1].value);
	if (opts[0].given)
		rc = load_inline(ctl, file, ctl->pos + 1, ctl->npos - 1, format,
		    opts[2].given ? opts[2].value : NULL, &m);
	else if ((rc = ctl_connect(ctl)) == 0 &&
	    (opts[3].given ? hxd_load_legacy(ctl->conn, file, &m) :
			     hxd_load_file(ctl->conn, file, &m)) != HXD_OK)
		rc = ctl_fail(ctl);
	if (rc == 0)
		model_show(ctl, "loaded", &m);
	return rc;
}

/*
 * The name an asset file travels under: its path from the model file's
 * directory when it lies under it ("meshes/hand.stl" for
 * robot/meshes/hand.stl beside robot/arm.xml), else its own name; the
 * server finds a file by its last part either way.
 */
static const char *
load_asset_name(const char *model, const char *file)
{
	const char *slash = strrchr(model, '/'), *base;
	size_t dir = slash != NULL ? (size_t)(slash - model) + 1 : 0;

	while (strncmp(file, "./", 2) == 0)
		file += 2;
	if (dir > 0 && strncmp(file, model, dir) == 0 && file[dir] != '\0' &&
	    strstr(file + dir, "../") == NULL)
		return file + dir;
	if (dir == 0 && file[0] != '/' && strstr(file, "../") == NULL &&
	    strncmp(file, "..", 2) != 0)
		return file;
	base = strrchr(file, '/');
	return base != NULL ? base + 1 : file;
}

/*
 * Send a local model file, called name or else after the file, with the
 * n local files in files (its meshes, includes, ...); 0 or CTL_FAIL.
 */
static int
load_inline(struct ctl *ctl, const char *file, char **files, int n, int format,
    const char *name, hxd_model *m)
{
	unsigned char *data, **bytes = NULL;
	hxd_asset *assets = NULL;
	size_t len;
	int err, rc = 0, i, got = 0;

	if ((err = read_local(file, &data, &len)) != 0)
		return ctl_error(ctl, HXD_LOADFAILED, "%s: %s", file,
		    err == EFBIG ? "larger than 256 MiB" : strerror(err));
	if (name == NULL)
		name = strrchr(file, '/') != NULL ? strrchr(file, '/') + 1 :
						    file;
	if (n > 0 &&
	    ((assets = calloc((size_t)n, sizeof(*assets))) == NULL ||
		(bytes = calloc((size_t)n, sizeof(*bytes))) == NULL))
		rc = ctl_error(ctl, HXD_CANNOTSEND, "out of memory");
	for (i = 0; rc == 0 && i < n; i++, got++) {
		if ((err = read_local(files[i], &bytes[i], &assets[i].len)) !=
		    0)
			rc = ctl_error(ctl, HXD_LOADFAILED, "%s: %s", files[i],
			    err == EFBIG ? "larger than 256 MiB" :
					   strerror(err));
		assets[i].name = load_asset_name(file, files[i]);
		assets[i].data = bytes[i];
	}
	if (rc != 0) {
		/* said */
	} else if (len == 0)
		rc = ctl_error(ctl, HXD_LOADFAILED, "%s is empty", file);
	else if ((rc = ctl_connect(ctl)) == 0 &&
	    hxd_load_inline_assets(
		ctl->conn, format, data, len, name, assets, n, m) != HXD_OK)
		rc = ctl_fail(ctl);
	for (i = 0; i < got; i++)
		free(bytes[i]);
	free(bytes);
	free(assets);
	free(data);
	return rc;
}

/* Reload the current model from its file. */
int
cmd_reload(struct ctl *ctl)
{
	hxd_model m;
	int rc;

	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	if (hxd_reload(ctl->conn, &m) != HXD_OK)
		return ctl_fail(ctl);
	model_show(ctl, "reloaded", &m);
	return CTL_OK;
}

/*
 * List the model directories, after adding one.  A relative DIR is made
 * absolute here: the server's working directory is not the caller's.
 */
int
cmd_model_dirs(struct ctl *ctl)
{
	char dir[PATH_MAX], **dirs, *real = NULL;
	const char *add = NULL;
	int user, rc;
	size_t i;

	if (ctl->argc == 1 || (ctl->argc == 2 && strcmp(ctl->argv[0], "add")))
		return ctl_usage_error(ctl, "give add DIR, or nothing");
	if (ctl->argc == 2) {
		add = ctl->argv[1];
		if ((real = realpath(add, NULL)) != NULL)
			add = real;
		else if (add[0] != '/' &&
		    getcwd(dir, sizeof(dir) - 1) != NULL &&
		    strlen(dir) + strlen(add) + 2 <= sizeof(dir)) {
			strcat(strcat(dir, "/"), add);
			add = dir;
		}
	}
	if ((rc = ctl_connect(ctl)) != 0) {
		free(real);
		return rc;
	}
	rc = hxd_model_dirs(ctl->conn, add, &dirs, &user);
	free(real);
	if (rc != HXD_OK)
		return ctl_fail(ctl);
	if (ctl->json) {
		js_open('{');
		js_key("dirs");
		js_open('[');
		for (i = 0; dirs[i] != NULL; i++)
			js_s(dirs[i]);
		js_close(']');
		js_kb("user_dirs", user);
		js_close('}');
	} else {
		for (i = 0; dirs[i] != NULL; i++)
			printf("%s\n", dirs[i]);
		printf("(clients %s add their own: user-model-dirs = %s)\n",
		    user ? "may" : "may not", user ? "yes" : "no");
	}
	free(dirs);
	return CTL_OK;
}

/* model save FILE|-: the model's MJCF text into FILE or onto stdout. */
int
cmd_model(struct ctl *ctl)
{
	char *xml, dir[4096];
	size_t n;
	FILE *f;
	int rc;

	if (strcmp(ctl->argv[0], "save") != 0)
		return ctl_usage_error(ctl, "say save FILE");
	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	if (hxd_get_model_xml(ctl->conn, &xml, dir, sizeof(dir)) != HXD_OK)
		return ctl_fail(ctl);
	n = strlen(xml);
	if (strcmp(ctl->argv[1], "-") == 0) {
		fwrite(xml, 1, n, stdout);
		free(xml);
		return CTL_OK;
	}
	if ((f = fopen(ctl->argv[1], "w")) == NULL ||
	    (fwrite(xml, 1, n, f) != n) + (fclose(f) != 0) != 0) {
		free(xml);
		return ctl_error(ctl, HXD_BADVALUE, "cannot write %s: %s",
		    ctl->argv[1], strerror(errno));
	}
	free(xml);
	if (ctl->json) {
		js_open('{');
		js_ks("path", ctl->argv[1]);
		js_ku("bytes", n);
		js_ks("dir", dir);
		js_close('}');
	} else
		printf("saved %zu bytes to %s (its files are named relative "
		       "to %s)\n",
		    n, ctl->argv[1],
		    dir[0] != '\0' ? dir : "the model's directory");
	return CTL_OK;
}

/*
 * edit attach FILE|. BODY|worldbody --to TYPE[:NAME] [--prefix P]
 * [--suffix S] [--inline]: the op, its settings in set (room for 6), a
 * local FILE's text read into *text (caller frees).
 */
static int
edit_attach(struct ctl *ctl, const struct ctl_opt *opts, hxd_edit_op *op,
    const char **set, char **text)
{
	static char parent[1024];
	unsigned char *data;
	char *colon;
	size_t len;
	int err, n = 0;

	*text = NULL;
	if (ctl->npos != 3)
		return ctl_usage_error(ctl,
		    "attach takes FILE (or . for this model) and a body "
		    "(or worldbody)");
	if (!opts[2].given)
		return ctl_usage_error(
		    ctl, "attach needs --to worldbody|body:NAME|site:NAME");
	if (opts[0].given || opts[1].given)
		return ctl_usage_error(ctl, "%s goes with %s",
		    opts[0].given ? "--in" : "--class",
		    opts[0].given ? "add" : "set and unset");
	snprintf(parent, sizeof(parent), "%s", opts[2].value);
	if ((colon = strchr(parent, ':')) != NULL)
		*colon++ = '\0';
	op->kind = HXD_EDIT_ATTACH;
	op->parent_type = parent;
	op->parent_name = colon != NULL ? colon : "";
	op->type = strcmp(ctl->pos[2], "worldbody") == 0 ? "worldbody" : "body";
	op->name = strcmp(ctl->pos[2], "worldbody") == 0 ? "" : ctl->pos[2];
	if (opts[3].given) {
		set[2 * n] = "prefix";
		set[2 * n++ + 1] = opts[3].value;
	}
	if (opts[4].given) {
		set[2 * n] = "suffix";
		set[2 * n++ + 1] = opts[4].value;
	}
	if (opts[5].given) {
		if ((err = read_local(ctl->pos[1], &data, &len)) != 0)
			return ctl_error(ctl, HXD_LOADFAILED, "%s: %s",
			    ctl->pos[1],
			    err == EFBIG ? "larger than 256 MiB" :
					   strerror(err));
		if (len == 0 || memchr(data, '\0', len) != NULL) {
			free(data);
			return ctl_error(ctl, HXD_LOADFAILED, "%s: %s",
			    ctl->pos[1], len == 0 ? "empty" : "not text");
		}
		*text = (char *)data;
		set[2 * n] = "xml";
		set[2 * n++ + 1] = *text;
	} else if (strcmp(ctl->pos[1], ".") != 0) {
		set[2 * n] = "file";
		set[2 * n++ + 1] = ctl->pos[1];
	}
	op->attrs = set;
	op->nattrs = n;
	return 0;
}

/*
 * What an edit other than attach names (kind: its HXD_EDIT_*, opts:
 * edit's nopts options): the element's type and name, its parent
 * (written to parent) or default class, and how many arguments are
 * attributes, from *firstp on.  0 or CTL_USAGE.
 */
static int
edit_names(struct ctl *ctl, const struct ctl_opt *opts, int nopts, int kind,
    hxd_edit_op *op, char *parent, size_t len, int *firstp)
{
	char *colon;
	int i, first;

	for (i = 2; i < nopts; i++)
		if (opts[i].given)
			return ctl_usage_error(
			    ctl, "%s goes with attach", opts[i].name);
	op->kind = kind;
	op->type = ctl->pos[1];
	first = 2;
	if (opts[1].given) {
		/* A default class's settings for the type: no name. */
		if (kind != HXD_EDIT_SET && kind != HXD_EDIT_UNSET)
			return ctl_usage_error(
			    ctl, "--class goes with set and unset");
		op->parent_type = "default";
		op->parent_name = opts[1].value;
	} else if (ctl->npos > 2 && strchr(ctl->pos[2], '=') == NULL &&
	    kind != HXD_EDIT_UNSET)
		op->name = ctl->pos[first++];
	else if (kind == HXD_EDIT_UNSET && ctl->npos > 2)
		op->name = ctl->pos[first++];
	if (kind == HXD_EDIT_ADD) {
		if (!opts[0].given)
			return ctl_usage_error(
			    ctl, "add needs --in PARENT_TYPE[:PARENT_NAME]");
		snprintf(parent, len, "%s", opts[0].value);
		if ((colon = strchr(parent, ':')) != NULL)
			*colon++ = '\0';
		op->parent_type = parent;
		op->parent_name = colon != NULL ? colon : "";
	} else if (opts[0].given)
		return ctl_usage_error(ctl, "--in goes with add");
	else if (op->name == NULL && !opts[1].given)
		return ctl_usage_error(
		    ctl, "%s needs a name", edit_kinds[kind]);
	op->nattrs = ctl->npos - first;
	*firstp = first;
	return 0;
}

/*
 * op's nattrs ATTR=VALUE arguments (unset: ATTR) from args on, split
 * into op's attrs, also left in *attrsp (caller frees).  0, CTL_USAGE
 * or CTL_FAIL.
 */
static int
edit_attrs(struct ctl *ctl, int kind, char **args, hxd_edit_op *op,
    const char ***attrsp)
{
	const char **attrs = NULL;
	int i;

	*attrsp = NULL;
	if (kind == HXD_EDIT_REMOVE && op->nattrs != 0)
		return ctl_usage_error(ctl, "remove takes no attributes");
	if (op->nattrs > 0) {
		if ((attrs = calloc(2 * (size_t)op->nattrs, sizeof(*attrs))) ==
		    NULL)
			return ctl_error(ctl, HXD_CANNOTSEND, "out of memory");
		for (i = 0; i < op->nattrs; i++) {
			char *a = args[i], *eq = strchr(a, '=');

			if (kind == HXD_EDIT_UNSET) {
				attrs[i] = a;
				continue;
			}
			if (eq == NULL) {
				free(attrs);
				return ctl_usage_error(
				    ctl, "'%s' is not ATTR=VALUE", a);
			}
			*eq = '\0';
			attrs[2 * i] = a;
			attrs[2 * i + 1] = eq + 1;
		}
		op->attrs = attrs;
	}
	*attrsp = attrs;
	return 0;
}

/*
 * edit add TYPE [NAME] --in PTYPE[:PNAME] [ATTR=VALUE]... | edit set TYPE
 * NAME ATTR=VALUE... | edit unset TYPE NAME ATTR... | edit remove TYPE
 * NAME | edit attach FILE BODY --to PTYPE[:PNAME] [--prefix P] [--suffix
 * S] [--inline]: one operation as one edit transaction.
 */
int
cmd_edit(struct ctl *ctl)
{
	struct ctl_opt opts[] = {
		{ "--in", OPT_STRING, 0, NULL, 0, 0 },
		{ "--class", OPT_STRING, 0, NULL, 0, 0 },
		{ "--to", OPT_STRING, 0, NULL, 0, 0 },
		{ "--prefix", OPT_STRING, 0, NULL, 0, 0 },
		{ "--suffix", OPT_STRING, 0, NULL, 0, 0 },
		{ "--inline", OPT_FLAG, 0, NULL, 0, 0 },
	};
	const char **attrs = NULL;
	char parent[1024], *removed = NULL;
	hxd_edit_op op;
	hxd_model m;
	int kind, first = 0, rc;

	if ((rc = ctl_options(ctl, opts, NELEM(opts))) != 0)
		return rc;
	if (ctl->npos < 2)
		return ctl_usage_error(ctl,
		    "say add, set, unset, remove or attach, "
		    "and an element type");
	for (kind = 0; kind < 5; kind++)
		if (strcmp(ctl->pos[0], edit_kinds[kind]) == 0)
			break;
	if (kind == 5)
		return ctl_usage_error(ctl,
		    "'%s' is not add, set, unset, remove or attach",
		    ctl->pos[0]);
	memset(&op, 0, sizeof(op));
	if (kind == HXD_EDIT_ATTACH) {
		const char *set[6];
		char *text;

		if ((rc = edit_attach(ctl, opts, &op, set, &text)) != 0)
			return rc;
		if ((rc = ctl_connect(ctl)) == 0)
			rc = edit_done(ctl,
			    hxd_edit_model(ctl->conn, &op, 1, &m, &removed), &m,
			    removed);
		free(text);
		return rc;
	}
	if ((rc = edit_names(ctl, opts, NELEM(opts), kind, &op, parent,
		 sizeof(parent), &first)) != 0 ||
	    (rc = edit_attrs(ctl, kind, ctl->pos + first, &op, &attrs)) != 0)
		return rc;
	if ((rc = ctl_connect(ctl)) != 0) {
		free(attrs);
		return rc;
	}
	rc = hxd_edit_model(ctl->conn, &op, 1, &m, &removed);
	free(attrs);
	return edit_done(ctl, rc, &m, removed);
}

/* Tell what an edit did (rc: hxd_edit_model's); frees removed. */
static int
edit_done(struct ctl *ctl, int rc, const hxd_model *m, char *removed)
{
	if (rc != HXD_OK)
		return ctl_fail(ctl);
	if (ctl->json) {
		js_open('{');
		js_ks("model", m->name);
		js_ki("nbody", m->nbody);
		js_ki("nq", m->nq);
		js_ki("nu", m->nu);
		js_ks("removed", removed != NULL ? removed : "");
		js_close('}');
	} else {
		printf("%-10s %s: nbody %d, nq %d, nu %d\n", "edited", m->name,
		    m->nbody, m->nq, m->nu);
		if (removed != NULL)
			printf("removed\n%s", removed);
	}
	free(removed);
	return CTL_OK;
}
