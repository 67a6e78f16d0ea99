/*
 * hxview serve: the live simulation in a browser, over libevent's HTTP
 * server.  One page (/), an MJPEG stream (/stream.mjpg), single frames
 * (/frame.jpg, /frame.png), the state as JSON (/status.json), and
 * pause/run/reset buttons that POST to /control/... and go through the
 * protocol like any client's calls (the lease applies).
 *
 * Frames are rendered on a timer at --fps, only while someone watches
 * or asks; a browser that reads slowly misses frames instead of making
 * everyone wait: a frame is not queued to a connection that has not sent
 * the last two.
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
#include <sys/queue.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>

#include "hxview.h"

#define HTTP_BOUNDARY "hxviewframe"

/* The most header bytes and body bytes a request may bring. */
#define HTTP_MAX_HEADERS 16384
#define HTTP_MAX_BODY 4096

/*
 * A connection that sends no request, or does not read its answer, for
 * this long is closed; a stream only for not reading.
 */
#define HTTP_IDLE_SECONDS 30

/* A browser connection receiving the MJPEG stream. */
struct http_stream {
	struct evhttp_request *req;
	struct http_server *srv;
	struct http_conn *conn;
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
	TAILQ_HEAD(, http_stream) streams;
	TAILQ_HEAD(, http_conn) conns;
	int nconns;             /* counted: not refused */
	struct event *adopt_ev; /* adopt the connections just accepted */
	/* The names a request's Host may give: "" when any will do. */
	char hosts[4][300];
	int nhosts;
};

static int http_loopback(const char *);
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
	st->conn->stream = NULL;
	TAILQ_REMOVE(&st->srv->streams, st, entry);
	evhttp_send_reply_end(st->req);
	free(st);
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

static void
http_stream_start(struct http_server *srv, struct evhttp_request *req)
{
	struct evkeyvalq *out = evhttp_request_get_output_headers(req);
	struct timeval write_tv = { HTTP_IDLE_SECONDS, 0 };
	struct http_stream *st;
	struct http_conn *c;

	if ((c = http_conn_of(srv, req)) == NULL ||
	    (st = calloc(1, sizeof(*st))) == NULL) {
		evhttp_send_error(req, HTTP_INTERNAL, "out of memory");
		return;
	}
	st->req = req;
	st->srv = srv;
	st->conn = c;
	c->stream = st;
	evhttp_add_header(out, "Content-Type",
	    "multipart/x-mixed-replace; boundary=" HTTP_BOUNDARY);
	evhttp_add_header(out, "Cache-Control", "no-store");
	evhttp_send_reply_start(req, HTTP_OK, "OK");
	/* A watcher sends nothing more: only not reading is idle. */
	bufferevent_set_timeouts(c->bev, NULL, &write_tv);
	TAILQ_INSERT_TAIL(&srv->streams, st, entry);
	if (http_render(srv) == 0)
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
	evbuffer_add_printf(b, "\"}\n");
	http_reply(req, HTTP_OK, "OK", "application/json", b);
	evbuffer_free(b);
}

/* POST /control/WHAT, from the page's buttons. */
static void
http_control(
    struct http_server *srv, struct evhttp_request *req, const char *what)
{
	hxd_conn *c = view_conn(srv->v);
	const char *mark;
	struct evbuffer *b;
	int rc;

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
	mark = evhttp_find_header(
	    evhttp_request_get_input_headers(req), "X-Hxview");
	if (mark == NULL || strcmp(mark, "1") != 0) {
		http_error(req, HTTP_BADREQUEST, "Bad Request",
		    "controls need the header X-Hxview: 1");
		return;
	}
	if (srv->h->read_only) {
		http_error(req, 403, "Forbidden",
		    "this viewer is read-only (hxview serve --read-only)");
		return;
	}
	if (strcmp(what, "pause") == 0)
		rc = hxd_pause(c);
	else if (strcmp(what, "run") == 0)
		rc = hxd_run(c);
	else if (strcmp(what, "reset") == 0)
		rc = hxd_reset(c, -1);
	else {
		http_error(req, HTTP_NOTFOUND, "Not Found",
		    "no such control: pause, run or reset");
		return;
	}
	if (rc != HXD_OK) {
		http_error(req, rc == HXD_DENIED ? 403 : 409,
		    rc == HXD_DENIED ? "Forbidden" : "Conflict", hxd_error(c));
		return;
	}
	if ((b = evbuffer_new()) == NULL) {
		evhttp_send_error(req, HTTP_INTERNAL, NULL);
		return;
	}
	evbuffer_add_printf(b, "{\"ok\":true}\n");
	http_reply(req, HTTP_OK, "OK", "application/json", b);
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

