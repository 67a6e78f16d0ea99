/*
 * The model's objects: geom sizes and colours, equality constraints,
 * names and ids, and the viewers' message.
 */
#include "config.h"

#include <string.h>

#include "api.h"
#include "event.h"
#include "log.h"
#include "message.h"
#include "session.h"
#include "sim_access.h"
#include "sim_state.h"

/* The protocol's name of an object type, for error texts. */
static const char *
objtype_name(int type)
{
	const ProtobufCEnumValue *v;

	v = protobuf_c_enum_descriptor_get_value(
	    &haptix__v1__obj_type__descriptor, type);
	return v != NULL ? v->name : "(unknown type)";
}

int
api_set_geomsize(struct call *c)
{
	const Haptix__V1__GeomSize *w = c->req->set_geomsize;
	int rc;

	if ((rc = check_id(c, "geom", w->id, sizes(c)->ngeom)) ||
	    (rc = check_len(c, "size", w->n_size, 3)) ||
	    (rc = check_finite(c, "size", w->size, 3)))
		return rc;
	rc = sim_set_geomsize(
	    c->d->sim, w->id, w->size, c->err, sizeof(c->err));
	if (rc == -1)
		return RESULT_BADTYPE;
	if (rc == -2)
		return RESULT_BADVALUE;
	return RESULT_OK;
}

/* Explain a failed colour lookup. */
static int
rgba_fail(struct call *c, int rc, int type, int id)
{
	if (rc == -1)
		return call_fail(c, RESULT_BADTYPE,
		    "%s (%d) has no colour: use "
		    "OBJ_GEOM, OBJ_SITE, OBJ_TENDON or OBJ_MATERIAL",
		    objtype_name(type), type);
	return call_fail(c, RESULT_BADINDEX, "id %d is out of range for %s", id,
	    objtype_name(type));
}

int
api_get_rgba(struct call *c)
{
	const Haptix__V1__ObjectRef *ref = c->req->get_rgba;
	Haptix__V1__Rgba *w;
	double rgba[4];
	int rc;

	rc = sim_rgba_get(c->d->sim, ref->type, ref->id, rgba);
	if (rc != 0)
		return rgba_fail(c, rc, ref->type, ref->id);
	w = NEW(c, Haptix__V1__Rgba, haptix__v1__rgba__init);
	w->type = ref->type;
	w->id = ref->id;
	w->n_rgba = 4;
	w->rgba = call_copy(c, rgba, 4);
	PAYLOAD(c, rgba, RGBA, w);
	return RESULT_OK;
}

int
api_set_rgba(struct call *c)
{
	const Haptix__V1__Rgba *w = c->req->set_rgba;
	double now[4];
	int rc;

	/* Type and index first: they are what HAPTIX documents. */
	rc = sim_rgba_get(c->d->sim, w->type, w->id, now);
	if (rc != 0)
		return rgba_fail(c, rc, w->type, w->id);
	if ((rc = check_len(c, "rgba", w->n_rgba, 4)) ||
	    (rc = check_finite(c, "rgba", w->rgba, 4)))
		return rc;
	sim_rgba_set(c->d->sim, w->type, w->id, w->rgba);
	return RESULT_OK;
}

int
api_equality(struct call *c)
{
	const Haptix__V1__Equality *w = c->req->equality;
	int rc;

	if ((rc = check_id(c, "equality", w->id, sizes(c)->neq)))
		return rc;
	if (w->state != 0 && w->state != 1)
		return call_fail(c, RESULT_BADVALUE,
		    "state %d is neither 0 "
		    "(disable) nor 1 (enable)",
		    w->state);
	sim_equality(c->d->sim, w->id, w->state);
	return RESULT_OK;
}

int
api_message(struct call *c)
{
	const char *text = c->req->message->text;
	struct daemon *d = c->d;
	size_t n = strlen(text);

	if (n > MESSAGE_MAX)
		return call_fail(c, RESULT_BADSIZE,
		    "message of %zu bytes is "
		    "longer than %d",
		    n, MESSAGE_MAX);
	message_set(d, c->s->id, text, n);
	log_info(
	    "client %llu: message: \"%s\"", (unsigned long long)c->s->id, text);
	event_message(d);
	return RESULT_OK;
}

int
api_name2id(struct call *c)
{
	const Haptix__V1__ObjectRef *ref = c->req->name2id;
	Haptix__V1__ObjectRef *w;
	int id;

	id = sim_name2id(c->d->sim, ref->type, ref->name);
	if (id == -2)
		return call_fail(c, RESULT_BADTYPE, "%s (%d) has no names",
		    objtype_name(ref->type), ref->type);
	w = NEW(c, Haptix__V1__ObjectRef, haptix__v1__object_ref__init);
	w->type = ref->type;
	w->id = id;
	w->name = ref->name;
	PAYLOAD(c, object, OBJECT, w);
	return RESULT_OK;
}

int
api_id2name(struct call *c)
{
	const Haptix__V1__ObjectRef *ref = c->req->id2name;
	Haptix__V1__ObjectRef *w;
	const char *name;
	int bad_index;

	name = sim_id2name(c->d->sim, ref->type, ref->id, &bad_index);
	if (name == NULL && bad_index)
		return call_fail(c, RESULT_BADINDEX,
		    "id %d is out of range "
		    "for %s",
		    ref->id, objtype_name(ref->type));
	if (name == NULL)
		return call_fail(c, RESULT_BADTYPE, "%s (%d) has no names",
		    objtype_name(ref->type), ref->type);
	w = NEW(c, Haptix__V1__ObjectRef, haptix__v1__object_ref__init);
	w->type = ref->type;
	w->id = ref->id;
	w->name = (char *)name;
	PAYLOAD(c, object, OBJECT, w);
	return RESULT_OK;
}
