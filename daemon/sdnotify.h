/*
 * The two systemd protocols a service speaks, written here instead of
 * linking libsystemd (which brings libgcrypt, liblzma, liblz4 and libcap,
 * about a megabyte of resident memory): readiness and status as
 * datagrams to $NOTIFY_SOCKET, and sockets passed at start
 * ($LISTEN_PID, $LISTEN_FDS, $LISTEN_FDNAMES), as sd_notify(3) and
 * sd_listen_fds(3) describe them.  Each is a no-op outside systemd.
 */
#ifndef HXD_SDNOTIFY_H
#define HXD_SDNOTIFY_H

#include <stdint.h>

/* The first socket systemd passes. */
#define SDNOTIFY_FDS_START 3

/* The most names kept from $LISTEN_FDNAMES. */
#define SDNOTIFY_MAX_FDS 64

/*
 * Send text ("READY=1", "STATUS=...") to the service manager.  Returns
 * 1 when sent, 0 without $NOTIFY_SOCKET, or -errno.
 */
int sdnotify_send(const char *text);

/*
 * The sockets passed to this process: their number (0: none), each
 * made close-on-exec, with names[i] pointing into $LISTEN_FDNAMES's
 * copy (or "unknown").  The variables are unset, so that children do
 * not take them.  Returns -errno when they are malformed.
 */
int sdnotify_listen_fds(const char *names[SDNOTIFY_MAX_FDS]);

/*
 * The watchdog interval asked of this process in microseconds, or 0
 * when none is ($WATCHDOG_USEC, for $WATCHDOG_PID if set).
 */
uint64_t sdnotify_watchdog_usec(void);

#endif
