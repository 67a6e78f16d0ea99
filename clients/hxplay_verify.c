/*
 * hxplay --verify FILE: replay a recording's journal in lock-step and say
 * whether the server reproduces the recorded run bit for bit.
 *
 * The server loads the recorded model (or keeps its own, if its MJB
 * hashes to the recording's), then for each step of the recording the
 * journal's array writes for that step are sent, the server takes one
 * step, and its state hash is compared with the recorded one.  The
 * first step whose hash differs ends the replay; when the recording has
 * a state record there, the fields that differ are named.  An edit in
 * the recording (a model change) loads the edited model, as MJB, where
 * it happened; the journal then sets all of the state again.
 */
#include "config.h"

#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "haptixd.h"
#include "hxplay_common.h"
#include "program.h"
#include "recording.h"

struct verify {
	const struct play_opts *o;
	hxd_conn *c;
	struct rec_reader *r;
	const struct rec_header *h;
	uint64_t base; /* the recording's step at which the replay starts */
	uint64_t done; /* steps the server took since */
	uint64_t inputs, hashes;
	uint64_t edits; /* model changes replayed */
	double *values; /* room for an array write */
	size_t nvalues;
	struct play_restore *found; /* what to put back, on a shared server */
	int loaded;                 /* the recorded model was loaded */
};

static volatile sig_atomic_t verify_stop;

static void
verify_on_signal(int sig)
{
	(void)sig;
	verify_stop = 1;
}

/* Say what the server said about what, and fail. */
static int
verify_server(struct verify *v, const char *what)
{
	program_warn("%s: %s: %s", v->o->file, what, hxd_error(v->c));
	return PLAY_FAIL;
}

/* Take steps until the server is at the recording's step. */
static int
verify_advance(struct verify *v, uint64_t step)
{
	unsigned taken;
	char what[64];

	while (v->base + v->done < step) {
		if (verify_stop) {
			program_warn("%s: interrupted at step %llu", v->o->file,
			    (unsigned long long)(v->base + v->done));
			return PLAY_FAIL;
		}
		snprintf(what, sizeof(what), "step %llu",
		    (unsigned long long)(v->base + v->done + 1));
		if (hxd_step(v->c, 1, &taken) != HXD_OK)
			return verify_server(v, what);
		if (taken != 1) {
			program_warn(
			    "%s: %s: the server is not paused: someone "
			    "ran it",
			    v->o->file, what);
			return PLAY_FAIL;
		}
		v->done++;
	}
	return PLAY_OK;
}

/* Load the recorded model, or check that the server has it already. */
static int
verify_model(struct verify *v, const struct rec_item *it)
{
	hxd_model_blob b;
	char name[sizeof(b.name)];
	uint64_t hash;

	if (rec_hash64(it->data, it->len, REC_HASH_SEED) != v->h->model_hash) {
		program_warn("%s: the model in the journal does not match the "
			     "header's hash: the file is damaged",
		    v->o->file);
		return PLAY_FAIL;
	}
	if (v->o->keep_model) {
		if (hxd_get_model(v->c, &b) != HXD_OK)
			return verify_server(v, "getting the server's model");
		hash = rec_hash64(b.mjb, b.size, REC_HASH_SEED);
		memcpy(name, b.name, sizeof(name));
		hxd_model_blob_free(&b);
		if (hash != v->h->model_hash) {
			program_warn("%s: the server's model %s is not the "
				     "recorded one (hash %016llx, recorded "
				     "%016llx): leave out --keep-model to load "
				     "the recorded one",
			    v->o->file, name, (unsigned long long)hash,
			    (unsigned long long)v->h->model_hash);
			return PLAY_FAIL;
		}
		return PLAY_OK;
	}
	if (hxd_load_data(v->c, HXD_FORMAT_MJB, it->data, it->len, v->h->name,
		NULL) != HXD_OK)
		return verify_server(v, "loading the recorded model");
	v->loaded = 1;
	return PLAY_OK;
}

/*
 * An edit in the recording: load the edited model, which the change
 * holds as MJB, at the step where it was made.  The server stays
 * paused, and the journal's next writes set the whole state.
 */
static int
verify_edit(struct verify *v, const struct rec_item *it)
{
	char what[96];

	if (rec_hash64(it->data, it->len, REC_HASH_SEED) !=
	    it->model->model_hash) {
		program_warn("%s: the model edited at step %llu does not match "
			     "its hash: the file is damaged",
		    v->o->file, (unsigned long long)it->step);
		return PLAY_FAIL;
	}
	snprintf(what, sizeof(what), "step %llu: loading the edited model",
	    (unsigned long long)it->step);
	if (hxd_load_data(v->c, HXD_FORMAT_MJB, it->data, it->len, v->h->name,
		NULL) != HXD_OK)
		return verify_server(v, what);
	v->loaded = 1;
	v->edits++;
	return PLAY_OK;
}

