/*
 * The running model's MJCF text, includes inlined, as get_model_xml gives
 * it and edits and holds rewrite it, with the directory its file names
 * start from; and whether it went through the legacy translation.  URDF
 * and MJB models have no text.  Written by loads (loadjob.c) only.
 */
#ifndef HXD_MODELTEXT_H
#define HXD_MODELTEXT_H

#include <stddef.h>

struct modeltext {
	int legacy;     /* the model went through mjcf_legacy */
	char *xml;      /* its MJCF text, NUL-ended; or NULL */
	size_t len;     /* bytes of xml */
	char dir[4096]; /* where the text's file names start */
	/* The files it was sent with (an inline model's assets, packed as
	 * modelassets_pack packs them), which its edits are compiled with
	 * again; NULL and 0 for none. */
	void *assets;
	size_t assets_len, nassets;
};

/* The state (d->model); modeltext_free takes NULL. */
struct modeltext *modeltext_create(void);
void modeltext_free(struct modeltext *t);

/*
 * Keep xml (len bytes; 0: the model has none), NUL-ended, and the
 * directory it stands in (dirlen bytes of dir).
 */
void modeltext_set(struct modeltext *t, const char *xml, size_t len,
    const char *dir, size_t dirlen);

/* Keep the model's assets (taken: freed here later; NULL: none). */
void modeltext_set_assets(
    struct modeltext *t, void *assets, size_t len, size_t n);

#endif
