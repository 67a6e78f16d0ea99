/*
 * The daemon's core: the one place that wires the floors together.  The
 * transport and the clock call upward only through the hooks installed
 * here, and a client that leaves is cleaned up by one fan-out.
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

#endif
