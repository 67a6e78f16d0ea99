/*
 * The loader process (see loader.h): it reads one request, enters the
 * sandbox, checks and compiles the model with a MuJoCo of its own, takes
 * a step with it, and answers with the model as MJB.  Whatever the model
 * does to MuJoCo here ends with this process.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <malloc.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "answermem.h"
#include "fdpass.h"
#include "haptix.pb-c.h"
#include "loader.h"
#include "log.h"
#include "mjcf.h"
#include "mjcf_edit.h"
#include "mjcf_legacy.h"
#include "modelassets.h"
#include "modeldir.h"
#include "modelrefs.h"
#include "result.h"
#include "sandbox.h"
#include "sim.h"
#include "sim_carry.h"
#include "sim_check.h"

/* The heap a spare loader faults in while it waits for its job. */
#define LOADER_WARM_BYTES (32u << 20)
#define LOADER_WARM_BLOCK (1u << 20)
#define LOADER_MMAP_THRESHOLD (32 << 20) /* glibc's most on 64 bits */

static int loader_is_mjb(const char *);
static int loader_read(int, void *, size_t);
static int loader_prescan(const char *, const void *, size_t,
    const struct sim_limits *, char *, size_t);
static char *loader_flatten(const char *, const void *, size_t, const char *,
    const struct model_assets *, size_t *);
static int loader_attach_source(const Haptix__V1__EditOp *,
    struct mjcf_edit_op *, size_t, const char *, struct mjcf_doc **, char **,
    char *, size_t);
static int loader_edit(struct sim *, const struct loader_request *,
    const char *, const void *, const struct model_assets *,
    struct loader_text *, char *, size_t);
static int loader_compile(struct sim *, const struct loader_request *,
    const char *, const void *, const struct model_assets *,
    struct loader_text *, char *, size_t);

const char *
loader_standin(enum sim_format fmt)
{
	return fmt == SIM_FORMAT_URDF ? "inline.urdf" : "inline.xml";
}

/* Return 1 if a file's name says it is MJB. */
static int
loader_is_mjb(const char *path)
{
	size_t n = strlen(path);

	return n >= 4 && strcasecmp(path + n - 4, ".mjb") == 0;
}

/* Read exactly size bytes; -1 on a short read. */
static int
loader_read(int fd, void *buf, size_t size)
{
	char *p = buf;
	ssize_t n;

	while (size > 0) {
		n = read(fd, p, size);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		size -= (size_t)n;
	}
	return 0;
}

int
loader_write_all(int fd, const void *buf, size_t size)
{
	const char *p = buf;
	ssize_t n;

	while (size > 0) {
		n = write(fd, p, size);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		size -= (size_t)n;
	}
	return 0;
}

/*
 * The answer's memory, mapped while a spare loader waits for its job
 * (loader_warm_answer), and how much of it; NULL when not mapped.
 */
static char *loader_answer_map;
static size_t loader_answer_mapped;

/*
 * The answer's memory (LOADER_ANSWER_FD), all the room the daemon gave
 * (it cannot grow), mapped to be written, its size in *room, its pages
 * faulted in if populate; NULL when there is none.
 */
static char *
loader_answer_room(int populate, size_t *room)
{
	struct stat st;
	void *p;

	if (fstat(LOADER_ANSWER_FD, &st) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_size <= 0)
		return NULL;
	p = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE,
	    MAP_SHARED | (populate ? MAP_POPULATE : 0), LOADER_ANSWER_FD, 0);
	if (p == MAP_FAILED)
		return NULL;
	*room = (size_t)st.st_size;
	return p;
}

/*
 * What a load came to, before it is laid out as the answer: the code and
 * reason, or the model (s, whose MJB is mjb_len bytes) and its texts.
 */
struct loader_outcome {
	int code;
	char err[4200];
	int legacy;
	struct sim *s;
	size_t mjb_len;
	struct loader_text t;
};

/* The answer's header for o: what follows it, and its whole size. */
static size_t
loader_header(struct loader_result *r, const struct loader_outcome *o)
{
	memset(r, 0, sizeof(*r));
	r->magic = LOADER_MAGIC;
	r->code = o->code;
	r->err_len = o->code != 0 ? (uint32_t)strlen(o->err) : 0;
	r->legacy = (uint32_t)o->legacy;
	if (o->code == 0) {
		r->mjb_len = o->mjb_len;
		if (o->t.xml != NULL) {
			r->xml_len = o->t.xml_len;
			r->dir_len = (uint32_t)strlen(o->t.dir);
		}
		if (o->t.info != NULL)
			r->info_len = (uint32_t)o->t.info_len;
	}
	return sizeof(*r) + r->err_len + r->mjb_len + r->xml_len + r->dir_len +
	    r->info_len;
}

/*
 * Lay out at p the answer that r heads: the header, then the reason, or the
 * model as MJB (written there by MuJoCo) and the texts.  0, or -1 when
 * the model could not be written.
 */
