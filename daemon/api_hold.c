/*
 * Joints held on a path (hold.h, docs/editing.md): hold adds a joint
 * equality for each joint not yet held, by one edit, and only sets the
 * target of those the caller holds already; release removes the caller's
 * by one edit.  Both answer with every hold.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "arena.h"
#include "daemon.h"
#include "hold.h"
#include "lifecycle.h"
#include "log.h"
#include "modeltext.h"
#include "pending.h"
#include "session.h"
#include "sim.h"
#include "sim_hold.h"
#include "sim_key.h"

/* A client's hold or release, while its edit runs. */
struct hold_call {
	struct session *s;
	uint64_t id; /* the request to answer */
	int serial;  /* its holds' mark */
	char *operations;
};

/* Every hold and what the caller was not told of yet, into resp. */
static void
hold_answer(Response *resp, struct arena *a, struct daemon *d, uint64_t holder)
{
	Haptix__V1__Holds *l;
	Haptix__V1__Hold *w;
	struct sim_joint j;
	struct hold *h;
	char err[256], *dropped;
	size_t k = 0;

	l = arena_alloc(a, sizeof(*l));
	haptix__v1__holds__init(l);
	l->holds = arena_alloc(
	    a, ((size_t)hold_count(d) + 1) * sizeof(*l->holds));
	TAILQ_FOREACH(h, hold_list(d), entry)
	{
		w = arena_alloc(a, sizeof(*w));
		haptix__v1__hold__init(w);
		w->joint = arena_strdup(a, h->joint);
		w->target = h->target;
		if (sim_joint_get(d->sim, h->joint, -1, &j, err, sizeof(err)) ==
		    0)
			w->qpos = j.qpos[0];
		w->force = sim_hold_force(d->sim, h->eq);
		w->holder = h->holder;
		w->holder_name = arena_strdup(a, h->holder_name);
		l->holds[k++] = w;
	}
	l->n_holds = k;
	if ((dropped = hold_dropped_take(d, holder)) != NULL) {
		l->dropped = arena_lines(a, dropped, &l->n_dropped);
		free(dropped);
	}
	l->time = sim_time(d->sim);
	resp->payload_case = HAPTIX__V1__RESPONSE__PAYLOAD_HOLDS;
	resp->holds = l;
}

/* Free a hold call's record. */
static void
hold_call_free(struct hold_call *hc)
{
	free(hc->operations);
	free(hc);
}

/* The edit of a hold or release is over: answer the client. */
static void
hold_edited(struct daemon *d, void *arg, int code, const char *err)
{
	struct hold_call *hc = arg;
	Response resp = HAPTIX__V1__RESPONSE__INIT;
	struct arena a = { 0 };

	if (code == LOADJOB_CANCELLED) {
		hold_edit_over(d, hc->serial, 0);
		hold_call_free(hc);
		return;
	}
	if (code != RESULT_OK) {
		log_warn("client %llu: holding or releasing joints failed: %s",
		    (unsigned long long)hc->s->id, err);
		hold_edit_over(d, hc->serial, 0);
		pending_finish(hc->s, hc->id, code, err, &resp);
		hold_call_free(hc);
		return;
	}
	lifecycle_model_edited(d, hc->operations, err, NULL);
	hold_edit_over(d, hc->serial, 1);
	hold_answer(&resp, &a, d, hc->s->id);
	pending_finish(hc->s, hc->id, RESULT_OK, NULL, &resp);
	arena_free(&a);
	hold_call_free(hc);
}

/* Start the edit of the holds marked serial; CALL_BUSY or a failure. */
static int
hold_edit(struct call *c, int remove, int serial)
{
	struct hold_call *hc;
	int rc;

	if ((hc = calloc(1, sizeof(*hc))) == NULL)
		fatal("out of memory");
	hc->s = c->s;
	hc->id = c->req->id;
	hc->serial = serial;
	rc = hold_edit_start(c->d, c->s, remove, serial, hold_edited, hc,
	    &hc->operations, c->err, sizeof(c->err));
	if (rc != RESULT_OK) {
		hold_edit_over(c->d, serial, 0);
		hold_call_free(hc);
		return rc;
	}
	return CALL_BUSY;
}

/* Check that c may hold joint: 0, or a result code with c->err set. */
static int
hold_check(struct call *c, const char *joint)
{
	static const char *const types[] = { "free", "ball", "slide", "hinge" };
	char name[HOLD_NAME_MAX + sizeof(HOLD_PREFIX)];
	struct sim_joint j;
	struct hold *h;

	if (strlen(joint) > HOLD_NAME_MAX)
		return call_fail(c, RESULT_BADVALUE,
		    "a joint name of %zu bytes; a hold takes at most %d",
		    strlen(joint), HOLD_NAME_MAX);
	if (sim_joint_get(c->d->sim, joint, -1, &j, c->err, sizeof(c->err)))
		return RESULT_BADVALUE;
	if (j.nq != 1)
		return call_fail(c, RESULT_BADVALUE,
		    "joint \"%s\" is a %s joint: only hinge and slide joints "
		    "can be held",
		    joint, types[j.type]);
	if ((h = hold_find(c->d, joint)) != NULL && h->holder != c->s->id)
		return call_fail(c, RESULT_DENIED,
		    "joint \"%s\" is held by client %llu (%s)", joint,
		    (unsigned long long)h->holder,
		    h->holder_name[0] != '\0' ? h->holder_name : "no name");
	if (h != NULL && h->releasing != 0)
		return call_fail(c, RESULT_DENIED,
		    "joint \"%s\" is being released; hold it again after",
		    joint);
	snprintf(name, sizeof(name), "%s%s", HOLD_PREFIX, joint);
	if (h == NULL && sim_equality_id(c->d->sim, name) >= 0)
		return call_fail(c, RESULT_BADVALUE,
		    "the model has an equality of its own named \"%s\", "
		    "the name a hold on joint \"%s\" would take",
		    name, joint);
	return RESULT_OK;
}

