/* Answers: see reply.h. */
#include "config.h"

#include <stdio.h>

#include "arena.h"
#include "daemon.h"
#include "envelope.h"
#include "options.h"
#include "reply.h"
#include "result.h"
#include "session.h"

/* The daemon's result codes are the protocol's, on the wire as they are. */
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

void
reply_send(
    struct session *s, uint64_t id, int code, const char *err, Response *resp)
{
	size_t len, max = s->d->opts->max_frame;
	char why[160];
	uint8_t *p;

	if (!session_served(s))
		return;
	resp->id = id;
	resp->result = (Haptix__V1__Result)code;
	resp->error = (char *)(code != RESULT_OK && err != NULL ? err : "");
	len = envelope_response_size(resp);
	if (len > max) {
		snprintf(why, sizeof(why),
		    "the answer (%zu bytes) exceeds the "
		    "frame limit of %zu bytes (--max-frame)",
		    len, max);
		haptix__v1__response__init(resp);
		resp->id = id;
		resp->result = HAPTIX__V1__RESULT__RESULT_BADSIZE;
		resp->error = why;
		len = envelope_response_size(resp);
	}
	if (resp->result != HAPTIX__V1__RESULT__RESULT_OK)
		s->errors++;
	p = session_reserve_frame(s, len);
	envelope_response_pack(resp, p);
	session_commit_frame(s, len);
}

void
reply_fill(struct session *s, uint64_t id, reply_fill_fn fill)
{
	static struct arena scratch;
	Response resp = HAPTIX__V1__RESPONSE__INIT;

	fill(s->d, &scratch, &resp);
	reply_send(s, id, RESULT_OK, NULL, &resp);
	arena_reset(&scratch);
}

void
reply_refuse(struct session *s, int code, const char *why)
{
	Response resp = HAPTIX__V1__RESPONSE__INIT;

	reply_send(s, 0, code, why, &resp);
}
