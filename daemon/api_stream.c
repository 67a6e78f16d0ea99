/* The calls of streams and events: subscribe and unsubscribe. */
#include "config.h"

#include "api.h"
#include "stream.h"

int
api_subscribe(struct call *c)
{
	Haptix__V1__SubscriptionId *w;
	int id;

	id = stream_subscribe(c->s, c->req->subscribe, c->err, sizeof(c->err));
	if (id < 0)
		return id;
	w = NEW(
	    c, Haptix__V1__SubscriptionId, haptix__v1__subscription_id__init);
	w->id = (uint32_t)id;
	PAYLOAD(c, subscription, SUBSCRIPTION, w);
	return RESULT_OK;
}

int
api_unsubscribe(struct call *c)
{
	return stream_unsubscribe(
	    c->s, c->req->unsubscribe->id, c->err, sizeof(c->err));
}
