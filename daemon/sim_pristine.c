/*
 * The model as it was loaded, kept beside the running one so that what
 * clients change can be put back: a reset restores every model array
 * that differs (servo gains, set_array's parameters, colours, geom
 * sizes, equalities, and what mj_setConst derived from masses, with the
 * model's statistics) and every option (opt.timestep, opt.gravity, ...),
 * unless the client asks to keep them, and an
 * instability with clients' servo gains in force restores the gains
 * (sim_robot.c).  Keyframes are states rather than parameters: what
 * capture_key or set_array wrote into them stays.
 *
 * The copy costs the model's memory once more; restoring compares and
 * copies each array and allocates nothing.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <mujoco/mjxmacro.h>

#include "log.h"
#include "sim.h"
#include "sim_internal.h"

void
sim_pristine_take(struct sim *s)
{
	sim_pristine_free(s);
	/* mj_copyModel raises mju_error (fatal here) only when out of memory. */
	s->pristine = mj_copyModel(NULL, s->m);
	if (s->pristine == NULL)
		fatal("out of memory for the model's copy");
}

void
sim_pristine_free(struct sim *s)
{
	if (s == NULL || s->pristine == NULL)
		return;
	mj_deleteModel(s->pristine);
	s->pristine = NULL;
}

/* Append name to the list in buf (len bytes), comma-separated. */
static void
pristine_list(char *buf, size_t len, size_t *used, const char *name)
{
	int n;

	if (*used >= len)
		return;
	n = snprintf(
	    buf + *used, len - *used, "%s%s", *used > 0 ? ", " : "", name);
	if (n > 0)
		*used += (size_t)n;
}

int
sim_pristine_restore(struct sim *s, char *names, size_t len)
{
	mjModel *m = s->m;
	const mjModel *p = s->pristine;
	size_t used = 0, size;
	int n = 0;

	if (len > 0)
		names[0] = '\0';
	if (m == NULL || p == NULL)
		return 0;
	{
		MJMODEL_POINTERS_PREAMBLE(m)
#define X(type, name, nr, nc) \
	size = sizeof(type) * (size_t)m->nr * (size_t)(nc); \
	if (strncmp(#name, "key_", 4) != 0 && size > 0 && \
	    memcmp(m->name, p->name, size) != 0) { \
		memcpy(m->name, p->name, size); \
		pristine_list(names, len, &used, #name); \
		n++; \
	}
		MJMODEL_POINTERS
#undef X
	}
	/* The options, by their names as arrays; the pacing follows. */
#define PRISTINE_OPT(name) \
	if (memcmp(&m->opt.name, &p->opt.name, sizeof(m->opt.name)) != 0) { \
		memcpy(&m->opt.name, &p->opt.name, sizeof(m->opt.name)); \
		pristine_list(names, len, &used, "opt." #name); \
		n++; \
	}
#define X(type, name) PRISTINE_OPT(name)
	MJOPTION_SCALARS
#undef X
#define X(name, size) PRISTINE_OPT(name)
	MJOPTION_VECTORS
#undef X
#undef PRISTINE_OPT
	sim_array_rates(s);
	/* mj_setConst (after a write of masses) recomputes the statistics. */
	if (memcmp(&m->stat, &p->stat, sizeof(m->stat)) != 0) {
		m->stat = p->stat;
		pristine_list(names, len, &used, "stat");
		n++;
	}
	if (n > 0) {
		s->counters.model_edits++;
		mj_forward(s->m, s->d);
	}
	return n;
}
