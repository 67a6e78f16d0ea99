/* A step that goes bad is undone: see rollback.h. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon.h"
#include "hold.h"
#include "log.h"
#include "perturb.h"
#include "rollback.h"
#include "session.h"
#include "sim.h"
#include "sim_rollback.h"
#include "sim_state.h"
#include "gazebo_world.h"

/* The writers named in an error: the first few, then how many more. */
#define ROLLBACK_WRITERS 6

struct rollback_writer {
	uint64_t id;
	char name[128];
	char call[32];
};

/*
 * Writes are proven by ROLLBACK_PROVE_STEPS good steps before what they
 * made is kept as good: a value that breaks the simulation a few steps
 * later (a friction of 1e308) is undone with them.
 */
#define ROLLBACK_PROVE_STEPS 50

/* What rollback keeps of the writes since the good state (d->rollback). */
struct rollback {
	struct rollback_writer writers[ROLLBACK_WRITERS];
	int nwriters, more_writers;
	int bad_in_a_row; /* steps gone bad since the last good one */
	char told[2048];
	int pending;         /* a write since the good state was kept */
	uint64_t pending_at; /* the step it came before; UINT64_MAX: next */
};

struct rollback *
rollback_create(void)
{
	struct rollback *x;

	if ((x = calloc(1, sizeof(*x))) == NULL)
		fatal("out of memory");
	return x;
}

void
rollback_free(struct rollback *rb)
{
	free(rb);
}

void
rollback_wrote(const struct session *s, const char *call)
{
	struct rollback *rb = s->d->rollback;

	/* Writes that give a step no input: not worth naming. */
	static const char *const quiet[] = { "pause", "run", "step",
		"set_speed", "batch", "reset", "capture_key", "record_start",
		"record_stop" };
	size_t q;
	int i;

	for (q = 0; q < sizeof(quiet) / sizeof(quiet[0]); q++)
		if (strcmp(call, quiet[q]) == 0)
			return;
	if (!rb->pending) {
		rb->pending = 1;
		rb->pending_at = UINT64_MAX;
	}
	for (i = 0; i < rb->nwriters; i++)
		if (rb->writers[i].id == s->id &&
		    strcmp(rb->writers[i].call, call) == 0)
			return;
	if (rb->nwriters == ROLLBACK_WRITERS) {
		rb->more_writers++;
		return;
	}
	rb->writers[rb->nwriters].id = s->id;
	snprintf(rb->writers[rb->nwriters].name,
	    sizeof(rb->writers[rb->nwriters].name), "%.127s",
	    s->name[0] != '\0' ? s->name : s->peer);
	snprintf(rb->writers[rb->nwriters].call,
	    sizeof(rb->writers[rb->nwriters].call), "%s", call);
	rb->nwriters++;
}

/* What stands now is good: keep it, forget what was written before. */
static void
rollback_commit(struct daemon *d)
{
	struct rollback *rb = d->rollback;

	sim_good(d->sim);
	hold_good(d);
	perturb_good(d);
	rb->nwriters = rb->more_writers = 0;
	rb->pending = 0;
}

void
rollback_good(struct daemon *d)
{
	struct rollback *rb = d->rollback;
	uint64_t steps = sim_counters(d->sim)->steps;

	rb->bad_in_a_row = 0;
	if (rb->pending && rb->pending_at == UINT64_MAX)
		rb->pending_at = steps - 1;
	if (!rb->pending || steps - rb->pending_at >= ROLLBACK_PROVE_STEPS)
		rollback_commit(d);
}

void
rollback_model_changed(struct daemon *d, int edited)
{
	struct rollback *rb = d->rollback;

	rb->bad_in_a_row = 0;
	if (!edited) {
		rollback_commit(d);
		return;
	}
	/* An edit is a write: what it brings proves itself as any does. */
	sim_good(d->sim);
	rb->pending = 1;
	rb->pending_at = UINT64_MAX;
}

