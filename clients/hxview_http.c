/*
 * hxview serve: the live simulation in a browser, over libevent's HTTP
 * server.  The workbench (/, its script and style, and three.js from
 * Debian's libjs-three) draws the scene itself with WebGL: it fetches
 * the model's description (/scene.json, /meshes.bin, /texture/N.png)
 * once per model and follows the state through Server-Sent Events
 * (/events), and its controls POST to /control/NAME, each a call of the
 * protocol like any client's (the lease applies).  The EGL picture stays:
 * an MJPEG stream (/stream.mjpg) with its page (/picture), and single
 * frames (/frame.jpg, /frame.png); the state as JSON (/status.json).
 *
 * Server-Sent Events are the channel because they are plain HTTP: evhttp
 * (a dependency already) carries them as a chunked reply, the browser's
 * EventSource reads and reconnects, and no framing is written by hand;
 * what the page asks goes the other way as ordinary POSTs.
 *
 * The state is looked at every few milliseconds, and a new one goes to
 * each browser at once unless it had one less than a frame (1/--fps)
 * ago; a browser that reads slowly misses frames instead of making
 * everyone wait: nothing is queued to a connection that has not sent
 * what it was given.  EGL frames are rendered only while someone
 * watches or asks.
 *
 * Connections are counted from accept to close (libevent 2.1 has no
 * evhttp_set_max_connections); past --max-connections a newcomer closes
 * the oldest idle one, and one that stays idle is closed after a while.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <netdb.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/queue.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <linux/sockios.h>
#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>

#include "hxview_control.h"
#include "listen.h"

#define HTTP_BOUNDARY "hxviewframe"

/* How often the state is looked at, in microseconds: frames go out soon
 * after they come, not at the next 1/fps. */
#define HTTP_POLL_US 2000

/* The most frames a second a browser's event stream carries. */
#define HTTP_EVENTS_FPS_MAX 60.0

/* Files of the workbench, and the page's name for each. */
static const struct http_asset {
	const char *path; /* the URL */
	const char *file; /* in the assets directory; NULL: three.js */
	const char *type;
} http_assets[] = {
	{ "/", "index.html", "text/html; charset=utf-8" },
	{ "/index.html", "index.html", "text/html; charset=utf-8" },
	{ "/workbench.js", "workbench.js", "text/javascript; charset=utf-8" },
	{ "/state.js", "state.js", "text/javascript; charset=utf-8" },
	{ "/net.js", "net.js", "text/javascript; charset=utf-8" },
	{ "/shapes.js", "shapes.js", "text/javascript; charset=utf-8" },
	{ "/scene.js", "scene.js", "text/javascript; charset=utf-8" },
	{ "/view.js", "view.js", "text/javascript; charset=utf-8" },
	{ "/input.js", "input.js", "text/javascript; charset=utf-8" },
	{ "/panels.js", "panels.js", "text/javascript; charset=utf-8" },
	{ "/sliders.js", "sliders.js", "text/javascript; charset=utf-8" },
	{ "/plot.js", "plot.js", "text/javascript; charset=utf-8" },
	{ "/workbench.css", "workbench.css", "text/css; charset=utf-8" },
	{ "/three.min.js", NULL, "text/javascript; charset=utf-8" },
};

/* The most header bytes and body bytes a request may bring. */
#define HTTP_MAX_HEADERS 16384
#define HTTP_MAX_BODY 4096

/*
 * A connection that sends no request, or does not read its answer, for
 * this long is closed; a stream only for not reading.
 */
#define HTTP_IDLE_SECONDS 30
/* Connections the kernel holds for each listening address. */
#define HTTP_BACKLOG 128

/*
 * A stream that reads too slowly is dropped (its browser reconnects):
 * when what waits to go to it, in our buffer and the kernel's, is more
 * than HTTP_BEHIND_SECONDS of its frames, or has not gone down for
 * HTTP_STALL_SECONDS.  The kernel's share is kept small
 * (HTTP_STREAM_SNDBUF) so that the first counts.  Streams are capped
 * per address (HTTP_STREAMS_PER_ADDRESS) and in all, leaving a quarter
 * of --max-connections to page loads and controls.
 */
#define HTTP_BEHIND_SECONDS 2.0
#define HTTP_STALL_SECONDS 5.0
#define HTTP_STREAM_SNDBUF (256 * 1024)
#define HTTP_STREAMS_PER_ADDRESS 8
#define HTTP_CHECK_SECONDS 0.1 /* how often a stream's queue is looked at */

/* A browser connection receiving a stream: MJPEG, or the events. */
struct http_stream {
	struct evhttp_request *req;
	struct http_server *srv;
	struct http_conn *conn;
	int events;                   /* Server-Sent Events, else MJPEG */
	unsigned id;                  /* events: the page names itself by it */
	struct web_pert *pert;        /* events: its selection, perturbation */
	unsigned gen;                 /* events: the model it was told of */
	unsigned looks;               /* events: the model's look, told */
	unsigned cameras;             /* events: the daemon's camera, told */
	unsigned long long sent_step; /* events: the last state sent */
	double last;                  /* events: when it was sent (view_now) */
	double started;               /* view_now() */
	double drove;                 /* the perturbation, last sent */
	unsigned long long seq;       /* events: the state it was sent */
	size_t last_len;              /* events: the last frame's bytes */
	char perr[256];               /* events: why its perturbation ended */
	unsigned long long bytes, frames, skipped;
	char addr[64];      /* the browser's address */
	size_t waiting;     /* bytes not yet taken at the last look */
	double progress_at; /* when they last went down, or were none */
	double checked;     /* when they were last looked at */
	int dropped;        /* too slow: its connection is being closed */
	TAILQ_ENTRY(http_stream) entry;
};

/*
 * A connection, from its accept to its close.  evhttp makes the
 * connection after asking us for its bufferevent (http_conn_bev), so we
 * learn of it from that bufferevent once evhttp has set it up (adopt).
 * Our reference keeps the bufferevent valid until then, even if evhttp
 * gives up on the connection first.
 */
struct http_conn {
	struct http_server *srv;
	struct bufferevent *bev;         /* referenced until the close */
	struct evhttp_connection *evcon; /* NULL until adopted */
	struct http_stream *stream;      /* the stream it carries, or NULL */
	int refused;                  /* over the limit: closed on adoption */
	TAILQ_ENTRY(http_conn) entry; /* oldest first */
};

struct http_server {
	struct event_base *base;
	struct evhttp *http;
	struct view *v;
	const struct view_options *o;
	const struct http_options *h;
	unsigned char *rgb;  /* the last frame rendered */
	unsigned char *jpeg; /* and encoded */
	size_t jpeg_len;
	int fresh;  /* rgb shows the view's current state */
	int failed; /* the server went away */
	char why[512];
	unsigned long long frames;
	double rendered;        /* when the EGL frame was, for --fps */
	unsigned long long seq; /* states and statuses taken so far */
	char *shared;           /* the frame's members every browser gets */
	size_t shared_len;
	unsigned long long shared_seq; /* the state shared holds */
	char *look;                    /* the look event's data, made once */
	size_t look_len;
	unsigned look_at;       /* the look it holds; 0: none made */
	unsigned next_id;       /* of the next event stream */
	char assets[1024];      /* the workbench's directory */
	unsigned long long you; /* hxview's client id at the server */
	TAILQ_HEAD(, http_stream) streams;
	TAILQ_HEAD(, http_conn) conns;
	int nconns;             /* counted: not refused */
	struct event *adopt_ev; /* adopt the connections just accepted */
	/* The names a request's Host may give: "" when any will do. */
	char hosts[4][300];
	int nhosts;
};

