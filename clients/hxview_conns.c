/*
 * hxview serve: the browsers' connections, counted from accept to close
 * (libevent 2.1 has no evhttp_set_max_connections).  Past
 * --max-connections a newcomer closes the oldest idle one; when every
 * one is busy, the newcomer is refused.  One that stays idle is closed
 * by evhttp's own timeout (see http_setup).  Over HTTPS each is a TLS
 * bufferevent (hxview_tls.c), counted the same from its accept: a
 * handshake not finished is a connection like any other, and the same
 * timeout ends it.
 */
#include "config.h"

#include <stdlib.h>
#include <sys/queue.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/http.h>

#include "hxview_http.h"
#include "hxview_tls.h"

static void conns_forget(struct http_conn *);
static void conns_closed(struct evhttp_connection *, void *);
static int conns_evict(struct http_server *);

/* Forget a connection closed: its place is free. */
static void
conns_forget(struct http_conn *c)
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
void
conns_adopt(struct http_server *srv)
{
	struct http_conn *c, *next;
	void *evcon;

	for (c = TAILQ_FIRST(&srv->conns); c != NULL; c = next) {
		next = TAILQ_NEXT(c, entry);
		if (c->evcon != NULL)
			continue;
		bufferevent_getcb(c->bev, NULL, NULL, NULL, &evcon);
		if (evcon == NULL) { /* evhttp gave up on it already */
			conns_forget(c);
			continue;
		}
		c->evcon = evcon;
		evhttp_connection_set_closecb(c->evcon, conns_closed, c);
		if (c->refused)
			evhttp_connection_free(c->evcon);
	}
}

void
conns_adopt_cb(evutil_socket_t fd, short events, void *arg)
{
	conns_adopt(arg);
}

/* A connection closes, whoever closes it. */
static void
conns_closed(struct evhttp_connection *evcon, void *arg)
{
	struct http_conn *c = arg;

	if (c->stream != NULL)
		c->stream_end(c->stream);
	conns_forget(c);
}

/*
 * Close the oldest idle connection: no stream, nothing left to send (a
 * browser keeping it for later, or a request begun and never ended).
 * Returns 0, or -1 when every one is busy.
 */
static int
conns_evict(struct http_server *srv)
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
struct bufferevent *
conns_bev(struct event_base *base, void *arg)
{
	struct http_server *srv = arg;
	struct bufferevent *bev;
	struct http_conn *c;

	conns_adopt(srv);
	if ((c = calloc(1, sizeof(*c))) == NULL)
		return NULL;
	bev = srv->tls != NULL ? tls_bev_new(base, srv->tls) :
				 bufferevent_socket_new(base, -1, 0);
	if (bev == NULL) {
		free(c);
		return NULL;
	}
	bufferevent_incref(bev);
	c->srv = srv;
	c->bev = bev;
	if (srv->nconns >= srv->h->max_connections && conns_evict(srv) != 0)
		c->refused = 1;
	else
		srv->nconns++;
	TAILQ_INSERT_TAIL(&srv->conns, c, entry);
	event_active(srv->adopt_ev, EV_TIMEOUT, 0);
	return bev;
}

/* The counted connection a request came on, or NULL. */
struct http_conn *
conns_of(struct http_server *srv, struct evhttp_request *req)
{
	struct evhttp_connection *evcon = evhttp_request_get_connection(req);
	struct http_conn *c;

	conns_adopt(srv);
	TAILQ_FOREACH(c, &srv->conns, entry)
	{
		if (c->evcon == evcon && evcon != NULL)
			return c;
	}
	return NULL;
}

/* Bytes still waiting to go out on a request's connection. */
size_t
conns_queued(struct evhttp_request *req)
{
	struct evhttp_connection *evcon = evhttp_request_get_connection(req);
	struct bufferevent *bev;

	if (evcon == NULL ||
	    (bev = evhttp_connection_get_bufferevent(evcon)) == NULL)
		return 0;
	return evbuffer_get_length(bufferevent_get_output(bev));
}
