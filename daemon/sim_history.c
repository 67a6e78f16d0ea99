/*
 * The history of the live run: see sim_history.h.  The ring is one block
 * of states, each the arrays of sim_state_arrays() end to end, and a
 * record per state of its time, step and the model's writes then.  Its
 * size is fixed at the first state of a model: the seconds asked over the
 * model's timestep, or fewer with a stride when they would not fit the
 * bytes allowed.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "sim_history.h"
#include "sim_internal.h"

struct sim_history_mark {
	double time;
	uint64_t step;
	uint64_t edits; /* counters.model_edits then */
};

struct sim_history {
	double seconds;
	size_t max_bytes;
	unsigned generation; /* the model's (struct sim); 0: none yet */
	size_t len;          /* mjtNum per state */
	size_t cap;          /* states */
	size_t head;         /* where the next goes */
	size_t count;
	unsigned stride, skipped;
	mjtNum *buf;
	struct sim_history_mark *marks;
};

void
sim_history_free(struct sim *s)
{
	if (s->history == NULL)
		return;
	free(s->history->buf);
	free(s->history->marks);
	free(s->history);
	s->history = NULL;
}

static struct sim_history *
sim_history_of(struct sim *s)
{
	if (s->history == NULL &&
	    (s->history = calloc(1, sizeof(*s->history))) == NULL)
		fatal("out of memory");
	return s->history;
}

/* Let go of the ring's storage: the next state sizes it again. */
static void
sim_history_drop(struct sim_history *h)
{
	free(h->buf);
	free(h->marks);
	h->buf = NULL;
	h->marks = NULL;
	h->generation = 0;
	h->cap = h->head = h->count = 0;
	h->skipped = 0;
}

void
sim_history_set(struct sim *s, double seconds, size_t max_bytes)
{
	struct sim_history *h = sim_history_of(s);

	sim_history_drop(h);
	h->seconds = seconds > 0 && isfinite(seconds) ? seconds : 0;
	h->max_bytes = max_bytes;
}

void
sim_history_clear(struct sim *s)
{
	if (s->history != NULL)
		sim_history_drop(s->history);
}

/* Size the ring for the live model; 0, or -1 to keep nothing. */
static int
sim_history_size(struct sim *s, struct sim_history *h)
{
	mjtNum *p[SIM_STATE_ARRAYS];
	size_t n[SIM_STATE_ARRAYS], k, i, len = 0, per, want, fit;
	double dt = s->m->opt.timestep;

	k = sim_state_arrays(s->m, s->d, p, n);
	for (i = 0; i < k; i++)
		len += n[i];
	per = len * sizeof(mjtNum) + sizeof(struct sim_history_mark);
	fit = h->max_bytes / per;
	if (h->seconds <= 0 || fit < 2 || !(dt > 0))
		return -1;
	want = h->seconds / dt > 1e9 ? (size_t)1e9 :
				       (size_t)ceil(h->seconds / dt) + 1;
	h->stride = want <= fit ? 1 : (unsigned)((want + fit - 1) / fit);
	h->cap = (want + h->stride - 1) / h->stride;
	if (h->cap > fit)
		h->cap = fit;
	h->len = len;
	h->buf = malloc(h->cap * len * sizeof(mjtNum) + sizeof(mjtNum));
	h->marks = malloc(h->cap * sizeof(*h->marks));
	if (h->buf == NULL || h->marks == NULL) {
		log_warn("no memory for %zu states of history: none is kept",
		    h->cap);
		sim_history_drop(h);
		return -1;
	}
	h->generation = s->generation;
	h->head = h->count = 0;
	h->skipped = 0;
	log_debug("history: %zu states of %zu bytes, one step in %u", h->cap,
	    per, h->stride);
	return 0;
}

