/*
 * hxview serve: what the server's files share.  The server
 * (hxview_http.c) owns the loop and the replies; the connections
 * (hxview_conns.c), the guard against other sites (hxview_guard.c), the
 * streams (hxview_streams.c), the event streams' contents
 * (hxview_events.c) and the routes (hxview_routes.c) work on its
 * struct http_server.
 */
#ifndef HXVIEW_HTTP_H
#define HXVIEW_HTTP_H

#include <stddef.h>
#include <stdio.h>
#include <sys/queue.h>

#include <event2/event.h>
#include <event2/http.h>

#include "hxview_common.h"

struct ssl_ctx_st;

/* The most frames a second a browser's event stream carries. */
#define HTTP_EVENTS_FPS_MAX 60.0

/* The most header bytes and body bytes a request may bring. */
#define HTTP_MAX_HEADERS 16384
#define HTTP_MAX_BODY 4096

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
	double last;            /* events: when it was sent (program_now) */
	double started;         /* program_now() */
	double drove;           /* the perturbation, last sent */
	unsigned long long seq; /* events: the state it was sent */
	size_t last_len;        /* events: the last frame's bytes */
	char perr[256];         /* events: why its perturbation ended */
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
 * connection after asking us for its bufferevent (conns_bev), so we
 * learn of it from that bufferevent once evhttp has set it up (adopt).
 * Our reference keeps the bufferevent valid until then, even if evhttp
 * gives up on the connection first.
 */
struct http_conn {
	struct http_server *srv;
	struct bufferevent *bev;         /* referenced until the close */
	struct evhttp_connection *evcon; /* NULL until adopted */
	struct http_stream *stream;      /* the stream it carries, or NULL */
	/* Ends the stream when the connection closes (hxview_streams.c). */
	void (*stream_end)(struct http_stream *);
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
	int fresh; /* rgb shows the view's current state */
	/*
	 * The server went away: hxview serves on, its pages told, and
	 * connects again after retry seconds, doubled each time to
	 * HTTP_RETRY_MAX (hxview_http.c).
	 */
	int gone;
	double gone_since; /* epoch ms */
	double retry;
	struct event *retry_ev;
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
	char three[1024];       /* three.min.js: $HXVIEW_THREE or Debian's */
	struct ssl_ctx_st *tls; /* HTTPS (hxview_tls.c), or NULL */
	unsigned long long you; /* hxview's client id at the server */
	TAILQ_HEAD(, http_stream) streams;
	TAILQ_HEAD(, http_conn) conns;
	int nconns;             /* counted: not refused */
	struct event *adopt_ev; /* adopt the connections just accepted */
	/* The names a request's Host may give: "" when any will do. */
	char hosts[4][300];
	int nhosts;
};

/* The answers (hxview_reply.c). */

/* Add text to b as the inside of a JSON string. */
void reply_json_string(struct evbuffer *b, const char *text);
/* Answer with body, not to be cached. */
void reply_send(struct evhttp_request *req, int code, const char *reason,
    const char *type, struct evbuffer *body);
/* Answer with a JSON error object. */
void reply_error(
    struct evhttp_request *req, int code, const char *reason, const char *text);
/*
 * A call to the server failed: 404 when its result is missing (what it
 * answers for a name or an index it does not have), else 503; with the
 * server's words.
 */
void reply_call_failed(struct evhttp_request *req, hxd_conn *c, int missing);

/* The connections, counted from accept to close (hxview_conns.c). */

/* evhttp's bufferevent callback: a connection accepted, counted. */
struct bufferevent *conns_bev(struct event_base *base, void *arg);
/* Learn the connections evhttp set up since the last time. */
void conns_adopt(struct http_server *srv);
/* The event that adopts them soon after their accept. */
void conns_adopt_cb(evutil_socket_t fd, short events, void *arg);
/* The counted connection a request came on, or NULL. */
struct http_conn *conns_of(struct http_server *srv, struct evhttp_request *req);
/* Bytes still waiting to go out on a request's connection. */
size_t conns_queued(struct evhttp_request *req);

/* Who may ask what (hxview_guard.c). */

