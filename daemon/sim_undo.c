/*
 * The model's undo log (sim_internal.h): every write to the model since
 * the last good state, with the bytes it replaced, so that a step gone
 * bad can put them back (sim_rollback.c).  The lowest of the sim files:
 * it calls none of the others.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "sim_internal.h"

/* One write to the model: where, and the bytes it replaced. */
struct sim_undo_entry {
	void *at;
	size_t len;
	unsigned char *was;
	int setconst; /* mj_setConst followed it: run it again after */
};

struct sim_undo {
	const mjModel *m; /* the model the log is kept for; NULL: none */
	struct sim_undo_entry *entries;
	size_t n, max;
};

static void
sim_undo_clear(struct sim_undo *u)
{
	size_t i;

	for (i = 0; i < u->n; i++)
		free(u->entries[i].was);
	u->n = 0;
}

void
sim_undo_begin(struct sim *s)
{
	if (s->undo == NULL && (s->undo = calloc(1, sizeof(*s->undo))) == NULL)
		fatal("out of memory");
	sim_undo_clear(s->undo);
	s->undo->m = s->m;
}

void
sim_undo_note(struct sim *s, void *at, size_t len, int setconst)
{
	struct sim_undo *u = s->undo;
	struct sim_undo_entry *e;

	if (u == NULL || u->m == NULL || u->m != s->m || len == 0)
		return;
	if (u->n == u->max) {
		u->max = u->max == 0 ? 16 : 2 * u->max;
		if ((u->entries = realloc(
			 u->entries, u->max * sizeof(*u->entries))) == NULL)
			fatal("out of memory");
	}
	e = &u->entries[u->n++];
	e->at = at;
	e->len = len;
	e->setconst = setconst;
	if ((e->was = malloc(len)) == NULL)
		fatal("out of memory");
	memcpy(e->was, at, len);
}

int
sim_undo_apply(struct sim *s)
{
	struct sim_undo *u = s->undo;
	int setconst = 0;
	size_t i;

	if (u == NULL || u->m != s->m)
		return 0;
	for (i = u->n; i-- > 0;) {
		memcpy(u->entries[i].at, u->entries[i].was, u->entries[i].len);
		setconst |= u->entries[i].setconst;
	}
	sim_undo_clear(u);
	return setconst;
}

void
sim_undo_free(struct sim *s)
{
	if (s->undo == NULL)
		return;
	sim_undo_clear(s->undo);
	free(s->undo->entries);
	free(s->undo);
	s->undo = NULL;
}
