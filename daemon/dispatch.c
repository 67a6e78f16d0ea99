/* Request dispatch: see dispatch.h. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "arena.h"
#include "call.h"
#include "daemon.h"
#include "envelope.h"
#include "dispatch.h"
#include "log.h"
#include "pending.h"
#include "reply.h"
#include "rollback.h"
#include "session.h"
#include "sim.h"

static const struct dispatch_entry *dispatch_table;
static size_t dispatch_ntable;

static struct arena dispatch_scratch;

struct dispatch_run {
	call_handler fn;
	struct call *call;
	int rc;
};

static void dispatch_run_fn(void *);

void
dispatch_init(const struct dispatch_entry *table, size_t n)
{
	dispatch_table = table;
	dispatch_ntable = n;
}

/* Run a handler; called under sim_protect(). */
static void
dispatch_run_fn(void *arg)
{
	struct dispatch_run *r = arg;

	r->rc = r->fn(r->call);
}

/* Describe an unknown call: the field numbers this server does not know. */
static void
dispatch_unknown(struct call *c, const Request *req)
{
	unsigned tag = 0;
	size_t i;

	for (i = 0; i < req->base.n_unknown_fields; i++)
		tag = req->base.unknown_fields[i].tag;
	if (req->call_case == HAPTIX__V1__REQUEST__CALL__NOT_SET && tag == 0)
		call_fail(c, RESULT_BADCOMMAND, "empty request: no call set");
	else
		call_fail(c, RESULT_BADCOMMAND,
		    "unknown call (field %u): this "
		    "server speaks protocol version %d",
		    tag != 0 ? tag : (unsigned)req->call_case,
		    HAPTIX__V1__PROTOCOL_VERSION__PROTOCOL_VERSION_CURRENT);
}

void
dispatch_frame(struct session *s, const uint8_t *payload, size_t len)
{
	struct daemon *d = s->d;
	Response resp = HAPTIX__V1__RESPONSE__INIT;
	struct call c = {
		.d = d, .s = s, .resp = &resp, .arena = &dispatch_scratch
	};
	const struct dispatch_entry *h = NULL;
	struct dispatch_run run;
	Request *req;
	char why[160];
	int rc;

	s->requests++;
	req = envelope_request_parse(payload, len);
	if (req == NULL) {
		snprintf(why, sizeof(why),
		    "the frame (%zu bytes) does not "
		    "decode as a haptix.v1.Request",
		    len);
		log_info("client %llu: %s", (unsigned long long)s->id, why);
		if (s->state == SESSION_HELLO)
			session_refuse(s, RESULT_BADPROTOCOL, why);
		else
			reply_refuse(s, RESULT_BADPROTOCOL, why);
		return;
	}
	c.req = req;
	if ((size_t)req->call_case < dispatch_ntable)
		h = &dispatch_table[req->call_case];
	if (s->state == SESSION_HELLO &&
	    req->call_case != HAPTIX__V1__REQUEST__CALL_HELLO)
		rc = call_fail(&c, RESULT_BADPROTOCOL,
		    "the first request "
		    "must be Hello");
	else if (s->state != SESSION_HELLO &&
	    req->call_case == HAPTIX__V1__REQUEST__CALL_HELLO)
		rc = call_fail(&c, RESULT_BADPROTOCOL,
		    "Hello was already "
		    "received on this connection");
	else if (h == NULL || h->fn == NULL) {
		dispatch_unknown(&c, req);
		rc = RESULT_BADCOMMAND;
	} else if (req->id == 0)
		/* Its answer would look like an event to the client. */
		rc = call_fail(&c, RESULT_BADPROTOCOL,
		    "request id 0 is reserved for events and errors of the "
		    "connection: number requests from 1");
	else if ((h->flags & DISPATCH_MODEL) && !sim_loaded(d->sim))
		rc = call_fail(&c, RESULT_NOMODEL, "no model is loaded");
	else if (((h->flags & DISPATCH_WRITE) ||
		     (h->writes != NULL && h->writes(&c))) &&
	    (rc = call_may_write(&c)) != 0)
		; /* c.err says who holds the simulation */
	else {
		if ((h->flags & DISPATCH_WRITE) ||
		    (h->writes != NULL && h->writes(&c)))
			rollback_wrote(s, h->name != NULL ? h->name : "?");
		run.fn = h->fn;
		run.call = &c;
		if (sim_protect(d->sim, dispatch_run_fn, &run, c.err,
			sizeof(c.err)) != 0)
			run.rc = RESULT_SIMERROR;
		rc = run.rc;
	}

	if (log_enabled(LOG_LEVEL_DEBUG))
		log_debug("client %llu: request %llu %s: %d%s%s",
		    (unsigned long long)s->id, (unsigned long long)req->id,
		    h != NULL && h->name != NULL ? h->name : "?", rc,
		    rc < 0 ? ": " : "",
		    rc < 0                   ? c.err :
			rc == CALL_WAIT_TICK ? " (waits for the API tick)" :
			rc == CALL_BUSY      ? " (answered when done)" :
					       "");
	if (rc == CALL_WAIT_TICK)
		pending_wait_tick(s, req->id, c.fill);
	else if (rc == CALL_BUSY)
		pending_busy(s);
	else {
		reply_send(s, req->id, rc, c.err, &resp);
		/* Hello is answered; then the session serves, or closes. */
		if (s->state == SESSION_HELLO && rc == RESULT_OK)
			session_set_state(s, SESSION_READY);
		else if (s->state == SESSION_HELLO)
			session_close_after_flush(s, c.err);
	}
	if (c.cleanup != NULL)
		c.cleanup(c.cleanup_arg);
	arena_reset(&dispatch_scratch);
	envelope_request_free(req);
}