static int
loader_lay_out(
    char *p, const struct loader_result *r, const struct loader_outcome *o)
{
	memcpy(p, r, sizeof(*r));
	p += sizeof(*r);
	memcpy(p, o->err, r->err_len);
	p += r->err_len;
	if (r->mjb_len > 0 && sim_mjb_save(o->s, p, r->mjb_len) != r->mjb_len)
		return -1;
	p += r->mjb_len;
	if (r->xml_len > 0)
		memcpy(p, o->t.xml, r->xml_len);
	p += r->xml_len;
	if (r->dir_len > 0)
		memcpy(p, o->t.dir, r->dir_len);
	p += r->dir_len;
	if (r->info_len > 0)
		memcpy(p, o->t.info, r->info_len);
	return 0;
}

/* o, a failure with the reason err: what it held is let go. */
static void
loader_fail(struct loader_outcome *o, int code, const char *err)
{
	if (err != o->err)
		snprintf(o->err, sizeof(o->err), "%s", err);
	o->code = code;
	free(o->t.xml);
	free(o->t.info);
	o->t.xml = o->t.info = NULL;
	sim_free(o->s);
	o->s = NULL;
}

/* The answer for o in memory (caller frees), *len its size. */
static void *
loader_answer(struct loader_outcome *o, size_t *len)
{
	struct loader_result r;
	char *buf;

	*len = loader_header(&r, o);
	if ((buf = malloc(*len)) == NULL)
		fatal("out of memory");
	if (loader_lay_out(buf, &r, o) == 0)
		return buf;
	free(buf);
	loader_fail(o, RESULT_LOADFAILED,
	    "the loader could not write the model as MJB");
	return loader_answer(o, len);
}

/*
 * The answer for o in the daemon's shared memory (LOADER_ANSWER_FD),
 * written in place (no copy of the 2 MB of a large model through a pipe
 * and two buffers), cut to its size and sealed, so that the daemon reads
 * what cannot change under it.  0, or -1 when there is no such memory,
 * the answer does not fit the room the daemon gave (it cannot grow), or
 * it could not be written: then the answer goes on standard output.
 */
static int
loader_answer_shared(struct loader_outcome *o)
{
	struct loader_result r;
	size_t len = loader_header(&r, o), room = loader_answer_mapped;
	/* Mapped ahead while the spare waited (loader_warm_answer), or now. */
	char *p = loader_answer_map != NULL ? loader_answer_map :
					      loader_answer_room(0, &room);
	int rc;

	loader_answer_map = NULL;
	if (p == NULL)
		return -1;
	if (room < len) {
		munmap(p, room);
		return -1;
	}
	rc = loader_lay_out(p, &r, o);
	/* Sealed against writes once no writable mapping is left. */
	munmap(p, room);
	if (rc != 0 || ftruncate(LOADER_ANSWER_FD, (off_t)len) != 0 ||
	    answermem_seal(LOADER_ANSWER_FD) != 0) {
		(void)ftruncate(LOADER_ANSWER_FD, 0);
		return -1;
	}
	return 0;
}

/*
 * Refuse an MJCF document that declares more than the limits allow
 * before MuJoCo spends time on it: its keys and bodies, the sizes of its
 * height fields and of the textures it builds.  What files add (an
 * include, a PNG) is counted after the compile.
 */
static int
loader_prescan(const char *path, const void *buf, size_t len,
    const struct sim_limits *l, char *err, size_t errlen)
{
	struct mjcf_doc *doc;
	struct mjcf_node *root, *n;
	const char *v, *v2;
	long long bodies = 1, count;
	int rc = RESULT_OK;

	doc = path != NULL ?
	    mjcf_parse_file_lenient(path, err, errlen) :
	    mjcf_parse_buffer_lenient(buf, len, NULL, err, errlen);
	if (doc == NULL)
		return RESULT_OK; /* MuJoCo's own message is the better one */
	root = mjcf_root(doc);
	if (strcmp(root->name, "mujoco") != 0)
		goto out; /* URDF: MuJoCo's limits are its own */
	for (n = mjcf_walk(root, root); n != NULL && rc == RESULT_OK;
	     n = mjcf_walk(root, n)) {
		if (strcmp(n->name, "body") == 0 && ++bodies > l->bodies) {
			snprintf(err, errlen,
			    "the model has more than %lld bodies "
			    "(model-max-bodies)",
			    (long long)l->bodies);
			rc = RESULT_LOADFAILED;
		} else if (strcmp(n->name, "size") == 0 &&
		    (v = mjcf_attr_get(n, "nkey")) != NULL &&
		    (count = atoll(v)) > l->keys) {
			snprintf(err, errlen,
			    "the model declares %lld keys, more than %lld "
			    "(model-max-keys)",
			    count, (long long)l->keys);
			rc = RESULT_LOADFAILED;
		} else if ((strcmp(n->name, "hfield") == 0 &&
			       (v = mjcf_attr_get(n, "nrow")) != NULL &&
			       (v2 = mjcf_attr_get(n, "ncol")) != NULL) ||
		    (strcmp(n->name, "texture") == 0 &&
			(v = mjcf_attr_get(n, "width")) != NULL &&
			(v2 = mjcf_attr_get(n, "height")) != NULL)) {
			count = atoll(v) * atoll(v2);
			if (n->name[0] == 'h' && count > l->hfield_cells) {
				snprintf(err, errlen,
				    "height field of %s x %s cells, more than "
				    "%lld (model-max-hfield)",
				    v, v2, (long long)l->hfield_cells);
				rc = RESULT_LOADFAILED;
			} else if (n->name[0] == 't' &&
			    count > l->texture_pixels) {
				snprintf(err, errlen,
				    "texture of %s x %s pixels, more than %lld "
				    "(model-max-texture)",
				    v, v2, (long long)l->texture_pixels);
				rc = RESULT_LOADFAILED;
			}
		}
	}
out:
	mjcf_free(doc);
	return rc;
}

