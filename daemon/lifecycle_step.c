/* One step and what follows it: see lifecycle_step.h. */
#include "config.h"

#include <stdio.h>

#include "clock.h"
#include "daemon.h"
#include "event.h"
#include "gazebo_world.h"
#include "hold.h"
#include "lifecycle_step.h"
#include "log.h"
#include "motion.h"
#include "record.h"
#include "rollback.h"
#include "sim.h"
#include "sim_history.h"
#include "stepguard.h"
#include "stream.h"
#include "tracking.h"

void
lifecycle_rates(struct daemon *d)
{
	const struct sim_sizes *z;

	if (!clock_follow(d->clock))
		return;
	stream_model_changed(d);
	z = sim_sizes(d->sim);
	log_info("the model's timestep is now %g s and the API rate %g Hz: "
		 "pacing and streams follow",
	    z->timestep, z->apirate);
}

int
lifecycle_step(struct daemon *d, char *err, size_t len)
{
	int64_t start;
	int rc;

	if (stepguard_check(d, err, len) != 0)
		return -2;
	sim_before_step(d->sim);
	motion_before_step(d);
	hold_before_step(d); /* before the journal: it writes the model */
	gazebo_world_before_step(d); /* the journal sees its forces */
	record_before_step(d);
	start = stepguard_start(d);
	rc = sim_step(d->sim, err, len);
	gazebo_world_after_step(d);
	if (rc == 0) {
		stepguard_after_step(d, start);
		rollback_good(d);
		sim_history_push(d->sim);
	} else if (rc == 1) {
		/* The step went bad: undone, said in err. */
		char why[512];

		snprintf(why, sizeof(why), "%s", err);
		rc = rollback_bad(d, why, err, len) ? -1 : 0;
		/* The undo may have put back the timestep. */
		lifecycle_rates(d);
	} else {
		/* A MuJoCo error: the sim reset the data, as it says. */
		rollback_model_changed(d, 0);
	}
	tracking_after_step(d);
	stream_after_step(d);
	event_after_step(d, rollback_told(d));
	record_after_step(d);
	return rc;
}
