/*
 * State shared by the two HAPTIX API flavours (haptix_native.c and
 * haptix_simple.c): the process-wide connection and the last result.
 * Internal to libhaptix.
 */
#ifndef HX_HAPTIX_COMPAT_H
#define HX_HAPTIX_COMPAT_H

#include "haptix.h"
#include "haptixd.h"

/* Return the connection, or NULL after recording mjCOM_NOCONNECTION. */
hxd_conn *compat_connection(void);

/* Connect the process-wide connection to host (see mj_connect()). */
mjtResult compat_connect(const char *host);

/* Close the process-wide connection. */
mjtResult compat_close(void);

/* Record the result of an extension call on the connection. */
mjtResult compat_done(int rc);

/* Record a failure found in the compatibility layer itself. */
mjtResult compat_fail(mjtResult code, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