/* The directory of path, without a trailing slash ("" for none). */
static void
loader_dirname(const char *path, char *dir, size_t len)
{
	char *slash;

	snprintf(dir, len, "%s", path);
	if ((slash = strrchr(dir, '/')) != NULL)
		*slash = '\0';
	else
		dir[0] = '\0';
}

/*
 * The model's MJCF text: the document at path (or in buf, standing in
 * dir) with its includes inlined, those it carries (as) from what it
 * carries.  NULL for a document that is not MJCF (URDF) or that cannot
 * be made one (MuJoCo has compiled it, so that does not happen); *len
 * its length.
 */
static char *
loader_flatten(const char *path, const void *buf, size_t buflen,
    const char *dir, const struct model_assets *as, size_t *len)
{
	struct mjcf_doc *doc;
	char why[1024], d[PATH_MAX], *xml = NULL;

	doc = path != NULL ?
	    mjcf_parse_file_lenient(path, why, sizeof(why)) :
	    mjcf_parse_buffer_lenient(buf, buflen, NULL, why, sizeof(why));
	if (doc == NULL)
		return NULL;
	if (path != NULL) {
		loader_dirname(path, d, sizeof(d));
		dir = d;
	}
	if (strcmp(mjcf_root(doc)->name, "mujoco") == 0 &&
	    mjcf_include_all_vfs(doc, dir,
		as != NULL && as->n > 0 ? modelassets_read : NULL, (void *)as,
		why, sizeof(why)) == 0)
		mjcf_write(doc, &xml, len);
	else
		log_warn("the model's MJCF text is not kept: %s",
		    strcmp(mjcf_root(doc)->name, "mujoco") != 0 ? "not MJCF" :
								  why);
	mjcf_free(doc);
	return xml;
}

/* The attributes of a keyframe that hold values sized by the model. */
static const char *const loader_key_attrs[] = { "qpos", "qvel", "act", "ctrl",
	"mpos", "mquat" };

/* The k-th <key> of doc in document order, or NULL. */
static struct mjcf_node *
loader_key(struct mjcf_doc *doc, int k)
{
	struct mjcf_node *root = mjcf_root(doc), *n;

	for (n = mjcf_walk(root, root); n != NULL; n = mjcf_walk(root, n))
		if (strcmp(n->name, "key") == 0 && k-- == 0)
			return n;
	return NULL;
}

/* sim_carry_keys' writer: a keyframe's new values into the text. */
static void
loader_key_set(void *arg, int k, const char *attr, const char *value)
{
	struct mjcf_node *n = loader_key(arg, k);

	if (n != NULL && value[0] != '\0')
		mjcf_attr_set(n, attr, value);
}

/*
 * Read the model an attach takes from (op), as a client's model is read:
 * a file in the model directories, or inline MJCF standing in one, what
 * either names checked to be inside them, includes inlined.  No source
 * is the model itself (*src NULL).  path is where the edited text
 * stands.  Returns 0 with the source's directory in *dir (malloc'd), or
 * a result code with err naming the operation (op i, in m).
 */