static int http_loopback(const char *);
static void http_events_hello(struct http_stream *);
static void http_events_send(struct http_stream *);
static void http_conn_closed(struct evhttp_connection *, void *);
static int http_refuse_stranger(struct http_server *, struct evhttp_request *);

/* The page, a printf format: width, height, " hidden" when read-only. */
#define HTTP_PAGE \
	"<!DOCTYPE html>\n" \
	"<html lang=\"en\"><head><meta charset=\"utf-8\">\n" \
	"<title>hxview</title>\n" \
	"<style>\n" \
	"body{background:#1d1f21;color:#ddd;font:14px sans-serif;margin:1em}\n" \
	"img{display:block;max-width:100%%;background:#000}\n" \
	"button{font:inherit;margin:.5em .5em .5em 0;padding:.3em 1em}\n" \
	"#status{font-family:monospace}\n" \
	"</style></head><body>\n" \
	"<img id=\"view\" src=\"/stream.mjpg\" width=\"%d\" height=\"%d\" " \
	"alt=\"the simulation\">\n" \
	"<div id=\"controls\"%s>\n" \
	"<button id=\"pause\" onclick=\"control('pause')\">Pause</button>\n" \
	"<button id=\"run\" onclick=\"control('run')\">Run</button>\n" \
	"<button id=\"reset\" onclick=\"control('reset')\">Reset</button>\n" \
	"</div>\n" \
	"<div id=\"status\">connecting</div>\n" \
	"<script>\n" \
	"function show(s){document.getElementById('status').textContent=s;}\n" \
	"function control(what){\n" \
	" fetch('/control/'+what,{method:'POST',headers:{'X-Hxview':'1'}})\n" \
	"  .then(r=>r.json()).then(j=>{if(j.error)show(what+': '+j.error);})\n" \
	"  .catch(e=>show(what+': '+e));}\n" \
	"function poll(){fetch('/status.json').then(r=>r.json()).then(j=>{\n" \
	" show('time '+j.time.toFixed(3)+' s, step '+j.step+\n" \
	"  (j.paused?', paused':', running')+\n" \
	"  (j.message?', message: '+j.message:''));})\n" \
	" .catch(e=>show('no answer: '+e));}\n" \
	"setInterval(poll,500);poll();\n" \
	"</script></body></html>\n"

/* Add text to b as the inside of a JSON string. */
static void
json_string(struct evbuffer *b, const char *text)
{
	const char *p;

	for (p = text; *p != '\0'; p++) {
		if (*p == '"' || *p == '\\')
			evbuffer_add_printf(b, "\\%c", *p);
		else if ((unsigned char)*p < 0x20)
			evbuffer_add_printf(b, "\\u%04x", (unsigned char)*p);
		else
			evbuffer_add(b, p, 1);
	}
}

static void
http_reply(struct evhttp_request *req, int code, const char *reason,
    const char *type, struct evbuffer *body)
{
	struct evkeyvalq *out = evhttp_request_get_output_headers(req);

	evhttp_add_header(out, "Content-Type", type);
	evhttp_add_header(out, "Cache-Control", "no-store");
	evhttp_send_reply(req, code, reason, body);
}

/* Answer with a JSON error object. */
static void
http_error(
    struct evhttp_request *req, int code, const char *reason, const char *text)
{
	struct evbuffer *b = evbuffer_new();

	if (b == NULL) {
		evhttp_send_error(req, HTTP_INTERNAL, NULL);
		return;
	}
	evbuffer_add_printf(b, "{\"error\":\"");
	json_string(b, text);
	evbuffer_add_printf(b, "\"}\n");
	http_reply(req, code, reason, "application/json", b);
	evbuffer_free(b);
}

/* Render the current state unless the last frame already shows it. */
static int
http_render(struct http_server *srv)
{
	int rc;

	if (srv->fresh)
		return 0;
	view_render(srv->v, srv->rgb);
	free(srv->jpeg);
	rc = image_jpeg(srv->rgb, srv->o->width, srv->o->height,
	    srv->h->quality, &srv->jpeg, &srv->jpeg_len);
	if (rc != 0)
		return -1;
	srv->fresh = 1;
	srv->frames++;
	return 0;
}

/* Bytes still waiting to go out on a request's connection. */
static size_t
http_queued(struct evhttp_request *req)
{
	struct evhttp_connection *evcon = evhttp_request_get_connection(req);
	struct bufferevent *bev;

	if (evcon == NULL ||
	    (bev = evhttp_connection_get_bufferevent(evcon)) == NULL)
		return 0;
	return evbuffer_get_length(bufferevent_get_output(bev));
}

static void
http_stream_send(struct http_stream *st)
{
	struct http_server *srv = st->srv;
	struct evbuffer *b;

	if (http_queued(st->req) > 2 * srv->jpeg_len + 1024)
		return; /* a slow reader: it gets a later frame */
	if ((b = evbuffer_new()) == NULL)
		return;
	evbuffer_add_printf(b,
	    "--" HTTP_BOUNDARY "\r\nContent-Type: image/jpeg\r\n"
	    "Content-Length: %zu\r\n\r\n",
	    srv->jpeg_len);
	evbuffer_add(b, srv->jpeg, srv->jpeg_len);
	evbuffer_add(b, "\r\n", 2);
	evhttp_send_reply_chunk(st->req, b);
	evbuffer_free(b);
}

/*
 * The browser went away, or we stop.  libevent has detached the
 * unfinished reply from the dying connection and left it to us: ending
 * it frees it.
 */
static void
http_stream_end(struct http_stream *st)
{
	/* A push that the mouse was still making ends with its page. */
	if (st->pert != NULL) {
		web_pert_stop(st->srv->v, st->pert, view_conn(st->srv->v));
		web_pert_free(st->pert);
	}
	st->conn->stream = NULL;
	TAILQ_REMOVE(&st->srv->streams, st, entry);
	evhttp_send_reply_end(st->req);
	free(st);
}

/* Send text to an event stream as one chunk, counted. */
static void
http_events_chunk(struct http_stream *st, const char *text, size_t len)
{
	struct evbuffer *b = evbuffer_new();

	if (b == NULL)
		return;
	evbuffer_add(b, text, len);
	evhttp_send_reply_chunk(st->req, b);
	evbuffer_free(b);
	st->bytes += len;
}

