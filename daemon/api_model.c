/*
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
#include "daemon.h"
#include "options.h"
#include "sim.h"

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
