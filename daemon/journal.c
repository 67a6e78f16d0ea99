/* The journal of a recording: see journal.h. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "journal.h"
#include "log.h"
#include "recording.h"
#include "sim.h"
#include "sim_array.h"

/*
 * The data arrays a step reads, in the order a replay writes them:
 * model writes and the state come first because writing them runs
 * mj_forward, which overwrites qacc_warmstart; the warm start is last.
 */
static const char *const journal_data_names[] = { "time", "qpos", "qvel", "act",
	"mocap_pos", "mocap_quat", "ctrl", "qfrc_applied", "xfrc_applied",
	"userdata", "qacc_warmstart" };

/*
 * A model array that is not writable but that the sim changes: a replay
 * writes it with set_geomsize, which derives geom_rbound again.
 */
#define JOURNAL_GEOM_SIZE "geom_size"

struct journal_array {
	int id;
	int model;
	size_t n, cols;
	double *last; /* what the journal holds, or the step left */
	char name[REC_ARRAY_NAME_MAX + 1];
};

struct journal {
	struct journal_array *a;
	int na;
	int started;
	uint64_t model_edits; /* the sim's count at the last comparison */
	double *now;          /* room for the largest array */
};

static int
journal_add(struct journal *j, const struct sim *s, int id)
{
	struct sim_array_info info;
	struct journal_array *a = &j->a[j->na];

	sim_array_describe(s, id, &info);
	a->id = id;
	a->model = strcmp(info.owner, "model") == 0;
	a->n = (size_t)info.rows * (size_t)info.cols;
	a->cols = info.cols > 0 ? (size_t)info.cols : 1;
	snprintf(a->name, sizeof(a->name), "%s.%s", info.owner, info.name);
	if ((a->last = calloc(a->n + 1, sizeof(double))) == NULL)
		return -1;
	j->na++;
	return 0;
}

struct journal *
journal_create(const struct sim *s)
{
	struct sim_array_info info;
	struct journal *j;
	const char *why;
	char name[REC_ARRAY_NAME_MAX + 1];
	size_t i, most = 0;
	int id, n = sim_array_count();

	if ((j = calloc(1, sizeof(*j))) == NULL ||
	    (j->a = calloc((size_t)n, sizeof(*j->a))) == NULL)
		goto fail;
	for (id = 0; id < n; id++) {
		sim_array_describe(s, id, &info);
		if (strcmp(info.owner, "model") != 0 ||
		    (info.refusal != NULL &&
			strcmp(info.name, JOURNAL_GEOM_SIZE) != 0))
			continue;
		if (info.rows > 0 && info.cols > 0 && journal_add(j, s, id))
			goto fail;
	}
	for (i = 0; i < sizeof(journal_data_names) / sizeof(char *); i++) {
		snprintf(name, sizeof(name), "data.%s", journal_data_names[i]);
		if ((id = sim_array_find(name, &why)) < 0)
			fatal("journal: MuJoCo has no %s", name);
		if (journal_add(j, s, id) != 0)
			goto fail;
	}
	/*
	 * The model entry holds the model as it is now: what is written
	 * into it from here on, before the first step too, is journaled.
	 */
	for (i = 0; i < (size_t)j->na; i++) {
		if (j->a[i].model)
			sim_array_get(s, j->a[i].id, j->a[i].last);
		most = j->a[i].n > most ? j->a[i].n : most;
	}
	j->model_edits = sim_counters(s)->model_edits;
	if ((j->now = calloc(most + 1, sizeof(double))) == NULL)
		goto fail;
	return j;
fail:
	journal_free(j);
	return NULL;
}

void
journal_free(struct journal *j)
{
	int i;

	if (j == NULL)
		return;
	for (i = 0; j->a != NULL && i < j->na; i++)
		free(j->a[i].last);
	free(j->a);
	free(j->now);
	free(j);
}

/*
 * The rows of a that differ from j->now, as elements [*from, *to):
 * compared as bits, so that -0.0 and NaN payloads count.  0 if none.
 */
static int
journal_changed(
    const struct journal_array *a, const double *now, size_t *from, size_t *to)
{
	size_t i, first = a->n, last = 0;

	for (i = 0; i < a->n; i++) {
		if (memcmp(&a->last[i], &now[i], sizeof(double)) != 0) {
			if (first == a->n)
				first = i;
			last = i;
		}
	}
	if (first == a->n)
		return 0;
	*from = first / a->cols * a->cols;
	*to = (last / a->cols + 1) * a->cols;
	return 1;
}

int
journal_before_step(
    struct journal *j, const struct sim *s, struct rec_writer *w, uint64_t step)
{
	uint64_t edits = sim_counters(s)->model_edits;
	struct journal_array *a;
	size_t from, to;
	int i, written = 0, last;

	for (i = 0; i < j->na; i++) {
		a = &j->a[i];
		last = i == j->na - 1; /* the warm start */
		if (a->n == 0 || (a->model && edits == j->model_edits))
			continue;
		sim_array_get(s, a->id, j->now);
		if ((!j->started && !a->model) || (last && written > 0)) {
			from = 0;
			to = a->n;
		} else if (!journal_changed(a, j->now, &from, &to))
			continue;
		if (rec_writer_array(w, step, a->name, (uint32_t)from,
			(uint32_t)(to - from), j->now + from) != 0)
			return -1;
		memcpy(a->last + from, j->now + from,
		    (to - from) * sizeof(double));
		written++;
	}
	j->started = 1;
	j->model_edits = edits;
	return written;
}

void
journal_after_step(struct journal *j, const struct sim *s)
{
	int i;

	for (i = 0; i < j->na; i++) {
		if (!j->a[i].model && j->a[i].n > 0)
			sim_array_get(s, j->a[i].id, j->a[i].last);
	}
}

uint64_t
journal_state_hash(const struct sim *s)
{
	const struct sim_sizes *z = sim_sizes(s);
	const struct sim_arrays *a = sim_arrays(s);
	double t = sim_time(s);
	uint64_t h;

	h = rec_hash64(&t, sizeof(t), REC_HASH_SEED);
	h = rec_hash64(a->qpos, (size_t)z->nq * sizeof(double), h);
	h = rec_hash64(a->qvel, (size_t)z->nv * sizeof(double), h);
	h = rec_hash64(a->act, (size_t)z->na * sizeof(double), h);
	return rec_hash64(a->qacc_warmstart, (size_t)z->nv * sizeof(double), h);
}
