/*
 * Running the simulation: step and update (lock-step, or waiting for the
 * API tick), reset and capture, pause and run, speed.
 */
#include "config.h"

#include <math.h>

#include "api.h"
#include "batch.h"
#include "clock.h"
#include "event.h"
#include "gazebo_world.h"
#include "lifecycle_step.h"
#include "log.h"
#include "protomsg.h"
#include "record.h"
#include "session.h"
#include "sim_key.h"
#include "sim_state.h"
#include "stepguard.h"

/* The most steps one step request may take while paused. */
#define API_MAX_STEPS 10000

int
api_step(struct call *c)
{
	Haptix__V1__StepDone *w;
	unsigned n = c->req->step->count;

	if (n == 0)
		n = 1;
	if (n > API_MAX_STEPS)
		return call_fail(c, RESULT_BADVALUE,
		    "count %u is more than "
		    "%d steps in one request (batch takes more)",
		    n, API_MAX_STEPS);
	/* Taken in slices, so that no request holds the loop for long. */
	if (!clock_running(c->d->clock))
		return batch_steps(c, n);
	/* HAPTIX: stepping while running has no effect. */
	w = NEW(c, Haptix__V1__StepDone, haptix__v1__step_done__init);
	w->time = sim_time(c->d->sim);
	PAYLOAD(c, step_done, STEP_DONE, w);
	return RESULT_OK;
}

/* The payload of an update answered at the API tick. */
static void
update_fill(struct daemon *d, struct arena *a, Response *resp)
{
	resp->payload_case = HAPTIX__V1__RESPONSE__PAYLOAD_SENSOR;
	resp->sensor = protomsg_view(d, a, PROTOMSG_SENSOR);
}

int
api_update_writes(const struct call *c)
{
	/* Without controls, waiting for the tick only reads. */
	return c->req->update->control != NULL || !clock_running(c->d->clock);
}

int
api_update(struct call *c)
{
	const Haptix__V1__Update *u = c->req->update;
	int paused = !clock_running(c->d->clock);
	char err[1100];
	int rc;

	if ((rc = api_gains_undone(c)) != 0)
		return rc;
	if (u->control != NULL && (rc = api_control_apply(c, u->control)) != 0)
		return rc;
	if (paused) {
		rc = lifecycle_step(c->d, err, sizeof(err));
		if (rc != 0)
			return call_fail(c,
			    rc == -2 ? RESULT_DENIED : RESULT_SIMERROR, "%s",
			    err);
	} else if (sizes(c)->apirate >= 1) {
		c->fill = update_fill;
		return CALL_WAIT_TICK;
	}
	PAYLOAD(
	    c, sensor, SENSOR, protomsg_view(c->d, c->arena, PROTOMSG_SENSOR));
	return RESULT_OK;
}

/*
 * After a reset, put back the model parameters clients changed (the reset
 * is the way out of a simulation they broke), unless asked to keep them.
 */
static void
reset_params(struct call *c)
{
	char names[512];
	int n;

	gazebo_world_reset(c->d, c->req->reset->keep_params);
	if (c->req->reset->keep_params)
		return;
	n = sim_params_restore(c->d->sim, names, sizeof(names));
	if (n > 0)
		log_info("client %llu: reset restores %d model array%s "
			 "clients changed: %s",
		    (unsigned long long)c->s->id, n, n == 1 ? "" : "s", names);
	/* The options restored may be another timestep: pace by it now. */
	lifecycle_rates(c->d);
}

int
api_reset(struct call *c)
{
	const Haptix__V1__Reset *w = c->req->reset;
	int key = w->keyframe, rc;
	double left;

	if (w->name[0] != '\0' && !sim_reset_name_exists(c->d->sim, w->name))
		return call_fail(c, RESULT_BADINDEX,
		    "no keyframe or captured state is named \"%s\"", w->name);
	if (w->name[0] == '\0' && key >= 0 &&
	    (rc = check_id(c, "keyframe", key, sizes(c)->nkey)))
		return rc;
	/*
	 * The parameters go back first: the reset's forward pass computes
	 * the solver's warm start, which must be the model's, not the one
	 * of the gains the last client left (a trial would depend on the
	 * one before it).
	 */
	reset_params(c);
	record_steps_restart(c->d);
	left = sim_time(c->d->sim);
	if (w->name[0] != '\0')
		key = sim_reset_name(c->d->sim, w->name);
	else
		sim_reset(c->d->sim, key);
	stepguard_reset(c->d);
	if (w->name[0] != '\0')
		log_info("client %llu: reset to \"%s\"",
		    (unsigned long long)c->s->id, w->name);
	else
		log_info("client %llu: reset to %s %d",
		    (unsigned long long)c->s->id,
		    key >= 0 ? "keyframe" : "the reference configuration,",
		    key);
	event_reset(c->d,
	    w->name[0] != '\0' ? key :
		key < 0        ? -1 :
				 key,
	    w->name[0] != '\0' ? w->name : NULL, left);
	return RESULT_OK;
}

int
api_capture_key(struct call *c)
{
	const Haptix__V1__KeyCapture *w = c->req->capture_key;
	int key = w->keyframe, rc;

	if (w->name[0] == '\0' &&
	    (rc = check_id(c, "keyframe", key, sizes(c)->nkey)))
		return rc;
	key = sim_key_capture(c->d->sim, w->name, key, c->err, sizeof(c->err));
	if (key == -2)
		return RESULT_BADVALUE;
	if (key >= 0)
		log_info("client %llu: state captured into keyframe %d%s%s",
		    (unsigned long long)c->s->id, key,
		    w->name[0] != '\0' ? " " : "", w->name);
	else
		log_info("client %llu: state captured as \"%s\"",
		    (unsigned long long)c->s->id, w->name);
	return RESULT_OK;
}

int
api_pause(struct call *c)
{
	if (clock_running(c->d->clock)) {
		clock_pause(c->d->clock);
		log_info("client %llu: paused", (unsigned long long)c->s->id);
	}
	return RESULT_OK;
}

int
api_run(struct call *c)
{
	/* Asked to run: the steps are accepted, however slow. */
	stepguard_run(c->d);
	if (!clock_running(c->d->clock)) {
		clock_run(c->d->clock);
		log_info("client %llu: running", (unsigned long long)c->s->id);
	}
	return RESULT_OK;
}

int
api_set_speed(struct call *c)
{
	const Haptix__V1__Speed *sp = c->req->set_speed;

	if (!sp->max &&
	    (!isfinite(sp->factor) || sp->factor < 1e-6 || sp->factor > 1e6))
		return call_fail(c, RESULT_BADVALUE,
		    "speed factor %g is not "
		    "between 1e-06 and 1e+06 (or max)",
		    sp->factor);
	clock_set_speed(c->d->clock, sp->factor, sp->max);
	if (sp->max)
		log_info(
		    "client %llu: speed max", (unsigned long long)c->s->id);
	else
		log_info("client %llu: speed %g", (unsigned long long)c->s->id,
		    sp->factor);
	return RESULT_OK;
}
