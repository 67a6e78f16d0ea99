/*
 * The model: its description (info), loading one (load_model), and
 * get_model: the loaded model as MuJoCo's MJB, compressed with zstd, for
 * clients that simulate or render a copy of it (hxview).  The MJB is
 * written fresh on every call, so it carries every change made through
 * the API since the model loaded.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include "api.h"
#include "arena.h"
#include "hold.h"
#include "lifecycle.h"
#include "loadjob.h"
#include "log.h"
#include "modelassets.h"
#include "modeldir.h"
#include "modeltext.h"
#include "options.h"
#include "pending.h"
#include "protomsg.h"
#include "session.h"
#include "sim_describe.h"

/* Map the protocol's model format onto the sim's. */
static enum sim_format
model_format(Haptix__V1__ModelFormat f)
{
	switch (f) {
	case HAPTIX__V1__MODEL_FORMAT__MODEL_FORMAT_MJCF:
		return SIM_FORMAT_MJCF;
	case HAPTIX__V1__MODEL_FORMAT__MODEL_FORMAT_URDF:
		return SIM_FORMAT_URDF;
	case HAPTIX__V1__MODEL_FORMAT__MODEL_FORMAT_MJB:
		return SIM_FORMAT_MJB;
	default:
		return SIM_FORMAT_AUTO;
	}
}

int
api_info(struct call *c)
{
	Haptix__V1__Info *info = NEW(
	    c, Haptix__V1__Info, haptix__v1__info__init);

	sim_describe_info(c->d->sim, c->arena, info);
	PAYLOAD(c, info, INFO, info);
	return RESULT_OK;
}

/* A client's load, while its loader works. */
struct model_load {
	struct session *s;
	uint64_t id;      /* the request to answer */
	int same;         /* a reload: the clients keep their state */
	int edit;         /* an edit: answered with an EditResult */
	char *operations; /* an edit's, "add body box" lines */
	char *full;       /* an edit's in full, for a recording */
	char what[4200];  /* the model, for the logs */
};

/* Free a load's record; NULL is fine. */
static void
model_load_free(struct model_load *l)
{
	if (l == NULL)
		return;
	free(l->operations);
	free(l->full);
	free(l);
}

/* An edit's answer: the model as edited, and what it removed. */
static void
model_edit_answer(
    Response *resp, struct arena *a, struct daemon *d, const char *removed)
{
	Haptix__V1__EditResult *e;

	e = arena_alloc(a, sizeof(*e));
	haptix__v1__edit_result__init(e);
	e->model = protomsg_summary(d, a);
	e->removed = arena_lines(a, removed, &e->n_removed);
	resp->payload_case = HAPTIX__V1__RESPONSE__PAYLOAD_EDIT;
	resp->edit = e;
}

/* The loader is done: answer the client that asked for the load. */
static void
model_loaded(struct daemon *d, void *arg, int code, const char *err)
{
	struct model_load *l = arg;
	Response resp = HAPTIX__V1__RESPONSE__INIT;
	struct arena a = { 0 };

	if (code == LOADJOB_CANCELLED) {
		model_load_free(l);
		return;
	}
	if (code != RESULT_OK) {
		log_warn("client %llu: loading %s failed, keeping the current "
			 "model: %s",
		    (unsigned long long)l->s->id, l->what, err);
		pending_finish(l->s, l->id, code, err, &resp);
		model_load_free(l);
		return;
	}
	log_info("client %llu: %s %s: model \"%s\"",
	    (unsigned long long)l->s->id, l->edit ? "made" : "loaded", l->what,
	    sim_model_name(d->sim));
	if (l->edit)
		lifecycle_model_edited(d, l->operations, err, l->full);
	else
		lifecycle_model_changed(d, l->same, "another model was loaded");
	if (l->edit)
		model_edit_answer(&resp, &a, d, err);
	else {
		resp.payload_case = HAPTIX__V1__RESPONSE__PAYLOAD_MODEL;
		resp.model = protomsg_summary(d, &a);
	}
	pending_finish(l->s, l->id, RESULT_OK, NULL, &resp);
	arena_free(&a);
	model_load_free(l);
}

/*
 * The files an inline model carries (modelassets.h): checked, and packed
 * for its loader into *block (caller frees).  RESULT_OK, or a failure
 * with c->err naming the asset.
 */
static int
model_assets(struct call *c, const Haptix__V1__InlineModel *im,
    enum sim_format format, void **block, size_t *len)
{
	struct model_asset *a;
	size_t i;
	int rc;