int
rollback_bad(struct daemon *d, const char *why, char *err, size_t len)
{
	struct rollback *rb = d->rollback;
	char holds[512], who[1024];
	size_t at = 0;
	int i, all, nholds, nforces, nwrenches = gazebo_world_wrenches(d);

	if (!rb->pending && rb->nwriters == 0) {
		/*
		 * Nothing was written since the good state: the model went bad
		 * by itself, and would again.  MuJoCo's reset stands (the sim
		 * resets a state that is not finite), as it always did; what
		 * lasts across steps (holds, drivers' forces) goes with it.
		 */
		sim_settle_unstable(d->sim);
		log_warn("simulation unstable (%s): reset, as MuJoCo does "
			 "(%llu so far)",
		    why,
		    (unsigned long long)sim_counters(d->sim)
			->instability_resets);
		hold_undo(d, 1, holds, sizeof(holds));
		perturb_undo(
		    d, 1, "the simulation went unstable and was reset");
		gazebo_world_clear_wrenches(d);
		rb->told[0] = '\0';
		rollback_commit(d);
		return 0;
	}
	/*
	 * A third time from the same good state, with everything that lasts
	 * across steps gone after the second: the state itself is on its way
	 * out (a velocity that grew step by step).  Reset, as MuJoCo does.
	 */
	if (rb->bad_in_a_row >= 2 || sim_rollback(d->sim) != 0) {
		sim_reset(d->sim, -1);
		sim_settle_unstable(d->sim);
		snprintf(rb->told, sizeof(rb->told),
		    "the step went bad (%s) again from the state of step "
		    "%llu: the simulation was reset to the model's reference "
		    "configuration",
		    why, (unsigned long long)sim_good_step(d->sim));
		log_warn("%s", rb->told);
		snprintf(err, len, "%s", rb->told);
		rollback_commit(d);
		rb->bad_in_a_row = 0;
		return 1;
	}
	/*
	 * What changed since the good step goes first; when the step goes
	 * bad again from the same good state with nothing new, what lasts
	 * across steps (a hold, a driver's force) is the cause: all goes.
	 */
	all = ++rb->bad_in_a_row > 1;
	nholds = hold_undo(d, all, holds, sizeof(holds));
	nforces = perturb_undo(
	    d, all, "it made the simulation unstable (the step was undone)");
	gazebo_world_clear_wrenches(d);
	who[0] = '\0';
	for (i = 0; i < rb->nwriters && at < sizeof(who); i++)
		at += (size_t)snprintf(who + at, sizeof(who) - at,
		    "%sclient %llu (%s) %s", i > 0 ? ", " : "",
		    (unsigned long long)rb->writers[i].id, rb->writers[i].name,
		    rb->writers[i].call);
	if (rb->more_writers > 0 && at < sizeof(who))
		snprintf(who + at, sizeof(who) - at, " and %d more writes",
		    rb->more_writers);
	snprintf(rb->told, sizeof(rb->told),
	    "the step went bad (%s) and was undone: the state, the "
	    "controls, the applied forces and the model's arrays are as "
	    "they were after step %llu%s%s%s%s%s%s%s",
	    why, (unsigned long long)sim_good_step(d->sim),
	    nholds > 0 ? "; released the holds on " : "",
	    nholds > 0 ? holds : "",
	    nforces > 0 ? "; dropped the drivers' forces sent since" : "",
	    nwrenches > 0 ? "; ended the World API's wrenches" : "",
	    rb->nwriters > 0 ? "; written since by " :
			       "; nothing was written "
			       "since",
	    who, "");
	log_warn("%s", rb->told);
	snprintf(err, len, "%s", rb->told);
	/* The good state again: what was written since is gone. */
	rollback_commit(d);
	return 1;
}

const char *
rollback_told(const struct daemon *d)
{
	const struct rollback *rb = d->rollback;

	return rb->told;
}
