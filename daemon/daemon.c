/* The daemon's modules' states, made and freed: see daemon.h. */
#include "config.h"

#include "daemon.h"
#include "lease.h"
#include "message.h"
#include "modeltext.h"

void
daemon_init(struct daemon *d)
{
	d->lease = lease_create();
	d->message = message_create();
	d->model = modeltext_create();
}

void
daemon_free(struct daemon *d)
{
	lease_free(d->lease);
	d->lease = NULL;
	message_free(d->message);
	d->message = NULL;
	modeltext_free(d->model);
	d->model = NULL;
}
