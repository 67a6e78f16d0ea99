/* Streams: see stream.h. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/queue.h>

#include <event2/buffer.h>
#include <event2/event.h>

#include "arena.h"
#include "daemon.h"
#include "envelope.h"
#include "frame.h"
#include "log.h"
#include "monotonic.h"
#include "options.h"
#include "ptimer.h"
#include "result.h"
#include "session.h"
#include "sim.h"
#include "protomsg.h"
#include "stream.h"

typedef Haptix__V1__Response Response;
typedef Haptix__V1__Event Event;

/* An event kind's bit in the kinds a subscription wants. */
#define STREAM_KIND(k) ((uint32_t)1 << ((unsigned)(k)&31))

struct stream;

/* One subscription: a set of fields at one rate. */
struct stream_sub {
	LIST_ENTRY(stream_sub) entry;
	struct stream *st;
	uint32_t id;
	uint32_t fields;     /* PROTOMSG_FIELD bits */
	unsigned every;      /* steps between frames; 0: by wall time */
	double sim_hz;       /* > 0: every follows the model's timestep */
	unsigned phase;      /* steps since the last frame */
	struct event *timer; /* the first frame */
	struct ptimer *wall; /* the wall-time rate, or NULL */
	int64_t wall_due, wall_period; /* ns on the monotonic clock */
	int owed;         /* a frame fell due while the client was congested */
	uint64_t dropped; /* owed frames replaced by newer ones */
	uint32_t kinds;   /* events wanted: bit k for Event.kind k; 0: none */
};

/* One client's subscriptions and held events. */
struct stream {
	LIST_ENTRY(stream) entry;
	struct session *s;
	LIST_HEAD(, stream_sub) subs;
	unsigned nsubs;
	uint32_t kinds; /* events wanted by any of its subscriptions */
	uint32_t next_id;
	struct evbuffer *held; /* events waiting, as whole frames */
	unsigned nheld;
	uint64_t frames_sent, frames_dropped, events_dropped;
};

LIST_HEAD(stream_list, stream);

/* Every client's streams (d->stream). */
struct streams {
	struct stream_list all;
	unsigned step_subs;   /* subscriptions counting steps */
	struct arena scratch; /* one frame's messages */
	uint8_t *buf;         /* a broadcast event, packed once */
	size_t cap;
};

struct streams *
stream_create(void)
{
	struct streams *sm;

	if ((sm = calloc(1, sizeof(*sm))) == NULL)
		fatal("out of memory");
	LIST_INIT(&sm->all);
	return sm;
}

void
stream_free(struct streams *sm)
{
	if (sm == NULL)
		return;
	arena_free(&sm->scratch);
	free(sm->buf);
	free(sm);
}

static void stream_timer_cb(evutil_socket_t, short, void *);
static void stream_wall_cb(struct ptimer *, void *);

/*-------------------------------------------------------- subscribing */

/* Steps between frames for a rate in simulated Hz. */
static unsigned
stream_every(const struct daemon *d, double hz)
{
	double every;

	if (!sim_loaded(d->sim))
		return 1;
	every = floor(1.0 / (hz * sim_sizes(d->sim)->timestep) + 0.5);
	return every < 1 ? 1 : every > 4e9 ? 4000000000u : (unsigned)every;
}

/* Pack one frame of sub's fields as a Response with id 0 into out. */
static void
stream_frame_response(struct stream_sub *sub, Response *resp, Event *ev,
    Haptix__V1__StreamFrame *f)
{
	struct daemon *d = sub->st->s->d;
	struct streams *sm = d->stream;

	protomsg_frame(d, &sm->scratch, sub->fields, 0, f);
	f->subscription = sub->id;
	f->dropped = sub->dropped;
	haptix__v1__event__init(ev);
	ev->kind_case = HAPTIX__V1__EVENT__KIND_FRAME;
	ev->frame = f;
	ev->time = f->time;
	haptix__v1__response__init(resp);
	resp->payload_case = HAPTIX__V1__RESPONSE__PAYLOAD_EVENT;
	resp->event = ev;
}