	*block = NULL;
	*len = 0;
	if (im->n_assets == 0)
		return RESULT_OK;
	if (im->n_assets > MODELASSETS_MAX)
		return call_fail(c, RESULT_BADSIZE,
		    "%zu assets; a model carries at most %d files",
		    im->n_assets, MODELASSETS_MAX);
	if (sim_is_mjb(format, im->data.data, im->data.len))
		return call_fail(c, RESULT_BADVALUE,
		    "an MJB model names no files: send it without assets "
		    "(%zu given)",
		    im->n_assets);
	a = arena_alloc(c->arena, im->n_assets * sizeof(*a));
	for (i = 0; i < im->n_assets; i++) {
		a[i].name = im->assets[i]->name;
		a[i].data = im->assets[i]->data.data;
		a[i].len = im->assets[i]->data.len;
	}
	rc = modelassets_check(
	    a, im->n_assets, loader_standin(format), c->err, sizeof(c->err));
	if (rc != RESULT_OK)
		return rc;
	*block = modelassets_pack(a, im->n_assets, len);
	return RESULT_OK;
}

/*
 * Loads run in a loader process (loadjob.h): the call is answered when
 * it is done, and the simulation and the other clients go on meanwhile.
 */
int
api_load_model(struct call *c)
{
	const Haptix__V1__LoadModel *lm = c->req->load_model;
	const Haptix__V1__InlineModel *im;
	struct loadjob_request r = { 0 };
	struct daemon *d = c->d;
	struct model_load *l;
	void *assets = NULL;
	char path[4096];
	size_t assets_len = 0;
	int rc;

	if ((l = calloc(1, sizeof(*l))) == NULL)
		fatal("out of memory");
	l->s = c->s;
	l->id = c->req->id;
	r.source = LOADER_FILE;
	r.path = path;
	r.legacy = lm->legacy || d->opts->legacy;
	switch (lm->source_case) {
	case HAPTIX__V1__LOAD_MODEL__SOURCE_PATH:
		rc = modeldir_resolve(
		    lm->path, path, sizeof(path), c->err, sizeof(c->err));
		if (rc == RESULT_OK)
			snprintf(l->what, sizeof(l->what), "%s%s", path,
			    r.legacy ? " (legacy)" : "");
		break;
	case HAPTIX__V1__LOAD_MODEL__SOURCE_INLINE_MODEL:
		im = lm->inline_model;
		if ((int)im->format < 0 ||
		    (int)im->format >
			HAPTIX__V1__MODEL_FORMAT__MODEL_FORMAT_MJB)
			rc = call_fail(c, RESULT_BADVALUE,
			    "unknown model format %d", (int)im->format);
		else if (im->data.len == 0)
			rc = call_fail(
			    c, RESULT_BADSIZE, "the inline model is empty");
		else
			rc = model_assets(c, im, model_format(im->format),
			    &assets, &assets_len);
		r.source = LOADER_INLINE;
		r.format = model_format(im->format);
		r.data = im->data.data;
		r.len = im->data.len;
		r.name = im->name;
		r.legacy = 0;
		r.assets = assets;
		r.assets_len = assets_len;
		r.nassets = im->n_assets;
		if (im->n_assets == 0)
			snprintf(l->what, sizeof(l->what),
			    "inline model \"%.200s\" (%zu bytes)", im->name,
			    im->data.len);
		else
			snprintf(l->what, sizeof(l->what),
			    "inline model \"%.200s\" (%zu bytes, with %zu "
			    "file%s)",
			    im->name, im->data.len, im->n_assets,
			    im->n_assets == 1 ? "" : "s");
		break;
	default:
		if (!sim_loaded(d->sim) || sim_model_path(d->sim)[0] == '\0')
			rc = call_fail(c, RESULT_BADVALUE,
			    "nothing to reload: the current model was not "
			    "loaded from a file");
		else
			rc = RESULT_OK;
		snprintf(path, sizeof(path), "%s", sim_model_path(d->sim));
		r.legacy = d->model->legacy;
		l->same = 1;
		snprintf(l->what, sizeof(l->what), "%s (reload)", path);
		break;
	}
	if (rc == RESULT_OK)
		rc = loadjob_start(
		    d, &r, c->s, model_loaded, l, c->err, sizeof(c->err));
	free(assets);
	if (rc != RESULT_OK) {
		model_load_free(l);
		return rc;
	}
	if (loadjob_count(c->d) > 1)
		log_info("client %llu: %s waits for %zu loads before it",
		    (unsigned long long)c->s->id, l->what,
		    loadjob_count(c->d) - 1);
	return CALL_BUSY;
}

