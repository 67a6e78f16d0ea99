/*
 * The model (haptixd.h): its description (hxd_info_get), loading one
 * (from a file, inline, again), and the current model as MuJoCo's MJB:
 * fetched compressed with zstd and handed over decompressed, checked
 * against the size the server announced.  The library never reads the
 * MJB itself.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include "request.h"

/* hxd_info: arrays counted by the model summary's sizes. */
static const struct decode_field info_fields[] = DECODE_TABLE(hxd_info, Info);

int
hxd_info_get(hxd_conn *c, hxd_info **out)
{
	Response *r;
	int rc;

	*out = NULL;
	rc = request_call(c, HAPTIX__V1__REQUEST__CALL_INFO, NULL,
	    HAPTIX__V1__RESPONSE__PAYLOAD_INFO, &r);
	if (rc != HXD_OK)
		return rc;
	*out = decode_payload(
	    c, r, info_fields, NELEM(info_fields), sizeof(**out));
	if (*out != NULL)
		conn_model_from_wire(&(*out)->model, r->info->model);
	conn_free_response(r);
	return c->result;
}

/* Run a load request and keep the new model's summary. */
static int
call_load(hxd_conn *c, Haptix__V1__LoadModel *w, hxd_model *out)
{
	Response *r;
	int rc;

	rc = request_call(c, HAPTIX__V1__REQUEST__CALL_LOAD_MODEL, w,
	    HAPTIX__V1__RESPONSE__PAYLOAD_MODEL, &r);
	if (rc != HXD_OK)
		return rc;
	conn_model_from_wire(&c->model, r->model);
	if (out != NULL)
		*out = c->model;
	conn_free_response(r);
	return rc;
}

/* Load the model file at path (a server's path), translated if legacy. */
static int
load_path(hxd_conn *c, const char *path, int legacy, hxd_model *out)
{
	Haptix__V1__LoadModel w = HAPTIX__V1__LOAD_MODEL__INIT;

	if (path == NULL || *path == '\0')
		return conn_fail(c, HXD_BADVALUE, "no model path given");
	w.source_case = HAPTIX__V1__LOAD_MODEL__SOURCE_PATH;
	w.path = (char *)path;
	w.legacy = legacy != 0;
	return call_load(c, &w, out);
}

int
hxd_load_file(hxd_conn *c, const char *path, hxd_model *out)
{
	return load_path(c, path, 0, out);
}

int
hxd_load_legacy(hxd_conn *c, const char *path, hxd_model *out)
{
	return load_path(c, path, 1, out);
}

int
hxd_load_data(hxd_conn *c, int format, const void *data, size_t len,
    const char *name, hxd_model *out)
{
	return hxd_load_inline_assets(c, format, data, len, name, NULL, 0, out);
}

int
hxd_load_inline_assets(hxd_conn *c, int format, const void *data, size_t len,
    const char *name, const hxd_asset *assets, int n, hxd_model *out)
{
	Haptix__V1__LoadModel w = HAPTIX__V1__LOAD_MODEL__INIT;
	Haptix__V1__InlineModel m = HAPTIX__V1__INLINE_MODEL__INIT;
	Haptix__V1__InlineAsset *a = NULL, **ap = NULL;
	int i, rc;

	if (data == NULL || len == 0)
		return conn_fail(c, HXD_BADSIZE, "no model data given");
	if (n < 0 || (n > 0 && assets == NULL))
		return conn_fail(c, HXD_BADVALUE, "%d assets%s", n,
		    n < 0 ? "" : " and no array of them");
	/* The server judges the names; what C cannot send is caught here. */
	for (i = 0; i < n; i++)
		if (assets[i].name == NULL ||
		    (assets[i].data == NULL && assets[i].len > 0))
			return conn_fail(c, HXD_BADVALUE, "asset %d: a NULL %s",
			    i + 1, assets[i].name == NULL ? "name" : "data");
	if (n > 0 &&
	    ((a = calloc((size_t)n, sizeof(*a))) == NULL ||
		(ap = calloc((size_t)n, sizeof(*ap))) == NULL)) {
		free(a);
		return conn_fail(c, HXD_CANNOTSEND, "out of memory");
	}
	for (i = 0; i < n; i++) {
		haptix__v1__inline_asset__init(&a[i]);
		a[i].name = (char *)assets[i].name;
		a[i].data.data = (uint8_t *)assets[i].data;
		a[i].data.len = assets[i].len;
		ap[i] = &a[i];
	}
	m.format = (Haptix__V1__ModelFormat)format;
	m.data.data = (uint8_t *)data;
	m.data.len = len;
	m.name = (char *)(name != NULL ? name : "");
	m.n_assets = (size_t)n;
	m.assets = ap;
	w.source_case = HAPTIX__V1__LOAD_MODEL__SOURCE_INLINE_MODEL;
	w.inline_model = &m;
	rc = call_load(c, &w, out);
	free(a);
	free(ap);
	return rc;
}