/* The first event: the page's id, and what it may do. */
static void
http_events_hello(struct http_stream *st)
{
	struct http_server *srv = st->srv;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	if ((f = open_memstream(&text, &len)) == NULL)
		return;
	fprintf(f,
	    "event: hello\ndata: {\"id\":%u,\"read_only\":%s,"
	    "\"token\":%s,\"client\":%llu,\"fps\":%g,\"server\":",
	    st->id, srv->h->read_only ? "true" : "false",
	    srv->h->token[0] != '\0' ? "true" : "false", srv->you,
	    fmin(srv->o->fps, HTTP_EVENTS_FPS_MAX));
	web_json_string(f, hxd_server_address(view_conn(srv->v)));
	fputs("}\n\n", f);
	if (fclose(f) == 0)
		http_events_chunk(st, text, len);
	free(text);
}

/* The members of the newest frame that every browser gets, made once. */
static int
http_events_shared(struct http_server *srv)
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
http_events_look(struct http_server *srv)
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
static void
http_events_send(struct http_stream *st)
{
	struct http_server *srv = st->srv;
	unsigned gen = web_model_gen(srv->v);
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	if (http_queued(st->req) > 2 * st->last_len + 4096) {
		st->skipped++;
		return;
	}
	if (http_events_shared(srv) != 0 ||
	    (f = open_memstream(&text, &len)) == NULL)
		return;
	if (st->gen != gen) {
		/* The scene it fetches holds the look of now. */
		fprintf(f, "event: model\ndata: {\"gen\":%u}\n\n", gen);
		st->gen = gen;
		st->looks = web_look_gen(srv->v);
	} else if (st->looks != web_look_gen(srv->v) &&
	    http_events_look(srv) == 0) {
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
		web_json_string(f, st->perr);
		st->perr[0] = '\0';
	}
	fprintf(f, ",\"tx\":%.3f,\"frames\":%llu,\"skipped\":%llu}\n\n",
	    view_epoch_ms(), st->frames + 1, st->skipped);
	if (fclose(f) == 0) {
		http_events_chunk(st, text, len);
		st->last_len = len;
		st->frames++;
		st->seq = srv->seq;
		st->last = view_now();
	}
	free(text);
}

/* Forget a connection closed: its place is free. */
static void
http_conn_forget(struct http_conn *c)
{
	TAILQ_REMOVE(&c->srv->conns, c, entry);
	if (!c->refused)
		c->srv->nconns--;
	bufferevent_decref(c->bev);
	free(c);
}

/*
 * Learn the connections evhttp has set up since the last time, from
 * the bufferevents it was given: each is told to call us when it
 * closes; one refused is closed now.
 */
static void
http_conns_adopt(struct http_server *srv)
{
	struct http_conn *c, *next;
	void *evcon;

	for (c = TAILQ_FIRST(&srv->conns); c != NULL; c = next) {
		next = TAILQ_NEXT(c, entry);
		if (c->evcon != NULL)
			continue;
		bufferevent_getcb(c->bev, NULL, NULL, NULL, &evcon);
		if (evcon == NULL) { /* evhttp gave up on it already */
			http_conn_forget(c);
			continue;
		}
		c->evcon = evcon;
		evhttp_connection_set_closecb(c->evcon, http_conn_closed, c);
		if (c->refused)
			evhttp_connection_free(c->evcon);
	}
}

static void
http_adopt_cb(evutil_socket_t fd, short events, void *arg)
{
	http_conns_adopt(arg);
}

/* A connection closes, whoever closes it. */
static void
http_conn_closed(struct evhttp_connection *evcon, void *arg)
{
	struct http_conn *c = arg;

	if (c->stream != NULL)
		http_stream_end(c->stream);
	http_conn_forget(c);
}

/*
 * Close the oldest idle connection: no stream, nothing left to send (a
 * browser keeping it for later, or a request begun and never ended).
 * Returns 0, or -1 when every one is busy.
 */
static int
http_conns_evict(struct http_server *srv)
{
	struct http_conn *c;

	TAILQ_FOREACH(c, &srv->conns, entry)
	{
		if (c->evcon == NULL || c->refused || c->stream != NULL ||
		    evbuffer_get_length(bufferevent_get_output(c->bev)) != 0)
			continue;
		evhttp_connection_free(c->evcon); /* forgets c */
		return 0;
	}
	return -1;
}

/*
 * evhttp accepted a connection and asks for its bufferevent: count it.
 * Past --max-connections the oldest idle one goes; when none is idle,
 * this one is refused.  NULL lets evhttp make its own (uncounted).
 */
static struct bufferevent *
http_conn_bev(struct event_base *base, void *arg)
{
	struct http_server *srv = arg;
	struct bufferevent *bev;
	struct http_conn *c;

	http_conns_adopt(srv);
	if ((c = calloc(1, sizeof(*c))) == NULL)
		return NULL;
	if ((bev = bufferevent_socket_new(base, -1, 0)) == NULL) {
		free(c);
		return NULL;
	}
	bufferevent_incref(bev);
	c->srv = srv;
	c->bev = bev;
	if (srv->nconns >= srv->h->max_connections &&
	    http_conns_evict(srv) != 0)
		c->refused = 1;
	else
		srv->nconns++;
	TAILQ_INSERT_TAIL(&srv->conns, c, entry);
	event_active(srv->adopt_ev, EV_TIMEOUT, 0);
	return bev;
}

/* The counted connection a request came on, or NULL. */
static struct http_conn *
http_conn_of(struct http_server *srv, struct evhttp_request *req)
{
	struct evhttp_connection *evcon = evhttp_request_get_connection(req);
	struct http_conn *c;

	http_conns_adopt(srv);
	TAILQ_FOREACH(c, &srv->conns, entry)
	{
		if (c->evcon == evcon && evcon != NULL)
			return c;
	}
	return NULL;
}

/*
 * Whether another stream may start for addr: one of at most
 * HTTP_STREAMS_PER_ADDRESS from it, and a quarter of --max-connections
 * kept for the rest.  0, or -1 having answered req with 503 and why.
 */
static int
http_stream_room(
    struct http_server *srv, struct evhttp_request *req, const char *addr)
{
	int all = 0, mine = 0,
	    cap = srv->h->max_connections - srv->h->max_connections / 4;
	struct http_stream *st;
	char why[256];

	TAILQ_FOREACH(st, &srv->streams, entry)
	{
		all++;
		mine += strcmp(st->addr, addr) == 0;
	}
	if (mine >= HTTP_STREAMS_PER_ADDRESS)
		snprintf(why, sizeof(why),
		    "%d streams from %s already (at most %d an address): "
		    "close one first",
		    mine, addr, HTTP_STREAMS_PER_ADDRESS);
	else if (all >= (cap > 0 ? cap : 1))
		snprintf(why, sizeof(why),
		    "%d streams already (at most %d, leaving the rest of "
		    "--max-connections to pages and controls)",
		    all, cap > 0 ? cap : 1);
	else
		return 0;
	evhttp_add_header(
	    evhttp_request_get_output_headers(req), "Connection", "close");
	http_error(req, HTTP_SERVUNAVAIL, "Service Unavailable", why);
	return -1;
}

