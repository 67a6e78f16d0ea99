/* What follows a step, a model load or edit, a client leaving: see lifecycle.h.
 */
#include "config.h"

#include <stdio.h>

#include "batch.h"
#include "clock.h"
#include "daemon.h"
#include "event.h"
#include "gazebo_world.h"
#include "hold.h"
#include "lease.h"
#include "lifecycle.h"
#include "loadjob.h"
#include "message.h"
#include "motion.h"
#include "pending.h"
#include "perturb.h"
#include "record.h"
#include "rollback.h"
#include "session.h"
#include "sim.h"
#include "stepguard.h"
#include "stream.h"
#include "tracking.h"

/* What changed: a model loaded or an edit, as the services hear of it. */
struct lifecycle_change {
	int edited;              /* an edit (the state carried), not a load */
	int reload;              /* a load: of the same file again */
	const char *why;         /* a load: why a recording ends */
	const char *operations;  /* an edit: its operations, */
	const char *removed;     /* what it removed, */
	const char *transaction; /* and the journal's text of it */
};

/*
 * Each service's part in a change of model, and in a client leaving, as
 * its own API says it.  The journal replays an edit: an edit's recording
 * goes on, a load's ends.
 */
static void
record_on_model(struct daemon *d, const struct lifecycle_change *c)
{
	if (c->edited)
		record_model_edited(d, c->transaction, c->removed);
	else
		record_stop(d, c->why);
}

static void
rollback_on_model(struct daemon *d, const struct lifecycle_change *c)
{
	rollback_model_changed(d, c->edited);
}

static void
stepguard_on_model(struct daemon *d, const struct lifecycle_change *c)
{
	(void)c;
	stepguard_model_changed(d);
}

static void
clock_on_model(struct daemon *d, const struct lifecycle_change *c)
{
	(void)c;
	clock_model_changed(d->clock);
}

static void
tracking_on_model(struct daemon *d, const struct lifecycle_change *c)
{
	(void)c;
	tracking_model_changed(d);
}

static void
motion_on_model(struct daemon *d, const struct lifecycle_change *c)
{
	(void)c;
	motion_stop_all(d);
}

static void
perturb_on_model(struct daemon *d, const struct lifecycle_change *c)
{
	(void)c;
	perturb_model_changed(d);
}

static void
stream_on_model(struct daemon *d, const struct lifecycle_change *c)
{
	(void)c;
	stream_model_changed(d);
}

static void
world_on_model(struct daemon *d, const struct lifecycle_change *c)
{
	if (c->edited)
		gazebo_world_model_edited(d);
	else
		gazebo_world_model_changed(d);
}

static void
hold_on_model(struct daemon *d, const struct lifecycle_change *c)
{
	if (c->edited)
		hold_model_edited(d);
	else
		hold_model_changed(d);
}

static void
event_on_model(struct daemon *d, const struct lifecycle_change *c)
{
	if (c->edited)
		event_model_edited(d, 1, c->operations, c->removed);
	else
		event_model(d, c->reload);
}

static void
pending_on_left(struct daemon *d, struct session *s)
{
	(void)d;
	pending_session_left(s);
}

static void
loadjob_on_left(struct daemon *d, struct session *s)
{
	loadjob_owner_left(d, s);
}

static void
batch_on_left(struct daemon *d, struct session *s)
{
	(void)d;
	batch_session_closed(s);
}

static void
stream_on_left(struct daemon *d, struct session *s)
{
	(void)d;
	stream_session_closed(s);
}

/* HAPTIX clears a client's message when it disconnects. */
static void
message_on_left(struct daemon *d, struct session *s)
{
	if (message_session_closed(d, s->id))
		event_message(d);
}

static void
event_on_left(struct daemon *d, struct session *s)
{
	if (s->joined)
		event_client(d, s, 0);
}

/*
 * The services, in the order they hear of a new model (loaded or
 * edited) and of a client that left.  A service with no part in one
 * has NULL there.
 */
static const struct lifecycle_service {
	const char *name;
	void (*model)(struct daemon *, const struct lifecycle_change *);
	void (*left)(struct daemon *, struct session *);
} lifecycle_services[] = {
	/* First, nothing more is answered or loaded for a client gone. */
	{ "pending", NULL, pending_on_left },
	{ "loadjob", NULL, loadjob_on_left },
	/* The recording ends, or journals the edit, before anything moves. */
	{ "record", record_on_model, NULL },
	/* The undo state, the step's timing and pacing take the new model. */
	{ "rollback", rollback_on_model, NULL },
	{ "stepguard", stepguard_on_model, NULL },
	{ "clock", clock_on_model, NULL },
	/* A client's batch run, drivers and streams stop. */
	{ "batch", NULL, batch_on_left },
	{ "tracking", tracking_on_model, tracking_session_closed },
	{ "motion", motion_on_model, NULL },
	{ "perturb", perturb_on_model, perturb_session_closed },
	{ "stream", stream_on_model, stream_on_left },
	/* The World API's and the holds' state, found again by names. */
	{ "gazebo_world", world_on_model, NULL },
	{ "hold", hold_on_model, hold_session_closed },
	/* The others hear that the client left, then of its lease and message. */
	{ "event", NULL, event_on_left },
	{ "lease", NULL, lease_session_closed },
	{ "message", NULL, message_on_left },
	/* Last: the others hear of the new model once every service has. */
	{ "event", event_on_model, NULL },
};

#define LIFECYCLE_NSERVICES \
	(sizeof(lifecycle_services) / sizeof(lifecycle_services[0]))

static void
lifecycle_model(struct daemon *d, const struct lifecycle_change *c)
{
	size_t i;

	for (i = 0; i < LIFECYCLE_NSERVICES; i++)
		if (lifecycle_services[i].model != NULL)
			lifecycle_services[i].model(d, c);
}

void
lifecycle_model_changed(struct daemon *d, int reload, const char *why)
{
	struct lifecycle_change c = { .reload = reload, .why = why };

	lifecycle_model(d, &c);
}

void
lifecycle_model_edited(struct daemon *d, const char *operations,
    const char *removed, const char *transaction)
{
	struct lifecycle_change c = { .edited = 1,
		.operations = operations,
		.removed = removed,
		.transaction = transaction != NULL ? transaction : operations };

	lifecycle_model(d, &c);
}

void
lifecycle_client_left(struct session *s)
{
	size_t i;

	for (i = 0; i < LIFECYCLE_NSERVICES; i++)
		if (lifecycle_services[i].left != NULL)
			lifecycle_services[i].left(s->d, s);
}
