/* The control lease: see lease.h. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "daemon.h"
#include "event.h"
#include "lease.h"
#include "log.h"
#include "options.h"
#include "session.h"
#include "sim.h"

int
lease_permits(const struct daemon *d, const struct session *s)
{
	return d->lease_holder == 0 || d->lease_holder == s->id;
}

int
lease_take(struct daemon *d, struct session *s, char *err, size_t len)
{
	if (d->lease_holder == s->id)
		return 0;
	if (d->lease_holder != 0) {
		snprintf(err, len, "client %llu (%s) holds the control lease",
		    (unsigned long long)d->lease_holder, d->lease_holder_name);
		return -1;
	}
	d->lease_holder = s->id;
	snprintf(
	    d->lease_holder_name, sizeof(d->lease_holder_name), "%s", s->name);
	log_info("client %llu (%s) took the control lease",
	    (unsigned long long)s->id, s->name);
	event_lease(d);
	return 0;
}

int
lease_release(struct daemon *d, struct session *s, char *err, size_t len)
{
	if (d->lease_holder != s->id) {
		snprintf(err, len, "this client does not hold the lease");
		return -1;
	}
	d->lease_holder = 0;
	d->lease_holder_name[0] = '\0';
	log_info("client %llu (%s) released the control lease",
	    (unsigned long long)s->id, s->name);
	event_lease(d);
	return 0;
}

void
lease_session_closed(struct daemon *d, struct session *s)
{
	if (d->lease_holder != s->id)
		return;
	d->lease_holder = 0;
	d->lease_holder_name[0] = '\0';
	log_info("client %llu (%s) left holding the control lease: %s",
	    (unsigned long long)s->id, s->name,
	    options_lease_loss_name(d->opts->lease_loss));
	if (sim_loaded(d->sim)) {
		switch (d->opts->lease_loss) {
		case LEASE_LOSS_PAUSE:
			clock_pause(d->clock);
			break;
		case LEASE_LOSS_HOLD:
			sim_controls_hold(d->sim, 0);
			break;
		case LEASE_LOSS_ZERO:
			sim_controls_hold(d->sim, 1);
			break;
		default:
			break;
		}
	}
	event_lease(d);
}