/* The most a frame may be: one frame limit, and half of the queue limit. */
static size_t
stream_frame_limit(const struct daemon *d)
{
	size_t half = d->opts->max_queued / 2;

	return d->opts->max_frame < half ? d->opts->max_frame : half;
}

/* Send sub's frame now, or owe it while the client is congested. */
static void
stream_emit(struct stream_sub *sub)
{
	struct stream *st = sub->st;
	struct session *s = st->s;
	struct streams *sm = s->d->stream;
	Haptix__V1__StreamFrame f;
	Response resp;
	Event ev;
	size_t len;
	uint8_t *p;

	if (!sim_loaded(s->d->sim))
		return;
	if (st->nheld != 0 || session_congested(s)) {
		if (sub->owed) {
			sub->dropped++;
			st->frames_dropped++;
		}
		sub->owed = 1;
		return;
	}
	sub->owed = 0;
	stream_frame_response(sub, &resp, &ev, &f);
	len = envelope_response_size(&resp);
	if (len > stream_frame_limit(s->d)) {
		/* Contacts grew past the limits: this one cannot go. */
		sub->dropped++;
		st->frames_dropped++;
		arena_reset(&sm->scratch);
		return;
	}
	p = session_reserve_frame(s, len);
	envelope_response_pack(&resp, p);
	session_commit_frame(s, len);
	st->frames_sent++;
	arena_reset(&sm->scratch);
}

static void
stream_timer_cb(evutil_socket_t fd, short events, void *arg)
{
	stream_emit(arg);
}

/*
 * A frame at the wall-time rate, on a precise timer: due on an absolute
 * schedule, which skips what the loop was too late for.
 */
static void
stream_wall_cb(struct ptimer *t, void *arg)
{
	struct stream_sub *sub = arg;
	int64_t now = monotonic_ns();

	sub->wall_due += sub->wall_period;
	if (sub->wall_due <= now)
		sub->wall_due = now + sub->wall_period;
	ptimer_at(t, sub->wall_due);
	stream_emit(sub);
}

/* The stream of s, created on first use. */
static struct stream *
stream_of(struct session *s)
{
	struct streams *sm = s->d->stream;
	struct stream *st = s->stream;

	if (st != NULL)
		return st;
	st = calloc(1, sizeof(*st));
	if (st == NULL || (st->held = evbuffer_new()) == NULL)
		fatal("out of memory");
	st->s = s;
	LIST_INIT(&st->subs);
	LIST_INSERT_HEAD(&sm->all, st, entry);
	s->stream = st;
	return st;
}

/* The events a subscription asks for: none, the kinds named, or all. */
static uint32_t
stream_kinds_wanted(const Haptix__V1__Subscribe *req)
{
	uint32_t kinds = 0;
	size_t i;

	if (!req->events)
		return 0;
	if (req->n_event_kinds == 0)
		return ~(uint32_t)0;
	for (i = 0; i < req->n_event_kinds; i++)
		kinds |= STREAM_KIND(req->event_kinds[i]);
	return kinds;
}

/* Keep a client's wanted events the union of its subscriptions'. */
static void
stream_kinds_update(struct stream *st)
{
	struct stream_sub *sub;

	st->kinds = 0;
	LIST_FOREACH(sub, &st->subs, entry)
	{
		st->kinds |= sub->kinds;
	}
}

