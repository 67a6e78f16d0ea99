/* What follows a step, a model load or edit, a client leaving: see lifecycle.h.
 */
#include "config.h"

#include <stdio.h>

#include "clock.h"
#include "daemon.h"
#include "event.h"
#include "hold.h"
#include "motion.h"
#include "perturb.h"
#include "record.h"
#include "rollback.h"
#include "sim.h"
#include "lifecycle.h"
#include "stepguard.h"
#include "stream.h"
#include "tracking.h"
#include "gazebo_world.h"

int
lifecycle_step(struct daemon *d, char *err, size_t len)
{
	int64_t start;
	int rc;

	if (stepguard_check(err, len) != 0)
		return -2;
	sim_before_step(d->sim);
	motion_before_step(d);
	hold_before_step(d); /* before the journal: it writes the model */
	gazebo_world_before_step(d); /* the journal sees its forces */
	record_before_step(d);
	start = stepguard_start();
	rc = sim_step(d->sim, err, len);
	gazebo_world_after_step(d);
	if (rc == 0) {
		stepguard_after_step(d, start);
		rollback_good(d);
	} else if (rc == 1) {
		/* The step went bad: undone, said in err. */
		char why[512];

		snprintf(why, sizeof(why), "%s", err);
		rc = rollback_bad(d, why, err, len) ? -1 : 0;
	} else {
		/* A MuJoCo error: the sim reset the data, as it says. */
		rollback_model_changed(d, 0);
	}
	tracking_after_step();
	stream_after_step(d);
	event_after_step(d, rollback_told());
	record_after_step(d);
	return rc;
}

/* What follows any new model, before the others hear of it. */
static void
lifecycle_model_swapped(struct daemon *d, int edited)
{
	rollback_model_changed(d, edited);
	stepguard_model_changed(d);
	clock_model_changed(d->clock);
	tracking_model_changed(d);
	motion_stop_all();
	perturb_model_changed(d);
	stream_model_changed(d);
}

void
lifecycle_model_changed(struct daemon *d, int reload, const char *why)
{
	record_stop(d, why);
	lifecycle_model_swapped(d, 0);
	gazebo_world_model_changed(d);
	hold_model_changed(d);
	event_model(d, reload);
}

void
lifecycle_model_edited(struct daemon *d, const char *operations,
    const char *removed, const char *transaction)
{
	/* The journal replays an edit: the recording goes on. */
	record_model_edited(
	    d, transaction != NULL ? transaction : operations, removed);
	lifecycle_model_swapped(d, 1);
	gazebo_world_model_edited(d);
	hold_model_edited(d);
	event_model_edited(d, 1, operations, removed);
}