static int
loader_attach_source(const Haptix__V1__EditOp *op, struct mjcf_edit_op *m,
    size_t i, const char *path, struct mjcf_doc **src, char **dir, char *err,
    size_t len)
{
	char what[512], why[3500], real[PATH_MAX], home[PATH_MAX + 16];
	int rc;

	*src = NULL;
	*dir = NULL;
	m->source_label = op->source_file[0] != '\0' ? op->source_file :
	    op->source_xml[0] != '\0'                ? "inline MJCF" :
						       "this model";
	mjcf_edit_describe(m, i, what, sizeof(what));
	if (op->source_file[0] != '\0' && op->source_xml[0] != '\0') {
		snprintf(err, len,
		    "%s: give a source file or inline MJCF, not both", what);
		return RESULT_BADVALUE;
	}
	if (op->source_file[0] == '\0' && op->source_xml[0] == '\0') {
		loader_dirname(path, real, sizeof(real));
		if ((*dir = strdup(real)) == NULL)
			fatal("out of memory");
		return RESULT_OK;
	}
	if (op->source_file[0] != '\0') {
		if ((rc = modeldir_resolve(op->source_file, real, sizeof(real),
			 why, sizeof(why))) != RESULT_OK ||
		    (rc = modelrefs_check(real, NULL, 0, why, sizeof(why))) !=
			RESULT_OK)
			goto fail;
		if ((*src = mjcf_parse_file_lenient(real, why, sizeof(why))) ==
		    NULL) {
			rc = RESULT_LOADFAILED;
			goto fail;
		}
		loader_dirname(real, home, sizeof(home));
	} else {
		if ((rc = modelrefs_home(op->source_xml, strlen(op->source_xml),
			 real, sizeof(real), why, sizeof(why))) != RESULT_OK)
			goto fail;
		snprintf(home, sizeof(home), "%s/inline.xml", real);
		if ((rc = modelrefs_check(home, op->source_xml,
			 strlen(op->source_xml), why, sizeof(why))) !=
		    RESULT_OK)
			goto fail;
		if ((*src = mjcf_parse_buffer_lenient(op->source_xml,
			 strlen(op->source_xml), "the inline source", why,
			 sizeof(why))) == NULL) {
			rc = RESULT_LOADFAILED;
			goto fail;
		}
		snprintf(home, sizeof(home), "%s", real);
	}
	if (strcmp(mjcf_root(*src)->name, "mujoco") != 0) {
		snprintf(why, sizeof(why),
		    "the source is not MJCF (its root is <%s>)",
		    mjcf_root(*src)->name);
		rc = RESULT_BADVALUE;
		goto fail;
	}
	if (mjcf_include_all(*src, home, why, sizeof(why)) != 0) {
		rc = RESULT_LOADFAILED;
		goto fail;
	}
	if ((*dir = strdup(home)) == NULL)
		fatal("out of memory");
	return RESULT_OK;
fail:
	mjcf_free(*src);
	*src = NULL;
	snprintf(err, len, "%s: %s", what, why);
	return rc;
}

/* The assets as the sim's VFS files (caller frees); NULL for none. */
static struct sim_file *
loader_files(const struct model_assets *as)
{
	struct sim_file *f;
	size_t i;

	if (as == NULL || as->n == 0)
		return NULL;
	if ((f = calloc(as->n, sizeof(*f))) == NULL)
		fatal("out of memory");
	for (i = 0; i < as->n; i++) {
		f[i].name = as->v[i].name;
		f[i].data = as->v[i].data;
		f[i].size = as->v[i].len;
	}
	return f;
}

/*
 * Compile MJCF text (or URDF, or MJB) standing at path (NULL: inline)
 * with the assets in MuJoCo's VFS beside it; 0, or -1 with err.
 */
static int
loader_load(struct sim *s, enum sim_format fmt, const void *data, size_t n,
    const char *path, const struct model_assets *as, char *err, size_t len)
{
	struct sim_file *files = loader_files(as);
	int rc;

	rc = sim_load_buffer_with(s, fmt, data, n, NULL, path, files,
	    files != NULL ? as->n : 0, err, len);
	free(files);
	return rc;
}

/*
 * Edit the model's MJCF text (data) with the edit that follows it, and
 * compile the result where the text stands (path, in its directory),
 * with the files the model carries (as) beside it.
 */
