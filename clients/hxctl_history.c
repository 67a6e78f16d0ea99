/*
 * hxctl history: the live run's kept states (docs/recording.md, "The
 * history"): how much is kept, one state by how many before the newest,
 * and resuming the run from one.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "haptixd.h"
#include "hxctl_common.h"

/* What the history holds, from the status. */
static int
history_summary(struct ctl *ctl)
{
	hxd_status st;

	if (hxd_status_get(ctl->conn, &st) != HXD_OK)
		return ctl_fail(ctl);
	if (ctl->json) {
		js_open('{');
		js_kn("seconds", st.history.seconds);
		js_ku("memory", st.history.memory);
		js_ki("states", st.history.states);
		js_ki("capacity", st.history.capacity);
		js_ku("bytes", st.history.bytes);
		js_ki("stride", st.history.stride);
		js_kn("oldest", st.history.oldest);
		js_kn("newest", st.history.newest);
		js_close('}');
		return CTL_OK;
	}
	if (st.history.seconds <= 0) {
		printf("no history (haptixd --history 0)\n");
		return CTL_OK;
	}
	printf("%u states of %u (%.3f s to %.3f s of simulated time), one "
	       "step in %u; %.1f MiB of %.1f MiB\n",
	    st.history.states, st.history.capacity, st.history.oldest,
	    st.history.newest, st.history.stride,
	    (double)st.history.bytes / (1 << 20),
	    (double)st.history.memory / (1 << 20));
	return CTL_OK;
}

/* One kept state: its time and step, and its arrays. */
static void
history_show(const struct ctl *ctl, const hxd_history_state *h)
{
	const struct {
		const char *name;
		const double *v;
		size_t n;
	} arrays[] = {
		{ "qpos", h->qpos, h->nqpos },
		{ "qvel", h->qvel, h->nqvel },
		{ "act", h->act, h->nact },
		{ "ctrl", h->ctrl, h->nctrl },
		{ "qfrc_applied", h->qfrc_applied, h->nqfrc_applied },
		{ "xfrc_applied", h->xfrc_applied, h->nxfrc_applied },
		{ "mocap_pos", h->mocap_pos, h->nmocap_pos },
		{ "mocap_quat", h->mocap_quat, h->nmocap_quat },
		{ "userdata", h->userdata, h->nuserdata },
		{ "qacc_warmstart", h->qacc_warmstart, h->nqacc_warmstart },
	};
	size_t i, j;

	if (ctl->json) {
		js_open('{');
		js_ki("back", h->back);
		js_ki("states", h->states);
		js_kn("time", h->time);
		js_ku("step", h->step);
		js_kb("resumable", h->resumable);
		for (i = 0; i < NELEM(arrays); i++)
			js_kv(arrays[i].name, arrays[i].v, (int)arrays[i].n);
		js_close('}');
		return;
	}
	printf("%u back of %u: time %.6f s, step %llu%s\n", h->back, h->states,
	    h->time, h->step,
	    h->resumable ? "" : " (the model was written since)");
	for (i = 0; i < NELEM(arrays); i++) {
		if (arrays[i].n == 0)
			continue;
		printf("%-15s", arrays[i].name);
		for (j = 0; j < arrays[i].n; j++)
			printf(" %.9g", arrays[i].v[j]);
		printf("\n");
	}
}

int
cmd_history(struct ctl *ctl)
{
	hxd_history_state h;
	const char *arg;
	long back = 0;
	int resume, rc;

	if ((rc = ctl_options(ctl, NULL, 0)) != 0)
		return rc;
	resume = ctl->npos >= 1 && strcmp(ctl->pos[0], "resume") == 0;
	if (ctl->npos > 1 + resume)
		return ctl_usage_error(ctl, "one BACK at most");
	arg = ctl->npos > resume ? ctl->pos[resume] : NULL;
	if (arg != NULL && parse_long(arg, 0, 4294967295L, &back) != 0)
		return ctl_usage_error(ctl,
		    "'%s' is not a count of kept states before the newest "
		    "(0: the newest)",
		    arg);
	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	if (resume) {
		if (hxd_history_resume(ctl->conn, (unsigned)back) != HXD_OK)
			return ctl_fail(ctl);
		if (ctl->json)
			js_ok();
		else
			printf("resumed from the state %ld back\n", back);
		return CTL_OK;
	}
	if (arg == NULL)
		return history_summary(ctl);
	if (hxd_history(ctl->conn, (unsigned)back, &h) != HXD_OK)
		return ctl_fail(ctl);
	history_show(ctl, &h);
	hxd_history_state_free(&h);
	return CTL_OK;
}
