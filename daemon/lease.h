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

/* What to do when the lease holder disconnects. */
enum lease_loss {
	LEASE_LOSS_PAUSE, /* pause the simulation (the default) */
	LEASE_LOSS_KEEP,  /* change nothing: it runs on as the holder left it */
	LEASE_LOSS_HOLD,  /* servos hold the current pose */
	LEASE_LOSS_ZERO,  /* all controls to zero */
};

/* Parse "pause", "keep", "hold" or "zero"; -1 if none of them. */
int lease_loss_parse(const char *s);

/* The name of a policy. */
const char *lease_loss_name(int loss);

/* Return 1 if s may write: nobody holds the lease, or s does. */
int lease_permits(const struct daemon *d, const struct session *s);

/* Take the lease for s; -1 with a reason if another client holds it. */
int lease_take(struct daemon *d, struct session *s, char *err, size_t len);

/* Release the lease s holds; -1 with a reason if s does not hold it. */
int lease_release(struct daemon *d, struct session *s, char *err, size_t len);

/* A session closed: if it held the lease, apply the loss policy. */
void lease_session_closed(struct daemon *d, struct session *s);

#endif
