/*
 * The calls about clients rather than the simulation: the list of
 * clients and the control lease.
 */
#include "config.h"

#include <stdio.h>

#include "api.h"
#include "arena.h"
#include "daemon.h"
#include "event.h"
#include "lease.h"
#include "log.h"
#include "options.h"
#include "session.h"

struct clients_walk {
	struct call *c;
	Haptix__V1__ClientList *list;
};

/* Add one session to the list. */
static void
clients_add(struct session *s, void *arg)
{
	struct clients_walk *w = arg;

	w->list->clients[w->list->n_clients++] = event_client_info(
	    w->c->d, w->c->arena, s);
}

int
api_clients(struct call *c)
{
	Haptix__V1__ClientList *list = NEW(
	    c, Haptix__V1__ClientList, haptix__v1__client_list__init);
	struct clients_walk w = { c, list };

	list->clients = arena_alloc(
	    c->arena, (size_t)(sessions_count() + 1) * sizeof(*list->clients));
	sessions_foreach(clients_add, &w);
	list->max_clients = (uint32_t)c->d->opts->max_clients;
	list->you = c->s->id;
	PAYLOAD(c, clients, CLIENTS, list);
	return RESULT_OK;
}

int
api_lease(struct call *c)
{
	struct daemon *d = c->d;
	Haptix__V1__LeaseInfo *w;

	switch (c->req->lease->op) {
	case HAPTIX__V1__LEASE__OP__QUERY:
		break;
	case HAPTIX__V1__LEASE__OP__TAKE:
		if (lease_take(d, c->s, c->err, sizeof(c->err)) != 0)
			return RESULT_DENIED;
		break;
	case HAPTIX__V1__LEASE__OP__RELEASE:
		if (lease_release(d, c->s, c->err, sizeof(c->err)) != 0)
			return RESULT_DENIED;
		break;
	default:
		return call_fail(c, RESULT_BADVALUE,
		    "lease operation %d is not QUERY, TAKE or RELEASE",
		    (int)c->req->lease->op);
	}
	w = NEW(c, Haptix__V1__LeaseInfo, haptix__v1__lease_info__init);
	w->holder = d->lease_holder;
	w->holder_name = d->lease_holder_name;
	w->on_loss = (char *)options_lease_loss_name(d->opts->lease_loss);
	PAYLOAD(c, lease, LEASE, w);
	return RESULT_OK;
}
