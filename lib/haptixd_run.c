/*
 * The extension API's calls that run the simulation (haptixd.h): step,
 * update, reset, capture, pause, run and speed.
 */
#include "config.h"

#include "request.h"
#include "tables.h"

int
hxd_step(hxd_conn *c, unsigned count, unsigned *taken)
{
	Haptix__V1__Step w = HAPTIX__V1__STEP__INIT;
	Response *r;
	int rc;

	if (taken != NULL)
		*taken = 0;
	w.count = count;
	rc = request_call(c, HAPTIX__V1__REQUEST__CALL_STEP, &w,
	    HAPTIX__V1__RESPONSE__PAYLOAD_STEP_DONE, &r);
	if (rc != HXD_OK)
		return rc;
	if (taken != NULL)
		*taken = r->step_done->steps;
	conn_free_response(r);
	return rc;
}

int
hxd_update(hxd_conn *c, const hxd_control *control, hxd_sensor **out)
{
	Haptix__V1__Update u = HAPTIX__V1__UPDATE__INIT;
	Haptix__V1__Control w = HAPTIX__V1__CONTROL__INIT;
	Response *r;
	int rc;

	*out = NULL;
	if (control != NULL) {
		if (request_control(c, control, &w) != HXD_OK)
			return c->result;
		u.control = &w;
	}
	rc = request_call(c, HAPTIX__V1__REQUEST__CALL_UPDATE, &u,
	    HAPTIX__V1__RESPONSE__PAYLOAD_SENSOR, &r);
	if (rc != HXD_OK)
		return rc;
	*out = decode_payload(
	    c, r, sensor_fields, NELEM(sensor_fields), sizeof(**out));
	conn_free_response(r);
	return c->result;
}

int
hxd_reset(hxd_conn *c, int keyframe)
{
	Haptix__V1__Reset w = HAPTIX__V1__RESET__INIT;

	w.keyframe = keyframe;
	return request_call(c, HAPTIX__V1__REQUEST__CALL_RESET, &w, 0, NULL);
}

int
hxd_reset_name(hxd_conn *c, const char *name)
{
	Haptix__V1__Reset w = HAPTIX__V1__RESET__INIT;

	if (name == NULL || *name == '\0')
		return conn_fail(c, HXD_BADVALUE, "no name given");
	w.keyframe = -1;
	w.name = (char *)name;
	return request_call(c, HAPTIX__V1__REQUEST__CALL_RESET, &w, 0, NULL);
}

int
hxd_reset_keep(hxd_conn *c, int keyframe, const char *name)
{
	Haptix__V1__Reset w = HAPTIX__V1__RESET__INIT;

	w.keyframe = keyframe;
	if (name != NULL && *name != '\0') {
		w.keyframe = -1;
		w.name = (char *)name;
	}
	w.keep_params = 1;
	return request_call(c, HAPTIX__V1__REQUEST__CALL_RESET, &w, 0, NULL);
}

int
hxd_capture_key(hxd_conn *c, const char *name, int keyframe)
{
	Haptix__V1__KeyCapture w = HAPTIX__V1__KEY_CAPTURE__INIT;

	w.name = (char *)(name != NULL ? name : "");
	w.keyframe = keyframe;
	return request_call(
	    c, HAPTIX__V1__REQUEST__CALL_CAPTURE_KEY, &w, 0, NULL);
}

int
hxd_pause(hxd_conn *c)
{
	return request_call(c, HAPTIX__V1__REQUEST__CALL_PAUSE, NULL, 0, NULL);
}

int
hxd_run(hxd_conn *c)
{
	return request_call(c, HAPTIX__V1__REQUEST__CALL_RUN, NULL, 0, NULL);
}

int
hxd_set_speed(hxd_conn *c, double factor, int max)
{
	Haptix__V1__Speed w = HAPTIX__V1__SPEED__INIT;

	w.factor = factor;
	w.max = max != 0;
	return request_call(
	    c, HAPTIX__V1__REQUEST__CALL_SET_SPEED, &w, 0, NULL);
}