static int
loader_edit(struct sim *s, const struct loader_request *r, const char *path,
    const void *data, const struct model_assets *as, struct loader_text *t,
    char *err, size_t len)
{
	Haptix__V1__EditModel *em;
	struct mjcf_edit_op *ops = NULL;
	struct mjcf_edit_removed removed = { NULL, 0 };
	const char **names = NULL, **values = NULL;
	struct mjcf_node *key;
	struct mjcf_doc *doc, **sources = NULL;
	struct sim *old = NULL;
	char *xml = NULL, **dirs = NULL;
	size_t i, k, natt = 0, n;
	int rc = RESULT_BADVALUE;

	em = haptix__v1__edit_model__unpack(
	    NULL, r->edit_len, (const uint8_t *)data + r->data_len);
	if (em == NULL) {
		snprintf(err, len, "the edit cannot be read");
		return RESULT_BADPROTOCOL;
	}
	if ((doc = mjcf_parse_buffer_lenient(
		 data, r->data_len, "the model", err, len)) == NULL) {
		haptix__v1__edit_model__free_unpacked(em, NULL);
		return RESULT_LOADFAILED;
	}
	for (i = 0; i < em->n_ops; i++)
		natt += em->ops[i]->n_attrs;
	ops = calloc(em->n_ops + 1, sizeof(*ops));
	names = calloc(natt + 1, sizeof(*names));
	values = calloc(natt + 1, sizeof(*values));
	sources = calloc(em->n_ops + 1, sizeof(*sources));
	dirs = calloc(em->n_ops + 1, sizeof(*dirs));
	if (ops == NULL || names == NULL || values == NULL || sources == NULL ||
	    dirs == NULL)
		fatal("out of memory");
	for (i = 0, natt = 0; i < em->n_ops; i++) {
		ops[i].kind = (enum mjcf_edit_kind)em->ops[i]->kind;
		ops[i].type = em->ops[i]->type;
		ops[i].name = em->ops[i]->name;
		ops[i].parent_type = em->ops[i]->parent_type;
		ops[i].parent_name = em->ops[i]->parent_name;
		ops[i].attr_names = names + natt;
		ops[i].attr_values = values + natt;
		ops[i].nattrs = em->ops[i]->n_attrs;
		for (k = 0; k < em->ops[i]->n_attrs; k++, natt++) {
			names[natt] = em->ops[i]->attrs[k]->name;
			values[natt] = em->ops[i]->attrs[k]->value;
		}
		if (ops[i].kind != MJCF_EDIT_ATTACH)
			continue;
		ops[i].prefix = em->ops[i]->prefix;
		ops[i].suffix = em->ops[i]->suffix;
		if ((rc = loader_attach_source(em->ops[i], &ops[i], i, path,
			 &sources[i], &dirs[i], err, len)) != RESULT_OK)
			goto out;
		ops[i].source = sources[i];
		ops[i].source_dir = dirs[i];
	}
	rc = RESULT_BADVALUE;
	/*
	 * Keyframes hold values sized by the model: the old model is
	 * compiled too, the keyframes' values are taken out of the text
	 * for the compile, and then carried over by names.
	 */
	if (loader_key(doc, 0) != NULL) {
		old = sim_create();
		if (loader_load(old, SIM_FORMAT_MJCF, data, r->data_len, path,
			as, err, len) != 0) {
			rc = RESULT_LOADFAILED;
			goto out;
		}
	}
	if (mjcf_edit_apply(doc, ops, em->n_ops, &removed, err, len) != 0)
		goto out;
	if (old != NULL)
		for (k = 0; (key = loader_key(doc, (int)k)) != NULL; k++)
			for (i = 0; i < sizeof(loader_key_attrs) /
				 sizeof(loader_key_attrs[0]);
			     i++)
				mjcf_attr_remove(key, loader_key_attrs[i]);
	mjcf_write(doc, &xml, &n);
	/* What the edit names is checked as a client's model is. */
	if ((rc = modelrefs_check_assets(path, xml, n,
		 as != NULL ? as->v : NULL, as != NULL ? as->n : 0, err,
		 len)) != 0 ||
	    (rc = loader_prescan(NULL, xml, n, &r->limits.model, err, len)) !=
		0)
		goto out;
	if (loader_load(s, SIM_FORMAT_MJCF, xml, n, path, as, err, len) != 0) {
		rc = RESULT_LOADFAILED;
		goto out;
	}
	if (old != NULL) {
		sim_carry_keys(s, old, loader_key_set, doc);
		free(xml);
		mjcf_write(doc, &xml, &n);
	}
	t->xml = xml;
	t->xml_len = n;
	xml = NULL;
	loader_dirname(path, t->dir, sizeof(t->dir));
	t->info = removed.text;
	t->info_len = removed.len;
	removed.text = NULL;
	rc = RESULT_OK;
out:
	for (i = 0; i < em->n_ops; i++) {
		mjcf_free(sources[i]);
		free(dirs[i]);
	}
	free(sources);
	free(dirs);
	sim_free(old);
	free(xml);
	free(removed.text);
	free(ops);
	free(names);
	free(values);
	mjcf_free(doc);
	haptix__v1__edit_model__free_unpacked(em, NULL);
	return rc;
}

/*
 * Compile the model the request names into s; 0 or a result code.  An
 * MJCF model's text, includes inlined, goes into *xml (caller frees;
 * NULL for URDF and MJB).
 */
