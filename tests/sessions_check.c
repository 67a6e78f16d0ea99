/*
 * What the sessions tests (tests/test_sessions_*.c) share: who a
 * connection is and a client by name, reading events apart from frames,
 * the next frame, subscribing or failing, a raw Subscribe.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "check.h"
#include "harness.h"
#include "haptixd.h"
#include "rawclient.h"
#include "sessions_check.h"

/* This connection's session id, as the server tells it. */
unsigned long long
session_id(hxd_conn *c)
{
	unsigned long long you = 0;
	hxd_client *list;
	int n;

	list = hx_clients_ok(c, &n, &you);
	free(list);
	cr_assert_neq(you, 0, "the server did not say who we are");
	return you;
}

/* The entry of a client by name, or NULL. */
const hxd_client *
client_named(const hxd_client *list, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++) {
		if (strcmp(list[i].name, name) == 0)
			return &list[i];
	}
	return NULL;
}

/* The name of an event kind, for messages. */
const char *
kind_name(int kind)
{
	static const char *const names[] = { "unknown", "frame", "model",
		"reset", "run", "speed", "instability", "message", "lease",
		"client_joined", "client_left" };

	if (kind < 0 || kind >= (int)(sizeof(names) / sizeof(names[0])))
		return "?";
	return names[kind];
}

/* The next event that is not a frame, within timeout_ms, or NULL. */
hxd_event *
next_nonframe(struct evreader *r, int timeout_ms)
{
	double end = hx_wall_now() + timeout_ms / 1000.0;
	hxd_event *ev = r->pending;
	int rc, left;

	r->pending = NULL;
	while (ev == NULL) {
		left = (int)((end - hx_wall_now()) * 1000);
		rc = hxd_next_event(r->c, left > 0 ? left : 0, &ev);
		if (rc == HXD_TIMEOUT)
			return NULL;
		cr_assert_eq(rc, HXD_OK, "hxd_next_event: %s", hxd_error(r->c));
		if (ev->kind != HXD_EVENT_FRAME)
			break;
		cr_assert_not_null(ev->frame);
		cr_assert_eq(ev->frame->nq, r->nq, "a frame with nq %d, not %d",
		    ev->frame->nq, r->nq);
		r->frames++;
		r->last_step = ev->frame->step;
		hxd_event_free(ev);
		ev = NULL;
	}
	return ev;
}

/* The next event that is not a frame; fail unless it is of kind. */
hxd_event *
expect_event(struct evreader *r, int kind)
{
	hxd_event *ev = next_nonframe(r, 5000);

	cr_assert_not_null(
	    ev, "no %s event within 5 s: %s", kind_name(kind), hxd_error(r->c));
	cr_assert_eq(ev->kind, kind, "expected a %s event, got %s",
	    kind_name(kind), kind_name(ev->kind));
	return ev;
}

/* Fail if any event other than a frame comes within ms. */
void
expect_no_event(struct evreader *r, int ms)
{
	hxd_event *ev = next_nonframe(r, ms);

	cr_assert_null(ev, "an unexpected %s event",
	    ev != NULL ? kind_name(ev->kind) : "");
}

/* The next frame of c within timeout_ms, or NULL; other events fail. */
hxd_frame *
next_frame(hxd_conn *c, int timeout_ms)
{
	hxd_event *ev = NULL;
	hxd_frame *f;
	int rc;

	rc = hxd_next_event(c, timeout_ms, &ev);
	if (rc == HXD_TIMEOUT)
		return NULL;
	cr_assert_eq(rc, HXD_OK, "hxd_next_event: %s", hxd_error(c));
	cr_assert_eq(ev->kind, HXD_EVENT_FRAME, "a %s event, not a frame",
	    kind_name(ev->kind));
	f = ev->frame;
	ev->frame = NULL;
	hxd_event_free(ev);
	return f;
}

/* Subscribe or fail the test; return the subscription's id. */
unsigned
subscribe_ok(hxd_conn *c, unsigned fields, unsigned every_steps, double sim_hz,
    double wall_hz, int events)
{
	hxd_subscription sub = { fields, every_steps, sim_hz, wall_hz, events };
	unsigned id = 0;

	HX_OK(c, hxd_subscribe(c, &sub, &id));
	cr_assert_gt(id, 0, "subscription ids start at 1");
	return id;
}

/* Send a Subscribe with the given raw field values; read nothing. */
void
raw_subscribe(int fd, const Haptix__V1__StreamField *fields, size_t n,
    unsigned every_steps, double wall_hz, int events, uint64_t id)
{
	Haptix__V1__Request req = HAPTIX__V1__REQUEST__INIT;
	Haptix__V1__Subscribe sub = HAPTIX__V1__SUBSCRIBE__INIT;

	sub.n_fields = n;
	sub.fields = (Haptix__V1__StreamField *)fields;
	sub.every_steps = every_steps;
	sub.wall_hz = wall_hz;
	sub.events = events;
	req.id = id;
	req.call_case = HAPTIX__V1__REQUEST__CALL_SUBSCRIBE;
	req.subscribe = &sub;
	raw_send_request(fd, &req);
}