void
sim_history_push(struct sim *s)
{
	struct sim_history *h = s->history;
	mjtNum *p[SIM_STATE_ARRAYS], *to;
	size_t n[SIM_STATE_ARRAYS], k, i;
	struct sim_history_mark *mark;

	if (h == NULL || h->seconds <= 0 || s->m == NULL)
		return;
	if (h->generation != s->generation) {
		sim_history_drop(h);
		if (sim_history_size(s, h) != 0)
			return;
	}
	if (h->count > 0 && ++h->skipped < h->stride)
		return;
	h->skipped = 0;
	to = h->buf + h->head * h->len;
	k = sim_state_arrays(s->m, s->d, p, n);
	for (i = 0; i < k; to += n[i], i++)
		memcpy(to, p[i], n[i] * sizeof(mjtNum));
	mark = &h->marks[h->head];
	mark->time = s->d->time;
	mark->step = s->counters.steps;
	mark->edits = s->counters.model_edits;
	h->head = (h->head + 1) % h->cap;
	if (h->count < h->cap)
		h->count++;
}

void
sim_history_info(const struct sim *s, struct sim_history_info *out)
{
	const struct sim_history *h = s->history;
	int live;

	memset(out, 0, sizeof(*out));
	if (h == NULL)
		return;
	live = h->generation != 0 && h->generation == s->generation;
	out->seconds = h->seconds;
	out->max_bytes = h->max_bytes;
	out->stride = live ? h->stride : 1;
	if (!live)
		return;
	out->states = h->count;
	out->capacity = h->cap;
	out->bytes = h->cap * (h->len * sizeof(mjtNum) + sizeof(*h->marks));
	if (h->count > 0) {
		out->newest = h->marks[(h->head + h->cap - 1) % h->cap].time;
		out->oldest = h->marks[(h->head + h->cap - h->count) % h->cap]
				  .time;
	}
}

/* The slot of the state back before the newest, or -1. */
static long
sim_history_slot(const struct sim *s, size_t back)
{
	const struct sim_history *h = s->history;

	if (h == NULL || h->generation == 0 || h->generation != s->generation ||
	    back >= h->count)
		return -1;
	return (long)((h->head + h->cap - 1 - back) % h->cap);
}

int
sim_history_get(const struct sim *s, size_t back, struct sim_history_state *out)
{
	const struct sim_history *h = s->history;
	mjtNum *p[SIM_STATE_ARRAYS];
	size_t n[SIM_STATE_ARRAYS], k, i;
	const mjtNum *from;
	long slot;

	memset(out, 0, sizeof(*out));
	if ((slot = sim_history_slot(s, back)) < 0)
		return -1;
	from = h->buf + (size_t)slot * h->len;
	k = sim_state_arrays(s->m, s->d, p, n);
	for (i = 0; i < k; from += n[i], i++) {
		out->arrays[i] = from;
		out->lengths[i] = n[i];
	}
	out->narrays = k;
	out->time = h->marks[slot].time;
	out->step = h->marks[slot].step;
	out->resumable = h->marks[slot].edits == s->counters.model_edits;
	return 0;
}

int
sim_history_resume(struct sim *s, size_t back, char *err, size_t len)
{
	struct sim_history *h = s->history;
	mjtNum *p[SIM_STATE_ARRAYS];
	size_t n[SIM_STATE_ARRAYS], k, i, j;
	const mjtNum *from;
	long slot;

	if ((slot = sim_history_slot(s, back)) < 0) {
		snprintf(err, len, "no state %zu back: the history holds %zu",
		    back,
		    h != NULL && h->generation == s->generation ? h->count : 0);
		return -1;
	}
	if (h->marks[slot].edits != s->counters.model_edits) {
		snprintf(err, len,
		    "the model was written since that state (%llu writes "
		    "then, %llu now): steps from it would not be the ones "
		    "taken",
		    (unsigned long long)h->marks[slot].edits,
		    (unsigned long long)s->counters.model_edits);
		return -1;
	}
	s->d->time = h->marks[slot].time;
	s->counters.steps = h->marks[slot].step;
	/*
	 * Twice: mj_forward computes what the state implies, and writes
	 * the solver's warm start, which the next step must find as the
	 * step after this state found it.
	 */
	k = sim_state_arrays(s->m, s->d, p, n);
	for (j = 0; j < 2; j++) {
		from = h->buf + (size_t)slot * h->len;
		for (i = 0; i < k; from += n[i], i++)
			memcpy(p[i], from, n[i] * sizeof(mjtNum));
		if (j == 0)
			mj_forward(s->m, s->d);
	}
	/* The newer states are another run's now. */
	h->head = ((size_t)slot + 1) % h->cap;
	h->count -= back;
	h->skipped = 0;
	return 0;
}
