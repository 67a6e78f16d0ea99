/*
 * The extension API's view of the other clients (haptixd.h): the list
 * of connected clients and the control lease.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conn.h"
#include "request.h"

void
conn_client_from_wire(hxd_client *out, const Haptix__V1__ClientInfo *w)
{
	memset(out, 0, sizeof(*out));
	if (w == NULL)
		return;
	out->id = w->id;
	snprintf(out->name, sizeof(out->name), "%s", w->name);
	snprintf(out->peer, sizeof(out->peer), "%s", w->peer);
	out->lease = w->lease;
	out->connected = w->connected;
	out->requests = w->requests;
	out->errors = w->errors;
	out->bytes_in = w->bytes_in;
	out->bytes_out = w->bytes_out;
	out->queued = w->queued;
	out->subscriptions = (int)w->subscriptions;
	out->frames_sent = w->frames_sent;
	out->frames_dropped = w->frames_dropped;
	out->events_dropped = w->events_dropped;
	out->lease_shared = w->lease_shared;
}

void
conn_lease_from_wire(hxd_lease_info *out, const Haptix__V1__LeaseInfo *w)
{
	memset(out, 0, sizeof(*out));
	if (w == NULL)
		return;
	out->holder = w->holder;
	snprintf(
	    out->holder_name, sizeof(out->holder_name), "%s", w->holder_name);
	snprintf(out->on_loss, sizeof(out->on_loss), "%s", w->on_loss);
	snprintf(out->token, sizeof(out->token), "%s", w->token);
}

int
hxd_clients(hxd_conn *c, hxd_client **out, int *n, unsigned long long *you)
{
	Haptix__V1__ClientList *w;
	Response *r;
	size_t i;
	int rc;

	*out = NULL;
	*n = 0;
	rc = request_call(c, HAPTIX__V1__REQUEST__CALL_CLIENTS, NULL,
	    HAPTIX__V1__RESPONSE__PAYLOAD_CLIENTS, &r);
	if (rc != HXD_OK)
		return rc;
	w = r->clients;
	*out = calloc(w->n_clients + 1, sizeof(**out));
	if (*out == NULL) {
		conn_free_response(r);
		return conn_fail(c, HXD_CANNOTRECV, "out of memory");
	}
	for (i = 0; i < w->n_clients; i++)
		conn_client_from_wire(&(*out)[i], w->clients[i]);
	*n = (int)w->n_clients;
	if (you != NULL)
		*you = w->you;
	conn_free_response(r);
	return rc;
}

int
hxd_lease(hxd_conn *c, int op, hxd_lease_info *out)
{
	Haptix__V1__Lease w = HAPTIX__V1__LEASE__INIT;
	Response *r;
	int rc;

	if (op < HXD_LEASE_QUERY || op > HXD_LEASE_RELEASE)
		return conn_fail(c, HXD_BADVALUE,
		    "lease operation %d is not HXD_LEASE_QUERY, _TAKE or "
		    "_RELEASE",
		    op);
	w.op = (Haptix__V1__Lease__Op)op;
	rc = request_call(c, HAPTIX__V1__REQUEST__CALL_LEASE, &w,
	    HAPTIX__V1__RESPONSE__PAYLOAD_LEASE, &r);
	if (rc != HXD_OK)
		return rc;
	if (out != NULL)
		conn_lease_from_wire(out, r->lease);
	conn_free_response(r);
	return rc;
}
