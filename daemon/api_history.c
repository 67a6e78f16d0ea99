/*
 * history and history_resume: the live run's kept states (sim_history.h,
 * docs/recording.md "The history"): a client reads one by how many kept
 * states before the newest it is, and the lease holder may make one the
 * live state again, exactly, as a reset would.
 */
#include "config.h"

#include <stdio.h>

#include "api.h"
#include "clock.h"
#include "daemon.h"
#include "event.h"
#include "log.h"
#include "record.h"
#include "rollback.h"
#include "session.h"
#include "sim.h"
#include "sim_history.h"
#include "stepguard.h"

typedef Haptix__V1__HistoryState HistoryState;

/* The kept state back before the newest into st: 0, or BADINDEX saying why. */
static int
history_kept(struct call *c, unsigned back, struct sim_history_state *st)
{
	struct sim_history_info info;

	if (sim_history_get(c->d->sim, back, st) == 0)
		return 0;
	sim_history_info(c->d->sim, &info);
	return call_fail(c, RESULT_BADINDEX,
	    "no state %u back: the history holds %zu%s", back, info.states,
	    info.seconds > 0 ? "" : " (haptixd --history 0 keeps none)");
}

int
api_history(struct call *c)
{
	const Haptix__V1__HistoryRef *w = c->req->history;
	struct sim_history_state st;
	struct sim_history_info info;
	HistoryState *out;
	size_t *nto[10];
	double **to[10];
	size_t i;
	int rc;

	if ((rc = history_kept(c, w->back, &st)) != 0)
		return rc;
	sim_history_info(c->d->sim, &info);
	out = NEW(c, HistoryState, haptix__v1__history_state__init);
	out->back = w->back;
	out->states = (uint32_t)info.states;
	out->time = st.time;
	out->step = st.step;
	out->resumable = st.resumable;
	/* The order of sim_state_arrays(). */
	to[0] = &out->qpos, nto[0] = &out->n_qpos;
	to[1] = &out->qvel, nto[1] = &out->n_qvel;
	to[2] = &out->act, nto[2] = &out->n_act;
	to[3] = &out->ctrl, nto[3] = &out->n_ctrl;
	to[4] = &out->qfrc_applied, nto[4] = &out->n_qfrc_applied;
	to[5] = &out->xfrc_applied, nto[5] = &out->n_xfrc_applied;
	to[6] = &out->mocap_pos, nto[6] = &out->n_mocap_pos;
	to[7] = &out->mocap_quat, nto[7] = &out->n_mocap_quat;
	to[8] = &out->userdata, nto[8] = &out->n_userdata;
	to[9] = &out->qacc_warmstart, nto[9] = &out->n_qacc_warmstart;
	for (i = 0; i < st.narrays && i < 10; i++) {
		*to[i] = call_copy(c, st.arrays[i], st.lengths[i]);
		*nto[i] = st.lengths[i];
	}
	PAYLOAD(c, history_state, HISTORY_STATE, out);
	return RESULT_OK;
}

int
api_history_resume(struct call *c)
{
	const Haptix__V1__HistoryRef *w = c->req->history_resume;
	struct sim_history_state st;
	double left = sim_time(c->d->sim);
	int rc;

	if ((rc = history_kept(c, w->back, &st)) != 0)
		return rc;
	if (!st.resumable)
		return call_fail(c, RESULT_DENIED,
		    "the model was written since the state %u back (time "
		    "%.6g s): steps from it would not be the ones taken",
		    w->back, st.time);
	/* The recording's count of steps goes on, as at a reset. */
	record_steps_restart(c->d);
	if (sim_history_resume(c->d->sim, w->back, c->err, sizeof(c->err)) != 0)
		return RESULT_BADINDEX;
	rollback_model_changed(c->d, 0);
	stepguard_reset(c->d);
	log_info("client %llu: resumed from the history, %u back (time %.6g "
		 "s, step %llu)",
	    (unsigned long long)c->s->id, w->back, st.time,
	    (unsigned long long)st.step);
	event_resume(c->d, left);
	return RESULT_OK;
}
