/*
 * What hxplay --verify found on a shared server, and putting it back:
 * verifying loads the recorded model, writes the journal's inputs and
 * steps, and all of that would stay (`hxctl reload` then finds nothing
 * to reload).  Before, the model (its file, else its MJB), every array
 * a client may write (the model's parameters, geom_size, the state) and
 * whether it ran are taken; after, the model is loaded again from its
 * file, or sent back as MJB, the arrays that differ are written back,
 * the warm start last, and the server runs again if it ran.  The MJB's
 * hash and the state hash then say whether it is as it was, bit for bit.
 *
 * What a client cannot set is not restored: the step count (it starts
 * again at the load), drivers' tracking and forces, and what the other
 * clients were told of the two model changes.  hxplay --spawn (see
 * hxplay_spawn.c) leaves the server alone instead.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "haptixd.h"
#include "hxplay_common.h"
#include "program.h"
#include "recording.h"

/* One array as it was. */
struct restore_array {
	char name[72]; /* "model.body_mass", "data.qpos" */
	int rows, cols;
	double *values;
};

struct play_restore {
	char name[256];  /* the model's */
	char path[4096]; /* "" for a model sent inline */
	int paused;
	void *mjb; /* the model as it was, edits included */
	size_t mjb_size;
	uint64_t mjb_hash;
	unsigned long long state_hash;
	struct restore_array *a; /* model arrays, then data, warm start last */
	size_t n;
};

void
play_restore_free(struct play_restore *r)
{
	size_t i;

	if (r == NULL)
		return;
	for (i = 0; i < r->n; i++)
		free(r->a[i].values);
	free(r->a);
	free(r->mjb);
	free(r);
}

/* The order arrays are written back in: model, data, the warm start. */
static int
restore_rank(const hxd_array *a)
{
	if (strcmp(a->owner, "model") == 0)
		return 0;
	return strcmp(a->name, "qacc_warmstart") == 0 ? 2 : 1;
}

/* Keep one array's values; 0, or -1 with err set. */
static int
restore_keep(struct play_restore *r, hxd_conn *c, const hxd_array *d, char *err,
    size_t len)
{
	struct restore_array *ra = &r->a[r->n];
	hxd_array *a;
	size_t n;

	snprintf(ra->name, sizeof(ra->name), "%s.%s", d->owner, d->name);
	if (hxd_get_array(c, ra->name, &a) != HXD_OK) {
		snprintf(err, len, "reading %s: %s", ra->name, hxd_error(c));
		return -1;
	}
	ra->rows = a->rows;
	ra->cols = a->cols;
	n = (size_t)a->rows * (size_t)a->cols;
	if (n > 0) {
		if ((ra->values = malloc(n * sizeof(double))) == NULL) {
			free(a);
			snprintf(err, len, "out of memory");
			return -1;
		}
		memcpy(ra->values, a->values, n * sizeof(double));
	}
	free(a);
	r->n++;
	return 0;
}

/* Every array a client may write, and geom_size, in restore_rank order. */
static int
restore_take_arrays(struct play_restore *r, hxd_conn *c, char *err, size_t len)
{
	hxd_array *list;
	int i, n, rank;

	if (hxd_list_arrays(c, &list, &n) != HXD_OK) {
		snprintf(err, len, "listing the arrays: %s", hxd_error(c));
		return -1;
	}
	if ((r->a = calloc((size_t)n, sizeof(*r->a))) == NULL) {
		free(list);
		snprintf(err, len, "out of memory");
		return -1;
	}
	for (rank = 0; rank < 3; rank++) {
		for (i = 0; i < n; i++) {
			if ((!list[i].writable &&
				strcmp(list[i].name, "geom_size") != 0) ||
			    restore_rank(&list[i]) != rank)
				continue;
			if (restore_keep(r, c, &list[i], err, len) != 0) {
				free(list);
				return -1;
			}
		}
	}
	free(list);
	return 0;
}