int
hxd_reload(hxd_conn *c, hxd_model *out)
{
	Haptix__V1__LoadModel w = HAPTIX__V1__LOAD_MODEL__INIT;

	return call_load(c, &w, out);
}

int
hxd_model_dirs(hxd_conn *c, const char *add, char ***dirs, int *user)
{
	Haptix__V1__ModelDirs w = HAPTIX__V1__MODEL_DIRS__INIT;
	const Haptix__V1__ModelDirList *l;
	Response *r;
	size_t i, size;
	char **v, *p;
	int rc;

	w.add = (char *)(add != NULL ? add : "");
	rc = request_call(c, HAPTIX__V1__REQUEST__CALL_MODEL_DIRS, &w,
	    HAPTIX__V1__RESPONSE__PAYLOAD_MODEL_DIRS, &r);
	if (rc != HXD_OK)
		return rc;
	l = r->model_dirs;
	if (user != NULL)
		*user = l->user_dirs;
	if (dirs != NULL) {
		size = (l->n_dirs + 1) * sizeof(*v);
		for (i = 0; i < l->n_dirs; i++)
			size += strlen(l->dirs[i]) + 1;
		if ((v = malloc(size)) == NULL) {
			conn_free_response(r);
			return conn_fail(c, HXD_CANNOTRECV, "out of memory");
		}
		p = (char *)(v + l->n_dirs + 1);
		for (i = 0; i < l->n_dirs; i++) {
			v[i] = strcpy(p, l->dirs[i]);
			p += strlen(p) + 1;
		}
		v[i] = NULL;
		*dirs = v;
	}
	conn_free_response(r);
	return HXD_OK;
}

void
hxd_model_blob_free(hxd_model_blob *b)
{
	if (b == NULL)
		return;
	free(b->mjb);
	memset(b, 0, sizeof(*b));
}

int
hxd_get_model(hxd_conn *c, hxd_model_blob *out)
{
	const Haptix__V1__ModelBlob *b;
	unsigned long long frame;
	Response *r;
	size_t n;
	void *mjb;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = request_call(c, HAPTIX__V1__REQUEST__CALL_GET_MODEL, NULL,
	    HAPTIX__V1__RESPONSE__PAYLOAD_MODEL_BLOB, &r);
	if (rc != HXD_OK)
		return rc;
	b = r->model_blob;
	frame = ZSTD_getFrameContentSize(b->mjb_zstd.data, b->mjb_zstd.len);
	if (b->mjb_size == 0 || b->mjb_size > HXD_MODEL_MAX ||
	    frame != b->mjb_size) {
		rc = conn_fail(c, HXD_BADPROTOCOL,
		    "the server sent a model of %llu bytes that says it holds "
		    "%llu (limit %llu)",
		    (unsigned long long)b->mjb_size, frame,
		    (unsigned long long)HXD_MODEL_MAX);
		conn_free_response(r);
		return rc;
	}
	if ((mjb = malloc(b->mjb_size)) == NULL) {
		rc = conn_fail(c, HXD_CANNOTRECV,
		    "out of memory for a model of %llu bytes",
		    (unsigned long long)b->mjb_size);
		conn_free_response(r);
		return rc;
	}
	n = ZSTD_decompress(
	    mjb, b->mjb_size, b->mjb_zstd.data, b->mjb_zstd.len);
	if (ZSTD_isError(n) || n != b->mjb_size) {
		free(mjb);
		conn_free_response(r);
		return conn_fail(c, HXD_BADPROTOCOL,
		    "the server's model does not decompress: %s",
		    ZSTD_isError(n) ? ZSTD_getErrorName(n) : "short");
	}
	out->mjb = mjb;
	out->size = n;
	snprintf(
	    out->name, sizeof(out->name), "%s", b->name != NULL ? b->name : "");
	out->mujoco_version = b->mujoco_version;
	conn_free_response(r);
	return conn_ok(c);
}

int
hxd_get_model_xml(hxd_conn *c, char **xml, char *dir, size_t dirlen)
{
	Response *r;
	int rc;

	*xml = NULL;
	rc = request_call(c, HAPTIX__V1__REQUEST__CALL_GET_MODEL_XML, NULL,
	    HAPTIX__V1__RESPONSE__PAYLOAD_MODEL_XML, &r);
	if (rc != HXD_OK)
		return rc;
	if ((*xml = strdup(r->model_xml->xml)) == NULL) {
		conn_free_response(r);
		return conn_fail(c, HXD_CANNOTRECV, "out of memory");
	}
	if (dir != NULL && dirlen > 0)
		snprintf(dir, dirlen, "%s", r->model_xml->dir);
	conn_free_response(r);
	return conn_ok(c);
}

/*
 * An attach's settings, given as attrs pairs, into its wire op w;
 * HXD_OK, or HXD_BADVALUE naming one it does not know.
 */