/* Send one array write of the journal. */
static int
verify_input(struct verify *v, const struct rec_item *it)
{
	struct rec_array_write a;
	char what[128];
	uint32_t row;
	int rc;

	if (rec_array_parse(it, &a) != 0) {
		program_warn("%s: a malformed journal entry at step %llu "
			     "(offset %llu)",
		    v->o->file, (unsigned long long)it->step,
		    (unsigned long long)it->offset);
		return PLAY_FAIL;
	}
	if (a.count > v->nvalues) {
		free(v->values);
		if ((v->values = malloc(a.count * sizeof(double))) == NULL) {
			program_warn("out of memory");
			return PLAY_FAIL;
		}
		v->nvalues = a.count;
	}
	rec_array_values(&a, v->values);
	if (strcmp(a.name, "model.geom_size") == 0) {
		/* Not writable as an array: set_geomsize keeps rbound. */
		rc = HXD_OK;
		for (row = 0; row < a.count / 3 && rc == HXD_OK; row++)
			rc = hxd_set_geomsize(v->c, (int)(a.offset / 3 + row),
			    v->values + 3 * row);
	} else
		rc = hxd_set_array(
		    v->c, a.name, (int)a.offset, (int)a.count, v->values);
	if (rc != HXD_OK) {
		snprintf(what, sizeof(what), "step %llu: writing %s",
		    (unsigned long long)it->step, a.name);
		return verify_server(v, what);
	}
	v->inputs++;
	return PLAY_OK;
}

/* Name the recorded fields that differ from the server's now. */
static void
verify_explain(struct verify *v, const struct rec_item *st)
{
	const char *name;
	hxd_array *a;
	size_t f, i, n;

	for (f = 0; f < REC_NFIELD; f++) {
		if (st->field[f] == NULL ||
		    (n = rec_field_size(st->model, (enum rec_field)f)) == 0)
			continue;
		name = rec_field_name((enum rec_field)f);
		if (hxd_get_array(v->c, name, &a) != HXD_OK)
			continue;
		for (i = 0; i < n && i < (size_t)a->rows * (size_t)a->cols;
		     i++) {
			if (memcmp(&a->values[i], &st->field[f][i],
				sizeof(double)) != 0) {
				fprintf(stderr,
				    "  %s[%zu] is %.17g, recorded %.17g\n",
				    name, i, a->values[i], st->field[f][i]);
				break;
			}
		}
		free(a);
	}
}

/* Compare the server's state hash with the recorded one. */
static int
verify_hash(struct verify *v, const struct rec_item *it)
{
	unsigned long long hash;
	struct rec_item next;
	double time;
	int rc;

	if (hxd_state_hash(v->c, &hash, NULL, &time) != HXD_OK)
		return verify_server(v, "the state hash");
	if (hash == it->hash) {
		v->hashes++;
		return PLAY_OK;
	}
	program_warn("%s: diverges at step %llu (time %.9g): state hash "
		     "%016llx, recorded %016llx; the %llu steps before matched",
	    v->o->file, (unsigned long long)it->step, time, hash,
	    (unsigned long long)it->hash, (unsigned long long)v->hashes);
	/* The state record of the same step follows its hash. */
	rc = rec_reader_next(v->r, &next);
	if (rc == 1 && next.tag == REC_TAG_STATE && next.step == it->step)
		verify_explain(v, &next);
	return PLAY_FAIL;
}

static int
verify_item(struct verify *v, const struct rec_item *it)
{
	int rc;

	if (it->tag == REC_TAG_STATE)
		return PLAY_OK; /* the hashes say more */
	if (it->step < v->base) {
		program_warn("%s: step %llu comes after step %llu: the file is "
			     "damaged",
		    v->o->file, (unsigned long long)it->step,
		    (unsigned long long)v->base);
		return PLAY_FAIL;
	}
	if ((rc = verify_advance(v, it->step)) != PLAY_OK)
		return rc;
	if (it->tag == REC_TAG_HASH)
		return verify_hash(v, it);
	if (it->tag == REC_TAG_MODEL)
		return verify_edit(v, it);
	if (it->tag == REC_TAG_JOURNAL && it->kind == REC_JOURNAL_ARRAY)
		return verify_input(v, it);
	return PLAY_OK; /* kinds of a later version */
}

/*
 * Connect, take the lease, pause (taking what the server had first,
 * unless it is hxplay's own), and set up the recorded model.
 */
