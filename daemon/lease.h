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
#include <stdint.h>

struct daemon;
struct lease;
struct session;

/* Who is told when the lease is taken, released or lost (the event). */
typedef void (*lease_notify_fn)(struct daemon *d);
void lease_set_notify(lease_notify_fn fn);

/* The lease's state (d->lease), made free; lease_free takes NULL. */
struct lease *lease_create(void);
void lease_free(struct lease *l);

/* The session holding the lease, or 0; its name ("" if none). */
uint64_t lease_holder(const struct daemon *d);
const char *lease_holder_name(const struct daemon *d);

/*
 * A batch run holds the simulation: while it steps past its first slice
 * no other client may write, lease or not (call_may_write).  Hold for
 * session id (0: let go); the session holding it, or 0.
 */
void lease_batch_hold(struct daemon *d, uint64_t id);
uint64_t lease_batch(const struct daemon *d);

/* Return 1 if session id shares the lease, having presented its token. */
int lease_shared(const struct daemon *d, uint64_t id);

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