static int
edit_attach_settings(
    hxd_conn *c, const hxd_edit_op *op, int i, Haptix__V1__EditOp *w)
{
	const char *name, *value;
	int j;

	for (j = 0; j < op->nattrs; j++) {
		name = op->attrs[2 * j];
		value = op->attrs[2 * j + 1];
		if (name == NULL || value == NULL)
			return conn_fail(c, HXD_BADVALUE,
			    "operation %d: setting %d is NULL", i + 1, j + 1);
		if (strcmp(name, "file") == 0)
			w->source_file = (char *)value;
		else if (strcmp(name, "xml") == 0)
			w->source_xml = (char *)value;
		else if (strcmp(name, "prefix") == 0)
			w->prefix = (char *)value;
		else if (strcmp(name, "suffix") == 0)
			w->suffix = (char *)value;
		else
			return conn_fail(c, HXD_BADVALUE,
			    "operation %d: attach takes file, xml, prefix and "
			    "suffix, not '%s'",
			    i + 1, name);
	}
	return HXD_OK;
}

int
hxd_edit_model(
    hxd_conn *c, const hxd_edit_op *ops, int n, hxd_model *out, char **removed)
{
	Haptix__V1__EditModel em = HAPTIX__V1__EDIT_MODEL__INIT;
	Haptix__V1__EditOp *w = NULL, **wp = NULL;
	Haptix__V1__EditAttr *a = NULL, **ap = NULL;
	size_t natt = 0, k, len;
	Response *r;
	int i, j, rc, pairs;

	if (removed != NULL)
		*removed = NULL;
	if (ops == NULL || n <= 0)
		return conn_fail(c, HXD_BADSIZE, "an edit of no operations");
	for (i = 0; i < n; i++) {
		if (ops[i].nattrs < 0 ||
		    (ops[i].nattrs > 0 && ops[i].attrs == NULL))
			return conn_fail(c, HXD_BADVALUE,
			    "operation %d: nattrs %d without attrs", i + 1,
			    ops[i].nattrs);
		natt += (size_t)ops[i].nattrs;
	}
	w = calloc((size_t)n, sizeof(*w));
	wp = calloc((size_t)n, sizeof(*wp));
	a = calloc(natt + 1, sizeof(*a));
	ap = calloc(natt + 1, sizeof(*ap));
	if (w == NULL || wp == NULL || a == NULL || ap == NULL) {
		rc = conn_fail(c, HXD_CANNOTSEND, "out of memory");
		goto out;
	}
	for (i = 0, k = 0; i < n; i++) {
		haptix__v1__edit_op__init(&w[i]);
		wp[i] = &w[i];
		w[i].kind = (Haptix__V1__EditKind)ops[i].kind;
		w[i].type = (char *)(ops[i].type != NULL ? ops[i].type : "");
		w[i].name = (char *)(ops[i].name != NULL ? ops[i].name : "");
		w[i].parent_type = (char *)(ops[i].parent_type != NULL ?
			ops[i].parent_type :
			"");
		w[i].parent_name = (char *)(ops[i].parent_name != NULL ?
			ops[i].parent_name :
			"");
		w[i].attrs = ap + k;
		w[i].n_attrs = (size_t)ops[i].nattrs;
		/* unset names attributes alone; add and set give pairs */
		pairs = ops[i].kind != HXD_EDIT_UNSET;
		if (ops[i].kind == HXD_EDIT_ATTACH) {
			if ((rc = edit_attach_settings(c, &ops[i], i, &w[i])) !=
			    HXD_OK)
				goto out;
			w[i].n_attrs = 0;
			continue;
		}
		for (j = 0; j < ops[i].nattrs; j++, k++) {
			haptix__v1__edit_attr__init(&a[k]);
			ap[k] = &a[k];
			a[k].name = (char *)ops[i].attrs[pairs ? 2 * j : j];
			a[k].value = (char *)(pairs ? ops[i].attrs[2 * j + 1] :
						      "");
			if (a[k].name == NULL || a[k].value == NULL) {
				rc = conn_fail(c, HXD_BADVALUE,
				    "operation %d: attribute %d is NULL", i + 1,
				    j + 1);
				goto out;
			}
		}
	}
	em.n_ops = (size_t)n;
	em.ops = wp;
	rc = request_call(c, HAPTIX__V1__REQUEST__CALL_EDIT_MODEL, &em,
	    HAPTIX__V1__RESPONSE__PAYLOAD_EDIT, &r);
	if (rc != HXD_OK)
		goto out;
	conn_model_from_wire(&c->model, r->edit->model);
	if (out != NULL)
		*out = c->model;
	if (removed != NULL && r->edit->n_removed > 0) {
		for (k = 0, len = 1; k < r->edit->n_removed; k++)
			len += strlen(r->edit->removed[k]) + 1;
		if ((*removed = malloc(len)) != NULL) {
			**removed = '\0';
			for (k = 0; k < r->edit->n_removed; k++)
				strcat(strcat(*removed, r->edit->removed[k]),
				    "\n");
		}
	}
	conn_free_response(r);
	rc = conn_ok(c);
out:
	free(w);
	free(wp);
	free(a);
	free(ap);
	return rc;
}