/* Fast, and within a few per cent of the best ratio on MJB files. */
#define MODEL_ZSTD_LEVEL 3

/* What a Response adds around the blob, generously. */
#define MODEL_FRAME_OVERHEAD 1024

int
api_get_model(struct call *c)
{
	Haptix__V1__ModelBlob *b;
	size_t size, bound, packed;
	void *mjb, *z;

	size = sim_mjb_size(c->d->sim);
	mjb = arena_alloc(c->arena, size);
	if ((size = sim_mjb_save(c->d->sim, mjb, size)) == 0)
		return call_fail(
		    c, RESULT_SIMERROR, "out of memory for the model");
	bound = ZSTD_compressBound(size);
	z = arena_alloc(c->arena, bound);
	packed = ZSTD_compress(z, bound, mjb, size, MODEL_ZSTD_LEVEL);
	if (ZSTD_isError(packed))
		return call_fail(c, RESULT_SIMERROR,
		    "cannot compress the model: %s", ZSTD_getErrorName(packed));
	if (packed + MODEL_FRAME_OVERHEAD > c->d->opts->max_frame)
		return call_fail(c, RESULT_BADSIZE,
		    "the model is %zu bytes compressed, more than a frame "
		    "may carry (--max-frame %zu)",
		    packed, c->d->opts->max_frame);
	b = NEW(c, Haptix__V1__ModelBlob, haptix__v1__model_blob__init);
	b->mjb_zstd.data = z;
	b->mjb_zstd.len = packed;
	b->mjb_size = size;
	b->name = (char *)sim_model_name(c->d->sim);
	b->mujoco_version = sim_mujoco_version();
	PAYLOAD(c, model_blob, MODEL_BLOB, b);
	return RESULT_OK;
}

/*
 * List the model directories, after adding the caller's, if asked and
 * allowed: only the Unix socket names its peer's user, and that user
 * must own the directory (modeldir_add), so that a client reaches no
 * file through the daemon that its own user did not put there.
 */
int
api_model_dirs(struct call *c)
{
	const Haptix__V1__ModelDirs *md = c->req->model_dirs;
	Haptix__V1__ModelDirList *l;
	char real[4096];
	int i, rc;

	if (md->add != NULL && md->add[0] != '\0') {
		if (!c->d->opts->user_model_dirs)
			return call_fail(c, RESULT_DENIED,
			    "this server does not let clients add model "
			    "directories (user-model-dirs = no)");
		if (c->s->uid < 0)
			return call_fail(c, RESULT_DENIED,
			    "a model directory can be added only over the "
			    "Unix socket, where the server knows whose it is");
		rc = modeldir_add(md->add, c->s->uid, real, sizeof(real),
		    c->err, sizeof(c->err));
		if (rc != RESULT_OK)
			return rc;
		log_info("client %llu (%s): model directory %s added",
		    (unsigned long long)c->s->id, c->s->peer, real);
	}
	l = NEW(c, Haptix__V1__ModelDirList, haptix__v1__model_dir_list__init);
	l->n_dirs = (size_t)modeldir_count();
	l->dirs = arena_alloc(c->arena, (l->n_dirs + 1) * sizeof(*l->dirs));
	for (i = 0; i < modeldir_count(); i++)
		l->dirs[i] = (char *)modeldir_get(i);
	l->user_dirs = c->d->opts->user_model_dirs != 0;
	PAYLOAD(c, model_dirs, MODEL_DIRS, l);
	return RESULT_OK;
}

int
api_get_model_xml(struct call *c)
{
	Haptix__V1__ModelXml *x;
	char *stripped;
	size_t n;

	if (c->d->model->xml == NULL)
		return call_fail(c, RESULT_BADVALUE,
		    "the model \"%s\" has no MJCF text: it was loaded from "
		    "MJB or URDF",
		    sim_model_name(c->d->sim));
	if (c->d->model->len + MODEL_FRAME_OVERHEAD > c->d->opts->max_frame)
		return call_fail(c, RESULT_BADSIZE,
		    "the model's MJCF text is %zu bytes, more than a frame "
		    "may carry (--max-frame %zu)",
		    c->d->model->len, c->d->opts->max_frame);
	x = NEW(c, Haptix__V1__ModelXml, haptix__v1__model_xml__init);
	x->xml = c->d->model->xml;
	/* The holds' equalities are the daemon's, not the model's. */
	if ((stripped = hold_strip_xml(
		 c->d, c->d->model->xml, c->d->model->len, &n)) != NULL) {
		x->xml = arena_alloc(c->arena, n + 1);
		memcpy(x->xml, stripped, n + 1);
		free(stripped);
	}
	x->name = (char *)sim_model_name(c->d->sim);
	x->dir = c->d->model->dir;
	PAYLOAD(c, model_xml, MODEL_XML, x);
	return RESULT_OK;
}