/* Check the fields and rate of a subscription. */
static int
stream_check(const struct daemon *d, const Haptix__V1__Subscribe *sub,
    uint32_t *fields, char *err, size_t len)
{
	int rates = (sub->every_steps != 0) + (sub->sim_hz != 0) +
	    (sub->wall_hz != 0);
	const ProtobufCFieldDescriptor *f;
	uint32_t k;
	size_t i;
	int bad;

	bad = protomsg_field_set(
	    (const int *)sub->fields, sub->n_fields, fields);
	if (bad >= 0) {
		snprintf(err, len, "fields[%d] is %d: not a stream field", bad,
		    (int)sub->fields[bad]);
		return RESULT_BADVALUE;
	}
	for (i = 0; i < sub->n_event_kinds; i++) {
		k = sub->event_kinds[i];
		f = k < 32 ? protobuf_c_message_descriptor_get_field(
				 &haptix__v1__event__descriptor, k) :
			     NULL;
		if (f == NULL || !(f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) ||
		    k == HAPTIX__V1__EVENT__KIND_FRAME) {
			snprintf(err, len,
			    "event_kinds[%zu] is %u: not a kind of event", i,
			    k);
			return RESULT_BADVALUE;
		}
	}
	if (sub->n_event_kinds != 0 && !sub->events) {
		snprintf(err, len, "event_kinds without events");
		return RESULT_BADVALUE;
	}
	if (sub->n_fields == 0 && !sub->events) {
		snprintf(err, len,
		    "nothing to subscribe to: no fields and no "
		    "events");
		return RESULT_BADVALUE;
	}
	if (sub->n_fields == 0 && rates != 0) {
		snprintf(err, len, "a rate without fields");
		return RESULT_BADVALUE;
	}
	if (sub->n_fields != 0 && rates != 1) {
		snprintf(err, len,
		    "give exactly one rate: every_steps, sim_hz or wall_hz "
		    "(got %d)",
		    rates);
		return RESULT_BADVALUE;
	}
	if (sub->sim_hz != 0 && !(sub->sim_hz > 0 && sub->sim_hz <= 1e6)) {
		snprintf(err, len, "sim_hz %g is not in (0, 1e6]", sub->sim_hz);
		return RESULT_BADVALUE;
	}
	if (sub->wall_hz != 0 &&
	    !(sub->wall_hz >= STREAM_WALL_HZ_MIN &&
		sub->wall_hz <= STREAM_WALL_HZ_MAX)) {
		snprintf(err, len, "wall_hz %g is not in [%g, %d]",
		    sub->wall_hz, STREAM_WALL_HZ_MIN, STREAM_WALL_HZ_MAX);
		return RESULT_BADVALUE;
	}
	(void)d;
	return 0;
}

int
stream_subscribe(
    struct session *s, const Haptix__V1__Subscribe *req, char *err, size_t len)
{
	struct streams *sm = s->d->stream;
	struct daemon *d = s->d;
	struct stream *st;
	struct stream_sub *sub, probe;
	struct stream probe_st;
	Haptix__V1__StreamFrame f;
	Response resp;
	Event ev;
	uint32_t fields;
	size_t size;
	int rc;

	if ((rc = stream_check(d, req, &fields, err, len)) != 0)
		return rc;
	if (s->stream != NULL &&
	    s->stream->nsubs >= (unsigned)d->opts->max_subscriptions) {
		snprintf(err, len,
		    "this client has %u subscriptions already, the most "
		    "allowed (--max-subscriptions %d)",
		    s->stream->nsubs, d->opts->max_subscriptions);
		return RESULT_BADSIZE;
	}
	/* A frame must fit the limits as the model is now. */
	if (fields != 0 && sim_loaded(d->sim)) {
		memset(&probe_st, 0, sizeof(probe_st));
		probe_st.s = s;
		memset(&probe, 0, sizeof(probe));
		probe.st = &probe_st;
		probe.fields = fields;
		stream_frame_response(&probe, &resp, &ev, &f);
		size = envelope_response_size(&resp);
		arena_reset(&sm->scratch);
		if (size > stream_frame_limit(d)) {
			snprintf(err, len,
			    "a frame of these fields is %zu bytes, more than "
			    "%zu (--max-frame, half of --max-queued)",
			    size, stream_frame_limit(d));
			return RESULT_BADSIZE;
		}
	}

