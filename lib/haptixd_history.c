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

int
hxd_history(hxd_conn *c, unsigned back, hxd_history_state *out)
{
	Haptix__V1__HistoryRef w = HAPTIX__V1__HISTORY_REF__INIT;
	const Haptix__V1__HistoryState *h;
	Response *r;
	double *p;
	size_t i, total = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	w.back = back;
	rc = request_call(c, HAPTIX__V1__REQUEST__CALL_HISTORY, &w,
	    HAPTIX__V1__RESPONSE__PAYLOAD_HISTORY_STATE, &r);
	if (rc != HXD_OK)
		return rc;
	h = r->history_state;
	{
		/* The arrays, qpos first: one block, freed through qpos. */
		const struct {
			double **to;
			size_t *n;
			const double *from;
			size_t len;
		} a[] = {
			{ &out->qpos, &out->nqpos, h->qpos, h->n_qpos },
			{ &out->qvel, &out->nqvel, h->qvel, h->n_qvel },
			{ &out->act, &out->nact, h->act, h->n_act },
			{ &out->ctrl, &out->nctrl, h->ctrl, h->n_ctrl },
			{ &out->qfrc_applied, &out->nqfrc_applied,
			    h->qfrc_applied, h->n_qfrc_applied },
			{ &out->xfrc_applied, &out->nxfrc_applied,
			    h->xfrc_applied, h->n_xfrc_applied },
			{ &out->mocap_pos, &out->nmocap_pos, h->mocap_pos,
			    h->n_mocap_pos },
			{ &out->mocap_quat, &out->nmocap_quat, h->mocap_quat,
			    h->n_mocap_quat },
			{ &out->userdata, &out->nuserdata, h->userdata,
			    h->n_userdata },
			{ &out->qacc_warmstart, &out->nqacc_warmstart,
			    h->qacc_warmstart, h->n_qacc_warmstart },
		};

		for (i = 0; i < sizeof(a) / sizeof(a[0]); i++)
			total += a[i].len;
		if ((p = malloc((total + 1) * sizeof(double))) == NULL) {
			conn_free_response(r);
			return conn_fail(c, HXD_CANNOTRECV, "out of memory");
		}
		for (i = 0; i < sizeof(a) / sizeof(a[0]); i++) {
			*a[i].to = p;
			*a[i].n = a[i].len;
			if (a[i].len > 0)
				memcpy(p, a[i].from, a[i].len * sizeof(double));
			p += a[i].len;
		}
	}
	out->back = h->back;
	out->states = h->states;
	out->time = h->time;
	out->step = h->step;
	out->resumable = h->resumable;
	conn_free_response(r);
	return conn_ok(c);
}

void
hxd_history_state_free(hxd_history_state *s)
{
	if (s == NULL)
		return;
	free(s->qpos); /* the block of every array */
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
