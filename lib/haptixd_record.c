/*
 * The extension API's recording calls: the server writes what it steps
 * into a file of its state directory (docs/recording.md).
 */
#include "config.h"

#include "conn.h"
#include "haptixd.h"

/* Run req, whose answer is a Recording, into out (may be NULL). */
static int
record_call(hxd_conn *c, Request *req, hxd_recording *out)
{
	Response *r;
	int rc;

	rc = conn_call_expect(
	    c, req, HAPTIX__V1__RESPONSE__PAYLOAD_RECORDING, &r);
	if (rc != HXD_OK)
		return rc;
	if (out != NULL)
		conn_recording_from_wire(out, r->recording);
	conn_free_response(r);
	return HXD_OK;
}

int
hxd_record_start(hxd_conn *c, unsigned fields, unsigned every, unsigned flags,
    hxd_recording *out)
{
	Request req = HAPTIX__V1__REQUEST__INIT;
	Haptix__V1__RecordStart w = HAPTIX__V1__RECORD_START__INIT;
	Haptix__V1__StreamField f[HXD_FIELD_MAX + 1];
	int i;

	for (i = 1; i <= HXD_FIELD_MAX; i++) {
		if (fields & HXD_FIELDS(i))
			f[w.n_fields++] = (Haptix__V1__StreamField)i;
	}
	w.fields = f;
	w.every = every;
	w.journal = (flags & HXD_RECORD_JOURNAL) != 0;
	req.call_case = HAPTIX__V1__REQUEST__CALL_RECORD_START;
	req.record_start = &w;
	return record_call(c, &req, out);
}

int
hxd_record_stop(hxd_conn *c, hxd_recording *out)
{
	Request req = HAPTIX__V1__REQUEST__INIT;
	Haptix__V1__Empty e = HAPTIX__V1__EMPTY__INIT;

	req.call_case = HAPTIX__V1__REQUEST__CALL_RECORD_STOP;
	req.record_stop = &e;
	return record_call(c, &req, out);
}

int
hxd_state_hash(hxd_conn *c, unsigned long long *hash, unsigned long long *steps,
    double *time)
{
	Request req = HAPTIX__V1__REQUEST__INIT;
	Haptix__V1__Empty e = HAPTIX__V1__EMPTY__INIT;
	Response *r;
	int rc;

	req.call_case = HAPTIX__V1__REQUEST__CALL_STATE_HASH;
	req.state_hash = &e;
	rc = conn_call_expect(
	    c, &req, HAPTIX__V1__RESPONSE__PAYLOAD_STATE_HASH, &r);
	if (rc != HXD_OK)
		return rc;
	if (hash != NULL)
		*hash = r->state_hash->hash;
	if (steps != NULL)
		*steps = r->state_hash->steps;
	if (time != NULL)
		*time = r->state_hash->time;
	conn_free_response(r);
	return HXD_OK;
}