	st = stream_of(s);
	sub = calloc(1, sizeof(*sub));
	if (sub == NULL)
		fatal("out of memory");
	sub->st = st;
	sub->id = ++st->next_id;
	sub->fields = fields;
	sub->kinds = stream_kinds_wanted(req);
	if (fields != 0) {
		sub->timer = event_new(d->base, -1, 0, stream_timer_cb, sub);
		if (sub->timer == NULL)
			fatal("out of memory");
		if (req->wall_hz != 0) {
			sub->wall = ptimer_new(d->base, stream_wall_cb, sub);
			sub->wall_period = (int64_t)(1e9 / req->wall_hz);
			sub->wall_due = monotonic_ns() + sub->wall_period;
			ptimer_at(sub->wall, sub->wall_due);
		} else {
			sub->sim_hz = req->sim_hz;
			sub->every = req->every_steps != 0 ?
			    req->every_steps :
			    stream_every(d, req->sim_hz);
			sm->step_subs++;
		}
		/* The state as it is now, after the answer. */
		event_active(sub->timer, EV_TIMEOUT, 0);
	}
	LIST_INSERT_HEAD(&st->subs, sub, entry);
	st->nsubs++;
	stream_kinds_update(st);
	log_debug("client %llu: subscription %u (fields 0x%x, every %u "
		  "steps, %g Hz wall%s)",
	    (unsigned long long)s->id, sub->id, fields, sub->every,
	    req->wall_hz, sub->kinds != 0 ? ", events" : "");
	return (int)sub->id;
}

/* End one subscription. */
static void
stream_sub_free(struct stream_sub *sub)
{
	struct stream *st = sub->st;
	struct streams *sm = st->s->d->stream;

	LIST_REMOVE(sub, entry);
	st->nsubs--;
	stream_kinds_update(st);
	if (sub->every != 0)
		sm->step_subs--;
	if (sub->timer != NULL)
		event_free(sub->timer);
	ptimer_free(sub->wall);
	free(sub);
}

int
stream_unsubscribe(struct session *s, uint32_t id, char *err, size_t len)
{
	struct stream *st = s->stream;
	struct stream_sub *sub, *next;
	int found = 0;

	for (sub = st != NULL ? LIST_FIRST(&st->subs) : NULL; sub != NULL;
	     sub = next) {
		next = LIST_NEXT(sub, entry);
		if (id == 0 || sub->id == id) {
			stream_sub_free(sub);
			found = 1;
		}
	}
	if (!found && id != 0) {
		snprintf(err, len, "this client has no subscription %u", id);
		return RESULT_BADINDEX;
	}
	return 0;
}

void
stream_counters(const struct session *s, struct stream_counters *out)
{
	const struct stream *st = s->stream;

	memset(out, 0, sizeof(*out));
	if (st == NULL)
		return;
	out->subscriptions = st->nsubs;
	out->frames_sent = st->frames_sent;
	out->frames_dropped = st->frames_dropped;
	out->events_dropped = st->events_dropped;
}

void
stream_session_closed(struct session *s)
{
	struct stream *st = s->stream;
	struct stream_sub *sub;

	if (st == NULL)
		return;
	while ((sub = LIST_FIRST(&st->subs)) != NULL)
		stream_sub_free(sub);
	LIST_REMOVE(st, entry);
	evbuffer_free(st->held);
	free(st);
	s->stream = NULL;
}

/*------------------------------------------------------------ frames */

void
stream_after_step(struct daemon *d)
{
	struct streams *sm = d->stream;
	struct stream *st, *stnext;
	struct stream_sub *sub, *next;

	if (sm->step_subs == 0)
		return;
	for (st = LIST_FIRST(&sm->all); st != NULL; st = stnext) {
		stnext = LIST_NEXT(st, entry);
		for (sub = LIST_FIRST(&st->subs); sub != NULL; sub = next) {
			next = LIST_NEXT(sub, entry);
			if (sub->every == 0 || ++sub->phase < sub->every)
				continue;
			sub->phase = 0;
			stream_emit(sub);
		}
	}
}