/* Bytes waiting to go to st's browser: in our buffer and the kernel's. */
static size_t
http_stream_waiting(struct http_stream *st)
{
	int fd = bufferevent_getfd(st->conn->bev), n = 0;
	size_t ours = evbuffer_get_length(
	    bufferevent_get_output(st->conn->bev));

	if (fd >= 0 && ioctl(fd, SIOCOUTQ, &n) != 0)
		n = 0;
	return ours + (size_t)(n > 0 ? n : 0);
}

/*
 * Drop st if its browser does not keep up (see HTTP_BEHIND_SECONDS):
 * its connection closes, which ends the stream.  Returns 1 if dropped
 * (now or before).
 */
static int
http_stream_check(struct http_stream *st, double now)
{
	struct http_server *srv = st->srv;
	size_t waiting, frame, behind;
	double rate = st->events ? fmin(srv->o->fps, HTTP_EVENTS_FPS_MAX) :
				   srv->o->fps;
	const char *why = NULL;

	/* A few ioctls a second are enough; the loop turns every 2 ms. */
	if (st->dropped || now - st->checked < HTTP_CHECK_SECONDS)
		return st->dropped;
	st->checked = now;
	waiting = http_stream_waiting(st);
	if (waiting == 0 || waiting < st->waiting)
		st->progress_at = now;
	st->waiting = waiting;
	frame = st->events ? st->last_len : srv->jpeg_len;
	behind = (size_t)(HTTP_BEHIND_SECONDS * rate * (double)frame);
	if (behind < 65536)
		behind = 65536;
	if (waiting > behind)
		why = "more than 2 s of frames wait for it";
	else if (now - st->progress_at > HTTP_STALL_SECONDS)
		why = "it took nothing for 5 s";
	if (why == NULL)
		return 0;
	fprintf(stderr, "hxview: a %s stream to %s dropped: %s\n",
	    st->events ? "event" : "picture", st->addr, why);
	/* Its connection sees the end, and closes as a browser's that
	 * went away: that ends the stream. */
	st->dropped = 1;
	shutdown(bufferevent_getfd(st->conn->bev), SHUT_RDWR);
	return 1;
}

/*
 * Begin a stream on req: MJPEG, or the events (text/event-stream),
 * whose first event tells the page its id.
 */
static void
http_stream_start(
    struct http_server *srv, struct evhttp_request *req, int events)
{
	struct evkeyvalq *out = evhttp_request_get_output_headers(req);
	struct timeval write_tv = { (time_t)HTTP_STALL_SECONDS, 0 };
	struct evhttp_connection *evcon = evhttp_request_get_connection(req);
	int sndbuf = HTTP_STREAM_SNDBUF, fd;
	struct http_stream *st;
	struct http_conn *c;
	char *host = NULL;
	ev_uint16_t port;

	if (evcon != NULL)
		evhttp_connection_get_peer(evcon, &host, &port);
	if (http_stream_room(srv, req, host != NULL ? host : "?") != 0)
		return;
	if ((c = http_conn_of(srv, req)) == NULL ||
	    (st = calloc(1, sizeof(*st))) == NULL) {
		evhttp_send_error(req, HTTP_INTERNAL, "out of memory");
		return;
	}
	snprintf(st->addr, sizeof(st->addr), "%s", host != NULL ? host : "?");
	if ((fd = bufferevent_getfd(c->bev)) >= 0)
		setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf));
	if (events && (st->pert = web_pert_new()) == NULL) {
		free(st);
		evhttp_send_error(req, HTTP_INTERNAL, "out of memory");
		return;
	}
	st->req = req;
	st->srv = srv;
	st->conn = c;
	st->events = events;
	st->started = view_now();
	st->progress_at = st->started;
	c->stream = st;
	evhttp_add_header(out, "Content-Type",
	    events ? "text/event-stream" :
		     "multipart/x-mixed-replace; boundary=" HTTP_BOUNDARY);
	evhttp_add_header(out, "Cache-Control", "no-store");
	evhttp_send_reply_start(req, HTTP_OK, "OK");
	/* A watcher sends nothing more: only not reading is idle. */
	bufferevent_set_timeouts(c->bev, NULL, &write_tv);
	TAILQ_INSERT_TAIL(&srv->streams, st, entry);
	if (events) {
		st->id = ++srv->next_id;
		/* The scene it fetches holds the daemon's camera of now. */
		st->cameras = web_camera_gen(srv->v);
		http_events_hello(st);
		http_events_send(st);
	} else if (http_render(srv) == 0)
		http_stream_send(st);
}

static void
http_frame(struct http_server *srv, struct evhttp_request *req, int png)
{
	struct evbuffer *b;
	char *data = NULL;
	size_t len = 0;
	FILE *f;

	if (http_render(srv) != 0) {
		http_error(req, HTTP_INTERNAL, "Internal Server Error",
		    "cannot encode the frame");
		return;
	}
	if ((b = evbuffer_new()) == NULL) {
		evhttp_send_error(req, HTTP_INTERNAL, NULL);
		return;
	}
	if (png) {
		if ((f = open_memstream(&data, &len)) == NULL ||
		    image_png_write(
			f, srv->rgb, srv->o->width, srv->o->height) != 0) {
			if (f != NULL)
				fclose(f);
			free(data);
			evbuffer_free(b);
			http_error(req, HTTP_INTERNAL, "Internal Server Error",
			    "cannot encode the frame");
			return;
		}
		fclose(f);
		evbuffer_add(b, data, len);
		free(data);
		http_reply(req, HTTP_OK, "OK", "image/png", b);
	} else {
		evbuffer_add(b, srv->jpeg, srv->jpeg_len);
		http_reply(req, HTTP_OK, "OK", "image/jpeg", b);
	}
	evbuffer_free(b);
}

static void
http_status(struct http_server *srv, struct evhttp_request *req)
{
	struct evbuffer *b = evbuffer_new();
	struct http_stream *s;
	hxd_status st;

	if (b == NULL) {
		evhttp_send_error(req, HTTP_INTERNAL, NULL);
		return;
	}
	if (hxd_status_get(view_conn(srv->v), &st) != HXD_OK) {
		evbuffer_free(b);
		http_error(req, HTTP_SERVUNAVAIL, "Service Unavailable",
		    hxd_error(view_conn(srv->v)));
		return;
	}
	evbuffer_add_printf(b,
	    "{\"time\":%.17g,\"step\":%llu,\"paused\":%s,"
	    "\"realtime_factor\":%.6g,\"frames\":%llu,\"message\":\"",
	    st.time, st.steps, st.paused ? "true" : "false",
	    isfinite(st.realtime_factor) ? st.realtime_factor : 0, srv->frames);
	json_string(b, st.message);
	evbuffer_add_printf(b, "\",\"streams\":[");
	TAILQ_FOREACH(s, &srv->streams, entry)
	{
		evbuffer_add_printf(b,
		    "%s{\"kind\":\"%s\",\"id\":%u,\"seconds\":%.3f,"
		    "\"bytes\":%llu,\"frames\":%llu,\"skipped\":%llu}",
		    s == TAILQ_FIRST(&srv->streams) ? "" : ",",
		    s->events ? "events" : "mjpeg", s->id,
		    view_now() - s->started, s->bytes, s->frames, s->skipped);
	}
	evbuffer_add_printf(b, "]}\n");
	http_reply(req, HTTP_OK, "OK", "application/json", b);
	evbuffer_free(b);
}

