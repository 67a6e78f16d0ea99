/*
 * A step that goes bad is undone (sim_rollback.h): after each good
 * step the state and the inputs a step reads from mjData are kept, and
 * every write to the model since is logged with the bytes it replaced
 * (sim_undo.c);
 * a step after which MuJoCo found the state bad (and reset it), or the
 * state is not finite, is put back: the model's bytes in reverse order,
 * then the data as kept, then mj_forward.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "sim_internal.h"
#include "sim_rollback.h"
#include "sim_state.h"

/* The data kept after the last good step. */
struct sim_good {
	const mjModel *m; /* the model it was kept for */
	mjtNum *buf;
	size_t len;
	mjtNum time;
	uint64_t step; /* counters.steps then */
	int warned[3]; /* MuJoCo's bad qpos, qvel, qacc counts then */
};

size_t
sim_state_arrays(const mjModel *m, mjData *d, mjtNum **p, size_t *n)
{
	size_t k = 0;

#define KEEP(arr, len) (p[k] = d->arr, n[k++] = (size_t)(len))
	KEEP(qpos, m->nq);
	KEEP(qvel, m->nv);
	KEEP(act, m->na);
	KEEP(ctrl, m->nu);
	KEEP(qfrc_applied, m->nv);
	KEEP(xfrc_applied, 6 * m->nbody);
	KEEP(mocap_pos, 3 * m->nmocap);
	KEEP(mocap_quat, 4 * m->nmocap);
	KEEP(userdata, m->nuserdata);
	KEEP(qacc_warmstart, m->nv);
#undef KEEP
	return k;
}

void
sim_rollback_free(struct sim *s)
{
	if (s->good == NULL)
		return;
	free(s->good->buf);
	free(s->good);
	s->good = NULL;
}

void
sim_good(struct sim *s)
{
	mjtNum *p[SIM_STATE_ARRAYS];
	size_t n[SIM_STATE_ARRAYS], k, i, len = 0, at = 0;
	struct sim_good *g;

	if (s->m == NULL)
		return;
	k = sim_state_arrays(s->m, s->d, p, n);
	for (i = 0; i < k; i++)
		len += n[i];
	if (s->good == NULL && (s->good = calloc(1, sizeof(*s->good))) == NULL)
		fatal("out of memory");
	g = s->good;
	if (g->m != s->m || g->len != len) {
		free(g->buf);
		if ((g->buf = calloc(len + 1, sizeof(mjtNum))) == NULL)
			fatal("out of memory");
		g->len = len;
		g->m = s->m;
	}
	for (i = 0; i < k; at += n[i], i++)
		memcpy(g->buf + at, p[i], n[i] * sizeof(mjtNum));
	g->time = s->d->time;
	g->step = s->counters.steps;
	g->warned[0] = s->d->warning[mjWARN_BADQPOS].number;
	g->warned[1] = s->d->warning[mjWARN_BADQVEL].number;
	g->warned[2] = s->d->warning[mjWARN_BADQACC].number;
	sim_undo_begin(s);
	sim_robot_good(s);
}

/* The first of n values that is not finite, or -1. */
static int
sim_nonfinite(const mjtNum *v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (!isfinite(v[i]))
			return i;
	return -1;
}

int
sim_step_bad(const struct sim *s, char *why, size_t len)
{
	static const int kinds[] = { mjWARN_BADQPOS, mjWARN_BADQVEL,
		mjWARN_BADQACC };
	static const char *const names[] = { "qpos", "qvel", "qacc" };
	const mjData *d = s->d;
	const mjModel *m = s->m;
	size_t i;
	int at;

	if (m == NULL)
		return 0;
	for (i = 0; i < 3; i++) {
		if (s->good != NULL && s->good->m == m &&
		    d->warning[kinds[i]].number != s->good->warned[i]) {
			snprintf(why, len, "MuJoCo found %s bad at index %d",
			    names[i], d->warning[kinds[i]].lastinfo);
			return 1;
		}
	}
	if (!isfinite(d->time)) {
		snprintf(why, len, "the time is not finite");
		return 1;
	}
	if ((at = sim_nonfinite(d->qpos, m->nq)) >= 0 ||
	    (at = sim_nonfinite(d->qvel, m->nv)) >= 0 ||
	    (at = sim_nonfinite(d->act, m->na)) >= 0) {
		snprintf(why, len, "the state is not finite (%s %d)",
		    sim_nonfinite(d->qpos, m->nq) >= 0     ? "qpos" :
			sim_nonfinite(d->qvel, m->nv) >= 0 ? "qvel" :
							     "act",
		    at);
		return 1;
	}
	return 0;
}

int
sim_rollback(struct sim *s)
{
	struct sim_good *g = s->good;
	mjtNum *p[SIM_STATE_ARRAYS];
	size_t n[SIM_STATE_ARRAYS], k, i, at = 0;
	int setconst;

	if (g == NULL || g->m != s->m)
		return -1;
	setconst = sim_undo_apply(s);
	sim_array_rates(s); /* an option written since is back too */
	k = sim_state_arrays(s->m, s->d, p, n);
	for (i = 0; i < k; at += n[i], i++)
		memcpy(p[i], g->buf + at, n[i] * sizeof(mjtNum));
	s->d->time = g->time;
	s->counters.steps = g->step;
	/* What MuJoCo counted of this step is not news. */
	s->d->warning[mjWARN_BADQPOS].number = g->warned[0];
	s->d->warning[mjWARN_BADQVEL].number = g->warned[1];
	s->d->warning[mjWARN_BADQACC].number = g->warned[2];
	if (setconst)
		sim_array_setconst(s); /* and mj_forward */
	mj_forward(s->m, s->d);
	sim_robot_unstable(s, s->counters.instability_what, 0);
	return 0;
}

void
sim_settle_unstable(struct sim *s)
{
	const mjModel *m = s->m;

	sim_robot_unstable(s, s->counters.instability_what, 1);
	/* MuJoCo resets a bad qpos, qvel or qacc itself: not the rest. */
	if (m == NULL ||
	    (isfinite(s->d->time) && sim_nonfinite(s->d->qpos, m->nq) < 0 &&
		sim_nonfinite(s->d->qvel, m->nv) < 0 &&
		sim_nonfinite(s->d->act, m->na) < 0))
		return;
	sim_reset(s, -1);
}

uint64_t
sim_good_step(const struct sim *s)
{
	return s->good != NULL ? s->good->step : 0;
}
