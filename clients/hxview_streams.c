/*
 * hxview serve: the streams, a browser's connection each: the MJPEG
 * picture, or the events (what they carry is hxview_events.c's).  A
 * stream starts when there is room for it, is looked at a few times a
 * second, and is dropped when its browser does not keep up.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/queue.h>
#include <sys/socket.h>
#include <linux/sockios.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>

#include "hxview_http.h"
#include "program.h"

/* The parts of the MJPEG stream are separated by this. */
#define HTTP_BOUNDARY "hxviewframe"

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

static int streams_room(
    struct http_server *, struct evhttp_request *, const char *);
static size_t streams_waiting(struct http_stream *);

/*
 * Whether another stream may start for addr: one of at most
 * HTTP_STREAMS_PER_ADDRESS from it, and a quarter of --max-connections
 * kept for the rest.  0, or -1 having answered req with 503 and why.
 */
static int
streams_room(
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
	reply_error(req, HTTP_SERVUNAVAIL, "Service Unavailable", why);
	return -1;
}

/* Bytes waiting to go to st's browser: in our buffer and the kernel's. */
static size_t
streams_waiting(struct http_stream *st)
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
int
streams_check(struct http_stream *st, double now)
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
	waiting = streams_waiting(st);
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
	program_warn("a %s stream to %s dropped: %s",
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
void
streams_start(struct http_server *srv, struct evhttp_request *req, int events)
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
	if (streams_room(srv, req, host != NULL ? host : "?") != 0)
		return;
	if ((c = conns_of(srv, req)) == NULL ||
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
	st->started = program_now();
	st->progress_at = st->started;
	c->stream = st;
	c->stream_end = streams_end;
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
		events_hello(st);
		events_send(st);
	} else if (streams_render(srv) == 0)
		streams_mjpeg_send(st);
}

void
streams_mjpeg_send(struct http_stream *st)
{
	struct http_server *srv = st->srv;
	struct evbuffer *b;

	if (conns_queued(st->req) > 2 * srv->jpeg_len + 1024)
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
void
streams_end(struct http_stream *st)
{
	/* A push that the mouse was still making ends with its page. */
	if (st->pert != NULL) {
		if (view_conn(st->srv->v) != NULL)
			web_pert_stop(
			    st->srv->v, st->pert, view_conn(st->srv->v));
		web_pert_free(st->pert);
	}
	st->conn->stream = NULL;
	TAILQ_REMOVE(&st->srv->streams, st, entry);
	evhttp_send_reply_end(st->req);
	free(st);
}

/* The event stream of the page whose id a request gives, or NULL. */
struct http_stream *
streams_by_id(struct http_server *srv, const char *id)
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

/* Render the current state unless the last frame already shows it. */
int
streams_render(struct http_server *srv)
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
