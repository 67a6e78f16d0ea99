/*
 * hxview serve: what the event streams (Server-Sent Events) carry.
 * Server-Sent Events are the channel because they are plain HTTP: evhttp
 * carries them as a chunked reply, the browser's EventSource reads and
 * reconnects, and no framing is written by hand; what the page asks goes
 * the other way as ordinary POSTs.
 *
 * The first event (hello) tells a page its id; then each frame carries
 * the newest state, with that page's own selection and perturbation,
 * preceded by a model, look or camera event when one is new to it.  A
 * browser that has not read its last frame gets none (a later one).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <event2/buffer.h>
#include <event2/http.h>

#include "hxview_http.h"
#include "program.h"

static void events_chunk(struct http_stream *, const char *, size_t);
static int events_shared(struct http_server *);
static int events_look(struct http_server *);

/* Send text to an event stream as one chunk, counted. */
static void
events_chunk(struct http_stream *st, const char *text, size_t len)
{
	struct evbuffer *b = evbuffer_new();

	if (b == NULL)
		return;
	evbuffer_add(b, text, len);
	evhttp_send_reply_chunk(st->req, b);
	evbuffer_free(b);
	st->bytes += len;
}

static void events_server_members(struct http_server *, FILE *);

/* The first event: the page's id, and what it may do. */
void
events_hello(struct http_stream *st)
{
	struct http_server *srv = st->srv;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	if ((f = open_memstream(&text, &len)) == NULL)
		return;
	fprintf(f,
	    "event: hello\ndata: {\"id\":%u,\"read_only\":%s,"
	    "\"token\":%s,\"client\":%llu,\"fps\":%g,\"max_upload\":%zu,",
	    st->id, srv->h->read_only ? "true" : "false",
	    srv->h->token[0] != '\0' ? "true" : "false", srv->you,
	    fmin(srv->o->fps, HTTP_EVENTS_FPS_MAX),
	    http_takes_uploads(srv->h) ? srv->h->max_upload : (size_t)0);
	events_server_members(srv, f);
	fputs("}\n\n", f);
	if (fclose(f) == 0)
		events_chunk(st, text, len);
	free(text);
}

/*
 * The server and whether it is there: "server", "up", and when gone
 * "why" and "since".
 */
static void
events_server_members(struct http_server *srv, FILE *f)
{
	fputs("\"server\":", f);
	json_string(f, view_server(srv->v));
	fprintf(f, ",\"up\":%s", srv->gone ? "false" : "true");
	if (srv->gone) {
		fputs(",\"why\":", f);
		json_string(f, srv->why);
		fprintf(f, ",\"since\":%.0f", srv->gone_since);
	}
}

/* The server went away, or is back: the page says so. */
void
events_server(struct http_stream *st)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	if ((f = open_memstream(&text, &len)) == NULL)
		return;
	fputs("event: server\ndata: {", f);
	events_server_members(st->srv, f);
	fputs("}\n\n", f);
	if (fclose(f) == 0)
		events_chunk(st, text, len);
	free(text);
}

/* The members of the newest frame that every browser gets, made once. */
static int
events_shared(struct http_server *srv)
{
	FILE *f;

	if (srv->shared != NULL && srv->shared_seq == srv->seq)
		return 0;
	free(srv->shared);
	srv->shared = NULL;
	if ((f = open_memstream(&srv->shared, &srv->shared_len)) == NULL)
		return -1;
	if (web_frame(srv->v, f) != 0) {
		fclose(f);
		return -1;
	}
	if (fclose(f) != 0)
		return -1;
	srv->shared_seq = srv->seq;
	return 0;
}

/* The data of the look event, every item's look now, made once a look. */
static int
events_look(struct http_server *srv)
{
	unsigned looks = web_look_gen(srv->v);
	FILE *f;

	if (srv->look != NULL && srv->look_at == looks)
		return 0;
	free(srv->look);
	srv->look = NULL;
	if ((f = open_memstream(&srv->look, &srv->look_len)) == NULL)
		return -1;
	if (web_look(srv->v, f) != 0) {
		fclose(f);
		return -1;
	}
	if (fclose(f) != 0)
		return -1;
	srv->look_at = looks;
	return 0;
}

/*
 * Send the newest state to one browser, with its own selection and
 * perturbation, and the model first when it is new to it; a browser
 * that has not read the last frame gets none (it gets a later one).
 */
void
events_send(struct http_stream *st)
{
	struct http_server *srv = st->srv;
	unsigned gen = web_model_gen(srv->v);
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	if (conns_queued(st->req) > 2 * st->last_len + 4096) {
		st->skipped++;
		return;
	}
	if (events_shared(srv) != 0 ||
	    (f = open_memstream(&text, &len)) == NULL)
		return;
	if (st->gen != gen) {
		/* The scene it fetches holds the look of now. */
		fprintf(f, "event: model\ndata: {\"gen\":%u}\n\n", gen);
		st->gen = gen;
		st->looks = web_look_gen(srv->v);
	} else if (st->looks != web_look_gen(srv->v) && events_look(srv) == 0) {
		/* Colours, sizes or places changed: the items anew. */
		fputs("event: look\ndata: ", f);
		fwrite(srv->look, 1, srv->look_len, f);
		fputs("\n\n", f);
		st->looks = srv->look_at;
	}
	if (st->cameras != web_camera_gen(srv->v)) {
		/* The daemon's view camera: the page's camera goes there. */
		fputs("event: camera\ndata: ", f);
		web_camera(srv->v, f);
		fputs("\n\n", f);
		st->cameras = web_camera_gen(srv->v);
	}
	fputs("event: frame\ndata: {", f);
	fwrite(srv->shared, 1, srv->shared_len, f);
	web_pert_decor(srv->v, st->pert, f);
	if (st->perr[0] != '\0') {
		fputs(",\"perturb_error\":", f);
		json_string(f, st->perr);
		st->perr[0] = '\0';
	}
	fprintf(f, ",\"tx\":%.3f,\"frames\":%llu,\"skipped\":%llu}\n\n",
	    view_epoch_ms(), st->frames + 1, st->skipped);
	if (fclose(f) == 0) {
		events_chunk(st, text, len);
		st->last_len = len;
		st->frames++;
		st->seq = srv->seq;
		st->last = program_now();
	}
	free(text);
}

/*
 * Drive st's perturbation at the stream's rate, and send it the newest
 * state (or why its perturbation ended) when its last frame is a
 * frame's time old.
 */
void
events_tick(struct http_stream *st, double now, double period)
{
	struct http_server *srv = st->srv;

	if (srv->gone)
		return;
	if (web_pert_active(srv->v, st->pert) && now - st->drove >= period) {
		st->drove = now;
		if (web_pert_drive(srv->v, st->pert, view_conn(srv->v)) !=
		    HXD_OK) {
			snprintf(st->perr, sizeof(st->perr), "%s",
			    hxd_error(view_conn(srv->v)));
			web_pert_stop(srv->v, st->pert, view_conn(srv->v));
		}
	}
	/* A little early is on time: the timer's own jitter. */
	if ((st->seq != srv->seq || st->perr[0] != '\0') &&
	    now - st->last >= period - 0.002)
		events_send(st);
}
