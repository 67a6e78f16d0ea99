/* The daemon's core: see core.h. */
#include "config.h"

#include <stdio.h>

#include "clock.h"
#include "core.h"
#include "daemon.h"
#include "dispatch.h"
#include "event.h"
#include "hold.h"
#include "lease.h"
#include "lifecycle.h"
#include "loadjob.h"
#include "pending.h"
#include "perturb.h"
#include "record.h"
#include "reply.h"
#include "session.h"
#include "stepguard.h"
#include "stream.h"
#include "tracking.h"

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
	.left = lifecycle_client_left,
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