/* A request's argument, from its query or its form body. */
static const char *
http_arg(void *args, const char *name)
{
	return evhttp_find_header(args, name);
}

/* The event stream of the page whose id a request gives, or NULL. */
static struct http_stream *
http_stream_by_id(struct http_server *srv, const char *id)
{
	struct http_stream *st;
	unsigned long n;
	char *end;

	if (id == NULL)
		return NULL;
	n = strtoul(id, &end, 10);
	if (id[0] == '\0' || *end != '\0')
		return NULL;
	TAILQ_FOREACH(st, &srv->streams, entry)
	{
		if (st->events && st->id == n)
			return st;
	}
	return NULL;
}

/* Compare two strings in time that does not depend on where they differ. */
static int
http_token_equal(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i;
	unsigned char d = la != lb;

	for (i = 0; i < la; i++)
		d |= (unsigned char)(a[i] ^ b[i % (lb > 0 ? lb : 1)]);
	return d == 0;
}

/*
 * POST /control/NAME from the workbench: every one must carry the
 * page's header (X-Hxview: 1), a Host of ours (checked for every
 * request) and an Origin of ours when a browser sends one; beyond
 * loopback, the daemon's token too.  Arguments come in the query or as
 * a form in the body.
 */
static void
http_control(
    struct http_server *srv, struct evhttp_request *req, const char *what)
{
	struct evkeyvalq *in = evhttp_request_get_input_headers(req);
	struct evkeyvalq args;
	struct control_req r;
	struct http_stream *st;
	const char *mark, *token, *query;
	struct evbuffer *b, *body;
	char *extra = NULL, form[HTTP_MAX_BODY + 1];
	size_t elen = 0, n;
	int row, writes, rc, code;

	if (evhttp_request_get_command(req) != EVHTTP_REQ_POST) {
		http_error(
		    req, 405, "Method Not Allowed", "controls take POST");
		return;
	}
	/*
	 * Only the page's own script sets this header: a form or image on
	 * another site cannot, and a cross-site script that tries is
	 * stopped by the browser's preflight, which we never approve.
	 */
	mark = evhttp_find_header(in, "X-Hxview");
	if (mark == NULL || strcmp(mark, "1") != 0) {
		http_error(req, HTTP_BADREQUEST, "Bad Request",
		    "controls need the header X-Hxview: 1");
		return;
	}
	if (evhttp_find_header(in, "Host") == NULL) {
		http_error(req, HTTP_BADREQUEST, "Bad Request",
		    "controls need a Host header");
		return;
	}
	if ((row = control_find(what, &writes)) < 0) {
		if ((r.out = open_memstream(&extra, &elen)) != NULL) {
			fputs("no such control: ", r.out);
			control_names(r.out);
			fclose(r.out);
		}
		http_error(req, HTTP_NOTFOUND, "Not Found",
		    extra != NULL ? extra : "no such control");
		free(extra);
		return;
	}
	if (srv->h->read_only && writes) {
		http_error(req, 403, "Forbidden",
		    "this viewer is read-only (hxview serve --read-only)");
		return;
	}
	token = evhttp_find_header(in, "X-Hxview-Token");
	if (srv->h->token[0] != '\0' &&
	    (token == NULL || !http_token_equal(token, srv->h->token))) {
		http_error(req, 401, "Unauthorized",
		    "this viewer is not on loopback: controls need the "
		    "daemon's token (X-Hxview-Token)");
		return;
	}
	/* The query's arguments, else the form's. */
	TAILQ_INIT(&args);
	query = evhttp_uri_get_query(evhttp_request_get_evhttp_uri(req));
	body = evhttp_request_get_input_buffer(req);
	n = evbuffer_get_length(body);
	if (query != NULL && query[0] != '\0') {
		rc = evhttp_parse_query_str(query, &args);
	} else {
		n = evbuffer_remove(
		    body, form, n < HTTP_MAX_BODY ? n : HTTP_MAX_BODY);
		form[n > 0 ? n : 0] = '\0';
		rc = evhttp_parse_query_str(form, &args);
	}
	if (rc != 0) {
		evhttp_clear_headers(&args);
		http_error(req, HTTP_BADREQUEST, "Bad Request",
		    "the arguments are not a query string");
		return;
	}
	memset(&r, 0, sizeof(r));
	r.v = srv->v;
	r.c = view_conn(srv->v);
	r.arg = http_arg;
	r.args = &args;
	st = http_stream_by_id(srv, evhttp_find_header(&args, "id"));
	r.pert = st != NULL ? st->pert : NULL;
	if ((r.out = open_memstream(&extra, &elen)) == NULL) {
		evhttp_clear_headers(&args);
		evhttp_send_error(req, HTTP_INTERNAL, NULL);
		return;
	}
	rc = control_call(row, &r);
	fclose(r.out);
	evhttp_clear_headers(&args);
	if (rc != CONTROL_OK) {
		code = rc == CONTROL_BAD ? HTTP_BADREQUEST :
		    rc == CONTROL_DENIED ? 403 :
					   409;
		http_error(req, code,
		    code == HTTP_BADREQUEST ? "Bad Request" :
			code == 403         ? "Forbidden" :
					      "Conflict",
		    r.err);
		free(extra);
		return;
	}
	if ((b = evbuffer_new()) == NULL) {
		free(extra);
		evhttp_send_error(req, HTTP_INTERNAL, NULL);
		return;
	}
	evbuffer_add_printf(b, "{\"ok\":true%s}\n", extra != NULL ? extra : "");
	free(extra);
	http_reply(req, HTTP_OK, "OK", "application/json", b);
	evbuffer_free(b);
}

/* Answer with what f's writer wrote, or an error. */
static void
http_reply_made(struct evhttp_request *req, const char *type,
    int (*make)(struct view *, FILE *), struct view *v)
{
	struct evbuffer *b;
	char *data = NULL;
	size_t len = 0;
	FILE *f;
	int rc;

	if ((f = open_memstream(&data, &len)) == NULL) {
		evhttp_send_error(req, HTTP_INTERNAL, NULL);
		return;
	}
	rc = make(v, f);
	if (fclose(f) != 0 || rc != 0 || (b = evbuffer_new()) == NULL) {
		free(data);
		http_error(req, HTTP_INTERNAL, "Internal Server Error",
		    "cannot describe the scene");
		return;
	}
	evbuffer_add(b, data, len);
	free(data);
	http_reply(req, HTTP_OK, "OK", type, b);
	evbuffer_free(b);
}

/* GET /texture/N.png: a texture of the model, for the page's materials. */
static void
http_texture(
    struct http_server *srv, struct evhttp_request *req, const char *name)
{
	struct evbuffer *b;
	char *data = NULL, *end;
	size_t len = 0;
	long id;
	FILE *f;
	int rc;

