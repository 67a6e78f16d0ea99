/*
 * The daemon's core: the one place that wires the floors together.  The
 * transport and the clock call upward only through the hooks installed
 * here; each module's state is made here for the daemon to hold.
 */
#ifndef HXD_CORE_H
#define HXD_CORE_H

struct daemon;

/*
 * Create d->clock (paused) and connect sessions to dispatch, streams and
 * the core; before the first client.  The call table is the caller's
 * to hand to dispatch (api_table_serve).
 */
void core_start(struct daemon *d);

/*
 * Make each module's state that the daemon holds (daemon.h), before
 * anything else runs (a model load among them); free them at the end.
 * d is zeroed before core_init.
 */
void core_init(struct daemon *d);
void core_free(struct daemon *d);

#endif
