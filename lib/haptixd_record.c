/*
 * The extension API's recording calls: the server writes what it steps
 * into a file of its state directory (docs/recording.md).
 */
#include "config.h"

#include "conn.h"
#include "request.h"
#include "haptixd.h"

/* Run call, whose answer is a Recording, into out (may be NULL). */
static int
record_call(hxd_conn *c, Haptix__V1__Request__CallCase call, const void *arg,
    hxd_recording *out)
{
	Response *r;
	int rc;

	rc = request_call(
	    c, call, arg, HAPTIX__V1__RESPONSE__PAYLOAD_RECORDING, &r);
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
	return record_call(c, HAPTIX__V1__REQUEST__CALL_RECORD_START, &w, out);
}

int
hxd_record_stop(hxd_conn *c, hxd_recording *out)
{
	return record_call(c, HAPTIX__V1__REQUEST__CALL_RECORD_STOP, NULL, out);
}

int
hxd_state_hash(hxd_conn *c, unsigned long long *hash, unsigned long long *steps,
    double *time)
{
	Haptix__V1__Empty e = HAPTIX__V1__EMPTY__INIT;
	Response *r;
	int rc;

	rc = request_call(c, HAPTIX__V1__REQUEST__CALL_STATE_HASH, &e,
	    HAPTIX__V1__RESPONSE__PAYLOAD_STATE_HASH, &r);
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