static int
loader_compile(struct sim *s, const struct loader_request *r, const char *path,
    const void *data, const struct model_assets *as, struct loader_text *t,
    char *err, size_t len)
{
	struct mjcf_legacy_log *changes;
	char why[1024], *xml = NULL, home[PATH_MAX], standin[PATH_MAX + 16];
	size_t n, i;
	int rc, mjb;

	if (r->source == LOADER_EDIT)
		return loader_edit(s, r, path, data, as, t, err, len);
	if (as->n > 0 &&
	    (r->source == LOADER_FILE ||
		sim_is_mjb((enum sim_format)r->format, data, r->data_len))) {
		snprintf(err, len, "%s names no files: send it without assets",
		    r->source == LOADER_FILE ? "a model file of the model "
					       "directories" :
					       "an MJB model");
		return RESULT_BADVALUE;
	}
	if (r->source == LOADER_FILE) {
		mjb = loader_is_mjb(path);
		if (!mjb &&
		    ((rc = modelrefs_check(path, NULL, 0, err, len)) != 0 ||
			(rc = loader_prescan(
			     path, NULL, 0, &r->limits.model, err, len)) != 0))
			return rc;
		if (mjb)
			return sim_load_file(s, path, err, len) == 0 ?
			    RESULT_OK :
			    RESULT_LOADFAILED;
		if (!r->legacy) {
			if (sim_load_file(s, path, err, len) != 0)
				return RESULT_LOADFAILED;
			t->xml = loader_flatten(
			    path, NULL, 0, NULL, NULL, &t->xml_len);
			loader_dirname(path, t->dir, sizeof(t->dir));
			return RESULT_OK;
		}
		changes = mjcf_legacy_log_create();
		if (mjcf_legacy_file(
			path, &xml, &n, changes, why, sizeof(why)) != 0) {
			/* MuJoCo reads some files the translation cannot. */
			mjcf_legacy_log_free(changes);
			if (sim_load_file(s, path, err, len) == 0) {
				t->xml = loader_flatten(
				    path, NULL, 0, NULL, NULL, &t->xml_len);
				loader_dirname(path, t->dir, sizeof(t->dir));
				return RESULT_OK;
			}
			if (strlen(err) + 1 < len)
				snprintf(err + strlen(err), len - strlen(err),
				    " (the legacy translation failed too: %s)",
				    why);
			return RESULT_LOADFAILED;
		}
		for (i = 0; i < mjcf_legacy_log_count(changes); i++)
			log_info("legacy translation of %s: %s", path,
			    mjcf_legacy_log_line(changes, i));
		if (mjcf_legacy_log_count(changes) == 0)
			log_info("legacy translation of %s: nothing to change",
			    path);
		mjcf_legacy_log_free(changes);
		/* Loaded under its own path: assets resolve against its
		 * directory. */
		rc = sim_load_buffer(
		    s, SIM_FORMAT_MJCF, xml, n, NULL, path, err, len);
		if (rc != 0) {
			free(xml);
			return RESULT_LOADFAILED;
		}
		/* What MuJoCo compiled: the translation, includes inlined. */
		t->xml = xml;
		t->xml_len = n;
		loader_dirname(path, t->dir, sizeof(t->dir));
		return RESULT_OK;
	}
	if (sim_is_mjb((enum sim_format)r->format, data, r->data_len))
		return sim_load_buffer(s, (enum sim_format)r->format, data,
			   r->data_len, NULL, NULL, err, len) == 0 ?
		    RESULT_OK :
		    RESULT_LOADFAILED;
	/*
	 * The model stands in a model directory as a file there would, and
	 * MuJoCo reads it there: what it includes or names resolves alike.
	 */
	if ((rc = modelrefs_home_assets(data, r->data_len, as->v, as->n, home,
		 sizeof(home), err, len)) != 0)
		return rc;
	snprintf(standin, sizeof(standin), "%s/%s", home,
	    loader_standin((enum sim_format)r->format));
	if ((rc = modelrefs_check_assets(
		 standin, data, r->data_len, as->v, as->n, err, len)) != 0 ||
	    (r->format != SIM_FORMAT_URDF &&
		(rc = loader_prescan(NULL, data, r->data_len, &r->limits.model,
		     err, len)) != 0))
		return rc;
	if (loader_load(s, (enum sim_format)r->format, data, r->data_len,
		standin, as, err, len) != 0)
		return RESULT_LOADFAILED;
	if (r->format != SIM_FORMAT_URDF) {
		t->xml = loader_flatten(
		    NULL, data, r->data_len, home, as, &t->xml_len);
		snprintf(t->dir, sizeof(t->dir), "%s", home);
	}
	return RESULT_OK;
}

/*
 * Read the request's assets (block) into as, checked as the daemon
 * checked them, for a model standing at path (NULL: inline); 0, or a
 * result code with err.
 */
static int
loader_assets(const struct loader_request *r, const char *path,
    const void *block, struct model_assets *as, char *err, size_t len)
{
	struct model_asset *v;
	const char *file;
	char why[256];

	as->v = NULL;
	as->n = 0;
	if (r->nassets == 0 && r->assets_len == 0)
		return RESULT_OK;
	if (modelassets_unpack(
		block, r->assets_len, r->nassets, &v, why, sizeof(why)) != 0) {
		snprintf(err, len, "the loader's request is broken: %s", why);
		return RESULT_BADPROTOCOL;
	}
	as->v = v;
	as->n = r->nassets;
	file = r->source == LOADER_INLINE ?
	    loader_standin((enum sim_format)r->format) :
	    path;
	return modelassets_check(as->v, as->n, file, err, len);
}

/*
 * The load request r asks for (path, data and the assets as they follow
 * it), into o: a model and its texts, or why not.
 */