	if (path == NULL || path[0] == '\0')
		path = "/";
	if (http_refuse_stranger(srv, req)) {
		/* answered */
	} else if (strncmp(path, "/control/", 9) == 0) {
		http_control(srv, req, path + 9);
	} else if (cmd != EVHTTP_REQ_GET && cmd != EVHTTP_REQ_HEAD) {
		http_error(req, 405, "Method Not Allowed", "use GET");
	} else if (strcmp(path, "/") == 0 || strcmp(path, "/index.html") == 0) {
		if ((b = evbuffer_new()) == NULL) {
			evhttp_send_error(req, HTTP_INTERNAL, NULL);
		} else {
			evbuffer_add_printf(b, HTTP_PAGE, srv->o->width,
			    srv->o->height, srv->h->read_only ? " hidden" : "");
			http_reply(
			    req, HTTP_OK, "OK", "text/html; charset=utf-8", b);
			evbuffer_free(b);
		}
	} else if (strcmp(path, "/stream.mjpg") == 0) {
		http_stream_start(srv, req);
	} else if (strcmp(path, "/frame.jpg") == 0) {
		http_frame(srv, req, 0);
	} else if (strcmp(path, "/frame.png") == 0) {
		http_frame(srv, req, 1);
	} else if (strcmp(path, "/status.json") == 0) {
		http_status(srv, req);
	} else {
		http_error(req, HTTP_NOTFOUND, "Not Found",
		    "no such page: /, /stream.mjpg, /frame.jpg, /frame.png "
		    "or /status.json");
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

/* Each 1/fps: take what the server sent, and show it to the watchers. */
static void
http_tick(evutil_socket_t fd, short events, void *arg)
{
	struct http_server *srv = arg;
	struct http_stream *st, *next;
	int rc;

	rc = view_pump(srv->v, 0, srv->why, sizeof(srv->why));
	if (rc < 0) {
		srv->failed = 1;
		event_base_loopbreak(srv->base);
		return;
	}
	if (rc > 0)
		srv->fresh = 0;
	if (TAILQ_EMPTY(&srv->streams) || srv->fresh)
		return;
	if (http_render(srv) != 0)
		return;
	for (st = TAILQ_FIRST(&srv->streams); st != NULL; st = next) {
		next = TAILQ_NEXT(st, entry);
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

/* Say where we listen, with the port the kernel chose for port 0. */
static void
http_announce(int fd)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	char host[NI_MAXHOST], port[NI_MAXSERV];

	if (getsockname(fd, (struct sockaddr *)&ss, &sl) != 0 ||
	    getnameinfo((struct sockaddr *)&ss, sl, host, sizeof(host), port,
		sizeof(port), NI_NUMERICHOST | NI_NUMERICSERV) != 0)
		return;
	printf(ss.ss_family == AF_INET6 ?
		"hxview: serving http://[%s]:%s/ (%s)\n" :
		"hxview: serving http://%s:%s/ (%s)\n",
	    host, port, egl_description());
	fflush(stdout);
}

int
http_check(const struct http_options *h, char *err, size_t len)
{
	unsigned short port;
	char host[256];

	if (http_split(h->listen, host, sizeof(host), &port) != 0) {
		snprintf(
		    err, len, "--http '%s' is not ADDRESS:PORT", h->listen);
		return -1;
	}
	if (!http_loopback(host) && !h->read_only) {
		snprintf(err, len,
		    "%s is not a loopback address: anyone who reaches it "
		    "could pause and reset the simulation; add --read-only, "
		    "or put a proxy with authentication in front of a "
		    "loopback address",
		    host);
		return -1;
	}
	return 0;
}

int
http_serve(
    struct view *v, const struct view_options *o, const struct http_options *h)
{
	struct http_server srv;
	struct evhttp_bound_socket *bound;
	struct event *tick = NULL, *sigint = NULL, *sigterm = NULL;
	struct timeval tv;
	struct http_stream *st;
	char host[256];
	unsigned short port;
	int rc = VIEW_FAIL;

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
	bound = evhttp_bind_socket_with_handle(srv.http, host, port);
	if (bound == NULL) {
		fprintf(stderr, "hxview: serve: cannot listen on %s: %s\n",
		    h->listen, strerror(errno));
		goto out;
	}
	tick = event_new(srv.base, -1, EV_PERSIST, http_tick, &srv);
	sigint = evsignal_new(srv.base, SIGINT, http_signal, srv.base);
	sigterm = evsignal_new(srv.base, SIGTERM, http_signal, srv.base);
	if (tick == NULL || sigint == NULL || sigterm == NULL) {
		fprintf(stderr, "hxview: serve: out of memory\n");
		goto out;
	}
	tv.tv_sec = (time_t)(1 / o->fps);
	tv.tv_usec = (suseconds_t)(fmod(1 / o->fps, 1.0) * 1e6);
	event_add(tick, &tv);
	event_add(sigint, NULL);
	event_add(sigterm, NULL);
	http_names(&srv, host,
	    http_bound_port((int)evhttp_bound_socket_get_fd(bound)));
	http_announce((int)evhttp_bound_socket_get_fd(bound));
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
	return rc;
}
