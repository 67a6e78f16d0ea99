/*
 * The calls about clients rather than the simulation: the Hello
 * handshake, the list of clients and the control lease.
 */
#include "config.h"

#include <stdio.h>

#include "api.h"
#include "arena.h"
#include "clock.h"
#include "protomsg.h"
#include "event.h"
#include "lease.h"
#include "log.h"
#include "options.h"
#include "session.h"
#include "token.h"

int
api_hello(struct call *c)
{
	const Haptix__V1__Hello *h = c->req->hello;
	struct daemon *d = c->d;
	struct session *s = c->s;
	Haptix__V1__Welcome *w;
	const int
	    version = HAPTIX__V1__PROTOCOL_VERSION__PROTOCOL_VERSION_CURRENT;
	size_t i;

	if (h->protocol_version != (uint32_t)version)
		return call_fail(c, RESULT_BADPROTOCOL,
		    "protocol version %u is "
		    "not supported: this server speaks version %d",
		    h->protocol_version, version);
	/* What went in the clear beyond loopback is no secret any more. */
	if (s->transport == SESSION_TCP && !s->tls && !s->loopback &&
	    h->token.len != 0 && !d->opts->allow_cleartext_token)
		return call_fail(c, RESULT_DENIED,
		    "the token came in the clear over TCP from beyond "
		    "loopback: this server takes it over TLS only (connect "
		    "to its tls: address, or start haptixd with "
		    "--allow-cleartext-token)");
	if (s->transport == SESSION_TCP && d->token_len != 0 &&
	    !token_equal(h->token.data, h->token.len, d->token, d->token_len))
		return call_fail(c, RESULT_DENIED,
		    h->token.len == 0 ?
			"this server requires a token on TCP (set "
			"HAPTIX_TOKEN_FILE)" :
			"wrong token");
	/* Only now: a stranger learns nothing, and takes no place. */
	if (sessions_welcomed(d) >= d->opts->max_clients)
		return call_fail(c, RESULT_DENIED,
		    "too many clients (limit %d, --max-clients)",
		    d->opts->max_clients);

	/* Keep the name printable: it goes into logs. */
	snprintf(s->name, sizeof(s->name), "%s", h->client_name);
	for (i = 0; s->name[i] != '\0'; i++) {
		if ((unsigned char)s->name[i] < 0x20 || s->name[i] == 0x7f)
			s->name[i] = '?';
	}
	if (h->lease_token[0] != '\0' &&
	    lease_share(d, s, h->lease_token, c->err, sizeof(c->err)) != 0)
		return RESULT_DENIED;
	event_client(d, s, 1);
	log_debug("client %llu is \"%s\" (%s)", (unsigned long long)s->id,
	    s->name, s->peer);

	w = arena_alloc(c->arena, sizeof(*w));
	haptix__v1__welcome__init(w);
	w->protocol_version = (uint32_t)version;
	w->server_version = (char *)PACKAGE_VERSION;
	w->session_id = s->id;
	w->model = protomsg_summary(c->d, c->arena);
	w->paused = !clock_running(d->clock);
	if (h->shm && !d->opts->no_shm) {
		Haptix__V1__ShmOffer *o = arena_alloc(c->arena, sizeof(*o));

		haptix__v1__shm_offer__init(o);
		if (session_offer_shm(s, &o->request_ring, &o->answer_ring) ==
		    0)
			w->shm = o;
	}
	c->resp->payload_case = HAPTIX__V1__RESPONSE__PAYLOAD_WELCOME;
	c->resp->welcome = w;
	return RESULT_OK;
}

struct clients_walk {
	struct call *c;
	Haptix__V1__ClientList *list;
};

/* Add one session to the list. */
static void
clients_add(struct session *s, void *arg)
{
	struct clients_walk *w = arg;

	if (!s->joined)
		return; /* not a client before its Hello */
	w->list->clients[w->list->n_clients++] = event_client_info(
	    w->c->d, w->c->arena, s);
}

int
api_clients(struct call *c)
{
	Haptix__V1__ClientList *list = NEW(
	    c, Haptix__V1__ClientList, haptix__v1__client_list__init);
	struct clients_walk w = { c, list };

	list->clients = arena_alloc(c->arena,
	    (size_t)(sessions_welcomed(c->d) + 1) * sizeof(*list->clients));
	sessions_foreach(c->d, clients_add, &w);
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
	w->holder = lease_holder(d);
	w->holder_name = (char *)lease_holder_name(d);
	w->on_loss = (char *)options_lease_loss_name(d->opts->lease_loss);
	w->token = (char *)lease_token(d, c->s);
	PAYLOAD(c, lease, LEASE, w);
	return RESULT_OK;
}