static void
loader_run(const struct loader_request *r, const char *path, const void *data,
    const void *assets, struct loader_outcome *o)
{
	struct model_assets as;
	int rc;

	memset(o, 0, sizeof(*o));
	o->s = sim_create();
	rc = loader_assets(r, path, assets, &as, o->err, sizeof(o->err));
	if (rc == RESULT_OK)
		rc = loader_compile(
		    o->s, r, path, data, &as, &o->t, o->err, sizeof(o->err));
	free((void *)as.v);
	if (rc == RESULT_OK &&
	    sim_check_limits(o->s, &r->limits.model, o->err, sizeof(o->err)) !=
		0)
		rc = RESULT_LOADFAILED;
	/* A step, so that what would crash the daemon's first crashes here. */
	if (rc == RESULT_OK) {
		sim_before_step(o->s);
		if (sim_step(o->s, o->err, sizeof(o->err)) != 0)
			rc = RESULT_LOADFAILED;
	}
	if (rc != RESULT_OK) {
		loader_fail(o, rc, o->err);
		return;
	}
	o->legacy = r->source == LOADER_FILE && r->legacy &&
	    !loader_is_mjb(path);
	o->mjb_len = sim_mjb_size(o->s);
}

/* What loader_run held, let go. */
static void
loader_outcome_free(struct loader_outcome *o)
{
	free(o->t.xml);
	free(o->t.info);
	sim_free(o->s);
}

void *
loader_work(const struct loader_request *r, const char *path, const void *data,
    const void *assets, size_t *len)
{
	struct loader_outcome o;
	void *answer;

	loader_run(r, path, data, assets, &o);
	answer = loader_answer(&o, len);
	loader_outcome_free(&o);
	return answer;
}

int
loader_read_request(int fd, struct loader_request *r, char **path, char **dirs,
    char **data, char **assets, char *err, size_t len)
{
	*path = *dirs = *data = *assets = NULL;
	if (loader_read(fd, r, sizeof(*r)) != 0 || r->magic != LOADER_MAGIC ||
	    r->path_len > 65536 || r->dirs_len > 65536 ||
	    r->data_len > LOADER_MAX_DATA || r->edit_len > LOADER_MAX_DATA ||
	    r->assets_len > LOADER_MAX_DATA || r->nassets > MODELASSETS_MAX) {
		snprintf(err, len, "bad request to the loader");
		return -1;
	}
	*path = calloc(1, r->path_len + 1);
	*dirs = calloc(1, r->dirs_len + 1);
	*data = malloc(r->data_len + r->edit_len + 1);
	*assets = malloc(r->assets_len + 1);
	if (*path == NULL || *dirs == NULL || *data == NULL || *assets == NULL)
		fatal("out of memory");
	if (loader_read(fd, *path, r->path_len) != 0 ||
	    loader_read(fd, *dirs, r->dirs_len) != 0 ||
	    loader_read(fd, *data, r->data_len + r->edit_len) != 0 ||
	    loader_read(fd, *assets, r->assets_len) != 0) {
		snprintf(err, len, "the loader could not read its request");
		return -1;
	}
	return 0;
}

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22 /* Linux 5.14 */
#endif

/* Set when the spare's job has come: its warming stops. */
static atomic_int loader_job_came;

/*
 * Map in the pages of the program's files the process has mapped
 * (MuJoCo's compiler, libstdc++ and the rest): they are in the page
 * cache already, and each first touch of one would be a fault in the
 * compile.  A kernel without MADV_POPULATE_READ: nothing done.
 */
static void
loader_warm_code(void)
{
	unsigned long from, to;
	char line[512], perm[8];
	FILE *f;

	if ((f = fopen("/proc/self/maps", "re")) == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL &&
	    !atomic_load_explicit(&loader_job_came, memory_order_relaxed)) {
		if (sscanf(line, "%lx-%lx %7s", &from, &to, perm) != 3 ||
		    perm[0] != 'r' || strchr(line, '/') == NULL)
			continue;
		(void)madvise((void *)from, to - from, MADV_POPULATE_READ);
	}
	fclose(f);
}

/*
 * Map the answer's memory, sized as the last answer was, and fault it
 * in: its pages are the kernel's to zero and map (2 MB of the MPL
 * scene's: a millisecond of an edit), now rather than when the answer is
 * written.  (fallocate would not do: it leaves the pages to be zeroed at
 * their first touch.)
 */
static void
loader_warm_answer(void)
{
	loader_answer_map = loader_answer_room(1, &loader_answer_mapped);
}

/*
 * While it waits, a spare loader faults in the memory a compile and a
 * model's data take (tens of megabytes, zeroed page by page by the
 * kernel: a third of an edit's time), and keeps it in the heap: blocks
 * up to glibc's largest mmap threshold (32 MiB) come from the heap, not
 * fresh mappings (a larger threshold is refused, and left the heap
 * cold), and freed memory stays.  It is faulted in as blocks below the
 * threshold, which the heap keeps when they are freed, by a write to
 * each page (a memset to zero of fresh memory is calloc's to a compiler,
 * which knows the pages are zero and touches none: the heap stayed
 * cold).  Nothing of a model is read yet.
 */