struct play_restore *
play_restore_take(hxd_conn *c, char *err, size_t len)
{
	struct play_restore *r;
	hxd_model_blob b;
	hxd_status st;
	int paused = 0; /* by this call */

	if ((r = calloc(1, sizeof(*r))) == NULL) {
		snprintf(err, len, "out of memory");
		return NULL;
	}
	if (hxd_status_get(c, &st) != HXD_OK) {
		snprintf(err, len, "status: %s", hxd_error(c));
		goto fail;
	}
	if (st.recording.active) {
		snprintf(err, len,
		    "the server is recording (%s): verifying on it would end "
		    "that recording; stop it first, or use --spawn",
		    st.recording.path);
		goto fail;
	}
	if (st.model.nq == 0 && st.model.nbody == 0) {
		snprintf(err, len,
		    "the server has no model, and verifying cannot unload the "
		    "one it loads: use --no-restore to leave it loaded, or "
		    "--spawn");
		goto fail;
	}
	snprintf(r->name, sizeof(r->name), "%s", st.model.name);
	snprintf(r->path, sizeof(r->path), "%s", st.model.path);
	r->paused = st.paused;
	if (!st.paused) {
		if (hxd_pause(c) != HXD_OK) {
			snprintf(err, len, "pausing: %s", hxd_error(c));
			goto fail;
		}
		paused = 1;
	}
	if (hxd_get_model(c, &b) != HXD_OK) {
		snprintf(
		    err, len, "getting the server's model: %s", hxd_error(c));
		goto fail;
	}
	r->mjb = b.mjb;
	r->mjb_size = b.size;
	r->mjb_hash = rec_hash64(b.mjb, b.size, REC_HASH_SEED);
	if (hxd_state_hash(c, &r->state_hash, NULL, NULL) != HXD_OK) {
		snprintf(err, len, "the state hash: %s", hxd_error(c));
		goto fail;
	}
	if (restore_take_arrays(r, c, err, len) != 0)
		goto fail;
	return r;
fail:
	if (paused)
		(void)hxd_run(c); /* as it was; err says what failed */
	play_restore_free(r);
	return NULL;
}

/* The hash of the server's model now, or 0 with err set. */
static int
restore_model_hash(hxd_conn *c, uint64_t *hash, char *err, size_t len)
{
	hxd_model_blob b;

	if (hxd_get_model(c, &b) != HXD_OK) {
		snprintf(
		    err, len, "getting the server's model: %s", hxd_error(c));
		return -1;
	}
	*hash = rec_hash64(b.mjb, b.size, REC_HASH_SEED);
	hxd_model_blob_free(&b);
	return 0;
}

/* Write back one array if it differs: geom_size row by row. */
static int
restore_array(
    const struct restore_array *ra, hxd_conn *c, char *err, size_t len)
{
	size_t n = (size_t)ra->rows * (size_t)ra->cols;
	hxd_array *a;
	int row, rc;

	if (n == 0)
		return 0;
	if (hxd_get_array(c, ra->name, &a) != HXD_OK) {
		snprintf(err, len, "reading %s: %s", ra->name, hxd_error(c));
		return -1;
	}
	if (a->rows != ra->rows || a->cols != ra->cols) {
		free(a);
		snprintf(err, len, "%s is %d x %d, not %d x %d as it was",
		    ra->name, a->rows, a->cols, ra->rows, ra->cols);
		return -1;
	}
	rc = memcmp(a->values, ra->values, n * sizeof(double));
	free(a);
	if (rc == 0)
		return 0;
	rc = HXD_OK;
	if (strcmp(ra->name, "model.geom_size") == 0) {
		for (row = 0; row < ra->rows && rc == HXD_OK; row++)
			rc = hxd_set_geomsize(c, row, ra->values + 3 * row);
	} else
		rc = hxd_set_array(c, ra->name, 0, (int)n, ra->values);
	if (rc != HXD_OK) {
		snprintf(
		    err, len, "writing %s back: %s", ra->name, hxd_error(c));
		return -1;
	}
	return 0;
}

