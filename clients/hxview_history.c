/*
 * GET /history.json: the live run's history for the workbench's
 * timeline (docs/recording.md, "The history").  Without arguments, what
 * the daemon keeps (its status); with back=N, the kept state N before
 * the newest as a frame of the event stream (poses, decorations, qpos,
 * sensors, computed here from that state by mj_forward as for a live
 * one), for the asking browser only: the simulation does not move, and
 * the other browsers see the live state.  Resuming from it is a control
 * (resume, hxview_control.c).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>

#include "hxview_http.h"

/* The query's back=N; 0 and *back, 1 when absent, -1 when bad. */
static int
history_back(struct evhttp_request *req, unsigned *back)
{
	const char *q = evhttp_uri_get_query(
	    evhttp_request_get_evhttp_uri(req));
	struct evkeyvalq args;
	const char *v;
	char *end;
	unsigned long n;
	int rc = 1;

	if (q == NULL)
		return 1;
	if (evhttp_parse_query_str(q, &args) != 0)
		return -1;
	if ((v = evhttp_find_header(&args, "back")) != NULL) {
		n = strtoul(v, &end, 10);
		rc = v[0] >= '0' && v[0] <= '9' && *end == '\0' &&
			n <= 0xffffffffUL ?
		    0 :
		    -1;
		*back = (unsigned)n;
	}
	evhttp_clear_headers(&args);
	return rc;
}

/* What the daemon keeps: its status's history. */
static void
history_summary(struct evhttp_request *req, hxd_conn *c)
{
	struct evbuffer *b;
	hxd_status st;

	if (hxd_status_get(c, &st) != HXD_OK) {
		reply_error(
		    req, HTTP_SERVUNAVAIL, "Service Unavailable", hxd_error(c));
		return;
	}
	if ((b = evbuffer_new()) == NULL) {
		evhttp_send_error(req, HTTP_INTERNAL, NULL);
		return;
	}
	evbuffer_add_printf(b,
	    "{\"seconds\":%.9g,\"states\":%u,\"capacity\":%u,\"stride\":%u,"
	    "\"bytes\":%llu,\"oldest\":%.9g,\"newest\":%.9g,\"paused\":%d,"
	    "\"time\":%.9g,\"steps\":%llu}\n",
	    st.history.seconds, st.history.states, st.history.capacity,
	    st.history.stride, st.history.bytes, st.history.oldest,
	    st.history.newest, st.paused, st.time, st.steps);
	reply_send(req, HTTP_OK, "OK", "application/json", b);
	evbuffer_free(b);
}

/* A kept state as a frame of the stream, pointing into h. */
static void
history_to_frame(const hxd_history_state *h, hxd_frame *f)
{
	memset(f, 0, sizeof(*f));
	f->time = h->time;
	f->step = h->step;
	f->nq = (int)h->nqpos;
	f->nv = (int)h->nqvel;
	f->na = (int)h->nact;
	f->nu = (int)h->nctrl;
	f->nmocap = (int)h->nmocap_pos / 3;
	f->nbody = (int)h->nxfrc_applied / 6;
	f->qpos = h->qpos;
	f->qvel = h->qvel;
	f->act = h->act;
	f->ctrl = h->ctrl;
	f->mocap_pos = h->mocap_pos;
	f->mocap_quat = h->mocap_quat;
	f->qfrc_applied = h->qfrc_applied;
	f->xfrc_applied = h->xfrc_applied;
}

/* The kept state back before the newest, as a frame. */
static void
history_state(struct evhttp_request *req, struct view *v, unsigned back)
{
	hxd_conn *c = view_conn(v);
	hxd_history_state h;
	hxd_frame f;
	struct evbuffer *b;
	char *text = NULL;
	size_t len = 0;
	FILE *out;
	int rc;

	if (hxd_history(c, back, &h) != HXD_OK) {
		reply_call_failed(req, c, HXD_BADINDEX);
		return;
	}
	history_to_frame(&h, &f);
	if ((out = open_memstream(&text, &len)) == NULL) {
		hxd_history_state_free(&h);
		evhttp_send_error(req, HTTP_INTERNAL, NULL);
		return;
	}
	fprintf(out, "{\"back\":%u,\"states\":%u,\"resumable\":%d,", back,
	    h.states, h.resumable);
	rc = web_frame_of(v, &f, out);
	fputs("}\n", out);
	fclose(out);
	hxd_history_state_free(&h);
	if (rc != 0 || (b = evbuffer_new()) == NULL) {
		free(text);
		reply_error(req, HTTP_SERVUNAVAIL, "Service Unavailable",
		    "the kept state is not of the model shown (a new model "
		    "came): ask again");
		return;
	}
	evbuffer_add(b, text, len);
	free(text);
	reply_send(req, HTTP_OK, "OK", "application/json", b);
	evbuffer_free(b);
}

void
history_route(
    struct http_server *srv, struct evhttp_request *req, const char *path)
{
	hxd_conn *c = view_conn(srv->v);
	unsigned back = 0;
	int rc;

	(void)path;
	if ((rc = history_back(req, &back)) < 0) {
		reply_error(req, HTTP_BADREQUEST, "Bad Request",
		    "back is a count of kept states before the newest (0: "
		    "the newest)");
		return;
	}
	if (rc == 1)
		history_summary(req, c);
	else
		history_state(req, srv->v, back);
}

int
history_export(struct view *v, struct export_range *rg, FILE *out, int *code,
    char *err, size_t len)
{
	hxd_conn *c = view_conn(v);
	hxd_history_state h;
	hxd_status st;
	unsigned long i, n, to;
	double last = NAN;
	hxd_frame f;
	int count = 0;

	if (hxd_status_get(c, &st) != HXD_OK) {
		*code = HTTP_SERVUNAVAIL;
		snprintf(err, len, "%s", hxd_error(c));
		return -1;
	}
	n = st.history.states;
	to = rg->to < n ? rg->to : n - 1;
	if (n == 0 || rg->from > to) {
		*code = HTTP_NOTFOUND;
		snprintf(err, len, "the history holds %lu states", n);
		return -1;
	}
	for (i = rg->from; i <= to && count < EXPORT_MAX_FRAMES; i++) {
		if (hxd_history(c, (unsigned)(n - 1 - i), &h) != HXD_OK) {
			*code = HTTP_SERVUNAVAIL;
			snprintf(err, len, "%s", hxd_error(c));
			return -1;
		}
		if (export_due(h.time, last, rg->fps)) {
			history_to_frame(&h, &f);
			fputs(count > 0 ? ",{" : "{", out);
			if (web_frame_of(v, &f, out) != 0) {
				hxd_history_state_free(&h);
				*code = 409;
				snprintf(err, len,
				    "a kept state is not of the model shown");
				return -1;
			}
			fputs("}", out);
			count++;
			last = h.time;
		}
		hxd_history_state_free(&h);
	}
	snprintf(rg->title, sizeof(rg->title),
	    "%s: the history, %.3f s to %.3f s", st.model.name,
	    st.history.oldest, st.history.newest);
	return count;
}
