/*
 * The live run's history: a kept state read without moving the
 * simulation, and the run resumed from one (docs/recording.md).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "conn.h"
#include "haptixd.h"
#include "request.h"

/* Copy n values of the wire into a new array at *to (n of them). */
static int
history_copy(
    hxd_conn *c, double **to, size_t *nto, const double *from, size_t n)
{
	*nto = n;
	if ((*to = malloc((n + 1) * sizeof(double))) == NULL)
		return conn_fail(c, HXD_CANNOTRECV, "out of memory");
	if (n > 0)
		memcpy(*to, from, n * sizeof(double));
	return HXD_OK;
}

int
hxd_history(hxd_conn *c, unsigned back, hxd_history_state *out)
{
	Haptix__V1__HistoryRef w = HAPTIX__V1__HISTORY_REF__INIT;
	const Haptix__V1__HistoryState *h;
	Response *r;
	int rc;

	memset(out, 0, sizeof(*out));
	w.back = back;
	rc = request_call(c, HAPTIX__V1__REQUEST__CALL_HISTORY, &w,
	    HAPTIX__V1__RESPONSE__PAYLOAD_HISTORY_STATE, &r);
	if (rc != HXD_OK)
		return rc;
	h = r->history_state;
	out->back = h->back;
	out->states = h->states;
	out->time = h->time;
	out->step = h->step;
	out->resumable = h->resumable;
	if ((rc = history_copy(
		 c, &out->qpos, &out->nqpos, h->qpos, h->n_qpos)) != HXD_OK ||
	    (rc = history_copy(
		 c, &out->qvel, &out->nqvel, h->qvel, h->n_qvel)) != HXD_OK ||
	    (rc = history_copy(c, &out->act, &out->nact, h->act, h->n_act)) !=
		HXD_OK ||
	    (rc = history_copy(
		 c, &out->ctrl, &out->nctrl, h->ctrl, h->n_ctrl)) != HXD_OK ||
	    (rc = history_copy(c, &out->qfrc_applied, &out->nqfrc_applied,
		 h->qfrc_applied, h->n_qfrc_applied)) != HXD_OK ||
	    (rc = history_copy(c, &out->xfrc_applied, &out->nxfrc_applied,
		 h->xfrc_applied, h->n_xfrc_applied)) != HXD_OK ||
	    (rc = history_copy(c, &out->mocap_pos, &out->nmocap_pos,
		 h->mocap_pos, h->n_mocap_pos)) != HXD_OK ||
	    (rc = history_copy(c, &out->mocap_quat, &out->nmocap_quat,
		 h->mocap_quat, h->n_mocap_quat)) != HXD_OK ||
	    (rc = history_copy(c, &out->userdata, &out->nuserdata, h->userdata,
		 h->n_userdata)) != HXD_OK ||
	    (rc = history_copy(c, &out->qacc_warmstart, &out->nqacc_warmstart,
		 h->qacc_warmstart, h->n_qacc_warmstart)) != HXD_OK) {
		conn_free_response(r);
		hxd_history_state_free(out);
		return rc;
	}
	conn_free_response(r);
	return conn_ok(c);
}

void
hxd_history_state_free(hxd_history_state *s)
{
	if (s == NULL)
		return;
	free(s->qpos);
	free(s->qvel);
	free(s->act);
	free(s->ctrl);
	free(s->qfrc_applied);
	free(s->xfrc_applied);
	free(s->mocap_pos);
	free(s->mocap_quat);
	free(s->userdata);
	free(s->qacc_warmstart);
	memset(s, 0, sizeof(*s));
}

int
hxd_history_resume(hxd_conn *c, unsigned back)
{
	Haptix__V1__HistoryRef w = HAPTIX__V1__HISTORY_REF__INIT;

	w.back = back;
	return request_call(
	    c, HAPTIX__V1__REQUEST__CALL_HISTORY_RESUME, &w, 0, NULL);
}
