/*
 * The control lease: by default every client may write; a client that
 * takes the lease becomes the only one that may, until it releases it or
 * disconnects.  What happens to the simulation when the holder vanishes
 * is the daemon's --lease-loss setting.  Each lease has a token, told
 * only to its holder: a client that presents it in its Hello (hxctl
 * lease run passes it to the programs it runs as $HAPTIX_LEASE) shares
 * the lease, and may write while it lasts.
 */
#ifndef HXD_LEASE_H
#define HXD_LEASE_H

#include <stddef.h>

struct daemon;
struct session;

/* Return 1 if s may write: nobody holds the lease, s does or shares it. */
int lease_permits(const struct daemon *d, const struct session *s);

/*
 * s presented token: share the lease; -1 with a reason if it is not the
 * token of the lease now held.
 */
int lease_share(struct daemon *d, struct session *s, const char *token,
    char *err, size_t len);

/* The lease's token if s holds it, else "". */
const char *lease_token(const struct daemon *d, const struct session *s);

/* Take the lease for s; -1 with a reason if another client holds it. */
int lease_take(struct daemon *d, struct session *s, char *err, size_t len);

/* Release the lease s holds; -1 with a reason if s does not hold it. */
int lease_release(struct daemon *d, struct session *s, char *err, size_t len);

/*
 * A session closed: if it held the lease, apply the loss policy (its
 * sharers may no longer write); if it shared it, it no longer does.
 */
void lease_session_closed(struct daemon *d, struct session *s);

#endif
