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
 * This file is the server: its set-up, its loop and the replies.  The
 * state is looked at every few milliseconds, and a new one goes to
 * each browser at once unless it had one less than a frame (1/--fps)
 * ago; a browser that reads slowly misses frames instead of making
 * everyone wait: nothing is queued to a connection that has not sent
 * what it was given.  EGL frames are rendered only while someone
 * watches or asks.
 */
#include "config.h"

#include <arpa/inet.h>
#include <math.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/queue.h>
#include <sys/socket.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>

#include "address.h"
#include "hxview_http.h"
#include "hxview_tls.h"
#include "listen.h"
#include "program.h"

/* How often the state is looked at, in microseconds: frames go out soon
 * after they come, not at the next 1/fps. */
#define HTTP_POLL_US 2000

/*
 * A connection that sends no request, or does not read its answer, for
 * this long is closed; a stream only for not reading.
 */
#define HTTP_IDLE_SECONDS 30
/* Connections the kernel holds for each listening address. */
#define HTTP_BACKLOG 128

/* The server's events besides evhttp's own. */
struct http_events {
	struct event *tick, *sigint, *sigterm, *sighup;
};

/* The first wait before connecting again, and the longest (seconds). */
#define HTTP_RETRY_FIRST 0.25
#define HTTP_RETRY_MAX 5.0

/* Tell every page's event stream whether the server is there. */
static void
http_tell_pages(struct http_server *srv)
{
	struct http_stream *st;

	TAILQ_FOREACH(st, &srv->streams, entry)
	{
		if (st->events)
			events_server(st);
	}
}

/* Wait, then try to connect again. */
static void
http_retry_later(struct http_server *srv)
{
	struct timeval tv;

	tv.tv_sec = (time_t)srv->retry;
	tv.tv_usec = (suseconds_t)((srv->retry - (double)tv.tv_sec) * 1e6);
	evtimer_add(srv->retry_ev, &tv);
}

/*
 * The server went away: say so, keep serving what hxview holds (the
 * last picture, the model) and connect again with a growing wait.
 */
static void
http_lost(struct http_server *srv)
{
	struct http_stream *st;

	TAILQ_FOREACH(st, &srv->streams, entry)
	{
		web_pert_forget(st->pert);
	}
	view_lose(srv->v);
	srv->gone = 1;
	srv->gone_since = view_epoch_ms();
	srv->retry = HTTP_RETRY_FIRST;
	program_warn("serve: the server %s went away: %s; connecting again",
	    view_server(srv->v), srv->why);
	http_tell_pages(srv);
	http_retry_later(srv);
}

/* The wait is over: connect again, or wait twice as long. */
static void
http_retry(evutil_socket_t fd, short events, void *arg)
{
	struct http_server *srv = arg;
	hxd_client *clients;
	char err[512];
	int n;

	if (view_reconnect(srv->v, err, sizeof(err)) != 0) {
		snprintf(srv->why, sizeof(srv->why), "%s", err);
		srv->retry = fmin(2 * srv->retry, HTTP_RETRY_MAX);
		http_retry_later(srv);
		return;
	}
	srv->gone = 0;
	srv->fresh = 0;
	srv->seq++;
	if (hxd_clients(view_conn(srv->v), &clients, &n, &srv->you) == HXD_OK)
		free(clients);
	program_warn("serve: the server %s is back", view_server(srv->v));
	http_tell_pages(srv);
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

	if (srv->gone)
		return;
	rc = view_pump(srv->v, 0, srv->why, sizeof(srv->why));
	if (rc < 0) {
		http_lost(srv);
		return;
	}
	if (rc > 0) {
		srv->fresh = 0;
		srv->seq++;
	}
	now = program_now();
	period = 1 / fmin(srv->o->fps, HTTP_EVENTS_FPS_MAX);
	for (st = TAILQ_FIRST(&srv->streams); st != NULL; st = next) {
		next = TAILQ_NEXT(st, entry);
		if (streams_check(st, now))
			continue;
		if (st->events)
			events_tick(st, now, period);
		else
			mjpeg = 1;
	}
	if (!mjpeg || srv->fresh || now - srv->rendered < 1 / srv->o->fps)
		return;
	if (streams_render(srv) != 0)
		return;
	srv->rendered = now;
	for (st = TAILQ_FIRST(&srv->streams); st != NULL; st = next) {
		next = TAILQ_NEXT(st, entry);
		if (!st->events)
			streams_mjpeg_send(st);
	}
}

