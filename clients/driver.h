/*
 * What the input drivers (hx-mocap, hx-spacenav) share beside
 * program.h: the wall clock, the signals they obey, the connection to
 * the server (their numbers: usage_number(), usage.h).
 */
#ifndef HX_DRIVER_H
#define HX_DRIVER_H

#include <signal.h>
#include <stdint.h>

#include "haptixd.h"

/* Set by the signal handlers: stop (SIGINT, SIGTERM), connect (SIGUSR1)
 * and disconnect (SIGUSR2). */
extern volatile sig_atomic_t driver_stop, driver_connect_asked,
    driver_disconnect_asked;

/* Microseconds of the Unix epoch (CLOCK_REALTIME); the monotonic clock
 * and warnings are program_now() and program_warn() (program.h). */
int64_t driver_wall_us(void);

/* Catch SIGINT, SIGTERM, SIGUSR1 and SIGUSR2 (without SA_RESTART, so
 * that a wait returns); ignore SIGPIPE. */
void driver_signals(void);

/* Connect to server as name; NULL after saying why. */
hxd_conn *driver_connect(const char *server, const char *name);

/* Say what a failed call on c was ("WHAT: reason"); returns -1. */
int driver_fail(hxd_conn *c, const char *what);

/*
 * After a failed call on c: 1 if the server refused it but would take
 * another (the lease is another's, no model, a bad value or body), said
 * once until driver_accepted() clears *refused; 0 if the connection is
 * lost or broken (then say so with driver_fail).
 */
int driver_refused(hxd_conn *c, int *refused, const char *what);

/* A call went through: say so if it had been refused. */
void driver_accepted(int *refused, const char *what);

#endif
