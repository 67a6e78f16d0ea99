/* Request dispatch: see dispatch.h. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "api.h"
#include "arena.h"
#include "daemon.h"
#include "dispatch.h"
#include "log.h"
#include "options.h"
#include "session.h"
#include "sim.h"

#define SAME(a, b) _Static_assert((int)(a) == (int)(b), #a " != " #b)
SAME(RESULT_BADSIZE, HAPTIX__V1__RESULT__RESULT_BADSIZE);
SAME(RESULT_BADINDEX, HAPTIX__V1__RESULT__RESULT_BADINDEX);
SAME(RESULT_BADTYPE, HAPTIX__V1__RESULT__RESULT_BADTYPE);
SAME(RESULT_BADCOMMAND, HAPTIX__V1__RESULT__RESULT_BADCOMMAND);
SAME(RESULT_NOMODEL, HAPTIX__V1__RESULT__RESULT_NOMODEL);
SAME(RESULT_BADVALUE, HAPTIX__V1__RESULT__RESULT_BADVALUE);
SAME(RESULT_DENIED, HAPTIX__V1__RESULT__RESULT_DENIED);
SAME(RESULT_LOADFAILED, HAPTIX__V1__RESULT__RESULT_LOADFAILED);
SAME(RESULT_BADPROTOCOL, HAPTIX__V1__RESULT__RESULT_BADPROTOCOL);
SAME(RESULT_SIMERROR, HAPTIX__V1__RESULT__RESULT_SIMERROR);
#undef SAME

/* The call needs a loaded model. */
#define H_MODEL 0x1u

/* The call changes the simulation: the lease and batch runs may forbid it. */
#define H_WRITE 0x2u

#define H_MW (H_MODEL | H_WRITE)

struct handler {
	const char *name;
	api_handler fn;
	unsigned flags;
};

/*
 * One row per call of the Request oneof, indexed by its field number.
 * update and robot_update write only with controls: they check it.
 */
static const struct handler handlers[] = {
#define H(call, fn, flags) \
	[HAPTIX__V1__REQUEST__CALL_##call] = { #fn, api_##fn, flags }
	H(HELLO, hello, 0),
	H(INFO, info, H_MODEL),
	H(GET_STATE, get_state, H_MODEL),
	H(GET_CONTROL, get_control, H_MODEL),
	H(GET_APPLIED, get_applied, H_MODEL),
	H(GET_ONEBODY, get_onebody, H_MODEL),
	H(GET_MOCAP, get_mocap, H_MODEL),
	H(GET_DYNAMICS, get_dynamics, H_MODEL),
	H(GET_SENSOR, get_sensor, H_MODEL),
	H(GET_BODY, get_body, H_MODEL),
	H(GET_GEOM, get_geom, H_MODEL),
	H(GET_SITE, get_site, H_MODEL),
	H(GET_TENDON, get_tendon, H_MODEL),
	H(GET_ACTUATOR, get_actuator, H_MODEL),
	H(GET_FORCE, get_force, H_MODEL),
	H(GET_CONTACT, get_contact, H_MODEL),
	H(SET_STATE, set_state, H_MW),
	H(SET_CONTROL, set_control, H_MW),
	H(SET_APPLIED, set_applied, H_MW),
	H(SET_ONEBODY, set_onebody, H_MW),
	H(SET_MOCAP, set_mocap, H_MW),
	H(SET_GEOMSIZE, set_geomsize, H_MW),
	H(GET_RGBA, get_rgba, H_MODEL),
	H(SET_RGBA, set_rgba, H_MW),
	H(STEP, step, H_MW),
	H(UPDATE, update, H_MODEL),
	H(RESET, reset, H_MW),
	H(EQUALITY, equality, H_MW),
	H(MESSAGE, message, 0),
	H(NAME2ID, name2id, H_MODEL),
	H(ID2NAME, id2name, H_MODEL),
	H(ROBOT_INFO, robot_info, H_MODEL),
	H(ROBOT_UPDATE, robot_update, H_MODEL),
	H(CLIENTS, clients, 0),
	H(LEASE, lease, 0),
	H(SUBSCRIBE, subscribe, 0),
	H(UNSUBSCRIBE, unsubscribe, 0),
	H(BATCH, batch, H_MW),
	H(CAPTURE_KEY, capture_key, H_MW),
	H(SET_JOINT, set_joint, H_MW),
	H(GET_ARRAY, get_array, H_MODEL),
	H(SET_ARRAY, set_array, H_MW),
	H(LIST_ARRAYS, list_arrays, H_MODEL),
	H(GET_MODEL, get_model, H_MODEL),
	H(LOAD_MODEL, load_model, H_WRITE),
	H(PAUSE, pause, H_MW),
	H(RUN, run, H_MW),
	H(SET_SPEED, set_speed, H_WRITE),
	H(STATUS, status, 0),
	H(RECORD_START, record_start, H_MW),
	H(STATE_HASH, state_hash, H_MODEL),
	H(RECORD_STOP, record_stop, H_WRITE),
	H(MOCAP_POSE, mocap_pose, H_MW),
	H(MOCAP_CONNECT, mocap_connect, H_MW),
	H(PERTURB, perturb, H_MW),
#undef H
};

static struct arena dispatch_scratch;

struct dispatch_run {
	api_handler fn;
	struct call *call;
	int rc;
};

static void dispatch_run_fn(void *);

void
dispatch_answer(struct session *s, uint64_t id, api_fill fill)
{
	static struct arena scratch;
	Response resp = HAPTIX__V1__RESPONSE__INIT;

	fill(s->d, &scratch, &resp);
	dispatch_send(s, id, RESULT_OK, NULL, &resp);
	arena_reset(&scratch);
}

int
call_fail(struct call *c, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->err, sizeof(c->err), fmt, ap);
	va_end(ap);
	return code;
}