/* The names the server answers to, listening on host and port. */
void guard_names(struct http_server *srv, const char *host, int port);
/* Refuse a request of another site (Host, Origin); 1 if refused. */
int guard_stranger(struct http_server *srv, struct evhttp_request *req);
/* Refuse a control without the page's header or a Host; 1 if refused. */
int guard_control(struct evhttp_request *req);
/* Refuse a control without the daemon's token when one is needed. */
int guard_token(struct http_server *srv, struct evhttp_request *req);
/* Read the daemon's token from $HAPTIX_TOKEN_FILE; 0, or -1. */
int guard_token_read(struct http_options *h);

/* The streams, MJPEG or events: their life and pace (hxview_streams.c). */

/* Begin a stream on req: MJPEG, or the events. */
void streams_start(
    struct http_server *srv, struct evhttp_request *req, int events);
/* End a stream: its browser went away, or we stop. */
void streams_end(struct http_stream *st);
/* Drop a stream whose browser does not keep up; 1 if dropped. */
int streams_check(struct http_stream *st, double now);
/* Send the last encoded frame to an MJPEG stream. */
void streams_mjpeg_send(struct http_stream *st);
/* Bytes still waiting to go out on a request's connection. */

/* The event stream of the page whose id is given, or NULL. */
/* Render and encode the current state unless the last frame shows it. */
int streams_render(struct http_server *srv);
struct http_stream *streams_by_id(struct http_server *srv, const char *id);

/* What the event streams carry (hxview_events.c). */

/* The first event: the page's id, and what it may do. */
void events_hello(struct http_stream *st);
/* Tell a page whether the server is there (it went away, or is back). */
void events_server(struct http_stream *st);
/* Send the newest state to one browser. */
void events_send(struct http_stream *st);
/* Drive st's perturbation and send it a state when one is due. */
void events_tick(struct http_stream *st, double now, double period);

/* Models dropped on the page (hxview_upload.c). */

/* Whether the server takes uploads: not read-only, --max-upload not 0. */
int http_takes_uploads(const struct http_options *h);
/*
 * Whether a POST of len bytes may be taken as an upload: the page's
 * header, not --read-only, the token beyond loopback, --max-upload; 0,
 * or -1 having answered why not.
 */
int upload_allowed(
    struct http_server *srv, struct evhttp_request *req, size_t len);
/* POST /upload: the model and its files, loaded through the daemon. */
void upload_route(
    struct http_server *srv, struct evhttp_request *req, const char *path);

/* The live run's history for the timeline (hxview_history.c). */

/* GET /history.json[?back=N]: what is kept, or one kept state as a frame. */
void history_route(
    struct http_server *srv, struct evhttp_request *req, const char *path);

/* Recordings in the page (hxview_replay.c). */

/* GET /recordings.json: the .hxr files of the state directories. */
void replay_list_route(
    struct http_server *srv, struct evhttp_request *req, const char *path);
/* POST /recording-upload?name=NAME: a recording from the page, read and
 * kept as upload:NAME for /recording.json. */
void replay_upload_route(
    struct http_server *srv, struct evhttp_request *req, const char *path);
/* GET /recording.json?file=NAME[&record=I|&sensor=K]. */
void replay_route(
    struct http_server *srv, struct evhttp_request *req, const char *path);

/* Replays as one page (hxview_export.c). */

/* GET /export.html?file=NAME|history=1[&from=I&to=J&fps=F]. */
void export_route(
    struct http_server *srv, struct evhttp_request *req, const char *path);
/*
 * The frames of a recording, and of the history (hxview_replay.c and
 * hxview_history.c), into out as JSON objects separated by commas: from
 * record or kept state from to to (the oldest kept is 0; beyond the
 * last, the last), at most one each 1/fps of simulated time and
 * EXPORT_MAX_FRAMES in all, a title said; how many, or -1 with the
 * HTTP code and the reason.
 */
#define EXPORT_MAX_FRAMES 20000
struct export_range {
	unsigned long from, to;
	double fps;
	char title[300];
};
int replay_export(struct view *v, const char *file, struct export_range *rg,
    FILE *out, int *code, char *err, size_t len);
int history_export(struct view *v, struct export_range *rg, FILE *out,
    int *code, char *err, size_t len);

/* The routes: paths and methods to handlers (hxview_routes.c). */

/* evhttp's request callback: answer req through the route table. */
void route_request(struct evhttp_request *req, void *arg);

#endif