	id = strtol(name, &end, 10);
	if (end == name || strcmp(end, ".png") != 0 ||
	    (f = open_memstream(&data, &len)) == NULL) {
		http_error(req, HTTP_NOTFOUND, "Not Found", "no such texture");
		return;
	}
	rc = web_texture(srv->v, (int)id, f);
	if (fclose(f) != 0 || rc != 0 || (b = evbuffer_new()) == NULL) {
		free(data);
		http_error(req, HTTP_NOTFOUND, "Not Found", "no such texture");
		return;
	}
	evbuffer_add(b, data, len);
	free(data);
	http_reply(req, HTTP_OK, "OK", "image/png", b);
	evbuffer_free(b);
}

/* Is name a model file the server could load (by its extension)? */
static int
http_model_file(const char *name)
{
	const char *dot = strrchr(name, '.');

	return name[0] != '.' && dot != NULL &&
	    (strcasecmp(dot, ".xml") == 0 || strcasecmp(dot, ".mjb") == 0 ||
		strcasecmp(dot, ".urdf") == 0);
}

/*
 * GET /models.json: the server's model directories and, where hxview
 * can read them (it runs on the server's machine), their model files.
 */
static void
http_models(struct http_server *srv, struct evhttp_request *req)
{
	hxd_conn *c = view_conn(srv->v);
	struct dirent *e;
	struct evbuffer *b;
	char **dirs = NULL, *text = NULL;
	size_t len = 0;
	int i, n;
	FILE *f;
	DIR *d;

	if (hxd_model_dirs(c, NULL, &dirs, NULL) != HXD_OK) {
		http_error(
		    req, HTTP_SERVUNAVAIL, "Service Unavailable", hxd_error(c));
		return;
	}
	if ((f = open_memstream(&text, &len)) == NULL) {
		free(dirs);
		evhttp_send_error(req, HTTP_INTERNAL, NULL);
		return;
	}
	fputs("{\"dirs\":[", f);
	for (i = 0; dirs[i] != NULL; i++) {
		fprintf(f, "%s{\"dir\":", i > 0 ? "," : "");
		web_json_string(f, dirs[i]);
		fputs(",\"files\":[", f);
		n = 0;
		if ((d = opendir(dirs[i])) != NULL) {
			while ((e = readdir(d)) != NULL && n < 1000) {
				if (!http_model_file(e->d_name))
					continue;
				if (n++ > 0)
					fputc(',', f);
				web_json_string(f, e->d_name);
			}
			closedir(d);
		}
		fputs("]}", f);
	}
	fputs("]}\n", f);
	free(dirs);
	if (fclose(f) != 0 || (b = evbuffer_new()) == NULL) {
		free(text);
		evhttp_send_error(req, HTTP_INTERNAL, NULL);
		return;
	}
	evbuffer_add(b, text, len);
	free(text);
	http_reply(req, HTTP_OK, "OK", "application/json", b);
	evbuffer_free(b);
}

/* GET a file of the workbench, or three.js, from disk. */
static void
http_asset(struct http_server *srv, struct evhttp_request *req,
    const struct http_asset *a)
{
	char path[2048], text[2300];
	struct evbuffer *b;
	struct stat st;
	int fd;

	if (a->file != NULL)
		snprintf(path, sizeof(path), "%s/%s", srv->assets, a->file);
	else
		snprintf(path, sizeof(path), "%s",
		    getenv("HXVIEW_THREE") != NULL ? getenv("HXVIEW_THREE") :
						     HXVIEW_THREE_JS);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1 ||
	    fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		snprintf(text, sizeof(text), "cannot read %s: %s%s", path,
		    strerror(errno),
		    a->file == NULL ? " (Debian package libjs-three)" : "");
		if (fd != -1)
			close(fd);
		fprintf(stderr, "hxview: serve: %s\n", text);
		http_error(req, HTTP_NOTFOUND, "Not Found", text);
		return;
	}
	if ((b = evbuffer_new()) == NULL ||
	    evbuffer_add_file(b, fd, 0, st.st_size) != 0) {
		if (b != NULL)
			evbuffer_free(b);
		else
			close(fd);
		evhttp_send_error(req, HTTP_INTERNAL, NULL);
		return;
	}
	http_reply(req, HTTP_OK, "OK", a->type, b);
	evbuffer_free(b);
}

static void
http_request(struct evhttp_request *req, void *arg)
{
	struct http_server *srv = arg;
	const char *uri = evhttp_request_get_uri(req);
	struct evhttp_uri *u = evhttp_uri_parse(uri);
	const char *path = u != NULL ? evhttp_uri_get_path(u) : NULL;
	enum evhttp_cmd_type cmd = evhttp_request_get_command(req);
	struct evbuffer *b;
	size_t i;

	if (path == NULL || path[0] == '\0')
		path = "/";
	for (i = 0; i < sizeof(http_assets) / sizeof(http_assets[0]); i++)
		if (strcmp(path, http_assets[i].path) == 0)
			break;
	if (http_refuse_stranger(srv, req)) {
		/* answered */
	} else if (strncmp(path, "/control/", 9) == 0) {
		http_control(srv, req, path + 9);
	} else if (cmd != EVHTTP_REQ_GET && cmd != EVHTTP_REQ_HEAD) {
		http_error(req, 405, "Method Not Allowed", "use GET");
	} else if (i < sizeof(http_assets) / sizeof(http_assets[0])) {
		http_asset(srv, req, &http_assets[i]);
	} else if (strcmp(path, "/picture") == 0) {
		if ((b = evbuffer_new()) == NULL) {
			evhttp_send_error(req, HTTP_INTERNAL, NULL);
		} else {
			evbuffer_add_printf(b, HTTP_PAGE, srv->o->width,
			    srv->o->height, srv->h->read_only ? " hidden" : "");
			http_reply(
			    req, HTTP_OK, "OK", "text/html; charset=utf-8", b);
			evbuffer_free(b);
		}
	} else if (strcmp(path, "/events") == 0) {
		http_stream_start(srv, req, 1);
	} else if (strcmp(path, "/scene.json") == 0) {
		http_reply_made(req, "application/json", web_describe, srv->v);
	} else if (strcmp(path, "/meshes.bin") == 0) {
		http_reply_made(
		    req, "application/octet-stream", web_meshes, srv->v);
	} else if (strncmp(path, "/texture/", 9) == 0) {
		http_texture(srv, req, path + 9);
	} else if (strcmp(path, "/models.json") == 0) {
		http_models(srv, req);
	} else if (strcmp(path, "/stream.mjpg") == 0) {
		http_stream_start(srv, req, 0);
	} else if (strcmp(path, "/frame.jpg") == 0) {
		http_frame(srv, req, 0);
	} else if (strcmp(path, "/frame.png") == 0) {
		http_frame(srv, req, 1);
	} else if (strcmp(path, "/status.json") == 0) {
		http_status(srv, req);
	} else {
		http_error(req, HTTP_NOTFOUND, "Not Found",
		    "no such page: /, /events, /scene.json, /meshes.bin, "
		    "/texture/N.png, /models.json, /picture, /stream.mjpg, "
		    "/frame.jpg, /frame.png or /status.json");
	}
	if (u != NULL)
		evhttp_uri_free(u);
}