/*
 * A target far outside the joint's range is refused when sent: past the
 * range by more than its width, or, for a joint without one, more than
 * HOLD_TARGET_FAR from 0 (radians or metres).  A finite target such as
 * 1e308 otherwise asks MuJoCo for a force no step survives.
 */
#define HOLD_TARGET_FAR 1000.0

static int
hold_check_target(struct call *c, const char *joint, double target)
{
	struct sim_joint j;
	double w;

	if (sim_joint_get(c->d->sim, joint, -1, &j, c->err, sizeof(c->err)))
		return RESULT_BADVALUE;
	if (!j.limited) {
		if (fabs(target) <= HOLD_TARGET_FAR)
			return RESULT_OK;
		return call_fail(c, RESULT_BADVALUE,
		    "hold target %g for joint \"%s\" is more than %g from 0, "
		    "and the joint has no range to go by",
		    target, joint, HOLD_TARGET_FAR);
	}
	w = j.range[1] - j.range[0];
	if (target >= j.range[0] - w && target <= j.range[1] + w)
		return RESULT_OK;
	return call_fail(c, RESULT_BADVALUE,
	    "hold target %g for joint \"%s\" is far outside its range [%g, "
	    "%g] (by more than the range's width)",
	    target, joint, j.range[0], j.range[1]);
}

int
api_hold_writes(const struct call *c)
{
	return c->req->hold->n_joints > 0;
}

int
api_hold(struct call *c)
{
	const Haptix__V1__HoldJoints *hj = c->req->hold;
	struct hold *h;
	size_t i, k, n = hj->n_joints, nnew = 0;
	int rc, serial;

	if (hj->n_values != n)
		return call_fail(c, RESULT_BADSIZE,
		    "%zu joints and %zu values: one value per joint", n,
		    hj->n_values);
	if (n > HOLD_MAX)
		return call_fail(c, RESULT_BADSIZE,
		    "%zu joints; one call holds at most %d", n, HOLD_MAX);
	if ((rc = check_finite(c, "hold values", hj->values, n)))
		return rc;
	/* Every joint is checked before anything changes. */
	for (i = 0; i < n; i++) {
		if ((rc = hold_check(c, hj->joints[i])) ||
		    (rc = hold_check_target(c, hj->joints[i], hj->values[i])))
			return rc;
		for (k = 0; k < i; k++)
			if (strcmp(hj->joints[k], hj->joints[i]) == 0)
				return call_fail(c, RESULT_BADVALUE,
				    "joint \"%s\" is named twice",
				    hj->joints[i]);
		nnew += hold_find(c->d, hj->joints[i]) == NULL;
	}
	if (nnew > 0 && c->d->model->xml == NULL)
		return call_fail(c, RESULT_BADVALUE,
		    "the model \"%s\" has no MJCF text to add a hold's "
		    "equality to: it was loaded from MJB or URDF",
		    sim_model_name(c->d->sim));
	if ((size_t)hold_count(c->d) + nnew > HOLD_MAX)
		return call_fail(c, RESULT_BADSIZE,
		    "%d holds already; there may be at most %d",
		    hold_count(c->d), HOLD_MAX);
	serial = hold_serial(c->d);
	for (i = 0; i < n; i++) {
		if ((h = hold_find(c->d, hj->joints[i])) != NULL)
			h->target = hj->values[i];
		else
			hold_new(c->d, hj->joints[i], c->s, hj->values[i])
			    ->adding = serial;
	}
	if (nnew > 0)
		return hold_edit(c, 0, serial);
	hold_answer(c->resp, c->arena, c->d, c->s->id);
	return RESULT_OK;
}

int
api_release(struct call *c)
{
	const Haptix__V1__ReleaseJoints *rj = c->req->release;
	struct hold *h, *next;
	size_t i;
	int serial, n = 0;

	for (i = 0; i < rj->n_joints; i++) {
		if ((h = hold_find(c->d, rj->joints[i])) == NULL)
			return call_fail(c, RESULT_BADVALUE,
			    "joint \"%s\" is not held", rj->joints[i]);
		if (h->holder != c->s->id)
			return call_fail(c, RESULT_DENIED,
			    "joint \"%s\" is held by client %llu (%s), not "
			    "by this one",
			    rj->joints[i], (unsigned long long)h->holder,
			    h->holder_name[0] != '\0' ? h->holder_name :
							"no name");
	}
	serial = hold_serial(c->d);
	for (h = TAILQ_FIRST(hold_list(c->d)); h != NULL; h = next) {
		next = TAILQ_NEXT(h, entry);
		if (h->holder != c->s->id || h->releasing != 0)
			continue;
		for (i = 0; i < rj->n_joints; i++)
			if (strcmp(rj->joints[i], h->joint) == 0)
				break;
		if (rj->n_joints > 0 && i == rj->n_joints)
			continue;
		h->releasing = serial;
		n++;
	}
	if (n > 0)
		return hold_edit(c, 1, serial);
	hold_answer(c->resp, c->arena, c->d, c->s->id);
	return RESULT_OK;
}