static int
verify_start(struct verify *v, const struct rec_item *first)
{
	char err[8400];
	int rc;

	if ((v->c = hxd_connect(v->o->server, "hxplay --verify")) == NULL ||
	    !hxd_connected(v->c)) {
		program_warn("cannot connect to %s: %s",
		    v->o->server != NULL ? v->o->server : "the server",
		    v->c != NULL ? hxd_error(v->c) : "out of memory");
		return PLAY_FAIL;
	}
	if (hxd_lease(v->c, HXD_LEASE_TAKE, NULL) != HXD_OK)
		return verify_server(v, "taking the control lease");
	if (!v->o->spawn && !v->o->no_restore) {
		if ((v->found = play_restore_take(v->c, err, sizeof(err))) ==
		    NULL) {
			program_warn("%s: %s", v->o->file, err);
			return PLAY_FAIL;
		}
	} else if (v->o->keep_model && hxd_pause(v->c) != HXD_OK)
		return verify_server(v, "pausing");
	v->base = first->step;
	if ((rc = verify_model(v, first)) != PLAY_OK)
		return rc;
	/*
	 * Paused once the recorded model is in: a server may have had none
	 * to pause (a haptixd of our own has none).  Steps it took between
	 * do not matter: the journal's first writes set the whole state.
	 */
	if (v->found == NULL && !v->o->keep_model && hxd_pause(v->c) != HXD_OK)
		return verify_server(v, "pausing");
	return PLAY_OK;
}

static int
verify_run(struct verify *v)
{
	struct rec_reader_stats st;
	struct rec_item it;
	char edits[48] = "";
	int rc, n;

	if ((n = rec_reader_next(v->r, &it)) != 1 ||
	    it.tag != REC_TAG_JOURNAL || it.kind != REC_JOURNAL_MODEL) {
		if (n < 0)
			program_warn("%s", rec_reader_error(v->r));
		else if (rec_reader_header(v->r)->format == REC_FORMAT_MJL)
			program_warn(
			    "%s: a HAPTIX log has no journal to verify: "
			    "it plays (hxplay FILE), lists and exports",
			    v->o->file);
		else
			program_warn("%s: no journal to verify: record with "
				     "`hxctl record start --journal`",
			    v->o->file);
		return PLAY_FAIL;
	}
	if ((rc = verify_start(v, &it)) != PLAY_OK)
		return rc;
	while ((n = rec_reader_next(v->r, &it)) == 1 && !verify_stop) {
		if ((rc = verify_item(v, &it)) != PLAY_OK)
			return rc;
	}
	if (verify_stop) {
		program_warn("%s: interrupted at step %llu", v->o->file,
		    (unsigned long long)(v->base + v->done));
		return PLAY_FAIL;
	}
	if (n < 0) {
		program_warn("%s", rec_reader_error(v->r));
		return PLAY_FAIL;
	}
	rec_reader_stats(v->r, &st);
	if (v->edits != 0)
		snprintf(edits, sizeof(edits), ", across %llu edit%s",
		    (unsigned long long)v->edits, v->edits == 1 ? "" : "s");
	if (!v->o->quiet)
		printf("%s: bit-identical: %llu steps (%llu to %llu), %llu "
		       "inputs, %llu state hashes%s%s\n",
		    v->o->file, (unsigned long long)v->done,
		    (unsigned long long)v->base,
		    (unsigned long long)(v->base + v->done),
		    (unsigned long long)v->inputs,
		    (unsigned long long)v->hashes, edits,
		    st.truncated ? " (the file is cut short there)" : "");
	if (v->hashes == 0 && v->done > 0) {
		program_warn("%s: no state hashes to compare", v->o->file);
		return PLAY_FAIL;
	}
	return PLAY_OK;
}

int
play_verify(const struct play_opts *o)
{
	struct play_opts own = *o;
	static const int sigs[] = { SIGINT, SIGTERM, 0 };
	struct verify v = { .o = o };
	struct play_spawn sp = { 0 };
	char err[512];
	int rc, put;

	program_signals(verify_on_signal, sigs);
	if ((v.r = rec_reader_open(o->file, err, sizeof(err))) == NULL) {
		program_warn("%s", err);
		return PLAY_FAIL;
	}
	v.h = rec_reader_header(v.r);
	if (o->spawn) {
		if (play_spawn_start(&sp) != 0) {
			rec_reader_close(v.r);
			return PLAY_FAIL;
		}
		own.server = sp.addr;
		v.o = &own;
	}
	rc = verify_run(&v);
	/* Whatever the outcome: the server is shared. */
	if (v.found != NULL && hxd_connected(v.c)) {
		put = play_restore_put(
		    v.found, v.c, v.loaded, o->file, o->quiet);
		if (rc == PLAY_OK)
			rc = put;
	} else if (v.found != NULL)
		program_warn(
		    "%s: the connection is lost: the server keeps what "
		    "verifying left",
		    o->file);
	play_restore_free(v.found);
	free(v.values);
	if (v.c != NULL)
		hxd_close(v.c);
	if (o->spawn) {
		play_spawn_stop(&sp);
		if (!o->quiet)
			printf(
			    "%s: verified on a haptixd of its own (--spawn), "
			    "now stopped: no other server was touched\n",
			    o->file);
	} else if (o->no_restore && (v.loaded || v.done > 0) && !o->quiet)
		printf("%s: the server keeps the recorded model, paused where "
		       "the replay ended (--no-restore)\n",
		    o->file);
	rec_reader_close(v.r);
	return rc;
}