/*
 * The names this server answers to, with the port it listens on: its
 * address and, on loopback, localhost's names.  Bound to every address
 * (read-only), it answers to any name.
 */
static void
http_names(struct http_server *srv, const char *host, int port)
{
	int v6 = strchr(host, ':') != NULL;

	srv->nhosts = 0;
	if (strcmp(host, "0.0.0.0") == 0 || strcmp(host, "::") == 0)
		return;
	snprintf(srv->hosts[srv->nhosts++], sizeof(srv->hosts[0]),
	    v6 ? "[%s]:%d" : "%s:%d", host, port);
	if (!http_loopback(host))
		return;
	snprintf(srv->hosts[srv->nhosts++], sizeof(srv->hosts[0]),
	    "localhost:%d", port);
	snprintf(srv->hosts[srv->nhosts++], sizeof(srv->hosts[0]),
	    "127.0.0.1:%d", port);
	snprintf(
	    srv->hosts[srv->nhosts++], sizeof(srv->hosts[0]), "[::1]:%d", port);
}

/* Return 1 if name (host:port, or host alone for port 80) is ours. */
static int
http_name_ours(const struct http_server *srv, const char *name)
{
	char with[300];
	int i;

	if (srv->nhosts == 0)
		return 1;
	snprintf(with, sizeof(with), "%s%s", name,
	    strrchr(name, ']') == NULL && strchr(name, ':') == NULL ? ":80" :
								      "");
	for (i = 0; i < srv->nhosts; i++)
		if (strcasecmp(with, srv->hosts[i]) == 0)
			return 1;
	return 0;
}

/*
 * A page of another site must not reach us through its own name (DNS
 * rebinding) nor call us from its scripts: the Host must be one of our
 * names, and an Origin, when a browser sends one, ours.  Returns 1 when
 * the request was refused.
 */
static int
http_refuse_stranger(struct http_server *srv, struct evhttp_request *req)
{
	struct evkeyvalq *in = evhttp_request_get_input_headers(req);
	const char *host = evhttp_find_header(in, "Host");
	const char *origin = evhttp_find_header(in, "Origin");
	char text[400];

	if (host != NULL && !http_name_ours(srv, host)) {
		snprintf(text, sizeof(text),
		    "Host '%.200s' is not this server's name", host);
		http_error(req, 403, "Forbidden", text);
		return 1;
	}
	if (origin != NULL &&
	    (strncasecmp(origin, "http://", 7) != 0 ||
		!http_name_ours(srv, origin + 7))) {
		snprintf(text, sizeof(text), "Origin '%.200s' is another site",
		    origin);
		http_error(req, 403, "Forbidden", text);
		return 1;
	}
	return 0;
}

/*
 * Every few milliseconds: take what the server sent; send a new state to
 * each browser whose last frame is a frame's time old, drive the
 * perturbations, and render the EGL picture at --fps for its watchers.
 */
static void
http_tick(evutil_socket_t fd, short events, void *arg)
{
	struct http_server *srv = arg;
	struct http_stream *st, *next;
	double now, period;
	int rc, mjpeg = 0;

	rc = view_pump(srv->v, 0, srv->why, sizeof(srv->why));
	if (rc < 0) {
		srv->failed = 1;
		event_base_loopbreak(srv->base);
		return;
	}
	if (rc > 0) {
		srv->fresh = 0;
		srv->seq++;
	}
	now = view_now();
	period = 1 / fmin(srv->o->fps, HTTP_EVENTS_FPS_MAX);
	for (st = TAILQ_FIRST(&srv->streams); st != NULL; st = next) {
		next = TAILQ_NEXT(st, entry);
		if (http_stream_check(st, now))
			continue;
		if (!st->events) {
			mjpeg = 1;
			continue;
		}
		if (web_pert_active(srv->v, st->pert) &&
		    now - st->drove >= period) {
			st->drove = now;
			if (web_pert_drive(srv->v, st->pert,
				view_conn(srv->v)) != HXD_OK) {
				snprintf(st->perr, sizeof(st->perr), "%s",
				    hxd_error(view_conn(srv->v)));
				web_pert_stop(
				    srv->v, st->pert, view_conn(srv->v));
			}
		}
		/* A little early is on time: the timer's own jitter. */
		if ((st->seq != srv->seq || st->perr[0] != '\0') &&
		    now - st->last >= period - 0.002)
			http_events_send(st);
	}
	if (!mjpeg || srv->fresh || now - srv->rendered < 1 / srv->o->fps)
		return;
	if (http_render(srv) != 0)
		return;
	srv->rendered = now;
	for (st = TAILQ_FIRST(&srv->streams); st != NULL; st = next) {
		next = TAILQ_NEXT(st, entry);
		if (!st->events)
			http_stream_send(st);
	}
}

static void
http_signal(evutil_socket_t sig, short events, void *arg)
{
	event_base_loopbreak(arg);
}

/* Split ADDR:PORT (ADDR may be [v6]); 0, or -1 if malformed. */
static int
http_split(const char *listen, char *host, size_t hlen, unsigned short *port)
{
	const char *colon = strrchr(listen, ':');
	char *end;
	long p;
	size_t n;

	if (colon == NULL)
		return -1;
	n = (size_t)(colon - listen);
	if (n >= 2 && listen[0] == '[' && listen[n - 1] == ']') {
		listen++;
		n -= 2;
	}
	if (n == 0 || n >= hlen)
		return -1;
	memcpy(host, listen, n);
	host[n] = '\0';
	errno = 0;
	p = strtol(colon + 1, &end, 10);
	if (colon[1] == '\0' || *end != '\0' || errno != 0 || p < 0 ||
	    p > 65535)
		return -1;
	*port = (unsigned short)p;
	return 0;
}

static int
http_loopback(const char *host)
{
	struct in_addr a4;
	struct in6_addr a6;

	if (strcmp(host, "localhost") == 0)
		return 1;
	if (inet_pton(AF_INET, host, &a4) == 1)
		return (ntohl(a4.s_addr) >> 24) == 127;
	if (inet_pton(AF_INET6, host, &a6) == 1)
		return IN6_IS_ADDR_LOOPBACK(&a6);
	return 0;
}

/* The port a listening socket was given (port 0 asks the kernel). */
static int
http_bound_port(int fd)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);

	if (getsockname(fd, (struct sockaddr *)&ss, &sl) != 0)
		return 0;
	if (ss.ss_family == AF_INET6)
		return ntohs(((struct sockaddr_in6 *)(void *)&ss)->sin6_port);
	return ntohs(((struct sockaddr_in *)(void *)&ss)->sin_port);
}

/*
 * Say where we listen, on one line: every address of the name, with the
 * port the kernel chose for port 0.
 */
