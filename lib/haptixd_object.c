/*
 * The extension API's calls on the model's objects (haptixd.h): geom
 * sizes and colours, equality constraints, the viewers' message, names
 * and ids.
 */
#include "config.h"

#include <stdio.h>

#include "request.h"

int
hxd_set_geomsize(hxd_conn *c, int geom_id, const double size[3])
{
	Haptix__V1__GeomSize w = HAPTIX__V1__GEOM_SIZE__INIT;

	w.id = geom_id;
	w.n_size = 3;
	w.size = (double *)size;
	return request_call(
	    c, HAPTIX__V1__REQUEST__CALL_SET_GEOMSIZE, &w, 0, NULL);
}

int
hxd_get_rgba(hxd_conn *c, int type, int id, double rgba[4])
{
	Haptix__V1__ObjectRef ref = HAPTIX__V1__OBJECT_REF__INIT;
	Response *r;
	int rc;

	ref.type = (Haptix__V1__ObjType)type;
	ref.id = id;
	rc = request_call(c, HAPTIX__V1__REQUEST__CALL_GET_RGBA, &ref,
	    HAPTIX__V1__RESPONSE__PAYLOAD_RGBA, &r);
	if (rc != HXD_OK)
		return rc;
	if (decode_fixed(c, "rgba", rgba, 4, r->rgba->rgba, r->rgba->n_rgba)) {
		conn_free_response(r);
		return c->result;
	}
	conn_free_response(r);
	return conn_ok(c);
}

int
hxd_set_rgba(hxd_conn *c, int type, int id, const double rgba[4])
{
	Haptix__V1__Rgba w = HAPTIX__V1__RGBA__INIT;

	w.type = (Haptix__V1__ObjType)type;
	w.id = id;
	w.n_rgba = 4;
	w.rgba = (double *)rgba;
	return request_call(c, HAPTIX__V1__REQUEST__CALL_SET_RGBA, &w, 0, NULL);
}

int
hxd_equality(hxd_conn *c, int eq_id, int state)
{
	Haptix__V1__Equality w = HAPTIX__V1__EQUALITY__INIT;

	w.id = eq_id;
	w.state = state;
	return request_call(c, HAPTIX__V1__REQUEST__CALL_EQUALITY, &w, 0, NULL);
}

int
hxd_message(hxd_conn *c, const char *text)
{
	Haptix__V1__Message w = HAPTIX__V1__MESSAGE__INIT;

	w.text = (char *)(text != NULL ? text : "");
	return request_call(c, HAPTIX__V1__REQUEST__CALL_MESSAGE, &w, 0, NULL);
}

int
hxd_name2id(hxd_conn *c, int type, const char *name, int *id)
{
	Haptix__V1__ObjectRef ref = HAPTIX__V1__OBJECT_REF__INIT;
	Response *r;
	int rc;

	*id = -2;
	ref.type = (Haptix__V1__ObjType)type;
	ref.name = (char *)(name != NULL ? name : "");
	rc = request_call(c, HAPTIX__V1__REQUEST__CALL_NAME2ID, &ref,
	    HAPTIX__V1__RESPONSE__PAYLOAD_OBJECT, &r);
	if (rc != HXD_OK)
		return rc;
	*id = r->object->id;
	conn_free_response(r);
	return rc;
}

int
hxd_id2name(hxd_conn *c, int type, int id, char *buf, size_t len)
{
	Haptix__V1__ObjectRef ref = HAPTIX__V1__OBJECT_REF__INIT;
	Response *r;
	int rc;

	if (len > 0)
		buf[0] = '\0';
	ref.type = (Haptix__V1__ObjType)type;
	ref.id = id;
	rc = request_call(c, HAPTIX__V1__REQUEST__CALL_ID2NAME, &ref,
	    HAPTIX__V1__RESPONSE__PAYLOAD_OBJECT, &r);
	if (rc != HXD_OK)
		return rc;
	if (len > 0)
		snprintf(buf, len, "%s", r->object->name);
	conn_free_response(r);
	return rc;
}