/* SIGINT or SIGTERM: leave the loop. */
static void
http_signal(evutil_socket_t sig, short events, void *arg)
{
	event_base_loopbreak(arg);
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
http_announce(const struct http_server *srv, const struct listen_set *set)
{
	int i;

	printf("hxview: serving");
	for (i = 0; i < set->n; i++)
		printf(" %s://%s/", srv->tls != NULL ? "https" : "http",
		    set->names[i]);
	printf(" (%s)\n", egl_description());
	fflush(stdout);
}

int
http_check(struct http_options *h, char *err, size_t len)
{
	struct address a;

	h->token[0] = '\0';
	if (address_parse_endpoint(h->listen, &a) != 0) {
		snprintf(err, len, "--http '%s' is not [tls:]ADDRESS:PORT",
		    h->listen);
		return -1;
	}
	if (a.tls && h->cert == NULL) {
		snprintf(err, len,
		    "--http %s serves HTTPS: it needs --tls-cert FILE (and "
		    "--tls-key FILE unless the key is in that file)",
		    h->listen);
		return -1;
	}
	if (!a.tls && (h->cert != NULL || h->key != NULL)) {
		snprintf(err, len,
		    "--tls-cert and --tls-key are for HTTPS: --http "
		    "tls:ADDRESS:PORT, not '%s'",
		    h->listen);
		return -1;
	}
	if (!address_host_is_loopback(a.host) && !h->read_only &&
	    guard_token_read(h) != 0) {
		snprintf(err, len,
		    "%s is not a loopback address: anyone who reaches it "
		    "could drive the simulation; add --read-only, or give the "
		    "daemon's token in $HAPTIX_TOKEN_FILE (the page then asks "
		    "for it), or put a proxy with authentication in front of "
		    "a loopback address",
		    a.host);
		return -1;
	}
	return 0;
}

/*
 * The workbench's directory: $HXVIEW_ASSETS, else the installed one,
 * else (hxview run from its build tree) the source tree's; three.js:
 * $HXVIEW_THREE, else Debian's.
 */
static void
http_assets_dir(struct http_server *srv)
{
	const char *env = getenv("HXVIEW_ASSETS");
	const char *three = getenv("HXVIEW_THREE");
	char path[1100];

	snprintf(srv->three, sizeof(srv->three), "%s",
	    three != NULL ? three : HXVIEW_THREE_JS);

	if (env != NULL && env[0] != '\0') {
		snprintf(srv->assets, sizeof(srv->assets), "%s", env);
		return;
	}
	snprintf(path, sizeof(path), "%s/index.html", HXVIEW_ASSETS_DIR);
	snprintf(srv->assets, sizeof(srv->assets), "%s",
	    access(path, R_OK) == 0 ? HXVIEW_ASSETS_DIR : HXVIEW_SRC_ASSETS);
}

/*
 * For a tls: address, the TLS context from --tls-cert and --tls-key,
 * and the certificate in the log with the fingerprint a user may compare
 * or pin; 0, or -1 when they cannot be used (said why).
 */
static int
http_tls_setup(struct http_server *srv)
{
	const struct http_options *h = srv->h;
	struct address a;
	char err[1200], cert[600];

	/* main() checked the address with http_check(). */
	if (address_parse_endpoint(h->listen, &a) != 0)
		return -1;
	if (!a.tls)
		return 0;
	if ((srv->tls = tls_context_new(h->cert, h->key, err, sizeof(err))) ==
	    NULL) {
		program_warn("serve: %s", err);
		return -1;
	}
	tls_describe(srv->tls, cert, sizeof(cert));
	program_warn("serve: HTTPS with the %s", cert);
	return 0;
}

/*
 * The server's event base, evhttp with its limits and callbacks, and
 * the frame's buffer; 0, or -1 when out of memory.
 */
static int
http_setup(struct http_server *srv)
{
	const struct view_options *o = srv->o;

	srv->rgb = malloc((size_t)o->width * (size_t)o->height * 3);
	if (srv->rgb == NULL || (srv->base = event_base_new()) == NULL ||
	    (srv->http = evhttp_new(srv->base)) == NULL ||
	    (srv->adopt_ev = event_new(
		 srv->base, -1, 0, conns_adopt_cb, srv)) == NULL) {
		program_warn("serve: out of memory");
		return -1;
	}
	evhttp_set_gencb(srv->http, route_request, srv);
	evhttp_set_bevcb(srv->http, conns_bev, srv);
	evhttp_set_timeout(srv->http, HTTP_IDLE_SECONDS);
	evhttp_set_max_headers_size(srv->http, HTTP_MAX_HEADERS);
	/*
	 * evhttp reads a body before any route sees it, and has one limit
	 * for all: an upload's, when uploads are taken; every other route
	 * refuses a body past HTTP_MAX_BODY itself (route_request).
	 */
	evhttp_set_max_body_size(srv->http,
	    http_takes_uploads(srv->h) ? srv->h->max_upload : HTTP_MAX_BODY);
	evhttp_set_allowed_methods(
	    srv->http, EVHTTP_REQ_GET | EVHTTP_REQ_HEAD | EVHTTP_REQ_POST);
	return 0;
}

/*
 * Listen on every address of --http's name (only loopback ones unless
 * read-only or with a token) into set, and learn the names the server
 * answers to; 0, or -1.
 */
static int
http_listen(struct http_server *srv, struct listen_set *set)
{
	const struct http_options *h = srv->h;
	struct address a;
	char why[300];
	int i;

	/* main() checked the address with http_check(). */
	if (address_parse_endpoint(h->listen, &a) != 0)
		return -1;
	if (listen_name(a.host, a.port, HTTP_BACKLOG,
		h->read_only || h->token[0] != '\0' ? 0 : LISTEN_LOOPBACK_ONLY,
		set, why, sizeof(why)) != 0) {
		program_warn("serve: cannot listen on %s: %s", h->listen, why);
		return -1;
	}
	/* Every address of the name; evhttp_free() closes them. */
	for (i = 0; i < set->n; i++) {
		if (evhttp_accept_socket_with_handle(srv->http, set->fds[i]) ==
		    NULL) {
			program_warn("serve: out of memory");
			while (i < set->n)
				close(set->fds[i++]);
			return -1;
		}
	}
	guard_names(srv, a.host, http_bound_port(set->fds[0]));
	return 0;
}

/*
 * SIGHUP: read --tls-cert and --tls-key again (a renewed certificate),
 * for the connections to come; if they do not load, the old ones stay.
 * In the clear there is nothing to read again.
 */
static void
http_reload(evutil_socket_t sig, short events, void *arg)
{
	struct http_server *srv = arg;
	char err[1200], cert[600];
	struct ssl_ctx_st *ctx;

	if (srv->tls == NULL) {
		program_warn("serve: SIGHUP: no certificate to read again");
		return;
	}
	ctx = tls_context_new(srv->h->cert, srv->h->key, err, sizeof(err));
	if (ctx == NULL) {
		program_warn("serve: SIGHUP: %s; keeping the certificate", err);
		return;
	}
	/* Each connection holds the context it began with. */
	tls_context_free(srv->tls);
	srv->tls = ctx;
	tls_describe(srv->tls, cert, sizeof(cert));
	program_warn("serve: SIGHUP: HTTPS with the %s", cert);
}

/* The tick, the signals that stop the loop, and SIGHUP; 0, or -1. */
static int
http_events_add(struct http_server *srv, struct http_events *ev)
{
	struct timeval tv;

	ev->tick = event_new(srv->base, -1, EV_PERSIST, http_tick, srv);
	ev->sigint = evsignal_new(srv->base, SIGINT, http_signal, srv->base);
	ev->sigterm = evsignal_new(srv->base, SIGTERM, http_signal, srv->base);
	ev->sighup = evsignal_new(srv->base, SIGHUP, http_reload, srv);
	if (ev->tick == NULL || ev->sigint == NULL || ev->sigterm == NULL ||
	    ev->sighup == NULL) {
		program_warn("serve: out of memory");
		return -1;
	}
	tv.tv_sec = 0;
	tv.tv_usec = HTTP_POLL_US;
	event_add(ev->tick, &tv);
	event_add(ev->sigint, NULL);
	event_add(ev->sigterm, NULL);
	event_add(ev->sighup, NULL);
	return 0;
}

/*
 * End the streams; evhttp_free() closes their connections, and every
 * connection it closes is forgotten (all are adopted first).  Then free
 * what the server made.
 */
static void
http_free(struct http_server *srv, struct http_events *ev)
{
	struct http_stream *st;

	while ((st = TAILQ_FIRST(&srv->streams)) != NULL)
		streams_end(st);
	if (srv->adopt_ev != NULL) {
		conns_adopt(srv);
		event_free(srv->adopt_ev);
	}
	if (ev->tick != NULL)
		event_free(ev->tick);
	if (ev->sigint != NULL)
		event_free(ev->sigint);
	if (ev->sigterm != NULL)
		event_free(ev->sigterm);
	if (ev->sighup != NULL)
		event_free(ev->sighup);
	if (srv->retry_ev != NULL)
		event_free(srv->retry_ev);
	if (srv->http != NULL)
		evhttp_free(srv->http);
	if (srv->base != NULL)
		event_base_free(srv->base);
	tls_context_free(srv->tls);
	free(srv->rgb);
	free(srv->jpeg);
	free(srv->shared);
	free(srv->look);
}

int
http_serve(
    struct view *v, const struct view_options *o, const struct http_options *h)
{
	struct http_server srv;
	struct http_events ev;
	struct listen_set set;
	hxd_client *clients;
	int rc = VIEW_FAIL, nclients;

	memset(&srv, 0, sizeof(srv));
	memset(&ev, 0, sizeof(ev));
	TAILQ_INIT(&srv.streams);
	TAILQ_INIT(&srv.conns);
	srv.v = v;
	srv.o = o;
	srv.h = h;
	if (http_tls_setup(&srv) != 0 || http_setup(&srv) != 0 ||
	    http_listen(&srv, &set) != 0 || http_events_add(&srv, &ev) != 0)
		goto out;
	if ((srv.retry_ev = evtimer_new(srv.base, http_retry, &srv)) == NULL)
		goto out;
	http_assets_dir(&srv);
	if (hxd_clients(view_conn(v), &clients, &nclients, &srv.you) == HXD_OK)
		free(clients);
	http_announce(&srv, &set);
	event_base_dispatch(srv.base);
	rc = VIEW_OK;
out:
	http_free(&srv, &ev);
	return rc;
}