static void
http_announce(const struct listen_set *set)
{
	int i;

	printf("hxview: serving");
	for (i = 0; i < set->n; i++)
		printf(" http://%s/", set->names[i]);
	printf(" (%s)\n", egl_description());
	fflush(stdout);
}

/*
 * Read the daemon's token from $HAPTIX_TOKEN_FILE into h->token; 0, or
 * -1 (no such file, or an empty one).
 */
static int
http_token_read(struct http_options *h)
{
	const char *path = getenv("HAPTIX_TOKEN_FILE");
	size_t n;
	FILE *f;

	if (path == NULL || path[0] == '\0' || (f = fopen(path, "r")) == NULL)
		return -1;
	n = fread(h->token, 1, sizeof(h->token) - 1, f);
	fclose(f);
	while (n > 0 &&
	    (h->token[n - 1] == '\n' || h->token[n - 1] == '\r' ||
		h->token[n - 1] == ' ' || h->token[n - 1] == '\t'))
		n--;
	h->token[n] = '\0';
	return n > 0 ? 0 : -1;
}

int
http_check(struct http_options *h, char *err, size_t len)
{
	unsigned short port;
	char host[256];

	h->token[0] = '\0';
	if (http_split(h->listen, host, sizeof(host), &port) != 0) {
		snprintf(
		    err, len, "--http '%s' is not ADDRESS:PORT", h->listen);
		return -1;
	}
	if (!http_loopback(host) && !h->read_only && http_token_read(h) != 0) {
		snprintf(err, len,
		    "%s is not a loopback address: anyone who reaches it "
		    "could drive the simulation; add --read-only, or give the "
		    "daemon's token in $HAPTIX_TOKEN_FILE (the page then asks "
		    "for it), or put a proxy with authentication in front of "
		    "a loopback address",
		    host);
		return -1;
	}
	return 0;
}

/*
 * The workbench's directory: $HXVIEW_ASSETS, else the installed one,
 * else (hxview run from its build tree) the source tree's.
 */
static void
http_assets_dir(struct http_server *srv)
{
	const char *env = getenv("HXVIEW_ASSETS");
	char path[1100];

	if (env != NULL && env[0] != '\0') {
		snprintf(srv->assets, sizeof(srv->assets), "%s", env);
		return;
	}
	snprintf(path, sizeof(path), "%s/index.html", HXVIEW_ASSETS_DIR);
	snprintf(srv->assets, sizeof(srv->assets), "%s",
	    access(path, R_OK) == 0 ? HXVIEW_ASSETS_DIR : HXVIEW_SRC_ASSETS);
}

int
http_serve(
    struct view *v, const struct view_options *o, const struct http_options *h)
{
	struct http_server srv;
	struct listen_set set;
	struct event *tick = NULL, *sigint = NULL, *sigterm = NULL;
	struct timeval tv;
	struct http_stream *st;
	hxd_client *clients;
	char host[256], portname[8], why[300];
	unsigned short port;
	int i, rc = VIEW_FAIL, nclients;

	memset(&srv, 0, sizeof(srv));
	TAILQ_INIT(&srv.streams);
	TAILQ_INIT(&srv.conns);
	srv.v = v;
	srv.o = o;
	srv.h = h;
	/* main() checked the address with http_check(). */
	if (http_split(h->listen, host, sizeof(host), &port) != 0)
		return VIEW_USAGE;
	signal(SIGPIPE, SIG_IGN);
	srv.rgb = malloc((size_t)o->width * (size_t)o->height * 3);
	if (srv.rgb == NULL || (srv.base = event_base_new()) == NULL ||
	    (srv.http = evhttp_new(srv.base)) == NULL ||
	    (srv.adopt_ev = event_new(srv.base, -1, 0, http_adopt_cb, &srv)) ==
		NULL) {
		fprintf(stderr, "hxview: serve: out of memory\n");
		goto out;
	}
	evhttp_set_gencb(srv.http, http_request, &srv);
	evhttp_set_bevcb(srv.http, http_conn_bev, &srv);
	evhttp_set_timeout(srv.http, HTTP_IDLE_SECONDS);
	evhttp_set_max_headers_size(srv.http, HTTP_MAX_HEADERS);
	evhttp_set_max_body_size(srv.http, HTTP_MAX_BODY);
	evhttp_set_allowed_methods(
	    srv.http, EVHTTP_REQ_GET | EVHTTP_REQ_HEAD | EVHTTP_REQ_POST);
	snprintf(portname, sizeof(portname), "%u", port);
	if (listen_name(host, portname, HTTP_BACKLOG,
		h->read_only || h->token[0] != '\0' ? 0 : LISTEN_LOOPBACK_ONLY,
		&set, why, sizeof(why)) != 0) {
		fprintf(stderr, "hxview: serve: cannot listen on %s: %s\n",
		    h->listen, why);
		goto out;
	}
	/* Every address of the name; evhttp_free() closes them. */
	for (i = 0; i < set.n; i++) {
		if (evhttp_accept_socket_with_handle(srv.http, set.fds[i]) ==
		    NULL) {
			fprintf(stderr, "hxview: serve: out of memory\n");
			while (i < set.n)
				close(set.fds[i++]);
			goto out;
		}
	}
	tick = event_new(srv.base, -1, EV_PERSIST, http_tick, &srv);
	sigint = evsignal_new(srv.base, SIGINT, http_signal, srv.base);
	sigterm = evsignal_new(srv.base, SIGTERM, http_signal, srv.base);
	if (tick == NULL || sigint == NULL || sigterm == NULL) {
		fprintf(stderr, "hxview: serve: out of memory\n");
		goto out;
	}
	tv.tv_sec = 0;
	tv.tv_usec = HTTP_POLL_US;
	event_add(tick, &tv);
	http_assets_dir(&srv);
	if (hxd_clients(view_conn(v), &clients, &nclients, &srv.you) == HXD_OK)
		free(clients);
	event_add(sigint, NULL);
	event_add(sigterm, NULL);
	http_names(&srv, host, http_bound_port(set.fds[0]));
	http_announce(&set);
	event_base_dispatch(srv.base);
	if (srv.failed)
		fprintf(stderr, "hxview: serve: the server: %s\n", srv.why);
	else
		rc = VIEW_OK;
out:
	/*
	 * End the streams; evhttp_free() closes their connections, and
	 * every connection it closes is forgotten (all are adopted first).
	 */
	while ((st = TAILQ_FIRST(&srv.streams)) != NULL)
		http_stream_end(st);
	if (srv.adopt_ev != NULL) {
		http_conns_adopt(&srv);
		event_free(srv.adopt_ev);
	}
	if (tick != NULL)
		event_free(tick);
	if (sigint != NULL)
		event_free(sigint);
	if (sigterm != NULL)
		event_free(sigterm);
	if (srv.http != NULL)
		evhttp_free(srv.http);
	if (srv.base != NULL)
		event_base_free(srv.base);
	free(srv.rgb);
	free(srv.jpeg);
	free(srv.shared);
	free(srv.look);
	return rc;
}
