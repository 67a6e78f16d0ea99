/* The daemon's core: see core.h. */
#include "config.h"

#include <stdio.h>

#include "clock.h"
#include "core.h"
#include "daemon.h"
#include "dispatch.h"
#include "event.h"
#include "gazebo_world.h"
#include "hold.h"
#include "lease.h"
#include "lifecycle.h"
#include "lifecycle_step.h"
#include "loadjob.h"
#include "message.h"
#include "modeltext.h"
#include "motion.h"
#include "pending.h"
#include "perturb.h"
#include "record.h"
#include "reply.h"
#include "rollback.h"
#include "service.h"
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
	lease_set_notify(event_lease);
	loadjob_set_peer(core_load_peer);
	d->clock = clock_create(d, &core_clock_hooks);
}

void
core_init(struct daemon *d)
{
	d->lease = lease_create();
	d->message = message_create();
	d->model = modeltext_create();
	d->record = record_create();
	d->perturb = perturb_create();
	d->rollback = rollback_create();
	d->world = gazebo_world_create();
	d->stepguard = stepguard_create();
	d->motion = motion_create();
	d->tracking = tracking_create();
	d->event = events_create();
	d->hold = hold_create();
	d->loadjob = loadjob_create();
	d->service = service_create();
	d->pending = pending_create();
	d->stream = stream_create();
	d->session = sessions_create();
}

void
core_free(struct daemon *d)
{
	lease_free(d->lease);
	d->lease = NULL;
	message_free(d->message);
	d->message = NULL;
	modeltext_free(d->model);
	d->model = NULL;
	record_free(d->record);
	d->record = NULL;
	perturb_free(d->perturb);
	d->perturb = NULL;
	rollback_free(d->rollback);
	d->rollback = NULL;
	gazebo_world_free(d->world);
	d->world = NULL;
	stepguard_free(d->stepguard);
	d->stepguard = NULL;
	motion_free(d->motion);
	d->motion = NULL;
	tracking_free(d->tracking);
	d->tracking = NULL;
	events_free(d->event);
	d->event = NULL;
	hold_free(d->hold);
	d->hold = NULL;
	loadjob_free(d->loadjob);
	d->loadjob = NULL;
	service_free(d->service);
	d->service = NULL;
	pending_free(d->pending);
	d->pending = NULL;
	stream_free(d->stream);
	d->stream = NULL;
	sessions_free(d->session);
	d->session = NULL;
}
