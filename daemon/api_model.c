/*
 * The model: its description (info), loading one (load_model), and
 * get_model: the loaded model as MuJoCo's MJB, compressed with zstd, for
 * clients that simulate or render a copy of it (hxview).  The MJB is
 * written fresh on every call, so it carries every change made through
 * the API since the model loaded.
 */
#include "config.h"

#include <stdio.h>

#include <zstd.h>

#include "api.h"
#include "arena.h"
#include "loader.h"
#include "log.h"
#include "modeldir.h"
#include "modelrefs.h"
#include "options.h"
#include "session.h"
#include "sim_describe.h"
#include "snapshot.h"
#include "step.h"

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

int
api_load_model(struct call *c)
{
	const Haptix__V1__LoadModel *lm = c->req->load_model;
	const Haptix__V1__InlineModel *im;
	struct daemon *d = c->d;
	char path[4096], what[4200];
	int rc, legacy = lm->legacy || d->opts->legacy;

	switch (lm->source_case) {
	case HAPTIX__V1__LOAD_MODEL__SOURCE_PATH:
		rc = modeldir_resolve(
		    lm->path, path, sizeof(path), c->err, sizeof(c->err));
		if (rc != 0)
			return rc;
		snprintf(what, sizeof(what), "%s%s", path,
		    legacy ? " (legacy)" : "");
		if (!loader_is_mjb(path) &&
		    (rc = modelrefs_check(
			 path, NULL, 0, c->err, sizeof(c->err))) != 0) {
			log_warn("client %llu: refused %s: %s",
			    (unsigned long long)c->s->id, what, c->err);
			return rc;
		}
		rc = loader_load_file(d, path, legacy, c->err, sizeof(c->err));
		break;
	case HAPTIX__V1__LOAD_MODEL__SOURCE_INLINE_MODEL:
		im = lm->inline_model;
		if ((int)im->format < 0 ||
		    (int)im->format >
			HAPTIX__V1__MODEL_FORMAT__MODEL_FORMAT_MJB)
			return call_fail(c, RESULT_BADVALUE,
			    "unknown model format %d", (int)im->format);
		if (im->data.len == 0)
			return call_fail(
			    c, RESULT_BADSIZE, "the inline model is empty");
		snprintf(what, sizeof(what), "inline model \"%s\" (%zu bytes)",
		    im->name, im->data.len);
		if (!sim_is_mjb(model_format(im->format), im->data.data,
			im->data.len) &&
		    (rc = modelrefs_check(NULL, im->data.data, im->data.len,
			 c->err, sizeof(c->err))) != 0) {
			log_warn("client %llu: refused %s: %s",
			    (unsigned long long)c->s->id, what, c->err);
			return rc;
		}
		rc = sim_load_buffer(d->sim, model_format(im->format),
		    im->data.data, im->data.len, im->name, NULL, c->err,
		    sizeof(c->err));
		if (rc == 0)
			d->model_legacy = 0;
		break;
	default:
		if (!sim_loaded(d->sim) || sim_model_path(d->sim)[0] == '\0')
			return call_fail(c, RESULT_BADVALUE,
			    "nothing to reload: the current model was not "
			    "loaded from a file");
		snprintf(
		    what, sizeof(what), "%s (reload)", sim_model_path(d->sim));
		rc = loader_reload(d, c->err, sizeof(c->err));
		break;
	}
	if (rc != 0) {
		log_warn("client %llu: loading %s failed, keeping the current "
			 "model: %s",
		    (unsigned long long)c->s->id, what, c->err);
		return RESULT_LOADFAILED;
	}
	log_info("client %llu: loaded %s: model \"%s\"",
	    (unsigned long long)c->s->id, what, sim_model_name(d->sim));
	step_model_changed(d,
	    lm->source_case != HAPTIX__V1__LOAD_MODEL__SOURCE_PATH &&
		lm->source_case != HAPTIX__V1__LOAD_MODEL__SOURCE_INLINE_MODEL,
	    "another model was loaded");
	c->resp->payload_case = HAPTIX__V1__RESPONSE__PAYLOAD_MODEL;
	c->resp->model = snapshot_summary(c->d, c->arena);
	return RESULT_OK;
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