/*
 * An edit's operations as "kind type name" lines, an attach's with
 * " from SOURCE"; caller frees.
 */
static char *
model_edit_operations(const Haptix__V1__EditModel *em)
{
	static const char *const kinds[] = { "add", "remove", "set", "unset",
		"attach" };
	size_t i, len = 1, off = 0;
	const Haptix__V1__EditOp *op;
	const char *from;
	char *text;

	for (i = 0; i < em->n_ops; i++)
		len += strlen(em->ops[i]->type) + strlen(em->ops[i]->name) +
		    strlen(em->ops[i]->source_file) + 32;
	if ((text = malloc(len)) == NULL)
		fatal("out of memory");
	text[0] = '\0';
	for (i = 0; i < em->n_ops; i++) {
		op = em->ops[i];
		from = op->source_file[0] != '\0' ? op->source_file :
		    op->source_xml[0] != '\0'     ? "inline MJCF" :
						    "this model";
		off += (size_t)snprintf(text + off, len - off,
		    "%s %s%s%s%s%s\n",
		    (unsigned)op->kind < 5 ? kinds[op->kind] : "?", op->type,
		    op->name[0] != '\0' ? " " : "", op->name,
		    op->kind == HAPTIX__V1__EDIT_KIND__EDIT_ATTACH ? " from " :
								     "",
		    op->kind == HAPTIX__V1__EDIT_KIND__EDIT_ATTACH ? from : "");
	}
	return text;
}

/* Append s to the text at *off, XML-quoted ("&quot;", "&#10;", ...). */
static void
model_edit_quoted(char *text, size_t *off, const char *s)
{
	for (; *s != '\0'; s++) {
		switch (*s) {
		case '"':
			*off += (size_t)sprintf(text + *off, "&quot;");
			break;
		case '&':
			*off += (size_t)sprintf(text + *off, "&amp;");
			break;
		case '<':
			*off += (size_t)sprintf(text + *off, "&lt;");
			break;
		case '\n':
			*off += (size_t)sprintf(text + *off, "&#10;");
			break;
		default:
			text[(*off)++] = *s;
		}
	}
	text[*off] = '\0';
}

/*
 * An edit in full, one operation a line, for the recording: 'add body
 * "box" in worldbody "": pos="0 0 1"', 'unset geom "g": rgba', 'set
 * geom "" in default "object": friction="1 0 0"', 'attach body "forearm"
 * in site "s": file="mpl_hand.xml" prefix="left_"'; names and values
 * XML-quoted.  Caller frees.
 */
static char *
model_edit_transaction(const Haptix__V1__EditModel *em)
{
	static const char *const kinds[] = { "add", "remove", "set", "unset",
		"attach" };
	const char *set[4],
	    *const setting[4] = { "file", "xml", "prefix", "suffix" };
	size_t n;
	const Haptix__V1__EditOp *op;
	size_t i, k, len = 1, off = 0;
	char *text;

	/* Each byte quoted takes at most 6, "&quot;". */
	for (i = 0; i < em->n_ops; i++) {
		op = em->ops[i];
		len += 6 *
			(strlen(op->type) + strlen(op->name) +
			    strlen(op->parent_type) + strlen(op->parent_name) +
			    strlen(op->source_file) + strlen(op->source_xml) +
			    strlen(op->prefix) + strlen(op->suffix)) +
		    64;
		for (k = 0; k < op->n_attrs; k++)
			len += 6 *
				(strlen(op->attrs[k]->name) +
				    strlen(op->attrs[k]->value)) +
			    4;
	}
	if ((text = malloc(len)) == NULL)
		fatal("out of memory");
	text[0] = '\0';
	for (i = 0; i < em->n_ops; i++) {
		op = em->ops[i];
		if ((unsigned)op->kind < 5)
			off += (size_t)sprintf(
			    text + off, "%s ", kinds[op->kind]);
		else
			off += (size_t)sprintf(text + off, "%u ", op->kind);
		model_edit_quoted(text, &off, op->type);
		off += (size_t)sprintf(text + off, " \"");
		model_edit_quoted(text, &off, op->name);
		off += (size_t)sprintf(text + off, "\"");
		/* An add's parent; a set's or unset's class, if it names one. */
		if (op->kind == HAPTIX__V1__EDIT_KIND__EDIT_ADD ||
		    op->parent_type[0] != '\0') {
			off += (size_t)sprintf(text + off, " in ");
			model_edit_quoted(text, &off, op->parent_type);
			off += (size_t)sprintf(text + off, " \"");
			model_edit_quoted(text, &off, op->parent_name);
			off += (size_t)sprintf(text + off, "\"");
		}
		/* An attach's settings, those given. */
		set[0] = op->source_file;
		set[1] = op->source_xml;
		set[2] = op->prefix;
		set[3] = op->suffix;
		for (k = 0, n = 0;
		     op->kind == HAPTIX__V1__EDIT_KIND__EDIT_ATTACH && k < 4;
		     k++) {
			if (set[k][0] == '\0')
				continue;
			if (n++ == 0)
				text[off++] = ':';
			off += (size_t)sprintf(
			    text + off, " %s=\"", setting[k]);
			model_edit_quoted(text, &off, set[k]);
			off += (size_t)sprintf(text + off, "\"");
		}
		for (k = 0; k < op->n_attrs; k++) {
			if (k == 0)
				text[off++] = ':';
			text[off++] = ' ';
			model_edit_quoted(text, &off, op->attrs[k]->name);
			if (op->kind == HAPTIX__V1__EDIT_KIND__EDIT_UNSET)
				continue;
			off += (size_t)sprintf(text + off, "=\"");
			model_edit_quoted(text, &off, op->attrs[k]->value);
			off += (size_t)sprintf(text + off, "\"");
		}
		off += (size_t)sprintf(text + off, "\n");
	}
	return text;
}

