/*
 * record_start and record_stop: the daemon records what it steps into a
 * file of its state directory (record.c, docs/recording.md).
 */
#include "config.h"

#include <stdio.h>

#include "api.h"
#include "arena.h"
#include "daemon.h"
#include "log.h"
#include "record.h"
#include "recording.h"
#include "session.h"
#include "sim.h"
#include "protomsg.h"

/* The recording set of a stream field, or 0 if it cannot be recorded. */
static unsigned
record_field(int f)
{
	switch (f) {
	case HAPTIX__V1__STREAM_FIELD__STREAM_QPOS:
		return REC_FIELD_BIT(REC_QPOS);
	case HAPTIX__V1__STREAM_FIELD__STREAM_QVEL:
		return REC_FIELD_BIT(REC_QVEL);
	case HAPTIX__V1__STREAM_FIELD__STREAM_ACT:
		return REC_FIELD_BIT(REC_ACT);
	case HAPTIX__V1__STREAM_FIELD__STREAM_CTRL:
		return REC_FIELD_BIT(REC_CTRL);
	case HAPTIX__V1__STREAM_FIELD__STREAM_MOCAP:
		return REC_FIELD_BIT(REC_MOCAP_POS) |
		    REC_FIELD_BIT(REC_MOCAP_QUAT);
	case HAPTIX__V1__STREAM_FIELD__STREAM_SENSORDATA:
		return REC_FIELD_BIT(REC_SENSORDATA);
	case HAPTIX__V1__STREAM_FIELD__STREAM_QFRC_APPLIED:
		return REC_FIELD_BIT(REC_QFRC_APPLIED);
	case HAPTIX__V1__STREAM_FIELD__STREAM_XFRC_APPLIED:
		return REC_FIELD_BIT(REC_XFRC_APPLIED);
	default:
		return 0;
	}
}

int
api_record_start(struct call *c)
{
	const Haptix__V1__RecordStart *r = c->req->record_start;
	unsigned fields = 0, bit;
	size_t i;
	int rc;

	if (r->every > 1000000)
		return call_fail(c, RESULT_BADVALUE,
		    "every %u: at most 1000000 steps skipped", r->every);
	for (i = 0; i < r->n_fields; i++) {
		if ((bit = record_field((int)r->fields[i])) == 0)
			return call_fail(c, RESULT_BADVALUE,
			    "field %d cannot be recorded: qpos, qvel, act, "
			    "ctrl, mocap, sensordata, qfrc_applied or "
			    "xfrc_applied",
			    (int)r->fields[i]);
		fields |= bit;
	}
	if (fields == 0)
		fields = REC_FIELDS_HAPTIX;
	rc = record_start(
	    c->d, fields, r->every + 1, r->journal, c->err, sizeof(c->err));
	if (rc != RESULT_OK)
		return rc;
	log_info("client %llu: recording", (unsigned long long)c->s->id);
	PAYLOAD(c, recording, RECORDING, protomsg_recording(c->d, c->arena));
	return RESULT_OK;
}

int
api_record_stop(struct call *c)
{
	struct record_info ri;

	record_info(c->d, &ri);
	if (!ri.active)
		return call_fail(c, RESULT_BADVALUE, "no recording runs%s%s%s",
		    ri.ended[0] != '\0' ? " (the last one ended: " : "",
		    ri.ended, ri.ended[0] != '\0' ? ")" : "");
	record_stop(c->d, "stopped by a client");
	PAYLOAD(c, recording, RECORDING, protomsg_recording(c->d, c->arena));
	return RESULT_OK;
}

int
api_state_hash(struct call *c)
{
	Haptix__V1__StateHash *h = arena_alloc(c->arena, sizeof(*h));

	haptix__v1__state_hash__init(h);
	h->hash = record_state_hash(c->d);
	h->steps = sim_counters(c->d->sim)->steps;
	h->time = sim_time(c->d->sim);
	PAYLOAD(c, state_hash, STATE_HASH, h);
	return RESULT_OK;
}
