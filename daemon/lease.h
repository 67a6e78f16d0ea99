/*
 * The control lease: by default every client may write; a client that
 * takes the lease becomes the only one that may, until it releases it or
 * disconnects.  What happens to the simulation when the holder vanishes
 * is the daemon's --lease-loss setting.
 */
#ifndef HXD_LEASE_H
#define HXD_LEASE_H

#include <stddef.h>

struct daemon;
struct session;

/* Return 1 if s may write: nobody holds the lease, or s does. */
int lease_permits(const struct daemon *d, const struct session *s);

/* Take the lease for s; -1 with a reason if another client holds it. */
int lease_take(struct daemon *d, struct session *s, char *err, size_t len);

/* Release the lease s holds; -1 with a reason if s does not hold it. */
int lease_release(struct daemon *d, struct session *s, char *err, size_t len);

/* A session closed: if it held the lease, apply the loss policy. */
void lease_session_closed(struct daemon *d, struct session *s);

#endif