/*
 * Refuse an edit that names an element with the holds' prefix: their
 * equalities are the daemon's (hold.h).  0, or BADVALUE with c->err set.
 */
static int
model_edit_reserved(struct call *c, const Haptix__V1__EditModel *em)
{
	const Haptix__V1__EditOp *op;
	const char *name;
	size_t i, k;

	for (i = 0; i < em->n_ops; i++) {
		op = em->ops[i];
		name = op->name;
		for (k = 0; k < op->n_attrs && !hold_reserved(name); k++)
			if (strcmp(op->attrs[k]->name, "name") == 0)
				name = op->attrs[k]->value;
		if (hold_reserved(name))
			return call_fail(c, RESULT_BADVALUE,
			    "operation %zu (%s %s): names beginning \"%s\" "
			    "are the daemon's, for joints held on a path",
			    i + 1, op->type, name, HOLD_PREFIX);
	}
	return 0;
}

/* Most operations one edit may hold. */
#define MODEL_EDIT_MAX_OPS 1000

/*
 * An edit transaction (docs/editing.md): the model's MJCF text and the
 * operations go to a loader, which applies them and compiles the result
 * once; the new model takes the running one's state by names.  Nothing
 * changes if an operation or the compile fails.
 */
int
api_edit_model(struct call *c)
{
	const Haptix__V1__EditModel *em = c->req->edit_model;
	struct loadjob_request r = { 0 };
	struct daemon *d = c->d;
	struct model_load *l;
	uint8_t *packed;
	size_t n;
	int rc;

	if (d->model->xml == NULL)
		return call_fail(c, RESULT_BADVALUE,
		    "the model \"%s\" has no MJCF text to edit: it was "
		    "loaded from MJB or URDF",
		    sim_model_name(d->sim));
	if (em->n_ops == 0)
		return call_fail(
		    c, RESULT_BADVALUE, "an edit of no operations");
	if (em->n_ops > MODEL_EDIT_MAX_OPS)
		return call_fail(c, RESULT_BADSIZE,
		    "%zu operations; one edit holds at most %d", em->n_ops,
		    MODEL_EDIT_MAX_OPS);
	if ((rc = model_edit_reserved(c, em)))
		return rc;
	n = haptix__v1__edit_model__get_packed_size(em);
	packed = arena_alloc(c->arena, n);
	haptix__v1__edit_model__pack(em, packed);
	r.source = LOADER_EDIT;
	r.edit = packed;
	r.edit_len = n;
	if ((l = calloc(1, sizeof(*l))) == NULL)
		fatal("out of memory");
	l->s = c->s;
	l->id = c->req->id;
	l->same = 1;
	l->edit = 1;
	snprintf(l->what, sizeof(l->what), "an edit of %zu operation%s",
	    em->n_ops, em->n_ops == 1 ? "" : "s");
	l->operations = model_edit_operations(em);
	l->full = model_edit_transaction(em);
	rc = loadjob_start(
	    d, &r, c->s, model_loaded, l, c->err, sizeof(c->err));
	if (rc != RESULT_OK) {
		model_load_free(l);
		return rc;
	}
	return CALL_BUSY;
}
