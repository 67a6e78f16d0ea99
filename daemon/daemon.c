/* The daemon's modules' states, made and freed: see daemon.h. */
#include "config.h"

#include "daemon.h"
#include "event.h"
#include "gazebo_world.h"
#include "lease.h"
#include "message.h"
#include "modeltext.h"
#include "motion.h"
#include "perturb.h"
#include "record.h"
#include "rollback.h"
#include "stepguard.h"
#include "tracking.h"

void
daemon_init(struct daemon *d)
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
}