static void
loader_warm_heap(void)
{
	char *p[LOADER_WARM_BYTES / LOADER_WARM_BLOCK] = { NULL };
	size_t i, off;

	for (i = 0; i < sizeof(p) / sizeof(p[0]); i++) {
		if ((p[i] = malloc(LOADER_WARM_BLOCK)) == NULL)
			break;
		/* A job that came meanwhile goes first: the rest stays cold. */
		for (off = 0; off < LOADER_WARM_BLOCK; off += 4096) {
			if (atomic_load_explicit(
				&loader_job_came, memory_order_relaxed))
				goto done;
			((volatile char *)p[i])[off] = 1;
		}
	}
done:
	for (i = 0; i < sizeof(p) / sizeof(p[0]); i++)
		free(p[i]);
}

/*
 * The warming, in a thread of the idle class: it takes only a CPU
 * nothing else wants, so the load running meanwhile (the last job's
 * compile, the daemon installing its answer, the last loader's end)
 * keeps both of a small machine's CPUs.  What a compile touches first
 * goes first (the answer's memory, then the heap from its start, if
 * *arg says the heap keeps it); a job that comes stops it, and the rest
 * stays cold.
 */
static void *
loader_warm_fn(void *arg)
{
	struct sched_param none = { 0 };

	(void)pthread_setschedparam(pthread_self(), SCHED_IDLE, &none);
	loader_warm_answer();
	if (*(const int *)arg)
		loader_warm_heap();
	loader_warm_code();
	return NULL;
}

/*
 * A loader started ahead of its job (loadjob.c) has a socket for its
 * standard input: it waits there, having read nothing, for the job's
 * request file, which becomes its standard input.  One started for its
 * job has the file already.  0, or -1 when no job came.
 */
static int
loader_wait_for_job(void)
{
	static int heap_kept;
	struct stat st;
	pthread_t warm;
	int fds[FDPASS_MAX], n = 0, i, warming;
	ssize_t got;
	char b;

	if (fstat(0, &st) != 0 || !S_ISSOCK(st.st_mode))
		return 0;
	/*
	 * One heap for both threads, so that the one the compile uses is
	 * the one warmed; it keeps what is freed.  Where the allocator takes
	 * no such settings (AddressSanitizer's), the heap is not warmed; the
	 * answer's memory and the libraries are.
	 */
	heap_kept = mallopt(M_ARENA_MAX, 1) == 1 &&
	    mallopt(M_MMAP_THRESHOLD, LOADER_MMAP_THRESHOLD) == 1 &&
	    mallopt(M_TRIM_THRESHOLD, -1) == 1;
	warming = pthread_create(&warm, NULL, loader_warm_fn, &heap_kept) == 0;
	got = fdpass_recv(0, &b, 1, fds, &n);
	/* The sandbox is entered by this process's only thread. */
	atomic_store(&loader_job_came, 1);
	if (warming)
		pthread_join(warm, NULL);
	if (got != 1 || n != 1) {
		for (i = 0; i < n; i++)
			close(fds[i]);
		return -1;
	}
	if (dup2(fds[0], 0) == -1) {
		close(fds[0]);
		return -1;
	}
	close(fds[0]);
	return 0;
}

int
loader_main(void)
{
	struct loader_request r;
	struct loader_outcome o;
	char err[512], *path, *dirs, *data, *assets, *p;
	const char *dirv[64];
	void *answer;
	size_t len;
	int ndirs = 0, rc = 0;

	sim_lean = 1;
	if (loader_wait_for_job() != 0)
		return 1; /* the daemon went, or put it away: no job */
	if (loader_read_request(
		0, &r, &path, &dirs, &data, &assets, err, sizeof(err)) != 0 ||
	    sandbox_enter(LOADER_ANSWER_FD, r.limits.seconds, r.limits.memory,
		err, sizeof(err)) != 0) {
		memset(&o, 0, sizeof(o));
		loader_fail(&o, RESULT_LOADFAILED, err);
	} else {
		for (p = dirs; p < dirs + r.dirs_len && ndirs < 64;
		     p += strlen(p) + 1)
			dirv[ndirs++] = p;
		modeldir_init(dirv, ndirs);
		loader_run(&r, path, data, assets, &o);
	}
	if (loader_answer_shared(&o) != 0) {
		answer = loader_answer(&o, &len);
		rc = loader_write_all(1, answer, len) == 0 ? 0 : 1;
		free(answer);
	}
	/*
	 * The daemon installs on the pipe's end, while this process exits:
	 * in the idle class, since its end (letting go of tens of megabytes)
	 * took the CPU the daemon woke on for milliseconds of the install.
	 */
	(void)sched_setscheduler(0, SCHED_IDLE, &(struct sched_param){ 0 });
	close(1);
	loader_outcome_free(&o);
	free(assets);
	free(data);
	free(dirs);
	free(path);
	return rc;
}