void
stream_session_drained(struct session *s)
{
	struct stream *st = s->stream;
	struct stream_sub *sub;
	uint8_t hdr[FRAME_HEADER_SIZE];
	size_t plen;

	if (st == NULL)
		return;
	/* Held events first, as long as there is room. */
	while (st->nheld != 0 && !session_congested(s)) {
		evbuffer_copyout(st->held, hdr, sizeof(hdr));
		plen = frame_get_length(hdr);
		evbuffer_drain(st->held, FRAME_HEADER_SIZE);
		session_send_frame(
		    s, evbuffer_pullup(st->held, (ev_ssize_t)plen), plen);
		evbuffer_drain(st->held, plen);
		st->nheld--;
	}
	/*
	 * Then the owed frames, if there is room still: while there is
	 * not, they stay owed, and no newer frame fell due to drop them.
	 */
	LIST_FOREACH(sub, &st->subs, entry)
	{
		if (st->nheld != 0 || session_congested(s))
			break;
		if (sub->owed)
			stream_emit(sub);
	}
}

/*--------------------------------------------------- events, delivered */

/* Deliver one packed event to a client, or hold it while congested. */
static void
stream_deliver(struct stream *st, const uint8_t *p, size_t len)
{
	uint8_t hdr[FRAME_HEADER_SIZE];
	size_t plen;

	if (st->nheld == 0 && !session_congested(st->s)) {
		session_send_frame(st->s, p, len);
		return;
	}
	if (st->nheld == STREAM_HELD_EVENTS) {
		/* Full: the oldest goes. */
		evbuffer_copyout(st->held, hdr, sizeof(hdr));
		plen = frame_get_length(hdr);
		evbuffer_drain(st->held, FRAME_HEADER_SIZE + plen);
		st->nheld--;
		st->events_dropped++;
	}
	frame_put_header(hdr, (uint32_t)len);
	evbuffer_add(st->held, hdr, sizeof(hdr));
	evbuffer_add(st->held, p, len);
	st->nheld++;
}

void
stream_broadcast(struct daemon *d, Event *ev)
{
	stream_broadcast_at(d, ev, sim_loaded(d->sim) ? sim_time(d->sim) : 0);
}

void
stream_broadcast_at(struct daemon *d, Event *ev, double time)
{
	struct streams *sm = d->stream;
	Response resp = HAPTIX__V1__RESPONSE__INIT;
	struct stream *st, *next;
	size_t len;

	if (LIST_EMPTY(&sm->all))
		return;
	ev->time = time;
	resp.payload_case = HAPTIX__V1__RESPONSE__PAYLOAD_EVENT;
	resp.event = ev;
	len = envelope_response_size(&resp);
	if (len > sm->cap) {
		free(sm->buf);
		sm->cap = len < 4096 ? 4096 : len;
		if ((sm->buf = malloc(sm->cap)) == NULL)
			fatal("out of memory");
	}
	envelope_response_pack(&resp, sm->buf);
	for (st = LIST_FIRST(&sm->all); st != NULL; st = next) {
		next = LIST_NEXT(st, entry);
		if ((st->kinds & STREAM_KIND(ev->kind_case)) != 0 &&
		    session_served(st->s))
			stream_deliver(st, sm->buf, len);
	}
}

void
stream_model_changed(struct daemon *d)
{
	struct streams *sm = d->stream;
	struct stream *st;
	struct stream_sub *sub;

	/* A new model has its own timestep. */
	LIST_FOREACH(st, &sm->all, entry)
	{
		LIST_FOREACH(sub, &st->subs, entry)
		{
			if (sub->sim_hz != 0)
				sub->every = stream_every(d, sub->sim_hz);
			sub->phase = 0;
		}
	}
}
