/*
 * Running under systemd: sockets handed over at start (socket
 * activation), and the service manager told how the daemon is doing
 * (readiness, status line, watchdog, reload, stop).  Outside systemd,
 * every call here does nothing.
 */
#ifndef HXD_SERVICE_H
#define HXD_SERVICE_H

#include <stddef.h>

struct daemon;
struct service;

/*
 * Serve the listening sockets systemd passed (LISTEN_FDS), and forget
 * the variables so that nothing inherits them.  Returns how many; the
 * first one's address goes to first, if that is still empty.
 */
int service_adopt_sockets(struct daemon *d, char *first, size_t len);

/*
 * The daemon is serving: send READY=1 with the status line, and start
 * the status refresh and the watchdog (at half of WatchdogSec) on the
 * daemon's own loop, so that a hung loop stops the pings.
 */
void service_ready(struct daemon *d);

/* A reload begins: RELOADING=1; service_ready() ends it. */
void service_reloading(struct daemon *d);

/* Shutting down: STOPPING=1, and the timers stop. */
void service_stopping(struct daemon *d);

/*
 * Add a note to the status line, such as why the last reload failed,
 * from its next update on; NULL removes it.
 */
void service_note(struct daemon *d, const char *note);

/* The glue's state (d->service); service_free stops its timers too. */
struct service *service_create(void);
void service_free(struct service *svc);

#endif