void
dispatch_send(
    struct session *s, uint64_t id, int code, const char *err, Response *resp)
{
	size_t len, max = s->d->opts->max_frame;
	char why[160];
	uint8_t *p;

	if (s->state == SESSION_DEAD)
		return;
	resp->id = id;
	resp->result = (Haptix__V1__Result)code;
	resp->error = (char *)(code != RESULT_OK && err != NULL ? err : "");
	len = haptix__v1__response__get_packed_size(resp);
	if (len > max) {
		snprintf(why, sizeof(why),
		    "the answer (%zu bytes) exceeds the "
		    "frame limit of %zu bytes (--max-frame)",
		    len, max);
		haptix__v1__response__init(resp);
		resp->id = id;
		resp->result = HAPTIX__V1__RESULT__RESULT_BADSIZE;
		resp->error = why;
		len = haptix__v1__response__get_packed_size(resp);
	}
	if (code != RESULT_OK)
		s->errors++;
	p = session_reserve_frame(s, len);
	haptix__v1__response__pack(resp, p);
	session_commit_frame(s, len);
}

void
dispatch_reject(struct session *s, int code, const char *text)
{
	Response resp = HAPTIX__V1__RESPONSE__INIT;

	dispatch_send(s, 0, code, text, &resp);
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
	const struct handler *h = NULL;
	struct dispatch_run run;
	Request *req;
	char why[160];
	int rc;

	s->requests++;
	req = haptix__v1__request__unpack(NULL, len, payload);
	if (req == NULL) {
		snprintf(why, sizeof(why),
		    "the frame (%zu bytes) does not "
		    "decode as a haptix.v1.Request",
		    len);
		log_info("client %llu: %s", (unsigned long long)s->id, why);
		dispatch_reject(s, RESULT_BADPROTOCOL, why);
		if (s->state == SESSION_HELLO)
			session_close_after_flush(s, why);
		return;
	}
	c.req = req;
	if ((size_t)req->call_case < sizeof(handlers) / sizeof(handlers[0]))
		h = &handlers[req->call_case];
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
	} else if ((h->flags & H_MODEL) && !sim_loaded(d->sim))
		rc = call_fail(&c, RESULT_NOMODEL, "no model is loaded");
	else if ((h->flags & H_WRITE) && (rc = api_may_write(&c)) != 0)
		; /* c.err says who holds the simulation */
	else {
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
		    rc < 0                  ? c.err :
			rc == CALL_DEFERRED ? " (answered later)" :
					      "");
	if (rc != CALL_DEFERRED)
		dispatch_send(s, req->id, rc, c.err, &resp);
	if (c.cleanup != NULL)
		c.cleanup(c.cleanup_arg);
	if (rc != RESULT_OK && s->state == SESSION_HELLO)
		session_close_after_flush(s, c.err);
	arena_reset(&dispatch_scratch);
	haptix__v1__request__free_unpacked(req, NULL);
}