static int
restore_arrays(const struct play_restore *r, hxd_conn *c, char *err, size_t len)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		if (restore_array(&r->a[i], c, err, len) != 0)
			return -1;
	}
	return 0;
}

/*
 * Load the model from its file and write its arrays back: 1 if it is
 * then the model found, bit for bit, 0 if not, -1 on an error.
 */
static int
restore_by_path(const struct play_restore *r, hxd_conn *c, int legacy,
    char *err, size_t len)
{
	uint64_t hash;

	if ((legacy ? hxd_load_legacy(c, r->path, NULL) :
		      hxd_load_file(c, r->path, NULL)) != HXD_OK) {
		snprintf(err, len, "loading %s: %s", r->path, hxd_error(c));
		return -1;
	}
	if (restore_arrays(r, c, err, len) != 0 ||
	    restore_model_hash(c, &hash, err, len) != 0)
		return -1;
	return hash == r->mjb_hash;
}

/*
 * Put the model back: from its file if it had one (so that a reload
 * still works), as MuJoCo HAPTIX 1.x's translation if that is what
 * gives it back, else (no file, or the file no longer gives what ran)
 * as the MJB taken.  *how says which, for the report.
 */
static int
restore_model(const struct play_restore *r, hxd_conn *c, const char **how,
    char *err, size_t len)
{
	char why[8400] = "";
	int rc;

	if (r->path[0] != '\0') {
		if ((rc = restore_by_path(r, c, 0, why, sizeof(why))) == 1) {
			*how = "reloaded from its file";
			return 0;
		}
		if (restore_by_path(r, c, 1, err, len) == 1) {
			*how = "reloaded from its file (legacy)";
			return 0;
		}
		if (rc == 0)
			snprintf(why, sizeof(why),
			    "%s no longer gives the model that ran", r->path);
		program_warn("%s; the model goes back as it ran, as MJB: "
			     "`hxctl reload` will have no file to reload",
		    why);
	}
	if (hxd_load_data(c, HXD_FORMAT_MJB, r->mjb, r->mjb_size, r->name,
		NULL) != HXD_OK) {
		snprintf(err, len, "loading the model back: %s", hxd_error(c));
		return -1;
	}
	*how = r->path[0] != '\0' ? "sent back as MJB (its file differs)" :
				    "sent back as MJB (it was sent inline)";
	return 0;
}

int
play_restore_put(const struct play_restore *r, hxd_conn *c, int reload,
    const char *file, int quiet)
{
	const char *how = "kept";
	unsigned long long state;
	uint64_t hash;
	char err[8400];

	if ((reload && restore_model(r, c, &how, err, sizeof(err)) != 0) ||
	    restore_arrays(r, c, err, sizeof(err)) != 0 ||
	    restore_model_hash(c, &hash, err, sizeof(err)) != 0) {
		program_warn("%s: putting the server back: %s", file, err);
		return PLAY_FAIL;
	}
	if (hxd_state_hash(c, &state, NULL, NULL) != HXD_OK) {
		program_warn("%s: the state hash: %s", file, hxd_error(c));
		return PLAY_FAIL;
	}
	if (!r->paused && hxd_run(c) != HXD_OK) {
		program_warn(
		    "%s: running the server again: %s", file, hxd_error(c));
		return PLAY_FAIL;
	}
	/* Released, so that leaving is no lease loss (--lease-loss). */
	(void)hxd_lease(c, HXD_LEASE_RELEASE, NULL);
	if (hash != r->mjb_hash || state != r->state_hash) {
		program_warn("%s: the server is not as it was: its %s differs "
			     "after verifying; --spawn leaves it alone",
		    file, hash != r->mjb_hash ? "model" : "state");
		return PLAY_FAIL;
	}
	if (!quiet)
		printf("%s: the server is as it was: model %s %s, its "
		       "parameters and state bit for bit, %s\n",
		    file, r->name, how, r->paused ? "paused" : "running");
	return PLAY_OK;
}
