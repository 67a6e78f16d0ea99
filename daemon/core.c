/* The daemon's core: see core.h. */
#include "config.h"

#include <stdio.h>

#include "batch.h"
#include "clock.h"
#include "core.h"
#include "daemon.h"
#include "dispatch.h"
#include "event.h"
#include "hold.h"
#include "lease.h"
#include "loadjob.h"
#include "pending.h"
#include "perturb.h"
#include "record.h"
#include "reply.h"
#include "session.h"
#include "lifecycle.h"
#include "stepguard.h"
#include "stream.h"
#include "tracking.h"

/*
 * A client is no longer served: its waiting call, load and batch run stop, the
 * others hear that it left, its subscriptions end, its drivers let go,
 * the lease's loss policy applies if it held the lease, and its message
 * is cleared (HAPTIX clears a client's message when it disconnects).
 */
static void
core_client_left(struct session *s)
{
	struct daemon *d = s->d;

	pending_session_left(s);
	loadjob_owner_left(s);
	hold_session_closed(d, s);
	batch_session_closed(s);
	if (s->joined)
		event_client(d, s, 0);
	stream_session_closed(s);
	perturb_session_closed(d, s);
	tracking_session_closed(d, s);
	lease_session_closed(d, s);
	if (d->message_owner == s->id) {
		d->message[0] = '\0';
		d->message_owner = 0;
		event_message(d);
	}
}

/*
 * Whom a load is counted against when loads are shared out: the
 * session's user or address; the lease holder's go before the others'.
 */
static int
core_load_peer(struct daemon *d, const void *owner, char *key, size_t len)
{
	const struct session *s = owner;

	snprintf(key, len, "%s", s->who);
	return lease_token(d, s)[0] != '\0';
}

static const struct session_hooks core_session_hooks = {
	.frame = dispatch_frame,
	.refuse = reply_refuse,
	.drained = stream_session_drained,
	.left = core_client_left,
};

static const struct clock_hooks core_clock_hooks = {
	.step = lifecycle_step,
	.tick = pending_tick,
	.running = event_run,
	.speed = event_speed,
};

void
core_start(struct daemon *d)
{
	sessions_init(&core_session_hooks);
	tracking_set_notify(event_tracking);
	perturb_set_notify(event_perturbation);
	record_set_notify(event_recording_ended);
	stepguard_set_notify(event_slow_step);
	hold_set_notify(lifecycle_model_edited);
	loadjob_set_peer(core_load_peer);
	d->clock = clock_create(d, &core_clock_hooks);
}
